// `willfit cost` as text: the purchase, the electricity, the rent and where
// owning and renting meet.
#include <cmath>

#include <fmt/format.h>

#include "render/render_cost.hpp"
#include "render/render_rent.hpp"

namespace willfit::app {
namespace {

// Dollars: whole above $100, cents below, more digits under a cent per hour.
std::string usd(double v) {
  if (std::fabs(v) >= 100) {
    return fmt::format("${:.0f}", v);
  }
  if (std::fabs(v) >= 0.1 || v == 0) {
    return fmt::format("${:.2f}", v);
  }
  return fmt::format("${:.3f}", v);
}

std::string number(double v) {
  return fmt::format("{:g}", v);
}

// Where a rent from the rent table comes from: "; RunPod Secure Cloud, 2026-11-09".
std::string rent_origin(const CostView& v) {
  if (!v.rent_quote) {
    return "";
  }
  const RentQuote& r = *v.rent_quote;
  std::string s = "\n" + std::string(32, ' ') + "on-demand, " + r.offer.provider;
  s += rent_instances(r);
  return s + fmt::format(", {} (rent table; --rent replaces it)", r.offer.date);
}

}  // namespace

std::string render_cost_text(const CostView& v) {
  const CostQuestion& q = v.question;
  const CostAnswer& a = v.answer;
  const std::string date = v.data_version.empty() ? "unknown date" : v.data_version;
  std::string out = fmt::format("Own or rent: {}\n", v.devices.display_name());
  if (a.rent_only) {
    out += fmt::format("  {:<20}{:>10}  no purchase price in the device data of {}\n", "purchase",
                       "-", date);
  } else {
    out += fmt::format(
        "  {:<20}{:>10}  {}\n", "purchase", usd(q.device.price_usd),
        v.price_given
            ? std::string("as given (--price)")
            : fmt::format("launch price (MSRP), device data of {}: prices go stale", date));
  }
  out += fmt::format(
      "  {:<20}{:>10}  {}\n", "power", number(q.device.power_w) + " W",
      v.watts_given ? "as given (--watts)" : "TDP (board power at full load): an upper bound");
  // Renting only: the rent pays for the power, so no electricity lines.
  if (a.rent_only) {
    out += fmt::format("  {:<20}{:>10}  {} for {} h/day over {} {} ({} hours of use){}\n",
                       "renting", usd(*q.rent_usd_per_hour) + "/h", usd(*a.rent_total_usd),
                       number(q.hours_per_day), number(q.years), q.years == 1 ? "year" : "years",
                       number(std::round(a.hours_of_use)), rent_origin(v));
    out +=
        "Owning: no price to compare (datacenter parts have no list price); give --price USD\n"
        "for the break-even against a quote.\n";
    return out;
  }
  out += fmt::format("  {:<20}{:>10}  {} kW x {}/kWh{}\n", "electricity",
                     usd(a.energy_usd_per_hour) + "/h", number(q.device.power_w / 1000.0),
                     usd(q.kwh_price_usd),
                     v.kwh_price_given ? "" : fmt::format(": {}", kDefaultKwhPriceSource));
  out += fmt::format("  {:<20}{:>10}  at {} h/day, 365 days\n", "",
                     usd(a.energy_usd_per_year) + "/yr", number(q.hours_per_day));
  out +=
      fmt::format("  {:<20}{:>10}  price + electricity for {} h/day over {} {} ({} hours of use)\n",
                  fmt::format("owning, {} {}", number(q.years), q.years == 1 ? "year" : "years"),
                  usd(a.own_total_usd), number(q.hours_per_day), number(q.years),
                  q.years == 1 ? "year" : "years", number(std::round(a.hours_of_use)));
  out += fmt::format("  {:<20}{:>10}  per hour of use\n", "", usd(a.own_usd_per_hour) + "/h");
  if (!q.rent_usd_per_hour) {
    out +=
        "Give --rent USD_PER_HOUR (a cloud price for the same device) to compare: the\n"
        "break-even in hours of use and in months.\n";
    return out;
  }
  out += fmt::format("  {:<20}{:>10}  {} over the same {} hours{}\n", "renting",
                     usd(*q.rent_usd_per_hour) + "/h", usd(*a.rent_total_usd),
                     number(std::round(a.hours_of_use)), rent_origin(v));
  if (a.rent_never_pays_back) {
    out += fmt::format(
        "Break-even: never. Renting at {}/h costs no more than the electricity alone ({}/h).\n",
        usd(*q.rent_usd_per_hour), usd(a.energy_usd_per_hour));
    return out;
  }
  out += fmt::format("Break-even: after {} hours of use, {} months at {} h/day; {}.\n",
                     number(std::round(*a.break_even_hours)),
                     fmt::format("{:.1f}", *a.break_even_months), number(q.hours_per_day),
                     *a.break_even_hours <= a.hours_of_use
                         ? fmt::format("within {} {} owning costs less", number(q.years),
                                       q.years == 1 ? "year" : "years")
                         : fmt::format("within {} {} renting costs less", number(q.years),
                                       q.years == 1 ? "year" : "years"));
  return out;
}

}  // namespace willfit::app
