// Renderers for `willfit models`: the catalogue as a table or as JSON.
// They format only.
#pragma once

#include <string>
#include <vector>

#include "willfit/models/model_db.hpp"

namespace willfit::app {

std::string render_models_text(const std::vector<const CatalogueEntry*>& entries,
                               const std::string& data_version);
std::string render_models_json(const std::vector<const CatalogueEntry*>& entries,
                               const std::string& data_version);

}  // namespace willfit::app
