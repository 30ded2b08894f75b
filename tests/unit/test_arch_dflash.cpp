// DFlash drafts (issue 18; llama.cpp `dflash`): block-diffusion
// speculative-decoding drafts that llama.cpp runs beside a target model,
// never alone. dflash.cpp at 80fb11ac loads fc ({target layers x hidden,
// hidden}) over the target's hidden states, an encoder norm after it
// (enc.output_norm), Qwen3's layers (Q and K normed per head) and a final
// norm; token embeddings, the head and d2t only when the file has them (else
// the target's, through ctx_other); DFlash2 adds per-layer convolutions and a
// candidate selector. Its memory is an ordinary KV cache of its own layers
// (create_memory's default; the injected target features' K and V and the
// noise block's are written into it). Read from a published config and from
// the GGUF header llama.cpp's converter writes; both must give one estimate.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/draft_helpers.hpp"
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
using test::gguf_refusal;
using test::notes_say;
using test::rel;

// z-lab/Qwen3-4B-DFlash-b16's config.json (the hub is not reachable here),
// as a public implementation plan transcribes it (found by searching
// for "dflash_config": {: a public Markdown design note of DFlash in an MLX Swift server (HF model
// z-lab/Qwen3-4B-DFlash-b16; 'Our hooks landing: commits 7f3b9cd, fd24cd2'), citing the model card
// huggingface.co/z-lab/Qwen3-4B-DFlash-b16): DFlashDraftModel, model_type
// qwen3, block 16, mask token 151669, target layers 1, 9, 17, 25, 33 of the
// target's 36, hidden 2560, MLP 9728, 5 layers, 32 heads, 8 KV heads of 128,
// 40960 positions, tied (the target's embeddings and head), vocabulary
// 151936, bfloat16.
Json dflash_config() {
  return {{"architectures", {"DFlashDraftModel"}},
          {"model_type", "qwen3"},
          {"block_size", 16},
          {"dflash_config", {{"mask_token_id", 151669}, {"target_layer_ids", {1, 9, 17, 25, 33}}}},
          {"hidden_size", 2560},
          {"intermediate_size", 9728},
          {"num_hidden_layers", 5},
          {"num_attention_heads", 32},
          {"num_key_value_heads", 8},
          {"head_dim", 128},
          {"num_target_layers", 36},
          {"max_position_embeddings", 40960},
          {"rope_theta", 1000000},
          {"rms_norm_eps", 1e-06},
          {"tie_word_embeddings", true},
          {"vocab_size", 151936},
          {"dtype", "bfloat16"}};
}

// The GGUF conversion/qwen.py writes for it (DFlashModel at 80fb11ac: the
// Qwen3 keys, key and value lengths from head_dim, block_size,
// target_layers as target_layer_ids + 1; the target's tokenizer, padded to
// the draft's vocab_size) and the tensors dflash.cpp loads: fc, the encoder's
// norm, the final norm, Qwen3's layers; no token_embd or output (the
// checkpoint has none). F16 matrices, F32 vectors.
test::GgufWriter dflash_gguf() {
  const std::string a = "dflash";
  constexpr std::uint64_t e = 2560;
  constexpr std::uint64_t ff = 9728;
  constexpr std::uint64_t q = 32 * 128;
  constexpr std::uint64_t kv = 8 * 128;
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".context_length", 40960);
  w.u32(a + ".embedding_length", e);
  w.u32(a + ".feed_forward_length", ff);
  w.u32(a + ".block_count", 5);
  w.u32(a + ".attention.head_count", 32);
  w.u32(a + ".attention.head_count_kv", 8);
  w.f32(a + ".rope.freq_base", 1000000.0F);
  w.f32(a + ".attention.layer_norm_rms_epsilon", 1e-6F);
  w.u32(a + ".attention.key_length", 128);
  w.u32(a + ".attention.value_length", 128);
  w.u32("general.file_type", 1);
  w.u32(a + ".block_size", 16);
  w.u32_array(a + ".target_layers", {2, 10, 18, 26, 34});
  std::vector<std::string> tokens;
  tokens.reserve(151936);
  for (int i = 0; i < 151936; ++i) {
    tokens.push_back("t" + std::to_string(i));
  }
  w.str_array("tokenizer.ggml.tokens", tokens);
  w.u32("tokenizer.ggml.mask_token_id", 151669);
  w.tensor("fc.weight", {5 * e, e}, test::kF16);
  w.tensor("enc.output_norm.weight", {e}, test::kF32);
  w.tensor("output_norm.weight", {e}, test::kF32);
  for (int i = 0; i < 5; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_q.weight", {e, q}, test::kF16);
    w.tensor(b + "attn_k.weight", {e, kv}, test::kF16);
    w.tensor(b + "attn_v.weight", {e, kv}, test::kF16);
    w.tensor(b + "attn_output.weight", {q, e}, test::kF16);
    w.tensor(b + "attn_q_norm.weight", {128}, test::kF32);
    w.tensor(b + "attn_k_norm.weight", {128}, test::kF32);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_gate.weight", {e, ff}, test::kF16);
    w.tensor(b + "ffn_up.weight", {e, ff}, test::kF16);
    w.tensor(b + "ffn_down.weight", {ff, e}, test::kF16);
  }
  return w;
}

// The published file: the same plan gives the draft's weights as "~1.07 GB"
// ("matches model.safetensors size on HF"), bfloat16: the config's weights
// (fc 32.8 M, five layers of 100.9 M, no embeddings or head) at 2 bytes are
// 1.0748 GB.
TEST(DFlash, ConfigIsADraftAndCountsThePublishedFile) {
  const Model m = test::from_config(dflash_config());
  EXPECT_TRUE(m.unchecked_architecture.empty());
  EXPECT_EQ(m.arch.dflash_target_layers, 5);
  EXPECT_EQ(m.arch.dflash_block_size, 16);
  EXPECT_FALSE(m.arch.draft_own_embeddings);
  EXPECT_FALSE(m.arch.draft_own_head);
  EXPECT_EQ(m.arch.eagle3_target_layers, 0);
  const ParamBreakdown p = count_params(m.arch);
  EXPECT_EQ(p.embedding, 0);  // the target's, not the draft's
  EXPECT_EQ(p.output, 0);
  const double gb = static_cast<double>(p.total()) * 2 / 1e9;
  EXPECT_LT(rel(gb, 1.07), 0.01) << p.total();
  EXPECT_TRUE(notes_say(m, "DFlash draft model", "beside its target"));
  EXPECT_TRUE(notes_say(m, "target's token embeddings and output head", "not counted here"));
}

// Its five layers' K and V (create_memory's default, an ordinary cache over
// the draft's context): 8 KV heads x 128 x 2 x 2 bytes a token each.
TEST(DFlash, KvCacheIsItsOwnLayers) {
  const Model m = test::from_config(dflash_config());
  EXPECT_EQ(kv_cache_bytes(m.arch, {4096, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{5} * 2 * 8 * 128 * 2 * 4096);
}

TEST(DFlash, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = test::from_gguf_header(dflash_gguf());
  const Model c = test::from_config(dflash_config());
  EXPECT_TRUE(g.unchecked_architecture.empty());
  EXPECT_EQ(g.arch.dflash_target_layers, 5);
  EXPECT_EQ(g.arch.dflash_block_size, 16);
  EXPECT_FALSE(g.arch.draft_own_embeddings);
  EXPECT_FALSE(g.arch.draft_own_head);
  EXPECT_EQ(g.arch.vocab_size, 151936);
  test::expect_same_estimate(g, c, "dflash GGUF vs config", {4096, 32768});
  // The weights willfit lays out in F16 are the file's tensors byte for byte.
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total(), dflash_gguf().data_size());
}

// llama.cpp refuses a dflash file without target_layers (dflash.cpp
// load_arch_hparams): so does willfit, in one line; and a config without
// target layers, from which the converter would write such a file.
TEST(DFlash, WithoutTargetLayersIsRefused) {
  test::GgufWriter w;
  w.str("general.architecture", "dflash");
  w.u32("dflash.embedding_length", 2560);
  w.u32("dflash.block_count", 5);
  w.u32("dflash.attention.head_count", 32);
  w.tensor("output_norm.weight", {2560}, test::kF32);
  EXPECT_NE(gguf_refusal(w).find("target_layers"), std::string::npos);
  Json j = dflash_config();
  j["dflash_config"].erase("target_layer_ids");
  EXPECT_FALSE(model_from_hf_config(j.dump(), "test").ok());
}

// DFlash2 (DFlash2DraftModel; the converter writes conv_kernel_size,
// conv_group_size, selector_rank and selector_top_k from dflash_config):
// two convolutions a layer and the selector's codebooks. Illustrative
// values (no published DFlash2 config was found): kernel 2, groups of 16,
// rank 256, top-k 16 on the Qwen3-4B draft's shape; z-lab/dflash's own
// test fixture (tests/fixtures/dflash2-config.json at 0a7587c0, a draft of
// an unnamed 52-layer target 6656 wide with windowed layers, and its
// safetensors header) has these four values. Config and GGUF agree, and the
// F16 layout is the file's bytes.
Json dflash2_config() {
  Json j = dflash_config();
  j["architectures"] = {"DFlash2DraftModel"};
  j["dflash_config"]["conv_kernel_size"] = 2;
  j["dflash_config"]["conv_group_size"] = 16;
  j["dflash_config"]["selector_rank"] = 256;
  j["dflash_config"]["selector_top_k"] = 16;
  return j;
}

TEST(DFlash, DFlash2ConvolutionsAndSelector) {
  const Model c = test::from_config(dflash2_config());
  EXPECT_EQ(c.arch.dflash_selector_rank, 256);
  test::GgufWriter w = dflash_gguf();
  w.u32("dflash.conv_kernel_size", 2);
  w.u32("dflash.conv_group_size", 16);
  w.u32("dflash.selector_rank", 256);
  w.u32("dflash.selector_top_k", 16);
  constexpr std::uint64_t e = 2560;
  w.tensor("selector_predecessor.weight", {256, 151936}, test::kF16);
  w.tensor("selector_successor.weight", {256, 151936}, test::kF16);
  w.tensor("selector_hidden.weight", {e, 256}, test::kF16);
  for (int i = 0; i < 5; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_conv_base", {e, 2, 2}, test::kF16);
    w.tensor(b + "attn_conv_proj.weight", {e, 2 * 2 * (e / 16)}, test::kF16);
    w.tensor(b + "ffn_conv_base", {e, 2, 2}, test::kF16);
    w.tensor(b + "ffn_conv_proj.weight", {e, 2 * 2 * (e / 16)}, test::kF16);
  }
  const Model g = test::from_gguf_header(w);
  EXPECT_EQ(g.arch.dflash_selector_rank, 256);
  EXPECT_EQ(g.arch.dflash_conv_kernel, 2);
  test::expect_same_estimate(g, c, "dflash2 GGUF vs config", {4096});
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total(), w.data_size());
  // The selector's metadata is required once its tensors are there.
  test::GgufWriter bare = dflash_gguf();
  bare.tensor("selector_hidden.weight", {e, 256}, test::kF16);
  EXPECT_NE(gguf_refusal(bare).find("DFlash2"), std::string::npos);
}

// A draft with its own embeddings and a reduced head (DSpark's exports:
// draft_vocab_size below vocab_size, d2t as I64): both counted, the head
// over the draft vocabulary.
TEST(DFlash, OwnEmbeddingsAndReducedHead) {
  constexpr test::TestType kI64{27, 1, 8};
  test::GgufWriter w = dflash_gguf();
  w.tensor("token_embd.weight", {2560, 151936}, test::kF16);
  w.tensor("output.weight", {2560, 32000}, test::kF16);
  w.tensor("d2t", {32000}, kI64);
  const Model g = test::from_gguf_header(w);
  EXPECT_TRUE(g.arch.draft_own_embeddings);
  EXPECT_TRUE(g.arch.draft_own_head);
  EXPECT_EQ(g.arch.draft_vocab, 32000);
  const ParamBreakdown p = count_params(g.arch);
  EXPECT_EQ(p.embedding, std::int64_t{151936} * 2560);
  EXPECT_EQ(p.output, std::int64_t{32000} * 2560);
  EXPECT_FALSE(notes_say(g, "DFlash draft model", "not counted here"));
}

// DeepSeek-V4's DSpark draft (hyper_connection.count above 0: MLA stages,
// experts and hyper-connections over a windowed K-only cache) is not
// modelled: the answer says what is approximate.
TEST(DFlash, DeepSeekV4DSparkSaysItIsApproximate) {
  test::GgufWriter w = dflash_gguf();
  w.u32("dflash.hyper_connection.count", 4);
  const Model g = test::from_gguf_header(w);
  EXPECT_NE(g.unchecked_architecture.find("DSpark"), std::string::npos);
  EXPECT_NE(unchecked_architecture_warning(g).find("hyper_connection.count 4"), std::string::npos);
}

// The Qwen3-4B draft with token embeddings and a head of its own (make_gguf
// row qwen3-4b-dflash-own: llama.cpp gives such a draft a context without a
// target, which node-llama-cpp cannot pass), read from the published config,
// against what a real llama.cpp allocated for the synthetic F16 file
// (tests/data/llamacpp_cpu_compute_dflash.csv, llamacpp_cpu_kv_dflash.csv;
// docs/live-llamacpp.md, DFlash run): the decoder graph llama.cpp reserves,
// its head over every token of the micro-batch. Embeddings and head of its
// own move neither buffer. KV exact; compute 5.00 MiB high on every row (one
// hidden x micro-batch F32 tensor more than llama.cpp holds at the peak: 1.6
// %, 0.2 % at 32768 tokens without flash attention), not yet explained.
TEST(DFlash, MatchesTheLiveLlamaCpp) {
  const Model m = test::from_config(dflash_config());
  test::expect_live_tables(m, "dflash", 9, 2.0);
}

// A DFlash draft in a catalogue file (data/README.md: dflash_target_layers
// and the fields beside it; the bundled catalogue has none, no DFlash
// config being published where it can be cited): the Qwen3-4B draft's
// shape, as a user would write it, gives the estimate its config.json
// gives, and the answer says it runs beside its target; so do DFlash2's
// fields and a draft with its own embeddings and a reduced head.
Model catalogue_draft(const std::string& extra) {
  const std::string json =
      R"({"models": [{"id": "qwen3-4b-dflash-b16", "params": 537000000, "layers": 5,
          "hidden_size": 2560, "intermediate_size": 9728, "heads": 32, "kv_heads": 8,
          "head_dim": 128, "vocab_size": 151936, "max_context": 40960,
          "dflash_target_layers": 5)" +
      extra + "}]}";
  const auto db = ModelDb::parse(json, "models.json");
  EXPECT_TRUE(db.ok()) << (db.ok() ? "" : db.error().message);
  return db.ok() ? db->entries().front().model : Model{};
}

TEST(DFlash, CatalogueEntryIsItsConfig) {
  const Model cat = catalogue_draft("");
  const Model config = test::from_config(dflash_config());
  EXPECT_EQ(cat.arch.dflash_block_size, 16);  // the converter's default
  EXPECT_FALSE(cat.arch.tied_embeddings);
  test::expect_same_estimate(cat, config, "dflash catalogue vs config", {4096, 40960});
  EXPECT_EQ(weight_layout(cat, *parse_precision("f16")).total(),
            weight_layout(config, *parse_precision("f16")).total());
  EXPECT_TRUE(notes_say(cat, "DFlash draft model", "beside its target"));
  EXPECT_TRUE(notes_say(cat, "target's token embeddings and output head", "not counted here"));

  const Model cat2 = catalogue_draft(
      R"(, "dflash_conv_kernel": 2, "dflash_conv_group": 16, "dflash_selector_rank": 256,
         "dflash_selector_top_k": 16)");
  test::expect_same_estimate(cat2, test::from_config(dflash2_config()),
                             "dflash2 catalogue vs config", {4096});

  constexpr test::TestType kI64{27, 1, 8};
  test::GgufWriter w = dflash_gguf();
  w.tensor("token_embd.weight", {2560, 151936}, test::kF16);
  w.tensor("output.weight", {2560, 32000}, test::kF16);
  w.tensor("d2t", {32000}, kI64);
  const Model own = catalogue_draft(
      R"(, "draft_own_embeddings": true, "draft_own_head": true, "draft_vocab": 32000)");
  test::expect_same_estimate(own, test::from_gguf_header(w), "own head catalogue vs GGUF", {4096});
}

// The draft's fields without dflash_target_layers, or DFlash2's without all
// four, are refused in one line naming the entry.
TEST(DFlash, CatalogueRefusesAPartialDraft) {
  for (const char* entry :
       {R"("draft_own_head": true)", R"("dflash_target_layers": 5, "dflash_conv_kernel": 2)",
        R"("dflash_target_layers": 5, "draft_vocab": 32000)"}) {
    const auto db = ModelDb::parse(
        std::string(R"({"models": [{"id": "d", "params": 1000, "layers": 5, "hidden_size": 2560,
                       "heads": 32, "vocab_size": 151936, )") +
            entry + "}]}",
        "models.json");
    ASSERT_FALSE(db.ok()) << entry;
    EXPECT_NE(db.error().message.find("'d'"), std::string::npos) << db.error().message;
  }
}

}  // namespace
}  // namespace willfit
