// Input that is refused, not guessed (issue 17): every option of every
// command swept for an empty value, device names that hold numbers, and the
// same "no match" rule across the listing commands. The single cases found by
// hand live in tests/bad_input/cases.txt; these sweeps take the option lists
// from each command's --help, so a new option is swept without a new line here.
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/harness.hpp"

namespace willfit {
namespace {

using test::is_clean_error;
using test::run_cli;

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    out.push_back(line);
  }
  return out;
}

// A valid question per command, and the options it already gives (left out of
// the sweep's base when the swept option is one of them).
struct Base {
  std::string command;  // "" is the default fit command
  std::vector<std::string> args;
};

const std::vector<Base>& bases() {
  static const std::vector<Base> all = {
      {"", {"7b", "-d", "24gb"}},           {"train", {"train", "7b", "-d", "24gb"}},
      {"max", {"max", "-d", "24gb"}},       {"which", {"which", "7b"}},
      {"cost", {"cost", "-d", "rtx 4090"}}, {"devices", {"devices"}},
      {"device", {"device", "rtx 4090"}},   {"models", {"models"}},
  };
  return all;
}

// `base` without the options in `same` and their values.
std::vector<std::string> without(const std::vector<std::string>& base,
                                 const std::vector<std::string>& same) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < base.size(); ++i) {
    bool drop = false;
    for (const auto& s : same) {
      drop = drop || base[i] == s;
    }
    if (drop) {
      ++i;  // its value
      continue;
    }
    out.push_back(base[i]);
  }
  return out;
}

TEST(StrictInput, EveryValuedOptionOfEveryCommandRefusesAnEmptyValue) {
  int swept = 0;
  for (const Base& base : bases()) {
    std::vector<std::string> ask{"__complete", "valued"};
    if (!base.command.empty()) {
      ask.push_back(base.command);
    }
    const auto valued = lines(run_cli(ask).out);
    ASSERT_GE(valued.size(), 2U) << "willfit " << base.command;
    for (const auto& option : valued) {
      // The short and long spellings of -d, which the bases give.
      const bool device = option == "-d" || option == "--device";
      const std::vector<std::string> same =
          device ? std::vector<std::string>{"-d", "--device"} : std::vector<std::string>{option};
      for (const char* blank : {"", "  "}) {
        auto args = without(base.args, same);
        args.push_back(option);
        args.push_back(blank);
        const auto r = run_cli(args);
        EXPECT_TRUE(is_clean_error(r)) << "willfit " << base.command << " " << option << " '"
                                       << blank << "': exit " << r.code << " " << r.out << r.err;
        EXPECT_NE(r.err.find("is empty"), std::string::npos)
            << "willfit " << base.command << " " << option << " '': " << r.err;
        ++swept;
      }
    }
  }
  EXPECT_GE(swept, 2 * 80);  // every command's options, both blanks
}

TEST(StrictInput, EmptyPositionalsAreRefused) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{""},
                                             {" ", "-d", "24gb"},
                                             {"train", ""},
                                             {"max", "", "-d", "24gb"},
                                             {"which", ""},
                                             {"devices", ""},
                                             {"device", ""},
                                             {"models", ""},
                                             {"completions", ""}}) {
    const auto r = run_cli(args);
    EXPECT_TRUE(is_clean_error(r)) << args.front() << ": " << r.out << r.err;
  }
}

// Numbers that are part of a device's name are names: the database is asked
// before a count is read. Counts: "N x", "Nx" before the name, "x N", "xN"
// after it, ":N".
TEST(StrictInput, NumbersInDeviceNamesAreNamesAndCountsAreCounts) {
  struct Case {
    const char* device;
    const char* shown;  // in the verdict line
  };
  for (const Case& c :
       {Case{"7900 xtx", "on Radeon RX 7900 XTX with"},
        Case{"7900xtx", "on Radeon RX 7900 XTX with"}, Case{"7900 xt", "on Radeon RX 7900 XT with"},
        Case{"rx 7900 xtx", "on Radeon RX 7900 XTX with"},
        Case{"4090 x2", "on 2x GeForce RTX 4090 with"},
        Case{"3090x2", "on 2x GeForce RTX 3090 with"},
        Case{"rtx 3090 x 2", "on 2x GeForce RTX 3090 with"},
        Case{"2x 7900 xtx", "on 2x Radeon RX 7900 XTX with"},
        Case{"2 x 7900xtx", "on 2x Radeon RX 7900 XTX with"},
        Case{"7900 xtx x2", "on 2x Radeon RX 7900 XTX with"},
        Case{"7900xtx:2", "on 2x Radeon RX 7900 XTX with"},
        Case{"rtx 4090:2", "on 2x GeForce RTX 4090 with"},
        Case{"24gbx2", "on 2x 24.0 GiB GPU with"}, Case{"2x24gb", "on 2x 24.0 GiB GPU with"}}) {
    const auto r = run_cli({"7b", "-p", "q4_k_m", "-d", c.device});
    EXPECT_EQ(r.code, 0) << c.device << ": " << r.err;
    EXPECT_NE(r.out.find(c.shown), std::string::npos) << c.device << ": " << r.out.substr(0, 200);
  }
}

// The same rule for "no match" in every command that looks something up:
// exit 2, one line, nothing on stdout.
TEST(StrictInput, NoMatchIsTheSameErrorEverywhere) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"devices", "zzzz"},
                                             {"models", "zzzz"},
                                             {"device", "zzzz"},
                                             {"zzzz", "-d", "24gb"},
                                             {"7b", "-d", "zzzz"},
                                             {"devices", "--vendor", "zzzz"},
                                             {"which", "7b", "--vendor", "zzzz"},
                                             {"cost", "-d", "zzzz"},
                                             {"max", "-d", "zzzz"},
                                             {"train", "7b", "-d", "zzzz"}}) {
    EXPECT_TRUE(is_clean_error(run_cli(args))) << args.front() << " " << args.back();
  }
  // Listings with a match still answer.
  EXPECT_EQ(run_cli({"devices", "4090"}).code, 0);
  EXPECT_EQ(run_cli({"devices", "--vendor", "NVIDIA"}).code, 0);
  EXPECT_EQ(run_cli({"models", "qwen"}).code, 0);
}

// An option given to the wrong command names the command it belongs to.
TEST(StrictInput, OptionsOfAnotherCommandSayWhose) {
  const auto fit = run_cli({"7b", "-d", "24gb", "--method", "lora"});
  EXPECT_TRUE(is_clean_error(fit));
  EXPECT_NE(fit.err.find("'willfit train'"), std::string::npos) << fit.err;
  const auto train = run_cli({"train", "7b", "--kv-type", "q8_0"});
  EXPECT_TRUE(is_clean_error(train));
  EXPECT_NE(train.err.find("'willfit'"), std::string::npos) << train.err;
  // An option no command has is unknown, and nothing close is offered.
  const auto none = run_cli({"7b", "--frobnicate"});
  EXPECT_TRUE(is_clean_error(none));
  EXPECT_NE(none.err.find("unknown option --frobnicate"), std::string::npos) << none.err;
  EXPECT_EQ(none.err.find("did you mean"), std::string::npos) << none.err;
}

// A misspelled option names the closest one, rather than CLI11's "The
// following arguments were not expected: q4 --precison".
TEST(StrictInput, AMisspelledOptionNamesTheClosest) {
  auto r = run_cli({"7b", "--precison", "q4"});
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_EQ(r.err, "willfit: error: unknown option --precison; did you mean --precision?\n");
  r = run_cli({"7b", "--devcie=8gb"});
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_EQ(r.err, "willfit: error: unknown option --devcie; did you mean --device?\n");
  r = run_cli({"max", "-d", "8gb", "--precisoin", "q4"});
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("did you mean --precision?"), std::string::npos) << r.err;
}

// The options each runtime reads are accepted with it.
TEST(StrictInput, RuntimeOptionsAreAcceptedByTheirRuntime) {
  EXPECT_EQ(run_cli({"7b", "-d", "2x rtx 3090", "--runtime", "vllm", "--tp", "2",
                     "--gpu-memory-utilization", "0.8"})
                .code,
            0);
  // -ngl 20 of 33 offloads the rest to system RAM: exit 1, an answer.
  EXPECT_EQ(run_cli({"7b", "-p", "q4", "-d", "2x rtx 3090", "--tensor-split", "3,1", "--ngl", "20",
                     "--ubatch", "256"})
                .code,
            1);
  EXPECT_EQ(
      run_cli({"7b", "-p", "q4", "-d", "2x rtx 3090", "--runtime", "ollama", "--ngl", "20"}).code,
      1);
  EXPECT_NE(run_cli({"8x7b", "-p", "q4", "-d", "24gb", "--n-cpu-moe", "8"}).code, 2);
  EXPECT_EQ(run_cli({"7b", "-d", "24gb", "--gpu-limit", "24gb"}).code, 0);
  EXPECT_EQ(run_cli({"7b", "-p", "q4", "-d", "rtx 4090+rtx-3060-12gb", "--gpu-limit", "12gb"}).code,
            0);
}

}  // namespace
}  // namespace willfit
