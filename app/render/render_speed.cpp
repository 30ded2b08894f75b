// The speed section: decode first (what a chat feels like), then prefill and
// the wait for the first token, then the batch, then the one-line lesson.
#include "render/render_speed.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "willfit/core/text.hpp"

namespace willfit::app {
namespace {

std::string row(std::string_view label, const std::string& value, std::string_view detail) {
  return fmt::format("  {:<18}{:>11}  {}\n", label, value, detail);
}

std::string range(double value, int band_pct, double cap) {
  const double f = band_pct / 100.0;
  return fmt::format("range {}-{}", speed_figure(value * (1 - f)),
                     speed_figure(std::min(cap, value * (1 + f))));
}

// "(range a-b s)": a time within the estimate's band.
std::string time_range(const SpeedEstimate& s, double seconds) {
  return fmt::format("(range {}-{} s)", speed_figure(seconds / (1 + s.error_band_pct / 100.0)),
                     speed_figure(seconds / (1 - s.error_band_pct / 100.0)));
}

}  // namespace

double rounded_speed(double x) {
  if (x <= 0 || !std::isfinite(x)) {
    return x;
  }
  const double scale = std::pow(10.0, 3 - std::floor(std::log10(x)));
  return std::round(x * scale) / scale;
}

std::string speed_figure(double x) {
  if (x >= 100) {
    return fmt::format("{:.0f}", x);
  }
  if (x >= 10) {
    return fmt::format("{:.1f}", x);
  }
  if (x >= 1) {
    return fmt::format("{:.2f}", x);
  }
  return fmt::format("{:.3f}", x);
}

std::string render_speed_text(const SpeedEstimate& s, UnitSystem units,
                              std::string_view processor) {
  if (!s.estimable) {
    return fmt::format("\nSpeed: not estimated: {}\n", s.reason);
  }
  std::string out = fmt::format("\nSpeed ({}):\n", s.engine);
  if (!s.generates) {
    // An embedding model reads its input once and generates nothing.
    if (s.prefill_tokens_per_s && s.time_to_first_token_s) {
      out += row("reads input", speed_figure(*s.prefill_tokens_per_s) + " tok/s",
                 fmt::format("{}; an embedding model generates no tokens, so there is no decode",
                             range(*s.prefill_tokens_per_s, s.error_band_pct, 1e300)));
      out += row(
          "one input", speed_figure(*s.time_to_first_token_s) + " s",
          fmt::format("to embed {} tokens {}", s.context, time_range(s, *s.time_to_first_token_s)));
    }
  } else {
    out += row("decode", speed_figure(s.decode_tokens_per_s) + " tok/s",
               fmt::format("{}; upper bound {} at full datasheet bandwidth",
                           range(s.decode_tokens_per_s, s.error_band_pct,
                                 s.decode_upper_bound_tokens_per_s),
                           speed_figure(s.decode_upper_bound_tokens_per_s)));
    out += row("", speed_figure(s.decode_tokens_per_s_at_context) + " tok/s",
               fmt::format("with {} tokens already in the cache", s.context));
    if (s.prefill_tokens_per_s && s.time_to_first_token_s) {
      out += row("prefill", speed_figure(*s.prefill_tokens_per_s) + " tok/s",
                 fmt::format("{}; {} {}-token prompt",
                             range(*s.prefill_tokens_per_s, s.error_band_pct, 1e300),
                             indefinite_article(s.context), s.context));
      out += row("first token", speed_figure(*s.time_to_first_token_s) + " s",
                 "to read that prompt " + time_range(s, *s.time_to_first_token_s));
    }
  }
  if (s.batch > 1 && s.generates) {
    out += row(fmt::format("batch of {}", s.batch), speed_figure(s.batch_tokens_per_s) + " tok/s",
               fmt::format("all sequences together ({} each, caches half full)",
                           speed_figure(s.batch_tokens_per_s / s.batch)));
  }
  // The bound and the bytes read per token are a decode step's.
  if (s.generates && s.bound == SpeedBound::Bandwidth) {
    out += fmt::format("  limited by memory bandwidth: the {} waits on memory, not on arithmetic\n",
                       processor);
  } else if (s.generates) {
    out +=
        "  limited by compute: the batch is large enough that arithmetic, not memory, sets the "
        "pace\n";
  }
  // Several devices each get a line: numbered as the runtime numbers them
  // (llama.cpp's CUDA0, CUDA1...; the order of --device), so two of one card
  // are told apart. System RAM and a Mac's CPU side are not devices.
  const auto is_device = [](const SpeedTier& t) {
    return t.label != "system RAM" && t.label.rfind("CPU", 0) != 0;
  };
  const auto devices = std::count_if(s.tiers.begin(), s.tiers.end(), is_device);
  int device_index = 0;
  for (const auto& tier : s.tiers) {
    if (!s.generates) {
      break;  // bytes read per decoded token: none for an embedding model
    }
    std::string label = s.tensor_parallel > 1 && tier.label != "system RAM"
                            ? fmt::format("{} (each of {})", tier.label, s.tensor_parallel)
                            : tier.label;
    if (devices > 1 && is_device(tier)) {
      label = fmt::format("device {}: {}", device_index++, label);
    }
    out += fmt::format(
        "  - {}: reads {} per token at {:g} GB/s x {:.2f} ({})\n", label,
        format_size(tier.weight_bytes, units), tier.bandwidth_gb_per_s, tier.bandwidth_efficiency,
        tier.efficiency_basis.empty() ? std::string("measured efficiency") : tier.efficiency_basis);
  }
  for (const auto& n : s.notes) {
    out += "  - " + n + "\n";
  }
  return out;
}

nlohmann::ordered_json speed_json(const SpeedEstimate& s) {
  using Json = nlohmann::ordered_json;
  const auto number = [&](std::optional<double> v) {
    return (s.estimable && v) ? Json(rounded_speed(*v)) : Json(nullptr);
  };
  Json j;
  // An embedding model decodes nothing: its decode figures are null.
  const auto decode = [&](double v) { return s.generates ? number(v) : Json(nullptr); };
  j["decode_tokens_per_s"] = decode(s.decode_tokens_per_s);
  j["prefill_tokens_per_s"] = number(s.prefill_tokens_per_s);
  j["time_to_first_token_s"] = number(s.time_to_first_token_s);
  j["bound"] = s.estimable ? Json(std::string(to_string(s.bound))) : Json(nullptr);
  j["error_band_pct"] = s.estimable ? Json(s.error_band_pct) : Json(nullptr);
  j["decode_tokens_per_s_at_context"] = decode(s.decode_tokens_per_s_at_context);
  j["decode_upper_bound_tokens_per_s"] = decode(s.decode_upper_bound_tokens_per_s);
  j["batch"] = s.batch;
  j["batch_tokens_per_s"] = decode(s.batch_tokens_per_s);
  j["context_tokens"] = s.context;
  j["reason"] = s.estimable ? Json(nullptr) : Json(s.reason);
  j["batch_requested"] = s.batch_requested;
  j["tensor_parallel"] = s.tensor_parallel;
  j["ram_assumed_bytes"] = s.ram_assumed_bytes ? Json(*s.ram_assumed_bytes) : Json(nullptr);
  j["moe_routing_s"] = s.estimable ? Json(rounded_speed(s.routing_s)) : Json(nullptr);
  Json notes = Json::array();
  for (const auto& n : s.notes) {
    notes.push_back(n);
  }
  j["notes"] = notes;
  j["generates"] = s.generates;
  return j;
}

}  // namespace willfit::app
