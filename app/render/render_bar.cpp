#include "render/render_bar.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include <fmt/format.h>

namespace willfit::app {
namespace {

bool is_utf8_locale(const Environment& env) {
  for (const char* var : {"LC_ALL", "LC_CTYPE", "LANG"}) {
    const auto value = env.get(var);
    if (value && !value->empty()) {
      std::string v = *value;
      std::transform(v.begin(), v.end(), v.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      return v.find("utf-8") != std::string::npos || v.find("utf8") != std::string::npos;
    }
  }
  return false;  // the C locale
}

struct Segment {
  const char* name;
  Bytes bytes;
  const char* block;  // Unicode
  char letter;        // ASCII
  const char* color;  // ANSI SGR
};

}  // namespace

Expected<BarStyle> bar_style(const Environment& env, const std::string& color, bool ascii) {
  BarStyle s;
  s.unicode = !ascii && is_utf8_locale(env);
  if (color == "always") {
    s.color = true;
  } else if (color == "never") {
    s.color = false;
  } else if (color == "auto") {
    const auto no_color = env.get("NO_COLOR");
    const auto term = env.get("TERM");
    s.color =
        env.stdout_is_terminal() && !(no_color && !no_color->empty()) && !(term && *term == "dumb");
  } else {
    return make_error("invalid --color '" + color + "': use auto, always or never");
  }
  return s;
}

std::string render_memory_bar(const Estimate& e, const BarStyle& style) {
  if (!e.device_known || e.usable <= 0) {
    return "";
  }
  const Bytes need = e.memory.total();
  const Bytes free_bytes = std::max<Bytes>(0, e.usable - need);
  const Bytes over_bytes = std::max<Bytes>(0, need - e.usable);
  // Overflow is drawn over the end of the need: the bar spans the larger of
  // usable and need, and the cells past "usable" are marked as overflow.
  // The projector (a vision or speech encoder) is its own segment, as it is
  // its own row of the breakdown.
  const std::array<Segment, 6> parts{{
      {"weights", e.memory.weights, "\u2588", 'W', "34"},
      {"projector", e.memory.projector, "\u2584", 'P', "94"},
      {"KV cache", e.memory.kv_cache, "\u2593", 'K', "35"},
      {"compute", e.memory.compute, "\u2592", 'C', "33"},
      {"overhead+margin", e.memory.overhead + e.memory.margin, "\u2591", 'O', "36"},
      {"free", free_bytes, "\u00b7", '.', "2"},
  }};
  const Bytes scale = std::max(e.usable, need);
  const auto cell_at = [&](Bytes cumulative) {
    return static_cast<int>(
        (static_cast<double>(cumulative) * style.width) / static_cast<double>(scale) + 0.5);
  };
  const int usable_cells = cell_at(e.usable);
  std::string bar = "  [";
  Bytes cumulative = 0;
  int drawn = 0;
  for (const auto& p : parts) {
    cumulative += p.bytes;
    const int end = cell_at(cumulative);
    for (; drawn < end; ++drawn) {
      const bool over = drawn >= usable_cells;
      const std::string glyph = over ? (style.unicode ? "\u00d7" : "!")
                                     : (style.unicode ? p.block : std::string(1, p.letter));
      const char* color = over ? "31" : p.color;
      bar += style.color ? fmt::format("\x1b[{}m{}\x1b[0m", color, glyph) : glyph;
    }
  }
  bar += fmt::format("] {} of {} usable\n", format_memory(need, style.units),
                     format_memory(e.usable, style.units));
  std::string legend = "   ";
  for (const auto& p : parts) {
    if (p.bytes <= 0) {
      continue;
    }
    const std::string key = style.unicode ? p.block : std::string(1, p.letter);
    legend +=
        fmt::format(" {} {} {}", style.color ? fmt::format("\x1b[{}m{}\x1b[0m", p.color, key) : key,
                    p.name, format_memory(p.bytes, style.units));
  }
  if (over_bytes > 0) {
    const std::string key = style.unicode ? "\u00d7" : "!";
    legend +=
        fmt::format(" {} over by {}", style.color ? fmt::format("\x1b[31m{}\x1b[0m", key) : key,
                    format_memory(over_bytes, style.units));
  }
  return "\nMemory:\n" + bar + legend + "\n";
}

}  // namespace willfit::app
