// PLaMo-13B (llama.cpp `plamo`, config.json model_type `plamo`), PLaMo 2
// (llama.cpp `plamo2`, config.json model_type `plamo2`) and PLaMo 3
// (llama.cpp `plamo3`, config.json model_type `plamo3`); issue 18.
// plamo.cpp at 80fb11ac: llama's projections and SwiGLU MLP, but one RMS
// norm a layer feeding the attention and the MLP in parallel, the layer's
// output MLP + attention + input; K and V shared by groups of 8 heads.
// plamo2.cpp at 80fb11ac: a Mamba mixer of its own on the layers without KV
// heads (ssm_in to z and x, a convolution without a bias, ssm_x to dt, B and
// C, each RMS-normed, dt projected to one step a head, the scan per head),
// attention with one fused QKV projection and per-head Q and K norms (RoPE)
// on the others, an MLP on every layer with gate and up in one ffn_up, and
// each mixer's and MLP's output RMS-normed again before its residual add.
// plamo3.cpp at 80fb11ac: PLaMo 2's attention layer on every layer (one
// fused QKV projection, Q and K RMS-normed, but by one weight of head_dim
// each; gate and up in one ffn_up; each attention's and MLP's output
// RMS-normed again before its residual add, the rows to output picked
// before the attention's), a window on seven layers of every eight.
// Read from its published shape and from the GGUF header llama.cpp's
// converter writes; both must give one estimate.
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
#include "willfit/models/plamo2.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::rel;

// pfnet/plamo-2-1b config.json (the hub is not reachable here), as two
// public ports transcribe it alike: a Swift MLX port's test (a public test fixture of a PLaMo 2
// config ('mamba_step': 2, 'attention_window_size': 2048, 'max_position_embeddings': 10485760,
// vocab_size 100000), "decodes Plamo2 1B configuration") and a Rust port's (a public Rust PLaMo 2
// test (plamo2::post_mixer_norm_offset() 0.2, post_mlp_norm_offset 1/(5**1.5)), "values mirror the
// real checkpoint").
Json plamo2_1b_config() {
  return {{"model_type", "plamo2"},
          {"architectures", {"Plamo2ForCausalLM"}},
          {"hidden_size", 2048},
          {"num_hidden_layers", 16},
          {"rms_norm_eps", 1e-6},
          {"tie_word_embeddings", true},
          {"num_attention_heads", 16},
          {"num_key_value_heads", 1},
          {"hidden_size_per_head", 128},
          {"max_position_embeddings", 10485760},
          {"attention_window_size", 2048},
          {"mamba_d_state", 64},
          {"mamba_d_conv", 4},
          {"mamba_num_heads", 32},
          {"mamba_step", 2},
          {"mamba_chunk_size", 256},
          {"mamba_enabled", true},
          {"intermediate_size", 8192},
          {"vocab_size", 100000}};
}

// The GGUF conversion/plamo.py Plamo2Model writes for it (head_count and
// head_count_kv per layer, 0 on the Mamba layers; key_length and
// value_length hidden_size_per_head; ssm.time_step_rank the mixer's heads,
// ssm.inner_size heads x 128, ssm.group_count 0), and the tensors
// plamo2.cpp load_arch_tensors creates, F16 matrices and F32 vectors (the
// convolution F32, as llama-quant.cpp keeps it).
test::GgufWriter plamo2_1b_gguf(bool with_layers = true) {
  const std::string a = "plamo2";
  constexpr std::uint64_t e = 2048;
  constexpr std::uint64_t ff = 8192;
  constexpr std::uint64_t vocab = 100000;
  constexpr std::uint64_t d = 4096;
  constexpr std::uint64_t dt = 128;  // max(64, 2048 / 16)
  constexpr std::uint64_t n = 64;
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".vocab_size", vocab);
  std::vector<std::uint32_t> heads;
  std::vector<std::uint32_t> kv;
  for (int i = 0; i < 16; ++i) {
    heads.push_back(i % 2 == 1 ? 16 : 0);
    kv.push_back(i % 2 == 1 ? 1 : 0);
  }
  w.u32_array(a + ".attention.head_count_kv", kv);
  w.u32_array(a + ".attention.head_count", heads);
  w.u32(a + ".context_length", 10485760);
  w.u32(a + ".embedding_length", e);
  w.u32(a + ".attention.key_length", 128);
  w.u32(a + ".attention.value_length", 128);
  w.u32(a + ".block_count", 16);
  w.f32(a + ".attention.layer_norm_rms_epsilon", 1e-6F);
  w.f32(a + ".rope.freq_base", 10000.0F);
  w.u32(a + ".ssm.state_size", n);
  w.u32(a + ".ssm.conv_kernel", 4);
  w.u32(a + ".ssm.time_step_rank", 32);
  w.u32(a + ".ssm.inner_size", d);
  w.u32(a + ".ssm.group_count", 0);
  w.u32(a + ".feed_forward_length", ff);
  w.u32("general.file_type", 1);
  w.tensor("token_embd.weight", {e, vocab}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  for (int i = 0; with_layers && i < 16; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    if (i % 2 == 0) {
      w.tensor(b + "ssm_in.weight", {e, 2 * d}, test::kF16);
      w.tensor(b + "ssm_conv1d.weight", {4, d}, test::kF32);
      w.tensor(b + "ssm_x.weight", {d, dt + 2 * n}, test::kF16);
      w.tensor(b + "ssm_dt.weight", {dt, 32}, test::kF16);
      w.tensor(b + "ssm_dt.bias", {32}, test::kF32);
      w.tensor(b + "ssm_a", {32}, test::kF32);
      w.tensor(b + "ssm_d", {32}, test::kF32);
      w.tensor(b + "ssm_out.weight", {d, e}, test::kF16);
      w.tensor(b + "ssm_dt_norm", {dt}, test::kF32);
      w.tensor(b + "ssm_b_norm", {n}, test::kF32);
      w.tensor(b + "ssm_c_norm", {n}, test::kF32);
    } else {
      w.tensor(b + "attn_qkv.weight", {e, 2048 + 2 * 128}, test::kF16);
      w.tensor(b + "attn_q_norm.weight", {128, 16}, test::kF32);
      w.tensor(b + "attn_k_norm.weight", {128, 1}, test::kF32);
      w.tensor(b + "attn_output.weight", {2048, e}, test::kF16);
    }
    w.tensor(b + "post_attention_norm", {e}, test::kF32);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_down.weight", {ff, e}, test::kF16);
    w.tensor(b + "ffn_up.weight", {e, 2 * ff}, test::kF16);
    w.tensor(b + "post_ffw_norm", {e}, test::kF32);
  }
  return w;
}

TEST(Plamo2, ConfigIsKnownAndLaysOutItsLayers) {
  const Model m = test::from_config(plamo2_1b_config());
  EXPECT_TRUE(m.unchecked_architecture.empty());
  const Attention& at = m.arch.attention;
  EXPECT_EQ(at.kind, AttentionKind::Hybrid);
  // mamba_step 2: layer i is a Mamba mixer unless i % 2 == 1.
  EXPECT_EQ(at.layer_mixers, "RARARARARARARARA");
  EXPECT_EQ(at.attention_layers, 8);
  EXPECT_EQ(at.mamba, 3);
  EXPECT_EQ(at.ssm_inner, 32 * 128);
  EXPECT_EQ(at.ssm_heads, 32);
  EXPECT_EQ(at.ssm_state, 64);
  EXPECT_EQ(at.ssm_conv, 4);
  EXPECT_EQ(at.ssm_groups, 0);
  EXPECT_EQ(m.arch.head_dim, 128);
  EXPECT_EQ(m.arch.kv_heads, 1);
  EXPECT_TRUE(m.arch.tied_embeddings);
  EXPECT_TRUE(at.fused_qkv_norm);
  EXPECT_TRUE(m.arch.fused_gate_up);
  EXPECT_EQ(mlp_layer_count(m.arch), 16);  // an MLP on every layer
}

// The mixer's weights, tensor by tensor as plamo2.cpp creates them for the
// 1B: ssm_in 2048 x 8192, ssm_conv1d 4 x 4096, ssm_x 4096 x (128 + 128),
// ssm_dt 128 x 32 and its bias, A and D (32 each), ssm_out 4096 x 2048.
TEST(Plamo2, MixerWeightsAreTheLoadersTensors) {
  EXPECT_EQ(plamo2_dt_dim(2048), 128);
  EXPECT_EQ(plamo2_dt_dim(512), 64);  // max(64, n_embd / 16)
  EXPECT_EQ(plamo2_mixer_params(2048, 4096, 64, 4, 32),
            std::int64_t{2048} * 8192 + 4 * 4096 + 4096 * 256 + 128 * 32 + 3 * 32 + 4096 * 2048);
}

// PLaMo 2 8B, converted to an all-F32 GGUF in llama.cpp PR #14560 (the
// loader's log in its description: embedding_length-sized type "8B",
// feed_forward_length 16384, 100032 tokens, "file size = 35.50 GiB (32.00
// BPW)"): 35.50 GiB / 4 bytes = 9.53 B weights. llama.cpp names a 32-layer
// PLaMo 2 of n_embd 4096 "8B" (plamo2.cpp load_arch_hparams); the keys the
// log leaves out are conversion/plamo.py's defaults (32 heads, 4 KV heads,
// hidden_size_per_head 128, mamba_num_heads 64, mamba_d_state 64,
// mamba_d_conv 4, mamba_step 2), which PR #14892 aligned with
// modeling_plamo.py's; untied (a tied head would leave 9.12 B).
TEST(Plamo2, CountsThePublishedEightBillionFile) {
  const Model m = test::from_config({{"model_type", "plamo2"},
                                     {"hidden_size", 4096},
                                     {"num_hidden_layers", 32},
                                     {"intermediate_size", 16384},
                                     {"vocab_size", 100032},
                                     {"tie_word_embeddings", false}});
  EXPECT_EQ(m.arch.heads, 32);
  EXPECT_EQ(m.arch.kv_heads, 4);
  EXPECT_EQ(m.arch.attention.ssm_inner, 64 * 128);
  const double file_weights = 35.50 * 1024 * 1024 * 1024 / 4;
  EXPECT_LT(rel(static_cast<double>(count_params(m.arch).total()), file_weights), 0.01)
      << count_params(m.arch).total();
}

// The cache: K and V on the 8 attention layers (one KV head of 128), and per
// sequence on each of the 8 Mamba layers llama.cpp's F32 state
// (llama-hparams.cpp n_embd_r + n_embd_s with ssm_n_group 0): the last 3
// inputs of 4096 channels and 64 x 4096 state values.
TEST(Plamo2, CacheIsAttentionLayersAndMixerState) {
  const Model m = test::from_config(plamo2_1b_config());
  EXPECT_EQ(m.arch.attention.recurrent_state_floats, 3 * 4096 + 64 * 4096);
  EXPECT_EQ(recurrent_state_bytes(m.arch, 1), std::int64_t{8} * (3 * 4096 + 64 * 4096) * 4);
  EXPECT_EQ(kv_cache_bytes(m.arch, {8192, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{8} * 2 * 128 * 2 * 8192 + recurrent_state_bytes(m.arch, 1));
}

TEST(Plamo2, GgufHeaderGivesWhatTheConfigGives) {
  const Model c = test::from_config(plamo2_1b_config());
  for (const bool layers : {true, false}) {
    const Model g = test::from_gguf_header(plamo2_1b_gguf(layers));
    EXPECT_TRUE(g.unchecked_architecture.empty());
    EXPECT_EQ(g.arch.attention.layer_mixers, c.arch.attention.layer_mixers);
    EXPECT_EQ(g.arch.attention.mamba, 3);
    EXPECT_EQ(g.arch.attention.recurrent_state_floats, c.arch.attention.recurrent_state_floats);
    EXPECT_TRUE(g.arch.tied_embeddings);
    test::expect_same_estimate(g, c, "plamo2 GGUF vs config", {2048, 8192});
  }
  // The weights willfit lays out in F16 against the file's tensors: the
  // mixer's are sized as one weight at the base type (its F32 convolution,
  // A, D and bias at 16 bits), a few kilobytes a layer short.
  EXPECT_LT(rel(static_cast<double>(weight_layout(c, *parse_precision("f16")).total()),
                static_cast<double>(plamo2_1b_gguf().data_size())),
            0.001);
}

// pfnet/plamo-13b config.json (the hub is not reachable here), as a public
// Swift port's test transcribes it ("legacyConfigJSON",
// a public Swift test fixture legacyConfigJSON of PLaMo 1 (PlamoForCausalLM, hidden_size 5120,
// intermediate_size 16640, n_shared_head 8, vocab_size 50432)): hidden 5120, intermediate 16640, 40
// heads, 40 layers, n_shared_head 8, vocabulary 50432, 4096 positions, untied. Its
// num_key_value_heads 40 is not what the model does: modeling_plamo.py
// shares K and V across n_shared_head heads (ceil(40 / 8) = 5), and
// conversion/plamo.py writes head_count_kv 5 ("num_key_value_heads is
// wrong").
Json plamo_13b_config() {
  return {{"architectures", {"PlamoForCausalLM"}},
          {"hidden_size", 5120},
          {"intermediate_size", 16640},
          {"max_position_embeddings", 4096},
          {"model_type", "plamo"},
          {"n_shared_head", 8},
          {"num_attention_heads", 40},
          {"num_hidden_layers", 40},
          {"num_key_value_heads", 40},
          {"rms_norm_eps", 0.000001},
          {"tie_word_embeddings", false},
          {"vocab_size", 50432}};
}

// The GGUF conversion/plamo.py PlamoModel writes (context_length 4096,
// head_count_kv 5, no key_length) with the tensors plamo.cpp creates, F16
// matrices and F32 norms; `layers` of them (the live row has 4).
test::GgufWriter plamo_13b_gguf(int layers) {
  const std::string a = "plamo";
  constexpr std::uint64_t e = 5120;
  constexpr std::uint64_t ff = 16640;
  constexpr std::uint64_t vocab = 50432;
  constexpr std::uint64_t kv = 5 * 128;
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".context_length", 4096);
  w.u32(a + ".embedding_length", e);
  w.u32(a + ".feed_forward_length", ff);
  w.u32(a + ".block_count", static_cast<std::uint32_t>(layers));
  w.u32(a + ".attention.head_count", 40);
  w.u32(a + ".attention.head_count_kv", 5);
  w.f32(a + ".attention.layer_norm_rms_epsilon", 1e-6F);
  w.u32("general.file_type", 1);
  w.tensor("token_embd.weight", {e, vocab}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  w.tensor("output.weight", {e, vocab}, test::kF16);
  for (int i = 0; i < layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_q.weight", {e, e}, test::kF16);
    w.tensor(b + "attn_k.weight", {e, kv}, test::kF16);
    w.tensor(b + "attn_v.weight", {e, kv}, test::kF16);
    w.tensor(b + "attn_output.weight", {e, e}, test::kF16);
    w.tensor(b + "ffn_gate.weight", {e, ff}, test::kF16);
    w.tensor(b + "ffn_down.weight", {ff, e}, test::kF16);
    w.tensor(b + "ffn_up.weight", {e, ff}, test::kF16);
  }
  return w;
}

// PFN's announcement gives PLaMo-13B about 13 billion parameters ("約130億",
// tech.preferred.jp/ja/blog/llm-plamo/, linked from mitmul/mlx-plamo's
// README); the shape counts 13.10 B with the untied head.
TEST(Plamo, ConfigIsKnownAndCountsTheCard) {
  const Model m = test::from_config(plamo_13b_config());
  EXPECT_TRUE(m.unchecked_architecture.empty());
  EXPECT_EQ(m.arch.kv_heads, 5);
  EXPECT_EQ(m.arch.head_dim, 128);
  EXPECT_EQ(m.arch.attention.parallel_block, ParallelBlock::Plamo);
  EXPECT_TRUE(m.arch.mlp_gated);
  EXPECT_FALSE(m.arch.tied_embeddings);
  EXPECT_LT(rel(static_cast<double>(count_params(m.arch).total()), 13e9), 0.01)
      << count_params(m.arch).total();
}

// K and V of the 5 shared heads on every layer: at 4096 tokens in F16,
// 40 x 2 x 640 x 2 bytes x 4096 = 800 MiB (the 40 heads of the config's
// num_key_value_heads would be eight times that).
TEST(Plamo, KvCacheIsTheSharedHeads) {
  const Model m = test::from_config(plamo_13b_config());
  EXPECT_EQ(kv_cache_bytes(m.arch, {4096, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{40} * 2 * 640 * 2 * 4096);
}

TEST(Plamo, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = test::from_gguf_header(plamo_13b_gguf(40));
  const Model c = test::from_config(plamo_13b_config());
  EXPECT_TRUE(g.unchecked_architecture.empty());
  EXPECT_EQ(g.arch.attention.parallel_block, ParallelBlock::Plamo);
  test::expect_same_estimate(g, c, "plamo GGUF vs config", {2048, 4096});
  // One norm a layer in the weights (attn_norm): the F16 layout is the
  // converter's tensors byte for byte.
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total(), plamo_13b_gguf(40).data_size());
}

// ---- plamo3 ------------------------------------------------------------------
//
// pfnet/plamo-3-nict-8b-base config.json (the hub is not reachable and no
// transcription of the whole file was found): hidden 4096, MLP 16384, 32
// heads, 4 KV heads, vocabulary 107520, 4096 positions and rms_norm_eps 1e-6
// as a public architecture note lists them for Plamo3ForCausalLM
// (a public JavaScript model-synthesis table (entries such as 'Hybrid Gated DeltaNet & Gated
// Attention' and 'Hyper-Scaled Routing Engine', '512 total experts per MoE layer')); 32 decoder
// layers as a public lens project on this model states (a public Japanese work plan for a PLaMo
// jacobian-lens port (acknowledging anthropics/jacobian-lens and WeZZard/jlens-qwen36): "32層"; a
// public Markdown results note of a PLaMo jacobian-lens project (Regenerating: 'uv run python
// scripts/run_fit.py', checkpoints under data/lens/checkpoints/): "the model's 32 decoder layers");
// the rest Plamo3Config's defaults (sgl-project/sglang python/sglang/srt/configs/plamo3.py at
// 33918d47: head_dim 128, window_size 2048, sliding_window_pattern 8,
// rope_theta 1e6, rope_local_theta 1e4, tie_word_embeddings true). A
// fine-tune of it publishes its count (a public Spanish model note on
// nori-sdc/PLaMo-3-NICT-8B-JP-YUA1-instruct (base pfnet/plamo-3-nict-8b-base): 8,091,348,992
// parameters), which this shape matches to the parameter.
Json plamo3_8b_config() {
  return {{"model_type", "plamo3"},
          {"architectures", {"Plamo3ForCausalLM"}},
          {"hidden_size", 4096},
          {"intermediate_size", 16384},
          {"num_hidden_layers", 32},
          {"num_attention_heads", 32},
          {"num_key_value_heads", 4},
          {"head_dim", 128},
          {"max_position_embeddings", 4096},
          {"window_size", 2048},
          {"sliding_window_pattern", 8},
          {"rope_theta", 1000000},
          {"rope_local_theta", 10000},
          {"rms_norm_eps", 1e-6},
          {"tie_word_embeddings", true},
          {"vocab_size", 107520}};
}

// The GGUF conversion/plamo.py Plamo3Model writes for it (TextModel's keys
// with key_length and value_length from head_dim, vocab_size, the window
// and sliding_window_pattern) and the tensors plamo3.cpp load_arch_tensors
// creates, F16 matrices and F32 vectors, `layers` of them; no output.weight
// (tied).
test::GgufWriter plamo3_8b_gguf(int layers = 32, bool pattern = true) {
  const std::string a = "plamo3";
  constexpr std::uint64_t e = 4096;
  constexpr std::uint64_t ff = 16384;
  constexpr std::uint64_t vocab = 107520;
  constexpr std::uint64_t hd = 128;
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".block_count", static_cast<std::uint32_t>(layers));
  w.u32(a + ".context_length", 4096);
  w.u32(a + ".embedding_length", e);
  w.u32(a + ".feed_forward_length", ff);
  w.u32(a + ".attention.head_count", 32);
  w.u32(a + ".attention.head_count_kv", 4);
  w.u32(a + ".attention.key_length", hd);
  w.u32(a + ".attention.value_length", hd);
  w.f32(a + ".rope.freq_base", 1000000.0F);
  w.f32(a + ".attention.layer_norm_rms_epsilon", 1e-6F);
  w.u32(a + ".vocab_size", vocab);
  w.u32(a + ".attention.sliding_window", 2048);
  if (pattern) {
    w.u32(a + ".attention.sliding_window_pattern", 8);
  }
  w.u32("general.file_type", 1);
  w.tensor("token_embd.weight", {e, vocab}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  for (int i = 0; i < layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_qkv.weight", {e, 32 * hd + 2 * 4 * hd}, test::kF16);
    w.tensor(b + "attn_q_norm.weight", {hd}, test::kF32);
    w.tensor(b + "attn_k_norm.weight", {hd}, test::kF32);
    w.tensor(b + "attn_output.weight", {32 * hd, e}, test::kF16);
    w.tensor(b + "post_attention_norm", {e}, test::kF32);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "post_ffw_norm", {e}, test::kF32);
    w.tensor(b + "ffn_up.weight", {e, 2 * ff}, test::kF16);
    w.tensor(b + "ffn_down.weight", {ff, e}, test::kF16);
  }
  return w;
}

TEST(Plamo3, ConfigIsKnownAndCountsThePublishedModel) {
  const Model m = test::from_config(plamo3_8b_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  const Architecture& a = m.arch;
  EXPECT_TRUE(a.attention.fused_qkv_norm);
  EXPECT_TRUE(a.attention.sandwich_norms);
  EXPECT_TRUE(a.fused_gate_up);
  EXPECT_TRUE(a.tied_embeddings);
  EXPECT_EQ(a.attention.kind, AttentionKind::Sliding);
  EXPECT_EQ(a.attention.sliding_window, 2048);
  // Plamo3Config is_full_attn: (i + 1) % 8 == 0 attends in full, as
  // llama.cpp's set_swa_pattern(8) has it.
  EXPECT_EQ(global_layer_count(a, a.layers), 4);
  EXPECT_TRUE(is_global_layer(a, 7) && is_global_layer(a, 31));
  EXPECT_FALSE(is_global_layer(a, 0) || is_global_layer(a, 8) || is_global_layer(a, 30));
  // willfit's count leaves out the RMS norms: per layer attn_norm,
  // post_attention_norm, ffn_norm and post_ffw_norm of 4096 and the Q and K
  // norms of 128, and the final norm (536,576 in all).
  const ParamBreakdown p = count_params(a);
  EXPECT_EQ(p.total() + 32 * (4 * 4096 + 2 * 128) + 4096, 8'091'348'992);
  EXPECT_LT(rel(static_cast<double>(p.total()), 8'091'348'992.0), 0.01) << p.total();
}

// Without window_size (nor sliding_window) conversion/plamo.py writes no
// window and plamo3.cpp builds no windowed cache: every layer holds the
// context.
TEST(Plamo3, NoWindowWithoutWindowSize) {
  Json j = plamo3_8b_config();
  j.erase("window_size");
  const Model m = test::from_config(j);
  EXPECT_EQ(m.arch.attention.kind, AttentionKind::Full);
}

// llama-kv-cache-iswa.cpp: the 4 global layers hold the context, the 28
// windowed ones min(context, 2048 + a micro-batch of 512) cells padded to
// 256 (2560); 4 KV heads of 128, K and V, F16. At 4096 tokens (the model's
// context) the window saves 28 x 1536 of 32 x 4096 cells.
TEST(Plamo3, KvCacheIsFourGlobalLayersAndTwentyEightWindows) {
  const Model m = test::from_config(plamo3_8b_config());
  const std::int64_t row = std::int64_t{4} * 128 * 2 * 2;
  EXPECT_EQ(test::llama_cpp_q4_estimate(m, 4096, true).memory.kv_cache,
            row * (4 * std::int64_t{4096} + 28 * std::int64_t{2560}));
}

TEST(Plamo3, GgufHeaderGivesWhatTheConfigGives) {
  const Model c = test::from_config(plamo3_8b_config());
  // with the converter's sliding_window_pattern, and without it
  // (plamo3.cpp's period 8 then)
  for (const bool pattern : {true, false}) {
    const Model g = test::from_gguf_header(plamo3_8b_gguf(32, pattern));
    EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
    EXPECT_TRUE(g.arch.attention.sandwich_norms);
    EXPECT_EQ(global_layer_count(g.arch, g.arch.layers), 4) << pattern;
    EXPECT_TRUE(is_global_layer(g.arch, 7) && !is_global_layer(g.arch, 8)) << pattern;
    test::expect_same_estimate(g, c, "plamo3 GGUF vs config", {2048, 4096});
  }
  // The F16 layout is the converter's tensors byte for byte (the post-norms
  // and the two head_dim norms included).
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total(), plamo3_8b_gguf().data_size());
}

// The catalogue's plamo-3-nict-8b (data/models.json) is the config.json
// above: the fused QKV with its Q and K norms, the fused gate and up, the
// norms after the attention and the MLP, the window on seven layers of
// eight; the same weights, cache and compute buffer, and the published
// 8,091,348,992 within 1 % of the count.
TEST(Plamo3, CatalogueEntryIsItsConfig) {
  const Model& cat = test::catalogue_model("plamo-3-nict-8b");
  EXPECT_TRUE(cat.arch.attention.sandwich_norms);
  EXPECT_TRUE(cat.arch.attention.fused_qkv_norm);
  EXPECT_EQ(global_layer_count(cat.arch, cat.arch.layers), 4);
  test::expect_catalogue_is_config("plamo-3-nict-8b", test::from_config(plamo3_8b_config()),
                                   {2048, 4096});
}

}  // namespace
}  // namespace willfit
