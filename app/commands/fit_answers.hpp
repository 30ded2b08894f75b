// The fit command's answers, one per combination of its lists: MODEL,
// --precision, --device and --context are comma lists (a grid), each value
// resolved once, and every answer (a plain one or a grid cell) made by
// answer_cell through make_fit_report. Kept apart from cmd_fit.cpp, which
// parses options and renders.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "options/query_options.hpp"
#include "options/runtime_options.hpp"
#include "render/render_grid.hpp"
#include "sources/environment.hpp"
#include "willfit/core/expected.hpp"
#include "willfit/devices/device.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/planner/report.hpp"
#include "willfit/speed/speed.hpp"

namespace willfit::app {

// What is parsed once and applied to every answer (every cell of a grid).
struct FitCommon {
  InferenceQuery base;  // batch, KV type, RAM, GPU limit, flash attention
  bool ram_given = false;
  RuntimeOptions runtime_options;
  std::string models_file;
  std::string devices_file;  // --devices: the database other hardware is suggested from
};

// A model at one precision: a row of a grid (with a context).
struct ModelChoice {
  Model model;
  Precision precision;
  bool precision_from_model = false;
  bool precision_given = false;  // --precision was given
};

// A device set: a column of a grid (one empty set without --device).
struct DeviceColumn {
  DeviceSet devices;
  SpeedSettings speed;
};

// One --context value: not given (the runtime's default), "max", or tokens.
struct ContextChoice {
  bool given = false;
  bool max = false;
  std::int64_t tokens = 4096;
};

// MODEL (a comma list unless it is a path) x --precision (a comma list, or
// each model's own default): the models, each with its precisions. An
// unknown name in a list is an error naming it. `units`: how a model file's
// notes print memory.
Expected<std::vector<std::vector<ModelChoice>>> fit_models(const QueryOptionText& o,
                                                           const Environment& env,
                                                           const std::string& models_file,
                                                           UnitSystem units);

// --device as columns: one per comma-separated device set; one empty column
// without --device. `ram` (--ram) sizes a system-memory device named without
// a size.
Expected<std::vector<DeviceColumn>> fit_columns(const QueryOptionText& o, const Environment& env,
                                                const std::string& devices_file, UnitSystem units,
                                                std::optional<Bytes> ram = std::nullopt);

// --context as a list; "max" only alone.
Expected<std::vector<ContextChoice>> fit_contexts(const QueryOptionText& o);

// One answer, through the same estimator and report for a plain question
// and for every cell of a grid.
Expected<FitReport> answer_cell(const FitCommon& common, const ModelChoice& choice,
                                const DeviceColumn& column, const ContextChoice& context,
                                const Environment& env);

// Every combination: rows model x precision x context, columns device sets;
// the first error (of any cell) stops it.
Expected<GridView> answer_grid(const FitCommon& common,
                               const std::vector<std::vector<ModelChoice>>& models,
                               const std::vector<DeviceColumn>& columns,
                               const std::vector<ContextChoice>& contexts, bool devices_given,
                               const Environment& env);

// Exit 0 for a grid only when every cell would exit 0 on its own.
bool grid_all_ok(const GridView& grid);

}  // namespace willfit::app
