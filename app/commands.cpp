// The subcommand table. A new command adds one line here and one cmd_*.cpp.
#include <array>

#include "command.hpp"

namespace willfit::app {

int run_train(const std::vector<std::string>& args, Context& ctx);

std::span<const Command> commands() {
  static const std::array<Command, 1> table{{
      {"train", "memory to train or fine-tune a model", run_train},
  }};
  return table;
}

}  // namespace willfit::app
