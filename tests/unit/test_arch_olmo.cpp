// OLMo (llama.cpp `olmo`; config.json model_type `olmo`): AI2's OLMo-1B and
// OLMo-7B in the transformers layout (allenai/OLMo-1B-hf, OLMo-7B-hf). Its
// block (llama.cpp src/models/olmo.cpp at 80fb11ac; conversion/olmo.py):
// llama's projections and SwiGLU, LayerNorms without weights or biases
// (build_norm with no weight: one new tensor, nothing in place after it), Q, K
// and V clamped to +-clip_qkv where the config sets it (in place), no final
// norm weight. Read from its published config.json and the header the
// converter writes: one estimate, no norm weights; the parameter count
// against the published one. (The whole OLMo-1B against a real llama.cpp:
// tests/unit/test_ggml_alloc.cpp, GgmlAlloc.Olmo1bMatchesTheLiveLlamaCpp.)
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::from_config;
using test::from_gguf;
using test::rel;

// allenai/OLMo-1B-hf config.json as public ports embed it (a public Rust candle-style port with
// tests (load_toy, forward_ids; 'past logits changed: {x} vs {y}'), "byte-for-byte the arch block
// of the real allenai/OLMo-1B-hf config.json", and a public Rust OLMo port with tests ('OLMo
// forward_hidden vs forward_hidden_embeds must agree (max diff {max_diff})')): OlmoForCausalLM,
// hidden 2048, intermediate 8192, 16 layers, 16 heads and 16 KV heads, vocabulary 50304, 2048
// positions, rope 10000, no attention bias, clip_qkv null, tied.
Json olmo_1b() {
  return {{"architectures", {"OlmoForCausalLM"}},
          {"attention_bias", false},
          {"clip_qkv", nullptr},
          {"hidden_act", "silu"},
          {"hidden_size", 2048},
          {"intermediate_size", 8192},
          {"max_position_embeddings", 2048},
          {"model_type", "olmo"},
          {"num_attention_heads", 16},
          {"num_hidden_layers", 16},
          {"num_key_value_heads", 16},
          {"rope_theta", 10000.0},
          {"tie_word_embeddings", true},
          {"vocab_size", 50304}};
}

// The header conversion/olmo.py writes (TextModel's keys, the LayerNorm
// epsilon 1e-5, attention.clamp_kqv only with a clip_qkv) and the tensors
// olmo.cpp loads: no norms, the output tied to token_embd.
test::GgufWriter olmo_1b_gguf() {
  const std::string a = "olmo.";
  test::GgufWriter w;
  w.str("general.architecture", "olmo");
  w.u32(a + "context_length", 2048);
  w.u32(a + "embedding_length", 2048);
  w.u32(a + "feed_forward_length", 8192);
  w.u32(a + "block_count", 16);
  w.u32(a + "attention.head_count", 16);
  w.u32(a + "attention.head_count_kv", 16);
  w.f32(a + "rope.freq_base", 10000.0F);
  w.f32(a + "attention.layer_norm_epsilon", 1e-5F);
  w.tensor("token_embd.weight", {2048, 50304}, test::kQ8_0);
  for (int i = 0; i < 16; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    for (const char* t : {"attn_q", "attn_k", "attn_v", "attn_output"}) {
      w.tensor(b + t + ".weight", {2048, 2048}, test::kQ8_0);
    }
    w.tensor(b + "ffn_gate.weight", {2048, 8192}, test::kQ8_0);
    w.tensor(b + "ffn_up.weight", {2048, 8192}, test::kQ8_0);
    w.tensor(b + "ffn_down.weight", {8192, 2048}, test::kQ8_0);
  }
  return w;
}

TEST(Olmo, ConfigAndGgufAreKnownAndAgree) {
  const Model c = from_config(olmo_1b());
  const Model g = from_gguf(olmo_1b_gguf());
  EXPECT_TRUE(c.unchecked_architecture.empty()) << c.unchecked_architecture;
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_TRUE(c.arch.tied_embeddings && g.arch.tied_embeddings);
  EXPECT_TRUE(c.arch.weightless_norms && g.arch.weightless_norms);
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
  for (const bool flash : {false, true}) {
    for (const std::int64_t ctx : {std::int64_t{2048}, std::int64_t{4096}}) {
      const Estimate ec = test::llama_cpp_q4_estimate(c, ctx, flash);
      const Estimate eg = test::llama_cpp_q4_estimate(g, ctx, flash);
      EXPECT_EQ(ec.memory.kv_cache, eg.memory.kv_cache);
      EXPECT_EQ(ec.memory.compute, eg.memory.compute);
    }
  }
  // K and V of 16 heads of 128 on each of 16 layers, F16.
  EXPECT_EQ(test::llama_cpp_q4_estimate(c, 2048, false).memory.kv_cache,
            std::int64_t{16} * 2 * 16 * 128 * 2 * 2048);
}

// OLMo-1B has 1176764416 parameters: public code that builds the released
// network and counts them (a public pytest file comparing a native OLMo port with transformers
// (test_native_swiglu_uses_value_then_gate): "sum(p.numel() for p in model.parameters()) ==
// 1176764416", weight tying on; the same figure as "train/total_parameters" in a public training
// report, a public Markdown training record of an OLMo-1B-sized checkpoint
// ('train/total_parameters: 1176764416.0')).
TEST(Olmo, ParameterCountMatchesThePublishedOne) {
  EXPECT_LT(
      rel(static_cast<double>(count_params(from_config(olmo_1b()).arch).total()), 1176764416.0),
      0.01);
}

// The weights from the config against the tensor bytes of the olmo-1b files
// a real llama.cpp loaded (docs/live-llamacpp.md, OLMo-1B run: F16
// 2,353,528,832, Q8_0 1,250,312,192, Q4_K_M 731,744,256): no norm vector
// anywhere, so F16 is exact.
TEST(Olmo, WeightsMatchTheLiveFiles) {
  const Model m = from_config(olmo_1b());
  EXPECT_EQ(weight_layout(m, *parse_precision("f16")).total(), std::int64_t{2353528832});
  EXPECT_LT(
      rel(static_cast<double>(weight_layout(m, *parse_precision("q8_0")).total()), 1250312192.0),
      0.001);
  EXPECT_LT(
      rel(static_cast<double>(weight_layout(m, *parse_precision("q4_k_m")).total()), 731744256.0),
      0.01);
}

// OLMo's first configs (allenai/OLMo-7B before the -hf conversion: d_model,
// n_layers, mlp_ratio; a public Python smoke-test file of a model-architecture renderer, 63,950
// characters ('All smoke tests passed.' after test_kimi_k2 ...
// test_model_id_custom_code_falls_back_to_raw_config_json)) share model_type olmo but not the key
// names; they keep the unknown-architecture warning.
TEST(Olmo, TheOriginalConfigStillWarns) {
  const Json v0 = {{"model_type", "olmo"},
                   {"d_model", 4096},
                   {"n_layers", 32},
                   {"n_heads", 32},
                   {"mlp_ratio", 8},
                   {"vocab_size", 50304},
                   {"max_sequence_length", 2048}};
  EXPECT_FALSE(from_config(v0).unchecked_architecture.empty());
}

}  // namespace
}  // namespace willfit
