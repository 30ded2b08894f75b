// The runtime options on the command line: names, errors, the added JSON keys.
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/harness.hpp"

namespace willfit::test {
namespace {

using json = nlohmann::json;

TEST(CliRuntime, RuntimeIsPrintedAndInJson) {
  const auto text = run_cli({"7b", "-d", "24gb", "--runtime", "vllm"});
  EXPECT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("with vLLM"), std::string::npos);
  EXPECT_NE(text.out.find("+/- "), std::string::npos);
  const json j = json::parse(run_cli({"7b", "-d", "24gb", "--runtime", "vllm", "--json"}).out);
  EXPECT_EQ(j["query"]["runtime"], "vllm");
  EXPECT_TRUE(j["memory"]["error_band_pct"].is_number());
  EXPECT_TRUE(j["vllm"]["kv_tokens"].is_number_integer());
  EXPECT_TRUE(j["devices"].is_array());
  EXPECT_TRUE(j["offload"].is_null());
}

// Ollama's library page of qwen3 lists q4_K_M, q8_0 and fp16 only: asked at
// Q5_K_M with --precision the answer says so once, as for qwen3:8b-q5_K_M.
TEST(CliRuntime, OllamaAtAnUnpublishedPrecisionSaysSo) {
  const std::string note = "Ollama's library publishes no Q5_K_M tag of this model";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"qwen3:8b", "-p", "q5_k_m", "-d", "rtx 4060"},
        std::vector<std::string>{"qwen3:8b-q5_K_M", "-d", "rtx 4060"},
        std::vector<std::string>{"qwen3:8b-q5_K_M", "-p", "q5_k_m", "-d", "rtx 4060"}}) {
    const auto r = run_cli(args);
    ASSERT_NE(r.out.find(note), std::string::npos) << args[0] << "\n" << r.out;
    EXPECT_EQ(r.out.find(note), r.out.rfind(note)) << args[0];
  }
  EXPECT_EQ(run_cli({"qwen3:8b", "-p", "q8_0", "-d", "rtx 4060"}).out.find(note),
            std::string::npos);
}

// --ram is the RAM installed, one meaning for -d cpu and for offload: both
// count it less the operating system's share, the larger of 2 GiB and 10 %
// (32 GiB: 3.2 GiB kept, 28.8 GiB counted).
TEST(CliRuntime, RamMeansTheRamInstalledForCpuAndOffloadAlike) {
  const std::int64_t gib = 1LL << 30;
  const std::int64_t counted = 32 * gib - (32 * gib) / 10;
  const json cpu =
      json::parse(run_cli({"7b", "-p", "q4", "-d", "cpu", "--ram", "32gb", "--json"}).out);
  EXPECT_EQ(cpu["result"]["available_bytes"].get<std::int64_t>(), counted);
  const json off =
      json::parse(run_cli({"13b", "-p", "q4", "-d", "8gb", "--ram", "32gb", "--json"}).out);
  EXPECT_EQ(off["offload"]["ram_available_bytes"].get<std::int64_t>(), counted);
  const auto text = run_cli({"13b", "-p", "q4", "-d", "8gb", "--ram", "32gb"});
  EXPECT_NE(text.out.find("system RAM 32.0 GiB installed; 28.8 GiB of it counted for offload"),
            std::string::npos)
      << text.out;
}

// llama-server serves --batch sequences as slots and divides -c among them
// (llama.cpp src/llama-context.cpp: n_ctx_seq = n_ctx / n_seq_max): 8
// sequences of 4096 tokens are -c 32768 --parallel 8.
TEST(CliRuntime, BatchUnderLlamaCppNamesLlamaServerSlots) {
  const auto r = run_cli({"8b", "-p", "q4_k_m", "-d", "24gb", "-b", "8", "-c", "4096"});
  EXPECT_NE(r.out.find("-c 32768 --parallel 8"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("32768 / 8 = 4096 tokens each"), std::string::npos) << r.out;
  EXPECT_EQ(run_cli({"8b", "-p", "q4_k_m", "-d", "24gb"}).out.find("--parallel"),
            std::string::npos);
}

// Two of one card: each speed line says which (device 0, device 1, in the
// order of --device, as llama.cpp numbers CUDA0, CUDA1).
TEST(CliRuntime, SpeedLinesNumberTheDevicesOfASet) {
  const auto r = run_cli({"llama-3.1-70b", "-p", "q4_k_m", "-d", "2x rtx 3090"});
  EXPECT_NE(r.out.find("  - device 0: GeForce RTX 3090: reads"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  - device 1: GeForce RTX 3090: reads"), std::string::npos) << r.out;
}

// vLLM's --max-num-seqs (-b) is a ceiling: it runs what the cache holds and
// queues the rest (runtime.cpp vllm), so the answer fits with "N of 16".
TEST(CliRuntime, VllmBatchBeyondTheCacheFitsWithTheSequencesAtOnce) {
  const auto r = run_cli(
      {"llama-3.1-8b", "--runtime", "vllm", "-b", "16", "-d", "rtx 4090", "-c", "32768", "--json"});
  const json j = json::parse(r.out);
  EXPECT_EQ(j["result"]["verdict"], "fits");
  const int at_once = j["vllm"]["sequences_at_once"].get<int>();
  EXPECT_GE(at_once, 1);
  EXPECT_LT(at_once, 16);
  // Llama-3.1-8B (config.json: 32 layers, 8 KV heads, head dim 128), f16:
  // 2 x 32 x 8 x 128 x 2 bytes = 128 KiB a token, 4 GiB for 32768 tokens.
  const std::int64_t per_sequence = 2LL * 32 * 8 * 128 * 2 * 32768;
  EXPECT_EQ(at_once, j["vllm"]["kv_available_bytes"].get<std::int64_t>() / per_sequence);
  const auto text =
      run_cli({"llama-3.1-8b", "--runtime", "vllm", "-b", "16", "-d", "rtx 4090", "-c", "32768"});
  EXPECT_NE(text.out.find(fmt::format("{} of 16 sequences at once at this context", at_once)),
            std::string::npos)
      << text.out;
}

// Short by less than the estimate's error band: tight, the same band as a
// fit by less than it ("FITS, but tight"); the verdict and exit code stay.
TEST(CliRuntime, ANoFitWithinTheBandIsTight) {
  const json j = json::parse(run_cli({"gpt-oss-20b", "-d", "rtx 3060 12gb", "--json"}).out);
  ASSERT_EQ(j["result"]["verdict"], "no_fit");
  const std::int64_t short_by = -j["result"]["headroom_bytes"].get<std::int64_t>();
  ASSERT_GT(short_by, 0);
  EXPECT_EQ(j["result"]["tight"], short_by <= j["result"]["band_bytes"].get<std::int64_t>());
  const auto r = run_cli({"gpt-oss-20b", "-d", "rtx 3060 12gb"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out.rfind("DOES NOT FIT, but tight: short by ", 0), 0U) << r.out;
}

// A Mac's offload runs on the CPU from the same memory: the hint and the
// verdict name one CPU figure, and raising the GPU's wired limit is offered
// when the whole model fits under the pool macOS leaves (16 GiB less the
// larger of 2 GiB and 10 %: 14 GiB).
// (llama.cpp's gpt-oss-20b file: Q8_0 beside the MXFP4 experts. Ollama's
// package keeps those tensors at 16 bits, 13.8 GB, and no longer offloads.)
TEST(CliRuntime, MacOffloadOffersTheWiredLimit) {
  const auto r = run_cli({"gpt-oss-20b", "-d", "m2-16gb", "--json"});
  const json j = json::parse(r.out);
  ASSERT_EQ(j["result"]["verdict"], "offload");
  bool offered = false;
  for (const auto& s : j["suggestions"]) {
    const std::string args = s["args"].get<std::string>();
    if (args.rfind("--gpu-limit ", 0) == 0) {
      offered = true;
      const std::int64_t gib = std::stoll(args.substr(12));
      EXPECT_LE(gib, 14);
      EXPECT_GE(gib << 30, j["result"]["required_bytes"].get<std::int64_t>());
      EXPECT_EQ(s["verdict"], "fits");
    }
  }
  EXPECT_TRUE(offered) << r.out;
}

TEST(CliRuntime, DefaultRuntimeFollowsThePrecision) {
  EXPECT_EQ(json::parse(run_cli({"7b", "-p", "q4", "--json"}).out)["query"]["runtime"],
            "llama.cpp");
  EXPECT_EQ(json::parse(run_cli({"7b", "-p", "bf16", "--json"}).out)["query"]["runtime"],
            "transformers");
}

TEST(CliRuntime, OffloadPlanInJsonWithFlags) {
  const auto r = run_cli({"13b", "-p", "q4", "-d", "8gb", "--ram", "32gb", "--json"});
  EXPECT_EQ(r.code, 1);
  const json j = json::parse(r.out);
  EXPECT_EQ(j["result"]["verdict"], "offload");
  for (const char* k : {"gpu_layers", "total_layers", "gpu_bytes", "host_bytes", "flags",
                        "gpu_weight_bytes", "host_weight_bytes", "ram_holds"}) {
    EXPECT_TRUE(j["offload"].contains(k)) << k;
  }
  EXPECT_EQ(j["offload"]["ram_holds"], true);
  // Every term says where it lives; device terms add up to the total.
  std::int64_t device = 0;
  for (const auto& t : j["memory"]["terms"]) {
    if (t["placement"] == "device") {
      device += t["bytes"].get<std::int64_t>();
    } else {
      EXPECT_EQ(t["placement"], "host");
    }
  }
  EXPECT_EQ(device, j["memory"]["total_bytes"].get<std::int64_t>());
}

// Under an offload plan the breakdown's headroom is each side's: the GPU
// part against the usable memory and the RAM part against --ram, not the
// whole model on the GPU alone ("-472 GiB short" for a plan that fits).
// 640 GiB installed leave 576 GiB (10 % kept) for the 480 GiB it offloads.
TEST(CliRuntime, OffloadHeadroomIsEachSidesOfThePlan) {
  const std::vector<std::string> args{"kimi-k2", "-d", "rtx 4090", "--ram",
                                      "640gb",   "-p", "q3_k_l"};
  const auto text = run_cli(args);
  ASSERT_EQ(text.code, 1) << text.err;
  EXPECT_NE(text.out.find("FITS ONLY WITH OFFLOAD"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("GiB  short\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("headroom (GPU)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("headroom (RAM)"), std::string::npos) << text.out;
  auto with_json = args;
  with_json.push_back("--json");
  const json j = json::parse(run_cli(with_json).out);
  const json& o = j.at("offload");
  EXPECT_EQ(o.at("gpu_headroom_bytes").get<std::int64_t>(),
            j.at("result").at("available_bytes").get<std::int64_t>() -
                o.at("gpu_bytes").get<std::int64_t>());
  EXPECT_EQ(
      o.at("ram_headroom_bytes").get<std::int64_t>(),
      o.at("ram_available_bytes").get<std::int64_t>() - o.at("host_bytes").get<std::int64_t>());
  EXPECT_GE(o.at("gpu_headroom_bytes").get<std::int64_t>(), 0);
  EXPECT_GE(o.at("ram_headroom_bytes").get<std::int64_t>(), 0);
  EXPECT_LT(j.at("result").at("headroom_bytes").get<std::int64_t>(), 0);  // kept: the GPU alone
}

TEST(CliRuntime, ContextMaxNamesTheContext) {
  const auto r = run_cli({"8b", "-p", "q4", "-d", "24gb", "--context", "max", "--json"});
  EXPECT_EQ(r.code, 0);
  const json j = json::parse(r.out);
  EXPECT_GT(j["query"]["context_tokens"].get<std::int64_t>(), 4096);
  EXPECT_TRUE(is_clean_error(run_cli({"8b", "--context", "max"})));
}

// Found by review: qwen3:30b (18 GB at Q4_K_M) on an 8 GB RTX 4060 with 32
// GB of RAM is answered "fits only with offload" (Ollama runs it so, experts
// in RAM), yet -c max said "not even 256 tokens fit". When nothing fits
// whole, the longest context is the one the offload holds: at least
// Ollama's own 4096 default for that card, and asked back at that context
// the answer is the same offload.
TEST(CliRuntime, ContextMaxWithOffloadFindsTheLongestTheOffloadHolds) {
  const auto r = run_cli({"qwen3:30b", "-d", "rtx 4060", "-c", "max", "--ram", "32gb", "--json"});
  const json j = json::parse(r.out);
  EXPECT_EQ(j["result"]["verdict"], "offload");
  const auto longest = j["query"]["context_tokens"].get<std::int64_t>();
  EXPECT_GE(longest, 4096);
  const auto back = run_cli(
      {"qwen3:30b", "-d", "rtx 4060", "-c", std::to_string(longest), "--ram", "32gb", "--json"});
  EXPECT_EQ(json::parse(back.out)["result"]["verdict"], "offload");
  const auto text = run_cli({"qwen3:30b", "-d", "rtx 4060", "-c", "max", "--ram", "32gb"});
  EXPECT_EQ(text.out.find("not even 256"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("fits with the offload"), std::string::npos) << text.out;
}

TEST(CliRuntime, BadValuesAreCleanErrors) {
  EXPECT_TRUE(is_clean_error(run_cli({"7b", "--runtime", "vlm"})));
  EXPECT_TRUE(is_clean_error(run_cli({"7b", "--gpu-memory-utilization", "1.5"})));
  EXPECT_TRUE(is_clean_error(run_cli({"7b", "--tensor-split", "3,x"})));
  EXPECT_TRUE(is_clean_error(run_cli({"7b", "--tp", "0"})));
  EXPECT_TRUE(is_clean_error(run_cli({"7b", "--ngl", "-1"})));
}

// On a Mac --ram is the unified memory the GPU side already wires: an
// offload's CPU side gets what --ram leaves the model (less the OS share,
// the larger of 2 GiB and 10 %: 16 GiB of 18) less the GPU side, not a
// second pool beside it. More --ram than the Mac has is refused.
TEST(CliRuntime, RamOnAMacIsTheSameUnifiedMemory) {
  const std::int64_t gib = 1LL << 30;
  const json j =
      json::parse(run_cli({"qwen3:30b", "-d", "m3 pro 18gb", "--ram", "18gb", "--json"}).out);
  ASSERT_FALSE(j["offload"].is_null()) << j.dump();
  const std::int64_t gpu = j["offload"]["gpu_bytes"].get<std::int64_t>();
  EXPECT_EQ(j["offload"]["ram_available_bytes"].get<std::int64_t>(),
            std::max<std::int64_t>(0, 16 * gib - gpu));
  EXPECT_NE(j["result"]["verdict"], "fits");
  const auto r = run_cli({"llama3.1:8b", "-d", "m1 8gb", "--ram", "16gb"});
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("more than the 8.00 GiB of unified memory"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace willfit::test
