// Where a model's weight bytes are: token embeddings, each transformer block
// (and the routed experts inside it), the output head. GGUF file types follow
// llama.cpp's per-tensor quantisation recipe; other precisions spread a flat
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

// The vision/audio encoder and projector at the width runtimes load it.
Bytes projector_bytes(const Model& model, const Precision& precision);

// True when `precision` is a llama.cpp file type whose recipe weight_layout models.
bool has_gguf_recipe(const Precision& precision);

}  // namespace willfit
