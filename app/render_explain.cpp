#include "render_explain.hpp"

#include <fmt/format.h>

namespace willfit::app {
namespace {

// The words a term's key stands for.
std::string term_label(const std::string& key) {
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
  return key;
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
      "  rule of thumb: {:.3g} B parameters x {:.3g} bytes ({:.3g}-bit {}) = {:.3g} GB\n", billions,
      bytes_per_weight, q.precision.bits_per_weight, q.precision.name, billions * bytes_per_weight);
  for (const auto& t : e.terms) {
    s += fmt::format("  {}: {}\n", term_label(t.key), t.formula);
    if (!t.source.empty()) {
      s += fmt::format("      source: {}\n", t.source);
    }
  }
  const Bytes device_total = e.memory.total();
  s += fmt::format(
      "  total on the device: weights + KV cache + compute + overhead + margin = {} + {} + {} + "
      "{} + {} = {}\n",
      format_iec(e.memory.weights), format_iec(e.memory.kv_cache), format_iec(e.memory.compute),
      format_iec(e.memory.overhead), format_iec(e.memory.margin), format_iec(device_total));
  if (!e.device_known) {
    s += "  usable: no --device given, nothing to compare with\n";
    return s;
  }
  s += fmt::format("  usable: {} of {} installed\n", format_iec(e.usable), format_iec(e.capacity));
  for (const auto& reason : e.usable_reasons) {
    s += fmt::format("      rule: {}\n", reason);
  }
  s += fmt::format("  headroom: usable - total = {} - {} = {}\n", format_iec(e.usable),
                   format_iec(e.required), format_iec_signed(e.headroom));
  s += "  Units: GiB = 2^30 bytes (device memory), GB = 10^9 bytes (file sizes).\n";
  return s;
}

}  // namespace willfit::app
