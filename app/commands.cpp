// The subcommand table. A new command adds one line here and one cmd_*.cpp.
#include <array>

#include "command.hpp"

namespace willfit::app {

int run_models(const std::vector<std::string>& args, Context& ctx);

std::span<const Command> commands() {
  static const std::array table{
      Command{"models", "list the models willfit knows by name", run_models},
  };
  return table;
}

}  // namespace willfit::app
