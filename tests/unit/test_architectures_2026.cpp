// The 2026 architectures of issue 18 that llama.cpp 80fb11ac loads and
// willfit once only warned about: GLM-5 (glm-dsa), Mistral 4 (mistral4),
// MiniMax-M3 (minimax-m3), Step-3.5 (step35), HunYuan V3 (hy_v3), Ling 3
// (bailingmoe3), Laguna (laguna), Cohere2 MoE (cohere2moe), and Phi-3.5-MoE
// (phimoe).
// Each family is read from a published config.json and from a GGUF header as
// llama.cpp's converter writes it (conversion/*.py at 80fb11ac), and both
// must give one estimate; the expected sizes are worked out by hand in the
// test from llama.cpp's cache layouts, and the totals come from model cards
// and safetensors indexes, not from willfit.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sources/embedded_data.hpp"
#include "unit/catalogue_checks.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/hf_config.hpp"
#include "willfit/models/model_db.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;

// The model a config.json (a JSON object) or a GGUF header gives.
Model read_config(const Json& j) {
  auto m = model_from_hf_config(j.dump(), "config.json");
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return m.ok() ? *m : Model{};
}

Model read_header(const test::GgufWriter& w) {
  const std::string bytes = w.file();
  auto parsed = read_gguf(bytes, bytes.size());
  EXPECT_TRUE(parsed.ok() && parsed->file.has_value());
  if (!parsed.ok() || !parsed->file) {
    return Model{};
  }
  auto m = model_from_gguf(*parsed->file, "model.gguf");
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return m.ok() ? *m : Model{};
}

Model catalogue(const std::string& id) {
  auto db = ModelDb::parse(app::embedded_models_json(), "embedded");
  EXPECT_TRUE(db.ok());
  auto found = db->find(id);
  EXPECT_TRUE(found.ok()) << id;
  return found.ok() ? found->entry->model : Model{};
}

double off(double value, double reference) {
  return std::abs(value - reference) / reference;
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
// 4 Ki and 128 Ki tokens, llama.cpp's default flash attention, at Q4_K_M.
const test::EstimateGrid kEstimateGrid{.contexts = {4096, 131072},
                                       .flash = {FlashAttention::Auto},
                                       .params = test::EstimateGrid::Params::None};

// A catalogue entry and the config.json it was read from: one estimate, and
// the weights by llama.cpp's recipe within 1 % (the entry carries the card's
// count, the config the counted one).
void expect_catalogue_agrees(const std::string& id, const Model& config) {
  const Model cat = catalogue(id);
  test::expect_same_estimate(cat, config, id, kEstimateGrid);
  const Precision p = *parse_precision("q4_k_m");
  EXPECT_LT(off(static_cast<double>(weight_layout(cat, p).total()),
                static_cast<double>(weight_layout(config, p).total())),
            0.01)
      << id;
}

// A GGUF header and the config.json it was converted from: the same active
// parameters (a llama.cpp model GGUF holds no vision tower: that is the mmproj
// file) and one estimate.
void expect_same_text_model(const Model& gguf, const Model& config, const std::string& what) {
  const ParamBreakdown from_config = count_params(config.arch);
  EXPECT_EQ(count_params(gguf.arch).active(), from_config.active() - from_config.vision) << what;
  test::expect_same_estimate(gguf, config, what, kEstimateGrid);
}

// The GGUF header llama.cpp's converter writes for a config.json of
// DeepSeek-V2's shape (conversion/deepseek.py DeepseekV2Model at 80fb11ac,
// which glm.py GlmMoeDsaModel and mistral3.py Mistral4Model build on):
// block_count counts the MTP blocks, MLA as MQA with one KV head of kv_lora +
// rope (key_length, value_length), the per-head widths in key_length_mla and
// value_length_mla, the experts' keys, and DeepSeek's indexer where the
// config has one. Two tensors stand for the rest.
test::GgufWriter deepseek2_style_gguf(const std::string& arch, const Json& c) {
  const auto u = [&c](const char* name) { return c.at(name).get<std::uint32_t>(); };
  const auto key = [&arch](const char* name) { return arch + "." + name; };
  const std::uint32_t nextn = c.value("num_nextn_predict_layers", 0U);
  test::GgufWriter w;
  w.str("general.architecture", arch);
  w.u32(key("block_count"), u("num_hidden_layers") + nextn);
  if (nextn > 0) {
    w.u32(key("nextn_predict_layers"), nextn);
  }
  w.u32(key("context_length"), u("max_position_embeddings"));
  w.u32(key("embedding_length"), u("hidden_size"));
  w.u32(key("feed_forward_length"), u("intermediate_size"));
  w.u32(key("attention.head_count"), u("num_attention_heads"));
  w.u32(key("attention.head_count_kv"), 1);
  w.u32(key("attention.key_length"), u("kv_lora_rank") + u("qk_rope_head_dim"));
  w.u32(key("attention.value_length"), u("kv_lora_rank"));
  w.u32(key("attention.key_length_mla"), u("qk_nope_head_dim") + u("qk_rope_head_dim"));
  w.u32(key("attention.value_length_mla"), u("v_head_dim"));
  w.u32(key("attention.q_lora_rank"), u("q_lora_rank"));
  w.u32(key("attention.kv_lora_rank"), u("kv_lora_rank"));
  w.u32(key("rope.dimension_count"), u("qk_rope_head_dim"));
  w.u32(key("expert_count"), u("n_routed_experts"));
  w.u32(key("expert_used_count"), u("num_experts_per_tok"));
  w.u32(key("expert_shared_count"), u("n_shared_experts"));
  w.u32(key("expert_feed_forward_length"), u("moe_intermediate_size"));
  w.u32(key("leading_dense_block_count"), u("first_k_dense_replace"));
  w.u32(key("vocab_size"), u("vocab_size"));
  if (c.contains("index_head_dim")) {
    w.u32(key("attention.indexer.head_count"), u("index_n_heads"));
    w.u32(key("attention.indexer.key_length"), u("index_head_dim"));
    w.u32(key("attention.indexer.top_k"), u("index_topk"));
  }
  w.tensor("token_embd.weight", {u("hidden_size"), 256}, test::kQ8_0);
  w.tensor("output.weight", {u("hidden_size"), 256}, test::kQ8_0);
  return w;
}

// ---- GLM-5 (glm_moe_dsa / glm-dsa) -----------------------------------------
//
// zai-org/GLM-5.1 config.json (transformers 5.4.0; GLM-5.1 shares GLM-5's
// glm_moe_dsa shape, NVIDIA NeMo AutoModel's GLM-5 page): 78 layers + 1 MTP,
// hidden 6144, MLA with q_lora 2048, kv_lora 512, qk 192 + 64 rope, v 256,
// 64 heads; the DeepSeek sparse-attention indexer of 32 heads of 128; 256
// experts of 2048, 8 per token, 1 shared; 3 dense layers of 12288.
Json glm5() {
  return {{"model_type", "glm_moe_dsa"},
          {"architectures", {"GlmMoeDsaForCausalLM"}},
          {"hidden_size", 6144},
          {"intermediate_size", 12288},
          {"moe_intermediate_size", 2048},
          {"num_hidden_layers", 78},
          {"num_attention_heads", 64},
          {"num_key_value_heads", 64},
          {"head_dim", 64},
          {"q_lora_rank", 2048},
          {"kv_lora_rank", 512},
          {"qk_head_dim", 256},
          {"qk_nope_head_dim", 192},
          {"qk_rope_head_dim", 64},
          {"v_head_dim", 256},
          {"index_head_dim", 128},
          {"index_n_heads", 32},
          {"index_topk", 2048},
          {"n_routed_experts", 256},
          {"n_shared_experts", 1},
          {"num_experts_per_tok", 8},
          {"first_k_dense_replace", 3},
          {"moe_layer_freq", 1},
          {"num_nextn_predict_layers", 1},
          {"max_position_embeddings", 202752},
          {"vocab_size", 154880},
          {"tie_word_embeddings", false}};
}

TEST(Glm5, ConfigIsKnownAndCountsTheCardsTotals) {
  const Model m = read_config(glm5());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  ASSERT_EQ(m.arch.attention.kind, AttentionKind::Mla);
  EXPECT_EQ(m.arch.mtp_layers, 1);
  EXPECT_EQ(m.arch.attention.index_head_dim, 128);
  const ParamBreakdown p = count_params(m.arch);
  // The card: 744 B total without the MTP block, 40 B activated (without
  // the token embeddings and the output head, 2 x 0.95 B, which the active
  // count here holds: 41.8 B); the GLM-5.1 safetensors hold 753,864,139,008
  // values with the MTP block (the norms and router biases left out here are
  // a few million).
  EXPECT_LT(off(static_cast<double>(p.total() - p.mtp), 744e9), 0.01) << p.total() - p.mtp;
  EXPECT_LT(off(static_cast<double>(p.total()), 753864139008.0), 0.001) << p.total();
  EXPECT_LT(off(static_cast<double>(p.active() - p.embedding - p.output), 40e9), 0.01)
      << p.active();
  // llama.cpp (llama-kv-cache-dsa.cpp): per token and trunk layer one latent
  // of 512 + 64 and one indexer key of 128, both in the K cache type (f16).
  const std::int64_t ctx = 8192;
  EXPECT_EQ(kv_cache_bytes(m.arch, {ctx, 1, 512, kv_f16(), kv_f16(), 256, true}),
            78 * std::int64_t{(576 + 128) * 2} * ctx);
}

TEST(Glm5, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = read_header(deepseek2_style_gguf("glm-dsa", glm5()));
  const Model c = read_config(glm5());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_EQ(g.arch.layers, 78);
  EXPECT_EQ(g.arch.mtp_layers, 1);
  EXPECT_EQ(g.arch.attention.index_heads, 32);
  EXPECT_EQ(attention_params_per_layer(g.arch), attention_params_per_layer(c.arch));
  ASSERT_TRUE(g.arch.moe.has_value());
  EXPECT_EQ(g.arch.moe->shared_experts, c.arch.moe->shared_experts);
  EXPECT_EQ(g.arch.moe->first_dense_layers, 3);
  expect_same_text_model(g, c, "glm-dsa GGUF vs config");
}

TEST(Glm5, CatalogueGivesWhatTheConfigGives) {
  const Model c = read_config(glm5());
  expect_catalogue_agrees("glm-5", c);
  expect_catalogue_agrees("glm-5.1", c);
}

// GLM-5.2: GLM-5's shape trained to a million tokens, with an indexer of its
// own on 21 of the 78 layers ("full": 0, 1, then every fourth from 2) and
// the others reusing an earlier layer's choice ("shared"), as its config's
// indexer_types and llama.cpp's GLM_5_2_DEFAULT_INDEXER_TYPES (glm-dsa.cpp,
// after GLM-5.2's config.json) list them.
Json glm52() {
  Json j = glm5();
  j["max_position_embeddings"] = 1048576;
  Json types = Json::array();
  for (int i = 0; i < 78; ++i) {
    types.push_back(i < 2 || (i - 2) % 4 == 0 ? "full" : "shared");
  }
  j["indexer_types"] = types;
  return j;
}

TEST(Glm52, SharedIndexersHoldNoKeysOrWeights) {
  const Model m = read_config(glm52());
  EXPECT_EQ(indexer_layer_count(m.arch), 21);
  // llama.cpp: the latent on all 78 layers, indexer keys on the 21 (f16).
  const std::int64_t ctx = 8192;
  EXPECT_EQ(kv_cache_bytes(m.arch, {ctx, 1, 512, kv_f16(), kv_f16(), 256, true}),
            (78 * std::int64_t{576} + 21 * std::int64_t{128}) * 2 * ctx);
  // The GLM-5.2 checkpoint: 1,506,659,919,872 bytes of BF16 tensors at hub
  // revision b4734de4 (radixark/miles' pinned layout), 753,329,959,936
  // values, 534 M fewer than GLM-5.1's 753,864,139,008: the 57 shared
  // layers' indexers (57 x 9,371,648). The count here, with the MTP block
  // (whose indexer is its own), is within 0.1 % of it.
  const ParamBreakdown p = count_params(m.arch);
  EXPECT_LT(off(static_cast<double>(p.total()), 753329959936.0), 0.001) << p.total();
  EXPECT_EQ(count_params(read_config(glm5()).arch).total() - p.total(),
            57 * mla_indexer_params(m.arch));
  EXPECT_EQ(mla_indexer_params(m.arch), 2048 * 32 * 128 + 6144 * 128 + 6144 * 32);
}

TEST(Glm52, GgufFlagsOrLlamaCppsPatternGiveTheConfigsIndexers) {
  const Model c = read_config(glm52());
  // conversion/glm.py writes indexer_types as attention.indexer.types flags.
  test::GgufWriter with_flags = deepseek2_style_gguf("glm-dsa", glm52());
  std::string flags;
  const Json config = glm52();  // kept: a range over a temporary's member would dangle
  for (const auto& t : config["indexer_types"].get<std::vector<std::string>>()) {
    flags += static_cast<char>(t == "full" ? 1 : 0);
  }
  with_flags.raw("glm-dsa.attention.indexer.types", 9, [&] {
    std::string v;
    test::put<std::uint32_t>(v, 7);  // bool elements
    test::put<std::uint64_t>(v, flags.size());
    return v + flags;
  }());
  // An older file without the flags: llama.cpp's GLM-5.2 default, chosen by
  // the trained context.
  const test::GgufWriter without_flags = deepseek2_style_gguf("glm-dsa", glm52());
  for (const Model& g : {read_header(with_flags), read_header(without_flags)}) {
    EXPECT_EQ(indexer_layer_count(g.arch), 21);
    expect_same_text_model(g, c, "glm-dsa GLM-5.2 GGUF vs config");
  }
  // GLM-5's own file (trained to 202752 tokens) keeps an indexer on every layer.
  EXPECT_EQ(indexer_layer_count(read_header(deepseek2_style_gguf("glm-dsa", glm5())).arch), 78);
}

TEST(Glm52, CatalogueGivesWhatTheConfigGives) {
  expect_catalogue_agrees("glm-5.2", read_config(glm52()));
}

// ---- Mistral 4 (mistral4) ---------------------------------------------------
//
// mistralai/Mistral-Small-4-119B-2603 config.json: a mistral3 wrapper whose
// text_config is mistral4, DeepSeek-V2's MLA and experts (36 layers, hidden
// 4096, 32 heads, q_lora 1024, kv_lora 256, qk 64 + 64 rope, v 128; 128
// experts of 2048, 4 per token, 1 shared, no dense layer), untied 131072
// vocabulary, and a Pixtral vision tower (24 layers of 1024, 16 heads, patch
// 14), as public surveys of the config tabulate it (the catalogue entry's
// source names them).
Json mistral_small_4() {
  const Json text = {{"model_type", "mistral4"},   {"hidden_size", 4096},
                     {"intermediate_size", 12288}, {"moe_intermediate_size", 2048},
                     {"num_hidden_layers", 36},    {"num_attention_heads", 32},
                     {"num_key_value_heads", 32},  {"head_dim", 128},
                     {"q_lora_rank", 1024},        {"kv_lora_rank", 256},
                     {"qk_nope_head_dim", 64},     {"qk_rope_head_dim", 64},
                     {"v_head_dim", 128},          {"n_routed_experts", 128},
                     {"n_shared_experts", 1},      {"num_experts_per_tok", 4},
                     {"first_k_dense_replace", 0}, {"max_position_embeddings", 1048576},
                     {"vocab_size", 131072},       {"tie_word_embeddings", false}};
  const Json vision = {{"model_type", "pixtral"},   {"hidden_size", 1024},
                       {"intermediate_size", 4096}, {"num_hidden_layers", 24},
                       {"num_attention_heads", 16}, {"patch_size", 14},
                       {"image_size", 1540},        {"num_channels", 3}};
  return {{"model_type", "mistral3"}, {"architectures", {"Mistral3ForConditionalGeneration"}},
          {"text_config", text},      {"vision_config", vision},
          {"spatial_merge_size", 2},  {"multimodal_projector_bias", false}};
}

TEST(Mistral4, ConfigIsKnownAndCountsTheCardsTotals) {
  const Model m = read_config(mistral_small_4());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  ASSERT_EQ(m.arch.attention.kind, AttentionKind::Mla);
  ASSERT_TRUE(m.arch.moe.has_value());
  EXPECT_EQ(m.arch.moe->first_dense_layers, 0);
  const ParamBreakdown p = count_params(m.arch);
  // The card: 119B total with the vision tower (the hub lists 119.4 B),
  // 6.5B active; the text model's active count is 6.63 B (Raschka's gallery
  // gives 6.63B too), the tower (in `vision`) not among them.
  EXPECT_LT(off(static_cast<double>(p.total()), 119.4e9), 0.01) << p.total();
  EXPECT_LT(off(static_cast<double>(p.active() - p.vision), 6.5e9), 0.03) << p.active();
  // llama.cpp caches one latent of 256 + 64 per token and layer (f16): the
  // 22.5 KiB per token that public tables give.
  const std::int64_t ctx = 8192;
  EXPECT_EQ(kv_cache_bytes(m.arch, {ctx, 1, 512, kv_f16(), kv_f16(), 256}),
            36 * std::int64_t{320 * 2} * ctx);
  EXPECT_EQ(36 * 320 * 2, 22.5 * 1024);
}

TEST(Mistral4, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = read_header(deepseek2_style_gguf("mistral4", mistral_small_4()["text_config"]));
  const Model c = read_config(mistral_small_4());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_EQ(attention_params_per_layer(g.arch), attention_params_per_layer(c.arch));
  expect_same_text_model(g, c, "mistral4 GGUF vs config");
}

TEST(Mistral4, CatalogueGivesWhatTheConfigGives) {
  const Model c = read_config(mistral_small_4());
  expect_catalogue_agrees("mistral-small-4-119b", c);
  EXPECT_EQ(catalogue("mistral-small-4-119b").arch.vision_params, c.arch.vision_params);
}

// ---- MiniMax-M3 (minimax_m3_vl / minimax-m3) -------------------------------
//
// MiniMaxAI/MiniMax-M3 config.json, text_config (minimax_m3_vl_text; the
// values public ports copy as "the real text_config", and
// MiniMaxM3VLTextConfig's defaults): 60 layers of 6144, 64 heads / 4 KV of
// 128, the first 3 dense (12288), then 128 experts of 3072, 4 per token, 1
// shared of 3072; MiniMax sparse attention's indexer of 4 heads of 128 on
// the MoE layers; vocabulary 200064, untied; MTP modules named but not in the
// released weights.
Json minimax_m3_text() {
  Json freq = Json::array();
  for (int i = 0; i < 60; ++i) {
    freq.push_back(i < 3 ? 0 : 1);
  }
  return {{"model_type", "minimax_m3_vl_text"},
          {"hidden_size", 6144},
          {"intermediate_size", 3072},
          {"dense_intermediate_size", 12288},
          {"shared_intermediate_size", 3072},
          {"num_hidden_layers", 60},
          {"num_attention_heads", 64},
          {"num_key_value_heads", 4},
          {"head_dim", 128},
          {"rotary_dim", 64},
          {"vocab_size", 200064},
          {"max_position_embeddings", 1048576},
          {"tie_word_embeddings", false},
          {"num_local_experts", 128},
          {"num_experts_per_tok", 4},
          {"n_shared_experts", 1},
          {"num_mtp_modules", 7},
          {"num_nextn_predict_layers", 1},
          {"moe_layer_freq", freq},
          {"sparse_attention_config",
           {{"use_sparse_attention", true},
            {"sparse_index_dim", 128},
            {"sparse_num_index_heads", 4},
            {"sparse_topk_blocks", 16},
            {"sparse_block_size", 128},
            {"sparse_local_block", 1},
            {"sparse_attention_freq", freq}}}};
}

Json minimax_m3() {
  return {{"model_type", "minimax_m3_vl"},
          {"architectures", {"MiniMaxM3SparseForConditionalGeneration"}},
          {"text_config", minimax_m3_text()}};
}

// As conversion/minimax.py (MiniMaxM3Model over MiniMaxM2Model) writes it:
// feed_forward_length the dense width, expert_feed_forward_length the
// experts', leading_dense_block_count from moe_layer_freq, the indexer keys.
test::GgufWriter minimax_m3_gguf() {
  test::GgufWriter w;
  w.str("general.architecture", "minimax-m3");
  w.u32("minimax-m3.block_count", 60);
  w.u32("minimax-m3.context_length", 1048576);
  w.u32("minimax-m3.embedding_length", 6144);
  w.u32("minimax-m3.feed_forward_length", 12288);
  w.u32("minimax-m3.attention.head_count", 64);
  w.u32("minimax-m3.attention.head_count_kv", 4);
  w.u32("minimax-m3.attention.key_length", 128);
  w.u32("minimax-m3.attention.value_length", 128);
  w.u32("minimax-m3.rope.dimension_count", 64);
  w.u32("minimax-m3.expert_count", 128);
  w.u32("minimax-m3.expert_used_count", 4);
  w.u32("minimax-m3.expert_shared_count", 1);
  w.u32("minimax-m3.expert_feed_forward_length", 3072);
  w.u32("minimax-m3.leading_dense_block_count", 3);
  w.u32("minimax-m3.attention.indexer.head_count", 4);
  w.u32("minimax-m3.attention.indexer.key_length", 128);
  w.u32("minimax-m3.attention.indexer.top_k", 16);
  w.u32("minimax-m3.attention.indexer.block_size", 128);
  w.u32("minimax-m3.vocab_size", 200064);
  w.tensor("token_embd.weight", {6144, 256}, test::kQ8_0);
  w.tensor("output.weight", {6144, 256}, test::kQ8_0);
  return w;
}

TEST(MiniMaxM3, ConfigGivesTheSparseIndexerOnTheMoeLayers) {
  const Model m = read_config(minimax_m3());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  const Architecture& a = m.arch;
  ASSERT_EQ(a.attention.kind, AttentionKind::Full);
  EXPECT_EQ(a.intermediate_size, 12288);
  ASSERT_TRUE(a.moe.has_value());
  EXPECT_EQ(a.moe->first_dense_layers, 3);
  EXPECT_EQ(a.moe->expert_intermediate_size, 3072);
  EXPECT_EQ(a.moe->shared_experts, 1);
  EXPECT_EQ(a.mtp_layers, 0);
  EXPECT_EQ(indexer_layer_count(a), 57);
  // llama.cpp (llama-kv-cache-msa.cpp): K and V of 4 heads of 128 on all 60
  // layers, and on the 57 MoE layers an indexer cache of one head: a key of
  // 128 and, the cache not being MLA, a V row of 128 beside it (f16).
  const std::int64_t ctx = 8192;
  EXPECT_EQ(kv_cache_bytes(a, {ctx, 1, 512, kv_f16(), kv_f16(), 256, true}),
            (60 * std::int64_t{2 * 4 * 128} + 57 * std::int64_t{128 + 128}) * 2 * ctx);
  // Elsewhere the indexer key alone.
  EXPECT_EQ(kv_cache_bytes(a, {ctx, 1, 512, kv_f16(), kv_f16(), 256}),
            (60 * std::int64_t{2 * 4 * 128} + 57 * std::int64_t{128}) * 2 * ctx);
  // The indexer's projections: 6144 x (4 x 128) + 6144 x 128 on each MoE layer.
  EXPECT_EQ(gqa_indexer_params(a), 6144 * (4 * 128 + 128));
}

TEST(MiniMaxM3, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = read_header(minimax_m3_gguf());
  const Model c = read_config(minimax_m3());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_EQ(indexer_layer_count(g.arch), indexer_layer_count(c.arch));
  EXPECT_EQ(gqa_indexer_params(g.arch), gqa_indexer_params(c.arch));
  ASSERT_TRUE(g.arch.moe.has_value());
  EXPECT_EQ(g.arch.moe->shared_experts, 1);
  EXPECT_EQ(g.arch.intermediate_size, c.arch.intermediate_size);
  expect_same_text_model(g, c, "minimax-m3 GGUF vs config");
}

TEST(MiniMaxM3, CatalogueGivesWhatTheConfigGivesAndTheCheckpointsCount) {
  const Model c = read_config(minimax_m3());
  expect_catalogue_agrees("minimax-m3", c);
  const Model cat = catalogue("minimax-m3");
  EXPECT_EQ(indexer_layer_count(cat.arch), 57);
  // The BF16 checkpoint holds 427,040,140,160 values (Megatron-Bridge's
  // export audit at hub revision 50942730): the text model counted here and
  // the vision tower the catalogue carries (the rest of the total).
  const ParamBreakdown text = count_params(c.arch);
  EXPECT_LT(
      off(static_cast<double>(text.total() - text.vision + cat.arch.vision_params), 427040140160.0),
      0.001);
  // llama.cpp's model type 428B_A23B: 23.5 B active without the embeddings
  // and the output head.
  EXPECT_LT(
      off(static_cast<double>(text.active() - text.vision - text.embedding - text.output), 23e9),
      0.03);
}

// ---- Step-3.5-Flash (step3p5 / step35) --------------------------------------
//
// stepfun-ai/Step-3.5-Flash config.json (data/models.json row step-3.5-flash
// cites where each value was read): 45 layers of 4096, full attention on
// layer 0 and every 4th (64 heads), a 512-token window on the others (96
// heads, attention_other_setting), 8 KV heads of 128 on both; the first 3
// layers a dense MLP of 11264, then 288 experts of 1280 (8 per token), one
// shared of 1280, a router bias; a sigmoid gate per head; 3 MTP blocks whose
// layer_types follow the trunk's; vocabulary 128896, untied.
Json step35_config() {
  Json types = Json::array();
  for (int i = 0; i < 48; ++i) {
    types.push_back(i < 45 && i % 4 == 0 ? "full_attention" : "sliding_attention");
  }
  std::string moe_layers;
  for (int i = 3; i < 45; ++i) {
    moe_layers += (moe_layers.empty() ? "" : ",") + std::to_string(i);
  }
  return {{"model_type", "step3p5"},
          {"architectures", {"Step3p5ForCausalLM"}},
          {"hidden_size", 4096},
          {"intermediate_size", 11264},
          {"num_attention_heads", 64},
          {"num_attention_groups", 8},
          {"head_dim", 128},
          {"num_hidden_layers", 45},
          {"max_position_embeddings", 262144},
          {"vocab_size", 128896},
          {"rms_norm_eps", 1e-5},
          {"moe_num_experts", 288},
          {"moe_top_k", 8},
          {"moe_intermediate_size", 1280},
          {"share_expert_dim", 1280},
          {"moe_layers_enum", moe_layers},
          {"moe_router_scaling_factor", 3.0},
          {"use_moe_router_bias", true},
          {"norm_expert_weight", true},
          {"num_nextn_predict_layers", 3},
          {"sliding_window", 512},
          {"layer_types", types},
          {"attention_other_setting",
           {{"attention_type", "sliding_attention"},
            {"num_attention_heads", 96},
            {"num_attention_groups", 8},
            {"head_dim", 128}}},
          {"use_head_wise_attn_gate", true},
          {"use_qk_norm", true},
          {"tie_word_embeddings", false}};
}

// As conversion/step3.py (Step35Model.set_gguf_parameters at 80fb11ac) writes
// it: block_count with the 3 MTP blocks, per-layer head counts and window
// flags over all 48, the experts' keys, leading_dense_block_count from
// moe_layers_enum; a layer's gate and a router bias stand for the tensors.
test::GgufWriter step35_gguf() {
  std::vector<std::uint32_t> heads;
  std::vector<std::uint32_t> kv;
  std::vector<bool> swa;
  for (int i = 0; i < 48; ++i) {
    const bool full = i < 45 && i % 4 == 0;
    heads.push_back(full ? 64 : 96);
    kv.push_back(8);
    swa.push_back(!full);
  }
  test::GgufWriter w;
  w.str("general.architecture", "step35");
  w.u32("step35.block_count", 48);
  w.u32("step35.nextn_predict_layers", 3);
  w.u32("step35.context_length", 262144);
  w.u32("step35.embedding_length", 4096);
  w.u32("step35.feed_forward_length", 11264);
  w.u32_array("step35.attention.head_count", heads);
  w.u32_array("step35.attention.head_count_kv", kv);
  w.u32("step35.attention.key_length", 128);
  w.u32("step35.attention.value_length", 128);
  w.u32("step35.attention.sliding_window", 512);
  w.bool_array("step35.attention.sliding_window_pattern", swa);
  w.u32("step35.expert_count", 288);
  w.u32("step35.expert_used_count", 8);
  w.u32("step35.expert_feed_forward_length", 1280);
  w.u32("step35.expert_shared_feed_forward_length", 1280);
  w.u32("step35.leading_dense_block_count", 3);
  w.f32("step35.expert_weights_scale", 3.0F);
  w.boolean("step35.expert_weights_norm", true);
  w.tensor("token_embd.weight", {4096, 128896}, test::kQ8_0);
  w.tensor("output.weight", {4096, 128896}, test::kQ8_0);
  w.tensor("blk.0.attn_gate.weight", {4096, 64}, test::kF16);
  w.tensor("blk.3.exp_probs_b.bias", {288}, test::kF32);
  return w;
}

TEST(Step35, ConfigGivesBothLayerKindsTheGateAndTheExperts) {
  const Model m = read_config(step35_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  const Architecture& a = m.arch;
  ASSERT_EQ(a.attention.kind, AttentionKind::Sliding);
  EXPECT_EQ(a.heads, 96);
  EXPECT_EQ(a.attention.global_heads, 64);
  EXPECT_EQ(a.kv_heads, 8);
  EXPECT_TRUE(a.attention.head_gate);
  EXPECT_EQ(a.mtp_layers, 3);
  ASSERT_TRUE(a.moe.has_value());
  EXPECT_EQ(a.moe->first_dense_layers, 3);
  EXPECT_EQ(a.moe->shared_experts, 1);
  EXPECT_TRUE(a.moe->selection_bias);
  // layer_types: full attention on 0, 4, ..., 44: 12 of the 45.
  EXPECT_TRUE(is_global_layer(a, 0));
  EXPECT_FALSE(is_global_layer(a, 3));
  EXPECT_TRUE(is_global_layer(a, 44));
  EXPECT_EQ(global_layer_count(a, a.layers), 12);
  // llama.cpp's ISWA cache (llama-kv-cache-iswa.cpp; step35.cpp's filter
  // leaves the MTP blocks out of the main context): 12 layers of the whole
  // context, 33 of window + micro-batch (512 + 512) cells, K and V of 8 x 128.
  const std::int64_t ctx = 8192;
  EXPECT_EQ(kv_cache_bytes(a, {ctx, 1, 512, kv_f16(), kv_f16(), 256}),
            (12 * ctx + 33 * std::int64_t{1024}) * 2 * 8 * 128 * 2);
  // Parameters by hand: attention q, k, v, o and the gate (windowed 96
  // heads, global 64), the dense and MoE MLPs, embeddings and head.
  const std::int64_t windowed = 4096LL * 96 * 128 * 2 + 2 * 4096LL * 8 * 128 + 4096LL * 96;
  const std::int64_t global = 4096LL * 64 * 128 * 2 + 2 * 4096LL * 8 * 128 + 4096LL * 64;
  const std::int64_t expert = 3 * 4096LL * 1280;
  const std::int64_t trunk = 33 * windowed + 12 * global + 3 * (3 * 4096LL * 11264) +
                             42 * (288 * expert + expert + 4096LL * 288) + 2 * 128896LL * 4096;
  const ParamBreakdown p = count_params(a);
  EXPECT_EQ(p.total() - p.mtp, trunk);
  // The cards' 196.81 B (NVIDIA's NIM card; the model card's "196B").
  EXPECT_LT(off(static_cast<double>(trunk), 196.81e9), 0.001);
  // Each MTP block: a windowed layer, a dense MLP, eh_proj and its own head.
  EXPECT_EQ(p.mtp, 3 * (windowed + 3 * 4096LL * 11264 + 2 * 4096LL * 4096 + 128896LL * 4096));
}

TEST(Step35, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = read_header(step35_gguf());
  const Model c = read_config(step35_config());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_EQ(g.arch.layers, 45);
  EXPECT_EQ(g.arch.heads, 96);
  EXPECT_EQ(g.arch.attention.global_heads, 64);
  EXPECT_TRUE(g.arch.attention.global_first);
  EXPECT_EQ(g.arch.attention.sliding_pattern, c.arch.attention.sliding_pattern);
  EXPECT_TRUE(g.arch.attention.head_gate);
  EXPECT_TRUE(g.arch.mtp_dense);
  ASSERT_TRUE(g.arch.moe.has_value());
  EXPECT_EQ(g.arch.moe->shared_experts, 1);
  EXPECT_TRUE(g.arch.moe->selection_bias);
  expect_same_text_model(g, c, "step35 GGUF vs config");
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
}

TEST(Step35, CatalogueGivesWhatTheConfigGives) {
  const Model c = read_config(step35_config());
  expect_catalogue_agrees("step-3.5-flash", c);
  EXPECT_EQ(count_params(catalogue("step-3.5-flash").arch).total(), count_params(c.arch).total());
}

// ---- Hy3 (hy_v3, HYV3ForCausalLM) -------------------------------------------
//
// tencent/Hy3's config.json (https://huggingface.co/tencent/Hy3/raw/main/
// config.json), as two public test files quote it verbatim (a public pytest file of a small LLM
// engine (its last test compares LLMEngine(EngineConfig(tp=2, **kw)) output to the single-rank
// output, 'assert got == want'), a port's test against transformers' hy_v3, and a public Rust
// config parser with tests (router_scaling_factor 2.826, assert_eq!(cfg.num_hidden_layers, 80),
// rope_theta 11158840.0), a Rust port's deserialisation test; they agree on every value below): 80
// layers of 4096, 64 heads and 8 KV heads of 128 with Q/K norms, the first layer a dense MLP of
// 13312, then 192 experts of 1536 (8 a token) and one shared of 1536, a sigmoid router with an
// expert bias (moe_router_enable_expert_bias), one MTP block, vocabulary 120832, untied.
Json hy3_config() {
  return {{"architectures", {"HYV3ForCausalLM"}},
          {"model_type", "hy_v3"},
          {"hidden_size", 4096},
          {"intermediate_size", 13312},
          {"num_hidden_layers", 80},
          {"num_attention_heads", 64},
          {"num_key_value_heads", 8},
          {"head_dim", 128},
          {"qk_norm", true},
          {"max_position_embeddings", 262144},
          {"rms_norm_eps", 1e-5},
          {"rope_parameters", {{"rope_theta", 11158840.0}, {"rope_type", "default"}}},
          {"num_experts", 192},
          {"num_experts_per_tok", 8},
          {"num_shared_experts", 1},
          {"moe_intermediate_size", 1536},
          {"expert_hidden_dim", 1536},
          {"first_k_dense_replace", 1},
          {"moe_router_use_sigmoid", true},
          {"moe_router_enable_expert_bias", true},
          {"route_norm", true},
          {"router_scaling_factor", 2.826},
          {"num_nextn_predict_layers", 1},
          {"vocab_size", 120832},
          {"tie_word_embeddings", false},
          {"dtype", "bfloat16"}};
}

// As conversion/hunyuan.py HYV3Model (at 80fb11ac) writes it: base.py's
// keys (block_count with the MTP block, head_dim as key/value_length,
// num_experts and num_experts_per_tok), the experts' width, the shared
// expert's width (moe_intermediate_size x num_shared_experts), the router's
// norm, scale and sigmoid, nextn_predict_layers; no dense-lead key: the
// dense layer is the one without a router (hy-v3.cpp load_block).
test::GgufWriter hy3_gguf() {
  test::GgufWriter w;
  w.str("general.architecture", "hy_v3");
  w.u32("hy_v3.block_count", 81);
  w.u32("hy_v3.context_length", 262144);
  w.u32("hy_v3.embedding_length", 4096);
  w.u32("hy_v3.feed_forward_length", 13312);
  w.u32("hy_v3.attention.head_count", 64);
  w.u32("hy_v3.attention.head_count_kv", 8);
  w.f32("hy_v3.rope.freq_base", 11158840.0F);
  w.f32("hy_v3.attention.layer_norm_rms_epsilon", 1e-5F);
  w.u32("hy_v3.expert_count", 192);
  w.u32("hy_v3.expert_used_count", 8);
  w.u32("hy_v3.attention.key_length", 128);
  w.u32("hy_v3.attention.value_length", 128);
  w.u32("hy_v3.expert_feed_forward_length", 1536);
  w.u32("hy_v3.expert_shared_feed_forward_length", 1536);
  w.boolean("hy_v3.expert_weights_norm", true);
  w.f32("hy_v3.expert_weights_scale", 2.826F);
  w.u32("hy_v3.expert_gating_func", 2);
  w.u32("hy_v3.nextn_predict_layers", 1);
  w.tensor("token_embd.weight", {4096, 120832}, test::kQ8_0);
  w.tensor("output.weight", {4096, 120832}, test::kQ8_0);
  w.tensor("blk.0.ffn_gate.weight", {4096, 13312}, test::kQ8_0);
  for (int i = 1; i <= 80; ++i) {  // the MTP block (80) routes too
    w.tensor("blk." + std::to_string(i) + ".ffn_gate_inp.weight", {4096, 192}, test::kF32);
  }
  // hy-v3.cpp loads the selection bias as blk.N.exp_probs_b, no ".bias"
  w.tensor("blk.1.exp_probs_b", {192}, test::kF32);
  w.tensor("blk.1.ffn_gate_shexp.weight", {4096, 1536}, test::kQ8_0);
  return w;
}

TEST(HyV3, ConfigGivesTheDenseLeadSharedExpertAndBias) {
  const Model m = read_config(hy3_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  const Architecture& a = m.arch;
  EXPECT_EQ(a.layers, 80);
  EXPECT_EQ(a.mtp_layers, 1);
  EXPECT_FALSE(a.mtp_dense);  // hy-v3.cpp: the MTP block is a full MoE block
  ASSERT_TRUE(a.moe.has_value());
  EXPECT_EQ(a.moe->first_dense_layers, 1);
  EXPECT_EQ(a.moe->shared_experts, 1);
  EXPECT_TRUE(a.moe->selection_bias);
  // One full-attention cache over the trunk's 80 layers (llama-model.cpp
  // create_memory filters hy_v3's MTP block out): K and V of 8 x 128, f16.
  EXPECT_EQ(llama_estimate(m, 4096).memory.kv_cache, std::int64_t{80} * 8 * 128 * 2 * 2 * 4096);
  // Parameters by hand: q, k, v, o; the dense MLP; 79 MoE layers of 192
  // experts, the shared one and the router; embeddings and head.
  const std::int64_t attention = 2 * 4096LL * 64 * 128 + 2 * 4096LL * 8 * 128;
  const std::int64_t expert = 3 * 4096LL * 1536;
  const std::int64_t moe = 193 * expert + 4096LL * 192;
  const std::int64_t trunk = 80 * attention + 3 * 4096LL * 13312 + 79 * moe + 2 * 120832LL * 4096;
  const ParamBreakdown p = count_params(a);
  EXPECT_EQ(p.total() - p.mtp, trunk);
  // The card (tencent/Hy3-preview's model card as mirrored at
  // cnb.cool/ai-models/tencent/Hy3-preview): 295B total, 21B activated,
  // 3.8B in the MTP layer.
  EXPECT_LT(off(static_cast<double>(trunk), 295e9), 0.01) << trunk;
  EXPECT_LT(off(static_cast<double>(p.active()), 21e9), 0.05) << p.active();
  EXPECT_EQ(p.mtp, attention + moe + 2 * 4096LL * 4096);
  EXPECT_LT(off(static_cast<double>(p.mtp), 3.8e9), 0.02) << p.mtp;
}

TEST(HyV3, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = read_header(hy3_gguf());
  const Model c = read_config(hy3_config());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_EQ(g.arch.layers, 80);
  EXPECT_EQ(g.arch.mtp_layers, 1);
  ASSERT_TRUE(g.arch.moe.has_value());
  // no leading_dense_block_count: the layer without a router
  EXPECT_EQ(g.arch.moe->first_dense_layers, 1);
  EXPECT_EQ(g.arch.moe->shared_experts, 1);
  EXPECT_TRUE(g.arch.moe->selection_bias);
  expect_same_text_model(g, c, "hy_v3 GGUF vs config");
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
}

TEST(HyV3, CatalogueGivesWhatTheConfigGives) {
  const Model c = read_config(hy3_config());
  expect_catalogue_agrees("hy3", c);
  EXPECT_EQ(count_params(catalogue("hy3").arch).total(), count_params(c.arch).total());
}

// A GGUF whose routers skip a layer in the middle keeps no dense lead: only
// a run of routers to the trunk's last layer says where the dense ones end.
TEST(HyV3, RoutersNotATailGiveNoDenseLead) {
  test::GgufWriter gap;
  gap.str("general.architecture", "hy_v3");
  gap.u32("hy_v3.block_count", 4);
  gap.u32("hy_v3.context_length", 4096);
  gap.u32("hy_v3.embedding_length", 256);
  gap.u32("hy_v3.feed_forward_length", 512);
  gap.u32("hy_v3.attention.head_count", 4);
  gap.u32("hy_v3.expert_count", 4);
  gap.u32("hy_v3.expert_used_count", 2);
  gap.tensor("blk.1.ffn_gate_inp.weight", {256, 4}, test::kF32);
  gap.tensor("blk.3.ffn_gate_inp.weight", {256, 4}, test::kF32);
  const Model m = read_header(gap);
  ASSERT_TRUE(m.arch.moe.has_value());
  EXPECT_EQ(m.arch.moe->first_dense_layers, 0);
}

// ---- Ling 3 (bailing_hybrid / bailingmoe3, BailingMoeV3ForCausalLM) ---------
//
// inclusionAI/Ling-3.0-tiny's config.json as a public port's test quotes it
// (a public Swift test of an MLX BailingMoeV3Model port (caches three MambaCache and a
// KVCacheSimple, logits shape [1, 2, 16]), "decodes the Ling-3.0-tiny configuration"): 24 layers of
// 1536 in groups of 4 (layer_group_size), Kimi Delta Attention on the first three of each group (16
// heads of 128, 4-tap convolutions, no_kda_lora, lower bound -5) and MLA on the fourth (q_lora 256,
// kv_lora 512, nope 128 + rope 64, v 128, a head-wise gate); the first layer a dense MLP of 4608,
// then 128 experts of 512, 8 a token, one shared of 512, a router bias; vocabulary 157184, untied.
Json ling3_config() {
  return {{"architectures", {"BailingMoeV3ForCausalLM"}},
          {"model_type", "bailing_hybrid"},
          {"hidden_size", 1536},
          {"intermediate_size", 4608},
          {"num_hidden_layers", 24},
          {"num_attention_heads", 16},
          {"num_key_value_heads", 16},
          {"head_dim", 128},
          {"vocab_size", 157184},
          {"max_position_embeddings", 131072},
          {"rms_norm_eps", 1e-6},
          {"rope_theta", 6000000},
          {"tie_word_embeddings", false},
          {"layer_group_size", 4},
          {"short_conv_kernel_size", 4},
          {"no_kda_lora", true},
          {"kda_safe_gate", true},
          {"kda_lower_bound", -5},
          {"gated_attention_proj_granularity_type", "head_wise"},
          {"qk_head_dim", 192},
          {"qk_nope_head_dim", 128},
          {"qk_rope_head_dim", 64},
          {"v_head_dim", 128},
          {"q_lora_rank", 256},
          {"kv_lora_rank", 512},
          {"rope_interleave", true},
          {"use_qk_norm", true},
          {"first_k_dense_replace", 1},
          {"num_experts", 128},
          {"num_experts_per_tok", 8},
          {"num_shared_experts", 1},
          {"moe_intermediate_size", 512},
          {"moe_shared_expert_intermediate_size", 512},
          {"n_group", 8},
          {"topk_group", 4},
          {"norm_topk_prob", true},
          {"routed_scaling_factor", 2.5},
          {"moe_router_enable_expert_bias", true}};
}

// As conversion/bailingmoe3.py (at 80fb11ac) writes it: head_count_kv 1 on
// the MLA layers and 0 on the KDA ones, the KDA keys, MLA as one KV head of
// kv_lora + rope (key_length) with the per-head widths in *_mla, the experts'
// keys; base.py's value_length (head_dim) left as it is. A few tensors stand
// for the rest.
test::GgufWriter ling3_gguf() {
  std::vector<std::uint32_t> kv;
  for (int i = 0; i < 24; ++i) {
    kv.push_back((i + 1) % 4 == 0 ? 1 : 0);
  }
  test::GgufWriter w;
  w.str("general.architecture", "bailingmoe3");
  w.u32("bailingmoe3.block_count", 24);
  w.u32("bailingmoe3.context_length", 131072);
  w.u32("bailingmoe3.embedding_length", 1536);
  w.u32("bailingmoe3.feed_forward_length", 4608);
  w.u32("bailingmoe3.attention.head_count", 16);
  w.u32_array("bailingmoe3.attention.head_count_kv", kv);
  w.f32("bailingmoe3.rope.freq_base", 6e6F);
  w.f32("bailingmoe3.attention.layer_norm_rms_epsilon", 1e-6F);
  w.u32("bailingmoe3.expert_count", 128);
  w.u32("bailingmoe3.expert_used_count", 8);
  w.u32("bailingmoe3.expert_group_count", 8);
  w.u32("bailingmoe3.expert_group_used_count", 4);
  w.u32("bailingmoe3.vocab_size", 157184);
  w.u32("bailingmoe3.ssm.conv_kernel", 4);
  w.u32("bailingmoe3.kda.head_dim", 128);
  w.boolean("bailingmoe3.kda.safe_gate", true);
  w.f32("bailingmoe3.kda.gate_lower_bound", -5.0F);
  w.u32("bailingmoe3.attention.q_lora_rank", 256);
  w.u32("bailingmoe3.attention.kv_lora_rank", 512);
  w.u32("bailingmoe3.rope.dimension_count", 64);
  w.u32("bailingmoe3.attention.key_length", 576);
  w.u32("bailingmoe3.attention.value_length", 128);
  w.u32("bailingmoe3.attention.key_length_mla", 192);
  w.u32("bailingmoe3.attention.value_length_mla", 128);
  w.u32("bailingmoe3.expert_feed_forward_length", 512);
  w.u32("bailingmoe3.expert_shared_feed_forward_length", 512);
  w.u32("bailingmoe3.expert_shared_count", 1);
  w.u32("bailingmoe3.leading_dense_block_count", 1);
  w.f32("bailingmoe3.expert_weights_scale", 2.5F);
  w.boolean("bailingmoe3.expert_weights_norm", true);
  w.u32("bailingmoe3.expert_gating_func", 2);
  w.tensor("token_embd.weight", {1536, 157184}, test::kQ8_0);
  w.tensor("output.weight", {1536, 157184}, test::kQ8_0);
  w.tensor("blk.0.ssm_f_a.weight", {1536, 2048}, test::kQ8_0);
  w.tensor("blk.0.ssm_g_a.weight", {1536, 2048}, test::kQ8_0);
  w.tensor("blk.3.attn_gate.weight", {1536, 16}, test::kF32);
  w.tensor("blk.1.exp_probs_b.bias", {128}, test::kF32);
  return w;
}

TEST(Ling3, ConfigGivesKdaMlaLayersGatesAndExperts) {
  const Model m = read_config(ling3_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  const Architecture& a = m.arch;
  ASSERT_EQ(a.attention.kind, AttentionKind::Hybrid);
  EXPECT_EQ(a.attention.layer_mixers, "RRRARRRARRRARRRARRRARRRA");
  EXPECT_TRUE(a.attention.kda);
  EXPECT_TRUE(a.attention.kda_full_rank_gate);
  EXPECT_TRUE(a.attention.kda_full_rank_decay);
  EXPECT_TRUE(a.attention.mla_head_gate);
  EXPECT_FALSE(a.attention.mla_output_gate);
  ASSERT_TRUE(a.moe.has_value());
  EXPECT_EQ(a.moe->first_dense_layers, 1);
  EXPECT_EQ(a.moe->shared_experts, 1);
  EXPECT_TRUE(a.moe->selection_bias);
  // llama.cpp's hybrid memory (bailingmoe3.cpp build_inp_mem_hybrid_k): the
  // 6 MLA layers cache one K row of kv_lora + rope (576) values per token,
  // no V; the 18 KDA layers keep n_embd_r + n_embd_s F32 values
  // (llama-hparams.cpp: 3 x 3 x 16 x 128 of convolution inputs and 16
  // heads of 128 x 128).
  const std::int64_t ctx = 4096;
  const Estimate e = llama_estimate(m, ctx);
  const std::int64_t state = 18 * (3 * 3 * 2048 + 16 * 128 * 128) * 4;
  EXPECT_EQ(e.recurrent_state, state);
  EXPECT_EQ(e.memory.kv_cache - state, std::int64_t{6} * 576 * 2 * ctx);
  // Parameters by hand (bailingmoe3.cpp load_arch_tensors): a KDA layer's
  // q, k, v, three convolutions, f_a, beta, g_a and o; an MLA layer's q_a,
  // q_b, kv_a_mqa, k_b, v_b, the gate and o; the dense MLP, 23 MoE layers.
  const std::int64_t inner = 16 * 128;
  const std::int64_t kda = 3 * 1536LL * inner + 3 * inner * 4 + 1536LL * inner + 1536LL * 16 +
                           1536LL * inner + inner * 1536LL;
  const std::int64_t mla = 1536LL * 256 + 256LL * 16 * 192 + 1536LL * 576 +
                           512LL * 16 * (128 + 128) + 1536LL * 16 + 16LL * 128 * 1536;
  const std::int64_t expert = 3 * 1536LL * 512;
  const std::int64_t total = 18 * kda + 6 * mla + 3 * 1536LL * 4608 +
                             23 * (129 * expert + 1536LL * 128) + 2 * 157184LL * 1536;
  EXPECT_EQ(count_params(a).total(), total);
  // The card (Ling-3.0-tiny; llama.cpp bailingmoe3.cpp names it 7.9B-A1.3B):
  // 7.9B total, 1.3B activated.
  EXPECT_LT(off(static_cast<double>(total), 7.9e9), 0.01) << total;
  EXPECT_LT(off(static_cast<double>(count_params(a).active()), 1.3e9), 0.1)
      << count_params(a).active();
}

TEST(Ling3, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = read_header(ling3_gguf());
  const Model c = read_config(ling3_config());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_EQ(g.arch.attention.layer_mixers, c.arch.attention.layer_mixers);
  EXPECT_TRUE(g.arch.attention.kda_full_rank_decay);
  EXPECT_TRUE(g.arch.attention.mla_head_gate);
  EXPECT_FALSE(g.arch.attention.mla_output_gate);
  EXPECT_EQ(g.arch.attention.q_lora_rank, 256);
  EXPECT_EQ(g.arch.attention.recurrent_params, c.arch.attention.recurrent_params);
  expect_same_text_model(g, c, "bailingmoe3 GGUF vs config");
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
}

TEST(Ling3, CatalogueGivesWhatTheConfigGives) {
  const Model c = read_config(ling3_config());
  expect_catalogue_agrees("ling-3.0-tiny", c);
  EXPECT_EQ(count_params(catalogue("ling-3.0-tiny").arch).total(), count_params(c.arch).total());
}

// ---- Qwen3.8-Flash-Next (qwen4_exp / qwen4exp) ------------------------------
//
// The text_config of Qwen/Qwen3.8-Flash-Next (the Hugging Face hub is not
// reachable here; public ports pin it value by value: the MTPLX test
// fixture of config.json at hub revision f5d08274,
// a public pytest file of a Qwen3.8-Flash-Next spec ('assert spec.router_bytes == 128_450_560',
// quant_model OpensourceWTF/Qwen3.8-Flash-Next-MTPLX-Q4), and a pinned-scalar table giving
// ple_embed_dim 2560 and ple_conv_kernel_size 4, a public Python module of pinned config fields for
// a Qwen4 experiment ('config is missing pinned field', _RUNTIME_EXPORTS with Qwen4GatedDeltaNet);
// tie_word_embeddings false and the vision tower's depth 27, width 1152, MLP 4304 from a checkpoint
// check, a public Python Gemma 4 checkpoint converter (its --mtp-expert-format option, 'quantize
// the BF16 MTP drafter experts to NVFP4')): 48 layers of 2560, gated delta nets (16 key and 48
// value heads of 128, 4 taps) on three layers of four, full attention with QSA (24 heads, 2 KV
// heads of 256; an indexer of 4 heads of 128 pooled over blocks of 4, budget 2048) on every fourth;
// 4 hyper-connection streams through a gate of rank 320; 512 experts of 640 (10 a token) and a
// shared one of 640 on every layer; the n-gram table (3-grams, 8 heads a gram,
// ngram_vocab_size_base 20000000 rounded to 128) read on layer 2 (1-based); one MTP layer;
// vocabulary 248320.
Json qwen38_text() {
  Json types = Json::array();
  for (int i = 0; i < 48; ++i) {
    types.push_back(i % 4 == 3 ? "full_attention" : "linear_attention");
  }
  return {{"model_type", "qwen4_exp_text"},
          {"hidden_size", 2560},
          {"num_hidden_layers", 48},
          {"layer_types", types},
          {"full_attention_interval", 4},
          {"ple_layer_ids", {2}},
          {"num_experts", 512},
          {"num_experts_per_tok", 10},
          {"moe_intermediate_size", 640},
          {"shared_expert_intermediate_size", 640},
          {"hc_count", 4},
          {"hc_lowrank", 320},
          {"linear_num_key_heads", 16},
          {"linear_num_value_heads", 48},
          {"linear_key_head_dim", 128},
          {"linear_value_head_dim", 128},
          {"linear_conv_kernel_dim", 4},
          {"num_attention_heads", 24},
          {"num_key_value_heads", 2},
          {"head_dim", 256},
          {"indexer_n_heads", 4},
          {"indexer_kv_heads", 1},
          {"indexer_head_dim", 128},
          {"indexer_budget", 2048},
          {"indexer_compress_ratio", 4},
          {"ple_embed_dim", 2560},
          {"ple_conv_kernel_size", 4},
          {"ngram_size", 3},
          {"heads_per_ngram", 8},
          {"ngram_vocab_size_base", 20000000},
          {"make_ngram_vocab_size_divisible_by", 128},
          {"split_ngram_parts", 128},
          {"mtp_num_hidden_layers", 1},
          {"vocab_size", 248320},
          {"eos_token_id", 248044},
          {"max_position_embeddings", 262144},
          {"tie_word_embeddings", false},
          {"rope_parameters",
           {{"mrope_interleaved", true},
            {"mrope_section", {11, 11, 10}},
            {"partial_rotary_factor", 0.25},
            {"rope_theta", 10000000},
            {"rope_type", "default"}}}};
}

Json qwen38() {
  return {{"model_type", "qwen4_exp"},
          {"architectures", {"Qwen4ExpForConditionalGeneration"}},
          {"tie_word_embeddings", false},
          {"text_config", qwen38_text()},
          {"vision_config",
           {{"depth", 27},
            {"hidden_size", 1152},
            {"intermediate_size", 4304},
            {"num_heads", 16},
            {"out_hidden_size", 2560}}}};
}

// The n-gram heads' rows as conversion/qwen4exp.py copies them from the
// checkpoint (ngram_heads_vocab_sizes): head k has as many as the k-th prime
// from ngram_vocab_size_base, the heads one after another.
std::vector<std::uint64_t> qwen38_ngram_sizes() {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t v = 20000000; sizes.size() < 16; ++v) {
    bool prime = true;
    for (std::uint64_t d = 2; prime && d * d <= v; ++d) {
      prime = v % d != 0;
    }
    if (prime) {
      sizes.push_back(v);
    }
  }
  return sizes;
}

// As conversion/qwen4exp.py (over the Qwen3.5 MoE writer) writes it: the
// Qwen3.5 keys (the delta net in ssm.*, full_attention_interval, M-RoPE
// sections, experts and the shared expert's width), the hyper-connection
// count and rank, the indexer's keys, compress_ratios (the ratio on the
// full-attention layers, 0 elsewhere), the ple.* keys (layers 0-based, the
// head ranges as u64) and the table's row width; no MTP block. The n-gram
// table is padded to 128 rows (320,001,536: the published row count, a public Python Gemma 4
// checkpoint converter (its --mtp-expert-format option, 'quantize the BF16 MTP drafter experts to
// NVFP4')). A few tensors stand for the rest.
test::GgufWriter qwen38_gguf(const std::vector<std::uint32_t>& expert_widths = {}) {
  const std::string a = "qwen4exp.";
  test::GgufWriter w;
  w.str("general.architecture", "qwen4exp");
  w.u32(a + "block_count", 48);
  w.u32(a + "context_length", 262144);
  w.u32(a + "embedding_length", 2560);
  w.u32(a + "attention.head_count", 24);
  w.u32(a + "attention.head_count_kv", 2);
  w.u32(a + "attention.key_length", 256);
  w.u32(a + "attention.value_length", 256);
  w.u32(a + "rope.dimension_count", 64);
  w.u32_array(a + "rope.dimension_sections", {11, 11, 10, 0});
  w.u32(a + "expert_count", 512);
  w.u32(a + "expert_used_count", 10);
  if (expert_widths.empty()) {
    w.u32(a + "expert_feed_forward_length", 640);
  } else {  // load_arch_hparams reads it per layer too (get_key_or_arr)
    w.u32_array(a + "expert_feed_forward_length", expert_widths);
  }
  w.u32(a + "expert_shared_feed_forward_length", 640);
  w.u32(a + "ssm.conv_kernel", 4);
  w.u32(a + "ssm.state_size", 128);
  w.u32(a + "ssm.group_count", 16);
  w.u32(a + "ssm.time_step_rank", 48);
  w.u32(a + "ssm.inner_size", 6144);
  w.u32(a + "full_attention_interval", 4);
  w.u32(a + "hyper_connection.count", 4);
  w.u32(a + "hyper_connection.low_rank", 320);
  w.u32(a + "attention.indexer.head_count", 4);
  w.u32(a + "attention.indexer.key_length", 128);
  w.u32(a + "attention.indexer.top_k", 2048);
  std::vector<std::uint32_t> ratios;
  for (int i = 0; i < 48; ++i) {
    ratios.push_back(i % 4 == 3 ? 4 : 0);
  }
  w.u32_array(a + "attention.compress_ratios", ratios);
  const std::vector<std::uint64_t> sizes = qwen38_ngram_sizes();
  std::vector<std::uint64_t> offsets;
  std::uint64_t offset = 0;
  for (const std::uint64_t n : sizes) {
    offsets.push_back(offset);
    offset += n;
  }
  w.u32_array(a + "ple.layers", {1});
  w.u32(a + "ple.ngram_size", 3);
  w.u32(a + "ple.heads_per_ngram", 8);
  w.u32(a + "ple.conv_kernel", 4);
  w.u32(a + "ple.eos_token_id", 248044);
  w.u32(a + "embedding_length_per_layer_input", 160);
  w.u64_array(a + "ple.layer_multipliers", {3, 5, 7});
  w.u64_array(a + "ple.head_offsets", offsets);
  w.u64_array(a + "ple.head_vocab_sizes", sizes);
  w.u32(a + "vocab_size", 248320);
  w.tensor("token_embd.weight", {2560, 256}, test::kQ8_0);
  w.tensor("output.weight", {2560, 256}, test::kQ8_0);
  w.tensor("per_layer_token_embd.weight", {160, 320001536}, test::kQ8_0);
  return w;
}

TEST(Qwen4Exp, ConfigGivesEveryLayerKindAndTheCardsTotal) {
  const Model m = read_config(qwen38());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  const Architecture& a = m.arch;
  ASSERT_EQ(a.attention.kind, AttentionKind::Hybrid);
  EXPECT_EQ(attention_layer_count(a), 12);
  EXPECT_EQ(recurrent_layer_count(a), 36);
  EXPECT_EQ(indexer_layer_count(a), 12);
  EXPECT_TRUE(a.attention.gated_attention);
  EXPECT_EQ(a.attention.delta_net_v_heads, 48);
  EXPECT_EQ(a.hyper_connections, 4);
  EXPECT_EQ(a.hc_low_rank, 320);
  EXPECT_EQ(a.attention.index_block, 4);
  EXPECT_EQ(a.ngram_layer, 1);
  EXPECT_EQ(a.ngram_heads, 16);
  EXPECT_EQ(a.ngram_width, 160);
  EXPECT_EQ(
      a.ngram_rows,
      320001536);  // the published table (a public Python Gemma 4 checkpoint converter (its
                   // --mtp-expert-format option, 'quantize the BF16 MTP drafter experts to NVFP4'))
  EXPECT_EQ(a.mtp_layers, 0);  // the converter drops it
  ASSERT_TRUE(a.moe.has_value());
  EXPECT_EQ(a.moe->shared_experts, 1);
  // Per term, from qwen4exp.cpp load_arch_tensors: the gated residual twice
  // a layer (down and up of 4 x 2560 by 320, inject 4 x 2560 by 4), and the
  // n-gram layer's key, value and taps.
  EXPECT_EQ(hyper_connection_params_per_layer(a), 2 * (2 * 10240LL * 320 + 10240LL * 4));
  EXPECT_EQ(ngram_layer_params(a), 2560LL * 10240 + 2560LL * 2560 + 10240LL * 4);
  EXPECT_EQ(gqa_indexer_params(a), 2560LL * (4 * 128 + 128));
  // The BF16 checkpoint holds 359,999,963,128 bytes (its safetensors index,
  // as a public port's source register quotes it, a public Markdown benchmark protocol of the
  // Hebrus runtime (Gemma 4 PLE page cache and expert cache; 'Record: Hebrus commit and dirty
  // state')): 179,999,981,564 values, with the vision tower and the MTP block the converter leaves
  // out. The count here, the tower and that block within 1 %.
  Architecture with_mtp = a;
  with_mtp.mtp_layers = 1;
  EXPECT_LT(off(static_cast<double>(count_params(with_mtp).total()), 179999981564.0), 0.01);
  // "125B main model plus 51B PLE table" (the hub's metadata, same source).
  const ParamBreakdown p = count_params(a);
  const double table = 320001536.0 * 160.0;
  EXPECT_LT(off(static_cast<double>(p.total() - p.vision) - table, 125e9), 0.01);
  EXPECT_LT(off(table, 51e9), 0.01);
}

TEST(Qwen4Exp, CachesAsLlamaCppAllocatesThem) {
  const Model m = read_config(qwen38());
  const Architecture& a = m.arch;
  const std::int64_t ctx = 8192;
  // llama-memory-hybrid-idx.h: K and V of 2 heads of 256 on the 12
  // attention layers; the indexer cache on the same layers, one head: a key
  // of 128 and, not being MLA, a V row of the head width (256) beside it;
  // the recurrent rows (F32, per sequence): each delta net's convolution
  // (3 x (2 x 16 x 128 + 48 x 128)) and state (48 x 128 x 128), and the
  // n-gram layer's convolution history ((4 - 1) x 3 x 4 x 2560,
  // llama-hparams.cpp ple_conv_state) in a row of its own.
  const std::int64_t state = 36 * (3LL * 10240 + 48LL * 128 * 128) + 3LL * 3 * 10240;
  EXPECT_EQ(kv_cache_bytes(a, {ctx, 1, 512, kv_f16(), kv_f16(), 256, true}),
            (12 * 2LL * 2 * 256 + 12 * (128LL + 256)) * 2 * ctx + 4 * state);
  EXPECT_EQ(recurrent_state_bytes(a, 2), 2 * 4 * state);
}

// The header alone, the file's size claimed: the n-gram table's 54 GB are
// never read.
Model read_header_only(const test::GgufWriter& w) {
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

TEST(Qwen4Exp, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = read_header_only(qwen38_gguf());
  const Model c = read_config(qwen38());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_EQ(g.arch.ngram_rows, 320001536);
  EXPECT_EQ(g.arch.ngram_layer, 1);
  EXPECT_EQ(g.arch.per_layer_width, 0);  // not Gemma 3n's per-layer inputs
  EXPECT_EQ(g.arch.attention.index_block, 4);
  EXPECT_EQ(g.arch.attention.layer_mixers, c.arch.attention.layer_mixers);
  expect_same_text_model(g, c, "qwen4exp GGUF vs config");
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total() - c.arch.vision_params);
}

TEST(Qwen4Exp, CatalogueGivesWhatTheConfigGives) {
  const Model c = read_config(qwen38());
  expect_catalogue_agrees("qwen3.8-flash-next", c);
  const Model cat = catalogue("qwen3.8-flash-next");
  EXPECT_EQ(count_params(cat.arch).total(), count_params(c.arch).total());
}

// Experts of a width per layer (qwen4exp.cpp: get_key_or_arr of
// expert_feed_forward_length): sized at the widest, which can only overstate.
TEST(Qwen4Exp, PerLayerExpertWidthsAreReadAtTheWidest) {
  std::vector<std::uint32_t> widths(48, 640);
  widths[10] = 768;
  const Model g = read_header_only(qwen38_gguf(widths));
  ASSERT_TRUE(g.arch.moe.has_value());
  EXPECT_EQ(g.arch.moe->expert_intermediate_size, 768);
  EXPECT_EQ(g.arch.moe->shared_experts, 1);  // 640 in routed widths of 768
}

// ---- Laguna (poolside; laguna) ----------------------------------------------
//
// poolside/Laguna-XS.2's config.json as SGLang transcribes it: the defaults of
// its LagunaConfig, "Laguna (poolside/Laguna-XS.2) model configuration"
// (sgl-project/sglang python/sglang/srt/configs/laguna.py at 229891f5): 40
// layers of 2048, a dense MLP of 8192, 8 KV heads of 128, a 512-token window,
// layer_types full attention where i % 4 == 0, mlp_layer_types one "dense"
// then "sparse", 256 experts of 512 (8 a token) and one shared of 512,
// vocabulary 100352, untied. The per-layer
// query heads, 48 on the full layers and 64 on the windowed ones, and the
// per-head softplus gate: SGLang's PR #24204 and llama.cpp's laguna.cpp
// ("48 vs 64 in XS.2"); gating the legacy boolean true (llama.cpp
// conversion/laguna.py: "the legacy boolean True == per-head, as in
// Laguna-XS.2"); moe_routed_scaling_factor 2.5 (llama.cpp PR #25595);
// max_position_embeddings 262144, the full layers' YaRN factor 64 over 4096
// (lablup/mlxcel issue #1347; SGLang's class default is 131072). The card's
// totals: 33.4 B, 3.0 B active (SGLang PR #24204's table).
Json laguna_xs2_config() {
  Json types = Json::array();
  Json mlp = Json::array();
  Json heads = Json::array();
  for (int i = 0; i < 40; ++i) {
    types.push_back(i % 4 == 0 ? "full_attention" : "sliding_attention");
    mlp.push_back(i == 0 ? "dense" : "sparse");
    heads.push_back(i % 4 == 0 ? 48 : 64);
  }
  return {{"model_type", "laguna"},
          {"architectures", {"LagunaForCausalLM"}},
          {"vocab_size", 100352},
          {"hidden_size", 2048},
          {"intermediate_size", 8192},
          {"num_hidden_layers", 40},
          {"num_attention_heads", 48},
          {"num_attention_heads_per_layer", heads},
          {"num_key_value_heads", 8},
          {"head_dim", 128},
          {"max_position_embeddings", 262144},
          {"rms_norm_eps", 1e-6},
          {"tie_word_embeddings", false},
          {"sliding_window", 512},
          {"layer_types", types},
          {"mlp_layer_types", mlp},
          {"num_experts", 256},
          {"num_experts_per_tok", 8},
          {"moe_intermediate_size", 512},
          {"shared_expert_intermediate_size", 512},
          {"moe_routed_scaling_factor", 2.5},
          {"gating", true}};
}

// As conversion/laguna.py (LagunaModel.set_gguf_parameters at 80fb11ac)
// writes it for a config of laguna_xs2_config's shape: head_count one per
// layer, head_count_kv and key/value lengths from the base converter, the
// window when sliding_window > 0 (no pattern), the experts' keys,
// leading_dense_block_count from mlp_layer_types. The first two layers'
// gates (g_proj: heads wide per head, heads x head_dim per element) and a
// router bias stand for the tensors.
test::GgufWriter laguna_gguf(const Json& c) {
  const auto u = [&c](const char* name) { return c.at(name).get<std::uint32_t>(); };
  // num_attention_heads on every layer where the config lists none (M.1)
  std::vector<std::uint32_t> heads(u("num_hidden_layers"), u("num_attention_heads"));
  if (c.contains("num_attention_heads_per_layer")) {
    heads.clear();
    for (const auto& h : c.at("num_attention_heads_per_layer")) {
      heads.push_back(h.get<std::uint32_t>());
    }
  }
  const bool windowed = c.value("sliding_window", 0) > 0;
  std::uint32_t dense = 0;
  while (c.at("mlp_layer_types").at(dense) == "dense") {
    ++dense;
  }
  test::GgufWriter w;
  w.str("general.architecture", "laguna");
  w.u32("laguna.block_count", u("num_hidden_layers"));
  w.u32("laguna.context_length", u("max_position_embeddings"));
  w.u32("laguna.embedding_length", u("hidden_size"));
  w.u32("laguna.feed_forward_length", u("intermediate_size"));
  w.u32_array("laguna.attention.head_count", heads);
  w.u32("laguna.attention.head_count_kv", u("num_key_value_heads"));
  w.u32("laguna.attention.key_length", u("head_dim"));
  w.u32("laguna.attention.value_length", u("head_dim"));
  w.u32("laguna.vocab_size", u("vocab_size"));
  if (windowed) {
    w.u32("laguna.attention.sliding_window", u("sliding_window"));
  }
  w.u32("laguna.expert_count", u("num_experts"));
  w.u32("laguna.expert_used_count", u("num_experts_per_tok"));
  w.u32("laguna.expert_feed_forward_length", u("moe_intermediate_size"));
  w.u32("laguna.expert_shared_feed_forward_length", u("shared_expert_intermediate_size"));
  w.boolean("laguna.expert_weights_norm", true);
  w.f32("laguna.expert_weights_scale", 2.5F);
  w.u32("laguna.expert_gating_func", 2);  // sigmoid
  w.u32("laguna.leading_dense_block_count", dense);
  w.u32("laguna.rope.dimension_count", u("head_dim") / 2);
  if (windowed) {
    w.u32("laguna.rope.dimension_count_swa", u("head_dim"));
  }
  const bool per_element = c.at("gating").is_string() && c.at("gating") == "per-element";
  w.tensor("token_embd.weight", {u("hidden_size"), u("vocab_size")}, test::kQ8_0);
  w.tensor("output.weight", {u("hidden_size"), u("vocab_size")}, test::kQ8_0);
  for (std::uint32_t i = 0; i < 2; ++i) {
    w.tensor("blk." + std::to_string(i) + ".attn_gate.weight",
             {u("hidden_size"), heads[i] * (per_element ? u("head_dim") : 1)}, test::kF16);
  }
  w.tensor("blk." + std::to_string(dense) + ".exp_probs_b.bias", {u("num_experts")}, test::kF32);
  return w;
}

TEST(Laguna, XsConfigGivesPerLayerHeadsTheGateAndTheExperts) {
  const Model m = read_config(laguna_xs2_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  const Architecture& a = m.arch;
  ASSERT_EQ(a.attention.kind, AttentionKind::Sliding);
  EXPECT_EQ(a.attention.sliding_window, 512);
  EXPECT_EQ(a.heads, 64);
  EXPECT_EQ(a.attention.global_heads, 48);
  EXPECT_EQ(a.kv_heads, 8);
  EXPECT_TRUE(a.attention.head_gate);
  EXPECT_FALSE(a.attention.output_gate);
  EXPECT_TRUE(a.attention.softplus_gate);
  ASSERT_TRUE(a.moe.has_value());
  EXPECT_EQ(a.moe->first_dense_layers, 1);
  EXPECT_EQ(a.moe->shared_experts, 1);
  EXPECT_TRUE(a.moe->selection_bias);
  // laguna.cpp set_swa_pattern(4, dense_first): full on 0, 4, ..., 36.
  EXPECT_TRUE(is_global_layer(a, 0));
  EXPECT_FALSE(is_global_layer(a, 1));
  EXPECT_FALSE(is_global_layer(a, 3));
  EXPECT_TRUE(is_global_layer(a, 36));
  EXPECT_FALSE(is_global_layer(a, 39));
  EXPECT_EQ(global_layer_count(a, a.layers), 10);
  // llama.cpp's ISWA cache: 10 layers of the whole context, 30 of window +
  // micro-batch (512 + 512) cells, K and V of 8 x 128 in every layer.
  const std::int64_t ctx = 8192;
  EXPECT_EQ(kv_cache_bytes(a, {ctx, 1, 512, kv_f16(), kv_f16(), 256}),
            (10 * ctx + 30 * std::int64_t{1024}) * 2 * 8 * 128 * 2);
  // Parameters by hand (laguna.cpp load_arch_tensors): q, k, v, o and the
  // per-head gate at each layer's heads, the dense MLP of layer 0, 39 MoE
  // layers of 256 experts, the shared one and the router, embeddings and
  // the untied head.
  const std::int64_t windowed = 2048LL * 64 * 128 * 2 + 2 * 2048LL * 8 * 128 + 2048LL * 64;
  const std::int64_t global = 2048LL * 48 * 128 * 2 + 2 * 2048LL * 8 * 128 + 2048LL * 48;
  const std::int64_t expert = 3 * 2048LL * 512;
  const std::int64_t total = 30 * windowed + 10 * global + 3 * 2048LL * 8192 +
                             39 * (256 * expert + expert + 2048LL * 256) + 2 * 100352LL * 2048;
  EXPECT_EQ(count_params(a).total(), total);
  EXPECT_LT(off(static_cast<double>(total), 33.4e9), 0.01);  // the card's 33.4 B
}

TEST(Laguna, XsGgufHeaderGivesWhatTheConfigGives) {
  const Json c = laguna_xs2_config();
  const Model g = read_header(laguna_gguf(c));
  const Model m = read_config(c);
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_EQ(g.arch.layers, 40);
  EXPECT_EQ(g.arch.heads, 64);
  EXPECT_EQ(g.arch.attention.global_heads, 48);
  EXPECT_TRUE(g.arch.attention.global_first);
  EXPECT_EQ(g.arch.attention.sliding_pattern, 4);
  EXPECT_TRUE(g.arch.attention.head_gate);
  EXPECT_FALSE(g.arch.attention.output_gate);
  EXPECT_TRUE(g.arch.attention.softplus_gate);
  ASSERT_TRUE(g.arch.moe.has_value());
  EXPECT_EQ(g.arch.moe->shared_experts, 1);
  EXPECT_EQ(g.arch.moe->first_dense_layers, 1);
  EXPECT_TRUE(g.arch.moe->selection_bias);
  expect_same_text_model(g, m, "laguna GGUF vs config");
  EXPECT_EQ(count_params(g.arch).total(), count_params(m.arch).total());
}

TEST(Laguna, CatalogueGivesWhatTheConfigGives) {
  const Model c = read_config(laguna_xs2_config());
  expect_catalogue_agrees("laguna-xs.2", c);
  EXPECT_EQ(count_params(catalogue("laguna-xs.2").arch).total(), count_params(c.arch).total());
}

// Laguna's graph differs from Step-3.5's, whose layer kinds and head-wise
// gate it shares, in where the output rows are picked: inside the last layer
// (laguna.cpp, as afmoe.cpp) rather than after it (step35.cpp). The same
// shape read as Step-3.5's gives another compute buffer.
TEST(Laguna, PicksTheOutputRowsInsideTheLastLayer) {
  const Model m = read_config(laguna_xs2_config());
  Model as_step35 = m;
  as_step35.arch.attention.softplus_gate = false;
  EXPECT_NE(llama_estimate(m, 4096).memory.compute, llama_estimate(as_step35, 4096).memory.compute);
}

// poolside/Laguna-M.1 and Laguna-S-2.1 as a public engine's tests quote
// their config.json ("Subset of the real `ox-ox/Laguna-M.1-MLX-Q3`
// config.json", an MLX conversion of poolside's; "Subset of the real
// `poolside/Laguna-S-2.1` config.json"; a public Rust MLX port of Laguna (test
// laguna_router_applies_routed_scaling_factor, LagunaRouter with routed_scaling_factor 2.5)). M.1:
// 70 layers of 4096, no window, 64 heads and 8 KV heads of 128 on every layer, the gate per
// element, the first 3 layers a dense MLP of 16384, then 256 experts of 1024 (16 a token) and one
// shared of 1024, vocabulary 100352, untied; the transcription leaves max_position_embeddings out:
// 131072 is its YaRN factor 32 x original 4096 and OpenRouter's listed
// context for poolside/laguna-m.1 (a public Markdown model roster of a Hermes agent setup
// ('Downstream tooling (agent-run.sh) reads hermes_model_hint.alias',
// hermes-roster-model-sync/scripts/sync.py)). The card's totals: 225 B, 23 B active
// (ml-explore/mlx-lm PR #1415).
Json laguna_m1_config() {
  Json mlp = Json::array();
  for (int i = 0; i < 70; ++i) {
    mlp.push_back(i < 3 ? "dense" : "sparse");
  }
  return {{"model_type", "laguna"},
          {"hidden_size", 4096},
          {"intermediate_size", 16384},
          {"num_hidden_layers", 70},
          {"num_attention_heads", 64},
          {"num_key_value_heads", 8},
          {"head_dim", 128},
          {"vocab_size", 100352},
          {"rms_norm_eps", 1e-6},
          {"tie_word_embeddings", false},
          {"gating", "per-element"},
          {"num_experts", 256},
          {"num_experts_per_tok", 16},
          {"moe_intermediate_size", 1024},
          {"shared_expert_intermediate_size", 1024},
          {"moe_routed_scaling_factor", 1.0},
          {"mlp_layer_types", mlp},
          {"max_position_embeddings", 131072}};
}

// S-2.1: 48 layers of 3072, 12 full-attention layers (layer 0 and every 4th)
// of 48 heads and 36 windowed ones (512 tokens) of 72, 8 KV heads of 128, the
// gate per head, one dense layer of 12288, then 256 experts of 1024 (10 a
// token) and one shared of 1024, vocabulary 100352, untied; 1,048,576
// positions: the card's "native 1M-token context window" (a public Markdown blog post on Laguna S
// for browser agents ('22 no-tool outputs are too many for a default action router', tags #Poolside
// #LagunaS) quotes it), its YaRN factor 128 x original 8192. The card's totals: 118 B, about 8 B
// active (the same page; mlx-lm PR #1602).
Json laguna_s21_config() {
  Json types = Json::array();
  Json heads = Json::array();
  Json mlp = Json::array();
  for (int i = 0; i < 48; ++i) {
    types.push_back(i % 4 == 0 ? "full_attention" : "sliding_attention");
    heads.push_back(i % 4 == 0 ? 48 : 72);
    mlp.push_back(i == 0 ? "dense" : "sparse");
  }
  return {{"model_type", "laguna"},
          {"hidden_size", 3072},
          {"intermediate_size", 12288},
          {"num_hidden_layers", 48},
          {"num_attention_heads", 48},
          {"num_key_value_heads", 8},
          {"head_dim", 128},
          {"vocab_size", 100352},
          {"tie_word_embeddings", false},
          {"gating", "per-head"},
          {"gating_types", std::vector<std::string>(48, "per_head")},
          {"sliding_window", 512},
          {"layer_types", types},
          {"num_attention_heads_per_layer", heads},
          {"num_experts", 256},
          {"num_experts_per_tok", 10},
          {"moe_intermediate_size", 1024},
          {"shared_expert_intermediate_size", 1024},
          {"moe_routed_scaling_factor", 2.5},
          {"mlp_layer_types", mlp},
          {"max_position_embeddings", 1048576}};
}

TEST(Laguna, M1ConfigHasNoWindowAGatePerElementAndTheCardsTotal) {
  const Model m = read_config(laguna_m1_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  const Architecture& a = m.arch;
  EXPECT_EQ(a.attention.kind, AttentionKind::Full);
  EXPECT_EQ(a.heads, 64);
  EXPECT_TRUE(a.attention.output_gate);
  EXPECT_TRUE(a.attention.softplus_gate);
  ASSERT_TRUE(a.moe.has_value());
  EXPECT_EQ(a.moe->first_dense_layers, 3);
  EXPECT_EQ(a.moe->experts_per_token, 16);
  // One plain cache (laguna.cpp build_attn_inp_kv): 70 layers of the context.
  const std::int64_t ctx = 8192;
  EXPECT_EQ(kv_cache_bytes(a, {ctx, 1, 512, kv_f16(), kv_f16(), 256}), 70 * ctx * 2 * 8 * 128 * 2);
  // q, the gate and o of 64 x 128, k and v of 8 x 128, on 70 layers.
  const std::int64_t attention = 4096LL * 64 * 128 * 3 + 2 * 4096LL * 8 * 128;
  const std::int64_t expert = 3 * 4096LL * 1024;
  const std::int64_t total = 70 * attention + 3 * (3 * 4096LL * 16384) +
                             67 * (256 * expert + expert + 4096LL * 256) + 2 * 100352LL * 4096;
  EXPECT_EQ(count_params(a).total(), total);
  EXPECT_LT(off(static_cast<double>(total), 225e9), 0.01);  // the card's 225 B
  const Model g = read_header(laguna_gguf(laguna_m1_config()));
  EXPECT_EQ(g.arch.attention.kind, AttentionKind::Full);
  EXPECT_TRUE(g.arch.attention.output_gate);
  expect_same_text_model(g, m, "laguna M.1 GGUF vs config");
  expect_catalogue_agrees("laguna-m.1", m);
}

TEST(Laguna, S21ConfigGivesItsOwnHeadsAndTheCardsTotal) {
  const Model m = read_config(laguna_s21_config());
  const Architecture& a = m.arch;
  ASSERT_EQ(a.attention.kind, AttentionKind::Sliding);
  EXPECT_EQ(a.heads, 72);
  EXPECT_EQ(a.attention.global_heads, 48);
  EXPECT_TRUE(a.attention.head_gate);
  EXPECT_EQ(global_layer_count(a, a.layers), 12);
  const std::int64_t ctx = 8192;
  EXPECT_EQ(kv_cache_bytes(a, {ctx, 1, 512, kv_f16(), kv_f16(), 256}),
            (12 * ctx + 36 * std::int64_t{1024}) * 2 * 8 * 128 * 2);
  const std::int64_t windowed = 3072LL * 72 * 128 * 2 + 2 * 3072LL * 8 * 128 + 3072LL * 72;
  const std::int64_t global = 3072LL * 48 * 128 * 2 + 2 * 3072LL * 8 * 128 + 3072LL * 48;
  const std::int64_t expert = 3 * 3072LL * 1024;
  const std::int64_t total = 36 * windowed + 12 * global + 3 * 3072LL * 12288 +
                             47 * (256 * expert + expert + 3072LL * 256) + 2 * 100352LL * 3072;
  EXPECT_EQ(count_params(a).total(), total);
  EXPECT_LT(off(static_cast<double>(total), 118e9), 0.01);  // the card's 118 B
  const Model g = read_header(laguna_gguf(laguna_s21_config()));
  EXPECT_EQ(g.arch.attention.global_heads, 48);
  expect_same_text_model(g, m, "laguna S-2.1 GGUF vs config");
  expect_catalogue_agrees("laguna-s-2.1", m);
}

// ---- dots.llm3 (dots3_note / dots3note) -------------------------------------
//
// dots-studio/dots3-note-prev's config.json as transformers'
// Dots3NoteTextConfig holds it (huggingface/transformers
// src/transformers/models/dots3_note/configuration_dots3_note.py @37fce15b,
// whose docstrings name that checkpoint): 46 layers of 5120; MLA with
// q_lora 1024 everywhere; full layers (layer_types: 0, 1, then i % 4 == 1,
// 13 of them) of 128 heads, kv_lora 512, nope 128 + rope 64, v 128, with
// DeepSeek's indexer (64 heads of 128, top 2048); windowed layers (swa_*
// keys, 33) of 64 heads, kv_lora 1024, nope 192 + rope 64, v 128; 256
// experts of 1536 (8 a token, one shared) after one dense layer of 13824;
// vocabulary 152064, untied. The window: sliding_window_size 513, the
// released config.json's (two serving ports check it against the real
// bundle: lightseekorg/tokenspeed's dots3_note attention tests and a public
// MLX port's config, a public pytest file of a DeepSeek-style MLA/DSA kernel port
// (_isolated_imports of tokenspeed_kernel.ops.attention.mla.triton and dsa.triton); a public Python
// config class of a dots3_note port (model_type default 'dots3_note', bos_token_id 151643,
// vocab_size 152064)); one MTP block (conversion/dots3.py finds model.mtp.* in the weights; the MLX
// port reads it as layer 46).
Json dots3_note() {
  Json types = Json::array();
  for (int i = 0; i < 46; ++i) {
    types.push_back(i < 2 || i % 4 == 1 ? "full_attention" : "sliding_attention");
  }
  return {{"model_type", "dots3_note"},
          {"architectures", {"Dots3NoteForConditionalGeneration"}},
          {"hidden_size", 5120},
          {"intermediate_size", 13824},
          {"moe_intermediate_size", 1536},
          {"num_hidden_layers", 46},
          {"num_attention_heads", 128},
          {"num_key_value_heads", 128},
          {"head_dim", 256},
          {"q_lora_rank", 1024},
          {"kv_lora_rank", 512},
          {"qk_nope_head_dim", 128},
          {"qk_rope_head_dim", 64},
          {"v_head_dim", 128},
          {"swa_num_attention_heads", 64},
          {"swa_num_key_value_heads", 64},
          {"swa_q_lora_rank", 1024},
          {"swa_kv_lora_rank", 1024},
          {"swa_qk_nope_head_dim", 192},
          {"swa_qk_rope_head_dim", 64},
          {"swa_v_head_dim", 128},
          {"sliding_window_size", 513},
          {"layer_types", types},
          {"index_n_heads", 64},
          {"index_head_dim", 128},
          {"index_topk", 2048},
          {"n_routed_experts", 256},
          {"n_shared_experts", 1},
          {"num_experts_per_tok", 8},
          {"first_k_dense_replace", 1},
          {"norm_topk_prob", true},
          {"routed_scaling_factor", 1.0},
          {"scoring_func", "sigmoid"},
          {"topk_method", "noaux_tc"},
          {"attention_gate_type", "headwise"},
          {"num_nextn_predict_layers", 1},
          {"rms_norm_eps", 1e-5},
          {"max_position_embeddings", 524288},
          {"vocab_size", 152064},
          {"tie_word_embeddings", false}};
}

// As conversion/dots3.py (Dots3NoteModel.set_gguf_parameters over
// DeepseekV2Model's at 80fb11ac) writes it: block_count with the MTP
// block, head_count per layer (the MTP block windowed), MLA as one KV head
// of the full layers' latent, the windowed layers' widths in the *_swa
// keys, the window and its per-layer flags, the indexer with its
// per-layer flags; the embeddings, a gate and a router bias stand for the
// tensors.
test::GgufWriter dots3_gguf() {
  const Json c = dots3_note();
  std::vector<std::uint32_t> heads;
  std::vector<bool> swa;
  std::vector<bool> indexers;
  for (int i = 0; i < 47; ++i) {
    const bool windowed =
        i >= 46 || c["layer_types"][static_cast<std::size_t>(i)] != "full_attention";
    heads.push_back(windowed ? 64 : 128);
    if (i < 46) {
      swa.push_back(windowed);
      indexers.push_back(!windowed);
    }
  }
  test::GgufWriter w;
  w.str("general.architecture", "dots3note");
  w.u32("dots3note.block_count", 47);
  w.u32("dots3note.nextn_predict_layers", 1);
  w.u32("dots3note.context_length", 524288);
  w.u32("dots3note.embedding_length", 5120);
  w.u32("dots3note.feed_forward_length", 13824);
  w.u32_array("dots3note.attention.head_count", heads);
  w.u32("dots3note.attention.head_count_kv", 1);
  w.u32("dots3note.attention.key_length", 512 + 64);
  w.u32("dots3note.attention.value_length", 512);
  w.u32("dots3note.attention.key_length_mla", 128 + 64);
  w.u32("dots3note.attention.value_length_mla", 128);
  w.u32("dots3note.attention.q_lora_rank", 1024);
  w.u32("dots3note.attention.kv_lora_rank", 512);
  w.u32("dots3note.rope.dimension_count", 64);
  w.u32("dots3note.expert_count", 256);
  w.u32("dots3note.expert_used_count", 8);
  w.u32("dots3note.expert_shared_count", 1);
  w.u32("dots3note.expert_feed_forward_length", 1536);
  w.u32("dots3note.leading_dense_block_count", 1);
  w.u32("dots3note.vocab_size", 152064);
  w.u32("dots3note.attention.indexer.head_count", 64);
  w.u32("dots3note.attention.indexer.key_length", 128);
  w.u32("dots3note.attention.indexer.top_k", 2048);
  w.u32("dots3note.attention.sliding_window", 513);
  w.bool_array("dots3note.attention.sliding_window_pattern", swa);
  w.u32("dots3note.attention.kv_lora_rank_swa", 1024);
  w.u32("dots3note.attention.key_length_swa", 1024 + 64);
  w.u32("dots3note.attention.value_length_swa", 1024);
  w.u32("dots3note.attention.key_length_mla_swa", 192 + 64);
  w.u32("dots3note.attention.value_length_mla_swa", 128);
  w.bool_array("dots3note.attention.indexer.types", indexers);
  w.tensor("token_embd.weight", {5120, 152064}, test::kQ8_0);
  w.tensor("output.weight", {5120, 152064}, test::kQ8_0);
  w.tensor("blk.0.attn_gate.weight", {5120, 128}, test::kF16);
  w.tensor("blk.1.exp_probs_b.bias", {256}, test::kF32);
  return w;
}

TEST(Dots3Note, ConfigGivesBothMlaShapesTheIndexerAndTheExperts) {
  const Model m = read_config(dots3_note());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  const Architecture& a = m.arch;
  ASSERT_EQ(a.attention.kind, AttentionKind::Mla);
  EXPECT_EQ(a.attention.sliding_window, 513);
  EXPECT_EQ(windowed_mla_layer_count(a), 33);
  EXPECT_FALSE(windowed_mla_layer(a, 0));
  EXPECT_FALSE(windowed_mla_layer(a, 1));
  EXPECT_TRUE(windowed_mla_layer(a, 2));
  EXPECT_FALSE(windowed_mla_layer(a, 45));
  EXPECT_EQ(indexer_layer_count(a), 13);
  EXPECT_TRUE(a.attention.mla_head_gate);
  EXPECT_EQ(a.mtp_layers, 1);
  ASSERT_TRUE(a.moe.has_value());
  EXPECT_EQ(a.moe->first_dense_layers, 1);
  EXPECT_TRUE(a.moe->selection_bias);
  // Parameters by hand (dots3note.cpp load_arch_tensors; norms left out):
  // q_a, q_b, kv_a_mqa, k_b, v_b, wo and the gate (hidden x heads) of each
  // kind, the indexer's attn_q_b, attn_k and proj on the full layers.
  const std::int64_t e = 5120;
  const std::int64_t full = e * 1024 + 1024LL * 128 * 192 + e * 576 + 512LL * 128 * (128 + 128) +
                            128LL * 128 * e + e * 128 + (1024LL * 64 * 128 + e * 128 + e * 64);
  const std::int64_t windowed =
      e * 1024 + 1024LL * 64 * 256 + e * 1088 + 1024LL * 64 * (192 + 128) + 64LL * 128 * e + e * 64;
  const std::int64_t expert = 3 * e * 1536;
  const std::int64_t dense = 3 * e * 13824;
  const std::int64_t trunk =
      13 * full + 33 * windowed + dense + 45 * (256 * expert + expert + e * 256) + 2 * 152064LL * e;
  const ParamBreakdown p = count_params(a);
  EXPECT_EQ(p.total() - p.mtp, trunk);
  EXPECT_EQ(attention_params_per_layer(windowed_mla_shape(a)), windowed);
  // The MTP block: a windowed layer, a dense MLP, eh_proj and its own token
  // embedding (nextn.embed_tokens).
  EXPECT_EQ(p.mtp, windowed + dense + 2 * e * e + 152064LL * e);
  // The language model's "280B total / 16B active" (256 routed + 1 shared,
  // top 8, 45 MoE layers: JustVugg/colibri issue 1004, 2026-08-15); llama.cpp
  // names the whole checkpoint, towers included, 288B-A19B (llama-model.h
  // LLM_TYPE_288B_A19B). 16B is a rounded figure: the active count with the
  // embeddings rounds to it.
  EXPECT_LT(off(static_cast<double>(trunk), 280e9), 0.01) << trunk;
  EXPECT_NEAR(static_cast<double>(p.active()) / 1e9, 16.0, 0.5) << p.active();
  // llama.cpp (llama-kv-cache-dsa-iswa.cpp): the 13 full layers' latents
  // (512 + 64) and indexer keys (128) over the context, the 33 windowed
  // layers' latents (1024 + 64) over window + micro-batch cells padded to
  // 256 (513 + 512 -> 1280); all in the K type, f16.
  const std::int64_t ctx = 8192;
  EXPECT_EQ(kv_cache_bytes(a, {ctx, 1, 512, kv_f16(), kv_f16(), 256, true}),
            13 * std::int64_t{(576 + 128) * 2} * ctx + 33 * std::int64_t{1088 * 2} * 1280);
}

TEST(Dots3Note, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = read_header(dots3_gguf());
  const Model c = read_config(dots3_note());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_EQ(g.arch.layers, 46);
  EXPECT_EQ(g.arch.mtp_layers, 1);
  EXPECT_EQ(g.arch.heads, 128);
  EXPECT_EQ(g.arch.attention.swa_heads, 64);
  EXPECT_EQ(g.arch.attention.swa_kv_lora_rank, 1024);
  EXPECT_EQ(g.arch.attention.swa_qk_nope_head_dim, 192);
  EXPECT_EQ(g.arch.attention.swa_v_head_dim, 128);
  EXPECT_EQ(g.arch.attention.window_layers, c.arch.attention.window_layers);
  EXPECT_EQ(indexer_layer_count(g.arch), 13);
  EXPECT_TRUE(g.arch.attention.mla_head_gate);
  ASSERT_TRUE(g.arch.moe.has_value());
  EXPECT_TRUE(g.arch.moe->selection_bias);
  EXPECT_EQ(g.arch.moe->first_dense_layers, 1);
  expect_same_text_model(g, c, "dots3note GGUF vs config");
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
}

// A config without the swa_* keys (transformers re-saves the windowed shape
// in per_layer_config, not read) is not taken as known: its windowed layers
// would have the full layers' shape.
TEST(Dots3Note, WithoutTheWindowedShapeItWarns) {
  Json c = dots3_note();
  for (const char* k :
       {"swa_num_attention_heads", "swa_num_key_value_heads", "swa_q_lora_rank", "swa_kv_lora_rank",
        "swa_qk_nope_head_dim", "swa_qk_rope_head_dim", "swa_v_head_dim"}) {
    c.erase(k);
  }
  const Model m = read_config(c);
  EXPECT_FALSE(m.unchecked_architecture.empty());
  EXPECT_TRUE(read_config(dots3_note()).unchecked_architecture.empty());
}

TEST(Dots3Note, CatalogueGivesWhatTheConfigGives) {
  const Model c = read_config(dots3_note());
  expect_catalogue_agrees("dots3-note-prev", c);
  EXPECT_EQ(count_params(catalogue("dots3-note-prev").arch).total(), count_params(c.arch).total());
}

// The windowed layers' own shape in the weights: each one's tensors as
// dots3note.cpp creates them, the MTP block's those of a windowed layer.
TEST(Dots3Note, WeightsSizeEachLayerKindAtItsOwnShape) {
  const Model c = read_config(dots3_note());
  const Precision f16 = *parse_precision("f16");
  const WeightLayout w = weight_layout(c, f16);
  ASSERT_EQ(std::ssize(w.layers), 46);
  const std::int64_t e = 5120;
  // layer 2 (windowed, MoE) less layer 5 (full, MoE): the attention alone,
  // and the full layer's indexer, which the layout leaves out as it does
  // DeepSeek-V3.2's (docs/architectures.md).
  const std::int64_t full_attention =
      e * 1024 + 1024LL * 128 * 192 + e * 576 + 512LL * 128 * 256 + 128LL * 128 * e + e * 128;
  const std::int64_t windowed_attention =
      e * 1024 + 1024LL * 64 * 256 + e * 1088 + 1024LL * 64 * 320 + 64LL * 128 * e + e * 64;
  EXPECT_EQ(w.layers[5].bytes - w.layers[2].bytes,
            2 * (full_attention - windowed_attention) + 4 * (512 - 1024));
}

// The windowed cache follows llama.cpp's window + micro-batch cells, so a
// longer context grows only the full layers' latents and the indexer keys.
TEST(Dots3Note, OnlyTheFullLayersGrowWithTheContext) {
  const Model c = read_config(dots3_note());
  const auto kv = [&](std::int64_t ctx) {
    return kv_cache_bytes(c.arch, {ctx, 1, 512, kv_f16(), kv_f16(), 256, true});
  };
  EXPECT_EQ(kv(131072) - kv(65536), 13 * std::int64_t{(576 + 128) * 2} * 65536);
  // Below the window, every layer holds the context (min(cells, window)).
  EXPECT_EQ(kv(512), 13 * std::int64_t{(576 + 128) * 2} * 512 + 33 * std::int64_t{1088 * 2} * 512);
}

// ---- Cohere2 MoE (cohere2_moe / cohere2moe, Cohere2MoeForCausalLM) ---------
//
// CohereLabs/North-Mini-Code-1.0's config.json as a public port transcribes
// it to check a download against (a public Python MLX worker that loads a model and a draft model
// (close(): 'Release model ownership before the shared worker shuts down.'), an MLX port's
// inspect_artifact; the same shape in a C++ port's config test, a public C++ gtest file of an HF
// config loader (HFConfigLoader::load_config, a gemma4_text fixture,
// EXPECT_TRUE(cfg.rope_inv_freqs_global.empty())), and in mlx-lm PR #1487's description: 128
// experts, top 8, sigmoid router, no shared expert, first layer dense, tied embeddings): hidden
// 2048, 49 layers, 32 query heads and 4 KV heads of 128, experts of 768 (intermediate_size) and a
// dense layer of 3072 (prefix_dense_intermediate_size), window 4096 on every layer but 0, 4, 8,
// ..., 48 (layer_types), vocabulary 262144, 500000 positions, RMS norm.
// No lm_head in its weights (tie_word_embeddings unset: Cohere2MoeConfig's
// True) and no MTP tensors (the port refuses an artifact with them).
Json north_mini_code_config() {
  std::vector<std::string> kinds;
  for (int i = 0; i < 49; ++i) {
    kinds.emplace_back(i % 4 == 0 ? "full_attention" : "sliding_attention");
  }
  return {{"architectures", {"Cohere2MoeForCausalLM"}},
          {"model_type", "cohere2_moe"},
          {"hidden_size", 2048},
          {"head_dim", 128},
          {"num_hidden_layers", 49},
          {"intermediate_size", 768},
          {"prefix_dense_intermediate_size", 3072},
          {"num_attention_heads", 32},
          {"num_key_value_heads", 4},
          {"vocab_size", 262144},
          {"num_experts", 128},
          {"num_experts_per_tok", 8},
          {"num_shared_experts", 0},
          {"first_k_dense_replace", 1},
          {"expert_selection_fn", "sigmoid"},
          {"sliding_window", 4096},
          {"rope_theta", 50000},
          {"max_position_embeddings", 500000},
          {"use_parallel_block", true},
          {"use_qk_norm", false},
          {"norm_topk_prob", false},
          {"rms_norm_eps", 1e-6},
          {"layer_norm_eps", 1e-5},
          {"layer_types", kinds}};
}

// As conversion/command_r.py Cohere2MoeModel (at 80fb11ac) writes it:
// base.py's keys (feed_forward_length from prefix_dense_intermediate_size),
// logit_scale, the window and one sliding flag per layer from layer_types,
// the experts' width, the dense lead, expert_weights_norm from
// norm_topk_prob; no output.weight (tied).
test::GgufWriter north_mini_code_gguf() {
  test::GgufWriter w;
  w.str("general.architecture", "cohere2moe");
  w.u32("cohere2moe.block_count", 49);
  w.u32("cohere2moe.context_length", 500000);
  w.u32("cohere2moe.embedding_length", 2048);
  w.u32("cohere2moe.feed_forward_length", 3072);
  w.u32("cohere2moe.attention.head_count", 32);
  w.u32("cohere2moe.attention.head_count_kv", 4);
  w.u32("cohere2moe.attention.key_length", 128);
  w.u32("cohere2moe.attention.value_length", 128);
  w.f32("cohere2moe.rope.freq_base", 50000.0F);
  w.f32("cohere2moe.attention.layer_norm_rms_epsilon", 1e-6F);
  w.f32("cohere2moe.attention.layer_norm_epsilon", 1e-5F);
  w.u32("cohere2moe.expert_count", 128);
  w.u32("cohere2moe.expert_used_count", 8);
  w.f32("cohere2moe.logit_scale", 1.0F);
  w.u32("cohere2moe.attention.sliding_window", 4096);
  std::vector<bool> windowed;
  for (int i = 0; i < 49; ++i) {
    windowed.push_back(i % 4 != 0);
  }
  w.bool_array("cohere2moe.attention.sliding_window_pattern", windowed);
  w.u32("cohere2moe.vocab_size", 262144);
  w.u32("cohere2moe.expert_feed_forward_length", 768);
  w.u32("cohere2moe.leading_dense_block_count", 1);
  w.boolean("cohere2moe.expert_weights_norm", false);
  w.u32("cohere2moe.rope.dimension_count", 128);
  w.tensor("token_embd.weight", {2048, 262144}, test::kQ8_0);
  w.tensor("blk.0.ffn_gate.weight", {2048, 3072}, test::kQ8_0);
  w.tensor("blk.1.ffn_gate_inp.weight", {2048, 128}, test::kF32);
  w.tensor("blk.1.ffn_gate_exps.weight", {2048, 768, 128}, test::kQ8_0);
  return w;
}

TEST(Cohere2Moe, ConfigGivesTheDenseLeadLayerKindsAndParallelBlock) {
  const Model m = read_config(north_mini_code_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  const Architecture& a = m.arch;
  EXPECT_EQ(a.layers, 49);
  EXPECT_EQ(a.intermediate_size, 3072);
  EXPECT_TRUE(a.tied_embeddings);
  ASSERT_TRUE(a.moe.has_value());
  EXPECT_EQ(a.moe->expert_intermediate_size, 768);
  EXPECT_EQ(a.moe->experts, 128);
  EXPECT_EQ(a.moe->experts_per_token, 8);
  EXPECT_EQ(a.moe->shared_experts, 0);
  EXPECT_EQ(a.moe->first_dense_layers, 1);
  EXPECT_FALSE(a.moe->weights_normalized);  // norm_topk_prob false
  EXPECT_EQ(a.attention.kind, AttentionKind::Sliding);
  EXPECT_EQ(a.attention.sliding_window, 4096);
  EXPECT_EQ(global_layer_count(a, a.layers), 13);
  EXPECT_TRUE(is_global_layer(a, 0) && is_global_layer(a, 4) && is_global_layer(a, 48));
  EXPECT_FALSE(is_global_layer(a, 3) || is_global_layer(a, 47));
  EXPECT_EQ(a.attention.parallel_block, ParallelBlock::Cohere);
  EXPECT_TRUE(a.attention.nope_global);
  // llama-kv-cache-iswa.cpp: the 13 global layers hold the whole context,
  // the 36 windowed ones min(context, 4096 + a micro-batch of 512) cells
  // padded to 256 (4608); 4 KV heads of 128, K and V, F16.
  const std::int64_t row = std::int64_t{4} * 128 * 2 * 2;
  EXPECT_EQ(llama_estimate(m, 4096).memory.kv_cache, row * 49 * 4096);
  EXPECT_EQ(llama_estimate(m, 131072).memory.kv_cache,
            row * (13 * std::int64_t{131072} + 36 * std::int64_t{4608}));
  // Parameters by hand: q, k, v, o; layer 0's MLP; 48 layers of 128 experts
  // and the router; the tied embeddings once.
  const std::int64_t attention = 2 * 2048LL * 4096 + 2 * 2048LL * 512;
  const std::int64_t expert = 3 * 2048LL * 768;
  const std::int64_t router = 2048LL * 128;
  const std::int64_t embd = 262144LL * 2048;
  const ParamBreakdown p = count_params(a);
  EXPECT_EQ(p.total(), 49 * attention + 3 * 2048LL * 3072 + 48 * (128 * expert + router) + embd);
  EXPECT_EQ(p.active(), 49 * attention + 3 * 2048LL * 3072 + 48 * (8 * expert + router) + embd);
  // The card (the Hub's listing as a public page quotes it, a public generated Markdown digest of
  // trending repositories ('Generated by PeekDeck - A glance is all you need'): "30.5B"; vLLM
  // recipes PR #748 and llama.cpp PR #24260: 30B total, 3B activated).
  EXPECT_LT(off(static_cast<double>(p.total()), 30.5e9), 0.01) << p.total();
}

TEST(Cohere2Moe, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = read_header(north_mini_code_gguf());
  const Model c = read_config(north_mini_code_config());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_EQ(g.arch.attention.window_layers, c.arch.attention.window_layers);
  EXPECT_EQ(g.arch.attention.parallel_block, ParallelBlock::Cohere);
  EXPECT_TRUE(g.arch.attention.nope_global);
  ASSERT_TRUE(g.arch.moe.has_value());
  EXPECT_FALSE(g.arch.moe->weights_normalized);
  EXPECT_EQ(g.arch.moe->first_dense_layers, 1);
  EXPECT_TRUE(g.arch.tied_embeddings);
  expect_same_text_model(g, c, "cohere2moe GGUF vs config");
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
}

TEST(Cohere2Moe, CatalogueGivesWhatTheConfigGives) {
  const Model c = read_config(north_mini_code_config());
  expect_catalogue_agrees("north-mini-code-1.0", c);
  const Model cat = catalogue("north-mini-code-1.0");
  EXPECT_EQ(count_params(cat.arch).total(), count_params(c.arch).total());
  EXPECT_EQ(cat.arch.attention.parallel_block, ParallelBlock::Cohere);
  EXPECT_TRUE(cat.arch.attention.nope_global);
  ASSERT_TRUE(cat.arch.moe.has_value());
  EXPECT_FALSE(cat.arch.moe->weights_normalized);
}

// cohere2moe.cpp load_arch_hparams: a pattern given as one number is a
// period whose first layer is global (set_swa_pattern(period, true)), not
// the last of each group; expert_weights_norm is read where written.
TEST(Cohere2Moe, GgufPeriodIsGlobalFirstAndTheRouterNormIsRead) {
  test::GgufWriter w = north_mini_code_gguf();
  test::GgufWriter p;
  p.str("general.architecture", "cohere2moe");
  p.u32("cohere2moe.block_count", 49);
  p.u32("cohere2moe.context_length", 500000);
  p.u32("cohere2moe.embedding_length", 2048);
  p.u32("cohere2moe.feed_forward_length", 3072);
  p.u32("cohere2moe.attention.head_count", 32);
  p.u32("cohere2moe.attention.head_count_kv", 4);
  p.u32("cohere2moe.attention.key_length", 128);
  p.u32("cohere2moe.attention.value_length", 128);
  p.u32("cohere2moe.expert_count", 128);
  p.u32("cohere2moe.expert_used_count", 8);
  p.u32("cohere2moe.attention.sliding_window", 4096);
  p.u32("cohere2moe.attention.sliding_window_pattern", 4);
  p.u32("cohere2moe.expert_feed_forward_length", 768);
  p.u32("cohere2moe.leading_dense_block_count", 1);
  p.boolean("cohere2moe.expert_weights_norm", true);
  p.tensor("token_embd.weight", {2048, 262144}, test::kQ8_0);
  const Model g = read_header(p);
  const Model listed = read_header(w);
  EXPECT_TRUE(g.arch.attention.global_first);
  EXPECT_EQ(global_layer_count(g.arch, g.arch.layers), 13);
  for (int i = 0; i < 49; ++i) {
    EXPECT_EQ(is_global_layer(g.arch, i), is_global_layer(listed.arch, i)) << i;
  }
  EXPECT_EQ(llama_estimate(g, 131072).memory.kv_cache,
            llama_estimate(listed, 131072).memory.kv_cache);
  ASSERT_TRUE(g.arch.moe.has_value());
  EXPECT_TRUE(g.arch.moe->weights_normalized);
}

// nomic-ai/nomic-embed-text-v1.5's config.json (model_type nomic_bert, GPT-2
// style keys), Ollama's nomic-embed-text. Values as public transcriptions of
// it give them (code index): n_embd 768, n_layer 12, n_head 12, n_inner 3072,
// vocab_size 30528, type_vocab_size 2, rotary_emb_base 1000,
// rotary_emb_fraction 1.0, max_position_embeddings 2048, n_positions 8192
// (a Swift port's test of its config decoding); max_trained_positions 2048
// (a vLLM feature request quoting the file); activation_function swiglu, no
// QKV or MLP biases, prenorm false (what llama.cpp's converter asserts for it,
// conversion/bert.py NomicBertModel at 80fb11ac).
Json nomic_embed_text_config() {
  return {{"model_type", "nomic_bert"},
          {"architectures", {"NomicBertModel"}},
          {"n_embd", 768},
          {"n_layer", 12},
          {"n_head", 12},
          {"n_inner", 3072},
          {"vocab_size", 30528},
          {"type_vocab_size", 2},
          {"rotary_emb_base", 1000},
          {"rotary_emb_fraction", 1.0},
          {"rotary_emb_interleaved", false},
          {"max_position_embeddings", 2048},
          {"n_positions", 8192},
          {"max_trained_positions", 2048},
          {"activation_function", "swiglu"},
          {"qkv_proj_bias", false},
          {"mlp_fc1_bias", false},
          {"mlp_fc2_bias", false},
          {"prenorm", false},
          {"causal", false},
          {"layer_norm_epsilon", 1e-12}};
}

// The GGUF llama.cpp's converter writes for it (conversion/base.py
// set_gguf_parameters, conversion/bert.py BertModel and NomicBertModel at
// 80fb11ac): context_length from max_position_embeddings, feed_forward_length
// from n_inner, no head_count_kv (the config names none), causal false,
// mean pooling, rope base 1000, two token types; the tensors nomic-bert.cpp
// creates: token and token-type embeddings with their norm, per layer a
// fused bias-free QKV, the output projection, a LayerNorm after attention,
// SwiGLU's gate, up and down, a LayerNorm after the MLP; no position table
// (RoPE) and no output head (the graph ends at the embeddings).
test::GgufWriter nomic_embed_text_gguf() {
  const std::string a = "nomic-bert";
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".block_count", 12);
  w.u32(a + ".context_length", 2048);
  w.u32(a + ".embedding_length", 768);
  w.u32(a + ".feed_forward_length", 3072);
  w.u32(a + ".attention.head_count", 12);
  w.f32(a + ".attention.layer_norm_epsilon", 1e-12F);
  w.boolean(a + ".attention.causal", false);
  w.u32(a + ".pooling_type", 1);
  w.f32(a + ".rope.freq_base", 1000.0F);
  w.u32("tokenizer.ggml.token_type_count", 2);
  w.tensor("token_embd.weight", {768, 30528}, test::kF16);
  w.tensor("token_types.weight", {768, 2}, test::kF32);
  w.tensor("token_embd_norm.weight", {768}, test::kF32);
  w.tensor("token_embd_norm.bias", {768}, test::kF32);
  for (int i = 0; i < 12; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_qkv.weight", {768, 3 * 768}, test::kF16);
    w.tensor(b + "attn_output.weight", {768, 768}, test::kF16);
    w.tensor(b + "attn_output_norm.weight", {768}, test::kF32);
    w.tensor(b + "attn_output_norm.bias", {768}, test::kF32);
    w.tensor(b + "ffn_gate.weight", {768, 3072}, test::kF16);
    w.tensor(b + "ffn_up.weight", {768, 3072}, test::kF16);
    w.tensor(b + "ffn_down.weight", {3072, 768}, test::kF16);
    w.tensor(b + "layer_output_norm.weight", {768}, test::kF32);
    w.tensor(b + "layer_output_norm.bias", {768}, test::kF32);
  }
  return w;
}

TEST(NomicBert, ConfigReadsTheEncoderItIs) {
  const Model c = read_config(nomic_embed_text_config());
  EXPECT_TRUE(c.unchecked_architecture.empty()) << c.unchecked_architecture;
  EXPECT_EQ(c.arch.layers, 12);
  EXPECT_EQ(c.arch.hidden_size, 768);
  EXPECT_EQ(c.arch.heads, 12);
  EXPECT_EQ(c.arch.kv_heads, 12);
  EXPECT_EQ(c.arch.head_dim, 64);
  EXPECT_EQ(c.arch.intermediate_size, 3072);
  EXPECT_TRUE(c.arch.mlp_gated);  // SwiGLU: gate, up, down
  EXPECT_EQ(c.arch.vocab_size, 30528);
  EXPECT_TRUE(c.arch.tied_embeddings);  // no output head
  EXPECT_EQ(c.arch.max_context, 2048);  // trained positions, as the converter writes
  EXPECT_TRUE(c.arch.attention.no_kv_cache);
  EXPECT_TRUE(c.embedding);
  EXPECT_EQ(llama_estimate(c, 2048).memory.kv_cache, 0);
  // The card's 137 M (mteb's ModelMeta: 136,731,648 exactly,
  // embeddings-benchmark/mteb nomic_models.py at a905523d) within 1 %.
  EXPECT_LT(off(static_cast<double>(count_params(c.arch).total()), 136731648.0), 0.01);
}

TEST(NomicBert, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = read_header(nomic_embed_text_gguf());
  const Model c = read_config(nomic_embed_text_config());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_TRUE(g.embedding);
  EXPECT_TRUE(g.arch.attention.no_kv_cache);
  EXPECT_TRUE(g.arch.mlp_gated);
  EXPECT_TRUE(g.arch.tied_embeddings);
  EXPECT_EQ(g.arch.kv_heads, 12);
  EXPECT_EQ(g.arch.head_dim, 64);
  // The file's tensors hold the checkpoint's count exactly (token types and
  // LayerNorms included): 136,731,648.
  EXPECT_EQ(g.params, 136731648);
  expect_same_text_model(g, c, "nomic-embed-text-v1.5");
}

TEST(NomicBert, CatalogueGivesWhatTheConfigGives) {
  expect_catalogue_agrees("nomic-embed-text-v1.5", read_config(nomic_embed_text_config()));
  EXPECT_TRUE(catalogue("nomic-embed-text-v1.5").embedding);
}

// bert.cpp's block is post-norm (LayerNorms after the residual sums:
// attn_out_norm, layer_out_norm), which the compute replay of an encoder
// follows: the config, the GGUF and the catalogue say so for the BERT
// family, and not for EmbeddingGemma (gemma-embedding.cpp: pre-norm) or a
// decoder.
TEST(NomicBert, TheBertFamilyIsPostNorm) {
  EXPECT_TRUE(read_config(nomic_embed_text_config()).arch.attention.post_norm);
  EXPECT_TRUE(read_header(nomic_embed_text_gguf()).arch.attention.post_norm);
  for (const char* id : {"nomic-embed-text-v1.5", "bert-base-uncased", "mxbai-embed-large-v1",
                         "all-minilm-l6-v2", "bge-m3", "granite-embedding-278m"}) {
    EXPECT_TRUE(catalogue(id).arch.attention.post_norm) << id;
  }
  EXPECT_FALSE(catalogue("embeddinggemma-300m").arch.attention.post_norm);
  EXPECT_FALSE(catalogue("llama-3.1-8b").arch.attention.post_norm);
}

// ---- Phi-3.5-MoE (phimoe) ---------------------------------------------------
//
// microsoft/Phi-3.5-MoE-instruct config.json, as public transcriptions quote
// it (the hub is not reachable): hidden 4096, intermediate 6400, 32 layers,
// 32 heads, 8 KV heads, 16 local experts, 2 per token, max_position_embeddings
// 131072, original_max_position_embeddings 4096 (a PhiMoEConfig built from the
// published values in a public training script, a public Python snippet counting PhiMoEForCausalLM
// parameters (PhiMoEConfig with num_local_experts 16, intermediate_size 6400;
// format_parameters(test_model.num_parameters()))); vocab 32064, rope_theta 10000 (a Rust port's
// test config "matching the phi-3.5-moe-instruct HuggingFace checkpoint", a public Rust test of a
// phimoe ModelArgs (PHI35_MOE_BF16_CONFIG; phimoe_unquantized_config_uses_quantization_defaults);
// the card: "vocabulary size of 32,064"); sliding_window 131072, untied embeddings, attention and
// lm_head biases (issue 18; the converter's tensor list, below).
Json phi35_moe() {
  return {{"model_type", "phimoe"},
          {"architectures", {"PhiMoEForCausalLM"}},
          {"hidden_size", 4096},
          {"intermediate_size", 6400},
          {"num_hidden_layers", 32},
          {"num_attention_heads", 32},
          {"num_key_value_heads", 8},
          {"num_local_experts", 16},
          {"num_experts_per_tok", 2},
          {"max_position_embeddings", 131072},
          {"original_max_position_embeddings", 4096},
          {"sliding_window", 131072},
          {"rope_theta", 10000.0},
          {"vocab_size", 32064},
          {"attention_bias", true},
          {"lm_head_bias", true},
          {"tie_word_embeddings", false}};
}

// As conversion/phi.py writes it at 80fb11ac (PhiMoeModel over
// Phi3MiniModel.set_gguf_parameters): context_length, the rope's original
// context, embedding and feed_forward_length (the experts' width: there is no
// expert_feed_forward_length), heads, rope dimensions, the sliding window
// (config.json's, or 0), expert_count and expert_used_count; the vocabulary
// from the token embeddings and the untied output with its bias.
test::GgufWriter phi35_moe_gguf(std::uint32_t window = 131072) {
  const std::string a = "phimoe.";
  test::GgufWriter w;
  w.str("general.architecture", "phimoe");
  w.u32(a + "context_length", 131072);
  w.u32(a + "rope.scaling.original_context_length", 4096);
  w.u32(a + "embedding_length", 4096);
  w.u32(a + "feed_forward_length", 6400);
  w.u32(a + "block_count", 32);
  w.u32(a + "attention.head_count", 32);
  w.u32(a + "attention.head_count_kv", 8);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-5F);
  w.u32(a + "rope.dimension_count", 128);
  w.f32(a + "rope.freq_base", 10000.0F);
  w.u32(a + "attention.sliding_window", window);
  w.u32(a + "expert_used_count", 2);
  w.u32(a + "expert_count", 16);
  w.tensor("token_embd.weight", {4096, 32064}, test::kQ8_0);
  w.tensor("output.weight", {4096, 32064}, test::kQ8_0);
  w.tensor("output.bias", {32064}, test::kF32);
  return w;
}

TEST(PhiMoe, ConfigIsKnownAndCountsTheCardsTotals) {
  const Model m = read_config(phi35_moe());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  ASSERT_TRUE(m.arch.moe.has_value());
  EXPECT_EQ(m.arch.moe->experts, 16);
  EXPECT_EQ(m.arch.moe->experts_per_token, 2);
  EXPECT_EQ(m.arch.moe->expert_intermediate_size, 6400);
  EXPECT_FALSE(m.arch.tied_embeddings);
  const ParamBreakdown p = count_params(m.arch);
  // The card: 41.9 B parameters, 6.6 B active with 2 experts (huggingface.co/
  // microsoft/Phi-3.5-MoE-instruct; Azure/azureml-assets
  // assets/models/system/phi-3.5-moe-128k-instruct/description.md).
  EXPECT_LT(off(static_cast<double>(p.total()), 41.9e9), 0.01) << p.total();
  EXPECT_LT(off(static_cast<double>(p.active()), 6.6e9), 0.01) << p.active();
}

// llama.cpp caches every layer over the whole context: phimoe.cpp
// load_arch_hparams reads no sliding window (phi3.cpp reads one and then
// turns it off), so the graph is built without iSWA and the 131072-token
// window (or any smaller one a file carries) changes nothing.
TEST(PhiMoe, KvCacheIsFullOnEveryLayerWhateverTheWindow) {
  const Model c = read_config(phi35_moe());
  EXPECT_EQ(c.arch.attention.kind, AttentionKind::Full);
  const std::int64_t ctx = 32768;
  // 32 layers x (K + V) x 8 heads x 128 x 2 bytes (F16) per token.
  EXPECT_EQ(kv_cache_bytes(c.arch, {ctx, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{32} * 2 * 8 * 128 * 2 * ctx);
  Json small = phi35_moe();
  small["sliding_window"] = 2048;
  const Model cw = read_config(small);
  EXPECT_EQ(cw.arch.attention.kind, AttentionKind::Full);
  const Model gw = read_header(phi35_moe_gguf(2048));
  EXPECT_EQ(gw.arch.attention.kind, AttentionKind::Full);
  EXPECT_EQ(llama_estimate(gw, ctx).memory.kv_cache, llama_estimate(c, ctx).memory.kv_cache);
  EXPECT_EQ(llama_estimate(cw, ctx).memory.kv_cache, llama_estimate(c, ctx).memory.kv_cache);
}

TEST(PhiMoe, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = read_header(phi35_moe_gguf());
  const Model c = read_config(phi35_moe());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  ASSERT_TRUE(g.arch.moe.has_value());
  EXPECT_EQ(g.arch.moe->expert_intermediate_size, 6400);
  EXPECT_EQ(g.arch.vocab_size, 32064);
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
  expect_same_text_model(g, c, "phimoe GGUF vs config");
  // phimoe.cpp requires every bias, as the config's attention_bias and
  // lm_head_bias say it has them.
  EXPECT_TRUE(g.arch.norm_bias && g.arch.attention_bias && g.arch.output_bias);
  EXPECT_TRUE(c.arch.norm_bias && c.arch.attention_bias && c.arch.output_bias);
}

// The catalogue's phi-3.5-moe (family phimoe: the biases) is the config's
// model, and answers by name with its published BF16.
TEST(PhiMoe, CatalogueEntryIsTheConfigsModel) {
  const Model cat = catalogue("phi-3.5-moe");
  EXPECT_TRUE(cat.arch.norm_bias && cat.arch.attention_bias && cat.arch.output_bias);
  expect_catalogue_agrees("phi-3.5-moe", read_config(phi35_moe()));
}

// phimoe.cpp load_arch_tensors: each bias an F32 vector of its tensor's
// output width. q/k/v/o (attention_bias): 4096 + 1024 + 1024 + 4096 a layer;
// the logits' (lm_head_bias): 32064; the LayerNorms' (attn_norm_b,
// ffn_norm_b a layer, output_norm_b): 4096 each.
TEST(PhiMoe, BiasesAreF32VectorsOfTheirOutputWidths) {
  const Precision p = *parse_precision("q4_k_m");
  const Model c = read_config(phi35_moe());
  const auto bytes = [&](const Model& m) { return weight_layout(m, p).total(); };
  Json no_attention = phi35_moe();
  no_attention["attention_bias"] = false;
  EXPECT_EQ(bytes(c) - bytes(read_config(no_attention)), std::int64_t{32} * 10240 * 4);
  Json no_head = phi35_moe();
  no_head["lm_head_bias"] = false;
  EXPECT_EQ(bytes(c) - bytes(read_config(no_head)), std::int64_t{32064} * 4);
  Model no_norm = c;
  no_norm.arch.norm_bias = false;
  EXPECT_EQ(bytes(c) - bytes(no_norm), std::int64_t{2 * 32 + 1} * 4096 * 4);
}

// ---- EmbeddingGemma (gemma3_text + use_bidirectional_attention; gemma-embedding) ----
//
// google/embeddinggemma-300m's config.json as public tests inline it (search
// tool: invergent-ai/surogate's Gemma 3 test, EMBEDDINGGEMMA_CONFIG, "The
// published config for google/embeddinggemma-300m", checked there against the
// snapshot 57c266a7; a Swift port's HFConfigDecoder test,
// a public Swift test file of model architecture descriptors (ropeDimension: 8,
// fullAttentionInterval: nil, slidingWindow: nil), adds tie_word_embeddings true and layer_types):
// Gemma3TextModel, hidden 768, 24 layers, 3 query heads and 1 KV head of 256, intermediate 1152
// (gelu_pytorch_tanh, gated), vocabulary 262144, 2048 positions, window 512
// with _sliding_window_pattern 6 (layers 5, 11, 17, 23 global),
// use_bidirectional_attention true, query_pre_attn_scalar 256.
Json embeddinggemma_config() {
  std::vector<std::string> kinds;
  for (int i = 0; i < 24; ++i) {
    kinds.emplace_back((i + 1) % 6 == 0 ? "full_attention" : "sliding_attention");
  }
  return {{"architectures", {"Gemma3TextModel"}},
          {"model_type", "gemma3_text"},
          {"_sliding_window_pattern", 6},
          {"head_dim", 256},
          {"hidden_activation", "gelu_pytorch_tanh"},
          {"hidden_size", 768},
          {"intermediate_size", 1152},
          {"max_position_embeddings", 2048},
          {"num_attention_heads", 3},
          {"num_hidden_layers", 24},
          {"num_key_value_heads", 1},
          {"query_pre_attn_scalar", 256},
          {"rms_norm_eps", 1e-6},
          {"rope_local_base_freq", 10000.0},
          {"rope_theta", 1000000.0},
          {"sliding_window", 512},
          {"tie_word_embeddings", true},
          {"use_bidirectional_attention", true},
          {"vocab_size", 262144},
          {"layer_types", kinds}};
}

// As conversion/gemma.py EmbeddingGemma (on Gemma3Model, at 80fb11ac) writes
// it: the base keys, context 2048, key/value length 256, the window from the
// original config.json, pooling_type (mean, from 1_Pooling), no pattern key
// (gemma-embedding.cpp defaults to 6), no output.weight (tied). With
// --sentence-transformers-dense-modules it adds dense_2/dense_3 feature sizes
// (2_Dense 768 -> 3072, 3_Dense 3072 -> 768, the sentence-transformers modules
// the surogate test above describes as 768->3072->768) and their tensors.
test::GgufWriter embeddinggemma_gguf(bool dense) {
  test::GgufWriter w;
  w.str("general.architecture", "gemma-embedding");
  w.u32("gemma-embedding.block_count", 24);
  w.u32("gemma-embedding.context_length", 2048);
  w.u32("gemma-embedding.embedding_length", 768);
  w.u32("gemma-embedding.feed_forward_length", 1152);
  w.u32("gemma-embedding.attention.head_count", 3);
  w.u32("gemma-embedding.attention.head_count_kv", 1);
  w.u32("gemma-embedding.attention.key_length", 256);
  w.u32("gemma-embedding.attention.value_length", 256);
  w.f32("gemma-embedding.rope.freq_base", 1000000.0F);
  w.f32("gemma-embedding.attention.layer_norm_rms_epsilon", 1e-6F);
  w.u32("gemma-embedding.attention.sliding_window", 512);
  w.u32("gemma-embedding.pooling_type", 1);
  w.tensor("token_embd.weight", {768, 262144}, test::kF16);
  if (dense) {
    w.u32("gemma-embedding.dense_2_feat_in", 768);
    w.u32("gemma-embedding.dense_2_feat_out", 3072);
    w.u32("gemma-embedding.dense_3_feat_in", 3072);
    w.u32("gemma-embedding.dense_3_feat_out", 768);
    w.tensor("dense_2.weight", {768, 3072}, test::kF16);
    w.tensor("dense_3.weight", {3072, 768}, test::kF16);
  }
  return w;
}

TEST(EmbeddingGemma, ConfigIsABidirectionalEmbeddingModelWithNoKvCache) {
  const Model m = read_config(embeddinggemma_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  EXPECT_TRUE(m.embedding);
  const Architecture& a = m.arch;
  EXPECT_TRUE(a.attention.no_kv_cache);
  EXPECT_EQ(a.attention.kind, AttentionKind::Sliding);
  EXPECT_EQ(a.attention.sliding_window, 512);
  EXPECT_EQ(global_layer_count(a, a.layers), 4);
  EXPECT_TRUE(is_global_layer(a, 5) && is_global_layer(a, 23));
  EXPECT_FALSE(is_global_layer(a, 0) || is_global_layer(a, 22));
  EXPECT_TRUE(a.tied_embeddings);
  EXPECT_EQ(llama_estimate(m, 2048).memory.kv_cache, 0);
  // The backbone alone (config.json holds no Dense modules): q, o 768 x 768,
  // k, v 768 x 256, the gated MLP, the embeddings once. mteb's ModelMeta
  // puts the backbone at 302.9 M (memory_usage_mb 1155 for it at 4 bytes,
  // embeddings-benchmark/mteb google_embeddinggemma.py at a905523d); the
  // RMSNorms willfit does not count are 86 k of it.
  const std::int64_t layer = 2 * 768LL * 768 + 2 * 768LL * 256 + 3 * 768LL * 1152;
  EXPECT_EQ(count_params(a).total(), 24 * layer + 262144LL * 768);
  EXPECT_LT(off(static_cast<double>(count_params(a).total()), 302.9e6), 0.01);
}

// The same model_type without use_bidirectional_attention stays a causal
// Gemma 3 text model with its windowed KV cache.
TEST(EmbeddingGemma, ACausalGemma3TextConfigKeepsItsKvCache) {
  Json j = embeddinggemma_config();
  j["architectures"] = {"Gemma3ForCausalLM"};
  j.erase("use_bidirectional_attention");
  const Model m = read_config(j);
  EXPECT_FALSE(m.embedding);
  EXPECT_FALSE(m.arch.attention.no_kv_cache);
  EXPECT_GT(llama_estimate(m, 2048).memory.kv_cache, 0);
}

TEST(EmbeddingGemma, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = read_header(embeddinggemma_gguf(false));
  const Model c = read_config(embeddinggemma_config());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_TRUE(g.embedding);
  EXPECT_TRUE(g.arch.attention.no_kv_cache);
  EXPECT_EQ(g.arch.attention.window_layers, c.arch.attention.window_layers);
  EXPECT_EQ(global_layer_count(g.arch, g.arch.layers), 4);
  expect_same_text_model(g, c, "gemma-embedding GGUF vs config");
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
}

// A GGUF carrying sentence-transformers' Dense projections counts them: the
// published 307,581,696 (mteb google_embeddinggemma.py at a905523d, n_parameters;
// `ollama list`: 308 M) is the backbone, its norms and the two projections.
TEST(EmbeddingGemma, GgufWithTheDenseModulesMatchesTheCard) {
  const Model g = read_header(embeddinggemma_gguf(true));
  const Model plain = read_header(embeddinggemma_gguf(false));
  EXPECT_EQ(g.arch.dense_out, 3072);
  EXPECT_EQ(g.arch.dense_in, 3072);
  EXPECT_EQ(count_params(g.arch).total() - count_params(plain.arch).total(), 2 * 768LL * 3072);
  EXPECT_LT(off(static_cast<double>(count_params(g.arch).total()), 307581696.0), 0.01);
  // They act on the pooled vectors alone: neither cache nor buffer changes.
  test::expect_same_estimate(g, plain, "gemma-embedding with and without Dense", kEstimateGrid);
}

TEST(EmbeddingGemma, CatalogueGivesWhatTheConfigGives) {
  const Model c = read_config(embeddinggemma_config());
  expect_catalogue_agrees("embeddinggemma-300m", c);
  const Model cat = catalogue("embeddinggemma-300m");
  EXPECT_TRUE(cat.embedding);
  EXPECT_TRUE(cat.arch.attention.no_kv_cache);
}

// Muse Glimmer (meta-models/Muse-Glimmer-30B; llama.cpp `muse-glimmer`,
// src/models/muse-glimmer.cpp at 80fb11ac): a dense trunk of 52 layers,
// each gating its attention output by a projection of its own (sigmoid
// before wo, as afmoe), Q and K RMS-normed per head, post-attention and
// post-MLP norms, three windowed layers (2048 tokens, RoPE) then a global
// one without RoPE. Its text_config as transformers publishes it
// (MuseGlimmerTextConfig in src/transformers/models/muse_glimmer/
// configuration_muse_glimmer.py, huggingface/transformers, whose defaults
// document the released checkpoint: "Equal to 1/sqrt(hidden_size / 256)
// for the released checkpoint"), the same values public tests of the
// checkpoint quote (a public pytest file of a Muse Glimmer port (MuseGlimmerForCausalLM with
// Nvfp4LinearMethod; '# lm_head stays bf16'); a public pytest file of a Muse Glimmer port
// (Nvfp4DenseColMerged, Nvfp4DenseLinear; ParallelLMHead '# lm_head stays bf16')): hidden 6656, MLP
// 19968, 52 layers, 32 heads of 128, 2 KV heads, vocabulary 202048, window 2048, layer_types
// [sliding x 3, full] x 13, untied.
Json muse_glimmer_30b() {
  Json types = Json::array();
  for (int i = 0; i < 52; ++i) {
    types.push_back((51 - i) % 4 == 0 ? "full_attention" : "sliding_attention");
  }
  return {{"architectures", {"MuseGlimmerForConditionalGeneration"}},
          {"model_type", "muse_glimmer"},
          {"text_config",
           {{"model_type", "muse_glimmer_text"},
            {"hidden_size", 6656},
            {"intermediate_size", 19968},
            {"num_hidden_layers", 52},
            {"num_attention_heads", 32},
            {"num_key_value_heads", 2},
            {"head_dim", 128},
            {"vocab_size", 202048},
            {"max_position_embeddings", 131072},
            {"hidden_activation", "silu"},
            {"rms_norm_eps", 1e-5},
            {"sliding_window", 2048},
            {"layer_types", types},
            {"final_logit_softcapping", 20.0},
            {"rope_parameters", {{"rope_theta", 500000.0}, {"rope_type", "default"}}},
            {"tie_word_embeddings", false},
            {"attention_bias", false}}}};
}

// The header conversion/muse_glimmer.py MuseGlimmerModel writes for it (the
// shared keys, the softcap, output_multiplier as logit_scale, the window and
// one sliding_window_pattern flag a layer from layer_types) and the
// embeddings, output and a layer's attention gate.
test::GgufWriter muse_glimmer_gguf() {
  test::GgufWriter w;
  w.str("general.architecture", "muse-glimmer");
  w.u32("muse-glimmer.context_length", 131072);
  w.u32("muse-glimmer.embedding_length", 6656);
  w.u32("muse-glimmer.feed_forward_length", 19968);
  w.u32("muse-glimmer.block_count", 52);
  w.u32("muse-glimmer.attention.head_count", 32);
  w.u32("muse-glimmer.attention.head_count_kv", 2);
  w.u32("muse-glimmer.attention.key_length", 128);
  w.u32("muse-glimmer.attention.value_length", 128);
  w.f32("muse-glimmer.rope.freq_base", 500000.0F);
  w.f32("muse-glimmer.attention.layer_norm_rms_epsilon", 1e-5F);
  w.f32("muse-glimmer.final_logit_softcapping", 20.0F);
  w.f32("muse-glimmer.logit_scale", 0.19611613F);
  w.u32("muse-glimmer.attention.sliding_window", 2048);
  std::vector<bool> swa;
  for (int i = 0; i < 52; ++i) {
    swa.push_back((51 - i) % 4 != 0);
  }
  w.bool_array("muse-glimmer.attention.sliding_window_pattern", swa);
  w.tensor("token_embd.weight", {6656, 202048}, test::kQ8_0);
  w.tensor("output.weight", {6656, 202048}, test::kQ8_0);
  w.tensor("blk.0.attn_gate.weight", {6656, 4096}, test::kQ8_0);
  return w;
}

TEST(MuseGlimmer, ConfigAndGgufAreKnownAndAgree) {
  EXPECT_TRUE(is_known_gguf_architecture("muse-glimmer"));
  EXPECT_TRUE(is_known_config_model_type("muse_glimmer"));
  const Model config = read_config(muse_glimmer_30b());
  const Model gguf = read_header(muse_glimmer_gguf());
  for (const Model* m : {&config, &gguf}) {
    EXPECT_TRUE(m->unchecked_architecture.empty()) << m->unchecked_architecture;
    EXPECT_TRUE(m->arch.attention.output_gate);
    EXPECT_TRUE(m->arch.attention.nope_global);
    EXPECT_EQ(m->arch.attention.kind, AttentionKind::Sliding);
    EXPECT_EQ(m->arch.attention.sliding_window, 2048);
    EXPECT_FALSE(is_global_layer(m->arch, 0));
    EXPECT_TRUE(is_global_layer(m->arch, 3));
    EXPECT_TRUE(is_global_layer(m->arch, 51));
    EXPECT_FALSE(is_global_layer(m->arch, 50));
  }
  expect_same_text_model(gguf, config, "muse-glimmer");
  // 13 global layers of the whole context, 39 windowed of 2048 + the
  // micro-batch's 512 cells; 2 KV heads of 128, K and V, F16.
  const std::int64_t row = std::int64_t{2} * 128 * 2 * 2;
  EXPECT_EQ(llama_estimate(config, 131072).memory.kv_cache,
            row * (13 * std::int64_t{131072} + 39 * std::int64_t{2560}));
}

// The checkpoint's count, 29,776,626,688 parameters with its vision tower
// (Fireworks' model catalogue, a public MDX documentation bundle of Fireworks, 150,493 characters
// (cards 'Training Shapes', 'Dedicated Training', 'Pricing'), id muse-glimmer-30b, paramCount),
// less that tower's 50 layers as MuseGlimmerVisionConfig sizes them (hidden 1536: q, k, v and out
// projections, MLP of 8960; the patch embedding, norms and the projector,
// about 0.3 % of the total, left in): the text model within 1 %, the
// attention gate (52 x 6656 x 4096) in it.
TEST(MuseGlimmer, TextParametersMatchThePublishedCount) {
  const double vision = 50.0 * (4.0 * 1536 * 1536 + 2.0 * 1536 * 8960);
  const Model config = read_config(muse_glimmer_30b());
  const ParamBreakdown p = count_params(config.arch);
  EXPECT_LT(off(static_cast<double>(p.total() - p.vision), 29776626688.0 - vision), 0.01)
      << p.total();
  Json ungated = muse_glimmer_30b();
  ungated["model_type"] = "llama";
  ungated["text_config"]["model_type"] = "llama";
  EXPECT_EQ(p.total() - count_params(read_config(ungated).arch).total(),
            std::int64_t{52} * 6656 * 4096);
}

// The catalogue's muse-glimmer-30b (data/models.json) is the text_config
// above with the vision tower beside it, sized as MuseGlimmerVisionConfig
// sizes its 50 layers (the config above names no vision_config): the gate,
// the window on three layers of four, no RoPE on the global ones; the same
// weights, cache and compute buffer, and the published 29,776,626,688
// within 1 % of the count.
TEST(MuseGlimmer, CatalogueEntryIsItsConfig) {
  Model config = read_config(muse_glimmer_30b());
  config.arch.vision_params = std::int64_t{50} * (4 * 1536 * 1536 + 2 * 1536 * 8960);
  const Model& cat = test::catalogue_model("muse-glimmer-30b");
  EXPECT_TRUE(cat.arch.attention.output_gate);
  EXPECT_TRUE(cat.arch.attention.nope_global);
  EXPECT_EQ(global_layer_count(cat.arch, cat.arch.layers), 13);
  test::expect_catalogue_is_config("muse-glimmer-30b", config, {4096, 131072});
}

}  // namespace
}  // namespace willfit
