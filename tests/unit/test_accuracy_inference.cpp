// Accuracy against the world: every row in tests/data (GGUF file sizes,
// llama.cpp load logs, PyTorch peak memory) goes through the same lib calls
// the CLI makes, and the test prints each row's error and the median and
// maximum per group, beside the naive rule (params x bytes x 1.2). It fails
// beyond the targets of issue 5. No row has a constant of its own.
//
// Regenerate the table of docs/accuracy.md with:
//   build/dev/tests/willfit_tests --gtest_filter='Accuracy*' 2>&1 | grep '^|'
#include <gtest/gtest.h>

#include "csv.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sources/embedded_data.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/model_db.hpp"
#include "willfit/models/model_size.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Row = std::map<std::string, std::string>;

using test::split_csv_line;

std::vector<Row> read_csv(const std::string& name) {
  std::ifstream in(std::string(WILLFIT_TEST_DATA_DIR) + "/" + name);
  std::vector<Row> rows;
  std::string line;
  std::vector<std::string> header;
  while (std::getline(in, line)) {
    if (line.empty()) {
      continue;
    }
    auto cells = split_csv_line(line);
    if (header.empty()) {
      header = cells;
      continue;
    }
    Row r;
    for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i) {
      r[header[i]] = cells[i];
    }
    rows.push_back(r);
  }
  return rows;
}

double num(const Row& r, const std::string& key) {
  return std::stod(r.at(key));
}

Bytes to_bytes(double value, const std::string& unit) {
  if (unit == "GiB") {
    return round_bytes(value * static_cast<double>(kGiB));
  }
  if (unit == "MiB" || unit == "MB") {  // llama.cpp's old "MB" was MiB
    return round_bytes(value * static_cast<double>(kMiB));
  }
  if (unit == "GB") {
    return round_bytes(value * 1e9);
  }
  return round_bytes(value);
}

// The models the rows name, built from tests/data/accuracy_models.csv.
Model model_named(const std::string& name) {
  static const std::vector<Row> rows = read_csv("accuracy_models.csv");
  for (const auto& r : rows) {
    if (r.at("model") != name) {
      continue;
    }
    Model m;
    m.name = name;
    m.id = name;
    m.source = FactSource::Catalogue;
    m.params = static_cast<std::int64_t>(num(r, "params"));
    Architecture& a = m.arch;
    a.layers = static_cast<int>(num(r, "layers"));
    a.hidden_size = static_cast<std::int64_t>(num(r, "hidden"));
    a.intermediate_size = static_cast<std::int64_t>(num(r, "intermediate"));
    a.heads = static_cast<int>(num(r, "heads"));
    a.kv_heads = static_cast<int>(num(r, "kv_heads"));
    a.head_dim = static_cast<int>(num(r, "head_dim"));
    a.vocab_size = static_cast<std::int64_t>(num(r, "vocab"));
    a.tied_embeddings = r.at("tied") == "true";
    a.mlp_gated = r.at("gated") == "true";
    if (num(r, "experts") > 0) {
      a.moe =
          Moe{static_cast<int>(num(r, "experts")), static_cast<int>(num(r, "experts_per_token")), 0,
              static_cast<std::int64_t>(num(r, "expert_intermediate")), 0};
    }
    const ParamBreakdown p = count_params(a);
    m.active_params = m.is_moe() ? p.active() : m.params;
    return m;
  }
  ADD_FAILURE() << "no model '" << name << "' in accuracy_models.csv";
  return {};
}

struct Stats {
  std::vector<double> errors;  // signed, percent
  std::vector<double> naive;   // the naive rule's signed error, percent
  void add(double err, double naive_err = std::nan("")) {
    errors.push_back(err);
    naive.push_back(naive_err);
  }
  static double median_abs(std::vector<double> v) {
    v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return std::isnan(x); }), v.end());
    if (v.empty()) {
      return std::nan("");
    }
    for (auto& x : v) {
      x = std::fabs(x);
    }
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
  }
  static double max_abs(const std::vector<double>& v) {
    double m = std::nan("");
    for (double x : v) {
      if (!std::isnan(x)) {
        m = std::isnan(m) ? std::fabs(x) : std::max(m, std::fabs(x));
      }
    }
    return m;
  }
  [[nodiscard]] double median() const { return median_abs(errors); }
  [[nodiscard]] double max() const { return max_abs(errors); }
  static std::string cell(double x) {
    char buf[32];
    if (std::isnan(x)) {
      return "-";
    }
    std::snprintf(buf, sizeof buf, "%.1f %%", x);
    return buf;
  }
  void print(const char* group) const {
    std::printf("| %-34s | %4zu | %6.2f %% | %6.2f %% | %10s | %10s |\n", group, errors.size(),
                median(), max(), cell(median_abs(naive)).c_str(), cell(max_abs(naive)).c_str());
  }
};

double pct(Bytes estimate, Bytes measured) {
  return 100.0 * (static_cast<double>(estimate) - static_cast<double>(measured)) /
         static_cast<double>(measured);
}

void header() {
  static bool done = false;
  if (!done) {
    std::printf("| %-34s | %4s | %8s | %8s | %10s | %10s |\n", "group", "rows", "median", "max",
                "naive med", "naive max");
    std::printf("|%s|%s|%s|%s|%s|%s|\n", std::string(36, '-').c_str(), std::string(6, '-').c_str(),
                std::string(10, '-').c_str(), std::string(10, '-').c_str(),
                std::string(12, '-').c_str(), std::string(12, '-').c_str());
    done = true;
  }
}

// The naive rule: params x bytes per weight x 1.2.
Bytes naive(const Model& m, double bits) {
  return round_bytes(static_cast<double>(m.params) * bits / 8.0 * 1.2);
}

// GGUF weight bytes: llama.cpp's recipe on the real architecture. Also
// printed: the whole-file bits per weight (Llama-3.1-8B's) and the recipe on
// the architecture willfit assumes for a bare size, which decide what a bare
// "13b" uses.
TEST(AccuracyGguf, WeightBytesMatchRealFiles) {
  Stats recipe;
  Stats bpw;
  Stats assumed;
  for (const auto& r : read_csv("gguf_weights.csv")) {
    const Model m = model_named(r.at("model"));
    const auto p = parse_precision(r.at("quant"));
    ASSERT_TRUE(p.ok()) << r.at("quant");
    const Bytes measured = to_bytes(num(r, "value"), r.at("unit"));
    const Bytes est = weight_layout(m, *p).total();
    Model flat = m;
    flat.arch = Architecture{};  // no shape: the whole-file bits per weight
    const Bytes whole = weight_layout(flat, *p).total();
    SizeSpec size;
    size.params = static_cast<double>(m.params);
    size.text = r.at("model");
    const Model bare_model = *model_from_size(size);
    const Bytes bare = weight_layout(bare_model, *p).total();
    const double e = pct(est, measured);
    const bool excluded = !r.at("excluded").empty();
    std::printf(
        "  %s %-16s %-8s measured %14lld estimate %14lld  %+6.2f %%  (whole-file bpw "
        "%+6.2f %%, assumed shape %+6.2f %%)%s\n",
        r.at("case_id").c_str(), r.at("model").c_str(), r.at("quant").c_str(),
        static_cast<long long>(measured), static_cast<long long>(est), e, pct(whole, measured),
        pct(bare, measured), excluded ? "  [excluded: see data]" : "");
    if (excluded) {
      continue;
    }
    recipe.add(e, pct(naive(m, p->bits_per_weight), measured));
    bpw.add(pct(whole, measured));
    assumed.add(pct(bare, measured));
  }
  header();
  recipe.print("GGUF weight bytes (recipe)");
  bpw.print("GGUF weights, whole-file bpw");
  assumed.print("GGUF weights, bare size");
  EXPECT_LE(recipe.median(), 2.0);
  EXPECT_LE(recipe.max(), 5.0);
}

// Published GGUF files of the hybrid families (LFM2 short convolutions,
// Granite 4 Mamba-2 with experts, Qwen3.5 gated delta nets) against
// llama.cpp's recipe on the catalogue's architecture of each: the Mamba,
// convolution and delta-net tensors are sized by their own rules; Gemma 3n's
// library package by Ollama's quantizer, which leaves the per-layer
// embeddings at 16 bits. The sizes are as the Ollama pages print them, to
// two or three significant digits, or as llama-bench and llama-server report
// them (the notes say how coarse). An Ollama library package of a vision
// model (qwen3.5, gemma4) holds the vision tower in the same blob, so the
// package is the weights and the projector term together.
TEST(AccuracyGguf, HybridFilesOfTheCatalogue) {
  const auto db = ModelDb::parse(app::embedded_models_json(), "embedded");
  ASSERT_TRUE(db.ok());
  Stats recipe;
  for (const auto& r : read_csv("gguf_hybrid_files.csv")) {
    const auto found = db->find(r.at("model"));
    ASSERT_TRUE(found.ok()) << r.at("model");
    // An Ollama tag stands for the library's package (Ollama's quantizer).
    const Model m = model_from_match(*found);
    const auto p = parse_precision(r.at("quant"));
    ASSERT_TRUE(p.ok()) << r.at("quant");
    const Bytes measured = to_bytes(num(r, "value"), r.at("unit"));
    const WeightLayout layout = weight_layout(m, *p);
    const bool package_holds_tower = m.ollama_tag && !m.ollama_text_only;
    const Bytes est = layout.total() + (package_holds_tower ? layout.projector : 0);
    const double e = pct(est, measured);
    std::printf("  %s %-20s %-8s measured %14lld estimate %14lld  %+6.2f %%\n",
                r.at("case_id").c_str(), r.at("model").c_str(), r.at("quant").c_str(),
                static_cast<long long>(measured), static_cast<long long>(est), e);
    recipe.add(e, pct(naive(m, p->bits_per_weight), measured));
  }
  header();
  recipe.print("GGUF weight bytes, hybrid families");
  EXPECT_GE(recipe.errors.size(), 26U);
  EXPECT_LE(recipe.median(), 2.0);
  EXPECT_LE(recipe.max(), 3.0);
}

// A raw device large enough that everything stays on it.
DeviceSet big_gpu() {
  DeviceSet d;
  d.devices.push_back(*raw_device("1tb"));
  d.text = "1tb";
  return d;
}

Bytes term(const Estimate& e, const std::string& key) {
  for (const auto& t : e.terms) {
    if (t.key == key) {
      return t.bytes;
    }
  }
  return 0;
}

// llama.cpp KV cache (exact) and compute buffers (20 %) against load logs.
TEST(AccuracyLlamaCpp, KvCacheAndComputeBuffersMatchLogs) {
  Stats kv;
  Stats compute;
  Stats host;
  for (const auto& r : read_csv("llamacpp_buffers.csv")) {
    InferenceQuery q;
    q.model = model_named(r.at("model"));
    q.precision = *parse_precision(r.at("quant"));
    q.runtime = Runtime::LlamaCpp;
    q.devices = big_gpu();
    q.context = static_cast<std::int64_t>(num(r, "context_per_seq"));
    q.batch = static_cast<int>(num(r, "sequences"));
    q.ubatch = static_cast<std::int64_t>(num(r, "n_ubatch"));
    q.flash_attention = r.at("flash_attn") == "on" ? FlashAttention::On : FlashAttention::Off;
    q.kv_pad = static_cast<std::int64_t>(num(r, "kv_pad"));
    const Estimate e = estimate_inference(q);
    const std::string& what = r.at("quantity");
    const Bytes measured = to_bytes(num(r, "value"), r.at("unit"));
    const Bytes est = what == "kv_cache"         ? e.memory.kv_cache
                      : what == "compute_device" ? e.memory.compute
                                                 : term(e, "compute_host");
    const double err = pct(est, measured);
    const bool excluded = !r.at("excluded").empty();
    std::printf("  %s %-16s %-14s ctx %6s x %s  measured %11lld estimate %11lld  %+7.2f %%%s\n",
                r.at("case_id").c_str(), r.at("model").c_str(), what.c_str(),
                r.at("context_per_seq").c_str(), r.at("sequences").c_str(),
                static_cast<long long>(measured), static_cast<long long>(est), err,
                excluded ? "  [excluded: see data]" : "");
    if (excluded) {
      continue;
    }
    (what == "kv_cache" ? kv : what == "compute_device" ? compute : host).add(err);
  }
  header();
  kv.print("llama.cpp KV cache");
  compute.print("llama.cpp compute buffer (GPU)");
  host.print("llama.cpp compute buffer (host)");
  EXPECT_LE(kv.max(), 0.5);
  EXPECT_LE(compute.max(), 20.0);
}

// PyTorch peak (torch.cuda.max_memory_allocated during generate) for Qwen2.5
// in BF16, GPTQ-Int8/Int4 and AWQ at four prompt lengths.
TEST(AccuracyPytorch, PeakMemoryMatchesQwenBenchmark) {
  Stats all;
  std::map<std::string, Stats> by_precision;
  for (const auto& r : read_csv("pytorch_peak.csv")) {
    InferenceQuery q;
    q.model = model_named(r.at("model"));
    q.precision = *parse_precision(r.at("precision"));
    q.runtime = Runtime::Transformers;
    for (int i = 0; i < static_cast<int>(num(r, "gpus")); ++i) {
      q.devices.devices.push_back(*raw_device("80gb"));  // A100 80GB
    }
    const auto input = static_cast<std::int64_t>(num(r, "input_tokens"));
    q.context = input + static_cast<std::int64_t>(num(r, "generated_tokens"));
    q.prompt_tokens = input;
    q.batch = static_cast<int>(num(r, "batch"));
    const Estimate e = estimate_inference(q);
    // max_memory_allocated: what the allocator holds, without the CUDA context or margin.
    const Bytes est = e.memory.weights + e.memory.kv_cache + e.memory.compute;
    const Bytes measured = to_bytes(num(r, "value"), r.at("unit"));
    const double bits = q.precision.id == "bf16" ? 16 : q.precision.id == "gptq-int8" ? 8 : 4;
    const double err = pct(est, measured);
    std::printf("  %s %-14s %-9s prompt %5lld  measured %12lld estimate %12lld  %+6.2f %%\n",
                r.at("case_id").c_str(), r.at("model").c_str(), r.at("precision").c_str(),
                static_cast<long long>(input), static_cast<long long>(measured),
                static_cast<long long>(est), err);
    const double naive_err = pct(naive(q.model, bits), measured);
    all.add(err, naive_err);
    by_precision[r.at("precision")].add(err, naive_err);
  }
  header();
  all.print("PyTorch peak, Qwen2.5 (all)");
  for (const auto& [name, s] : by_precision) {
    s.print(("PyTorch peak, " + name).c_str());
  }
  EXPECT_LE(all.median(), 3.0);
  EXPECT_LE(all.max(), 10.0);
}

// Qwen3's speed benchmark (transformers 4.51.3, flash-attention 2, H20): BF16,
// FP8, GPTQ-Int8 and AWQ at four prompt lengths, each followed by 2048
// generated tokens. First what the table holds: from a 6144- to a 30720-token
// prompt the measured memory rises by exactly the KV cache of the 24576 extra
// tokens, while a prefill peak would rise by the prompt's MLP activations as
// well (2 x (3 f + 4 e) bytes per token, several times the KV cache). So the
// column is the memory held at the end of generation, not the prefill peak
// that max_memory_allocated would record (the Qwen2.5 table above, same
// script under transformers 4.46, does show it). willfit's end-of-generation
// holding is the estimate of the same context with a one-token prompt (no
// prefill to speak of): weights, the whole cache and one layer's K copied by
// torch.cat. That is gated; the prefill peak willfit answers with is printed.
TEST(AccuracyPytorch, Qwen3BenchmarkHoldsTheEndOfGeneration) {
  const std::vector<Row> rows = read_csv("transformers_qwen3.csv");
  ASSERT_EQ(rows.size(), 80U);
  std::map<std::string, std::map<std::int64_t, Bytes>> series;
  Stats end_all;
  Stats peak_all;
  std::map<std::string, Stats> end_by;
  for (const auto& r : rows) {
    InferenceQuery q;
    q.model = model_named(r.at("model"));
    q.precision = *parse_precision(r.at("precision"));
    q.runtime = Runtime::Transformers;
    q.devices.devices.push_back(*raw_device("96gb"));  // H20 96GB
    const auto input = static_cast<std::int64_t>(num(r, "input_tokens"));
    q.context = input + static_cast<std::int64_t>(num(r, "generated_tokens"));
    q.batch = static_cast<int>(num(r, "batch"));
    const Bytes measured = to_bytes(num(r, "value"), r.at("unit"));
    series[r.at("model") + " " + r.at("precision")][input] = measured;
    q.prompt_tokens = input;
    const Estimate peak = estimate_inference(q);
    q.prompt_tokens = 1;
    const Estimate end = estimate_inference(q);
    const auto allocated = [](const Estimate& e) {
      return e.memory.weights + e.memory.kv_cache + e.memory.compute;
    };
    const double end_err = pct(allocated(end), measured);
    const double peak_err = pct(allocated(peak), measured);
    std::printf(
        "  %s %-14s %-9s prompt %5lld  measured %12lld  end %12lld %+6.2f %%  peak %+6.2f %%\n",
        r.at("case_id").c_str(), r.at("model").c_str(), r.at("precision").c_str(),
        static_cast<long long>(input), static_cast<long long>(measured),
        static_cast<long long>(allocated(end)), end_err, peak_err);
    end_by[r.at("precision")].add(end_err);
    peak_all.add(peak_err);
    // AWQ ran in another environment (AutoAWQ, no flash-attn listed) whose
    // memory rises faster than the cache (printed below), and a tied model's
    // load-time copy (the Qwen2.5 rows) is a transient the end state no
    // longer holds: printed, not gated.
    if (r.at("precision") != "awq") {
      end_all.add(end_err);
    }
  }
  // The table's shape: the rise from 6144 to 30720 prompt tokens is the KV
  // cache of 24576 tokens (within 1 %), in every series run under flash-attention 2.
  for (const auto& [name, points] : series) {
    const Model m = model_named(name.substr(0, name.find(' ')));
    const Bytes rise = points.at(30720) - points.at(6144);
    const Bytes kv = kv_cache_bytes(m.arch, {24576, 1, 512, kv_f16(), kv_f16(), 1});
    const double mlp = 2.0 * 24576 *
                       (3.0 * static_cast<double>(m.arch.intermediate_size) +
                        4.0 * static_cast<double>(m.arch.hidden_size));
    const double err = pct(rise, kv);
    std::printf(
        "  rise 6144 -> 30720 tokens  %-20s measured %11lld  KV %11lld  %+6.2f %%  (prefill MLP "
        "would add %.0f MiB)\n",
        name.c_str(), static_cast<long long>(rise), static_cast<long long>(kv), err,
        mlp / static_cast<double>(kMiB));
    if (name.find("awq") == std::string::npos) {
      EXPECT_LE(std::fabs(err), 1.0) << name;
    }
  }
  header();
  end_all.print("Qwen3 end state (flash-attn 2)");
  for (const auto& [name, s] : end_by) {
    s.print(("Qwen3 end state, " + name).c_str());
  }
  peak_all.print("Qwen3 vs willfit peak (printed)");
  // The end state is weights + cache + one layer's K: no activation guess in
  // it, so it is held to the weights' and the cache's own accuracy.
  EXPECT_LE(end_all.median(), 1.0);
  EXPECT_LE(end_all.max(), 4.0);
}

// vLLM start-up logs: KV blocks and the activation peak. Printed, not
// asserted: the logs span versions whose profiling differs (vllm#2031 changed
// the 70B figure by a third).
TEST(AccuracyVllm, StartupFiguresArePrinted) {
  Stats blocks;
  Stats activation;
  for (const auto& r : read_csv("vllm_logs.csv")) {
    InferenceQuery q;
    q.model = model_named(r.at("model"));
    q.precision = *parse_precision(r.at("precision"));
    q.runtime = Runtime::Vllm;
    q.context = static_cast<std::int64_t>(num(r, "context"));
    q.gpu_memory_utilization = num(r, "utilization");
    q.tensor_parallel = static_cast<int>(num(r, "tensor_parallel"));
    for (int i = 0; i < static_cast<int>(num(r, "gpus")); ++i) {
      q.devices.devices.push_back(*raw_device(r.at("gpu_memory_gib") + "gb"));
    }
    const Estimate e = estimate_inference(q);
    ASSERT_TRUE(e.vllm.has_value());
    const bool is_blocks = r.at("unit") == "blocks";
    const Bytes est = is_blocks ? e.vllm->kv_tokens / 16 : e.memory.compute / q.tensor_parallel;
    const Bytes measured =
        is_blocks ? static_cast<Bytes>(num(r, "value")) : to_bytes(num(r, "value"), r.at("unit"));
    const double err = pct(est, measured);
    std::printf("  %s %-12s %-22s measured %12lld estimate %12lld  %+7.2f %%\n",
                r.at("case_id").c_str(), r.at("model").c_str(), r.at("quantity").c_str(),
                static_cast<long long>(measured), static_cast<long long>(est), err);
    (is_blocks ? blocks : activation).add(err);
  }
  header();
  blocks.print("vLLM KV blocks (printed only)");
  activation.print("vLLM activations (printed only)");
  EXPECT_FALSE(blocks.errors.empty());
}

}  // namespace
}  // namespace willfit
