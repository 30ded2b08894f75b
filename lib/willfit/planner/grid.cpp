#include "willfit/planner/grid.hpp"

#include <fmt/format.h>

#include "willfit/core/text.hpp"
#include "willfit/core/units.hpp"

namespace willfit {

Expected<std::vector<std::string>> split_list(std::string_view text, std::string_view option) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    std::string item = trim(text.substr(start, comma - start));
    if (item.empty()) {
      return make_error(fmt::format(
          "empty element in {} '{}': separate the values to compare with single commas, e.g. "
          "'a,b'",
          option, trim(text)));
    }
    out.push_back(std::move(item));
    if (comma == text.size()) {
      break;
    }
    start = comma + 1;
  }
  return out;
}

std::string_view grid_cell_word(const Estimate& e) {
  if (!e.device_known) {
    return "needs";
  }
  switch (e.verdict) {
    case Verdict::Fits:
      return "fits";
    case Verdict::Offload:
      return "offload";
    case Verdict::NoFit:
      break;
  }
  return "no";
}

std::string grid_cell_text(const Estimate& e, UnitSystem units) {
  return fmt::format("{}{} {}", grid_cell_word(e), grid_cell_tight(e) ? "*" : "",
                     format_memory(e.memory.total(), units));
}

bool grid_cell_tight(const Estimate& e) {
  return e.device_known && (e.tight || e.over_soft_limit());
}

bool grid_cell_ok(const Estimate& e) {
  return !e.device_known || e.fits();
}

}  // namespace willfit
