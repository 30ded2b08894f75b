// The inference estimate, term by term.
//
// A model in memory is five things, and we size each on its own because each
// scales with something different:
//
// 1. Weights: parameters x bits per weight / 8. A file's exact tensor bytes
//    win when we have them. Group-quantised formats (GPTQ, AWQ, NF4, FP8)
//    quantise only the linear layers; embeddings and the output head stay at
//    16 bits, so those parameters are charged 2 bytes.
// 2. KV cache: for every attention layer, K and V for every cached token:
//      2 x layers x kv_heads x head_dim x bytes/element x cells
//    with cells = the context padded to 256 (llama.cpp, since PR #17046) times
//    the concurrent sequences. Grouped-query attention enters through kv_heads;
//    sliding-window layers hold only window + ubatch cells; MLA (DeepSeek)
//    caches one latent of kv_lora_rank + rope dims per token and layer, K only;
//    hybrid models have a cache only on their attention layers. Quantised types
//    cost their block size (q8_0: 34 bytes per 32 values). Source:
//    shared/reference/inference-estimators.md section 0.3.
// 3. Compute buffer: the activations of one micro-batch (ubatch tokens) at its
//    widest point, which is either the attention scores or the logits:
//      max(4 b (1 + 4 e + c (1 + h)), 4 b (e + v))  bytes
//    with b = min(context, ubatch), c = cells, e = hidden, h = heads,
//    v = vocabulary: Ollama's closed form for llama-style graphs (classic
//    estimator, llm/memory.go). With flash attention the b x c x h score
//    matrix is never materialised, so the h factor drops out.
// 4. Runtime overhead: memory outside the framework's allocator, mainly the
//    CUDA/Metal context: 457 MiB per CUDA GPU and 512 MiB per Metal GPU
//    (Ollama's per-GPU minimum), 150 MiB of host footprint for CPUs
//    (gguf-parser's platform footprint).
// 5. Safety margin: allocator slack and fragmentation, 5 % of usable memory
//    clamped to [256 MiB, 1 GiB]; 1 GiB is llama.cpp's --fit default margin.
//
// Verdict: fits when the sum is within the usable memory; "offload" when it is
// not but the overflow fits in the system RAM given with --ram; else no_fit.
#include "willfit/estimate.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace willfit {
namespace {

constexpr Bytes kCudaContext = 457 * kMiB;
constexpr Bytes kMetalContext = 512 * kMiB;
constexpr Bytes kHostFootprint = 150 * kMiB;
constexpr Bytes kMarginMin = 256 * kMiB;
constexpr Bytes kMarginMax = 1 * kGiB;

std::string billions(double params) {
  if (params >= 1e9) {
    return fmt::format("{:.3g} B", params / 1e9);
  }
  return fmt::format("{:.3g} M", params / 1e6);
}

Bytes overhead_for(const Device& d) {
  switch (d.kind) {
    case DeviceKind::Cpu:
      return kHostFootprint;
    case DeviceKind::Unified:
      return d.vendor == "apple" ? kMetalContext : kCudaContext;
    case DeviceKind::Accelerator:
    case DeviceKind::DiscreteGpu:
    case DeviceKind::Raw:
      return kCudaContext;
  }
  return kCudaContext;
}

}  // namespace

std::string_view to_string(FlashAttention fa) {
  switch (fa) {
    case FlashAttention::Auto:
      return "auto";
    case FlashAttention::On:
      return "on";
    case FlashAttention::Off:
      return "off";
  }
  return "auto";
}

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::Fits:
      return "fits";
    case Verdict::Offload:
      return "offload";
    case Verdict::NoFit:
      return "no_fit";
  }
  return "no_fit";
}

std::int64_t pad_context(std::int64_t tokens) {
  constexpr std::int64_t kPad = 256;
  return ((std::max<std::int64_t>(tokens, 1) + kPad - 1) / kPad) * kPad;
}

Bytes weight_bytes(const Model& model, const Precision& precision) {
  if (model.file_weight_bytes) {
    return *model.file_weight_bytes;
  }
  const double bits = precision.bits_per_weight;
  const auto params = static_cast<double>(model.params);
  if (precision.scope == WeightScope::All) {
    return round_bytes(params * bits / 8.0);
  }
  // Linear layers quantised; embeddings, output head and vision tower at 16 bits.
  // Scale the architecture's split to the stated parameter count.
  const ParamBreakdown p = count_params(model.arch);
  const auto counted = static_cast<double>(std::max<std::int64_t>(1, p.total()));
  const double other_share = static_cast<double>(p.embedding + p.output + p.vision) / counted;
  const double other = params * std::clamp(other_share, 0.0, 1.0);
  return round_bytes((params - other) * bits / 8.0 + other * 2.0);
}

Bytes kv_cache_bytes(const Architecture& a, const KvCacheQuery& q) {
  const std::int64_t full_cells = pad_context(q.context) * std::max(1, q.sequences);
  const auto cost = [](std::int64_t elements, const KvType& t) {
    return elements / t.block_elems * t.block_bytes +
           (elements % t.block_elems) * t.block_bytes / t.block_elems;
  };
  if (a.attention.kind == AttentionKind::Mla && a.attention.kv_lora_rank > 0) {
    // One latent per token and layer; V is a view of K.
    const std::int64_t width = a.attention.kv_lora_rank + a.attention.qk_rope_head_dim;
    return cost(width * full_cells, q.k_type) * a.layers;
  }
  const std::int64_t per_cell_k = std::int64_t{a.kv_heads} * a.head_dim;
  int attention_layers = a.layers;
  if (a.attention.kind == AttentionKind::Hybrid && a.attention.attention_layers > 0) {
    attention_layers = std::min(a.layers, a.attention.attention_layers);
  }
  int windowed_layers = 0;
  std::int64_t window_cells = full_cells;
  if (a.attention.kind == AttentionKind::Sliding && a.attention.sliding_window > 0) {
    const int pattern = a.attention.sliding_pattern;
    // Pattern N: every N-th layer (index N-1, 2N-1, ...) is global.
    const int global = pattern > 1 ? a.layers / pattern : 0;
    windowed_layers = a.layers - global;
    window_cells = std::min(
        full_cells,
        pad_context(std::min(q.context * std::max(1, q.sequences),
                             a.attention.sliding_window * std::max(1, q.sequences) + q.ubatch)));
  }
  const int full_layers = attention_layers - windowed_layers;
  const Bytes per_full_layer =
      cost(per_cell_k * full_cells, q.k_type) + cost(per_cell_k * full_cells, q.v_type);
  const Bytes per_window_layer =
      cost(per_cell_k * window_cells, q.k_type) + cost(per_cell_k * window_cells, q.v_type);
  return per_full_layer * full_layers + per_window_layer * windowed_layers;
}

Estimate estimate_inference(const InferenceQuery& q) {
  Estimate e;
  const Architecture& a = q.model.arch;
  const int batch = std::max(1, q.batch);

  // Flash attention: auto means on (every current llama.cpp backend supports it
  // for common head sizes). A quantised V cache needs it; without it llama.cpp
  // falls back to f16 for V.
  e.flash_attention = q.flash_attention != FlashAttention::Off;
  e.kv_type_v = q.kv_type;
  if (!e.flash_attention && q.kv_type.quantised()) {
    e.kv_type_v = kv_f16();
    e.warnings.push_back(fmt::format(
        "a quantised V cache needs flash attention: V stays f16 (K uses {})", q.kv_type.id));
  }

  // 1. Weights.
  e.model_weight_bytes = weight_bytes(q.model, q.precision);
  e.memory.weights = e.model_weight_bytes;
  {
    Term t{"weights", e.memory.weights, Placement::Device, "", q.precision.source};
    if (q.model.file_weight_bytes) {
      t.formula = fmt::format("exact tensor bytes from the file = {}", format_si(t.bytes));
    } else if (q.precision.scope == WeightScope::All) {
      t.formula = fmt::format(
          "{} params x {:g} bytes ({}) = {}", billions(static_cast<double>(q.model.params)),
          q.precision.bits_per_weight / 8.0, q.precision.name, format_si(t.bytes));
    } else {
      t.formula = fmt::format(
          "linear layers at {:g} bits, embeddings and output head at 16 bits "
          "= {}",
          q.precision.bits_per_weight, format_si(t.bytes));
    }
    e.terms.push_back(t);
  }

  // 2. KV cache.
  e.kv_cells = pad_context(q.context);
  e.memory.kv_cache = kv_cache_bytes(a, {q.context, batch, q.ubatch, q.kv_type, e.kv_type_v});
  {
    std::string f;
    if (a.attention.kind == AttentionKind::Mla && a.attention.kv_lora_rank > 0) {
      f = fmt::format("{} layers x {} latent dims x {:g} bytes x {} tokens{} = {}", a.layers,
                      a.attention.kv_lora_rank + a.attention.qk_rope_head_dim,
                      q.kv_type.bytes_per_element(), e.kv_cells,
                      batch > 1 ? fmt::format(" x {} sequences", batch) : "",
                      format_iec(e.memory.kv_cache));
    } else {
      f = fmt::format(
          "2 (K and V) x {} layers x {} KV heads x {} dims x {:g} bytes x {} tokens{}{} = {}",
          a.layers, a.kv_heads, a.head_dim, q.kv_type.bytes_per_element(), e.kv_cells,
          batch > 1 ? fmt::format(" x {} sequences", batch) : "",
          a.attention.kind == AttentionKind::Sliding ? " (windowed layers hold less)" : "",
          format_iec(e.memory.kv_cache));
    }
    e.terms.push_back({"kv_cache", e.memory.kv_cache, Placement::Device, f,
                       "llama.cpp KV layout (inference-estimators.md section 0.3)"});
  }

  // 3. Compute buffer.
  {
    const double b = static_cast<double>(std::min(q.context, q.ubatch));
    const double c = static_cast<double>(e.kv_cells) * batch;
    const auto em = static_cast<double>(a.hidden_size);
    const auto h = static_cast<double>(a.heads);
    const auto v = static_cast<double>(a.vocab_size);
    const double scores = e.flash_attention ? 1.0 : 1.0 + h;
    const double attention = 4.0 * b * (1.0 + 4.0 * em + c * scores);
    const double logits = 4.0 * b * (em + v);
    e.memory.compute = round_bytes(std::max(attention, logits));
    e.terms.push_back(
        {"compute", e.memory.compute, Placement::Device,
         fmt::format(
             "largest activation of a {:g}-token step: {} = {}", b,
             attention > logits
                 ? (e.flash_attention ? "attention (flash)"
                                      : "attention scores, tokens x context x heads x 4 bytes")
                 : "logits, tokens x vocabulary x 4 bytes",
             format_iec(e.memory.compute)),
         "Ollama classic estimator, llama graph size (llm/memory.go)"});
  }

  // 4. Runtime overhead, per device (one GPU's worth when none is given).
  for (const auto& d : q.devices.devices) {
    e.memory.overhead += overhead_for(d);
  }
  if (q.devices.devices.empty()) {
    e.memory.overhead = kCudaContext;
  }
  e.terms.push_back(
      {"overhead", e.memory.overhead, Placement::Device,
       fmt::format("driver/CUDA context, ~{} per GPU = {}",
                   format_iec(q.devices.devices.empty() ? kCudaContext
                                                        : overhead_for(q.devices.devices.front())),
                   format_iec(e.memory.overhead)),
       "Ollama per-GPU minimum memory (457 MiB CUDA, 512 MiB Metal)"});

  // Usable memory.
  for (const auto& d : q.devices.devices) {
    const Usable u = usable_memory(d, q.usable);
    e.capacity += d.memory_bytes;
    e.usable += u.bytes;
    if (std::find(e.usable_reasons.begin(), e.usable_reasons.end(), u.reason) ==
        e.usable_reasons.end()) {
      e.usable_reasons.push_back(u.reason);
    }
  }

  // 5. Safety margin (sized on the need itself when no device is given).
  e.device_known = !q.devices.devices.empty();
  const Bytes basis = e.device_known ? e.usable : e.memory.total();
  e.memory.margin = std::clamp<Bytes>(basis / 20, kMarginMin, kMarginMax);
  e.terms.push_back(
      {"margin", e.memory.margin, Placement::Device,
       fmt::format("5% of {}, between 256 MiB and 1 GiB = {}",
                   e.device_known ? "usable memory" : "the need", format_iec(e.memory.margin)),
       "llama.cpp --fit keeps 1 GiB free per device"});

  e.required = e.memory.total();
  e.headroom = e.usable - e.required;
  if (!e.device_known) {
    e.verdict = Verdict::NoFit;  // not asked; renderers show no verdict
  } else if (e.headroom >= 0) {
    e.verdict = Verdict::Fits;
  } else if (q.ram && -e.headroom <= *q.ram) {
    e.verdict = Verdict::Offload;
  } else {
    e.verdict = Verdict::NoFit;
  }

  if (a.max_context > 0 && q.context > a.max_context) {
    e.warnings.push_back(fmt::format("context {} is longer than the model was trained for ({})",
                                     q.context, a.max_context));
  }
  return e;
}

}  // namespace willfit
