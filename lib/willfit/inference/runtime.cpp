// What each runtime really holds.
//
// The same model costs different memory under different runtimes, because
// each allocates its own way. willfit models the ones people use:
//
// llama.cpp (and Ollama, which runs it)
//   - weights: the GGUF tensors (weight_layout.cpp). The token embeddings stay
//     in system RAM (llama.cpp never offloads the input layer: its log shows
//     them as the "CPU buffer"); every block and the output layer go to the GPU.
//   - KV cache: kv_cache_bytes() (estimate.cpp), cells padded to 256.
//   - compute buffer: llama.cpp reserves the worst-case graph of one
//     micro-batch of b = min(n_ubatch, tokens) tokens by running ggml's graph
//     allocator over it (ggml-alloc.c: best fit over freed blocks, in-place
//     reuse, each tensor freed after its last reader); the buffer is that
//     allocator's high-water mark. willfit replays the allocator over the
//     graph llama.cpp builds (ggml_alloc.cpp, with its essay): every layer's
//     norm, Q/K/V, RoPE, the scores [c, b, h] and softmax or flash attention,
//     the output projection, the MLP (gate, up and their product; for routed
//     experts the router, top-k and the [f_exp, k, b] activations) and the
//     logits [v, b], all F32, plus the inputs: the KQ mask [c, b] (F16 under
//     flash attention, one per window kind), the V cache rows to write
//     (8 bytes per value without flash attention) and an unused [e, b] input
//     of ready embeddings, which is never freed. Quantised K/V caches add
//     Hadamard rotations of Q, K, V and the attention output. Which tensor is
//     widest depends on the model: logits for large vocabularies (Llama 3,
//     Qwen, Gemma), the MLP for 32k vocabularies (Mistral, Mixtral), the
//     scores at long contexts without flash attention; where a block freed
//     earlier sits below the widest tensor, the replay sees the hole.
//     Measured on the CPU against a real llama.cpp (tests/live,
//     docs/live-llamacpp.md: every live row within 1 %) and against CUDA logs
//     in tests/data/llamacpp_buffers.csv. MLA (DeepSeek-V2) is replayed too,
//     over deepseek2.cpp's absorbed graph (a K-only cache of kv_lora + rope
//     values, queries multiplied into the latent, the output decompressed
//     per head), as are Llama 4's routing (experts chosen by the raw logits,
//     the input weighted per expert before them) and shared experts, and
//     six hybrids: LFM2's short convolutions, the gated delta nets with
//     gated attention of Qwen3-Next and Qwen3.5 (qwen35.cpp builds the same
//     delta-net and attention ops, a dense MLP where Qwen3-Next routes; the
//     live Qwen3.5-0.8B row is within 1 % on all 27 runs), the Mamba mixers of Granite 4 H
//     (Mamba-2) and Jamba (Mamba-1), Falcon-H1's Mamba-2 mixer beside
//     every layer's attention and Nemotron-H's blocks (a Mamba-2 mixer,
//     attention or an MLP alone in each layer; routed experts in
//     nemotron_h_moe's), each read from its GGUF file, its config.json or
//     the catalogue entries that carry the mixer's sizes and the layer order
//     (Falcon-H1, Granite 4.0 H, Jamba-1.5-Mini, Nemotron-H). Other recurrent
//     models build other graphs, and entries without those sizes name no
//     graph; for them the closed form stays: the widest of
//       attention = 4 b (1 + 4 e + c (h + 1)) (flash: 4 b (1 + 4 e) + mask),
//       ffn       = 4 b (4 e + 3 F) + mask, F = f, or for experts
//                   max(k f_exp, (k f_exp + k e) / 3),
//       output    = 4 b (v + 2 e),
//     mask = 4 b c (flash: 2 b c); e hidden, h heads, v vocabulary, f MLP
//     width, k experts per token.
//   - host buffers: the input embeddings and KQ mask are staged on the host,
//     4 b (e + c) bytes ("CUDA_Host compute buffer"), and the logits output
//     buffer holds sequences x v x 4 bytes ("CPU output buffer").
//   - CUDA/Metal context: 457 MiB per CUDA GPU, 512 MiB per Metal GPU
//     (Ollama's per-GPU minimum, section 0.4).
//   - margin: 5 % of usable memory within [256 MiB, 1 GiB] (llama.cpp --fit
//     keeps 1 GiB per device).
//   - Ollama: since v0.30.0 (2026-05-29, ollama/ollama#16031) it runs
//     llama.cpp's llama-server for every GGUF model and leaves the layers to
//     its --fit, so the terms and the margin are llama.cpp's (its older
//     engines reserved one layer per GPU instead, section 3b). What Ollama
//     still chooses: the context by the GPUs' memory when none is given
//     (>= 47 GiB 262144, >= 23 GiB 32768, else 4096 tokens; none on a CPU;
//     the model's trained context caps it) and the batch, which is the
//     micro-batch too (estimate.cpp ollama_default_context and
//     ollama_default_batch, from server/routes.go and server/sched.go).
//   - Offload and several GPUs: llama.cpp numbers the blocks 0..n-1 and the
//     output layer n; -ngl N puts layers n+1-N..n on the GPUs (so the output
//     layer goes first), split over the GPUs in proportion to their memory or
//     --tensor-split, the first GPU taking the lowest layers (section 2b and
//     gguf-parser-go#42). A block off the GPU keeps its KV on the host.
//     --n-cpu-moe N keeps the routed experts of blocks 0..N-1 on the CPU and
//     everything else on the GPU, which is what llama.cpp's fit tries first
//     for MoE models.
//
// vLLM
//   The engine takes gpu_memory_utilization (0.9) x TOTAL memory per GPU
//   (section 4b). From that budget it subtracts the weights (divided by the
//   tensor-parallel size), the activation peak of its profiling run and
//   non-torch memory; the rest becomes KV blocks of 16 tokens. The profile
//   runs max_num_batched_tokens = 8192 tokens (the V1 server default) through
//   the MLP, 2 bytes x tokens x (3 f + 3 e) / TP (the same form as PyTorch
//   below), and samples 256 sequences, about four F32 copies of 256 x v
//   logits. Non-torch memory: 256 MiB per GPU (logged 0.03 to 0.43 GiB,
//   shared/validation/runtime-logs.csv V03, V05, V12). It starts only when one
//   full-length sequence fits; max concurrency = KV tokens / context.
//
// transformers (PyTorch)
//   torch.cuda.max_memory_allocated during generate() is the weights, the KV
//   cache and the larger of two moments, read from transformers' sources
//   (v4.46-4.5x: generation/utils.py, cache_utils.py, models/*/modeling_*.py):
//   - the prefill. generate() asks for the last position's logits only
//     (logits_to_keep, num_logits_to_keep before 4.50) and copies them to F32
//     (next_token_logits ... dtype=torch.float32), so the logits cost
//     v x (bytes + 4). With SDPA (the default) or flash-attention 2 and an
//     unpadded batch the causal mask is None and no P x P scores exist; the
//     widest point is the MLP of one layer over the whole prompt:
//     down_proj(act_fn(gate_proj(x)) * up_proj(x)) holds act(gate), up and
//     their product, three f-wide tensors, beside four e-wide ones (the
//     model loop's inputs_embeds and layer input, the layer's residual and
//     its normed input):
//       activations = bytes x prompt x sequences x (3 f + 4 e) + logits
//     With eager attention (--flash-attn off) eager_attention_forward holds
//     every head's P x P scores in the model dtype, their F32 softmax and its
//     cast back, beside the [P, P] causal mask: P^2 (h (2 B + 4) + B) per
//     sequence, when that is wider than the MLP. At the prefill the
//     DynamicCache holds the prompt only: the generated tokens' cache comes
//     later, so it is taken off the prefill moment.
//   - the end of generation. DynamicCache.update concatenates (torch.cat)
//     each step's key and value onto the layer's cache, a new tensor while the
//     old one is still alive: one layer's K at the full context on top of the
//     whole cache.
//   - MLA (DeepSeek-V2/V3, Kimi Linear's attention, MiniCPM3) caches its
//     latent (estimate.cpp, transformers_cache_layout) and expands it again at
//     every forward: after the cache read, expand_kv runs kv_b_proj over all
//     of the layer's cached tokens and writes the keys into a tensor of their
//     own (huggingface/transformers
//     src/transformers/models/kimi_linear/modeling_kimi_linear.py at
//     c1a44bc9, KimiLinearAttention.expand_kv, the DeepseekV3Attention method
//     its modular file inherits: `self.kv_b_proj(kv_nope)` of shape [batch,
//     tokens, heads x (qk_nope + v_head)], value_states a view of it, and
//     `key_states = kv_nope.new_empty(..., qk_nope + qk_rope)`; pull request
//     #48761, which did the same for DeepSeek-V3.2, calls re-expanding at every
//     decode step the trade-off DeepSeek-V3 took since #47761). So while
//     one layer attends, tokens x heads x (2 qk_nope + v_head + qk_rope)
//     values in the model's dtype are alive: at the end of generation over
//     the whole context, on top of the step's cache copy, and at the prefill
//     over the prompt (beside the eager scores, which read those keys). Per
//     DeepSeek-V3 token 128 x (2 x 128 + 128 + 64) x 2 bytes = 112 KiB.
//   FP8 checkpoints (fp8 e4m3 weights and one 2- or 4-byte weight_scale_inv
//   per 128 x 128 block, at most 0.002 bits per weight, not counted) stay FP8:
//   FP8Linear quantises its input per 128 values and multiplies FP8 by FP8
//   (integrations/finegrained_fp8.py), whose copies are narrower than the
//   product they follow, so the peak is the same as in 16 bits. An FP8
//   checkpoint of a tied-embedding model holds its output head as a 16-bit
//   tensor of its own: beyond their FP8 weights, cache and the few tens of
//   MiB every BF16 run shows, Qwen3-0.6B/1.7B/4B-FP8 hold 297, 594 and 748 MiB
//   at every prompt length, and v x e x 2 = 297, 594 and 742 MiB; the untied
//   8B-FP8 holds nothing more (the line of transformers' loader that unties
//   it was not found: the term rests on those measurements). An AWQ
//   checkpoint of a tied-embedding model holds its 16-bit embedding twice
//   while loading (the Qwen2.5 rows), which is the peak for short prompts.
//   With several GPUs (device_map="auto") each holds such a peak. The CUDA
//   context lives outside the allocator (457 MiB, as above). Measured against
//   Qwen2.5 0.5B-72B (transformers 4.46: the prefill peak) and Qwen3 0.6B-32B
//   (4.51.3: that table records the end of generation) in tests/data.
//
// MLX
//   Unified memory: weights, the KV cache (mlx_lm grows it in steps of 256
//   tokens) and the activations of one prefill step of 2048 tokens (mlx_lm's
//   prefill_step_size), against the macOS GPU working-set limit that
//   usable_memory() applies.
//
// generic
//   Runtime-neutral: every term on the device, llama.cpp's formulas, no host
//   split and no offload plan.
#include "willfit/inference/runtime.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <memory_resource>
#include <type_traits>

#include <fmt/format.h>

#include "willfit/core/bisect.hpp"
#include "willfit/core/text.hpp"
#include "willfit/inference/ggml_alloc.hpp"
#include "willfit/inference/runtime_architectures.hpp"
#include "willfit/inference/runtime_terms.hpp"

namespace willfit {

namespace {
constexpr std::array<Runtime, 6> kRuntimes{Runtime::LlamaCpp, Runtime::Ollama,
                                           Runtime::Vllm,     Runtime::Transformers,
                                           Runtime::Mlx,      Runtime::Generic};
}  // namespace

std::string_view to_string(Runtime runtime) {
  switch (runtime) {
    case Runtime::LlamaCpp:
      return "llama.cpp";
    case Runtime::Ollama:
      return "ollama";
    case Runtime::Vllm:
      return "vllm";
    case Runtime::Transformers:
      return "transformers";
    case Runtime::Mlx:
      return "mlx";
    case Runtime::Generic:
      return "generic";
  }
  return "generic";
}

std::span<const Runtime> all_runtimes() {
  return kRuntimes;
}

Expected<Runtime> parse_runtime(std::string_view text) {
  const std::string key = to_lower(trim(text));
  if (key == "llamacpp" || key == "llama-cpp" || key == "llama_cpp" || key == "llama") {
    return Runtime::LlamaCpp;
  }
  if (key == "pytorch" || key == "torch" || key == "hf") {
    return Runtime::Transformers;
  }
  std::vector<std::string> names;
  for (Runtime r : kRuntimes) {
    if (key == to_string(r)) {
      return r;
    }
    names.emplace_back(to_string(r));
  }
  const std::string hint = did_you_mean(closest(key, names));
  return make_error(
      "unknown runtime '" + trim(text) +
      "': " + (hint.empty() ? "use llama.cpp, ollama, vllm, transformers, mlx or generic" : hint));
}

std::string_view to_string(CpuFeatures f) {
  switch (f) {
    case CpuFeatures::None:
      return "none";
    case CpuFeatures::Avx2:
      return "avx2";
    case CpuFeatures::Avx512:
      return "avx512";
    case CpuFeatures::Neon:
      return "neon";
    case CpuFeatures::Amx:
      return "amx";
  }
  return "none";
}

Expected<CpuFeatures> parse_cpu_features(std::string_view text) {
  const std::string key = to_lower(trim(text));
  for (CpuFeatures f : {CpuFeatures::None, CpuFeatures::Avx2, CpuFeatures::Avx512, CpuFeatures::Amx,
                        CpuFeatures::Neon}) {
    if (key == to_string(f)) {
      return f;
    }
  }
  if (key == "avx-512" || key == "avx512f") {
    return CpuFeatures::Avx512;
  }
  if (key == "arm" || key == "arm64" || key == "aarch64") {
    return CpuFeatures::Neon;
  }
  if (key == "amx-int8" || key == "amx_int8") {
    return CpuFeatures::Amx;
  }
  return make_error("unknown --cpu-features '" + trim(text) +
                    "': use avx2, avx512, amx, neon or none");
}

// The CPU backend's extra buffers. On a CPU-only run llama.cpp's CPU backend
// copies the weights of some types into layouts its matrix kernels read
// faster (ggml/src/ggml-cpu/ggml-cpu.cpp, ggml_backend_cpu_get_extra_buffer_types,
// at the commit node-llama-cpp 3.21.1 bundles, 80fb11ac). The loader gives
// each weight the first of those buffer types whose supports_op accepts the
// operation that reads it (llama-model.cpp, select_weight_buft), AMX first:
//   AMX (ggml-cpu/amx/amx.cpp, on CPUs with AMX-INT8; --cpu-features amx):
//     plain matrix products only (GGML_OP_MUL_MAT: 2-D weights and MLA's 3-D
//     k_b/v_b, never the routed experts' mul_mat_id) whose output rows are a
//     multiple of 32 (supports_op: op->ne[0] % (TILE_N * 2)), of F16, Q4_0,
//     Q4_1, Q8_0, Q4_K, Q5_K, Q6_K and IQ4_XS. The copy is packed for the
//     tile unit (amx/mmq.cpp,
//     ggml_backend_amx_get_alloc_size and get_row_size): per block, Q8_0 adds
//     an int32 compensation (38 bytes for 34), Q4_K and Q5_K 4 bytes of
//     unpacked scales (148 for 144, 180 for 176), IQ4_XS 2 (138 for 136); F16,
//     Q4_0, Q4_1 and Q6_K keep their size.
//   CPU_REPACK (ggml-cpu/repack.cpp, ggml_repack_get_optimal_repack_type):
//     matrix products and mul_mat_id (experts too) of
//       AVX2:    Q4_0, Q4_K, IQ4_NL, MXFP4;  AVX-512 (and AMX CPUs): also Q2_K
//       Arm dot product / i8mm: Q4_0, Q4_K, Q5_K, Q6_K, IQ4_NL, MXFP4, Q8_0
//     at the tensor's own size, each interleaving rows in groups of 8
//     (x86; Arm's Q4_K, Q5_K, Q6_K) or 4 (Arm's Q4_0, IQ4_NL, MXFP4, Q8_0):
//     a weight whose rows (ne[1]) do not fill the groups is not taken
//     (ggml_repack_get_optimal_repack_type: cur->ne[1] % 8, % 4; Jais-13b's
//     13653-row ffn_up and ffn_gate, tests/unit/test_cpu_buffers.cpp).
// Every 2-D weight whose rows come in groups of 8 (most models); not the
// tables get_rows reads (token and per-layer embeddings, learned
// positions), though tied token embeddings are: then the
// output layer is the same tensor loaded again for a matrix product
// (TENSOR_DUPLICATED), and that copy goes to the extra buffer. With the file
// mapped (the default) the copies are anonymous memory next to the mapping,
// whose pages are page cache (the kernel can reclaim them); with --no-mmap the
// loader reads those tensors straight into the extra buffer instead of a
// plain one, so the copy replaces them (llama-model-loader.cpp, load_all_data).
// The live harness checks CPU_REPACK byte for byte (tests/live: Mistral-7B,
// Qwen3-30B-A3B and Mixtral-8x7B Q4_K_M on AVX-512); tests/live/amx_load.c
// loads files with llama.cpp's AMX build and checks the AMX buffer
// (tests/data/llamacpp_cpu_amx.csv).
CpuExtraBuffers cpu_extra_buffers(std::span<const TypedWeights> mix, CpuFeatures features) {
  const auto repacked = [features](std::string_view type) {
    switch (features) {
      case CpuFeatures::None:
        return false;
      case CpuFeatures::Avx2:
      case CpuFeatures::Avx512:
      case CpuFeatures::Amx:
        return type == "Q4_0" || type == "Q4_K" || type == "IQ4_NL" || type == "MXFP4" ||
               (features != CpuFeatures::Avx2 && type == "Q2_K");
      case CpuFeatures::Neon:
        return type == "Q4_0" || type == "Q4_K" || type == "Q5_K" || type == "Q6_K" ||
               type == "IQ4_NL" || type == "MXFP4" || type == "Q8_0";
    }
    return false;
  };
  // AMX's packed bytes per block over the file's (0: not an AMX type).
  const auto amx_ratio = [](std::string_view type) -> double {
    if (type == "F16" || type == "Q4_0" || type == "Q4_1" || type == "Q6_K") {
      return 1.0;
    }
    if (type == "Q8_0") {
      return 38.0 / 34.0;
    }
    if (type == "Q4_K") {
      return 148.0 / 144.0;
    }
    if (type == "Q5_K") {
      return 180.0 / 176.0;
    }
    if (type == "IQ4_XS") {
      return 138.0 / 136.0;
    }
    return 0.0;
  };
  // The rows CPU_REPACK interleaves per type (the repack instance
  // ggml_repack_get_optimal_repack_type picks).
  const auto groups_of_four = [features](std::string_view type) {
    return features == CpuFeatures::Neon &&
           (type == "Q4_0" || type == "IQ4_NL" || type == "MXFP4" || type == "Q8_0");
  };
  CpuExtraBuffers b;
  for (const auto& w : mix) {
    // A tied output layer is copied too, but is no tensor of the file's own:
    // the embeddings stay where they are for get_rows (not `moved`).
    const double amx = features == CpuFeatures::Amx ? amx_ratio(w.type) : 0.0;
    const bool repack = repacked(w.type);
    const bool four = groups_of_four(w.type);
    // The bytes of narrow and experts, and the tied head, that fill no group.
    const Bytes unfilled = four ? w.rows_off4 : w.rows_off8;
    const Bytes tied_output =
        (four ? w.tied_output_off4 : w.tied_output_off8) ? Bytes{0} : w.tied_output;
    if (amx > 0.0) {
      // AMX takes batched products too (its supports_op asks for MUL_MAT
      // and output rows in multiples of 32, not for a 2-D weight), but
      // sizes a packed type by ne[0] and ne[1] alone
      // (ggml_backend_amx_get_alloc_size): one slice of a 3-D weight. The
      // graph's batched product then has no backend that can run it (its
      // activations are not contiguous; AMX's supports_op says no), and
      // llama.cpp aborts at context creation (ggml-backend.cpp,
      // GGML_ASSERT(*cur_backend_id != -1)): measured with amx_load.c on
      // DeepSeek-V2-Lite Q4_K_M.
      const Bytes batched = w.type == "F16" ? w.batched : w.batched_slice;
      const Bytes output = w.tied_output_narrow ? 0 : w.tied_output;
      b.amx += round_bytes(static_cast<double>(w.matmul + output) * amx) +
               round_bytes(static_cast<double>(batched) * amx);
      b.moved += w.matmul + w.batched;
    } else if (repack) {
      b.repack += w.matmul + tied_output;
      b.moved += w.matmul;
    }
    if (repack) {
      // Narrow rows AMX refused, those whose rows fill the interleave.
      b.repack +=
          w.experts + w.narrow - unfilled + (amx > 0.0 && w.tied_output_narrow ? tied_output : 0);
      b.moved += w.experts + w.narrow - unfilled;
    }
  }
  return b;
}

Bytes cpu_repack_bytes(const Model& m, CpuFeatures features) {
  return cpu_extra_buffers(typed_weights(m, Precision{}), features).repack;
}

std::string_view overhead_words(Runtime runtime, const DeviceSet& devices) {
  const bool llama =
      runtime == Runtime::LlamaCpp || runtime == Runtime::Ollama || runtime == Runtime::Generic;
  if (runtime == Runtime::Vllm) {
    return "non-torch memory (CUDA graphs, NCCL)";
  }
  // Ollama ships CUDA, ROCm and Vulkan builds and no SYCL one: it reaches
  // Intel GPUs through Vulkan (ollama/ollama at fb307609: envconfig/config.go
  // OLLAMA_VULKAN, on by default; ml/device.go FlashAttentionSupported names
  // the libraries CUDA, ROCm, Metal, Vulkan and cpu), so its context there
  // is Vulkan's, not llama.cpp's SYCL one.
  if (runtime == Runtime::Ollama && !devices.devices.empty() && !devices.cpu_only() &&
      std::all_of(devices.devices.begin(), devices.devices.end(), [](const Device& d) {
        return d.vendor == "intel" && d.kind != DeviceKind::Accelerator;
      })) {
    return "driver / Vulkan context";
  }
  return llama && devices.cpu_only() ? "llama.cpp process on the CPU, no driver"
                                     : context_words(devices);
}

namespace {

// llama.cpp converts and runs F32, F16 and BF16 (convert_hf_to_gguf.py
// --outtype f32/f16/bf16; ggml-metal and ggml-cpu have BF16 kernels); other
// formats (FP8, bitsandbytes, GPTQ, AWQ) are not GGUF types.
bool float_gguf(const Precision& precision) {
  return !precision.gguf &&
         (precision.id == "fp16" || precision.id == "bf16" || precision.id == "fp32");
}

// Every device of `devices` a Mac (Apple silicon's unified memory).
bool all_apple_silicon(const DeviceSet& devices) {
  return !devices.devices.empty() &&
         std::all_of(devices.devices.begin(), devices.devices.end(), [](const Device& d) {
           return d.vendor == "apple" && d.kind == DeviceKind::Unified;
         });
}

}  // namespace

bool apple_float_on_llama_cpp(const Precision& precision, const DeviceSet& devices) {
  return float_gguf(precision) && all_apple_silicon(devices);
}

bool cpu_float_on_llama_cpp(const Precision& precision, const DeviceSet& devices) {
  return float_gguf(precision) && devices.cpu_only();
}

// On a Mac, "int4" and "int8" are MLX's 4- and 8-bit: mlx_lm.convert -q
// writes them (ml-explore/mlx-lm mlx_lm/utils.py at d78bf58e, quantize_model:
// mode "affine" defaults to groups of 64 at 4 bits, --q-bits 8 on request),
// and they are what Mac users download
// (mlx-community's -4bit and -8bit repositories). PyTorch's integer
// formats (bitsandbytes' LLM.int8 and NF4) are CUDA libraries first, so
// on Apple silicon the MLX reading is the one a user means. A checkpoint
// that is itself quantised for PyTorch (a config.json's bitsandbytes or
// compressed-tensors int8, read as the model's own precision) stays with
// transformers: MLX cannot load it.
bool apple_int_on_mlx(const Precision& precision, const DeviceSet& devices) {
  return (precision.id == "int4" || precision.id == "int8") && all_apple_silicon(devices);
}

// On a Mac, AWQ is what mlx_lm loads (it converts a 4-bit AutoAWQ
// checkpoint on load: mlx_affine) and transformers does not (AWQ has no
// Metal kernel there: runtime_device_conflict).
bool apple_awq_on_mlx(const Precision& precision, const DeviceSet& devices) {
  return precision.id == "awq" && all_apple_silicon(devices);
}

Runtime default_runtime(const Precision& precision, const DeviceSet& devices) {
  if (precision.gguf || apple_float_on_llama_cpp(precision, devices) ||
      cpu_float_on_llama_cpp(precision, devices)) {
    return Runtime::LlamaCpp;
  }
  return apple_int_on_mlx(precision, devices) || apple_awq_on_mlx(precision, devices)
             ? Runtime::Mlx
             : Runtime::Transformers;
}

// Runtimes and architectures (runtime_model_conflict): transformers has no
// RWKV-6 or RWKV-7 class. Its one RWKV model, `rwkv`, is RWKV-4 (the
// ("rwkv", "RWKV") entry of huggingface/transformers
// src/transformers/models/auto/configuration_auto.py at 8ed701e9, the only
// RWKV one); RWKV-6 (huggingface/transformers pull request #34918) and
// RWKV-7 (#47780, after issue #46984 was declined) were open pull requests
// when read (2026-12-05), not merged. The hub's checkpoints run their own
// remote code (trust_remote_code) or flash-linear-attention's classes, whose
// caches willfit has not read, so it gives no transformers figure for them
// rather than one made up: the pair is an error, and with no runtime named a
// 16- or 32-bit float RWKV-6/7 model runs under llama.cpp as a GGUF (which
// has both: rwkv6.cpp, rwkv7.cpp), said in the assumptions.
std::string runtime_model_conflict(Runtime runtime, const Model& model) {
  const int rwkv = model.arch.attention.rwkv;
  if (runtime == Runtime::Transformers && (rwkv == 6 || rwkv == 7)) {
    return fmt::format(
        "transformers has no RWKV-{} class (its `rwkv` model is RWKV-4; the hub's checkpoints "
        "run remote code, which willfit does not model): use --runtime llama.cpp, or a GGUF "
        "precision such as -p q4_k_m",
        rwkv);
  }
  return {};
}

bool float_off_transformers(const Model& model, const Precision& precision,
                            const DeviceSet& devices) {
  return model.source != FactSource::Gguf && float_gguf(precision) &&
         default_runtime(precision, devices) == Runtime::Transformers &&
         !runtime_model_conflict(Runtime::Transformers, model).empty();
}

Runtime default_runtime(const Model& model, const Precision& precision, const DeviceSet& devices) {
  if (model.source == FactSource::Gguf || float_off_transformers(model, precision, devices)) {
    return Runtime::LlamaCpp;
  }
  if (checkpoint_int_for_pytorch(model, precision)) {
    return Runtime::Transformers;
  }
  return default_runtime(precision, devices);
}

bool checkpoint_int_for_pytorch(const Model& model, const Precision& precision) {
  return (model.source == FactSource::Config || model.source == FactSource::Safetensors) &&
         (precision.id == "int4" || precision.id == "int8") && model.precision_hint == precision.id;
}

// Runtimes and devices (runtime_device_conflict):
// - vLLM on a Mac: "On macOS the VLLM_TARGET_DEVICE is automatically set to
//   cpu, which is currently the only supported device" (vLLM docs,
//   getting_started/installation/cpu.apple.inc.md: experimental, built from
//   source, FP32 and FP16); its GPU path for Apple silicon is a separate
//   plugin (vllm-metal, on MLX). willfit's vLLM is the CUDA/ROCm engine
//   (gpu_memory_utilization of a GPU's memory), so it refuses the pair, as it
//   refuses vLLM on a CPU-only machine (its CPU backend sizes the KV cache by
//   VLLM_CPU_KVCACHE_SPACE, not modelled).
// - MLX off Apple silicon: MLX has CUDA and Linux CPU builds (its install
//   page: mlx[cuda12], SM 7.5 and up), but willfit sizes MLX as it runs on
//   Metal (the working-set limit, the Metal context), so other devices are
//   refused rather than answered with a Mac's rules.
// - FP8 under vLLM: "FP8 computation is supported on NVIDIA GPUs with
//   compute capability >= 8.9 ... FP8 models will run on compute capability
//   >= 7.5 (Turing) as weight-only W8A16, utilizing FP8 Marlin" (vLLM docs,
//   features/quantization/fp8; vllm-project/vllm#5975 brought Marlin FP8 to
//   Ampere): the weights stay 8-bit from 7.5 up; below it vLLM refuses.
// - FP8 under transformers: the fine-grained FP8 quantiser wants compute
//   capability 8.9 ("FP8 quantized models is only supported on GPUs with
//   compute capability >= 8.9 (e.g 4090/H100)": huggingface/transformers
//   src/transformers/quantizers/quantizer_finegrained_fp8.py at 0095b976,
//   which raises; at c823c56b it wanted 9.0). Its later versions warn
//   instead, "We will default to dequantizing the model to bf16", and do so
//   too without a CUDA or XPU GPU (a Mac's MPS, a CPU). willfit follows the
//   later behaviour: on such devices the weights count at 16 bits, with a
//   warning (fp8_dequantised).
// - transformers on a Mac (PyTorch's MPS): the Metal column of its
//   quantisation overview (docs/source/en/quantization/overview.md at
//   huggingface/transformers 1d883ec0) marks bitsandbytes ("seeking
//   contributors to help develop and lead the Apple Silicon backend"), AWQ
//   and AutoGPTQ unsupported, GPTQModel supported (its Torch kernel). So NF4
//   and AWQ are refused there; GPTQ runs, through GPTQModel only
//   (transformers_gptq_on_metal, a warning). MLX loads a 4-bit AWQ or GPTQ
//   checkpoint (mlx_affine), so a Mac's AWQ defaults to MLX
//   (apple_awq_on_mlx).
std::string runtime_device_conflict(Runtime runtime, const Precision& precision,
                                    const Device& device, bool name_device) {
  const bool apple = device.vendor == "apple";
  // "(Apple M1 8GB)" after the kind of device, or nothing when the question
  // named no device (willfit which tries them all).
  const std::string named = name_device ? fmt::format(" ({})", device.name) : std::string();
  if (runtime == Runtime::Vllm && apple) {
    return fmt::format(
        "vLLM has no Metal backend: on a Mac{} it runs on the CPU only, which willfit does "
        "not model; runtimes that run on a Mac: llama.cpp, ollama, mlx, transformers (PyTorch "
        "on MPS), generic",
        named);
  }
  if (runtime == Runtime::Vllm && device.kind == DeviceKind::Cpu) {
    return fmt::format(
        "willfit models vLLM on GPUs; its CPU backend{} is not modelled: use --runtime "
        "llama.cpp, ollama, transformers or generic",
        named);
  }
  if (runtime == Runtime::Mlx && device.kind != DeviceKind::Raw &&
      !(apple && device.kind == DeviceKind::Unified)) {
    return fmt::format(
        "willfit models MLX on Apple silicon (Metal) only, and {}: use --runtime llama.cpp, "
        "ollama, vllm, transformers or generic",
        name_device ? device.name + " is not a Mac" : std::string("these devices are not Macs"));
  }
  if (runtime == Runtime::Transformers && apple && device.kind == DeviceKind::Unified) {
    if (precision.id == "nf4") {
      return fmt::format(
          "transformers runs bitsandbytes (NF4) on CUDA, ROCm, Intel and CPUs, not on a Mac{}: "
          "its quantisation overview marks Metal unsupported (docs/source/en/quantization/"
          "overview.md at huggingface/transformers 1d883ec0), and MLX reads no bitsandbytes "
          "checkpoint: use -p int4 (MLX's 4-bit) or -p q4_k_m (llama.cpp)",
          named);
    }
    if (precision.id == "awq") {
      return fmt::format(
          "transformers runs AWQ on CUDA, ROCm, Intel GPUs and CPUs, not on a Mac{}: its "
          "quantisation overview marks Metal unsupported (docs/source/en/quantization/"
          "overview.md at huggingface/transformers 1d883ec0): use --runtime mlx (mlx_lm "
          "converts a 4-bit AWQ checkpoint on load) or -p q4_k_m (llama.cpp)",
          named);
    }
  }
  if (runtime == Runtime::Vllm && precision.id == "fp8") {
    const std::optional<int> cc = nvidia_compute_capability(device);
    if (cc && *cc < 75) {
      return name_device
                 ? fmt::format(
                       "vLLM runs FP8 from compute capability 7.5 (Turing; weight-only through "
                       "Marlin below 8.9), and {} is {}.{}: use another precision or runtime",
                       device.name, *cc / 10, *cc % 10)
                 : std::string(
                       "vLLM runs FP8 from compute capability 7.5 (Turing; weight-only "
                       "through Marlin below 8.9), and these devices are older: use another "
                       "precision or runtime");
    }
  }
  return {};
}

bool transformers_gptq_on_metal(const Precision& precision, Runtime runtime,
                                const DeviceSet& devices) {
  return runtime == Runtime::Transformers &&
         (precision.id == "gptq" || precision.id == "gptq-int8") && all_apple_silicon(devices);
}

std::string runtime_devices_conflict(Runtime runtime, const Precision& precision,
                                     const DeviceSet& devices) {
  for (const Device& d : devices.devices) {
    if (std::string why = runtime_device_conflict(runtime, precision, d); !why.empty()) {
      return why;
    }
  }
  return {};
}

namespace {

// The weight formats a runtime may be asked about, by how the runtime loads
// them (precision.hpp has the precisions themselves).
enum class WeightFamily {
  Float,         // FP32, FP16, BF16
  Fp8,           // FP8 E4M3 checkpoints
  Integer,       // INT8, INT4: idealised widths, not a file format of llama.cpp
  Gguf,          // llama.cpp's block types and recipes (Q4_K_M, Q8_0, IQ2_XS...)
  Bitsandbytes,  // NF4
  GptqAwq,       // GPTQ (4- and 8-bit), AWQ
  Explicit,      // "4.5bpw": a width, not a format; every runtime may be asked
};

WeightFamily weight_family(const Precision& p) {
  if (p.gguf) {
    return WeightFamily::Gguf;
  }
  if (p.id == "fp8") {
    return WeightFamily::Fp8;
  }
  switch (p.kind) {
    case PrecisionKind::Float:
      return WeightFamily::Float;
    case PrecisionKind::Integer:
      return WeightFamily::Integer;
    case PrecisionKind::GroupQuant:
      return p.id == "nf4" ? WeightFamily::Bitsandbytes : WeightFamily::GptqAwq;
    case PrecisionKind::GgufBlock:
    case PrecisionKind::GgufMix:
      return WeightFamily::Gguf;
    case PrecisionKind::Explicit:
      return WeightFamily::Explicit;
  }
  return WeightFamily::Explicit;
}

using F = WeightFamily;

constexpr unsigned bit(WeightFamily f) {
  return 1U << static_cast<unsigned>(f);
}
constexpr unsigned kEveryFamily = bit(F::Float) | bit(F::Fp8) | bit(F::Integer) | bit(F::Gguf) |
                                  bit(F::Bitsandbytes) | bit(F::GptqAwq) | bit(F::Explicit);

// The families each runtime loads, and where each list comes from.
struct RuntimeLoads {
  Runtime runtime;
  unsigned families;       // bit(family) of each it loads
  std::string_view loads;  // what it loads, for the refusal
};

constexpr std::array<RuntimeLoads, 6> kRuntimeLoads{{
    // llama.cpp loads GGUF files: the types of enum ggml_type
    // (ggml/include/ggml.h at ggml-org/llama.cpp 80fb11a: F32, F16, BF16,
    // the Q/IQ/TQ block types, MXFP4, NVFP4; no FP8, no bitsandbytes, GPTQ or
    // AWQ type). A 16/32-bit checkpoint runs once convert_hf_to_gguf.py
    // writes it as F16/BF16/F32.
    {Runtime::LlamaCpp, bit(F::Float) | bit(F::Gguf) | bit(F::Explicit),
     "GGUF types (q4_k_m, q8_0, iq4_xs, ...) and F16/BF16/F32 conversions"},
    // Ollama runs GGUF through its llama.cpp engine; `ollama create` imports
    // safetensors at FP16/FP32 and quantises to its own GGUF types (q8_0,
    // q4_K_M, ...): docs/import.mdx at ollama/ollama fb3076099. It does not
    // load GPTQ, AWQ, bitsandbytes or FP8 checkpoints.
    {Runtime::Ollama, bit(F::Float) | bit(F::Gguf) | bit(F::Explicit),
     "GGUF types (q4_k_m, q8_0, ...) and FP16/BF16 models it converts on import"},
    // vLLM: 16-bit, FP8, INT8/INT4 (compressed-tensors W8A8/W4A16),
    // bitsandbytes, GPTQ, AWQ and (experimental) single-file GGUF (vLLM docs,
    // features/quantization: supported hardware table).
    {Runtime::Vllm, kEveryFamily, ""},
    // transformers: 16/32-bit, FP8 (quantizer_finegrained_fp8), bitsandbytes
    // INT8/NF4, GPTQ, AWQ (src/transformers/quantizers). A GGUF it loads only by
    // dequantising it to FP32 or the dtype given: "When loading a model, we
    // first dequantize it to fp32" (docs/source/en/gguf.md at
    // huggingface/transformers 7f8da518), so a GGUF type is no precision it
    // runs at; the same model at fp16/bf16 is the question to ask.
    {Runtime::Transformers, kEveryFamily & ~bit(F::Gguf),
     "safetensors at FP32/FP16/BF16/FP8, bitsandbytes (int8, nf4), GPTQ and AWQ"},
    // MLX: how each precision is held is mlx_affine's question (precision.hpp).
    // mlx_lm's load_model (ml-explore/mlx-lm mlx_lm/utils.py at d78bf58e)
    // reads MLX's own quantisation and, from a config.json's
    // quantization_config, quant_method bitnet, mxfp4, compressed-tensors,
    // awq and gptq (the last two at 4 bits only: "Only bits=4 is supported
    // for AutoAWQ/GPTQ models"); nothing reads a bitsandbytes checkpoint
    // (NF4), so its packed weights meet no layer that takes them. GPTQ
    // 8-bit: mlx_refuses.
    {Runtime::Mlx, kEveryFamily & ~bit(F::Bitsandbytes),
     "safetensors at FP32/FP16/BF16, its own 4- and 8-bit (int4, int8), 4-bit AWQ and GPTQ "
     "(converted on load) and GGUF files (mlx.core.load)"},
    // generic: a runtime-neutral rule, asked about any width.
    {Runtime::Generic, kEveryFamily, ""},
}};

// Where a family does run, for the refusal's advice.
std::string_view runs_under(WeightFamily f) {
  switch (f) {
    case F::Fp8:
      return "FP8 has no GGUF type (ggml has none) and runs under vLLM or transformers: use "
             "q8_0 for llama.cpp, or --runtime vllm";
    case F::Integer:
      return "INT8/INT4 are not GGUF types (llama.cpp's are q8_0, q4_0, q4_k_m) and run under "
             "vLLM or transformers: use q8_0 or q4_k_m for llama.cpp, or --runtime transformers";
    case F::Bitsandbytes:
      return "NF4 is bitsandbytes, for transformers or vLLM: use q4_k_m for llama.cpp, or "
             "--runtime transformers";
    case F::GptqAwq:
      return "GPTQ and AWQ are for vLLM or transformers: use q4_k_m for llama.cpp, or --runtime "
             "vllm";
    case F::Gguf:
      return "transformers loads a GGUF (gguf_file=) only by dequantising it to FP32 or the "
             "dtype given: ask at --precision bf16, or use --runtime llama.cpp";
    case F::Float:
    case F::Explicit:
      break;
  }
  return "";
}

// A precision of a family MLX loads that mlx_lm still refuses: GPTQ at 8
// bits (_transform_awq_weights raises for any bits but 4).
bool mlx_refuses(Runtime runtime, const Precision& precision) {
  return runtime == Runtime::Mlx && precision.id == "gptq-int8";
}

}  // namespace

bool runtime_loads(Runtime runtime, const Precision& precision) {
  if (mlx_refuses(runtime, precision)) {
    return false;
  }
  const WeightFamily f = weight_family(precision);
  for (const RuntimeLoads& r : kRuntimeLoads) {
    if (r.runtime == runtime) {
      return (r.families & bit(f)) != 0;
    }
  }
  return true;
}

std::string runtime_precision_conflict(Runtime runtime, const Precision& precision) {
  if (runtime_loads(runtime, precision)) {
    return {};
  }
  std::string_view loads;
  for (const RuntimeLoads& r : kRuntimeLoads) {
    if (r.runtime == runtime) {
      loads = r.loads;
    }
  }
  if (runtime == Runtime::Mlx) {
    return fmt::format(
        "{} loads {}, not {}: mlx_lm converts AWQ and GPTQ at 4 bits only and reads no "
        "bitsandbytes checkpoint (mlx_lm/utils.py at ml-explore/mlx-lm d78bf58e, load_model); "
        "use -p {} (MLX's own {}-bit), or -p {} with --runtime llama.cpp",
        to_string(runtime), loads, precision.name, precision.bits_per_weight > 6 ? "int8" : "int4",
        precision.bits_per_weight > 6 ? 8 : 4, precision.bits_per_weight > 6 ? "q8_0" : "q4_k_m");
  }
  return fmt::format("{} loads {}, not {}; {}", to_string(runtime), loads, precision.name,
                     runs_under(weight_family(precision)));
}

bool fp8_dequantised(const Precision& precision, Runtime runtime, const DeviceSet& devices) {
  if (runtime != Runtime::Transformers || precision.id != "fp8") {
    return false;
  }
  return std::any_of(devices.devices.begin(), devices.devices.end(), [](const Device& d) {
    return d.vendor == "apple" || d.kind == DeviceKind::Cpu || !fp8_tensor_cores(d);
  });
}

std::string fp8_capability_unknown(const Precision& precision, Runtime runtime,
                                   const DeviceSet& devices) {
  if (runtime != Runtime::Transformers || precision.id != "fp8" ||
      fp8_dequantised(precision, runtime, devices)) {
    return {};
  }
  const auto it = std::find_if(devices.devices.begin(), devices.devices.end(),
                               [](const Device& d) { return compute_capability_unknown(d); });
  if (it == devices.devices.end()) {
    return {};
  }
  return fmt::format(
      "FP8 weights counted at 8 bits: the compute capability of {} is not known, and "
      "transformers runs FP8 only from compute capability 8.9 (Ada, Hopper, Blackwell), "
      "dequantising it to BF16 (twice the memory) below that; a device file entry can give "
      "\"compute_capability\"",
      it->name);
}

namespace {
bool window_dropped(const Architecture& arch, Runtime runtime) {
  return arch.attention.llama_cpp_no_window && arch.attention.kind == AttentionKind::Sliding &&
         (runtime == Runtime::LlamaCpp || runtime == Runtime::Ollama ||
          runtime == Runtime::Generic);
}
}  // namespace

Architecture arch_as_run(const Architecture& arch, Runtime runtime) {
  if (!window_dropped(arch, runtime)) {
    return arch;
  }
  Architecture a = arch;
  a.attention.kind = AttentionKind::Full;
  a.attention.sliding_window = 0;
  a.attention.sliding_pattern = 0;
  return a;
}

std::string window_as_run_note(const Architecture& arch, Runtime runtime) {
  if (!window_dropped(arch, runtime)) {
    return "";
  }
  return fmt::format(
      "full attention on every layer under {}: llama.cpp builds this architecture without its "
      "{}-token sliding window (llama.cpp 80fb11ac: a Mistral v0.1 GGUF is arch llama, whose "
      "src/models/llama.cpp sets no window; phi3.cpp switches Phi-3's off), so every layer "
      "caches the whole context",
      runtime == Runtime::Ollama ? "Ollama (llama-server)" : "llama.cpp",
      arch.attention.sliding_window);
}

Precision precision_as_run(const Precision& precision, Runtime runtime, const DeviceSet& devices) {
  if (runtime == Runtime::Mlx) {
    return precision.gguf ? mlx_from_gguf(precision) : mlx_affine(precision);
  }
  if (fp8_dequantised(precision, runtime, devices)) {
    auto bf16 = parse_precision("bf16");
    Precision p = bf16 ? *bf16 : precision;
    p.name = "FP8 dequantised to BF16";
    p.note =
        "FP8 checkpoint dequantised to BF16 on load: transformers runs FP8 on GPUs of compute "
        "capability 8.9 and up (Ada, Hopper, Blackwell), and dequantises it elsewhere";
    p.source = precision.source;
    return p;
  }
  return precision;
}

namespace detail {
namespace {

constexpr Bytes kCudaContext = 457 * kMiB;
constexpr Bytes kMetalContext = 512 * kMiB;
// A CPU-only llama.cpp holds no driver context: what its process holds before
// any model is its libraries and the CPU backend. Measured by the live harness
// (tests/live/run_llama.mjs, process_rss_llama_bytes): node-llama-cpp 3.21.1's
// llama.cpp grows the process by 9.5 MiB on loading (Debian 12, x86-64,
// 2026-12-01); rounded up to 10 MiB.
constexpr Bytes kCpuProcess = 10 * kMiB;
constexpr Bytes kMarginMin = 256 * kMiB;
constexpr Bytes kMarginMax = 1 * kGiB;
constexpr Bytes kVllmNonTorch = 256 * kMiB;
constexpr std::int64_t kVllmBatchedTokens = 8192;
constexpr std::int64_t kVllmSampledSeqs = 256;
constexpr std::int64_t kVllmBlock = 16;
constexpr std::int64_t kMlxPrefillStep = 2048;

Bytes context_overhead(const Device& d) {
  const bool metal = d.vendor == "apple" && d.kind == DeviceKind::Unified;
  return metal ? kMetalContext : kCudaContext;
}

Bytes margin_for(Bytes usable) {
  return std::clamp<Bytes>(usable / 20, kMarginMin, kMarginMax);
}

double f(std::int64_t x) {
  return static_cast<double>(x);
}

// The MLP width that is live per token: the dense intermediate size, or the
// experts used per token times the expert width.
std::int64_t active_ffn(const Architecture& a) {
  if (a.moe && a.moe->experts > 0) {
    return std::int64_t{std::max(1, a.moe->experts_per_token)} *
           std::max<std::int64_t>(a.moe->expert_intermediate_size, 1);
  }
  return a.intermediate_size;
}

struct LlamaCompute {
  Bytes device = 0;
  Bytes host = 0;
  Bytes output_buffer = 0;
  std::string widest;
};

// The MLP width that is live per token at the widest point of the MLP
// (runtime.cpp essay, "ffn"): f for a dense MLP; for routed experts the k
// experts' f_exp-wide activations, or their e-wide down projections next to
// the product when those are wider.
double ffn_width(const Architecture& a) {
  if (a.moe && a.moe->experts > 0) {
    const double k = f(std::max(1, a.moe->experts_per_token));
    const double fe = f(std::max<std::int64_t>(a.moe->expert_intermediate_size, 1));
    const double routed = std::max(k * fe, (k * fe + k * f(a.hidden_size)) / 3.0);
    return a.moe->first_dense_layers > 0 || a.moe->residual_mlp
               ? std::max(routed, f(a.intermediate_size))
               : routed;
  }
  return f(a.intermediate_size);
}

// Nemotron-H's layers, one block each (nemotron-h.cpp): the layer order
// marks its MLP-only blocks 'F'.
bool single_blocks(const Architecture& a) {
  return (std::ssize(a.attention.layer_mixers) == a.layers &&
          a.attention.layer_mixers.find('F') != std::string::npos) ||
         purely_recurrent(a);
}

// The keys DeepSeek Sparse Attention's indexer keeps per token: the file's or
// config's, else 2048, the index_topk of every such model in the catalogue
// (deepseek-ai/DeepSeek-V3.2-Exp and zai-org/GLM-5.1 config.json).
std::int64_t index_top_k(const Architecture& a) {
  return a.attention.index_top_k > 0 ? a.attention.index_top_k : 2048;
}

LlamaCompute llama_compute(const Inputs& in, std::int64_t cells) {
  const Architecture& a = in.q.model.arch;
  const std::int64_t tokens = std::max<std::int64_t>(1, std::min(in.ubatch, in.context * in.batch));
  // Without a KV cache the attention reads the micro-batch alone
  // (build_attn_inp_no_cache: a mask of tokens x tokens), as llama-embed's
  // graph does beside its unused cache.
  if (a.attention.no_kv_cache || a.attention.uncached_graph) {
    cells = tokens;
  }
  const double b = f(tokens);
  const double c = f(cells);
  const double e = f(a.hidden_size);
  LlamaCompute r;
  // Attention and MLP blocks: replay ggml-alloc over llama.cpp's graph
  // (ggml_alloc.cpp), MLA included, Kimi Linear's and Kimi K3's KDA too
  // (K3's cross-layer residual stack, latent experts and output gates as a
  // graph of its own). Other recurrent mixers build other graphs: for them
  // the closed form below (the widest of scores, MLP and logits) stays.
  // Ling 3 (bailingmoe3.cpp: both gates full rank) is Kimi Linear's layout.
  const bool kimi_k3 = a.attention.kda && !a.attention.kda_full_rank_decay &&
                       (a.attention.kda_full_rank_gate || a.attention.mla_output_gate ||
                        (a.moe && a.moe->latent_size > 0));
  // DeepSeek-V4 (deepseek4.cpp) builds a graph of its own (hyper-connection
  // streams, compressors, indexer, grouped output): replayed by a builder of
  // its own (deepseek4_forward_graph) when its layer kinds are known.
  const bool dsv4_replay = compressed_attention(a) &&
                           std::ssize(a.attention.compress_layers) == a.layers && a.moe &&
                           a.moe->experts > 0 && a.hyper_connections > 0;
  const bool replay =
      !compressed_attention(a) &&
      (a.attention.kind == AttentionKind::Full || a.attention.kind == AttentionKind::Sliding ||
       (a.attention.kind == AttentionKind::Hybrid &&
        (a.attention.short_conv_cache > 0 || a.attention.delta_net_v_heads > 0 ||
         a.attention.lightning || a.attention.rwkv == 6 || a.attention.rwkv == 7 ||
         // Mamba blocks laid out as the replay builds them: a mixer and an
         // MLP in every layer, or Nemotron-H's blocks with their order
         (a.attention.mamba > 0 && (a.mlp_layers <= 0 || single_blocks(a))))) ||
       (a.attention.kind == AttentionKind::Mla && a.attention.kv_lora_rank > 0));
  // An embedding model without a KV cache: an encoder (bert and kin).
  // llama-embed's graph ends at its embeddings too, beside its unused cache
  // (t5encoder's encoder too, though llama.cpp gives it an unused cache).
  const bool encoder =
      in.q.model.embedding && (a.attention.no_kv_cache || a.attention.uncached_graph ||
                               (a.relative_buckets > 0 && a.decoder_layers == 0));
  const auto explain_replay = [&](std::string_view graph, int layers) {
    if (in.explain) {
      r.widest = fmt::format(
          "high-water mark of llama.cpp's allocator replayed over {} of {} {}-token step ({} "
          "layers{})",
          graph, indefinite_article(tokens), tokens, layers,
          encoder ? ", no logits: an encoder ends at its embeddings" : " and the logits");
    }
  };
  if (a.relative_buckets > 0) {
    // T5 (t5.cpp; ggml_alloc.cpp t5_graph): llama.cpp reserves the graph of
    // its context's default type, the decoder's for t5 (its cross-attention
    // over n_ctx_train encoder rows, build_inp_cross_embd, as no encoder
    // output exists yet), the encoder's for t5encoder (attending over the
    // micro-batch alone, not over the cache llama.cpp gives it). The
    // encoder's graph of an encoder-decoder is not reserved: at llama_encode
    // ggml-alloc grows the buffer if it needs more, which it does not, as
    // its scores are tokens x tokens against the decoder's cells x tokens
    // and it has no logits.
    T5GraphShape s;
    s.decoder = a.decoder_layers > 0;
    s.tokens = tokens;
    s.cells = cells;
    s.encoder_rows = a.max_context > 0 ? a.max_context : 512;
    s.layers = std::max(1, s.decoder ? a.decoder_layers : a.layers);
    s.hidden = a.hidden_size;
    s.heads = a.heads;
    s.kv_heads = a.kv_heads;
    s.head_dim = a.head_dim;
    s.ffn = a.intermediate_size;
    s.gated = a.mlp_gated;
    s.vocab = a.vocab_size;
    s.flash = in.flash;
    s.v_value_bytes = in.v_type.bytes_per_element();
    s.rotate_k = s.decoder && in.k_type.quantised() && a.head_dim % 64 == 0;
    s.rotate_v = s.decoder && in.v_type.quantised() && a.head_dim % 64 == 0;
    r.device = ggml_graph_peak(t5_graph(s));
    explain_replay(s.decoder ? "T5's decoder graph" : "T5's encoder graph", s.layers);
  } else if (dsv4_replay) {
    // The caches as llama.cpp sizes them (compressed_kv_bytes): the window
    // of raw keys, one pooled key per 4 and per 128 tokens; one sequence's
    // stream (llama-kv-cache-dsv4.cpp keeps one per sequence).
    const std::int64_t ctx = std::max<std::int64_t>(1, in.context);
    const std::int64_t pad = in.q.kv_pad;
    Dsv4GraphShape s;
    s.tokens = tokens;
    s.raw_cells = pad_context(std::min(ctx, std::int64_t{a.attention.sliding_window} +
                                                std::max<std::int64_t>(0, in.ubatch)),
                              pad);
    s.csa_cells = pad_context(std::max<std::int64_t>(1, (ctx + 3) / 4), pad);
    s.hca_cells = pad_context(std::max<std::int64_t>(1, (ctx + 127) / 128), pad);
    s.ratios = a.attention.compress_layers;
    s.hidden = a.hidden_size;
    s.heads = a.heads;
    s.head_dim = std::int64_t{std::max(1, a.kv_heads)} * a.head_dim;
    s.q_lora = a.attention.q_lora_rank;
    s.o_groups = std::max(1, a.attention.o_groups);
    s.o_lora = a.attention.o_lora_rank;
    s.index_heads = a.attention.index_heads;
    s.index_dim = a.attention.index_head_dim;
    if (a.attention.index_top_k > 0) {
      s.index_topk = a.attention.index_top_k;
    }
    s.streams = a.hyper_connections;
    s.experts = a.moe->experts;
    s.experts_used = a.moe->experts_per_token;
    s.expert_ffn = a.moe->expert_intermediate_size;
    s.shared_ffn = shared_expert_width(*a.moe);
    s.hash_layers = a.hash_layers;
    s.vocab = a.vocab_size;
    s.flash = in.flash;
    s.k_value_bytes = in.k_type.bytes_per_element();
    // llama-kv-cache.cpp attn_rot_k: a quantised cache of heads a multiple of 64
    s.rotate_k = in.k_type.quantised() && s.head_dim % 64 == 0;
    r.device = ggml_graph_peak(deepseek4_forward_graph(s));
    explain_replay("DeepSeek-V4's graph", a.layers);
  } else if (replay) {
    LlamaGraphShape s;
    s.tokens = tokens;
    s.cells = cells;
    s.swa_cells =
        window_cells(a, {in.context, in.batch, in.ubatch, in.k_type, in.v_type, in.q.kv_pad, true});
    // No cache: a windowed model's windowed layers too attend over the
    // micro-batch alone (build_attn_inp_no_cache: both masks tokens x tokens).
    if (a.attention.no_kv_cache && s.swa_cells > 0) {
      s.swa_cells = cells;
    }
    s.swa_every = a.attention.sliding_pattern;
    // Step-3.5 (step35.cpp): global layers first in each group of the
    // pattern, with heads of their own; a head-wise gate; the rows to output
    // picked after the last layer, whose output (t_h_nextn) is kept.
    s.swa_global_first = a.attention.global_first;
    s.global_heads = a.attention.global_heads;
    s.head_gate = a.attention.head_gate;
    // MiMo-V2-Flash (mimo2.cpp): the global layers as listed, with KV heads
    // of their own (two caches); V heads narrower than K's; the output scaled.
    if (a.attention.kind == AttentionKind::Sliding) {
      s.window_layers = a.attention.window_layers;
      if (a.attention.global_head_dim <= 0) {
        s.global_kv_heads = a.attention.global_kv_heads;
      }
    }
    s.value_head_dim = a.attention.value_head_dim;
    s.value_scale = a.attention.value_scale;
    // AFMoE (afmoe.cpp), marked by its output gate: Q and K normed per head too.
    s.output_gate = a.attention.output_gate;
    s.qk_norm = a.attention.output_gate;
    // Chameleon (chameleon.cpp): Q and K LayerNormed per head (new tensors,
    // weight and bias in place), Swin-style norms, the image logits masked.
    s.qk_norm = s.qk_norm || a.attention.qk_layer_norm;
    s.swin_norm = a.swin_norm;
    s.masked_image_logits = a.masked_image_logits;
    // CogVLM (cogvlm.cpp): chatglm.cpp's fused QKV path (fused_qkv) with a
    // gated MLP, and no rows to output picked; its visual expert's weights
    // are not in a text micro-batch's graph. A DFlash draft (dflash.cpp's
    // decoder graph) picks no rows either: its head runs over the whole block.
    s.no_out_ids = a.visual_expert || a.dflash_target_layers > 0;
    // Granite Switch (granite-switch.cpp): its own graph (ggml_alloc.cpp).
    s.adapter_rank = a.adapters > 0 ? a.adapter_rank : 0;
    s.embedding_skip = a.embedding_skip;  // Talkie (talkie.cpp)
    s.head_rows = a.head_rows;            // Qwen3-TTS's codec head (qwen3vl.cpp)
    // Cohere2 MoE (cohere2moe.cpp): the parallel block, NoPE on the global
    // layers after the dense lead, the rows to output picked after the final
    // norm (its t_h_nextn an output), the router's weights as the file says.
    // GPT-J's (no llama.cpp graph) is not among them.
    const ParallelBlock block = a.attention.parallel_block;
    s.parallel_block = block == ParallelBlock::NeoX || block == ParallelBlock::Cohere ||
                       block == ParallelBlock::Plamo || block == ParallelBlock::Falcon;
    // plamo.cpp; falcon.cpp builds the same block (the same adds, the rows
    // to output picked after the attention) with LayerNorms, GELU's MLP, Q,
    // K and V of one wqkv without a bias (Q and K roped from views: the
    // fused path), and Falcon-40B's second norm, attn_norm_2.
    s.plamo_parallel = block == ParallelBlock::Plamo || block == ParallelBlock::Falcon;
    s.falcon_parallel = block == ParallelBlock::Falcon;
    s.falcon_norm_2 = s.falcon_parallel && !a.gpt2_one_norm;
    // phi2.cpp: the same block with the adds the other way round (wo before
    // the MLP); Q, K and V apart as the converter writes them, or an older
    // file's one attn_qkv (the fused path).
    s.phi2_parallel = block == ParallelBlock::Phi2;
    // Nemotron's LayerNorm with its bias (norm_bias beside an ungated MLP;
    // phimoe's biased norm is llama.cpp's RMS norm plus the bias). Orion's
    // (orion.cpp LLM_NORM) beside a gated dense MLP: phimoe has experts.
    // (Talkie's weightless norms are RMS norms, not OLMo-1's LayerNorms.)
    // GPT-2's layer as a decoder builds it with LayerNorms too, where the
    // replay is not GPT-2's block (starcoder2.cpp: the final norm a new
    // tensor, 6 MiB more than an RMS norm in place on StarCoder2-3B's live
    // rows at 512 tokens).
    s.layer_norm = (a.norm_bias && (!a.mlp_gated || !a.moe)) ||
                   (a.weightless_norms && !a.embedding_skip) ||
                   (a.gpt2_layer && !a.attention.no_kv_cache);
    s.weightless_norms = a.weightless_norms;  // OLMo-1 (olmo.cpp)
    s.sub_norms = a.sub_norms;                // BitNet (bitnet.cpp)
    s.nope_global = a.attention.nope_global;
    // Cohere's (cohere2moe.cpp), not GPT-NeoX's or PLaMo's
    s.out_ids_after_norm = block == ParallelBlock::Cohere;
    // Laguna (laguna.cpp) shares Step-3.5's layer kinds and head-wise gate
    // but picks the rows inside its last layer, as afmoe.cpp does.
    if ((a.attention.global_first || a.attention.head_gate) && !a.attention.softplus_gate) {
      s.late_out_ids = true;
      s.hidden_output = true;
    }
    s.layers = std::max(1, a.layers * std::max(1, a.loops));  // Nanbeige: every pass
    s.hidden = a.hidden_size;
    s.heads = a.heads;
    s.kv_heads = a.kv_heads;
    s.head_dim = a.head_dim;
    s.ffn = a.intermediate_size;
    s.gated = a.mlp_gated;
    s.fused_qkv_norm = a.attention.fused_qkv_norm;  // OpenELM (openelm.cpp)
    s.sandwich_norms = a.attention.sandwich_norms;  // PLaMo 3 (plamo3.cpp)
    // ChatGLM (chatglm.cpp), Falcon, an older Phi-2 file's attn_qkv
    s.fused_qkv =
        a.attention.fused_qkv || s.falcon_parallel || (s.phi2_parallel && !a.gpt2_separate_qkv);
    s.fused_qkv_clamp = a.attention.fused_qkv_clamp;  // DBRX (dbrx.cpp)
    s.qkv_bias = a.qkv_bias;
    s.fused_gate_up = a.fused_gate_up;
    s.post_norm = a.attention.post_norm && a.attention.no_kv_cache;      // bert.cpp's encoder block
    s.no_cache = a.attention.no_kv_cache || a.attention.uncached_graph;  // llama-embed
    // ALiBi (no positions, no RoPE): jina-bert-v2, with a fused GEGLU;
    // Baichuan's 13B (baichuan.cpp), a llama layer otherwise; the ALiBi
    // decoders (bloom.cpp, mpt.cpp, jais.cpp, refact.cpp): no inp_pos, no
    // RoPE, the MLP as mlp_gated says.
    s.alibi = a.attention.alibi;
    // bert.cpp's absolute positions (a learned table; Architecture::
    // learned_positions): the table's rows are added to the embeddings and
    // Q, K and V projected apart, unroped.
    s.rope = s.rope && !s.alibi && !(s.post_norm && a.learned_positions > 0);
    s.embedding_norm = a.embedding_norm;  // bloom.cpp's tok_norm
    // ModernBERT (modern-bert.cpp): the cache-free block that is pre-norm,
    // with Q, K and V fused and gate and up fused (read so from its
    // config.json and its GGUF alike).
    s.modern_bert = s.no_cache && !s.post_norm && a.attention.fused_qkv && a.fused_gate_up;
    // nomic-bert-moe: experts on every second layer (nomic-bert-moe.cpp)
    if (s.post_norm && a.moe) {
      s.moe_step = a.moe->layer_step;
    }
    // GPT-2 and StarCoder (gpt2.cpp, starcoder.cpp): learned positions
    // beside an ungated MLP mark their block.
    // GPT-NeoX (gptneox.cpp) builds the same layer with RoPE in place of the
    // table: its mark is ChatGLM's fused QKV with bias beside the ungated
    // MLP, and its attention is chatglm.cpp's (Q and K roped from views).
    const bool neox_block = a.attention.fused_qkv && a.qkv_bias && a.learned_positions == 0;
    s.gpt2_block = (a.learned_positions > 0 || neox_block) && !a.mlp_gated &&
                   !a.attention.no_kv_cache && !a.moe && a.attention.kind == AttentionKind::Full;
    // bloom.cpp, mpt.cpp and jais.cpp build GPT-2's layer with ALiBi and no
    // position table (jais.cpp with a SwiGLU MLP, which the gated MLP
    // replays): Q, K and V stay views of the fused projection, unroped.
    // refact.cpp's is llama's layer without RoPE.
    if (a.attention.alibi && !a.attention.no_kv_cache && (!a.mlp_gated || a.attention.fused_qkv) &&
        !a.moe) {
      s.gpt2_block = true;
      s.fused_qkv = false;
    }
    s.position_rows = s.gpt2_block && a.learned_positions > 0;
    for (const LayerWidths& l : a.layer_widths) {  // Nemotron NAS (deci.cpp), OpenELM
      s.per_layer.push_back({l.heads, l.kv_heads, l.ffn});
    }
    if (a.moe && a.moe->experts > 0) {
      s.experts = a.moe->experts;
      s.experts_used = a.moe->experts_per_token;
      s.expert_ffn = a.moe->expert_intermediate_size;
      s.dense_layers = a.moe->first_dense_layers;
      // llama.cpp sizes every shared expert as one MLP of n x f_exp
      // (deepseek2.cpp ffn_*_shexp; llama4.cpp n_ff_shexp = n_ff_exp).
      s.shared_ffn = shared_expert_width(*a.moe);
      // Llama 4 (chunked attention is its mark here) routes its own way.
      s.weights_before_ffn = a.attention.chunked;
      s.expert_bias = a.moe->selection_bias;
      s.router_reads_layer_input = a.moe->router_reads_layer_input;
      s.moe_norm_weights = a.moe->weights_normalized;
      s.arctic = a.moe->residual_mlp;
      s.group_experts = a.moe->experts_per_group;  // GroveMoE (grovemoe.cpp)
      s.group_expert_ffn = a.moe->group_expert_width;
    }
    if (uses_mla(a) && a.attention.mla_cached_per_head) {
      // MiniCPM3 (minicpm3.cpp): MLA's projections, then ordinary attention
      // over a per-head cache (K heads x head_dim, V heads x v_head_dim).
      s.mla_q_lora = a.attention.q_lora_rank;
      s.mla_rope = a.attention.qk_rope_head_dim;
      s.mla_nope = a.attention.qk_nope_head_dim;
      s.mla_v = a.attention.v_head_dim;
      s.value_head_dim = a.attention.v_head_dim;
      s.mla_per_head_lora = a.attention.kv_lora_rank;
      s.mla_unscaled_head = a.attention.mla_unscaled_head;  // PLM
    } else if (uses_mla(a)) {
      s.mla_kv_lora = a.attention.kv_lora_rank;
      s.mla_rope = a.attention.qk_rope_head_dim;
      s.mla_nope = a.attention.qk_nope_head_dim;
      s.mla_v = a.attention.v_head_dim;
      s.k_value_bytes = in.k_type.bytes_per_element();
      // DeepSeek Sparse Attention (deepseek32.cpp, glm-dsa.cpp): compressed
      // queries and the lightning indexer; GLM-5.2's shared indexers where
      // fewer layers than all have their own.
      if (a.attention.index_head_dim > 0 && a.attention.index_heads > 0) {
        s.q_lora = a.attention.q_lora_rank;
        s.index_heads = a.attention.index_heads;
        s.index_head_dim = a.attention.index_head_dim;
        s.index_top_k = index_top_k(a);
        s.shared_indexers = a.attention.indexer_layers > 0 &&
                            a.attention.indexer_layers < a.layers &&
                            windowed_mla_layer_count(a) == 0;
      }
      // dots.llm3: windowed MLA layers of their own shape (dots3note.cpp).
      if (windowed_mla_layer_count(a) > 0) {
        const Architecture w = windowed_mla_shape(a);
        s.dots3 = true;
        s.window_layers = a.attention.window_layers;
        s.q_lora = a.attention.q_lora_rank;
        s.mla_swa_heads = w.heads;
        s.mla_swa_kv_lora = w.attention.kv_lora_rank;
        s.mla_swa_nope = w.attention.qk_nope_head_dim;
        s.mla_swa_v = w.attention.v_head_dim;
      }
    }
    // MiniMax-M3's sparse attention (minimax-m3.cpp): with flash attention
    // its indexer layers (the trailing ones) select blocks of the cache per
    // indexer head; at reserve the cache is empty, so the position axis is
    // llama_kv_cache_msa_context::get_n_pos's 256, in MiniMax-M3's blocks of
    // 128 (sparse_block_size), its top 16 (sparse_topk_blocks) kept.
    if (!uses_mla(a) && a.attention.index_head_dim > 0 && a.attention.index_heads > 0) {
      s.msa_index_heads = a.attention.index_heads;
      s.msa_index_dim = a.attention.index_head_dim;
      s.msa_from = a.layers - indexer_layer_count(a);
    }
    // An encoder's graph ends at its embeddings (bert.cpp, modern-bert.cpp,
    // gemma-embedding.cpp: res->t_embd, no output head): no logits. Checked
    // live on nomic-bert and gemma-embedding (docs/live-llamacpp.md,
    // nomic-embed-text and EmbeddingGemma runs). Diffusion LMs, cache-free
    // too, do produce logits.
    s.vocab = encoder ? 0 : a.vocab_size;
    s.deepstack = a.deepstack_layers;
    s.late_out_ids = s.late_out_ids || a.attention.sinks;
    // Gemma 4 (gemma4.cpp), marked here by its global layers' own head width:
    // those layers at global_head_dim and global_kv_heads, K as V; the rows
    // to output picked after the final norm (embeddings_nextn_masked is off,
    // the normed state t_h_nextn an output); its MoE layers' dense MLP of
    // intermediate_size beside the experts (the catalogue's shared experts).
    if (a.attention.kind == AttentionKind::Sliding && a.attention.global_head_dim > 0) {
      s.global_head_dim = a.attention.global_head_dim;
      s.global_kv_heads = a.attention.global_kv_heads;
      s.global_k_eq_v = a.attention.global_k_eq_v;
      s.out_ids_after_norm = true;
      s.moe_beside_mlp = s.experts > 0 && s.shared_ffn > 0;
      // E2B/E4B: per-layer inputs, the last layers reading the cache of
      // earlier ones, E2B's double-wide MLP there.
      s.ple_width = a.per_layer_width;
      s.kv_layers = a.attention.kv_shared_layers > 0 ? a.layers - a.attention.kv_shared_layers : 0;
      s.wide_ffn_layers = a.double_wide_mlp_layers;
    }
    if (a.altup_inputs > 1 && a.per_layer_width > 0) {
      // Gemma 3n: AltUp streams, per-layer inputs, LAuReL, the shared-KV
      // layers reading the cache of the last layers that keep one, and the
      // activation sparsity of the first 10 layers (llama.cpp src/models/
      // models.h, llama_model_gemma3n::graph::n_layer_sparsity, a fixed 10).
      s.altup = a.altup_inputs;
      s.ple_width = a.per_layer_width;
      s.laurel_rank = std::max<std::int64_t>(1, a.laurel_rank);
      s.kv_layers = a.attention.kv_shared_layers > 0 ? a.layers - a.attention.kv_shared_layers : 0;
      s.sparse_layers = std::min(10, a.layers);
    }
    if (a.attention.kind == AttentionKind::Hybrid) {
      // LFM2: the file's own layer order, else the attention layers spread
      // evenly (the catalogue gives only their count).
      s.conv_cache = a.attention.short_conv_cache;
      s.mixers = a.attention.layer_mixers;
      // Qwen3-Next: gated delta nets, gated attention and shared expert,
      // the output rows picked after the final norm (qwen3next.cpp).
      s.dn_k_heads = a.attention.delta_net_k_heads;
      s.dn_v_heads = a.attention.delta_net_v_heads;
      s.dn_head = a.attention.delta_net_head_dim;
      s.dn_conv = a.attention.delta_net_conv;
      // Granite 4 H and Jamba: Mamba-2 or Mamba-1 mixers on the recurrent
      // layers, attention without RoPE; Jamba's experts on every second
      // layer. Falcon-H1: a Mamba-2 mixer beside every layer's attention
      // (every layer is both), with RoPE.
      s.mamba_beside = a.attention.mamba == 2 && a.attention.attention_layers == a.layers &&
                       a.attention.recurrent_layers == a.layers;
      s.mamba = s.mamba_beside ? 0 : a.attention.mamba;
      s.ssm_conv = a.attention.ssm_conv;
      s.ssm_inner = a.attention.ssm_inner;
      s.ssm_state = a.attention.ssm_state;
      s.ssm_heads = a.attention.ssm_heads;
      s.ssm_groups = a.attention.ssm_groups;
      s.rope = s.mamba == 0 || s.mamba == 3;  // PLaMo 2's attention keeps RoPE
      // jamba.cpp: router weights used as they are (norm_w false), the
      // residual stream first in both residual adds.
      s.moe_norm_weights = s.mamba != 1;
      s.residual_first = s.mamba == 1;
      if (a.moe) {
        s.moe_step = a.moe->layer_step;
      }
      // Kimi Linear (kimi-linear.cpp): Kimi Delta Attention on the 'R'
      // layers, MLA without RoPE on the others (mla_use_nope).
      s.kda = a.attention.kda;
      // MiniMax-01 (minimax-01.cpp): lightning attention on the 'R' layers,
      // the normed input as every residual.
      s.minimax01 = a.attention.lightning;
      // Ling 3 (bailingmoe3.cpp): its MLA has RoPE and compressed queries,
      // a head-wise output gate, and the rows to output are picked after
      // the final norm (t_h_nextn kept for the MTP head).
      s.ling3 = s.kda && a.attention.kda_full_rank_decay;
      s.rope = s.rope && (!s.kda || s.ling3);
      if (s.ling3) {
        s.q_lora = a.attention.q_lora_rank;
      }
      const bool qwen3next = s.dn_v_heads > 0 && !s.kda;  // Qwen3-Next or Qwen3.5
      s.gated_attention = qwen3next;
      s.shared_gate = qwen3next && s.shared_ffn > 0;  // Qwen3.5 dense: no shared expert
      // Nemotron-H: one block a layer, the output rows picked after the
      // final norm (nemotron-h.cpp).
      s.single_block = single_blocks(a);
      s.mixer_blocks = purely_recurrent(a);  // mamba.cpp
      // mamba.cpp adds ggml_add(cur, inpL) with cur a reshape of ssm_out's
      // output: ggml-alloc reuses no parent through a reshape, so the sum
      // takes the residual stream's memory, as Jamba's does.
      s.residual_first = s.residual_first || s.mixer_blocks;
      s.ssm_plain_dt = a.attention.ssm_plain_dt;
      // RWKV-6 and RWKV-7 (rwkv6.cpp, rwkv7.cpp): graphs of their own
      s.rwkv = a.attention.rwkv;
      s.rwkv_time_mix_extra = a.attention.rwkv_time_mix_extra;
      s.rwkv_time_decay_extra = a.attention.rwkv_time_decay_extra;
      s.rwkv_lora_decay = a.attention.rwkv_lora_decay;
      s.rwkv_lora_iclr = a.attention.rwkv_lora_iclr;
      s.rwkv_lora_value = a.attention.rwkv_lora_value;
      s.rwkv_lora_gate = a.attention.rwkv_lora_gate;
      s.rwkv_token_shifts = a.attention.rwkv_token_shift_count;
      s.out_ids_after_norm = qwen3next || (s.single_block && !s.mixer_blocks) || s.ling3;
      if (std::ssize(s.mixers) != s.layers) {
        const int attention = attention_layer_count(a);
        s.mixers.clear();
        for (int i = 0; i < s.layers; ++i) {
          s.mixers += (i + 1) * attention / s.layers > i * attention / s.layers ? 'A' : 'R';
        }
      }
    }
    // Kimi K3: compressed MLA queries, routed experts in their latent, and
    // a checkpoint of the residual stream every 12 layers (K3's
    // attn_res_block_size, config.json at f831ab66; no reader carries it).
    if (kimi_k3) {
      s.kimi_k3 = true;
      s.mla_q_lora = a.attention.q_lora_rank;
      s.expert_latent = a.moe ? a.moe->latent_size : 0;
      s.res_block = 12;
    }
    // Qwen4Exp (qwen4exp.cpp): a graph of its own (ggml_alloc.cpp).
    if (a.hyper_connections > 0 && a.hc_low_rank > 0) {
      s.qwen4exp = true;
      s.hc_streams = a.hyper_connections;
      s.hc_rank = a.hc_low_rank;
      s.qsa_block = std::max(1, a.attention.index_block);
      s.index_heads = a.attention.index_heads;
      s.index_head_dim = a.attention.index_head_dim;
      s.index_top_k = a.attention.index_top_k;
      s.msa_index_heads = 0;
      s.ngram_layer = a.ngram_rows > 0 ? a.ngram_layer : -1;
      s.ngram_heads = a.ngram_heads;
      s.ngram_width = a.ngram_width;
      s.ngram_size = a.ngram_size;
      s.ngram_conv = a.ngram_conv;
    }
    s.flash = in.flash;
    // llama-kv-cache.cpp attn_rot_k / attn_rot_v: a quantised cache of heads
    // whose size is a multiple of 64 is written and read through a Hadamard
    // rotation, each cache by its own head width (n_embd_head_k for K,
    // n_embd_head_v for V): MiniCPM3's K heads of 96 are not rotated, its V
    // heads of 64 are (its log: attn_rot_k = 0, attn_rot_v = 1).
    // MLA's K-only cache (build_attn with llm_graph_input_attn_k) is not rotated.
    const bool mla = s.mla_kv_lora > 0;
    // (no cache, no cache type: nothing to rotate; Mamba alone has no KV
    // cache, only its recurrent state)
    const bool cached =
        !a.attention.no_kv_cache && !a.attention.uncached_graph && !purely_recurrent(a);
    s.rotate_k = cached && !mla && in.k_type.quantised() && a.head_dim % 64 == 0;
    s.rotate_v = cached && !mla && in.v_type.quantised() && value_head_dim(a) % 64 == 0;
    // WavTokenizer's decoder (wavtokenizer-dec.cpp): a graph of its own
    // (ggml_alloc.cpp wavtokenizer_graph).
    s.vocoder_features = a.vocoder_features;
    s.posnet_layers = a.posnet_layers;
    s.posnet_width = a.posnet_width;
    s.vocoder_out = a.vocoder_out;
    r.device = ggml_graph_peak(llama_forward_graph(s));
    if (a.vocoder_features > 0 && in.explain) {
      r.widest = fmt::format(
          "high-water mark of llama.cpp's allocator replayed over WavTokenizer's decoder graph "
          "for {} audio codes at once ({} PosNet and {} ConvNeXt blocks; no logits: it ends at "
          "the head's {} values a code)",
          tokens, a.posnet_layers, a.layers, a.vocoder_out);
    } else {
      explain_replay("the graph", s.layers);
    }
  } else {
    const double h = f(a.heads);
    const double v = f(a.vocab_size);
    // DeepSeek-V4, approximately (docs/architectures.md): its n
    // hyper-connection streams (n hidden per token) stay live beside every
    // block and the head, its queries and attention output are heads x
    // head_dim wide, and a layer attends over its window of raw keys plus at
    // most one pooled key per 4 tokens, not the whole cache.
    const bool dsv4 = compressed_attention(a);
    const double streams = dsv4 ? f(std::max(1, a.hyper_connections)) * e : 0.0;
    const double qo = dsv4 ? 2.0 * f(a.heads) * f(std::max(1, a.head_dim)) : 2.0 * e;
    const double attended =
        dsv4 ? std::min(c, f(a.attention.sliding_window) + b + std::ceil(c / 4.0)) : c;
    const double mask = in.flash ? 2.0 * b * attended : 4.0 * b * attended;
    // Its lightning indexer scores every pooled key for every token: the
    // fused op's F32 score (ggml_lightning_indexer, deepseek4.cpp
    // build_indexer) beside the top-k mask built from it. Without the fused
    // op llama.cpp holds index_heads times that score (unsloth#6940 measured
    // about 65.5 GiB at 1M tokens); not modelled.
    const double indexer = dsv4 && compressed_layer_count(a, 'C') > 0 && a.attention.index_heads > 0
                               ? 8.0 * b * std::ceil(c / 4.0)
                               : 0.0;
    const double attention =
        indexer + (in.flash ? 4.0 * b * (1.0 + 2.0 * e + qo + streams) + mask
                            : 4.0 * b * (1.0 + 2.0 * e + qo + streams + attended * (h + 1.0)));
    const double ffn = 4.0 * b * (4.0 * e + 3.0 * ffn_width(a) + streams) + mask;
    const double output = 4.0 * b * (v + 2.0 * e + streams);
    r.device = round_bytes(std::max({attention, ffn, output}));
    if (in.explain) {
      r.widest = "widest point of the graph: ";
      r.widest += output >= attention && output >= ffn
                      ? fmt::format("logits of a {:g}-token step, tokens x vocabulary x 4 bytes", b)
                  : ffn >= attention
                      ? fmt::format("MLP activations of a {:g}-token step and the KQ mask", b)
                      : (in.flash ? fmt::format("attention of a {:g}-token step (flash)", b)
                                  : fmt::format("attention scores of a {:g}-token step, tokens x "
                                                "context x heads x 4 bytes",
                                                b));
    }
  }
  r.host = round_bytes(4.0 * b * (e + c));
  r.output_buffer = round_bytes(f(in.batch) * f(a.vocab_size) * 4.0);
  return r;
}

// One term of the breakdown. Its arithmetic in words (`formula()`) and its
// source are built only when the estimate is explained.
// A source is a fixed text, or a function building one (when it names an
// amount, printed in the query's units).
template <typename Formula, typename Source>
void add_term(const Inputs& in, Estimate& e, std::string_view key, Bytes bytes, Placement where,
              const Formula& formula, const Source& source) {
  Term& t = e.terms.emplace_back();
  t.key = key;
  t.bytes = bytes;
  t.placement = where;
  if (in.explain) {
    t.formula = formula();
    if constexpr (std::is_invocable_v<Source>) {
      t.source = source();
    } else {
      t.source = source;
    }
  }
}

// The vision/audio encoder and projector of a multimodal model, a term of
// its own so --text-only can leave it out. llama.cpp loads the --mmproj file
// onto the main GPU; vLLM and transformers hold the tower beside the weights.
void add_projector(const Inputs& in, Estimate& e) {
  e.memory.projector = in.projector;
  if (in.projector <= 0) {
    return;
  }
  const auto& file = in.q.model.mmproj;
  add_term(
      in, e, "projector", in.projector, Placement::Device,
      [&] {
        if (file) {
          std::string warmup;
          if (file->warmup_positions > 0) {
            warmup = fmt::format("one warm-up image of {} positions", file->warmup_positions);
          }
          if (file->audio_positions > 0) {
            warmup += fmt::format("{}one 30 s warm-up clip of {} positions",
                                  warmup.empty() ? "" : " and ", file->audio_positions);
          }
          return fmt::format(
              "{} tensors of {} ({:.3g} B parameters) + {} compute buffer ({}{}) = {}",
              format_size(in.projector - in.projector_compute, in.q.units), file->name,
              static_cast<double>(file->params) / 1e9,
              format_size(in.projector_compute, in.q.units),
              warmup.empty() ? "no encoder graph counted" : warmup,
              warmup.empty() ? "" : (in.flash ? ", flash attention" : ", f32 attention scores"),
              format_size(in.projector, in.q.units));
        }
        return fmt::format("{:.3g} B encoder and projector parameters x {} bytes = {}",
                           static_cast<double>(in.q.model.arch.vision_params) / 1e9,
                           in.projector / std::max<std::int64_t>(1, in.q.model.arch.vision_params),
                           format_size(in.projector, in.q.units));
      },
      [&]() -> std::string {
        if (file) {
          return "the mmproj file's tensor table; compute: tools/mtmd/clip.cpp alloc_compute_meta";
        }
        if (e.runtime == Runtime::Ollama) {
          // ollama/ollama server/quantization.go (newType: no v.*, a.*, mm.*
          // quantisation) and llm/llama_server.go at fb307609 (the blob is
          // also the --mmproj of its compatClipArches: gemma3, gemma4,
          // qwen35, qwen35moe, mistral3, llama4, ...).
          return "Ollama's package holds the encoder in the model blob, unquantised (16 bits), "
                 "and loads it as the mmproj; --text-only leaves it out";
        }
        return "mmproj files are F16 (convert_hf_to_gguf.py --mmproj); vLLM and transformers keep "
               "the tower in 16 bits; --text-only leaves it out";
      });
}

}  // namespace

// clip.cpp builds the encoder graph for its warm-up image and reserves the
// peak of the live f32 activations (ggml-alloc frees a tensor after its last
// use and runs the softmax in place on the scores). Two peaks, per position:
// - attention: the residual, its norm, Q, K, V and the attention output
//   (6 x width), plus without flash attention the scores, heads x positions;
// - FFN: the residual, its norm and the attention output (3 x width) beside
//   the up projection (and the gate, when gated).
// Window attention adds its mask, an input live for the whole graph: f32
// positions^2, and an f16 copy of it for flash attention (qwen2vl.cpp:
// window_mask, ggml_cast to F16). Checked against llama.cpp's own report of
// the clip compute buffer (tests/data/architecture_figures.csv).
//
// An audio encoder is a second clip context with its own buffer (mtmd
// keeps ctx_v and ctx_a): a Whisper encoder's peak is the same per-position
// sum over its 1500 warm-up positions; its convolution front end (im2col of
// 3 x width by 1500, beside the first convolution's 3000 x width output) is
// smaller than one attention block and is not counted apart.
Bytes clip_compute_bytes(const ProjectorFile& p, bool flash_attention) {
  const auto peak = [&](std::int64_t positions, std::int64_t width_, int heads,
                        std::int64_t ffn_live, bool window_mask) {
    if (positions <= 0) {
      return 0.0;
    }
    const double n = static_cast<double>(positions);
    const double width = static_cast<double>(width_);
    const double attention = 6.0 * width + (flash_attention ? 0.0 : heads * n);
    const double ffn = 3.0 * width + static_cast<double>(ffn_live);
    const double mask = window_mask ? n * n * (flash_attention ? 6.0 : 4.0) : 0.0;
    return 4.0 * n * std::max(attention, ffn) + mask;
  };
  const double vision =
      p.vision ? peak(p.warmup_positions, p.width, p.heads, p.ffn_live, p.window_mask) : 0.0;
  const double audio =
      p.audio ? peak(p.audio_positions, p.audio_width, p.audio_heads, p.audio_ffn, false) : 0.0;
  return round_bytes(vision + audio);
}

namespace {

// The KV term's arithmetic: K and V of the layers that cache them (those
// over the whole context and the windowed ones over their window's cells),
// and a hybrid's or a recurrent model's fixed state (recurrent_state_bytes,
// kq.state_bytes a value: F32 in llama.cpp, the model's dtype in PyTorch).
// The numbers written multiply out to `bytes`; where the layout has more to
// it than one shape a layer (widths that differ by layer, indexer keys, V
// padded to the widest layer, pooled keys), no product is written, only
// what is cached and where the layout is described.
// `a` is the architecture as the runtime's cache sees it (the query's, or
// transformers_cache_layout's).
std::string kv_formula(const Inputs& in, const Architecture& a, const KvCacheQuery& kq, Bytes bytes,
                       std::int64_t f32_state_floats = 0) {
  const std::int64_t cells = pad_context(kq.context, kq.pad);
  const int sequences = std::max(1, kq.sequences);
  const std::string seqs = sequences > 1 ? fmt::format(" x {} sequences", sequences) : "";
  if (a.vocoder_features > 0) {
    return "none: a vocoder holds no KV cache (llama.cpp create_memory); its audio codes go "
           "through in one micro-batch, nothing kept between calls";
  }
  if (a.attention.no_kv_cache) {
    return "none: an encoder or diffusion model holds no KV cache (llama.cpp create_memory)";
  }
  const double kb = kq.k_type.bytes_per_element();
  const double vb = kq.v_type.bytes_per_element();
  const int recurrent = recurrent_layer_count(a);
  std::string state;
  double written = 0;
  if (recurrent > 0) {
    // transformers' delta-net matrices in F32 (transformers_kv_cache_bytes).
    const std::int64_t f32 = std::min(f32_state_floats, a.attention.recurrent_state_floats);
    state = f32 > 0
                ? fmt::format(
                      "a fixed recurrent state of {} layers x ({} values x {} bytes + {} "
                      "values x 4 bytes, the recurrent matrices in F32){}{}",
                      recurrent, a.attention.recurrent_state_floats - f32, kq.state_bytes, f32,
                      seqs, ngram_state_floats(a) > 0 ? " (and the n-gram layer's row)" : "")
                : fmt::format("a fixed recurrent state of {} layers x {} values x {} bytes{}{}",
                              recurrent, a.attention.recurrent_state_floats, kq.state_bytes, seqs,
                              ngram_state_floats(a) > 0 ? " (and the n-gram layer's row)" : "");
    written +=
        static_cast<double>(recurrent_state_bytes(a, sequences, kq.state_bytes) +
                            std::int64_t{recurrent} * f32 * (4 - kq.state_bytes) * sequences);
  }
  const std::string total = " = " + format_memory(bytes, in.q.units);
  const std::string plus_state = state.empty() ? "" : ", plus " + state;
  const auto per_token = [&](double k_elems, double v_elems) {
    return k_elems * kb + v_elems * vb;
  };
  // K and V rows of one kind of layer: "2 (K and V) x L layers x H KV heads
  // x D dims x B bytes x C tokens" (K and V types apart when they differ).
  const auto kv_part = [&](int layers, const char* kind, std::int64_t tokens,
                           const std::string& over) {
    const double dims = static_cast<double>(a.kv_heads) * a.head_dim;
    written += layers * per_token(dims, dims) * static_cast<double>(tokens);
    if (kb == vb) {
      return fmt::format("2 (K and V) x {} {}layers x {} KV heads x {} dims x {:g} bytes x {} {}",
                         layers, kind, a.kv_heads, a.head_dim, kb, tokens, over);
    }
    return fmt::format("{} {}layers x {} KV heads x {} dims x ({:g} + {:g} bytes, K and V) x {} {}",
                       layers, kind, a.kv_heads, a.head_dim, kb, vb, tokens, over);
  };
  std::string product;
  std::string described;
  const CachedKvLayers cached = cached_kv_layers(a);
  if (uses_mla(a) && a.attention.mla_cached_per_head) {  // MiniCPM3
    written += a.layers *
               per_token(static_cast<double>(a.kv_heads) * a.head_dim,
                         static_cast<double>(a.kv_heads) * a.attention.v_head_dim) *
               static_cast<double>(cells * sequences);
    product = fmt::format(
        "{} layers x {} KV heads x ({} K dims x {:g} + {} V dims x {:g} bytes) x {} tokens{}",
        a.layers, a.kv_heads, a.head_dim, kb, a.attention.v_head_dim, vb, cells, seqs);
    described = fmt::format("K and V of {} layers over {} tokens{}", a.layers, cells, seqs);
  } else if (uses_mla(a)) {
    const std::int64_t width = a.attention.kv_lora_rank + a.attention.qk_rope_head_dim;
    written +=
        cached.full * static_cast<double>(width) * kb * static_cast<double>(cells * sequences);
    product = fmt::format("{} layers x {} latent dims x {:g} bytes x {} tokens{}", cached.full,
                          width, kb, cells, seqs) +
              plus_state;
    described = fmt::format("one latent a token on {} layers over {} tokens{}",
                            cached.full + cached.windowed, cells, seqs) +
                plus_state;
  } else if (cached.full + cached.windowed > 0) {
    const char* kind = recurrent > 0 ? "attention " : "";
    if (cached.full > 0) {
      product = kv_part(cached.full, cached.windowed > 0 ? "full " : kind, cells, "tokens" + seqs);
    }
    if (cached.windowed > 0) {
      product += (product.empty() ? "" : " + ") + kv_part(cached.windowed, "windowed ",
                                                          window_cells(a, kq),
                                                          "cells (the window and a micro-batch)");
    }
    product += plus_state;
    described = fmt::format("K and V of {} layers over {} tokens{}{}",
                            cached.full + cached.windowed, cells, seqs,
                            cached.windowed > 0
                                ? fmt::format(", {} of them over their window", cached.windowed)
                                : "") +
                plus_state;
  } else {
    return (state.empty() ? "none" : "no KV cache: " + state) + total;
  }
  if (std::abs(written - static_cast<double>(bytes)) <= 1.0) {
    return product + total;
  }
  return described +
         ", each layer at its own widths with the extra caches of this architecture "
         "(docs/architectures.md)" +
         total;
}

void set_usable(const Inputs& in, Estimate& e) {
  const InferenceQuery& q = in.q;
  for (const auto& d : q.devices.devices) {
    e.capacity += d.memory_bytes;
    if (!in.explain) {
      e.usable += usable_bytes(d, q.usable);
      continue;
    }
    const Usable u = usable_memory(d, q.usable, q.units);
    e.usable += u.bytes;
    if (std::find(e.usable_reasons.begin(), e.usable_reasons.end(), u.reason) ==
        e.usable_reasons.end()) {
      e.usable_reasons.push_back(u.reason);
    }
  }
  e.device_known = !q.devices.devices.empty();
}

// --- llama.cpp layer split ---------------------------------------------------
//
// -ngl N puts the top N of the n + 1 layers (blocks 0..n-1, then the output
// layer n) on the GPUs: layers start = max(n + 1 - N, 0) to n. Layer j goes to
// the first device whose cumulative share (less 1e-12 for rounding) its
// position (j - start) / (n + 1 - start) has not reached, so the first GPU
// takes the lowest layers. The device only grows
// with j: each holds one run of layers, whose ends a bisection finds, and its
// bytes are differences of prefix sums over the blocks. A plan then costs
// O(devices x log layers) instead of O(layers), and the offload search below
// tries O(log layers) plans where it can bisect (one GPU, --n-cpu-moe).

struct SplitInputs {
  struct Sums {
    Bytes weights = 0;  // every tensor of the blocks, experts included
    Bytes experts = 0;  // routed-expert weights
  };
  struct PerDevice {
    Bytes fixed = 0;   // compute + context + margin (or reserve)
    Bytes usable = 0;  // usable memory
    double cum = 0;    // cumulative share of the layers (the last device's is 1)
  };
  explicit SplitInputs(std::pmr::memory_resource* scratch) : sums(scratch), devices(scratch) {}
  std::pmr::vector<Sums> sums;  // prefix sums: sums[i] covers blocks 0..i-1 (n + 1 entries)
  Bytes kv_per_block = 0;       // every block holds the same KV
  Bytes output = 0;             // output layer
  std::pmr::vector<PerDevice> devices;
  [[nodiscard]] int blocks() const { return static_cast<int>(sums.size()) - 1; }
};

struct Split {
  struct Share {
    Bytes load = 0;  // everything the device holds
    Bytes weights = 0;
    Bytes kv = 0;
    int layers = 0;
  };
  explicit Split(std::pmr::memory_resource* scratch) : devices(scratch) {}
  std::pmr::vector<Share> devices;
  bool fits = true;
};

// The layers each device holds under -ngl `ngl` and --n-cpu-moe `cpu_moe`:
// calls take(device, weights, kv, layers) once per device that holds any, in
// device order.
template <typename Take>
void walk_split(const SplitInputs& s, int ngl, int cpu_moe, const Take& take) {
  const int n = s.blocks();
  const std::size_t nd = s.devices.size();
  const int start = std::max(n + 1 - ngl, 0);
  const int act = n + 1 - start;
  // The first layer in [from, n] whose position reaches `edge`; n + 1 if none.
  const auto first_reaching = [&](int from, double edge) {
    return first_true(from, n + 1,
                      [&](int j) { return static_cast<double>(j - start) / act >= edge; });
  };
  int begin = start;
  for (std::size_t d = 0; d < nd && begin <= n; ++d) {
    const int end = d + 1 < nd ? first_reaching(begin, s.devices[d].cum - 1e-12) : n + 1;
    const auto first = static_cast<std::size_t>(begin);
    const auto last = static_cast<std::size_t>(std::min(end, n));  // blocks [first, last)
    const auto moe_end = static_cast<std::size_t>(std::clamp(cpu_moe, begin, std::min(end, n)));
    Bytes w = s.sums[last].weights - s.sums[first].weights -
              (s.sums[moe_end].experts - s.sums[first].experts);
    const Bytes kv = static_cast<Bytes>(last - first) * s.kv_per_block;
    if (end == n + 1) {
      w += s.output;
    }
    take(d, w, kv, end - begin);
    begin = end;
  }
}

// The plan, written into `r` (whose buffer the searches reuse).
void split(const SplitInputs& s, int ngl, int cpu_moe, Split& r) {
  const std::size_t nd = s.devices.size();
  r.devices.assign(nd, {});
  for (std::size_t d = 0; d < nd; ++d) {
    r.devices[d].load = s.devices[d].fixed;
  }
  walk_split(s, ngl, cpu_moe, [&r](std::size_t d, Bytes w, Bytes kv, int layers) {
    Split::Share& share = r.devices[d];
    share.load += w + kv;
    share.weights += w;
    share.kv += kv;
    share.layers += layers;
  });
  r.fits = true;
  for (std::size_t d = 0; d < nd; ++d) {
    r.fits = r.fits && r.devices[d].load <= s.devices[d].usable;
  }
}

// Whether the plan fits every device, without writing it down (the searches
// try many plans and keep one).
bool plan_fits(const SplitInputs& s, int ngl, int cpu_moe) {
  bool fits = true;
  std::size_t next = 0;  // devices before it are checked
  const auto idle_fit = [&](std::size_t up_to) {
    for (; next < up_to; ++next) {
      fits = fits && s.devices[next].fixed <= s.devices[next].usable;
    }
  };
  walk_split(s, ngl, cpu_moe, [&](std::size_t d, Bytes w, Bytes kv, int) {
    idle_fit(d);
    fits = fits && s.devices[d].fixed + w + kv <= s.devices[d].usable;
    next = d + 1;
  });
  idle_fit(s.devices.size());
  return fits;
}

}  // namespace

void llama_family(const Inputs& in, Estimate& e) {
  const InferenceQuery& q = in.q;
  const Architecture& a = q.model.arch;
  const bool ollama = e.runtime == Runtime::Ollama;
  const WeightLayout& w = in.layout;
  // When every device is system RAM (a CPU-only run) the host is the device:
  // the input embeddings, the output buffer and the compute buffer all live in
  // the memory the verdict checks, and there is no driver context.
  const std::vector<Device>& devs = q.devices.devices;
  const bool cpu_only = q.devices.cpu_only();
  const bool host_split = e.runtime != Runtime::Generic && !cpu_only;

  // Weights.
  const Bytes all_weights = e.model_weight_bytes;  // w.total(), summed once
  const Bytes device_weights = host_split ? all_weights - w.token_embd : all_weights;
  e.memory.weights = device_weights;
  add_term(
      in, e, "weights", device_weights, Placement::Device,
      [&] {
        return w.recipe
                   ? fmt::format("{} tensors by llama.cpp's recipe{} = {}", q.precision.name,
                                 host_split ? ", token embeddings on the host" : "",
                                 format_size(device_weights, in.q.units))
                   : fmt::format("{} params x {:g} bits / 8{} = {}",
                                 fmt::format("{:.3g} B", static_cast<double>(q.model.params) / 1e9),
                                 q.precision.bits_per_weight,
                                 host_split ? ", token embeddings on the host" : "",
                                 format_size(device_weights, in.q.units));
      },
      q.precision.source);

  add_projector(in, e);

  // KV cache.
  const std::int64_t cells = pad_context(in.context, q.kv_pad);
  e.kv_cells = cells;
  KvCacheQuery kv_query{in.context, in.batch, in.ubatch, in.k_type, in.v_type, q.kv_pad, true};
  kv_query.v_rows_padded = !in.flash;  // V transposed, rows of the widest layer
  e.memory.kv_cache = kv_cache_bytes(a, kv_query);
  e.recurrent_state = recurrent_state_bytes(a, in.batch);
  add_term(
      in, e, "kv_cache", e.memory.kv_cache, Placement::Device,
      [&] { return kv_formula(in, in.q.model.arch, kv_query, e.memory.kv_cache); },
      "llama.cpp KV layout (src/llama-kv-cache.cpp; docs/accuracy.md)");

  // Compute buffers: every GPU reserves its own graph. On the CPU the one
  // graph and the logits output buffer are both in system RAM.
  const std::size_t nd = std::max<std::size_t>(1, cpu_only ? 1 : devs.size());
  const LlamaCompute c = llama_compute(in, cells * in.batch);
  e.memory.compute = c.device * static_cast<Bytes>(nd) + (cpu_only ? c.output_buffer : 0);
  add_term(
      in, e, "compute", e.memory.compute, Placement::Device,
      [&] {
        return fmt::format("{}{}{} = {}", c.widest,
                           nd > 1 ? fmt::format(", on each of {} GPUs", nd) : "",
                           cpu_only ? fmt::format(", and the logits output buffer {}",
                                                  format_memory(c.output_buffer, in.q.units))
                                    : "",
                           format_memory(e.memory.compute, in.q.units));
      },
      "llama.cpp graph reservation (ggml/src/ggml-alloc.c over one micro-batch's graph; "
      "docs/accuracy.md)");

  // CPU-only: the CPU backend's copies of some weights (cpu_extra_buffers),
  // besides the mapped file or, with --no-mmap, instead of those tensors.
  if (cpu_only) {
    const CpuExtraBuffers extra =
        q.cpu_repack ? cpu_extra_buffers(typed_weights(q.model, q.precision), q.cpu_features)
                     : CpuExtraBuffers{};
    // The copied tensors' bytes in the file: with --no-mmap they are read
    // into their buffers instead; with a mapped file they are read once to
    // fill the copy, then never again, and the kernel drops those clean pages
    // when memory is wanted (llama-model-loader.cpp: the CPU_REPACK buffer is
    // not a host buffer from the mapping, so its tensors are copied out of
    // it). Only --mlock keeps them resident.
    if ((!q.mmap || !q.mlock) && extra.moved > 0) {
      e.file_pages_dropped = q.mmap ? extra.moved : 0;
      e.memory.weights -= extra.moved;
      for (Term& t : e.terms) {
        if (t.key == "weights") {
          t.bytes = e.memory.weights;
        }
      }
    }
    e.memory.reclaimable = q.mmap && !q.mlock ? e.memory.weights : 0;
    const auto add_extra = [&](std::string_view key, Bytes bytes, std::string_view name) {
      if (bytes <= 0) {
        return;
      }
      e.memory.weights += bytes;
      add_term(
          in, e, key, bytes, Placement::Device,
          [&] {
            return fmt::format(
                "weights copied into llama.cpp's {} buffer ({}), anonymous memory {} = {}", name,
                to_string(q.cpu_features),
                q.mmap ? "besides the mapped file" : "instead of those tensors (--no-mmap)",
                format_size(bytes, in.q.units));
          },
          "llama.cpp ggml-cpu extra buffer types (runtime.cpp, cpu_extra_buffers)");
    };
    add_extra("cpu_repack", extra.repack, "CPU_REPACK");
    add_extra("cpu_amx", extra.amx, "AMX");
  }
  // What the extra buffers (and --no-mmap) changed, held by the one device.
  const Bytes cpu_extra = e.memory.weights - device_weights;

  // Context and margin per device (one GPU's worth when none is given).
  set_usable(in, e);
  // The layer split's inputs, filled as the terms below are worked out. It
  // and the plans tried live in a buffer on the stack: an estimate runs in
  // the inner loop of every search, and these need no heap up to ~200 blocks.
  std::array<std::byte, 4096> buffer;
  std::pmr::monotonic_buffer_resource scratch(buffer.data(), buffer.size());
  SplitInputs s(&scratch);
  s.devices.resize(devs.size());
  for (std::size_t i = 0; i < devs.size(); ++i) {
    s.devices[i].usable = usable_bytes(devs[i], q.usable);
  }
  const int n = a.layers;
  const Bytes kv_per_block = n > 0 ? e.memory.kv_cache / n : 0;
  // Ollama runs llama-server since v0.30.0 and leaves the layer placement to
  // its --fit: the same margin as llama.cpp's (its older engines reserved one
  // layer per GPU instead).
  const auto fixed_for = [&](std::size_t i) {
    const Bytes ctx = cpu_only          ? (i == 0 ? kCpuProcess : 0)
                      : i < devs.size() ? context_overhead(devs[i])
                                        : kCudaContext;
    const Bytes margin = margin_for(i < devs.size() ? s.devices[i].usable : 0);
    return std::pair{ctx, margin};
  };
  for (std::size_t i = 0; i < nd; ++i) {
    const auto [ctx, margin] = fixed_for(i);
    e.memory.overhead += ctx;
    e.memory.margin += margin;
  }
  if (!e.device_known) {
    e.memory.margin = margin_for(e.memory.weights + e.memory.kv_cache + e.memory.compute +
                                 e.memory.overhead + e.memory.projector);
  }
  add_term(
      in, e, "overhead", e.memory.overhead, Placement::Device,
      [&] {
        return cpu_only ? fmt::format("{} (its libraries and CPU backend) = {}",
                                      overhead_words(e.runtime, in.q.devices),
                                      format_memory(e.memory.overhead, in.q.units))
                        : fmt::format("{}, {} per {} = {}", overhead_words(e.runtime, in.q.devices),
                                      format_memory(fixed_for(0).first, in.q.units),
                                      processor_word(in.q.devices),
                                      format_memory(e.memory.overhead, in.q.units));
      },
      [&] {
        return cpu_only ? std::string(
                              "measured: node-llama-cpp 3.21.1 process before any model "
                              "(tests/live, runtime.cpp kCpuProcess)")
                        : fmt::format("Ollama per-GPU minimum memory ({} CUDA, {} Metal)",
                                      format_memory(kCudaContext, in.q.units),
                                      format_memory(kMetalContext, in.q.units));
      });
  add_term(
      in, e, "margin", e.memory.margin, Placement::Device,
      [&] {
        return fmt::format(
            "5% of {}, between {} and {} = {}", e.device_known ? "usable memory" : "the need",
            format_memory(kMarginMin, in.q.units), format_memory(kMarginMax, in.q.units),
            format_memory(e.memory.margin, in.q.units));
      },
      [&] {
        return fmt::format(
            "{}willfit's rule: 5% of usable memory, at least {} and at most {} (the most is what "
            "llama.cpp --fit keeps free per device)",
            ollama ? "Ollama runs llama-server (ollama/ollama#16031, v0.30.0); " : "",
            format_memory(kMarginMin, in.q.units), format_memory(kMarginMax, in.q.units));
      });

  // Host side.
  if (host_split) {
    add_term(
        in, e, "token_embeddings", w.token_embd, Placement::Host,
        [&] {
          return fmt::format("input embeddings stay in system RAM = {}",
                             format_size(w.token_embd, in.q.units));
        },
        "llama.cpp keeps the input layer on the CPU (its 'CPU buffer')");
    add_term(
        in, e, "compute_host", c.host, Placement::Host,
        [&] {
          return fmt::format(
              "input embeddings and KQ mask of a step, 4 x tokens x (hidden + context) = {}",
              format_memory(c.host, in.q.units));
        },
        "llama.cpp CUDA_Host compute buffer (docs/accuracy.md)");
    add_term(
        in, e, "output_buffer", c.output_buffer, Placement::Host,
        [&] {
          return fmt::format("logits, sequences x vocabulary x 4 bytes = {}",
                             format_memory(c.output_buffer, in.q.units));
        },
        "llama.cpp output buffer");
    e.host = w.token_embd + c.host + c.output_buffer;
  }

  e.required = e.memory.total();
  e.headroom = e.usable - e.required;
  if (!e.device_known) {
    e.verdict = Verdict::NoFit;
    return;
  }

  // Layer split over the devices, and offload when it does not fit whole.
  s.sums.resize(w.layers.size() + 1);
  for (std::size_t i = 0; i < w.layers.size(); ++i) {
    s.sums[i + 1].weights = s.sums[i].weights + w.layers[i].bytes;
    s.sums[i + 1].experts = s.sums[i].experts + w.layers[i].expert_bytes;
  }
  s.kv_per_block = kv_per_block;
  s.output = w.output + w.other + (host_split ? 0 : w.token_embd);
  double total_share = 0;
  for (std::size_t i = 0; i < devs.size(); ++i) {
    const auto [ctx, margin] = fixed_for(i);
    SplitInputs::PerDevice& sd = s.devices[i];
    // On a CPU-only run the CPU backend's copies (cpu_extra) live in the same
    // memory as the layers, so the fit counts them too.
    sd.fixed =
        c.device + ctx + margin + (i == 0 ? e.memory.projector + (cpu_only ? cpu_extra : 0) : 0);
    const double sh =
        i < q.tensor_split.size() ? q.tensor_split[i] : static_cast<double>(sd.usable);
    sd.cum = std::max(0.0, sh);  // the share, normalised and summed below
    total_share += sd.cum;
  }
  for (std::size_t i = 0; i < s.devices.size(); ++i) {
    double& cum = s.devices[i].cum;
    cum = total_share > 0 ? cum / total_share : 1.0 / static_cast<double>(devs.size());
    if (i > 0) {
      cum += s.devices[i - 1].cum;
    }
  }

  // Ollama has no way to keep experts on the CPU: its runner options are
  // num_ctx, num_batch, num_gpu, main_gpu, use_mmap, num_thread and
  // draft_num_predict (ollama/ollama api/types.go at fb307609, Runner), its
  // environment (envconfig/config.go, AsMap) names no such variable, and the
  // llama-server it starts gets -ngl from num_gpu and no --n-cpu-moe or
  // --override-tensor (llm/llama_server.go). So under Ollama an MoE model
  // that does not fit is offloaded by whole layers, as a dense one.
  const bool moe = q.model.is_moe();
  const bool experts_to_cpu = moe && e.runtime != Runtime::Ollama;
  int ngl = n + 1;
  int cpu_moe = 0;
  Split chosen(&scratch);
  split(s, ngl, 0, chosen);
  const bool whole = chosen.fits;
  // On a CPU-only run every layer is in the one memory: -ngl and
  // --n-cpu-moe move nothing, so there is no plan to make (--ngl 0 is what
  // such a run is anyway).
  if (!cpu_only && (q.gpu_layers || q.n_cpu_moe)) {
    ngl = std::clamp(q.gpu_layers.value_or(n + 1), 0, n + 1);
    cpu_moe = experts_to_cpu ? std::clamp(q.n_cpu_moe.value_or(0), 0, n) : 0;
    split(s, ngl, cpu_moe, chosen);
  } else if (!cpu_only && !whole) {
    // MoE: the experts of the first k blocks on the CPU, the fewest that
    // fit; else (or for dense models) the most layers on the GPUs that fit.
    //
    // Both are the answer llama.cpp's scan would give, found by bisection
    // where the scan's test is monotone: more --n-cpu-moe blocks only take
    // expert bytes off each device (the layer ranges do not move), and on one
    // device fewer layers only take bytes off it. Over several devices a
    // lower -ngl shifts every device's range, whose blocks can differ in
    // bytes (a recipe's mixed types), so there the scan runs layer by layer.
    const auto fits_with = [&](int layers, int k) { return plan_fits(s, layers, k); };
    // The fewest blocks whose experts on the CPU fit (n + 1: none does).
    const int fewest =
        experts_to_cpu ? first_true(1, n + 1, [&](int k) { return fits_with(n + 1, k); }) : n + 1;
    if (fewest <= n) {
      cpu_moe = fewest;
    } else {
      cpu_moe = experts_to_cpu ? n : 0;
      if (s.devices.size() == 1) {
        // The most layers that fit (-1: not even none, when the fixed buffers do not).
        ngl = first_true(0, n + 1, [&](int layers) { return !fits_with(layers, cpu_moe); }) - 1;
      } else {
        for (ngl = n; ngl >= 0 && !fits_with(ngl, cpu_moe); --ngl) {
        }
      }
      ngl = std::max(ngl, 0);
    }
    split(s, ngl, cpu_moe, chosen);  // the plan chosen, written down
  }
  const bool planned_offload =
      !cpu_only && !(whole && !q.gpu_layers && !q.n_cpu_moe) && (ngl < n + 1 || cpu_moe > 0);
  // The per-device table: the plan that will run.
  for (std::size_t i = 0; i < devs.size(); ++i) {
    DeviceShare d;
    d.name = devs[i].name;
    d.capacity = devs[i].memory_bytes;
    d.usable = s.devices[i].usable;
    d.layers = chosen.devices[i].layers;
    d.weights = chosen.devices[i].weights + (i == 0 ? cpu_extra : 0);
    d.kv_cache = chosen.devices[i].kv;
    d.compute = c.device + (cpu_only && i == 0 ? c.output_buffer : 0);
    d.projector = i == 0 ? e.memory.projector : 0;
    const auto [ctx, margin] = fixed_for(i);
    d.overhead = ctx;
    d.margin = margin;
    e.devices.push_back(d);
  }
  if (planned_offload) {
    OffloadPlan p;
    p.gpu_layers = ngl;
    p.total_layers = n + 1;
    p.cpu_moe_layers = cpu_moe;
    Bytes kv_gpu = 0;
    for (const Split::Share& share : chosen.devices) {
      p.gpu_bytes += share.load;
      p.gpu_weight_bytes += share.weights;
      kv_gpu += share.kv;
    }
    p.host_weight_bytes = all_weights - p.gpu_weight_bytes;
    p.host_bytes = p.host_weight_bytes + (e.memory.kv_cache - kv_gpu) + c.host + c.output_buffer;
    // Weights read per token: dense parts whole, routed experts k of N.
    const double expert_share =
        moe ? static_cast<double>(a.moe->experts_per_token) / std::max(1, a.moe->experts) : 1.0;
    const int start = std::max(n + 1 - ngl, 0);
    // Blocks below `start` are on the host. Dense blocks: read whole, so the
    // prefix sums give both sides; routed experts are rounded block by block.
    const auto lower = static_cast<std::size_t>(std::min(start, n));
    Bytes host_active = s.sums[lower].weights - s.sums[lower].experts;
    Bytes gpu_active = (s.sums.back().weights - s.sums.back().experts) - host_active;
    for (int i = 0; s.sums.back().experts > 0 && i < n; ++i) {
      const auto& l = w.layers[static_cast<std::size_t>(i)];
      const Bytes active_experts =
          l.expert_bytes > 0 ? round_bytes(static_cast<double>(l.expert_bytes) * expert_share) : 0;
      const bool on_gpu = i >= start && i >= cpu_moe;
      (on_gpu ? gpu_active : host_active) += active_experts;
      if (!on_gpu) {
        p.host_expert_bytes += l.expert_bytes;
      }
    }
    (ngl >= 1 ? gpu_active : host_active) += w.output;
    p.gpu_active_weight_bytes = gpu_active;
    p.host_active_weight_bytes = host_active;
    if (const OffloadRam ram = offload_ram(q, p.gpu_bytes); ram.bytes) {
      p.ram_available = ram.bytes;
      p.ram_unified = ram.unified;
      p.ram_holds = p.host_bytes <= *ram.bytes;
    }
    p.flags = "-ngl " + std::to_string(ngl);
    // Ollama takes no llama.cpp flags: the layers on the GPU are its
    // num_gpu option (a Modelfile's PARAMETER num_gpu, /set parameter, or
    // the API's "options"), which it picks itself when none is given: its
    // help for /set parameter says "num_gpu <int> The number of layers to
    // send to the GPU" (ollama/ollama-python issue 603 says the same).
    // Ollama plans no experts in RAM (`experts_to_cpu` above).
    if (e.runtime == Runtime::Ollama) {
      p.flags = "num_gpu " + std::to_string(ngl);
    } else if (cpu_moe > 0) {
      p.flags += " --n-cpu-moe " + std::to_string(cpu_moe);
    }
    if (devs.size() > 1 && e.runtime != Runtime::Ollama) {
      std::string ts;
      for (std::size_t i = 0; i < devs.size(); ++i) {
        ts += (i ? "," : "") + std::to_string(chosen.devices[i].layers);
      }
      p.flags += " --tensor-split " + ts;
    }
    e.offload = p;
  }
  if (!planned_offload) {
    e.verdict = whole ? Verdict::Fits : Verdict::NoFit;
  } else {
    e.verdict =
        chosen.fits && e.offload->ram_holds.value_or(false) ? Verdict::Offload : Verdict::NoFit;
  }
}

void vllm(const Inputs& in, Estimate& e) {
  const InferenceQuery& q = in.q;
  const Architecture& a = q.model.arch;
  const int tp =
      std::max(1, q.tensor_parallel > 0 ? q.tensor_parallel : static_cast<int>(q.devices.count()));
  const double util = std::clamp(q.gpu_memory_utilization, 0.05, 1.0);
  set_usable(in, e);
  const Bytes total_weights = e.model_weight_bytes;
  const Bytes weights_gpu = total_weights / tp;
  // Activation peak of the profiling run, per GPU.
  const double tokens = f(kVllmBatchedTokens);
  const double mlp = 2.0 * tokens * (3.0 * f(active_ffn(a)) + 3.0 * f(a.hidden_size)) / tp;
  const double sampler = 4.0 * f(kVllmSampledSeqs) * f(a.vocab_size) * 4.0;
  const Bytes activation = round_bytes(mlp + sampler);
  // KV bytes per token per GPU: KV heads are divided among the ranks (and
  // replicated when there are fewer heads than ranks).
  // Recurrent states split their heads among the ranks too.
  Architecture per_rank = a;
  per_rank.kv_heads = std::max(1, a.kv_heads / tp);
  per_rank.attention.recurrent_state_floats = a.attention.recurrent_state_floats / tp;
  per_rank.attention.vllm_f32_state_floats = a.attention.vllm_f32_state_floats / tp;
  per_rank.attention.delta_net_k_heads = a.attention.delta_net_k_heads / tp;
  per_rank.attention.delta_net_v_heads = a.attention.delta_net_v_heads / tp;
  // Hybrid, sliding and chunked layers hold less than the whole context
  // (vllm_request_kv); per_token_gpu is the average over the context.
  const VllmRequestKv request =
      vllm_request_kv(per_rank, in.context, in.k_type, in.v_type, kVllmBatchedTokens);
  e.kv_layout_not_modelled = request.not_modelled;
  e.kv_type_held = request.held_type;
  const std::int64_t block = std::max(kVllmBlock, request.block_tokens);
  // The engine's budget per GPU (util x total memory) less what is not KV.
  const Bytes budget =
      e.device_known
          ? round_bytes(util * static_cast<double>(q.devices.devices.front().memory_bytes))
          : 0;
  const Bytes non_kv = weights_gpu + in.projector / tp + activation + kVllmNonTorch;
  const Bytes kv_available = budget - non_kv;
  // --batch is vLLM's --max-num-seqs, a ceiling: its scheduler admits a
  // waiting request only while the KV blocks can be allocated and leaves the
  // rest queued (vllm-project/vllm vllm/v1/core/sched/scheduler.py at
  // 00024d31, schedule(): `if len(self.running) == self.max_num_running_reqs:
  // break`, and a request whose allocate_slots returns None stays waiting);
  // the engine refuses to start only when one request of max_model_len does
  // not fit (vllm/v1/core/kv_cache_utils.py at bbf906a8,
  // check_enough_kv_cache_memory: "To serve at least one request with the
  // models's max seq len"). So the cache holds the sequences that fit, at
  // least one, at most the batch.
  const int at_once =
      !e.device_known || request.bytes <= 0
          ? in.batch
          : static_cast<int>(std::clamp<Bytes>(kv_available / request.bytes, 1, in.batch));
  const std::int64_t need_tokens = ((in.context + block - 1) / block) * block * at_once;
  const Bytes need_gpu = request.bytes * at_once;
  const Bytes per_token_gpu =
      std::max<Bytes>(1, (need_gpu + need_tokens - 1) / std::max<std::int64_t>(1, need_tokens));
  e.kv_cells = need_tokens / std::max(1, at_once);

  e.memory.weights = total_weights;
  e.memory.kv_cache = need_gpu * tp;
  e.memory.compute = activation * tp;
  e.memory.overhead = kVllmNonTorch * tp;
  e.memory.margin = 0;
  add_term(
      in, e, "weights", e.memory.weights, Placement::Device,
      [&] {
        return fmt::format("{} across {} GPU{} = {}", format_size(total_weights, in.q.units), tp,
                           tp > 1 ? "s" : "", format_size(total_weights, in.q.units));
      },
      q.precision.source);
  add_projector(in, e);
  add_term(
      in, e, "kv_cache", e.memory.kv_cache, Placement::Device,
      [&] {
        if (need_gpu != per_token_gpu * need_tokens) {
          return fmt::format(
              "{} tokens (blocks of {}): full layers the whole context, windowed layers their "
              "window, recurrent layers one state page = {}",
              need_tokens, block, format_memory(e.memory.kv_cache, in.q.units));
        }
        return fmt::format("{} tokens (blocks of {}) x {} per token = {}", need_tokens, block,
                           format_memory(per_token_gpu * tp, in.q.units),
                           format_memory(e.memory.kv_cache, in.q.units));
      },
      "vLLM paged KV (vllm/v1/kv_cache_interface.py max_memory_usage_bytes; "
      "docs/runtimes.md)");
  add_term(
      in, e, "compute", e.memory.compute, Placement::Device,
      [&] {
        return fmt::format(
            "profiling run: MLP of {} tokens and sampler logits of {} sequences = {}",
            kVllmBatchedTokens, kVllmSampledSeqs, format_memory(e.memory.compute, in.q.units));
      },
      "vLLM profile_run (vllm/v1/worker/gpu_model_runner.py; docs/accuracy.md)");
  add_term(
      in, e, "overhead", e.memory.overhead, Placement::Device,
      [&] {
        return fmt::format("non-torch memory, {} per GPU = {}",
                           format_memory(kVllmNonTorch, in.q.units),
                           format_memory(e.memory.overhead, in.q.units));
      },
      "vLLM start-up logs (shared/validation/runtime-logs.csv V03, V05, V12)");
  add_term(
      in, e, "margin", 0, Placement::Device,
      [&] {
        return fmt::format(
            "the {:.0f}% vLLM leaves unused (CUDA context, NCCL) is outside its budget",
            (1.0 - util) * 100.0);
      },
      "vLLM gpu_memory_utilization");
  e.required = e.memory.total();
  if (!e.device_known) {
    e.verdict = Verdict::NoFit;
    return;
  }
  // The budget replaces the usable-memory rule: util x total memory per GPU.
  const Device& d0 = q.devices.devices.front();
  VllmKv v;
  v.utilization = util;
  v.tensor_parallel = tp;
  v.budget = budget;
  v.non_kv = non_kv;
  v.kv_available = kv_available;
  v.sequences_at_once = at_once;
  v.kv_tokens = v.kv_available > 0 ? (v.kv_available / per_token_gpu) / kVllmBlock * kVllmBlock : 0;
  v.max_concurrency =
      static_cast<double>(v.kv_tokens) / static_cast<double>(std::max<std::int64_t>(1, in.context));
  e.vllm = v;
  // Only GPUs that exist hold a budget: too large a --tp leaves the need short.
  e.usable = v.budget * std::min<Bytes>(tp, static_cast<Bytes>(q.devices.count()));
  e.usable_reasons.clear();
  if (in.explain) {
    e.usable_reasons.push_back(fmt::format(
        "vLLM takes --gpu-memory-utilization {:g} of each GPU's total memory ({} of {}); the CUDA "
        "context lives in the rest",
        util, format_memory(v.budget, in.q.units), format_memory(d0.memory_bytes, in.q.units)));
  }
  if (static_cast<int>(q.devices.count()) < tp) {
    e.warnings.push_back(
        fmt::format("tensor parallel size {} needs {} GPUs; {} given", tp, tp, q.devices.count()));
  }
  e.headroom = e.usable - e.required;
  e.verdict = v.kv_available >= need_gpu && static_cast<int>(q.devices.count()) >= tp
                  ? Verdict::Fits
                  : Verdict::NoFit;
  for (int i = 0; i < tp && i < static_cast<int>(q.devices.count()); ++i) {
    DeviceShare s;
    s.name = q.devices.devices[static_cast<std::size_t>(i)].name;
    s.capacity = q.devices.devices[static_cast<std::size_t>(i)].memory_bytes;
    s.usable = v.budget;
    s.weights = weights_gpu;
    s.projector = e.memory.projector / tp;
    s.kv_cache = std::max<Bytes>(0, v.kv_available);
    s.compute = activation;
    s.overhead = kVllmNonTorch;
    e.devices.push_back(s);
  }
}

void pytorch(const Inputs& in, Estimate& e) {
  const InferenceQuery& q = in.q;
  const Architecture& a = q.model.arch;
  const bool mlx = e.runtime == Runtime::Mlx;
  set_usable(in, e);
  // An FP8 checkpoint of a tied-embedding model holds its output head as a
  // 16-bit tensor of its own under transformers (essay: "transformers").
  const Bytes head_copy =
      !mlx && q.precision.id == "fp8" && a.tied_embeddings ? 2 * a.vocab_size * a.hidden_size : 0;
  e.memory.weights = e.model_weight_bytes + head_copy;
  add_term(
      in, e, "weights", e.memory.weights, Placement::Device,
      [&] {
        return q.precision.scope == WeightScope::All
                   ? fmt::format("{:.3g} B params x {:g} bytes ({}) = {}",
                                 static_cast<double>(q.model.params) / 1e9,
                                 q.precision.bits_per_weight / 8.0, q.precision.name,
                                 format_size(e.memory.weights, in.q.units))
                   : fmt::format(
                         "linear layers at {:g} bits, embeddings and output head at 16 "
                         "bits{} = {}",
                         q.precision.bits_per_weight,
                         head_copy > 0 ? " (the tied head held again, untied)" : "",
                         format_size(e.memory.weights, in.q.units));
      },
      q.precision.source);
  add_projector(in, e);
  // KV: every token, unpadded (PyTorch) or in steps of 256 (mlx_lm).
  const std::int64_t pad = mlx ? 256 : 1;
  e.kv_cells = pad_context(in.context, pad);
  // Sliding layers keep their window (DynamicSlidingWindowLayer, mlx_lm's
  // RotatingKVCache): no ubatch beyond it. Hybrid caches hold the recurrent
  // state in the model's dtype (HybridMambaAttentionDynamicCache, torch.zeros
  // of dtype), not llama.cpp's F32.
  // transformers lays out MiniCPM3's cache its own way (estimate.cpp,
  // transformers_cache_layout); mlx_lm's is taken as llama.cpp's.
  const int state_bytes = q.precision.id == "fp32" || q.precision.id == "f32" ? 4 : 2;
  const KvCacheQuery kv_query{in.context, in.batch, 0,     in.k_type,
                              in.v_type,  pad,      false, state_bytes};
  // Its gated delta nets keep their recurrent matrices in F32 whatever the
  // model's dtype (transformers_kv_cache_bytes).
  const Architecture cache = mlx ? a : transformers_cache_layout(a);
  const auto cache_bytes = [&](const KvCacheQuery& kq) {
    return mlx ? kv_cache_bytes(a, kq) : transformers_kv_cache_bytes(a, kq);
  };
  e.memory.kv_cache = cache_bytes(kv_query);
  add_term(
      in, e, "kv_cache", e.memory.kv_cache, Placement::Device,
      [&] {
        return kv_formula(in, cache, kv_query, e.memory.kv_cache,
                          mlx ? 0 : transformers_f32_state_floats(a));
      },
      mlx ? "mlx_lm KV cache, grown in steps of 256 tokens" : "transformers DynamicCache");
  // Activations of the prefill pass (essay: "transformers (PyTorch)").
  const std::int64_t prompt = std::min(in.context, q.prompt_tokens.value_or(in.context));
  const std::int64_t step = mlx ? std::min(prompt, kMlxPrefillStep) : prompt;
  const double act_bytes = q.precision.id == "fp32" || q.precision.id == "f32" ? 4.0 : 2.0;
  const double tokens = f(step) * f(in.batch);
  // e-wide tensors live at the MLP: transformers' model loop holds the
  // embeddings and the layer input, the layer its residual and the normed
  // input (four); mlx_lm's block holds its input, residual and normed input.
  const double hidden_live = mlx ? 3.0 : 4.0;
  const double mlp = act_bytes * tokens * (3.0 * f(active_ffn(a)) + hidden_live * f(a.hidden_size));
  // Eager attention (--flash-attn off): every head's P x P scores in the
  // model dtype, their F32 softmax and its cast back, beside the causal mask.
  const bool eager = !mlx && !in.flash;
  const double scores =
      eager ? f(in.batch) * f(step) * f(step) * (f(a.heads) * (2.0 * act_bytes + 4.0) + act_bytes)
            : 0.0;
  const double logits = f(in.batch) * f(a.vocab_size) * (act_bytes + 4.0);
  // MLA's latent expanded to per-head K and V for one layer (essay: "MLA
  // ... expands it again at every forward"), per token.
  const double mla_expand =
      !mlx && uses_mla(cache) ? act_bytes * f(a.heads) *
                                    f(2 * a.attention.qk_nope_head_dim +
                                      (a.attention.v_head_dim > 0 ? a.attention.v_head_dim
                                                                  : a.attention.qk_nope_head_dim) +
                                      a.attention.qk_rope_head_dim)
                              : 0.0;
  const double attention = scores + mla_expand * f(in.batch) * f(step);
  const double prefill = std::max(mlp, attention) + logits;
  // Generation: the cache of the generated tokens does not exist yet at the
  // prefill, and each decode step concatenates one layer's K (then V) into a
  // new tensor while the old one is alive.
  double decode = 0.0;
  double grown = 0.0;
  if (!mlx) {
    grown = f(e.memory.kv_cache - cache_bytes({prompt, in.batch, q.ubatch, in.k_type, in.v_type,
                                               pad, false, state_bytes}));
    decode = f(e.memory.kv_cache) / (2.0 * f(std::max(1, attention_layer_count(a)))) + logits +
             mla_expand * f(in.batch) * f(in.context);
  }
  // Loading an AWQ checkpoint of a tied-embedding model holds the 16-bit
  // embedding twice for a moment (the output head is materialised on its
  // own); with a short prompt that load-time peak is the larger one.
  const double load_copy =
      q.precision.id == "awq" && a.tied_embeddings ? 2.0 * f(a.vocab_size) * f(a.hidden_size) : 0.0;
  // Every GPU of a pipeline (device_map="auto") runs the same layer shapes,
  // so each holds its own activation peak.
  const std::size_t nd = std::max<std::size_t>(1, q.devices.count());
  const Bytes per_device = round_bytes(std::max({prefill - grown, decode, load_copy}));
  e.memory.compute = per_device * static_cast<Bytes>(nd);
  add_term(
      in, e, "compute", e.memory.compute, Placement::Device,
      [&] {
        const std::string where = nd > 1 ? fmt::format(", on each of {} GPUs", nd) : std::string();
        if (decode > prefill - grown && decode >= load_copy) {
          if (mla_expand > 0) {
            return fmt::format(
                "end of generation: one layer's latent expanded to {:g} heads' K and V over {} "
                "tokens{} (expand_kv), the cache growing (torch.cat), and the last logits in "
                "F32{} = {}",
                f(a.heads), in.context,
                in.batch > 1 ? fmt::format(" x {} sequences", in.batch) : "", where,
                format_memory(e.memory.compute, in.q.units));
          }
          return fmt::format(
              "end of generation: one layer's K copied while the cache grows (torch.cat), and "
              "the last logits in F32{} = {}",
              where, format_memory(e.memory.compute, in.q.units));
        }
        return fmt::format(
            "prefill of {} tokens{}: {}, and the last logits in F32{}{} = {}", step,
            in.batch > 1 ? fmt::format(" x {} sequences", in.batch) : "",
            attention > mlp && mla_expand > 0
                ? fmt::format("one layer's latent expanded to {:g} heads' K and V{}", f(a.heads),
                              eager ? ", and their scores" : "")
            : eager && scores > mlp
                ? fmt::format("{:g} heads' {} x {} scores, their F32 softmax and its cast",
                              f(a.heads), step, step)
                : fmt::format("{:g} bytes x tokens x (3 x MLP width + {:g} x hidden)", act_bytes,
                              hidden_live),
            grown > 0 ? ", less the cache of the tokens not yet generated" : "", where,
            format_memory(e.memory.compute, in.q.units));
      },
      mlx ? "mlx_lm prefill step (docs/accuracy.md)"
          : "transformers generate(): prefill MLP or eager scores, DynamicCache growth "
            "(docs/accuracy.md)");
  for (std::size_t i = 0; i < nd; ++i) {
    e.memory.overhead +=
        i < q.devices.count() ? context_overhead(q.devices.devices[i]) : kCudaContext;
  }
  add_term(
      in, e, "overhead", e.memory.overhead, Placement::Device,
      [&] {
        return fmt::format("{} outside the allocator = {}",
                           mlx ? std::string_view("Metal context") : context_words(in.q.devices),
                           format_memory(e.memory.overhead, in.q.units));
      },
      [&] {
        return fmt::format("Ollama per-GPU minimum memory ({} CUDA, {} Metal)",
                           format_memory(kCudaContext, in.q.units),
                           format_memory(kMetalContext, in.q.units));
      });
  const Bytes basis = e.device_known ? e.usable
                                     : e.memory.weights + e.memory.kv_cache + e.memory.compute +
                                           e.memory.overhead + e.memory.projector;
  e.memory.margin = margin_for(basis);
  add_term(
      in, e, "margin", e.memory.margin, Placement::Device,
      [&] {
        return fmt::format(
            "allocator slack, 5% of {}, between {} and {} = {}",
            e.device_known ? "usable memory" : "the need", format_memory(kMarginMin, in.q.units),
            format_memory(kMarginMax, in.q.units), format_memory(e.memory.margin, in.q.units));
      },
      "PyTorch caching allocator fragmentation");
  e.required = e.memory.total();
  e.headroom = e.usable - e.required;
  if (!e.device_known) {
    e.verdict = Verdict::NoFit;
    return;
  }
  // MLX keeps every array in the GPU's working set: no CPU side to offload to.
  const OffloadRam offload = offload_ram(q, std::min(e.required, e.usable));
  const std::optional<Bytes> ram =
      e.runtime == Runtime::Mlx && offload.unified ? std::nullopt : offload.bytes;
  e.verdict = e.headroom >= 0                ? Verdict::Fits
              : (ram && -e.headroom <= *ram) ? Verdict::Offload
                                             : Verdict::NoFit;
  // Several GPUs (device_map="auto"): every term shared in proportion to memory.
  for (const auto& d : q.devices.devices) {
    DeviceShare s;
    s.name = d.name;
    s.capacity = d.memory_bytes;
    s.usable = usable_bytes(d, q.usable);
    const double share =
        e.usable > 0 ? static_cast<double>(s.usable) / static_cast<double>(e.usable) : 0.0;
    s.weights = round_bytes(static_cast<double>(e.memory.weights) * share);
    s.projector = round_bytes(static_cast<double>(e.memory.projector) * share);
    s.kv_cache = round_bytes(static_cast<double>(e.memory.kv_cache) * share);
    s.compute = per_device;
    s.overhead = context_overhead(d);
    s.margin = margin_for(s.usable);
    e.devices.push_back(s);
  }
}

double error_band_pct(Runtime runtime, const Estimate& e, bool gguf_recipe, bool assumed_mix) {
  // Relative error per term, from the accuracy tests' maximum errors
  // (README accuracy table): weights by llama.cpp's recipe 3 % (max 2.4 %),
  // GGUF mixes on an assumed shape 7 % (max 6.7 %), other flat widths 6 %
  // (GPTQ/AWQ peaks within 7.5 %); llama.cpp KV exact (0.5 %); llama.cpp
  // compute buffer 20 % (max 11 %); PyTorch activations 15 %; vLLM
  // activations 30 % (one logged start-up); MLX activations 30 % (no
  // measurement); the CUDA context 25 % (250 MiB in gguf-parser to 457 MiB in
  // Ollama), vLLM's non-torch memory 100 % (0.03 to 0.43 GiB logged).
  double w = gguf_recipe ? 0.03 : (assumed_mix ? 0.07 : 0.06);
  double kv = 0.005;
  double c = 0.20;
  double o = 0.25;
  switch (runtime) {
    case Runtime::LlamaCpp:
    case Runtime::Ollama:
    case Runtime::Generic:
      break;
    case Runtime::Transformers:
      kv = 0.01;
      c = 0.15;
      break;
    case Runtime::Vllm:
      kv = 0.01;
      c = 0.30;
      o = 1.0;
      break;
    case Runtime::Mlx:
      kv = 0.01;
      c = 0.30;
      break;
  }
  const double total = static_cast<double>(e.required);
  if (total <= 0) {
    return 0.0;
  }
  const double err = w * f(e.memory.weights) + kv * f(e.memory.kv_cache) + c * f(e.memory.compute) +
                     o * f(e.memory.overhead);
  return std::round(1000.0 * err / total) / 10.0;
}

}  // namespace detail
}  // namespace willfit
