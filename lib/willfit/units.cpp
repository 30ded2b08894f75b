#include "willfit/units.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "willfit/text.hpp"

namespace willfit {
namespace {

struct Suffix {
  std::string_view text;
  Bytes factor;
};

// Longest suffixes first so "gib" wins over "b".
constexpr Suffix kSuffixes[] = {
    {"tib", kTiB}, {"gib", kGiB}, {"mib", kMiB}, {"kib", kKiB}, {"tb", kTiB},
    {"gb", kGiB},  {"mb", kMiB},  {"kb", kKiB},  {"t", kTiB},   {"g", kGiB},
    {"m", kMiB},   {"k", kKiB},   {"b", 1},
};

// The largest capacity we accept: 1 PiB. Far above any device; keeps
// arithmetic on int64 bytes away from overflow.
constexpr double kMaxCapacity = 1024.0 * 1024.0 * static_cast<double>(kGiB);

std::string scaled(double value, std::string_view unit) {
  if (value >= 100.0) {
    return fmt::format("{:.0f} {}", value, unit);
  }
  if (value >= 10.0) {
    return fmt::format("{:.1f} {}", value, unit);
  }
  return fmt::format("{:.2f} {}", value, unit);
}

}  // namespace

Expected<Bytes> parse_capacity(std::string_view text) {
  const std::string original = trim(text);
  const std::string lowered = to_lower(original);
  std::string_view s = lowered;
  const std::string hint = "use a number with a unit, e.g. '8gb', '24GiB', '512mb'";
  if (s.empty()) {
    return make_error("memory size is empty: " + hint);
  }
  Bytes factor = 1;
  for (const auto& suffix : kSuffixes) {
    if (s.size() > suffix.text.size() && s.ends_with(suffix.text)) {
      factor = suffix.factor;
      s.remove_suffix(suffix.text.size());
      break;
    }
  }
  while (!s.empty() && s.back() == ' ') {
    s.remove_suffix(1);
  }
  double value = 0.0;
  if (!parse_decimal(s, value)) {
    return make_error("invalid memory size '" + original + "': " + hint);
  }
  const double bytes = value * static_cast<double>(factor);
  if (bytes < 1.0) {
    return make_error("memory size '" + original + "' must be more than zero");
  }
  if (bytes > kMaxCapacity) {
    return make_error("memory size '" + original + "' is too large (the limit is 1 PiB)");
  }
  return round_bytes(bytes);
}

std::string format_iec(Bytes bytes) {
  const auto b = static_cast<double>(bytes);
  if (bytes >= kTiB) {
    return scaled(b / static_cast<double>(kTiB), "TiB");
  }
  if (bytes >= kGiB) {
    return scaled(b / static_cast<double>(kGiB), "GiB");
  }
  if (bytes >= kMiB) {
    return scaled(b / static_cast<double>(kMiB), "MiB");
  }
  if (bytes >= kKiB) {
    return scaled(b / static_cast<double>(kKiB), "KiB");
  }
  return fmt::format("{} B", bytes);
}

std::string format_si(Bytes bytes) {
  const auto b = static_cast<double>(bytes);
  if (bytes >= kTB) {
    return scaled(b / static_cast<double>(kTB), "TB");
  }
  if (bytes >= kGB) {
    return scaled(b / static_cast<double>(kGB), "GB");
  }
  if (bytes >= kMB) {
    return scaled(b / static_cast<double>(kMB), "MB");
  }
  if (bytes >= kKB) {
    return scaled(b / static_cast<double>(kKB), "kB");
  }
  return fmt::format("{} B", bytes);
}

std::string format_iec_signed(Bytes bytes) {
  return bytes < 0 ? "-" + format_iec(-bytes) : format_iec(bytes);
}

Bytes round_bytes(double bytes) {
  constexpr auto kMax = static_cast<double>(std::numeric_limits<Bytes>::max() / 4);
  if (!(bytes > -kMax)) {
    return -static_cast<Bytes>(kMax);
  }
  if (!(bytes < kMax)) {
    return static_cast<Bytes>(kMax);
  }
  return static_cast<Bytes>(std::llround(bytes));
}

}  // namespace willfit
