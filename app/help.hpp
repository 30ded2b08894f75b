// Help text shared by the commands.
#pragma once

#include <string>

namespace willfit::app {

// "Commands:" and one line per subcommand (name and summary; hidden ones
// left out), for the default command's --help.
std::string commands_help();

// The tail of the listing commands' --help (devices, device, models): units
// and exit codes.
inline constexpr const char* kListingHelpTail =
    "\nUnits: memory sizes are binary: \"24gb\" = 24 GiB (2^30 bytes); bandwidth in GB/s\n"
    "  (10^9 bytes per second).\n"
    "Exit codes: 0 printed, 2 error (one line on stderr).\n";

}  // namespace willfit::app
