// The one assertion the fuzz targets use: an invariant that fails prints what
// broke and aborts, which libFuzzer (and the replay tests) report as a crash.
// Test-only; never linked into willfit.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace willfit::fuzz {

inline void check(bool ok, const char* what, std::string_view input = {}) {
  if (!ok) {
    std::fprintf(stderr, "fuzz invariant broken: %s (input: '%.*s')\n", what,
                 static_cast<int>(input.size()), input.data());
    std::abort();
  }
}

}  // namespace willfit::fuzz
