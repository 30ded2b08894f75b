// The 2026 architectures of issue 18 that llama.cpp 80fb11ac loads and
// willfit once only warned about: GLM-5 (glm-dsa), Mistral 4 (mistral4).
// Each family is read from a published config.json and from a GGUF header as
// llama.cpp's converter writes it (conversion/*.py at 80fb11ac), and both
// must give one estimate; the expected sizes are worked out by hand in the
// test from llama.cpp's cache layouts, and the totals come from model cards
// and safetensors indexes, not from willfit.
#include <cmath>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sources/embedded_data.hpp"
#include "unit/model_file_writers.hpp"
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

// Two readings of one model give one estimate: the KV cache and compute
// buffer exactly, under llama.cpp, at a short and a long context.
void expect_same_estimate(const Model& a, const Model& b, const std::string& what) {
  for (const std::int64_t ctx : {std::int64_t{4096}, std::int64_t{131072}}) {
    const Estimate x = llama_estimate(a, ctx);
    const Estimate y = llama_estimate(b, ctx);
    EXPECT_EQ(x.memory.kv_cache, y.memory.kv_cache) << what << " at " << ctx;
    EXPECT_EQ(x.memory.compute, y.memory.compute) << what << " at " << ctx;
  }
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

// The same model as llama.cpp's converter writes it (conversion/glm.py
// GlmMoeDsaModel over deepseek.py DeepseekV2Model): block_count counts the
// MTP block, MLA as MQA with one KV head of kv_lora + rope, the per-head
// widths in key_length_mla / value_length_mla, the indexer keys.
test::GgufWriter glm5_gguf() {
  test::GgufWriter w;
  w.str("general.architecture", "glm-dsa");
  w.u32("glm-dsa.block_count", 79);
  w.u32("glm-dsa.nextn_predict_layers", 1);
  w.u32("glm-dsa.context_length", 202752);
  w.u32("glm-dsa.embedding_length", 6144);
  w.u32("glm-dsa.feed_forward_length", 12288);
  w.u32("glm-dsa.attention.head_count", 64);
  w.u32("glm-dsa.attention.head_count_kv", 1);
  w.u32("glm-dsa.attention.key_length", 576);
  w.u32("glm-dsa.attention.value_length", 512);
  w.u32("glm-dsa.attention.key_length_mla", 256);
  w.u32("glm-dsa.attention.value_length_mla", 256);
  w.u32("glm-dsa.attention.q_lora_rank", 2048);
  w.u32("glm-dsa.attention.kv_lora_rank", 512);
  w.u32("glm-dsa.rope.dimension_count", 64);
  w.u32("glm-dsa.attention.indexer.head_count", 32);
  w.u32("glm-dsa.attention.indexer.key_length", 128);
  w.u32("glm-dsa.attention.indexer.top_k", 2048);
  w.u32("glm-dsa.expert_count", 256);
  w.u32("glm-dsa.expert_used_count", 8);
  w.u32("glm-dsa.expert_shared_count", 1);
  w.u32("glm-dsa.expert_feed_forward_length", 2048);
  w.u32("glm-dsa.leading_dense_block_count", 3);
  w.u32("glm-dsa.vocab_size", 154880);
  w.tensor("token_embd.weight", {6144, 256}, test::kQ8_0);
  w.tensor("output.weight", {6144, 256}, test::kQ8_0);
  return w;
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
  const Model g = read_header(glm5_gguf());
  const Model c = read_config(glm5());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_EQ(g.arch.layers, 78);
  EXPECT_EQ(g.arch.mtp_layers, 1);
  EXPECT_EQ(g.arch.attention.index_heads, 32);
  EXPECT_EQ(attention_params_per_layer(g.arch), attention_params_per_layer(c.arch));
  ASSERT_TRUE(g.arch.moe.has_value());
  EXPECT_EQ(g.arch.moe->shared_experts, c.arch.moe->shared_experts);
  EXPECT_EQ(g.arch.moe->first_dense_layers, 3);
  EXPECT_EQ(count_params(g.arch).active(), count_params(c.arch).active());
  expect_same_estimate(g, c, "glm-dsa GGUF vs config");
}

TEST(Glm5, CatalogueGivesWhatTheConfigGives) {
  const Model c = read_config(glm5());
  for (const char* id : {"glm-5", "glm-5.1"}) {
    const Model cat = catalogue(id);
    expect_same_estimate(cat, c, id);
    const Precision p = *parse_precision("q4_k_m");
    EXPECT_LT(off(static_cast<double>(weight_layout(cat, p).total()),
                  static_cast<double>(weight_layout(c, p).total())),
              0.01)
        << id;
  }
}

}  // namespace
}  // namespace willfit
