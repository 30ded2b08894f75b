// MODEL names that are not files on disk nor catalogue names (issue 15):
// Hugging Face repositories (hf.co/ORG/REPO[:QUANT], ORG/REPO[@REV]), Ollama
// models (NAME:TAG, library/NAME:TAG, ollama.com/NAME:TAG) and http(s) URLs,
// read header-only; and the stores the user already has (the Hugging Face
// cache, Ollama's models directory), read exactly and offline.
// Precedence (resolve_model.cpp): a path, then the stores, then the
// catalogue, then the network.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sources/environment.hpp"
#include "willfit/core/expected.hpp"
#include "willfit/core/units.hpp"
#include "willfit/models/model.hpp"

namespace willfit::app {

// What the user typed, taken apart. Which fields are set depends on `kind`.
struct RemoteRef {
  enum class Kind { Hub, Ollama, Url };
  Kind kind = Kind::Hub;
  bool hub_gguf = false;                      // hf.co/... or huggingface.co/...: a GGUF repository
  std::string repo;                           // Hub: ORG/REPO
  std::string revision;                       // Hub: @REV (default main)
  std::string quant;                          // Hub: :QUANT ("" = the default choice)
  std::string host;                           // Ollama: registry host ("" = the default registry)
  std::string ns;                             // Ollama: namespace (library)
  std::string name;                           // Ollama: model name
  std::string tag;                            // Ollama: tag (latest)
  std::string url;                            // Url
  [[nodiscard]] std::string display() const;  // "hf.co/ORG/REPO:Q4_K_M", "qwen3:8b"
};

// Parses the forms above; nullopt when `text` is none of them. `strict`
// (false) also accepts a bare NAME:TAG as an Ollama name.
std::optional<RemoteRef> parse_remote_ref(const std::string& text);

// A GGUF repository known by its name: a hub reference (hf.co/ORG/REPO,
// ORG/REPO, a repository's page URL) whose REPO ends in "-GGUF" (any case),
// as the quantisers name theirs (bartowski, unsloth, lmstudio-community).
// The catalogue answers it at the repository's default file (Q4_K_M) without
// the network (resolve_model.cpp). nullopt otherwise.
std::optional<RemoteRef> gguf_repository_by_name(const std::string& text);

// The local stores: a model the user has pulled or downloaded, read from
// disk. nullopt when the stores do not hold it.
// A GGUF repository's mmproj file and an Ollama projector layer are read
// too unless `read_projector` is false (--text-only).
std::optional<Expected<Model>> model_from_store(const std::string& text, const Environment& env,
                                                UnitSystem units, bool read_projector = true);

// The network (or willfit's cache of it). nullopt when `text` is no remote
// form. --offline (WILLFIT_OFFLINE=1, HF_HUB_OFFLINE=1) answers from the
// cache only. A GGUF repository's mmproj file is read too unless
// `read_projector` is false (--text-only): then no request is made for it.
std::optional<Expected<Model>> model_from_remote(const std::string& text, const Environment& env,
                                                 UnitSystem units, bool read_projector = true);

// One GGUF variant of a repository: its files (one, or the parts of a split
// file, in order) and its quantisation label ("Q4_K_M").
struct GgufVariant {
  std::string label;
  std::vector<std::string> files;
};
// Groups the .gguf paths of a repository into variants (mmproj files left out).
std::vector<GgufVariant> gguf_variants(const std::vector<std::string>& paths);
// The mmproj file of a repository's listing to load with its model: the
// F16 one when there are several (convert_hf_to_gguf.py --mmproj writes F16
// by default), else the first; nullopt when the listing has none.
struct MmprojChoice {
  std::string path;
  std::vector<std::string> all;  // every mmproj file listed, in listing order
  bool f16 = false;              // chosen for being F16
};
std::optional<MmprojChoice> choose_mmproj(const std::vector<std::string>& paths);
// The variant for `quant` ("" = Q4_K_M, else Q8_0, else the first, as
// llama.cpp and Ollama choose), or an error listing the quantisations there.
Expected<GgufVariant> choose_gguf(const std::vector<GgufVariant>& variants,
                                  const std::string& quant, const std::string& where);

// The hub's model-info answer (GET /api/models/REPO/revision/REV?blobs=true),
// reduced to what willfit uses. Untrusted JSON: errors are values.
struct HubFile {
  std::string path;
  std::uint64_t size = 0;  // 0 when the answer gave none
};
struct HubInfo {
  std::string commit;
  std::vector<HubFile> files;
  std::string gated;  // "", "auto" or "manual"
};
Expected<HubInfo> parse_hub_info(const std::string& json);
// One page of the hub's file tree (GET /api/models/REPO/tree/REV?recursive=true):
// its files (directories left out). Untrusted JSON.
Expected<std::vector<HubFile>> parse_hub_tree(const std::string& json);
// A file list in the tree's form, which parse_hub_tree reads back (the cache).
std::string hub_tree_json(const std::vector<HubFile>& files);
// The rel="next" URL of a Link header (RFC 8288), or "".
std::string link_next(const std::string& link);

// An Ollama manifest, reduced to its layers. Untrusted JSON.
struct OllamaLayer {
  std::string media_type;
  std::string digest;  // "sha256:<64 hex>"
  std::uint64_t size = 0;
};
Expected<std::vector<OllamaLayer>> parse_ollama_manifest(const std::string& json);
// The GGUF weights layer of a manifest, or an error (none, or a model stored
// one tensor per layer, which willfit cannot read).
Expected<OllamaLayer> ollama_model_layer(const std::vector<OllamaLayer>& layers,
                                         const std::string& name);
// The projector layer (application/vnd.ollama.image.projector) to read for
// `model`, already read from the manifest's model layer: the first, as
// Ollama loads only projectors[0] (llm/server.go). nullopt when there is
// none, when `read_projector` is false (--text-only: nothing is asked for
// it), or when the model file holds its encoder already (Ollama's engine;
// then a note on `model` says the layer is not counted twice).
std::optional<OllamaLayer> ollama_projector_layer(const std::vector<OllamaLayer>& layers,
                                                  Model& model, const std::string& name,
                                                  bool read_projector);
// How the answer names a projector layer: "sha256:0123456789ab (the
// manifest's projector layer)".
std::string ollama_projector_name(const OllamaLayer& layer);

}  // namespace willfit::app
