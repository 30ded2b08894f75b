// `willfit completions bash|zsh|fish` prints a shell's completion script
// (completions/*, embedded at build time). The hidden `willfit __complete`
// answers the scripts, one word per line, so they never go stale:
//   __complete devices|models [PREFIX]  ids and aliases from the same
//       databases the commands read (user files included);
//   __complete commands                 the subcommands;
//   __complete options [COMMAND]        the options COMMAND's --help lists
//       (the default fit command when COMMAND is absent);
//   __complete valued [COMMAND]         those of them that take a value.
#include <algorithm>
#include <ostream>
#include <sstream>

#include "cli.hpp"
#include "command.hpp"
#include "sources/device_source.hpp"
#include "sources/embedded_data.hpp"
#include "sources/model_source.hpp"

namespace willfit::app {
namespace {

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

void print_matches(std::vector<std::string> names, const std::string& prefix, Context& ctx) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  for (const auto& name : names) {
    // Completion words are single shell words: names with spaces are left to the ids.
    if (starts_with(name, prefix) && name.find(' ') == std::string::npos) {
      ctx.out << name << '\n';
    }
  }
}

// The option names on the option lines of a --help text: a line that starts
// with spaces and a dash, its first field split at commas
// ("  -p,--precision TEXT  ..." gives -p and --precision). With `valued`,
// only options that take a value: a type name follows after one space, where
// a flag's description follows after two.
std::vector<std::string> help_options(const std::string& help, bool valued) {
  std::vector<std::string> names;
  std::istringstream lines(help);
  std::string line;
  while (std::getline(lines, line)) {
    const auto start = line.find_first_not_of(' ');
    if (start == 0 || start == std::string::npos || line[start] != '-') {
      continue;
    }
    const auto end = line.find(' ', start);
    if (valued && (end == std::string::npos || end + 1 >= line.size() || line[end + 1] == ' ')) {
      continue;
    }
    std::istringstream field(line.substr(start, end == std::string::npos ? end : end - start));
    std::string name;
    while (std::getline(field, name, ',')) {
      if (name.size() > 1 && name[0] == '-') {
        names.push_back(name);
      }
    }
  }
  return names;
}

int print_options(const std::vector<std::string>& args, bool valued, Context& ctx) {
  std::ostringstream help;
  std::ostringstream err;
  Context quiet{help, err, ctx.env};
  const std::vector<std::string> ask{"--help"};
  if (args.size() == 1) {
    run_fit(ask, quiet);
  } else {
    for (const auto& cmd : commands()) {
      if (args[1] == cmd.name && !cmd.summary.empty()) {
        cmd.fn(ask, quiet);
      }
    }
  }
  print_matches(help_options(help.str(), valued), "", ctx);
  return kExitFits;
}

}  // namespace

int run_completions(const std::vector<std::string>& args, Context& ctx) {
  if (args.size() == 1 && (args[0] == "-h" || args[0] == "--help")) {
    ctx.out << "Print a shell completion script.\n\n"
               "Usage: willfit completions bash|zsh|fish\n\n"
               "Examples:\n"
               "  willfit completions bash > ~/.local/share/bash-completion/completions/willfit\n"
               "  willfit completions zsh > ~/.zfunc/_willfit   (a folder on $fpath)\n"
               "  willfit completions fish > ~/.config/fish/completions/willfit.fish\n\n"
               "Exit codes: 0 printed, 2 error.\n";
    return kExitFits;
  }
  if (args.size() != 1) {
    return fail(ctx, "completions needs one shell: bash, zsh or fish");
  }
  const std::string_view script = embedded_completion(args[0]);
  if (script.empty()) {
    return fail(ctx, "unknown shell '" + args[0] + "': use bash, zsh or fish");
  }
  ctx.out << script;
  return kExitFits;
}

int run_complete(const std::vector<std::string>& args, Context& ctx) {
  if (args.empty() || args.size() > 2) {
    return fail(ctx, "__complete needs devices|models|commands|options|valued and one more word");
  }
  if (args[0] == "options" || args[0] == "valued") {
    return print_options(args, args[0] == "valued", ctx);
  }
  if (args[0] == "commands") {
    for (const auto& cmd : commands()) {
      if (!cmd.summary.empty()) {  // hidden commands have no summary
        ctx.out << cmd.name << '\n';
      }
    }
    return kExitFits;
  }
  const std::string prefix = args.size() == 2 ? args[1] : "";
  std::vector<std::string> names;
  if (args[0] == "devices") {
    DeviceSource source(ctx.env, "");
    auto db = source.get();
    if (!db) {
      return fail(ctx, db.error().message);
    }
    for (const auto& d : (*db)->devices()) {
      names.push_back(d.id);
      names.insert(names.end(), d.aliases.begin(), d.aliases.end());
    }
  } else if (args[0] == "models") {
    auto db = load_model_db(ctx.env, "");
    if (!db) {
      return fail(ctx, db.error().message);
    }
    for (const auto& e : db->entries()) {
      names.push_back(e.model.id);
      names.insert(names.end(), e.aliases.begin(), e.aliases.end());
    }
  } else {
    return fail(ctx, "__complete: unknown kind '" + args[0] + "': use devices or models");
  }
  print_matches(std::move(names), prefix, ctx);
  return kExitFits;
}

}  // namespace willfit::app
