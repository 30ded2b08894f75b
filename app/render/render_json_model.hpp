// The JSON `model` object, shared by every answer that describes a model (the
// fit answer, `train`), so each carries the same keys. Defined in render_json.cpp.
#pragma once

#include <nlohmann/json.hpp>

#include "willfit/models/model.hpp"
#include "willfit/core/units.hpp"

namespace willfit::app {

// `weights` is the model's weight bytes as the answer counts them.
nlohmann::ordered_json model_json(const Model& m, Bytes weights);

}  // namespace willfit::app
