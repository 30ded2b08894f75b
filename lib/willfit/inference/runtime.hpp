// Inference runtimes: each allocates memory its own way, so the estimate
// follows the runtime (llama.cpp, Ollama, vLLM, PyTorch/transformers, MLX, or
// a runtime-neutral generic rule). This header only names them; the terms
// each runtime produces live in runtime.cpp. Pure.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "willfit/core/expected.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/devices/device.hpp"
#include "willfit/models/model.hpp"

namespace willfit {

enum class Runtime { LlamaCpp, Ollama, Vllm, Transformers, Mlx, Generic };

std::string_view to_string(Runtime runtime);  // "llama.cpp", "ollama", "vllm", ...
std::span<const Runtime> all_runtimes();

// Parses a runtime name, case-insensitively ("llama.cpp", "llamacpp",
// "ollama", "vllm", "transformers", "pytorch", "mlx", "generic").
Expected<Runtime> parse_runtime(std::string_view text);

// llama.cpp for GGUF precisions, transformers (PyTorch) otherwise; MLX for
// int4 and int8 on Apple silicon (apple_int_on_mlx); on Apple
// silicon (every device of `devices` a Mac) a 16- or 32-bit float model runs
// under llama.cpp too, as an F16/BF16/F32 GGUF: that is what Mac users run
// (Ollama and LM Studio build on llama.cpp; PyTorch's MPS backend is the
// exception), see apple_float_on_llama_cpp; and so on a CPU-only machine
// (cpu_float_on_llama_cpp).
Runtime default_runtime(const Precision& precision, const DeviceSet& devices = {});
// The same for a question about `model`: a model read from a GGUF file runs
// under llama.cpp whatever its precision reads as (a BF16 GGUF, a file that
// names no general.file_type): a GGUF is a llama.cpp file.
Runtime default_runtime(const Model& model, const Precision& precision, const DeviceSet& devices);
// True when default_runtime chose llama.cpp only because the devices are
// Apple silicon (a float model that elsewhere defaults to transformers).
bool apple_float_on_llama_cpp(const Precision& precision, const DeviceSet& devices);
// True when default_runtime chose MLX because the devices are Apple silicon:
// int4 and int8 there are MLX's 4- and 8-bit (mlx_lm.convert -q), not
// PyTorch's integer formats.
bool apple_int_on_mlx(const Precision& precision, const DeviceSet& devices);
// True when default_runtime chose MLX for AWQ because the devices are Apple
// silicon: mlx_lm converts a 4-bit AWQ checkpoint on load, transformers has
// no Metal AWQ kernel.
bool apple_awq_on_mlx(const Precision& precision, const DeviceSet& devices);
// True when `model` is a checkpoint quantised for PyTorch at `precision`
// (int4/int8 read from its config.json's quantization_config): it runs with
// transformers on any device, MLX being unable to load it.
bool checkpoint_int_for_pytorch(const Model& model, const Precision& precision);
// The same on a machine without a GPU (every device a CPU platform): a 16- or
// 32-bit float model runs there as an F16/BF16/F32 GGUF under llama.cpp, as
// Ollama, LM Studio and llama.cpp's own tools run it; PyTorch on a CPU is the
// exception (and willfit's CPU figures are llama.cpp's, checked live).
bool cpu_float_on_llama_cpp(const Precision& precision, const DeviceSet& devices);

// Why `runtime` cannot run (as willfit models it) on `device` with weights
// at `precision`; empty when it can. vLLM has no Metal backend (on a Mac it
// runs on the CPU only) and its CPU backend is not modelled; MLX is modelled
// on Apple silicon (Metal) only; vLLM's FP8 needs compute capability 7.5
// (Marlin, weight-only) at least. A bare capacity ("24gb") runs anything.
// transformers on a Mac refuses NF4 and AWQ (no Metal kernels). The
// device is named in the sentence unless `name_device` is false (a question
// over many devices, willfit which).
std::string runtime_device_conflict(Runtime runtime, const Precision& precision,
                                    const Device& device, bool name_device = true);
// True when GPTQ runs under transformers on a Mac: through GPTQModel's Torch
// kernel only (AutoGPTQ has no Metal kernel), said as a warning.
bool transformers_gptq_on_metal(const Precision& precision, Runtime runtime,
                                const DeviceSet& devices);
// The first such conflict over the devices of `devices`, or empty.
std::string runtime_devices_conflict(Runtime runtime, const Precision& precision,
                                     const DeviceSet& devices);

// Why `runtime` cannot load weights at `precision`, as one sentence naming
// what it does load; empty when it can. One table in runtime.cpp says which
// precision families (16/32-bit float, FP8, INT8/INT4, GGUF types,
// bitsandbytes, GPTQ/AWQ, "4.5bpw") each runtime loads, with the source of
// each list: GPTQ under llama.cpp, FP8 under Ollama, a GGUF type under
// transformers (which dequantises it on load), NF4 and GPTQ 8-bit under MLX
// are refused (mlx_affine decides how the rest is held under MLX).
std::string runtime_precision_conflict(Runtime runtime, const Precision& precision);
// True when `runtime` loads weights at `precision` (no conflict above).
bool runtime_loads(Runtime runtime, const Precision& precision);

// The precision the weights are held at when `runtime` loads a checkpoint
// of `precision` on `devices`: the same, except MLX's affine 4- and 8-bit
// (a 16-bit scale and bias per group of 64: mlx_affine) and FP8 under
// transformers on a GPU without FP8 hardware, which transformers dequantises
// to BF16 (fp8_dequantised). The estimate sizes weights by it.
Precision precision_as_run(const Precision& precision, Runtime runtime, const DeviceSet& devices);
// The architecture as `runtime` runs it: the same, except a sliding window
// llama.cpp's graph does not build (Attention::llama_cpp_no_window: Mistral
// v0.1, Phi-3 4k) under llama.cpp and Ollama, where every layer is full.
Architecture arch_as_run(const Architecture& arch, Runtime runtime);
// The Assumptions line that says so; empty where it does not apply.
std::string window_as_run_note(const Architecture& arch, Runtime runtime);
// True when transformers would dequantise FP8 weights on `devices`.
bool fp8_dequantised(const Precision& precision, Runtime runtime, const DeviceSet& devices);
// FP8 under transformers on a GPU whose compute capability is not known (a
// user's own NVIDIA entry without one, a bare "24gb": compute_capability_unknown):
// the weights are counted at 8 bits, as on FP8 hardware, and this is the line
// that says so for the report's assumptions; empty when it does not apply.
std::string fp8_capability_unknown(const Precision& precision, Runtime runtime,
                                   const DeviceSet& devices);

}  // namespace willfit
