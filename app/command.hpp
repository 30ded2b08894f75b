// The subcommand table and what every command gets: its arguments, the
// output streams and the environment. Each command lives in its own
// cmd_*.cpp file and is listed once in commands.cpp.
#pragma once

#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sources/environment.hpp"

namespace CLI {
class App;
}

namespace willfit::app {

struct Context {
  std::ostream& out;
  std::ostream& err;
  const Environment& env;
};

using CommandFn = int (*)(const std::vector<std::string>& args, Context& ctx);

struct Command {
  std::string_view name;
  std::string_view summary;
  CommandFn fn;
};

// Every subcommand except the default "will it fit" question.
std::span<const Command> commands();

// The default command: `willfit MODEL [options]`.
int run_fit(const std::vector<std::string>& args, Context& ctx);

// Prints "willfit: error: <message>" on stderr and returns the error exit code.
int fail(Context& ctx, const std::string& message);

// Parses `args` with a configured CLI11 app. Returns -1 to go on, or an exit
// code: 0 after --help/--version (printed on stdout), 2 after a parse error
// (one line on stderr).
int parse_cli(CLI::App& app, const std::vector<std::string>& args, Context& ctx);

// Each command's option names, as its --help lists them ("" is the default
// fit command; hidden commands left out): for completions and for saying
// whose option a misplaced one is.
std::vector<std::pair<std::string, std::vector<std::string>>> options_by_command(
    const Environment& env);

// The version line: "willfit 0.1.0".
std::string version_text();

}  // namespace willfit::app
