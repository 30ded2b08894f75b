// The training estimate, term by term.
//
// Training needs far more memory than inference because the backward pass and
// the optimizer need things inference never keeps. Per GPU we add up:
//
// 1. Model states, in bytes per parameter. Tools disagree on the count for
//    "mixed-precision AdamW" because they count different buffers
//    (shared/reference/training-estimators.md section 1.1):
//      16 = 2 weights + 2 gradients + 4 fp32 master + 8 Adam m and v
//           (ZeRO paper's 2 + 2 + K with K = 12; Transformer Math 101; the
//           Ultra-Scale Playbook). This is our default.
//      18 = fp32 gradients (HF "model training anatomy", Megatron-LM,
//           llm-analysis, EleutherAI cookbook): --grad-dtype fp32.
//      20 = 16-bit gradients plus an fp32 accumulation copy (Megatron fp16,
//           ZeRO-Infinity, the Playbook's "fp32 grad accumulation",
//           DeepSpeed's ZeRO-2 estimator): --grad-dtype bf16+fp32.
//      12 = no master copy (the QLoRA paper's 16-bit baseline, "> 780 GB for
//           65B"): --master-weights none.
//    Pure fp32 training has no master copy: 4 + 4 + 8 = 16. FP8 keeps an fp8
//    copy of the weights: 1 + 2 + 4 + 8 = 15, the total the Playbook lists for
//    DeepSeek-V3's recipe (the split is ours).
//    Optimizer states, without the master copy: AdamW 8 (fp32 m and v);
//    8-bit AdamW 2 x (1 + 4/256) = 2.03125 (bitsandbytes: 1-byte states plus
//    an fp32 absmax per 256-element block, since bnb PR #1365); SGD 0; SGD
//    with momentum 4; Lion 4 (one fp32 momentum); Adafactor (no momentum, the
//    HF default) a factored second moment, 4 bytes x (rows + cols) per matrix.
// 2. Sharding (ZeRO paper; the Playbook). Tensor and pipeline parallelism
//    divide every state by t x p. ZeRO over the N = GPUs / (t x p)
//    data-parallel ranks then divides: stage 1 the master and optimizer
//    states, stage 2 also the gradients (with any fp32 accumulation copy, as
//    the Playbook's "4 Psi / N_d"), stage 3 and FSDP FULL_SHARD also the
//    weights. CPU offload (ZeRO-Offload) moves the master copy, the optimizer
//    states and an fp32 gradient partition to host RAM (DeepSpeed's estimator:
//    16 bytes per parameter, 18 with the parameters too), times DeepSpeed's
//    additional_buffer_factor of 1.5 for pinned buffers; host RAM is per node.
// 3. LoRA / QLoRA. The base is frozen at its storage precision: 16-bit for
//    LoRA; for QLoRA NF4 with double quantisation on the linear layers,
//    4 + 8/64 + 32/(64 x 256) = 4.127 bits (QLoRA paper; bitsandbytes
//    blocksize 64, nested blocksize 256), embeddings and output head 16-bit.
//    Adapters add r x (in + out) parameters per targeted module (PEFT), and
//    only they get gradients, master copies and optimizer states.
// 4. Activations: the per-layer count of Korthikanti et al. 2022 (arXiv
//    2205.05198), sbh(34 + 5as/h) bytes for 16-bit values, generalised to the
//    model's real shapes (see layer_activation_bytes). Summed over the layers
//    of a pipeline stage times the micro-batches in flight (1F1B: the first
//    stage holds p micro-batches of L/p layers, so about L layers' worth), plus
//    the logits and the fp32 loss temporaries on the last stage (16-bit logits,
//    fp32 logits and fp32 softmax: B + 4 + 4 bytes per token and vocabulary
//    entry, as vram-calculator counts them). PyTorch before 1.11 also kept
//    softmax's input for its backward: one more s^2 tensor per layer without
//    flash attention (TrainingQuery::softmax_keeps_input, for measurements
//    made on those versions). Full recomputation keeps each
//    layer's input and rematerialises one layer at a time during the backward
//    pass, so one layer's full activations are added once. LoRA adds the
//    r-wide output of every adapter's A matrix; the frozen base's activations
//    stay, since the input gradients must flow through it.
// 5. Buffers: ZeRO-3/FSDP gather the largest layer's parameters and their
//    16-bit gradients (DeepSpeed: 4 bytes x largest layer at 16 bits); ZeRO-1/2
//    with more than one rank keep an all-gather/reduce bucket of 5e8 elements
//    (DeepSpeed's default, as the EleutherAI cookbook counts it); QLoRA
//    dequantises one linear layer at a time to 16 bits.
// 6. CUDA context: 1000 MiB per GPU (vram-calculator; measured contexts range
//    from 300 MiB to 2 GiB, HF measured 1343 MB on a V100).
// 7. Allocator margin: PyTorch's caching allocator reserves more than it
//    hands out (llama-recipes logs: 19 GB allocated, 20 GB reserved), so we
//    add 5 % of the allocated total, at least 256 MiB.
// 8. torch.amp autocast (--amp; the HF Trainer's fp16=True or bf16=True on a
//    model loaded in fp32) is another mechanism than the 16-bit model with an
//    fp32 master copy above; both dtypes take one code path, the 16-bit one
//    being fp16 or bf16. From PyTorch's aten/src/ATen/autocast_mode.{h,cpp}:
//    - the parameters stay fp32: they are the master copy (no separate one),
//      their gradients are fp32, and so are the optimizer states: 4 + 4 +
//      optimizer bytes per parameter;
//    - ops on the lower_precision_fp list (linear, matmul, addmm, bmm,
//      baddbmm, conv, scaled_dot_product_attention, ...) cast every
//      floating input to the 16-bit dtype. cached_cast keeps the cast of an
//      fp32 leaf that requires grad (a weight) in a cache until the outermost
//      autocast region exits, at the end of the forward pass; the matmul has
//      saved that copy for its backward, so every linear layer's 16-bit
//      weight lives until the backward pass reaches it: 2 bytes x the linear
//      weights (autocast_cast_params) at the end of the forward pass, the
//      peak. Under gradient checkpointing the forward runs without grad, but
//      the cache does not look at grad mode, so the copies are there too.
//      Embeddings (embedding is on no list) and norm weights are not cast;
//      the other inputs are not leaves, so each op casts its own copy: the
//      three projections reading a norm's fp32 output save three 16-bit
//      copies of it, gate and up two;
//    - ops on the fp32 lists (layer_norm, softmax, log_softmax, pow, the
//      losses, ...) run in fp32: the norms save fp32 inputs, and since the
//      embeddings are fp32 and an fp32 + 16-bit add promotes, the residual
//      stream is fp32 (a checkpointed layer input is 4 bytes);
//    - everything else (GELU, SiLU, dropout, the elementwise products) runs
//      in its input's dtype: 16 bits after a linear layer.
//    GradScaler (fp16) keeps a one-element scale and growth tracker and
//    unscales the gradients in place: nothing to count. LoRA and QLoRA keep
//    the frozen base at 16 or 4 bits, where autocast casts nothing; PEFT
//    keeps the adapters fp32, so --amp gives them 4 + 4 + optimizer bytes and
//    a 16-bit copy, and leaves the base's activations as they were. HF's
//    model training anatomy page counts this as 18 bytes per parameter: 6 for
//    the fp32 and fp16 weights, 4 gradients, 8 AdamW.
//
// Attention without flash attention (--flash-attn off) follows transformers'
// eager_attention_forward (models/llama/modeling_llama.py, copied into the
// other decoders): repeat_kv expands K and V to every head, the matmuls save
// them at that width; softmax(..., dtype=torch.float32) saves its fp32 output;
// .to(query.dtype) makes the 16-bit copy the second matmul saves; dropout
// (attention_dropout > 0, --dropout) saves a 1-byte mask and its 16-bit
// output instead of that copy. Per head and score: 4 + B, or 4 + 1 + B with
// dropout; in fp32 the cast is a no-op: 4, or 4 + 1 + 4. Under autocast the
// same: softmax is on the fp32 list and the matmul casts its probabilities
// back. sdpa (transformers' default wherever torch >= 2.1.1,
// utils/import_utils.py is_torch_sdpa_available) and flash_attention_2 keep
// no s^2 tensor: the default, --flash-attn on.
//
// Error band and "tight": the training total carries one error band, the
// largest error of this estimate against the measured whole-GPU totals the
// project tests it with (tests/data/training_accuracy.csv, the nine
// hf_bert_large_* rows of kind "measured" that are totals: transformers'
// Trainer on bert-large, fp32 and fp16 autocast, AdamW, Adafactor and 8-bit
// Adam, batch 4 or 1 with and without checkpointing, nvml memory used on a
// V100). Error = (willfit - measured) / measured; the worst, -7.02 % (batch
// 1, checkpointing, fp16, Adafactor), rounded up to the next 0.1 % gives
// kTrainingErrorBandPct = 7.1; TrainingAccuracy.ErrorBandIsTheMeasuredError
// recomputes it from those rows. Those runs are one model family on one GPU:
// the band says how close the arithmetic came there, not a bound for every
// method (no measured QLoRA or ZeRO total is in the data yet). As for
// inference (estimate.cpp), an answer whose headroom lies within the band
// either way is `tight`: it may go the other way on a real machine; the
// verdict stays what the arithmetic says.
//
// Units: every term is computed in bytes as a double and rounded once; GB in
// the arithmetic text is 10^9 bytes, GiB 2^30.
#include "willfit/training/training.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "willfit/core/precision.hpp"
#include "willfit/core/text.hpp"

namespace willfit {
namespace {

constexpr Bytes kCudaContext = 1000 * kMiB;
constexpr Bytes kMarginMin = 256 * kMiB;
constexpr double kMarginFraction = 0.05;
constexpr double kHostBufferFactor = 1.5;
constexpr double kBucketElements = 5e8;
constexpr double kAdam8bitBytes = 2.0 * (1.0 + 4.0 / 256.0);

constexpr const char* kStatesSource =
    "ZeRO paper (2+2+K), Ultra-Scale Playbook, HF model training anatomy "
    "(training-estimators.md 1.1)";
constexpr const char* kActivationSource =
    "Korthikanti et al. 2022, arXiv 2205.05198, generalised to GQA, SwiGLU, flash attention, "
    "transformers' eager attention and torch autocast";

template <class E, std::size_t N>
Expected<E> parse_enum(std::string_view what, std::string_view text,
                       const std::array<E, N>& values) {
  const std::string key = to_lower(trim(text));
  std::vector<std::string> names;
  for (const E v : values) {
    if (key == to_string(v)) {
      return v;
    }
    names.emplace_back(to_string(v));
  }
  std::string list;
  for (const auto& n : names) {
    list += (list.empty() ? "" : ", ") + n;
  }
  const std::string hint = did_you_mean(closest(key, names));
  return make_error(fmt::format("unknown {} '{}': {}", what, trim(text),
                                hint.empty() ? "use one of " + list : hint));
}

// "4,194,304": exact counts as PEFT prints them.
std::string grouped(std::int64_t n) {
  std::string digits = std::to_string(n);
  for (auto i = static_cast<std::ptrdiff_t>(digits.size()) - 3; i > 0; i -= 3) {
    digits.insert(static_cast<std::size_t>(i), ",");
  }
  return digits;
}

std::string params_text(double params) {
  if (params >= 1e9) {
    return fmt::format("{:.3g} B", params / 1e9);
  }
  if (params >= 1e6) {
    return fmt::format("{:.3g} M", params / 1e6);
  }
  return fmt::format("{:.0f}", params);
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (const auto& p : parts) {
    out += (out.empty() ? "" : std::string(sep)) + p;
  }
  return out;
}

// Whether PEFT would put an adapter on a module of this name.
bool is_targeted(const std::vector<std::string>& targets, const std::string& name) {
  return std::find(targets.begin(), targets.end(), name) != targets.end() ||
         std::find(targets.begin(), targets.end(), "all-linear") != targets.end();
}

bool is_stage3(const TrainingQuery& q) {
  return q.fsdp || q.zero >= 3;
}

int zero_stage(const TrainingQuery& q) {
  return q.fsdp ? 3 : q.zero;
}

std::string sharding_text(const TrainingQuery& q) {
  if (q.fsdp) {
    return "FSDP full shard";
  }
  return q.zero > 0 ? fmt::format("ZeRO-{}", q.zero) : "no ZeRO";
}

}  // namespace

std::string_view to_string(TrainMethod m) {
  switch (m) {
    case TrainMethod::Full:
      return "full";
    case TrainMethod::Lora:
      return "lora";
    case TrainMethod::Qlora:
      return "qlora";
  }
  return "full";
}

std::string_view to_string(TrainPrecision p) {
  switch (p) {
    case TrainPrecision::Bf16:
      return "bf16";
    case TrainPrecision::Fp16:
      return "fp16";
    case TrainPrecision::Fp32:
      return "fp32";
    case TrainPrecision::Fp8:
      return "fp8";
  }
  return "bf16";
}

std::string_view to_string(Optimizer o) {
  switch (o) {
    case Optimizer::AdamW:
      return "adamw";
    case Optimizer::AdamW8bit:
      return "adamw-8bit";
    case Optimizer::Sgd:
      return "sgd";
    case Optimizer::SgdMomentum:
      return "sgd-momentum";
    case Optimizer::Adafactor:
      return "adafactor";
    case Optimizer::Lion:
      return "lion";
  }
  return "adamw";
}

std::string_view to_string(Checkpointing c) {
  switch (c) {
    case Checkpointing::None:
      return "none";
    case Checkpointing::Selective:
      return "selective";
    case Checkpointing::Full:
      return "full";
  }
  return "none";
}

std::string_view to_string(GradDtype g) {
  switch (g) {
    case GradDtype::Half:
      return "bf16";
    case GradDtype::Fp32:
      return "fp32";
    case GradDtype::HalfPlusFp32:
      return "bf16+fp32";
  }
  return "bf16";
}

Expected<TrainMethod> parse_train_method(std::string_view text) {
  return parse_enum<TrainMethod>(
      "--method", text, std::array{TrainMethod::Full, TrainMethod::Lora, TrainMethod::Qlora});
}

Expected<TrainPrecision> parse_train_precision(std::string_view text) {
  return parse_enum<TrainPrecision>("training precision", text,
                                    std::array{TrainPrecision::Bf16, TrainPrecision::Fp16,
                                               TrainPrecision::Fp32, TrainPrecision::Fp8});
}

Expected<Optimizer> parse_optimizer(std::string_view text) {
  return parse_enum<Optimizer>(
      "--optimizer", text,
      std::array{Optimizer::AdamW, Optimizer::AdamW8bit, Optimizer::Sgd, Optimizer::SgdMomentum,
                 Optimizer::Adafactor, Optimizer::Lion});
}

Expected<Checkpointing> parse_checkpointing(std::string_view text) {
  return parse_enum<Checkpointing>(
      "--checkpointing", text,
      std::array{Checkpointing::None, Checkpointing::Selective, Checkpointing::Full});
}

Expected<GradDtype> parse_grad_dtype(std::string_view text) {
  const std::string key = to_lower(trim(text));
  if (key == "fp16") {
    return GradDtype::Half;
  }
  if (key == "fp16+fp32") {
    return GradDtype::HalfPlusFp32;
  }
  return parse_enum<GradDtype>(
      "--grad-dtype", text, std::array{GradDtype::Half, GradDtype::Fp32, GradDtype::HalfPlusFp32});
}

Expected<bool> parse_master_weights(std::string_view text) {
  const std::string key = to_lower(trim(text));
  if (key == "fp32") {
    return true;
  }
  if (key == "none") {
    return false;
  }
  return make_error(fmt::format("unknown --master-weights '{}': use fp32 or none", trim(text)));
}

namespace {

constexpr std::array<const char*, 7> kLoraModuleNames{"q_proj",    "k_proj",  "v_proj",   "o_proj",
                                                      "gate_proj", "up_proj", "down_proj"};

}  // namespace

Expected<std::vector<std::string>> parse_lora_targets(std::string_view text) {
  const std::string all = to_lower(trim(text));
  if (all == "all-linear") {
    return std::vector<std::string>{"all-linear"};
  }
  std::vector<std::string> names(kLoraModuleNames.begin(), kLoraModuleNames.end());
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= all.size()) {
    const std::size_t comma = std::min(all.find(',', start), all.size());
    const std::string item = trim(std::string_view(all).substr(start, comma - start));
    start = comma + 1;
    if (item.empty()) {
      return make_error(
          fmt::format("invalid --lora-targets '{}': give module names separated by commas, e.g. "
                      "q_proj,v_proj, or all-linear",
                      trim(text)));
    }
    if (std::find(names.begin(), names.end(), item) == names.end()) {
      names.emplace_back("all-linear");
      const std::string hint = did_you_mean(closest(item, names));
      return make_error(fmt::format("unknown LoRA target '{}': {}", item,
                                    hint.empty() ? "use q_proj, k_proj, v_proj, o_proj, "
                                                   "gate_proj, up_proj, down_proj or all-linear"
                                                 : hint));
    }
    if (std::find(out.begin(), out.end(), item) == out.end()) {
      out.push_back(item);
    }
  }
  return out;
}

// ---- Parameters and modules ----------------------------------------------

std::vector<LinearModule> linear_modules(const Architecture& a) {
  std::vector<LinearModule> m;
  const std::int64_t h = a.hidden_size;
  const std::int64_t layers = a.layers;
  if (!a.layer_widths.empty() && !a.moe) {
    // Nemotron NAS (DeciLM's modeling code: a block's attention, a
    // replacing linear_attn, or nothing; its MLP at its own width): one
    // module entry per layer, merged where the shapes repeat.
    const auto add = [&](const char* name, std::int64_t in, std::int64_t out) {
      for (LinearModule& x : m) {
        if (x.name == name && x.in == in && x.out == out) {
          ++x.count;
          return;
        }
      }
      m.push_back({name, in, out, 1});
    };
    for (const LayerWidths& l : a.layer_widths) {
      const std::int64_t q = std::int64_t{l.heads} * a.head_dim;
      const std::int64_t kv = std::int64_t{l.kv_heads} * a.head_dim;
      if (l.heads > 0 && l.kv_heads > 0) {
        add("q_proj", h, q);
        add("k_proj", h, kv);
        add("v_proj", h, kv);
        add("o_proj", q, h);
      } else if (l.heads > 0) {
        add("o_proj", h, h);
      }
      if (l.ffn > 0) {
        if (a.mlp_gated) {
          add("gate_proj", h, l.ffn);
        }
        add("up_proj", h, l.ffn);
        add("down_proj", l.ffn, h);
      }
    }
    return m;
  }
  if (uses_mla(a)) {
    // DeepSeek's module names (modeling_deepseek.py).
    const auto& x = a.attention;
    const std::int64_t qk = x.qk_nope_head_dim + x.qk_rope_head_dim;
    const std::int64_t v = x.v_head_dim > 0 ? x.v_head_dim : a.head_dim;
    if (x.q_lora_rank > 0) {
      m.push_back({"q_a_proj", h, x.q_lora_rank, layers});
      m.push_back({"q_b_proj", x.q_lora_rank, a.heads * qk, layers});
    } else {
      m.push_back({"q_proj", h, a.heads * qk, layers});
    }
    m.push_back({"kv_a_proj_with_mqa", h, x.kv_lora_rank + x.qk_rope_head_dim, layers});
    m.push_back({"kv_b_proj", x.kv_lora_rank, a.heads * (x.qk_nope_head_dim + v), layers});
    m.push_back({"o_proj", a.heads * v, h, layers});
  } else {
    const std::int64_t q = std::int64_t{a.heads} * a.head_dim;
    const std::int64_t kv = std::int64_t{a.kv_heads} * a.head_dim;
    m.push_back({"q_proj", h, q, layers});
    m.push_back({"k_proj", h, kv, layers});
    m.push_back({"v_proj", h, kv, layers});
    m.push_back({"o_proj", q, h, layers});
  }
  const auto mlp = [&](std::int64_t ffn, std::int64_t count) {
    if (count <= 0 || ffn <= 0) {
      return;
    }
    if (a.mlp_gated) {
      m.push_back({"gate_proj", h, ffn, count});
    }
    m.push_back({"up_proj", h, ffn, count});
    m.push_back({"down_proj", ffn, h, count});
  };
  if (a.moe && a.moe->experts > 0) {
    const auto& e = *a.moe;
    const std::int64_t dense = std::clamp(e.first_dense_layers, 0, a.layers);
    const std::int64_t moe_layers = layers - dense;
    mlp(a.intermediate_size, dense);
    mlp(e.expert_intermediate_size, moe_layers * e.experts);
    if (const std::int64_t shared = shared_expert_width(e); shared > 0) {
      mlp(shared, moe_layers);
    }
    m.push_back({"router", h, e.experts, moe_layers});
  } else {
    mlp(a.intermediate_size, layers);
  }
  return m;
}

std::int64_t lora_params(const Architecture& arch, int rank,
                         const std::vector<std::string>& targets) {
  std::int64_t total = 0;
  for (const auto& mod : linear_modules(arch)) {
    if (is_targeted(targets, mod.name)) {
      total += std::int64_t{rank} * (mod.in + mod.out) * mod.count;
    }
  }
  return total;
}

Bytes adafactor_state_bytes(const Architecture& arch) {
  Bytes total = 0;
  for (const auto& mod : linear_modules(arch)) {
    total += 4 * (mod.in + mod.out) * mod.count;
  }
  const ParamBreakdown p = count_params(arch);
  total += 4 * (arch.vocab_size + arch.hidden_size) * (arch.tied_embeddings ? 1 : 2);
  total += 4 * p.vision;  // unknown shapes: unfactored
  return total;
}

Bytes qlora_base_bytes(const Model& model) {
  Precision nf4dq;
  nf4dq.id = "nf4";
  nf4dq.name = "NF4 (double quantisation)";
  nf4dq.bits_per_weight = kNf4DoubleQuantBits;
  nf4dq.kind = PrecisionKind::GroupQuant;
  nf4dq.scope = WeightScope::LinearOnly;
  Model base = model;
  base.file_weight_bytes.reset();  // a file's bytes describe its own precision
  return weight_bytes(base, nf4dq);
}

std::int64_t autocast_cast_params(const Architecture& arch) {
  const ParamBreakdown p = count_params(arch);
  // The output head casts its weight whether or not it is the embedding's.
  return p.linear() + arch.vocab_size * arch.hidden_size + p.vision;
}

double optimizer_bytes_per_param(Optimizer optimizer) {
  switch (optimizer) {
    case Optimizer::AdamW:
      return 8.0;
    case Optimizer::AdamW8bit:
      return kAdam8bitBytes;
    case Optimizer::Sgd:
      return 0.0;
    case Optimizer::SgdMomentum:
    case Optimizer::Lion:
      return 4.0;
    case Optimizer::Adafactor:
      return 0.0;  // factored: see adafactor_state_bytes
  }
  return 8.0;
}

namespace {

std::int64_t trainable_params(const TrainingQuery& q) {
  if (q.method == TrainMethod::Full) {
    return q.model.params;
  }
  return lora_params(q.model.arch, q.lora_rank, q.lora_targets);
}

// Adafactor's bytes per trainable parameter, averaged.
double adafactor_bytes_per_param(const TrainingQuery& q, std::int64_t trainable) {
  if (trainable <= 0) {
    return 0.0;
  }
  if (q.method == TrainMethod::Full) {
    // Scale the architecture's count to the stated parameter count.
    const auto counted =
        static_cast<double>(std::max<std::int64_t>(1, count_params(q.model.arch).total()));
    return static_cast<double>(adafactor_state_bytes(q.model.arch)) / counted;
  }
  // Adapters: A is r x in, B is out x r; each factored.
  double bytes = 0;
  for (const auto& mod : linear_modules(q.model.arch)) {
    if (is_targeted(q.lora_targets, mod.name)) {
      bytes += 4.0 * static_cast<double>((q.lora_rank + mod.in) + (mod.out + q.lora_rank)) *
               static_cast<double>(mod.count);
    }
  }
  return bytes / static_cast<double>(trainable);
}

}  // namespace

StateBytes state_bytes(const TrainingQuery& q) {
  StateBytes s;
  switch (q.precision) {
    case TrainPrecision::Fp32:
      s = {4, 4, 0, 8};
      break;
    case TrainPrecision::Bf16:
    case TrainPrecision::Fp16:
      s = {2, 2, 4, 8};
      break;
    case TrainPrecision::Fp8:
      s = {1, 2, 4, 8};
      break;
  }
  if (q.grad_dtype) {
    switch (*q.grad_dtype) {
      case GradDtype::Half:
        s.gradients = 2;
        break;
      case GradDtype::Fp32:
        s.gradients = 4;
        break;
      case GradDtype::HalfPlusFp32:
        s.gradients = 6;
        break;
    }
  }
  if (q.master_weights && q.precision != TrainPrecision::Fp32) {
    s.master = *q.master_weights ? 4 : 0;
  }
  if (q.autocast) {
    // The fp32 parameters are the master copy; gradients take their dtype.
    s.weights = 4;
    s.gradients = 4;
    s.master = 0;
  }
  s.optimizer = q.optimizer == Optimizer::Adafactor
                    ? adafactor_bytes_per_param(q, trainable_params(q))
                    : optimizer_bytes_per_param(q.optimizer);
  return s;
}

// ---- Activations -----------------------------------------------------------

LayerShape layer_shape(const Architecture& a, double bytes_per_value) {
  LayerShape s;
  s.hidden = a.hidden_size;
  s.heads = a.heads;
  s.bytes = bytes_per_value;
  s.gated = a.mlp_gated;
  s.mlp_inputs = a.mlp_gated ? 2 : 1;  // gate and up, or up
  s.dropout = false;                   // current decoder models train without dropout
  if (uses_mla(a)) {
    const auto& x = a.attention;
    const std::int64_t qk = x.qk_nope_head_dim + x.qk_rope_head_dim;
    s.q_width = a.heads * qk;
    s.k_width = a.heads * qk;  // decompressed per head
    s.v_width = a.heads * (x.v_head_dim > 0 ? x.v_head_dim : a.head_dim);
    s.kv_heads = a.heads;
    s.attention_inputs = 2;  // q_a_proj (or q_proj) and kv_a_proj_with_mqa
  } else {
    s.q_width = std::int64_t{a.heads} * a.head_dim;
    s.k_width = std::int64_t{a.kv_heads} * a.head_dim;
    s.v_width = s.k_width;
    s.kv_heads = a.kv_heads > 0 ? a.kv_heads : a.heads;
  }
  if (a.moe && a.moe->experts > 0) {
    // Every token passes through its routed experts and the shared ones.
    s.ffn =
        a.moe->expert_intermediate_size * a.moe->experts_per_token + shared_expert_width(*a.moe);
  } else {
    s.ffn = a.intermediate_size;
  }
  return s;
}

// Korthikanti et al. (2022) count, per layer, the tensors autograd keeps for
// the backward pass, for 16-bit values (B = 2) and 1-byte dropout masks:
//   attention 11 sbh + 5 a s^2 b, MLP 19 sbh, two LayerNorm inputs 4 sbh,
//   total sbh (34 + 5 a s / h)   (s tokens, b sequences, h hidden, a heads).
// We keep their accounting and replace the shapes they fixed:
//   - replicated across tensor-parallel ranks (unless sequence parallel):
//     the two norm inputs (2 B sbh), the inputs of the QKV and MLP matmuls
//     (B sbh each) and two dropout masks (sbh each, when dropout is used):
//     Korthikanti's "10 sbh"; and the norms' F32 statistics, which they leave
//     out (torch's native_layer_norm saves mean and rstd: 16 sb bytes);
//   - split across ranks: Q and K (B sb (q + k)), V (B sb v) and the output
//     projection's input (B sb q), where q, k, v are the real widths (GQA
//     shrinks k and v); the MLP: GELU input and second matmul input
//     (2 B sb ffn, = 16 sbh at ffn = 4h) or, gated (SwiGLU), the gate and up
//     outputs, the activation and the product (4 B sb ffn);
//   - attention scores, without flash attention: Korthikanti et al. count
//     Megatron's fused softmax, whose output stays at B bytes (B a s^2 b),
//     and with dropout its mask and output (a s^2 b + B a s^2 b). transformers'
//     eager attention (the essay above) keeps the softmax output in fp32 and
//     its B-byte copy, or the dropout's mask and output in place of that copy
//     (ActivationOptions::softmax_fp32, the default), and saves K and V after
//     repeat_kv, at every head's width. Selective recomputation drops the
//     s^2 tensors; flash attention never stores them and keeps an fp32
//     log-sum-exp per head and token instead (4 a s b). PyTorch before 1.11
//     also kept softmax's input, the masked scores (one more s^2 tensor, fp32
//     under autocast, where BERT's fp32 additive mask promotes the scores):
//     its backward, _softmax_backward_data(grad, result, dim, self), took the
//     input tensor only to read its dtype (pytorch issue 64000); 1.11 passes
//     the dtype instead (the API change transformers PR 16043 adapted to). The
//     scores before scaling and masking are temporaries either way: the matmul
//     saves Q and K, and neither the division by a scalar sqrt(d) nor the
//     addition of a mask that needs no gradient saves an s^2 tensor.
//   Under autocast (essay, 8) the same tensors at other widths: the norm
//   inputs and the residual stream are fp32 (4 bytes), the matmul inputs B,
//   and each linear layer reading a norm's output saves its own B-byte cast
//   of it (3 for q, k, v; 2 for gate and up) where a 16-bit model shares one.
//   So bert-large in fp16 keeps 42 sbh a layer besides the scores, against
//   66 sbh in fp32.
//   Peak: we take the end of the forward pass. In bert-large at 512 tokens the
//   backward pass frees the last layer's MLP and output tensors (50 sbh bytes
//   in fp32) before it makes its first s^2 gradient (4 a s^2 b bytes, 32 sbh
//   here), and frees the dropped probabilities before the dropout holds two
//   of them; at long sequences without flash attention those gradients can
//   outgrow what was freed (not counted).
// Tensor parallel: replicated + split / t; with sequence parallel all / t.
// Full recomputation keeps the layer input only: B sbh, 4 sbh under autocast
// (/ t with SP).
Bytes layer_activation_bytes(const LayerShape& shape, const ActivationOptions& o) {
  const double sb = static_cast<double>(o.seq) * static_cast<double>(o.micro_batch);
  const double B = shape.bytes;
  const double stream = o.autocast ? 4.0 : B;  // the residual stream and the norm inputs
  const auto h = static_cast<double>(shape.hidden);
  const double t = std::max(1, o.tp);
  const double sp_div = o.sequence_parallel ? t : 1.0;
  if (o.checkpointing == Checkpointing::Full) {
    return round_bytes(stream * sb * h / sp_div);
  }
  const double mask = shape.dropout ? 1.0 : 0.0;
  // Each of the two norms also keeps its F32 statistics per token (LayerNorm
  // the mean and 1/std, RMSNorm one of them): 2 x 2 x 4 bytes per token.
  const double norm_stats = 16.0 * sb;
  const double attention_in = o.autocast ? shape.attention_inputs * B : B;
  const double mlp_in = o.autocast ? shape.mlp_inputs * B : B;
  const double replicated =
      sb * h * (2.0 * stream + attention_in + mlp_in + 2.0 * mask) + norm_stats;
  const auto a = static_cast<double>(shape.heads);
  const auto q = static_cast<double>(shape.q_width);
  auto k = static_cast<double>(shape.k_width);
  auto v = static_cast<double>(shape.v_width);
  if (!o.flash_attention && shape.kv_heads > 0 && shape.kv_heads < shape.heads) {
    // repeat_kv: the matmuls save K and V expanded to every head.
    const double repeat = a / static_cast<double>(shape.kv_heads);
    k *= repeat;
    v *= repeat;
  }
  const auto ffn = static_cast<double>(shape.ffn);
  double split = B * sb * (q + k + v + q) + (shape.gated ? 4.0 : 2.0) * B * sb * ffn;
  const auto s = static_cast<double>(o.seq);
  if (o.flash_attention) {
    split += 4.0 * a * sb;
  } else if (o.checkpointing != Checkpointing::Selective) {
    // The softmax output, then what the second matmul saves: the cast copy
    // (none when the softmax is already at B bytes), or the dropout's mask
    // and output.
    const double probs = o.softmax_fp32 ? 4.0 : B;
    const double kept = shape.dropout ? 1.0 + B : (probs != B ? B : 0.0);
    const double input = o.softmax_keeps_input ? (o.autocast ? 4.0 : B) : 0.0;
    split += a * s * sb * (probs + kept + input);
  }
  if (o.sequence_parallel) {
    return round_bytes((replicated + split) / t);
  }
  return round_bytes(replicated + split / t);
}

// ---- The estimate ------------------------------------------------------------

Expected<TrainingQuery> validate(TrainingQuery q) {
  if (q.gpus < 1 || q.nodes < 1 || q.tp < 1 || q.pp < 1 || q.micro_batch < 1 || q.seq_len < 1) {
    return make_error("GPUs, nodes, --tp, --pp, --micro-batch and --seq-len must be at least 1");
  }
  const std::int64_t total = std::int64_t{q.gpus} * q.nodes;
  if (total % (std::int64_t{q.tp} * q.pp) != 0) {
    return make_error(fmt::format(
        "{} GPUs ({} per node x {} nodes) cannot be split into tensor-parallel {} x pipeline {}: "
        "the GPU count must be a multiple of --tp x --pp",
        total, q.gpus, q.nodes, q.tp, q.pp));
  }
  if (q.zero < 0 || q.zero > 3) {
    return make_error(fmt::format("invalid --zero {}: use 0, 1, 2 or 3", q.zero));
  }
  if (q.fsdp && q.zero > 0) {
    return make_error("give --zero or --fsdp, not both (FSDP full shard is ZeRO-3)");
  }
  if (q.offload_optimizer && !q.fsdp && q.zero < 2) {
    return make_error("--offload-optimizer needs --zero 2, --zero 3 or --fsdp (ZeRO-Offload)");
  }
  if (q.offload_params && !is_stage3(q)) {
    return make_error("--offload-params needs --zero 3 or --fsdp");
  }
  if (q.sequence_parallel && q.tp < 2) {
    return make_error("--sequence-parallel needs --tp 2 or more");
  }
  if (q.autocast) {
    if (q.precision != TrainPrecision::Bf16 && q.precision != TrainPrecision::Fp16) {
      return make_error(
          fmt::format("--amp casts to bf16 or fp16: give --precision bf16 or fp16, not {}",
                      to_string(q.precision)));
    }
    if (q.master_weights || q.grad_dtype) {
      return make_error(
          "--amp trains fp32 parameters, which are their own master copy, with fp32 gradients: "
          "leave out --master-weights and --grad-dtype");
    }
  }
  if (q.model.arch.layers > 0 && q.pp > q.model.arch.layers) {
    return make_error(fmt::format("--pp {} is more pipeline stages than the model has layers ({})",
                                  q.pp, q.model.arch.layers));
  }
  if (q.method != TrainMethod::Full) {
    if (q.lora_rank < 1) {
      return make_error("--lora-rank must be at least 1");
    }
    const auto mods = linear_modules(q.model.arch);
    for (const auto& target : q.lora_targets) {
      if (target == "all-linear") {
        continue;
      }
      const bool found = std::any_of(mods.begin(), mods.end(),
                                     [&](const LinearModule& m) { return m.name == target; });
      if (!found) {
        std::string names;
        for (const auto& m : mods) {
          names += (names.empty() ? "" : ", ") + m.name;
        }
        return make_error(fmt::format("LoRA target '{}' is not a linear layer of {} (it has {})",
                                      target, q.model.name, names));
      }
    }
  }
  return q;
}

namespace {

// Model states on one GPU, in bytes, after model parallelism, ZeRO and offload.
struct States {
  double base = 0;  // the frozen base (LoRA, QLoRA), all of it
  double weights = 0;
  double gradients = 0;
  double master = 0;
  double optimizer = 0;
  double copies = 0;         // autocast's 16-bit weight copies
  double copied_params = 0;  // the parameters they copy, on this GPU
  double host_per_gpu = 0;   // offloaded to host RAM
};

States model_states(const TrainingQuery& q, const StateBytes& s, double trainable, int mp,
                    double ranks) {
  const auto params = static_cast<double>(q.model.params);
  const int stage = zero_stage(q);
  States st;
  if (q.method == TrainMethod::Qlora) {
    st.base = static_cast<double>(qlora_base_bytes(q.model));
  } else if (q.method == TrainMethod::Lora) {
    // Under autocast the frozen base stays at its 16-bit storage precision.
    st.base = params * (q.autocast ? 2.0 : s.weights);
  }
  const double weights =
      (q.method == TrainMethod::Full ? params * s.weights : st.base + trainable * s.weights) / mp;
  st.weights = stage >= 3 ? weights / ranks : weights;
  if (q.autocast) {
    // Every linear weight (PEFT's fp32 adapters with LoRA) cast once per
    // forward pass, held until the backward pass (essay, 8).
    const double copied = q.method == TrainMethod::Full
                              ? static_cast<double>(autocast_cast_params(q.model.arch))
                              : trainable;
    st.copied_params = copied / mp / (stage >= 3 ? ranks : 1.0);
    st.copies = 2.0 * st.copied_params;
  }
  st.gradients = trainable * s.gradients / mp / (stage >= 2 ? ranks : 1.0);
  st.master = trainable * s.master / mp / (stage >= 1 ? ranks : 1.0);
  st.optimizer = trainable * s.optimizer / mp / (stage >= 1 ? ranks : 1.0);
  if (q.offload_optimizer) {
    // ZeRO-Offload: master, optimizer states and an fp32 gradient partition.
    st.host_per_gpu += st.master + st.optimizer + trainable * 4.0 / mp / ranks;
    st.gradients = 0;
    st.master = 0;
    st.optimizer = 0;
  }
  if (q.offload_params) {
    st.host_per_gpu += st.weights;
    st.weights = 0;
  }
  return st;
}

struct Activations {
  Bytes per_layer = 0;
  int layers_per_stage = 1;
  double recompute = 0;  // one layer rematerialised during the backward pass
  double logits = 0;
  double total = 0;
};

Activations activations(const TrainingQuery& q) {
  const Architecture& arch = q.model.arch;
  const double value_bytes = q.precision == TrainPrecision::Fp32 ? 4.0 : 2.0;
  LayerShape shape = layer_shape(arch, value_bytes);
  shape.dropout = q.dropout;
  ActivationOptions o;
  o.seq = q.seq_len;
  o.micro_batch = q.micro_batch;
  o.tp = q.tp;
  o.sequence_parallel = q.sequence_parallel;
  o.checkpointing = q.checkpointing;
  o.flash_attention = q.flash_attention;
  o.softmax_keeps_input = q.softmax_keeps_input;
  // LoRA's frozen 16-bit base runs as it is stored: autocast changes the
  // dtypes of full training only.
  o.autocast = q.autocast && q.method == TrainMethod::Full;
  Activations a;
  a.per_layer = layer_activation_bytes(shape, o);
  const int layers = std::max(1, arch.layers);
  a.layers_per_stage = (layers + q.pp - 1) / q.pp;
  const double sb = static_cast<double>(q.seq_len) * q.micro_batch;
  // LoRA: the r-wide output of every adapter's A, kept for B's gradient.
  double adapters = 0;
  if (q.method != TrainMethod::Full && q.checkpointing != Checkpointing::Full) {
    std::size_t modules = 0;
    for (const auto& mod : linear_modules(arch)) {
      modules += is_targeted(q.lora_targets, mod.name) ? 1U : 0U;
    }
    adapters = value_bytes * sb * q.lora_rank * static_cast<double>(modules);
  }
  const double layer = static_cast<double>(a.per_layer) + adapters;
  if (q.checkpointing == Checkpointing::Full) {
    ActivationOptions none = o;
    none.checkpointing = Checkpointing::None;
    a.recompute = static_cast<double>(layer_activation_bytes(shape, none));
  }
  const double token_ids = 8.0 * sb;
  // Final norm input, logits, and the fp32 logits and softmax of the loss;
  // under autocast the norm input is fp32 and the output head saves its
  // 16-bit cast of the normed states.
  const double final_norm = o.autocast ? 4.0 + value_bytes : value_bytes;
  a.logits = final_norm * sb * static_cast<double>(arch.hidden_size) +
             sb * static_cast<double>(arch.vocab_size) * (value_bytes + 4.0 + 4.0) / q.tp;
  // 1F1B: the first stage holds pp micro-batches of its layers, the last one
  // micro-batch and the logits.
  const double first = layer * a.layers_per_stage * q.pp + a.recompute + token_ids;
  const double last = layer * a.layers_per_stage + a.recompute + a.logits;
  a.total = q.pp == 1 ? first + a.logits : std::max(first, last);
  return a;
}

struct Buffers {
  double bytes = 0;
  std::string text;
};

Buffers buffers(const TrainingQuery& q, const StateBytes& s, double trainable, int mp,
                double ranks) {
  const Architecture& arch = q.model.arch;
  const bool full = q.method == TrainMethod::Full;
  const ParamBreakdown p = count_params(arch);
  const double largest_layer =
      std::max(static_cast<double>(p.attention + p.mlp) / std::max(1, arch.layers),
               static_cast<double>(p.embedding)) /
      q.tp;
  const double value_bytes = full ? s.weights : 2.0;
  Buffers b;
  std::vector<std::string> parts;
  if (zero_stage(q) >= 3 && ranks > 1) {
    const double per = (full ? 2.0 : 1.0) * value_bytes;
    b.bytes += per * largest_layer;
    parts.push_back(fmt::format("gathered largest layer: {} params x {:g} bytes ({})",
                                params_text(largest_layer), per,
                                full ? "16-bit weights and gradients" : "16-bit weights"));
  } else if (zero_stage(q) >= 1 && ranks > 1) {
    const double elements = std::min(kBucketElements, trainable / mp);
    b.bytes += elements * value_bytes;
    parts.push_back(fmt::format("all-gather/reduce bucket: {} elements x {:g} bytes",
                                params_text(elements), value_bytes));
  }
  if (q.method == TrainMethod::Qlora) {
    std::int64_t widest = 0;
    for (const auto& mod : linear_modules(arch)) {
      widest = std::max(widest, mod.in * mod.out);
    }
    const double dequant = static_cast<double>(widest) / q.tp;
    b.bytes += 2.0 * dequant;
    parts.push_back(fmt::format("one linear layer dequantised to 16 bits: {} params x 2 bytes",
                                params_text(dequant)));
  }
  b.text = parts.empty() ? "none needed" : join(parts, "; ");
  return b;
}

// The arithmetic behind every term, for --explain.
void explain(const TrainingQuery& q, const States& st, const Activations& act, const Buffers& buf,
             TrainingEstimate& e) {
  const StateBytes& s = e.state;
  const auto params = static_cast<double>(q.model.params);
  const auto trainable = static_cast<double>(e.trainable_params);
  const bool full = q.method == TrainMethod::Full;
  const int stage = zero_stage(q);
  const int mp = q.tp * q.pp;
  const auto divided = [&](bool sharded) {
    std::string note;
    if (mp > 1) {
      note += fmt::format(" / {} (tp x pp)", mp);
    }
    if (sharded && e.data_parallel > 1) {
      note += fmt::format(" / {} ({})", e.data_parallel, sharding_text(q));
    }
    return note;
  };
  const auto offloaded = [](bool moved) { return moved ? " -> host RAM (offloaded)" : ""; };
  const TrainingBreakdown& b = e.per_gpu;

  e.headline =
      full ? fmt::format("{} params x {:.4g} bytes = {} before activations", params_text(params),
                         s.total(), format_size(round_bytes(params * s.total()), q.units))
           : fmt::format(
                 "frozen base {} + {} trainable params x {:.4g} bytes = {} before activations",
                 format_size(round_bytes(st.base), q.units), params_text(trainable), s.total(),
                 format_size(round_bytes(st.base + trainable * s.total()), q.units));
  std::string weights;
  if (full) {
    weights = fmt::format("{} params x {:g} bytes ({})", params_text(params), s.weights,
                          q.autocast ? "fp32, autocast" : to_string(q.precision));
  } else if (q.method == TrainMethod::Qlora) {
    weights = fmt::format(
        "NF4 base: linear layers at {:.4g} bits (4 + 8/64 + 32/(64x256)), embeddings and head at "
        "16 bits = {}, + {} adapter params x {:g} bytes",
        kNf4DoubleQuantBits, format_size(round_bytes(st.base), q.units), params_text(trainable),
        s.weights);
  } else {
    weights = fmt::format("frozen base {} params x {:g} bytes + {} adapter params x {:g} bytes",
                          params_text(params), s.weights, params_text(trainable), s.weights);
  }
  e.terms.push_back({"weights", b.weights, Placement::Device,
                     fmt::format("{}{} = {}{}", weights, divided(stage >= 3),
                                 format_memory(b.weights, q.units), offloaded(q.offload_params)),
                     full ? kStatesSource : "PEFT; QLoRA paper (NF4, double quantisation)"});
  const std::string trained = params_text(trainable) + (full ? " params" : " adapter params");
  e.terms.push_back({"gradients", b.gradients, Placement::Device,
                     fmt::format("{} x {:g} bytes ({}){} = {}{}", trained, s.gradients,
                                 q.grad_dtype ? to_string(*q.grad_dtype)
                                 : q.autocast ? "fp32"
                                              : to_string(q.precision),
                                 divided(stage >= 2), format_memory(b.gradients, q.units),
                                 offloaded(q.offload_optimizer)),
                     kStatesSource});
  e.terms.push_back(
      {"optimizer", b.optimizer, Placement::Device,
       fmt::format("{} x {:.4g} bytes ({}){} = {}{}", trained, s.optimizer, to_string(q.optimizer),
                   divided(stage >= 1), format_memory(b.optimizer, q.units),
                   offloaded(q.offload_optimizer)),
       q.optimizer == Optimizer::AdamW8bit
           ? "bitsandbytes: 1-byte m and v + fp32 absmax per 256 values"
       : q.optimizer == Optimizer::Adafactor
           ? "Adafactor: factored second moment, 4 bytes x (rows + cols) per matrix"
           : kStatesSource});
  e.terms.push_back(
      {"master_weights", b.master_weights, Placement::Device,
       q.autocast ? fmt::format("none: the fp32 weights are the master copy = {}",
                                format_memory(b.master_weights, q.units))
                  : fmt::format("{} x {:g} bytes (fp32 copy){} = {}{}", trained, s.master,
                                divided(stage >= 1), format_memory(b.master_weights, q.units),
                                offloaded(q.offload_optimizer)),
       kStatesSource});
  if (q.autocast) {
    e.terms.push_back(
        {"weight_copies", b.weight_copies, Placement::Device,
         fmt::format("{} {} x 2 bytes ({} casts in autocast's cache, saved by the matmuls until "
                     "the backward pass){} = {}",
                     params_text(full ? static_cast<double>(autocast_cast_params(q.model.arch))
                                      : trainable),
                     full ? "linear-layer weights" : "adapter params", to_string(q.precision),
                     divided(stage >= 3), format_memory(b.weight_copies, q.units)),
         "PyTorch aten/src/ATen/autocast_mode.cpp (cached_cast)"});
  }
  e.terms.push_back(
      {"activations", b.activations, Placement::Device,
       fmt::format(
           "{} per layer x {} layers{} ({} tokens x micro-batch {}, checkpointing {}, "
           "{}{}){} + logits and fp32 loss {} = {}",
           format_memory(act.per_layer, q.units), act.layers_per_stage,
           q.pp > 1 ? fmt::format(" x {} micro-batches in flight", q.pp) : "", q.seq_len,
           q.micro_batch, to_string(q.checkpointing),
           q.flash_attention ? "sdpa or flash attention" : "eager attention",
           q.autocast && full ? fmt::format(", autocast to {}", to_string(q.precision)) : "",
           act.recompute > 0 ? fmt::format(" + one layer recomputed {}",
                                           format_memory(round_bytes(act.recompute), q.units))
                             : "",
           format_memory(round_bytes(act.logits), q.units), format_memory(b.activations, q.units)),
       kActivationSource});
  e.terms.push_back({"buffers", b.buffers, Placement::Device,
                     fmt::format("{} = {}", buf.text, format_memory(b.buffers, q.units)),
                     "DeepSpeed ZeRO-3 estimator (4 x largest layer); EleutherAI cookbook bucket"});
  e.terms.push_back(
      {"overhead", b.overhead, Placement::Device,
       fmt::format("{} and kernels, {} per {}", context_words(q.devices),
                   format_memory(kCudaContext, q.units), processor_word(q.devices)),
       fmt::format("vram-calculator ({}); measured {} to {}", format_memory(kCudaContext, q.units),
                   format_memory(300 * kMiB, q.units), format_memory(2 * kGiB, q.units))});
  e.terms.push_back(
      {"margin", b.margin, Placement::Device,
       fmt::format("5% of the {} allocated, at least {} = {}",
                   format_memory(b.total() - b.overhead - b.margin, q.units),
                   format_memory(kMarginMin, q.units), format_memory(b.margin, q.units)),
       "PyTorch caching allocator: reserved vs allocated (llama-recipes logs)"});
  if (e.host_bytes > 0) {
    e.terms.push_back(
        {"host", e.host_bytes, Placement::Host,
         fmt::format("offloaded states {} per GPU x {} GPUs per node x 1.5 = {} per node",
                     format_memory(round_bytes(st.host_per_gpu), q.units), q.gpus,
                     format_memory(e.host_bytes, q.units)),
         "DeepSpeed estimators (16 or 18 bytes per param, additional_buffer_factor 1.5)"});
  }
}

// Usable memory per GPU (the smallest GPU decides) and the verdict.
void decide(const TrainingQuery& q, TrainingEstimate& e) {
  e.required = e.per_gpu.total();
  e.error_band_pct = kTrainingErrorBandPct;
  e.band = round_bytes(static_cast<double>(e.required) * e.error_band_pct / 100.0);
  e.device_known = !q.devices.devices.empty();
  if (!e.device_known) {
    return;
  }
  bool first = true;
  for (const auto& d : q.devices.devices) {
    const Usable u = usable_memory(d, q.usable, q.units);
    if (first || u.bytes < e.usable) {
      e.usable = u.bytes;
      e.capacity = d.memory_bytes;
    }
    first = false;
    if (std::find(e.usable_reasons.begin(), e.usable_reasons.end(), u.reason) ==
        e.usable_reasons.end()) {
      e.usable_reasons.push_back(u.reason);
    }
  }
  e.headroom = e.usable - e.required;
  // --ram is the RAM installed; the operating system keeps its share
  // (system_ram_usable), as for inference's offload.
  const std::optional<Bytes> host_ram =
      q.ram ? std::optional<Bytes>(system_ram_usable(*q.ram).bytes) : std::nullopt;
  const bool host_ok = !host_ram || e.host_bytes <= *host_ram;
  if (e.headroom < 0 || !host_ok) {
    e.verdict = Verdict::NoFit;
  } else {
    e.verdict = e.host_bytes > 0 ? Verdict::Offload : Verdict::Fits;
  }
  // Within the band either way: it fits (whole or with the states in host
  // RAM) by less than the band, or is short on the GPU by less than it.
  e.tight =
      e.headroom >= 0 ? e.verdict != Verdict::NoFit && e.headroom <= e.band : -e.headroom <= e.band;
  if (!host_ok) {
    e.warnings.push_back(fmt::format(
        "the offloaded states need {} of host RAM per node, more than the {} --ram {} leaves "
        "them ({})",
        format_memory(e.host_bytes, q.units), format_memory(*host_ram, q.units),
        format_memory(*q.ram, q.units), system_ram_usable(*q.ram, q.units).reason));
  }
}

// What was assumed and what looks wrong, in words.
void describe(const TrainingQuery& q, TrainingEstimate& e) {
  if (q.model.assumed()) {
    e.assumptions = q.model.notes;
  }
  // QLoRA's base is bitsandbytes NF4, whose kernels are CUDA's (and ROCm's,
  // Intel's, CPU): its installation guide lists Apple silicon (MPS) as
  // "Planned" ("bitsandbytes does not yet support Apple Silicon / Metal with
  // a dedicated backend", docs/source/installation.mdx at
  // bitsandbytes-foundation/bitsandbytes cfb58288); an MPS backend
  // (bitsandbytes/backends/mps/ops.py at 120362b6) is young and falls back to
  // the CPU where its Metal kernel is missing. So the figure stands, with a
  // warning: support is partial, and LoRA runs on PyTorch's MPS as is.
  const bool apple = !q.devices.devices.empty() &&
                     std::all_of(q.devices.devices.begin(), q.devices.devices.end(),
                                 [](const Device& d) { return d.vendor == "apple"; });
  if (q.method == TrainMethod::Qlora && apple) {
    e.warnings.push_back(
        "QLoRA loads the base with bitsandbytes NF4, whose Apple silicon (MPS) support is "
        "partial (its guide lists the MPS backend as planned; newer versions fall back to the "
        "CPU where a Metal kernel is missing): expect it slow or failing; --method lora runs "
        "on MPS as is");
  }
  e.assumptions.push_back(
      q.autocast
          ? fmt::format("model states: {} (HF's model training anatomy counts 18 per parameter: "
                        "6 for the fp32 weights and their 16-bit copy, 4 gradients, 8 AdamW)",
                        e.convention)
          : fmt::format("model states: {} (ZeRO paper convention; --grad-dtype fp32 gives 18, "
                        "--grad-dtype bf16+fp32 20, --master-weights none 12)",
                        e.convention));
  if (q.method != TrainMethod::Full) {
    e.assumptions.push_back(fmt::format(
        "LoRA rank {} on {}: {} trainable params; the frozen base keeps no gradients or optimizer "
        "states, but activations and input gradients still flow through it",
        q.lora_rank, join(q.lora_targets, ","), grouped(e.trainable_params)));
  }
  if (q.checkpointing_defaulted && q.checkpointing == Checkpointing::Full) {
    e.assumptions.push_back(
        "full activation checkpointing, as PEFT's prepare_model_for_kbit_training enables for "
        "QLoRA (--checkpointing none to turn it off)");
  }
  if (q.autocast) {
    const std::string p(to_string(q.precision));
    e.assumptions.push_back(
        q.method == TrainMethod::Full
            ? fmt::format(
                  "torch.amp autocast to {} (the HF Trainer's {}=True on an fp32 model): fp32 "
                  "weights are the master copy, gradients fp32; each linear weight is cast to {} "
                  "once per forward pass and kept until the backward pass uses it; norms, softmax "
                  "and the residual stream run in fp32",
                  p, p, p)
            : fmt::format(
                  "torch.amp autocast to {} (the HF Trainer's {}=True with PEFT): the frozen base "
                  "runs as stored, where autocast casts nothing; PEFT's fp32 adapters are their "
                  "own master copy, with fp32 gradients and a {} copy each",
                  p, p, p));
  }
  if (!q.flash_attention) {
    e.assumptions.push_back(fmt::format(
        "eager attention as transformers' eager_attention_forward: each layer keeps every head's "
        "fp32 softmax (s x s){}, K and V repeated to every head; sdpa (transformers' default) "
        "and flash_attention_2 keep none of that (--flash-attn on)",
        q.precision == TrainPrecision::Fp32 && !q.autocast
            ? ""
            : " and the 16-bit copy the next matmul saves"));
  }
  if (q.flash_attention && (q.model.family == "gemma-2" || q.model.family == "gemma-3")) {
    // Gemma2/Gemma3ForCausalLM.forward warn in training unless the
    // implementation is eager, and train with the one configured (sdpa).
    e.assumptions.push_back(
        "attention: sdpa, which transformers picks for Gemma 2 and 3 too, though it warns that "
        "they should be trained with eager attention, which keeps the s x s scores "
        "(--flash-attn off)");
  }
  if (!q.flash_attention && q.checkpointing == Checkpointing::None) {
    e.warnings.push_back(
        "without flash attention the s^2 attention scores dominate at long sequences: "
        "--checkpointing selective recomputes them");
  }
  if (q.flash_attention && q.checkpointing == Checkpointing::Selective) {
    e.assumptions.push_back(
        "selective recomputation saves nothing with flash attention, which already recomputes "
        "the attention scores");
  }
  if (q.tp > 1 && q.model.arch.heads > 0 && q.model.arch.heads % q.tp != 0) {
    e.warnings.push_back(
        fmt::format("--tp {} does not divide the {} attention heads: Megatron needs it to", q.tp,
                    q.model.arch.heads));
  }
  const auto max_context = q.model.arch.max_context;
  if (max_context > 0 && q.seq_len > max_context) {
    e.warnings.push_back(fmt::format("sequence length {} is longer than the model's context ({})",
                                     q.seq_len, max_context));
  }
  if (auto unknown = unchecked_architecture_warning(q.model); !unknown.empty()) {
    e.warnings.push_back(std::move(unknown));
  }
  for (const auto& d : q.devices.devices) {
    if (d.kind == DeviceKind::Raw) {
      e.assumptions.push_back(
          fmt::format("'{}' read as {} per GPU ({} bytes): GPU memory sold as \"N GB\" is {}",
                      d.memory_marketed, format_memory(d.memory_bytes, q.units), d.memory_bytes,
                      marketed_gb_meaning(q.units)));
      break;
    }
  }
}

}  // namespace

TrainingEstimate estimate_training(const TrainingQuery& q) {
  TrainingEstimate e;
  e.trainable_params = trainable_params(q);
  e.state = state_bytes(q);
  const StateBytes& s = e.state;
  e.convention = fmt::format(
      "{:g} bytes per trainable parameter: {:g} weights + {:g} gradients{} + {:g} master + {:.4g} "
      "{}{}",
      s.total(), s.weights, s.gradients,
      q.grad_dtype == GradDtype::HalfPlusFp32 ? " (16-bit + fp32 accumulation)" : "", s.master,
      s.optimizer, to_string(q.optimizer),
      q.autocast ? fmt::format(", and a {} copy of each {} weight while autocast holds it",
                               to_string(q.precision),
                               q.method == TrainMethod::Full ? "linear" : "adapter")
                 : "");
  e.total_gpus = q.gpus * q.nodes;
  const int mp = q.tp * q.pp;
  e.data_parallel = std::max(1, e.total_gpus / std::max(1, mp));
  const double ranks = e.data_parallel;
  const auto trainable = static_cast<double>(e.trainable_params);

  const States st = model_states(q, s, trainable, mp, ranks);
  const Activations act = activations(q);
  const Buffers buf = buffers(q, s, trainable, mp, ranks);
  TrainingBreakdown& b = e.per_gpu;
  b.weights = round_bytes(st.weights);
  b.gradients = round_bytes(st.gradients);
  b.master_weights = round_bytes(st.master);
  b.optimizer = round_bytes(st.optimizer);
  b.weight_copies = round_bytes(st.copies);
  b.activations = round_bytes(act.total);
  b.buffers = round_bytes(buf.bytes);
  b.overhead = kCudaContext;
  const Bytes allocated = b.weights + b.gradients + b.optimizer + b.master_weights +
                          b.weight_copies + b.activations + b.buffers;
  b.margin =
      std::max<Bytes>(kMarginMin, round_bytes(static_cast<double>(allocated) * kMarginFraction));
  e.host_bytes = round_bytes(st.host_per_gpu * q.gpus * kHostBufferFactor);

  explain(q, st, act, buf, e);
  decide(q, e);
  describe(q, e);
  return e;
}

// ---- Suggestions -------------------------------------------------------------

namespace {

struct Candidate {
  std::string change;
  std::vector<std::string> args;
  TrainingQuery query;
};

// The smallest total GPU count (with ZeRO-3, or FSDP when already chosen) that
// fits; 0 when none up to 4096 does.
int gpus_needed(const TrainingQuery& base, TrainingQuery& found) {
  TrainingQuery q = base;
  if (!q.fsdp) {
    q.zero = 3;
  }
  const int mp = q.tp * q.pp;
  const int current = base.gpus * base.nodes;
  // Within one node first (up to 8 GPUs), then whole nodes of that size.
  const int per_node = std::max(base.gpus, 8);
  std::vector<std::pair<int, int>> layouts;  // {gpus per node, nodes}
  for (int g = base.gpus + (base.nodes == 1 ? 1 : 0); base.nodes == 1 && g <= per_node; ++g) {
    layouts.emplace_back(g, 1);
  }
  for (int n = 2; n * per_node <= 4096; ++n) {
    layouts.emplace_back(per_node, n);
  }
  for (const auto& [g, n] : layouts) {
    if (g * n <= current || (g * n) % mp != 0) {
      continue;
    }
    q.gpus = g;
    q.nodes = n;
    if (estimate_training(q).fits()) {
      found = q;
      return g * n;
    }
  }
  return 0;
}

// Host RAM is memory apart from the GPUs'. On unified memory (a Mac, DGX
// Spark, Strix Halo) it is the memory the device's usable figure already
// counts, so moving states there frees nothing; a CPU has no GPU to offload
// from. Offload is offered only where this holds.
bool host_ram_apart(const TrainingQuery& q) {
  return std::none_of(q.devices.devices.begin(), q.devices.devices.end(), [](const Device& d) {
    return d.kind == DeviceKind::Unified || d.kind == DeviceKind::Cpu;
  });
}

// A --ram to suggest for `host` bytes of offloaded states: the next size
// system RAM is sold in per node (a power of two, or one and a half of one:
// 32, 48, 64, 96, 128 GiB...), so the pasted command checks the RAM too.
Bytes ram_size_for(Bytes host) {
  // --ram is the RAM installed: the size whose usable part holds `host`.
  const auto holds = [host](Bytes size) { return system_ram_usable(size).bytes >= host; };
  for (Bytes size = 8 * kGiB;; size *= 2) {
    if (holds(size)) {
      return size;
    }
    if (holds(size + size / 2)) {
      return size + size / 2;
    }
  }
}

// One change of a combination: the option (and value) the user types, the
// words, and what it does to the query.
struct Step {
  std::string option;
  std::string value;
  std::string words;
  std::function<void(TrainingQuery&)> apply;
};

// Combinations on the GPUs the user named, cheapest in quality first: for
// each way of training (as asked, then 8-bit AdamW, LoRA, QLoRA: each keeps
// less of what full fine-tuning with AdamW learns), the changes that cost
// only time are added one after another (full checkpointing, micro-batch 1
// with gradient accumulation, ZeRO-3 over the GPUs there are), and the first
// set that fits whole is offered; failing that, states offloaded to host RAM
// (the optimizer, then the parameters: ZeRO-Offload, ZeRO-Infinity or FSDP
// CPU offload), with the --ram it needs when none was given (or only when
// the --ram given holds it). Offered: the best way that fits whole, and the
// better ways that fit only with offload, each needing less host RAM than
// the one before it (full fine-tuning with 179 GiB of host RAM, LoRA with
// less): a way that keeps less and needs as much RAM is no choice.
std::vector<TrainingSuggestion> on_own_hardware(const TrainingQuery& query) {
  std::vector<Step> ways{{"", "", "", [](TrainingQuery&) {}}};
  if (query.optimizer == Optimizer::AdamW) {
    ways.push_back({"--optimizer", "adamw-8bit", "8-bit AdamW",
                    [](TrainingQuery& q) { q.optimizer = Optimizer::AdamW8bit; }});
  }
  if (query.method == TrainMethod::Full) {
    ways.push_back({"--method", "lora", "LoRA adapters",
                    [](TrainingQuery& q) { q.method = TrainMethod::Lora; }});
  }
  if (query.method != TrainMethod::Qlora) {
    ways.push_back({"--method", "qlora", "QLoRA (a 4-bit NF4 base)", [](TrainingQuery& q) {
                      q.method = TrainMethod::Qlora;
                      if (q.checkpointing_defaulted) {
                        q.checkpointing = Checkpointing::Full;  // what the CLI defaults to
                      }
                    }});
  }
  const bool several = query.gpus * query.nodes > query.tp * query.pp;
  std::vector<Step> free;  // cost time, not quality
  if (query.checkpointing != Checkpointing::Full) {
    free.push_back({"--checkpointing", "full", "full activation checkpointing",
                    [](TrainingQuery& q) { q.checkpointing = Checkpointing::Full; }});
  }
  if (query.micro_batch > 1) {
    free.push_back({"--micro-batch", "1", "micro-batch 1 with gradient accumulation",
                    [](TrainingQuery& q) { q.micro_batch = 1; }});
  }
  if (several && !query.fsdp && query.zero < 3) {
    free.push_back(
        {"--zero", "3", "states sharded with ZeRO-3", [](TrainingQuery& q) { q.zero = 3; }});
  }
  std::vector<Step> offloads;  // cost speed and host RAM
  const bool host_apart = host_ram_apart(query);
  if (!query.offload_optimizer && host_apart) {
    offloads.push_back(
        {"--offload-optimizer", "", "optimizer states in host RAM", [](TrainingQuery& q) {
           if (!q.fsdp && q.zero < 2) {
             q.zero = 2;
           }
           q.offload_optimizer = true;
         }});
  }
  if (!query.offload_params && host_apart) {
    offloads.push_back({"--offload-params", "", "parameters in host RAM", [](TrainingQuery& q) {
                          if (!q.fsdp) {
                            q.zero = 3;
                          }
                          q.offload_optimizer = true;
                          q.offload_params = true;
                        }});
  }
  const auto suggestion = [&](const TrainingQuery& q, const std::vector<const Step*>& chosen,
                              const TrainingEstimate& alt) {
    TrainingSuggestion sug{"", {}, alt.required, alt.verdict, alt.host_bytes, alt.tight};
    std::vector<std::string> words;
    for (const Step* step : chosen) {
      if (step->option.empty()) {
        continue;
      }
      words.push_back(step->words);
      sug.args.push_back(step->option);
      if (!step->value.empty()) {
        sug.args.push_back(step->value);
      }
    }
    // ZeRO-Offload needs stage 2 or more: say the stage the offload set.
    if (q.zero != query.zero && !q.fsdp &&
        std::find(sug.args.begin(), sug.args.end(), "--zero") == sug.args.end()) {
      sug.args.insert(sug.args.end(), {"--zero", std::to_string(q.zero)});
    }
    if (alt.host_bytes > 0 && !query.ram) {
      sug.args.insert(sug.args.end(),
                      {"--ram", fmt::format("{}gb", ram_size_for(alt.host_bytes) / kGiB)});
    }
    const auto both = std::find(words.begin(), words.end(), "optimizer states in host RAM");
    if (both != words.end() && words.back() == "parameters in host RAM") {
      words.erase(both);
      words.back() = "optimizer states and parameters in host RAM";
    }
    sug.change =
        fmt::format("on your GPUs: {}{}", join(words, ", "),
                    alt.host_bytes > 0 ? fmt::format(", with {} of host RAM per node",
                                                     format_memory(alt.host_bytes, query.units))
                                       : "");
    return sug;
  };
  std::vector<TrainingSuggestion> out;
  std::optional<Bytes> least_host;  // of the offloads offered so far
  for (const Step& way : ways) {
    TrainingQuery q = query;
    way.apply(q);
    std::vector<const Step*> chosen{&way};
    Bytes total = estimate_training(q).required;
    std::optional<TrainingSuggestion> found;
    const auto try_step = [&](const Step& step) {
      TrainingQuery next = q;
      step.apply(next);
      if (!validate(next)) {
        return;
      }
      const TrainingEstimate alt = estimate_training(next);
      if (alt.required >= total && alt.host_bytes == 0) {
        return;  // no help
      }
      q = next;
      total = alt.required;
      chosen.push_back(&step);
      if (alt.verdict != Verdict::NoFit) {
        found = suggestion(q, chosen, alt);
      }
    };
    if (const TrainingEstimate as_is = estimate_training(q); as_is.verdict == Verdict::Fits) {
      found = suggestion(q, chosen, as_is);
    }
    for (const Step& step : free) {
      if (!found) {
        try_step(step);
      }
    }
    if (found && found->verdict == Verdict::Fits) {
      out.push_back(std::move(*found));
      break;  // the best way that fits whole: the rest keep less
    }
    // bitsandbytes' 8-bit AdamW steps on the GPU; an offloaded optimizer
    // is DeepSpeed's CPU Adam (or torch's AdamW on the CPU) in fp32 instead.
    const bool gpu_optimizer = way.option == "--optimizer";
    for (const Step& step : offloads) {
      if (!found && !gpu_optimizer) {
        try_step(step);
      }
    }
    if (found && (!least_host || found->host_bytes < *least_host)) {
      least_host = found->host_bytes;
      out.push_back(std::move(*found));
    }
  }
  return out;
}

}  // namespace

TrainingEstimate make_training_report(const TrainingQuery& query) {
  TrainingEstimate e = estimate_training(query);
  if (!e.device_known || e.verdict != Verdict::NoFit) {
    return e;
  }
  std::vector<Candidate> cands;
  const auto with = [&](auto change_fn) {
    TrainingQuery q = query;
    change_fn(q);
    return q;
  };
  if (query.checkpointing == Checkpointing::None && !query.flash_attention) {
    cands.push_back({"selective recomputation of attention scores",
                     {"--checkpointing", "selective"},
                     with([](TrainingQuery& q) { q.checkpointing = Checkpointing::Selective; })});
  }
  if (query.checkpointing != Checkpointing::Full) {
    cands.push_back({"full activation checkpointing, about 30% more compute",
                     {"--checkpointing", "full"},
                     with([](TrainingQuery& q) { q.checkpointing = Checkpointing::Full; })});
  }
  if (query.micro_batch > 1) {
    // The largest smaller micro-batch that fits, keeping the global batch
    // through gradient accumulation.
    int chosen = 1;
    for (int b = query.micro_batch / 2; b >= 1; b /= 2) {
      chosen = b;
      if (estimate_training(with([b](TrainingQuery& q) { q.micro_batch = b; })).fits()) {
        break;
      }
    }
    const int steps = (query.micro_batch + chosen - 1) / chosen;
    cands.push_back(
        {fmt::format("micro-batch {} with {} gradient-accumulation steps", chosen, steps),
         {"--micro-batch", std::to_string(chosen)},
         with([chosen](TrainingQuery& q) { q.micro_batch = chosen; })});
  }
  const int dp = e.data_parallel;
  if (dp > 1 && !query.fsdp && query.zero < 3) {
    int chosen = 3;
    for (int z = query.zero + 1; z <= 3; ++z) {
      chosen = z;
      if (estimate_training(with([z](TrainingQuery& q) { q.zero = z; })).fits()) {
        break;
      }
    }
    cands.push_back(
        {fmt::format("shard states over the {} data-parallel GPUs with ZeRO-{}", dp, chosen),
         {"--zero", std::to_string(chosen)},
         with([chosen](TrainingQuery& q) { q.zero = chosen; })});
  }
  if (query.optimizer == Optimizer::AdamW) {
    cands.push_back({"8-bit AdamW from bitsandbytes",
                     {"--optimizer", "adamw-8bit"},
                     with([](TrainingQuery& q) { q.optimizer = Optimizer::AdamW8bit; })});
  }
  if (query.method == TrainMethod::Full) {
    cands.push_back({"LoRA adapters instead of full fine-tuning",
                     {"--method", "lora"},
                     with([](TrainingQuery& q) { q.method = TrainMethod::Lora; })});
  }
  if (query.method != TrainMethod::Qlora) {
    cands.push_back({"QLoRA: a 4-bit NF4 base with LoRA adapters",
                     {"--method", "qlora"},
                     with([](TrainingQuery& q) {
                       q.method = TrainMethod::Qlora;
                       if (q.checkpointing_defaulted) {
                         q.checkpointing = Checkpointing::Full;  // what the CLI defaults to
                       }
                     })});
  }
  if (query.method != TrainMethod::Qlora && query.checkpointing != Checkpointing::Full &&
      !query.checkpointing_defaulted) {
    cands.push_back({"QLoRA with full activation checkpointing",
                     {"--method", "qlora", "--checkpointing", "full"},
                     with([](TrainingQuery& q) {
                       q.method = TrainMethod::Qlora;
                       q.checkpointing = Checkpointing::Full;
                     })});
  }
  if (!query.offload_optimizer && query.method == TrainMethod::Full && host_ram_apart(query)) {
    std::vector<std::string> args{"--offload-optimizer"};
    if (!query.fsdp && query.zero < 2) {
      args = {"--zero", "2", "--offload-optimizer"};
    }
    cands.push_back({"offload optimizer states to host RAM with ZeRO-Offload, slower steps", args,
                     with([](TrainingQuery& q) {
                       if (!q.fsdp && q.zero < 2) {
                         q.zero = 2;
                       }
                       q.offload_optimizer = true;
                     })});
  }
  // More GPUs of a card one can add to: not a laptop's GPU (soldered to its
  // board), nor an SoC's (a Mac, unified memory) or a CPU.
  const bool can_add_gpus =
      std::all_of(query.devices.devices.begin(), query.devices.devices.end(), [](const Device& d) {
        return !d.laptop && d.kind != DeviceKind::Unified && d.kind != DeviceKind::Cpu;
      });
  if (can_add_gpus) {
    // More GPUs; when activations alone are too big for that, with full checkpointing.
    TrainingQuery found;
    int total = gpus_needed(query, found);
    if (total == 0 && query.checkpointing != Checkpointing::Full) {
      TrainingQuery ckpt = query;
      ckpt.checkpointing = Checkpointing::Full;
      total = gpus_needed(ckpt, found);
    }
    if (total > 0) {
      // A device list ("2x rtx 3090") already fixes the GPU count, and the
      // command refuses --gpus next to it: say the new count there instead.
      const bool listed = query.devices.devices.size() > 1;
      std::vector<std::string> args =
          listed
              ? std::vector<std::string>{"--device", fmt::format("{}x {}", found.gpus,
                                                                 query.devices.devices.front().id)}
              : std::vector<std::string>{"--gpus", std::to_string(found.gpus)};
      if (found.nodes > 1) {
        args.insert(args.end(), {"--nodes", std::to_string(found.nodes)});
      }
      if (!found.fsdp && found.zero != query.zero) {
        args.insert(args.end(), {"--zero", std::to_string(found.zero)});
      }
      if (found.checkpointing != query.checkpointing) {
        args.insert(args.end(), {"--checkpointing", "full"});
      }
      cands.push_back(
          {fmt::format(
               "{} GPUs in all{}, states sharded with {}{}", total,
               found.nodes > 1 ? fmt::format(" ({} nodes of {})", found.nodes, found.gpus) : "",
               sharding_text(found),
               found.checkpointing != query.checkpointing ? ", full checkpointing" : ""),
           args, found});
    }
  }
  std::vector<TrainingSuggestion> fitting;
  std::vector<TrainingSuggestion> helping;
  for (const auto& c : cands) {
    if (!validate(c.query)) {
      continue;
    }
    const TrainingEstimate alt = estimate_training(c.query);
    if (alt.required >= e.required && !alt.fits()) {
      continue;  // no help
    }
    TrainingSuggestion sug{c.change, c.args, alt.required, alt.verdict, alt.host_bytes, alt.tight};
    (alt.verdict == Verdict::NoFit ? helping : fitting).push_back(sug);
  }
  for (auto& together : on_own_hardware(query)) {
    if (std::none_of(fitting.begin(), fitting.end(),
                     [&](const TrainingSuggestion& f) { return f.args == together.args; })) {
      fitting.push_back(std::move(together));
    }
  }
  // Least hardware first: what fits whole on the GPUs the user named (one
  // change, or several together), then what fits there with states in host
  // RAM (slower steps), then more GPUs or nodes; within each, what keeps
  // the most of the training asked for first (as asked, 8-bit AdamW, LoRA,
  // QLoRA).
  const auto has = [](const TrainingSuggestion& sg, std::string_view option,
                      std::string_view value) {
    for (std::size_t i = 0; i < sg.args.size(); ++i) {
      if (sg.args[i] == option &&
          (value.empty() || (i + 1 < sg.args.size() && sg.args[i + 1] == value))) {
        return true;
      }
    }
    return false;
  };
  const auto rank = [&](const TrainingSuggestion& sg) {
    const bool more_gpus =
        has(sg, "--gpus", "") || has(sg, "--nodes", "") || has(sg, "--device", "");
    const int tier = more_gpus ? 2 : sg.verdict == Verdict::Fits ? 0 : 1;
    const int kept = has(sg, "--method", "qlora")           ? 3
                     : has(sg, "--method", "lora")          ? 2
                     : has(sg, "--optimizer", "adamw-8bit") ? 1
                                                            : 0;
    return tier * 4 + kept;
  };
  std::stable_sort(fitting.begin(), fitting.end(),
                   [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
  std::stable_sort(helping.begin(), helping.end(),
                   [](const auto& a, const auto& b) { return a.total_bytes < b.total_bytes; });
  // Changes that fit are what helps; one that only lowers the need (8-bit
  // AdamW under LoRA saves megabytes) is listed only when nothing fits,
  // closest first, so the list never offers what leaves it short beside
  // what works.
  e.suggestions = fitting.empty() ? helping : fitting;
  return e;
}

std::string usable_memory_assumption(const std::string& reason) {
  return "usable memory: " + reason;
}

std::vector<std::string> training_assumptions(const TrainingEstimate& estimate) {
  std::vector<std::string> out = estimate.assumptions;
  for (const auto& reason : estimate.usable_reasons) {
    out.push_back(usable_memory_assumption(reason));
  }
  return out;
}

}  // namespace willfit
