// Speed: decode and prefill tokens per second from bytes, bandwidths and FLOPs.
//
// Capacity decides whether a model loads; bandwidth decides how fast it talks.
//
// Decode (one sequence). Every new token passes through every layer once, so
// it reads every ACTIVE weight once, plus the KV cache written so far:
//     t_token = sum over tiers of (weight bytes + KV bytes) / (e_bw x BW)
//   - active weights: for a mixture of experts only the routed experts a token
//     uses (k of E), the shared experts and the dense parts:
//     weights x read params / params, with read params = active params minus
//     the token-embedding table (a token reads one row of it), unless the
//     table doubles as the output head (tied), which every token reads whole;
//   - KV cache: the estimator's KV bytes for one sequence at the context
//     (GQA, sliding windows, MLA honoured there); 0 at an empty cache;
//   - tiers: the places weights live, read one after another: a layer split
//     over several GPUs, or GPU layers then offloaded layers in system RAM.
//     Their times add, so offload is a harmonic mix, not a penalty: the
//     -ngl sweep in shared/reference/speed-notes.md section 6 (Qwen2.5-Coder-
//     14B on an RTX 5060 Ti + DDR4-2400) follows exactly this sum within 6 %.
//   - BW: the datasheet peak of the memory the tier reads (device data);
//     system RAM for offload: --ram-bandwidth, else 51.2 GB/s (dual-channel
//     DDR4-3200) for a discrete GPU; unified memory (Apple, Strix Halo, DGX
//     Spark) reads offloaded layers at the device's own bandwidth.
//   - e_bw: the fraction of BW llama.cpp reaches, per device class, DERIVED
//     from measurements: for every calibration row of
//     tests/data/speed_measured.csv (tg128 from shared/validation/speed.csv,
//     sources per row) achieved = measured tokens/s x bytes per token / BW,
//     and e_bw is the median per class. The test SpeedAccuracy.* recomputes
//     those medians, prints them and fails when the constants below drift
//     from them. The figures (calibration split: every other device per class,
//     65 decode rows; "check" rows are held out):
//       NVIDIA GDDR 0.69 (n=15), AMD 0.71 (5), Apple one die 0.79 (30),
//       Apple Ultra 0.55 (9), HBM datacenter 0.30 (3), CPU with DDR4 dual
//       channel 0.59 (2), Intel Arc 0.58 (1: the B580 under Vulkan; the A770,
//       held out, reaches 0.34), other = median of every calibration row
//       0.70 (65). Intel had "other"'s 0.70 before: the A770 row (52.6
//       tokens/s) was answered at 105, now at 79.
//     Apple Ultra (M1/M2/M3 Ultra: two Max dies joined by UltraFusion, each
//       die's memory controllers serving half the memory; data/devices.json's
//       bus "2x M.. Max") reaches far less of its datasheet bandwidth than
//       one die does: in llama.cpp discussion #4167's table an M2 Ultra
//       decodes Llama-2-7B Q4_0 at 88.6-94.3 tokens/s on 800 GB/s where an M2
//       Max reaches 61.0-66.0 (SP0072/SP0078) on half of it. With the
//       Ultras in the Apple class (0.75 over 39 rows) their decode was 36 %
//       fast (median of 21 rows) and Ollama's published rates 1.4-2.3x
//       (geerlingguy/ai-benchmarks: llama3.2:3b on an M1 Ultra 298 tokens/s
//       against 127.6); as a class of their own, derived the same way from
//       their 9 calibration rows: 14.5 % (decode) and 11.6 % (prefill), the
//       one-die Apple rows 8.6 -> 6.2 % and 13.1 -> 11.0 %. Still fast: a
//       small model (llama3.2:3b, 2 GB) on an Ultra under Ollama, +45-100 %
//       (tests/data/speed_apple_ollama.csv).
//     speed-notes section 4 explains the spread: a fixed 1.5-3 ms per token
//     weighs on small models and fast GPUs, and HBM cards under llama.cpp
//     stay near half their bandwidth even at 70 B.
//   The upper bound is the same sum at e_bw = 1: no run can beat it.
//
// Mixture of experts. Two costs beyond "active parameters x bandwidth":
//   - bytes tensor class by class (token_costs with the precision): each
//     block's attention, router and shared experts whole, k of E of its
//     routed experts, and the head, each at its own type from the GGUF
//     recipe (weight_layout). gpt-oss's MXFP4_MOE keeps the experts at 4.25
//     bits and the rest at Q8_0: gpt-oss-20b reads 2.57 GB a token where
//     active / total parameters x the file gives 1.74 GB;
//   - routing nodes: at a batch of one a routed layer runs 6 + k more graph
//     nodes than a dense one (moe_extra_nodes_per_layer, from llama.cpp's
//     build_moe_ffn), and every node costs a fixed time whatever its size
//     (launch, ramp-up and tail of a small kernel). node_time_s() per class
//     is DERIVED from the dense rows: (time per Llama-2-7B token - its bytes
//     at the datasheet bandwidth) / its 612 nodes, the median per class.
//     The tier's fixed_s = routed layers x (6 + k) x node time, added to its
//     decode time once per step (the upper bound leaves it out).
//   - the node floor: bytes / (e_bw x BW) folds the fixed time of a dense
//     graph's nodes into a fraction of the bytes, which holds for the dense
//     7B rows it comes from but not where nodes are many per byte: an MoE
//     reads about 4x fewer bytes per node than Llama-2-7B, and a 1.8 TB/s card
//     streams those bytes fastest. A step cannot take less than its bytes at
//     the datasheet bandwidth plus every node's fixed time, so a tier's decode
//     time is the larger of the two: max(bytes / (e_bw x BW) + fixed_s,
//     bytes / BW + all nodes x node time), all nodes = layers x 19 + 4 +
//     routing's. This is what the RTX 5090 / RTX PRO 6000 MoE rows were
//     missing (gpt-oss-20b on a 5090: 361 -> 292 tokens/s against 282.5
//     measured; gpt-oss-120b on a PRO 6000: 254 -> 201 against 196.3; the
//     Max-Q row, 170.6, a 300 W card at the same datasheet bandwidth, stays
//     17 % fast). Only on the NVIDIA, AMD and HBM classes: Metal encodes
//     independent nodes to run concurrently (ggml-metal's concurrent
//     dispatch), so Apple's per-node time, derived at e = 1, is no serial
//     floor (with it the M2/M3 Ultra gpt-oss rows would go 35 % slow), and
//     the "other" class's is a median over those Apple rows too. Over the 32 MoE decode rows the
//     median error goes from 12.2 % to 10.5 %, over the 137 dense ones from 9.2 % to 9.1 % (six
//     dense rows get worse, most the H100 SXM: 0.8 -> 20.1 %).
//   Against 30 published MoE decode rows (tests/data/speed_measured.csv,
//   SpeedAccuracy.MoeDecodeRowsWithRoutingNodes) the median error goes from
//   80.5 % (the ratio) to 26.9 % (bytes by class) to 13.2 % (plus nodes);
//   no constant is fitted to those rows. vLLM (fused_moe in one kernel,
//   captured in a graph) adds no routing time.
//
// Prefill (a prompt of n tokens, from an empty cache). Compute-bound: each
// token costs 2 FLOPs per weight it reads (a multiply and an add), plus
// attention: for a token at position i, QK^T and AV cost 2 x d x i FLOPs each
// per attention layer, d = heads x head_dim; averaged over the prompt that is
//     FLOPs/token = 2 x read params + 4 x L_attn x d x (n / 2)
// (sliding-window layers are charged as full ones: an overestimate at long
// prompts). Time = FLOPs / (e_c x peak), peak = dense FP16 TFLOPS (BF16, then
// FP32 where no FP16 figure is published, as for Apple GPUs). e_c is derived
// like e_bw, from pp512 rows, with the attention term at n = 512:
//       NVIDIA 0.47, AMD 0.59, Apple 0.60, Apple Ultra 0.55, HBM 0.18, other (and CPU, which
//       has no measured row with a known peak) 0.55.
// Time to first token = n x FLOPs/token / (e_c x peak) for the --context
// prompt. Each micro-batch also reads the weights it uses once, so a tier's
// prefill time is at least ubatches x bytes / (e_bw x BW): the dense parts
// whole, and of the routed experts every one a token of the micro-batch is
// routed to. With k of E experts per token and u tokens a micro-batch, the
// expected share touched is 1 - (1 - k/E)^u (uniform routing): a batch of u
// tokens touches up to min(E, u x k) experts, and at u = 512 nearly all,
// while the compute stays 2 x ACTIVE params per token. For gpt-oss-120b on
// Strix Halo (60 GB of experts at 0.71 x 256 GB/s) the reads outlast the
// maths: pp512 1906 -> 1483 tokens/s against 626 / 720 measured (ROCm /
// Vulkan, kyuz0/amd-strix-halo-toolboxes @d1a34be); still fast: expert
// matmuls of 16 tokens each (512 x 4 / 128) run far below the dense e_c.
//
// Weights in system RAM behind a discrete GPU (-ngl below every layer, or
// --n-cpu-moe / --cpu-moe, which keep the routed experts of the first blocks
// on the CPU). llama.cpp's scheduler (ggml/src/ggml-backend.cpp at llama.cpp
// 80fb11ac, ggml_backend_sched_backend_id_from_cur with op_offload on, the
// default) hands an op whose weights sit in a host buffer to the GPU when the
// GPU backend's offload_op accepts it; ggml-cuda's (and Vulkan's, SYCL's)
// accepts a batch of at least 32 (GGML_OP_OFFLOAD_MIN_BATCH; for MUL_MAT_ID
// the batch is the tokens, op->ne[2]). The weights are then copied to the GPU
// every micro-batch (ggml_backend_sched_compute_splits); for MUL_MAT_ID only
// the experts the router picked (it reads the ids back, then copies each run
// of used experts), so a micro-batch of u tokens copies the dense host weights
// whole and, of each block's E experts, the expected share 1 - (1 - k/E)^u
// (uniform routing: at u = 512, k/E = 8/256, 99.999 %): nearly every host
// expert, every micro-batch, not the k of E a token reads. The copy waits for
// the ids and the GPU's work waits for the copy (one stream), so the times
// add: per micro-batch, copy bytes / link + the GPU's FLOPs as above. A
// micro-batch under 32 tokens stays on the CPU, which reads the same touched
// bytes from RAM (its FLOPs are not modelled: no CPU peak is known). The
// link: PCIe per direction at the device's generation (about 1 GB/s a lane at
// gen 3, doubling per generation) times the lanes its bus states (an RTX 4060
// is x8; x16 when none is stated), the datasheet rate: a copy from pinned
// memory (llama.cpp's default host buffer when a GPU is present, src/llama-
// model.cpp make_cpu_buft_list) comes near it, pageable memory
// (GGML_CUDA_NO_PINNED, mmap) slower. Against published runs with every expert
// in RAM (tests/data/speed_moe_offload.csv, SpeedAccuracy.
// MoeExpertsInRamPrefillRows): Qwen3.6-35B-A3B on an RTX 5080, 692 tokens/s
// measured with pageable memory, 1379 estimated; on an RTX 2060 (PCIe 3.0),
// 287 and 326 measured, 386 estimated. Pricing the copy at the host's active
// bytes instead (k of E) gave 10-30x the measured rates. Not modelled:
// ik_llama.cpp, which computes such micro-batches on the CPU (its 337 tokens/s
// on an RTX 3080 Ti is printed beside the 769 this model gives llama.cpp).
//
// Batch (N sequences decoding together). The weights are read once per step
// for all N; each sequence adds its KV bytes (its cache taken half full, the
// average over a conversation that fills the context) and its FLOPs:
//     t_step = sum over tiers of max((W + N x KV) / (e_bw x BW),
//                                    N x FLOPs/token / (e_c x peak))
// and throughput = N / t_step: the roofline min(N x bandwidth-bound rate,
// compute-bound rate). The bound is "compute" when the compute times win.
//
// Tensor parallel (--split tensor, N devices). Every device holds 1/N of every
// layer, so each reads W / N per token in parallel, and the step adds the
// collectives that keep the devices in step (tensor_parallel_step_s):
//     t_step = W / (N x e x BW) + (1 + 2 L) x t_allreduce(N, hidden x 2 B)
//              + t_allgather(N, vocab x 2 B)
//   - 1 + 2 L all-reduces: the vocabulary-parallel embedding, then two a
//     layer (attention output, MLP output; Megatron-LM's split, as vLLM's
//     RowParallelLinear does it), and one gather of the vocabulary-parallel
//     logits; the message is tokens x hidden x 2 bytes (16 KB for a
//     Llama-70B token);
//   - t_collective: NCCL's own cost model (collective_s, from its tuner's
//     latency and bandwidth tables): per all-reduce 6.6 us + 2 (N - 1) x
//     0.6 us over NVLink, x 1.0 us over PCIe, plus the bytes at the link's
//     bandwidth. Over 80 layers of a 70B that is 1.3 ms a token on 2 NVLink
//     GPUs, 2.5 ms on 8, 3.9 ms on 8 over PCIe 4.0: a few per cent of the step;
//   - e: vLLM's engine efficiency, the median achieved on one GPU (Qwen2.5-
//     7B/14B/32B BF16 on one A100 80GB, vLLM 0.6.3, QwenLM/Qwen2.5
//     speed_benchmark.rst @f4d356c: 84.28 / 46.3 / 22.13 tokens/s,
//     tests/data/speed_vllm.csv): 0.64, for one GPU and for several.
//   No term is fitted to a tensor-parallel row, and there is no per-step
//   engine time: vLLM captures the decode step in CUDA graphs (merged in
//   December 2023, vllm-project/vllm#1926; on by default), so its launches
//   are in what the one-GPU rows measure. A per-step CPU time (scheduler,
//   input preparation) that does not grow with the model would show there as
//   an error falling with size: the 7B row is 9 % fast, the 32B 8 % slow, so
//   a term of 1-2 ms is possible, but we found no published figure for it
//   at batch 1, and it is left out.
//   Checked against every published tensor-parallel decode we have
//   (tests/data/speed_tensor_parallel.csv and speed_vllm.csv,
//   SpeedAccuracy.TensorParallelRows): Qwen2.5-72B BF16 on 2 / 4 A100 80GB
//   (vLLM 0.6.3), Llama-3.3-70B FP8 on 2 H100 (NVIDIA NIM 1.8.0, inter-token
//   latency), Llama-3.1-405B FP8 on 8 MI300X (vLLM on ROCm, Oracle's blog).
//   Known miss, kept as a bound: vLLM of November 2023 (before CUDA graphs and
//   its custom all-reduce) ran Llama-2-70B FP16 on 2 / 4 / 8 A100 PCIe at
//   15.27 / 17.64 / 14.32 tokens/s (mlc-ai/llm-perf-bench @d401356): slower
//   on 8 GPUs than on 4, the mark of an eager-mode engine whose per-kernel CPU
//   dispatch, not the GPUs, sets the pace. The model is for today's engine
//   and is faster than those rows (the test checks that it is). Also a
//   bound: llama.cpp's -sm row, 70B Q4_K_M on 4 RTX 4090, 17.56 tokens/s
//   (ggml-org/llama.cpp#19378, 2026-02-07) where the model gives 53. Row
//   split copies each split matrix multiplication's input out to the other
//   GPUs and its output back to the main one (ggml-cuda's split buffers):
//   seven synchronisations a layer, not two. It is not modelled (we have no
//   sourced latency per copy); llama.cpp's -sm tensor, which all-reduces
//   twice a layer, is what --split tensor describes.
//   Errors, graph-captured rows (5): median 5.3 %, worst +31 % (405B on 8
//   MI300X: ROCm's engine reads less than the A100 rows say, and the model
//   gives MI300X's Infinity Fabric, which data/devices.json does not rate,
//   PCIe's latency). The fitted ring-step latencies this replaces (25 us
//   over PCIe, 2.1 us over NVLink, e = 0.61), on the same five rows: median
//   4.1 %, worst -73 % (the MI300X row); they were fitted to the November
//   2023 PCIe rows, which they met within 1-7 %.
//   Llama-3.1-405B FP8 on 8 H100 SXM: 51 GB per device per token at 0.64 x
//   3350 GB/s = 24 ms, plus 253 all-reduces of 32 KB at 15 us = 4 ms: about
//   36 tokens/s.
//
// Error band: the 80th percentile of the relative error over all measured
// rows (decode and prefill), rounded up to 5 %: 25 % (the accuracy test
// recomputes it). Median errors over all 305 rows: decode 9.3 %, prefill
// 14.0 %. Offload and tensor parallel lie mostly outside the measured rows,
// so their band is doubled (five graph-captured tensor-parallel rows, one of
// them 31 % off, are too few to narrow it). Known misses, kept in the rows: Mixtral-8x7B
// prefill on an M2 Max (Dec 2023 build) runs 3-7x slower than 2 x active
// FLOPs predicts, and its Q2_K/Q3_K decode is 75-90 % slower than the bytes.
#include "willfit/speed/speed.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

constexpr double kGigabyte = 1e9;  // GB/s -> bytes/s
constexpr double kTera = 1e12;
constexpr int kErrorBandPct = 25;

// ggml's smallest batch a GPU backend takes an op on host-resident weights
// for (ggml-cuda.cu, ggml-vulkan.cpp, ggml-sycl.cpp at llama.cpp 80fb11ac:
// op_offload_min_batch_size, GGML_OP_OFFLOAD_MIN_BATCH, default 32; the batch
// of a MUL_MAT_ID is its tokens, op->ne[2], get_op_batch_size).
constexpr double kOpOffloadMinBatch = 32;

// The PCIe lanes of the host link as the device's bus states them ("PCIe 4.0
// x8" -> 8, "OAM; PCIe Gen5 x16 (128 GB/s)" -> 16); 0 when it names none.
int pcie_lanes(const Interconnect& link) {
  const std::string_view bus = link.bus;
  const std::size_t pcie = bus.find("PCIe");
  if (pcie == std::string_view::npos) {
    return 0;
  }
  // The first " x<digits>" after "PCIe", within the same ';'-separated part.
  const std::size_t end = std::min(bus.size(), bus.find(';', pcie));
  for (std::size_t i = bus.find(" x", pcie); i != std::string_view::npos && i + 2 < end;
       i = bus.find(" x", i + 1)) {
    int lanes = 0;
    std::size_t j = i + 2;
    for (; j < end && bus[j] >= '0' && bus[j] <= '9'; ++j) {
      lanes = lanes * 10 + (bus[j] - '0');
    }
    if (j > i + 2 && lanes > 0 && lanes <= 32) {
      return lanes;
    }
  }
  return 0;
}

// PCIe per direction: about 1 GB/s per lane at gen 3 (8 GT/s, 128b/130b),
// doubling per generation, times the lanes the device's bus states (x16 when
// it states none: a bare capacity, a card whose source gave no width).
double pcie_gb_per_s(const Interconnect& link) {
  const int gen = link.pcie_gen > 0 ? link.pcie_gen : 4;
  const int stated = pcie_lanes(link);
  const int lanes = stated > 0 ? stated : 16;
  return lanes * std::pow(2.0, gen - 3);
}

bool is_apple(const Device& d) {
  return d.vendor == "apple";
}

// The dies of an Apple chip as data/devices.json's bus names them: the Ultra
// chips are "SoC (2x M1 Max UltraFusion)", "SoC (2x M2 Max)", "SoC (2x M3
// Max)": two Max dies whose memory controllers each serve half the memory.
int apple_dies(const Device& d) {
  const std::string_view bus = d.interconnect.bus;
  const std::size_t x = bus.find("x ");
  if (x == std::string_view::npos || x == 0 || bus[x - 1] < '2' || bus[x - 1] > '9') {
    return 1;
  }
  return bus[x - 1] - '0';
}

std::string tier_label(const Device& d) {
  return d.name.empty() ? d.id : d.name;
}

// A verdict of "does not fit" that still runs, and how:
//  - llama.cpp's offload plan when system RAM is unknown: the layers it keeps
//    in RAM run at RAM bandwidth, if RAM holds them (said in the answer);
//  - vLLM whose KV cache holds at least one sequence of the context but fewer
//    than --batch: the scheduler queues the rest and decodes as many as fit
//    (vllm/core/scheduler.py admits a sequence only when its blocks are free);
//    the estimate counts this a fit now (runtime.cpp vllm), and the batch
//    that decodes is its sequences_at_once either way.
//  - an offload on one unified-memory device whose plan needs more than the
//    memory by less than the estimate's error band (tight): it may load.
struct RunsAnyway {
  bool runs = false;
  std::optional<Bytes> ram;  // system RAM it needs, when RAM is unknown
  int sequences = 0;         // sequences decoding at once (0: as asked)
  bool if_it_loads = false;  // unified memory, short by less than the band
};

RunsAnyway runs_anyway(const InferenceQuery& q, const Estimate& e) {
  RunsAnyway r;
  if (e.verdict != Verdict::NoFit) {
    r.runs = true;
    // vLLM fits a --batch its cache does not hold and queues the rest
    // (runtime.cpp vllm): the batch that decodes is the one at once.
    if (e.vllm && e.vllm->sequences_at_once < q.batch) {
      r.sequences = e.vllm->sequences_at_once;
    }
    return r;
  }
  if (e.offload && !e.offload->ram_holds.has_value() && e.offload->gpu_layers > 0) {
    r.runs = true;
    r.ram = e.offload->host_bytes;
    return r;
  }
  if (e.offload && e.offload->ram_unified && e.tight && e.offload->gpu_layers > 0) {
    r.runs = true;
    r.if_it_loads = true;
    return r;
  }
  if (e.vllm && e.vllm->kv_available > 0 && e.vllm->sequences_at_once < q.batch &&
      e.vllm->tensor_parallel <= static_cast<int>(q.devices.count())) {
    r.runs = true;
    r.sequences = e.vllm->sequences_at_once;
  }
  return r;
}

// Devices splitting every layer: vLLM's tensor parallel size as the memory
// estimate used it, or every device under --split tensor; 1 otherwise.
int tensor_parallel_devices(const InferenceQuery& q, const Estimate& e,
                            const SpeedSettings& settings) {
  const int count = static_cast<int>(q.devices.devices.size());
  if (e.vllm) {
    return std::clamp(e.vllm->tensor_parallel, 1, std::max(1, count));
  }
  return settings.split == SplitMode::Tensor ? std::max(1, count) : 1;
}

}  // namespace

std::string_view to_string(SpeedBound bound) {
  return bound == SpeedBound::Compute ? "compute" : "bandwidth";
}

std::string_view to_string(SpeedClass c) {
  switch (c) {
    case SpeedClass::Nvidia:
      return "nvidia";
    case SpeedClass::Amd:
      return "amd";
    case SpeedClass::Apple:
      return "apple";
    case SpeedClass::AppleUltra:
      return "apple_ultra";
    case SpeedClass::Hbm:
      return "hbm";
    case SpeedClass::Cpu:
      return "cpu";
    case SpeedClass::Intel:
      return "intel";
    case SpeedClass::Other:
      return "other";
  }
  return "other";
}

std::string_view to_string(SplitMode mode) {
  return mode == SplitMode::Tensor ? "tensor" : "layer";
}

SpeedClass speed_class(const Device& d) {
  if (d.kind == DeviceKind::Cpu) {
    return SpeedClass::Cpu;
  }
  if (is_apple(d)) {
    return apple_dies(d) > 1 ? SpeedClass::AppleUltra : SpeedClass::Apple;
  }
  if (d.memory_type.find("HBM") != std::string::npos) {
    return SpeedClass::Hbm;
  }
  if (d.vendor == "nvidia") {
    return SpeedClass::Nvidia;
  }
  if (d.vendor == "amd") {
    return SpeedClass::Amd;
  }
  if (d.vendor == "intel") {
    return SpeedClass::Intel;
  }
  return SpeedClass::Other;
}

// Medians of the calibration rows of tests/data/speed_measured.csv (see the
// essay above; SpeedAccuracy.ConstantsAreTheMedians checks them).
Efficiency efficiency(SpeedClass c) {
  switch (c) {
    case SpeedClass::Nvidia:
      return {0.69, 0.47};
    case SpeedClass::Amd:
      return {0.71, 0.59};
    case SpeedClass::Apple:
      return {0.79, 0.60};
    case SpeedClass::AppleUltra:
      return {0.55, 0.55};  // two dies: the M1/M2/M3 Ultra rows
    case SpeedClass::Hbm:
      return {0.30, 0.18};
    case SpeedClass::Cpu:
      return {0.59, 0.55};  // no CPU prefill row with a known peak: "other"'s
    case SpeedClass::Intel:
      return {0.58, 0.61};  // one calibration row (Arc B580); the A770 is held out
    case SpeedClass::Other:
      return {0.70, 0.55};
  }
  return {0.70, 0.55};
}

// A routed layer at decode, as llama.cpp's build_moe_ffn (src/llama-graph.cpp)
// builds it, against the four nodes of a dense gated MLP (gate, up, GLU, down):
//   router matmul, softmax, argsort (top-k), get_rows (the k weights),
//   sum_rows + div (weights normalised), up / gate / down mul_mat_id, GLU,
//   mul by the weights, and k - 1 adds summing the k expert outputs;
//   shared experts: a dense gated MLP (4 nodes) plus the add that joins it.
// That is 10 + k nodes for the routed part: 6 + k more than a dense MLP.
int moe_extra_nodes_per_layer(const Architecture& a) {
  if (!a.moe || a.moe->experts <= 0) {
    return 0;
  }
  const int k = std::max(1, a.moe->experts_per_token);
  return 6 + k + (a.moe->shared_experts > 0 ? 5 : 0);
}

// Medians over the dense calibration rows of tests/data/speed_measured.csv
// (one Llama-2-7B decode per device): (1 / measured tokens/s - bytes / BW) /
// (32 x kDenseLayerNodes + kTokenNodes). SpeedAccuracy.NodeTimesAreTheMedians
// OfTheDenseRows recomputes them and fails when these drift. The figures agree
// with speed-notes section 4's "fixed 1.3-2.6 ms per token" on GeForce cards
// (Llama-2-7B Q4_0 on 5090 / 4090 / 3090: 1.31 / 1.58 / 2.24 ms over 612 nodes
// is 2.1-3.7 us a node).
double node_time_s(SpeedClass c) {
  switch (c) {
    case SpeedClass::Nvidia:
      return 2.84e-6;
    case SpeedClass::Amd:
      return 3.99e-6;
    case SpeedClass::Apple:
      return 14.43e-6;
    case SpeedClass::AppleUltra:
      return 13.94e-6;
    case SpeedClass::Hbm:
      return 5.79e-6;
    case SpeedClass::Cpu:
      return 0;  // no launches: the cores that run the graph read the memory
    case SpeedClass::Intel:
      return 9.75e-6;  // the Arc B580 row alone
    case SpeedClass::Other:
      return 11.01e-6;
  }
  return 0;
}

std::optional<double> peak_tflops(const Device& d) {
  if (d.fp16_tflops_dense) {
    return d.fp16_tflops_dense;
  }
  if (d.bf16_tflops_dense) {
    return d.bf16_tflops_dense;
  }
  return d.fp32_tflops;
}

namespace {

// Looped layers (Nanbeige4.2, Architecture::loops): nanbeige.cpp runs the
// weight-tied layers `loops` times a token, so each pass reads their weights
// again; the embeddings and the output head are read once.
std::int64_t repeated_layer_params(const Architecture& a, const ParamBreakdown& p) {
  return static_cast<std::int64_t>(std::max(1, a.loops) - 1) * (p.attention + p.mlp_active);
}

}  // namespace

Bytes decode_weight_bytes(const Model& model, Bytes weights) {
  if (model.params <= 0) {
    return weights;
  }
  const ParamBreakdown p = count_params(model.arch);
  const std::int64_t skip = model.arch.tied_embeddings ? 0 : p.embedding;
  const std::int64_t active = model.active_params > 0 ? model.active_params : model.params;
  const std::int64_t read = std::clamp<std::int64_t>(active - skip, 1, model.params) +
                            repeated_layer_params(model.arch, p);
  return round_bytes(static_cast<double>(weights) * static_cast<double>(read) /
                     static_cast<double>(model.params));
}

OffloadSplit offload_split(const Estimate& e) {
  OffloadSplit s;
  if (e.offload) {
    // The runtime's plan: weights read per token on each side (MoE: active experts).
    s.device_weights = e.offload->gpu_active_weight_bytes;
    s.host_weights = e.offload->host_active_weight_bytes;
    return s;
  }
  s.device_weights = e.model_weight_bytes;
  if (e.verdict == Verdict::Offload && e.headroom < 0) {
    s.host_weights = std::min(e.model_weight_bytes, -e.headroom);
    s.device_weights = e.model_weight_bytes - s.host_weights;
  }
  return s;
}

// NCCL's tuner (NVIDIA/nccl src/graph/tuning.cc @b6475625, ncclTopoTuneModel
// and ncclTopoGetAlgoTime), one node, ring algorithm: time = latency + bytes /
// algorithm bandwidth, the faster of its LL and Simple protocols (the tuner
// picks the fastest; LL for the small messages of decode, Simple for prefill).
//   latency = baseLat + steps x hwLat, steps = 2 (N - 1) for an all-reduce,
//             N - 1 for an all-gather;
//   baseLat (us): LL 6.6, Simple 8.4; hwLat (us) per ring step: NVLink LL 0.6,
//             Simple 3.4; PCIe LL 1.0, Simple 5.7;
//   algorithm bandwidth = bus bandwidth x N / steps, LL at 1/4 of it (its
//             flags halve the payload and NCCL's model halves it again).
// The bus bandwidth is the link's per-direction figure (NVLink: half the
// vendor's bidirectional number; else PCIe x16 of the device's generation).
// Against published small-message runs: NCCL 2.20 on 2 H100 SXM about 6 us
// (NVIDIA/nccl#1259; the model 7.8 us); vLLM's custom all-reduce on 2/4/8
// H100 at 4-32 KB 8.5-9.5 us, NCCL's ring the same or slower
// (sgl-project/sglang#2904; the model 7.8 / 10.2 / 15.0 us).
double collective_s(Collective c, int devices, bool nvlink, double link_gb_per_s, double bytes) {
  if (devices <= 1 || link_gb_per_s <= 0) {
    return 0.0;
  }
  const double steps = c == Collective::AllReduce ? 2.0 * (devices - 1) : devices - 1.0;
  const double bus = link_gb_per_s * kGigabyte;
  const double algorithm_bw = bus * devices / steps;
  const double ll = 1e-6 * (6.6 + steps * (nvlink ? 0.6 : 1.0)) + bytes / (algorithm_bw / 4.0);
  const double simple = 1e-6 * (8.4 + steps * (nvlink ? 3.4 : 5.7)) + bytes / algorithm_bw;
  return std::min(ll, simple);
}

// One step of a Megatron-style tensor-parallel transformer, as vLLM runs it
// (vllm/model_executor/layers/vocab_parallel_embedding.py, linear.py,
// logits_processor.py): the vocabulary-parallel embedding ends in an
// all-reduce; every layer all-reduces the attention output (o_proj, a
// RowParallelLinear) and the MLP output (down_proj); the vocabulary-parallel
// head's logits are gathered. Activations are 2 bytes (FP16/BF16) x hidden
// per token, logits 2 bytes x vocabulary per row.
double tensor_parallel_step_s(const TensorParallel& tp, double tokens, double logit_rows) {
  if (tp.devices <= 1) {
    return 0.0;
  }
  const double activations = tokens * static_cast<double>(tp.hidden_size) * 2.0;
  double t = 0;
  if (tokens > 0) {
    t += (1.0 + 2.0 * tp.layers) *
         collective_s(Collective::AllReduce, tp.devices, tp.nvlink, tp.link_gb_per_s, activations);
  }
  if (logit_rows > 0 && tp.vocab_size > 0) {
    t += collective_s(Collective::AllGather, tp.devices, tp.nvlink, tp.link_gb_per_s,
                      logit_rows * static_cast<double>(tp.vocab_size) * 2.0);
  }
  return t;
}

SpeedEstimate estimate_speed(const SpeedQuery& q) {
  SpeedEstimate r;
  r.tiers = q.tiers;
  r.context = q.context;
  r.batch = std::max(1, q.batch);
  if (q.tiers.empty()) {
    r.reason = "no device";
    return r;
  }
  const int tp = std::max(1, q.tensor_parallel.devices);
  const auto all_reduce_s = [&](double tokens, double logit_rows) {
    return tp > 1 ? tensor_parallel_step_s(q.tensor_parallel, tokens, logit_rows) : 0.0;
  };
  const double total_weights = std::accumulate(
      q.tiers.begin(), q.tiers.end(), 0.0,
      [](double s, const SpeedTier& t) { return s + static_cast<double>(t.weight_bytes); });

  // Decode: memory time per tier, compute time per tier (when a peak is known).
  const auto decode_step = [&](int sequences, double cache_fill, double efficiency_scale,
                               double& memory_s, double& compute_s) {
    memory_s = 0;
    compute_s = 0;
    double total = 0;
    for (const SpeedTier& t : q.tiers) {
      const double kv = cache_fill * static_cast<double>(t.kv_bytes);
      const double bytes = static_cast<double>(t.weight_bytes) + sequences * kv;
      const double bw = t.bandwidth_gb_per_s * kGigabyte *
                        (efficiency_scale > 0 ? efficiency_scale : t.bandwidth_efficiency);
      // Fixed per-node time (MoE routing) is no part of the datasheet bound.
      const double fixed = efficiency_scale > 0 ? 0.0 : t.fixed_s;
      double mem = (bw > 0 ? bytes / bw : 0.0) + fixed;
      if (efficiency_scale <= 0 && t.bandwidth_gb_per_s > 0 && t.graph_nodes_s > 0) {
        // Or the floor, whichever is longer: the bytes at the datasheet
        // bandwidth plus every graph node's fixed time (the essay: it binds
        // when nodes are many per byte; the datasheet bound leaves it out).
        mem = std::max(mem, bytes / (t.bandwidth_gb_per_s * kGigabyte) + t.graph_nodes_s);
      }
      double comp = 0;
      if (t.tflops && *t.tflops > 0 && t.compute_efficiency > 0) {
        const double flops =
            sequences * static_cast<double>(t.weight_bytes) * q.flops_per_weight_byte;
        comp = flops / (*t.tflops * kTera * t.compute_efficiency);
      }
      memory_s += mem;
      compute_s += comp;
      total += std::max(mem, comp);
    }
    return total + all_reduce_s(sequences, sequences);
  };
  double mem = 0;
  double comp = 0;
  const double t1 = decode_step(1, 0.0, 0, mem, comp);
  const double t1_ctx = decode_step(1, 1.0, 0, mem, comp);
  const double t1_peak = decode_step(1, 0.0, 1.0, mem, comp);
  const double tn = decode_step(r.batch, 0.5, 0, mem, comp);  // caches half full on average
  if (t1 <= 0 || t1_ctx <= 0 || tn <= 0) {
    r.reason = "no bandwidth known for the device";
    return r;
  }
  r.estimable = true;
  r.decode_tokens_per_s = 1.0 / t1;
  r.decode_tokens_per_s_at_context = 1.0 / t1_ctx;
  r.decode_upper_bound_tokens_per_s = 1.0 / t1_peak;
  r.batch_tokens_per_s = r.batch / tn;
  r.bound = comp > mem ? SpeedBound::Compute : SpeedBound::Bandwidth;
  r.error_band_pct = q.calibrated ? kErrorBandPct : 2 * kErrorBandPct;

  // Prefill of a prompt of `context` tokens, micro-batch by micro-batch: as
  // many full ones as fit, then the rest (llama_decode splits the batch so).
  const double n = static_cast<double>(std::max<std::int64_t>(1, q.context));
  const double ubatch = static_cast<double>(std::max<std::int64_t>(1, q.ubatch));
  const double full_ubatches = std::floor(n / ubatch);
  const double last_ubatch = n - full_ubatches * ubatch;  // 0: none
  const double ubatches = full_ubatches + (last_ubatch > 0 ? 1 : 0);
  // The bytes of a tier a micro-batch of `tokens` reads: the dense parts
  // whole, and of the routed experts every one at least one token picks.
  const auto ubatch_bytes = [](const SpeedTier& t, double tokens) {
    const double experts = static_cast<double>(t.expert_bytes);
    const double touched = t.expert_share > 0 && t.expert_share < 1
                               ? 1.0 - std::pow(1.0 - t.expert_share, tokens)
                               : t.expert_share;
    return std::max(0.0, static_cast<double>(t.weight_bytes) - experts * t.expert_share) +
           experts * touched;
  };
  double prefill_s = 0;
  for (const SpeedTier& t : q.tiers) {
    const SpeedTier& maths = t.prefill_link_gb_per_s ? q.tiers.front() : t;
    if (!maths.tflops || *maths.tflops <= 0 || maths.compute_efficiency <= 0) {
      prefill_s = 0;
      break;
    }
    // Host-resident weights behind a link (prefill_link_gb_per_s): a
    // micro-batch of at least kOpOffloadMinBatch tokens runs on the GPU, its
    // weights copied over the link first (the essay); a smaller one runs on
    // the CPU, reading them from RAM. Which tokens the GPU computes:
    double gpu_tokens = n;
    double link_s = 0;
    double cpu_s = 0;
    if (t.prefill_link_gb_per_s) {
      const double ram_bw = t.bandwidth_gb_per_s * kGigabyte * t.bandwidth_efficiency;
      const auto host_part = [&](double tokens, double count) {
        if (tokens <= 0 || count <= 0) {
          return;
        }
        const double bytes = count * ubatch_bytes(t, tokens);
        if (tokens >= kOpOffloadMinBatch) {
          link_s += bytes / (*t.prefill_link_gb_per_s * kGigabyte);
        } else {
          gpu_tokens -= count * tokens;
          cpu_s += ram_bw > 0 ? bytes / ram_bw : 0.0;
        }
      };
      host_part(std::min(n, ubatch), full_ubatches);
      host_part(last_ubatch, 1);
      if (link_s > 0) {
        const double each = ubatch_bytes(t, std::min(n, ubatch));
        const double experts = static_cast<double>(t.expert_bytes);
        r.prefill_link_arithmetic = fmt::format(
            "prefill over PCIe: the GPU computes each micro-batch of {:g}+ tokens, so the "
            "weights in system RAM it touches are copied to it first{}: {:g} micro-batch{} x "
            "{:.3g} GB / {:.3g} GB/s = {:.3g} s, added to the GPU's own time",
            kOpOffloadMinBatch,
            experts > 0 && t.expert_share > 0 && t.expert_share < 1
                ? fmt::format(" (of each block's experts, those any of {:g} tokens picks: "
                              "1 - (1 - {:.3g})^{:g} = {:.3g}% of them)",
                              std::min(n, ubatch), t.expert_share, std::min(n, ubatch),
                              100.0 * (1.0 - std::pow(1.0 - t.expert_share, std::min(n, ubatch))))
                : std::string(),
            ubatches, ubatches == 1 ? "" : "es", each / kGigabyte, *t.prefill_link_gb_per_s,
            link_s);
      }
    }
    // This tier's share of the layers (of one device's share, under tensor parallel).
    const double share =
        total_weights > 0 ? static_cast<double>(t.weight_bytes) / total_weights / tp : 0;
    const double flops =
        gpu_tokens * (static_cast<double>(t.weight_bytes) * q.flops_per_weight_byte +
                      share * q.attention_flops_per_position * n / 2.0);
    const double compute_s = flops / (*maths.tflops * kTera * maths.compute_efficiency);
    // Each micro-batch reads the weights it uses once (on the device that holds them).
    double memory_s = 0;
    if (!t.prefill_link_gb_per_s && t.bandwidth_gb_per_s > 0 && t.bandwidth_efficiency > 0) {
      const double bw = t.bandwidth_gb_per_s * kGigabyte * t.bandwidth_efficiency;
      memory_s = (full_ubatches * ubatch_bytes(t, std::min(n, ubatch)) +
                  (last_ubatch > 0 ? ubatch_bytes(t, last_ubatch) : 0.0)) /
                 bw;
    }
    // The copy and the GPU's work on it run one after the other: the copy
    // waits for the router's choices (the scheduler reads the ids back first).
    prefill_s += std::max(compute_s, memory_s) + link_s + cpu_s;
  }
  if (prefill_s > 0) {
    prefill_s +=
        ubatches *
            all_reduce_s(static_cast<double>(std::min<std::int64_t>(q.context, q.ubatch)), 0) +
        all_reduce_s(0, 1);  // the prompt's last token's logits, once
    r.prefill_tokens_per_s = n / prefill_s;
    r.time_to_first_token_s = prefill_s;
    if (!r.prefill_link_arithmetic.empty()) {
      r.prefill_link_arithmetic += fmt::format(", of the prompt's {:.3g} s", prefill_s);
    }
  } else {
    r.prefill_link_arithmetic.clear();
    // Without a figure in the data the user must bring one; say how to get
    // it for a CPU (the common case: system RAM entries carry no FLOPS): the
    // FP32 peak of its cores (AVX2 with two FMA units: 2 x 8 lanes x 2 = 32
    // FLOPs a cycle), or a measured prompt speed from llama.cpp's llama-bench.
    r.notes.push_back(
        "prefill not estimated: no FLOPS figure for the device; give --tflops, its dense "
        "TFLOPS (a CPU: cores x GHz x 32 FP32 FLOPs per core per cycle with AVX2 and two FMA "
        "units, / 1000), or measure the prompt speed with llama.cpp's llama-bench -p 512");
  }
  return r;
}

TokenCosts token_costs(const Model& m, Bytes weights, Bytes kv_bytes) {
  TokenCosts c;
  c.weight_bytes = decode_weight_bytes(m, weights);
  c.kv_bytes = kv_bytes;
  const ParamBreakdown p = count_params(m.arch);
  const std::int64_t active = m.active_params > 0 ? m.active_params : m.params;
  const std::int64_t read_params =
      std::max<std::int64_t>(1, active - (m.arch.tied_embeddings ? 0 : p.embedding)) +
      repeated_layer_params(m.arch, p);
  c.flops_per_weight_byte = c.weight_bytes > 0 ? 2.0 * static_cast<double>(read_params) /
                                                     static_cast<double>(c.weight_bytes)
                                               : 0;
  // Only layers with attention read the cache (hybrid models: layer_roles).
  const int loops = std::max(1, m.arch.loops);
  const int attention_layers = attention_layer_count(m.arch) * loops;
  c.attention_flops_per_position =
      4.0 * attention_layers * static_cast<double>(m.arch.heads) * m.arch.head_dim;
  c.extra_nodes = static_cast<double>(moe_layer_count(m.arch)) * moe_extra_nodes_per_layer(m.arch);
  c.graph_nodes =
      static_cast<double>(m.arch.layers) * loops * kDenseLayerNodes + kTokenNodes + c.extra_nodes;
  return c;
}

TokenCosts token_costs(const Model& m, const Precision& precision, Bytes weights, Bytes kv_bytes) {
  TokenCosts c = token_costs(m, weights, kv_bytes);
  if (!m.is_moe() || weights <= 0) {
    return c;
  }
  // Per block: everything but the routed experts whole, the routed experts
  // k of E (llama.cpp's mul_mat_id reads only the selected experts' rows);
  // then the output head. Token embeddings: one row a token (not counted).
  const WeightLayout w = weight_layout(m, precision);
  if (w.total() <= 0) {
    return c;
  }
  const double share = static_cast<double>(m.arch.moe->experts_per_token) /
                       static_cast<double>(std::max(1, m.arch.moe->experts));
  double read = static_cast<double>(w.output);
  double experts = 0;
  for (const LayerWeights& l : w.layers) {
    read +=
        static_cast<double>(l.bytes - l.expert_bytes) + static_cast<double>(l.expert_bytes) * share;
    experts += static_cast<double>(l.expert_bytes);
  }
  // In the units of `weights` (the estimate's total; the layout is scaled to
  // a file's size when one is known, so the two agree).
  const double scale = static_cast<double>(weights) / static_cast<double>(w.total());
  const Bytes bytes = round_bytes(read * scale);
  c.expert_bytes = round_bytes(experts * scale);
  c.expert_share = share;
  if (bytes > 0) {
    c.flops_per_weight_byte *= static_cast<double>(c.weight_bytes) / static_cast<double>(bytes);
    c.weight_bytes = bytes;
  }
  return c;
}

Bytes kv_read_bytes(const Architecture& arch, std::int64_t tokens, const KvType& k,
                    const KvType& v) {
  if (tokens <= 0 || arch.layers <= 0) {
    return 0;
  }
  const std::int64_t cells = pad_context(tokens);
  const Bytes padded = kv_cache_bytes(arch, KvCacheQuery{tokens, 1, 512, k, v});
  return round_bytes(static_cast<double>(padded) * static_cast<double>(tokens) /
                     static_cast<double>(cells));
}

SpeedTier device_tier(const Device& d, const TokenCosts& c, double share) {
  const Efficiency eff = efficiency(speed_class(d));
  SpeedTier t;
  t.label = tier_label(d);
  t.weight_bytes = round_bytes(static_cast<double>(c.weight_bytes) * share);
  t.kv_bytes = round_bytes(static_cast<double>(c.kv_bytes) * share);
  t.bandwidth_gb_per_s = d.bandwidth_gb_per_s.value_or(0.0);
  t.bandwidth_efficiency = eff.bandwidth;
  if (speed_class(d) == SpeedClass::Other) {
    t.efficiency_basis = "median of all measured devices";
  } else if (speed_class(d) == SpeedClass::Intel) {
    t.efficiency_basis = "Intel Arc class, measured on one card, the B580";
  }
  t.tflops = peak_tflops(d);
  t.compute_efficiency = eff.compute;
  t.fixed_s = c.extra_nodes * share * node_time_s(speed_class(d));
  // The node floor, where nodes run one after another (CUDA, HIP, Vulkan on
  // discrete and datacenter GPUs). Metal encodes independent nodes to run
  // concurrently (ggml-metal's concurrent dispatch), so its per-node time is
  // no serial floor; "other" is a median over Apple rows too; a CPU has none.
  const SpeedClass cls = speed_class(d);
  const bool serial = cls == SpeedClass::Nvidia || cls == SpeedClass::Amd ||
                      cls == SpeedClass::Hbm || cls == SpeedClass::Intel;
  t.graph_nodes_s = serial ? c.graph_nodes * share * node_time_s(cls) : 0.0;
  t.expert_bytes = round_bytes(static_cast<double>(c.expert_bytes) * share);
  t.expert_share = c.expert_share;
  return t;
}

Expected<SpeedQuery> speed_query_for(const InferenceQuery& q, const Estimate& e,
                                     const SpeedSettings& settings) {
  const auto& devices = q.devices.devices;
  if (devices.empty() || !e.device_known) {
    return make_error("no --device given");
  }
  const RunsAnyway runs = runs_anyway(q, e);
  if (!runs.runs) {
    return make_error(
        e.offload && e.offload->ram_holds == false
            ? (e.offload->ram_unified
                   ? "it does not fit in the unified memory, the GPU and the CPU side "
                     "together"
                   : "it does not fit in GPU memory and system RAM together")
            : "it does not fit, so it does not run");
  }
  for (const Device& d : devices) {
    if (!d.bandwidth_gb_per_s || *d.bandwidth_gb_per_s <= 0) {
      return make_error(
          fmt::format("'{}' gives no memory bandwidth: name a device or give --bandwidth GB/s",
                      d.kind == DeviceKind::Raw ? d.memory_marketed : tier_label(d)));
    }
  }
  const Model& m = q.model;
  const TokenCosts costs =
      token_costs(m, q.precision, e.model_weight_bytes,
                  kv_read_bytes(arch_as_run(m.arch, e.runtime), e.context, q.kv_type, e.kv_type_v));
  const OffloadSplit split = offload_split(e);
  const Bytes split_total = split.device_weights + split.host_weights;
  const double on_device =
      split_total > 0 ? static_cast<double>(split.device_weights) / static_cast<double>(split_total)
                      : 1.0;
  SpeedQuery s;
  s.flops_per_weight_byte = costs.flops_per_weight_byte;
  s.attention_flops_per_position = costs.attention_flops_per_position;
  s.context = e.context;  // as resolved: Ollama's default, or the model's trained length
  s.batch = runs.sequences > 0 ? runs.sequences : q.batch;
  s.ubatch = e.ubatch;  // as resolved: Ollama picks its own

  // The split the memory estimate used: vLLM is tensor parallel over its
  // --tensor-parallel-size GPUs (every device by default), --split tensor
  // asks it of llama.cpp; otherwise llama.cpp's layer split.
  const int tp = tensor_parallel_devices(q, e, settings);
  const bool tensor = tp > 1;
  const bool engine = e.runtime == Runtime::Vllm;
  // Layer split: llama.cpp gives each device layers in proportion to its
  // memory; tensor parallel: each device 1/N of every layer.
  const double capacity = static_cast<double>(std::max<Bytes>(1, q.devices.capacity()));
  const Device& first = devices.front();
  for (std::size_t i = 0; i < (tensor || engine ? 1 : devices.size()); ++i) {
    const Device& d = devices[i];
    const double share = tensor   ? 1.0 / static_cast<double>(tp)
                         : engine ? 1.0
                                  : static_cast<double>(d.memory_bytes) / capacity;
    s.tiers.push_back(device_tier(d, costs, share * on_device));
    if (tensor || engine) {
      s.tiers.back().bandwidth_efficiency = kTensorParallelBandwidthEfficiency;
      // The per-node time is llama.cpp's; an engine runs the routed experts
      // as one fused kernel (vLLM's fused_moe) inside a captured graph.
      s.tiers.back().fixed_s = 0;
      s.tiers.back().graph_nodes_s = 0;
    }
  }
  if (tensor) {
    const bool nvlink = first.interconnect.nvlink_gb_per_s.has_value();
    s.tensor_parallel.devices = tp;
    s.tensor_parallel.link_gb_per_s =
        nvlink ? *first.interconnect.nvlink_gb_per_s / 2.0 : pcie_gb_per_s(first.interconnect);
    s.tensor_parallel.nvlink = nvlink;
    s.tensor_parallel.vocab_size = m.arch.vocab_size;
    s.tensor_parallel.hidden_size = m.arch.hidden_size;
    s.tensor_parallel.layers = m.arch.layers;
    s.calibrated = false;
  }
  if (split.host_weights > 0) {
    const bool unified = first.kind == DeviceKind::Unified || first.kind == DeviceKind::Cpu;
    const bool stated = settings.ram_bandwidth_gb_per_s.has_value();
    Device ram;
    ram.name = "system RAM";
    ram.kind = DeviceKind::Cpu;
    ram.bandwidth_gb_per_s = stated    ? *settings.ram_bandwidth_gb_per_s
                             : unified ? *first.bandwidth_gb_per_s
                                       : kDefaultRamGbPerS;
    SpeedTier host = device_tier(unified && !stated ? first : ram, costs, 1.0 - on_device);
    host.label = first.kind == DeviceKind::Unified && !stated ? "CPU, same memory" : "system RAM";
    host.bandwidth_gb_per_s = *ram.bandwidth_gb_per_s;
    if (!unified) {
      // Prefill runs these layers on the GPU, copying their weights over PCIe.
      host.prefill_link_gb_per_s = pcie_gb_per_s(first.interconnect);
    }
    if (e.offload && costs.expert_bytes > 0) {
      // The experts RAM holds are those of whole blocks (-ngl, --n-cpu-moe),
      // not a share of every block's: all E of each such block. The GPUs hold
      // the rest, each its share.
      const Bytes host_experts = std::min(costs.expert_bytes, e.offload->host_expert_bytes);
      host.expert_bytes = host_experts;
      const double gpu_experts = static_cast<double>(costs.expert_bytes - host_experts);
      const double gpu_share = std::accumulate(
          s.tiers.begin(), s.tiers.end(), 0.0,
          [](double sum, const SpeedTier& t) { return sum + static_cast<double>(t.weight_bytes); });
      for (SpeedTier& t : s.tiers) {
        t.expert_bytes =
            gpu_share > 0
                ? round_bytes(gpu_experts * static_cast<double>(t.weight_bytes) / gpu_share)
                : 0;
      }
    }
    s.tiers.push_back(host);
    s.calibrated = false;
  }
  return s;
}

SpeedEstimate estimate_speed(const InferenceQuery& query, const Estimate& e,
                             const SpeedSettings& settings) {
  // Ollama's one GPU of several; the query itself otherwise (no copy).
  const std::optional<InferenceQuery> placed =
      e.placed_device >= 0 ? std::optional(as_placed(query, e)) : std::nullopt;
  const InferenceQuery& q = placed ? *placed : query;
  auto s = speed_query_for(q, e, settings);
  if (!s) {
    SpeedEstimate r;
    r.reason = s.error().message;
    r.batch = std::max(1, q.batch);
    r.batch_requested = r.batch;
    r.context = e.context;
    return r;
  }
  SpeedEstimate r = estimate_speed(*s);
  r.generates = !q.model.embedding;
  r.batch_requested = std::max(1, q.batch);
  r.tensor_parallel = std::max(1, s->tensor_parallel.devices);
  r.engine = e.runtime == Runtime::Vllm ? "vLLM estimate"
             : e.runtime == Runtime::Transformers
                 ? "transformers; none measured for it, so llama.cpp's measured efficiencies"
             : e.runtime == Runtime::Mlx ? "MLX; none measured for it, so llama.cpp's measured "
                                           "efficiencies"
                                         : "llama.cpp-style estimate";
  const RunsAnyway runs = runs_anyway(q, e);
  const auto& devices = q.devices.devices;
  if (runs.ram) {
    r.ram_assumed_bytes = runs.ram;
    r.notes.push_back(fmt::format(
        "if system RAM holds {} for the offloaded layers (RAM unknown: give --ram to check)",
        format_memory(*runs.ram, q.units)));
  }
  if (runs.if_it_loads) {
    r.notes.push_back(
        "if it loads: the GPU and the CPU side need a little more than the unified memory left, "
        "within the error of this estimate");
  }
  if (runs.sequences > 0) {
    r.notes.push_back(fmt::format(
        "vLLM's KV cache holds {} sequences of {} tokens at once, not {}: the rest wait in the "
        "queue, and the batch figure is for {}",
        runs.sequences, e.context, q.batch, runs.sequences));
  }
  if (!devices.empty() && devices.front().kind == DeviceKind::Raw) {
    r.notes.push_back(
        "a bare capacity is read as a GPU of the 'other' class: efficiencies are "
        "the median over all measured devices");
  }
  if (!devices.empty() && speed_class(devices.front()) == SpeedClass::Intel &&
      devices.front().id != "arc-b580") {
    // tests/data/speed_measured.csv SP0268 (held out): Llama-2-7B Q4_0 under
    // Vulkan, 52.56 tokens/s, 0.34 of the A770's 560 GB/s.
    r.notes.push_back(
        "Intel Arc: efficiencies from one measured card, the B580; the A770 (held out) reached "
        "0.34 of its bandwidth, so this card may decode a third slower than shown");
  }
  if (s->tiers.size() > 1 && offload_split(e).host_weights > 0) {
    if (settings.ram_bandwidth_gb_per_s) {
      r.notes.push_back(fmt::format(
          "offloaded weights read from system RAM at {:g} GB/s{}", *settings.ram_bandwidth_gb_per_s,
          settings.ram_label.empty() ? "" : " (" + settings.ram_label + ")"));
    } else if (devices.front().kind == DeviceKind::Unified) {
      r.notes.push_back("offloaded weights read from the same unified memory");
    } else {
      r.notes.push_back(fmt::format(
          "offloaded weights read from system RAM at {:g} GB/s (dual-channel DDR4-3200 assumed; "
          "give --ram-bandwidth)",
          kDefaultRamGbPerS));
    }
  }
  if (r.tensor_parallel > 1) {
    r.notes.push_back(fmt::format(
        "tensor parallel over {} devices{}: each reads 1/{} of the weights per token, then two "
        "all-reduces per layer over {} at NCCL's own latency model (no per-step engine time "
        "beyond it){}",
        r.tensor_parallel, e.vllm ? " (vLLM)" : "", r.tensor_parallel,
        devices.front().interconnect.nvlink_gb_per_s ? "NVLink" : "PCIe",
        e.vllm ? ""
               : "; that is llama.cpp's -sm tensor: its older -sm row synchronises after every "
                 "matrix multiplication and runs several times slower"));
  } else if (devices.size() > 1 && !e.vllm) {
    r.notes.push_back(
        "layer split (llama.cpp default): devices run one after another, so more "
        "devices add memory, not decode speed");
  }
  const double routing_s =
      std::accumulate(s->tiers.begin(), s->tiers.end(), 0.0,
                      [](double sum, const SpeedTier& t) { return sum + t.fixed_s; });
  if (routing_s > 0) {
    const Architecture& a = q.model.arch;
    r.notes.push_back(fmt::format(
        "mixture of experts: reads {} of {} experts a layer (at the experts' own width) and the "
        "rest whole; routing adds {} operations a layer, about {:.2f} ms a token at llama.cpp's "
        "time per operation on {} devices (derived from dense runs)",
        a.moe->experts_per_token, a.moe->experts, moe_extra_nodes_per_layer(a), routing_s * 1e3,
        to_string(speed_class(devices.front()))));
    r.routing_s = routing_s;
  }
  if (e.vllm) {
    r.notes.push_back(fmt::format(
        "vLLM reads {:.2f} of the datasheet bandwidth (its measured engine efficiency), not "
        "llama.cpp's per-class figure",
        kTensorParallelBandwidthEfficiency));
  }
  return r;
}

}  // namespace willfit
