#include "options/options.hpp"

#include <charconv>

#include <fmt/format.h>

#include "willfit/core/text.hpp"

namespace willfit::app {

Expected<std::int64_t> parse_count(const std::string& option, const std::string& text,
                                   std::int64_t lo, std::int64_t hi) {
  const std::string t = trim(text);
  std::int64_t value = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (t.empty() || ec != std::errc() || ptr != t.data() + t.size()) {
    return make_error(fmt::format("invalid {} '{}': expected a whole number", option, text));
  }
  if (value < lo || value > hi) {
    return make_error(
        fmt::format("invalid {} '{}': must be between {} and {}", option, text, lo, hi));
  }
  return value;
}

Expected<std::int64_t> parse_tokens(const std::string& option, const std::string& text) {
  constexpr std::int64_t kMax = 100'000'000;
  std::string t = to_lower(trim(text));
  std::int64_t scale = 1;
  if (!t.empty() && (t.back() == 'k' || t.back() == 'm')) {
    scale = t.back() == 'k' ? 1024 : 1024 * 1024;
    t.pop_back();
  }
  std::int64_t value = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (t.empty() || ec != std::errc() || ptr != t.data() + t.size()) {
    return make_error(fmt::format("invalid {} '{}': expected a number of tokens, e.g. 4096 or 32k",
                                  option, text));
  }
  if (value < 1 || value > kMax / scale) {
    return make_error(
        fmt::format("invalid {} '{}': must be between 1 and 100M tokens", option, text));
  }
  return value * scale;
}

Expected<bool> check_gpu_limit(const std::optional<Bytes>& limit, const DeviceSet& devices,
                               UnitSystem units) {
  if (!limit) {
    return true;
  }
  if (devices.devices.empty()) {
    return make_error("--gpu-limit limits a GPU's memory: add --device, e.g. --device 24gb");
  }
  for (const Device& d : devices.devices) {
    if (*limit > d.memory_bytes) {
      return make_error(fmt::format("--gpu-limit {} is more than the {} of {}: give at most that",
                                    format_memory(*limit, units),
                                    format_memory(d.memory_bytes, units), d.name));
    }
  }
  return true;
}

}  // namespace willfit::app
