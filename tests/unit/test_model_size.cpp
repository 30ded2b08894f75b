#include <gtest/gtest.h>

#include "willfit/models/model_size.hpp"

namespace willfit {
namespace {

TEST(ModelSize, ParsesCommonSpellings) {
  EXPECT_DOUBLE_EQ(parse_model_size("13b")->params, 13e9);
  EXPECT_DOUBLE_EQ(parse_model_size("7B")->params, 7e9);
  EXPECT_DOUBLE_EQ(parse_model_size("1.5b")->params, 1.5e9);
  EXPECT_DOUBLE_EQ(parse_model_size("350m")->params, 350e6);
  EXPECT_DOUBLE_EQ(parse_model_size("125M")->params, 125e6);
  EXPECT_DOUBLE_EQ(parse_model_size("1t")->params, 1e12);
  EXPECT_EQ(parse_model_size("7B")->text, "7b");
}

// Found by fuzz_size (tests/fuzz/regressions/size/): 999.99999976m printed
// as "1000m", which reads back as "1b". The normalised text reads back as itself.
TEST(ModelSize, NormalisedTextJustBelowAUnitReadsBackAsItself) {
  for (const char* text : {".99999999976b", "999.9999999m", "0.9999999999t", "999.9999996k"}) {
    const auto spec = parse_model_size(text);
    if (!spec) {
      continue;  // 999.99...k is below the 1m minimum
    }
    const auto again = parse_model_size(spec->text);
    ASSERT_TRUE(again.ok()) << text;
    EXPECT_EQ(again->text, spec->text) << text;
  }
  EXPECT_EQ(parse_model_size(".99999999976b")->text, "1b");
  EXPECT_EQ(parse_model_size("999.9999999m")->text, "1b");
  EXPECT_EQ(parse_model_size("0.9999999999t")->text, "1t");
  EXPECT_EQ(parse_model_size("999.5m")->text, "999.5m");
}

TEST(ModelSize, MixtureOfExperts) {
  const auto moe = parse_model_size("8x7b");
  ASSERT_TRUE(moe.ok());
  EXPECT_EQ(moe->experts, 8);
  EXPECT_DOUBLE_EQ(moe->params, 7e9);
  const auto active = parse_model_size("30b-a3b");
  ASSERT_TRUE(active.ok());
  EXPECT_DOUBLE_EQ(active->params, 30e9);
  EXPECT_DOUBLE_EQ(active->active_params, 3e9);
}

TEST(ModelSize, RejectsBadSizesWithAHint) {
  for (const char* bad : {"0b", "-3b", "abc", "1e400b", "13q", "", "b", "1.2.3b", "8x", "x7b",
                          "1x7b", "3b-a30b", "200t", "0.5k", "30b-a"}) {
    const auto r = parse_model_size(bad);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) {
      EXPECT_NE(r.error().message.find('\''), std::string::npos) << r.error().message;
      EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
    }
  }
}

TEST(ModelSize, TellsSizesFromNames) {
  EXPECT_TRUE(looks_like_size("13b"));
  EXPECT_TRUE(looks_like_size("-3b"));
  EXPECT_TRUE(looks_like_size("13q"));
  EXPECT_TRUE(looks_like_size("8x7b"));
  EXPECT_FALSE(looks_like_size("llama-3.1-8b"));
  EXPECT_FALSE(looks_like_size("abc"));
  EXPECT_FALSE(looks_like_size("./model.gguf"));
}

}  // namespace
}  // namespace willfit
