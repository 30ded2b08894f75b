// Own or rent: what a device costs to buy and run (its price plus the
// electricity it draws) against renting one by the hour, and where the two
// meet. Pure arithmetic on figures the caller passes; nothing is read here.
#pragma once

#include <optional>
#include <string>

#include "willfit/core/expected.hpp"
#include "willfit/devices/device.hpp"

namespace willfit {

// The default electricity price, USD per kWh: the U.S. average residential
// retail price in 2023, 16 cents/kWh (U.S. Energy Information Administration:
// Electric Power Annual 2023, released October 2024, eia.gov/electricity/annual;
// EIA Today in Energy, "Retail electricity prices closely tracked inflation
// over the last 10 years": "from a little more than 12 cents per kWh in 2013
// to 16 cents per kWh in 2023"). Prices differ by a factor of four between
// states and more between countries: --kwh-price replaces it.
inline constexpr double kDefaultKwhPriceUsd = 0.16;
inline constexpr const char* kDefaultKwhPriceSource =
    "U.S. average residential price in 2023 (EIA Electric Power Annual 2023)";

// What owning a device set costs: the sum of its devices' launch prices and
// TDPs ("2x rtx 3090" counts twice).
struct DeviceCost {
  double price_usd = 0;
  double power_w = 0;
  bool priced = true;  // false: no purchase price known, only rent compares (see below)
};

// `price_usd` / `power_w`, when given (--price, --watts), replace the data's
// figures for the whole set. Errors (one line each, naming the option that
// fills the gap): a bare capacity ("24gb") has neither figure; a device whose
// data lacks price_usd or tdp_w is named with the missing field. With
// `rent_known` (a rent for the set is given or in the rent table) a missing
// price is no error: the cost is unpriced and the answer is rent only
// (datacenter parts have no list price, but a published rent).
Expected<DeviceCost> device_set_cost(const DeviceSet& devices,
                                     std::optional<double> price_usd = std::nullopt,
                                     std::optional<double> power_w = std::nullopt,
                                     bool rent_known = false);

struct CostQuestion {
  DeviceCost device;
  double hours_per_day = 8;  // hours of use per day
  double kwh_price_usd = kDefaultKwhPriceUsd;
  double years = 3;                         // how long the device is kept
  std::optional<double> rent_usd_per_hour;  // a rented device of the same kind
};

// The arithmetic (USD, hours; a year is 365 days, a month 365/12 days):
//   energy per hour  = power_w / 1000 x kwh_price        (TDP: full load, an upper bound)
//   hours of use     = hours_per_day x 365 x years
//   owning, in all   = price + energy per hour x hours of use
//   owning per hour  = owning in all / hours of use
//   break-even hours = price / (rent - energy per hour)  when rent > energy per hour:
//                      after that many hours of use, buying has cost less than renting
//   break-even months = break-even hours / (hours_per_day x 365 / 12)
struct CostAnswer {
  double energy_usd_per_hour = 0;
  double energy_usd_per_year = 0;
  double hours_of_use = 0;
  double own_total_usd = 0;
  double own_usd_per_hour = 0;
  std::optional<double> rent_total_usd;     // rent x hours of use
  std::optional<double> break_even_hours;   // nullopt: no rent, or renting always cheaper
  std::optional<double> break_even_months;  // at hours_per_day
  bool rent_never_pays_back = false;        // rent <= electricity alone: owning never catches up
  // No purchase price (DeviceCost::priced false): the price counts as 0, so
  // own_total_usd and own_usd_per_hour are the electricity alone (a lower
  // bound on owning), and there is no break-even.
  bool rent_only = false;
};

// Errors: hours per day outside (0, 24], a negative kWh price, years not
// above 0, a rent not above 0, an unpriced device without a rent.
Expected<CostAnswer> estimate_cost(const CostQuestion& q);

}  // namespace willfit
