// The speed section of the fit answer, in text and in JSON. Separate from
// render_text.cpp / render_json.cpp, which call it with one line each.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "willfit/core/units.hpp"
#include "willfit/speed/speed.hpp"

namespace willfit::app {

// A rate or time to 3 significant digits without exponents: 5230, 41.2, 7.85, 0.412.
std::string speed_figure(double x);

// A rate or time in JSON: rounded to 4 significant digits (a number still),
// so JSON stays stable across compilers; every speed key of every command
// goes through it.
double rounded_speed(double x);

// "\nSpeed ...\n" lines, or one line saying why speed is not estimated.
// `units`: how the weight bytes read per token print (--units); rates stay GB/s.
// `processor` names what waits on memory ("GPU", "CPU": processor_word).
std::string render_speed_text(const SpeedEstimate& speed, UnitSystem units = UnitSystem::Mixed,
                              std::string_view processor = "GPU");

// The JSON object `speed` (keys documented in docs/json.md, "Speed"; schema
// docs/schema/fit.schema.json).
nlohmann::ordered_json speed_json(const SpeedEstimate& speed);

}  // namespace willfit::app
