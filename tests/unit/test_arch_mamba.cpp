// Mamba and Mamba-2 alone (llama.cpp `mamba` and `mamba2`; config.json
// model_type `mamba`, `falcon_mamba`, `mamba2`): state-spaces' Mamba,
// Falcon Mamba 7B and Mamba-Codestral-7B. Every block is the mixer behind an
// RMS norm, with no attention and no MLP (llama.cpp src/models/mamba.cpp at
// 80fb11ac, mamba-base.cpp); llama.cpp gives every layer a recurrent state
// and no KV cache (llama-model.cpp create_memory). Read from published
// config.json values and from the header conversion/mamba.py writes
// (head_count and feed_forward_length 0, context 2^20): one estimate, no KV
// cache at any context, the state of each layer, and the parameter count
// against the published one. (The replay against a real llama.cpp:
// tests/unit/test_ggml_alloc.cpp, GgmlAlloc.Mamba*MatchesTheLiveLlamaCpp.)
#include <cstdint>
#include <string>
#include <utility>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sources/embedded_data.hpp"
#include "unit/catalogue_model.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
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

// state-spaces/mamba-130m-hf config.json (MambaForCausalLM) as public code
// quotes it: hidden 768, 24 layers, intermediate_size 1536 (expand 2),
// state_size 16, vocabulary 50280 (a public pytest conftest of model configs (MAMBA_130M_CONFIG,
// FALCON_MAMBA_CONFIG, JAMBA_CONFIG; fixture mamba_config), MAMBA_130M_CONFIG), conv_kernel 4 and
// d_state 16 (LaurentMazare/mamba.rs src/constants.rs), time_step_rank "auto" (ceil(768 / 16) =
// 48), tied.
Json mamba_130m() {
  return {{"architectures", {"MambaForCausalLM"}},
          {"model_type", "mamba"},
          {"hidden_size", 768},
          {"num_hidden_layers", 24},
          {"intermediate_size", 1536},
          {"state_size", 16},
          {"expand", 2},
          {"conv_kernel", 4},
          {"time_step_rank", "auto"},
          {"vocab_size", 50280},
          {"tie_word_embeddings", true}};
}

// state-spaces/mamba-2.8b-hf: hidden 2560, 64 layers (mamba.rs
// params_2_8b), intermediate 5120, time_step_rank 160, the same vocabulary.
Json mamba_2_8b() {
  Json j = mamba_130m();
  j["hidden_size"] = 2560;
  j["num_hidden_layers"] = 64;
  j["intermediate_size"] = 5120;
  j["time_step_rank"] = 160;
  return j;
}

// tiiuae/falcon-mamba-7b config.json as public code quotes it (a public Python benchmark helper for
// Hugging Face models (create_hf_model_benchmark(model_spec, param_dict) -> HFModelBenchmark); a
// public Python model-test helper building tiny transformers models (ending with a
// MllamaForConditionalGeneration case, pixel_values of shape (1, 1, 1, 3, 512, 1080)), "See
// flacon-mamba-7b/config.json"): hidden 4096, 64 layers, intermediate_size 8192 (its "expand": 16
// is not the ratio: transformers reads intermediate_size), state 16, conv 4, time_step_rank 256,
// vocabulary 65024, untied.
Json falcon_mamba_7b() {
  return {{"architectures", {"FalconMambaForCausalLM"}},
          {"model_type", "falcon_mamba"},
          {"hidden_size", 4096},
          {"num_hidden_layers", 64},
          {"intermediate_size", 8192},
          {"expand", 16},
          {"state_size", 16},
          {"conv_kernel", 4},
          {"time_step_rank", 256},
          {"vocab_size", 65024},
          {"tie_word_embeddings", false}};
}

// mistralai/Mamba-Codestral-7B-v0.1 (Mamba2ForCausalLM): hidden 4096, 64
// layers, vocabulary 32768, untied embeddings (llama.cpp issue 8519:
// "untied embeddings unlike the other Mamba2 models"), n_groups 8 ("We use
// ngroups=8", Mistral's comment there); in_proj 18560 x 4096 (ml-explore/
// mlx-examples PR 1009's shape error) = 2 x 8192 + 2 x 8 x 128 + 128: 128
// heads of 64, state 128. conv_kernel 4, expand 2.
Json mamba_codestral() {
  return {{"architectures", {"Mamba2ForCausalLM"}},
          {"model_type", "mamba2"},
          {"hidden_size", 4096},
          {"num_hidden_layers", 64},
          {"num_heads", 128},
          {"head_dim", 64},
          {"n_groups", 8},
          {"state_size", 128},
          {"expand", 2},
          {"conv_kernel", 4},
          {"vocab_size", 32768},
          {"tie_word_embeddings", false}};
}

// The header conversion/mamba.py writes (MambaModel, Mamba2Model at
// 80fb11ac): context 2^20, embedding, feed_forward_length 0, head_count 0,
// block count, ssm.conv_kernel, inner_size, state_size, time_step_rank
// (Mamba-2: d_inner / head_dim), Mamba-2's group_count, Mamba-1's
// dt_b_c_rms; the token embeddings, and an output unless tied.
test::GgufWriter mamba_gguf(const Json& cfg) {
  const std::string type = cfg["model_type"];
  const bool v2 = type == "mamba2";
  const std::string arch = v2 ? "mamba2" : "mamba";
  const std::string a = arch + ".";
  const auto n = [&](const char* k) { return cfg[k].get<std::uint32_t>(); };
  const std::uint32_t hidden = n("hidden_size");
  const std::uint32_t inner = v2 ? n("num_heads") * n("head_dim") : n("intermediate_size");
  test::GgufWriter w;
  w.str("general.architecture", arch);
  w.u32(a + "context_length", 1U << 20);
  w.u32(a + "embedding_length", hidden);
  w.u32(a + "feed_forward_length", 0);
  w.u32(a + "attention.head_count", 0);
  w.u32(a + "block_count", n("num_hidden_layers"));
  w.u32(a + "ssm.conv_kernel", n("conv_kernel"));
  w.u32(a + "ssm.inner_size", inner);
  w.u32(a + "ssm.state_size", n("state_size"));
  if (v2) {
    w.u32(a + "ssm.time_step_rank", n("num_heads"));
    w.u32(a + "ssm.group_count", n("n_groups"));
  } else {
    const std::uint32_t dt =
        cfg["time_step_rank"].is_string() ? (hidden + 15) / 16 : n("time_step_rank");
    w.u32(a + "ssm.time_step_rank", dt);
    w.boolean(a + "ssm.dt_b_c_rms", type == "falcon_mamba");
  }
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-5F);
  w.tensor("token_embd.weight", {hidden, n("vocab_size")}, test::kQ8_0);
  if (!cfg["tie_word_embeddings"].get<bool>()) {
    w.tensor("output.weight", {hidden, n("vocab_size")}, test::kQ8_0);
  }
  return w;
}

// The state of one layer in F32 values, from the published sizes (llama.cpp
// llama-hparams.cpp n_embd_r and n_embd_s): the last conv - 1 inputs of the
// convolution's channels (Mamba-1: d_inner; Mamba-2: d_inner + 2 groups
// d_state) and the d_state x d_inner scan state.
std::int64_t state_floats(std::int64_t inner, std::int64_t state, std::int64_t groups) {
  return 3 * (inner + 2 * groups * state) + state * inner;
}

TEST(Mamba, ConfigAndGgufAreKnownAndAgree) {
  struct Case {
    Json cfg;
    std::int64_t state;  // F32 values a layer
  };
  const Case cases[] = {{mamba_130m(), state_floats(1536, 16, 0)},
                        {falcon_mamba_7b(), state_floats(8192, 16, 0)},
                        {mamba_codestral(), state_floats(8192, 128, 8)}};
  for (const Case& k : cases) {
    const std::string type = k.cfg["model_type"];
    const Model c = from_config(k.cfg);
    const Model g = from_gguf(mamba_gguf(k.cfg));
    for (const Model* m : {&c, &g}) {
      EXPECT_TRUE(m->unchecked_architecture.empty()) << type << m->unchecked_architecture;
      EXPECT_TRUE(purely_recurrent(m->arch)) << type;
      EXPECT_EQ(attention_layer_count(m->arch), 0) << type;
      EXPECT_EQ(mlp_layer_count(m->arch), 0) << type;
      EXPECT_EQ(recurrent_layer_count(m->arch), m->arch.layers) << type;
      EXPECT_EQ(m->arch.attention.recurrent_state_floats, k.state) << type;
      EXPECT_EQ(m->arch.attention.mamba, type == "mamba2" ? 2 : 1) << type;
      EXPECT_EQ(m->arch.attention.ssm_plain_dt, type == "mamba") << type;
    }
    EXPECT_EQ(c.arch.tied_embeddings, g.arch.tied_embeddings) << type;
    // No KV cache at any context: the state is all, F32 per layer.
    test::expect_same_recurrent_estimate(c, g, std::int64_t{c.arch.layers} * k.state * 4, type);
  }
}

// Under transformers a Mamba-1 mixer keeps all conv_kernel taps of its
// convolution and the scan state, both in the model's dtype: MambaCache
// (src/transformers/models/mamba/modeling_mamba.py at 00328d4e, used by
// modeling_falcon_mamba.py too) allocates torch.zeros(batch,
// intermediate_size, conv_kernel_size, dtype) and (batch, intermediate_size,
// ssm_state_size, dtype) a layer. By hand, BF16, one sequence:
// mamba-130m 24 x (4 + 16) x 1536 x 2 = 1474560 bytes (llama.cpp's F32
// state of conv - 1 taps: 24 x (3 + 16) x 1536 x 4 = 2801664); Falcon Mamba
// 7B 64 x (4 + 16) x 8192 x 2 = 20971520. Mamba-2 likewise: Mamba2Cache
// (src/transformers/models/mamba2/modeling_mamba2.py at 4711664e) allocates
// conv_states (layers, batch, intermediate_size + 2 n_groups state_size,
// conv_kernel) and ssm_states (layers, batch, num_heads, head_dim,
// state_size) of inputs_embeds.dtype; Mamba-Codestral, 64 x (4 x (8192 + 2 x
// 8 x 128) + 128 x 64 x 128) x 2 = 139460608 (llama.cpp's F32 state of 3
// taps: 64 x (3 x 10240 + 1048576) x 4 = 276299776).
TEST(Mamba, TransformersKeepsEveryConvolutionTapInTheModelsDtype) {
  struct Case {
    Json cfg;
    Bytes transformers;
    Bytes llama_cpp;
  };
  const Case cases[] = {{mamba_130m(), 1474560, 2801664},
                        {falcon_mamba_7b(), 20971520, 64 * (3 + 16) * 8192 * Bytes{4}},
                        {mamba_codestral(), 139460608, 276299776}};
  for (const Case& k : cases) {
    InferenceQuery q;
    q.model = from_config(k.cfg);
    q.precision = *parse_precision("bf16");
    q.context = 4096;
    q.runtime = Runtime::Transformers;
    EXPECT_EQ(estimate_inference(q).memory.kv_cache, k.transformers) << k.cfg["model_type"];
    q.runtime = Runtime::LlamaCpp;
    EXPECT_EQ(estimate_inference(q).memory.kv_cache, k.llama_cpp) << k.cfg["model_type"];
  }
}

// The memory does not grow with the context: a 64 Ki-token answer holds the
// same state and compute buffer as a 4 Ki-token one.
TEST(Mamba, TheContextGrowsNoMemory) {
  const Model m = from_config(mamba_2_8b());
  const Estimate small = test::llama_cpp_q4_estimate(m, 4096, false);
  const Estimate large = test::llama_cpp_q4_estimate(m, 65536, false);
  EXPECT_EQ(small.memory.kv_cache, large.memory.kv_cache);
  EXPECT_EQ(small.memory.compute, large.memory.compute);
}

// The published parameter counts of state-spaces' Mamba (
// a public R analysis script with a model_sizes table (its rows 'Smith and Levy (2013): SPR RT',
// written to all_AICs.tsv), a study's table of sizes: "mamba-130m-hf"="129135360",
// "mamba-2_8b-hf"="2768345600"; 129135360 is also the sum of
// p.numel() a public harness asserts for mamba-130m-hf,
// a public Python Mamba export wrapper (prefill and decode returning
// torch.stack(cache.conv_states), torch.stack(cache.ssm_states))). willfit leaves out the biases, D
// and the norms (5376 values a layer of mamba-130m): well under 1 %.
TEST(Mamba, ParameterCountsMatchThePublishedOnes) {
  EXPECT_LT(
      rel(static_cast<double>(count_params(from_config(mamba_130m()).arch).total()), 129135360.0),
      0.002);
  EXPECT_LT(
      rel(static_cast<double>(count_params(from_config(mamba_2_8b()).arch).total()), 2768345600.0),
      0.002);
}

// Mamba-Codestral's mixer from its config: in_proj 18560 rows of 4096 (the
// published shape above), conv over 8192 + 2 x 8 x 128 channels, out_proj.
TEST(Mamba, Mamba2MixerHasThePublishedInProjection) {
  const Model m = from_config(mamba_codestral());
  const std::int64_t conv_dim = 8192 + 2 * 8 * 128;
  EXPECT_EQ(m.arch.attention.recurrent_params,
            std::int64_t{18560} * 4096 + conv_dim * 4 + std::int64_t{8192} * 4096);
  EXPECT_EQ(m.arch.attention.ssm_heads, 128);
  EXPECT_EQ(m.arch.attention.ssm_groups, 8);
}

// A catalogue entry is the same model as the config.json it was written
// from: the mixer, the state, the weights and the compute buffer.
void expect_catalogue_is_config(const std::string& id, const Json& config) {
  SCOPED_TRACE(id);
  auto db = ModelDb::parse(app::embedded_models_json(), "embedded");
  ASSERT_TRUE(db.ok());
  auto found = db->find(id);
  ASSERT_TRUE(found.ok());
  const Model& cat = found->entry->model;
  const Model cfg = from_config(config);
  EXPECT_TRUE(purely_recurrent(cat.arch));
  EXPECT_EQ(cat.arch.attention.ssm_plain_dt, cfg.arch.attention.ssm_plain_dt);
  EXPECT_EQ(cat.arch.attention.mamba, cfg.arch.attention.mamba);
  EXPECT_EQ(count_params(cat.arch).total(), count_params(cfg.arch).total());
  EXPECT_EQ(cat.arch.attention.recurrent_params, cfg.arch.attention.recurrent_params);
  EXPECT_EQ(cat.arch.attention.recurrent_state_floats, cfg.arch.attention.recurrent_state_floats);
  for (const std::int64_t ctx : {std::int64_t{4096}, std::int64_t{65536}}) {
    const Estimate ec = test::llama_cpp_q4_estimate(cat, ctx, false);
    const Estimate ef = test::llama_cpp_q4_estimate(cfg, ctx, false);
    EXPECT_EQ(ec.memory.kv_cache, ef.memory.kv_cache);
    EXPECT_EQ(ec.memory.compute, ef.memory.compute);
    EXPECT_EQ(ec.memory.weights, ef.memory.weights);
  }
}

// The catalogue's Falcon Mamba 7B (data/models.json falcon-mamba-7b) is the
// same model as its config.json and its GGUF header.
TEST(Mamba, CatalogueEntryAgreesWithConfigAndGguf) {
  expect_catalogue_is_config("falcon-mamba-7b", falcon_mamba_7b());
  EXPECT_FALSE(test::catalogue_model("falcon-mamba-7b").arch.attention.ssm_plain_dt);
  // against the card's 7.27 B (promptlayer.com/models/falcon-mamba-7b)
  EXPECT_LT(
      rel(static_cast<double>(count_params(from_config(falcon_mamba_7b()).arch).total()), 7.27e9),
      0.01);
}

// state-spaces' Mamba 370M, 790M and 1.4B: mamba-130m's keys with d_model
// 1024, 1536, 2048 and 48 layers (LaurentMazare/mamba.rs src/constants.rs,
// from each repository's config.json), d_inner 2 x d_model, time_step_rank
// ceil(d_model / 16).
Json mamba_sized(int hidden, int layers) {
  Json j = mamba_130m();
  j["hidden_size"] = hidden;
  j["num_hidden_layers"] = layers;
  j["intermediate_size"] = 2 * hidden;
  j["time_step_rank"] = (hidden + 15) / 16;
  return j;
}

// The catalogue's state-spaces Mamba sizes and Mamba-Codestral are their
// configs, unnormed dt, B and C for the first, Mamba-2's mixer for the
// second; each within 0.2 % of its published count (the exact totals
// above, Mistral's 7,285,403,648).
TEST(Mamba, CatalogueFamilyAgreesWithConfigs) {
  const std::pair<std::string, Json> entries[] = {
      {"mamba-130m", mamba_130m()},          {"mamba-370m", mamba_sized(1024, 48)},
      {"mamba-790m", mamba_sized(1536, 48)}, {"mamba-1.4b", mamba_sized(2048, 48)},
      {"mamba-2.8b", mamba_2_8b()},          {"mamba-codestral-7b", mamba_codestral()}};
  for (const auto& [id, config] : entries) {
    expect_catalogue_is_config(id, config);
    const Model& cat = test::catalogue_model(id);
    EXPECT_EQ(cat.arch.attention.ssm_plain_dt, id != "mamba-codestral-7b") << id;
    EXPECT_LT(
        rel(static_cast<double>(count_params(cat.arch).total()), static_cast<double>(cat.params)),
        0.002)
        << id;
  }
}

// state-spaces' Mamba-2 sizes (mamba2-130m to mamba2-2.7b) in Mamba2Config's
// keys, as the -hf conversion of mamba2-130m writes them
// (AntonV/mamba2-130m-hf config.json at ee4eabb: head_dim 64, num_heads 24
// for 768, state_size 128, n_groups 1, conv_kernel 4, expand 2, vocab_size
// 50288, tie_word_embeddings true), with each size's d_model and n_layer.
Json mamba2_sized(int hidden, int layers) {
  return {{"architectures", {"Mamba2ForCausalLM"}},
          {"model_type", "mamba2"},
          {"hidden_size", hidden},
          {"num_hidden_layers", layers},
          {"num_heads", 2 * hidden / 64},
          {"head_dim", 64},
          {"n_groups", 1},
          {"state_size", 128},
          {"expand", 2},
          {"conv_kernel", 4},
          {"vocab_size", 50288},
          {"tie_word_embeddings", true}};
}

// The catalogue's Mamba-2 sizes are their configs, and hold the counts
// their published pytorch_model.bin files give at 2 bytes a weight (the
// repositories' file pages: 258 MB, 737 MB, 1.56 GB, 2.69 GB, 5.41 GB);
// the shapes agree within 0.2 % (willfit leaves out D, dt_bias, A_log, the
// conv biases and the norms, and the files carry a few F32 tensors).
TEST(Mamba, Mamba2CatalogueSizesAreTheirConfigs) {
  struct Size {
    const char* id;
    int hidden;
    int layers;
    std::int64_t bytes;
  };
  for (const Size& s :
       {Size{"mamba2-130m", 768, 24, 258'000'000}, Size{"mamba2-370m", 1024, 48, 737'000'000},
        Size{"mamba2-780m", 1536, 48, 1'560'000'000}, Size{"mamba2-1.3b", 2048, 48, 2'690'000'000},
        Size{"mamba2-2.7b", 2560, 64, 5'410'000'000}}) {
    expect_catalogue_is_config(s.id, mamba2_sized(s.hidden, s.layers));
    const Model& cat = test::catalogue_model(s.id);
    EXPECT_EQ(cat.arch.attention.mamba, 2) << s.id;
    EXPECT_EQ(cat.params, s.bytes / 2) << s.id;
    EXPECT_LT(
        rel(static_cast<double>(count_params(cat.arch).total()), static_cast<double>(cat.params)),
        0.002)
        << s.id;
    EXPECT_EQ(test::catalogue_model(std::string("state-spaces/") + s.id).id, s.id);
  }
}

// A Mamba file or config without the mixer's sizes is an error naming them,
// not an answer; a config that leaves keys out takes transformers' defaults
// (MambaConfig: state_size 16, expand 2, conv_kernel 4).
TEST(Mamba, MissingMixerSizesAreErrors) {
  test::GgufWriter w;
  w.str("general.architecture", "mamba");
  w.u32("mamba.block_count", 24);
  w.u32("mamba.embedding_length", 768);
  w.u32("mamba.attention.head_count", 0);
  const std::string bytes = w.file();
  auto r = read_gguf(bytes, bytes.size());
  ASSERT_TRUE(r.ok() && r->file.has_value());
  const auto g = model_from_gguf(*r->file, "test.gguf");
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.error().message.find("mamba.ssm.conv_kernel"), std::string::npos)
      << g.error().message;
  Json bad = mamba_130m();
  bad["state_size"] = 0;
  const auto c = model_from_hf_config(bad.dump(), "config.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("Mamba mixer"), std::string::npos) << c.error().message;
  Json sparse = mamba_130m();
  sparse.erase("conv_kernel");
  sparse.erase("state_size");
  EXPECT_EQ(from_config(sparse).arch.attention.recurrent_state_floats, state_floats(1536, 16, 0));
}

// RWKV-4's config.json stays refused: one line naming it (RWKV-6, RWKV-7,
// ARWKV-7 and RWKV6Qwen2 are modelled: tests/unit/test_arch_rwkv.cpp).
TEST(Mamba, RwkvIsStillRefused) {
  const Json rwkv = {{"model_type", "rwkv"}, {"hidden_size", 2048}, {"num_hidden_layers", 24}};
  const auto c = model_from_hf_config(rwkv.dump(), "config.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("purely recurrent"), std::string::npos);
  EXPECT_TRUE(refused_gguf_architecture("mamba").empty());
  EXPECT_TRUE(refused_gguf_architecture("mamba2").empty());
  EXPECT_TRUE(refused_gguf_architecture("rwkv7").empty());
  EXPECT_TRUE(refused_gguf_architecture("rwkv6qwen2").empty());
}

}  // namespace
}  // namespace willfit
