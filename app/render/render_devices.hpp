// Renderers for the device commands: the `willfit devices` table and the
// `willfit device NAME` spec sheet, as text and as JSON. Format only; every
// figure comes from the database or from lib/willfit/device_sheet.
#pragma once

#include <string>
#include <vector>

#include "willfit/devices/device.hpp"
#include "willfit/devices/device_db.hpp"
#include "willfit/planner/device_sheet.hpp"

namespace willfit::app {

// `units`: memory as sold (the default), or in GB (si) or GiB (iec).
std::string render_device_table_text(const std::vector<const Device*>& devices, const DeviceDb& db,
                                     UnitSystem units = UnitSystem::Mixed);
std::string render_device_table_json(const std::vector<const Device*>& devices, const DeviceDb& db);
std::string render_device_sheet_text(const DeviceSheet& sheet,
                                     UnitSystem units = UnitSystem::Mixed);
std::string render_device_sheet_json(const DeviceSheet& sheet, const DeviceDb& db);

}  // namespace willfit::app
