// Renderers for `willfit max`: the question and what the search found, as
// text for people and JSON for scripts. They format only.
#pragma once

#include <optional>
#include <string>

#include "willfit/planner/planner.hpp"

namespace willfit::app {

std::string render_max_text(const MaxQuestion& question, const MaxAnswer& answer);

// {"schema_version", "willfit_version", "query", "max": {params,
// context_tokens, batch, precision}, "quantised_hint", "fits"}: null where
// not asked.
std::string render_max_json(const MaxQuestion& question, const MaxAnswer& answer,
                            const std::optional<MaxHint>& hint);

}  // namespace willfit::app
