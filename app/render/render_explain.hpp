// `willfit MODEL --explain`: the arithmetic behind every line of the answer,
// in the course's words, with where each constant comes from. Formats only:
// every figure and formula comes from the report (Estimate::terms).
#pragma once

#include <string>

#include "willfit/planner/report.hpp"

namespace willfit::app {

// "How it adds up:" and one entry per term (formula, then its source), the
// total, the usable memory and its rule, and the headroom.
std::string render_fit_explain(const FitReport& report);

}  // namespace willfit::app
