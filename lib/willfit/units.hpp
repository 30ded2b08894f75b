// Memory units. Inside willfit every amount of memory is an integer number of
// bytes (Bytes); units exist only where text is parsed or printed. Decimal
// (GB = 10^9) and binary (GiB = 2^30) are kept apart and always labelled.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "willfit/expected.hpp"

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
// is MiB and "tb" TiB. A bare number is bytes. Decimal figures, where someone
// really means them, can be given as plain bytes ("8000000000").
// Errors name the input and the accepted forms.
Expected<Bytes> parse_capacity(std::string_view text);

// "7.45 GiB", "512 MiB", "1.20 TiB" (binary, 3 significant digits).
std::string format_iec(Bytes bytes);
// "8.00 GB", "512 MB" (decimal, as the course's arithmetic is written).
std::string format_si(Bytes bytes);
// Signed versions keep a leading "-" for negative amounts (headroom).
std::string format_iec_signed(Bytes bytes);

// Converts with rounding to the nearest byte, saturating far outside any real size.
Bytes round_bytes(double bytes);

}  // namespace willfit
