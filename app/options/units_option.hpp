// --units si|iec: how every memory figure prints, one option shared by every
// command that prints memory. Registers the option on a CLI11 app and turns
// the text into a lib value; the renderers and lib take that value.
#pragma once

#include <string>

#include "willfit/core/expected.hpp"
#include "willfit/core/units.hpp"

namespace CLI {
class App;
}

namespace willfit::app {

// Adds `--units` with its help line, storing what was typed in `text`.
void add_units_option(CLI::App& app, std::string& text);

// "" (not given): the default mix (GiB for device memory, GB for decimal
// arithmetic); "si" or "iec"; anything else is a one-line error.
Expected<UnitSystem> units_from_option(const std::string& text);

}  // namespace willfit::app
