#include "willfit/planner/report.hpp"

#include "willfit/inference/runtime_architectures.hpp"
#include "willfit/models/model_db.hpp"
#include "willfit/models/weight_layout.hpp"
#include "willfit/training/training.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

namespace willfit {
namespace {

// The one-line hint when it does not fit: the first suggestion (suggest.hpp
// ranks them), else what is short and where.
std::string make_hint(const Estimate& e, const std::vector<Suggestion>& suggestions,
                      UnitSystem units, bool unified, bool ram_given) {
  if (e.fits() || !e.device_known) {
    return "";
  }
  if (!suggestions.empty()) {
    return "hint: " + suggestions.front().line;
  }
  const Bytes short_by = -e.headroom;
  if (short_by <= 0) {
    return "hint: there is room in total but not on every device as split: try --tensor-split "
           "in proportion to each device's free memory";
  }
  if (e.verdict == Verdict::Offload) {
    // The part the plan puts on the CPU, as the verdict line says it (not
    // the shortfall, a second figure for the same thing).
    return fmt::format("hint: {} must {}; expect much slower generation",
                       format_memory(e.offload ? e.offload->host_bytes : short_by, units),
                       unified ? "run on the CPU from the same memory" : "live in system RAM");
  }
  // On unified memory the offload is already counted: only more memory helps.
  // With --ram given, the offload was already weighed against it.
  return fmt::format("hint: {} more memory is needed: a larger device{}",
                     format_memory(short_by, units),
                     unified     ? " or a smaller model or precision"
                     : ram_given ? ", more devices, more system RAM than --ram gives, or a smaller "
                                   "model or precision"
                                 : ", more devices, or offload to system RAM (--ram)");
}

}  // namespace

FitReport make_fit_report(const InferenceQuery& query, const SpeedSettings& speed,
                          const std::function<std::vector<Model>()>& smaller_models,
                          const std::function<std::vector<Device>()>& other_devices) {
  FitReport r;
  r.query = query;
  r.estimate = estimate_inference(query, Detail::Explained);
  // What the model's facts rest on: inferred (a size), or read from the
  // catalogue or a file.
  r.assumptions = query.model.notes;
  // The model's line on its cache is llama.cpp's layout; a runtime that lays
  // it out otherwise (MiniCPM3 under vLLM and transformers) gets its own.
  if (const std::string layout = cache_layout_note(query.model.arch, r.estimate.runtime);
      !layout.empty()) {
    const std::string llama = mla_per_head_text(query.model.arch);
    for (std::string& note : r.assumptions) {
      if (const auto at = note.find(llama); at != std::string::npos) {
        note.replace(at, llama.size(), layout);
      }
    }
  }
  if (!r.estimate.projector_host_why.empty()) {
    r.assumptions.push_back(r.estimate.projector_host_why);
  }
  if (std::string window = window_as_run_note(query.model.arch, r.estimate.runtime);
      !window.empty()) {
    r.assumptions.push_back(std::move(window));
  }
  if (!query.precision.requested.empty()) {
    r.assumptions.push_back(fmt::format("'{}' read as {}, the common GGUF choice at that width",
                                        query.precision.requested, query.precision.name));
  }
  r.assumptions.push_back(
      precision_as_run(query.precision, r.estimate.runtime, query.devices).note);
  // An Ollama tag asked at a type its library publishes no tag of (`qwen3:8b
  // -p q5_k_m`) says so, as the tag form (`qwen3:8b-q5_K_M`) does.
  if (r.estimate.runtime == Runtime::Ollama && query.model.ollama_tag &&
      !query.model.file_weight_bytes) {
    std::string note =
        ollama_unpublished_note(query.model, query.precision.id, query.precision.name);
    if (!note.empty() &&
        std::find(r.assumptions.begin(), r.assumptions.end(), note) == r.assumptions.end()) {
      r.assumptions.push_back(std::move(note));
    }
  }
  if (std::string why = fp8_capability_unknown(query.precision, r.estimate.runtime, query.devices);
      !why.empty()) {
    r.assumptions.push_back(std::move(why));
  }
  // A runtime whose own layout of this architecture's caches the estimate
  // does not follow (vLLM's dots.llm3: estimate.cpp
  // vllm_request_kv, which sets the name): say that the KV term is llama.cpp's.
  if (!r.estimate.kv_layout_not_modelled.empty()) {
    r.assumptions.push_back(
        fmt::format("KV cache: llama.cpp's layout of {}'s caches in vLLM's blocks; vLLM lays this "
                    "architecture's caches out its own way, which is not modelled (approximate)",
                    r.estimate.kv_layout_not_modelled));
  }
  // int8 and q8 read alike but choose different runtimes (default_runtime):
  // say which one was taken when the user did not name a runtime. On a Mac
  // int4 and int8 are MLX's (apple_int_on_mlx).
  const bool mac_int = !query.runtime && r.estimate.runtime == Runtime::Mlx &&
                       apple_int_on_mlx(query.precision, query.devices);
  if (mac_int) {
    const bool four = query.precision.id == "int4";
    r.assumptions.push_back(fmt::format(
        "runtime MLX: on a Mac {} means MLX's {}-bit (mlx_lm.convert -q{}, what mlx-community "
        "publishes); {} is GGUF {} and runs with llama.cpp; give --runtime transformers for "
        "PyTorch's 8-bit and 4-bit integer formats",
        query.precision.id, four ? 4 : 8, four ? "" : " --q-bits 8", four ? "q4" : "q8",
        four ? "Q4_K_M" : "Q8_0"));
  } else if (!query.runtime && (query.precision.id == "int8" || query.precision.id == "q8_0")) {
    Precision int8 = query.precision;
    int8.id = "int8";
    const bool int8_on_mlx = apple_int_on_mlx(int8, query.devices);
    r.assumptions.push_back(
        query.precision.id == "int8"
            ? "int8 runs with transformers (PyTorch, 8-bit integer weights); q8 is GGUF Q8_0 "
              "and runs with llama.cpp: give --runtime to choose"
        : int8_on_mlx
            ? "Q8_0 runs with llama.cpp (a GGUF type); int8 would run with MLX (its 8-bit) "
              "on a Mac: give --runtime to choose"
            : "Q8_0 runs with llama.cpp (a GGUF type); int8 would run with transformers "
              "(PyTorch, 8-bit integer weights): give --runtime to choose");
  }
  if (!query.runtime && apple_float_on_llama_cpp(query.precision, query.devices)) {
    r.assumptions.push_back(fmt::format(
        "runtime llama.cpp: on a Mac a {} model runs as a {} GGUF under llama.cpp (as Ollama "
        "and LM Studio run it); give --runtime mlx or --runtime transformers to choose",
        query.precision.name, query.precision.name));
  }
  if (!query.runtime && float_off_transformers(query.model, query.precision, query.devices)) {
    r.assumptions.push_back(fmt::format(
        "runtime llama.cpp: transformers has no RWKV-{} class, so a {} model of it runs as a {} "
        "GGUF under llama.cpp",
        query.model.arch.attention.rwkv, query.precision.name, query.precision.name));
  }
  if (!query.runtime && cpu_float_on_llama_cpp(query.precision, query.devices)) {
    r.assumptions.push_back(fmt::format(
        "runtime llama.cpp: on a CPU a {} model runs as a {} GGUF under llama.cpp (as Ollama "
        "and LM Studio run it); give --runtime transformers to choose",
        query.precision.name, query.precision.name));
  }
  for (const auto& d : query.devices.devices) {
    if (d.kind == DeviceKind::Raw) {
      r.assumptions.push_back(
          fmt::format("'{}' read as {} ({} bytes): GPU memory sold as \"N GB\" is {}",
                      d.memory_marketed, format_memory(d.memory_bytes, query.units), d.memory_bytes,
                      marketed_gb_meaning(query.units)));
      break;
    }
  }
  r.assumptions.insert(r.assumptions.end(), query.devices.notes.begin(), query.devices.notes.end());
  const bool on_cpu = !query.devices.devices.empty() &&
                      std::all_of(query.devices.devices.begin(), query.devices.devices.end(),
                                  [](const Device& d) { return d.kind == DeviceKind::Cpu; });
  if (r.estimate.runtime == Runtime::Ollama && query.model.ollama_text_only && !query.text_only &&
      query.model.arch.vision_params > 0) {
    r.assumptions.push_back(
        "no projector: Ollama runs this architecture as text only (its engine loads no vision "
        "or audio encoder for it)");
  }
  if (query.model.quantizer == GgufQuantizer::Ollama && query.model.arch.per_layer_width > 0 &&
      has_gguf_recipe(query.precision) && !query.model.file_weight_bytes) {
    r.assumptions.push_back(
        "per-layer embeddings at 16 bits: Ollama's quantizer leaves that table as converted "
        "(llama.cpp's would quantise it)");
  }
  if (r.estimate.runtime == Runtime::Ollama && query.context_is_default) {
    r.assumptions.push_back(ollama_default_context(query).note);
  } else if (query.context_is_default && r.estimate.context < query.context) {
    r.assumptions.push_back(fmt::format(
        "context {} tokens: the longest the model was trained for (shorter than the default "
        "{}); give --context to change it",
        r.estimate.context, query.context));
  }
  if (r.estimate.placed_device >= 0) {
    const auto& devs = query.devices.devices;
    r.assumptions.push_back(fmt::format(
        "one GPU of {}: Ollama loads a model on a single GPU when its own prediction ({}) fits "
        "80 % of one, and leaves the others free (OLLAMA_SCHED_SPREAD=1 spreads it over all)",
        devs.size(),
        format_memory(ollama_predicted_vram(query, r.estimate.context * std::max(1, query.batch),
                                            r.estimate.model_weight_bytes),
                      query.units)));
  }
  if (r.estimate.runtime == Runtime::Ollama && query.ubatch_is_default &&
      r.estimate.ubatch != query.ubatch) {
    r.assumptions.push_back(ollama_default_batch(as_placed(query, r.estimate), r.estimate.context,
                                                 r.estimate.flash_attention,
                                                 r.estimate.model_weight_bytes)
                                .note);
  }
  if (offload_ram_is_unified(query)) {
    r.assumptions.push_back(unified_pool(query.devices.devices.front(), query.units).reason);
  } else if (!query.ram && !on_cpu) {
    r.assumptions.push_back("system RAM unknown: give --ram to consider offloading");
  } else if (query.ram && !on_cpu && query.devices.system_ram != query.ram) {  // auto says it
    const Usable ram = system_ram_usable(*query.ram, query.units);
    r.assumptions.push_back(fmt::format(
        "system RAM {} installed; {} of it counted for offload ({})",
        format_memory(*query.ram, query.units), format_memory(ram.bytes, query.units), ram.reason));
  }
  r.suggestions =
      suggest_changes(query, r.estimate, SuggestInputs{smaller_models, speed, other_devices});
  r.hint = make_hint(r.estimate, r.suggestions, query.units, offload_ram_is_unified(query),
                     query.ram.has_value());
  r.speed = estimate_speed(query, r.estimate, speed);
  return r;
}

std::vector<std::string> report_assumptions(const FitReport& report) {
  std::vector<std::string> out = report.assumptions;
  if (report.estimate.device_known) {
    for (const auto& reason : report.estimate.usable_reasons) {
      out.push_back(usable_memory_assumption(reason));
    }
  }
  return out;
}

}  // namespace willfit
