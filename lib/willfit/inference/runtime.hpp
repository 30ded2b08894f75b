// Inference runtimes: each allocates memory its own way, so the estimate
// follows the runtime (llama.cpp, Ollama, vLLM, PyTorch/transformers, MLX, or
// a runtime-neutral generic rule). This header only names them; the terms
// each runtime produces live in runtime.cpp. Pure.
#pragma once

#include <span>
#include <string_view>

#include "willfit/core/expected.hpp"
#include "willfit/core/precision.hpp"

namespace willfit {

enum class Runtime { LlamaCpp, Ollama, Vllm, Transformers, Mlx, Generic };

std::string_view to_string(Runtime runtime);  // "llama.cpp", "ollama", "vllm", ...
std::span<const Runtime> all_runtimes();

// Parses a runtime name, case-insensitively ("llama.cpp", "llamacpp",
// "ollama", "vllm", "transformers", "pytorch", "mlx", "generic").
Expected<Runtime> parse_runtime(std::string_view text);

// llama.cpp for GGUF precisions, transformers (PyTorch) otherwise.
Runtime default_runtime(const Precision& precision);

}  // namespace willfit
