// The grid as a table: one line per model x precision (x context), one column
// per device set, each cell the verdict and the total the estimate needs.
#include <algorithm>

#include <fmt/format.h>

#include "render/render_grid.hpp"
#include "render/render_speed.hpp"
#include "willfit/inference/runtime.hpp"
#include "willfit/planner/grid.hpp"

namespace willfit::app {
namespace {

std::string plural(std::size_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// ANSI SGR colour per verdict: green fits, yellow offload, red does not fit;
// none for a need without a device.
const char* cell_color(const Estimate& e) {
  const std::string_view word = grid_cell_word(e);
  return word == "fits" ? "32" : word == "offload" ? "33" : word == "no" ? "31" : nullptr;
}

std::string pad(const std::string& s, std::size_t width) {
  return s + std::string(width > s.size() ? width - s.size() : 0, ' ');
}

// The decode speed next to a verdict that runs ("fits", "offload"): one
// sequence, the same estimate as the plain answer's Speed section; "-" where
// speed is unknown (a bare capacity without --bandwidth). A "no" cell whose
// estimate still has a speed (the offload plan's, were the RAM there: the
// JSON cell's speed.decode_tokens_per_s) shows it in brackets, so the text
// and the JSON tell the same figure.
std::string cell_speed(const FitReport& r) {
  if (!r.estimate.device_known || !r.speed.estimable) {
    return "-";
  }
  const std::string figure = speed_figure(r.speed.decode_tokens_per_s) + " tok/s";
  return r.estimate.verdict == Verdict::NoFit ? "(" + figure + ")" : figure;
}

// Whether any cell shows a bracketed speed (cell_speed).
bool any_bracketed(const GridView& grid) {
  return std::any_of(grid.rows.begin(), grid.rows.end(), [](const GridRow& row) {
    return std::any_of(row.cells.begin(), row.cells.end(),
                       [](const FitReport& c) { return cell_speed(c).starts_with("("); });
  });
}

// The header's context: one figure when every cell ran at it; Ollama's
// default differs by GPU memory (and each model's trained length), so a
// grid of Ollama tags may hold several: the header then says so and gives
// the range (each cell's JSON has its own query.context_resolved_tokens).
std::string header_context(const GridView& grid) {
  std::int64_t lo = grid.rows.front().cells.front().estimate.context;
  std::int64_t hi = lo;
  for (const auto& row : grid.rows) {
    for (const FitReport& c : row.cells) {
      lo = std::min(lo, c.estimate.context);
      hi = std::max(hi, c.estimate.context);
    }
  }
  if (lo == hi) {
    return fmt::format(", context {}", lo);
  }
  return fmt::format(
      ", context {} to {} (Ollama's default per device and model; --context sets one)", lo, hi);
}

// Each cell: the verdict and total, padded to the column's widest, then the
// speed right-aligned, so both line up down a column.
void add_speed(std::vector<std::vector<std::string>>& lines, const GridView& grid,
               std::size_t label_columns) {
  for (std::size_t c = 0; c < grid.columns.size(); ++c) {
    std::size_t verdict_width = 0;
    std::size_t speed_width = 0;
    for (std::size_t r = 0; r < lines.size(); ++r) {
      verdict_width = std::max(verdict_width, lines[r][label_columns + c].size());
      speed_width = std::max(speed_width, cell_speed(grid.rows[r].cells[c]).size());
    }
    for (std::size_t r = 0; r < lines.size(); ++r) {
      std::string& cell = lines[r][label_columns + c];
      cell = fmt::format("{}  {:>{}}", pad(cell, verdict_width), cell_speed(grid.rows[r].cells[c]),
                         speed_width);
    }
  }
}

// Where the table names the runtime: the runtime follows the precision and
// the device (llama.cpp for BF16 on a Mac, transformers on a GeForce), so a
// grid may hold several. One for every cell goes in the header; one per row
// in a RUNTIME column; one per device in the column's head; else each cell
// names its own. A label never covers a cell that ran another runtime.
struct RuntimeLabels {
  enum Where { Header, Row, Column, Cell } where = Header;
};

RuntimeLabels runtime_labels(const GridView& grid) {
  const Runtime first = grid.rows.front().cells.front().estimate.runtime;
  bool one = true;
  bool per_row = true;
  bool per_column = true;
  for (const auto& row : grid.rows) {
    for (std::size_t c = 0; c < row.cells.size(); ++c) {
      const Runtime r = row.cells[c].estimate.runtime;
      one = one && r == first;
      per_row = per_row && r == row.cells.front().estimate.runtime;
      per_column = per_column && r == grid.rows.front().cells[c].estimate.runtime;
    }
  }
  RuntimeLabels labels;
  labels.where = one          ? RuntimeLabels::Header
                 : per_row    ? RuntimeLabels::Row
                 : per_column ? RuntimeLabels::Column
                              : RuntimeLabels::Cell;
  return labels;
}

}  // namespace

std::string render_grid_text(const GridView& grid, bool color) {
  const RuntimeLabels labels = runtime_labels(grid);
  const FitReport& first = grid.rows.front().cells.front();
  std::string out = fmt::format("Grid: {} x {}", plural(grid.models, "model", "models"),
                                plural(grid.precisions, "precision", "precisions"));
  if (grid.contexts > 1) {
    out += " x " + plural(grid.contexts, "context", "contexts");
  }
  out += grid.devices_given ? " on " + plural(grid.columns.size(), "device", "devices") : "";
  if (grid.contexts <= 1) {
    out += header_context(grid);
  }
  out += fmt::format(", batch {}", first.query.batch);
  if (labels.where == RuntimeLabels::Header) {
    out += fmt::format(", with {}", to_string(first.estimate.runtime));
  }
  out += ":\n";

  std::vector<std::string> heads{"MODEL", "PRECISION"};
  if (grid.contexts > 1) {
    heads.emplace_back("CONTEXT");
  }
  if (labels.where == RuntimeLabels::Row) {
    heads.emplace_back("RUNTIME");
  }
  const std::size_t label_columns = heads.size();
  for (std::size_t c = 0; c < grid.columns.size(); ++c) {
    heads.push_back(labels.where == RuntimeLabels::Column
                        ? fmt::format("{} ({})", grid.columns[c],
                                      to_string(grid.rows.front().cells[c].estimate.runtime))
                        : grid.columns[c]);
  }
  std::vector<std::vector<std::string>> lines;
  for (const auto& row : grid.rows) {
    std::vector<std::string> line{row.model, row.precision};
    if (grid.contexts > 1) {
      line.push_back(std::to_string(row.context));
    }
    if (labels.where == RuntimeLabels::Row) {
      line.emplace_back(to_string(row.cells.front().estimate.runtime));
    }
    for (const auto& cell : row.cells) {
      line.push_back(grid_cell_text(cell.estimate, cell.query.units));
    }
    lines.push_back(std::move(line));
  }
  if (grid.devices_given) {
    add_speed(lines, grid, label_columns);
  }
  if (labels.where == RuntimeLabels::Cell) {
    for (std::size_t r = 0; r < lines.size(); ++r) {
      for (std::size_t c = 0; c < grid.columns.size(); ++c) {
        lines[r][label_columns + c] +=
            fmt::format("  {}", to_string(grid.rows[r].cells[c].estimate.runtime));
      }
    }
  }
  std::vector<std::size_t> widths(heads.size());
  for (std::size_t i = 0; i < heads.size(); ++i) {
    widths[i] = heads[i].size();
    for (const auto& line : lines) {
      widths[i] = std::max(widths[i], line[i].size());
    }
  }
  const auto emit = [&](const std::vector<std::string>& line, const GridRow* row) {
    std::string s = " ";
    for (std::size_t i = 0; i < line.size(); ++i) {
      const bool last = i + 1 == line.size();
      const std::string text = last ? line[i] : pad(line[i], widths[i]);
      const char* sgr = (row != nullptr && color && i >= label_columns)
                            ? cell_color(row->cells[i - label_columns].estimate)
                            : nullptr;
      s += " ";
      if (sgr != nullptr) {
        // Colour the words only; the padding stays outside the escape codes.
        s += fmt::format("\x1b[{}m{}\x1b[0m{}", sgr, line[i], text.substr(line[i].size()));
      } else {
        s += text;
      }
      if (!last) {
        s += " ";
      }
    }
    out += s + "\n";
  };
  emit(heads, nullptr);
  for (std::size_t r = 0; r < lines.size(); ++r) {
    emit(lines[r], &grid.rows[r]);
  }
  const bool any_tight = std::any_of(grid.rows.begin(), grid.rows.end(), [](const GridRow& row) {
    return std::any_of(row.cells.begin(), row.cells.end(),
                       [](const FitReport& c) { return grid_cell_tight(c.estimate); });
  });
  if (any_tight) {
    out += "*: tight: the headroom is within this estimate's own error; it may go either way.\n";
  }
  out += grid.devices_given
             ? "fits: fits whole; offload: only with layers in system RAM (--ram); no: does not "
               "fit. Each figure is the total needed (GiB = 2^30 bytes), then the decode speed "
               "of one sequence (+/- 25 %, more with offload; '-': it does not run, or no "
               "bandwidth is known).\n" +
                   std::string(any_bracketed(grid)
                                   ? "(tok/s): a 'no' cell's speed if system RAM held the layers "
                                     "it would offload (--ram checks it).\n"
                                   : "")
             : "needs: the total memory needed (GiB = 2^30 bytes); give --device for verdicts.\n";
  if (labels.where == RuntimeLabels::Column || labels.where == RuntimeLabels::Cell) {
    out += fmt::format(
        "The runtime is each device's default for the precision, so it differs by {}: each {} "
        "names its own (--runtime sets one for all).\n",
        labels.where == RuntimeLabels::Column ? "device" : "cell",
        labels.where == RuntimeLabels::Column ? "column" : "cell");
  }
  return out;
}

}  // namespace willfit::app
