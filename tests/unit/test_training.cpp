// The training estimate, term by term: conventions, optimizers, LoRA counts,
// activations, sharding, offload, verdicts and suggestions.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "willfit/training/training.hpp"

namespace willfit {
namespace {

Architecture llama2_7b() {
  Architecture a;
  a.layers = 32;
  a.hidden_size = 4096;
  a.intermediate_size = 11008;
  a.heads = 32;
  a.kv_heads = 32;
  a.head_dim = 128;
  a.vocab_size = 32000;
  return a;
}

Architecture llama3_8b() {
  Architecture a = llama2_7b();
  a.intermediate_size = 14336;
  a.kv_heads = 8;
  a.vocab_size = 128256;
  a.max_context = 8192;
  return a;
}

TrainingQuery query(double params, const Architecture& a) {
  TrainingQuery q;
  q.model.name = "test";
  q.model.params = static_cast<std::int64_t>(params);
  q.model.active_params = q.model.params;
  q.model.arch = a;
  q.model.source = FactSource::Catalogue;
  return q;
}

TrainingQuery on_device(TrainingQuery q, const char* capacity) {
  q.devices.devices.push_back(*raw_device(capacity));
  q.devices.text = capacity;
  return q;
}

// ---- Conventions -------------------------------------------------------------

TEST(TrainingStates, DefaultIsTheSixteenByteZeroConvention) {
  const StateBytes s = state_bytes(query(7e9, llama2_7b()));
  EXPECT_EQ(s.weights, 2);
  EXPECT_EQ(s.gradients, 2);
  EXPECT_EQ(s.master, 4);
  EXPECT_EQ(s.optimizer, 8);
  EXPECT_EQ(s.total(), 16);
}

TEST(TrainingStates, GradDtypeAndMasterWeightsChangeTheConvention) {
  TrainingQuery q = query(7e9, llama2_7b());
  q.grad_dtype = GradDtype::Fp32;
  EXPECT_EQ(state_bytes(q).total(), 18);
  q.grad_dtype = GradDtype::HalfPlusFp32;
  EXPECT_EQ(state_bytes(q).total(), 20);
  q.grad_dtype.reset();
  q.master_weights = false;
  EXPECT_EQ(state_bytes(q).total(), 12);
}

TEST(TrainingStates, Fp32HasNoMasterCopyAndFp8KeepsOneByteWeights) {
  TrainingQuery q = query(7e9, llama2_7b());
  q.precision = TrainPrecision::Fp32;
  q.master_weights = true;  // meaningless for fp32: still none
  EXPECT_EQ(state_bytes(q).master, 0);
  EXPECT_EQ(state_bytes(q).total(), 16);
  q.precision = TrainPrecision::Fp8;
  q.master_weights.reset();
  EXPECT_EQ(state_bytes(q).weights, 1);
  EXPECT_EQ(state_bytes(q).total(), 15);
}

// torch.amp autocast: the fp32 parameters are the master copy, their
// gradients fp32; each linear weight's 16-bit copy is a term of its own.
TEST(TrainingStates, AutocastKeepsFp32ParametersAndCopiesTheLinearWeights) {
  TrainingQuery q = query(8030261248.0, llama3_8b());
  q.autocast = true;
  const StateBytes s = state_bytes(q);
  EXPECT_EQ(s.weights, 4);
  EXPECT_EQ(s.gradients, 4);
  EXPECT_EQ(s.master, 0);
  EXPECT_EQ(s.optimizer, 8);
  const TrainingEstimate e = estimate_training(q);
  // Attention 4096 x (4096 + 1024 + 1024 + 4096), SwiGLU 3 x 4096 x 14336,
  // 32 layers, and the output head; not the embedding.
  const std::int64_t linear =
      32 * (4096LL * (4096 + 1024 + 1024 + 4096) + 3LL * 4096 * 14336) + 128256LL * 4096;
  EXPECT_EQ(autocast_cast_params(q.model.arch), linear);
  EXPECT_EQ(e.per_gpu.weight_copies, 2 * linear);
  EXPECT_EQ(e.per_gpu.master_weights, 0);
  // The same for fp16 and bf16 (one code path), and nothing without autocast.
  q.precision = TrainPrecision::Fp16;
  EXPECT_EQ(estimate_training(q).required, e.required);
  q.autocast = false;
  EXPECT_EQ(estimate_training(q).per_gpu.weight_copies, 0);
}

// With LoRA the frozen base stays 16-bit; PEFT's fp32 adapters get fp32
// gradients and a 16-bit copy each.
TEST(TrainingStates, AutocastWithLoraCopiesTheAdaptersOnly) {
  TrainingQuery q = query(6738415616.0, llama2_7b());
  q.method = TrainMethod::Lora;
  const TrainingEstimate plain = estimate_training(q);
  q.autocast = true;
  const TrainingEstimate amp = estimate_training(q);
  const std::int64_t adapters = 4194304;  // r 8 on q_proj and v_proj
  EXPECT_EQ(amp.per_gpu.weight_copies, 2 * adapters);
  EXPECT_EQ(amp.per_gpu.weights, plain.per_gpu.weights + 2 * adapters);
  EXPECT_EQ(amp.per_gpu.activations, plain.per_gpu.activations);
}

TEST(TrainingStates, AutocastNeedsA16BitPrecisionAndItsOwnStates) {
  TrainingQuery q = query(7e9, llama2_7b());
  q.autocast = true;
  EXPECT_TRUE(validate(q).ok());
  q.precision = TrainPrecision::Fp32;
  EXPECT_FALSE(validate(q).ok());
  q.precision = TrainPrecision::Fp16;
  q.master_weights = true;
  EXPECT_FALSE(validate(q).ok());
  q.master_weights.reset();
  q.grad_dtype = GradDtype::Fp32;
  EXPECT_FALSE(validate(q).ok());
}

TEST(TrainingStates, OptimizerStateBytes) {
  EXPECT_EQ(optimizer_bytes_per_param(Optimizer::AdamW), 8.0);
  EXPECT_DOUBLE_EQ(optimizer_bytes_per_param(Optimizer::AdamW8bit), 2.03125);
  EXPECT_EQ(optimizer_bytes_per_param(Optimizer::Sgd), 0.0);
  EXPECT_EQ(optimizer_bytes_per_param(Optimizer::SgdMomentum), 4.0);
  EXPECT_EQ(optimizer_bytes_per_param(Optimizer::Lion), 4.0);
}

TEST(TrainingStates, AdafactorFactorsEveryMatrixIntoRowsPlusColumns) {
  Architecture a;
  a.layers = 1;
  a.hidden_size = 8;
  a.intermediate_size = 16;
  a.heads = 2;
  a.kv_heads = 1;
  a.head_dim = 4;
  a.vocab_size = 10;
  a.tied_embeddings = true;
  // q 8x8, k 8x4, v 8x4, o 8x8, gate 8x16, up 8x16, down 16x8, embedding 10x8.
  const Bytes expected =
      4 * ((8 + 8) + (8 + 4) + (8 + 4) + (8 + 8) + (8 + 16) + (8 + 16) + (16 + 8) + (10 + 8));
  EXPECT_EQ(adafactor_state_bytes(a), expected);
  TrainingQuery q = query(7e9, llama2_7b());
  q.optimizer = Optimizer::Adafactor;
  EXPECT_GT(state_bytes(q).optimizer, 0.0);
  EXPECT_LT(state_bytes(q).optimizer, 0.01);  // factored: far below AdamW's 8
}

// ---- LoRA ----------------------------------------------------------------------

TEST(TrainingLora, PeftCountsUseRealShapes) {
  EXPECT_EQ(lora_params(llama2_7b(), 8, {"q_proj", "v_proj"}), 4194304);
  // GQA: v_proj is 4096 -> 1024 on Llama-3-8B.
  EXPECT_EQ(lora_params(llama3_8b(), 8, {"q_proj", "v_proj"}), 3407872);
  EXPECT_EQ(lora_params(llama3_8b(), 8, {"k_proj"}), 32 * 8 * (4096 + 1024));
  EXPECT_EQ(lora_params(llama2_7b(), 16, {"all-linear"}),
            2 * lora_params(
                    llama2_7b(), 8,
                    {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"}));
}

TEST(TrainingLora, OnlyAdaptersGetGradientsAndOptimizerStates) {
  TrainingQuery q = query(6738415616.0, llama2_7b());
  q.method = TrainMethod::Lora;
  const TrainingEstimate e = estimate_training(q);
  EXPECT_EQ(e.trainable_params, 4194304);
  EXPECT_EQ(e.per_gpu.optimizer, 8 * 4194304);
  EXPECT_EQ(e.per_gpu.gradients, 2 * 4194304);
  EXPECT_EQ(e.per_gpu.weights, 2 * 6738415616 + 2 * 4194304);
  // Activations still flow through the frozen base.
  TrainingQuery full = q;
  full.method = TrainMethod::Full;
  EXPECT_GE(e.per_gpu.activations, estimate_training(full).per_gpu.activations);
}

TEST(TrainingLora, QloraBaseIsNf4WithDoubleQuantOnLinearLayersOnly) {
  TrainingQuery q = query(6738415616.0, llama2_7b());
  const ParamBreakdown p = count_params(q.model.arch);
  const double linear_share = static_cast<double>(p.linear()) / static_cast<double>(p.total());
  const double expected = 6738415616.0 * linear_share * kNf4DoubleQuantBits / 8.0 +
                          6738415616.0 * (1.0 - linear_share) * 2.0;
  EXPECT_NEAR(static_cast<double>(qlora_base_bytes(q.model)), expected, 2.0);
  EXPECT_NEAR(kNf4DoubleQuantBits, 4.127, 0.0005);
  q.model.file_weight_bytes = 1;  // a file's bytes are not the NF4 base
  EXPECT_GT(qlora_base_bytes(q.model), 3'000'000'000);
}

TEST(TrainingLora, TargetsAreCheckedAgainstTheModel) {
  EXPECT_FALSE(parse_lora_targets("q_proj,vproj").ok());
  EXPECT_NE(parse_lora_targets("q_proj,vproj").error().message.find("v_proj"), std::string::npos);
  EXPECT_FALSE(parse_lora_targets("q_proj,,v_proj").ok());
  EXPECT_EQ(parse_lora_targets(" q_proj , v_proj,q_proj")->size(), 2u);
  TrainingQuery q = query(1e9, llama2_7b());
  q.model.arch.mlp_gated = false;
  q.method = TrainMethod::Lora;
  q.lora_targets = {"gate_proj"};
  EXPECT_FALSE(validate(q).ok());
}

// ---- Activations ---------------------------------------------------------------

TEST(TrainingActivations, FlashAttentionRemovesTheQuadraticTerm) {
  const LayerShape s = layer_shape(llama3_8b(), 2);
  ActivationOptions o;
  o.seq = 2048;
  const Bytes short_seq = layer_activation_bytes(s, o);
  o.seq = 4096;
  EXPECT_EQ(layer_activation_bytes(s, o), 2 * short_seq);
  o.flash_attention = false;
  EXPECT_GT(layer_activation_bytes(s, o), 2 * layer_activation_bytes(s, [&] {
                                            ActivationOptions h = o;
                                            h.seq = 2048;
                                            return h;
                                          }()));
}

TEST(TrainingActivations, TheEstimateHonoursFlashAttentionAndDropout) {
  TrainingQuery q = query(8e9, llama3_8b());
  const Bytes flash = estimate_training(q).per_gpu.activations;
  q.flash_attention = false;
  const Bytes eager = estimate_training(q).per_gpu.activations;
  EXPECT_GT(eager, flash);
  q.dropout = true;
  EXPECT_GT(estimate_training(q).per_gpu.activations, eager);
}

TEST(TrainingActivations, GqaAndSwigluUseTheRealWidths) {
  const LayerShape s = layer_shape(llama3_8b(), 2);
  EXPECT_EQ(s.q_width, 4096);
  EXPECT_EQ(s.k_width, 1024);
  EXPECT_EQ(s.ffn, 14336);
  ActivationOptions o;
  o.seq = 1;
  // Per token: norms and matmul inputs 4 x 2 h, Q K V O 2 (q + k + v + q),
  // SwiGLU 4 x 2 ffn, flash log-sum-exp 4 bytes per head, two norms' F32
  // statistics 16 bytes.
  const Bytes expected = 8 * 4096 + 2 * (4096 + 1024 + 1024 + 4096) + 8 * 14336 + 4 * 32 + 16;
  EXPECT_EQ(layer_activation_bytes(s, o), expected);
}

// transformers' eager_attention_forward on a GQA decoder in bf16: repeat_kv
// expands K and V to the 32 heads before the matmuls save them; the softmax
// runs in fp32 and its bf16 copy is what the second matmul saves.
TEST(TrainingActivations, EagerAttentionKeepsTheFp32SoftmaxAndRepeatedKv) {
  LayerShape s = layer_shape(llama3_8b(), 2);
  ActivationOptions o;
  o.seq = 1;
  o.flash_attention = false;
  // Per token: norms and matmul inputs 4 x 2 h, Q, K and V at 32 heads and
  // the output projection's input 2 x 4 q, SwiGLU 4 x 2 ffn, per head and key
  // the fp32 softmax and its bf16 copy (4 + 2), two norms' statistics.
  const Bytes eager = 8 * 4096 + 2 * 4 * 4096 + 8 * 14336 + 32 * 6 + 16;
  EXPECT_EQ(layer_activation_bytes(s, o), eager);
  // Attention dropout: its mask and bf16 output in place of the copy (4 + 1
  // + 2), beside the two hidden-state masks.
  s.dropout = true;
  EXPECT_EQ(layer_activation_bytes(s, o), eager + 32 * 1 + 2 * 4096);
  // Megatron's fused softmax keeps bf16 probabilities (Korthikanti's count).
  s.dropout = false;
  o.softmax_fp32 = false;
  EXPECT_EQ(layer_activation_bytes(s, o), eager - 32 * 4);
}

// Under autocast the residual stream and the norm inputs are fp32, and q, k,
// v (gate, up) each save their own bf16 cast of the normed fp32 states.
TEST(TrainingActivations, AutocastKeepsFp32NormInputsAndOneCastPerProjection) {
  const LayerShape s = layer_shape(llama3_8b(), 2);
  ActivationOptions o;
  o.seq = 1;
  o.autocast = true;
  const Bytes expected =
      (2 * 4 + 3 * 2 + 2 * 2) * 4096 + 2 * (4096 + 1024 + 1024 + 4096) + 8 * 14336 + 4 * 32 + 16;
  EXPECT_EQ(layer_activation_bytes(s, o), expected);
  o.checkpointing = Checkpointing::Full;
  EXPECT_EQ(layer_activation_bytes(s, o), 4 * 4096);
}

// transformers trains Gemma 2 and 3 with sdpa unless told otherwise, and
// warns that eager is recommended: the answer says which it counted.
TEST(TrainingActivations, GemmaAnswersSayEagerIsWhatTransformersRecommends) {
  TrainingQuery q = query(9e9, llama3_8b());
  q.model.family = "gemma-2";
  const auto mentions_eager = [](const TrainingEstimate& e) {
    return std::any_of(e.assumptions.begin(), e.assumptions.end(), [](const std::string& a) {
      return a.find("Gemma 2 and 3") != std::string::npos;
    });
  };
  EXPECT_TRUE(mentions_eager(estimate_training(q)));
  q.flash_attention = false;
  EXPECT_FALSE(mentions_eager(estimate_training(q)));
  q.flash_attention = true;
  q.model.family = "llama-3";
  EXPECT_FALSE(mentions_eager(estimate_training(q)));
}

TEST(TrainingActivations, RecomputationAndSequenceParallel) {
  const LayerShape s = layer_shape(llama3_8b(), 2);
  ActivationOptions o;
  o.seq = 4096;
  o.micro_batch = 2;
  o.checkpointing = Checkpointing::Full;
  EXPECT_EQ(layer_activation_bytes(s, o), 2 * 4096 * 2 * 4096);
  o.checkpointing = Checkpointing::None;
  o.tp = 4;
  const Bytes tp = layer_activation_bytes(s, o);
  o.sequence_parallel = true;
  const Bytes sp = layer_activation_bytes(s, o);
  o.tp = 1;
  o.sequence_parallel = false;
  EXPECT_LT(sp, tp);
  EXPECT_NEAR(static_cast<double>(sp), static_cast<double>(layer_activation_bytes(s, o)) / 4, 1);
}

TEST(TrainingActivations, PipelineFirstStageHoldsAboutAllLayers) {
  TrainingQuery q = query(8e9, llama3_8b());
  q.gpus = 4;
  const Bytes one = estimate_training(q).per_gpu.activations;
  q.pp = 4;
  const Bytes four = estimate_training(q).per_gpu.activations;
  // Same layer activations (8 layers x 4 micro-batches); the logits live on the last stage.
  EXPECT_LT(four, one);
  EXPECT_GT(four, one / 2);
}

// ---- Sharding -------------------------------------------------------------------

TEST(TrainingSharding, ZeroStagesDivideTheRightStates) {
  TrainingQuery q = query(8e9, llama3_8b());
  q.gpus = 8;
  const auto at = [&](int stage) {
    TrainingQuery z = q;
    z.zero = stage;
    return estimate_training(z).per_gpu;
  };
  const auto z0 = at(0);
  const auto z1 = at(1);
  const auto z2 = at(2);
  const auto z3 = at(3);
  EXPECT_EQ(z1.optimizer * 8, z0.optimizer);
  EXPECT_EQ(z1.master_weights * 8, z0.master_weights);
  EXPECT_EQ(z1.gradients, z0.gradients);
  EXPECT_EQ(z2.gradients * 8, z0.gradients);
  EXPECT_EQ(z2.weights, z0.weights);
  EXPECT_EQ(z3.weights * 8, z0.weights);
  EXPECT_GT(z3.buffers, 0);  // the gathered layer
  TrainingQuery f = q;
  f.fsdp = true;
  EXPECT_EQ(estimate_training(f).per_gpu.total(), z3.total());
}

TEST(TrainingSharding, TensorAndPipelineParallelDivideTheModel) {
  TrainingQuery q = query(70e9, llama3_8b());
  q.gpus = 8;
  q.tp = 4;
  q.pp = 2;
  const TrainingEstimate e = estimate_training(q);
  EXPECT_EQ(e.data_parallel, 1);
  EXPECT_EQ(e.per_gpu.weights, 70'000'000'000LL * 2 / 8);
}

TEST(TrainingSharding, TensorParallelMustDivideTheHeads) {
  TrainingQuery q = query(8e9, llama3_8b());
  q.gpus = 3;
  q.tp = 3;
  EXPECT_FALSE(estimate_training(q).warnings.empty());
  q.gpus = 4;
  q.tp = 4;
  EXPECT_TRUE(estimate_training(q).warnings.empty());
}

TEST(TrainingSharding, MultiNode405bIsComputedTheSameWay) {
  TrainingQuery q = query(405e9, llama3_8b());
  q.gpus = 8;
  q.nodes = 16;
  q.fsdp = true;
  const TrainingEstimate e = estimate_training(q);
  EXPECT_EQ(e.total_gpus, 128);
  EXPECT_EQ(e.data_parallel, 128);
  EXPECT_NEAR(static_cast<double>(e.per_gpu.weights + e.per_gpu.gradients +
                                  e.per_gpu.master_weights + e.per_gpu.optimizer),
              405e9 * 16 / 128, 8);
}

TEST(TrainingSharding, OffloadMovesStatesToHostRam) {
  TrainingQuery q = on_device(query(8e9, llama3_8b()), "24gb");
  q.gpus = 2;
  q.zero = 3;
  q.offload_optimizer = true;
  q.offload_params = true;
  const TrainingEstimate e = estimate_training(q);
  EXPECT_EQ(
      e.per_gpu.optimizer + e.per_gpu.master_weights + e.per_gpu.gradients + e.per_gpu.weights, 0);
  // 18 bytes per parameter across the node, times DeepSpeed's 1.5.
  EXPECT_NEAR(static_cast<double>(e.host_bytes), 8e9 * 18 * 1.5, 16);
  EXPECT_EQ(e.verdict, Verdict::Offload);
  q.ram = 64 * kGiB;
  const TrainingEstimate short_ram = estimate_training(q);
  EXPECT_EQ(short_ram.verdict, Verdict::NoFit);
  EXPECT_FALSE(short_ram.warnings.empty());
}

TEST(TrainingSharding, InvalidCombinationsAreErrors) {
  TrainingQuery q = query(8e9, llama3_8b());
  q.gpus = 3;
  q.tp = 2;
  EXPECT_FALSE(validate(q).ok());
  q = query(8e9, llama3_8b());
  q.offload_optimizer = true;
  EXPECT_FALSE(validate(q).ok());
  q.zero = 2;
  EXPECT_TRUE(validate(q).ok());
  q.offload_params = true;
  EXPECT_FALSE(validate(q).ok());
  q = query(8e9, llama3_8b());
  q.fsdp = true;
  q.zero = 1;
  EXPECT_FALSE(validate(q).ok());
  q = query(8e9, llama3_8b());
  q.sequence_parallel = true;
  EXPECT_FALSE(validate(q).ok());
  q = query(8e9, llama3_8b());
  q.pp = 33;
  q.gpus = 33;
  EXPECT_FALSE(validate(q).ok());
}

// ---- Verdict and suggestions -----------------------------------------------------

TEST(TrainingVerdict, NoDeviceMeansNoVerdict) {
  const TrainingEstimate e = estimate_training(query(8e9, llama3_8b()));
  EXPECT_FALSE(e.device_known);
  EXPECT_GT(e.required, 0);
  EXPECT_EQ(e.required, e.per_gpu.total());
}

TEST(TrainingVerdict, FullFineTuneOf8bDoesNotFitOneBigGpu) {
  const TrainingEstimate e = estimate_training(on_device(query(8e9, llama3_8b()), "80gb"));
  EXPECT_EQ(e.verdict, Verdict::NoFit);
  EXPECT_LT(e.headroom, 0);
}

TEST(TrainingSuggestions, EachIsReEstimatedAndFittingOnesComeFirst) {
  TrainingQuery q = on_device(query(8e9, llama3_8b()), "80gb");
  q.micro_batch = 8;
  const TrainingEstimate e = make_training_report(q);
  ASSERT_FALSE(e.suggestions.empty());
  bool seen_short = false;
  for (const auto& s : e.suggestions) {
    EXPECT_LT(s.total_bytes, e.required) << s.change;
    EXPECT_FALSE(s.args.empty());
    if (s.verdict == Verdict::NoFit) {
      seen_short = true;
    } else {
      EXPECT_FALSE(seen_short) << "a fitting suggestion after one that does not fit: " << s.change;
    }
  }
  // The LoRA suggestion's total is what the estimator says for that query;
  // it is listed when it fits, or when nothing does (a change that leaves it
  // short is not offered beside one that fits).
  TrainingQuery lora = q;
  lora.method = TrainMethod::Lora;
  const TrainingEstimate lora_alone = estimate_training(lora);
  bool found = false;
  for (const auto& s : e.suggestions) {
    if (s.args == std::vector<std::string>{"--method", "lora"}) {
      EXPECT_EQ(s.total_bytes, lora_alone.required);
      found = true;
    }
  }
  const bool any_fits = std::any_of(e.suggestions.begin(), e.suggestions.end(),
                                    [](const auto& s) { return s.verdict != Verdict::NoFit; });
  EXPECT_EQ(found, lora_alone.fits() || !any_fits);
  EXPECT_TRUE(!any_fits || !seen_short);
}

TEST(TrainingSuggestions, MoreGpusIsTheSmallestCountThatFits) {
  TrainingQuery q = on_device(query(8e9, llama3_8b()), "80gb");
  q.checkpointing = Checkpointing::Full;
  const TrainingEstimate e = make_training_report(q);
  const TrainingSuggestion* more = nullptr;
  for (const auto& s : e.suggestions) {
    if (!s.args.empty() && s.args.front() == "--gpus") {
      more = &s;
    }
  }
  ASSERT_NE(more, nullptr);
  const int gpus = std::stoi(more->args[1]);
  TrainingQuery fewer = q;
  fewer.zero = 3;
  fewer.gpus = gpus - 1;
  EXPECT_FALSE(estimate_training(fewer).fits());
  fewer.gpus = gpus;
  EXPECT_TRUE(estimate_training(fewer).fits());
}

const TrainingSuggestion* find_suggestion(const TrainingEstimate& e, const std::string& arg) {
  for (const auto& s : e.suggestions) {
    if (s.args.size() == 2 && s.args.front() == arg) {
      return &s;
    }
  }
  return nullptr;
}

TEST(TrainingSuggestions, SmallerMicroBatchAndZeroStage) {
  TrainingQuery q = on_device(query(8e9, llama3_8b()), "80gb");
  q.gpus = 8;
  q.micro_batch = 16;
  q.seq_len = 4096;
  q.checkpointing = Checkpointing::Full;
  // Only changes that fit are listed when one does: a micro-batch change
  // missing from the list is one that leaves it short even at 1.
  const TrainingEstimate e = make_training_report(q);
  const TrainingSuggestion* mb = find_suggestion(e, "--micro-batch");
  if (mb == nullptr) {
    TrainingQuery one = q;
    one.micro_batch = 1;
    EXPECT_FALSE(estimate_training(one).fits());
    EXPECT_TRUE(std::any_of(e.suggestions.begin(), e.suggestions.end(),
                            [](const auto& s) { return s.verdict != Verdict::NoFit; }));
    return;
  }
  TrainingQuery smaller = q;
  smaller.micro_batch = std::stoi(mb->args[1]);
  EXPECT_LT(smaller.micro_batch, 16);
  EXPECT_EQ(estimate_training(smaller).required, mb->total_bytes);
  const TrainingSuggestion* zero = find_suggestion(e, "--zero");
  ASSERT_NE(zero, nullptr);
  TrainingQuery sharded = q;
  sharded.zero = std::stoi(zero->args[1]);
  EXPECT_EQ(estimate_training(sharded).required, zero->total_bytes);
  EXPECT_EQ(zero->verdict, estimate_training(sharded).verdict);
}

TEST(TrainingSuggestions, ChangesAreCombinedWhenNoSingleOneFits) {
  TrainingQuery q = on_device(query(8e9, llama3_8b()), "80gb");
  q.gpus = 8;
  q.micro_batch = 16;
  q.seq_len = 4096;
  q.checkpointing = Checkpointing::Full;
  const TrainingEstimate e = make_training_report(q);
  ASSERT_FALSE(e.suggestions.empty());
  const TrainingSuggestion& first = e.suggestions.front();
  EXPECT_EQ(first.verdict, Verdict::Fits);
  EXPECT_EQ(first.args, (std::vector<std::string>{"--micro-batch", "1", "--zero", "3"}));
  TrainingQuery both = q;
  both.micro_batch = 1;
  both.zero = 3;
  EXPECT_EQ(estimate_training(both).required, first.total_bytes);
  for (std::size_t i = 1; i < e.suggestions.size(); ++i) {
    EXPECT_EQ(e.suggestions[i].verdict, Verdict::NoFit) << e.suggestions[i].change;
  }
}

TEST(TrainingSuggestions, NoneWhenItFits) {
  TrainingQuery q = on_device(query(8e9, llama3_8b()), "24gb");
  q.method = TrainMethod::Qlora;
  q.checkpointing = Checkpointing::Full;
  const TrainingEstimate e = make_training_report(q);
  EXPECT_TRUE(e.fits());
  EXPECT_TRUE(e.suggestions.empty());
}

TEST(TrainingParse, NamesAndSuggestions) {
  EXPECT_EQ(*parse_optimizer("AdamW-8bit"), Optimizer::AdamW8bit);
  EXPECT_FALSE(parse_optimizer("adam").ok());
  EXPECT_NE(parse_optimizer("adamm").error().message.find("adamw"), std::string::npos);
  EXPECT_EQ(*parse_grad_dtype("fp16"), GradDtype::Half);
  EXPECT_EQ(*parse_grad_dtype("bf16+fp32"), GradDtype::HalfPlusFp32);
  EXPECT_FALSE(parse_master_weights("bf16").ok());
  EXPECT_EQ(*parse_train_method("QLoRA"), TrainMethod::Qlora);
  EXPECT_FALSE(parse_train_precision("q4").ok());
  EXPECT_EQ(*parse_checkpointing("selective"), Checkpointing::Selective);
}

}  // namespace
}  // namespace willfit
