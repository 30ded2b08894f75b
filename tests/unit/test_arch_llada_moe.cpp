// LLaDA-MoE (inclusionAI/LLaDA-MoE-7B-A1B-Base and -Instruct; llama.cpp
// `llada-moe`, config.json model_type `llada` with LLaDAMoEModelLM, or
// `lladamoe` as dllm rewrites it): a masked-diffusion language model whose
// layers are OLMoE's (Q and K RMS-normed per head, 64 experts of 1024 on
// every layer, 8 a token, softmax routing without renormalisation). llama.cpp
// gives it no KV cache (llama-model.cpp create_memory: res = nullptr) and
// attends over the micro-batch alone (llada-moe.cpp build_attn_inp_no_cache).
// The published config and the converter's GGUF give one estimate; the
// parameter counts match published figures.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/catalogue_checks.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;

// LLaDA-MoE-7B-A1B's config.json as public transcriptions give it (the hub
// is not reachable):
// - an InfiniCore LLaDA-MoE header that comments each field with its
//   config.json value (a public C header of an InfiniCore LLaDA-MoE model (LLaDAMoEWeights;
//   createLLaDAMoEModel, inferBatchLLaDAMoE)): hidden_size 2048, num_attention_heads 16,
//   num_key_value_heads 16, num_experts 64, num_experts_per_tok 8, expert_intermediate_size 1024,
//   max_position_embeddings 8192, vocab_size 157184, rms_norm_eps 1e-05,
//   rope_theta 50000, qk_layernorm true, dense_intermediate_size 8192, 16
//   layers, all of them MoE;
// - a vLLM port's README (a public Chinese README of a vLLM-style LLaDA-MoE port
// (scripts/run_llada_moe_server.sh; test_api_request.py --model-family llada-moe)): the same, with
//   num_hidden_layers 16 and moe_layer_freq all 1;
// - dllm's README (ZHZisZZ/dllm examples/llada/README.md): the checkpoint's
//   model_type is "llada" (dllm rewrites it to "lladamoe");
// - llama.cpp llada-moe.cpp load_arch_tensors requires output.weight: untied.
Json llada_moe_config() {
  return {{"architectures", {"LLaDAMoEModelLM"}},
          {"model_type", "llada"},
          {"hidden_size", 2048},
          {"dense_intermediate_size", 8192},
          {"expert_intermediate_size", 1024},
          {"num_hidden_layers", 16},
          {"num_attention_heads", 16},
          {"num_key_value_heads", 16},
          {"num_experts", 64},
          {"num_experts_per_tok", 8},
          {"max_position_embeddings", 8192},
          {"vocab_size", 157184},
          {"rms_norm_eps", 1e-5},
          {"rope_theta", 50000},
          {"qk_layernorm", true},
          {"tie_word_embeddings", false},
          {"torch_dtype", "bfloat16"}};
}

// The header conversion/llada.py LLaDAMoEModel writes (80fb11ac): base.py's
// block_count, context_length (max_position_embeddings), embedding_length,
// feed_forward_length (dense_intermediate_size, which llada-moe.cpp never
// reads), head_count, head_count_kv, rope.freq_base,
// layer_norm_rms_epsilon, expert_count, expert_used_count; then
// expert_feed_forward_length, the mask token, attention.causal false and
// diffusion.shift_logits false. Three tensors stand for the rest.
test::GgufWriter llada_moe_gguf() {
  const std::string a = "llada-moe.";
  test::GgufWriter w;
  w.str("general.architecture", "llada-moe");
  w.u32(a + "block_count", 16);
  w.u32(a + "context_length", 8192);
  w.u32(a + "embedding_length", 2048);
  w.u32(a + "feed_forward_length", 8192);
  w.u32(a + "attention.head_count", 16);
  w.u32(a + "attention.head_count_kv", 16);
  w.f32(a + "rope.freq_base", 50000.0F);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-5F);
  w.u32(a + "expert_count", 64);
  w.u32(a + "expert_used_count", 8);
  w.u32(a + "expert_feed_forward_length", 1024);
  w.u32("tokenizer.ggml.mask_token_id", 156895);
  w.boolean(a + "attention.causal", false);
  w.boolean("diffusion.shift_logits", false);
  w.tensor("token_embd.weight", {2048, 157184}, test::kQ8_0);
  w.tensor("output.weight", {2048, 157184}, test::kQ8_0);
  w.tensor("blk.0.ffn_gate_exps.weight", {2048, 1024, 64}, test::kQ8_0);
  return w;
}

TEST(LladaMoe, ConfigIsKnownCacheFreeAndCountsThePublishedTotals) {
  const Model m = test::from_config(llada_moe_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  EXPECT_TRUE(m.arch.attention.no_kv_cache);
  EXPECT_FALSE(m.embedding);
  EXPECT_EQ(m.arch.layers, 16);
  EXPECT_EQ(m.arch.head_dim, 128);
  EXPECT_FALSE(m.arch.tied_embeddings);
  ASSERT_TRUE(m.arch.moe.has_value());
  EXPECT_EQ(m.arch.moe->experts, 64);
  EXPECT_EQ(m.arch.moe->experts_per_token, 8);
  EXPECT_EQ(m.arch.moe->expert_intermediate_size, 1024);
  EXPECT_EQ(m.arch.moe->shared_experts, 0);
  EXPECT_EQ(m.arch.moe->first_dense_layers, 0);
  // llada-moe.cpp: build_moe_ffn(..., norm_w false, ..., softmax)
  EXPECT_FALSE(m.arch.moe->weights_normalized);
  const ParamBreakdown p = count_params(m.arch);
  // A public BF16 run of LLaDA-MoE-7B-A1B-Instruct (
  // a public Markdown README of a LLaDA quantisation toolkit, 42,908 characters ('This repository
  // contains no code from the LLaDA inference engine's dInfer directory.')) measured "expert
  // weights 12288 MiB" and "whole model resident 14032 MiB": 16 x 64 x 3 x 2048 x 1024 values,
  // and 7.357 B values in all (14032 MiB / 2 bytes); a CPU meta-load of the checkpoint (a public
  // Markdown evaluation note of LLaDA-MoE-7B-A1B-Instruct (remote code loads under
  // transformers==4.46.2; AutoModel maps to LLaDAMoEModelLM)) "7.36B total".
  EXPECT_EQ(std::int64_t{16} * 64 * 3 * 2048 * 1024 * 2, std::int64_t{12288} << 20);
  EXPECT_LT(test::rel(static_cast<double>(p.total()), 14032.0 * (1 << 20) / 2), 0.01) << p.total();
  // "Total/Active: 7B / 1.4B" (a public survey of MoE models, a public Markdown survey of MoE
  // models with GGUF links (ending with Qwen3-Next-80B (extreme quant) from unsloth)): the active
  // layers plus one 157184 x 2048 matrix (the head's matmul; the embedding is a lookup).
  EXPECT_LT(test::rel(static_cast<double>(p.active() - p.embedding), 1.4e9), 0.01) << p.active();
}

TEST(LladaMoe, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = test::from_gguf(llada_moe_gguf());
  const Model c = test::from_config(llada_moe_config());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_TRUE(g.arch.attention.no_kv_cache);
  EXPECT_FALSE(g.embedding);
  ASSERT_TRUE(g.arch.moe.has_value());
  EXPECT_EQ(g.arch.moe->expert_intermediate_size, 1024);
  EXPECT_EQ(g.arch.moe->shared_experts, 0);
  EXPECT_FALSE(g.arch.moe->weights_normalized);
  EXPECT_EQ(g.arch.vocab_size, 157184);
  test::expect_same_estimate(g, c, "LLaDA-MoE GGUF vs config", {4096, 8192});
}

// No KV cache at any context, from either source; dllm's rewritten
// model_type reads the same.
TEST(LladaMoe, HoldsNoKvCache) {
  Json dllm = llada_moe_config();
  dllm["model_type"] = "lladamoe";
  for (const Model& m : {test::from_config(llada_moe_config()), test::from_config(dllm),
                         test::from_gguf(llada_moe_gguf())}) {
    EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
    for (const std::int64_t ctx : {std::int64_t{512}, std::int64_t{8192}}) {
      EXPECT_EQ(test::llama_cpp_q4_estimate(m, ctx, true).memory.kv_cache, 0) << ctx;
    }
  }
  test::expect_same_estimate(test::from_config(dllm), test::from_config(llada_moe_config()), "dllm",
                             {4096, 8192});
}

// The dense LLaDA's config (model_type llada, d_model, no experts) stays
// dense: the MoE reading is LLaDA-MoE's alone.
TEST(LladaMoe, DenseLladaStaysDense) {
  const Json llada = {{"model_type", "llada"}, {"d_model", 4096},
                      {"n_layers", 32},        {"n_heads", 32},
                      {"n_kv_heads", 32},      {"mlp_hidden_size", 12288},
                      {"vocab_size", 126464},  {"max_sequence_length", 4096}};
  const Model m = test::from_config(llada);
  EXPECT_FALSE(m.arch.moe.has_value());
  EXPECT_EQ(m.arch.intermediate_size, 12288);
}

// The catalogue's llada-moe-7b-a1b (data/models.json) is the config.json
// above: no KV cache by the family, unrenormalised expert weights, the same
// weights and compute buffer, its published 7.36 B within 1 % of the count.
TEST(LladaMoe, CatalogueEntryIsItsConfig) {
  const Model& cat = test::catalogue_model("llada-moe-7b-a1b");
  EXPECT_TRUE(cat.arch.attention.no_kv_cache);
  ASSERT_TRUE(cat.arch.moe.has_value());
  EXPECT_FALSE(cat.arch.moe->weights_normalized);
  test::expect_catalogue_is_config("llada-moe-7b-a1b", test::from_config(llada_moe_config()),
                                   {2048, 8192});
}

}  // namespace
}  // namespace willfit
