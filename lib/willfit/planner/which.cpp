#include "willfit/planner/which.hpp"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "willfit/core/text.hpp"

namespace willfit {

Expected<WhichSort> parse_which_sort(std::string_view text) {
  if (text == "price") {
    return WhichSort::Price;
  }
  if (text == "memory") {
    return WhichSort::Memory;
  }
  if (text == "speed") {
    return WhichSort::Speed;
  }
  return make_error(fmt::format("invalid --sort '{}': use price, memory or speed", text));
}

namespace {

DeviceSet set_of(const Device& d, int count) {
  DeviceSet s;
  for (int i = 0; i < count; ++i) {
    s.devices.push_back(d);
  }
  s.text = count == 1 ? d.name : fmt::format("{}x {}", count, d.name);
  return s;
}

bool vendor_matches(const Device& d, const std::string& vendor) {
  return vendor.empty() || to_lower(d.vendor) == to_lower(vendor);
}

// The devices which_devices tries: the vendor's, CPUs left out.
bool tried(const Device& d, const WhichOptions& options) {
  return d.kind != DeviceKind::Cpu && vendor_matches(d, options.vendor);
}

// A key where smaller ranks first and unknowns (nullopt) last.
std::tuple<bool, double> rank_key(const WhichRow& r, WhichSort sort) {
  switch (sort) {
    case WhichSort::Price:
      if (r.rent) {
        return {false, r.rent->usd_per_hour};
      }
      return {!r.price_usd.has_value(), r.price_usd.value_or(0)};
    case WhichSort::Memory:
      return {false, static_cast<double>(r.devices.capacity())};
    case WhichSort::Speed: {
      const std::optional<double>& speed =
          r.generates ? r.decode_tokens_per_s : r.read_tokens_per_s;
      return {!speed.has_value(), -speed.value_or(0)};
    }
  }
  return {false, 0};
}

}  // namespace

std::vector<WhichRow> which_devices(const InferenceQuery& query, std::span<const Device> devices,
                                    const WhichOptions& options) {
  std::vector<WhichRow> rows;
  for (const Device& d : devices) {
    if (!tried(d, options)) {
      continue;
    }
    // A runtime named that cannot run there (vLLM on a Mac, MLX on an
    // NVIDIA card: runtime_device_conflict), or does not load the weights
    // (runtime_loads), is no answer for this device.
    if (query.runtime && (!runtime_loads(*query.runtime, query.precision) ||
                          !runtime_device_conflict(*query.runtime, query.precision, d).empty())) {
      continue;
    }
    // Nor is the runtime the weights default to there, when it has no kernel
    // for them on this device (NF4 under transformers on a Mac).
    if (!query.runtime) {
      const Runtime runtime = default_runtime(query.model, query.precision, set_of(d, 1));
      if (!runtime_device_conflict(runtime, query.precision, d).empty()) {
        continue;
      }
    }
    const bool multi = d.kind == DeviceKind::DiscreteGpu || d.kind == DeviceKind::Accelerator;
    for (const int count : options.counts) {
      if (count > 1 && !multi) {
        break;
      }
      std::optional<double> price;
      if (d.price_usd) {
        price = *d.price_usd * count;
      }
      std::optional<RentQuote> rent;
      if (options.rent) {
        rent = options.rent->cheapest(d.id, count);
        if (!rent) {
          break;  // not offered for rent
        }
      }
      const std::optional<double> ranked = rent ? std::optional(rent->usd_per_hour) : price;
      if (options.max_price_usd && (!ranked || *ranked > *options.max_price_usd)) {
        break;  // more of it only costs more
      }
      InferenceQuery q = query;
      q.devices = set_of(d, count);
      const Estimate e = estimate_inference(q);
      if (!e.fits()) {
        continue;
      }
      WhichRow row;
      row.devices = q.devices;
      row.count = count;
      row.required = e.required;
      row.usable = e.usable;
      row.tight = e.tight;
      row.band = e.band;
      row.error_band_pct = e.error_band_pct;
      row.price_usd = price;
      row.runtime = e.runtime;
      row.context = e.context;
      const SpeedEstimate speed = estimate_speed(q, e, {});
      row.generates = speed.generates;
      if (speed.estimable) {
        if (speed.generates) {
          row.decode_tokens_per_s = speed.decode_tokens_per_s;
        } else {
          row.read_tokens_per_s = speed.prefill_tokens_per_s;
        }
      }
      row.rent = rent;
      const std::optional<double>& per_s =
          row.generates ? row.decode_tokens_per_s : row.read_tokens_per_s;
      if (rent && per_s) {
        row.rent_usd_per_million_tokens = usd_per_million_tokens(rent->usd_per_hour, *per_s);
      }
      rows.push_back(std::move(row));
      break;  // the smallest count that fits
    }
  }
  std::stable_sort(rows.begin(), rows.end(), [&](const WhichRow& a, const WhichRow& b) {
    const auto ka = rank_key(a, options.sort);
    const auto kb = rank_key(b, options.sort);
    if (ka != kb) {
      return ka < kb;
    }
    return a.devices.text < b.devices.text;
  });
  return rows;
}

std::string which_runtime_conflict(const InferenceQuery& query, std::span<const Device> devices,
                                   const WhichOptions& options) {
  std::string first;
  for (const Device& d : devices) {
    if (!tried(d, options)) {
      continue;
    }
    // No runtime named: the one the weights default to on each device.
    const Runtime runtime =
        query.runtime.value_or(default_runtime(query.model, query.precision, set_of(d, 1)));
    std::string why = runtime_device_conflict(runtime, query.precision, d, false);
    if (why.empty()) {
      return {};
    }
    if (first.empty()) {
      first = query.runtime ? std::move(why)
                            : fmt::format("{} runs under {} by default there, and {}",
                                          query.precision.name, to_string(runtime), why);
    }
  }
  return first;
}

}  // namespace willfit
