// Every command has its own --help with examples and exit codes; the default
// command's help lists the subcommands.
#include <gtest/gtest.h>

#include "cli/harness.hpp"

namespace willfit {
namespace {

using test::run_cli;

TEST(Help, EveryCommandHasExamplesAndExitCodes) {
  for (const char* cmd : {"", "train", "devices", "device", "models", "completions"}) {
    std::vector<std::string> args;
    if (*cmd != '\0') {
      args.emplace_back(cmd);
    }
    args.emplace_back("--help");
    const auto r = run_cli(args);
    EXPECT_EQ(r.code, 0) << cmd << r.err;
    EXPECT_NE(r.out.find("Examples:"), std::string::npos) << cmd << "\n" << r.out;
    EXPECT_NE(r.out.find("Exit codes: 0"), std::string::npos) << cmd << "\n" << r.out;
  }
}

TEST(Help, TheFitHelpListsTheSubcommandsButNotTheHiddenOne) {
  const auto r = run_cli({"--help"});
  for (const char* cmd : {"train", "devices", "device", "models", "completions"}) {
    EXPECT_NE(r.out.find(std::string("  willfit ") + cmd + " "), std::string::npos) << cmd;
  }
  EXPECT_EQ(r.out.find("__complete"), std::string::npos);
  EXPECT_NE(r.out.find("Units:"), std::string::npos);
}

// train resolves MODEL as the plain answer does (a catalogue name, an Ollama
// tag, a file, a Hugging Face repository, a size), and its help says so in
// the plain help's words, not "Model size".
TEST(Help, TrainDescribesModelAsThePlainHelpDoes) {
  const auto train = run_cli({"train", "--help"}).out;
  const auto plain = run_cli({"--help"}).out;
  EXPECT_EQ(train.find("Model size"), std::string::npos) << train;
  for (const char* words : {"Model name (llama-3.1-8b, qwen2.5:7b)", "model file or directory"}) {
    EXPECT_NE(train.find(words), std::string::npos) << words << "\n" << train;
    EXPECT_NE(plain.find(words), std::string::npos) << words << "\n" << plain;
  }
}

}  // namespace
}  // namespace willfit
