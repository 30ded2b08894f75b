// The runtime options of the fit command (--runtime, --context max, offload
// and multi-GPU controls), kept apart from cmd_fit.cpp: registered on a CLI11
// app, then applied to an InferenceQuery with errors as values.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "willfit/core/expected.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/inference/longest_context.hpp"

namespace willfit::app {

struct RuntimeOptions {
  std::string runtime;
  std::string gpu_memory_utilization;
  std::string tensor_parallel;
  std::string tensor_split;
  std::string n_cpu_moe;
  std::string cpu_features;
  bool no_repack = false;
  bool no_mmap = false;
  bool mlock = false;
  std::string gpu_layers;
  std::string ubatch;
  bool text_only = false;
};

void add_runtime_options(CLI::App& app, RuntimeOptions& o);

// Applies the options to `q`; an error names the option and the input.
Expected<bool> apply_runtime_options(const RuntimeOptions& o, InferenceQuery& q);

// A KV cache type the runtime cannot store, or that willfit does not model
// for it (q8_0 with vLLM, transformers or MLX), is an error.
Expected<bool> check_kv_type_for_runtime(const InferenceQuery& q);

// A --runtime that does not load the query's precision (GPTQ under
// llama.cpp: runtime_precision_conflict) or cannot run on its devices (vLLM
// on a Mac, MLX on an NVIDIA card: runtime_device_conflict) is an error.
Expected<bool> check_runtime_for_devices(const InferenceQuery& q);

// A runtime, named or the default, with no class for the model's
// architecture (transformers for RWKV-6/7: runtime_model_conflict) is an
// error.
Expected<bool> check_runtime_for_model(const InferenceQuery& q);

// "--context max": the longest context that fits whole by the lib's one rule
// (longest_fitting_context: clear of the error band, else tight), set on `q`;
// when not even 256 tokens fit whole, the longest that fits with the offload
// the answer then takes (max_context_offloaded). Needs a device.
Expected<LongestContext> apply_context_max(InferenceQuery& q);

}  // namespace willfit::app
