// Bisection over whole numbers, for the searches that ask "up to where does
// this still hold?" (the offload planner, max_params, max_batch).
#pragma once

namespace willfit {

// The first x in [lo, hi) for which pred(x) holds, or hi when none does;
// pred must be monotone over the range (false up to some x, true from it).
// Calls pred about log2(hi - lo) times.
template <typename Int, typename Pred>
Int first_true(Int lo, Int hi, const Pred& pred) {
  while (lo < hi) {
    const Int mid = lo + (hi - lo) / 2;
    if (pred(mid)) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

// The largest x in [lo, hi] for which fits(x) holds, given that fits(lo)
// does; fits must be monotone (true up to some x, false above).
template <typename Int, typename Fits>
Int largest_fitting(Int lo, Int hi, const Fits& fits) {
  return first_true(lo + 1, hi + 1, [&](Int x) { return !fits(x); }) - 1;
}

}  // namespace willfit
