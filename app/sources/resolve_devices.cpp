// --device as typed -> a DeviceSet: "auto" (detection), capacities ("8gb"),
// names from the device database ("rtx 4090", "m2 max 64gb"), and several
// devices ("2x rtx 3090", "rtx 4090+rtx 3090", "h100:8"). The database is
// loaded only when a name is asked for.
#include <algorithm>

#include <fmt/format.h>

#include "sources/detect.hpp"
#include "sources/device_source.hpp"
#include "sources/resolve.hpp"
#include "willfit/core/text.hpp"
#include "willfit/devices/device_db.hpp"
#include "willfit/planner/device_sheet.hpp"

namespace willfit::app {
namespace {

std::string describe(const Device& d, UnitSystem units) {
  std::string s =
      fmt::format("device {}: {}, {}, {} as sold = {}", d.id, d.name, kind_label(d.kind),
                  d.memory_marketed, format_memory(d.memory_bytes, units));
  if (!d.memory_type.empty()) {
    s += " " + d.memory_type;
  }
  if (d.bandwidth_gb_per_s) {
    s += fmt::format(", {:g} GB/s", *d.bandwidth_gb_per_s);
  }
  return s;
}

// Lookups by name, each done once: parse_device_spec asks whether a piece
// names a device before it reads a count (match: no error text, so no "did
// you mean" scan for the pieces that are not names), and the device is then
// taken from here.
class Lookups {
 public:
  explicit Lookups(DeviceSource& source) : source_(source) {}
  Expected<Device> find(const std::string& name) {
    for (const auto& [n, d] : done_) {
      if (n == name) {
        return d;
      }
    }
    done_.emplace_back(name, source_.find(name));
    return done_.back().second;
  }
  std::vector<std::string> variants(const std::string& name, const std::string& chosen) {
    return source_.variants(name, chosen);
  }
  NameMatch match(std::string_view name) {
    for (const auto& [n, d] : done_) {
      if (n == name) {
        if (d) {
          return NameMatch::Found;
        }
        return is_ambiguous_device_error(d.error()) ? NameMatch::Ambiguous : NameMatch::Unknown;
      }
    }
    return source_.match(std::string(name));
  }

 private:
  DeviceSource& source_;
  std::vector<std::pair<std::string, Expected<Device>>> done_;
};

Expected<Device> one_device(const std::string& name, Lookups& lookups, UnitSystem units,
                            std::optional<Bytes> ram) {
  if (is_capacity_text(name)) {
    return raw_device(name, units);
  }
  auto d = lookups.find(name);
  if (!d) {
    return d.error();
  }
  if (d->memory_bytes <= 0) {
    if (ram) {
      // The RAM the user gave is the size of the memory the model runs in.
      Device sized = sized_system_memory(*d, static_cast<double>(*ram) / static_cast<double>(kGiB));
      sized.memory_marketed += " (--ram)";
      return sized;
    }
    return make_error(fmt::format(
        "'{}' is system memory ({}) without a fixed size: add it, e.g. --device \"{} 64gb\" "
        "or --ram 64gb, or give --device auto to read this machine's",
        trim(name), d->name, d->id));
  }
  return d;
}

// A name several parts answer to ("h100": SXM5, PCIe, NVL) finds the one the
// data gives it, the form clouds rent (data/README.md, `aliases`); the
// answer says so and names the others, with their memory and bandwidth, so
// the choice is never silent (docs/devices.md, "Names several parts share").
std::string variants_note(const std::string& typed, const Device& chosen, Lookups& lookups,
                          UnitSystem units) {
  std::vector<std::string> others;
  for (const auto& id : lookups.variants(typed, chosen.id)) {
    auto other = lookups.find(id);
    if (!other) {
      continue;
    }
    std::string text = fmt::format("{} ({}: {}", other->name, other->id,
                                   format_memory(other->memory_bytes, units));
    if (other->bandwidth_gb_per_s) {
      text += fmt::format(", {:g} GB/s", *other->bandwidth_gb_per_s);
    }
    others.push_back(text + ")");
  }
  if (others.empty()) {
    return "";
  }
  std::string list;
  for (std::size_t i = 0; i < others.size(); ++i) {
    list += (i == 0 ? "" : i + 1 == others.size() ? " and " : ", ") + others[i];
  }
  return fmt::format("; '{}' also names {}: this answer assumes {}; name another for its figures",
                     trim(typed), list, chosen.id);
}

}  // namespace

Expected<DeviceSet> resolve_devices(const std::string& text, const Environment& env,
                                    const std::string& devices_file, UnitSystem units,
                                    std::optional<Bytes> ram) {
  DeviceSource source(env, devices_file);
  if (to_lower(trim(text)) == "auto") {
    auto det = detect_devices(env, source, units);
    if (!det) {
      return det.error();
    }
    det->devices.system_ram = det->ram;
    return std::move(det->devices);
  }
  Lookups lookups(source);
  auto parts = parse_device_spec(text, [&](std::string_view name) { return lookups.match(name); });
  if (!parts) {
    return parts.error();
  }
  DeviceSet set;
  set.text = to_lower(trim(text));
  for (const auto& part : *parts) {
    auto d = one_device(part.name, lookups, units, ram);
    if (!d) {
      // Name the whole --device text when the failing part is only a piece of it.
      if (parts->size() > 1 || part.count > 1) {
        return make_error(fmt::format("in --device '{}': {}", trim(text), d.error().message));
      }
      return d.error();
    }
    if (set.devices.size() + static_cast<std::size_t>(part.count) >
        static_cast<std::size_t>(kMaxDeviceCount)) {
      return make_error(
          fmt::format("too many devices in '{}': at most {}", trim(text), kMaxDeviceCount));
    }
    if (d->kind != DeviceKind::Raw) {
      std::string note = describe(*d, units);
      note += variants_note(part.name, *d, lookups, units);
      if (std::find(set.notes.begin(), set.notes.end(), note) == set.notes.end()) {
        set.notes.push_back(note);
      }
    }
    set.devices.insert(set.devices.end(), static_cast<std::size_t>(part.count), *d);
  }
  return set;
}

}  // namespace willfit::app
