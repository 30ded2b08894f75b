#include "willfit/devices/cost.hpp"

#include <fmt/format.h>

namespace willfit {

namespace {

constexpr double kDaysPerYear = 365;
constexpr double kMonthsPerYear = 12;

}  // namespace

Expected<DeviceCost> device_set_cost(const DeviceSet& devices, std::optional<double> price_usd,
                                     std::optional<double> power_w, bool rent_known) {
  if (devices.devices.empty()) {
    return make_error("willfit cost needs a device: give --device, e.g. --device \"rtx 4090\"");
  }
  DeviceCost cost;
  for (const Device& d : devices.devices) {
    if (d.kind == DeviceKind::Raw && !(price_usd && power_w)) {
      return make_error(fmt::format(
          "'{}' is a memory size, not a device with a price and a power: name one (--device "
          "\"rtx 4090\"), or give both --price USD and --watts W",
          d.id));
    }
    if (!price_usd && !d.price_usd) {
      if (!rent_known) {
        return make_error(fmt::format(
            "no price for {} ({}) in the device data (price_usd is null) and no rent for it in "
            "the rent table: give --price USD or --rent USD_PER_HOUR",
            d.name, d.id));
      }
      cost.priced = false;
    }
    if (!power_w && !d.tdp_w) {
      return make_error(fmt::format(
          "no power for {} ({}) in the device data (tdp_w is null): give --watts W", d.name, d.id));
    }
    cost.price_usd += d.price_usd.value_or(0);
    cost.power_w += d.tdp_w.value_or(0);
  }
  if (price_usd) {
    cost.price_usd = *price_usd;
  }
  if (!cost.priced) {
    cost.price_usd = 0;
  }
  if (power_w) {
    cost.power_w = *power_w;
  }
  return cost;
}

Expected<CostAnswer> estimate_cost(const CostQuestion& q) {
  if (!(q.hours_per_day > 0 && q.hours_per_day <= 24)) {
    return make_error(fmt::format("invalid --hours-per-day '{:g}': must be above 0 and at most 24",
                                  q.hours_per_day));
  }
  if (!(q.kwh_price_usd >= 0)) {
    return make_error(fmt::format("invalid --kwh-price '{:g}': must be 0 or more (USD per kWh)",
                                  q.kwh_price_usd));
  }
  if (!(q.years > 0 && q.years <= 100)) {
    return make_error(
        fmt::format("invalid --years '{:g}': must be above 0 and at most 100", q.years));
  }
  if (q.rent_usd_per_hour && !(*q.rent_usd_per_hour > 0)) {
    return make_error(
        fmt::format("invalid --rent '{:g}': must be above 0 (USD per hour)", *q.rent_usd_per_hour));
  }
  if (!q.device.priced && !q.rent_usd_per_hour) {
    return make_error("no purchase price and no rent: give --price USD or --rent USD_PER_HOUR");
  }
  CostAnswer a;
  a.energy_usd_per_hour = q.device.power_w / 1000.0 * q.kwh_price_usd;
  a.energy_usd_per_year = a.energy_usd_per_hour * q.hours_per_day * kDaysPerYear;
  a.hours_of_use = q.hours_per_day * kDaysPerYear * q.years;
  a.own_total_usd = q.device.price_usd + a.energy_usd_per_hour * a.hours_of_use;
  a.own_usd_per_hour = a.own_total_usd / a.hours_of_use;
  if (q.rent_usd_per_hour) {
    const double rent = *q.rent_usd_per_hour;
    a.rent_total_usd = rent * a.hours_of_use;
    if (!q.device.priced) {
      a.rent_only = true;
    } else if (rent > a.energy_usd_per_hour) {
      const double hours = q.device.price_usd / (rent - a.energy_usd_per_hour);
      a.break_even_hours = hours;
      a.break_even_months = hours / (q.hours_per_day * kDaysPerYear / kMonthsPerYear);
    } else {
      a.rent_never_pays_back = true;
    }
  }
  return a;
}

}  // namespace willfit
