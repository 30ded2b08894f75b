// `willfit completions SHELL` and the hidden `willfit __complete ...` that the
// scripts call. The scripts themselves run in real shells in
// tests/completions/run.sh (CTest: Completions.Shells).
#include <gtest/gtest.h>

#include "cli/harness.hpp"

namespace willfit {
namespace {

using test::is_clean_error;
using test::run_cli;

bool has_line(const std::string& text, const std::string& line) {
  return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

TEST(Completions, PrintsEachShellsScript) {
  const auto bash = run_cli({"completions", "bash"});
  EXPECT_EQ(bash.code, 0);
  EXPECT_NE(bash.out.find("complete -F _willfit willfit"), std::string::npos);
  EXPECT_NE(run_cli({"completions", "zsh"}).out.find("#compdef willfit"), std::string::npos);
  EXPECT_NE(run_cli({"completions", "fish"}).out.find("complete -c willfit"), std::string::npos);
  EXPECT_NE(run_cli({"completions", "--help"}).out.find("Exit codes"), std::string::npos);
}

TEST(Completions, UnknownShellIsOneErrorLine) {
  EXPECT_TRUE(is_clean_error(run_cli({"completions", "tcsh"})));
  EXPECT_TRUE(is_clean_error(run_cli({"completions"})));
  EXPECT_TRUE(is_clean_error(run_cli({"__complete", "colours", "x"})));
}

TEST(Completions, DeviceAndModelNamesByPrefix) {
  const auto d = run_cli({"__complete", "devices", "rtx-40"});
  ASSERT_EQ(d.code, 0) << d.err;
  EXPECT_TRUE(has_line(d.out, "rtx-4090")) << d.out;
  EXPECT_FALSE(has_line(d.out, "gtx-1070")) << d.out;
  const auto m = run_cli({"__complete", "models", "llama-3.1"});
  EXPECT_TRUE(has_line(m.out, "llama-3.1-8b")) << m.out;
  EXPECT_FALSE(has_line(m.out, "llama-2-7b")) << m.out;
}

TEST(Completions, UserEntriesComplete) {
  app::FakeEnvironment env;
  env.vars["XDG_CONFIG_HOME"] = "/cfg";
  env.files["/cfg/willfit/devices.json"] =
      R"({"schema_version": 1, "data_version": "2026-01-01", "devices": [
  {"id": "zz-lab-gpu", "vendor": "acme", "name": "Lab GPU", "kind": "discrete_gpu",
   "memory_bytes": 34359738368, "bandwidth_gb_per_s": 900, "source": "our lab"}]})";
  env.files["/cfg/willfit/models.json"] =
      R"({"models":[{"id":"zz-model-3b","params":3000000000,"layers":28,
  "hidden_size":3072,"intermediate_size":8192,"heads":24,"kv_heads":8,"vocab_size":128256,
  "aliases":["mine:3b"],"source":"my own notes"}]})";
  EXPECT_EQ(run_cli({"__complete", "devices", "zz"}, env).out, "zz-lab-gpu\n");
  EXPECT_EQ(run_cli({"__complete", "models", "zz"}, env).out, "zz-model-3b\n");
  EXPECT_EQ(run_cli({"__complete", "models", "mine"}, env).out, "mine:3b\n");
}

TEST(Completions, CommandsAndOptionsComeFromTheTableAndHelp) {
  const auto c = run_cli({"__complete", "commands"});
  EXPECT_TRUE(has_line(c.out, "train")) << c.out;
  EXPECT_TRUE(has_line(c.out, "completions")) << c.out;
  EXPECT_FALSE(has_line(c.out, "__complete")) << c.out;
  const auto fit = run_cli({"__complete", "options"});
  EXPECT_TRUE(has_line(fit.out, "--precision")) << fit.out;
  EXPECT_TRUE(has_line(fit.out, "-p")) << fit.out;
  EXPECT_TRUE(has_line(fit.out, "--ngl")) << fit.out;  // the second name of --gpu-layers
  EXPECT_TRUE(has_line(fit.out, "--json")) << fit.out;
  const auto valued = run_cli({"__complete", "valued"});
  EXPECT_TRUE(has_line(valued.out, "--batch")) << valued.out;
  EXPECT_FALSE(has_line(valued.out, "--json")) << valued.out;  // a flag
  const auto train = run_cli({"__complete", "options", "train"});
  EXPECT_TRUE(has_line(train.out, "--optimizer")) << train.out;
  EXPECT_FALSE(has_line(train.out, "--runtime")) << train.out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', start)) {
    out.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

// Every value the completions offer for an option is one its command
// accepts (exit 0 or 1, never 2), so the lists cannot offer what the parser
// refuses. The options come from each command's --help.
TEST(Completions, EveryOfferedValueIsAccepted) {
  struct Base {
    std::string command;
    std::vector<std::string> args;
  };
  // A small device database keeps 'which' quick; --vendor offers its vendors.
  // A Mac beside the GPU: 'which --runtime mlx' (or vllm) needs a device it
  // runs on, else it is refused as the plain answer refuses it.
  app::FakeEnvironment env;
  env.vars["WILLFIT_DEVICES"] = "/d.json";
  env.files["/d.json"] =
      R"({"schema_version": 1, "data_version": "2026-01-01", "devices": [
  {"id": "rtx-4090", "vendor": "nvidia", "name": "GeForce RTX 4090", "kind": "discrete_gpu",
   "memory_bytes": 25769803776, "bandwidth_gb_per_s": 1008, "price_usd": 1599, "tdp_w": 450,
   "source": "test"},
  {"id": "m2-16gb", "vendor": "apple", "name": "Apple M2 16GB", "kind": "unified",
   "memory_bytes": 17179869184, "bandwidth_gb_per_s": 100, "source": "test"}]})";
  int offered = 0;
  for (const Base& base : std::vector<Base>{{"", {"7b", "-d", "24gb"}},
                                            {"train", {"train", "7b", "-d", "24gb"}},
                                            {"max", {"max", "7b", "-d", "24gb"}},
                                            {"which", {"which", "7b", "--limit", "1"}},
                                            {"cost", {"cost", "-d", "rtx 4090"}},
                                            {"devices", {"devices"}},
                                            {"device", {"device", "rtx 4090"}},
                                            {"models", {"models"}}}) {
    std::vector<std::string> ask{"__complete", "valued"};
    if (!base.command.empty()) {
      ask.push_back(base.command);
    }
    for (const auto& option : lines_of(run_cli(ask, env).out)) {
      if (option == "-d" || option == "--device") {
        continue;  // names: the lookup's own tests
      }
      const auto values = run_cli({"__complete", "values", base.command, option}, env);
      for (const auto& value : lines_of(values.out)) {
        auto args = base.args;
        args.push_back(option);
        args.push_back(value);
        if (option == "--lora-targets" || option == "-r") {
          args.insert(args.end(), {"--method", "lora"});
        }
        // A llama.cpp cache type needs llama.cpp (7b defaults to FP16 under
        // transformers), and --cpu-features a CPU run.
        if (option == "--kv-type" && base.command != "which" && base.command != "train") {
          args.insert(args.end(), {"-p", "q4_k_m"});
        }
        if (option == "--cpu-features") {
          continue;  // a CPU run only, and this database has no CPU: AutoDetect's tests
        }
        const auto r = run_cli(args, env);
        EXPECT_NE(r.code, 2) << "willfit " << base.command << " " << option << " " << value << ": "
                             << r.err;
        ++offered;
      }
    }
  }
  EXPECT_GE(offered, 100);
  // The program's own lists, not a copy: every precision and runtime it knows.
  const auto p = run_cli({"__complete", "values", "", "--precision"}).out;
  EXPECT_TRUE(has_line(p, "iq1_s")) << p;
  EXPECT_TRUE(has_line(p, "q4_k_m")) << p;
  EXPECT_TRUE(has_line(run_cli({"__complete", "values", "", "--runtime"}).out, "vllm"));
  EXPECT_TRUE(has_line(run_cli({"__complete", "values", "max", "-p"}).out, "best"));
  EXPECT_EQ(run_cli({"__complete", "values", "", "--batch"}).code, 1);  // a number: no list
}

}  // namespace
}  // namespace willfit
