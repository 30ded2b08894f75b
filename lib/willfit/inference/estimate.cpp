// The inference estimate, term by term.
//
// A model in memory is five things on the device, and we size each on its
// own because each scales with something different: weights, KV cache,
// compute buffers, runtime overhead (memory outside the runtime's allocator:
// the CUDA/Metal context) and a safety margin. Which bytes go where depends on
// the runtime: runtime.cpp holds one builder per runtime, with the formulas
// and their sources; weight_layout.cpp sizes the weights tensor by tensor.
// This file resolves the query (runtime, context, flash attention, KV types),
// dispatches, and holds the pieces every runtime shares:
//
// KV cache: for every attention layer, K and V for every cached token:
//      2 x layers x kv_heads x head_dim x bytes/element x cells
//    with cells = the context padded to 256 (llama.cpp, since PR #17046; 32
//    without flash attention before it; PyTorch: exact tokens) times the
//    concurrent sequences. Grouped-query attention enters through kv_heads;
//    sliding-window layers hold only window + ubatch cells; MLA (DeepSeek)
//    caches one latent of kv_lora_rank + rope dims per token and layer, K only
//    (MiniCPM3's MLA decompresses K and V first and caches them per head;
//    vLLM pads its V to K's width and transformers caches the latent:
//    vllm_cache_layout, transformers_cache_layout);
//    hybrid models have a cache only on their attention layers (Kimi
//    Linear's are MLA: one latent each), and a fixed F32 recurrent state per
//    sequence on their recurrent ones; chunked local
//    attention (Llama 4) holds a chunk like a window; layers that share
//    another layer's cache (Gemma 3n) hold none; global layers with a
//    shape of their own (Gemma 4: 512-wide heads, fewer KV heads, K as V)
//    cache K and V at that shape, and without flash attention llama.cpp pads
//    every layer's V to the widest; DeepSeek-V3.2 adds its
//    indexer's FP8 keys next to the latent; DeepSeek-V4 keeps a window of
//    raw keys on every layer and pooled keys, one per 4 or 128 tokens, on
//    its compressed ones (compressed_kv_bytes; vLLM lays the same caches
//    out in FP8 pages of its own, vllm_deepseek_v4_request_bytes). Quantised types
//    cost their block size (q8_0: 34 bytes per 32 values). Source:
//    shared/reference/inference-estimators.md section 0.3. Checked against 18
//    logged KV buffers: exact (tests/data/llamacpp_buffers.csv).
//
// Verdict: fits when everything the device must hold is within its usable
// memory (per device when there are several); "offload" when it is not but a
// plan that keeps part in system RAM works and the RAM holds that part (--ram,
// or on one unified-memory device the same memory less the GPU side:
// offload_ram); else no_fit.
//
// Tight: every total carries its measured error band (error_band_pct of the
// total, runtime_terms). When the headroom is within that band either way
// (it fits by less than the band, or is short by less than it), the verdict
// could go the other way on a real machine, and the estimate says so
// (`tight`); the verdict itself stays what the arithmetic says. Apple
// silicon adds one more case: the usable memory there is macOS's
// recommended GPU working set, which Metal lets the GPU exceed (llama.cpp
// prints "current allocated size is greater than the recommended max working
// set size" and goes on; devices-notes.md), bounded by what the operating
// system leaves: the same rule as for system memory (device.cpp,
// soft_memory_ceiling). A need between the two is tight as well. And an
// offload whose RAM (--ram, or the unified memory left besides the GPU
// side) holds the host part by less than the band is tight.
#include "willfit/inference/estimate.hpp"
#include "willfit/inference/longest_context.hpp"
#include "willfit/inference/runtime_architectures.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "willfit/core/text.hpp"
#include "willfit/inference/runtime_terms.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {

std::string_view to_string(FlashAttention fa) {
  switch (fa) {
    case FlashAttention::Auto:
      return "auto";
    case FlashAttention::On:
      return "on";
    case FlashAttention::Off:
      return "off";
  }
  return "auto";
}

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::Fits:
      return "fits";
    case Verdict::Offload:
      return "offload";
    case Verdict::NoFit:
      return "no_fit";
  }
  return "no_fit";
}

std::int64_t pad_context(std::int64_t tokens, std::int64_t pad) {
  const std::int64_t p = std::max<std::int64_t>(1, pad);
  return ((std::max<std::int64_t>(tokens, 1) + p - 1) / p) * p;
}

Bytes weight_bytes(const Model& model, const Precision& precision) {
  return weight_layout(model, precision).total();
}

namespace {
// Bytes of `elements` values in a cache type (whole blocks, then the rest pro rata).
Bytes cost(std::int64_t elements, const KvType& t) {
  return elements / t.block_elems * t.block_bytes +
         (elements % t.block_elems) * t.block_bytes / t.block_elems;
}
}  // namespace

namespace {
// The layers that cache K and V: full ones, and windowed (or chunked) ones.
struct CachedLayers {
  int full = 0;
  int windowed = 0;
};
CachedLayers cached_layers_once(const Architecture& a);
// Looped layers (Nanbeige, nanbeige.cpp) cache every pass apart: the one
// pass's layers, times the passes.
CachedLayers cached_layers(const Architecture& a) {
  const CachedLayers once = cached_layers_once(a);
  const int loops = std::max(1, a.loops);
  return {once.full * loops, once.windowed * loops};
}
CachedLayers cached_layers_once(const Architecture& a) {
  // T5 (t5.cpp): only the decoder's self-attention is cached; llama.cpp's
  // cache has a layer for each of block_count (llama-kv-cache.cpp n_layer_all),
  // the encoder's count, which is the decoder's in every published T5.
  if (a.decoder_layers > 0) {
    return {std::max(0, a.layers - a.decoder_layers), 0};
  }
  if (uses_mla(a)) {
    // dots.llm3's windowed MLA layers hold a window's cells.
    const int windowed = windowed_mla_layer_count(a);
    return {attention_layer_count(a) - windowed, windowed};
  }
  // Layers that reuse an earlier layer's cache (Gemma 3n) allocate none.
  const int cached =
      std::max(0, attention_layer_count(a) - std::max(0, a.attention.kv_shared_layers));
  if (a.attention.kind != AttentionKind::Sliding || a.attention.sliding_window <= 0) {
    return {cached, 0};
  }
  // Pattern N: every N-th layer (index N-1, 2N-1, ...; Step-3.5: 0, N, 2N,
  // ...) is global. A chunked layer (Llama 4) holds the same cells as a
  // window of the chunk's length.
  const int global = global_layer_count(a, cached);
  return {global, cached - global};
}
}  // namespace

namespace detail {
CachedKvLayers cached_kv_layers(const Architecture& a) {
  const CachedLayers c = cached_layers(a);
  return {c.full, c.windowed};
}
}  // namespace detail

std::int64_t window_cells(const Architecture& a, const KvCacheQuery& q) {
  if (cached_layers(a).windowed <= 0) {
    return 0;
  }
  const int seqs = std::max(1, q.sequences);
  return std::min(
      pad_context(q.context, q.pad) * seqs,
      pad_context(std::min(q.context * seqs, a.attention.sliding_window * seqs + q.ubatch), q.pad));
}

namespace {
// DeepSeek-V4 as llama.cpp allocates it (src/llama-kv-cache-dsv4.cpp at
// 80fb11ac, llama_kv_cache_dsv4 and llama_dsv4_comp_state; the hparams from
// src/models/deepseek4.cpp). Every cache keeps one stream per sequence
// (unified_raw and unified_compressed are false whatever --kv-unified
// says), and each is K only (dsv4_make_k_only: V is a view of K), one head:
// - raw keys: deepseek4 marks every layer sliding, so the ISWA cache's SWA
//   half holds them all, min(cells, window + ubatch) padded to 256, of
//   head_dim (n_embd_k_gqa = 1 x head_dim); its non-SWA half has no layer;
// - a ratio-r layer: max(1, ceil(cells / r)) pooled keys, padded to 256, of
//   head_dim (kv_csa for r = 4, kv_hca for r = 128), and a ratio-4 layer as
//   many lightning-indexer keys of index_head_dim (kv_lid); all in the K type;
// - the compressors' running state, F32, kv and score each: a ratio-4 layer
//   8 rows of 2 head_dim (its windows overlap: state_size 2 x 4, width
//   2 x head_dim) and its indexer 8 rows of 2 index_head_dim, a ratio-128
//   layer 128 rows of head_dim (n_rs_seq = 0: one plane a sequence).
// The 256s are GGML_PAD(..., 256u) in the source; here q.pad, which is 256
// for llama.cpp and 1 (exact tokens) for PyTorch.
Bytes compressed_kv_bytes(const Architecture& a, const KvCacheQuery& q) {
  const std::int64_t cells = pad_context(q.context, q.pad);
  const std::int64_t seqs = std::max(1, q.sequences);
  const std::int64_t hd = std::int64_t{std::max(1, a.kv_heads)} * a.head_dim;
  const std::int64_t ihd = a.attention.index_head_dim;
  const auto pooled = [&](std::int64_t ratio) {
    return pad_context(std::max<std::int64_t>(1, (cells + ratio - 1) / ratio), q.pad);
  };
  const std::int64_t raw = pad_context(
      std::min(cells, a.attention.sliding_window + std::max<std::int64_t>(0, q.ubatch)), q.pad);
  const std::int64_t state = q.state_bytes;
  const Bytes csa = cost(hd * pooled(4), q.k_type) + cost(ihd * pooled(4), q.k_type) +
                    2 * 8 * (2 * hd + 2 * ihd) * state;
  const Bytes hca = cost(hd * pooled(128), q.k_type) + 2 * 128 * hd * state;
  return seqs * (cost(hd * raw, q.k_type) * a.layers + csa * compressed_layer_count(a, 'C') +
                 hca * compressed_layer_count(a, 'H'));
}
}  // namespace

Bytes kv_cache_bytes(const Architecture& a, const KvCacheQuery& q) {
  if (a.attention.no_kv_cache) {
    return 0;  // encoders and diffusion LMs (Attention::no_kv_cache)
  }
  if (compressed_attention(a)) {
    return compressed_kv_bytes(a, q);
  }
  const std::int64_t full_cells = pad_context(q.context, q.pad) * std::max(1, q.sequences);
  if (!a.layer_widths.empty()) {
    // Nemotron NAS (deci), summed layer by layer: llama-kv-cache.cpp (at
    // 80fb11ac) gives every layer K rows of its own n_head_kv(il) x head_dim
    // (none for a layer without KV heads) and V rows of the same width, or,
    // without flash attention (v_trans), of the widest layer's for every
    // layer, those without attention included (TAG_V_CACHE_VARIABLE:
    // n_embd_v_gqa_max). No layer holds a recurrent state.
    std::int64_t widest = 0;
    for (const LayerWidths& l : a.layer_widths) {
      widest = std::max<std::int64_t>(widest, std::int64_t{l.kv_heads} * a.head_dim);
    }
    Bytes b = 0;
    for (const LayerWidths& l : a.layer_widths) {
      const std::int64_t k = std::int64_t{l.kv_heads} * a.head_dim;
      b += cost(k * full_cells, q.k_type) +
           cost((q.v_rows_padded ? widest : k) * full_cells, q.v_type);
    }
    return b;
  }
  // MiniCPM3 caches K and V per head (Attention::mla_cached_per_head): the
  // ordinary layout below, V at v_head_dim (value_head_dim).
  if (uses_mla(a) && !a.attention.mla_cached_per_head) {
    // One latent per token and attention layer; V is a view of K. A
    // hybrid's (Kimi Linear's) other layers keep their recurrent state.
    const std::int64_t width = a.attention.kv_lora_rank + a.attention.qk_rope_head_dim;
    // dots.llm3 (llama-kv-cache-dsa-iswa.cpp at 80fb11ac): the windowed
    // layers' latents, swa_kv_lora_rank + rope wide (key_length_swa), in a
    // second cache of window + micro-batch cells padded to 256.
    const CachedLayers layers = cached_layers(a);
    const Bytes windowed =
        layers.windowed > 0 ? cost((a.attention.swa_kv_lora_rank + a.attention.qk_rope_head_dim) *
                                       window_cells(a, q),
                                   q.k_type) *
                                  layers.windowed
                            : 0;
    // Layers sharing an earlier layer's indexer (GLM-5.2) cache no keys of
    // their own (llama-model.cpp create_memory: filter_lid, is_indexer_full),
    // nor do dots.llm3's windowed ones.
    return cost(width * full_cells, q.k_type) * layers.full + windowed +
           indexer_cache_bytes(a, full_cells, q) * indexer_layer_count(a) +
           recurrent_state_bytes(a, q.sequences, q.state_bytes);
  }
  // K and V widths per cell: windowed layers at kv_heads x head_dim; the
  // global layers of a sliding model at their own shape where they have one
  // (Gemma 4: llama-hparams.cpp n_embd_k_gqa(il) = n_head_kv(il) x
  // n_embd_head_k(il), the head width key_length or key_length_swa by
  // layer kind). K = V layers (attention_k_eq_v) still cache V. Without
  // flash attention llama.cpp pads V to the widest layer (v_rows_padded).
  // V rows are value_head_dim wide where V heads differ from K heads
  // (MiMo-V2-Flash: n_embd_v_gqa(il) = n_head_kv(il) x n_embd_head_v).
  const std::int64_t per_cell_k = std::int64_t{a.kv_heads} * a.head_dim;
  const std::int64_t per_cell_v = std::int64_t{a.kv_heads} * value_head_dim(a);
  const bool own_global = a.attention.kind == AttentionKind::Sliding &&
                          (a.attention.global_head_dim > 0 || a.attention.global_kv_heads > 0);
  const std::int64_t global_kv =
      a.attention.global_kv_heads > 0 ? a.attention.global_kv_heads : a.kv_heads;
  const std::int64_t global_k =
      own_global
          ? global_kv * (a.attention.global_head_dim > 0 ? a.attention.global_head_dim : a.head_dim)
          : per_cell_k;
  const std::int64_t global_v = !own_global                       ? per_cell_v
                                : a.attention.global_head_dim > 0 ? global_k
                                                                  : global_kv * value_head_dim(a);
  const CachedLayers layers = cached_layers(a);
  const int windowed_layers = layers.windowed;
  const std::int64_t swa_cells = windowed_layers > 0 ? window_cells(a, q) : full_cells;
  const int full_layers = layers.full;
  const std::int64_t widest_v = windowed_layers > 0 ? std::max(per_cell_v, global_v) : global_v;
  const std::int64_t full_v = q.v_rows_padded ? widest_v : global_v;
  const std::int64_t window_v = q.v_rows_padded ? widest_v : per_cell_v;
  const Bytes per_full_layer =
      cost(global_k * full_cells, q.k_type) + cost(full_v * full_cells, q.v_type);
  const Bytes per_window_layer =
      cost(per_cell_k * swa_cells, q.k_type) + cost(window_v * swa_cells, q.v_type);
  // A sparse-attention indexer beside GQA (MiniMax-M3's MSA) caches one key
  // of index_head_dim per token on its layers. llama.cpp keeps it in a second
  // llama_kv_cache of one KV head (llama-kv-cache-msa.cpp); that cache is not
  // MLA, so it allocates a V row of the model's head width beside each key.
  // Elsewhere the key alone, in the K cache type.
  const std::int64_t index_k = uses_mla(a) ? 0 : a.attention.index_head_dim;
  const Bytes per_indexer_layer =
      index_k <= 0 ? 0
                   : cost(index_k * full_cells, q.k_type) +
                         (q.indexer_in_k_type ? cost(a.head_dim * full_cells, q.v_type) : 0);
  // Granite Switch's router (granite-switch.cpp load_arch_hparams: one more
  // layer, n_layer_all = layers + 1, of one head, K and V at the head
  // width; llama-kv-cache.cpp caches every layer to n_layer_all), V padded
  // to the widest layer's rows without flash attention as any other.
  const Bytes router = a.adapters > 0
                           ? cost(std::int64_t{a.head_dim} * full_cells, q.k_type) +
                                 cost((q.v_rows_padded ? std::max<std::int64_t>(full_v, a.head_dim)
                                                       : std::int64_t{a.head_dim}) *
                                          full_cells,
                                      q.v_type)
                           : 0;
  return per_full_layer * full_layers + per_window_layer * windowed_layers +
         per_indexer_layer * indexer_layer_count(a) + router +
         recurrent_state_bytes(a, q.sequences, q.state_bytes);
}

Bytes recurrent_state_bytes(const Architecture& a, int sequences, int bytes_per_value) {
  // Recurrent layers of a hybrid model keep a fixed state per sequence that
  // does not grow with the context (section 0.3; llama-hparams.cpp n_embd_r
  // and n_embd_s, F32 in llama.cpp; the model's dtype in vLLM and
  // transformers, but for vLLM's F32 parts: vllm_request_kv).
  // Qwen4Exp's n-gram layer keeps its convolution history in a row of its
  // own beside its delta net's (llama-memory-recurrent.cpp cache_ple_r_l).
  return (std::int64_t{recurrent_layer_count(a)} * a.attention.recurrent_state_floats +
          ngram_state_floats(a)) *
         bytes_per_value * std::max(1, sequences);
}

namespace {
// MiniCPM3's per-head MLA (Attention::mla_cached_per_head); PLM carries the
// same flag with an unscaled head (mla_unscaled_head) and is left out.
bool minicpm3_cache(const Architecture& a) {
  return uses_mla(a) && a.attention.mla_cached_per_head && !a.attention.mla_unscaled_head;
}

// A delta net whose transformers cache was read (below): Qwen3-Next's and
// Qwen3.5's gated delta nets, Kimi Linear's and K3's KDA; not Ling 3's.
bool transformers_delta_net(const Attention& at) {
  return !(at.kda && at.kda_full_rank_decay) && at.delta_net_conv > 1 &&
         at.delta_net_head_dim > 0 && at.delta_net_k_heads > 0 && at.delta_net_v_heads > 0;
}

// A Mamba-2 mixer: Granite 4 H's, Nemotron-H's, Falcon-H1's, Mamba-2's
// (mamba 2), and Bamba's, whose sizes are set without the replay (model.hpp
// Attention::mamba).
bool mamba2_mixer(const Attention& at) {
  return (at.mamba == 2 || (at.mamba == 0 && at.ssm_groups > 0)) && at.ssm_conv > 1 &&
         at.ssm_inner > 0;
}
}  // namespace

// MiniCPM3 is the one architecture whose cache vLLM and transformers lay out
// otherwise than llama.cpp (which keeps K of heads x (qk_nope + qk_rope) and
// V of heads x v_head_dim per token and layer, minicpm3.cpp):
// - vLLM (vllm-project/vllm vllm/model_executor/models/minicpm3.py at
//   009ccee0, MiniCPM3Attention) builds `Attention(self.num_local_heads,
//   self.qk_head_dim, ..., num_kv_heads=self.num_local_heads)`: one head size
//   for K and V, qk_nope + qk_rope, and pads V up to it before the cache
//   write (`v = torch.nn.functional.pad(v, [0, self.qk_head_dim -
//   self.v_head_dim], value=0)`). So V is cached as wide as K: MiniCPM3-4B
//   2 x 40 x 96 values a token and layer where llama.cpp keeps 40 x (96 + 64).
// - transformers' own MiniCPM3 (huggingface/transformers
//   src/transformers/models/minicpm3/modular_minicpm3.py at 16c2042a,
//   MiniCPM3Attention.forward: "Cache read / write is performed while the
//   latent KV is still compressed", `past_key_values.update(k_pass, k_rot,
//   self.layer_idx)`) caches the normed latent (kv_lora_rank) and the roped
//   key (qk_rope_head_dim), one head each, in the model's dtype: the latent
//   layout willfit gives DeepSeek's MLA, which transformers caches the same
//   way since PR #47761 ("the cache stored is not actually compressed").
//   The class before it (the same file at 3904ea4b) cached K and V per head
//   as llama.cpp does; the hub's remote code (trust_remote_code) was not read.
// PLM's layout under either runtime was not found (no upstream vLLM model, no
// transformers class): it keeps llama.cpp's.
//
// Mamba-1 mixers (Mamba, Falcon Mamba, Jamba: Attention::mamba 1) under
// transformers keep every tap of the convolution where llama.cpp keeps
// conv - 1: MambaCache (src/transformers/models/mamba/modeling_mamba.py at
// 00328d4e, which modeling_falcon_mamba.py at 00b676f8 uses too) allocates
// per layer `torch.zeros(self.max_batch_size, self.intermediate_size,
// self.conv_kernel_size, ..., dtype=self._dtype)` and the scan state
// (batch, intermediate_size, ssm_state_size) in the same dtype, the prefill
// padding its input to conv_kernel_size columns before it writes them; Jamba's
// HybridMambaAttentionDynamicCache (modeling_jamba.py at 008f5c8c) the same
// two shapes on its Mamba layers. So d_inner values more a layer, all in the
// model's dtype (KvCacheQuery::state_bytes).
//
// Mamba-2 mixers (Mamba-Codestral, Granite 4 H, Nemotron-H, Falcon-H1:
// Attention::mamba 2; Bamba: mamba 0 with ssm_groups set) likewise keep
// every tap (huggingface/transformers,
// src/transformers/models/...): Mamba2Cache (mamba2/modeling_mamba2.py at
// 4711664e) allocates conv_states (layers, batch, intermediate_size + 2
// n_groups state_size, conv_kernel) and ssm_states (layers, batch,
// num_heads, head_dim, state_size), both of `dtype`, which
// Mamba2Model.forward passes as inputs_embeds.dtype; the hybrid caches
// allocate the same two shapes a Mamba layer in the dtype they are given,
// the model's (HybridMambaAttentionDynamicCache in bamba/modeling_bamba.py
// at 4a1fec8d, built with self.dtype in prepare_inputs_for_generation, and
// in granitemoehybrid/modeling_granitemoehybrid.py at 1c0ff25f;
// NemotronHHybridDynamicCache in nemotron_h/modeling_nemotron_h.py at
// 897753a0; FalconHybridMambaAttentionDynamicCache in
// falcon_h1/modeling_falcon_h1.py at 68c08116). So one more tap of the
// convolution's d_inner + 2 groups x d_state channels a layer; the scan
// state is llama.cpp's d_inner x d_state.
//
// The gated delta nets of Qwen3-Next and Qwen3.5 (Attention::delta_net_*)
// keep every tap too, and their recurrent matrix in F32:
// Qwen3NextGatedDeltaNet.forward (qwen3_next/modular_qwen3_next.py at
// 2ccc6cae) and Qwen3_5GatedDeltaNet.forward (qwen3_5/modeling_qwen3_5.py at
// d8c1e284) cache, at the prefill, `F.pad(mixed_qkv, (self.conv_kernel_size
// - mixed_qkv.shape[-1], 0))`: conv_kernel columns of the conv_dim = 2
// key_dim + value_dim channels, in the projection's dtype (the model's); and
// as the recurrent state whatever chunk_gated_delta_rule returns, which is
// F32 on both paths: flash-linear-attention's kernel
// (fla-org/flash-linear-attention fla/ops/common/chunk_delta_h.py at
// 990535b7, chunk_gated_delta_rule_fwd_h: `final_state = k.new_empty(N, H,
// K, V, dtype=torch.float32)`; fla/ops/gated_delta_rule/fused_recurrent.py
// at a2c9831c, the decode step, the same) and transformers' own
// torch_chunk_gated_delta_rule (in the same files), which casts its inputs
// `.to(torch.float32)` before it builds the state. Its shape is (batch,
// num_v_heads, head_k_dim, head_v_dim), llama.cpp's count
// (transformers_f32_state_floats, transformers_kv_cache_bytes).
//
// Kimi Delta Attention (Attention::kda) of Kimi Linear and Kimi K3 keeps
// the same two: KimiLinearDeltaAttention.forward
// (kimi_linear/modeling_kimi_linear.py at c1a44bc9) hands
// `torch.cat((q_states, k_states, v_states), dim=-1).transpose(1, 2)`, the
// projections in the model's dtype, to `past_key_values.update_conv_state(
// mixed_qkv, self.layer_idx, conv_kernel_size=self.conv_kernel_size)`,
// whose LinearAttentionLayer (cache_utils.py; no copy of that file in the
// index carries the class at a commit, its text read in a stored copy of the
// file) allocates `torch.zeros((*conv_states.shape[:-1], conv_kernel_size),
// dtype=conv_states.dtype)` and keeps the last conv_kernel_size columns:
// conv_kernel taps of the 2 key + value channels; and it caches as the
// recurrent state, through update_recurrent_state (a `zeros_like` of it),
// what the KDA kernel returns: torch_chunk_kda and torch_recurrent_kda (same
// file) cast q, k, v, g and beta `.to(torch.float32)` and build the state
// (batch, num_heads, k_head_dim, v_head_dim) in that dtype, and
// flash-linear-attention's chunk_kda (fla/ops/kda/chunk_fwd.py at 577d9b51,
// chunk_kda_fwd) takes its final state from chunk_gated_delta_rule_fwd_h,
// the F32 one above. Kimi K3's class (kimi_k3/modular_kimi_k3.py at
// aa83b548) convolves q, k and v apart (KimiK3ShortConvolution, one conv
// state each through the same update_conv_state with conv_kernel_size) and
// runs the same torch_chunk_kda or chunk_kda: the same count. Ling 3's KDA
// (kda_full_rank_decay) keeps llama.cpp's count: transformers'
// bailing_hybrid (bailing_hybrid/modular_bailing_hybrid.py at 12218464) is
// Ling 2.5's lightning attention, not it, and no class of its own was
// found. transformers' Kimi Linear caches the MLA latent as llama.cpp does;
// the hub repository's own remote code (modeling_kimi.py, run with
// trust_remote_code; read in a stored copy, KimiMLAAttention and
// KimiDynamicCache) caches MLA's K and V decompressed per head instead,
// which willfit does not model (docs/architectures.md).
//
// RWKV-6 and RWKV-7 have no transformers class (runtime_model_conflict
// refuses the pair); PLaMo 2's mixer keeps llama.cpp's count (its cache is
// its remote code's, modeling_plamo.py on the hub, which no index here
// holds: docs/architectures.md).
Architecture vllm_cache_layout(const Architecture& arch) {
  Architecture a = arch;
  if (minicpm3_cache(arch)) {
    a.attention.v_head_dim = arch.head_dim;  // qk_nope + qk_rope
  }
  return a;
}

Architecture transformers_cache_layout(const Architecture& arch) {
  Architecture a = arch;
  if (minicpm3_cache(arch)) {
    a.attention.mla_cached_per_head = false;  // the latent, as DeepSeek's
  }
  const Attention& at = arch.attention;
  if (at.mamba == 1 && at.ssm_conv > 1 && at.ssm_inner > 0) {
    a.attention.recurrent_state_floats += at.ssm_inner;  // conv_kernel taps, not - 1
  }
  if (mamba2_mixer(at)) {
    // One more tap of the convolution's channels.
    a.attention.recurrent_state_floats +=
        at.ssm_inner + 2 * std::int64_t{at.ssm_groups} * at.ssm_state;
  }
  if (transformers_delta_net(at)) {
    const std::int64_t d = at.delta_net_head_dim;
    // One more tap of q, k and v, and the heads' d x d matrices in F32.
    a.attention.recurrent_state_floats +=
        (2 * std::int64_t{at.delta_net_k_heads} + at.delta_net_v_heads) * d;
  }
  return a;
}

std::int64_t transformers_f32_state_floats(const Architecture& arch) {
  const Attention& at = arch.attention;
  if (!transformers_delta_net(at)) {
    return 0;
  }
  // The heads' head_k_dim x head_v_dim matrices (one head size here).
  return std::int64_t{at.delta_net_v_heads} * at.delta_net_head_dim * at.delta_net_head_dim;
}

Bytes transformers_kv_cache_bytes(const Architecture& arch, const KvCacheQuery& q) {
  const std::int64_t f32 = transformers_f32_state_floats(arch);
  return kv_cache_bytes(transformers_cache_layout(arch), q) +
         std::int64_t{recurrent_layer_count(arch)} * f32 * (4 - q.state_bytes) *
             std::max(1, q.sequences);
}

// MLX keeps llama.cpp's layout: mlx_lm's MiniCPM3 caches the decompressed
// keys (qk_nope + qk_rope wide) and values (hidden / heads wide) per head
// (ml-explore/mlx-lm mlx_lm/models/minicpm3.py at d78bf58e,
// `cache.update_and_fetch(keys, values)`), so its line is the model's own.
std::string cache_layout_note(const Architecture& arch, Runtime runtime) {
  if (!minicpm3_cache(arch)) {
    return "";
  }
  const Attention& at = arch.attention;
  if (runtime == Runtime::Vllm) {
    const Architecture a = vllm_cache_layout(arch);
    return fmt::format(
        "multi-head latent attention, its K and V decompressed and cached per head, V padded to "
        "K's width as vLLM's MiniCPM3 does ({} KV heads of {} K and {} V dims per token and "
        "layer; llama.cpp keeps V at {})",
        a.kv_heads, a.attention.qk_nope_head_dim + a.attention.qk_rope_head_dim,
        a.attention.v_head_dim, at.v_head_dim);
  }
  if (runtime == Runtime::Transformers) {
    return fmt::format(
        "multi-head latent attention: transformers' MiniCPM3 caches the compressed latent, one "
        "{}-wide latent ({} of latent and a {}-wide roped key) per token and layer, and "
        "decompresses it per head at each step",
        at.kv_lora_rank + at.qk_rope_head_dim, at.kv_lora_rank, at.qk_rope_head_dim);
  }
  return "";
}

namespace {
// DeepSeek-V4 as vLLM allocates it. Each layer's caches (kv_cache_spec):
// - every layer: its window of raw keys, DeepseekV4SWACache
//   (vllm/v1/attention/backends/mla/sparse_swa.py at 03dc5649 in
//   vllm-project/vllm): a SlidingWindowMLASpec of 64-token blocks, 584 bytes
//   a token (fp8_ds_mla: 448 FP8 NoPE bytes, 64 BF16 RoPE values, 7 UE8M0
//   scales and a pad byte, the head_bytes of
//   vllm/model_executor/layers/deepseek_v4_attention.py at 0a291a2e; vLLM
//   runs DeepSeek-V4 with an FP8 cache only and turns any fp8 into
//   fp8_ds_mla there), window config.sliding_window;
// - a ratio-r layer (r = 4 or 128): its pooled keys, DeepseekV4MLAAttention's
//   MLAAttentionSpec of the main 256-token blocks (the block the SWA and
//   compressor caches are sized against, "[256//4, head_dim] = [64, 584]"),
//   256 / r pooled keys a block of 584 bytes each, and the compressor's
//   running state, CompressorStateCache (vllm/models/deepseek_v4/compressor.py
//   at 01cc1d3e; vllm/model_executor/layers/deepseek_compressor.py at 0de10a27
//   before the move):
//   a SlidingWindowMLASpec of 2 x coff x head_dim F32 values a token (kv and
//   score; coff 2 for overlapping ratio-4 windows, else 1), window coff x r,
//   blocks of 4 tokens (r = 4) or 8 (r = 128);
// - a ratio-4 layer also its lightning indexer (DeepseekV4Indexer, only
//   "C4A uses sparse attention and hence has indexer": deepseek_v4.py at
//   023da1fc): keys of index_head_dim FP8 bytes and one F32 scale per 128
//   (DeepseekV4IndexerCache, an MLAAttentionSpec of ratio 4), and the
//   indexer's own compressor state (head_dim index_head_dim, coff 2).
// Every page is rounded up to 576 bytes (alignment=576; _apply_alignment_padding
// in vllm/v1/kv_cache_interface.py, as jasonboukheir/vllm carries it at
// 25eec99e). vLLM's DeepseekV4KVCachePlanner then
// (vllm/models/deepseek_v4/nvidia/kv_cache_planner.py at cb41f396; the same
// code as group_and_unify_kv_cache_specs, _get_kv_cache_groups_uniform_groups
// and _max_memory_usage_bytes_from_groups in vllm/v1/core/kv_cache_utils.py,
// as jasonboukheir/vllm carries it at 1d7d1a00) puts the MLAAttentionSpec layers in one group whose
// distinct page sizes make a "layer tuple", and the SlidingWindowMLASpec layers in one group per
// (block size, window), their pages padded to the nearest larger tuple page;
// it picks a tuple count d = _approximate_gcd of the groups' counts (the
// most layers sharing one page size), at least the first group's, splits each
// window group into cdiv(n, d) groups of layer_tuples[i::k], and sizes a
// request as N x (tuple bytes) x the sum over groups of their pages, N the
// largest tuple count of a group: a full group cdiv(len, 256) pages, a window
// group cdiv(min(window - 1 + in-flight tokens, len), block) + 1
// (SlidingWindowSpec max_admission_blocks_per_request).
// nullopt where the layout does not fit that scheme (no compressed layer, or
// a window group whose page sizes hold unequal layer counts, which vLLM
// refuses): the caller keeps llama.cpp's layout and says so.
std::optional<Bytes> vllm_deepseek_v4_request_bytes(const Architecture& a, std::int64_t context,
                                                    std::int64_t batched_tokens) {
  const auto cdiv = [](std::int64_t x, std::int64_t y) { return (x + y - 1) / y; };
  const auto aligned = [](std::int64_t bytes) { return (bytes + 575) / 576 * 576; };
  constexpr std::int64_t kMainBlock = 256;
  constexpr std::int64_t kTokenBytes = 584;
  const std::int64_t len = std::max<std::int64_t>(1, context);
  const std::int64_t in_flight = std::max<std::int64_t>(0, batched_tokens);
  const std::int64_t c4 = compressed_layer_count(a, 'C');
  const std::int64_t c128 = compressed_layer_count(a, 'H');
  const std::int64_t hd = a.head_dim;
  const std::int64_t ihd = a.attention.index_head_dim;
  if (c4 + c128 <= 0 || a.attention.sliding_window <= 0 || hd <= 0) {
    return std::nullopt;
  }
  // The full group: page size -> layers.
  std::vector<std::pair<std::int64_t, std::int64_t>> full;
  const auto add = [](std::vector<std::pair<std::int64_t, std::int64_t>>& g, std::int64_t page,
                      std::int64_t layers) {
    if (layers <= 0) {
      return;
    }
    for (auto& [p, n] : g) {
      if (p == page) {
        n += layers;
        return;
      }
    }
    g.emplace_back(page, layers);
  };
  add(full, aligned(kMainBlock / 4 * kTokenBytes), c4);
  if (ihd > 0) {
    add(full, aligned(kMainBlock / 4 * (ihd + ihd / 128 * 4)), c4);
  }
  add(full, aligned(kMainBlock / 128 * kTokenBytes), c128);
  std::int64_t tuple_bytes = 0;
  std::int64_t full_tuples = 0;
  for (const auto& [p, n] : full) {
    tuple_bytes += p;
    full_tuples = std::max(full_tuples, n);
  }
  // The window groups: (raw page, layers) pairs, block and window.
  struct WindowGroup {
    std::vector<std::pair<std::int64_t, std::int64_t>> raw;
    std::int64_t block;
    std::int64_t window;
  };
  std::vector<WindowGroup> windows;
  windows.push_back({{{aligned(64 * kTokenBytes), a.layers}}, 64, a.attention.sliding_window});
  if (c4 > 0) {
    WindowGroup g{{{aligned(4 * 2 * 2 * hd * 4), c4}}, 4, 8};
    if (ihd > 0) {
      g.raw.emplace_back(aligned(4 * 2 * 2 * ihd * 4), c4);
    }
    windows.push_back(g);
  }
  if (c128 > 0) {
    windows.push_back({{{aligned(8 * 2 * hd * 4), c128}}, 8, 128});
  }
  // (block, window) is vLLM's key: groups that share it are one.
  for (std::size_t i = 0; i < windows.size(); ++i) {
    for (std::size_t j = i + 1; j < windows.size();) {
      if (windows[j].block == windows[i].block && windows[j].window == windows[i].window) {
        windows[i].raw.insert(windows[i].raw.end(), windows[j].raw.begin(), windows[j].raw.end());
        windows.erase(windows.begin() + static_cast<std::ptrdiff_t>(j));
      } else {
        ++j;
      }
    }
  }
  // Each window group's layers per tuple page (the nearest larger one).
  std::vector<std::int64_t> tuples{full_tuples};
  std::vector<std::int64_t> pages_of;
  for (const WindowGroup& g : windows) {
    std::vector<std::pair<std::int64_t, std::int64_t>> padded;
    for (const auto& [raw, n] : g.raw) {
      std::int64_t candidate = 0;
      for (const auto& [p, unused] : full) {
        if (p >= raw && (candidate == 0 || p < candidate)) {
          candidate = p;
        }
      }
      if (candidate == 0) {
        return std::nullopt;
      }
      add(padded, candidate, n);
    }
    for (const auto& [p, n] : padded) {
      if (n != padded.front().second) {
        return std::nullopt;
      }
    }
    tuples.push_back(padded.front().second);
    pages_of.push_back(cdiv(std::min(g.window - 1 + in_flight, len), g.block) + 1);
  }
  // _approximate_gcd: the d in [the first count, the largest] that pads the
  // counts least, the larger on a tie.
  const std::int64_t largest = *std::max_element(tuples.begin(), tuples.end());
  std::int64_t d = std::max<std::int64_t>(1, tuples.front());
  std::int64_t best_pad = -1;
  for (std::int64_t c = d; c <= largest; ++c) {
    std::int64_t pad = 0;
    for (const std::int64_t x : tuples) {
      pad += (c - x % c) % c;
    }
    if (best_pad < 0 || pad <= best_pad) {
      best_pad = pad;
      d = c;
    }
  }
  // Split each window group into k = cdiv(n, d) groups; the largest holds
  // cdiv(n, k) tuples.
  std::int64_t n_max = full_tuples;
  std::int64_t pages = cdiv(len, kMainBlock);
  for (std::size_t i = 0; i < pages_of.size(); ++i) {
    const std::int64_t n = tuples[i + 1];
    const std::int64_t k = cdiv(n, d);
    n_max = std::max(n_max, cdiv(n, k));
    pages += k * pages_of[i];
  }
  return n_max * tuple_bytes * pages;
}
}  // namespace

VllmRequestKv vllm_request_kv(const Architecture& arch, std::int64_t context, const KvType& k_type,
                              const KvType& v_type, std::int64_t batched_tokens) {
  const Architecture a = vllm_cache_layout(arch);
  // vLLM v1 (vllm/v1/kv_cache_interface.py, max_memory_usage_bytes, summed
  // over the layers by kv_cache_utils.check_enough_kv_cache_memory):
  // - full attention: cdiv(max_model_len, block) pages;
  // - sliding window: cdiv(min(window - 1 + max_num_batched_tokens, len), block) + 1;
  // - chunked local attention: cdiv(min(chunk + max_num_batched_tokens, len), block);
  // - Mamba / linear attention: one page per request, padded to the
  //   attention page, whose block grows in steps of 16 tokens until it holds
  //   the state (model_executor/models/config.py,
  //   HybridAttentionMambaModelConfig: mamba_page_size_padded).
  constexpr std::int64_t kAlign = 16;
  // Architectures whose caches vLLM lays out its own way, sized below in
  // llama.cpp's layout all the same: the estimate says so
  // (Estimate::kv_layout_not_modelled, docs/architectures.md).
  // Qwen4Exp's QSA layers (qsa) and dots.llm3's two MLA kinds
  // (swa_kv_lora_rank) are sized in vLLM's own layout below.
  const bool qsa = a.attention.index_block > 0 && a.attention.index_head_dim > 0;
  const std::string not_modelled = compressed_attention(a) ? "DeepSeek-V4" : "";
  if (compressed_attention(a)) {
    // DeepSeek-V4: vLLM's own layout (vllm_deepseek_v4_request_bytes), in
    // its 256-token main blocks; the cache is FP8 whatever the K type.
    if (const auto bytes = vllm_deepseek_v4_request_bytes(a, context, batched_tokens)) {
      return {*bytes, 256, "", "fp8"};
    }
    // Else llama.cpp's caches (compressed_kv_bytes) in 16-token blocks, the
    // compressor state in 16 bits, the window plus one scheduler step, and
    // the estimate says that this layout is not vLLM's.
    KvCacheQuery kv{context, 1, batched_tokens, k_type, v_type, kAlign};
    kv.state_bytes = 2;
    return {kv_cache_bytes(a, kv), kAlign, not_modelled, ""};
  }
  const auto cdiv = [](std::int64_t x, std::int64_t y) {
    return (x + y - 1) / std::max<std::int64_t>(1, y);
  };
  const CachedLayers layers = cached_layers(a);
  if (a.attention.swa_kv_lora_rank > 0 && uses_mla(a)) {
    // dots.llm3 (vllm-project/vllm vllm/models/dots3_note/nvidia/model.py
    // and attention.py at 055e47c2, read 2026-12-05): every layer's MLA
    // cache row is the windowed layers' latent, swa_kv_lora_rank + rope
    // (1088): the full layers' Dots3NotePaddedMLAAttention replaces its
    // MLAAttentionSpec's head_size with that physical width (their own 576
    // are read from the front of the row), and the windowed layers
    // (Dots3NoteSlidingAttention) are a sliding-window MLAAttention of
    // config.sliding_window_size; both in the KV cache dtype. The full
    // layers also keep DeepSeek-V3.2's indexer keys (DeepseekV32IndexerCache:
    // index_head_dim FP8 bytes and an F32 scale per 128, indexer_cache_bytes),
    // packed beside the MLA pages in each block (Dots3NotePaddedSparseBackend,
    // KVCacheLayout.BLHNC). Blocks of 64 tokens: FlashAttnMLASparseBackend's
    // get_supported_kernel_block_sizes (vllm/v1/attention/backends/mla/
    // flashattn_mla_sparse.py at 851a3c84). Pages are counted per layer at
    // their own sizes, the window's as vLLM's SlidingWindowSpec admits them.
    constexpr std::int64_t kSparseBlock = 64;
    const std::int64_t len = std::max<std::int64_t>(1, context);
    const Bytes row_page =
        cost((a.attention.swa_kv_lora_rank + a.attention.qk_rope_head_dim) * kSparseBlock, k_type);
    const std::int64_t full_pages = cdiv(len, kSparseBlock);
    const std::int64_t window_pages =
        cdiv(std::min<std::int64_t>(a.attention.sliding_window - 1 + batched_tokens, len),
             kSparseBlock) +
        1;
    VllmRequestKv r;
    r.block_tokens = kSparseBlock;
    r.bytes = full_pages * row_page * layers.full +
              full_pages * indexer_cache_bytes(a, kSparseBlock) * indexer_layer_count(a) +
              (layers.windowed > 0 ? window_pages * row_page * layers.windowed : 0);
    return r;
  }
  const int attention = layers.full + layers.windowed;
  const KvCacheQuery one{1, 1, 0, k_type, v_type, 1};
  // Qwen4Exp (vllm-project/vllm vllm/models/qwen4_exp/, qsa.py and
  // indexer_qsa.py in nvidia/ at 010efafd, common/qsa_cache.py at 02001b44,
  // read 2026-12-05): a QSA layer's main cache is a FullAttentionSpec of the
  // KV heads' K and V (head_size = head_size_v = head_dim) in the KV cache
  // dtype (BF16 or FP8), and its indexer keeps two side caches of one key
  // head of indexer_head_dim in BF16 (indexer_kv_dtype "bf16" by default):
  // QSACompressedKeyCache, an MLAAttentionSpec of the main block size with
  // tokens_per_state = indexer_compress_ratio (one pooled key per
  // compress_ratio tokens: a block holds block / ratio keys), and
  // QSAKeyStateCache, a CircularBufferSpec of one block per request whose
  // ring holds qsa_ring_capacity rows (the ratio rounded up to whole groups
  // that divide the block: the ratio itself without speculative tokens),
  // each row the key and, as the model uses MRoPE (the published config's
  // rope_parameters carry mrope_section), its three int64 positions:
  // ceil(head / 4) x 4 + 3 x 4 BF16 values. llama.cpp's layout (an
  // unpooled indexer key and a V row of head_dim a token) is not vLLM's.
  // The block is sized from the main cache alone, as
  // HybridAttentionMambaModelConfig sizes it from the attention spec; the
  // side pages are counted at their own sizes, not padded to a common page.
  const Bytes per_layer_token =
      qsa ? cost(std::int64_t{a.kv_heads} * a.head_dim, k_type) +
                cost(std::int64_t{a.kv_heads} * a.head_dim, v_type)
      : attention > 0 ? (kv_cache_bytes(a, one) - recurrent_state_bytes(a, 1)) / attention
                      : 0;
  const int recurrent = recurrent_layer_count(a);
  // A recurrent layer's state (MambaStateDtypeCalculator,
  // vllm/model_executor/layers/mamba/mamba_utils.py at 02d71083): the
  // model's dtype (mamba_cache_dtype and mamba_ssm_cache_dtype "auto"), but
  // Kimi Delta Attention's recurrent matrix in F32 (kda_state_dtype returns
  // `(state_dtype, torch.float32)`: conv, then heads x head_dim x head_dim;
  // Kimi Linear's kimi_linear.py, Ling 3's bailing KDA and K3's gated delta
  // net take it): its values 4 bytes, the convolution's 2. Nemotron-H's
  // Mamba-2 scan state in F32 too: vLLM's NemotronHForCausalLMConfig
  // (vllm/model_executor/models/config.py, as ROCm/vllm carries it at
  // 104577fa) sets mamba_ssm_cache_dtype, when left "auto", to the
  // config.json's mamba_ssm_cache_dtype or DEFAULT_MAMBA_SSM_CACHE_DTYPE
  // "float32" ("Only `float32` is known to have no accuracy issues by
  // default"), and mamba2_state_dtype keeps the convolution in the model's
  // dtype (model.hpp vllm_f32_state_floats).
  const std::int64_t kda_f32 = a.attention.kda ? std::int64_t{a.attention.delta_net_v_heads} *
                                                     a.attention.delta_net_head_dim *
                                                     a.attention.delta_net_head_dim
                                               : 0;
  const Bytes state = (std::int64_t{a.attention.recurrent_state_floats} + kda_f32 +
                       a.attention.vllm_f32_state_floats) *
                      2;
  VllmRequestKv r;
  r.not_modelled = not_modelled;
  r.block_tokens = kAlign;
  if (recurrent > 0 && per_layer_token > 0 && state > 0) {
    r.block_tokens = kAlign * std::max<std::int64_t>(1, cdiv(state, kAlign * per_layer_token));
  }
  const std::int64_t b = r.block_tokens;
  const Bytes page = b * per_layer_token;
  const std::int64_t len = std::max<std::int64_t>(1, context);
  Bytes windowed_pages = 0;
  if (layers.windowed > 0) {
    const std::int64_t w = a.attention.sliding_window;
    windowed_pages = a.attention.chunked ? cdiv(std::min(w + batched_tokens, len), b)
                                         : cdiv(std::min(w - 1 + batched_tokens, len), b) + 1;
  }
  // Qwen4Exp's side caches a QSA layer: the pooled keys' page beside each
  // main page, and the ring's one page a request.
  const std::int64_t ihd = a.attention.index_head_dim;
  const Bytes qsa_page = qsa ? cdiv(b, a.attention.index_block) * ihd * 2 : 0;
  const Bytes qsa_ring =
      qsa ? std::int64_t{a.attention.index_block} * (cdiv(ihd, 4) * 4 + 12) * 2 : 0;
  r.bytes = cdiv(len, b) * (page + qsa_page) * layers.full + qsa_ring * layers.full +
            windowed_pages * page * layers.windowed +
            std::int64_t{recurrent} * (page > 0 ? std::max(page, state) : state);
  return r;
}

Bytes indexer_cache_bytes(const Architecture& a, std::int64_t cells) {
  // DeepSeek-V3.2's lightning indexer caches one index_head_dim key per token
  // and layer in FP8 with one F32 scale per 128 values (DeepSeek-V3.2-Exp
  // inference/model.py, Indexer: k_cache float8_e4m3fn, k_scale_cache
  // float32 of head_dim / block_size).
  const std::int64_t d = a.attention.index_head_dim;
  if (d <= 0) {
    return 0;
  }
  return cells * (d + 4 * ((d + 127) / 128));
}

Bytes indexer_cache_bytes(const Architecture& a, std::int64_t cells, const KvCacheQuery& q) {
  // llama.cpp (src/llama-kv-cache-dsa.cpp) builds a second llama_kv_cache for
  // the indexer with one KV head of indexer_head_size, in the K cache type.
  if (q.indexer_in_k_type && a.attention.index_head_dim > 0) {
    return cost(std::int64_t{a.attention.index_head_dim} * cells, q.k_type);
  }
  return indexer_cache_bytes(a, cells);
}

// The GPU memory Ollama counts for its defaults: since v0.30.0 (2026-05-29,
// "runner: Remove CGO engines, use llama-server exclusively for GGML
// models") it sums, over the GPUs it discovered, their total memory less
// OLLAMA_GPU_OVERHEAD (0 by default) (ollama/ollama server/routes.go,
// "vram-based default context", at fb307609). A CPU is not a GPU: a
// CPU-only machine counts 0. On a Mac the Metal device's total is
// recommendedMaxWorkingSetSize (discover), the usable memory here.
Bytes ollama_gpu_memory(const InferenceQuery& q) {
  Bytes vram = 0;
  for (const Device& d : q.devices.devices) {
    if (d.kind == DeviceKind::Cpu) {
      continue;
    }
    vram += d.vendor == "apple" ? usable_bytes(d, q.usable) : d.memory_bytes;
  }
  return vram;
}

// Ollama's default context when none is given: by that GPU memory, >= 47 GiB
// 262144, >= 23 GiB 32768, else 4096 (server/routes.go; inference-estimators.md
// section 3a), capped at the model's trained context (server/sched.go
// effectiveModelContext).
DefaultContext ollama_default_context(const InferenceQuery& q) {
  const Bytes vram = ollama_gpu_memory(q);
  DefaultContext d;
  constexpr Bytes kMid = 23 * kGiB;
  constexpr Bytes kLarge = 47 * kGiB;
  d.tokens = vram >= kLarge ? 262144 : vram >= kMid ? 32768 : 4096;
  d.note = vram > 0 ? fmt::format(
                          "context {{}} tokens: Ollama's default for {} of GPU memory (4096 under "
                          "{}, 32768 under {}, else 262144)",
                          format_memory(vram, q.units), format_memory(kMid, q.units),
                          format_memory(kLarge, q.units))
                    : std::string(
                          "context {} tokens: Ollama's default without a GPU (it picks 32768 or "
                          "262144 only by GPU memory)");
  if (q.model.arch.max_context > 0 && q.model.arch.max_context < d.tokens) {
    d.tokens = q.model.arch.max_context;
    d.note += fmt::format(", capped at the model's trained {}", q.model.arch.max_context);
  }
  d.note = fmt::format(fmt::runtime(d.note), d.tokens) + "; give --context to change it";
  return d;
}

// Ollama's automatic batch (ollama/ollama server/sched.go at fb307609,
// automaticGenerationBatch; passed to llama-server as -b N -ub N, so it is
// the micro-batch too). With flash attention off on a CUDA GPU it stays at
// 512 (256 past a 4096-token context when a CUDA GPU has 8 GiB or less).
// Otherwise 512 up to a 4096-token context, 1024 up to 32768, 2048 above,
// stepped down (2048 -> 1024 -> 512) while Ollama's own prediction P (the
// file's bytes + 2 x layers x the fewest KV heads of a layer x hidden / heads
// x context x 2 bytes: PredictServerVRAM) of the GPUs' free memory A is over
// 60 % (2048) or 75 % (1024), or P plus a surcharge (2 GiB for 2048, 768 MiB
// for 1024) is over 80 % of A (generationBatchFits). Without a GPU (A = 0)
// nothing steps it down (Ollama counts the GPUs it placed the model on:
// one, when ollama_single_gpu picks one). An embedding model (Model::embedding) gets none of
// this: Ollama passes it -b N -ub N with N = 2048, at most the context times
// the parallel sequences (llm/llama_server.go: DefaultEmbeddingNumBatch,
// embeddingBatchSize, appendBatchArgs; server/routes.go
// shouldApplyEmbeddingBatchDefault).
Bytes ollama_predicted_vram(const InferenceQuery& q, std::int64_t tokens, Bytes weight_bytes) {
  const Architecture& a = q.model.arch;
  // The fewest KV heads of a layer (a recurrent layer's 0 counts as 1).
  std::int64_t kv_heads = a.kv_heads;
  if (a.attention.global_kv_heads > 0) {
    kv_heads = std::min<std::int64_t>(kv_heads, a.attention.global_kv_heads);
  }
  if (recurrent_layer_count(a) > 0) {
    kv_heads = 1;
  }
  kv_heads = std::max<std::int64_t>(kv_heads, 1);
  const std::int64_t head = a.heads > 0 ? a.hidden_size / a.heads : 0;
  return weight_bytes + 2 * std::int64_t{a.layers} * kv_heads * head * tokens * 2;
}

std::optional<std::size_t> ollama_single_gpu(const InferenceQuery& q, std::int64_t context,
                                             Bytes weight_bytes) {
  const auto& devs = q.devices.devices;
  if (devs.size() < 2 || (q.gpu_layers && *q.gpu_layers == 0) ||
      std::any_of(devs.begin(), devs.end(),
                  [](const Device& d) { return d.kind == DeviceKind::Cpu; })) {
    return std::nullopt;
  }
  const Bytes predicted = ollama_predicted_vram(q, context * std::max(1, q.batch), weight_bytes);
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < devs.size(); ++i) {
    const Bytes available = usable_bytes(devs[i], q.usable);
    if (predicted > available * 80 / 100) {
      continue;
    }
    const bool integrated = devs[i].kind == DeviceKind::Unified;
    const bool best_integrated = best && devs[*best].kind == DeviceKind::Unified;
    if (!best ||
        (integrated != best_integrated ? !integrated
                                       : available > usable_bytes(devs[*best], q.usable))) {
      best = i;
    }
  }
  return best;
}

namespace {

// The query on its device `i` alone (Ollama's single-GPU placement).
InferenceQuery on_one_device(const InferenceQuery& q, std::size_t i) {
  InferenceQuery one = q;
  one.devices.devices = {q.devices.devices[i]};
  one.tensor_split.clear();
  return one;
}

}  // namespace

InferenceQuery as_placed(const InferenceQuery& q, const Estimate& e) {
  if (e.placed_device < 0 ||
      static_cast<std::size_t>(e.placed_device) >= q.devices.devices.size()) {
    return q;
  }
  return on_one_device(q, static_cast<std::size_t>(e.placed_device));
}

DefaultContext ollama_default_batch(const InferenceQuery& q, std::int64_t context, bool flash,
                                    Bytes file_bytes) {
  DefaultContext d;
  if (!q.ubatch_is_default) {
    return d;
  }
  const auto cuda = [](const Device& dev) {
    return dev.vendor == "nvidia" && dev.kind != DeviceKind::Cpu;
  };
  const auto& devs = q.devices.devices;
  const std::int64_t ctx = context * std::max(1, q.batch);
  if (q.model.embedding) {
    constexpr std::int64_t kEmbeddingBatch = 2048;
    d.tokens = std::min(kEmbeddingBatch, ctx);
    d.note = fmt::format(
        "micro-batch {} tokens: Ollama's batch for an embedding model (2048, at most the "
        "context); give --ubatch to change it",
        d.tokens);
    return d;
  }
  if (!flash && std::any_of(devs.begin(), devs.end(), cuda)) {
    const bool small = std::any_of(devs.begin(), devs.end(), [&](const Device& dev) {
      return cuda(dev) && dev.memory_bytes > 0 && dev.memory_bytes <= 8 * kGiB;
    });
    d.tokens = ctx > 4096 && small ? 256 : 512;
    d.note = fmt::format(
        "micro-batch {} tokens: Ollama's batch with flash attention off on a CUDA GPU (256 past "
        "a 4096-token context on 8 GiB or less); give --ubatch to change it",
        d.tokens);
    return d;
  }
  const Bytes predicted = ollama_predicted_vram(q, ctx, file_bytes);
  Bytes available = 0;
  for (const Device& dev : devs) {
    if (dev.kind != DeviceKind::Cpu) {
      available += usable_bytes(dev, q.usable);
    }
  }
  const auto fits = [&](std::int64_t batch) {
    if (available == 0) {
      return true;
    }
    const Bytes threshold = available * 80 / 100;
    const Bytes surcharge = batch >= 2048 ? 2 * kGiB : batch >= 1024 ? 768 * kMiB : 0;
    const Bytes headroom = batch >= 2048 ? available * 60 / 100 : available * 75 / 100;
    return predicted <= threshold && predicted <= headroom && surcharge <= threshold - predicted;
  };
  std::int64_t batch = ctx > 32768 ? 2048 : ctx > 4096 ? 1024 : 512;
  while (batch > 512 && !fits(batch)) {
    batch = batch > 1024 ? 1024 : 512;
  }
  d.tokens = batch;
  d.note = fmt::format(
      "micro-batch {} tokens: Ollama's automatic batch for {} {}-token context (512 up to 4096, "
      "1024 up to 32768, else 2048; less when its own prediction of the model, {}, takes over "
      "60 %/75 % of the GPU memory); give --ubatch to change it",
      batch, indefinite_article(ctx), ctx, format_memory(predicted, q.units));
  return d;
}

namespace {

// The estimate of `q` with its weight layout already built (weight_layout of
// the query's model and precision).
Estimate estimate_laid_out(const InferenceQuery& q, WeightLayout layout, Detail detail) {
  Estimate e;
  e.terms.reserve(8);  // the most any runtime adds: one allocation
  e.runtime = q.runtime.value_or(default_runtime(q.model, q.precision, q.devices));
  e.context = q.context;
  if (e.runtime == Runtime::Ollama && q.context_is_default) {
    e.context = ollama_default_context(q).tokens;
  } else if (q.context_is_default && q.model.arch.max_context > 0 &&
             q.model.arch.max_context < e.context) {
    // No --context: not past what the model was trained for (BERT's 512,
    // nomic-embed-text's 2048); llama.cpp's own default is that length.
    e.context = q.model.arch.max_context;
  }
  const Architecture& a = q.model.arch;

  // Flash attention: auto means on (every current llama.cpp backend supports it
  // for common head sizes). A quantised V cache needs it; without it llama.cpp
  // falls back to f16 for V.
  e.flash_attention = q.flash_attention != FlashAttention::Off;
  e.kv_type_v = q.kv_type;
  // llama.cpp turns it off for Grok whatever was asked (llama-context.cpp
  // llama_init_from_model at 80fb11ac), before it checks a quantised V
  // cache, which then fails to create the context.
  const bool llama_engine = e.runtime == Runtime::LlamaCpp || e.runtime == Runtime::Ollama ||
                            e.runtime == Runtime::Generic;
  if (llama_engine && a.attention.flash_forced_off && e.flash_attention) {
    e.flash_attention = false;
    if (q.kv_type.quantised()) {
      e.kv_type_v = kv_f16();
      e.warnings.push_back(fmt::format(
          "llama.cpp forces flash attention off for this architecture (grok) and then refuses a "
          "quantised V cache (\"quantized V cache requires flash_attn\"): estimated with V at "
          "f16 (K uses {})",
          q.kv_type.id));
    } else if (q.flash_attention == FlashAttention::On) {
      e.warnings.push_back(
          "llama.cpp forces flash attention off for this architecture (grok): estimated without "
          "it");
    }
  } else {
    if (llama_engine && a.attention.flash_aborts && e.flash_attention) {
      // PLM (Attention::flash_aborts): llama.cpp aborts rather than turn it
      // off; what runs is the same model with flash attention off, and a
      // quantised V then stays f16 as below.
      e.flash_attention = false;
      e.warnings.push_back(
          "llama.cpp 80fb11ac aborts on this architecture (plm) with flash attention (plm.cpp "
          "hands the cache a 2-D V and ggml_set_rows asserts): run it with flash attention off "
          "(-fa off); estimated without it");
    }
    if (!e.flash_attention && q.kv_type.quantised()) {
      e.kv_type_v = kv_f16();
      // Ollama quantises K and V alike: OLLAMA_KV_CACHE_TYPE becomes
      // --cache-type-k and --cache-type-v whatever the flash attention
      // (ollama/ollama llm/llama_server.go at fb307609), and llama.cpp then
      // refuses the context (llama-context.cpp at 80fb11ac).
      e.warnings.push_back(
          e.runtime == Runtime::Ollama
              ? fmt::format(
                    "Ollama passes OLLAMA_KV_CACHE_TYPE={} to llama-server for K and V alike, "
                    "and with flash attention off llama.cpp refuses a quantised V cache "
                    "(\"quantized V cache requires flash_attn to be enabled\"): leave flash "
                    "attention automatic (OLLAMA_FLASH_ATTENTION unset); estimated with V at f16",
                    q.kv_type.id)
              : fmt::format("a quantised V cache needs flash attention: V stays f16 (K uses {})",
                            q.kv_type.id));
    }
  }

  detail::Inputs in{q,
                    std::move(layout),
                    e.context,
                    std::max(1, q.batch),
                    e.flash_attention,
                    q.kv_type,
                    e.kv_type_v,
                    detail == Detail::Explained};
  e.model_weight_bytes = in.layout.total();
  e.ubatch = q.ubatch;
  if (e.runtime == Runtime::Ollama && q.ubatch_is_default) {
    e.ubatch = ollama_default_batch(q, e.context, e.flash_attention, e.model_weight_bytes).tokens;
  }
  in.ubatch = e.ubatch;
  // Ollama's engine runs some multimodal architectures as text only (Gemma
  // 3n: ollama/ollama model/models/gemma3n/model.go registers a text model
  // and nothing else), so there is no encoder to load under it.
  const bool ollama_text = e.runtime == Runtime::Ollama && q.model.ollama_text_only;
  in.projector = q.text_only || ollama_text ? 0 : in.layout.projector;
  const bool llama_runtime = e.runtime == Runtime::LlamaCpp || e.runtime == Runtime::Ollama ||
                             e.runtime == Runtime::Generic;
  if (in.projector > 0 && q.model.mmproj && llama_runtime) {
    in.projector_compute = detail::clip_compute_bytes(*q.model.mmproj, e.flash_attention);
    in.projector += in.projector_compute;
  }
  // Ollama keeps the projector on the CPU (--no-mmproj-offload) in three
  // cases (ollama/ollama llm/llama_server.go at fb307609, appendMMProjArgs
  // and shouldDisableMMProjOffload): num_gpu 0 ("cpu-only"); num_gpu below
  // the model's blocks + 1 ("partial-text-offload"); or a GPU whose free
  // memory (its total when free is unknown) is below the projector's
  // tensors + 1 GiB ("limited-vram"; usable memory stands for free memory
  // here). Otherwise it stays on the GPU and llama-server's --fit is told to
  // leave that much free (LLAMA_ARG_FIT_TARGET), moving text layers off
  // instead, which the offload plan does; only a load that still runs out of
  // memory is retried with the projector on the CPU (retryWithMMProjCPUOffload),
  // a failure not modelled here.
  Bytes projector_host = 0;
  if (e.runtime == Runtime::Ollama && in.projector > 0 && !q.devices.cpu_only() && e.device_known) {
    const Bytes tensors = in.projector - in.projector_compute;
    const int blocks_and_output = a.layers + 1;
    std::string why;
    if (q.gpu_layers && *q.gpu_layers == 0) {
      why = "num_gpu 0";
    } else if (q.gpu_layers && *q.gpu_layers < blocks_and_output) {
      why = fmt::format("num_gpu {} is below the model's {} layers", *q.gpu_layers,
                        blocks_and_output);
    } else {
      for (const Device& d : q.devices.devices) {
        if (const Bytes free = usable_bytes(d, q.usable); free < tensors + kGiB) {
          why = fmt::format("{} ({} usable) has less than the projector's {} + 1 GiB", d.name,
                            format_memory(free, q.units), format_memory(tensors, q.units));
          break;
        }
      }
    }
    if (!why.empty()) {
      projector_host = in.projector;
      in.projector = 0;
      e.projector_host_why = fmt::format(
          "projector in system RAM, {}: Ollama starts llama-server with --no-mmproj-offload when "
          "{} (llm/llama_server.go at fb307609, shouldDisableMMProjOffload)",
          format_memory(projector_host, q.units), why);
    }
  }
  switch (e.runtime) {
    case Runtime::LlamaCpp:
    case Runtime::Ollama:
    case Runtime::Generic:
      detail::llama_family(in, e);
      break;
    case Runtime::Vllm:
      detail::vllm(in, e);
      break;
    case Runtime::Transformers:
    case Runtime::Mlx:
      detail::pytorch(in, e);
      break;
  }
  if (projector_host > 0) {
    Term& t = e.terms.emplace_back();
    t.key = "projector";
    t.bytes = projector_host;
    t.placement = Placement::Host;
    if (detail == Detail::Explained) {
      t.formula = e.projector_host_why;
      t.source = "ollama/ollama llm/llama_server.go at fb307609 (shouldDisableMMProjOffload)";
    }
    e.projector_host = projector_host;
    e.host += projector_host;
    if (e.offload) {
      OffloadPlan& p = *e.offload;
      p.host_bytes += projector_host;
      if (p.ram_available) {
        p.ram_holds = p.host_bytes <= *p.ram_available;
        if (!*p.ram_holds && e.verdict == Verdict::Offload) {
          e.verdict = Verdict::NoFit;
        }
      }
    }
  }
  e.error_band_pct =
      detail::error_band_pct(e.runtime, e, in.layout.recipe,
                             q.model.assumed() && q.precision.kind == PrecisionKind::GgufMix);
  e.band =
      static_cast<Bytes>(std::llround(static_cast<double>(e.required) * e.error_band_pct / 100.0));
  if (e.device_known && q.devices.count() == 1) {
    e.soft_ceiling = soft_memory_ceiling(q.devices.devices.front(), q.usable);
  }
  // An offload that the RAM holds by less than the band is tight as well
  // (on unified memory: the GPU and the CPU side together nearly fill it).
  const bool offload_tight = e.verdict == Verdict::Offload && e.offload &&
                             e.offload->ram_available &&
                             *e.offload->ram_available - e.offload->host_bytes <= e.band;
  e.tight =
      e.device_known && ((e.verdict == Verdict::Fits && e.headroom <= e.band) ||
                         (e.verdict != Verdict::Fits && e.headroom < 0 && -e.headroom <= e.band) ||
                         e.over_soft_limit() || offload_tight);
  if (q.precision.gguf && (e.runtime == Runtime::Transformers || e.runtime == Runtime::Vllm)) {
    e.warnings.push_back(fmt::format("{} is a llama.cpp format; {} loads other checkpoints",
                                     q.precision.name, to_string(e.runtime)));
  }
  if (a.max_context > 0 && e.context > a.max_context) {
    e.warnings.push_back(fmt::format("context {} is longer than the model was trained for ({})",
                                     e.context, a.max_context));
  }
  if (q.usable.gpu_limit && q.devices.count() == 1 &&
      q.devices.devices.front().kind == DeviceKind::Unified) {
    const Usable pool = unified_pool(q.devices.devices.front(), q.units);
    if (*q.usable.gpu_limit > pool.bytes) {
      e.warnings.push_back(fmt::format(
          "--gpu-limit {} is more than the operating system leaves of unified memory ({} of {}): "
          "counted at {}",
          format_memory(*q.usable.gpu_limit, q.units), format_memory(pool.bytes, q.units),
          format_memory(q.devices.devices.front().memory_bytes, q.units),
          format_memory(pool.bytes, q.units)));
    }
  }
  if (llama_engine && !q.model.llama_cpp_cannot_run.empty() &&
      !(e.runtime == Runtime::Ollama && q.model.ollama_engine_runs)) {
    e.warnings.push_back(q.model.llama_cpp_cannot_run);
  }
  if (auto unknown = unchecked_architecture_warning(q.model); !unknown.empty()) {
    e.warnings.push_back(std::move(unknown));
  }
  return e;
}

}  // namespace

Estimate estimate_inference(const InferenceQuery& query, Detail detail) {
  // The weights as the runtime holds them (runtime.cpp, precision_as_run):
  // MLX's group scales, FP8 that transformers dequantises.
  const Runtime runtime =
      query.runtime.value_or(default_runtime(query.model, query.precision, query.devices));
  const Precision run = precision_as_run(query.precision, runtime, query.devices);
  std::optional<InferenceQuery> adjusted;
  if (run.bits_per_weight != query.precision.bits_per_weight || run.id != query.precision.id) {
    adjusted = query;
    adjusted->precision = run;
    adjusted->runtime = runtime;  // bf16 alone would default to llama.cpp on a Mac or a CPU
    // A GGUF under MLX (mlx_from_gguf): the bytes of its tensors as
    // mlx.core.load holds them, type by type (the output head Q6_K of a
    // Q4_0 file cast to F16 too), over the shape of the 16-bit layout.
    if (runtime == Runtime::Mlx && query.precision.gguf) {
      if (const Bytes held = mlx_gguf_bytes(query.model, query.precision); held > 0) {
        adjusted->model.file_weight_bytes = held;
      }
    }
  }
  // A window llama.cpp does not build (Mistral v0.1, Phi-3 4k under
  // llama.cpp and Ollama): every layer full (runtime.hpp, arch_as_run).
  if (query.model.arch.attention.llama_cpp_no_window &&
      query.model.arch.attention.kind == AttentionKind::Sliding) {
    Architecture run_arch = arch_as_run(query.model.arch, runtime);
    if (run_arch.attention.kind != query.model.arch.attention.kind) {
      if (!adjusted) {
        adjusted = query;
      }
      adjusted->model.arch = std::move(run_arch);
      adjusted->runtime = runtime;
    }
  }
  const InferenceQuery& q = adjusted ? *adjusted : query;
  if (fp8_dequantised(query.precision, runtime, query.devices)) {
    Estimate e = estimate_laid_out(q, weight_layout(q.model, q.precision), detail);
    // vLLM is the way out on an older NVIDIA card, not on a Mac or a CPU
    // (runtime_device_conflict).
    const bool vllm_runs =
        runtime_devices_conflict(Runtime::Vllm, query.precision, query.devices).empty();
    e.warnings.push_back(fmt::format(
        "transformers runs FP8 weights on CUDA GPUs of compute capability 8.9 and up (Ada, "
        "Hopper, Blackwell) and dequantises them to BF16 elsewhere (earlier versions refuse to "
        "load): weights counted at 16 bits{}",
        vllm_runs ? "; vLLM keeps them at 8 bits from compute capability 7.5 (--runtime vllm)"
                  : ""));
    return e;
  }
  if (runtime == Runtime::Vllm && q.precision.id == "fp8" &&
      std::any_of(q.devices.devices.begin(), q.devices.devices.end(),
                  [](const Device& d) { return !fp8_tensor_cores(d); })) {
    Estimate e = estimate_laid_out(q, weight_layout(q.model, q.precision), detail);
    e.warnings.push_back(
        "this GPU has no FP8 hardware (compute capability below 8.9): vLLM runs FP8 as "
        "weight-only W8A16 through its Marlin kernel, the weights 8-bit, the arithmetic 16-bit");
    return e;
  }
  WeightLayout layout = weight_layout(q.model, q.precision);
  if (q.runtime.value_or(default_runtime(q.model, q.precision, q.devices)) == Runtime::Ollama) {
    // Ollama on several GPUs: the estimate of the one it places the model on,
    // at the context it picked from all of them.
    const std::int64_t context =
        q.context_is_default ? ollama_default_context(q).tokens : q.context;
    if (const auto one = ollama_single_gpu(q, context, layout.total())) {
      InferenceQuery placed = on_one_device(q, *one);
      placed.runtime = Runtime::Ollama;
      placed.context = context;
      placed.context_is_default = false;
      Estimate e = estimate_laid_out(placed, std::move(layout), detail);
      e.placed_device = static_cast<int>(*one);
      return e;
    }
  }
  Estimate e = estimate_laid_out(q, std::move(layout), detail);
  if (runtime == Runtime::Mlx && query.precision.gguf) {
    e.warnings.push_back(fmt::format(
        "{} is a llama.cpp format: mlx_lm loads safetensors, not GGUF; mlx.core.load reads the "
        "file as {} (counted so)",
        query.precision.name, run.name));
  }
  if (transformers_gptq_on_metal(query.precision, runtime, query.devices)) {
    e.warnings.push_back(fmt::format(
        "{} on a Mac: transformers runs it through GPTQModel only (its Torch kernel; AutoGPTQ "
        "has no Metal kernel: docs/source/en/quantization/overview.md at huggingface/"
        "transformers 1d883ec0), slower than MLX's 4-bit (-p int4) or llama.cpp's Q4_K_M",
        query.precision.name));
  }
  return e;
}

bool offload_ram_is_unified(const InferenceQuery& q) {
  return !q.ram && q.devices.count() == 1 && q.devices.devices.front().kind == DeviceKind::Unified;
}

OffloadRam offload_ram(const InferenceQuery& q, Bytes gpu_bytes) {
  const bool one_unified =
      q.devices.count() == 1 && q.devices.devices.front().kind == DeviceKind::Unified;
  if (q.ram && one_unified) {
    // --ram on a Mac names the same memory the GPU side wires: what it
    // leaves the model (less the OS share) less the GPU side, not a second
    // pool beside it.
    return {std::max<Bytes>(0, system_ram_usable(*q.ram).bytes - gpu_bytes), true};
  }
  if (q.ram) {
    return {system_ram_usable(*q.ram).bytes, false};
  }
  if (offload_ram_is_unified(q)) {
    return {std::max<Bytes>(0, unified_pool(q.devices.devices.front()).bytes - gpu_bytes), true};
  }
  return {};
}

bool meets(const Estimate& e, Margin margin) {
  return e.fits() && (margin == Margin::Fits || !e.tight);
}

namespace {

// The longest context (a multiple of 256, at most the model's trained
// length) for which `holds` is true of the query's estimate; 0 when not even
// 256 tokens hold. Binary search: what a context needs grows with it.
template <typename Holds>
std::int64_t longest_context(InferenceQuery q, Holds holds) {
  q.context_is_default = false;
  const auto fits = [&](std::int64_t ctx) {
    q.context = ctx;
    return holds(estimate_inference(q));
  };
  constexpr std::int64_t kStep = 256;
  std::int64_t hi = q.model.arch.max_context > 0 ? q.model.arch.max_context : 1 << 20;
  hi = std::max<std::int64_t>(kStep, hi / kStep * kStep);
  if (!fits(kStep)) {
    return 0;
  }
  if (fits(hi)) {
    return hi;
  }
  std::int64_t lo = kStep;  // fits
  while (hi - lo > kStep) {
    const std::int64_t mid = (lo + (hi - lo) / 2) / kStep * kStep;
    if (mid <= lo) {
      break;
    }
    (fits(mid) ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace

std::int64_t max_context(const InferenceQuery& query, Margin margin) {
  if (query.devices.devices.empty()) {
    return 0;
  }
  InferenceQuery q = query;
  q.gpu_layers.reset();
  q.n_cpu_moe.reset();
  return longest_context(std::move(q), [&](const Estimate& e) { return meets(e, margin); });
}

LongestContext longest_fitting_context(const InferenceQuery& query, std::int64_t floor) {
  LongestContext l;
  l.edge = max_context(query, Margin::Fits);
  if (l.edge <= 0 || l.edge < floor) {
    return l;
  }
  const std::int64_t clear = max_context(query, Margin::Clear);
  if (clear > 0 && clear >= floor) {
    l.tokens = clear;
    return l;
  }
  l.tokens = l.edge;
  l.tight = true;
  return l;
}

std::int64_t max_context_offloaded(const InferenceQuery& query) {
  if (query.devices.devices.empty()) {
    return 0;
  }
  // The user's -ngl / --n-cpu-moe stay: they are the plan the answer uses.
  return longest_context(query, [](const Estimate& e) { return e.verdict != Verdict::NoFit; });
}

}  // namespace willfit
