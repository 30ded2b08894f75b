// CogVLM (llama.cpp `cogvlm`, config.json model_type `cogvlm`; issue 18).
// cogvlm.cpp at 80fb11ac: a Llama-2-7B-shaped language model (RMS norms,
// one fused QKV without a bias, SwiGLU) whose every layer also holds a
// visual expert, a second fused QKV, output projection and gated MLP of the
// same shapes (vis_attn_qkv, vis_attn_output, vis_gate, vis_up, vis_down),
// used instead of the language weights for a micro-batch of image
// embeddings; the graph picks no rows to output. The EVA2-CLIP tower and its
// GLU adapter are the mmproj (conversion/cogvlm.py CogVLMVisionModel).
// Read from its published shape and from the GGUF header llama.cpp's
// converter writes; both must give one estimate.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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

// THUDM/cogvlm-chat-hf (the hub is not reachable here): its
// configuration_cogvlm.py CogVLMConfig, whose defaults are that
// checkpoint's, as mindspore-lab/mindnlp transcribes it
// (mindnlp/transformers/models/cogvlm/configuration_cogvlm.py): vocab_size
// 32000, hidden_size 4096, intermediate_size 11008, 32 layers, 32 heads,
// silu, 2048 positions, untied; vision_config hidden_size 1792,
// intermediate_size 15360, 63 layers, 16 heads, image 490, patch 14,
// num_positions 1226. The card (THUDM/CogVLM README,
// a version of the THUDM/CogVLM README, 8,812 characters (its acknowledgement of MiniGPT-4, LLAVA,
// LRV-Instruction, LLaVAR and Shikra data)): "CogVLM-17B has 10 billion vision parameters and 7
// billion language parameters".
Json cogvlm_config(bool with_vision = true, int layers = 32) {
  Json j = {{"model_type", "cogvlm"},     {"architectures", {"CogVLMForCausalLM"}},
            {"hidden_size", 4096},        {"num_hidden_layers", layers},
            {"num_attention_heads", 32},  {"intermediate_size", 11008},
            {"vocab_size", 32000},        {"max_position_embeddings", 2048},
            {"hidden_act", "silu"},       {"rms_norm_eps", 1e-5},
            {"template_version", "chat"}, {"tie_word_embeddings", false}};
  if (with_vision) {
    j["vision_config"] = {
        {"hidden_act", "gelu"}, {"hidden_size", 1792},        {"image_size", 490},
        {"in_channels", 3},     {"intermediate_size", 15360}, {"layer_norm_eps", 1e-6},
        {"num_heads", 16},      {"num_hidden_layers", 63},    {"num_positions", 1226},
        {"patch_size", 14}};
  }
  return j;
}

// The GGUF llama.cpp's converter writes (conversion/cogvlm.py CogVLMModel,
// LlamaModel's keys: no head_count_kv, the config having no
// num_key_value_heads) and the tensors cogvlm.cpp loads, F16 matrices and
// F32 norms.
test::GgufWriter cogvlm_gguf(bool with_layers = true) {
  const std::string a = "cogvlm";
  constexpr std::uint64_t e = 4096;
  constexpr std::uint64_t ff = 11008;
  constexpr std::uint64_t vocab = 32000;
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".context_length", 2048);
  w.u32(a + ".embedding_length", e);
  w.u32(a + ".feed_forward_length", ff);
  w.u32(a + ".block_count", 32);
  w.u32(a + ".attention.head_count", 32);
  w.f32(a + ".attention.layer_norm_rms_epsilon", 1e-5F);
  w.u32(a + ".rope.dimension_count", 128);
  w.u32("general.file_type", 1);
  w.tensor("token_embd.weight", {e, vocab}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  w.tensor("output.weight", {e, vocab}, test::kF16);
  for (int i = 0; with_layers && i < 32; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    for (const std::string p : {"", "vis_"}) {
      w.tensor(b + p + "attn_qkv.weight", {e, 3 * e}, test::kF16);
      w.tensor(b + p + "attn_output.weight", {e, e}, test::kF16);
    }
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    for (const std::string p : {"ffn_", "vis_"}) {
      w.tensor(b + p + "gate.weight", {e, ff}, test::kF16);
      w.tensor(b + p + "up.weight", {e, ff}, test::kF16);
      w.tensor(b + p + "down.weight", {ff, e}, test::kF16);
    }
  }
  return w;
}

// The language model is Vicuna-7B-v1.5's shape (Llama-2-7B: 6,738,415,616
// parameters, norms included) and the visual expert one more copy of its
// layers. The card's split, 7 B language and 10 B vision (the expert and
// the tower), is given to the billion, so the totals are checked to it.
TEST(CogVlm, ConfigIsKnownAndCountsTheCard) {
  const Model m = test::from_config(cogvlm_config());
  EXPECT_TRUE(m.unchecked_architecture.empty());
  EXPECT_TRUE(m.arch.visual_expert);
  EXPECT_TRUE(m.arch.attention.fused_qkv);
  EXPECT_EQ(m.arch.kv_heads, 32);
  const ParamBreakdown p = count_params(m.arch);
  Architecture language = m.arch;
  language.visual_expert = false;
  language.vision_params = 0;
  const ParamBreakdown l = count_params(language);
  EXPECT_LT(rel(static_cast<double>(l.total()), 6738415616.0), 0.01) << l.total();
  EXPECT_LT(rel(static_cast<double>(p.total() - l.total()), 10e9), 0.1) << p.total();
  EXPECT_LT(rel(static_cast<double>(p.total()), 17e9), 0.05) << p.total();
  // A text token reads the language weights: the visual MLP is not active.
  EXPECT_EQ(p.mlp_active, l.mlp);
}

// Every head cached, once (the visual expert shares the cache): at 2048
// tokens in F16, 32 x 2 x 4096 x 2 bytes x 2048 = 1 GiB.
TEST(CogVlm, KvCacheIsEveryHeadOnce) {
  const Model m = test::from_config(cogvlm_config());
  EXPECT_EQ(kv_cache_bytes(m.arch, {2048, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{32} * 2 * 4096 * 2 * 2048);
}

TEST(CogVlm, GgufHeaderGivesWhatTheConfigGives) {
  for (const bool layers : {true, false}) {
    const Model g = test::from_gguf_header(cogvlm_gguf(layers));
    const Model c = test::from_config(cogvlm_config(false));
    EXPECT_TRUE(g.unchecked_architecture.empty());
    EXPECT_TRUE(g.arch.visual_expert);
    EXPECT_TRUE(g.arch.attention.fused_qkv);
    EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
    test::expect_same_estimate(g, c, "cogvlm GGUF vs config", {1024, 2048});
  }
}

// The weights willfit lays out in F16 are the file's tensors byte for byte,
// the visual expert's included.
TEST(CogVlm, WeightsAreTheFilesTensors) {
  const Model c = test::from_config(cogvlm_config(false));
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total(), cogvlm_gguf().data_size());
}

// llama-quantize's Q4_K_M: vis_attn_qkv is typed as attn_qkv (its name
// holds "attn_qkv.weight"), so there are 64 attn_v-like tensors, and the
// visual MLP (vis_gate, vis_up, vis_down: "other") stays at Q4_K on every
// layer where ffn_down's bumps do not reach. The visual expert makes the
// Q4_K_M weights more than the language layers' alone, by at least the
// visual MLP at Q4_K (4.5 bits) and its attention at Q4_K or more.
TEST(CogVlm, QuantisedVisualExpertIsCounted) {
  const Model c = test::from_config(cogvlm_config(false));
  Model text = c;
  text.arch.visual_expert = false;
  const auto q4 = *parse_precision("q4_k_m");
  const std::int64_t extra = weight_layout(c, q4).total() - weight_layout(text, q4).total();
  const std::int64_t per_layer_q4k = (3 * 4096 * 11008 + 4 * 4096 * 4096) / 256 * 144;
  EXPECT_GE(extra, 32 * per_layer_q4k);
  EXPECT_LE(extra, 32 * per_layer_q4k * 6 / 4);
}

// CogVLM-17B's language model REDUCED to 4 of its 32 layers (make_gguf row
// cogvlm-chat-r4, every width the model's), read from the published shape
// with num_hidden_layers 4, against what a real llama.cpp allocated for the
// synthetic F16, Q8_0 and Q4_K_M files
// (tests/data/llamacpp_cpu_compute_cogvlm.csv, llamacpp_cpu_kv_cogvlm.csv;
// docs/live-llamacpp.md, CogVLM run): chatglm.cpp's fused-QKV graph with a
// gated MLP and no rows to output picked.
TEST(CogVlm, MatchesTheLiveLlamaCpp) {
  const Model m = test::from_config(cogvlm_config(false, 4));
  // every row within 0.1 %, the KV buffers within the log's rounding
  test::expect_live_tables(m, "cogvlm", 27, 0.1);
}

}  // namespace
}  // namespace willfit
