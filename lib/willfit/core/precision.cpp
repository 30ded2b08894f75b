#include "willfit/core/precision.hpp"

#include <array>
#include <vector>

#include <fmt/format.h>

#include "willfit/core/text.hpp"

namespace willfit {
namespace {

// Sources for the figures below.
constexpr const char* kGgml =
    "ggml block layouts (bytes per block / weights per block), as tabulated in "
    "gguf-parser-go ggml.go and llama-quantize's help";
constexpr const char* kQuantTable =
    "whole-file bits per weight measured on Llama-3.1-8B, llama.cpp tools/quantize/README.md";
constexpr const char* kQuantDerived =
    "derived from llama.cpp quantize.cpp sizes for Llama-3-8B, scaled by the Q4_K_M ratio";
constexpr const char* kBnb =
    "bitsandbytes NF4: 4-bit codes plus one fp32 absmax per block of 64 weights "
    "(bnb_4bit_use_double_quant=False, the transformers default)";
constexpr const char* kGptq =
    "4-bit weights, group size 128, one fp16 scale and one packed 4-bit zero point per group "
    "(AutoGPTQ / AutoAWQ defaults)";

Precision make(std::string id, std::string name, double bits, double block, PrecisionKind kind,
               WeightScope scope, bool gguf, std::string note, std::string source) {
  return Precision{std::move(id),   std::move(name),   bits, block, kind, scope, gguf,
                   std::move(note), std::move(source), ""};
}

Precision block(std::string id, std::string name, double bits) {
  return make(std::move(id), std::move(name), bits, bits, PrecisionKind::GgufBlock,
              WeightScope::All, true,
              fmt::format("GGUF block type: exactly {:g} bits per weight", bits), kGgml);
}

Precision mix(std::string id, std::string name, double bits, double block_bits,
              bool derived = false) {
  return make(std::move(id), std::move(name), bits, block_bits, PrecisionKind::GgufMix,
              WeightScope::All, true,
              fmt::format("GGUF mix: about {:.2f} bits per weight over a whole file (some "
                          "tensors kept at higher precision)",
                          bits),
              derived ? kQuantDerived : kQuantTable);
}

// MLX's affine quantisation (mlx.core.quantize, and the GGUF blocks
// mlx.core.load keeps): each group of `group` weights carries a 16-bit scale
// and a 16-bit bias beside its `bits`-bit values.
double affine_bits(double bits, double group) {
  return bits + 2 * 16.0 / group;
}

// `p` held at `bits` per weight, as MLX holds it, with what that means.
Precision held_at(const Precision& p, double bits, std::string note) {
  Precision m = p;
  m.bits_per_weight = bits;
  m.block_bits = bits;
  m.note = std::move(note);
  return m;
}

}  // namespace

Precision mlx_affine(const Precision& p) {
  if (p.id == "awq" || p.id == "gptq") {
    // mlx_lm's load_model converts a 4-bit AutoAWQ/GPTQ checkpoint on load
    // (_transform_awq_weights): each group of `group_size` (128 by default)
    // gets a scale and a bias (-zero x scale) in the checkpoint's 16-bit
    // dtype, where the file held a 4-bit zero point: 4 + 2 x 16 / 128 bits.
    // Only the layers the file quantised (linear layers) are; the
    // embeddings and output head stay 16-bit.
    const double bits = affine_bits(4, 128);
    Precision m = held_at(
        p, bits,
        fmt::format("{} under MLX: mlx_lm converts the 4-bit weights on load to its affine "
                    "format, a 16-bit scale and bias per group of 128, so {:g} bits per weight "
                    "on linear layers; a checkpoint with g_idx (GPTQ act-order) it refuses",
                    p.name, bits));
    m.source =
        "ml-explore/mlx-lm mlx_lm/utils.py at d78bf58e (load_model: quant_method awq and gptq "
        "through _transform_awq_weights, bits 4 only, group_size 128 by default, g_idx refused)";
    return m;
  }
  if (p.kind != PrecisionKind::Integer || (p.id != "int4" && p.id != "int8")) {
    return p;
  }
  // mlx.core.quantize: affine default group_size 64, scale and bias "same
  // as input" (fp16 / bf16).
  const double bits = affine_bits(p.bits_per_weight, 64);
  Precision m = held_at(
      p, bits,
      fmt::format("MLX {:g}-bit (affine): groups of 64 weights, each with a 16-bit scale and "
                  "bias, so {:g} bits per weight, embeddings and output head included (mlx_lm "
                  "quantises them too)",
                  p.bits_per_weight, bits));
  m.source =
      "MLX documentation, mlx.core.quantize (affine: group size 64 and 4 bits by default, scale "
      "and bias in the input's dtype); mlx_lm.convert quantises every Linear and Embedding";
  return m;
}

Precision mlx_from_gguf(const Precision& p) {
  if (!p.gguf || p.id == "f32" || p.id == "f16") {
    return p;
  }
  Precision m = p;
  m.gguf = false;
  m.source =
      "ml-explore/mlx mlx/io/gguf.cpp at 846d1762 (load_arrays: Q4_0, Q4_1 and Q8_0 through "
      "gguf_load_quantized; extract_tensor_data: other types 'we convert to float16') and "
      "mlx/io/gguf_quants.cpp (a 16-bit scale and bias per 32-weight block)";
  if (p.id == "q4_0" || p.id == "q4_1" || p.id == "q8_0") {
    const double bits = affine_bits(p.id == "q8_0" ? 8.0 : 4.0, 32);
    m.id = "mlx-" + p.id;  // no llama.cpp recipe: sized flat at `bits`
    m.name = fmt::format("{} as MLX {}-bit", p.name, p.id == "q8_0" ? 8 : 4);
    m.kind = PrecisionKind::Integer;
    m.bits_per_weight = bits;
    m.block_bits = bits;
    m.note = fmt::format(
        "{} under MLX: mlx.core.load keeps Q4_0, Q4_1 and Q8_0 quantised as its own affine "
        "format, a 16-bit scale and bias per 32 weights ({:g} bits per weight); the file's "
        "other types (llama.cpp's recipe puts the output head at Q6_K) it casts to F16",
        p.name, bits);
    return m;
  }
  m.id = "f16";
  m.name = fmt::format("{} cast to F16", p.name);
  m.kind = PrecisionKind::Float;
  m.scope = WeightScope::All;
  m.bits_per_weight = 16;
  m.block_bits = 0;
  m.note = fmt::format(
      "{} under MLX: mlx.core.load keeps only Q4_0, Q4_1 and Q8_0 quantised and casts every "
      "other GGUF type (the K-quants, IQ types, MXFP4) to F16, so the weights count at 16 bits; "
      "mlx_lm itself loads safetensors, not GGUF: for a 4-bit MLX model give -p int4",
      p.name);
  return m;
}

std::string bits_per_weight_text(const Precision& precision) {
  return precision.kind == PrecisionKind::GgufMix
             ? fmt::format("about {:.1f}", precision.bits_per_weight)
             : fmt::format("{:.3g}", precision.bits_per_weight);
}

namespace {

const std::vector<Precision>& table() {
  static const std::vector<Precision> t = [] {
    std::vector<Precision> v;
    const auto all = WeightScope::All;
    v.push_back(make("fp32", "FP32", 32, 0, PrecisionKind::Float, all, false,
                     "32-bit float: 4 bytes per weight", "IEEE 754 binary32"));
    v.push_back(make("fp16", "FP16", 16, 0, PrecisionKind::Float, all, false,
                     "16-bit float: 2 bytes per weight", "IEEE 754 binary16"));
    v.push_back(make("bf16", "BF16", 16, 0, PrecisionKind::Float, all, false,
                     "bfloat16: 2 bytes per weight", "bfloat16 format"));
    v.push_back(make("fp8", "FP8", 8, 0, PrecisionKind::Float, WeightScope::LinearOnly, false,
                     "8-bit float for linear layers; embeddings and output head stay 16-bit, as "
                     "FP8 checkpoints ship them",
                     "FP8 E4M3 checkpoints (llm-compressor / vLLM keep lm_head unquantised)"));
    v.push_back(make("int8", "INT8", 8, 0, PrecisionKind::Integer, all, false,
                     "8-bit integers: 1 byte per weight (idealised, scales ignored)",
                     "course arithmetic: 8 bits = 1 byte"));
    v.push_back(make("int4", "INT4", 4, 0, PrecisionKind::Integer, all, false,
                     "4-bit integers: 0.5 bytes per weight (idealised, scales ignored)",
                     "course arithmetic: 4 bits = 0.5 bytes"));
    v.push_back(block("f32", "F32", 32));
    v.push_back(block("f16", "F16", 16));
    v.push_back(block("q8_0", "Q8_0", 8.5));
    v.push_back(block("q6_k", "Q6_K", 6.5625));
    v.push_back(block("q5_1", "Q5_1", 6.0));
    v.push_back(mix("q5_k_m", "Q5_K_M", 5.7036, 5.5));
    v.push_back(mix("q5_k_s", "Q5_K_S", 5.5704, 5.5));
    v.push_back(block("q5_0", "Q5_0", 5.5));
    v.push_back(block("q4_1", "Q4_1", 5.0));
    v.push_back(mix("q4_k_m", "Q4_K_M", 4.8944, 4.5));
    v.push_back(mix("q4_k_s", "Q4_K_S", 4.6672, 4.5));
    v.push_back(block("q4_0", "Q4_0", 4.5));
    v.push_back(block("iq4_nl", "IQ4_NL", 4.5));
    v.push_back(block("iq4_xs", "IQ4_XS", 4.25));
    v.push_back(block("mxfp4", "MXFP4", 4.25));
    v.push_back(mix("q3_k_l", "Q3_K_L", 4.2979, 3.4375));
    v.push_back(mix("q3_k_m", "Q3_K_M", 4.00, 3.4375, true));
    v.push_back(mix("iq3_m", "IQ3_M", 3.7628, 3.4375));
    v.push_back(mix("q3_k_s", "Q3_K_S", 3.6429, 3.4375));
    v.push_back(mix("iq3_xs", "IQ3_XS", 3.4977, 3.0625));
    v.push_back(block("iq3_s", "IQ3_S", 3.4375));
    v.push_back(mix("q2_k", "Q2_K", 3.1593, 2.625));
    v.push_back(block("iq3_xxs", "IQ3_XXS", 3.0625));
    v.push_back(mix("q2_k_s", "Q2_K_S", 2.9697, 2.625));
    v.push_back(mix("iq2_m", "IQ2_M", 2.9294, 2.5625));
    v.push_back(block("iq2_s", "IQ2_S", 2.5625));
    v.push_back(block("iq2_xs", "IQ2_XS", 2.3125));
    v.push_back(block("iq2_xxs", "IQ2_XXS", 2.0625));
    v.push_back(block("tq2_0", "TQ2_0", 2.0625));
    v.push_back(block("iq1_m", "IQ1_M", 1.75));
    v.push_back(block("tq1_0", "TQ1_0", 1.6875));
    v.push_back(block("iq1_s", "IQ1_S", 1.5625));
    v.push_back(make("nf4", "NF4", 4.5, 4.5, PrecisionKind::GroupQuant, WeightScope::LinearOnly,
                     false,
                     "bitsandbytes NF4 on linear layers (4.5 bits with scales); embeddings "
                     "and output head stay 16-bit",
                     kBnb));
    v.push_back(
        make("gptq-int8", "GPTQ 8-bit", 8.1875, 8.1875, PrecisionKind::GroupQuant,
             WeightScope::LinearOnly, false,
             "GPTQ 8-bit, group 128, on linear layers; embeddings and output head stay "
             "16-bit",
             "8-bit weights, group size 128, one fp16 scale and one packed 8-bit zero point "
             "per group (AutoGPTQ defaults)"));
    v.push_back(make("gptq", "GPTQ 4-bit", 4.15625, 4.15625, PrecisionKind::GroupQuant,
                     WeightScope::LinearOnly, false,
                     "GPTQ 4-bit, group 128, on linear layers; embeddings and output head stay "
                     "16-bit",
                     kGptq));
    v.push_back(make("awq", "AWQ 4-bit", 4.15625, 4.15625, PrecisionKind::GroupQuant,
                     WeightScope::LinearOnly, false,
                     "AWQ 4-bit, group 128, on linear layers; embeddings and output head stay "
                     "16-bit",
                     kGptq));
    return v;
  }();
  return t;
}

struct Shorthand {
  std::string_view alias;
  std::string_view target;
};

// Shorthands map to the file people most often download at that width.
constexpr std::array<Shorthand, 13> kShorthands{{
    {"q8", "q8_0"},
    {"q6", "q6_k"},
    {"q5", "q5_k_m"},
    {"q4", "q4_k_m"},
    {"q3", "q3_k_m"},
    {"q2", "q2_k"},
    {"float32", "fp32"},
    {"float16", "fp16"},
    {"half", "fp16"},
    {"bfloat16", "bf16"},
    {"8bit", "int8"},
    {"4bit", "int4"},
    {"gptq-int4", "gptq"},
}};

const std::vector<KvType>& kv_table() {
  static const std::vector<KvType> t{
      {"f16", 2, 1},    {"bf16", 2, 1},   {"f32", 4, 1},    {"q8_0", 34, 32},   {"q5_1", 24, 32},
      {"q5_0", 22, 32}, {"q4_1", 20, 32}, {"q4_0", 18, 32}, {"iq4_nl", 18, 32},
  };
  return t;
}

}  // namespace

Expected<Precision> parse_precision(std::string_view text) {
  const std::string original = trim(text);
  std::string key = to_lower(original);
  for (char& c : key) {
    if (c == '-' && key.find("gptq") == std::string::npos) {
      c = '_';
    }
  }
  if (key.empty()) {
    return make_error("precision is empty: try fp16, q8_0, q4_k_m, q4 or 4.5bpw");
  }
  // "4.5bpw": an explicit bit width.
  if (key.size() > 3 && key.ends_with("bpw")) {
    double bits = 0;
    if (!parse_decimal(std::string_view(key).substr(0, key.size() - 3), bits) || bits < 1.0 ||
        bits > 32.0) {
      return make_error("invalid precision '" + original +
                        "': bits per weight must be between 1 and 32, e.g. '4.5bpw'");
    }
    return make(fmt::format("{:g}bpw", bits), fmt::format("{:g} bpw", bits), bits, 0,
                PrecisionKind::Explicit, WeightScope::All, false,
                fmt::format("{:g} bits per weight, as given", bits), "given on the command line");
  }
  std::string requested;
  for (const auto& s : kShorthands) {
    if (key == s.alias) {
      requested = original;
      key = std::string(s.target);
    }
  }
  for (const auto& p : table()) {
    if (p.id == key) {
      Precision out = p;
      out.requested = requested;
      return out;
    }
  }
  std::vector<std::string> names;
  for (const auto& p : table()) {
    names.push_back(p.id);
  }
  for (const auto& s : kShorthands) {
    names.emplace_back(s.alias);
  }
  const std::string hint = did_you_mean(closest(key, names));
  return make_error("unknown precision '" + original + "'" +
                    (hint.empty() ? ": see 'willfit --help' for the list" : ": " + hint));
}

std::span<const Precision> all_precisions() {
  return table();
}

Expected<KvType> parse_kv_type(std::string_view text) {
  const std::string original = trim(text);
  std::string key = to_lower(original);
  if (key == "fp16") {
    key = "f16";
  } else if (key == "fp32") {
    key = "f32";
  } else if (key == "q8") {
    key = "q8_0";
  } else if (key == "q4") {
    key = "q4_0";
  }
  for (const auto& k : kv_table()) {
    if (k.id == key) {
      return k;
    }
  }
  std::vector<std::string> names;
  std::string listed;
  for (const auto& k : kv_table()) {
    names.push_back(k.id);
    listed += (listed.empty() ? "" : ", ") + k.id;
  }
  std::vector<std::string> near = closest(key, names);
  // A legacy type mistyped ("q3", "q6_0"): the _0 type of the nearest bits,
  // not the nearest spelling (that answered 'f32' for "q3").
  if (key.size() >= 2 && key[0] == 'q' && key[1] >= '0' && key[1] <= '9') {
    int best = 10;
    for (const auto& k : kv_table()) {
      if (k.id.size() == 4 && k.id[0] == 'q' && k.id.ends_with("_0")) {
        const int diff = (k.id[1] - '0') - (key[1] - '0');
        const int d = diff < 0 ? -diff : diff;
        if (d < best) {
          best = d;
          near = {k.id};
        }
      }
    }
  }
  // An 8- or 4-bit cache named as other programs name theirs (vLLM's
  // --kv-cache-dtype fp8, "int8"): by spelling the nearest would be f16 or
  // none; by width it is ggml's q8_0 or q4_0. vLLM's fp8 cache exists
  // (vLLM docs, features/quantization/quantized_kvcache) but is not modelled.
  const bool fp8 = key.starts_with("fp8") || key == "e4m3" || key == "e5m2";
  const bool eight = fp8 || key == "int8" || key == "i8" || key == "8bit" || key == "8-bit";
  const bool four = key == "int4" || key == "i4" || key == "4bit" || key == "4-bit" ||
                    key == "fp4" || key == "nf4";
  if (eight || four) {
    return make_error(fmt::format(
        "unknown KV cache type '{}': llama.cpp's {}-bit cache is {} (--kv-type {}){}. KV cache "
        "types: {}",
        original, eight ? 8 : 4, eight ? "q8_0" : "q4_0", eight ? "q8_0" : "q4_0",
        fp8 ? "; vLLM's fp8 cache (its --kv-cache-dtype fp8) is not modelled" : "", listed));
  }
  const std::string hint = did_you_mean(near);
  return make_error("unknown KV cache type '" + original +
                    "': " + (hint.empty() ? "" : hint + " ") + "KV cache types: " + listed);
}

std::span<const KvType> all_kv_types() {
  return kv_table();
}

KvType kv_f16() {
  return kv_table().front();
}

}  // namespace willfit
