// Small pure string helpers shared by the parsers: normalising names and
// finding the closest candidates for "did you mean ...?". No I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace willfit {

std::string to_lower(std::string_view s);
std::string trim(std::string_view s);

// Levenshtein distance, for suggestions.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The Levenshtein distance when it is at most `bound`, else bound + 1. It
// stops as soon as every entry of a row exceeds the bound (the distance only
// grows from there), so ruling out a name far from the input costs a few rows,
// not the whole table: "did you mean" scans every device and model name.
std::size_t edit_distance_within(std::string_view a, std::string_view b, std::size_t bound);

// Names that "did you mean" compares with, prepared once: each lowercased,
// with the set of characters it holds. A database keeps one for its hundreds
// of names, so a lookup that misses lowers and scans none of them again.
class Candidates {
 public:
  Candidates() = default;
  explicit Candidates(std::vector<std::string> names);
  [[nodiscard]] const std::vector<std::string>& names() const { return names_; }
  [[nodiscard]] const std::vector<std::string>& lowered() const { return lower_; }
  [[nodiscard]] const std::vector<std::uint64_t>& char_sets() const { return chars_; }

 private:
  std::vector<std::string> names_;  // as given: what closest() returns
  std::vector<std::string> lower_;
  std::vector<std::uint64_t> chars_;  // the characters each holds, as bits (char mod 64)
};

// The `limit` candidates closest to `input` (by edit distance, ties by order),
// keeping only those close enough to be plausible.
std::vector<std::string> closest(std::string_view input, const Candidates& candidates,
                                 std::size_t limit = 3);
std::vector<std::string> closest(std::string_view input, const std::vector<std::string>& candidates,
                                 std::size_t limit = 3);

// "did you mean 'a', 'b' or 'c'?" or "" when there is nothing to suggest.
std::string did_you_mean(const std::vector<std::string>& suggestions);

// Parses a finite, non-negative decimal number ("13", "1.5", ".5"); rejects
// exponents, signs, hex, inf/nan and trailing text.
bool parse_decimal(std::string_view s, double& out);

// "a" or "an" before a number read aloud in English: "an" when it is read
// starting with a vowel sound, i.e. when its leading group of three digits
// is 8, 11, 18, 80-89 or 800-899 ("an 8192-token prompt", "an 11-layer",
// "an 18000-token", "an 800-token"), else "a" ("a 4096-token").
std::string_view indefinite_article(long long n);

}  // namespace willfit
