// Renderers for `willfit cost`: owning a device against renting one, as text
// for people and JSON for scripts. They format only; the arithmetic is
// lib/willfit/devices/cost.cpp.
#pragma once

#include <optional>
#include <string>

#include "willfit/devices/cost.hpp"
#include "willfit/devices/device.hpp"
#include "willfit/devices/rent.hpp"

namespace willfit::app {

struct CostView {
  const DeviceSet& devices;
  const CostQuestion& question;
  const CostAnswer& answer;
  std::string data_version;  // the device data's date: prices go stale
  bool kwh_price_given = false;
  bool price_given = false;  // --price replaced the data's launch prices
  bool watts_given = false;  // --watts replaced the data's TDP
  std::optional<RentQuote> rent_quote =
      std::nullopt;  // the rent came from the rent table (no --rent)
};

std::string render_cost_text(const CostView& view);

// {schema_version, willfit_version, data_version, query, device, cost}; see docs/json.md.
std::string render_cost_json(const CostView& view);

}  // namespace willfit::app
