// The memory bar: one line showing how the device's usable memory splits into
// weights, KV cache, compute buffers, overhead (runtime overhead + margin)
// and free space, or how far the need overflows it, with a legend.
// Unicode blocks on a UTF-8 terminal, ASCII letters otherwise; colour only
// when asked for or on a terminal, never with NO_COLOR or --color never.
#pragma once

#include <optional>
#include <string>

#include "sources/environment.hpp"
#include "willfit/core/expected.hpp"
#include "willfit/planner/report.hpp"

namespace willfit::app {

struct BarStyle {
  bool unicode = true;
  bool color = false;
  int width = 50;                        // cells for the usable memory (or the need, when larger)
  UnitSystem units = UnitSystem::Mixed;  // how the figures print (--units)
};

// From --color (auto|always|never), --ascii and the environment: colour for
// "always", or "auto" on a terminal without NO_COLOR (https://no-color.org)
// and TERM=dumb; Unicode unless --ascii or the locale (LC_ALL, LC_CTYPE, LANG,
// first set) is not UTF-8.
Expected<BarStyle> bar_style(const Environment& env, const std::string& color, bool ascii);

// The bar and its legend (two lines), or "" when no device was given.
std::string render_memory_bar(const Estimate& e, const BarStyle& style);

}  // namespace willfit::app
