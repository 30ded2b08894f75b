// HunyuanOCR (tencent/HunyuanOCR; llama.cpp `hunyuan_vl`, config.json
// model_type `hunyuan_vl` with its text model under text_config,
// `hunyuan_vl_text`): hunyuan-dense's layer (Q and K RMS-normed per head
// after RoPE, Q twice the hidden width) with XD-RoPE's four position
// sections, tied embeddings. The GGUF holds the text model; the vision tower
// is the mmproj. The published config and the converter's GGUF give one
// estimate; the count matches the card.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;

// HunyuanOCR's config.json as a public Rust port's tests transcribe it
// ("HUNYUAN_OCR_1_5", a public Rust HunyuanOCR config (HUNYUAN_OCR_1_5; image_start_token_id,
// image_newline_token_id defaults); vllm-omni's tests quote the same text dimensions as "HunyuanOCR
// config.json dimensions", a public pytest file of vllm-omni models
// (MammothModa2DiTPipeline._split_ar_conditions)): architectures HunYuanVLForConditionalGeneration,
// model_type hunyuan_vl, tie_word_embeddings true; text_config: hidden_size 1024, intermediate_size
// 3584, 24 layers, 16 attention heads of head_dim 128, 8 KV heads, max_position_embeddings 131072,
// rms_norm_eps 1e-5, vocab_size 120818, rope xdrope (rope_theta 10000, alpha 1000, xdrope_section
// [16, 16, 16, 16]); vision_config: hidden_size 1152, intermediate_size 4304, 27 layers, 16 heads,
// patch_size 16, spatial_merge_size 2, out_hidden_size 1024.
Json hunyuan_ocr_config() {
  return {{"architectures", {"HunYuanVLForConditionalGeneration"}},
          {"model_type", "hunyuan_vl"},
          {"tie_word_embeddings", true},
          {"text_config",
           {{"model_type", "hunyuan_vl_text"},
            {"attention_bias", false},
            {"head_dim", 128},
            {"hidden_act", "silu"},
            {"hidden_size", 1024},
            {"intermediate_size", 3584},
            {"max_position_embeddings", 131072},
            {"num_attention_heads", 16},
            {"num_hidden_layers", 24},
            {"num_key_value_heads", 8},
            {"rms_norm_eps", 1e-5},
            {"tie_word_embeddings", true},
            {"vocab_size", 120818},
            {"rope_parameters",
             {{"alpha", 1000.0},
              {"rope_theta", 10000.0},
              {"rope_type", "xdrope"},
              {"xdrope_section", {16, 16, 16, 16}}}}}},
          {"vision_config",
           {{"model_type", "hunyuan_vl_vision"},
            {"hidden_act", "gelu"},
            {"hidden_size", 1152},
            {"intermediate_size", 4304},
            {"num_attention_heads", 16},
            {"num_key_value_heads", 16},
            {"num_channels", 3},
            {"num_hidden_layers", 27},
            {"out_hidden_size", 1024},
            {"patch_size", 16},
            {"spatial_merge_size", 2},
            {"text_hidden_size", 1024}}}};
}

// The header conversion/hunyuan.py HunyuanVLTextModel (HunYuanModel on
// base.py's TextModel, 80fb11ac) writes: block_count, context_length,
// embedding_length, feed_forward_length, head_count, head_count_kv,
// key_length and value_length (head_dim), layer_norm_rms_epsilon; no
// expert_count (num_experts is popped); then rope.freq_base,
// rope.scaling.alpha, the rope scaling type, factor and original context,
// and the XD-RoPE sections. No output.weight: tied.
test::GgufWriter hunyuan_ocr_gguf() {
  const std::string a = "hunyuan_vl.";
  test::GgufWriter w;
  w.str("general.architecture", "hunyuan_vl");
  w.u32(a + "block_count", 24);
  w.u32(a + "context_length", 131072);
  w.u32(a + "embedding_length", 1024);
  w.u32(a + "feed_forward_length", 3584);
  w.u32(a + "attention.head_count", 16);
  w.u32(a + "attention.head_count_kv", 8);
  w.u32(a + "attention.key_length", 128);
  w.u32(a + "attention.value_length", 128);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-5F);
  w.f32(a + "rope.freq_base", 10000.0F);
  w.f32(a + "rope.scaling.alpha", 1000.0F);
  w.str(a + "rope.scaling.type", "none");
  w.f32(a + "rope.scaling.factor", 1.0F);
  w.u32(a + "rope.scaling.original_context_length", 131072);
  w.u32_array(a + "rope.dimension_sections", {16, 16, 16, 16});
  w.tensor("token_embd.weight", {1024, 120818}, test::kQ8_0);
  w.tensor("blk.0.attn_q.weight", {1024, 2048}, test::kQ8_0);
  w.tensor("blk.0.ffn_gate.weight", {1024, 3584}, test::kQ8_0);
  return w;
}

TEST(HunyuanVl, ConfigIsKnownAndCountsTheCard) {
  const Model m = test::from_config(hunyuan_ocr_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  EXPECT_EQ(m.arch.layers, 24);
  EXPECT_EQ(m.arch.heads, 16);
  EXPECT_EQ(m.arch.kv_heads, 8);
  EXPECT_EQ(m.arch.head_dim, 128);
  EXPECT_TRUE(m.arch.tied_embeddings);
  EXPECT_FALSE(m.arch.moe.has_value());
  EXPECT_GT(m.arch.vision_params, 0);  // vision_config: the projector term
  const ParamBreakdown p = count_params(m.arch);
  // The text model: 120818 x 1024 tied embeddings and 24 x (q and o 1024 x
  // 2048, k and v 1024 x 1024, MLP 3 x 1024 x 3584): 0.539 B, the widths
  // above. With the vision tower's generic estimate (27 layers of 1152:
  // 0.41 B) 0.95 B, short of the 1.1B a public survey of OCR models gives
  // HunyuanOCR-1.5 (a public Markdown survey of OCR stacks (Tesseract 5.5.3 for Vietnamese,
  // RapidOCR/PP-OCRv6, opt-in PaddleOCR-VL-1.6 via llama.cpp)): the tower's own layout (its merger
  // and embeddings) is not modelled, so only the order is held here.
  const std::int64_t text =
      std::int64_t{120818} * 1024 +
      std::int64_t{24} * (std::int64_t{2} * 1024 * 2048 + std::int64_t{2} * 1024 * 1024 +
                          std::int64_t{3} * 1024 * 3584);
  EXPECT_LT(test::rel(static_cast<double>(p.total() - p.vision), static_cast<double>(text)), 0.01)
      << p.total() - p.vision;
  EXPECT_GT(static_cast<double>(p.total()), 0.85e9) << p.total();
  EXPECT_LT(static_cast<double>(p.total()), 1.1e9) << p.total();
}

TEST(HunyuanVl, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = test::from_gguf(hunyuan_ocr_gguf());
  Json text_only = hunyuan_ocr_config();
  text_only.erase("vision_config");
  const Model c = test::from_config(text_only);
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_EQ(g.arch.kv_heads, 8);
  EXPECT_EQ(g.arch.head_dim, 128);
  EXPECT_TRUE(g.arch.tied_embeddings);
  EXPECT_FALSE(g.arch.moe.has_value());
  test::expect_same_estimate(g, c, "HunyuanOCR GGUF vs config", {4096, 32768});
  // KV: 24 layers x 8 heads x 128 x (K + V) x 2 bytes per token.
  EXPECT_EQ(test::llama_cpp_q4_estimate(g, 4096, true).memory.kv_cache,
            std::int64_t{24} * 8 * 128 * 2 * 2 * 4096);
}

// HunyuanOCR's older files carry expert_count 1 (HunYuanVL variants with
// num_experts 1): llama.cpp reads that as no experts, and so does willfit.
TEST(HunyuanVl, OneExpertIsDense) {
  test::GgufWriter w = hunyuan_ocr_gguf();
  w.u32("hunyuan_vl.expert_count", 1);
  w.u32("hunyuan_vl.expert_used_count", 1);
  const Model g = test::from_gguf(w);
  EXPECT_FALSE(g.arch.moe.has_value());
  test::expect_same_estimate(g, test::from_gguf(hunyuan_ocr_gguf()), "expert_count 1", {4096});
}

}  // namespace
}  // namespace willfit
