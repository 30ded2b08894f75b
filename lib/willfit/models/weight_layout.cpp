// Weight bytes tensor by tensor.
//
// A GGUF "Q4_K_M" file is not 4.5 bits everywhere. llama-quantize picks a
// type per tensor from the file type, the tensor's role and its layer (source:
// ggml-org/llama.cpp src/llama-quant.cpp, functions llama_ftype_get_default_type,
// llama_tensor_get_type_impl and tensor_type_fallback; read in the stored copy at
// commit 007dbbf). In our words, the recipe is:
//
// - Every 2-D weight starts at the file type's base type (Q4_K for Q4_K_S/M,
//   Q3_K for Q3_K_S/M/L, Q2_K for Q2_K/Q2_K_S, IQ3_S for IQ3_XS/S/M, IQ2_XS
//   for IQ2_S, IQ2_S for IQ2_M, ...). 1-D tensors (norms, biases) and the MoE
//   router stay F32.
// - The output head is stored at Q6_K (Q8_0 stays Q8_0; the 1- and 2-bit IQ
//   types use Q5_K). With tied embeddings the shared token-embedding matrix
//   gets that treatment; otherwise the token embeddings keep the base type
//   (Q2_K for the lowest IQ types, IQ3_S for IQ2_S/M and IQ3_XXS).
// - attn_v (and fused qkv, MLA kv_b), the tensor most sensitive to
//   quantisation, is bumped: Q4_K_M/Q5_K_M use Q6_K on "more-bits" layers (the
//   first and last eighth and every third layer in between), Q4_K_S uses Q5_K
//   on its first 4 layers, Q3_K_M uses Q5_K on 2 layers then Q4_K, Q3_K_L
//   Q5_K, Q2_K Q3_K (Q4_K with grouped-query attention of 4 or more), the IQ3
//   and IQ4 types Q4_K/Q5_K with GQA >= 4. 80-layer ("70B") models bump Q3_K and
//   Q4_K attn_v to Q5_K; 8-expert models keep attn_v and attn_k at Q8_0.
// - ffn_down is bumped by layer: Q4_K_M and Q5_K_M use Q6_K on the more-bits
//   layers, Q4_K_S Q5_K on the first eighth, Q3_K_M Q5_K on the first
//   sixteenth and Q4_K after, Q3_K_L Q5_K, Q2_K Q3_K, Q2_K_S Q4_K on the first
//   eighth; IQ types bump the first eighth.
// - attn_output: Q2_K -> Q3_K, Q3_K_M -> Q4_K, Q3_K_L -> Q5_K, IQ3_M -> Q4_K,
//   IQ3_XXS -> IQ3_S; 8-expert models Q5_K for the low types.
// - A tensor whose row length is not a multiple of the type's block falls
//   back (Q4_K -> Q5_0, Q6_K -> Q8_0, IQ* -> IQ4_NL, ...), e.g. Qwen2.5-0.5B's
//   896-wide rows.
// - The 1- and 2-bit IQ types, IQ3_XXS and Q2_K_S need an importance matrix;
//   we assume one exactly for those (that is how such files are made).
//
// A tensor's bytes are rows x (row length / block) x block bytes, with the
// ggml block layouts of inference-estimators.md section 0.1. The tensors are
// those llama.cpp names for a llama-style model: attn_q/k/v/output (one fused
// attn_qkv and two-matrix MLP with biases for the GPT-2/NeoX style, MLA latent
// projections for DeepSeek), ffn_gate/up/down (expert tensors x experts for MoE,
// plus shared experts and the F32 router), norms in F32.
//
// Measured against real files (tests/unit/test_accuracy_inference.cpp): see the
// README's accuracy table. Other precisions (fp16, int4, GPTQ, ...) spread
// their flat width over the same groups, keeping params x bits / 8 as the
// total so the course arithmetic stays exact.
#include "willfit/models/weight_layout.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string_view>

#include "willfit/models/plamo2.hpp"

namespace willfit {
namespace {

enum class T {
  F32,
  F16,
  Q4_0,
  Q4_1,
  Q5_0,
  Q5_1,
  Q8_0,
  Q2_K,
  Q3_K,
  Q4_K,
  Q5_K,
  Q6_K,
  IQ2_XXS,
  IQ2_XS,
  IQ2_S,
  IQ3_XXS,
  IQ3_S,
  IQ1_S,
  IQ1_M,
  IQ4_NL,
  IQ4_XS,
  TQ1_0,
  TQ2_0,
  MXFP4,
};

struct Block {
  std::int64_t bytes;
  std::int64_t elems;
};

// ggml block layouts (bytes per block, weights per block), section 0.1.
constexpr Block block_layout(T t) {
  switch (t) {
    case T::F32:
      return {4, 1};
    case T::F16:
      return {2, 1};
    case T::Q4_0:
      return {18, 32};
    case T::Q4_1:
      return {20, 32};
    case T::Q5_0:
      return {22, 32};
    case T::Q5_1:
      return {24, 32};
    case T::Q8_0:
      return {34, 32};
    case T::Q2_K:
      return {84, 256};
    case T::Q3_K:
      return {110, 256};
    case T::Q4_K:
      return {144, 256};
    case T::Q5_K:
      return {176, 256};
    case T::Q6_K:
      return {210, 256};
    case T::IQ2_XXS:
      return {66, 256};
    case T::IQ2_XS:
      return {74, 256};
    case T::IQ2_S:
      return {82, 256};
    case T::IQ3_XXS:
      return {98, 256};
    case T::IQ3_S:
      return {110, 256};
    case T::IQ1_S:
      return {50, 256};
    case T::IQ1_M:
      return {56, 256};
    case T::IQ4_NL:
      return {18, 32};
    case T::IQ4_XS:
      return {136, 256};
    case T::TQ1_0:
      return {54, 256};
    case T::TQ2_0:
      return {66, 256};
    case T::MXFP4:
      return {17, 32};
  }
  return {2, 1};
}

// ggml's name of each type (ggml.c, type_traits[].type_name).
constexpr std::array<std::string_view, static_cast<int>(T::MXFP4) + 1> kTypeNames{
    "F32",   "F16",   "Q4_0",  "Q4_1",   "Q5_0",    "Q5_1",   "Q8_0",  "Q2_K",
    "Q3_K",  "Q4_K",  "Q5_K",  "Q6_K",   "IQ2_XXS", "IQ2_XS", "IQ2_S", "IQ3_XXS",
    "IQ3_S", "IQ1_S", "IQ1_M", "IQ4_NL", "IQ4_XS",  "TQ1_0",  "TQ2_0", "MXFP4"};

// The layouts as a table, with each block's weights as a power of two (1, 32
// or 256): the row arithmetic below masks and shifts instead of dividing, as
// it runs for every tensor of every layer of every estimate.
struct BlockRow {
  Block block;
  int shift;  // block.elems == 1 << shift
};
constexpr int kTypes = static_cast<int>(T::MXFP4) + 1;
constexpr std::array<BlockRow, kTypes> kBlocks = [] {
  std::array<BlockRow, kTypes> rows{};
  for (int i = 0; i < kTypes; ++i) {
    const Block b = block_layout(static_cast<T>(i));
    rows[static_cast<std::size_t>(i)] = {b, b.elems == 1 ? 0 : b.elems == 32 ? 5 : 8};
  }
  return rows;
}();
static_assert([] {
  for (const BlockRow& r : kBlocks) {
    if (r.block.elems != std::int64_t{1} << r.shift) {
      return false;
    }
  }
  return true;
}());

constexpr const BlockRow& block_row(T t) {
  return kBlocks[static_cast<std::size_t>(t)];
}
constexpr Block block_of(T t) {
  return block_row(t).block;
}

// True when rows of `ncols` weights are whole blocks of type `t`.
constexpr bool whole_blocks(std::int64_t ncols, T t) {
  return (ncols & (block_of(t).elems - 1)) == 0;
}

bool quantised(T t) {
  return t != T::F32 && t != T::F16;
}

// llama.cpp file types (LLAMA_FTYPE_*), by the precision ids willfit accepts.
enum class Ft {
  F32,
  F16,
  Q4_0,
  Q4_1,
  Q5_0,
  Q5_1,
  Q8_0,
  Q2_K,
  Q2_K_S,
  Q3_K_S,
  Q3_K_M,
  Q3_K_L,
  Q4_K_S,
  Q4_K_M,
  Q5_K_S,
  Q5_K_M,
  Q6_K,
  IQ2_XXS,
  IQ2_XS,
  IQ2_S,
  IQ2_M,
  IQ3_XXS,
  IQ3_XS,
  IQ3_S,
  IQ3_M,
  IQ1_S,
  IQ1_M,
  IQ4_NL,
  IQ4_XS,
  TQ1_0,
  TQ2_0,
  MXFP4_MOE,
};

struct FtName {
  std::string_view id;
  Ft ft;
  T base;
};

constexpr std::array<FtName, 32> kFileTypes{{
    {"f32", Ft::F32, T::F32},          {"f16", Ft::F16, T::F16},
    {"q4_0", Ft::Q4_0, T::Q4_0},       {"q4_1", Ft::Q4_1, T::Q4_1},
    {"q5_0", Ft::Q5_0, T::Q5_0},       {"q5_1", Ft::Q5_1, T::Q5_1},
    {"q8_0", Ft::Q8_0, T::Q8_0},       {"q2_k", Ft::Q2_K, T::Q2_K},
    {"q2_k_s", Ft::Q2_K_S, T::Q2_K},   {"q3_k_s", Ft::Q3_K_S, T::Q3_K},
    {"q3_k_m", Ft::Q3_K_M, T::Q3_K},   {"q3_k_l", Ft::Q3_K_L, T::Q3_K},
    {"q4_k_s", Ft::Q4_K_S, T::Q4_K},   {"q4_k_m", Ft::Q4_K_M, T::Q4_K},
    {"q5_k_s", Ft::Q5_K_S, T::Q5_K},   {"q5_k_m", Ft::Q5_K_M, T::Q5_K},
    {"q6_k", Ft::Q6_K, T::Q6_K},       {"iq2_xxs", Ft::IQ2_XXS, T::IQ2_XXS},
    {"iq2_xs", Ft::IQ2_XS, T::IQ2_XS}, {"iq2_s", Ft::IQ2_S, T::IQ2_XS},
    {"iq2_m", Ft::IQ2_M, T::IQ2_S},    {"iq3_xxs", Ft::IQ3_XXS, T::IQ3_XXS},
    {"iq3_xs", Ft::IQ3_XS, T::IQ3_S},  {"iq3_s", Ft::IQ3_S, T::IQ3_S},
    {"iq3_m", Ft::IQ3_M, T::IQ3_S},    {"iq1_s", Ft::IQ1_S, T::IQ1_S},
    {"iq1_m", Ft::IQ1_M, T::IQ1_M},    {"iq4_nl", Ft::IQ4_NL, T::IQ4_NL},
    {"iq4_xs", Ft::IQ4_XS, T::IQ4_XS}, {"tq1_0", Ft::TQ1_0, T::TQ1_0},
    {"tq2_0", Ft::TQ2_0, T::TQ2_0},    {"mxfp4", Ft::MXFP4_MOE, T::MXFP4},
}};

const FtName* find_file_type(const Precision& p) {
  if (!p.gguf) {
    return nullptr;
  }
  for (const auto& f : kFileTypes) {
    if (f.id == p.id) {
      return &f;
    }
  }
  return nullptr;
}

enum class Cat { TokenEmbd, Output, AttnQ, AttnK, AttnV, AttnOut, FfnUp, FfnGate, FfnDown, Other };

bool is_attn_v(Cat c) {
  return c == Cat::AttnV;  // attn_v, fused attn_qkv and MLA attn_kv_b are all counted here
}

bool is_low_iq(Ft f) {
  return f == Ft::IQ2_XXS || f == Ft::IQ2_XS || f == Ft::IQ1_S || f == Ft::IQ2_S ||
         f == Ft::IQ2_M || f == Ft::IQ1_M;
}

bool needs_imatrix(Ft f) {
  return is_low_iq(f) || f == Ft::IQ3_XXS || f == Ft::Q2_K_S;
}

// "More bits" layers: the first and last eighth, and every third in between.
bool more_bits(int i, int n) {
  return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2;
}

struct Recipe {
  Ft ft;
  T base;
  int n_layer = 0;
  // attn_v tensors in the file (llama-quant.cpp n_attention_wv, which
  // use_more_bits reads): n_layer but where layers lack attention (deci).
  int n_attn_v = 0;
  int n_gqa = 1;
  int n_expert = 0;
  bool tied = false;
  bool is_70b = false;
  // Ollama's quantizer on a gated-delta-net hybrid (Qwen3-Next, Qwen3.5) at
  // Q4_K_M or Q4_K_S: a fixed type per tensor instead of the layer bumps.
  bool ollama_linear_attention = false;
  // Ollama's own package of an MXFP4 checkpoint (gpt-oss): its converter
  // writes the experts' MXFP4 blocks as they are and every other 2-D tensor
  // in 16 bits, as the checkpoint holds them (ollama/ollama
  // convert/convert_gptoss.go Tensors and convert/reader.go tensorBase.Kind
  // at fb3076099), where llama-quantize's MXFP4_MOE makes them Q8_0.
  bool ollama_mxfp4 = false;
  // Falcon's own branches (llama-quant.cpp llama_tensor_get_type_impl,
  // LLM_ARCH_FALCON at 80fb11ac): the output Q8_0 at every K-quant; ffn_down
  // at Q4_K_M Q6_K in the first sixteenth of the layers, Q5_K in the other
  // more-bits layers; no Q3_K_M/Q3_K_L/Q4_K_S bumps beyond those.
  bool falcon = false;
  int i_attn_v = 0;    // attn_v-like tensors seen so far
  int i_ffn_down = 0;  // ffn_down tensors seen so far

  [[nodiscard]] T output_type(std::int64_t ncols) const {
    if (ollama_mxfp4) {
      return T::F16;
    }
    if (ft == Ft::MXFP4_MOE || falcon || !whole_blocks(ncols, base)) {
      return T::Q8_0;
    }
    if (ft == Ft::IQ2_XXS || ft == Ft::IQ2_XS || ft == Ft::IQ3_XXS || ft == Ft::IQ1_S ||
        ft == Ft::IQ2_S || ft == Ft::IQ2_M || ft == Ft::IQ1_M) {
      return T::Q5_K;
    }
    return base == T::Q8_0 ? T::Q8_0 : T::Q6_K;
  }

  T pick(Cat cat, int layer, bool expert) {
    T t = base;
    const bool imatrix = needs_imatrix(ft);
    if (cat == Cat::Output || (tied && cat == Cat::TokenEmbd)) {
      return T::Q6_K;  // replaced by output_type() by the caller (needs the row length)
    }
    if (ft == Ft::MXFP4_MOE) {
      return expert ? T::MXFP4 : (ollama_mxfp4 ? T::F16 : T::Q8_0);
    }
    if (cat == Cat::TokenEmbd) {
      if (ft == Ft::IQ2_XXS || ft == Ft::IQ2_XS || ft == Ft::IQ1_S || ft == Ft::IQ1_M) {
        t = T::Q2_K;
      } else if (ft == Ft::IQ2_S || ft == Ft::IQ2_M || ft == Ft::IQ3_XXS) {
        t = T::IQ3_S;
      } else if (ft == Ft::TQ1_0 || ft == Ft::TQ2_0) {
        t = T::Q4_K;
      }
      return t;
    }
    if (ollama_linear_attention) {
      // ollama/ollama server/quantization.go (qwen3LinearAttnQuantType, at
      // da70c322 and 87288ced): for qwen3next, qwen35 and qwen35moe at
      // Q4_K_M/Q4_K_S, attn_v and every expert and shared-expert ffn_down are
      // Q6_K, the other attention, delta-net and expert tensors Q4_K; a dense
      // ffn_down keeps the llama.cpp bump below.
      if (is_attn_v(cat)) {
        ++i_attn_v;
        return T::Q6_K;
      }
      if (cat == Cat::FfnDown && n_expert > 0) {
        ++i_ffn_down;
        return T::Q6_K;
      }
      if (cat != Cat::FfnDown) {
        return T::Q4_K;
      }
    }
    const bool iq2s = ft == Ft::IQ2_S || ft == Ft::IQ2_M;
    if (is_low_iq(ft)) {
      if (is_attn_v(cat)) {
        t = (n_gqa >= 4 || n_expert >= 4) ? T::Q4_K : (iq2s ? T::IQ3_S : T::Q2_K);
        ++i_attn_v;
      } else if (n_expert == 8 && cat == Cat::AttnK) {
        t = T::Q4_K;
      } else if (cat == Cat::FfnDown) {
        if (i_ffn_down < n_layer / 8) {
          t = iq2s ? T::IQ3_S : T::Q2_K;
        }
        ++i_ffn_down;
      } else if (cat == Cat::AttnOut) {
        if (n_expert == 8) {
          t = T::Q5_K;
        } else if (ft == Ft::IQ1_S || ft == Ft::IQ1_M) {
          t = T::IQ2_XXS;
        } else if (iq2s) {
          t = T::IQ3_S;
        }
      }
      return t;
    }
    if (is_attn_v(cat)) {
      const int i = i_attn_v;
      const int n = n_attn_v;
      if (ft == Ft::Q2_K) {
        t = n_gqa >= 4 ? T::Q4_K : T::Q3_K;
      } else if (ft == Ft::Q2_K_S && n_gqa >= 4) {
        t = T::Q4_K;
      } else if (ft == Ft::IQ3_XXS) {
        t = n_gqa >= 4 ? T::Q4_K : (imatrix ? T::IQ3_XXS : T::IQ3_S);
      } else if ((ft == Ft::IQ3_XS || ft == Ft::IQ3_S) && n_gqa >= 4) {
        t = T::Q4_K;
      } else if (ft == Ft::IQ3_M) {
        t = T::Q4_K;
      } else if (ft == Ft::Q3_K_M) {
        t = i < 2 ? T::Q5_K : T::Q4_K;
      } else if (ft == Ft::Q3_K_L) {
        t = T::Q5_K;
      } else if ((ft == Ft::IQ4_NL || ft == Ft::IQ4_XS) && n_gqa >= 4) {
        t = T::Q5_K;
      } else if ((ft == Ft::Q4_K_M || ft == Ft::Q5_K_M) && more_bits(i, n)) {
        t = T::Q6_K;
      } else if (ft == Ft::Q4_K_S && i < 4) {
        t = T::Q5_K;
      }
      if (is_70b && (t == T::Q3_K || t == T::Q4_K)) {
        t = T::Q5_K;
      }
      if (n_expert == 8) {
        t = T::Q8_0;
      }
      ++i_attn_v;
      return t;
    }
    if (cat == Cat::AttnK) {
      if (n_expert == 8) {
        t = T::Q8_0;
      } else if (ft == Ft::IQ3_XS) {
        t = T::IQ3_XXS;
      } else if (ft == Ft::IQ3_XXS) {
        t = T::IQ2_S;
      }
      return t;
    }
    if (cat == Cat::AttnQ) {
      if (ft == Ft::IQ3_XS) {
        t = T::IQ3_XXS;
      } else if (ft == Ft::IQ3_XXS) {
        t = T::IQ2_S;
      }
      return t;
    }
    if (cat == Cat::FfnDown) {
      // Dense models count ffn_down tensors; MoE models read the layer from the name.
      const int i = n_expert > 1 ? layer : i_ffn_down;
      const int n = n_layer;
      if (ft == Ft::Q2_K) {
        t = T::Q3_K;
      } else if (ft == Ft::Q2_K_S) {
        if (i < n / 8) {
          t = T::Q4_K;
        }
      } else if (ft == Ft::IQ3_XXS && !imatrix) {
        t = i < n / 8 ? T::Q4_K : T::Q3_K;
      } else if (ft == Ft::Q3_K_M) {
        t = i < n / 16 ? T::Q5_K : !falcon || more_bits(i, n) ? T::Q4_K : T::Q3_K;
      } else if (ft == Ft::IQ3_M && (i < n / 8 || (n_expert == 8 && more_bits(i, n)))) {
        t = T::Q4_K;
      } else if (ft == Ft::Q3_K_L) {
        t = falcon ? T::Q4_K : T::Q5_K;
      } else if (ft == Ft::Q4_K_M && falcon) {
        t = i < n / 16 ? T::Q6_K : more_bits(i, n) ? T::Q5_K : T::Q4_K;
      } else if (ft == Ft::Q4_K_M) {
        if (more_bits(i, n)) {
          t = T::Q6_K;
        }
      } else if (i < n / 8 && (ft == Ft::IQ4_NL || ft == Ft::IQ4_XS) && !imatrix) {
        t = T::Q5_K;
      } else if (ft == Ft::Q5_K_M && more_bits(i, n)) {
        t = T::Q6_K;
      } else if (ft == Ft::Q4_K_S && !falcon && i < n / 8) {
        t = T::Q5_K;
      }
      ++i_ffn_down;
      return t;
    }
    if (cat == Cat::AttnOut && falcon) {
      return ft == Ft::Q3_K_L ? T::Q4_K : t;
    }
    if (cat == Cat::AttnOut) {
      if (n_expert == 8) {
        if (ft == Ft::Q2_K || ft == Ft::IQ3_XS || ft == Ft::IQ3_XXS || ft == Ft::Q3_K_S ||
            ft == Ft::Q3_K_M || ft == Ft::IQ4_NL || ft == Ft::Q4_K_S || ft == Ft::Q4_K_M ||
            ft == Ft::IQ3_S || ft == Ft::IQ3_M || ft == Ft::IQ4_XS) {
          t = T::Q5_K;
        }
      } else if (ft == Ft::Q2_K) {
        t = T::Q3_K;
      } else if (ft == Ft::IQ3_XXS) {
        t = T::IQ3_S;
      } else if (ft == Ft::Q3_K_M || ft == Ft::IQ3_M) {
        t = T::Q4_K;
      } else if (ft == Ft::Q3_K_L) {
        t = T::Q5_K;
      }
      return t;
    }
    if ((cat == Cat::FfnGate || cat == Cat::FfnUp) && ft == Ft::IQ3_XS && layer >= n_layer / 8 &&
        layer < 7 * n_layer / 8) {
      t = T::IQ3_XXS;
    }
    return t;
  }
};

// Rows whose length does not divide into the type's blocks fall back to a
// type with 32-wide blocks (or F16).
T fallback(T t, std::int64_t ncols) {
  if (whole_blocks(ncols, t)) {
    return t;
  }
  T r = T::F16;
  switch (t) {
    case T::IQ1_S:
    case T::IQ1_M:
    case T::IQ2_XXS:
    case T::IQ2_XS:
    case T::IQ2_S:
    case T::IQ3_XXS:
    case T::IQ3_S:
    case T::IQ4_XS:
      r = T::IQ4_NL;
      break;
    case T::Q2_K:
    case T::Q3_K:
    case T::TQ1_0:
    case T::TQ2_0:
      r = T::Q4_0;
      break;
    case T::Q4_K:
      r = T::Q5_0;
      break;
    case T::Q5_K:
      r = T::Q5_1;
      break;
    case T::Q6_K:
      r = T::Q8_0;
      break;
    default:
      r = T::F16;
      break;
  }
  return whole_blocks(ncols, r) ? r : T::F16;
}

Bytes tensor_bytes(T t, std::int64_t ncols, std::int64_t rows) {
  const BlockRow& b = block_row(t);
  return rows * ((ncols + b.block.elems - 1) >> b.shift) * b.block.bytes;
}

// Layers the recipe treats alike hold the same bytes. Recipe::pick reads a
// layer's index and its attn_v and ffn_down counters only through six tests
// (c < 2, c < 4, c < n/16, c < n/8, c >= 7n/8 and more_bits), so two layers
// of the same kind (dense or MoE MLP) whose index and counters (ffn_down as
// it enters the layer and after one tensor: an MoE layer has two) answer
// every test alike get the same types. recipe_layout sizes the first layer of
// each such class and copies it to the others: an 80-layer model has a handful
// of classes, and estimates run in search loops.
struct CounterClass {
  int n16;  // n / 16
  int n8;   // n / 8
  int n78;  // 7 n / 8
  explicit CounterClass(int n) : n16(n / 16), n8(n / 8), n78(7 * n / 8) {}
  // The six tests, as bits; more_bits(c, n) with the thresholds worked out once.
  [[nodiscard]] std::uint64_t operator()(int c) const {
    const bool more = c < n8 || c >= n78 || (c - n8) % 3 == 2;
    return static_cast<std::uint64_t>(c < 2) | static_cast<std::uint64_t>(c < 4) << 1 |
           static_cast<std::uint64_t>(c < n16) << 2 | static_cast<std::uint64_t>(c < n8) << 3 |
           static_cast<std::uint64_t>(c >= n78) << 4 | static_cast<std::uint64_t>(more) << 5;
  }
};

// What a tensor the recipe sized was: its type, bytes and how llama.cpp reads it.
// How llama.cpp reads a tensor the recipe sized (TypedWeights' classes).
enum class Read { Product, Expert, TokenTable, OtherTable };

struct TensorSink {
  std::vector<TypedWeights>* mix = nullptr;
  bool output_copy = false;  // loads_output_from_embeddings
  // `rows`: the output rows of the product that reads it (1 for a vector; 0
  // for several weights sized as one, whose rows are not known one by one).
  void add(T t, Bytes bytes, Read read, std::int64_t rows) const {
    if (mix == nullptr) {
      return;
    }
    const std::string_view name = kTypeNames[static_cast<std::size_t>(t)];
    auto it = std::find_if(mix->begin(), mix->end(),
                           [&](const TypedWeights& w) { return w.type == name; });
    if (it == mix->end()) {
      it = mix->insert(mix->end(), TypedWeights{.type = std::string(name)});
    }
    switch (read) {
      case Read::Expert:
        it->experts += bytes;
        it->rows_off8 += rows % 8 != 0 ? bytes : 0;
        it->rows_off4 += rows % 4 != 0 ? bytes : 0;
        break;
      case Read::TokenTable:
        it->embeddings += bytes;
        it->tied_output += output_copy ? bytes : 0;
        it->tied_output_narrow = it->tied_output_narrow || (output_copy && rows % 32 != 0);
        it->tied_output_off8 = it->tied_output_off8 || (output_copy && rows % 8 != 0);
        it->tied_output_off4 = it->tied_output_off4 || (output_copy && rows % 4 != 0);
        break;
      case Read::OtherTable:
        it->plain += bytes;
        break;
      case Read::Product:
        (rows % 32 != 0 ? it->narrow : it->matmul) += bytes;  // rows 0: several, not known
        it->rows_off8 += rows % 8 != 0 ? bytes : 0;
        it->rows_off4 += rows % 4 != 0 ? bytes : 0;
        break;
    }
  }
};

// The layout under a llama.cpp file type. `share_layers`: size each class of
// alike layers once (above); false sizes every layer (for the test that
// checks the two agree, and for `sink`, which records every tensor).
// DeepSeek-V4's attention block, tensor by tensor (llama.cpp
// src/models/deepseek4.cpp load_arch_tensors at 80fb11ac; model.cpp counts
// the same weights). llama-quantize names none of them attn_q, attn_k,
// attn_v or attn_output (they are attn_q_a/_b, attn_kv, attn_output_a/_b,
// the compressors, the indexer and hc_*_fn: src/llama-quant.cpp
// tensor_get_category), so each is an "other" weight at the base type; the
// norms and sinks stay F32.
template <typename Weight, typename F32>
Bytes compressed_attention_bytes(const Architecture& a, int i, Weight& weight, F32& f32) {
  const Attention& m = a.attention;
  const std::int64_t e = a.hidden_size;
  const std::int64_t hd = a.head_dim;
  const std::int64_t qd = std::int64_t{a.heads} * hd;
  const std::int64_t q_lora = m.q_lora_rank;
  Bytes b = f32(a.heads);  // attn_sinks
  b += q_lora > 0
           ? weight(Cat::Other, e, q_lora, i) + f32(q_lora) + weight(Cat::Other, q_lora, qd, i)
           : weight(Cat::AttnQ, e, qd, i);
  b += weight(Cat::Other, e, std::int64_t{std::max(1, a.kv_heads)} * hd, i) + f32(hd);
  if (m.o_groups > 0 && m.o_lora_rank > 0) {
    const std::int64_t o = std::int64_t{m.o_groups} * m.o_lora_rank;
    b += weight(Cat::Other, qd / m.o_groups, o, i) + weight(Cat::Other, o, e, i);
  } else {
    b += weight(Cat::AttnOut, qd, e, i);
  }
  const std::int64_t n = a.hyper_connections;
  if (n > 0) {
    b += 2 * weight(Cat::Other, n * e, (2 + n) * n, i) + f32(2 * ((2 + n) * n + 3));
  }
  const char kind = static_cast<std::size_t>(i) < m.compress_layers.size()
                        ? m.compress_layers[static_cast<std::size_t>(i)]
                        : 'S';
  const auto compressor = [&](std::int64_t width, std::int64_t ratio) {
    return 2 * weight(Cat::Other, e, width, i) + weight(Cat::Other, width, ratio, i) +
           f32(width / (ratio == 4 ? 2 : 1));
  };
  if (kind == 'C') {
    const std::int64_t ihd = m.index_head_dim;
    b += compressor(2 * hd, 4);
    if (ihd > 0) {
      b += weight(Cat::Other, e, m.index_heads, i) +
           weight(Cat::Other, std::max<std::int64_t>(q_lora, 1), std::int64_t{m.index_heads} * ihd,
                  i) +
           compressor(2 * ihd, 4);
    }
  } else if (kind == 'H') {
    b += compressor(hd, 128);
  }
  return b;
}

// The part of a layer's class key that tells DeepSeek-V4's layer kinds and
// its hash-routed layers apart (0 for every other model).
std::uint64_t compressed_layer_key(const Architecture& a, int i) {
  const std::string& l = a.attention.compress_layers;
  const char kind = static_cast<std::size_t>(i) < l.size() ? l[static_cast<std::size_t>(i)] : 'S';
  return std::uint64_t{kind == 'C'   ? 1U
                       : kind == 'H' ? 2U
                                     : 0U} |
         std::uint64_t{i < a.hash_layers} << 2;
}

WeightLayout recipe_layout(const Architecture& a, const FtName& f, GgufQuantizer quantizer,
                           bool share_layers = true, TensorSink sink = {}) {
  share_layers = share_layers && sink.mix == nullptr;
  Recipe r{f.ft, f.base};
  r.n_layer = a.layers;
  // llama-quant.cpp counts ffn_down over n_layer_all, which Granite Switch's
  // router slot makes one more than its layers (granite-switch.cpp).
  if (a.adapters > 0) {
    r.n_layer += 1;
  }
  r.n_attn_v = a.layer_widths.empty() ? a.layers : attention_layer_count(a);
  r.n_attn_v += std::max(0, a.decoder_layers);  // T5's cross-attention V (cross_attn_v)
  // CogVLM's vis_attn_qkv counts as an attn_v too (llama-quant.cpp category_is_attn_v).
  if (a.visual_expert) {
    r.n_attn_v += a.layers;
  }
  r.n_gqa = a.kv_heads > 0 ? std::max(1, a.heads / a.kv_heads) : 1;
  r.n_expert = a.moe ? a.moe->experts : 0;
  r.tied = a.tied_embeddings;
  r.falcon = a.attention.parallel_block == ParallelBlock::Falcon;
  // llama.cpp's LLM_TYPE_70B (its attn_v bump below) is each loader's: 80
  // layers make it for llama's, not for falcon.cpp (32 layers 7B, 60 40B,
  // any other depth unknown: Falcon-180B's 80 included).
  r.is_70b = a.layers == 80 && !r.falcon;
  r.ollama_mxfp4 = quantizer == GgufQuantizer::Ollama && f.ft == Ft::MXFP4_MOE;
  r.ollama_linear_attention = quantizer == GgufQuantizer::Ollama &&
                              a.attention.delta_net_k_heads > 0 &&
                              (f.ft == Ft::Q4_K_M || f.ft == Ft::Q4_K_S);
  const bool quant = quantised(f.base);
  const std::int64_t e = a.hidden_size;
  // One weight (or, with `tensor_rows` 0, several sized together) of
  // `ncols` x `rows` at the type the recipe gives `cat`, and how llama.cpp
  // reads it (TensorSink).
  const auto sized = [&](Cat cat, std::int64_t ncols, std::int64_t rows, int layer, bool expert,
                         Read read, std::int64_t tensor_rows) -> Bytes {
    T t = f.base;
    if (quant) {
      t = r.pick(cat, layer, expert);
      if (cat == Cat::Output || (r.tied && cat == Cat::TokenEmbd)) {
        t = r.output_type(ncols);
      }
      t = fallback(t, ncols);
    }
    const Bytes bytes = tensor_bytes(t, ncols, rows);
    sink.add(t, bytes, read, tensor_rows);
    return bytes;
  };
  const auto weight = [&](Cat cat, std::int64_t ncols, std::int64_t rows, int layer,
                          bool expert = false) {
    return sized(cat, ncols, rows, layer, expert,
                 expert                  ? Read::Expert
                 : cat == Cat::TokenEmbd ? Read::TokenTable
                                         : Read::Product,
                 rows);
  };
  // An input table get_rows reads besides the token embeddings, typed as they are.
  const auto input_table = [&](std::int64_t ncols, std::int64_t rows) {
    return sized(Cat::TokenEmbd, ncols, rows, 0, false, Read::OtherTable, rows);
  };
  // Several matrix-product weights sized as one (a recurrent mixer's).
  const auto several = [&](Cat cat, std::int64_t ncols, std::int64_t rows, int layer) {
    return sized(cat, ncols, rows, layer, false, Read::Product, 0);
  };
  const auto f32 = [&sink](std::int64_t n) {
    sink.add(T::F32, n * 4, Read::Product, 1);
    return n * 4;
  };

  WeightLayout w;
  w.recipe = true;
  if (a.vocoder_features > 0) {
    // WavTokenizer's decoder (wavtokenizer-dec.cpp load_arch_tensors at
    // 80fb11ac, as conversion/wavtokenizer.py types its tensors): the
    // codebook {features, codes}; the input convolution {7, features,
    // posnet} and the PosNet's kernels, {3, posnet, posnet} for the resnet
    // blocks and {1, posnet, posnet} for the attention's q, k, v and output,
    // rows of 7, 3 and 1 values that no quantised type's blocks divide
    // (llama-quant.cpp's fallback keeps them F16); the norms, biases and
    // gains F32 ({1, width} in the PosNet). Each ConvNeXt block: the
    // depthwise {7, 1, width} kernel, pw1 and pw2 (quantised as "other"
    // tensors: their names are no ffn_*), their biases, the LayerNorm and
    // the gain. The head {width, out} and its bias.
    const std::int64_t fe = a.vocoder_features;
    const std::int64_t pw = a.posnet_width;
    const std::int64_t ff = a.intermediate_size;
    w.token_embd = weight(Cat::TokenEmbd, fe, a.vocab_size, 0);
    w.other = weight(Cat::Other, 7, fe * pw, 0) + f32(pw);
    for (int i = 0; i < 4; ++i) {  // the resnet blocks: norm1, conv1, norm2, conv2
      w.other +=
          weight(Cat::Other, 3, pw * pw, 0) + weight(Cat::Other, 3, pw * pw, 0) + f32(6 * pw);
    }
    for (int i = 0; i < 4; ++i) {  // the attention's q, k, v and output
      w.other += weight(Cat::Other, 1, pw * pw, 0);
    }
    // its norm and four biases; the last block's group norm; the
    // embeddings' LayerNorm
    w.other += f32(6 * pw) + f32(2 * pw) + f32(2 * pw);
    w.layers.reserve(static_cast<std::size_t>(std::max(0, a.layers)));
    for (int i = 0; i < a.layers; ++i) {
      const Bytes block = weight(Cat::Other, 7, e, i) + f32(e) + f32(2 * e) +
                          weight(Cat::Other, e, ff, i) + f32(ff) + weight(Cat::Other, ff, e, i) +
                          f32(e) + f32(e);
      w.layers.push_back({block, 0});
    }
    w.output = f32(2 * e) + weight(Cat::Output, e, a.vocoder_out, a.layers) + f32(a.vocoder_out);
    return w;
  }
  // An EAGLE-3 draft without token embeddings of its own reads its target's
  // (eagle3.cpp: tok_embd optional, model_other->tok_embd otherwise).
  const bool eagle3 = a.eagle3_target_layers > 0;
  const bool assistant = a.assistant_backbone_hidden > 0;  // a Gemma 4 assistant
  // A DFlash draft reads its target's embeddings and head unless it has its
  // own (dflash.cpp: tok_embd and output optional).
  const bool dflash = a.dflash_target_layers > 0;
  w.token_embd = (eagle3 || dflash) && !a.draft_own_embeddings
                     ? 0
                     : weight(Cat::TokenEmbd, e, a.vocab_size, 0);
  if (a.per_layer_width > 0) {
    // Gemma 3n's per-layer embeddings are an input table like the token
    // embeddings (per_layer_token_embd): llama-quantize quantises it as one.
    // Ollama's quantizer leaves it as converted, 16 bits a value
    // (ollama/ollama server/quantization.go at 1e95ab3e, newType: no
    // quantisation for "per_layer_token_embd.weight"); so the library's
    // gemma3n:e2b at Q4_K_M is 5.6 GB, not the 3.2 GB of a llama.cpp file.
    const std::int64_t cols = a.per_layer_width * a.layers;
    if (quantizer == GgufQuantizer::Ollama) {
      const Bytes bytes = tensor_bytes(T::F16, cols, a.per_layer_vocab);
      sink.add(T::F16, bytes, Read::OtherTable, a.per_layer_vocab);
      w.token_embd += bytes;
    } else {
      w.token_embd += input_table(cols, a.per_layer_vocab);
    }
  }
  if (a.ngram_rows > 0) {
    // Qwen4Exp's n-gram table (per_layer_token_embd, ngram_width x rows),
    // an input table read by get_rows like Gemma 3n's.
    w.token_embd += input_table(a.ngram_width, a.ngram_rows);
  }
  if (a.learned_positions > 0) {
    // GPT-2's and StarCoder's position table (position_embd, hidden x
    // n_ctx_train): an input table like the token embeddings, which
    // llama-quantize quantises as any other 2-D weight (llama-quant.cpp
    // skips only the multimodal ".position_embd").
    // get_rows reads it, so no CPU extra buffer takes it: an input table,
    // at an "other" weight's type.
    const T t = quant ? fallback(r.pick(Cat::Other, 0, false), e) : f.base;
    const Bytes bytes = tensor_bytes(t, e, a.learned_positions);
    sink.add(t, bytes, Read::OtherTable, a.learned_positions);
    w.token_embd += bytes;
  }
  // GPT-2/NeoX style: LayerNorm with bias, fused QKV, biases, as the reader
  // that knows the architecture says (Architecture::gpt2_layer). A model
  // whose norm biases are marked on their own (norm_bias) has llama's
  // projections beside them: Nemotron's ungated MLP has no fused QKV and no
  // biases (nemotron.cpp load_arch_tensors at 80fb11ac).
  const bool layer_norm = a.gpt2_layer;
  // Biases on GPT-2's layer's projections, unless its family has none
  // (Falcon, MPT's no_bias: Architecture::gpt2_no_linear_bias).
  const bool linear_bias = layer_norm && !a.gpt2_no_linear_bias;
  // OLMo-1's LayerNorms have neither (olmo.cpp loads no norm tensor); MPT's
  // without its biases the weight alone.
  const int norm_vectors = a.weightless_norms ? 0
                           : (layer_norm && !a.gpt2_no_norm_bias) || a.norm_bias
                               ? 2
                               : 1;  // weight, and bias
  w.output = f32(e * norm_vectors);
  if (a.embedding_norm) {  // BLOOM's token_embd_norm, weight and bias
    w.token_embd += f32(2 * e);
  }
  if (a.decoder_layers > 0) {  // T5: the encoder's output norm beside the decoder's
    w.output += f32(e);
  }
  if (assistant) {
    // A Gemma 4 assistant's post-projection back to the target's width
    // (nextn.post_projection, hidden x backbone) and the global layers' one
    // rope_freqs (global head width / 2, F32; the converter's
    // generate_extra_tensors).
    const std::int64_t gd = a.attention.global_head_dim > 0 ? a.attention.global_head_dim
                            : a.head_dim > 0                ? a.head_dim
                                                            : e / std::max(1, a.heads);
    w.output += weight(Cat::Other, e, a.assistant_backbone_hidden, a.layers) + f32(gd / 2);
  }
  if (eagle3) {
    // EAGLE-3's head over its draft vocabulary, and d2t, the draft-to-target
    // token map (I64, one a draft token: 8 bytes, written as two F32s' worth),
    // which the converter writes when the vocabularies differ.
    const std::int64_t rows = a.draft_vocab > 0 ? a.draft_vocab : a.vocab_size;
    w.output += weight(Cat::Output, e, rows, a.layers);
    if (a.draft_vocab > 0 && a.draft_vocab != a.vocab_size) {
      w.output += f32(2 * a.draft_vocab);
    }
  } else if (dflash) {
    // DFlash's own head (over the draft vocabulary when the file has d2t,
    // I64), DFlash2's selector (predecessor and successor codebooks, rank x
    // vocabulary, read by get_rows; the gate, hidden x rank) and DSpark's
    // Markov head (rank x vocabulary, rank x draft vocabulary).
    const std::int64_t rows = a.draft_vocab > 0 ? a.draft_vocab : a.vocab_size;
    w.output += a.draft_own_head ? weight(Cat::Output, e, rows, a.layers) : 0;
    w.output += a.draft_vocab > 0 ? f32(2 * a.draft_vocab) : 0;
    if (a.dflash_selector_rank > 0) {
      w.output += 2 * weight(Cat::Other, a.dflash_selector_rank, a.vocab_size, a.layers) +
                  weight(Cat::Other, e, a.dflash_selector_rank, a.layers);
    }
    if (a.dspark_markov_rank > 0) {
      w.output += weight(Cat::Other, a.dspark_markov_rank, a.vocab_size, a.layers) +
                  weight(Cat::Other, a.dspark_markov_rank, rows, a.layers);
    }
  } else if (!a.tied_embeddings) {
    // Qwen3-TTS: the codec head's head_rows (qwen3vl.cpp n_vocab_out)
    w.output += weight(Cat::Output, e, a.head_rows > 0 ? a.head_rows : a.vocab_size, a.layers);
  }
  if (a.output_bias) {  // Phi-3.5-MoE's output_b
    w.output += f32(a.vocab_size);
  }
  if (a.hyper_connections > 0 && a.hc_low_rank > 0) {
    // Qwen4Exp's final mixer, which is its output norm (qwen4exp.cpp:
    // output_hc_norm, output_hc_down, output_hc_up).
    const std::int64_t wide = std::int64_t{a.hyper_connections} * e;
    w.output += f32(wide) + weight(Cat::Other, wide, a.hc_low_rank, a.layers) +
                weight(Cat::Other, a.hc_low_rank, wide, a.layers);
  } else if (a.hyper_connections > 0) {
    // DeepSeek-V4's output_hc_fn: the n streams (n hidden) to n weights.
    const std::int64_t n = a.hyper_connections;
    w.output += weight(Cat::Other, n * e, n, a.layers);
  }
  const int head_dim =
      a.head_dim > 0 ? a.head_dim : (a.heads > 0 ? static_cast<int>(e / a.heads) : 0);
  const std::int64_t q_dim = std::int64_t{a.heads} * head_dim;
  const std::int64_t kv_dim = std::int64_t{a.kv_heads} * head_dim;
  w.layers.reserve(static_cast<std::size_t>(std::max(0, a.layers)));
  // A hybrid layer's recurrent mixer, and Gemma 3n's per-layer input gate and
  // projection, sized as one weight of `e` columns at the base type (llama.cpp
  // quantises ssm_in/ssm_out like the other 2-D weights and keeps the
  // convolution, A and D in F32, a few thousand values).
  const std::int64_t recurrent_rows =
      a.attention.recurrent_params > 0 ? (a.attention.recurrent_params + e - 1) / e : 0;
  const std::int64_t per_layer_rows = a.per_layer_width * (2 + 1);
  // mtp_block: a dense MTP block of a windowed model (Step-3.5, K-EXAONE,
  // MiMo-V2-Flash), a windowed layer with a dense MLP, shaped like layer i
  // otherwise.
  const Architecture windowed_mla =
      windowed_mla_layer_count(a) > 0 ? windowed_mla_shape(a) : Architecture{};
  const auto size_layer = [&](int i, bool mtp_block = false) {
    LayerWeights l;
    LayerRoles roles = layer_roles(a, i);
    roles.moe = roles.moe && !mtp_block;
    // A parallel block has one norm a layer (cohere2moe.cpp and plamo.cpp:
    // attn_norm only; GPTJBlock: ln_1), but GPT-NeoX's two, attn_norm and
    // ffn_norm both of the layer input (gptneox.cpp).
    const ParallelBlock block = a.attention.parallel_block;
    // Falcon-40B's attn_norm and attn_norm_2; Falcon-7B's one attn_norm
    // (gpt2_one_norm).
    const int layer_norms = (block == ParallelBlock::None || block == ParallelBlock::NeoX ||
                             block == ParallelBlock::Falcon) &&
                                    !a.gpt2_one_norm
                                ? 2
                                : 1;
    l.bytes += f32(e * layer_norms * norm_vectors);
    if (assistant && i == 0) {
      // A Gemma 4 assistant's pre-projection of the target's embedding and
      // hidden state (nextn.pre_projection, 2 x backbone x hidden).
      l.bytes += weight(Cat::Other, 2 * a.assistant_backbone_hidden, e, i);
    }
    if (eagle3 && i == 0) {
      // EAGLE-3 (eagle3.cpp load_arch_tensors): hidden_norm (attn_norm_2),
      // fc over the target layers' concatenated states, which
      // llama-quantize types as any other 2-D weight (no rule names it), and
      // with norm_before_fc the features' norm (enc.output_norm).
      const std::int64_t features = std::int64_t{a.eagle3_target_layers} * a.eagle3_target_hidden;
      l.bytes += f32(e) + weight(Cat::Other, features, e, i) +
                 (a.eagle3_norm_before_fc ? f32(features) : 0);
    }
    if (dflash) {
      // DFlash (dflash.cpp load_arch_tensors): on the first layer fc over the
      // target layers' concatenated states and the encoder's norm after it
      // (enc.output_norm); on every layer Qwen3's Q and K norms (head_dim
      // each) and DFlash2's two convolutions, each a base (hidden x taps x
      // 2) and a projection to 2 x taps x groups dynamic weights.
      const std::int64_t features = std::int64_t{a.dflash_target_layers} * e;
      l.bytes += (i == 0 ? weight(Cat::Other, features, e, i) + f32(e) : 0) + f32(2 * head_dim);
      if (a.dflash_selector_rank > 0 && a.dflash_conv_group > 0) {
        const std::int64_t k = a.dflash_conv_kernel;
        l.bytes += 2 * (weight(Cat::Other, e, 2 * k, i) +
                        weight(Cat::Other, e, 2 * k * (e / a.dflash_conv_group), i));
      }
    }
    if (roles.recurrent) {
      l.bytes += recurrent_rows > 0 ? several(Cat::Other, e, recurrent_rows, i) : 0;
    }
    if (a.attention.mamba == 3) {
      // PLaMo 2 (plamo2.cpp load_arch_tensors): attn_post_norm and
      // ffn_post_norm on every layer; the mixer's dt, B and C norms, or the
      // attention's Q and K norms, one weight row a head ({head_dim, heads}).
      l.bytes += f32(2 * e);
      l.bytes += roles.recurrent ? f32(plamo2_dt_dim(e) + 2 * a.attention.ssm_state)
                                 : f32(std::int64_t{a.heads + a.kv_heads} * head_dim);
    }
    if (a.attention.sandwich_norms) {
      // PLaMo 3 (plamo3.cpp load_arch_tensors): attn_post_norm and
      // ffn_post_norm, and one attn_q_norm and attn_k_norm of head_dim each.
      l.bytes += f32(2 * e + 2 * std::int64_t{head_dim});
    }
    if (per_layer_rows > 0) {
      l.bytes += several(Cat::Other, e, per_layer_rows, i);
    }
    if (a.hyper_connections > 0 && a.hc_low_rank > 0) {
      // Qwen4Exp's two gated residuals a layer (hc_{attn,ffn}_{norm,down,up,
      // inject}) and, on its n-gram layer, ple_key, ple_value, three norms and
      // the convolution taps (qwen4exp.cpp load_arch_tensors).
      const std::int64_t wide = std::int64_t{a.hyper_connections} * e;
      l.bytes += 2 * (f32(wide) + weight(Cat::Other, wide, a.hc_low_rank, i) +
                      weight(Cat::Other, a.hc_low_rank, wide, i) +
                      weight(Cat::Other, wide, a.hyper_connections, i));
      if (i == a.ngram_layer && a.ngram_rows > 0) {
        l.bytes += weight(Cat::Other, e, wide, i) + weight(Cat::Other, e, e, i) + f32(3 * wide) +
                   weight(Cat::Other, a.ngram_conv, wide, i);
      }
    }
    // Attention.
    const LayerWidths shape = widths_of_layer(a, i);
    if (!a.layer_widths.empty() && shape.heads > 0 && shape.kv_heads <= 0) {
      l.bytes += weight(Cat::AttnOut, e, e, i);  // deci's linear replacement: wo alone
    } else if (!roles.attention && !(roles.recurrent && recurrent_rows == 0)) {
      // a recurrent-only layer: no attention tensors
    } else if (compressed_attention(a)) {
      l.bytes += compressed_attention_bytes(a, i, weight, f32);
    } else if (uses_mla(a)) {
      // dots.llm3's windowed layers and its MTP block: their own MLA shape.
      const bool windowed =
          windowed_mla_layer_count(a) > 0 && (mtp_block || windowed_mla_layer(a, i));
      const Architecture& shaped = windowed ? windowed_mla : a;
      const auto& m = shaped.attention;
      const std::int64_t heads = shaped.heads;
      const std::int64_t qk = m.qk_nope_head_dim + m.qk_rope_head_dim;
      const std::int64_t v = m.v_head_dim > 0 ? m.v_head_dim : head_dim;
      if (m.q_lora_rank > 0) {
        l.bytes += weight(Cat::Other, e, m.q_lora_rank, i) +
                   weight(Cat::Other, m.q_lora_rank, heads * qk, i) + f32(m.q_lora_rank);
      } else {
        l.bytes += weight(Cat::AttnQ, e, heads * qk, i);
      }
      l.bytes += weight(Cat::Other, e, m.kv_lora_rank + m.qk_rope_head_dim, i) +
                 f32(m.kv_lora_rank) +
                 weight(Cat::AttnV, m.kv_lora_rank, heads * (m.qk_nope_head_dim + v), i) +
                 weight(Cat::AttnOut, heads * v, e, i);
      if (m.mla_output_gate) {  // Kimi K3's attn_gate
        l.bytes += weight(Cat::Other, e, heads * v, i);
      }
      if (m.mla_head_gate) {  // Ling 3's and dots.llm3's attn_gate, one value a head
        l.bytes += weight(Cat::Other, e, heads, i);
      }
    } else if (assistant) {
      // A Gemma 4 assistant's layer (gemma4-assistant.cpp load_arch_tensors):
      // wq and wo at the layer's head width, the query's norm (one head
      // wide), attn_post_norm, ffn_post_norm and layer_output_scale; no K or
      // V (it reads the target's cache).
      const bool global = a.attention.kind != AttentionKind::Sliding || is_global_layer(a, i);
      const std::int64_t d =
          global && a.attention.global_head_dim > 0 ? a.attention.global_head_dim : head_dim;
      l.bytes += weight(Cat::AttnQ, e, std::int64_t{a.heads} * d, i) +
                 weight(Cat::AttnOut, std::int64_t{a.heads} * d, e, i) + f32(d) + f32(2 * e) +
                 f32(1);
    } else if (layer_norm) {
      // GPT-2's one attn_qkv, quantised as attn_v (llama-quant.cpp
      // category_is_attn_v takes ATTENTION_QKV), or StarCoder2's, BERT's and
      // Phi-2's attn_q, attn_k and attn_v (gpt2_separate_qkv), only the last
      // typed as attn_v; their biases and wo's unless the family has none.
      l.bytes += (a.gpt2_separate_qkv
                      ? weight(Cat::AttnQ, e, q_dim, i) + weight(Cat::AttnK, e, kv_dim, i) +
                            weight(Cat::AttnV, e, kv_dim, i)
                      : weight(Cat::AttnV, e, q_dim + 2 * kv_dim, i)) +
                 weight(Cat::AttnOut, q_dim, e, i) +
                 (linear_bias ? f32(q_dim + 2 * kv_dim) + f32(e) : 0);
    } else if (a.attention.fused_qkv || a.attention.fused_qkv_clamp) {
      // ChatGLM (chatglm.cpp) and DBRX (dbrx.cpp): one attn_qkv, quantised as
      // attn_v is (llama-quant.cpp category_is_attn_v takes ATTENTION_QKV),
      // its bias (attn_qkv.bias) where the model has q, k and v biases
      // (ChatGLM; DBRX has none), and wo without one.
      l.bytes += weight(Cat::AttnV, e, q_dim + 2 * kv_dim, i) +
                 (a.qkv_bias ? f32(q_dim + 2 * kv_dim) : 0) + weight(Cat::AttnOut, q_dim, e, i);
      if (a.visual_expert) {
        // CogVLM's vis_attn_qkv and vis_attn_output: llama-quant.cpp's
        // tensor_get_category matches "attn_qkv.weight" and
        // "attn_output.weight" inside their names, so they are typed as
        // attn_qkv (attn_v's rule, its counter too) and attn_output are.
        l.bytes += weight(Cat::AttnV, e, q_dim + 2 * kv_dim, i) + weight(Cat::AttnOut, q_dim, e, i);
      }
    } else {
      // Gated attention (Qwen3.5): wq holds the output gate as a second
      // half of its rows (qwen35.cpp: n_embd x 2 n_head head_dim). A global
      // layer of Gemma 4 has its own head width and KV heads, and no wv
      // when its keys are its values (model.cpp,
      // global_attention_params_per_layer).
      // Step-3.5's global layers have query heads of their own and every
      // layer a head-wise gate (attn_gate, e x heads).
      const Attention& at = a.attention;
      const bool global = (at.global_head_dim > 0 || at.global_kv_heads > 0 || at.global_k_eq_v ||
                           at.global_heads > 0) &&
                          a.attention.kind == AttentionKind::Sliding && is_global_layer(a, i) &&
                          !mtp_block;
      const std::int64_t d = global && at.global_head_dim > 0 ? at.global_head_dim : head_dim;
      // Nemotron NAS: the layer's own query and KV heads.
      const std::int64_t heads = global && at.global_heads > 0 ? at.global_heads : shape.heads;
      const std::int64_t q = heads * d;
      const std::int64_t kv_heads =
          global && at.global_kv_heads > 0 ? at.global_kv_heads : shape.kv_heads;
      const std::int64_t kv = kv_heads * d;
      // MiMo-V2-Flash: V heads (and wo's input) at value_head_dim.
      const std::int64_t vd = at.value_head_dim > 0 ? at.value_head_dim : d;
      const std::int64_t q_rows = q * (at.gated_attention ? 2 : 1);
      // EAGLE-3's q, k and v read the normed embedding and features side by side.
      const std::int64_t in = eagle3 ? 2 * e : e;
      l.bytes += weight(Cat::AttnQ, in, q_rows, i) + weight(Cat::AttnK, in, kv, i) +
                 (global && at.global_k_eq_v ? 0 : weight(Cat::AttnV, in, kv_heads * vd, i)) +
                 weight(Cat::AttnOut, heads * vd, e, i) +
                 (at.output_gate ? weight(Cat::Other, e, q, i) : 0) +  // AFMoE's attn_gate
                 (at.head_gate ? weight(Cat::Other, e, heads, i) : 0);
      if (at.qk_layer_norm) {  // Chameleon's per-head Q and K LayerNorms, weight and bias
        l.bytes += f32(2 * (q + kv));
      }
      if (a.attention_bias) {  // Phi-3.5-MoE's wq_b, wk_b, wv_b, wo_b
        l.bytes += f32(q + kv + kv_heads * vd + e);
      } else if (a.qkv_bias) {  // ChatGLM converted from transformers' Glm: wq_b, wk_b, wv_b
        l.bytes += f32(q + kv + kv_heads * vd);
      }
      // MiniMax-M3's indexer on its trailing (MoE) layers: index_q_proj and
      // index_k_proj, e columns each (model.cpp gqa_indexer_params).
      // Qwen4Exp's QSA indexer is on every attention layer (indexer_layers 0).
      if (const std::int64_t indexer = gqa_indexer_params(a);
          indexer > 0 &&
          (a.attention.indexer_layers <= 0 || i >= a.layers - indexer_layer_count(a))) {
        l.bytes += several(Cat::Other, e, indexer / e, i);
      }
    }
    // T5 (t5.cpp load_arch_tensors): a decoder block's cross-attention, its
    // norm and q, k, v, o as the self-attention's; the relative-position
    // bias table (heads x buckets) on each stack's first block, which
    // llama-quantize leaves unquantised (llama-quant.cpp: attn_rel_b).
    const int encoder_layers = a.layers - std::max(0, a.decoder_layers);
    if (a.decoder_layers > 0 && i >= encoder_layers && !mtp_block) {
      l.bytes += f32(e) + weight(Cat::AttnQ, e, q_dim, i) + weight(Cat::AttnK, e, kv_dim, i) +
                 weight(Cat::AttnV, e, kv_dim, i) + weight(Cat::AttnOut, q_dim, e, i);
    }
    if (a.relative_buckets > 0 && (i == 0 || i == encoder_layers)) {
      // get_rows reads it; kept as converted (F16 beside a quantised base)
      const T t = quant ? T::F16 : f.base;
      const Bytes table = tensor_bytes(t, a.heads, a.relative_buckets);
      sink.add(t, table, Read::OtherTable, a.relative_buckets);
      l.bytes += table;
    }
    // Feed-forward.
    const bool moe_layer = roles.moe;
    if (!roles.mlp) {
      // a mixer-only layer (Nemotron-H)
    } else if (moe_layer) {
      const auto& m = *a.moe;
      const std::int64_t ff = m.expert_intermediate_size;
      const std::int64_t n = m.experts;
      l.bytes += f32(e * n);  // router, kept in F32
      if (i < a.hash_layers) {
        // DeepSeek-V4's token -> experts table (ffn_gate_tid2eid), I32,
        // which llama-quantize leaves as it is.
        const Bytes table = std::int64_t{m.experts_per_token} * a.vocab_size * 4;
        sink.add(T::F32, table, Read::OtherTable, a.vocab_size);
        l.bytes += table;
      }
      // A latent MoE's experts read and write latent-wide vectors, behind
      // its projections down and back up (Kimi K3: ffn_routed_down/_up).
      const std::int64_t x = m.latent_size > 0 ? m.latent_size : e;
      // An ungated MLP's experts have up and down alone (nomic-bert-moe.cpp
      // creates ffn_up_exps and ffn_down_exps, GELU, no ffn_gate_exps), as
      // count_params counts them.
      l.expert_bytes = (a.mlp_gated ? weight(Cat::FfnGate, x, ff * n, i, true) : 0) +
                       weight(Cat::FfnUp, x, ff * n, i, true) +
                       weight(Cat::FfnDown, ff, x * n, i, true);
      if (m.experts_per_group > 0) {
        // GroveMoE's adjugate experts (ffn_{gate,up,down}_chexps: expert
        // tensors llama-quant.cpp types as ffn_gate, ffn_up and ffn_down of
        // this layer, and --cpu-moe's pattern moves with the others)
        const std::int64_t g = m.experts / m.experts_per_group;
        const std::int64_t c = m.group_expert_width;
        l.expert_bytes += weight(Cat::FfnGate, e, c * g, i, true) +
                          weight(Cat::FfnUp, e, c * g, i, true) +
                          weight(Cat::FfnDown, c, e * g, i, true);
      }
      l.bytes += l.expert_bytes;
      if (m.latent_size > 0) {
        l.bytes += weight(Cat::Other, e, x, i) + weight(Cat::Other, x, e, i);
      }
      if (m.shared_experts > 0) {
        const std::int64_t s = shared_expert_width(m);
        l.bytes += weight(Cat::FfnGate, e, s, i) + weight(Cat::FfnUp, e, s, i) +
                   weight(Cat::FfnDown, s, e, i);
      }
      if (m.residual_mlp) {  // Arctic's dense MLP beside the experts, and their own norm
        const std::int64_t d = mlp_width(a, i);
        l.bytes += weight(Cat::FfnGate, e, d, i) + weight(Cat::FfnUp, e, d, i) +
                   weight(Cat::FfnDown, d, e, i) + f32(e);
      }
    } else if (a.mlp_gated) {
      const std::int64_t ff = mlp_width(a, i);  // Gemma 4 E2B's double-wide layers
      l.bytes += weight(Cat::FfnGate, e, ff, i) + weight(Cat::FfnUp, e, ff, i) +
                 weight(Cat::FfnDown, ff, e, i);
      if (a.sub_norms) {  // BitNet's attn_sub_norm and ffn_sub_norm
        l.bytes += f32(e + ff);
      }
      if (a.visual_expert) {
        // CogVLM's vis_gate, vis_up and vis_down: names llama-quant.cpp
        // does not match to ffn_*, so "other" weights at the base type.
        l.bytes += weight(Cat::Other, e, ff, i) + weight(Cat::Other, e, ff, i) +
                   weight(Cat::Other, ff, e, i);
      }
    } else {
      const std::int64_t ff = mlp_width(a, i);
      // GPT-2's, GPT-J's and Jais 2's MLP biases; none in Nemotron's
      l.bytes += weight(Cat::FfnUp, e, ff, i) + weight(Cat::FfnDown, ff, e, i) +
                 (linear_bias || a.mlp_bias ? f32(ff) + f32(e) : 0);
    }
    if (a.embedding_skip) {
      // Talkie (talkie.cpp load_arch_tensors): the per-head Q gain
      // (attn_q_norm {1, heads}), the skip's layer_output_scale and the wo
      // and ffn_down gains (attn_output.scale, ffn_down.scale, which
      // conversion/talkie.py writes), F32.
      l.bytes += f32(a.heads) + f32(1) + f32(1) + f32(1);
    }
    if (a.adapters > 0 && a.adapter_rank > 0) {
      // Granite Switch's stacked LoRAs (granite-switch.cpp load_arch_tensors):
      // {in, rank, slots} and {rank, out, slots} for Q, K, V, the output
      // projection, gate, up and down, slots = adapters + 1 (the zero
      // slot). Named ".lora_a"/".lora_b", which llama-quant.cpp does not
      // quantise (only names ending in "weight"): as converted, F16 from
      // conversion/base.py; read by ggml_mul_mat_id.
      const T t = quant ? T::F16 : f.base;
      const std::int64_t slots = std::int64_t{a.adapters} + 1;
      const std::int64_t values = slots * adapter_params_per_layer(a);
      const Bytes bytes = tensor_bytes(t, values, 1);
      sink.add(t, bytes, Read::Product, 0);
      l.bytes += bytes;
    }
    return l;
  };
  // The classes seen, by key in a direct-mapped table (a key's slot is a hash
  // of it; a slot taken by another key is overwritten, which only costs that
  // class being sized again).
  struct Class {
    std::uint64_t key = 0;  // the class key + 1; 0: empty slot
    LayerWeights bytes;
    int attn_v = 0;  // how far the layer moved the counters
    int ffn_down = 0;
  };
  std::array<Class, 64> classes{};
  const int n = a.layers;
  // Nemotron NAS: layers of different shapes are different classes (each
  // distinct shape numbered in order of first appearance).
  std::vector<std::uint64_t> shape_ids;
  if (!a.layer_widths.empty()) {
    std::vector<LayerWidths> seen;
    for (const LayerWidths& l : a.layer_widths) {
      const auto it = std::find_if(seen.begin(), seen.end(), [&](const LayerWidths& x) {
        return x.heads == l.heads && x.kv_heads == l.kv_heads && x.ffn == l.ffn;
      });
      shape_ids.push_back(static_cast<std::uint64_t>(it - seen.begin()));
      if (it == seen.end()) {
        seen.push_back(l);
      }
    }
  }
  const CounterClass counter_class(n);
  // attn_v's bumps count against the attn_v tensors (n_attn_v: fewer than
  // the layers where some lack attention, deci).
  const CounterClass attn_v_class(r.n_attn_v);
  for (int i = 0; i < n; ++i) {
    const LayerRoles roles = layer_roles(a, i);
    const bool moe_layer = roles.moe;
    // A dense block reads the index and its two counters once each; when all
    // three are equal (as in every dense model) one class of them is the key.
    const bool in_step =
        !moe_layer && r.i_attn_v == i && r.i_ffn_down == i && r.n_attn_v == r.n_layer;
    // A global layer of a sliding model can differ in shape (Gemma 4).
    const std::uint64_t kinds =
        std::uint64_t{roles.attention} << 26 | std::uint64_t{roles.recurrent} << 27 |
        std::uint64_t{roles.mlp} << 28 |
        std::uint64_t{is_global_layer(a, i) && !windowed_mla_layer(a, i)} << 29 |
        std::uint64_t{mlp_width(a, i) != a.intermediate_size} << 30 |
        compressed_layer_key(a, i) << 31 | std::uint64_t{i == a.ngram_layer} << 34 |
        // a draft's first layer holds its input projection (EAGLE-3's fc, a
        // Gemma 4 assistant's pre-projection)
        std::uint64_t{(eagle3 || assistant || dflash) && i == 0} << 61 |
        // T5: decoder blocks (a cross-attention) and each stack's first (the bias table)
        std::uint64_t{a.decoder_layers > 0 && i >= a.layers - a.decoder_layers} << 62 |
        std::uint64_t{a.relative_buckets > 0 && (i == 0 || i == a.layers - a.decoder_layers)}
            << 63 |
        (static_cast<std::size_t>(i) < shape_ids.size()
             ? shape_ids[static_cast<std::size_t>(i)] << 35
             : 0);
    const std::uint64_t key =
        (in_step ? counter_class(i) | std::uint64_t{1} << 25 | kinds
                 : counter_class(i) | attn_v_class(r.i_attn_v) << 6 |
                       counter_class(r.i_ffn_down) << 12 | counter_class(r.i_ffn_down + 1) << 18 |
                       std::uint64_t{moe_layer} << 24 | kinds) +
        1;
    Class& slot = classes[(key * 0x9E3779B97F4A7C15ULL) >> 58];  // Fibonacci hashing, 6 bits
    if (share_layers && slot.key == key) {
      w.layers.push_back(slot.bytes);
      r.i_attn_v += slot.attn_v;
      r.i_ffn_down += slot.ffn_down;
      continue;
    }
    const int attn_v = r.i_attn_v;
    const int ffn_down = r.i_ffn_down;
    w.layers.push_back(size_layer(i));
    slot = {key, w.layers.back(), r.i_attn_v - attn_v, r.i_ffn_down - ffn_down};
  }
  if (a.mtp_layers > 0) {
    // Multi-token-prediction blocks: the layer's tensors again, plus eh_proj.
    // Step-3.5's (mtp_dense): a windowed layer with a dense MLP, plus its
    // own output head (K-EXAONE and MiMo-V2-Flash read the trunk's), sized
    // as the first such layer of the trunk, or as the last layer made one
    // (MiMo-V2-Flash's one dense layer is global).
    int like = std::max(0, n - 1);
    for (int i = 0; a.mtp_dense && i < n; ++i) {
      if (!is_global_layer(a, i) && !layer_roles(a, i).moe) {
        like = i;
        break;
      }
    }
    const LayerWeights mtp = size_layer(like, a.mtp_dense);
    w.other =
        a.mtp_layers *
        (mtp.bytes + weight(Cat::Other, 2 * e, e, n - 1) +
         (a.mtp_dense && !a.mtp_shares_head ? weight(Cat::Other, e, a.vocab_size, n - 1) : 0));
  }
  return w;
}

// A flat width over the architecture's parameter groups, scaled so the total
// is exactly `total` (params x bits / 8 or a file's bytes). The vision
// encoder and projector are not part of it (projector_bytes).
WeightLayout flat_layout(const Model& m, const Precision& p) {
  const Architecture& a = m.arch;
  const ParamBreakdown pb = m.inferred_groups ? *m.inferred_groups : count_params(a);
  const bool linear_only = p.scope == WeightScope::LinearOnly;
  const double bits = p.bits_per_weight;
  const double other_bits = linear_only ? 16.0 : bits;
  const auto bytes = [](double params, double b) { return params * b / 8.0; };
  const int layers = std::max(0, a.layers);
  const std::int64_t matrices = a.mlp_gated ? 3 : 2;
  const std::int64_t attention = attention_params_per_layer(a);
  const std::int64_t recurrent =
      a.attention.recurrent_params > 0 ? a.attention.recurrent_params : attention;
  // Spread over the blocks: whatever of the mixer group is not one layer's
  // attention or recurrent mixer (Gemma 3n's per-layer projections).
  const std::int64_t mixer_rest = layers > 0
                                      ? (pb.attention - attention * attention_layer_count(a) -
                                         recurrent * recurrent_layer_count(a)) /
                                            layers
                                      : 0;
  WeightLayout w;
  double embd = bytes(static_cast<double>(pb.embedding), other_bits);
  double out = bytes(static_cast<double>(pb.output), other_bits);
  double other = bytes(static_cast<double>(pb.mtp), bits);
  // A block's bytes and its routed experts' bytes, before scaling, by the
  // kinds of layer it holds (a handful of classes: see layer_roles).
  struct BlockBytes {
    double bytes = 0;
    double experts = 0;
  };
  const auto block_bytes = [&](const LayerRoles& roles) {
    BlockBytes b;
    double mlp = 0;
    if (!roles.mlp) {
      mlp = 0;
    } else if (roles.moe) {
      const auto& mo = *a.moe;
      const double expert =
          static_cast<double>(matrices * a.hidden_size * mo.expert_intermediate_size);
      // count_params's latent experts (Kimi K3)
      const double routed =
          mo.latent_size > 0
              ? static_cast<double>(matrices * mo.latent_size * mo.expert_intermediate_size)
              : expert;
      // GroveMoE's adjugate experts beside the routed ones (Moe::experts_per_group)
      const double adjugate =
          mo.experts_per_group > 0
              ? static_cast<double>(matrices * a.hidden_size * mo.group_expert_width *
                                    (mo.experts / mo.experts_per_group))
              : 0.0;
      b.experts = bytes(routed * mo.experts + adjugate, bits);
      // Arctic's residual MLP beside the experts (Moe::residual_mlp)
      const double beside =
          mo.residual_mlp ? static_cast<double>(matrices * a.hidden_size * a.intermediate_size)
                          : 0.0;
      mlp = b.experts +
            bytes(static_cast<double>(matrices * a.hidden_size * shared_expert_width(mo)) + beside +
                      static_cast<double>(a.hidden_size * (mo.experts + 2 * mo.latent_size)),
                  bits);
    } else if (!a.moe) {
      // matrices x hidden x intermediate, or an inferred shape's smooth share
      mlp = bytes(static_cast<double>(pb.mlp) / std::max(1, mlp_layer_count(a)), bits);
    } else {
      mlp = bytes(static_cast<double>(matrices * a.hidden_size * a.intermediate_size), bits);
    }
    double mixer = static_cast<double>(mixer_rest);
    if (m.inferred_groups) {
      mixer = static_cast<double>(pb.attention) / std::max(1, layers);
    } else {
      mixer += roles.attention || (roles.recurrent && a.attention.recurrent_params == 0)
                   ? static_cast<double>(attention)
                   : 0.0;
      mixer += roles.recurrent && a.attention.recurrent_params > 0
                   ? static_cast<double>(a.attention.recurrent_params)
                   : 0.0;
    }
    b.bytes = bytes(mixer, bits) + mlp;
    return b;
  };
  std::array<std::pair<bool, BlockBytes>, 16> seen{};  // by the roles' bits
  const auto layer_bytes = [&](int i) -> const BlockBytes& {
    const LayerRoles roles = layer_roles(a, i);
    const auto key = static_cast<std::size_t>(int{roles.attention} | int{roles.recurrent} << 1 |
                                              int{roles.mlp} << 2 | int{roles.moe} << 3);
    if (!seen[key].first) {
      seen[key] = {true, block_bytes(roles)};
    }
    return seen[key].second;
  };
  double sum = embd + out + other;
  for (int i = 0; i < layers; ++i) {
    sum += layer_bytes(i).bytes;
  }
  // The stated parameter count wins over the architecture's (they differ by
  // norms, biases and rounding): scale every group to it. The vision encoder's
  // parameters are in the stated count and go to the projector instead.
  double target = 0;
  const auto params = static_cast<double>(std::max<std::int64_t>(0, m.params - pb.vision));
  if (!linear_only) {
    target = params * bits / 8.0;
  } else {
    const double counted = std::max(1.0, static_cast<double>(pb.total() - pb.vision));
    const double share =
        std::clamp(static_cast<double>(pb.embedding + pb.output) / counted, 0.0, 1.0);
    target = (params - params * share) * bits / 8.0 + params * share * 2.0;
  }
  const double scale = sum > 0 ? target / sum : 0.0;
  w.token_embd = round_bytes(embd * scale);
  w.output = round_bytes(out * scale);
  w.other = round_bytes(other * scale);
  Bytes placed = w.token_embd + w.output + w.other;
  w.layers.reserve(static_cast<std::size_t>(layers));
  for (int i = 0; i < layers; ++i) {
    const BlockBytes& b = layer_bytes(i);
    w.layers.push_back({round_bytes(b.bytes * scale), round_bytes(b.experts * scale)});
    placed += w.layers.back().bytes;
  }
  // Put the rounding remainder in the output group so the total is exact.
  w.output += round_bytes(target) - placed;
  if (sum <= 0) {
    w.other = round_bytes(target);
    w.output = 0;
  }
  return w;
}

// An inferred shape (Model::inferred_groups): the recipe sizes the rounded
// shape's tensors; each group is then rescaled to the smooth shape's count,
// keeping its bytes per weight, so the bytes follow the stated size smoothly.
// The F32 norms (two per gated block, one before the head) stay as counted.
void scale_to_groups(WeightLayout& w, const Architecture& a, const ParamBreakdown& want) {
  const ParamBreakdown have = count_params(a);
  const auto ratio = [](std::int64_t to, std::int64_t from) {
    return from > 0 ? static_cast<double>(to) / static_cast<double>(from) : 0.0;
  };
  const auto rescale = [](Bytes bytes, Bytes fixed, double r) {
    return fixed + round_bytes(static_cast<double>(bytes - fixed) * r);
  };
  const Bytes norm = a.hidden_size * 4;
  w.token_embd = rescale(w.token_embd, 0, ratio(want.embedding, have.embedding));
  if (have.output > 0) {
    w.output = rescale(w.output, norm, ratio(want.output, have.output));
  }
  const double blocks = ratio(want.linear(), have.linear());
  for (auto& l : w.layers) {
    l.bytes = rescale(l.bytes, 2 * norm, blocks);
    l.expert_bytes = rescale(l.expert_bytes, 0, blocks);
  }
}

void scale_to(WeightLayout& w, Bytes total) {
  const Bytes have = w.total();
  if (have <= 0 || have == total) {
    return;
  }
  const double s = static_cast<double>(total) / static_cast<double>(have);
  w.token_embd = round_bytes(static_cast<double>(w.token_embd) * s);
  w.other = round_bytes(static_cast<double>(w.other) * s);
  for (auto& l : w.layers) {
    l.bytes = round_bytes(static_cast<double>(l.bytes) * s);
    l.expert_bytes = round_bytes(static_cast<double>(l.expert_bytes) * s);
  }
  w.output = 0;
  w.output = total - w.total();
}

}  // namespace

Bytes WeightLayout::repeating() const {
  Bytes sum = 0;
  for (const auto& l : layers) {
    sum += l.bytes;
  }
  return sum;
}

Bytes WeightLayout::experts() const {
  Bytes sum = 0;
  for (const auto& l : layers) {
    sum += l.expert_bytes;
  }
  return sum;
}

Bytes projector_bytes(const Model& model, const Precision& precision) {
  if (model.mmproj) {
    return model.mmproj->bytes;  // the file's own tensors, whatever --precision says
  }
  // llama.cpp's --mmproj files are published in F16 whatever the language
  // model's quantisation (convert_hf_to_gguf.py --mmproj writes F16 by
  // default), and vLLM and transformers keep the vision tower in the
  // checkpoint's 16-bit dtype when the language model is quantised. FP32 is
  // the one precision that widens it.
  const double bytes_per = precision.bits_per_weight >= 32.0 ? 4.0 : 2.0;
  return round_bytes(static_cast<double>(std::max<std::int64_t>(0, model.arch.vision_params)) *
                     bytes_per);
}

bool loads_output_from_embeddings(const Architecture& a) {
  return a.tied_embeddings && !a.no_output_head;
}

bool has_gguf_recipe(const Precision& precision) {
  return find_file_type(precision) != nullptr;
}

namespace {

WeightLayout layout_of(const Model& model, const Precision& precision, bool share_layers) {
  const Architecture& a = model.arch;
  const bool shaped = a.layers > 0 && a.hidden_size > 0 && a.vocab_size > 0 && a.heads > 0;
  // A bare size ("13b") has an assumed shape whose vocabulary may be far from
  // the real model's; for the mixes the whole-file bits measured on a real
  // file are closer there (median 0.7 % against 0.9 %, and never the 11 % the
  // assumed vocabulary costs a 32000-token model: README accuracy table).
  const bool mix_on_assumed = model.assumed() && precision.kind == PrecisionKind::GgufMix;
  const FtName* f = shaped && !mix_on_assumed ? find_file_type(precision) : nullptr;
  const bool recipe = f != nullptr;
  WeightLayout w =
      recipe ? recipe_layout(a, *f, model.quantizer, share_layers) : flat_layout(model, precision);
  if (recipe && model.inferred_groups && a.mlp_gated && !a.moe) {
    scale_to_groups(w, a, *model.inferred_groups);
  }
  if (model.file_weight_bytes) {
    scale_to(w, *model.file_weight_bytes);
  }
  w.projector = projector_bytes(model, precision);
  return w;
}

}  // namespace

WeightLayout weight_layout(const Model& model, const Precision& precision) {
  return layout_of(model, precision, true);
}

std::vector<TypedWeights> typed_weights(const Model& model, const Precision& precision) {
  std::vector<TypedWeights> mix;
  if (!model.weight_mix.empty()) {
    // From the file: every tensor by type; the experts and the token
    // embeddings by name (gguf.cpp).
    for (const auto& row : model.weight_mix) {
      TypedWeights& w = mix.emplace_back(TypedWeights{.type = row.type, .matmul = row.bytes});
      const auto take = [&](const std::vector<Model::TypeBytes>& part, Bytes& into) {
        for (const auto& p : part) {
          if (p.type == row.type) {
            into += p.bytes;
            w.matmul -= p.bytes;
          }
        }
      };
      take(model.expert_mix, w.experts);
      take(model.batched_mix, w.batched);
      for (const auto& p : model.batched_mix) {
        w.batched_slice += p.type == row.type ? p.slice_bytes : 0;
      }
      take(model.narrow_mix, w.narrow);
      take(model.plain_mix, w.plain);
      for (const auto& p : model.rows_off8_mix) {  // parts of narrow and experts
        w.rows_off8 += p.type == row.type ? p.bytes : 0;
      }
      for (const auto& p : model.rows_off4_mix) {
        w.rows_off4 += p.type == row.type ? p.bytes : 0;
      }
      if (row.type == model.token_embd_type) {
        w.embeddings += model.token_embd_bytes;
        w.matmul -= model.token_embd_bytes;
        w.tied_output = loads_output_from_embeddings(model.arch) ? model.token_embd_bytes : 0;
        w.tied_output_narrow = model.arch.vocab_size % 32 != 0;
        w.tied_output_off8 = model.arch.vocab_size % 8 != 0;
        w.tied_output_off4 = model.arch.vocab_size % 4 != 0;
      }
    }
    return mix;
  }
  const Architecture& a = model.arch;
  const FtName* f = find_file_type(precision);
  if (f == nullptr || a.layers <= 0 || a.hidden_size <= 0 || a.vocab_size <= 0 || a.heads <= 0) {
    return mix;
  }
  const WeightLayout recipe = recipe_layout(a, *f, model.quantizer, false,
                                            TensorSink{&mix, loads_output_from_embeddings(a)});
  const Bytes want = weight_layout(model, precision).total();
  const Bytes have = recipe.total();
  if (have > 0 && want != have) {
    const double s = static_cast<double>(want) / static_cast<double>(have);
    for (auto& w : mix) {
      w.matmul = round_bytes(static_cast<double>(w.matmul) * s);
      w.experts = round_bytes(static_cast<double>(w.experts) * s);
      w.embeddings = round_bytes(static_cast<double>(w.embeddings) * s);
      w.tied_output = round_bytes(static_cast<double>(w.tied_output) * s);
      w.narrow = round_bytes(static_cast<double>(w.narrow) * s);
      w.batched = round_bytes(static_cast<double>(w.batched) * s);
      w.plain = round_bytes(static_cast<double>(w.plain) * s);
      w.rows_off8 = round_bytes(static_cast<double>(w.rows_off8) * s);
      w.rows_off4 = round_bytes(static_cast<double>(w.rows_off4) * s);
    }
  }
  return mix;
}

Bytes mlx_gguf_bytes(const Model& model, const Precision& precision) {
  // Weights by type: their count (bytes over the type's block) and the bits
  // MLX holds each at.
  double values = 0;
  double bits = 0;  // summed over the weights
  for (const TypedWeights& w : typed_weights(model, precision)) {
    const Bytes bytes = w.matmul + w.experts + w.embeddings + w.narrow + w.batched + w.plain;
    const auto t = std::find(kTypeNames.begin(), kTypeNames.end(), w.type);
    // I8/I16/I32 are kept as MLX's integers: bytes for bytes; BF16, missing
    // from this table, is cast to F16 (2 bytes a value).
    const bool integer = w.type == "I8" || w.type == "I16" || w.type == "I32";
    const Block b = t != kTypeNames.end() ? block_of(static_cast<T>(t - kTypeNames.begin()))
                    : integer             ? Block{1, 1}
                                          : Block{2, 1};
    const double n =
        static_cast<double>(bytes) * static_cast<double>(b.elems) / static_cast<double>(b.bytes);
    const double held = integer                                ? 8.0
                        : w.type == "F32"                      ? 32.0
                        : w.type == "Q4_0" || w.type == "Q4_1" ? 5.0
                        : w.type == "Q8_0"                     ? 9.0
                                                               : 16.0;
    values += n;
    bits += n * held;
  }
  if (values <= 0) {
    return 0;
  }
  if (!model.weight_mix.empty()) {
    return round_bytes(bits / 8.0);  // a file's own tensors: exact counts
  }
  // A recipe's bytes are scaled to the estimate's total for the precision
  // (typed_weights), so its counts are too: take its mean bits over the
  // weights of the 16-bit layout of the same shape.
  Model shape = model;
  shape.file_weight_bytes.reset();
  const auto f16 = parse_precision("f16");
  const Bytes f16_total = f16 ? weight_layout(shape, *f16).total() : 0;
  return round_bytes(static_cast<double>(f16_total) * (bits / values) / 16.0);
}

std::string gguf_file_type_from_mix(const Model& model) {
  // The file's bytes per ggml type against each recipe's, over the same
  // shape. The recipe counts the weights the shape names, not every bias or
  // small F32 vector a converter adds, so a match is within a tolerance: the
  // types that hold 1 % or more of the bytes are the same, and the bytes
  // moved between types are under 2 % of the total. The recipes differ by
  // whole tensor classes (Q4_K_S's attn_v and ffn_down at Q5_K, Q4_K_M's at
  // Q6_K in the layers use_more_bits picks; about 10 % of a Llama's bytes),
  // so no two are that close.
  Bytes file_total = 0;
  for (const auto& row : model.weight_mix) {
    file_total += row.bytes;
  }
  if (file_total <= 0) {
    return "";
  }
  Model shape = model;
  shape.weight_mix.clear();
  shape.expert_mix.clear();
  shape.batched_mix.clear();
  shape.narrow_mix.clear();
  shape.plain_mix.clear();
  shape.rows_off8_mix.clear();
  shape.rows_off4_mix.clear();
  shape.file_weight_bytes.reset();
  std::string best;
  double best_moved = 0.02;
  for (const Precision& p : all_precisions()) {
    if (!has_gguf_recipe(p)) {
      continue;
    }
    std::map<std::string, Bytes> diff;
    Bytes recipe_total = 0;
    for (const TypedWeights& w : typed_weights(shape, p)) {
      const Bytes b = w.total();
      diff[w.type] -= b;
      recipe_total += b;
    }
    if (recipe_total <= 0) {
      continue;
    }
    for (const auto& row : model.weight_mix) {
      diff[row.type] += row.bytes;
    }
    // Each side's share of a type, so a shape that misses a few tensors
    // altogether moves no type.
    const double f = static_cast<double>(file_total);
    const double r = static_cast<double>(recipe_total);
    double moved = 0;
    bool same_types = true;
    for (const auto& [type, d] : diff) {
      Bytes in_file = 0;
      for (const auto& row : model.weight_mix) {
        in_file += row.type == type ? row.bytes : 0;
      }
      const double file_share = static_cast<double>(in_file) / f;
      const double recipe_share = static_cast<double>(in_file - d) / r;
      same_types = same_types && ((file_share >= 0.01) == (recipe_share >= 0.01) ||
                                  std::abs(file_share - recipe_share) < 0.005);
      moved += std::abs(file_share - recipe_share) / 2;
    }
    if (same_types && moved < best_moved) {
      best = p.id;
      best_moved = moved;
    }
  }
  return best;
}

namespace detail {
WeightLayout weight_layout_each_layer(const Model& model, const Precision& precision) {
  return layout_of(model, precision, false);
}
}  // namespace detail

}  // namespace willfit
