// NVIDIA's Nemotron NAS models (llama.cpp `deci`; HF DeciLMForCausalLM,
// model_type nemotron-nas): every layer has its own attention (query heads
// sharing KV heads in groups, none at all, or a linear map) and its own MLP
// width (or none). Each model is read two ways: from a config.json written
// here with its published block_configs, and from the GGUF header
// llama.cpp's converter writes from it (conversion/deci.py DeciModel at
// 80fb11ac: per-layer head_count, head_count_kv and feed_forward_length).
//
// The published configs: NVIDIA/NeMo
// nemo/collections/llm/gpt/model/llama_nemotron_config.py at 8cfedd72
// ("Config copy from
// https://huggingface.co/nvidia/Llama-3_3-Nemotron-Super-49B-v1/blob/main/config.json" and the same
// of Llama-3_1-Nemotron-Ultra-253B-v1), transcribed below as each block's n_heads_in_group (0:
// attention no_op) and ffn_mult (-1: null, the MLP no_op). Neither model replaces a block by a
// linear map.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/hf_config.hpp"
#include "willfit/models/model.hpp"
#include "willfit/training/training.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;

using test::from_config;
using test::from_gguf;
using test::rel;

// Llama-3.3-Nemotron-Super-49B-v1: 80 blocks of hidden 8192, 64 heads.
const std::vector<int> kSuperGroups = {
    8, 8, 8, 8, 8, 8, 0, 0, 8, 8, 8, 0, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8,
    8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8, 8,
};
const std::vector<double> kSuperMult = {
    2.625,  5.25,   5.25,   5.25,   5.25, 5.25,   2.625,  2.625, 5.25,   5.25,   5.25, 3.28125,
    5.25,   5.25,   5.25,   5.25,   5.25, 5.25,   5.25,   5.25,  5.25,   5.25,   5.25, 5.25,
    5.25,   5.25,   5.25,   5.25,   5.25, 5.25,   5.25,   5.25,  5.25,   5.25,   5.25, 5.25,
    5.25,   5.25,   5.25,   5.25,   5.25, 5.25,   1.3125, 2.625, 2.625,  1.3125, 5.25, 1.3125,
    2.625,  1.3125, 1.3125, 1.3125, 5.25, 1.3125, 1.0,    1.0,   1.3125, 1.0,    1.0,  1.0,
    1.3125, 1.3125, 0.5,    0.5,    1.0,  1.0,    0.5,    0.5,   1.0,    0.5,    0.5,  5.25,
    5.25,   5.25,   5.25,   5.25,   5.25, 5.25,   5.25,   5.25,
};
// Llama-3.1-Nemotron-Ultra-253B-v1: 162 blocks of hidden 16384, 128 heads.
const std::vector<int> kUltraGroups = {
    16, 16, 16, 16, 16, 16, 16, 16, 16, 0,  0,  0,  0,  16, 16, 16, 16, 16, 0,  0,  0,  0,  0,  0,
    16, 16, 16, 0,  0,  0,  0,  0,  16, 16, 16, 16, 0,  0,  0,  16, 16, 16, 0,  16, 0,  0,  0,  0,
    0,  0,  16, 16, 16, 16, 0,  0,  0,  0,  0,  16, 16, 16, 16, 0,  0,  0,  0,  0,  16, 16, 16, 16,
    0,  0,  0,  0,  0,  16, 16, 16, 16, 0,  0,  0,  0,  0,  16, 16, 16, 16, 0,  0,  16, 16, 16, 16,
    0,  0,  16, 0,  0,  0,  0,  0,  0,  0,  0,  16, 0,  0,  0,  0,  0,  16, 16, 0,  16, 0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  16, 16, 0,  16, 16, 16, 16, 16, 16, 16, 16,
};
const std::vector<double> kUltraMult = {
    0.4875,   0.975,  1.4625, 1.4625, 1.4625,  1.4625, 1.4625,  1.4625, 1.95,   -1.0,   -1.0,
    -1.0,     -1.0,   1.95,   1.95,   1.95,    4.875,  4.875,   -1.0,   -1.0,   -1.0,   -1.0,
    -1.0,     -1.0,   4.875,  4.875,  4.875,   -1.0,   -1.0,    -1.0,   -1.0,   -1.0,   4.875,
    4.875,    4.875,  2.4375, -1.0,   -1.0,    -1.0,   1.95,    1.95,   1.95,   1.95,   4.875,
    4.875,    -1.0,   -1.0,   -1.0,   -1.0,    -1.0,   4.875,   4.875,  4.875,  4.875,  -1.0,
    -1.0,     -1.0,   -1.0,   -1.0,   4.875,   4.875,  4.875,   4.875,  -1.0,   -1.0,   -1.0,
    -1.0,     -1.0,   4.875,  4.875,  4.875,   4.875,  -1.0,    -1.0,   -1.0,   -1.0,   -1.0,
    4.875,    4.875,  4.875,  4.875,  -1.0,    -1.0,   -1.0,    -1.0,   -1.0,   4.875,  3.4125,
    3.4125,   3.4125, -1.0,   -1.0,   2.925,   2.4375, 2.4375,  2.4375, 2.4375, 2.4375, 2.4375,
    -1.0,     2.4375, 2.4375, 2.4375, 2.4375,  2.4375, 2.4375,  2.4375, 2.4375, -1.0,   -1.0,
    -1.0,     -1.0,   -1.0,   2.925,  4.875,   4.875,  4.875,   -1.0,   -1.0,   -1.0,   -1.0,
    -1.0,     -1.0,   -1.0,   -1.0,   36.5625, -1.0,   -1.0,    -1.0,   -1.0,   -1.0,   -1.0,
    -1.0,     -1.0,   39.0,   -1.0,   -1.0,    -1.0,   -1.0,    -1.0,   -1.0,   -1.0,   -1.0,
    31.40625, -1.0,   -1.0,   -1.0,   -1.0,    -1.0,   27.5625, 1.95,   1.95,   2.4375, -1.0,
    2.4375,   2.4375, 3.4125, 4.875,  4.875,   4.875,  4.875,   2.4375,
};
// The MLP widths conversion/deci.py writes (feed_forward_length), computed
// from the ffn_mult above by its _ffn_mult_to_intermediate_size in Python
// (int(2 * ffn_mult * hidden / 3) rounded up to 256; 0 for a null ffn_mult),
// not by willfit.
const std::vector<std::uint32_t> kSuperFfn = {
    14336, 28672, 28672, 28672, 28672, 28672, 14336, 14336, 28672, 28672, 28672, 17920,
    28672, 28672, 28672, 28672, 28672, 28672, 28672, 28672, 28672, 28672, 28672, 28672,
    28672, 28672, 28672, 28672, 28672, 28672, 28672, 28672, 28672, 28672, 28672, 28672,
    28672, 28672, 28672, 28672, 28672, 28672, 7168,  14336, 14336, 7168,  28672, 7168,
    14336, 7168,  7168,  7168,  28672, 7168,  5632,  5632,  7168,  5632,  5632,  5632,
    7168,  7168,  2816,  2816,  5632,  5632,  2816,  2816,  5632,  2816,  2816,  28672,
    28672, 28672, 28672, 28672, 28672, 28672, 28672, 28672,
};
const std::vector<std::uint32_t> kUltraFfn = {
    5376,   10752, 16128, 16128, 16128,  16128, 16128,  16128, 21504,  0,     0,     0,     0,
    21504,  21504, 21504, 53248, 53248,  0,     0,      0,     0,      0,     0,     53248, 53248,
    53248,  0,     0,     0,     0,      0,     53248,  53248, 53248,  26624, 0,     0,     0,
    21504,  21504, 21504, 21504, 53248,  53248, 0,      0,     0,      0,     0,     53248, 53248,
    53248,  53248, 0,     0,     0,      0,     0,      53248, 53248,  53248, 53248, 0,     0,
    0,      0,     0,     53248, 53248,  53248, 53248,  0,     0,      0,     0,     0,     53248,
    53248,  53248, 53248, 0,     0,      0,     0,      0,     53248,  37376, 37376, 37376, 0,
    0,      32000, 26624, 26624, 26624,  26624, 26624,  26624, 0,      26624, 26624, 26624, 26624,
    26624,  26624, 26624, 26624, 0,      0,     0,      0,     0,      32000, 53248, 53248, 53248,
    0,      0,     0,     0,     0,      0,     0,      0,     399360, 0,     0,     0,     0,
    0,      0,     0,     0,     425984, 0,     0,      0,     0,      0,     0,     0,     0,
    343040, 0,     0,     0,     0,      0,     301056, 21504, 21504,  26624, 0,     26624, 26624,
    37376,  53248, 53248, 53248, 53248,  26624,
};

struct Nas {
  int hidden = 0;
  int heads = 0;
  const std::vector<int>* groups = nullptr;
  const std::vector<double>* mult = nullptr;
  const std::vector<std::uint32_t>* ffn = nullptr;
};

const Nas kSuper{8192, 64, &kSuperGroups, &kSuperMult, &kSuperFfn};
const Nas kUltra{16384, 128, &kUltraGroups, &kUltraMult, &kUltraFfn};

// config.json as published (the keys the shape depends on): num_key_value_heads
// and intermediate_size are null there.
Json nas_config(const Nas& n) {
  Json blocks = Json::array();
  for (std::size_t i = 0; i < n.groups->size(); ++i) {
    const int g = (*n.groups)[i];
    const double m = (*n.mult)[i];
    blocks.push_back({{"attention",
                       {{"n_heads_in_group", g > 0 ? Json(g) : Json(nullptr)},
                        {"no_op", g == 0},
                        {"replace_with_linear", false}}},
                      {"ffn",
                       {{"ffn_mult", m > 0 ? Json(m) : Json(nullptr)},
                        {"no_op", m <= 0},
                        {"replace_with_linear", false}}}});
  }
  return {{"architectures", {"DeciLMForCausalLM"}},
          {"model_type", "nemotron-nas"},
          {"hidden_size", n.hidden},
          {"num_attention_heads", n.heads},
          {"num_key_value_heads", nullptr},
          {"intermediate_size", nullptr},
          {"num_hidden_layers", n.groups->size()},
          {"vocab_size", 128256},
          {"max_position_embeddings", 131072},
          {"rope_theta", 500000.0},
          {"rms_norm_eps", 1e-5},
          {"tie_word_embeddings", false},
          {"torch_dtype", "bfloat16"},
          {"block_configs", blocks}};
}

// The GGUF header conversion/deci.py writes from it: per-layer head counts
// (num_attention_heads on attending layers, 0 on no_op ones), KV head counts
// (num_attention_heads / n_heads_in_group, 0 on no_op ones) and MLP widths;
// key_length and value_length hidden / heads.
test::GgufWriter nas_gguf(const Nas& n) {
  std::vector<std::uint32_t> heads;
  std::vector<std::uint32_t> kv;
  for (const int g : *n.groups) {
    heads.push_back(g > 0 ? static_cast<std::uint32_t>(n.heads) : 0U);
    kv.push_back(g > 0 ? static_cast<std::uint32_t>(n.heads / g) : 0U);
  }
  const auto h = static_cast<std::uint32_t>(n.hidden);
  test::GgufWriter w;
  w.str("general.architecture", "deci");
  w.u32("deci.block_count", static_cast<std::uint32_t>(n.groups->size()));
  w.u32("deci.context_length", 131072);
  w.u32("deci.embedding_length", h);
  w.u32_array("deci.attention.head_count_kv", kv);
  w.u32_array("deci.attention.head_count", heads);
  w.u32_array("deci.feed_forward_length", *n.ffn);
  w.u32("deci.attention.key_length", h / static_cast<std::uint32_t>(n.heads));
  w.u32("deci.attention.value_length", h / static_cast<std::uint32_t>(n.heads));
  w.u32("deci.rope.dimension_count", h / static_cast<std::uint32_t>(n.heads));
  w.u32("deci.vocab_size", 128256);
  w.tensor("token_embd.weight", {h, 256}, test::kQ8_0);
  w.tensor("output.weight", {h, 256}, test::kQ8_0);
  return w;
}

// A config.json and a GGUF of one model: both read without reservations,
// the same widths layer by layer, and the same KV cache, never empty, and
// compute buffer at 4 Ki and 32 Ki tokens with and without flash attention
// (test::expect_same_estimate).
void expect_same_reading(const Model& cfg, const Model& file) {
  EXPECT_TRUE(cfg.unchecked_architecture.empty()) << cfg.unchecked_architecture;
  EXPECT_TRUE(file.unchecked_architecture.empty()) << file.unchecked_architecture;
  ASSERT_EQ(cfg.arch.layer_widths.size(), file.arch.layer_widths.size());
  for (std::size_t i = 0; i < cfg.arch.layer_widths.size(); ++i) {
    EXPECT_EQ(cfg.arch.layer_widths[i].heads, file.arch.layer_widths[i].heads) << i;
    EXPECT_EQ(cfg.arch.layer_widths[i].kv_heads, file.arch.layer_widths[i].kv_heads) << i;
    EXPECT_EQ(cfg.arch.layer_widths[i].ffn, file.arch.layer_widths[i].ffn) << i;
  }
  const test::EstimateGrid grid{.contexts = {4096, 32768},
                                .params = test::EstimateGrid::Params::None};
  for (const auto& p : test::expect_same_estimate(cfg, file, "config vs GGUF", grid)) {
    EXPECT_GT(p.x.memory.kv_cache, 0) << p.context;
  }
}

TEST(Deci, SuperConfigAndGgufAgree) {
  const Model cfg = from_config(nas_config(kSuper));
  const Model file = from_gguf(nas_gguf(kSuper));
  expect_same_reading(cfg, file);
  // The card: 49.9 B parameters (nvidia/Llama-3_3-Nemotron-Super-49B-v1
  // model card; the brief of issue 18 quotes it).
  EXPECT_LT(rel(static_cast<double>(cfg.params), 49.9e9), 0.01) << cfg.params;
  EXPECT_EQ(attention_layer_count(cfg.arch), 49);
  EXPECT_EQ(mlp_layer_count(cfg.arch), 80);
}

TEST(Deci, UltraConfigAndGgufAgree) {
  const Model cfg = from_config(nas_config(kUltra));
  const Model file = from_gguf(nas_gguf(kUltra));
  expect_same_reading(cfg, file);
  // The card: 253 B parameters (nvidia/Llama-3_1-Nemotron-Ultra-253B-v1).
  EXPECT_LT(rel(static_cast<double>(cfg.params), 253e9), 0.01) << cfg.params;
  // 81 dummy blocks (neither attention nor MLP), 81 with an MLP, 64 attending.
  EXPECT_EQ(attention_layer_count(cfg.arch), 64);
  EXPECT_EQ(mlp_layer_count(cfg.arch), 81);
  // The widest MLP (block 129, ffn_mult 39.0) sizes the compute buffer.
  EXPECT_EQ(cfg.arch.intermediate_size, 425984);
}

// llama.cpp's own reading of the Ultra GGUF: the n_head array print_info
// logged for it in ggml-org/llama.cpp pull request 12843 ("print_info:
// n_head = [128, 128, ..., 0, 0, 0, 0, 128, ...]"; n_head_kv the same with
// 8): its first 48 entries.
TEST(Deci, UltraHeadsMatchLlamaCppsLog) {
  const std::vector<int> logged = {128, 128, 128, 128, 128, 128, 128, 128, 128, 0,   0,   0,
                                   0,   128, 128, 128, 128, 128, 0,   0,   0,   0,   0,   0,
                                   128, 128, 128, 0,   0,   0,   0,   0,   128, 128, 128, 128,
                                   0,   0,   0,   128, 128, 128, 0,   128, 0,   0,   0,   0};
  const Model file = from_gguf(nas_gguf(kUltra));
  for (std::size_t i = 0; i < logged.size(); ++i) {
    EXPECT_EQ(file.arch.layer_widths[i].heads, logged[i]) << i;
    EXPECT_EQ(file.arch.layer_widths[i].kv_heads, logged[i] > 0 ? 8 : 0) << i;
  }
}

// A deci layer with no KV heads has no attention (or a linear map for it):
// it holds neither K and V nor a recurrent state, unlike a hybrid's layer
// with 0 KV heads (gguf.cpp once read it as one).
TEST(Deci, LayerWithoutKvHeadsHoldsNoKvAndNoState) {
  const Model file = from_gguf(nas_gguf(kSuper));
  EXPECT_NE(file.arch.attention.kind, AttentionKind::Hybrid);
  EXPECT_EQ(recurrent_layer_count(file.arch), 0);
  EXPECT_EQ(recurrent_state_bytes(file.arch, 4), 0);
  for (std::size_t i = 0; i < kSuperGroups.size(); ++i) {
    const LayerRoles r = layer_roles(file.arch, static_cast<int>(i));
    EXPECT_EQ(r.attention, kSuperGroups[i] > 0) << i;
    EXPECT_FALSE(r.recurrent) << i;
  }
  // One KV cell of the whole model without the layers that attend: nothing.
  Architecture none = file.arch;
  for (LayerWidths& l : none.layer_widths) {
    l.heads = 0;
    l.kv_heads = 0;
  }
  EXPECT_EQ(kv_cache_bytes(none, {4096, 1, 512, kv_f16(), kv_f16(), 256}), 0);
}

// The KV cache summed per layer, by hand from the published heads: Super's
// 49 attending blocks of 64 / 8 = 8 KV heads of 8192 / 64 = 128, K and V in
// F16: 49 x 8 x 128 x 2 x 2 = 200704 bytes a token; Ultra's 64 of 128 / 16
// = 8 KV heads of 128: 64 x 8 x 128 x 2 x 2 = 262144. Without flash
// attention llama.cpp gives every one of the layers V rows of the widest
// layer (llama-kv-cache.cpp TAG_V_CACHE_VARIABLE): K for the attending
// layers, V for all 80 (162).
TEST(Deci, KvCacheIsSummedPerLayer) {
  const std::int64_t cells = 8192;
  const auto kv = [&](const Model& m, bool padded) {
    KvCacheQuery q{cells, 1, 512, kv_f16(), kv_f16(), 256};
    q.v_rows_padded = padded;
    return kv_cache_bytes(m.arch, q);
  };
  const Model super = from_config(nas_config(kSuper));
  EXPECT_EQ(kv(super, false), 200704 * cells);
  EXPECT_EQ(kv(super, true), (49 + 80) * 8 * 128 * 2 * cells);
  const Model ultra = from_config(nas_config(kUltra));
  EXPECT_EQ(kv(ultra, false), 262144 * cells);
  EXPECT_EQ(kv(ultra, true), (64 + 162) * 8 * 128 * 2 * cells);
}

// LoRA's linear modules follow each block's own shape: together they hold
// exactly the blocks' linear weights (no module of a block without
// attention, each MLP at its width).
TEST(Deci, LinearModulesAreTheBlocksOwn) {
  for (const Nas* n : {&kSuper, &kUltra}) {
    const Model m = from_config(nas_config(*n));
    std::int64_t sum = 0;
    for (const LinearModule& x : linear_modules(m.arch)) {
      sum += x.in * x.out * x.count;
    }
    EXPECT_EQ(sum, count_params(m.arch).linear()) << m.arch.layers;
  }
}

// apple/OpenELM-270M (llama.cpp openelm): layer-wise scaling, each layer its
// own query heads, KV heads and MLP width, every layer attending. Its
// config.json keys (configuration_openelm.py): model_dim 1280, head_dim 64,
// 16 layers, num_query_heads 12 x 5, 16 x 7, 20 x 4 and num_kv_heads 3 x 5,
// 4 x 7, 5 x 4 (as public ports transcribe them,
// a public C++ header of an OpenELM port (class OpenELM : public Model, OpenELMBlock,
// TiedEmbedding)), ffn_multipliers from corenet's recipe, linspace(0.5, 4.0, 16), ffn_dim_divisor
// 256, vocab 32000, max_context_length 2048, shared input and output layers. The GGUF:
// conversion/openelm.py's per-layer arrays.
TEST(Deci, OpenElmConfigAndGgufAgree) {
  const std::vector<int> q = {12, 12, 12, 12, 12, 16, 16, 16, 16, 16, 16, 16, 20, 20, 20, 20};
  std::vector<int> kv;
  std::vector<double> mult;
  for (std::size_t i = 0; i < q.size(); ++i) {
    kv.push_back(q[i] / 4);
    mult.push_back(0.5 + static_cast<double>(i) * 3.5 / 15.0);
  }
  const Json cfg = {{"model_type", "openelm"},
                    {"architectures", {"OpenELMForCausalLM"}},
                    {"model_dim", 1280},
                    {"head_dim", 64},
                    {"num_transformer_layers", 16},
                    {"num_query_heads", q},
                    {"num_kv_heads", kv},
                    {"ffn_multipliers", mult},
                    {"ffn_dim_divisor", 256},
                    {"vocab_size", 32000},
                    {"max_context_length", 2048},
                    {"share_input_output_layers", true},
                    {"torch_dtype", "float32"}};
  // The MLP widths the same port transcribes (not computed by willfit).
  const std::vector<std::uint32_t> ffn = {768,  1024, 1280, 1536, 1792, 2048, 2560, 2816,
                                          3072, 3328, 3584, 3840, 4352, 4608, 4864, 5120};
  test::GgufWriter w;
  w.str("general.architecture", "openelm");
  w.u32("openelm.block_count", 16);
  w.u32("openelm.context_length", 2048);
  w.u32("openelm.embedding_length", 1280);
  w.u32_array("openelm.feed_forward_length", ffn);
  w.u32_array("openelm.attention.head_count", std::vector<std::uint32_t>(q.begin(), q.end()));
  w.u32_array("openelm.attention.head_count_kv", std::vector<std::uint32_t>(kv.begin(), kv.end()));
  w.u32("openelm.rope.dimension_count", 64);
  w.u32("openelm.attention.key_length", 64);
  w.u32("openelm.attention.value_length", 64);
  w.tensor("token_embd.weight", {1280, 32000}, test::kQ8_0);  // the vocabulary: no vocab_size key
  const Model c = from_config(cfg);
  expect_same_reading(c, from_gguf(w));
  ASSERT_EQ(c.arch.layer_widths.size(), 16U);
  for (std::size_t i = 0; i < ffn.size(); ++i) {
    EXPECT_EQ(c.arch.layer_widths[i].ffn, ffn[i]) << i;
  }
  EXPECT_TRUE(c.arch.tied_embeddings);
  // The card: 270 M parameters (apple/OpenELM-270M).
  EXPECT_LT(rel(static_cast<double>(c.params), 270e6), 0.01) << c.params;
  // Per token, F16: (5 x 3 + 7 x 4 + 4 x 5) KV heads of 64, K and V.
  EXPECT_EQ(kv_cache_bytes(c.arch, {256, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{5 * 3 + 7 * 4 + 4 * 5} * 64 * 2 * 2 * 256);
}

// DeciLM-7B's form (conversion/deci.py, the branch without block_configs):
// one head count and MLP width, KV heads per layer (config.json
// num_key_value_heads_per_layer). Its layers all attend: the per-layer KV
// heads are summed, and none is read as recurrent.
TEST(Deci, PerLayerKvHeadsOfDeciLm7b) {
  // Deci/DeciLM-7B config.json: 32 layers of hidden 4096, 32 heads,
  // intermediate 14336; num_key_value_heads_per_layer as its card lists it
  // is not transcribed here, so the check is of the reading, with counts
  // of 4, 2 and 1 KV heads.
  std::vector<int> per_layer;
  for (int i = 0; i < 32; ++i) {
    per_layer.push_back(i < 8 ? 4 : i < 24 ? 2 : 1);
  }
  const Json cfg = {{"model_type", "deci"},
                    {"hidden_size", 4096},
                    {"num_attention_heads", 32},
                    {"num_hidden_layers", 32},
                    {"intermediate_size", 14336},
                    {"vocab_size", 32000},
                    {"num_key_value_heads_per_layer", per_layer}};
  const Model m = from_config(cfg);
  ASSERT_EQ(m.arch.layer_widths.size(), 32U);
  EXPECT_EQ(attention_layer_count(m.arch), 32);
  // (8 x 4 + 16 x 2 + 8 x 1) KV heads of 128, K and V, F16
  EXPECT_EQ(kv_cache_bytes(m.arch, {256, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{8 * 4 + 16 * 2 + 8 * 1} * 128 * 2 * 2 * 256);
}

}  // namespace
}  // namespace willfit
