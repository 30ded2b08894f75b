// The speed options and the speed section, through the whole CLI.
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/harness.hpp"

namespace willfit::test {
namespace {

using nlohmann::json;

// A speed in JSON has at most 4 significant digits, as the speed object's
// do: written with 4 and read back, it is the same number.
void expect_rounded(const json& v, const std::string& where) {
  if (v.is_null()) {
    return;
  }
  ASSERT_TRUE(v.is_number()) << where;
  const double x = v.get<double>();
  EXPECT_EQ(std::stod(fmt::format("{:.4g}", x)), x) << where << ": " << x;
}

// A CPU-only answer has no FLOPS figure in the data (system RAM entries
// carry none): the note says how to get one, and --tflops then gives the
// prefill.
TEST(CliSpeed, CpuPrefillSaysHowToGetTheFigure) {
  const auto r = run_cli({"8b", "-p", "q8_0", "-d", "ddr5-5600-dual 64gb", "--ngl", "0"});
  ASSERT_NE(r.code, 2) << r.err;
  EXPECT_NE(r.out.find("prefill not estimated"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cores x GHz x 32 FP32 FLOPs per core per cycle"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("llama-bench -p 512"), std::string::npos) << r.out;
  const auto t =
      run_cli({"8b", "-p", "q8_0", "-d", "ddr5-5600-dual 64gb", "--ngl", "0", "--tflops", "2"});
  ASSERT_NE(t.code, 2) << t.err;
  EXPECT_EQ(t.out.find("prefill not estimated"), std::string::npos) << t.out;
}

TEST(CliSpeed, EverySpeedInJsonIsRoundedAsTheSpeedObjectIs) {
  // An 8 GiB card: the suggestions offload, each with its own decode speed.
  const auto fit = run_cli({"llama-3.1-8b", "-p", "q8_0", "-d", "rtx 4060", "--json"});
  const json j = json::parse(fit.out);
  int speeds = 0;
  for (const auto& sg : j.at("suggestions")) {
    expect_rounded(sg.at("decode_tokens_per_s"), "suggestion " + sg.at("args").get<std::string>());
    speeds += sg.at("decode_tokens_per_s").is_null() ? 0 : 1;
  }
  EXPECT_GE(speeds, 1);
  for (const auto& [key, value] : j.at("speed").items()) {
    if (key.ends_with("_s")) {
      expect_rounded(value, "speed." + key);
    }
  }
  const auto which = run_cli({"which", "llama-3.1-8b", "-p", "q4_k_m", "--limit", "5", "--json"});
  const json rows = json::parse(which.out);  // kept alive: the loop reads into it
  for (const auto& row : rows.at("devices")) {
    expect_rounded(row.at("decode_tokens_per_s"), "which " + row.at("name").get<std::string>());
  }
  const auto sheet = run_cli({"device", "rtx 4090", "--json"});
  expect_rounded(json::parse(sheet.out).at("decode_ceiling").at("tokens_per_s"), "device sheet");
}

TEST(CliSpeed, BandwidthGivesACapacityASpeed) {
  const auto r =
      run_cli({"7b", "-p", "q4", "-d", "24gb", "--bandwidth", "1008", "--tflops", "330"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("upper bound"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("limited by memory bandwidth: the GPU waits on memory, not on arithmetic"),
            std::string::npos);
  EXPECT_NE(r.out.find("first token"), std::string::npos);
}

TEST(CliSpeed, JsonCarriesTheSpeedObject) {
  const auto r = run_cli({"7b", "-p", "q4", "-d", "24gb", "--bandwidth", "1008GB/s", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const json s = json::parse(r.out)["speed"];
  EXPECT_GT(s["decode_tokens_per_s"].get<double>(), 100);
  EXPECT_TRUE(s["prefill_tokens_per_s"].is_null());  // no --tflops
  EXPECT_TRUE(s["time_to_first_token_s"].is_null());
  EXPECT_EQ(s["bound"], "bandwidth");
  EXPECT_EQ(s["error_band_pct"], 25);
  EXPECT_TRUE(s["reason"].is_null());
}

TEST(CliSpeed, WithoutBandwidthSpeedIsNullWithAReason) {
  const auto r = run_cli({"7b", "-p", "q4", "-d", "8gb", "--json"});
  const json s = json::parse(r.out)["speed"];
  EXPECT_TRUE(s["decode_tokens_per_s"].is_null());
  EXPECT_TRUE(s["bound"].is_null());
  EXPECT_NE(s["reason"].get<std::string>().find("--bandwidth"), std::string::npos);
}

// An embedding model generates nothing: no decode row, no decode figures,
// and its speed is the rate it reads input.
TEST(CliSpeed, AnEmbeddingModelHasNoDecode) {
  const auto text = run_cli({"qwen3-embedding-0.6b", "-d", "rtx 4090"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_EQ(text.out.find("\n  decode "), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("first token"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("reads input"), std::string::npos) << text.out;
  const auto r = run_cli({"qwen3-embedding-0.6b", "-d", "rtx 4090", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const json s = json::parse(r.out)["speed"];
  EXPECT_FALSE(s["generates"].get<bool>());
  EXPECT_TRUE(s["decode_tokens_per_s"].is_null());
  EXPECT_TRUE(s["batch_tokens_per_s"].is_null());
  EXPECT_GT(s["prefill_tokens_per_s"].get<double>(), 0);
  const json chat = json::parse(run_cli({"qwen3-0.6b", "-d", "rtx 4090", "--json"}).out)["speed"];
  EXPECT_TRUE(chat["generates"].get<bool>());
  EXPECT_GT(chat["decode_tokens_per_s"].get<double>(), 0);
}

// The speed is for the context the memory was sized at: Ollama's default on
// a 24 GiB GPU is 32768 tokens (server/routes.go at fb307609), not 4096.
TEST(CliSpeed, SpeedUsesTheContextTheMemoryWasSizedAt) {
  const auto r = run_cli({"qwen3:8b", "-d", "rtx 4090", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["query"]["context_resolved_tokens"], 32768);
  EXPECT_EQ(j["speed"]["context_tokens"], 32768);
}

TEST(CliSpeed, RamBandwidthTakesANumberOrAMemoryType) {
  const std::vector<std::string> base{"13b",   "-p",   "q4",          "-d",  "8gb",
                                      "--ram", "32gb", "--bandwidth", "448", "--json"};
  auto with = [&](const std::string& ram) {
    auto args = base;
    args.push_back("--ram-bandwidth");
    args.push_back(ram);
    return json::parse(run_cli(args).out)["speed"]["decode_tokens_per_s"].get<double>();
  };
  EXPECT_DOUBLE_EQ(with("ddr5-5600-dual"), with("89.6"));
  EXPECT_GT(with("ddr5-5600-dual"), with("ddr4-3200-dual"));
}

TEST(CliSpeed, BadValuesAreCleanErrors) {
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"7b", "-d", "8gb", "--bandwidth", "fast"},
                                             {"7b", "-d", "8gb", "--bandwidth", "-5"},
                                             {"7b", "-d", "8gb", "--tflops", "0"},
                                             {"7b", "-d", "8gb", "--split", "pipeline"},
                                             {"7b", "-d", "8gb", "--ram-bandwidth", "ddr5-560"}}) {
    const auto r = run_cli(args);
    EXPECT_TRUE(is_clean_error(r)) << r.err;
  }
  const auto r = run_cli({"7b", "-d", "8gb", "--ram-bandwidth", "ddr5-560"});
  EXPECT_NE(r.err.find("did you mean 'ddr5-5600-dual'"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace willfit::test
