#include "willfit/models/model_size.hpp"

#include <array>
#include <cctype>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "willfit/core/text.hpp"

namespace willfit {
namespace {

const char* const kHint = "use a size like '7b', '1.5b', '350m', '8x7b' or '30b-a3b'";

// One count with its scale letter: "13b" -> 13e9. Returns false on anything else.
bool parse_count(std::string_view s, double& out) {
  if (s.size() < 2) {
    return false;
  }
  double scale = 0;
  switch (s.back()) {
    case 'k':
      scale = 1e3;
      break;
    case 'm':
      scale = 1e6;
      break;
    case 'b':
      scale = 1e9;
      break;
    case 't':
      scale = 1e12;
      break;
    default:
      return false;
  }
  double value = 0;
  if (!parse_decimal(s.substr(0, s.size() - 1), value)) {
    return false;
  }
  out = value * scale;
  return std::isfinite(out);
}

std::string format_count(double params) {
  constexpr std::array<std::pair<double, char>, 4> kUnits = {
      {{1e12, 't'}, {1e9, 'b'}, {1e6, 'm'}, {1e3, 'k'}}};
  for (std::size_t i = 0; i < kUnits.size(); ++i) {
    const auto [unit, suffix] = kUnits[i];
    if (params < unit && i + 1 < kUnits.size()) {
      continue;
    }
    const std::string digits = fmt::format("{:g}", params / unit);
    // {:g} keeps six significant digits, so 999.99999976m prints as "1000m",
    // which reads back as 1b (found by fuzz_size: ".99999999976b"): such a
    // value is written in the next unit up, as it reads.
    if (digits == "1000" && i > 0) {
      return fmt::format("1{}", kUnits[i - 1].second);
    }
    return digits + suffix;
  }
  return "";
}

Expected<SizeSpec> check_range(SizeSpec spec, const std::string& original) {
  if (!(spec.params >= 1e6)) {
    return make_error(
        fmt::format("model size '{}' is too small: at least 1m parameters", original));
  }
  const double total = spec.experts > 0 ? spec.params * spec.experts : spec.params;
  if (total > kMaxParams) {
    return make_error(
        fmt::format("model size '{}' is too large: at most 100t parameters", original));
  }
  if (spec.active_params > 0 && spec.active_params > spec.params) {
    return make_error(
        fmt::format("model size '{}': active parameters cannot exceed the total", original));
  }
  if (spec.active_params > 0 && spec.active_params < 1e6) {
    return make_error(fmt::format("model size '{}': active parameters too small", original));
  }
  return spec;
}

}  // namespace

Expected<SizeSpec> parse_model_size(std::string_view text) {
  const std::string original = trim(text);
  const std::string s = to_lower(original);
  if (s.empty()) {
    return make_error(std::string("model size is empty: ") + kHint);
  }
  SizeSpec spec;
  // "8x7b": N experts of an M-sized model.
  if (const auto x = s.find('x'); x != std::string::npos) {
    double experts = 0;
    double base = 0;
    if (!parse_decimal(std::string_view(s).substr(0, x), experts) ||
        !parse_count(std::string_view(s).substr(x + 1), base) || experts != std::floor(experts) ||
        experts < 2 || experts > 1024) {
      return make_error(fmt::format("invalid model size '{}': {}", original, kHint));
    }
    spec.experts = static_cast<int>(experts);
    spec.params = base;
    spec.text = fmt::format("{}x{}", spec.experts, format_count(base));
    return check_range(spec, original);
  }
  // "30b-a3b": total and active.
  if (const auto dash = s.find("-a"); dash != std::string::npos) {
    double total = 0;
    double active = 0;
    if (!parse_count(std::string_view(s).substr(0, dash), total) ||
        !parse_count(std::string_view(s).substr(dash + 2), active)) {
      return make_error(fmt::format("invalid model size '{}': {}", original, kHint));
    }
    spec.params = total;
    spec.active_params = active;
    spec.text = fmt::format("{}-a{}", format_count(total), format_count(active));
    return check_range(spec, original);
  }
  double params = 0;
  if (!parse_count(s, params)) {
    return make_error(fmt::format("invalid model size '{}': {}", original, kHint));
  }
  spec.params = params;
  spec.text = format_count(params);
  return check_range(spec, original);
}

bool looks_like_size(std::string_view text) {
  const std::string s = to_lower(trim(text));
  if (s.empty()) {
    return false;
  }
  // Sizes start with a digit, a dot or a sign (a negative size is a bad size,
  // not a model name) and hold only digits, '.', 'x', '-a' and a scale letter.
  const char first = s.front();
  if (!(std::isdigit(static_cast<unsigned char>(first)) != 0 || first == '.' || first == '-' ||
        first == '+')) {
    return false;
  }
  for (char c : s) {
    if (std::isalpha(static_cast<unsigned char>(c)) != 0 && c != 'x' && c != 'a' && c != 'k' &&
        c != 'm' && c != 'b' && c != 't' && c != 'e') {
      return s.size() <= 6;  // "13q" is a bad size; "3090-config" would be a name
    }
  }
  return s.find('/') == std::string::npos;
}

}  // namespace willfit
