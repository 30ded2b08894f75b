// PLM-1.8B (PLM-Team's Peripheral Language Model, issue 18), which llama.cpp
// 80fb11ac loads as `plm` (src/models/plm.cpp): MiniCPM3's multi-head latent
// attention without query compression (one wq; kv_a_mqa, the latent's norm,
// kv_b), K and V decompressed and cached per head, and an ungated MLP of up,
// squared ReLU and down; the head is the token table (tok_embd duplicated).
// Read from a config.json with the published values and from the header
// llama.cpp's converter writes (conversion/plm.py PLMModel at 80fb11ac);
// both must give one estimate. Expected sizes are worked out by hand from
// plm.cpp and llama-kv-cache.cpp, not taken from willfit.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/catalogue_checks.hpp"
#include "unit/catalogue_model.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::rel;

// PLM-Team/PLM-1.8B (the hub is not reachable here). The values are those of
// PLMConfig as the PLM team contributed it to transformers
// (huggingface/transformers src/transformers/models/plm/configuration_plm.py
// at 949dcd70c0f740c76c59bf205cd45c402e242de6, whose docstring says its
// defaults "yield a similar configuration to that of PLM-1.8B-Base"; the
// team's own fork JiwenJ/transformers at 3256c08c has the same defaults):
// vocabulary 151936, hidden 2048, MLP 8192, 32 layers, 16 heads and 16 KV
// heads, kv_lora_rank 512, no q_lora_rank, qk 128 + 64 rope, v 128,
// hidden_act relu2, 4096 positions, RMS epsilon 1e-6, rope_theta 100000.
// llama.cpp PR ggml-org/llama.cpp#12457 (which added plm) describes the
// same model: MLA and a squared-ReLU up/down MLP. Tied: plm.cpp's head is
// tok_embd duplicated and a file with an output.weight is refused.
Json plm_1_8b() {
  return {{"model_type", "plm"},
          {"architectures", {"PLMForCausalLM"}},
          {"vocab_size", 151936},
          {"hidden_size", 2048},
          {"intermediate_size", 8192},
          {"num_hidden_layers", 32},
          {"num_attention_heads", 16},
          {"num_key_value_heads", 16},
          {"kv_lora_rank", 512},
          {"q_lora_rank", nullptr},
          {"qk_rope_head_dim", 64},
          {"qk_nope_head_dim", 128},
          {"v_head_dim", 128},
          {"hidden_act", "relu2"},
          {"max_position_embeddings", 4096},
          {"rms_norm_eps", 1e-6},
          {"rope_theta", 100000.0},
          {"tie_word_embeddings", true},
          {"torch_dtype", "bfloat16"}};
}

// The header conversion/plm.py PLMModel.set_gguf_parameters writes: the
// shared keys (TextModel: context, widths, block count, heads, KV heads as
// the config's, rope base, RMS epsilon, file type), vocab_size,
// kv_lora_rank, key_length = nope + rope, value_length = v_head_dim and
// rope.dimension_count = rope. With `tensors`, every tensor plm.cpp's
// load_arch_tensors creates, in F16 (norms F32): no output.weight.
test::GgufWriter plm_gguf(const Json& c, bool tensors) {
  const auto u = [&c](const char* name) { return c.at(name).get<std::uint32_t>(); };
  const std::string a = "plm.";
  test::GgufWriter w;
  w.str("general.architecture", "plm");
  w.u32(a + "context_length", u("max_position_embeddings"));
  w.u32(a + "embedding_length", u("hidden_size"));
  w.u32(a + "feed_forward_length", u("intermediate_size"));
  w.u32(a + "block_count", u("num_hidden_layers"));
  w.u32(a + "attention.head_count", u("num_attention_heads"));
  w.u32(a + "attention.head_count_kv", u("num_key_value_heads"));
  w.f32(a + "rope.freq_base", 100000.0F);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-6F);
  w.u32("general.file_type", 1);
  w.u32(a + "vocab_size", u("vocab_size"));
  w.u32(a + "attention.kv_lora_rank", u("kv_lora_rank"));
  w.u32(a + "attention.key_length", u("qk_nope_head_dim") + u("qk_rope_head_dim"));
  w.u32(a + "attention.value_length", u("v_head_dim"));
  w.u32(a + "rope.dimension_count", u("qk_rope_head_dim"));
  const std::uint64_t e = u("hidden_size");
  const std::uint64_t heads = u("num_attention_heads");
  const std::uint64_t lora = u("kv_lora_rank");
  const std::uint64_t rope = u("qk_rope_head_dim");
  const std::uint64_t nope = u("qk_nope_head_dim");
  const std::uint64_t v = u("v_head_dim");
  const std::uint64_t ff = u("intermediate_size");
  w.tensor("token_embd.weight", {e, u("vocab_size")}, test::kF16);
  if (!tensors) {
    return w;
  }
  w.tensor("output_norm.weight", {e}, test::kF32);
  for (std::uint32_t i = 0; i < u("num_hidden_layers"); ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_q.weight", {e, heads * (nope + rope)}, test::kF16);
    w.tensor(b + "attn_kv_a_mqa.weight", {e, lora + rope}, test::kF16);
    w.tensor(b + "attn_kv_a_norm.weight", {lora}, test::kF32);
    w.tensor(b + "attn_kv_b.weight", {lora, heads * (nope + v)}, test::kF16);
    w.tensor(b + "attn_output.weight", {heads * v, e}, test::kF16);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_down.weight", {ff, e}, test::kF16);
    w.tensor(b + "ffn_up.weight", {e, ff}, test::kF16);
  }
  return w;
}

TEST(Plm, ConfigGivesPerHeadMlaAndAnUngatedMlp) {
  const Model m = test::from_config(plm_1_8b());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  ASSERT_EQ(m.arch.attention.kind, AttentionKind::Mla);
  EXPECT_TRUE(m.arch.attention.mla_cached_per_head);
  EXPECT_TRUE(m.arch.attention.mla_unscaled_head);  // plm.cpp: no lmhead_scaling
  EXPECT_EQ(m.arch.attention.q_lora_rank, 0);
  EXPECT_FALSE(m.arch.mlp_gated);
  EXPECT_TRUE(m.arch.tied_embeddings);
  // The tied table (151936 x 2048) and 32 layers of wq (2048 x 16 x 192),
  // kv_a_mqa (2048 x 576), kv_b (512 x 16 x 256), wo (2048 x 2048) and up
  // and down (2 x 2048 x 8192) come to 1.825 B, the model's 1.8B (the
  // published count is in CatalogueEntryIsItsConfig below).
  const auto total = static_cast<double>(count_params(m.arch).total());
  EXPECT_GE(total, 1.75e9) << total;
  EXPECT_LT(total, 1.85e9) << total;
  const std::int64_t layer =
      2048LL * 16 * 192 + 2048LL * 576 + 512LL * 16 * 256 + 2048LL * 2048 + 2 * 2048LL * 8192;
  EXPECT_LT(rel(total, static_cast<double>(32 * layer + 151936LL * 2048)), 0.001) << total;
}

// plm.cpp hands build_attn (build_attn_inp_kv) K rows of 16 heads x (128 +
// 64) and V rows of 16 heads x 128: llama-kv-cache.cpp keeps both per
// token on every layer, F16 here, not DeepSeek's 512 + 64 latent.
TEST(Plm, KvCacheIsPerHeadOnEveryLayer) {
  const Model m = test::from_config(plm_1_8b());
  const std::int64_t ctx = 4096;
  EXPECT_EQ(test::llama_cpp_q4_estimate(m, ctx, true).memory.kv_cache,
            std::int64_t{32} * 16 * (192 + 128) * 2 * ctx);
}

TEST(Plm, GgufHeaderGivesWhatTheConfigGives) {
  const Model c = test::from_config(plm_1_8b());
  const Model g = test::from_gguf_header(plm_gguf(plm_1_8b(), false));
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  ASSERT_EQ(g.arch.attention.kind, AttentionKind::Mla);
  EXPECT_TRUE(g.arch.attention.mla_cached_per_head);
  EXPECT_TRUE(g.arch.attention.mla_unscaled_head);  // plm.cpp: no lmhead_scaling
  EXPECT_FALSE(g.arch.mlp_gated);
  EXPECT_TRUE(g.arch.tied_embeddings);
  EXPECT_EQ(g.arch.kv_heads, 16);
  EXPECT_EQ(g.arch.attention.v_head_dim, 128);
  test::expect_same_estimate(g, c, "plm GGUF vs config", {4096, 32768});
}

// The weights willfit lays out in F16 are the converter's file byte for
// byte, and the whole file reads as the header alone does.
TEST(Plm, F16LayoutIsTheFileByteForByte) {
  const Model c = test::from_config(plm_1_8b());
  const test::GgufWriter w = plm_gguf(plm_1_8b(), true);
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total(), w.data_size());
  const Model g = test::from_gguf_header(w);
  EXPECT_FALSE(g.arch.mlp_gated);
  test::expect_same_estimate(g, c, "plm whole GGUF vs config", {4096});
}

// The catalogue's plm-1.8b (data/models.json) is this config: the widths
// llama.cpp read from the Instruct model's GGUF (ggml-org/llama.cpp pull
// request 12457, the tester's load log: 32 blocks of 2048, 16 heads, feed
// forward 8192, context 4096) and PLMConfig's MLA shape. Its count is the
// Base checkpoint's pytorch_model.bin, 3.65 GB at 2 bytes a weight
// (PLM-Team/PLM-1.8B-Base at e1eaa8c, the repository's file page); the
// shapes count 1,825,458,176, 0.03 % more.
TEST(Plm, CatalogueEntryIsItsConfig) {
  test::expect_catalogue_is_config("plm-1.8b", test::from_config(plm_1_8b()), {4096});
  const Model& cat = test::catalogue_model("plm-1.8b");
  EXPECT_EQ(cat.params, std::int64_t{3'650'000'000} / 2);
  EXPECT_LT(
      rel(static_cast<double>(count_params(cat.arch).total()), static_cast<double>(cat.params)),
      0.0005);
  EXPECT_TRUE(cat.arch.attention.mla_cached_per_head);
  EXPECT_TRUE(cat.arch.attention.mla_unscaled_head);
  for (const char* name : {"PLM-Team/PLM-1.8B-Instruct", "PLM-Team/PLM-1.8B-Base"}) {
    EXPECT_EQ(test::catalogue_model(name).id, "plm-1.8b") << name;
  }
}

// llama.cpp 80fb11ac aborts on plm.cpp's graph with flash attention
// (docs/live-llamacpp.md, PLM run: GGML_ASSERT in ggml_set_rows when the
// context is created), so flash attention asked for is estimated off, as
// the model can only run, and said so.
TEST(Plm, FlashAttentionIsEstimatedOffWithAWarning) {
  const Model m = test::from_config(plm_1_8b());
  const Estimate on = test::llama_cpp_q4_estimate(m, 4096, true);
  const Estimate off = test::llama_cpp_q4_estimate(m, 4096, false);
  EXPECT_FALSE(on.flash_attention);
  EXPECT_EQ(on.memory.compute, off.memory.compute);
  bool warned = false;
  for (const auto& w : on.warnings) {
    warned = warned || w.find("aborts") != std::string::npos;
  }
  EXPECT_TRUE(warned);
}

}  // namespace
}  // namespace willfit
