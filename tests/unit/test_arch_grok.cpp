// Grok (llama.cpp `grok`, config.json model_type `grok-1`), issue 18: the
// published Grok-1 config.json and the GGUF header llama.cpp's converter
// writes give one architecture, one KV cache and one compute-buffer replay;
// the parameter counts are xAI's. Grok-2's dense MLP beside the experts is
// read from both paths alike.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;

// Grok-1's shape as xAI published it and as public transcriptions quote it
// (the hub is not reachable):
// - xai-org/grok-1 run.py at 11b95e7a: vocab_size 128 x 1024, sequence_len
//   8192, emb_size 48 x 128, key_size 128, num_q_heads 48, num_kv_heads 8,
//   num_layers 64, widening_factor 8 (model.py ffn_size: 8 x 6144 x 2/3,
//   rounded to a multiple of 8, = 32768), num_experts 8,
//   num_selected_experts 2; one in_out_embed table for the embeddings and
//   the logits (tied);
// - NVIDIA TensorRT-LLM tensorrt_llm/models/grok/convert.py
//   create_config_from_xai (found by searching for '"embedding_multiplier_scale"':
//   a public Python TensorRT-LLM-style Grok-1 converter (create_config_from_xai; load weights with
//   moe_config and use_parallel_embedding)): the same values as a config.json (hidden_size 6144,
//   intermediate_size 32768, num_hidden_layers 64, num_attention_heads 48,
//   num_key_value_heads 8, num_experts 8, num_experts_per_tok 2,
//   vocab_size 131072, max_position_embeddings 8192, tie_word_embeddings
//   true, bfloat16);
// - the Hugging Face port's Grok1Config (model_type "grok-1", "default
//   values provided by xai-org/grok-1 run.py", a public Python Grok-1 configuration class
//   (num_local_experts, output_router_logits; super().__init__ with tie_word_embeddings)).
Json grok1() {
  return {{"architectures", {"Grok1ModelForCausalLM"}},
          {"model_type", "grok-1"},
          {"vocab_size", 131072},
          {"hidden_size", 6144},
          {"intermediate_size", 32768},
          {"num_hidden_layers", 64},
          {"num_attention_heads", 48},
          {"num_key_value_heads", 8},
          {"attn_output_multiplier", 0.08838834764831845},
          {"embedding_multiplier_scale", 78.38367176906169},
          {"output_multiplier_scale", 0.5773502691896257},
          {"max_attn_value", 30.0},
          {"max_position_embeddings", 8192},
          {"rms_norm_eps", 1e-5},
          {"tie_word_embeddings", true},
          {"num_experts_per_tok", 2},
          {"num_experts", 8},
          {"torch_dtype", "bfloat16"}};
}

// The header conversion/grok.py (GrokModel.set_gguf_parameters at 80fb11ac)
// writes for Grok-1: the base class's block_count, context_length,
// embedding_length, feed_forward_length (intermediate_size), head_count,
// head_count_kv, rope.freq_base, layer_norm_rms_epsilon, expert_count and
// expert_used_count; then attn_logit_softcapping and
// router_logit_softcapping (30), attention.output_scale, embedding_scale
// and logit_scale. No expert_feed_forward_length (no moe_intermediate_size:
// grok.cpp takes the experts' width from feed_forward_length). The
// vocabulary is the token embeddings' rows; no output.weight (tied: grok.cpp
// falls back to token_embd).
test::GgufWriter grok1_gguf() {
  const std::string a = "grok.";
  test::GgufWriter w;
  w.str("general.architecture", "grok");
  w.u32(a + "block_count", 64);
  w.u32(a + "context_length", 8192);
  w.u32(a + "embedding_length", 6144);
  w.u32(a + "feed_forward_length", 32768);
  w.u32(a + "attention.head_count", 48);
  w.u32(a + "attention.head_count_kv", 8);
  w.f32(a + "rope.freq_base", 10000.0F);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-5F);
  w.u32(a + "expert_count", 8);
  w.u32(a + "expert_used_count", 2);
  w.f32(a + "attn_logit_softcapping", 30.0F);
  w.f32(a + "router_logit_softcapping", 30.0F);
  w.f32(a + "attention.output_scale", 0.08838834764831845F);
  w.f32(a + "embedding_scale", 78.38367176906169F);
  w.f32(a + "logit_scale", 0.5773502691896257F);
  w.tensor("token_embd.weight", {6144, 131072}, test::kQ8_0);
  return w;
}

// KV cache and compute buffer equal under llama.cpp, with and without flash
// attention, at a short and the full context.
void expect_one_estimate(const Model& x, const Model& y, const std::string& what) {
  for (const bool flash : {false, true}) {
    for (const std::int64_t ctx : {std::int64_t{2048}, std::int64_t{8192}}) {
      const Estimate ex = test::llama_cpp_q4_estimate(x, ctx, flash);
      const Estimate ey = test::llama_cpp_q4_estimate(y, ctx, flash);
      EXPECT_EQ(ex.memory.kv_cache, ey.memory.kv_cache) << what << " " << ctx << " " << flash;
      EXPECT_EQ(ex.memory.compute, ey.memory.compute) << what << " " << ctx << " " << flash;
      EXPECT_GT(ex.memory.compute, 0) << what;
    }
  }
}

TEST(Grok, Grok1ConfigIsKnownAndCountsXaisTotal) {
  const Model m = test::from_config(grok1());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  EXPECT_EQ(m.arch.layers, 64);
  EXPECT_EQ(m.arch.hidden_size, 6144);
  EXPECT_EQ(m.arch.heads, 48);
  EXPECT_EQ(m.arch.kv_heads, 8);
  EXPECT_EQ(m.arch.head_dim, 128);
  EXPECT_EQ(m.arch.max_context, 8192);
  EXPECT_EQ(m.arch.vocab_size, 131072);
  EXPECT_TRUE(m.arch.tied_embeddings);
  ASSERT_TRUE(m.arch.moe.has_value());
  EXPECT_EQ(m.arch.moe->experts, 8);
  EXPECT_EQ(m.arch.moe->experts_per_token, 2);
  EXPECT_EQ(m.arch.moe->expert_intermediate_size, 32768);
  EXPECT_EQ(m.arch.moe->shared_experts, 0);
  // xAI (github.com/xai-org/grok-1 README): "314B parameters", "Mixture of
  // 8 Experts (MoE)", "2 experts used per token". Counted: 64 layers of
  // attention (2 x 6144^2 + 2 x 6144 x 1024) and 8 GeGLU experts of
  // 3 x 6144 x 32768, the router, and one 131072 x 6144 table: 315.7 B,
  // 0.5 % above 314 B.
  const ParamBreakdown p = count_params(m.arch);
  EXPECT_LT(test::rel(static_cast<double>(p.total()), 314e9), 0.01) << p.total();
  // Active: the same with 2 experts of 8, 83.8 B. xAI gives no active count
  // beyond "25% of the weights are active on a given token" (78.5 B, which
  // leaves out the attention and the embeddings); the ~86 B quoted elsewhere
  // is 2.6 % above this count and has no primary source. Held to the
  // mechanism: the routed share is exactly 6 of the 8 experts' weights.
  const std::int64_t expert = std::int64_t{3} * 6144 * 32768;
  EXPECT_EQ(p.total() - p.active(), std::int64_t{64} * 6 * expert);
  EXPECT_LT(test::rel(static_cast<double>(p.active()), 83.8e9), 0.01) << p.active();
}

TEST(Grok, Grok1GgufHeaderGivesWhatTheConfigGives) {
  const Model g = test::from_gguf(grok1_gguf());
  const Model c = test::from_config(grok1());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  ASSERT_TRUE(g.arch.moe.has_value());
  EXPECT_EQ(g.arch.moe->expert_intermediate_size, 32768);
  EXPECT_EQ(g.arch.moe->shared_experts, 0);
  EXPECT_EQ(g.arch.vocab_size, 131072);
  EXPECT_EQ(g.arch.head_dim, 128);
  EXPECT_TRUE(g.arch.tied_embeddings);
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
  EXPECT_EQ(count_params(g.arch).active(), count_params(c.arch).active());
  expect_one_estimate(g, c, "grok-1 GGUF vs config");
}

// Every layer caches K and V of its 8 heads of 128 over the whole context
// (grok.cpp build_attn_inp_kv: no window): 64 x 2 x 8 x 128 x 2 bytes a
// token in F16.
TEST(Grok, KvCacheIsEveryLayersEightHeads) {
  const Model c = test::from_config(grok1());
  const std::int64_t ctx = 8192;
  EXPECT_EQ(kv_cache_bytes(c.arch, {ctx, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{64} * 2 * 8 * 128 * 2 * ctx);
}

// llama.cpp forces flash attention off for Grok (llama-context.cpp
// llama_init_from_model at 80fb11ac: "flash_attn is not compatible with Grok
// - forcing off"), as the live grok-1-r2 rows show (docs/live-llamacpp.md,
// Grok-1 run): asked for it, the estimate is the one without it, and a
// quantised V cache, which llama.cpp then refuses, is estimated at f16 with
// a warning. A dense llama of the same shape keeps flash attention.
TEST(Grok, FlashAttentionIsForcedOffUnderLlamaCpp) {
  const Model c = test::from_config(grok1());
  EXPECT_TRUE(c.arch.attention.flash_forced_off);
  EXPECT_TRUE(test::from_gguf(grok1_gguf()).arch.attention.flash_forced_off);
  const Estimate on = test::llama_cpp_q4_estimate(c, 8192, true);
  const Estimate off = test::llama_cpp_q4_estimate(c, 8192, false);
  EXPECT_FALSE(on.flash_attention);
  EXPECT_EQ(on.memory.compute, off.memory.compute);
  EXPECT_FALSE(on.warnings.empty());

  InferenceQuery q;
  q.model = c;
  q.precision = *parse_precision("q4_k_m");
  q.runtime = Runtime::LlamaCpp;
  q.context = 8192;
  q.flash_attention = FlashAttention::Auto;
  q.kv_type = *parse_kv_type("q8_0");
  const Estimate e = estimate_inference(q);
  EXPECT_FALSE(e.flash_attention);
  EXPECT_EQ(e.kv_type_v.id, kv_f16().id);
  EXPECT_FALSE(e.warnings.empty());

  Model plain = c;
  plain.arch.attention.flash_forced_off = false;
  EXPECT_TRUE(test::llama_cpp_q4_estimate(plain, 8192, true).flash_attention);
}

// Grok-2's layout as the sglang test configs quote it (found by searching
// for '"residual_moe"': a public Python JAX test script of Grok-2 in an sglang-jax style engine
// (NativeAttention(config.num_attention_heads, config.num_key_value_heads), jax.sharding.use_mesh):
// hidden_size 8192, 64 heads, 8 KV heads, head_dim 128, 8 experts top 2, residual_moe true,
// model_type "git"; widths shrunk there). The full config.json is not in any transcription found,
// so the widths here are those of that test config, two layers: what is checked is that
// residual_moe's dense MLP of intermediate_size and the converter's expert_feed_forward_length give
// the same dense MLP beside the experts on both paths. model_type "git" is also Microsoft's GIT, so
// a config.json keeps the shared-keys warning; the GGUF names grok.
Json grok2_shape() {
  return {{"architectures", {"Grok1ForCausalLM"}},
          {"model_type", "git"},
          {"vocab_size", 131072},
          {"hidden_size", 8192},
          {"intermediate_size", 1024},
          {"moe_intermediate_size", 2048},
          {"max_position_embeddings", 131072},
          {"num_experts_per_tok", 2},
          {"num_local_experts", 8},
          {"residual_moe", true},
          {"num_attention_heads", 64},
          {"num_key_value_heads", 8},
          {"num_hidden_layers", 2},
          {"head_dim", 128},
          {"rms_norm_eps", 1e-5},
          {"final_logit_softcapping", 50},
          {"rope_theta", 208533496},
          {"tie_word_embeddings", true},
          {"torch_dtype", "bfloat16"}};
}

// conversion/grok.py for it: the base keys (key_length and value_length
// from head_dim), expert_feed_forward_length (moe_intermediate_size),
// final_logit_softcapping, and the YaRN keys (rope_type "original").
test::GgufWriter grok2_gguf() {
  const std::string a = "grok.";
  test::GgufWriter w;
  w.str("general.architecture", "grok");
  w.u32(a + "block_count", 2);
  w.u32(a + "context_length", 131072);
  w.u32(a + "embedding_length", 8192);
  w.u32(a + "feed_forward_length", 1024);
  w.u32(a + "expert_feed_forward_length", 2048);
  w.u32(a + "attention.head_count", 64);
  w.u32(a + "attention.head_count_kv", 8);
  w.u32(a + "attention.key_length", 128);
  w.u32(a + "attention.value_length", 128);
  w.f32(a + "rope.freq_base", 208533496.0F);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-5F);
  w.u32(a + "expert_count", 8);
  w.u32(a + "expert_used_count", 2);
  w.f32(a + "attn_logit_softcapping", 30.0F);
  w.f32(a + "router_logit_softcapping", 30.0F);
  w.f32(a + "final_logit_softcapping", 50.0F);
  w.tensor("token_embd.weight", {8192, 131072}, test::kQ8_0);
  return w;
}

TEST(Grok, Grok2DenseMlpBesideTheExpertsOnBothPaths) {
  const Model g = test::from_gguf(grok2_gguf());
  const Model c = test::from_config(grok2_shape());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  for (const Model* m : {&g, &c}) {
    ASSERT_TRUE(m->arch.moe.has_value());
    EXPECT_EQ(m->arch.moe->expert_intermediate_size, 2048);
    // The dense MLP (1024) in expert widths (2048): rounded to one.
    EXPECT_EQ(m->arch.moe->shared_experts, 1);
  }
  // Without residual_moe the same config has no dense MLP.
  Json plain = grok2_shape();
  plain.erase("residual_moe");
  ASSERT_TRUE(test::from_config(plain).arch.moe.has_value());
  EXPECT_EQ(test::from_config(plain).arch.moe->shared_experts, 0);
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
  expect_one_estimate(g, c, "grok-2 GGUF vs config");
}

}  // namespace
}  // namespace willfit
