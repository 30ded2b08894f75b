#include "help.hpp"

#include <fmt/format.h>

#include "command.hpp"

namespace willfit::app {

std::string commands_help() {
  std::string s = "Commands (each has its own --help):\n";
  for (const auto& cmd : commands()) {
    if (!cmd.summary.empty()) {
      s += fmt::format("  willfit {:<12} {}\n", cmd.name, cmd.summary);
    }
  }
  return s;
}

}  // namespace willfit::app
