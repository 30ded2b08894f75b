#include "willfit/planner/planner.hpp"

#include "willfit/core/quality.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "willfit/core/bisect.hpp"
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
    q.runtime = default_runtime(q.precision);
  }
  return q;
}

}  // namespace

std::int64_t max_params(const InferenceQuery& query) {
  if (query.devices.devices.empty()) {
    return 0;
  }
  InferenceQuery q = search_query(query);
  constexpr std::int64_t kStep = 10'000'000;  // 10 M parameters
  const auto fits = [&](std::int64_t steps) {
    auto size = parse_model_size(fmt::format("{}m", steps * (kStep / 1'000'000)));
    if (!size) {
      return false;
    }
    auto model = model_from_size(*size);
    if (!model) {
      return false;
    }
    q.model = std::move(*model);
    return estimate_inference(q).fits();
  };
  constexpr std::int64_t kLo = 10;  // 100 M
  const auto kHi = static_cast<std::int64_t>(kMaxParams) / kStep;
  if (!fits(kLo)) {
    return 0;
  }
  return largest_fitting(kLo, kHi, fits) * kStep;
}

int max_batch(const InferenceQuery& query) {
  if (query.devices.devices.empty()) {
    return 0;
  }
  InferenceQuery q = search_query(query);
  const auto fits = [&](std::int64_t batch) {
    q.batch = static_cast<int>(batch);
    return estimate_inference(q).fits();
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
    if (p.gguf == gguf || p.id == "fp16" || p.id == "bf16") {
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

std::optional<Precision> best_precision(const InferenceQuery& query,
                                        const std::vector<Precision>& candidates) {
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
    q.precision = p;
    if (estimate_inference(q).fits()) {
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
    a.precision = best_precision(q, precision_candidates(question.query.runtime));
    if (a.precision) {
      q.precision = *a.precision;
    }
  }
  a.runtime = *q.runtime;
  a.used = q.precision;
  if (!question.model_given) {
    a.params = max_params(q);
    return a;
  }
  const bool none = question.best_precision && !a.precision;
  a.context_tokens = none ? 0 : max_context(q);
  a.batch = none ? 0 : max_batch(q);
  return a;
}

}  // namespace willfit
