#include "willfit/planner/suggest.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

namespace willfit {
namespace {

bool gguf_runtime(Runtime r) {
  return r == Runtime::LlamaCpp || r == Runtime::Ollama || r == Runtime::Generic;
}

// The query with the runtime pinned to the one the estimate resolved, so a
// changed precision does not switch runtimes under the user.
InferenceQuery pinned(const InferenceQuery& q, const Estimate& e) {
  InferenceQuery alt = q;
  alt.runtime = e.runtime;
  return alt;
}

Suggestion make(std::string change, std::string args, const Estimate& e) {
  Suggestion s;
  s.change = std::move(change);
  s.args = std::move(args);
  s.total_bytes = e.required;
  s.verdict = e.verdict;
  return s;
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
  return if_fits(alt, "flash attention on (smaller compute buffers)", "--flash-attn on");
}

// A quantised KV cache: q8_0 first (near lossless), then q4_0.
std::optional<Suggestion> kv_cache(const InferenceQuery& q, const Estimate& e) {
  if (!gguf_runtime(e.runtime) || e.memory.kv_cache == 0) {
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
      return s;
    }
  }
  return std::nullopt;
}

// The highest-quality lower precision that fits, among the formats the same
// runtime loads. Not for a model file: its bytes are what they are.
std::optional<Suggestion> precision(const InferenceQuery& q, const Estimate& e) {
  if (q.model.file_weight_bytes) {
    return std::nullopt;
  }
  static constexpr std::array<const char*, 6> kGguf{"q8_0",   "q6_k",   "q5_k_m",
                                                    "q4_k_m", "q3_k_m", "q2_k"};
  static constexpr std::array<const char*, 4> kOther{"fp8", "gptq-int8", "awq", "nf4"};
  const auto try_list = [&](const auto& ids) -> std::optional<Suggestion> {
    for (const char* id : ids) {
      auto p = parse_precision(id);
      if (!p || p->bits_per_weight >= q.precision.bits_per_weight) {
        continue;
      }
      InferenceQuery alt = pinned(q, e);
      alt.precision = *p;
      if (auto s = if_fits(alt,
                           fmt::format("lower precision {} ({} bits per weight)", p->name,
                                       bits_per_weight_text(*p)),
                           "--precision " + p->id)) {
        return s;
      }
    }
    return std::nullopt;
  };
  return gguf_runtime(e.runtime) ? try_list(kGguf) : try_list(kOther);
}

std::optional<Suggestion> context(const InferenceQuery& q, const Estimate& e) {
  InferenceQuery alt = pinned(q, e);
  const std::int64_t longest = max_context(alt);
  if (longest <= 0 || longest >= e.context) {
    return std::nullopt;
  }
  alt.context = longest;
  alt.context_is_default = false;
  alt.gpu_layers.reset();
  alt.n_cpu_moe.reset();
  return if_fits(alt, fmt::format("shorter context ({} tokens, the longest that fits)", longest),
                 fmt::format("--context {}", longest));
}

// One more of the same GPU, when the answer spans a single discrete GPU.
std::optional<Suggestion> second_gpu(const InferenceQuery& q, const Estimate& e) {
  if (q.devices.count() != 1) {
    return std::nullopt;
  }
  const Device& d = q.devices.devices.front();
  if (d.kind != DeviceKind::DiscreteGpu && d.kind != DeviceKind::Raw &&
      d.kind != DeviceKind::Accelerator) {
    return std::nullopt;
  }
  InferenceQuery alt = pinned(q, e);
  alt.devices.devices.push_back(d);
  alt.devices.text = "2x " + q.devices.text;
  alt.tensor_split.clear();
  alt.gpu_layers.reset();
  alt.n_cpu_moe.reset();
  return if_fits(alt, fmt::format("a second {}", d.kind == DeviceKind::Raw ? "device" : d.name),
                 fmt::format("--device \"2x {}\"", q.devices.text));
}

std::optional<Suggestion> smaller_model(const InferenceQuery& q, const Estimate& e,
                                        const SuggestInputs& in) {
  if (!in.smaller_models) {
    return std::nullopt;
  }
  for (const Model& m : in.smaller_models()) {
    if (m.params >= q.model.params) {
      continue;
    }
    InferenceQuery alt = pinned(q, e);
    alt.model = m;
    if (auto s = if_fits(
            alt, fmt::format("a smaller model of the {} family ({})", m.family, m.name), m.id)) {
      return s;
    }
  }
  return std::nullopt;
}

// The usual sizes system RAM comes in, GiB: a --ram to suggest.
Bytes ram_to_suggest(Bytes host) {
  static constexpr std::array<std::int64_t, 11> kSizesGiB{8,   16,  32,  48,  64, 96,
                                                          128, 192, 256, 384, 512};
  for (const std::int64_t g : kSizesGiB) {
    if (g * kGiB >= host) {
      return g * kGiB;
    }
  }
  return 0;
}

// Offloading layers to system RAM, with the speed it leaves. Only when the
// runtime plans an offload (llama.cpp, Ollama) and RAM is unknown or holds it.
std::optional<Suggestion> offload(const InferenceQuery& q, const Estimate& e,
                                  const SuggestInputs& in) {
  if (!e.offload || e.verdict == Verdict::Offload) {
    return std::nullopt;
  }
  const OffloadPlan& p = *e.offload;
  if (p.gpu_layers <= 0 || (p.ram_holds && !*p.ram_holds)) {
    return std::nullopt;
  }
  const Bytes ram = ram_to_suggest(p.host_bytes);
  if (ram == 0) {
    return std::nullopt;
  }
  InferenceQuery alt = pinned(q, e);
  alt.ram = ram;
  const Estimate after = estimate_inference(alt);
  if (after.verdict != Verdict::Offload || !after.offload) {
    return std::nullopt;
  }
  const OffloadPlan& a = *after.offload;
  std::string what;
  if (a.total_layers > a.gpu_layers) {
    what = fmt::format("{} of {} layers", a.total_layers - a.gpu_layers, a.total_layers);
  }
  if (a.cpu_moe_layers > 0) {
    what +=
        fmt::format("{}the experts of {} blocks", what.empty() ? "" : " and ", a.cpu_moe_layers);
  }
  Suggestion s = make(fmt::format("offload {} to system RAM ({}; needs {} of RAM)", what, a.flags,
                                  format_memory(a.host_bytes, q.units)),
                      fmt::format("--ram {}gb", ram / kGiB), after);
  const SpeedEstimate speed = estimate_speed(alt, after, in.speed);
  if (speed.estimable) {
    s.decode_tokens_per_s = speed.decode_tokens_per_s;
  }
  return s;
}

std::string line_of(const Suggestion& s, UnitSystem units) {
  std::string line =
      fmt::format("{}: {}: needs {}, {}", s.args, s.change, format_memory(s.total_bytes, units),
                  s.verdict == Verdict::Fits ? "fits" : "fits with offload");
  if (s.decode_tokens_per_s) {
    line += fmt::format(", about {:.1f} tokens/s decode", *s.decode_tokens_per_s);
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
    if (s) {
      s->line = line_of(*s, query.units);
      out.push_back(std::move(*s));
    }
  };
  add(flash_attention(query, estimate));
  add(kv_cache(query, estimate));
  add(precision(query, estimate));
  add(context(query, estimate));
  add(second_gpu(query, estimate));
  add(smaller_model(query, estimate, inputs));
  add(offload(query, estimate, inputs));
  return out;
}

}  // namespace willfit
