// The runtime parts of the answer (issue 5): what lives in system RAM, the
// offload plan, the per-device table, vLLM's KV arithmetic, in text and JSON.
// Formatting only; every figure comes from the report.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "willfit/planner/report.hpp"

namespace willfit::app {

// "llama.cpp", "vLLM", ... for sentences.
std::string runtime_label(Runtime runtime);
// The bytes of the estimate's term `key` (0 when it has none).
Bytes term_bytes(const Estimate& e, std::string_view key);

// Short details for the breakdown rows, by runtime.
std::string compute_detail(const FitReport& r);
// The weights row's words: what is mapped file (page cache, reclaimable) and
// what is not (repacked copies, --no-mmap, --mlock) on a CPU-only run.
std::string weights_detail(const FitReport& r);
std::string overhead_detail(const FitReport& r);
std::string margin_detail(const FitReport& r);
// The projector row's words: llama.cpp and Ollama load the encoder as a
// separate file (mmproj); transformers, vLLM and MLX load it as the model's
// own modules, from the same checkpoint. A speech model's are its speech
// parts (speaker encoder, code predictor or flow head, codec).
std::string projector_detail(const Architecture& arch, Runtime runtime);
// The projector term's name in --explain: "projector (mmproj)" under the
// llama.cpp family, the model's own modules elsewhere.
std::string projector_label(const Architecture& arch, Runtime runtime);

// Under an offload plan, what is left on each side: the GPUs' usable memory
// less their part of the plan, and the RAM the host part may use less that
// part (nullopt: RAM unknown). The breakdown's headroom is the whole model's
// on the GPUs alone, which an offload plan does not need.
Bytes offload_gpu_headroom(const Estimate& e, const OffloadPlan& p);
std::optional<Bytes> offload_ram_headroom(const OffloadPlan& p);

// The sections printed after the breakdown: host memory, offload plan,
// devices, vLLM KV cache. Empty when there is nothing to say.
std::string runtime_text_sections(const FitReport& r);

// Adds the runtime keys to a fit document: query.runtime, memory.error_band_pct,
// memory.host_bytes, memory.terms, and top-level offload, devices, vllm.
void add_runtime_json(nlohmann::ordered_json& doc, const FitReport& r);

}  // namespace willfit::app
