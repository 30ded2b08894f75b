#include "units_option.hpp"

#include <CLI/CLI.hpp>

namespace willfit::app {

void add_units_option(CLI::App& app, std::string& text) {
  app.add_option("--units", text,
                 "Memory units: si (GB = 10^9 bytes) or iec (GiB = 2^30 bytes) for every figure; "
                 "default GiB for device memory, GB for decimal arithmetic. Rates (GB/s) stay "
                 "decimal")
      ->option_text("si|iec");
}

Expected<UnitSystem> units_from_option(const std::string& text) {
  if (text.empty()) {
    return UnitSystem::Mixed;
  }
  return parse_unit_system(text);
}

}  // namespace willfit::app
