// The one assertion the fuzz targets use: an invariant that fails prints what
// broke and aborts, which libFuzzer (and the replay tests) report as a crash.
// Test-only; never linked into willfit.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace willfit::fuzz {

inline void check(bool ok, const char* what, std::string_view input = {}) {
  if (!ok) {
    // A copy, so the argument is never a null pointer (an empty string_view's
    // data() may be), which g++ -O2 rightly warns about.
    const std::string shown(input);
    std::fprintf(stderr, "fuzz invariant broken: %s (input: '%s')\n", what, shown.c_str());
    std::abort();
  }
}

}  // namespace willfit::fuzz
