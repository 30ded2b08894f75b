// The subcommand table. A new command adds one line here and one cmd_*.cpp.
#include <array>

#include "command.hpp"

namespace willfit::app {

std::span<const Command> commands() {
  static const std::array<Command, 0> table{};
  return table;
}

}  // namespace willfit::app
