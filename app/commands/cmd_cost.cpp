// `willfit cost --device D`: buy or rent? The device's launch price plus the
// electricity it draws, against renting the same by the hour: the break-even
// in hours of use and in months. Arithmetic in lib/willfit/devices/cost.cpp.
#include <optional>
#include <ostream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "command.hpp"
#include "render/render_cost.hpp"
#include "sources/device_source.hpp"
#include "sources/rent_source.hpp"
#include "sources/resolve.hpp"
#include "willfit/core/text.hpp"
#include "willfit/devices/cost.hpp"

namespace willfit::app {
namespace {

constexpr const char* kDescription =
    "willfit cost: own or rent? A device's launch price plus its electricity (TDP x hours x\n"
    "price per kWh) against renting one by the hour: the break-even in hours and months.";

constexpr const char* kFooter = R"(Examples:
  willfit cost -d "rtx 4090"                          (owning, per hour of use over 3 years)
  willfit cost -d "rtx 4090" --rent 0.69              (the break-even against a cloud price)
  willfit cost -d "2x rtx 3090" --hours-per-day 24 --rent 0.44 --kwh-price 0.30
  willfit cost -d h100:8 --price 250000 --rent 24 --json   (no price in the data: give one)
  willfit cost -d h100                                (rent only, from the rent table)

Prices are launch prices (MSRP, USD) from the device data, dated by its data_version: they go
  stale, and street and used prices differ. Power is the TDP, the board's power at full load: an
  upper bound for an idle or partly loaded device. The default price per kWh is the U.S. average
  residential price of 2023 (EIA): 0.16 USD.
A set ("2x rtx 3090", "h100:8", "rtx 4090+rtx 3090") costs and draws the sum of its devices;
  --price and --watts replace the data's figures for the whole set (datacenter parts have no
  list price in the data; Apple chips no TDP).
Without --rent, the rent is the cheapest on-demand offer for the set in the rent table
  (data/rent.json, dated and sourced per row; --rent-prices FILE or WILLFIT_RENT replaces it).
  A device without a price but with a rent answers with the rent alone.

Exit codes: 0 answered, 2 error (a device without a price or a rent, or without a TDP, and no
  --price, --rent or --watts; a bare size).)";

// A figure typed for an option: a plain decimal number; ranges are checked
// by the lib (estimate_cost), which names the option.
Expected<double> parse_amount(const char* option, const std::string& text, const char* unit) {
  double v = 0;
  if (!parse_decimal(trim(text), v)) {
    return make_error(
        fmt::format("invalid {} '{}': expected a number above 0 ({})", option, text, unit));
  }
  return v;
}

}  // namespace

int run_cost(const std::vector<std::string>& args, Context& ctx) {
  CLI::App app{kDescription, "willfit cost"};
  app.footer(kFooter);
  std::string device_text;
  std::string hours_text = "8";
  std::string rent_text;
  std::string kwh_text;
  std::string years_text = "3";
  std::string price_text;
  std::string watts_text;
  std::string devices_file;
  std::string rent_file;
  bool json = false;
  std::string device_word;
  app.add_option("-d,--device", device_text,
                 "Device by name ('rtx 4090'), several ('2x rtx 3090', 'h100:8', "
                 "'rtx 4090+rtx 3090')");
  // `willfit cost "rtx 4090"`: the device may also come as the one word.
  app.add_option("DEVICE", device_word, "The device, as --device gives it");
  app.add_option("--hours-per-day", hours_text, "Hours of use per day, above 0 to 24 (default 8)");
  app.add_option("--rent", rent_text,
                 "Rent of the same device(s), USD per hour: gives the break-even");
  app.add_option("--kwh-price", kwh_text,
                 "Electricity, USD per kWh (default 0.16: U.S. residential average, 2023)");
  app.add_option("--years", years_text, "Years the device is kept (default 3)");
  app.add_option("--price", price_text,
                 "Purchase price of the whole set, USD, replacing the data's launch prices");
  app.add_option("--watts", watts_text, "Power of the whole set, W, replacing the data's TDP");
  app.add_option("--devices", devices_file, "Device database file replacing the bundled one");
  app.add_option("--rent-prices", rent_file,
                 "Rent table file replacing the bundled one (also WILLFIT_RENT)");
  app.add_flag("--json", json, "Print one JSON document (schema_version 1)");
  if (const int code = parse_cli(app, args, ctx); code >= 0) {
    return code;
  }
  if (app.count("DEVICE") > 0 && app.count("--device") > 0) {
    return fail(ctx, fmt::format("two devices given: '{}' and --device '{}'; give one", device_word,
                                 device_text));
  }
  if (app.count("DEVICE") > 0) {
    device_text = device_word;
  } else if (app.count("--device") == 0) {
    return fail(ctx, "--device is required: willfit cost -d \"rtx 4090\" (see --help)");
  }

  auto devices = resolve_devices(device_text, ctx.env, devices_file);
  if (!devices) {
    return fail(ctx, devices.error().message);
  }
  std::optional<double> price;
  std::optional<double> watts;
  if (app.count("--price") > 0) {
    auto v = parse_amount("--price", price_text, "USD");
    if (!v) {
      return fail(ctx, v.error().message);
    }
    price = *v;
  }
  if (app.count("--watts") > 0) {
    auto v = parse_amount("--watts", watts_text, "W");
    if (!v) {
      return fail(ctx, v.error().message);
    }
    watts = *v;
  }
  auto table = load_rent_table(ctx.env, rent_file);
  if (!table) {
    return fail(ctx, table.error().message);
  }
  // The table rents sets of one device only ("h100:8", not "rtx 4090+rtx 3090").
  std::optional<RentQuote> quote;
  if (!devices->devices.empty()) {
    const std::string& id = devices->devices.front().id;
    bool same = true;
    for (const Device& d : devices->devices) {
      same = same && d.id == id;
    }
    if (same) {
      quote = table->cheapest(id, static_cast<int>(devices->count()));
    }
  }
  const bool rent_given = app.count("--rent") > 0;
  auto device_cost = device_set_cost(*devices, price, watts, rent_given || quote.has_value());
  if (!device_cost) {
    return fail(ctx, device_cost.error().message);
  }
  CostQuestion q;
  q.device = *device_cost;
  auto hours = parse_amount("--hours-per-day", hours_text, "hours, at most 24");
  if (!hours) {
    return fail(ctx, hours.error().message);
  }
  q.hours_per_day = *hours;
  if (!kwh_text.empty()) {
    auto kwh = parse_amount("--kwh-price", kwh_text, "USD per kWh");
    if (!kwh) {
      return fail(ctx, kwh.error().message);
    }
    q.kwh_price_usd = *kwh;
  }
  auto years = parse_amount("--years", years_text, "years");
  if (!years) {
    return fail(ctx, years.error().message);
  }
  q.years = *years;
  if (rent_given) {
    auto rent = parse_amount("--rent", rent_text, "USD per hour");
    if (!rent) {
      return fail(ctx, rent.error().message);
    }
    q.rent_usd_per_hour = *rent;
    quote.reset();
  } else if (quote) {
    q.rent_usd_per_hour = quote->usd_per_hour;
  }
  auto answer = estimate_cost(q);
  if (!answer) {
    return fail(ctx, answer.error().message);
  }
  DeviceSource source(ctx.env, devices_file);
  auto db = source.get();
  if (!db) {
    return fail(ctx, db.error().message);
  }
  CostView view{*devices, q, *answer, (*db)->data_version(), !kwh_text.empty()};
  view.price_given = price.has_value();
  view.watts_given = watts.has_value();
  view.rent_quote = quote;
  ctx.out << (json ? render_cost_json(view) : render_cost_text(view));
  return kExitFits;
}

}  // namespace willfit::app
