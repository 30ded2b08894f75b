// String helpers: suggestions stay right and cheap for hostile lengths.
#include <string>

#include <gtest/gtest.h>

#include "willfit/core/text.hpp"

namespace willfit {
namespace {

TEST(Closest, SuggestsNearNamesAndContainedNames) {
  const std::vector<std::string> names = {"q4_k_m", "q8_0", "fp16"};
  EXPECT_EQ(closest("q4_k_n", names).front(), "q4_k_m");
  EXPECT_EQ(closest("Q8_0", names).front(), "q8_0");
  EXPECT_EQ(closest("fp16-weights", names).front(), "fp16");
}

// A 100 kB argument used to cost a quadratic edit distance per candidate
// (seconds per call, found by tests/fuzz/fuzz_precision); now a candidate whose
// length alone rules it out is skipped. The answer must not change: nothing
// is close to a long random string, but a name it contains still is.
TEST(Closest, LongInputsKeepTheirAnswers) {
  const std::vector<std::string> names = {"q4_k_m", "q8_0", "fp16"};
  EXPECT_TRUE(closest(std::string(100000, 'z'), names).empty());
  EXPECT_EQ(closest(std::string(50000, 'z') + "q8_0", names).front(), "q8_0");
}

}  // namespace
}  // namespace willfit
