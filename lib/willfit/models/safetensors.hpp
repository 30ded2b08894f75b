// Reads safetensors headers (an 8-byte length, then a JSON table of tensors
// with dtype, shape and byte offsets) into exact parameter and byte counts,
// and sharded indexes (model.safetensors.index.json). Untrusted bytes in, no I/O.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "willfit/core/expected.hpp"
#include "willfit/core/units.hpp"
#include "willfit/models/model.hpp"

namespace willfit {

struct SafetensorsHeader {
  std::int64_t tensors = 0;
  std::int64_t params = 0;  // elements; packed 4-bit GPTQ/AWQ weights counted unpacked
  std::int64_t bytes = 0;   // tensor data bytes
  std::map<std::string, std::int64_t> bytes_by_dtype;  // "BF16" -> bytes
  std::map<std::string, std::int64_t> tensors_by_dtype;
  bool has_lm_head = false;
  bool has_embedding = false;
  std::int64_t embedding_rows = 0;  // vocabulary, from the embedding's shape
  std::int64_t embedding_cols = 0;  // hidden size
  int layers = 0;                   // distinct "layers.N." / "h.N." block indexes
  bool quantized_packed = false;    // GPTQ/AWQ qweight tensors seen
  // A multimodal checkpoint's vision/audio encoder and projector tensors
  // (visual.*, vision_tower.*, multi_modal_projector.*, ...: is_encoder_tensor),
  // part of params and bytes above.
  std::int64_t encoder_params = 0;
  std::int64_t encoder_bytes = 0;
};

// Whether a checkpoint's tensor belongs to a vision or audio encoder or its
// projector rather than the language model, by the names transformers gives
// them (an optional "model." first): visual, vision_tower, vision_model,
// multi_modal_projector, audio_tower, embed_vision, embed_audio.
bool is_encoder_tensor(std::string_view name);

// How many bytes the header occupies (8 + the JSON length), read from the
// first 8 bytes; an error when the length is impossible for a file of
// `file_size` bytes or over kSafetensorsMaxHeader.
Expected<std::uint64_t> safetensors_header_size(std::string_view first8, std::uint64_t file_size);

// Headers larger than this are refused (the safetensors format caps them at 100 MB).
inline constexpr std::uint64_t kSafetensorsMaxHeader = 100'000'000;

// Parses the whole header (8 + JSON bytes). Checks each tensor's dtype, shape
// and offsets against each other and against the file's size.
Expected<SafetensorsHeader> read_safetensors(std::string_view header, std::uint64_t file_size);

// Adds another shard's counts into `total`.
void add_shard(SafetensorsHeader& total, const SafetensorsHeader& shard);

struct SafetensorsIndex {
  std::int64_t total_size = 0;       // metadata.total_size (bytes of tensor data), 0 if absent
  std::vector<std::string> shards;   // distinct file names, sorted
  std::int64_t tensors = 0;          // entries in weight_map
  std::int64_t encoder_tensors = 0;  // of which an encoder's (is_encoder_tensor)
  // The few shards that show every class of tensor's dtype: the one holding
  // the embedding, the one holding the middle block's first tensor (the
  // bulk: attention and MLP or experts) and the one holding lm_head.
  // Distinct, in the order of `shards`; at most 3.
  std::vector<std::string> sample_shards;
};

// Parses model.safetensors.index.json. Shard names must be plain file names.
Expected<SafetensorsIndex> read_safetensors_index(std::string_view json);

// The dtype's precision id ("bf16", "fp16", "fp32", "fp8") for the dominant
// dtype, or "" when none fits.
std::string safetensors_precision(const SafetensorsHeader& header);

}  // namespace willfit

namespace willfit {

// The model a checkpoint's tensors describe. With `config` (a Model read from
// config.json) the architecture is the config's and the tensors give the
// exact parameter count (unless packed-quantised) and weight bytes; an
// encoder's tensors are the projector term (vision_params, exactly), not
// weights; without,
// the shape is inferred from the parameter count (marked assumed), corrected
// by the embedding's shape, the block count and the presence of an lm_head.
// `units`: how the weights note prints its sizes (--units).
Model model_from_safetensors(const SafetensorsHeader& header, std::string_view label,
                             const Model* config, UnitSystem units = UnitSystem::Mixed);

}  // namespace willfit
