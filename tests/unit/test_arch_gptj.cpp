// GPT-J (EleutherAI/gpt-j-6b and its fine-tunes; transformers model_type
// gptj), issue 18. llama.cpp at 80fb11ac names LLM_ARCH_GPTJ
// (src/llama-arch.cpp) but llama_model_create (src/llama-model.cpp) has no
// case for it, so loading a GGUF of it throws "unsupported model
// architecture", and no converter in conversion/ writes one: a GGUF naming
// gptj is refused in one line. A config.json of it is modelled for the
// runtimes that run it (transformers' GPTJForCausalLM, vLLM's GPTJForCausalLM):
// one LayerNorm with bias a layer feeding the attention and the MLP in
// parallel, q, k, v and out_proj without biases, an ungated GELU MLP with
// biases, an untied lm_head with a bias, partial rotary (rotary_dim 64 of
// 256, which sizes no tensor).
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/hf_config.hpp"
#include "willfit/models/model.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;

using test::rel;

// EleutherAI/gpt-j-6b's config.json (the hub is not reachable here), as two
// public scripts transcribe it (a public Markdown note transcribing config.json files (its last a
// llama config with transformers_version 4.32.0.dev0, vocab_size 32000), a "gptj_6b" dict with
// transformers_version 4.18.0.dev0, and a public Python transformer layer-graph table
// (flashattention_transformer_layer_graph with fused_attention, gate_proj, mlp_act),
// get_local_config with 4.16.0.dev0): n_embd 4096, n_layer 28, n_head 16,
// n_inner null, n_positions 2048, rotary_dim 64, vocab_size 50400,
// tie_word_embeddings false, activation_function gelu_new,
// layer_norm_epsilon 1e-5.
Json gptj_6b_config() {
  return {{"model_type", "gptj"},
          {"architectures", {"GPTJForCausalLM"}},
          {"activation_function", "gelu_new"},
          {"n_embd", 4096},
          {"n_head", 16},
          {"n_inner", nullptr},
          {"n_layer", 28},
          {"n_positions", 2048},
          {"rotary", true},
          {"rotary_dim", 64},
          {"layer_norm_epsilon", 1e-5},
          {"tie_word_embeddings", false},
          {"torch_dtype", "float32"},
          {"vocab_size", 50400}};
}

// The card's total: "n_parameters 6053381344" (EleutherAI/gpt-j-6b README's
// hyperparameter table, as asgaardlab/model-card-reorganization
// verified_model_cards/EleutherAI@gpt-j-6b/4_corrected_info_list.md quotes
// it; the same figure hard-coded for "EleutherAI/gpt-j-6b" in TensorRT-LLM's
// bench tuning, a public Python benchmark dataset statistics module (printing P50, P90, P95, P99 of
// ISL, OSL and sequence length)).
constexpr double kCardParams = 6053381344.0;

// Every tensor of GPTJForCausalLM (transformers modeling_gptj.py): wte
// (vocab x e); per layer ln_1 (weight, bias), q_proj, k_proj, v_proj,
// out_proj (e x e, no bias), fc_in (e x 4e + bias), fc_out (4e x e + bias);
// ln_f (weight, bias); lm_head (e x vocab + bias).
constexpr std::int64_t kE = 4096;
constexpr std::int64_t kFf = 4 * kE;
constexpr std::int64_t kVocab = 50400;
constexpr std::int64_t kLayerTensors = 2 * kE + 4 * kE * kE + (kE * kFf + kFf) + (kFf * kE + kE);
constexpr std::int64_t kModelTensors =
    kVocab * kE + 28 * kLayerTensors + 2 * kE + (kE * kVocab + kVocab);

TEST(Gptj, ConfigIsKnownAndCountsTheCardsTotal) {
  const Model m = test::from_config(gptj_6b_config());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  EXPECT_EQ(m.arch.layers, 28);
  EXPECT_EQ(m.arch.hidden_size, 4096);
  EXPECT_EQ(m.arch.heads, 16);
  EXPECT_EQ(m.arch.kv_heads, 16);
  EXPECT_EQ(m.arch.head_dim, 256);
  EXPECT_EQ(m.arch.intermediate_size, 16384);  // n_inner null: 4 n_embd
  EXPECT_EQ(m.arch.max_context, 2048);
  EXPECT_FALSE(m.arch.mlp_gated);
  EXPECT_FALSE(m.arch.tied_embeddings);
  EXPECT_EQ(m.arch.attention.parallel_block, ParallelBlock::GptJ);
  EXPECT_FALSE(m.arch.attention.fused_qkv);
  EXPECT_FALSE(m.arch.qkv_bias);
  EXPECT_EQ(m.arch.learned_positions, 0);  // RoPE, no position table
  // Norms and biases are left out of the count (6,050,029,376): 0.06 % under the card.
  EXPECT_LT(rel(static_cast<double>(count_params(m.arch).total()), kCardParams), 0.001)
      << count_params(m.arch).total();
  EXPECT_LT(rel(static_cast<double>(kModelTensors), kCardParams), 0.001);
}

// Laid out tensor by tensor (an F16 file's classes: the 2-D weights at 2
// bytes, the 1-D vectors, ln_1, ln_f, the MLP's and the head's biases, in
// F32), the weights are every tensor of the checkpoint and no more; at BF16
// for transformers, the count's 2 bytes each, within 0.1 % of the
// checkpoint's tensors.
TEST(Gptj, WeightsAreTheCheckpointsTensors) {
  const Model m = test::from_config(gptj_6b_config());
  const std::int64_t vectors = 28 * (2 * kE + kFf + kE) + 2 * kE + kVocab;
  EXPECT_EQ(weight_layout(m, *parse_precision("f16")).total(),
            2 * (kModelTensors - vectors) + 4 * vectors);
  EXPECT_LT(rel(static_cast<double>(weight_layout(m, *parse_precision("bf16")).total()),
                2.0 * static_cast<double>(kModelTensors)),
            0.001);
}

// transformers and vLLM cache K and V of every head: 28 x 2 x 4096 values
// a token, 896 MiB at the trained 2048 tokens in 16 bits.
TEST(Gptj, KvCacheIsEveryHead) {
  const Model m = test::from_config(gptj_6b_config());
  InferenceQuery q;
  q.model = m;
  q.precision = *parse_precision("bf16");
  q.runtime = Runtime::Transformers;
  q.context = 2048;
  const Estimate e = estimate_inference(q);
  EXPECT_EQ(e.memory.kv_cache, std::int64_t{28} * 2 * 4096 * 2 * 2048);
  for (const auto& w : e.warnings) {
    EXPECT_EQ(w.find("llama.cpp"), std::string::npos) << w;
  }
}

// Asked for under llama.cpp, the config's answer says llama.cpp cannot load it.
TEST(Gptj, UnderLlamaCppTheAnswerSaysItCannotRun) {
  const Estimate e = test::llama_cpp_q4_estimate(test::from_config(gptj_6b_config()), 2048, true);
  bool said = false;
  for (const auto& w : e.warnings) {
    said = said || w.find("builds no graph") != std::string::npos;
  }
  EXPECT_TRUE(said);
}

// A GGUF naming gptj (the keys and tensors gguf-py's constants give
// LLM_ARCH_GPTJ) is refused in one line that says why.
TEST(Gptj, GgufIsRefusedInOneLine) {
  const std::string a = "gptj";
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".context_length", 2048);
  w.u32(a + ".embedding_length", 4096);
  w.u32(a + ".block_count", 1);
  w.u32(a + ".attention.head_count", 16);
  w.u32(a + ".rope.dimension_count", 64);
  w.tensor("token_embd.weight", {4096, 50400}, test::kF16);
  const std::string bytes = w.header();
  auto parsed = read_gguf(bytes, bytes.size() + w.data_size() + 32);
  ASSERT_TRUE(parsed.ok() && parsed->file.has_value());
  const auto m = model_from_gguf(*parsed->file, "gpt-j.gguf");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("builds no graph"), std::string::npos) << m.error().message;
  EXPECT_EQ(m.error().message.find('\n'), std::string::npos);
  EXPECT_FALSE(refused_gguf_architecture("gptj").empty());
  EXPECT_TRUE(refused_config_model_type("gptj").empty());
}

}  // namespace
}  // namespace willfit
