// `willfit device NAME [--json]`: one device's spec sheet.
#include <ostream>

#include <CLI/CLI.hpp>

#include "command.hpp"
#include "help.hpp"
#include "options/options.hpp"
#include "options/units_option.hpp"
#include "render/render_devices.hpp"
#include "sources/device_source.hpp"

namespace willfit::app {

int run_device(const std::vector<std::string>& args, Context& ctx) {
  CLI::App app{
      "Show one device's spec sheet: capacity and usable memory, bandwidth and what it "
      "means for speed, dense compute, interconnect, power, price.",
      "willfit device"};
  app.footer(
      std::string(
          "Examples:\n  willfit device \"rtx 4090\"\n  willfit device m2-max-64gb --json\n") +
      kListingHelpTail);
  std::string name;
  std::string devices_file;
  std::string gpu_limit_text;
  std::string units_text;
  bool json = false;
  app.add_option("NAME", name, "A device name, id or alias ('rtx 4090', 'h100-sxm')")->required();
  app.add_option("--gpu-limit", gpu_limit_text,
                 "Memory the GPU may use, replacing the usable-memory rule");
  app.add_option("--devices", devices_file, "Device database file replacing the bundled one");
  app.add_flag("--json", json, "Print one JSON document (schema_version 1)");
  add_units_option(app, units_text);
  if (const int code = parse_cli(app, args, ctx); code >= 0) {
    return code;
  }
  const auto units = units_from_option(units_text);
  if (!units) {
    return fail(ctx, units.error().message);
  }
  UsableOptions options;
  if (!gpu_limit_text.empty()) {
    auto limit = parse_capacity(gpu_limit_text);
    if (!limit) {
      return fail(ctx, "--gpu-limit: " + limit.error().message);
    }
    options.gpu_limit = *limit;
  }
  DeviceSource source(ctx.env, devices_file);
  auto db = source.get();
  if (!db) {
    return fail(ctx, db.error().message);
  }
  auto device = (*db)->find(name);
  if (!device) {
    return fail(ctx, device.error().message);
  }
  DeviceSet one;
  one.devices.push_back(*device);
  if (auto limit = check_gpu_limit(options.gpu_limit, one, *units); !limit) {
    return fail(ctx, limit.error().message);
  }
  const DeviceSheet sheet = make_device_sheet(*device, options, *units);
  ctx.out << (json ? render_device_sheet_json(sheet, **db)
                   : render_device_sheet_text(sheet, *units));
  return 0;
}

}  // namespace willfit::app
