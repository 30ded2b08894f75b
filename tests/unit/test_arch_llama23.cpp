// Five older architectures llama.cpp runs (issue 18), each read from its
// published config.json and from the GGUF header its converter writes: both
// must give one estimate, the parameter count must match the published one
// within 1 %, and a file of tests/live/make_gguf must match what a real
// llama.cpp reserved.
//
// Qwen-1 (llama.cpp `qwen`, src/models/qwen.cpp at 80fb11ac; config.json
// model_type qwen, QWenLMHeadModel): Qwen-1.8B, 7B, 14B and 72B. RMS norms,
// one fused c_attn projection of Q, K and V with its bias (attn_qkv), Q and
// K roped (NeoX) from views of it, no other biases, a SwiGLU of w1 and w2
// whose width is half the config's intermediate_size (qwen.cpp creates
// ffn_gate and ffn_up of n_ff / 2), an untied output.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "csv.hpp"
#include "sources/embedded_data.hpp"
#include "unit/catalogue_model.hpp"
#include "unit/live_rows.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/core/units.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/model_db.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::from_config;
using test::rel;

// ---- shared helpers ----------------------------------------------------------

// The header alone, the file's size claimed: the tensors are never made.
Model from_header(const test::GgufWriter& w) {
  const std::string header = w.header();
  const std::uint64_t size = (header.size() + 31) / 32 * 32 + w.data_size();
  auto parsed = read_gguf(header, size);
  EXPECT_TRUE(parsed.ok() && parsed->file.has_value());
  if (!parsed.ok() || !parsed->file) {
    return Model{};
  }
  auto m = model_from_gguf(*parsed->file, "model.gguf");
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return m.ok() ? *m : Model{};
}

Estimate llama_estimate(const Model& m, std::int64_t context) {
  InferenceQuery q;
  q.model = m;
  q.precision = *parse_precision("q4_k_m");
  q.runtime = Runtime::LlamaCpp;
  q.context = context;
  return estimate_inference(q);
}

// Where two readings of one model are compared (test::expect_same_estimate):
// 4 Ki and 32 Ki tokens, llama.cpp's default flash attention, at Q4_K_M.
const test::EstimateGrid kEstimateGrid{.contexts = {4096, 32768},
                                       .flash = {FlashAttention::Auto},
                                       .params = test::EstimateGrid::Params::None};

// A catalogue entry is the model its config.json gives: the parameters, the
// weights, the KV cache and the compute buffer under llama.cpp.
void expect_catalogue_is_config(const std::string& id, const Json& config) {
  SCOPED_TRACE(id);
  const Model& cat = test::catalogue_model(id);
  const Model cfg = from_config(config);
  EXPECT_EQ(count_params(cat.arch).total(), count_params(cfg.arch).total());
  EXPECT_EQ(llama_estimate(cat, 4096).memory.weights, llama_estimate(cfg, 4096).memory.weights);
  test::expect_same_estimate(cat, cfg, id, kEstimateGrid);
}

std::int64_t params(const Json& j) {
  return count_params(from_config(j).arch).total();
}

// The compute (+ output) buffers and the KV cache of a live table, against
// willfit's estimate for `m`: compute to 0.01 MiB (the output buffer's log
// rounding) with an F16 and a Q8_0 cache alike; KV to the log's rounding.
void expect_live_rows(const Model& m, const std::string& arch, std::size_t expected) {
  const auto mib = static_cast<double>(kMiB);
  std::size_t rows = 0;
  test::for_each_live_row("llamacpp_cpu_compute_" + arch + ".csv",
                          [&](const std::vector<std::string>& c) {
                            const auto [measured, willfit] = test::live_row_compute(m, c);
                            EXPECT_NEAR(willfit, measured, 0.01 * mib);
                            ++rows;
                          });
  EXPECT_EQ(rows, expected);
  rows = 0;
  test::for_each_live_row(
      "llamacpp_cpu_kv_" + arch + ".csv", [&](const std::vector<std::string>& c) {
        EXPECT_NEAR(static_cast<double>(test::live_row_estimate(m, c).memory.kv_cache),
                    std::stod(c[6]) * mib, 0.01 * mib);
        ++rows;
      });
  EXPECT_EQ(rows, expected);
}

// ---- Qwen-1 (qwen) -------------------------------------------------------------

// Qwen/Qwen-7B config.json (the revision with 32768 max_position_embeddings)
// as levanter's Qwen round-trip test embeds it verbatim (
// a public levanter Qwen2 round-trip test (it saves to {tmpdir}/lev_model and compares
// Qwen2ForCausalLM logits, rtol=1e-5)).
Json qwen_7b() {
  return {{"architectures", {"QWenLMHeadModel"}},
          {"model_type", "qwen"},
          {"hidden_size", 4096},
          {"intermediate_size", 22016},
          {"kv_channels", 128},
          {"layer_norm_epsilon", 1e-06},
          {"max_position_embeddings", 32768},
          {"no_bias", true},
          {"num_attention_heads", 32},
          {"num_hidden_layers", 32},
          {"rotary_emb_base", 10000},
          {"rotary_pct", 1.0},
          {"seq_length", 8192},
          {"tie_word_embeddings", false},
          {"vocab_size", 151936}};
}

// The other sizes: Qwen-7B's keys with each model's own values.
// Qwen-1.8B: 24 layers, 16 heads, d_model 2048, 8192 positions (its model
// card's table, a public copy of a Qwen (1.0) model card in Chinese and English (ending with its
// Contact Us section and qianwen_opensource@alibabacloud.com)); intermediate_size 11008, vocab_size
// 151936 (a transcription citing huggingface.co/Qwen/Qwen-1_8B/blob/main/config.json,
// abhibambhaniya/GenZ-LLM-Analyzer GenZ/Models/Model_sets/alibaba.py at commit 13ebfb84). Qwen-14B
// and Qwen-72B from the same transcription: hidden 5120 / 8192, 40 / 80 layers, 40 / 64 heads,
// intermediate_size 27392 / 49152, vocabulary 152064, 2048 / 32768 positions (its Qwen-72B KV-head
// value is a slip: QWenConfig has no such key, every Qwen-1 attends with all heads).
Json qwen_sized(int layers, int hidden, int heads, int intermediate, int vocab, int ctx) {
  Json j = qwen_7b();
  j["num_hidden_layers"] = layers;
  j["hidden_size"] = hidden;
  j["num_attention_heads"] = heads;
  j["intermediate_size"] = intermediate;
  j["vocab_size"] = vocab;
  j["max_position_embeddings"] = ctx;
  j["seq_length"] = ctx;
  return j;
}
Json qwen_1_8b() {
  return qwen_sized(24, 2048, 16, 11008, 151936, 8192);
}
Json qwen_14b() {
  return qwen_sized(40, 5120, 40, 27392, 152064, 2048);
}
Json qwen_72b() {
  return qwen_sized(80, 8192, 64, 49152, 152064, 32768);
}

// The GGUF header a conversion writes for Qwen-1: conversion/qwen.py
// (QwenModel at 80fb11ac) leaves the keys to base.py: block_count,
// context_length (max_position_embeddings), embedding_length,
// feed_forward_length (the config's intermediate_size, twice the MLP),
// head_count, no head_count_kv (QWenConfig has none); llama.cpp's qwen.cpp
// requires the RMS epsilon (attention.layer_norm_rms_epsilon). Tensors as
// qwen.cpp loads them, F16 with F32 norms and bias.
test::GgufWriter qwen_gguf(const Json& j) {
  const std::string a = "qwen.";
  const auto e = j["hidden_size"].get<std::uint64_t>();
  const auto ff = j["intermediate_size"].get<std::uint64_t>();
  const auto v = j["vocab_size"].get<std::uint64_t>();
  const int layers = j["num_hidden_layers"].get<int>();
  test::GgufWriter w;
  w.str("general.architecture", "qwen");
  w.u32("general.file_type", 1);
  w.u32(a + "block_count", static_cast<std::uint32_t>(layers));
  w.u32(a + "context_length", j["max_position_embeddings"].get<std::uint32_t>());
  w.u32(a + "embedding_length", static_cast<std::uint32_t>(e));
  w.u32(a + "feed_forward_length", static_cast<std::uint32_t>(ff));
  w.u32(a + "attention.head_count", j["num_attention_heads"].get<std::uint32_t>());
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-6F);
  w.f32(a + "rope.freq_base", 10000.0F);
  w.tensor("token_embd.weight", {e, v}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  w.tensor("output.weight", {e, v}, test::kF16);
  for (int i = 0; i < layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_qkv.weight", {e, 3 * e}, test::kF16);
    w.tensor(b + "attn_qkv.bias", {3 * e}, test::kF32);
    w.tensor(b + "attn_output.weight", {e, e}, test::kF16);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_gate.weight", {e, ff / 2}, test::kF16);
    w.tensor(b + "ffn_down.weight", {ff / 2, e}, test::kF16);
    w.tensor(b + "ffn_up.weight", {e, ff / 2}, test::kF16);
  }
  return w;
}

TEST(Qwen1, ConfigIsKnownAndHalvesTheMlp) {
  for (const Json& j : {qwen_1_8b(), qwen_7b(), qwen_14b(), qwen_72b()}) {
    const Model m = from_config(j);
    EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
    EXPECT_EQ(m.arch.intermediate_size, j["intermediate_size"].get<std::int64_t>() / 2);
    EXPECT_EQ(m.arch.kv_heads, m.arch.heads);
    EXPECT_EQ(m.arch.head_dim, 128);
    EXPECT_TRUE(m.arch.mlp_gated);
    EXPECT_FALSE(m.arch.fused_gate_up);
    EXPECT_TRUE(m.arch.attention.fused_qkv && m.arch.qkv_bias);
    EXPECT_FALSE(m.arch.tied_embeddings);
  }
}

// Qwen-7B: "7721324544 (7.7B) parameters" (a public RAG front-end's banner
// serving Qwen-7B, a public README of a RAG front-end serving Qwen-7B with BCE-Embedding and
// BCE-ReRanker ('we are using the default prompt template provided by QAnything'); the same count
// in a public benchmark table's Qwen-7B row, a version of the calflops README (author MrYxJ;
// torchvision FLOPs table ending with inception_v3 and 'Concact Author')). Qwen-1.8B's card
// says 1.8 B (18亿, a public copy of a Qwen (1.0) model card in Chinese and English (ending with
// its Contact Us section and qianwen_opensource@alibabacloud.com)); Qwen1.5-1.8B, the same tensors
// (hidden 2048, 24 layers, MLP 5504, vocabulary 151936, q/k/v biases, untied), has 1,836,828,672 in
// its safetensors metadata (a public model sheet, a public generated model sheet of Qwen1.5-1.8B
// (ending 'Unavailable agreed fields (not specified in the publication data): identity.model_type,
// lineage.base_models')). Qwen-14B likewise: Qwen1.5-14B's 14167290880 (llama.cpp's n_params in
// public server listings, a public JavaScript table of SakuraLLM GGUF files with llama.cpp meta
// ('sakura-32b-qwen2beta-v0.9-iq4xs', n_params 32512218112)). Read as one MLP of intermediate_size,
// each would be about 30 % over.
TEST(Qwen1, ParameterCountsMatchThePublishedOnes) {
  EXPECT_LT(rel(static_cast<double>(params(qwen_7b())), 7721324544.0), 0.01);
  EXPECT_LT(rel(static_cast<double>(params(qwen_1_8b())), 1836828672.0), 0.01);
  EXPECT_LT(rel(static_cast<double>(params(qwen_14b())), 14167290880.0), 0.01);
  // Qwen-72B: the card's 72 B, the count of its shapes 72.29 B.
  EXPECT_LT(rel(static_cast<double>(params(qwen_72b())), 72.0e9), 0.01);
}

TEST(Qwen1, GgufHeaderGivesWhatTheConfigGives) {
  for (const Json& j : {qwen_1_8b(), qwen_7b(), qwen_14b()}) {
    const Model g = from_header(qwen_gguf(j));
    const Model c = from_config(j);
    EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
    EXPECT_EQ(g.arch.intermediate_size, c.arch.intermediate_size);
    EXPECT_TRUE(g.arch.attention.fused_qkv && g.arch.qkv_bias);
    EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
    test::expect_same_estimate(g, c, "qwen GGUF vs config, " + j["hidden_size"].dump(),
                               kEstimateGrid);
  }
}

// The weights of an F16 conversion, counted by hand from the tensors
// qwen.cpp loads: the matrices at 2 bytes, the norms and the QKV bias at 4.
TEST(Qwen1, F16WeightsAreTheConvertersTensors) {
  const Precision f16 = *parse_precision("f16");
  const Json j = qwen_1_8b();
  const std::int64_t e = 2048;
  const std::int64_t f = 5504;
  const std::int64_t v = 151936;
  const std::int64_t matrices = 2 * e * v + 24 * (e * 3 * e + e * e + 3 * e * f);
  const std::int64_t vectors = e + 24 * (2 * e + 3 * e);
  EXPECT_EQ(weight_layout(from_config(j), f16).total(), 2 * matrices + 4 * vectors);
}

// Qwen-1.8B whole (make_gguf row qwen-1_8b), read from its config.json,
// against what a real llama.cpp reserved for the F16, Q8_0 and Q4_K_M files
// (tests/data/llamacpp_cpu_compute_qwen.csv, llamacpp_cpu_kv_qwen.csv).
// Exact on every row. The Q8_0-cache rows were 0.03 % (82 KiB) over while the
// replay kept a single cache's Hadamard rotation matrices (128 x 128 F32 and
// 64 x 64) to the end and placed K's before the token ids: a trace_alloc
// trace of this model (docs/live-llamacpp.md, MiniCPM3 run) puts
// attn_inp_k_rot after the embeddings input, and llama.cpp frees both
// matrices after the last layer's rotations, so the logits (the peak) sit
// 82 KiB lower.
TEST(Qwen1, Qwen1_8bMatchesTheLiveLlamaCpp) {
  expect_live_rows(from_config(qwen_1_8b()), "qwen", 27);
}

// The catalogue's Qwen-1 entries (data/models.json qwen1-1.8b to qwen1-72b)
// are their configs: the fused QKV with its bias, the halved MLP; each
// within 1 % of the count its source gives.
TEST(Qwen1, CatalogueEntriesAreTheirConfigs) {
  const std::pair<std::string, Json> entries[] = {{"qwen1-1.8b", qwen_1_8b()},
                                                  {"qwen1-7b", qwen_7b()},
                                                  {"qwen1-14b", qwen_14b()},
                                                  {"qwen1-72b", qwen_72b()}};
  for (const auto& [id, config] : entries) {
    expect_catalogue_is_config(id, config);
    const Model& cat = test::catalogue_model(id);
    EXPECT_TRUE(cat.arch.attention.fused_qkv && cat.arch.qkv_bias) << id;
    EXPECT_LT(rel(static_cast<double>(params(config)), static_cast<double>(cat.params)), 0.01)
        << id;
  }
}

// ---- Baichuan (baichuan) ----------------------------------------------------

// baichuan-inc/Baichuan2-7B-Chat config.json as transformers printed it
// ("Model config BaichuanConfig") in a public fine-tuning log (a public Markdown fine-tuning log of
// Baichuan2 with ollama output, 64,538 characters (ending 'no compatible GPUs were discovered')).
Json baichuan2_7b() {
  return {{"architectures", {"BaichuanForCausalLM"}},
          {"model_type", "baichuan"},
          {"hidden_act", "silu"},
          {"hidden_size", 4096},
          {"intermediate_size", 11008},
          {"max_position_embeddings", 4096},
          {"model_max_length", 4096},
          {"num_attention_heads", 32},
          {"num_hidden_layers", 32},
          {"rms_norm_eps", 1e-06},
          {"tie_word_embeddings", false},
          {"vocab_size", 125696}};
}

// baichuan-inc/Baichuan2-13B: hidden_size 5120, 40 layers, 40 heads,
// intermediate_size 13696, vocab_size 125696 (a public table of hub
// configs, a public Python architecture evolution tree of model families (__all__ = ArchNode,
// ArchInnovation, ArchitectureMetrics, EvolutionTree, DEFAULT_FAMILIES)); the 13B's key names, with
// model_max_length 4096 and no max_position_embeddings (the ALiBi model
// has no position table), rms_norm_eps 1e-06 and tie_word_embeddings false,
// as a public copy of a Baichuan2-13B-Chat config.json gives them (
// a public Markdown note '### Set Baichuan2' quoting DISC-FinLLM/config.json (torch_dtype float16,
// vocab_size 64000, hidden_size 5120)).
Json baichuan2_13b() {
  return {{"architectures", {"BaichuanForCausalLM"}},
          {"model_type", "baichuan"},
          {"hidden_act", "silu"},
          {"hidden_size", 5120},
          {"intermediate_size", 13696},
          {"model_max_length", 4096},
          {"num_attention_heads", 40},
          {"num_hidden_layers", 40},
          {"rms_norm_eps", 1e-06},
          {"tie_word_embeddings", false},
          {"vocab_size", 125696}};
}

// baichuan-inc/Baichuan-7B: the card's hyperparameter table (n_parameters
// 7000559616, n_layers 32, n_heads 32, d_model 4096, vocab size 64000,
// sequence length 4096) and its "SwiGLU ... 11008" (the card as mirrored
// in public repositories, a public Chinese Markdown list of LLM resources and surveys (ending
// 'ChatGPT is not all you need. A State of the Art Review of large Generative AI models'); a public
// Chinese Markdown LLM notes file (ending with the Open-Assistant plan link and figure/image0.png
// references)); the key names and the RMS epsilon as the Baichuan config classes have them
// (Baichuan2-7B's above).
Json baichuan_7b() {
  Json j = baichuan2_7b();
  j["architectures"] = {"BaiChuanForCausalLM"};
  j["vocab_size"] = 64000;
  return j;
}

// baichuan-inc/Baichuan-13B-Base and -Chat: vLLM's copy of their
// configuration class (vllm/transformers_utils/configs/baichuan_13b.py:
// vocab_size 64000, hidden_size 5120, intermediate_size 13696, 40 layers,
// 40 heads, model_max_length 4096, rms_norm_eps 1e-6, untied), the same
// widths as the Baichuan-13B card's table (hidden 5,120, 40 layers, 40
// heads, vocabulary 64,000, ALiBi, 4,096 tokens; AlibabaPAI/FlashModels
// hf_models/config/baichuan-13b-base/README.md at 1c176f39).
Json baichuan_13b() {
  Json j = baichuan2_13b();
  j["vocab_size"] = 64000;
  return j;
}

// The GGUF header conversion/baichuan.py writes (BaichuanModel at 80fb11ac):
// base.py's keys (block_count, context_length from model_max_length when
// there is no max_position_embeddings, embedding_length,
// feed_forward_length, head_count, the RMS epsilon; no head_count_kv) and
// rope.dimension_count hidden / heads; W_pack unpacked into attn_q, attn_k
// and attn_v. Tensors as baichuan.cpp loads them, F16 with F32 norms.
test::GgufWriter baichuan_gguf(const Json& j) {
  const std::string a = "baichuan.";
  const auto e = j["hidden_size"].get<std::uint64_t>();
  const auto ff = j["intermediate_size"].get<std::uint64_t>();
  const auto v = j["vocab_size"].get<std::uint64_t>();
  const auto heads = j["num_attention_heads"].get<std::uint32_t>();
  const int layers = j["num_hidden_layers"].get<int>();
  test::GgufWriter w;
  w.str("general.architecture", "baichuan");
  w.u32("general.file_type", 1);
  w.u32(a + "block_count", static_cast<std::uint32_t>(layers));
  w.u32(a + "context_length", 4096);
  w.u32(a + "embedding_length", static_cast<std::uint32_t>(e));
  w.u32(a + "feed_forward_length", static_cast<std::uint32_t>(ff));
  w.u32(a + "attention.head_count", heads);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-6F);
  w.str(a + "tensor_data_layout", "Meta AI original pth");
  w.u32(a + "rope.dimension_count", static_cast<std::uint32_t>(e / heads));
  w.tensor("token_embd.weight", {e, v}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  w.tensor("output.weight", {e, v}, test::kF16);
  for (int i = 0; i < layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_q.weight", {e, e}, test::kF16);
    w.tensor(b + "attn_k.weight", {e, e}, test::kF16);
    w.tensor(b + "attn_v.weight", {e, e}, test::kF16);
    w.tensor(b + "attn_output.weight", {e, e}, test::kF16);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_gate.weight", {e, ff}, test::kF16);
    w.tensor(b + "ffn_down.weight", {ff, e}, test::kF16);
    w.tensor(b + "ffn_up.weight", {e, ff}, test::kF16);
  }
  return w;
}

// baichuan.cpp (80fb11ac) picks the positions by depth: 32 layers are its
// 7B (RoPE), 40 its 13B (ALiBi, f_max_alibi_bias 8), and any other depth
// builds neither, which for the buffers is the ALiBi graph (no inp_pos, no
// RoPE). Baichuan2-7B's modeling_baichuan.py ropes, the 13B's uses ALiBi.
TEST(Baichuan, ConfigIsKnownAndPositionsFollowTheDepth) {
  const Model b7 = from_config(baichuan2_7b());
  const Model b13 = from_config(baichuan2_13b());
  for (const Model* m : {&b7, &b13}) {
    EXPECT_TRUE(m->unchecked_architecture.empty()) << m->unchecked_architecture;
    EXPECT_EQ(m->arch.kv_heads, m->arch.heads);
    EXPECT_EQ(m->arch.head_dim, 128);
    EXPECT_EQ(m->arch.max_context, 4096);
    EXPECT_FALSE(m->arch.attention.fused_qkv);  // the converter splits W_pack
    EXPECT_FALSE(m->arch.qkv_bias);
    EXPECT_FALSE(m->arch.tied_embeddings);
  }
  EXPECT_FALSE(b7.arch.attention.alibi);
  EXPECT_TRUE(b13.arch.attention.alibi);
  Json reduced = baichuan2_7b();
  reduced["num_hidden_layers"] = 4;
  EXPECT_TRUE(from_config(reduced).arch.attention.alibi);
}

// ALiBi builds no position input and no RoPE, and the live rows show it:
// read with RoPE (a 32-layer Baichuan's graph), the same reduced file's
// buffer is 10 MiB off on every row without flash attention (low at 512
// tokens, high at 4096 and 32768: the roped Q and K move the placement of
// the scores), where the ALiBi reading is exact (the live test below).
TEST(Baichuan, AlibiBuildsNoPositions) {
  Json j = baichuan2_13b();
  j["num_hidden_layers"] = 4;
  Model roped = from_config(j);
  ASSERT_TRUE(roped.arch.attention.alibi);
  roped.arch.attention.alibi = false;
  const auto mib = static_cast<double>(kMiB);
  std::size_t off_rows = 0;
  test::for_each_live_row(
      "llamacpp_cpu_compute_baichuan.csv", [&](const std::vector<std::string>& c) {
        if (c[3] == "on") {
          return;
        }
        const double measured = (std::stod(c[6]) + std::stod(c[7])) * mib;
        EXPECT_GT(std::abs(static_cast<double>(test::live_row_estimate(roped, c).memory.compute) -
                           measured),
                  5.0 * mib);
        ++off_rows;
      });
  EXPECT_EQ(off_rows, 9U);
}

// The parameter counts: Baichuan 2's report names "7 billion and 13
// billion parameters" (arXiv 2309.10305); the shapes above give 7.506 B
// and 13.897 B. The count from the tensors the converter writes is what
// the file holds: checked here against the module shapes transformers
// prints for Baichuan2 (W_pack hidden x 3 hidden, o_proj, gate/up/down of
// intermediate_size, embed_tokens and lm_head of vocab x hidden), by hand.
TEST(Baichuan, ParameterCountsAreTheModulesShapes) {
  const auto count = [](std::int64_t e, std::int64_t f, std::int64_t v, std::int64_t l) {
    return 2 * v * e + l * (4 * e * e + 3 * e * f);
  };
  EXPECT_EQ(params(baichuan2_7b()), count(4096, 11008, 125696, 32));
  EXPECT_EQ(params(baichuan2_13b()), count(5120, 13696, 125696, 40));
  EXPECT_LT(rel(static_cast<double>(params(baichuan2_7b())), 7.0e9), 0.08);
  EXPECT_LT(rel(static_cast<double>(params(baichuan2_13b())), 13.0e9), 0.08);
}

TEST(Baichuan, GgufHeaderGivesWhatTheConfigGives) {
  for (const Json& j : {baichuan2_7b(), baichuan2_13b(), baichuan_7b(), baichuan_13b()}) {
    const Model g = from_header(baichuan_gguf(j));
    const Model c = from_config(j);
    EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
    EXPECT_EQ(g.arch.attention.alibi, c.arch.attention.alibi);
    EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
    test::expect_same_estimate(g, c, "baichuan GGUF vs config, " + j["hidden_size"].dump(),
                               kEstimateGrid);
  }
}

// Baichuan2-13B-Chat reduced to 4 of its 40 layers (make_gguf row
// baichuan2-13b-chat-r4, every width the model's), read from its
// config.json with num_hidden_layers 4, against what a real llama.cpp
// reserved (tests/data/llamacpp_cpu_compute_baichuan.csv,
// llamacpp_cpu_kv_baichuan.csv). At 4 layers baichuan.cpp builds no
// positions at all, the 13B's graph.
TEST(Baichuan, ReducedBaichuan2_13bMatchesTheLiveLlamaCpp) {
  Json j = baichuan2_13b();
  j["num_hidden_layers"] = 4;
  expect_live_rows(from_config(j), "baichuan", 27);
}

// The first generation's cards print exact totals: "7,000,559,616" and
// "13,264,901,120" (the Baichuan-13B card's table, FlashModels README.md
// above; the 7B's own card gives the same 7000559616). The 13B's checkpoint
// index agrees: total_size 26,529,802,240 bytes, 2 bytes a parameter
// (FlashModels hf_models/config/baichuan-13b-base/pytorch_model.bin.index.json).
// willfit's count leaves out the RMSNorm weights (two a layer and the final
// one, hidden_size each); with them it is the card's to the parameter.
TEST(Baichuan, FirstGenerationCountsAreTheCards) {
  const auto norms = [](std::int64_t layers, std::int64_t hidden) {
    return (2 * layers + 1) * hidden;
  };
  EXPECT_EQ(params(baichuan_7b()) + norms(32, 4096), 7000559616);
  EXPECT_EQ(params(baichuan_13b()) + norms(40, 5120), 13264901120);
  EXPECT_EQ(2 * (params(baichuan_13b()) + norms(40, 5120)), 26529802240);
  EXPECT_FALSE(from_config(baichuan_7b()).arch.attention.alibi);  // 32 layers: RoPE
  EXPECT_TRUE(from_config(baichuan_13b()).arch.attention.alibi);  // 40 layers: ALiBi
}

// The catalogue's entries (data/models.json baichuan-7b, baichuan-13b) are
// their configs, the 13B with ALiBi positions, and hold the cards' counts.
TEST(Baichuan, CatalogueEntriesAreTheirConfigs) {
  const std::pair<std::string, Json> entries[] = {{"baichuan-7b", baichuan_7b()},
                                                  {"baichuan-13b", baichuan_13b()}};
  for (const auto& [id, config] : entries) {
    expect_catalogue_is_config(id, config);
    const Model& cat = test::catalogue_model(id);
    EXPECT_EQ(cat.arch.attention.alibi, from_config(config).arch.attention.alibi) << id;
    EXPECT_LT(rel(static_cast<double>(params(config)), static_cast<double>(cat.params)), 0.001)
        << id;
  }
}

// The catalogue's Baichuan 2 entries (data/models.json baichuan2-7b,
// baichuan2-13b) are their configs, the 13B with ALiBi positions, and hold
// the counts the Base checkpoints' shards give at 2 bytes a weight (the
// repositories' file pages at their initial commits: 9.93 and 5.08 GB for
// the 7B at 0b435f4; 9.97, 9.95 and 7.87 GB for the 13B at 7c178a6). The
// shapes above count 7,505,973,248 and 13,896,668,160: under 0.02 % off.
TEST(Baichuan, Baichuan2CatalogueEntriesAreTheirConfigs) {
  const std::tuple<std::string, Json, std::int64_t> entries[] = {
      {"baichuan2-7b", baichuan2_7b(), std::int64_t{9'930'000'000} + 5'080'000'000},
      {"baichuan2-13b", baichuan2_13b(),
       std::int64_t{9'970'000'000} + 9'950'000'000 + 7'870'000'000}};
  for (const auto& [id, config, bytes] : entries) {
    expect_catalogue_is_config(id, config);
    const Model& cat = test::catalogue_model(id);
    EXPECT_EQ(cat.arch.attention.alibi, from_config(config).arch.attention.alibi) << id;
    EXPECT_EQ(cat.params, bytes / 2) << id;
    EXPECT_LT(rel(static_cast<double>(params(config)), static_cast<double>(cat.params)), 0.0002)
        << id;
  }
  for (const char* name : {"baichuan-inc/Baichuan2-7B-Chat", "baichuan2-7b-base"}) {
    EXPECT_EQ(test::catalogue_model(name).id, "baichuan2-7b") << name;
  }
  for (const char* name : {"baichuan-inc/Baichuan2-13B-Base", "baichuan2-13b-chat"}) {
    EXPECT_EQ(test::catalogue_model(name).id, "baichuan2-13b") << name;
  }
}

// ---- Orion (orion) -----------------------------------------------------------

// OrionStarAI/Orion-14B config.json values as a public NeuronX port of
// modeling_orion.py falls back to them when a key is missing (a public Python NeuronX port of Orion
// (get_compiler_args: 'Disables HLO verification to avoid shape mismatch errors during weight
// layout optimization'), OrionInferenceConfig.from_pretrained): hidden_size 5120, 40 heads and 40
// KV heads, 40 layers, vocab_size 84608, max_position_embeddings 4096, rope_theta 10000,
// rms_norm_eps 1e-05 (read as the LayerNorms' epsilon), intermediate_size 15360, untied.
Json orion_14b() {
  return {{"architectures", {"OrionForCausalLM"}},
          {"model_type", "orion"},
          {"hidden_act", "silu"},
          {"hidden_size", 5120},
          {"intermediate_size", 15360},
          {"max_position_embeddings", 4096},
          {"num_attention_heads", 40},
          {"num_hidden_layers", 40},
          {"num_key_value_heads", 40},
          {"rms_norm_eps", 1e-05},
          {"rope_theta", 10000.0},
          {"tie_word_embeddings", false},
          {"vocab_size", 84608}};
}

// The GGUF header conversion/orion.py writes (OrionModel at 80fb11ac):
// file_type, tensor_data_layout, context_length, embedding_length,
// block_count, feed_forward_length, head_count, head_count_kv and the
// LayerNorm epsilon (attention.layer_norm_epsilon, from rms_norm_eps).
// Tensors as orion.cpp loads them: llama's, plus the bias of every norm.
test::GgufWriter orion_gguf(int layers) {
  const std::string a = "orion.";
  const std::uint64_t e = 5120;
  const std::uint64_t ff = 15360;
  const std::uint64_t v = 84608;
  test::GgufWriter w;
  w.str("general.architecture", "orion");
  w.u32("general.file_type", 1);
  w.str(a + "tensor_data_layout", "Meta AI original pth");
  w.u32(a + "context_length", 4096);
  w.u32(a + "embedding_length", 5120);
  w.u32(a + "block_count", static_cast<std::uint32_t>(layers));
  w.u32(a + "feed_forward_length", 15360);
  w.u32(a + "attention.head_count", 40);
  w.u32(a + "attention.head_count_kv", 40);
  w.f32(a + "attention.layer_norm_epsilon", 1e-5F);
  w.tensor("token_embd.weight", {e, v}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  w.tensor("output_norm.bias", {e}, test::kF32);
  w.tensor("output.weight", {e, v}, test::kF16);
  for (int i = 0; i < layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_norm.bias", {e}, test::kF32);
    w.tensor(b + "attn_q.weight", {e, e}, test::kF16);
    w.tensor(b + "attn_k.weight", {e, e}, test::kF16);
    w.tensor(b + "attn_v.weight", {e, e}, test::kF16);
    w.tensor(b + "attn_output.weight", {e, e}, test::kF16);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_norm.bias", {e}, test::kF32);
    w.tensor(b + "ffn_gate.weight", {e, ff}, test::kF16);
    w.tensor(b + "ffn_down.weight", {ff, e}, test::kF16);
    w.tensor(b + "ffn_up.weight", {e, ff}, test::kF16);
  }
  return w;
}

TEST(Orion, ConfigIsKnownWithBiasedNorms) {
  const Model m = from_config(orion_14b());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  EXPECT_TRUE(m.arch.norm_bias);
  EXPECT_FALSE(m.arch.attention_bias || m.arch.qkv_bias || m.arch.output_bias);
  EXPECT_TRUE(m.arch.mlp_gated);
  EXPECT_EQ(m.arch.kv_heads, 40);
  EXPECT_EQ(m.arch.max_context, 4096);
  const Model g = from_header(orion_gguf(40));
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_TRUE(g.arch.norm_bias);
  EXPECT_EQ(count_params(g.arch).total(), count_params(m.arch).total());
  test::expect_same_estimate(g, m, "orion GGUF vs config", kEstimateGrid);
}

// The weights of an F16 conversion, counted by hand from the tensors
// orion.cpp loads: the matrices at 2 bytes, the norms' weights and biases
// (two vectors each, 2 a layer and the final one) at 4.
TEST(Orion, F16WeightsCountTheNormBiases) {
  const std::int64_t e = 5120;
  const std::int64_t matrices = 2 * e * 84608 + 40 * (4 * e * e + 3 * e * 15360);
  const std::int64_t vectors = 2 * e + 40 * 4 * e;
  EXPECT_EQ(weight_layout(from_config(orion_14b()), *parse_precision("f16")).total(),
            2 * matrices + 4 * vectors);
}

// Orion's cards say 14B (the model overview of OrionStarAI/Orion, a public Markdown model overview
// of OrionStarAI/Orion-14B (model.chat(tokenizer, messages, streaming=False); contact
// ai@orionstar.com): "14B parameters"); the tensors hold 14.50 B, the token embedding and output of
// its 84608-row vocabulary included.
TEST(Orion, ParameterCountNearTheCards) {
  EXPECT_LT(rel(static_cast<double>(params(orion_14b())), 14.0e9), 0.04);
}

// The catalogue's entry (data/models.json orion-14b) is its config, with
// the norms' biases, and holds the 14.50 B llama.cpp printed loading an
// Orion-14B-Chat-RAG GGUF (ggml-org/llama.cpp issue 12411): the tensors
// orion.cpp loads, counted by hand (the norms' weights and biases
// included), round to it.
TEST(Orion, CatalogueEntryIsItsConfig) {
  expect_catalogue_is_config("orion-14b", orion_14b());
  const Model& cat = test::catalogue_model("orion-14b");
  EXPECT_TRUE(cat.arch.norm_bias);
  const std::int64_t e = 5120;
  const std::int64_t tensors =
      2 * e * 84608 + 40 * (4 * e * e + 3 * e * 15360) + 2 * e + 40 * 4 * e;
  EXPECT_EQ(tensors, 14498703360);
  EXPECT_LT(std::abs(static_cast<double>(tensors) - 14.50e9), 0.005e9);
  EXPECT_EQ(cat.params, 14500000000);
}

// Read as llama's RMS norms (which ggml-alloc runs in place), the final
// norm would reuse the last layer's output; orion.cpp's LayerNorm is a new
// tensor beside it. On the live rows the RMS reading misses by one hidden x
// micro-batch F32 tensor (10 MiB) on 20 of 26 (all but the rows without
// flash attention at 4096 and 32768 tokens, where the scores are the peak).
TEST(Orion, LayerNormsAreNewTensors) {
  Json j = orion_14b();
  j["num_hidden_layers"] = 4;
  Model rms = from_config(j);
  rms.arch.norm_bias = false;
  const auto mib = static_cast<double>(kMiB);
  std::size_t missed = 0;
  test::for_each_live_row("llamacpp_cpu_compute_orion.csv", [&](const std::vector<std::string>& c) {
    const double measured = (std::stod(c[6]) + std::stod(c[7])) * mib;
    const double off =
        std::abs(static_cast<double>(test::live_row_estimate(rms, c).memory.compute) - measured);
    missed += off > 9.0 * mib ? 1 : 0;
  });
  EXPECT_EQ(missed, 20U);
}

// Orion-14B-Chat reduced to 4 of its 40 layers (make_gguf row
// orion-14b-chat-r4, every width the model's), read from its config.json
// with num_hidden_layers 4, against what a real llama.cpp reserved
// (tests/data/llamacpp_cpu_compute_orion.csv, llamacpp_cpu_kv_orion.csv).
TEST(Orion, ReducedOrion14bMatchesTheLiveLlamaCpp) {
  Json j = orion_14b();
  j["num_hidden_layers"] = 4;
  expect_live_rows(from_config(j), "orion", 26);
}

// ---- CodeShell (codeshell) -----------------------------------------------------

// WisdomShell/CodeShell-7B config.json as the model's own repository
// carries it (WisdomShell/codeshell model/config.json at e7f6c9f5;
// model_type kclgpt there, codeshell in the hub's CodeShellConfig,
// huggingface/transformers fork src/transformers/models/codeshell/
// configuration_codeshell.py at 29a7759b).
Json codeshell_7b(const char* model_type = "kclgpt") {
  return {{"architectures", {"CodeShellForCausalLM"}},
          {"model_type", model_type},
          {"activation_function", "gelu_pytorch_tanh"},
          {"group_query_attention", true},
          {"num_query_groups", 8},
          {"position_embedding_type", "rope"},
          {"vocab_size", 70144},
          {"layer_norm_epsilon", 1e-05},
          {"n_layer", 42},
          {"n_embd", 4096},
          {"n_inner", 16384},
          {"n_head", 32},
          {"n_positions", 8192},
          {"rope_scaling", nullptr}};
}

// The GGUF header conversion/codeshell.py writes (CodeShellModel at
// 80fb11ac): context_length (n_positions), embedding_length,
// feed_forward_length (4 n_embd), block_count, head_count, head_count_kv
// (num_query_groups), the LayerNorm epsilon, file_type, rope.freq_base and
// a linear rope scaling of factor 1. Tensors as codeshell.cpp loads them:
// token_embd, output_norm with its bias, output; per layer LayerNorms with
// biases, attn_qkv (c_attn) and attn_output with biases, ffn_up and
// ffn_down with biases.
test::GgufWriter codeshell_gguf(int layers) {
  const std::string a = "codeshell.";
  const std::uint64_t e = 4096;
  const std::uint64_t qkv = 4096 + 2 * 1024;
  const std::uint64_t ff = 16384;
  const std::uint64_t v = 70144;
  test::GgufWriter w;
  w.str("general.architecture", "codeshell");
  w.u32(a + "context_length", 8192);
  w.u32(a + "embedding_length", 4096);
  w.u32(a + "feed_forward_length", 16384);
  w.u32(a + "block_count", static_cast<std::uint32_t>(layers));
  w.u32(a + "attention.head_count", 32);
  w.u32(a + "attention.head_count_kv", 8);
  w.f32(a + "attention.layer_norm_epsilon", 1e-5F);
  w.u32("general.file_type", 1);
  w.f32(a + "rope.freq_base", 10000.0F);
  w.str(a + "rope.scaling.type", "linear");
  w.f32(a + "rope.scaling.factor", 1.0F);
  w.tensor("token_embd.weight", {e, v}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  w.tensor("output_norm.bias", {e}, test::kF32);
  w.tensor("output.weight", {e, v}, test::kF16);
  for (int i = 0; i < layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_norm.bias", {e}, test::kF32);
    w.tensor(b + "attn_qkv.weight", {e, qkv}, test::kF16);
    w.tensor(b + "attn_qkv.bias", {qkv}, test::kF32);
    w.tensor(b + "attn_output.weight", {e, e}, test::kF16);
    w.tensor(b + "attn_output.bias", {e}, test::kF32);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_norm.bias", {e}, test::kF32);
    w.tensor(b + "ffn_up.weight", {e, ff}, test::kF16);
    w.tensor(b + "ffn_up.bias", {ff}, test::kF32);
    w.tensor(b + "ffn_down.weight", {ff, e}, test::kF16);
    w.tensor(b + "ffn_down.bias", {e}, test::kF32);
  }
  return w;
}

TEST(CodeShell, ConfigIsKnownWithGroupedHeads) {
  for (const char* type : {"kclgpt", "codeshell"}) {
    const Model m = from_config(codeshell_7b(type));
    EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
    EXPECT_EQ(m.arch.kv_heads, 8) << type;
    EXPECT_EQ(m.arch.head_dim, 128);
    EXPECT_EQ(m.arch.intermediate_size, 16384);
    EXPECT_FALSE(m.arch.mlp_gated);
    EXPECT_TRUE(m.arch.attention.fused_qkv && m.arch.qkv_bias);
    EXPECT_EQ(m.arch.learned_positions, 0);  // RoPE, not GPT-2's table
    EXPECT_EQ(m.arch.attention.parallel_block, ParallelBlock::None);
    EXPECT_FALSE(m.arch.tied_embeddings);  // codeshell.cpp loads output always
    EXPECT_EQ(m.arch.max_context, 8192);
  }
  const Model g = from_header(codeshell_gguf(42));
  const Model c = from_config(codeshell_7b());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_EQ(g.arch.kv_heads, 8);
  EXPECT_TRUE(g.arch.attention.fused_qkv && g.arch.qkv_bias && !g.arch.mlp_gated);
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
  test::expect_same_estimate(g, c, "codeshell GGUF vs config", kEstimateGrid);
}

// K and V of the 8 query groups, not of the 32 heads: 42 x 2 x 8 x 128 x 2
// bytes a token at F16 (168 KiB; read as every head, 4 x as much).
TEST(CodeShell, KvCacheHoldsTheQueryGroups) {
  const std::int64_t ctx = 8192;
  EXPECT_EQ(llama_estimate(from_config(codeshell_7b()), ctx).memory.kv_cache,
            std::int64_t{42} * 2 * 8 * 128 * 2 * ctx);
}

// The weights of an F16 conversion, counted by hand from the tensors
// codeshell.cpp loads: the matrices at 2 bytes; the LayerNorms' weights and
// biases and the QKV, wo, up and down biases at 4.
TEST(CodeShell, F16WeightsAreTheConvertersTensors) {
  const std::int64_t e = 4096;
  const std::int64_t qkv = 6144;
  const std::int64_t f = 16384;
  const std::int64_t matrices = 2 * e * 70144 + 42 * (e * qkv + e * e + 2 * e * f);
  const std::int64_t vectors = 2 * e + 42 * (4 * e + qkv + e + f + e);
  EXPECT_EQ(weight_layout(from_config(codeshell_7b()), *parse_precision("f16")).total(),
            2 * matrices + 4 * vectors);
}

// CodeShell's card: 7 billion parameters (70亿; WisdomShell/codeshell
// README.md, and transformers' code_shell.md: "CodeShell has 7 billion
// parameters"). The file's tensors hold 7.98 B: 7.69 B in the layers and
// the embedding, and 0.29 B more in the output head the converter writes.
TEST(CodeShell, ParameterCountNearTheCard) {
  const ParamBreakdown p = count_params(from_config(codeshell_7b()).arch);
  EXPECT_LT(rel(static_cast<double>(p.total() - p.output), 7.0e9), 0.1);
}

// The catalogue's codeshell-7b (data/models.json) is its config, with the
// output head conversion/codeshell.py writes as a copy of the token table.
// Its count is the published checkpoint's, which ties that head: the Chat
// model's two shards (9.96 and 5.42 GB at c2697f6, the repository's file
// pages) at 2 bytes a weight, 7.69 B, against 7,688,048,640 in the shapes
// without the head (tests/unit/test_catalogue_arch.cpp lists the gap);
// willfit leaves out the LayerNorms (2 M), as for every GPT-2 layer.
TEST(CodeShell, CatalogueEntryIsItsConfig) {
  expect_catalogue_is_config("codeshell-7b", codeshell_7b());
  const Model& cat = test::catalogue_model("codeshell-7b");
  EXPECT_EQ(cat.params, (std::int64_t{9'960'000'000} + 5'420'000'000) / 2);
  const ParamBreakdown p = count_params(cat.arch);
  EXPECT_EQ(p.output, std::int64_t{70144} * 4096);
  EXPECT_LT(rel(static_cast<double>(p.total() - p.output), 7'688'048'640.0), 0.0005);
  EXPECT_LT(rel(static_cast<double>(p.total() - p.output), static_cast<double>(cat.params)), 0.001);
  for (const char* name : {"WisdomShell/CodeShell-7B", "WisdomShell/CodeShell-7B-Chat"}) {
    EXPECT_EQ(test::catalogue_model(name).id, "codeshell-7b") << name;
  }
}

// CodeShell-7B reduced to 4 of its 42 layers (make_gguf row
// codeshell-7b-r4, every width the model's), read from its config.json with
// n_layer 4, against what a real llama.cpp reserved
// (tests/data/llamacpp_cpu_compute_codeshell.csv, llamacpp_cpu_kv_codeshell.csv).
TEST(CodeShell, ReducedCodeShell7bMatchesTheLiveLlamaCpp) {
  Json j = codeshell_7b();
  j["n_layer"] = 4;
  expect_live_rows(from_config(j), "codeshell", 27);
}

// ---- XVERSE (xverse) -------------------------------------------------------------

// xverse/XVERSE-13B as XverseConfig's defaults describe it ("a similar
// configuration to that of the XVERSE-13B"; configuration_xverse.py as
// ssbuild/deep_training carries it, e286f54e): vocab_size 100278 (the
// model's README: "a vocabulary size of 100,278", xverse-ai/XVERSE-13B
// README_EN.md), hidden_size 5120, intermediate_size 13824, 40 layers, 40
// heads, 8192 positions, rms_norm_eps 1e-6, untied.
Json xverse_13b() {
  return {{"architectures", {"XverseForCausalLM"}},
          {"model_type", "xverse"},
          {"hidden_act", "silu"},
          {"hidden_size", 5120},
          {"intermediate_size", 13824},
          {"max_position_embeddings", 8192},
          {"num_attention_heads", 40},
          {"num_hidden_layers", 40},
          {"rms_norm_eps", 1e-06},
          {"tie_word_embeddings", false},
          {"vocab_size", 100278}};
}

// The GGUF header conversion/xverse.py writes (XverseModel at 80fb11ac):
// base.py's keys (no head_count_kv: the config has none), the tensor data
// layout and rope.dimension_count hidden / heads. Tensors as xverse.cpp
// loads them: llama's, attn_q, attn_k and attn_v apart.
test::GgufWriter xverse_gguf(const Json& j) {
  const std::string a = "xverse.";
  const auto e = j["hidden_size"].get<std::uint64_t>();
  const auto ff = j["intermediate_size"].get<std::uint64_t>();
  const auto v = j["vocab_size"].get<std::uint64_t>();
  const auto heads = j["num_attention_heads"].get<std::uint32_t>();
  const int layers = j["num_hidden_layers"].get<int>();
  test::GgufWriter w;
  w.str("general.architecture", "xverse");
  w.u32("general.file_type", 1);
  w.u32(a + "block_count", static_cast<std::uint32_t>(layers));
  w.u32(a + "context_length", j["max_position_embeddings"].get<std::uint32_t>());
  w.u32(a + "embedding_length", static_cast<std::uint32_t>(e));
  w.u32(a + "feed_forward_length", static_cast<std::uint32_t>(ff));
  w.u32(a + "attention.head_count", heads);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-6F);
  w.str(a + "tensor_data_layout", "Meta AI original pth");
  w.u32(a + "rope.dimension_count", static_cast<std::uint32_t>(e / heads));
  w.tensor("token_embd.weight", {e, v}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  w.tensor("output.weight", {e, v}, test::kF16);
  for (int i = 0; i < layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_q.weight", {e, e}, test::kF16);
    w.tensor(b + "attn_k.weight", {e, e}, test::kF16);
    w.tensor(b + "attn_v.weight", {e, e}, test::kF16);
    w.tensor(b + "attn_output.weight", {e, e}, test::kF16);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_gate.weight", {e, ff}, test::kF16);
    w.tensor(b + "ffn_down.weight", {ff, e}, test::kF16);
    w.tensor(b + "ffn_up.weight", {e, ff}, test::kF16);
  }
  return w;
}

// xverse.cpp's graph is llama's (RMS norms, RoPE on Q and K, SwiGLU), so
// the shared keys were right; the name is now known, and both readings give
// one estimate. Not run live: the replay is the llama graph checked on
// every llama row of docs/live-llamacpp.md.
TEST(Xverse, ConfigAndGgufAreKnownAndAgree) {
  const Model c = from_config(xverse_13b());
  const Model g = from_header(xverse_gguf(xverse_13b()));
  for (const Model* m : {&c, &g}) {
    EXPECT_TRUE(m->unchecked_architecture.empty()) << m->unchecked_architecture;
    EXPECT_EQ(m->arch.kv_heads, 40);
    EXPECT_EQ(m->arch.head_dim, 128);
    EXPECT_TRUE(m->arch.mlp_gated);
    EXPECT_FALSE(m->arch.attention.fused_qkv || m->arch.qkv_bias || m->arch.norm_bias);
    EXPECT_FALSE(m->arch.tied_embeddings);
  }
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
  test::expect_same_estimate(g, c, "xverse GGUF vs config", kEstimateGrid);
  // K and V of every head: 40 x 2 x 5120 x 2 bytes a token at F16.
  EXPECT_EQ(llama_estimate(c, 8192).memory.kv_cache, std::int64_t{40} * 2 * 5120 * 2 * 8192);
}

// The catalogue's xverse-13b (data/models.json) is the repository's own
// config.json at its "Update xverse model" release (xverse/XVERSE-13B at
// 60441ff, the file as its history shows it: XverseConfig's widths above
// with vocab_size 100534, the vocabulary of XVERSE-7B and 65B). Its count is
// that release's ten shards at 2 bytes a weight (the repository's file
// pages: 2.51 GB, seven of 3.17 GB, 1.69 and 1.03 GB: 27.42 GB); the shapes
// count 13,717,652,480, 0.05 % more.
TEST(Xverse, CatalogueEntryIsItsConfig) {
  Json j = xverse_13b();
  j["vocab_size"] = 100534;
  expect_catalogue_is_config("xverse-13b", j);
  const Model& cat = test::catalogue_model("xverse-13b");
  const std::int64_t bytes =
      std::int64_t{2'510'000'000} + 7 * std::int64_t{3'170'000'000} + 1'690'000'000 + 1'030'000'000;
  EXPECT_EQ(cat.params, bytes / 2);
  EXPECT_LT(rel(static_cast<double>(params(j)), static_cast<double>(cat.params)), 0.001);
  for (const char* name : {"xverse/XVERSE-13B", "xverse/XVERSE-13B-Chat"}) {
    EXPECT_EQ(test::catalogue_model(name).id, "xverse-13b") << name;
  }
}

// XVERSE-13B's card says 13B; its tensors hold 13.71 B (the 100278-row
// embedding and output included). The F16 file, counted by hand.
TEST(Xverse, WeightsAreLlamasTensors) {
  EXPECT_LT(rel(static_cast<double>(params(xverse_13b())), 13.0e9), 0.06);
  const std::int64_t e = 5120;
  const std::int64_t matrices = 2 * e * 100278 + 40 * (4 * e * e + 3 * e * 13824);
  const std::int64_t vectors = e + 40 * 2 * e;
  EXPECT_EQ(weight_layout(from_config(xverse_13b()), *parse_precision("f16")).total(),
            2 * matrices + 4 * vectors);
}

}  // namespace
}  // namespace willfit
