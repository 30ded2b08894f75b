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
  Bytes matmul = 0;  // read by a matrix product of a 2-D weight: attention, MLP, output head, norms
  Bytes experts = 0;     // routed-expert tensors (3-D, read by mul_mat_id)
  Bytes embeddings = 0;  // token embeddings (read by get_rows)
  // Tied embeddings: the output layer is the embedding tensor loaded a second
  // time for a matrix product (llama.cpp TENSOR_DUPLICATED), no bytes of the
  // file's own; its size when that is so, else 0.
  Bytes tied_output = 0;
};

// The type mix of `model` at `precision`: the file's tensors when it has
// them (Model::weight_mix), else llama.cpp's recipe tensor by tensor (the
// types of weight_layout), scaled to weight_layout()'s total when that is
// not the recipe's own (a bare size's assumed shape). Empty for a precision
// that is not a llama.cpp file type.
std::vector<TypedWeights> typed_weights(const Model& model, const Precision& precision);

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
