#include "willfit/planner/suggest.hpp"

#include "willfit/core/quality.hpp"
#include "willfit/core/text.hpp"
#include "willfit/inference/longest_context.hpp"
#include "willfit/models/model_db.hpp"
#include "willfit/planner/planner.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace willfit {
namespace {

// Every device of the set has a list price.
bool s_priced(const DeviceSet& s) {
  return std::all_of(s.devices.begin(), s.devices.end(),
                     [](const Device& d) { return d.price_usd.has_value(); });
}

// Every device of the set is Apple silicon (Metal).
bool all_apple(const DeviceSet& devices) {
  return !devices.devices.empty() &&
         std::all_of(devices.devices.begin(), devices.devices.end(),
                     [](const Device& d) { return d.vendor == "apple"; });
}

// The shortest context a suggestion offers: below it a chat forgets the
// question before the answer (a system prompt and one exchange take about
// 1-2 thousand tokens). One floor for a shorter context alone and for one
// combined with a lower precision; a context the user asked below it is
// not shortened further. docs/advice.md says the same.
constexpr std::int64_t kShortestUsefulContext = 2048;

// The context below which `e`'s context is not shortened.
std::int64_t context_floor(const Estimate& e) {
  return std::min<std::int64_t>(kShortestUsefulContext, e.context);
}

// The words for a shorter context of `tokens`: the model's trained length
// when that, not memory, is what caps it (max_context stops there).
std::string context_reason(const InferenceQuery& q, const LongestContext& l) {
  return q.model.arch.max_context > 0 && l.tokens >= q.model.arch.max_context
             ? "the model's trained length"
         : l.tight ? "the longest that fits"
                   : "the longest that fits clear of the estimate's error";
}

bool gguf_runtime(Runtime r) {
  return r == Runtime::LlamaCpp || r == Runtime::Ollama || r == Runtime::Generic;
}

// The words naming the tag to pull for `p` under Ollama, when the catalogue
// knows it (", Ollama's tag llama3.1:8b-instruct-q3_K_M"); "" otherwise.
std::string ollama_tag_words(const InferenceQuery& q, const Estimate& e, const Precision& p) {
  if (e.runtime != Runtime::Ollama || !q.model.ollama_tag || q.model.file_weight_bytes) {
    return "";
  }
  const auto tag = ollama_tag_for(q.model, p.id);
  return tag ? ", Ollama's tag " + *tag : "";
}

// The words of `args` (a suggestion's flags), split at spaces.
std::vector<std::string_view> words_of(std::string_view args) {
  std::vector<std::string_view> out;
  while (!args.empty()) {
    const auto space = args.find(' ');
    if (space != 0) {
      out.push_back(args.substr(0, space));
    }
    if (space == std::string_view::npos) {
      break;
    }
    args.remove_prefix(space + 1);
  }
  return out;
}

// How Ollama takes a suggestion's flags (ollama/ollama at fb307609), when
// the command pasted stays under Ollama:
// - --context N: the num_ctx option (docs/faq.mdx "How can I specify the
//   context window size?": `/set parameter num_ctx N` in `ollama run`, the
//   API's options; docs/modelfile.mdx PARAMETER num_ctx; and
//   envconfig/config.go OLLAMA_CONTEXT_LENGTH, the server's default);
// - --kv-type T: envconfig/config.go OLLAMA_KV_CACHE_TYPE, a server setting
//   for every model; llm/server.go passes it to llama-server as
//   --cache-type-k T --cache-type-v T (llm/llama_server.go) whatever the
//   flash attention, which stays automatic (--flash-attn auto) and which
//   llama.cpp turns on for a quantised V cache (llama-context.cpp at
//   80fb11ac: "enabling flash_attn since it is required for quantized V
//   cache"), so OLLAMA_FLASH_ATTENTION=1 is not needed;
// - --flash-attn on: OLLAMA_FLASH_ATTENTION=1 (llm/llama_server.go
//   LlamaServerFlashAttention: --flash-attn on when the user set it).
// Fills s.ollama_setting, and s.ollama_tag from --precision where the
// change did not set one.
void ollama_apply(Suggestion& s, const InferenceQuery& q, const Estimate& e) {
  if (e.runtime != Runtime::Ollama) {
    return;
  }
  const std::vector<std::string_view> w = words_of(s.args);
  std::vector<std::string> settings;
  for (std::size_t i = 0; i + 1 < w.size(); ++i) {
    const std::string value(w[i + 1]);
    if (w[i] == "--runtime" && value != "ollama") {
      s.ollama_tag.clear();
      return;  // the change leaves Ollama
    }
    if (w[i] == "--context") {
      settings.push_back(fmt::format(
          "num_ctx {} (/set parameter num_ctx {} in ollama run, PARAMETER num_ctx {} in a "
          "Modelfile, or OLLAMA_CONTEXT_LENGTH={} for ollama serve)",
          value, value, value, value));
    } else if (w[i] == "--kv-type") {
      settings.push_back(
          fmt::format("OLLAMA_KV_CACHE_TYPE={} ollama serve (every model it serves)", value));
    } else if (w[i] == "--flash-attn" && value == "on") {
      settings.push_back("OLLAMA_FLASH_ATTENTION=1 ollama serve");
    } else if (w[i] == "--precision" && s.ollama_tag.empty() && q.model.ollama_tag &&
               !q.model.file_weight_bytes) {
      if (const auto p = parse_precision(value)) {
        s.ollama_tag = ollama_tag_for(q.model, p->id).value_or("");
      }
    }
  }
  for (const std::string& setting : settings) {
    s.ollama_setting += (s.ollama_setting.empty() ? "" : "; ") + setting;
  }
}

// The query with the runtime pinned to the one the estimate resolved, so a
// changed precision does not switch runtimes under the user.
InferenceQuery pinned(const InferenceQuery& q, const Estimate& e) {
  InferenceQuery alt = q;
  alt.runtime = e.runtime;
  return alt;
}

// The query moved to other devices (`alt.devices` already set) at the
// context the user's answer used. Ollama picks its default context by the
// GPU memory it finds (estimate.cpp, ollama_default_context): on a 96 GiB
// pair it would be 131072 where the user was answered at 4096, and the
// hardware found would hold a context the user never asked for. So when the
// default would change with the devices the context is pinned, and the
// command pasted says so (`args` gains "--context N").
void keep_context(InferenceQuery& alt, const Estimate& e, std::string& args) {
  if (e.runtime != Runtime::Ollama || !alt.context_is_default ||
      ollama_default_context(alt).tokens == e.context) {
    return;
  }
  alt.context = e.context;
  alt.context_is_default = false;
  args += fmt::format(" --context {}", e.context);
}

Suggestion make(std::string change, std::string args, const Estimate& e) {
  Suggestion s;
  s.change = std::move(change);
  s.args = std::move(args);
  s.total_bytes = e.required;
  s.verdict = e.verdict;
  s.tight = e.tight;
  return s;
}

// The suggestion with what it costs the user, in words.
std::optional<Suggestion> costing(std::optional<Suggestion> s, std::string tradeoff) {
  if (s) {
    s->tradeoff = std::move(tradeoff);
  }
  return s;
}

// What a lower precision costs: by its published KL divergence from FP16
// (quality.hpp), else by bits per weight for formats without one.
std::string precision_cost(const Precision& p) {
  if (const auto kld = quant_kld(p.id)) {
    return std::string(quality_cost(*kld));
  }
  const double bits = p.bits_per_weight;
  return bits >= 7.5   ? "near lossless"
         : bits >= 4.5 ? "a small quality loss"
                       : "a noticeable quality loss";
}

// Runs `alt` and keeps it when it fits whole.
std::optional<Suggestion> if_fits(const InferenceQuery& alt, std::string change, std::string args) {
  const Estimate e = estimate_inference(alt);
  if (!e.fits()) {
    return std::nullopt;
  }
  return make(std::move(change), std::move(args), e);
}

std::optional<Suggestion> flash_attention(const InferenceQuery& q, const Estimate& e) {
  if (e.flash_attention || !gguf_runtime(e.runtime)) {
    return std::nullopt;
  }
  InferenceQuery alt = pinned(q, e);
  alt.flash_attention = FlashAttention::On;
  return costing(if_fits(alt, "flash attention on (smaller compute buffers)", "--flash-attn on"),
                 "nothing");
}

// --text-only: leave the vision/audio encoder and projector out, when the
// estimate counts one. Costs no quality on text, only the image/audio input.
std::optional<Suggestion> text_only(const InferenceQuery& q, const Estimate& e) {
  // Ollama loads a model's projector whenever its package has one
  // (ollama/ollama llm/llama_server.go at fb3076099, appendMMProjArgs: every
  // launch with projectors passes --mmproj; a user option to leave it out
  // has none), so --text-only is no change an Ollama user can make.
  if (q.text_only || e.memory.projector <= 0 || e.runtime == Runtime::Ollama) {
    return std::nullopt;
  }
  InferenceQuery alt = pinned(q, e);
  alt.text_only = true;
  return costing(if_fits(alt, "text only (no vision/audio encoder and projector)", "--text-only"),
                 "no image or audio input");
}

// A GGUF under MLX that mlx.core.load does not keep quantised (a K-quant,
// an IQ type: mlx_from_gguf casts it to F16) has two free ways out that
// keep the quality asked: the same file under llama.cpp, which runs it as
// it is, and MLX's own quantisation at the width asked (an mlx_lm 4- or
// 8-bit model, -p int4 / int8, 4.5 and 8.5 bits: mlx_affine). Each offered
// when it fits whole; the first comes first.
std::vector<Suggestion> mlx_gguf_ways_out(const InferenceQuery& q, const Estimate& e) {
  std::vector<Suggestion> out;
  if (e.runtime != Runtime::Mlx || !q.precision.gguf ||
      mlx_from_gguf(q.precision).bits_per_weight <= q.precision.bits_per_weight) {
    return out;
  }
  InferenceQuery same_file = pinned(q, e);
  same_file.runtime = Runtime::LlamaCpp;
  if (auto s = costing(if_fits(same_file,
                               fmt::format("the same {} file on llama.cpp, which keeps it "
                                           "quantised (MLX casts it to F16)",
                                           q.precision.name),
                               "--runtime llama.cpp"),
                       "nothing: the same file, another program")) {
    out.push_back(std::move(*s));
  }
  if (q.model.file_weight_bytes) {
    return out;  // a file's bytes are what they are
  }
  // MLX's width nearest below the bits asked: 8-bit for Q8-class files, else 4-bit.
  for (const char* id : {"int8", "int4"}) {
    const auto p = parse_precision(id);
    if (!p || p->bits_per_weight >= q.precision.bits_per_weight) {
      continue;
    }
    const Precision held = mlx_affine(*p);
    InferenceQuery alt = pinned(q, e);
    alt.precision = *p;
    if (auto s = costing(if_fits(alt,
                                 fmt::format("MLX's own {:g}-bit ({} bits per weight), an "
                                             "mlx_lm model instead of the GGUF",
                                             p->bits_per_weight, bits_per_weight_text(held)),
                                 fmt::format("--precision {}", id)),
                         precision_cost(held))) {
      out.push_back(std::move(*s));
      break;
    }
  }
  return out;
}

// A quantised KV cache: q8_0 first (near lossless), then q4_0.
std::optional<Suggestion> kv_cache(const InferenceQuery& q, const Estimate& e) {
  if (!gguf_runtime(e.runtime) || e.memory.kv_cache == 0) {
    return std::nullopt;
  }
  // Ollama quantises K and V alike (OLLAMA_KV_CACHE_TYPE: ollama_apply), and
  // with flash attention off (--flash-attn off: OLLAMA_FLASH_ATTENTION=0)
  // llama.cpp refuses a quantised V cache ("quantized V cache requires
  // flash_attn to be enabled", llama-context.cpp at 80fb11ac): the server
  // would not start, so that is no change to offer.
  if (e.runtime == Runtime::Ollama && !e.flash_attention) {
    return std::nullopt;
  }
  for (const char* id : {"q8_0", "q4_0"}) {
    auto kv = parse_kv_type(id);
    if (!kv || kv->bytes_per_element() >= q.kv_type.bytes_per_element()) {
      continue;
    }
    InferenceQuery alt = pinned(q, e);
    alt.kv_type = *kv;
    if (auto s = if_fits(alt, fmt::format("quantised KV cache ({})", id),
                         fmt::format("--kv-type {}", id))) {
      return costing(
          s, std::string(id) == "q8_0" ? "a near-lossless cache" : "some quality at long contexts");
    }
  }
  return std::nullopt;
}

// The query moved to llama.cpp, for a change that crosses runtimes (GGUF
// quantisation, offload); `args` gains --runtime when that is a change.
InferenceQuery on_llama_cpp(const InferenceQuery& q, const Estimate& e, std::string& args) {
  InferenceQuery alt = pinned(q, e);
  if (!gguf_runtime(e.runtime)) {
    alt.runtime = Runtime::LlamaCpp;
    alt.gpu_memory_utilization = 0.9;
    alt.tensor_parallel = 0;
    args += " --runtime llama.cpp";
  }
  return alt;
}

// The context a shorter-context change offers: the lib's one rule
// (longest_fitting_context, which --context max and `max` answer with too):
// the longest that fits clear of the estimate's error band, else (none at
// the floor or above) the longest that fits at all, tight. tokens 0: nothing
// between the floor and the context asked.
LongestContext longest_useful_context(const InferenceQuery& alt, const Estimate& e) {
  LongestContext l = longest_fitting_context(alt, context_floor(e));
  if (l.tokens >= e.context) {
    l.tokens = 0;
  }
  return l;
}

// Where precision() looks: the formats the runtime in play loads; GGUF types
// on llama.cpp; or (asked when no single change fits) GGUF types on
// llama.cpp, then with a shorter context.
enum class PrecisionSearch { SameRuntime, AsGguf, Combined };

// The highest-quality lower precision that fits, among the formats `search`
// names; Combined: the best GGUF type that fits, else the best one that fits
// with a context of at least kShortestUsefulContext tokens. Not for a model file: its bytes are
// what they are.
//
// `tight_also`, when given, receives a better type that fits only within the
// error band, found before the one returned, when the one returned costs a
// large quality loss (kLargeQualityLossKld) and the tight one does not: Q3_K_M
// on an 8 GB Mac "tight" against Q3_K_S "a large quality loss" is a choice
// the user should see, its line saying tight.
std::optional<Suggestion> precision(const InferenceQuery& q, const Estimate& e,
                                    PrecisionSearch search,
                                    std::optional<Suggestion>* tight_also = nullptr) {
  const bool combined = search == PrecisionSearch::Combined;
  if (q.model.file_weight_bytes) {
    return std::nullopt;
  }
  // The same candidates, in the same quality order, as --precision best.
  const auto try_list = [&](const std::vector<Precision>& candidates, bool cross,
                            bool shorten) -> std::optional<Suggestion> {
    std::optional<Suggestion> tight_fit;
    for (const Precision& candidate : candidates) {
      const Precision* p = &candidate;
      if (p->bits_per_weight >= q.precision.bits_per_weight ||
          outside_ollama_library(q, e.runtime, *p)) {
        continue;
      }
      std::string args = "--precision " + p->id;
      InferenceQuery alt = cross ? on_llama_cpp(q, e, args) : pinned(q, e);
      alt.precision = *p;
      const std::optional<double> kld = quant_kld(p->id);
      std::string change = fmt::format(
          "lower precision {} ({} bits per weight{})", p->name, bits_per_weight_text(*p),
          kld ? fmt::format("; KL divergence {:.3f} from FP16", *kld) : std::string());
      if (cross && !gguf_runtime(e.runtime)) {
        change += ", as a GGUF on llama.cpp";
      }
      change += ollama_tag_words(q, e, *p);
      if (shorten) {
        const std::int64_t longest = longest_useful_context(alt, e).tokens;
        if (longest <= 0) {
          continue;
        }
        alt.context = longest;
        alt.context_is_default = false;
        args += fmt::format(" --context {}", longest);
        change += fmt::format(" with {} {}-token context", indefinite_article(longest), longest);
      }
      const Estimate after = estimate_inference(alt);
      if (!after.fits()) {
        continue;
      }
      Suggestion s = make(change, args, after);
      s.kld = kld;
      s.precision_bits = p->bits_per_weight;
      s.tradeoff = precision_cost(*p) + (shorten ? ", and a shorter memory" : "");
      if (!after.tight) {
        const auto large = [](const Suggestion& x) {
          return x.kld && *x.kld >= kLargeQualityLossKld;
        };
        if (tight_also && tight_fit && large(s) && !large(*tight_fit)) {
          *tight_also = std::move(tight_fit);
        }
        return s;
      }
      // Within the estimate's error band it may not load: the best type that
      // clears the band is the advice, this one only when none does.
      if (!tight_fit) {
        tight_fit = std::move(s);
      }
    }
    return tight_fit;
  };
  const bool gguf = gguf_runtime(e.runtime);
  const std::vector<Precision> ggufs = precision_candidates(Runtime::LlamaCpp);
  if (search == PrecisionSearch::AsGguf) {
    return try_list(ggufs, true, false);
  }
  if (!combined) {
    // bitsandbytes (NF4, INT8), GPTQ, AWQ and FP8 run on CUDA (and ROCm)
    // kernels; Metal has none of them, so on Apple silicon a lower precision
    // is a GGUF on llama.cpp, as Mac users run them (bitsandbytes lists only
    // CUDA, ROCm, Intel XPU and CPU backends; AutoGPTQ/AutoAWQ ship CUDA
    // kernels).
    if (!gguf && all_apple(q.devices)) {
      return try_list(ggufs, true, false);
    }
    return try_list(precision_candidates(e.runtime), false, false);
  }
  if (!gguf) {
    if (auto s = try_list(ggufs, true, false)) {
      return s;
    }
  }
  return try_list(ggufs, true, true);
}

// The lower precisions to offer. On the runtime in play; and when that
// runtime was not asked for but follows from how the model is published
// (transformers for a BF16 checkpoint on a CUDA card), as a GGUF on
// llama.cpp too: that is how a published model is mostly run on one card,
// and llama.cpp's K-quants put more bits where the loss is (Q6_K for attn_v
// and ffn_down in the layers use_more_bits picks, llama-quant.cpp) where
// bitsandbytes NF4 spreads 4.5 bits evenly. The one that keeps more bits per
// weight comes first (each bit halves the rounding error of a weight), the
// GGUF on a tie: Q4_K_M (4.89 bits) before NF4 (4.5), Q8_0 (8.5) before FP8.
// On a Mac the runtime's own search is already the GGUF one (precision()).
std::vector<Suggestion> lower_precisions(const InferenceQuery& q, const Estimate& e) {
  std::vector<Suggestion> out;
  std::optional<Suggestion> tight;
  std::optional<Suggestion> same = precision(q, e, PrecisionSearch::SameRuntime, &tight);
  if (tight) {
    out.push_back(std::move(*tight));
  }
  std::optional<Suggestion> as_gguf;
  if (!q.runtime && !gguf_runtime(e.runtime) && !all_apple(q.devices)) {
    as_gguf = precision(q, e, PrecisionSearch::AsGguf);
    if (as_gguf) {
      as_gguf->other_runtime = true;
    }
  }
  if (as_gguf && (!same || as_gguf->precision_bits >= same->precision_bits)) {
    out.push_back(std::move(*as_gguf));
    as_gguf.reset();
  }
  if (same) {
    out.push_back(std::move(*same));
  }
  if (as_gguf) {
    out.push_back(std::move(*as_gguf));
  }
  return out;
}

std::optional<Suggestion> context(const InferenceQuery& q, const Estimate& e) {
  InferenceQuery alt = pinned(q, e);
  const LongestContext l = longest_useful_context(alt, e);
  const std::int64_t longest = l.tokens;
  if (longest <= 0) {
    return std::nullopt;
  }
  alt.context = longest;
  alt.context_is_default = false;
  // The user's -ngl / --n-cpu-moe stay: the command pasted keeps them.
  return costing(
      if_fits(alt, fmt::format("shorter context ({} tokens, {})", longest, context_reason(q, l)),
              fmt::format("--context {}", longest)),
      "it remembers less of the conversation");
}

// On a Mac the GPU may wire only part of unified memory (2/3 or 3/4,
// recommendedMaxWorkingSetSize); 'sudo sysctl iogpu.wired_limit_mb' raises
// it, up to the pool macOS leaves (unified_pool): the smallest whole GiB
// limit at which the model fits whole on the GPU, if there is one. What
// spills to the CPU otherwise reads the same memory, so this is the honest
// way to run it on the GPU alone.
std::optional<Suggestion> raise_gpu_limit(const InferenceQuery& q, const Estimate& e) {
  if (q.devices.count() != 1 || q.devices.devices.front().vendor != "apple" ||
      q.devices.devices.front().kind != DeviceKind::Unified) {
    return std::nullopt;
  }
  const Bytes pool = unified_pool(q.devices.devices.front()).bytes;
  InferenceQuery alt = pinned(q, e);
  for (Bytes gib = std::max<Bytes>(1, (e.required + kGiB - 1) / kGiB); gib * kGiB <= pool; ++gib) {
    if (q.usable.gpu_limit && gib * kGiB <= *q.usable.gpu_limit) {
      continue;
    }
    alt.usable.gpu_limit = gib * kGiB;
    if (auto s = if_fits(alt,
                         fmt::format("let the GPU wire {} GiB of the unified memory ('sudo sysctl "
                                     "iogpu.wired_limit_mb={}', until the next restart)",
                                     gib, gib * 1024),
                         fmt::format("--gpu-limit {}gb", gib))) {
      const Bytes all = q.devices.devices.front().memory_bytes;
      return costing(
          std::move(s),
          fmt::format("less memory for macOS and other programs ({} of {})",
                      format_memory(all - gib * kGiB, q.units), format_memory(all, q.units)));
    }
  }
  return std::nullopt;
}

// One more of the same GPU, when the answer spans a single discrete GPU.
std::optional<Suggestion> second_gpu(const InferenceQuery& q, const Estimate& e) {
  if (q.devices.count() != 1) {
    return std::nullopt;
  }
  const Device& d = q.devices.devices.front();
  // A laptop GPU (the database's `laptop`) takes no second card, nor does
  // an SoC's GPU (a Mac, integrated graphics: kind Unified).
  if ((d.kind != DeviceKind::DiscreteGpu && d.kind != DeviceKind::Raw &&
       d.kind != DeviceKind::Accelerator) ||
      d.laptop) {
    return std::nullopt;
  }
  InferenceQuery alt = pinned(q, e);
  alt.devices.devices.push_back(d);
  alt.devices.text = "2x " + q.devices.text;
  alt.tensor_split.clear();
  std::string args = fmt::format("--device \"2x {}\"", q.devices.text);
  keep_context(alt, e, args);
  auto s = costing(
      if_fits(alt, fmt::format("a second {}", d.kind == DeviceKind::Raw ? "device" : d.name), args),
      "the price of a second card");
  if (s) {
    s->new_hardware = true;
  }
  return s;
}

// How many fewer parameters a model must have to be offered as a smaller
// one: a tenth (docs/advice.md says the same).
constexpr double kSmallerModelShare = 0.10;

std::optional<Suggestion> smaller_model(const InferenceQuery& q, const Estimate& e,
                                        const SuggestInputs& in) {
  if (!in.smaller_models) {
    return std::nullopt;
  }
  for (const Model& m : in.smaller_models()) {
    // Strictly smaller: a size step, not a revision of the same size
    // (Mistral-7B-v0.1 has 0.09 % fewer parameters than v0.3, from its
    // smaller vocabulary, and fit only through its window): at least
    // kSmallerModelShare fewer parameters.
    if (static_cast<double>(m.params) >
        static_cast<double>(q.model.params) * (1.0 - kSmallerModelShare)) {
      continue;
    }
    InferenceQuery alt = pinned(q, e);
    alt.model = m;
    // The precision and runtime it was checked at go with the name: a
    // catalogue id alone answers at the model's published precision (a
    // distill of deepseek-r1:32b at BF16 under PyTorch, not Q4_K_M).
    const std::string args =
        fmt::format("{} --precision {} --runtime {}", m.id, alt.precision.id, to_string(e.runtime));
    if (auto s = if_fits(
            alt, fmt::format("a smaller model of the {} family ({})", m.family, m.name), args)) {
      if (e.runtime == Runtime::Ollama) {
        s->ollama_tag = ollama_tag_for(m, alt.precision.id).value_or("");
      }
      return costing(s, "a different, less capable model");
    }
  }
  return std::nullopt;
}

// The usual sizes system RAM comes in, GiB: a --ram to suggest.
Bytes ram_to_suggest(Bytes host) {
  static constexpr std::array<std::int64_t, 11> kSizesGiB{8,   16,  32,  48,  64, 96,
                                                          128, 192, 256, 384, 512};
  for (const std::int64_t g : kSizesGiB) {
    if (system_ram_usable(g * kGiB).bytes >= host) {  // --ram is the RAM installed
      return g * kGiB;
    }
  }
  return 0;
}

// A device set of `count` copies of `d`, named as the CLI reads it back.
DeviceSet copies(const Device& d, int count) {
  DeviceSet set;
  set.devices.assign(static_cast<std::size_t>(count), d);
  set.text = count == 1 ? d.id : fmt::format("{}x {}", count, d.id);
  return set;
}

// The software stack a device runs: its vendor; a bare size ("24gb") or a
// card without one counts as NVIDIA's, as the overhead row counts a CUDA
// context for it (device.cpp, context_words).
std::string_view stack_of(const Device& d) {
  return d.vendor.empty() || d.vendor == "generic" ? std::string_view("nvidia")
                                                   : std::string_view(d.vendor);
}

// Whether `runtime`, which the pasted command runs, runs on the card `d`
// as it is, for a user whose own cards are `own` (stack_of): hardware
// advice that needs another program is no advice.
// - No runtime willfit models runs on an accelerator (TPU, Gaudi) as is:
//   PyTorch reaches a TPU through torch_xla and Gaudi through
//   optimum-habana, other programs with their own memory behaviour; vLLM's
//   TPU and Gaudi back ends are not the CUDA engine whose start-up willfit
//   follows.
// - llama.cpp (and a runtime-neutral question) builds for CUDA, ROCm/HIP,
//   SYCL and Vulkan: any discrete GPU of those vendors.
// - Ollama ships CUDA, ROCm and Vulkan builds: Vulkan, on by default
//   (envconfig/config.go OLLAMA_VULKAN; docs/gpu.mdx "Vulkan GPU Support",
//   with Intel's Linux driver instructions; the release workflow packages
//   lib/ollama/vulkan*: ollama/ollama @fb307609, 2026-08-21), reaches Intel
//   Arc cards too.
// - transformers and vLLM run on the PyTorch build of one back end (a CUDA
//   wheel does not run on ROCm), and the formats they load have their own
//   kernels per back end (bitsandbytes, GPTQ/AWQ, FP8): a card of the stack
//   the user already runs. An AMD Instinct pair for a CUDA user is another
//   install, not the command pasted.
bool runs_on(Runtime runtime, const Device& d, std::string_view own) {
  if (d.kind != DeviceKind::DiscreteGpu) {
    return false;
  }
  const std::string_view v = stack_of(d);
  switch (runtime) {
    case Runtime::LlamaCpp:
    case Runtime::Generic:
    case Runtime::Ollama:
      return v == "nvidia" || v == "amd" || v == "intel";
    case Runtime::Vllm:
    case Runtime::Transformers:
      return v == own;
    case Runtime::Mlx:
      return false;  // Apple silicon only: not a card to add
  }
  return false;
}

// Other hardware that holds the model (issue 16: "two 48 GB cards", "an 80
// GB card"): one or two of a database GPU, at the query's precision, or at
// Q8_0 on llama.cpp (`q8`, near lossless) when it asked for more bits. The
// cheapest set by list price; sets without one after, smallest memory first
// (datacenter cards sell by quote; `willfit which MODEL --rent` prices them).
std::optional<Suggestion> other_hardware(const InferenceQuery& q, const Estimate& e,
                                         const std::vector<Device>& devices, bool q8) {
  std::string args;
  InferenceQuery base = pinned(q, e);
  std::string change;
  std::string quality;
  if (q8) {
    const auto p = parse_precision("q8_0");
    if (!p || q.model.file_weight_bytes || p->bits_per_weight >= q.precision.bits_per_weight) {
      return std::nullopt;
    }
    args = "--precision q8_0";
    base = on_llama_cpp(q, e, args);
    base.precision = *p;
    change = "Q8_0 on llama.cpp, ";
    quality = precision_cost(*p);
    args += " ";
  }
  struct Found {
    DeviceSet set;
    Estimate estimate;
    InferenceQuery query;  // at the context kept (keep_context)
    std::string pin;       // " --context N" when it was pinned
  };
  std::optional<Found> best;
  const auto better = [](const DeviceSet& a, const DeviceSet& b) {
    const auto price = [](const DeviceSet& s) {
      return s.devices.front().price_usd.value_or(0) * static_cast<double>(s.count());
    };
    const bool pa = s_priced(a);
    const bool pb = s_priced(b);
    if (pa != pb) {
      return pa;
    }
    return pa ? price(a) < price(b) : a.capacity() < b.capacity();
  };
  const std::string_view own = stack_of(q.devices.devices.front());
  for (const Device& d : devices) {
    if (!runs_on(base.runtime.value_or(e.runtime), d, own)) {
      continue;
    }
    for (const int count : {1, 2}) {
      DeviceSet set = copies(d, count);
      if (best && !better(set, best->set)) {
        continue;
      }
      InferenceQuery alt = base;
      alt.devices = set;
      alt.tensor_split.clear();
      std::string pin;
      keep_context(alt, e, pin);
      // The user's -ngl / --n-cpu-moe stay, as in the command pasted.
      // Hardware bought to hold it should hold it beyond the estimate's own
      // error: a set that fits only within the band is passed over.
      Estimate after = estimate_inference(alt);
      if (meets(after, Margin::Clear)) {
        best = Found{std::move(set), std::move(after), std::move(alt), std::move(pin)};
        break;  // two of it only cost more
      }
    }
  }
  if (!best) {
    return std::nullopt;
  }
  const Device& d = best->set.devices.front();
  const auto count = static_cast<int>(best->set.count());
  const std::string name = count == 1 ? d.name : fmt::format("{}x {}", count, d.name);
  Suggestion s =
      make(fmt::format("{}other hardware: {} ({} in all)", change, name,
                       format_memory(best->set.capacity(), q.units)),
           fmt::format("{}--device \"{}\"{}", args, best->set.text, best->pin), best->estimate);
  const SpeedEstimate speed = estimate_speed(best->query, best->estimate, {});
  if (speed.estimable) {
    s.decode_tokens_per_s = speed.decode_tokens_per_s;
  }
  s.tradeoff =
      (d.price_usd ? fmt::format("about ${:.0f} of new hardware (list price)", *d.price_usd * count)
                   : fmt::format("new hardware without a list price (to rent: "
                                 "'willfit which {} --rent')",
                                 q.model.id.empty() ? "MODEL" : q.model.id)) +
      (q8 ? ", and Q8_0: " + quality : std::string());
  s.new_hardware = true;
  return s;
}

// What an offload plan keeps off the GPU, in words: "13 of 81 layers", "the
// experts of 9 blocks".
std::string on_the_cpu(const OffloadPlan& a) {
  std::string what;
  if (a.total_layers > a.gpu_layers) {
    what = fmt::format("{} of {} layers", a.total_layers - a.gpu_layers, a.total_layers);
  }
  if (a.cpu_moe_layers > 0) {
    what +=
        fmt::format("{}the experts of {} blocks", what.empty() ? "" : " and ", a.cpu_moe_layers);
  }
  return what;
}

// One offload plan offered: `base` is the question as it would be pasted
// (runtime and precision already set), `planned` its estimate, `prefix` the
// flags that set them ("" when they stay), `label` what changes besides the
// offload ("" when nothing does), `tradeoff` what it costs. Offered only when
// llama.cpp's plan keeps part on the GPU and the RAM holds the rest: the
// user's --ram, the same unified memory, or (RAM unknown) the --ram it needs.
std::optional<Suggestion> offload_plan(const InferenceQuery& q, const InferenceQuery& base,
                                       const Estimate& planned, std::string prefix,
                                       const std::string& label, std::string tradeoff,
                                       const SuggestInputs& in) {
  // On one unified-memory device the offload's RAM is the same memory and
  // already counted (offload_ram): the plan needs no --ram, and one that
  // does not hold there is not offered. Likewise when the user gave --ram:
  // the plan is offered only if that RAM holds it, and keeps their --ram.
  const bool unified = offload_ram_is_unified(base);
  const bool ram_known = unified || base.ram.has_value();
  if (!planned.offload || planned.verdict != (ram_known ? Verdict::Offload : Verdict::NoFit)) {
    return std::nullopt;
  }
  const OffloadPlan& p = *planned.offload;
  // Nothing on the GPU is no plan to offer, unless the user asked for it
  // (-ngl 0: the CPU computes, the GPU holds the KV cache and buffers).
  const bool asked = q.gpu_layers.has_value();
  if ((p.gpu_layers <= 0 && !asked) || (p.ram_holds && !*p.ram_holds)) {
    return std::nullopt;
  }
  InferenceQuery alt = base;
  std::string args = prefix.empty() ? std::string() : prefix + " ";
  if (!ram_known) {
    const Bytes ram = ram_to_suggest(p.host_bytes);
    if (ram == 0) {
      return std::nullopt;
    }
    alt.ram = ram;
    args += fmt::format("--ram {}gb", ram / kGiB);
  }
  const Estimate after = ram_known ? planned : estimate_inference(alt);
  if (after.verdict != Verdict::Offload || !after.offload) {
    return std::nullopt;
  }
  const OffloadPlan& a = *after.offload;
  const std::string what = on_the_cpu(a);
  const std::string host = format_memory(a.host_bytes, q.units);
  Suggestion s =
      make(fmt::format("{}offload {} to {} ({}; {})", label, what,
                       unified ? "the CPU, in the same unified memory" : "system RAM", a.flags,
                       unified ? host + " on the CPU side" : "needs " + host + " of RAM"),
           std::string(trim(args)), after);
  const SpeedEstimate speed = estimate_speed(alt, after, in.speed);
  if (speed.estimable) {
    s.decode_tokens_per_s = speed.decode_tokens_per_s;
  }
  s.tradeoff = std::move(tradeoff);
  return s;
}

// Offloading layers to system RAM at the precision asked, with the speed it
// leaves: when the runtime plans an offload (llama.cpp, Ollama; PyTorch's
// device_map with --ram) and the RAM is unknown or holds it.
std::optional<Suggestion> offload(const InferenceQuery& q, const Estimate& e,
                                  const SuggestInputs& in) {
  if (e.verdict == Verdict::Offload || !e.offload) {
    return std::nullopt;
  }
  return offload_plan(q, pinned(q, e), e, "", "", "speed only: the quality stays", in);
}

// The GGUF types an offload falls back to, besides their quality: not the
// i-quants with a codebook (IQ1_*, IQ2_*, IQ3_*). The layers (or experts)
// left in RAM are computed by the CPU, and those types' CPU kernels are the
// slow ones: "currently CPU performance for IQ3_S is pretty bad"
// (ggml-org/llama.cpp pull request 5747, which added IQ4_XS), and text
// generation with IQ3_XXS layers on the CPU was reported slow there (issue
// 5290). The K-quants, the legacy types and IQ4_XS/IQ4_NL stay.
bool cpu_friendly(const Precision& p) {
  return !p.id.starts_with("iq1") && !p.id.starts_with("iq2") && !p.id.starts_with("iq3");
}

// When the precision asked does not hold on the GPU and in the RAM (or the
// runtime plans no offload: vLLM, transformers without --ram), a GGUF type on
// llama.cpp with layers or experts in system RAM: Q4_K_M (the common
// download) first, then the lower types in published quality order (Q4_K_S,
// Q3_K_L, Q3_K_M, ..., Q2_K), the first whose plan the RAM holds beyond the
// estimate's error band (a tight one only when none does). Each is one
// estimate; a file's own bytes are what they are (no change of type).
std::optional<Suggestion> offload_lower_precision(const InferenceQuery& q, const Estimate& e,
                                                  const SuggestInputs& in) {
  const std::optional<double> q4 = quant_kld("q4_k_m");
  if (e.verdict == Verdict::Offload || q.model.file_weight_bytes || !q4) {
    return std::nullopt;
  }
  const bool cross = !gguf_runtime(e.runtime);
  std::optional<Suggestion> tight_fit;
  for (const Precision& p : precision_candidates(Runtime::LlamaCpp)) {
    const std::optional<double> kld = quant_kld(p.id);
    if (!kld || *kld < *q4 || p.bits_per_weight >= q.precision.bits_per_weight ||
        !cpu_friendly(p) || outside_ollama_library(q, e.runtime, p)) {
      continue;
    }
    std::string prefix = "--precision " + p.id;
    InferenceQuery base = on_llama_cpp(q, e, prefix);
    base.precision = p;
    const std::string quality = fmt::format("{} bits per weight; KL divergence {:.3f} from FP16",
                                            bits_per_weight_text(p), *kld);
    const std::string label = cross ? fmt::format("{} on llama.cpp ({}), ", p.name, quality)
                                    : fmt::format("lower precision {} ({}){}, ", p.name, quality,
                                                  ollama_tag_words(q, e, p));
    auto s = offload_plan(q, base, estimate_inference(base), prefix, label,
                          precision_cost(p) + ", and speed", in);
    if (!s) {
      continue;
    }
    s->kld = kld;
    s->precision_bits = p.bits_per_weight;
    if (!s->tight) {
      return s;
    }
    // Within the estimate's error band it may not load (the RAM holds it by
    // less than the band): the best type that clears the band is the advice,
    // this one only when none does, as for a lower precision that fits whole.
    if (!tight_fit) {
      tight_fit = std::move(s);
    }
  }
  return tight_fit;
}

// On one unified-memory device an offload's CPU side is the same memory,
// read at the same bandwidth (speed.cpp), so a part on the CPU costs little
// speed: a GGUF type of better quality than `better_than` (the KL divergence
// of the best lower precision that fits whole; none: any) whose offload plan
// holds there beyond the estimate's error band (not tight: "it may not load"
// is no advice). Candidates in quality order (precision_candidates), so the
// first that holds is the best; the plan is llama.cpp's own, so the command
// needs no offload flags.
std::optional<Suggestion> precision_in_same_memory(const InferenceQuery& q, const Estimate& e,
                                                   const SuggestInputs& in,
                                                   std::optional<double> better_than) {
  if (q.model.file_weight_bytes || q.devices.count() != 1 || !offload_ram_is_unified(q)) {
    return std::nullopt;
  }
  // Already an offload that holds clear of the band: a lower precision that
  // offloads too loses quality for the same verdict (gpt-oss-20b on an M2
  // 16GB was offered IQ3_M, needing more memory than its own MXFP4).
  if (e.verdict == Verdict::Offload && !e.tight) {
    return std::nullopt;
  }
  for (const Precision& p : precision_candidates(Runtime::LlamaCpp)) {
    const std::optional<double> kld = quant_kld(p.id);
    if (better_than && (!kld || *kld >= *better_than)) {
      break;  // in quality order: the rest keep less than what fits whole
    }
    if (p.bits_per_weight >= q.precision.bits_per_weight ||
        outside_ollama_library(q, e.runtime, p)) {
      continue;
    }
    std::string args = "--precision " + p.id;
    InferenceQuery alt = on_llama_cpp(q, e, args);
    alt.precision = p;
    alt.gpu_layers.reset();
    alt.n_cpu_moe.reset();
    const Estimate after = estimate_inference(alt);
    if (after.verdict != Verdict::Offload || after.tight || !after.offload ||
        after.offload->gpu_layers <= 0 || after.offload->ram_holds != true) {
      continue;
    }
    const OffloadPlan& a = *after.offload;
    const std::string what = on_the_cpu(a);
    Suggestion s = make(
        fmt::format("lower precision {} ({} bits per weight{}){}{}, with {} on the CPU, in the "
                    "same unified memory ({}; {} on the CPU side)",
                    p.name, bits_per_weight_text(p),
                    kld ? fmt::format("; KL divergence {:.3f} from FP16", *kld) : std::string(),
                    gguf_runtime(e.runtime) ? "" : ", as a GGUF on llama.cpp",
                    ollama_tag_words(q, e, p), what, a.flags, format_memory(a.host_bytes, q.units)),
        args, after);
    const SpeedEstimate speed = estimate_speed(alt, after, in.speed);
    if (speed.estimable) {
      s.decode_tokens_per_s = speed.decode_tokens_per_s;
    }
    s.tradeoff = precision_cost(p) + ", and some speed (the CPU side computes those layers)";
    s.kld = kld;
    s.same_memory_offload = true;
    return s;
  }
  return std::nullopt;
}

// The query's devices are discrete GPUs or accelerators (or bare sizes):
// hardware a user can add to or replace with other cards; not a Mac, a CPU
// or a laptop's GPU (soldered to its board).
bool on_own_gpus(const InferenceQuery& q) {
  return std::all_of(q.devices.devices.begin(), q.devices.devices.end(), [](const Device& d) {
    return (d.kind == DeviceKind::DiscreteGpu || d.kind == DeviceKind::Accelerator ||
            d.kind == DeviceKind::Raw) &&
           !d.laptop;
  });
}

std::string line_of(const Suggestion& s, UnitSystem units) {
  std::string line =
      fmt::format("{}: {}: needs {}, {}", s.args, s.change, format_memory(s.total_bytes, units),
                  s.verdict == Verdict::Fits ? "fits" : "fits with offload");
  if (s.tight) {
    line += " (tight: within the estimate's error)";
  }
  if (s.decode_tokens_per_s) {
    line += fmt::format(", about {:.1f} tokens/s decode", *s.decode_tokens_per_s);
  }
  if (!s.tradeoff.empty()) {
    line += "; costs: " + s.tradeoff;
  }
  if (!s.ollama_setting.empty()) {
    line += "; in Ollama: " + s.ollama_setting;
  }
  return line;
}

}  // namespace

std::vector<Suggestion> suggest_changes(const InferenceQuery& query, const Estimate& estimate,
                                        const SuggestInputs& inputs) {
  std::vector<Suggestion> out;
  if (estimate.fits() || !estimate.device_known || query.devices.devices.empty()) {
    return out;
  }
  const auto add = [&](std::optional<Suggestion> s) {
    if (s && std::none_of(out.begin(), out.end(),
                          [&](const Suggestion& x) { return x.args == s->args; })) {
      ollama_apply(*s, query, estimate);
      s->line = line_of(*s, query.units);
      out.push_back(std::move(*s));
    }
  };
  add(flash_attention(query, estimate));
  add(kv_cache(query, estimate));
  add(text_only(query, estimate));
  // A GGUF under MLX that llama.cpp runs as it is: a lower precision on
  // llama.cpp would lose quality for nothing.
  std::vector<Suggestion> mlx_ways = mlx_gguf_ways_out(query, estimate);
  const bool same_file_fits = !mlx_ways.empty() && mlx_ways.front().args == "--runtime llama.cpp";
  for (auto& s : mlx_ways) {
    add(std::move(s));
  }
  if (!same_file_fits) {
    for (auto& s : lower_precisions(query, estimate)) {
      add(std::move(s));
    }
  }
  add(context(query, estimate));
  add(raise_gpu_limit(query, estimate));
  add(second_gpu(query, estimate));
  add(smaller_model(query, estimate, inputs));
  add(offload(query, estimate, inputs));
  // When no single change on the user's own devices makes it fit whole,
  // combine them and cross runtimes: a GGUF quantisation on llama.cpp, with
  // a shorter context if it must; a GGUF type (Q4_K_M, else lower) with
  // layers in system RAM, unless the precision asked already offloads.
  // A change that swaps the model (its args are a MODEL) keeps less than one
  // that keeps it, so it does not count as enough, and ranks after.
  const auto keeps_model = [](const Suggestion& s) { return s.args.rfind("--", 0) == 0; };
  const auto fits_keeping = [&](const Suggestion& s) {
    return s.verdict == Verdict::Fits && keeps_model(s);
  };
  // A GGUF on llama.cpp offered beside the runtime's own formats does not
  // count either: when only it fits, the combined changes and other hardware
  // are still worth a look (70 B at BF16 on 24 GB: a 2-bit GGUF, or a card
  // that holds it at Q8_0). Nor does a second card: it is hardware to buy.
  if (std::none_of(out.begin(), out.end(), [&](const Suggestion& s) {
        return fits_keeping(s) && !s.other_runtime && !s.new_hardware;
      })) {
    add(precision(query, estimate, PrecisionSearch::Combined));
    if (std::none_of(out.begin(), out.end(), [&](const Suggestion& s) {
          return s.verdict == Verdict::Offload && keeps_model(s);
        })) {
      add(offload_lower_precision(query, estimate, inputs));
    }
    if (inputs.other_devices && on_own_gpus(query)) {
      const std::vector<Device> devices = inputs.other_devices();
      auto same = other_hardware(query, estimate, devices, false);
      auto q8 = other_hardware(query, estimate, devices, true);
      if (same && q8 && q8->args.ends_with(same->args)) {
        q8.reset();  // the same set holds it at the asked precision
      }
      add(std::move(same));
      add(std::move(q8));
    }
  }
  // What the user can do with what they have comes first (docs/usage.md, "To
  // make it fit"): what fits whole on their devices keeping the model, then
  // another model of the family, then offloads to their RAM (slow); hardware
  // to buy (a second card, other GPUs) only after all of them, as an
  // alternative. Within a rank, the order of least harm above, except that a
  // precision of a large quality loss (quality.hpp, kLargeQualityLossKld)
  // that fits whole comes after the other changes on the user's devices, a
  // shorter context and an offload to RAM among them: it changes every
  // token, a shorter context only what falls out of it, an offload only the
  // speed.
  const auto rank = [&](const Suggestion& s) {
    const bool large_loss = s.kld && *s.kld >= kLargeQualityLossKld;
    return s.new_hardware                             ? 5
           : large_loss && s.verdict == Verdict::Fits ? 4
           : !keeps_model(s)                          ? 2
           : s.verdict != Verdict::Fits               ? 3
                                                      : 0;
  };
  std::stable_sort(out.begin(), out.end(),
                   [&](const Suggestion& a, const Suggestion& b) { return rank(a) < rank(b); });
  // Unified memory: a better precision with part on the CPU, in the same
  // memory, ranks by quality among what keeps the model on the user's
  // device: before the first lower precision that keeps less, else after
  // the last change that fits whole keeping the model.
  const auto fitting_precision = std::find_if(out.begin(), out.end(), [&](const Suggestion& s) {
    return fits_keeping(s) && s.kld.has_value();
  });
  std::optional<Suggestion> same_memory = precision_in_same_memory(
      query, estimate, inputs,
      fitting_precision == out.end() ? std::nullopt : fitting_precision->kld);
  if (same_memory && std::none_of(out.begin(), out.end(), [&](const Suggestion& s) {
        return s.args == same_memory->args;
      })) {
    ollama_apply(*same_memory, query, estimate);
    same_memory->line = line_of(*same_memory, query.units);
    // A precision of a large quality loss now ranks after the offloads: the
    // better precision in the same memory keeps its place among the changes
    // that fit whole, after the last of them.
    auto at = fitting_precision;
    if (at == out.end() || rank(*at) != 0) {
      at = std::find_if_not(out.begin(), out.end(), [&](const Suggestion& s) {
        return fits_keeping(s) && !s.new_hardware && rank(s) == 0;
      });
    }
    out.insert(at, std::move(*same_memory));
  }
  return out;
}

}  // namespace willfit
