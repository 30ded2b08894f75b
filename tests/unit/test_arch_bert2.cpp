// More of llama.cpp's BERT-family encoders, first-class (issue 18):
// jina-bert-v2 (jina-embeddings-v2) and nomic-bert-moe
// (nomic-embed-text-v2-moe). Each is read from its published
// config.json and from a GGUF header as llama.cpp's converter writes it
// (conversion/bert.py at 80fb11ac); both must give one estimate, and the
// parameter count must match the card. The expected numbers come from the
// cards and the files, not from willfit.
#include <cstddef>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/catalogue_model.hpp"
#include "unit/encoder_checks.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::catalogue_model;
using test::expect_same_encoder_estimate;
using test::from_config;
using test::from_gguf;
using test::rel;

// ---------------------------------------------------------------------------
// jina-bert-v2: jinaai/jina-embeddings-v2-base-en.
//
// Its config.json (model_type bert, architectures JinaBertForMaskedLM, the
// remote code of jinaai/jina-bert-implementation) as a Rust embedding
// server's test_parse_config_jinabert transcribes it (code index,
// a public Rust config parser test (a JinaBert config with feed_forward_type geglu, emb_pooler
// mean, vocab_size 30528)): hidden_size 768, num_hidden_layers 12, num_attention_heads 12,
// intermediate_size 3072, vocab_size 30528, type_vocab_size 2, max_position_embeddings 8192,
// position_embedding_type "alibi", feed_forward_type "geglu", hidden_act gelu, layer_norm_eps
// 1e-12, emb_pooler mean. A second port's architecture test quotes the same model_type, alibi,
// geglu, 768 and 12 for it (a public Rust test of architecture detection
// (missing_model_type_defaults_to_bert, bert_with_absolute_position_is_not_jina)).
Json jina_v2_base_config() {
  return {{"model_type", "bert"},
          {"architectures", {"JinaBertForMaskedLM"}},
          {"hidden_size", 768},
          {"num_hidden_layers", 12},
          {"num_attention_heads", 12},
          {"intermediate_size", 3072},
          {"vocab_size", 30528},
          {"type_vocab_size", 2},
          {"max_position_embeddings", 8192},
          {"model_max_length", 8192},
          {"position_embedding_type", "alibi"},
          {"feed_forward_type", "geglu"},
          {"hidden_act", "gelu"},
          {"layer_norm_eps", 1e-12},
          {"pad_token_id", 0},
          {"emb_pooler", "mean"},
          {"torch_dtype", "float32"}};
}

// The GGUF llama.cpp's converter writes for it (conversion/bert.py
// JinaBertV2Model on BertModel, conversion/base.py set_gguf_parameters at
// 80fb11ac): context_length from max_position_embeddings, feed_forward_length
// from intermediate_size, the LayerNorm epsilon, causal false, mean pooling,
// two token types; no head_count_kv and no RoPE keys (the config names
// none). The tensors jina-bert-v2.cpp creates, as gguf-py's tensor map
// names JinaBert's weights: token and token-type embeddings and their
// LayerNorm (no position table: ALiBi); per layer Q, K, V and the output
// projection with biases, a LayerNorm after attention, mlp.gated_layers as
// one ffn_up of 2 x 3072 rows (no bias), mlp.wo as ffn_down with its bias,
// mlp.layernorm as layer_output_norm; no output head.
test::GgufWriter jina_v2_base_gguf() {
  const std::string a = "jina-bert-v2";
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".block_count", 12);
  w.u32(a + ".context_length", 8192);
  w.u32(a + ".embedding_length", 768);
  w.u32(a + ".feed_forward_length", 3072);
  w.u32(a + ".attention.head_count", 12);
  w.f32(a + ".attention.layer_norm_epsilon", 1e-12F);
  w.boolean(a + ".attention.causal", false);
  w.u32(a + ".pooling_type", 1);
  w.u32("tokenizer.ggml.token_type_count", 2);
  w.tensor("token_embd.weight", {768, 30528}, test::kF16);
  w.tensor("token_types.weight", {768, 2}, test::kF32);
  w.tensor("token_embd_norm.weight", {768}, test::kF32);
  w.tensor("token_embd_norm.bias", {768}, test::kF32);
  for (int i = 0; i < 12; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    for (const char* p : {"attn_q", "attn_k", "attn_v", "attn_output"}) {
      w.tensor(b + p + ".weight", {768, 768}, test::kF16);
      w.tensor(b + p + ".bias", {768}, test::kF32);
    }
    w.tensor(b + "attn_output_norm.weight", {768}, test::kF32);
    w.tensor(b + "attn_output_norm.bias", {768}, test::kF32);
    w.tensor(b + "ffn_up.weight", {768, 2 * 3072}, test::kF16);
    w.tensor(b + "ffn_down.weight", {3072, 768}, test::kF16);
    w.tensor(b + "ffn_down.bias", {768}, test::kF32);
    w.tensor(b + "layer_output_norm.weight", {768}, test::kF32);
    w.tensor(b + "layer_output_norm.bias", {768}, test::kF32);
  }
  return w;
}

TEST(JinaBertV2, ConfigReadsTheEncoderItIs) {
  const Model c = from_config(jina_v2_base_config());
  EXPECT_TRUE(c.unchecked_architecture.empty()) << c.unchecked_architecture;
  EXPECT_EQ(c.arch.layers, 12);
  EXPECT_EQ(c.arch.hidden_size, 768);
  EXPECT_EQ(c.arch.heads, 12);
  EXPECT_EQ(c.arch.kv_heads, 12);
  EXPECT_EQ(c.arch.head_dim, 64);
  EXPECT_EQ(c.arch.intermediate_size, 3072);
  EXPECT_TRUE(c.arch.mlp_gated);  // GEGLU: gate and up (one fused tensor), down
  EXPECT_TRUE(c.arch.attention.alibi);
  EXPECT_TRUE(c.arch.attention.post_norm);
  EXPECT_TRUE(c.arch.attention.no_kv_cache);
  EXPECT_TRUE(c.arch.tied_embeddings);  // no output head
  EXPECT_EQ(c.arch.vocab_size, 30528);
  EXPECT_EQ(c.arch.max_context, 8192);
  EXPECT_TRUE(c.embedding);
  // The card's 137 M (mteb's ModelMeta n_parameters 137_000_000,
  // embeddings-benchmark/mteb mteb/models/model_implementations/
  // jina_models.py at 00a73ea3) within 1 %. A two-matrix MLP (the BERT
  // reading before) counted 113 M.
  EXPECT_LT(rel(static_cast<double>(count_params(c.arch).total()), 137e6), 0.01)
      << count_params(c.arch).total();
}

TEST(JinaBertV2, PlainBertStaysBert) {
  // BERT's own config (absolute positions, a GELU MLP of two matrices) is
  // not taken for Jina's.
  Json j = jina_v2_base_config();
  j["position_embedding_type"] = "absolute";
  j.erase("feed_forward_type");
  j["architectures"] = {"BertModel"};
  const Model c = from_config(j);
  EXPECT_FALSE(c.arch.mlp_gated);
  EXPECT_FALSE(c.arch.attention.alibi);
}

TEST(JinaBertV2, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = from_gguf(jina_v2_base_gguf());
  const Model c = from_config(jina_v2_base_config());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_TRUE(g.embedding);
  EXPECT_TRUE(g.arch.attention.no_kv_cache);
  EXPECT_TRUE(g.arch.attention.alibi);
  EXPECT_TRUE(g.arch.mlp_gated);  // ffn_up twice feed_forward_length
  EXPECT_TRUE(g.arch.tied_embeddings);
  EXPECT_EQ(g.arch.kv_heads, 12);
  EXPECT_EQ(g.arch.intermediate_size, 3072);
  EXPECT_EQ(g.arch.max_context, 8192);
  // The file's tensors: 30528 x 768 + 2 x 768 + 2 x 768, and per layer
  // 4 x (768^2 + 768) + 768 x 6144 + 3072 x 768 + 768 + 4 x 768 =
  // 9,444,096, so 136,777,728 in all: the card's 137 M within 0.2 %.
  EXPECT_EQ(g.params, 136777728);
  EXPECT_LT(rel(static_cast<double>(g.params), 137e6), 0.01);
  EXPECT_EQ(count_params(g.arch).active(), count_params(c.arch).active());
  expect_same_encoder_estimate(g, c, "jina-embeddings-v2-base-en");
}

TEST(JinaBertV2, CatalogueGivesWhatTheConfigGives) {
  const Model& cat = catalogue_model("jina-embeddings-v2-base-en");
  const Model c = from_config(jina_v2_base_config());
  EXPECT_TRUE(cat.embedding);
  expect_same_encoder_estimate(cat, c, "jina-embeddings-v2-base-en");
  const Precision p = *parse_precision("f16");
  EXPECT_LT(rel(static_cast<double>(weight_layout(cat, p).total()),
                static_cast<double>(weight_layout(c, p).total())),
            0.01);
}

// ---------------------------------------------------------------------------
// nomic-bert-moe: nomic-ai/nomic-embed-text-v2-moe.
//
// Its config.json (model_type nomic_bert) as public transcriptions give it
// (code index): n_embd 768, n_layer 12, n_head 12, n_inner 3072, vocab_size
// 250048, n_positions 2048, num_experts 8, moe_top_k 2, moe_every_n_layers 2
// (a Swift port's testNomicV2ConfigDetectsMoE, a public Swift XCTest of MLX sentence-embedding
// encoders (GemmaForCausalLM lastHiddenState shape [1, 5, 64]), and a converter's test of it, a
// public Rust GGUF writer of nomic-bert with tests, 55,295 characters ('layer_norm_epsilon defaults
// to 1.0e-12 per BertConfig'): pad_token_id 1, layer_norm_epsilon 1e-5, rotary_emb_base 10000);
// activation_function gelu, moe_normalize_expert_weights false, no shared experts, qkv and MLP
// biases, prenorm false, rotary_emb_fraction 1.0, type_vocab_size 1 (a
// reference port's REQUIRED_FIELDS of the upstream config,
// a public Python reference port of Nomic's MoE BERT config (load_vendored_hf_config: 'The pinned
// config.json snapshot, so the no-network tests still validate the real thing.'));
// max_trained_positions 2048 (what conversion/bert.py NomicBertModel requires with n_positions 2048
// to write 512).
Json nomic_v2_moe_config() {
  return {{"model_type", "nomic_bert"},
          {"architectures", {"NomicBertModel"}},
          {"n_embd", 768},
          {"n_layer", 12},
          {"n_head", 12},
          {"n_inner", 3072},
          {"vocab_size", 250048},
          {"type_vocab_size", 1},
          {"n_positions", 2048},
          {"max_trained_positions", 2048},
          {"pad_token_id", 1},
          {"rotary_emb_base", 10000},
          {"rotary_emb_fraction", 1.0},
          {"rotary_emb_interleaved", false},
          {"activation_function", "gelu"},
          {"num_experts", 8},
          {"moe_top_k", 2},
          {"moe_every_n_layers", 2},
          {"moe_normalize_expert_weights", false},
          {"num_shared_experts", 0},
          {"qkv_proj_bias", true},
          {"mlp_fc1_bias", true},
          {"mlp_fc2_bias", true},
          {"prenorm", false},
          {"causal", false},
          {"layer_norm_epsilon", 1e-5}};
}

// The GGUF llama.cpp's converter writes for it (conversion/bert.py
// NomicBertModel with is_moe, conversion/base.py at 80fb11ac): architecture
// nomic-bert-moe, context_length 512 (n_positions 2048 with 2048 trained
// positions), feed_forward_length 3072, expert_count 8, expert_used_count
// 2, moe_every_n_layers 2, the LayerNorm epsilon, causal false, mean
// pooling, one token type. The tensors nomic-bert-moe.cpp creates: a fused
// QKV and the output projection with biases, LayerNorms after attention and
// after the MLP; on layers il % 2 == 1 the router and the experts' up and
// down (ffn_up_exps, ffn_down_exps; the experts' bias is dropped), on the
// others up and down with biases; no output head.
test::GgufWriter nomic_v2_moe_gguf() {
  const std::string a = "nomic-bert-moe";
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".block_count", 12);
  w.u32(a + ".context_length", 512);
  w.u32(a + ".embedding_length", 768);
  w.u32(a + ".feed_forward_length", 3072);
  w.u32(a + ".attention.head_count", 12);
  w.f32(a + ".attention.layer_norm_epsilon", 1e-5F);
  w.boolean(a + ".attention.causal", false);
  w.u32(a + ".pooling_type", 1);
  w.f32(a + ".rope.freq_base", 10000.0F);
  w.u32(a + ".expert_count", 8);
  w.u32(a + ".expert_used_count", 2);
  w.u32(a + ".moe_every_n_layers", 2);
  w.u32("tokenizer.ggml.token_type_count", 1);
  w.tensor("token_embd.weight", {768, 250048}, test::kF16);
  w.tensor("token_types.weight", {768, 1}, test::kF32);
  w.tensor("token_embd_norm.weight", {768}, test::kF32);
  w.tensor("token_embd_norm.bias", {768}, test::kF32);
  for (int i = 0; i < 12; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_qkv.weight", {768, 3 * 768}, test::kF16);
    w.tensor(b + "attn_qkv.bias", {3 * 768}, test::kF32);
    w.tensor(b + "attn_output.weight", {768, 768}, test::kF16);
    w.tensor(b + "attn_output.bias", {768}, test::kF32);
    w.tensor(b + "attn_output_norm.weight", {768}, test::kF32);
    w.tensor(b + "attn_output_norm.bias", {768}, test::kF32);
    if (i % 2 == 1) {
      w.tensor(b + "ffn_gate_inp.weight", {768, 8}, test::kF32);
      w.tensor(b + "ffn_up_exps.weight", {768, 3072, 8}, test::kF16);
      w.tensor(b + "ffn_down_exps.weight", {3072, 768, 8}, test::kF16);
    } else {
      w.tensor(b + "ffn_up.weight", {768, 3072}, test::kF16);
      w.tensor(b + "ffn_up.bias", {3072}, test::kF32);
      w.tensor(b + "ffn_down.weight", {3072, 768}, test::kF16);
      w.tensor(b + "ffn_down.bias", {768}, test::kF32);
    }
    w.tensor(b + "layer_output_norm.weight", {768}, test::kF32);
    w.tensor(b + "layer_output_norm.bias", {768}, test::kF32);
  }
  return w;
}

TEST(NomicBertMoe, ConfigReadsTheExpertsEverySecondLayer) {
  const Model c = from_config(nomic_v2_moe_config());
  EXPECT_TRUE(c.unchecked_architecture.empty()) << c.unchecked_architecture;
  EXPECT_TRUE(c.embedding);
  EXPECT_TRUE(c.arch.attention.no_kv_cache);
  EXPECT_TRUE(c.arch.attention.post_norm);
  EXPECT_FALSE(c.arch.mlp_gated);  // GELU: up and down, the experts too
  EXPECT_TRUE(c.arch.tied_embeddings);
  EXPECT_EQ(c.arch.max_context, 512);
  ASSERT_TRUE(c.arch.moe.has_value());
  EXPECT_EQ(c.arch.moe->experts, 8);
  EXPECT_EQ(c.arch.moe->experts_per_token, 2);
  EXPECT_EQ(c.arch.moe->expert_intermediate_size, 3072);
  EXPECT_EQ(c.arch.moe->layer_step, 2);
  EXPECT_FALSE(c.arch.moe->weights_normalized);
  EXPECT_EQ(moe_layer_count(c.arch), 6);
  // The card's 475 M total and 305 M active (public quotes of it, code
  // index a public Python embedding helper ('# Matryoshka truncation, re-normalize after slicing',
  // def cosine(a, b)); a public Markdown embedding-model adoption protocol ('semantic-only must
  // beat Granite, hybrid must score at least 19/20'); mteb's ModelMeta n_parameters 475,292,928,
  // embeddings-benchmark/mteb mteb/models/model_implementations/nomic_models.py at 06aee2b7), each
  // within 1 %.
  const ParamBreakdown p = count_params(c.arch);
  EXPECT_LT(rel(static_cast<double>(p.total()), 475292928.0), 0.01) << p.total();
  EXPECT_LT(rel(static_cast<double>(p.active()), 305e6), 0.01) << p.active();
}

TEST(NomicBertMoe, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = from_gguf(nomic_v2_moe_gguf());
  const Model c = from_config(nomic_v2_moe_config());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_TRUE(g.embedding);
  EXPECT_TRUE(g.arch.attention.no_kv_cache);
  EXPECT_FALSE(g.arch.mlp_gated);
  ASSERT_TRUE(g.arch.moe.has_value());
  EXPECT_EQ(g.arch.moe->layer_step, 2);
  EXPECT_FALSE(g.arch.moe->weights_normalized);
  EXPECT_EQ(g.arch.max_context, 512);
  // The file's tensors: mteb's exact 475,292,928 less the experts' biases
  // the converter drops (6 layers x 768): 475,288,320.
  EXPECT_EQ(g.params, 475292928 - 6 * 768);
  EXPECT_EQ(count_params(g.arch).active(), count_params(c.arch).active());
  expect_same_encoder_estimate(g, c, "nomic-embed-text-v2-moe");
}

// Each block sized as nomic-bert-moe.cpp load_arch_tensors creates it from
// the converter's file (nomic_v2_moe_gguf above, F16): the fused attn_qkv
// with its bias (qkv_proj_bias) and attn_output with its bias, two
// LayerNorms; on the odd layers the F32 router and the experts' up and down
// (no bias: the converter drops the experts' one), on the even ones up and
// down with their biases (mlp_fc1_bias, mlp_fc2_bias).
TEST(NomicBertMoe, BlocksCountTheFusedQkvBias) {
  constexpr std::int64_t e = 768;
  constexpr std::int64_t f = 3072;
  constexpr std::int64_t attention = 2 * (e * 3 * e + e * e) + 4 * (3 * e + e + 4 * e);
  constexpr std::int64_t experts = 4 * e * 8 + 2 * 8 * (e * f + f * e);
  constexpr std::int64_t dense = 2 * (e * f + f * e) + 4 * (f + e);
  const WeightLayout l = weight_layout(from_config(nomic_v2_moe_config()), *parse_precision("f16"));
  ASSERT_EQ(l.layers.size(), 12U);
  for (std::size_t i = 0; i < l.layers.size(); ++i) {
    EXPECT_EQ(l.layers[i].bytes, attention + (i % 2 == 1 ? experts : dense)) << i;
  }
}

TEST(NomicBertMoe, TheDenseNomicBertStaysGated) {
  // v1.5 (swiglu, no experts) keeps its gated MLP and 2048 positions.
  Json j = nomic_v2_moe_config();
  for (const char* k : {"num_experts", "moe_top_k", "moe_every_n_layers"}) {
    j.erase(k);
  }
  j["activation_function"] = "swiglu";
  j["max_position_embeddings"] = 2048;
  const Model c = from_config(j);
  EXPECT_TRUE(c.arch.mlp_gated);
  EXPECT_FALSE(c.arch.moe.has_value());
  EXPECT_EQ(c.arch.max_context, 2048);
}

TEST(NomicBertMoe, CatalogueGivesWhatTheConfigGives) {
  const Model& cat = catalogue_model("nomic-embed-text-v2-moe");
  const Model c = from_config(nomic_v2_moe_config());
  EXPECT_TRUE(cat.embedding);
  expect_same_encoder_estimate(cat, c, "nomic-embed-text-v2-moe");
  const Precision p = *parse_precision("f16");
  EXPECT_LT(rel(static_cast<double>(weight_layout(cat, p).total()),
                static_cast<double>(weight_layout(c, p).total())),
            0.01);
}

}  // namespace
}  // namespace willfit
