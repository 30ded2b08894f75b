// GPT-BigCode (StarCoder 1: bigcode/starcoder, StarCoderBase 1B/3B/7B/15B,
// WizardCoder-15B, SQLCoder; transformers model_type gpt_bigcode, llama.cpp
// `starcoder`), issue 18. llama.cpp's starcoder.cpp (at 80fb11ac) builds
// gpt2.cpp's graph: learned absolute positions (pos_embd, hidden x
// n_ctx_train) added to the token embeddings, LayerNorm with bias, one fused
// QKV projection with bias, multi-query attention (conversion/starcoder.py
// writes head_count_kv 1), a GELU MLP with biases, the output tied unless
// the file has output.weight. Each model is read from its published
// config.json and from the GGUF header llama.cpp's converter writes for it,
// and both must give one estimate; the KV sizes are worked out by hand here
// from llama.cpp's cache layout and the totals come from the model cards.
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

// The header alone (the 15.5B's tensor data would be 31 GB of zeros), read
// as the start of a file of the full size.
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
// 2 Ki and 8 Ki tokens, flash attention off and on, at Q4_K_M.
const test::EstimateGrid kEstimateGrid{.contexts = {2048, 8192},
                                       .params = test::EstimateGrid::Params::None};

// ---- the configs -------------------------------------------------------------
//
// bigcode/starcoder config.json (the hub is not reachable here): n_embd 6144,
// n_layer 40, n_head 48, n_inner 24576, vocab_size 49152, n_positions 8192,
// multi_query true, tie_word_embeddings true, model_type gpt_bigcode,
// architectures GPTBigCodeForCausalLM, as Cerebras/modelzoo transcribes them
// for its converter (src/cerebras/modelzoo/tools/checkpoint_converters/
// starcoder.py at 244523ac, ConfigConverter_StarcoderModel_HF_CS20: the HF
// side's defaults). layer_norm_epsilon 1e-5: transformers' GPTBigCodeConfig
// default.
Json starcoder_config() {
  return {{"model_type", "gpt_bigcode"},
          {"architectures", {"GPTBigCodeForCausalLM"}},
          {"n_embd", 6144},
          {"n_layer", 40},
          {"n_head", 48},
          {"n_inner", 24576},
          {"n_positions", 8192},
          {"vocab_size", 49152},
          {"multi_query", true},
          {"tie_word_embeddings", true},
          {"layer_norm_epsilon", 1e-5},
          {"activation_function", "gelu_pytorch_tanh"}};
}

// bigcode/starcoderbase-1b: 24 layers, hidden 2048, 16 attention heads,
// multi-query, learned absolute positions, StarCoder's tokenizer (the 1B
// ablation card RaymondLi/sc2-1b-data-ablation, which trains this shape;
// pages search), a context window of 8192 tokens (the starcoderbase-1b model
// card), vocabulary 49152 (StarCoder's, above); n_inner 8192 = 4 n_embd, as
// in the same-shaped bigcode/gpt_bigcode-santacoder config.json a public Rust
// port quotes field for field (a public Rust test of an MLX GPT-BigCode port ('multi_query: false
// must cache one KV head per query head')). No tie_word_embeddings key: GPTBigCodeConfig leaves
// PretrainedConfig's True.
Json starcoderbase_1b_config() {
  return {{"model_type", "gpt_bigcode"},
          {"architectures", {"GPTBigCodeForCausalLM"}},
          {"n_embd", 2048},
          {"n_layer", 24},
          {"n_head", 16},
          {"n_inner", 8192},
          {"n_positions", 8192},
          {"vocab_size", 49152},
          {"multi_query", true},
          {"layer_norm_epsilon", 1e-5},
          {"activation_function", "gelu_pytorch_tanh"}};
}

// The GGUF llama.cpp's converter writes for them (conversion/starcoder.py
// StarCoderModel.set_gguf_parameters at 80fb11ac): context_length from
// n_positions, embedding_length, feed_forward_length 4 n_embd, block_count,
// head_count, head_count_kv 1 (always), layer_norm_epsilon, file_type; the
// tokenizer's vocabulary sizes token_embd. The tensors starcoder.cpp loads:
// token_embd, position_embd (hidden x n_ctx_train), output_norm with bias,
// no output.weight (tied: GPTBigCodeForCausalLM's lm_head is the wte, not
// stored apart), per layer two LayerNorms, attn_qkv, attn_output, ffn_up and
// ffn_down, each with its bias.
test::GgufWriter starcoder_gguf(std::uint32_t layers, std::uint32_t hidden, std::uint32_t heads,
                                bool with_layers = true) {
  const std::string a = "starcoder";
  const std::uint64_t e = hidden;
  const std::uint64_t qkv = e + 2 * (e / heads);
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".context_length", 8192);
  w.u32(a + ".embedding_length", hidden);
  w.u32(a + ".feed_forward_length", 4 * hidden);
  w.u32(a + ".block_count", layers);
  w.u32(a + ".attention.head_count", heads);
  w.u32(a + ".attention.head_count_kv", 1);
  w.f32(a + ".attention.layer_norm_epsilon", 1e-5F);
  w.u32("general.file_type", 1);
  w.tensor("token_embd.weight", {e, 49152}, test::kF16);
  w.tensor("position_embd.weight", {e, 8192}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  w.tensor("output_norm.bias", {e}, test::kF32);
  for (std::uint32_t i = 0; with_layers && i < layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_norm.bias", {e}, test::kF32);
    w.tensor(b + "attn_qkv.weight", {e, qkv}, test::kF16);
    w.tensor(b + "attn_qkv.bias", {qkv}, test::kF32);
    w.tensor(b + "attn_output.weight", {e, e}, test::kF16);
    w.tensor(b + "attn_output.bias", {e}, test::kF32);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_norm.bias", {e}, test::kF32);
    w.tensor(b + "ffn_up.weight", {e, 4 * e}, test::kF16);
    w.tensor(b + "ffn_up.bias", {4 * e}, test::kF32);
    w.tensor(b + "ffn_down.weight", {4 * e, e}, test::kF16);
    w.tensor(b + "ffn_down.bias", {e}, test::kF32);
  }
  return w;
}

// ---- StarCoder 15.5B -----------------------------------------------------------

TEST(Bigcode, StarcoderConfigIsKnownAndCountsTheCardsTotal) {
  const Model m = read_config(starcoder_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  EXPECT_EQ(m.arch.layers, 40);
  EXPECT_EQ(m.arch.hidden_size, 6144);
  EXPECT_EQ(m.arch.heads, 48);
  EXPECT_EQ(m.arch.kv_heads, 1);  // multi_query
  EXPECT_EQ(m.arch.head_dim, 128);
  EXPECT_EQ(m.arch.intermediate_size, 24576);
  EXPECT_FALSE(m.arch.mlp_gated);  // c_fc, GELU, c_proj
  EXPECT_TRUE(m.arch.tied_embeddings);
  EXPECT_EQ(m.arch.max_context, 8192);
  EXPECT_EQ(m.arch.learned_positions, 8192);  // wpe
  // The card and the paper: "15.5B parameter models" (bigcode/starcoder;
  // arXiv 2305.06161, as llm-bible/llm-bible.github.io
  // _publications/li2023may.markdown quotes its abstract).
  EXPECT_LT(rel(static_cast<double>(count_params(m.arch).total()), 15.5e9), 0.01)
      << count_params(m.arch).total();
}

// llama.cpp caches one K and one V head of 128 a layer (multi-query): at 8192
// tokens in F16, 40 x 2 x 128 x 2 bytes x 8192 = 160 MiB, one forty-eighth
// of what 48 KV heads would hold.
TEST(Bigcode, StarcoderKvCacheIsOneHeadALayer) {
  const Model m = read_config(starcoder_config());
  EXPECT_EQ(kv_cache_bytes(m.arch, {8192, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{40} * 2 * 128 * 2 * 8192);
  EXPECT_EQ(std::int64_t{40} * 2 * 128 * 2 * 8192, std::int64_t{160} << 20);
}

TEST(Bigcode, StarcoderGgufHeaderGivesWhatTheConfigGives) {
  const Model g = read_header(starcoder_gguf(40, 6144, 48));
  const Model c = read_config(starcoder_config());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_EQ(g.arch.kv_heads, 1);
  EXPECT_EQ(g.arch.head_dim, 128);
  EXPECT_FALSE(g.arch.mlp_gated);
  EXPECT_TRUE(g.arch.tied_embeddings);
  EXPECT_EQ(g.arch.learned_positions, 8192);
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
  test::expect_same_estimate(g, c, "starcoder GGUF vs config", kEstimateGrid);
  // The tensors hold the count above plus the biases and LayerNorms, which
  // the architecture's count leaves out (under 0.1 %).
  EXPECT_LT(rel(static_cast<double>(g.params), static_cast<double>(count_params(c.arch).total())),
            0.001);
}

// A header without the layers' tensors (or a file whose names were not
// read) is still starcoder.cpp's block: no gate, the position table.
TEST(Bigcode, HeaderWithoutLayerTensorsIsStillUngated) {
  const Model g = read_header(starcoder_gguf(40, 6144, 48, false));
  EXPECT_FALSE(g.arch.mlp_gated);
  EXPECT_EQ(g.arch.learned_positions, 8192);
  test::expect_same_estimate(g, read_config(starcoder_config()), "starcoder header only",
                             kEstimateGrid);
}

// ---- StarCoderBase-1B ------------------------------------------------------------

TEST(Bigcode, Starcoderbase1bReadsAsOneModel) {
  const Model c = read_config(starcoderbase_1b_config());
  const Model g = read_header(starcoder_gguf(24, 2048, 16));
  EXPECT_TRUE(c.unchecked_architecture.empty()) << c.unchecked_architecture;
  EXPECT_TRUE(c.arch.tied_embeddings);
  EXPECT_EQ(c.arch.kv_heads, 1);
  EXPECT_EQ(c.arch.learned_positions, 8192);
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
  test::expect_same_estimate(g, c, "starcoderbase-1b GGUF vs config", kEstimateGrid);
  // The card says "a 1B parameter model"; the count is 1.137 B (the table
  // of 8192 positions alone is 16.8 M): a 1B class, not SantaCoder's 1.1B.
  const auto total = static_cast<double>(count_params(c.arch).total());
  EXPECT_GT(total, 1.0e9);
  EXPECT_LT(total, 1.15e9);
}

// ---- the catalogue ---------------------------------------------------------------

TEST(Bigcode, CatalogueAgreesWithTheConfigs) {
  for (const auto& [id, config] :
       {std::pair{std::string("starcoder-15b"), starcoder_config()},
        std::pair{std::string("starcoderbase-1b"), starcoderbase_1b_config()}}) {
    const Model cat = catalogue_model(id);
    const Model c = read_config(config);
    EXPECT_EQ(cat.arch.learned_positions, 8192) << id;
    test::expect_same_estimate(cat, c, id, kEstimateGrid);
    const Precision p = *parse_precision("q4_k_m");
    EXPECT_LT(rel(static_cast<double>(weight_layout(cat, p).total()),
                  static_cast<double>(weight_layout(c, p).total())),
              0.01)
        << id;
  }
}

// ---- GPT-2 shares the block ------------------------------------------------------

// gpt2.cpp is starcoder.cpp's graph (the same tensors, the same nodes): a
// GGUF header of it reads the same position table and ungated MLP, and its
// config.json (n_positions 1024) the same.
TEST(Bigcode, Gpt2SharesTheBlock) {
  test::GgufWriter w;
  w.str("general.architecture", "gpt2");
  w.u32("gpt2.context_length", 1024);
  w.u32("gpt2.embedding_length", 768);
  w.u32("gpt2.feed_forward_length", 3072);
  w.u32("gpt2.block_count", 12);
  w.u32("gpt2.attention.head_count", 12);
  w.f32("gpt2.attention.layer_norm_epsilon", 1e-5F);
  w.tensor("token_embd.weight", {768, 50257}, test::kF16);
  w.tensor("position_embd.weight", {768, 1024}, test::kF16);
  const Model g = read_header(w);
  EXPECT_FALSE(g.arch.mlp_gated);
  EXPECT_EQ(g.arch.learned_positions, 1024);
  // openai-community/gpt2 (the catalogue's row): n_embd 768, n_layer 12,
  // n_head 12, n_positions 1024, vocab 50257; 124,439,808 parameters exactly
  // (keras-hub gpt2_presets.py), the position table included.
  const Model c = read_config({{"model_type", "gpt2"},
                               {"n_embd", 768},
                               {"n_layer", 12},
                               {"n_head", 12},
                               {"n_positions", 1024},
                               {"vocab_size", 50257}});
  EXPECT_EQ(c.arch.learned_positions, 1024);
  test::expect_same_estimate(g, c, "gpt2 GGUF vs config", kEstimateGrid);
  // Weights and biases beside: 124,439,808 - 124,318,464 (the counted
  // matrices and tables) = 121,344 (the LayerNorms and biases).
  EXPECT_LT(rel(static_cast<double>(count_params(c.arch).total()), 124439808.0), 0.001);
}

}  // namespace
}  // namespace willfit
