#include <gtest/gtest.h>

#include "willfit/core/precision.hpp"

namespace willfit {
namespace {

TEST(Precision, FloatWidths) {
  EXPECT_DOUBLE_EQ(parse_precision("fp32")->bits_per_weight, 32);
  EXPECT_DOUBLE_EQ(parse_precision("fp16")->bits_per_weight, 16);
  EXPECT_DOUBLE_EQ(parse_precision("BF16")->bits_per_weight, 16);
  EXPECT_DOUBLE_EQ(parse_precision("int8")->bits_per_weight, 8);
  EXPECT_DOUBLE_EQ(parse_precision("int4")->bits_per_weight, 4);
}

// Exact block sizes from ggml: bytes per block x 8 / weights per block.
TEST(Precision, GgufBlockTypesUseExactBits) {
  EXPECT_DOUBLE_EQ(parse_precision("q8_0")->bits_per_weight, 34.0 * 8 / 32);
  EXPECT_DOUBLE_EQ(parse_precision("Q6_K")->bits_per_weight, 210.0 * 8 / 256);
  EXPECT_DOUBLE_EQ(parse_precision("q4_0")->bits_per_weight, 18.0 * 8 / 32);
  EXPECT_DOUBLE_EQ(parse_precision("iq4_xs")->bits_per_weight, 136.0 * 8 / 256);
  EXPECT_DOUBLE_EQ(parse_precision("mxfp4")->bits_per_weight, 17.0 * 8 / 32);
  EXPECT_DOUBLE_EQ(parse_precision("iq2_xxs")->bits_per_weight, 66.0 * 8 / 256);
  EXPECT_DOUBLE_EQ(parse_precision("iq1_s")->bits_per_weight, 50.0 * 8 / 256);
  EXPECT_DOUBLE_EQ(parse_precision("iq3_xxs")->bits_per_weight, 98.0 * 8 / 256);
  EXPECT_DOUBLE_EQ(parse_precision("q5_0")->bits_per_weight, 22.0 * 8 / 32);
  EXPECT_DOUBLE_EQ(parse_precision("iq4_nl")->bits_per_weight, 18.0 * 8 / 32);
}

// Mixes: whole-file bpw measured on Llama-3.1-8B (llama.cpp quantize README).
TEST(Precision, MixesUseMeasuredWholeFileBits) {
  EXPECT_DOUBLE_EQ(parse_precision("q4_k_m")->bits_per_weight, 4.8944);
  EXPECT_DOUBLE_EQ(parse_precision("Q5_K_M")->bits_per_weight, 5.7036);
  EXPECT_DOUBLE_EQ(parse_precision("q4_k_s")->bits_per_weight, 4.6672);
  EXPECT_DOUBLE_EQ(parse_precision("q3_k_l")->bits_per_weight, 4.2979);
  EXPECT_DOUBLE_EQ(parse_precision("q2_k")->bits_per_weight, 3.1593);
  EXPECT_EQ(parse_precision("q4_k_m")->kind, PrecisionKind::GgufMix);
  EXPECT_DOUBLE_EQ(parse_precision("q4_k_m")->block_bits, 4.5);
}

TEST(Precision, ShorthandsMapToTheCommonChoiceAndSaySo) {
  const auto q4 = parse_precision("q4");
  ASSERT_TRUE(q4.ok());
  EXPECT_EQ(q4->id, "q4_k_m");
  EXPECT_EQ(q4->requested, "q4");
  EXPECT_EQ(parse_precision("Q8")->id, "q8_0");
  EXPECT_EQ(parse_precision("q6")->id, "q6_k");
  EXPECT_EQ(parse_precision("q5")->id, "q5_k_m");
  EXPECT_EQ(parse_precision("q3")->id, "q3_k_m");
  EXPECT_EQ(parse_precision("q2")->id, "q2_k");
  EXPECT_TRUE(parse_precision("q4_k_m")->requested.empty());
}

TEST(Precision, GroupQuantisedFormatsSpareEmbeddings) {
  for (const char* id : {"nf4", "gptq", "awq", "fp8"}) {
    const auto p = parse_precision(id);
    ASSERT_TRUE(p.ok()) << id;
    EXPECT_EQ(p->scope, WeightScope::LinearOnly) << id;
  }
  EXPECT_NEAR(parse_precision("gptq")->bits_per_weight, 4 + 20.0 / 128, 1e-12);
  EXPECT_NEAR(parse_precision("nf4")->bits_per_weight, 4 + 32.0 / 64, 1e-12);
}

TEST(Precision, ExplicitBitsPerWeight) {
  const auto p = parse_precision("4.5bpw");
  ASSERT_TRUE(p.ok());
  EXPECT_DOUBLE_EQ(p->bits_per_weight, 4.5);
  EXPECT_FALSE(parse_precision("0.5bpw").ok());
  EXPECT_FALSE(parse_precision("40bpw").ok());
  EXPECT_FALSE(parse_precision("xbpw").ok());
}

TEST(Precision, UnknownNamesGetSuggestions) {
  const auto p = parse_precision("q4_k_x");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("did you mean"), std::string::npos);
  EXPECT_NE(p.error().message.find("q4_k_m"), std::string::npos);
  EXPECT_FALSE(parse_precision("").ok());
}

TEST(Precision, EveryPrecisionHasASourceAndASaneWidth) {
  for (const auto& p : all_precisions()) {
    EXPECT_FALSE(p.source.empty()) << p.id;
    EXPECT_FALSE(p.note.empty()) << p.id;
    EXPECT_GE(p.bits_per_weight, 1.5) << p.id;
    EXPECT_LE(p.bits_per_weight, 32.0) << p.id;
    EXPECT_TRUE(parse_precision(p.id).ok()) << p.id;
  }
}

TEST(KvType, BlockCosts) {
  EXPECT_DOUBLE_EQ(parse_kv_type("f16")->bytes_per_element(), 2.0);
  EXPECT_DOUBLE_EQ(parse_kv_type("q8_0")->bytes_per_element(), 1.0625);
  EXPECT_DOUBLE_EQ(parse_kv_type("Q4_0")->bytes_per_element(), 0.5625);
  EXPECT_FALSE(parse_kv_type("q3").ok());
}

}  // namespace
}  // namespace willfit

namespace willfit {
namespace {

// A mistyped legacy cache type is pointed at the one of the nearest bits,
// not at a short name of a similar spelling (q3 once answered 'f32'); the
// message lists the valid types.
TEST(Precision, KvTypeTypoSuggestsTheNearestBits) {
  for (const auto& [typed, meant] : {std::pair{"q3", "'q4_0'"}, std::pair{"q6", "'q5_0'"},
                                     std::pair{"q7", "'q8_0'"}, std::pair{"q3_0", "'q4_0'"}}) {
    const auto k = parse_kv_type(typed);
    ASSERT_FALSE(k.ok()) << typed;
    EXPECT_NE(k.error().message.find("did you mean " + std::string(meant)), std::string::npos)
        << k.error().message;
    EXPECT_NE(k.error().message.find("q8_0, q5_1, q5_0, q4_1, q4_0"), std::string::npos)
        << k.error().message;
  }
}

}  // namespace
}  // namespace willfit
