#include <cmath>
#include <cstdlib>

#include <gtest/gtest.h>

#include "willfit/models/model.hpp"

namespace willfit {
namespace {

Model from(const char* size) {
  auto s = parse_model_size(size);
  EXPECT_TRUE(s.ok()) << size;
  auto m = model_from_size(*s);
  EXPECT_TRUE(m.ok()) << size;
  return *m;
}

// Published architectures (shared/reference/models.csv) and their parameter
// counts: the recount must land within 3 % of the stated figure.
TEST(ParamCount, RecountsRealModels) {
  Architecture llama31_8b;
  llama31_8b.layers = 32;
  llama31_8b.hidden_size = 4096;
  llama31_8b.intermediate_size = 14336;
  llama31_8b.heads = 32;
  llama31_8b.kv_heads = 8;
  llama31_8b.head_dim = 128;
  llama31_8b.vocab_size = 128256;
  EXPECT_NEAR(static_cast<double>(count_params(llama31_8b).total()), 8.03e9, 8.03e9 * 0.03);

  Architecture mixtral = llama31_8b;  // Mixtral-8x7B: 46,702,792,704 params
  mixtral.vocab_size = 32000;
  mixtral.moe = Moe{8, 2, 0, 14336, 0};
  EXPECT_NEAR(static_cast<double>(count_params(mixtral).total()), 46702792704.0,
              46702792704.0 * 0.01);
  // Active: 12.9 B per the Mixtral paper ("12.9B active parameters").
  EXPECT_NEAR(static_cast<double>(count_params(mixtral).active()), 12.9e9, 12.9e9 * 0.03);

  Architecture qwen05;  // Qwen2.5-0.5B: 0.49 B, tied embeddings
  qwen05.layers = 24;
  qwen05.hidden_size = 896;
  qwen05.intermediate_size = 4864;
  qwen05.heads = 14;
  qwen05.kv_heads = 2;
  qwen05.head_dim = 64;
  qwen05.vocab_size = 151936;
  qwen05.tied_embeddings = true;
  EXPECT_NEAR(static_cast<double>(count_params(qwen05).total()), 0.49e9, 0.49e9 * 0.03);
}

TEST(InferArchitecture, KeepsTheStatedSize) {
  for (const char* size : {"125m", "350m", "1.5b", "3b", "7b", "13b", "34b", "70b", "405b", "1t"}) {
    const Model m = from(size);
    const double stated = parse_model_size(size)->params;
    EXPECT_EQ(m.params, static_cast<std::int64_t>(stated)) << size;
    // The weights are laid out over groups that sum to the size exactly.
    ASSERT_TRUE(m.inferred_groups.has_value()) << size;
    EXPECT_EQ(m.inferred_groups->total(), m.params) << size;
    // The rounded shape itself accounts for the size within 7 % (3 % before
    // issue 10). Its dimensions may no longer be solved to hit the size, since
    // a solved MLP narrows where the width steps up and a larger size could
    // then need less memory; they are rounded from a smooth shape instead.
    // The misses: near 3b the MLP keeps Qwen2.5-1.5B's width (Llama-3.2-3B's
    // is narrower for its width, and an inferred MLP never narrows): +6.4 %;
    // below 1b a 256-wide step of the width (K-quant blocks) is up to a fifth
    // of the width: 125m -10.9 %, 350m -5.2 %, hence 12 % there.
    const double tolerance = stated < 1e9 ? 0.12 : 0.07;
    EXPECT_NEAR(static_cast<double>(count_params(m.arch).total()), stated, stated * tolerance)
        << size;
    EXPECT_TRUE(m.assumed());
    // Width and MLP in whole 256-wide blocks; the query width (heads x head
    // dim) in whole groups of KV heads, within half a group (512) and half a
    // block of the hidden width, as in Qwen3 or Gemma.
    EXPECT_EQ(m.arch.hidden_size % 256, 0) << size;
    EXPECT_EQ(m.arch.intermediate_size % 256, 0) << size;
    EXPECT_LE(std::abs(m.arch.hidden_size - std::int64_t{m.arch.heads} * m.arch.head_dim), 640)
        << size;
    EXPECT_EQ(m.arch.heads % m.arch.kv_heads, 0) << size;
  }
}

TEST(InferArchitecture, MatchesRealFamiliesAtTheirSizes) {
  const Model m8 = from("8.03b");  // Llama-3.1-8B
  EXPECT_EQ(m8.arch.layers, 32);
  EXPECT_EQ(m8.arch.hidden_size, 4096);
  EXPECT_EQ(m8.arch.kv_heads, 8);
  const Model m70 = from("70.55b");  // Llama-3.1-70B
  EXPECT_EQ(m70.arch.layers, 80);
  EXPECT_EQ(m70.arch.hidden_size, 8192);
  // Modern families use grouped-query attention.
  const Model m13 = from("13b");
  EXPECT_LT(m13.arch.kv_heads, m13.arch.heads);
  EXPECT_GE(m13.arch.layers, 36);
  EXPECT_LE(m13.arch.layers, 48);
}

TEST(InferArchitecture, WidthGrowsWithSize) {
  std::int64_t hidden = 0;
  for (const char* size : {"125m", "500m", "1b", "3b", "7b", "13b", "30b", "70b", "180b", "405b"}) {
    const Model m = from(size);
    EXPECT_GE(m.arch.hidden_size, hidden) << size;
    hidden = m.arch.hidden_size;
  }
}

TEST(InferArchitecture, MixtureOfExpertsFromNxM) {
  const Model m = from("8x7b");
  ASSERT_TRUE(m.is_moe());
  EXPECT_EQ(m.arch.moe->experts, 8);
  EXPECT_EQ(m.arch.moe->experts_per_token, 2);
  // Mixtral-8x7B is 46.7 B total, 12.9 B active: attention is shared.
  EXPECT_NEAR(static_cast<double>(m.params), 46.7e9, 46.7e9 * 0.05);
  EXPECT_NEAR(static_cast<double>(m.active_params), 12.9e9, 12.9e9 * 0.08);
}

TEST(InferArchitecture, MixtureOfExpertsFromTotalAndActive) {
  const Model m = from("30b-a3b");
  ASSERT_TRUE(m.is_moe());
  EXPECT_EQ(m.params, 30'000'000'000);
  EXPECT_EQ(m.active_params, 3'000'000'000);
  const auto p = count_params(m.arch);
  EXPECT_NEAR(static_cast<double>(p.total()), 30e9, 30e9 * 0.05);
  // 10 %: the dense 3b shape the experts are cut from counts +6.4 % (above).
  EXPECT_NEAR(static_cast<double>(p.active()), 3e9, 3e9 * 0.10);
}

}  // namespace
}  // namespace willfit
