#include "sources/family.hpp"

#include <algorithm>

#include "sources/model_source.hpp"

namespace willfit::app {

std::vector<Model> smaller_family_models(const Model& model, const Environment& env,
                                         const std::string& models_file) {
  std::vector<Model> out;
  if (model.family.empty()) {
    return out;
  }
  auto db = load_model_db(env, models_file);
  if (!db) {
    return out;
  }
  for (const auto& entry : (*db)->entries()) {
    if (entry.model.family == model.family && entry.model.params < model.params &&
        entry.modality != "encoder") {
      out.push_back(entry.model);
    }
  }
  std::sort(out.begin(), out.end(),
            [](const Model& a, const Model& b) { return a.params > b.params; });
  return out;
}

}  // namespace willfit::app
