// Renderers: a report in, a string out. Text for people, JSON for scripts.
// They format only; every figure comes from the report.
#pragma once

#include <string>

#include "willfit/planner/report.hpp"

namespace willfit::app {

struct TextStyle {
  bool color = false;
};

std::string render_fit_text(const FitReport& report, const TextStyle& style);
std::string render_fit_json(const FitReport& report);

}  // namespace willfit::app
