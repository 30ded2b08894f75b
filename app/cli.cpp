// Dispatch: the first argument names a subcommand, or else it is the MODEL
// of the default "will it fit" question. Every error ends here as one line.
#include "cli.hpp"

#include <exception>
#include <map>
#include <ostream>

#include <CLI/CLI.hpp>

#include "command.hpp"
#include "sources/device_source.hpp"

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
  } catch (const CLI::ParseError& e) {
    return fail(ctx, std::string(e.what()) + " (see --help)");
  }
  return -1;
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
