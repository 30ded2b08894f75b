// The architecture kinds of issue 18, one test per term: chunked local
// attention, hybrid recurrent layers (gated delta net, Mamba-2 serial and
// parallel, short convolutions), interleaved and shared-expert MoE, MTP
// blocks, the DeepSeek-V3.2 indexer cache, Gemma 3n per-layer embeddings and
// shared KV, Kimi Delta Attention beside MLA (Kimi Linear, K3), the
// multimodal projector, and DeepSeek-V4's compressed attention.
//
// The configs are the models' published config.json values (each test names
// the repository); the published totals they are checked against come from
// the model cards. Expected KV and state sizes are worked out by hand in the
// test from llama.cpp's layouts (llama-hparams.cpp n_embd_r / n_embd_s,
// llama-kv-cache-iswa.cpp), not taken from the code under test.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sources/embedded_data.hpp"
#include "unit/catalogue_model.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/devices/device.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/inference/runtime_architectures.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/hf_config.hpp"
#include "willfit/models/model_db.hpp"
#include "willfit/models/safetensors.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;

using test::from_config;
using test::from_gguf;
using test::rel;

// meta-llama/Llama-4-Scout-17B-16E-Instruct config.json, text_config (also
// in unsloth/Llama-4-Scout-17B-16E): 48 layers, 16 experts + 1 shared, MoE
// on every layer, 8192-token chunks, every fourth layer global (no_rope).
Json llama4_scout() {
  Json t = {{"model_type", "llama4_text"},
            {"hidden_size", 5120},
            {"num_hidden_layers", 48},
            {"num_attention_heads", 40},
            {"num_key_value_heads", 8},
            {"head_dim", 128},
            {"intermediate_size", 8192},
            {"intermediate_size_mlp", 16384},
            {"num_local_experts", 16},
            {"num_experts_per_tok", 1},
            {"interleave_moe_layer_step", 1},
            {"vocab_size", 202048},
            {"max_position_embeddings", 10485760},
            {"attention_chunk_size", 8192},
            {"tie_word_embeddings", false}};
  Json no_rope = Json::array();
  for (int i = 0; i < 48; ++i) {
    no_rope.push_back((i + 1) % 4 == 0 ? 0 : 1);
  }
  t["no_rope_layers"] = no_rope;
  return {{"model_type", "llama4"}, {"text_config", t}, {"torch_dtype", "bfloat16"}};
}

TEST(ChunkedAttention, Llama4ChunksThreeLayersOfFour) {
  const Model m = from_config(llama4_scout());
  ASSERT_EQ(m.arch.attention.kind, AttentionKind::Sliding);
  EXPECT_TRUE(m.arch.attention.chunked);
  EXPECT_EQ(m.arch.attention.sliding_window, 8192);
  EXPECT_EQ(m.arch.attention.sliding_pattern, 4);
  // 1M tokens: 12 global layers hold every token; 36 chunked layers hold
  // 8192 + 512 (ubatch) cells, as llama.cpp's SWA cache does.
  const std::int64_t ctx = 1 << 20;
  const std::int64_t per_token_layer = 2 * 8 * 128 * 2;  // K and V, F16
  const Bytes want = 12 * per_token_layer * ctx + 36 * per_token_layer * (8192 + 512);
  EXPECT_EQ(kv_cache_bytes(m.arch, {ctx, 1, 512, kv_f16(), kv_f16(), 256}), want);
  // Sized as full attention it would be four times larger.
  EXPECT_LT(want * 3, std::int64_t{48} * per_token_layer * ctx);
}

TEST(ChunkedAttention, ScoutCountsItsPublishedSize) {
  // Model card: 17B active, 109B total, the vision tower (about 0.8 B, not
  // in this text_config) included: the text part is about 108 B.
  const Model m = from_config(llama4_scout());
  EXPECT_EQ(m.arch.moe->shared_experts, 1);
  EXPECT_EQ(m.arch.intermediate_size, 16384);
  EXPECT_EQ(m.arch.moe->expert_intermediate_size, 8192);
  EXPECT_LT(rel(static_cast<double>(count_params(m.arch).total()), 108e9), 0.015);
  EXPECT_LT(rel(static_cast<double>(count_params(m.arch).active()), 17e9), 0.02);
}

TEST(InterleavedMoe, MaverickRoutesEverySecondLayer) {
  // meta-llama/Llama-4-Maverick-17B-128E-Instruct: 128 experts, MoE on
  // every second layer (interleave_moe_layer_step 2), dense MLP of 16384
  // on the others. Model card: 17B active, 400B total.
  Json j = llama4_scout();
  j["text_config"]["num_local_experts"] = 128;
  j["text_config"]["interleave_moe_layer_step"] = 2;
  const Model m = from_config(j);
  EXPECT_EQ(m.arch.moe->layer_step, 2);
  EXPECT_EQ(moe_layer_count(m.arch), 24);
  EXPECT_FALSE(layer_roles(m.arch, 0).moe);
  EXPECT_TRUE(layer_roles(m.arch, 1).moe);
  EXPECT_LT(rel(static_cast<double>(count_params(m.arch).total()), 400e9), 0.01);
  EXPECT_LT(rel(static_cast<double>(count_params(m.arch).active()), 17e9), 0.02);
}

// Qwen/Qwen3-Coder-Next config.json (the Qwen3-Next-80B-A3B architecture):
// 48 layers, one full-attention layer in four, gated delta nets between;
// 512 experts of 512, 10 per token, one shared expert of 512.
Json qwen3_next() {
  Json layer_types = Json::array();
  for (int i = 0; i < 48; ++i) {
    layer_types.push_back((i + 1) % 4 == 0 ? "full_attention" : "linear_attention");
  }
  return {{"model_type", "qwen3_next"},
          {"hidden_size", 2048},
          {"num_hidden_layers", 48},
          {"vocab_size", 151936},
          {"head_dim", 256},
          {"num_attention_heads", 16},
          {"num_key_value_heads", 2},
          {"intermediate_size", 5120},
          {"num_experts", 512},
          {"num_experts_per_tok", 10},
          {"moe_intermediate_size", 512},
          {"shared_expert_intermediate_size", 512},
          {"linear_num_key_heads", 16},
          {"linear_key_head_dim", 128},
          {"linear_num_value_heads", 32},
          {"linear_value_head_dim", 128},
          {"linear_conv_kernel_dim", 4},
          {"full_attention_interval", 4},
          {"layer_types", layer_types},
          {"max_position_embeddings", 262144},
          {"tie_word_embeddings", false}};
}

TEST(HybridLinearAttention, GatedDeltaNetStateAndKvOnAttentionLayersOnly) {
  const Model m = from_config(qwen3_next());
  ASSERT_EQ(m.arch.attention.kind, AttentionKind::Hybrid);
  EXPECT_EQ(attention_layer_count(m.arch), 12);
  EXPECT_EQ(recurrent_layer_count(m.arch), 36);
  // llama.cpp: conv (4 - 1) x (2 x 16 x 128 + 32 x 128) + SSM 128 x 32 x 128, F32.
  const std::int64_t state = 3 * (2 * 16 * 128 + 32 * 128) + 128 * 32 * 128;
  EXPECT_EQ(m.arch.attention.recurrent_state_floats, state);
  const std::int64_t ctx = 262144;
  const Bytes kv = 12 * std::int64_t{2} * 2 * 256 * 2 * ctx;
  EXPECT_EQ(kv_cache_bytes(m.arch, {ctx, 1, 512, kv_f16(), kv_f16(), 256}), kv + 36 * state * 4);
  // Two sequences: the state doubles, it does not grow with the context.
  EXPECT_EQ(recurrent_state_bytes(m.arch, 2), 2 * 36 * state * 4);
}

TEST(HybridLinearAttention, CountsThePublishedSize) {
  // Qwen3-Coder-Next safetensors total: 79,674,391,296 parameters.
  const Model m = from_config(qwen3_next());
  EXPECT_LT(rel(static_cast<double>(m.params), 79674391296.0), 0.01);
  EXPECT_EQ(m.arch.moe->shared_experts, 1);
}

// nvidia/NVIDIA-Nemotron-Nano-9B-v2 config.json: 56 layers, each a Mamba-2
// mixer (M), attention (*) or a squared-ReLU MLP (-).
Json nemotron_h() {
  return {{"model_type", "nemotron_h"},
          {"num_hidden_layers", 56},
          {"hidden_size", 4480},
          {"intermediate_size", 15680},
          {"num_attention_heads", 40},
          {"num_key_value_heads", 8},
          {"head_dim", 128},
          {"vocab_size", 131072},
          {"hybrid_override_pattern", "M-M-M-MM-M-M-M*-M-M-M*-M-M-M-M*-M-M-M-M*-M-MM-M-M-M-M-M-"},
          {"ssm_state_size", 128},
          {"conv_kernel", 4},
          {"n_groups", 8},
          {"mamba_num_heads", 128},
          {"mamba_head_dim", 80},
          {"max_position_embeddings", 131072},
          {"tie_word_embeddings", false}};
}

// NVIDIA-Nemotron-Nano-12B-v2: NVIDIA-NeMo/Megatron-Bridge
// nemotron_h_provider.py at commit d9f7643b (NemotronNanoModelProvider12Bv2),
// in config.json's spelling; the 9B-v2's vocabulary.
Json nemotron_nano_12b() {
  Json j = nemotron_h();
  j["num_hidden_layers"] = 62;
  j["hidden_size"] = 5120;
  j["intermediate_size"] = 20480;
  j["hybrid_override_pattern"] = "M-M-M-M*-M-M-M-M*-M-M-M-M*-M-M-M-M*-M-M-M-M*-M-M-M-M*-M-M-M-M-";
  return j;
}

TEST(HybridMamba, NemotronNano12bMatchesItsCardsLayersAndCount) {
  const Model m = from_config(nemotron_nano_12b());
  // The card: 62 layers, 28 Mamba-2, 28 MLP, 6 attention; 12.31B parameters.
  EXPECT_EQ(attention_layer_count(m.arch), 6);
  EXPECT_EQ(recurrent_layer_count(m.arch), 28);
  EXPECT_EQ(mlp_layer_count(m.arch), 28);
  EXPECT_LT(rel(static_cast<double>(m.params), 12.31e9), 0.005);
}

TEST(HybridMamba, NemotronHLayersAreMixerOrMlp) {
  const Model m = from_config(nemotron_h());
  EXPECT_EQ(attention_layer_count(m.arch), 4);
  EXPECT_EQ(recurrent_layer_count(m.arch), 27);
  EXPECT_EQ(mlp_layer_count(m.arch), 25);
  EXPECT_FALSE(m.arch.mlp_gated);
  // Mamba-2: d_inner = 128 x 80 = 10240; conv over d_inner + 2 x 8 x 128.
  const std::int64_t state = 3 * (10240 + 2 * 8 * 128) + 128 * 10240;
  EXPECT_EQ(m.arch.attention.recurrent_state_floats, state);
  // Model card: 8.89 B parameters.
  EXPECT_LT(rel(static_cast<double>(m.params), 8.89e9), 0.01);
}

// Each block of Nemotron-H has one role, so its weights are laid out block
// by block as the layer order says: 27 mixers, 4 attention blocks, 25 MLPs
// (the layout once gave every non-attention block a mixer and spread the
// MLPs: 52 mixers, 12.6 B parameters' worth, +41 % by name). Against the
// live run's F16 file (tests/live/make_gguf nemotron-nano-9b-v2, 2026-12-02,
// docs/live-llamacpp.md): llama.cpp's 'CPU_Mapped model buffer size' was
// 17,780,860,518 bytes.
TEST(HybridMamba, NemotronHWeightsAreLaidOutBlockByBlock) {
  auto db = ModelDb::parse(app::embedded_models_json(), "embedded");
  ASSERT_TRUE(db.ok());
  auto found = db->find("nemotron-nano-9b-v2");
  ASSERT_TRUE(found.ok());
  const Model& cat = found->entry->model;
  int mixers = 0;
  int attention = 0;
  int mlps = 0;
  for (int i = 0; i < cat.arch.layers; ++i) {
    const LayerRoles r = layer_roles(cat.arch, i);
    const char kind = cat.arch.attention.layer_mixers[static_cast<std::size_t>(i)];
    EXPECT_EQ(r.recurrent, kind == 'R') << i;
    EXPECT_EQ(r.attention, kind == 'A') << i;
    EXPECT_EQ(r.mlp, kind == 'F') << i;
    mixers += r.recurrent ? 1 : 0;
    attention += r.attention ? 1 : 0;
    mlps += r.mlp ? 1 : 0;
  }
  EXPECT_EQ(mixers, 27);
  EXPECT_EQ(attention, 4);
  EXPECT_EQ(mlps, 25);
  const Bytes f16 = weight_layout(cat, *parse_precision("f16")).total();
  EXPECT_LT(rel(static_cast<double>(f16), 17780860518.0), 0.001) << f16;
  // The same from its config.json.
  const Model c = from_config(nemotron_h());
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total(), f16);
}

// ibm-granite/granite-4.0-h-small config.json: 40 layers, 36 Mamba-2 and 4
// attention, every layer an MoE of 72 experts of 768 (10 per token) with a
// shared MLP of 1536.
Json granite4_h_small() {
  Json types = Json::array();
  for (int i = 0; i < 40; ++i) {
    types.push_back(i % 10 == 5 ? "attention" : "mamba");
  }
  return {{"model_type", "granitemoehybrid"},
          {"hidden_size", 4096},
          {"num_hidden_layers", 40},
          {"num_attention_heads", 32},
          {"num_key_value_heads", 8},
          {"num_local_experts", 72},
          {"num_experts_per_tok", 10},
          {"shared_intermediate_size", 1536},
          {"intermediate_size", 768},
          {"mamba_d_state", 128},
          {"mamba_d_conv", 4},
          {"mamba_expand", 2},
          {"mamba_n_heads", 128},
          {"mamba_d_head", 64},
          {"mamba_n_groups", 1},
          {"layer_types", types},
          {"vocab_size", 100352},
          {"max_position_embeddings", 131072},
          {"tie_word_embeddings", true}};
}

TEST(HybridMamba, Granite4SharedMlpAndExperts) {
  const Model m = from_config(granite4_h_small());
  EXPECT_EQ(attention_layer_count(m.arch), 4);
  EXPECT_EQ(m.arch.moe->expert_intermediate_size, 768);
  EXPECT_EQ(m.arch.moe->shared_experts, 2);  // one shared MLP twice an expert's width
  // Model card: 32.2 B total, 9 B active.
  EXPECT_LT(rel(static_cast<double>(m.params), 32.2e9), 0.01);
  EXPECT_EQ(m.arch.attention.recurrent_state_floats, 3 * (8192 + 2 * 128) + 128 * 8192);
}

// ai21labs/AI21-Jamba-1.5-Mini config.json: attention where i % 8 == 4,
// Mamba (v1) elsewhere; 16 experts on every second layer (offset 1).
Json jamba_mini() {
  return {{"model_type", "jamba"},       {"attn_layer_offset", 4},
          {"attn_layer_period", 8},      {"expert_layer_offset", 1},
          {"expert_layer_period", 2},    {"hidden_size", 4096},
          {"intermediate_size", 14336},  {"mamba_d_conv", 4},
          {"mamba_d_state", 16},         {"mamba_dt_rank", 256},
          {"mamba_expand", 2},           {"num_attention_heads", 32},
          {"num_experts", 16},           {"num_experts_per_tok", 2},
          {"num_hidden_layers", 32},     {"num_key_value_heads", 8},
          {"vocab_size", 65536},         {"max_position_embeddings", 262144},
          {"tie_word_embeddings", false}};
}

TEST(HybridMamba, JambaPeriodsAndMamba1State) {
  const Model m = from_config(jamba_mini());
  EXPECT_EQ(attention_layer_count(m.arch), 4);
  EXPECT_EQ(moe_layer_count(m.arch), 16);
  EXPECT_TRUE(layer_roles(m.arch, 1).moe);
  EXPECT_FALSE(layer_roles(m.arch, 0).moe);
  // Mamba: conv (4 - 1) x 8192 + SSM 16 x 8192 (llama.cpp, n_group 0).
  EXPECT_EQ(m.arch.attention.recurrent_state_floats, 3 * 8192 + 16 * 8192);
  // Model card: 52 B total, 12 B active.
  EXPECT_LT(rel(static_cast<double>(m.params), 52e9), 0.01);
  EXPECT_LT(rel(static_cast<double>(m.active_params), 12e9), 0.02);
}

// Under transformers Jamba's HybridMambaAttentionDynamicCache
// (src/transformers/models/jamba/modeling_jamba.py at 008f5c8c) gives each
// Mamba layer torch.zeros(batch, intermediate_size, conv_kernel_size, dtype)
// and (batch, intermediate_size, ssm_state_size, dtype): every tap, in the
// model's dtype. By hand, BF16, 4096 tokens, one sequence: 4 attention
// layers x 2 (K and V) x 8 KV heads x 128 x 2 bytes x 4096 = 67108864, and
// 28 Mamba layers x (4 + 16) x 8192 x 2 bytes = 9175040: 76283904 bytes.
TEST(HybridMamba, JambaUnderTransformersKeepsEveryConvolutionTap) {
  const Model m = from_config(jamba_mini());
  // Exact tokens (pad 1), 16-bit state (transformers' KvCacheQuery in pytorch()).
  const KvCacheQuery bf16{4096, 1, 0, kv_f16(), kv_f16(), 1, false, 2};
  EXPECT_EQ(kv_cache_bytes(transformers_cache_layout(m.arch), bf16), 76283904);
}

TEST(HybridMamba, FalconH1RunsBothMixersInEveryLayer) {
  // tiiuae/Falcon-H1-1.5B-Deep-style config (values of the Falcon-H1 1.5B
  // config.json): attention and Mamba-2 side by side in all 24 layers.
  const Json j = {
      {"model_type", "falcon_h1"}, {"num_hidden_layers", 24},  {"hidden_size", 2048},
      {"intermediate_size", 4608}, {"num_attention_heads", 8}, {"num_key_value_heads", 2},
      {"head_dim", 128},           {"vocab_size", 65537},      {"mamba_d_state", 256},
      {"mamba_d_conv", 4},         {"mamba_n_groups", 1},      {"mamba_n_heads", 48},
      {"mamba_d_head", 64},        {"mamba_d_ssm", 3072}};
  const Model m = from_config(j);
  EXPECT_EQ(attention_layer_count(m.arch), 24);
  EXPECT_EQ(recurrent_layer_count(m.arch), 24);
  EXPECT_TRUE(layer_roles(m.arch, 5).attention && layer_roles(m.arch, 5).recurrent);
  const std::int64_t state = 3 * (3072 + 2 * 256) + 256 * 3072;
  const Bytes kv = 24 * std::int64_t{2} * 2 * 128 * 2 * 4096;
  EXPECT_EQ(kv_cache_bytes(m.arch, {4096, 1, 512, kv_f16(), kv_f16(), 256}), kv + 24 * state * 4);
}

TEST(HybridShortConv, Lfm2FromConfigAndGgufAgree) {
  // LiquidAI/LFM2-1.2B config.json: 16 layers, attention on 6 of them, the
  // rest gated short convolutions of 3 taps; llama.cpp keeps the last 2
  // inputs of the hidden width per conv layer (n_embd_r).
  Json types = Json::array();
  const std::vector<int> attention = {2, 5, 8, 10, 12, 14};
  std::vector<std::uint32_t> kv_heads;
  for (int i = 0; i < 16; ++i) {
    const bool a = std::find(attention.begin(), attention.end(), i) != attention.end();
    types.push_back(a ? "full_attention" : "conv");
    kv_heads.push_back(a ? 8 : 0);
  }
  const Model c = from_config({{"model_type", "lfm2"},
                               {"num_hidden_layers", 16},
                               {"hidden_size", 2048},
                               // stated before SwiGLU's 2/3: 12288 -> 8192
                               {"intermediate_size", 12288},
                               {"block_auto_adjust_ff_dim", true},
                               {"block_ffn_dim_multiplier", 1.0},
                               {"block_multiple_of", 256},
                               {"num_attention_heads", 32},
                               {"num_key_value_heads", 8},
                               {"vocab_size", 65536},
                               {"conv_L_cache", 3},
                               {"layer_types", types},
                               {"tie_word_embeddings", true}});
  EXPECT_EQ(attention_layer_count(c.arch), 6);
  EXPECT_EQ(c.arch.intermediate_size, 8192);
  EXPECT_EQ(c.arch.attention.recurrent_state_floats, 2 * 2048);
  // Model card: 1.17 B parameters.
  EXPECT_LT(rel(static_cast<double>(c.params), 1.17e9), 0.01);

  test::GgufWriter w;
  w.str("general.architecture", "lfm2");
  w.u32("lfm2.block_count", 16);
  w.u32("lfm2.embedding_length", 2048);
  w.u32("lfm2.feed_forward_length", 8192);
  w.u32("lfm2.attention.head_count", 32);
  w.u32_array("lfm2.attention.head_count_kv", kv_heads);
  w.u32("lfm2.shortconv.l_cache", 3);
  w.u32("lfm2.vocab_size", 65536);
  w.tensor("token_embd.weight", {2048, 65536}, test::kQ8_0);
  const Model g = from_gguf(w);
  const KvCacheQuery q{32768, 1, 512, kv_f16(), kv_f16(), 256};
  EXPECT_EQ(kv_cache_bytes(g.arch, q), kv_cache_bytes(c.arch, q));
  EXPECT_EQ(kv_cache_bytes(c.arch, q),
            6 * std::int64_t{2} * 8 * 64 * 2 * 32768 + 10 * 2 * 2048 * 4);
}

// ---------------------------------------------------------------------------
// The hybrid families the catalogue gained in cat4: each config.json (real
// values, sourced in data/models.json) against a GGUF header of the same
// model written here with llama.cpp's keys, and against the catalogue entry.

// Writes ARCH.KEY = value for each pair, as llama.cpp's converter names them.
void u32_keys(test::GgufWriter& w, const std::string& arch,
              std::initializer_list<std::pair<const char*, std::uint32_t>> keys) {
  for (const auto& [k, v] : keys) {
    w.u32(arch + "." + k, v);
  }
}

// Nemotron-H-8B's config.json, as NVIDIA-NeMo/Megatron-Bridge quotes it
// (tests/unit_tests/models/nemotronh/test_nemotron_h_bridge.py at 03c781b8,
// nemotronh_8b_config_dict).
Json nemotron_h_8b() {
  return {{"model_type", "nemotron_h"},
          {"num_hidden_layers", 52},
          {"hidden_size", 4096},
          {"intermediate_size", 21504},
          {"num_attention_heads", 32},
          {"num_key_value_heads", 8},
          {"attention_head_dim", 128},
          {"vocab_size", 131072},
          {"hybrid_override_pattern", "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-"},
          {"ssm_state_size", 128},
          {"conv_kernel", 4},
          {"n_groups", 8},
          {"mamba_num_heads", 128},
          {"mamba_head_dim", 64},
          {"max_position_embeddings", 8192},
          {"tie_word_embeddings", false},
          {"torch_dtype", "bfloat16"}};
}

TEST(HybridMamba, NemotronH8bConfigAndGgufAgree) {
  const Model c = from_config(nemotron_h_8b());
  EXPECT_EQ(attention_layer_count(c.arch), 4);
  EXPECT_EQ(recurrent_layer_count(c.arch), 24);
  EXPECT_EQ(mlp_layer_count(c.arch), 24);
  // Mamba-2 of 128 heads of 64 (d_inner 8192), 8 groups of 128.
  EXPECT_EQ(c.arch.attention.recurrent_state_floats, 3 * (8192 + 2 * 8 * 128) + 128 * 8192);

  // llama.cpp's nemotron_h GGUF: KV heads and the MLP width per layer, 0
  // where the layer has none; a layer with neither is a Mamba-2 mixer.
  const Json config = nemotron_h_8b();
  const std::string pattern = config["hybrid_override_pattern"];
  std::vector<std::uint32_t> kv_heads;
  std::vector<std::uint32_t> ff;
  for (const char layer : pattern) {
    kv_heads.push_back(layer == '*' ? 8 : 0);
    ff.push_back(layer == '-' ? 21504 : 0);
  }
  test::GgufWriter w;
  w.str("general.architecture", "nemotron_h");
  u32_keys(w, "nemotron_h",
           {{"block_count", 52}, {"embedding_length", 4096}, {"attention.head_count", 32}});
  w.u32_array("nemotron_h.attention.head_count_kv", kv_heads);
  w.u32_array("nemotron_h.feed_forward_length", ff);
  u32_keys(w, "nemotron_h",
           {{"context_length", 8192},
            {"ssm.conv_kernel", 4},
            {"ssm.inner_size", 8192},
            {"ssm.state_size", 128},
            {"ssm.group_count", 8},
            {"ssm.time_step_rank", 128},
            {"vocab_size", 131072}});
  w.tensor("token_embd.weight", {4096, 131072}, test::kQ8_0);
  w.tensor("output.weight", {4096, 131072}, test::kQ8_0);
  const Model g = from_gguf(w);
  EXPECT_EQ(attention_layer_count(g.arch), 4);
  EXPECT_EQ(recurrent_layer_count(g.arch), 24);  // not 48: MLP-only layers hold no state
  EXPECT_EQ(mlp_layer_count(g.arch), 24);
  EXPECT_EQ(g.arch.intermediate_size, 21504);
  for (const std::int64_t ctx : {std::int64_t{8192}, std::int64_t{131072}}) {
    const KvCacheQuery q{ctx, 1, 512, kv_f16(), kv_f16(), 256};
    EXPECT_EQ(kv_cache_bytes(g.arch, q), kv_cache_bytes(c.arch, q));
    // By hand: 4 layers x 2 x 8 x 128 x 2 bytes per token, 24 states of F32.
    EXPECT_EQ(kv_cache_bytes(c.arch, q), 4 * std::int64_t{2} * 8 * 128 * 2 * ctx +
                                             24 * c.arch.attention.recurrent_state_floats * 4);
  }
}

// tiiuae/Falcon-H1-0.5B's config.json as NVIDIA-NeMo/Megatron-Bridge quotes it
// (tests/unit_tests/models/falcon_h1/test_falcon_h1_bridge.py at ebd91e97,
// FALCON_H1_500M_CONFIG).
Json falcon_h1_05b() {
  return {{"model_type", "falcon_h1"},
          {"num_hidden_layers", 36},
          {"hidden_size", 1024},
          {"intermediate_size", 2048},
          {"num_attention_heads", 8},
          {"num_key_value_heads", 2},
          {"head_dim", 64},
          {"vocab_size", 32784},
          {"tie_word_embeddings", false},
          {"mamba_d_state", 128},
          {"mamba_d_conv", 4},
          {"mamba_expand", 2},
          {"mamba_n_groups", 1},
          {"mamba_n_heads", 24},
          {"mamba_d_head", 64},
          {"max_position_embeddings", 16384}};
}

// tiiuae/Falcon-H1-34B-Instruct's config.json, the hub's raw file as
// Sahil170595/Chimeraforge keeps it (tests/fixtures/hybrid_configs/
// tiiuae_Falcon-H1-34B-Instruct.json at 01db3697): two Mamba groups and four
// KV heads, unlike the smaller sizes.
Json falcon_h1_34b() {
  return {{"model_type", "falcon_h1"},
          {"num_hidden_layers", 72},
          {"hidden_size", 5120},
          {"intermediate_size", 21504},
          {"num_attention_heads", 20},
          {"num_key_value_heads", 4},
          {"head_dim", 128},
          {"vocab_size", 261120},
          {"tie_word_embeddings", false},
          {"mamba_d_state", 256},
          {"mamba_d_conv", 4},
          {"mamba_d_ssm", 4096},
          {"mamba_expand", 2},
          {"mamba_n_groups", 2},
          {"mamba_n_heads", 32},
          {"mamba_d_head", 128},
          {"max_position_embeddings", 262144}};
}

TEST(HybridMamba, FalconH1_34bCountsItsSafetensorsTotal) {
  // BudEcosystem/simulator's test_hybrid_parameter_count.py (0b168b5f): the
  // checkpoint's safetensors total_size / 2 is 33.643 B. The count leaves
  // out norms, D, A, dt and conv biases (about 1.9 M here).
  const Model m = from_config(falcon_h1_34b());
  EXPECT_LT(rel(static_cast<double>(count_params(m.arch).total()), 33.643e9), 0.001);
  // By hand: conv (4 - 1) x (4096 + 2 x 2 x 256) + SSM 256 x 4096 per layer.
  EXPECT_EQ(m.arch.attention.recurrent_state_floats, 3 * (4096 + 4 * 256) + 256 * 4096);
  EXPECT_EQ(attention_layer_count(m.arch), 72);
  EXPECT_EQ(recurrent_layer_count(m.arch), 72);
}

TEST(HybridMamba, FalconH1GgufKeepsKvAndStateOnEveryLayer) {
  // The 0.5B's config.json and the falcon-h1 GGUF llama.cpp's converter
  // writes for it: one KV head count for all layers, ssm.* keys.
  const Model c = from_config(falcon_h1_05b());
  test::GgufWriter w;
  w.str("general.architecture", "falcon-h1");
  u32_keys(w, "falcon-h1",
           {{"block_count", 36},
            {"embedding_length", 1024},
            {"feed_forward_length", 2048},
            {"attention.head_count", 8},
            {"attention.head_count_kv", 2},
            {"attention.key_length", 64},
            {"ssm.conv_kernel", 4},
            {"ssm.inner_size", 1536},
            {"ssm.state_size", 128},
            {"ssm.group_count", 1},
            {"ssm.time_step_rank", 24},
            {"vocab_size", 32784},
            {"context_length", 16384}});
  w.tensor("token_embd.weight", {1024, 32784}, test::kQ8_0);
  w.tensor("output.weight", {1024, 32784}, test::kQ8_0);
  const Model g = from_gguf(w);
  EXPECT_EQ(attention_layer_count(g.arch), 36);
  EXPECT_EQ(recurrent_layer_count(g.arch), 36);
  const KvCacheQuery q{16384, 1, 512, kv_f16(), kv_f16(), 256};
  EXPECT_EQ(kv_cache_bytes(g.arch, q), kv_cache_bytes(c.arch, q));
  // By hand: KV on all 36 layers, and a Mamba-2 state of 24 heads of 64 on
  // all 36: conv (4 - 1) x (1536 + 2 x 128), SSM 128 x 1536, F32.
  EXPECT_EQ(kv_cache_bytes(g.arch, q), 36 * std::int64_t{2} * 2 * 64 * 2 * 16384 +
                                           36 * (3 * (1536 + 2 * 128) + 128 * 1536) * 4);
  // The mixer's sizes the compute buffer's replay needs, from either source.
  for (const Model* m : {&g, &c}) {
    EXPECT_EQ(m->arch.attention.ssm_inner, 1536);
    EXPECT_EQ(m->arch.attention.ssm_heads, 24);
    EXPECT_EQ(m->arch.attention.ssm_groups, 1);
    EXPECT_EQ(m->arch.attention.ssm_state, 128);
    EXPECT_EQ(m->arch.attention.ssm_conv, 4);
  }
}

// llama.cpp on a CPU with room to spare, a Q8_0 file, ubatch 512.
Estimate llama_cpu_estimate(const Model& m, std::int64_t ctx, FlashAttention fa) {
  InferenceQuery q;
  q.model = m;
  q.precision = *parse_precision("q8_0");
  Device ram = *raw_device("1024gb");
  ram.kind = DeviceKind::Cpu;
  q.devices.devices.push_back(ram);
  q.runtime = Runtime::LlamaCpp;
  q.context = ctx;
  q.ubatch = 512;
  q.flash_attention = fa;
  return estimate_inference(q);
}

// tiiuae/Falcon-H1-7B-Instruct's config.json: the dimensions as
// joshuahickscorp/hawking workspace/campaign/odyssey/patients/O001/census.json
// (e9d354ed, revision 41e72f27) reads them; the Mamba-2 mixer's as
// hlky/dinoml_v2 agents/plans/transformers/falcon_h1/report.md (6b8c0acb)
// tabulates the hub's file (7B Instruct row: 24 heads of 128, mamba_d_ssm
// 3072, 1 group, state 256) and the transformers FalconH1Config table; conv 4,
// FalconH1Config's default, as the 0.5B and 34B files above state it.
Json falcon_h1_7b() {
  return {{"model_type", "falcon_h1"},
          {"num_hidden_layers", 44},
          {"hidden_size", 3072},
          {"intermediate_size", 12288},
          {"num_attention_heads", 12},
          {"num_key_value_heads", 2},
          {"head_dim", 128},
          {"vocab_size", 130049},
          {"tie_word_embeddings", false},
          {"mamba_d_state", 256},
          {"mamba_d_conv", 4},
          {"mamba_d_ssm", 3072},
          {"mamba_expand", 2},
          {"mamba_n_groups", 1},
          {"mamba_n_heads", 24},
          {"mamba_d_head", 128},
          {"max_position_embeddings", 262144}};
}

// The 7B three ways: its config.json, the falcon-h1 GGUF header llama.cpp's
// converter writes for it (ssm.inner_size mamba_d_ssm, ssm.time_step_rank
// mamba_n_heads), and the catalogue entry. All three carry the mixer's sizes,
// so llama.cpp's compute buffer is the graph's replay for each, not the
// closed form, and the KV cache and the recurrent state agree.
TEST(HybridMamba, FalconH1_7bConfigGgufAndCatalogueAgree) {
  const Model c = from_config(falcon_h1_7b());
  test::GgufWriter w;
  w.str("general.architecture", "falcon-h1");
  u32_keys(w, "falcon-h1",
           {{"block_count", 44},
            {"embedding_length", 3072},
            {"feed_forward_length", 12288},
            {"attention.head_count", 12},
            {"attention.head_count_kv", 2},
            {"attention.key_length", 128},
            {"ssm.conv_kernel", 4},
            {"ssm.inner_size", 3072},
            {"ssm.state_size", 256},
            {"ssm.group_count", 1},
            {"ssm.time_step_rank", 24},
            {"vocab_size", 130049},
            {"context_length", 262144}});
  w.tensor("token_embd.weight", {3072, 130049}, test::kQ8_0);
  w.tensor("output.weight", {3072, 130049}, test::kQ8_0);
  const Model g = from_gguf(w);
  const Model& cat = test::catalogue_model("falcon-h1-7b");
  // By hand: conv (4 - 1) x (3072 + 2 x 256) + SSM 256 x 3072 floats a layer.
  const std::int64_t state = 3 * (3072 + 2 * 256) + 256 * 3072;
  for (const Model* m : {&c, &g, &cat}) {
    EXPECT_EQ(m->arch.attention.mamba, 2);
    EXPECT_EQ(m->arch.attention.ssm_inner, 3072);
    EXPECT_EQ(m->arch.attention.ssm_heads, 24);
    EXPECT_EQ(m->arch.attention.ssm_groups, 1);
    EXPECT_EQ(m->arch.attention.ssm_state, 256);
    EXPECT_EQ(m->arch.attention.ssm_conv, 4);
    EXPECT_EQ(m->arch.attention.recurrent_state_floats, state);
    EXPECT_EQ(attention_layer_count(m->arch), 44);
    EXPECT_EQ(recurrent_layer_count(m->arch), 44);
  }
  for (const std::int64_t ctx : {std::int64_t{4096}, std::int64_t{131072}}) {
    const KvCacheQuery kq{ctx, 1, 512, kv_f16(), kv_f16(), 256};
    // By hand: 44 layers x 2 x 2 KV heads x 128 x 2 bytes a token, 44 F32 states.
    const std::int64_t kv = 44 * std::int64_t{2} * 2 * 128 * 2 * ctx + 44 * state * 4;
    EXPECT_EQ(kv_cache_bytes(c.arch, kq), kv);
    EXPECT_EQ(kv_cache_bytes(g.arch, kq), kv);
    EXPECT_EQ(kv_cache_bytes(cat.arch, kq), kv);
    for (const FlashAttention fa : {FlashAttention::On, FlashAttention::Off}) {
      const Estimate ec = llama_cpu_estimate(c, ctx, fa);
      const Estimate eg = llama_cpu_estimate(g, ctx, fa);
      const Estimate et = llama_cpu_estimate(cat, ctx, fa);
      EXPECT_GT(ec.memory.compute, 0);
      EXPECT_EQ(eg.memory.compute, ec.memory.compute) << ctx;
      EXPECT_EQ(et.memory.compute, ec.memory.compute) << ctx;
      EXPECT_EQ(et.memory.kv_cache, ec.memory.kv_cache) << ctx;
      EXPECT_EQ(eg.memory.kv_cache, ec.memory.kv_cache) << ctx;
    }
  }
}

// The 34B's catalogue entry (two Mamba groups) and its config.json above
// size llama.cpp's compute buffer alike: both replay the graph.
TEST(HybridMamba, FalconH1_34bCatalogueComputeIsTheConfigs) {
  const Model c = from_config(falcon_h1_34b());
  const Model& cat = test::catalogue_model("falcon-h1-34b");
  EXPECT_EQ(cat.arch.attention.ssm_groups, 2);
  EXPECT_EQ(cat.arch.attention.ssm_inner, c.arch.attention.ssm_inner);
  for (const FlashAttention fa : {FlashAttention::On, FlashAttention::Off}) {
    EXPECT_EQ(llama_cpu_estimate(cat, 32768, fa).memory.compute,
              llama_cpu_estimate(c, 32768, fa).memory.compute);
  }
}

// Granite-4.0-H-Tiny: the card's architecture table and Ollama's
// granite4:tiny-h GGUF metadata (data/models.json names both), in
// config.json's spelling; attention at layers 5, 15, 25, 35 as H-Small.
Json granite4_h_tiny() {
  Json j = granite4_h_small();
  j["hidden_size"] = 1536;
  j["num_attention_heads"] = 12;
  j["num_key_value_heads"] = 4;
  j["num_local_experts"] = 64;
  j["num_experts_per_tok"] = 6;
  j["shared_intermediate_size"] = 1024;
  j["intermediate_size"] = 512;
  j["mamba_n_heads"] = 48;
  return j;
}

TEST(HybridMamba, Granite4HTinyConfigAndGgufAgree) {
  const Model c = from_config(granite4_h_tiny());
  // Card: 7B total, 1B active (the architecture: 6.94 B and 1.47 B).
  EXPECT_LT(rel(static_cast<double>(c.params), 7e9), 0.01);
  EXPECT_EQ(c.arch.moe->shared_experts, 2);
  std::vector<std::uint32_t> kv_heads;
  for (int i = 0; i < 40; ++i) {
    kv_heads.push_back(i % 10 == 5 ? 4 : 0);
  }
  test::GgufWriter w;
  w.str("general.architecture", "granitehybrid");
  u32_keys(w, "granitehybrid",
           {{"block_count", 40}, {"embedding_length", 1536}, {"attention.head_count", 12}});
  w.u32_array("granitehybrid.attention.head_count_kv", kv_heads);
  u32_keys(w, "granitehybrid",
           {{"context_length", 1048576},
            {"expert_count", 64},
            {"expert_used_count", 6},
            {"feed_forward_length", 512},
            {"expert_shared_feed_forward_length", 1024},
            {"ssm.conv_kernel", 4},
            {"ssm.group_count", 1},
            {"ssm.inner_size", 3072},
            {"ssm.state_size", 128},
            {"ssm.time_step_rank", 48},
            {"vocab_size", 100352}});
  w.tensor("token_embd.weight", {1536, 100352}, test::kQ8_0);
  const Model g = from_gguf(w);
  EXPECT_EQ(attention_layer_count(g.arch), 4);
  EXPECT_EQ(recurrent_layer_count(g.arch), 36);
  EXPECT_EQ(g.arch.moe->shared_experts, c.arch.moe->shared_experts);
  const KvCacheQuery q{131072, 1, 512, kv_f16(), kv_f16(), 256};
  EXPECT_EQ(kv_cache_bytes(g.arch, q), kv_cache_bytes(c.arch, q));
  EXPECT_EQ(kv_cache_bytes(c.arch, q), 4 * std::int64_t{2} * 4 * 128 * 2 * 131072 +
                                           36 * (3 * (3072 + 2 * 128) + 128 * 3072) * 4);
}

// LiquidAI/LFM2-700M's config.json (its original keys: full_attn_idxs,
// block_ff_dim, no tie key; data/models.json names the revision).
Json lfm2_700m() {
  return {{"model_type", "lfm2"},
          {"hidden_size", 1536},
          {"num_hidden_layers", 16},
          {"num_attention_heads", 24},
          {"num_key_value_heads", 8},
          {"block_ff_dim", 10240},
          {"block_auto_adjust_ff_dim", true},
          {"block_ffn_dim_multiplier", 1.0},
          {"block_multiple_of", 256},
          {"conv_L_cache", 3},
          {"full_attn_idxs", {2, 5, 8, 10, 12, 14}},
          {"vocab_size", 65536},
          {"max_position_embeddings", 128000},
          {"torch_dtype", "bfloat16"}};
}

TEST(HybridShortConv, Lfm2OriginalConfigKeys) {
  // Lfm2Config reads full_attn_idxs (the rest are convolutions), block_ff_dim
  // as intermediate_size, and ties the embeddings by default.
  const Model m = from_config(lfm2_700m());
  EXPECT_EQ(attention_layer_count(m.arch), 6);
  EXPECT_EQ(recurrent_layer_count(m.arch), 10);
  EXPECT_EQ(m.arch.intermediate_size, 6912);  // 2/3 of 10240, up to a multiple of 256
  EXPECT_TRUE(m.arch.tied_embeddings);
  // Model card: 742M parameters.
  EXPECT_LT(rel(static_cast<double>(m.params), 742e6), 0.005);
  // The key spelled as the original configs spell it decides too.
  Json untied = lfm2_700m();
  untied["tie_embedding"] = false;
  EXPECT_FALSE(from_config(untied).arch.tied_embeddings);
}

// LFM2-8B-A1B: 24 layers (6 attention), 32 experts of 1792, 4 per token,
// the first 2 layers dense (7168); data/models.json names the sources.
Json lfm2_8b_a1b() {
  Json types = Json::array();
  const std::vector<int> attention = {2, 6, 10, 14, 18, 21};
  for (int i = 0; i < 24; ++i) {
    types.push_back(std::find(attention.begin(), attention.end(), i) != attention.end()
                        ? "full_attention"
                        : "conv");
  }
  return {{"model_type", "lfm2_moe"},   {"hidden_size", 2048},
          {"intermediate_size", 7168},  {"moe_intermediate_size", 1792},
          {"num_hidden_layers", 24},    {"num_attention_heads", 32},
          {"num_key_value_heads", 8},   {"num_experts", 32},
          {"num_experts_per_tok", 4},   {"num_dense_layers", 2},
          {"conv_L_cache", 3},          {"layer_types", types},
          {"vocab_size", 65536},        {"max_position_embeddings", 128000},
          {"tie_word_embeddings", true}};
}

TEST(HybridShortConv, Lfm2MoeConfigAndGgufAgree) {
  const Model c = from_config(lfm2_8b_a1b());
  // Card: 8.3B total, 1.5B active (the architecture: 8.34 B, 1.56 B).
  EXPECT_LT(rel(static_cast<double>(c.params), 8.3e9), 0.01);
  EXPECT_LT(rel(static_cast<double>(c.active_params), 1.5e9), 0.05);
  EXPECT_EQ(c.arch.moe->first_dense_layers, 2);
  std::vector<std::uint32_t> kv_heads;
  const Json config = lfm2_8b_a1b();
  for (const auto& t : config["layer_types"]) {
    kv_heads.push_back(t == "conv" ? 0 : 8);
  }
  test::GgufWriter w;
  w.str("general.architecture", "lfm2moe");
  u32_keys(w, "lfm2moe",
           {{"block_count", 24},
            {"embedding_length", 2048},
            {"feed_forward_length", 7168},
            {"expert_feed_forward_length", 1792},
            {"expert_count", 32},
            {"expert_used_count", 4},
            {"leading_dense_block_count", 2},
            {"attention.head_count", 32}});
  w.u32_array("lfm2moe.attention.head_count_kv", kv_heads);
  u32_keys(w, "lfm2moe", {{"shortconv.l_cache", 3}, {"vocab_size", 65536}});
  w.tensor("token_embd.weight", {2048, 65536}, test::kQ8_0);
  const Model g = from_gguf(w);
  EXPECT_EQ(g.arch.moe->first_dense_layers, 2);
  EXPECT_EQ(g.arch.moe->expert_intermediate_size, 1792);
  const KvCacheQuery q{32768, 1, 512, kv_f16(), kv_f16(), 256};
  EXPECT_EQ(kv_cache_bytes(g.arch, q), kv_cache_bytes(c.arch, q));
  EXPECT_EQ(kv_cache_bytes(c.arch, q),
            6 * std::int64_t{2} * 8 * 64 * 2 * 32768 + 18 * 2 * 2048 * 4);
}

// deepseek-ai/DeepSeek-V3 config.json.
Json deepseek_v3() {
  return {{"model_type", "deepseek_v3"},
          {"hidden_size", 7168},
          {"num_hidden_layers", 61},
          {"num_attention_heads", 128},
          {"num_key_value_heads", 128},
          {"intermediate_size", 18432},
          {"moe_intermediate_size", 2048},
          {"n_routed_experts", 256},
          {"n_shared_experts", 1},
          {"num_experts_per_tok", 8},
          {"first_k_dense_replace", 3},
          {"kv_lora_rank", 512},
          {"q_lora_rank", 1536},
          {"qk_rope_head_dim", 64},
          {"qk_nope_head_dim", 128},
          {"v_head_dim", 128},
          {"vocab_size", 129280},
          {"num_nextn_predict_layers", 1},
          {"max_position_embeddings", 163840},
          {"tie_word_embeddings", false}};
}

TEST(MultiTokenPrediction, InTheFileNotInTheActivePath) {
  // The card: 671 B main model + 14 B multi-token-prediction module = 685 B
  // on the hub; 37 B activated per token.
  const Model m = from_config(deepseek_v3());
  EXPECT_EQ(m.arch.mtp_layers, 1);
  const ParamBreakdown p = count_params(m.arch);
  EXPECT_LT(rel(static_cast<double>(p.total()), 685e9), 0.01);
  EXPECT_LT(rel(static_cast<double>(p.total() - p.mtp), 671e9), 0.01);
  EXPECT_LT(rel(static_cast<double>(p.active()), 37e9), 0.02);
  // The MTP block holds no KV cache: the same cache as without it.
  Architecture without = m.arch;
  without.mtp_layers = 0;
  const KvCacheQuery q{8192, 1, 512, kv_f16(), kv_f16(), 256};
  EXPECT_EQ(kv_cache_bytes(m.arch, q), kv_cache_bytes(without, q));
  // Its weights are loaded (llama.cpp keeps nextn tensors in the file).
  EXPECT_GT(weight_layout(m, *parse_precision("q4_k_m")).other, 0);
}

// A question about `cfg` under transformers at BF16, `context` tokens, one
// sequence.
InferenceQuery transformers_bf16(const Json& cfg, std::int64_t context) {
  InferenceQuery q;
  q.model = from_config(cfg);
  q.precision = *parse_precision("bf16");
  q.context = context;
  q.runtime = Runtime::Transformers;
  return q;
}

// MLA under transformers caches the latent and expands it at every step:
// expand_kv (huggingface/transformers
// src/transformers/models/kimi_linear/modeling_kimi_linear.py at c1a44bc9,
// the DeepseekV3Attention method) runs kv_b_proj over all of a layer's
// cached tokens, [batch, tokens, heads x (qk_nope + v_head)], and copies the
// keys into a new [batch, heads, tokens, qk_nope + qk_rope] tensor. At the
// end of generation that is, with DeepSeek-V3's config.json (128 heads,
// qk_nope 128, v_head 128, qk_rope 64) in BF16 at 32768 tokens:
//   128 x (2 x 128 + 128 + 64) x 2 bytes x 32768 = 3758096384
// beside the step's torch.cat of one layer's latent, half of one layer's
// cache, 576 x 2 bytes x 32768 / 2 = 18874368, and the last logits, 129280
// x (2 + 4) = 775680. A one-token prompt leaves the prefill smaller.
TEST(MultiHeadLatentAttention, TransformersExpandsOneLayersLatentAtEachStep) {
  InferenceQuery q = transformers_bf16(deepseek_v3(), 32768);
  q.prompt_tokens = 1;
  q.flash_attention = FlashAttention::On;
  const Estimate e = estimate_inference(q);
  EXPECT_EQ(e.memory.kv_cache, 61 * Bytes{576} * 2 * 32768);
  EXPECT_EQ(e.memory.compute, Bytes{3758096384} + 18874368 + 775680);
  // Two sequences expand two latents.
  q.batch = 2;
  EXPECT_EQ(estimate_inference(q).memory.compute, 2 * (Bytes{3758096384} + 18874368) + 2 * 775680);
}

TEST(SparseAttentionIndexer, DeepSeekV32CachesAnFp8KeyPerTokenAndLayer) {
  // deepseek-ai/DeepSeek-V3.2-Exp config.json adds index_head_dim 128,
  // index_n_heads 64 (index_topk 2048) to the V3 shape.
  Json j = deepseek_v3();
  j["index_head_dim"] = 128;
  j["index_n_heads"] = 64;
  const Model m = from_config(j);
  EXPECT_EQ(m.arch.attention.index_head_dim, 128);
  const std::int64_t ctx = 8192;
  const Bytes latent = 61 * std::int64_t{512 + 64} * 2 * ctx;
  // 128 FP8 bytes and one F32 scale per token and layer.
  const Bytes indexer = 61 * std::int64_t{128 + 4} * ctx;
  EXPECT_EQ(kv_cache_bytes(m.arch, {ctx, 1, 512, kv_f16(), kv_f16(), 256}), latent + indexer);
  // llama.cpp keeps the indexer key in the K cache type (llama-kv-cache-dsa.cpp):
  // 128 f16 values per token and layer, or q8_0 blocks of 34 bytes per 32.
  EXPECT_EQ(kv_cache_bytes(m.arch, {ctx, 1, 512, kv_f16(), kv_f16(), 256, true}),
            latent + 61 * std::int64_t{128 * 2} * ctx);
  EXPECT_EQ(kv_cache_bytes(
                m.arch, {ctx, 1, 512, *parse_kv_type("q8_0"), *parse_kv_type("q8_0"), 256, true}),
            61 * std::int64_t{576 / 32 * 34 + 128 / 32 * 34} * ctx);
  // The indexer's projections: 1536 x 64 x 128 + 7168 x 128 + 7168 x 64 per layer.
  EXPECT_EQ(
      count_params(m.arch).attention - count_params(from_config(deepseek_v3()).arch).attention,
      61 * (std::int64_t{1536} * 64 * 128 + 7168 * 128 + 7168 * 64));
}

TEST(SparseAttentionIndexer, ReadFromGgufIndexerKeys) {
  // llama.cpp's deepseek32 GGUF (gguf-py Keys.Attention.Indexer): the V3
  // MLA keys plus attention.indexer.head_count / key_length / top_k.
  test::GgufWriter w;
  w.str("general.architecture", "deepseek32");
  w.u32("deepseek32.block_count", 61);
  w.u32("deepseek32.embedding_length", 7168);
  w.u32("deepseek32.attention.head_count", 128);
  w.u32("deepseek32.attention.head_count_kv", 1);
  w.u32("deepseek32.attention.kv_lora_rank", 512);
  w.u32("deepseek32.attention.q_lora_rank", 1536);
  w.u32("deepseek32.rope.dimension_count", 64);
  w.u32("deepseek32.attention.key_length_mla", 192);
  w.u32("deepseek32.attention.value_length_mla", 128);
  w.u32("deepseek32.attention.indexer.head_count", 64);
  w.u32("deepseek32.attention.indexer.key_length", 128);
  w.u32("deepseek32.attention.indexer.top_k", 2048);
  w.u32("deepseek32.vocab_size", 129280);
  w.tensor("token_embd.weight", {7168, 256}, test::kQ8_0);
  const Model g = from_gguf(w);
  EXPECT_EQ(g.arch.attention.index_head_dim, 128);
  EXPECT_EQ(g.arch.attention.index_heads, 64);
  Json j = deepseek_v3();
  j["index_head_dim"] = 128;
  j["index_n_heads"] = 64;
  const Model c = from_config(j);
  for (const bool llama : {false, true}) {
    const KvCacheQuery q{65536, 1, 512, kv_f16(), kv_f16(), 256, llama};
    EXPECT_EQ(kv_cache_bytes(g.arch, q), kv_cache_bytes(c.arch, q)) << llama;
  }
}

// Each feature's GGUF key, as llama.cpp's converter writes it (gguf-py
// constants), read into the same field the config.json path fills.
TEST(GgufKeys, SharedExpertsLeadingDenseLayersAndTheirWidths) {
  test::GgufWriter w;
  w.str("general.architecture", "deepseek2");
  w.u32("deepseek2.block_count", 27);
  w.u32("deepseek2.embedding_length", 2048);
  w.u32("deepseek2.feed_forward_length", 10944);
  w.u32("deepseek2.attention.head_count", 16);
  w.u32("deepseek2.attention.head_count_kv", 16);
  w.u32("deepseek2.expert_count", 64);
  w.u32("deepseek2.expert_used_count", 6);
  w.u32("deepseek2.expert_shared_count", 2);
  w.u32("deepseek2.expert_feed_forward_length", 1408);
  w.u32("deepseek2.leading_dense_block_count", 1);
  w.u32("deepseek2.vocab_size", 102400);
  w.tensor("token_embd.weight", {2048, 256}, test::kQ8_0);
  const Model ds = from_gguf(w);  // DeepSeek-V2-Lite's values
  ASSERT_TRUE(ds.arch.moe.has_value());
  EXPECT_EQ(ds.arch.moe->shared_experts, 2);
  EXPECT_EQ(ds.arch.moe->first_dense_layers, 1);
  EXPECT_EQ(ds.arch.moe->expert_intermediate_size, 1408);
  EXPECT_EQ(moe_layer_count(ds.arch), 26);

  // Qwen3-Next: a shared expert named by its width (512, one expert's width).
  test::GgufWriter q;
  q.str("general.architecture", "qwen3next");
  q.u32("qwen3next.block_count", 48);
  q.u32("qwen3next.embedding_length", 2048);
  q.u32("qwen3next.attention.head_count", 16);
  q.u32("qwen3next.attention.head_count_kv", 2);
  q.u32("qwen3next.expert_count", 512);
  q.u32("qwen3next.expert_used_count", 10);
  q.u32("qwen3next.expert_feed_forward_length", 512);
  q.u32("qwen3next.expert_shared_feed_forward_length", 512);
  q.u32("qwen3next.vocab_size", 151936);
  q.tensor("token_embd.weight", {2048, 256}, test::kQ8_0);
  const Model qn = from_gguf(q);
  ASSERT_TRUE(qn.arch.moe.has_value());
  EXPECT_EQ(qn.arch.moe->shared_experts, 1);
  EXPECT_EQ(qn.arch.moe->shared_experts, from_config(qwen3_next()).arch.moe->shared_experts);
}

TEST(GgufKeys, SlidingPatternPerLayerEmbeddingsAndSharedKv) {
  // Gemma 3n E4B: 35 layers, window 512, four windowed then one global
  // (sliding_window_pattern as per-layer flags), per-layer inputs of 256,
  // the last 15 layers reuse KV.
  test::GgufWriter w;
  w.str("general.architecture", "gemma3n");
  w.u32("gemma3n.block_count", 35);
  w.u32("gemma3n.embedding_length", 2048);
  w.u32("gemma3n.attention.head_count", 8);
  w.u32("gemma3n.attention.head_count_kv", 2);
  w.u32("gemma3n.attention.key_length", 256);
  w.u32("gemma3n.attention.sliding_window", 512);
  w.u32("gemma3n.context_length", 32768);
  w.u32("gemma3n.embedding_length_per_layer_input", 256);
  w.u32("gemma3n.attention.shared_kv_layers", 15);
  w.u32("gemma3n.vocab_size", 262144);
  std::vector<std::uint32_t> flags;
  for (int i = 0; i < 35; ++i) {
    flags.push_back((i + 1) % 5 == 0 ? 0 : 1);
  }
  w.raw("gemma3n.attention.sliding_window_pattern", 9, [&] {
    std::string s;
    s += test::GgufWriter::enc<std::uint32_t>(7);  // bool elements
    s += test::GgufWriter::enc<std::uint64_t>(flags.size());
    for (auto f : flags) {
      s += test::GgufWriter::enc<std::uint8_t>(static_cast<std::uint8_t>(f));
    }
    return s;
  }());
  w.tensor("token_embd.weight", {2048, 256}, test::kQ8_0);
  w.tensor("per_layer_token_embd.weight", {35 * 256, 262144}, test::kQ8_0);
  const Model g = from_gguf(w);
  EXPECT_EQ(g.arch.attention.kind, AttentionKind::Sliding);
  EXPECT_EQ(g.arch.attention.sliding_window, 512);
  EXPECT_EQ(g.arch.attention.sliding_pattern, 5);
  EXPECT_EQ(g.arch.per_layer_width, 256);
  EXPECT_EQ(g.arch.per_layer_vocab, 262144);
  EXPECT_EQ(g.arch.attention.kv_shared_layers, 15);
}

// A Gemma 3n text_config as google/gemma-3n-E2B-it and -E4B-it's config.json
// write it: per-layer inputs of 256 from a 262144-token table, four sliding
// layers (512) then one global, AltUp over 4 streams, LAuReL of rank 64
// (shape: google-deepmind/gemma gemma/gm/nn/gemma3n/_gemma3n.py at a9b44e59,
// which gives the 20 unshared KV layers and the MLP widths; data/models.json
// gemma-3n-e2b/e4b name each source). altup and laurel are left out when
// `defaults`, as a config that relies on Gemma3nTextConfig's defaults.
Json gemma3n_text(int layers, int mlp, int shared, bool defaults = false) {
  Json types = Json::array();
  for (int i = 0; i < layers; ++i) {
    types.push_back((i + 1) % 5 == 0 ? "full_attention" : "sliding_attention");
  }
  Json t = {{"model_type", "gemma3n_text"},
            {"hidden_size", 2048},
            {"num_hidden_layers", layers},
            {"num_attention_heads", 8},
            {"num_key_value_heads", 2},
            {"head_dim", 256},
            {"intermediate_size", Json(std::vector<int>(static_cast<std::size_t>(layers), mlp))},
            {"vocab_size", 262400},
            {"vocab_size_per_layer_input", 262144},
            {"hidden_size_per_layer_input", 256},
            {"num_kv_shared_layers", shared},
            {"sliding_window", 512},
            {"layer_types", types},
            {"max_position_embeddings", 32768}};
  if (!defaults) {
    t["altup_num_inputs"] = 4;
    t["laurel_rank"] = 64;
  }
  return {{"model_type", "gemma3n"}, {"text_config", t}};
}

TEST(PerLayerEmbeddings, Gemma3nTableAndSharedKv) {
  // google/gemma-3n-E4B-it: 35 layers, MLP 16384, the last 15 layers reuse KV.
  const Json t = gemma3n_text(35, 16384, 15, true)["text_config"];
  const Model m = from_config({{"model_type", "gemma3n"}, {"text_config", t}});
  EXPECT_EQ(m.arch.intermediate_size, 16384);
  EXPECT_EQ(m.arch.per_layer_width, 256);
  // No tie key: Gemma3nTextConfig keeps PretrainedConfig's tied default.
  EXPECT_TRUE(m.arch.tied_embeddings);
  EXPECT_EQ(count_params(m.arch).embedding,
            std::int64_t{262400} * 2048 + std::int64_t{262144} * 35 * 256);
  // 20 layers cache: 4 global, 16 windowed at 512 + 512 cells (padded to 256).
  const std::int64_t ctx = 32768;
  const std::int64_t per = 2 * 2 * 256 * 2;
  EXPECT_EQ(kv_cache_bytes(m.arch, {ctx, 1, 512, kv_f16(), kv_f16(), 256}),
            4 * per * ctx + 16 * per * 1024);
  // llama.cpp keeps the per-layer table with the token embeddings in RAM.
  const WeightLayout w = weight_layout(m, *parse_precision("q8_0"));
  EXPECT_GT(w.token_embd, std::int64_t{262144} * 35 * 256);  // at ~8.5 bits, over 1 byte each
}

// The text model's count against the published text-only counts (Ollama's
// and LM Studio's Gemma 3n GGUFs hold no encoders): Ollama's gemma3n:e2b page
// shows 4.46B, LM Studio's google/gemma-3n-e4b 6.9B. Without AltUp's
// projections and LAuReL the E2B would count 4.42 B, 0.85 % short.
TEST(PerLayerEmbeddings, Gemma3nTextCountsMatchTheTextOnlyGgufs) {
  const Model e2b = from_config(gemma3n_text(30, 8192, 10));
  EXPECT_EQ(e2b.arch.altup_inputs, 4);
  EXPECT_EQ(e2b.arch.laurel_rank, 64);
  EXPECT_LT(rel(static_cast<double>(count_params(e2b.arch).total()), 4.46e9), 0.0025);
  // E4B's config as a reader that leaves AltUp and LAuReL to the defaults sees it.
  const Model e4b = from_config(gemma3n_text(35, 16384, 15, true));
  EXPECT_EQ(count_params(e4b.arch).total(),
            count_params(from_config(gemma3n_text(35, 16384, 15)).arch).total());
  EXPECT_LT(rel(static_cast<double>(count_params(e4b.arch).total()), 6.9e9), 0.0075);
}

// Gemma 3n E2B: its config.json, a GGUF header with llama.cpp's gemma3n keys
// and tensors (src/llama-model.cpp: altup.num_inputs, blk.N.laurel_l of
// n_embd x laurel_rank, per_layer_token_embd), and the catalogue entry.
TEST(PerLayerEmbeddings, Gemma3nE2bConfigGgufAndCatalogueAgree) {
  const Model c = from_config(gemma3n_text(30, 8192, 10));
  test::GgufWriter w;
  w.str("general.architecture", "gemma3n");
  u32_keys(w, "gemma3n",
           {{"block_count", 30},
            {"embedding_length", 2048},
            {"feed_forward_length", 8192},
            {"attention.head_count", 8},
            {"attention.head_count_kv", 2},
            {"attention.key_length", 256},
            {"attention.sliding_window", 512},
            {"context_length", 32768},
            {"embedding_length_per_layer_input", 256},
            {"attention.shared_kv_layers", 10},
            {"altup.num_inputs", 4},
            {"vocab_size", 262400}});
  w.tensor("token_embd.weight", {2048, 262400}, test::kQ8_0);
  w.tensor("per_layer_token_embd.weight", {30 * 256, 262144}, test::kQ8_0);
  w.tensor("blk.0.laurel_l.weight", {2048, 64}, test::kQ8_0);
  const Model g = from_gguf(w);
  EXPECT_EQ(g.arch.altup_inputs, 4);
  EXPECT_EQ(g.arch.laurel_rank, 64);
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());

  auto db = ModelDb::parse(app::embedded_models_json(), "embedded");
  ASSERT_TRUE(db.ok());
  auto found = db->find("gemma3n:e2b");
  ASSERT_TRUE(found.ok());
  const Model& cat = found->entry->model;
  EXPECT_EQ(cat.id, "gemma-3n-e2b");
  const ParamBreakdown p = count_params(cat.arch);
  EXPECT_EQ(p.total() - p.vision, count_params(c.arch).total());
  // 20 layers cache: 4 global ones the context, 16 windowed ones 512 + 512
  // cells; the 10 sharing layers cache nothing.
  for (const std::int64_t ctx : {std::int64_t{4096}, std::int64_t{32768}}) {
    const KvCacheQuery q{ctx, 1, 512, kv_f16(), kv_f16(), 256};
    EXPECT_EQ(kv_cache_bytes(cat.arch, q), kv_cache_bytes(c.arch, q));
    EXPECT_EQ(kv_cache_bytes(g.arch, q), kv_cache_bytes(c.arch, q));
    const std::int64_t per = 2 * 2 * 256 * 2;
    EXPECT_EQ(kv_cache_bytes(c.arch, q), 4 * per * ctx + 16 * per * 1024);
  }
}

// Ollama's gemma3n engine is a text model and nothing else (ollama/ollama
// model/models/gemma3n/model.go at 3c6cca52), so under Ollama no encoder is
// loaded, named by its tag or not; llama.cpp with an mmproj file loads one.
// The tag also stands for the library's package, whose per-layer table
// Ollama's quantizer left at 16 bits (AccuracyGguf.HybridFilesOfTheCatalogue
// checks its size against the library page).
TEST(PerLayerEmbeddings, Gemma3nUnderOllamaIsItsTextModel) {
  auto db = ModelDb::parse(app::embedded_models_json(), "embedded");
  ASSERT_TRUE(db.ok());
  auto tag = db->find("gemma3n:e2b");
  ASSERT_TRUE(tag.ok());
  const Model pulled = model_from_match(*tag);
  EXPECT_EQ(pulled.quantizer, GgufQuantizer::Ollama);
  auto id = db->find("gemma-3n-e2b");
  ASSERT_TRUE(id.ok());
  const Model named = model_from_match(*id);
  EXPECT_EQ(named.quantizer, GgufQuantizer::LlamaCpp);
  const auto q4 = *parse_precision("q4_k_m");
  // The 16-bit table: 262144 x 30 x 256 values of 2 bytes, against ~4.5
  // bits a value under llama.cpp's recipe; every other tensor alike.
  const WeightLayout ollama = weight_layout(pulled, q4);
  const WeightLayout llama = weight_layout(named, q4);
  const Bytes table = std::int64_t{262144} * 30 * 256;
  EXPECT_EQ(ollama.total() - ollama.token_embd, llama.total() - llama.token_embd);
  EXPECT_GT(ollama.token_embd - llama.token_embd, table);

  for (const Model* m : {&pulled, &named}) {
    InferenceQuery q;
    q.model = *m;
    q.precision = q4;
    q.runtime = Runtime::Ollama;
    EXPECT_EQ(estimate_inference(q).memory.projector, 0) << m->id;
    q.runtime = Runtime::LlamaCpp;
    EXPECT_GT(estimate_inference(q).memory.projector, 0) << m->id;
  }
}

TEST(Projector, VisionConfigIsItsOwnTermAndTextOnlyDropsIt) {
  // Llama 4 Scout's vision_config: 34 layers of 1408 wide, MLP 5632.
  Json j = llama4_scout();
  j["vision_config"] = {{"hidden_size", 1408},
                        {"num_hidden_layers", 34},
                        {"intermediate_size", 5632},
                        {"projector_output_dim", 4096}};
  const Model m = from_config(j);
  ASSERT_GT(m.arch.vision_params, 0);
  InferenceQuery q;
  q.model = m;
  q.precision = *parse_precision("q4_k_m");
  const Estimate e = estimate_inference(q);
  EXPECT_EQ(e.memory.projector, m.arch.vision_params * 2);  // F16, like an mmproj file
  bool listed = false;
  for (const auto& t : e.terms) {
    listed = listed || (t.key == "projector" && t.bytes == e.memory.projector);
  }
  EXPECT_TRUE(listed);
  q.text_only = true;
  const Estimate text = estimate_inference(q);
  EXPECT_EQ(text.memory.projector, 0);
  EXPECT_EQ(text.memory.weights, e.memory.weights);
}

// An audio_config in Whisper's spelling (Qwen2-Audio: d_model, encoder_layers,
// encoder_ffn_dim; transformers configuration_qwen2_audio.py, commit
// c12eb355, the Qwen2-Audio-7B encoder) is counted in the projector term too,
// and Qwen2.5-Omni's, nested in thinker_config.
TEST(Projector, AudioConfigInWhispersSpellingIsCounted) {
  Json j = llama4_scout();
  j["audio_config"] = {
      {"model_type", "qwen2_audio_encoder"}, {"d_model", 1280},         {"encoder_layers", 32},
      {"encoder_attention_heads", 20},       {"encoder_ffn_dim", 5120}, {"num_mel_bins", 128}};
  const Model m = from_config(j);
  // 32 blocks of attention (4 x 1280^2) and FFN (2 x 1280 x 5120), and the
  // projection to the text width (5120).
  const std::int64_t encoder =
      std::int64_t{32} * (4 * 1280 * 1280 + 2 * 1280 * 5120) + std::int64_t{1280} * 5120;
  EXPECT_EQ(m.arch.vision_params, encoder);
  bool said = false;
  for (const auto& n : m.notes) {
    said = said || n.find("audio encoder estimated from its config") != std::string::npos;
  }
  EXPECT_TRUE(said);
  Json omni = llama4_scout();
  omni["thinker_config"] = {{"audio_config", j["audio_config"]}};
  EXPECT_EQ(from_config(omni).arch.vision_params, encoder);
}

TEST(ChunkedAttention, Llama4ConfigAndGgufAgree) {
  const Model c = from_config(llama4_scout());
  test::GgufWriter w;
  w.str("general.architecture", "llama4");
  w.u32("llama4.block_count", 48);
  w.u32("llama4.context_length", 10485760);
  w.u32("llama4.embedding_length", 5120);
  w.u32("llama4.feed_forward_length", 16384);
  w.u32("llama4.attention.head_count", 40);
  w.u32("llama4.attention.head_count_kv", 8);
  w.u32("llama4.attention.key_length", 128);
  w.u32("llama4.expert_count", 16);
  w.u32("llama4.expert_used_count", 1);
  w.u32("llama4.expert_feed_forward_length", 8192);
  w.u32("llama4.interleave_moe_layer_step", 1);
  w.u32("llama4.vocab_size", 202048);
  w.tensor("token_embd.weight", {5120, 256}, test::kQ8_0);
  w.tensor("blk.0.ffn_up_shexp.weight", {5120, 256}, test::kQ8_0);
  const Model g = from_gguf(w);
  EXPECT_TRUE(g.arch.attention.chunked);
  EXPECT_EQ(g.arch.moe->shared_experts, 1);
  for (const std::int64_t ctx : {std::int64_t{8192}, std::int64_t{1} << 20}) {
    const KvCacheQuery q{ctx, 1, 512, kv_f16(), kv_f16(), 256};
    EXPECT_EQ(kv_cache_bytes(g.arch, q), kv_cache_bytes(c.arch, q)) << ctx;
  }
}

// A llama.cpp load log of Qwen3.5-0.8B (tests/data/architecture_figures.csv):
// 262144 cells unified over 4 sequences; KV on 6 of 24 layers, a fixed state
// on the other 18. The GGUF header is the one the log prints.
TEST(HybridLinearAttention, Qwen35LogFromItsGgufHeader) {
  test::GgufWriter w;
  w.str("general.architecture", "qwen35");
  w.u32("qwen35.block_count", 24);
  w.u32("qwen35.context_length", 262144);
  w.u32("qwen35.embedding_length", 1024);
  w.u32("qwen35.feed_forward_length", 3584);
  w.u32("qwen35.attention.head_count", 8);
  w.u32("qwen35.attention.head_count_kv", 2);
  w.u32("qwen35.attention.key_length", 256);
  w.u32("qwen35.attention.value_length", 256);
  w.u32("qwen35.ssm.conv_kernel", 4);
  w.u32("qwen35.ssm.state_size", 128);
  w.u32("qwen35.ssm.group_count", 16);
  w.u32("qwen35.ssm.time_step_rank", 16);
  w.u32("qwen35.ssm.inner_size", 2048);
  w.u32("qwen35.full_attention_interval", 4);
  w.u32("qwen35.vocab_size", 248320);
  w.tensor("token_embd.weight", {1024, 256}, test::kQ8_0);
  const Model g = from_gguf(w);
  EXPECT_EQ(attention_layer_count(g.arch), 6);
  const KvCacheQuery q{65536, 4, 512, kv_f16(), kv_f16(), 256};
  const Bytes state = recurrent_state_bytes(g.arch, 4);
  EXPECT_EQ(kv_cache_bytes(g.arch, q) - state, 3072 * kMiB);  // "KV buffer size = 3072.00 MiB"
  // "RS buffer size = 77.06 MiB": R 5.06 MiB + S 72.00 MiB, to the log's 0.01 MiB.
  EXPECT_NEAR(static_cast<double>(state) / static_cast<double>(kMiB), 77.06, 0.005);
}

TEST(MultiTokenPrediction, GgufBlockCountIncludesNextn) {
  // GLM-4.5-Air GGUF: block_count 47 = 46 layers + 1 nextn block.
  test::GgufWriter w;
  w.str("general.architecture", "glm4moe");
  w.u32("glm4moe.block_count", 47);
  w.u32("glm4moe.nextn_predict_layers", 1);
  w.u32("glm4moe.embedding_length", 4096);
  w.u32("glm4moe.attention.head_count", 96);
  w.u32("glm4moe.attention.head_count_kv", 8);
  w.u32("glm4moe.attention.key_length", 128);
  w.u32("glm4moe.vocab_size", 151552);
  w.tensor("token_embd.weight", {4096, 256}, test::kQ8_0);
  const Model g = from_gguf(w);
  EXPECT_EQ(g.arch.layers, 46);
  EXPECT_EQ(g.arch.mtp_layers, 1);
  EXPECT_EQ(kv_cache_bytes(g.arch, {4096, 1, 512, kv_f16(), kv_f16(), 256}),
            46 * std::int64_t{2} * 8 * 128 * 2 * 4096);
}

// The catalogue entry, the config.json and (above, for Llama 4 and LFM2) the
// GGUF header of one model give the same estimate: the KV cache exactly, the
// weights within 1 % (the catalogue carries the card's count, the config the
// counted one).
TEST(CatalogueAgrees, WithTheConfigForEachNewFamily) {
  auto db = ModelDb::parse(app::embedded_models_json(), "embedded");
  ASSERT_TRUE(db.ok());
  Json v32 = deepseek_v3();
  v32["index_head_dim"] = 128;
  v32["index_n_heads"] = 64;
  const std::vector<std::pair<std::string, Json>> cases = {
      {"llama-4-scout-17b-16e", llama4_scout()},
      {"qwen3-next-80b-a3b", qwen3_next()},
      {"nemotron-nano-9b-v2", nemotron_h()},
      {"granite-4.0-h-small", granite4_h_small()},
      {"nemotron-nano-12b-v2", nemotron_nano_12b()},
      {"nemotron-h-8b", nemotron_h_8b()},
      {"falcon-h1-0.5b", falcon_h1_05b()},
      {"falcon-h1-7b", falcon_h1_7b()},
      {"falcon-h1-34b", falcon_h1_34b()},
      {"granite-4.0-h-tiny", granite4_h_tiny()},
      {"lfm2-700m", lfm2_700m()},
      {"lfm2-8b-a1b", lfm2_8b_a1b()},
      {"deepseek-v3.1", deepseek_v3()},
      {"deepseek-v3.2-exp", v32},
  };
  for (const auto& [id, config] : cases) {
    auto found = db->find(id);
    ASSERT_TRUE(found.ok()) << id;
    const Model& cat = found->entry->model;
    const Model cfg = from_config(config);
    for (const std::int64_t ctx : {std::int64_t{4096}, std::int64_t{131072}}) {
      const KvCacheQuery q{ctx, 1, 512, kv_f16(), kv_f16(), 256};
      EXPECT_EQ(kv_cache_bytes(cat.arch, q), kv_cache_bytes(cfg.arch, q)) << id << " at " << ctx;
    }
    const Precision p = *parse_precision("q4_k_m");
    EXPECT_LT(rel(static_cast<double>(weight_layout(cat, p).total()),
                  static_cast<double>(weight_layout(cfg, p).total())),
              0.01)
        << id;
  }
}

// Kimi Linear and Kimi K3: Kimi Delta Attention on three layers of four,
// multi-head latent attention on the others, experts with a shared one. The
// expected state and KV sizes are worked out by hand from llama.cpp's
// layouts (llama-hparams.cpp n_embd_r and n_embd_s for n_embd_head_kda;
// llama-kv-cache.cpp: an MLA layer caches one K row of key_length =
// kv_lora_rank + rope values and no V); the totals come from llama-bench and
// the model cards.
// moonshotai/Kimi-Linear-48B-A3B-Instruct config.json (the copy beside
// Firworks/Kimi-Linear-48B-A3B-Instruct-nvfp4's quantisation, and the
// Megatron-Bridge test fixture "the official Kimi-Linear-48B-A3B
// architecture"): 27 layers, full attention on layers 4, 8, ..., 24 and 27
// (numbered from 1), KDA of 32 heads of 128 with 4-tap convolutions, MLA of
// kv_lora_rank 512 and no q_lora, 256 experts of 1024, 8 per token, 1 shared,
// the first layer dense (9216).
Json kimi_linear() {
  return {
      {"architectures", {"KimiLinearForCausalLM"}},
      {"model_type", "kimi_linear"},
      {"dtype", "bfloat16"},
      {"first_k_dense_replace", 1},
      {"head_dim", 72},
      {"hidden_size", 2304},
      {"intermediate_size", 9216},
      {"kv_lora_rank", 512},
      {"linear_attn_config",
       {{"full_attn_layers", {4, 8, 12, 16, 20, 24, 27}},
        {"head_dim", 128},
        {"kda_layers", {1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15, 17, 18, 19, 21, 22, 23, 25, 26}},
        {"num_heads", 32},
        {"short_conv_kernel_size", 4}}},
      {"mla_use_nope", true},
      {"model_max_length", 1048576},
      {"moe_intermediate_size", 1024},
      {"moe_layer_freq", 1},
      {"moe_router_activation_func", "sigmoid"},
      {"num_attention_heads", 32},
      {"num_experts", 256},
      {"num_experts_per_token", 8},
      {"num_hidden_layers", 27},
      {"num_key_value_heads", 32},
      {"num_nextn_predict_layers", 0},
      {"num_shared_experts", 1},
      {"q_lora_rank", nullptr},
      {"qk_nope_head_dim", 128},
      {"qk_rope_head_dim", 64},
      {"tie_word_embeddings", false},
      {"v_head_dim", 128},
      {"vocab_size", 163840}};
}

// moonshotai/Kimi-K3 config.json at f831ab66814297da540d832a5235f8e904f29d06
// (text_config, as mlxcel's loader test quotes "the published config.json"):
// 93 layers, full attention on every fourth and the last, KDA of 96 heads of
// 128 with a full-rank output gate, gated MLA (q_lora 1536), 896 experts of
// 3072 in a 3584-wide latent, 16 per token, 2 shared, the first layer dense
// (33792).
Json kimi_k3() {
  Json full = Json::array();
  for (int i = 4; i <= 92; i += 4) {
    full.push_back(i);
  }
  full.push_back(93);
  Json t = {{"model_type", "kimi_linear"},
            {"attn_res_block_size", 12},
            {"first_k_dense_replace", 1},
            {"hidden_act", "situ"},
            {"hidden_size", 7168},
            {"intermediate_size", 33792},
            {"kv_lora_rank", 512},
            {"linear_attn_config",
             {{"full_attn_layers", full},
              {"head_dim", 128},
              {"num_heads", 96},
              {"short_conv_kernel_size", 4},
              {"use_full_rank_gate", true}}},
            {"max_position_embeddings", 1048576},
            {"mla_use_nope", true},
            {"mla_use_output_gate", true},
            {"moe_intermediate_size", 3072},
            {"num_attention_heads", 96},
            {"num_experts", 896},
            {"num_experts_per_token", 16},
            {"num_hidden_layers", 93},
            {"num_key_value_heads", 96},
            {"num_shared_experts", 2},
            {"q_lora_rank", 1536},
            {"qk_nope_head_dim", 128},
            {"qk_rope_head_dim", 64},
            {"routed_expert_hidden_size", 3584},
            {"tie_word_embeddings", false},
            {"v_head_dim", 128},
            {"vocab_size", 163840}};
  return {{"architectures", {"KimiK3ForConditionalGeneration"}},
          {"model_type", "kimi_k3"},
          {"tie_word_embeddings", false},
          {"text_config", t}};
}

// llama.cpp's state of one KDA layer and sequence, F32 values: the last
// kernel - 1 inputs of q, k and v (n_embd_r = 3 (4 - 1) 32 x 128) and one
// 128 x 128 matrix per head (n_embd_s = 128 x 128 x 32).
constexpr std::int64_t kKimiLinearState = 3 * 3 * 32 * 128 + 128 * 128 * 32;

TEST(KimiLinear, ConfigGivesKdaLayersAndMlaOnTheFullOnes) {
  const Model m = from_config(kimi_linear());
  EXPECT_TRUE(m.unchecked_architecture.empty());
  const Architecture& a = m.arch;
  ASSERT_EQ(a.attention.kind, AttentionKind::Hybrid);
  EXPECT_TRUE(uses_mla(a));
  EXPECT_TRUE(a.attention.kda);
  EXPECT_EQ(attention_layer_count(a), 7);
  EXPECT_EQ(recurrent_layer_count(a), 20);
  EXPECT_EQ(a.attention.layer_mixers, "RRRARRRARRRARRRARRRARRRARRA");
  EXPECT_EQ(a.attention.recurrent_state_floats, kKimiLinearState);
  EXPECT_EQ(a.attention.kv_lora_rank, 512);
  EXPECT_EQ(a.attention.qk_rope_head_dim, 64);
  ASSERT_TRUE(a.moe.has_value());
  EXPECT_EQ(a.moe->first_dense_layers, 1);
  EXPECT_EQ(moe_layer_count(a), 26);
  // KV: 7 layers x one 576-wide f16 latent per cell; 20 layers x the state.
  for (const std::int64_t ctx : {std::int64_t{4096}, std::int64_t{1048576}}) {
    const Bytes kv = 7 * std::int64_t{576} * 2 * ctx;
    EXPECT_EQ(kv_cache_bytes(a, {ctx, 1, 512, kv_f16(), kv_f16(), 256}),
              kv + 20 * kKimiLinearState * 4)
        << ctx;
  }
  // Two sequences: twice the state and the cells.
  EXPECT_EQ(kv_cache_bytes(a, {4096, 2, 512, kv_f16(), kv_f16(), 256}),
            2 * (7 * std::int64_t{576} * 2 * 4096 + 20 * kKimiLinearState * 4));
}

// vLLM keeps KDA's recurrent matrix in F32 and its convolution in 16 bits
// (mamba_utils.py kda_state_dtype: (state_dtype, torch.float32)), and pads
// the MLA page to hold a state (HybridAttentionMambaModelConfig). By hand:
// a state 3 x 3 x 4096 x 2 + 32 x 128 x 128 x 4 = 2170880 bytes; an MLA
// token 576 x 2 = 1152; block 16 x cdiv(2170880, 16 x 1152) = 16 x 118 =
// 1888 tokens, a page 1888 x 1152 = 2174976 bytes; 8192 tokens: 7 MLA
// layers x cdiv(8192, 1888) = 35 pages, 20 KDA layers one page each: 55
// pages = 119623680 bytes.
TEST(KimiLinear, VllmKeepsTheKdaMatrixInF32) {
  const Model m = from_config(kimi_linear());
  const VllmRequestKv r = vllm_request_kv(m.arch, 8192, kv_f16(), kv_f16(), 8192);
  EXPECT_EQ(r.block_tokens, 1888);
  EXPECT_EQ(r.bytes, 119623680);
}

// Under transformers a KDA layer keeps every tap of its q, k and v
// convolution in the model's dtype and its recurrent matrix in F32:
// KimiLinearDeltaAttention.forward (huggingface/transformers
// src/transformers/models/kimi_linear/modeling_kimi_linear.py at c1a44bc9)
// caches `torch.cat((q_states, k_states, v_states), dim=-1).transpose(1, 2)`
// through update_conv_state(..., conv_kernel_size=self.conv_kernel_size):
// 2 x 32 x 128 + 32 x 128 = 12288 channels by short_conv_kernel_size 4
// columns, BF16; and the state torch_chunk_kda builds from inputs cast
// `.to(torch.float32)`, (batch, 32 heads, 128, 128) in float32
// (flash-linear-attention's chunk_kda the same: fla/ops/kda/chunk_fwd.py at
// 577d9b51 takes it from chunk_gated_delta_rule_fwd_h). The MLA layers cache
// the 512-wide normed latent and the 64-wide roped key (`past_key_values.
// update(kv_nope, k_rot, self.layer_idx)`), BF16. By hand, the config above,
// 4096 tokens, one sequence:
//   7 MLA layers x (512 + 64) x 2 bytes x 4096 = 33030144
//   20 KDA layers x (4 x 12288 x 2 + 32 x 128 x 128 x 4)
//     = 20 x (98304 + 2097152) = 43909120
TEST(KimiLinear, TransformersKeepsEveryTapAndAnF32Matrix) {
  const InferenceQuery q = transformers_bf16(kimi_linear(), 4096);
  EXPECT_EQ(estimate_inference(q).memory.kv_cache, Bytes{33030144} + 43909120);
  // Kimi K3 (kimi_k3/modular_kimi_k3.py at aa83b548: three
  // KimiK3ShortConvolution states of 96 x 128 channels by 4 columns, the same
  // torch_chunk_kda; KimiK3GatedMLA caches the latent too, `update(kv_nope,
  // k_shared, ...)`), the config above: 24 MLA layers (every fourth and the
  // 93rd), 69 KDA layers, 4096 tokens:
  //   24 x 576 x 2 x 4096 = 113246208
  //   69 x (3 x 4 x 12288 x 2 + 96 x 128 x 128 x 4)
  //     = 69 x (294912 + 6291456) = 454459392
  const Model k3 = from_config(kimi_k3());
  const KvCacheQuery bf16{4096, 1, 0, kv_f16(), kv_f16(), 1, false, 2};
  EXPECT_EQ(transformers_kv_cache_bytes(k3.arch, bf16), Bytes{113246208} + 454459392);
}

TEST(KimiLinear, ParameterCountMatchesLlamaBench) {
  // llama-bench prints 49.12 B params for the converted Kimi-Linear-48B-A3B-
  // Instruct (ggml-org/llama.cpp PR #17592, Q2_K, 16.78 GiB); the norms,
  // A_log, dt_bias and the expert biases left out here are 0.2 M.
  const Model m = from_config(kimi_linear());
  EXPECT_LT(rel(static_cast<double>(m.params), 49.12e9), 0.001) << m.params;
  // One KDA layer by hand: q, k, v 3 x 2304 x 4096; convolutions 3 x 4096 x
  // 4; f_a 2304 x 128, f_b 128 x 4096; beta 2304 x 32; g_a, g_b as f; o 4096
  // x 2304.
  const std::int64_t kda =
      3 * 2304 * 4096 + 3 * 4096 * 4 + 2 * (2304 * 128 + 128 * 4096) + 2304 * 32 + 4096 * 2304;
  EXPECT_EQ(m.arch.attention.recurrent_params, kda);
  // One MLA layer: wq 2304 x 32 x 192, wkv_a 2304 x 576, wkv_b 512 x 32 x
  // 256, wo 32 x 128 x 2304.
  EXPECT_EQ(attention_params_per_layer(m.arch),
            2304 * 32 * 192 + 2304 * 576 + 512 * 32 * 256 + 32 * 128 * 2304);
}

TEST(KimiLinear, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = from_gguf(test::kimi_gguf());
  const Model c = from_config(kimi_linear());
  EXPECT_TRUE(g.unchecked_architecture.empty());
  ASSERT_EQ(g.arch.attention.kind, AttentionKind::Hybrid);
  EXPECT_TRUE(uses_mla(g.arch));
  EXPECT_TRUE(g.arch.attention.kda);
  EXPECT_FALSE(g.arch.attention.kda_full_rank_gate);
  EXPECT_EQ(g.arch.attention.layer_mixers, c.arch.attention.layer_mixers);
  EXPECT_EQ(g.arch.attention.recurrent_state_floats, kKimiLinearState);
  EXPECT_EQ(g.arch.attention.recurrent_params, c.arch.attention.recurrent_params);
  EXPECT_EQ(attention_params_per_layer(g.arch), attention_params_per_layer(c.arch));
  ASSERT_TRUE(g.arch.moe.has_value());
  EXPECT_TRUE(g.arch.moe->selection_bias);
  EXPECT_EQ(g.arch.moe->selection_bias, c.arch.moe->selection_bias);
  for (const std::int64_t ctx : {std::int64_t{4096}, std::int64_t{131072}}) {
    const KvCacheQuery q{ctx, 1, 512, kv_f16(), kv_f16(), 256};
    EXPECT_EQ(kv_cache_bytes(g.arch, q), kv_cache_bytes(c.arch, q)) << ctx;
  }
}

// The catalogue entry, the config.json and the GGUF header give one
// estimate: the KV cache and recurrent state exactly, the compute buffer (the
// same replayed graph) exactly, the weights within 1 % (the catalogue and the
// config by llama.cpp's recipe; the card's count and the counted one).
TEST(KimiLinear, CatalogueConfigAndGgufGiveOneEstimate) {
  auto db = ModelDb::parse(app::embedded_models_json(), "embedded");
  ASSERT_TRUE(db.ok());
  auto found = db->find("moonshotai/Kimi-Linear-48B-A3B-Instruct");
  ASSERT_TRUE(found.ok());
  const Model cat = found->entry->model;
  const Model cfg = from_config(kimi_linear());
  const Model file = from_gguf(test::kimi_gguf());
  const auto estimate = [](const Model& m, std::int64_t ctx) {
    InferenceQuery q;
    q.model = m;
    q.precision = *parse_precision("q4_k_m");
    q.runtime = Runtime::LlamaCpp;
    q.context = ctx;
    return estimate_inference(q);
  };
  for (const std::int64_t ctx : {std::int64_t{4096}, std::int64_t{262144}}) {
    const Estimate c = estimate(cat, ctx);
    for (const Model* m : {&cfg, &file}) {
      const Estimate o = estimate(*m, ctx);
      EXPECT_EQ(o.memory.kv_cache, c.memory.kv_cache) << ctx;
      EXPECT_EQ(o.recurrent_state, c.recurrent_state) << ctx;
      EXPECT_EQ(o.memory.compute, c.memory.compute) << ctx;
    }
  }
  const Precision p = *parse_precision("q4_k_m");
  EXPECT_LT(rel(static_cast<double>(weight_layout(cat, p).total()),
                static_cast<double>(weight_layout(cfg, p).total())),
            0.01);
  EXPECT_EQ(cat.arch.attention.layer_mixers, cfg.arch.attention.layer_mixers);
  EXPECT_EQ(cat.arch.attention.recurrent_params, cfg.arch.attention.recurrent_params);
}

TEST(KimiK3, ConfigGivesLatentExpertsGatesAndTheCardsTotal) {
  const Model m = from_config(kimi_k3());
  EXPECT_TRUE(m.unchecked_architecture.empty());
  const Architecture& a = m.arch;
  ASSERT_EQ(a.attention.kind, AttentionKind::Hybrid);
  EXPECT_EQ(attention_layer_count(a), 24);
  EXPECT_EQ(recurrent_layer_count(a), 69);
  EXPECT_TRUE(a.attention.kda_full_rank_gate);
  EXPECT_TRUE(a.attention.mla_output_gate);
  ASSERT_TRUE(a.moe.has_value());
  EXPECT_EQ(a.moe->latent_size, 3584);
  // The model card: 2.8 T total, 104 B activated (NVIDIA NeMo AutoModel's
  // Kimi K3 page repeats both); the card rounds, so 1 % and 2 %.
  EXPECT_LT(rel(static_cast<double>(m.params), 2.8e12), 0.01) << m.params;
  EXPECT_LT(rel(static_cast<double>(m.active_params), 104e9), 0.02) << m.active_params;
  // State: 3 (4 - 1) 96 x 128 + 128 x 128 x 96 values per KDA layer.
  const std::int64_t state = 3 * 3 * 96 * 128 + 128 * 128 * 96;
  EXPECT_EQ(a.attention.recurrent_state_floats, state);
  EXPECT_EQ(kv_cache_bytes(a, {8192, 1, 512, kv_f16(), kv_f16(), 256}),
            24 * std::int64_t{576} * 2 * 8192 + 69 * state * 4);
}

TEST(KimiK3, GgufHeaderReadsItsExtraTensors) {
  // A kimi-k3 header (conversion/kimi_k3.py at 80fb11ac): as kimi-linear
  // plus q_lora_rank, expert_latent_length, and the tensors that mark a
  // full-rank KDA gate (blk.N.ssm_g) and a gated MLA (blk.N.attn_gate).
  test::KimiShape k3;
  k3.arch = "kimi-k3";
  k3.layers = 93;
  k3.hidden = 7168;
  k3.ffn = 33792;
  k3.heads = 96;
  k3.experts = 896;
  k3.experts_used = 16;
  k3.expert_ffn = 3072;
  k3.shared_experts = 2;
  test::GgufWriter w = test::kimi_gguf(k3);
  w.u32("kimi-k3.attention.q_lora_rank", 1536);
  w.u32("kimi-k3.attention.value_length", 512);
  w.u32("kimi-k3.expert_latent_length", 3584);
  w.tensor("blk.0.ssm_g.weight", {7168, 256}, test::kQ8_0);
  w.tensor("blk.3.attn_gate.weight", {7168, 256}, test::kQ8_0);
  const Model g = from_gguf(w);
  const Model c = from_config(kimi_k3());
  EXPECT_TRUE(g.unchecked_architecture.empty());
  EXPECT_TRUE(g.arch.attention.kda_full_rank_gate);
  EXPECT_TRUE(g.arch.attention.mla_output_gate);
  ASSERT_TRUE(g.arch.moe.has_value());
  EXPECT_EQ(g.arch.moe->latent_size, 3584);
  EXPECT_EQ(g.arch.attention.recurrent_params, c.arch.attention.recurrent_params);
  EXPECT_EQ(attention_params_per_layer(g.arch), attention_params_per_layer(c.arch));
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
  const KvCacheQuery q{65536, 1, 512, kv_f16(), kv_f16(), 256};
  EXPECT_EQ(kv_cache_bytes(g.arch, q), kv_cache_bytes(c.arch, q));
}

// vLLM's hybrid allocator (vllm/v1/kv_cache_interface.py max_memory_usage_bytes;
// HybridAttentionMambaModelConfig): the block size it picks for a Mamba
// hybrid, and per layer kind what one request holds.
TEST(VllmHybridAllocator, Nemotron9bBlockSizeIsVllms672WithA16BitScanState) {
  // tests/data/architecture_figures.csv: vLLM issue #24280 names 672 tokens,
  // from a vLLM that kept Nemotron-H's scan state in 16 bits (the figure
  // works out only so); a config.json naming a 16-bit mamba_ssm_cache_dtype
  // still gets it.
  Json j = nemotron_h();
  j["mamba_ssm_cache_dtype"] = "float16";
  const Model m = from_config(j);
  // By hand: Mamba-2 state (4 - 1) x (128 x 80 + 2 x 8 x 128) + 128 x 80 x 128
  // values in bf16 = 2695168 bytes; one attention token 2 x 8 x 128 x 2 = 4096
  // bytes; 16 x cdiv(2695168, 16 x 4096) = 672.
  const VllmRequestKv r = vllm_request_kv(m.arch, 8192, kv_f16(), kv_f16(), 8192);
  EXPECT_EQ(r.block_tokens, 672);
  const int attention = attention_layer_count(m.arch);
  const int recurrent = recurrent_layer_count(m.arch);
  // Attention layers: cdiv(8192, 672) = 13 pages; recurrent layers one page
  // each; a page is 672 x 4096 bytes.
  EXPECT_EQ(r.bytes, (13 * std::int64_t{attention} + recurrent) * 672 * 4096);
}

// vLLM's NemotronHForCausalLMConfig (vllm/model_executor/models/config.py, as
// ROCm/vllm carries it at 104577fa, read 2026-12-05) sets the scan state's
// dtype to config.json's mamba_ssm_cache_dtype, or "float32" where it names
// none (DEFAULT_MAMBA_SSM_CACHE_DTYPE); mamba2_state_dtype
// (vllm/model_executor/layers/mamba/mamba_utils.py at 02d71083) keeps the
// convolution in the model's dtype. Nemotron-3-Nano and Nemotron-Cascade-2's
// config.json name "float32" themselves.
TEST(VllmHybridAllocator, NemotronHScanStateIsF32ByDefault) {
  for (const char* dtype : {"", "float32"}) {
    Json j = nemotron_h();  // NVIDIA-Nemotron-Nano-9B-v2's config.json values
    if (*dtype != 0) {
      j["mamba_ssm_cache_dtype"] = dtype;
    }
    const Model m = from_config(j);
    // By hand: the convolution (4 - 1) x (128 x 80 + 2 x 8 x 128) = 36864
    // values x 2 bytes = 73728; the scan state 128 x 80 x 128 = 1310720
    // values x 4 bytes = 5242880; 5316608 bytes a layer. One attention token
    // 4096 bytes: 16 x cdiv(5316608, 65536) = 16 x 82 = 1312 tokens a block.
    const VllmRequestKv r = vllm_request_kv(m.arch, 8192, kv_f16(), kv_f16(), 8192);
    EXPECT_EQ(r.block_tokens, 1312) << dtype;
    // 4 attention layers of cdiv(8192, 1312) = 7 pages, 27 Mamba-2 layers of
    // one page (1312 x 4096 = 5373952 bytes, over the state's 5316608).
    EXPECT_EQ(r.bytes, (7 * std::int64_t{4} + 27) * 1312 * 4096) << dtype;
  }
  // The catalogue's entry for the same model is sized the same way.
  auto db = ModelDb::parse(app::embedded_models_json(), "embedded");
  ASSERT_TRUE(db.ok());
  auto found = db->find("nemotron-nano-9b-v2");
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(vllm_request_kv(found->entry->model.arch, 8192, kv_f16(), kv_f16(), 8192).block_tokens,
            1312);
  // Under llama.cpp the whole state stays F32 and the count unchanged.
  EXPECT_EQ(from_config(nemotron_h()).arch.attention.recurrent_state_floats, 36864 + 1310720);
}

TEST(VllmHybridAllocator, SlidingAndChunkedLayersHoldTheirWindowPlusOneStep) {
  // gpt-oss-20b: 24 layers alternating 128-token windows and full attention,
  // 8 KV heads of 64.
  Architecture a;
  a.layers = 24;
  a.hidden_size = 2880;
  a.heads = 64;
  a.kv_heads = 8;
  a.head_dim = 64;
  a.attention.kind = AttentionKind::Sliding;
  a.attention.sliding_window = 128;
  a.attention.sliding_pattern = 2;
  const Bytes token = 2 * 8 * 64 * 2;  // K and V, f16, one layer
  const std::int64_t ctx = 131072;
  const VllmRequestKv r = vllm_request_kv(a, ctx, kv_f16(), kv_f16(), 8192);
  EXPECT_EQ(r.block_tokens, 16);
  // Full: 131072 / 16 pages; windowed: cdiv(127 + 8192, 16) + 1 = 521 pages.
  EXPECT_EQ(r.bytes, (12 * std::int64_t{8192} + 12 * 521) * 16 * token);
  // Llama 4 Scout: 36 chunked layers of 8192 and 12 global ones.
  const Model scout = from_config(llama4_scout());
  const Bytes st = 2 * 8 * 128 * 2;
  const VllmRequestKv s = vllm_request_kv(scout.arch, ctx, kv_f16(), kv_f16(), 8192);
  EXPECT_EQ(s.bytes, (12 * std::int64_t{8192} + 36 * 1024) * 16 * st);
  // A short request holds no more than its own tokens on a windowed layer (+1 block).
  EXPECT_EQ(vllm_request_kv(a, 64, kv_f16(), kv_f16(), 8192).bytes, (12 * 4 + 12 * 5) * 16 * token);
}

TEST(VllmHybridAllocator, TheEstimateUsesIt) {
  InferenceQuery q;
  q.model = from_config(qwen3_next());
  q.precision = *parse_precision("bf16");
  q.context = 262144;
  q.runtime = Runtime::Vllm;
  const Estimate v = estimate_inference(q);
  EXPECT_EQ(v.memory.kv_cache,
            vllm_request_kv(q.model.arch, 262144, kv_f16(), kv_f16(), 8192).bytes);
  // Under 1 GiB of state per layer kind: 12 attention layers of 262144 tokens
  // (2 x 2 x 256 x 2 bytes) are 6 GiB; the state pages add well under 1 GiB.
  EXPECT_GT(v.memory.kv_cache, 6 * kGiB);
  EXPECT_LT(v.memory.kv_cache, 7 * kGiB);
}

// Under transformers a gated delta net keeps all linear_conv_kernel_dim taps
// of its convolution in the model's dtype and its recurrent matrix in F32:
// Qwen3NextGatedDeltaNet.forward (huggingface/transformers
// src/transformers/models/qwen3_next/modular_qwen3_next.py at 2ccc6cae)
// caches `F.pad(mixed_qkv, (self.conv_kernel_size - mixed_qkv.shape[-1],
// 0))`, conv_dim = 2 x 16 x 128 + 32 x 128 = 8192 channels by 4 columns, and
// the state chunk_gated_delta_rule returns, (batch, 32 value heads, 128,
// 128) in float32 (fla-org/flash-linear-attention
// fla/ops/common/chunk_delta_h.py at 990535b7: `final_state =
// k.new_empty(N, H, K, V, dtype=torch.float32)`). The attention layers'
// DynamicCache holds 2 KV heads of 256, K and V, in BF16. By hand, the
// config above (Qwen3-Coder-Next's config.json), 262144 tokens, one sequence:
//   12 layers x 2 x 2 x 256 x 2 bytes x 262144 = 6442450944
//   36 layers x (4 x 8192 x 2 + 32 x 128 x 128 x 4) = 36 x 2162688 = 77856768
TEST(HybridLinearAttention, TransformersKeepsEveryTapAndAnF32Matrix) {
  const InferenceQuery q = transformers_bf16(qwen3_next(), 262144);
  EXPECT_EQ(estimate_inference(q).memory.kv_cache, Bytes{6442450944} + 77856768);
  // llama.cpp's own: 3 taps and the matrix, all F32, 36 x (3 x 8192 + 524288) x 4.
  EXPECT_EQ(recurrent_state_bytes(q.model.arch, 1), 36 * Bytes{3 * 8192 + 524288} * 4);
  // FP32 weights: the convolution in F32 too, 36 x (4 x 8192 + 524288) x 4,
  // beside 12 x 2 x 2 x 256 x 2 bytes x 4096 of a 16-bit K and V.
  const KvCacheQuery f32{4096, 1, 0, kv_f16(), kv_f16(), 1, false, 4};
  EXPECT_EQ(transformers_kv_cache_bytes(q.model.arch, f32),
            12 * Bytes{2 * 2 * 256 * 2} * 4096 + 36 * Bytes{4 * 8192 + 524288} * 4);
}

// Nemotron-H's Mamba-2 layers under transformers: NemotronHHybridDynamicCache
// (src/transformers/models/nemotron_h/modeling_nemotron_h.py at 897753a0)
// allocates torch.zeros(batch, mamba_num_heads x mamba_head_dim + 2 n_groups
// ssm_state_size, conv_kernel, dtype) and (batch, mamba_num_heads,
// mamba_head_dim, ssm_state_size, dtype) a Mamba layer: every tap, in the
// model's dtype. By hand, NVIDIA-Nemotron-Nano-9B-v2's config.json above,
// BF16, 4096 tokens, one sequence:
//   4 attention layers x 2 x 8 KV heads x 128 x 2 bytes x 4096 = 67108864
//   27 Mamba layers x (4 x (10240 + 2 x 8 x 128) + 128 x 80 x 128) x 2
//     = 27 x (49152 + 1310720) x 2 = 73433088
TEST(HybridMamba, NemotronHUnderTransformersKeepsEveryConvolutionTap) {
  EXPECT_EQ(estimate_inference(transformers_bf16(nemotron_h(), 4096)).memory.kv_cache,
            Bytes{67108864} + 73433088);
}

// An architecture willfit does not know is still read from the shared keys,
// but the answer says so instead of passing the shape off as understood:
// "zeta-unknown" (a made-up GGUF name, which llama.cpp 80fb11ac does not
// know either: every name it does is in tests/data/llama_cpp_architectures.txt)
// and MiniMax-Text-01 (transformers' "minimax": lightning linear attention on
// seven layers of eight) have layer kinds the readers do not model. The same
// header under a known name gives no such warning.
bool warns_unknown(const Model& m) {
  InferenceQuery q;
  q.model = m;
  q.precision = *parse_precision("q8_0");
  for (const auto& w : estimate_inference(q).warnings) {
    if (w.find("does not know the architecture") != std::string::npos) {
      return true;
    }
  }
  return false;
}

test::GgufWriter plain_header(const std::string& arch) {
  test::GgufWriter w;
  w.str("general.architecture", arch);
  w.u32(arch + ".block_count", 16);
  w.u32(arch + ".context_length", 8192);
  w.u32(arch + ".embedding_length", 2048);
  w.u32(arch + ".feed_forward_length", 8192);
  w.u32(arch + ".attention.head_count", 16);
  w.u32(arch + ".attention.head_count_kv", 8);
  w.u32(arch + ".vocab_size", 32000);
  w.tensor("token_embd.weight", {2048, 256}, test::kQ8_0);
  return w;
}

TEST(UnknownArchitecture, AGgufOfAnUnknownArchitectureSaysSo) {
  const Model unknown = from_gguf(plain_header("zeta-unknown"));
  EXPECT_EQ(unknown.unchecked_architecture, "'zeta-unknown' (GGUF general.architecture)");
  EXPECT_TRUE(warns_unknown(unknown));
  EXPECT_NE(unchecked_architecture_warning(unknown).find("the weights are the file's own bytes"),
            std::string::npos);
  for (const char* known : {"llama", "qwen3moe", "gemma3", "nemotron_h", "falcon-h1", "plamo2"}) {
    const Model m = from_gguf(plain_header(known));
    EXPECT_TRUE(m.unchecked_architecture.empty()) << known;
    EXPECT_FALSE(warns_unknown(m)) << known;
  }
}

TEST(UnknownArchitecture, AConfigOfAnUnknownModelTypeSaysSo) {
  const Json base = {{"hidden_size", 2048},       {"num_hidden_layers", 16},
                     {"num_attention_heads", 16}, {"num_key_value_heads", 8},
                     {"intermediate_size", 8192}, {"vocab_size", 32000}};
  Json j = base;
  j["model_type"] = "minimax";
  const Model unknown = from_config(j);
  EXPECT_EQ(unknown.unchecked_architecture, "'minimax' (config.json model_type)");
  EXPECT_TRUE(warns_unknown(unknown));
  // A multimodal wrapper names the model twice; one known name is enough.
  j = base;
  j["model_type"] = "qwen2_5_vl";
  j["text_config"] = {{"model_type", "qwen2_5_vl_text"}};
  EXPECT_FALSE(warns_unknown(from_config(j)));
  for (const char* known : {"llama", "mistral", "qwen3_moe", "gemma3_text", "granitemoehybrid"}) {
    j = base;
    j["model_type"] = known;
    EXPECT_FALSE(warns_unknown(from_config(j))) << known;
  }
  // No model_type at all: nothing to name.
  EXPECT_FALSE(warns_unknown(from_config(base)));
}

}  // namespace
}  // namespace willfit

// Qwen3.5 (issue 18): gated delta nets on three layers of four, gated full
// attention on the fourth, one MTP block. The configs are the published
// values each catalogue entry's source names (data/models.json); the GGUF
// headers are what llama.cpp's converter writes for them (conversion/qwen.py
// at 80fb11ac: block_count counts the MTP block and nextn_predict_layers
// names it; ssm.group_count = linear_num_key_heads, ssm.time_step_rank =
// linear_num_value_heads, ssm.state_size = the head width, ssm.inner_size =
// value heads x width; full_attention_interval).
namespace willfit {
namespace {

using Json = nlohmann::json;

// A catalogue entry by id (Qwen3.5 and Gemma 4 below).
Model catalogue_model(const std::string& id) {
  auto db = ModelDb::parse(app::embedded_models_json(), "embedded");
  EXPECT_TRUE(db.ok());
  auto found = db->find(id);
  EXPECT_TRUE(found.ok()) << id;
  return found.ok() ? found->entry->model : Model{};
}

struct Q35Shape {
  int layers;
  int hidden;
  int ffn;  // dense MLP, or 0 for MoE
  int heads;
  int kv_heads;
  bool tied;
  int value_heads;  // delta net; 16 key heads of 128 in every size
  int experts;      // 0: dense
  int experts_used;
  int expert_ffn;
  // The vision tower (Qwen3_5VisionConfig): depth, width, MLP; the family
  // has three (NVIDIA Megatron's Qwen3.5-VL table,
  // a public Python builder of Megatron TransformerConfig for Qwen3.5 (ending
  // 'moe_router_dtype=fp32' and 'return TransformerConfig(**kwargs)')): 12 x 768 (0.8B), 24 x 1024
  // (2B, 4B), 27 x 1152 (9B up).
  int vision_depth = 27;
  int vision_width = 1152;
  int vision_ffn = 4304;
};

// Qwen3_5Config as published: text_config and vision_config (16 heads of
// the small tower's 12, patch 16, temporal patch 2, spatial merge 2, 2304
// position embeddings, out_hidden_size the text width, no deepstack).
Json q35_json(const Q35Shape& s) {
  Json t = {{"model_type", s.experts > 0 ? "qwen3_5_moe_text" : "qwen3_5_text"},
            {"num_hidden_layers", s.layers},
            {"hidden_size", s.hidden},
            {"num_attention_heads", s.heads},
            {"num_key_value_heads", s.kv_heads},
            {"head_dim", 256},
            {"vocab_size", 248320},
            {"max_position_embeddings", 262144},
            {"tie_word_embeddings", s.tied},
            {"attn_output_gate", true},
            {"full_attention_interval", 4},
            {"linear_conv_kernel_dim", 4},
            {"linear_key_head_dim", 128},
            {"linear_value_head_dim", 128},
            {"linear_num_key_heads", 16},
            {"linear_num_value_heads", s.value_heads},
            {"mtp_num_hidden_layers", 1}};
  Json layer_types = Json::array();
  for (int i = 0; i < s.layers; ++i) {
    layer_types.push_back((i + 1) % 4 == 0 ? "full_attention" : "linear_attention");
  }
  t["layer_types"] = layer_types;
  if (s.experts > 0) {
    t["num_experts"] = s.experts;
    t["num_experts_per_tok"] = s.experts_used;
    t["moe_intermediate_size"] = s.expert_ffn;
    t["shared_expert_intermediate_size"] = s.expert_ffn;
  } else {
    t["intermediate_size"] = s.ffn;
  }
  const Json vision = {{"model_type", s.experts > 0 ? "qwen3_5_moe" : "qwen3_5"},
                       {"depth", s.vision_depth},
                       {"hidden_size", s.vision_width},
                       {"intermediate_size", s.vision_ffn},
                       {"num_heads", s.vision_width == 768 ? 12 : 16},
                       {"in_channels", 3},
                       {"patch_size", 16},
                       {"temporal_patch_size", 2},
                       {"spatial_merge_size", 2},
                       {"num_position_embeddings", 2304},
                       {"out_hidden_size", s.hidden},
                       {"deepstack_visual_indexes", Json::array()}};
  return {{"model_type", s.experts > 0 ? "qwen3_5_moe" : "qwen3_5"},
          {"tie_word_embeddings", s.tied},
          {"text_config", t},
          {"vision_config", vision}};
}

test::GgufWriter q35_header(const Q35Shape& s) {
  const std::string arch = s.experts > 0 ? "qwen35moe" : "qwen35";
  test::GgufWriter w;
  w.str("general.architecture", arch);
  w.u32(arch + ".block_count", static_cast<std::uint32_t>(s.layers + 1));
  w.u32(arch + ".nextn_predict_layers", 1);
  w.u32(arch + ".context_length", 262144);
  w.u32(arch + ".embedding_length", static_cast<std::uint32_t>(s.hidden));
  w.u32(arch + ".feed_forward_length", static_cast<std::uint32_t>(s.ffn));
  w.u32(arch + ".attention.head_count", static_cast<std::uint32_t>(s.heads));
  w.u32(arch + ".attention.head_count_kv", static_cast<std::uint32_t>(s.kv_heads));
  w.u32(arch + ".attention.key_length", 256);
  w.u32(arch + ".attention.value_length", 256);
  w.u32(arch + ".ssm.conv_kernel", 4);
  w.u32(arch + ".ssm.state_size", 128);
  w.u32(arch + ".ssm.group_count", 16);
  w.u32(arch + ".ssm.time_step_rank", static_cast<std::uint32_t>(s.value_heads));
  w.u32(arch + ".ssm.inner_size", static_cast<std::uint32_t>(s.value_heads * 128));
  w.u32(arch + ".full_attention_interval", 4);
  w.u32(arch + ".vocab_size", 248320);
  if (s.experts > 0) {
    w.u32(arch + ".expert_count", static_cast<std::uint32_t>(s.experts));
    w.u32(arch + ".expert_used_count", static_cast<std::uint32_t>(s.experts_used));
    w.u32(arch + ".expert_feed_forward_length", static_cast<std::uint32_t>(s.expert_ffn));
    w.u32(arch + ".expert_shared_feed_forward_length", static_cast<std::uint32_t>(s.expert_ffn));
  }
  w.tensor("token_embd.weight", {static_cast<std::uint64_t>(s.hidden), 256}, test::kQ8_0);
  if (!s.tied) {
    w.tensor("output.weight", {static_cast<std::uint64_t>(s.hidden), 256}, test::kQ8_0);
  }
  return w;
}

// The sizes of data/models.json, from the configs their sources name.
const std::vector<std::pair<std::string, Q35Shape>>& q35_sizes() {
  static const std::vector<std::pair<std::string, Q35Shape>> sizes = {
      {"qwen3.5-0.8b", {24, 1024, 3584, 8, 2, true, 16, 0, 0, 0, 12, 768, 3072}},
      {"qwen3.5-27b", {64, 5120, 17408, 24, 4, false, 48, 0, 0, 0}},
      {"qwen3.5-35b-a3b", {40, 2048, 0, 16, 2, false, 32, 256, 8, 512}},
      {"qwen3.5-122b-a10b", {48, 3072, 0, 32, 2, false, 64, 256, 8, 1024}},
      {"qwen3.5-397b-a17b", {60, 4096, 0, 32, 2, false, 64, 512, 10, 1024}},
      {"qwen3.5-2b", {24, 2048, 6144, 8, 2, true, 16, 0, 0, 0, 24, 1024, 4096}},
      {"qwen3.5-4b", {32, 2560, 9216, 16, 4, true, 32, 0, 0, 0, 24, 1024, 4096}},
      {"qwen3.5-9b", {32, 4096, 12288, 16, 4, false, 32, 0, 0, 0}},
      // Qwen3.6 and Qwen3.8 keep the Qwen3.5 networks (qwen35 / qwen35moe GGUFs).
      {"qwen3.6-27b", {64, 5120, 17408, 24, 4, false, 48, 0, 0, 0}},
      {"qwen3.6-35b-a3b", {40, 2048, 0, 16, 2, false, 32, 256, 8, 512}},
      {"qwen3.8-27b", {64, 5120, 17408, 24, 4, false, 48, 0, 0, 0}},
  };
  return sizes;
}

TEST(Qwen35, ConfigGgufAndCatalogueGiveTheSameEstimate) {
  const Precision p = *parse_precision("q4_k_m");
  for (const auto& [id, shape] : q35_sizes()) {
    const Model cat = catalogue_model(id);
    const Model cfg = from_config(q35_json(shape));
    const Model gg = from_gguf(q35_header(shape));
    for (const Model* m : {&cfg, &gg}) {
      EXPECT_TRUE(m->arch.attention.gated_attention) << id;
      EXPECT_EQ(m->arch.mtp_layers, 1) << id;
      EXPECT_EQ(attention_layer_count(m->arch), shape.layers / 4) << id;
      EXPECT_EQ(m->arch.attention.recurrent_params, cat.arch.attention.recurrent_params) << id;
      EXPECT_EQ(m->arch.attention.recurrent_state_floats, cat.arch.attention.recurrent_state_floats)
          << id;
      for (const std::int64_t ctx : {std::int64_t{4096}, std::int64_t{262144}}) {
        const KvCacheQuery q{ctx, 2, 512, kv_f16(), kv_f16(), 256};
        EXPECT_EQ(kv_cache_bytes(m->arch, q), kv_cache_bytes(cat.arch, q)) << id << " " << ctx;
      }
      // Counted from the architecture (the GGUF here holds no real tensors;
      // a text GGUF holds no tower either: its mmproj file does).
      const ParamBreakdown mine = count_params(m->arch);
      const ParamBreakdown theirs = count_params(cat.arch);
      EXPECT_LT(rel(static_cast<double>(mine.total() - mine.vision),
                    static_cast<double>(theirs.total() - theirs.vision)),
                0.001)
          << id;
    }
    // The config's tower is the catalogue's, to the parameter.
    EXPECT_EQ(cfg.arch.vision_params, cat.arch.vision_params) << id;
    EXPECT_EQ(gg.arch.vision_params, 0) << id;
    EXPECT_LT(rel(static_cast<double>(weight_layout(cat, p).total()),
                  static_cast<double>(weight_layout(cfg, p).total())),
              0.01)
        << id;
  }
}

// The published totals: llama-bench's model_n_params of text-only GGUFs
// without the MTP block (0.8B 752,393,024; 27B 26,895,998,464; 122B-A10B
// 122.11 B; the 35B-A3B architecture's 34.66 B), the card's 397 B, and the
// language model of the 2B, 4B and 9B checkpoints (1,881,825,088 and
// 4,205,751,296 from their safetensors headers, 8,953,803,264 llama.cpp's
// n_params; the entries' sources name them), each against the count of the
// config (norms left out: 56 k and 0.7 M of them in the 0.8B and 27B).
TEST(Qwen35, ConfigCountsMatchPublishedTotals) {
  const std::vector<std::pair<std::string, double>> published = {
      {"qwen3.5-0.8b", 752393024.0},
      {"qwen3.5-27b", 26895998464.0},
      {"qwen3.5-35b-a3b", 34.66e9},
      {"qwen3.5-122b-a10b", 122.11e9},
      {"qwen3.5-397b-a17b", 397e9},
      {"qwen3.5-2b", 1881825088.0},
      {"qwen3.5-4b", 4205751296.0},
      {"qwen3.5-9b", 8953803264.0},
      // llama.cpp's n_params of a Qwen3.6-27B GGUF, the Qwen3.8-27B text model's
      // parameter_count, llama-bench of Qwen3.6-35B-A3B-BF16 (the entries' sources).
      {"qwen3.6-27b", 26895998464.0},
      {"qwen3.8-27b", 26895998464.0},
      {"qwen3.6-35b-a3b", 34.66e9},
  };
  for (const auto& [id, shape] : q35_sizes()) {
    const Model cfg = from_config(q35_json(shape));
    const ParamBreakdown b = count_params(cfg.arch);
    double want = 0;
    for (const auto& [pid, n] : published) {
      want = pid == id ? n : want;
    }
    const double tolerance = id == "qwen3.5-397b-a17b" ? 0.005 : 0.001;
    EXPECT_LT(rel(static_cast<double>(b.total() - b.mtp - b.vision), want), tolerance) << id;
  }
  // The MTP block: a qwen35 27B GGUF that carries it (a fine-tune of the
  // same shape, llama-bench model_n_params 27,320,697,856; a public Python llama-bench JSONL
  // fixture writer (make_jsonl_row for pp and tg rows; write_jsonl_file)) holds one more gated
  // attention layer, MLP and eh_proj.
  const Model m27 = from_config(q35_json(q35_sizes()[1].second));
  const ParamBreakdown b27 = count_params(m27.arch);
  EXPECT_LT(rel(static_cast<double>(b27.total() - b27.vision), 27320697856.0), 0.001);
  // The same with the block for the 2B and 9B: llama.cpp reads 1,942,653,248
  // parameters from unsloth's Qwen3.5-2B-UD-Q8_K_XL.gguf (the 2B checkpoint's
  // language model plus its 60,828,160-parameter MTP block; a public Markdown profile note of a
  // GGUF CPU runtime ('roughly 1.06 GiB of weight bytes are q8_0', QUANT-GGUF-CIQ-GEMM G5)) and
  // llama-bench 9,197,093,888 from a qwen35 9B GGUF with the block (a public Markdown evaluator
  // receipt of a macOS real-model trial (Generation 70.428617 tok/s; 'Phase 10 Windows-host
  // gates')).
  for (const auto& [id, with_mtp] : {std::pair<std::string, double>{"qwen3.5-2b", 1942653248.0},
                                     std::pair<std::string, double>{"qwen3.5-9b", 9197093888.0}}) {
    for (const auto& [sid, shape] : q35_sizes()) {
      if (sid == id) {
        const Model m = from_config(q35_json(shape));
        const ParamBreakdown b = count_params(m.arch);
        EXPECT_LT(rel(static_cast<double>(b.total() - b.vision), with_mtp), 0.001) << id;
      }
    }
  }
}

// The vision tower from vision_config against the checkpoints' own
// tensors: Qwen/Qwen3.5-2B at 15852e8c and Qwen3.5-4B at 851bf6e8 hold
// 331,416,576 and 333,514,240 vision parameters by their safetensors headers
// (a public Python test of Qwen3.5 GPU smoke runs (ending 'primary, control = pair' ...
// '_is_identical_across_slots(self, pair)'), tests/data/README.md); Qwen3.5-9B at c2022362
// holds 9.653 B in all, its index's total_size 19,306,216,416 bytes of BF16 (a public pytest file
// of a Qwen3.5-9B profile ('assert out[total_size] == 19_306_216_416',
// test_summary_mentions_the_load_bearing_facts)): the language model (8,953,803,264), the MTP block
// and the tower.
TEST(Qwen35, VisionTowerFromItsConfigIsTheCheckpoints) {
  const auto shape = [](const std::string& id) {
    for (const auto& [sid, s] : q35_sizes()) {
      if (sid == id) {
        return s;
      }
    }
    return Q35Shape{};
  };
  EXPECT_EQ(from_config(q35_json(shape("qwen3.5-2b"))).arch.vision_params, 331416576);
  EXPECT_EQ(from_config(q35_json(shape("qwen3.5-4b"))).arch.vision_params, 333514240);
  const Model m9 = from_config(q35_json(shape("qwen3.5-9b")));
  // (The text model's norms, which count_params leaves out, are 3e-5 of it.)
  EXPECT_LT(rel(static_cast<double>(count_params(m9.arch).total()), 19306216416.0 / 2), 1e-4);
  // The 2B's language model + tower + MTP block is its header total.
  const Model m2 = from_config(q35_json(shape("qwen3.5-2b")));
  EXPECT_LT(rel(static_cast<double>(count_params(m2.arch).total()), 2274069824.0), 1e-4);
}

// Ministral 3: config.json (text_config ministral3, vision_config pixtral)
// and the catalogue give the same model; the text counts against the cards'
// "3.4B" and "13.5B Language Model" (Megatron-Bridge's provider docstrings);
// the 8B's official Q5_K_M file is checked in AccuracyGguf (row H50).
TEST(Ministral3, ConfigAndCatalogueAgree) {
  const std::vector<std::tuple<std::string, int, int, int, bool, double>> sizes = {
      {"ministral-3-3b", 26, 3072, 9216, true, 3.4e9},
      {"ministral-3-8b", 34, 4096, 14336, false, 0},
      {"ministral-3-14b", 40, 5120, 16384, false, 13.5e9}};
  for (const auto& [id, layers, hidden, ffn, tied, card] : sizes) {
    const Json j = {{"model_type", "mistral3"},
                    {"spatial_merge_size", 2},
                    {"text_config",
                     {{"model_type", "ministral3"},
                      {"num_hidden_layers", layers},
                      {"hidden_size", hidden},
                      {"intermediate_size", ffn},
                      {"num_attention_heads", 32},
                      {"num_key_value_heads", 8},
                      {"head_dim", 128},
                      {"vocab_size", 131072},
                      {"max_position_embeddings", 262144},
                      {"tie_word_embeddings", tied}}},
                    {"vision_config",
                     {{"model_type", "pixtral"},
                      {"hidden_size", 1024},
                      {"intermediate_size", 4096},
                      {"num_hidden_layers", 24},
                      {"num_attention_heads", 16},
                      {"patch_size", 14},
                      {"image_size", 1540}}}};
    const Model cfg = from_config(j);
    const Model cat = catalogue_model(id);
    EXPECT_EQ(cfg.arch.vision_params, cat.arch.vision_params) << id;
    const ParamBreakdown b = count_params(cfg.arch);
    EXPECT_LT(rel(static_cast<double>(b.total()), static_cast<double>(cat.params)), 0.001) << id;
    if (card > 0) {
      EXPECT_LT(std::abs(static_cast<double>(b.total() - b.vision) - card), 0.05e9) << id;
    }
    const KvCacheQuery q{32768, 1, 512, kv_f16(), kv_f16(), 256};
    EXPECT_EQ(kv_cache_bytes(cfg.arch, q), kv_cache_bytes(cat.arch, q)) << id;
  }
}

// A hub safetensors checkpoint of a multimodal model holds the tower's
// tensors beside the language model's: they are the projector term (its
// exact count replaces the config's), not weights, so the tower is counted
// once and --text-only leaves it out, under vLLM and transformers alike.
TEST(Qwen35, SafetensorsCheckpointCountsItsTowerOnce) {
  const Model cfg = from_config(q35_json(q35_sizes()[0].second));  // 0.8B
  ASSERT_GT(cfg.arch.vision_params, 0);
  const std::string file = test::safetensors_file({
      {"model.language_model.embed_tokens.weight", "BF16", {248320, 1024}, 4},
      {"model.language_model.layers.0.mlp.up_proj.weight", "BF16", {3584, 1024}, 4},
      {"model.visual.blocks.0.attn.qkv.weight", "BF16", {2304, 768}, 4},
      {"model.visual.merger.linear_fc2.weight", "BF16", {1024, 3072}, 4},
      {"mtp.fc.weight", "BF16", {1024, 2048}, 4},
  });
  const auto size = safetensors_header_size(file.substr(0, 8), file.size());
  ASSERT_TRUE(size.ok());
  const auto h = read_safetensors(file.substr(0, *size), file.size());
  ASSERT_TRUE(h.ok()) << h.error().message;
  const std::int64_t tower = 2304 * 768 + 1024 * 3072;
  EXPECT_EQ(h->encoder_params, tower);
  EXPECT_EQ(h->layers, 1);  // visual.blocks.N is not a block of the language model
  const Model m = model_from_safetensors(*h, "qwen3.5-0.8b", &cfg);
  EXPECT_EQ(m.arch.vision_params, tower);
  EXPECT_EQ(*m.file_weight_bytes, h->bytes - 2 * tower);
  for (const Runtime rt : {Runtime::Vllm, Runtime::Transformers}) {
    InferenceQuery q;
    q.model = m;
    q.precision = *parse_precision("bf16");
    q.runtime = rt;
    const Estimate e = estimate_inference(q);
    EXPECT_EQ(e.memory.projector, 2 * tower);
    EXPECT_EQ(e.model_weight_bytes + e.memory.projector, h->bytes);
    q.text_only = true;
    const Estimate text = estimate_inference(q);
    EXPECT_EQ(text.memory.projector, 0);
    EXPECT_EQ(text.model_weight_bytes, e.model_weight_bytes);
  }
}

// Qwen3.5-0.8B's llama.cpp load log (tests/data/architecture_figures.csv):
// 262144 cells over 4 sequences, KV 3072.00 MiB on 6 layers, RS 77.06 MiB.
TEST(Qwen35, SmallestEntryReproducesItsLoadLog) {
  const Model cat = catalogue_model("qwen3.5-0.8b");
  const KvCacheQuery q{65536, 4, 512, kv_f16(), kv_f16(), 256};
  const Bytes state = recurrent_state_bytes(cat.arch, 4);
  EXPECT_EQ(kv_cache_bytes(cat.arch, q) - state, 3072 * kMiB);
  EXPECT_NEAR(static_cast<double>(state) / static_cast<double>(kMiB), 77.06, 0.005);
}

// Qwen3.5-35B-A3B in ggml-org/llama.cpp#20587 (runtime-logs L17): 4 slots
// of 4096 cells, KV 80.00 MiB on 10 layers, RS 251.25 MiB on the other 30.
TEST(Qwen35, MoeEntryReproducesItsLoadLog) {
  const Model cat = catalogue_model("qwen3.5-35b-a3b");
  const Bytes state = recurrent_state_bytes(cat.arch, 4);
  EXPECT_EQ(state, 251 * kMiB + kMiB / 4);
  EXPECT_EQ(kv_cache_bytes(cat.arch, {1024, 4, 512, kv_f16(), kv_f16(), 256}) - state, 80 * kMiB);
}

// llama.cpp takes the layer kinds from attention.recurrent_layers when a
// file has it, and from full_attention_interval (4 when absent) otherwise
// (qwen35.cpp load_arch_hparams); a config without layer_types gets them
// from full_attention_interval (Qwen3_5TextConfig.__post_init__).
TEST(Qwen35, LayerKindsFromFlagsOrTheDefaultInterval) {
  const Q35Shape s = q35_sizes()[0].second;
  test::GgufWriter flagged;
  flagged.str("general.architecture", "qwen35");
  flagged.u32("qwen35.block_count", 8);
  flagged.u32("qwen35.embedding_length", 1024);
  flagged.u32("qwen35.attention.head_count", 8);
  flagged.u32("qwen35.attention.head_count_kv", 2);
  flagged.u32("qwen35.attention.key_length", 256);
  flagged.u32("qwen35.ssm.conv_kernel", 4);
  flagged.u32("qwen35.ssm.state_size", 128);
  flagged.u32("qwen35.ssm.group_count", 16);
  flagged.u32("qwen35.ssm.time_step_rank", 16);
  flagged.u32("qwen35.ssm.inner_size", 2048);
  flagged.u32("qwen35.vocab_size", 248320);
  test::GgufWriter plain = flagged;  // no interval key: llama.cpp's 4
  flagged.u32_array("qwen35.attention.recurrent_layers", {1, 0, 1, 1, 0, 1, 1, 1});
  flagged.tensor("token_embd.weight", {1024, 256}, test::kQ8_0);
  plain.tensor("token_embd.weight", {1024, 256}, test::kQ8_0);
  const Model f = from_gguf(flagged);
  EXPECT_EQ(f.arch.attention.layer_mixers, "RARRARRR");
  EXPECT_EQ(attention_layer_count(f.arch), 2);
  const Model d = from_gguf(plain);
  EXPECT_EQ(d.arch.attention.layer_mixers, "RRRARRRA");
  // Either way the delta nets' sizes are read, so both files replay their
  // graph (a flagged file once kept the closed form).
  for (const Model* m : {&f, &d}) {
    EXPECT_EQ(m->arch.attention.delta_net_k_heads, 16);
    EXPECT_EQ(m->arch.attention.delta_net_v_heads, 16);
    EXPECT_EQ(m->arch.attention.delta_net_head_dim, 128);
    EXPECT_EQ(m->arch.attention.delta_net_conv, 4);
    EXPECT_TRUE(m->arch.attention.gated_attention);
  }

  Json j = q35_json(s);
  j["text_config"].erase("layer_types");
  const Model c = from_config(j);
  EXPECT_EQ(attention_layer_count(c.arch), 6);
  EXPECT_EQ(recurrent_layer_count(c.arch), 18);
}

// vLLM keeps Qwen3.5's delta-net recurrent matrix in config.json's
// mamba_ssm_dtype (Qwen3_5ForConditionalGenerationConfig in
// vllm/model_executor/models/config.py, as jasonboukheir/vllm carries it at
// 3fe70dc7; gated_delta_net_state_dtype in qwen3_5.py at 00def4f8), the
// convolution in the model's dtype; without the key ("auto") both in the
// model's dtype. Qwen3.5-27B's config.json (text_config: 64 layers, every
// fourth full attention of 4 KV heads of 256; 16 key and 48 value heads of
// 128 behind 4 taps) names "float32".
TEST(VllmHybridAllocator, Qwen35RecurrentMatrixFollowsMambaSsmDtype) {
  const Q35Shape s{64, 5120, 17408, 24, 4, false, 48, 0, 0, 0};
  Json j = q35_json(s);
  j["text_config"]["mamba_ssm_dtype"] = "float32";
  const Model m = from_config(j);
  ASSERT_EQ(attention_layer_count(m.arch), 16);
  ASSERT_EQ(recurrent_layer_count(m.arch), 48);
  // By hand: conv_dim 2 x 16 x 128 + 48 x 128 = 10240; the convolution
  // (4 - 1) x 10240 = 30720 values x 2 bytes = 61440; the matrix
  // 48 x 128 x 128 = 786432 values x 4 bytes = 3145728; 3207168 bytes a
  // layer. One attention token 2 x 4 x 256 x 2 = 4096 bytes: the block is
  // 16 x cdiv(3207168, 16 x 4096) = 16 x 49 = 784 tokens.
  const VllmRequestKv r = vllm_request_kv(m.arch, 8192, kv_f16(), kv_f16(), 8192);
  EXPECT_EQ(r.block_tokens, 784);
  // 16 attention layers of cdiv(8192, 784) = 11 pages and 48 delta-net
  // layers of one page (784 x 4096 = 3211264 bytes, over 3207168).
  EXPECT_EQ(r.bytes, (16 * std::int64_t{11} + 48) * 784 * 4096);
  // Without the key: (30720 + 786432) x 2 = 1634304 bytes, 16 x
  // cdiv(1634304, 65536) = 16 x 25 = 400 tokens.
  EXPECT_EQ(
      vllm_request_kv(from_config(q35_json(s)).arch, 8192, kv_f16(), kv_f16(), 8192).block_tokens,
      400);
  // The catalogue's entry of the same model is sized as its config.json.
  EXPECT_EQ(vllm_request_kv(catalogue_model("qwen3.5-27b").arch, 8192, kv_f16(), kv_f16(), 8192)
                .block_tokens,
            784);
  // A GGUF names no mamba_ssm_dtype: vLLM's "auto", the model's dtype.
  EXPECT_EQ(from_gguf(q35_header(s)).arch.attention.vllm_f32_state_floats, 0);
  // llama.cpp's count is unchanged (its state is F32 whole).
  EXPECT_EQ(m.arch.attention.recurrent_state_floats, 30720 + 786432);
}

// vLLM's own DeepSeek-V4 layout (estimate.cpp vllm_deepseek_v4_request_bytes
// has the sources: deepseek_v4_attention.py, deepseek_compressor.py and
// sparse_swa.py in vllm-project/vllm; kv_cache_interface.py and
// kv_cache_utils.py as jasonboukheir/vllm carries them). DeepSeek-V4-Flash's
// config.json: 43 layers, compress_ratios two 0s then 4 and 128 alternating
// (21 ratio-4, 20 ratio-128), sliding_window 128, head_dim 512,
// index_head_dim 128.
TEST(VllmDeepseekV4, FlashRequestFollowsVllmsLayerTuples) {
  const Model m = catalogue_model("deepseek-v4-flash");
  ASSERT_EQ(m.arch.layers, 43);
  ASSERT_EQ(compressed_layer_count(m.arch, 'C'), 21);
  ASSERT_EQ(compressed_layer_count(m.arch, 'H'), 20);
  // Pages, rounded up to 576 bytes: ratio-4 pooled keys 256 / 4 x 584 =
  // 37376 -> 37440; indexer keys 64 x (128 + 4) = 8448 -> 8640; ratio-128
  // pooled keys 2 x 584 = 1168 -> 1728: a tuple of 37440 + 8640 + 1728 =
  // 47808 bytes, 21 tuples (21 ratio-4 layers at two sizes, 20 at one).
  // Window groups: the raw-key windows, 43 layers of 64 x 584 -> 37440;
  // the ratio-4 compressor states, 4 x (2 x 2 x 512) x 4 = 32768 -> 32832,
  // padded to 37440, and the indexer's 4 x (2 x 2 x 128) x 4 = 8192 -> 8640,
  // 21 layers each; the ratio-128 states 8 x (2 x 512) x 4 = 32768 -> 37440,
  // 20 layers. Counts 21, 43, 21, 20: the d from 21 to 43 padding least is
  // 22 (pads 1 + 1 + 1 + 2 = 5; 21 pads 0 + 20 + 0 + 1); the 43 windows split
  // in cdiv(43, 22) = 2 groups (22 and 21), N = 22 tuples.
  // At 8192 tokens and 8192 in flight: cdiv(8192, 256) = 32 pages; each
  // window group cdiv(min(127 + 8192, 8192), 64) + 1 = 129; the ratio-4
  // states cdiv(min(7 + 8192, 8192), 4) + 1 = 2049; the ratio-128 states
  // cdiv(min(127 + 8192, 8192), 8) + 1 = 1025.
  const VllmRequestKv r = vllm_request_kv(m.arch, 8192, kv_f16(), kv_f16(), 8192);
  EXPECT_EQ(r.bytes, std::int64_t{22} * 47808 * (32 + 2 * 129 + 2049 + 1025));
  EXPECT_EQ(r.block_tokens, 256);
  EXPECT_EQ(r.not_modelled, "");
  // At 1048576 tokens: 4096 pages; windows cdiv(8319, 64) + 1 = 131; ratio-4
  // states cdiv(8199, 4) + 1 = 2051; ratio-128 states cdiv(8319, 8) + 1 = 1041.
  EXPECT_EQ(vllm_request_kv(m.arch, 1048576, kv_f16(), kv_f16(), 8192).bytes,
            std::int64_t{22} * 47808 * (4096 + 2 * 131 + 2051 + 1041));
  // vLLM keeps DeepSeek-V4's cache in FP8 (fp8_ds_mla) whatever is asked,
  // and says so: the answer's KV type is fp8, not the one asked for.
  EXPECT_EQ(
      vllm_request_kv(m.arch, 8192, *parse_kv_type("q8_0"), *parse_kv_type("q8_0"), 8192).bytes,
      r.bytes);
  EXPECT_EQ(r.held_type, "fp8");
  InferenceQuery q;
  q.model = m;
  q.precision = *parse_precision("fp8");
  q.devices.devices.push_back(*raw_device("1024gb"));
  q.runtime = Runtime::Vllm;
  q.context = 8192;
  EXPECT_EQ(estimate_inference(q).kv_type_held, "fp8");
  q.model = catalogue_model("llama-3.1-8b");
  EXPECT_EQ(estimate_inference(q).kv_type_held, "");
}

// vLLM's own Qwen4Exp layout (estimate.cpp vllm_request_kv has the sources:
// qsa.py and indexer_qsa.py in vllm-project/vllm vllm/models/qwen4_exp/nvidia/
// at 010efafd, common/qsa_cache.py at 02001b44). Qwen3.8-Flash-Next's
// text_config (test_architectures_2026.cpp qwen38_text): 48 layers, every
// fourth full_attention (12 QSA layers, 36 gated delta nets), 2 KV heads of
// 256, indexer_head_dim 128, indexer_kv_heads 1, indexer_compress_ratio 4;
// delta nets of 16 key and 48 value heads of 128, conv kernel 4.
TEST(VllmQwen4Exp, FlashNextRequestFollowsQsaCaches) {
  const Model m = catalogue_model("qwen3.8-flash-next");
  ASSERT_EQ(m.arch.attention.index_block, 4);
  ASSERT_EQ(m.arch.attention.index_head_dim, 128);
  // Main cache a token and layer (FullAttentionSpec, BF16): K and V of
  // 2 heads x 256 = 2 x 512 x 2 = 2048 bytes. A delta-net layer's state in
  // BF16: conv (4 - 1) x (2 x 16 x 128 + 48 x 128) = 30720 values and the
  // recurrent 48 x 128 x 128 = 786432: 817152 x 2 = 1634304 bytes. The block
  // grows in 16s until its main page holds it: 16 x cdiv(1634304, 16 x 2048)
  // = 16 x 50 = 800 tokens, a main page 800 x 2048 = 1638400 bytes (the
  // state page padded to it). Beside each, the pooled indexer keys (one per
  // 4 tokens, 128 BF16): 800 / 4 x 128 x 2 = 51200 bytes; the raw-key ring,
  // one page a request: 4 rows of 128 + 3 x 4 = 140 BF16 = 1120 bytes.
  // At 8192 tokens: cdiv(8192, 800) = 11 pages.
  //   12 x 11 x (1638400 + 51200) = 223027200
  //   12 x 1120                   =     13440
  //   36 x 1638400                =  58982400
  const VllmRequestKv r = vllm_request_kv(m.arch, 8192, kv_f16(), kv_f16(), 8192);
  EXPECT_EQ(r.block_tokens, 800);
  EXPECT_EQ(r.bytes, std::int64_t{223027200} + 13440 + 58982400);
  EXPECT_EQ(r.not_modelled, "");
  EXPECT_EQ(r.held_type, "");
}

// vLLM's own dots.llm3 layout (estimate.cpp vllm_request_kv has the sources:
// vllm-project/vllm vllm/models/dots3_note/nvidia/model.py and attention.py
// at 055e47c2, flashattn_mla_sparse.py at 851a3c84). dots3-note-prev's
// config.json (test_architectures_2026.cpp dots3_note): 46 layers, full on
// 0, 1 and i % 4 == 1 (13, each with the indexer), 33 windowed;
// swa_kv_lora_rank 1024 + swa_qk_rope_head_dim 64 = 1088, the row every
// layer's cache holds; index_head_dim 128; sliding_window_size 513.
TEST(VllmDots3Note, RequestFollowsPaddedRows) {
  const Model m = catalogue_model("dots3-note-prev");
  ASSERT_EQ(m.arch.layers, 46);
  ASSERT_EQ(indexer_layer_count(m.arch), 13);
  // 64-token pages, BF16: a row page 64 x 1088 x 2 = 139264 bytes; an
  // indexer page 64 x (128 + 4) = 8448 bytes. At 8192 tokens and 8192 in
  // flight: cdiv(8192, 64) = 128 pages on a full layer; the window
  // cdiv(min(512 + 8192, 8192), 64) + 1 = 129 pages.
  //   13 x 128 x (139264 + 8448) = 245792768
  //   33 x 129 x 139264          = 592846848
  const VllmRequestKv r = vllm_request_kv(m.arch, 8192, kv_f16(), kv_f16(), 8192);
  EXPECT_EQ(r.block_tokens, 64);
  EXPECT_EQ(r.bytes, std::int64_t{245792768} + 592846848);
  EXPECT_EQ(r.not_modelled, "");
  // At 131072 tokens: 2048 pages; the window cdiv(8704, 64) + 1 = 137.
  EXPECT_EQ(vllm_request_kv(m.arch, 131072, kv_f16(), kv_f16(), 8192).bytes,
            std::int64_t{13} * 2048 * (139264 + 8448) + std::int64_t{33} * 137 * 139264);
}

}  // namespace
}  // namespace willfit

// Gemma 4 (issue 18): five sliding-window layers then a global one whose
// head width (global_head_dim 512), KV heads (num_global_key_value_heads)
// and K = V projection are their own; 26B-A4B adds 128 experts beside each
// layer's dense MLP. Configs: the values the catalogue entries' sources name
// (data/models.json); GGUF headers: what llama.cpp's converter writes
// (conversion/gemma.py Gemma4Model at 80fb11ac: key_length = the global
// width, key_length_swa the windowed one, head_count_kv and
// sliding_window_pattern per layer). KV sizes worked out by hand from
// llama-kv-cache.cpp / llama-hparams.cpp.
namespace willfit {
namespace {

using Json = nlohmann::json;

using G4Shape = test::Gemma4Shape;

const G4Shape kGemma4_31b{60, 5376, 21504, 32, 16, 4, 0, 0, 0};
const G4Shape kGemma4_26b{30, 2816, 2112, 16, 8, 2, 128, 8, 704};

Json g4_json(const G4Shape& s) {
  Json layer_types = Json::array();
  for (int i = 0; i < s.layers; ++i) {
    layer_types.push_back((i + 1) % 6 == 0 ? "full_attention" : "sliding_attention");
  }
  Json t = {{"model_type", "gemma4_text"},
            {"num_hidden_layers", s.layers},
            {"hidden_size", s.hidden},
            {"intermediate_size", s.ffn},
            {"num_attention_heads", s.heads},
            {"num_key_value_heads", s.kv_heads},
            {"num_global_key_value_heads", s.global_kv_heads},
            {"head_dim", 256},
            {"global_head_dim", 512},
            {"vocab_size", 262144},
            {"max_position_embeddings", 262144},
            {"sliding_window", 1024},
            {"attention_k_eq_v", true},
            {"tie_word_embeddings", true},
            {"num_kv_shared_layers", 0},
            {"hidden_size_per_layer_input", 0},
            {"layer_types", layer_types}};
  if (s.experts > 0) {
    t["enable_moe_block"] = true;
    t["num_experts"] = s.experts;
    t["top_k_experts"] = s.experts_used;
    t["moe_intermediate_size"] = s.expert_ffn;
  }
  // The vision tower both sizes share (google/gemma-4-31B-it's and
  // 26B-A4B-it's vision_config as public code pins it:
  // a public Python Gemma 4 preset table (GEMMA4_CONFIG, GEMMA4_VISION_CONFIG; 'The gemma-4-12B
  // checkpoints are the separate gemma4_unified architecture'); a public Python Gemma 4 vision
  // sidecar compiler (__all__ with compile_vision_sidecar, expected_vision_specs,
  // validate_vision_sources); a public Go test of an MLX Gemma 4 vision tower (loadVisionWeights,
  // 'expected explicit error for missing tensor')).
  const Json vision = {{"model_type", "gemma4_vision"},
                       {"hidden_size", 1152},
                       {"intermediate_size", 4304},
                       {"num_hidden_layers", 27},
                       {"num_attention_heads", 16},
                       {"num_key_value_heads", 16},
                       {"head_dim", 72},
                       {"patch_size", 16},
                       {"pooling_kernel_size", 3},
                       {"position_embedding_size", 10240},
                       {"standardize", true}};
  return {{"model_type", "gemma4"}, {"text_config", t}, {"vision_config", vision}};
}

test::GgufWriter g4_header(const G4Shape& s) {
  return test::gemma4_gguf(s);
}

// Gemma 4 31B at 131072 tokens, one sequence, f16, cells padded to 256,
// ubatch 512. Windowed layers (50): min(131072, 1024 + 512) = 1536 cells x
// 2 (K, V) x 16 heads x 256 x 2 bytes = 25,165,824 each. Global layers (10):
// 131072 cells x 4 heads x 512 x 2 bytes, K and V = 1,073,741,824 each.
// Without flash attention llama.cpp pads V to the widest layer (16 x 256 =
// 4096 values), so a global layer's V doubles to 1,073,741,824 on its own.
// A public calculator that charges the window as 1024 cells gets
// 11,576,279,040 (a public unittest file of a model-metadata client (its last test checks JsonCache
// file modes 0o600 and 0o700)) = 50 x 2 x 16 x 256 x 2 x 1024 + the same global part.
TEST(Gemma4, GlobalLayersCacheTheirOwnShape) {
  const Model cat = catalogue_model("gemma-4-31b");
  const Bytes windowed = 50 * Bytes{25165824};
  const Bytes global = 10 * Bytes{1073741824};
  const KvCacheQuery q{131072, 1, 512, kv_f16(), kv_f16(), 256};
  EXPECT_EQ(kv_cache_bytes(cat.arch, q), windowed + global);
  KvCacheQuery padded = q;
  padded.v_rows_padded = true;
  EXPECT_EQ(kv_cache_bytes(cat.arch, padded), windowed + global + 10 * Bytes{536870912});
  const KvCacheQuery q1024{131072, 1, 0, kv_f16(), kv_f16(), 1};
  EXPECT_EQ(kv_cache_bytes(cat.arch, q1024), Bytes{11576279040});
}

// Catalogue, config.json and GGUF header: the same KV cache, the same count;
// the text counts against llama-bench's totals of the text GGUFs (31B
// 30.70 B, 26B-A4B 25.23 B; kyuz0/amd-strix-halo-toolboxes at d1a34be), and
// the 26B-A4B with its tower against the 25.8B Ollama's page shows for the
// package gemma4:26b-a4b-it-q8_0 (blob 6bfaf9a8cb37), which holds both.
TEST(Gemma4, ConfigGgufAndCatalogueAgree) {
  const Precision p = *parse_precision("q4_k_m");
  const std::vector<std::tuple<std::string, G4Shape, double>> cases = {
      {"gemma-4-31b", kGemma4_31b, 30.70e9}, {"gemma-4-26b-a4b", kGemma4_26b, 25.23e9}};
  for (const auto& [id, shape, published] : cases) {
    const Model cat = catalogue_model(id);
    const Model cfg = from_config(g4_json(shape));
    const Model gg = from_gguf(g4_header(shape));
    const ParamBreakdown counted = count_params(cfg.arch);
    EXPECT_LT(rel(static_cast<double>(counted.total() - counted.vision), published), 0.002) << id;
    EXPECT_EQ(cfg.arch.vision_params, cat.arch.vision_params) << id;
    if (id == "gemma-4-26b-a4b") {
      EXPECT_LT(rel(static_cast<double>(counted.total()), 25.8e9), 0.002);
    }
    for (const Model* m : {&cfg, &gg}) {
      EXPECT_EQ(m->arch.attention.kind, AttentionKind::Sliding) << id;
      EXPECT_EQ(m->arch.attention.sliding_pattern, 6) << id;
      EXPECT_EQ(m->arch.head_dim, 256) << id;
      EXPECT_EQ(m->arch.kv_heads, shape.kv_heads) << id;
      EXPECT_EQ(m->arch.attention.global_head_dim, 512) << id;
      EXPECT_EQ(m->arch.attention.global_kv_heads, shape.global_kv_heads) << id;
      EXPECT_TRUE(m->arch.attention.global_k_eq_v) << id;
      for (const std::int64_t ctx : {std::int64_t{4096}, std::int64_t{131072}}) {
        for (const bool padded : {false, true}) {
          KvCacheQuery q{ctx, 2, 512, kv_f16(), kv_f16(), 256};
          q.v_rows_padded = padded;
          EXPECT_EQ(kv_cache_bytes(m->arch, q), kv_cache_bytes(cat.arch, q)) << id << " " << ctx;
        }
      }
      const ParamBreakdown mine = count_params(m->arch);
      const ParamBreakdown theirs = count_params(cat.arch);
      EXPECT_LT(rel(static_cast<double>(mine.total() - mine.vision),
                    static_cast<double>(theirs.total() - theirs.vision)),
                0.001)
          << id;
    }
    if (shape.experts > 0) {
      EXPECT_EQ(gg.arch.moe->shared_experts, 3) << "the dense 2112-wide MLP, in 704-wide experts";
      EXPECT_EQ(cfg.arch.moe->shared_experts, 3);
      EXPECT_EQ(cfg.arch.moe->experts_per_token, 8);
    }
    EXPECT_LT(rel(static_cast<double>(weight_layout(cat, p).total()),
                  static_cast<double>(weight_layout(cfg, p).total())),
              0.01)
        << id;
  }
}

// Gemma 4 E2B and E4B (issue 19): per-layer embeddings of 256, the last 20
// (E2B) or 18 (E4B) layers reading the KV of the last layers that keep
// one, a 512-token window on four layers of five (E2B) or five of six, one
// or two KV heads on every layer, V of its own; E2B's KV-sharing layers
// with an MLP of 2 x 6144 (use_double_wide_mlp). Configs: the text_config
// values the catalogue entries' sources name (
// a public Rust test file of a config parser (test_parse_gemma4_e2b_config; its last test
// test_parse_nllb_rejects_missing_required_dimension); a public Python unittest of a small
// inference engine (E4B_HF_CONFIG; its last test test_sampling_respects_temperature)) with the
// on-device vision tower and the audio tower (transformers' Gemma 4 conversion script, a public
// Gemma 4 checkpoint conversion script in transformers' style (123,948 characters, ending
// 'generation_config.save_pretrained(output_path)' and 'app.run(main)')); GGUF headers: what
// conversion/gemma.py writes (the MLP widths per layer for E2B). Text counts against
// llama-bench's 4.65 B for a gemma4 E2B GGUF (a public Chinese performance report of a Hexagon
// backend (llama-bench of gemma4 and qwen3 GGUFs; 'gemma4 122us')) and LM Studio's 7.5 B for E4B (a
// public README of a Jira tool that uses LM Studio (troubleshooting 'Cannot connect to LM Studio',
// python jira_tool.py lmstudio-config)).
Json g4_small_json(const G4Shape& s) {
  Json layer_types = Json::array();
  for (int i = 0; i < s.layers; ++i) {
    layer_types.push_back((i + 1) % s.period == 0 ? "full_attention" : "sliding_attention");
  }
  const Json t = {{"model_type", "gemma4_text"},
                  {"num_hidden_layers", s.layers},
                  {"hidden_size", s.hidden},
                  {"intermediate_size", s.ffn},
                  {"num_attention_heads", s.heads},
                  {"num_key_value_heads", s.kv_heads},
                  {"num_global_key_value_heads", nullptr},
                  {"head_dim", 256},
                  {"global_head_dim", 512},
                  {"vocab_size", 262144},
                  {"vocab_size_per_layer_input", 262144},
                  {"hidden_size_per_layer_input", s.per_layer},
                  {"num_kv_shared_layers", s.kv_shared},
                  {"use_double_wide_mlp", s.double_wide},
                  {"max_position_embeddings", 131072},
                  {"sliding_window", s.window},
                  {"attention_k_eq_v", false},
                  {"tie_word_embeddings", true},
                  {"layer_types", layer_types}};
  const Json vision = {{"model_type", "gemma4_vision"},
                       {"hidden_size", 768},
                       {"intermediate_size", 3072},
                       {"num_hidden_layers", 16},
                       {"num_attention_heads", 12},
                       {"num_key_value_heads", 12},
                       {"head_dim", 64},
                       {"patch_size", 16},
                       {"pooling_kernel_size", 3},
                       {"position_embedding_size", 10240},
                       {"standardize", false}};
  const Json audio = {{"model_type", "gemma4_audio"},
                      {"hidden_size", 1024},
                      {"num_hidden_layers", 12},
                      {"num_attention_heads", 8}};
  return {{"model_type", "gemma4"},
          {"text_config", t},
          {"vision_config", vision},
          {"audio_config", audio}};
}

TEST(Gemma4, SmallModelsConfigGgufAndCatalogueAgree) {
  G4Shape e2b{35, 1536, 6144, 8, 1, 1, 0, 0, 0};
  e2b.period = 5;
  e2b.double_wide = true;
  e2b.kv_shared = 20;
  G4Shape e4b{42, 2560, 10240, 8, 2, 2, 0, 0, 0};
  e4b.kv_shared = 18;
  const std::vector<std::tuple<std::string, G4Shape, double, double>> cases = {
      {"gemma-4-e2b", e2b, 4.65e9, 0.002}, {"gemma-4-e4b", e4b, 7.5e9, 0.005}};
  for (auto [id, shape, published, within] : cases) {
    shape.window = 512;
    shape.per_layer = 256;
    shape.k_eq_v = false;
    const Model cat = catalogue_model(id);
    const Model cfg = from_config(g4_small_json(shape));
    const Model gg = from_gguf(g4_header(shape));
    const ParamBreakdown counted = count_params(cfg.arch);
    EXPECT_LT(rel(static_cast<double>(counted.total() - counted.vision), published), within) << id;
    EXPECT_EQ(cfg.arch.vision_params, cat.arch.vision_params) << id;
    EXPECT_LT(rel(static_cast<double>(count_params(cat.arch).total()),
                  static_cast<double>(counted.total())),
              0.0001)
        << id;
    for (const Model* m : {&cat, &cfg, &gg}) {
      EXPECT_EQ(m->arch.attention.kind, AttentionKind::Sliding) << id;
      EXPECT_EQ(m->arch.attention.sliding_pattern, shape.period) << id;
      EXPECT_EQ(m->arch.attention.global_head_dim, 512) << id;
      EXPECT_FALSE(m->arch.attention.global_k_eq_v) << id;
      EXPECT_EQ(m->arch.attention.kv_shared_layers, shape.kv_shared) << id;
      EXPECT_EQ(m->arch.per_layer_width, 256) << id;
      EXPECT_EQ(m->arch.intermediate_size, shape.ffn) << id;
      EXPECT_EQ(m->arch.double_wide_mlp_layers, shape.double_wide ? shape.kv_shared : 0) << id;
      for (const std::int64_t ctx : {std::int64_t{4096}, std::int64_t{131072}}) {
        for (const bool padded : {false, true}) {
          KvCacheQuery q{ctx, 2, 512, kv_f16(), kv_f16(), 256};
          q.v_rows_padded = padded;
          EXPECT_EQ(kv_cache_bytes(m->arch, q), kv_cache_bytes(cat.arch, q)) << id << " " << ctx;
        }
      }
    }
  }
}

// Granite 4.0 H and Jamba 1.5 Mini by name, from config.json and from a GGUF
// header: the same Mamba mixer, layer order, KV cache and state, and the same
// llama.cpp compute buffer to the byte (the replay of granite-hybrid.cpp's
// and jamba.cpp's graphs, ggml_alloc.cpp). The configs are the published
// ones the catalogue cites (H-Micro: huggingface.co/ibm-granite/
// granite-4.0-h-micro/raw/main/config.json as
// a public Swift XCTest file of a model-config decoder, 125,269 characters (its last test decodes
// id 'mistral3-windowless' to modelType .uniformGQA with 40 attention layers) quotes it; H-Tiny,
// H-Small and Jamba above), the headers what conversion/granite.py and conversion/jamba.py write
// for them (llama.cpp 80fb11ac).
Json granite4_h_micro() {
  Json j = granite4_h_small();
  j.erase("num_experts_per_tok");
  j.erase("intermediate_size");
  j["num_local_experts"] = 0;
  j["hidden_size"] = 2048;
  j["shared_intermediate_size"] = 8192;
  j["mamba_n_heads"] = 64;
  return j;
}

// The GGUF head of `cfg` as the converters write it: per-layer KV heads,
// the ssm.* keys, Granite's NoPE flag and 2^20 context, Jamba's routers on
// the odd layers (the MoE step its file names by them).
test::GgufWriter mamba_header(const Json& cfg) {
  const bool jamba = cfg["model_type"] == "jamba";
  const std::string arch = jamba ? "jamba" : "granitehybrid";
  const auto n = [&cfg](const char* k) { return cfg[k].get<std::uint32_t>(); };
  const std::uint32_t layers = n("num_hidden_layers");
  const std::uint32_t hidden = n("hidden_size");
  test::GgufWriter w;
  w.str("general.architecture", arch);
  u32_keys(w, arch,
           {{"block_count", layers},
            {"embedding_length", hidden},
            {"attention.head_count", n("num_attention_heads")},
            {"context_length", jamba ? 262144U : 1U << 20},
            {"vocab_size", n("vocab_size")},
            {"ssm.conv_kernel", n("mamba_d_conv")},
            {"ssm.state_size", n("mamba_d_state")},
            {"ssm.inner_size", jamba ? 2 * hidden : n("mamba_n_heads") * n("mamba_d_head")},
            {"ssm.time_step_rank", jamba ? n("mamba_dt_rank") : n("mamba_n_heads")}});
  std::vector<std::uint32_t> kv_heads;
  for (std::uint32_t i = 0; i < layers; ++i) {
    const bool attends = jamba ? i % 8 == 4 : i % 10 == 5;
    kv_heads.push_back(attends ? n("num_key_value_heads") : 0);
  }
  w.u32_array(arch + ".attention.head_count_kv", kv_heads);
  if (jamba) {
    u32_keys(w, arch,
             {{"feed_forward_length", n("intermediate_size")},
              {"expert_count", n("num_experts")},
              {"expert_used_count", n("num_experts_per_tok")}});
    for (std::uint32_t i = 1; i < layers; i += 2) {
      w.tensor("blk." + std::to_string(i) + ".ffn_gate_inp.weight", {hidden, 16}, test::kF16);
    }
  } else if (n("num_local_experts") > 0) {  // experts of intermediate_size, a shared MLP
    u32_keys(w, arch,
             {{"feed_forward_length", n("intermediate_size")},
              {"expert_count", n("num_local_experts")},
              {"expert_used_count", n("num_experts_per_tok")},
              {"expert_shared_feed_forward_length", n("shared_intermediate_size")}});
  } else {  // the shared MLP is the dense one
    w.u32(arch + ".feed_forward_length", n("shared_intermediate_size"));
  }
  if (!jamba) {
    w.u32(arch + ".ssm.group_count", n("mamba_n_groups"));
    w.boolean(arch + ".rope.scaling.finetuned", false);
  }
  w.tensor("token_embd.weight", {hidden, 256}, test::kQ8_0);
  if (jamba) {
    w.tensor("output.weight", {hidden, 256}, test::kQ8_0);
  }
  return w;
}

// llama.cpp's compute buffer for `m` on a CPU at these settings.
Bytes cpu_compute(const Model& m, std::int64_t context, bool flash) {
  return llama_cpu_estimate(m, context, flash ? FlashAttention::On : FlashAttention::Off)
      .memory.compute;
}

// Bamba, Granite's converter with RoPE kept (conversion/granite.py), keeps
// the closed form from config.json as from its GGUF file
// (Gguf.GraniteHybridNamesItsMamba2Mixer): the replay's Granite graph has
// no RoPE.
TEST(HybridMamba, BambaConfigKeepsTheClosedForm) {
  Json bamba = granite4_h_micro();
  bamba["model_type"] = "bamba";
  const Model m = from_config(bamba);
  EXPECT_EQ(m.arch.attention.kind, AttentionKind::Hybrid);
  EXPECT_EQ(m.arch.attention.mamba, 0);
  EXPECT_EQ(from_config(granite4_h_micro()).arch.attention.mamba, 2);
}

// ibm-ai-platform/Bamba-9B as its config.json names it: attn_layer_indices
// [9, 18, 27] (three attention layers of 32, as the huggingface/blog
// bamba.md at 05f7ce92 architecture table gives them: "Num attention layers
// 3", "Num Mamba2 layers 29"; the indices as a public test fixture quotes the
// config), hidden 4096, 32 heads and 8 KV heads (the blog: "GQA for full
// attention with 8 KV-heads and 32 heads"), and the Mamba-2 keys the
// checkpoint converter writes (transformers bamba/
// convert_mamba_ssm_checkpoint.py at 94a13d6b: mamba_d_head 64,
// mamba_d_state 128, mamba_n_groups 1, mamba_n_heads = 4096 x mamba_expand 2
// / 64 = 128; mamba_d_conv 4, BambaConfig's default at 001f85b3 and the
// blog's "convolution filter size is 4").
Json bamba_9b() {
  return {{"architectures", {"BambaForCausalLM"}},
          {"model_type", "bamba"},
          {"attn_layer_indices", {9, 18, 27}},
          {"hidden_size", 4096},
          {"intermediate_size", 14336},
          {"num_hidden_layers", 32},
          {"num_attention_heads", 32},
          {"num_key_value_heads", 8},
          {"mamba_n_heads", 128},
          {"mamba_d_head", 64},
          {"mamba_n_groups", 1},
          {"mamba_d_state", 128},
          {"mamba_d_conv", 4},
          {"mamba_expand", 2},
          {"vocab_size", 128256},
          {"tie_word_embeddings", false}};
}

// Bamba under transformers: HybridMambaAttentionDynamicCache
// (src/transformers/models/bamba/modeling_bamba.py at 4a1fec8d) allocates a
// Mamba layer conv_states (batch, 128 x 64 + 2 x 1 x 128, mamba_d_conv 4)
// and ssm_states (batch, 128 heads, 64, 128), both in the model's dtype;
// the attention layers' cache holds K and V of 8 heads of 4096 / 32 = 128.
// By hand, BF16, 4096 tokens, one sequence:
//   3 attention layers x 2 x 8 x 128 x 2 bytes x 4096 = 50331648
//   29 Mamba layers x (4 x 8448 + 128 x 64 x 128) x 2
//     = 29 x (33792 + 1048576) x 2 = 62777344
// llama.cpp's count keeps 3 taps in F32: 29 x (3 x 8448 + 1048576) x 4.
TEST(HybridMamba, BambaConfigUnderTransformersKeepsEveryConvolutionTap) {
  const Model m = from_config(bamba_9b());
  const Attention& at = m.arch.attention;
  ASSERT_EQ(at.kind, AttentionKind::Hybrid);
  EXPECT_EQ(attention_layer_count(m.arch), 3);
  EXPECT_EQ(recurrent_layer_count(m.arch), 29);
  EXPECT_EQ(at.layer_mixers, "RRRRRRRRRARRRRRRRRARRRRRRRRARRRR");
  EXPECT_EQ(at.mamba, 0);  // the closed form under llama.cpp, as above
  EXPECT_EQ(recurrent_state_bytes(m.arch, 1), 29 * Bytes{3 * 8448 + 1048576} * 4);
  EXPECT_EQ(estimate_inference(transformers_bf16(bamba_9b(), 4096)).memory.kv_cache,
            Bytes{50331648} + 62777344);
}

TEST(HybridMamba, ConfigGgufAndCatalogueGiveTheSameEstimate) {
  const std::vector<std::pair<std::string, Json>> cases = {
      {"granite-4.0-h-micro", granite4_h_micro()},
      {"granite-4.0-h-tiny", granite4_h_tiny()},
      {"granite-4.0-h-small", granite4_h_small()},
      {"jamba-1.5-mini", jamba_mini()}};
  for (const auto& [id, json] : cases) {
    const Model cat = catalogue_model(id);
    const Model cfg = from_config(json);
    const Model gg = from_gguf(mamba_header(json));
    const Attention& c = cat.arch.attention;
    ASSERT_EQ(c.mamba, id.starts_with("jamba") ? 1 : 2) << id;
    for (const Model* m : {&cfg, &gg}) {
      const Attention& a = m->arch.attention;
      EXPECT_EQ(a.mamba, c.mamba) << id;
      EXPECT_EQ(a.layer_mixers, c.layer_mixers) << id;
      EXPECT_EQ(a.ssm_inner, c.ssm_inner) << id;
      EXPECT_EQ(a.ssm_heads, c.ssm_heads) << id;
      EXPECT_EQ(a.ssm_groups, c.ssm_groups) << id;
      EXPECT_EQ(a.ssm_state, c.ssm_state) << id;
      EXPECT_EQ(a.ssm_conv, c.ssm_conv) << id;
      EXPECT_EQ(a.recurrent_state_floats, c.recurrent_state_floats) << id;
      const KvCacheQuery q{32768, 2, 512, kv_f16(), kv_f16(), 256};
      EXPECT_EQ(kv_cache_bytes(m->arch, q), kv_cache_bytes(cat.arch, q)) << id;
      for (const std::int64_t ctx : {std::int64_t{4096}, std::int64_t{32768}}) {
        for (const bool flash : {false, true}) {
          EXPECT_EQ(cpu_compute(*m, ctx, flash), cpu_compute(cat, ctx, flash))
              << id << (m == &cfg ? " config.json" : " GGUF") << " ctx " << ctx << " flash "
              << flash;
        }
      }
    }
  }
}

// The recipe layout sizes each global layer at its own shape: 10 global
// layers of 31B hold q, k and o at 512 wide (no v), the rest at 256.
TEST(Gemma4, WeightLayoutSizesGlobalLayersAtTheirShape) {
  const Model cat = catalogue_model("gemma-4-31b");
  const Precision f16 = *parse_precision("f16");
  const WeightLayout w = weight_layout(cat, f16);
  ASSERT_EQ(w.layers.size(), 60U);
  const std::int64_t h = 5376;
  const std::int64_t windowed_attention = (2 * 32 * 256 + 2 * 16 * 256) * h;
  const std::int64_t global_attention = (2 * 32 * 512 + 4 * 512) * h;
  EXPECT_EQ(w.layers[5].bytes - w.layers[4].bytes, 2 * (global_attention - windowed_attention));
}

}  // namespace
}  // namespace willfit

// DeepSeek-V4 (issue 18): compressed attention read from config.json and from
// a GGUF header into the same shape, its KV cache as llama.cpp allocates it,
// and its weights counted tensor by tensor.
//
// The config is deepseek-ai/DeepSeek-V4-Flash's config.json on the Hugging
// Face hub (quoted verbatim, "The real deepseek-ai/DeepSeek-V4-Flash/
// config.json", in a public repository's test fixture:
// a public Rust source file with an inline test module (ending '// Each head now has unit RMS over
// head_dim.'); the same values are NVIDIA NeMo AutoModel's DeepseekV4Config defaults,
// docs.nvidia.com .../models/deepseek_v4/config, and the pinned DeepSeek-V4-Flash-0731 record at
// revision 7872f01b1d1fe23eabc4c98b48bffcef5a386062, a public Python DeepSeek-V4 release table
// (RELEASES with FLASH, PRO, V41_FLASH; DeepSeekV4ReleaseError 'unknown DeepSeek-V4 release')). The
// GGUF keys are those llama.cpp's converter writes for it (conversion/deepseek.py DeepseekV4Model
// at 80fb11ac). Expected KV sizes are worked out by hand below from llama.cpp's source, not taken
// from the code under test.
namespace willfit {
namespace {

// compress_ratios as DeepSeek-V4 publishes them: two leading layers of
// ratio `first`, then 4 and 128 in turn `pairs` times, one more 4, then the
// MTP block's 0.
std::vector<std::uint32_t> v4_ratios(std::uint32_t first, int pairs) {
  std::vector<std::uint32_t> r = {first, first};
  for (int i = 0; i < pairs; ++i) {
    r.push_back(4);
    r.push_back(128);
  }
  r.push_back(4);
  r.push_back(0);
  return r;
}

// Flash: two window-only layers, then 4 and 128 in turn, ending on 4 (43).
std::vector<std::uint32_t> flash_ratios() {
  return v4_ratios(0, 20);
}

Json flash_config() {
  return {{"architectures", {"DeepseekV4ForCausalLM"}},
          {"model_type", "deepseek_v4"},
          {"hidden_size", 4096},
          {"num_hidden_layers", 43},
          {"num_attention_heads", 64},
          {"num_key_value_heads", 1},
          {"head_dim", 512},
          {"qk_rope_head_dim", 64},
          {"q_lora_rank", 1024},
          {"o_lora_rank", 1024},
          {"o_groups", 8},
          {"moe_intermediate_size", 2048},
          {"n_routed_experts", 256},
          {"n_shared_experts", 1},
          {"num_experts_per_tok", 6},
          {"num_hash_layers", 3},
          {"num_nextn_predict_layers", 1},
          {"hc_mult", 4},
          {"hc_sinkhorn_iters", 20},
          {"index_head_dim", 128},
          {"index_n_heads", 64},
          {"index_topk", 512},
          {"sliding_window", 128},
          {"compress_ratios", flash_ratios()},
          {"compress_rope_theta", 160000},
          {"max_position_embeddings", 1048576},
          {"vocab_size", 129280},
          {"tie_word_embeddings", false},
          {"torch_dtype", "bfloat16"},
          {"expert_dtype", "fp4"},
          {"quantization_config",
           {{"activation_scheme", "dynamic"},
            {"fmt", "e4m3"},
            {"quant_method", "fp8"},
            {"scale_fmt", "ue8m0"},
            {"weight_block_size", {128, 128}}}}};
}

// The same model as llama.cpp's converter writes its GGUF header: the MTP
// block is not in the model file, so block_count is num_hidden_layers.
test::GgufWriter flash_gguf() {
  test::GgufWriter w;
  w.str("general.architecture", "deepseek4");
  w.u32("deepseek4.block_count", 43);
  w.u32("deepseek4.context_length", 1048576);
  w.u32("deepseek4.embedding_length", 4096);
  w.u32("deepseek4.attention.head_count", 64);
  w.u32("deepseek4.attention.head_count_kv", 1);
  w.u32("deepseek4.attention.key_length", 512);
  w.u32("deepseek4.attention.value_length", 512);
  w.u32("deepseek4.rope.dimension_count", 64);
  w.u32("deepseek4.attention.q_lora_rank", 1024);
  w.u32("deepseek4.attention.sliding_window", 128);
  w.u32("deepseek4.expert_count", 256);
  w.u32("deepseek4.expert_used_count", 6);
  w.u32("deepseek4.expert_feed_forward_length", 2048);
  w.u32("deepseek4.expert_shared_count", 1);
  w.u32("deepseek4.attention.indexer.head_count", 64);
  w.u32("deepseek4.attention.indexer.key_length", 128);
  w.u32("deepseek4.attention.indexer.top_k", 512);
  w.u32("deepseek4.attention.output_group_count", 8);
  w.u32("deepseek4.attention.output_lora_rank", 1024);
  w.u32_array("deepseek4.attention.compress_ratios", flash_ratios());
  w.u32("deepseek4.hyper_connection.count", 4);
  w.u32("deepseek4.hash_layer_count", 3);
  w.u32("deepseek4.vocab_size", 129280);
  w.tensor("token_embd.weight", {4096, 256}, test::kQ8_0);
  w.tensor("output.weight", {4096, 256}, test::kQ8_0);  // not tied
  return w;
}

// llama.cpp loads attn_output_a, 2-D in the file, as [heads x head_dim /
// o_groups, o_lora_rank, o_groups] (deepseek4.cpp load_arch_tensors,
// TENSOR_ALLOW_RESHAPE) and multiplies it per group, a batched product the
// CPU backend's repack does not take (repack.cpp supports_op: 2-D weights);
// attn_q_b, a plain product, is repacked. The live reduced file's Q4_K_M
// CPU_REPACK (1214.16 MiB, docs/live-llamacpp.md, ninth run) left out its
// five attn_output_a tensors (90 MiB) and kept its attn_q_b ones.
TEST(DeepSeekV4, GroupedOutputProjectionIsNotRepacked) {
  test::GgufWriter w = flash_gguf();
  w.tensor("blk.0.attn_output_a.weight", {4096, 8192}, test::kQ4_K);
  w.tensor("blk.0.attn_q_b.weight", {1024, 32768}, test::kQ4_K);
  const Model g = from_gguf(w);
  EXPECT_EQ(cpu_repack_bytes(g, CpuFeatures::Avx512), 1024 * 32768 / 256 * 144);
}

TEST(DeepSeekV4, KnownToBothReaders) {
  EXPECT_TRUE(is_known_gguf_architecture("deepseek4"));
  EXPECT_TRUE(is_known_config_model_type("deepseek_v4"));
  EXPECT_TRUE(from_config(flash_config()).unchecked_architecture.empty());
  EXPECT_TRUE(from_gguf(flash_gguf()).unchecked_architecture.empty());
}

TEST(DeepSeekV4, ConfigAndGgufReadTheSameShape) {
  const Model c = from_config(flash_config());
  const Model g = from_gguf(flash_gguf());
  for (const Model* m : {&c, &g}) {
    const Architecture& a = m->arch;
    EXPECT_EQ(a.layers, 43);
    EXPECT_EQ(a.attention.kind, AttentionKind::Sliding);
    EXPECT_EQ(a.attention.sliding_window, 128);
    EXPECT_EQ(a.attention.compress_layers, "SSCHCHCHCHCHCHCHCHCHCHCHCHCHCHCHCHCHCHCHCHC");
    EXPECT_EQ(compressed_layer_count(a, 'C'), 21);
    EXPECT_EQ(compressed_layer_count(a, 'H'), 20);
    EXPECT_EQ(a.kv_heads, 1);
    EXPECT_EQ(a.head_dim, 512);
    EXPECT_EQ(a.attention.q_lora_rank, 1024);
    EXPECT_EQ(a.attention.o_groups, 8);
    EXPECT_EQ(a.attention.o_lora_rank, 1024);
    EXPECT_EQ(a.attention.index_head_dim, 128);
    EXPECT_EQ(a.attention.index_heads, 64);
    EXPECT_EQ(a.hyper_connections, 4);
    EXPECT_EQ(a.hash_layers, 3);
    EXPECT_EQ(a.mtp_layers, 0);  // not in llama.cpp's model file
    ASSERT_TRUE(a.moe.has_value());
    EXPECT_EQ(a.moe->experts, 256);
    EXPECT_EQ(a.moe->shared_experts, 1);
    EXPECT_EQ(a.moe->first_dense_layers, 0);
  }
  EXPECT_EQ(count_params(c.arch).total(), count_params(g.arch).total());
  for (const std::int64_t ctx : {std::int64_t{4096}, std::int64_t{131072}, std::int64_t{1048576}}) {
    for (const int seqs : {1, 4}) {
      const KvCacheQuery q{ctx, seqs, 512, kv_f16(), kv_f16(), 256};
      EXPECT_EQ(kv_cache_bytes(c.arch, q), kv_cache_bytes(g.arch, q)) << ctx << " x " << seqs;
    }
  }
}

// llama.cpp's DeepSeek-V4 cache at 80fb11ac, by hand (src/models/
// deepseek4.cpp load_arch_hparams: every layer sliding, n_swa 128;
// src/llama-kv-cache-dsv4.cpp llama_kv_cache_dsv4: dsv4_make_k_only makes
// every cache K only, one stream per sequence; head_count_kv 1 x key_length
// 512 = a 512-wide K row, the indexer's 1 x 128):
//
// at n_ctx 131072, 1 sequence, n_ubatch 512, F16 (2 bytes a value):
//   raw (kv_raw's SWA half, all 43 layers):
//     GGML_PAD(min(131072, 128 + 512), 256) = 768 cells x 512 x 2 = 786432 B a layer
//   ratio-4 layer (21):
//     kv_csa  GGML_PAD(ceil(131072 / 4), 256) = 32768 cells x 512 x 2 = 33554432
//     kv_lid  32768 cells x 128 x 2                                   =  8388608
//     csa_state  kv + score, F32: 2 x (2 x 4 rows) x (2 x 512) x 4    =    65536
//     lid_state  2 x 8 x (2 x 128) x 4                                =    16384
//                                                                       = 42024960 B a layer
//   ratio-128 layer (20):
//     kv_hca  GGML_PAD(ceil(131072 / 128), 256) = 1024 cells x 512 x 2 = 1048576
//     hca_state  2 x 128 rows x 512 x 4                               =   524288
//                                                                       = 1572864 B a layer
//   total = 43 x 786432 + 21 x 42024960 + 20 x 1572864 = 947798016 B.
//
// Per token past the window, the pooled keys grow by (512 + 128) x 2 / 4 =
// 320 B on a ratio-4 layer and 512 x 2 / 128 = 8 B on a ratio-128 layer:
// 21 x 320 + 20 x 8 = 6880 B a token for the model (a full-attention cache
// of the same 512-wide K rows would be 43 x 1024 = 44032).
TEST(DeepSeekV4, KvCacheIsLlamaCppsByLayerKind) {
  const Model m = from_config(flash_config());
  const KvCacheQuery q{131072, 1, 512, kv_f16(), kv_f16(), 256};
  EXPECT_EQ(kv_cache_bytes(m.arch, q), 947798016);
  // 32768 more tokens: both pooled caches stay whole multiples of 256 cells.
  const KvCacheQuery longer{131072 + 32768, 1, 512, kv_f16(), kv_f16(), 256};
  EXPECT_EQ(kv_cache_bytes(m.arch, longer) - kv_cache_bytes(m.arch, q), std::int64_t{32768} * 6880);
  // One stream per sequence: four sequences hold four of everything.
  const KvCacheQuery four{131072, 4, 512, kv_f16(), kv_f16(), 256};
  EXPECT_EQ(kv_cache_bytes(m.arch, four), std::int64_t{4} * 947798016);
  // q8_0 K: 34 bytes per 32 values (512 -> 544 B a row, 128 -> 136); the
  // compressor states stay F32.
  const KvType q8_0 = *parse_kv_type("q8_0");
  const KvCacheQuery q8{131072, 1, 512, q8_0, q8_0, 256};
  const std::int64_t csa = 32768 * 544 + 32768 * 136 + 65536 + 16384;
  const std::int64_t hca = 1024 * 544 + 524288;
  EXPECT_EQ(kv_cache_bytes(m.arch, q8), 43 * 768 * 544 + 21 * csa + 20 * hca);
}

// A real llama.cpp run of DeepSeek-V4-Flash-0731 (ggml-org/llama.cpp issue
// #27680, the log in its first post: n_ctx_seq 64000, 1 sequence, K in bf16)
// prints "model params = 284.33 B" and, for the raw keys, "creating SWA KV
// cache, size = 4352 cells" and "CUDA0 KV buffer size = 182.75 MiB (4352
// cells, 43 layers, 1/1 seqs)": a 4096-token micro-batch, 128 + 4096 padded
// to 256. The pooled caches add, by the derivation above, ratio 4:
// GGML_PAD(16000, 256) = 16128 cells x (512 + 128) x 2 + 81920 on 21 layers,
// ratio 128: GGML_PAD(500, 256) = 512 cells x 512 x 2 + 524288 on 20.
TEST(DeepSeekV4, FlashMatchesLlamaCppsLog) {
  const Model m = from_config(flash_config());
  EXPECT_NEAR(static_cast<double>(count_params(m.arch).total()) / 1e9, 284.33, 0.005);
  // the logged 182.75 MiB, which is exactly 43 x 4352 x 512 x 2 bytes
  const auto raw = static_cast<std::int64_t>(182.75 * 1024 * 1024);
  const std::int64_t csa = std::int64_t{16128} * 640 * 2 + 81920;
  const std::int64_t hca = std::int64_t{512} * 512 * 2 + 524288;
  const KvCacheQuery q{64000, 1, 4096, kv_f16(), kv_f16(), 256};
  EXPECT_EQ(kv_cache_bytes(m.arch, q), raw + 21 * csa + 20 * hca);
}

// deepseek-ai/DeepSeek-V4-Flash's model card: 284B total parameters (without
// the MTP block, which the converter drops).
TEST(DeepSeekV4, FlashCountsItsPublishedSize) {
  const Model m = from_config(flash_config());
  const double total = static_cast<double>(count_params(m.arch).total());
  EXPECT_NEAR(total / 284e9, 1.0, 0.01) << total;
}

// deepseek-ai/DeepSeek-V4-Pro's config.json, as a public repository's model
// report prints it from a local copy of the hub snapshot together with the
// checkpoint's tensor list (a public Markdown model report of DeepSeek-V4-Pro (tensor table ending
// 'norm.weight' [7168], model-00063-of-00064.safetensors)): layers 0 and 1 pool by 128, then 4 and
// 128 in turn, ending on 4; the MTP block's 0.
Json pro_config() {
  Json j = flash_config();
  j["hidden_size"] = 7168;
  j["num_hidden_layers"] = 61;
  j["num_attention_heads"] = 128;
  j["q_lora_rank"] = 1536;
  j["o_groups"] = 16;
  j["moe_intermediate_size"] = 3072;
  j["n_routed_experts"] = 384;
  j["index_topk"] = 1024;
  j["routed_scaling_factor"] = 2.5;
  j["compress_ratios"] = v4_ratios(128, 29);
  j.erase("expert_dtype");  // Pro's config.json has none
  return j;
}

// The same report's tensor list gives each weight's shape; one layer's
// attention, compressors and hyper-connection mixers add up to what the
// counts say (element counts of the listed [rows, columns]).
TEST(DeepSeekV4, ProLayerWeightsAreItsCheckpointsTensors) {
  const Model m = from_config(pro_config());
  const Architecture& a = m.arch;
  EXPECT_EQ(compressed_layer_count(a, 'C'), 30);
  EXPECT_EQ(compressed_layer_count(a, 'H'), 31);
  EXPECT_EQ(compressed_layer_count(a, 'S'), 0);
  // wq_a [1536, 7168], wq_b [65536, 1536], wkv [512, 7168],
  // wo_a [16384, 4096], wo_b [7168, 16384]
  EXPECT_EQ(attention_params_per_layer(a), std::int64_t{1536} * 7168 + 65536 * 1536 + 512 * 7168 +
                                               16384 * 4096 + std::int64_t{7168} * 16384);
  // ratio 4: compressor wkv, wgate [1024, 7168], ape [4, 1024]; indexer
  // weights_proj [64, 7168], wq_b [8192, 1536], its compressor's wkv,
  // wgate [256, 7168] and ape [4, 256]
  EXPECT_EQ(compressed_attention_params(a, 'C'),
            2 * 1024 * 7168 + 4 * 1024 + 64 * 7168 + 8192 * 1536 + 2 * 256 * 7168 + 4 * 256);
  // ratio 128: wkv, wgate [512, 7168], ape [128, 512]
  EXPECT_EQ(compressed_attention_params(a, 'H'), 2 * 512 * 7168 + 128 * 512);
  // hc_attn_fn and hc_ffn_fn [24, 28672]
  EXPECT_EQ(hyper_connection_params_per_layer(a), 2 * 24 * 28672);
}

TEST(DeepSeekV4, CatalogueAgreesWithTheConfig) {
  auto db = ModelDb::parse(app::embedded_models_json(), "embedded");
  ASSERT_TRUE(db.ok());
  for (const auto& [id, config] : {std::pair{"deepseek-v4-flash", flash_config()},
                                   std::pair{"deepseek-v4-pro", pro_config()}}) {
    auto found = db->find(id);
    ASSERT_TRUE(found.ok()) << id;
    const Model& cat = found->entry->model;
    const Model cfg = from_config(config);
    EXPECT_EQ(cat.arch.attention.compress_layers, cfg.arch.attention.compress_layers) << id;
    for (const std::int64_t ctx : {std::int64_t{4096}, std::int64_t{131072}}) {
      const KvCacheQuery q{ctx, 1, 512, kv_f16(), kv_f16(), 256};
      EXPECT_EQ(kv_cache_bytes(cat.arch, q), kv_cache_bytes(cfg.arch, q)) << id << " " << ctx;
    }
    EXPECT_EQ(count_params(cat.arch).total(), count_params(cfg.arch).total()) << id;
    const Precision p = *parse_precision("q4_k_m");
    EXPECT_NEAR(static_cast<double>(weight_layout(cat, p).total()) /
                    static_cast<double>(weight_layout(cfg, p).total()),
                1.0, 0.02)
        << id;
  }
}

}  // namespace
}  // namespace willfit
