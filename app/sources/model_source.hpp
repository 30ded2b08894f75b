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
// `name` names it in the answer (default: the file's name). `any_layout`
// (Ollama's projector layers): a GGUF of another architecture than clip is
// counted by its tensors instead of refused.
Expected<bool> add_mmproj_file(const std::string& path, const Environment& env, Model& model,
                               const std::string& what = "--mmproj", const std::string& name = "",
                               bool any_layout = false);

// The mmproj*.gguf beside a GGUF model read from `path` (a file or a
// directory): a directory's is counted as the projector unless
// `read_projector` is false (--text-only); beside a named file it is only
// named in a note (llama-server -m loads none unless --mmproj). Nothing for
// other models, or when the model has a projector already.
Expected<bool> mmproj_beside(const std::string& path, const Environment& env, Model& model,
                             bool read_projector);

// The assumption line when the precision came from the model, not --precision.
std::string precision_hint_note(const Model& model, const Precision& precision);

// The model as --precision asks for it, or why it cannot be: `text` is the
// MODEL the user typed. A GGUF file (a path, a hub file, an Ollama package)
// holds its own tensors, so a --precision other than its file type is
// refused. One other than a quantisation the name itself gives
// (hf.co/ORG/REPO-GGUF:Q4_K_M, qwen3:8b-q8_0), where no file was read,
// replaces it, and a note says so. A safetensors checkpoint
// asked for at another precision is the converted model: its parameters at
// that precision, not the checkpoint's bytes.
Expected<Model> model_at_precision(const std::string& text, const Model& model,
                                   const Precision& precision);

// For a model read from a file with exact weight bytes: the precision's bits
// per weight and note describe the file (the estimate already uses its bytes).
void describe_file_weights(const Model& model, Precision& precision);

}  // namespace willfit::app
