// PaddleOCR-VL (PaddlePaddle/PaddleOCR-VL, "PaddleOCR-VL-0.9B"; llama.cpp
// `paddleocr`, config.json model_type `paddleocr_vl`): ERNIE-4.5-0.3B's text
// model with an untied head, run by llama.cpp as qwen2vl's graph (paddleocr.cpp:
// M-RoPE, optional biases) over ernie4_5's tensors (llama_model_paddleocr
// derives from llama_model_ernie4_5). The GGUF holds the text model; the
// NaViT-style vision tower is the mmproj. The published config and the
// converter's GGUF give one estimate; the counts match the cards.
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

// PaddleOCR-VL's config.json as a public Rust port's tests transcribe it
// ("canonical_config_json", a public Rust PaddleOcrVlConfig with tests (canonical_config_json;
// validate_catches_wrong_model_type rejecting 'paddleocr_vl_assistant'); transformers'
// tests/models/paddleocr_vl test the same text keys with vocab_size 103424,
// head_dim 128, rope_theta 500000, mrope_section [16, 24, 24],
// tie_word_embeddings false): model_type paddleocr_vl, hidden_size 1024, 18
// layers, 16 attention heads of 128 over 2 KV heads, intermediate_size 3072,
// vocab_size 103424, max_position_embeddings 131072, rms_norm_eps 1e-5;
// vision_config hidden_size 1152, 27 layers, 16 heads, intermediate_size
// 4304, patch_size 14, spatial_merge_size 2.
Json paddleocr_vl_config() {
  return {{"architectures", {"PaddleOCRVLForConditionalGeneration"}},
          {"model_type", "paddleocr_vl"},
          {"hidden_size", 1024},
          {"num_hidden_layers", 18},
          {"num_attention_heads", 16},
          {"num_key_value_heads", 2},
          {"head_dim", 128},
          {"intermediate_size", 3072},
          {"vocab_size", 103424},
          {"max_position_embeddings", 131072},
          {"rope_theta", 500000},
          {"rope_scaling", {{"mrope_section", {16, 24, 24}}, {"rope_type", "default"}}},
          {"rms_norm_eps", 1e-5},
          {"hidden_act", "silu"},
          {"tie_word_embeddings", false},
          {"torch_dtype", "bfloat16"},
          {"vision_config",
           {{"hidden_size", 1152},
            {"num_hidden_layers", 27},
            {"num_attention_heads", 16},
            {"intermediate_size", 4304},
            {"patch_size", 14},
            {"image_size", 384},
            {"spatial_merge_size", 2},
            {"num_channels", 3}}}};
}

// The header conversion/ernie.py PaddleOCRModel (Ernie4_5Model on base.py's
// TextModel, 80fb11ac) writes: block_count, context_length,
// embedding_length, feed_forward_length, head_count, head_count_kv, the
// rope sections (mrope_section), rope.freq_base, layer_norm_rms_epsilon,
// key_length and value_length (head_dim). Q is 2048 wide, twice the hidden
// width; the head is untied.
test::GgufWriter paddleocr_gguf() {
  const std::string a = "paddleocr.";
  test::GgufWriter w;
  w.str("general.architecture", "paddleocr");
  w.u32(a + "block_count", 18);
  w.u32(a + "context_length", 131072);
  w.u32(a + "embedding_length", 1024);
  w.u32(a + "feed_forward_length", 3072);
  w.u32(a + "attention.head_count", 16);
  w.u32(a + "attention.head_count_kv", 2);
  w.u32_array(a + "rope.dimension_sections", {16, 24, 24, 0});
  w.f32(a + "rope.freq_base", 500000.0F);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-5F);
  w.u32(a + "attention.key_length", 128);
  w.u32(a + "attention.value_length", 128);
  w.tensor("token_embd.weight", {1024, 103424}, test::kQ8_0);
  w.tensor("output.weight", {1024, 103424}, test::kQ8_0);
  w.tensor("blk.0.attn_q.weight", {1024, 2048}, test::kQ8_0);
  w.tensor("blk.0.ffn_gate.weight", {1024, 3072}, test::kQ8_0);
  return w;
}

TEST(PaddleOcr, ConfigIsKnownAndCountsTheCards) {
  const Model m = test::from_config(paddleocr_vl_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  EXPECT_EQ(m.arch.layers, 18);
  EXPECT_EQ(m.arch.heads, 16);
  EXPECT_EQ(m.arch.kv_heads, 2);
  EXPECT_EQ(m.arch.head_dim, 128);
  EXPECT_FALSE(m.arch.tied_embeddings);
  EXPECT_FALSE(m.arch.moe.has_value());
  const ParamBreakdown p = count_params(m.arch);
  // The text model is ERNIE-4.5-0.3B's (its card: 0.36B, tied) with a head
  // of its own: 103424 x 1024 more.
  EXPECT_LT(test::rel(static_cast<double>(p.total() - p.vision - p.output), 0.36e9), 0.01)
      << p.total();
  EXPECT_EQ(p.output, std::int64_t{103424} * 1024);
  // The vision tower (vision_config, the generic estimate) takes the model
  // to the "0.9B" of its name (PaddlePaddle/PaddleOCR-VL), rounded to 0.1 B.
  EXPECT_GT(p.vision, 0);
  EXPECT_NEAR(static_cast<double>(p.total()), 0.9e9, 0.05e9) << p.total() << " " << p.vision;
}

TEST(PaddleOcr, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = test::from_gguf(paddleocr_gguf());
  Json text_only = paddleocr_vl_config();
  text_only.erase("vision_config");
  const Model c = test::from_config(text_only);
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_EQ(g.arch.head_dim, 128);
  EXPECT_EQ(g.arch.kv_heads, 2);
  EXPECT_FALSE(g.arch.tied_embeddings);
  test::expect_same_estimate(g, c, "PaddleOCR-VL GGUF vs config", {4096, 32768});
  // KV: 18 layers x 2 heads x 128 x (K + V) x 2 bytes per token.
  EXPECT_EQ(test::llama_cpp_q4_estimate(g, 4096, true).memory.kv_cache,
            std::int64_t{18} * 2 * 128 * 2 * 2 * 4096);
}

// A config.json with vision_config counts the tower as the projector term,
// as other VL models' do; --text-only (vision_params cleared) drops it.
TEST(PaddleOcr, VisionConfigIsTheProjector) {
  const Model m = test::from_config(paddleocr_vl_config());
  EXPECT_GT(m.arch.vision_params, 0);
  const Estimate e = test::llama_cpp_q4_estimate(m, 4096, true);
  EXPECT_GT(e.memory.projector, 0);
}

}  // namespace
}  // namespace willfit
