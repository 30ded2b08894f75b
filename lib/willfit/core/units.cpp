#include "willfit/core/units.hpp"

#include <cmath>
#include <limits>
#include <span>

#include <fmt/format.h>

#include "willfit/core/text.hpp"

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

struct Unit {
  Bytes factor;
  std::string_view name;
};
constexpr Unit kIecUnits[] = {{kKiB, "KiB"}, {kMiB, "MiB"}, {kGiB, "GiB"}, {kTiB, "TiB"}};
constexpr Unit kSiUnits[] = {{kKB, "kB"}, {kMB, "MB"}, {kGB, "GB"}, {kTB, "TB"}};

// Three significant digits in the largest unit the amount reaches ("7.45 GiB",
// "24.0 GiB", "512 MiB"). Precision follows the value as printed, so
// 999.7 MB reads "1.00 GB", not "1000 MB", and 9.998 GiB "10.0 GiB".
std::string format_in(Bytes bytes, std::span<const Unit> units, double base) {
  std::size_t i = units.size();
  while (i > 0 && bytes < units[i - 1].factor) {
    --i;
  }
  if (i == 0) {
    return fmt::format("{} B", bytes);
  }
  --i;
  double value = static_cast<double>(bytes) / static_cast<double>(units[i].factor);
  if (std::round(value) >= base && i + 1 < units.size()) {
    ++i;
    value /= base;
  }
  const std::string_view unit = units[i].name;
  if (value >= 99.95) {
    return fmt::format("{:.0f} {}", value, unit);
  }
  if (value >= 9.995) {
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
  bool unit = false;
  for (const auto& suffix : kSuffixes) {
    if (s.size() > suffix.text.size() && s.ends_with(suffix.text)) {
      factor = suffix.factor;
      unit = true;
      s.remove_suffix(suffix.text.size());
      break;
    }
  }
  while (!s.empty() && s.back() == ' ') {
    s.remove_suffix(1);
  }
  double value = 0.0;
  if (!parse_decimal(s, value)) {
    // Say what is wrong with a number that is almost one: the sign (a size
    // is never below zero, and "-24gb" must not be read as 24 GB), a NaN or
    // infinity, an exponent.
    if (s.starts_with('-') && s.size() > 1) {
      return make_error("memory size '" + original + "' must be more than zero");
    }
    if (s.starts_with('+') && parse_decimal(s.substr(1), value)) {
      return make_error("invalid memory size '" + original + "': write it without a sign, e.g. '" +
                        trim(original.substr(original.find('+') + 1)) + "'");
    }
    if (s == "nan" || s == "inf" || s == "infinity") {
      return make_error("memory size '" + original + "' is not a number: " + hint);
    }
    if (s.find_first_of("0123456789") != std::string_view::npos &&
        s.find('e') != std::string_view::npos) {
      return make_error("invalid memory size '" + original +
                        "': write it without an exponent, e.g. '8gb', '1536gb', '512mb'");
    }
    return make_error("invalid memory size '" + original + "': " + hint);
  }
  const double bytes = value * static_cast<double>(factor);
  if (bytes < 1.0) {
    return make_error("memory size '" + original + "' must be more than zero");
  }
  // A bare number is bytes, but no memory holds less than 1 MiB: "--ram 32"
  // or "--gpu-limit 20000" (a figure in iogpu.wired_limit_mb's megabytes)
  // means a unit left out, and read as bytes it would answer a question
  // nobody asked. Name the unit the figure most likely meant.
  if (!unit && bytes < static_cast<double>(kMiB)) {
    return make_error(fmt::format("memory size '{}' needs a unit: write '{}{}'", original, original,
                                  value < 1024.0 ? "gb" : "mb"));
  }
  if (bytes > kMaxCapacity) {
    return make_error("memory size '" + original + "' is too large (the limit is 1 PiB)");
  }
  return round_bytes(bytes);
}

std::string format_iec(Bytes bytes) {
  return format_in(bytes, kIecUnits, 1024.0);
}

std::string format_si(Bytes bytes) {
  return format_in(bytes, kSiUnits, 1000.0);
}

std::string format_iec_signed(Bytes bytes) {
  return bytes < 0 ? "-" + format_iec(-bytes) : format_iec(bytes);
}

Expected<UnitSystem> parse_unit_system(std::string_view text) {
  const std::string lowered = to_lower(trim(text));
  if (lowered == "si") {
    return UnitSystem::Si;
  }
  if (lowered == "iec") {
    return UnitSystem::Iec;
  }
  return make_error("invalid --units '" + trim(text) +
                    "': use si (GB = 10^9 bytes) or iec (GiB = 2^30 bytes)");
}

std::string format_memory(Bytes bytes, UnitSystem units) {
  return units == UnitSystem::Si ? format_si(bytes) : format_iec(bytes);
}

std::string format_memory_signed(Bytes bytes, UnitSystem units) {
  return bytes < 0 ? "-" + format_memory(-bytes, units) : format_memory(bytes, units);
}

std::string format_size(Bytes bytes, UnitSystem units) {
  return units == UnitSystem::Iec ? format_iec(bytes) : format_si(bytes);
}

std::string_view marketed_gb_meaning(UnitSystem units) {
  return units == UnitSystem::Si ? "N x 2^30 bytes" : "N GiB";
}

std::string_view units_legend(UnitSystem units) {
  switch (units) {
    case UnitSystem::Si:
      return "Units: GB = 10^9 bytes, MB = 10^6 bytes (--units si); rates in GB/s.";
    case UnitSystem::Iec:
      return "Units: GiB = 2^30 bytes, MiB = 2^20 bytes (--units iec); rates in GB/s (10^9 "
             "bytes/s).";
    case UnitSystem::Mixed:
      break;
  }
  return "Units: GiB = 2^30 bytes (device memory), GB = 10^9 bytes (file sizes).";
}

}  // namespace willfit
