// Test helper: a model of the embedded catalogue by name (the test fails when
// it is missing). Test-only.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sources/embedded_data.hpp"
#include "willfit/models/model_db.hpp"

namespace willfit::test {

inline const ModelDb& catalogue_db() {
  static const ModelDb db = [] {
    auto d = ModelDb::parse(app::embedded_models_json(), "embedded");
    EXPECT_TRUE(d.ok());
    return d.ok() ? *d : ModelDb{};
  }();
  return db;
}

inline const Model& catalogue_model(const std::string& name) {
  auto m = catalogue_db().find(name);
  EXPECT_TRUE(m.ok()) << name;
  static const Model none;
  return m.ok() ? m->entry->model : none;
}

// Every id of the embedded catalogue, in its order.
inline std::vector<std::string> catalogue_ids() {
  std::vector<std::string> ids;
  for (const auto& e : catalogue_db().entries()) {
    ids.push_back(e.model.id);
  }
  return ids;
}

}  // namespace willfit::test
