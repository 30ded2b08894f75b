#include "willfit/core/text.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <optional>
#include <utility>

namespace willfit {

std::string to_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::string trim(std::string_view s) {
  auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!s.empty() && is_space(s.front())) {
    s.remove_prefix(1);
  }
  while (!s.empty() && is_space(s.back())) {
    s.remove_suffix(1);
  }
  return std::string(s);
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
      diagonal = up;
    }
  }
  return row[b.size()];
}

namespace {

// edit_distance_within over a caller's row of b.size() + 1 entries. Only the
// band of cells with |i - j| <= bound is computed: a cell outside it is at
// least |i - j| > bound (Ukkonen's cut-off), and every value is capped at
// bound + 1, so the answer is exact up to the bound.
std::size_t banded_distance(std::string_view a, std::string_view b, std::size_t bound,
                            std::size_t* row) {
  const std::size_t over = bound + 1;
  const std::size_t gap = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (gap > bound) {
    return over;
  }
  for (std::size_t j = 0; j <= b.size(); ++j) {
    row[j] = std::min(j, over);
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    const std::size_t lo = i > bound ? i - bound : 1;
    const std::size_t hi = std::min(b.size(), i + bound);
    std::size_t diagonal = row[lo - 1];
    row[lo - 1] = lo == 1 ? std::min(i, over) : over;
    std::size_t row_min = row[lo - 1];
    for (std::size_t j = lo; j <= hi; ++j) {
      const std::size_t up = row[j];
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({up + 1, row[j - 1] + 1, diagonal + cost, over});
      diagonal = up;
      row_min = std::min(row_min, row[j]);
    }
    // Every path to the last cell passes through this row.
    if (row_min > bound) {
      return over;
    }
  }
  return std::min(row[b.size()], over);
}

// The characters a string holds, as bits (character mod 64). An edit changes
// at most two bits of the set a string holds (a substitution drops one, adds
// one), so two strings whose sets differ in k bits are at least ceil(k / 2)
// edits apart: a bound that costs one pass over the characters.
std::uint64_t char_bit(char c) {
  return std::uint64_t{1} << (static_cast<unsigned char>(c) % 64);
}

// The edit distance from one pattern of up to 64 characters to many texts,
// bit-parallel: G. Myers, "A fast bit-vector algorithm for approximate string
// matching based on dynamic programming" (J. ACM 46(3), 1999), in the form H.
// Hyyro gives for the distance between whole strings ("Explaining and
// extending the bit-parallel approximate string matching algorithm of
// Myers", 2001). A column of the table is one word of vertical +1/-1 deltas,
// so a text costs a few word operations per character, with no table and no
// comparison per cell: "did you mean" scores hundreds of names per call.
class BitPattern {
 public:
  static constexpr std::size_t kMaxSize = 64;

  explicit BitPattern(std::string_view pattern) : size_(pattern.size()) {
    for (std::size_t i = 0; i < pattern.size(); ++i) {
      eq_[static_cast<unsigned char>(pattern[i])] |= std::uint64_t{1} << i;
    }
  }

  // The pattern's edit distance to `text` (pattern size 1 to kMaxSize).
  [[nodiscard]] std::size_t distance(std::string_view text) const {
    const std::uint64_t last = std::uint64_t{1} << (size_ - 1);
    std::uint64_t pv = ~std::uint64_t{0};  // vertical deltas +1
    std::uint64_t mv = 0;                  // vertical deltas -1
    std::size_t score = size_;
    for (char c : text) {
      const std::uint64_t eq = eq_[static_cast<unsigned char>(c)];
      const std::uint64_t xv = eq | mv;
      const std::uint64_t xh = (((eq & pv) + pv) ^ pv) | eq;
      std::uint64_t ph = mv | ~(xh | pv);
      std::uint64_t mh = pv & xh;
      score += (ph & last) != 0 ? 1 : 0;
      score -= (mh & last) != 0 ? 1 : 0;
      // Row 0 of the table is 0, 1, 2, ...: every horizontal delta there is +1.
      ph = (ph << 1) | 1;
      mh <<= 1;
      pv = mh | ~(xv | ph);
      mv = ph & xv;
    }
    return score;
  }

 private:
  std::array<std::uint64_t, 256> eq_{};  // per character: the positions holding it
  std::size_t size_;
};

// True when b is a with two neighbouring characters swapped ("4900" and
// "4090"): one slip of the fingers, which Levenshtein counts as two edits.
bool one_swap_apart(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) {
    return false;
  }
  std::size_t i = 0;
  while (i < a.size() && a[i] == b[i]) {
    ++i;
  }
  return i + 1 < a.size() && a[i] == b[i + 1] && a[i + 1] == b[i] &&
         a.substr(i + 2) == b.substr(i + 2);
}

}  // namespace

std::size_t edit_distance_within(std::string_view a, std::string_view b, std::size_t bound) {
  // The distance is at most the longer length: a larger bound changes nothing
  // (and bound + 1 must not wrap).
  bound = std::min(bound, std::max(a.size(), b.size()));
  // Names are short: their row lives on the stack, no allocation per pair.
  constexpr std::size_t kStackRow = 128;
  if (b.size() < kStackRow) {
    std::size_t row[kStackRow];
    return banded_distance(a, b, bound, row);
  }
  std::vector<std::size_t> row(b.size() + 1);
  return banded_distance(a, b, bound, row.data());
}

Candidates::Candidates(std::vector<std::string> names) : names_(std::move(names)) {
  lower_.reserve(names_.size());
  chars_.reserve(names_.size());
  for (const auto& name : names_) {
    std::string low = to_lower(name);
    std::uint64_t bits = 0;
    for (char c : low) {
      bits |= char_bit(c);
    }
    lower_.push_back(std::move(low));
    chars_.push_back(bits);
  }
}

std::vector<std::string> closest(std::string_view input, const Candidates& candidates,
                                 std::size_t limit) {
  const std::string needle = to_lower(input);
  std::uint64_t needle_chars = 0;
  for (char c : needle) {
    needle_chars |= char_bit(c);
  }
  std::optional<BitPattern> pattern;
  if (!needle.empty() && needle.size() <= BitPattern::kMaxSize) {
    pattern.emplace(needle);
  }
  const auto& names = candidates.names();
  // Plain pointers in the loop over hundreds of names: no bounds-checked
  // operator[] call per name in the assertion and fuzz builds.
  const std::string* lowered = candidates.lowered().data();
  const std::uint64_t* char_sets = candidates.char_sets().data();
  std::vector<std::pair<std::size_t, std::size_t>> scored;  // (distance, index)
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string& cand = lowered[i];
    const std::uint64_t cand_chars = char_sets[i];
    const std::size_t allowed = std::max<std::size_t>(2, std::max(needle.size(), cand.size()) / 2);
    // The distance is at least the difference in length, and at least half
    // the characters one holds and the other does not: skip the quadratic
    // edit distance when either rules a candidate out, so a 100 kB argument
    // costs a scan, not seconds, and most names cost no table at all.
    const std::size_t length_gap =
        needle.size() > cand.size() ? needle.size() - cand.size() : cand.size() - needle.size();
    const auto chars_apart = static_cast<std::size_t>(std::popcount(needle_chars ^ cand_chars));
    const bool far = length_gap > allowed || (chars_apart + 1) / 2 > allowed;
    // A candidate that contains the input (or the reverse) is a strong hint,
    // however far apart the two are otherwise. The shorter one's characters
    // must all be in the longer one for that, a test of two words.
    const std::uint64_t shorter_chars = cand.size() >= needle.size() ? needle_chars : cand_chars;
    const bool may_contain = (shorter_chars & ~(needle_chars & cand_chars)) == 0;
    const bool contains = !needle.empty() && may_contain &&
                          (cand.size() >= needle.size() ? cand.find(needle) != std::string::npos
                                                        : needle.find(cand) != std::string::npos);
    if (far && !contains) {
      continue;
    }
    std::size_t d = contains  ? (needle == cand ? 0 : 1)
                    : pattern ? pattern->distance(cand)
                              : edit_distance_within(needle, cand, allowed);
    // A swap of two neighbours counts as one edit (Damerau), so "rtx 4900"
    // suggests the 4090 before the 4060, 4070 and 4080 (two substitutions).
    if (d == 2 && one_swap_apart(needle, cand)) {
      d = 1;
    }
    if (d <= allowed) {
      scored.emplace_back(d, i);
    }
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (const auto& [d, i] : scored) {
    if (out.size() >= limit) {
      break;
    }
    if (std::find(out.begin(), out.end(), names[i]) == out.end()) {
      out.push_back(names[i]);
    }
  }
  return out;
}

std::vector<std::string> closest(std::string_view input, const std::vector<std::string>& candidates,
                                 std::size_t limit) {
  return closest(input, Candidates(candidates), limit);
}

std::string did_you_mean(const std::vector<std::string>& suggestions) {
  if (suggestions.empty()) {
    return "";
  }
  std::string out = "did you mean ";
  for (std::size_t i = 0; i < suggestions.size(); ++i) {
    if (i > 0) {
      out += (i + 1 == suggestions.size()) ? " or " : ", ";
    }
    out += "'" + suggestions[i] + "'";
  }
  return out + "?";
}

bool parse_decimal(std::string_view s, double& out) {
  if (s.empty() || s.size() > 32) {
    return false;
  }
  bool seen_digit = false;
  bool seen_dot = false;
  for (char c : s) {
    if (c >= '0' && c <= '9') {
      seen_digit = true;
    } else if (c == '.' && !seen_dot) {
      seen_dot = true;
    } else {
      return false;
    }
  }
  if (!seen_digit) {
    return false;
  }
  double value = 0.0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr != s.data() + s.size() || !std::isfinite(value)) {
    return false;
  }
  out = value;
  return true;
}

std::string_view indefinite_article(long long n) {
  unsigned long long v =
      n < 0 ? 0ULL - static_cast<unsigned long long>(n) : static_cast<unsigned long long>(n);
  while (v >= 1000) {
    v /= 1000;  // the leading group is read first ("eighteen thousand ...")
  }
  const bool vowel = v == 8 || v == 11 || v == 18 || (v >= 80 && v <= 89) || (v >= 800 && v <= 899);
  return vowel ? "an" : "a";
}

}  // namespace willfit
