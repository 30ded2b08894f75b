// Memory units. Inside willfit every amount of memory is an integer number of
// bytes (Bytes); units exist only where text is parsed or printed. Decimal
// (GB = 10^9) and binary (GiB = 2^30) are kept apart and always labelled.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "willfit/core/expected.hpp"

namespace willfit {

using Bytes = std::int64_t;

inline constexpr Bytes kKiB = 1024;
inline constexpr Bytes kMiB = 1024 * kKiB;
inline constexpr Bytes kGiB = 1024 * kMiB;
inline constexpr Bytes kTiB = 1024 * kGiB;
inline constexpr Bytes kKB = 1000;
inline constexpr Bytes kMB = 1000 * kKB;
inline constexpr Bytes kGB = 1000 * kMB;
inline constexpr Bytes kTB = 1000 * kGB;

// Parses a memory capacity as people write it for GPUs and RAM.
//
// Memory chips come in powers of two, so a card or a Mac sold as "8 GB" holds
// 8 GiB: "8gb", "8GB", "8g" and "8GiB" all mean 8 x 2^30 bytes. Likewise "mb"
// is MiB and "tb" TiB. A bare number is bytes ("8000000000" for decimal GB);
// one below 1 MiB is refused as a unit left out ("32" asks for "32gb").
// Errors name the input and the accepted forms.
Expected<Bytes> parse_capacity(std::string_view text);

// "7.45 GiB", "512 MiB", "1.20 TiB" (binary, 3 significant digits).
std::string format_iec(Bytes bytes);
// "8.00 GB", "512 MB" (decimal, as the course's arithmetic is written).
std::string format_si(Bytes bytes);
// Signed versions keep a leading "-" for negative amounts (headroom).
std::string format_iec_signed(Bytes bytes);

// How figures of memory are printed (--units). Two kinds of figure exist:
// memory on a device, which GPUs and RAM hold in powers of two, and sizes from
// the course's decimal arithmetic (parameters x bytes per weight, file
// sizes). By default each is shown in its natural unit; `si` and `iec` print
// both kinds in one system. Rates (GB/s) are always decimal and not covered.
enum class UnitSystem {
  Mixed,  // the default: device memory in GiB/MiB, decimal arithmetic in GB/MB
  Si,     // every memory figure decimal: GB = 10^9 bytes, MB, kB
  Iec,    // every memory figure binary: GiB = 2^30 bytes, MiB, KiB
};

// "si" or "iec", case-insensitively; errors name the input and the choices.
Expected<UnitSystem> parse_unit_system(std::string_view text);

// Memory on a device (usable, needed, KV cache...): binary unless `si`.
std::string format_memory(Bytes bytes, UnitSystem units);
std::string format_memory_signed(Bytes bytes, UnitSystem units);
// A size from decimal arithmetic (weights "13 B x 0.5 bytes", file sizes):
// decimal unless `iec`.
std::string format_size(Bytes bytes, UnitSystem units);
// What "N GB" on a GPU or RAM label holds, in words that fit `units`:
// "N GiB", or "N x 2^30 bytes" where GiB are not printed.
std::string_view marketed_gb_meaning(UnitSystem units);
// One line defining the units the output uses, for --explain.
std::string_view units_legend(UnitSystem units);

// Converts with rounding to the nearest byte (halves away from zero, as
// std::llround), saturating far outside any real size. Inline and without a
// libm call: every term of every estimate is rounded. Below the saturation
// bound (2^61) the cast truncates exactly, and the fraction left is exact
// (below 2^52 the two doubles are within a factor of two; above it every
// double is a whole number and the fraction is 0).
inline Bytes round_bytes(double bytes) {
  constexpr auto kMax = static_cast<double>(std::numeric_limits<Bytes>::max() / 4);
  if (!(bytes > -kMax)) {
    return -static_cast<Bytes>(kMax);
  }
  if (!(bytes < kMax)) {
    return static_cast<Bytes>(kMax);
  }
  const auto whole = static_cast<Bytes>(bytes);
  const double fraction = bytes - static_cast<double>(whole);
  return whole + (fraction >= 0.5 ? 1 : (fraction <= -0.5 ? -1 : 0));
}

}  // namespace willfit
