// Nemotron-4 and its Minitron prunes (llama.cpp `nemotron`, config.json
// model_type `nemotron`), issue 18: Nemotron-Mini-4B-Instruct (Ollama
// `nemotron-mini`). llama.cpp src/models/nemotron.cpp at 80fb11ac: LayerNorm
// with a bias before attention, before the MLP and at the output (the
// converter folds LayerNorm1p's +1 into the weight); q, k, v and o without
// biases; an ungated MLP of up, squared ReLU and down; partial RoPE (half the
// head); an untied output head.
//
// The config.json and the GGUF header its converter writes must give one
// estimate; the totals are checked against the published GGUF files' sizes,
// the weights against the tensor list of nemotron.cpp load_arch_tensors.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sources/embedded_data.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/model_db.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::from_config;
using test::from_gguf;
using test::rel;

// nvidia/Nemotron-Mini-4B-Instruct's shape (the hub is not reachable):
// NVIDIA/TensorRT-LLM tests/unittest/_torch/modeling/test_modeling_nemotron.py
// at 8cb8331d transcribes the config as Nemotron_4_4B_CONFIG:
// NemotronForCausalLM, hidden 3072, intermediate 9216, 32 layers, 24 heads,
// 8 KV heads, kv_channels 128, vocab 256000, max_position_embeddings 4096,
// partial_rotary_factor 0.5, norm_eps 1e-5, rope_theta 10000, relu2,
// tie_word_embeddings false. The model card (as mirrored in
// YinanWusoymilk/hf-readme training_and_application/readme_files/
// nvidia_Nemotron-Mini-4B-Instruct.md at 1ab39f24): a fine-tune of
// Minitron-4B-Base, "embedding size of 3072 ... MLP intermediate dimension
// of 9216", GQA, RoPE, a context of 4,096 tokens.
Json nemotron_mini_4b() {
  return {{"architectures", {"NemotronForCausalLM"}},
          {"model_type", "nemotron"},
          {"hidden_act", "relu2"},
          {"hidden_size", 3072},
          {"intermediate_size", 9216},
          {"max_position_embeddings", 4096},
          {"num_attention_heads", 24},
          {"num_hidden_layers", 32},
          {"num_key_value_heads", 8},
          {"norm_eps", 1e-5},
          {"rope_theta", 10000},
          {"partial_rotary_factor", 0.5},
          {"tie_word_embeddings", false},
          {"torch_dtype", "bfloat16"},
          {"vocab_size", 256000},
          {"kv_channels", 128}};
}

// The header conversion/nemotron.py writes at 80fb11ac (NemotronModel over
// TextModel.set_gguf_parameters): block_count, context_length,
// embedding_length, feed_forward_length, head_count, head_count_kv, the
// norm epsilon (norm_eps as layer_norm_rms_epsilon, then layer_norm_epsilon),
// rope.dimension_count int(0.5 x 3072) / 24 = 64, freq_base, rope scaling
// none, vocab_size; no key_length (the config has no head_dim). Tensors: the
// untied output beside the token embeddings, and the MLP's up and down (no
// gate) that tell an ungated MLP.
test::GgufWriter nemotron_mini_4b_gguf() {
  const std::string a = "nemotron.";
  test::GgufWriter w;
  w.str("general.architecture", "nemotron");
  w.u32(a + "block_count", 32);
  w.u32(a + "context_length", 4096);
  w.u32(a + "embedding_length", 3072);
  w.u32(a + "feed_forward_length", 9216);
  w.u32(a + "attention.head_count", 24);
  w.u32(a + "attention.head_count_kv", 8);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-5F);
  w.f32(a + "attention.layer_norm_epsilon", 1e-5F);
  w.u32(a + "rope.dimension_count", 64);
  w.f32(a + "rope.freq_base", 10000.0F);
  w.str(a + "rope.scaling.type", "none");
  w.u32(a + "vocab_size", 256000);
  w.tensor("token_embd.weight", {3072, 256000}, test::kQ8_0);
  w.tensor("output.weight", {3072, 256000}, test::kQ8_0);
  w.tensor("blk.0.ffn_up.weight", {3072, 9216}, test::kQ8_0);
  w.tensor("blk.0.ffn_down.weight", {9216, 3072}, test::kQ8_0);
  return w;
}

// Where two readings of one model are compared (test::expect_same_estimate):
// 4 Ki and 32 Ki tokens, llama.cpp's default flash attention, at Q4_K_M.
const test::EstimateGrid kEstimateGrid{.contexts = {4096, 32768},
                                       .flash = {FlashAttention::Auto},
                                       .params = test::EstimateGrid::Params::None};

TEST(Nemotron, ConfigIsKnownAndCountsTheModel) {
  const Model m = from_config(nemotron_mini_4b());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  EXPECT_FALSE(m.arch.mlp_gated);
  EXPECT_TRUE(m.arch.norm_bias);
  EXPECT_FALSE(m.arch.tied_embeddings);
  EXPECT_EQ(m.arch.head_dim, 128);
  // bartowski/Nemotron-Mini-4B-Instruct-GGUF (the card's file table, as the
  // search tool's stored page git.lnyan.com/bartowski/Nemotron-Mini-4B-
  // Instruct-GGUF shows it): the F16 file is 8.39 GB, 2 bytes a parameter:
  // 4.19 B, as the hub lists the model.
  EXPECT_LT(rel(static_cast<double>(count_params(m.arch).total()), 8.39e9 / 2), 0.01)
      << count_params(m.arch).total();
}

TEST(Nemotron, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = from_gguf(nemotron_mini_4b_gguf());
  const Model c = from_config(nemotron_mini_4b());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_FALSE(g.arch.mlp_gated);
  EXPECT_TRUE(g.arch.norm_bias);
  EXPECT_EQ(g.arch.vocab_size, 256000);
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
  test::expect_same_estimate(g, c, "nemotron GGUF vs config", kEstimateGrid);
}

// Every layer caches K and V of 8 heads of 128 (nemotron.cpp build_attn_inp_kv,
// no window): 32 x 2 x 8 x 128 x 2 bytes (F16) a token.
TEST(Nemotron, KvCacheIsEveryLayersFullContext) {
  const Model c = from_config(nemotron_mini_4b());
  EXPECT_EQ(c.arch.attention.kind, AttentionKind::Full);
  const std::int64_t ctx = 4096;
  EXPECT_EQ(kv_cache_bytes(c.arch, {ctx, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{32} * 2 * 8 * 128 * 2 * ctx);
}

// nemotron.cpp load_arch_tensors at 80fb11ac, every tensor at F16 with the
// norms (weight and bias) at F32, as llama-quantize and the converter keep
// 1-D tensors: the file's tensor bytes are what willfit loads.
TEST(Nemotron, F16WeightsAreTheTensorsOfLoadArchTensors) {
  test::GgufWriter w;
  std::uint64_t bytes = 0;
  const std::uint64_t e = 3072;
  const std::uint64_t kv = 8 * 128;
  const std::uint64_t ff = 9216;
  bytes += w.tensor("token_embd.weight", {e, 256000}, test::kF16);
  bytes += w.tensor("output_norm.weight", {e}, test::kF32);
  bytes += w.tensor("output_norm.bias", {e}, test::kF32);
  bytes += w.tensor("output.weight", {e, 256000}, test::kF16);
  for (int i = 0; i < 32; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    bytes += w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    bytes += w.tensor(b + "attn_norm.bias", {e}, test::kF32);
    bytes += w.tensor(b + "attn_q.weight", {e, e}, test::kF16);
    bytes += w.tensor(b + "attn_k.weight", {e, kv}, test::kF16);
    bytes += w.tensor(b + "attn_v.weight", {e, kv}, test::kF16);
    bytes += w.tensor(b + "attn_output.weight", {e, e}, test::kF16);
    bytes += w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    bytes += w.tensor(b + "ffn_norm.bias", {e}, test::kF32);
    bytes += w.tensor(b + "ffn_up.weight", {e, ff}, test::kF16);
    bytes += w.tensor(b + "ffn_down.weight", {ff, e}, test::kF16);
  }
  const Model c = from_config(nemotron_mini_4b());
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total(), static_cast<std::int64_t>(bytes));
}

// The published files (bartowski/Nemotron-Mini-4B-Instruct-GGUF, llama.cpp
// b3715, file table as above): F16 8.39 GB, Q8_0 4.46 GB, Q4_K_M 2.70 GB,
// each with its 256000-token vocabulary in the header (a few MB).
TEST(Nemotron, WeightsMatchThePublishedFiles) {
  const Model c = from_config(nemotron_mini_4b());
  const auto bytes = [&](const char* p) {
    return static_cast<double>(weight_layout(c, *parse_precision(p)).total());
  };
  EXPECT_LT(rel(bytes("f16"), 8.39e9), 0.01) << bytes("f16");
  EXPECT_LT(rel(bytes("q8_0"), 4.46e9), 0.01) << bytes("q8_0");
  EXPECT_LT(rel(bytes("q4_k_m"), 2.70e9), 0.01) << bytes("q4_k_m");
}

// The GPT-2 style the ungated MLP once implied: a fused QKV with its bias and
// MLP biases, none of which nemotron.cpp creates for Nemotron's checkpoints.
TEST(Nemotron, NoProjectionOrMlpBiases) {
  const Model c = from_config(nemotron_mini_4b());
  Model gpt2_style = c;
  gpt2_style.arch.norm_bias = false;  // GPT-2's block on the same shape
  gpt2_style.arch.gpt2_layer = true;
  const Precision p = *parse_precision("f16");
  // q, k, v biases (3072 + 1024 + 1024), o's (3072), up's (9216), down's
  // (3072): F32, 32 layers.
  EXPECT_EQ(weight_layout(gpt2_style, p).total() - weight_layout(c, p).total(),
            std::int64_t{32} * (3072 + 1024 + 1024 + 3072 + 9216 + 3072) * 4);
}

// The catalogue's entry (data/models.json nemotron-mini-4b, family
// nemotron), named by its Ollama tag: the config.json's estimate, weights
// and all.
TEST(Nemotron, CatalogueEntryByItsOllamaTagIsTheConfig) {
  auto db = ModelDb::parse(app::embedded_models_json(), "embedded");
  ASSERT_TRUE(db.ok());
  auto found = db->find("nemotron-mini");
  ASSERT_TRUE(found.ok());
  const Model& cat = found->entry->model;
  EXPECT_EQ(cat.id, "nemotron-mini-4b");
  EXPECT_TRUE(cat.arch.norm_bias);
  EXPECT_FALSE(cat.arch.mlp_gated);
  const Model config = from_config(nemotron_mini_4b());
  test::expect_same_estimate(cat, config, "catalogue vs config", kEstimateGrid);
  const Precision p = *parse_precision("q4_k_m");
  EXPECT_EQ(weight_layout(cat, p).total(), weight_layout(config, p).total());
}

}  // namespace
}  // namespace willfit
