// Fuzz target: --device strings ("2x rtx 3090", "h100:8", "rtx 4090+rtx 3090",
// "24gb", "ryzen ai max+ 395", ...). parse_device_spec on arbitrary bytes, each
// named part looked up in the embedded database (parsed once per process, as
// the CLI's sources keep it), and the CLI's whole way, resolve_devices with an
// empty fake environment (no detection). The quick scan that a one-shot CLI
// run uses instead of the parse (DeviceScan, built once) must give the same
// device or the same error for every part, and DeviceDb::match must agree
// with find. The contract: an error is a non-empty message; a spec that
// parses splits into named parts with counts in range; a device set has 1 to
// kMaxDeviceCount devices, each with a name and memory, and its capacity is
// their sum.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "sources/device_source.hpp"
#include "sources/embedded_data.hpp"
#include "sources/environment.hpp"
#include "sources/resolve.hpp"
#include "willfit/devices/device_db.hpp"

using willfit::fuzz::check;

namespace {

const willfit::DeviceDb& database() {
  const auto& parsed = willfit::app::embedded_device_db();
  check(parsed.ok(), "the embedded device database does not parse");
  return *parsed;
}

const willfit::DeviceScan& quick_scan() {
  static const willfit::DeviceScan scan(willfit::app::embedded_devices_json(), database().origin());
  return scan;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (const auto parts = willfit::parse_device_spec(text)) {
    check(!parts->empty(), "a device spec parsed into no parts", text);
    for (const auto& p : *parts) {
      check(p.count >= 1 && p.count <= willfit::kMaxDeviceCount, "device count out of range", text);
      check(!p.name.empty(), "a device part has no name", text);
      if (willfit::is_capacity_text(p.name)) {
        continue;
      }
      const auto full = database().find(p.name);
      const auto match = database().match(p.name);
      if (full) {
        // System RAM entries have no size of their own (0): the resolver asks for one.
        check(full->memory_bytes >= 0 && !full->name.empty(), "a database device is empty", text);
        check(match == willfit::NameMatch::Found, "match disagrees with find", text);
      } else {
        check(!full.error().message.empty(), "empty error message", text);
        check(match == (willfit::is_ambiguous_device_error(full.error())
                            ? willfit::NameMatch::Ambiguous
                            : willfit::NameMatch::Unknown),
              "match disagrees with find", text);
      }
      const auto quick = quick_scan().find(p.name);
      check(full.ok() == quick.ok(), "the quick scan and the database disagree", text);
      check(full.ok() ? full->id == quick->id : full.error().message == quick.error().message,
            "the quick scan and the database give different answers", text);
      check(quick_scan().match(p.name) == match, "the quick scan's match disagrees", text);
    }
  } else {
    check(!parts.error().message.empty(), "empty error message", text);
  }
  const willfit::app::FakeEnvironment env;
  const auto set = willfit::app::resolve_devices(text, env);
  if (!set) {
    check(!set.error().message.empty(), "empty error message", text);
    return 0;
  }
  check(!set->devices.empty(), "a resolved device set is empty", text);
  check(set->devices.size() <= static_cast<std::size_t>(willfit::kMaxDeviceCount),
        "more devices than the limit", text);
  willfit::Bytes total = 0;
  for (const auto& d : set->devices) {
    check(d.memory_bytes > 0, "a device without memory", text);
    check(!d.name.empty(), "a device without a name", text);
    total += d.memory_bytes;
  }
  check(set->capacity() == total, "capacity is not the sum of the devices", text);
  (void)set->display_name();
  return 0;
}
