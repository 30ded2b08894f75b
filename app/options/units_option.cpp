#include "options/units_option.hpp"

#include <CLI/CLI.hpp>

namespace willfit::app {

void add_units_option(CLI::App& app, std::string& text) {
  app.add_option("--units", text,
                 "Every memory figure in GB (si, 10^9 bytes) or GiB (iec, 2^30 bytes); default "
                 "both, labelled. GB/s stays decimal")
      ->option_text("si|iec");
}

Expected<UnitSystem> units_from_option(const std::string& text) {
  if (text.empty()) {
    return UnitSystem::Mixed;
  }
  return parse_unit_system(text);
}

}  // namespace willfit::app
