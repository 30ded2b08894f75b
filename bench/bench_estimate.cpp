// In-process speed of the estimator: one estimate (the inner loop of every
// grid, `max` search and hint), a full fit report (estimate + assumptions +
// hint: the hint re-runs the estimator for each candidate change), and the
// whole CLI answer without process start-up. Target: at least 1 million
// estimates per second (issue 10). Run: build/<preset>/bench/bench_estimate
#include <sstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "cli.hpp"
#include "environment.hpp"
#include "willfit/report.hpp"

namespace {

willfit::InferenceQuery course_query(const char* size, const char* device) {
  willfit::InferenceQuery q;
  q.model = *willfit::model_from_size(*willfit::parse_model_size(size));
  q.precision = *willfit::parse_precision("q4");
  q.devices.devices.push_back(*willfit::raw_device(device));
  q.devices.text = device;
  return q;
}

void BM_EstimateInference(benchmark::State& state) {
  const willfit::InferenceQuery q = course_query("13b", "8gb");
  for (auto _ : state) {
    benchmark::DoNotOptimize(willfit::estimate_inference(q));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EstimateInference);

// A fit report for `size` on an 8 GiB device: 7b fits (no hint to search
// for); 13b does not (the hint tries lower precisions); 405b is the worst
// case (nothing helps, every candidate is estimated).
void BM_MakeFitReport(benchmark::State& state, const char* size) {
  const willfit::InferenceQuery q = course_query(size, "8gb");
  for (auto _ : state) {
    benchmark::DoNotOptimize(willfit::make_fit_report(q));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(BM_MakeFitReport, fits_7b, "7b");
BENCHMARK_CAPTURE(BM_MakeFitReport, no_fit_13b, "13b");
BENCHMARK_CAPTURE(BM_MakeFitReport, hopeless_405b, "405b");

void BM_ModelFromSize(benchmark::State& state) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(willfit::model_from_size(*willfit::parse_model_size("13b")));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ModelFromSize);

// `willfit 13b -p q4 -d 8gb` in-process: parsing, resolving, estimating and
// rendering, without exec, dynamic loading or static initialisation.
void BM_CliCourseQuestion(benchmark::State& state) {
  const std::vector<std::string> args = {"13b", "-p", "q4", "-d", "8gb"};
  const willfit::app::FakeEnvironment env;
  for (auto _ : state) {
    std::ostringstream out;
    std::ostringstream err;
    benchmark::DoNotOptimize(willfit::app::run(args, out, err, env));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CliCourseQuestion);

}  // namespace
