// RWKV (llama.cpp `rwkv6`; config.json model_type `rwkv6`): RWKV-6 "Finch".
// Every block is a time mix (the wkv recurrence) and a channel mix behind
// LayerNorms, with no attention and no KV cache (llama.cpp src/models/rwkv6.cpp
// and rwkv6-base.cpp at 80fb11ac); llama.cpp gives every layer a recurrent
// state of two token-shift rows and the wkv state, head_size x head_size a
// head (llama-hparams.cpp n_embd_r, n_embd_s). Read from published
// config.json values and from the header conversion/rwkv.py writes
// (head_count 0, context 2^20, wkv.head_size, time_mix_extra_dim,
// time_decay_extra_dim, rescale_every_n_layers, feed_forward_length): one
// estimate, the state of each layer, the parameter count against the
// published one. (The replay against a real llama.cpp:
// tests/unit/test_ggml_alloc.cpp, GgmlAlloc.Rwkv6MatchesTheLiveLlamaCpp.)
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/hf_config.hpp"
#include "willfit/models/model.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::from_config;
using test::from_gguf;
using test::rel;

// RWKV/rwkv-6-world-1b6 config.json as public code quotes it (search-tool
// file id 65760752905, RWKV6 = {model_type rwkv6, num_hidden_layers 24,
// hidden_size 2048, num_attention_heads 32, head_size 64}); vocab_size
// 65536, rescale_every 6, untied and intermediate_size null are
// transformers' Rwkv6Config defaults (huggingface/transformers
// src/transformers/models/rwkv6/configuration_rwkv6.py @4b0238f4), which
// the HF repositories' configs keep.
Json rwkv6_1b6() {
  return {{"architectures", {"Rwkv6ForCausalLM"}},
          {"model_type", "rwkv6"},
          {"hidden_size", 2048},
          {"num_hidden_layers", 24},
          {"num_attention_heads", 32},
          {"head_size", 64},
          {"head_size_divisor", 8},
          {"attention_hidden_size", 2048},
          {"intermediate_size", nullptr},
          {"layer_norm_epsilon", 1e-5},
          {"rescale_every", 6},
          {"vocab_size", 65536},
          {"tie_word_embeddings", false}};
}

// RWKV-6 World 7B (RWKV/v6-Finch-7B-HF): hidden 4096 in 32 layers (llama.cpp
// llama_model_rwkv6::load_arch_hparams names 32 layers at 4096 LLM_TYPE_7B,
// 2560 LLM_TYPE_3B), the rest as the 1.6B's.
Json rwkv6_7b() {
  Json j = rwkv6_1b6();
  j["hidden_size"] = 4096;
  j["attention_hidden_size"] = 4096;
  j["num_hidden_layers"] = 32;
  j["num_attention_heads"] = 64;
  return j;
}

// The header conversion/rwkv.py writes (Rwkv6Model.set_gguf_parameters at
// 80fb11ac): context 2^20, embedding, block count, LayerNorm epsilon,
// rescale_every_n_layers, wkv.head_size, time_mix_extra_dim and
// time_decay_extra_dim (64 and 128 at hidden 4096, else 32 and 64),
// feed_forward_length (int(3.5 hidden // 32 x 32) when the config has none),
// head_count 0; the token embeddings and the untied output.
test::GgufWriter rwkv6_gguf(const Json& cfg) {
  const auto n = [&](const char* k) { return cfg[k].get<std::uint32_t>(); };
  const std::uint32_t hidden = n("hidden_size");
  test::GgufWriter w;
  w.str("general.architecture", "rwkv6");
  w.u32("rwkv6.context_length", 1U << 20);
  w.u32("rwkv6.embedding_length", hidden);
  w.u32("rwkv6.block_count", n("num_hidden_layers"));
  w.f32("rwkv6.attention.layer_norm_epsilon", 1e-5F);
  w.u32("rwkv6.rescale_every_n_layers", n("rescale_every"));
  w.u32("rwkv6.wkv.head_size", n("head_size"));
  w.u32("rwkv6.time_mix_extra_dim", hidden == 4096 ? 64 : 32);
  w.u32("rwkv6.time_decay_extra_dim", hidden == 4096 ? 128 : 64);
  w.u32("rwkv6.feed_forward_length", static_cast<std::uint32_t>(hidden * 7 / 2 / 32 * 32));
  w.u32("rwkv6.attention.head_count", 0);
  w.tensor("token_embd.weight", {hidden, n("vocab_size")}, test::kQ8_0);
  w.tensor("output.weight", {hidden, n("vocab_size")}, test::kQ8_0);
  return w;
}

TEST(Rwkv, Rwkv6ConfigAndGgufAreKnownAndAgree) {
  for (const Json& cfg : {rwkv6_1b6(), rwkv6_7b()}) {
    const std::int64_t h = cfg["hidden_size"];
    const Model c = from_config(cfg);
    const Model g = from_gguf(rwkv6_gguf(cfg));
    for (const Model* m : {&c, &g}) {
      EXPECT_TRUE(m->unchecked_architecture.empty()) << h << m->unchecked_architecture;
      EXPECT_TRUE(purely_recurrent(m->arch)) << h;
      EXPECT_EQ(m->arch.attention.rwkv, 6) << h;
      EXPECT_EQ(attention_layer_count(m->arch), 0) << h;
      EXPECT_EQ(recurrent_layer_count(m->arch), m->arch.layers) << h;
      EXPECT_EQ(m->arch.heads, h / 64) << h;
      EXPECT_EQ(m->arch.head_dim, 64) << h;
      EXPECT_EQ(m->arch.intermediate_size, h * 7 / 2) << h;  // 3.5 x hidden, a multiple of 32
      // llama-hparams.cpp: n_embd_r = 2 hidden (token_shift_count 2), n_embd_s = hidden x 64
      EXPECT_EQ(m->arch.attention.recurrent_state_floats, 2 * h + h * 64) << h;
      EXPECT_EQ(m->arch.attention.rwkv_time_mix_extra, h == 4096 ? 64 : 32) << h;
      EXPECT_EQ(m->arch.attention.rwkv_time_decay_extra, h == 4096 ? 128 : 64) << h;
      // the whole model is read for each token
      EXPECT_EQ(m->active_params, m->params) << h;
    }
    // No KV cache at any context: the state is all, F32 per layer.
    test::expect_same_recurrent_estimate(c, g, std::int64_t{c.arch.layers} * (2 * h + h * 64) * 4,
                                         std::to_string(h));
  }
}

// The memory does not grow with the context.
TEST(Rwkv, TheContextGrowsNoMemory) {
  const Model m = from_config(rwkv6_7b());
  const Estimate small = test::llama_cpp_q4_estimate(m, 4096, false);
  const Estimate large = test::llama_cpp_q4_estimate(m, 65536, false);
  EXPECT_EQ(small.memory.kv_cache, large.memory.kv_cache);
  EXPECT_EQ(small.memory.compute, large.memory.compute);
}

// Published sizes: "two Finch models with 1.6 and 3.1 billion parameters"
// (Peng et al., Eagle and Finch, arXiv 2404.05892, abstract, as
// eberlful/interesting-paper rwkv.md quotes it); RWKV-v6 Finch 7B, 7.63B
// parameters (AIComputing101/llm-leaderboard models/rwkv/rwkv-v6-finch.md,
// updated 2025-10-02). The 3B's shape: hidden 2560 in 32 layers (llama.cpp
// load_arch_hparams, LLM_TYPE_3B). willfit leaves out the LayerNorms (6
// hidden-wide vectors a layer): well under 1 %.
TEST(Rwkv, Rwkv6ParameterCountsMatchThePublishedOnes) {
  Json three = rwkv6_1b6();
  three["hidden_size"] = 2560;
  three["attention_hidden_size"] = 2560;
  three["num_hidden_layers"] = 32;
  three["num_attention_heads"] = 40;
  const auto total = [](const Json& cfg) {
    return static_cast<double>(count_params(from_config(cfg).arch).total());
  };
  EXPECT_LT(rel(total(rwkv6_1b6()), 1.6e9), 0.01);
  EXPECT_LT(rel(total(three), 3.1e9), 0.01);
  EXPECT_LT(rel(total(rwkv6_7b()), 7.63e9), 0.01);
}

// A file without the time mix's sizes, or a config whose heads do not divide
// the hidden size, is an error naming them, not an answer.
TEST(Rwkv, MissingTimeMixSizesAreErrors) {
  test::GgufWriter w;
  w.str("general.architecture", "rwkv6");
  w.u32("rwkv6.block_count", 24);
  w.u32("rwkv6.embedding_length", 2048);
  w.u32("rwkv6.feed_forward_length", 7168);
  w.u32("rwkv6.attention.head_count", 0);
  const std::string bytes = w.file();
  auto r = read_gguf(bytes, bytes.size());
  ASSERT_TRUE(r.ok() && r->file.has_value());
  auto m = model_from_gguf(*r->file, "test.gguf");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("wkv.head_size"), std::string::npos) << m.error().message;

  Json cfg = rwkv6_1b6();
  cfg["head_size"] = 48;  // 2048 is not a multiple of 48
  auto c = model_from_hf_config(cfg.dump(), "config.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("head_size"), std::string::npos) << c.error().message;
}

}  // namespace
}  // namespace willfit
