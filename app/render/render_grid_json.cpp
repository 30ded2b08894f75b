// The grid for scripts: a JSON array whose elements are the plain answer's
// documents, so every filter written for `willfit MODEL --json` works on
// each element (`jq '.[] | .result.verdict'`).
#include <nlohmann/json.hpp>

#include "render/render.hpp"
#include "render/render_grid.hpp"

namespace willfit::app {

std::string render_grid_json(const GridView& grid) {
  auto cells = nlohmann::ordered_json::array();
  for (const auto& row : grid.rows) {
    for (const auto& cell : row.cells) {
      // One renderer for a cell and a plain answer: the same keys, by construction.
      cells.push_back(nlohmann::ordered_json::parse(render_fit_json(cell)));
    }
  }
  return cells.dump(2) + "\n";
}

}  // namespace willfit::app
