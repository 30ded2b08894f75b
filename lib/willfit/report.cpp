#include "willfit/report.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

namespace willfit {
namespace {

// The one-line hint when it does not fit: the first change, in order of
// least harm to quality, that makes the estimate fit. Every candidate is
// checked with the same estimator.
std::string make_hint(const InferenceQuery& q, const Estimate& e) {
  if (e.fits() || !e.device_known) {
    return "";
  }
  // A lower precision (only among those below the current width), among the
  // formats the same runtime loads.
  const bool gguf_runtime = e.runtime == Runtime::LlamaCpp || e.runtime == Runtime::Ollama ||
                            e.runtime == Runtime::Generic;
  const std::vector<const char*> candidates =
      gguf_runtime ? std::vector<const char*>{"q8_0", "q6_k", "q5_k_m", "q4_k_m", "q3_k_m", "q2_k"}
                   : std::vector<const char*>{"fp8", "gptq-int8", "awq", "nf4"};
  for (const char* id : candidates) {
    auto p = parse_precision(id);
    if (!p || p->bits_per_weight >= q.precision.bits_per_weight || q.model.file_weight_bytes) {
      continue;
    }
    InferenceQuery alt = q;
    alt.precision = *p;
    alt.runtime = e.runtime;
    if (estimate_inference(alt).fits()) {
      return fmt::format("hint: it fits at --precision {} ({:.2g} bits per weight)", p->id,
                         p->bits_per_weight);
    }
  }
  // A shorter context.
  if (q.context > 2048) {
    InferenceQuery alt = q;
    alt.runtime = e.runtime;
    alt.context = 2048;
    alt.context_is_default = false;
    if (estimate_inference(alt).fits()) {
      return "hint: it fits with a shorter context, e.g. --context 2048";
    }
  }
  const Bytes short_by = -e.headroom;
  if (short_by <= 0) {
    return "hint: there is room in total but not on every device as split: try --tensor-split "
           "in proportion to each device's free memory";
  }
  if (e.verdict == Verdict::Offload) {
    return fmt::format("hint: {} must live in system RAM; expect much slower generation",
                       format_iec(short_by));
  }
  return fmt::format(
      "hint: {} more memory is needed: a larger device, more devices, or offload to system RAM "
      "(--ram)",
      format_iec(short_by));
}

}  // namespace

FitReport make_fit_report(const InferenceQuery& query, const SpeedSettings& speed) {
  FitReport r;
  r.query = query;
  r.estimate = estimate_inference(query);
  // What the model's facts rest on: inferred (a size), or read from the
  // catalogue or a file.
  r.assumptions = query.model.notes;
  if (!query.precision.requested.empty()) {
    r.assumptions.push_back(fmt::format("'{}' read as {}, the common GGUF choice at that width",
                                        query.precision.requested, query.precision.name));
  }
  r.assumptions.push_back(query.precision.note);
  for (const auto& d : query.devices.devices) {
    if (d.kind == DeviceKind::Raw) {
      r.assumptions.push_back(
          fmt::format("'{}' read as {} ({} bytes): GPU memory sold as \"N GB\" is N GiB",
                      d.memory_marketed, format_iec(d.memory_bytes), d.memory_bytes));
      break;
    }
  }
  r.assumptions.insert(r.assumptions.end(), query.devices.notes.begin(), query.devices.notes.end());
  const bool on_cpu = !query.devices.devices.empty() &&
                      std::all_of(query.devices.devices.begin(), query.devices.devices.end(),
                                  [](const Device& d) { return d.kind == DeviceKind::Cpu; });
  if (!query.ram && !on_cpu) {
    r.assumptions.push_back("system RAM unknown: give --ram to consider offloading");
  }
  r.hint = make_hint(query, r.estimate);
  r.speed = estimate_speed(query, r.estimate, speed);
  return r;
}

}  // namespace willfit
