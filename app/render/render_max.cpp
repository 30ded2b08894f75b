#include "render/render_max.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "render/render_runtime.hpp"
#include "willfit/core/quality.hpp"

namespace willfit::app {
namespace {

// "36.41 B" (parameters), from a multiple of 10 M.
std::string params_text(std::int64_t params) {
  return fmt::format("{:.2f} B", static_cast<double>(params) / 1e9);
}

// Issue 16, a verdict that knows its error: the largest that fits is by
// construction close to the edge; when it fits only within the estimate's
// error band, say so and give the largest that clears the band (`text` names
// an amount: "12288 tokens"). "" when the answer already clears it.
template <typename Text>
std::string clear_note(std::int64_t found, std::optional<std::int64_t> clear, double band_pct,
                       const Text& text) {
  if (found <= 0 || !clear || *clear >= found) {
    return "";
  }
  return fmt::format("    tight: within the +/-{:g}% error of this estimate; {}\n", band_pct,
                     *clear > 0 ? "the largest that clears it: " + text(*clear)
                                : std::string("none clears it: it may not load"));
}

}  // namespace

std::string render_max_text(const MaxQuestion& question, const MaxAnswer& a) {
  const InferenceQuery& q = question.query;
  const std::string where =
      fmt::format("{} ({} in all) with {}", q.devices.display_name(),
                  format_memory(q.devices.capacity(), q.units), runtime_label(a.runtime));
  std::string s;
  if (a.params) {
    s += fmt::format("Largest model that fits on {}, at {}, context {}, batch {}:\n", where,
                     a.used.name, q.context, q.batch);
    s += *a.params > 0 ? fmt::format("  {} parameters (a dense model of inferred shape)\n",
                                     params_text(*a.params))
                       : "  none: not even a 100 M model fits\n";
    s += clear_note(*a.params, a.params_clear, a.error_band_pct, params_text);
    return s;
  }
  s += fmt::format("{} on {}:\n", q.model.name, where);
  if (a.precision_asked) {
    const std::optional<double> kld = a.precision ? quant_kld(a.precision->id) : std::nullopt;
    s += a.precision
             ? fmt::format(
                   "  best precision: {} ({} bits per weight{}), the "
                   "highest-quality that fits{} at context {}, batch {}\n",
                   a.precision->name, bits_per_weight_text(*a.precision),
                   kld ? fmt::format("; KL divergence {:.3f} from FP16", *kld) : "",
                   a.precision_tight ? "" : " clear of the estimate's error", q.context, q.batch)
             : fmt::format(
                   "  best precision: none fits at context {}, batch {}, not even the "
                   "smallest\n",
                   q.context, q.batch);
    if (!a.precision) {
      return s;
    }
    if (a.precision_tight) {
      s += fmt::format(
          "    tight: it fits at context {}, batch {} only within the +/-{:g}% error "
          "of this estimate; {}\n",
          q.context, q.batch, a.error_band_pct,
          a.precision_clear ? "the best that clears it: " + a.precision_clear->name
                            : std::string("none clears it: it may not load"));
    }
  }
  s += a.context_tokens.value_or(0) > 0
           ? fmt::format("  longest context: {} tokens at {}, batch {}{}\n", *a.context_tokens,
                         a.used.name, q.batch,
                         a.context_at_trained_length
                             ? " (the model's trained length: it caps the context, not memory)"
                             : "")
           : fmt::format("  longest context: none (not even 256 tokens) at {}, batch {}\n",
                         a.used.name, q.batch);
  s += clear_note(a.context_tokens.value_or(0), a.context_tokens_clear, a.error_band_pct,
                  [](std::int64_t n) { return fmt::format("{} tokens", n); });
  s += a.batch.value_or(0) > 0
           ? fmt::format("  largest batch: {} sequence{} at {}, context {}\n", *a.batch,
                         *a.batch == 1 ? "" : "s", a.used.name, q.context)
           : fmt::format("  largest batch: none (not even one sequence) at {}, context {}\n",
                         a.used.name, q.context);
  s += clear_note(a.batch.value_or(0), a.batch_clear, a.batch_error_band_pct, [](std::int64_t n) {
    return fmt::format("{} sequence{}", n, n == 1 ? "" : "s");
  });
  return s;
}

std::string render_max_json(const MaxQuestion& question, const MaxAnswer& a,
                            const std::optional<MaxHint>& hint) {
  using Json = nlohmann::ordered_json;
  const InferenceQuery& q = question.query;
  Json j;
  j["schema_version"] = 1;
  j["willfit_version"] = WILLFIT_VERSION;
  Json query;
  query["model"] = question.model_given ? Json(q.model.id) : Json(nullptr);
  query["precision"] = a.used.id;
  query["device"] = q.devices.text;
  query["capacity_bytes"] = q.devices.capacity();
  query["runtime"] = std::string(to_string(a.runtime));
  query["context_tokens"] = q.context;
  query["batch"] = q.batch;
  query["kv_type"] = q.kv_type.id;
  j["query"] = query;
  Json m;
  m["params"] = a.params ? Json(*a.params) : Json(nullptr);
  m["context_tokens"] = a.context_tokens ? Json(*a.context_tokens) : Json(nullptr);
  m["batch"] = a.batch ? Json(*a.batch) : Json(nullptr);
  m["precision"] = a.precision ? Json(a.precision->id) : Json(nullptr);
  const std::optional<double> kld = a.precision ? quant_kld(a.precision->id) : std::nullopt;
  m["precision_kl_divergence"] = kld ? Json(*kld) : Json(nullptr);
  const auto opt = [](const auto& v) { return v ? Json(*v) : Json(nullptr); };
  m["params_clear"] = opt(a.params_clear);
  m["context_tokens_clear"] = opt(a.context_tokens_clear);
  m["batch_clear"] = opt(a.batch_clear);
  m["precision_tight"] = a.precision_asked ? Json(a.precision_tight) : Json(nullptr);
  m["precision_clear"] = a.precision_clear ? Json(a.precision_clear->id) : Json(nullptr);
  m["error_band_pct"] = a.error_band_pct;
  m["batch_error_band_pct"] = a.batch ? Json(a.batch_error_band_pct) : Json(nullptr);
  m["context_at_trained_length"] =
      a.context_tokens ? Json(a.context_at_trained_length) : Json(nullptr);
  j["max"] = m;
  j["fits"] = a.found();
  // Added after "fits": the keys before it keep their order.
  if (hint) {
    Json h;
    h["precision"] = hint->precision.id;
    h["runtime"] = std::string(to_string(hint->runtime));
    h["best"] = hint->best;
    h["params"] = opt(hint->params);
    h["context_tokens"] = opt(hint->context_tokens);
    j["quantised_hint"] = h;
  } else {
    j["quantised_hint"] = nullptr;
  }
  return j.dump(2) + "\n";
}

}  // namespace willfit::app
