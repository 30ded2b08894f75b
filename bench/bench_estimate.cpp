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
#include "sources/environment.hpp"
#include "sources/resolve.hpp"
#include "willfit/planner/report.hpp"

namespace {

willfit::InferenceQuery course_query(const char* size, const char* device) {
  willfit::InferenceQuery q;
  q.model = *willfit::model_from_size(*willfit::parse_model_size(size));
  q.precision = *willfit::parse_precision("q4");
  q.devices.devices.push_back(*willfit::raw_device(device));
  q.devices.text = device;
  return q;
}

// A model and devices as the CLI resolves them (catalogue, device database).
willfit::InferenceQuery resolved_query(const char* model, const char* precision,
                                       const char* devices) {
  const willfit::app::FakeEnvironment env;
  willfit::InferenceQuery q;
  q.model = *willfit::app::resolve_model(model, env);
  q.precision = *willfit::parse_precision(precision);
  q.devices = *willfit::app::resolve_devices(devices, env);
  return q;
}

void run_estimates(benchmark::State& state, const willfit::InferenceQuery& q) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(willfit::estimate_inference(q));
  }
  state.SetItemsProcessed(state.iterations());
}

// The course question: 13b at Q4 does not fit 8 GiB whole, so the estimate
// also searches the offload split.
void BM_EstimateInference(benchmark::State& state) {
  run_estimates(state, course_query("13b", "8gb"));
}
BENCHMARK(BM_EstimateInference);

// 7b at Q4 fits 24 GiB: no offload search.
void BM_EstimateInferenceFits(benchmark::State& state) {
  run_estimates(state, course_query("7b", "24gb"));
}
BENCHMARK(BM_EstimateInferenceFits);

// A catalogue model sized tensor by tensor with llama.cpp's recipe, split
// over two named GPUs.
void BM_EstimateInferenceRecipe(benchmark::State& state) {
  run_estimates(state, resolved_query("llama-3.1-70b", "q4_k_m", "2x rtx 3090"));
}
BENCHMARK(BM_EstimateInferenceRecipe);

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
