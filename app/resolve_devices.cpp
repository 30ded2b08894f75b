// --device as typed -> a DeviceSet: a raw capacity for now.
#include "resolve.hpp"

#include "willfit/text.hpp"

namespace willfit::app {

Expected<DeviceSet> resolve_devices(const std::string& text, const Environment& /*env*/) {
  auto device = raw_device(text);
  if (!device) {
    return make_error("unknown device '" + trim(text) +
                      "': give a memory size like '8gb', '24GiB' or '512mb'");
  }
  DeviceSet set;
  set.text = to_lower(trim(text));
  set.devices.push_back(*device);
  return set;
}

}  // namespace willfit::app
