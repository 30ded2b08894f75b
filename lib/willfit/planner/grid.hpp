// Grids: one command line asking many questions ("willfit 8b,70b -p q4,q8
// -d 'rtx 4090,2x rtx 3090'"). What is pure about them lives here: splitting
// a comma list, the words of one cell and the exit rule. Every cell's figures
// come from make_fit_report (report.hpp), as for the plain answer.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "willfit/core/expected.hpp"
#include "willfit/inference/estimate.hpp"

namespace willfit {

// Splits "a,b,c" at commas, each element trimmed. One element (no comma) for
// a text without one. An empty element ("a,,b", "a,") is an error naming
// `option` ("--device", "MODEL") and the text.
Expected<std::vector<std::string>> split_list(std::string_view text, std::string_view option);

// One cell of a grid: the verdict and the total, "fits 5.20 GiB",
// "offload 9.93 GiB", "no 41.3 GiB", or "needs 5.20 GiB" without a device;
// the total in `units` (--units).
std::string grid_cell_text(const Estimate& e, UnitSystem units = UnitSystem::Mixed);

// The cell's verdict word alone: "fits", "offload", "no", "needs".
std::string_view grid_cell_word(const Estimate& e);
// The plain answer's "tight": the headroom lies within the estimate's own
// error band (or past a soft limit); the cell's word carries a '*'.
bool grid_cell_tight(const Estimate& e);

// True when a cell counts as a yes for the exit code: it fits whole, or no
// device was given (the plain answer's rule: exit 0 then).
bool grid_cell_ok(const Estimate& e);

}  // namespace willfit
