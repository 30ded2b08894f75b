// Test helpers for the live llama.cpp tables in tests/data
// (llamacpp_cpu_{compute,kv}_NAME.csv, docs/live-llamacpp.md): each row's
// cells, and willfit's estimate under the row's settings. For tests only.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "csv.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"

namespace willfit::test {

// Calls `row` with the cells of every row of a live table in tests/data.
template <typename Row>
void for_each_live_row(const std::string& name, const Row& row) {
  std::ifstream in(std::string(WILLFIT_TEST_DATA_DIR) + "/" + name);
  ASSERT_TRUE(in) << name;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    if (line.empty()) {
      continue;
    }
    const auto c = split_csv_line(line);
    ASSERT_GE(c.size(), 10U);
    SCOPED_TRACE(line.substr(0, 60));
    row(c);
  }
}

// willfit's estimate of `model` under llama.cpp on the CPU with a row's file
// type, context, flash attention, KV type and micro-batch.
inline Estimate live_row_estimate(const Model& model, const std::vector<std::string>& c) {
  InferenceQuery q;
  q.model = model;
  q.precision = *parse_precision(c[1]);
  Device ram = *raw_device("1024gb");
  ram.kind = DeviceKind::Cpu;
  q.devices.devices.push_back(ram);
  q.runtime = Runtime::LlamaCpp;
  q.context = std::stoll(c[2]);
  q.flash_attention = c[3] == "on" ? FlashAttention::On : FlashAttention::Off;
  q.kv_type = *parse_kv_type(c[4]);
  q.ubatch = std::stoll(c[5]);
  return estimate_inference(q);
}

// The compute and output buffers llama.cpp logged for a live row, in bytes.
inline double live_row_measured(const std::vector<std::string>& c) {
  return (std::stod(c[6]) + std::stod(c[7])) * static_cast<double>(kMiB);
}

// What a live row measured and willfit's compute term for `model` under the
// row's settings, in bytes; printed as one line of the test's output.
struct LiveCompute {
  double measured = 0;
  double willfit = 0;
};
inline LiveCompute live_row_compute(const Model& model, const std::vector<std::string>& c) {
  const auto mib = static_cast<double>(kMiB);
  const LiveCompute r{live_row_measured(c),
                      static_cast<double>(live_row_estimate(model, c).memory.compute)};
  std::printf(
      "  %-21s %-6s ctx %6s fa %-3s kv %-4s  measured %9.2f MiB  willfit %9.2f MiB  %+6.3f %%\n",
      c[0].c_str(), c[1].c_str(), c[2].c_str(), c[3].c_str(), c[4].c_str(), r.measured / mib,
      r.willfit / mib, (r.willfit - r.measured) / r.measured * 100.0);
  return r;
}

// Checks `model` against a live table pair (llamacpp_cpu_compute_NAME.csv
// and llamacpp_cpu_kv_NAME.csv): each compute row within `compute_rel` of
// what llama.cpp logged, each KV row within the log's rounding (0.01 MiB),
// as many KV rows as compute rows. Returns the compute rows read.
inline std::size_t expect_live_tables(const Model& model, const std::string& name,
                                      double compute_rel) {
  std::size_t rows = 0;
  for_each_live_row("llamacpp_cpu_compute_" + name + ".csv",
                    [&](const std::vector<std::string>& c) {
                      const auto [measured, willfit] = live_row_compute(model, c);
                      EXPECT_LE(std::abs(willfit - measured) / measured, compute_rel)
                          << c[1] << " " << c[2] << " " << c[3] << " " << c[4];
                      ++rows;
                    });
  const auto mib = static_cast<double>(kMiB);
  std::size_t kv_rows = 0;
  for_each_live_row("llamacpp_cpu_kv_" + name + ".csv", [&](const std::vector<std::string>& c) {
    EXPECT_NEAR(static_cast<double>(live_row_estimate(model, c).memory.kv_cache),
                std::stod(c[6]) * mib, 0.01 * mib);
    ++kv_rows;
  });
  EXPECT_EQ(kv_rows, rows) << name;
  return rows;
}

}  // namespace willfit::test
