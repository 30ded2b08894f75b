// Chameleon (llama.cpp `chameleon`, config.json model_type `chameleon`;
// issue 18). chameleon.cpp at 80fb11ac: llama's layer (RMS norms, q, k, v
// and o apart without biases, SwiGLU) whose Q and K are LayerNormed per
// head with a weight and a bias for every head and channel (attn_q_norm
// {head_dim, heads}, attn_k_norm {head_dim, kv_heads}), the Swin-style
// norm placement where swin_norm is set (norms after the attention and the
// MLP instead of before), and logits whose image tokens (4..8195) are
// masked by ggml_set_1d into a second logits-sized tensor. Read from its
// published shape and from the GGUF header llama.cpp's converter writes;
// both must give one estimate, the total the published count, and the
// compute buffer what a real llama.cpp reserved.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/live_rows.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/core/units.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/hf_config.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::rel;

// facebook/chameleon-7b (the hub is not reachable here): transformers'
// ChameleonConfig, whose defaults are that checkpoint's (its docstring's
// checkpoint; configuration_chameleon.py as the search tool's
// a version of transformers' Chameleon configuration module in dataclass style, 2,496 characters
// (__all__ = ChameleonConfig, ChameleonVQVAEConfig) holds it): vocab_size 65536, hidden_size 4096,
// intermediate_size 11008, 32 layers, 32 attention and 32 key-value heads,
// silu, 4096 positions, rms_norm_eps 1e-5, tie_word_embeddings false,
// swin_norm false. torchtune's chameleon_7b builder has the same shape
// (vocab 65_536, 32 layers, 32 heads and KV heads, embed 4096, 4096
// positions, intermediate 11_008). The paper (arXiv 2405.09818, Table 1)
// names the model 7B.
Json chameleon_config(int layers = 32, bool swin = false) {
  return {{"model_type", "chameleon"},
          {"architectures", {"ChameleonForConditionalGeneration"}},
          {"hidden_size", 4096},
          {"num_hidden_layers", layers},
          {"num_attention_heads", 32},
          {"num_key_value_heads", 32},
          {"intermediate_size", 11008},
          {"vocab_size", 65536},
          {"max_position_embeddings", 4096},
          {"hidden_act", "silu"},
          {"rms_norm_eps", 1e-5},
          {"swin_norm", swin},
          {"tie_word_embeddings", false}};
}

// The GGUF llama.cpp's converter writes (conversion/chameleon.py: base.py's
// keys and swin_norm) and the tensors chameleon.cpp loads: F16 matrices,
// F32 norms, Q and K norms with their biases per head.
test::GgufWriter chameleon_gguf(bool with_layers = true, bool swin = false) {
  const std::string a = "chameleon";
  constexpr std::uint64_t e = 4096;
  constexpr std::uint64_t ff = 11008;
  constexpr std::uint64_t vocab = 65536;
  constexpr std::uint64_t head = 128;
  constexpr std::uint64_t heads = 32;
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".context_length", 4096);
  w.u32(a + ".embedding_length", e);
  w.u32(a + ".feed_forward_length", ff);
  w.u32(a + ".block_count", 32);
  w.u32(a + ".attention.head_count", heads);
  w.u32(a + ".attention.head_count_kv", heads);
  w.f32(a + ".attention.layer_norm_rms_epsilon", 1e-5F);
  w.u32(a + ".rope.dimension_count", head);
  w.boolean(a + ".swin_norm", swin);
  w.u32("general.file_type", 1);
  w.tensor("token_embd.weight", {e, vocab}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  w.tensor("output.weight", {e, vocab}, test::kF16);
  for (int i = 0; with_layers && i < 32; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    for (const char* n :
         {"attn_q_norm.weight", "attn_q_norm.bias", "attn_k_norm.weight", "attn_k_norm.bias"}) {
      w.tensor(b + n, {head, heads}, test::kF32);
    }
    for (const char* p : {"attn_q", "attn_k", "attn_v", "attn_output"}) {
      w.tensor(b + p + ".weight", {e, e}, test::kF16);
    }
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_gate.weight", {e, ff}, test::kF16);
    w.tensor(b + "ffn_up.weight", {e, ff}, test::kF16);
    w.tensor(b + "ffn_down.weight", {ff, e}, test::kF16);
  }
  return w;
}

TEST(Chameleon, ConfigIsKnownAndCountsThePaper) {
  const Model m = test::from_config(chameleon_config());
  EXPECT_TRUE(m.unchecked_architecture.empty());
  EXPECT_TRUE(m.arch.attention.qk_layer_norm);
  EXPECT_TRUE(m.arch.masked_image_logits);
  EXPECT_FALSE(m.arch.swin_norm);
  EXPECT_EQ(m.arch.head_dim, 128);
  EXPECT_TRUE(m.arch.mlp_gated);
  EXPECT_FALSE(m.arch.tied_embeddings);
  // 7.01 B without the VQ-GAN image tokenizer, which llama.cpp's file
  // leaves out (conversion/chameleon.py drops model.vqmodel).
  EXPECT_LT(rel(static_cast<double>(count_params(m.arch).total()), 7.0e9), 0.01)
      << count_params(m.arch).total();
  EXPECT_TRUE(test::from_config(chameleon_config(32, true)).arch.swin_norm);
}

// Every head cached, as llama's: at 4096 tokens in F16, 32 x 2 x 4096 x 2
// bytes x 4096 = 2 GiB.
TEST(Chameleon, KvCacheIsEveryHead) {
  const Model m = test::from_config(chameleon_config());
  EXPECT_EQ(kv_cache_bytes(m.arch, {4096, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{32} * 2 * 4096 * 2 * 4096);
}

TEST(Chameleon, GgufHeaderGivesWhatTheConfigGives) {
  for (const bool swin : {false, true}) {
    for (const bool layers : {true, false}) {
      const Model g = test::from_gguf_header(chameleon_gguf(layers, swin));
      const Model c = test::from_config(chameleon_config(32, swin));
      EXPECT_TRUE(g.unchecked_architecture.empty());
      EXPECT_TRUE(g.arch.attention.qk_layer_norm);
      EXPECT_TRUE(g.arch.masked_image_logits);
      EXPECT_EQ(g.arch.swin_norm, swin);
      EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
      test::expect_same_estimate(g, c, swin ? "swin GGUF vs config" : "GGUF vs config",
                                 {2048, 4096});
    }
  }
}

// The weights willfit lays out in F16 are the file's tensors byte for byte:
// the per-head Q and K norms and their biases (2 x (4096 + 4096) F32 values
// a layer) included.
TEST(Chameleon, WeightsAreTheFilesTensors) {
  const Model c = test::from_config(chameleon_config());
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total(), chameleon_gguf().data_size());
}

// The masked logits: with n_ubatch 512 and a 65536-token vocabulary the
// logits are 128 MiB, and chameleon.cpp's ggml_set_1d copies them into a
// second tensor while they are live, so the buffer holds both. The same
// shape without the mask (a llama layer with per-head Q/K norms) needs
// 128 MiB less, less the image row (32 KiB) and, at most, the KQ mask's
// block the row keeps from joining the free space (4096 cells x 512 tokens
// in F16 under flash attention: 4 MiB) with the few KiB of inputs beside it.
TEST(Chameleon, MaskedLogitsAreASecondLogitsTensor) {
  const Model m = test::from_config(chameleon_config(4));
  Model plain = m;
  plain.arch.masked_image_logits = false;
  const Estimate x = test::llama_cpp_q4_estimate(m, 4096, true);
  const Estimate y = test::llama_cpp_q4_estimate(plain, 4096, true);
  EXPECT_GE(x.memory.compute - y.memory.compute, std::int64_t{65536} * 512 * 4);
  EXPECT_LE(x.memory.compute - y.memory.compute,
            std::int64_t{65536} * 512 * 4 + 8192 * 4 + std::int64_t{4096} * 512 * 2 + 65536);
}

// facebook/chameleon-7b REDUCED to 4 of its 32 layers (make_gguf rows
// chameleon-7b-r4, and chameleon-7b-swin-r4 with swin_norm set on the same
// shape), read from the published shape with num_hidden_layers 4, against
// what a real llama.cpp allocated for the synthetic F16, Q8_0 and Q4_K_M
// files (tests/data/llamacpp_cpu_compute_chameleon.csv,
// llamacpp_cpu_kv_chameleon.csv; docs/live-llamacpp.md, Chameleon run):
// chameleon.cpp's graph, the per-head Q/K LayerNorms, the masked logits (a
// second logits-sized tensor above the image row, which is placed with the
// inputs as every leaf is) and, in the second file, the Swin-style norms.
TEST(Chameleon, MatchesTheLiveLlamaCpp) {
  const double mib = static_cast<double>(kMiB);
  std::size_t rows = 0;
  test::for_each_live_row(
      "llamacpp_cpu_compute_chameleon.csv", [&](const std::vector<std::string>& c) {
        const Model m = test::from_config(chameleon_config(4, c[0] == "chameleon-7b-swin-r4"));
        const auto [measured, willfit] = test::live_row_compute(m, c);
        EXPECT_LE(std::abs(willfit - measured) / measured, 0.001);
        ++rows;
      });
  EXPECT_EQ(rows, 54U);
  std::size_t kv_rows = 0;
  test::for_each_live_row("llamacpp_cpu_kv_chameleon.csv", [&](const std::vector<std::string>& c) {
    const Model m = test::from_config(chameleon_config(4, c[0] == "chameleon-7b-swin-r4"));
    EXPECT_NEAR(static_cast<double>(test::live_row_estimate(m, c).memory.kv_cache),
                std::stod(c[6]) * mib, 0.01 * mib);
    ++kv_rows;
  });
  EXPECT_EQ(kv_rows, 54U);
}

}  // namespace
}  // namespace willfit
