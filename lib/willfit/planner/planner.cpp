#include "willfit/planner/planner.hpp"

#include "willfit/core/quality.hpp"
#include "willfit/core/text.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "willfit/core/bisect.hpp"
#include "willfit/models/model_db.hpp"
#include "willfit/models/model_size.hpp"

namespace willfit {
namespace {

// The query as a search sees it: the user's offload controls dropped (the
// question is what fits whole) and the runtime fixed, so a change of size or
// precision does not switch runtimes mid-search.
InferenceQuery search_query(const InferenceQuery& query) {
  InferenceQuery q = query;
  q.gpu_layers.reset();
  q.n_cpu_moe.reset();
  if (!q.runtime) {
    q.runtime = default_runtime(q.model, q.precision, q.devices);
  }
  return q;
}

// The bare model of `params` parameters (a multiple of 1 M), the inferred
// architecture max_params searches over.
std::optional<Model> sized_model(std::int64_t params) {
  auto size = parse_model_size(fmt::format("{}m", params / 1'000'000));
  if (!size) {
    return std::nullopt;
  }
  auto model = model_from_size(*size);
  if (!model) {
    return std::nullopt;
  }
  return std::move(*model);
}

}  // namespace

std::int64_t max_params(const InferenceQuery& query, Margin margin) {
  if (query.devices.devices.empty()) {
    return 0;
  }
  InferenceQuery q = search_query(query);
  constexpr std::int64_t kStep = 10'000'000;  // 10 M parameters
  const auto fits = [&](std::int64_t steps) {
    auto model = sized_model(steps * kStep);
    if (!model) {
      return false;
    }
    q.model = std::move(*model);
    return meets(estimate_inference(q), margin);
  };
  constexpr std::int64_t kLo = 10;  // 100 M
  const auto kHi = static_cast<std::int64_t>(kMaxParams) / kStep;
  if (!fits(kLo)) {
    return 0;
  }
  return largest_fitting(kLo, kHi, fits) * kStep;
}

int max_batch(const InferenceQuery& query, Margin margin) {
  if (query.devices.devices.empty()) {
    return 0;
  }
  InferenceQuery q = search_query(query);
  // vLLM fits any --max-num-seqs once one sequence fits and queues the
  // rest (runtime.cpp vllm): the largest batch is the most that run at once.
  const auto fits = [&](std::int64_t batch) {
    q.batch = static_cast<int>(batch);
    const Estimate e = estimate_inference(q);
    return meets(e, margin) && (!e.vllm || e.vllm->sequences_at_once >= q.batch);
  };
  if (!fits(1)) {
    return 0;
  }
  return static_cast<int>(largest_fitting(std::int64_t{1}, std::int64_t{4096}, fits));
}

std::vector<Precision> precision_candidates(std::optional<Runtime> runtime) {
  const bool gguf = !runtime || *runtime == Runtime::LlamaCpp || *runtime == Runtime::Ollama ||
                    *runtime == Runtime::Generic;
  std::vector<Precision> out;
  for (const auto& p : all_precisions()) {
    if (p.bits_per_weight > 16 || p.kind == PrecisionKind::Integer) {
      continue;  // FP32: no gain; INT8/INT4: the course's idealised widths, not a file format
    }
    // Never a precision the runtime does not load (runtime_loads).
    if ((p.gguf == gguf || p.id == "fp16" || p.id == "bf16") &&
        (!runtime || runtime_loads(*runtime, p))) {
      out.push_back(p);
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Precision& a, const Precision& b) {
    return a.bits_per_weight > b.bits_per_weight;
  });
  if (gguf) {
    // GGUF types by published quality (mean KL divergence from FP16,
    // quality.cpp), not by bits: Q4_K_S (0.043) before legacy Q4_1 (0.072)
    // though Q4_1 is larger. Types without a published figure (MXFP4, the
    // ternary TQ types) are formats models are trained or shipped in, not
    // ones to convert to, so "best" does not offer them.
    std::erase_if(out, [](const Precision& p) { return !quant_kld(p.id); });
    std::stable_sort(out.begin(), out.end(), [](const Precision& a, const Precision& b) {
      return *quant_kld(a.id) < *quant_kld(b.id);
    });
  }
  return out;
}

bool outside_ollama_library(const InferenceQuery& q, Runtime runtime, const Precision& p) {
  if (runtime != Runtime::Ollama || !q.model.ollama_tag || q.model.file_weight_bytes) {
    return false;
  }
  if (!q.model.ollama_tag_types.empty()) {
    return !ollama_tag_for(q.model, p.id);
  }
  for (const char* id : {"q4_k_m", "q8_0", "fp16"}) {
    if (p.id == id) {
      return false;
    }
  }
  return p.id != to_lower(q.model.precision_hint);
}

std::optional<Precision> best_precision(const InferenceQuery& query,
                                        const std::vector<Precision>& candidates, Margin margin) {
  if (query.devices.devices.empty()) {
    return std::nullopt;
  }
  InferenceQuery q = query;
  q.gpu_layers.reset();
  q.n_cpu_moe.reset();
  if (!q.runtime) {
    q.runtime = Runtime::LlamaCpp;  // what precision_candidates(nullopt) lists for
  }
  for (const auto& p : candidates) {
    // Nor one the runtime has no kernel for on these devices (NF4 and AWQ
    // under transformers on a Mac: runtime_device_conflict).
    if (!runtime_devices_conflict(*q.runtime, p, q.devices).empty()) {
      continue;
    }
    q.precision = p;
    if (meets(estimate_inference(q), margin)) {
      return p;
    }
  }
  return std::nullopt;
}

bool MaxAnswer::found() const {
  if (precision_asked && !precision) {
    return false;
  }
  if (params) {
    return *params > 0;
  }
  return context_tokens.value_or(0) > 0 && batch.value_or(0) > 0;
}

MaxAnswer plan_max(const MaxQuestion& question) {
  MaxAnswer a;
  InferenceQuery q = search_query(question.query);
  a.precision_asked = question.best_precision;
  if (question.best_precision) {
    q.runtime = question.query.runtime.value_or(Runtime::LlamaCpp);
    // Under Ollama a tag's model is pulled at the precisions its library
    // publishes, so "best" ranks only those (the suggestions' rule).
    auto candidates = precision_candidates(question.query.runtime);
    std::erase_if(candidates,
                  [&](const Precision& p) { return outside_ollama_library(q, *q.runtime, p); });
    // The rule of "the longest context that fits" (longest_fitting_context):
    // the best precision that fits clear of the error band; only when none
    // does, the best that fits at all, tight (precision_clear then stays
    // null: none clears).
    a.precision = best_precision(q, candidates, Margin::Clear);
    if (!a.precision) {
      a.precision = best_precision(q, candidates);
    }
    if (a.precision) {
      q.precision = *a.precision;
      const Estimate at_query = estimate_inference(q);
      a.precision_tight = at_query.tight;
      a.error_band_pct = at_query.error_band_pct;
    }
  }
  a.runtime = *q.runtime;
  a.used = q.precision;
  if (!question.model_given) {
    a.params = max_params(q);
    a.params_clear = max_params(q, Margin::Clear);
    if (auto model = *a.params > 0 ? sized_model(*a.params) : std::nullopt) {
      InferenceQuery at = q;
      at.model = std::move(*model);
      a.error_band_pct = estimate_inference(at).error_band_pct;
    }
    return a;
  }
  const bool none = question.best_precision && !a.precision;
  a.context_tokens = none ? 0 : max_context(q);
  a.context_at_trained_length =
      q.model.arch.max_context > 0 && *a.context_tokens >= q.model.arch.max_context;
  a.batch = none ? 0 : max_batch(q);
  a.context_tokens_clear = none ? 0 : max_context(q, Margin::Clear);
  a.batch_clear = none ? 0 : max_batch(q, Margin::Clear);
  if (a.context_tokens.value_or(0) > 0) {
    InferenceQuery at = q;
    at.context = *a.context_tokens;
    at.context_is_default = false;
    a.error_band_pct = estimate_inference(at).error_band_pct;
  }
  if (a.batch.value_or(0) > 0) {
    InferenceQuery at = q;
    at.batch = *a.batch;
    a.batch_error_band_pct = estimate_inference(at).error_band_pct;
  }
  return a;
}

namespace {

// The 4-bit precision a runtime is mostly run at: a GGUF Q4_K_M for the
// llama.cpp family (and with no runtime named, as the plain verdict
// suggests it), MLX's own 4-bit (mlx_lm.convert -q), NF4 (bitsandbytes,
// quantised on load from any checkpoint) else GPTQ for transformers, AWQ
// else GPTQ for vLLM: the first the runtime loads and runs on the devices.
std::optional<Precision> four_bit_for(const InferenceQuery& q) {
  std::vector<const char*> ids{"q4_k_m"};
  if (q.runtime == Runtime::Mlx) {
    ids = {"int4"};
  } else if (q.runtime == Runtime::Transformers) {
    ids = {"nf4", "gptq"};
  } else if (q.runtime == Runtime::Vllm) {
    ids = {"awq", "gptq"};
  }
  for (const char* id : ids) {
    auto p = parse_precision(id);
    if (p && (!q.runtime || (runtime_loads(*q.runtime, *p) &&
                             runtime_devices_conflict(*q.runtime, *p, q.devices).empty()))) {
      return *p;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<MaxHint> max_hint(const MaxQuestion& question, const MaxAnswer& answer) {
  const InferenceQuery& q = question.query;
  if (question.best_precision || q.precision.bits_per_weight < 16 || q.model.file_weight_bytes) {
    return std::nullopt;
  }
  const std::optional<Precision> four = four_bit_for(q);
  if (!four) {
    return std::nullopt;
  }
  MaxHint hint;
  hint.other_runtime = !q.runtime;
  hint.try_precision = *four;
  MaxQuestion alt = question;
  if (!question.model_given) {
    alt.query.precision = *four;
    const MaxAnswer at_four = plan_max(alt);
    if (at_four.params.value_or(0) <= answer.params.value_or(0)) {
      return std::nullopt;
    }
    hint.precision = *four;
    hint.runtime = at_four.runtime;
    hint.params = at_four.params;
    return hint;
  }
  if (answer.context_tokens.value_or(0) > 0) {
    return std::nullopt;
  }
  alt.best_precision = true;
  const MaxAnswer best = plan_max(alt);
  if (!best.precision || best.context_tokens.value_or(0) <= 0) {
    return std::nullopt;
  }
  hint.precision = *best.precision;
  hint.runtime = best.runtime;
  hint.best = true;
  hint.context_tokens = best.context_tokens;
  return hint;
}

}  // namespace willfit
