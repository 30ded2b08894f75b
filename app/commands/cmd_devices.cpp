// `willfit devices [QUERY] [--vendor V] [--min-memory SIZE] [--json]`: the
// device database as a table, filtered.
#include <ostream>

#include <CLI/CLI.hpp>

#include "command.hpp"
#include "help.hpp"
#include "options/units_option.hpp"
#include "render/render_devices.hpp"
#include "sources/device_source.hpp"
#include "willfit/core/text.hpp"

namespace willfit::app {

int run_devices(const std::vector<std::string>& args, Context& ctx) {
  CLI::App app{"List the devices willfit knows: memory, bandwidth, FP16 dense, year, price.",
               "willfit devices"};
  app.footer(
      "Examples:\n  willfit devices 4090\n  willfit devices --vendor apple --min-memory 64gb\n"
      "  willfit devices h100 --json\n" +
      std::string(kListingHelpTail));
  // Several words are one filter ("rtx 3060" unquoted), as the ambiguous
  // device error's hint may be typed.
  std::vector<std::string> query_words;
  std::string vendor;
  std::string min_memory_text;
  std::string devices_file;
  std::string units_text;
  bool json = false;
  app.add_option("QUERY", query_words, "Words a device's name must contain ('4090', 'm3 max')");
  app.add_option("--vendor", vendor, "Only this vendor: nvidia, amd, apple, intel, google...");
  app.add_option("--min-memory", min_memory_text,
                 "Only devices with at least this much, e.g. 24gb");
  app.add_option("--devices", devices_file, "Device database file replacing the bundled one");
  app.add_flag("--json", json, "Print one JSON document (schema_version 1)");
  add_units_option(app, units_text);
  if (const int code = parse_cli(app, args, ctx); code >= 0) {
    return code;
  }
  std::string query;
  for (const auto& word : query_words) {
    query += (query.empty() ? "" : " ") + word;
  }
  const auto units = units_from_option(units_text);
  if (!units) {
    return fail(ctx, units.error().message);
  }
  Bytes min_memory = 0;
  if (!min_memory_text.empty()) {
    auto m = parse_capacity(min_memory_text);
    if (!m) {
      return fail(ctx, "--min-memory: " + m.error().message);
    }
    min_memory = *m;
  }
  DeviceSource source(ctx.env, devices_file);
  auto db = source.get();
  if (!db) {
    return fail(ctx, db.error().message);
  }
  if (auto known = check_vendor(**db, vendor); !known) {
    return fail(ctx, known.error().message);
  }
  std::vector<const Device*> shown;
  const std::string want_vendor = to_lower(trim(vendor));
  const auto found = (*db)->search(query);
  for (const Device* d : found) {
    if ((want_vendor.empty() || d->vendor == want_vendor) && d->memory_bytes >= min_memory) {
      shown.push_back(d);
    }
  }
  // No match is an error, as in 'willfit models' and 'willfit device': a
  // script reading the table must not take "none" for an answer.
  if (shown.empty()) {
    if (found.empty()) {
      const std::string hint = did_you_mean((*db)->suggest(query));
      return fail(ctx,
                  "no device matches '" + trim(query) + "'" + (hint.empty() ? "" : ": " + hint));
    }
    std::string filters;
    if (!want_vendor.empty()) {
      filters += " from " + want_vendor;
    }
    if (min_memory > 0) {
      filters += " with at least " + format_memory(min_memory, *units);
    }
    return fail(ctx, "no device" + (query.empty() ? "" : " matching '" + trim(query) + "'") +
                         filters + " ('willfit devices' lists them all)");
  }
  ctx.out << (json ? render_device_table_json(shown, **db)
                   : render_device_table_text(shown, **db, *units));
  return 0;
}

}  // namespace willfit::app
