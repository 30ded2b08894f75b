// Internal to lib: the per-runtime builders estimate_inference() dispatches
// to. Each fills the memory terms, the per-device table and the verdict of an
// Estimate. Not part of the public API; include estimate.hpp instead.
#pragma once

#include "willfit/inference/estimate.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit::detail {

// What every runtime builder starts from: the query and its resolved inputs.
// The runtime builders read e.model_weight_bytes (layout.total(), summed once).
struct Inputs {
  const InferenceQuery& q;
  WeightLayout layout;
  std::int64_t context = 0;  // tokens per sequence
  int batch = 1;
  bool flash = true;
  const KvType& k_type;
  const KvType& v_type;
  bool explain = false;  // Detail::Explained: put each term's arithmetic into words
  Bytes projector = 0;   // the multimodal encoder and projector loaded (0: text-only or none)
  Bytes projector_compute = 0;  // of `projector`: clip.cpp's compute buffers (--mmproj)
  std::int64_t ubatch = 512;    // micro-batch as resolved (Estimate::ubatch)
};

// The compute buffers llama.cpp's clip.cpp reserves for a projector file's
// encoders (tools/mtmd/clip.cpp alloc_compute_meta: the graph of one
// warm-up image, and of one warm-up audio clip for a Whisper encoder); 0
// for a file without either.
Bytes clip_compute_bytes(const ProjectorFile& p, bool flash_attention);

// The attention layers whose K and V kv_cache_bytes counts: those over the
// whole context and the windowed (or chunked) ones; for the --explain line.
struct CachedKvLayers {
  int full = 0;
  int windowed = 0;
};
CachedKvLayers cached_kv_layers(const Architecture& arch);

void llama_family(const Inputs& in, Estimate& e);  // llama.cpp, Ollama, generic
void vllm(const Inputs& in, Estimate& e);
void pytorch(const Inputs& in, Estimate& e);  // transformers and MLX

// Relative error (fraction) of each term for a runtime, from the accuracy
// tests; the error band is their byte-weighted sum over the total.
double error_band_pct(Runtime runtime, const Estimate& e, bool gguf_recipe, bool assumed_mix);

}  // namespace willfit::detail
