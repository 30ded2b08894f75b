// Test helper: a catalogue entry is the model its config.json gives (the
// parameters, the weights, the KV cache and the compute buffer under
// llama.cpp), and its published `params` are within 1 % of that count.
// Test-only.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

#include <gtest/gtest.h>

#include "unit/catalogue_model.hpp"
#include "unit/model_readers.hpp"

namespace willfit::test {

inline void expect_catalogue_is_config(const std::string& id, const Model& config,
                                       std::initializer_list<std::int64_t> contexts) {
  SCOPED_TRACE(id);
  const Model& cat = catalogue_model(id);
  expect_same_estimate(cat, config, id, contexts);
  for (const std::int64_t ctx : contexts) {
    EXPECT_EQ(llama_cpp_q4_estimate(cat, ctx, false).memory.weights,
              llama_cpp_q4_estimate(config, ctx, false).memory.weights)
        << ctx;
  }
  EXPECT_LT(
      rel(static_cast<double>(count_params(cat.arch).total()), static_cast<double>(cat.params)),
      0.01)
      << count_params(cat.arch).total();
}

}  // namespace willfit::test
