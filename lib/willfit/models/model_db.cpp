// The model catalogue.
//
// Parsing: the embedded catalogue, a --models file and the user's XDG file
// all go through one validating parser. Every number is checked for type and
// range before it reaches the estimator, because a user file is typed by
// hand and a wrong one must fail with a line that names the file, the entry
// and the key, not produce a nonsense estimate. Optional keys take the
// defaults documented in data/README.md (kv_heads = heads, head_dim =
// hidden / heads, full attention, dense MLP, gated, untied).
//
// Matching: people type names the way their tool prints them: an Ollama tag
// ("llama3.1:8b"), a Hugging Face repo id ("meta-llama/Llama-3.1-8B-Instruct"),
// a GGUF file stem ("Llama-3.1-8B-Instruct-Q4_K_M"). Separators and the
// boundary between letters and digits carry no meaning in any of them, so
// each name is reduced to its runs of letters and digits ("llama-3-1-8-b");
// the words that name a fine-tune of the same shape (instruct, chat, it, ...)
// are dropped, and a trailing quantisation becomes a precision hint. Lookups
// try the exact lowercase name first, then that loose key. Both indexes are
// hash maps built once per catalogue, so a lookup is a few string operations.
#include "willfit/models/model_db.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <optional>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "willfit/core/json_limits.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/core/text.hpp"
#include "willfit/models/model_size.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;

constexpr std::array<std::string_view, 8> kSuffixWords{"instruct", "chat", "hf",   "it",
                                                       "base",     "pt",   "gguf", "latest"};

bool is_alpha(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0;
}
bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// Reads one entry's keys, remembering the first problem. Absent and null keys
// take the fallback when there is one.
class EntryReader {
 public:
  EntryReader(const Json& j, std::string where) : j_(j), where_(std::move(where)) {}

  std::int64_t integer(const char* key, std::int64_t lo, std::int64_t hi,
                       std::optional<std::int64_t> fallback = std::nullopt) {
    return integer_in(j_, key, lo, hi, fallback);
  }

  std::int64_t integer_in(const Json& obj, const char* key, std::int64_t lo, std::int64_t hi,
                          std::optional<std::int64_t> fallback) {
    const Json* v = find(obj, key);
    if (v == nullptr) {
      if (!fallback) {
        fail(fmt::format("missing '{}'", key));
        return lo;
      }
      return *fallback;
    }
    if (!v->is_number_integer()) {
      fail(fmt::format("'{}' must be a whole number", key));
      return lo;
    }
    // Unsigned values above INT64_MAX are out of range either way.
    if (v->is_number_unsigned() && v->get<std::uint64_t>() > static_cast<std::uint64_t>(hi)) {
      fail(fmt::format("'{}' must be between {} and {}", key, lo, hi));
      return lo;
    }
    const auto x = v->get<std::int64_t>();
    if (x < lo || x > hi) {
      fail(fmt::format("'{}' must be between {} and {}, not {}", key, lo, hi, x));
      return lo;
    }
    return x;
  }

  std::string string(const char* key, std::optional<std::string> fallback = std::nullopt) {
    return string_in(j_, key, std::move(fallback));
  }

  std::string string_in(const Json& obj, const char* key, std::optional<std::string> fallback) {
    const Json* v = find(obj, key);
    if (v == nullptr) {
      if (!fallback) {
        fail(fmt::format("missing '{}'", key));
        return "";
      }
      return *fallback;
    }
    if (!v->is_string() || v->get<std::string>().empty()) {
      fail(fmt::format("'{}' must be a non-empty string", key));
      return "";
    }
    return v->get<std::string>();
  }

  bool boolean(const char* key, bool fallback) { return boolean_in(j_, key, fallback); }

  bool boolean_in(const Json& obj, const char* key, bool fallback) {
    const Json* v = find(obj, key);
    if (v == nullptr) {
      return fallback;
    }
    if (!v->is_boolean()) {
      fail(fmt::format("'{}' must be true or false", key));
      return fallback;
    }
    return v->get<bool>();
  }

  std::vector<std::string> strings(const char* key) {
    std::vector<std::string> out;
    const Json* v = find(j_, key);
    if (v == nullptr) {
      return out;
    }
    if (!v->is_array()) {
      fail(fmt::format("'{}' must be an array of strings", key));
      return out;
    }
    for (const auto& s : *v) {
      if (!s.is_string() || s.get<std::string>().empty()) {
        fail(fmt::format("'{}' must hold only non-empty strings", key));
        return out;
      }
      out.push_back(to_lower(s.get<std::string>()));
    }
    return out;
  }

  // An optional object; nullptr when absent or null.
  const Json* object(const char* key) {
    const Json* v = find(j_, key);
    if (v != nullptr && !v->is_object()) {
      fail(fmt::format("'{}' must be an object or null", key));
      return nullptr;
    }
    return v;
  }

  void fail(std::string what) {
    if (error_.empty()) {
      error_ = where_ + ": " + std::move(what);
    }
  }
  [[nodiscard]] const std::string& error() const { return error_; }

  // A key read straight from `obj` (not through the readers above).
  void mark(const Json& obj, const char* key) { seen_.emplace_back(&obj, key); }

  // The keys of `obj` no reader asked for: keys of another kind or of
  // another block ("rwkv" in a full attention), which would otherwise be
  // ignored without a word. In the object's order; a null is a key not given.
  [[nodiscard]] std::vector<std::string> unread(const Json& obj) const {
    std::vector<std::string> out;
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      const bool read = std::any_of(seen_.begin(), seen_.end(), [&](const auto& s) {
        return s.first == &obj && s.second == it.key();
      });
      if (!read && !it->is_null()) {  // null: not given (data/README.md)
        out.push_back(it.key());
      }
    }
    return out;
  }

  // Whether any reader asked `obj` for `key`.
  [[nodiscard]] bool asked(const Json& obj, std::string_view key) const {
    return std::any_of(seen_.begin(), seen_.end(),
                       [&](const auto& s) { return s.first == &obj && s.second == key; });
  }

 private:
  const Json* find(const Json& obj, const char* key) {
    seen_.emplace_back(&obj, key);
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) {
      return nullptr;
    }
    return &*it;
  }

  const Json& j_;
  std::string where_;
  std::string error_;
  std::vector<std::pair<const Json*, std::string>> seen_;  // (object, key) asked for
};

// Bounds: far above any real model, low enough that products stay in int64.
constexpr std::int64_t kMaxParams = 100'000'000'000'000;  // 100 T
constexpr std::int64_t kMaxLayers = 10'000;
constexpr std::int64_t kMaxWidth = 1 << 20;
constexpr std::int64_t kMaxFfn = 1 << 24;
constexpr std::int64_t kMaxHeads = 1 << 16;
constexpr std::int64_t kMaxVocab = 1 << 27;
constexpr std::int64_t kMaxContext = std::int64_t{1} << 31;

// A sparse-attention indexer's key width and query heads (DeepSeek-V3.2 and
// GLM-5 under MLA, MiniMax-M3 beside GQA, DeepSeek-V4, Qwen4Exp's QSA).
void read_indexer(EntryReader& r, const Json& at, Attention& x) {
  x.index_head_dim = static_cast<int>(r.integer_in(at, "index_head_dim", 0, kMaxWidth, 0));
  x.index_heads = static_cast<int>(r.integer_in(at, "index_heads", 0, kMaxHeads, 0));
}

// A parallel block (Attention::parallel_block), named by its family since
// they differ in norms and in the order of the adds: "gpt-neox", "gpt-j",
// "cohere", "plamo", "falcon" or "phi-2".
void read_parallel_block(EntryReader& r, const Json& at, Attention& x) {
  constexpr const char* kKinds = "gpt-neox, gpt-j, cohere, plamo, falcon or phi-2";
  if (const auto v = at.find("parallel_block"); v != at.end() && v->is_boolean()) {
    r.fail(fmt::format("'parallel_block' names the block ({}), not true or false", kKinds));
    return;
  }
  const std::string name = r.string_in(at, "parallel_block", "none");
  if (name == "none") {
    x.parallel_block = ParallelBlock::None;
  } else if (name == "gpt-neox") {
    x.parallel_block = ParallelBlock::NeoX;
  } else if (name == "gpt-j") {
    x.parallel_block = ParallelBlock::GptJ;
  } else if (name == "cohere") {
    x.parallel_block = ParallelBlock::Cohere;
  } else if (name == "plamo") {
    x.parallel_block = ParallelBlock::Plamo;
  } else if (name == "falcon") {
    x.parallel_block = ParallelBlock::Falcon;
  } else if (name == "phi-2") {
    x.parallel_block = ParallelBlock::Phi2;
  } else {
    r.fail(fmt::format("'parallel_block' must be {}, not '{}'", kKinds, name));
  }
}

// DeepSeek-V4's compressed attention, as a GGUF's attention.compress_ratios
// gives it (gguf.cpp): one letter a layer, 'S' the window only, 'C' ratio 4
// with its indexer, 'H' ratio 128; the query latent, the grouped output
// projection and the indexer's shape.
void read_compressed(EntryReader& r, const Json& at, Architecture& a) {
  Attention& x = a.attention;
  x.compress_layers = r.string_in(at, "compress_layers", "");
  if (!x.compress_layers.empty() &&
      (std::ssize(x.compress_layers) != a.layers ||
       x.compress_layers.find_first_not_of("SCH") != std::string::npos)) {
    r.fail(fmt::format("'compress_layers' must be one letter S, C or H for each of the {} layers",
                       a.layers));
  }
  x.q_lora_rank = static_cast<int>(r.integer_in(at, "q_lora_rank", 0, kMaxWidth, 0));
  x.o_groups = static_cast<int>(r.integer_in(at, "o_groups", 0, kMaxHeads, 0));
  x.o_lora_rank = static_cast<int>(r.integer_in(at, "o_lora_rank", 0, kMaxWidth, 0));
  read_indexer(r, at, x);
}

// A hybrid's recurrent mixers, as a GGUF file gives them (gguf.cpp), so
// that a model named from the catalogue builds the same compute graph as
// its file: the layer order ('A' a layer with KV heads, 'R' a recurrent
// one, 'F' Nemotron-H's MLP-only blocks), LFM2's short convolution,
// Qwen3-Next's gated delta net.
void read_mixers(EntryReader& r, const Json& at, Architecture& a) {
  Attention& x = a.attention;
  x.layer_mixers = r.string_in(at, "layer_mixers", "");
  if (!x.layer_mixers.empty()) {
    const auto attends = std::count(x.layer_mixers.begin(), x.layer_mixers.end(), 'A');
    const auto recurs = std::count(x.layer_mixers.begin(), x.layer_mixers.end(), 'R');
    const auto mlps = std::count(x.layer_mixers.begin(), x.layer_mixers.end(), 'F');
    if (std::ssize(x.layer_mixers) != a.layers || attends + recurs + mlps != a.layers) {
      r.fail(fmt::format("'layer_mixers' must be one letter A, R or F for each of the {} layers",
                         a.layers));
    } else if (x.attention_layers > 0 && attends != x.attention_layers) {
      r.fail(fmt::format("'layer_mixers' has {} layers A, 'attention_layers' says {}", attends,
                         x.attention_layers));
    } else if (mlps > 0 && x.recurrent_layers > 0 && recurs != x.recurrent_layers) {
      r.fail(fmt::format("'layer_mixers' has {} layers R, 'recurrent_layers' says {}", recurs,
                         x.recurrent_layers));
    }
  }
  x.short_conv_cache = static_cast<int>(r.integer_in(at, "short_conv_cache", 0, 63, 0));
  x.delta_net_k_heads = static_cast<int>(r.integer_in(at, "delta_net_k_heads", 0, kMaxHeads, 0));
  x.delta_net_v_heads = static_cast<int>(r.integer_in(at, "delta_net_v_heads", 0, kMaxHeads, 0));
  x.delta_net_head_dim = static_cast<int>(r.integer_in(at, "delta_net_head_dim", 0, kMaxHeads, 0));
  x.delta_net_conv = static_cast<int>(r.integer_in(at, "delta_net_conv", 0, 63, 0));
  const int given = (x.delta_net_k_heads > 0) + (x.delta_net_v_heads > 0) +
                    (x.delta_net_head_dim > 0) + (x.delta_net_conv > 0);
  // The same bounds the GGUF reader takes the delta net's keys within.
  if (given != 0 &&
      (given != 4 || x.delta_net_v_heads % x.delta_net_k_heads != 0 || x.delta_net_conv < 2)) {
    r.fail(
        "'delta_net_k_heads', 'delta_net_v_heads', 'delta_net_head_dim' and 'delta_net_conv' go "
        "together: value heads a multiple of the key heads, a convolution of 2 taps or more");
  }
}

// Kimi Linear, Kimi K3 and Ling 3 (model.hpp Attention::kda): Kimi Delta
// Attention on the recurrent layers (kda, with the delta_net_* sizes, key
// heads equal to value heads; kda_full_rank_gate for K3 and Ling 3,
// kda_full_rank_decay for Ling 3), MLA on the attention layers (the kind
// "mla" fields; mla_output_gate for K3, mla_head_gate for Ling 3).
void read_kimi(EntryReader& r, const Json& at, Architecture& a) {
  Attention& x = a.attention;
  x.kda = r.boolean_in(at, "kda", false);
  x.kda_full_rank_gate = r.boolean_in(at, "kda_full_rank_gate", false);
  x.kda_full_rank_decay = r.boolean_in(at, "kda_full_rank_decay", false);
  x.mla_head_gate = r.boolean_in(at, "mla_head_gate", false);
  x.kv_lora_rank = static_cast<int>(r.integer_in(at, "kv_lora_rank", 0, kMaxWidth, 0));
  x.qk_rope_head_dim = static_cast<int>(r.integer_in(at, "qk_rope_head_dim", 0, kMaxWidth, 0));
  x.q_lora_rank = static_cast<int>(r.integer_in(at, "q_lora_rank", 0, kMaxWidth, 0));
  x.qk_nope_head_dim = static_cast<int>(r.integer_in(at, "qk_nope_head_dim", 0, kMaxWidth, 0));
  x.v_head_dim = static_cast<int>(r.integer_in(at, "v_head_dim", 0, kMaxWidth, 0));
  x.mla_output_gate = r.boolean_in(at, "mla_output_gate", false);
  if (x.kda && (x.delta_net_k_heads != x.delta_net_v_heads || x.delta_net_v_heads <= 0)) {
    r.fail(
        "'kda' needs delta_net_k_heads equal to delta_net_v_heads (one key head per value head)");
  }
  if ((x.kda_full_rank_gate && !x.kda) || (x.kda_full_rank_decay && !x.kda) ||
      ((x.mla_output_gate || x.mla_head_gate) && x.kv_lora_rank <= 0)) {
    r.fail(
        "'kda_full_rank_gate' and 'kda_full_rank_decay' need 'kda', 'mla_output_gate' and "
        "'mla_head_gate' a 'kv_lora_rank'");
  }
}

// A hybrid's Mamba mixers, as a GGUF file gives them (gguf.cpp), for the
// compute buffer's replay (ggml_alloc.cpp): Mamba-2 (mamba2_*: Falcon-H1's
// beside every layer's attention, Granite 4 H's on the layers 'R' of
// layer_mixers) or Mamba-1 (mamba1_*: Jamba's, with a time-step rank and no
// groups). Absent for other hybrids, which keep the closed form.
void read_mamba(EntryReader& r, const Json& at, Architecture& a) {
  Attention& x = a.attention;
  const std::int64_t inner2 = r.integer_in(at, "mamba2_inner", 0, kMaxWidth, 0);
  const std::int64_t inner1 = r.integer_in(at, "mamba1_inner", 0, kMaxWidth, 0);
  if (inner2 > 0 && inner1 > 0) {
    r.fail("attention has 'mamba2_inner' and 'mamba1_inner': one Mamba mixer or the other");
    return;
  }
  const char* const v = inner1 > 0 ? "mamba1" : "mamba2";
  const auto key = [v](const char* what) { return fmt::format("{}_{}", v, what); };
  x.ssm_inner = inner1 > 0 ? inner1 : inner2;
  x.ssm_state = static_cast<int>(r.integer_in(at, key("state").c_str(), 0, kMaxWidth, 0));
  x.ssm_conv = static_cast<int>(r.integer_in(at, key("conv").c_str(), 0, 64, 0));
  if (inner1 > 0) {
    // Mamba-1's time-step rank rides in ssm_heads, as ssm.time_step_rank.
    x.ssm_heads = static_cast<int>(r.integer_in(at, "mamba1_dt_rank", 0, kMaxHeads, 0));
    x.ssm_groups = 0;
    // Jamba's and Falcon Mamba's dt, B and C are RMS-normed; state-spaces'
    // Mamba runs them plain (mamba1_dt_b_c_rms false).
    x.ssm_plain_dt = !r.boolean_in(at, "mamba1_dt_b_c_rms", true);
  } else {
    x.ssm_heads = static_cast<int>(r.integer_in(at, "mamba2_heads", 0, kMaxHeads, 0));
    x.ssm_groups = static_cast<int>(r.integer_in(at, "mamba2_groups", 0, kMaxHeads, 0));
  }
  if (x.ssm_inner == 0) {
    for (const char* k : {"mamba2_heads", "mamba2_groups", "mamba2_state", "mamba2_conv",
                          "mamba1_state", "mamba1_conv", "mamba1_dt_rank"}) {
      r.mark(at, k);
      if (const auto it = at.find(k); it != at.end() && !it->is_null()) {
        r.fail(fmt::format("attention '{}' needs the mixer's inner width ('{}_inner') beside it", k,
                           std::string_view(k).substr(0, 6)));
        return;
      }
    }
    return;
  }
  // The same bounds the GGUF reader takes the ssm.* keys within.
  const bool groups_ok = inner1 > 0 || (x.ssm_groups > 0 && x.ssm_inner % x.ssm_groups == 0);
  if (x.ssm_heads <= 0 || x.ssm_state <= 0 || x.ssm_conv < 2 || x.ssm_inner % x.ssm_heads != 0 ||
      !groups_ok) {
    r.fail(inner1 > 0 ? "attention 'mamba1_inner' needs a mamba1_dt_rank that divides it, "
                        "mamba1_state and a mamba1_conv of 2 or more"
                      : "attention 'mamba2_inner' needs mamba2_heads and mamba2_groups that "
                        "divide it, mamba2_state and a mamba2_conv of 2 or more");
    return;
  }
  x.mamba = inner1 > 0 ? 1 : 2;
}

// The speech models' parts and the DFlash drafts, as the config.json and
// GGUF readers set them (model.hpp): Qwen3-TTS's talker, whose head has
// head_rows rows (the codec vocabulary) below vocab_size; a DFlash draft
// (dflash_target_layers and what goes with it), which runs beside its
// target; WavTokenizer's decoder (vocoder_features and what goes with it:
// set_vocoder, over `layers` ConvNeXt blocks of hidden_size and an MLP of
// intermediate_size, vocab_size codes). Pocket TTS's backbone needs no field
// of its own (its family, in parse_entry).
void read_speech_and_drafts(EntryReader& r, const Json& j, Model& m) {
  Architecture& a = m.arch;
  a.head_rows = r.integer("head_rows", 0, a.vocab_size - 1, 0);
  if (a.head_rows > 0 && a.no_output_head) {
    r.fail(
        fmt::format("'head_rows' sizes an output head, and '{}' has none (an encoder)", m.family));
  } else if (a.head_rows > 0 && a.tied_embeddings) {
    r.fail("'head_rows' needs an untied head ('tied_embeddings' false)");
  }
  a.dflash_target_layers = static_cast<int>(r.integer("dflash_target_layers", 0, 1024, 0));
  const bool dflash = a.dflash_target_layers > 0;
  // conversion/qwen.py writes block_size 16 when the config names none.
  a.dflash_block_size =
      static_cast<int>(r.integer("dflash_block_size", dflash ? 1 : 0, 1 << 16, dflash ? 16 : 0));
  a.draft_own_embeddings = r.boolean("draft_own_embeddings", false);
  a.draft_own_head = r.boolean("draft_own_head", false);
  a.draft_vocab = r.integer("draft_vocab", 0, a.vocab_size, 0);
  a.dflash_conv_kernel = static_cast<int>(r.integer("dflash_conv_kernel", 0, 1 << 10, 0));
  a.dflash_conv_group = static_cast<int>(r.integer("dflash_conv_group", 0, 1 << 20, 0));
  a.dflash_selector_rank = static_cast<int>(r.integer("dflash_selector_rank", 0, 1 << 20, 0));
  a.dflash_selector_top_k = static_cast<int>(r.integer("dflash_selector_top_k", 0, 1 << 10, 0));
  const int dflash2 = (a.dflash_conv_kernel > 0) + (a.dflash_conv_group > 0) +
                      (a.dflash_selector_rank > 0) + (a.dflash_selector_top_k > 0);
  // Each mistake its own line: the key that needs the draft, the DFlash2
  // four that go together, the group that must divide, the reduced head.
  const std::pair<const char*, bool> needs_draft[] = {
      {"dflash_block_size", a.dflash_block_size > 0},
      {"draft_own_embeddings", a.draft_own_embeddings},
      {"draft_own_head", a.draft_own_head},
      {"draft_vocab", a.draft_vocab > 0},
      {"dflash_conv_kernel", a.dflash_conv_kernel > 0},
      {"dflash_conv_group", a.dflash_conv_group > 0},
      {"dflash_selector_rank", a.dflash_selector_rank > 0},
      {"dflash_selector_top_k", a.dflash_selector_top_k > 0}};
  for (const auto& [key, given] : needs_draft) {
    if (!dflash && given) {
      r.fail(fmt::format("'{}' needs 'dflash_target_layers' (only a DFlash draft has it)", key));
    }
  }
  if (dflash && dflash2 != 0 && dflash2 != 4) {
    r.fail(
        "DFlash2's 'dflash_conv_kernel', 'dflash_conv_group', 'dflash_selector_rank' and "
        "'dflash_selector_top_k' go together: give all four or none");
  } else if (dflash && dflash2 == 4 && a.hidden_size % a.dflash_conv_group != 0) {
    r.fail(fmt::format("'dflash_conv_group' {} must divide 'hidden_size' {}", a.dflash_conv_group,
                       a.hidden_size));
  }
  if (dflash && a.draft_vocab > 0 && !a.draft_own_head) {
    r.fail("'draft_vocab' (the rows of a reduced head) needs 'draft_own_head' true");
  }
  if (dflash) {
    // The target's token embeddings and head unless the draft has its own
    // (hf_config.cpp, gguf.cpp): never tied.
    a.tied_embeddings = false;
  }
  VocoderShape v;
  v.features = r.integer("vocoder_features", 0, 1 << 20, 0);
  if (v.features == 0) {
    for (const char* k : {"posnet_layers", "posnet_width", "vocoder_out"}) {
      if (const auto it = j.find(k); it != j.end() && !it->is_null()) {
        r.fail(fmt::format("'{}' needs 'vocoder_features' (a WavTokenizer decoder)", k));
        return;
      }
    }
    return;
  }
  v.codes = a.vocab_size;
  v.posnet_layers = static_cast<int>(r.integer("posnet_layers", 1, 1000, {}));
  v.posnet_width = r.integer("posnet_width", 1, kMaxWidth, {});
  v.convnext_layers = a.layers;
  v.convnext_width = a.hidden_size;
  v.ffn = a.intermediate_size;
  v.out = r.integer("vocoder_out", 1, 1 << 24, {});
  if (!r.error().empty()) {
    return;
  }
  if (const std::string bad = set_vocoder(a, v); !bad.empty()) {
    r.fail("'vocoder_features': " + bad);
    return;
  }
  // It embeds, generates nothing (hf_config.cpp, gguf.cpp).
  m.embedding = true;
}

// RWKV's blocks (model.hpp Attention::rwkv), as a GGUF file gives them
// (gguf.cpp): the version, the token-shift rows a layer and the time mix's
// LoRA ranks, for the compute buffer's replay. The layer order, the
// recurrent weights and state are the hybrid's own fields beside them.
void read_rwkv(EntryReader& r, const Json& at, Architecture& a) {
  Attention& x = a.attention;
  x.rwkv = static_cast<int>(r.integer_in(at, "rwkv", 0, 6, 0));
  if (x.rwkv == 0) {
    for (const char* k :
         {"rwkv_token_shift_count", "rwkv_time_mix_extra", "rwkv_time_decay_extra"}) {
      if (r.integer_in(at, k, 0, kMaxWidth, 0) != 0) {
        r.fail(fmt::format("attention '{}' needs 'rwkv' (6) beside it", k));
      }
    }
    return;
  }
  x.rwkv_token_shift_count = static_cast<int>(r.integer_in(at, "rwkv_token_shift_count", 1, 2, {}));
  x.rwkv_time_mix_extra =
      static_cast<int>(r.integer_in(at, "rwkv_time_mix_extra", 1, kMaxWidth, {}));
  x.rwkv_time_decay_extra =
      static_cast<int>(r.integer_in(at, "rwkv_time_decay_extra", 1, kMaxWidth, {}));
  if (x.rwkv != 6 || x.attention_layers != 0 || x.recurrent_layers != a.layers ||
      a.heads * a.head_dim != a.hidden_size) {
    r.fail(
        "'rwkv' must be 6 (RWKV-6), with every layer recurrent (no attention_layers) and heads x "
        "head_dim equal to hidden_size");
    return;
  }
  // The token-shift rows and the wkv state, as the readers set them.
  const std::int64_t state = rwkv_state_floats(a.hidden_size, a.head_dim, x.rwkv_token_shift_count);
  if (x.recurrent_params <= 0) {
    r.fail("an RWKV-6 entry needs 'recurrent_params' (the time mix and channel mix of a layer)");
  } else if (r.error().empty() && x.recurrent_state_floats != state) {
    r.fail(
        fmt::format("an RWKV-6 layer's 'recurrent_state_floats' is {} ({} token-shift rows of "
                    "{} and {} heads of {} x {}), not {}",
                    state, x.rwkv_token_shift_count, a.hidden_size, a.heads, a.head_dim, a.head_dim,
                    x.recurrent_state_floats));
  }
}

// The MoE block (parse_entry reads it, and runs it on an empty object to
// learn its keys).
Moe read_moe(EntryReader& r, const Json& moe, const Architecture& a) {
  Moe x;
  x.experts = static_cast<int>(r.integer_in(moe, "experts", 1, kMaxHeads, {}));
  x.experts_per_token = static_cast<int>(r.integer_in(moe, "experts_per_token", 1, x.experts, {}));
  x.shared_experts = static_cast<int>(r.integer_in(moe, "shared_experts", 0, kMaxHeads, 0));
  x.expert_intermediate_size =
      r.integer_in(moe, "expert_intermediate_size", 1, kMaxFfn, a.intermediate_size);
  x.first_dense_layers = static_cast<int>(r.integer_in(moe, "first_dense_layers", 0, a.layers, 0));
  x.layer_step = static_cast<int>(r.integer_in(moe, "layer_step", 1, a.layers, 1));
  // Kimi K3's latent experts, and a router choosing by probs + a bias.
  x.latent_size = r.integer_in(moe, "latent_size", 0, kMaxWidth, 0);
  x.selection_bias = r.boolean_in(moe, "selection_bias", false);
  x.router_reads_layer_input = r.boolean_in(moe, "router_reads_layer_input", false);
  x.weights_normalized = r.boolean_in(moe, "weights_normalized", true);
  x.residual_mlp = r.boolean_in(moe, "residual_mlp", false);
  // GroveMoE's adjugate experts: one of group_expert_width to each group
  // of experts_per_group routed experts (model.hpp Moe::experts_per_group).
  x.experts_per_group = static_cast<int>(r.integer_in(moe, "experts_per_group", 0, x.experts, 0));
  x.group_expert_width = r.integer_in(moe, "group_expert_width", 0, kMaxFfn, 0);
  if ((x.experts_per_group > 0) != (x.group_expert_width > 0) ||
      (x.experts_per_group > 0 && x.experts % x.experts_per_group != 0)) {
    r.fail(
        "'experts_per_group' and 'group_expert_width' go together, and the groups must divide "
        "'experts'");
  }
  return x;
}

// The attention block of one kind (full, sliding, chunked, mla, hybrid).
// parse_entry runs it again for the other kinds, on a copy, to say which
// kind a key left unread belongs to.
void read_attention(EntryReader& r, const Json& at, const std::string& kind, Model& m) {
  Architecture& a = m.arch;
  r.mark(at, "kind");
  r.mark(at, "global_k_eq_v");
  r.mark(at, "gated_attention");
  if (kind == "full") {
    a.attention.kind = AttentionKind::Full;
    // MiniMax-M3's sparse attention: an indexer beside GQA on its last
    // indexer_layers layers.
    read_indexer(r, at, a.attention);
    a.attention.indexer_layers =
        static_cast<int>(r.integer_in(at, "indexer_layers", 0, kMaxLayers, 0));
    // Laguna M.1: no window, a softplus gate per element (laguna.cpp).
    a.attention.output_gate = r.boolean_in(at, "output_gate", false);
    a.attention.softplus_gate = r.boolean_in(at, "softplus_gate", false);
    // GPT-NeoX's parallel residual (gptneox.cpp use_par_res), PLaMo-13B's.
    read_parallel_block(r, at, a.attention);
  } else if (kind == "sliding") {
    a.attention.kind = AttentionKind::Sliding;
    a.attention.sliding_window = r.integer_in(at, "sliding_window", 1, kMaxContext, {});
    a.attention.sliding_pattern =
        static_cast<int>(r.integer_in(at, "sliding_pattern", 0, kMaxLayers, 0));
    // Gemma 4: the global layers' own head width and KV heads, K as V.
    a.attention.global_head_dim =
        static_cast<int>(r.integer_in(at, "global_head_dim", 0, kMaxWidth, 0));
    a.attention.global_kv_heads =
        static_cast<int>(r.integer_in(at, "global_kv_heads", 0, kMaxHeads, 0));
    if (const auto kv = at.find("global_k_eq_v"); kv != at.end() && !kv->is_null()) {
      if (kv->is_boolean()) {
        a.attention.global_k_eq_v = kv->get<bool>();
      } else {
        r.fail("'global_k_eq_v' must be true or false");
      }
    }
    // Mistral v0.1, Phi-3 4k: llama.cpp builds no window for them
    // (Attention::llama_cpp_no_window).
    a.attention.llama_cpp_no_window = r.boolean_in(at, "llama_cpp_no_window", false);
    // Step-3.5: global layers first in each group, with heads of their
    // own; a sigmoid gate per head.
    a.attention.global_first = r.boolean_in(at, "global_first", false);
    a.attention.global_heads = static_cast<int>(r.integer_in(at, "global_heads", 0, kMaxHeads, 0));
    a.attention.head_gate = r.boolean_in(at, "head_gate", false);
    // MiMo-V2-Flash: the global layers as listed (one letter a layer, S
    // windowed, G global), V heads of their own width, a scaled output.
    a.attention.window_layers = r.string_in(at, "window_layers", "");
    if (!a.attention.window_layers.empty() &&
        (std::ssize(a.attention.window_layers) != a.layers ||
         a.attention.window_layers.find_first_not_of("SG") != std::string::npos)) {
      r.fail(fmt::format("'window_layers' must be one letter S or G for each of the {} layers",
                         a.layers));
    }
    a.attention.value_head_dim =
        static_cast<int>(r.integer_in(at, "value_head_dim", 0, kMaxWidth, 0));
    a.attention.value_scale = r.boolean_in(at, "value_scale", false);
    // AFMoE (Trinity): a gate projection on the attention output.
    a.attention.output_gate = r.boolean_in(at, "output_gate", false);
    // Laguna: that gate (or head_gate's) a softplus, the output rows picked
    // inside the last layer (laguna.cpp).
    a.attention.softplus_gate = r.boolean_in(at, "softplus_gate", false);
    // Cohere2 MoE: the parallel block; no RoPE on global layers after the dense lead.
    read_parallel_block(r, at, a.attention);
    a.attention.nope_global = r.boolean_in(at, "nope_global", false);
    read_compressed(r, at, a);
  } else if (kind == "chunked") {
    // Llama 4's chunked local attention: a window of the chunk's length.
    a.attention.kind = AttentionKind::Sliding;
    a.attention.chunked = true;
    a.attention.sliding_window = r.integer_in(at, "sliding_window", 1, kMaxContext, {});
    a.attention.sliding_pattern =
        static_cast<int>(r.integer_in(at, "sliding_pattern", 0, kMaxLayers, 0));
  } else if (kind == "mla") {
    a.attention.kind = AttentionKind::Mla;
    a.attention.kv_lora_rank = static_cast<int>(r.integer_in(at, "kv_lora_rank", 1, kMaxWidth, {}));
    a.attention.qk_rope_head_dim =
        static_cast<int>(r.integer_in(at, "qk_rope_head_dim", 0, kMaxWidth, 0));
    a.attention.q_lora_rank = static_cast<int>(r.integer_in(at, "q_lora_rank", 0, kMaxWidth, 0));
    a.attention.qk_nope_head_dim =
        static_cast<int>(r.integer_in(at, "qk_nope_head_dim", 0, kMaxWidth, 0));
    a.attention.v_head_dim = static_cast<int>(r.integer_in(at, "v_head_dim", 0, kMaxWidth, 0));
    read_indexer(r, at, a.attention);
    // GLM-5.2: the layers with an indexer of their own (the rest share one).
    a.attention.indexer_layers =
        static_cast<int>(r.integer_in(at, "indexer_layers", 0, kMaxLayers, 0));
    // dots.llm3: the windowed layers as listed (S windowed, G full), their
    // window and their own MLA shape; a gate of one value a head.
    Attention& x = a.attention;
    x.mla_head_gate = r.boolean_in(at, "mla_head_gate", false);
    // MiniCPM3 caches K and V per head, as from its config.json.
    x.mla_cached_per_head = caches_mla_per_head(m.family);
    // PLM's head, as from its config.json (by the family unless told).
    x.mla_unscaled_head = r.boolean_in(at, "mla_unscaled_head", m.family == "plm");
    // PLM's graph, which llama.cpp aborts on with flash attention
    // (Attention::flash_aborts), as from its config.json or GGUF.
    x.flash_aborts = m.family == "plm";
    x.window_layers = r.string_in(at, "window_layers", "");
    x.sliding_window = r.integer_in(at, "sliding_window", 0, kMaxContext, 0);
    x.swa_heads = static_cast<int>(r.integer_in(at, "swa_heads", 0, kMaxHeads, 0));
    x.swa_kv_lora_rank = static_cast<int>(r.integer_in(at, "swa_kv_lora_rank", 0, kMaxWidth, 0));
    x.swa_qk_nope_head_dim =
        static_cast<int>(r.integer_in(at, "swa_qk_nope_head_dim", 0, kMaxWidth, 0));
    x.swa_v_head_dim = static_cast<int>(r.integer_in(at, "swa_v_head_dim", 0, kMaxWidth, 0));
    if ((x.swa_kv_lora_rank > 0) != !x.window_layers.empty() ||
        (x.swa_kv_lora_rank > 0 && (std::ssize(x.window_layers) != a.layers ||
                                    x.window_layers.find_first_not_of("SG") != std::string::npos ||
                                    x.sliding_window <= 0 || x.swa_heads <= 0))) {
      r.fail(fmt::format(
          "'swa_kv_lora_rank' needs 'window_layers' (one letter S or G for each of the {} "
          "layers), 'sliding_window' and 'swa_heads', and 'window_layers' a 'swa_kv_lora_rank'",
          a.layers));
    }
  } else if (kind == "hybrid") {
    a.attention.kind = AttentionKind::Hybrid;
    a.attention.attention_layers =
        static_cast<int>(r.integer_in(at, "attention_layers", 0, a.layers, 0));
    a.attention.recurrent_layers =
        static_cast<int>(r.integer_in(at, "recurrent_layers", 0, a.layers, 0));
    a.attention.recurrent_params = r.integer_in(at, "recurrent_params", 0, kMaxParams, 0);
    a.attention.recurrent_state_floats =
        r.integer_in(at, "recurrent_state_floats", 0, kMaxParams, 0);
    read_mixers(r, at, a);
    read_mamba(r, at, a);
    // vLLM keeps Nemotron-H's Mamba-2 scan state in F32 (model.hpp
    // vllm_f32_state_floats), as from its config.json.
    if (m.family == "nemotron-h" && a.attention.mamba == 2) {
      a.attention.vllm_f32_state_floats =
          std::int64_t{a.attention.ssm_state} * a.attention.ssm_inner;
    }
    // And Qwen3.5's delta-net recurrent matrix, which its config.json names
    // float32 (text_config mamba_ssm_dtype; the copies seen: Qwen3.5-27B's as a
    // public Rust loader of MLX Qwen3.5-27B checkpoints checks it, refusing
    // any other value with 'unsupported arithmetic/attention configuration',
    // and the Qwen3.5 test fixtures of public vLLM model ports), as
    // hf_config.cpp reads it. Qwen3.6 and Qwen3.8 keep the network, but no
    // copy of their config.json was read: they keep the model's dtype.
    if (m.family == "qwen3.5" && a.attention.delta_net_v_heads > 0) {
      a.attention.vllm_f32_state_floats = std::int64_t{a.attention.delta_net_v_heads} *
                                          a.attention.delta_net_head_dim *
                                          a.attention.delta_net_head_dim;
    }
    read_rwkv(r, at, a);
    read_kimi(r, at, a);
    // MiniMax-01: lightning attention on the recurrent layers (model.hpp
    // Attention::lightning; heads and head_dim size it).
    a.attention.lightning = r.boolean_in(at, "lightning", false);
    // Qwen4Exp's QSA indexer on the attention layers: its heads, key
    // width, budget and the block its keys are pooled over.
    read_indexer(r, at, a.attention);
    a.attention.index_top_k = static_cast<int>(r.integer_in(at, "index_top_k", 0, kMaxContext, 0));
    a.attention.index_block = static_cast<int>(r.integer_in(at, "index_block", 0, kMaxWidth, 0));
  } else {
    r.fail(fmt::format("attention 'kind' must be full, sliding, chunked, mla or hybrid, not '{}'",
                       kind));
  }
  a.attention.kv_shared_layers =
      static_cast<int>(r.integer_in(at, "kv_shared_layers", 0, a.layers, 0));
  // gpt-oss's learned attention sinks, as a GGUF's attn_sinks tensors say:
  // its graph picks the rows to output after the last layer.
  a.attention.sinks = r.boolean_in(at, "sinks", false);
  // DBRX's one clamped attn_qkv (dbrx.cpp): typed as attn_v by
  // llama-quantize, and its own nodes in the compute graph.
  a.attention.fused_qkv_clamp = r.boolean_in(at, "fused_qkv_clamp", false);
  // Qwen3.5's gated attention: a Q projection of twice the width.
  if (const auto g = at.find("gated_attention"); g != at.end() && !g->is_null()) {
    if (g->is_boolean()) {
      a.attention.gated_attention = g->get<bool>();
    } else {
      r.fail("'gated_attention' must be true or false");
    }
  }
}

// `ollama_tags` (data/README.md): the quantisations Ollama's library
// publishes for the entry as tags of their own. Each type must be a GGUF
// type willfit knows, once; the pattern an Ollama tag of the entry's own
// name (one of its aliases), with "{q}" once, or, without it, one type only.
void read_ollama_tags(EntryReader& r, const Json& t, CatalogueEntry& e) {
  Model& m = e.model;
  const std::string pattern = r.string_in(t, "pattern", std::nullopt);
  (void)r.string_in(t, "source", std::nullopt);
  const auto colon = pattern.find(':');
  const auto q = pattern.find("{q}");
  if (pattern.empty()) {
    return;
  }
  if (colon == std::string::npos || colon == 0 || pattern.find('/') != std::string::npos ||
      pattern.find(' ') != std::string::npos) {
    r.fail(fmt::format("'ollama_tags': pattern '{}' is not an Ollama tag (NAME:TAG)", pattern));
    return;
  }
  if (q != std::string::npos && (q < colon || pattern.find("{q}", q + 1) != std::string::npos)) {
    r.fail(
        fmt::format("'ollama_tags': pattern '{}' must hold '{{q}}' once, after the ':'", pattern));
    return;
  }
  const std::string name = to_lower(pattern.substr(0, colon));
  if (std::none_of(e.aliases.begin(), e.aliases.end(), [&](const std::string& a) {
        return a.find(':') != std::string::npos && a.substr(0, a.find(':')) == name;
      })) {
    r.fail(
        fmt::format("'ollama_tags': pattern '{}' names '{}', which no Ollama alias of the "
                    "entry does",
                    pattern, name));
    return;
  }
  const auto it = t.find("types");
  r.mark(t, "types");
  if (it == t.end() || !it->is_array() || it->empty()) {
    r.fail("'ollama_tags': 'types' must be a non-empty array of quantisations (\"q4_K_M\")");
    return;
  }
  std::vector<std::string> types;
  std::vector<std::string> ids;
  for (const auto& v : *it) {
    const std::string type = v.is_string() ? v.get<std::string>() : std::string();
    std::optional<Precision> p;
    if (auto parsed = parse_precision(type); !type.empty() && parsed) {
      p = *parsed;
    }
    // A GGUF type: a llama.cpp quantisation, or the 16-bit floats a tag
    // calls fp16 and bf16 (F16 and BF16 GGUFs).
    if (!p || !(p->gguf || p->id == "fp16" || p->id == "bf16")) {
      r.fail(fmt::format("'ollama_tags': type '{}' is not a GGUF type (q4_K_M, fp16)",
                         v.is_string() ? type : v.dump()));
      return;
    }
    if (std::find(ids.begin(), ids.end(), p->id) != ids.end()) {
      r.fail(fmt::format("'ollama_tags': type '{}' is listed twice", type));
      return;
    }
    ids.push_back(p->id);
    types.push_back(type);
  }
  if (q == std::string::npos && types.size() != 1) {
    r.fail(fmt::format("'ollama_tags': pattern '{}' has no '{{q}}', so it names one type, not {}",
                       pattern, types.size()));
    return;
  }
  for (const auto& key : r.unread(t)) {
    r.fail(fmt::format("'ollama_tags': unknown key '{}' (pattern, types, source)", key));
    return;
  }
  m.ollama_tag_pattern = pattern;
  m.ollama_tag_types = std::move(types);
}

Expected<CatalogueEntry> parse_entry(const Json& j, std::size_t index, std::string_view origin) {
  if (!j.is_object()) {
    return make_error(fmt::format("{}: model {} must be an object", origin, index + 1));
  }
  std::string label = fmt::format("model {}", index + 1);
  if (const auto it = j.find("id"); it != j.end() && it->is_string()) {
    label += fmt::format(" ('{}')", it->get<std::string>());
  }
  EntryReader r(j, fmt::format("{}: {}", origin, label));
  CatalogueEntry e;
  Model& m = e.model;
  Architecture& a = m.arch;
  m.id = to_lower(r.string("id"));
  m.name = r.string("name", m.id);
  m.family = r.string("family", m.id);
  if (const auto gap = llama_cpp_gap(m.family)) {
    m.llama_cpp_cannot_run = gap->why;
    m.ollama_engine_runs = gap->ollama_engine_runs;
  }
  // An encoder or diffusion family (BERT) holds no KV cache, as from its
  // config.json (Attention::no_kv_cache).
  a.attention.no_kv_cache = is_cache_free_config_model_type(m.family);
  e.aliases = r.strings("aliases");
  m.params = r.integer("params", 1, kMaxParams);
  m.active_params = r.integer("active_params", 1, kMaxParams, m.params);
  a.layers = static_cast<int>(r.integer("layers", 1, kMaxLayers));
  a.hidden_size = r.integer("hidden_size", 1, kMaxWidth);
  a.intermediate_size = r.integer("intermediate_size", 0, kMaxFfn, 0);
  a.mlp_gated = r.boolean("mlp_gated", true);
  // Nemotron-4's LayerNorm biases beside plain projections (as its GGUF and
  // config.json are read: nemotron.cpp load_arch_tensors); Phi-3.5-MoE's
  // LayerNorm, q/k/v/o and output biases (phimoe.cpp load_arch_tensors).
  const bool phimoe = m.family == "phimoe";
  // Jais's LayerNorms carry biases too (jais.cpp load_arch_tensors), and
  // Jais 2's, beside biases on q, k, v, o, up and down (jais2.cpp
  // load_arch_tensors; Jais2Config attention_bias and mlp_bias default true).
  const bool jais2 = m.family == "jais-2";
  // Pocket TTS's backbone (pockettts.cpp): LayerNorms with biases, as from
  // its config.json; Orion's too (orion.cpp), as from its model_type.
  a.norm_bias = m.family == "nemotron" || phimoe || m.family == "jais" || jais2 ||
                m.family == "pockettts" || m.family == "orion";
  a.mlp_bias = jais2;
  // Talkie's weightless RMS norms and the normed embeddings added to every
  // layer's output (talkie.cpp; Architecture::embedding_skip).
  a.weightless_norms = m.family == "talkie";
  a.embedding_skip = m.family == "talkie";
  // GPT-2's layer (Architecture::gpt2_layer), by the family: the GPT-2,
  // StarCoder, Pythia (GPT-NeoX), BLOOM, MPT, Falcon, Phi-2 and CodeShell
  // decoders and the BERT encoders, with their ungated MLP (Nemotron-H's is
  // llama's). CodeShell's (codeshell.cpp) as from its config.json or GGUF:
  // its one c_attn is the entry's fused_qkv and qkv_bias.
  a.gpt2_layer = !a.mlp_gated && [&m] {
    static constexpr auto families = std::to_array<std::string_view>(
        {"gpt-2", "starcoder", "pythia", "bloom", "mpt", "falcon", "phi-2", "codeshell", "bert",
         "all-minilm", "bge-m3", "granite-embedding", "mxbai-embed-large", "nomic-embed-text",
         "snowflake-arctic-embed"});
    return std::find(families.begin(), families.end(), m.family) != families.end();
  }();
  // Where the family builds it otherwise (Architecture::gpt2_separate_qkv
  // and what follows it; llama.cpp at 80fb11ac): BERT's encoders (BERT,
  // RoBERTa, XLM-RoBERTa: bert.cpp) and Phi-2 (phi2.cpp) with q, k and v
  // apart; Falcon without projection biases (falcon.cpp); MPT-7B and MPT-30B
  // (no_bias true in both configs) with no bias at all.
  if (a.gpt2_layer) {
    static constexpr auto apart = std::to_array<std::string_view>(
        {"phi-2", "bert", "all-minilm", "bge-m3", "granite-embedding", "mxbai-embed-large",
         "snowflake-arctic-embed"});
    a.gpt2_separate_qkv = std::find(apart.begin(), apart.end(), m.family) != apart.end();
    a.gpt2_no_linear_bias = m.family == "falcon" || m.family == "mpt";
    a.gpt2_no_norm_bias = m.family == "mpt";
  }
  // Falcon-7B's one LayerNorm a layer (data/README.md one_norm).
  // Phi-2's (phi2.cpp: attn_norm, no ffn_norm) by its family.
  a.gpt2_one_norm = (r.boolean("one_norm", false) || m.family == "phi-2") && a.gpt2_layer;
  a.attention_bias = phimoe || jais2;
  a.output_bias = phimoe || (m.family == "phi-2" && a.gpt2_layer);  // phi2.cpp output_b
  a.heads = static_cast<int>(r.integer("heads", 1, kMaxHeads));
  a.kv_heads = static_cast<int>(r.integer("kv_heads", 1, a.heads, a.heads));
  a.head_dim = static_cast<int>(
      r.integer("head_dim", 1, kMaxHeads, std::max<std::int64_t>(1, a.hidden_size / a.heads)));
  a.vocab_size = r.integer("vocab_size", 1, kMaxVocab);
  a.tied_embeddings = r.boolean("tied_embeddings", false);
  a.max_context = r.integer("max_context", 1, kMaxContext, 0);
  // GPT-2's and StarCoder's learned position table (rows; model.hpp).
  a.learned_positions = r.integer("learned_positions", 0, kMaxContext, 0);
  // The BERT encoders (bert.cpp) learn one too, of the context's rows.
  if (a.gpt2_separate_qkv && m.family != "phi-2" && a.learned_positions == 0) {
    a.learned_positions = a.max_context;
  }
  a.vision_params = r.integer("vision_params", 0, kMaxParams, 0);
  m.ollama_text_only = r.boolean("ollama_text_only", false);
  a.mlp_layers = static_cast<int>(r.integer("mlp_layers", 0, a.layers, 0));
  a.mtp_layers = static_cast<int>(r.integer("mtp_layers", 0, kMaxLayers, 0));
  a.mtp_dense = r.boolean("mtp_dense", false);  // Step-3.5's MTP blocks
  // K-EXAONE's and MiMo-V2-Flash's: no output head of their own
  a.mtp_shares_head = r.boolean("mtp_shares_head", false);
  a.per_layer_width = r.integer("per_layer_width", 0, kMaxWidth, 0);
  a.per_layer_vocab =
      r.integer("per_layer_vocab", 0, kMaxVocab, a.per_layer_width > 0 ? a.vocab_size : 0);
  a.altup_inputs = static_cast<int>(r.integer("altup_inputs", 0, 64, 0));
  a.hyper_connections = static_cast<int>(r.integer("hyper_connections", 0, 64, 0));
  a.hash_layers = static_cast<int>(r.integer("hash_layers", 0, a.layers, 0));
  // Qwen4Exp: the hyper-connection gate's rank and the n-gram table (model.hpp).
  a.hc_low_rank = static_cast<int>(r.integer("hc_low_rank", 0, kMaxWidth, 0));
  a.ngram_rows = r.integer("ngram_rows", 0, kMaxParams, 0);
  a.ngram_width = r.integer("ngram_width", 0, kMaxWidth, 0);
  a.ngram_heads = static_cast<int>(r.integer("ngram_heads", 0, kMaxHeads, 0));
  a.ngram_size = static_cast<int>(r.integer("ngram_size", 0, 64, 0));
  a.ngram_conv = static_cast<int>(r.integer("ngram_conv", 0, 64, 0));
  a.ngram_layer = static_cast<int>(r.integer("ngram_layer", -1, a.layers - 1, -1));
  a.laurel_rank = r.integer("laurel_rank", 0, kMaxWidth, 0);
  a.double_wide_mlp_layers = static_cast<int>(r.integer("double_wide_mlp_layers", 0, a.layers, 0));
  // Nemotron NAS (deci): one [query heads, KV heads, MLP width] a layer
  // (Architecture::layer_widths); heads, kv_heads and intermediate_size
  // are then the widest layer's.
  if (const auto lw = j.find("layer_widths"); lw != j.end() && !lw->is_null()) {
    bool ok = lw->is_array() && std::ssize(*lw) == a.layers;
    for (std::size_t i = 0; ok && i < lw->size(); ++i) {
      const Json& l = (*lw)[i];
      ok = l.is_array() && l.size() == 3 && l[0].is_number_integer() && l[1].is_number_integer() &&
           l[2].is_number_integer() && l[0].get<std::int64_t>() >= 0 &&
           l[0].get<std::int64_t>() <= a.heads && l[1].get<std::int64_t>() >= 0 &&
           l[1].get<std::int64_t>() <= a.kv_heads && l[2].get<std::int64_t>() >= 0 &&
           l[2].get<std::int64_t>() <= a.intermediate_size;
      if (ok) {
        a.layer_widths.push_back({static_cast<int>(l[0].get<std::int64_t>()),
                                  static_cast<int>(l[1].get<std::int64_t>()),
                                  l[2].get<std::int64_t>()});
      }
    }
    if (!ok) {
      r.fail(
          fmt::format("'layer_widths' must be one [heads, kv_heads, ffn] for each of the {} "
                      "layers, none above heads, kv_heads and intermediate_size",
                      a.layers));
      a.layer_widths.clear();
    }
  }
  // Written by the defaults work; read so a wrong type is caught, not used here.
  (void)r.string("published_precision", "");
  (void)r.string("published_precision_source", "");
  e.modality = r.string("modality", "text");
  a.speech = e.modality == "speech";
  // An embedding model (nomic-embed-text, Qwen3-Embedding) or an encoder:
  // speed is the rate it reads input, and Ollama gives it its embedding batch.
  m.embedding = r.boolean("embedding", e.modality == "encoder");
  // An entry marked as an encoder (the embedding models) holds no KV cache
  // whatever its family is called, as llama.cpp gives its archs no memory.
  a.attention.no_kv_cache = a.attention.no_kv_cache || e.modality == "encoder";
  // The BERT family's block: LayerNorms after the residual sums.
  a.attention.post_norm = r.boolean("post_norm", false);
  // The catalogue's BERT-family encoders (the post_norm entries) end at the
  // embeddings: no output head (Architecture::no_output_head); so does an
  // encoder whose family is its config.json model_type (NeoBERT: llama.cpp
  // loads no masked-LM head for it, as from its config.json).
  a.no_output_head = a.attention.post_norm || is_encoder_config_model_type(m.family);
  // jina-bert-v2: ALiBi positions and a fused GEGLU (model.hpp Attention::alibi).
  // The ALiBi decoders too (BLOOM, MPT, Jais); BLOOM's LayerNorm of the
  // token embeddings (model.hpp Architecture::embedding_norm).
  a.attention.alibi = r.boolean("alibi", false);
  a.embedding_norm = r.boolean("embedding_norm", false);
  // ChatGLM's block (chatglm.cpp): one fused QKV projection with q, k and v
  // biases, and gate and up in one projection (data/README.md).
  a.attention.fused_qkv = r.boolean("fused_qkv", false);
  a.qkv_bias = r.boolean("qkv_bias", false);
  a.fused_gate_up = r.boolean("fused_gate_up", false);
  // OpenELM's and PLaMo 3's Q and K norms on the fused QKV, and PLaMo 3's
  // norms after the attention and the MLP (model.hpp; plamo3.cpp), as from
  // its config.json.
  a.attention.fused_qkv_norm = r.boolean("fused_qkv_norm", false);
  if (a.attention.fused_qkv_norm && !a.attention.fused_qkv) {
    r.fail("'fused_qkv_norm' needs 'fused_qkv' (the norms sit on the fused QKV projection)");
  }
  a.attention.sandwich_norms = r.boolean("sandwich_norms", false);
  // Granite Switch's embedded LoRA adapters (model.hpp Architecture::adapters):
  // how many, and their rank (config.json num_adapters, max_lora_rank).
  a.adapters = static_cast<int>(r.integer("adapters", 0, 4096, 0));
  a.adapter_rank = static_cast<int>(r.integer("adapter_rank", 0, kMaxWidth, 0));
  if ((a.adapters > 0) != (a.adapter_rank > 0)) {
    r.fail("'adapters' and 'adapter_rank' go together: both positive or both absent");
  }
  // T5 (model.hpp Architecture::decoder_layers): `layers` counts both
  // stacks, the last decoder_layers the decoder's; relative_buckets, the
  // learned position-bias table, marks it.
  a.decoder_layers = static_cast<int>(r.integer("decoder_layers", 0, a.layers - 1, 0));
  a.relative_buckets = static_cast<int>(r.integer("relative_buckets", 0, kMaxHeads, 0));
  e.source = r.string("source", "");
  e.origin = std::string(origin);
  e.published_precision = to_lower(r.string("published_precision", ""));
  e.published_precision_source = r.string("published_precision_source", "");
  if (!e.published_precision.empty()) {
    if (auto p = parse_precision(e.published_precision); !p) {
      r.fail(fmt::format("'published_precision': {}", p.error().message));
    } else if (e.published_precision_source.empty()) {
      r.fail("'published_precision' needs a 'published_precision_source'");
    }
  }
  e.ollama_precision = to_lower(r.string("ollama_precision", ""));
  if (!e.ollama_precision.empty()) {
    if (auto p = parse_precision(e.ollama_precision); !p || !p->gguf) {
      r.fail(fmt::format("'ollama_precision': '{}' is not a llama.cpp quantisation",
                         e.ollama_precision));
    }
  }
  if (const Json* tags = r.object("ollama_tags")) {
    read_ollama_tags(r, *tags, e);
  }
  if (const Json* at = r.object("attention")) {
    const auto k = at->find("kind");
    const std::string kind =
        (k == at->end() || k->is_null()) ? "full" : (k->is_string() ? k->get<std::string>() : "?");
    read_attention(r, *at, kind, m);
    // A key no reader of this kind asked for: another kind's ("rwkv" in a
    // full attention, "mla_unscaled_head" in a sliding one), refused by name.
    for (const auto& key : r.unread(*at)) {
      std::vector<std::string> kinds;
      for (const char* other : {"full", "sliding", "chunked", "mla", "hybrid"}) {
        EntryReader scratch(j, "");
        Model copy = m;
        read_attention(scratch, *at, other, copy);
        if (other != kind && scratch.asked(*at, key)) {
          kinds.push_back(fmt::format("'{}'", other));
        }
      }
      if (kinds.empty()) {
        r.fail(
            fmt::format("attention key '{}' is not read for kind '{}' (misspelt, or it needs "
                        "another key beside it: data/README.md lists the attention keys)",
                        key, kind));
      } else {
        std::string list;
        for (std::size_t i = 0; i < kinds.size(); ++i) {
          list += (i == 0 ? "" : i + 1 == kinds.size() ? " or " : ", ") + kinds[i];
        }
        r.fail(
            fmt::format("attention key '{}' is read for kind {}, not for '{}'", key, list, kind));
      }
    }
  }
  if (const Json* moe = r.object("moe")) {
    a.moe = read_moe(r, *moe, a);
    for (const auto& key : r.unread(*moe)) {
      r.fail(fmt::format("'moe' has no key '{}' (data/README.md lists the MoE keys)", key));
    }
  }
  read_speech_and_drafts(r, j, m);
  // A key of the attention or MoE block written beside them is not read
  // there: say where it belongs rather than drop it.
  // The keys each block reads: as the block given was read, and as an empty
  // one is (every kind of attention), for a model that has no such block.
  const Json empty = Json::object();
  EntryReader blocks(empty, "");
  for (const char* kind : {"full", "sliding", "chunked", "mla", "hybrid"}) {
    Model copy = m;
    read_attention(blocks, empty, kind, copy);
  }
  const Json empty_moe = Json::object();
  (void)read_moe(blocks, empty_moe, a);
  for (auto key = j.begin(); key != j.end(); ++key) {
    if (r.asked(j, key.key()) || key->is_null()) {
      continue;
    }
    for (const char* block : {"attention", "moe"}) {
      const auto it = j.find(block);
      const bool inside =
          (it != j.end() && it->is_object() && r.asked(*it, key.key())) ||
          blocks.asked(std::string_view(block) == "moe" ? empty_moe : empty, key.key());
      if (inside) {
        r.fail(fmt::format(
            "'{}' belongs inside '{}', not beside it{}", key.key(), block,
            it == j.end() || it->is_null() ? " (and the model has no such block)" : ""));
      }
    }
  }
  if (!r.error().empty()) {
    return make_error(r.error());
  }
  m.source = FactSource::Catalogue;
  m.notes.push_back(fmt::format(
      "architecture from the catalogue ({}): {} layers, hidden {}, {}, vocabulary {}{}",
      e.origin == "embedded" ? m.id : m.id + " in " + e.origin, a.layers, a.hidden_size,
      attention_heads_text(a), a.vocab_size, a.tied_embeddings ? ", tied embeddings" : ""));
  m.notes.push_back(describe_shape(m));
  if (const std::string draft = draft_note(a); !draft.empty()) {
    m.notes.push_back(draft);
  }
  return e;
}

// Splits a lowercase name into its letter runs and digit runs.
std::vector<std::string> name_tokens(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty()) {
      out.push_back(cur);
      cur.clear();
    }
  };
  for (const char raw : s) {
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(raw)));
    if (!is_alpha(c) && !is_digit(c)) {
      flush();
      continue;
    }
    if (!cur.empty() && is_digit(cur.back()) != is_digit(c)) {
      flush();
    }
    cur += c;
  }
  flush();
  return out;
}

// True when `needle` occurs in `key` starting at a token, ending at a token's
// end, or (when it ends in letters) inside a word: "qwen-3" finds "qwen-3-8-b"
// but not "qwen-32-b"; "llam" finds "llama-3-1-8-b".
bool key_contains(const std::string& key, const std::string& needle) {
  for (std::size_t p = key.find(needle); p != std::string::npos; p = key.find(needle, p + 1)) {
    if (p != 0 && key[p - 1] != '-') {
      continue;
    }
    const std::size_t end = p + needle.size();
    if (end == key.size() || key[end] == '-' || (is_alpha(needle.back()) && is_alpha(key[end]))) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::string model_name_key(std::string_view name) {
  const std::string lower = to_lower(trim(name));
  std::string_view s = lower;
  if (const auto slash = s.rfind('/'); slash != std::string_view::npos) {
    s.remove_prefix(slash + 1);
  }
  std::string key;
  for (const auto& t : name_tokens(s)) {
    if (std::find(kSuffixWords.begin(), kSuffixWords.end(), t) != kSuffixWords.end()) {
      continue;
    }
    if (!key.empty()) {
      key += '-';
    }
    key += t;
  }
  return key;
}

NameAndPrecision split_precision_suffix(std::string_view name) {
  const std::string s = trim(name);
  const auto dash = s.rfind('-');
  const auto colon = s.rfind(':');
  // The last piece after '-' or ':' ("q4_K_M" in "qwen2.5:7b-instruct-q4_K_M").
  std::size_t cut = std::string::npos;
  if (dash != std::string::npos && (colon == std::string::npos || dash > colon)) {
    cut = dash;
  } else if (colon != std::string::npos) {
    cut = colon;
  }
  if (cut == std::string::npos || cut + 1 >= s.size()) {
    return {s, ""};
  }
  const std::string piece = s.substr(cut + 1);
  // A precision has letters ("q4_k_m", "fp16"); "8b" and "v0.3" are not precisions.
  if (looks_like_size(piece) || piece.find('.') != std::string::npos ||
      std::none_of(piece.begin(), piece.end(), is_alpha)) {
    return {s, ""};
  }
  auto p = parse_precision(piece);
  if (!p) {
    return {s, ""};
  }
  return {s.substr(0, cut), p->id};
}

Expected<ModelDb> ModelDb::parse(std::string_view text, std::string_view origin) {
  if (json_nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth) {
    return make_error(fmt::format("{}: JSON nested deeper than {} levels", origin, kMaxJsonDepth));
  }
  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const Json::parse_error& e) {
    return make_error(
        fmt::format("{}: not valid JSON (at byte {}): fix the file or remove it", origin, e.byte));
  } catch (const Json::exception&) {  // e.g. a number out of range
    return make_error(fmt::format("{}: not valid JSON (a value out of range)", origin));
  }
  ModelDb db;
  const Json* list = &doc;
  if (doc.is_object()) {
    if (const auto v = doc.find("schema_version"); v != doc.end() && *v != 1) {
      return make_error(
          fmt::format("{}: schema_version {} is not supported (this willfit reads version 1)",
                      origin, v->dump()));
    }
    if (const auto v = doc.find("data_version"); v != doc.end() && v->is_string()) {
      db.data_version_ = v->get<std::string>();
    }
    const auto it = doc.find("models");
    if (it == doc.end()) {
      return make_error(fmt::format("{}: missing the 'models' array", origin));
    }
    list = &*it;
  }
  if (!list->is_array()) {
    return make_error(fmt::format("{}: 'models' must be an array of model objects", origin));
  }
  db.entries_.reserve(list->size());
  for (std::size_t i = 0; i < list->size(); ++i) {
    Expected<CatalogueEntry> e = make_error("");
    try {
      e = parse_entry((*list)[i], i, origin);
    } catch (const Json::exception&) {
      // Every access above is type-checked; this is a last line of defence.
      e = make_error(fmt::format("{}: model {} is malformed", origin, i + 1));
    }
    if (!e) {
      return e.error();
    }
    for (const auto& prior : db.entries_) {
      if (prior.model.id == e->model.id) {
        return make_error(
            fmt::format("{}: model {}: id '{}' appears twice", origin, i + 1, e->model.id));
      }
    }
    db.entries_.push_back(std::move(*e));
  }
  db.reindex();
  return db;
}

void ModelDb::merge(ModelDb other) {
  for (auto& e : other.entries_) {
    auto same = std::find_if(entries_.begin(), entries_.end(),
                             [&](const CatalogueEntry& x) { return x.model.id == e.model.id; });
    if (same != entries_.end()) {
      *same = std::move(e);
    } else {
      entries_.push_back(std::move(e));
    }
  }
  reindex();
}

void ModelDb::reindex() {
  exact_.clear();
  loose_.clear();
  // What suggest() compares with: ids, and aliases that are not Hugging Face ids.
  std::vector<std::string> names;
  for (const auto& e : entries_) {
    names.push_back(e.model.id);
    for (const auto& alias : e.aliases) {
      if (alias.find('/') == std::string::npos) {
        names.push_back(alias);
      }
    }
  }
  suggestion_names_ = Candidates(std::move(names));
  // Later entries (user files) win a shared name.
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const auto& e = entries_[i];
    auto add = [&](const std::string& name) {
      exact_[to_lower(name)] = i;
      const std::string key = model_name_key(name);
      if (!key.empty()) {
        loose_[key] = i;
      }
    };
    add(e.model.id);
    add(e.model.name);
    for (const auto& alias : e.aliases) {
      if (to_lower(alias).ends_with(":latest")) {
        exact_[to_lower(alias)] = i;
        continue;
      }
      add(alias);
    }
  }
  // The tags `ollama_tags` lists are the entry's names too: its pattern
  // without the quantisation ("llama3.1:8b-instruct", "phi3:3.8b-mini-4k-
  // instruct"), which find() reaches once it has cut the type off the tag.
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const std::string& pattern = entries_[i].model.ollama_tag_pattern;
    if (pattern.size() > 4 && pattern.ends_with("-{q}")) {
      exact_.try_emplace(to_lower(pattern.substr(0, pattern.size() - 4)), i);
    }
  }
  // NAME:latest's loose key ("latest" dropped) is the family's name, which
  // may be another entry's own (deepseek-r1:latest, the 8B, beside the id
  // deepseek-r1, the 671B): it only fills a key no name holds.
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    for (const auto& alias : entries_[i].aliases) {
      if (const std::string key = model_name_key(alias);
          !key.empty() && to_lower(alias).ends_with(":latest")) {
        loose_.try_emplace(key, i);
      }
    }
  }
}

Expected<CatalogueMatch> ModelDb::find(std::string_view name) const {
  const std::string lower = to_lower(trim(name));
  // An Ollama tag is "name:tag" with no organisation ("llama3.1:8b",
  // "qwen2.5:7b-instruct-q4_K_M"); a Hugging Face id has a '/'.
  const bool ollama = lower.find(':') != std::string::npos && lower.find('/') == std::string::npos;
  // A tag names a package of Ollama's library, so it does not loosely match
  // an entry whose aliases name none (hub ids, no ':' among them): Ollama's
  // qwen:7b is Qwen1.5, not the Qwen-1 checkpoint whose hub id qwen/qwen-7b
  // spells the same once normalised. An entry without aliases (a user's)
  // is taken at its word.
  const auto in_ollama = [](const CatalogueEntry& e) {
    return e.aliases.empty() ||
           std::any_of(e.aliases.begin(), e.aliases.end(),
                       [](const std::string& a) { return a.find(':') != std::string::npos; });
  };
  auto lookup = [&](const std::string& text) -> const CatalogueEntry* {
    if (const auto it = exact_.find(text); it != exact_.end()) {
      return &entries_[it->second];
    }
    if (const auto it = loose_.find(model_name_key(text));
        it != loose_.end() && (!ollama || in_ollama(entries_[it->second]))) {
      return &entries_[it->second];
    }
    return nullptr;
  };
  // A bare name Ollama's library knows ("llama3.1", "nomic-embed-text") is
  // what `ollama pull` reads it as: name:latest, the family's default size.
  if (lower.find(':') == std::string::npos && lower.find('/') == std::string::npos) {
    if (const auto it = exact_.find(lower + ":latest"); it != exact_.end()) {
      return CatalogueMatch{&entries_[it->second], "", true};
    }
  }
  // NAME:latest is whichever size Ollama's library makes NAME's default: an
  // entry that records the tag answers, and no other, since the loose key
  // drops "latest" (deepseek-r1:latest is not the catalogue's deepseek-r1,
  // the 671B model). The registry answers the rest (resolve_model.cpp).
  const bool latest = ollama && lower.size() > 7 && lower.ends_with(":latest");
  const auto split = split_precision_suffix(lower);
  if (latest) {
    if (const auto it = exact_.find(lower); it != exact_.end()) {
      return CatalogueMatch{&entries_[it->second], "", true};
    }
  } else {
    if (const auto* e = lookup(lower)) {
      return CatalogueMatch{e, "", ollama};
    }
    if (!split.precision.empty()) {
      if (const auto* e = lookup(split.name)) {
        return CatalogueMatch{e, split.precision, ollama};
      }
    }
  }
  // Suggestions by the model's own name: an organisation prefix
  // ("meta-llama/") is not part of any catalogue id.
  std::string_view own = split.name;
  if (const auto slash = own.rfind('/'); slash != std::string_view::npos) {
    own.remove_prefix(slash + 1);
  }
  const std::string hint = did_you_mean(suggest(own));
  // A repository id ("org/name") not in the catalogue is named as the
  // Hugging Face address it would be read from.
  const std::string repo = trim(name);
  const std::string remote = repo.find('/') != std::string::npos && repo.rfind("hf.co/", 0) != 0
                                 ? fmt::format("hf.co/{}", repo)
                                 : std::string("hf.co/ORG/REPO");
  return make_error(fmt::format(
      "unknown model '{}'{}{} (list them with 'willfit models', or give a size like '8b', a "
      "model file or a Hugging Face repository as {})",
      repo, hint.empty() ? "" : ": ", hint, remote));
}

std::vector<std::string> ModelDb::suggest(std::string_view name, std::size_t limit) const {
  return closest(to_lower(trim(name)), suggestion_names_, limit);
}

namespace {
// The tag of one of the library's types for the model: its pattern with the
// type as the tags page spells it ("llama3.1:8b-instruct-{q}", "q3_K_M").
std::string ollama_tag_of_type(const Model& m, const std::string& type) {
  std::string tag = m.ollama_tag_pattern;
  if (const auto q = tag.find("{q}"); q != std::string::npos) {
    tag.replace(q, 3, type);
  }
  return tag;
}
}  // namespace

std::optional<std::string> ollama_tag_for(const Model& m, std::string_view precision_id) {
  for (const std::string& type : m.ollama_tag_types) {
    if (const auto p = parse_precision(type); p && p->id == precision_id) {
      return ollama_tag_of_type(m, type);
    }
  }
  return std::nullopt;
}

std::string ollama_unpublished_note(const Model& m, std::string_view precision_id,
                                    std::string_view precision_name) {
  if (m.ollama_tag_types.empty() || ollama_tag_for(m, precision_id)) {
    return {};
  }
  std::string tags;
  for (const std::string& type : m.ollama_tag_types) {
    tags += (tags.empty() ? "" : ", ") + ollama_tag_of_type(m, type);
  }
  return fmt::format(
      "Ollama's library publishes no {} tag of this model, so 'ollama pull' will not find "
      "it (answered as a model you quantised yourself, e.g. 'ollama create --quantize'); its "
      "tags: {}",
      precision_name, tags);
}

Model model_from_match(const CatalogueMatch& match) {
  Model m = match.entry->model;
  m.ollama_tag = match.ollama_tag;
  if (match.ollama_tag) {
    m.quantizer = GgufQuantizer::Ollama;  // the library's package, quantised by Ollama
  }
  const std::string& published = match.entry->published_precision;
  if (!match.precision_hint.empty()) {
    m.precision_hint = match.precision_hint;
    m.precision_hint_why = "from the model name's tag (give --precision to change it)";
    // A tag of a type the library's tags page does not list for the model
    // (qwen3:8b-q3_K_M: qwen3's page has q4_K_M, q8_0 and fp16) is no
    // package `ollama pull` fetches; it may be one the user made (`ollama
    // create --quantize`), so it is answered, and the answer says so.
    if (const auto p = parse_precision(match.precision_hint); match.ollama_tag && p) {
      if (std::string note = ollama_unpublished_note(m, p->id, p->name); !note.empty()) {
        m.notes.push_back(std::move(note));
      }
    }
    return m;
  }
  if (match.ollama_tag && !match.entry->ollama_precision.empty()) {
    // A package the library publishes at another quantisation (the size's
    // default tag is its q8_0 tag: qwen3.5:0.8b, qwen3.5:2b).
    m.precision_hint = match.entry->ollama_precision;
    const auto p = parse_precision(m.precision_hint);
    m.precision_hint_why = fmt::format(
        "what 'ollama pull' fetches for this tag: the library's package is {} (its tags page); "
        "give --precision to change it",
        p ? p->name : m.precision_hint);
    return m;
  }
  if (match.ollama_tag) {
    // `ollama pull` fetches the library's default tag: Q4_K_M for the
    // models of its library unless the tag names a quantisation (each
    // model's tags list at ollama.com/library, e.g. llama3.1:8b =
    // 8b-instruct-q4_K_M); gpt-oss's tags are its published MXFP4.
    const auto p = parse_precision(published);
    const bool gguf_published = p && p->gguf;
    m.precision_hint = gguf_published ? published : "q4_k_m";
    m.precision_hint_why =
        gguf_published
            ? fmt::format("what 'ollama pull' fetches for an Ollama tag: the published {} ({})",
                          p->name, match.entry->published_precision_source)
            : "what 'ollama pull' fetches for an Ollama tag without a quantisation (Q4_K_M); "
              "give --precision to change it";
    return m;
  }
  if (!published.empty()) {
    m.precision_hint = published;
    m.precision_hint_why =
        fmt::format("how the model is published: {}; give --precision to change it",
                    match.entry->published_precision_source);
  }
  return m;
}

std::vector<const CatalogueEntry*> ModelDb::search(std::string_view query) const {
  std::vector<const CatalogueEntry*> out;
  const std::string needle = model_name_key(query);
  for (const auto& e : entries_) {
    bool hit = needle.empty();
    auto check = [&](const std::string& s) {
      hit = hit || key_contains(model_name_key(s), needle);
    };
    check(e.model.id);
    check(e.model.name);
    check(e.model.family);
    for (const auto& alias : e.aliases) {
      check(alias);
    }
    if (hit) {
      out.push_back(&e);
    }
  }
  return out;
}

}  // namespace willfit
