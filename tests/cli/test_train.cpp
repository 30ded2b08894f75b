// `willfit train` in-process: exit codes, errors, the JSON contract.
#include <cstdint>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/harness.hpp"

namespace willfit::test {
namespace {

using nlohmann::json;

TEST(CliTrain, QloraSevenBillionFitsATwentyFourGigabyteCard) {
  const auto r = run_cli({"train", "7b", "--method", "qlora", "-d", "24gb"});
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.rfind("FITS", 0), 0u) << r.out;
  EXPECT_TRUE(r.err.empty());
}

TEST(CliTrain, FullFineTuneDoesNotFitAndSuggests) {
  const auto r = run_cli({"train", "7b", "-d", "24gb"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out.rfind("DOES NOT FIT", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("--method qlora"), std::string::npos) << r.out;
}

TEST(CliTrain, ExplainShowsTheArithmetic) {
  const auto r = run_cli({"train", "7b", "--explain"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("7 B params x 16 bytes = 112 GB before activations"), std::string::npos)
      << r.out;
}

TEST(CliTrain, JsonContract) {
  const auto r = run_cli({"train", "7b", "-d", "80gb", "--gpus", "8", "--zero", "3", "--json"});
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_TRUE(j["willfit_version"].is_string());
  EXPECT_EQ(j["query"]["zero"], 3);
  for (const char* k : {"name", "params", "layers", "hidden_size", "heads", "kv_heads", "head_dim",
                        "vocab_size", "assumed", "weights_bytes"}) {
    EXPECT_TRUE(j["model"].contains(k)) << k;
  }
  const json& t = j["training"];
  EXPECT_EQ(t["method"], "full");
  EXPECT_EQ(t["convention"]["bytes_per_param"], 16);
  std::int64_t sum = 0;
  for (const char* k :
       {"weights_bytes", "gradients_bytes", "optimizer_bytes", "master_weights_bytes",
        "activations_bytes", "buffers_bytes", "overhead_bytes", "margin_bytes"}) {
    ASSERT_TRUE(t["per_gpu"][k].is_number_integer()) << k;
    sum += t["per_gpu"][k].get<std::int64_t>();
  }
  EXPECT_EQ(sum, t["per_gpu"]["total_bytes"].get<std::int64_t>());
  EXPECT_TRUE(t["host_bytes"].is_number_integer());
  EXPECT_EQ(t["trainable_params"], 7000000000);
  EXPECT_EQ(t["gpus"], 8);
  EXPECT_EQ(j["result"]["verdict"], "fits");
  EXPECT_EQ(j["result"]["required_bytes"], t["per_gpu"]["total_bytes"]);
  EXPECT_TRUE(j["suggestions"].is_array());
  EXPECT_TRUE(j["warnings"].is_array());
}

TEST(CliTrain, NoFitJsonListsSuggestions) {
  const auto r = run_cli({"train", "13b", "-d", "24gb", "--json"});
  EXPECT_EQ(r.code, 1);
  const json j = json::parse(r.out);
  EXPECT_EQ(j["result"]["verdict"], "no_fit");
  ASSERT_FALSE(j["suggestions"].empty());
  for (const auto& s : j["suggestions"]) {
    EXPECT_TRUE(s["change"].is_string());
    EXPECT_TRUE(s["args"].is_array());
    EXPECT_TRUE(s["total_bytes"].is_number_integer());
    EXPECT_TRUE(s["verdict"].is_string());
  }
}

// What would help lists only changes that fit when any does: LoRA of 7 B
// on 8 GB fits with offload or more GPUs, and 8-bit AdamW (LoRA's optimizer
// states are megabytes) does not make it fit, so it is not listed.
TEST(CliTrain, SuggestionsListOnlyWhatFitsWhenSomethingFits) {
  const auto r = run_cli({"train", "7b", "--method", "lora", "-d", "8gb", "--json"});
  const json j = json::parse(r.out);
  ASSERT_FALSE(j["suggestions"].empty());
  for (const auto& s : j["suggestions"]) {
    EXPECT_NE(s["verdict"], "no_fit") << s["change"];
  }
  EXPECT_EQ(run_cli({"train", "7b", "--method", "lora", "-d", "8gb"}).out.find("still short"),
            std::string::npos);
}

// Training on the CPU is one machine's RAM: no "per GPU" anywhere.
TEST(CliTrain, CpuTrainingSaysNoGpu) {
  const auto r = run_cli({"train", "7b", "--method", "lora", "-d", "cpu", "--ram", "32gb"});
  ASSERT_NE(r.code, 2) << r.err;
  EXPECT_EQ(r.out.find("per GPU"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("On the CPU (in system RAM;"), std::string::npos) << r.out;
}

TEST(CliTrain, DeviceListSetsTheGpuCount) {
  // A raw capacity is one device; --gpus multiplies it.
  const auto r = run_cli({"train", "70b", "-d", "80gb", "--gpus", "8", "--nodes", "2", "--fsdp",
                          "--checkpointing", "full", "--json"});
  const json j = json::parse(r.out);
  EXPECT_EQ(j["training"]["gpus"], 16);
  EXPECT_EQ(j["query"]["fsdp"], true);
}

TEST(CliTrain, QuietKeepsTheExitCode) {
  const auto r = run_cli({"train", "13b", "-d", "24gb", "-q"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.out.empty());
}

TEST(CliTrain, BadInputIsOneCleanError) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"train"},
           {"train", "7b", "--method", "lora2"},
           {"train", "7b", "--optimizer", "adam"},
           {"train", "7b", "--zero", "2", "--fsdp"},
           {"train", "7b", "--zero", "4"},
           {"train", "7b", "--gpus", "3", "--tp", "2"},
           {"train", "7b", "--offload-optimizer"},
           {"train", "7b", "--method", "lora", "--lora-targets", "qproj"},
           {"train", "7b", "--precision", "q4"},
           {"train", "7b", "--seq-len", "0"},
           {"train", "7b", "--micro-batch", "two"},
           {"train", "7b", "-d", "lots"},
           {"train", "seven"},
           {"train", "7b", "--lora-rank", "16"},
       }) {
    const auto r = run_cli(args);
    EXPECT_TRUE(is_clean_error(r)) << args.back() << ": " << r.err << r.out;
  }
}

TEST(CliTrain, HelpListsTheOptions) {
  const auto r = run_cli({"train", "--help"});
  EXPECT_EQ(r.code, 0);
  for (const char* opt :
       {"--method", "--optimizer", "--checkpointing", "--zero", "--fsdp", "--offload-optimizer",
        "--lora-targets", "--explain", "--grad-dtype", "--master-weights"}) {
    EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
  }
}

}  // namespace
}  // namespace willfit::test
