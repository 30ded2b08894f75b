// Reading a GGUF header.
//
// Layout (little-endian; ggml's docs/gguf.md): "GGUF", a uint32 version, a
// uint64 tensor count, a uint64 metadata count; then the metadata pairs (a
// string key, a uint32 value type, the value; strings are a uint64 length and
// bytes; arrays a uint32 element type, a uint64 count and the elements, which
// may themselves be arrays); then per tensor a name, a uint32 dimension count,
// uint64 dimensions, a uint32 ggml type and a uint64 offset into the data,
// which starts at the next multiple of general.alignment (default 32).
//
// The file is untrusted and may be tens of GB, of which only the header is
// read. So:
// - Every count is checked against the bytes left in the FILE before anything
//   is reserved: a metadata pair takes at least 13 bytes, a tensor entry 24,
//   an array element its fixed size (strings 8, nested arrays 12). A count the
//   rest of the file cannot hold is an error, so allocation is bounded by the
//   file's real size (and the caller's header cap), whatever the header says.
// - Running past the bytes we HAVE but not past the file's end is not an
//   error: the reader reports how many bytes it needs and the caller reads
//   more (doubling, capped), so the work depends on the header's size, never
//   on the file's.
// - Tensor sizes come from ggml's block layouts (bytes per block / values per
//   block, shared/reference/inference-estimators.md section 0.1, mirroring
//   ggml.c's type traits); a row that is not a whole number of blocks, a
//   tensor past the file's end, or an unknown type is an error.
// Internally the parser signals "malformed" and "need more" by throwing two
// private types, caught in read_gguf: that keeps each field read to one line.
// Nothing escapes this file.
#include "willfit/models/gguf.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "willfit/core/precision.hpp"
#include "willfit/core/text.hpp"
#include "willfit/core/units.hpp"
#include "willfit/models/plamo2.hpp"
#include "willfit/models/rwkv.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

struct Malformed {
  std::string what;
};
struct NeedMore {
  std::uint64_t bytes;
  std::uint64_t estimate = 0;  // where the header probably ends (0: no idea)
};

// GGUF metadata value types.
enum : std::uint32_t {
  kU8 = 0,
  kI8 = 1,
  kU16 = 2,
  kI16 = 3,
  kU32 = 4,
  kI32 = 5,
  kF32 = 6,
  kBool = 7,
  kString = 8,
  kArray = 9,
  kU64 = 10,
  kI64 = 11,
  kF64 = 12,
};

// Fixed size of a scalar value type; 0 for strings and arrays.
std::uint64_t scalar_size(std::uint32_t t) {
  switch (t) {
    case kU8:
    case kI8:
    case kBool:
      return 1;
    case kU16:
    case kI16:
      return 2;
    case kU32:
    case kI32:
    case kF32:
      return 4;
    case kU64:
    case kI64:
    case kF64:
      return 8;
    default:
      return 0;
  }
}

struct GgmlType {
  std::uint32_t id;
  const char* name;
  std::int64_t block_values;
  std::int64_t block_bytes;
};

// ggml_type ids and block layouts (ggml.c type traits; the bpw column of
// inference-estimators.md section 0.1). Ids 4, 5 (Q4_2, Q4_3) and 31-33,
// 36-38 (repacked Q4_0 / IQ4_NL, since removed) keep their historical layouts.
constexpr std::array<GgmlType, 36> kGgmlTypes{{
    {0, "F32", 1, 4},         {1, "F16", 1, 2},         {2, "Q4_0", 32, 18},
    {3, "Q4_1", 32, 20},      {4, "Q4_2", 16, 10},      {5, "Q4_3", 16, 12},
    {6, "Q5_0", 32, 22},      {7, "Q5_1", 32, 24},      {8, "Q8_0", 32, 34},
    {9, "Q8_1", 32, 36},      {10, "Q2_K", 256, 84},    {11, "Q3_K", 256, 110},
    {12, "Q4_K", 256, 144},   {13, "Q5_K", 256, 176},   {14, "Q6_K", 256, 210},
    {15, "Q8_K", 256, 292},   {16, "IQ2_XXS", 256, 66}, {17, "IQ2_XS", 256, 74},
    {18, "IQ3_XXS", 256, 98}, {19, "IQ1_S", 256, 50},   {20, "IQ4_NL", 32, 18},
    {21, "IQ3_S", 256, 110},  {22, "IQ2_S", 256, 82},   {23, "IQ4_XS", 256, 136},
    {24, "I8", 1, 1},         {25, "I16", 1, 2},        {26, "I32", 1, 4},
    {27, "I64", 1, 8},        {28, "F64", 1, 8},        {29, "IQ1_M", 256, 56},
    {30, "BF16", 1, 2},       {31, "Q4_0_4_4", 32, 18}, {32, "Q4_0_4_8", 32, 18},
    {33, "Q4_0_8_8", 32, 18}, {34, "TQ1_0", 256, 54},   {35, "TQ2_0", 256, 66},
}};
constexpr GgmlType kMxfp4{39, "MXFP4", 32, 17};

const GgmlType* ggml_type(std::uint32_t id) {
  if (id == kMxfp4.id) {
    return &kMxfp4;
  }
  for (const auto& t : kGgmlTypes) {
    if (t.id == id) {
      return &t;
    }
  }
  return nullptr;
}

class Cursor {
 public:
  Cursor(std::string_view data, std::uint64_t file_size)
      : data_(data), file_size_(std::max<std::uint64_t>(file_size, data.size())) {}

  [[nodiscard]] std::uint64_t pos() const { return pos_; }
  [[nodiscard]] std::uint64_t left_in_file() const { return file_size_ - pos_; }

  // Makes sure n more bytes are readable.
  void need(std::uint64_t n, std::string_view what) const {
    if (n <= data_.size() - pos_) {
      return;
    }
    if (n > left_in_file()) {
      throw Malformed{fmt::format("{} at byte {} runs past the end of the file ({} bytes)", what,
                                  pos_, file_size_)};
    }
    throw NeedMore{pos_ + n};
  }

  template <class T>
  T scalar(std::string_view what) {
    need(sizeof(T), what);
    T v{};
    std::memcpy(&v, data_.data() + pos_, sizeof(T));  // GGUF is little-endian, as are our hosts
    pos_ += sizeof(T);
    return v;
  }

  std::string_view string(std::string_view what) {
    const auto len = scalar<std::uint64_t>(what);
    if (len > left_in_file()) {
      throw Malformed{
          fmt::format("{} claims {} bytes at byte {}, more than the file holds", what, len, pos_)};
    }
    need(len, what);
    const std::string_view s = data_.substr(pos_, len);
    pos_ += len;
    return s;
  }

  void skip(std::uint64_t n, std::string_view what) {
    need(n, what);
    pos_ += n;
  }

  // Refuses a count of items of at least `min_size` bytes each that the rest
  // of the file cannot hold.
  void check_count(std::uint64_t count, std::uint64_t min_size, std::string_view what) const {
    if (min_size > 0 && count > left_in_file() / min_size) {
      throw Malformed{fmt::format("{} of {} cannot fit in the {} bytes left in the file", what,
                                  count, left_in_file())};
    }
  }

 private:
  std::string_view data_;
  std::uint64_t file_size_;
  std::uint64_t pos_ = 0;
};

double read_number(Cursor& c, std::uint32_t type, std::string_view what) {
  switch (type) {
    case kU8:
      return c.scalar<std::uint8_t>(what);
    case kI8:
      return c.scalar<std::int8_t>(what);
    case kBool:
      return c.scalar<std::uint8_t>(what) != 0 ? 1.0 : 0.0;
    case kU16:
      return c.scalar<std::uint16_t>(what);
    case kI16:
      return c.scalar<std::int16_t>(what);
    case kU32:
      return c.scalar<std::uint32_t>(what);
    case kI32:
      return c.scalar<std::int32_t>(what);
    case kF32:
      return static_cast<double>(c.scalar<float>(what));
    case kU64:
      return static_cast<double>(c.scalar<std::uint64_t>(what));
    case kI64:
      return static_cast<double>(c.scalar<std::int64_t>(what));
    case kF64:
      return c.scalar<double>(what);
    default:
      throw Malformed{fmt::format("{}: unknown value type {}", what, type)};
  }
}

constexpr int kMaxArrayDepth = 8;

GgufValue read_value(Cursor& c, std::uint32_t type, const std::string& key, int depth) {
  GgufValue v;
  const std::string what = fmt::format("metadata '{}'", key);
  switch (type) {
    case kString:
      v.kind = GgufValue::Kind::String;
      v.text = std::string(c.string(what));
      return v;
    case kArray: {
      if (depth >= kMaxArrayDepth) {
        throw Malformed{fmt::format("{}: arrays nested deeper than {}", what, kMaxArrayDepth)};
      }
      v.kind = GgufValue::Kind::Array;
      v.element_type = c.scalar<std::uint32_t>(what);
      v.count = c.scalar<std::uint64_t>(what);
      const std::uint64_t fixed = scalar_size(v.element_type);
      if (fixed > 0) {
        c.check_count(v.count, fixed, what + " array");
        if (v.count <= kGgufMaxKeptArray) {
          v.numbers.reserve(static_cast<std::size_t>(v.count));
          for (std::uint64_t i = 0; i < v.count; ++i) {
            v.numbers.push_back(read_number(c, v.element_type, what));
          }
        } else {
          c.skip(v.count * fixed, what);
        }
      } else if (v.element_type == kString) {
        c.check_count(v.count, 8, what + " array");
        const std::uint64_t start = c.pos();
        for (std::uint64_t i = 0; i < v.count; ++i) {
          try {
            c.string(what);
          } catch (NeedMore& more) {
            // A vocabulary or merge list is most of a header: the strings
            // left, at the mean length of those read, say where it ends.
            const std::uint64_t per = i > 0 ? (c.pos() - start + i - 1) / i : 16;
            const std::uint64_t left = v.count - i;
            more.estimate = left > (std::uint64_t{1} << 40) / per
                                ? more.bytes
                                : std::max(more.bytes, c.pos() + left * per);
            throw;
          }
        }
      } else if (v.element_type == kArray) {
        c.check_count(v.count, 12, what + " array");
        for (std::uint64_t i = 0; i < v.count; ++i) {
          read_value(c, kArray, key, depth + 1);
        }
      } else {
        throw Malformed{fmt::format("{}: unknown array element type {}", what, v.element_type)};
      }
      return v;
    }
    case kF32:
    case kF64:
      v.kind = GgufValue::Kind::Float;
      v.real = read_number(c, type, what);
      return v;
    case kBool:
      v.kind = GgufValue::Kind::Bool;
      v.integer = read_number(c, type, what) != 0.0 ? 1 : 0;
      return v;
    case kU64:
      v.kind = GgufValue::Kind::Integer;
      v.integer = static_cast<std::int64_t>(std::min<std::uint64_t>(
          c.scalar<std::uint64_t>(what),
          static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())));
      return v;
    case kI64:
      v.kind = GgufValue::Kind::Integer;
      v.integer = c.scalar<std::int64_t>(what);
      return v;
    default:
      if (scalar_size(type) == 0) {
        throw Malformed{fmt::format("{}: unknown value type {}", what, type)};
      }
      v.kind = GgufValue::Kind::Integer;
      v.integer = static_cast<std::int64_t>(read_number(c, type, what));
      return v;
  }
}

GgufTensor read_tensor(Cursor& c, std::uint64_t index) {
  GgufTensor t;
  const std::string what = fmt::format("tensor {}", index);
  const std::string_view name = c.string(what + " name");
  if (name.size() > 4096) {
    throw Malformed{fmt::format("{}: name of {} bytes is too long", what, name.size())};
  }
  t.name = std::string(name);
  const std::string label = fmt::format("tensor '{}'", t.name);
  const auto dims = c.scalar<std::uint32_t>(label);
  if (dims == 0 || dims > 4) {
    throw Malformed{fmt::format("{} has {} dimensions (ggml allows 1 to 4)", label, dims)};
  }
  std::uint64_t elements = 1;
  constexpr std::uint64_t kMaxElements = std::uint64_t{1} << 56;
  for (std::uint32_t d = 0; d < dims; ++d) {
    const auto n = c.scalar<std::uint64_t>(label);
    if (n == 0 || n > kMaxElements || elements > kMaxElements / n) {
      throw Malformed{fmt::format("{} has an impossible shape (dimension {} is {})", label, d, n)};
    }
    elements *= n;
    t.shape.push_back(n);
  }
  t.type = c.scalar<std::uint32_t>(label);
  const GgmlType* type = ggml_type(t.type);
  if (type == nullptr) {
    throw Malformed{fmt::format("{} has unknown ggml type {}", label, t.type)};
  }
  const auto block = static_cast<std::uint64_t>(type->block_values);
  if (t.shape[0] % block != 0) {
    throw Malformed{fmt::format("{}: row of {} values is not a whole number of {} blocks ({})",
                                label, t.shape[0], type->name, block)};
  }
  t.offset = c.scalar<std::uint64_t>(label);
  t.elements = static_cast<std::int64_t>(elements);
  // elements <= 2^56 and block_bytes <= 292: no overflow.
  t.bytes =
      static_cast<std::int64_t>(elements / block * static_cast<std::uint64_t>(type->block_bytes));
  return t;
}

GgufFile parse(std::string_view bytes, std::uint64_t file_size) {
  Cursor c(bytes, file_size);
  c.need(4, "magic");
  if (bytes.substr(0, 4) != "GGUF") {
    throw Malformed{"not a GGUF file (no 'GGUF' magic at the start)"};
  }
  c.skip(4, "magic");
  GgufFile f;
  f.version = c.scalar<std::uint32_t>("version");
  if (f.version == 0x02000000U || f.version == 0x03000000U) {
    throw Malformed{"big-endian GGUF files are not supported"};
  }
  if (f.version == 1) {
    throw Malformed{"GGUF version 1 (before October 2023) is not supported: convert it again"};
  }
  if (f.version != 2 && f.version != 3) {
    throw Malformed{fmt::format("GGUF version {} is not supported (2 and 3 are)", f.version)};
  }
  const auto tensor_count = c.scalar<std::uint64_t>("tensor count");
  const auto kv_count = c.scalar<std::uint64_t>("metadata count");
  c.check_count(kv_count, 13, "metadata count");
  c.check_count(tensor_count, 24, "tensor count");
  if (kv_count * 13 > c.left_in_file() - tensor_count * 24) {
    throw Malformed{fmt::format("{} metadata pairs and {} tensors cannot fit in the file", kv_count,
                                tensor_count)};
  }
  for (std::uint64_t i = 0; i < kv_count; ++i) {
    const std::string key(c.string(fmt::format("metadata key {}", i)));
    const auto type = c.scalar<std::uint32_t>(fmt::format("metadata '{}'", key));
    f.metadata[key] = read_value(c, type, key, 0);
  }
  if (const GgufValue* a = f.find("general.alignment")) {
    if (a->kind != GgufValue::Kind::Integer || a->integer <= 0 || a->integer > (1 << 20) ||
        (a->integer & (a->integer - 1)) != 0) {
      throw Malformed{"general.alignment must be a power of two up to 1 MiB"};
    }
    f.alignment = static_cast<std::uint64_t>(a->integer);
  }
  f.tensors.reserve(static_cast<std::size_t>(tensor_count));
  for (std::uint64_t i = 0; i < tensor_count; ++i) {
    f.tensors.push_back(read_tensor(c, i));
  }
  f.data_offset = (c.pos() + f.alignment - 1) / f.alignment * f.alignment;
  const std::uint64_t data_size = file_size > f.data_offset ? file_size - f.data_offset : 0;
  for (const auto& t : f.tensors) {
    const auto size = static_cast<std::uint64_t>(t.bytes);
    if (t.offset > data_size || size > data_size - t.offset) {
      throw Malformed{fmt::format(
          "tensor '{}' ({} bytes at data offset {}) extends past the end of the file ({} bytes): "
          "is the download complete?",
          t.name, size, t.offset, file_size)};
    }
    f.weight_bytes += t.bytes;
    f.params += t.elements;
  }
  return f;
}

// Per-layer sliding_window_pattern flags (true = windowed) as
// Attention::window_layers: 'S' windowed, 'G' global, one a layer of the
// trunk; "" when the key is not such an array of at least `layers` flags.
std::string listed_window_layers(const GgufFile& f, const std::string& key, int layers) {
  const GgufValue* p = f.find(key);
  if (p == nullptr || p->kind != GgufValue::Kind::Array || std::ssize(p->numbers) < layers) {
    return {};
  }
  std::string listed;
  for (int i = 0; i < layers; ++i) {
    listed += p->numbers[static_cast<std::size_t>(i)] != 0 ? 'S' : 'G';
  }
  return listed;
}

// A metadata number as an integer (scalar), or the largest of an array.
std::optional<std::int64_t> meta_int(const GgufFile& f, const std::string& key) {
  const GgufValue* v = f.find(key);
  if (v == nullptr) {
    return std::nullopt;
  }
  switch (v->kind) {
    case GgufValue::Kind::Integer:
    case GgufValue::Kind::Bool:
      return v->integer;
    case GgufValue::Kind::Float:
      return static_cast<std::int64_t>(v->real);
    case GgufValue::Kind::Array:
      if (!v->numbers.empty()) {
        return static_cast<std::int64_t>(*std::max_element(v->numbers.begin(), v->numbers.end()));
      }
      return std::nullopt;
    case GgufValue::Kind::String:
      return std::nullopt;
  }
  return std::nullopt;
}

// Sliding-window layer patterns llama.cpp hard-codes per architecture (the
// files carry only the window): layer i is global when (i + 1) % N == 0.
// gemma2, gpt-oss: alternating; gemma3: 5 local, 1 global; cohere2 and
// exaone-moe: 3 and 1
// (llama.cpp src/llama-model.cpp, set_swa_pattern; data/README.md).
int known_swa_pattern(std::string_view arch) {
  if (arch == "gemma2" || arch == "gpt-oss" || arch == "gpt_oss") {
    return 2;
  }
  if (arch == "gemma3" || arch == "gemma-embedding") {
    return 6;  // gemma-embedding.cpp load_arch_hparams: swa_period 6 unless the file gives one
  }
  if (arch == "cohere2" || arch == "exaone-moe" || arch == "afmoe") {
    // exaone-moe.cpp and afmoe.cpp load_arch_hparams: swa_period 4 unless
    // the file lists the layers (conversion/afmoe.py writes no pattern)
    return 4;
  }
  if (arch == "smallthinker") {
    return 4;  // smallthinker.cpp load_arch_hparams: set_swa_pattern(4, dense_first)
  }
  if (arch == "laguna") {
    return 4;  // laguna.cpp load_arch_hparams: swa_period 4 (dense first) unless the file gives one
  }
  if (arch == "gemma3n") {
    return 5;  // llama.cpp: set_swa_pattern(5), four windowed layers, then a global one
  }
  if (arch == "deepseek4") {
    return 0;  // deepseek4.cpp load_arch_hparams: set_swa_pattern(0), every layer windowed
  }
  if (arch == "plamo3") {
    return 8;  // plamo3.cpp load_arch_hparams: swa_period 8 unless the file gives one
  }
  if (arch == "modern-bert") {
    return 3;  // modern-bert.cpp load_arch_hparams: swa_period 3 (dense first) unless the file
               // gives one
  }
  return -1;
}

}  // namespace

const GgufValue* GgufFile::find(const std::string& key) const {
  const auto it = metadata.find(key);
  return it == metadata.end() ? nullptr : &it->second;
}

std::string GgufFile::architecture() const {
  const GgufValue* v = find("general.architecture");
  return (v != nullptr && v->kind == GgufValue::Kind::String) ? v->text : "";
}

Expected<ProjectorFile> projector_from_gguf(const GgufFile& f, std::string_view file_name) {
  const std::string arch = f.architecture();
  if (arch != "clip") {
    return make_error(fmt::format(
        "'{}' is not a multimodal projector (mmproj): its general.architecture is '{}', not "
        "'clip'",
        file_name, arch.empty() ? "missing" : arch));
  }
  const auto text = [&](const char* key) {
    const GgufValue* v = f.find(key);
    return (v != nullptr && v->kind == GgufValue::Kind::String) ? v->text : std::string();
  };
  const auto flag = [&](const char* key) { return meta_int(f, key).value_or(0) != 0; };
  const auto has_tensor = [&](std::string_view name) {
    return std::any_of(f.tensors.begin(), f.tensors.end(),
                       [&](const GgufTensor& t) { return t.name == name; });
  };
  ProjectorFile p;
  p.name = std::string(file_name);
  p.params = f.params;
  p.bytes = f.weight_bytes;
  // Omni files name a projector per modality (clip.vision.projector_type).
  p.type = text("clip.projector_type");
  if (p.type.empty()) {
    p.type = text("clip.vision.projector_type");
  }
  p.vision = flag("clip.has_vision_encoder");
  p.audio = flag("clip.has_audio_encoder");
  if (p.params <= 0 || (!p.vision && !p.audio)) {
    return make_error(
        fmt::format("malformed mmproj '{}': no tensors, or neither clip.has_vision_encoder nor "
                    "clip.has_audio_encoder is set",
                    file_name));
  }
  const auto positive = [&](const char* key) -> Expected<std::int64_t> {
    const auto v = meta_int(f, key);
    if (!v || *v <= 0 || *v > (std::int64_t{1} << 20)) {
      return make_error(
          fmt::format("malformed mmproj '{}': missing or invalid {}", file_name, key));
    }
    return *v;
  };
  // A Whisper audio encoder (clip.cpp runs build_whisper_enc for ultravox,
  // voxtral and qwen2a; an omni file's qwen2.5o audio side is qwen2a) is
  // warmed up on warmup_audio_size = 3000 mel frames, which its second
  // convolution (stride 2) makes n_frames / 2 = 1500 positions; then
  // pre-norm attention and a GELU FFN, as a vision tower's blocks.
  std::string audio_type = text("clip.audio.projector_type");
  if (audio_type.empty()) {
    audio_type = p.type;
  }
  if (p.audio && (audio_type == "ultravox" || audio_type == "voxtral" || audio_type == "qwen2a" ||
                  audio_type == "qwen2.5o")) {
    auto width = positive("clip.audio.embedding_length");
    auto ffn = positive("clip.audio.feed_forward_length");
    auto heads = positive("clip.audio.attention.head_count");
    for (const auto* v : {&width, &ffn, &heads}) {
      if (!*v) {
        return v->error();
      }
    }
    p.audio_positions = 3000 / 2;
    p.audio_width = *width;
    p.audio_ffn = *ffn;
    p.audio_heads = static_cast<int>(*heads);
  }
  if (!p.vision) {
    return p;
  }
  auto image = positive("clip.vision.image_size");
  auto patch = positive("clip.vision.patch_size");
  auto width = positive("clip.vision.embedding_length");
  auto ffn = positive("clip.vision.feed_forward_length");
  auto heads = positive("clip.vision.attention.head_count");
  for (const auto* v : {&image, &patch, &width, &ffn, &heads}) {
    if (!*v) {
      return v->error();
    }
  }
  p.width = *width;
  p.heads = static_cast<int>(*heads);
  // A gated FFN (SwiGLU towers: Qwen2.5-VL) holds gate and up at once.
  p.ffn_live = *ffn * (has_tensor("v.blk.0.ffn_gate.weight") ? 2 : 1);
  // The warm-up image clip.cpp reserves the compute buffer with
  // (tools/mtmd/clip.cpp, clip_model_loader: warmup_image_size defaults to
  // image_size; Qwen2/2.5/3-VL call set_warmup_n_tokens(46*46), merged
  // tokens of spatial_merge_size^2 patches each). CLIP towers with a class
  // embedding (v.class_embd) attend over one position more.
  // Window attention (Qwen2.5-VL) feeds every layer a positions^2 mask.
  p.window_mask = meta_int(f, "clip.vision.n_wa_pattern").value_or(0) > 0;
  // (An omni file's qwen2.5o vision side is qwen2.5vl: clip.cpp maps it.)
  if (p.type == "qwen2vl_merger" || p.type == "qwen2.5vl_merger" || p.type == "qwen3vl_merger" ||
      p.type == "qwen2.5o") {
    const std::int64_t merge =
        std::clamp<std::int64_t>(meta_int(f, "clip.vision.spatial_merge_size").value_or(2), 1, 64);
    p.warmup_positions = std::int64_t{46} * 46 * merge * merge;
  } else {
    const std::int64_t side = *image / *patch;
    p.warmup_positions = side * side + (has_tensor("v.class_embd") ? 1 : 0);
  }
  return p;
}

ProjectorFile projector_tensors_only(const GgufFile& f, std::string_view file_name) {
  ProjectorFile p;
  p.name = std::string(file_name);
  p.type = f.architecture();
  p.params = f.params;
  p.bytes = f.weight_bytes;
  p.vision = true;
  return p;
}

void attach_projector(Model& model, ProjectorFile projector) {
  model.notes.push_back(fmt::format(
      "multimodal projector {}: {:.3g} B parameters{}{}, loaded beside the model; --text-only "
      "leaves it out",
      projector.name, static_cast<double>(projector.params) / 1e9,
      projector.type.empty() ? "" : fmt::format(" ({})", projector.type),
      projector.vision ? (projector.audio ? ", vision and audio" : ", vision") : ", audio"));
  model.arch.vision_params = projector.params;
  model.mmproj = std::move(projector);
}

std::string_view ggml_type_name(std::uint32_t type) {
  const GgmlType* t = ggml_type(type);
  return t == nullptr ? std::string_view() : std::string_view(t->name);
}

std::string_view gguf_file_type_name(std::uint32_t file_type) {
  // llama_ftype (llama.h); 4-6 and 33-35 were removed.
  static constexpr std::array<const char*, 39> kNames{
      "F32",    "F16",    "Q4_0",  "Q4_1",    "",       "",       "",         "Q8_0",
      "Q5_0",   "Q5_1",   "Q2_K",  "Q3_K_S",  "Q3_K_M", "Q3_K_L", "Q4_K_S",   "Q4_K_M",
      "Q5_K_S", "Q5_K_M", "Q6_K",  "IQ2_XXS", "IQ2_XS", "Q2_K_S", "IQ3_XS",   "IQ3_XXS",
      "IQ1_S",  "IQ4_NL", "IQ3_S", "IQ3_M",   "IQ2_S",  "IQ2_M",  "IQ4_XS",   "IQ1_M",
      "BF16",   "",       "",      "",        "TQ1_0",  "TQ2_0",  "MXFP4_MOE"};
  return file_type < kNames.size() ? std::string_view(kNames[file_type]) : std::string_view();
}

Expected<GgufRead> read_gguf(std::string_view bytes, std::uint64_t file_size) {
  try {
    return GgufRead{parse(bytes, file_size), 0, 0};
  } catch (const NeedMore& more) {
    if (more.bytes > kGgufMaxHeaderBytes) {
      return make_error(fmt::format("GGUF header needs more than {} MiB: refusing to read it",
                                    kGgufMaxHeaderBytes >> 20));
    }
    return GgufRead{std::nullopt, more.bytes,
                    std::min(std::max(more.estimate, more.bytes), kGgufMaxHeaderBytes)};
  } catch (const Malformed& bad) {
    return make_error("malformed GGUF: " + bad.what);
  }
}

namespace {

// A GGUF without general.file_type (many converters leave it out) is still a
// llama.cpp file: its precision is named from the tensor table. The llama.cpp
// file type whose recipe gives the same bytes per type when one does
// (gguf_file_type_from_mix); else the ggml type that holds most of the
// weight bytes, said as "mostly"; else (a type willfit has no precision for,
// a K type outside its recipes) the file's bits per weight. The runtime does
// not hang on this: a model read from a GGUF runs under llama.cpp
// (default_runtime).
void name_precision_from_tensors(Model& m, std::int64_t params) {
  Bytes total = 0;
  for (const auto& row : m.weight_mix) {
    total += row.bytes;
  }
  if (total <= 0 || params <= 0) {
    return;
  }
  const Model::TypeBytes& most = m.weight_mix.front();  // sorted, largest first
  const double share = 100.0 * static_cast<double>(most.bytes) / static_cast<double>(total);
  if (const std::string recipe = gguf_file_type_from_mix(m); !recipe.empty()) {
    m.precision_hint = recipe;
    m.precision_hint_why = fmt::format(
        "the file has no general.file_type; its tensor types are llama.cpp's {} recipe "
        "({} holds {:.0f} % of the weight bytes)",
        parse_precision(recipe)->name, most.type, share);
    return;
  }
  const std::string id = to_lower(most.type);
  if (parse_precision(id)) {
    m.precision_hint = id;
    m.precision_hint_why = fmt::format(
        "the file has no general.file_type; mostly {}: {:.0f} % of the weight bytes are {} "
        "tensors (the weights are counted tensor by tensor)",
        most.type, share, most.type);
    return;
  }
  const double bits = 8.0 * static_cast<double>(total) / static_cast<double>(params);
  m.precision_hint = fmt::format("{:.4g}bpw", bits);
  m.precision_hint_why = fmt::format(
      "the file has no general.file_type; mostly {} ({:.0f} % of the weight bytes), {:.4g} bits "
      "per weight over the file",
      most.type, share, bits);
}

}  // namespace

Expected<Model> model_from_gguf(const GgufFile& f, std::string_view file_name, UnitSystem units) {
  const std::string arch = f.architecture();
  if (arch.empty()) {
    return make_error("malformed GGUF: no general.architecture");
  }
  if (arch == "clip") {
    return make_error(
        "this GGUF is a vision projector (mmproj), not a language model: give the model's file");
  }
  if (const std::string refused = refused_gguf_architecture(arch); !refused.empty()) {
    return make_error(refused);
  }
  const auto key = [&](const char* k) { return arch + "." + k; };
  const auto require = [&](const char* k) -> Expected<std::int64_t> {
    const auto v = meta_int(f, key(k));
    if (!v || *v <= 0) {
      return make_error(fmt::format("malformed GGUF: missing or invalid {}", key(k)));
    }
    return *v;
  };
  Model m;
  Architecture& a = m.arch;
  auto layers = require("block_count");
  auto hidden = require("embedding_length");
  // Mamba and Mamba-2 (mamba.cpp, mamba2.cpp) attend nowhere: their
  // converter writes head_count 0 ("unused", conversion/mamba.py). One head
  // stands in for it; no layer attends (purely_recurrent).
  const bool mixers_only = arch == "mamba" || arch == "mamba2";
  // RWKV-6 (rwkv6.cpp) likewise: head_count 0 ("required by llama.cpp,
  // unused", conversion/rwkv.py); its heads are hidden / wkv.head_size.
  // RWKV6Qwen2 (rwkv6qwen2.cpp): RWKV-6's time mix beside Qwen2's MLP.
  const bool rwkv6qwen2 = arch == "rwkv6qwen2";
  const bool rwkv = arch == "rwkv6" || rwkv6qwen2;
  // ARWKV-7 (arwkv7.cpp): RWKV-7's time mix beside Qwen2's MLP.
  const bool arwkv7 = arch == "arwkv7";
  const bool rwkv7 = arch == "rwkv7" || arwkv7;
  auto heads = mixers_only || rwkv || rwkv7
                   ? Expected<std::int64_t>(std::max<std::int64_t>(
                         1, meta_int(f, key("attention.head_count")).value_or(1)))
                   : require("attention.head_count");
  for (const auto* e : {&layers, &hidden, &heads}) {
    if (!*e) {
      return e->error();
    }
  }
  if (*layers > 100000 || *hidden > (1 << 24) || *heads > (1 << 20)) {
    return make_error("malformed GGUF: implausible block_count, embedding_length or head_count");
  }
  a.layers = static_cast<int>(*layers);
  // block_count includes the multi-token-prediction blocks (GLM-4.5, Qwen3.5,
  // DeepSeek with nextn tensors); llama.cpp loads them and skips them when
  // decoding, so they are weights but not layers of the path.
  if (const auto nextn = meta_int(f, key("nextn_predict_layers"));
      nextn && *nextn > 0 && *nextn < a.layers) {
    a.mtp_layers = static_cast<int>(*nextn);
    a.layers -= a.mtp_layers;
  }
  a.hidden_size = *hidden;
  a.heads = static_cast<int>(*heads);
  a.intermediate_size =
      std::max<std::int64_t>(0, meta_int(f, key("feed_forward_length")).value_or(0));
  a.head_dim = static_cast<int>(std::clamp<std::int64_t>(
      meta_int(f, key("attention.key_length")).value_or(a.hidden_size / a.heads), 1, 1 << 20));
  a.kv_heads = a.heads;
  if (const GgufValue* kv = f.find(key("attention.head_count_kv"))) {
    if (kv->kind == GgufValue::Kind::Array && !kv->numbers.empty()) {
      // Per-layer counts; layers with 0 KV heads are recurrent (hybrid models).
      const auto attention_layers =
          std::count_if(kv->numbers.begin(), kv->numbers.end(), [](double x) { return x > 0; });
      a.kv_heads = static_cast<int>(*std::max_element(kv->numbers.begin(), kv->numbers.end()));
      const auto counted = std::min<std::int64_t>(
          attention_layers, static_cast<std::int64_t>(std::min<std::size_t>(
                                kv->numbers.size(), static_cast<std::size_t>(a.layers))));
      // Nemotron NAS (deci): a layer without KV heads has no attention, or
      // a linear map for it, and holds no state (read below), unlike a
      // hybrid's recurrent layer.
      if (counted > 0 && counted < a.layers && arch != "deci") {
        a.attention.kind = AttentionKind::Hybrid;
        a.attention.attention_layers = static_cast<int>(counted);
        for (std::size_t i = 0; i < kv->numbers.size() && i < static_cast<std::size_t>(a.layers);
             ++i) {
          a.attention.layer_mixers += kv->numbers[i] > 0 ? 'A' : 'R';
        }
        // Nemotron-H interleaves three kinds of block: a layer is recurrent
        // only when it has neither KV heads nor an MLP (nemotron-h.cpp:
        // is_recr = n_head_kv(i) == 0 && n_ff(i) == 0); the MLP-only blocks
        // hold no state. Elsewhere (LFM2, Granite 4, Jamba) no KV heads
        // means recurrent.
        const GgufValue* ff = f.find(key("feed_forward_length"));
        if (arch.starts_with("nemotron_h") && ff != nullptr && ff->kind == GgufValue::Kind::Array &&
            ff->numbers.size() == kv->numbers.size()) {
          int recurrent = 0;
          int mlp = 0;
          for (std::size_t i = 0; i < kv->numbers.size() && i < static_cast<std::size_t>(a.layers);
               ++i) {
            recurrent += kv->numbers[i] == 0 && ff->numbers[i] == 0 ? 1 : 0;
            mlp += ff->numbers[i] > 0 ? 1 : 0;
            if (kv->numbers[i] == 0 && ff->numbers[i] > 0) {
              a.attention.layer_mixers[i] = 'F';  // an MLP-only block
            }
          }
          a.attention.recurrent_layers = std::max(1, recurrent);
          a.mlp_layers = std::max(1, mlp);
          // Its MLP blocks (and experts) are an up projection, a squared ReLU
          // and a down projection, no gate (nemotron-h.cpp build_ffn_layer:
          // LLM_FFN_RELU_SQR with a NULL gate).
          a.mlp_gated = false;
        }
      }
    } else if (const auto n = meta_int(f, key("attention.head_count_kv"))) {
      a.kv_heads = static_cast<int>(std::clamp<std::int64_t>(*n, 1, a.heads));
    }
  }
  a.kv_heads = std::clamp(a.kv_heads, 1, a.heads);
  // Nemotron-H lists feed_forward_length per layer too: a layer with neither
  // KV heads nor an MLP is a Mamba-2 mixer, one with an MLP only holds no
  // state (llama-model.cpp, LLM_ARCH_NEMOTRON_H: recurrent_layer_arr[i] =
  // n_head_kv(i) == 0 && n_ff(i) == 0).
  const GgufValue* kv_per_layer = f.find(key("attention.head_count_kv"));
  const GgufValue* ff_per_layer = f.find(key("feed_forward_length"));
  if (a.attention.kind == AttentionKind::Hybrid && kv_per_layer != nullptr &&
      kv_per_layer->kind == GgufValue::Kind::Array && ff_per_layer != nullptr &&
      ff_per_layer->kind == GgufValue::Kind::Array &&
      ff_per_layer->numbers.size() == kv_per_layer->numbers.size()) {
    int mixers = 0;
    int mlps = 0;
    for (std::size_t i = 0;
         i < ff_per_layer->numbers.size() && i < static_cast<std::size_t>(a.layers); ++i) {
      mlps += ff_per_layer->numbers[i] > 0 ? 1 : 0;
      mixers += ff_per_layer->numbers[i] <= 0 && kv_per_layer->numbers[i] <= 0 ? 1 : 0;
    }
    a.attention.recurrent_layers = mixers;
    if (mlps > 0) {
      a.mlp_layers = mlps;
    }
  }
  // Nemotron NAS (llama.cpp deci; conversion/deci.py DeciModel at 80fb11ac
  // writes head_count, head_count_kv and feed_forward_length as per-layer
  // arrays from config.json's block_configs; DeciLM-7B a per-layer
  // head_count_kv beside scalar others): each layer's own shape, a scalar
  // standing for every layer. head_count 0: no attention; head_count_kv 0
  // under query heads: a linear map (deci.cpp load_arch_tensors);
  // feed_forward_length 0: no MLP.
  // OpenELM (openelm.cpp, conversion/openelm.py) writes the same three
  // per-layer arrays for its layer-wise scaling: every layer attends.
  a.attention.fused_qkv_norm = arch == "openelm";
  // PLaMo-13B (plamo.cpp): one norm feeds the attention and the MLP, both
  // added to the layer input.
  if (arch == "plamo") {
    a.attention.parallel_block = ParallelBlock::Plamo;
  }
  // PLaMo 2 (plamo2.cpp): one attn_qkv, Q and K RMS-normed per head as
  // OpenELM's; gate and up in one ffn_up of 2 x feed_forward_length.
  if (arch == "plamo2") {
    a.attention.fused_qkv_norm = true;
    a.attention.fused_qkv = true;
    a.fused_gate_up = true;
  }
  // PLaMo 3 (plamo3.cpp load_arch_tensors at 80fb11ac): the same attn_qkv,
  // one attn_q_norm and attn_k_norm of head_dim each, ffn_up of 2 x
  // feed_forward_length, attn_post_norm and ffn_post_norm on every layer.
  if (arch == "plamo3") {
    a.attention.fused_qkv_norm = true;
    a.attention.fused_qkv = true;
    a.attention.sandwich_norms = true;
    a.fused_gate_up = true;
  }
  // DBRX (dbrx.cpp, conversion/dbrx.py): one attn_qkv, clamped by
  // attention.clamp_kqv (build_qkv).
  a.attention.fused_qkv_clamp = arch == "dbrx";
  a.attention.flash_forced_off = arch == "grok";  // llama-context.cpp: forced off for Grok
  if (arch == "deci" || arch == "openelm") {
    const auto per_layer = [&](const char* k, std::vector<std::int64_t> fallback) {
      const GgufValue* v = f.find(key(k));
      if (v != nullptr && v->kind == GgufValue::Kind::Array && std::ssize(v->numbers) >= a.layers) {
        std::vector<std::int64_t> out;
        for (int i = 0; i < a.layers; ++i) {
          out.push_back(std::clamp<std::int64_t>(
              static_cast<std::int64_t>(v->numbers[static_cast<std::size_t>(i)]), 0, 1 << 24));
        }
        return out;
      }
      if (const auto n = meta_int(f, key(k)); n && v != nullptr) {
        return std::vector<std::int64_t>(static_cast<std::size_t>(a.layers),
                                         std::clamp<std::int64_t>(*n, 0, 1 << 24));
      }
      return fallback;
    };
    const auto heads_l = per_layer("attention.head_count", {});
    const auto kv_l = per_layer("attention.head_count_kv", heads_l);
    const auto ffn_l = per_layer(
        "feed_forward_length",
        std::vector<std::int64_t>(static_cast<std::size_t>(a.layers), a.intermediate_size));
    if (std::ssize(heads_l) == a.layers && std::ssize(kv_l) == a.layers &&
        std::ssize(ffn_l) == a.layers) {
      for (int i = 0; i < a.layers; ++i) {
        const auto u = static_cast<std::size_t>(i);
        a.layer_widths.push_back({static_cast<int>(heads_l[u]),
                                  heads_l[u] > 0 ? static_cast<int>(kv_l[u]) : 0, ffn_l[u]});
      }
    }
  }
  // Mamba and Mamba-2: every block the mixer alone behind its RMS norm (no
  // attention, no MLP: feed_forward_length 0), each keeping its state
  // (llama-model.cpp create_memory: a recurrent memory for every layer).
  if (mixers_only) {
    a.attention.kind = AttentionKind::Hybrid;
    a.attention.layer_mixers.assign(static_cast<std::size_t>(a.layers), 'R');
    a.attention.attention_layers = 0;
    a.attention.recurrent_layers = a.layers;
    a.intermediate_size = 0;
    a.kv_heads = 1;
    // state-spaces' Mamba: no norms on dt, B and C unless the file says so
    // (Falcon Mamba's ssm.dt_b_c_rms, conversion/mamba.py).
    const GgufValue* rms = f.find(key("ssm.dt_b_c_rms"));
    a.attention.ssm_plain_dt =
        arch == "mamba" &&
        (rms == nullptr || rms->kind != GgufValue::Kind::Bool || rms->integer == 0);
  }
  // RWKV-6 (llama.cpp rwkv6.cpp load_arch_hparams at 80fb11ac; the keys
  // conversion/rwkv.py writes): every block a time mix and a channel mix,
  // each layer keeping token_shift_count (default 2) token-shift rows and
  // the wkv state (llama-hparams.cpp n_embd_r, n_embd_s); the channel mix's
  // width is feed_forward_length. No attention, no KV cache.
  // RWKV6Qwen2 (rwkv6qwen2.cpp load_arch_hparams and load_arch_tensors;
  // conversion/rwkv.py RWKV6Qwen2Model): the same keys, token_shift_count 1
  // (rwkv6qwen2.cpp asserts n_embd_r = n_embd), head_count_kv the key and
  // value's heads (0 or the heads: hidden wide; else they divide the heads,
  // rwkv6-base.cpp asserts it), the receptance, key and value biases when
  // the file has them; the MLP of feed_forward_length.
  if (rwkv) {
    const auto head = meta_int(f, key("wkv.head_size"));
    const auto tm = meta_int(f, key("time_mix_extra_dim"));
    const auto td = meta_int(f, key("time_decay_extra_dim"));
    const std::int64_t shifts = meta_int(f, key("token_shift_count")).value_or(rwkv6qwen2 ? 1 : 2);
    constexpr std::int64_t kMax = 1 << 16;
    const std::int64_t head_count =
        head && *head > 0 && a.hidden_size % *head == 0 ? a.hidden_size / *head : 0;
    const std::int64_t kv =
        rwkv6qwen2 ? meta_int(f, key("attention.head_count_kv")).value_or(0) : head_count;
    const std::int64_t kv_heads = kv == 0 ? head_count : kv;
    if (!head || !tm || !td || *head <= 0 || *head > kMax || head_count == 0 || *tm <= 0 ||
        *tm > kMax || *td <= 0 || *td > kMax || shifts != (rwkv6qwen2 ? 1 : 2) ||
        a.intermediate_size <= 0 || kv_heads <= 0 || head_count % kv_heads != 0) {
      return make_error(fmt::format(
          "malformed GGUF: {} needs valid {}.wkv.head_size (dividing embedding_length), "
          "time_mix_extra_dim, time_decay_extra_dim and feed_forward_length{} "
          "(token_shift_count {}: {}.cpp asserts it)",
          arch, arch, rwkv6qwen2 ? ", attention.head_count_kv dividing the heads" : "",
          rwkv6qwen2 ? 1 : 2, arch));
    }
    set_rwkv_layers(a, 6, *head, shifts);
    Attention& at = a.attention;
    at.rwkv_time_mix_extra = static_cast<int>(*tm);
    at.rwkv_time_decay_extra = static_cast<int>(*td);
    if (rwkv6qwen2) {
      a.kv_heads = static_cast<int>(kv_heads);
      const bool biases = std::any_of(f.tensors.begin(), f.tensors.end(), [](const GgufTensor& t) {
        return t.name == "blk.0.time_mix_key.bias";
      });
      at.recurrent_params = rwkv6qwen2_block_params(a.hidden_size, kv_heads * *head,
                                                    a.intermediate_size, *tm, *td, biases);
    } else {
      at.recurrent_params = rwkv6_block_params(a.hidden_size, a.intermediate_size, *head, *tm, *td);
    }
  }
  // RWKV-7 (llama.cpp rwkv7.cpp load_arch_hparams at 80fb11ac; the keys
  // conversion/rwkv.py Rwkv7Model writes): every block a time mix and a
  // channel mix as RWKV-6's, the time mix with four LoRAs (decay, in-context
  // learning rate, value residual mix, gate: attention.*_lora_rank); the
  // state as RWKV-6's (token_shift_count 2: rwkv7.cpp asserts it).
  // ARWKV-7 (arwkv7.cpp load_arch_hparams, conversion/rwkv.py ARwkv7Model):
  // the same keys, token_shift_count 1 (arwkv7.cpp asserts n_embd_r =
  // n_embd), the gate optional (rank 0 or absent: five lerps, no gate), the
  // MLP of feed_forward_length in place of the channel mix.
  if (rwkv7) {
    const auto head = meta_int(f, key("wkv.head_size"));
    const auto decay = meta_int(f, key("attention.decay_lora_rank"));
    const auto iclr = meta_int(f, key("attention.iclr_lora_rank"));
    const auto value = meta_int(f, key("attention.value_residual_mix_lora_rank"));
    const auto gate = meta_int(f, key("attention.gate_lora_rank"));
    const std::int64_t shifts = meta_int(f, key("token_shift_count")).value_or(2);
    constexpr std::int64_t kMax = 1 << 16;
    const auto rank = [&](const std::optional<std::int64_t>& r) {
      return r && *r > 0 && *r <= kMax;
    };
    const bool gate_ok = rank(gate) || (arwkv7 && (!gate || *gate == 0));
    if (!head || *head <= 0 || *head > kMax || a.hidden_size % *head != 0 || !rank(decay) ||
        !rank(iclr) || !rank(value) || !gate_ok || shifts != (arwkv7 ? 1 : 2) ||
        a.intermediate_size <= 0) {
      return make_error(fmt::format(
          "malformed GGUF: {} needs valid {}.wkv.head_size (dividing embedding_length), "
          "attention.decay_lora_rank, iclr_lora_rank, value_residual_mix_lora_rank, "
          "gate_lora_rank and feed_forward_length (token_shift_count {}: {}.cpp asserts it)",
          arch, arch, arwkv7 ? 1 : 2, arch));
    }
    const std::int64_t g = gate.value_or(0);
    set_rwkv_layers(a, 7, *head, shifts);
    Attention& at = a.attention;
    at.rwkv_lora_decay = static_cast<int>(*decay);
    at.rwkv_lora_iclr = static_cast<int>(*iclr);
    at.rwkv_lora_value = static_cast<int>(*value);
    at.rwkv_lora_gate = static_cast<int>(g);
    at.recurrent_params =
        arwkv7 ? arwkv7_block_params(a.hidden_size, a.intermediate_size, *decay, *iclr, *value, g)
               : rwkv7_block_params(a.hidden_size, a.intermediate_size, *decay, *iclr, *value, g);
  }
  // Falcon-H1 runs attention and a Mamba-2 mixer side by side in every layer,
  // and llama.cpp keeps both a KV cache and a recurrent state for each
  // (llama-model.cpp create_memory: both layer filters true for
  // LLM_ARCH_FALCON_H1).
  if (arch == "falcon-h1") {
    a.attention.kind = AttentionKind::Hybrid;
    a.attention.attention_layers = a.layers;
    a.attention.recurrent_layers = a.layers;
    // Its Mamba-2 mixer's sizes are read with the other hybrids' (below).
  }
  a.max_context = std::max<std::int64_t>(0, meta_int(f, key("context_length")).value_or(0));
  // Qwen3.5 (qwen35, qwen35moe; llama.cpp src/models/qwen35.cpp and
  // qwen35moe.cpp load_arch_hparams at 80fb11ac): the layer kinds come from
  // the per-layer flags attention.recurrent_layers when the file has them,
  // else from full_attention_interval, which llama.cpp takes as 4 when the
  // key is absent: is_recr[i] = (i + 1) % interval != 0. The multi-token-
  // prediction blocks after n_layer are attention blocks and hold no state.
  // Qwen4Exp (qwen4exp.cpp load_arch_hparams) reads its layer kinds and its
  // gated delta nets the same way.
  const bool qwen35 = arch == "qwen35" || arch == "qwen35moe" || arch == "qwen4exp";
  if (const GgufValue* flags = f.find(key("attention.recurrent_layers"));
      qwen35 && flags != nullptr && flags->kind == GgufValue::Kind::Array &&
      flags->numbers.size() >= static_cast<std::size_t>(a.layers)) {
    std::string mixers;
    for (std::size_t i = 0; i < static_cast<std::size_t>(a.layers); ++i) {
      mixers += flags->numbers[i] != 0 ? 'R' : 'A';
    }
    const auto attention = std::count(mixers.begin(), mixers.end(), 'A');
    if (attention > 0 && attention < a.layers) {
      a.attention.kind = AttentionKind::Hybrid;
      a.attention.attention_layers = static_cast<int>(attention);
      a.attention.layer_mixers = mixers;
    }
  }
  // Qwen3-Next / Qwen3.5: one full-attention layer every N, gated delta nets
  // between (llama.cpp: recurrent_layer_arr[i] = (i + 1) % interval != 0).
  if (const auto interval =
          meta_int(f, key("full_attention_interval"))
              .value_or(qwen35 && a.attention.kind != AttentionKind::Hybrid ? 4 : 0);
      interval > 1 && interval <= a.layers) {
    a.attention.kind = AttentionKind::Hybrid;
    a.attention.attention_layers = static_cast<int>(a.layers / interval);
    a.attention.layer_mixers.clear();
    for (std::int64_t i = 0; i < a.layers; ++i) {
      a.attention.layer_mixers += (i + 1) % interval == 0 ? 'A' : 'R';
    }
  }
  // Qwen3-Next's and Qwen3.5's gated delta nets (src/models/qwen3next.cpp,
  // qwen35.cpp load_arch_hparams/load_arch_tensors): key heads ssm.group_count,
  // value heads ssm.time_step_rank, both of width ssm.state_size (head_k_dim =
  // head_v_dim = ssm_d_state), behind a convolution of ssm.conv_kernel taps.
  // Both build the same delta-net ops, the graph the allocator replay builds
  // (ggml_alloc.cpp). Qwen3.5's attention layers also gate their output (wq
  // is n_embd x 2 n_head head_dim there). A GGUF names no mamba_ssm_dtype, so
  // under vLLM the recurrent matrix stays in its "auto", the model's dtype
  // (vllm_f32_state_floats 0; a config.json's float32 is read in
  // hf_config.cpp).
  if ((arch == "qwen3next" || qwen35) && a.attention.kind == AttentionKind::Hybrid) {
    const auto heads_k = meta_int(f, key("ssm.group_count"));
    const auto heads_v = meta_int(f, key("ssm.time_step_rank"));
    const auto head = meta_int(f, key("ssm.state_size"));
    const auto conv = meta_int(f, key("ssm.conv_kernel"));
    constexpr std::int64_t kMax = 1 << 16;
    const bool sized = heads_k && heads_v && head && conv && *heads_k < kMax && *heads_v < kMax &&
                       *head < kMax && *conv < 64;
    if (sized && *heads_k > 0 && *heads_k <= *heads_v && *heads_v % *heads_k == 0 && *head > 0 &&
        *conv > 1) {
      a.attention.delta_net_k_heads = static_cast<int>(*heads_k);
      a.attention.delta_net_v_heads = static_cast<int>(*heads_v);
      a.attention.delta_net_head_dim = static_cast<int>(*head);
      a.attention.delta_net_conv = static_cast<int>(*conv);
    }
    if (qwen35) {
      a.attention.gated_attention = true;
      if (sized) {
        a.attention.recurrent_params =
            gated_delta_net_params(a.hidden_size, *heads_k, *heads_v, *head, *head, *conv);
      }
    }
  }
  if (a.attention.kind == AttentionKind::Hybrid) {
    // Recurrent layers keep a fixed F32 state per sequence (llama.cpp's
    // layout, inference-estimators.md section 0.3): the convolution window
    // (d_conv - 1) x (d_inner + 2 x groups x d_state) plus the SSM state
    // d_state x d_inner. Mamba-2 and Qwen3-Next's gated delta net name their
    // sizes with the same ssm.* keys. Mamba-1 (Jamba) has no groups and its
    // converter writes no group count: llama.cpp's ssm_n_group stays 0 and
    // the window holds d_inner values only (llama-hparams.cpp n_embd_r).
    const auto conv = meta_int(f, key("ssm.conv_kernel"));
    const auto inner = meta_int(f, key("ssm.inner_size"));
    const auto state = meta_int(f, key("ssm.state_size"));
    const std::int64_t groups =
        std::max<std::int64_t>(0, meta_int(f, key("ssm.group_count")).value_or(0));
    constexpr std::int64_t kLimit = std::int64_t{1} << 24;
    if (conv && inner && state && *conv > 0 && *conv < 64 && *inner > 0 &&
        *inner<kLimit&& * state> 0 && *state < kLimit && groups < kLimit) {
      a.attention.recurrent_state_floats =
          (*conv - 1) * (*inner + 2 * groups * *state) + *state * *inner;
      // vLLM keeps Nemotron-H's scan state in F32: a GGUF names no
      // mamba_ssm_cache_dtype, so NemotronHForCausalLMConfig's default
      // (model.hpp vllm_f32_state_floats).
      if (arch.starts_with("nemotron_h")) {
        a.attention.vllm_f32_state_floats = *state * *inner;
      }
    }
    // Granite 4 H's Mamba-2 and Jamba's Mamba-1 mixers, Falcon-H1's
    // Mamba-2 beside every layer's attention and Nemotron-H's Mamba-2 blocks
    // (with its MLP-only blocks marked 'F' above), the graphs the allocator
    // replay builds (ggml_alloc.cpp; mamba-base.cpp), nemotron_h_moe's
    // MoE blocks included. Granite's NoPE files say so by
    // rope.scaling.finetuned false (conversion/granite.py); Bamba, the same
    // arch with RoPE, keeps the closed form.
    const auto dt_rank = meta_int(f, key("ssm.time_step_rank"));
    const GgufValue* rope_on = f.find(key("rope.scaling.finetuned"));
    const bool nope =
        rope_on != nullptr && rope_on->kind == GgufValue::Kind::Bool && rope_on->integer == 0;
    const bool mamba1 = arch == "jamba" || arch == "mamba";
    const bool replayed =
        mamba1 || mixers_only || arch == "falcon-h1" || (arch == "granitehybrid" && nope) ||
        (arch.starts_with("nemotron_h") && a.attention.layer_mixers.find('F') != std::string::npos);
    if (replayed && conv && inner && state && dt_rank && *conv > 1 && *conv < 64 && *inner > 0 &&
        *inner<kLimit&& * state> 0 && *state < 4096 && *dt_rank > 0 && *dt_rank <= *inner &&
        (mamba1 ? groups == 0 : groups > 0 && *inner % groups == 0) && groups < 4096 &&
        *inner % *dt_rank == 0) {
      a.attention.mamba = mamba1 ? 1 : 2;
      a.attention.ssm_conv = static_cast<int>(*conv);
      a.attention.ssm_inner = *inner;
      a.attention.ssm_state = static_cast<int>(*state);
      a.attention.ssm_heads = static_cast<int>(*dt_rank);
      a.attention.ssm_groups = static_cast<int>(groups);
      if (mixers_only) {
        a.attention.recurrent_params =
            mamba_mixer_params(a.hidden_size, *inner, *state, *conv, *dt_rank, groups);
      }
    }
    // PLaMo 2 (plamo2.cpp load_arch_hparams/load_arch_tensors at 80fb11ac;
    // conversion/plamo.py Plamo2Model): ssm.time_step_rank holds the
    // mixer's heads (mamba_num_heads), ssm.inner_size heads x
    // hidden_size_per_head, ssm.group_count 0; its own mixer (mamba 3).
    if (arch == "plamo2" && conv && inner && state && dt_rank && *conv > 1 && *conv < 64 &&
        *inner > 0 && kLimit > *inner && *state > 0 && *state < 4096 && *dt_rank > 0 &&
        *dt_rank <= *inner && *inner % *dt_rank == 0 && groups == 0) {
      a.attention.mamba = 3;
      a.attention.ssm_conv = static_cast<int>(*conv);
      a.attention.ssm_inner = *inner;
      a.attention.ssm_state = static_cast<int>(*state);
      a.attention.ssm_heads = static_cast<int>(*dt_rank);
      a.attention.ssm_groups = 0;
      a.attention.recurrent_params =
          plamo2_mixer_params(a.hidden_size, *inner, *state, *conv, *dt_rank);
    }
    if (mixers_only && a.attention.mamba == 0) {
      return make_error(fmt::format(
          "malformed GGUF: {} needs valid {}.ssm.conv_kernel, ssm.inner_size, ssm.state_size and "
          "ssm.time_step_rank{}",
          arch, arch, arch == "mamba2" ? " and ssm.group_count" : ""));
    }
    // LFM2's short convolutions keep the last l_cache - 1 inputs of the
    // hidden width (llama-hparams.cpp n_embd_r; no SSM state).
    if (const auto l_cache = meta_int(f, key("shortconv.l_cache")); l_cache && *l_cache > 1) {
      a.attention.recurrent_state_floats = a.hidden_size * std::min<std::int64_t>(*l_cache - 1, 64);
      a.attention.short_conv_cache = static_cast<int>(std::min<std::int64_t>(*l_cache - 1, 64));
    }
  }
  // Gemma 3n: the last layers reuse earlier layers' KV, and per-layer
  // embeddings of this width are read for every layer.
  a.attention.kv_shared_layers = static_cast<int>(std::clamp<std::int64_t>(
      meta_int(f, key("attention.shared_kv_layers")).value_or(0), 0, a.layers));
  a.per_layer_width = std::clamp<std::int64_t>(
      meta_int(f, key("embedding_length_per_layer_input")).value_or(0), 0, 1 << 20);
  // AltUp streams (altup.num_inputs) and the LAuReL rank, which llama.cpp
  // does not write: its hparams fix it at 64 (src/llama-hparams.h), the
  // laurel_l tensor's second dimension says it when present.
  if (arch == "gemma3n") {
    a.altup_inputs = static_cast<int>(
        std::clamp<std::int64_t>(meta_int(f, key("altup.num_inputs")).value_or(4), 0, 64));
    a.laurel_rank = 64;
  }

  // Gemma 4 (gemma4.cpp load_arch_hparams at 80fb11ac, conversion/gemma.py
  // Gemma4Model): key_length / value_length are the global layers' head
  // width, key_length_swa / value_length_swa the windowed layers';
  // head_count_kv lists each layer's KV heads (windowed, global) beside the
  // per-layer sliding_window_pattern flags; a global layer without
  // blk.N.attn_v uses its keys as values (attention_k_eq_v).
  // A Gemma 4 assistant (gemma4-assistant.cpp load_arch_hparams) reads the
  // same keys; embedding_length_out is its target's width (required to
  // differ from its own).
  if (arch == "gemma4" || arch == "gemma4-assistant") {
    const auto swa_len = meta_int(f, key("attention.key_length_swa"));
    const auto full_len = meta_int(f, key("attention.key_length"));
    if (swa_len && full_len && *swa_len > 0 && *swa_len < (1 << 16) && *full_len < (1 << 16) &&
        *swa_len != *full_len) {
      a.head_dim = static_cast<int>(*swa_len);
      a.attention.global_head_dim = static_cast<int>(*full_len);
    }
    const GgufValue* kv = f.find(key("attention.head_count_kv"));
    const GgufValue* swa = f.find(key("attention.sliding_window_pattern"));
    int first_global = -1;
    if (swa != nullptr && swa->kind == GgufValue::Kind::Array) {
      for (std::size_t i = 0; i < swa->numbers.size() && i < static_cast<std::size_t>(a.layers);
           ++i) {
        const bool windowed = swa->numbers[i] != 0;
        if (!windowed && first_global < 0) {
          first_global = static_cast<int>(i);
        }
        if (kv != nullptr && kv->kind == GgufValue::Kind::Array && i < kv->numbers.size() &&
            kv->numbers[i] > 0 && kv->numbers[i] <= a.heads) {
          const int heads_kv = static_cast<int>(kv->numbers[i]);
          (windowed ? a.kv_heads : a.attention.global_kv_heads) = heads_kv;
        }
      }
    }
    if (first_global >= 0) {
      const std::string k_name = fmt::format("blk.{}.attn_k.weight", first_global);
      const std::string v_name = fmt::format("blk.{}.attn_v.weight", first_global);
      bool has_k = false;
      bool has_v = false;
      for (const auto& t : f.tensors) {
        has_k = has_k || t.name == k_name;
        has_v = has_v || t.name == v_name;
      }
      a.attention.global_k_eq_v = has_k && !has_v;
    }
    // use_double_wide_mlp (E2B): the converter lists feed_forward_length per
    // layer, twice as wide on the KV-sharing layers; meta_int read the
    // widest, the others are intermediate_size.
    const GgufValue* ff = f.find(key("feed_forward_length"));
    if (ff != nullptr && ff->kind == GgufValue::Kind::Array && !ff->numbers.empty()) {
      const double narrow = *std::min_element(ff->numbers.begin(), ff->numbers.end());
      if (narrow > 0) {
        a.intermediate_size = static_cast<std::int64_t>(narrow);
        a.double_wide_mlp_layers = static_cast<int>(std::min<std::int64_t>(
            std::count(ff->numbers.begin(), ff->numbers.end(), 2 * narrow), a.layers));
      }
    }
  }

  // Vocabulary: the tokenizer's token list, else <arch>.vocab_size, else the
  // embedding's row count. Tied embeddings: no separate output tensor.
  const GgufTensor* embedding = nullptr;
  bool has_output = false;
  std::int64_t expert_elements = 0;
  std::int64_t adjugate_elements = 0;  // GroveMoE's ffn_*_chexps
  bool shared_expert_tensors = false;
  bool expert_bias = false;        // exp_probs_b: the experts chosen by probs + a bias
  std::vector<int> router_layers;  // blk.N of each ffn_gate_inp.weight: the MoE layers
  // Whether the MLP is gated, from its tensors rather than the architecture's
  // name: a gated MLP (SwiGLU, GeGLU) has a gate projection beside up
  // (blk.N.ffn_gate, ffn_gate_exps, ffn_gate_shexp, ffn_gate_up_exps) or
  // gate and up fused in one ffn_up twice the MLP's width (phi3, glm4:
  // build_ffn with LLM_FFN_SWIGLU and no gate tensor); an MLP of up and an
  // activation alone (gpt2, falcon, starcoder2, arcee's ReLU^2) has neither.
  bool ffn_up = false;
  bool ffn_gate = false;
  for (const auto& t : f.tensors) {
    if (t.name.starts_with("blk.")) {
      const bool up = t.name.ends_with(".ffn_up.weight") ||
                      t.name.ends_with(".ffn_up_exps.weight") ||
                      t.name.ends_with(".ffn_up_shexp.weight");
      ffn_up = ffn_up || up;
      ffn_gate = ffn_gate || t.name.ends_with(".ffn_gate.weight") ||
                 t.name.ends_with(".ffn_gate_exps.weight") ||
                 t.name.ends_with(".ffn_gate_shexp.weight") ||
                 t.name.ends_with(".ffn_gate_up_exps.weight") ||
                 (up && a.intermediate_size > 0 && t.shape.size() >= 2 &&
                  t.shape[1] == 2 * static_cast<std::uint64_t>(a.intermediate_size));
    }
    if (t.name.find("_shexp") != std::string::npos) {
      shared_expert_tensors = true;
    }
    // hy-v3.cpp names it without the suffix (tn(LLM_TENSOR_FFN_EXP_PROBS_B, i)),
    // as conversion/hunyuan.py maps Hy3's mlp.expert_bias.
    expert_bias = expert_bias || t.name.ends_with(".exp_probs_b.bias") ||
                  (t.name.starts_with("blk.") && t.name.ends_with(".exp_probs_b"));
    if (t.name.starts_with("blk.") && t.name.ends_with(".ffn_gate_inp.weight") &&
        router_layers.size() < 1 << 16) {
      int layer = -1;
      std::from_chars(t.name.data() + 4, t.name.data() + t.name.size(), layer);
      router_layers.push_back(layer);
    }
    if (t.name == "blk.0.laurel_l.weight" && t.shape.size() >= 2) {
      a.laurel_rank = static_cast<std::int64_t>(std::min<std::uint64_t>(t.shape[1], 1U << 16));
    }
    if (t.name == "per_layer_token_embd.weight" && t.shape.size() >= 2) {
      a.per_layer_vocab = static_cast<std::int64_t>(std::min<std::uint64_t>(t.shape[1], 1U << 30));
    }
    if (t.name == "token_embd.weight") {
      embedding = &t;
    } else if (t.name == "output.weight") {
      has_output = true;
      // Qwen3-TTS (qwen3vl.cpp load_arch_tensors for qwen3tts): the codec
      // head, fewer rows than the vocabulary (read below).
      if (arch == "qwen3tts" && t.shape.size() >= 2) {
        a.head_rows = static_cast<std::int64_t>(std::min<std::uint64_t>(t.shape[1], 1U << 30));
      }
    }
    if (t.name.find("_exps") != std::string::npos) {
      expert_elements += t.elements;
    } else if (t.name.find("_chexps") != std::string::npos) {
      adjugate_elements += t.elements;
    }
    if (t.name.find("attn_sinks") != std::string::npos) {
      a.attention.sinks = true;
    }
  }
  if (const GgufValue* tokens = f.find("tokenizer.ggml.tokens");
      tokens != nullptr && tokens->kind == GgufValue::Kind::Array && tokens->count > 0) {
    a.vocab_size = static_cast<std::int64_t>(std::min<std::uint64_t>(tokens->count, 1U << 30));
  } else if (const auto v = meta_int(f, key("vocab_size")); v && *v > 0) {
    a.vocab_size = *v;
  } else if (embedding != nullptr && embedding->shape.size() >= 2) {
    a.vocab_size = static_cast<std::int64_t>(embedding->shape[1]);
  }
  a.tied_embeddings = !has_output;
  if (a.head_rows >= a.vocab_size) {
    a.head_rows = 0;  // a head of the whole vocabulary: the ordinary one
  }
  // gpt2.cpp and starcoder.cpp (llama.cpp at 80fb11ac) create no gate, a
  // position table pos_embd of hidden x n_ctx_train (context_length), and
  // biases beside every LayerNorm and projection.
  const bool gpt2_block = arch == "gpt2" || arch == "starcoder";
  // gptneox.cpp (80fb11ac) creates the same layer without the position
  // table: no gate, LayerNorms with bias, one attn_qkv with its bias (Q and K
  // roped from views of it, as chatglm.cpp does), biases on wo, up and down;
  // {arch}.use_parallel_residual (a key llama.cpp requires; the converter
  // writes use_parallel_residual, default true) makes it a parallel block.
  const bool neox_block = arch == "gptneox";
  if (neox_block) {
    a.attention.fused_qkv = true;
    a.qkv_bias = true;
    const GgufValue* parallel = f.find(key("use_parallel_residual"));
    if (parallel == nullptr || parallel->kind != GgufValue::Kind::Bool || parallel->integer != 0) {
      a.attention.parallel_block = ParallelBlock::NeoX;
    }
  }
  // The ALiBi decoders (tests/unit/test_arch_alibi.cpp): bloom.cpp and
  // mpt.cpp create GPT-2's layer without a position table (no gate; mpt's
  // biases optional), bloom.cpp with a LayerNorm of the token embeddings
  // (token_embd_norm); jais.cpp the same with a SwiGLU MLP (gate, up and
  // down with biases; attn_qkv with its bias).
  const bool alibi_block = arch == "bloom" || arch == "mpt";
  a.embedding_norm = arch == "bloom";
  if (arch == "jais") {
    a.attention.fused_qkv = true;
    a.qkv_bias = true;
    a.norm_bias = true;
  }
  if ((ffn_up || gpt2_block || neox_block || alibi_block) && !ffn_gate) {
    a.mlp_gated = false;
  }
  if (gpt2_block) {
    a.learned_positions = std::clamp<std::int64_t>(meta_int(f, key("context_length")).value_or(0),
                                                   0, std::int64_t{1} << 31);
  }
  // Qwen3-VL's deepstack layers (qwen3vl.cpp, qwen3vlmoe.cpp: n_deepstack_layers).
  a.deepstack_layers = static_cast<int>(
      std::clamp<std::int64_t>(meta_int(f, key("n_deepstack_layers")).value_or(0), 0, 64));

  // Mixture of experts.
  const auto experts = meta_int(f, key("expert_count")).value_or(0);
  // Hunyuan's dense models write expert_count 1, which llama.cpp reads as
  // none (llama-model.cpp load_hparams, LLM_ARCH_HUNYUAN_DENSE / _VL).
  const bool one_expert_is_dense =
      (arch == "hunyuan-dense" || arch == "hunyuan_vl") && experts <= 1;
  if (experts > 0 && experts <= (1 << 16) && !one_expert_is_dense) {
    Moe moe;
    moe.experts = static_cast<int>(experts);
    moe.experts_per_token = static_cast<int>(
        std::clamp<std::int64_t>(meta_int(f, key("expert_used_count")).value_or(1), 1, experts));
    moe.shared_experts = static_cast<int>(
        std::clamp<std::int64_t>(meta_int(f, key("expert_shared_count")).value_or(0), 0, 1 << 16));
    moe.expert_intermediate_size =
        meta_int(f, key("expert_feed_forward_length")).value_or(a.intermediate_size);
    moe.selection_bias = expert_bias;
    // GroveMoE (grovemoe.cpp load_arch_hparams/load_arch_tensors at
    // 80fb11ac; conversion/grovemoe.py writes experts_per_group 2 and
    // expert_chunk_feed_forward_length head_dim or 128): experts /
    // experts_per_group adjugate experts of the chunk width (head_dim where
    // the file gives none), required.
    if (arch == "grovemoe") {
      const auto group = meta_int(f, key("experts_per_group")).value_or(0);
      const auto width = meta_int(f, key("expert_chunk_feed_forward_length")).value_or(a.head_dim);
      if (group > 0 && group <= experts && experts % group == 0 && width > 0 && width < (1 << 24)) {
        moe.experts_per_group = static_cast<int>(group);
        moe.group_expert_width = width;
      }
    }
    // Qwen2/3 MoE and Qwen3-Next give the shared expert's width instead of a
    // count (expert_shared_feed_forward_length): in routed-expert widths, as
    // the config path counts shared_expert_intermediate_size. Nemotron-H's
    // MoE gives both, its one shared expert twice a routed one's width
    // (3712 beside 1856): the width counts.
    if (const auto width = meta_int(f, key("expert_shared_feed_forward_length"));
        width && *width > 0 && moe.expert_intermediate_size > 0) {
      moe.shared_experts = static_cast<int>(std::clamp<std::int64_t>(
          (*width + moe.expert_intermediate_size / 2) / moe.expert_intermediate_size, 1, 1 << 16));
      // A width of no whole number of experts is kept as it is (Granite MoE
      // SWA's 1280 beside experts of 512).
      if (*width % moe.expert_intermediate_size != 0 && *width < (1 << 24)) {
        moe.shared_width = *width;
      }
    }
    if (moe.shared_experts == 0 && shared_expert_tensors) {
      moe.shared_experts = 1;  // Llama 4 and Qwen MoE name no count but carry ffn_*_shexp
    }
    // A dense MLP of feed_forward_length beside the experts, counted in
    // expert widths as the config path counts it: Gemma 4's MoE layers
    // (gemma4.cpp: "we use normal FFN as shared expert"), and Grok-2's
    // (grok.cpp: build_ffn when the layer has ffn_up, added to the experts'
    // output; conversion/grok.py at 80fb11ac writes expert_feed_forward_length
    // only from moe_intermediate_size, which Grok-1's config lacks).
    const bool dense_beside_experts =
        arch == "gemma4" || (arch == "grok" && f.find(key("expert_feed_forward_length")));
    if (dense_beside_experts && moe.shared_experts == 0 && a.intermediate_size > 0 &&
        moe.expert_intermediate_size > 0) {
      moe.shared_experts = static_cast<int>(std::clamp<std::int64_t>(
          (a.intermediate_size + moe.expert_intermediate_size / 2) / moe.expert_intermediate_size,
          1, 1 << 16));
    }
    moe.first_dense_layers = static_cast<int>(std::clamp<std::int64_t>(
        meta_int(f, key("leading_dense_block_count")).value_or(0), 0, a.layers));
    moe.layer_step = static_cast<int>(std::clamp<std::int64_t>(
        meta_int(f, key("interleave_moe_layer_step")).value_or(1), 1, a.layers));
    // HunYuan V3 names no dense lead (conversion/hunyuan.py HYV3Model writes
    // no leading_dense_block_count): hy-v3.cpp gives a layer routed experts
    // where the file has its router (ffn_gate_inp), a dense MLP elsewhere.
    // Where the trunk's routers are exactly its last layers, the ones before
    // are the dense lead (the MTP blocks past the trunk do not count).
    if (!f.find(key("leading_dense_block_count")) && moe.layer_step == 1) {
      std::vector<int> trunk;
      std::ranges::copy_if(router_layers, std::back_inserter(trunk),
                           [&a](int i) { return i >= 0 && i < a.layers; });
      std::ranges::sort(trunk);
      const auto n = std::ssize(trunk);
      const auto first = static_cast<int>(a.layers - n);
      if (n > 0 && n < a.layers && trunk.front() == first && trunk.back() == a.layers - 1 &&
          std::ranges::adjacent_find(trunk, [](int x, int y) { return y != x + 1; }) ==
              trunk.end()) {
        moe.first_dense_layers = first;
      }
    }
    // Jamba names no step: its routers sit on every second layer
    // (conversion/jamba.py: expert_layer_offset 1, period 2), and so do the
    // file's ffn_gate_inp tensors. A layout of every step-th layer is read
    // from them.
    if (const auto n = std::ssize(router_layers); moe.layer_step == 1 &&
                                                  moe.first_dense_layers == 0 && n > 0 &&
                                                  n < a.layers && a.layers % n == 0) {
      const int step = static_cast<int>(a.layers / n);
      if (std::ranges::all_of(router_layers, [step](int i) { return (i + 1) % step == 0; })) {
        moe.layer_step = step;
      }
    }
    a.moe = moe;
  }

  // Multi-head latent attention (DeepSeek V2/V3 and kin).
  if (const auto rank = meta_int(f, key("attention.kv_lora_rank")); rank && *rank > 0) {
    Attention& at = a.attention;
    // A hybrid's attention layers may be MLA (kimi-linear, kimi-k3).
    if (at.kind != AttentionKind::Hybrid) {
      at.kind = AttentionKind::Mla;
    }
    at.kv_lora_rank = static_cast<int>(std::min<std::int64_t>(*rank, 1 << 20));
    at.q_lora_rank = static_cast<int>(std::clamp<std::int64_t>(
        meta_int(f, key("attention.q_lora_rank")).value_or(0), 0, 1 << 20));
    at.qk_rope_head_dim = static_cast<int>(std::clamp<std::int64_t>(
        meta_int(f, key("rope.dimension_count")).value_or(64), 0, 1 << 20));
    const auto k_len = meta_int(f, key("attention.key_length_mla"))
                           .value_or(meta_int(f, key("attention.key_length")).value_or(192));
    // Without value_length llama.cpp takes n_embd / n_head (llama-model.cpp
    // load_hparams): conversion/minicpm.py MiniCPM3Model writes none.
    const auto v_len = meta_int(f, key("attention.value_length_mla"))
                           .value_or(meta_int(f, key("attention.value_length"))
                                         .value_or(a.heads > 0 ? a.hidden_size / a.heads : 128));
    at.qk_nope_head_dim =
        static_cast<int>(std::clamp<std::int64_t>(k_len - at.qk_rope_head_dim, 0, 1 << 20));
    at.v_head_dim = static_cast<int>(std::clamp<std::int64_t>(v_len, 0, 1 << 20));
    a.head_dim = at.qk_nope_head_dim + at.qk_rope_head_dim;
    // DeepSeek Sparse Attention's lightning indexer (deepseek32, glm-dsa):
    // gguf-py Keys.Attention.Indexer, {arch}.attention.indexer.key_length /
    // head_count / top_k (top_k sizes only the graph's top-k tensors).
    at.index_head_dim = static_cast<int>(std::clamp<std::int64_t>(
        meta_int(f, key("attention.indexer.key_length")).value_or(0), 0, 1 << 16));
    at.index_heads = static_cast<int>(std::clamp<std::int64_t>(
        meta_int(f, key("attention.indexer.head_count")).value_or(0), 0, 1 << 16));
    at.index_top_k = static_cast<int>(std::clamp<std::int64_t>(
        meta_int(f, key("attention.indexer.top_k")).value_or(0), 0, 1 << 24));
    // GLM-5.2's shared indexers (glm-dsa.cpp load_arch_hparams): per-layer
    // attention.indexer.types flags (true = an indexer of its own); without
    // them a file trained to a million tokens or more takes llama.cpp's
    // GLM-5.2 pattern (layers 0 and 1, then one in four from layer 2), an
    // older one an indexer on every layer.
    if (const GgufValue* types = f.find(key("attention.indexer.types"));
        types != nullptr && types->kind == GgufValue::Kind::Array && !types->numbers.empty()) {
      const auto own = std::count_if(
          types->numbers.begin(),
          types->numbers.begin() + std::min<std::ptrdiff_t>(std::ssize(types->numbers), a.layers),
          [](double x) { return x != 0.0; });
      at.indexer_layers = static_cast<int>(own);
    } else if (arch == "glm-dsa" && a.max_context >= (std::int64_t{1} << 20)) {
      at.indexer_layers = std::min(a.layers, 2) + std::max(0, (a.layers - 2 + 3) / 4);
    }
  }

  // dots.llm3 (llama.cpp src/models/dots3note.cpp load_arch_hparams at
  // 80fb11ac; conversion/dots3.py Dots3NoteModel.set_gguf_parameters): the
  // per-layer sliding_window_pattern flags (true = windowed) over the trunk;
  // attention.sliding_window; the windowed layers' MLA in
  // attention.kv_lora_rank_swa, key_length_mla_swa (nope + rope) and
  // value_length_mla_swa, their query heads in the per-layer head_count
  // (read above as the widest, the full layers'); the indexer on the layers
  // attention.indexer.types flags (read above); a head-wise gate on every
  // layer and a router bias (attn_gate and exp_probs_b, both required by
  // load_arch_tensors); the MTP block windowed with a dense MLP and a token
  // embedding of its own (nextn.embed_tokens).
  if (arch == "dots3note" && uses_mla(a)) {
    Attention& at = a.attention;
    if (std::string listed =
            listed_window_layers(f, key("attention.sliding_window_pattern"), a.layers);
        !listed.empty()) {
      at.window_layers = std::move(listed);
    }
    const auto clamp_key = [&](const char* k, std::int64_t fallback) {
      return static_cast<int>(
          std::clamp<std::int64_t>(meta_int(f, key(k)).value_or(fallback), 0, 1 << 20));
    };
    at.sliding_window = clamp_key("attention.sliding_window", 0);
    at.swa_kv_lora_rank = clamp_key("attention.kv_lora_rank_swa", 0);
    at.swa_qk_nope_head_dim =
        std::max(0, clamp_key("attention.key_length_mla_swa", a.head_dim) - at.qk_rope_head_dim);
    at.swa_v_head_dim = clamp_key("attention.value_length_mla_swa", at.v_head_dim);
    at.swa_heads = a.heads;
    if (const GgufValue* heads_l = f.find(key("attention.head_count"));
        heads_l != nullptr && heads_l->kind == GgufValue::Kind::Array) {
      for (int i = 0; i < a.layers && i < std::ssize(heads_l->numbers); ++i) {
        if (i < std::ssize(at.window_layers) &&
            at.window_layers[static_cast<std::size_t>(i)] == 'S') {
          at.swa_heads = static_cast<int>(
              std::clamp<double>(heads_l->numbers[static_cast<std::size_t>(i)], 1, 1 << 16));
          break;
        }
      }
    }
    at.mla_head_gate = true;
    if (a.moe) {
      a.moe->selection_bias = true;
    }
    a.mtp_dense = a.mtp_layers > 0;
  }

  // MiniMax-M3's sparse attention (minimax-m3.cpp at 80fb11ac): the indexer
  // keys beside GQA, on the layers after the leading dense ones (llama-model.cpp
  // create_memory, filter_idx: il >= n_layer_dense_lead).
  if (arch == "minimax-m3" && !uses_mla(a)) {
    Attention& at = a.attention;
    at.index_head_dim = static_cast<int>(std::clamp<std::int64_t>(
        meta_int(f, key("attention.indexer.key_length")).value_or(0), 0, 1 << 16));
    at.index_heads = static_cast<int>(std::clamp<std::int64_t>(
        meta_int(f, key("attention.indexer.head_count")).value_or(0), 0, 1 << 16));
    at.indexer_layers = a.layers - (a.moe ? a.moe->first_dense_layers : 0);
  }

  // Kimi Linear and Kimi K3 (kimi-linear.cpp, kimi-k3.cpp load_arch_hparams
  // and load_arch_tensors at 80fb11ac): a layer with no KV heads is Kimi
  // Delta Attention of attention.head_count heads of kda.head_dim behind
  // convolutions of ssm.conv_kernel taps; its state is llama-hparams.cpp's
  // n_embd_r (3 (kernel - 1) heads head_dim) and n_embd_s (heads head_dim^2).
  // K3 adds a full-rank output gate (blk.N.ssm_g), a gate on the MLA output
  // (blk.N.attn_gate) and a latent MoE (expert_latent_length).
  // Ling 3 (bailingmoe3.cpp, the same keys): both KDA gates one hidden x
  // inner matrix (ssm_f_a, ssm_g_a; the converter takes only no_kda_lora
  // checkpoints) and a head-wise gate on the MLA output (attn_gate, hidden x
  // heads) where K3's is hidden x heads x v_head_dim.
  const bool ling3 = arch == "bailingmoe3";
  if ((arch == "kimi-linear" || arch == "kimi-k3" || ling3) &&
      a.attention.kind == AttentionKind::Hybrid) {
    const auto d = meta_int(f, key("kda.head_dim"));
    const auto conv = meta_int(f, key("ssm.conv_kernel"));
    Attention& at = a.attention;
    if (d && conv && *d > 0 && *d < (1 << 16) && *conv > 1 && *conv < 64) {
      bool full_rank = ling3;
      bool attn_gate = false;
      for (const auto& t : f.tensors) {
        full_rank = full_rank || (t.name.starts_with("blk.") && t.name.ends_with(".ssm_g.weight"));
        attn_gate =
            attn_gate || (t.name.starts_with("blk.") && t.name.ends_with(".attn_gate.weight"));
      }
      at.mla_output_gate = at.mla_output_gate || (attn_gate && !ling3);
      at.mla_head_gate = attn_gate && ling3;
      const std::int64_t inner = std::int64_t{a.heads} * *d;
      at.kda = true;
      at.kda_full_rank_gate = full_rank;
      at.kda_full_rank_decay = ling3;
      at.delta_net_k_heads = a.heads;
      at.delta_net_v_heads = a.heads;
      at.delta_net_head_dim = static_cast<int>(*d);
      at.delta_net_conv = static_cast<int>(*conv);
      at.recurrent_state_floats = 3 * (*conv - 1) * inner + inner * *d;
      at.recurrent_params =
          kimi_delta_attention_params(a.hidden_size, a.heads, *d, *conv, full_rank, ling3);
    }
    if (a.moe) {
      a.moe->latent_size = std::clamp<std::int64_t>(
          meta_int(f, key("expert_latent_length")).value_or(0), 0, 1 << 20);
    }
  }

  // MiniMax-01 (minimax-01.cpp load_arch_hparams at 80fb11ac): the lightning
  // layers are those attention.recurrent_layers flags, or, without it, all
  // but every full_attention_interval-th (8 when the file has none, as
  // conversion/minimax.py writes it); each keeps llama-hparams.cpp's n_embd_s
  // for n_embd_head_la (head_dim = key_length): heads x head_dim^2 values, no
  // convolution (n_embd_r 0).
  if (arch == "minimax-01" && a.attention.kind == AttentionKind::Full) {
    std::string mixers;
    if (const GgufValue* r = f.find(key("attention.recurrent_layers"));
        r != nullptr && r->kind == GgufValue::Kind::Array && std::ssize(r->numbers) >= a.layers) {
      for (int i = 0; i < a.layers; ++i) {
        mixers += r->numbers[static_cast<std::size_t>(i)] != 0 ? 'R' : 'A';
      }
    } else {
      const std::int64_t every = std::clamp<std::int64_t>(
          meta_int(f, key("full_attention_interval")).value_or(8), 1, 1 << 20);
      for (int i = 0; i < a.layers; ++i) {
        mixers += (i + 1) % every == 0 ? 'A' : 'R';
      }
    }
    const auto recurrent = std::count(mixers.begin(), mixers.end(), 'R');
    if (recurrent > 0 && recurrent < a.layers) {
      Attention& at = a.attention;
      at.kind = AttentionKind::Hybrid;
      at.attention_layers = static_cast<int>(a.layers - recurrent);
      at.recurrent_layers = static_cast<int>(recurrent);
      at.layer_mixers = std::move(mixers);
      at.lightning = true;
      at.recurrent_state_floats = std::int64_t{a.heads} * a.head_dim * a.head_dim;
      at.recurrent_params = lightning_attention_params(a.hidden_size, a.heads, a.head_dim);
    }
  }

  // Llama 4: chunked local attention, 8192-token chunks on three layers of
  // four (llama-model.cpp, LLM_ARCH_LLAMA4: LLAMA_SWA_TYPE_CHUNKED, n_swa
  // 8192, set_swa_pattern(4)), unless the file sets sliding_window to 0.
  if (arch == "llama4" && a.attention.kind == AttentionKind::Full) {
    const auto window = meta_int(f, key("attention.sliding_window"));
    if (!window || *window > 0) {
      a.attention.kind = AttentionKind::Sliding;
      a.attention.chunked = true;
      a.attention.sliding_window = 8192;
      a.attention.sliding_pattern = 4;
    }
  }

  // Phi-3.5-MoE: LayerNorm and projection biases, all required by
  // phimoe.cpp load_arch_tensors (attn_norm_b, ffn_norm_b, output_norm_b,
  // wq_b/wk_b/wv_b through create_tensor_qkv, wo_b, output_b).
  if (arch == "phimoe") {
    a.norm_bias = true;
    a.attention_bias = true;
    a.output_bias = true;
  }

  // Nanbeige4.2 (nanbeige.cpp load_arch_hparams at 80fb11ac): block_count
  // layers run num_loops times (optional, default 1), each pass with KV of
  // its own.
  if (arch == "nanbeige") {
    a.loops = static_cast<int>(
        std::clamp<std::int64_t>(meta_int(f, key("num_loops")).value_or(1), 1, 64));
  }

  // openPangu-Embedded (pangu-embed.cpp load_arch_tensors at 80fb11ac):
  // wo_b required, wq_b, wk_b and wv_b through create_tensor_qkv (the
  // converter's files carry them: PanguEmbeddedConfig bias true).
  if (arch == "pangu-embedded") {
    a.attention_bias = true;
  }

  // ChatGLM (chatglm.cpp load_arch_tensors at 80fb11ac): Q, K and V in one
  // attn_qkv with its bias (conversion/chatglm.py maps query_key_value), or,
  // converted from transformers' Glm layout (GlmForCausalLM), attn_q, attn_k
  // and attn_v with theirs (create_tensor_qkv takes either); gate and up in
  // one ffn_up of 2 x feed_forward_length either way.
  if (arch == "chatglm") {
    const auto has = [&](std::string_view name) {
      return std::any_of(f.tensors.begin(), f.tensors.end(),
                         [&](const GgufTensor& t) { return t.name == name; });
    };
    a.attention.fused_qkv = has("blk.0.attn_qkv.weight");
    a.qkv_bias = has("blk.0.attn_qkv.bias") || has("blk.0.attn_q.bias");
    a.fused_gate_up = !has("blk.0.ffn_gate.weight");
  }
  // CodeShell (codeshell.cpp load_arch_tensors at 80fb11ac): GPT-NeoX's
  // layer, sequential: LayerNorms with biases, one attn_qkv with its bias
  // (create_tensor_qkv; the converter maps c_attn to it), biases on wo, up
  // and down, no gate.
  if (arch == "codeshell") {
    a.attention.fused_qkv = true;
    a.qkv_bias = true;
    a.mlp_gated = false;
  }
  // Orion (orion.cpp load_arch_tensors at 80fb11ac): attn_norm, ffn_norm and
  // output_norm each with a required bias (LayerNorms, LLM_NORM).
  if (arch == "orion") {
    a.norm_bias = true;
  }
  // Qwen-1 (qwen.cpp load_arch_tensors at 80fb11ac): attn_qkv and its bias,
  // both required; ffn_gate, ffn_up and ffn_down of feed_forward_length / 2
  // (the converter writes QWenConfig's intermediate_size, twice the MLP).
  if (arch == "qwen") {
    a.attention.fused_qkv = true;
    a.qkv_bias = true;
    a.intermediate_size /= 2;
  }
  // Nemotron-4 / Minitron (nemotron.cpp load_arch_tensors): LayerNorms with
  // a required bias (attn_norm_b, ffn_norm_b, output_norm_b) beside q, k, v
  // and an ungated MLP (its ffn_up without ffn_gate, above) whose optional
  // biases conversion/nemotron.py writes only for a checkpoint that has
  // them; Nemotron's have none (NemotronConfig attention_bias, mlp_bias).
  if (arch == "nemotron") {
    a.norm_bias = true;
  }
  // Pocket TTS's backbone (pockettts.cpp load_arch_tensors at 80fb11ac):
  // LayerNorms with required biases (attn_norm_b, ffn_norm_b,
  // output_norm_b) beside bias-free q, k, v, wo and an ungated GELU MLP (up
  // and down only, whether or not the layers' tensors are read); no output
  // head (the embedding table duplicated: tied).
  if (arch == "pockettts") {
    a.norm_bias = true;
    a.mlp_gated = false;
  }
  a.speech = arch == "pockettts" || arch == "qwen3tts";
  // Jais 2 (jais2.cpp load_arch_tensors at 80fb11ac): LayerNorm biases, q,
  // k, v and o biases and the ungated MLP's biases, all required; no gate.
  if (arch == "jais2") {
    a.norm_bias = true;
    a.attention_bias = true;
    a.mlp_bias = true;
    a.mlp_gated = false;
  }
  // PLM (plm.cpp load_arch_tensors at 80fb11ac): ffn_up and ffn_down, no
  // gate (build_ffn with LLM_FFN_RELU_SQR, LLM_FFN_SEQ).
  if (arch == "plm") {
    a.mlp_gated = false;
    a.attention.flash_aborts = true;  // plm.cpp's 2-D V (Attention::flash_aborts)
    // no lmhead_scaling before the head (Attention::mla_unscaled_head)
    a.attention.mla_unscaled_head = true;
  }
  // Chameleon (chameleon.cpp at 80fb11ac): llama's layer with Q and K
  // LayerNormed per head (attn_q_norm {head_dim, heads}, attn_k_norm
  // {head_dim, kv_heads}, and their biases, which conversion/chameleon.py
  // writes from the checkpoint's LayerNorms), the image tokens' logits
  // masked, and the Swin-style norms where {arch}.swin_norm is true (read
  // with a default of false).
  if (arch == "chameleon") {
    a.attention.qk_layer_norm = true;
    a.masked_image_logits = true;
    const GgufValue* swin = f.find(key("swin_norm"));
    a.swin_norm = swin != nullptr && swin->kind == GgufValue::Kind::Bool && swin->integer != 0;
  }
  // CogVLM (cogvlm.cpp load_arch_tensors at 80fb11ac): one fused attn_qkv
  // without a bias, and beside every layer's language weights the visual
  // expert's vis_attn_qkv, vis_attn_output, vis_gate, vis_up and vis_down
  // of the same shapes, all required.
  if (arch == "cogvlm") {
    a.attention.fused_qkv = true;
    a.visual_expert = true;
  }
  // Granite Switch (granite-switch.cpp at 80fb11ac): one fused attn_qkv,
  // and adapters.count LoRA adapters of adapters.lora_rank on every layer
  // (load_arch_hparams requires both keys); the GGUF's block_count is the
  // decoder's layers (conversion/granite.py writes num_hidden_layers - 1,
  // the router's slot left out).
  if (arch == "graniteswitch") {
    a.attention.fused_qkv = true;
    a.adapters = static_cast<int>(
        std::clamp<std::int64_t>(meta_int(f, key("adapters.count")).value_or(0), 0, 4096));
    a.adapter_rank = static_cast<int>(
        std::clamp<std::int64_t>(meta_int(f, key("adapters.lora_rank")).value_or(0), 0, 4096));
  }
  if (arch == "gemma4-assistant") {
    const auto backbone = meta_int(f, key("embedding_length_out"));
    if (!backbone || *backbone <= 0 || *backbone > (1 << 20) || *backbone == a.hidden_size) {
      return make_error(
          "malformed GGUF: a gemma4-assistant needs gemma4-assistant.embedding_length_out, its "
          "target's width, other than its own (llama.cpp refuses it otherwise)");
    }
    a.assistant_backbone_hidden = *backbone;
    a.attention.kv_shared_layers = a.layers;  // create_memory shares every layer
    a.double_wide_mlp_layers = 0;
  }
  // EAGLE-3 drafts (eagle3.cpp load_arch_hparams and load_arch_tensors at
  // 80fb11ac): target_layers (required, three entries), target_hidden_size
  // (required), norm_before_fc (optional); the draft vocabulary is d2t's
  // length when the file has d2t, token embeddings only when it has tok_embd.
  if (arch == "eagle3") {
    const GgufValue* target_layers = f.find(key("target_layers"));
    if (target_layers == nullptr || target_layers->kind != GgufValue::Kind::Array ||
        target_layers->count != 3) {
      return make_error(
          "malformed GGUF: an eagle3 draft needs eagle3.target_layers with three entries "
          "(llama.cpp refuses it otherwise)");
    }
    const auto target_hidden = meta_int(f, key("target_hidden_size"));
    if (!target_hidden || *target_hidden <= 0 || *target_hidden > (1 << 20)) {
      return make_error(
          "malformed GGUF: an eagle3 draft needs a positive eagle3.target_hidden_size");
    }
    a.eagle3_target_layers = 3;
    a.eagle3_target_hidden = *target_hidden;
    const GgufValue* before_fc = f.find(key("norm_before_fc"));
    a.eagle3_norm_before_fc =
        before_fc != nullptr && before_fc->kind == GgufValue::Kind::Bool && before_fc->integer != 0;
    for (const auto& t : f.tensors) {
      if (t.name == "d2t" && !t.shape.empty()) {
        a.draft_vocab = static_cast<std::int64_t>(std::min<std::uint64_t>(t.shape[0], 1U << 30));
      }
      if (t.name == "token_embd.weight") {
        a.draft_own_embeddings = true;
      }
    }
    a.tied_embeddings = false;
  }
  // DFlash drafts (dflash.cpp load_arch_hparams and load_arch_tensors at
  // 80fb11ac): target_layers (required, any length), block_size and
  // DFlash2's conv_kernel_size, conv_group_size, selector_rank and
  // selector_top_k (optional); token embeddings, the head and d2t only when
  // the file has them; DSpark's Markov head (markov_w1's rows). A
  // hyper_connection.count above 0 is DeepSeek-V4's DSpark draft, whose MLA
  // stages, experts and hyper-connections are not modelled here.
  std::string dspark_dsv4;
  if (arch == "dflash") {
    const GgufValue* target_layers = f.find(key("target_layers"));
    if (target_layers == nullptr || target_layers->kind != GgufValue::Kind::Array ||
        target_layers->count == 0 || target_layers->count > 1024) {
      return make_error(
          "malformed GGUF: a dflash draft needs dflash.target_layers (llama.cpp refuses it "
          "otherwise)");
    }
    a.dflash_target_layers = static_cast<int>(target_layers->count);
    const auto small = [&](const char* name) {
      return static_cast<int>(
          std::clamp<std::int64_t>(meta_int(f, key(name)).value_or(0), 0, 1 << 20));
    };
    a.dflash_block_size = small("block_size");
    a.dflash_conv_kernel = small("conv_kernel_size");
    a.dflash_conv_group = small("conv_group_size");
    a.dflash_selector_rank = small("selector_rank");
    a.dflash_selector_top_k = small("selector_top_k");
    bool selector = false;
    for (const auto& t : f.tensors) {
      if (t.name == "d2t" && !t.shape.empty()) {
        a.draft_vocab = static_cast<std::int64_t>(std::min<std::uint64_t>(t.shape[0], 1U << 30));
      }
      if (t.name == "token_embd.weight") {
        a.draft_own_embeddings = true;
      }
      if (t.name == "output.weight") {
        a.draft_own_head = true;
      }
      if (t.name == "markov_w1.weight" && !t.shape.empty()) {
        a.dspark_markov_rank =
            static_cast<std::int64_t>(std::min<std::uint64_t>(t.shape[0], 1U << 20));
      }
      selector = selector || t.name == "selector_hidden.weight";
    }
    if (selector &&
        (a.dflash_selector_rank <= 0 || a.dflash_conv_kernel <= 0 || a.dflash_conv_group <= 0 ||
         a.dflash_selector_top_k <= 0 || a.hidden_size % a.dflash_conv_group != 0)) {
      return make_error(
          "malformed GGUF: a DFlash2 draft (selector_hidden) needs dflash.conv_kernel_size, "
          "conv_group_size (dividing the width), selector_rank and selector_top_k (llama.cpp "
          "refuses it otherwise)");
    }
    if (!selector) {
      a.dflash_selector_rank = 0;
    }
    a.tied_embeddings = false;
    if (const auto hc = meta_int(f, key("hyper_connection.count")); hc && *hc > 0) {
      dspark_dsv4 = fmt::format(
          "'dflash' with hyper_connection.count {} (a DeepSeek-V4 DSpark draft: its MLA stages, "
          "experts and hyper-connections and its windowed K-only cache are not modelled; the "
          "estimate is a classic DFlash draft of its widths)",
          *hc);
    }
  }
  // BitNet b1.58 (bitnet.cpp load_arch_tensors): attn_sub_norm and
  // ffn_sub_norm, both required.
  a.sub_norms = arch == "bitnet";
  // OLMo-1 (olmo.cpp load_arch_tensors at 80fb11ac): no norm tensors at all;
  // nor Talkie (talkie.cpp: F.rms_norm without weights), whose normed
  // embeddings reach every layer's output (Architecture::embedding_skip).
  a.weightless_norms = arch == "olmo" || arch == "talkie";
  a.embedding_skip = arch == "talkie";

  // Sliding windows. phimoe: llama.cpp never reads the window its converter
  // writes (phimoe.cpp load_arch_hparams at 80fb11ac reads no
  // attention.sliding_window; conversion/phi.py Phi3MiniModel writes
  // config.json's, 131072 for Phi-3.5-MoE), so every layer caches the context.
  std::string window_note;
  if (const auto window = meta_int(f, key("attention.sliding_window"));
      window && *window > 0 && a.attention.kind == AttentionKind::Full && arch != "phimoe") {
    int pattern = known_swa_pattern(arch);
    if (const GgufValue* p = f.find(key("attention.sliding_window_pattern"))) {
      if (p->kind == GgufValue::Kind::Integer) {
        pattern = static_cast<int>(std::clamp<std::int64_t>(p->integer, 0, a.layers));
      } else if (p->kind == GgufValue::Kind::Array && !p->numbers.empty()) {
        // Per-layer flags (true = windowed): the global layers' spacing over
        // the trunk's layers (Step-3.5 lists its MTP blocks' flags after them).
        const auto trunk = p->numbers.begin() +
                           std::min<std::ptrdiff_t>(std::ssize(p->numbers), std::max(1, a.layers));
        const auto global = std::count(p->numbers.begin(), trunk, 0.0);
        pattern =
            global == 0
                ? 0
                : static_cast<int>(std::lround(static_cast<double>(trunk - p->numbers.begin()) /
                                               static_cast<double>(global)));
        // Step-3.5's first layer is global (conversion/step3.py: layer_types
        // full_attention where i % 4 == 0): 12 of 45, not 11; the spacing is
        // the second global layer's index (a reduced file's 6 layers have
        // globals 0 and 4: a count would say every third).
        a.attention.global_first = arch == "step35" && p->numbers.front() == 0.0;
        if (a.attention.global_first) {
          const auto second = std::find(p->numbers.begin() + 1, trunk, 0.0);
          if (second != trunk) {
            pattern = static_cast<int>(second - p->numbers.begin());
          }
        }
      }
    }
    if (pattern >= 0 && (a.max_context == 0 || *window < a.max_context)) {
      a.attention.kind = AttentionKind::Sliding;
      a.attention.sliding_window = *window;
      a.attention.sliding_pattern = pattern;
    } else if (pattern < 0) {
      window_note = fmt::format(
          "; the {}-token sliding window is ignored (no layer pattern known for '{}'): every "
          "layer is charged the full context",
          *window, arch);
    }
  }

  // MiMo-V2-Flash (llama.cpp src/models/mimo2.cpp at 80fb11ac;
  // conversion/mimo.py MimoV2Model.set_gguf_parameters): the per-layer
  // sliding_window_pattern flags are hybrid_layer_pattern's (1 = windowed),
  // the MTP blocks' after the trunk's; head_count_kv lists each layer's KV
  // heads (8 windowed, 4 global, read above as the widest); key_length is
  // Q's and K's head width (192), value_length V's (128); the attention
  // output is scaled (attention.value_scale, 0.707); the MoE layers are
  // those with a router (blk.N.ffn_gate_inp: layer 0 is dense, no key says
  // so); the 3 MTP blocks are windowed with a dense MLP and read the
  // trunk's output head (the converter writes no nextn.shared_head_head).
  if (arch == "mimo2" && a.attention.kind == AttentionKind::Sliding) {
    const GgufValue* kv = f.find(key("attention.head_count_kv"));
    if (std::string listed =
            listed_window_layers(f, key("attention.sliding_window_pattern"), a.layers);
        !listed.empty()) {
      for (int i = 0; i < a.layers; ++i) {
        const bool windowed = listed[static_cast<std::size_t>(i)] == 'S';
        if (!windowed && kv != nullptr && kv->kind == GgufValue::Kind::Array &&
            i < std::ssize(kv->numbers)) {
          const auto n = static_cast<int>(kv->numbers[static_cast<std::size_t>(i)]);
          if (n > 0 && n < a.kv_heads) {
            a.attention.global_kv_heads = n;
          }
        }
      }
      a.attention.window_layers = std::move(listed);
    }
    if (const auto v_len = meta_int(f, key("attention.value_length"));
        v_len && *v_len > 0 && *v_len < (1 << 16) && *v_len != a.head_dim) {
      a.attention.value_head_dim = static_cast<int>(*v_len);
    }
    if (const GgufValue* vs = f.find(key("attention.value_scale"));
        vs != nullptr && vs->kind == GgufValue::Kind::Float && vs->real != 0.0 && vs->real != 1.0) {
      a.attention.value_scale = true;
    }
    if (a.moe && !router_layers.empty()) {
      a.moe->first_dense_layers = std::clamp(*std::ranges::min_element(router_layers), 0, a.layers);
    }
    a.mtp_dense = a.mtp_layers > 0;
    a.mtp_shares_head = a.mtp_layers > 0;
    // Its windowed layers' attention sinks (attn_sinks) cost no memory, and
    // mimo2.cpp picks the rows to output inside the last layer, as llama.cpp's
    // plain graph does, not after it as gpt-oss's (Attention::sinks).
    a.attention.sinks = false;
  }

  // SmallThinker (llama.cpp src/models/smallthinker.cpp at 80fb11ac): a file
  // with a window (conversion/smallthinker.py writes one only when
  // sliding_window_layout marks a layer) gets llama.cpp's own: 4096 tokens,
  // layer 0 and every 4th after it global (set_swa_pattern(4, true)).
  // Its router reads the layer's input before the attention norm.
  if (arch == "smallthinker" && a.moe) {
    a.moe->router_reads_layer_input = true;
  }
  // ModernBERT (modern-bert.cpp load_arch_tensors and load_arch_hparams at
  // 80fb11ac): Q, K and V in one attn_qkv, gate and up in one ffn_up of
  // 2 x feed_forward_length (GEGLU, or SwiGLU when the file's hidden_act
  // says silu: the same shapes), no biases anywhere; the window's layers
  // follow set_swa_pattern(period, true): layer 0 and every period-th after
  // it global.
  if (arch == "modern-bert") {
    a.attention.fused_qkv = true;
    a.mlp_gated = true;
    a.fused_gate_up = true;
    if (a.attention.kind == AttentionKind::Sliding) {
      a.attention.global_first = true;
    }
  }
  // NeoBERT (neo-bert.cpp load_arch_tensors at 80fb11ac): Q, K and V in
  // one attn_qkv, gate and up in one ffn_up of 2 x feed_forward_length
  // (SwiGLU), no biases. Its RMS norms (one in layer 0 too, none on the
  // embeddings) in place of ModernBERT's LayerNorms move no buffer: the
  // replay is modern-bert.cpp's (checked live, docs/live-llamacpp.md).
  if (arch == "neo-bert") {
    a.attention.fused_qkv = true;
    a.mlp_gated = true;
    a.fused_gate_up = true;
  }
  if (arch == "smallthinker" && a.attention.kind == AttentionKind::Sliding) {
    a.attention.sliding_window = 4096;
    a.attention.sliding_pattern = 4;
    a.attention.global_first = true;
  }

  // Cohere2 MoE (llama.cpp src/models/cohere2moe.cpp load_arch_hparams at
  // 80fb11ac): attention.sliding_window_pattern is either per-layer flags
  // (what conversion/command_r.py writes from layer_types: North Mini Code's
  // layer 0 and every 4th after it global) or a period whose first layer is
  // global (set_swa_pattern(period, true)); expert_weights_norm defaults
  // false. A parallel block, its global layers after the dense lead without
  // RoPE (the graph; no weights of their own).
  if (arch == "cohere2moe") {
    if (a.attention.kind == AttentionKind::Sliding) {
      const std::string pattern = key("attention.sliding_window_pattern");
      const GgufValue* p = f.find(pattern);
      if (std::string listed = listed_window_layers(f, pattern, a.layers); !listed.empty()) {
        a.attention.window_layers = std::move(listed);
      } else if (p != nullptr && p->kind == GgufValue::Kind::Integer) {
        a.attention.global_first = true;
      }
    }
    if (a.moe) {
      const GgufValue* norm = f.find(key("expert_weights_norm"));
      a.moe->weights_normalized =
          norm != nullptr && norm->kind == GgufValue::Kind::Bool && norm->integer != 0;
    }
    a.attention.parallel_block = ParallelBlock::Cohere;
    a.attention.nope_global = true;
  }

  // Granite SWASH (llama.cpp src/models/granite-swa.cpp at 80fb11ac;
  // conversion/granite.py GraniteSWAModel, GraniteMoeSWAModel): the
  // per-layer sliding_window_pattern flags (from layer_types) name the
  // windowed layers; every layer has attention sinks, but the rows to output
  // are picked inside the last layer, as llama.cpp's plain graph does, not
  // after it as gpt-oss's (Attention::sinks). The MoE files' experts are
  // feed_forward_length wide (gate and up fused in ffn_gate_up_exps), the
  // shared expert expert_shared_feed_forward_length (gate and up fused in
  // ffn_up_shexp): the same weights as apart.
  // Mellum2 (mellum.cpp load_arch_hparams at 80fb11ac; conversion/mellum.py
  // MellumModel.set_gguf_parameters): the flags from layer_types name the
  // windowed layers one by one (a period is set_swa_pattern(period): every
  // period-th layer global, last in its group, as the generic reading has it).
  if (arch == "granite_swa" || arch == "mellum") {
    if (a.attention.kind == AttentionKind::Sliding) {
      if (std::string listed =
              listed_window_layers(f, key("attention.sliding_window_pattern"), a.layers);
          !listed.empty()) {
        a.attention.window_layers = std::move(listed);
      }
    }
    if (arch == "granite_swa") {
      a.attention.sinks = false;
    }
  }

  // Ling (bailingmoe.cpp load_arch_hparams at 80fb11ac): the experts'
  // weights are normalised only where the file says so (expert_weights_norm,
  // optional, default false). Its tensors give every layer experts whatever
  // leading_dense_block_count says (Ling-lite's is 0).
  // DeepSeek-OCR's decoder (deepseek2ocr.cpp load_arch_hparams at 80fb11ac)
  // likewise: expert_weights_norm optional, default false (its converter
  // writes it only where norm_topk_prob is true; DeepSeek-OCR's config has none).
  if ((arch == "bailingmoe" || arch == "deepseek2-ocr") && a.moe) {
    const GgufValue* norm = f.find(key("expert_weights_norm"));
    a.moe->weights_normalized =
        norm != nullptr && norm->kind == GgufValue::Kind::Bool && norm->integer != 0;
    if (arch == "bailingmoe") {
      a.moe->first_dense_layers = 0;
    }
  }

  // Snowflake Arctic (arctic.cpp load_arch_tensors at 80fb11ac): the experts
  // take feed_forward_length (conversion/arctic.py writes no expert width);
  // every layer's dense residual MLP is n_embd x n_embd beside them.
  if (arch == "arctic" && a.moe) {
    a.moe->expert_intermediate_size = a.intermediate_size;
    a.moe->residual_mlp = true;
    a.intermediate_size = a.hidden_size;
  }

  // AFMoE (Arcee Trinity; llama.cpp src/models/afmoe.cpp at 80fb11ac): every
  // layer gates its attention output by a projection of its own
  // (blk.N.attn_gate, n_embd x n_head head_dim; required by the loader).
  if (arch == "afmoe") {
    a.attention.output_gate = std::any_of(f.tensors.begin(), f.tensors.end(), [](const auto& t) {
      return t.name.starts_with("blk.") && t.name.ends_with(".attn_gate.weight");
    });
  }

  // Muse Glimmer (meta-models/Muse-Glimmer-30B; llama.cpp
  // src/models/muse-glimmer.cpp at 80fb11ac, conversion/muse_glimmer.py): a
  // dense trunk whose every layer gates its attention output by a projection
  // of its own (blk.N.attn_gate, n_embd x n_head head_dim, a sigmoid before
  // wo: afmoe's output gate, "same as afmoe" in its source), normalizes Q
  // and K per head, and windows the layers its sliding_window_pattern flags
  // list (the converter writes them from layer_types; without them
  // load_arch_hparams' swa_period 4), RoPE on the windowed layers only.
  if (arch == "muse-glimmer") {
    a.attention.output_gate = true;
    a.attention.nope_global = true;
    if (a.attention.kind == AttentionKind::Sliding) {
      if (std::string listed =
              listed_window_layers(f, key("attention.sliding_window_pattern"), a.layers);
          !listed.empty()) {
        a.attention.window_layers = std::move(listed);
      }
    }
  }

  // Laguna (llama.cpp src/models/laguna.cpp at 80fb11ac; conversion/laguna.py):
  // a window makes layer 0 and every swa_period-th after it full attention
  // (set_swa_pattern(swa_period, dense_first)); attention.head_count lists
  // each layer's query heads (XS.2: 48 full, 64 windowed, read above as the
  // widest); the output gate's width (blk.N.attn_gate, n_embd x width, a
  // softplus) is the layer's heads (per head) or heads x head_dim (per
  // element); the loader requires the router bias (exp_probs_b, read with
  // the experts).
  if (arch == "laguna") {
    Attention& at = a.attention;
    at.global_first = at.kind == AttentionKind::Sliding;
    const GgufValue* head_counts = f.find(key("attention.head_count"));
    const auto heads_of = [&](int layer) {
      if (head_counts != nullptr && head_counts->kind == GgufValue::Kind::Array &&
          layer < std::ssize(head_counts->numbers)) {
        return static_cast<std::int64_t>(head_counts->numbers[static_cast<std::size_t>(layer)]);
      }
      return std::int64_t{a.heads};
    };
    if (at.kind == AttentionKind::Sliding) {
      for (int i = 0; i < a.layers; ++i) {
        const auto n = static_cast<int>(heads_of(i));
        if (is_global_layer(a, i) && n > 0 && n != a.heads) {
          at.global_heads = n;
        }
      }
    }
    for (const GgufTensor& t : f.tensors) {
      if (!t.name.starts_with("blk.") || !t.name.ends_with(".attn_gate.weight") ||
          t.shape.size() < 2) {
        continue;
      }
      int layer = 0;
      std::from_chars(t.name.data() + 4, t.name.data() + t.name.size(), layer);
      const auto width = static_cast<std::int64_t>(t.shape[1]);
      at.head_gate = at.head_gate || width == heads_of(layer);
      at.output_gate = at.output_gate || width == heads_of(layer) * a.head_dim;
    }
    at.softplus_gate = at.head_gate || at.output_gate;
  }

  // Step-3.5 (llama.cpp src/models/step35.cpp at 80fb11ac;
  // conversion/step3.py Step35Model.set_gguf_parameters): attention.head_count
  // per layer, the windowed layers' heads (96 in Step-3.5-Flash, read above
  // as the widest) beside the global layers' (64); a sigmoid gate per head
  // on every layer (blk.N.attn_gate, n_embd x n_head); the MTP blocks
  // (nextn_predict_layers) windowed with a dense MLP and an output head each
  // (nextn.shared_head_head).
  // K-EXAONE (exaone-moe.cpp load_arch_tensors): the MTP block past n_layer
  // has the dense MLP of feed_forward_length and the trunk's output head.
  if (arch == "exaone-moe" && a.mtp_layers > 0) {
    a.mtp_dense = true;
    a.mtp_shares_head = true;
  }
  if (arch == "step35") {
    const GgufValue* head_counts = f.find(key("attention.head_count"));
    if (head_counts != nullptr && head_counts->kind == GgufValue::Kind::Array &&
        a.attention.kind == AttentionKind::Sliding) {
      for (int i = 0; i < a.layers && i < std::ssize(head_counts->numbers); ++i) {
        const auto n = static_cast<int>(head_counts->numbers[static_cast<std::size_t>(i)]);
        if (is_global_layer(a, i) && n > 0 && n != a.heads) {
          a.attention.global_heads = n;
        }
      }
    }
    a.attention.head_gate = std::any_of(f.tensors.begin(), f.tensors.end(), [](const auto& t) {
      return t.name.starts_with("blk.") && t.name.ends_with(".attn_gate.weight");
    });
    a.mtp_dense = a.mtp_layers > 0;
  }

  // DeepSeek-V4 (llama.cpp src/models/deepseek4.cpp load_arch_hparams at
  // 80fb11ac; conversion/deepseek.py DeepseekV4Model.set_gguf_parameters):
  // attention.compress_ratios, one per block (0, 4 or 128), on top of the
  // window every layer keeps; the query latent, the grouped output
  // projection, the indexer, the hyper-connections and the hash-routed
  // layers. The converter leaves the MTP block out of the model file.
  if (arch == "deepseek4" && a.attention.kind == AttentionKind::Sliding) {
    if (const GgufValue* r = f.find(key("attention.compress_ratios"));
        r != nullptr && r->kind == GgufValue::Kind::Array && std::ssize(r->numbers) >= a.layers) {
      Attention& at = a.attention;
      const auto clamp_key = [&](const char* k, std::int64_t hi) {
        return static_cast<int>(std::clamp<std::int64_t>(meta_int(f, key(k)).value_or(0), 0, hi));
      };
      for (int i = 0; i < a.layers; ++i) {
        const double ratio = r->numbers[static_cast<std::size_t>(i)];
        at.compress_layers += ratio == 4 ? 'C' : ratio == 128 ? 'H' : 'S';
      }
      at.q_lora_rank = clamp_key("attention.q_lora_rank", 1 << 20);
      at.o_groups = clamp_key("attention.output_group_count", 1 << 16);
      at.o_lora_rank = clamp_key("attention.output_lora_rank", 1 << 20);
      at.index_head_dim = clamp_key("attention.indexer.key_length", 1 << 16);
      at.index_heads = clamp_key("attention.indexer.head_count", 1 << 16);
      at.index_top_k = clamp_key("attention.indexer.top_k", 1 << 20);
      a.hyper_connections = clamp_key("hyper_connection.count", 64);
      a.hash_layers = clamp_key("hash_layer_count", a.layers);
    }
  }

  // Qwen4Exp (llama.cpp src/models/qwen4exp.cpp load_arch_hparams and
  // load_arch_tensors at 80fb11ac; conversion/qwen4exp.py): hyper_connection.
  // count streams mixed through a gate of rank hyper_connection.low_rank; QSA's
  // indexer (attention.indexer.*, one key head) on the full-attention layers,
  // its keys pooled in blocks of attention.compress_ratios (that layer's
  // entry); the n-gram table per_layer_token_embd of
  // embedding_length_per_layer_input values a row, read on the one layer
  // ple.layers names. Its rows are the tensor's (the converter pads the
  // table) or, without a tensor table, the head ranges'
  // (max(ple.head_offsets + ple.head_vocab_sizes), as load_arch_tensors).
  // An expert_feed_forward_length given per layer is read at its widest.
  if (arch == "qwen4exp" && a.attention.kind == AttentionKind::Hybrid) {
    const auto clamp_key = [&](const char* k, std::int64_t hi) {
      return static_cast<int>(std::clamp<std::int64_t>(meta_int(f, key(k)).value_or(0), 0, hi));
    };
    Attention& at = a.attention;
    // The key Gemma 3n names its per-layer inputs by is the n-gram table's
    // row width here: there are no per-layer inputs.
    a.per_layer_width = 0;
    a.per_layer_vocab = 0;
    a.hyper_connections = clamp_key("hyper_connection.count", 64);
    a.hc_low_rank = clamp_key("hyper_connection.low_rank", 1 << 16);
    at.index_head_dim = clamp_key("attention.indexer.key_length", 1 << 16);
    at.index_heads = clamp_key("attention.indexer.head_count", 1 << 10);
    at.index_top_k = clamp_key("attention.indexer.top_k", 1 << 24);
    if (const GgufValue* r = f.find(key("attention.compress_ratios"));
        r != nullptr && r->kind == GgufValue::Kind::Array) {
      for (const double ratio : r->numbers) {
        at.index_block =
            std::max(at.index_block, static_cast<int>(std::clamp(ratio, 0.0, 65536.0)));
      }
    } else {
      at.index_block = clamp_key("attention.compress_ratios", 1 << 16);
    }
    if (const GgufValue* ff = f.find(key("expert_feed_forward_length"));
        a.moe && ff != nullptr && ff->kind == GgufValue::Kind::Array && !ff->numbers.empty()) {
      a.moe->expert_intermediate_size = static_cast<std::int64_t>(
          std::clamp(*std::max_element(ff->numbers.begin(), ff->numbers.end()), 0.0, 1e9));
      // The shared expert's width in routed widths, now that they are known.
      if (const auto shared = meta_int(f, key("expert_shared_feed_forward_length"));
          shared && *shared > 0 && a.moe->expert_intermediate_size > 0) {
        a.moe->shared_experts = static_cast<int>(std::clamp<std::int64_t>(
            (*shared + a.moe->expert_intermediate_size / 2) / a.moe->expert_intermediate_size, 1,
            1 << 16));
      }
    }
    const GgufValue* ple = f.find(key("ple.layers"));
    const GgufValue* offsets = f.find(key("ple.head_offsets"));
    const GgufValue* sizes = f.find(key("ple.head_vocab_sizes"));
    const auto ngram = meta_int(f, key("ple.ngram_size"));
    const auto per_ngram = meta_int(f, key("ple.heads_per_ngram"));
    const auto width = meta_int(f, key("embedding_length_per_layer_input"));
    if (ple != nullptr && ple->kind == GgufValue::Kind::Array && ple->numbers.size() == 1 &&
        ple->numbers[0] >= 0 && ple->numbers[0] < a.layers && ngram && *ngram >= 2 &&
        *ngram <= 64 && per_ngram && *per_ngram > 0 && *per_ngram <= 1024 && width && *width > 0 &&
        *width < (1 << 20)) {
      a.ngram_layer = static_cast<int>(ple->numbers[0]);
      a.ngram_size = static_cast<int>(*ngram);
      a.ngram_heads = static_cast<int>((*ngram - 1) * *per_ngram);
      a.ngram_width = *width;
      a.ngram_conv = clamp_key("ple.conv_kernel", 64);
      if (offsets != nullptr && sizes != nullptr && offsets->kind == GgufValue::Kind::Array &&
          sizes->kind == GgufValue::Kind::Array) {
        for (std::size_t h = 0; h < offsets->numbers.size() && h < sizes->numbers.size(); ++h) {
          a.ngram_rows =
              std::max(a.ngram_rows, static_cast<std::int64_t>(std::clamp(
                                         offsets->numbers[h] + sizes->numbers[h], 0.0, 9e15)));
        }
      }
      for (const GgufTensor& t : f.tensors) {
        if (t.name == "per_layer_token_embd.weight" && t.shape.size() >= 2) {
          a.ngram_rows = static_cast<std::int64_t>(
              std::min<std::uint64_t>(t.shape[1], std::uint64_t{1} << 50));
        }
      }
    }
  }

  // Names and facts.
  const GgufValue* name = f.find("general.name");
  m.name = (name != nullptr && name->kind == GgufValue::Kind::String && !name->text.empty())
               ? name->text
               : std::string(file_name);
  m.id = std::string(file_name);
  const GgufValue* basename = f.find("general.basename");
  m.family = (basename != nullptr && basename->kind == GgufValue::Kind::String)
                 ? to_lower(basename->text)
                 : arch;
  m.source = FactSource::Gguf;
  m.params = f.params;
  m.active_params = f.params;
  if (m.is_moe() && expert_elements > 0) {
    const double unused = 1.0 - static_cast<double>(a.moe->experts_per_token) / a.moe->experts;
    m.active_params =
        f.params - static_cast<std::int64_t>(static_cast<double>(expert_elements) * unused);
    // GroveMoE: a token reads at most experts_per_token of the groups'
    // adjugate experts (count_params's rule)
    if (const int per = a.moe->experts_per_group; per > 0 && adjugate_elements > 0) {
      const double groups = static_cast<double>(a.moe->experts / per);
      const double read = std::min(static_cast<double>(a.moe->experts_per_token), groups) / groups;
      m.active_params -=
          static_cast<std::int64_t>(static_cast<double>(adjugate_elements) * (1.0 - read));
    }
  }
  m.file_weight_bytes = f.weight_bytes;
  m.weights_source = FactSource::Gguf;

  if (embedding != nullptr) {
    m.token_embd_type = std::string(ggml_type_name(embedding->type));
    m.token_embd_bytes = embedding->bytes;
  }
  // The quantisation mix, largest share first.
  std::map<std::uint32_t, Model::TypeBytes> mix;
  std::map<std::uint32_t, Model::TypeBytes> expert_types;
  std::map<std::uint32_t, Model::TypeBytes> batched_types;
  // DeepSeek-V4's attn_output_a is 2-D in the file, but the loader reshapes
  // it to [heads x head_dim / groups, o_lora_rank, groups] for a batched
  // product per group (deepseek4.cpp load_arch_tensors, TENSOR_ALLOW_RESHAPE),
  // so it is 3-D where the repack decides: the live Q4_K_M file's CPU_REPACK
  // left it out.
  const bool grouped_output = arch == "deepseek4" && m.arch.attention.o_groups > 1;
  std::map<std::uint32_t, Model::TypeBytes> narrow_types;
  std::map<std::uint32_t, Model::TypeBytes> plain_types;
  std::map<std::uint32_t, Model::TypeBytes> off8_types;
  std::map<std::uint32_t, Model::TypeBytes> off4_types;
  const auto lookup_table = [](std::string_view n) {  // read by get_rows (LLM_TENSOR_INFOS)
    return n == "position_embd.weight" || n == "token_types.weight" ||
           n == "per_layer_token_embd.weight" || n.ends_with(".nextn.embed_tokens.weight") ||
           n.ends_with("_compressor_ape.weight") || n.ends_with(".ffn_gate_tid2eid.weight") ||
           n.ends_with(".attn_rel_b.weight");
  };
  for (const auto& t : f.tensors) {
    // GroveMoE's adjugate experts (ffn_*_chexps) are expert tensors too,
    // read by mul_mat_id and repacked as the routed ones (the live Q4_K_M
    // file's CPU_REPACK held them)
    const bool expert =
        t.name.find("_exps") != std::string::npos || t.name.find("_chexps") != std::string::npos;
    const bool batched = !expert && ((t.shape.size() >= 3 && t.shape[2] > 1) ||
                                     (grouped_output && t.name.ends_with(".attn_output_a.weight")));
    // The output rows of the product that reads it (ne[1]; 1 for a vector).
    const std::uint64_t rows = t.shape.size() >= 2 ? t.shape[1] : 1;
    const bool lookup = &t != embedding && lookup_table(t.name);
    const bool narrow = !expert && !lookup && &t != embedding && rows % 32 != 0;
    // Every tensor is in mix; at most one of the parts says how it is read.
    std::map<std::uint32_t, Model::TypeBytes>* part = expert ? &expert_types
                                                      : lookup || (batched && narrow) ? &plain_types
                                                      : batched ? &batched_types
                                                      : narrow  ? &narrow_types
                                                                : nullptr;
    // Of the narrow and expert parts: rows CPU_REPACK's interleave does not fill.
    const bool repackable_part = part == &narrow_types || part == &expert_types;
    for (auto* table : {&mix, part, repackable_part && rows % 8 != 0 ? &off8_types : nullptr,
                        repackable_part && rows % 4 != 0 ? &off4_types : nullptr}) {
      if (table == nullptr) {
        continue;
      }
      auto& row = (*table)[t.type];
      row.type = std::string(ggml_type_name(t.type));
      row.bytes += t.bytes;
      row.tensors += 1;
      if (table == &batched_types) {
        const std::int64_t slices =
            t.shape.size() >= 3
                ? static_cast<std::int64_t>(std::min<std::uint64_t>(t.shape[2], 1U << 30))
                : m.arch.attention.o_groups;
        row.slice_bytes += t.bytes / std::max<std::int64_t>(1, slices);
      }
    }
  }
  for (auto& [id, row] : mix) {
    m.weight_mix.push_back(row);
  }
  for (auto& [id, row] : expert_types) {
    m.expert_mix.push_back(row);
  }
  for (auto& [id, row] : batched_types) {
    m.batched_mix.push_back(row);
  }
  for (auto& [id, row] : narrow_types) {
    m.narrow_mix.push_back(row);
  }
  for (auto& [id, row] : plain_types) {
    m.plain_mix.push_back(row);
  }
  for (auto& [id, row] : off8_types) {
    m.rows_off8_mix.push_back(row);
  }
  for (auto& [id, row] : off4_types) {
    m.rows_off4_mix.push_back(row);
  }
  std::stable_sort(m.weight_mix.begin(), m.weight_mix.end(),
                   [](const auto& x, const auto& y) { return x.bytes > y.bytes; });

  std::string file_type;
  if (const auto ft = meta_int(f, "general.file_type")) {
    if (*ft >= 0 && *ft < (1 << 16)) {
      file_type = std::string(gguf_file_type_name(static_cast<std::uint32_t>(*ft)));
    }
  }
  // GPT-2's layer (Architecture::gpt2_layer) by the architecture's name:
  // gpt2.cpp, starcoder.cpp, gptneox.cpp, bloom.cpp, mpt.cpp, codeshell.cpp,
  // and Falcon, Phi-2, StarCoder2 and the BERT encoders sized as it, each
  // with its ungated MLP. Not arcee, apertus, nemotron_h or t5's ReLU MLP,
  // whose q, k and v are llama's (create_tensor_qkv with no fused tensor in
  // the file, no biases).
  constexpr auto gpt2_layers = std::to_array<std::string_view>(
      {"gpt2", "starcoder", "gptneox", "bloom", "mpt", "codeshell", "falcon", "phi2", "starcoder2",
       "bert", "jina-bert-v3", "nomic-bert", "nomic-bert-moe"});
  a.gpt2_layer =
      !a.mlp_gated && std::find(gpt2_layers.begin(), gpt2_layers.end(), arch) != gpt2_layers.end();
  // Where the family builds it otherwise (Architecture::gpt2_separate_qkv and
  // what follows it), by the architecture and the tensors the file holds:
  // starcoder2.cpp, bert.cpp and phi2.cpp take attn_q, attn_k and attn_v
  // when the file has no attn_qkv (conversion/phi.py writes them apart; an
  // older Phi-2 file has attn_qkv); falcon.cpp creates no projection bias
  // and, without attn_norm_2 (Falcon-7B), one LayerNorm a layer; mpt.cpp's
  // biases are optional: MPT-7B's files have none.
  if (a.gpt2_layer) {
    const auto holds = [&f](std::string_view tensor) {
      return std::any_of(f.tensors.begin(), f.tensors.end(),
                         [tensor](const GgufTensor& t) { return t.name == tensor; });
    };
    a.gpt2_separate_qkv = (arch == "starcoder2" || arch == "bert" || arch == "phi2") &&
                          !holds("blk.0.attn_qkv.weight");
    // bert.cpp: the rows of position_embd (context_length of them, the
    // converter's) added to the token embeddings; no RoPE.
    if (arch == "bert") {
      a.learned_positions = std::clamp<std::int64_t>(meta_int(f, key("context_length")).value_or(0),
                                                     0, std::int64_t{1} << 31);
    }
    // phi2.cpp: attn_norm, no ffn_norm, feeding both sides of its parallel
    // block; output_b on the logits, required
    a.gpt2_one_norm = arch == "phi2";
    if (arch == "phi2") {
      a.attention.parallel_block = ParallelBlock::Phi2;
    }
    a.output_bias = a.output_bias || arch == "phi2";
    if (arch == "falcon") {
      a.attention.parallel_block = ParallelBlock::Falcon;  // falcon.cpp builds no other block
      a.gpt2_no_linear_bias = true;
      a.gpt2_one_norm = !f.tensors.empty() && !holds("blk.0.attn_norm_2.weight");
    }
    if (arch == "starcoder2") {
      a.gpt2_no_linear_bias = !f.tensors.empty() && !holds("blk.0.attn_output.bias");
    }
    if (arch == "mpt") {
      a.gpt2_no_linear_bias = !holds("blk.0.attn_qkv.bias");
      a.gpt2_no_norm_bias = !holds("blk.0.attn_norm.bias");
    }
  }
  if (!file_type.empty()) {
    const std::string id = to_lower(file_type == "MXFP4_MOE" ? "mxfp4" : file_type);
    if (parse_precision(id)) {
      m.precision_hint = id;
    }
  }
  if (m.precision_hint.empty()) {
    name_precision_from_tensors(m, f.params);
  }

  a.attention.no_kv_cache = is_cache_free_gguf_architecture(arch);
  // BitNet's logits read tok_embd where it lies (bitnet.cpp: no output
  // tensor, "do not use model.tok_embd directly"): no copy either.
  a.no_output_head = is_encoder_gguf_architecture(arch) || arch == "bitnet";
  a.attention.mla_cached_per_head = uses_mla(a) && caches_mla_per_head(arch);  // MiniCPM3, PLM
  // bert.cpp's block (jina-bert-v2 runs it too, with ALiBi: no positions;
  // jina-bert-v3 with RoPE from its fused attn_qkv, jina-bert-v3.cpp at
  // 80fb11ac using llama_model_bert::graph)
  a.attention.post_norm = arch == "bert" || arch == "nomic-bert" || arch == "nomic-bert-moe" ||
                          arch == "jina-bert-v2" || arch == "jina-bert-v3";
  // nomic-bert-moe.cpp: the chosen experts' weights as they are (norm_w false)
  // llada-moe.cpp: the same (build_moe_ffn with norm_w false, softmax gating)
  if ((arch == "nomic-bert-moe" || arch == "llada-moe") && a.moe) {
    a.moe->weights_normalized = false;
  }
  // ALiBi: no positions, no RoPE (jina-bert-v2; the decoders bloom, mpt,
  // jais and refact, whose loaders set or read f_max_alibi_bias). Baichuan
  // (baichuan.cpp load_arch_hparams at 80fb11ac): positions by depth, RoPE
  // for the 7B's 32 layers only; the 13B's 40 take ALiBi and any other
  // depth builds no positions at all, the same graph.
  a.attention.alibi = arch == "jina-bert-v2" || arch == "bloom" || arch == "mpt" ||
                      arch == "jais" || arch == "refact" || (arch == "baichuan" && a.layers != 32);
  // llama-embed.cpp: llama's graph without a cache read or logits, beside
  // the KV cache create_memory still makes for it
  a.attention.uncached_graph = arch == "llama-embed";
  // EmbeddingGemma's Dense projections, when the converter wrote them
  // (gemma-embedding.cpp reads these keys, each optional).
  a.dense_out = meta_int(f, arch + ".dense_2_feat_out").value_or(0);
  a.dense_in = meta_int(f, arch + ".dense_3_feat_in").value_or(0);
  if (a.dense_out < 0 || a.dense_out > (1 << 24) || a.dense_in < 0 || a.dense_in > (1 << 24)) {
    return make_error("malformed GGUF: implausible dense_2_feat_out or dense_3_feat_in");
  }
  // llama.cpp's converter writes pooling_type for embedding models (BERT and
  // kin, Qwen3-Embedding, EmbeddingGemma), and Ollama takes that key to mean
  // one (llm/llama_server.go at fb307609: isEmbedding).
  // The converter writes none for EuroBERT (no sentence-transformers
  // pooling module) nor for llama-embed-nemotron (conversion/llama.py
  // LlamaEmbedNemotronModel): those embed by their graph alone.
  m.embedding = f.find(arch + ".pooling_type") != nullptr || is_encoder_gguf_architecture(arch) ||
                arch == "llama-embed";
  // T5 (t5.cpp load_arch_hparams / load_arch_tensors at 80fb11ac;
  // conversion/t5.py): block_count is the encoder's, decoder_block_count the
  // decoder's (block_count when absent); the relative-position buckets mark
  // it. Its blocks are enc.blk.N and dec.blk.N, so the MLP's gate is looked
  // for there (the original T5's ReLU MLP has none). t5encoder is the
  // encoder alone, whose output is an embedding of its input (llama.cpp
  // gives it a KV cache all the same, which its graph never reads).
  if (arch == "t5" || arch == "t5encoder") {
    a.relative_buckets = static_cast<int>(std::clamp<std::int64_t>(
        meta_int(f, key("attention.relative_buckets_count")).value_or(32), 1, 1 << 16));
    if (arch == "t5") {
      a.decoder_layers = static_cast<int>(std::clamp<std::int64_t>(
          meta_int(f, key("decoder_block_count")).value_or(a.layers), 0, 100000));
      a.layers += a.decoder_layers;
    }
    a.mlp_gated = std::any_of(f.tensors.begin(), f.tensors.end(), [](const GgufTensor& t) {
      return t.name.ends_with(".ffn_gate.weight");
    });
    m.embedding = arch == "t5encoder";
  }
  // WavTokenizer's decoder (llama-model.cpp load_hparams's
  // LLM_ARCH_WAVTOKENIZER_DEC case at 80fb11ac; conversion/wavtokenizer.py):
  // features_length is the codebook's width, embedding_length the head's,
  // the PosNet's and ConvNeXt's blocks and widths under their own keys,
  // feed_forward_length the ConvNeXt's MLP, vocab_size the codebook (no
  // vocabulary: tokenizer model "none"). It embeds: its output is the head's
  // rows, no logits.
  if (arch == "wavtokenizer-dec") {
    VocoderShape v;
    v.codes = meta_int(f, key("vocab_size")).value_or(0);
    v.features = meta_int(f, key("features_length")).value_or(0);
    v.posnet_layers = static_cast<int>(
        std::clamp<std::int64_t>(meta_int(f, key("posnet.block_count")).value_or(0), 0, 1000));
    v.posnet_width = meta_int(f, key("posnet.embedding_length")).value_or(0);
    v.convnext_layers = static_cast<int>(
        std::clamp<std::int64_t>(meta_int(f, key("convnext.block_count")).value_or(0), 0, 1 << 20));
    v.convnext_width = meta_int(f, key("convnext.embedding_length")).value_or(0);
    v.ffn = meta_int(f, key("feed_forward_length")).value_or(0);
    v.out = *hidden;
    if (const std::string bad = set_vocoder(a, v); !bad.empty()) {
      return make_error("malformed GGUF: " + bad);
    }
    m.embedding = true;
  }
  if (!is_known_gguf_architecture(arch)) {
    m.unchecked_architecture = fmt::format("'{}' (GGUF general.architecture)", arch);
  }
  if (const auto gap = llama_cpp_gap(arch)) {
    m.llama_cpp_cannot_run = gap->why;
    m.ollama_engine_runs = gap->ollama_engine_runs;
  }
  if (!dspark_dsv4.empty()) {
    m.unchecked_architecture = dspark_dsv4;
  }
  m.notes.push_back(fmt::format(
      "architecture from the GGUF metadata ({}): {} layers, hidden {}, {}, vocabulary {}{}", arch,
      a.layers, a.hidden_size, attention_heads_text(a), a.vocab_size,
      a.tied_embeddings ? ", tied embeddings" : ""));
  m.notes.push_back(describe_shape(m) + window_note);
  if (const std::string draft = draft_note(a); !draft.empty()) {
    m.notes.push_back(draft);
  }
  std::string mix_text;
  for (const auto& row : m.weight_mix) {
    mix_text += fmt::format("{}{} {} ({} tensors)", mix_text.empty() ? "" : ", ", row.type,
                            format_size(row.bytes, units), row.tensors);
  }
  m.notes.push_back(fmt::format(
      "weights: {} exactly, from {} tensors ({} parameters, {:.3g} bits per weight{}): {}",
      format_size(f.weight_bytes, units), f.tensors.size(), f.params,
      f.params > 0 ? 8.0 * static_cast<double>(f.weight_bytes) / static_cast<double>(f.params)
                   : 0.0,
      file_type.empty() ? "" : ", file type " + file_type, mix_text));
  // Ollama's own engine packs a multimodal model's encoder into the model
  // file (gemma3, qwen2.5vl, mistral3, llama4: v.*, mm.* and a.* tensors
  // beside blk.*) and refuses a separate projector with it ("split vision
  // models aren't supported", ollama llm/server.go NewLlamaServer at
  // 5dbb81b7). Those tensors are weights of this file, loaded with it:
  // counted once, here, and no --text-only can leave them out.
  for (const auto& t : f.tensors) {
    if (t.name.rfind("v.", 0) == 0 || t.name.rfind("mm.", 0) == 0 || t.name.rfind("a.", 0) == 0) {
      m.embedded_encoder_bytes += t.bytes;
    }
  }
  if (m.embedded_encoder_bytes > 0) {
    m.notes.push_back(fmt::format(
        "the file holds its vision/audio encoder too ({} of v.*, mm.*, a.* tensors, as Ollama's "
        "engine packs it): counted in the weights, loaded with them",
        format_size(m.embedded_encoder_bytes, units)));
  }
  return m;
}

}  // namespace willfit
