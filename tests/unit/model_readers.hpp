// Test helpers: a Model read from a config.json written in a test or from a
// GgufWriter's file, failing the test (not aborting) when the reader refuses,
// and its estimate under llama.cpp. For tests only; no assertions beyond the
// reader's success.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/model_file_writers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/hf_config.hpp"
#include "willfit/models/model.hpp"

namespace willfit::test {

inline Model from_config(const nlohmann::json& j) {
  auto m = model_from_hf_config(j.dump(), "test");
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return m.ok() ? *m : Model{};
}

inline Model from_gguf(const GgufWriter& w) {
  const std::string bytes = w.file();
  auto r = read_gguf(bytes, bytes.size());
  EXPECT_TRUE(r.ok() && r->file.has_value());
  if (!r.ok() || !r->file.has_value()) {
    return Model{};
  }
  auto m = model_from_gguf(*r->file, "test.gguf");
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return m.ok() ? *m : Model{};
}

// A GgufWriter's header alone, read as the start of a file of its full size
// (the tensor data of a large model would be gigabytes of zeros).
inline Model from_gguf_header(const GgufWriter& w) {
  std::string bytes = w.header();
  bytes.resize((bytes.size() + 31) / 32 * 32, '\0');
  auto r = read_gguf(bytes, bytes.size() + w.data_size());
  EXPECT_TRUE(r.ok() && r->file.has_value());
  if (!r.ok() || !r->file.has_value()) {
    return Model{};
  }
  auto m = model_from_gguf(*r->file, "model.gguf");
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return m.ok() ? *m : Model{};
}

// willfit's estimate of `m` under llama.cpp at Q4_K_M, `context` tokens,
// flash attention on or off.
inline Estimate llama_cpp_q4_estimate(const Model& m, std::int64_t context, bool flash) {
  InferenceQuery q;
  q.model = m;
  q.precision = *parse_precision("q4_k_m");
  q.runtime = Runtime::LlamaCpp;
  q.context = context;
  q.flash_attention = flash ? FlashAttention::On : FlashAttention::Off;
  return estimate_inference(q);
}

// |a - b| / b.
inline double rel(double a, double b) {
  return std::abs(a - b) / b;
}

}  // namespace willfit::test
