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
// - `pangu-embedded` (openPangu-Embedded; model_type PanguEmbedded):
//   pangu-embed.cpp is llama's layer with biases on q, k and v (optional)
//   and on o (required), RoPE over the whole head, its own output head.
// - `nanbeige` (Nanbeige4.2; model_type nanbeige): nanbeige.cpp is llama's
//   layer, its block_count layers run num_loops times a token (the output
//   norm between passes), each pass with a KV cache slot of its own
//   (n_layer_all = layers x loops) and the same weights.
// - `grovemoe` (inclusionAI GroveMoE; a Qwen3-MoE config whose
//   architectures name GroveMoeForCausalLM): grovemoe.cpp is qwen3moe's
//   layer whose routed experts (chosen by the sigmoid of the router's
//   logits, weighted by their softmax) are followed by a second MoE pass of
//   adjugate experts, one to each pair of routed ones, over the first's
//   output with the same logits; that output scaled by 0.05 and added.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/catalogue_checks.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/hf_config.hpp"
#include "willfit/models/weight_layout.hpp"
#include "willfit/speed/speed.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::rel;

// ---- mellum ------------------------------------------------------------------
//
// JetBrains/Mellum2-12B-A2.5B (the hub is not reachable here): its
// config.json as public ports transcribe it (
// a public pytest file of a Mellum 2.1 adapter
// (test_thinking_defaults_on_for_chat_and_can_be_disabled, Mellum21ThinkingAdapter), a Mellum 2.1
// adapter's test, and a public Rust Mellum config with tests (MELLUM2_CONFIG; test
// mellum_config_name_matches_registry), a Rust port's MELLUM2_CONFIG): hidden 2304, 28 layers, 32
// heads, 4 KV heads of 128, intermediate_size 7168 (no dense layer: mlp_layer_types all "sparse"),
// 64 experts of 896, 8 a token, norm_topk_prob true, vocabulary 98304, 131072 positions,
// sliding_window 1024 on layer_types' "sliding_attention" layers (three of every four: full where i
// % 4 == 3), untied. The checkpoint's model.safetensors.index.json totals 24,299,846,144 bytes of
// BF16 over 5,631 tensors (a public Markdown work log of a goinfer benchmark of Mellum 2.1
// (~/models/mellum2.1-thinking.int4.e4h.cuda.giw, mellum21_think_history.json), which read it):
// 12,149,923,072 parameters, no MTP head among them.
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

// ---- pangu-embedded -----------------------------------------------------------
//
// FreedomIntelligence/openPangu-Embedded-7B-V1.1 (the hub is not reachable
// here): its config.json as a public note prints it (
// a public Chinese Markdown note on token confidence with a tokenizer example (tokens 'Align',
// '88', '55', '<0x2B>', '33', '649'), model.config under transformers 4.53.2; a public unittest of
// a PanguEmbedded config rewrite (config.json.pangu.bak; 'the TOKENIZER's auto_map must be
// untouched'), a test quoting "the real openPangu-Embedded-7B config.json", agrees): hidden 4096,
// 34 layers, 32 heads, 8 KV heads, intermediate 12800, vocabulary 153376, 32768 positions, bias
// true, untied. The same note prints the module tree: q_proj 4096->4096, k_proj and v_proj
// 4096->1024, o_proj 4096->4096, all with biases; gate, up and down without; lm_head 4096->153376.
// Its parameter count is that tree's sum.
Json pangu_config(int layers = 34) {
  return {{"architectures", {"PanguEmbeddedForCausalLM"}},
          {"model_type", "PanguEmbedded"},
          {"bias", true},
          {"hidden_act", "silu"},
          {"hidden_size", 4096},
          {"intermediate_size", 12800},
          {"max_position_embeddings", 32768},
          {"num_attention_heads", 32},
          {"num_hidden_layers", layers},
          {"num_key_value_heads", 8},
          {"rms_norm_eps", 1e-5},
          {"rope_theta", 16000000.0},
          {"tie_word_embeddings", false},
          {"vocab_size", 153376}};
}

// As conversion/pangu.py (PanguEmbeddedModel.set_gguf_parameters) writes
// it: base.py's keys, vocab_size, rope.dimension_count and, the config
// having no head_dim, key_length and value_length of hidden / heads; the
// tensors pangu-embed.cpp loads.
test::GgufWriter pangu_gguf() {
  const std::string a = "pangu-embedded.";
  constexpr std::uint64_t e = 4096;
  constexpr std::uint64_t kv = 1024;
  constexpr std::uint64_t ff = 12800;
  test::GgufWriter w;
  w.str("general.architecture", "pangu-embedded");
  w.u32(a + "block_count", 34);
  w.u32(a + "context_length", 32768);
  w.u32(a + "embedding_length", e);
  w.u32(a + "feed_forward_length", ff);
  w.u32(a + "attention.head_count", 32);
  w.u32(a + "attention.head_count_kv", 8);
  w.f32(a + "rope.freq_base", 16000000.0F);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-5F);
  w.u32("general.file_type", 1);
  w.u32(a + "vocab_size", 153376);
  w.u32(a + "rope.dimension_count", 128);
  w.u32(a + "attention.key_length", 128);
  w.u32(a + "attention.value_length", 128);
  w.tensor("token_embd.weight", {e, 153376}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  w.tensor("output.weight", {e, 153376}, test::kF16);
  for (int i = 0; i < 34; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_q.weight", {e, e}, test::kF16);
    w.tensor(b + "attn_q.bias", {e}, test::kF32);
    w.tensor(b + "attn_k.weight", {e, kv}, test::kF16);
    w.tensor(b + "attn_k.bias", {kv}, test::kF32);
    w.tensor(b + "attn_v.weight", {e, kv}, test::kF16);
    w.tensor(b + "attn_v.bias", {kv}, test::kF32);
    w.tensor(b + "attn_output.weight", {e, e}, test::kF16);
    w.tensor(b + "attn_output.bias", {e}, test::kF32);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_gate.weight", {e, ff}, test::kF16);
    w.tensor(b + "ffn_up.weight", {e, ff}, test::kF16);
    w.tensor(b + "ffn_down.weight", {ff, e}, test::kF16);
  }
  return w;
}

TEST(PanguEmbedded, ConfigIsKnownAndCountsTheModuleTree) {
  const Model m = test::from_config(pangu_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  EXPECT_TRUE(m.arch.attention_bias);
  EXPECT_FALSE(m.arch.tied_embeddings);
  EXPECT_EQ(m.arch.head_dim, 128);
  // The printed tree, layer by layer: q and o 4096 x 4096 with biases, k
  // and v 4096 x 1024 with biases, three 4096 x 12800 MLP matrices, two
  // RMS norms; the embedding, the final norm and lm_head.
  const std::int64_t layer =
      2 * (4096LL * 4096 + 4096) + 2 * (4096LL * 1024 + 1024) + 3 * 4096LL * 12800 + 2 * 4096;
  const std::int64_t tree = 34 * layer + 2 * 153376LL * 4096 + 4096;
  const ParamBreakdown p = count_params(m.arch);
  EXPECT_LT(rel(static_cast<double>(p.total()), static_cast<double>(tree)), 0.01) << p.total();
}

// Every layer caches the context: 34 layers x 8 KV heads of 128, K and V.
TEST(PanguEmbedded, KvCacheIsEveryLayer) {
  const Model m = test::from_config(pangu_config());
  EXPECT_EQ(test::llama_cpp_q4_estimate(m, 8192, true).memory.kv_cache,
            std::int64_t{34} * 2 * 1024 * 2 * 8192);
}

TEST(PanguEmbedded, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = test::from_gguf_header(pangu_gguf());
  const Model c = test::from_config(pangu_config());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_TRUE(g.arch.attention_bias);
  test::expect_same_estimate(g, c, "pangu-embedded GGUF vs config", {2048, 32768});
  // The weights willfit lays out in F16 are the converter's file byte for byte.
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total(), pangu_gguf().data_size());
}

// ---- nanbeige -----------------------------------------------------------------
//
// Nanbeige/Nanbeige4.2-3B (the hub is not reachable here): its config.json
// as a public architecture note transcribes it (
// a public copy of the Nanbeige4.2-3B model card (citation 'Nanbeige4.2-3B: Unlocking Agentic
// Capabilities in a Compact Model', arXiv:2607.22083); a Rust port's test, a public Rust model-args
// module with tests, 66,580 characters (test_model_new_negative_num_hidden_layers), quotes the
// same): hidden 3072, 22 layers, 48 heads, 8 KV heads of 128, intermediate 10752, vocabulary
// 166144, 262144 positions, num_loops 2, skip_loop_final_norm false, untied. The hub lists it
// at 4.2B parameters (a public generated Markdown digest of trending repositories, 44,596
// characters ('Generated by PeekDeck - A glance is all you need')), the note at "~3B
// non-embedding".
Json nanbeige_config(int layers = 22) {
  return {{"architectures", {"NanbeigeForCausalLM"}},
          {"model_type", "nanbeige"},
          {"vocab_size", 166144},
          {"hidden_size", 3072},
          {"intermediate_size", 10752},
          {"num_hidden_layers", layers},
          {"num_attention_heads", 48},
          {"num_key_value_heads", 8},
          {"head_dim", 128},
          {"kv_channels", 128},
          {"hidden_act", "silu"},
          {"max_position_embeddings", 262144},
          {"rope_theta", 70000000},
          {"attention_bias", false},
          {"rms_norm_eps", 1e-5},
          {"num_loops", 2},
          {"skip_loop_final_norm", false},
          {"tie_word_embeddings", false}};
}

// As conversion/nanbeige.py (NanbeigeModel, LlamaModel's keys) writes it:
// block_count the physical layers, num_loops and skip_loop_final_norm;
// the tensors nanbeige.cpp loads for the physical layers only.
test::GgufWriter nanbeige_gguf() {
  const std::string a = "nanbeige.";
  constexpr std::uint64_t e = 3072;
  constexpr std::uint64_t q = 6144;
  constexpr std::uint64_t kv = 1024;
  constexpr std::uint64_t ff = 10752;
  test::GgufWriter w;
  w.str("general.architecture", "nanbeige");
  w.u32(a + "block_count", 22);
  w.u32(a + "context_length", 262144);
  w.u32(a + "embedding_length", e);
  w.u32(a + "feed_forward_length", ff);
  w.u32(a + "attention.head_count", 48);
  w.u32(a + "attention.head_count_kv", 8);
  w.f32(a + "rope.freq_base", 70000000.0F);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-5F);
  w.u32(a + "attention.key_length", 128);
  w.u32(a + "attention.value_length", 128);
  w.u32("general.file_type", 1);
  w.u32(a + "vocab_size", 166144);
  w.u32(a + "rope.dimension_count", 128);
  w.u32(a + "num_loops", 2);
  w.boolean(a + "skip_loop_final_norm", false);
  w.tensor("token_embd.weight", {e, 166144}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  w.tensor("output.weight", {e, 166144}, test::kF16);
  for (int i = 0; i < 22; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_q.weight", {e, q}, test::kF16);
    w.tensor(b + "attn_k.weight", {e, kv}, test::kF16);
    w.tensor(b + "attn_v.weight", {e, kv}, test::kF16);
    w.tensor(b + "attn_output.weight", {q, e}, test::kF16);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_gate.weight", {e, ff}, test::kF16);
    w.tensor(b + "ffn_up.weight", {e, ff}, test::kF16);
    w.tensor(b + "ffn_down.weight", {ff, e}, test::kF16);
  }
  return w;
}

TEST(Nanbeige, ConfigIsKnownAndCountsTheCard) {
  const Model m = test::from_config(nanbeige_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  EXPECT_EQ(m.arch.layers, 22);
  EXPECT_EQ(m.arch.loops, 2);
  // The weights are the 22 layers' once: 4.2B as the hub lists it, 3.15B
  // of them in the layers ("~3B non-embedding").
  const ParamBreakdown p = count_params(m.arch);
  EXPECT_LT(rel(static_cast<double>(p.total()), 4.2e9), 0.01) << p.total();
  EXPECT_LT(rel(static_cast<double>(p.total() - 2 * 166144LL * 3072), 3.15e9), 0.01);
  // The user is told the layers run twice (the KV cache and the speed hold
  // both passes), not left to wonder why the cache is twice a 22-layer one.
  EXPECT_NE(describe_shape(m).find("the 22 layers run 2 times a token (looped)"), std::string::npos)
      << describe_shape(m);
}

// nanbeige.cpp runs the 22 weight-tied layers twice a token, so decoding
// reads their weights twice (the embeddings and the head once), and each pass
// does its own attention and graph nodes: a token costs the first pass's
// reads plus one more read of every layer. Weights of one byte a parameter
// make the bytes the parameters read.
TEST(Nanbeige, EachPassReadsTheLayersAgain) {
  const Model m = test::from_config(nanbeige_config());
  Model once = m;
  once.arch.loops = 1;
  const ParamBreakdown p = count_params(m.arch);
  const std::int64_t layers = p.attention + p.mlp_active;
  EXPECT_EQ(decode_weight_bytes(m, m.params) - decode_weight_bytes(once, m.params), layers);
  const TokenCosts two = token_costs(m, m.params, 0);
  const TokenCosts one = token_costs(once, m.params, 0);
  EXPECT_DOUBLE_EQ(two.attention_flops_per_position, 2.0 * one.attention_flops_per_position);
  EXPECT_GT(two.graph_nodes, 1.9 * one.graph_nodes);
  EXPECT_NEAR(two.flops_per_weight_byte, one.flops_per_weight_byte, 1e-6);
}

// 44 KV slots (22 layers x 2 passes), 8 KV heads of 128, K and V in F16.
TEST(Nanbeige, KvCacheHoldsEveryPass) {
  const Model m = test::from_config(nanbeige_config());
  EXPECT_EQ(test::llama_cpp_q4_estimate(m, 8192, true).memory.kv_cache,
            std::int64_t{44} * 2 * 1024 * 2 * 8192);
  Json once = nanbeige_config();
  once["num_loops"] = 1;
  EXPECT_EQ(test::llama_cpp_q4_estimate(test::from_config(once), 8192, true).memory.kv_cache,
            std::int64_t{22} * 2 * 1024 * 2 * 8192);
}

TEST(Nanbeige, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = test::from_gguf_header(nanbeige_gguf());
  const Model c = test::from_config(nanbeige_config());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_EQ(g.arch.loops, 2);
  test::expect_same_estimate(g, c, "nanbeige GGUF vs config", {2048, 32768});
  // The weights willfit lays out in F16 are the converter's file byte for byte.
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total(), nanbeige_gguf().data_size());
}

// ---- grovemoe ----------------------------------------------------------------
//
// inclusionAI/GroveMoE-Inst (the hub is not reachable here and no
// transcription of its config.json was found): its README
// (inclusionAI/GroveMoE README.md at 0b37d949) says it is up-cycled from
// Qwen3-30B-A3B-Base, and the repository ships transformers 4.51.3's
// qwen3_moe modeling file patched for it (src/transformers-4.51.3/.../
// qwen3_moe/modeling_qwen3_moe.py): a Qwen3-MoE config. Its shape is
// Qwen3-30B-A3B's as the RND1 test gives it (tests/unit/test_arch_rnd1.cpp:
// hidden 2048, 48 layers, 32 heads, 4 KV heads of 128, 128 experts of 768,
// 8 a token, vocabulary 151936, 40960 positions, untied); the class
// GroveMoeForCausalLM is the one llama.cpp's conversion/grovemoe.py
// registers. The adjugate experts are not in the config: the converter
// writes what modeling_grove_moe.py hardcodes (2 experts a group, 128 wide,
// scale 0.05), as the repository's sglang model does (grovemoe.py at
// 33bc6673: 64 chunk_experts of intermediate_size 128, selected_experts //
// 2, 0.05 x the small experts' sum).
Json grovemoe_config() {
  return {{"architectures", {"GroveMoeForCausalLM"}},
          {"model_type", "qwen3_moe"},
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
          {"tie_word_embeddings", false}};
}

// As conversion/grovemoe.py (GroveMoeModel.set_gguf_parameters at
// 80fb11ac) writes it: base.py's keys, expert_feed_forward_length,
// expert_chunk_feed_forward_length (head_dim), experts_per_group 2,
// expert_group_scale 0.05; the tensors grovemoe.cpp loads: qwen3moe's and
// ffn_{gate,up,down}_chexps of 64 experts of 128.
test::GgufWriter grovemoe_gguf(int layers = 48) {
  const std::string a = "grovemoe.";
  constexpr std::uint64_t e = 2048;
  constexpr std::uint64_t f = 768;
  constexpr std::uint64_t x = 128;
  constexpr std::uint64_t c = 128;
  test::GgufWriter w;
  w.str("general.architecture", "grovemoe");
  w.u32(a + "block_count", static_cast<std::uint32_t>(layers));
  w.u32(a + "context_length", 40960);
  w.u32(a + "embedding_length", e);
  w.u32(a + "feed_forward_length", 6144);
  w.u32(a + "attention.head_count", 32);
  w.u32(a + "attention.head_count_kv", 4);
  w.f32(a + "rope.freq_base", 1000000.0F);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-6F);
  w.u32(a + "expert_count", x);
  w.u32(a + "expert_used_count", 8);
  w.u32(a + "attention.key_length", 128);
  w.u32(a + "attention.value_length", 128);
  w.u32(a + "expert_feed_forward_length", f);
  w.u32(a + "expert_chunk_feed_forward_length", c);
  w.u32(a + "experts_per_group", 2);
  w.f32(a + "expert_group_scale", 0.05F);
  w.u32("general.file_type", 1);
  w.tensor("token_embd.weight", {e, 151936}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  w.tensor("output.weight", {e, 151936}, test::kF16);
  for (int i = 0; i < layers; ++i) {
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
    w.tensor(b + "ffn_gate_chexps.weight", {e, c, x / 2}, test::kF16);
    w.tensor(b + "ffn_down_chexps.weight", {c, e, x / 2}, test::kF16);
    w.tensor(b + "ffn_up_chexps.weight", {e, c, x / 2}, test::kF16);
  }
  return w;
}

// The README: "33 B total parameters and 3.14–3.28 B active parameters per
// token". Qwen3-30B-A3B's 30,532,122,624 (tests/unit/test_arch_rnd1.cpp's
// source) plus 48 layers of 64 adjugate experts of 3 x 2048 x 128:
// 32.95 B. Active: a token's 8 routed experts fall in 4 to 8 groups, so 4
// to 8 adjugate experts a layer (151 M to 302 M over 48 layers: the
// README's 0.14 B spread); willfit counts the most, 8.
TEST(GroveMoe, ConfigCountsTheReadme) {
  const Model m = test::from_config(grovemoe_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  ASSERT_TRUE(m.arch.moe.has_value());
  EXPECT_EQ(m.arch.moe->experts_per_group, 2);
  EXPECT_EQ(m.arch.moe->group_expert_width, 128);
  // The same config naming Qwen3-MoE's class: Qwen3-30B-A3B without them.
  Json qwen = grovemoe_config();
  qwen["architectures"] = {"Qwen3MoeForCausalLM"};
  const ParamBreakdown base = count_params(test::from_config(qwen).arch);
  EXPECT_LT(rel(static_cast<double>(base.total()), 30532122624.0), 0.01) << base.total();
  const ParamBreakdown p = count_params(m.arch);
  EXPECT_EQ(p.total() - base.total(), std::int64_t{48} * 64 * 3 * 2048 * 128);
  EXPECT_LT(rel(static_cast<double>(p.total()), 33e9), 0.01) << p.total();
  EXPECT_EQ(p.active() - base.active(), std::int64_t{48} * 8 * 3 * 2048 * 128);
}

TEST(GroveMoe, GgufHeaderGivesWhatTheConfigGives) {
  const Model c = test::from_config(grovemoe_config());
  const Model g = test::from_gguf_header(grovemoe_gguf());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  ASSERT_TRUE(g.arch.moe.has_value());
  EXPECT_EQ(g.arch.moe->experts_per_group, 2);
  EXPECT_EQ(g.arch.moe->group_expert_width, 128);
  test::expect_same_estimate(g, c, "grovemoe GGUF vs config", {2048, 32768});
  // The F16 layout is the converter's tensors but for the per-head Q and K
  // norms (two F32 vectors of 128 a layer), which willfit leaves out for
  // every qk-normed model.
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total() + 48 * 2 * 128 * 4,
            grovemoe_gguf().data_size());
}

// The catalogue's grovemoe-inst (data/models.json) is the config.json above:
// the adjugate experts, two routed experts a group, 128 wide; the same
// weights, cache and compute buffer, and the README's 33 B within 1 % of
// the count.
TEST(GroveMoe, CatalogueEntryIsItsConfig) {
  const Model& cat = test::catalogue_model("grovemoe-inst");
  ASSERT_TRUE(cat.arch.moe.has_value());
  EXPECT_EQ(cat.arch.moe->experts_per_group, 2);
  EXPECT_EQ(cat.arch.moe->group_expert_width, 128);
  test::expect_catalogue_is_config("grovemoe-inst", test::from_config(grovemoe_config()),
                                   {2048, 32768});
}

}  // namespace
}  // namespace willfit
