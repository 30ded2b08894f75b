// Which runtime runs which architecture, and transformers' own recurrent
// state: what runtime.hpp's device rules and estimate.hpp's cache layouts
// leave out. Pure functions of the model; no estimate is made here.
#pragma once

#include <cstdint>
#include <string>

#include "willfit/core/precision.hpp"
#include "willfit/core/units.hpp"
#include "willfit/devices/device.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/inference/runtime.hpp"
#include "willfit/models/model.hpp"

namespace willfit {

// Why `runtime` has no implementation of `model`'s architecture, as willfit
// models it; empty when it has. transformers has no RWKV-6 or RWKV-7 class
// (its `rwkv` is RWKV-4: runtime.cpp). Other pairs are not checked.
std::string runtime_model_conflict(Runtime runtime, const Model& model);

// True when default_runtime(model, ...) runs a 16- or 32-bit float model
// under llama.cpp, as an F16/BF16/F32 GGUF, only because transformers, the
// default elsewhere, has no class for its architecture.
bool float_off_transformers(const Model& model, const Precision& precision,
                            const DeviceSet& devices);

// Of each recurrent layer's state under transformers
// (transformers_cache_layout's recurrent_state_floats), the values kept in
// F32 whatever the model's dtype: a gated delta net's or Kimi Delta
// Attention's recurrent matrices (estimate.cpp; not Ling 3's KDA). 0 for
// other mixers.
std::int64_t transformers_f32_state_floats(const Architecture& arch);

// transformers' cache: kv_cache_bytes of transformers_cache_layout(arch),
// the F32 values above at 4 bytes rather than q.state_bytes.
Bytes transformers_kv_cache_bytes(const Architecture& arch, const KvCacheQuery& q);

}  // namespace willfit
