// The "To make it fit" section of the fit answer, in text and in JSON.
// Separate from render_text.cpp / render_json.cpp, which call it once each.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "willfit/planner/suggest.hpp"

namespace willfit::app {

// "\nTo make it fit:\n  1. ...\n", or "" when there are none.
std::string render_suggestions_text(const std::vector<Suggestion>& suggestions);

// The JSON array `suggestions` (keys documented in docs/json.md, "Suggestions").
nlohmann::ordered_json suggestions_json(const std::vector<Suggestion>& suggestions);

}  // namespace willfit::app
