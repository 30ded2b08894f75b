// The text answer: verdict first, then the breakdown, the assumptions and a hint.
#include <algorithm>

#include <fmt/format.h>

#include "render/render.hpp"
#include "render/render_runtime.hpp"
#include "render/render_speed.hpp"
#include "render/render_suggestions.hpp"

namespace willfit::app {
namespace {

// vLLM runs the sequences its KV cache holds and queues the rest of --batch
// (runtime.cpp vllm): say how many run at once.
std::string queued(const FitReport& r) {
  const Estimate& e = r.estimate;
  if (!e.vllm || e.vllm->sequences_at_once >= r.query.batch) {
    return "";
  }
  return fmt::format("; {} of {} sequences at once at this context, the rest wait in vLLM's queue",
                     e.vllm->sequences_at_once, r.query.batch);
}

// The sequences the KV row counts: vLLM's at once, else --batch.
std::string sequences_text(const FitReport& r) {
  const Estimate& e = r.estimate;
  if (e.vllm && e.vllm->sequences_at_once < r.query.batch) {
    return fmt::format(" x {} of {} sequences (what the cache holds at once)",
                       e.vllm->sequences_at_once, r.query.batch);
  }
  return r.query.batch > 1 ? fmt::format(" x {} sequences", r.query.batch) : "";
}

// The KV row's type: the query's, or the one the runtime holds instead
// (Estimate::kv_type_held: vLLM keeps DeepSeek-V4's caches in FP8 pages
// whatever --kv asks), with the type asked for beside it when it differs.
std::string kv_type_detail(const FitReport& r) {
  const std::string& held = r.estimate.kv_type_held;
  if (held.empty() || held == r.query.kv_type.id) {
    return r.query.kv_type.id;
  }
  return fmt::format("{} (the runtime's own cache type, in place of {})", held, r.query.kv_type.id);
}

std::string verdict_line(const FitReport& r) {
  const Estimate& e = r.estimate;
  const std::string what = fmt::format("{} at {}", r.query.model.name, r.query.precision.name);
  if (!e.device_known) {
    return fmt::format("{} needs {} with {} (no --device given: nothing to compare with)\n", what,
                       format_memory(e.required, r.query.units), runtime_label(e.runtime));
  }
  const std::string where =
      fmt::format("{} with {}", r.query.devices.display_name(), runtime_label(e.runtime));
  const auto mem = [&](Bytes b) { return format_memory(b, r.query.units); };
  const std::string band = fmt::format("+/-{:g}%", e.error_band_pct);
  if (e.over_soft_limit()) {
    return fmt::format(
        "DOES NOT FIT by {} within macOS's recommended GPU working set, but that limit is soft: "
        "{} on {}: needs {}, {} recommended, {} at most; it may run, slower, as macOS pages "
        "other programs out (or raise the limit: 'sudo sysctl iogpu.wired_limit_mb' and "
        "--gpu-limit)\n",
        mem(-e.headroom), what, where, mem(e.required), mem(e.usable), mem(e.soft_ceiling));
  }
  switch (e.verdict) {
    case Verdict::Fits:
      if (e.tight) {
        return fmt::format(
            "FITS, but tight: {} on {}: needs {} of {} usable ({} to spare, within the {} error "
            "of this estimate){}\n",
            what, where, mem(e.required), mem(e.usable), mem(e.headroom), band, queued(r));
      }
      return fmt::format("FITS: {} on {}: needs {} of {} usable ({} to spare){}\n", what, where,
                         mem(e.required), mem(e.usable), mem(e.headroom), queued(r));
    case Verdict::Offload:
      return fmt::format(
          "FITS ONLY WITH OFFLOAD: {} on {}: needs {}, {} usable; {} must {}{}\n", what, where,
          mem(e.required), mem(e.usable), mem(e.offload ? e.offload->host_bytes : -e.headroom),
          e.offload && e.offload->ram_unified
              ? fmt::format("run on the CPU, in the same unified memory ({} of {} for both sides)",
                            mem(e.offload->gpu_bytes + e.offload->host_bytes),
                            mem(e.offload->gpu_bytes + *e.offload->ram_available))
              : std::string("go to system RAM"),
          !e.tight ? std::string()
          : -e.headroom <= e.band
              ? fmt::format(" (short by {}, within the {} error of this estimate: it may "
                            "fit whole)",
                            mem(-e.headroom), band)
              : fmt::format("; the RAM holds it by less than the {} error of this estimate: it "
                            "may not load",
                            band));
    case Verdict::NoFit:
      break;
  }
  // The GPU side holds its part, but the system RAM the plan puts the rest in
  // is unknown or too small (-ngl 0, or --ngl given without --ram): that is
  // what is short, not a device.
  if (e.headroom >= 0 && e.offload && e.offload->ram_holds != true && e.offload->host_bytes > 0) {
    return fmt::format(
        "DOES NOT FIT as asked: {} on {}: {} puts {} in system RAM, {}\n", what, where,
        e.offload->flags, mem(e.offload->host_bytes),
        e.offload->ram_available
            ? fmt::format("more than the {} it may use", mem(*e.offload->ram_available))
            : std::string("and the RAM is unknown: give --ram"));
  }
  if (e.headroom >= 0) {  // enough in total, but one device of the split is short
    return fmt::format(
        "DOES NOT FIT: {} on {}: needs {} of {} usable in total, but one device is short "
        "(see Devices)\n",
        what, where, mem(e.required), mem(e.usable));
  }
  if (e.tight) {
    // Symmetric with "FITS, but tight": short by less than the estimate's
    // own error band, so it may load as well as not.
    return fmt::format(
        "DOES NOT FIT, but tight: short by {}, within the {} error of this estimate: {} on {}: "
        "needs {}, {} usable; it may load: close other programs or lower the context\n",
        mem(-e.headroom), band, what, where, mem(e.required), mem(e.usable));
  }
  return fmt::format("DOES NOT FIT: {} on {}: needs {}, {} usable (short by {})\n", what, where,
                     mem(e.required), mem(e.usable), mem(-e.headroom));
}

std::string row(std::string_view label, const std::string& value, std::string_view detail) {
  return fmt::format("  {:<18}{:>11}  {}\n", label, value, detail);
}

}  // namespace

std::string render_fit_text(const FitReport& r, const TextStyle& /*style*/) {
  const Estimate& e = r.estimate;
  const auto& q = r.query;
  std::string s = verdict_line(r);
  s += "\n";
  s += row("weights", format_memory(e.memory.weights, r.query.units), weights_detail(r));
  if (e.memory.projector > 0) {
    s += row("projector", format_memory(e.memory.projector, r.query.units),
             projector_detail(q.model.arch, e.runtime));
  }
  s += row("KV cache", format_memory(e.memory.kv_cache, r.query.units),
           q.model.arch.vocoder_features > 0
               ? fmt::format(
                     "none: a vocoder keeps no cache; it turns {} audio codes into sound per call "
                     "(one micro-batch: --ubatch)",
                     std::min(e.ubatch, e.context * std::max(1, q.batch)))
           : q.model.arch.attention.no_kv_cache
               ? std::string("none: an encoder or diffusion model keeps no cache")
           : purely_recurrent(q.model.arch)
               ? fmt::format("a fixed recurrent state{}, the same at any context; no KV cache",
                             q.batch > 1 ? fmt::format(" x {} sequences", q.batch) : "")
               : fmt::format("{} tokens{}, {}", e.context, sequences_text(r), kv_type_detail(r)));
  s += row("compute buffer", format_memory(e.memory.compute, r.query.units), compute_detail(r));
  s += row("runtime overhead", format_memory(e.memory.overhead, r.query.units), overhead_detail(r));
  s += row("safety margin", format_memory(e.memory.margin, r.query.units), margin_detail(r));
  s += fmt::format("  {:-<18}{:->11}\n", "", "");
  s += row("total", format_memory(e.required, r.query.units),
           fmt::format("+/- {:g}% (measured error of these terms)", e.error_band_pct));
  if (e.device_known) {
    s += row("usable memory", format_memory(e.usable, r.query.units),
             fmt::format("of {} on {}{}", format_memory(e.capacity, r.query.units),
                         e.placed_device >= 0 ? "one GPU of " : "", q.devices.display_name()));
    if (e.offload && (e.verdict == Verdict::Offload || e.offload->ram_available)) {
      // An offload plan (one that fits, or one checked against a known RAM)
      // is checked side by side: the GPU part against the usable memory, the
      // RAM part against the RAM; the whole model on the GPU alone is said
      // in words.
      const OffloadPlan& p = *e.offload;
      const Bytes gpu_left = offload_gpu_headroom(e, p);
      s += row("headroom (GPU)", format_memory_signed(gpu_left, r.query.units),
               fmt::format("{} under the offload plan below (the whole model on the GPU alone: {} "
                           "{})",
                           gpu_left < 0 ? "short" : "free",
                           format_memory(e.headroom < 0 ? -e.headroom : e.headroom, r.query.units),
                           e.headroom < 0 ? "short" : "free"));
      const std::optional<Bytes> ram_left = offload_ram_headroom(p);
      s += row("headroom (RAM)",
               ram_left ? format_memory_signed(*ram_left, r.query.units) : std::string("-"),
               !ram_left       ? std::string("RAM unknown: give --ram")
               : p.ram_unified ? fmt::format("{} in the unified memory left besides the GPU's",
                                             *ram_left < 0 ? "short" : "free")
                               : fmt::format("{} of the {} system RAM may use",
                                             *ram_left < 0 ? "short" : "free",
                                             format_memory(*p.ram_available, r.query.units)));
    } else {
      s += row("headroom", format_memory_signed(e.headroom, r.query.units),
               e.headroom < 0 ? "short" : "free");
    }
  }
  s += runtime_text_sections(r);
  s += render_speed_text(r.speed, r.query.units, processor_word(r.query.devices));
  s += "\nAssumptions:\n";
  for (const auto& a : report_assumptions(r)) {
    s += "  - " + a + "\n";
  }
  if (!e.warnings.empty()) {
    s += "\nWarnings:\n";
    for (const auto& w : e.warnings) {
      s += "  - " + w + "\n";
    }
  }
  if (!r.suggestions.empty()) {
    s += render_suggestions_text(r.suggestions);
  } else if (!r.hint.empty()) {
    s += "\n" + r.hint + "\n";
  }
  return s;
}

}  // namespace willfit::app
