// RWKV (llama.cpp `rwkv6`, `rwkv7`; config.json model_type `rwkv6`,
// `rwkv7`): RWKV-6 "Finch" and RWKV-7 "Goose" (below).
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
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/catalogue_checks.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/inference/runtime_architectures.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/hf_config.hpp"
#include "willfit/models/model.hpp"
#include "willfit/models/model_db.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::from_config;
using test::from_gguf;
using test::rel;

// RWKV/rwkv-6-world-1b6 config.json as public code quotes it (a public pytest file of a config
// deriver (test_a_top_level_decoder_config_is_left_alone: 'Qwen2-VL and Phi-3.5-vision publish the
// decoder's fields at the top level'), RWKV6 = {model_type rwkv6, num_hidden_layers 24, hidden_size
// 2048, num_attention_heads 32, head_size 64}); vocab_size 65536, rescale_every 6, untied and
// intermediate_size null are transformers' Rwkv6Config defaults (huggingface/transformers
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

// The 1.6B's config at another width and depth (head_size 64).
Json rwkv6_sized(int hidden, int layers) {
  Json j = rwkv6_1b6();
  j["hidden_size"] = hidden;
  j["attention_hidden_size"] = hidden;
  j["num_hidden_layers"] = layers;
  j["num_attention_heads"] = hidden / 64;
  return j;
}

// RWKV-6 World 7B (RWKV/v6-Finch-7B-HF): hidden 4096 in 32 layers (llama.cpp
// llama_model_rwkv6::load_arch_hparams names 32 layers at 4096 LLM_TYPE_7B,
// 2560 LLM_TYPE_3B), the rest as the 1.6B's.
Json rwkv6_7b() {
  return rwkv6_sized(4096, 32);
}

// RWKV-6 World 3B (RWKV/v6-Finch-3B-HF): hidden 2560 in 32 layers
// (LLM_TYPE_3B), the rest as the 1.6B's.
Json rwkv6_3b() {
  return rwkv6_sized(2560, 32);
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
  const auto total = [](const Json& cfg) {
    return static_cast<double>(count_params(from_config(cfg).arch).total());
  };
  EXPECT_LT(rel(total(rwkv6_1b6()), 1.6e9), 0.01);
  EXPECT_LT(rel(total(rwkv6_3b()), 3.1e9), 0.01);
  EXPECT_LT(rel(total(rwkv6_7b()), 7.63e9), 0.01);
}

// The catalogue's RWKV-6 World entries (data/models.json) are their
// config.json values above: RWKV-6 blocks on every layer, the LoRA ranks the
// converter writes, the same state, weights and compute buffer whatever the
// context, the published counts within 1 %.
TEST(Rwkv, Rwkv6CatalogueEntriesAreTheirConfigs) {
  const std::vector<std::pair<std::string, Json>> entries = {{"rwkv-6-world-1b6", rwkv6_1b6()},
                                                             {"rwkv-6-world-3b", rwkv6_3b()},
                                                             {"rwkv-6-world-7b", rwkv6_7b()}};
  for (const auto& [id, cfg] : entries) {
    const Model& cat = test::catalogue_model(id);
    EXPECT_EQ(cat.arch.attention.rwkv, 6) << id;
    EXPECT_EQ(cat.arch.attention.rwkv_token_shift_count, 2) << id;
    test::expect_catalogue_is_config(id, from_config(cfg), {4096, 65536});
  }
}

// The catalogue refuses RWKV fields that do not describe RWKV-6 blocks on
// every layer.
TEST(Rwkv, CatalogueRefusesAnRwkvEntryWithAttentionLayers) {
  const auto parsed = ModelDb::parse(R"({"schema_version": 1, "models": [{"id": "x",
      "params": 1000, "layers": 2, "hidden_size": 128, "heads": 2, "head_dim": 64,
      "intermediate_size": 448, "vocab_size": 100, "attention": {"kind": "hybrid",
      "attention_layers": 1, "recurrent_layers": 1, "rwkv": 6, "rwkv_token_shift_count": 2,
      "rwkv_time_mix_extra": 32, "rwkv_time_decay_extra": 64}}]})",
                                     "test.json");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error().message.find("'rwkv'"), std::string::npos) << parsed.error().message;
}

// An RWKV-6 entry whose recurrent weights or state are missing or not the
// block's (two token-shift rows of hidden and heads x head_size^2: for this
// 128-wide, 2-head shape 2 x 128 + 2 x 64 x 64 = 8448) is refused, not
// answered without them.
TEST(Rwkv, CatalogueRefusesAnRwkvEntryWithoutItsStateOrWeights) {
  const auto entry = [](const char* recurrent) {
    return fmt::format(R"({{"schema_version": 1, "models": [{{"id": "x",
      "params": 1000, "layers": 2, "hidden_size": 128, "heads": 2, "head_dim": 64,
      "intermediate_size": 448, "vocab_size": 100, "attention": {{"kind": "hybrid",
      "attention_layers": 0, "recurrent_layers": 2, {} "rwkv": 6, "rwkv_token_shift_count": 2,
      "rwkv_time_mix_extra": 32, "rwkv_time_decay_extra": 64}}}}]}})",
                       recurrent);
  };
  EXPECT_TRUE(
      ModelDb::parse(entry(R"("recurrent_params": 500, "recurrent_state_floats": 8448,)"), "t")
          .ok());
  for (const char* bad : {R"("recurrent_params": 0, "recurrent_state_floats": 8448,)",
                          R"("recurrent_params": 500, "recurrent_state_floats": 0,)",
                          R"("recurrent_params": 500, "recurrent_state_floats": 8192,)"}) {
    const auto parsed = ModelDb::parse(entry(bad), "t");
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_NE(parsed.error().message.find("recurrent_"), std::string::npos)
        << parsed.error().message;
  }
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

// RWKV-7 "Goose" (llama.cpp `rwkv7`; config.json model_type `rwkv7`,
// flash-linear-attention's RWKV7Config): RWKV-6's blocks with a time mix of
// four LoRAs (decay, in-context learning rate, value residual mix, gate) and
// a channel mix of key and value alone (llama.cpp src/models/rwkv7.cpp and
// rwkv7-base.cpp at 80fb11ac); the same state, two token-shift rows and the
// wkv state a layer.

// fla-hub/rwkv7-191M-world: 12 layers of 768 (llama.cpp
// llama_model_rwkv7::load_arch_hparams: 12 layers at 768 is LLM_TYPE_190M);
// its config.json as public code copies it (a public Python TTS training script on an RWKV backbone
// (semantic_token_ids = torch.randint(4096, 12289, (1, 50)), print Loss), an fla RWKV7Config of
// model_type rwkv7: hidden_size 768, num_hidden_layers 12, head_dim 64, intermediate_size 3072,
// decay_low_rank_dim 64, a_low_rank_dim 64, v_low_rank_dim 32,
// gate_low_rank_dim 128, norm_eps 1e-5, tie_word_embeddings false); the
// vocabulary, 65,536, from the model card (a public copy of the fla-hub/rwkv7-191M-world model card
// ('trained on the World v2.8 with a total of 1.0 trillion tokens', lambada_openai ppl 12.4),
// "Vocabulary size: 65,536").
Json rwkv7_191m() {
  return {{"architectures", {"RWKV7ForCausalLM"}},
          {"model_type", "rwkv7"},
          {"hidden_size", 768},
          {"num_hidden_layers", 12},
          {"head_dim", 64},
          {"num_heads", 12},
          {"hidden_ratio", 4.0},
          {"intermediate_size", 3072},
          {"decay_low_rank_dim", 64},
          {"a_low_rank_dim", 64},
          {"v_low_rank_dim", 32},
          {"gate_low_rank_dim", 128},
          {"norm_eps", 1e-5},
          {"norm_bias", true},
          {"vocab_size", 65536},
          {"tie_word_embeddings", false}};
}

// RWKV/RWKV7-Goose-World3-1.5B-HF (fla-hub/rwkv7-1.5B-world) as public tests
// quote it (a public Rust RwkvConfig with tests ('RWKV-6 (Finch)', 'RWKV-7 (Goose)'), "Sample
// RWKV-7 config matching RWKV/RWKV7-Goose-World3-1.5B-HF").
Json rwkv7_1b5() {
  Json j = rwkv7_191m();
  j["hidden_size"] = 2048;
  j["num_hidden_layers"] = 24;
  j.erase("num_heads");
  j["intermediate_size"] = 8192;
  j["decay_low_rank_dim"] = 96;
  j["a_low_rank_dim"] = 96;
  j["v_low_rank_dim"] = 64;
  j["gate_low_rank_dim"] = 256;
  return j;
}

// RWKV-7 World3 2.9B with the native checkpoint's key names (head_size,
// num_attention_heads) as a public conversion script expects them
// (a public Python exporter of a 2.9B RWKV checkpoint for vllm-rwkv ('Value-preserving container
// serialization of the frozen native 2.9B checkpoint'): hidden_size 2560, num_hidden_layers 32,
// head_size 64, num_attention_heads 40, intermediate_size 10240, the ranks
// 96, 96, 64 and 320, vocab_size 65536, untied).
Json rwkv7_2b9() {
  return {{"architectures", {"Rwkv7ForCausalLM"}},
          {"model_type", "rwkv7"},
          {"hidden_size", 2560},
          {"num_hidden_layers", 32},
          {"head_size", 64},
          {"num_attention_heads", 40},
          {"intermediate_size", 10240},
          {"decay_low_rank_dim", 96},
          {"a_low_rank_dim", 96},
          {"v_low_rank_dim", 64},
          {"gate_low_rank_dim", 320},
          {"vocab_size", 65536},
          {"tie_word_embeddings", false}};
}

// The header conversion/rwkv.py writes (Rwkv7Model.set_gguf_parameters at
// 80fb11ac): context 2^20, embedding, block count, LayerNorm epsilon,
// wkv.head_size, the four LoRA ranks (attention.decay_lora_rank,
// iclr_lora_rank, value_residual_mix_lora_rank, gate_lora_rank),
// feed_forward_length, head_count 0; the token embeddings and the output.
test::GgufWriter rwkv7_gguf(const Json& cfg) {
  const auto n = [&](const char* k) { return cfg[k].get<std::uint32_t>(); };
  const std::uint32_t hidden = n("hidden_size");
  test::GgufWriter w;
  w.str("general.architecture", "rwkv7");
  w.u32("rwkv7.context_length", 1U << 20);
  w.u32("rwkv7.embedding_length", hidden);
  w.u32("rwkv7.block_count", n("num_hidden_layers"));
  w.f32("rwkv7.attention.layer_norm_epsilon", 1e-5F);
  w.u32("rwkv7.wkv.head_size", 64);
  w.u32("rwkv7.attention.decay_lora_rank", n("decay_low_rank_dim"));
  w.u32("rwkv7.attention.iclr_lora_rank", n("a_low_rank_dim"));
  w.u32("rwkv7.attention.value_residual_mix_lora_rank", n("v_low_rank_dim"));
  w.u32("rwkv7.attention.gate_lora_rank", n("gate_low_rank_dim"));
  w.u32("rwkv7.feed_forward_length", n("intermediate_size"));
  w.u32("rwkv7.attention.head_count", 0);
  w.tensor("token_embd.weight", {hidden, n("vocab_size")}, test::kQ8_0);
  w.tensor("output.weight", {hidden, n("vocab_size")}, test::kQ8_0);
  return w;
}

TEST(Rwkv, Rwkv7ConfigAndGgufAreKnownAndAgree) {
  for (const Json& cfg : {rwkv7_191m(), rwkv7_1b5(), rwkv7_2b9()}) {
    const std::int64_t h = cfg["hidden_size"];
    const Model c = from_config(cfg);
    const Model g = from_gguf(rwkv7_gguf(cfg));
    for (const Model* m : {&c, &g}) {
      EXPECT_TRUE(m->unchecked_architecture.empty()) << h << m->unchecked_architecture;
      EXPECT_TRUE(purely_recurrent(m->arch)) << h;
      EXPECT_EQ(m->arch.attention.rwkv, 7) << h;
      EXPECT_EQ(attention_layer_count(m->arch), 0) << h;
      EXPECT_EQ(recurrent_layer_count(m->arch), m->arch.layers) << h;
      EXPECT_EQ(m->arch.heads, h / 64) << h;
      EXPECT_EQ(m->arch.head_dim, 64) << h;
      EXPECT_EQ(m->arch.intermediate_size, cfg["intermediate_size"].get<std::int64_t>()) << h;
      EXPECT_EQ(m->arch.attention.rwkv_lora_decay, cfg["decay_low_rank_dim"].get<int>()) << h;
      EXPECT_EQ(m->arch.attention.rwkv_lora_iclr, cfg["a_low_rank_dim"].get<int>()) << h;
      EXPECT_EQ(m->arch.attention.rwkv_lora_value, cfg["v_low_rank_dim"].get<int>()) << h;
      EXPECT_EQ(m->arch.attention.rwkv_lora_gate, cfg["gate_low_rank_dim"].get<int>()) << h;
      // llama-hparams.cpp: n_embd_r = 2 hidden (token_shift_count 2), n_embd_s = hidden x 64
      EXPECT_EQ(m->arch.attention.recurrent_state_floats, 2 * h + h * 64) << h;
      EXPECT_FALSE(m->arch.tied_embeddings) << h;
      EXPECT_EQ(m->active_params, m->params) << h;
    }
    test::expect_same_estimate(c, g, "rwkv7 " + std::to_string(h), {4096, 65536});
    const Estimate small = test::llama_cpp_q4_estimate(c, 4096, false);
    const Estimate large = test::llama_cpp_q4_estimate(c, 65536, true);
    // No KV cache at any context: the state is all, F32 per layer.
    EXPECT_EQ(small.memory.kv_cache, std::int64_t{c.arch.layers} * (2 * h + h * 64) * 4) << h;
    EXPECT_EQ(small.recurrent_state, small.memory.kv_cache) << h;
    EXPECT_EQ(large.memory.kv_cache, small.memory.kv_cache) << h;
    EXPECT_EQ(large.memory.compute, small.memory.compute) << h;
    EXPECT_GT(small.memory.compute, 0) << h;
  }
}

// A config whose ranks are null, or missing, takes the ranks
// conversion/rwkv.py computes (calc_lora_rank: max(1, round(hidden^e x m /
// 32)) x 32); the published configs above name them, and the computed ones
// agree with them at 768, 2048 and 2560. intermediate_size null: 4 x hidden
// (conversion/rwkv.py).
TEST(Rwkv, Rwkv7NullRanksAreTheConvertersOnes) {
  for (const Json& published : {rwkv7_191m(), rwkv7_1b5(), rwkv7_2b9()}) {
    Json cfg = published;
    cfg["decay_low_rank_dim"] = nullptr;
    cfg.erase("a_low_rank_dim");
    cfg["v_low_rank_dim"] = nullptr;
    cfg.erase("gate_low_rank_dim");
    cfg["intermediate_size"] = nullptr;
    const Model m = from_config(cfg);
    const Attention& at = m.arch.attention;
    EXPECT_EQ(at.rwkv_lora_decay, published["decay_low_rank_dim"].get<int>());
    EXPECT_EQ(at.rwkv_lora_iclr, published["a_low_rank_dim"].get<int>());
    EXPECT_EQ(at.rwkv_lora_value, published["v_low_rank_dim"].get<int>());
    EXPECT_EQ(at.rwkv_lora_gate, published["gate_low_rank_dim"].get<int>());
    EXPECT_EQ(m.arch.intermediate_size, 4 * published["hidden_size"].get<std::int64_t>());
  }
}

// Published size: "Parameter count: 191M" (fla-hub/rwkv7-191M-world's model
// card, a public copy of the fla-hub/rwkv7-191M-world model card ('trained on the World v2.8 with a
// total of 1.0 trillion tokens', lambada_openai ppl 12.4); "0.19 billion" in Peng et al., RWKV-7
// "Goose", arXiv 2503.14456, abstract). willfit leaves out the LayerNorms and counts layer 0's
// unused value LoRA at the value rank.
TEST(Rwkv, Rwkv7ParameterCountMatchesThePublishedOne) {
  const auto total = static_cast<double>(count_params(from_config(rwkv7_191m()).arch).total());
  EXPECT_LT(rel(total, 191e6), 0.01);
}

// A file without the LoRA ranks, or a config whose heads do not divide the
// hidden size, is an error naming them, not an answer.
TEST(Rwkv, Rwkv7MissingTimeMixSizesAreErrors) {
  test::GgufWriter w;
  w.str("general.architecture", "rwkv7");
  w.u32("rwkv7.block_count", 12);
  w.u32("rwkv7.embedding_length", 768);
  w.u32("rwkv7.feed_forward_length", 3072);
  w.u32("rwkv7.wkv.head_size", 64);
  w.u32("rwkv7.attention.head_count", 0);
  const std::string bytes = w.file();
  auto r = read_gguf(bytes, bytes.size());
  ASSERT_TRUE(r.ok() && r->file.has_value());
  auto m = model_from_gguf(*r->file, "test.gguf");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("decay_lora_rank"), std::string::npos) << m.error().message;

  Json cfg = rwkv7_191m();
  cfg["head_dim"] = 48;  // 768 is a multiple of 48, but head_size below is not
  cfg["head_size"] = 100;
  auto c = model_from_hf_config(cfg.dump(), "config.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("head_dim"), std::string::npos) << c.error().message;
}

// ARWKV-7 (llama.cpp `arwkv7`, src/models/arwkv7.cpp at 80fb11ac): RWKV-7's
// time mix behind RMS norms and, in place of the channel mix, Qwen2's
// SwiGLU MLP; one token-shift row a layer (conversion/rwkv.py ARwkv7Model
// writes token_shift_count 1, arwkv7.cpp asserts n_embd_r = n_embd). The
// header that converter writes for RWKV-Red-Team/ARWKV-7B-Preview-0.1
// (its example): Qwen2.5-7B's hidden 3584, 28 layers, intermediate 18944,
// vocabulary 152064; head_size 64, the ranks it fixes (decay 64, iclr 64,
// value 32, gate 128 or 0 without wkv_has_gate). No config.json is read:
// no transcription of the checkpoint's was found.
test::GgufWriter arwkv7_gguf(std::uint32_t gate, std::uint32_t shifts = 1) {
  test::GgufWriter w;
  w.str("general.architecture", "arwkv7");
  w.u32("arwkv7.context_length", 1U << 20);
  w.u32("arwkv7.embedding_length", 3584);
  w.u32("arwkv7.block_count", 28);
  w.f32("arwkv7.attention.layer_norm_rms_epsilon", 1e-6F);
  w.u32("arwkv7.wkv.head_size", 64);
  w.u32("arwkv7.attention.decay_lora_rank", 64);
  w.u32("arwkv7.attention.iclr_lora_rank", 64);
  w.u32("arwkv7.attention.value_residual_mix_lora_rank", 32);
  w.u32("arwkv7.attention.gate_lora_rank", gate);
  w.u32("arwkv7.feed_forward_length", 18944);
  w.u32("arwkv7.token_shift_count", shifts);
  w.u32("arwkv7.attention.head_count", 0);
  w.tensor("token_embd.weight", {3584, 152064}, test::kQ8_0);
  w.tensor("output.weight", {3584, 152064}, test::kQ8_0);
  return w;
}

TEST(Rwkv, Arwkv7GgufIsKnownAndSized) {
  for (const std::uint32_t gate : {0U, 128U}) {
    const Model m = from_gguf(arwkv7_gguf(gate));
    EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
    EXPECT_TRUE(purely_recurrent(m.arch));
    EXPECT_EQ(m.arch.attention.rwkv, 7);
    EXPECT_EQ(m.arch.attention.rwkv_token_shift_count, 1);
    EXPECT_EQ(m.arch.attention.rwkv_lora_gate, static_cast<int>(gate));
    EXPECT_EQ(m.arch.heads, 3584 / 64);
    // llama-hparams.cpp: n_embd_r = 1 x hidden, n_embd_s = hidden x 64
    EXPECT_EQ(m.arch.attention.recurrent_state_floats, 3584 + 3584 * 64);
    const Estimate small = test::llama_cpp_q4_estimate(m, 4096, false);
    const Estimate large = test::llama_cpp_q4_estimate(m, 65536, true);
    EXPECT_EQ(small.memory.kv_cache, std::int64_t{28} * (3584 + 3584 * 64) * 4);
    EXPECT_EQ(large.memory.kv_cache, small.memory.kv_cache);
    EXPECT_EQ(large.memory.compute, small.memory.compute);
    EXPECT_GT(small.memory.compute, 0);
  }
  // The gate LoRA and its sixth lerp: 2 x 3584 x 128 + 3584 weights a layer.
  EXPECT_EQ(count_params(from_gguf(arwkv7_gguf(128)).arch).total() -
                count_params(from_gguf(arwkv7_gguf(0)).arch).total(),
            std::int64_t{28} * (2 * 3584 * 128 + 3584));
}

// An ARWKV-7 file with RWKV-7's two token-shift rows (which arwkv7.cpp's
// assertion rejects) is an error naming the key.
TEST(Rwkv, Arwkv7NeedsOneTokenShiftRow) {
  EXPECT_TRUE(refused_gguf_architecture("arwkv7").empty());
  test::GgufWriter w = arwkv7_gguf(0, 2);
  const std::string bytes = w.file();
  auto r = read_gguf(bytes, bytes.size());
  ASSERT_TRUE(r.ok() && r->file.has_value());
  auto m = model_from_gguf(*r->file, "test.gguf");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("token_shift_count 1"), std::string::npos) << m.error().message;
}

// RWKV6Qwen2 (llama.cpp `rwkv6qwen2`, src/models/rwkv6qwen2.cpp at
// 80fb11ac; config.json model_type rwkv6qwen2): recursal's QRWKV6, Qwen2.5
// with RWKV-6's time mix in place of its attention (rwkv6-base.cpp's QRWKV
// path: no bonus, no group norm, gated linear attention), the key and value
// of the KV heads (GQA), Qwen2's SwiGLU MLP, RMS norms, one token-shift row
// a layer. QRWKV6-32B-Instruct-Preview-v0.1 (llama.cpp's example for
// conversion/rwkv.py RWKV6Qwen2Model) converts Qwen2.5-32B-Instruct: its
// config is RWKV6Qwen2Config (SmerkyG/hfattnconv
// rwkv6qwen2/configuration_rwkv6qwen2.py: model_type rwkv6qwen2, Qwen2's
// keys, attention_bias true, attention_output_bias false) over the teacher's
// values (SmerkyG/hfattnconv configs/Qwen2.5-32B-Instruct.yaml names
// Qwen/Qwen2.5-32B-Instruct; its config as litgpt transcribes it for the
// same shape, data/models.json QwQ-32B and Qwen2.5-32B: 64 layers, hidden
// 5120, 40 heads, 8 KV heads, intermediate 27648, vocabulary 152064,
// untied, RMS epsilon 1e-6). No lora_rank_* keys: the modelling file fixes
// the ranks at 64 and 128 from hidden 4096 up (D_MIX_LORA, D_DECAY_LORA),
// as the converter's defaults.
Json qrwkv6_32b() {
  return {{"architectures", {"RWKV6Qwen2ForCausalLM"}},
          {"model_type", "rwkv6qwen2"},
          {"hidden_size", 5120},
          {"intermediate_size", 27648},
          {"num_hidden_layers", 64},
          {"num_attention_heads", 40},
          {"num_key_value_heads", 8},
          {"hidden_act", "silu"},
          {"max_position_embeddings", 32768},
          {"rms_norm_eps", 1e-6},
          {"rope_theta", 1000000.0},
          {"tie_word_embeddings", false},
          {"use_sliding_window", false},
          {"attention_bias", true},
          {"attention_output_bias", false},
          {"vocab_size", 152064}};
}

// The header conversion/rwkv.py RWKV6Qwen2Model.set_gguf_parameters writes
// for that config: context 2^20, wkv.head_size hidden / heads, the LoRA
// ranks, feed_forward_length, the RMS epsilon, token_shift_count 1,
// head_count_kv the KV heads, head_count 0; the tensors whose presence the
// reader asks about (the key's bias) beside the embeddings and output.
test::GgufWriter qrwkv6_gguf(const Json& cfg, std::uint32_t shifts = 1) {
  const auto n = [&](const char* k) { return cfg[k].get<std::uint32_t>(); };
  const std::uint32_t hidden = n("hidden_size");
  const std::uint32_t head = hidden / n("num_attention_heads");
  test::GgufWriter w;
  w.str("general.architecture", "rwkv6qwen2");
  w.u32("rwkv6qwen2.context_length", 1U << 20);
  w.u32("rwkv6qwen2.embedding_length", hidden);
  w.u32("rwkv6qwen2.block_count", n("num_hidden_layers"));
  w.u32("rwkv6qwen2.wkv.head_size", head);
  w.u32("rwkv6qwen2.time_mix_extra_dim", hidden >= 4096 ? 64 : 32);
  w.u32("rwkv6qwen2.time_decay_extra_dim", hidden >= 4096 ? 128 : 64);
  w.u32("rwkv6qwen2.feed_forward_length", n("intermediate_size"));
  w.f32("rwkv6qwen2.attention.layer_norm_rms_epsilon", 1e-6F);
  w.u32("rwkv6qwen2.token_shift_count", shifts);
  w.u32("rwkv6qwen2.attention.head_count_kv", n("num_key_value_heads"));
  w.u32("rwkv6qwen2.attention.head_count", 0);
  w.tensor("token_embd.weight", {hidden, n("vocab_size")}, test::kQ8_0);
  w.tensor("output.weight", {hidden, n("vocab_size")}, test::kQ8_0);
  w.tensor("blk.0.time_mix_key.bias", {n("num_key_value_heads") * head}, test::kF32);
  return w;
}

TEST(Rwkv, Rwkv6Qwen2ConfigAndGgufAreKnownAndAgree) {
  EXPECT_TRUE(refused_gguf_architecture("rwkv6qwen2").empty());
  EXPECT_TRUE(is_known_gguf_architecture("rwkv6qwen2"));
  EXPECT_TRUE(is_known_config_model_type("rwkv6qwen2"));
  const Model c = from_config(qrwkv6_32b());
  const Model g = from_gguf(qrwkv6_gguf(qrwkv6_32b()));
  for (const Model* m : {&c, &g}) {
    EXPECT_TRUE(m->unchecked_architecture.empty()) << m->unchecked_architecture;
    EXPECT_TRUE(purely_recurrent(m->arch));
    EXPECT_EQ(m->arch.attention.rwkv, 6);
    EXPECT_EQ(m->arch.attention.rwkv_token_shift_count, 1);
    EXPECT_EQ(attention_layer_count(m->arch), 0);
    EXPECT_EQ(m->arch.heads, 40);
    EXPECT_EQ(m->arch.kv_heads, 8);
    EXPECT_EQ(m->arch.head_dim, 128);
    EXPECT_EQ(m->arch.intermediate_size, 27648);
    EXPECT_EQ(m->arch.attention.rwkv_time_mix_extra, 64);
    EXPECT_EQ(m->arch.attention.rwkv_time_decay_extra, 128);
    // llama-hparams.cpp: n_embd_r = 1 x hidden (token_shift_count 1),
    // n_embd_s = hidden x 128
    EXPECT_EQ(m->arch.attention.recurrent_state_floats, 5120 + 5120 * 128);
    EXPECT_FALSE(m->arch.tied_embeddings);
  }
  test::expect_same_estimate(c, g, "qrwkv6-32b", {4096, 65536});
  // No KV cache at any context: the state is all, F32 per layer.
  const Estimate small = test::llama_cpp_q4_estimate(c, 4096, false);
  const Estimate large = test::llama_cpp_q4_estimate(c, 65536, true);
  EXPECT_EQ(small.memory.kv_cache, std::int64_t{64} * (5120 + 5120 * 128) * 4);
  EXPECT_EQ(large.memory.kv_cache, small.memory.kv_cache);
  EXPECT_EQ(large.memory.compute, small.memory.compute);
}

// The count: Qwen2.5-32B-Instruct's published 32,763,876,352 (keras-hub
// keras_hub/src/models/qwen/qwen_presets.py, qwen2.5_instruct_32b_en, as
// data/models.json cites it: embeddings, q/k/v/o with the q/k/v biases,
// MLP, norms) with what QRWKV6 adds to each of its 64 layers
// (modeling_rwkv6qwen2.py RWKV6Attention, llama.cpp rwkv6qwen2.cpp
// load_arch_tensors): the gate (hidden x hidden), the token-shift LoRA
// (time_maa_w1 5120 x 5 x 64, time_maa_w2 5 x 64 x 5120), the decay LoRA
// (5120 x 128 and back), six lerps and the decay. No card of the converted
// checkpoint was reachable; its layers are the teacher's with these.
TEST(Rwkv, Rwkv6Qwen2ParameterCountMatchesThePublishedOne) {
  const std::int64_t h = 5120;
  const std::int64_t added = h * h + 2 * 5 * 64 * h + 2 * 128 * h + 7 * h;
  const double published = 32763876352.0 + 64.0 * static_cast<double>(added);
  const Model m = from_config(qrwkv6_32b());
  EXPECT_LT(rel(static_cast<double>(count_params(m.arch).total()), published), 0.01)
      << count_params(m.arch).total();
  EXPECT_EQ(m.active_params, m.params);
  // Without Qwen2's q/k/v biases (attention_bias false) the count drops by
  // them: 64 x (5120 + 2 x 1024).
  Json plain = qrwkv6_32b();
  plain["attention_bias"] = false;
  EXPECT_EQ(count_params(m.arch).total() - count_params(from_config(plain).arch).total(),
            std::int64_t{64} * (5120 + 2 * 1024));
}

// RWKV-6's two token-shift rows in an rwkv6qwen2 file (rwkv6qwen2.cpp
// asserts one), KV heads that do not divide the heads (rwkv6-base.cpp
// asserts they do) and a config whose heads do not divide the hidden size
// are errors naming what is wrong.
TEST(Rwkv, Rwkv6Qwen2MalformedShapesAreErrors) {
  const auto gguf_error = [](const test::GgufWriter& w) {
    const std::string bytes = w.file();
    auto r = read_gguf(bytes, bytes.size());
    EXPECT_TRUE(r.ok() && r->file.has_value());
    auto m = model_from_gguf(*r->file, "test.gguf");
    EXPECT_FALSE(m.ok());
    return m.ok() ? std::string() : m.error().message;
  };
  EXPECT_NE(gguf_error(qrwkv6_gguf(qrwkv6_32b(), 2)).find("token_shift_count 1"),
            std::string::npos);
  Json odd = qrwkv6_32b();
  odd["num_key_value_heads"] = 7;
  EXPECT_NE(gguf_error(qrwkv6_gguf(odd)).find("head_count_kv"), std::string::npos);
  const auto c = model_from_hf_config(odd.dump(), "config.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("num_key_value_heads"), std::string::npos);
  // a null rank is the converter's default, as an absent one
  Json nulls = qrwkv6_32b();
  nulls["lora_rank_tokenshift"] = nullptr;
  nulls["lora_rank_decay"] = 96;
  const Model n = from_config(nulls);
  EXPECT_EQ(n.arch.attention.rwkv_time_mix_extra, 64);
  EXPECT_EQ(n.arch.attention.rwkv_time_decay_extra, 96);
}

// transformers has no RWKV-6 or RWKV-7 class: its one RWKV model, `rwkv`,
// is RWKV-4 (src/transformers/models/auto/configuration_auto.py at
// 8ed701e9); RWKV-6 (pull request #34918) and RWKV-7 (#47780) are open pull
// requests. willfit refuses the pair instead of sizing a cache it has not
// read, and a BF16 or FP16 RWKV model defaults to llama.cpp, which runs both
// (rwkv6.cpp, rwkv7.cpp).
TEST(Rwkv, TransformersHasNoRwkv6Or7Class) {
  const Precision bf16 = *parse_precision("bf16");
  for (const Json& cfg : {rwkv6_1b6(), rwkv7_191m()}) {
    const Model m = from_config(cfg);
    EXPECT_FALSE(runtime_model_conflict(Runtime::Transformers, m).empty()) << cfg["model_type"];
    EXPECT_TRUE(runtime_model_conflict(Runtime::LlamaCpp, m).empty());
    EXPECT_EQ(default_runtime(m, bf16, {}), Runtime::LlamaCpp) << cfg["model_type"];
    EXPECT_TRUE(float_off_transformers(m, bf16, {}));
    // INT4 (bitsandbytes) is a transformers format: the default stays, and is refused.
    EXPECT_EQ(default_runtime(m, *parse_precision("int4"), {}), Runtime::Transformers);
  }
  EXPECT_NE(runtime_model_conflict(Runtime::Transformers, from_config(rwkv7_191m())).find("RWKV-7"),
            std::string::npos);
}

}  // namespace
}  // namespace willfit
