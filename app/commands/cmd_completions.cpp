// `willfit completions bash|zsh|fish` prints a shell's completion script
// (completions/*, embedded at build time). The hidden `willfit __complete`
// answers the scripts, one word per line, so they never go stale:
//   __complete devices|models [PREFIX]  names from the same databases the
//       commands read (user files included) that start with PREFIX once
//       both are reduced to lowercase letters and digits ("rtx40" offers
//       "rtx4060", "rtx4090", ...), each continued in the user's spelling;
//       devices complete the last part of a set ("2x ", "rtx 4090+");
//   __complete commands                 the subcommands;
//   __complete options [COMMAND]        the options COMMAND's --help lists
//       (the default fit command when COMMAND is absent);
//   __complete valued [COMMAND]         those of them that take a value;
//   __complete values COMMAND OPTION    the values OPTION takes (COMMAND ""
//       for the default command); exit 1 when it takes no listed values.
#include <algorithm>
#include <cctype>
#include <optional>
#include <ostream>
#include <sstream>

#include "cli.hpp"
#include "command.hpp"
#include "sources/device_source.hpp"
#include "sources/embedded_data.hpp"
#include "sources/model_source.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/core/text.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/inference/runtime.hpp"

namespace willfit::app {
namespace {

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

void print_matches(std::vector<std::string> names, const std::string& prefix, Context& ctx) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  for (const auto& name : names) {
    if (starts_with(name, prefix)) {
      ctx.out << name << '\n';
    }
  }
}

bool is_alnum(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0;
}
bool is_separator(char c) {
  return c == ' ' || c == '-' || c == '_';
}

// Names are matched on their letters and digits alone, lowercase, so
// "rtx40", "RTX 40" and "rtx-40" all start "rtx-4090", and "m3 m" starts
// "m3-max-128gb" (the lookup reads all of these spellings alike).
std::string squash(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (is_alnum(c)) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

// `name` completed from `typed`, in the user's own spelling: what was typed,
// kept as typed (every shell then accepts the word as a completion of it),
// and the rest of `name` after as many letters and digits. The rest's
// separators follow the last one typed ("m3 m" -> "m3 max 128gb"); names
// that would need quoting beyond a space are left out.
std::optional<std::string> continue_name(const std::string& typed, const std::string& name) {
  const std::string want = squash(typed);
  if (!starts_with(squash(name), want)) {
    return std::nullopt;
  }
  std::size_t pos = 0;
  for (std::size_t seen = 0; pos < name.size() && seen < want.size(); ++pos) {
    seen += is_alnum(name[pos]) ? 1U : 0U;
  }
  std::string rest = to_lower(name.substr(pos));
  char sep = 0;
  for (char c : typed) {
    sep = is_separator(c) ? c : sep;
  }
  if (!typed.empty() && (is_separator(typed.back()) || typed.back() == ':')) {
    rest.erase(0, rest.find_first_not_of(" -_:"));
  }
  for (char& c : rest) {
    if (is_separator(c) && sep != 0) {
      c = sep;
    } else if (c == ' ') {
      c = '-';
    } else if (!is_alnum(c) && c != '-' && c != '_' && c != '.' && c != ':') {
      return std::nullopt;
    }
  }
  return typed + rest;
}

// The candidates for a --device word: the part after the last '+' and after
// a leading count ("2x ", "rtx 4090+") is completed, the rest kept. Each
// device is offered once, by the first of its names that matches: id,
// aliases, name, and its words without vendor and product-line words
// ("7900-xtx", "4090").
// Each device once, by the first of its names that `typed` continues.
std::vector<std::string> device_names(const DeviceDb& db, const std::string& kept,
                                      const std::string& typed) {
  std::vector<std::string> out;
  for (const auto& d : db.devices()) {
    std::vector<std::string> names{d.id};
    names.insert(names.end(), d.aliases.begin(), d.aliases.end());
    names.push_back(d.name);
    std::string words;
    for (const auto& w : device_tokens(d.name)) {
      words += (words.empty() ? "" : "-") + w;
    }
    names.push_back(words);
    for (const auto& name : names) {
      if (auto c = continue_name(typed, name)) {
        out.push_back(kept + *c);
        break;
      }
    }
  }
  return out;
}

std::vector<std::string> device_candidates(const DeviceDb& db, const std::string& typed) {
  std::size_t head = typed.rfind('+');
  head = head == std::string::npos ? 0 : head + 1;
  // The part as a name first ("7900x" continues "7900xtx"), as the lookup
  // reads it; then after a count ("2x rtx40").
  auto out = device_names(db, typed.substr(0, head), typed.substr(head));
  std::size_t digits = head;
  while (digits < typed.size() && std::isdigit(static_cast<unsigned char>(typed[digits])) != 0) {
    ++digits;
  }
  std::size_t after = digits;
  while (after < typed.size() && typed[after] == ' ') {
    ++after;
  }
  if (out.empty() && digits > head && after < typed.size() &&
      (typed[after] == 'x' || typed[after] == 'X')) {
    std::size_t name = after + 1;
    while (name < typed.size() && typed[name] == ' ') {
      ++name;
    }
    out = device_names(db, typed.substr(0, name), typed.substr(name));
  }
  return out;
}

std::vector<std::string> model_candidates(const ModelDb& db, const std::string& typed) {
  std::vector<std::string> out;
  for (const auto& e : db.entries()) {
    std::vector<std::string> names{e.model.id};
    names.insert(names.end(), e.aliases.begin(), e.aliases.end());
    names.push_back(e.model.name);
    for (const auto& name : names) {
      if (auto c = continue_name(typed, name)) {
        out.push_back(*c);  // every name: an Ollama tag says more than the id
      }
    }
  }
  return out;
}

// The option names on the option lines of a --help text: a line that starts
// with spaces and a dash, its first field split at commas
// ("  -p,--precision TEXT  ..." gives -p and --precision). With `valued`,
// only options that take a value: a type name follows after one space, where
// a flag's description follows after two (or a note: "Excludes: ...").
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
    // A flag's line may go on with one space and a note ("--fsdp Excludes: --zero").
    const auto after = end == std::string::npos ? end : line.find(' ', end + 1);
    const std::string next =
        end == std::string::npos
            ? ""
            : line.substr(end + 1, after == std::string::npos ? after : after - end - 1);
    if (valued && (next.empty() || next == "Excludes:" || next == "Needs:")) {
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

// `willfit [COMMAND] --help`, captured.
std::string help_of(const Command* command, const Environment& env) {
  std::ostringstream help;
  std::ostringstream err;
  Context quiet{help, err, env};
  const std::vector<std::string> ask{"--help"};
  if (command == nullptr) {
    run_fit(ask, quiet);
  } else {
    command->fn(ask, quiet);
  }
  return help.str();
}

int print_options(const std::vector<std::string>& args, bool valued, Context& ctx) {
  if (args.size() == 1) {
    print_matches(help_options(help_of(nullptr, ctx.env), valued), "", ctx);
    return kExitFits;
  }
  for (const auto& cmd : commands()) {
    if (args[1] == cmd.name && !cmd.summary.empty()) {
      print_matches(help_options(help_of(&cmd, ctx.env), valued), "", ctx);
    }
  }
  return kExitFits;
}

// The values an option takes, for `__complete values COMMAND OPTION`
// (COMMAND "" is the default fit command), or nullopt when it takes no
// listed values (a number, a size). Lists the program keeps (precisions, KV
// types, runtimes, vendors and memory types of the device data) come from it;
// the others are the words the option's parser accepts. A unit test checks
// that every value offered here is accepted by its command.
std::optional<std::vector<std::string>> option_values(const std::string& cmd,
                                                      const std::string& option,
                                                      const Environment& env) {
  using Words = std::vector<std::string>;
  const auto is = [&](std::initializer_list<const char*> names) {
    for (const char* n : names) {
      if (option == n) {
        return true;
      }
    }
    return false;
  };
  if (cmd == "train") {
    if (is({"-p", "--precision"})) {
      return Words{"bf16", "fp16", "fp32", "fp8"};
    }
    if (is({"--flash-attn"})) {
      return Words{"on", "off"};
    }
    if (is({"--method"})) {
      return Words{"full", "lora", "qlora"};
    }
    if (is({"--optimizer"})) {
      return Words{"adamw", "adamw-8bit", "sgd", "sgd-momentum", "adafactor", "lion"};
    }
    if (is({"--master-weights"})) {
      return Words{"fp32", "none"};
    }
    if (is({"--grad-dtype"})) {
      return Words{"bf16", "fp16", "fp32", "bf16+fp32"};
    }
    if (is({"--checkpointing"})) {
      return Words{"none", "selective", "full"};
    }
    if (is({"--zero"})) {
      return Words{"0", "1", "2", "3"};
    }
    if (is({"--lora-targets"})) {
      return Words{"q_proj,v_proj", "all-linear", "q_proj",  "k_proj",   "v_proj",
                   "o_proj",        "gate_proj",  "up_proj", "down_proj"};
    }
    if (is({"-s", "--seq-len"})) {
      return Words{"512", "1024", "2048", "4096", "8192", "16k", "32k"};
    }
  }
  if (cmd == "cost") {
    if (is({"--hours-per-day"})) {
      return Words{"1", "2", "4", "8", "12", "24"};
    }
    if (is({"--years"})) {
      return Words{"1", "2", "3", "4", "5"};
    }
  }
  if (cmd == "which" && is({"--sort"})) {
    return Words{"price", "memory", "speed"};
  }
  if (cmd != "train" && is({"-p", "--precision"})) {
    Words out;
    if (cmd == "max") {
      out.emplace_back("best");
    }
    for (const auto& p : all_precisions()) {
      out.push_back(p.id);
    }
    out.insert(out.end(), {"q8", "q6", "q5", "q4", "q3", "q2"});  // parse_precision's shorthands
    return out;
  }
  if (is({"--kv-type"})) {
    Words out;
    for (const auto& k : all_kv_types()) {
      out.push_back(k.id);
    }
    return out;
  }
  if (is({"--runtime"})) {
    Words out;
    for (const Runtime r : all_runtimes()) {
      out.emplace_back(to_string(r));
    }
    return out;
  }
  if (is({"-c", "--context"})) {
    Words out{"2048", "4096", "8192", "16k", "32k", "64k", "128k"};
    if (cmd.empty()) {
      out.emplace_back("max");
    }
    return out;
  }
  if (is({"--vendor"})) {
    DeviceSource source(env, "");
    auto db = source.get();
    return db ? (*db)->vendors() : Words{};
  }
  if (is({"--ram-bandwidth"})) {
    // The memory types --ram-bandwidth reads: the cpu rows of the embedded data.
    Words out;
    if (const auto& db = embedded_device_db()) {
      for (const auto& d : db->devices()) {
        if (d.kind == DeviceKind::Cpu && d.bandwidth_gb_per_s) {
          out.push_back(d.id);
        }
      }
    }
    return out;
  }
  if (is({"--flash-attn"})) {
    return Words{"auto", "on", "off"};
  }
  if (is({"--cpu-features"})) {
    Words out;
    for (const CpuFeatures f : {CpuFeatures::Avx2, CpuFeatures::Avx512, CpuFeatures::Amx,
                                CpuFeatures::Neon, CpuFeatures::None}) {
      out.emplace_back(to_string(f));
    }
    return out;
  }
  if (is({"--split"})) {
    return Words{"layer", "tensor"};
  }
  if (is({"--units"})) {
    return Words{"si", "iec"};
  }
  if (is({"--color"})) {
    return Words{"auto", "always", "never"};
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::pair<std::string, std::vector<std::string>>> options_by_command(
    const Environment& env) {
  // Built once per process: the option names are fixed in the program (the
  // environment only fills in defaults shown in the help text), and building
  // them runs every command's --help.
  static const auto names = [&env] {
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    out.emplace_back("", help_options(help_of(nullptr, env), false));
    for (const auto& cmd : commands()) {
      if (!cmd.summary.empty() && cmd.name != "completions") {
        out.emplace_back(std::string(cmd.name), help_options(help_of(&cmd, env), false));
      }
    }
    return out;
  }();
  return names;
}

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
  if (args.size() == 3 && args[0] == "values") {
    const auto values = option_values(args[1], args[2], ctx.env);
    for (const auto& v : values.value_or(std::vector<std::string>{})) {
      ctx.out << v << '\n';
    }
    return values ? kExitFits : kExitNoFit;
  }
  if (args.empty() || args.size() > 2) {
    return fail(ctx,
                "__complete needs devices|models|commands|options|valued and one more word, or "
                "values COMMAND OPTION");
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
    names = device_candidates(**db, prefix);
  } else if (args[0] == "models") {
    auto db = load_model_db(ctx.env, "");
    if (!db) {
      return fail(ctx, db.error().message);
    }
    names = model_candidates(**db, prefix);
  } else {
    return fail(ctx, "__complete: unknown kind '" + args[0] + "': use devices or models");
  }
  print_matches(std::move(names), prefix, ctx);
  return kExitFits;
}

}  // namespace willfit::app
