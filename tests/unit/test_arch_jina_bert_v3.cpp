// jina-bert-v3 (jinaai/jina-embeddings-v3), issue 18: XLM-RoBERTa's
// post-norm encoder with RoPE in place of the position table and task LoRA
// adapters. llama.cpp's converter writes a config.json of model_type
// xlm-roberta that has lora_adaptations as jina-bert-v3 (conversion/bert.py
// XLMRobertaModel at 80fb11ac), the base weights in the model file and each
// task's adapter in a lora-TASK-*.gguf of its own; jina-bert-v3.cpp loads
// token_embd, token_types, the embeddings' LayerNorm and per layer the
// fused attn_qkv, attn_output, two LayerNorms, ffn_up and ffn_down (biases
// everywhere) and runs bert.cpp's graph (llama_model_bert::graph) with Q
// and K roped; create_memory gives it no cache. The config and the
// converter's GGUF header must give one estimate; the count is checked
// against the paper's 570 M. The numbers come from the model's sources.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/encoder_checks.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/model.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::expect_same_encoder_estimate;
using test::rel;

// jinaai/jina-embeddings-v3's config.json (the hub is not reachable here):
// model_type xlm-roberta (jinaai's XLMRobertaFlashConfig), vocab_size 250002,
// hidden_size 1024, num_hidden_layers 24, num_attention_heads 16,
// intermediate_size 4096, hidden_act gelu, max_position_embeddings 8194,
// type_vocab_size 1, layer_norm_eps 1e-5, pad_token_id 1 as transformers'
// port states its defaults for that checkpoint (JinaEmbeddingsV3Config,
// checkpoint jinaai/jina-embeddings-v3-hf, default_theta 20000: the rotary
// base; a version of transformers' JinaEmbeddingsV3Config in dataclass style, 1,112 characters
// (@auto_docstring(checkpoint='jinaai/jina-embeddings-v3-hf'), default_theta = 20000.0), and the
// transformers v5.15.1 docs, a public transformers documentation page of XLM-RoBERTa-style models,
// 50,215 characters (ending with a question-answering example, '# target is nice puppet')) and the
// remote code's XLMRobertaFlashConfig does (position_embedding_type rotary, lora_rank 4, lora_alpha
// 1; a copy of the XLMRobertaFlashConfig remote code of jina-embeddings-v3 (matryoshka_dimensions,
// truncate_dim; float32 without flash attention)); five task adapters (retrieval.query,
// retrieval.passage, separation, classification, text-matching: the paper, arXiv 2409.10173; MLC's
// JinaConfig lora_num_task 5, a public MLC-style Python Jina BERT v3 module (get_default_spec with
// 'prefill' inputs, attention_mask and task_id)).
Json jina_v3_config() {
  return {
      {"model_type", "xlm-roberta"},
      {"architectures", {"XLMRobertaModel"}},
      {"vocab_size", 250002},
      {"hidden_size", 1024},
      {"num_hidden_layers", 24},
      {"num_attention_heads", 16},
      {"intermediate_size", 4096},
      {"hidden_act", "gelu"},
      {"max_position_embeddings", 8194},
      {"type_vocab_size", 1},
      {"layer_norm_eps", 1e-5},
      {"pad_token_id", 1},
      {"position_embedding_type", "rotary"},
      {"rotary_emb_base", 20000.0},
      {"lora_adaptations",
       {"retrieval.query", "retrieval.passage", "separation", "classification", "text-matching"}},
      {"lora_rank", 4},
      {"lora_alpha", 1},
      {"torch_dtype", "bfloat16"}};
}

// What conversion/bert.py writes for it: BertModel's keys (context
// max_position_embeddings - (pad_token_id + 1) = 8192, not causal, mean
// pooling, one token type), the rope base, and the tensors
// jina-bert-v3.cpp load_arch_tensors creates (Wqkv as attn_qkv, biases
// everywhere, no position table, no output head).
test::GgufWriter jina_v3_gguf() {
  const std::string a = "jina-bert-v3";
  constexpr std::uint64_t e = 1024;
  constexpr std::uint64_t f = 4096;
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".block_count", 24);
  w.u32(a + ".context_length", 8192);
  w.u32(a + ".embedding_length", 1024);
  w.u32(a + ".feed_forward_length", 4096);
  w.u32(a + ".attention.head_count", 16);
  w.f32(a + ".attention.layer_norm_epsilon", 1e-5F);
  w.boolean(a + ".attention.causal", false);
  w.u32(a + ".pooling_type", 1);
  w.f32(a + ".rope.freq_base", 20000.0F);
  w.u32("tokenizer.ggml.token_type_count", 1);
  w.u32("general.file_type", 1);
  w.tensor("token_embd.weight", {e, 250002}, test::kF16);
  w.tensor("token_types.weight", {e, 1}, test::kF32);
  w.tensor("token_embd_norm.weight", {e}, test::kF32);
  w.tensor("token_embd_norm.bias", {e}, test::kF32);
  for (int i = 0; i < 24; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_qkv.weight", {e, 3 * e}, test::kF16);
    w.tensor(b + "attn_qkv.bias", {3 * e}, test::kF32);
    w.tensor(b + "attn_output.weight", {e, e}, test::kF16);
    w.tensor(b + "attn_output.bias", {e}, test::kF32);
    w.tensor(b + "attn_output_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_output_norm.bias", {e}, test::kF32);
    w.tensor(b + "ffn_up.weight", {e, f}, test::kF16);
    w.tensor(b + "ffn_up.bias", {f}, test::kF32);
    w.tensor(b + "ffn_down.weight", {f, e}, test::kF16);
    w.tensor(b + "ffn_down.bias", {e}, test::kF32);
    w.tensor(b + "layer_output_norm.weight", {e}, test::kF32);
    w.tensor(b + "layer_output_norm.bias", {e}, test::kF32);
  }
  return w;
}

// The base model's tensors: word and type embeddings, the embeddings'
// LayerNorm, and per layer Wqkv, out_proj, fc1, fc2 with their biases and
// two LayerNorms (llama.cpp names the 24-layer model LLM_TYPE_558M).
constexpr std::int64_t kE = 1024;
constexpr std::int64_t kFf = 4096;
constexpr std::int64_t kBase =
    250002 * kE + kE + 2 * kE +
    24 * ((kE * 3 * kE + 3 * kE) + (kE * kE + kE) + (kE * kFf + kFf) + (kFf * kE + kE) + 4 * kE);
// The task adapters (LoRAParametrization on every Linear and Embedding of
// the remote code): per task and module rank x (in + out) values; the
// converter writes them to their own files.
constexpr std::int64_t kAdapters =
    5 * 4 * (24 * ((kE + 3 * kE) + (kE + kE) + (kE + kFf) + (kFf + kE)) + (250002 + kE) + (1 + kE));

TEST(JinaBertV3, ConfigIsTheXlmRobertaEncoderWithRope) {
  const Model c = test::from_config(jina_v3_config());
  EXPECT_TRUE(c.unchecked_architecture.empty()) << c.unchecked_architecture;
  EXPECT_TRUE(c.embedding);
  EXPECT_TRUE(c.arch.attention.no_kv_cache);
  EXPECT_TRUE(c.arch.attention.post_norm);
  EXPECT_FALSE(c.arch.attention.alibi);
  EXPECT_FALSE(c.arch.mlp_gated);  // fc1, GELU, fc2
  EXPECT_TRUE(c.arch.no_output_head);
  EXPECT_EQ(c.arch.layers, 24);
  EXPECT_EQ(c.arch.heads, 16);
  EXPECT_EQ(c.arch.kv_heads, 16);
  EXPECT_EQ(c.arch.head_dim, 64);
  EXPECT_EQ(c.arch.max_context, 8192);  // 8194 - (pad 1 + 1), as the converter writes it
  // The count leaves norms and biases out; the paper's 570 M holds the base
  // and the five adapters (kAdapters, 12.9 M): within 1 %.
  const std::int64_t counted = count_params(c.arch).total();
  EXPECT_LT(rel(static_cast<double>(counted), static_cast<double>(kBase)), 0.001) << counted;
  EXPECT_LT(rel(static_cast<double>(counted + kAdapters), 570e6), 0.01) << counted + kAdapters;
}

TEST(JinaBertV3, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = test::from_gguf_header(jina_v3_gguf());
  const Model c = test::from_config(jina_v3_config());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_TRUE(g.embedding);
  EXPECT_TRUE(g.arch.attention.no_kv_cache);
  EXPECT_TRUE(g.arch.attention.post_norm);
  EXPECT_FALSE(g.arch.mlp_gated);
  EXPECT_EQ(g.params, kBase);  // the file's tensors, exactly
  EXPECT_EQ(g.arch.max_context, c.arch.max_context);
  expect_same_encoder_estimate(g, c, "jina-embeddings-v3");
}

// Each block sized as jina-bert-v3.cpp load_arch_tensors creates it from
// the converter's file (jina_v3_gguf above, F16): the fused attn_qkv with
// its bias (create_tensor_qkv takes attn_qkv.bias when the file has one, as
// XLM-RoBERTa's Wqkv has), attn_output, ffn_up and ffn_down with their
// biases, two LayerNorms of weight and bias; the vectors F32.
TEST(JinaBertV3, BlocksCountTheFusedQkvBias) {
  constexpr std::int64_t weights = kE * 3 * kE + kE * kE + kE * kFf + kFf * kE;
  constexpr std::int64_t vectors = 3 * kE + kE + kFf + kE + 4 * kE;
  const WeightLayout l =
      weight_layout(test::from_config(jina_v3_config()), *parse_precision("f16"));
  ASSERT_EQ(l.layers.size(), 24U);
  for (const LayerWeights& b : l.layers) {
    EXPECT_EQ(b.bytes, 2 * weights + 4 * vectors);
  }
}

// transformers' own port (model_type jina_embeddings_v3) reads as the same
// encoder.
TEST(JinaBertV3, TransformersPortReadsTheSame) {
  Json j = jina_v3_config();
  j["model_type"] = "jina_embeddings_v3";
  j.erase("lora_adaptations");
  const Model p = test::from_config(j);
  const Model c = test::from_config(jina_v3_config());
  EXPECT_TRUE(p.unchecked_architecture.empty()) << p.unchecked_architecture;
  EXPECT_EQ(count_params(p.arch).total(), count_params(c.arch).total());
  EXPECT_EQ(p.arch.max_context, c.arch.max_context);
  expect_same_encoder_estimate(p, c, "jina_embeddings_v3");
}

}  // namespace
}  // namespace willfit
