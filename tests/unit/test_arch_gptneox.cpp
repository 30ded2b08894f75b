// GPT-NeoX (EleutherAI Pythia 70M..12B, GPT-NeoX-20B; transformers
// model_type gpt_neox, llama.cpp `gptneox`), issue 18. llama.cpp's
// gptneox.cpp (at 80fb11ac) builds GPT-2's layer with RoPE in place of the
// position table: LayerNorms with bias, one fused QKV projection with its
// bias whose Q and K views are roped (partial rotary: rope.dimension_count,
// which sizes no tensor), biases on wo, up and down, a GELU MLP, an untied
// output (embed_out), and, when use_parallel_residual, the attention and
// the MLP each norm the layer input and the layer adds both to it. Each
// model is read from its published config.json and from the GGUF header
// llama.cpp's converter writes for it, and both must give one estimate; the
// totals come from the Pythia model cards.
#include <cmath>
#include <cstdint>
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
#include "willfit/models/model_db.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;

using test::catalogue_model;
using test::rel;

Model read_config(const Json& j) {
  return test::from_config(j);
}

// The header alone, read as the start of a file of the full size.
Model read_header(const test::GgufWriter& w) {
  std::string bytes = w.header();
  bytes.resize((bytes.size() + 31) / 32 * 32, '\0');
  auto parsed = read_gguf(bytes, bytes.size() + w.data_size());
  EXPECT_TRUE(parsed.ok() && parsed->file.has_value());
  if (!parsed.ok() || !parsed->file) {
    return Model{};
  }
  auto m = model_from_gguf(*parsed->file, "model.gguf");
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return m.ok() ? *m : Model{};
}

// Where two readings of one model are compared (test::expect_same_estimate):
// 512 and 2 Ki tokens, flash attention off and on, at Q4_K_M.
const test::EstimateGrid kEstimateGrid{.contexts = {512, 2048},
                                       .params = test::EstimateGrid::Params::None};

// ---- the configs -------------------------------------------------------------
//
// EleutherAI/pythia-1.4b (the hub is not reachable here): 24 layers, hidden
// 2048, 16 attention heads, 2048 positions, a 50,304-token vocabulary (a
// project's notes on the checkpoint's bundled config,
// a public Markdown research note on a Pythia-based reader ('Phase B remains incomplete. The
// factorized encoder is retained as an experimental representation candidate'); the Pythia table
// "24/2048/16", a public research note on Pythia and Cerebras-GPT (citing the Appendix E Table 12
// parameter-count formula used for params_total in runs.csv)); intermediate_size 8192 (llama.cpp
// gptneox.cpp load_arch_hparams: 24 layers with n_ff 8192 is LLM_TYPE_1_4B); rotary_pct 0.25,
// rotary_emb_base 10000, use_parallel_residual true, tie_word_embeddings false, layer_norm_eps
// 1e-5, hidden_act gelu as every Pythia config.json sets them (the
// pythia-6.9b-deduped and pythia-12b-deduped configs below; pythia-14m's,
// a public Python Modal training matrix script ('t4_perturb', '=== MATRIX SUMMARY ===')).
Json pythia_1_4b_config() {
  return {{"model_type", "gpt_neox"},
          {"architectures", {"GPTNeoXForCausalLM"}},
          {"hidden_size", 2048},
          {"num_hidden_layers", 24},
          {"num_attention_heads", 16},
          {"intermediate_size", 8192},
          {"max_position_embeddings", 2048},
          {"vocab_size", 50304},
          {"rotary_pct", 0.25},
          {"rotary_emb_base", 10000},
          {"use_parallel_residual", true},
          {"tie_word_embeddings", false},
          {"layer_norm_eps", 1e-5},
          {"hidden_act", "gelu"}};
}

// EleutherAI/pythia-6.9b-deduped and pythia-12b-deduped (the same shapes as
// the non-deduplicated runs), their GPTNeoXConfig as printed by
// transformers 4.45.2 in Retruth/deontic nlp_models/pythia/README.md (commit
// a77cf87a): hidden 4096 / 5120, intermediate 16384 / 20480, 32 / 40 heads,
// 32 / 36 layers, vocab 50432 / 50688, 2048 positions, rotary_pct 0.25,
// use_parallel_residual true, untied.
Json pythia_config(int hidden, int ffn, int heads, int layers, int vocab) {
  Json j = pythia_1_4b_config();
  j["hidden_size"] = hidden;
  j["intermediate_size"] = ffn;
  j["num_attention_heads"] = heads;
  j["num_hidden_layers"] = layers;
  j["vocab_size"] = vocab;
  return j;
}

// EleutherAI/gpt-neox-20b: vocab 50432, hidden 6144, 44 layers, 64 heads,
// intermediate 24576, rotary_pct 0.25, 2048 positions, untied, parallel
// residual, as Cerebras/modelzoo's converter takes the Hugging Face side's
// values (checkpoint_converters gpt_neox_hf_cs.py, pre_convert_defaults of
// ConfigConverter_GPT_Neox_HF_CS17; a public Python Cerebras checkpoint converter
// (ConfigConverter_GPT_Neox_HF_CS17; formats FormatVersions('hf') and cs-2.1 to cs-2.5)).
Json gpt_neox_20b_config() {
  return pythia_config(6144, 24576, 64, 44, 50432);
}

// The GGUF llama.cpp's converter writes (conversion/gptneox.py
// GPTNeoXModel.set_gguf_parameters at 80fb11ac): context_length from
// max_position_embeddings, embedding_length, block_count,
// feed_forward_length, rope.dimension_count = rotary_pct x head width,
// head_count, use_parallel_residual, layer_norm_epsilon; the tensors
// gptneox.cpp loads: token_embd, output_norm with bias, output (embed_out),
// per layer attn_norm and ffn_norm with biases, attn_qkv, attn_output,
// ffn_up and ffn_down, each with its bias.
test::GgufWriter neox_gguf(std::uint32_t layers, std::uint32_t hidden, std::uint32_t heads,
                           std::uint32_t ffn, std::uint64_t vocab, bool parallel = true,
                           bool with_layers = true) {
  const std::string a = "gptneox";
  const std::uint64_t e = hidden;
  const std::uint64_t f = ffn;
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".context_length", 2048);
  w.u32(a + ".embedding_length", hidden);
  w.u32(a + ".block_count", layers);
  w.u32(a + ".feed_forward_length", ffn);
  w.u32(a + ".rope.dimension_count", hidden / heads / 4);
  w.u32(a + ".attention.head_count", heads);
  w.boolean(a + ".use_parallel_residual", parallel);
  w.f32(a + ".attention.layer_norm_epsilon", 1e-5F);
  w.u32("general.file_type", 1);
  w.tensor("token_embd.weight", {e, vocab}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  w.tensor("output_norm.bias", {e}, test::kF32);
  w.tensor("output.weight", {e, vocab}, test::kF16);
  for (std::uint32_t i = 0; with_layers && i < layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_norm.bias", {e}, test::kF32);
    w.tensor(b + "attn_qkv.weight", {e, 3 * e}, test::kF16);
    w.tensor(b + "attn_qkv.bias", {3 * e}, test::kF32);
    w.tensor(b + "attn_output.weight", {e, e}, test::kF16);
    w.tensor(b + "attn_output.bias", {e}, test::kF32);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_norm.bias", {e}, test::kF32);
    w.tensor(b + "ffn_up.weight", {e, f}, test::kF16);
    w.tensor(b + "ffn_up.bias", {f}, test::kF32);
    w.tensor(b + "ffn_down.weight", {f, e}, test::kF16);
    w.tensor(b + "ffn_down.bias", {e}, test::kF32);
  }
  return w;
}

// ---- Pythia-1.4B ----------------------------------------------------------------

TEST(GptNeox, Pythia14bConfigIsKnownAndCountsTheCardsTotal) {
  const Model m = read_config(pythia_1_4b_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  EXPECT_EQ(m.arch.layers, 24);
  EXPECT_EQ(m.arch.hidden_size, 2048);
  EXPECT_EQ(m.arch.heads, 16);
  EXPECT_EQ(m.arch.kv_heads, 16);
  EXPECT_EQ(m.arch.head_dim, 128);
  EXPECT_EQ(m.arch.intermediate_size, 8192);
  EXPECT_FALSE(m.arch.mlp_gated);          // dense_h_to_4h, GELU, dense_4h_to_h
  EXPECT_FALSE(m.arch.tied_embeddings);    // embed_out
  EXPECT_EQ(m.arch.learned_positions, 0);  // RoPE
  EXPECT_TRUE(m.arch.attention.fused_qkv);
  EXPECT_TRUE(m.arch.qkv_bias);
  EXPECT_EQ(m.arch.attention.parallel_block, ParallelBlock::NeoX);
  // The Pythia card: 1,414,647,808 total parameters (EleutherAI/pythia-1.4b
  // README's table, a public copy of the Pythia-12B-deduped model card ('# Pythia-12B-deduped',
  // with the table under '### Naming convention and parameter count'); mirrored in
  // shimo-lab/modelmap 1000models/.../model_cards/EleutherAI_pythia-12b.md).
  EXPECT_LT(rel(static_cast<double>(count_params(m.arch).total()), 1414647808.0), 0.01)
      << count_params(m.arch).total();
}

// llama.cpp caches every head (16 K and 16 V heads of 128 a layer): at 2048
// tokens in F16, 24 x 2 x 2048 x 2 bytes x 2048 = 384 MiB.
TEST(GptNeox, Pythia14bKvCacheIsEveryHead) {
  const Model m = read_config(pythia_1_4b_config());
  EXPECT_EQ(kv_cache_bytes(m.arch, {2048, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{24} * 2 * 2048 * 2 * 2048);
  EXPECT_EQ(std::int64_t{24} * 2 * 2048 * 2 * 2048, std::int64_t{384} << 20);
}

TEST(GptNeox, Pythia14bGgufHeaderGivesWhatTheConfigGives) {
  const Model g = read_header(neox_gguf(24, 2048, 16, 8192, 50304));
  const Model c = read_config(pythia_1_4b_config());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_FALSE(g.arch.mlp_gated);
  EXPECT_FALSE(g.arch.tied_embeddings);
  EXPECT_EQ(g.arch.head_dim, 128);  // not rope.dimension_count (32)
  EXPECT_EQ(g.arch.attention.parallel_block, ParallelBlock::NeoX);
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
  test::expect_same_estimate(g, c, "pythia-1.4b GGUF vs config", kEstimateGrid);
  // The tensors hold the card's total exactly: weights, biases, LayerNorms.
  EXPECT_EQ(g.params, 1414647808);
  // The weights counted layer by layer (weight_layout) agree with the file.
  const Precision f16 = *parse_precision("f16");
  EXPECT_LT(rel(static_cast<double>(weight_layout(c, f16).total()),
                static_cast<double>(weight_layout(g, f16).total())),
            0.001);
}

// The same reading with a quantised cache (rotated K and V) and no flash
// attention, where V is stored transposed.
TEST(GptNeox, Pythia14bQuantisedCacheReadsAsOneModel) {
  const Model g = read_header(neox_gguf(24, 2048, 16, 8192, 50304));
  const Model c = read_config(pythia_1_4b_config());
  InferenceQuery q;
  q.precision = *parse_precision("q4_k_m");
  q.runtime = Runtime::LlamaCpp;
  q.context = 2048;
  q.kv_type = *parse_kv_type("q8_0");
  for (const bool flash : {false, true}) {
    q.flash_attention = flash ? FlashAttention::On : FlashAttention::Off;
    q.model = g;
    const Estimate x = estimate_inference(q);
    q.model = c;
    const Estimate y = estimate_inference(q);
    EXPECT_EQ(x.memory.kv_cache, y.memory.kv_cache);
    EXPECT_EQ(x.memory.compute, y.memory.compute);
  }
}

// use_parallel_residual false (gptneox.cpp's sequential branch: GPT-2's
// residuals) is read the same from both files.
TEST(GptNeox, SequentialResidualReadsTheSameFromBothFiles) {
  Json j = pythia_1_4b_config();
  j["use_parallel_residual"] = false;
  const Model c = read_config(j);
  const Model g = read_header(neox_gguf(24, 2048, 16, 8192, 50304, false));
  EXPECT_EQ(c.arch.attention.parallel_block, ParallelBlock::None);
  EXPECT_EQ(g.arch.attention.parallel_block, ParallelBlock::None);
  test::expect_same_estimate(g, c, "sequential gptneox", kEstimateGrid);
  EXPECT_EQ(count_params(c.arch).total(),
            count_params(read_config(pythia_1_4b_config()).arch).total());
}

// A header without the layers' tensors is still gptneox.cpp's layer.
TEST(GptNeox, HeaderWithoutLayerTensorsIsStillTheNeoxLayer) {
  const Model g = read_header(neox_gguf(24, 2048, 16, 8192, 50304, true, false));
  EXPECT_FALSE(g.arch.mlp_gated);
  EXPECT_TRUE(g.arch.attention.fused_qkv);
  test::expect_same_estimate(g, read_config(pythia_1_4b_config()), "gptneox header only",
                             kEstimateGrid);
}

// ---- Pythia-6.9B, Pythia-12B, GPT-NeoX-20B ------------------------------------------

TEST(GptNeox, LargerPythiasCountTheCardsTotals) {
  // The cards' totals (a public copy of the Pythia-12B-deduped model card ('# Pythia-12B-deduped',
  // with the table under '### Naming convention and parameter count')): 6,857,302,016 and
  // 11,846,072,320.
  const Model p69 = read_config(pythia_config(4096, 16384, 32, 32, 50432));
  const Model p12 = read_config(pythia_config(5120, 20480, 40, 36, 50688));
  EXPECT_LT(rel(static_cast<double>(count_params(p69.arch).total()), 6857302016.0), 0.01);
  EXPECT_LT(rel(static_cast<double>(count_params(p12.arch).total()), 11846072320.0), 0.01);
  test::expect_same_estimate(read_header(neox_gguf(32, 4096, 32, 16384, 50432)), p69, "pythia-6.9b",
                             kEstimateGrid);
  test::expect_same_estimate(read_header(neox_gguf(36, 5120, 40, 20480, 50688)), p12, "pythia-12b",
                             kEstimateGrid);
}

TEST(GptNeox, GptNeox20bIsTwentyBillion) {
  const Model m = read_config(gpt_neox_20b_config());
  EXPECT_TRUE(m.unchecked_architecture.empty());
  // "GPT-NeoX-20B is a 20 billion parameter autoregressive language model"
  // (the model card); 20.55 B counted (44 x 453.0 M + 2 x 309.9 M).
  const auto total = static_cast<double>(count_params(m.arch).total());
  EXPECT_GT(total, 20.0e9);
  EXPECT_LT(total, 20.7e9);
  test::expect_same_estimate(read_header(neox_gguf(44, 6144, 64, 24576, 50432)), m, "gpt-neox-20b",
                             kEstimateGrid);
}

// ---- the catalogue ---------------------------------------------------------------

TEST(GptNeox, CatalogueAgreesWithTheConfigs) {
  for (const auto& [id, config] :
       {std::pair{std::string("pythia-1.4b"), pythia_1_4b_config()},
        std::pair{std::string("pythia-6.9b"), pythia_config(4096, 16384, 32, 32, 50432)},
        std::pair{std::string("pythia-12b"), pythia_config(5120, 20480, 40, 36, 50688)}}) {
    const Model cat = catalogue_model(id);
    const Model c = read_config(config);
    EXPECT_EQ(cat.arch.attention.parallel_block, ParallelBlock::NeoX) << id;
    test::expect_same_estimate(cat, c, id, kEstimateGrid);
    const Precision p = *parse_precision("q4_k_m");
    EXPECT_LT(rel(static_cast<double>(weight_layout(cat, p).total()),
                  static_cast<double>(weight_layout(c, p).total())),
              0.01)
        << id;
  }
}

}  // namespace
}  // namespace willfit
