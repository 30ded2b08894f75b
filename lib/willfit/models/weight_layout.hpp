// Where a model's weight bytes are: token embeddings, each transformer block
// (and the routed experts inside it), the output head. GGUF file types follow
// llama.cpp's per-tensor quantisation recipe (Ollama's where Model::quantizer
// says so); other precisions spread a flat
// width over the same tensors. Pure; knows nothing of devices or runtimes.
#pragma once

#include <string>
#include <vector>

#include "willfit/core/precision.hpp"
#include "willfit/core/units.hpp"
#include "willfit/models/model.hpp"

namespace willfit {

// One transformer block.
struct LayerWeights {
  Bytes bytes = 0;         // every tensor of the block, experts included
  Bytes expert_bytes = 0;  // the routed-expert FFN tensors (what --n-cpu-moe keeps on the CPU)
};

struct WeightLayout {
  Bytes token_embd = 0;  // input embeddings: llama.cpp keeps them in system RAM
  Bytes output = 0;      // output norm and head (the head is the embedding again when tied)
  Bytes other = 0;       // multi-token-prediction blocks and anything outside the blocks
  // The vision/audio encoder and projector (llama.cpp's --mmproj file): not
  // in total(), so runtimes show it as a term of its own ("projector").
  Bytes projector = 0;
  std::vector<LayerWeights> layers;
  bool recipe = false;  // true: sized tensor by tensor with llama.cpp's recipe
  [[nodiscard]] Bytes repeating() const;
  [[nodiscard]] Bytes experts() const;
  [[nodiscard]] Bytes total() const { return token_embd + output + other + repeating(); }
};

// The bytes of every weight of `model` at `precision`, tensor group by group.
// With a file's exact total (Model::file_weight_bytes) the layout is scaled to it.
WeightLayout weight_layout(const Model& model, const Precision& precision);

namespace detail {
// weight_layout() sizing every block of a recipe on its own, instead of once
// per class of blocks the recipe treats alike (a test checks they agree).
WeightLayout weight_layout_each_layer(const Model& model, const Precision& precision);
}  // namespace detail

// Weight bytes of one ggml type, by how llama.cpp reads the tensors: what
// its CPU backend copies into its own layouts depends on that (runtime.cpp,
// cpu_extra_buffers).
struct TypedWeights {
  std::string type;  // ggml type name: "Q4_K", "F32"
  // Read by a matrix product of a 2-D weight whose output rows are a multiple
  // of 32: attention, MLP, output head.
  Bytes matmul = 0;
  Bytes experts = 0;     // routed-expert tensors (3-D, read by mul_mat_id)
  Bytes embeddings = 0;  // token embeddings (read by get_rows)
  // Tied embeddings: the output layer is the embedding tensor loaded a second
  // time for a matrix product (llama.cpp TENSOR_DUPLICATED), no bytes of the
  // file's own; its size when that is so, else 0.
  Bytes tied_output = 0;
  // That output head has a vocabulary that is not a multiple of 32 rows
  // (GPT-2's 50257): AMX refuses it as it does `narrow`.
  bool tied_output_narrow = false;
  // 2-D matrix-product weights whose output rows are not a multiple of 32
  // (Qwen3.5's 16-row ssm_alpha and ssm_beta), and the norms and biases
  // (vectors: one row).
  Bytes narrow = 0;
  // 3-D weights of a batched matrix product (MLA's per-head attn_k_b, attn_v_b),
  // and the bytes of one 2-D slice of each.
  Bytes batched = 0;
  Bytes batched_slice = 0;
  // Read by nothing a CPU extra buffer takes: the other tables get_rows reads
  // (Gemma 3n's per-layer embeddings, learned positions) and batched
  // products of narrow rows.
  Bytes plain = 0;
  // Of narrow and experts: the bytes whose output rows are not a multiple
  // of 8, and of 4, which CPU_REPACK does not take (its row interleave;
  // Model::rows_off8_mix). A tied output head's vocabulary likewise.
  Bytes rows_off8 = 0;
  Bytes rows_off4 = 0;
  bool tied_output_off8 = false;
  bool tied_output_off4 = false;
  Bytes total() const { return matmul + experts + embeddings + narrow + batched + plain; }
};

// Whether llama.cpp loads the token embeddings a second time as the output
// head (tied embeddings, TENSOR_DUPLICATED): not for a model without a head.
bool loads_output_from_embeddings(const Architecture& a);

// The type mix of `model` at `precision`: the file's tensors when it has
// them (Model::weight_mix), else llama.cpp's recipe tensor by tensor (the
// types of weight_layout), scaled to weight_layout()'s total when that is
// not the recipe's own (a bare size's assumed shape). Empty for a precision
// that is not a llama.cpp file type.
std::vector<TypedWeights> typed_weights(const Model& model, const Precision& precision);

// The bytes MLX holds for the GGUF that `model` at `precision` stands for
// (the file's tensors when it was read, else llama.cpp's recipe), as
// mlx.core.load lays them out (ml-explore/mlx mlx/io/gguf.cpp at 846d1762):
// Q4_0 and Q4_1 at 5 bits and Q8_0 at 9 (affine, a 16-bit scale and bias per
// 32 weights: gguf_quants.cpp), F32, F16 and the integer types as they are,
// every other type cast to F16. 0 when the shape gives no tensors.
Bytes mlx_gguf_bytes(const Model& model, const Precision& precision);

// The vision/audio encoder and projector at the width runtimes load it.
Bytes projector_bytes(const Model& model, const Precision& precision);

// True when `precision` is a llama.cpp file type whose recipe weight_layout models.
bool has_gguf_recipe(const Precision& precision);

// The llama.cpp file type whose recipe (llama-quant.cpp, replayed by
// weight_layout over the model's shape) gives the bytes of each ggml type of
// a read file (Model::weight_mix), for a GGUF without general.file_type: its
// precision id ("q4_k_m", "q8_0"), or "" when no recipe gives that mix.
std::string gguf_file_type_from_mix(const Model& model);

}  // namespace willfit
