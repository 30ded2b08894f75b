// Fuzz target: size strings. parse_model_size, looks_like_size and
// parse_capacity on arbitrary bytes, and for every accepted model size the
// inferred architecture and one estimate: whatever parses must be in range,
// re-parse to itself and give finite, non-negative memory figures.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/model.hpp"
#include "willfit/models/model_size.hpp"
#include "willfit/core/units.hpp"

using willfit::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)willfit::looks_like_size(text);

  if (const auto spec = willfit::parse_model_size(text)) {
    check(spec->params >= 1e6, "accepted size below 1m parameters", text);
    const double total = spec->experts > 0 ? spec->params * spec->experts : spec->params;
    check(total <= willfit::kMaxParams, "accepted size above the maximum", text);
    check(willfit::looks_like_size(spec->text), "normalised size does not look like a size", text);
    const auto again = willfit::parse_model_size(spec->text);
    check(again.ok() && again->text == spec->text, "normalised size does not re-parse", text);

    const auto model = willfit::model_from_size(*spec);
    check(model.ok(), "an accepted size has no architecture", text);
    const auto& a = model->arch;
    check(a.layers >= 1 && a.heads >= 1 && a.kv_heads >= 1 && a.head_dim >= 1 &&
              a.hidden_size >= 1 && a.intermediate_size >= 1 && a.vocab_size >= 1,
          "inferred architecture has an empty dimension", text);
    check(model->params > 0 && model->active_params > 0 && model->active_params <= model->params,
          "inferred parameter counts out of order", text);

    willfit::InferenceQuery q;
    q.model = *model;
    q.precision = *willfit::parse_precision("fp32");
    q.context = 100'000'000;  // the largest --context accepted
    q.batch = 4096;           // the largest --batch accepted
    q.kv_type = *willfit::parse_kv_type("f32");
    const willfit::Estimate e = willfit::estimate_inference(q);
    const auto& m = e.memory;
    check(m.weights > 0 && m.kv_cache > 0 && m.compute > 0 && m.overhead > 0 && m.margin > 0,
          "a memory term is not positive", text);
    check(e.required == m.total() && e.required >= m.weights, "total is not the sum", text);
  }

  if (const auto bytes = willfit::parse_capacity(text)) {
    check(*bytes >= 1 && *bytes <= 1024 * willfit::kTiB, "accepted capacity out of range", text);
    (void)willfit::format_iec(*bytes);
    (void)willfit::format_si(*bytes);
  }
  return 0;
}
