// Fuzz target: the device and model database loaders and the --device
// syntax. Any document is a database or one error line naming the origin;
// lookups in a parsed database never crash.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "willfit/devices/device_db.hpp"
#include "willfit/models/model_db.hpp"

using willfit::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (const auto devices = willfit::parse_device_db(text, "fuzz.json"); devices) {
    (void)devices->find("rtx 4090");
    (void)devices->find(text.substr(0, 64));
  } else {
    check(devices.error().message.find("fuzz.json") != std::string::npos,
          "device database error does not name the file");
  }
  (void)willfit::find_device_in(text, "fuzz.json", "rtx 4090");
  (void)willfit::peek_data_version(text);
  if (const auto models = willfit::ModelDb::parse(text, "fuzz.json"); !models) {
    check(!models.error().message.empty(), "empty error message");
  }
  if (const auto spec = willfit::parse_device_spec(text)) {
    for (const auto& part : *spec) {
      check(part.count >= 1 && part.count <= willfit::kMaxDeviceCount, "device count out of range");
    }
  }
  return 0;
}
