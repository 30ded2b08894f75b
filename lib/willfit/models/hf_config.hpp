// Reads a Hugging Face config.json into a Model: the architecture (dense,
// MoE, MLA, sliding windows, hybrid layers, a vision tower's text_config),
// the checkpoint dtype and its quantization_config (GPTQ, AWQ, bitsandbytes,
// FP8) as a precision hint. Untrusted bytes in; no I/O.
#pragma once

#include <string_view>

#include "willfit/core/expected.hpp"
#include "willfit/models/model.hpp"

namespace willfit {

// `label` names the model (the directory, or the file) in the result.
// Parameters are counted from the architecture (a config has no exact count);
// Model::precision_hint is set from quantization_config, else torch_dtype.
Expected<Model> model_from_hf_config(std::string_view json, std::string_view label);

}  // namespace willfit
