// `willfit MODEL --explain` (the arithmetic and its sources) and the memory
// bar under the text answer (Unicode or ASCII, colour only when allowed).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/harness.hpp"

namespace willfit {
namespace {

using test::is_clean_error;
using test::run_cli;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The bar line: from "[" to "]" on the line after "Memory:".
std::string bar_of(const std::string& out) {
  const auto at = out.find("Memory:\n");
  if (at == std::string::npos) {
    return "";
  }
  const auto open = out.find('[', at);
  const auto close = out.find(']', open);
  return out.substr(open + 1, close - open - 1);
}

// Every source --explain names is one a user can follow: a public file or a
// page of docs/, never a note outside the repository or "the essay" of a
// source file.
TEST(Explain, SourcesAreOnesAUserCanFollow) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"llama-3.1-8b", "-p", "q4_k_m", "-d", "rtx 4090", "--explain"},
        std::vector<std::string>{"llama-3.1-8b", "-d", "rtx 4090", "--runtime", "vllm",
                                 "--explain"},
        std::vector<std::string>{"llama-3.1-8b", "-p", "bf16", "-d", "h100 sxm", "--explain"},
        std::vector<std::string>{"llama-3.1-8b", "-p", "q4", "-d", "m2 max 64gb", "--runtime",
                                 "mlx", "--explain"}}) {
    const auto r = run_cli(args);
    ASSERT_NE(r.code, 2) << r.err;
    EXPECT_TRUE(has(r.out, "source: ")) << r.out;
    for (const char* hidden : {"essay", "inference-estimators", "shared/reference"}) {
      EXPECT_FALSE(has(r.out, hidden)) << args[3] << ": " << hidden << "\n" << r.out;
    }
  }
}

TEST(Explain, ShowsTheCourseArithmeticAndSources) {
  // The course's example: 13 B parameters at 4 bits are 13e9 x 0.5 bytes = 6.5 GB.
  // Llama-2-13B (Meta's config.json: 40 layers, 40 KV heads, head dim 128)
  // holds 2 x 40 x 40 x 128 x 2 bytes = 800 KiB of f16 KV per token, 3.125 GiB at 4096.
  const auto r = run_cli({"llama-2-13b", "-p", "int4", "-d", "8gb", "--explain"});
  ASSERT_NE(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.out, "How it adds up:")) << r.out;
  EXPECT_TRUE(has(r.out, "13 B parameters x 0.5 bytes (4-bit INT4) = 6.50 GB")) << r.out;
  EXPECT_TRUE(has(r.out,
                  "KV cache: 2 (K and V) x 40 layers x 40 KV heads x 128 dims x 2 bytes x 4096 "
                  "tokens = 3.12 GiB"))
      << r.out;
  EXPECT_TRUE(has(r.out, "source: ")) << r.out;
  EXPECT_TRUE(has(r.out, "rule: ")) << r.out;
  EXPECT_TRUE(has(r.out, "headroom: usable - total = ")) << r.out;
  EXPECT_FALSE(has(run_cli({"llama-2-13b", "-p", "int4", "-d", "8gb"}).out, "How it adds up:"));
}

// Experts in RAM under llama.cpp: each micro-batch of 32+ tokens runs on the
// GPU, its experts copied over PCIe first (speed.cpp). An RTX 4060 is PCIe
// 4.0 x8 (its data's bus): 8 lanes x 2 GB/s = 16 GB/s; a 4096-token prompt
// is 4096 / 512 = 8 micro-batches.
TEST(Explain, SaysThePcieCopyOfAPrefillWithExpertsInRam) {
  const auto r =
      run_cli({"qwen3-30b-a3b", "-p", "q4_k_m", "-d", "rtx 4060", "--ram", "64gb", "--explain"});
  ASSERT_NE(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.out, "prefill over PCIe:")) << r.out;
  EXPECT_TRUE(has(r.out, ": 8 micro-batches x ")) << r.out;
  EXPECT_TRUE(has(r.out, " / 16 GB/s = ")) << r.out;
  EXPECT_FALSE(has(run_cli({"qwen3-30b-a3b", "-p", "q4_k_m", "-d", "rtx 4090", "--explain"}).out,
                   "prefill over PCIe:"));
}

TEST(Explain, NotInJson) {
  const auto r = run_cli({"7b", "-d", "24gb", "--explain", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.front(), '{');
  EXPECT_FALSE(has(r.out, "How it adds up"));
}

TEST(MemoryBar, AsciiWithoutAUtf8LocaleAndFullWidth) {
  const auto r = run_cli({"7b", "-p", "q4", "-d", "24gb"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string bar = bar_of(r.out);
  EXPECT_EQ(bar.size(), 50u) << r.out;
  EXPECT_EQ(bar.front(), 'W') << bar;
  EXPECT_EQ(bar.back(), '.') << bar;  // plenty free on 24 GiB
  EXPECT_TRUE(has(r.out, "W weights ")) << r.out;
  EXPECT_TRUE(has(r.out, ". free ")) << r.out;
  EXPECT_FALSE(has(r.out, "\x1b[")) << r.out;
}

// The figure a breakdown row prints ("  weights   1.12 GiB  ...": "1.12 GiB").
std::string row_figure(const std::string& out, const std::string& label) {
  const auto at = out.find("\n  " + label + " ");
  if (at == std::string::npos) {
    return "";
  }
  const auto start = out.find_first_not_of(' ', at + 3 + label.size());
  const auto end = out.find("  ", start);
  return out.substr(start, end - start);
}

// A speech model's speech parts (Qwen3-TTS: speaker encoder, code predictor,
// codec) are the projector term: the legend shows them apart from the weights,
// as the breakdown does, and the row says what holds them: llama.cpp's mmproj
// file, or the model's own modules under transformers and vLLM.
TEST(MemoryBar, ShowsTheProjectorApartFromTheWeights) {
  for (const char* runtime : {"transformers", "llama.cpp", "vllm"}) {
    const auto r =
        run_cli({"qwen3-tts-12hz-0.6b", "-d", "rtx 4090", "--runtime", runtime, "-p", "bf16"});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string weights = row_figure(r.out, "weights");
    const std::string projector = row_figure(r.out, "projector");
    ASSERT_FALSE(weights.empty()) << r.out;
    ASSERT_FALSE(projector.empty()) << r.out;
    EXPECT_TRUE(has(r.out, "W weights " + weights + " P projector " + projector)) << r.out;
    const bool llama = std::string(runtime) == "llama.cpp";
    EXPECT_EQ(has(r.out, "codec (mmproj)"), llama) << r.out;
    EXPECT_EQ(has(r.out, "codec (the model's own modules under"), !llama) << r.out;
  }
  const auto explain = run_cli({"qwen3-tts-12hz-0.6b", "-d", "rtx 4090", "--explain"});
  ASSERT_EQ(explain.code, 0) << explain.err;
  EXPECT_TRUE(has(explain.out, "  projector (the model's speech modules): ")) << explain.out;
  EXPECT_FALSE(has(explain.out, "(mmproj)")) << explain.out;
}

TEST(MemoryBar, ShowsTheOverflowWhenItDoesNotFit) {
  const auto r = run_cli({"70b", "-p", "fp16", "-d", "8gb"});
  ASSERT_EQ(r.code, 1) << r.err;
  const std::string bar = bar_of(r.out);
  EXPECT_EQ(bar.size(), 50u) << r.out;
  EXPECT_EQ(bar.back(), '!') << bar;
  EXPECT_TRUE(has(r.out, "! over by ")) << r.out;
  EXPECT_FALSE(has(bar, ".")) << bar;
}

TEST(MemoryBar, UnicodeBlocksInAUtf8Locale) {
  app::FakeEnvironment env;
  env.vars["LANG"] = "en_US.UTF-8";
  const auto r = run_cli({"7b", "-p", "q4", "-d", "24gb"}, env);
  EXPECT_TRUE(has(bar_of(r.out), "\u2588")) << r.out;
  const auto a = run_cli({"7b", "-p", "q4", "-d", "24gb", "--ascii"}, env);
  EXPECT_FALSE(has(a.out, "\u2588")) << a.out;
  env.vars["LC_ALL"] = "C";  // LC_ALL wins over LANG
  EXPECT_FALSE(has(run_cli({"7b", "-p", "q4", "-d", "24gb"}, env).out, "\u2588"));
}

TEST(MemoryBar, ColourOnlyOnATerminalAndNeverWithNoColor) {
  app::FakeEnvironment tty;
  tty.terminal = true;
  const std::vector<std::string> args{"7b", "-p", "q4", "-d", "24gb"};
  EXPECT_TRUE(has(run_cli(args, tty).out, "\x1b["));
  auto never = args;
  never.insert(never.end(), {"--color", "never"});
  EXPECT_FALSE(has(run_cli(never, tty).out, "\x1b["));
  auto always = args;
  always.insert(always.end(), {"--color", "always"});
  EXPECT_TRUE(has(run_cli(always).out, "\x1b["));  // not a terminal, but asked for
  app::FakeEnvironment no_color = tty;
  no_color.vars["NO_COLOR"] = "1";
  EXPECT_FALSE(has(run_cli(args, no_color).out, "\x1b["));
  EXPECT_TRUE(is_clean_error(run_cli({"7b", "-d", "24gb", "--color", "sometimes"})));
}

TEST(MemoryBar, NoBarWithoutADevice) {
  EXPECT_FALSE(has(run_cli({"7b"}).out, "Memory:"));
}

}  // namespace
}  // namespace willfit
