// WavTokenizer's decoder (llama.cpp `wavtokenizer-dec`, config.json
// architectures `WavTokenizerDec`; issue 18): the vocoder OuteTTS hands its
// audio codes to, not a language model. wavtokenizer-dec.cpp at 80fb11ac:
// a codebook of 4096 codes, 512 features each; a width-7 convolution to
// 768; six PosNet blocks (resnet, resnet, a one-head attention over the
// whole input, resnet, resnet, a group norm); twelve ConvNeXt blocks of 768
// (a depthwise width-7 convolution, a LayerNorm, pw1 2304 wide, GELU, pw2,
// a gain); a head of 1282 spectrum values a code. No KV cache
// (create_memory), no logits. Read from the config.json llama.cpp's
// converter reads and from the GGUF header it writes; both must give one
// estimate.
#include <cmath>
#include <cstddef>
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
#include "willfit/models/model_db.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::rel;

// novateur/WavTokenizer-large-speech-75token's decoder as llama.cpp's
// examples/tts/convert_pt_to_hf.py writes its config.json for
// convert_hf_to_gguf.py (ggerganov/llama.cpp @f77d5ce2): the values below, n_layer 12 (the
// ConvNeXt's), hidden_size 1282 (the head), max_position_embeddings 8192 (marked "?" there: nothing
// in the graph reads positions). conversion/wavtokenizer.py
// (WavTokenizerDecModel, @ModelBase.example that model) reads exactly these
// keys.
Json wavtokenizer_config() {
  return {{"architectures", {"WavTokenizerDec"}},
          {"hidden_size", 1282},
          {"n_embd_features", 512},
          {"n_ff", 2304},
          {"vocab_size", 4096},
          {"n_head", 1},
          {"layer_norm_epsilon", 1e-6},
          {"group_norm_epsilon", 1e-6},
          {"group_norm_groups", 32},
          {"max_position_embeddings", 8192},
          {"n_layer", 12},
          {"posnet", {{"n_embd", 768}, {"n_layer", 6}}},
          {"convnext", {{"n_embd", 768}, {"n_layer", 12}}}};
}

// The GGUF llama.cpp's converter writes from it (conversion/wavtokenizer.py
// over base.py's TextModel: block_count, context_length, embedding_length,
// head_count, the LayerNorm epsilon; its own keys; tokenizer model "none")
// and the tensors wavtokenizer-dec.cpp loads, typed as base.py types them in
// an F16 file: F16 for the ".weight" matrices and kernels, F32 for the
// norms ("_norm.weight", posnet norm1 / norm2), the biases and the vectors.
// `bytes` gets the tensors' bytes.
test::GgufWriter wavtokenizer_gguf(std::uint64_t* bytes = nullptr, std::uint32_t posnet = 6) {
  const std::string a = "wavtokenizer-dec";
  constexpr std::uint64_t fe = 512;
  constexpr std::uint64_t p = 768;
  constexpr std::uint64_t c = 768;
  constexpr std::uint64_t ff = 2304;
  constexpr std::uint64_t out = 1282;
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32("general.file_type", 1);
  w.u32(a + ".block_count", 12);
  w.u32(a + ".context_length", 8192);
  w.u32(a + ".embedding_length", static_cast<std::uint32_t>(out));
  w.u32(a + ".attention.head_count", 1);
  w.f32(a + ".attention.layer_norm_epsilon", 1e-6F);
  w.u32(a + ".vocab_size", 4096);
  w.u32(a + ".features_length", static_cast<std::uint32_t>(fe));
  w.u32(a + ".feed_forward_length", static_cast<std::uint32_t>(ff));
  w.f32(a + ".attention.group_norm_epsilon", 1e-6F);
  w.u32(a + ".attention.group_norm_groups", 32);
  w.u32(a + ".posnet.embedding_length", static_cast<std::uint32_t>(p));
  w.u32(a + ".posnet.block_count", posnet);
  w.u32(a + ".convnext.embedding_length", static_cast<std::uint32_t>(c));
  w.u32(a + ".convnext.block_count", 12);
  w.boolean(a + ".attention.causal", false);
  w.str("tokenizer.ggml.model", "none");
  std::uint64_t total = 0;
  total += w.tensor("token_embd.weight", {fe, 4096}, test::kF16);
  total += w.tensor("conv1d.weight", {7, fe, p}, test::kF16);
  total += w.tensor("conv1d.bias", {1, p}, test::kF32);
  for (std::uint32_t i = 0; i < posnet; ++i) {
    const std::string b = "posnet." + std::to_string(i) + ".";
    if (i == 2 || i == 5) {
      total += w.tensor(b + "attn_norm.weight", {1, p}, test::kF32);
      total += w.tensor(b + "attn_norm.bias", {1, p}, test::kF32);
    }
    if (i == 2) {
      for (const char* m : {"attn_q", "attn_k", "attn_v", "attn_output"}) {
        total += w.tensor(b + m + ".weight", {1, p, p}, test::kF16);
        total += w.tensor(b + m + ".bias", {1, p}, test::kF32);
      }
    } else if (i != 5) {
      for (const char* n : {"1", "2"}) {
        total += w.tensor(b + "norm" + n + ".weight", {1, p}, test::kF32);
        total += w.tensor(b + "norm" + n + ".bias", {1, p}, test::kF32);
        total += w.tensor(b + "conv" + n + ".weight", {3, p, p}, test::kF16);
        total += w.tensor(b + "conv" + n + ".bias", {1, p}, test::kF32);
      }
    }
  }
  total += w.tensor("token_embd_norm.weight", {p}, test::kF32);
  total += w.tensor("token_embd_norm.bias", {p}, test::kF32);
  for (int i = 0; i < 12; ++i) {
    const std::string b = "convnext." + std::to_string(i) + ".";
    total += w.tensor(b + "dw.weight", {7, 1, c}, test::kF16);
    total += w.tensor(b + "dw.bias", {1, c}, test::kF32);
    total += w.tensor(b + "norm.weight", {c}, test::kF32);
    total += w.tensor(b + "norm.bias", {c}, test::kF32);
    total += w.tensor(b + "pw1.weight", {c, ff}, test::kF16);
    total += w.tensor(b + "pw1.bias", {ff}, test::kF32);
    total += w.tensor(b + "pw2.weight", {ff, c}, test::kF16);
    total += w.tensor(b + "pw2.bias", {c}, test::kF32);
    total += w.tensor(b + "gamma.weight", {c}, test::kF32);
  }
  total += w.tensor("output_norm.weight", {c}, test::kF32);
  total += w.tensor("output_norm.bias", {c}, test::kF32);
  total += w.tensor("output.weight", {c, out}, test::kF16);
  total += w.tensor("output.bias", {out}, test::kF32);
  if (bytes != nullptr) {
    *bytes = total;
  }
  return w;
}

// Read as the decoder (not as a transformer of 12 layers of 1282, with
// no warning and a wrong answer): known, embedding, no cache, its widths.
void expect_decoder(const Model& m) {
  EXPECT_TRUE(m.unchecked_architecture.empty());
  EXPECT_TRUE(m.embedding);
  EXPECT_TRUE(m.arch.attention.no_kv_cache);
  EXPECT_EQ(m.arch.vocoder_features, 512);
  EXPECT_EQ(m.arch.posnet_layers, 6);
  EXPECT_EQ(m.arch.posnet_width, 768);
  EXPECT_EQ(m.arch.layers, 12);
  EXPECT_EQ(m.arch.hidden_size, 768);
  EXPECT_EQ(m.arch.intermediate_size, 2304);
  EXPECT_EQ(m.arch.vocoder_out, 1282);
  EXPECT_EQ(m.arch.vocab_size, 4096);
}

TEST(WavTokenizer, ConfigIsKnownAndHoldsNoCache) {
  const Model m = test::from_config(wavtokenizer_config());
  expect_decoder(m);
  for (const std::int64_t ctx : {512, 8192, 65536}) {
    EXPECT_EQ(kv_cache_bytes(m.arch, {ctx, 1, 512, kv_f16(), kv_f16(), 256}), 0);
  }
}

// ggml-org/WavTokenizer on the hub (its file list, search corpus docs):
// WavTokenizer-Large-75-F16.gguf 130 MB and WavTokenizer-Large-75-Q5_1.gguf
// 73.3 MB (second-state/OuteTTS-0.2-500M-GGUF's
// wavtokenizer-large-75-ggml-f16.gguf is 130 MB too). The parameters in
// F16 (64.88 M: the norms and biases are 0.1 M more, in F32) and the
// weights willfit lays out for each file type, against those sizes as the
// hub rounds them. In Q5_1 only the codebook, pw1, pw2 and the head (Q6_K,
// llama-quant.cpp's output rule) are quantised: the kernels' rows of 7, 3
// and 1 values fall back to F16.
TEST(WavTokenizer, CountsThePublishedFiles) {
  const Model m = test::from_config(wavtokenizer_config());
  EXPECT_EQ(count_params(m.arch).total(), 64881152);
  EXPECT_LT(rel(2.0 * static_cast<double>(count_params(m.arch).total()), 130e6), 0.005);
  EXPECT_LT(rel(static_cast<double>(weight_layout(m, *parse_precision("f16")).total()), 130e6),
            0.005);
  EXPECT_LT(rel(static_cast<double>(weight_layout(m, *parse_precision("q5_1")).total()), 73.3e6),
            0.001);
}

TEST(WavTokenizer, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = test::from_gguf_header(wavtokenizer_gguf());
  const Model c = test::from_config(wavtokenizer_config());
  expect_decoder(g);
  test::expect_same_estimate(g, c, "wavtokenizer GGUF vs config", {512, 4096, 8192});
}

// The weights willfit lays out in F16 are the file's tensors byte for byte.
TEST(WavTokenizer, WeightsAreTheFilesTensors) {
  const Model c = test::from_config(wavtokenizer_config());
  std::uint64_t bytes = 0;
  wavtokenizer_gguf(&bytes);
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total(), static_cast<std::int64_t>(bytes));
}

// wavtokenizer-dec.cpp builds blocks 0 to 5 by their index: another count
// is not a file llama.cpp loads.
TEST(WavTokenizer, RefusesAPosNetOfAnotherDepth) {
  const test::GgufWriter w = wavtokenizer_gguf(nullptr, 4);
  const std::string header = w.header();
  auto r = read_gguf(header, (header.size() + 31) / 32 * 32 + w.data_size());
  ASSERT_TRUE(r.ok() && r->file.has_value());
  const auto m = model_from_gguf(*r->file, "model.gguf");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("PosNet"), std::string::npos) << m.error().message;
}

// The whole decoder (make_gguf row wavtokenizer-large-75, every width the
// model's), read from its config, against what a real llama.cpp allocated
// for the synthetic F16 file at micro-batches of 512 to 8192 codes, flash
// attention off and on (tests/data/llamacpp_cpu_compute_wavtokenizer.csv,
// llamacpp_cpu_kv_wavtokenizer.csv; docs/live-llamacpp.md, WavTokenizer
// run): its compute buffer, and no KV buffer at all.
TEST(WavTokenizer, MatchesTheLiveLlamaCpp) {
  const Model m = test::from_config(wavtokenizer_config());
  std::size_t rows = 0;
  test::for_each_live_row("llamacpp_cpu_compute_wavtokenizer.csv",
                          [&](const std::vector<std::string>& c) {
                            const auto [measured, willfit] = test::live_row_compute(m, c);
                            EXPECT_LE(std::abs(willfit - measured) / measured, 0.001)
                                << c[1] << " " << c[2] << " " << c[3] << " " << c[5];
                            ++rows;
                          });
  EXPECT_EQ(rows, 10U);
  std::size_t kv_rows = 0;
  test::for_each_live_row("llamacpp_cpu_kv_wavtokenizer.csv",
                          [&](const std::vector<std::string>& c) {
                            EXPECT_EQ(test::live_row_estimate(m, c).memory.kv_cache, 0);
                            EXPECT_EQ(std::stod(c[6]), 0.0);
                            ++kv_rows;
                          });
  EXPECT_EQ(kv_rows, 10U);
}

// The catalogue's wavtokenizer-large-75 (data/models.json: vocoder_features,
// posnet_layers, posnet_width and vocoder_out beside the ConvNeXt's layers,
// width and MLP) is the decoder its config.json gives: the same weights, no
// KV cache, the same compute buffer; and the 130 MB F16 file's 65 M is its
// count within 1 %.
TEST(WavTokenizer, CatalogueEntryIsItsConfig) {
  test::expect_catalogue_is_config("wavtokenizer-large-75",
                                   test::from_config(wavtokenizer_config()), {512, 8192});
  expect_decoder(test::catalogue_model("novateur/WavTokenizer-large-speech-75token"));
}

// A catalogue entry llama.cpp would not load (five PosNet blocks) is refused
// as its config.json and GGUF are, in one line naming the entry and the key;
// so is a PosNet without vocoder_features.
TEST(WavTokenizer, CatalogueRefusesWhatLlamaCppWouldNotLoad) {
  const std::string head =
      R"({"models": [{"id": "voc", "params": 65000000, "layers": 12, "hidden_size": 768,
          "intermediate_size": 2304, "heads": 1, "vocab_size": 4096, "vocoder_out": 1282, )";
  const auto five = ModelDb::parse(head + R"("vocoder_features": 512, "posnet_layers": 5,
                                            "posnet_width": 768}]})",
                                   "models.json");
  ASSERT_FALSE(five.ok());
  EXPECT_NE(five.error().message.find("'voc'"), std::string::npos) << five.error().message;
  EXPECT_NE(five.error().message.find("six PosNet blocks"), std::string::npos)
      << five.error().message;
  const auto bare = ModelDb::parse(head + R"("posnet_layers": 6}]})", "models.json");
  ASSERT_FALSE(bare.ok());
  EXPECT_NE(bare.error().message.find("'posnet_layers' needs 'vocoder_features'"),
            std::string::npos)
      << bare.error().message;
}

}  // namespace
}  // namespace willfit
