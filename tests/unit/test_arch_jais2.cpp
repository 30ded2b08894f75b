// Jais 2 (llama.cpp `jais2`, config.json model_type `jais2`; issue 18).
// jais2.cpp at 80fb11ac: LayerNorms with biases (attn_norm, ffn_norm,
// output_norm), q, k and v apart with biases and wo with its bias, RoPE over
// the whole head, an ungated MLP (up, squared ReLU, down) with biases, the
// output head a tensor of its own unless the file has none. Read from its
// published shape and from the GGUF header llama.cpp's converter writes;
// both must give one estimate, the total the published count.
#include <cstdint>
#include <string>

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

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::rel;

// inceptionai/Jais-2-8B-Chat (the hub is not reachable here), as a public
// research note transcribes its Jais2Config and card (
// a public Markdown lessons table for a Jais-2 run ('Jais-2 is standard Transformer', 'No SSM
// buffers in Jais-2')): hidden 3328, 32 layers, 26 heads, vocabulary 150272, 8192 positions,
// LayerNorm, squared ReLU, RoPE, an MLP of 8 x hidden (26624), 8.09 B parameters. The note also
// says "2 KV heads (GQA possible but defaults to MHA)": every head has its K and V, as the count
// (8.09 B with 26 KV heads, 7.43 B with 2) and llama.cpp's loader (jais2.cpp creates attn_k.bias
// and attn_v.bias n_embd wide) agree. attention_bias and mlp_bias default to true in Jais2Config
// (as a public port reads them, a public Rust source file of the Ster runtime, 170,474 characters
// ('Ster implements sliding_attention and full_attention')). Untied: 8.09 B counts the head.
Json jais2_config() {
  return {{"model_type", "jais2"},
          {"architectures", {"Jais2ForCausalLM"}},
          {"hidden_size", 3328},
          {"num_hidden_layers", 32},
          {"num_attention_heads", 26},
          {"num_key_value_heads", 26},
          {"intermediate_size", 26624},
          {"vocab_size", 150272},
          {"max_position_embeddings", 8192},
          {"hidden_act", "relu2"},
          {"layer_norm_eps", 1e-5},
          {"tie_word_embeddings", false}};
}

// The GGUF llama.cpp's converter writes (conversion/jais.py Jais2Model:
// base.py's keys and rope.dimension_count the head width) and the tensors
// jais2.cpp loads, F16 matrices and F32 vectors.
test::GgufWriter jais2_gguf(bool with_layers = true) {
  const std::string a = "jais2";
  constexpr std::uint64_t e = 3328;
  constexpr std::uint64_t ff = 26624;
  constexpr std::uint64_t vocab = 150272;
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".context_length", 8192);
  w.u32(a + ".embedding_length", e);
  w.u32(a + ".feed_forward_length", ff);
  w.u32(a + ".block_count", 32);
  w.u32(a + ".attention.head_count", 26);
  w.u32(a + ".attention.head_count_kv", 26);
  w.f32(a + ".attention.layer_norm_epsilon", 1e-5F);
  w.u32(a + ".rope.dimension_count", 128);
  w.u32("general.file_type", 1);
  w.tensor("token_embd.weight", {e, vocab}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  w.tensor("output_norm.bias", {e}, test::kF32);
  w.tensor("output.weight", {e, vocab}, test::kF16);
  for (int i = 0; with_layers && i < 32; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_norm.bias", {e}, test::kF32);
    for (const char* p : {"attn_q", "attn_k", "attn_v", "attn_output"}) {
      w.tensor(b + p + ".weight", {e, e}, test::kF16);
      w.tensor(b + p + ".bias", {e}, test::kF32);
    }
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_norm.bias", {e}, test::kF32);
    w.tensor(b + "ffn_up.weight", {e, ff}, test::kF16);
    w.tensor(b + "ffn_up.bias", {ff}, test::kF32);
    w.tensor(b + "ffn_down.weight", {ff, e}, test::kF16);
    w.tensor(b + "ffn_down.bias", {e}, test::kF32);
  }
  return w;
}

TEST(Jais2, ConfigIsKnownAndCountsTheCard) {
  const Model m = test::from_config(jais2_config());
  EXPECT_TRUE(m.unchecked_architecture.empty());
  EXPECT_EQ(m.arch.kv_heads, 26);
  EXPECT_EQ(m.arch.head_dim, 128);
  EXPECT_FALSE(m.arch.mlp_gated);
  EXPECT_FALSE(m.arch.tied_embeddings);
  EXPECT_FALSE(m.arch.attention.alibi);  // RoPE, unlike Jais
  EXPECT_TRUE(m.arch.norm_bias);
  EXPECT_TRUE(m.arch.attention_bias);
  EXPECT_TRUE(m.arch.mlp_bias);
  EXPECT_LT(rel(static_cast<double>(count_params(m.arch).total()), 8.09e9), 0.01)
      << count_params(m.arch).total();
}

// Every head cached: at 8192 tokens in F16, 32 x 2 x 3328 x 2 bytes x 8192
// = 3.25 GiB.
TEST(Jais2, KvCacheIsEveryHead) {
  const Model m = test::from_config(jais2_config());
  EXPECT_EQ(kv_cache_bytes(m.arch, {8192, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{32} * 2 * 3328 * 2 * 8192);
}

TEST(Jais2, GgufHeaderGivesWhatTheConfigGives) {
  for (const bool layers : {true, false}) {
    const Model g = test::from_gguf_header(jais2_gguf(layers));
    const Model c = test::from_config(jais2_config());
    EXPECT_TRUE(g.unchecked_architecture.empty());
    EXPECT_FALSE(g.arch.mlp_gated) << layers;  // jais2.cpp creates no gate
    EXPECT_TRUE(g.arch.norm_bias);
    EXPECT_TRUE(g.arch.attention_bias);
    EXPECT_TRUE(g.arch.mlp_bias);
    EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
    test::expect_same_estimate(g, c, "jais2 GGUF vs config", {2048, 8192});
  }
  // The weights willfit lays out in F16 are the file's tensors byte for byte.
  const Model c = test::from_config(jais2_config());
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total(), jais2_gguf().data_size());
}

// The catalogue's jais-2-8b (data/models.json) is the config.json above:
// LayerNorm, attention and MLP biases by the family, the same weights, cache
// and compute buffer, its published 8.09 B within 1 % of the count.
TEST(Jais2, CatalogueEntryIsItsConfig) {
  const Model& cat = test::catalogue_model("jais-2-8b");
  EXPECT_TRUE(cat.arch.norm_bias);
  EXPECT_TRUE(cat.arch.attention_bias);
  EXPECT_TRUE(cat.arch.mlp_bias);
  EXPECT_FALSE(cat.arch.mlp_gated);
  test::expect_catalogue_is_config("jais-2-8b", test::from_config(jais2_config()), {2048, 8192});
}

}  // namespace
}  // namespace willfit
