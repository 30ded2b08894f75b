// Reading safetensors headers.
//
// Format (huggingface/safetensors README): a little-endian uint64 N, then N
// bytes of JSON: {"__metadata__": {str: str}, "<tensor>": {"dtype": "BF16",
// "shape": [..], "data_offsets": [begin, end]}, ...}; the tensor data follows,
// offsets relative to its start. N is checked against the file's size before
// anything is read; the JSON's nesting is checked before it is parsed; each
// tensor's byte span must equal its shape times its dtype's width and lie
// inside the file. Parameters are the tensors' elements, except that the
// bookkeeping of quantised checkpoints is not a parameter (GPTQ/AWQ zeros,
// scales and group indexes; bitsandbytes absmax and quant maps; FP8 scales)
// and packed weights count what they pack: a GPTQ/AWQ "qweight" of int32
// holds eight 4-bit weights, a bitsandbytes uint8 weight two.
#include "willfit/models/safetensors.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "willfit/core/json_limits.hpp"
#include "willfit/core/units.hpp"
#include "willfit/models/model_size.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;

struct Dtype {
  const char* name;
  std::int64_t bits;
};

// safetensors dtypes and their widths (safetensors/src/tensor.rs Dtype).
constexpr std::array<Dtype, 21> kDtypes{{
    {"BOOL", 8},    {"U8", 8},   {"I8", 8},        {"F8_E5M2", 8}, {"F8_E4M3", 8}, {"F8_E8M0", 8},
    {"I16", 16},    {"U16", 16}, {"F16", 16},      {"BF16", 16},   {"I32", 32},    {"U32", 32},
    {"F32", 32},    {"F64", 64}, {"I64", 64},      {"U64", 64},    {"C64", 64},    {"F6_E2M3", 6},
    {"F6_E3M2", 6}, {"F4", 4},   {"F8_E4M3FN", 8},
}};

const Dtype* find_dtype(const std::string& name) {
  for (const auto& d : kDtypes) {
    if (name == d.name) {
      return &d;
    }
  }
  return nullptr;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool is_quant_bookkeeping(std::string_view name) {
  for (const char* suffix :
       {".qzeros", ".scales", ".g_idx", ".absmax", ".quant_map", ".nested_absmax",
        ".nested_quant_map", "weight_scale", "input_scale", "weight_scale_inv",
        ".quant_state.bitsandbytes__nf4", ".quant_state.bitsandbytes__fp4"}) {
    if (ends_with(name, suffix)) {
      return true;
    }
  }
  return false;
}

// The block index in "model.layers.12.mlp..." / "transformer.h.3..." or -1.
int block_index(std::string_view name) {
  for (const char* marker : {"layers.", "h.", "blocks.", "layer."}) {
    std::size_t at = 0;
    while ((at = name.find(marker, at)) != std::string_view::npos) {
      const bool boundary = at == 0 || name[at - 1] == '.';
      std::size_t p = at + std::strlen(marker);
      int value = 0;
      std::size_t digits = 0;
      while (p < name.size() && std::isdigit(static_cast<unsigned char>(name[p])) != 0 &&
             digits < 6) {
        value = value * 10 + (name[p] - '0');
        ++p;
        ++digits;
      }
      if (boundary && digits > 0 && p < name.size() && name[p] == '.') {
        return value;
      }
      at += 1;
    }
  }
  return -1;
}

}  // namespace

bool is_encoder_tensor(std::string_view name) {
  if (name.rfind("model.", 0) == 0) {
    name.remove_prefix(6);
  }
  for (const char* prefix : {"visual.", "vision_tower.", "vision_model.", "multi_modal_projector.",
                             "audio_tower.", "embed_vision.", "embed_audio."}) {
    if (name.rfind(prefix, 0) == 0) {
      return true;
    }
  }
  return false;
}

namespace {

bool is_embedding(std::string_view name) {
  for (const char* n :
       {"model.embed_tokens.weight", "embed_tokens.weight", "transformer.wte.weight", "wte.weight",
        "tok_embeddings.weight", "word_embeddings.weight", "transformer.word_embeddings.weight",
        "model.language_model.embed_tokens.weight", "language_model.model.embed_tokens.weight"}) {
    if (name == n || ends_with(name, std::string(".") + n)) {
      return true;
    }
  }
  return false;
}

}  // namespace

Expected<std::uint64_t> safetensors_header_size(std::string_view first8, std::uint64_t file_size) {
  if (first8.size() < 8 || file_size < 8) {
    return make_error("malformed safetensors: shorter than its 8-byte header length");
  }
  std::uint64_t n = 0;
  std::memcpy(&n, first8.data(), 8);  // little-endian, as are our hosts
  if (n < 2 || n > file_size - 8) {
    return make_error(
        fmt::format("malformed safetensors: header length {} does not fit in a file of {} bytes", n,
                    file_size));
  }
  if (n > kSafetensorsMaxHeader) {
    return make_error(
        fmt::format("malformed safetensors: header length {} is over the 100 MB limit", n));
  }
  return n + 8;
}

Expected<SafetensorsHeader> read_safetensors(std::string_view header, std::uint64_t file_size) {
  auto size = safetensors_header_size(header.substr(0, 8), file_size);
  if (!size) {
    return size.error();
  }
  if (header.size() < *size) {
    return make_error("malformed safetensors: the header is cut short");
  }
  const std::string_view text = header.substr(8, *size - 8);
  if (json_nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth) {
    return make_error("malformed safetensors: header JSON nested too deeply");
  }
  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const Json::parse_error& e) {
    return make_error(
        fmt::format("malformed safetensors: header is not valid JSON (at byte {})", e.byte + 8));
  } catch (const Json::exception&) {  // e.g. a number out of range (fuzz_safetensors)
    return make_error("malformed safetensors: header is not valid JSON (a value out of range)");
  }
  if (!doc.is_object()) {
    return make_error("malformed safetensors: header is not a JSON object");
  }
  const std::uint64_t data_size = file_size - *size;
  SafetensorsHeader h;
  bool bnb = false;
  for (const auto& [name, t] : doc.items()) {
    bnb = bnb || ends_with(name, ".absmax");
  }
  for (const auto& [name, t] : doc.items()) {
    if (name == "__metadata__") {
      continue;
    }
    const std::string where = fmt::format("malformed safetensors: tensor '{}'", name);
    if (!t.is_object()) {
      return make_error(where + " is not an object");
    }
    const auto dtype_it = t.find("dtype");
    const auto shape_it = t.find("shape");
    const auto offsets_it = t.find("data_offsets");
    if (dtype_it == t.end() || !dtype_it->is_string() || shape_it == t.end() ||
        !shape_it->is_array() || offsets_it == t.end() || !offsets_it->is_array() ||
        offsets_it->size() != 2) {
      return make_error(where + " needs 'dtype', 'shape' and two 'data_offsets'");
    }
    const std::string dtype_name = dtype_it->get<std::string>();
    const Dtype* dtype = find_dtype(dtype_name);
    if (dtype == nullptr) {
      return make_error(fmt::format("{} has unknown dtype '{}'", where, dtype_name));
    }
    if (shape_it->size() > 8) {
      return make_error(where + " has more than 8 dimensions");
    }
    // At least 4 bits per element, and at most 2^56 elements, so the byte
    // count below cannot overflow.
    const std::uint64_t max_elements = std::min<std::uint64_t>(
        std::min<std::uint64_t>(data_size, std::uint64_t{1} << 60) * 2 + 1, std::uint64_t{1} << 56);
    std::uint64_t elements = 1;
    std::vector<std::uint64_t> shape;
    for (const auto& d : *shape_it) {
      if (!d.is_number_unsigned() && !(d.is_number_integer() && d.get<std::int64_t>() >= 0)) {
        return make_error(where + " has a shape that is not a list of whole numbers");
      }
      const auto n = d.get<std::uint64_t>();
      if (n != 0 && elements > max_elements / n) {
        return make_error(where + " has a shape larger than the file");
      }
      elements *= n;
      shape.push_back(n);
    }
    const auto& o = *offsets_it;
    if (!o[0].is_number_unsigned() || !o[1].is_number_unsigned()) {
      return make_error(where + " has data_offsets that are not whole numbers");
    }
    const auto begin = o[0].get<std::uint64_t>();
    const auto end = o[1].get<std::uint64_t>();
    const std::uint64_t bytes = (elements * static_cast<std::uint64_t>(dtype->bits) + 7) / 8;
    if (begin > end || end > data_size) {
      return make_error(
          fmt::format("{} lies outside the file (bytes {} to {} of {}): is the "
                      "download complete?",
                      where, begin, end, data_size));
    }
    if (end - begin != bytes) {
      return make_error(fmt::format("{}: {} x {} needs {} bytes, data_offsets span {}", where,
                                    elements, dtype_name, bytes, end - begin));
    }
    h.tensors += 1;
    h.bytes += static_cast<std::int64_t>(bytes);
    h.bytes_by_dtype[dtype_name] += static_cast<std::int64_t>(bytes);
    h.tensors_by_dtype[dtype_name] += 1;
    auto params = static_cast<std::int64_t>(elements);
    if (is_quant_bookkeeping(name)) {
      params = 0;
    } else if (ends_with(name, ".qweight") && dtype->bits == 32) {
      params *= 8;
      h.quantized_packed = true;
    } else if (bnb && dtype_name == "U8" && ends_with(name, ".weight")) {
      params *= 2;
      h.quantized_packed = true;
    }
    h.params += params;
    const bool encoder = is_encoder_tensor(name);
    if (encoder) {
      h.encoder_params += params;
      h.encoder_bytes += static_cast<std::int64_t>(bytes);
    }
    if (name == "lm_head.weight" || ends_with(name, ".lm_head.weight") || name == "output.weight") {
      h.has_lm_head = true;
    }
    if (is_embedding(name) && shape.size() == 2) {
      h.has_embedding = true;
      h.embedding_rows = static_cast<std::int64_t>(shape[0]);
      h.embedding_cols = static_cast<std::int64_t>(shape[1]);
    }
    if (const int b = encoder ? -1 : block_index(name); b >= 0) {
      h.layers = std::max(h.layers, b + 1);
    }
  }
  return h;
}

void add_shard(SafetensorsHeader& total, const SafetensorsHeader& s) {
  total.tensors += s.tensors;
  total.params += s.params;
  total.bytes += s.bytes;
  for (const auto& [k, v] : s.bytes_by_dtype) {
    total.bytes_by_dtype[k] += v;
  }
  for (const auto& [k, v] : s.tensors_by_dtype) {
    total.tensors_by_dtype[k] += v;
  }
  total.has_lm_head = total.has_lm_head || s.has_lm_head;
  if (s.has_embedding) {
    total.has_embedding = true;
    total.embedding_rows = s.embedding_rows;
    total.embedding_cols = s.embedding_cols;
  }
  total.layers = std::max(total.layers, s.layers);
  total.quantized_packed = total.quantized_packed || s.quantized_packed;
  total.encoder_params += s.encoder_params;
  total.encoder_bytes += s.encoder_bytes;
}

Expected<SafetensorsIndex> read_safetensors_index(std::string_view text) {
  if (json_nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth) {
    return make_error("malformed safetensors index: JSON nested too deeply");
  }
  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const Json::parse_error& e) {
    return make_error(
        fmt::format("malformed safetensors index: not valid JSON (at byte {})", e.byte));
  } catch (const Json::exception&) {  // e.g. a number out of range (fuzz_safetensors)
    return make_error("malformed safetensors index: not valid JSON (a value out of range)");
  }
  const auto map = doc.is_object() ? doc.find("weight_map") : doc.end();
  if (!doc.is_object() || map == doc.end() || !map->is_object()) {
    return make_error("malformed safetensors index: no 'weight_map' object");
  }
  SafetensorsIndex index;
  std::set<std::string> shards;
  for (const auto& [tensor, file] : map->items()) {
    if (!file.is_string()) {
      return make_error(
          fmt::format("malformed safetensors index: shard of '{}' is not a file name", tensor));
    }
    const auto name = file.get<std::string>();
    if (name.empty() || name.find('/') != std::string::npos ||
        name.find('\\') != std::string::npos || name == "." || name == "..") {
      return make_error(
          fmt::format("malformed safetensors index: shard '{}' is not a plain file name", name));
    }
    shards.insert(name);
    index.tensors += 1;
    index.encoder_tensors += is_encoder_tensor(tensor) ? 1 : 0;
  }
  index.shards.assign(shards.begin(), shards.end());
  // The sample: the shards of the embedding, of the middle block and of lm_head.
  int last_block = -1;
  for (const auto& [tensor, file] : map->items()) {
    if (!is_encoder_tensor(tensor)) {
      last_block = std::max(last_block, block_index(tensor));
    }
  }
  std::set<std::string> sample;
  bool middle_seen = false;
  for (const auto& [tensor, file] : map->items()) {  // sorted by name: first of each class
    const bool middle = !middle_seen && last_block >= 0 && !is_encoder_tensor(tensor) &&
                        block_index(tensor) == last_block / 2;
    middle_seen = middle_seen || middle;
    if (middle || is_embedding(tensor) || tensor == "lm_head.weight" ||
        ends_with(tensor, ".lm_head.weight")) {
      sample.insert(file.get<std::string>());
    }
  }
  for (const auto& s : index.shards) {
    if (sample.count(s) != 0 && index.sample_shards.size() < 3) {
      index.sample_shards.push_back(s);
    }
  }
  if (const auto meta = doc.find("metadata"); meta != doc.end() && meta->is_object()) {
    if (const auto ts = meta->find("total_size"); ts != meta->end()) {
      if (ts->is_number_unsigned() || (ts->is_number_integer() && ts->get<std::int64_t>() >= 0)) {
        index.total_size = ts->get<std::int64_t>();
      } else if (ts->is_number_float() && ts->get<double>() >= 0 && ts->get<double>() < 1e18) {
        index.total_size = static_cast<std::int64_t>(ts->get<double>());
      }
    }
  }
  return index;
}

std::string safetensors_precision(const SafetensorsHeader& h) {
  std::string top;
  std::int64_t most = -1;
  for (const auto& [dtype, bytes] : h.bytes_by_dtype) {
    if (bytes > most) {
      most = bytes;
      top = dtype;
    }
  }
  if (top == "BF16") {
    return "bf16";
  }
  if (top == "F16") {
    return "fp16";
  }
  if (top == "F32") {
    return "fp32";
  }
  if (top.rfind("F8_", 0) == 0) {
    return "fp8";
  }
  return "";
}

}  // namespace willfit

namespace willfit {

Model model_from_safetensors(const SafetensorsHeader& h, std::string_view label,
                             const Model* config, UnitSystem units) {
  Model m;
  if (config != nullptr) {
    m = *config;
    if (!h.quantized_packed && h.params > 0) {
      m.params = h.params;
      // Keep the architecture's active share for MoE models.
      const ParamBreakdown p = count_params(m.arch);
      m.active_params = p.total() > 0 ? static_cast<std::int64_t>(static_cast<double>(h.params) *
                                                                  static_cast<double>(p.active()) /
                                                                  static_cast<double>(p.total()))
                                      : h.params;
      if (!m.notes.empty() && m.notes.back().rfind("parameters counted", 0) == 0) {
        m.notes.pop_back();
      }
    }
  } else {
    SizeSpec size;
    size.text = std::string(label);
    size.params =
        static_cast<double>(std::max<std::int64_t>(h.params - h.encoder_params, 1'000'000));
    m = *model_from_size(size);
    Architecture& a = m.arch;
    if (h.has_embedding) {
      a.vocab_size = h.embedding_rows;
      a.hidden_size = h.embedding_cols;
      a.heads = std::max(1, static_cast<int>(a.hidden_size / std::max(1, a.head_dim)));
      a.kv_heads = std::clamp(a.kv_heads, 1, a.heads);
    }
    if (h.layers > 0) {
      a.layers = h.layers;
    }
    a.tied_embeddings = !h.has_lm_head;
    m.name = std::string(label);
    m.id = std::string(label);
    m.params = h.params;
    m.active_params = h.params;
    m.source = FactSource::Safetensors;
    m.notes.clear();
    m.notes.push_back(fmt::format(
        "no config.json: {} layers, hidden {} and vocabulary {} read from the tensors; {} heads, "
        "{} KV heads and head dim {} assumed (put config.json next to the weights for the real "
        "ones)",
        a.layers, a.hidden_size, a.vocab_size, a.heads, a.kv_heads, a.head_dim));
  }
  m.file_weight_bytes = h.bytes;
  // A multimodal checkpoint's encoder is the projector term, with its exact
  // parameter count (projector_bytes gives them the checkpoint's 16 bits),
  // and the weights are the rest: the tower is counted once, and --text-only
  // leaves it out, as loading the language model alone does
  // (transformers' *ForCausalLM of a multimodal checkpoint).
  if (h.encoder_params > 0 && h.encoder_bytes < h.bytes) {
    m.arch.vision_params = h.encoder_params;
    m.file_weight_bytes = h.bytes - h.encoder_bytes;
    m.notes.push_back(fmt::format(
        "vision/audio encoder: {} parameters ({}) in the checkpoint's encoder and projector "
        "tensors, counted as the projector term, not the weights",
        h.encoder_params, format_size(h.encoder_bytes, units)));
  }
  m.weights_source = FactSource::Safetensors;
  m.weight_mix.clear();
  std::string mix;
  for (const auto& [dtype, bytes] : h.bytes_by_dtype) {
    const auto tensors = h.tensors_by_dtype.count(dtype) ? h.tensors_by_dtype.at(dtype) : 0;
    m.weight_mix.push_back({dtype, bytes, tensors});
  }
  std::stable_sort(m.weight_mix.begin(), m.weight_mix.end(),
                   [](const auto& x, const auto& y) { return x.bytes > y.bytes; });
  for (const auto& row : m.weight_mix) {
    mix += fmt::format("{}{} {} ({} tensors)", mix.empty() ? "" : ", ", row.type,
                       format_size(row.bytes, units), row.tensors);
  }
  if (m.precision_hint.empty()) {
    m.precision_hint = safetensors_precision(h);
  }
  m.notes.push_back(
      fmt::format("weights: {} exactly, from {} safetensors tensors ({} parameters{}): {}",
                  format_size(h.bytes, units), h.tensors, h.params,
                  h.quantized_packed ? ", packed quantised weights unpacked" : "", mix));
  return m;
}

}  // namespace willfit
