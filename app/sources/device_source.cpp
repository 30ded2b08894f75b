#include "sources/device_source.hpp"

#include <algorithm>
#include <atomic>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "willfit/core/text.hpp"

#include "sources/embedded_data.hpp"

namespace willfit::app {
namespace {

constexpr std::uint64_t kMaxFileBytes = 64u << 20;
constexpr const char* kEmbeddedOrigin = "data/devices.json (embedded)";

// Set once embedded_device_db() has parsed: from then on a lookup uses the
// parsed copy rather than scanning the bytes again.
std::atomic<bool> embedded_parsed{false};

// `via` says how the file was named (--devices, WILLFIT_DEVICES), so an error
// points at the setting to fix.
Expected<DeviceDb> load_file(const Environment& env, const std::string& path,
                             const std::string& via) {
  auto bytes = env.read_file(path, kMaxFileBytes);
  if (!bytes) {
    return make_error("devices file (" + via + "): " + bytes.error().message);
  }
  return parse_device_db(*bytes, path);
}

Expected<DeviceDb> load(const Environment& env, const std::string& devices_file) {
  Expected<DeviceDb> base = DeviceDb{};
  if (!devices_file.empty()) {
    base = load_file(env, devices_file, "--devices");
  } else if (auto var = env.get("WILLFIT_DEVICES"); var && !var->empty()) {
    base = load_file(env, *var, "WILLFIT_DEVICES");
  } else {
    base = embedded_device_db();
  }
  if (!base) {
    return base;
  }
  const std::string user = user_devices_path(env);
  if (user.empty()) {
    return base;
  }
  auto bytes = env.read_file(user, kMaxFileBytes);
  if (!bytes) {
    // No user file is the normal case; any other failure is worth an error.
    if (bytes.error().message.find("No such file") != std::string::npos) {
      return base;
    }
    return make_error("devices file: " + bytes.error().message);
  }
  auto overlay = parse_device_db(*bytes, user);
  if (!overlay) {
    return overlay.error();
  }
  return base->merged_with(*overlay);
}

}  // namespace

DeviceSource::DeviceSource(const Environment& env, std::string devices_file)
    : env_(env), devices_file_(std::move(devices_file)) {}

Expected<const DeviceDb*> DeviceSource::get() {
  if (!db_) {
    db_.emplace(load(env_, devices_file_));
  }
  if (!*db_) {
    return db_->error();
  }
  return &db_->value();
}

bool DeviceSource::embedded_only() {
  if (!embedded_only_) {
    embedded_only_ = check_embedded_only();
  }
  return *embedded_only_;
}

bool DeviceSource::check_embedded_only() const {
  if (!devices_file_.empty()) {
    return false;
  }
  if (auto var = env_.get("WILLFIT_DEVICES"); var && !var->empty()) {
    return false;
  }
  const std::string user = user_devices_path(env_);
  if (user.empty()) {
    return true;
  }
  auto bytes = env_.read_file(user, 1);
  return !bytes && bytes.error().message.find("No such file") != std::string::npos;
}

Expected<Device> DeviceSource::find(const std::string& name) {
  if (!db_ && embedded_only()) {
    if (embedded_parsed) {
      const auto& db = embedded_device_db();
      return db ? db->find(name) : Expected<Device>(db.error());
    }
    return embedded_device_scan().find(name);
  }
  auto db = get();
  if (!db) {
    return db.error();
  }
  return (*db)->find(name);
}

NameMatch DeviceSource::match(const std::string& name) {
  if (!db_ && embedded_only()) {
    if (embedded_parsed) {
      const auto& db = embedded_device_db();
      return db ? db->match(name) : NameMatch::Unknown;
    }
    return embedded_device_scan().match(name);
  }
  auto db = get();
  return db ? (*db)->match(name) : NameMatch::Unknown;
}

std::vector<std::string> DeviceSource::variants(const std::string& name,
                                                const std::string& chosen) {
  std::vector<std::string> out;
  const auto ids = [&](const DeviceDb& db) {
    for (const Device* d : db.variants(name, chosen)) {
      out.push_back(d->id);
    }
  };
  if (!db_ && embedded_only()) {
    if (embedded_parsed) {
      if (const auto& db = embedded_device_db()) {
        ids(*db);
      }
      return out;
    }
    return embedded_device_scan().variants(name, chosen);
  }
  if (auto db = get()) {
    ids(**db);
  }
  return out;
}

Expected<bool> check_vendor(const DeviceDb& db, const std::string& vendor) {
  const std::string want = to_lower(trim(vendor));
  const auto vendors = db.vendors();
  if (want.empty() || std::find(vendors.begin(), vendors.end(), want) != vendors.end()) {
    return true;
  }
  const std::string hint = did_you_mean(closest(want, vendors, 1));
  return make_error(fmt::format("unknown vendor '{}'{}{} (the vendors: {})", trim(vendor),
                                hint.empty() ? "" : ": ", hint, fmt::join(vendors, ", ")));
}

std::string user_devices_path(const Environment& env) {
  if (auto xdg = env.get("XDG_CONFIG_HOME"); xdg && !xdg->empty()) {
    return *xdg + "/willfit/devices.json";
  }
  if (auto home = env.get("HOME"); home && !home->empty()) {
    return *home + "/.config/willfit/devices.json";
  }
  return "";
}

const Expected<DeviceDb>& embedded_device_db() {
  static const Expected<DeviceDb> db = [] {
    auto parsed = parse_device_db(embedded_devices_json(), kEmbeddedOrigin);
    embedded_parsed = true;
    return parsed;
  }();
  return db;
}

const DeviceScan& embedded_device_scan() {
  static const DeviceScan scan(embedded_devices_json(), kEmbeddedOrigin);
  return scan;
}

std::string embedded_devices_summary() {
  const std::string version = peek_data_version(embedded_devices_json());
  return fmt::format("devices data {} (data/devices.json, embedded)",
                     version.empty() ? "of unknown date" : version);
}

}  // namespace willfit::app
