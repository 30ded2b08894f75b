// Llama 3.2 Vision (transformers model_type mllama; the catalogue's
// llama-3.2-vision family): llama.cpp at 80fb11ac has no mllama in
// src/llama-arch.cpp's LLM_ARCH_NAMES and no projector type for it in
// tools/mtmd/clip-impl.h, so it cannot load the model; Ollama runs it with
// its own engine (ollama/ollama model/models/mllama). The answer under
// llama.cpp says so; under Ollama it does not. Issue 18.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "unit/catalogue_model.hpp"
#include "unit/model_readers.hpp"
#include "willfit/devices/device.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/model.hpp"

namespace willfit {
namespace {

bool says_llama_cpp_cannot(const Model& m, Runtime runtime) {
  InferenceQuery q;
  q.model = m;
  q.precision = *parse_precision("q4_k_m");
  q.devices.devices.push_back(*raw_device("24gb"));
  q.devices.text = "24gb";
  q.runtime = runtime;
  const Estimate e = estimate_inference(q);
  return std::any_of(e.warnings.begin(), e.warnings.end(), [](const std::string& w) {
    return w.starts_with("llama.cpp cannot load Llama 3.2 Vision");
  });
}

TEST(Mllama, TheCatalogueEntrySaysLlamaCppCannotLoadItButOllamaRunsIt) {
  const Model& m = test::catalogue_model("llama-3.2-11b-vision");
  EXPECT_TRUE(says_llama_cpp_cannot(m, Runtime::LlamaCpp));
  EXPECT_FALSE(says_llama_cpp_cannot(m, Runtime::Ollama));
  EXPECT_FALSE(says_llama_cpp_cannot(test::catalogue_model("llama-3.2-3b"), Runtime::LlamaCpp));
}

// meta-llama/Llama-3.2-11B-Vision config.json's text_config (the values the
// catalogue entry cites: 40 layers with cross-attention at 3, 8, ..., 38,
// hidden 4096, intermediate 14336, 32 heads, 8 KV heads, vocabulary 128256).
TEST(Mllama, AConfigJsonOfItSaysSoToo) {
  const nlohmann::json config = {{"model_type", "mllama"},
                                 {"architectures", {"MllamaForConditionalGeneration"}},
                                 {"torch_dtype", "bfloat16"},
                                 {"text_config",
                                  {{"model_type", "mllama_text_model"},
                                   {"num_hidden_layers", 40},
                                   {"hidden_size", 4096},
                                   {"intermediate_size", 14336},
                                   {"num_attention_heads", 32},
                                   {"num_key_value_heads", 8},
                                   {"vocab_size", 128256},
                                   {"max_position_embeddings", 131072},
                                   {"rope_theta", 500000.0},
                                   {"cross_attention_layers", {3, 8, 13, 18, 23, 28, 33, 38}}}}};
  const Model m = test::from_config(config);
  EXPECT_TRUE(m.ollama_engine_runs);
  EXPECT_TRUE(says_llama_cpp_cannot(m, Runtime::LlamaCpp));
  EXPECT_FALSE(says_llama_cpp_cannot(m, Runtime::Ollama));
}

TEST(Mllama, TheOneListNamesOnlyWhatLlamaCppLacks) {
  ASSERT_TRUE(llama_cpp_gap("mllama").has_value());
  EXPECT_TRUE(llama_cpp_gap("mllama")->ollama_engine_runs);
  ASSERT_TRUE(llama_cpp_gap("gptj").has_value());
  EXPECT_FALSE(llama_cpp_gap("gptj")->ollama_engine_runs);
  EXPECT_FALSE(llama_cpp_gap("llama").has_value());
  EXPECT_FALSE(llama_cpp_gap("qwen2vl").has_value());
}

}  // namespace
}  // namespace willfit
