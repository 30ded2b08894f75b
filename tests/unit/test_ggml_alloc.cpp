// The replay of ggml's graph allocator (lib/willfit/inference/ggml_alloc.cpp):
// hand cases of its rules, and llama.cpp's compute buffer against what a real
// llama.cpp reserved (tests/data/llamacpp_cpu_compute.csv).
#include "willfit/inference/ggml_alloc.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "catalogue_model.hpp"
#include "csv.hpp"
#include "sources/embedded_data.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/model_db.hpp"

namespace willfit {
namespace {

GraphTensor tensor(std::int64_t bytes, std::vector<int> src = {}, std::vector<int> inplace = {}) {
  GraphTensor t;
  t.bytes = bytes;
  t.src = std::move(src);
  t.inplace = std::move(inplace);
  return t;
}

// a -> b -> c: a is freed once b has run, and c takes its block.
TEST(GgmlAlloc, AFreedBlockIsReused) {
  const std::vector<GraphTensor> g{tensor(1024), tensor(1024, {0}), tensor(1024, {1})};
  EXPECT_EQ(ggml_graph_peak(g), 2048);
}

// a (1024) -> b (512) -> c (4096): a's block is free when c comes, but too
// small, so c goes above b and a hole stays below: 1024 + 512 + 4096.
TEST(GgmlAlloc, AHoleStaysBelowABiggerTensor) {
  const std::vector<GraphTensor> g{tensor(1024), tensor(512, {0}), tensor(4096, {1})};
  EXPECT_EQ(ggml_graph_peak(g), 1024 + 512 + 4096);
}

// Two holes, 3072 and 1024 bytes: a 1024-byte tensor takes the one that fits
// best, so a later 3072-byte one still finds room below the top.
TEST(GgmlAlloc, BestFitTakesTheSmallestHoleThatHolds) {
  std::vector<GraphTensor> g;
  g.push_back(tensor(3072));          // 0: A [0, 3072)
  g.push_back(tensor(1024));          // 1: K1 [3072, 4096), read at the end
  g.push_back(tensor(1024));          // 2: B [4096, 5120)
  g.push_back(tensor(1024));          // 3: K2 [5120, 6144)
  g.push_back(tensor(32, {0, 2}));    // 4: X [6144, 6176); A and B freed: two holes
  g.push_back(tensor(1024, {3, 4}));  // 5: C takes B's hole, not A's
  g.push_back(tensor(3072, {5, 1}));  // 6: D fits A's hole
  EXPECT_EQ(ggml_graph_peak(g), 6176);
}

// An op that may run in place takes its parent's memory when nobody else
// reads the parent; not when someone does, and never an output's.
TEST(GgmlAlloc, InPlaceOnlyOverASoleReader) {
  const std::vector<GraphTensor> alone{tensor(1024), tensor(1024, {0}, {0})};
  EXPECT_EQ(ggml_graph_peak(alone), 1024);
  const std::vector<GraphTensor> shared{tensor(1024), tensor(1024, {0}, {0}), tensor(1024, {0, 1})};
  EXPECT_EQ(ggml_graph_peak(shared), 3072);
  std::vector<GraphTensor> output{tensor(1024), tensor(1024, {0}, {0})};
  output[0].output = true;
  EXPECT_EQ(ggml_graph_peak(output), 2048);
}

// A view owns no memory, keeps its source alive until the view's last
// reader, and cannot be taken over in place (ggml_gallocr_is_own).
TEST(GgmlAlloc, AViewKeepsItsSourceAlive) {
  std::vector<GraphTensor> g{tensor(1024), GraphTensor{}, tensor(1024), tensor(1024, {1, 2}, {1})};
  g[1].view_of = 0;
  g[1].src = {0};
  EXPECT_EQ(ggml_graph_peak(g), 3072);
}

// Inputs are placed before the first node and freed after their last reader;
// sizes round up to the alignment.
TEST(GgmlAlloc, InputsComeFirstAndSizesAreAligned) {
  std::vector<GraphTensor> g{tensor(100), tensor(1000, {0}), tensor(100, {1})};
  g[0].input = true;
  EXPECT_EQ(ggml_graph_peak(g, 32), 128 + 1024);
  EXPECT_EQ(ggml_graph_peak(g, 1), 1100);
}

using test::catalogue_model;

// Calls `row` with the cells of every row of a live compute-buffer table in
// tests/data (model, type, context, flash, kv, n_ubatch, compute, output, ...).
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
    const auto c = test::split_csv_line(line);
    ASSERT_GE(c.size(), 10U);
    SCOPED_TRACE(line.substr(0, 60));
    row(c);
  }
}

// llama.cpp's logged compute and output buffers of a row, in bytes.
double measured_bytes(const std::vector<std::string>& c) {
  return (std::stod(c[6]) + std::stod(c[7])) * static_cast<double>(kMiB);
}

// The replayed graph of `s` plus one sequence's logits (the output buffer)
// against a live row's buffers, in percent; prints the row.
double replay_error(const char* label, const LlamaGraphShape& s,
                    const std::vector<std::string>& c) {
  const double output = 4.0 * static_cast<double>(s.vocab);
  const double willfit = static_cast<double>(ggml_graph_peak(llama_forward_graph(s))) + output;
  const double measured = measured_bytes(c);
  const double err = (willfit - measured) / measured * 100.0;
  std::printf("  %s ctx %6s fa %-3s kv %-4s  measured %9.2f MiB  willfit %9.2f MiB  %+6.2f %%\n",
              label, c[2].c_str(), c[3].c_str(), c[4].c_str(), measured / static_cast<double>(kMiB),
              willfit / static_cast<double>(kMiB), err);
  return err;
}

// willfit's CPU-only llama.cpp compute term (the graph's buffer and the
// logits output buffer) for the catalogue's model in a live row's
// configuration.
double catalogue_compute(const std::vector<std::string>& c) {
  InferenceQuery q;
  q.model = catalogue_model(c[0]);
  q.precision = *parse_precision(c[1]);
  Device ram = *raw_device("1024gb");
  ram.kind = DeviceKind::Cpu;
  q.devices.devices.push_back(ram);
  q.runtime = Runtime::LlamaCpp;
  q.context = std::stoll(c[2]);
  q.flash_attention = c[3] == "on" ? FlashAttention::On : FlashAttention::Off;
  q.kv_type = *parse_kv_type(c[4]);
  q.ubatch = std::stoll(c[5]);
  return static_cast<double>(estimate_inference(q).memory.compute);
}

// That term against what llama.cpp logged for a file of that architecture,
// every row within the live gate.
TEST(GgmlAlloc, ComputeBufferMatchesTheLiveLlamaCpp) {
  std::vector<double> errors;
  for_each_live_row("llamacpp_cpu_compute.csv", [&](const std::vector<std::string>& c) {
    const double compute = catalogue_compute(c);
    const double measured = measured_bytes(c);
    const double err = (compute - measured) / measured * 100.0;
    std::printf(
        "  %-16s %-6s ctx %6s fa %-3s kv %-4s  measured %9.2f MiB  willfit %9.2f MiB  %+6.2f %%\n",
        c[0].c_str(), c[1].c_str(), c[2].c_str(), c[3].c_str(), c[4].c_str(),
        measured / static_cast<double>(kMiB), compute / static_cast<double>(kMiB), err);
    EXPECT_LE(std::abs(err), 5.0);
    errors.push_back(std::abs(err));
  });
  ASSERT_GE(errors.size(), 60U);
  std::sort(errors.begin(), errors.end());
  std::printf("| llama.cpp CPU compute buffer (live) | %zu | %.2f %% | %.2f %% |\n", errors.size(),
              errors[errors.size() / 2], errors.back());
}

// Qwen3-Next-80B-A3B's graph (gated delta nets, gated attention every 4th
// layer, 512 experts and a gated shared expert; shapes from its config.json,
// Qwen/Qwen3-Next-80B-A3B-Instruct on the Hugging Face hub) against what a
// real llama.cpp reserved for its synthetic Q8_0 file
// (tests/data/llamacpp_cpu_compute_qwen3next.csv). The catalogue does not
// carry the delta net's heads, so the shape is built here from the config.
TEST(GgmlAlloc, Qwen3NextComputeBufferMatchesTheLiveLlamaCpp) {
  std::vector<double> errors;
  for_each_live_row("llamacpp_cpu_compute_qwen3next.csv", [&](const std::vector<std::string>& c) {
    LlamaGraphShape s;
    s.tokens = std::stoll(c[5]);
    s.cells = std::stoll(c[2]);  // a multiple of 256: no padding
    s.layers = 48;
    s.hidden = 2048;
    s.heads = 16;
    s.kv_heads = 2;
    s.head_dim = 256;
    s.experts = 512;
    s.experts_used = 10;
    s.expert_ffn = 512;
    s.shared_ffn = 512;
    s.vocab = 151936;
    for (int i = 0; i < s.layers; ++i) {
      s.mixers += (i + 1) % 4 == 0 ? 'A' : 'R';  // full_attention_interval 4
    }
    s.dn_k_heads = 16;  // linear_num_key_heads
    s.dn_v_heads = 32;  // linear_num_value_heads
    s.dn_head = 128;    // linear_key_head_dim = linear_value_head_dim
    s.dn_conv = 4;      // linear_conv_kernel_dim
    s.gated_attention = true;
    s.shared_gate = true;
    s.out_ids_after_norm = true;
    s.flash = c[3] == "on";
    s.rotate_k = s.rotate_v = c[4] == "q8_0";
    const double err = replay_error("qwen3-next", s, c);
    EXPECT_LE(std::abs(err), 5.0);
    errors.push_back(std::abs(err));
  });
  ASSERT_EQ(errors.size(), 9U);
  std::sort(errors.begin(), errors.end());
  EXPECT_LE(errors[errors.size() / 2], 1.0);  // the flash rows are exact
}

// Falcon-H1-0.5B's graph (a Mamba-2 mixer beside the attention of every
// layer; shapes from its config.json as NVIDIA-NeMo/Megatron-Bridge quotes it,
// tests/unit_tests/models/falcon_h1/test_falcon_h1_bridge.py at ebd91e97)
// against what a real llama.cpp reserved for its synthetic Q8_0 file
// (tests/data/llamacpp_cpu_compute_falcon_h1.csv), and the catalogue's
// Falcon-H1-0.5B through the whole estimate.
TEST(GgmlAlloc, FalconH1ComputeBufferMatchesTheLiveLlamaCpp) {
  std::vector<double> errors;
  for_each_live_row("llamacpp_cpu_compute_falcon_h1.csv", [&](const std::vector<std::string>& c) {
    LlamaGraphShape s;
    s.tokens = std::stoll(c[5]);
    s.cells = std::stoll(c[2]);  // a multiple of 256: no padding
    s.layers = 36;
    s.hidden = 1024;
    s.heads = 8;
    s.kv_heads = 2;
    s.head_dim = 64;
    s.ffn = 2048;
    s.vocab = 32784;
    s.m2_inner = 24 * 64;  // mamba_n_heads x mamba_d_head (mamba_d_ssm)
    s.m2_heads = 24;
    s.m2_groups = 1;
    s.m2_state = 128;
    s.m2_conv = 4;
    s.flash = c[3] == "on";
    s.rotate_k = s.rotate_v = c[4] == "q8_0";
    const double err = replay_error("falcon-h1", s, c);
    EXPECT_LE(std::abs(err), 1.0);  // every row within the log's rounding but one (0.04 %)
    errors.push_back(std::abs(err));
    // The catalogue's Falcon-H1-0.5B carries the mixer's sizes too.
    const double measured = measured_bytes(c);
    EXPECT_LE(std::abs(catalogue_compute(c) - measured) / measured * 100.0, 1.0);
  });
  ASSERT_EQ(errors.size(), 9U);
}

}  // namespace
}  // namespace willfit
