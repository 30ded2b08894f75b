// The speed options of the fit command (--bandwidth, --tflops,
// --ram-bandwidth, --split): registered on a CLI11 app and turned into lib
// values. Kept apart from cmd_fit.cpp so the fit command needs two lines.
#pragma once

#include <string>

#include "sources/environment.hpp"
#include "willfit/devices/device.hpp"
#include "willfit/core/expected.hpp"
#include "willfit/speed/speed.hpp"

namespace CLI {
class App;
}

namespace willfit::app {

struct SpeedOptionText {
  std::string bandwidth;
  std::string tflops;
  std::string ram_bandwidth;
  std::string split = "layer";
};

void add_speed_options(CLI::App& app, SpeedOptionText& text);

// Applies --bandwidth and --tflops to every device (a bare capacity has
// neither) and reads --ram-bandwidth (GB/s, or a system-memory platform of
// the device database such as ddr5-5600-dual) and --split.
Expected<SpeedSettings> apply_speed_options(const SpeedOptionText& text, DeviceSet& devices);

}  // namespace willfit::app
