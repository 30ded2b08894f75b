// Renderers for `willfit train`: a training estimate in, a string out. Text for
// people (with --explain: the arithmetic), JSON for scripts. They format only.
#pragma once

#include <string>

#include "willfit/training/training.hpp"

namespace willfit::app {

std::string render_train_text(const TrainingQuery& query, const TrainingEstimate& estimate,
                              bool explain);
std::string render_train_json(const TrainingQuery& query, const TrainingEstimate& estimate);

}  // namespace willfit::app
