// DeepSeek-OCR's decoder (deepseek-ai/DeepSeek-OCR, "DeepSeek-3B-MoE";
// llama.cpp `deepseek2-ocr`, config.json model_type `deepseek_vl_v2` with
// architectures DeepseekOCRForCausalLM and the decoder under
// language_config): DeepSeek-V2's MoE layers without MLA. deepseek2.cpp's
// is_ocr path runs plain multi-head attention (q, k and v of n_embd x n_embd,
// heads of n_embd / n_head, NeoX RoPE over the whole head) and caches K and V
// of every head as any GQA model; a dense first layer, then 64 experts of 896,
// 6 a token, and 2 shared experts. The GGUF holds the decoder; the
// DeepEncoder (SAM-base and CLIP-L) is the mmproj. The published config and
// the converter's GGUF give one estimate; the count matches the checkpoint's.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/catalogue_model.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;

// DeepSeek-OCR's config.json as a public model report quotes it whole
// (a public Markdown model report of deepseek-ai/DeepSeek-OCR (tensor table ending
// model.vision_model.transformer.layers.0-23.self_attn.qkv_proj.weight [3072, 1024]), "原始
// config.json" of deepseek-ai/DeepSeek-OCR, with the checkpoint's tensor list and "参数总量:
// 3,336,106,240"): model_type deepseek_vl_v2, architectures DeepseekOCRForCausalLM; language_config
// (and the same keys at the top level): hidden_size 1280, intermediate_size 6848,
// moe_intermediate_size 896, first_k_dense_replace 1, n_routed_experts 64, n_shared_experts 2,
// num_experts_per_tok 6, 12 layers, 10 attention and 10 KV heads, kv_lora_rank and q_lora_rank
// null, use_mla false, topk_method greedy, max_position_embeddings 8192, vocab_size 129280, lm_head
// true; projector_config linear 2048 -> 1280; vision_config: sam_vit_b (12 layers of 768, 12 heads)
// and clip-l-14-224 (24 layers of 1024, 16 heads), mlp_ratio 3.7362.
Json deepseek_ocr_config() {
  const Json language = {{"architectures", {"DeepseekV2ForCausalLM"}},
                         {"first_k_dense_replace", 1},
                         {"hidden_size", 1280},
                         {"intermediate_size", 6848},
                         {"kv_lora_rank", nullptr},
                         {"lm_head", true},
                         {"max_position_embeddings", 8192},
                         {"moe_intermediate_size", 896},
                         {"n_group", 1},
                         {"n_routed_experts", 64},
                         {"n_shared_experts", 2},
                         {"num_attention_heads", 10},
                         {"num_experts_per_tok", 6},
                         {"num_hidden_layers", 12},
                         {"num_key_value_heads", 10},
                         {"q_lora_rank", nullptr},
                         {"qk_nope_head_dim", 0},
                         {"qk_rope_head_dim", 0},
                         {"topk_group", 1},
                         {"topk_method", "greedy"},
                         {"torch_dtype", "bfloat16"},
                         {"use_mla", false},
                         {"v_head_dim", 0},
                         {"vocab_size", 129280}};
  Json j = language;
  j["architectures"] = {"DeepseekOCRForCausalLM"};
  j["model_type"] = "deepseek_vl_v2";
  j["language_config"] = language;
  j["projector_config"] = {{"input_dim", 2048},
                           {"model_type", "mlp_projector"},
                           {"n_embed", 1280},
                           {"projector_type", "linear"}};
  j["vision_config"] = {
      {"image_size", 1024},
      {"mlp_ratio", 3.7362},
      {"model_name", "deeplip_b_l"},
      {"model_type", "vision"},
      {"width",
       {{"clip-l-14-224",
         {{"heads", 16}, {"image_size", 224}, {"layers", 24}, {"patch_size", 14}, {"width", 1024}}},
        {"sam_vit_b",
         {{"downsample_channels", {512, 1024}},
          {"global_attn_indexes", {2, 5, 8, 11}},
          {"heads", 12},
          {"layers", 12},
          {"width", 768}}}}}};
  return j;
}

// The header conversion/deepseek.py DeepseekV2Model writes for
// DeepseekOCRForCausalLM (80fb11ac): general.architecture deepseek2-ocr;
// base.py's block_count, context_length, embedding_length,
// feed_forward_length, head_count, head_count_kv (kept: no MLA),
// rope.freq_base (10000 by default), layer_norm_rms_epsilon (1e-6 by
// default), expert_used_count; then leading_dense_block_count, vocab_size,
// expert_feed_forward_length, expert_count, expert_shared_count,
// rope.dimension_count (qk_rope_head_dim: 0). No kv_lora_rank, no
// key_length: heads of n_embd / n_head.
test::GgufWriter deepseek_ocr_gguf() {
  const std::string a = "deepseek2-ocr.";
  test::GgufWriter w;
  w.str("general.architecture", "deepseek2-ocr");
  w.u32(a + "block_count", 12);
  w.u32(a + "context_length", 8192);
  w.u32(a + "embedding_length", 1280);
  w.u32(a + "feed_forward_length", 6848);
  w.u32(a + "attention.head_count", 10);
  w.u32(a + "attention.head_count_kv", 10);
  w.f32(a + "rope.freq_base", 10000.0F);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-6F);
  w.u32(a + "expert_used_count", 6);
  w.u32(a + "leading_dense_block_count", 1);
  w.u32(a + "vocab_size", 129280);
  w.u32(a + "expert_feed_forward_length", 896);
  w.u32(a + "expert_count", 64);
  w.u32(a + "expert_shared_count", 2);
  w.u32(a + "rope.dimension_count", 0);
  w.tensor("token_embd.weight", {1280, 129280}, test::kQ8_0);
  w.tensor("output.weight", {1280, 129280}, test::kQ8_0);
  w.tensor("blk.1.ffn_gate_exps.weight", {1280, 896, 64}, test::kQ8_0);
  return w;
}

TEST(DeepseekOcr, ConfigIsKnownAndCountsTheCheckpoint) {
  const Model m = test::from_config(deepseek_ocr_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  EXPECT_EQ(m.arch.layers, 12);
  EXPECT_EQ(m.arch.heads, 10);
  EXPECT_EQ(m.arch.kv_heads, 10);
  EXPECT_EQ(m.arch.head_dim, 128);
  EXPECT_EQ(m.arch.attention.kv_lora_rank, 0);  // use_mla false
  EXPECT_FALSE(m.arch.tied_embeddings);
  ASSERT_TRUE(m.arch.moe.has_value());
  EXPECT_EQ(m.arch.moe->experts, 64);
  EXPECT_EQ(m.arch.moe->experts_per_token, 6);
  EXPECT_EQ(m.arch.moe->shared_experts, 2);
  EXPECT_EQ(m.arch.moe->expert_intermediate_size, 896);
  EXPECT_EQ(m.arch.moe->first_dense_layers, 1);
  // deepseek2ocr.cpp: expert_weights_norm, default false; no norm_topk_prob
  EXPECT_FALSE(m.arch.moe->weights_normalized);
  const ParamBreakdown p = count_params(m.arch);
  // The checkpoint's tensor list (the same report): the decoder is every
  // tensor but the SAM and CLIP towers and the projector, which the report
  // lists too. Its sum: 2,934,734,080 (embeddings and head 2 x 129280 x
  // 1280, 12 x 4 x 1280^2 attention, layer 0's MLP of 6848, 11 x (64 x 3 x
  // 1280 x 896 experts + 3 x 1280 x 1792 shared + 64 x 1280 router), the
  // norms).
  const std::int64_t decoder = std::int64_t{2} * 129280 * 1280 +
                               std::int64_t{12} * 4 * 1280 * 1280 + std::int64_t{3} * 1280 * 6848 +
                               std::int64_t{11} * (std::int64_t{64} * 3 * 1280 * 896 +
                                                   std::int64_t{3} * 1280 * 1792 + 64 * 1280) +
                               std::int64_t{25} * 1280;
  EXPECT_EQ(decoder, 2934734080);
  EXPECT_LT(test::rel(static_cast<double>(p.total() - p.vision), static_cast<double>(decoder)),
            0.01)
      << p.total() - p.vision;
  // With the DeepEncoder from vision_config (each tower's layers x (4 w^2 + 2
  // w ffn), the projector 2048 x 1280): the checkpoint's 3,336,106,240
  // within 1 %. The paper: "DeepEncoder is approximately 380M", "570M
  // activated" in the decoder.
  EXPECT_GT(p.vision, 370000000);
  EXPECT_LT(test::rel(static_cast<double>(p.total()), 3336106240.0), 0.01) << p.total();
}

TEST(DeepseekOcr, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = test::from_gguf(deepseek_ocr_gguf());
  Json text_only = deepseek_ocr_config();
  text_only.erase("vision_config");
  const Model c = test::from_config(text_only);
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_EQ(g.arch.head_dim, 128);
  EXPECT_EQ(g.arch.kv_heads, 10);
  EXPECT_EQ(g.arch.attention.kv_lora_rank, 0);
  ASSERT_TRUE(g.arch.moe.has_value());
  EXPECT_EQ(g.arch.moe->shared_experts, 2);
  EXPECT_EQ(g.arch.moe->first_dense_layers, 1);
  EXPECT_FALSE(g.arch.moe->weights_normalized);
  test::expect_same_estimate(g, c, "DeepSeek-OCR GGUF vs config", {4096, 8192});
  // K and V of all 10 heads of 128 on every layer (deepseek2.cpp is_ocr:
  // build_attn over the ordinary cache), F16.
  EXPECT_EQ(test::llama_cpp_q4_estimate(g, 8192, true).memory.kv_cache,
            std::int64_t{12} * 2 * 10 * 128 * 2 * 8192);
}

// The catalogue's entry carries the config's decoder and the checkpoint's
// counts: the name gives the config's KV cache and compute buffer, and its
// tower is the checkpoint's 401,372,160 (the config's generic estimate of
// it is 3 % lower).
TEST(DeepseekOcr, CatalogueGivesWhatTheConfigGives) {
  const Model& cat = test::catalogue_model("deepseek-ai/DeepSeek-OCR");
  const Model c = test::from_config(deepseek_ocr_config());
  EXPECT_EQ(cat.params, 3336106240);
  EXPECT_EQ(cat.arch.vision_params, 401372160);
  ASSERT_TRUE(cat.arch.moe.has_value());
  EXPECT_FALSE(cat.arch.moe->weights_normalized);
  EXPECT_EQ(count_params(cat.arch).total() - cat.arch.vision_params,
            count_params(c.arch).total() - c.arch.vision_params);
  for (const bool flash : {false, true}) {
    const Estimate ex = test::llama_cpp_q4_estimate(cat, 8192, flash);
    const Estimate ey = test::llama_cpp_q4_estimate(c, 8192, flash);
    EXPECT_EQ(ex.memory.kv_cache, ey.memory.kv_cache) << flash;
    EXPECT_EQ(ex.memory.compute, ey.memory.compute) << flash;
  }
}

}  // namespace
}  // namespace willfit
