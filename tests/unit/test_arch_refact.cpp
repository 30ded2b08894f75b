// Refact-1.6B (llama.cpp `refact`, config.json model_type `gpt_refact`;
// issue 18). refact.cpp at 80fb11ac builds llama's layer (RMS norms, q, k
// and v apart, a SwiGLU MLP) with ALiBi in place of RoPE: no inp_pos and
// no rope in the graph, f_max_alibi_bias 8 set by the loader, the slopes
// applied inside the softmax or the flash-attention kernel. One KV head
// (conversion/refact.py writes head_count_kv 1), an output head of its own.
// Read from its published config.json and from the GGUF header llama.cpp's
// converter writes; both must give one estimate, the weights the published
// Q8_0 file's size.
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

// smallcloudai/Refact-1_6B-fim's config.json (the hub is not reachable
// here): an MLX port of the model transcribes it in its ModelArgs and reads
// the same keys from config.json (a public Python MLX generation script (printing 'Token count
// is:', 'token speed: ... tokens/sec'): vocab_size 49216, n_positions 4096, n_embd 2048, n_layer
// 32, n_head 32, multi_query true, n_inner None, layer_norm_epsilon 1e-5; its modules: q n_embd x
// n_embd, kv n_embd x 2 head_dim, c_proj, gate_up_proj n_embd x 2 x 5632, c_proj 5632 x n_embd, a
// separate lm_head).
Json refact_config() {
  return {{"model_type", "gpt_refact"},
          {"architectures", {"GPTRefactForCausalLM"}},
          {"n_embd", 2048},
          {"n_layer", 32},
          {"n_head", 32},
          {"n_positions", 4096},
          {"vocab_size", 49216},
          {"multi_query", true},
          {"n_inner", nullptr},
          {"layer_norm_epsilon", 1e-5}};
}

// The GGUF llama.cpp's converter writes (conversion/refact.py
// set_gguf_parameters at 80fb11ac): context_length n_positions,
// embedding_length, feed_forward_length 5632 (4 n_embd, two thirds, up to
// a multiple of 256), block_count, head_count, head_count_kv 1,
// layer_norm_rms_epsilon; the tensors refact.cpp loads, as Q8_0 (the
// llama-quantize Q8_0 type: every matrix Q8_0, the norms F32).
test::GgufWriter refact_gguf(const test::TestType& matrix) {
  const std::string a = "refact";
  constexpr std::uint64_t e = 2048;
  constexpr std::uint64_t ff = 5632;
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".context_length", 4096);
  w.u32(a + ".embedding_length", e);
  w.u32(a + ".feed_forward_length", ff);
  w.u32(a + ".block_count", 32);
  w.u32(a + ".attention.head_count", 32);
  w.u32(a + ".attention.head_count_kv", 1);
  w.f32(a + ".attention.layer_norm_rms_epsilon", 1e-5F);
  w.u32("general.file_type", 7);
  w.tensor("token_embd.weight", {e, 49216}, matrix);
  w.tensor("output_norm.weight", {e}, test::kF32);
  w.tensor("output.weight", {e, 49216}, matrix);
  for (int i = 0; i < 32; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_q.weight", {e, e}, matrix);
    w.tensor(b + "attn_k.weight", {e, 64}, matrix);
    w.tensor(b + "attn_v.weight", {e, 64}, matrix);
    w.tensor(b + "attn_output.weight", {e, e}, matrix);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_gate.weight", {e, ff}, matrix);
    w.tensor(b + "ffn_up.weight", {e, ff}, matrix);
    w.tensor(b + "ffn_down.weight", {ff, e}, matrix);
  }
  return w;
}

TEST(Refact, ConfigIsKnownAndCountsTheCard) {
  const Model m = test::from_config(refact_config());
  EXPECT_TRUE(m.unchecked_architecture.empty());
  EXPECT_EQ(m.arch.layers, 32);
  EXPECT_EQ(m.arch.hidden_size, 2048);
  EXPECT_EQ(m.arch.heads, 32);
  EXPECT_EQ(m.arch.kv_heads, 1);
  EXPECT_EQ(m.arch.head_dim, 64);
  EXPECT_EQ(m.arch.intermediate_size, 5632);  // the converter's rule
  EXPECT_TRUE(m.arch.mlp_gated);
  EXPECT_FALSE(m.arch.tied_embeddings);
  EXPECT_TRUE(m.arch.attention.alibi);
  EXPECT_EQ(m.arch.learned_positions, 0);
  EXPECT_EQ(m.arch.max_context, 4096);
  // The card names it Refact-1.6B (smallcloudai/Refact-1_6B-fim): 1.586 B
  // counted, within 1 %.
  EXPECT_LT(rel(static_cast<double>(count_params(m.arch).total()), 1.6e9), 0.01)
      << count_params(m.arch).total();
}

// One KV head of 64: at 4096 tokens in F16, 32 layers x 2 x 64 x 2 bytes
// x 4096 = 32 MiB.
TEST(Refact, KvCacheIsOneHead) {
  const Model m = test::from_config(refact_config());
  EXPECT_EQ(kv_cache_bytes(m.arch, {4096, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{32} << 20);
}

TEST(Refact, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = test::from_gguf_header(refact_gguf(test::kQ8_0));
  const Model c = test::from_config(refact_config());
  EXPECT_TRUE(g.unchecked_architecture.empty());
  EXPECT_TRUE(g.arch.attention.alibi);
  EXPECT_TRUE(g.arch.mlp_gated);
  EXPECT_FALSE(g.arch.tied_embeddings);
  EXPECT_EQ(g.arch.kv_heads, 1);
  EXPECT_EQ(g.arch.intermediate_size, 5632);
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
  test::expect_same_estimate(g, c, "refact GGUF vs config", {2048, 8192});
  // The weights willfit lays out at Q8_0 are the file's tensors byte for
  // byte.
  EXPECT_EQ(weight_layout(c, *parse_precision("q8_0")).total(),
            refact_gguf(test::kQ8_0).data_size());
}

// The published Q8_0 file (oblivious/Refact-1.6B-fim-GGUF
// refact-1_6b-Q8_0.gguf: 1,687,086,368 bytes, as a port's notes record
// its download, a public Markdown pull-request note of a model port ('## Open items for maintainer
// review', llama-server /completion on 127.0.0.1:18115)) is the weights willfit lays out plus the
// header and the vocabulary: within 0.3 %.
TEST(Refact, Q8WeightsAreThePublishedFile) {
  const Model c = test::from_config(refact_config());
  const auto laid = static_cast<double>(weight_layout(c, *parse_precision("q8_0")).total());
  EXPECT_LT(laid, 1687086368.0);
  EXPECT_LT(rel(laid, 1687086368.0), 0.003) << laid;
}

// The catalogue's refact-1.6b (data/models.json) is the config.json above:
// one KV head, ALiBi, the converter's 5632-wide MLP, an output head of its
// own; its params the card's 1.6 B (no exact total is published; the shapes
// count 1.586 B, within 1 %).
TEST(Refact, CatalogueEntryIsItsConfig) {
  const Model& cat = test::catalogue_model("refact-1.6b");
  EXPECT_TRUE(cat.arch.attention.alibi);
  EXPECT_EQ(cat.arch.kv_heads, 1);
  EXPECT_EQ(cat.params, 1600000000);
  test::expect_catalogue_is_config("refact-1.6b", test::from_config(refact_config()), {2048, 4096});
}

// ALiBi holds no memory: the compute buffer is the same layer's with RoPE,
// less the position input and the roped Q and K, never more.
TEST(Refact, ComputeBufferIsLlamasLayerWithoutRope) {
  const Model c = test::from_config(refact_config());
  Model rope = c;
  rope.arch.attention.alibi = false;
  for (const bool flash : {false, true}) {
    const auto x = test::llama_cpp_q4_estimate(c, 4096, flash).memory.compute;
    const auto y = test::llama_cpp_q4_estimate(rope, 4096, flash).memory.compute;
    EXPECT_LE(x, y) << flash;
  }
}

}  // namespace
}  // namespace willfit
