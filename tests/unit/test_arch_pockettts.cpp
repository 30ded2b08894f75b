// Pocket TTS's backbone (llama.cpp `pockettts`; issue 18). Kyutai's Pocket
// TTS is a continuous audio language model (CALM): a causal transformer
// (flow_lm.transformer) whose output conditions a flow-matching MLP head
// that emits one 32-dim latent a frame, which the Mimi decoder turns into
// audio. llama.cpp's text model is the transformer alone (pockettts.cpp at
// 80fb11ac): LayerNorms with biases, Q, K and V without biases, every head
// cached, RoPE, an ungated GELU MLP (linear1, linear2), no output head (the
// embedding table read again, its logits unused). The flow head and the
// Mimi encoder and decoder go to the mmproj file (conversion/pockettts.py)
// and are not counted. The checkpoint ships no config.json: the converter
// derives one from the tensors' shapes (model_type pockettts), which is
// what willfit reads; and the GGUF header it writes. Both must give one
// estimate.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/catalogue_checks.hpp"
#include "unit/catalogue_model.hpp"
#include "unit/live_rows.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/core/units.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/hf_config.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::rel;

// kyutai/pocket-tts tts_b6369a24 (the hub is not reachable here), as
// kyutai-labs/pocket-tts pocket_tts/config/b6369a24.yaml gives it
// (a public YAML config of Pocket TTS (mimi seanet ratios 6, 5, 4; transformer d_model 512;
// '#weights_path: mimi_b6369a24.safetensors')): flow_lm.transformer d_model 1024, hidden_scale 4,
// num_heads 16, num_layers 6, max_period 10000; lookup_table n_bins 4000; insert_bos_before_voice
// false. The conditioner's table has n_bins + 1 rows (pocket_tts/conditioners/text.py
// LUTConditioner, a public Python text conditioner of Pocket TTS (SentencePieceTokenizer(n_bins,
// tokenizer_path); 'n_bins + 1 for padding'): "+ 1 for padding"), and the converter appends the
// audio BOS row (bos_emb through input_linear): 4002. The config below is the one
// conversion/pockettts.py derives (its _load_hparams: 4096 positions as the KV bound it sets, heads
// of 64, layer_norm_eps 1e-5, rope_theta 10000).
Json pockettts_config(int layers = 6, int vocab = 4002) {
  return {{"architectures", {"PocketTTSModel"}},
          {"model_type", "pockettts"},
          {"num_hidden_layers", layers},
          {"hidden_size", 1024},
          {"intermediate_size", 4096},
          {"max_position_embeddings", 4096},
          {"num_attention_heads", 16},
          {"vocab_size", vocab},
          {"rope_theta", 10000.0},
          {"layer_norm_eps", 1e-5}};
}

// The GGUF llama.cpp's converter writes (conversion/pockettts.py
// PocketTTSModel: TextModel's keys, no head_count_kv or key_length, the
// LayerNorm epsilon) and the tensors pockettts.cpp loads: token_embd (no
// output), LayerNorm weights and biases, in_proj split into Q, K and V,
// out_proj, linear1 as ffn_up and linear2 as ffn_down; F16 matrices, F32
// norms. `bytes` gets the tensors' bytes.
test::GgufWriter pockettts_gguf(std::uint64_t* bytes = nullptr, bool with_layers = true) {
  const std::string a = "pockettts";
  constexpr std::uint64_t e = 1024;
  constexpr std::uint64_t ff = 4096;
  constexpr std::uint64_t vocab = 4002;
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".context_length", 4096);
  w.u32(a + ".embedding_length", e);
  w.u32(a + ".feed_forward_length", ff);
  w.u32(a + ".block_count", 6);
  w.u32(a + ".attention.head_count", 16);
  w.f32(a + ".rope.freq_base", 10000.0F);
  w.f32(a + ".attention.layer_norm_epsilon", 1e-5F);
  w.u32("general.file_type", 1);
  std::uint64_t total = 0;
  total += w.tensor("token_embd.weight", {e, vocab}, test::kF16);
  total += w.tensor("output_norm.weight", {e}, test::kF32);
  total += w.tensor("output_norm.bias", {e}, test::kF32);
  for (int i = 0; with_layers && i < 6; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    total += w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    total += w.tensor(b + "attn_norm.bias", {e}, test::kF32);
    total += w.tensor(b + "attn_q.weight", {e, e}, test::kF16);
    total += w.tensor(b + "attn_k.weight", {e, e}, test::kF16);
    total += w.tensor(b + "attn_v.weight", {e, e}, test::kF16);
    total += w.tensor(b + "attn_output.weight", {e, e}, test::kF16);
    total += w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    total += w.tensor(b + "ffn_norm.bias", {e}, test::kF32);
    total += w.tensor(b + "ffn_up.weight", {e, ff}, test::kF16);
    total += w.tensor(b + "ffn_down.weight", {ff, e}, test::kF16);
  }
  if (bytes != nullptr) {
    *bytes = total;
  }
  return w;
}

// Kyutai's release note counts 100 M generative parameters: a 90 M
// transformer and a 10 M codec decoder (kyutai.org's Pocket TTS post, 13
// January 2026, and a summary of it in the search tool's pages corpus). The
// backbone llama.cpp holds is 79.6 M of the 90 M: the rest is the flow head
// (flow_net, depth 6 of 512) and input_linear, which the converter sends to
// the mmproj file.
TEST(PocketTts, ConfigIsKnownAndCountsTheBackbone) {
  const Model m = test::from_config(pockettts_config());
  EXPECT_TRUE(m.unchecked_architecture.empty());
  EXPECT_TRUE(m.arch.norm_bias);
  EXPECT_FALSE(m.arch.mlp_gated);
  EXPECT_TRUE(m.arch.tied_embeddings);
  EXPECT_EQ(m.arch.kv_heads, 16);
  EXPECT_EQ(m.arch.head_dim, 64);
  const auto params = static_cast<double>(count_params(m.arch).total());
  EXPECT_LT(params, 90e6);
  EXPECT_LT(rel(params, 90e6), 0.15);
}

// Every head cached: at 4096 tokens in F16, 6 x 2 x 1024 x 2 bytes x 4096.
TEST(PocketTts, KvCacheIsEveryHead) {
  const Model m = test::from_config(pockettts_config());
  EXPECT_EQ(kv_cache_bytes(m.arch, {4096, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{6} * 2 * 1024 * 2 * 4096);
}

TEST(PocketTts, GgufHeaderGivesWhatTheConfigGives) {
  for (const bool layers : {true, false}) {
    const Model g = test::from_gguf_header(pockettts_gguf(nullptr, layers));
    const Model c = test::from_config(pockettts_config());
    EXPECT_TRUE(g.unchecked_architecture.empty());
    EXPECT_TRUE(g.arch.norm_bias);
    EXPECT_TRUE(g.arch.tied_embeddings);
    EXPECT_EQ(g.arch.kv_heads, 16);
    EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
    test::expect_same_estimate(g, c, "pockettts GGUF vs config", {1024, 4096});
  }
}

// The weights willfit lays out in F16 are the file's tensors byte for byte.
TEST(PocketTts, WeightsAreTheFilesTensors) {
  const Model c = test::from_config(pockettts_config());
  std::uint64_t bytes = 0;
  pockettts_gguf(&bytes);
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total(), static_cast<std::int64_t>(bytes));
}

// Pocket TTS b6369a24's backbone, whole (make_gguf row
// pocket-tts-b6369a24), against what a real llama.cpp allocated for the
// synthetic F16, Q8_0 and Q4_K_M files
// (tests/data/llamacpp_cpu_compute_pockettts.csv,
// llamacpp_cpu_kv_pockettts.csv; docs/live-llamacpp.md, Pocket TTS run).
TEST(PocketTts, MatchesTheLiveLlamaCpp) {
  const Model m = test::from_config(pockettts_config());
  test::expect_live_tables(m, "pockettts", 27, 0.1);
}

// The catalogue's pocket-tts (data/models.json: the backbone, its LayerNorm
// biases and tied table by the family pockettts) is the model its derived
// config.json gives: the same parameters, weights, KV cache and compute
// buffer. Its published 100 M is the whole generative model: beside the
// backbone, the flow head and the codec decoder (the mmproj file's), counted
// as the projector (`modality` speech).
TEST(PocketTts, CatalogueEntryIsItsConfig) {
  const Model& cat = test::catalogue_model("kyutai/pocket-tts");
  EXPECT_EQ(cat.id, "pocket-tts");
  Model config = test::from_config(pockettts_config());
  EXPECT_TRUE(cat.arch.norm_bias);
  EXPECT_TRUE(cat.arch.tied_embeddings);
  EXPECT_EQ(cat.params, 100'000'000);
  EXPECT_EQ(cat.arch.vision_params, cat.params - count_params(config.arch).total());
  config.params = cat.params;
  config.arch.vision_params = cat.arch.vision_params;
  test::expect_catalogue_is_config("pocket-tts", config, {1024, 4096});
}

}  // namespace
}  // namespace willfit
