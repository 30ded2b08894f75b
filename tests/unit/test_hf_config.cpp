#include <gtest/gtest.h>

#include "willfit/models/hf_config.hpp"

namespace willfit {
namespace {

Model read(const std::string& json) {
  auto m = model_from_hf_config(json, "test");
  EXPECT_TRUE(m.ok()) << m.error().message;
  return m.ok() ? *m : Model{};
}

void expect_near_pct(std::int64_t got, double want, double pct) {
  EXPECT_NEAR(static_cast<double>(got), want, want * pct / 100.0) << got << " vs " << want;
}

// meta-llama/Llama-3.1-8B config.json; 8.03 B parameters (model card).
TEST(HfConfig, DenseLlama) {
  const Model m = read(R"({"architectures":["LlamaForCausalLM"],"model_type":"llama",
    "hidden_size":4096,"intermediate_size":14336,"num_hidden_layers":32,"num_attention_heads":32,
    "num_key_value_heads":8,"vocab_size":128256,"max_position_embeddings":131072,
    "tie_word_embeddings":false,"torch_dtype":"bfloat16","rope_theta":500000.0})");
  EXPECT_EQ(m.source, FactSource::Config);
  EXPECT_EQ(m.arch.layers, 32);
  EXPECT_EQ(m.arch.kv_heads, 8);
  EXPECT_EQ(m.arch.head_dim, 128);
  EXPECT_EQ(m.arch.attention.kind, AttentionKind::Full);
  EXPECT_EQ(m.precision_hint, "bf16");
  expect_near_pct(m.params, 8.03e9, 3);
}

// google/gemma-3-27b-it: language keys under text_config, a SigLIP tower in
// vision_config; 27.4 B parameters of which 0.42 B vision (data/models.json).
TEST(HfConfig, VisionModelWithSlidingWindows) {
  const Model m = read(R"({"model_type":"gemma3","torch_dtype":"bfloat16",
    "text_config":{"model_type":"gemma3_text","hidden_size":5376,"intermediate_size":21504,
      "num_hidden_layers":62,"num_attention_heads":32,"num_key_value_heads":16,"head_dim":128,
      "sliding_window":1024,"sliding_window_pattern":6,"vocab_size":262208,
      "max_position_embeddings":131072},
    "vision_config":{"model_type":"siglip_vision_model","hidden_size":1152,
      "intermediate_size":4304,"num_hidden_layers":27,"patch_size":14,"image_size":896}})");
  EXPECT_EQ(m.arch.attention.kind, AttentionKind::Sliding);
  EXPECT_EQ(m.arch.attention.sliding_window, 1024);
  EXPECT_EQ(m.arch.attention.sliding_pattern, 6);
  EXPECT_TRUE(m.arch.tied_embeddings);  // Gemma ties by default
  // The SigLIP tower and Gemma 3's projector, tensor by tensor: the
  // catalogue's 423,060,336 (keras-hub's total less the text model's).
  EXPECT_EQ(m.arch.vision_params, 423060336);
  expect_near_pct(m.params, 27432062576.0, 3);
}

// Encoders counted tensor by tensor against published totals:
// Mistral-Small-3.1-24B's Pixtral tower and projector, 438,958,080
// (keras-hub's multimodal total less the text model's: data/models.json),
// from its vision_config (pixtral, 1024 wide, 24 layers, MLP 4096, patch
// 14) and the 5120-wide text model; Qwen2.5-VL-7B's 676.55 M (the
// catalogue's, a parameter analysis of the checkpoint) from its
// vision_config (32 layers of 1280, gated MLP 3420, out 3584).
TEST(HfConfig, VisionTowersOfKnownLayoutsAreCountedExactly) {
  const Model mistral = read(R"({"model_type":"mistral3","spatial_merge_size":2,
    "text_config":{"model_type":"mistral","hidden_size":5120,"intermediate_size":32768,
      "num_hidden_layers":40,"num_attention_heads":32,"num_key_value_heads":8,"head_dim":128,
      "vocab_size":131072,"max_position_embeddings":131072},
    "vision_config":{"model_type":"pixtral","hidden_size":1024,"intermediate_size":4096,
      "num_hidden_layers":24,"num_attention_heads":16,"patch_size":14,"image_size":1540}})");
  EXPECT_EQ(mistral.arch.vision_params, 438958080);
  const Model qwen = read(R"({"model_type":"qwen2_5_vl","hidden_size":3584,
    "intermediate_size":18944,"num_hidden_layers":28,"num_attention_heads":28,
    "num_key_value_heads":4,"vocab_size":152064,"max_position_embeddings":128000,
    "vision_config":{"model_type":"qwen2_5_vl","depth":32,"hidden_size":1280,
      "intermediate_size":3420,"num_heads":16,"in_chans":3,"out_hidden_size":3584,
      "patch_size":14,"spatial_merge_size":2,"temporal_patch_size":2,"hidden_act":"silu"}})");
  expect_near_pct(qwen.arch.vision_params, 676.55e6, 0.01);
}

// deepseek-ai/DeepSeek-V3 config.json: MLA, 256 routed experts + 1 shared,
// FP8 weights; 671 B total (model card).
TEST(HfConfig, MlaMoeWithFp8Quantization) {
  const Model m = read(R"({"model_type":"deepseek_v3","hidden_size":7168,
    "intermediate_size":18432,"moe_intermediate_size":2048,"num_hidden_layers":61,
    "num_attention_heads":128,"num_key_value_heads":128,"n_routed_experts":256,
    "n_shared_experts":1,"num_experts_per_tok":8,"first_k_dense_replace":3,"kv_lora_rank":512,
    "q_lora_rank":1536,"qk_rope_head_dim":64,"qk_nope_head_dim":128,"v_head_dim":128,
    "vocab_size":129280,"max_position_embeddings":163840,"torch_dtype":"bfloat16",
    "quantization_config":{"quant_method":"fp8","fmt":"e4m3","weight_block_size":[128,128]}})");
  EXPECT_EQ(m.arch.attention.kind, AttentionKind::Mla);
  EXPECT_EQ(m.arch.attention.kv_lora_rank, 512);
  EXPECT_EQ(m.arch.head_dim, 192);
  ASSERT_TRUE(m.is_moe());
  EXPECT_EQ(m.arch.moe->experts, 256);
  EXPECT_EQ(m.arch.moe->shared_experts, 1);
  EXPECT_EQ(m.arch.moe->first_dense_layers, 3);
  EXPECT_EQ(m.precision_hint, "fp8");
  expect_near_pct(m.params, 671e9, 3);
}

// mistralai/Mixtral-8x7B-v0.1: experts are num_local_experts wide as intermediate_size.
// Qwen/Qwen3-Next-80B-A3B config.json (layer_types and linear_* keys): the
// gated-delta-net layers keep a fixed state of 3 x (2 x 16 x 128 + 32 x 128)
// convolution floats plus 32 x 128 x 128 state floats per sequence.
TEST(HfConfig, HybridLinearAttentionState) {
  std::string types;
  for (int i = 0; i < 48; ++i) {
    types += std::string(i > 0 ? "," : "") +
             ((i + 1) % 4 == 0 ? "\"full_attention\"" : "\"linear_attention\"");
  }
  const Model m = read(R"({"model_type":"qwen3_next","hidden_size":2048,"intermediate_size":5120,
    "num_hidden_layers":48,"num_attention_heads":16,"num_key_value_heads":2,"head_dim":256,
    "vocab_size":151936,"linear_conv_kernel_dim":4,"linear_key_head_dim":128,
    "linear_value_head_dim":128,"linear_num_key_heads":16,"linear_num_value_heads":32,
    "layer_types":[)" + types +
                       "]}");
  EXPECT_EQ(m.arch.attention.kind, AttentionKind::Hybrid);
  EXPECT_EQ(m.arch.attention.attention_layers, 12);
  EXPECT_EQ(m.arch.attention.recurrent_state_floats, 3 * 8192 + 32 * 128 * 128);
  EXPECT_EQ(m.arch.attention.delta_net_k_heads, 16);
  EXPECT_EQ(m.arch.attention.delta_net_v_heads, 32);
  EXPECT_EQ(m.arch.attention.delta_net_head_dim, 128);
  EXPECT_EQ(m.arch.attention.delta_net_conv, 4);
}

// The released Qwen3-Next config.json has no layer_types (revision 9c7f2fbe),
// only full_attention_interval, from which transformers derives them
// (configuration_qwen3_next.py): the same hybrid, in the same order as
// llama.cpp's (i + 1) % interval rule.
TEST(HfConfig, Qwen3NextLayersFromTheInterval) {
  const Model m = read(R"({"model_type":"qwen3_next","hidden_size":2048,"intermediate_size":5120,
    "num_hidden_layers":48,"num_attention_heads":16,"num_key_value_heads":2,"head_dim":256,
    "vocab_size":151936,"linear_conv_kernel_dim":4,"linear_key_head_dim":128,
    "linear_value_head_dim":128,"linear_num_key_heads":16,"linear_num_value_heads":32,
    "full_attention_interval":4})");
  EXPECT_EQ(m.arch.attention.kind, AttentionKind::Hybrid);
  EXPECT_EQ(m.arch.attention.attention_layers, 12);
  EXPECT_EQ(m.arch.attention.recurrent_layers, 36);
  std::string order;
  for (int i = 0; i < 12; ++i) {
    order += "RRRA";
  }
  EXPECT_EQ(m.arch.attention.layer_mixers, order);
}

TEST(HfConfig, Mixtral) {
  const Model m = read(R"({"model_type":"mixtral","hidden_size":4096,"intermediate_size":14336,
    "num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":8,"num_local_experts":8,
    "num_experts_per_tok":2,"vocab_size":32000,"max_position_embeddings":32768,
    "sliding_window":null,"torch_dtype":"bfloat16"})");
  ASSERT_TRUE(m.is_moe());
  EXPECT_EQ(m.arch.moe->expert_intermediate_size, 14336);
  EXPECT_EQ(m.arch.attention.kind, AttentionKind::Full);
  expect_near_pct(m.params, 46702792704.0, 1);
  expect_near_pct(m.active_params, 12.9e9, 3);  // Mixtral paper: 12.9 B active
}

// openai-community/gpt2: GPT-2 key names, a two-matrix MLP, tied head; 124 M.
TEST(HfConfig, Gpt2) {
  const Model m = read(R"({"model_type":"gpt2","n_embd":768,"n_layer":12,"n_head":12,
    "n_positions":1024,"n_inner":null,"vocab_size":50257})");
  EXPECT_FALSE(m.arch.mlp_gated);
  EXPECT_TRUE(m.arch.tied_embeddings);
  EXPECT_EQ(m.arch.intermediate_size, 3072);
  EXPECT_EQ(m.arch.max_context, 1024);
  expect_near_pct(m.params, 124439808.0, 3);
}

TEST(HfConfig, WindowsSwitchedOffOrCoveringTheContextAreFull) {
  // Qwen/Qwen2.5-7B: sliding_window present, use_sliding_window false.
  EXPECT_EQ(read(R"({"model_type":"qwen2","hidden_size":3584,"intermediate_size":18944,
    "num_hidden_layers":28,"num_attention_heads":28,"num_key_value_heads":4,"vocab_size":152064,
    "max_position_embeddings":131072,"sliding_window":131072,"use_sliding_window":false})")
                .arch.attention.kind,
            AttentionKind::Full);
  // Mistral-7B-v0.1: a 4096 window on every layer.
  const Model mistral =
      read(R"({"model_type":"mistral","hidden_size":4096,"intermediate_size":14336,
    "num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":8,"vocab_size":32000,
    "max_position_embeddings":32768,"sliding_window":4096})");
  EXPECT_EQ(mistral.arch.attention.kind, AttentionKind::Sliding);
  EXPECT_EQ(mistral.arch.attention.sliding_pattern, 0);
}

TEST(HfConfig, LayerTypesGiveThePatternAndRecurrentLayers) {
  const Model oss = read(R"({"model_type":"gpt_oss","hidden_size":2880,"intermediate_size":2880,
    "num_hidden_layers":4,"num_attention_heads":64,"num_key_value_heads":8,"head_dim":64,
    "vocab_size":201088,"max_position_embeddings":131072,"sliding_window":128,
    "layer_types":["sliding_attention","full_attention","sliding_attention","full_attention"],
    "num_local_experts":32,"num_experts_per_tok":4,"quantization_config":{"quant_method":"mxfp4"}})");
  EXPECT_EQ(oss.arch.attention.kind, AttentionKind::Sliding);
  EXPECT_EQ(oss.arch.attention.sliding_pattern, 2);
  EXPECT_EQ(oss.precision_hint, "mxfp4");
  const Model next = read(R"({"model_type":"qwen3_next","hidden_size":2048,"num_hidden_layers":4,
    "num_attention_heads":16,"num_key_value_heads":2,"vocab_size":151936,"intermediate_size":5120,
    "layer_types":["linear_attention","linear_attention","linear_attention","full_attention"]})");
  EXPECT_EQ(next.arch.attention.kind, AttentionKind::Hybrid);
  EXPECT_EQ(next.arch.attention.attention_layers, 1);
}

TEST(HfConfig, QuantizationConfigs) {
  const std::string base = R"("model_type":"llama","hidden_size":4096,"intermediate_size":14336,
    "num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":8,"vocab_size":128256,
    "torch_dtype":"float16")";
  auto with = [&](const std::string& q) {
    return read("{" + base + R"(,"quantization_config":)" + q + "}");
  };
  EXPECT_EQ(with(R"({"quant_method":"gptq","bits":4,"group_size":128})").precision_hint, "gptq");
  EXPECT_EQ(with(R"({"quant_method":"awq","bits":4})").precision_hint, "awq");
  EXPECT_EQ(
      with(R"({"quant_method":"bitsandbytes","load_in_4bit":true,"bnb_4bit_quant_type":"nf4"})")
          .precision_hint,
      "nf4");
  EXPECT_EQ(with(R"({"quant_method":"bitsandbytes","load_in_8bit":true})").precision_hint, "int8");
  EXPECT_EQ(with(R"({"quant_method":"gptq","bits":8})").precision_hint, "int8");
  EXPECT_EQ(
      with(
          R"({"quant_method":"compressed-tensors","config_groups":{"group_0":{"weights":{"num_bits":8,"type":"float"}}}})")
          .precision_hint,
      "fp8");
  EXPECT_EQ(with(R"({"quant_method":"exotic"})").precision_hint, "fp16");
  EXPECT_EQ(read("{" + base + "}").precision_hint, "fp16");
}

TEST(HfConfig, MalformedConfigsAreOneLineErrors) {
  for (const char* bad :
       {"", "not json", "[1,2,3]", R"({"model_type":"llama"})",
        R"({"num_hidden_layers":-3,"hidden_size":4096,"num_attention_heads":32,"vocab_size":10})",
        R"({"num_hidden_layers":"32","hidden_size":4096,"num_attention_heads":32,"vocab_size":10})",
        R"({"num_hidden_layers":2,"hidden_size":64,"num_attention_heads":2})"}) {
    auto m = model_from_hf_config(bad, "x");
    ASSERT_FALSE(m.ok()) << bad;
    EXPECT_EQ(m.error().message.find('\n'), std::string::npos);
  }
  const std::string deep = std::string(10000, '{') + std::string(10000, '}');
  EXPECT_NE(model_from_hf_config(deep, "x").error().message.find("nested"), std::string::npos);
}

}  // namespace
}  // namespace willfit
