// Llama/Qwen3 variants llama.cpp names apart (issue 18): each one is a
// known layer with one twist, read from its published config.json and from
// the GGUF header llama.cpp's converter writes; both must give one estimate,
// the total the published count.
//
// - `mellum` (JetBrains Mellum2; model_type mellum): llama.cpp
//   src/models/mellum.cpp at 80fb11ac is qwen3moe's layer (q, k, v apart,
//   Q and K RMS-normed per head, routed experts with softmax routing and the
//   chosen weights normalised, no shared expert, its own output head) with a
//   sliding window on the layers conversion/mellum.py lists as per-layer
//   sliding_window_pattern flags (from layer_types), or every layer but each
//   4th with a period.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/hf_config.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::rel;

// ---- mellum ------------------------------------------------------------------
//
// JetBrains/Mellum2-12B-A2.5B (the hub is not reachable here): its
// config.json as public ports transcribe it (search-tool file ids
// 70114785462, a Mellum 2.1 adapter's test, and 63122993845, a Rust port's
// MELLUM2_CONFIG): hidden 2304, 28 layers, 32 heads, 4 KV heads of 128,
// intermediate_size 7168 (no dense layer: mlp_layer_types all "sparse"), 64
// experts of 896, 8 a token, norm_topk_prob true, vocabulary 98304, 131072
// positions, sliding_window 1024 on layer_types' "sliding_attention"
// layers (three of every four: full where i % 4 == 3), untied. The
// checkpoint's model.safetensors.index.json totals 24,299,846,144 bytes of
// BF16 over 5,631 tensors (file id 70603569614, which read it): 12,149,923,072
// parameters, no MTP head among them.
std::vector<std::string> mellum_layer_types(int layers) {
  std::vector<std::string> kinds;
  for (int i = 0; i < layers; ++i) {
    kinds.emplace_back(i % 4 == 3 ? "full_attention" : "sliding_attention");
  }
  return kinds;
}

Json mellum_config(int layers = 28, int experts = 64) {
  return {{"architectures", {"MellumForCausalLM"}},
          {"model_type", "mellum"},
          {"attention_bias", false},
          {"head_dim", 128},
          {"hidden_act", "silu"},
          {"hidden_size", 2304},
          {"intermediate_size", 7168},
          {"layer_types", mellum_layer_types(layers)},
          {"mlp_layer_types", std::vector<std::string>(static_cast<std::size_t>(layers), "sparse")},
          {"max_position_embeddings", 131072},
          {"moe_intermediate_size", 896},
          {"norm_topk_prob", true},
          {"num_attention_heads", 32},
          {"num_experts", experts},
          {"num_experts_per_tok", 8},
          {"num_hidden_layers", layers},
          {"num_key_value_heads", 4},
          {"rms_norm_eps", 1e-6},
          {"sliding_window", 1024},
          {"tie_word_embeddings", false},
          {"use_sliding_window", true},
          {"vocab_size", 98304}};
}

// As conversion/mellum.py (MellumModel.set_gguf_parameters) writes it:
// base.py's keys (key_length and value_length from head_dim, the experts'
// counts), expert_feed_forward_length, the window and one flag per layer
// from layer_types; the tensors mellum.cpp loads (Q and K norms of a head's
// width, the router, the experts stacked; output.weight apart).
test::GgufWriter mellum_gguf(bool pattern_as_flags = true) {
  const std::string a = "mellum.";
  constexpr std::uint64_t e = 2304;
  constexpr std::uint64_t f = 896;
  constexpr std::uint64_t x = 64;
  test::GgufWriter w;
  w.str("general.architecture", "mellum");
  w.u32(a + "block_count", 28);
  w.u32(a + "context_length", 131072);
  w.u32(a + "embedding_length", e);
  w.u32(a + "feed_forward_length", 7168);
  w.u32(a + "attention.head_count", 32);
  w.u32(a + "attention.head_count_kv", 4);
  w.f32(a + "rope.freq_base", 500000.0F);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-6F);
  w.u32(a + "expert_count", 64);
  w.u32(a + "expert_used_count", 8);
  w.u32(a + "attention.key_length", 128);
  w.u32(a + "attention.value_length", 128);
  w.u32(a + "expert_feed_forward_length", f);
  w.u32(a + "attention.sliding_window", 1024);
  if (pattern_as_flags) {
    std::vector<bool> windowed;
    for (const auto& k : mellum_layer_types(28)) {
      windowed.push_back(k == "sliding_attention");
    }
    w.bool_array(a + "attention.sliding_window_pattern", windowed);
  } else {
    w.u32(a + "attention.sliding_window_pattern", 4);  // set_swa_pattern(4): SSSG
  }
  w.u32("general.file_type", 1);
  w.tensor("token_embd.weight", {e, 98304}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  w.tensor("output.weight", {e, 98304}, test::kF16);
  for (int i = 0; i < 28; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_q.weight", {e, 4096}, test::kF16);
    w.tensor(b + "attn_k.weight", {e, 512}, test::kF16);
    w.tensor(b + "attn_v.weight", {e, 512}, test::kF16);
    w.tensor(b + "attn_output.weight", {4096, e}, test::kF16);
    w.tensor(b + "attn_k_norm.weight", {128}, test::kF32);
    w.tensor(b + "attn_q_norm.weight", {128}, test::kF32);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_gate_inp.weight", {e, x}, test::kF32);
    w.tensor(b + "ffn_gate_exps.weight", {e, f, x}, test::kF16);
    w.tensor(b + "ffn_down_exps.weight", {f, e, x}, test::kF16);
    w.tensor(b + "ffn_up_exps.weight", {e, f, x}, test::kF16);
  }
  return w;
}

TEST(Mellum, ConfigIsKnownAndCountsTheCheckpoint) {
  const Model m = test::from_config(mellum_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  const Architecture& a = m.arch;
  ASSERT_TRUE(a.moe.has_value());
  EXPECT_EQ(a.moe->experts, 64);
  EXPECT_EQ(a.moe->experts_per_token, 8);
  EXPECT_EQ(a.moe->expert_intermediate_size, 896);
  EXPECT_EQ(a.moe->first_dense_layers, 0);
  EXPECT_TRUE(a.moe->weights_normalized);
  EXPECT_FALSE(a.tied_embeddings);
  EXPECT_EQ(a.attention.kind, AttentionKind::Sliding);
  EXPECT_EQ(a.attention.sliding_window, 1024);
  EXPECT_EQ(global_layer_count(a, a.layers), 7);
  EXPECT_TRUE(is_global_layer(a, 3) && is_global_layer(a, 27));
  EXPECT_FALSE(is_global_layer(a, 0) || is_global_layer(a, 26));
  // 12,149,923,072 in the checkpoint; willfit's count leaves out the 57
  // RMS norms of 2304 and the 56 Q and K norms of 128 (138,496).
  const ParamBreakdown p = count_params(a);
  EXPECT_EQ(p.total() + 57 * 2304 + 56 * 128, 12'149'923'072);
  EXPECT_LT(rel(static_cast<double>(p.total()), 12'149'923'072.0), 0.01) << p.total();
}

// use_sliding_window false: conversion/mellum.py writes no window, and every
// layer caches the context.
TEST(Mellum, NoWindowWhenTheConfigTurnsItOff) {
  Json j = mellum_config();
  j["use_sliding_window"] = false;
  const Model m = test::from_config(j);
  EXPECT_EQ(m.arch.attention.kind, AttentionKind::Full);
  const std::int64_t row = std::int64_t{4} * 128 * 2 * 2;
  EXPECT_EQ(test::llama_cpp_q4_estimate(m, 32768, true).memory.kv_cache,
            row * 28 * std::int64_t{32768});
}

// llama-kv-cache-iswa.cpp: the 7 global layers hold the context, the 21
// windowed ones min(context, 1024 + a micro-batch of 512) cells padded to
// 256 (1536); 4 KV heads of 128, K and V, F16.
TEST(Mellum, KvCacheIsSevenGlobalLayersAndTwentyOneWindows) {
  const Model m = test::from_config(mellum_config());
  const std::int64_t row = std::int64_t{4} * 128 * 2 * 2;
  EXPECT_EQ(test::llama_cpp_q4_estimate(m, 32768, true).memory.kv_cache,
            row * (7 * std::int64_t{32768} + 21 * std::int64_t{1536}));
}

TEST(Mellum, GgufHeaderGivesWhatTheConfigGives) {
  const Model c = test::from_config(mellum_config());
  for (const bool flags : {true, false}) {
    const Model g = test::from_gguf_header(mellum_gguf(flags));
    EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
    EXPECT_EQ(global_layer_count(g.arch, g.arch.layers), 7) << flags;
    EXPECT_TRUE(is_global_layer(g.arch, 3) && !is_global_layer(g.arch, 4)) << flags;
    test::expect_same_estimate(g, c, "mellum GGUF vs config", {2048, 32768});
  }
  // The weights willfit lays out in F16 are the converter's file byte for
  // byte but for the per-head Q and K norms (two F32 vectors of 128 a
  // layer), which willfit leaves out for every qk-normed model (qwen3moe's
  // too): 28 KiB of 24 GB.
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total() + 28 * 2 * 128 * 4,
            mellum_gguf().data_size());
}

}  // namespace
}  // namespace willfit
