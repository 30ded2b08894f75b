// Test helper: a model of the embedded catalogue by name (the test fails when
// it is missing). Test-only.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "sources/embedded_data.hpp"
#include "willfit/models/model_db.hpp"

namespace willfit::test {

inline const Model& catalogue_model(const std::string& name) {
  static const ModelDb db = [] {
    auto d = ModelDb::parse(app::embedded_models_json(), "embedded");
    EXPECT_TRUE(d.ok());
    return d.ok() ? *d : ModelDb{};
  }();
  auto m = db.find(name);
  EXPECT_TRUE(m.ok()) << name;
  static const Model none;
  return m.ok() ? m->entry->model : none;
}

}  // namespace willfit::test
