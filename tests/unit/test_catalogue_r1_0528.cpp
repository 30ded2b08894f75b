// DeepSeek-R1-0528-Qwen3-8B (data/models.json deepseek-r1-0528-qwen3-8b):
// Qwen3-8B's network, but its own config.json, whose context is not
// Qwen3-8B's. Read from that config.json as public transcriptions give it;
// the catalogue entry must be the model it gives, context included.
#include <cstdint>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/catalogue_checks.hpp"
#include "unit/catalogue_model.hpp"
#include "unit/model_readers.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;

// deepseek-ai/DeepSeek-R1-0528-Qwen3-8B config.json (the hub is not
// reachable here) as a public Python parameter-counter test transcribes it
// (its dict qwen_8b, transformers_version 4.51.0) and as a public vLLM issue
// digest quotes the same values from NVFP4/DeepSeek-R1-0528-Qwen3-8B-FP4's
// config.json: Qwen3-8B's shape (36 layers, hidden 4096, 32 heads and 8 KV
// heads of 128, intermediate 12288, vocabulary 151936, untied) with
// max_position_embeddings 131072 and YaRN, factor 4 over 32768 positions
// (Qwen3-8B's own config.json has 40960 and rope_scaling null).
Json r1_0528_qwen3_8b() {
  return {{"architectures", {"Qwen3ForCausalLM"}},
          {"model_type", "qwen3"},
          {"attention_bias", false},
          {"head_dim", 128},
          {"hidden_act", "silu"},
          {"hidden_size", 4096},
          {"intermediate_size", 12288},
          {"max_position_embeddings", 131072},
          {"max_window_layers", 36},
          {"num_attention_heads", 32},
          {"num_hidden_layers", 36},
          {"num_key_value_heads", 8},
          {"rms_norm_eps", 1e-06},
          {"rope_scaling",
           {{"rope_type", "yarn"},
            {"factor", 4.0},
            {"original_max_position_embeddings", 32768},
            {"attn_factor", 0.8782488562869419}}},
          {"rope_theta", 1000000},
          {"sliding_window", nullptr},
          {"tie_word_embeddings", false},
          {"torch_dtype", "bfloat16"},
          {"use_sliding_window", false},
          {"vocab_size", 151936}};
}

TEST(DeepSeekR10528Qwen3, CatalogueEntryIsItsConfig) {
  const Model config = test::from_config(r1_0528_qwen3_8b());
  EXPECT_EQ(config.arch.max_context, 131072);
  EXPECT_EQ(test::catalogue_model("deepseek-r1-0528-qwen3-8b").arch.max_context, 131072);
  test::expect_catalogue_is_config("deepseek-r1-0528-qwen3-8b", config, {4096, 131072});
}

}  // namespace
}  // namespace willfit
