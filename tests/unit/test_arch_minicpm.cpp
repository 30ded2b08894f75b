// OpenBMB's MiniCPM families of issue 18, which llama.cpp 80fb11ac loads as
// `minicpm3` (MiniCPM3-4B: multi-head latent attention whose K and V are
// decompressed before they are cached) and `minicpm` (MiniCPM-2B, MiniCPM4
// and 4.1: a llama-shaped model run through granite.cpp's graph with muP
// scales). Each is read from a config.json with the published values and
// from the GGUF header llama.cpp's converter writes (conversion/minicpm.py at
// 80fb11ac), and both must give one estimate. The expected cache sizes are
// worked out by hand from src/models/minicpm3.cpp and llama-kv-cache.cpp, the
// totals come from the model cards, not from willfit.
#include <cmath>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/catalogue_model.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/planner/report.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::catalogue_model;
using test::from_config;
using test::from_gguf;
using test::rel;

// Where two readings of one model are compared (test::expect_same_estimate):
// the total parameters, then 4 Ki and 32 Ki tokens, flash attention on and off, at Q4_K_M.
const test::EstimateGrid kEstimateGrid{.contexts = {4096, 32768},
                                       .flash = {FlashAttention::On, FlashAttention::Off},
                                       .params = test::EstimateGrid::Params::Total};

// ---- MiniCPM3-4B (minicpm3) ------------------------------------------------
//
// openbmb/MiniCPM3-4B config.json. The values are those transformers'
// MiniCPM3Config (src/transformers/models/minicpm3/configuration_minicpm3.py,
// whose defaults are documented as openbmb/MiniCPM3-4B's) and public ports
// that quote the config (a MiniCPM3-4B fixture of a model-matrix test suite,
// MINICPM3_4B_HF; an MLX port's "shipped MiniCPM3-4B values") agree on: 62
// layers of 2560, 40 heads and 40 KV heads, MLP 6400, vocabulary 73448;
// MLA with q_lora 768, kv_lora 256, qk 64 + 32 rope, no v_head_dim (so
// hidden / heads = 64); scale_emb 12, scale_depth 1.4, dim_model_base 256;
// 32768 positions; no tie_word_embeddings key (MiniCPM3Config's default,
// True: the checkpoint has no lm_head). The LongRoPE factors (16 each) are
// left out: they are 128 bytes in a GGUF and nothing in memory.
Json minicpm3_4b() {
  return {{"model_type", "minicpm3"},
          {"architectures", {"MiniCPM3ForCausalLM"}},
          {"hidden_size", 2560},
          {"num_hidden_layers", 62},
          {"num_attention_heads", 40},
          {"num_key_value_heads", 40},
          {"intermediate_size", 6400},
          {"vocab_size", 73448},
          {"q_lora_rank", 768},
          {"kv_lora_rank", 256},
          {"qk_nope_head_dim", 64},
          {"qk_rope_head_dim", 32},
          {"rms_norm_eps", 1e-5},
          {"scale_emb", 12},
          {"scale_depth", 1.4},
          {"dim_model_base", 256},
          {"max_position_embeddings", 32768},
          {"rope_scaling", {{"type", "longrope"}, {"original_max_position_embeddings", 32768}}},
          {"torch_dtype", "bfloat16"}};
}

// The header conversion/minicpm.py MiniCPM3Model.set_gguf_parameters writes:
// the shared keys, head_count_kv as the config's (not DeepSeek's 1), the two
// ranks, key_length = nope + rope, rope.dimension_count = rope, and no
// value_length (llama.cpp then takes n_embd / n_head). Tied: no output
// tensor; the LongRoPE factors as rope_factors_{long,short}.weight.
test::GgufWriter minicpm3_gguf(const Json& c) {
  const auto u = [&c](const char* name) { return c.at(name).get<std::uint32_t>(); };
  test::GgufWriter w;
  w.str("general.architecture", "minicpm3");
  w.u32("minicpm3.context_length", u("max_position_embeddings"));
  w.u32("minicpm3.embedding_length", u("hidden_size"));
  w.u32("minicpm3.block_count", u("num_hidden_layers"));
  w.u32("minicpm3.feed_forward_length", u("intermediate_size"));
  w.u32("minicpm3.attention.head_count", u("num_attention_heads"));
  w.u32("minicpm3.attention.head_count_kv", u("num_key_value_heads"));
  w.f32("minicpm3.attention.layer_norm_rms_epsilon", 1e-5F);
  w.u32("minicpm3.vocab_size", u("vocab_size"));
  w.u32("minicpm3.attention.q_lora_rank", u("q_lora_rank"));
  w.u32("minicpm3.attention.kv_lora_rank", u("kv_lora_rank"));
  w.u32("minicpm3.attention.key_length", u("qk_nope_head_dim") + u("qk_rope_head_dim"));
  w.u32("minicpm3.rope.dimension_count", u("qk_rope_head_dim"));
  w.tensor("token_embd.weight", {u("hidden_size"), 256}, test::kQ8_0);
  w.tensor("rope_factors_long.weight", {u("qk_rope_head_dim") / 2}, test::kF32);
  w.tensor("rope_factors_short.weight", {u("qk_rope_head_dim") / 2}, test::kF32);
  return w;
}

TEST(MiniCpm3, ConfigGivesMlaWeightsAndThePerHeadCacheLlamaCppKeeps) {
  const Model m = from_config(minicpm3_4b());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  ASSERT_EQ(m.arch.attention.kind, AttentionKind::Mla);
  EXPECT_TRUE(m.arch.attention.mla_cached_per_head);
  EXPECT_FALSE(m.arch.attention.mla_unscaled_head);  // minicpm3.cpp scales its head
  EXPECT_TRUE(m.arch.tied_embeddings);
  EXPECT_EQ(m.arch.attention.v_head_dim, 64);
  // The card (openbmb/MiniCPM3-4B; the hub's count): 4.07 B parameters.
  EXPECT_LT(rel(static_cast<double>(count_params(m.arch).total()), 4.07e9), 0.01)
      << count_params(m.arch).total();
  // minicpm3.cpp decompresses K (k_nope from kv_b joined with the roped,
  // repeated k_pe: 40 heads x 96) and V (40 heads x 64) and hands them to
  // build_attn with build_attn_inp_kv: llama-kv-cache.cpp keeps K rows of
  // n_embd_k_gqa = 40 x 96 and V rows of n_embd_v_gqa = 40 x 64 per cell on
  // every layer, F16 here; not DeepSeek's 256 + 32 latent.
  const std::int64_t ctx = 8192;
  EXPECT_EQ(kv_cache_bytes(m.arch, {ctx, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{62} * 40 * (96 + 64) * 2 * ctx);
}

TEST(MiniCpm3, GgufHeaderGivesWhatTheConfigGives) {
  const Model c = from_config(minicpm3_4b());
  const Model g = from_gguf(minicpm3_gguf(minicpm3_4b()));
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  ASSERT_EQ(g.arch.attention.kind, AttentionKind::Mla);
  EXPECT_TRUE(g.arch.attention.mla_cached_per_head);
  EXPECT_FALSE(g.arch.attention.mla_unscaled_head);  // minicpm3.cpp scales its head
  EXPECT_TRUE(g.arch.tied_embeddings);
  EXPECT_EQ(g.arch.attention.v_head_dim, 64);
  EXPECT_EQ(g.arch.kv_heads, 40);
  EXPECT_EQ(attention_params_per_layer(g.arch), attention_params_per_layer(c.arch));
  test::expect_same_estimate(g, c, "minicpm3 GGUF vs config", kEstimateGrid);
}

// vLLM and transformers lay MiniCPM3's cache out their own way
// (estimate.cpp, vllm_cache_layout and transformers_cache_layout). Worked
// out by hand from their sources and the config above (62 layers, 40 heads
// and 40 KV heads, qk 64 + 32 rope = 96, v_head_dim 2560 / 40 = 64, kv_lora
// 256) for one sequence of 8192 tokens in 16 bits:
// - vLLM (vllm-project/vllm vllm/model_executor/models/minicpm3.py at
//   009ccee0): Attention(40 heads, head size 96, num_kv_heads 40), V padded
//   to 96 before the cache write: 2 x 40 x 96 x 2 = 15360 bytes a token and
//   layer, x 62 = 952320 a token; 8192 tokens are 512 whole blocks of 16:
//   952320 x 8192 = 7801405440 bytes (llama.cpp's 40 x (96 + 64) x 2 x 62 x
//   8192 = 6501171200);
// - transformers (huggingface/transformers src/transformers/models/minicpm3/
//   modular_minicpm3.py at 16c2042a): the latent (256) and the roped key
//   (32), one head each: 288 x 2 = 576 bytes a token and layer, x 62 = 35712
//   a token, x 8192 = 292552704 bytes.
TEST(MiniCpm3, VllmPadsVToTheQkHeadAndTransformersCachesTheLatent) {
  InferenceQuery q;
  q.model = from_config(minicpm3_4b());
  q.precision = *parse_precision("bf16");
  q.context = 8192;
  EXPECT_EQ(vllm_request_kv(q.model.arch, 8192, kv_f16(), kv_f16(), 8192).bytes, 7801405440);
  q.runtime = Runtime::Vllm;
  EXPECT_EQ(estimate_inference(q).memory.kv_cache, 7801405440);
  // Two GPUs: 20 heads a rank (num_local_heads), the same bytes in all.
  q.tensor_parallel = 2;
  EXPECT_EQ(estimate_inference(q).memory.kv_cache, 7801405440);
  q.tensor_parallel = 0;
  q.runtime = Runtime::Transformers;
  EXPECT_EQ(estimate_inference(q).memory.kv_cache, 292552704);
  // llama.cpp keeps its own per-head layout (the test above).
  q.runtime = Runtime::LlamaCpp;
  EXPECT_EQ(estimate_inference(q).memory.kv_cache, 6501171200);
}

// The Assumptions describe the cache of the runtime in use, from the same
// sources as the test above: llama.cpp's (and mlx_lm's, mlx_lm/models/
// minicpm3.py at d78bf58e) 96 K and 64 V dims per head, vLLM's V padded to
// 96, transformers' 288-wide latent (kv_lora_rank 256 + qk_rope_head_dim 32).
TEST(MiniCpm3, AssumptionsDescribeTheCacheOfTheRuntimeInUse) {
  InferenceQuery q;
  q.model = from_config(minicpm3_4b());
  q.precision = *parse_precision("bf16");
  q.devices.devices.push_back(*raw_device("80gb"));
  const auto line = [&](Runtime runtime) {
    q.runtime = runtime;
    for (const std::string& a : make_fit_report(q).assumptions) {
      if (a.find("multi-head latent attention") != std::string::npos) {
        return a;
      }
    }
    return std::string();
  };
  const std::string llama = "40 KV heads of 96 K and 64 V dims per token and layer";
  EXPECT_NE(line(Runtime::LlamaCpp).find(llama), std::string::npos) << line(Runtime::LlamaCpp);
  const std::string vllm = line(Runtime::Vllm);
  EXPECT_NE(vllm.find("V padded to K's width"), std::string::npos) << vllm;
  EXPECT_NE(vllm.find("40 KV heads of 96 K and 96 V dims"), std::string::npos) << vllm;
  EXPECT_EQ(vllm.find(llama), std::string::npos) << vllm;
  const std::string torch = line(Runtime::Transformers);
  EXPECT_NE(torch.find("one 288-wide latent"), std::string::npos) << torch;
  EXPECT_EQ(torch.find("cached per head"), std::string::npos) << torch;
  q.devices.devices.front().vendor = "apple";
  q.devices.devices.front().kind = DeviceKind::Unified;
  EXPECT_NE(line(Runtime::Mlx).find(llama), std::string::npos) << line(Runtime::Mlx);
}

// The catalogue entry (family minicpm3: the per-head cache) and the config
// give one estimate and one parameter count.
TEST(MiniCpm3, CatalogueGivesWhatTheConfigGives) {
  const Model& cat = catalogue_model("minicpm3-4b");
  const Model c = from_config(minicpm3_4b());
  EXPECT_TRUE(cat.arch.attention.mla_cached_per_head);
  EXPECT_FALSE(cat.arch.attention.mla_unscaled_head);  // minicpm3.cpp scales its head
  test::expect_same_estimate(cat, c, "minicpm3-4b catalogue vs config", kEstimateGrid);
}

// ---- MiniCPM4 / 4.1 (minicpm) ----------------------------------------------
//
// openbmb/MiniCPM4.1-8B config.json as a public FastDeploy port transcribes
// it ("Key configuration parameters from config.json"): 32 layers of 4096,
// 32 heads / 2 KV heads (head 128), MLP 16384, vocabulary 73448, untied
// (tie_word_embeddings false), scale_emb 12, scale_depth 1.4, dim_model_base
// 256, 65536 positions, LongRoPE from 65536 (its factors left out here:
// 64 values each, tensors of 256 bytes). MiniCPM4-8B has the same shape
// with 32768 positions. Its InfLLM v2 sparse attention (the config's
// sparse_config) is one llama.cpp ignores: minicpm runs granite.cpp's dense
// graph, so the estimate does too.
Json minicpm41_8b() {
  return {
      {"model_type", "minicpm"},
      {"architectures", {"MiniCPMForCausalLM"}},
      {"hidden_size", 4096},
      {"num_hidden_layers", 32},
      {"num_attention_heads", 32},
      {"num_key_value_heads", 2},
      {"intermediate_size", 16384},
      {"vocab_size", 73448},
      {"tie_word_embeddings", false},
      {"rms_norm_eps", 1e-6},
      {"rope_theta", 10000.0},
      {"scale_emb", 12},
      {"scale_depth", 1.4},
      {"dim_model_base", 256},
      {"max_position_embeddings", 65536},
      {"rope_scaling", {{"rope_type", "longrope"}, {"original_max_position_embeddings", 65536}}},
      {"torch_dtype", "bfloat16"}};
}

// conversion/minicpm.py MiniCPMModel: TextModel's shared keys (block count,
// context, widths, heads, KV heads, RMS epsilon, rope base) plus the three
// muP scales (embedding_scale = scale_emb, residual_scale = scale_depth /
// sqrt(layers), logit_scale = hidden / dim_model_base); the LongRoPE
// factors as two tensors of head / 2; output.weight when untied.
test::GgufWriter minicpm_gguf(const Json& c) {
  const auto u = [&c](const char* name) { return c.at(name).get<std::uint32_t>(); };
  const std::uint32_t head = u("hidden_size") / u("num_attention_heads");
  test::GgufWriter w;
  w.str("general.architecture", "minicpm");
  w.u32("minicpm.context_length", u("max_position_embeddings"));
  w.u32("minicpm.embedding_length", u("hidden_size"));
  w.u32("minicpm.block_count", u("num_hidden_layers"));
  w.u32("minicpm.feed_forward_length", u("intermediate_size"));
  w.u32("minicpm.rope.dimension_count", head);
  w.u32("minicpm.attention.head_count", u("num_attention_heads"));
  w.u32("minicpm.attention.head_count_kv", u("num_key_value_heads"));
  w.f32("minicpm.rope.freq_base", 10000.0F);
  w.f32("minicpm.attention.layer_norm_rms_epsilon", 1e-6F);
  w.u32("minicpm.vocab_size", u("vocab_size"));
  w.f32("minicpm.embedding_scale", 12.0F);
  w.f32("minicpm.residual_scale", static_cast<float>(1.4 / std::sqrt(32.0)));
  w.f32("minicpm.logit_scale", 4096.0F / 256.0F);
  w.tensor("token_embd.weight", {u("hidden_size"), 256}, test::kQ8_0);
  w.tensor("output.weight", {u("hidden_size"), 256}, test::kQ8_0);
  w.tensor("rope_factors_long.weight", {head / 2}, test::kF32);
  w.tensor("rope_factors_short.weight", {head / 2}, test::kF32);
  return w;
}

TEST(MiniCpm, ConfigIsKnownAndCountsTheCardsTotal) {
  const Model m = from_config(minicpm41_8b());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  EXPECT_EQ(m.arch.attention.kind, AttentionKind::Full);
  EXPECT_FALSE(m.arch.tied_embeddings);
  // The card (openbmb/MiniCPM4.1-8B, MiniCPM4-8B; the hub's count): 8.19 B.
  EXPECT_LT(rel(static_cast<double>(count_params(m.arch).total()), 8.19e9), 0.01)
      << count_params(m.arch).total();
  // granite.cpp's build_attn with build_attn_inp_kv: K and V of 2 KV heads
  // x 128 per cell and layer, F16.
  const std::int64_t ctx = 8192;
  EXPECT_EQ(kv_cache_bytes(m.arch, {ctx, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{32} * 2 * 2 * 128 * 2 * ctx);
}

TEST(MiniCpm, GgufHeaderGivesWhatTheConfigGives) {
  const Model c = from_config(minicpm41_8b());
  const Model g = from_gguf(minicpm_gguf(minicpm41_8b()));
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_FALSE(g.arch.tied_embeddings);
  test::expect_same_estimate(g, c, "minicpm GGUF vs config", kEstimateGrid);
}

// MiniCPM4-8B has MiniCPM4.1-8B's shape with 32768 positions.
TEST(MiniCpm, CatalogueGivesWhatTheConfigGives) {
  Json c = minicpm41_8b();
  c["max_position_embeddings"] = 32768;
  test::expect_same_estimate(catalogue_model("minicpm4-8b"), from_config(c),
                             "minicpm4-8b catalogue vs config", kEstimateGrid);
}

// MiniCPMConfig (openbmb's configuration_minicpm.py) ties by default, as
// MiniCPM-2B and MiniCPM4-0.5B do; an untied one says so.
TEST(MiniCpm, TiesUnlessTheConfigSaysOtherwise) {
  Json c = minicpm41_8b();
  c.erase("tie_word_embeddings");
  EXPECT_TRUE(from_config(c).arch.tied_embeddings);
}

}  // namespace
}  // namespace willfit
