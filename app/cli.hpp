// The CLI's entry point, callable in-process: run(args) parses, answers and
// renders, writing to `out` and `err`, and returns the exit code
// (0 fits, 1 does not fit, 2 error). Never throws, never calls exit().
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "sources/environment.hpp"

namespace willfit::app {

inline constexpr int kExitFits = 0;
inline constexpr int kExitNoFit = 1;
inline constexpr int kExitError = 2;

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
        const Environment& env);

}  // namespace willfit::app
