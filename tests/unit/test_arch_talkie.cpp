// Talkie (llama.cpp `talkie`, config.json model_type `talkie`; issue 18).
// talkie.cpp at 80fb11ac: a GPT-style decoder with weightless RMS norms
// everywhere (the input embeddings, each layer's two, Q and K after RoPE,
// the output), every head cached, SwiGLU, a per-head gain on Q
// (attn_q_norm {1, heads}), scalar gains on wo and ffn_down, an untied head
// scaled by logit_scale, and the normed embeddings added to every layer's
// output times a per-layer scale (layer_output_scale): they live across the
// whole graph. Read from its published shape and from the GGUF header
// llama.cpp's converter writes; both must give one estimate.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/catalogue_checks.hpp"
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

// talkie-lm/talkie-1930-13b-it (the hub is not reachable here):
// - a public architecture note of a Talkie port (
//   a public Markdown architecture note of a Talkie port with a Discord bot config (provider
//   talkie, model talkie/talkie-1930-13b-it-mlx-8bit, 'You are an Edwardian-era
//   conversationalist')): 40 layers, hidden 5120, 40 heads of 128, vocabulary 65,540 (the
//   instruction-tuned model's), RoPE base 1e6, 2048 training positions;
// - TalkieConfig as ports transcribe it (a public Python TalkieConfig ('Transformers configuration
// for the original Talkie architecture.', vocab_size 65536, n_layer 40, n_embd 5120,
// intermediate_size = int(round(((8 / 3) * n_embd) / 128) * 128)), the
//   transformers port's configuration: intermediate_size = round(8/3 x
//   n_embd / 128) x 128 = 13696, vocab 65536 for the base, untied;
//   a public Python Talkie model loader (printing '[model_loader] {n_params/1e9:.2f}B params',
//   load_tiktoken_tokeniser): intermediate_size 13696);
// - the checkpoints' sizes (Simon Willison's note on the release, as
//   onesentinel.org quotes it): talkie-1930-13b-base 53.1 GB (F32), talkie-
//   1930-13b-it 26.6 GB (BF16).
// num_key_value_heads is not in the config: every head is cached.
Json talkie_config(int layers = 40, int vocab = 65540) {
  return {{"model_type", "talkie"},
          {"architectures", {"TalkieForCausalLM"}},
          {"vocab_size", vocab},
          {"n_layer", layers},
          {"n_head", 40},
          {"n_embd", 5120},
          {"head_dim", 128},
          {"hidden_size", 5120},
          {"num_hidden_layers", layers},
          {"num_attention_heads", 40},
          {"intermediate_size", 13696},
          {"max_position_embeddings", 2048},
          {"rope_theta", 1000000.0},
          {"tie_word_embeddings", false}};
}

// The GGUF llama.cpp's converter writes (conversion/talkie.py TalkieModel:
// TextModel's keys, no head_count_kv, float32's eps, lm_head_gain as
// logit_scale) and the tensors talkie.cpp loads: F16 matrices, no norm
// weights, the Q gain {1, heads}, layer_output_scale {1}, and the wo and
// ffn_down gains as attn_output.scale and ffn_down.scale {1}, all F32.
// `bytes` gets the tensors' bytes (the file's data less its alignment).
test::GgufWriter talkie_gguf(std::uint64_t* bytes = nullptr, bool with_layers = true) {
  const std::string a = "talkie";
  constexpr std::uint64_t e = 5120;
  constexpr std::uint64_t ff = 13696;
  constexpr std::uint64_t vocab = 65540;
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".context_length", 2048);
  w.u32(a + ".embedding_length", e);
  w.u32(a + ".feed_forward_length", ff);
  w.u32(a + ".block_count", 40);
  w.u32(a + ".attention.head_count", 40);
  w.u32(a + ".attention.key_length", 128);
  w.u32(a + ".attention.value_length", 128);
  w.f32(a + ".rope.freq_base", 1e6F);
  w.f32(a + ".attention.layer_norm_rms_epsilon", 1.1920929e-07F);
  w.f32(a + ".logit_scale", 1.0F);
  w.u32("general.file_type", 1);
  std::uint64_t total = 0;
  total += w.tensor("token_embd.weight", {e, vocab}, test::kF16);
  total += w.tensor("output.weight", {e, vocab}, test::kF16);
  for (int i = 0; with_layers && i < 40; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    total += w.tensor(b + "attn_q.weight", {e, e}, test::kF16);
    total += w.tensor(b + "attn_k.weight", {e, e}, test::kF16);
    total += w.tensor(b + "attn_v.weight", {e, e}, test::kF16);
    total += w.tensor(b + "attn_output.weight", {e, e}, test::kF16);
    total += w.tensor(b + "attn_q_norm.weight", {1, 40}, test::kF32);
    total += w.tensor(b + "ffn_gate.weight", {e, ff}, test::kF16);
    total += w.tensor(b + "ffn_up.weight", {e, ff}, test::kF16);
    total += w.tensor(b + "ffn_down.weight", {ff, e}, test::kF16);
    total += w.tensor(b + "layer_output_scale.weight", {1}, test::kF32);
    total += w.tensor(b + "attn_output.scale", {1}, test::kF32);
    total += w.tensor(b + "ffn_down.scale", {1}, test::kF32);
  }
  if (bytes != nullptr) {
    *bytes = total;
  }
  return w;
}

// The base checkpoint's 53.1 GB in F32 and the instruction-tuned one's
// 26.6 GB in BF16, each within 1 %, with their own vocabularies.
TEST(Talkie, ConfigIsKnownAndCountsTheCheckpoints) {
  const Model m = test::from_config(talkie_config());
  EXPECT_TRUE(m.unchecked_architecture.empty());
  EXPECT_TRUE(m.arch.embedding_skip);
  EXPECT_TRUE(m.arch.weightless_norms);
  EXPECT_FALSE(m.arch.tied_embeddings);
  EXPECT_EQ(m.arch.kv_heads, 40);
  EXPECT_EQ(m.arch.intermediate_size, 13696);
  EXPECT_LT(rel(2.0 * static_cast<double>(count_params(m.arch).total()), 26.6e9), 0.01);
  const Model base = test::from_config(talkie_config(40, 65536));
  EXPECT_LT(rel(4.0 * static_cast<double>(count_params(base.arch).total()), 53.1e9), 0.01);
}

// Every head cached: at 2048 tokens in F16, 40 x 2 x 5120 x 2 bytes x 2048.
TEST(Talkie, KvCacheIsEveryHead) {
  const Model m = test::from_config(talkie_config());
  EXPECT_EQ(kv_cache_bytes(m.arch, {2048, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{40} * 2 * 5120 * 2 * 2048);
}

TEST(Talkie, GgufHeaderGivesWhatTheConfigGives) {
  for (const bool layers : {true, false}) {
    const Model g = test::from_gguf_header(talkie_gguf(nullptr, layers));
    const Model c = test::from_config(talkie_config());
    EXPECT_TRUE(g.unchecked_architecture.empty());
    EXPECT_TRUE(g.arch.embedding_skip);
    EXPECT_TRUE(g.arch.weightless_norms);
    EXPECT_EQ(g.arch.kv_heads, 40);
    EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
    test::expect_same_estimate(g, c, "talkie GGUF vs config", {1024, 2048});
  }
}

// The weights willfit lays out in F16 are the file's tensors byte for byte:
// no norm weights, the gains and skip scales as F32.
TEST(Talkie, WeightsAreTheFilesTensors) {
  const Model c = test::from_config(talkie_config());
  std::uint64_t bytes = 0;
  talkie_gguf(&bytes);
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total(), static_cast<std::int64_t>(bytes));
}

// Talkie 1930 13B REDUCED to 4 of its 40 layers (make_gguf row
// talkie-1930-13b-r4, every width the model's), read from the published
// shape with 4 layers, against what a real llama.cpp allocated for the
// synthetic F16, Q8_0 and Q4_K_M files
// (tests/data/llamacpp_cpu_compute_talkie.csv, llamacpp_cpu_kv_talkie.csv;
// docs/live-llamacpp.md, Talkie run).
TEST(Talkie, MatchesTheLiveLlamaCpp) {
  const Model m = test::from_config(talkie_config(4));
  // every row within 0.1 %, the KV buffers within the log's rounding
  test::expect_live_tables(m, "talkie", 27, 0.1);
}

// The catalogue's talkie-1930-13b (data/models.json) is the config.json
// above: its weightless norms and embedding skip by the family, the same
// weights, cache and compute buffer, its 13.3 B (the BF16 checkpoint's
// 26.6 GB at 2 bytes) within 1 % of the count.
TEST(Talkie, CatalogueEntryIsItsConfig) {
  const Model& cat = test::catalogue_model("talkie-1930-13b");
  EXPECT_TRUE(cat.arch.weightless_norms);
  EXPECT_TRUE(cat.arch.embedding_skip);
  test::expect_catalogue_is_config("talkie-1930-13b", test::from_config(talkie_config()),
                                   {1024, 2048});
}

}  // namespace
}  // namespace willfit
