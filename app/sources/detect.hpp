// --device auto: finds the local GPU(s) by asking the tools that know
// (nvidia-smi, rocm-smi, macOS sysctl/system_profiler), else falls back to
// system memory from /proc/meminfo. The tools run through the Environment,
// so tests feed canned outputs; the parsing is in lib/willfit/detect_parse.
#pragma once

#include <optional>

#include "sources/device_source.hpp"
#include "sources/environment.hpp"
#include "willfit/core/expected.hpp"
#include "willfit/devices/device.hpp"

namespace willfit::app {

struct Detection {
  DeviceSet devices;         // with notes saying what was found and how
  std::optional<Bytes> ram;  // system RAM installed (as --ram gives it), for discrete GPUs
};

// `units`: how the notes print memory (--units).
Expected<Detection> detect_devices(const Environment& env, DeviceSource& source,
                                   UnitSystem units = UnitSystem::Mixed);

}  // namespace willfit::app
