// Test helpers for the live llama.cpp tables in tests/data
// (llamacpp_cpu_{compute,kv}_NAME.csv, docs/live-llamacpp.md): each row's
// cells, and willfit's estimate under the row's settings. For tests only.
#pragma once

#include <cstdint>
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

}  // namespace willfit::test
