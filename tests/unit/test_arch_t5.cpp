// T5 (llama.cpp `t5` and `t5encoder`; config.json model_type `t5`, `mt5`):
// Google's encoder-decoder (T5 v1.1, Flan-T5) and its encoder alone (the
// T5-v1.1-XXL text encoder of Flux, SD3, PixArt). llama.cpp (src/models/t5.cpp
// and t5encoder.cpp at 80fb11ac; conversion/t5.py) loads an encoder of
// block_count blocks and a decoder of decoder_block_count blocks, each with a
// self-attention whose scores add a relative-position bias (one table, heads
// x 32 buckets, on each stack's first block), the decoder blocks with a
// cross-attention over the encoder's output besides; only the decoder's
// self-attention is cached. Read from published configs and the header the
// converter writes: one estimate; the parameter counts against the published
// ones; the whole Flan-T5-Small against a real llama.cpp.
#include <cstdint>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "csv.hpp"
#include "unit/catalogue_model.hpp"
#include "unit/live_rows.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/core/units.hpp"
#include "willfit/devices/device.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::from_config;
using test::rel;

// A GGUF read from its header alone, the file's size given (read_gguf reads
// a prefix): the zeroed tensor data of an 11B model need not be built.
Model from_header(const test::GgufWriter& w) {
  std::string head = w.header();
  head.resize((head.size() + 31) / 32 * 32, '\0');
  auto r = read_gguf(head, head.size() + w.data_size());
  EXPECT_TRUE(r.ok() && r->file.has_value());
  if (!r.ok() || !r->file.has_value()) {
    return Model{};
  }
  auto m = model_from_gguf(*r->file, "test.gguf");
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return m.ok() ? *m : Model{};
}

Estimate llama_estimate(const Model& m, std::int64_t context, bool flash) {
  InferenceQuery q;
  q.model = m;
  q.precision = *parse_precision("q8_0");
  q.runtime = Runtime::LlamaCpp;
  q.context = context;
  q.flash_attention = flash ? FlashAttention::On : FlashAttention::Off;
  return estimate_inference(q);
}

// Where two readings of one model are compared (test::expect_same_estimate):
// the total parameters, then 512 and 4 Ki tokens, flash attention on and off, at Q8_0.
const test::EstimateGrid kEstimateGrid{.contexts = {512, 4096},
                                       .flash = {FlashAttention::On, FlashAttention::Off},
                                       .precision = "q8_0",
                                       .params = test::EstimateGrid::Params::Total};

// A T5 v1.1 / Flan-T5 config.json of the given shape (the keys T5Config
// reads; gated GELU, untied, 32 buckets, 512 positions).
Json t5_config(int layers, int hidden, int ffn, int heads) {
  return {{"architectures", {"T5ForConditionalGeneration"}},
          {"d_ff", ffn},
          {"d_kv", 64},
          {"d_model", hidden},
          {"decoder_start_token_id", 0},
          {"feed_forward_proj", "gated-gelu"},
          {"is_encoder_decoder", true},
          {"layer_norm_epsilon", 1e-6},
          {"model_type", "t5"},
          {"n_positions", 512},
          {"num_decoder_layers", layers},
          {"num_heads", heads},
          {"num_layers", layers},
          {"relative_attention_max_distance", 128},
          {"relative_attention_num_buckets", 32},
          {"tie_word_embeddings", false},
          {"vocab_size", 32128}};
}

// google/flan-t5-large config.json as a public repository transcribes it
// (MomentConfig's DEFAULT_T5_CONFIG, "_name_or_path": "google/flan-t5-large";
// a public Python T5 classifier config class (freeze_embedder, freeze_encoder; 'if self.d_model is
// None: self.d_model = self.t5_config.d_model')): d_model 1024, d_ff 2816, d_kv 64, 16 heads, 24 +
// 24 layers, gated-gelu, 32 buckets, n_positions 512, untied, vocab 32128. (Its is_encoder_decoder
// is the port's own False; T5Config does not read it for the shape.)
Json flan_t5_large() {
  return t5_config(24, 1024, 2816, 16);
}

// The header conversion/t5.py writes for it (T5Model.set_gguf_parameters:
// context_length from n_positions, embedding, feed-forward, block_count,
// decoder_block_count, head_count, key and value length, both epsilons, the
// buckets, the decoder's start token, the file type) and the tensors t5.cpp
// loads: the relative-position bias on block 0 of each stack only (T5's
// other blocks have none), the encoder's and decoder's output norms, an
// untied head.
test::GgufWriter flan_t5_large_gguf() {
  const std::string a = "t5.";
  test::GgufWriter w;
  w.str("general.architecture", "t5");
  w.u32(a + "context_length", 512);
  w.u32(a + "embedding_length", 1024);
  w.u32(a + "feed_forward_length", 2816);
  w.u32(a + "block_count", 24);
  w.u32(a + "decoder_block_count", 24);
  w.u32(a + "attention.head_count", 16);
  w.u32(a + "attention.key_length", 64);
  w.u32(a + "attention.value_length", 64);
  w.f32(a + "attention.layer_norm_epsilon", 1e-6F);
  w.u32(a + "attention.relative_buckets_count", 32);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-6F);
  w.u32(a + "decoder_start_token_id", 0);
  w.u32("general.file_type", 7);
  w.tensor("token_embd.weight", {1024, 32128}, test::kQ8_0);
  w.tensor("output.weight", {1024, 32128}, test::kQ8_0);
  w.tensor("enc.output_norm.weight", {1024}, test::kF32);
  w.tensor("dec.output_norm.weight", {1024}, test::kF32);
  for (const std::string stack : {"enc", "dec"}) {
    for (int i = 0; i < 24; ++i) {
      const std::string b = stack + ".blk." + std::to_string(i) + ".";
      w.tensor(b + "attn_norm.weight", {1024}, test::kF32);
      if (i == 0) {
        w.tensor(b + "attn_rel_b.weight", {16, 32}, test::kF16);
      }
      for (const char* t : {"attn_q", "attn_k", "attn_v", "attn_o"}) {
        w.tensor(b + t + ".weight", {1024, 1024}, test::kQ8_0);
      }
      if (stack == "dec") {
        w.tensor(b + "cross_attn_norm.weight", {1024}, test::kF32);
        for (const char* t : {"cross_attn_q", "cross_attn_k", "cross_attn_v", "cross_attn_o"}) {
          w.tensor(b + t + ".weight", {1024, 1024}, test::kQ8_0);
        }
      }
      w.tensor(b + "ffn_norm.weight", {1024}, test::kF32);
      w.tensor(b + "ffn_gate.weight", {1024, 2816}, test::kQ8_0);
      w.tensor(b + "ffn_up.weight", {1024, 2816}, test::kQ8_0);
      w.tensor(b + "ffn_down.weight", {2816, 1024}, test::kQ8_0);
    }
  }
  return w;
}

TEST(T5, ConfigAndGgufAreKnownAndAgree) {
  const Model c = from_config(flan_t5_large());
  const Model g = from_header(flan_t5_large_gguf());
  EXPECT_TRUE(c.unchecked_architecture.empty()) << c.unchecked_architecture;
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  for (const Model* m : {&c, &g}) {
    EXPECT_EQ(m->arch.layers, 48);
    EXPECT_EQ(m->arch.decoder_layers, 24);
    EXPECT_EQ(m->arch.relative_buckets, 32);
    EXPECT_EQ(m->arch.head_dim, 64);
    EXPECT_TRUE(m->arch.mlp_gated);
    EXPECT_FALSE(m->arch.tied_embeddings);
    EXPECT_FALSE(m->arch.attention.no_kv_cache);
    EXPECT_FALSE(m->embedding);
  }
  test::expect_same_estimate(c, g, "flan-t5-large", kEstimateGrid);
  // The decoder's 24 self-attention layers alone: K and V of 16 heads of 64,
  // F16, per cell (llama-kv-cache.cpp: block_count layers).
  EXPECT_EQ(llama_estimate(c, 4096, false).memory.kv_cache,
            std::int64_t{24} * 2 * 16 * 64 * 2 * 4096);
}

// The parameter counts of T5 v1.1 / Flan-T5 at each size (sum of
// p.numel() over the transformers model, which counts the shared embedding
// once, the head, every norm and both bias tables), as a public T5X training
// report tabulates them (a public T5X training report in Markdown (per-size tables
// small/base/large/xl/xxl, ending with '#### SQuAD question answering'): small 76961152, base
// 247577856, large 783150080, xl 2849757184, xxl 11135332352) and
// google/flan-t5-small's own figure in public service code ("num_parameters":
// 76961152, a public README of a text-generation service (its GET /health sample with model_name
// google/flan-t5-small, num_parameters 76961152)). Shapes: google-research/t5x
// t5x/examples/t5/t5_1_1/{base,xl,xxl}.gin (base 247e27ef, xl and xxl
// 2c294339: emb_dim 768/2048/4096, num_heads 12/32/64, mlp_dim 2048/5120/10240,
// head_dim 64, 12/24/24 layers each side, vocab 32128); small from the
// printed flan-t5-small module (tenstorrent/tt-metal
// tests/python_api_testing/models/t5/FLAN_T5.md at d6e54019: 512, 6 heads,
// 1024, 8 + 8 blocks); large above. llama.cpp's t5.cpp names the same widths
// per size (n_ff 2048 flan-t5-base, 2816 large, 5120 xl, 10240 xxl).
TEST(T5, ParameterCountsMatchThePublishedOnes) {
  const struct {
    Json config;
    double published;
  } sizes[] = {{t5_config(8, 512, 1024, 6), 76961152.0},
               {t5_config(12, 768, 2048, 12), 247577856.0},
               {flan_t5_large(), 783150080.0},
               {t5_config(24, 2048, 5120, 32), 2849757184.0},
               {t5_config(24, 4096, 10240, 64), 11135332352.0}};
  for (const auto& s : sizes) {
    const double counted = static_cast<double>(count_params(from_config(s.config).arch).total());
    EXPECT_LT(rel(counted, s.published), 0.01) << s.published;
    // norms and the two bias tables are all that is left out
    EXPECT_LT(counted, s.published);
  }
}

// The catalogue's Flan-T5 / T5 v1.1 entries (data/models.json flan-t5-small
// to flan-t5-xxl) are their configs: both stacks, the decoder's blocks and
// the bias tables (decoder_layers, relative_buckets), the same weights,
// cache and compute buffer, each within 1 % of its published count.
TEST(T5, CatalogueEntriesAreTheirConfigs) {
  const std::pair<std::string, Json> entries[] = {{"flan-t5-small", t5_config(8, 512, 1024, 6)},
                                                  {"flan-t5-base", t5_config(12, 768, 2048, 12)},
                                                  {"flan-t5-large", flan_t5_large()},
                                                  {"flan-t5-xl", t5_config(24, 2048, 5120, 32)},
                                                  {"flan-t5-xxl", t5_config(24, 4096, 10240, 64)}};
  for (const auto& [id, config] : entries) {
    SCOPED_TRACE(id);
    const Model& cat = test::catalogue_model(id);
    const Model cfg = from_config(config);
    EXPECT_EQ(cat.arch.decoder_layers, cfg.arch.decoder_layers);
    EXPECT_EQ(cat.arch.relative_buckets, 32);
    EXPECT_FALSE(cat.embedding);
    test::expect_same_estimate(cat, cfg, id, kEstimateGrid);
    EXPECT_EQ(llama_estimate(cat, 512, false).memory.weights,
              llama_estimate(cfg, 512, false).memory.weights);
    EXPECT_LT(
        rel(static_cast<double>(count_params(cat.arch).total()), static_cast<double>(cat.params)),
        0.01);
  }
}

// The original T5 (google-t5/t5-small to t5-11b) as PaddleNLP's
// transcription of their config.json files gives them
// (PaddlePaddle/PaddleNLP
// paddlenlp/transformers/t5/configuration.py at commit 68dce6c9): feed_forward_proj relu, tied, 32
// buckets, d_kv 64 up to t5-large and 128 for t5-3b and t5-11b.
Json t5_original(int layers, int hidden, int ffn, int heads, int d_kv) {
  Json j = t5_config(layers, hidden, ffn, heads);
  j["d_kv"] = d_kv;
  j["feed_forward_proj"] = "relu";
  j["tie_word_embeddings"] = true;
  return j;
}

// The catalogue's original T5 entries (data/models.json t5-small to t5-11b)
// are their configs, each within 1 % of the exact count a public table
// gives (a public Python table headed '# Parameter Counts of pre-trained models' (PARAMETER_COUNTS,
// 't5-small': 60506624 to 't5-11b': 11307321344); keras-nlp's t5_presets.py repeats the first
// four): the ReLU MLP's two matrices, one tied table.
TEST(T5, OriginalCatalogueEntriesAreTheirConfigs) {
  const struct {
    const char* id;
    Json config;
    double published;
  } sizes[] = {{"t5-small", t5_original(6, 512, 2048, 8, 64), 60506624.0},
               {"t5-base", t5_original(12, 768, 3072, 12, 64), 222903552.0},
               {"t5-large", t5_original(24, 1024, 4096, 16, 64), 737668096.0},
               {"t5-3b", t5_original(24, 1024, 16384, 32, 128), 2851598336.0},
               {"t5-11b", t5_original(24, 1024, 65536, 128, 128), 11307321344.0}};
  for (const auto& s : sizes) {
    SCOPED_TRACE(s.id);
    const Model& cat = test::catalogue_model(s.id);
    const Model cfg = from_config(s.config);
    EXPECT_FALSE(cat.arch.mlp_gated);
    EXPECT_TRUE(cat.arch.tied_embeddings);
    EXPECT_EQ(cat.arch.decoder_layers, cfg.arch.decoder_layers);
    EXPECT_EQ(static_cast<double>(cat.params), s.published);
    test::expect_same_estimate(cat, cfg, s.id, kEstimateGrid);
    EXPECT_EQ(llama_estimate(cat, 512, false).memory.weights,
              llama_estimate(cfg, 512, false).memory.weights);
    const double counted = static_cast<double>(count_params(cfg.arch).total());
    EXPECT_LT(rel(counted, s.published), 0.01) << counted;
    EXPECT_LT(counted, s.published);  // norms and the two bias tables left out
  }
}

// The T5-v1.1-XXL encoder alone (T5EncoderModel: the text encoder of SD3,
// Flux, PixArt; its config is t5-v1_1-xxl's, the architectures entry says
// encoder): llama.cpp's converter makes it t5encoder (conversion/t5.py), the
// embeddings loaded again as the head it lacks (t5encoder.cpp), and a KV
// cache on every block that its graph never reads (create_memory does not
// list t5encoder among the archs without memory; measured live below).
// 4762310656 parameters, as public pipeline inventories count it (a public Markdown guide to
// ahead-of-time model inspection (ait.inspect(model, input_data, min_depth=1); 'AOT Tuning Guide'),
// SD3's text_encoder_3; a public Markdown benchmark campaign record ('Generic typed benchmark and
// focused RDT tool regressions passed 109 CPU tests'), "4762310656 for the T5 encoder").
Json t5_xxl_encoder() {
  Json j = t5_config(24, 4096, 10240, 64);
  j["architectures"] = {"T5EncoderModel"};
  return j;
}

// conversion/t5.py T5EncoderModel.set_gguf_parameters: as T5Model's without
// the decoder's keys; the weights have no head.
test::GgufWriter t5_xxl_encoder_gguf() {
  const std::string a = "t5encoder.";
  test::GgufWriter w;
  w.str("general.architecture", "t5encoder");
  w.u32(a + "context_length", 512);
  w.u32(a + "embedding_length", 4096);
  w.u32(a + "feed_forward_length", 10240);
  w.u32(a + "block_count", 24);
  w.u32(a + "attention.head_count", 64);
  w.u32(a + "attention.key_length", 64);
  w.u32(a + "attention.value_length", 64);
  w.f32(a + "attention.layer_norm_epsilon", 1e-6F);
  w.u32(a + "attention.relative_buckets_count", 32);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-6F);
  w.u32("general.file_type", 7);
  w.tensor("token_embd.weight", {4096, 32128}, test::kQ8_0);
  w.tensor("enc.output_norm.weight", {4096}, test::kF32);
  for (int i = 0; i < 24; ++i) {
    const std::string b = "enc.blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {4096}, test::kF32);
    if (i == 0) {
      w.tensor(b + "attn_rel_b.weight", {64, 32}, test::kF16);
    }
    for (const char* t : {"attn_q", "attn_k", "attn_v", "attn_o"}) {
      w.tensor(b + t + ".weight", {4096, 4096}, test::kQ8_0);
    }
    w.tensor(b + "ffn_norm.weight", {4096}, test::kF32);
    w.tensor(b + "ffn_gate.weight", {4096, 10240}, test::kQ8_0);
    w.tensor(b + "ffn_up.weight", {4096, 10240}, test::kQ8_0);
    w.tensor(b + "ffn_down.weight", {10240, 4096}, test::kQ8_0);
  }
  return w;
}

TEST(T5, TheEncoderAloneKeepsTheCacheLlamaCppGivesIt) {
  const Model c = from_config(t5_xxl_encoder());
  const Model g = from_header(t5_xxl_encoder_gguf());
  EXPECT_TRUE(c.unchecked_architecture.empty()) << c.unchecked_architecture;
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  for (const Model* m : {&c, &g}) {
    EXPECT_EQ(m->arch.layers, 24);
    EXPECT_EQ(m->arch.decoder_layers, 0);
    EXPECT_FALSE(m->arch.attention.no_kv_cache);
    EXPECT_TRUE(m->arch.tied_embeddings);  // the head is token_embd again
    EXPECT_TRUE(m->embedding);
    // K and V of 64 heads of 64 on all 24 blocks, F16, per cell
    EXPECT_EQ(llama_estimate(*m, 512, false).memory.kv_cache,
              std::int64_t{24} * 2 * 64 * 64 * 2 * 512);
  }
  test::expect_same_estimate(c, g, "t5-v1_1-xxl encoder", kEstimateGrid);
  EXPECT_LT(rel(static_cast<double>(count_params(c.arch).total()), 4762310656.0), 0.01);
}

// The original T5 (t5-small: feed_forward_proj "relu", no gate; tied, as
// T5Config ties unless told) keeps two MLP matrices.
TEST(T5, TheOriginalT5HasAReluMlpAndTiesItsEmbeddings) {
  Json j = t5_config(6, 512, 2048, 8);
  j.erase("tie_word_embeddings");
  j["feed_forward_proj"] = "relu";
  const Model m = from_config(j);
  EXPECT_FALSE(m.arch.mlp_gated);
  EXPECT_TRUE(m.arch.tied_embeddings);
}

// ---- Flan-T5-Small and the XXL encoder against a real llama.cpp ---------------
//
// The whole google/flan-t5-small (make_gguf row flan-t5-small) read from its
// config.json, against what llama.cpp 80fb11ac reserved for the synthetic
// file (tests/data/llamacpp_cpu_compute_t5.csv, llamacpp_cpu_kv_t5.csv): the
// decoder's graph with its cross-attention over 512 encoder rows (n_ctx_train,
// as no encoder output exists at reserve), the scores plus the relative
// bias on the path without flash attention whatever was asked, the logits.

// And the T5-v1.1-XXL encoder REDUCED to 4 of its 24 blocks (make_gguf row
// t5-v1_1-xxl-encoder-r4, every width the model's), read from the config.json
// of that reduced shape: the encoder's graph over the micro-batch, no logits;
// the cache llama.cpp allocates and never reads.
Model t5_xxl_encoder_r4() {
  Json j = t5_xxl_encoder();
  j["num_layers"] = 4;
  j["num_decoder_layers"] = 4;
  return from_config(j);
}

TEST(T5, FlanT5SmallAndTheXxlEncoderMatchTheLiveLlamaCpp) {
  const Model small = from_config(t5_config(8, 512, 1024, 6));
  const Model encoder = t5_xxl_encoder_r4();
  const double mib = static_cast<double>(kMiB);
  int rows = 0;
  test::for_each_live_row("llamacpp_cpu_compute_t5.csv", [&](const std::vector<std::string>& c) {
    const double measured = (std::stod(c[6]) + std::stod(c[7])) * mib;
    const Model& m = c[0] == "flan-t5-small" ? small : encoder;
    const double willfit = static_cast<double>(test::live_row_estimate(m, c).memory.compute);
    // within the log's rounding (two 0.005 MiB) and 0.1 %
    EXPECT_NEAR(willfit, measured, 0.001 * measured + 0.01 * mib)
        << c[1] << ' ' << c[2] << ' ' << c[3] << ' ' << c[4];
    ++rows;
  });
  EXPECT_EQ(rows, 54);
  rows = 0;
  test::for_each_live_row("llamacpp_cpu_kv_t5.csv", [&](const std::vector<std::string>& c) {
    const Model& m = c[0] == "flan-t5-small" ? small : encoder;
    const double measured = std::stod(c[6]) * mib;
    EXPECT_NEAR(static_cast<double>(test::live_row_estimate(m, c).memory.kv_cache), measured,
                0.001 * measured + 0.01 * mib)
        << c[1] << ' ' << c[2] << ' ' << c[3] << ' ' << c[4];
    ++rows;
  });
  EXPECT_EQ(rows, 54);
}

// The weights from the config against the tensor bytes of the flan-t5-small
// files that llama.cpp loaded in that run (docs/live-llamacpp.md, T5 run: F16
// 153,965,312, Q8_0 81,834,752): F16 exact (the norms F32, the bias tables
// as converted).
// The reduced encoder's F16 file: 1,806,848,000 bytes.
TEST(T5, WeightsMatchTheLiveFiles) {
  const Model m = from_config(t5_config(8, 512, 1024, 6));
  EXPECT_EQ(weight_layout(m, *parse_precision("f16")).total(), std::int64_t{153965312});
  EXPECT_LT(
      rel(static_cast<double>(weight_layout(m, *parse_precision("q8_0")).total()), 81834752.0),
      0.001);
  EXPECT_EQ(weight_layout(t5_xxl_encoder_r4(), *parse_precision("f16")).total(),
            std::int64_t{1806848000});
}

}  // namespace
}  // namespace willfit
