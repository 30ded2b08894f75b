#include "options/runtime_options.hpp"

#include <fmt/format.h>

#include "options/options.hpp"
#include "willfit/core/text.hpp"
#include "willfit/inference/runtime.hpp"
#include "willfit/inference/runtime_architectures.hpp"

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
                 "llama.cpp on a CPU: avx2, avx512, amx, neon or none (default: detected with "
                 "--device auto, else avx2); picks the weights its CPU backend copies");
  app.add_flag("--no-repack", o.no_repack,
               "llama.cpp on a CPU: no repacked copy of the weights (llama.cpp --no-repack)");
  app.add_flag("--no-mmap", o.no_mmap,
               "llama.cpp on a CPU: read the weights into memory instead of mapping the file "
               "(llama.cpp --no-mmap): none of it is reclaimable page cache");
  app.add_flag("--mlock", o.mlock,
               "llama.cpp on a CPU: lock the mapped weights in memory (llama.cpp --mlock): not "
               "reclaimable");
  app.add_option("--tensor-split", o.tensor_split,
                 "llama.cpp: share of layers per GPU, e.g. 3,1 (default: by memory)");
  app.add_option("--gpu-memory-utilization", o.gpu_memory_utilization,
                 "vLLM: share of each GPU's total memory the engine takes (default 0.9)");
  app.add_option("--tp", o.tensor_parallel, "vLLM tensor-parallel size (default: every GPU)");
  app.add_flag("--text-only", o.text_only,
               "Leave a multimodal model's vision/audio encoder and projector (mmproj) out");
}

Expected<bool> check_kv_type_for_runtime(const InferenceQuery& q) {
  // Without a runtime named and without devices the default is not known
  // yet (a Mac defaults float models to llama.cpp): each answer checks it.
  if (!q.kv_type.quantised() || (!q.runtime && q.devices.devices.empty())) {
    return true;
  }
  const Runtime runtime = q.runtime.value_or(default_runtime(q.model, q.precision, q.devices));
  const std::string chosen =
      q.runtime ? fmt::format("--runtime {}", to_string(runtime))
                : fmt::format("{} by default for {}", to_string(runtime), q.precision.name);
  switch (runtime) {
    case Runtime::LlamaCpp:
    case Runtime::Ollama:
    case Runtime::Generic:
      return true;
    case Runtime::Vllm:
      // vLLM's --kv-cache-dtype takes auto (the model's dtype) or fp8 variants
      // (docs.vllm.ai, features/quantization/quantized_kvcache); ggml's block
      // types are llama.cpp's.
      return make_error(fmt::format(
          "--kv-type {} is a llama.cpp cache type, and vLLM does not store one: use f16 or bf16 "
          "with --runtime vllm (its fp8 cache is not modelled)",
          q.kv_type.id));
    case Runtime::Transformers:
      // transformers' QuantizedCache (cache_implementation="quantized",
      // quanto or HQQ backends) keeps its own layout and the latest tokens
      // in 16 bits (residual_length): not ggml's blocks, and not modelled.
      return make_error(fmt::format(
          "--kv-type {} is a llama.cpp cache type, and the runtime is transformers ({}), whose "
          "quantised cache (QuantizedCache, quanto or HQQ) willfit does not model: use f16 or "
          "bf16, or add --runtime llama.cpp",
          q.kv_type.id, chosen));
    case Runtime::Mlx:
      return make_error(fmt::format(
          "--kv-type {} is a llama.cpp cache type, and mlx_lm's quantised cache (--kv-bits) is "
          "not modelled: use f16 or bf16 with --runtime mlx",
          q.kv_type.id));
  }
  return true;
}

Expected<bool> check_runtime_for_devices(const InferenceQuery& q) {
  if (!q.runtime) {
    // The default runtime runs on every device, except for weights it has
    // no kernel for there (NF4 under transformers on a Mac, which nothing
    // on a Mac loads: runtime_device_conflict).
    if (q.devices.devices.empty()) {
      return true;
    }
    const Runtime runtime = default_runtime(q.model, q.precision, q.devices);
    if (std::string why = runtime_devices_conflict(runtime, q.precision, q.devices); !why.empty()) {
      return make_error(fmt::format("{} runs under {} by default, and {}", q.precision.name,
                                    to_string(runtime), why));
    }
    return true;
  }
  // Weights the runtime does not load (GPTQ under llama.cpp, a GGUF type
  // under transformers) make no answer: runtime_precision_conflict.
  if (std::string why = runtime_precision_conflict(*q.runtime, q.precision); !why.empty()) {
    return make_error(fmt::format("--runtime {}: {}", to_string(*q.runtime), why));
  }
  if (std::string why = runtime_devices_conflict(*q.runtime, q.precision, q.devices);
      !why.empty()) {
    return make_error(fmt::format("--runtime {}: {}", to_string(*q.runtime), why));
  }
  return true;
}

Expected<bool> check_runtime_for_model(const InferenceQuery& q) {
  // For an RWKV-6/7 model the default does not hang on the devices: a float
  // precision defaults to llama.cpp (default_runtime), any other to
  // transformers wherever it runs.
  const Runtime runtime = q.runtime.value_or(default_runtime(q.model, q.precision, q.devices));
  const std::string why = runtime_model_conflict(runtime, q.model);
  if (why.empty()) {
    return true;
  }
  if (q.runtime) {
    return make_error(fmt::format("--runtime {}: {}", to_string(runtime), why));
  }
  return make_error(fmt::format("{} runs under {} by default, and {}", q.precision.name,
                                to_string(runtime), why));
}

namespace {

// Options that only one runtime reads would be silently ignored by another:
// each is refused there, with the runtime in play and how it was chosen.
// llama.cpp's (-ngl, --n-cpu-moe, --tensor-split, -ub) are read by the
// llama.cpp family (llama.cpp, Ollama, and the generic rule built on it);
// vLLM's (--gpu-memory-utilization, --tp) by vLLM alone.
Expected<bool> refuse_foreign_runtime_options(const RuntimeOptions& o, const InferenceQuery& q) {
  const Runtime runtime = q.runtime.value_or(default_runtime(q.model, q.precision, q.devices));
  const std::string chosen =
      q.runtime ? fmt::format("--runtime {}", to_string(runtime))
                : fmt::format("{} by default for {}", to_string(runtime), q.precision.name);
  const bool llama_family =
      runtime == Runtime::LlamaCpp || runtime == Runtime::Ollama || runtime == Runtime::Generic;
  struct Given {
    const char* option;
    const std::string& text;
  };
  if (!llama_family) {
    for (const Given& g : {Given{"--gpu-layers", o.gpu_layers}, Given{"--n-cpu-moe", o.n_cpu_moe},
                           Given{"--tensor-split", o.tensor_split}, Given{"--ubatch", o.ubatch}}) {
      if (!g.text.empty()) {
        return make_error(fmt::format(
            "{} is a llama.cpp option, and the runtime is {} ({}), which does not read it: "
            "drop it, or add --runtime llama.cpp",
            g.option, to_string(runtime), chosen));
      }
    }
  }
  // Ollama has no way to keep experts on the CPU (runtime.cpp, llama_family:
  // its options and variables at fb307609), so --n-cpu-moe would answer a
  // run that Ollama cannot make.
  if (runtime == Runtime::Ollama && !o.n_cpu_moe.empty()) {
    return make_error(fmt::format(
        "--n-cpu-moe is a llama.cpp option, and Ollama ({}) has none like it: it offloads whole "
        "layers (num_gpu, --gpu-layers here); drop it, or add --runtime llama.cpp",
        chosen));
  }
  // llama.cpp's CPU-backend flags (--cpu-features, --no-repack, --no-mmap,
  // --mlock) change only a CPU-only answer (runtime.cpp, cpu_extra_buffers
  // and what is reclaimable): refused with another runtime, or on a GPU.
  const std::string cpu_flag = !o.cpu_features.empty() ? "--cpu-features"
                               : o.no_repack           ? "--no-repack"
                               : o.no_mmap             ? "--no-mmap"
                               : o.mlock               ? "--mlock"
                                                       : "";
  if (!cpu_flag.empty() && !llama_family) {
    return make_error(fmt::format(
        "{} is a llama.cpp option, and the runtime is {} ({}), which does not read it: drop it, "
        "or add --runtime llama.cpp",
        cpu_flag, to_string(runtime), chosen));
  }
  if (!cpu_flag.empty() && !q.devices.devices.empty() && !q.devices.cpu_only()) {
    return make_error(fmt::format(
        "{} only applies to llama.cpp on a CPU, and the device is {}, which is not a CPU: drop "
        "it, or give a CPU, e.g. --device \"cpu 64gb\"",
        cpu_flag, q.devices.display_name()));
  }
  if (runtime != Runtime::Vllm) {
    for (const Given& g : {Given{"--gpu-memory-utilization", o.gpu_memory_utilization},
                           Given{"--tp", o.tensor_parallel}}) {
      if (!g.text.empty()) {
        return make_error(fmt::format(
            "{} is a vLLM option, and the runtime is {} ({}), which does not read it: drop it, "
            "or add --runtime vllm",
            g.option, to_string(runtime), chosen));
      }
    }
  }
  return true;
}

// Options that ask for more GPUs, layers or experts than the question has.
Expected<bool> refuse_impossible_runtime_options(const RuntimeOptions& o, const InferenceQuery& q) {
  const auto gpus = static_cast<int>(q.devices.count());
  if (!o.tensor_parallel.empty()) {
    if (gpus == 0) {
      return make_error(fmt::format(
          "--tp {} needs GPUs: add --device, e.g. --device \"2x rtx 3090\"", q.tensor_parallel));
    }
    if (q.tensor_parallel > gpus) {
      return make_error(fmt::format("--tp {} needs {} GPUs, and the device given has {} ({})",
                                    q.tensor_parallel, q.tensor_parallel, gpus,
                                    q.devices.display_name()));
    }
    // vLLM splits the attention heads among the ranks and refuses a size that
    // does not divide them (vllm/config.py, ModelConfig.verify_with_parallel_config:
    // "Total number of attention heads ... must be divisible by tensor parallel size").
    const int heads = q.model.arch.heads;
    if (heads > 0 && heads % q.tensor_parallel != 0) {
      return make_error(fmt::format(
          "--tp {}: the model has {} attention heads, which vLLM must divide evenly among the "
          "GPUs; use a divisor of {}",
          q.tensor_parallel, heads, heads));
    }
  }
  if (!o.tensor_split.empty()) {
    if (gpus == 0) {
      return make_error("--tensor-split needs GPUs: add --device, e.g. --device \"2x rtx 3090\"");
    }
    if (q.tensor_split.size() > static_cast<std::size_t>(gpus)) {
      return make_error(
          fmt::format("--tensor-split '{}' has {} parts, and the device given has {} {} ({}): one "
                      "share per GPU",
                      o.tensor_split, q.tensor_split.size(), gpus, gpus == 1 ? "GPU" : "GPUs",
                      q.devices.display_name()));
    }
    double sum = 0;
    for (double share : q.tensor_split) {
      sum += share;  // each is at least 0: parse_decimal takes no sign
    }
    if (sum <= 0) {
      return make_error(fmt::format(
          "invalid --tensor-split '{}': at least one share must be above 0", o.tensor_split));
    }
  }
  if (!o.n_cpu_moe.empty() && !q.model.arch.moe) {
    return make_error(fmt::format(
        "--n-cpu-moe keeps experts on the CPU, and {} has none (a dense model): drop it",
        q.model.name.empty() ? q.model.id : q.model.name));
  }
  if ((!o.gpu_layers.empty() || !o.n_cpu_moe.empty()) && gpus == 0) {
    return make_error(fmt::format("{} needs GPUs: add --device, e.g. --device 8gb",
                                  o.gpu_layers.empty() ? "--n-cpu-moe" : "--gpu-layers"));
  }
  return true;
}

}  // namespace

Expected<bool> apply_runtime_options(const RuntimeOptions& o, InferenceQuery& q) {
  // A text-to-speech model's projector term is its speaker encoder, code
  // predictor and codec: without them it makes no sound, so a smaller
  // figure for it would be the size of a model that does not work.
  if (o.text_only && q.model.arch.speech) {
    return make_error(fmt::format(
        "--text-only leaves out a model's vision or audio input parts, and {} is a "
        "text-to-speech model whose speaker encoder, code predictor and codec it needs to make "
        "sound: drop --text-only",
        q.model.name.empty() ? q.model.id : q.model.name));
  }
  q.text_only = o.text_only;
  if (!o.runtime.empty()) {
    auto r = parse_runtime(o.runtime);
    if (!r) {
      return r.error();
    }
    q.runtime = *r;
  }
  q.ubatch_is_default = o.ubatch.empty();
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
  } else if (q.devices.cpu_features) {
    q.cpu_features = *q.devices.cpu_features;  // detected with --device auto
  }
  q.cpu_repack = !o.no_repack;
  q.mmap = !o.no_mmap;
  q.mlock = o.mlock;
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
  if (auto runs = check_runtime_for_devices(q); !runs) {
    return runs;
  }
  if (auto runs = check_runtime_for_model(q); !runs) {
    return runs;
  }
  if (auto foreign = refuse_foreign_runtime_options(o, q); !foreign) {
    return foreign;
  }
  if (auto kv = check_kv_type_for_runtime(q); !kv) {
    return kv;
  }
  return refuse_impossible_runtime_options(o, q);
}

Expected<LongestContext> apply_context_max(InferenceQuery& q) {
  if (q.devices.devices.empty()) {
    return make_error("--context max needs a device: add --device, e.g. --device 24gb");
  }
  // The lib's one rule (longest_fitting_context): the longest that fits
  // clear of the error band, else the longest that fits, tight; when not
  // even 256 tokens fit whole, the longest the offload the answer then takes
  // holds (the same estimate as its verdict).
  LongestContext best = longest_fitting_context(q);
  if (best.tokens == 0) {
    best.tokens = max_context_offloaded(q);
    best.edge = best.tokens;
  }
  q.context_is_default = false;
  q.context = best.tokens > 0 ? best.tokens : 256;
  return best;
}

}  // namespace willfit::app
