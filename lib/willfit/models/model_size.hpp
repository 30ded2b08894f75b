// Parses model sizes as people write them: "13b", "1.5B", "350m", "1t",
// "8x7b" (mixture of experts: 8 experts shaped like a 7 B model) and
// "30b-a3b" (30 B total, 3 B active). Pure: no lookups, no I/O.
#pragma once

#include <string>
#include <string_view>

#include "willfit/core/expected.hpp"

namespace willfit {

struct SizeSpec {
  std::string text;          // normalised, e.g. "13b", "8x7b", "30b-a3b"
  double params = 0;         // total parameters; for NxM this is the base model's size (M)
  double active_params = 0;  // 0 for dense models and NxM (derived from the architecture)
  int experts = 0;           // N in NxM; 0 otherwise
};

// Largest accepted size: 100 trillion parameters.
inline constexpr double kMaxParams = 1e14;

Expected<SizeSpec> parse_model_size(std::string_view text);

// True when `text` looks like a size rather than a name or a path (used to
// decide how to read the MODEL argument).
bool looks_like_size(std::string_view text);

}  // namespace willfit
