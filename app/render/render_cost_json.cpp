// `willfit cost --json`. The key names are a contract (schema_version 1):
// add keys freely, never rename or retype one. Documented in docs/json.md.
#include <nlohmann/json.hpp>

#include "render/render_cost.hpp"

namespace willfit::app {

std::string render_cost_json(const CostView& v) {
  using Json = nlohmann::ordered_json;
  const CostQuestion& q = v.question;
  const CostAnswer& a = v.answer;
  const auto opt = [](const std::optional<double>& x) { return x ? Json(*x) : Json(nullptr); };
  Json j;
  j["schema_version"] = 1;
  j["willfit_version"] = WILLFIT_VERSION;
  j["data_version"] = v.data_version;
  Json query;
  query["device"] = v.devices.text;
  query["hours_per_day"] = q.hours_per_day;
  query["kwh_price_usd"] = q.kwh_price_usd;
  query["kwh_price_source"] =
      v.kwh_price_given ? Json("--kwh-price") : Json(kDefaultKwhPriceSource);
  query["years"] = q.years;
  query["rent_usd_per_hour"] = opt(q.rent_usd_per_hour);
  query["rent_source"] = !q.rent_usd_per_hour ? Json(nullptr)
                         : v.rent_quote       ? Json("rent table")
                                              : Json("--rent");
  query["price_usd"] = v.price_given ? Json(q.device.price_usd) : Json(nullptr);
  query["watts"] = v.watts_given ? Json(q.device.power_w) : Json(nullptr);
  j["query"] = query;
  Json ids = Json::array();
  for (const auto& d : v.devices.devices) {
    ids.push_back(d.id);
  }
  j["device"] = Json{{"name", v.devices.display_name()},
                     {"count", v.devices.count()},
                     {"ids", ids},
                     {"price_usd", q.device.price_usd},
                     {"tdp_w", q.device.power_w},
                     {"price_known", q.device.priced}};
  Json cost;
  cost["energy_usd_per_hour"] = a.energy_usd_per_hour;
  cost["energy_usd_per_year"] = a.energy_usd_per_year;
  cost["hours_of_use"] = a.hours_of_use;
  cost["own_total_usd"] = a.own_total_usd;
  cost["own_usd_per_hour"] = a.own_usd_per_hour;
  cost["rent_total_usd"] = opt(a.rent_total_usd);
  cost["break_even_hours"] = opt(a.break_even_hours);
  cost["break_even_months"] = opt(a.break_even_months);
  cost["rent_never_pays_back"] = a.rent_never_pays_back;
  cost["rent_only"] = a.rent_only;
  j["cost"] = cost;
  if (v.rent_quote) {
    const RentQuote& r = *v.rent_quote;
    j["rent"] = Json{{"usd_per_hour", r.usd_per_hour},
                     {"instances", r.instances},
                     {"gpus_per_instance", r.offer.gpus},
                     {"provider", r.offer.provider},
                     {"date", r.offer.date},
                     {"source", r.offer.source}};
  } else {
    j["rent"] = nullptr;
  }
  return j.dump(2) + "\n";
}

}  // namespace willfit::app
