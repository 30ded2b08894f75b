// String helpers: suggestions stay right and cheap for hostile lengths.
#include <algorithm>
#include <cstddef>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "willfit/core/text.hpp"

namespace willfit {
namespace {

TEST(Closest, SuggestsNearNamesAndContainedNames) {
  const std::vector<std::string> names = {"q4_k_m", "q8_0", "fp16"};
  EXPECT_EQ(closest("q4_k_n", names).front(), "q4_k_m");
  // Two neighbours swapped is one slip: before the names two substitutions away.
  EXPECT_EQ(closest("4900", std::vector<std::string>{"4060", "4070", "4080", "4090"}).front(),
            "4090");
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

TEST(EditDistance, KnownDistances) {
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("rtx 4090", "rtx 4090"), 0u);
  EXPECT_EQ(edit_distance_within("kitten", "sitting", 3), 3u);
  EXPECT_EQ(edit_distance_within("kitten", "sitting", 2), 3u);  // over the bound: bound + 1
  EXPECT_EQ(edit_distance_within("abc", "xyz", 0), 1u);
}

// closest() skips the edit distance where the lengths or the characters held
// already rule a candidate out, and computes it bit-parallel for inputs up to
// 64 characters: its answers must equal the plain rule (the full table against
// every candidate) on random names over a small alphabet, with case and
// containment in play.
TEST(Closest, ShortcutsKeepThePlainAnswer) {
  std::mt19937 rng(20261202);
  // Mostly short names; one in eight 50 to 80 characters, around the 64 that
  // the bit-parallel distance takes in one word.
  std::uniform_int_distribution<int> length(0, 14);
  std::uniform_int_distribution<int> long_length(50, 80);
  std::uniform_int_distribution<int> letter(0, 7);
  const auto word = [&] {
    const int n = letter(rng) == 0 ? long_length(rng) : length(rng);
    std::string w(static_cast<std::size_t>(n), 'a');
    for (auto& c : w) {
      c = "abcdeAB7"[static_cast<std::size_t>(letter(rng))];
    }
    return w;
  };
  const auto plain = [](const std::string& input, const std::vector<std::string>& names) {
    const std::string needle = to_lower(input);
    std::vector<std::pair<std::size_t, std::size_t>> scored;
    for (std::size_t i = 0; i < names.size(); ++i) {
      const std::string cand = to_lower(names[i]);
      const std::size_t allowed =
          std::max<std::size_t>(2, std::max(needle.size(), cand.size()) / 2);
      const bool contains = !needle.empty() && (cand.find(needle) != std::string::npos ||
                                                needle.find(cand) != std::string::npos);
      std::size_t d = contains ? (needle == cand ? 0 : 1) : edit_distance(needle, cand);
      // Two neighbours swapped is one edit (closest's Damerau rule).
      if (d == 2 && needle.size() == cand.size()) {
        for (std::size_t k = 0; k + 1 < needle.size(); ++k) {
          std::string swapped = needle;
          std::swap(swapped[k], swapped[k + 1]);
          if (swapped == cand) {
            d = 1;
          }
        }
      }
      if (d <= allowed) {
        scored.emplace_back(d, i);
      }
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<std::string> out;
    for (const auto& [d, i] : scored) {
      if (out.size() < 3 && std::find(out.begin(), out.end(), names[i]) == out.end()) {
        out.push_back(names[i]);
      }
    }
    return out;
  };
  std::size_t answered = 0;
  for (int round = 0; round < 300; ++round) {
    std::vector<std::string> names;
    for (int i = 0; i < 40; ++i) {
      names.push_back(word());
    }
    for (int q = 0; q < 10; ++q) {
      const std::string input = word();
      const auto want = plain(input, names);
      answered += want.empty() ? 0u : 1u;
      ASSERT_EQ(closest(input, names), want) << "'" << input << "'";
    }
  }
  EXPECT_GT(answered, 1000u);  // most inputs have a suggestion: the rule is exercised
}

// Names longer than the row kept on the stack, and bounds past any distance
// (no wrap of bound + 1).
TEST(EditDistance, LongNamesAndHugeBounds) {
  const std::string a(300, 'a');
  const std::string b = std::string(150, 'a') + "b" + std::string(149, 'a');
  EXPECT_EQ(edit_distance_within(a, b, 5), 1u);
  EXPECT_EQ(edit_distance_within(a, std::string(200, 'b'), 50), 51u);
  EXPECT_EQ(edit_distance_within("abc", "xyz", static_cast<std::size_t>(-1)), 3u);
  EXPECT_EQ(edit_distance_within("", "", 0), 0u);
  EXPECT_EQ(edit_distance_within("", "abcd", 2), 3u);
}

// The early stop must never change an answer within the bound: compared with
// the full table on random short strings over a small alphabet (so that
// near and far pairs both occur), for every bound from 0 to 8.
TEST(EditDistance, WithinABoundAgreesWithTheFullTable) {
  std::mt19937 rng(20261201);
  std::uniform_int_distribution<int> length(0, 12);
  std::uniform_int_distribution<int> letter(0, 3);
  const auto word = [&] {
    std::string w(static_cast<std::size_t>(length(rng)), 'a');
    for (auto& c : w) {
      c = static_cast<char>('a' + letter(rng));
    }
    return w;
  };
  for (int i = 0; i < 4000; ++i) {
    const std::string a = word();
    const std::string b = word();
    const std::size_t full = edit_distance(a, b);
    for (std::size_t bound = 0; bound <= 8; ++bound) {
      ASSERT_EQ(edit_distance_within(a, b, bound), std::min(full, bound + 1))
          << "'" << a << "' vs '" << b << "', bound " << bound;
    }
  }
}

}  // namespace
}  // namespace willfit
