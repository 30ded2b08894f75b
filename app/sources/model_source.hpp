// Where models come from: the catalogue (embedded, replaced by --models FILE
// or WILLFIT_MODELS, extended by the user's $XDG_CONFIG_HOME/willfit/models.json)
// and model files on disk (GGUF, safetensors, an index, config.json or a
// directory of them), read header-only through the Environment.
#pragma once

#include <memory>
#include <string>

#include "sources/environment.hpp"
#include "willfit/core/expected.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/core/units.hpp"
#include "willfit/models/model.hpp"
#include "willfit/models/model_db.hpp"

namespace willfit::app {

// The embedded catalogue, parsed once per process (its bytes are compiled in
// and never change).
const Expected<ModelDb>& embedded_model_db();

// The catalogue to use. `models_file` is --models (may be empty). Files are
// read on each call: call it only when a name must be looked up. Without
// files it is the embedded catalogue itself, shared rather than copied.
Expected<std::shared_ptr<const ModelDb>> load_model_db(const Environment& env,
                                                       const std::string& models_file);

// True when MODEL should be read as a path: it exists, or it has a model
// file's extension, or it starts with '/', './', '../' or '~/'.
bool looks_like_model_path(const std::string& text, const Environment& env);

// Reads the model at `path` (a file or a directory), header only.
// `units`: how the notes print sizes (--units).
Expected<Model> model_from_path(const std::string& path, const Environment& env,
                                UnitSystem units = UnitSystem::Mixed);

// --mmproj FILE (or a remote repository's mmproj file): reads the projector
// GGUF's header and gives it to `model`. An error starts with `what`.
Expected<bool> add_mmproj_file(const std::string& path, const Environment& env, Model& model,
                               const std::string& what = "--mmproj");

// The assumption line when the precision came from the model, not --precision.
std::string precision_hint_note(const Model& model, const Precision& precision);

// For a model read from a file with exact weight bytes: the precision's bits
// per weight and note describe the file (the estimate already uses its bytes).
void describe_file_weights(const Model& model, Precision& precision);

}  // namespace willfit::app
