// RND1 (radicalnumerics/RND1-Base-0910; llama.cpp `rnd1`, config.json
// model_type `rnd1`): Qwen3-30B-A3B turned into a masked-diffusion language
// model by continual pretraining, the same weights' shape. llama.cpp runs
// qwen3moe's layer (Q and K RMS-normed per head, 128 experts of 768, 8 a
// token, softmax routing renormalised) bidirectionally, with no KV cache
// (llama-model.cpp create_memory: res = nullptr; rnd1.cpp
// build_attn_inp_no_cache). The published config and the converter's GGUF
// give one estimate; the counts match Qwen3-30B-A3B's published ones.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/catalogue_checks.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;

// RND1-Base-0910's config.json: Radical Numerics' configuration_rnd.py
// (as tqa24/dllm dllm/pipelines/rnd/models/configuration_rnd.py copies it,
// "Qwen3-30B-A3B / checkpoint defaults"): model_type rnd1, hidden_size
// 2048, intermediate_size 6144, moe_intermediate_size 768, 48 layers, 32
// attention heads and 4 KV heads of head_dim 128, 128 experts, 8 a token,
// norm_topk_prob true, max_position_embeddings 40960, vocab_size 151936,
// rope_theta 1e6, rms_norm_eps 1e-6, tie_word_embeddings false, bfloat16.
Json rnd1_config() {
  return {{"architectures", {"RND1LM"}},
          {"model_type", "rnd1"},
          {"hidden_size", 2048},
          {"intermediate_size", 6144},
          {"moe_intermediate_size", 768},
          {"num_hidden_layers", 48},
          {"num_attention_heads", 32},
          {"num_key_value_heads", 4},
          {"head_dim", 128},
          {"num_experts", 128},
          {"num_experts_per_tok", 8},
          {"norm_topk_prob", true},
          {"decoder_sparse_step", 1},
          {"mlp_only_layers", Json::array()},
          {"max_position_embeddings", 40960},
          {"vocab_size", 151936},
          {"rope_theta", 1000000.0},
          {"rms_norm_eps", 1e-6},
          {"tie_word_embeddings", false},
          {"torch_dtype", "bfloat16"}};
}

// The header conversion/qwen.py RND1Model writes (Qwen2MoeModel's, 80fb11ac):
// base.py's block_count, context_length, embedding_length,
// feed_forward_length (intermediate_size, unused), head_count,
// head_count_kv, rope.freq_base, layer_norm_rms_epsilon, expert_count,
// expert_used_count, key_length and value_length (head_dim); then
// expert_feed_forward_length and attention.causal false.
test::GgufWriter rnd1_gguf() {
  const std::string a = "rnd1.";
  test::GgufWriter w;
  w.str("general.architecture", "rnd1");
  w.u32(a + "block_count", 48);
  w.u32(a + "context_length", 40960);
  w.u32(a + "embedding_length", 2048);
  w.u32(a + "feed_forward_length", 6144);
  w.u32(a + "attention.head_count", 32);
  w.u32(a + "attention.head_count_kv", 4);
  w.f32(a + "rope.freq_base", 1000000.0F);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-6F);
  w.u32(a + "expert_count", 128);
  w.u32(a + "expert_used_count", 8);
  w.u32(a + "attention.key_length", 128);
  w.u32(a + "attention.value_length", 128);
  w.u32(a + "expert_feed_forward_length", 768);
  w.boolean(a + "attention.causal", false);
  w.tensor("token_embd.weight", {2048, 151936}, test::kQ8_0);
  w.tensor("output.weight", {2048, 151936}, test::kQ8_0);
  w.tensor("blk.0.ffn_gate_exps.weight", {2048, 768, 128}, test::kQ8_0);
  return w;
}

TEST(Rnd1, ConfigIsKnownCacheFreeAndCountsQwen3sTotals) {
  const Model m = test::from_config(rnd1_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  EXPECT_TRUE(m.arch.attention.no_kv_cache);
  EXPECT_FALSE(m.embedding);
  EXPECT_EQ(m.arch.layers, 48);
  EXPECT_EQ(m.arch.kv_heads, 4);
  ASSERT_TRUE(m.arch.moe.has_value());
  EXPECT_EQ(m.arch.moe->experts, 128);
  EXPECT_EQ(m.arch.moe->experts_per_token, 8);
  EXPECT_EQ(m.arch.moe->expert_intermediate_size, 768);
  EXPECT_TRUE(m.arch.moe->weights_normalized);  // rnd1.cpp build_moe_ffn norm_w true
  // The same tensors as Qwen3-30B-A3B: keras-hub's qwen3_moe presets
  // (keras_hub/src/models/qwen3_moe/qwen3_moe_presets.py at 71453d08, the
  // catalogue's source) give 30,532,122,624 parameters and 3.3B active; the
  // RND1 README (vz415/RND1 README.md) "a 30B-parameter sparse
  // Mixture-of-Experts model with 3B active parameters per token".
  const ParamBreakdown p = count_params(m.arch);
  EXPECT_LT(test::rel(static_cast<double>(p.total()), 30532122624.0), 0.01) << p.total();
  // The active figure is rounded to 0.1 B: counted 3.353 B (8 of 128
  // experts, attention, router, embeddings and head), within that rounding
  // (2 %), not within 1 %.
  EXPECT_LT(test::rel(static_cast<double>(p.active()), 3.3e9), 0.02) << p.active();
  EXPECT_NEAR(static_cast<double>(p.active()), 3.3e9, 0.06e9) << p.active();
}

TEST(Rnd1, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = test::from_gguf(rnd1_gguf());
  const Model c = test::from_config(rnd1_config());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_TRUE(g.arch.attention.no_kv_cache);
  EXPECT_FALSE(g.embedding);
  ASSERT_TRUE(g.arch.moe.has_value());
  EXPECT_EQ(g.arch.moe->expert_intermediate_size, 768);
  EXPECT_TRUE(g.arch.moe->weights_normalized);
  test::expect_same_estimate(g, c, "RND1 GGUF vs config", {4096, 32768});
}

// No KV cache at any context; the same shape as qwen3moe does cache K and V
// of 4 heads of 128 on every layer.
TEST(Rnd1, HoldsNoKvCacheWhereQwen3MoeHoldsOne) {
  for (const Model& m : {test::from_config(rnd1_config()), test::from_gguf(rnd1_gguf())}) {
    EXPECT_EQ(test::llama_cpp_q4_estimate(m, 32768, true).memory.kv_cache, 0);
  }
  Json qwen = rnd1_config();
  qwen["model_type"] = "qwen3_moe";
  EXPECT_EQ(test::llama_cpp_q4_estimate(test::from_config(qwen), 32768, true).memory.kv_cache,
            std::int64_t{48} * 2 * 4 * 128 * 2 * 32768);
}

// The catalogue's rnd1-30b-a3b (data/models.json) is the config.json above:
// no KV cache by the family, the same weights and compute buffer, its
// published 30,532,122,624 within 1 % of the count.
TEST(Rnd1, CatalogueEntryIsItsConfig) {
  const Model& cat = test::catalogue_model("rnd1-30b-a3b");
  EXPECT_TRUE(cat.arch.attention.no_kv_cache);
  test::expect_catalogue_is_config("rnd1-30b-a3b", test::from_config(rnd1_config()), {4096, 32768});
}

}  // namespace
}  // namespace willfit
