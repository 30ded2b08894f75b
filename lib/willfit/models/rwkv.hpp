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

// ARWKV-7 (llama.cpp arwkv7.cpp at 80fb11ac; GGUF arwkv7): RWKV-7's time mix
// with RMS norms and, in place of the channel mix, a SiLU-gated MLP of ffn
// (Qwen2's), so one token-shift row a layer (token_shift_count 1:
// arwkv7.cpp asserts n_embd_r = n_embd). willfit keeps it as rwkv 7 with
// rwkv_token_shift_count 1, which no RWKV-7 has (rwkv7.cpp asserts 2).
// The weights of one block (the gate LoRA optional: rank 0 without it).
std::int64_t arwkv7_block_params(std::int64_t hidden, std::int64_t ffn, std::int64_t lora_decay,
                                 std::int64_t lora_iclr, std::int64_t lora_value,
                                 std::int64_t lora_gate);
// Whether `a` is ARWKV-7's (above).
inline bool arwkv7_layers(const Architecture& a) {
  return a.attention.rwkv == 7 && a.attention.rwkv_token_shift_count == 1;
}

// RWKV6Qwen2 (llama.cpp rwkv6qwen2.cpp at 80fb11ac; GGUF rwkv6qwen2,
// config.json model_type rwkv6qwen2: recursal's QRWKV6, Qwen2.5 with its
// softmax attention replaced): RWKV-6's time mix as rwkv6-base.cpp runs it
// without the bonus (time_mix_first) and group norm (its is_qrwkv path:
// gated linear attention, k x (1 - w), a sigmoid gate), the key and value
// of kv_width = KV heads x head (GQA, repeated up to the heads before the
// recurrence), Qwen2's SwiGLU MLP of ffn in place of the channel mix, RMS
// norms; one token-shift row a layer (rwkv6qwen2.cpp asserts n_embd_r =
// n_embd). willfit keeps it as rwkv 6 with rwkv_token_shift_count 1, which
// no RWKV-6 has (rwkv6.cpp asserts 2), and kv_heads its KV heads. The
// weights of one block; `biases`: the receptance, key and value biases
// (Qwen2's q, k and v biases; the config's attention_bias).
std::int64_t rwkv6qwen2_block_params(std::int64_t hidden, std::int64_t kv_width, std::int64_t ffn,
                                     std::int64_t time_mix_extra, std::int64_t time_decay_extra,
                                     bool biases);
// Whether `a` is RWKV6Qwen2's (above).
inline bool rwkv6qwen2_layers(const Architecture& a) {
  return a.attention.rwkv == 6 && a.attention.rwkv_token_shift_count == 1;
}

}  // namespace willfit
