// Renderers for a grid of answers (willfit with comma lists): a table of
// verdicts and totals for people, a JSON array of plain answers for scripts.
// They format only: every cell is a FitReport made by make_fit_report.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "willfit/planner/report.hpp"

namespace willfit::app {

// One row: a model at a precision (and a context when contexts vary), one
// report per column (device set, or one column without a device).
struct GridRow {
  std::string model;
  std::string precision;
  std::int64_t context = 0;
  std::vector<FitReport> cells;
};

struct GridView {
  std::vector<std::string> columns;  // device set names; one "need" column without --device
  std::vector<GridRow> rows;
  std::size_t models = 0;  // how many values each axis had, for the header line
  std::size_t precisions = 0;
  std::size_t contexts = 0;
  bool devices_given = false;
};

// The header line, the table and a legend. Colour (green fits, yellow
// offload, red no) only when `color`.
std::string render_grid_text(const GridView& grid, bool color);

// A JSON array of the plain answer's documents (render_fit_json), row by row
// and, within a row, column by column.
std::string render_grid_json(const GridView& grid);

}  // namespace willfit::app
