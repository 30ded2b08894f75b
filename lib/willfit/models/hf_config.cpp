// Reading a Hugging Face config.json.
//
// transformers spells one fact many ways across model families (GPT-2's
// n_layer and n_embd, Falcon's multi_query, Mixtral's num_local_experts,
// DeepSeek's n_routed_experts), and multimodal models nest the language
// model's keys under text_config. So the text keys are merged (text_config
// over the top level) and each fact is looked up under its known spellings.
// Defaults follow the transformers config classes: kv heads = heads, head dim
// = hidden / heads, a window on every layer when sliding_window is set with
// no layer pattern (Mistral v0.1, Phi-3 4k) unless use_sliding_window is false
// (Qwen2), Gemma 2 alternating and Gemma 3 one global layer in six
// (data/README.md). A config has no parameter count, so parameters are
// counted from the architecture (count_params); a vision tower's from
// vision_config, tensor by tensor for the towers whose layout is known
// (vision_estimate says which) and as layers x (4 h^2 + 2 h ffn) otherwise.
#include "willfit/models/hf_config.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "willfit/core/json_limits.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/core/text.hpp"
#include "willfit/models/plamo2.hpp"
#include "willfit/models/rwkv.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;

// The first of `keys` present as a positive whole number (or a float with no
// fraction), capped at `hi`.
std::optional<std::int64_t> get_int(const Json& j, std::initializer_list<const char*> keys,
                                    std::int64_t hi = std::int64_t{1} << 40) {
  for (const char* k : keys) {
    const auto it = j.find(k);
    if (it == j.end() || it->is_null()) {
      continue;
    }
    if (it->is_number_integer() && it->get<std::int64_t>() > 0 &&
        (!it->is_number_unsigned() || it->get<std::uint64_t>() <= static_cast<std::uint64_t>(hi))) {
      return std::min(it->get<std::int64_t>(), hi);
    }
    if (it->is_number_float()) {
      const double v = it->get<double>();
      if (v > 0 && v <= static_cast<double>(hi) && std::floor(v) == v) {
        return static_cast<std::int64_t>(v);
      }
    }
  }
  return std::nullopt;
}

// get_int, or the first element of a per-layer list (Hunyuan-A13B's
// moe_topk, moe_intermediate_size and num_shared_expert, one value a layer;
// llama.cpp's converter, conversion/hunyuan.py, takes the first).
std::optional<std::int64_t> get_int_or_first(const Json& j, std::initializer_list<const char*> keys,
                                             std::int64_t hi = std::int64_t{1} << 40) {
  for (const char* k : keys) {
    const auto it = j.find(k);
    if (it != j.end() && it->is_array() && !it->empty()) {
      return get_int(Json{{"v", it->front()}}, {"v"}, hi);
    }
    if (const auto v = get_int(j, {k}, hi)) {
      return v;
    }
  }
  return std::nullopt;
}

std::string get_string(const Json& j, const char* key) {
  const auto it = j.find(key);
  return (it != j.end() && it->is_string()) ? it->get<std::string>() : "";
}

std::optional<bool> get_bool(const Json& j, const char* key) {
  const auto it = j.find(key);
  if (it != j.end() && it->is_boolean()) {
    return it->get<bool>();
  }
  return std::nullopt;
}

// layer_types as Attention::window_layers: 'S' for "sliding_attention",
// 'G' for any other kind, one a layer; "" when the key is not a list of at
// least `layers` entries.
std::string listed_window_layers(const Json& t, int layers) {
  const auto it = t.find("layer_types");
  if (it == t.end() || !it->is_array() || std::ssize(*it) < layers) {
    return {};
  }
  std::string listed;
  for (int i = 0; i < layers; ++i) {
    listed += (*it)[static_cast<std::size_t>(i)] == "sliding_attention" ? 'S' : 'G';
  }
  return listed;
}

// A `window`-token sliding window on the layers `listed` marks 'S' (as
// listed_window_layers gives them); the pattern is the global layers'
// spacing, for the readers that take a period.
void window_listed_layers(Architecture& a, std::string listed, std::int64_t window) {
  a.attention.kind = AttentionKind::Sliding;
  a.attention.sliding_window = window;
  const auto global = std::count(listed.begin(), listed.end(), 'G');
  a.attention.sliding_pattern =
      global > 0 ? static_cast<int>(
                       std::lround(static_cast<double>(a.layers) / static_cast<double>(global)))
                 : 0;
  a.attention.window_layers = std::move(listed);
}

bool one_of(const std::string& s, std::initializer_list<const char*> names) {
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return s == n; });
}

// Precision from quantization_config; "" when absent or unknown (then `note`
// says why).
std::string quantization_precision(const Json& q, std::string& note) {
  const std::string method = to_lower(get_string(q, "quant_method"));
  const auto bits = get_int(q, {"bits", "w_bit", "num_bits"}, 64).value_or(4);
  if (method == "gptq" || method == "awq") {
    if (bits == 4) {
      return method;
    }
    note = fmt::format("{} with {} bits: read as {}-bit integers", method, bits, bits);
    return bits == 8 ? "int8" : fmt::format("{}bpw", bits);
  }
  if (method == "bitsandbytes") {
    if (get_bool(q, "load_in_8bit").value_or(false)) {
      return "int8";
    }
    return "nf4";
  }
  if (one_of(method, {"fp8", "fbgemm_fp8"})) {
    return "fp8";
  }
  if (method == "mxfp4") {
    return "mxfp4";
  }
  if (method == "compressed-tensors") {
    // config_groups.<group>.weights: {num_bits, type: "float" | "int"}.
    if (const auto groups = q.find("config_groups"); groups != q.end() && groups->is_object()) {
      for (const auto& [name, g] : groups->items()) {
        const auto w = g.is_object() ? g.find("weights") : g.end();
        if (!g.is_object() || w == g.end() || !w->is_object()) {
          continue;
        }
        const auto n = get_int(*w, {"num_bits"}, 64).value_or(0);
        const std::string type = get_string(*w, "type");
        if (n == 8) {
          return type == "float" ? "fp8" : "int8";
        }
        if (n == 4) {
          return "gptq";
        }
      }
    }
  }
  note = fmt::format("quantization '{}' not recognised: sized by torch_dtype", method);
  return "";
}

std::string dtype_precision(const std::string& dtype) {
  if (dtype == "bfloat16") {
    return "bf16";
  }
  if (dtype == "float16" || dtype == "half") {
    return "fp16";
  }
  if (dtype == "float32" || dtype == "float") {
    return "fp32";
  }
  return "";
}

// An encoder's parameters from its vision_config or audio_config. The towers
// whose layout transformers fixes (below) are counted tensor by tensor, as
// their modeling files build them; any other tower is estimated as
// layers x (4 h^2 + 2 h ffn) + h x out (attention and a two-matrix MLP, the
// projection to the text width; norms, biases and patch embedding left out).
//
// - Qwen-VL towers (vision_config with spatial_merge_size m; out_hidden_size
//   the text width): a patch embedding over in_channels x temporal_patch_size
//   x patch^2 inputs, blocks of a fused qkv (h x 3h) and its projection with
//   biases and an MLP with biases, then the merger: a norm, (h m^2)^2 and
//   h m^2 x out with biases. Qwen2-VL (modeling_qwen2_vl.py: embed_dim is the
//   width, hidden_size the text width, mlp_ratio; LayerNorms, no patch bias),
//   Qwen2.5-VL (modeling_qwen2_5_vl.py: a gated MLP, RMS norms, no patch
//   bias), Qwen3-VL and Qwen3.5 (modeling_qwen3_vl.py: LayerNorms, a patch
//   bias, a learned num_position_embeddings x h table, and one more merger
//   per deepstack_visual_indexes entry, its norm on h m^2).
//   Checked: Qwen3.5-2B's and 4B's vision tensors count 331,416,576 and
//   333,514,240 in their safetensors headers (tests/unit/test_architectures.cpp);
//   Qwen2.5-VL-7B 676.55 M (data/models.json).
// - Pixtral (Mistral 3, modeling_pixtral.py and modeling_mistral3.py): a patch
//   convolution without bias, ln_pre, blocks of four h x h projections and a
//   gated MLP without biases and two RMS norms; the projector an RMS norm, the
//   patch merger (h m^2 x h, m = spatial_merge_size, 2) and two linears to
//   and within the text width (no biases: multimodal_projector_bias false).
//   Checked: Mistral-Small-3.1's 438,958,080.
// - Gemma 4 (gemma4_vision, modeling_gemma4.py): a patch projection
//   (3 p^2 x h), a two-axis position table (2 x position_embedding_size x h),
//   blocks of q/k/v/o (heads x head_dim wide) and a gated MLP without biases,
//   four RMS norms and the q and k norms; standardize adds a bias and a scale;
//   the embedder projects h to the text width.
// - SigLIP (siglip_vision_model, Gemma 3): a patch convolution with bias, a
//   (image_size / patch)^2 x h position table, blocks of four projections and
//   a two-matrix MLP with biases, LayerNorms and a final one; Gemma 3's
//   projector is an RMS norm and h x text width. Checked: Gemma-3-27B's
//   423,060,336 (data/models.json).
//
// Whisper audio encoders (Qwen2-Audio, Qwen2.5-Omni, Ultravox, Voxtral)
// spell them d_model, encoder_layers, encoder_ffn_dim
// (transformers WhisperConfig); Gemma 3n's conformer counts its blocks in
// conf_num_hidden_layers: both take the estimate.
std::int64_t vision_estimate(const Json& v, std::int64_t text_hidden) {
  // DeepSeek-OCR's DeepEncoder (DeepseekOCRForCausalLM, deepseek_vl_v2):
  // vision_config.width names towers in series (sam_vit_b, clip-l-14-224),
  // each of its own layers and width, MLPs of 4 x width (SAM's lin1, CLIP's
  // fc1 in the checkpoint); each takes the estimate below, and their widths
  // side by side the projection to the text width.
  if (const auto w = v.find("width"); w != v.end() && w->is_object()) {
    std::int64_t n = 0;
    std::int64_t widths = 0;
    for (const auto& [name, tower] : w->items()) {
      if (!tower.is_object()) {
        continue;
      }
      const auto h = get_int(tower, {"width", "hidden_size"}, 1 << 16);
      const auto layers = get_int(tower, {"layers", "num_hidden_layers"}, 1000);
      if (h && layers) {
        n += *layers * (4 * *h * *h + 2 * *h * 4 * *h);
        widths += *h;
      }
    }
    return n > 0 ? n + widths * text_hidden : 0;
  }
  const std::string type = to_lower(get_string(v, "model_type"));
  const auto merge = get_int(v, {"spatial_merge_size"}, 64);
  const bool qwen2 = type == "qwen2_vl" || (merge && v.contains("embed_dim"));
  const bool qwen25 = type == "qwen2_5_vl";
  const bool qwen3 = type.rfind("qwen3_vl", 0) == 0 ||
                     (type.rfind("qwen3_5", 0) == 0 || type.rfind("qwen4_exp", 0) == 0) ||
                     (merge && v.contains("num_position_embeddings"));
  // Qwen2-VL's hidden_size is the text width; its own is embed_dim.
  const auto h =
      qwen2 ? get_int(v, {"embed_dim"}, 1 << 16)
            : get_int(v, {"hidden_size", "embed_dim", "width", "vision_width", "d_model"}, 1 << 16);
  const auto layers = get_int(v,
                              {"num_hidden_layers", "depth", "num_layers", "layers",
                               "encoder_layers", "conf_num_hidden_layers"},
                              1000);
  if (!h || !layers) {
    return 0;
  }
  std::int64_t ffn =
      get_int(v, {"intermediate_size", "mlp_dim", "encoder_ffn_dim"}, 1 << 20).value_or(4 * *h);
  if (const auto it = v.find("mlp_ratio"); it != v.end() && it->is_number()) {
    ffn = static_cast<std::int64_t>(it->get<double>() * static_cast<double>(*h));
  }
  const std::int64_t w = *h;
  const std::int64_t channels =
      get_int(v, {"in_channels", "in_chans", "num_channels"}, 64).value_or(3);
  const std::int64_t patch = get_int(v, {"patch_size", "spatial_patch_size"}, 1024).value_or(14);
  if (qwen2 || qwen25 || qwen3) {
    const std::int64_t m = merge.value_or(2);
    const std::int64_t out = qwen2 ? get_int(v, {"hidden_size"}, 1 << 20).value_or(text_hidden)
                                   : get_int(v, {"out_hidden_size"}, 1 << 20).value_or(text_hidden);
    const std::int64_t temporal = get_int(v, {"temporal_patch_size"}, 64).value_or(2);
    const std::int64_t norm = qwen25 ? w : 2 * w;  // RMSNorm: a scale; LayerNorm: and a bias
    const std::int64_t mlp = qwen25 ? 3 * w * ffn + 2 * ffn + w : 2 * w * ffn + ffn + w;
    const std::int64_t block = 2 * norm + 3 * w * w + 3 * w + w * w + w + mlp;
    const std::int64_t merged = w * m * m;
    const std::int64_t merger = merged * merged + merged + merged * out + out;
    std::int64_t n =
        channels * temporal * patch * patch * w + (qwen3 ? w : 0) + *layers * block + norm + merger;
    if (qwen3) {
      n += get_int(v, {"num_position_embeddings"}, 1 << 20).value_or(0) * w;
      if (const auto it = v.find("deepstack_visual_indexes"); it != v.end() && it->is_array()) {
        n += static_cast<std::int64_t>(it->size()) * (2 * merged + merger);
      }
    }
    return n;
  }
  if (type == "pixtral") {
    const std::int64_t m = merge.value_or(2);
    const std::int64_t block = 4 * w * w + 3 * w * ffn + 2 * w;
    return channels * patch * patch * w + w + *layers * block + w + w * m * m * w +
           w * text_hidden + text_hidden * text_hidden;
  }
  if (type == "gemma4_vision") {
    const std::int64_t heads = get_int(v, {"num_attention_heads"}, 1 << 12).value_or(16);
    const std::int64_t kv = get_int(v, {"num_key_value_heads"}, 1 << 12).value_or(heads);
    const std::int64_t head_dim = get_int(v, {"head_dim"}, 1 << 12).value_or(w / heads);
    const std::int64_t attention = 2 * w * heads * head_dim + 2 * w * kv * head_dim;
    const std::int64_t block = attention + 3 * w * ffn + 4 * w + 2 * head_dim;
    const std::int64_t table = get_int(v, {"position_embedding_size"}, 1 << 20).value_or(0);
    const bool standardize = get_bool(v, "standardize").value_or(false);
    return channels * patch * patch * w + 2 * table * w + *layers * block +
           (standardize ? 2 * w : 0) + w * text_hidden;
  }
  if (type == "siglip_vision_model") {
    const std::int64_t image = get_int(v, {"image_size"}, 1 << 16).value_or(0);
    const std::int64_t side = patch > 0 ? image / patch : 0;
    const std::int64_t block = 4 * w + 4 * (w * w + w) + 2 * w * ffn + ffn + w;
    return channels * patch * patch * w + w + side * side * w + *layers * block + 2 * w + w +
           w * text_hidden;
  }
  const std::int64_t out =
      get_int(v, {"out_hidden_size", "projection_dim"}, 1 << 20).value_or(text_hidden);
  return *layers * (4 * w * w + 2 * w * ffn) + w * out;
}

// MiniMax-Text-01 and MiniMax-M1 as released (configuration_minimax_text_01.py
// and configuration_minimax_m1.py in the models' repositories). transformers'
// own port (model_type minimax, layer_types and other keys) is not read as
// such yet.
bool is_minimax01(const std::string& type) {
  return type == "minimax_text_01" || type == "minimax_m1";
}

// The fixed state and parameters of one recurrent mixer, from whichever
// family's keys the config has. States are llama.cpp's (llama-hparams.cpp:
// n_embd_r, the convolution's last d_conv - 1 inputs, and n_embd_s, the SSM
// state); parameters are the mixer's weight matrices as transformers builds
// them (norms, A, D and biases, a few thousand values, left out).
void set_recurrent_shape(const Json& t, const std::string& type, Architecture& a) {
  Attention& at = a.attention;
  const std::int64_t h = a.hidden_size;
  // Kimi Delta Attention of `heads` heads of `d` behind `kernel` taps.
  // llama.cpp's state (llama-hparams.cpp n_embd_r, n_embd_s for
  // n_embd_head_kda): the last kernel - 1 inputs of q, k and v, and one
  // head_dim x head_dim matrix per head.
  const auto set_kda = [&](std::optional<std::int64_t> heads, std::optional<std::int64_t> d,
                           std::optional<std::int64_t> kernel, bool full_rank_gate,
                           bool full_rank_decay) {
    if (!heads || !d || !kernel || *heads <= 0 || *d <= 0 || *kernel <= 1) {
      return;
    }
    const std::int64_t inner = *heads * *d;
    at.recurrent_state_floats = 3 * (*kernel - 1) * inner + *heads * *d * *d;
    at.recurrent_params =
        kimi_delta_attention_params(h, *heads, *d, *kernel, full_rank_gate, full_rank_decay);
    at.kda = true;
    at.kda_full_rank_gate = full_rank_gate;
    at.kda_full_rank_decay = full_rank_decay;
    at.delta_net_k_heads = static_cast<int>(*heads);
    at.delta_net_v_heads = static_cast<int>(*heads);
    at.delta_net_head_dim = static_cast<int>(*d);
    at.delta_net_conv = static_cast<int>(*kernel);
  };
  // MiniMax-01's lightning attention (minimax-01.cpp; model.hpp
  // Attention::lightning): one head_dim x head_dim state per head
  // (llama-hparams.cpp n_embd_s for n_embd_head_la), no convolution.
  if (is_minimax01(type) && a.heads > 0 && a.head_dim > 0) {
    const std::int64_t d = a.head_dim;
    at.lightning = true;
    at.recurrent_state_floats = std::int64_t{a.heads} * d * d;
    at.recurrent_params = lightning_attention_params(h, a.heads, d);
    return;
  }
  // Kimi Linear and K3: linear_attn_config num_heads heads of head_dim,
  // short_conv_kernel_size taps; K3's full-rank output gate
  // (use_full_rank_gate).
  if (const auto it = t.find("linear_attn_config"); it != t.end() && it->is_object()) {
    set_kda(get_int(*it, {"num_heads"}, 1 << 16), get_int(*it, {"head_dim"}, 1 << 16),
            get_int(*it, {"short_conv_kernel_size"}, 64),
            get_bool(*it, "use_full_rank_gate").value_or(false), false);
    return;
  }
  // Ling 3 (bailing_hybrid): num_attention_heads heads of head_dim behind
  // short_conv_kernel_size taps, both gates one hidden x heads x head matrix
  // (no_kda_lora: bailingmoe3.cpp ssm_f_a and ssm_g_a, no ssm_f_b or
  // ssm_g_b).
  if (type == "bailing_hybrid") {
    set_kda(get_int(t, {"num_attention_heads"}, 1 << 16), get_int(t, {"head_dim"}, 1 << 16),
            get_int(t, {"short_conv_kernel_size"}, 64), true, true);
    return;
  }
  // Qwen3-Next and Qwen3.5 gated delta net (gated_delta_net_params in
  // model.cpp has the layout).
  const auto conv = get_int(t, {"linear_conv_kernel_dim"}, 64);
  const auto dk = get_int(t, {"linear_key_head_dim"}, 1 << 16);
  const auto dv = get_int(t, {"linear_value_head_dim"}, 1 << 16);
  const auto nk = get_int(t, {"linear_num_key_heads"}, 1 << 16);
  const auto nv = get_int(t, {"linear_num_value_heads"}, 1 << 16);
  if (conv && dk && dv && nk && nv) {
    const std::int64_t conv_dim = 2 * *nk * *dk + *nv * *dv;
    at.recurrent_state_floats = (*conv - 1) * conv_dim + *nv * *dk * *dv;
    at.recurrent_params = gated_delta_net_params(h, *nk, *nv, *dk, *dv, *conv);
    // The delta net as llama.cpp's qwen3next and qwen35 graphs take it
    // (gguf.cpp reads the same four from ssm.*): one head size for keys and
    // values.
    if ((type == "qwen3_next" ||
         (type.rfind("qwen3_5", 0) == 0 || type.rfind("qwen4_exp", 0) == 0)) &&
        *dk == *dv && *nk > 0 && *nv % *nk == 0 && *conv > 1) {
      at.delta_net_k_heads = static_cast<int>(*nk);
      at.delta_net_v_heads = static_cast<int>(*nv);
      at.delta_net_head_dim = static_cast<int>(*dk);
      at.delta_net_conv = static_cast<int>(*conv);
    }
    // vLLM keeps Qwen3.5's recurrent matrix (value heads x key dim x value
    // dim) in config.json's mamba_ssm_dtype: Qwen3_5ForConditionalGenerationConfig
    // (vllm/model_executor/models/config.py, as jasonboukheir/vllm carries it
    // at 3fe70dc7, read 2026-12-05) sets cache_config.mamba_ssm_cache_dtype
    // to it while that is "auto", and Qwen3_5ForConditionalGeneration's
    // gated_delta_net_state_dtype (qwen3_5.py at 00def4f8) takes it for the
    // temporal state, the convolution staying in the model's dtype. Without
    // the key (Qwen3-Next, which that class does not cover, or a config that
    // names none) "auto" is the model's dtype (model.hpp vllm_f32_state_floats).
    if (type.rfind("qwen3_5", 0) == 0) {
      const auto dt = t.find("mamba_ssm_dtype");
      if (dt != t.end() && dt->is_string() && (*dt == "float32" || *dt == "float")) {
        at.vllm_f32_state_floats = *nv * *dk * *dv;
      }
    }
    return;
  }
  // LFM2 short convolution (modeling_lfm2.py, Lfm2ShortConv): in_proj h x 3h,
  // a depthwise convolution of L taps over h channels, out_proj h x h; the
  // state is the last L - 1 inputs.
  if (const auto l_cache = get_int(t, {"conv_L_cache"}, 64);
      l_cache && type.rfind("lfm2", 0) == 0) {
    at.recurrent_state_floats = (*l_cache - 1) * h;
    at.recurrent_params = 4 * h * h + h * *l_cache;
    at.short_conv_cache = static_cast<int>(*l_cache - 1);
    return;
  }
  // PLaMo 2's mixer (conversion/plamo.py: mamba_d_state 64, mamba_d_conv 4,
  // mamba_num_heads 64 where left out; d_inner = mamba_num_heads x
  // hidden_size_per_head, no groups). llama.cpp's state (llama-hparams.cpp
  // n_embd_r, n_embd_s with ssm_n_group 0): the last d_conv - 1 inputs of
  // d_inner, and d_state x d_inner.
  if (type == "plamo2") {
    const std::int64_t n = get_int(t, {"mamba_d_state"}, 1 << 16).value_or(64);
    const std::int64_t taps = get_int(t, {"mamba_d_conv"}, 64).value_or(4);
    const std::int64_t heads = get_int(t, {"mamba_num_heads"}, 1 << 16).value_or(64);
    const std::int64_t d = heads * std::max(1, a.head_dim);
    if (n > 0 && taps > 1 && heads > 0) {
      at.recurrent_state_floats = (taps - 1) * d + n * d;
      at.recurrent_params = plamo2_mixer_params(h, d, n, taps, heads);
      at.mamba = 3;
      at.ssm_inner = d;
      at.ssm_heads = static_cast<int>(heads);
      at.ssm_groups = 0;
      at.ssm_state = static_cast<int>(n);
      at.ssm_conv = static_cast<int>(taps);
    }
    return;
  }
  // Mamba-2 (Granite 4, Nemotron-H, Falcon-H1) and Mamba (Jamba): d_inner
  // channels in n_heads heads, n_groups groups of B and C of d_state each.
  const auto d_state =
      get_int(t, {"mamba_d_state", "ssm_state_size", "mamba_state_dim", "state_size"}, 1 << 16);
  const auto d_conv = get_int(t, {"mamba_d_conv", "conv_kernel"}, 64);
  if (!d_state || !d_conv) {
    return;
  }
  const auto n_heads = get_int(t, {"mamba_n_heads", "mamba_num_heads"}, 1 << 16);
  const auto head_dim = get_int(t, {"mamba_d_head", "mamba_head_dim"}, 1 << 16);
  std::int64_t d_inner = get_int(t, {"mamba_d_ssm"}, 1 << 24).value_or(0);
  if (d_inner == 0 && n_heads && head_dim) {
    d_inner = *n_heads * *head_dim;
  }
  if (d_inner == 0) {
    d_inner = get_int(t, {"mamba_expand", "expand"}, 64).value_or(2) * h;
  }
  if (n_heads) {
    // Mamba-2 (modeling_granitemoehybrid.py / modeling_nemotron_h.py, Mamba2Mixer):
    // in_proj h x (2 d_inner + 2 groups d_state + heads), conv over
    // d_inner + 2 groups d_state channels, out_proj d_inner x h.
    const std::int64_t groups =
        get_int(t, {"mamba_n_groups", "n_groups", "mamba_num_groups"}, 1 << 16).value_or(1);
    const std::int64_t conv_dim = d_inner + 2 * groups * *d_state;
    at.recurrent_state_floats = (*d_conv - 1) * conv_dim + *d_state * d_inner;
    at.recurrent_params = mamba_mixer_params(h, d_inner, *d_state, *d_conv, *n_heads, groups);
    // vLLM keeps Nemotron-H's scan state in the config's
    // mamba_ssm_cache_dtype, float32 where it names none
    // (NemotronHForCausalLMConfig.DEFAULT_MAMBA_SSM_CACHE_DTYPE; model.hpp
    // vllm_f32_state_floats); the convolution stays in the model's dtype.
    if (type == "nemotron_h") {
      const auto dt = t.find("mamba_ssm_cache_dtype");
      const bool sixteen = dt != t.end() && dt->is_string() &&
                           (*dt == "bfloat16" || *dt == "float16" || *dt == "half");
      at.vllm_f32_state_floats = sixteen ? 0 : *d_state * d_inner;
    }
    // The graphs the allocator replay builds (ggml_alloc.cpp) from these
    // sizes (gguf.cpp reads the same from ssm.*): Falcon-H1's mixer beside
    // the attention of every layer, Granite 4 H's on the recurrent layers,
    // its attention without RoPE (the converter, conversion/granite.py,
    // turns RoPE off for granitemoehybrid with Mamba layers; Bamba keeps it,
    // and the closed form), and Nemotron-H's block of its own. Bamba's
    // sizes are kept too, with mamba 0 (no replay), for transformers' cache
    // (estimate.cpp transformers_cache_layout): its config.json names them
    // mamba_n_heads, mamba_d_head, mamba_n_groups, mamba_d_state,
    // mamba_d_conv and mamba_expand (transformers bamba/
    // configuration_bamba.py at 001f85b3), read above.
    const bool replayed = type == "falcon_h1" || type == "granitemoehybrid" ||
                          type == "nemotron_h" || type == "mamba2";
    if ((replayed || type == "bamba") && *n_heads > 0 && d_inner % *n_heads == 0 && groups > 0 &&
        d_inner % groups == 0) {
      at.mamba = replayed ? 2 : 0;
      at.ssm_inner = d_inner;
      at.ssm_heads = static_cast<int>(*n_heads);
      at.ssm_groups = static_cast<int>(groups);
      at.ssm_state = static_cast<int>(*d_state);
      at.ssm_conv = static_cast<int>(*d_conv);
    }
    return;
  }
  // Mamba (modeling_jamba.py, JambaMambaMixer): in_proj h x 2 d_inner, conv
  // over d_inner, x_proj d_inner x (dt_rank + 2 d_state), dt_proj dt_rank x
  // d_inner, A d_inner x d_state, out_proj d_inner x h.
  const std::int64_t dt_rank = get_int(t, {"mamba_dt_rank"}, 1 << 16).value_or((h + 15) / 16);
  at.recurrent_state_floats = (*d_conv - 1) * d_inner + *d_state * d_inner;
  at.recurrent_params = mamba_mixer_params(h, d_inner, *d_state, *d_conv, dt_rank, 0);
  // Jamba's Mamba-1 graph (jamba.cpp, mamba-base.cpp build_mamba_layer),
  // which the allocator replay builds: the time-step rank as the GGUF's
  // ssm.time_step_rank (conversion/jamba.py), no groups.
  if ((type == "jamba" || type == "mamba" || type == "falcon_mamba") && *d_conv > 1 &&
      dt_rank > 0 && dt_rank <= d_inner && d_inner % dt_rank == 0) {
    at.mamba = 1;
    at.ssm_inner = d_inner;
    at.ssm_heads = static_cast<int>(dt_rank);
    at.ssm_groups = 0;
    at.ssm_state = static_cast<int>(*d_state);
    at.ssm_conv = static_cast<int>(*d_conv);
  }
}

// The MLP width of a Nemotron NAS block from its ffn_mult: two thirds of
// ffn_mult x hidden, truncated, rounded up to a multiple of 256
// (_ffn_mult_to_intermediate_size in llama.cpp conversion/deci.py at
// 80fb11ac and in vLLM vllm/model_executor/models/nemotron_nas.py; the same
// order of floating-point operations as their int(2 * ffn_mult * n_embd / 3)).
std::int64_t deci_ffn_width(double ffn_mult, std::int64_t hidden) {
  const auto width = static_cast<std::int64_t>(2 * ffn_mult * static_cast<double>(hidden) / 3);
  return width % 256 == 0 ? width : width + 256 - width % 256;
}

// OpenELM (apple/OpenELM-*, configuration_openelm.py) names its shape in
// keys of its own: num_transformer_layers, model_dim, per-layer
// num_query_heads and num_kv_heads, max_context_length,
// share_input_output_layers. They are given the common names (the widest
// layer's heads); read_block_configs reads the per-layer lists.
void openelm_keys(Json& t) {
  const auto widest = [&](const char* key) -> Json {
    const auto it = t.find(key);
    if (it == t.end() || !it->is_array() || it->empty()) {
      return nullptr;
    }
    std::int64_t w = 0;
    for (const auto& x : *it) {
      w = x.is_number_integer() ? std::max(w, x.get<std::int64_t>()) : w;
    }
    return w;
  };
  const std::pair<const char*, Json> names[] = {
      {"num_hidden_layers", t.value("num_transformer_layers", Json(nullptr))},
      {"hidden_size", t.value("model_dim", Json(nullptr))},
      {"num_attention_heads", widest("num_query_heads")},
      {"num_key_value_heads", widest("num_kv_heads")},
      {"max_position_embeddings", t.value("max_context_length", Json(nullptr))},
      {"tie_word_embeddings", t.value("share_input_output_layers", Json(true))}};
  for (const auto& [key, value] : names) {
    if (!t.contains(key) && !value.is_null()) {
      t[key] = value;
    }
  }
}

// PLaMo 3 (pfnet/plamo-3-nict-*: Plamo3Config, as sgl-project/sglang
// python/sglang/srt/configs/plamo3.py at 33918d47 transcribes it; llama.cpp
// conversion/plamo.py Plamo3Model at 80fb11ac): the window is window_size
// (the converter reads window_size or sliding_window), every
// sliding_window_pattern-th layer (default 8) attends in full, the
// embeddings are tied unless said otherwise (tie_word_embeddings = True).
void plamo3_keys(Json& t) {
  if (!t.contains("sliding_window") && t.contains("window_size")) {
    t["sliding_window"] = t["window_size"];
  }
  const std::pair<const char*, Json> names[] = {{"sliding_window_pattern", Json(8)},
                                                {"tie_word_embeddings", Json(true)}};
  for (const auto& [key, value] : names) {
    if (!t.contains(key)) {
      t[key] = value;
    }
  }
}

// PLaMo-13B (pfnet/plamo-13b: modeling_plamo.py's PlamoConfig): the keys and
// values are shared by groups of n_shared_head query heads (default 8), so
// ceil(heads / n_shared_head) KV heads whatever num_key_value_heads says
// (conversion/plamo.py PlamoModel writes head_count_kv 5 for the 40 heads:
// "num_key_value_heads is wrong").
void plamo_keys(Json& t) {
  const auto heads = get_int(t, {"num_attention_heads"}, 1 << 16);
  const std::int64_t shared =
      std::max<std::int64_t>(1, get_int(t, {"n_shared_head"}, 1 << 16).value_or(8));
  if (heads && *heads > 0) {
    t["num_key_value_heads"] = (*heads + shared - 1) / shared;
  }
}

// PLaMo 2 (pfnet/plamo-2-*: modeling_plamo.py's Plamo2Config, as llama.cpp's
// conversion/plamo.py Plamo2Model reads it at 80fb11ac): the head width is
// hidden_size_per_head, for attention and for the mixer's heads alike; the
// converter's defaults stand for keys a config leaves out (32 query heads,
// 4 KV heads, head width 128).
void plamo2_keys(Json& t) {
  const std::pair<const char*, Json> names[] = {
      {"head_dim", t.value("hidden_size_per_head", Json(128))},
      {"num_attention_heads", Json(32)},
      {"num_key_value_heads", Json(4)}};
  for (const auto& [key, value] : names) {
    if (!t.contains(key) && !value.is_null()) {
      t[key] = value;
    }
  }
}

// Mamba (state-spaces/mamba-*-hf, tiiuae/falcon-mamba-7b: configuration_
// mamba.py, configuration_falcon_mamba.py) and Mamba-2 (mistralai/Mamba-
// Codestral-7B-v0.1: configuration_mamba2.py) attend nowhere and name the
// mixer with keys of their own: state_size, conv_kernel, expand,
// time_step_rank ("auto": ceil(hidden / 16)), Mamba-2's num_heads, head_dim
// and n_groups; intermediate_size is the mixer's d_inner, not an MLP. They
// are given the names set_recurrent_shape reads (as llama.cpp's
// conversion/mamba.py reads them at 80fb11ac), and one attention head
// stands in for the none they have.
bool mamba_model_type(const std::string& type) {
  return type == "mamba" || type == "falcon_mamba" || type == "mamba2";
}

void mamba_keys(Json& t, const std::string& type) {
  // transformers' defaults for the keys a config leaves out
  // (configuration_mamba.py MambaConfig: state_size 16, expand 2,
  // conv_kernel 4; configuration_mamba2.py Mamba2Config: num_heads 128,
  // head_dim 64, state_size 128, n_groups 8, expand 2, conv_kernel 4).
  const bool v2 = type == "mamba2";
  const std::pair<const char*, int> defaults[] = {{"state_size", v2 ? 128 : 16},
                                                  {"expand", 2},
                                                  {"conv_kernel", 4},
                                                  {"num_heads", v2 ? 128 : 0},
                                                  {"head_dim", v2 ? 64 : 0},
                                                  {"n_groups", v2 ? 8 : 0}};
  for (const auto& [key, value] : defaults) {
    if (value > 0 && !t.contains(key)) {
      t[key] = value;
    }
  }
  const auto hidden = t.value("hidden_size", Json(nullptr));
  Json dt_rank = t.value("time_step_rank", Json(nullptr));
  if (dt_rank.is_string() && dt_rank.get<std::string>() == "auto" && hidden.is_number_integer()) {
    dt_rank = (hidden.get<std::int64_t>() + 15) / 16;
  }
  std::vector<std::pair<const char*, Json>> names = {
      {"mamba_d_state", t.value("state_size", Json(nullptr))},
      {"mamba_d_conv", t.value("conv_kernel", Json(nullptr))},
      {"mamba_expand", t.value("expand", Json(nullptr))}};
  if (type == "mamba2") {
    names.emplace_back("mamba_n_heads", t.value("num_heads", Json(nullptr)));
    names.emplace_back("mamba_d_head", t.value("head_dim", Json(nullptr)));
    names.emplace_back("mamba_n_groups", t.value("n_groups", Json(nullptr)));
  } else {
    names.emplace_back("mamba_dt_rank", dt_rank);
    if (const auto d = t.find("intermediate_size"); d != t.end() && d->is_number_integer()) {
      names.emplace_back("mamba_d_ssm", *d);
    }
  }
  for (const auto& [key, value] : names) {
    if (!t.contains(key) && !value.is_null()) {
      t[key] = value;
    }
  }
  for (const char* k : {"num_heads", "head_dim", "intermediate_size", "num_attention_heads",
                        "num_key_value_heads"}) {
    t.erase(k);
  }
  t["num_attention_heads"] = 1;
}

// RWKV-6 (RWKV/v6-Finch-*-HF, RWKV/rwkv-6-world-*: model_type rwkv6,
// transformers' Rwkv6Config in configuration_rwkv6.py, trust_remote_code)
// names no attention heads: head_size (default 64) splits hidden_size into
// heads; intermediate_size is null in those configs, and conversion/rwkv.py
// (at 80fb11ac) then writes int(hidden x 3.5 // 32 x 32); vocab_size
// defaults to 65536 (the World tokenizer).
void rwkv6_keys(Json& t) {
  if (!t.contains("head_size") || !t["head_size"].is_number_integer()) {
    t["head_size"] = 64;
  }
  if (!t.contains("vocab_size")) {
    t["vocab_size"] = 65536;
  }
  const auto hidden = get_int(t, {"hidden_size"}, 1 << 24);
  const auto head = get_int(t, {"head_size"}, 1 << 16);
  if (hidden && (!t.contains("intermediate_size") || t["intermediate_size"].is_null())) {
    t["intermediate_size"] =
        static_cast<std::int64_t>(static_cast<double>(*hidden) * 3.5) / 32 * 32;
  }
  for (const char* k : {"num_attention_heads", "num_key_value_heads", "head_dim"}) {
    t.erase(k);
  }
  // (a head_size that does not divide hidden_size is refused after the
  // shared keys are read: one head stands in for them meanwhile)
  t["num_attention_heads"] =
      hidden && head && *head > 0 && *hidden % *head == 0 ? *hidden / *head : 1;
}

// RWKV-7 (fla-hub/rwkv7-*: model_type rwkv7, flash-linear-attention's
// RWKV7Config in fla/models/rwkv7/configuration_rwkv7.py; RWKV/RWKV7-Goose-*
// -HF with head_size) names no attention heads: head_dim, or head_size,
// (default 64) splits hidden_size into heads. conversion/rwkv.py (at
// 80fb11ac) writes 4 x hidden when intermediate_size is null, reads the
// LoRA ranks as lora_rank_* or *_low_rank_dim, and when one is null
// computes it (calc_lora_rank, rwkv7_lora_rank here). RWKV7Config ties no
// embeddings.
std::int64_t rwkv7_lora_rank(std::int64_t hidden, double exponent, double multiplier) {
  // Python's round(): halves to even, as nearbyint in the default mode
  const auto r = static_cast<std::int64_t>(
      std::nearbyint(std::pow(static_cast<double>(hidden), exponent) * multiplier / 32.0));
  return std::max<std::int64_t>(1, r) * 32;
}

void rwkv7_keys(Json& t) {
  const auto hidden = get_int(t, {"hidden_size"}, 1 << 24);
  auto head = get_int(t, {"head_size", "head_dim"}, 1 << 16);
  if (!head) {
    head = 64;
  }
  if (hidden && (!t.contains("intermediate_size") || t["intermediate_size"].is_null())) {
    t["intermediate_size"] = 4 * *hidden;
  }
  // the ranks under the names rwkv7_lora_rank keeps (rwkv7_lora_*)
  struct Rank {
    const char* name;
    const char* rwkv_key;
    const char* fla_key;
    double exponent;
    double multiplier;
  };
  for (const Rank& r :
       {Rank{"rwkv7_lora_decay", "lora_rank_decay", "decay_low_rank_dim", 0.5, 1.8},
        Rank{"rwkv7_lora_iclr", "lora_rank_iclr", "a_low_rank_dim", 0.5, 1.8},
        Rank{"rwkv7_lora_value", "lora_rank_value_residual_mix", "v_low_rank_dim", 0.5, 1.3},
        Rank{"rwkv7_lora_gate", "lora_rank_gate", "gate_low_rank_dim", 0.8, 0.6}}) {
    const auto given = get_int(t, {r.rwkv_key, r.fla_key}, 1 << 16);
    t[r.name] = given ? *given : (hidden ? rwkv7_lora_rank(*hidden, r.exponent, r.multiplier) : 0);
  }
  if (!t.contains("tie_word_embeddings")) {
    t["tie_word_embeddings"] = false;
  }
  for (const char* k : {"num_attention_heads", "num_key_value_heads", "head_dim", "num_heads"}) {
    t.erase(k);
  }
  t["head_size"] = *head;
  // (a head size that does not divide hidden_size is refused after the
  // shared keys are read: one head stands in for them meanwhile)
  t["num_attention_heads"] = hidden && *head > 0 && *hidden % *head == 0 ? *hidden / *head : 1;
}

// DBRX (databricks/dbrx-*, transformers configuration_dbrx.py) nests its
// attention and MLP keys: attn_config {kv_n_heads, clip_qkv, rope_theta} and
// ffn_config {ffn_hidden_size, moe_num_experts, moe_top_k}, beside d_model,
// n_heads, n_layers and max_seq_len at the top. The ones that size it are
// given the common names, as llama.cpp's conversion/dbrx.py reads them at 80fb11ac
// (head_count_kv, feed_forward_length, expert_count, expert_used_count,
// context_length).
void dbrx_keys(Json& t) {
  const auto nested = [&](const char* block, const char* key) -> Json {
    const auto it = t.find(block);
    if (it == t.end() || !it->is_object()) {
      return nullptr;
    }
    return it->value(key, Json(nullptr));
  };
  const std::pair<const char*, Json> names[] = {
      {"num_key_value_heads", nested("attn_config", "kv_n_heads")},
      {"intermediate_size", nested("ffn_config", "ffn_hidden_size")},
      {"num_local_experts", nested("ffn_config", "moe_num_experts")},
      {"num_experts_per_tok", nested("ffn_config", "moe_top_k")},
      {"max_position_embeddings", t.value("max_seq_len", Json(nullptr))}};
  for (const auto& [key, value] : names) {
    if (!t.contains(key) && !value.is_null()) {
      t[key] = value;
    }
  }
}

// OpenELM's MLP width of a layer from its ffn_multiplier: multiplier x
// model_dim rounded to the nearest multiple of ffn_dim_divisor (at least
// one), one more if that lost over 10 % (make_divisible in
// configuration_openelm.py, as llama.cpp's conversion/openelm.py copies it
// at 80fb11ac).
std::int64_t openelm_ffn_width(double multiplier, std::int64_t hidden, std::int64_t divisor) {
  const double v = multiplier * static_cast<double>(hidden);
  const auto d = static_cast<double>(divisor);
  std::int64_t w = std::max(divisor, static_cast<std::int64_t>(v + d / 2) / divisor * divisor);
  if (static_cast<double>(w) < 0.9 * v) {
    w += divisor;
  }
  return w;
}

// Nemotron NAS (model_type nemotron-nas, DeciLMForCausalLM): block_configs
// gives each layer's attention (no_op: none; replace_with_linear: one
// hidden x hidden map; else num_attention_heads query heads sharing KV heads
// in groups of n_heads_in_group) and MLP (no_op, or an ffn_mult of null:
// none; else deci_ffn_width), read as llama.cpp's converter reads them
// (conversion/deci.py DeciModel.__init__). DeciLM-7B lists
// num_key_value_heads_per_layer instead, every layer otherwise alike.
void read_block_configs(const Json& t, Architecture& a) {
  std::vector<LayerWidths> shapes;
  if (const auto bc = t.find("block_configs");
      bc != t.end() && bc->is_array() && std::ssize(*bc) == a.layers) {
    for (const auto& block : *bc) {
      LayerWidths l;
      const auto att = block.find("attention");
      const auto ffn = block.find("ffn");
      if (!block.is_object() || att == block.end() || !att->is_object() || ffn == block.end() ||
          !ffn->is_object()) {
        return;
      }
      const auto group = att->find("n_heads_in_group");
      if (group != att->end() && group->is_number_integer() && group->get<std::int64_t>() > 0 &&
          !get_bool(*att, "no_op").value_or(false)) {
        l.heads = a.heads;
        l.kv_heads = static_cast<int>(a.heads / group->get<std::int64_t>());
      } else if (get_bool(*att, "replace_with_linear").value_or(false)) {
        l.heads = a.heads;
      }
      const auto mult = ffn->find("ffn_mult");
      if (mult != ffn->end() && mult->is_number() && !get_bool(*ffn, "no_op").value_or(false)) {
        const double m = mult->get<double>();
        if (m > 0 && m < 1e4) {
          l.ffn = deci_ffn_width(m, a.hidden_size);
        }
      }
      shapes.push_back(l);
    }
  } else if (const auto qs = t.find("num_query_heads"), kvs = t.find("num_kv_heads"),
             mults = t.find("ffn_multipliers");
             qs != t.end() && kvs != t.end() && mults != t.end() && qs->is_array() &&
             kvs->is_array() && mults->is_array() && std::ssize(*qs) == a.layers &&
             std::ssize(*kvs) == a.layers && std::ssize(*mults) == a.layers) {
    // OpenELM's layer-wise scaling: every layer attends, with its own heads,
    // KV heads and MLP width.
    const std::int64_t divisor = get_int(t, {"ffn_dim_divisor"}, 1 << 16).value_or(256);
    for (std::size_t i = 0; i < qs->size(); ++i) {
      const Json& nq = (*qs)[i];
      const Json& nkv = (*kvs)[i];
      const Json& m = (*mults)[i];
      if (!nq.is_number_integer() || !nkv.is_number_integer() || !m.is_number() ||
          nq.get<std::int64_t>() < 1 || nq.get<std::int64_t>() > a.heads ||
          nkv.get<std::int64_t>() < 1 || nkv.get<std::int64_t>() > nq.get<std::int64_t>() ||
          m.get<double>() <= 0 || m.get<double>() > 1e4) {
        return;
      }
      shapes.push_back(
          {static_cast<int>(nq.get<std::int64_t>()), static_cast<int>(nkv.get<std::int64_t>()),
           openelm_ffn_width(m.get<double>(), a.hidden_size, std::max<std::int64_t>(1, divisor))});
    }
  } else if (const auto kv = t.find("num_key_value_heads_per_layer");
             kv != t.end() && kv->is_array() && std::ssize(*kv) == a.layers) {
    for (const auto& n : *kv) {
      if (!n.is_number_integer() || n.get<std::int64_t>() < 1 || n.get<std::int64_t>() > a.heads) {
        return;
      }
      shapes.push_back({a.heads, static_cast<int>(n.get<std::int64_t>()), a.intermediate_size});
    }
  }
  if (shapes.empty()) {
    return;
  }
  a.layer_widths = std::move(shapes);
  // heads, kv_heads and intermediate_size: the widest layer's.
  a.kv_heads = 1;
  a.intermediate_size = 0;
  for (const LayerWidths& l : a.layer_widths) {
    a.kv_heads = std::max(a.kv_heads, l.kv_heads);
    a.intermediate_size = std::max(a.intermediate_size, l.ffn);
  }
}

// Qwen4Exp's n-gram table (vLLM models/qwen4_exp Qwen4ExpPLEEmbedding, as a
// public fork transcribes it; the same rule gives the 320,001,536 rows
// published for Qwen3.8-Flash-Next): head k of ngram_heads has as many rows
// as the k-th prime above ngram_vocab_size_base - 1, the heads' rows follow
// one another, and the table is padded to a multiple of
// make_ngram_vocab_size_divisible_by.
std::int64_t ngram_table_rows(std::int64_t base, int heads, std::int64_t divisor) {
  const auto prime = [](std::int64_t n) {
    if (n < 2) {
      return false;
    }
    for (std::int64_t d = 2; d * d <= n; ++d) {
      if (n % d == 0) {
        return false;
      }
    }
    return true;
  };
  std::int64_t rows = 0;
  std::int64_t n = base;
  for (int found = 0; found < heads; ++n) {
    if (prime(n)) {
      rows += n;
      ++found;
    }
  }
  const std::int64_t d = std::max<std::int64_t>(1, divisor);
  return (rows + d - 1) / d * d;
}

}  // namespace

Expected<Model> model_from_hf_config(std::string_view text, std::string_view label) {
  if (json_nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth) {
    return make_error("malformed config.json: JSON nested too deeply");
  }
  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const Json::parse_error& e) {
    return make_error(fmt::format("malformed config.json: not valid JSON (at byte {})", e.byte));
  } catch (const Json::exception&) {
    // e.g. a number too large for any type (found by fuzz_hf_config).
    return make_error("malformed config.json: not valid JSON (a value out of range)");
  }
  if (!doc.is_object()) {
    return make_error("malformed config.json: not a JSON object");
  }
  Json t = doc;  // the language model's keys
  // speculators' Eagle3Speculator keeps its layer's shape in
  // transformer_layer_config (merged as conversion/llama.py merges it).
  for (const char* nested :
       {"text_config", "llm_config", "language_config", "transformer_layer_config"}) {
    if (const auto it = doc.find(nested); it != doc.end() && it->is_object()) {
      for (const auto& [k, v] : it->items()) {
        t[k] = v;
      }
    }
  }
  // Qwen3-TTS (Qwen3TTSForConditionalGeneration, model_type qwen3_tts):
  // llama.cpp runs its talker (conversion/qwen3tts.py takes talker_config as
  // the text config). Its embedding table is the text rows (text_vocab_size,
  // the text projection folded in) followed by the codec rows (vocab_size);
  // its head, codec_head, has the codec rows alone. The code predictor, the
  // speaker encoder and the speech tokenizer go to the mmproj file.
  std::int64_t codec_head_rows = 0;
  if (to_lower(get_string(doc, "model_type")) == "qwen3_tts") {
    if (const auto it = doc.find("talker_config"); it != doc.end() && it->is_object()) {
      for (const auto& [k, v] : it->items()) {
        if (k != "code_predictor_config") {
          t[k] = v;
        }
      }
      const auto codec = get_int(t, {"vocab_size"}, 1 << 30);
      const auto text_rows = get_int(t, {"text_vocab_size"}, 1 << 30);
      if (codec && text_rows && *codec > 0) {
        codec_head_rows = *codec;
        t["vocab_size"] = *codec + *text_rows;
      }
    }
    t["model_type"] = "qwen3_tts";
  }
  // Falcon's first configs, written for its own modelling_RW.py
  // (RWForCausalLM, which conversion/falcon.py registers too): model_type
  // RefinedWebModel (Falcon-7B) or RefinedWeb (Falcon-40B), n_head, n_layer
  // and, on the 40B, n_head_kv. transformers' falcon
  // convert_custom_code_checkpoint.py reads them as falcon with
  // new_decoder_architecture exactly when n_head_kv is there.
  const std::string type = [&t] {
    std::string name = to_lower(get_string(t, "model_type"));
    if (name == "refinedweb" || name == "refinedwebmodel") {
      if (!t.contains("new_decoder_architecture")) {
        t["new_decoder_architecture"] = t.contains("n_head_kv");
      }
      name = "falcon";
    }
    return name;
  }();
  if (const std::string refused = refused_config_model_type(type); !refused.empty()) {
    return make_error(refused);
  }
  if (type == "openelm") {
    openelm_keys(t);
  }
  // MPT (mosaicml/mpt-*, configuration_mpt.py) names its shape as DBRX
  // does: d_model, n_heads, n_layers, max_seq_len, attn_config.kv_n_heads.
  if (type == "dbrx" || type == "mpt") {
    dbrx_keys(t);
  }
  if (mamba_model_type(type)) {
    mamba_keys(t, type);
  }
  if (type == "rwkv6") {
    rwkv6_keys(t);
  }
  if (type == "plamo2") {
    plamo2_keys(t);
  }
  if (type == "plamo") {
    plamo_keys(t);
  }
  if (type == "plamo3") {
    plamo3_keys(t);
  }
  if (type == "rwkv7") {
    rwkv7_keys(t);
  }
  Model m;
  Architecture& a = m.arch;
  // gpt-oss's learned attention sinks (modeling_gpt_oss.py self.sinks).
  a.attention.sinks = type == "gpt_oss";
  // Qwen3.5's gated attention: its configs state attn_output_gate; the
  // transformers class has no such key and always gates
  // (zucchini-nlp/transformers src/transformers/models/qwen3_5/
  // configuration_qwen3_5.py at commit 4c88d54f and modeling_qwen3_5.py).
  a.attention.gated_attention =
      get_bool(t, "attn_output_gate")
          .value_or((type.rfind("qwen3_5", 0) == 0 || type.rfind("qwen4_exp", 0) == 0));
  const auto layers =
      get_int(t, {"num_hidden_layers", "n_layer", "num_layers", "n_layers"}, 100000);
  // n_embed: BLOOM's configs (BloomConfig reads it as hidden_size)
  const auto hidden = get_int(t, {"hidden_size", "n_embd", "d_model", "dim", "n_embed"}, 1 << 20);
  const auto heads = get_int(t, {"num_attention_heads", "n_head", "n_heads", "num_heads"}, 1 << 16);
  if (!layers || !hidden || !heads) {
    return make_error(
        "config.json has no num_hidden_layers, hidden_size or num_attention_heads: not a "
        "transformers language model config");
  }
  a.layers = static_cast<int>(*layers);
  a.hidden_size = *hidden;
  a.heads = static_cast<int>(*heads);
  a.kv_heads = a.heads;
  if (const auto kv =
          get_int(t, {"num_key_value_heads", "num_kv_heads", "n_head_kv", "n_kv_heads"}, 1 << 16)) {
    a.kv_heads = static_cast<int>(*kv);
  } else if (get_bool(t, "multi_query").value_or(false)) {
    a.kv_heads = 1;  // Falcon-7B
  }
  // ChatGLM (THUDM's configuration_chatglm.py, model_type chatglm): grouped
  // KV heads are multi_query_group_num when multi_query_attention is set
  // (conversion/chatglm.py writes it as head_count_kv), each head
  // kv_channels wide.
  const bool chatglm = type == "chatglm";
  if (chatglm && get_bool(t, "multi_query_attention").value_or(false)) {
    a.kv_heads = static_cast<int>(
        get_int(t, {"multi_query_group_num"}, 1 << 16).value_or(std::int64_t{a.kv_heads}));
  }
  a.kv_heads = std::clamp(a.kv_heads, 1, a.heads);
  // attention_head_dim: Nemotron-H (configuration_nemotron_h.py); kv_channels: ChatGLM.
  a.head_dim = static_cast<int>(
      get_int(t, {"head_dim", "attention_head_dim", chatglm ? "kv_channels" : "head_dim"}, 1 << 16)
          .value_or(std::max<std::int64_t>(1, a.hidden_size / a.heads)));
  const bool two_matrix =
      one_of(type, {"gpt2", "bert", "roberta", "distilbert", "falcon", "gpt_neox", "gptj", "opt",
                    "bloom", "gpt_bigcode", "phi", "starcoder2", "mpt", "nemotron", "nemotron_h",
                    // XLM-RoBERTa's intermediate dense and output dense with
                    // GELU (jina-embeddings-v3: mlp.fc1, mlp.fc2; llama.cpp
                    // bert.cpp runs jina-bert-v3's as LLM_FFN_GELU, no gate)
                    "xlm-roberta", "jina_embeddings_v3",
                    // AFM-4.5B: up, ReLU squared, down (modeling_arcee.py ArceeMLP;
                    // llama.cpp arcee.cpp LLM_FFN_RELU_SQR with no gate)
                    "arcee",
                    // Apertus: up, xIELU, down (llama.cpp apertus.cpp creates
                    // ffn_up and ffn_down only)
                    "apertus",
                    // Jais 2: up, squared ReLU, down (llama.cpp jais2.cpp
                    // creates ffn_up and ffn_down only)
                    "jais2",
                    // PLM: up, squared ReLU (hidden_act relu2), down (llama.cpp
                    // plm.cpp creates ffn_up and ffn_down only)
                    "plm",
                    // Pocket TTS's backbone: linear1, GELU, linear2
                    // (llama.cpp pockettts.cpp creates ffn_up and ffn_down)
                    "pockettts"});
  // jina-embeddings-v2 (JinaBertModel, model_type bert): ALiBi positions
  // (position_embedding_type "alibi") and a GEGLU MLP (feed_forward_type
  // "geglu"), which llama.cpp loads as jina-bert-v2 (conversion/bert.py
  // JinaBertV2Model at 80fb11ac): gate and up one ffn_up of twice the width.
  const std::string feed_forward = to_lower(get_string(t, "feed_forward_type"));
  const bool jina_bert_v2 =
      type == "bert" && (to_lower(get_string(t, "position_embedding_type")) == "alibi" ||
                         feed_forward.ends_with("glu"));
  // nomic-embed-text-v2-moe (nomic_bert with activation_function gelu):
  // an MLP of up and GELU, as its experts (conversion/bert.py
  // NomicBertModel asserts gelu for the MoE model, swiglu otherwise).
  const bool nomic_gelu =
      type == "nomic_bert" && to_lower(get_string(t, "activation_function")) == "gelu";
  a.mlp_gated = (!two_matrix || jina_bert_v2) && !nomic_gelu;
  // GPT-2's layer (Architecture::gpt2_layer): the GPT-2, GPT-NeoX, BLOOM,
  // MPT, Falcon, Phi-2, StarCoder and BERT families with their ungated MLP;
  // not Arcee's, Apertus's, Nemotron's or Jais 2's, which keep llama's
  // projections beside theirs.
  a.gpt2_layer =
      !a.mlp_gated && one_of(type, {"gpt2", "bert", "roberta", "distilbert", "falcon", "gpt_neox",
                                    "opt", "bloom", "gpt_bigcode", "phi", "starcoder2", "mpt",
                                    "xlm-roberta", "jina_embeddings_v3", "nomic_bert"});
  // Where the family's layer differs from GPT-2's (Architecture::gpt2_layer
  // and what follows it, llama.cpp at 80fb11ac): StarCoder2's, BERT's
  // (RoBERTa's, DistilBERT's, XLM-RoBERTa's) and Phi-2's q, k and v are
  // three projections with biases (starcoder2.cpp, bert.cpp, phi2.cpp:
  // create_tensor_qkv; the converter maps q_proj/query, k_proj/key,
  // v_proj/value apart). Falcon's projections have no biases (falcon.cpp;
  // FalconConfig bias false), and Falcon-7B (parallel_attn without
  // new_decoder_architecture) one LayerNorm a layer, as Falcon-11B's
  // num_ln_in_parallel_attn 1, and Phi-2 (PhiDecoderLayer); MPT with no_bias (MPT-7B, MPT-30B) no
  // bias at all, its LayerNorms' neither (modeling_mpt.py drops every bias).
  if (a.gpt2_layer) {
    a.gpt2_separate_qkv =
        one_of(type, {"starcoder2", "bert", "roberta", "distilbert", "xlm-roberta", "phi"});
    // PhiDecoderLayer's input_layernorm alone (phi2.cpp: attn_norm, no ffn_norm),
    // feeding the attention and the MLP side by side: phi2.cpp's parallel
    // block (ParallelBlock::Phi2)
    a.gpt2_one_norm = type == "phi";
    if (type == "phi") {
      a.attention.parallel_block = ParallelBlock::Phi2;
    }
    a.output_bias = a.output_bias || type == "phi";  // phi2.cpp output_b, required
    if (type == "starcoder2") {
      a.gpt2_no_linear_bias = !get_bool(t, "use_bias").value_or(true);
    }
    if (type == "falcon") {
      a.gpt2_no_linear_bias = true;
      const bool new_arch = get_bool(t, "new_decoder_architecture").value_or(false);
      const bool parallel = new_arch || get_bool(t, "parallel_attn").value_or(true);
      a.gpt2_one_norm =
          new_arch ? get_int(t, {"num_ln_in_parallel_attn"}, 2).value_or(2) == 1 : parallel;
      // falcon.cpp's parallel block (ParallelBlock::Falcon): FalconDecoderLayer
      // runs the attention and the MLP side by side when
      // new_decoder_architecture (always) or parallel_attn (FalconConfig's
      // default true); llama.cpp builds that block for every falcon file.
      if (parallel) {
        a.attention.parallel_block = ParallelBlock::Falcon;
      }
    }
    if (type == "mpt") {
      const bool no_bias = get_bool(t, "no_bias").value_or(true);
      a.gpt2_no_linear_bias = no_bias;
      a.gpt2_no_norm_bias = no_bias;
    }
  }
  // The ALiBi decoders (tests/unit/test_arch_alibi.cpp): BLOOM and MPT
  // (llama.cpp bloom.cpp, mpt.cpp: GPT-2's layer, no position table), Jais
  // (jais.cpp: that layer with a SwiGLU MLP, conversion/jais.py asserting
  // position_embedding_type alibi).
  const bool alibi_decoder = one_of(type, {"bloom", "mpt", "jais"});
  a.attention.alibi = jina_bert_v2 || alibi_decoder;
  a.embedding_norm = type == "bloom";  // word_embeddings_layernorm
  a.intermediate_size =
      // block_ff_dim: LFM2's original configs (configuration_lfm2.py reads it
      // as intermediate_size, transformers 4f7e1d46).
      get_int(
          t, {"intermediate_size", "n_inner", "ffn_dim", "d_ff", "ffn_hidden_size", "block_ff_dim"},
          1 << 24)
          .value_or(two_matrix ? 4 * a.hidden_size : 0);
  // LLaDA names it mlp_hidden_size (GSAI-ML/LLaDA-8B-Instruct
  // configuration_llada.py: the width of its SwiGLU's ff and up projections,
  // which llama.cpp's converter writes as feed_forward_length). Only LLaDA's:
  // OLMo-1's original configs use the same key for the fused width, twice
  // the MLP's.
  if (a.intermediate_size == 0 && type == "llada") {
    a.intermediate_size = get_int(t, {"mlp_hidden_size"}, 1 << 24).value_or(0);
  }
  // Granite 4 (granitemoehybrid) names its dense or shared MLP shared_intermediate_size.
  // (its intermediate_size is then the routed experts' width).
  const std::int64_t config_intermediate = a.intermediate_size;
  if (type == "granitemoehybrid" || type == "granite_switch") {
    if (const auto shared = get_int(t, {"shared_intermediate_size"}, 1 << 24)) {
      a.intermediate_size = *shared;
    }
  }
  // MiniMax-M3 names its leading dense layers' MLP dense_intermediate_size
  // (intermediate_size is the routed experts' width; MiniMaxM3VLTextConfig).
  if (const auto dense = get_int(t, {"dense_intermediate_size"}, 1 << 24)) {
    a.intermediate_size = *dense;
  }
  // LFM2 states the MLP before SwiGLU's two-thirds rule, which the model
  // applies when block_auto_adjust_ff_dim is set (modeling_lfm2.py,
  // Lfm2MLP): 2/3 of it, times block_ffn_dim_multiplier, rounded up to
  // block_multiple_of.
  if (type.rfind("lfm2", 0) == 0 && get_bool(t, "block_auto_adjust_ff_dim").value_or(false)) {
    std::int64_t ff = 2 * a.intermediate_size / 3;
    if (const auto it = t.find("block_ffn_dim_multiplier"); it != t.end() && it->is_number()) {
      ff = static_cast<std::int64_t>(it->get<double>() * static_cast<double>(ff));
    }
    const std::int64_t multiple = get_int(t, {"block_multiple_of"}, 1 << 16).value_or(256);
    a.intermediate_size = std::max<std::int64_t>(0, multiple * ((ff + multiple - 1) / multiple));
  }
  // Gemma 3n lists one MLP width per layer: the mean keeps the count.
  if (const auto it = t.find("intermediate_size"); it != t.end() && it->is_array()) {
    std::int64_t sum = 0;
    std::int64_t n = 0;
    for (const auto& x : *it) {
      if (x.is_number_integer() && x.get<std::int64_t>() > 0 && x.get<std::int64_t>() < (1 << 24)) {
        sum += x.get<std::int64_t>();
        ++n;
      }
    }
    a.intermediate_size = n > 0 ? sum / n : 0;
  }
  // ChatGLM's embedding and output have padded_vocab_size rows
  // (modeling_chatglm.py; conversion/chatglm.py reads it as the vocabulary).
  a.vocab_size = chatglm ? get_int(t, {"padded_vocab_size", "vocab_size"}, 1 << 27).value_or(0)
                         : get_int(t, {"vocab_size", "padded_vocab_size"}, 1 << 27).value_or(0);
  if (a.vocab_size == 0) {
    return make_error("config.json has no vocab_size");
  }
  // LFM2 ties by default and its original configs spell the key
  // tie_embedding (Lfm2Config / Lfm2MoeConfig: tie_word_embeddings = True,
  // kwargs.get("tie_embedding", ...); transformers 4f7e1d46). Gemma3nTextConfig
  // sets none, so PretrainedConfig's True applies (transformers c5d9fba1).
  // Cohere2MoeConfig: tie_word_embeddings = True (North Mini Code's config
  // sets none and its weights have no lm_head).
  const bool ties_by_default =
      one_of(type, {"gpt2", "bert", "roberta", "falcon", "gemma", "gemma2", "gemma3", "gemma3_text",
                    "gemma3n", "gemma3n_text", "lfm2", "lfm2_moe", "cohere2_moe",
                    // GPTBigCodeConfig sets none: PretrainedConfig's True
                    // (StarCoder's checkpoint has no lm_head of its own)
                    "gpt_bigcode",
                    // nomic-embed-text: an encoder with no output head
                    // (llama.cpp nomic-bert.cpp creates none)
                    "nomic_bert",
                    // MiniCPM3Config: tie_word_embeddings = True (transformers
                    // models/minicpm3/configuration_minicpm3.py; MiniCPM3-4B's
                    // config.json sets none); MiniCPMConfig likewise (openbmb's
                    // configuration_minicpm.py)
                    "minicpm3", "minicpm",
                    // ModernBertConfig sets none: PretrainedConfig's True
                    // (the masked-LM decoder is the embeddings; llama.cpp
                    // modern-bert.cpp creates no output head)
                    "modernbert",
                    // BloomConfig and MPTConfig set none (their checkpoints
                    // have no lm_head; llama.cpp bloom.cpp and mpt.cpp read
                    // tok_embd as the output when the file has none)
                    "bloom", "mpt"});
  a.tied_embeddings =
      get_bool(t, "tie_word_embeddings")
          .value_or(get_bool(doc, "tie_word_embeddings")
                        .value_or(get_bool(t, "tie_embedding").value_or(ties_by_default)));
  // Phi-3.5-MoE (PhimoeConfig): LayerNorm with biases everywhere, q/k/v/o
  // biases when attention_bias, a bias on the logits when lm_head_bias.
  if (type == "phimoe") {
    a.norm_bias = true;
    a.attention_bias = get_bool(t, "attention_bias").value_or(false);
    a.output_bias = get_bool(t, "lm_head_bias").value_or(false);
  }
  // Nanbeige4.2 (NanbeigeConfig, model_type nanbeige; llama.cpp
  // conversion/nanbeige.py writes num_loops, 1 when absent or below 1):
  // llama's layers, run num_loops times, each pass cached apart.
  if (type == "nanbeige") {
    a.loops = static_cast<int>(
        std::clamp<std::int64_t>(get_int(t, {"num_loops"}, 64).value_or(1), 1, 64));
  }
  // openPangu-Embedded (PanguEmbeddedConfig, model_type PanguEmbedded;
  // llama.cpp conversion/pangu.py, pangu-embed.cpp): llama's layer with
  // biases on q, k, v and o when `bias` (true in the released configs).
  if (type == "panguembedded") {
    a.attention_bias = get_bool(t, "bias").value_or(true);
  }
  // ChatGLM: one query_key_value projection with a bias when add_qkv_bias
  // (and none on the others: add_bias_linear), and dense_h_to_4h holding
  // the SwiGLU's gate and up (modeling_chatglm.py MLP: 2 x ffn_hidden_size).
  if (chatglm) {
    a.attention.fused_qkv = true;
    a.qkv_bias = get_bool(t, "add_qkv_bias").value_or(false);
    a.fused_gate_up = true;
  }
  // Qwen-1 (QWenConfig, model_type qwen; llama.cpp qwen.cpp at 80fb11ac):
  // one c_attn projection of Q, K and V with its bias (modeling_qwen.py
  // builds it with nn.Linear's default bias; no_bias drops the others), and
  // a SwiGLU of w1 and w2 each intermediate_size / 2 wide (QWenMLP;
  // qwen.cpp creates ffn_gate and ffn_up of n_ff / 2 from the converter's
  // feed_forward_length, the config's value).
  if (type == "qwen") {
    a.attention.fused_qkv = true;
    a.qkv_bias = true;
    a.intermediate_size /= 2;
  }
  // CodeShell-7B (CodeShellConfig, model_type codeshell, or kclgpt in the
  // model's own repository; llama.cpp codeshell.cpp at 80fb11ac): GPT-NeoX's
  // sequential layer (LayerNorms with biases, one c_attn of Q, K and V with
  // its bias, biases on c_proj, up and down, a GELU MLP of n_inner, else 4
  // n_embd) with RoPE, and num_query_groups KV heads when
  // group_query_attention. llama.cpp loads an output head always.
  if (type == "codeshell" || type == "kclgpt") {
    a.mlp_gated = false;
    a.gpt2_layer = true;
    if (a.intermediate_size <= 0) {
      a.intermediate_size = 4 * a.hidden_size;
    }
    a.attention.fused_qkv = true;
    a.qkv_bias = true;
    if (get_bool(t, "group_query_attention").value_or(false)) {
      a.kv_heads = std::clamp(
          static_cast<int>(get_int(t, {"num_query_groups"}, 1 << 16).value_or(1)), 1, a.heads);
    }
  }
  // Orion-14B (OrionConfig, model_type orion; llama.cpp orion.cpp at
  // 80fb11ac): llama's layer with LayerNorms (nn.LayerNorm, weight and bias,
  // though the key is rms_norm_eps: modeling_orion.py) before the attention,
  // before the MLP and at the end.
  if (type == "orion") {
    a.norm_bias = true;
  }
  // Baichuan (BaichuanConfig, model_type baichuan: Baichuan-7B/13B and
  // Baichuan2-7B/13B; llama.cpp baichuan.cpp at 80fb11ac): llama's layer,
  // W_pack split into q, k and v by conversion/baichuan.py. Its positions
  // follow the depth, as baichuan.cpp decides them: RoPE for 32 layers (the
  // 7B's modeling_baichuan.py), ALiBi for 40 (the 13B's), none for any
  // other depth, whose graph is the ALiBi one (no inp_pos, no RoPE).
  if (type == "baichuan") {
    a.attention.alibi = a.layers != 32;
  }
  // GPT-NeoX (GPTNeoXConfig, model_type gpt_neox: Pythia, GPT-NeoX-20B;
  // llama.cpp gptneox.cpp at 80fb11ac): GPT-2's layer (LayerNorms with bias,
  // biases on wo, up and down: the ungated layout) with one fused
  // query_key_value projection and its bias, Q and K roped from views of it
  // as chatglm.cpp's are (ChatGLM's fused_qkv and qkv_bias), and, when
  // use_parallel_residual (GPTNeoXConfig's default True, which
  // conversion/gptneox.py writes the same way), the attention and the MLP
  // each norm the layer input and the layer adds both to it: the parallel
  // block. rotary_pct ropes part of each head, which changes no tensor's size.
  if (type == "gpt_neox") {
    a.attention.fused_qkv = true;
    a.qkv_bias = true;
    if (get_bool(t, "use_parallel_residual").value_or(true)) {
      a.attention.parallel_block = ParallelBlock::NeoX;
    }
  }
  // GPT-J (GPTJConfig, model_type gptj: EleutherAI/gpt-j-6b, GPT-JT,
  // GPT4All-J; transformers modeling_gptj.py): one LayerNorm with bias a
  // layer (ln_1) feeding the attention and the MLP, whose outputs are both
  // added to the layer input (GPTJBlock: the parallel block with one norm),
  // q, k, v and out_proj without biases, an ungated GELU MLP of n_inner
  // (else 4 n_embd: two_matrix above) whose fc_in and fc_out have biases,
  // and an lm_head with a bias (nn.Linear's default). rotary_dim ropes
  // part of each head, which sizes no tensor. llama.cpp has no graph for it
  // (refused_gguf_architecture says why); transformers and vLLM run it.
  if (type == "gptj") {
    a.attention.parallel_block = ParallelBlock::GptJ;
    a.norm_bias = true;
    a.mlp_bias = true;
    a.output_bias = true;
  }
  // The same network in transformers' layout (GlmConfig, model_type glm:
  // glm-4-9b-chat-hf): q, k and v apart, with biases when attention_bias
  // (True by default), and gate_up_proj one projection; conversion/chatglm.py
  // converts it to llama.cpp's chatglm too.
  if (type == "glm") {
    a.qkv_bias = get_bool(t, "attention_bias").value_or(true);
    a.fused_gate_up = true;
  }
  // Jais (model_type jais, JAISLMHeadModel): one c_attn projection with its
  // bias, LayerNorms with biases, a SwiGLU MLP (c_fc, c_fc2, c_proj); its
  // output head is a tensor of its own, which llama.cpp's jais.cpp requires
  // (conversion/jais.py scales it by the muP width scale).
  if (type == "jais") {
    a.attention.fused_qkv = true;
    a.qkv_bias = true;
    a.norm_bias = true;
    a.tied_embeddings = false;
  }
  // Refact-1.6B (model_type gpt_refact, GPTRefactForCausalLM): llama's
  // layer with ALiBi and one KV head (multi_query; conversion/refact.py
  // writes head_count_kv 1 whatever the config says), its SwiGLU of
  // n_inner (else 4 n_embd) taken to two thirds and rounded up to a
  // multiple of 256 (conversion/refact.py set_gguf_parameters at 80fb11ac,
  // the width gate_up_proj splits at), and an lm_head of its own (the
  // Q8_0 file holds output.weight: tests/unit/test_arch_refact.cpp).
  if (type == "gpt_refact") {
    a.attention.alibi = true;
    a.kv_heads = 1;
    const std::int64_t inner = a.intermediate_size > 0 ? a.intermediate_size : 4 * a.hidden_size;
    const std::int64_t ff = 2 * inner / 3;
    a.intermediate_size = 256 * ((ff + 255) / 256);
    a.tied_embeddings = get_bool(t, "tie_word_embeddings").value_or(false);
  }
  // Jais 2 (Jais2Config, model_type jais2; llama.cpp jais2.cpp at 80fb11ac):
  // LayerNorms with biases, q, k, v and o with biases when attention_bias,
  // the ungated MLP's up and down with biases when mlp_bias (both true by
  // default), RoPE.
  if (type == "jais2") {
    a.norm_bias = true;
    a.attention_bias = get_bool(t, "attention_bias").value_or(true);
    a.mlp_bias = get_bool(t, "mlp_bias").value_or(true);
  }
  // Nemotron-4 / Minitron (NemotronConfig, llama.cpp nemotron.cpp):
  // LayerNorm1p with a bias, q, k, v and an ungated squared-ReLU MLP
  // (two_matrix above) without biases (attention_bias, mlp_bias false).
  if (type == "nemotron") {
    a.norm_bias = true;
  }
  // Pocket TTS's backbone (kyutai pocket-tts flow_lm.transformer; the
  // config conversion/pockettts.py derives from its tensors, model_type
  // pockettts; llama.cpp pockettts.cpp at 80fb11ac): LayerNorms with biases,
  // bias-free projections, every head cached, no output head (the embedding
  // table read again: tied).
  if (type == "pockettts") {
    a.norm_bias = true;
    a.tied_embeddings = true;
  }
  a.speech = type == "pockettts" || type == "qwen3_tts";
  // Chameleon (ChameleonConfig, model_type chameleon; llama.cpp
  // chameleon.cpp at 80fb11ac): llama's layer with per-head Q and K
  // LayerNorms (modeling_chameleon.py q_norm, k_norm: always there), the
  // Swin-style norm placement when swin_norm (default false), the image
  // tokens' logits masked in llama.cpp's graph. The VQ-GAN image tokenizer
  // (vq_config) is not in llama.cpp's file (conversion/chameleon.py drops
  // model.vqmodel) and is not counted.
  if (type == "chameleon") {
    a.attention.qk_layer_norm = true;
    a.masked_image_logits = true;
    a.swin_norm = get_bool(t, "swin_norm").value_or(false);
  }
  // CogVLM (THUDM's CogVLMConfig, model_type cogvlm; llama.cpp cogvlm.cpp at
  // 80fb11ac): each layer's language_expert_query_key_value (one fused
  // projection without a bias, which the converter keeps fused as attn_qkv)
  // and language_expert_dense, and its vision_expert_query_key_value,
  // vision_expert_dense and vision MLP beside them (the visual expert).
  if (type == "cogvlm") {
    a.attention.fused_qkv = true;
    a.visual_expert = true;
  }
  // Granite Switch (generative-computing/granite-switch GraniteSwitchConfig,
  // model_type granite_switch, a GraniteMoeHybridConfig with adapters):
  // num_adapters LoRA adapters stacked at max_lora_rank on the fused QKV
  // (qkv_proj), o_proj and the shared MLP; num_hidden_layers counts the
  // switch's slot with the decoder layers when there are adapters (its
  // docs/configuration: layer_types "includes the switch's index-0 slot"),
  // which the converter drops (conversion/granite.py: block_count - 1).
  if (type == "granite_switch") {
    a.attention.fused_qkv = true;
    a.adapters = static_cast<int>(get_int(t, {"num_adapters"}, 4096).value_or(0));
    a.adapter_rank = static_cast<int>(get_int(t, {"max_lora_rank"}, 4096).value_or(0));
    if (a.adapters > 0 && a.layers > 1) {
      a.layers -= 1;
    }
  }
  // BitNet b1.58 (modeling_bitnet.py: BitNetAttention.attn_sub_norm,
  // BitNetMLP.ffn_sub_norm; llama.cpp bitnet.cpp).
  a.sub_norms = type == "bitnet";
  // OLMo-1 (transformers' OlmoLayerNorm: F.layer_norm with no weight or
  // bias; llama.cpp olmo.cpp).
  a.weightless_norms = type == "olmo" || type == "talkie";
  // Talkie (TalkieConfig, model_type talkie; llama.cpp talkie.cpp): the
  // normed embeddings added to every layer's output (embed_skip), weightless
  // RMS norms (F.rms_norm).
  a.embedding_skip = type == "talkie";
  // model_max_length: Kimi Linear's config names its context so.
  a.max_context = get_int(t,
                          {"max_position_embeddings", "n_positions", "max_sequence_length",
                           "seq_length", "n_ctx", "model_max_length"},
                          std::int64_t{1} << 31)
                      .value_or(0);
  // RoBERTa's and XLM-RoBERTa's positions start at pad_token_id + 1
  // (create_position_ids_from_input_ids), so llama.cpp's converter writes
  // max_position_embeddings - (pad_token_id + 1) as the context and drops
  // those rows (conversion/bert.py _xlmroberta_tokenizer_init at 80fb11ac):
  // jina-embeddings-v3's 8194 is 8192 tokens.
  if (one_of(type, {"roberta", "xlm-roberta", "jina_embeddings_v3"}) && a.max_context > 0) {
    if (const auto pad = get_int(t, {"pad_token_id"}, 1 << 20); pad && *pad >= 0) {
      a.max_context = std::max<std::int64_t>(1, a.max_context - (*pad + 1));
    }
  }
  // BLOOM's configs state no context: llama.cpp's converter writes
  // seq_length, else the hidden size (conversion/bloom.py at 80fb11ac).
  if (type == "bloom" && a.max_context == 0) {
    a.max_context = a.hidden_size;
  }
  // GPT-2 and GPT-BigCode learn a position table of n_positions rows
  // (modeling_gpt2.py, modeling_gpt_bigcode.py: wpe), which llama.cpp loads
  // as pos_embd of n_ctx_train rows (gpt2.cpp, starcoder.cpp).
  if (one_of(type, {"gpt2", "gpt_bigcode"})) {
    a.learned_positions = a.max_context;
  }
  // BERT, RoBERTa, DistilBERT and XLM-RoBERTa (llama.cpp's bert, bert.cpp)
  // add the rows of a learned position table (position_embd, the context's
  // rows: conversion/bert.py drops XLM-RoBERTa's pad rows, as above) to the
  // token embeddings, and rope nothing; jina-bert-v2's ALiBi has no table,
  // and jina-embeddings-v3 (xlm-roberta with lora_adaptations, rotary
  // positions: jina-bert-v3 below) none either.
  if (one_of(type, {"bert", "roberta", "distilbert", "xlm-roberta"}) && a.gpt2_layer &&
      !a.attention.alibi && !t.contains("lora_adaptations") &&
      get_string(t, "position_embedding_type") != "rotary") {
    a.learned_positions = a.max_context;
  }

  // nomic_bert: llama.cpp's converter writes the context each checkpoint was
  // trained at (conversion/bert.py NomicBertModel at 80fb11ac): 512 for
  // n_positions 2048 with max_trained_positions 2048 (v2-moe).
  if (type == "nomic_bert" && get_int(t, {"n_positions"}, 1 << 20).value_or(0) == 2048 &&
      get_int(t, {"max_trained_positions"}, 1 << 20).value_or(2048) == 2048 &&
      !t.contains("max_position_embeddings")) {
    a.max_context = 512;
  }
  // Llama 4 names the dense MLP intermediate_size_mlp and the experts'
  // width intermediate_size.
  const auto dense_mlp = get_int(t, {"intermediate_size_mlp"}, 1 << 24);
  // Mixture of experts.
  // ERNIE 4.5 spells its experts moe_num_experts, moe_k and
  // moe_num_shared_experts; Hunyuan-A13B moe_topk and num_shared_expert,
  // per layer (configuration_ernie4_5_moe.py, configuration_hunyuan_v1_moe.py).
  // SmallThinker moe_num_primary_experts, moe_num_active_primary_experts and
  // moe_ffn_hidden_size (its configuration_smallthinker.py).
  if (const auto experts = get_int_or_first(t,
                                            {"num_local_experts", "num_experts", "n_routed_experts",
                                             "moe_num_experts", "moe_num_primary_experts"},
                                            1 << 16);
      experts && *experts > 1) {
    Moe moe;
    moe.experts = static_cast<int>(*experts);
    moe.experts_per_token = static_cast<int>(std::min<std::int64_t>(
        get_int_or_first(
            t,
            {"num_experts_per_tok", "num_experts_per_token", "experts_per_token", "moe_top_k",
             "top_k_experts", "moe_k", "moe_topk", "moe_num_active_primary_experts"},
            1 << 16)
            .value_or(2),
        *experts));
    moe.expert_intermediate_size =
        get_int_or_first(
            t, {"moe_intermediate_size", "expert_intermediate_size", "moe_ffn_hidden_size"},
            1 << 24)
            .value_or(config_intermediate);
    moe.shared_experts =
        static_cast<int>(get_int_or_first(t,
                                          {"n_shared_experts", "num_shared_experts",
                                           "moe_num_shared_experts", "num_shared_expert"},
                                          1 << 10)
                             .value_or(0));
    // The shared experts' width counts in routed-expert widths, over a count
    // where both are given (Nemotron-H's MoE: one shared expert of 3712 beside
    // routed ones of 1856, moe_shared_expert_intermediate_size).
    if (const auto shared = get_int(t,
                                    {"shared_expert_intermediate_size", "shared_intermediate_size",
                                     "moe_shared_expert_intermediate_size"},
                                    1 << 24);
        shared && *shared > 0 && moe.expert_intermediate_size > 0) {
      moe.shared_experts = static_cast<int>(std::max<std::int64_t>(
          1, (*shared + moe.expert_intermediate_size / 2) / moe.expert_intermediate_size));
      // A width of no whole number of experts is kept as it is (Granite MoE
      // SWA: shared_intermediate_size 1280 beside experts of 512).
      if (*shared % moe.expert_intermediate_size != 0) {
        moe.shared_width = *shared;
      }
    }
    if (dense_mlp) {
      moe.expert_intermediate_size = a.intermediate_size;
      a.intermediate_size = *dense_mlp;
    }
    if (moe.shared_experts == 0 && type.rfind("llama4", 0) == 0) {
      moe.shared_experts = 1;  // Llama4TextMoe always adds one shared expert
    }
    // Gemma 4's MoE layers keep their dense MLP of intermediate_size beside
    // the experts (config enable_moe_block; llama.cpp gemma4.cpp
    // "we use normal FFN as shared expert"): counted in expert widths.
    if (moe.shared_experts == 0 && type.rfind("gemma4", 0) == 0 && config_intermediate > 0 &&
        moe.expert_intermediate_size > 0) {
      moe.shared_experts = static_cast<int>(std::max<std::int64_t>(
          1,
          (config_intermediate + moe.expert_intermediate_size / 2) / moe.expert_intermediate_size));
    }
    // Grok-2 (config residual_moe, sglang/vLLM grok.py Grok1DecoderLayer):
    // a dense MLP of intermediate_size beside the experts of
    // moe_intermediate_size (llama.cpp grok.cpp: ffn_up/gate/down next to
    // the *_exps), counted in expert widths as the GGUF path counts it.
    const auto residual_moe = t.find("residual_moe");
    if (moe.shared_experts == 0 && residual_moe != t.end() && residual_moe->is_boolean() &&
        residual_moe->get<bool>() && config_intermediate > 0 && moe.expert_intermediate_size > 0 &&
        moe.expert_intermediate_size != config_intermediate) {
      moe.shared_experts = static_cast<int>(std::max<std::int64_t>(
          1,
          (config_intermediate + moe.expert_intermediate_size / 2) / moe.expert_intermediate_size));
    }
    moe.first_dense_layers = static_cast<int>(std::min<std::int64_t>(
        // ERNIE 4.5: moe_layer_start_index (llama.cpp leading_dense_block_count);
        // K-EXAONE: first_last_k_dense_replace (conversion/exaone.py reads it
        // as leading_dense_block_count).
        get_int(t,
                {"first_k_dense_replace", "first_k_dense", "num_dense_layers",
                 "moe_layer_start_index", "first_last_k_dense_replace"},
                100000)
            .value_or(0),
        a.layers));
    // MiniMax-M3 marks each layer 0 (dense) or 1 (MoE) in moe_layer_freq;
    // its dense layers lead (llama.cpp minimax-m3: leading_dense_block_count).
    if (const auto it = t.find("moe_layer_freq"); it != t.end() && it->is_array()) {
      int dense = 0;
      while (dense < std::ssize(*it) && (*it)[static_cast<std::size_t>(dense)] == 0) {
        ++dense;
      }
      moe.first_dense_layers = std::min(dense, a.layers);
    }
    // HunYuan V3 (HYV3Config) may list each layer's MLP as "dense" or
    // "sparse" (mlp_layer_types), the dense ones leading as
    // first_k_dense_replace says.
    if (const auto it = t.find("mlp_layer_types"); it != t.end() && it->is_array()) {
      int dense = 0;
      while (dense < std::ssize(*it) && (*it)[static_cast<std::size_t>(dense)] == "dense") {
        ++dense;
      }
      moe.first_dense_layers = std::min(dense, a.layers);
    }
    // Every N-th layer routes (Llama 4 interleave_moe_layer_step; Jamba
    // expert_layer_period with offset period - 1, as its configs have).
    // Kimi K3's latent MoE (routed_expert_hidden_size).
    moe.latent_size = get_int(t, {"routed_expert_hidden_size"}, 1 << 20).value_or(0);
    // Kimi Linear and K3 choose their experts by a sigmoid plus a
    // per-expert bias (e_score_correction_bias; llama.cpp kimi-linear.cpp
    // and kimi-k3.cpp load ffn_exp_probs_b on every MoE layer).
    // ERNIE 4.5's MoE layers always carry one (Ernie4_5_MoeStatics
    // e_score_correction_bias, llama.cpp ernie4-5.cpp ffn_exp_probs_b).
    // K-EXAONE and dots.llm1 too (a sigmoid router with
    // e_score_correction_bias; exaone-moe.cpp and dots1.cpp ffn_exp_probs_b).
    // Ling 2.0 (bailing_moe_v2) says so: moe_router_enable_expert_bias
    // (conversion/bailingmoe.py maps expert_bias to exp_probs_b).
    // Ling 3's MoE layers always carry one (bailingmoe3.cpp loads
    // exp_probs_b as required).
    moe.selection_bias = type == "kimi_linear" || type == "ernie4_5_moe" || type == "exaone_moe" ||
                         type == "dots1" || type == "bailing_hybrid" ||
                         get_bool(t, "moe_router_enable_expert_bias").value_or(false);
    // K-EXAONE's MTP block has a dense MLP and no output head of its own
    // (llama.cpp exaone-moe.cpp load_arch_tensors: i >= n_layer is dense).
    if (type == "exaone_moe") {
      a.mtp_dense = true;
      a.mtp_shares_head = true;
    }
    moe.layer_step = static_cast<int>(
        std::clamp<std::int64_t>(get_int(t,
                                         {"interleave_moe_layer_step", "expert_layer_period",
                                          "decoder_sparse_step", "moe_layer_interval",
                                          // nomic_bert (v2-moe): llama.cpp routes layers
                                          // il % n == 1, which for its n = 2 are these
                                          "moe_every_n_layers"},
                                         100000)
                                     .value_or(1),
                                 1, a.layers));
    // nomic-embed-text-v2-moe uses the chosen experts' weights as they are
    // (moe_normalize_expert_weights false; nomic-bert-moe.cpp build_moe_ffn
    // with norm_w false).
    if (type == "nomic_bert") {
      moe.weights_normalized = get_bool(t, "moe_normalize_expert_weights").value_or(false);
    }
    // Ling (bailing_moe): conversion/bailingmoe.py writes norm_topk_prob as
    // expert_weights_norm, which bailingmoe.cpp's build_moe_ffn follows;
    // bailingmoe.cpp gives every layer experts, first_k_dense_replace aside.
    // LLaDA-MoE (model_type llada with experts, or dllm's lladamoe; llama.cpp
    // llada-moe.cpp): OLMoE's routing, the chosen weights as they are
    // (build_moe_ffn norm_w false).
    if (type == "llada" || type == "lladamoe" || type == "llada_moe") {
      moe.weights_normalized = false;
    }
    // DeepSeek-OCR (deepseek_vl_v2): norm_topk_prob, absent in its config,
    // is what llama.cpp's expert_weights_norm becomes (default false).
    if (type == "deepseek_vl_v2") {
      moe.weights_normalized = get_bool(t, "norm_topk_prob").value_or(false);
    }
    if (type == "bailing_moe") {
      moe.weights_normalized = get_bool(t, "norm_topk_prob").value_or(false);
      moe.first_dense_layers = 0;
    }
    // Snowflake Arctic (arctic): intermediate_size is the experts' width;
    // the residual MLP beside them is hidden x hidden on every layer
    // (transformers-remote-code ArcticMLP is_residual_mlp: ffn_dim =
    // hidden_size; llama.cpp arctic.cpp ffn_up/gate/down n_embd x n_embd).
    if (type == "arctic") {
      moe.expert_intermediate_size = config_intermediate;
      moe.residual_mlp = true;
      a.intermediate_size = a.hidden_size;
    }
    a.moe = moe;
  }
  a.mtp_layers = static_cast<int>(std::min<std::int64_t>(
      get_int(t, {"num_nextn_predict_layers", "mtp_num_hidden_layers"}, 64).value_or(0), 64));
  // MiniMax-M3's config names MTP modules its released weights do not hold
  // (llama.cpp minimax-m3.cpp: "MTP is not in released model weights";
  // MiniMaxM3VLTextConfig: num_mtp_modules "ignored at inference").
  if (type.rfind("minimax_m3", 0) == 0) {
    a.mtp_layers = 0;
  }

  // Attention layout. Layer kinds come as layer_types / layers_block_type
  // (Qwen3-Next, Granite 4, LFM2, Gemma 3), a pattern string (Nemotron-H:
  // M = Mamba-2, * = attention, - = MLP only) or a period (Jamba).
  std::int64_t windowed = -1;  // from layer_types, when given
  std::int64_t recurrent = 0;
  std::int64_t attention_only = -1;  // Nemotron-H: layers that are attention
  std::string mixers;                // one letter a layer, as Attention::layer_mixers
  for (const char* key : {"layer_types", "layers_block_type"}) {
    const auto it = t.find(key);
    if (it == t.end() || !it->is_array()) {
      continue;
    }
    windowed = 0;
    mixers.clear();
    for (const auto& l : *it) {
      const std::string kind = l.is_string() ? to_lower(l.get<std::string>()) : "";
      if (kind.find("sliding") != std::string::npos || kind.find("chunk") != std::string::npos) {
        ++windowed;
        mixers += 'A';
      } else if (kind.find("linear") != std::string::npos ||
                 kind.find("mamba") != std::string::npos ||
                 kind.find("recurrent") != std::string::npos || kind == "conv") {
        ++recurrent;
        mixers += 'R';
      } else {
        mixers += 'A';
      }
    }
  }
  // MiniMax-Text-01 and MiniMax-M1 mark each layer in attn_type_list: 0
  // lightning attention, 1 softmax attention (MiniMaxAI/MiniMax-M1-40k
  // config.json: 1 on every 8th layer, as llama.cpp's minimax-01.cpp assumes
  // when the GGUF lists none).
  if (const auto it = t.find("attn_type_list"); windowed < 0 && is_minimax01(type) &&
                                                it != t.end() && it->is_array() &&
                                                std::ssize(*it) == a.layers) {
    windowed = 0;
    for (const auto& x : *it) {
      const bool attends = x.is_number_integer() && x.get<std::int64_t>() == 1;
      recurrent += attends ? 0 : 1;
      mixers += attends ? 'A' : 'R';
    }
  }
  // Qwen3-Next's released config.json leaves layer_types out (Qwen/Qwen3-Next-
  // 80B-A3B-Instruct at revision 9c7f2fbe) and transformers derives it
  // (configuration_qwen3_next.py, Qwen3NextConfig: layer i is linear attention
  // unless (i + 1) % full_attention_interval == 0; the interval defaults to 4).
  // Qwen3_5TextConfig.__post_init__ does the same (configuration_qwen3_5.py
  // at commit 4c88d54f).
  if (const auto interval = get_int(t, {"full_attention_interval"}, 1 << 16);
      windowed < 0 && (interval || type == "qwen3_next" ||
                       (type.rfind("qwen3_5", 0) == 0 || type.rfind("qwen4_exp", 0) == 0))) {
    const std::int64_t every = std::max<std::int64_t>(1, interval.value_or(4));
    windowed = 0;
    for (std::int64_t i = 0; i < a.layers; ++i) {
      const bool attends = (i + 1) % every == 0;
      recurrent += attends ? 0 : 1;
      mixers += attends ? 'A' : 'R';
    }
  }
  // Kimi Linear and Kimi K3 list their full-attention layers in
  // linear_attn_config, numbered from 1 (configuration_kimi.py at
  // moonshotai/Kimi-Linear-48B-A3B-Instruct 6e163f3, KimiLinearConfig
  // is_kda_layer: (layer_idx + 1) not in full_attn_layers; llama.cpp's
  // converter, conversion/kimi_linear.py, reads them so); the others are
  // Kimi Delta Attention.
  if (const auto it = t.find("linear_attn_config");
      windowed < 0 && it != t.end() && it->is_object() && it->contains("full_attn_layers")) {
    std::vector<bool> attends(static_cast<std::size_t>(a.layers), false);
    if (const auto& full = (*it)["full_attn_layers"]; full.is_array()) {
      for (const auto& x : full) {
        if (x.is_number_integer() && x.get<std::int64_t>() >= 1 &&
            x.get<std::int64_t>() <= a.layers) {
          attends[static_cast<std::size_t>(x.get<std::int64_t>() - 1)] = true;
        }
      }
    }
    windowed = 0;
    recurrent = std::count(attends.begin(), attends.end(), false);
    for (const bool x : attends) {
      mixers += x ? 'A' : 'R';
    }
  }
  // Ling 3 (bailing_hybrid, BailingMoeV3ForCausalLM): MLA on the last layer
  // of each layer_group_size group and on the layers past the last whole
  // group, Kimi Delta Attention on the others (conversion/bailingmoe3.py
  // is_full_attention, which writes them as head_count_kv 1 and 0).
  if (const auto group = get_int(t, {"layer_group_size"}, 1 << 16);
      windowed < 0 && group && *group > 0 && type == "bailing_hybrid") {
    windowed = 0;
    recurrent = 0;
    mixers.clear();
    const std::int64_t whole = a.layers / *group * *group;
    for (std::int64_t i = 0; i < a.layers; ++i) {
      const bool attends = (i + 1) % *group == 0 || i >= whole;
      recurrent += attends ? 0 : 1;
      mixers += attends ? 'A' : 'R';
    }
  }
  // PLaMo 2 (modeling_plamo.py is_mamba, as conversion/plamo.py writes the
  // per-layer head counts): with mamba_enabled (default true), layer i is a
  // Mamba mixer unless i % mamba_step == mamba_step / 2 (mamba_step default
  // 2: the odd layers attend); a model of no more than mamba_step / 2
  // layers attends on its last layer only.
  if (windowed < 0 && type == "plamo2" && get_bool(t, "mamba_enabled").value_or(true)) {
    const std::int64_t step =
        std::max<std::int64_t>(1, get_int(t, {"mamba_step"}, 1 << 16).value_or(2));
    windowed = 0;
    recurrent = 0;
    mixers.clear();
    for (std::int64_t i = 0; i < a.layers; ++i) {
      const bool mamba = a.layers <= step / 2 ? i != a.layers - 1 : i % step != step / 2;
      recurrent += mamba ? 1 : 0;
      mixers += mamba ? 'R' : 'A';
    }
  }
  // LFM2's original configs list the attention layers instead
  // (full_attn_idxs; every other layer is a short convolution, Lfm2Config).
  if (const auto it = t.find("full_attn_idxs");
      windowed < 0 && type.rfind("lfm2", 0) == 0 && it != t.end() && it->is_array()) {
    std::vector<bool> attends(static_cast<std::size_t>(a.layers), false);
    for (const auto& x : *it) {
      if (x.is_number_integer() && x.get<std::int64_t>() >= 0 && x.get<std::int64_t>() < a.layers) {
        attends[static_cast<std::size_t>(x.get<std::int64_t>())] = true;
      }
    }
    recurrent = std::count(attends.begin(), attends.end(), false);
    for (const bool x : attends) {
      mixers += x ? 'A' : 'R';
    }
  }
  // Bamba's config.json lists its attention layers, numbered from 0, in
  // attn_layer_indices; every other layer is a Mamba-2 mixer (transformers
  // bamba/configuration_bamba.py at 001f85b3, BambaConfig.layers_block_type:
  // "attention" if i in attn_layer_indices else "mamba").
  if (const auto it = t.find("attn_layer_indices");
      windowed < 0 && type == "bamba" && it != t.end() && it->is_array()) {
    std::vector<bool> attends(static_cast<std::size_t>(a.layers), false);
    for (const auto& x : *it) {
      if (x.is_number_integer() && x.get<std::int64_t>() >= 0 && x.get<std::int64_t>() < a.layers) {
        attends[static_cast<std::size_t>(x.get<std::int64_t>())] = true;
      }
    }
    windowed = 0;
    recurrent = std::count(attends.begin(), attends.end(), false);
    mixers.clear();
    for (const bool x : attends) {
      mixers += x ? 'A' : 'R';
    }
  }
  if (const std::string pattern = get_string(t, "hybrid_override_pattern"); !pattern.empty()) {
    recurrent = std::count(pattern.begin(), pattern.end(), 'M');
    attention_only = std::count(pattern.begin(), pattern.end(), '*');
    a.mlp_layers = static_cast<int>(
        std::count_if(pattern.begin(), pattern.end(), [](char c) { return c == '-' || c == 'E'; }));
    if (a.mlp_layers == 0) {
      a.mlp_layers = -1;  // no MLP layers at all; fixed below
    }
    mixers.clear();  // '*' attention, 'M' Mamba-2, the rest MLP-only blocks
    for (const char c : pattern) {
      mixers += c == '*' ? 'A' : (c == 'M' ? 'R' : 'F');
    }
  } else if (const auto period = get_int(t, {"attn_layer_period"}, 100000); period) {
    // Jamba: layer i attends when i % period == offset, the rest are Mamba.
    const auto offset = get_int(t, {"attn_layer_offset"}, 100000).value_or(0);
    std::int64_t n = 0;
    mixers.clear();
    for (std::int64_t i = 0; i < a.layers; ++i) {
      const bool attends = i % *period == offset % *period;
      n += attends ? 1 : 0;
      mixers += attends ? 'A' : 'R';
    }
    recurrent = a.layers - n;
  }
  // Falcon-H1 runs a Mamba-2 mixer beside attention in every layer.
  const bool parallel_hybrid = type == "falcon_h1";
  if (parallel_hybrid) {
    recurrent = a.layers;
  }
  // MiniMax-M3's sparse attention (MSA): an indexer of sparse_num_index_heads
  // heads of sparse_index_dim beside GQA on the layers sparse_attention_freq
  // marks 1 (its MoE layers).
  if (const auto it = t.find("sparse_attention_config"); it != t.end() && it->is_object()) {
    const Json& sparse = *it;
    a.attention.index_head_dim =
        static_cast<int>(get_int(sparse, {"sparse_index_dim"}, 1 << 16).value_or(0));
    a.attention.index_heads =
        static_cast<int>(get_int(sparse, {"sparse_num_index_heads"}, 1 << 16).value_or(0));
    if (const auto freq = sparse.find("sparse_attention_freq");
        freq != sparse.end() && freq->is_array()) {
      a.attention.indexer_layers = static_cast<int>(
          std::min<std::int64_t>(std::count(freq->begin(), freq->end(), 1), a.layers));
    }
  }
  if (const auto rank = get_int(t, {"kv_lora_rank"}, 1 << 20)) {
    Attention& at = a.attention;
    at.kind = AttentionKind::Mla;
    at.kv_lora_rank = static_cast<int>(*rank);
    at.q_lora_rank = static_cast<int>(get_int(t, {"q_lora_rank"}, 1 << 20).value_or(0));
    at.qk_rope_head_dim = static_cast<int>(get_int(t, {"qk_rope_head_dim"}, 1 << 20).value_or(64));
    at.qk_nope_head_dim = static_cast<int>(get_int(t, {"qk_nope_head_dim"}, 1 << 20).value_or(128));
    at.v_head_dim = static_cast<int>(get_int(t, {"v_head_dim"}, 1 << 20).value_or(a.head_dim));
    a.head_dim = at.qk_nope_head_dim + at.qk_rope_head_dim;
    // DeepSeek-V3.2's sparse-attention indexer.
    at.index_head_dim = static_cast<int>(get_int(t, {"index_head_dim"}, 1 << 16).value_or(0));
    at.index_heads = static_cast<int>(get_int(t, {"index_n_heads"}, 1 << 16).value_or(0));
    at.index_top_k = static_cast<int>(get_int(t, {"index_topk"}, 1 << 24).value_or(0));
    // GLM-5.2 lists each layer's indexer as "full" (its own) or "shared"
    // (reusing an earlier layer's choice: no indexer weights or keys).
    if (const auto types = t.find("indexer_types"); types != t.end() && types->is_array()) {
      at.indexer_layers = static_cast<int>(
          std::count_if(types->begin(), types->end(), [](const Json& x) { return x == "full"; }));
    }
    // Kimi K3 gates the MLA output (mla_use_output_gate); Ling 3 per head
    // (gated_attention_proj_granularity_type head_wise, the only kind
    // conversion/bailingmoe3.py converts).
    at.mla_output_gate = get_bool(t, "mla_use_output_gate").value_or(false);
    at.mla_head_gate = get_string(t, "gated_attention_proj_granularity_type") == "head_wise";
    // dots.llm3 (model_type dots3_note; llama.cpp conversion/dots3.py at
    // 80fb11ac reads the same keys): layer_types marks each layer
    // "sliding_attention" or full ("full_attention", which transformers'
    // Dots3NoteTextConfig renames "deepseek_sparse_attention"); without
    // it, that config's default: full on layers 0, 1 and every i % 4 == 1.
    // The windowed layers' MLA is the swa_* keys' (the query latent is
    // shared: the converter refuses another swa_q_lora_rank), their window
    // sliding_window_size (the converter's key; 513 tokens, self
    // included); the indexer is on the full layers only; every layer gates
    // its heads (attention_gate_type headwise, the only kind converted);
    // the router adds a bias (noaux_tc, ffn_exp_probs_b); the MTP block is
    // a windowed layer with a dense MLP and a token embedding of its own.
    if (type == "dots3_note" || type == "dots3_note_text") {
      std::string listed = listed_window_layers(t, a.layers);
      if (listed.empty()) {
        for (int i = 0; i < a.layers; ++i) {
          listed += i < 2 || i % 4 == 1 ? 'G' : 'S';
        }
      }
      at.window_layers = listed;
      at.sliding_window =
          get_int(t, {"sliding_window_size", "sliding_window"}, 1 << 24).value_or(512);
      at.swa_heads =
          static_cast<int>(get_int(t, {"swa_num_attention_heads"}, 1 << 16).value_or(a.heads));
      at.swa_kv_lora_rank =
          static_cast<int>(get_int(t, {"swa_kv_lora_rank"}, 1 << 20).value_or(at.kv_lora_rank));
      at.swa_qk_nope_head_dim = static_cast<int>(
          get_int(t, {"swa_qk_nope_head_dim"}, 1 << 20).value_or(at.qk_nope_head_dim));
      at.swa_v_head_dim =
          static_cast<int>(get_int(t, {"swa_v_head_dim"}, 1 << 20).value_or(at.v_head_dim));
      at.indexer_layers = static_cast<int>(std::count(listed.begin(), listed.end(), 'G'));
      at.mla_head_gate = true;
      if (a.moe) {
        a.moe->selection_bias = true;
      }
      a.mtp_dense = a.mtp_layers > 0;
    }
    // Kimi Linear and K3: MLA on the full-attention layers, Kimi Delta
    // Attention on the others.
    if (recurrent > 0 && recurrent < a.layers) {
      at.kind = AttentionKind::Hybrid;
      at.attention_layers = static_cast<int>(a.layers - recurrent);
      at.recurrent_layers = static_cast<int>(recurrent);
      set_recurrent_shape(t, type, a);
      if (std::ssize(mixers) == a.layers) {
        at.layer_mixers = mixers;
      }
    }
  } else if (recurrent > 0 && (recurrent < a.layers || parallel_hybrid)) {
    Attention& at = a.attention;
    at.kind = AttentionKind::Hybrid;
    at.attention_layers = static_cast<int>(
        parallel_hybrid ? a.layers : (attention_only >= 0 ? attention_only : a.layers - recurrent));
    at.recurrent_layers = static_cast<int>(recurrent);
    set_recurrent_shape(t, type, a);
    // The layer order, which the compute-buffer replay follows (as a GGUF's
    // per-layer KV heads give it); Falcon-H1 attends in every layer.
    if (!parallel_hybrid && std::ssize(mixers) == a.layers) {
      at.layer_mixers = mixers;
    }
    // Nemotron-H's blocks are replayed in their order; without it the closed
    // form stays. Its MoE blocks (nemotron_h_moe) choose their experts by a
    // sigmoid plus a per-expert bias (modeling_nemotron_h.py NemotronHTopkRouter
    // e_score_correction_bias; llama.cpp exp_probs_b).
    if (type == "nemotron_h" && at.layer_mixers.find('F') == std::string::npos) {
      at.mamba = 0;
    }
    if (type == "nemotron_h" && a.moe) {
      a.moe->selection_bias = true;
    }
  } else if (const auto chunk = get_int(t, {"attention_chunk_size"}, std::int64_t{1} << 31);
             chunk && (a.max_context == 0 || *chunk < a.max_context)) {
    // Llama 4: chunked local attention; the layers listed 0 in no_rope_layers
    // (one in four) are global and use no position encoding.
    int pattern = 4;
    if (const auto it = t.find("no_rope_layers"); it != t.end() && it->is_array() && !it->empty()) {
      const auto global = std::count_if(it->begin(), it->end(), [](const Json& x) {
        return x.is_number_integer() && x.get<std::int64_t>() == 0;
      });
      pattern = global > 0 ? static_cast<int>(std::lround(static_cast<double>(it->size()) /
                                                          static_cast<double>(global)))
                           : 0;
    }
    a.attention.kind = AttentionKind::Sliding;
    a.attention.chunked = true;
    a.attention.sliding_window = *chunk;
    a.attention.sliding_pattern = pattern;
  } else if (const auto window = get_int(t, {"sliding_window"}, std::int64_t{1} << 31);
             window && get_bool(t, "use_sliding_window").value_or(true) &&
             // phimoe: llama.cpp ignores the window (phimoe.cpp reads none);
             // starcoder2.cpp too (build_attn_inp_kv: every layer cached
             // whole, the live StarCoder2-3B rows at 32768 tokens)
             type != "phimoe" && type != "starcoder2" &&
             (a.max_context == 0 || *window < a.max_context) && windowed != 0) {
    int pattern = 0;
    if (windowed > 0 && windowed < a.layers) {
      pattern = static_cast<int>(
          std::lround(static_cast<double>(a.layers) / static_cast<double>(a.layers - windowed)));
    } else if (const auto p =
                   get_int(t, {"sliding_window_pattern", "_sliding_window_pattern"}, 100000)) {
      pattern = static_cast<int>(*p);
    } else if (type == "gemma2" || type == "gpt_oss") {
      pattern = 2;
    } else if (type == "gemma3" || type == "gemma3_text") {
      pattern = 6;
    } else if (type == "cohere2") {
      pattern = 4;
    }
    a.attention.kind = AttentionKind::Sliding;
    a.attention.sliding_window = *window;
    a.attention.sliding_pattern = pattern;
    // llama.cpp builds no window for these (Attention::llama_cpp_no_window):
    // mistral and mixtral convert to arch llama (conversion/llama.py at
    // 80fb11ac), whose graph has none; phi3.cpp switches Phi-3's off.
    a.attention.llama_cpp_no_window = type == "mistral" || type == "mixtral" || type == "phi3";
    // Gemma 4: the global layers' own shape (config.json
    // global_head_dim, num_global_key_value_heads, attention_k_eq_v; a config
    // without num_global_key_value_heads, E2B/E4B, keeps num_key_value_heads).
    a.attention.global_head_dim =
        static_cast<int>(get_int(t, {"global_head_dim"}, 1 << 16).value_or(0));
    a.attention.global_kv_heads =
        static_cast<int>(get_int(t, {"num_global_key_value_heads"}, 1 << 16).value_or(0));
    a.attention.global_k_eq_v = get_bool(t, "attention_k_eq_v").value_or(false);
  }

  // Step-3.5 (model_type step3p5; llama.cpp conversion/step3.py
  // Step35Model.set_gguf_parameters reads the same keys): num_attention_heads
  // and num_attention_groups are the full-attention layers', the windowed
  // layers' are attention_other_setting's; layer_types lists the MTP blocks
  // after the trunk (45 + 3), full attention where i % 4 == 0; the MoE layers
  // are moe_layers_enum ("3,4,...,44": the first is the dense lead), each
  // with one shared expert of share_expert_dim and a router bias
  // (use_moe_router_bias); use_head_wise_attn_gate gates each head.
  if (type == "step3p5") {
    const auto groups = get_int(t, {"num_attention_groups"}, 1 << 16);
    a.kv_heads =
        static_cast<int>(std::clamp<std::int64_t>(groups.value_or(a.kv_heads), 1, a.heads));
    if (const auto it = t.find("attention_other_setting"); it != t.end() && it->is_object()) {
      const auto other_heads = get_int(*it, {"num_attention_heads"}, 1 << 16);
      const auto other_groups = get_int(*it, {"num_attention_groups"}, 1 << 16);
      if (other_heads && *other_heads != a.heads) {
        a.attention.global_heads = a.heads;
        a.heads = static_cast<int>(*other_heads);
      }
      if (other_groups && *other_groups != a.kv_heads) {
        a.attention.global_kv_heads = a.kv_heads;
        a.kv_heads = static_cast<int>(*other_groups);
      }
    }
    if (const auto it = t.find("layer_types"); it != t.end() && it->is_array() &&
                                               std::ssize(*it) >= a.layers &&
                                               a.attention.sliding_window > 0) {
      int global = 0;
      int second = 0;  // the second global layer's index (0: none)
      for (int i = 0; i < a.layers; ++i) {
        const auto& l = (*it)[static_cast<std::size_t>(i)];
        const bool full = l.is_string() && l.get<std::string>() == "full_attention";
        global += full ? 1 : 0;
        second = full && global == 2 ? i : second;
      }
      const auto& first = (*it)[0];
      a.attention.kind = AttentionKind::Sliding;
      a.attention.global_first = first.is_string() && first.get<std::string>() == "full_attention";
      a.attention.sliding_pattern =
          global > 0 ? static_cast<int>(std::lround(static_cast<double>(a.layers) / global)) : 0;
      // Global layers from the first one on (Step-3.5: i % 4 == 0, config
      // layer_types): their spacing is the second one's index, which a
      // count does not give when the layers are not a whole number of
      // periods (a reduced 6-layer Step-3.5 has globals 0 and 4, not 0 and 3).
      if (a.attention.global_first && second > 0) {
        a.attention.sliding_pattern = second;
      }
    }
    a.attention.head_gate = get_bool(t, "use_head_wise_attn_gate").value_or(false);
    if (a.moe) {
      if (const auto it = t.find("moe_layers_enum"); it != t.end() && it->is_string()) {
        // the smallest layer number in the list
        int first = a.layers;
        int n = -1;
        for (const char c : it->get<std::string>() + ",") {
          if (c >= '0' && c <= '9') {
            n = std::min(100000, std::max(0, n) * 10 + (c - '0'));
          } else {
            first = n >= 0 ? std::min(first, n) : first;
            n = -1;
          }
        }
        a.moe->first_dense_layers = std::min(first, a.layers);
      }
      if (const auto shared = get_int(t, {"share_expert_dim"}, 1 << 24);
          shared && *shared > 0 && a.moe->expert_intermediate_size > 0) {
        a.moe->shared_experts = static_cast<int>(std::max<std::int64_t>(
            1, (*shared + a.moe->expert_intermediate_size / 2) / a.moe->expert_intermediate_size));
      }
      a.moe->selection_bias = get_bool(t, "use_moe_router_bias").value_or(false);
    }
    a.mtp_dense = a.mtp_layers > 0;
  }

  // SmallThinker (model_type smallthinker; llama.cpp conversion/smallthinker.py
  // and src/models/smallthinker.cpp at 80fb11ac): routed experts on every
  // layer, no dense MLP (the converter writes moe_ffn_hidden_size as both
  // widths); a window only when sliding_window_layout marks a layer 1 (the
  // 4B-A0.6B marks none), and then llama.cpp's, whatever the config says:
  // 4096 tokens on all but layer 0 and every 4th after it
  // (load_arch_hparams: n_swa = 4096, set_swa_pattern(4, dense_first)).
  if (type == "smallthinker") {
    if (a.moe && a.intermediate_size == 0) {
      a.intermediate_size = a.moe->expert_intermediate_size;
    }
    if (a.moe) {  // its router reads the layer's input (smallthinker.cpp: ffn_gate_inp x inpL)
      a.moe->router_reads_layer_input = true;
    }
    if (const auto it = t.find("sliding_window_layout");
        it != t.end() && it->is_array() &&
        std::any_of(it->begin(), it->end(), [](const Json& x) { return x == 1; })) {
      a.attention.kind = AttentionKind::Sliding;
      a.attention.sliding_window = 4096;
      a.attention.sliding_pattern = 4;
      a.attention.global_first = true;
    }
  }

  // AFMoE (Arcee Trinity Nano, Mini, Large; model_type afmoe; llama.cpp
  // conversion/afmoe.py and afmoe.cpp): a global layer every
  // global_attn_every_n_layers (4; layer_types, where given, says the same
  // and was read above; llama.cpp's period is 4 whatever the file); every
  // layer gates its attention output (attn_gate); the leading dense layers
  // are num_dense_layers (read above), the MoE layers carry a router bias
  // (expert_bias, which the converter maps to exp_probs_b, required by
  // afmoe.cpp) beside num_shared_experts shared experts.
  if (type == "afmoe") {
    if (a.attention.kind == AttentionKind::Sliding && a.attention.sliding_pattern == 0 &&
        a.attention.window_layers.empty()) {
      a.attention.sliding_pattern =
          static_cast<int>(get_int(t, {"global_attn_every_n_layers"}, 1 << 16).value_or(4));
    }
    a.attention.output_gate = true;
    if (a.moe) {
      a.moe->selection_bias = true;
    }
  }

  // Muse Glimmer (meta-models/Muse-Glimmer-30B: model_type muse_glimmer, its
  // text_config muse_glimmer_text; transformers' MuseGlimmerTextConfig,
  // src/transformers/models/muse_glimmer/configuration_muse_glimmer.py;
  // llama.cpp muse-glimmer.cpp): every layer gates its attention output
  // (self_attn.gate_proj, hidden x heads head_dim, a sigmoid: afmoe's output
  // gate) and normalizes Q and K per head; layer_types (read above) window
  // three layers of four, the global ones (every 4th counted back from the
  // last, MuseGlimmerTextConfig's default when the config lists none) without
  // RoPE.
  if (type == "muse_glimmer" || type == "muse_glimmer_text") {
    Attention& at = a.attention;
    at.output_gate = true;
    at.nope_global = true;
    if (at.kind == AttentionKind::Sliding && at.window_layers.empty() && at.sliding_pattern == 0) {
      for (int i = 0; i < a.layers; ++i) {
        at.window_layers += (a.layers - 1 - i) % 4 == 0 ? 'G' : 'S';
      }
    }
  }

  // ModernBERT (ModernBertConfig, model_type modernbert: answerdotai's
  // ModernBERT, IBM's granite-embedding-*-r2; llama.cpp conversion/bert.py
  // ModernBertModel and modern-bert.cpp at 80fb11ac). Wqkv one projection,
  // Wi gate and up together (2 x intermediate_size, GEGLU; SwiGLU when
  // hidden_activation is silu: the same shapes), LayerNorms without bias
  // (norm_bias False by default), no other biases. Every layer attends
  // within local_attention tokens but layer 0 and every
  // global_attn_every_n_layers-th after it (the converter writes both as
  // sliding_window and sliding_window_pattern; llama.cpp's set_swa_pattern
  // (period, dense first), period 3 unless given).
  if (type == "modernbert") {
    a.attention.fused_qkv = true;
    a.fused_gate_up = true;
    a.norm_bias = get_bool(t, "norm_bias").value_or(false);
    if (const auto w = get_int(t, {"local_attention"}, 1 << 24); w && *w > 0) {
      a.attention.kind = AttentionKind::Sliding;
      a.attention.sliding_window = *w;
      a.attention.sliding_pattern =
          static_cast<int>(get_int(t, {"global_attn_every_n_layers"}, 1 << 16).value_or(3));
      a.attention.global_first = true;
      a.attention.window_layers.clear();
    }
  }

  // NeoBERT (chandar-lab/NeoBERT, model_type neobert, remote code; llama.cpp
  // conversion/bert.py NeoBert and neo-bert.cpp at 80fb11ac): one qkv
  // projection, SwiGLU's gate and up in one w12, RMS norms (the replay is
  // ModernBERT's: the norms' kind moves no buffer), no biases. Its
  // MLP is 2/3 of intermediate_size wide (the checkpoint's w12 is 4096 x 768
  // and w3 768 x 2048 for intermediate_size 3072; the converter writes
  // int(2 x intermediate_size / 3) as feed_forward_length), its context
  // max_length.
  if (type == "neobert") {
    a.attention.fused_qkv = true;
    a.fused_gate_up = true;
    a.intermediate_size = 2 * a.intermediate_size / 3;
    if (const auto n = get_int(t, {"max_length"}, std::int64_t{1} << 31); n && *n > 0) {
      a.max_context = *n;
    }
  }

  // Laguna (poolside Laguna XS.2, S-2.1, M.1; model_type laguna; llama.cpp
  // conversion/laguna.py and src/models/laguna.cpp at 80fb11ac). A window
  // (sliding_window > 0; M.1 has none and is one plain cache) puts layer 0
  // and every 4th after it at full attention, whatever layer_types says
  // (the converter writes no pattern; load_arch_hparams: swa_period 4,
  // set_swa_pattern dense first). num_attention_heads_per_layer gives each
  // layer's query heads (XS.2: 48 full, 64 windowed; KV heads uniform); the
  // output gate is a softplus per head (gating true or "per-head": g_proj
  // hidden x heads) or per element ("per-element": hidden x heads x
  // head_dim); the MoE layers carry a router bias (e_score_correction_bias,
  // exp_probs_b, required by the loader) and one shared expert of
  // shared_expert_intermediate_size (read above); mlp_layer_types' leading
  // "dense" layers have the dense MLP (read above).
  if (type == "laguna") {
    Attention& at = a.attention;
    if (at.kind == AttentionKind::Sliding) {
      at.sliding_pattern = 4;
      at.global_first = true;
      at.window_layers.clear();
    }
    if (const auto it = t.find("num_attention_heads_per_layer");
        it != t.end() && it->is_array() && std::ssize(*it) >= a.layers) {
      int windowed_heads = 0;
      int global_heads = 0;
      for (int i = 0; i < a.layers; ++i) {
        const auto& n = (*it)[static_cast<std::size_t>(i)];
        const int h =
            n.is_number_integer()
                ? static_cast<int>(std::clamp<std::int64_t>(n.get<std::int64_t>(), 0, 1 << 16))
                : 0;
        int& widest = is_global_layer(a, i) ? global_heads : windowed_heads;
        widest = std::max(widest, h);
      }
      if (at.kind != AttentionKind::Sliding) {
        windowed_heads = global_heads;
      }
      if (windowed_heads > 0) {
        a.heads = windowed_heads;
      }
      if (global_heads > 0 && global_heads != a.heads) {
        at.global_heads = global_heads;
      }
    }
    const auto gating = t.find("gating");
    const bool per_element = gating != t.end() && gating->is_string() &&
                             (gating->get<std::string>() == "per-element" ||
                              gating->get<std::string>() == "per_element");
    const bool per_head = !per_element && gating != t.end() &&
                          ((gating->is_boolean() && gating->get<bool>()) ||
                           (gating->is_string() && (gating->get<std::string>() == "per-head" ||
                                                    gating->get<std::string>() == "per_head")));
    at.output_gate = per_element;
    at.head_gate = per_head;
    at.softplus_gate = per_element || per_head;
    if (a.moe) {
      a.moe->selection_bias = true;
    }
  }

  // Cohere2 MoE (North Mini Code; model_type cohere2_moe; llama.cpp
  // conversion/command_r.py Cohere2MoeModel and src/models/cohere2moe.cpp at
  // 80fb11ac): intermediate_size is the experts' width, and the dense lead's
  // MLP is prefix_dense_intermediate_size (the converter's
  // feed_forward_length; intermediate_size without it); norm_topk_prob
  // becomes expert_weights_norm (the converter's default False); layer_types
  // lists each layer (North: global where i % 4 == 0, 13 of 49), which the
  // converter writes as per-layer sliding_window_pattern flags. A parallel
  // block: one norm feeds the attention and the MLP; the global layers after
  // the dense lead use no RoPE.
  if (type == "cohere2_moe") {
    if (a.moe) {
      a.moe->expert_intermediate_size = config_intermediate;
      a.intermediate_size =
          get_int(t, {"prefix_dense_intermediate_size"}, 1 << 24).value_or(config_intermediate);
      a.moe->weights_normalized = get_bool(t, "norm_topk_prob").value_or(false);
    }
    if (std::string listed = listed_window_layers(t, a.layers);
        !listed.empty() && a.attention.kind == AttentionKind::Sliding) {
      a.attention.window_layers = std::move(listed);
    }
    a.attention.parallel_block = ParallelBlock::Cohere;
    a.attention.nope_global = true;
  }

  // Mellum2 (model_type mellum; llama.cpp conversion/mellum.py at 80fb11ac):
  // the converter writes the window only where use_sliding_window is true or
  // absent, and then layer_types as one flag a layer (mellum.cpp reads them
  // as the windowed layers); without a window every layer caches the context.
  if (type == "mellum") {
    const auto window = get_int(t, {"sliding_window"}, 1 << 24);
    std::string listed = listed_window_layers(t, a.layers);
    if (get_bool(t, "use_sliding_window").value_or(true) && window && *window > 0 &&
        listed.find('S') != std::string::npos) {
      window_listed_layers(a, std::move(listed), *window);
    } else {
      a.attention.kind = AttentionKind::Full;
      a.attention.sliding_window = 0;
      a.attention.sliding_pattern = 0;
      a.attention.window_layers.clear();
    }
  }

  // Granite SWASH (model_type granite_swa, GraniteSWAConfig; granitemoe_swa,
  // GraniteMoeSWAConfig; llama.cpp conversion/granite.py GraniteSWAModel):
  // layer_types marks each layer, and without it the configs' own default
  // holds (full attention where i % 4 == 0, the rest windowed), which the
  // converter writes as per-layer sliding_window_pattern flags; the window is
  // sliding_window, 128 when absent (both configs' default, and the
  // converter's).
  if (type == "granite_swa" || type == "granitemoe_swa") {
    std::string listed = listed_window_layers(t, a.layers);
    if (listed.empty()) {
      for (int i = 0; i < a.layers; ++i) {
        listed += i % 4 == 0 ? 'G' : 'S';
      }
    }
    if (listed.find('S') != std::string::npos) {
      window_listed_layers(a, std::move(listed),
                           get_int(t, {"sliding_window"}, 1 << 24).value_or(128));
    }
  }

  // MiMo-V2-Flash (model_type mimo_v2_flash; MiMo-V2.5's mimo_v2; llama.cpp
  // conversion/mimo.py MimoV2Model.set_gguf_parameters reads the same keys):
  // hybrid_layer_pattern marks each layer 1 (windowed) or 0 (global);
  // num_key_value_heads are the global layers', swa_num_key_value_heads the
  // windowed ones' (the converter asserts the other swa_* widths equal the
  // global ones); v_head_dim is V's head width beside head_dim's Q and K;
  // attention_value_scale scales the attention output; moe_layer_freq's
  // leading 0s are the dense layers (read above); the router adds
  // e_score_correction_bias (topk_method noaux_tc, asserted by the
  // converter); and the 3 MTP blocks, which the config does not count
  // (mimo.py _n_nextn = 3), are windowed with a dense MLP and the trunk's
  // output head.
  if (type == "mimo_v2_flash" || type == "mimo_v2") {
    const auto swa_kv = get_int(t, {"swa_num_key_value_heads"}, 1 << 16);
    if (swa_kv && *swa_kv > 0 && *swa_kv != a.kv_heads) {
      a.attention.global_kv_heads = a.kv_heads;
      a.kv_heads = static_cast<int>(*swa_kv);
    }
    if (const auto v = get_int(t, {"v_head_dim"}, 1 << 16); v && *v > 0 && *v != a.head_dim) {
      a.attention.value_head_dim = static_cast<int>(*v);
    }
    if (const auto it = t.find("hybrid_layer_pattern");
        it != t.end() && it->is_array() && std::ssize(*it) >= a.layers &&
        a.attention.kind == AttentionKind::Sliding) {
      std::string listed;
      for (int i = 0; i < a.layers; ++i) {
        const auto& l = (*it)[static_cast<std::size_t>(i)];
        listed += l.is_number_integer() && l.get<std::int64_t>() == 0 ? 'G' : 'S';
      }
      const auto global = std::count(listed.begin(), listed.end(), 'G');
      a.attention.window_layers = listed;
      a.attention.sliding_pattern =
          global > 0 ? static_cast<int>(
                           std::lround(static_cast<double>(a.layers) / static_cast<double>(global)))
                     : 0;
    }
    if (const auto it = t.find("attention_value_scale"); it != t.end() && it->is_number()) {
      const double scale = it->get<double>();
      a.attention.value_scale = scale != 0.0 && scale != 1.0;
    }
    if (a.moe) {
      a.moe->selection_bias = true;
    }
    if (!t.contains("num_nextn_predict_layers")) {
      a.mtp_layers = 3;
    }
    a.mtp_dense = true;
    a.mtp_shares_head = true;
  }

  // DeepSeek-V4 (config.json of deepseek-ai/DeepSeek-V4-Flash; llama.cpp
  // conversion/deepseek.py DeepseekV4Model writes these keys into the GGUF
  // that gguf.cpp reads): compress_ratios, one per layer and then one per
  // MTP block, 0, 4 or 128, on top of the sliding window every layer keeps;
  // the query latent, the grouped output projection (o_groups, o_lora_rank),
  // the indexer, hc_mult streams and num_hash_layers hash-routed layers.
  if (const auto it = t.find("compress_ratios");
      type == "deepseek_v4" && a.attention.kind == AttentionKind::Sliding && it != t.end() &&
      it->is_array() && std::ssize(*it) >= a.layers) {
    Attention& at = a.attention;
    for (int i = 0; i < a.layers; ++i) {
      const Json& r = (*it)[static_cast<std::size_t>(i)];
      const std::int64_t ratio = r.is_number_integer() ? r.get<std::int64_t>() : 0;
      at.compress_layers += ratio == 4 ? 'C' : ratio == 128 ? 'H' : 'S';
    }
    at.q_lora_rank = static_cast<int>(get_int(t, {"q_lora_rank"}, 1 << 20).value_or(0));
    at.o_groups = static_cast<int>(get_int(t, {"o_groups"}, 1 << 16).value_or(0));
    at.o_lora_rank = static_cast<int>(get_int(t, {"o_lora_rank"}, 1 << 20).value_or(0));
    at.index_head_dim = static_cast<int>(get_int(t, {"index_head_dim"}, 1 << 16).value_or(0));
    at.index_heads = static_cast<int>(get_int(t, {"index_n_heads"}, 1 << 16).value_or(0));
    at.index_top_k = static_cast<int>(get_int(t, {"index_topk"}, 1 << 20).value_or(0));
    a.hyper_connections = static_cast<int>(get_int(t, {"hc_mult"}, 64).value_or(0));
    a.hash_layers = static_cast<int>(
        std::min<std::int64_t>(get_int(t, {"num_hash_layers"}, 100000).value_or(0), a.layers));
    // The MTP block ships in the checkpoint, but llama.cpp's converter
    // leaves it out of the model file (DeepseekV4Model.filter_tensors drops
    // "mtp." unless asked for a separate MTP file), so the GGUF of the same
    // model has none: counted as not loaded.
    a.mtp_layers = 0;
  }

  if (a.mlp_layers < 0) {
    a.mlp_layers = 0;
    a.intermediate_size = 0;
  }
  // Qwen4Exp (Qwen3.8-Flash-Next; llama.cpp conversion/qwen4exp.py at
  // 80fb11ac writes these keys into the GGUF that gguf.cpp reads): hc_count
  // streams mixed through a gate of rank hc_lowrank, QSA's indexer
  // (indexer_n_heads query heads and one key of indexer_head_dim, pooled in
  // blocks of indexer_compress_ratio, indexer_budget kept) on every
  // full-attention layer, and the n-gram table read on the one layer
  // ple_layer_ids names (1-based). The MTP block ships in the checkpoint, but
  // the converter drops it (supports_mtp_export = False, "vLLM drops it
  // too"), so the GGUF of the same model has none: counted as not loaded.
  if (type.rfind("qwen4_exp", 0) == 0) {
    a.mtp_layers = 0;
    a.hyper_connections = static_cast<int>(get_int(t, {"hc_count"}, 64).value_or(0));
    a.hc_low_rank = static_cast<int>(get_int(t, {"hc_lowrank"}, 1 << 16).value_or(0));
    Attention& at = a.attention;
    at.index_heads = static_cast<int>(get_int(t, {"indexer_n_heads"}, 1 << 10).value_or(0));
    at.index_head_dim = static_cast<int>(get_int(t, {"indexer_head_dim"}, 1 << 16).value_or(0));
    at.index_top_k = static_cast<int>(get_int(t, {"indexer_budget"}, 1 << 24).value_or(0));
    at.index_block = static_cast<int>(get_int(t, {"indexer_compress_ratio"}, 1 << 16).value_or(0));
    const auto ple = t.find("ple_layer_ids");
    const auto ngram = get_int(t, {"ngram_size"}, 64);
    const auto per_ngram = get_int(t, {"heads_per_ngram"}, 1024);
    const auto base = get_int(t, {"ngram_vocab_size_base"}, std::int64_t{1} << 40);
    if (ple != t.end() && ple->is_array() && ple->size() == 1 && (*ple)[0].is_number_integer() &&
        ngram && *ngram >= 2 && per_ngram && *per_ngram > 0 && base && *base > 0) {
      const std::int64_t layer = (*ple)[0].get<std::int64_t>() - 1;
      const int ngram_heads = static_cast<int>((*ngram - 1) * *per_ngram);
      // ple_embed_dim defaults to hidden_size (configuration_qwen4_exp.py, as
      // the transcriptions quote it); each head's rows are a slice of it.
      const std::int64_t width = get_int(t, {"ple_embed_dim"}, 1 << 20).value_or(a.hidden_size);
      if (layer >= 0 && layer < a.layers && width % ngram_heads == 0) {
        a.ngram_layer = static_cast<int>(layer);
        a.ngram_size = static_cast<int>(*ngram);
        a.ngram_heads = ngram_heads;
        a.ngram_width = width / ngram_heads;
        a.ngram_conv = static_cast<int>(get_int(t, {"ple_conv_kernel_size"}, 64).value_or(4));
        a.ngram_rows = ngram_table_rows(
            *base, ngram_heads,
            get_int(t, {"make_ngram_vocab_size_divisible_by"}, 1 << 20).value_or(1));
      }
    }
  }
  // Gemma 3n: per-layer embeddings and layers sharing their KV.
  a.per_layer_width = get_int(t, {"hidden_size_per_layer_input"}, 1 << 16).value_or(0);
  if (a.per_layer_width > 0) {
    a.per_layer_vocab = get_int(t, {"vocab_size_per_layer_input"}, 1 << 27).value_or(a.vocab_size);
  }
  // AltUp streams and the LAuReL rank; Gemma3nTextConfig's defaults are 4 and
  // 64 (transformers configuration_gemma3n.py). Gemma 4 has neither.
  const bool gemma3n = type == "gemma3n" || type == "gemma3n_text";
  a.altup_inputs = static_cast<int>(get_int(t, {"altup_num_inputs"}, 64).value_or(gemma3n ? 4 : 0));
  a.laurel_rank = get_int(t, {"laurel_rank"}, 1 << 16).value_or(gemma3n ? 64 : 0);
  a.attention.kv_shared_layers = static_cast<int>(
      std::min<std::int64_t>(get_int(t, {"num_kv_shared_layers"}, 100000).value_or(0), a.layers));
  // Gemma 4 E2B: the KV-sharing layers' MLP is twice intermediate_size
  // (Gemma4TextConfig use_double_wide_mlp; llama.cpp conversion/gemma.py
  // writes the widths per layer).
  if (get_bool(t, "use_double_wide_mlp").value_or(false)) {
    a.double_wide_mlp_layers = a.attention.kv_shared_layers;
  }

  // Vision and audio encoders with their projectors (Qwen2.5-Omni nests
  // them in thinker_config).
  std::vector<std::string> towers;
  for (const Json* d : {&doc, doc.contains("thinker_config") && doc["thinker_config"].is_object()
                                  ? &doc["thinker_config"]
                                  : nullptr}) {
    for (const char* tower : {"vision_config", "audio_config"}) {
      if (d == nullptr) {
        continue;
      }
      if (const auto v = d->find(tower); v != d->end() && v->is_object()) {
        if (const std::int64_t n = vision_estimate(*v, a.hidden_size); n > 0) {
          a.vision_params += n;
          towers.push_back(tower[0] == 'v' ? "vision" : "audio");
        }
      }
    }
  }

  // Qwen3-VL's deepstack: the vision tower's features from these layers are
  // added to the first text layers' outputs, and llama.cpp's input
  // embeddings carry them (hparams n_embd_inp: n_embd x (1 + n)); the
  // converter writes n_deepstack_layers from this list (conversion/qwen3vl.py).
  if (const auto v = doc.find("vision_config"); v != doc.end() && v->is_object()) {
    if (const auto it = v->find("deepstack_visual_indexes"); it != v->end() && it->is_array()) {
      a.deepstack_layers = static_cast<int>(std::min<std::size_t>(it->size(), 64));
    }
  }

  // Qwen3-TTS's codec head (above): untied, narrower than the vocabulary.
  if (codec_head_rows > 0 && codec_head_rows < a.vocab_size) {
    a.head_rows = codec_head_rows;
    a.tied_embeddings = false;
  }
  read_block_configs(t, a);
  a.attention.fused_qkv_norm = type == "openelm";
  // PLaMo 2 (plamo2.cpp): one attn_qkv, Q and K normed per head, gate and
  // up in one ffn_up (modeling_plamo.py qkv_proj, gate_up_proj).
  // PLaMo-13B (plamo.cpp): one norm feeds the attention and the MLP, both
  // added to the layer input (PlamoDecoderLayer's "Parallel Layers").
  if (type == "plamo") {
    a.attention.parallel_block = ParallelBlock::Plamo;
  }
  if (type == "plamo2") {
    a.attention.fused_qkv_norm = true;
    a.attention.fused_qkv = true;
    a.fused_gate_up = true;
  }
  // PLaMo 3 (plamo3.cpp; modeling_plamo.py's qkv_proj, gate_up_proj,
  // post_mixer_norm, post_mlp_norm): as PLaMo 2's attention layers.
  if (type == "plamo3") {
    a.attention.fused_qkv_norm = true;
    a.attention.fused_qkv = true;
    a.attention.sandwich_norms = true;
    a.fused_gate_up = true;
  }
  a.attention.fused_qkv_clamp = type == "dbrx";  // dbrx.cpp: attn_qkv, clamped by clip_qkv
  // Grok-1 (model_type grok-1) and Grok-2 (model_type git, which is also
  // Microsoft's GIT: told apart by the class the converter registers,
  // conversion/grok.py GrokForCausalLM and Grok1ForCausalLM): llama.cpp
  // forces flash attention off for them (llama-context.cpp at 80fb11ac).
  {
    bool grok = type == "grok-1";
    if (const auto it = doc.find("architectures"); it != doc.end() && it->is_array()) {
      for (const Json& name : *it) {
        grok = grok || (name.is_string() && name.get<std::string>().rfind("Grok", 0) == 0);
      }
    }
    a.attention.flash_forced_off = grok;
  }
  // GroveMoE (inclusionAI/GroveMoE-Inst: a Qwen3-MoE config whose
  // architectures name GroveMoeForCausalLM, the class llama.cpp's
  // conversion/grovemoe.py registers): the adjugate experts are not in the
  // config; the converter writes what modeling_grove_moe.py hardcodes, 2
  // experts a group and adjugate experts of head_dim (or 128) wide (their
  // output scaled by 0.05).
  if (const auto it = doc.find("architectures"); a.moe && it != doc.end() && it->is_array()) {
    for (const Json& name : *it) {
      if (name.is_string() && name.get<std::string>() == "GroveMoeForCausalLM" &&
          a.moe->experts % 2 == 0) {
        a.moe->experts_per_group = 2;
        a.moe->group_expert_width = get_int(t, {"head_dim"}, 1 << 16).value_or(128);
      }
    }
  }

  // EmbeddingGemma is a gemma3_text config (Gemma3TextModel) with
  // use_bidirectional_attention true; llama.cpp's converter registers
  // Gemma3TextModel as gemma-embedding (conversion/gemma.py at 80fb11ac),
  // which attends both ways over the micro-batch with no KV cache
  // (gemma-embedding.cpp: causal_attn = false, build_attn_inp_no_cache)
  // and returns the embedding of its input.
  const bool embedding_gemma =
      type == "gemma3_text" && get_bool(t, "use_bidirectional_attention").value_or(false);
  a.attention.no_kv_cache = is_cache_free_config_model_type(type) || embedding_gemma;
  // llama-embed-nemotron (model_type llama_bidirec, LlamaBidirectionalModel:
  // a LlamaConfig, the Llama-3.1-8B backbone attending both ways, no
  // lm_head), which llama.cpp's converter writes as llama-embed
  // (conversion/llama.py LlamaEmbedNemotronModel at 80fb11ac): llama's graph
  // without a cache read or logits, its KV cache still made
  // (Attention::uncached_graph); the token table stands in for the head
  // llama.cpp loads (llama.cpp load_arch_tensors: tok_embd duplicated).
  const bool llama_embed = type == "llama_bidirec";
  a.attention.uncached_graph = llama_embed;
  if (llama_embed) {
    a.tied_embeddings = true;
  }
  // PLM (llama.cpp plm.cpp load_arch_tensors at 80fb11ac): the head is
  // token_embd duplicated, whatever the config says; a file with an
  // output.weight of its own is refused (one tensor too many).
  if (type == "plm") {
    a.tied_embeddings = true;
    a.attention.flash_aborts = true;  // plm.cpp's 2-D V (Attention::flash_aborts)
    // no lmhead_scaling before the head (Attention::mla_unscaled_head)
    a.attention.mla_unscaled_head = true;
  }
  a.attention.mla_cached_per_head = uses_mla(a) && caches_mla_per_head(type);  // MiniCPM3, PLM
  // BERT's block: the LayerNorms after the residual sums (llama.cpp runs all
  // of these with bert.cpp's graph).
  a.attention.post_norm = one_of(
      type, {"bert", "roberta", "distilbert", "xlm-roberta", "nomic_bert", "jina_embeddings_v3"});
  // they embed, generate nothing
  m.embedding = is_encoder_config_model_type(type) || embedding_gemma || llama_embed;
  a.no_output_head = is_encoder_config_model_type(type) || type == "bitnet";  // (gguf.cpp)
  // An encoder's masked-LM head is not converted (llama.cpp creates no output
  // tensor for them), whatever tie_word_embeddings says of it (EuroBERT's
  // false): the token table is all there is, as in its GGUF.
  if (is_encoder_config_model_type(type)) {
    a.tied_embeddings = true;
  }

  // T5 and mT5 (T5Config, MT5Config): num_layers encoder blocks and
  // num_decoder_layers decoder blocks (num_layers when absent), heads of
  // d_kv, an MLP of d_ff gated where feed_forward_proj is "gated-gelu" (v1.1,
  // Flan-T5, mT5; "relu": the original T5), relative_attention_num_buckets.
  // T5Config ties its embeddings unless told (tie_word_embeddings=True),
  // MT5Config does not. llama.cpp's converter (conversion/t5.py at 80fb11ac)
  // takes T5ForConditionalGeneration and MT5ForConditionalGeneration as t5,
  // T5EncoderModel as t5encoder: the encoder alone, whose weights have no
  // head, so llama.cpp loads the embeddings again as one (t5encoder.cpp),
  // and which, unlike the BERT family, is given a KV cache its graph never
  // reads (llama-model.cpp create_memory does not list it); n_positions, 512
  // when absent, is the context it writes.
  if (type == "t5" || type == "mt5") {
    bool encoder_only = false;
    if (const auto it = doc.find("architectures"); it != doc.end() && it->is_array()) {
      for (const Json& name : *it) {
        encoder_only =
            encoder_only || (name.is_string() && name.get<std::string>() == "T5EncoderModel");
      }
    }
    a.relative_buckets =
        static_cast<int>(get_int(t, {"relative_attention_num_buckets"}, 1 << 16).value_or(32));
    a.head_dim = static_cast<int>(get_int(t, {"d_kv"}, 1 << 16).value_or(a.head_dim));
    a.mlp_gated = to_lower(get_string(t, "feed_forward_proj")).starts_with("gated");
    a.tied_embeddings = encoder_only || get_bool(t, "tie_word_embeddings").value_or(type == "t5");
    a.decoder_layers =
        encoder_only
            ? 0
            : static_cast<int>(get_int(t, {"num_decoder_layers"}, 100000).value_or(a.layers));
    a.layers += a.decoder_layers;
    m.embedding = encoder_only;
    if (a.max_context == 0) {
      a.max_context = 512;
    }
  }

  // RWKV-6 (rwkv6.cpp): every block a time mix and a channel mix, purely
  // recurrent; the LoRA ranks conversion/rwkv.py writes (64 and 128 at
  // hidden 4096, else 32 and 64: the config names neither).
  if (type == "rwkv6") {
    Attention& at = a.attention;
    at = Attention{};
    const std::int64_t h = a.hidden_size;
    const std::int64_t head = get_int(t, {"head_size"}, 1 << 16).value_or(0);
    const auto attention_hidden = get_int(t, {"attention_hidden_size"}, 1 << 24);
    if (head <= 0 || h <= 0 || h % head != 0 || a.intermediate_size <= 0 ||
        (attention_hidden && *attention_hidden != h)) {
      return make_error(fmt::format(
          "config.json model_type 'rwkv6': head_size must divide hidden_size (and "
          "attention_hidden_size, when given, equal it: llama.cpp's rwkv6.cpp sizes the time mix "
          "by hidden_size)"));
    }
    set_rwkv_layers(a, 6, head, 2);
    at.rwkv_time_mix_extra = h == 4096 ? 64 : 32;
    at.rwkv_time_decay_extra = h == 4096 ? 128 : 64;
    at.recurrent_params = rwkv6_block_params(h, a.intermediate_size, head, at.rwkv_time_mix_extra,
                                             at.rwkv_time_decay_extra);
    a.max_context = 1 << 20;  // conversion/rwkv.py: "RWKV isn't context limited"
  }

  // RWKV6Qwen2 (recursal/QRWKV6-*: model_type rwkv6qwen2, RWKV6Qwen2Config
  // of SmerkyG/hfattnconv rwkv6qwen2/configuration_rwkv6qwen2.py, Qwen2's
  // keys; rwkv6qwen2.cpp): Qwen2.5 with RWKV-6's time mix in place of its
  // attention, purely recurrent, one token-shift row a layer. As
  // conversion/rwkv.py RWKV6Qwen2Model writes it: the head size hidden /
  // num_attention_heads, the key and value of num_key_value_heads heads,
  // the LoRA ranks lora_rank_tokenshift and lora_rank_decay or, absent or
  // null, 64 and 128 from hidden 4096 up, else 32 and 64; the q, k and v
  // biases with attention_bias (RWKV6Qwen2Config's default true).
  if (type == "rwkv6qwen2") {
    Attention& at = a.attention;
    at = Attention{};
    const std::int64_t h = a.hidden_size;
    const std::int64_t query_heads = a.heads;
    const std::int64_t kv = a.kv_heads;
    if (h <= 0 || query_heads <= 0 || h % query_heads != 0 || kv <= 0 || query_heads % kv != 0 ||
        a.intermediate_size <= 0) {
      return make_error(fmt::format(
          "config.json model_type 'rwkv6qwen2': num_attention_heads must divide hidden_size and "
          "num_key_value_heads divide num_attention_heads (rwkv6-base.cpp repeats the key and "
          "value heads), and intermediate_size be positive"));
    }
    const std::int64_t head = h / query_heads;
    set_rwkv_layers(a, 6, head, 1);
    a.kv_heads = static_cast<int>(kv);
    const auto rank = [&](const char* k, std::int64_t fallback) {
      return get_int(t, {k}, 1 << 16).value_or(fallback);
    };
    at.rwkv_time_mix_extra = static_cast<int>(rank("lora_rank_tokenshift", h >= 4096 ? 64 : 32));
    at.rwkv_time_decay_extra = static_cast<int>(rank("lora_rank_decay", h >= 4096 ? 128 : 64));
    at.recurrent_params = rwkv6qwen2_block_params(h, kv * head, a.intermediate_size,
                                                  at.rwkv_time_mix_extra, at.rwkv_time_decay_extra,
                                                  get_bool(t, "attention_bias").value_or(true));
    a.max_context = 1 << 20;  // conversion/rwkv.py: "RWKV isn't context limited"
  }

  // RWKV-7 (rwkv7.cpp): RWKV-6's blocks with a time mix of four LoRAs
  // (rwkv7_keys read their ranks), purely recurrent, the same state.
  if (type == "rwkv7") {
    Attention& at = a.attention;
    at = Attention{};
    const std::int64_t h = a.hidden_size;
    const std::int64_t head = get_int(t, {"head_size"}, 1 << 16).value_or(0);
    const auto attention_hidden = get_int(t, {"attention_hidden_size"}, 1 << 24);
    const auto rank = [&](const char* k) { return get_int(t, {k}, 1 << 16).value_or(0); };
    const std::int64_t decay = rank("rwkv7_lora_decay");
    const std::int64_t iclr = rank("rwkv7_lora_iclr");
    const std::int64_t value = rank("rwkv7_lora_value");
    const std::int64_t gate = rank("rwkv7_lora_gate");
    if (head <= 0 || h <= 0 || h % head != 0 || a.intermediate_size <= 0 ||
        (attention_hidden && *attention_hidden != h) || decay <= 0 || iclr <= 0 || value <= 0 ||
        gate <= 0) {
      return make_error(fmt::format(
          "config.json model_type 'rwkv7': head_dim (or head_size) must divide hidden_size (and "
          "attention_hidden_size, when given, equal it: llama.cpp's rwkv7.cpp sizes the time mix "
          "by hidden_size), and the LoRA ranks (decay_low_rank_dim, a_low_rank_dim, "
          "v_low_rank_dim, gate_low_rank_dim) be positive"));
    }
    set_rwkv_layers(a, 7, head, 2);
    at.rwkv_lora_decay = static_cast<int>(decay);
    at.rwkv_lora_iclr = static_cast<int>(iclr);
    at.rwkv_lora_value = static_cast<int>(value);
    at.rwkv_lora_gate = static_cast<int>(gate);
    at.recurrent_params = rwkv7_block_params(h, a.intermediate_size, decay, iclr, value, gate);
    a.max_context = 1 << 20;  // conversion/rwkv.py: "RWKV isn't context limited"
  }

  // Mamba and Mamba-2: every block the mixer alone (mamba.cpp), a state in
  // each, no attention and no MLP.
  if (mamba_model_type(type)) {
    Attention& at = a.attention;
    at = Attention{};
    at.kind = AttentionKind::Hybrid;
    at.layer_mixers.assign(static_cast<std::size_t>(a.layers), 'R');
    at.recurrent_layers = a.layers;
    a.intermediate_size = 0;
    a.kv_heads = 1;
    set_recurrent_shape(t, type, a);
    // state-spaces' Mamba runs dt, B and C unnormed; Falcon Mamba norms
    // them (conversion/mamba.py: ssm.dt_b_c_rms true for falcon_mamba).
    at.ssm_plain_dt = type == "mamba";
    if (at.mamba == 0 || at.ssm_state <= 0 || at.ssm_inner <= 0 || at.recurrent_state_floats <= 0) {
      return make_error(fmt::format(
          "config.json model_type '{}': the Mamba mixer's sizes (state_size, conv_kernel, "
          "intermediate_size or expand{}) are invalid",
          type, type == "mamba2" ? ", num_heads, head_dim, n_groups" : ", time_step_rank"));
    }
  }

  // EAGLE-3 drafts (Architecture::eagle3_target_layers): llama.cpp's
  // converter takes a config with draft_vocab_size and one layer for one
  // (conversion/llama.py LlamaModel at 80fb11ac), the target layers from
  // eagle_aux_hidden_state_layer_ids (else three: 2, n/2, n-3), the target's
  // width from target_hidden_size (else the target's config, which is not
  // here: the draft's own width, as every published head has it).
  const auto draft_vocab = get_int(t, {"draft_vocab_size"}, 1 << 30);
  // DFlash drafts (Architecture::dflash_target_layers; conversion/qwen.py
  // DFlashModel and DSparkModel at 80fb11ac): architectures DFlashDraftModel
  // or DFlash2DraftModel (DSpark's names too), or a dflash_config. The
  // converter writes target_layers from dflash_config.target_layer_ids (a
  // DSpark config's own target_layer_ids or aux_hidden_state_layer_ids),
  // block_size (dflash_config's, else the top level's, else 16) and, when
  // dflash_config names conv_kernel_size, DFlash2's four keys. Token
  // embeddings and a head are written only when the checkpoint has them:
  // the z-lab drafts have neither (the target's are read), so neither is
  // counted, unless draft_vocab_size is below vocab_size (DSpark's reduced
  // head, with d2t). DSpark's Markov head is not counted from a config.
  bool dflash = t.contains("dflash_config") && t["dflash_config"].is_object();
  if (const auto it = doc.find("architectures"); it != doc.end() && it->is_array()) {
    for (const auto& n : *it) {
      const std::string name = n.is_string() ? n.get<std::string>() : "";
      dflash = dflash || name == "DFlashDraftModel" || name == "DFlash2DraftModel" ||
               name == "Qwen3DSparkModel" || name == "DSparkDraftModel" ||
               name == "DSparkSpeculator" || name == "Lfm2DSparkDraftModel" ||
               name == "LingDSparkModel";
    }
  }
  if (dflash) {
    const Json dc = t.contains("dflash_config") && t["dflash_config"].is_object()
                        ? t["dflash_config"]
                        : Json::object();
    std::size_t targets = 0;
    for (const Json* j : {&dc, static_cast<const Json*>(&t)}) {
      for (const char* k : {"target_layer_ids", "aux_hidden_state_layer_ids"}) {
        if (const auto ids = j->find(k);
            targets == 0 && ids != j->end() && ids->is_array() && ids->size() <= 1024) {
          targets = ids->size();
        }
      }
    }
    if (targets == 0) {
      return make_error(
          "config.json of a DFlash draft without dflash_config.target_layer_ids (llama.cpp's "
          "converter would write no target_layers, and llama.cpp refuses such a file)");
    }
    a.dflash_target_layers = static_cast<int>(targets);
    a.dflash_block_size =
        static_cast<int>(get_int(dc, {"block_size"}, 1 << 16)
                             .value_or(get_int(t, {"block_size"}, 1 << 16).value_or(16)));
    if (dc.contains("conv_kernel_size")) {
      a.dflash_conv_kernel =
          static_cast<int>(get_int(dc, {"conv_kernel_size"}, 1 << 10).value_or(0));
      a.dflash_conv_group = static_cast<int>(get_int(dc, {"conv_group_size"}, 1 << 20).value_or(0));
      a.dflash_selector_rank =
          static_cast<int>(get_int(dc, {"selector_rank"}, 1 << 20).value_or(0));
      a.dflash_selector_top_k =
          static_cast<int>(get_int(dc, {"selector_top_k"}, 1 << 10).value_or(0));
      if (a.dflash_conv_kernel <= 0 || a.dflash_conv_group <= 0 || a.dflash_selector_rank <= 0 ||
          a.dflash_selector_top_k <= 0 || a.hidden_size % a.dflash_conv_group != 0) {
        return make_error(
            "config.json of a DFlash2 draft without positive dflash_config conv_kernel_size, "
            "conv_group_size (dividing hidden_size), selector_rank and selector_top_k");
      }
    }
    if (draft_vocab && *draft_vocab < a.vocab_size) {
      a.draft_vocab = *draft_vocab;
      a.draft_own_head = true;
    }
    a.tied_embeddings = false;
  }
  const bool eagle3 = !dflash && draft_vocab && *draft_vocab > 0 && a.layers == 1;
  if (eagle3) {
    const auto ids = t.find("eagle_aux_hidden_state_layer_ids");
    a.eagle3_target_layers = ids != t.end() && ids->is_array() && !ids->empty() && ids->size() <= 64
                                 ? static_cast<int>(ids->size())
                                 : 3;
    a.eagle3_target_hidden = get_int(t, {"target_hidden_size"}, 1 << 20).value_or(a.hidden_size);
    a.draft_vocab = *draft_vocab;
    a.eagle3_norm_before_fc = get_bool(t, "norm_before_fc").value_or(false);
  }
  // Gemma 4 assistants (Gemma4AssistantConfig: model_type gemma4_assistant
  // around a gemma4_text text_config; conversion/gemma.py
  // Gemma4AssistantModel at 80fb11ac): backbone_hidden_size is the target's
  // width; every layer reads the target's cache (num_kv_shared_layers is
  // the layer count in the published configs, and llama.cpp shares every
  // layer whatever it says); the tied embeddings are the head.
  if (to_lower(get_string(doc, "model_type")) == "gemma4_assistant") {
    a.assistant_backbone_hidden = get_int(t, {"backbone_hidden_size"}, 1 << 20).value_or(0);
    if (a.assistant_backbone_hidden <= 0) {
      return make_error(
          "config.json model_type 'gemma4_assistant' without a positive backbone_hidden_size (the "
          "target's width, which sizes its projections)");
    }
    a.attention.kv_shared_layers = a.layers;
    a.double_wide_mlp_layers = 0;
    a.tied_embeddings = true;
  }
  // WavTokenizer's decoder in the config.json llama.cpp's converter reads
  // (conversion/wavtokenizer.py WavTokenizerDecModel, registered as
  // architectures WavTokenizerDec; no model_type): n_embd_features,
  // hidden_size (the head's width), n_ff, vocab_size, posnet {n_embd,
  // n_layer}, convnext {n_embd, n_layer}. It embeds, generates nothing.
  if (const auto it = doc.find("architectures"); it != doc.end() && it->is_array() &&
                                                 !it->empty() && (*it)[0].is_string() &&
                                                 (*it)[0].get<std::string>() == "WavTokenizerDec") {
    const Json posnet = doc.value("posnet", Json::object());
    const Json convnext = doc.value("convnext", Json::object());
    if (!posnet.is_object() || !convnext.is_object()) {
      return make_error("config.json WavTokenizerDec: posnet and convnext must be objects");
    }
    VocoderShape v;
    v.codes = get_int(t, {"vocab_size"}, 1 << 24).value_or(0);
    v.features = get_int(t, {"n_embd_features"}, 1 << 20).value_or(0);
    v.posnet_layers = static_cast<int>(get_int(posnet, {"n_layer"}, 1000).value_or(0));
    v.posnet_width = get_int(posnet, {"n_embd"}, 1 << 20).value_or(0);
    v.convnext_layers = static_cast<int>(get_int(convnext, {"n_layer"}, 100000).value_or(0));
    v.convnext_width = get_int(convnext, {"n_embd"}, 1 << 20).value_or(0);
    v.ffn = get_int(t, {"n_ff"}, 1 << 24).value_or(0);
    v.out = a.hidden_size;
    if (const std::string bad = set_vocoder(a, v); !bad.empty()) {
      return make_error("config.json WavTokenizerDec: " + bad);
    }
    m.embedding = true;
  }
  const ParamBreakdown p = count_params(a);
  m.params = p.total();
  m.active_params = p.active();
  m.name = std::string(label);
  m.id = std::string(label);
  m.family = type.empty() ? std::string(label) : type;
  m.source = FactSource::Config;

  std::string quant_note;
  if (const auto q = doc.find("quantization_config"); q != doc.end() && q->is_object()) {
    m.precision_hint = quantization_precision(*q, quant_note);
    // DeepSeek-V4 ships FP8 weights (e4m3, a UE8M0 scale per 128 x 128) with
    // its routed experts in FP4 (expert_dtype "fp4", a UE8M0 scale per 32
    // values: the MXFP4 layout, which llama.cpp's converter repacks them into
    // as they are, conversion/deepseek.py _write_mxfp4_expert_tensor): read as
    // mxfp4, MXFP4 experts and 8-bit weights elsewhere.
    if (m.precision_hint == "fp8" && to_lower(get_string(doc, "expert_dtype")) == "fp4") {
      m.precision_hint = "mxfp4";
      quant_note = "FP8 weights with FP4 experts (expert_dtype fp4): read as mxfp4";
    }
  }
  std::string dtype = get_string(doc, "torch_dtype");
  if (dtype.empty()) {
    dtype = get_string(doc, "dtype");
  }
  if (m.precision_hint.empty()) {
    m.precision_hint = dtype_precision(dtype);
  }

  if (const std::string outer = to_lower(get_string(doc, "model_type"));
      !type.empty() && !is_known_config_model_type(type) && !is_known_config_model_type(outer)) {
    m.unchecked_architecture = fmt::format("'{}' (config.json model_type)", type);
  }
  // The outer model_type names a multimodal wrapper (mllama) whose
  // text_config's own type (mllama_text_model) is what `type` holds.
  if (const auto gap = llama_cpp_gap(type)
                           ? llama_cpp_gap(type)
                           : llama_cpp_gap(to_lower(get_string(doc, "model_type")))) {
    m.llama_cpp_cannot_run = gap->why;
    m.ollama_engine_runs = gap->ollama_engine_runs;
  }
  // jina-embeddings-v3 (jinaai's XLMRobertaFlashConfig: model_type
  // xlm-roberta with lora_adaptations, which llama.cpp's converter writes as
  // jina-bert-v3, conversion/bert.py XLMRobertaModel at 80fb11ac; or
  // transformers' own port, model_type jina_embeddings_v3): XLM-RoBERTa's
  // post-norm block with RoPE in place of the position table (bert.cpp for
  // jina-bert-v3: no pos_embd, Q and K roped from the fused Wqkv), biases on
  // every projection and LayerNorm, a GELU MLP; no KV cache, no output head.
  // The task LoRA adapters beside it are not counted (docs/architectures.md).
  if (type == "xlm-roberta" && t.contains("lora_adaptations")) {
    m.unchecked_architecture.clear();
  }
  // ChatGLM-6B's first version shares model_type chatglm but not its
  // layout (inner_hidden_size, a GELU MLP, 2D positions); llama.cpp's
  // converter reads only ffn_hidden_size's generation (ChatGLM2 onwards).
  if (type == "chatglm" && !t.contains("ffn_hidden_size")) {
    m.unchecked_architecture =
        fmt::format("'{}' without ffn_hidden_size (config.json model_type)", type);
  }
  // dots.llm3 whose windowed layers' shape is not in the swa_* keys (a
  // config re-saved by transformers keeps it in per_layer_config, which is
  // not read): those layers were given the full layers' shape.
  if ((type == "dots3_note" || type == "dots3_note_text") && !t.contains("swa_kv_lora_rank")) {
    m.unchecked_architecture =
        fmt::format("'{}' without swa_kv_lora_rank (config.json model_type)", type);
  }
  // OLMo-1's original configs (allenai/OLMo-1B, OLMo-7B before the -hf
  // conversion: d_model, n_layers, mlp_ratio) share model_type olmo but not
  // the transformers keys, which llama.cpp's converter reads.
  if (type == "olmo" && !t.contains("hidden_size")) {
    m.unchecked_architecture =
        fmt::format("'{}' without hidden_size (config.json model_type)", type);
  }
  m.notes.push_back(fmt::format(
      "architecture from config.json (model_type {}): {} layers, hidden {}, {}, vocabulary {}{}",
      type.empty() ? "unknown" : type, a.layers, a.hidden_size, attention_heads_text(a),
      a.vocab_size, a.tied_embeddings ? ", tied embeddings" : ""));
  m.notes.push_back(describe_shape(m));
  if (const std::string draft = draft_note(a); !draft.empty()) {
    m.notes.push_back(draft);
  }
  m.notes.push_back(fmt::format(
      "parameters counted from the architecture: {:.2f} B{} (config.json holds no exact count)",
      static_cast<double>(m.params) / 1e9,
      towers.empty() ? ""
                     : fmt::format(", {} encoder estimated from its config (the projector term)",
                                   fmt::join(towers, " and "))));
  if (!quant_note.empty()) {
    m.notes.push_back(quant_note);
  }
  return m;
}

}  // namespace willfit
