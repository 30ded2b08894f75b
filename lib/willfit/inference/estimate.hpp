// The inference estimate: what a model needs on a set of devices, term by
// term, and the verdict. One estimator serves every question (the plain
// verdict, max, which, grids, suggestions). Pure; no printing.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "willfit/core/expected.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/core/units.hpp"
#include "willfit/devices/device.hpp"
#include "willfit/inference/runtime.hpp"
#include "willfit/models/model.hpp"

namespace willfit {

enum class FlashAttention { Auto, On, Off };
std::string_view to_string(FlashAttention fa);

// CpuFeatures (devices/device.hpp): the CPU kind llama.cpp's backend tells apart.
struct TypedWeights;  // models/weight_layout.hpp

// The copies llama.cpp's CPU backend makes of the weights in `mix` on a CPU
// of `features` (runtime.cpp essay at the definition).
struct CpuExtraBuffers {
  Bytes repack = 0;  // the CPU_REPACK buffer
  Bytes amx = 0;     // the AMX buffer (--cpu-features amx)
  Bytes moved = 0;   // the file's bytes of the tensors copied into them
};
CpuExtraBuffers cpu_extra_buffers(std::span<const TypedWeights> mix, CpuFeatures features);
// The CPU_REPACK buffer of a file's weights (Model::weight_mix); 0 without one.
Bytes cpu_repack_bytes(const Model& m, CpuFeatures features);
std::string_view to_string(CpuFeatures f);
Expected<CpuFeatures> parse_cpu_features(std::string_view text);

// What the "overhead" term is, in words, for `runtime` on `devices`: the one
// place that says it (the estimate's formula and the text renderer both ask).
// A CPU-only llama.cpp holds its process and no driver context; a GPU holds
// a driver context; vLLM its non-torch memory.
std::string_view overhead_words(Runtime runtime, const DeviceSet& devices);

struct InferenceQuery {
  Model model;
  Precision precision;
  DeviceSet devices;
  std::int64_t context = 4096;  // tokens per sequence
  int batch = 1;                // concurrent sequences
  KvType kv_type = kv_f16();
  FlashAttention flash_attention = FlashAttention::Auto;
  std::int64_t ubatch = 512;  // tokens processed per step during prompt processing
  // true: the user gave no --ubatch (Ollama then picks its own, ollama_default_batch)
  bool ubatch_is_default = false;
  std::optional<Bytes>
      ram;  // system RAM installed, if known (--ram; offload_ram counts its usable part)
  UsableOptions usable;
  // Added for the runtime profiles (issue 5); every field has a default that
  // keeps older callers' answers meaningful.
  std::optional<Runtime> runtime;   // nullopt: default_runtime(precision)
  bool context_is_default = false;  // true: the user gave no --context (Ollama picks its own)
  std::optional<std::int64_t>
      prompt_tokens;                    // PyTorch: tokens of the prefill pass (default: context)
  double gpu_memory_utilization = 0.9;  // vLLM: share of TOTAL device memory the engine takes
  int tensor_parallel = 0;              // vLLM: GPUs per model (0 = every device given)
  std::vector<double> tensor_split;     // llama.cpp: share of layers per device (empty: by memory)
  // llama.cpp's CPU backend on a CPU-only run: the instruction set picks which
  // weight types it repacks (runtime.cpp, cpu_repack_bytes); --no-repack off.
  CpuFeatures cpu_features = CpuFeatures::Avx2;
  bool cpu_repack = true;
  // llama.cpp --no-mmap (weights read into anonymous memory, not a mapped
  // file's page cache) and --mlock (the mapped pages locked): what a CPU-only
  // answer calls reclaimable (MemoryBreakdown::reclaimable).
  bool mmap = true;
  bool mlock = false;
  std::optional<int> n_cpu_moe;   // llama.cpp: blocks whose experts stay on the CPU (nullopt: plan)
  std::optional<int> gpu_layers;  // llama.cpp -ngl given by the user (nullopt: plan)
  // --text-only: leave the vision/audio encoder and projector (llama.cpp's
  // --mmproj file) out; otherwise a multimodal model's projector is loaded.
  bool text_only = false;
  std::int64_t kv_pad = 256;  // llama.cpp KV cells are a multiple of this
  // How the words built here (formulas, reasons, hints) print memory
  // (--units); changes no figure.
  UnitSystem units = UnitSystem::Mixed;
};

enum class Verdict { Fits, Offload, NoFit };
std::string_view to_string(Verdict v);

// Where a term's bytes live.
enum class Placement { Device, Host };

// One line of the breakdown with the arithmetic behind it (for --explain).
// formula and source are empty unless the estimate was asked for
// Detail::Explained.
// The key names a fixed text with static storage (a literal): terms are
// built in the inner loop of every search, so the key is not copied.
struct Term {
  std::string_view key;  // "weights", "kv_cache", ...
  Bytes bytes = 0;
  Placement placement = Placement::Device;
  std::string formula;  // "13 B params x 4.89 bits / 8 = 7.95 GB"
  std::string source;   // where the constant or formula comes from
};

struct MemoryBreakdown {
  Bytes weights = 0;
  Bytes kv_cache = 0;
  Bytes compute = 0;
  Bytes overhead = 0;
  Bytes margin = 0;
  Bytes projector = 0;  // vision/audio encoder and projector (0: text-only or none)
  // Of `weights`, the mapped file's pages: page cache the kernel can reclaim
  // under memory pressure (read again from the file when touched). A CPU-only
  // llama.cpp with the file mapped and not --mlock; 0 otherwise.
  Bytes reclaimable = 0;
  [[nodiscard]] Bytes total() const {
    return weights + kv_cache + compute + overhead + margin + projector;
  }
};

// How a model that does not fit is split between the GPUs and system RAM,
// as llama.cpp does it: -ngl counts the blocks and the output layer, offloaded
// from the output end; --n-cpu-moe keeps the routed experts of the first N
// blocks on the CPU while their attention stays on the GPU.
struct OffloadPlan {
  int gpu_layers = 0;                  // -ngl: blocks on the GPUs + the output layer
  int total_layers = 0;                // blocks + 1 (the output layer)
  int cpu_moe_layers = 0;              // --n-cpu-moe
  Bytes gpu_bytes = 0;                 // everything the GPUs hold under this plan
  Bytes host_bytes = 0;                // everything system RAM holds under this plan
  Bytes gpu_weight_bytes = 0;          // weights on the GPUs
  Bytes host_weight_bytes = 0;         // weights in system RAM (token embeddings included)
  Bytes gpu_active_weight_bytes = 0;   // weights read per token on the GPUs (MoE: active experts)
  Bytes host_active_weight_bytes = 0;  // weights read per token in system RAM
  Bytes host_expert_bytes = 0;         // routed experts in system RAM (all E of each such block)
  std::optional<bool> ram_holds;       // does the RAM hold the host part? (nullopt: RAM unknown)
  std::optional<Bytes> ram_available;  // RAM the host part may use (offload_ram; nullopt: unknown)
  bool ram_unified = false;            // that RAM is the unified memory left besides the GPU side
  std::string flags;                   // "-ngl 33" or "-ngl 99 --n-cpu-moe 12"
};

// One device's share (llama.cpp layer split, vLLM tensor parallel).
struct DeviceShare {
  std::string name;
  Bytes capacity = 0;
  Bytes usable = 0;
  int layers = 0;  // blocks (+ output layer) held; 0 for runtimes that do not split by layer
  Bytes weights = 0;
  Bytes kv_cache = 0;
  Bytes compute = 0;
  Bytes overhead = 0;
  Bytes margin = 0;
  Bytes projector = 0;
  [[nodiscard]] Bytes total() const {
    return weights + kv_cache + compute + overhead + margin + projector;
  }
};

// vLLM's start-up arithmetic: the engine takes utilization x total memory per
// GPU; what weights, activations and non-torch memory leave is KV cache.
struct VllmKv {
  double utilization = 0.9;
  int tensor_parallel = 1;
  Bytes budget = 0;        // per GPU
  Bytes non_kv = 0;        // per GPU: weights + activation peak + non-torch
  Bytes kv_available = 0;  // per GPU (negative: the engine cannot start)
  std::int64_t kv_tokens = 0;
  double max_concurrency = 0;  // kv_tokens / context
  // Sequences of the whole context that run at once: --batch (vLLM's
  // --max-num-seqs) when the cache holds them all, else as many as it holds
  // (at least 1); the rest wait in vLLM's queue. The KV term counts these.
  int sequences_at_once = 1;
};

struct Estimate {
  Bytes model_weight_bytes = 0;  // every weight at the chosen precision (checkpoint size)
  MemoryBreakdown memory;
  std::vector<Term> terms;                  // the same figures, with their arithmetic
  Bytes capacity = 0;                       // sum of device capacities
  Bytes usable = 0;                         // sum of usable memory
  std::vector<std::string> usable_reasons;  // empty unless Detail::Explained
  Bytes required = 0;                       // == memory.total()
  Bytes headroom = 0;                       // usable - required (negative when short)
  Verdict verdict = Verdict::NoFit;
  bool device_known = true;     // false: no device given, only the need is reported
  std::int64_t kv_cells = 0;    // context cells actually allocated per sequence stream
  bool flash_attention = true;  // as resolved from Auto
  KvType kv_type_v = kv_f16();  // V cache type after fallbacks
  std::vector<std::string> warnings;
  // Added for the runtime profiles (issue 5).
  Runtime runtime = Runtime::LlamaCpp;
  std::int64_t context = 0;   // tokens per sequence, as resolved (Ollama's default)
  std::int64_t ubatch = 512;  // micro-batch, as resolved (Ollama's automatic batch)
  // Ollama on several GPUs loads a model on ONE when its own prediction fits
  // 80 % of that GPU (ollama_single_gpu): the index of that device in the
  // query's devices, whose figures the whole estimate then is; -1 when the
  // model is split over every device given.
  int placed_device = -1;
  double error_band_pct = 0;  // +/- on the total, from the measured errors per term
  Bytes host = 0;             // system RAM held besides (token embeddings, logits, host buffers)
  // Of `host`, the vision/audio projector where the runtime keeps it in
  // system RAM (Ollama's --no-mmproj-offload: estimate.cpp,
  // ollama_projector_on_cpu), with why in words; 0 and "" elsewhere.
  Bytes projector_host = 0;
  std::string projector_host_why;
  // CPU-only, mapped file: the file's bytes of the tensors copied into the
  // CPU backend's own buffers. Read once at load, then left to the page cache
  // (runtime.cpp), so they are not in the weights term; 0 otherwise.
  Bytes file_pages_dropped = 0;
  // llama.cpp: the part of kv_cache that is the recurrent layers' state
  // (llama_memory_recurrent's R and S rows, F32, one per sequence); 0 for
  // models without recurrent layers and for the other runtimes.
  Bytes recurrent_state = 0;
  // The architecture whose caches the runtime lays out its own way while
  // kv_cache sizes them in llama.cpp's layout instead (vLLM's dots.llm3:
  // vllm_request_kv), so the KV term is approximate; empty when
  // the term follows the runtime's own layout. Set where the KV term is
  // computed; the report says it.
  std::string kv_layout_not_modelled;
  // The type the runtime keeps the KV cache in where it is not the one the
  // query asked for (vLLM keeps DeepSeek-V4's caches in FP8 pages whatever
  // --kv says: "fp8", vllm_request_kv); empty when the query's type is the
  // one held. Set where the KV term is computed; the answer words it.
  std::string kv_type_held;
  std::optional<OffloadPlan> offload;  // set when the model does not fit whole on the GPUs
  std::vector<DeviceShare> devices;    // per-device table (empty without a device)
  std::optional<VllmKv> vllm;
  // Added for verdicts that know their error (issue 16): the error band in
  // bytes (total x error_band_pct), and whether the headroom lies inside it
  // (a fit by less than the band, or a shortfall of less than the band).
  Bytes band = 0;
  bool tight = false;
  // Apple silicon: the usable memory is macOS's recommended GPU working set,
  // a soft limit; the GPU may go past it up to what the operating system
  // leaves (`soft_ceiling`, 0 when the device has no soft limit). A need
  // between the two is tight too, unless the offload plan holds in the same
  // memory (Verdict::Offload: the layers past the limit run on the CPU).
  Bytes soft_ceiling = 0;
  [[nodiscard]] bool over_soft_limit() const {
    return soft_ceiling > 0 && verdict == Verdict::NoFit && headroom < 0 &&
           required <= soft_ceiling;
  }
  [[nodiscard]] bool fits() const { return verdict == Verdict::Fits; }
};

// What an estimate carries besides its numbers. Putting the arithmetic into
// words (each term's formula and source, the usable-memory rules) costs
// several times the arithmetic itself, and the searches that only ask "does
// it fit?" (max, which, suggestions, hints) run the estimator many times per
// answer; so the words are built only for the answer a user reads. Every
// number, warning and offload flag is the same either way.
enum class Detail { Numbers, Explained };

// The context Ollama picks when the user gives none, and a line that says why.
struct DefaultContext {
  std::int64_t tokens = 0;
  std::string note;
};
DefaultContext ollama_default_context(const InferenceQuery& query);
// The micro-batch Ollama passes to llama-server (-b N -ub N) when none is
// given, for `context` tokens per sequence, flash attention on or off and
// the model file's `weight_bytes` (Estimate::model_weight_bytes: Ollama
// predicts from the file's size); `tokens` 0 when the query gives one.
DefaultContext ollama_default_batch(const InferenceQuery& query, std::int64_t context, bool flash,
                                    Bytes weight_bytes);

// Ollama's own prediction of a model's GPU memory (PredictServerVRAM): the
// file's bytes plus 2 x layers x the fewest KV heads of a layer x hidden /
// heads x `tokens` x 2 bytes. It steps its batch down (ollama_default_batch)
// and places the model (ollama_single_gpu) by it.
Bytes ollama_predicted_vram(const InferenceQuery& query, std::int64_t tokens, Bytes weight_bytes);

// Ollama on several GPUs (ollama/ollama server/sched.go at fb307609,
// selectLlamaServerPlacement / bestSingleGPUFit): when its prediction for
// `context` tokens fits 80 % of one GPU's free memory, llama-server gets
// that GPU alone (discrete before integrated, then the most memory); the
// others stay free. The device's index, or nullopt (one device, a CPU among
// them, -ngl 0, or no single GPU holds it).
std::optional<std::size_t> ollama_single_gpu(const InferenceQuery& query, std::int64_t context,
                                             Bytes weight_bytes);

// The query as the estimate ran it: with only the device Ollama placed the
// model on when it placed it on one (Estimate::placed_device), else `query`.
InferenceQuery as_placed(const InferenceQuery& query, const Estimate& estimate);

Estimate estimate_inference(const InferenceQuery& query, Detail detail = Detail::Numbers);

// The system RAM an offload may use when the GPU side holds `gpu_bytes`:
// what --ram leaves the model when given (system_ram_usable: the RAM
// installed less the operating system's share); on one unified-memory device (a Mac, a Jetson,
// Strix Halo), the same memory: its pool (devices/device.hpp, unified_pool) less the GPU side,
// never below 0; otherwise unknown. Every runtime's verdict asks this one function.
struct OffloadRam {
  std::optional<Bytes> bytes;
  bool unified = false;  // the unified memory's share, not --ram
};
OffloadRam offload_ram(const InferenceQuery& query, Bytes gpu_bytes);
// The query's devices are one unified-memory device and --ram was not
// given: offload_ram is known without --ram.
bool offload_ram_is_unified(const InferenceQuery& query);

// What the searches for "the largest that fits" (max_context, max_batch,
// max_params) ask of an estimate: that it fits whole, or that it fits with
// more headroom than the estimate's own error band (not `tight`), so the
// answer holds even if the estimate is off by its measured error.
enum class Margin { Fits, Clear };
[[nodiscard]] bool meets(const Estimate& e, Margin margin);

// The longest context (a multiple of 256 tokens) that fits whole on the
// query's devices under its runtime (with `margin`); 0 when not even 256
// tokens fit or no device is given. Binary search over estimate_inference.
std::int64_t max_context(const InferenceQuery& query, Margin margin = Margin::Fits);

// The longest context (a multiple of 256 tokens) that runs at all on the
// query's devices: whole, or with part in system RAM where --ram (or unified
// memory) holds it (verdict Offload), by the same estimate as the plain
// answer, with the user's -ngl / --n-cpu-moe; 0 when not even 256 tokens do.
// What --context max answers when nothing fits whole.
std::int64_t max_context_offloaded(const InferenceQuery& query);

// Bytes of every weight at `precision` (what a checkpoint of it would hold).
Bytes weight_bytes(const Model& model, const Precision& precision);

// KV cache bytes for `cells` tokens per sequence over `sequences` sequences,
// honouring GQA, sliding windows, MLA latents and hybrid layers.
struct KvCacheQuery {
  std::int64_t context = 4096;
  int sequences = 1;
  std::int64_t ubatch = 512;
  KvType k_type = kv_f16();
  KvType v_type = kv_f16();
  std::int64_t pad = 256;  // cells are a multiple of this (1: exact tokens, as PyTorch)
  // llama.cpp keeps DeepSeek-V3.2's indexer keys in the K cache type; vLLM
  // and the reference code in FP8 with block scales (indexer_cache_bytes).
  bool indexer_in_k_type = false;
  int state_bytes = 4;  // recurrent state per value: F32 in llama.cpp, 16-bit in transformers
  // llama.cpp without flash attention stores V transposed and pads every
  // layer's V rows to the widest layer's (llama-kv-cache.cpp,
  // TAG_V_CACHE_VARIABLE: n_embd_v_gqa_max when v_trans); it matters only
  // where layers differ in width (Gemma 4's global layers).
  bool v_rows_padded = false;
};
Bytes kv_cache_bytes(const Architecture& arch, const KvCacheQuery& q);
// The KV cells of one sliding-window layer (the window plus one micro-batch,
// padded, at most the full cells); 0 for a model without windowed layers.
std::int64_t window_cells(const Architecture& arch, const KvCacheQuery& q);
// The parts of kv_cache_bytes that are not K and V: the fixed recurrent
// state of a hybrid model's recurrent layers for `sequences`, and one
// layer's sparse-attention indexer keys (DeepSeek-V3.2) for `cells`.
Bytes recurrent_state_bytes(const Architecture& arch, int sequences, int bytes_per_value = 4);

// What vLLM's KV cache manager must hold for one request of `context`
// tokens (per GPU when `arch` is one rank's share): full-attention layers
// the whole context, sliding and chunked layers their window plus one
// scheduler step of `batched_tokens`, recurrent layers one state page
// padded to the attention page. `block_tokens`: the block size vLLM picks
// (16, or larger so that an attention page holds a recurrent state).
struct VllmRequestKv {
  Bytes bytes = 0;
  std::int64_t block_tokens = 16;
  // The architecture whose vLLM cache layout this figure does not follow
  // (llama.cpp's layout in vLLM's blocks stands in for it); empty when it
  // follows vLLM's own (Estimate::kv_layout_not_modelled).
  std::string not_modelled;
  // The type vLLM holds this cache in where it is not the K type asked for
  // ("fp8" for DeepSeek-V4's fp8_ds_mla pages; Estimate::kv_type_held);
  // empty otherwise.
  std::string held_type;
};
VllmRequestKv vllm_request_kv(const Architecture& arch, std::int64_t context, const KvType& k_type,
                              const KvType& v_type, std::int64_t batched_tokens);

// The architecture as vLLM's and transformers' caches see it, where their
// layout is their own and not llama.cpp's (MiniCPM3: estimate.cpp). Sizing
// it with kv_cache_bytes gives that runtime's cache; elsewhere it is `arch`.
Architecture vllm_cache_layout(const Architecture& arch);
Architecture transformers_cache_layout(const Architecture& arch);
// The words for the cache layout of `runtime` where it is not llama.cpp's
// (MiniCPM3 under vLLM and transformers), to stand in the Assumptions for
// the model's own line (mla_per_head_text); empty where llama.cpp's holds.
std::string cache_layout_note(const Architecture& arch, Runtime runtime);
Bytes indexer_cache_bytes(const Architecture& arch, std::int64_t cells);
Bytes indexer_cache_bytes(const Architecture& arch, std::int64_t cells, const KvCacheQuery& q);

// llama.cpp pads the context to a multiple of 256 cells (since PR #17046;
// before it, 32 without flash attention).
std::int64_t pad_context(std::int64_t tokens, std::int64_t pad = 256);

}  // namespace willfit
