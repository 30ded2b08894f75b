// Model files are read header-only: a 100 GB GGUF (sparse, so it costs no
// disk) must read as fast as a 1 MB one (issue 10: under 10 ms, flat in the
// file's size). Compare BM_GgufHeader/1 (a 2 MB file), /1000 (1 GB) and
// /100000 (100 GB): the same header (the same tensors, only larger), so any
// difference is the file's size. Also: the cost of a catalogue lookup, which
// every named-model question pays once, and of a miss in each database.
#include <algorithm>
#include <filesystem>
#include <fstream>

#include <benchmark/benchmark.h>
#include <unistd.h>

#include "sources/device_source.hpp"
#include "sources/embedded_data.hpp"
#include "sources/environment.hpp"
#include "sources/model_source.hpp"
#include "unit/model_file_writers.hpp"
#include "willfit/devices/device_db.hpp"
#include "willfit/models/model_db.hpp"

namespace {

namespace fs = std::filesystem;

// A GGUF whose tensors add up to about `megabytes` MB: a small llama and
// eight more tensors sharing the size; only the header is written, and the
// file is extended (sparse) to its full size.
fs::path make_gguf(std::int64_t megabytes) {
  const fs::path path = fs::temp_directory_path() / ("willfit-bench-" + std::to_string(::getpid()) +
                                                     "-" + std::to_string(megabytes) + ".gguf");
  willfit::test::GgufWriter w = willfit::test::tiny_llama(3);
  const auto target = static_cast<std::uint64_t>(megabytes) * 1'000'000;
  const std::uint64_t rows = std::max<std::uint64_t>(1, target / 8 / (256 * 2));  // F16 rows of 256
  for (int i = 0; i < 8; ++i) {
    w.tensor("blk.1.extra" + std::to_string(i) + ".weight", {256, rows}, willfit::test::kF16);
  }
  std::string header = w.header();
  {
    std::ofstream out(path, std::ios::binary);
    out << header;
  }
  const std::uint64_t data_start = (header.size() + 31) / 32 * 32;
  fs::resize_file(path, data_start + w.data_size());
  return path;
}

void BM_GgufHeader(benchmark::State& state) {
  const fs::path path = make_gguf(state.range(0));
  const willfit::app::SystemEnvironment env;
  for (auto _ : state) {
    auto m = willfit::app::model_from_path(path.string(), env);
    if (!m) {
      state.SkipWithError(m.error().message.c_str());
      break;
    }
    benchmark::DoNotOptimize(m->file_weight_bytes);
  }
  state.counters["file_GB"] = static_cast<double>(fs::file_size(path)) / 1e9;
  fs::remove(path);
}
BENCHMARK(BM_GgufHeader)->Arg(1)->Arg(1'000)->Arg(100'000)->Unit(benchmark::kMicrosecond);

void BM_CatalogueParseAndFind(benchmark::State& state) {
  for (auto _ : state) {
    auto db = willfit::ModelDb::parse(willfit::app::embedded_models_json(), "embedded");
    auto m = db->find("qwen2.5:7b-instruct-q4_K_M");
    benchmark::DoNotOptimize(m.ok());
  }
}
BENCHMARK(BM_CatalogueParseAndFind)->Unit(benchmark::kMicrosecond);

void BM_CatalogueFind(benchmark::State& state) {
  auto db = willfit::ModelDb::parse(willfit::app::embedded_models_json(), "embedded");
  for (auto _ : state) {
    auto m = db->find("meta-llama/Meta-Llama-3.1-8B-Instruct");
    benchmark::DoNotOptimize(m.ok());
  }
}
BENCHMARK(BM_CatalogueFind);

// A name that is in neither database: the lookup fails and writes "did you
// mean", scoring every model name or device key (what each mistyped MODEL or
// --device costs, and most inputs of fuzz_model_name and fuzz_device).
void BM_CatalogueMiss(benchmark::State& state) {
  const auto& db = willfit::app::embedded_model_db();
  for (auto _ : state) {
    auto m = db->find("lama-3.1-8b-instrukt");
    benchmark::DoNotOptimize(m.ok());
  }
}
BENCHMARK(BM_CatalogueMiss)->Unit(benchmark::kMicrosecond);

void BM_DeviceMiss(benchmark::State& state) {
  const auto& db = willfit::app::embedded_device_db();
  for (auto _ : state) {
    auto d = db->find("rtx 4909 super");
    benchmark::DoNotOptimize(d.ok());
  }
}
BENCHMARK(BM_DeviceMiss)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
