// What willfit knows about a model: its parameter counts and architecture,
// and where each fact came from. Also: an architecture inferred from a bare
// size ("13b"), fitted to real model families. Pure; no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "willfit/core/expected.hpp"
#include "willfit/models/model_size.hpp"

namespace willfit {

enum class AttentionKind { Full, Sliding, Mla, Hybrid };
std::string_view to_string(AttentionKind kind);  // "full", "sliding", "mla", "hybrid"

struct Attention {
  AttentionKind kind = AttentionKind::Full;
  std::int64_t sliding_window = 0;  // tokens, for Sliding
  int sliding_pattern = 0;          // every N-th layer is global; 0 or 1: every layer windowed
  int kv_lora_rank = 0;             // MLA latent width (DeepSeek-V3: 512)
  int qk_rope_head_dim = 0;         // MLA rope dims (64)
  int q_lora_rank = 0;
  int qk_nope_head_dim = 0;
  int v_head_dim = 0;
  int attention_layers = 0;  // Hybrid: layers that carry a KV cache (0 = all)
  // Hybrid: F32 values of fixed recurrent state per sequence in each of the
  // other layers (Mamba: (d_conv-1)(d_inner + 2 n_group d_state) + d_state d_inner;
  // GatedDeltaNet: (d_conv-1) conv_dim + v_heads k_dim v_dim). 0 = unknown.
  std::int64_t recurrent_state_floats = 0;
};

struct Moe {
  int experts = 0;
  int experts_per_token = 0;
  int shared_experts = 0;
  std::int64_t expert_intermediate_size = 0;
  int first_dense_layers = 0;  // leading layers with a dense MLP (DeepSeek)
};

struct Architecture {
  int layers = 0;
  std::int64_t hidden_size = 0;
  std::int64_t intermediate_size = 0;
  bool mlp_gated = true;  // SwiGLU/GeGLU: three matrices; GPT-2/BERT style: two
  int heads = 0;
  int kv_heads = 0;
  int head_dim = 0;
  std::int64_t vocab_size = 0;
  bool tied_embeddings = false;
  std::int64_t max_context = 0;
  Attention attention;
  std::optional<Moe> moe;
  std::int64_t vision_params = 0;
};

// Parameter counts recomputed from an architecture. Attention: q, k, v and o
// projections (MLA: the latent projections); MLP: 3 (gated) or 2 matrices of
// hidden x intermediate; embeddings once, the output head again unless tied.
// Norms and biases are left out (well under 0.1 % of any real model).
struct ParamBreakdown {
  std::int64_t embedding = 0;   // token embeddings
  std::int64_t output = 0;      // output head (0 when tied)
  std::int64_t attention = 0;   // all layers
  std::int64_t mlp = 0;         // all layers, all experts
  std::int64_t mlp_active = 0;  // all layers, experts used per token
  std::int64_t vision = 0;
  [[nodiscard]] std::int64_t total() const { return embedding + output + attention + mlp + vision; }
  [[nodiscard]] std::int64_t active() const {
    return embedding + output + attention + mlp_active + vision;
  }
  // Weights inside the transformer blocks' linear layers (what GPTQ/AWQ/NF4 quantise).
  [[nodiscard]] std::int64_t linear() const { return attention + mlp; }
};

// Where a model's facts came from; printed, and in JSON as model.source.
enum class FactSource { Catalogue, Gguf, Safetensors, Config, Assumed };
std::string_view to_string(FactSource source);

// Where the model was read from (issue 15), for the text answer and JSON
// model.origin. Plain data: app/ fills it in.
struct ModelOrigin {
  std::string kind;      // file | catalogue | size | hf | ollama | url | hf_cache | ollama_store
  std::string ref;       // what names it: the path, "hf.co/ORG/REPO", the Ollama name
  std::string revision;  // commit or blob digest; "" when there is none
  std::vector<std::string> files;  // the files whose headers were read
  std::int64_t bytes_read = 0;     // from the network (0 when cached or local)
  std::int64_t requests = 0;       // HTTP requests, redirects included
  bool cached = false;             // answered from willfit's cache, no request
};

struct Model {
  std::string name;    // "Llama-3.1-8B" or "13b"
  std::string id;      // catalogue id, or the normalised size text
  std::string family;  // for "a smaller member of the same family"
  std::int64_t params = 0;
  std::int64_t active_params = 0;  // == params for dense models
  Architecture arch;
  FactSource source = FactSource::Assumed;
  // Exact weight bytes when a file told us (GGUF tensor table, safetensors
  // header); the estimate then uses them instead of params x bits.
  std::optional<std::int64_t> file_weight_bytes;
  std::vector<std::string> notes;  // what was assumed or derived, for the user
  // A precision the name or file implies ("qwen2.5:7b-q4_K_M", a GGUF's
  // general.file_type, config.json's torch_dtype); used when --precision is
  // not given. "" when nothing is implied.
  std::string precision_hint;
  // Where file_weight_bytes came from (gguf or safetensors) when it is set.
  std::optional<FactSource> weights_source;
  // The file's weight bytes per tensor type ("Q4_K", "F32"), largest first.
  struct TypeBytes {
    std::string type;
    std::int64_t bytes = 0;
    std::int64_t tensors = 0;
  };
  std::vector<TypeBytes> weight_mix;
  // A shape inferred from a bare dense size ("13b") is rounded to whole
  // heads, layers and 256-wide blocks, so its own count misses the size by a
  // few per cent. These are the parameter groups the weights are laid out by
  // instead: from the unrounded shape, summing to `params` exactly, and
  // changing smoothly with it (model.cpp). Empty for every other model:
  // count_params(arch) is used.
  std::optional<ParamBreakdown> inferred_groups;
  std::optional<ModelOrigin> origin;  // set by app/ when it resolves MODEL
  [[nodiscard]] bool assumed() const { return source == FactSource::Assumed; }
  [[nodiscard]] bool is_moe() const { return arch.moe.has_value() && arch.moe->experts > 0; }
};

ParamBreakdown count_params(const Architecture& arch);

// Per-layer attention parameter count (q, k, v, o or the MLA equivalent).
std::int64_t attention_params_per_layer(const Architecture& arch);

// One line on the attention layout, experts and vision tower ("sliding
// window of 1024 tokens on 52 of 62 layers; ..."), for notes and listings.
std::string describe_shape(const Model& model);

// Infers a plausible architecture for a bare size, fitted to real families
// (see model.cpp for the anchors and their sources). The result's params equal
// the size given (NxM: the count of N experts shaped like an M model); every
// architectural fact is marked assumed, and each dimension that sizes memory
// never shrinks as the size grows.
Expected<Model> model_from_size(const SizeSpec& size);

}  // namespace willfit
