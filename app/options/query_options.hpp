// The options every inference question shares (willfit MODEL, max, which):
// MODEL, --precision, --device, --context, --batch, --kv-type, --runtime,
// registered once on a CLI11 app and turned into an InferenceQuery with
// errors as values. Options of one command alone stay in its cmd_*.cpp.
#pragma once

#include <string>

#include "sources/environment.hpp"
#include "willfit/core/expected.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/model.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace willfit::app {

// What the user typed, before parsing. Defaults are the commands' defaults.
struct QueryOptionText {
  std::string model;
  std::string precision = "fp16";
  std::string device;
  std::string context;  // not given: 4096 (fit: the runtime's default)
  std::string batch = "1";
  std::string kv_type = "f16";
  std::string runtime;     // empty: by precision (fit registers it with its runtime options)
  std::string mmproj;      // --mmproj FILE: a multimodal projector loaded with the model
  bool text_only = false;  // fit's --text-only (a runtime option): no hub mmproj file is read
  CLI::Option* precision_option = nullptr;  // tells "-p given" from the default
  CLI::Option* context_option = nullptr;
  [[nodiscard]] bool context_given() const;
};

// MODEL in the help of every command that takes one as the plain answer
// does (willfit MODEL adds its comma lists; train resolves MODEL the same).
inline constexpr const char* kModelHelp =
    "Model name (llama-3.1-8b, qwen2.5:7b), model file or directory (.gguf, .safetensors, "
    "config.json), or size (13b, 8x7b, 30b-a3b)";

// Each command's words for the shared options; a null `device` or `runtime`
// leaves that option out (which has no --device; fit registers --runtime
// with its other runtime options).
struct QueryOptionHelp {
  const char* model;
  bool model_required = true;
  const char* precision;
  const char* device = nullptr;
  bool device_required = false;
  const char* context = "Context length in tokens (default 4096)";
  const char* runtime = nullptr;
};

// Registers MODEL, -p, [-d], -c, -b, --kv-type and [--runtime], in this order.
void add_query_options(CLI::App& app, QueryOptionText& o, const QueryOptionHelp& help);

// The precision of a query on `model`: --precision when given, else the one
// the model's name or file implies (then `from_model` is set), else fp16.
Expected<Precision> query_precision(const QueryOptionText& o, const Model& model, bool& from_model);

// --mmproj FILE, when given, added to `model` (read from disk).
Expected<bool> apply_mmproj_option(const QueryOptionText& o, const Environment& env, Model& model);

// Resolves MODEL (with the --models catalogue) and its precision into `q`;
// a model file's notes print memory in `q.units` (set it first).
Expected<bool> apply_model_options(const QueryOptionText& o, const Environment& env,
                                   const std::string& models_file, InferenceQuery& q);

// Parses --context (when given and not "max": the caller searches for it), --batch, --kv-type and
// --runtime (when given) into `q`. An error names the option and the input.
Expected<bool> apply_query_options(const QueryOptionText& o, InferenceQuery& q);

}  // namespace willfit::app
