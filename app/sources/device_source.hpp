// Where the device database comes from. The base is, first found: the
// --devices FILE option, the WILLFIT_DEVICES variable, the copy embedded in
// the binary. A user file ($XDG_CONFIG_HOME/willfit/devices.json, else
// $HOME/.config/willfit/devices.json) then adds or replaces entries by id.
// Loaded once, and only when a command needs a named device.
#pragma once

#include <optional>
#include <string>

#include "sources/environment.hpp"
#include "willfit/core/expected.hpp"
#include "willfit/devices/device_db.hpp"

namespace willfit::app {

class DeviceSource {
 public:
  // `devices_file`: the --devices option, "" when not given.
  DeviceSource(const Environment& env, std::string devices_file);

  // The database, loaded on first use; an error names the file and entry.
  Expected<const DeviceDb*> get();

  // One device by name, as DeviceDb::find. With only the embedded copy in
  // play (no --devices, WILLFIT_DEVICES or user file) it scans instead of
  // parsing the whole database (embedded_device_scan), which keeps
  // named-device runs close to the speed of plain ones.
  Expected<Device> find(const std::string& name);

  // As DeviceDb::match (find's answer without its error text); Unknown when
  // the database does not load (find then says why).
  NameMatch match(const std::string& name);

  // As DeviceDb::variants, as ids: the other parts `name` names beside the
  // `chosen` one find gave ("h100": h100-pcie, h100-nvl).
  std::vector<std::string> variants(const std::string& name, const std::string& chosen);

 private:
  const Environment& env_;
  std::string devices_file_;
  // True when only the embedded copy is in play (asked of the environment once).
  [[nodiscard]] bool embedded_only();
  [[nodiscard]] bool check_embedded_only() const;
  std::optional<bool> embedded_only_;
  std::optional<Expected<DeviceDb>> db_;
};

// --vendor must name a vendor of the database ("nvidai" is an error with a
// "did you mean", not an empty answer). "" passes.
Expected<bool> check_vendor(const DeviceDb& db, const std::string& vendor);

// The user file's path, or "" when neither XDG_CONFIG_HOME nor HOME is set.
std::string user_devices_path(const Environment& env);

// The embedded database, parsed once per process (its bytes are compiled in and
// never change), so a process that answers many questions (the tests, the fuzz
// targets) parses it once. One CLI run that needs a single device scans
// instead (DeviceSource::find).
const Expected<DeviceDb>& embedded_device_db();

// The embedded database scanned once per process (DeviceScan): a CLI run
// whose --device has several pieces scans the bytes once, not per piece.
const DeviceScan& embedded_device_scan();

// "devices data 2026-11-29 (data/devices.json, embedded)", for --version.
std::string embedded_devices_summary();

}  // namespace willfit::app
