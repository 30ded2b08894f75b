// llama.cpp's modern-bert architecture, first-class (issue 18): ModernBERT
// (answerdotai/ModernBERT-base, -large) and the encoders built on it
// (ibm-granite/granite-embedding-english-r2). Read from its published
// config.json and from a GGUF header as llama.cpp's converter writes it
// (conversion/bert.py ModernBertModel at 80fb11ac): both must give one
// estimate, and the parameter count must match the card. The expected
// numbers come from the configs, the cards and the files, not from willfit.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/model.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::from_config;
using test::from_gguf;
using test::llama_cpp_q4_estimate;
using test::rel;

// Two readings of one model: the same block, no KV cache in either, one
// compute buffer, never empty, with and without flash attention, short and
// full context (test::expect_same_estimate).
void expect_same_reading(const Model& a, const Model& b, const std::string& what) {
  EXPECT_EQ(a.arch.mlp_gated, b.arch.mlp_gated) << what;
  EXPECT_EQ(a.arch.fused_gate_up, b.arch.fused_gate_up) << what;
  EXPECT_EQ(a.arch.attention.fused_qkv, b.arch.attention.fused_qkv) << what;
  EXPECT_EQ(a.arch.attention.post_norm, b.arch.attention.post_norm) << what;
  EXPECT_EQ(a.arch.attention.kind, b.arch.attention.kind) << what;
  EXPECT_EQ(a.arch.attention.sliding_pattern, b.arch.attention.sliding_pattern) << what;
  EXPECT_EQ(a.arch.attention.global_first, b.arch.attention.global_first) << what;
  const test::EstimateGrid grid{.contexts = {512, 8192},
                                .params = test::EstimateGrid::Params::None};
  for (const auto& p : test::expect_same_estimate(a, b, what, grid)) {
    EXPECT_EQ(p.x.memory.kv_cache, 0) << what << " at " << p.context;
    EXPECT_EQ(p.y.memory.kv_cache, 0) << what << " at " << p.context;
    EXPECT_GT(p.x.memory.compute, 0) << what << " at " << p.context;
  }
}

// ---------------------------------------------------------------------------
// answerdotai/ModernBERT-base.
//
// Its config.json (model_type modernbert, ModernBertForMaskedLM) as a Rust
// encoder's test transcribes it (code index, a public Rust test file of a yes/no scoring helper
// (noul_answer_is_affirmative_probability, softmax_matches_manual)): vocab_size 50368, hidden_size
// 768, intermediate_size 1152, num_hidden_layers 22, num_attention_heads 12, norm_eps 1e-5,
// hidden_activation gelu, local_attention 128, global_attn_every_n_layers 3 (layers 0, 3, 6, ...
// global, the test asserts), global_rope_theta 160000, local_rope_theta
// 10000, max_position_embeddings 8192. A second transcription (
// a public Rust ModernBERT config module of kohagi with tests (accepts_norm_eps; 'Neither present:
// fall back to HF's default rather than failing to parse.')) quotes the same 768, 22, 12, 1152,
// 8192, 3, 128 and thetas. The keys it leaves out take ModernBertConfig's defaults: no biases
// (norm_bias, attention_bias, mlp_bias False, beside the same 50368, 768,
// 1152, 22, 12, 128 and 3 as defaults: transformers' documentation of the
// class, v4.57.0 model_doc/modernbert, a stored copy).
Json modernbert_base_config() {
  return {{"model_type", "modernbert"},
          {"vocab_size", 50368},
          {"hidden_size", 768},
          {"intermediate_size", 1152},
          {"num_hidden_layers", 22},
          {"num_attention_heads", 12},
          {"norm_eps", 1e-5},
          {"hidden_activation", "gelu"},
          {"local_attention", 128},
          {"global_attn_every_n_layers", 3},
          {"global_rope_theta", 160000.0},
          {"local_rope_theta", 10000.0},
          {"max_position_embeddings", 8192}};
}

// The GGUF llama.cpp's converter writes for it (conversion/bert.py
// ModernBertModel on BertModel, at 80fb11ac): the base keys (context_length
// from max_position_embeddings, embedding_length, feed_forward_length,
// block_count, head_count, the LayerNorm epsilon), causal false, the
// pooling type, then sliding_window from local_attention,
// sliding_window_pattern from global_attn_every_n_layers, vocab_size and
// hidden_act. The tensors modern-bert.cpp load_arch_tensors creates: the
// token embeddings and their norm (no bias), per layer attn_norm (absent
// from layer 0, whose norm is the identity), attn_qkv of 3 x 768, attn_output,
// ffn_norm, ffn_up of 2 x 1152 (Wi: gate and up) and ffn_down, no biases;
// output_norm (final_norm); no output head.
test::GgufWriter modernbert_gguf(int layers, int hidden, int heads, int ffn,
                                 bool pattern_key = true) {
  const std::string a = "modern-bert";
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".block_count", static_cast<std::uint32_t>(layers));
  w.u32(a + ".context_length", 8192);
  w.u32(a + ".embedding_length", static_cast<std::uint32_t>(hidden));
  w.u32(a + ".feed_forward_length", static_cast<std::uint32_t>(ffn));
  w.u32(a + ".attention.head_count", static_cast<std::uint32_t>(heads));
  w.f32(a + ".attention.layer_norm_epsilon", 1e-5F);
  w.boolean(a + ".attention.causal", false);
  w.u32(a + ".pooling_type", 1);
  w.u32(a + ".attention.sliding_window", 128);
  if (pattern_key) {
    w.u32(a + ".attention.sliding_window_pattern", 3);
  }
  w.u32(a + ".vocab_size", 50368);
  w.str(a + ".hidden_act", "gelu");
  const auto e = static_cast<std::uint64_t>(hidden);
  const auto f = static_cast<std::uint64_t>(ffn);
  w.tensor("token_embd.weight", {e, 50368}, test::kF16);
  w.tensor("token_embd_norm.weight", {e}, test::kF32);
  for (int i = 0; i < layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    if (i != 0) {
      w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    }
    w.tensor(b + "attn_qkv.weight", {e, 3 * e}, test::kF16);
    w.tensor(b + "attn_output.weight", {e, e}, test::kF16);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_up.weight", {e, 2 * f}, test::kF16);
    w.tensor(b + "ffn_down.weight", {f, e}, test::kF16);
  }
  w.tensor("output_norm.weight", {e}, test::kF32);
  return w;
}

TEST(ModernBert, ConfigReadsTheEncoderItIs) {
  const Model c = from_config(modernbert_base_config());
  EXPECT_TRUE(c.unchecked_architecture.empty()) << c.unchecked_architecture;
  EXPECT_EQ(c.arch.layers, 22);
  EXPECT_EQ(c.arch.hidden_size, 768);
  EXPECT_EQ(c.arch.heads, 12);
  EXPECT_EQ(c.arch.kv_heads, 12);
  EXPECT_EQ(c.arch.head_dim, 64);
  EXPECT_EQ(c.arch.intermediate_size, 1152);
  EXPECT_TRUE(c.arch.mlp_gated);  // GEGLU: gate and up in one Wi, down
  EXPECT_TRUE(c.arch.fused_gate_up);
  EXPECT_TRUE(c.arch.attention.fused_qkv);
  EXPECT_FALSE(c.arch.norm_bias);
  EXPECT_FALSE(c.arch.attention.post_norm);  // pre-norm blocks
  EXPECT_TRUE(c.arch.attention.no_kv_cache);
  EXPECT_TRUE(c.arch.tied_embeddings);  // no output head
  EXPECT_EQ(c.arch.vocab_size, 50368);
  EXPECT_EQ(c.arch.max_context, 8192);
  EXPECT_TRUE(c.embedding);
  // Layer 0 and every third after it global, the others within 128 tokens.
  EXPECT_EQ(c.arch.attention.kind, AttentionKind::Sliding);
  EXPECT_EQ(c.arch.attention.sliding_window, 128);
  EXPECT_EQ(c.arch.attention.sliding_pattern, 3);
  EXPECT_TRUE(c.arch.attention.global_first);
  EXPECT_TRUE(is_global_layer(c.arch, 0));
  EXPECT_FALSE(is_global_layer(c.arch, 1));
  EXPECT_FALSE(is_global_layer(c.arch, 2));
  EXPECT_TRUE(is_global_layer(c.arch, 21));
  EXPECT_EQ(global_layer_count(c.arch, 22), 8);  // 0, 3, ..., 21
  // The card's 149 M ("ModernBERT-base - 22 layers, 149 million parameters":
  // https://huggingface.co./answerdotai/ModernBERT-base/resolve/890363e1dc0f82175ed809ed6635d549acd1f1f9/README.md,
  // a stored copy; llama.cpp modern-bert.cpp names the 22-layer size
  // LLM_TYPE_149M) within 1 %.
  EXPECT_LT(rel(static_cast<double>(count_params(c.arch).total()), 149e6), 0.01)
      << count_params(c.arch).total();
}

TEST(ModernBert, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = from_gguf(modernbert_gguf(22, 768, 12, 1152));
  const Model c = from_config(modernbert_base_config());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_TRUE(g.embedding);
  EXPECT_TRUE(g.arch.attention.no_kv_cache);
  EXPECT_TRUE(g.arch.mlp_gated);
  EXPECT_TRUE(g.arch.fused_gate_up);
  EXPECT_TRUE(g.arch.attention.fused_qkv);
  EXPECT_TRUE(g.arch.tied_embeddings);
  EXPECT_EQ(g.arch.kv_heads, 12);
  EXPECT_EQ(g.arch.intermediate_size, 1152);
  EXPECT_EQ(g.arch.max_context, 8192);
  EXPECT_EQ(g.arch.attention.sliding_window, 128);
  // The file's tensors: 50368 x 768 + 2 x 768 outside the layers; per layer
  // 768 x 2304 (qkv) + 768^2 + 768 x 2304 (up) + 1152 x 768 + 2 x 768 =
  // 5,015,040, less layer 0's attn_norm: 149,014,272 in all, the card's
  // 149 M within 0.01 %.
  EXPECT_EQ(g.params, 149014272);
  EXPECT_LT(rel(static_cast<double>(g.params), 149e6), 0.01);
  EXPECT_LT(rel(static_cast<double>(count_params(c.arch).total()), static_cast<double>(g.params)),
            0.001);
  expect_same_reading(g, c, "ModernBERT-base");
}

TEST(ModernBert, NoPatternKeyMeansEveryThirdLayer) {
  // modern-bert.cpp: swa_period 3 unless the file gives one.
  const Model without = from_gguf(modernbert_gguf(22, 768, 12, 1152, false));
  EXPECT_EQ(without.arch.attention.kind, AttentionKind::Sliding);
  EXPECT_EQ(without.arch.attention.sliding_pattern, 3);
  EXPECT_TRUE(without.arch.attention.global_first);
}

// answerdotai/ModernBERT-large: the same config keys, hidden_size 1024,
// num_hidden_layers 28, num_attention_heads 16, intermediate_size 2624,
// vocab_size 50368, local_attention 128, global_attn_every_n_layers 3, as
// two Rust ports' tests transcribe it (code index, a public Rust EncoderConfig with a test
// comparing a v5 config and a legacy one (rope_theta 160000.0 full, 10000.0 sliding; sliding_window
// 64) and a public Rust test file with Spanish comments (its last test asserts 'los backends eligen
// opciones distintas' when the two backends' argmax differ)). The card's 395 M ("ModernBERT-large -
// 28 layers, 395 million parameters", the ModernBERT-base README above; llama.cpp modern-bert.cpp
// names the 28-layer size LLM_TYPE_395M).
TEST(ModernBert, LargeMatchesItsCard) {
  Json j = modernbert_base_config();
  j["hidden_size"] = 1024;
  j["num_hidden_layers"] = 28;
  j["num_attention_heads"] = 16;
  j["intermediate_size"] = 2624;
  const Model c = from_config(j);
  EXPECT_EQ(c.arch.head_dim, 64);
  EXPECT_LT(rel(static_cast<double>(count_params(c.arch).total()), 395e6), 0.01)
      << count_params(c.arch).total();
  const Model g = from_gguf(modernbert_gguf(28, 1024, 16, 2624));
  EXPECT_LT(rel(static_cast<double>(g.params), 395e6), 0.01) << g.params;
  expect_same_reading(g, c, "ModernBERT-large");
}

TEST(ModernBert, TheWindowedLayersStillAttendOverTheBatch) {
  // No cache: a windowed layer's mask is tokens x tokens as the global
  // one's (build_attn_inp_no_cache), so the window does not shrink the
  // compute buffer; a model read with every layer global needs the same.
  const Model c = from_config(modernbert_base_config());
  Model all_global = c;
  all_global.arch.attention.kind = AttentionKind::Full;
  all_global.arch.attention.sliding_window = 0;
  all_global.arch.attention.sliding_pattern = 0;
  all_global.arch.attention.global_first = false;
  const Estimate a = llama_cpp_q4_estimate(c, 8192, false);
  const Estimate b = llama_cpp_q4_estimate(all_global, 8192, false);
  // The windowed mask is one more input of tokens x tokens (F32).
  EXPECT_GT(a.memory.compute, b.memory.compute);
}

}  // namespace
}  // namespace willfit
