// Weight precisions (fp16, int4, GGUF types, NF4, GPTQ/AWQ, "4.5bpw") and KV
// cache types: names, bits per weight and where each figure comes from.
// Pure lookup tables; nothing here knows about models or devices.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "willfit/core/expected.hpp"

namespace willfit {

enum class PrecisionKind {
  Float,       // fp32 / fp16 / bf16 / fp8: every weight at that width
  Integer,     // int8 / int4: the idealised course arithmetic, every weight at that width
  GgufBlock,   // a single GGUF block type: exact bits per weight from its block layout
  GgufMix,     // a GGUF quantisation recipe (Q4_K_M...): whole-file bits measured on real files
  GroupQuant,  // nf4, gptq, awq: linear layers quantised with group scales, the rest 16-bit
  Explicit,    // "4.5bpw"
};

// Which weights the precision applies to. Group-quantised formats (and FP8
// checkpoints) leave the token embeddings and the output head at 16 bits.
enum class WeightScope { All, LinearOnly };

struct Precision {
  std::string id;               // canonical lowercase id: "q4_k_m", "fp16", "4.5bpw"
  std::string name;             // display: "Q4_K_M", "FP16"
  double bits_per_weight = 16;  // what an estimate without a file uses
  double block_bits = 0;        // exact block bits where the type is a block layout (else 0)
  PrecisionKind kind = PrecisionKind::Float;
  WeightScope scope = WeightScope::All;
  bool gguf = false;      // a llama.cpp / GGUF type (selects the llama.cpp runtime by default)
  std::string note;       // one line for the user, e.g. where the figure comes from
  std::string source;     // citation
  std::string requested;  // what the user typed when it was a shorthand ("q4"), else ""
};

// Parses a precision name, case-insensitively: fp16, bf16, q4_k_m, Q4_K_M, q4
// (shorthand for Q4_K_M, noted in `requested`), nf4, gptq, awq, "4.5bpw".
// Unknown names get "did you mean ...?".
Expected<Precision> parse_precision(std::string_view text);

// INT4 or INT8 as MLX stores them (mlx.core.quantize, mode "affine", the
// defaults mlx_lm.convert uses: groups of 64 weights along a row, each with
// a scale and a bias in the model's 16-bit dtype): bits + 2 x 16 / 64, so
// 4.5 and 8.5 bits per weight, on every linear layer and the embeddings and
// output head (mlx_lm quantises nn.Embedding too). AWQ and GPTQ 4-bit as
// mlx_lm converts them on load: a 16-bit scale and bias per group of 128,
// 4.25 bits on linear layers. Other precisions as they are.
Precision mlx_affine(const Precision& precision);

// A GGUF precision as MLX holds it when mlx.core.load reads the file
// (ml-explore/mlx mlx/io/gguf.cpp at 846d1762): Q4_0, Q4_1 and Q8_0 become
// its affine format with a 16-bit scale and bias per 32-weight block (5, 5
// and 9 bits per weight), F32 and F16 stay, every other type (K-quants, IQ,
// MXFP4, BF16) is cast to F16. Other precisions as they are.
Precision mlx_from_gguf(const Precision& precision);

// Bits per weight for a sentence ("... (X bits per weight)"). A GGUF mix is an
// average over a whole file, so it reads "about 4.0": one decimal, never a
// bare "4" that looks like a 4-bit block type. Exact widths print with up to
// three significant digits ("8.5", "6.56", "16").
std::string bits_per_weight_text(const Precision& precision);

// Every named precision, highest bits first (for listings, completions and
// "--precision best").
std::span<const Precision> all_precisions();

// KV cache element types. A quantised type stores blocks of 32 values with a
// scale, so q8_0 costs 34 bytes per 32 values (1.0625 B) and q4_0 18 bytes per
// 32 (0.5625 B): ggml's block layouts, as listed in
// shared/reference/inference-estimators.md section 0.3.
struct KvType {
  std::string id;  // "f16", "q8_0", "q4_0", ...
  std::int64_t block_bytes = 2;
  std::int64_t block_elems = 1;
  [[nodiscard]] double bytes_per_element() const {
    return static_cast<double>(block_bytes) / static_cast<double>(block_elems);
  }
  [[nodiscard]] bool quantised() const { return block_elems > 1; }
};

Expected<KvType> parse_kv_type(std::string_view text);
std::span<const KvType> all_kv_types();
KvType kv_f16();

}  // namespace willfit
