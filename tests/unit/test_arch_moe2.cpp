// More of llama.cpp's MoE architectures (issue 18): Ling 1.x (llama.cpp
// `bailingmoe`, config.json model_type `bailing_moe`) and Snowflake Arctic
// (`arctic`). For each: a config.json
// with the published values, the GGUF header llama.cpp's converter writes,
// one architecture and one estimate from both, and the parameter counts of
// the model card.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/catalogue_checks.hpp"
#include "unit/catalogue_model.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;

// Where two readings of one model are compared (test::expect_same_estimate):
// both parameter counts, then 4 Ki and 16 Ki tokens, flash attention off and on, at Q4_K_M.
const test::EstimateGrid kEstimateGrid{.contexts = {4096, 16384}};

// ---- Ling 1.x (bailingmoe) ------------------------------------------------

// inclusionAI/Ling-lite-1.5's config.json, as a public MLX port's tests
// inline it field for field (Lablup's Bailing MoE loader tests, a public Rust test file of Lablup's
// Bailing MoE loader, 87,246 characters (LING_LITE_CONFIG; trait UnwrapErrOrPanic),
// "LING_LITE_CONFIG"): hidden_size 2048, num_hidden_layers 28, num_attention_heads 16,
// num_key_value_heads 4 (head 2048 / 16 = 128), moe_intermediate_size 1408, num_experts 64,
// num_experts_per_tok 6, num_shared_experts 2, norm_topk_prob true,
// first_k_dense_replace 0, max_position_embeddings 32768, vocab_size 126464,
// rope_theta 600000, rms_norm_eps 1e-6, tie_word_embeddings false,
// torch_dtype bfloat16. Ling-lite and Ling-Coder-lite have the same shape
// (inclusionAI/Ling README.md: all three 16.8B total, 2.75B activated).
Json ling_lite() {
  return {{"architectures", {"BailingMoeForCausalLM"}},
          {"model_type", "bailing_moe"},
          {"hidden_size", 2048},
          {"intermediate_size", 1408},
          {"moe_intermediate_size", 1408},
          {"num_hidden_layers", 28},
          {"num_attention_heads", 16},
          {"num_key_value_heads", 4},
          {"num_experts", 64},
          {"num_experts_per_tok", 6},
          {"num_shared_experts", 2},
          {"norm_topk_prob", true},
          {"first_k_dense_replace", 0},
          {"max_position_embeddings", 32768},
          {"vocab_size", 126464},
          {"rope_theta", 600000},
          {"rms_norm_eps", 1e-6},
          {"tie_word_embeddings", false},
          {"torch_dtype", "bfloat16"}};
}

// The header conversion/bailingmoe.py (BailingMoeModel.set_gguf_parameters at
// 80fb11ac) writes: base.py's block_count, context_length, embedding_length,
// feed_forward_length (intermediate_size), head_count, head_count_kv,
// rope.freq_base, layer_norm_rms_epsilon, expert_count, expert_used_count;
// then rope.dimension_count (head_dim), leading_dense_block_count,
// vocab_size, expert_feed_forward_length, expert_weights_scale 1.0,
// expert_shared_count and expert_weights_norm. The query_key_value tensor is
// split into attn_q, attn_k and attn_v; the output is untied. Three tensors
// stand for the rest.
test::GgufWriter ling_lite_gguf() {
  const std::string a = "bailingmoe.";
  test::GgufWriter w;
  w.str("general.architecture", "bailingmoe");
  w.u32(a + "block_count", 28);
  w.u32(a + "context_length", 32768);
  w.u32(a + "embedding_length", 2048);
  w.u32(a + "feed_forward_length", 1408);
  w.u32(a + "attention.head_count", 16);
  w.u32(a + "attention.head_count_kv", 4);
  w.f32(a + "rope.freq_base", 600000.0F);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-6F);
  w.u32(a + "expert_count", 64);
  w.u32(a + "expert_used_count", 6);
  w.u32(a + "rope.dimension_count", 128);
  w.u32(a + "leading_dense_block_count", 0);
  w.u32(a + "vocab_size", 126464);
  w.u32(a + "expert_feed_forward_length", 1408);
  w.f32(a + "expert_weights_scale", 1.0F);
  w.u32(a + "expert_shared_count", 2);
  w.boolean(a + "expert_weights_norm", true);
  w.tensor("token_embd.weight", {2048, 126464}, test::kQ8_0);
  w.tensor("output.weight", {2048, 126464}, test::kQ8_0);
  w.tensor("blk.0.ffn_up_shexp.weight", {2048, 2816}, test::kQ8_0);
  return w;
}

TEST(LingMoe, ConfigIsKnownAndCountsTheCardsTotals) {
  const Model m = test::from_config(ling_lite());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  EXPECT_EQ(m.arch.layers, 28);
  EXPECT_EQ(m.arch.head_dim, 128);
  EXPECT_EQ(m.arch.kv_heads, 4);
  EXPECT_FALSE(m.arch.tied_embeddings);
  ASSERT_TRUE(m.arch.moe.has_value());
  EXPECT_EQ(m.arch.moe->experts, 64);
  EXPECT_EQ(m.arch.moe->experts_per_token, 6);
  EXPECT_EQ(m.arch.moe->shared_experts, 2);
  EXPECT_EQ(m.arch.moe->expert_intermediate_size, 1408);
  EXPECT_EQ(m.arch.moe->first_dense_layers, 0);
  EXPECT_TRUE(m.arch.moe->weights_normalized);
  // The card (inclusionAI/Ling README.md, "Ling-Lite has 16.8 billion
  // parameters with 2.75 billion activated parameters"): counted 16.80 B
  // and 2.75 B, the token embeddings and the untied head included.
  const ParamBreakdown p = count_params(m.arch);
  EXPECT_LT(test::rel(static_cast<double>(p.total()), 16.8e9), 0.01) << p.total();
  EXPECT_LT(test::rel(static_cast<double>(p.active()), 2.75e9), 0.01) << p.active();
}

TEST(LingMoe, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = test::from_gguf(ling_lite_gguf());
  const Model c = test::from_config(ling_lite());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  ASSERT_TRUE(g.arch.moe.has_value());
  EXPECT_EQ(g.arch.moe->shared_experts, 2);
  EXPECT_EQ(g.arch.moe->expert_intermediate_size, 1408);
  EXPECT_TRUE(g.arch.moe->weights_normalized);
  EXPECT_EQ(g.arch.vocab_size, 126464);
  test::expect_same_estimate(g, c, "Ling-lite GGUF vs config", kEstimateGrid);
}

// bailingmoe.cpp's build_moe_ffn takes norm_w from the file
// (expert_weights_norm, default false): a Ling whose config says
// norm_topk_prob false is read so from both.
TEST(LingMoe, ExpertWeightsNormIsTheFiles) {
  Json j = ling_lite();
  j["norm_topk_prob"] = false;
  test::GgufWriter w = ling_lite_gguf();
  w.boolean("bailingmoe.expert_weights_norm", false);
  const Model c = test::from_config(j);
  const Model g = test::from_gguf(w);
  ASSERT_TRUE(c.arch.moe && g.arch.moe);
  EXPECT_FALSE(c.arch.moe->weights_normalized);
  EXPECT_FALSE(g.arch.moe->weights_normalized);
}

// Every layer caches K and V of its 4 heads of 128 (bailingmoe.cpp
// build_attn_inp_kv: no window): 28 x 2 x 4 x 128 x 2 bytes a token in F16.
TEST(LingMoe, KvCacheIsEveryLayersFourHeads) {
  const Model c = test::from_config(ling_lite());
  const std::int64_t ctx = 32768;
  EXPECT_EQ(test::llama_cpp_q4_estimate(c, ctx, true).memory.kv_cache,
            std::int64_t{28} * 2 * 4 * 128 * 2 * ctx);
}

// The catalogue's Ling-lite and Ling-Coder-lite carry the config's shape, so
// a name gives the estimate the config.json does.
TEST(LingMoe, CatalogueGivesWhatTheConfigGives) {
  const Model c = test::from_config(ling_lite());
  for (const char* name : {"inclusionAI/Ling-lite", "inclusionAI/Ling-Coder-lite"}) {
    const Model& cat = test::catalogue_model(name);
    test::expect_same_estimate(cat, c, name, kEstimateGrid);
    EXPECT_EQ(cat.params, 16800000000) << name;
  }
}

// inclusionAI/Ling-plus's config.json as inclusionAI's own repository
// carries it for MindIE (inclusionAI/Ling
// inference/mindie/plus/model_chat_config.json at 21d8da23): hidden_size
// 5376, 88 layers, 42 heads and 6 KV heads (head 128), moe_intermediate_size
// 3072, intermediate_size 12288, num_experts 64, num_experts_per_tok 4,
// num_shared_experts 1, norm_topk_prob true, first_k_dense_replace 0,
// max_position_embeddings 16384, vocab_size 126464, rope_theta 600000,
// rms_norm_eps 1e-6, untied, torch_dtype bfloat16.
Json ling_plus() {
  return {{"architectures", {"BailingMoeForCausalLM"}},
          {"model_type", "bailing_moe"},
          {"hidden_size", 5376},
          {"intermediate_size", 12288},
          {"moe_intermediate_size", 3072},
          {"num_hidden_layers", 88},
          {"num_attention_heads", 42},
          {"num_key_value_heads", 6},
          {"num_experts", 64},
          {"num_experts_per_tok", 4},
          {"num_shared_experts", 1},
          {"norm_topk_prob", true},
          {"first_k_dense_replace", 0},
          {"max_position_embeddings", 16384},
          {"vocab_size", 126464},
          {"rope_theta", 600000},
          {"rms_norm_eps", 1e-6},
          {"tie_word_embeddings", false},
          {"torch_dtype", "bfloat16"}};
}

// The card's totals (inclusionAI/Ling README.md: "Ling-Plus has 290 billion
// parameters with 28.8 billion activated parameters") are the config's
// count within 1 %, and the catalogue's ling-plus is that config.
TEST(LingMoe, LingPlusCatalogueEntryIsItsConfig) {
  const Model c = test::from_config(ling_plus());
  EXPECT_TRUE(c.unchecked_architecture.empty()) << c.unchecked_architecture;
  EXPECT_EQ(c.arch.head_dim, 128);
  ASSERT_TRUE(c.arch.moe.has_value());
  EXPECT_EQ(c.arch.moe->shared_experts, 1);
  const ParamBreakdown p = count_params(c.arch);
  EXPECT_LT(test::rel(static_cast<double>(p.total()), 290e9), 0.01) << p.total();
  EXPECT_LT(test::rel(static_cast<double>(p.active()), 28.8e9), 0.01) << p.active();
  const Model& cat = test::catalogue_model("inclusionai/ling-plus");
  EXPECT_EQ(cat.params, 290000000000);
  EXPECT_EQ(cat.active_params, 28800000000);
  test::expect_catalogue_is_config("ling-plus", c, {4096, 16384});
}

// ---- Snowflake Arctic (arctic) ----------------------------------------------

// Snowflake/snowflake-arctic-instruct's config.json, as public transcriptions
// give it (the hub is not reachable):
// - llama.cpp issue 6877 ("Add support to ArcticForCausalLM"), a convert
//   log quoted on 2024-05-05: n_vocab 32000, n_embd 7168, n_layer 35, n_ctx
//   4096, n_ff 4864, n_head 56, n_experts 128, n_experts_used 2, f_norm_eps
//   1e-05, f_rope_freq_base 10000;
// - llama.cpp pull request 7020 (2024-05-23): "num_key_value_heads in
//   config.json changed value from 56 to 8" (Snowflake's GQA fix);
// - transformers-remote-code configuration_arctic.py (as vLLM copies it):
//   model_type arctic, tie_word_embeddings default false, the residual MLP
//   (use_residual, parallel_attn_mlp_res);
// - the model card (mirrored in YinanWusoymilk/hf-readme,
//   readme_files/Snowflake_snowflake-arctic-instruct.md): "a 10B dense
//   transformer model with a residual 128x3.66B MoE MLP resulting in 480B
//   total and 17B active parameters chosen using a top-2 gating".
Json arctic_instruct() {
  return {{"architectures", {"ArcticForCausalLM"}},
          {"model_type", "arctic"},
          {"hidden_size", 7168},
          {"intermediate_size", 4864},
          {"num_hidden_layers", 35},
          {"num_attention_heads", 56},
          {"num_key_value_heads", 8},
          {"num_local_experts", 128},
          {"num_experts_per_tok", 2},
          {"moe_layer_frequency", 1},
          {"use_residual", true},
          {"parallel_attn_mlp_res", true},
          {"max_position_embeddings", 4096},
          {"vocab_size", 32000},
          {"rope_theta", 10000},
          {"rms_norm_eps", 1e-5},
          {"tie_word_embeddings", false}};
}

// The header conversion/arctic.py (ArcticModel.set_gguf_parameters at
// 80fb11ac) writes: base.py's keys (feed_forward_length the config's
// intermediate_size, the experts' width; expert_count, expert_used_count),
// then vocab_size and rope.dimension_count (hidden / heads). No expert
// width of its own: arctic.cpp sizes the experts by n_ff and the residual
// MLP n_embd x n_embd. Three tensors stand for the rest.
test::GgufWriter arctic_gguf() {
  const std::string a = "arctic.";
  test::GgufWriter w;
  w.str("general.architecture", "arctic");
  w.u32(a + "block_count", 35);
  w.u32(a + "context_length", 4096);
  w.u32(a + "embedding_length", 7168);
  w.u32(a + "feed_forward_length", 4864);
  w.u32(a + "attention.head_count", 56);
  w.u32(a + "attention.head_count_kv", 8);
  w.f32(a + "rope.freq_base", 10000.0F);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-5F);
  w.u32(a + "expert_count", 128);
  w.u32(a + "expert_used_count", 2);
  w.u32(a + "vocab_size", 32000);
  w.u32(a + "rope.dimension_count", 128);
  w.tensor("token_embd.weight", {7168, 32000}, test::kQ8_0);
  w.tensor("output.weight", {7168, 32000}, test::kQ8_0);
  w.tensor("blk.0.ffn_gate.weight", {7168, 7168}, test::kQ8_0);
  return w;
}

TEST(Arctic, ConfigIsKnownAndCountsTheCardsTotals) {
  const Model m = test::from_config(arctic_instruct());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  EXPECT_EQ(m.arch.layers, 35);
  EXPECT_EQ(m.arch.head_dim, 128);
  EXPECT_EQ(m.arch.kv_heads, 8);
  EXPECT_EQ(m.arch.intermediate_size, 7168);  // the residual MLP, hidden x hidden
  ASSERT_TRUE(m.arch.moe.has_value());
  EXPECT_TRUE(m.arch.moe->residual_mlp);
  EXPECT_EQ(m.arch.moe->experts, 128);
  EXPECT_EQ(m.arch.moe->experts_per_token, 2);
  EXPECT_EQ(m.arch.moe->expert_intermediate_size, 4864);
  EXPECT_EQ(m.arch.moe->shared_experts, 0);
  EXPECT_EQ(m.arch.moe->first_dense_layers, 0);
  const ParamBreakdown p = count_params(m.arch);
  // The card's 480B total: counted 478.6 B.
  EXPECT_LT(test::rel(static_cast<double>(p.total()), 480e9), 0.01) << p.total();
  // Its "10B dense transformer": the embeddings, head, attention and
  // residual MLPs, 9.96 B; its "128x3.66B" experts: one expert over the 35
  // layers is 3 x 7168 x 4864 x 35 = 3.661 B.
  const std::int64_t experts = std::int64_t{35} * 128 * 3 * 7168 * 4864;
  const std::int64_t router = std::int64_t{35} * 7168 * 128;
  EXPECT_LT(test::rel(static_cast<double>(p.total() - experts - router), 10e9), 0.01);
  EXPECT_LT(test::rel(static_cast<double>(experts / 128), 3.66e9), 0.001);
  // 17B active: counted 17.32 B, 1.9 % above the card's two figures, which
  // it rounds to: held to that rounding (16.5-17.5 B) rather than to 1 %.
  EXPECT_GE(p.active(), std::int64_t{16'500'000'000}) << p.active();
  EXPECT_LT(p.active(), std::int64_t{17'500'000'000}) << p.active();
}

TEST(Arctic, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = test::from_gguf(arctic_gguf());
  const Model c = test::from_config(arctic_instruct());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  ASSERT_TRUE(g.arch.moe.has_value());
  EXPECT_TRUE(g.arch.moe->residual_mlp);
  EXPECT_EQ(g.arch.moe->expert_intermediate_size, 4864);
  EXPECT_EQ(g.arch.intermediate_size, 7168);
  EXPECT_EQ(g.arch.vocab_size, 32000);
  test::expect_same_estimate(g, c, "Arctic GGUF vs config", kEstimateGrid);
}

// Every layer caches K and V of its 8 heads of 128 over the whole context
// (arctic.cpp build_attn_inp_kv: no window): 35 x 2 x 8 x 128 x 2 bytes a
// token in F16.
TEST(Arctic, KvCacheIsEveryLayersEightHeads) {
  const Model c = test::from_config(arctic_instruct());
  EXPECT_EQ(test::llama_cpp_q4_estimate(c, 4096, true).memory.kv_cache,
            std::int64_t{35} * 2 * 8 * 128 * 2 * 4096);
}

// The residual MLP is weights beside the experts on every layer: at Q8_0
// (34 bytes a block of 32 values), 35 x 3 x 7168 x 7168 values more than
// the same model without it, plus the experts' own norm (7168 F32 a layer).
TEST(Arctic, ResidualMlpIsInTheWeights) {
  const Precision q8 = *parse_precision("q8_0");
  const Model c = test::from_config(arctic_instruct());
  Model without = c;
  without.arch.moe->residual_mlp = false;
  EXPECT_EQ(weight_layout(c, q8).total() - weight_layout(without, q8).total(),
            std::int64_t{35} * 3 * 7168 * 7168 / 32 * 34 + std::int64_t{35} * 7168 * 4);
}

// The catalogue entry carries the config's shape, so its name gives the
// estimate the config.json does.
TEST(Arctic, CatalogueGivesWhatTheConfigGives) {
  const Model& cat = test::catalogue_model("Snowflake/snowflake-arctic-instruct");
  const Model c = test::from_config(arctic_instruct());
  ASSERT_TRUE(cat.arch.moe.has_value());
  EXPECT_TRUE(cat.arch.moe->residual_mlp);
  test::expect_same_estimate(cat, c, "Arctic catalogue vs config", kEstimateGrid);
  EXPECT_EQ(cat.params, 480000000000);
}

}  // namespace
}  // namespace willfit
