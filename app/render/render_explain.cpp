#include "render/render_explain.hpp"

#include <fmt/format.h>

#include "render/render_runtime.hpp"

namespace willfit::app {
namespace {

// The words a term's key stands for.
std::string term_label(std::string_view key) {
  if (key == "weights")
    return "weights";
  if (key == "kv_cache")
    return "KV cache";
  if (key == "compute")
    return "compute buffers";
  if (key == "overhead")
    return "runtime overhead";
  if (key == "margin")
    return "safety margin";
  if (key == "token_embeddings")
    return "token embeddings (RAM)";
  if (key == "compute_host")
    return "host compute (RAM)";
  if (key == "output_buffer")
    return "output buffer (RAM)";
  return std::string(key);
}

}  // namespace

std::string render_fit_explain(const FitReport& report) {
  const Estimate& e = report.estimate;
  const InferenceQuery& q = report.query;
  std::string s = "\nHow it adds up:\n";
  // The course's rule of thumb first: parameters x bytes per weight. The
  // weights term below is what the runtime really loads (embeddings split
  // off, tensor-wise types); this line is the first-order estimate.
  const double billions = static_cast<double>(q.model.params) / 1e9;
  const double bytes_per_weight = q.precision.bits_per_weight / 8.0;
  s += fmt::format(
      "  rule of thumb: {:.3g} B parameters x {:.3g} bytes ({}-bit {}) = {}\n", billions,
      bytes_per_weight, bits_per_weight_text(q.precision), q.precision.name,
      format_size(round_bytes(static_cast<double>(q.model.params) * bytes_per_weight), q.units));
  for (const auto& t : e.terms) {
    s += fmt::format(
        "  {}: {}\n",
        t.key == "projector" ? projector_label(q.model.arch, e.runtime) : term_label(t.key),
        t.formula);
    if (!t.source.empty()) {
      s += fmt::format("      source: {}\n", t.source);
    }
  }
  const Bytes device_total = e.memory.total();
  s += fmt::format(
      "  total on the device: weights + KV cache + compute + overhead + margin = {} + {} + {} + "
      "{} + {}{} = {}\n",
      format_memory(e.memory.weights, q.units), format_memory(e.memory.kv_cache, q.units),
      format_memory(e.memory.compute, q.units), format_memory(e.memory.overhead, q.units),
      format_memory(e.memory.margin, q.units),
      e.memory.projector > 0
          ? fmt::format(" + {} (projector)", format_memory(e.memory.projector, q.units))
          : "",
      format_memory(device_total, q.units));
  if (!e.device_known) {
    s += "  usable: no --device given, nothing to compare with\n";
    return s;
  }
  s += fmt::format("  usable: {} of {} installed\n", format_memory(e.usable, q.units),
                   format_memory(e.capacity, q.units));
  for (const auto& reason : e.usable_reasons) {
    s += fmt::format("      rule: {}\n", reason);
  }
  s += fmt::format("  headroom: usable - total = {} - {} = {}\n", format_memory(e.usable, q.units),
                   format_memory(e.required, q.units), format_memory_signed(e.headroom, q.units));
  if (!report.speed.prefill_link_arithmetic.empty()) {
    s += fmt::format("  {}\n", report.speed.prefill_link_arithmetic);
  }
  s += fmt::format("  {}\n", units_legend(q.units));
  return s;
}

}  // namespace willfit::app
