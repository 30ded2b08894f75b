#include "render/render_runtime.hpp"

#include <fmt/format.h>

namespace willfit::app {
namespace {

using Json = nlohmann::ordered_json;

std::string row(std::string_view label, const std::string& value, std::string_view detail) {
  return fmt::format("  {:<18}{:>11}  {}\n", label, value, detail);
}

std::string placement(Placement p) {
  return p == Placement::Device ? "device" : "host";
}

}  // namespace

Bytes term_bytes(const Estimate& e, std::string_view key) {
  for (const auto& t : e.terms) {
    if (t.key == key) {
      return t.bytes;
    }
  }
  return 0;
}

std::string runtime_label(Runtime runtime) {
  switch (runtime) {
    case Runtime::Vllm:
      return "vLLM";
    case Runtime::Ollama:
      return "Ollama";
    case Runtime::Transformers:
      return "transformers (PyTorch)";
    case Runtime::Mlx:
      return "MLX";
    case Runtime::LlamaCpp:
    case Runtime::Generic:
      break;
  }
  return std::string(to_string(runtime));
}

std::string compute_detail(const FitReport& r) {
  const Estimate& e = r.estimate;
  switch (e.runtime) {
    case Runtime::Vllm:
      return "activation peak of vLLM's profiling run";
    case Runtime::Transformers:
      return fmt::format("prefill activations of {} tokens",
                         std::min(e.context, r.query.prompt_tokens.value_or(e.context)));
    case Runtime::Mlx:
      return "activations of one prefill step";
    case Runtime::LlamaCpp:
    case Runtime::Ollama:
    case Runtime::Generic:
      break;
  }
  return fmt::format("graph of one {}-token step",
                     std::min(e.context * std::max(1, r.query.batch), e.ubatch));
}

std::string weights_detail(const FitReport& r) {
  const Estimate& e = r.estimate;
  const auto& q = r.query;
  const auto size = [&](Bytes b) { return format_size(b, q.units); };
  const Bytes extra = term_bytes(e, "cpu_repack") + term_bytes(e, "cpu_amx");
  const Bytes file = e.memory.weights - extra;
  const std::string copies =
      extra > 0 ? fmt::format(" + {} repacked copy (not reclaimable)", size(extra)) : "";
  if (q.devices.cpu_only() && e.memory.reclaimable > 0) {
    if (e.file_pages_dropped > 0) {
      return fmt::format(
          "{} of the mapped file in use ({}, page cache: reclaimable){}; its other {} are read "
          "once into the copy, then dropped",
          size(file), q.precision.name, copies, size(e.file_pages_dropped));
    }
    return fmt::format("{} mapped file ({}, page cache: reclaimable){}", size(file),
                       q.precision.name, copies);
  }
  if (q.devices.cpu_only() && (extra > 0 || !q.mmap || q.mlock) &&
      (e.runtime == Runtime::LlamaCpp || e.runtime == Runtime::Ollama ||
       e.runtime == Runtime::Generic)) {
    return fmt::format("{} {} ({}, not reclaimable){}", size(file),
                       q.mmap ? "mapped file locked by --mlock" : "read into memory by --no-mmap",
                       q.precision.name, copies);
  }
  if (e.host > 0) {
    return fmt::format("{} ({}); token embeddings in system RAM", size(e.memory.weights),
                       q.precision.name);
  }
  // As the runtime holds them: MLX's group scales, FP8 dequantised by transformers.
  const Precision held = precision_as_run(q.precision, e.runtime, q.devices);
  return fmt::format("{} ({}) at {} bits per weight", size(e.memory.weights), held.name,
                     bits_per_weight_text(held));
}

std::string overhead_detail(const FitReport& r) {
  return std::string(overhead_words(r.estimate.runtime, r.query.devices));
}

namespace {
bool mmproj_runtime(Runtime runtime) {
  return runtime == Runtime::LlamaCpp || runtime == Runtime::Ollama || runtime == Runtime::Generic;
}
}  // namespace

std::string projector_detail(const Architecture& arch, Runtime runtime) {
  const bool mmproj = mmproj_runtime(runtime);
  const std::string by = runtime == Runtime::Transformers ? "transformers" : runtime_label(runtime);
  if (arch.speech) {
    return mmproj ? "speech parts: speaker encoder, code predictor or flow head, codec (mmproj)"
                  : fmt::format(
                        "speech parts: speaker encoder, code predictor or flow head, codec (the "
                        "model's own modules under {})",
                        by);
  }
  return mmproj ? "vision/audio encoder and projector (mmproj); --text-only leaves it out"
                : fmt::format(
                      "vision/audio encoder and projector (the model's own modules under {}); "
                      "--text-only leaves it out",
                      by);
}

std::string projector_label(const Architecture& arch, Runtime runtime) {
  if (mmproj_runtime(runtime)) {
    return "projector (mmproj)";
  }
  return arch.speech ? "projector (the model's speech modules)"
                     : "projector (the model's encoder modules)";
}

std::string margin_detail(const FitReport& r) {
  switch (r.estimate.runtime) {
    case Runtime::Vllm:
      return "none: the share vLLM leaves unused";
    default:
      return "allocator slack";
  }
}

std::string runtime_text_sections(const FitReport& r) {
  const Estimate& e = r.estimate;
  std::string s;
  if (e.host > 0 && !e.offload) {
    s += fmt::format("\nIn system RAM ({} keeps these on the host):\n", runtime_label(e.runtime));
    s += row("token embeddings", format_memory(term_bytes(e, "token_embeddings"), r.query.units),
             "input layer");
    s += row("host compute", format_memory(term_bytes(e, "compute_host"), r.query.units),
             "inputs and KQ mask of a step");
    s += row("output buffer", format_memory(term_bytes(e, "output_buffer"), r.query.units),
             "logits");
    if (e.projector_host > 0) {
      s += row("projector", format_memory(e.projector_host, r.query.units),
               "vision/audio encoder and projector (mmproj), on the CPU");
    }
  }
  if (e.offload) {
    const OffloadPlan& p = *e.offload;
    s += fmt::format(
        "\nOffload plan: {} of {} layers on the GPU{}{}\n", p.gpu_layers, p.total_layers,
        e.devices.size() > 1 ? "s" : "",
        p.cpu_moe_layers > 0
            ? fmt::format(", experts of the first {} blocks on the CPU", p.cpu_moe_layers)
            : "");
    s += row("on the GPU", format_memory(p.gpu_bytes, r.query.units),
             fmt::format("weights {}, KV cache and buffers",
                         format_memory(p.gpu_weight_bytes, r.query.units)));
    std::string ram = "RAM unknown: give --ram";
    if (p.ram_holds && p.ram_unified) {
      ram = fmt::format("{} the {} of unified memory left besides the GPU's",
                        *p.ram_holds ? "within" : "more than",
                        format_memory(p.ram_available.value_or(0), r.query.units));
    } else if (p.ram_holds) {
      ram = *p.ram_holds
                ? fmt::format("--ram {} holds it", format_memory(*r.query.ram, r.query.units))
                : fmt::format("more than --ram {}", format_memory(*r.query.ram, r.query.units));
    }
    s += row(p.ram_unified ? "on the CPU" : "in system RAM",
             format_memory(p.host_bytes, r.query.units),
             fmt::format("weights {}; {}", format_memory(p.host_weight_bytes, r.query.units), ram));
    s += fmt::format("  flags: {}\n", p.flags);
  }
  if (e.vllm) {
    const VllmKv& v = *e.vllm;
    s += fmt::format("\nvLLM KV cache (per GPU, tensor parallel {}):\n", v.tensor_parallel);
    s += row("engine budget", format_memory(v.budget, r.query.units),
             fmt::format("{:g} of total memory", v.utilization));
    s += row("weights + peak", format_memory(v.non_kv, r.query.units),
             "weights, activations, non-torch memory");
    s += row("KV cache", format_memory_signed(v.kv_available, r.query.units),
             fmt::format("{} tokens: {:.1f} sequences of {} tokens at once", v.kv_tokens,
                         v.max_concurrency, e.context));
  }
  // llama.cpp serves several sequences as llama-server's slots: -c is the
  // whole cache and each of --parallel N slots gets -c / N tokens
  // (llama.cpp src/llama-context.cpp: n_ctx_seq = n_ctx / n_seq_max, with
  // the unified cache off, its default for an explicit --parallel; common/
  // arg.cpp "-np, --parallel": "number of server slots").
  if (e.runtime == Runtime::LlamaCpp && r.query.batch > 1 && e.context > 0) {
    const std::int64_t total = e.context * r.query.batch;
    s += fmt::format(
        "\nllama-server for {} sequences: -c {} --parallel {} (it divides -c among its slots: "
        "{} / {} = {} tokens each)\n",
        r.query.batch, total, r.query.batch, total, r.query.batch, e.context);
  }
  if (e.devices.size() > 1) {
    s += "\nDevices:\n";
    s += fmt::format("  {:<24}{:>7}{:>11}{:>11}{:>11}{:>11}{:>11}\n", "device", "layers", "weights",
                     "KV cache", "other", "total", "usable");
    for (const auto& d : e.devices) {
      s += fmt::format(
          "  {:<24}{:>7}{:>11}{:>11}{:>11}{:>11}{:>11}\n", d.name.substr(0, 23),
          d.layers > 0 ? std::to_string(d.layers) : std::string("-"),
          format_memory(d.weights, r.query.units), format_memory(d.kv_cache, r.query.units),
          format_memory(d.compute + d.overhead + d.margin + d.projector, r.query.units),
          format_memory(d.total(), r.query.units), format_memory(d.usable, r.query.units));
    }
  }
  return s;
}

Bytes offload_gpu_headroom(const Estimate& e, const OffloadPlan& p) {
  return e.usable - p.gpu_bytes;
}

std::optional<Bytes> offload_ram_headroom(const OffloadPlan& p) {
  if (!p.ram_available) {
    return std::nullopt;
  }
  return *p.ram_available - p.host_bytes;
}

void add_runtime_json(Json& j, const FitReport& r) {
  const Estimate& e = r.estimate;
  j["query"]["runtime"] = std::string(to_string(e.runtime));
  j["query"]["context_resolved_tokens"] = e.context;
  j["query"]["ubatch"] = r.query.ubatch;
  j["query"]["ubatch_resolved"] = e.ubatch;  // Ollama picks its own without --ubatch
  // Ollama's single-GPU placement: the index of the one device it loads on.
  j["query"]["placed_device_index"] = e.placed_device >= 0 ? Json(e.placed_device) : Json(nullptr);
  j["memory"]["error_band_pct"] = e.error_band_pct;
  j["memory"]["host_bytes"] = e.host;
  Json terms = Json::array();
  for (const auto& t : e.terms) {
    Json x;
    x["key"] = t.key;
    x["bytes"] = t.bytes;
    x["placement"] = placement(t.placement);
    x["formula"] = t.formula;
    x["source"] = t.source;
    terms.push_back(x);
  }
  j["memory"]["terms"] = terms;
  if (e.offload) {
    const OffloadPlan& p = *e.offload;
    Json o;
    o["gpu_layers"] = p.gpu_layers;
    o["total_layers"] = p.total_layers;
    o["cpu_moe_layers"] = p.cpu_moe_layers;
    o["gpu_bytes"] = p.gpu_bytes;
    o["host_bytes"] = p.host_bytes;
    o["gpu_weight_bytes"] = p.gpu_weight_bytes;
    o["host_weight_bytes"] = p.host_weight_bytes;
    o["gpu_active_weight_bytes"] = p.gpu_active_weight_bytes;
    o["host_active_weight_bytes"] = p.host_active_weight_bytes;
    o["ram_holds"] = p.ram_holds ? Json(*p.ram_holds) : Json(nullptr);
    o["ram_available_bytes"] = p.ram_available ? Json(*p.ram_available) : Json(nullptr);
    o["ram_unified"] = p.ram_unified;
    o["flags"] = p.flags;
    // added 2026-12-05: each side's headroom under the plan (result.headroom_bytes
    // is the whole model's on the GPUs alone)
    o["gpu_headroom_bytes"] = offload_gpu_headroom(e, p);
    const std::optional<Bytes> ram_left = offload_ram_headroom(p);
    o["ram_headroom_bytes"] = ram_left ? Json(*ram_left) : Json(nullptr);
    j["offload"] = o;
  } else {
    j["offload"] = nullptr;
  }
  Json devices = Json::array();
  for (const auto& d : e.devices) {
    Json x;
    x["name"] = d.name;
    x["memory_bytes"] = d.capacity;
    x["usable_bytes"] = d.usable;
    x["layers"] = d.layers;
    x["weights_bytes"] = d.weights;
    x["kv_cache_bytes"] = d.kv_cache;
    x["compute_bytes"] = d.compute;
    x["overhead_bytes"] = d.overhead;
    x["margin_bytes"] = d.margin;
    x["projector_bytes"] = d.projector;
    x["total_bytes"] = d.total();
    devices.push_back(x);
  }
  j["devices"] = devices;
  if (e.vllm) {
    const VllmKv& v = *e.vllm;
    Json x;
    x["gpu_memory_utilization"] = v.utilization;
    x["tensor_parallel"] = v.tensor_parallel;
    x["budget_bytes"] = v.budget;
    x["non_kv_bytes"] = v.non_kv;
    x["kv_available_bytes"] = v.kv_available;
    x["kv_tokens"] = v.kv_tokens;
    x["max_concurrency"] = v.max_concurrency;
    x["sequences_at_once"] = v.sequences_at_once;
    j["vllm"] = x;
  } else {
    j["vllm"] = nullptr;
  }
}

}  // namespace willfit::app
