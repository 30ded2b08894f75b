// Test helpers: a Model read from a config.json written in a test or from a
// GgufWriter's file, failing the test (not aborting) when the reader refuses,
// and its estimate under llama.cpp. For tests only; no assertions beyond the
// reader's success, except expect_same_estimate, which compares two readings.
#pragma once

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/model_file_writers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/hf_config.hpp"
#include "willfit/models/model.hpp"
#include "willfit/models/weight_layout.hpp"

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

// A Model read from `w`'s header alone, the file's size claimed: a large
// model's tensor data is never written.
inline Model from_gguf_header(const GgufWriter& w) {
  const std::string header = w.header();
  const std::uint64_t size = (header.size() + 31) / 32 * 32 + w.data_size();
  auto r = read_gguf(header, size);
  EXPECT_TRUE(r.ok() && r->file.has_value()) << (r.ok() ? "" : r.error().message);
  if (!r.ok() || !r->file.has_value()) {
    return Model{};
  }
  auto m = model_from_gguf(*r->file, "model.gguf");
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return m.ok() ? *m : Model{};
}

// willfit's estimate of `m` under llama.cpp at `precision`, `context`
// tokens, flash attention as given (Auto: llama.cpp's default).
inline Estimate llama_cpp_estimate(const Model& m, const std::string& precision,
                                   std::int64_t context, FlashAttention flash) {
  InferenceQuery q;
  q.model = m;
  q.precision = *parse_precision(precision);
  q.runtime = Runtime::LlamaCpp;
  q.context = context;
  q.flash_attention = flash;
  return estimate_inference(q);
}

// willfit's estimate of `m` under llama.cpp at Q4_K_M, `context` tokens,
// flash attention on or off.
inline Estimate llama_cpp_q4_estimate(const Model& m, std::int64_t context, bool flash) {
  return llama_cpp_estimate(m, "q4_k_m", context, flash ? FlashAttention::On : FlashAttention::Off);
}

// |a - b| / b.
inline double rel(double a, double b) {
  return std::abs(a - b) / b;
}

// Where expect_same_estimate compares two readings: their parameter counts
// (`params`), then llama.cpp at `precision` under each flash attention
// setting at each context.
struct EstimateGrid {
  enum class Params { None, Total, TotalAndActive };
  std::vector<std::int64_t> contexts;
  std::vector<FlashAttention> flash{FlashAttention::Off, FlashAttention::On};
  std::string precision = "q4_k_m";
  Params params = Params::TotalAndActive;
};

// The two readings' estimates at one point of a grid, for a caller's own
// checks beyond the equalities.
struct EstimatePair {
  std::int64_t context = 0;
  FlashAttention flash = FlashAttention::Auto;
  Estimate x;
  Estimate y;
};

// Two readings of one model (a config.json and a GGUF header, say) give the
// same parameter counts, and the same KV cache and compute buffer at every
// point of `grid`; the estimates come back.
inline std::vector<EstimatePair> expect_same_estimate(const Model& x, const Model& y,
                                                      const std::string& what,
                                                      const EstimateGrid& grid) {
  if (grid.params != EstimateGrid::Params::None) {
    EXPECT_EQ(count_params(x.arch).total(), count_params(y.arch).total()) << what;
  }
  if (grid.params == EstimateGrid::Params::TotalAndActive) {
    EXPECT_EQ(count_params(x.arch).active(), count_params(y.arch).active()) << what;
  }
  std::vector<EstimatePair> pairs;
  for (const FlashAttention flash : grid.flash) {
    for (const std::int64_t ctx : grid.contexts) {
      EstimatePair p{ctx, flash, llama_cpp_estimate(x, grid.precision, ctx, flash),
                     llama_cpp_estimate(y, grid.precision, ctx, flash)};
      EXPECT_EQ(p.x.memory.kv_cache, p.y.memory.kv_cache)
          << what << " " << ctx << " " << to_string(flash);
      EXPECT_EQ(p.x.memory.compute, p.y.memory.compute)
          << what << " " << ctx << " " << to_string(flash);
      pairs.push_back(std::move(p));
    }
  }
  return pairs;
}

// The same at Q4_K_M with and without flash attention at each context, both
// parameter counts compared.
inline void expect_same_estimate(const Model& x, const Model& y, const std::string& what,
                                 std::initializer_list<std::int64_t> contexts) {
  expect_same_estimate(x, y, what, EstimateGrid{contexts});
}

// Two readings of one purely recurrent model (a config.json and a GGUF,
// say): the same parameter count and, under llama.cpp at Q4_K_M with and
// without flash attention at 4 Ki and 64 Ki tokens, no KV cache but the
// recurrent state, `state_bytes` whatever the context, and the same compute
// buffer, never empty.
inline void expect_same_recurrent_estimate(const Model& c, const Model& g, std::int64_t state_bytes,
                                           const std::string& what) {
  EXPECT_EQ(count_params(c.arch).total(), count_params(g.arch).total()) << what;
  for (const bool flash : {false, true}) {
    for (const std::int64_t ctx : {std::int64_t{4096}, std::int64_t{65536}}) {
      const Estimate ec = llama_cpp_q4_estimate(c, ctx, flash);
      const Estimate eg = llama_cpp_q4_estimate(g, ctx, flash);
      EXPECT_EQ(ec.memory.kv_cache, state_bytes) << what;
      EXPECT_EQ(ec.recurrent_state, ec.memory.kv_cache) << what;
      EXPECT_EQ(eg.memory.kv_cache, ec.memory.kv_cache) << what;
      EXPECT_EQ(eg.memory.compute, ec.memory.compute) << what;
      EXPECT_GT(ec.memory.compute, 0) << what;
    }
  }
}

}  // namespace willfit::test
