// The architectures of issue 18's second round, each read two ways: from a
// config.json written here with the model's published values (the test names
// where they come from) and from a GGUF header with the keys llama.cpp's
// converter writes for it (conversion/*.py at 80fb11ac). Both must give the
// same KV cache and the same replayed compute buffer; the counted parameters
// are checked against the model card's total where the card gives one.
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/catalogue_model.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/hf_config.hpp"
#include "willfit/models/model.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;

using test::from_config;
using test::from_gguf;
using test::rel;

Estimate llama_estimate(const Model& m, std::int64_t ctx) {
  InferenceQuery q;
  q.model = m;
  q.precision = *parse_precision("q4_k_m");
  q.runtime = Runtime::LlamaCpp;
  q.context = ctx;
  return estimate_inference(q);
}

// The two readings agree on what sizes memory: KV cache (never empty) and
// compute buffer at a short and a long context (test::expect_same_estimate),
// the MoE layout and whether the MLP is gated.
void expect_same_reading(const Model& cfg, const Model& file) {
  EXPECT_TRUE(cfg.unchecked_architecture.empty()) << cfg.unchecked_architecture;
  EXPECT_TRUE(file.unchecked_architecture.empty()) << file.unchecked_architecture;
  EXPECT_EQ(cfg.arch.mlp_gated, file.arch.mlp_gated);
  EXPECT_EQ(cfg.arch.deepstack_layers, file.arch.deepstack_layers);
  ASSERT_EQ(cfg.arch.moe.has_value(), file.arch.moe.has_value());
  if (cfg.arch.moe) {
    EXPECT_EQ(cfg.arch.moe->experts, file.arch.moe->experts);
    EXPECT_EQ(cfg.arch.moe->experts_per_token, file.arch.moe->experts_per_token);
    EXPECT_EQ(cfg.arch.moe->shared_experts, file.arch.moe->shared_experts);
    EXPECT_EQ(cfg.arch.moe->expert_intermediate_size, file.arch.moe->expert_intermediate_size);
    EXPECT_EQ(cfg.arch.moe->first_dense_layers, file.arch.moe->first_dense_layers);
    EXPECT_EQ(cfg.arch.moe->layer_step, file.arch.moe->layer_step);
    EXPECT_EQ(cfg.arch.moe->selection_bias, file.arch.moe->selection_bias);
  }
  const test::EstimateGrid grid{.contexts = {4096, 32768},
                                .flash = {FlashAttention::Auto},
                                .params = test::EstimateGrid::Params::None};
  for (const auto& p : test::expect_same_estimate(cfg, file, "config vs GGUF", grid)) {
    EXPECT_GT(p.x.memory.kv_cache, 0) << p.context;
  }
}

// A GGUF header of the keys every architecture shares, as the converter
// writes them; the caller adds its architecture's own keys and tensors.
struct Shape {
  std::string arch;
  std::uint32_t layers = 0;
  std::uint32_t hidden = 0;
  std::uint32_t ffn = 0;
  std::uint32_t heads = 0;
  std::uint32_t kv_heads = 0;
  std::uint32_t head_dim = 0;
  std::uint32_t vocab = 0;
  std::uint32_t context = 0;
  bool tied = false;
};

test::GgufWriter gguf(const Shape& s) {
  test::GgufWriter w;
  const auto k = [&](const char* key) { return s.arch + "." + key; };
  w.str("general.architecture", s.arch);
  w.u32(k("block_count"), s.layers);
  w.u32(k("embedding_length"), s.hidden);
  w.u32(k("feed_forward_length"), s.ffn);
  w.u32(k("attention.head_count"), s.heads);
  w.u32(k("attention.head_count_kv"), s.kv_heads);
  w.u32(k("attention.key_length"), s.head_dim);
  w.u32(k("attention.value_length"), s.head_dim);
  w.u32(k("context_length"), s.context);
  w.u32(k("vocab_size"), s.vocab);
  w.tensor("token_embd.weight", {s.hidden, 256}, test::kQ8_0);
  if (!s.tied) {
    w.tensor("output.weight", {s.hidden, 256}, test::kQ8_0);
  }
  return w;
}

// allenai/OLMoE-1B-7B-0924 config.json (as transcribed in public adapters of
// it): 16 layers of 64 experts, 8 used, each 1024 wide; full multi-head
// attention with Q and K norms over the whole width (olmoe.cpp).
Json olmoe_config() {
  return {{"model_type", "olmoe"},
          {"hidden_size", 2048},
          {"intermediate_size", 1024},
          {"num_hidden_layers", 16},
          {"num_attention_heads", 16},
          {"num_key_value_heads", 16},
          {"num_experts", 64},
          {"num_experts_per_tok", 8},
          {"vocab_size", 50304},
          {"max_position_embeddings", 4096},
          {"tie_word_embeddings", false},
          {"norm_topk_prob", false}};
}

TEST(NewArchitectures, OlmoeConfigAndGgufAgree) {
  // conversion/olmo.py: expert_count, expert_used_count; feed_forward_length
  // is the experts' width (olmoe.cpp creates ffn_*_exps of n_ff).
  test::GgufWriter w = gguf({"olmoe", 16, 2048, 1024, 16, 16, 128, 50304, 4096, false});
  w.u32("olmoe.expert_count", 64);
  w.u32("olmoe.expert_used_count", 8);
  w.tensor("blk.0.ffn_gate_exps.weight", {2048, 1024, 64}, test::kQ8_0);
  w.tensor("blk.0.ffn_up_exps.weight", {2048, 1024, 64}, test::kQ8_0);
  w.tensor("blk.0.ffn_gate_inp.weight", {2048, 64}, test::kF32);
  const Model cfg = from_config(olmoe_config());
  expect_same_reading(cfg, from_gguf(w));
  // The paper and card: 6.9 B total, 1.3 B active (OLMoE: Open
  // Mixture-of-Experts Language Models, table 1; "1B active, 7B total").
  EXPECT_LT(rel(static_cast<double>(cfg.params), 6.9e9), 0.01) << cfg.params;
  EXPECT_LT(rel(static_cast<double>(cfg.active_params), 1.3e9), 0.03) << cfg.active_params;
}

// baidu/ERNIE-4.5-21B-A3B-PT config.json (as repeated in public test
// fixtures of it): the first layer dense (moe_layer_start_index 1), then 64
// experts of 1536, 6 used, and two shared experts on every layer.
Json ernie_config() {
  return {{"model_type", "ernie4_5_moe"},
          {"hidden_size", 2560},
          {"intermediate_size", 12288},
          {"moe_intermediate_size", 1536},
          {"num_hidden_layers", 28},
          {"num_attention_heads", 20},
          {"num_key_value_heads", 4},
          {"head_dim", 128},
          {"moe_num_experts", 64},
          {"moe_num_shared_experts", 2},
          {"moe_k", 6},
          {"moe_layer_start_index", 1},
          {"moe_layer_end_index", 27},
          {"moe_layer_interval", 1},
          {"vocab_size", 103424},
          {"max_position_embeddings", 131072},
          {"tie_word_embeddings", true}};
}

TEST(NewArchitectures, ErnieMoeLeadingDenseLayerAndSharedExperts) {
  // conversion/ernie.py Ernie4_5MoeModel: expert_shared_count 2 and the
  // shared experts' width intermediate_size / num_key_value_heads (3072, two
  // experts' widths); leading_dense_block_count from moe_layer_start_index,
  // interleave_moe_layer_step from moe_layer_interval; the expert bias
  // (moe_statics.e_score_correction_bias) as blk.N.exp_probs_b.
  test::GgufWriter w = gguf({"ernie4_5-moe", 28, 2560, 12288, 20, 4, 128, 103424, 131072, true});
  w.u32("ernie4_5-moe.expert_count", 64);
  w.u32("ernie4_5-moe.expert_used_count", 6);
  w.u32("ernie4_5-moe.expert_feed_forward_length", 1536);
  w.u32("ernie4_5-moe.expert_shared_count", 2);
  w.u32("ernie4_5-moe.expert_shared_feed_forward_length", 3072);
  w.u32("ernie4_5-moe.leading_dense_block_count", 1);
  w.u32("ernie4_5-moe.interleave_moe_layer_step", 1);
  w.tensor("blk.0.ffn_gate.weight", {2560, 12288}, test::kQ8_0);
  w.tensor("blk.0.ffn_up.weight", {2560, 12288}, test::kQ8_0);
  w.tensor("blk.1.exp_probs_b.bias", {64}, test::kF32);
  const Model cfg = from_config(ernie_config());
  const Model file = from_gguf(w);
  expect_same_reading(cfg, file);
  ASSERT_TRUE(cfg.arch.moe.has_value());
  EXPECT_EQ(cfg.arch.moe->first_dense_layers, 1);
  EXPECT_EQ(cfg.arch.moe->shared_experts, 2);
  EXPECT_TRUE(cfg.arch.moe->selection_bias);
  EXPECT_EQ(moe_layer_count(cfg.arch), 27);
  // The card: 21B total, 3B activated per token, rounded; its 3B leaves out
  // the tied 0.26B of embeddings (103424 x 2560).
  EXPECT_GT(cfg.params, std::int64_t{21'000'000'000});
  EXPECT_LT(cfg.params, std::int64_t{22'000'000'000});
  const std::int64_t embeddings = count_params(cfg.arch).embedding;
  EXPECT_EQ(embeddings, std::int64_t{103424} * 2560);
  EXPECT_LT(rel(static_cast<double>(cfg.active_params - embeddings), 3.0e9), 0.05)
      << cfg.active_params;
  // The catalogue's entry by name gives the same memory as its config.json
  // (only the published counts differ: the card's rounded 21B).
  const Model named = test::catalogue_model("ernie-4.5-21b-a3b");
  for (const std::int64_t ctx : {std::int64_t{4096}, std::int64_t{131072}}) {
    EXPECT_EQ(llama_estimate(named, ctx).memory.kv_cache, llama_estimate(cfg, ctx).memory.kv_cache);
    EXPECT_EQ(llama_estimate(named, ctx).memory.compute, llama_estimate(cfg, ctx).memory.compute);
  }
}

// ByteDance-Seed/Seed-OSS-36B-Instruct config.json (as quoted in public
// ports of it): 64 layers, 80 query heads of 128 (a 10240-wide Q beside a
// 5120 hidden width), 8 KV heads; biases on Q, K and V (attention_bias),
// which cost no memory beyond their values.
Json seed_oss_config() {
  return {{"model_type", "seed_oss"},
          {"hidden_size", 5120},
          {"intermediate_size", 27648},
          {"num_hidden_layers", 64},
          {"num_attention_heads", 80},
          {"num_key_value_heads", 8},
          {"head_dim", 128},
          {"vocab_size", 155136},
          {"attention_bias", true},
          {"attention_out_bias", false},
          {"max_position_embeddings", 524288},
          {"tie_word_embeddings", false}};
}

TEST(NewArchitectures, SeedOssWideQueriesAndBiases) {
  test::GgufWriter w = gguf({"seed_oss", 64, 5120, 27648, 80, 8, 128, 155136, 524288, false});
  w.tensor("blk.0.attn_q.bias", {10240}, test::kF32);
  w.tensor("blk.0.ffn_gate.weight", {5120, 27648}, test::kQ8_0);
  w.tensor("blk.0.ffn_up.weight", {5120, 27648}, test::kQ8_0);
  const Model cfg = from_config(seed_oss_config());
  expect_same_reading(cfg, from_gguf(w));
  // KV: 64 layers x 8 heads x 128 x (K + V) x 2 bytes per token.
  EXPECT_EQ(llama_estimate(cfg, 4096).memory.kv_cache, std::int64_t{64} * 8 * 128 * 2 * 2 * 4096);
  EXPECT_LT(rel(static_cast<double>(cfg.params), 36e9), 0.01) << cfg.params;  // the card: 36B
}

// tencent/Hunyuan-A13B-Instruct config.json (model_type hunyuan_v1_moe in
// transformers; as quoted in public tests of it): 64 experts of 3072, 8 used,
// and one shared expert, given per layer.
Json hunyuan_config() {
  return {{"model_type", "hunyuan_v1_moe"},
          {"hidden_size", 4096},
          {"num_hidden_layers", 32},
          {"num_attention_heads", 32},
          {"num_key_value_heads", 8},
          {"head_dim", 128},
          {"intermediate_size", 3072},
          {"vocab_size", 128167},
          {"num_experts", 64},
          {"moe_intermediate_size", std::vector<int>(32, 3072)},
          {"moe_topk", std::vector<int>(32, 8)},
          {"num_shared_expert", std::vector<int>(32, 1)},
          {"max_position_embeddings", 32768},
          {"tie_word_embeddings", true}};
}

TEST(NewArchitectures, HunyuanMoeSharedExpertFromPerLayerLists) {
  // conversion/hunyuan.py: expert_shared_feed_forward_length =
  // intermediate_size, expert_feed_forward_length and expert_used_count from
  // the lists' first entries, expert_shared_count.
  test::GgufWriter w = gguf({"hunyuan-moe", 32, 4096, 3072, 32, 8, 128, 128167, 262144, true});
  w.u32("hunyuan-moe.expert_count", 64);
  w.u32("hunyuan-moe.expert_used_count", 8);
  w.u32("hunyuan-moe.expert_feed_forward_length", 3072);
  w.u32("hunyuan-moe.expert_shared_feed_forward_length", 3072);
  w.u32("hunyuan-moe.expert_shared_count", 1);
  w.tensor("blk.0.ffn_gate_exps.weight", {4096, 3072, 64}, test::kQ8_0);
  w.tensor("blk.0.ffn_up_shexp.weight", {4096, 3072}, test::kQ8_0);
  const Model cfg = from_config(hunyuan_config());
  expect_same_reading(cfg, from_gguf(w));
  ASSERT_TRUE(cfg.arch.moe.has_value());
  EXPECT_EQ(cfg.arch.moe->experts_per_token, 8);
  EXPECT_EQ(cfg.arch.moe->shared_experts, 1);
  // The card: 80B total, 13B active.
  EXPECT_LT(rel(static_cast<double>(cfg.params), 80e9), 0.01) << cfg.params;
  EXPECT_LT(rel(static_cast<double>(cfg.active_params), 13e9), 0.03) << cfg.active_params;
}

// arcee-ai/AFM-4.5B's shape (config.json of its fine-tune
// Delta-Vector/Austral-AFM-SFT, model_type arcee): an MLP of up, ReLU^2 and
// down, no gate (modeling_arcee.py; llama.cpp arcee.cpp LLM_FFN_RELU_SQR).
Json afm_config() {
  return {{"model_type", "arcee"},
          {"hidden_size", 2560},
          {"intermediate_size", 18432},
          {"num_hidden_layers", 36},
          {"num_attention_heads", 20},
          {"num_key_value_heads", 4},
          {"head_dim", 128},
          {"vocab_size", 128005},
          {"hidden_act", "relu2"},
          {"max_position_embeddings", 65536},
          {"tie_word_embeddings", false}};
}

TEST(NewArchitectures, ArceeUngatedMlpFromConfigAndTensors) {
  test::GgufWriter w = gguf({"arcee", 36, 2560, 18432, 20, 4, 128, 128005, 65536, false});
  w.tensor("blk.0.ffn_up.weight", {2560, 18432}, test::kQ8_0);
  w.tensor("blk.0.ffn_down.weight", {18432, 2560}, test::kQ8_0);
  const Model cfg = from_config(afm_config());
  const Model file = from_gguf(w);
  EXPECT_FALSE(cfg.arch.mlp_gated);
  EXPECT_FALSE(file.arch.mlp_gated);
  expect_same_reading(cfg, file);
  // Two matrices of 2560 x 18432 a layer: the card's 4.5B.
  EXPECT_LT(rel(static_cast<double>(cfg.params), 4.5e9), 0.03) << cfg.params;
}

// AFM-4.5B's file at Q4_K_M, tensor by tensor. conversion/llama.py
// ArceeModel (LlamaModel's tensor map, at 80fb11ac) writes token_embd,
// output_norm, output and, per block, attn_norm, attn_q, attn_k, attn_v,
// attn_output, ffn_norm, ffn_up and ffn_down: what arcee.cpp
// load_arch_tensors creates (create_tensor_qkv with no attn_qkv in the file:
// q, k and v apart, their biases optional and absent; no gate). llama-quant.cpp
// llama_tensor_get_type_impl gives the Q4_K_M file Q4_K throughout but the
// output (Q6_K), attn_v and ffn_down (Q6_K on the layers use_more_bits picks:
// i < n/8, i >= 7n/8, (i - n/8) % 3 == 2) and the norms (F32, 1-D).
TEST(NewArchitectures, ArceeBlocksAreTheFilesTensors) {
  constexpr std::uint32_t e = 2560;
  constexpr std::uint32_t q = 20 * 128;
  constexpr std::uint32_t kv = 4 * 128;
  constexpr std::uint32_t ff = 18432;
  constexpr std::uint32_t vocab = 128005;
  constexpr std::uint32_t n = 36;
  test::GgufWriter w;
  w.str("general.architecture", "arcee");
  w.u32("general.file_type", 15);  // Q4_K_M
  for (const auto& [key, value] : {std::pair<const char*, std::uint32_t>{"block_count", n},
                                   {"embedding_length", e},
                                   {"feed_forward_length", ff},
                                   {"attention.head_count", 20},
                                   {"attention.head_count_kv", 4},
                                   {"attention.key_length", 128},
                                   {"attention.value_length", 128},
                                   {"context_length", 65536},
                                   {"vocab_size", vocab}}) {
    w.u32(std::string("arcee.") + key, value);
  }
  std::map<std::uint32_t, std::uint64_t> by_type;  // ggml type id -> bytes
  const auto add = [&](const std::string& name, std::vector<std::uint64_t> shape,
                       test::TestType t) {
    const std::uint64_t bytes = w.tensor(name, std::move(shape), t);
    by_type[t.id] += bytes;
    return bytes;
  };
  const std::uint64_t token_embd = add("token_embd.weight", {e, vocab}, test::kQ4_K);
  const std::uint64_t output =
      add("output_norm.weight", {e}, test::kF32) + add("output.weight", {e, vocab}, test::kQ6_K);
  std::vector<std::uint64_t> blocks;
  constexpr int layers = static_cast<int>(n);
  for (int i = 0; i < layers; ++i) {
    const bool more_bits = i < layers / 8 || i >= 7 * layers / 8 || (i - layers / 8) % 3 == 2;
    const test::TestType wide = more_bits ? test::kQ6_K : test::kQ4_K;
    const std::string b = "blk." + std::to_string(i) + ".";
    blocks.push_back(
        add(b + "attn_norm.weight", {e}, test::kF32) +
        add(b + "attn_q.weight", {e, q}, test::kQ4_K) +
        add(b + "attn_k.weight", {e, kv}, test::kQ4_K) + add(b + "attn_v.weight", {e, kv}, wide) +
        add(b + "attn_output.weight", {q, e}, test::kQ4_K) +
        add(b + "ffn_norm.weight", {e}, test::kF32) +
        add(b + "ffn_up.weight", {e, ff}, test::kQ4_K) + add(b + "ffn_down.weight", {ff, e}, wide));
  }
  // The config.json's reading: each block, the embeddings and the head as
  // the file holds them.
  const Model cfg = from_config(afm_config());
  EXPECT_FALSE(cfg.arch.gpt2_layer);
  const WeightLayout l = weight_layout(cfg, *parse_precision("q4_k_m"));
  EXPECT_EQ(l.token_embd, static_cast<Bytes>(token_embd));
  EXPECT_EQ(l.output, static_cast<Bytes>(output));
  ASSERT_EQ(l.layers.size(), blocks.size());
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    EXPECT_EQ(l.layers[i].bytes, static_cast<Bytes>(blocks[i])) << "blk." << i;
  }
  // The file's reading: its type mix is the Q4_K_M recipe's over its shape.
  const Model file = test::from_gguf_header(w);
  EXPECT_FALSE(file.arch.gpt2_layer);
  EXPECT_EQ(gguf_file_type_from_mix(file), "q4_k_m");
  for (const TypedWeights& t : typed_weights(cfg, *parse_precision("q4_k_m"))) {
    const std::uint32_t id = t.type == "Q4_K"   ? test::kQ4_K.id
                             : t.type == "Q6_K" ? test::kQ6_K.id
                             : t.type == "F32"  ? test::kF32.id
                                                : 999;
    EXPECT_EQ(t.total(), static_cast<Bytes>(by_type[id])) << t.type;
  }
}

// Qwen/Qwen3-VL-30B-A3B-Instruct config.json (as transcribed at commit
// 1fc78ad in a public parser's test): text_config is Qwen3-MoE's, and the
// vision tower's deepstack_visual_indexes [8, 16, 24] feed three layers.
Json qwen3vl_moe_config() {
  Json text = {
      {"model_type", "qwen3_vl_moe_text"}, {"hidden_size", 2048},      {"intermediate_size", 6144},
      {"moe_intermediate_size", 768},      {"num_hidden_layers", 48},  {"num_attention_heads", 32},
      {"num_key_value_heads", 4},          {"head_dim", 128},          {"num_experts", 128},
      {"num_experts_per_tok", 8},          {"decoder_sparse_step", 1}, {"vocab_size", 151936},
      {"max_position_embeddings", 262144}};
  return {{"model_type", "qwen3_vl_moe"},
          {"tie_word_embeddings", false},
          {"text_config", text},
          {"vision_config", {{"deepstack_visual_indexes", {8, 16, 24}}}}};
}

TEST(NewArchitectures, Qwen3VlMoeIsQwen3MoeWithDeepstack) {
  // conversion/qwen3vl.py Qwen3VLMoeTextModel: n_deepstack_layers = 3.
  test::GgufWriter w = gguf({"qwen3vlmoe", 48, 2048, 6144, 32, 4, 128, 151936, 262144, false});
  w.u32("qwen3vlmoe.expert_count", 128);
  w.u32("qwen3vlmoe.expert_used_count", 8);
  w.u32("qwen3vlmoe.expert_feed_forward_length", 768);
  w.u32("qwen3vlmoe.n_deepstack_layers", 3);
  w.tensor("blk.0.ffn_gate_exps.weight", {2048, 768, 128}, test::kQ8_0);
  const Model cfg = from_config(qwen3vl_moe_config());
  const Model file = from_gguf(w);
  EXPECT_EQ(file.arch.deepstack_layers, 3);
  expect_same_reading(cfg, file);
  // llama-graph.cpp build_inp_embd: the input embeddings are 1 + 3 hidden
  // widths wide, an input never freed, so the buffer grows by at least the
  // three extra widths of a 512-token step (F32).
  Model plain = cfg;
  plain.arch.deepstack_layers = 0;
  const Bytes extra =
      llama_estimate(cfg, 4096).memory.compute - llama_estimate(plain, 4096).memory.compute;
  EXPECT_GE(extra, std::int64_t{3} * 2048 * 512 * 4);
}

// LGAI-EXAONE/K-EXAONE-236B-A23B's config.json, as transcribed with its
// real widths in TensorRT-LLM's EXAONE-MoE test (EXAONE_MOE_CONFIG, there cut
// to 4 layers) and llama.cpp's 48-layer 235B_A22B type (exaone-moe.cpp):
// 128 experts of 2048, 8 used, one shared; the first layer dense
// (first_last_k_dense_replace); three windowed layers of 128 tokens to a
// global one (layer_types, "LLLG"); one MTP block.
Json k_exaone_config() {
  std::vector<std::string> kinds;
  for (int i = 0; i < 48; ++i) {
    kinds.emplace_back((i + 1) % 4 == 0 ? "full_attention" : "sliding_attention");
  }
  return {{"model_type", "exaone_moe"},
          {"hidden_size", 6144},
          {"intermediate_size", 18432},
          {"moe_intermediate_size", 2048},
          {"num_hidden_layers", 48},
          {"num_attention_heads", 64},
          {"num_key_value_heads", 8},
          {"head_dim", 128},
          {"num_experts", 128},
          {"num_experts_per_tok", 8},
          {"num_shared_experts", 1},
          {"first_last_k_dense_replace", 1},
          {"num_nextn_predict_layers", 1},
          {"sliding_window", 128},
          {"sliding_window_pattern", "LLLG"},
          {"layer_types", kinds},
          {"topk_method", "noaux_tc"},
          {"vocab_size", 153600},
          {"max_position_embeddings", 262144},
          {"tie_word_embeddings", false}};
}

TEST(NewArchitectures, ExaoneMoeWindowsDenseLeadAndSharedExpert) {
  // conversion/exaone.py ExaoneMoEModel: block_count counts the MTP block,
  // nextn_predict_layers; sliding_window_pattern as one flag per layer;
  // expert_shared_feed_forward_length = moe_intermediate_size x shared;
  // leading_dense_block_count; the router bias as blk.N.exp_probs_b.
  test::GgufWriter w = gguf({"exaone-moe", 49, 6144, 18432, 64, 8, 128, 153600, 262144, false});
  w.u32("exaone-moe.expert_count", 128);
  w.u32("exaone-moe.expert_used_count", 8);
  w.u32("exaone-moe.expert_feed_forward_length", 2048);
  w.u32("exaone-moe.expert_shared_count", 1);
  w.u32("exaone-moe.expert_shared_feed_forward_length", 2048);
  w.u32("exaone-moe.leading_dense_block_count", 1);
  w.u32("exaone-moe.nextn_predict_layers", 1);
  w.u32("exaone-moe.attention.sliding_window", 128);
  std::vector<bool> windowed;
  for (int i = 0; i < 48; ++i) {
    windowed.push_back((i + 1) % 4 != 0);
  }
  w.bool_array("exaone-moe.attention.sliding_window_pattern", windowed);
  w.tensor("blk.0.ffn_gate.weight", {6144, 18432}, test::kQ8_0);
  w.tensor("blk.1.ffn_gate_exps.weight", {6144, 2048, 128}, test::kQ8_0);
  w.tensor("blk.1.ffn_up_shexp.weight", {6144, 2048}, test::kQ8_0);
  w.tensor("blk.1.exp_probs_b.bias", {128}, test::kF32);
  const Model cfg = from_config(k_exaone_config());
  const Model file = from_gguf(w);
  expect_same_reading(cfg, file);
  EXPECT_EQ(file.arch.attention.kind, AttentionKind::Sliding);
  EXPECT_EQ(file.arch.attention.sliding_window, 128);
  EXPECT_EQ(file.arch.attention.sliding_pattern, 4);
  ASSERT_TRUE(cfg.arch.moe.has_value());
  EXPECT_EQ(cfg.arch.moe->first_dense_layers, 1);
  EXPECT_TRUE(cfg.arch.moe->selection_bias);
  // KV at 32768 tokens: 12 global layers of the whole context, 36 windowed
  // of 128 + 512 cells padded to 256 (llama-kv-cache-iswa.cpp: 768), 8 heads
  // of 128, K and V, F16.
  const std::int64_t row = std::int64_t{8} * 128 * 2 * 2;
  EXPECT_EQ(llama_estimate(file, 32768).memory.kv_cache,
            row * (12 * 32768 + 36 * std::int64_t{768}));
  // The card: 236B total, 23B active.
  EXPECT_LT(rel(static_cast<double>(cfg.params), 236e9), 0.01) << cfg.params;
  EXPECT_LT(rel(static_cast<double>(cfg.active_params), 23e9), 0.05) << cfg.active_params;
}

// rednote-hilab/dots.llm1.inst's config.json (as quoted in a public MLX
// port's test of its dots.llm1.inst-mixed-4-6bit checkpoint): 62 layers, the
// first dense (first_k_dense_replace), 128 experts of 1408, 6 used, two
// shared; 32 heads and 32 KV heads; a sigmoid router with a bias.
Json dots1_config() {
  return {{"model_type", "dots1"},       {"hidden_size", 4096},
          {"intermediate_size", 10944},  {"moe_intermediate_size", 1408},
          {"num_hidden_layers", 62},     {"num_attention_heads", 32},
          {"num_key_value_heads", 32},   {"n_routed_experts", 128},
          {"n_shared_experts", 2},       {"num_experts_per_tok", 6},
          {"first_k_dense_replace", 1},  {"scoring_func", "sigmoid"},
          {"vocab_size", 152064},        {"max_position_embeddings", 32768},
          {"tie_word_embeddings", false}};
}

TEST(NewArchitectures, Dots1DenseLeadTwoSharedExpertsAndBias) {
  // conversion: leading_dense_block_count, expert_shared_count 2,
  // expert_feed_forward_length; dots1.cpp sizes the shared experts
  // n_ff_exp x n_expert_shared and loads blk.N.exp_probs_b.
  test::GgufWriter w = gguf({"dots1", 62, 4096, 10944, 32, 32, 128, 152064, 32768, false});
  w.u32("dots1.expert_count", 128);
  w.u32("dots1.expert_used_count", 6);
  w.u32("dots1.expert_feed_forward_length", 1408);
  w.u32("dots1.expert_shared_count", 2);
  w.u32("dots1.leading_dense_block_count", 1);
  w.tensor("blk.0.ffn_gate.weight", {4096, 10944}, test::kQ8_0);
  w.tensor("blk.1.ffn_gate_exps.weight", {4096, 1408, 128}, test::kQ8_0);
  w.tensor("blk.1.ffn_up_shexp.weight", {4096, 2816}, test::kQ8_0);
  w.tensor("blk.1.exp_probs_b.bias", {128}, test::kF32);
  const Model cfg = from_config(dots1_config());
  const Model file = from_gguf(w);
  expect_same_reading(cfg, file);
  ASSERT_TRUE(file.arch.moe.has_value());
  EXPECT_EQ(file.arch.moe->shared_experts, 2);
  EXPECT_EQ(file.arch.moe->first_dense_layers, 1);
  EXPECT_TRUE(cfg.arch.moe->selection_bias);
  // KV: 62 layers x 32 heads x 128 x (K + V) x 2 bytes per token.
  EXPECT_EQ(llama_estimate(cfg, 4096).memory.kv_cache, std::int64_t{62} * 32 * 128 * 2 * 2 * 4096);
  // The card: 142B total, 14B activated.
  EXPECT_LT(rel(static_cast<double>(cfg.params), 142e9), 0.01) << cfg.params;
  EXPECT_LT(rel(static_cast<double>(cfg.active_params), 14e9), 0.05) << cfg.active_params;
}

// inclusionAI/Ling-mini-2.0's config.json (as kept in a public port's
// fixture of it, BailingMoeV2ForCausalLM): 20 layers, the first dense of
// 5120, 256 experts of 512, 8 used, one shared of 512; 16 heads of 128 and
// 4 KV heads; a sigmoid router with an expert bias.
Json ling_mini_config() {
  return {{"model_type", "bailing_moe_v2"},
          {"hidden_size", 2048},
          {"intermediate_size", 5120},
          {"moe_intermediate_size", 512},
          {"moe_shared_expert_intermediate_size", 512},
          {"num_hidden_layers", 20},
          {"num_attention_heads", 16},
          {"num_key_value_heads", 4},
          {"head_dim", 128},
          {"num_experts", 256},
          {"num_shared_experts", 1},
          {"num_experts_per_tok", 8},
          {"first_k_dense_replace", 1},
          {"moe_router_enable_expert_bias", true},
          {"partial_rotary_factor", 0.5},
          {"vocab_size", 157184},
          {"max_position_embeddings", 32768},
          {"tie_word_embeddings", false}};
}

TEST(NewArchitectures, BailingMoe2FusedQkvDenseLeadSharedExpertAndBias) {
  // conversion/bailingmoe.py BailingMoeV2Model: leading_dense_block_count,
  // expert_feed_forward_length, expert_shared_feed_forward_length,
  // expert_shared_count; bailingmoe2.cpp: one attn_qkv of n_embd + 2 n_embd_gqa.
  test::GgufWriter w = gguf({"bailingmoe2", 20, 2048, 5120, 16, 4, 128, 157184, 32768, false});
  w.u32("bailingmoe2.expert_count", 256);
  w.u32("bailingmoe2.expert_used_count", 8);
  w.u32("bailingmoe2.expert_feed_forward_length", 512);
  w.u32("bailingmoe2.expert_shared_feed_forward_length", 512);
  w.u32("bailingmoe2.expert_shared_count", 1);
  w.u32("bailingmoe2.leading_dense_block_count", 1);
  w.u32("bailingmoe2.rope.dimension_count", 64);
  w.tensor("blk.0.attn_qkv.weight", {2048, 3072}, test::kQ8_0);
  w.tensor("blk.0.ffn_gate.weight", {2048, 5120}, test::kQ8_0);
  w.tensor("blk.1.ffn_gate_exps.weight", {2048, 512, 256}, test::kQ8_0);
  w.tensor("blk.1.ffn_up_shexp.weight", {2048, 512}, test::kQ8_0);
  w.tensor("blk.1.exp_probs_b.bias", {256}, test::kF32);
  const Model cfg = from_config(ling_mini_config());
  const Model file = from_gguf(w);
  expect_same_reading(cfg, file);
  ASSERT_TRUE(file.arch.moe.has_value());
  EXPECT_EQ(file.arch.moe->shared_experts, 1);
  EXPECT_EQ(file.arch.moe->first_dense_layers, 1);
  EXPECT_TRUE(file.arch.moe->selection_bias);
  // KV: 20 layers x 4 heads x 128 x (K + V) x 2 bytes per token.
  EXPECT_EQ(llama_estimate(cfg, 4096).memory.kv_cache, std::int64_t{20} * 4 * 128 * 2 * 2 * 4096);
  // The card: 16.26B total, 1.43B activated.
  EXPECT_LT(rel(static_cast<double>(cfg.params), 16.26e9), 0.01) << cfg.params;
  EXPECT_LT(rel(static_cast<double>(cfg.active_params), 1.43e9), 0.03) << cfg.active_params;
}

// swiss-ai/Apertus-8B-2509's shape: 4096 wide, 32 layers, 32 heads, an MLP
// of 21504 (the defaults of a public MLX Swift port's ApertusConfiguration),
// vocabulary 131072 and 65536 positions (transformers' ApertusConfig
// defaults); up, xIELU, down with no gate (apertus.cpp). The 8 KV heads
// were not read from a published config.json here: they are the count that
// makes the card's 8 B (all 32 heads would add 32 x 2 x 4096 x 3072 = 0.8 B).
Json apertus_config() {
  return {{"model_type", "apertus"},
          {"hidden_size", 4096},
          {"intermediate_size", 21504},
          {"num_hidden_layers", 32},
          {"num_attention_heads", 32},
          {"num_key_value_heads", 8},
          {"hidden_act", "xielu"},
          {"vocab_size", 131072},
          {"max_position_embeddings", 65536},
          {"tie_word_embeddings", false}};
}

TEST(NewArchitectures, ApertusUngatedXieluMlp) {
  test::GgufWriter w = gguf({"apertus", 32, 4096, 21504, 32, 8, 128, 131072, 65536, false});
  w.tensor("blk.0.ffn_up.weight", {4096, 21504}, test::kQ8_0);
  w.tensor("blk.0.ffn_down.weight", {21504, 4096}, test::kQ8_0);
  w.tensor("blk.0.attn_q_norm.weight", {128}, test::kF32);
  const Model cfg = from_config(apertus_config());
  const Model file = from_gguf(w);
  EXPECT_FALSE(cfg.arch.mlp_gated);
  EXPECT_FALSE(file.arch.mlp_gated);
  expect_same_reading(cfg, file);
  // KV: 32 layers x 8 heads x 128 x (K + V) x 2 bytes per token.
  EXPECT_EQ(llama_estimate(cfg, 4096).memory.kv_cache, std::int64_t{32} * 8 * 128 * 2 * 2 * 4096);
  // The card: 8B (two 4096 x 21504 matrices a layer; a gated MLP would be 10.9B).
  EXPECT_LT(rel(static_cast<double>(cfg.params), 8e9), 0.01) << cfg.params;
}

// tencent/Hunyuan-7B-Instruct's shape (as quoted in a public port's
// HUNYUAN_7B_HF test config): 32 layers of 4096, 32 heads and 8 KV heads of
// 128, an MLP of 14336, vocabulary 128167, tied; its config names
// num_experts 1, which the converter writes as expert_count.
Json hunyuan_dense_config() {
  return {
      {"model_type", "hunyuan_v1_dense"}, {"hidden_size", 4096},        {"num_hidden_layers", 32},
      {"num_attention_heads", 32},        {"num_key_value_heads", 8},   {"head_dim", 128},
      {"intermediate_size", 14336},       {"num_experts", 1},           {"vocab_size", 128167},
      {"max_position_embeddings", 32768}, {"tie_word_embeddings", true}};
}

TEST(NewArchitectures, HunyuanDenseOneExpertIsNoMoe) {
  test::GgufWriter w = gguf({"hunyuan-dense", 32, 4096, 14336, 32, 8, 128, 128167, 32768, true});
  w.u32("hunyuan-dense.expert_count", 1);
  w.u32("hunyuan-dense.expert_used_count", 1);
  w.tensor("blk.0.ffn_gate.weight", {4096, 14336}, test::kQ8_0);
  w.tensor("blk.0.attn_q_norm.weight", {128}, test::kF32);
  const Model cfg = from_config(hunyuan_dense_config());
  const Model file = from_gguf(w);
  EXPECT_FALSE(file.arch.moe.has_value());
  expect_same_reading(cfg, file);
  // KV: 32 layers x 8 heads x 128 x (K + V) x 2 bytes per token.
  EXPECT_EQ(llama_estimate(file, 4096).memory.kv_cache, std::int64_t{32} * 8 * 128 * 2 * 2 * 4096);
  // 32 x (2 x 4096^2 + 2 x 4096 x 1024 + 3 x 4096 x 14336) + 128167 x 4096:
  // 7.50B (the card names it 7B; the count is not checked against it).
  EXPECT_NEAR(static_cast<double>(cfg.params), 7.505e9, 0.01e9);
}

// baidu/ERNIE-4.5-0.3B-PT's config.json (as copied whole into a public
// repository): 18 layers of 1024, 16 heads of 128 (Q twice the hidden
// width), 2 KV heads, an MLP of 3072, vocabulary 103424, tied.
Json ernie_dense_config() {
  return {{"model_type", "ernie4_5"},
          {"hidden_size", 1024},
          {"intermediate_size", 3072},
          {"num_hidden_layers", 18},
          {"num_attention_heads", 16},
          {"num_key_value_heads", 2},
          {"head_dim", 128},
          {"vocab_size", 103424},
          {"max_position_embeddings", 131072},
          {"tie_word_embeddings", true}};
}

TEST(NewArchitectures, ErnieDenseWideQueries) {
  test::GgufWriter w = gguf({"ernie4_5", 18, 1024, 3072, 16, 2, 128, 103424, 131072, true});
  w.tensor("blk.0.attn_q.weight", {1024, 2048}, test::kQ8_0);
  w.tensor("blk.0.ffn_gate.weight", {1024, 3072}, test::kQ8_0);
  const Model cfg = from_config(ernie_dense_config());
  const Model file = from_gguf(w);
  EXPECT_FALSE(file.arch.moe.has_value());
  expect_same_reading(cfg, file);
  // KV: 18 layers x 2 heads x 128 x (K + V) x 2 bytes per token.
  EXPECT_EQ(llama_estimate(file, 4096).memory.kv_cache, std::int64_t{18} * 2 * 128 * 2 * 2 * 4096);
  // The card: 0.36B.
  EXPECT_LT(rel(static_cast<double>(cfg.params), 0.36e9), 0.01) << cfg.params;
}

// llama.cpp create_memory gives encoders and diffusion LMs no memory: the
// estimate holds no KV cache for them, however long the context.
// XiaomiMiMo/MiMo-V2-Flash's config.json, as transcribed whole in public
// ports' tests of its hub config (a Rust MiMo-V2 loader's
// mimo_v2_flash_hub_config; the same widths in an MLX port's
// MiMoV2FlashCacheTopologyTests and the SGLang blog of 2025-12-15,
// lm-sys/lm-sys.github.io blog/2025-12-15-mimo-v2-flash.md): 48 layers,
// global on 0 and every sixth from 5 (hybrid_layer_pattern 0), windowed of
// 128 tokens elsewhere; 64 query heads of 192 on both kinds, 4 KV heads on
// the global layers and 8 on the windowed ones, V heads of 128; layer 0
// dense (moe_layer_freq), 256 experts of 2048, 8 used, a sigmoid router
// with a bias (noaux_tc); attention sinks on the windowed layers only; the
// output scaled by 0.707. max_position_embeddings and vocab_size from the
// same transcriptions (262144, 152576).
Json mimo_v2_flash_config() {
  std::vector<int> pattern;
  std::vector<int> freq;
  for (int l = 0; l < 48; ++l) {
    pattern.push_back(l == 0 || (l + 1) % 6 == 0 ? 0 : 1);
    freq.push_back(l == 0 ? 0 : 1);
  }
  return {{"architectures", {"MiMoV2FlashForCausalLM"}},
          {"model_type", "mimo_v2_flash"},
          {"vocab_size", 152576},
          {"hidden_size", 4096},
          {"num_hidden_layers", 48},
          {"num_attention_heads", 64},
          {"num_key_value_heads", 4},
          {"head_dim", 192},
          {"v_head_dim", 128},
          {"swa_num_attention_heads", 64},
          {"swa_num_key_value_heads", 8},
          {"swa_head_dim", 192},
          {"swa_v_head_dim", 128},
          {"partial_rotary_factor", 0.334},
          {"rope_theta", 5000000},
          {"swa_rope_theta", 10000},
          {"sliding_window", 128},
          {"sliding_window_size", 128},
          {"hybrid_layer_pattern", pattern},
          {"moe_layer_freq", freq},
          {"add_swa_attention_sink_bias", true},
          {"add_full_attention_sink_bias", false},
          {"intermediate_size", 16384},
          {"n_routed_experts", 256},
          {"num_experts_per_tok", 8},
          {"moe_intermediate_size", 2048},
          {"scoring_func", "sigmoid"},
          {"topk_method", "noaux_tc"},
          {"n_group", 1},
          {"norm_topk_prob", true},
          {"layernorm_epsilon", 1e-5},
          {"attention_value_scale", 0.707},
          {"max_position_embeddings", 262144},
          {"tie_word_embeddings", false}};
}

// The GGUF header conversion/mimo.py MimoV2Model writes from that config:
// block_count counts the 3 MTP blocks (_n_nextn), head_count_kv and
// sliding_window_pattern list all 51 blocks (the MTP ones windowed),
// key_length from head_dim, value_length from v_head_dim, the experts' width
// and count, the value scale; no key names the dense layer, only its
// tensors (ffn_gate, no ffn_gate_inp).
test::GgufWriter mimo2_gguf() {
  test::GgufWriter w;
  w.str("general.architecture", "mimo2");
  w.u32("mimo2.block_count", 51);
  w.u32("mimo2.context_length", 262144);
  w.u32("mimo2.embedding_length", 4096);
  w.u32("mimo2.feed_forward_length", 16384);
  w.u32("mimo2.attention.head_count", 64);
  std::vector<std::uint32_t> kv;
  std::vector<bool> windowed;
  for (int l = 0; l < 51; ++l) {
    const bool swa = l >= 48 || !(l == 0 || (l + 1) % 6 == 0);
    windowed.push_back(swa);
    kv.push_back(swa ? 8 : 4);
  }
  w.u32_array("mimo2.attention.head_count_kv", kv);
  w.bool_array("mimo2.attention.sliding_window_pattern", windowed);
  w.u32("mimo2.attention.sliding_window", 128);
  w.u32("mimo2.attention.key_length", 192);
  w.u32("mimo2.attention.value_length", 128);
  w.f32("mimo2.attention.value_scale", 0.707F);
  w.u32("mimo2.expert_count", 256);
  w.u32("mimo2.expert_used_count", 8);
  w.u32("mimo2.expert_feed_forward_length", 2048);
  w.u32("mimo2.nextn_predict_layers", 3);
  w.u32("mimo2.rope.dimension_count", 64);
  w.u32("mimo2.vocab_size", 152576);
  w.tensor("token_embd.weight", {4096, 256}, test::kQ8_0);
  w.tensor("output.weight", {4096, 256}, test::kQ8_0);
  w.tensor("blk.0.ffn_gate.weight", {4096, 16384}, test::kQ8_0);
  for (int l = 1; l < 48; ++l) {
    const std::string b = "blk." + std::to_string(l);
    w.tensor(b + ".ffn_gate_inp.weight", {4096, 256}, test::kF32);
    w.tensor(b + ".exp_probs_b.bias", {256}, test::kF32);
  }
  w.tensor("blk.1.ffn_gate_exps.weight", {4096, 2048, 256}, test::kQ8_0);
  w.tensor("blk.1.attn_sinks.weight", {64}, test::kF32);
  return w;
}

TEST(WindowedMoe, MimoV2FlashConfigAndGgufAgree) {
  const Model cfg = from_config(mimo_v2_flash_config());
  const Model file = from_gguf(mimo2_gguf());
  expect_same_reading(cfg, file);
  for (const Model* m : {&cfg, &file}) {
    const Architecture& a = m->arch;
    EXPECT_EQ(a.layers, 48);
    EXPECT_EQ(a.mtp_layers, 3);
    EXPECT_TRUE(a.mtp_dense && a.mtp_shares_head);
    EXPECT_EQ(a.attention.kind, AttentionKind::Sliding);
    EXPECT_EQ(a.attention.sliding_window, 128);
    EXPECT_EQ(global_layer_count(a, a.layers), 9);
    EXPECT_TRUE(is_global_layer(a, 0) && is_global_layer(a, 5) && is_global_layer(a, 47));
    EXPECT_FALSE(is_global_layer(a, 6));
    EXPECT_EQ(a.kv_heads, 8);
    EXPECT_EQ(a.attention.global_kv_heads, 4);
    EXPECT_EQ(a.head_dim, 192);
    EXPECT_EQ(value_head_dim(a), 128);
    EXPECT_TRUE(a.attention.value_scale);
    ASSERT_TRUE(a.moe.has_value());
    EXPECT_EQ(a.moe->first_dense_layers, 1);
    EXPECT_TRUE(a.moe->selection_bias);
  }
  // The card (XiaomiMiMo/MiMo-V2-Flash, quoted in the SGLang blog above and
  // LlamaFactory PR #9637): 309B total, 15B active; an MTP block 0.33B.
  EXPECT_LT(rel(static_cast<double>(cfg.params), 309e9), 0.01) << cfg.params;
  EXPECT_LT(rel(static_cast<double>(cfg.active_params), 15e9), 0.05) << cfg.active_params;
  EXPECT_LT(rel(static_cast<double>(count_params(cfg.arch).mtp) / 3, 0.33e9), 0.01);
}

TEST(WindowedMoe, MimoV2FlashKvByLayerKind) {
  // llama-kv-cache-iswa.cpp: the 9 global layers hold the whole context, 4
  // KV heads of K 192 and V 128 wide; the 39 windowed layers min(context,
  // 128 + a micro-batch of 512) cells padded to 256 (768), 8 KV heads. F16,
  // flash attention (no V padding to the widest layer).
  const Model m = from_gguf(mimo2_gguf());
  const std::int64_t ctx = 32768;
  const std::int64_t full = std::int64_t{9} * 4 * (192 + 128) * 2 * ctx;
  const std::int64_t window = std::int64_t{39} * 8 * (192 + 128) * 2 * 768;
  EXPECT_EQ(llama_estimate(m, ctx).memory.kv_cache, full + window);
}

// arcee-ai/Trinity-Mini's config.json, as public ports' tests transcribe
// it (an MLX port's test of the Trinity Mini shape,
// a public unittest of an MoE layer (FakeComm, FakeRouter; 'torch.testing.assert_close(output,
// torch.full((2, 16), 6.0))'); the same values in a Neuron port's test, a public pytest file of a
// Neuron port of Trinity (test_mini_tp4_eligible, test_large_tp64_ineligible with MINI_OVERRIDES,
// LARGE_OVERRIDES)): 32 layers, three windowed of 2048 tokens to a global one (layer_types,
// global_attn_every_n_layers 4), 32 query heads and 4 KV heads of 128; two
// dense layers of 6144, then 128 experts of 1024, 8 used, one shared, a
// sigmoid router with a bias (route_scale 2.826); vocabulary 200192.
Json trinity_mini_config() {
  std::vector<std::string> kinds;
  for (int i = 0; i < 32; ++i) {
    kinds.emplace_back((i + 1) % 4 == 0 ? "full_attention" : "sliding_attention");
  }
  return {{"architectures", {"AfmoeForCausalLM"}},
          {"model_type", "afmoe"},
          {"global_attn_every_n_layers", 4},
          {"head_dim", 128},
          {"hidden_act", "silu"},
          {"hidden_size", 2048},
          {"intermediate_size", 6144},
          {"layer_types", kinds},
          {"max_position_embeddings", 131072},
          {"moe_intermediate_size", 1024},
          {"mup_enabled", true},
          {"num_attention_heads", 32},
          {"num_dense_layers", 2},
          {"num_experts", 128},
          {"num_experts_per_tok", 8},
          {"num_hidden_layers", 32},
          {"num_key_value_heads", 4},
          {"num_shared_experts", 1},
          {"rms_norm_eps", 1e-5},
          {"rope_theta", 10000},
          {"route_norm", true},
          {"route_scale", 2.826},
          {"score_func", "sigmoid"},
          {"sliding_window", 2048},
          {"tie_word_embeddings", false},
          {"vocab_size", 200192}};
}

// The GGUF header conversion/afmoe.py AfmoeModel writes from that config
// (LlamaModel's keys, then the shared-expert count, the experts' width, the
// dense lead, route_norm and route_scale, the window; no window pattern:
// afmoe.cpp's period is 4) and the tensors afmoe.cpp requires.
test::GgufWriter trinity_mini_gguf() {
  test::GgufWriter w = gguf({"afmoe", 32, 2048, 6144, 32, 4, 128, 200192, 131072, false});
  w.u32("afmoe.expert_count", 128);
  w.u32("afmoe.expert_used_count", 8);
  w.u32("afmoe.expert_gating_func", 2);
  w.u32("afmoe.expert_shared_count", 1);
  w.u32("afmoe.expert_feed_forward_length", 1024);
  w.u32("afmoe.leading_dense_block_count", 2);
  w.boolean("afmoe.expert_weights_norm", true);
  w.f32("afmoe.expert_weights_scale", 2.826F);
  w.u32("afmoe.attention.sliding_window", 2048);
  w.tensor("blk.0.attn_gate.weight", {2048, 4096}, test::kQ8_0);
  w.tensor("blk.0.ffn_gate.weight", {2048, 6144}, test::kQ8_0);
  w.tensor("blk.2.ffn_gate_inp.weight", {2048, 128}, test::kF32);
  w.tensor("blk.2.exp_probs_b.bias", {128}, test::kF32);
  w.tensor("blk.2.ffn_gate_exps.weight", {2048, 1024, 128}, test::kQ8_0);
  w.tensor("blk.2.ffn_up_shexp.weight", {2048, 1024}, test::kQ8_0);
  return w;
}

TEST(WindowedMoe, TrinityMiniConfigAndGgufAgree) {
  const Model cfg = from_config(trinity_mini_config());
  const Model file = from_gguf(trinity_mini_gguf());
  expect_same_reading(cfg, file);
  for (const Model* m : {&cfg, &file}) {
    const Architecture& a = m->arch;
    EXPECT_EQ(a.attention.kind, AttentionKind::Sliding);
    EXPECT_EQ(a.attention.sliding_window, 2048);
    EXPECT_EQ(a.attention.sliding_pattern, 4);
    EXPECT_EQ(global_layer_count(a, a.layers), 8);
    EXPECT_TRUE(a.attention.output_gate);
    ASSERT_TRUE(a.moe.has_value());
    EXPECT_EQ(a.moe->first_dense_layers, 2);
    EXPECT_EQ(a.moe->shared_experts, 1);
    EXPECT_TRUE(a.moe->selection_bias);
  }
  // The card (arcee-ai/Trinity-Mini, as OpenRouter's listing quotes it): "a
  // 26B-parameter (3B active) sparse mixture-of-experts language model".
  EXPECT_LT(rel(static_cast<double>(cfg.params), 26e9), 0.01) << cfg.params;
  // The output gate holds heads x head_dim x hidden a layer (afmoe.cpp attn_gate).
  Architecture no_gate = cfg.arch;
  no_gate.attention.output_gate = false;
  EXPECT_EQ(count_params(cfg.arch).attention - count_params(no_gate).attention,
            std::int64_t{32} * 2048 * 32 * 128);
}

TEST(WindowedMoe, TrinityMiniKvByLayerKind) {
  // llama-kv-cache-iswa.cpp: the 8 global layers hold the whole context, the
  // 24 windowed ones min(context, 2048 + a micro-batch of 512) cells padded
  // to 256 (2560); 4 KV heads of 128, K and V, F16.
  const Model m = from_gguf(trinity_mini_gguf());
  const std::int64_t row = std::int64_t{4} * 128 * 2 * 2;
  EXPECT_EQ(llama_estimate(m, 32768).memory.kv_cache,
            row * (8 * std::int64_t{32768} + 24 * std::int64_t{2560}));
}

// PowerInfer/SmallThinker-4BA0.6B-Instruct's config.json, as a public port
// transcribes it whole (a public copy of SmallThinker's modeling file (__all__ =
// SmallThinkerForCausalLM, SmallThinkerModel, SmallThinkerPreTrainedModel), with the model's
// configuration_smallthinker.py): 32 layers, 12 query heads and 2 KV heads
// of 128, 32 experts of 768 on every layer, 4 used, a sigmoid router, no
// window (sliding_window_layout all 0), tied embeddings.
Json smallthinker_4b_config(bool windowed = false) {
  std::vector<int> layout;
  for (int i = 0; i < 32; ++i) {
    layout.push_back(windowed && i % 4 != 0 ? 1 : 0);
  }
  return {{"architectures", {"SmallThinkerForCausalLM"}},
          {"model_type", "smallthinker"},
          {"head_dim", 128},
          {"hidden_size", 1536},
          {"max_position_embeddings", 32768},
          {"moe_ffn_hidden_size", 768},
          {"moe_num_active_primary_experts", 4},
          {"moe_num_primary_experts", 32},
          {"moe_primary_router_apply_softmax", false},
          {"num_attention_heads", 12},
          {"num_hidden_layers", 32},
          {"num_key_value_heads", 2},
          {"rope_theta", 1.5e6},
          {"sliding_window_size", 4096},
          {"sliding_window_layout", layout},
          {"tie_word_embeddings", true},
          {"vocab_size", 151936}};
}

// conversion/smallthinker.py: expert count, used count and width (also as
// feed_forward_length), the gating function, and a window only when the
// layout marks a layer.
test::GgufWriter smallthinker_4b_gguf(bool windowed = false) {
  test::GgufWriter w = gguf({"smallthinker", 32, 1536, 768, 12, 2, 128, 151936, 32768, true});
  w.u32("smallthinker.expert_count", 32);
  w.u32("smallthinker.expert_used_count", 4);
  w.u32("smallthinker.expert_feed_forward_length", 768);
  w.u32("smallthinker.expert_gating_func", 2);
  if (windowed) {
    w.u32("smallthinker.attention.sliding_window", 4096);
  }
  w.tensor("blk.0.ffn_gate_inp.weight", {1536, 32}, test::kF32);
  w.tensor("blk.0.ffn_gate_exps.weight", {1536, 768, 32}, test::kQ8_0);
  return w;
}

TEST(WindowedMoe, SmallThinkerConfigAndGgufAgree) {
  const Model cfg = from_config(smallthinker_4b_config());
  const Model file = from_gguf(smallthinker_4b_gguf());
  expect_same_reading(cfg, file);
  EXPECT_EQ(cfg.arch.attention.kind, AttentionKind::Full);
  EXPECT_EQ(file.arch.attention.kind, AttentionKind::Full);
  EXPECT_TRUE(cfg.arch.tied_embeddings && file.arch.tied_embeddings);
  ASSERT_TRUE(cfg.arch.moe.has_value());
  EXPECT_EQ(cfg.arch.moe->first_dense_layers, 0);
  // The name: 4B total, 0.6B active (SmallThinker-4BA0.6B).
  EXPECT_LT(rel(static_cast<double>(cfg.params), 4e9), 0.01) << cfg.params;
}

TEST(WindowedMoe, SmallThinkerWindowIsLlamaCppsOwn) {
  // A layout that marks layers windowed (as SmallThinker-21BA3B's does: 13
  // of its 52 layers global) gives llama.cpp's window, not the config's:
  // smallthinker.cpp sets n_swa = 4096 and layer 0 and every 4th after it
  // global. At 32768 tokens: 8 global layers of the whole context, 24
  // windowed of 4096 + 512 cells (4608, a multiple of 256); 2 KV heads of
  // 128, K and V, F16.
  const Model cfg = from_config(smallthinker_4b_config(true));
  const Model file = from_gguf(smallthinker_4b_gguf(true));
  expect_same_reading(cfg, file);
  EXPECT_TRUE(is_global_layer(file.arch, 0) && is_global_layer(file.arch, 4));
  EXPECT_FALSE(is_global_layer(file.arch, 3));
  const std::int64_t row = std::int64_t{2} * 128 * 2 * 2;
  EXPECT_EQ(llama_estimate(file, 32768).memory.kv_cache,
            row * (8 * std::int64_t{32768} + 24 * std::int64_t{4608}));
}

TEST(NoKvCache, EncodersAndDiffusionModelsHoldNone) {
  for (const char* arch : {"bert", "llada", "dream", "nomic-bert"}) {
    test::GgufWriter w = gguf({arch, 12, 768, 3072, 12, 12, 64, 30522, 512, true});
    const Model m = from_gguf(w);
    EXPECT_TRUE(m.arch.attention.no_kv_cache) << arch;
    EXPECT_EQ(llama_estimate(m, 4096).memory.kv_cache, 0) << arch;
  }
  // The same shape under a causal architecture does cache K and V.
  const Model llama = from_gguf(gguf({"llama", 12, 768, 3072, 12, 12, 64, 30522, 512, true}));
  EXPECT_GT(llama_estimate(llama, 4096).memory.kv_cache, 0);
  // LLaDA-8B's config.json (GSAI-ML/LLaDA-8B-Instruct, model_type llada).
  const Json llada = {{"model_type", "llada"}, {"d_model", 4096},
                      {"n_layers", 32},        {"n_heads", 32},
                      {"n_kv_heads", 32},      {"mlp_hidden_size", 12288},
                      {"vocab_size", 126464},  {"max_sequence_length", 4096}};
  const Model cfg = from_config(llada);
  EXPECT_TRUE(cfg.arch.attention.no_kv_cache);
  // Its MLP is mlp_hidden_size wide: 32 x (4 x 4096^2 + 3 x 4096 x 12288)
  // + 2 x 126464 x 4096 = 8.02 B, the card's "8B".
  EXPECT_EQ(cfg.arch.intermediate_size, 12288);
  EXPECT_NEAR(static_cast<double>(count_params(cfg.arch).total()), 8.02e9, 0.01e9);
  EXPECT_EQ(llama_estimate(cfg, 4096).memory.kv_cache, 0);
  // The catalogue's BERT by name, as its config.json reads.
  const Model bert = test::catalogue_model("bert-base-uncased");
  EXPECT_TRUE(bert.arch.attention.no_kv_cache);
  EXPECT_EQ(llama_estimate(bert, 512).memory.kv_cache, 0);
}

// llama.cpp's converter writes pooling_type for an embedding model (BERT and
// kin, Qwen3-Embedding's qwen3 GGUFs); Ollama runs a file with that key as
// an embedding model (llm/llama_server.go at fb307609). A file without it
// generates; a config.json of an encoder embeds, of a diffusion LM does not.
TEST(EmbeddingModels, PoolingTypeMarksThemInAGgufFile) {
  test::GgufWriter bert = gguf({"bert", 12, 768, 3072, 12, 12, 64, 30522, 512, true});
  bert.u32("bert.pooling_type", 1);  // mean
  EXPECT_TRUE(from_gguf(bert).embedding);
  test::GgufWriter qwen = gguf({"qwen3", 28, 1024, 3072, 16, 8, 128, 151669, 32768, true});
  EXPECT_FALSE(from_gguf(qwen).embedding);
  qwen.u32("qwen3.pooling_type", 3);  // last token, as Qwen3-Embedding's files
  EXPECT_TRUE(from_gguf(qwen).embedding);
  EXPECT_TRUE(test::catalogue_model("bert-base-uncased").embedding);
  EXPECT_TRUE(test::catalogue_model("qwen3-embedding-0.6b").embedding);
  EXPECT_FALSE(test::catalogue_model("qwen3-0.6b").embedding);
  const Json bert_config = {{"model_type", "bert"},          {"hidden_size", 768},
                            {"num_hidden_layers", 12},       {"num_attention_heads", 12},
                            {"intermediate_size", 3072},     {"vocab_size", 30522},
                            {"max_position_embeddings", 512}};
  EXPECT_TRUE(from_config(bert_config).embedding);
  const Json llada = {{"model_type", "llada"}, {"d_model", 4096},
                      {"n_layers", 32},        {"n_heads", 32},
                      {"n_kv_heads", 32},      {"mlp_hidden_size", 12288},
                      {"vocab_size", 126464},  {"max_sequence_length", 4096}};
  EXPECT_FALSE(from_config(llada).embedding);
}

// RWKV-4 (no llama.cpp graph) is refused by name from a config.json (Mamba,
// Mamba-2, RWKV-6, RWKV-7, ARWKV-7 and RWKV6Qwen2 are modelled:
// tests/unit/test_arch_mamba.cpp, test_arch_rwkv.cpp).
TEST(RefusedArchitectures, PureRecurrentModelsAreErrorsNamingThem) {
  for (const char* type : {"rwkv"}) {
    const Json j = {{"model_type", type},
                    {"hidden_size", 768},
                    {"num_hidden_layers", 24},
                    {"num_attention_heads", 12},
                    {"vocab_size", 50280}};
    auto m = model_from_hf_config(j.dump(), "test");
    ASSERT_FALSE(m.ok()) << type;
    EXPECT_NE(m.error().message.find(std::string("'") + type + "'"), std::string::npos);
  }
}

}  // namespace
}  // namespace willfit
