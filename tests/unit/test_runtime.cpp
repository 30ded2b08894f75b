// Runtime profiles: each runtime's terms, offload plans, several GPUs,
// --context max and the llama.cpp quantisation recipe.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "unit/catalogue_model.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/weight_layout.hpp"
#include "willfit/planner/report.hpp"

namespace willfit {
namespace {

InferenceQuery query(const char* size, const char* precision, const char* device) {
  InferenceQuery q;
  q.model = *model_from_size(*parse_model_size(size));
  q.precision = *parse_precision(precision);
  if (device != nullptr) {
    q.devices.devices.push_back(*raw_device(device));
    q.devices.text = device;
  }
  return q;
}

// LLaMA-7B layout (open_llama_7b_v2 in the llama.cpp CI logs).
Model llama7b() {
  Model m;
  m.name = "llama-7b";
  m.source = FactSource::Catalogue;
  m.params = 6'740'000'000;
  m.active_params = m.params;
  m.arch.layers = 32;
  m.arch.hidden_size = 4096;
  m.arch.intermediate_size = 11008;
  m.arch.heads = 32;
  m.arch.kv_heads = 32;
  m.arch.head_dim = 128;
  m.arch.vocab_size = 32000;
  return m;
}

Bytes term(const Estimate& e, const std::string& key, Placement* where = nullptr) {
  for (const auto& t : e.terms) {
    if (t.key == key) {
      if (where != nullptr) {
        *where = t.placement;
      }
      return t.bytes;
    }
  }
  return -1;
}

TEST(Runtime, ParsesNamesAndSuggests) {
  EXPECT_EQ(*parse_runtime("llama.cpp"), Runtime::LlamaCpp);
  EXPECT_EQ(*parse_runtime("LlamaCpp"), Runtime::LlamaCpp);
  EXPECT_EQ(*parse_runtime("vLLM"), Runtime::Vllm);
  EXPECT_EQ(*parse_runtime("pytorch"), Runtime::Transformers);
  const auto bad = parse_runtime("olama");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("ollama"), std::string::npos);
}

TEST(Runtime, DefaultFollowsThePrecision) {
  EXPECT_EQ(default_runtime(*parse_precision("q4_k_m")), Runtime::LlamaCpp);
  EXPECT_EQ(default_runtime(*parse_precision("bf16")), Runtime::Transformers);
  EXPECT_EQ(estimate_inference(query("7b", "q4", "24gb")).runtime, Runtime::LlamaCpp);
  EXPECT_EQ(estimate_inference(query("7b", "gptq", "24gb")).runtime, Runtime::Transformers);
}

// On a Mac a 16- or 32-bit float model runs under llama.cpp (as a F16/BF16/F32
// GGUF, what Ollama and LM Studio run); formats llama.cpp cannot load (FP8,
// GPTQ) and every other device keep transformers; the answer says which.
TEST(Runtime, OnAMacAFloatModelDefaultsToLlamaCpp) {
  InferenceQuery mac = query("8b", "bf16", "36gb");
  mac.devices.devices.front().vendor = "apple";
  mac.devices.devices.front().kind = DeviceKind::Unified;
  for (const char* p : {"bf16", "fp16", "fp32"}) {
    EXPECT_EQ(default_runtime(*parse_precision(p), mac.devices), Runtime::LlamaCpp) << p;
    EXPECT_TRUE(apple_float_on_llama_cpp(*parse_precision(p), mac.devices)) << p;
  }
  EXPECT_EQ(estimate_inference(mac).runtime, Runtime::LlamaCpp);
  for (const char* p : {"fp8", "gptq"}) {
    EXPECT_EQ(default_runtime(*parse_precision(p), mac.devices), Runtime::Transformers) << p;
  }
  EXPECT_EQ(default_runtime(*parse_precision("q4_k_m"), mac.devices), Runtime::LlamaCpp);
  EXPECT_FALSE(apple_float_on_llama_cpp(*parse_precision("q4_k_m"), mac.devices));
  const InferenceQuery cuda = query("8b", "bf16", "36gb");
  EXPECT_EQ(estimate_inference(cuda).runtime, Runtime::Transformers);
  mac.runtime = Runtime::Mlx;  // --runtime keeps its word
  EXPECT_EQ(estimate_inference(mac).runtime, Runtime::Mlx);
  mac.runtime.reset();
  const FitReport r = make_fit_report(mac);
  EXPECT_TRUE(std::any_of(r.assumptions.begin(), r.assumptions.end(), [](const std::string& a) {
    return a.starts_with("runtime llama.cpp: on a Mac");
  }));
}

// On a Mac int4 and int8 are MLX's 4- and 8-bit (mlx_lm.convert -q: affine
// groups of 64 with a 16-bit scale and bias, 4.5 and 8.5 bits per weight), so
// they default to MLX there and the answer says why; elsewhere they keep
// transformers, and a checkpoint quantised for PyTorch (bitsandbytes int8 in
// its config.json) keeps transformers on a Mac too.
TEST(Runtime, OnAMacInt4AndInt8DefaultToMlx) {
  InferenceQuery mac = query("8b", "int4", "16gb");
  mac.devices.devices.front().vendor = "apple";
  mac.devices.devices.front().kind = DeviceKind::Unified;
  for (const char* p : {"int4", "int8"}) {
    EXPECT_EQ(default_runtime(*parse_precision(p), mac.devices), Runtime::Mlx) << p;
    EXPECT_EQ(default_runtime(*parse_precision(p), query("8b", p, "16gb").devices),
              Runtime::Transformers)
        << p;
  }
  const Estimate e = estimate_inference(mac);
  EXPECT_EQ(e.runtime, Runtime::Mlx);
  InferenceQuery named = mac;
  named.runtime = Runtime::Mlx;
  EXPECT_EQ(e.memory.weights, estimate_inference(named).memory.weights);
  // 4.5 bits: 4 + 2 x 16 / 64, against 4.0 bits under transformers.
  InferenceQuery torch = mac;
  torch.runtime = Runtime::Transformers;
  EXPECT_NEAR(static_cast<double>(e.memory.weights) /
                  static_cast<double>(estimate_inference(torch).memory.weights),
              4.5 / 4.0, 0.01);
  const FitReport r = make_fit_report(mac);
  EXPECT_TRUE(std::any_of(r.assumptions.begin(), r.assumptions.end(), [](const std::string& a) {
    return a.starts_with("runtime MLX: on a Mac int4 means MLX's 4-bit");
  }));
  Model bnb = mac.model;
  bnb.source = FactSource::Config;
  bnb.precision_hint = "int8";
  EXPECT_EQ(default_runtime(bnb, *parse_precision("int8"), mac.devices), Runtime::Transformers);
  EXPECT_EQ(default_runtime(bnb, *parse_precision("int4"), mac.devices), Runtime::Mlx);
}

// A GGUF under MLX is held as mlx.core.load lays it out (ml-explore/mlx
// mlx/io/gguf.cpp at 846d1762): the K-quants cast to F16, so Q4_K_M weighs
// what F16 does; Q4_0 and Q8_0 kept quantised with a 16-bit scale and bias
// per 32 weights (5 and 9 bits where the GGUF holds 4.5 and 8.5), the Q6_K
// output head of llama.cpp's recipe cast to F16 besides.
TEST(Runtime, MlxHoldsAGgufAsMlxCoreLoadDoes) {
  InferenceQuery q = query("8b", "q4_k_m", "64gb");
  q.devices.devices.front().vendor = "apple";
  q.devices.devices.front().kind = DeviceKind::Unified;
  q.runtime = Runtime::Mlx;
  const auto weights = [&](const char* precision, Runtime runtime) {
    InferenceQuery r = q;
    r.precision = *parse_precision(precision);
    r.runtime = runtime;
    return static_cast<double>(estimate_inference(r).memory.weights);
  };
  // An F16 GGUF MLX holds as it is (llama.cpp would keep its token
  // embeddings in system RAM, so its weights term is not the reference).
  const double f16 = weights("f16", Runtime::Mlx);
  EXPECT_NEAR(weights("q4_k_m", Runtime::Mlx) / f16, 1.0, 0.001);
  EXPECT_NEAR(weights("iq4_xs", Runtime::Mlx) / f16, 1.0, 0.001);
  EXPECT_GT(weights("q4_0", Runtime::Mlx) / weights("q4_0", Runtime::LlamaCpp), 5.0 / 4.5);
  EXPECT_LT(weights("q4_0", Runtime::Mlx), f16 * 0.4);
  EXPECT_GT(weights("q8_0", Runtime::Mlx) / weights("q8_0", Runtime::LlamaCpp), 9.0 / 8.5);
  const Estimate e = estimate_inference(q);
  EXPECT_TRUE(std::any_of(e.warnings.begin(), e.warnings.end(), [](const std::string& w) {
    return w.find("mlx.core.load reads the file as Q4_K_M cast to F16") != std::string::npos;
  }));
  const FitReport r = make_fit_report(q);
  EXPECT_TRUE(std::any_of(r.assumptions.begin(), r.assumptions.end(), [](const std::string& a) {
    return a.starts_with("Q4_K_M under MLX: mlx.core.load keeps only Q4_0, Q4_1 and Q8_0");
  }));
}

// Where vLLM lays an architecture's caches out its own way and the
// estimate does not model it, the answer says its KV term is llama.cpp's
// layout (Estimate::kv_layout_not_modelled). DeepSeek-V4, Qwen4Exp and
// dots.llm3 are modelled now; other models under vLLM, and these under
// llama.cpp, carry no such line.
TEST(Runtime, VllmSaysWhereItsCacheLayoutIsNotModelled) {
  const auto says = [](const char* id, Runtime rt) {
    InferenceQuery q = query("8b", "bf16", "80gb");
    q.model = test::catalogue_model(id);
    q.runtime = rt;
    q.context = 8192;
    const FitReport r = make_fit_report(q);
    return std::any_of(r.assumptions.begin(), r.assumptions.end(), [](const std::string& a) {
      return a.starts_with("KV cache: llama.cpp's layout of ");
    });
  };
  // Qwen4Exp's QSA caches and dots.llm3's padded MLA rows are sized as vLLM
  // lays them out (VllmQwen4Exp.FlashNextRequestFollowsQsaCaches,
  // VllmDots3Note.RequestFollowsPaddedRows): no line.
  for (const char* id : {"qwen3.8-flash-next", "dots3-note-prev"}) {
    EXPECT_FALSE(says(id, Runtime::Vllm)) << id;
    EXPECT_FALSE(says(id, Runtime::LlamaCpp)) << id;
  }
  EXPECT_FALSE(says("llama-3.1-8b", Runtime::Vllm));
  EXPECT_FALSE(says("nemotron-nano-9b-v2", Runtime::Vllm));
  // The name comes from the estimate, set where vLLM's KV term is computed
  // (vllm_request_kv); the report only words it.
  const auto named = [](const char* id, Runtime rt) {
    InferenceQuery q = query("8b", "bf16", "80gb");
    q.model = test::catalogue_model(id);
    q.runtime = rt;
    q.context = 8192;
    return estimate_inference(q).kv_layout_not_modelled;
  };
  // DeepSeek-V4's vLLM layout is modelled (estimate.cpp
  // vllm_deepseek_v4_request_bytes): no line.
  EXPECT_FALSE(says("deepseek-v4-flash", Runtime::Vllm));
  EXPECT_EQ(named("deepseek-v4-flash", Runtime::Vllm), "");
  EXPECT_EQ(named("qwen3.8-flash-next", Runtime::Vllm), "");
  EXPECT_EQ(named("dots3-note-prev", Runtime::Vllm), "");
  EXPECT_EQ(named("dots3-note-prev", Runtime::LlamaCpp), "");
  EXPECT_EQ(named("llama-3.1-8b", Runtime::Vllm), "");
}

// On a machine without a GPU a float model runs under llama.cpp as well (a
// BF16/F16/F32 GGUF, what Ollama and LM Studio run on a CPU); FP8 and GPTQ,
// which llama.cpp cannot load, keep transformers; a GPU beside the CPU keeps
// the rule of the GPU; --runtime keeps its word; the answer says which.
TEST(Runtime, OnACpuAFloatModelDefaultsToLlamaCpp) {
  InferenceQuery cpu = query("8b", "bf16", "36gb");
  cpu.devices.devices.front().kind = DeviceKind::Cpu;
  for (const char* p : {"bf16", "fp16", "fp32"}) {
    EXPECT_EQ(default_runtime(*parse_precision(p), cpu.devices), Runtime::LlamaCpp) << p;
    EXPECT_TRUE(cpu_float_on_llama_cpp(*parse_precision(p), cpu.devices)) << p;
    EXPECT_FALSE(apple_float_on_llama_cpp(*parse_precision(p), cpu.devices)) << p;
  }
  for (const char* p : {"fp8", "gptq"}) {
    EXPECT_EQ(default_runtime(*parse_precision(p), cpu.devices), Runtime::Transformers) << p;
  }
  EXPECT_FALSE(cpu_float_on_llama_cpp(*parse_precision("q4_k_m"), cpu.devices));
  EXPECT_EQ(estimate_inference(cpu).runtime, Runtime::LlamaCpp);
  InferenceQuery mixed = cpu;
  mixed.devices.devices.push_back(query("8b", "bf16", "24gb").devices.devices.front());
  EXPECT_EQ(estimate_inference(mixed).runtime, Runtime::Transformers);
  cpu.runtime = Runtime::Transformers;
  EXPECT_EQ(estimate_inference(cpu).runtime, Runtime::Transformers);
  cpu.runtime.reset();
  const FitReport r = make_fit_report(cpu);
  EXPECT_TRUE(std::any_of(r.assumptions.begin(), r.assumptions.end(), [](const std::string& a) {
    return a.starts_with("runtime llama.cpp: on a CPU");
  }));
}

// Recipe: token_embd Q4_K and output Q6_K for Q4_K_M, as the logged CPU buffer
// (70.31 MiB) and the file size say.
TEST(WeightLayout, RecipeBumpsOutputAndKeepsEmbeddingsAtTheBaseType) {
  const WeightLayout w = weight_layout(llama7b(), *parse_precision("q4_k_m"));
  EXPECT_TRUE(w.recipe);
  EXPECT_EQ(w.token_embd, 32000LL * 4096 / 256 * 144);
  EXPECT_EQ(w.output, 32000LL * 4096 / 256 * 210 + 4096 * 4);
  ASSERT_EQ(w.layers.size(), 32U);
  // More-bits layers (the first eighth) carry Q6_K attn_v and ffn_down.
  EXPECT_GT(w.layers[0].bytes, w.layers[5].bytes);
}

TEST(WeightLayout, OddRowLengthsFallBack) {
  Model m = llama7b();
  m.arch.hidden_size = 896;  // Qwen2.5-0.5B's width: not a multiple of 256
  m.arch.heads = 14;
  m.arch.kv_heads = 2;
  m.arch.head_dim = 64;
  m.arch.tied_embeddings = true;
  const WeightLayout w = weight_layout(m, *parse_precision("q4_k_m"));
  // Tied: no separate head; the shared matrix falls back from Q6_K to Q8_0.
  EXPECT_EQ(w.token_embd, 32000LL * 896 / 32 * 34);
  EXPECT_EQ(w.output, 896 * 4);
}

TEST(WeightLayout, FlatWidthsKeepTheCourseArithmetic) {
  const Model m = *model_from_size(*parse_model_size("13b"));
  EXPECT_EQ(weight_layout(m, *parse_precision("int4")).total(), 6'500'000'000);
  EXPECT_EQ(weight_layout(m, *parse_precision("fp16")).total(), 26'000'000'000);
}

TEST(LlamaCpp, TermsAndPlacement) {
  InferenceQuery q;
  q.model = llama7b();
  q.precision = *parse_precision("q4_k_m");
  q.devices.devices.push_back(*raw_device("16gb"));
  q.context = 2048;
  q.flash_attention = FlashAttention::Off;
  const Estimate e = estimate_inference(q);
  Placement where = Placement::Device;
  EXPECT_EQ(term(e, "token_embeddings", &where), 32000LL * 4096 / 256 * 144);
  EXPECT_EQ(where, Placement::Host);
  EXPECT_EQ(e.memory.weights + term(e, "token_embeddings"), e.model_weight_bytes);
  EXPECT_EQ(e.memory.kv_cache, 1 * kGiB);  // the log's 1024.00 MiB
  // The replayed graph (ggml_alloc.cpp) holds at the softmax at least the
  // scores [2048, 512, 32], the mask [2048, 512], today's V row indices
  // (8 bytes per value), the unused input of ready embeddings, the residual
  // and Q, F32. The 2023 log of this model says 164.00 MiB: that graph had no
  // row indices or embeddings input (24 MiB), so willfit is above it.
  const Bytes live_at_softmax =
      4LL * 512 * 2048 * 32 + 4LL * 512 * 2048 + 8LL * 512 * 4096 + 3 * 4LL * 512 * 4096;
  EXPECT_GE(e.memory.compute, live_at_softmax);
  EXPECT_LE(e.memory.compute, 164 * kMiB + 24 * kMiB + kMiB / 10);
  EXPECT_EQ(term(e, "compute_host"), 4LL * 512 * (4096 + 2048));  // 12.0 MiB
  EXPECT_EQ(term(e, "output_buffer"), 32000LL * 4);
  EXPECT_EQ(e.host, term(e, "token_embeddings") + term(e, "compute_host") + 32000LL * 4);
  EXPECT_TRUE(e.fits());
}

TEST(LlamaCpp, FlashAttentionDropsTheScoreMatrix) {
  InferenceQuery q = query("8b", "q4", "24gb");
  q.context = 32768;
  q.flash_attention = FlashAttention::Off;
  const Bytes off = estimate_inference(q).memory.compute;
  q.flash_attention = FlashAttention::On;
  EXPECT_LT(estimate_inference(q).memory.compute, off / 4);
}

TEST(Ollama, ContextDefaultFollowsVram) {
  for (const auto& [device, ctx] : std::vector<std::pair<const char*, std::int64_t>>{
           {"8gb", 4096}, {"24gb", 32768}, {"48gb", 131072}}) {
    InferenceQuery q = query("8b", "q4", device);
    q.runtime = Runtime::Ollama;
    q.context_is_default = true;
    // 262144 above 47 GiB, capped at the model's trained 131072.
    EXPECT_EQ(estimate_inference(q).context, ctx) << device;
  }
  InferenceQuery given = query("8b", "q4", "48gb");
  given.runtime = Runtime::Ollama;
  EXPECT_EQ(estimate_inference(given).context, 4096);
}

TEST(Ollama, TheDefaultContextSaysWhy) {
  InferenceQuery q = query("8b", "q4", "24gb");
  q.runtime = Runtime::Ollama;
  q.context_is_default = true;
  const DefaultContext d = ollama_default_context(q);
  EXPECT_EQ(d.tokens, 32768);
  EXPECT_NE(d.note.find("context 32768 tokens: Ollama's default for 24.0 GiB"), std::string::npos)
      << d.note;
  EXPECT_EQ(d.note.find("capped"), std::string::npos) << d.note;
  q.devices = query("8b", "q4", "48gb").devices;
  EXPECT_NE(ollama_default_context(q).note.find("capped at the model's trained 131072"),
            std::string::npos);
  // The plain answer carries the line only when Ollama picked the context.
  const auto says = [](const FitReport& r) {
    return std::any_of(r.assumptions.begin(), r.assumptions.end(), [](const std::string& a) {
      return a.find("Ollama's default") != std::string::npos;
    });
  };
  EXPECT_TRUE(says(make_fit_report(q, SpeedSettings{}, {}, {})));
  q.context_is_default = false;
  EXPECT_FALSE(says(make_fit_report(q, SpeedSettings{}, {}, {})));
}

// Since v0.30.0 Ollama runs llama-server and leaves the layers to its --fit:
// the margin is llama.cpp's, no longer a reserve of one layer per GPU.
TEST(Ollama, TheMarginIsLlamaCpps) {
  InferenceQuery q = query("8b", "q4", "24gb");
  q.runtime = Runtime::Ollama;
  const Estimate ollama = estimate_inference(q);
  q.runtime = Runtime::LlamaCpp;
  EXPECT_EQ(ollama.memory.margin, estimate_inference(q).memory.margin);
  EXPECT_EQ(ollama.memory.total(), estimate_inference(q).memory.total());
}

Device named(DeviceKind kind, const char* vendor, double gib) {
  Device d;
  d.kind = kind;
  d.vendor = vendor;
  d.memory_bytes = static_cast<Bytes>(gib * static_cast<double>(kGiB));
  return d;
}

// ollama/ollama server/routes.go sums the memory of the GPUs it discovered:
// a CPU counts nothing, a Mac's Metal GPU its recommended working set (2/3 of
// 32 GB), so neither reaches the 23 GiB step however much RAM they have.
TEST(Ollama, TheDefaultContextCountsGpuMemoryOnly) {
  InferenceQuery q = query("8b", "q4", nullptr);
  q.runtime = Runtime::Ollama;
  q.context_is_default = true;
  q.devices.devices = {named(DeviceKind::Cpu, "generic", 64)};
  EXPECT_EQ(estimate_inference(q).context, 4096);
  EXPECT_NE(ollama_default_context(q).note.find("without a GPU"), std::string::npos);
  q.devices.devices = {named(DeviceKind::Unified, "apple", 32)};
  EXPECT_EQ(estimate_inference(q).context, 4096);
  q.devices.devices = {named(DeviceKind::Unified, "apple", 36)};  // 3/4 of 36: 27 GiB
  EXPECT_EQ(estimate_inference(q).context, 32768);
  q.devices.devices = {named(DeviceKind::DiscreteGpu, "nvidia", 24)};
  EXPECT_EQ(estimate_inference(q).context, 32768);
}

// ollama/ollama server/sched.go automaticGenerationBatch: the batch (and
// micro-batch) by context, stepped down by its own prediction of the model
// against the GPUs' memory; 512 or 256 with flash attention off on CUDA; a
// --ubatch given is kept.
TEST(Ollama, TheBatchFollowsTheContextAndTheRoomLeft) {
  InferenceQuery q = query("8b", "q4", nullptr);
  q.runtime = Runtime::Ollama;
  q.ubatch_is_default = true;
  q.devices.devices = {named(DeviceKind::DiscreteGpu, "nvidia", 24)};
  const auto ubatch = [&](std::int64_t ctx) {
    q.context = ctx;
    return estimate_inference(q).ubatch;
  };
  EXPECT_EQ(ubatch(4096), 512);
  EXPECT_EQ(ubatch(4097), 1024);
  EXPECT_EQ(ubatch(32768), 1024);
  EXPECT_EQ(ubatch(65536), 2048);
  // A larger micro-batch, a larger compute buffer.
  q.context = 32768;
  const Bytes at_1024 = estimate_inference(q).memory.compute;
  q.ubatch_is_default = false;
  q.ubatch = 512;
  EXPECT_EQ(estimate_inference(q).ubatch, 512);
  EXPECT_LT(estimate_inference(q).memory.compute, at_1024);
  q.ubatch_is_default = true;
  // 70B at Q4_K_M (about 42 GB) and its rough 32k KV (10.7 GB) take over 80 %
  // of two 24 GB GPUs: no room for a larger batch.
  InferenceQuery big = query("70b", "q4", nullptr);
  big.runtime = Runtime::Ollama;
  big.ubatch_is_default = true;
  big.context = 32768;
  big.devices.devices = {named(DeviceKind::DiscreteGpu, "nvidia", 24),
                         named(DeviceKind::DiscreteGpu, "nvidia", 24)};
  EXPECT_EQ(estimate_inference(big).ubatch, 512);
  big.devices.devices = {named(DeviceKind::DiscreteGpu, "nvidia", 80),
                         named(DeviceKind::DiscreteGpu, "nvidia", 80)};
  EXPECT_EQ(estimate_inference(big).ubatch, 1024);
  // Flash attention off on CUDA: 512, and 256 past 4096 tokens on 8 GiB.
  q.flash_attention = FlashAttention::Off;
  EXPECT_EQ(ubatch(32768), 512);
  q.devices.devices = {named(DeviceKind::DiscreteGpu, "nvidia", 8)};
  EXPECT_EQ(ubatch(8192), 256);
  EXPECT_EQ(ubatch(4096), 512);
  // Without a GPU nothing steps it down.
  q.flash_attention = FlashAttention::Auto;
  q.devices.devices = {named(DeviceKind::Cpu, "generic", 16)};
  EXPECT_EQ(ubatch(65536), 2048);
  // llama.cpp itself keeps its 512.
  q.runtime = Runtime::LlamaCpp;
  EXPECT_EQ(ubatch(65536), 512);
}

// ollama/ollama at fb307609: an embedding model (a GGUF with pooling_type)
// runs with -b N -ub N, N = 2048 (DefaultEmbeddingNumBatch) at most the
// context times the parallel sequences (embeddingBatchSize), whatever flash
// attention or the GPU's size would make of a generation batch.
TEST(Ollama, AnEmbeddingModelTakesTheEmbeddingBatch) {
  InferenceQuery q = query("0.6b", "f16", nullptr);
  q.runtime = Runtime::Ollama;
  q.ubatch_is_default = true;
  q.model.embedding = true;
  q.devices.devices = {named(DeviceKind::DiscreteGpu, "nvidia", 8)};
  const auto ubatch = [&](std::int64_t ctx) {
    q.context = ctx;
    return estimate_inference(q).ubatch;
  };
  EXPECT_EQ(ubatch(8192), 2048);
  EXPECT_EQ(ubatch(2048), 2048);
  EXPECT_EQ(ubatch(512), 512);
  q.batch = 4;  // four parallel sequences of 512
  EXPECT_EQ(ubatch(512), 2048);
  q.batch = 1;
  q.flash_attention = FlashAttention::Off;
  EXPECT_EQ(ubatch(8192), 2048);
  // A larger micro-batch, a larger compute buffer; llama.cpp keeps its 512.
  const Bytes at_2048 = estimate_inference(q).memory.compute;
  q.runtime = Runtime::LlamaCpp;
  EXPECT_EQ(ubatch(8192), 512);
  EXPECT_LT(estimate_inference(q).memory.compute, at_2048);
  // A model that generates gets the generation batch.
  q.runtime = Runtime::Ollama;
  q.model.embedding = false;
  EXPECT_EQ(ubatch(8192), 256);
}

// ollama/ollama server/sched.go at fb307609 (bestSingleGPUFit): on several
// GPUs Ollama loads a model on one when its prediction (file + 2 x layers x
// KV heads x head dim x context x 2 bytes) fits 80 % of that GPU's free
// memory; llama-server then sees that GPU alone.
TEST(Ollama, ASmallModelGoesOnOneGpuOfSeveral) {
  InferenceQuery q = query("8b", "q4", nullptr);
  q.runtime = Runtime::Ollama;
  q.ubatch_is_default = true;
  q.context = 8192;
  q.devices.devices = {named(DeviceKind::DiscreteGpu, "nvidia", 24),
                       named(DeviceKind::DiscreteGpu, "nvidia", 24)};
  const Estimate split_off = [&] {
    InferenceQuery one = q;
    one.devices.devices.resize(1);
    return estimate_inference(one);
  }();
  const Estimate e = estimate_inference(q);
  EXPECT_EQ(e.placed_device, 0);
  // The figures are one GPU's: one driver context, one GPU's memory.
  EXPECT_EQ(e.usable, split_off.usable);
  EXPECT_EQ(e.memory.overhead, split_off.memory.overhead);
  EXPECT_EQ(e.required, split_off.required);
  EXPECT_EQ(as_placed(q, e).devices.devices.size(), 1U);
  // The larger GPU is the one it picks.
  q.devices.devices = {named(DeviceKind::DiscreteGpu, "nvidia", 16),
                       named(DeviceKind::DiscreteGpu, "nvidia", 24)};
  EXPECT_EQ(estimate_inference(q).placed_device, 1);
  // A model whose prediction is over 80 % of either GPU is split over both:
  // 70B at Q4_K_M is about 42 GB.
  InferenceQuery big = query("70b", "q4", nullptr);
  big.runtime = Runtime::Ollama;
  big.context = 8192;
  big.devices.devices = {named(DeviceKind::DiscreteGpu, "nvidia", 48),
                         named(DeviceKind::DiscreteGpu, "nvidia", 48)};
  EXPECT_EQ(estimate_inference(big).placed_device, -1);
  // llama.cpp itself splits over every GPU, and -ngl 0 places nothing.
  q.runtime = Runtime::LlamaCpp;
  EXPECT_EQ(estimate_inference(q).placed_device, -1);
  q.runtime = Runtime::Ollama;
  q.gpu_layers = 0;
  EXPECT_EQ(estimate_inference(q).placed_device, -1);
}

// Without --context, a model trained for less than the default 4096 tokens
// is answered at its own length (BERT-base: max_position_embeddings 512),
// not at a context it cannot take; a --context given stays, with a warning.
TEST(DefaultContext, IsCappedAtTheTrainedLength) {
  InferenceQuery q = query("0.1b", "f16", nullptr);
  q.model.arch.max_context = 512;
  q.context = 4096;
  q.context_is_default = true;
  Estimate e = estimate_inference(q);
  EXPECT_EQ(e.context, 512);
  EXPECT_TRUE(std::none_of(e.warnings.begin(), e.warnings.end(), [](const std::string& w) {
    return w.find("longer than the model was trained") != std::string::npos;
  }));
  q.context_is_default = false;
  e = estimate_inference(q);
  EXPECT_EQ(e.context, 4096);
  EXPECT_TRUE(std::any_of(e.warnings.begin(), e.warnings.end(), [](const std::string& w) {
    return w.find("longer than the model was trained") != std::string::npos;
  }));
}

TEST(Vllm, BudgetIsAShareOfTotalMemoryAndTheRestIsKv) {
  InferenceQuery q = query("7b", "fp16", "24gb");
  q.runtime = Runtime::Vllm;
  const Estimate e = estimate_inference(q);
  ASSERT_TRUE(e.vllm.has_value());
  EXPECT_EQ(e.vllm->budget, round_bytes(0.9 * 24.0 * static_cast<double>(kGiB)));
  EXPECT_EQ(e.vllm->kv_available, e.vllm->budget - e.vllm->non_kv);
  EXPECT_GT(e.vllm->kv_tokens, 4096);
  EXPECT_EQ(e.vllm->kv_tokens % 16, 0);
  EXPECT_NEAR(e.vllm->max_concurrency, static_cast<double>(e.vllm->kv_tokens) / 4096.0, 1e-9);
  EXPECT_TRUE(e.fits());
  // A smaller share leaves fewer KV tokens; too small a share does not start.
  q.gpu_memory_utilization = 0.7;
  EXPECT_LT(estimate_inference(q).vllm->kv_tokens, e.vllm->kv_tokens);
  q.gpu_memory_utilization = 0.5;
  EXPECT_EQ(estimate_inference(q).verdict, Verdict::NoFit);
}

// --batch is vLLM's --max-num-seqs, a ceiling: its scheduler admits the
// requests whose KV blocks it can allocate and queues the rest
// (vllm/v1/core/sched/scheduler.py), and it refuses to start only when one
// request of max_model_len does not fit (kv_cache_utils.py
// check_enough_kv_cache_memory). LLaMA-7B's cache, f16: 2 (K, V) x 32
// layers x 32 KV heads x 128 x 2 bytes = 512 KiB a token, 2 GiB for 4096.
TEST(Vllm, BatchIsACeilingTheCacheRunsWhatFitsAndQueuesTheRest) {
  InferenceQuery q = query("7b", "fp16", "24gb");
  q.model = llama7b();
  q.runtime = Runtime::Vllm;
  q.context = 4096;
  q.batch = 16;
  const Bytes per_sequence = 2LL * 32 * 32 * 128 * 2 * 4096;
  ASSERT_EQ(per_sequence, 2 * kGiB);
  const Estimate e = estimate_inference(q);
  ASSERT_TRUE(e.vllm.has_value());
  const auto held = static_cast<int>(e.vllm->kv_available / per_sequence);
  ASSERT_GE(held, 1);
  ASSERT_LT(held, 16);  // 24 GiB cannot hold 16 x 2 GiB besides 12.6 GiB of weights
  EXPECT_EQ(e.vllm->sequences_at_once, held);
  EXPECT_EQ(e.verdict, Verdict::Fits);
  EXPECT_EQ(e.memory.kv_cache, held * per_sequence);
  EXPECT_GE(e.headroom, 0);
  // A batch the cache holds runs whole.
  q.batch = 2;
  ASSERT_LE(2, held);
  EXPECT_EQ(estimate_inference(q).vllm->sequences_at_once, 2);
  // Not even one sequence of 32768 tokens (16 GiB): vLLM does not start.
  q.batch = 16;
  q.context = 32768;
  const Estimate none = estimate_inference(q);
  EXPECT_EQ(none.verdict, Verdict::NoFit);
  EXPECT_EQ(none.memory.kv_cache, 8 * per_sequence);  // one sequence, 8 x as long
}

TEST(Vllm, TensorParallelDividesWeightsAndKv) {
  InferenceQuery q = query("70b", "fp16", "80gb");
  q.devices.devices.push_back(q.devices.devices.front());
  q.devices.devices.push_back(q.devices.devices.front());
  q.devices.devices.push_back(q.devices.devices.front());
  q.runtime = Runtime::Vllm;
  const Estimate e = estimate_inference(q);
  ASSERT_TRUE(e.vllm.has_value());
  EXPECT_EQ(e.vllm->tensor_parallel, 4);
  ASSERT_EQ(e.devices.size(), 4U);
  EXPECT_EQ(e.devices[0].weights, e.model_weight_bytes / 4);
  EXPECT_TRUE(e.fits());
  q.tensor_parallel = 1;  // one rank cannot hold 140 GB of weights in 72 GiB
  EXPECT_EQ(estimate_inference(q).verdict, Verdict::NoFit);
  InferenceQuery one = query("70b", "fp16", "80gb");
  one.runtime = Runtime::Vllm;
  one.tensor_parallel = 2;  // more ranks than GPUs
  const Estimate short_of_gpus = estimate_inference(one);
  EXPECT_EQ(short_of_gpus.verdict, Verdict::NoFit);
  EXPECT_LT(short_of_gpus.headroom, 0);
  EXPECT_FALSE(short_of_gpus.warnings.empty());
}

TEST(Transformers, ActivationsScaleWithPromptAndBatch) {
  InferenceQuery q = query("7b", "bf16", "80gb");
  q.context = 8192;
  const Estimate e = estimate_inference(q);
  q.prompt_tokens = 4096;
  const Estimate half = estimate_inference(q);
  EXPECT_LT(half.memory.compute, e.memory.compute);
  EXPECT_EQ(half.memory.kv_cache, e.memory.kv_cache);  // every token is cached
  q.prompt_tokens.reset();
  q.batch = 2;
  const Estimate two = estimate_inference(q);
  EXPECT_EQ(two.memory.kv_cache, 2 * e.memory.kv_cache);
  EXPECT_GT(two.memory.compute, e.memory.compute * 19 / 10);
  // PyTorch caches exact tokens: no padding to 256.
  q.batch = 1;
  q.context = 1000;
  Architecture a = q.model.arch;
  EXPECT_EQ(estimate_inference(q).memory.kv_cache,
            2LL * a.layers * a.kv_heads * a.head_dim * 2 * 1000);
}

// generate(): at the prefill the cache holds the prompt only, so the
// generated tokens' cache is taken off the prefill moment; with a one-token
// prompt the end of generation is the peak: one layer's K (torch.cat copies
// the layer's cache) and the last logits.
TEST(Transformers, PrefillAndEndOfGenerationAreSeparateMoments) {
  InferenceQuery q = query("7b", "bf16", "80gb");
  const Architecture& a = q.model.arch;
  q.context = 8192;
  q.prompt_tokens = 8192;
  const Estimate whole = estimate_inference(q);
  q.prompt_tokens = 6144;
  const Estimate part = estimate_inference(q);
  const auto e = static_cast<double>(a.hidden_size);
  const auto f = static_cast<double>(a.intermediate_size);
  const double mlp_2048 = 2.0 * 2048 * (3.0 * f + 4.0 * e);
  const double kv_2048 = 2.0 * a.layers * a.kv_heads * a.head_dim * 2 * 2048;
  EXPECT_NEAR(static_cast<double>(whole.memory.compute - part.memory.compute), mlp_2048 + kv_2048,
              2.0);
  q.prompt_tokens = 1;
  const Estimate end = estimate_inference(q);
  const double logits = static_cast<double>(a.vocab_size) * (2 + 4);
  EXPECT_NEAR(static_cast<double>(end.memory.compute),
              static_cast<double>(end.memory.kv_cache) / (2.0 * a.layers) + logits, 2.0);
}

// --flash-attn off is eager attention: every head's P x P scores, their F32
// softmax and its cast back, beside the causal mask, when wider than the MLP.
TEST(Transformers, EagerAttentionHoldsTheScores) {
  InferenceQuery q = query("7b", "bf16", "80gb");
  q.context = 8192;
  const Estimate sdpa = estimate_inference(q);
  q.flash_attention = FlashAttention::Off;
  const Estimate eager = estimate_inference(q);
  const double p = 8192;
  const double scores = p * p * (q.model.arch.heads * (2.0 * 2 + 4) + 2);
  const double logits = static_cast<double>(q.model.arch.vocab_size) * (2 + 4);
  EXPECT_NEAR(static_cast<double>(eager.memory.compute), scores + logits, 2.0);
  EXPECT_GT(eager.memory.compute, 10 * sdpa.memory.compute);
}

// An FP8 checkpoint of a tied-embedding model holds its head again in 16
// bits under transformers (Qwen3-0.6B/1.7B/4B-FP8, tests/data), not under vLLM.
TEST(Transformers, TiedFp8HoldsItsHeadAgain) {
  InferenceQuery q = query("7b", "fp8", "80gb");
  EXPECT_EQ(estimate_inference(q).memory.weights, weight_bytes(q.model, q.precision));
  q.model.arch.tied_embeddings = true;
  const Bytes head = 2 * q.model.arch.vocab_size * q.model.arch.hidden_size;
  EXPECT_EQ(estimate_inference(q).memory.weights, weight_bytes(q.model, q.precision) + head);
  q.runtime = Runtime::Vllm;
  EXPECT_EQ(estimate_inference(q).memory.weights, weight_bytes(q.model, q.precision));
}

TEST(Mlx, UsesTheMacWorkingSetLimit) {
  InferenceQuery q = query("8b", "fp16", nullptr);
  Device mac;
  mac.id = "m3-max-36";
  mac.name = "Apple M3 Max (36 GB)";
  mac.vendor = "apple";
  mac.kind = DeviceKind::Unified;
  mac.memory_bytes = 36 * kGiB;
  q.devices.devices.push_back(mac);
  q.runtime = Runtime::Mlx;
  const Estimate e = estimate_inference(q);
  EXPECT_EQ(e.usable, 27 * kGiB);  // 3/4 above 32 GB
  EXPECT_EQ(e.memory.overhead, 512 * kMiB);
  EXPECT_EQ(e.kv_cells % 256, 0);
}

// Ollama takes no llama.cpp flags: its layers on the GPU are the num_gpu
// option (found: an Ollama offload printed "flags: -ngl 17").
TEST(Offload, UnderOllamaTheLayersAreNumGpu) {
  InferenceQuery q = query("13b", "q4", "8gb");
  q.ram = 32 * kGiB;
  q.runtime = Runtime::Ollama;
  const Estimate e = estimate_inference(q);
  ASSERT_EQ(e.verdict, Verdict::Offload);
  ASSERT_TRUE(e.offload.has_value());
  EXPECT_EQ(e.offload->flags, "num_gpu " + std::to_string(e.offload->gpu_layers));
}

// Ollama has no way to keep experts on the CPU (ollama/ollama api/types.go at
// fb307609: the runner options are num_ctx, num_batch, num_gpu, main_gpu,
// use_mmap, num_thread, draft_num_predict), so an MoE model that does not
// fit is a layer offload under it, num_gpu N, sized as whole layers: the plan
// llama.cpp makes with -ngl N alone.
TEST(Offload, UnderOllamaAnMoeModelOffloadsWholeLayers) {
  InferenceQuery q = query("30b-a3b", "q4", "8gb");
  q.ram = 64 * kGiB;
  q.runtime = Runtime::Ollama;
  q.context = 4096;
  q.context_is_default = false;
  q.ubatch = 512;
  q.ubatch_is_default = false;
  ASSERT_TRUE(q.model.is_moe());
  const Estimate e = estimate_inference(q);
  ASSERT_EQ(e.verdict, Verdict::Offload);
  ASSERT_TRUE(e.offload.has_value());
  EXPECT_EQ(e.offload->cpu_moe_layers, 0);
  EXPECT_EQ(e.offload->flags, "num_gpu " + std::to_string(e.offload->gpu_layers));
  EXPECT_LT(e.offload->gpu_layers, e.offload->total_layers);
  // The same layers under llama.cpp with -ngl alone: the same bytes on the GPU.
  InferenceQuery llama = q;
  llama.runtime = Runtime::LlamaCpp;
  llama.gpu_layers = e.offload->gpu_layers;
  const Estimate l = estimate_inference(llama);
  ASSERT_TRUE(l.offload.has_value());
  EXPECT_EQ(l.offload->cpu_moe_layers, 0);
  EXPECT_EQ(l.offload->gpu_weight_bytes, e.offload->gpu_weight_bytes);
  EXPECT_EQ(l.offload->host_weight_bytes, e.offload->host_weight_bytes);
  // Read per token: the routed experts k of N on both sides, as llama.cpp.
  EXPECT_EQ(l.offload->gpu_active_weight_bytes, e.offload->gpu_active_weight_bytes);
  EXPECT_EQ(l.offload->host_active_weight_bytes, e.offload->host_active_weight_bytes);
  EXPECT_LT(e.offload->host_active_weight_bytes, e.offload->host_weight_bytes / 4);
  // llama.cpp left to plan keeps experts in RAM instead.
  llama.gpu_layers.reset();
  EXPECT_GT(estimate_inference(llama).offload->cpu_moe_layers, 0);
}

// The course case: 13 B at 4-bit on an 8 GB card, some layers in system RAM.
TEST(Offload, CourseCaseSplitsLayersFromTheOutputEnd) {
  InferenceQuery q = query("13b", "q4", "8gb");
  q.ram = 32 * kGiB;
  const Estimate e = estimate_inference(q);
  EXPECT_EQ(e.verdict, Verdict::Offload);
  ASSERT_TRUE(e.offload.has_value());
  const OffloadPlan& p = *e.offload;
  EXPECT_EQ(p.total_layers, q.model.arch.layers + 1);
  EXPECT_GT(p.gpu_layers, p.total_layers / 2);
  EXPECT_LT(p.gpu_layers, p.total_layers);
  EXPECT_EQ(p.flags, "-ngl " + std::to_string(p.gpu_layers));
  EXPECT_LE(p.gpu_bytes, e.usable);
  EXPECT_EQ(p.gpu_weight_bytes + p.host_weight_bytes, e.model_weight_bytes);
  EXPECT_TRUE(p.ram_holds.value_or(false));
  // One more layer on the GPU would not fit.
  InferenceQuery more = q;
  more.gpu_layers = p.gpu_layers + 1;
  const Estimate over = estimate_inference(more);
  ASSERT_TRUE(over.offload.has_value());
  EXPECT_GT(over.offload->gpu_bytes, e.usable);
  EXPECT_EQ(over.verdict, Verdict::NoFit);
}

// The planner bisects where its test is monotone; its answer must be the one
// llama.cpp's scan gives: the most layers (dense) or the fewest expert blocks
// on the CPU (MoE) that fit, checked against the plans one step away.
TEST(Offload, PlanIsTheScansAnswerOneStepAway) {
  int plans = 0;
  for (const char* size : {"7b", "13b", "20b", "34b", "70b", "8x7b", "30b-a3b", "8x22b"}) {
    for (const char* device : {"6gb", "8gb", "12gb", "24gb", "48gb"}) {
      InferenceQuery q = query(size, "q4_k_m", device);
      q.ram = 1024 * kGiB;
      const Estimate e = estimate_inference(q);
      if (!e.offload || e.verdict != Verdict::Offload) {
        continue;
      }
      ++plans;
      const OffloadPlan& p = *e.offload;
      const auto fits_with = [&](int layers, int cpu_moe) {
        InferenceQuery t = q;
        t.gpu_layers = layers;
        t.n_cpu_moe = cpu_moe;
        return estimate_inference(t).verdict == Verdict::Offload;
      };
      const std::string what = std::string(size) + " on " + device + ": " + p.flags;
      EXPECT_TRUE(fits_with(p.gpu_layers, p.cpu_moe_layers)) << what;
      if (p.cpu_moe_layers > 0 && p.gpu_layers == p.total_layers) {
        EXPECT_FALSE(fits_with(p.gpu_layers, p.cpu_moe_layers - 1)) << what;
      } else if (p.gpu_layers < p.total_layers) {
        EXPECT_FALSE(fits_with(p.gpu_layers + 1, p.cpu_moe_layers)) << what;
      }
    }
  }
  EXPECT_GT(plans, 10);
}

TEST(Offload, UnknownRamStillPlansButDoesNotPromise) {
  const Estimate e = estimate_inference(query("13b", "q4", "8gb"));
  EXPECT_EQ(e.verdict, Verdict::NoFit);
  ASSERT_TRUE(e.offload.has_value());
  EXPECT_FALSE(e.offload->ram_holds.has_value());
}

TEST(Offload, MoeKeepsExpertsOnTheCpuFirst) {
  InferenceQuery q = query("8x7b", "q4_k_m", "24gb");
  q.ram = 64 * kGiB;
  const Estimate e = estimate_inference(q);
  EXPECT_EQ(e.verdict, Verdict::Offload);
  ASSERT_TRUE(e.offload.has_value());
  EXPECT_EQ(e.offload->gpu_layers, e.offload->total_layers);
  EXPECT_GT(e.offload->cpu_moe_layers, 0);
  EXPECT_NE(e.offload->flags.find("--n-cpu-moe"), std::string::npos);
  // Attention stays on the GPU: per token, the host reads only active experts.
  EXPECT_LT(e.offload->host_active_weight_bytes, e.offload->host_weight_bytes);
}

TEST(Offload, UserLayerCountIsHonoured) {
  InferenceQuery q = query("13b", "q4", "8gb");
  q.ram = 32 * kGiB;
  q.gpu_layers = 10;
  const Estimate e = estimate_inference(q);
  ASSERT_TRUE(e.offload.has_value());
  EXPECT_EQ(e.offload->gpu_layers, 10);
  EXPECT_EQ(e.devices.front().layers, 10);
}

TEST(MultiGpu, LayerSplitFollowsMemoryOrTensorSplit) {
  InferenceQuery q = query("70b", "q4", "24gb");
  q.devices.devices.push_back(*raw_device("24gb"));
  const Estimate e = estimate_inference(q);
  ASSERT_EQ(e.devices.size(), 2U);
  EXPECT_TRUE(e.fits());
  const int layers = e.devices[0].layers + e.devices[1].layers;
  EXPECT_EQ(layers, q.model.arch.layers + 1);
  EXPECT_LE(std::abs(e.devices[0].layers - e.devices[1].layers), 1);
  for (const auto& d : e.devices) {
    EXPECT_LE(d.total(), d.usable);
    EXPECT_GT(d.compute, 0);  // each GPU reserves its own graph
  }
  q.tensor_split = {3, 1};
  const Estimate split = estimate_inference(q);
  EXPECT_GT(split.devices[0].layers, 2 * split.devices[1].layers);
  EXPECT_EQ(split.verdict, Verdict::NoFit);  // 3/4 of 70 B at 4 bits overflows one 24 GB card
  EXPECT_GE(split.headroom, 0);              // enough in total: the split is what fails
  EXPECT_FALSE(make_fit_report(q).hint.empty());
}

// llama.cpp gives layer j of the n + 1 (blocks, then the output layer) to the
// first GPU whose cumulative share its position j / (n + 1) has not reached.
// LLaMA-7B has 32 blocks; --tensor-split 1,1,2 puts the edges at 1/4 and 1/2
// of 33 layers: 9 (8/33 < 1/4 <= 9/33), 8 (16/33 < 1/2 <= 17/33) and 16.
// With -ngl 20 the positions are (j - 13) / 20 over the top 20 layers: 5, 5
// and 10.
TEST(MultiGpu, LayersGoByPositionAgainstTheCumulativeSplit) {
  InferenceQuery q = query("7b", "q4", "80gb");
  q.model = llama7b();
  q.devices.devices.push_back(*raw_device("80gb"));
  q.devices.devices.push_back(*raw_device("80gb"));
  q.tensor_split = {1, 1, 2};
  const Estimate e = estimate_inference(q);
  ASSERT_EQ(e.devices.size(), 3U);
  EXPECT_EQ(e.devices[0].layers, 9);
  EXPECT_EQ(e.devices[1].layers, 8);
  EXPECT_EQ(e.devices[2].layers, 16);
  EXPECT_GT(e.devices[0].kv_cache, e.devices[1].kv_cache);  // 9 blocks against 8
  EXPECT_TRUE(e.fits());
  q.gpu_layers = 20;
  q.ram = 64 * kGiB;
  const Estimate some = estimate_inference(q);
  EXPECT_EQ(some.devices[0].layers, 5);
  EXPECT_EQ(some.devices[1].layers, 5);
  EXPECT_EQ(some.devices[2].layers, 10);
  ASSERT_TRUE(some.offload.has_value());
  EXPECT_EQ(some.offload->flags, "-ngl 20 --tensor-split 5,5,10");
}

TEST(MultiGpu, OneCardShortOffloadsWithAPlanAcrossBoth) {
  InferenceQuery q = query("70b", "q4", "24gb");
  q.devices.devices.push_back(*raw_device("16gb"));
  q.ram = 64 * kGiB;
  const Estimate e = estimate_inference(q);
  EXPECT_EQ(e.verdict, Verdict::Offload);
  ASSERT_TRUE(e.offload.has_value());
  EXPECT_NE(e.offload->flags.find("--tensor-split"), std::string::npos);
  for (const auto& d : e.devices) {
    EXPECT_LE(d.total(), d.usable);
  }
}

TEST(ContextMax, IsTheLongestThatFits) {
  for (Runtime r : {Runtime::LlamaCpp, Runtime::Transformers, Runtime::Vllm}) {
    InferenceQuery q = query("8b", r == Runtime::LlamaCpp ? "q4" : "fp16", "24gb");
    q.runtime = r;
    const std::int64_t best = max_context(q);
    ASSERT_GT(best, 0) << to_string(r);
    EXPECT_EQ(best % 256, 0);
    q.context = best;
    EXPECT_TRUE(estimate_inference(q).fits()) << to_string(r);
    if (best < q.model.arch.max_context) {
      q.context = best + 256;
      EXPECT_FALSE(estimate_inference(q).fits()) << to_string(r);
    }
  }
  EXPECT_EQ(max_context(query("8b", "q4", nullptr)), 0);
  EXPECT_EQ(max_context(query("70b", "fp16", "8gb")), 0);
}

TEST(ErrorBand, IsDerivedPerRuntime) {
  for (Runtime r : all_runtimes()) {
    InferenceQuery q = query("8b", "q4", "24gb");
    q.runtime = r;
    const Estimate e = estimate_inference(q);
    EXPECT_GT(e.error_band_pct, 0.0) << to_string(r);
    EXPECT_LT(e.error_band_pct, 20.0) << to_string(r);
  }
}

// Qwen3.5-35B-A3B in a llama.cpp log (runtime-logs.csv L17): 10 of 40 layers
// with attention (2 KV heads x 256), 4 sequences of 4096 cells, and the other
// 30 layers' recurrent state: R 11.25 MiB + S 240 MiB = 251.25 MiB, i.e.
// 3 x 8192 conv values + 32 x 128 x 128 delta-rule values per layer and sequence.
TEST(KvCacheHybrid, RecurrentStateIsFixedPerSequence) {
  Architecture a;
  a.layers = 40;
  a.kv_heads = 2;
  a.head_dim = 256;
  a.attention.kind = AttentionKind::Hybrid;
  a.attention.attention_layers = 10;
  a.attention.recurrent_state_floats = 3 * 8192 + 32 * 128 * 128;
  const Bytes kv = 80 * kMiB;  // the log's KV line: 4096 cells, 10 layers
  const Bytes state = 251 * kMiB + kMiB / 4;
  EXPECT_EQ(kv_cache_bytes(a, {1024, 4, 512, kv_f16(), kv_f16(), 256}), kv + state);
  // The state does not grow with the context; the KV cache does.
  EXPECT_EQ(kv_cache_bytes(a, {2048, 4, 512, kv_f16(), kv_f16(), 256}), 2 * kv + state);
}

}  // namespace
}  // namespace willfit

namespace willfit {
namespace {

// A CPU-only run (the device is system RAM): no driver context, every host
// term in the memory the verdict checks, and -ngl moves nothing.
TEST(Runtime, CpuOnlyHoldsEveryTermInSystemRam) {
  InferenceQuery q = query("8b", "q8_0", nullptr);
  Device ram = *raw_device("64gb");
  ram.kind = DeviceKind::Cpu;
  q.devices.devices.push_back(ram);
  q.runtime = Runtime::LlamaCpp;
  const Estimate cpu = estimate_inference(q);
  InferenceQuery gq = query("8b", "q8_0", "64gb");
  gq.runtime = Runtime::LlamaCpp;
  const Estimate gpu = estimate_inference(gq);
  // The GPU run keeps the input embeddings on the host; the CPU run counts them.
  EXPECT_EQ(cpu.memory.weights, gpu.memory.weights + term(gpu, "token_embeddings"));
  EXPECT_EQ(cpu.host, 0);
  EXPECT_EQ(term(cpu, "token_embeddings"), -1);
  EXPECT_LT(cpu.memory.overhead, 32 * kMiB);  // not a 457 MiB CUDA context
  EXPECT_EQ(cpu.memory.compute, gpu.memory.compute + term(gpu, "output_buffer"));
  // --ngl 0 changes nothing, and the device table agrees with the total.
  q.gpu_layers = 0;
  const Estimate ngl0 = estimate_inference(q);
  EXPECT_FALSE(ngl0.offload.has_value());
  EXPECT_EQ(ngl0.required, cpu.required);
  ASSERT_EQ(ngl0.devices.size(), 1U);
  const DeviceShare& d = ngl0.devices[0];
  EXPECT_EQ(d.total(), ngl0.memory.total());
}

}  // namespace
}  // namespace willfit

namespace willfit {
namespace {

// llama.cpp's CPU backend repacks the types its kernels have layouts for, all
// but the token embeddings (ggml-cpu repack.cpp); AVX-512 adds Q2_K, Arm adds
// Q5_K, Q6_K and Q8_0.
TEST(Runtime, CpuRepackCountsTheTypesTheCpuRepacks) {
  Model m;
  m.weight_mix = {{"Q4_K", 1000, 10}, {"Q6_K", 300, 3}, {"Q2_K", 50, 1}, {"F32", 7, 5}};
  m.token_embd_type = "Q4_K";
  m.token_embd_bytes = 100;
  EXPECT_EQ(cpu_repack_bytes(m, CpuFeatures::Avx2), 900);
  EXPECT_EQ(cpu_repack_bytes(m, CpuFeatures::Avx512), 950);
  EXPECT_EQ(cpu_repack_bytes(m, CpuFeatures::Neon), 1200);
  EXPECT_EQ(cpu_repack_bytes(m, CpuFeatures::None), 0);
  m.token_embd_type = "Q6_K";  // not repacked on x86: nothing to take off
  EXPECT_EQ(cpu_repack_bytes(m, CpuFeatures::Avx2), 1000);
  m.token_embd_type = "Q4_K";  // tied: the output layer reads it with a matrix product
  m.arch.tied_embeddings = true;
  EXPECT_EQ(cpu_repack_bytes(m, CpuFeatures::Avx2), 1000);
  EXPECT_EQ(*parse_cpu_features(" AVX512 "), CpuFeatures::Avx512);
  EXPECT_FALSE(parse_cpu_features("sse").ok());
}

// On a CPU-only run the copy is held besides the mapped file (whose pages
// behind it are dropped); --no-repack and a GPU drop it.
TEST(Runtime, CpuRepackIsHeldOnlyOnTheCpu) {
  InferenceQuery q = query("8b", "q4_k_m", nullptr);
  q.model.weight_mix = {{"Q4_K", 4 * kGiB, 200}};
  Device ram = *raw_device("64gb");
  ram.kind = DeviceKind::Cpu;
  q.devices.devices.push_back(ram);
  q.runtime = Runtime::LlamaCpp;
  const Estimate with = estimate_inference(q);
  EXPECT_EQ(term(with, "cpu_repack"), 4 * kGiB);
  EXPECT_EQ(with.devices.at(0).total(), with.memory.total());
  q.cpu_repack = false;
  const Estimate without = estimate_inference(q);
  EXPECT_EQ(term(without, "cpu_repack"), -1);
  // The copy is held besides the file, whose pages behind it are dropped.
  EXPECT_EQ(with.file_pages_dropped, 4 * kGiB);
  EXPECT_EQ(with.memory.weights + with.file_pages_dropped - without.memory.weights, 4 * kGiB);
  InferenceQuery g = query("8b", "q4_k_m", "64gb");
  g.model.weight_mix = q.model.weight_mix;
  EXPECT_EQ(term(estimate_inference(g), "cpu_repack"), -1);
}

}  // namespace
}  // namespace willfit
