// RWKV's layers as the GGUF and config.json readers set them (gguf.cpp,
// hf_config.cpp); the block and state sizes are model.hpp's. Pure.
#pragma once

#include <cstdint>

#include "willfit/models/model.hpp"

namespace willfit {

// An RWKV model's layers (llama.cpp rwkv6.cpp, rwkv7.cpp at 80fb11ac): every
// one a time mix and a channel mix, purely recurrent (layer_mixers all
// 'R'), no attention; `shifts` hidden-wide token-shift rows and the wkv
// state of hidden / head heads of head x head a layer (llama-hparams.cpp
// n_embd_r, n_embd_s). The caller sets the version's LoRA ranks and
// recurrent_params.
void set_rwkv_layers(Architecture& a, int version, std::int64_t head, std::int64_t shifts);

}  // namespace willfit
