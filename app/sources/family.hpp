// The catalogue models of a model's family with fewer parameters, for "a
// smaller member of the same family" in the suggestions. Reads the catalogue
// through the Environment; no estimating here.
#pragma once

#include <string>
#include <vector>

#include "sources/environment.hpp"
#include "willfit/models/model.hpp"

namespace willfit::app {

// Largest first; empty for a model with no family (a bare size, most files)
// or when the catalogue cannot be read (the suggestions then leave it out).
std::vector<Model> smaller_family_models(const Model& model, const Environment& env,
                                         const std::string& models_file);

}  // namespace willfit::app
