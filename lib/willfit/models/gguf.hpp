// Reads the header of a GGUF file (versions 2 and 3): metadata, tensor table,
// exact weight bytes per tensor, and the model architecture they describe.
// Input is untrusted bytes; no I/O here: the caller reads the file's start and
// is asked for more when the header is longer.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "willfit/core/expected.hpp"
#include "willfit/core/units.hpp"
#include "willfit/models/model.hpp"

namespace willfit {

// One metadata value. Numbers keep their value; strings their text; arrays
// their element type and count, and their values when numeric and short
// (per-layer head counts), never their strings (a vocabulary).
struct GgufValue {
  enum class Kind { Integer, Float, Bool, String, Array };
  Kind kind = Kind::Integer;
  std::int64_t integer = 0;        // Integer, Bool (0/1)
  double real = 0;                 // Float
  std::string text;                // String
  std::uint32_t element_type = 0;  // Array: the GGUF value type of the elements
  std::uint64_t count = 0;         // Array: number of elements
  std::vector<double> numbers;     // Array of numbers with at most kGgufMaxKeptArray elements
};

inline constexpr std::uint64_t kGgufMaxKeptArray = 65536;

struct GgufTensor {
  std::string name;
  std::vector<std::uint64_t> shape;  // ggml order: shape[0] is the row length
  std::uint32_t type = 0;            // ggml_type
  std::uint64_t offset = 0;          // from the start of the tensor data
  std::int64_t elements = 0;
  std::int64_t bytes = 0;  // exact, from the type's block layout
};

struct GgufFile {
  std::uint32_t version = 0;
  std::map<std::string, GgufValue> metadata;
  std::vector<GgufTensor> tensors;
  std::uint64_t alignment = 32;
  std::uint64_t data_offset = 0;  // where the tensor data starts
  std::int64_t weight_bytes = 0;  // sum over tensors
  std::int64_t params = 0;        // elements over tensors

  [[nodiscard]] const GgufValue* find(const std::string& key) const;
  [[nodiscard]] std::string architecture() const;  // general.architecture or ""
};

// The result of one attempt: the file, or how many bytes from the start the
// header needs (ask again with at least that many). `estimate` (>= need):
// where the header probably ends, extrapolated from the string array being
// read (a vocabulary is most of a header), so a remote reader can ask for
// it in one request instead of doubling past it; it is a hint, not a bound.
struct GgufRead {
  std::optional<GgufFile> file;
  std::uint64_t need = 0;
  std::uint64_t estimate = 0;
};

// `bytes` is the start of a file of `file_size` bytes. Every count, length and
// offset is checked against the file size, so a hostile header is an error
// (naming what is wrong), never a crash or a huge allocation.
Expected<GgufRead> read_gguf(std::string_view bytes, std::uint64_t file_size);

// Headers past this size are refused (real ones, vocabulary included, are a
// few MiB; 256 MiB leaves room for very large vocabularies).
inline constexpr std::uint64_t kGgufMaxHeaderBytes = std::uint64_t{256} << 20;

// The model a GGUF header describes: architecture from `<arch>.*` metadata,
// exact parameters and weight bytes from the tensor table, the quantisation
// mix, and general.file_type as the precision hint. `file_name` names the
// model when general.name is absent. `units`: how the weights note prints
// its sizes (--units).
Expected<Model> model_from_gguf(const GgufFile& file, std::string_view file_name,
                                UnitSystem units = UnitSystem::Mixed);

// A multimodal projector file (llama.cpp's --mmproj, general.architecture
// "clip"): its exact parameters and bytes, and the vision encoder's shape
// at the warm-up image clip.cpp reserves its compute buffer for. A file of
// another architecture, or one without an encoder, is an error.
Expected<ProjectorFile> projector_from_gguf(const GgufFile& file, std::string_view file_name);

// A projector of another layout than clip.cpp's (Ollama's projector layer
// of an older conversion): its tensors exactly, no warm-up shape, so no
// compute buffer is added; Ollama's own estimate counts the same tensors
// (llm/server.go projectorMemoryRequirements).
ProjectorFile projector_tensors_only(const GgufFile& file, std::string_view file_name);

// Gives `model` the projector file, in place of an encoder estimated from
// its config (vision_config), with a note saying so.
void attach_projector(Model& model, ProjectorFile projector);

// "Q4_K", "F16", ... for a ggml_type; "" when unknown.
std::string_view ggml_type_name(std::uint32_t type);
// "Q4_K_M", "MXFP4_MOE", ... for a general.file_type (llama_ftype); "" when unknown.
std::string_view gguf_file_type_name(std::uint32_t file_type);

}  // namespace willfit
