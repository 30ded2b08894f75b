// llama.cpp's hybrid architectures of issue 18, first-class: minimax-01
// (MiniMax-Text-01, MiniMax-M1: lightning attention beside softmax
// attention, 32 experts). Each is read from its published config.json and
// from a GGUF header as llama.cpp's converter writes it: both must give one
// estimate, the parameter count must match the card, and the state and KV
// per layer kind must be what llama.cpp allocates. The expected numbers come
// from the configs, the cards and llama.cpp's sources, not from willfit.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/catalogue_model.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/model.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::from_config;
using test::from_gguf_header;
using test::llama_cpp_q4_estimate;
using test::rel;

// Two readings of one hybrid: the same layer order, KV cache, recurrent
// state and compute buffer, none empty, with and without flash attention
// (test::expect_same_estimate).
void expect_same_reading(const Model& a, const Model& b, const std::string& what) {
  EXPECT_EQ(a.arch.attention.kind, b.arch.attention.kind) << what;
  EXPECT_EQ(a.arch.attention.layer_mixers, b.arch.attention.layer_mixers) << what;
  EXPECT_EQ(a.arch.attention.recurrent_state_floats, b.arch.attention.recurrent_state_floats)
      << what;
  EXPECT_EQ(a.arch.attention.recurrent_params, b.arch.attention.recurrent_params) << what;
  EXPECT_EQ(a.arch.attention.lightning, b.arch.attention.lightning) << what;
  const test::EstimateGrid grid{.contexts = {512, 8192},
                                .params = test::EstimateGrid::Params::None};
  for (const auto& p : test::expect_same_estimate(a, b, what, grid)) {
    EXPECT_GT(p.x.memory.kv_cache, 0) << what << " at " << p.context;
    EXPECT_GT(p.x.recurrent_state, 0) << what << " at " << p.context;
    EXPECT_EQ(p.x.recurrent_state, p.y.recurrent_state) << what << " at " << p.context;
    EXPECT_GT(p.x.memory.compute, 0) << what << " at " << p.context;
  }
}

// ---------------------------------------------------------------------------
// MiniMax-M1 (MiniMaxAI/MiniMax-M1-40k and -80k; MiniMax-Text-01 has the same
// text model).
//
// Its config.json (model_type minimax_m1, MiniMaxM1ForCausalLM) as public
// tests transcribe it (code index, a public repository digest quoting the MiniMax-Text-01 README
// (ending 'Distillation threshold (50000 chars) reached. Truncating further files.'); a public
// Python parameter counter (test_deepseek_v3_counting printing 'MiniMax real 456B Total Parameters,
// and predicted parameters'), the whole file; a public unittest of a MiniMax config ('# Total
// params: 456B, activated: 45.9B', test_position_embeddings_limit with 10240000) quotes the same
// values): hidden_size 6144, intermediate_size 9216, num_hidden_layers 80, num_attention_heads 64,
// num_key_value_heads 8, head_dim 128, vocab_size 200064, rope_theta 1e7,
// rotary_dim 64, max_position_embeddings 10240000, rms_norm_eps 1e-5,
// num_local_experts 32, num_experts_per_tok 2, shared_intermediate_size 0,
// attn_type_list 0 (lightning) seven times then 1 (softmax), ten times,
// layernorm_*_alpha 3.5565588200778455, postnorm true,
// tie_word_embeddings false. The card (MiniMax-AI/MiniMax-01
// MiniMax-Text-01-Model-Card.md at 3c6375c2) gives the same 80 layers, 64
// heads of 128, 32 experts of 9216, top-2, hidden 6144, vocabulary 200,064,
// "a softmax attention is positioned after every 7 lightning attention",
// and 456 B parameters, 45.9 B activated per token.
Json minimax_m1_config() {
  Json types = Json::array();
  for (int i = 0; i < 80; ++i) {
    types.push_back((i + 1) % 8 == 0 ? 1 : 0);
  }
  return {{"model_type", "minimax_m1"},
          {"architectures", {"MiniMaxM1ForCausalLM"}},
          {"hidden_size", 6144},
          {"intermediate_size", 9216},
          {"num_hidden_layers", 80},
          {"num_attention_heads", 64},
          {"num_key_value_heads", 8},
          {"head_dim", 128},
          {"vocab_size", 200064},
          {"rope_theta", 10000000},
          {"rotary_dim", 64},
          {"max_position_embeddings", 10240000},
          {"rms_norm_eps", 1e-5},
          {"num_local_experts", 32},
          {"num_experts_per_tok", 2},
          {"shared_intermediate_size", 0},
          {"attn_type_list", types},
          {"layernorm_full_attention_alpha", 3.5565588200778455},
          {"layernorm_linear_attention_alpha", 3.5565588200778455},
          {"layernorm_mlp_alpha", 3.5565588200778455},
          {"postnorm", true},
          {"tie_word_embeddings", false}};
}

// The GGUF llama.cpp's converter writes for it (conversion/minimax.py
// MiniMaxText01Model at 80fb11ac, over base.py's keys): block_count,
// context_length, embedding_length, feed_forward_length (intermediate_size:
// the experts' width), head_count, head_count_kv, key_length and
// value_length (head_dim), rope.freq_base, the RMS epsilon, expert_count
// and expert_used_count; then residual_scale (the alphas) and
// rope.dimension_count (rotary_dim). No per-layer list: minimax-01.cpp
// takes softmax attention on every 8th layer. `interval` writes
// full_attention_interval, which minimax-01.cpp reads when present (the
// reduced live file's). The tensors minimax-01.cpp load_arch_tensors
// creates.
test::GgufWriter minimax01_gguf(int layers, int experts, int interval = 0) {
  const std::string a = "minimax-01";
  const std::uint64_t e = 6144;
  const std::uint64_t d = 64 * 128;
  const std::uint64_t kv = 8 * 128;
  const std::uint64_t ffn = 9216;
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".block_count", static_cast<std::uint32_t>(layers));
  w.u32(a + ".context_length", 10240000);
  w.u32(a + ".embedding_length", 6144);
  w.u32(a + ".feed_forward_length", 9216);
  w.u32(a + ".attention.head_count", 64);
  w.u32(a + ".attention.head_count_kv", 8);
  w.u32(a + ".attention.key_length", 128);
  w.u32(a + ".attention.value_length", 128);
  w.f32(a + ".rope.freq_base", 1e7F);
  w.f32(a + ".attention.layer_norm_rms_epsilon", 1e-5F);
  w.u32(a + ".expert_count", static_cast<std::uint32_t>(experts));
  w.u32(a + ".expert_used_count", 2);
  w.f32(a + ".residual_scale", 3.5565588F);
  w.u32(a + ".rope.dimension_count", 64);
  if (interval > 0) {
    w.u32(a + ".full_attention_interval", static_cast<std::uint32_t>(interval));
  }
  const int every = interval > 0 ? interval : 8;
  const auto n = static_cast<std::uint64_t>(experts);
  w.tensor("token_embd.weight", {e, 200064}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  w.tensor("output.weight", {e, 200064}, test::kF16);
  for (int i = 0; i < layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    if ((i + 1) % every != 0) {
      w.tensor(b + "attn_norm_2.weight", {d}, test::kF32);
      w.tensor(b + "attn_qkv.weight", {e, 3 * d}, test::kF16);
      w.tensor(b + "attn_gate.weight", {e, d}, test::kF16);
    } else {
      w.tensor(b + "attn_q.weight", {e, d}, test::kF16);
      w.tensor(b + "attn_k.weight", {e, kv}, test::kF16);
      w.tensor(b + "attn_v.weight", {e, kv}, test::kF16);
    }
    w.tensor(b + "attn_output.weight", {d, e}, test::kF16);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_gate_inp.weight", {e, n}, test::kF32);
    w.tensor(b + "ffn_gate_exps.weight", {e, ffn, n}, test::kF16);
    w.tensor(b + "ffn_up_exps.weight", {e, ffn, n}, test::kF16);
    w.tensor(b + "ffn_down_exps.weight", {ffn, e, n}, test::kF16);
  }
  return w;
}

TEST(MiniMax01, ConfigReadsLightningAttentionBesideSoftmax) {
  const Model m = from_config(minimax_m1_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  const Attention& at = m.arch.attention;
  EXPECT_EQ(at.kind, AttentionKind::Hybrid);
  EXPECT_TRUE(at.lightning);
  EXPECT_EQ(at.attention_layers, 10);
  EXPECT_EQ(at.recurrent_layers, 70);
  ASSERT_EQ(at.layer_mixers.size(), 80U);
  EXPECT_EQ(at.layer_mixers.substr(0, 16), "RRRRRRRARRRRRRRA");
  // llama-hparams.cpp n_embd_s for n_embd_head_la: 128 * 128 * 64 (its own
  // comment: 1048576), no convolution state (n_embd_r 0).
  EXPECT_EQ(at.recurrent_state_floats, 1048576);
  ASSERT_TRUE(m.arch.moe.has_value());
  EXPECT_EQ(m.arch.moe->experts, 32);
  EXPECT_EQ(m.arch.moe->experts_per_token, 2);
  EXPECT_EQ(m.arch.moe->expert_intermediate_size, 9216);
  EXPECT_EQ(m.arch.moe->shared_experts, 0);
  EXPECT_EQ(m.arch.kv_heads, 8);
  EXPECT_FALSE(m.arch.tied_embeddings);
}

TEST(MiniMax01, ParamsMatchTheCard) {
  const Model m = from_config(minimax_m1_config());
  const ParamBreakdown p = count_params(m.arch);
  // 456 B total (card); 45.9 B activated, which the card counts without the
  // token embeddings and the output head (with them: 48.4 B).
  EXPECT_LT(rel(static_cast<double>(p.total()), 456e9), 0.01) << p.total();
  EXPECT_LT(rel(static_cast<double>(p.active() - p.embedding - p.output), 45.9e9), 0.01)
      << p.active();
}

TEST(MiniMax01, StateAndCachePerLayerKind) {
  const Model m = from_config(minimax_m1_config());
  // One sequence: 70 lightning layers of 64 x 128 x 128 F32 values
  // (llama-memory-recurrent.cpp: s_l of n_embd_s, type_s F32; r_l of 0).
  EXPECT_EQ(recurrent_state_bytes(m.arch, 1), std::int64_t{70} * 64 * 128 * 128 * 4);
  // The 10 softmax layers cache K and V of 8 heads of 128 (F16) per token;
  // the memory's kv_cache term holds the state too.
  const Estimate e = llama_cpp_q4_estimate(m, 4096, true);
  EXPECT_EQ(e.recurrent_state, std::int64_t{70} * 64 * 128 * 128 * 4);
  EXPECT_EQ(e.memory.kv_cache - e.recurrent_state, std::int64_t{10} * 2 * 8 * 128 * 2 * 4096);
}

TEST(MiniMax01, ConfigAndGgufGiveOneEstimate) {
  const Model c = from_config(minimax_m1_config());
  const Model g = from_gguf_header(minimax01_gguf(80, 32));
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_EQ(g.arch.attention.kind, AttentionKind::Hybrid);
  EXPECT_EQ(g.arch.attention.attention_layers, 10);
  expect_same_reading(c, g, "MiniMax-M1");
  // The converter's tensors, counted from the file, against the card.
  const ParamBreakdown p = count_params(g.arch);
  EXPECT_LT(rel(static_cast<double>(p.total()), 456e9), 0.01) << p.total();
}

// The catalogue's MiniMax-M1 and MiniMax-Text-01 (the text model M1
// continues: its card's shape and counts) are the M1 config.json: the
// lightning layers, the softmax layers' cache, the compute buffer.
TEST(MiniMax01, CatalogueEntriesAreTheConfig) {
  const Model c = from_config(minimax_m1_config());
  for (const char* id : {"minimax-m1", "minimax-text-01"}) {
    const Model& cat = test::catalogue_model(id);
    EXPECT_EQ(cat.arch.attention.layer_mixers, c.arch.attention.layer_mixers) << id;
    expect_same_reading(cat, c, id);
    EXPECT_EQ(cat.params, 456000000000) << id;
    EXPECT_EQ(cat.active_params, 45900000000) << id;
  }
}

// A file that says full_attention_interval (minimax-01.cpp reads it) puts
// its softmax layers there: the reduced live file's 3 layers, R R A.
TEST(MiniMax01, GgufIntervalKeyPlacesTheSoftmaxLayers) {
  const Model g = from_gguf_header(minimax01_gguf(3, 16, 3));
  EXPECT_EQ(g.arch.attention.kind, AttentionKind::Hybrid);
  EXPECT_EQ(g.arch.attention.layer_mixers, "RRA");
  EXPECT_EQ(recurrent_layer_count(g.arch), 2);
  EXPECT_EQ(attention_layer_count(g.arch), 1);
}

}  // namespace
}  // namespace willfit
