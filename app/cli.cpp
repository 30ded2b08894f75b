// Dispatch: the first argument names a subcommand, or else it is the MODEL
// of the default "will it fit" question. Every error ends here as one line.
#include "cli.hpp"

#include <algorithm>
#include <exception>
#include <map>
#include <ostream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "command.hpp"
#include "sources/device_source.hpp"
#include "sources/model_source.hpp"
#include "willfit/core/text.hpp"

namespace willfit::app {
namespace {

// The error line shows the user's input quoted, so it may hold anything a
// shell can pass: line breaks become spaces (one line, always), and other
// control bytes (escape sequences, NUL) become '?' so an argument cannot
// drive the terminal.
std::string one_line(std::string s) {
  for (char& c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n' || c == '\r' || c == '\t') {
      c = ' ';
    } else if (u < 0x20 || u == 0x7f) {
      c = '?';
    }
  }
  while (!s.empty() && s.back() == ' ') {
    s.pop_back();
  }
  return s;
}

// An option given with nothing in it is what an unset shell variable leaves
// (`-d "$GPU"`): read as "not given", it would turn into an answer about no
// device at all. Every option that takes a value refuses an empty one.
int refuse_empty_values(const CLI::App& app, Context& ctx) {
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->count() == 0 || opt->get_expected_min() == 0) {
      continue;  // not given, or a flag
    }
    for (const auto& value : opt->results()) {
      if (trim(value).empty()) {
        const std::string name = opt->get_name();
        return fail(ctx, name + " is empty: give a value" +
                             (opt->get_required()    ? ""
                              : opt->nonpositional() ? " or leave the option out"
                                                     : " or leave it out") +
                             " (an unset shell variable gives an empty one)");
      }
    }
  }
  return -1;
}

// A database file the user named (--devices, --models, WILLFIT_DEVICES,
// WILLFIT_MODELS) is read on every run, not only when a name must be looked
// up: a file that is missing or broken is an error even when the question
// ("-d 24gb") would not have needed it.
int check_named_databases(const CLI::App& app, Context& ctx) {
  const auto given = [&](const char* option) -> std::string {
    const CLI::Option* opt = app.get_option_no_throw(option);
    return opt != nullptr && opt->count() > 0 ? opt->as<std::string>() : "";
  };
  const auto set = [&](const char* var) {
    const auto value = ctx.env.get(var);
    return value && !value->empty();
  };
  const std::string devices_file = given("--devices");
  if (!devices_file.empty() || set("WILLFIT_DEVICES")) {
    DeviceSource source(ctx.env, devices_file);
    if (auto db = source.get(); !db) {
      return fail(ctx, db.error().message);
    }
  }
  const std::string models_file = given("--models");
  if (!models_file.empty() || set("WILLFIT_MODELS")) {
    if (auto db = load_model_db(ctx.env, models_file); !db) {
      return fail(ctx, db.error().message);
    }
  }
  return -1;
}

// An option this command does not have but another one does ("willfit 7b
// --method lora"): say whose it is, rather than CLI11's "not expected".
std::string foreign_option_hint(const CLI::App& app, const std::vector<std::string>& args,
                                const Environment& env) {
  for (const auto& arg : args) {
    if (arg == "--") {
      break;
    }
    if (arg.size() < 2 || arg[0] != '-') {
      continue;
    }
    const std::string name = arg.substr(0, arg.find('='));
    if (app.get_option_no_throw(name) != nullptr) {
      continue;
    }
    std::string owners;
    for (const auto& [command, options] : options_by_command(env)) {
      if (std::find(options.begin(), options.end(), name) != options.end()) {
        owners += (owners.empty() ? "" : ", ") +
                  ("'willfit" + (command.empty() ? "" : " " + command) + "'");
      }
    }
    if (!owners.empty()) {
      return fmt::format("{} is not an option of '{}': it belongs to {} (see its --help)", name,
                         app.get_name(), owners);
    }
    // No command has it: a misspelling ("--precison"). CLI11 would say the
    // option and the value after it were "not expected"; name the closest
    // option of this command instead.
    std::vector<std::string> names;
    for (const CLI::Option* opt : app.get_options()) {
      for (const auto& lname : opt->get_lnames()) {
        names.push_back("--" + lname);
      }
    }
    const auto near = closest(name, names, 1);
    return near.empty() ? fmt::format("unknown option {} (see --help)", name)
                        : fmt::format("unknown option {}; did you mean {}?", name, near.front());
  }
  return "";
}

// --offline and --refresh apply to every command that reads a MODEL, so they
// are taken out of the arguments here and passed down as the variables the
// model sources read (WILLFIT_OFFLINE, WILLFIT_REFRESH; docs/remote.md).
class FlagEnvironment final : public ForwardingEnvironment {
 public:
  FlagEnvironment(const Environment& base, std::map<std::string, std::string> vars)
      : ForwardingEnvironment(base), vars_(std::move(vars)) {}
  [[nodiscard]] std::optional<std::string> get(const std::string& name) const override {
    if (const auto it = vars_.find(name); it != vars_.end()) {
      return it->second;
    }
    return base_.get(name);
  }

 private:
  std::map<std::string, std::string> vars_;
};

}  // namespace

std::string version_text() {
  return std::string("willfit ") + WILLFIT_VERSION + "\n" + embedded_devices_summary();
}

int fail(Context& ctx, const std::string& message) {
  ctx.err << "willfit: error: " << one_line(message) << '\n';
  return kExitError;
}

int parse_cli(CLI::App& app, const std::vector<std::string>& args, Context& ctx) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    ctx.out << app.help();
    return kExitFits;
  } catch (const CLI::CallForAllHelp&) {
    ctx.out << app.help("", CLI::AppFormatMode::All);
    return kExitFits;
  } catch (const CLI::CallForVersion&) {
    ctx.out << version_text() << '\n';
    return kExitFits;
  } catch (const CLI::ExtrasError& e) {
    const std::string hint = foreign_option_hint(app, args, ctx.env);
    return fail(ctx, hint.empty() ? std::string(e.what()) + " (see --help)" : hint);
  } catch (const CLI::ArgumentMismatch& e) {
    // CLI11 words an option given twice as "--context: At Most 1 required
    // but received 2"; a suggested change pasted after the user's own flag
    // is the usual way to get there.
    const std::string what = e.what();
    const auto colon = what.find(": At Most 1 required");
    if (colon != std::string::npos) {
      return fail(ctx, what.substr(0, colon) +
                           " is given more than once: give it once (a suggested change "
                           "replaces your own value)");
    }
    return fail(ctx, what + " (see --help)");
  } catch (const CLI::ParseError& e) {
    return fail(ctx, std::string(e.what()) + " (see --help)");
  }
  if (const int code = refuse_empty_values(app, ctx); code >= 0) {
    return code;
  }
  return check_named_databases(app, ctx);
}

int run(const std::vector<std::string>& all_args, std::ostream& out, std::ostream& err,
        const Environment& base_env) {
  std::vector<std::string> args;
  std::map<std::string, std::string> flags;
  bool after_dashes = false;
  for (const auto& a : all_args) {
    after_dashes = after_dashes || a == "--";
    if (!after_dashes && (a == "--offline" || a == "--refresh")) {
      flags[a == "--offline" ? "WILLFIT_OFFLINE" : "WILLFIT_REFRESH"] = "1";
    } else {
      args.push_back(a);
    }
  }
  const FlagEnvironment env(base_env, std::move(flags));
  Context ctx{out, err, env};
  try {
    if (!args.empty()) {
      for (const auto& cmd : commands()) {
        if (args.front() == cmd.name) {
          return cmd.fn(std::vector<std::string>(args.begin() + 1, args.end()), ctx);
        }
      }
      // Ollama's verbs for what is on the machine, typed at willfit: point to
      // its own commands rather than answer "unknown model".
      if (args.front() == "list" || args.front() == "ls" || args.front() == "ps") {
        return fail(ctx, fmt::format("'{}' is not a willfit command: 'willfit local' lists the "
                                     "models on this machine (Ollama, Hugging Face cache), "
                                     "'willfit models' the ones willfit knows by name",
                                     args.front()));
      }
    }
    return run_fit(args, ctx);
  } catch (const std::exception& e) {
    // Nothing below should throw; if something does, the user still gets one line.
    return fail(ctx, std::string("internal error: ") + e.what());
  } catch (...) {
    return fail(ctx, "internal error");
  }
}

}  // namespace willfit::app
