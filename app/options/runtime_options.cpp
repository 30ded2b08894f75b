#include "options/runtime_options.hpp"

#include <fmt/format.h>

#include "options/options.hpp"
#include "willfit/core/text.hpp"

namespace willfit::app {

void add_runtime_options(CLI::App& app, RuntimeOptions& o) {
  app.add_option("--runtime", o.runtime,
                 "Runtime: llama.cpp (default for GGUF), ollama, vllm, transformers (default "
                 "otherwise), mlx, generic");
  app.add_option("--ubatch", o.ubatch, "Tokens per micro-batch (llama.cpp -ub, default 512)");
  app.add_option("--gpu-layers,--ngl", o.gpu_layers,
                 "llama.cpp layers on the GPU, the output layer included (default: planned)");
  app.add_option("--n-cpu-moe", o.n_cpu_moe,
                 "llama.cpp: keep the experts of the first N blocks on the CPU (default: planned)");
  app.add_option("--cpu-features", o.cpu_features,
                 "llama.cpp on a CPU: avx2 (default), avx512, neon or none; picks the weight "
                 "types its CPU backend repacks");
  app.add_flag("--no-repack", o.no_repack,
               "llama.cpp on a CPU: no repacked copy of the weights (llama.cpp --no-repack)");
  app.add_option("--tensor-split", o.tensor_split,
                 "llama.cpp: share of layers per GPU, e.g. 3,1 (default: by memory)");
  app.add_option("--gpu-memory-utilization", o.gpu_memory_utilization,
                 "vLLM: share of each GPU's total memory the engine takes (default 0.9)");
  app.add_option("--tp", o.tensor_parallel, "vLLM tensor-parallel size (default: every GPU)");
}

Expected<bool> apply_runtime_options(const RuntimeOptions& o, InferenceQuery& q) {
  if (!o.runtime.empty()) {
    auto r = parse_runtime(o.runtime);
    if (!r) {
      return r.error();
    }
    q.runtime = *r;
  }
  if (!o.ubatch.empty()) {
    auto n = parse_count("--ubatch", o.ubatch, 1, 65536);
    if (!n) {
      return n.error();
    }
    q.ubatch = *n;
  }
  if (!o.gpu_layers.empty()) {
    const std::string t = to_lower(trim(o.gpu_layers));
    if (t == "all" || t == "99" || t == "999") {
      q.gpu_layers = q.model.arch.layers + 1;
    } else {
      auto n = parse_count("--gpu-layers", o.gpu_layers, 0, 10000);
      if (!n) {
        return n.error();
      }
      q.gpu_layers = static_cast<int>(*n);
    }
  }
  if (!o.n_cpu_moe.empty()) {
    auto n = parse_count("--n-cpu-moe", o.n_cpu_moe, 0, 10000);
    if (!n) {
      return n.error();
    }
    q.n_cpu_moe = static_cast<int>(*n);
  }
  if (!o.cpu_features.empty()) {
    auto f = parse_cpu_features(o.cpu_features);
    if (!f) {
      return f.error();
    }
    q.cpu_features = *f;
  }
  q.cpu_repack = !o.no_repack;
  if (!o.tensor_split.empty()) {
    std::string cur;
    const std::string text = o.tensor_split + ",";
    for (char c : text) {
      if (c != ',') {
        cur += c;
        continue;
      }
      double v = 0;
      if (!parse_decimal(trim(cur), v)) {
        return make_error(fmt::format(
            "invalid --tensor-split '{}': expected shares separated by commas, e.g. 3,1",
            o.tensor_split));
      }
      q.tensor_split.push_back(v);
      cur.clear();
    }
  }
  if (!o.gpu_memory_utilization.empty()) {
    double v = 0;
    if (!parse_decimal(trim(o.gpu_memory_utilization), v) || v <= 0.0 || v > 1.0) {
      return make_error(fmt::format(
          "invalid --gpu-memory-utilization '{}': expected a share above 0 and at most 1, e.g. 0.9",
          o.gpu_memory_utilization));
    }
    q.gpu_memory_utilization = v;
  }
  if (!o.tensor_parallel.empty()) {
    auto n = parse_count("--tp", o.tensor_parallel, 1, 1024);
    if (!n) {
      return n.error();
    }
    q.tensor_parallel = static_cast<int>(*n);
  }
  return true;
}

Expected<std::int64_t> apply_context_max(InferenceQuery& q) {
  if (q.devices.devices.empty()) {
    return make_error("--context max needs a device: add --device, e.g. --device 24gb");
  }
  const std::int64_t best = max_context(q);
  q.context_is_default = false;
  q.context = best > 0 ? best : 256;
  return best;
}

}  // namespace willfit::app
