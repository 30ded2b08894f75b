// The ALiBi decoders llama.cpp runs (issue 18): BLOOM / BLOOMZ (`bloom`) and
// MPT (`mpt`) and Jais (`jais`).
// Their positions are ALiBi slopes applied inside the softmax or the flash
// attention kernel (llama-graph.cpp build_attn_mha passes
// hparams.f_max_alibi_bias to ggml_soft_max_ext and ggml_flash_attn_ext at
// 80fb11ac): no position table, no RoPE and no inp_pos in the graph, and a
// KV cache like any other. bloom.cpp (at 80fb11ac) builds GPT-2's layer
// without the position table: LayerNorms with bias, one fused QKV with
// bias, biases on wo, up and down, a GELU MLP, the output tied unless the
// file has output.weight, and one LayerNorm more, of the token embeddings
// (tok_norm). Each model is read from its published config.json and from
// the GGUF header llama.cpp's converter writes for it, and both must give
// one estimate; the totals come from published parameter counts.
#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>

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

Model read_header(const test::GgufWriter& w) {
  return test::from_gguf_header(w);
}

Estimate llama_estimate(const Model& m, std::int64_t context, bool flash = true) {
  return test::llama_cpp_q4_estimate(m, context, flash);
}

// Where two readings of one model are compared (test::expect_same_estimate):
// 2 Ki and 8 Ki tokens, flash attention off and on, at Q4_K_M.
const test::EstimateGrid kEstimateGrid{.contexts = {2048, 8192},
                                       .params = test::EstimateGrid::Params::None};

// ---- BLOOM -------------------------------------------------------------------
//
// The published shapes (the hub is not reachable here): BLOOM's paper
// (arXiv 2211.05100) table as a public README transcribes it (a public app's Markdown page on BLOOM
// ('# BLOOM #', a table of BLOOM-560M to BLOOM-176B: hidden size, decoder and head numbers, 'Size
// of params')): 560M 1024 hidden / 24 layers / 16 heads, 1.1B 1536 / 24 / 16, 1.7B 2048 / 24 / 16,
// 3B 2560 / 30 / 32, 7.1B 4096 / 30 / 32, 176B 14336 / 70 / 112, all of 2048 tokens; vocabulary
// 250880. The parameter counts: keras-team/keras-hub keras_hub/src/models/bloom/ bloom_presets.py
// at 1f5bf552 (560M 559,214,592, 1.1B 1,065,314,304, 1.7B 1,722,408,960, 3B 3,002,557,440; BLOOMZ
// the same); 7.1B 7,069,016,064 as PEFT prints it for bigscience/bloomz-7b1 (a public notebook
// export fine-tuning bigscience/bloomz-7b1 with PEFT (ending with the loop 'outputs =
// model.generate(**batch, max_new_tokens=10)')); 176B 176,247 M (the table above). config.json keys
// as the checkpoints spell them: bigscience/bloom-560m's n_embed, n_layer, num_attention_heads,
// seq_length 2048, vocab_size 250880 (a public test fixture transcribing
// it, a public pytest file of a BLOOMZ fine-tune (test calling instruct._save_bloomz_full_model,
// match='native reload failure')); layer_norm_epsilon 1e-5 and n_head (the bigscience/bloom config
// a public pipeline transcribes, a public Python generation pipeline for BLOOM (get_num_parameters
// summing self.model.parameters())). No tie_word_embeddings key: BloomConfig leaves
// PretrainedConfig's True (the checkpoints have no lm_head).
struct BloomSize {
  const char* id;
  int layers;
  std::int64_t hidden;
  int heads;
  double params;
};

constexpr BloomSize kBloomSizes[] = {
    {"bloom-560m", 24, 1024, 16, 559214592.0}, {"bloom-1b1", 24, 1536, 16, 1065314304.0},
    {"bloom-1b7", 24, 2048, 16, 1722408960.0}, {"bloom-3b", 30, 2560, 32, 3002557440.0},
    {"bloom-7b1", 30, 4096, 32, 7069016064.0}, {"bloom-176b", 70, 14336, 112, 176247e6},
};

Json bloom_config(const BloomSize& s) {
  return {{"model_type", "bloom"},
          {"architectures", {"BloomForCausalLM"}},
          {"n_embed", s.hidden},
          {"n_layer", s.layers},
          {"n_head", s.heads},
          {"seq_length", 2048},
          {"vocab_size", 250880},
          {"layer_norm_epsilon", 1e-5},
          {"apply_residual_connection_post_layernorm", false}};
}

// The GGUF llama.cpp's converter writes (conversion/bloom.py
// BloomModel.set_gguf_parameters at 80fb11ac): context_length from
// seq_length (else n_embed), embedding_length, feed_forward_length 4 n_embed,
// block_count, head_count and head_count_kv both n_head, layer_norm_epsilon,
// file_type; the tensors bloom.cpp loads: token_embd, token_embd_norm
// (weight, bias), output_norm with bias, no output.weight, per layer two
// LayerNorms, attn_qkv, attn_output, ffn_up and ffn_down, each with its bias.
test::GgufWriter bloom_gguf(const BloomSize& s, bool with_layers = true) {
  const std::string a = "bloom";
  const auto e = static_cast<std::uint64_t>(s.hidden);
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".context_length", 2048);
  w.u32(a + ".embedding_length", static_cast<std::uint32_t>(e));
  w.u32(a + ".feed_forward_length", static_cast<std::uint32_t>(4 * e));
  w.u32(a + ".block_count", static_cast<std::uint32_t>(s.layers));
  w.u32(a + ".attention.head_count", static_cast<std::uint32_t>(s.heads));
  w.u32(a + ".attention.head_count_kv", static_cast<std::uint32_t>(s.heads));
  w.f32(a + ".attention.layer_norm_epsilon", 1e-5F);
  w.u32("general.file_type", 1);
  w.tensor("token_embd.weight", {e, 250880}, test::kF16);
  w.tensor("token_embd_norm.weight", {e}, test::kF32);
  w.tensor("token_embd_norm.bias", {e}, test::kF32);
  w.tensor("output_norm.weight", {e}, test::kF32);
  w.tensor("output_norm.bias", {e}, test::kF32);
  for (int i = 0; with_layers && i < s.layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_norm.bias", {e}, test::kF32);
    w.tensor(b + "attn_qkv.weight", {e, 3 * e}, test::kF16);
    w.tensor(b + "attn_qkv.bias", {3 * e}, test::kF32);
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

TEST(Alibi, BloomConfigsAreKnownAndCountThePublishedTotals) {
  for (const BloomSize& s : kBloomSizes) {
    const Model m = read_config(bloom_config(s));
    EXPECT_TRUE(m.unchecked_architecture.empty()) << s.id;
    EXPECT_EQ(m.arch.layers, s.layers) << s.id;
    EXPECT_EQ(m.arch.hidden_size, s.hidden) << s.id;  // n_embed
    EXPECT_EQ(m.arch.heads, s.heads) << s.id;
    EXPECT_EQ(m.arch.kv_heads, s.heads) << s.id;
    EXPECT_EQ(m.arch.intermediate_size, 4 * s.hidden) << s.id;
    EXPECT_FALSE(m.arch.mlp_gated) << s.id;
    EXPECT_TRUE(m.arch.tied_embeddings) << s.id;
    EXPECT_TRUE(m.arch.attention.alibi) << s.id;
    EXPECT_TRUE(m.arch.embedding_norm) << s.id;
    EXPECT_EQ(m.arch.learned_positions, 0) << s.id;  // ALiBi: no table
    EXPECT_EQ(m.arch.max_context, 2048) << s.id;
    // The count leaves out the biases and LayerNorms (0.06 % of the 560M).
    EXPECT_LT(rel(static_cast<double>(count_params(m.arch).total()), s.params), 0.01)
        << s.id << ": " << count_params(m.arch).total();
  }
}

// A BLOOM config without seq_length (the 176B's as transcribed,
// a public Python test fixture module of model cards and configs (__all__ with _QWEN35_27B_CONFIG,
// _patch_openelm_270m, _patch_starcoder2): hidden_size, n_layer, n_head, vocab_size only):
// llama.cpp's converter writes n_embed as the context, and the config is read so.
TEST(Alibi, BloomWithoutSeqLengthTakesTheConvertersContext) {
  const Model m = read_config({{"model_type", "bloom"},
                               {"hidden_size", 14336},
                               {"n_layer", 70},
                               {"n_head", 112},
                               {"vocab_size", 250880}});
  EXPECT_EQ(m.arch.max_context, 14336);
  EXPECT_EQ(m.arch.hidden_size, 14336);
}

// llama.cpp caches K and V of every head: at 2048 tokens in F16, BLOOM-560M
// holds 24 x 2 x 1024 x 2 bytes x 2048 = 192 MiB; ALiBi changes nothing.
TEST(Alibi, BloomKvCacheIsEveryHead) {
  const Model m = read_config(bloom_config(kBloomSizes[0]));
  EXPECT_EQ(kv_cache_bytes(m.arch, {2048, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{192} << 20);
}

TEST(Alibi, BloomGgufHeadersGiveWhatTheConfigsGive) {
  for (const BloomSize& s : kBloomSizes) {
    const Model g = read_header(bloom_gguf(s));
    const Model c = read_config(bloom_config(s));
    EXPECT_TRUE(g.unchecked_architecture.empty()) << s.id;
    EXPECT_FALSE(g.arch.mlp_gated) << s.id;
    EXPECT_TRUE(g.arch.tied_embeddings) << s.id;
    EXPECT_TRUE(g.arch.attention.alibi) << s.id;
    EXPECT_TRUE(g.arch.embedding_norm) << s.id;
    EXPECT_EQ(g.arch.learned_positions, 0) << s.id;
    EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total()) << s.id;
    test::expect_same_estimate(g, c, std::string(s.id) + " GGUF vs config", kEstimateGrid);
    // The file's tensors are the published count (biases and norms
    // included), within the rounding of the 176B's.
    EXPECT_LT(rel(static_cast<double>(g.params), s.params), 0.001) << s.id << ": " << g.params;
    // The weights willfit lays out for the file are its tensors, byte for
    // byte (F16 matrices, F32 vectors; the embeddings' LayerNorm included).
    const Precision f16 = *parse_precision("f16");
    EXPECT_EQ(weight_layout(c, f16).total(), bloom_gguf(s).data_size()) << s.id;
  }
}

// A header without the layers' tensors is still bloom.cpp's block.
TEST(Alibi, BloomHeaderWithoutLayerTensorsIsStillUngated) {
  const Model g = read_header(bloom_gguf(kBloomSizes[0], false));
  EXPECT_FALSE(g.arch.mlp_gated);
  EXPECT_TRUE(g.arch.embedding_norm);
  test::expect_same_estimate(g, read_config(bloom_config(kBloomSizes[0])), "bloom header only",
                             kEstimateGrid);
}

// ALiBi takes no memory of its own: the compute buffer is the one of the
// same layer with positions, less the position input and plus the
// embeddings' LayerNorm, never more than a few rows of hidden values apart.
TEST(Alibi, BloomComputeBufferIsGpt2sLayerWithoutPositions) {
  const Model c = read_config(bloom_config(kBloomSizes[0]));
  Model positions = c;
  positions.arch.attention.alibi = false;
  positions.arch.embedding_norm = false;
  positions.arch.learned_positions = 2048;
  for (const bool flash : {false, true}) {
    const auto x = static_cast<double>(llama_estimate(c, 4096, flash).memory.compute);
    const auto y = static_cast<double>(llama_estimate(positions, 4096, flash).memory.compute);
    EXPECT_LT(std::abs(x - y), 4.0 * 512 * 1024 * 4) << flash;
  }
}

TEST(Alibi, BloomCatalogueAgreesWithTheConfigs) {
  for (const BloomSize& s : kBloomSizes) {
    for (const std::string prefix : {"bloom", "bloomz"}) {
      const std::string id = prefix + std::string(s.id).substr(5);
      const Model cat = catalogue_model(id);
      const Model c = read_config(bloom_config(s));
      EXPECT_TRUE(cat.arch.attention.alibi) << id;
      EXPECT_TRUE(cat.arch.embedding_norm) << id;
      test::expect_same_estimate(cat, c, id, kEstimateGrid);
      const Precision p = *parse_precision("q4_k_m");
      EXPECT_EQ(weight_layout(cat, p).total(), weight_layout(c, p).total()) << id;
    }
  }
}

// ---- MPT ---------------------------------------------------------------------
//
// mosaicml/mpt-7b's config.json as a public port prints it (a public Markdown note on
// MPT-7B-Instruct generation (ending with a greedy loop, '# stop when each sentence is finished, or
// if we exceed the maximum length')): d_model 4096, n_heads 32, n_layers 32, expansion_ratio 4,
// max_seq_len 2048, vocab_size 50432, no_bias true, attn_config {alibi true,
// alibi_bias_max 8, clip_qkv null}, model_type mpt; no tie_word_embeddings
// key (MPT's logits read wte: its checkpoint has no lm_head, as a conversion
// log of it lists, a public llama.cpp-era pull-request log in Markdown (a diff of ggml CI output:
// 'main:  mem per token =   335944 bytes'): wte, then each block's norm_1 weight, Wqkv, out_proj,
// norm_2, up_proj, down_proj, no bias anywhere). The card's table: 6.7B parameters (a public README
// of an MPT-7B LoRA fine-tuning repository (crediting leehanchung/mpt-lora and tloen/alpaca-lora)).
// MPT-30B's card (a public copy of the mosaicml/mpt-30b model card (its citation 'Introducing
// MPT-30B: Raising the bar for open-source foundation models')): 29.95B parameters, 48 layers, 64
// heads, d_model 7168, vocabulary 50432, sequence length 8192; its config as MPT-7B's with those
// values.
Json mpt_config(int layers, std::int64_t d_model, int heads, std::int64_t seq) {
  return {{"model_type", "mpt"},
          {"architectures", {"MPTForCausalLM"}},
          {"d_model", d_model},
          {"n_heads", heads},
          {"n_layers", layers},
          {"expansion_ratio", 4},
          {"max_seq_len", seq},
          {"vocab_size", 50432},
          {"no_bias", true},
          {"learned_pos_emb", true},
          {"attn_config",
           {{"alibi", true}, {"alibi_bias_max", 8}, {"clip_qkv", nullptr}, {"qk_ln", false}}}};
}

// The GGUF llama.cpp's converter writes (conversion/mpt.py
// MPTModel.set_gguf_parameters at 80fb11ac): context_length from
// max_seq_len, embedding_length, block_count, feed_forward_length 4
// d_model, head_count, no head_count_kv (no kv_n_heads), layer_norm_epsilon
// 1e-5, max_alibi_bias 8; the tensors mpt.cpp loads, MPT-7B's being
// token_embd, output_norm, and per layer attn_norm, attn_qkv, attn_output,
// ffn_norm, ffn_up, ffn_down, weights only (no_bias).
test::GgufWriter mpt_gguf(std::uint32_t layers, std::uint64_t e, std::uint32_t heads,
                          std::uint32_t ctx) {
  const std::string a = "mpt";
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".context_length", ctx);
  w.u32(a + ".embedding_length", static_cast<std::uint32_t>(e));
  w.u32(a + ".block_count", layers);
  w.u32(a + ".feed_forward_length", static_cast<std::uint32_t>(4 * e));
  w.u32(a + ".attention.head_count", heads);
  w.f32(a + ".attention.layer_norm_epsilon", 1e-5F);
  w.f32(a + ".attention.max_alibi_bias", 8.0F);
  w.u32("general.file_type", 1);
  w.tensor("token_embd.weight", {e, 50432}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  for (std::uint32_t i = 0; i < layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_qkv.weight", {e, 3 * e}, test::kF16);
    w.tensor(b + "attn_output.weight", {e, e}, test::kF16);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_up.weight", {e, 4 * e}, test::kF16);
    w.tensor(b + "ffn_down.weight", {4 * e, e}, test::kF16);
  }
  return w;
}

TEST(Alibi, MptConfigsAreKnownAndCountTheCards) {
  for (const auto& [id, config, params] :
       {std::tuple{"mpt-7b", mpt_config(32, 4096, 32, 2048), 6.7e9},
        std::tuple{"mpt-30b", mpt_config(48, 7168, 64, 8192), 29.95e9}}) {
    const Model m = read_config(config);
    EXPECT_TRUE(m.unchecked_architecture.empty()) << id;
    EXPECT_EQ(m.arch.kv_heads, m.arch.heads) << id;
    EXPECT_EQ(m.arch.intermediate_size, 4 * m.arch.hidden_size) << id;
    EXPECT_FALSE(m.arch.mlp_gated) << id;
    EXPECT_TRUE(m.arch.tied_embeddings) << id;
    EXPECT_TRUE(m.arch.attention.alibi) << id;
    EXPECT_FALSE(m.arch.embedding_norm) << id;
    // learned_pos_emb is set, but ALiBi models build no table (MPT's card:
    // "does not use positional embeddings"; mpt.cpp: pos_embd optional).
    EXPECT_EQ(m.arch.learned_positions, 0) << id;
    EXPECT_LT(rel(static_cast<double>(count_params(m.arch).total()), params), 0.01)
        << id << ": " << count_params(m.arch).total();
  }
  EXPECT_EQ(read_config(mpt_config(32, 4096, 32, 2048)).arch.max_context, 2048);
}

// MPT-7B caches K and V of every head: at 2048 tokens in F16, 32 x 2 x 4096
// x 2 bytes x 2048 = 1 GiB.
TEST(Alibi, MptKvCacheIsEveryHead) {
  const Model m = read_config(mpt_config(32, 4096, 32, 2048));
  EXPECT_EQ(kv_cache_bytes(m.arch, {2048, 1, 512, kv_f16(), kv_f16(), 256}), std::int64_t{1} << 30);
}

TEST(Alibi, MptGgufHeadersGiveWhatTheConfigsGive) {
  for (const auto& [layers, e, heads, ctx] : {std::tuple{32U, std::uint64_t{4096}, 32U, 2048U},
                                              std::tuple{48U, std::uint64_t{7168}, 64U, 8192U}}) {
    const Model g = read_header(mpt_gguf(layers, e, heads, ctx));
    const Model c = read_config(mpt_config(static_cast<int>(layers), static_cast<std::int64_t>(e),
                                           static_cast<int>(heads), ctx));
    EXPECT_TRUE(g.unchecked_architecture.empty()) << layers;
    EXPECT_FALSE(g.arch.mlp_gated) << layers;
    EXPECT_TRUE(g.arch.tied_embeddings) << layers;
    EXPECT_TRUE(g.arch.attention.alibi) << layers;
    EXPECT_EQ(g.arch.kv_heads, g.arch.heads) << layers;
    EXPECT_EQ(g.arch.max_context, c.arch.max_context) << layers;
    EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total()) << layers;
    test::expect_same_estimate(g, c, "mpt GGUF vs config", kEstimateGrid);
    // The file holds no biases (no_bias), nor does the layout willfit sizes
    // for MPT (Architecture::gpt2_no_linear_bias, gpt2_no_norm_bias): its
    // F16 weights are the file's (every tensor a multiple of 32 bytes, so
    // no alignment padding either).
    const Bytes laid = weight_layout(c, *parse_precision("f16")).total();
    EXPECT_EQ(laid, weight_layout(g, *parse_precision("f16")).total()) << layers;
    EXPECT_EQ(laid, static_cast<Bytes>(mpt_gguf(layers, e, heads, ctx).data_size())) << layers;
  }
}

TEST(Alibi, MptCatalogueAgreesWithTheConfigs) {
  for (const auto& [id, config] :
       {std::pair{std::string("mpt-7b"), mpt_config(32, 4096, 32, 2048)},
        std::pair{std::string("mpt-30b"), mpt_config(48, 7168, 64, 8192)}}) {
    const Model cat = catalogue_model(id);
    const Model c = read_config(config);
    EXPECT_TRUE(cat.arch.attention.alibi) << id;
    test::expect_same_estimate(cat, c, id, kEstimateGrid);
    const Precision p = *parse_precision("q4_k_m");
    EXPECT_EQ(weight_layout(cat, p).total(), weight_layout(c, p).total()) << id;
  }
}

// ---- Jais ----------------------------------------------------------------------
//
// Jais-13b's shape as Cerebras/modelzoo's training config states it
// (src/cerebras/modelzoo/models/nlp/jais/configs/params_jais_13b.yaml at
// 244523ac): hidden_size 5120, num_hidden_layers 40, num_heads 40,
// filter_size 13653, max_position_embeddings 2048, vocab_size 84992,
// nonlinearity swiglu, position_embedding_type alibi, norm_type layernorm,
// layer_norm_epsilon 1e-5, biases on the projections and the MLP,
// share_embedding_weights true; written here with the keys of the
// checkpoints' config.json (JAISConfig, model_type jais: n_embd, n_layer,
// n_head, n_inner, n_positions, activation_function, position_embedding_type,
// the keys conversion/jais.py reads at 80fb11ac). jais.cpp at 80fb11ac
// requires output.weight: the converter writes the head scaled by the muP
// width scale, a tensor of its own in the file.
Json jais_13b_config() {
  return {{"model_type", "jais"},
          {"architectures", {"JAISLMHeadModel"}},
          {"n_embd", 5120},
          {"n_layer", 40},
          {"n_head", 40},
          {"n_inner", 13653},
          {"n_positions", 2048},
          {"vocab_size", 84992},
          {"activation_function", "swiglu"},
          {"position_embedding_type", "alibi"},
          {"layer_norm_epsilon", 1e-5}};
}

// The GGUF conversion/jais.py writes: block_count, context_length
// (n_positions), embedding_length, feed_forward_length (n_inner),
// head_count (no head_count_kv: every head), layer_norm_epsilon, file_type,
// max_alibi_bias; the tensors jais.cpp loads: token_embd, output_norm with
// bias, output, per layer LayerNorms with biases, attn_qkv and attn_output
// with biases, ffn_up, ffn_gate and ffn_down with biases.
test::GgufWriter jais_gguf(std::uint32_t layers) {
  const std::string a = "jais";
  const std::uint64_t e = 5120;
  const std::uint64_t f = 13653;
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".block_count", layers);
  w.u32(a + ".context_length", 2048);
  w.u32(a + ".embedding_length", static_cast<std::uint32_t>(e));
  w.u32(a + ".feed_forward_length", static_cast<std::uint32_t>(f));
  w.u32(a + ".attention.head_count", 40);
  w.f32(a + ".attention.layer_norm_epsilon", 1e-5F);
  w.u32("general.file_type", 1);
  w.f32(a + ".attention.max_alibi_bias", 8.0F);
  w.tensor("token_embd.weight", {e, 84992}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  w.tensor("output_norm.bias", {e}, test::kF32);
  w.tensor("output.weight", {e, 84992}, test::kF16);
  for (std::uint32_t i = 0; i < layers; ++i) {
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
    w.tensor(b + "ffn_gate.weight", {e, f}, test::kF16);
    w.tensor(b + "ffn_gate.bias", {f}, test::kF32);
    w.tensor(b + "ffn_down.weight", {f, e}, test::kF16);
    w.tensor(b + "ffn_down.bias", {e}, test::kF32);
  }
  return w;
}

TEST(Alibi, JaisConfigIsKnownAndCountsThePaper) {
  const Model m = read_config(jais_13b_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  EXPECT_EQ(m.arch.kv_heads, 40);
  EXPECT_EQ(m.arch.head_dim, 128);
  EXPECT_EQ(m.arch.intermediate_size, 13653);
  EXPECT_TRUE(m.arch.mlp_gated);  // SwiGLU: c_fc, c_fc2, c_proj
  EXPECT_FALSE(m.arch.tied_embeddings);
  EXPECT_TRUE(m.arch.attention.alibi);
  EXPECT_TRUE(m.arch.attention.fused_qkv);
  EXPECT_EQ(m.arch.max_context, 2048);
  // "Jais-13b" (arXiv 2308.16149): trained with one embedding table for the
  // input and the output, which the file holds twice; the model without
  // its copied head is the paper's 13 B within 0.2 %.
  const auto p = count_params(m.arch);
  EXPECT_LT(rel(static_cast<double>(p.total() - p.output), 13e9), 0.01) << p.total();
  EXPECT_EQ(p.output, std::int64_t{5120} * 84992);
}

TEST(Alibi, JaisGgufHeaderGivesWhatTheConfigGives) {
  const Model g = read_header(jais_gguf(40));
  const Model c = read_config(jais_13b_config());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_TRUE(g.arch.mlp_gated);
  EXPECT_FALSE(g.arch.tied_embeddings);
  EXPECT_TRUE(g.arch.attention.alibi);
  EXPECT_EQ(g.arch.kv_heads, 40);
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
  test::expect_same_estimate(g, c, "jais-13b GGUF vs config", kEstimateGrid);
  // The file's biases beyond the layout's (wo's and the MLP's): under 0.05 %.
  const auto laid = static_cast<double>(weight_layout(c, *parse_precision("f16")).total());
  EXPECT_LT(rel(laid, static_cast<double>(jais_gguf(40).data_size())), 0.0005);
}

TEST(Alibi, JaisCatalogueAgreesWithTheConfig) {
  const Model cat = catalogue_model("jais-13b");
  const Model c = read_config(jais_13b_config());
  EXPECT_TRUE(cat.arch.attention.alibi);
  EXPECT_TRUE(cat.arch.attention.fused_qkv);
  test::expect_same_estimate(cat, c, "jais-13b", kEstimateGrid);
  const Precision p = *parse_precision("q4_k_m");
  EXPECT_EQ(weight_layout(cat, p).total(), weight_layout(c, p).total());
}

}  // namespace
}  // namespace willfit
