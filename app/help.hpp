// Help text shared by the commands.
#pragma once

#include <string>

namespace willfit::app {

// "Commands:" and one line per subcommand (name and summary; hidden ones
// left out), for the default command's --help.
std::string commands_help();

}  // namespace willfit::app
