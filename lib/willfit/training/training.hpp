// The training and fine-tuning estimate: what one GPU (and its host) must hold
// to train or fine-tune a model, term by term, the verdict, and the changes
// that would make it fit. Pure; no printing. The formulas and their sources are
// in the essay at the top of training.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "willfit/core/expected.hpp"
#include "willfit/core/units.hpp"
#include "willfit/devices/device.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/model.hpp"

namespace willfit {

enum class TrainMethod { Full, Lora, Qlora };
enum class TrainPrecision { Bf16, Fp16, Fp32, Fp8 };
enum class Optimizer { AdamW, AdamW8bit, Sgd, SgdMomentum, Adafactor, Lion };
enum class Checkpointing { None, Selective, Full };
// Gradient storage: 16-bit, fp32, or 16-bit plus an fp32 accumulation copy.
enum class GradDtype { Half, Fp32, HalfPlusFp32 };

std::string_view to_string(TrainMethod m);
std::string_view to_string(TrainPrecision p);
std::string_view to_string(Optimizer o);
std::string_view to_string(Checkpointing c);
std::string_view to_string(GradDtype g);

Expected<TrainMethod> parse_train_method(std::string_view text);
Expected<TrainPrecision> parse_train_precision(std::string_view text);
Expected<Optimizer> parse_optimizer(std::string_view text);
Expected<Checkpointing> parse_checkpointing(std::string_view text);
Expected<GradDtype> parse_grad_dtype(std::string_view text);
// "fp32" -> true (an fp32 master copy), "none" -> false.
Expected<bool> parse_master_weights(std::string_view text);

// PEFT module names a LoRA adapter can target. "all-linear" expands to every
// linear layer of the decoder blocks (never the output head, as in PEFT).
Expected<std::vector<std::string>> parse_lora_targets(std::string_view text);

struct TrainingQuery {
  Model model;
  TrainMethod method = TrainMethod::Full;
  TrainPrecision precision = TrainPrecision::Bf16;
  Optimizer optimizer = Optimizer::AdamW;
  std::optional<bool> master_weights;   // unset: fp32 master copy for 16/8-bit training
  std::optional<GradDtype> grad_dtype;  // unset: gradients in the training precision
  int micro_batch = 1;                  // sequences per GPU per step
  std::int64_t seq_len = 2048;          // tokens per sequence
  Checkpointing checkpointing = Checkpointing::None;
  bool checkpointing_defaulted = false;  // not asked for: said in the assumptions
  // sdpa (transformers' default) or flash_attention_2: no s^2 tensors kept;
  // false: transformers' eager attention (fp32 softmax and its 16-bit copy).
  bool flash_attention = true;
  // torch.amp autocast over an fp32 model (the HF Trainer's fp16=True /
  // bf16=True): fp32 weights, gradients and optimizer states, 16-bit copies of
  // the linear weights, each op's activations in the dtype autocast runs it
  // in. The 16-bit dtype is `precision` (bf16 or fp16).
  bool autocast = false;
  bool dropout = false;              // dropout masks kept (BERT, GPT-2); current LLMs train without
  bool softmax_keeps_input = false;  // PyTorch before 1.11: softmax's backward also holds its input
  bool sequence_parallel = false;    // Megatron sequence parallelism (needs tp > 1)
  int gpus = 1;                      // GPUs per node
  int nodes = 1;
  int zero = 0;       // ZeRO stage 0..3
  bool fsdp = false;  // PyTorch FSDP FULL_SHARD (= ZeRO-3)
  int tp = 1;         // tensor-parallel degree
  int pp = 1;         // pipeline stages
  bool offload_optimizer = false;
  bool offload_params = false;
  int lora_rank = 8;                                          // PEFT's default r
  std::vector<std::string> lora_targets{"q_proj", "v_proj"};  // PEFT's default for Llama
  DeviceSet devices;         // one entry: the device of every GPU; none: no verdict
  std::optional<Bytes> ram;  // host RAM per node, if known
  UsableOptions usable;
  UnitSystem units = UnitSystem::Mixed;  // how the words built here print memory (--units)
};

// Bytes per parameter for each model state; `convention` names the choice.
struct StateBytes {
  double weights = 2;
  double gradients = 2;  // including an fp32 accumulation copy when asked
  double master = 4;
  double optimizer = 8;  // per trainable parameter (Adafactor: average over the model)
  [[nodiscard]] double total() const { return weights + gradients + master + optimizer; }
};

struct TrainingBreakdown {
  Bytes weights = 0;
  Bytes gradients = 0;
  Bytes optimizer = 0;
  Bytes master_weights = 0;
  Bytes weight_copies = 0;  // autocast's 16-bit copies of the linear weights
  Bytes activations = 0;
  Bytes buffers = 0;
  Bytes overhead = 0;  // CUDA context
  Bytes margin = 0;    // allocator fragmentation
  [[nodiscard]] Bytes total() const {
    return weights + gradients + optimizer + master_weights + weight_copies + activations +
           buffers + overhead + margin;
  }
};

struct TrainingSuggestion {
  std::string change;             // "full activation checkpointing"
  std::vector<std::string> args;  // {"--checkpointing", "full"}
  Bytes total_bytes = 0;          // per GPU, re-estimated
  Verdict verdict = Verdict::NoFit;
  Bytes host_bytes = 0;  // host RAM per node for offloaded states, re-estimated
  bool tight = false;    // it fits only within the error band (TrainingEstimate::tight)
};

// The error band of a training total, in percent: the largest error of the
// estimate against the measured totals of tests/data/training_accuracy.csv
// (training.cpp says which rows and how).
inline constexpr double kTrainingErrorBandPct = 7.1;

struct TrainingEstimate {
  std::int64_t trainable_params = 0;
  StateBytes state;        // per trainable parameter (weights: per parameter of the model)
  std::string convention;  // "mixed precision AdamW, 16 bytes/param: 2 weights + ..."
  int total_gpus = 1;
  int data_parallel = 1;
  TrainingBreakdown per_gpu;
  Bytes host_bytes = 0;     // host RAM per node for offloaded states
  std::vector<Term> terms;  // the arithmetic, for --explain
  std::string headline;     // "7 B x 16 bytes = 112 GB before activations"
  Bytes usable = 0;         // per GPU
  Bytes capacity = 0;       // per GPU
  std::vector<std::string> usable_reasons;
  Bytes required = 0;  // == per_gpu.total()
  Bytes headroom = 0;
  // +/- on the total: the measured error of this estimate (training.cpp,
  // kTrainingErrorBandPct), and the same in bytes of `required`.
  double error_band_pct = 0;
  Bytes band = 0;
  // The headroom lies within the band either way: the verdict could go the
  // other way on a real machine (as Estimate::tight for inference).
  bool tight = false;
  bool device_known = false;
  Verdict verdict = Verdict::NoFit;
  std::vector<std::string> warnings;
  std::vector<std::string> assumptions;
  std::vector<TrainingSuggestion> suggestions;
  [[nodiscard]] bool fits() const { return verdict == Verdict::Fits; }
};

// Checks the query's combinations (parallel degrees dividing the GPUs,
// offload needing a ZeRO stage...). The estimate assumes a valid query.
Expected<TrainingQuery> validate(TrainingQuery query);

// The estimate without suggestions.
TrainingEstimate estimate_training(const TrainingQuery& query);

// A usable-memory reason as a line of the Assumptions, as the text and the
// JSON of every answer (inference and training) print it: "usable memory:
// <reason>".
std::string usable_memory_assumption(const std::string& reason);

// What the training answer assumed, as the text and the JSON both print it:
// the estimate's assumptions, then why usable memory is what it is
// (usable_memory_assumption, one line per reason).
std::vector<std::string> training_assumptions(const TrainingEstimate& estimate);
// The estimate, and when it does not fit, the ranked changes that help.
TrainingEstimate make_training_report(const TrainingQuery& query);

// ---- The terms, exposed for tests -----------------------------------------

// Bytes per parameter of each state for a precision, optimizer and options.
StateBytes state_bytes(const TrainingQuery& query);

// Optimizer-state bytes per parameter excluding the master copy (AdamW 8,
// 8-bit AdamW 2.03125, SGD 0, SGD with momentum 4, Lion 4, Adafactor: see
// adafactor_state_bytes).
double optimizer_bytes_per_param(Optimizer optimizer);

// One linear layer of a decoder block, as PEFT names it.
struct LinearModule {
  std::string name;  // "q_proj", "gate_proj", ...
  std::int64_t in = 0;
  std::int64_t out = 0;
  std::int64_t count = 1;  // per layer (experts)
};
std::vector<LinearModule> linear_modules(const Architecture& arch);

// Trainable LoRA parameters: r x (in + out) for every targeted module of every layer.
std::int64_t lora_params(const Architecture& arch, int rank,
                         const std::vector<std::string>& targets);

// Adafactor's factored second moment: 4 bytes x (rows + cols) per matrix,
// 4 bytes per element for the rest.
Bytes adafactor_state_bytes(const Architecture& arch);

// Parameters torch.amp autocast casts to 16 bits in a forward pass: the
// weights of every linear layer (attention, MLP and experts, the output head,
// tied or not, and the vision tower), not the embeddings or the norms.
std::int64_t autocast_cast_params(const Architecture& arch);

// Bytes of a QLoRA base: NF4 with double quantisation on the linear layers
// (4 + 8/64 + 32/(64 x 256) bits), embeddings and output head at 16 bits.
Bytes qlora_base_bytes(const Model& model);
inline constexpr double kNf4DoubleQuantBits = 4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0);

// The shape of one transformer layer as the activation formula sees it.
struct LayerShape {
  std::int64_t hidden = 0;
  std::int64_t heads = 0;
  std::int64_t kv_heads = 0;  // 0: as many as heads (eager attention repeats K and V to heads)
  std::int64_t q_width = 0;   // heads x head_dim
  std::int64_t k_width = 0;   // kv_heads x head_dim (GQA)
  std::int64_t v_width = 0;
  std::int64_t ffn = 0;  // intermediate width (routed experts per token x expert width)
  bool gated = true;     // SwiGLU: gate, up, their product
  bool dropout = false;  // dropout masks (1 byte per element), as in Korthikanti
  double bytes = 2;      // bytes per activation value (autocast: its 16-bit dtype)
  // Linear layers reading each norm's output: under autocast each casts its
  // own 16-bit copy of that fp32 tensor (q, k, v; gate and up).
  int attention_inputs = 3;
  int mlp_inputs = 2;
};
LayerShape layer_shape(const Architecture& arch, double bytes_per_value);

struct ActivationOptions {
  std::int64_t seq = 2048;
  std::int64_t micro_batch = 1;
  int tp = 1;
  bool sequence_parallel = false;
  Checkpointing checkpointing = Checkpointing::None;
  bool flash_attention = true;
  // PyTorch before 1.11 saved softmax's input as well as its output for the
  // backward pass (one more s^2 tensor per layer without flash attention).
  bool softmax_keeps_input = false;
  // Without flash attention: the softmax output is fp32 (transformers'
  // eager_attention_forward, and autocast's fp32 policy for softmax); false:
  // in the activations' dtype (Megatron's fused scale-mask-softmax, which
  // Korthikanti et al. count).
  bool softmax_fp32 = true;
  // torch.amp autocast: the residual stream and norm inputs in fp32, matmul
  // inputs in `LayerShape::bytes`, one cast copy per linear layer.
  bool autocast = false;
};

// Activation bytes one layer keeps for the backward pass (Korthikanti et al.
// 2022, generalised; see training.cpp). Full recomputation keeps the layer input.
Bytes layer_activation_bytes(const LayerShape& shape, const ActivationOptions& options);

}  // namespace willfit
