// Answers under Ollama as a new user meets them (review of 2026-12-05): a
// smaller model that is smaller, Mistral v0.1's window as llama.cpp runs it,
// how Ollama takes a suggestion's flags, the tag in JSON, and the overhead
// row of an Intel GPU. Expected values come from Ollama's and llama.cpp's
// sources and the models' config.json, not from willfit's output.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/harness.hpp"

namespace willfit::test {
namespace {

using json = nlohmann::json;

json answer(const std::vector<std::string>& args) {
  std::vector<std::string> a = args;
  a.emplace_back("--json");
  const CliResult r = run_cli(a);
  EXPECT_NE(r.code, 2) << r.err;
  return json::parse(r.out);
}

const json* find_suggestion(const json& doc, const std::string& args_prefix) {
  for (const auto& s : doc["suggestions"]) {
    if (s["args"].get<std::string>().rfind(args_prefix, 0) == 0) {
      return &s;
    }
  }
  return nullptr;
}

// Mistral-7B-v0.1 has 7,241,732,096 parameters, v0.3 7,248,023,552 (its
// vocabulary of 32768 against 32000): the same size, so v0.1 is no smaller
// model to offer for mistral:7b, whatever its cache.
TEST(OllamaAnswers, ASmallerModelIsStrictlySmaller) {
  const json doc = answer({"mistral:7b", "-c", "32768", "-d", "rtx 3060 8gb"});
  ASSERT_EQ(doc["result"]["verdict"], "no_fit");
  for (const auto& s : doc["suggestions"]) {
    const auto args = s["args"].get<std::string>();
    EXPECT_NE(args.rfind("mistral-7b-v0.1", 0), 0U) << args;
    EXPECT_NE(args.rfind("mathstral", 0), 0U) << args;
  }
}

// llama.cpp runs a Mistral v0.1 GGUF as arch llama, whose graph has no
// window (conversion/llama.py registers MistralForCausalLM as LlamaModel;
// src/models/llama.cpp sets no swa_type, at 80fb11ac), and Ollama runs
// llama-server (llm/server.go at fb307609): every one of the 32 layers
// caches 8 KV heads of 128 for K and V at f16, 2 x 32 x 8 x 128 x 2 bytes a
// token (config.json of mistralai/Mistral-7B-v0.1), so 32768 tokens (a
// multiple of llama.cpp's 256-cell padding) are 4 GiB exactly. transformers
// keeps the 4096-token window, so less there.
TEST(OllamaAnswers, MistralV01WindowIsNotBuiltByLlamaCpp) {
  const std::int64_t full = std::int64_t{2} * 32 * 8 * 128 * 2 * 32768;
  for (const std::string runtime : {"ollama", "llama.cpp"}) {
    const json doc = answer({"mistral-7b-v0.1", "-p", "q4_k_m", "-c", "32768", "-d", "rtx 3060 8gb",
                             "--runtime", runtime});
    EXPECT_EQ(doc["memory"]["kv_cache_bytes"].get<std::int64_t>(), full) << runtime;
    bool said = false;
    for (const auto& a : doc["assumptions"]) {
      said = said || a.get<std::string>().find("without its 4096-token sliding window") !=
                         std::string::npos;
    }
    EXPECT_TRUE(said) << runtime;
  }
  const json hf = answer(
      {"mistral-7b-v0.1", "-p", "bf16", "-c", "32768", "-d", "80gb", "--runtime", "transformers"});
  EXPECT_LT(hf["memory"]["kv_cache_bytes"].get<std::int64_t>(), full);
  // Phi-3 mini 4k: phi3.cpp switches the 2047-token window off ("Phi SWA is
  // currently disabled"): 32 layers x 32 KV heads x 96 x 2 x 2 bytes x 4096.
  const json phi = answer(
      {"phi-3-mini-4k", "-p", "q4_k_m", "-c", "4096", "-d", "24gb", "--runtime", "llama.cpp"});
  EXPECT_EQ(phi["memory"]["kv_cache_bytes"].get<std::int64_t>(),
            std::int64_t{2} * 32 * 32 * 96 * 2 * 4096);
}

// Ollama takes no --context or --kv-type: num_ctx (docs/faq.mdx: /set
// parameter num_ctx; docs/modelfile.mdx PARAMETER num_ctx;
// envconfig/config.go OLLAMA_CONTEXT_LENGTH) and OLLAMA_KV_CACHE_TYPE
// (envconfig/config.go, passed by llm/llama_server.go as --cache-type-k and
// --cache-type-v), at fb307609. The lower precision names the library's tag
// (catalogue ollama_tags: mistral:7b-instruct-v0.3-{q}).
TEST(OllamaAnswers, SuggestionsSayHowOllamaTakesThem) {
  const json doc = answer({"mistral:7b", "-c", "32768", "-d", "rtx 3060 8gb"});
  const json* kv = find_suggestion(doc, "--kv-type q8_0");
  ASSERT_NE(kv, nullptr);
  EXPECT_EQ((*kv)["ollama_setting"],
            "OLLAMA_KV_CACHE_TYPE=q8_0 ollama serve (every model it serves)");
  const json* ctx = find_suggestion(doc, "--context ");
  ASSERT_NE(ctx, nullptr);
  const std::string n = (*ctx)["args"].get<std::string>().substr(10);
  const std::string setting = (*ctx)["ollama_setting"].get<std::string>();
  EXPECT_NE(setting.find("/set parameter num_ctx " + n), std::string::npos) << setting;
  EXPECT_NE(setting.find("PARAMETER num_ctx " + n + " in a Modelfile"), std::string::npos);
  EXPECT_NE(setting.find("OLLAMA_CONTEXT_LENGTH=" + n), std::string::npos) << setting;
  const json* lower = find_suggestion(doc, "--precision ");
  ASSERT_NE(lower, nullptr);
  const std::string tag = (*lower)["ollama_tag"].get<std::string>();
  EXPECT_EQ(tag.rfind("mistral:7b-instruct-v0.3-q", 0), 0U) << tag;
  EXPECT_NE((*lower)["change"].get<std::string>().find("Ollama's tag " + tag), std::string::npos);
  // The text line ends with the setting.
  const CliResult text = run_cli({"mistral:7b", "-c", "32768", "-d", "rtx 3060 8gb"});
  EXPECT_NE(text.out.find("; in Ollama: OLLAMA_KV_CACHE_TYPE=q8_0 ollama serve"),
            std::string::npos);
  // Under llama.cpp neither key says anything.
  const json llama =
      answer({"mistral:7b", "-c", "32768", "-d", "rtx 3060 8gb", "--runtime", "llama.cpp"});
  ASSERT_FALSE(llama["suggestions"].empty());
  for (const auto& s : llama["suggestions"]) {
    EXPECT_TRUE(s["ollama_tag"].is_null()) << s;
    EXPECT_TRUE(s["ollama_setting"].is_null()) << s;
  }
}

// With flash attention off (OLLAMA_FLASH_ATTENTION=0: llm/llama_server.go
// passes --flash-attn off) llama.cpp refuses a quantised V cache ("quantized
// V cache requires flash_attn to be enabled", llama-context.cpp at
// 80fb11ac), and Ollama quantises K and V alike: no KV type to offer; flash
// attention on is OLLAMA_FLASH_ATTENTION=1.
TEST(OllamaAnswers, NoQuantisedCacheWithFlashAttentionOff) {
  const json doc =
      answer({"mistral:7b", "-c", "32768", "-d", "rtx 3060 8gb", "--flash-attn", "off"});
  EXPECT_EQ(find_suggestion(doc, "--kv-type"), nullptr);
  if (const json* fa = find_suggestion(doc, "--flash-attn on")) {
    EXPECT_EQ((*fa)["ollama_setting"], "OLLAMA_FLASH_ATTENTION=1 ollama serve");
  }
}

// Ollama reaches Intel GPUs through its Vulkan build (envconfig/config.go
// OLLAMA_VULKAN; no SYCL build), llama.cpp through SYCL or Vulkan.
TEST(OllamaAnswers, IntelOverheadRowNamesTheRuntimesBackend) {
  const auto ollama =
      run_cli({"llama-3.1-8b", "-p", "q4_k_m", "-d", "arc a770 16gb", "--runtime", "ollama"});
  EXPECT_NE(ollama.out.find("driver / Vulkan context"), std::string::npos) << ollama.out;
  EXPECT_EQ(ollama.out.find("SYCL"), std::string::npos);
  const auto llama =
      run_cli({"llama-3.1-8b", "-p", "q4_k_m", "-d", "arc a770 16gb", "--runtime", "llama.cpp"});
  EXPECT_NE(llama.out.find("driver / SYCL context"), std::string::npos) << llama.out;
}

// Ollama keeps the projector on the CPU (--no-mmproj-offload) when num_gpu
// is 0 or below the model's blocks + 1, or a GPU has less than the
// projector's tensors + 1 GiB (llm/llama_server.go at fb307609,
// shouldDisableMMProjOffload); otherwise on the GPU.
TEST(OllamaAnswers, ProjectorInRamWhereOllamaKeepsItOnTheCpu) {
  const auto projector_term = [](const json& doc) -> const json* {
    for (const auto& t : doc["memory"]["terms"]) {
      if (t["key"] == "projector") {
        return &t;
      }
    }
    return nullptr;
  };
  const json whole = answer({"gemma3:4b", "-d", "rtx 4090"});
  const json* on_gpu = projector_term(whole);
  ASSERT_NE(on_gpu, nullptr);
  EXPECT_EQ((*on_gpu)["placement"], "device");
  const std::int64_t bytes = (*on_gpu)["bytes"].get<std::int64_t>();
  // gemma3 has 34 blocks: num_gpu 20 is a partial text offload.
  const json partial =
      answer({"gemma3:4b", "-d", "rtx 4090", "--gpu-layers", "20", "--ram", "32gb"});
  const json* in_ram = projector_term(partial);
  ASSERT_NE(in_ram, nullptr);
  EXPECT_EQ((*in_ram)["placement"], "host");
  EXPECT_EQ((*in_ram)["bytes"].get<std::int64_t>(), bytes);
  EXPECT_EQ(partial["memory"]["projector_bytes"].get<std::int64_t>(), 0);
  bool said = false;
  for (const auto& a : partial["assumptions"]) {
    said = said || a.get<std::string>().find("--no-mmproj-offload") != std::string::npos;
  }
  EXPECT_TRUE(said);
  // Under llama.cpp the same -ngl leaves the projector on the GPU.
  const json llama = answer({"gemma3:4b", "-d", "rtx 4090", "--gpu-layers", "20", "--ram", "32gb",
                             "--runtime", "llama.cpp"});
  const json* llama_term = projector_term(llama);
  ASSERT_NE(llama_term, nullptr);
  EXPECT_EQ((*llama_term)["placement"], "device");
}

}  // namespace
}  // namespace willfit::test
