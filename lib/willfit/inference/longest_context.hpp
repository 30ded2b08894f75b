// The one rule for "the longest context that fits": what --context max, the
// shorter-context suggestion and `max -p best` answer with. Pure: a search over
// estimate_inference, no I/O.
#pragma once

#include <cstdint>

#include "willfit/inference/estimate.hpp"

namespace willfit {

// The longest context (a multiple of 256 tokens) that fits clear of the
// estimate's error band (Margin::Clear) when that is at least `floor` tokens,
// else the longest that fits at all, marked tight (its headroom is within the
// band: it may go either way). The edge of what fits is within the band by
// construction, so it is offered only when nothing shorter clears. tokens 0:
// not even `floor` tokens fit whole. `edge`: the longest that fits at all.
struct LongestContext {
  std::int64_t tokens = 0;
  bool tight = false;
  std::int64_t edge = 0;
};
LongestContext longest_fitting_context(const InferenceQuery& query, std::int64_t floor = 256);

}  // namespace willfit
