// The inference estimate: what a model needs on a set of devices, term by
// term, and the verdict. One estimator serves every question (the plain
// verdict, max, which, grids, suggestions). Pure; no printing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "willfit/device.hpp"
#include "willfit/model.hpp"
#include "willfit/precision.hpp"
#include "willfit/units.hpp"

namespace willfit {

enum class FlashAttention { Auto, On, Off };
std::string_view to_string(FlashAttention fa);

struct InferenceQuery {
  Model model;
  Precision precision;
  DeviceSet devices;
  std::int64_t context = 4096;  // tokens per sequence
  int batch = 1;                // concurrent sequences
  KvType kv_type = kv_f16();
  FlashAttention flash_attention = FlashAttention::Auto;
  std::int64_t ubatch = 512;  // tokens processed per step during prompt processing
  std::optional<Bytes> ram;   // system memory available for offload, if known
  UsableOptions usable;
};

enum class Verdict { Fits, Offload, NoFit };
std::string_view to_string(Verdict v);

// Where a term's bytes live.
enum class Placement { Device, Host };

// One line of the breakdown with the arithmetic behind it (for --explain).
struct Term {
  std::string key;  // "weights", "kv_cache", ...
  Bytes bytes = 0;
  Placement placement = Placement::Device;
  std::string formula;  // "13 B params x 4.89 bits / 8 = 7.95 GB"
  std::string source;   // where the constant or formula comes from
};

struct MemoryBreakdown {
  Bytes weights = 0;
  Bytes kv_cache = 0;
  Bytes compute = 0;
  Bytes overhead = 0;
  Bytes margin = 0;
  [[nodiscard]] Bytes total() const { return weights + kv_cache + compute + overhead + margin; }
};

struct Estimate {
  Bytes model_weight_bytes = 0;  // every weight at the chosen precision (checkpoint size)
  MemoryBreakdown memory;
  std::vector<Term> terms;  // the same figures, with their arithmetic
  Bytes capacity = 0;       // sum of device capacities
  Bytes usable = 0;         // sum of usable memory
  std::vector<std::string> usable_reasons;
  Bytes required = 0;  // == memory.total()
  Bytes headroom = 0;  // usable - required (negative when short)
  Verdict verdict = Verdict::NoFit;
  bool device_known = true;     // false: no device given, only the need is reported
  std::int64_t kv_cells = 0;    // context cells actually allocated per sequence stream
  bool flash_attention = true;  // as resolved from Auto
  KvType kv_type_v = kv_f16();  // V cache type after fallbacks
  std::vector<std::string> warnings;
  [[nodiscard]] bool fits() const { return verdict == Verdict::Fits; }
};

Estimate estimate_inference(const InferenceQuery& query);

// Bytes of every weight at `precision` (what a checkpoint of it would hold).
Bytes weight_bytes(const Model& model, const Precision& precision);

// KV cache bytes for `cells` tokens per sequence over `sequences` sequences,
// honouring GQA, sliding windows, MLA latents and hybrid layers.
struct KvCacheQuery {
  std::int64_t context = 4096;
  int sequences = 1;
  std::int64_t ubatch = 512;
  KvType k_type = kv_f16();
  KvType v_type = kv_f16();
};
Bytes kv_cache_bytes(const Architecture& arch, const KvCacheQuery& q);

// llama.cpp pads the context to a multiple of 256 cells (since PR #17046).
std::int64_t pad_context(std::int64_t tokens);

}  // namespace willfit
