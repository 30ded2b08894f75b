// `willfit which MODEL`: the devices that fit a model, one GPU or several of
// the same (2, 4, 8), ranked by price, memory or speed. Each row is the
// estimator's answer for that device set; nothing here estimates on its own.
// Pure: the devices come in as values.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "willfit/devices/rent.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/speed/speed.hpp"

namespace willfit {

enum class WhichSort { Price, Memory, Speed };
Expected<WhichSort> parse_which_sort(std::string_view text);

struct WhichOptions {
  std::optional<double> max_price_usd;  // total for the set; devices without a price are left out
  std::string vendor;                   // "nvidia", "amd", ...; "" for all
  WhichSort sort = WhichSort::Price;
  std::vector<int> counts{1, 2, 4, 8};  // GPUs per set tried, smallest first
  // --rent: only devices with an offer in this table, priced and ranked by
  // rent (USD per hour) instead of list price; --max-price is then per hour.
  const RentTable* rent = nullptr;
};

struct WhichRow {
  DeviceSet devices;  // one device, or `count` copies of it
  int count = 1;
  Bytes required = 0;
  Bytes usable = 0;
  // The plain answer's "FITS, but tight" (issue 16): the headroom is within
  // the estimate's own error band (`band` bytes, `error_band_pct`).
  bool tight = false;
  Bytes band = 0;
  double error_band_pct = 0;
  std::optional<double> price_usd;            // count x the device's price, when known
  std::optional<double> decode_tokens_per_s;  // none for a model that generates nothing
  // An embedding model reads its input and generates nothing: its speed is
  // the tokens it reads a second (the prefill of one input of `context`).
  bool generates = true;
  std::optional<double> read_tokens_per_s;
  // The context the row was sized at, as resolved: Ollama's default differs
  // by GPU memory when none is given.
  std::int64_t context = 0;
  Runtime runtime = Runtime::LlamaCpp;
  std::optional<RentQuote> rent;  // with WhichOptions::rent: the cheapest offer for `count`
  // rent / (tokens/s x 3600) x 1e6, when both are known: generated tokens,
  // or an embedding model's tokens read
  std::optional<double> rent_usd_per_million_tokens;
};

// For each device (CPUs left out), the smallest count that fits the query
// whole; discrete GPUs and accelerators are tried at every count, unified
// memory only alone. Sorted by `sort` (unknown prices and speeds last), then
// by name. The query's devices are ignored.
std::vector<WhichRow> which_devices(const InferenceQuery& query, std::span<const Device> devices,
                                    const WhichOptions& options);

// Why the query's --runtime runs on none of the devices which_devices would
// try (the vendor's, CPUs left out): the plain answer's refusal
// (runtime_device_conflict) for the first of them, e.g. vLLM with --vendor
// apple, MLX with --vendor nvidia; with no runtime named, the runtime the
// weights default to on each device (NF4 with --vendor apple). Worded for
// no one device. Empty when some device runs it, or when no device is left
// to try. Price and rent are not
// looked at: the runtime, not the budget, is then the reason.
std::string which_runtime_conflict(const InferenceQuery& query, std::span<const Device> devices,
                                   const WhichOptions& options);

}  // namespace willfit
