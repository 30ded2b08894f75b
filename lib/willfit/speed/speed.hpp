// Speed: how fast a model that fits will run: decode and prefill tokens per
// second, time to first token, batch throughput, several devices. Pure
// arithmetic over bytes, bandwidths and FLOPs (see speed.cpp for the essay and
// where each constant comes from); no I/O, no printing.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "willfit/core/units.hpp"
#include "willfit/devices/device.hpp"
#include "willfit/inference/estimate.hpp"

namespace willfit {

// What limits decode at the batch asked for.
enum class SpeedBound { Bandwidth, Compute };
std::string_view to_string(SpeedBound bound);

// Device classes, each with efficiencies derived from measured llama.cpp runs.
enum class SpeedClass {
  Nvidia,      // NVIDIA GPUs with GDDR memory (GeForce, RTX workstation, L40, DGX Spark)
  Amd,         // AMD GPUs with GDDR memory and AMD unified SoCs (Radeon, Strix Halo)
  Apple,       // Apple silicon with one die (Metal): M-series base, Pro, Max
  Hbm,         // datacenter GPUs with HBM (A100, H100, V100, MI100/MI210...)
  Cpu,         // a CPU reading system RAM
  Intel,       // Intel GPUs (Arc; llama.cpp's Vulkan and SYCL backends)
  Other,       // anything else (accelerators, a bare capacity with --bandwidth)
  AppleUltra,  // Apple Ultra chips: two Max dies joined by UltraFusion (Metal)
};
std::string_view to_string(SpeedClass c);
SpeedClass speed_class(const Device& device);

// Fractions of the datasheet peaks that llama.cpp reaches, per class.
struct Efficiency {
  double bandwidth = 0;  // achieved / datasheet memory bandwidth during decode (tg128)
  double compute = 0;    // achieved / dense FP16 peak during prefill (pp512)
};
Efficiency efficiency(SpeedClass c);

// Mixture-of-experts routing costs time that no byte count shows: at a batch
// of one, each routed layer runs more, smaller operations than a dense MLP
// (router, top-k, gather, three expert matmuls, the weighted sum), and every
// operation pays a fixed dispatch time whatever its size. Graph nodes of one
// dense layer at decode, as llama.cpp builds it (src/models/llama.cpp: norm and
// scale, Q/K/V, two ropes, two cache writes, attention, output, residual;
// norm and scale, gate, up, GLU, down, residual) and per token outside the
// layers (embedding rows, final norm and scale, head):
inline constexpr int kDenseLayerNodes = 19;
inline constexpr int kTokenNodes = 4;
// Nodes a routed layer adds to a dense one (see speed.cpp, from llama.cpp's
// build_moe_ffn): 6 + experts per token, 5 more with shared experts.
int moe_extra_nodes_per_layer(const Architecture& arch);
// Seconds one graph node costs beyond its bytes, per device class: DERIVED
// from the dense calibration rows (measured time per token minus the bytes at
// the datasheet bandwidth, over the dense graph's nodes; the median per
// class). SpeedAccuracy.NodeTimesAreTheMediansOfTheDenseRows recomputes them.
double node_time_s(SpeedClass c);

// The dense peak a prefill is measured against: FP16 dense, else BF16 dense,
// else FP32 (Apple and older cards publish no FP16 matrix figure).
std::optional<double> peak_tflops(const Device& device);

// One place weights are read from, in the order a token passes through them
// (layer split and offload run tiers one after another: their times add).
struct SpeedTier {
  std::string label;                // "GeForce RTX 4090", "system RAM"
  Bytes weight_bytes = 0;           // weight bytes read per token from this tier
  Bytes kv_bytes = 0;               // KV cache of one sequence at the query's context, here
  double bandwidth_gb_per_s = 0;    // datasheet peak, decimal GB/s
  double bandwidth_efficiency = 0;  // fraction of it achieved (efficiency())
  // Where the efficiencies come from, when not from runs on this class of
  // device at large: SpeedClass::Other's are the median of every measured
  // device, Intel's one card's. Empty: "measured efficiency".
  std::string efficiency_basis;
  std::optional<double> tflops;   // dense peak of the processor doing this tier's maths
  double compute_efficiency = 0;  // fraction of it achieved
  // Prefill only: llama.cpp computes big batches of host-resident layers on
  // the GPU, copying their weights over this link once per micro-batch.
  std::optional<double> prefill_link_gb_per_s;
  // Decode time per step that does not scale with bytes: the graph nodes MoE
  // routing adds on this tier (its share of the layers) x node_time_s().
  double fixed_s = 0;
  // Every graph node of a token on this tier (its share of the layers) x
  // node_time_s(): the floor "bytes at the datasheet bandwidth plus a fixed
  // time per node" (speed.cpp), which binds when nodes are many per byte.
  double graph_nodes_s = 0;
  // Prefill of a mixture of experts: the bytes of every routed expert on this
  // tier (all E of them) and the share a token uses (k / E); a micro-batch
  // reads each expert any of its tokens is routed to (speed.cpp).
  Bytes expert_bytes = 0;
  double expert_share = 0;
};

// vLLM's bandwidth efficiency on one GPU and on several: the median achieved
// over vLLM's single-GPU decode rows (Qwen2.5-7B/14B/32B BF16 on one A100,
// tests/data/speed_vllm.csv; SpeedAccuracy.VllmEngineRows derives it again and
// fails when it drifts). No tensor-parallel row is used to set it.
inline constexpr double kTensorParallelBandwidthEfficiency = 0.64;

// Tensor parallelism: every tier's bytes are already one device's share;
// every step pays the collectives of tensor_parallel_step_s() over the link.
struct TensorParallel {
  int devices = 1;
  double link_gb_per_s = 0;  // per direction: NVLink where the device has it, else PCIe
  bool nvlink = false;       // NCCL's hardware class for the per-hop latency
  std::int64_t hidden_size = 0;
  std::int64_t vocab_size = 0;
  int layers = 0;
};

// One collective over `devices` GPUs of one node, as NCCL's tuner
// (src/graph/tuning.cc) predicts it: see speed.cpp. `bytes` is the whole
// message (an all-reduce's buffer; an all-gather's gathered result).
enum class Collective { AllReduce, AllGather };
double collective_s(Collective c, int devices, bool nvlink, double link_gb_per_s, double bytes);

// The collectives of one forward step of `tokens` tokens, `logit_rows` of
// which produce logits (decode: every sequence; prefill: the last token).
double tensor_parallel_step_s(const TensorParallel& tp, double tokens, double logit_rows);

// Everything the speed arithmetic needs; built from a fit query by
// speed_query_for(), or by hand (tests, and the offload split of the
// runtime planner when it is wired: one tier per place weights live).
struct SpeedQuery {
  std::vector<SpeedTier> tiers;
  double flops_per_weight_byte = 0;  // 2 x params read / weight bytes read
  // Attention FLOPs per token per earlier token: 4 x attention layers x heads x head_dim.
  double attention_flops_per_position = 0;
  std::int64_t context = 4096;  // tokens: the prompt for prefill, the cache depth for decode
  int batch = 1;
  std::int64_t ubatch = 512;
  TensorParallel tensor_parallel;
  bool calibrated = true;  // false: offload or tensor parallel (outside the measured rows)
};

struct SpeedEstimate {
  bool estimable = false;
  std::string reason;                          // why not, when not estimable
  double decode_tokens_per_s = 0;              // one sequence, empty cache
  double decode_tokens_per_s_at_context = 0;   // one sequence, cache full to the context
  double decode_upper_bound_tokens_per_s = 0;  // at 100 % of the datasheet bandwidth
  double batch_tokens_per_s = 0;               // all `batch` sequences together, caches half full
  int batch = 1;
  SpeedBound bound = SpeedBound::Bandwidth;     // at the batch asked
  std::optional<double> prefill_tokens_per_s;   // a prompt of `context` tokens
  std::optional<double> time_to_first_token_s;  // that prompt, processed
  std::int64_t context = 0;
  int error_band_pct = 0;  // about 4 in 5 measured rows fall within it
  // A plan that does not fit as asked but runs: an offload plan without --ram
  // (speed if system RAM holds this much), a vLLM batch larger than its KV
  // cache (the engine serves `batch` sequences at once, not `batch_requested`).
  std::optional<Bytes> ram_assumed_bytes;
  int batch_requested = 1;
  // Whose efficiencies, as the text header names them: "vLLM estimate",
  // "llama.cpp-style estimate" (llama.cpp, Ollama), or for transformers,
  // which has no measured efficiencies of its own here, llama.cpp's.
  std::string engine = "llama.cpp-style estimate";
  int tensor_parallel = 1;  // devices splitting every layer (vLLM, --split tensor)
  double routing_s = 0;     // MoE: time a token spends on routing's extra graph nodes (all tiers)
  std::vector<SpeedTier> tiers;
  std::vector<std::string> notes;  // what was assumed, for the user
  // --explain: the prefill's copy of host-resident weights over PCIe, in
  // figures (micro-batches x bytes each / link = seconds of the prompt); ""
  // when no weights in RAM cross a link (speed.cpp, the essay's MoE copy).
  std::string prefill_link_arithmetic;
  // false for an embedding model or an encoder (Model::embedding): it reads
  // its input once and generates nothing, so only the prefill figures mean
  // anything; the decode figures are still computed (rankings use them).
  bool generates = true;
};

// The arithmetic (speed.cpp): per-tier times, summed.
SpeedEstimate estimate_speed(const SpeedQuery& query);

enum class SplitMode { Layer, Tensor };
std::string_view to_string(SplitMode mode);

// What the user said about speed beyond the devices themselves.
struct SpeedSettings {
  std::optional<double> ram_bandwidth_gb_per_s;  // system RAM holding offloaded weights
  std::string ram_label;                         // "ddr5-5600-dual", or "" for a number
  SplitMode split = SplitMode::Layer;
};

// Default system RAM for offload from a discrete GPU: dual-channel DDR4-3200
// (51.2 GB/s), a common desktop; named in the notes whenever it is used.
inline constexpr double kDefaultRamGbPerS = 51.2;

// Weight bytes read per decoded token: the active weights, without the token
// embedding table (a token reads one row of it) unless it doubles as the head.
Bytes decode_weight_bytes(const Model& model, Bytes weights);

// What one token costs a model, whatever it runs on.
struct TokenCosts {
  Bytes weight_bytes = 0;            // weight bytes read per decoded token
  Bytes kv_bytes = 0;                // KV cache of one sequence at the context
  double flops_per_weight_byte = 0;  // 2 x params read / weight bytes read
  double attention_flops_per_position = 0;
  double extra_nodes = 0;   // graph nodes per token beyond a dense model's (MoE routing)
  double graph_nodes = 0;   // every graph node of a decode step (dense layers, routing, head)
  Bytes expert_bytes = 0;   // every routed expert's bytes (all E; 0 for a dense model)
  double expert_share = 0;  // k / E: the share of them one token reads
};
// `weights`: every weight at its precision (or the file's bytes); `kv_bytes`:
// kv_read_bytes() at the context.
TokenCosts token_costs(const Model& model, Bytes weights, Bytes kv_bytes);
// The same with the precision known: a mixture of experts then reads its
// bytes tensor class by class (weight_layout(): the dense parts whole, k of E
// of each block's routed experts, the head), which matters when the experts
// are stored narrower than the rest (gpt-oss: MXFP4 experts, Q8_0 attention
// and head). Dense models read what the overload above says.
TokenCosts token_costs(const Model& model, const Precision& precision, Bytes weights,
                       Bytes kv_bytes);

// KV cache bytes a token reads with `tokens` already cached in one sequence
// (the estimator's layout, without its 256-cell padding).
Bytes kv_read_bytes(const Architecture& arch, std::int64_t tokens, const KvType& k,
                    const KvType& v);

// The tier of a device holding `share` of the layers, with its class's efficiencies.
SpeedTier device_tier(const Device& device, const TokenCosts& costs, double share);

// Where the weights read per token live: the runtime's offload plan when the
// estimate has one; otherwise all on the device (or, for a runtime without a
// plan, the overflow taken from the weights).
struct OffloadSplit {
  Bytes device_weights = 0;
  Bytes host_weights = 0;
};
OffloadSplit offload_split(const Estimate& estimate);

// A speed query for a fit question, or an error saying why speed cannot be
// estimated (no device, a capacity without bandwidth, does not fit).
Expected<SpeedQuery> speed_query_for(const InferenceQuery& query, const Estimate& estimate,
                                     const SpeedSettings& settings);

// speed_query_for + estimate_speed; not estimable carries the reason.
SpeedEstimate estimate_speed(const InferenceQuery& query, const Estimate& estimate,
                             const SpeedSettings& settings);

}  // namespace willfit
