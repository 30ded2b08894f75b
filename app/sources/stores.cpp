// The stores the user already has, read offline and exactly:
// - the Hugging Face cache: HF_HUB_CACHE, else HF_HOME/hub, else
//   $XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub; a repo is
//   models--ORG--REPO/ with refs/REV (the commit) and snapshots/COMMIT/PATH
//   (huggingface_hub file_download.py; remote-notes 2.6). A revision is never
//   swapped for another: a branch not in refs/ is not there.
// - Ollama's models directory: OLLAMA_MODELS, else ~/.ollama/models;
//   manifests/HOST/NS/NAME/TAG and blobs/sha256-HEX (ollama manifest/paths.go,
//   envconfig/config.go; remote-notes 3.3).
// A model that is not there is not an error: the caller goes on to the
// catalogue and the network.
#include <algorithm>

#include <fmt/format.h>

#include "sources/model_source.hpp"
#include "sources/remote_model.hpp"
#include "sources/stores.hpp"
#include "willfit/core/text.hpp"

namespace willfit::app {
namespace {

bool is_commit(const std::string& s) {
  return s.size() == 40 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

std::string first_line(const std::string& s) {
  return trim(s.substr(0, s.find('\n')));
}

// Files under `dir`, as paths relative to it, two levels deep (unsloth keeps
// large split quantisations in a folder per quantisation).
std::vector<std::string> list_files(const Environment& env, const std::string& dir) {
  std::vector<std::string> out;
  auto names = env.list_directory(dir);
  if (!names) {
    return out;
  }
  for (const auto& n : *names) {
    const std::string path = dir + "/" + n;
    if (env.is_directory(path)) {
      if (auto inner = env.list_directory(path)) {
        for (const auto& m : *inner) {
          if (!env.is_directory(path + "/" + m)) {
            out.push_back(n + "/" + m);
          }
        }
      }
    } else {
      out.push_back(n);
    }
  }
  return out;
}

bool has_weights_for_transformers(const std::vector<std::string>& files) {
  return std::any_of(files.begin(), files.end(), [](const std::string& f) {
    return f == "config.json" || f == "model.safetensors.index.json" ||
           (f.find('/') == std::string::npos && f.size() > 12 &&
            f.compare(f.size() - 12, 12, ".safetensors") == 0);
  });
}

std::optional<Expected<Model>> from_hf_cache(const RemoteRef& ref, const Environment& env,
                                             UnitSystem units, bool read_projector) {
  const std::string root = hf_hub_cache(env);
  if (root.empty()) {
    return std::nullopt;
  }
  const auto slash = ref.repo.find('/');
  const std::string dir =
      fmt::format("{}/models--{}--{}", root, ref.repo.substr(0, slash), ref.repo.substr(slash + 1));
  if (!env.is_directory(dir)) {
    return std::nullopt;
  }
  std::string commit = ref.revision;
  if (!is_commit(commit)) {
    auto text = env.read_file(dir + "/refs/" + ref.revision, 256);
    if (!text) {
      return std::nullopt;
    }
    commit = first_line(*text);
    if (!is_commit(commit)) {
      return std::nullopt;
    }
  }
  const std::string snap = dir + "/snapshots/" + commit;
  const auto files = list_files(env, snap);
  if (files.empty()) {
    return std::nullopt;
  }
  std::vector<std::string> read;
  std::string path;
  std::string chosen_note;
  if (!ref.hub_gguf && has_weights_for_transformers(files)) {
    path = snap;
    for (const auto& f : files) {
      if (f.find('/') == std::string::npos &&
          (f == "config.json" || f.find(".safetensors") != std::string::npos)) {
        read.push_back(f);
      }
    }
  } else {
    const auto variant = choose_gguf(gguf_variants(files), ref.quant, "hf.co/" + ref.repo);
    if (!variant) {
      return std::nullopt;  // not downloaded here: the network may have it
    }
    path = snap + "/" + variant->files.front();
    read = variant->files;
    chosen_note = fmt::format(", quantisation {}", variant->label);
  }
  auto m = model_from_path(path, env, units);
  if (!m) {
    return Expected<Model>(m.error());
  }
  // As from the network (remote_model.cpp): llama-server -hf loads the
  // repository's mmproj file with the model, the F16 one of several.
  if (path != snap) {  // a GGUF variant was chosen
    if (const auto mmproj = read_projector ? choose_mmproj(files) : std::nullopt) {
      if (auto added = add_mmproj_file(
              snap + "/" + mmproj->path, env, *m,
              "hf.co/" + ref.repo + "'s mmproj (--text-only leaves it out):", mmproj->path);
          !added) {
        return Expected<Model>(added.error());
      }
      read.push_back(mmproj->path);
    }
  }
  ModelOrigin o;
  o.kind = "hf_cache";
  o.ref = ref.display();
  o.revision = commit;
  o.files = read;
  m->origin = o;
  m->notes.push_back(fmt::format("read from the Hugging Face cache: {} at commit {}{} ({})",
                                 ref.repo, commit.substr(0, 7), chosen_note, snap));
  return Expected<Model>(std::move(*m));
}

std::optional<Expected<Model>> from_ollama_store(const RemoteRef& ref, const Environment& env,
                                                 UnitSystem units, bool read_projector) {
  const std::string root = ollama_models_dir(env);
  if (root.empty()) {
    return std::nullopt;
  }
  const std::string host = ref.host.empty() ? "registry.ollama.ai" : ref.host;
  const std::string manifest =
      fmt::format("{}/manifests/{}/{}/{}/{}", root, host, ref.ns, ref.name, ref.tag);
  if (!env.file_size(manifest)) {
    return std::nullopt;
  }
  const std::string name = ref.display();
  auto text = env.read_file(manifest, 1 << 20);
  if (!text) {
    return Expected<Model>(text.error());
  }
  auto layers = parse_ollama_manifest(*text);
  if (!layers) {
    return Expected<Model>(make_error(fmt::format("'{}': {}", manifest, layers.error().message)));
  }
  auto layer = ollama_model_layer(*layers, name);
  if (!layer) {
    return Expected<Model>(layer.error());
  }
  const std::string blob = root + "/blobs/sha256-" + layer->digest.substr(7);
  if (!env.file_size(blob)) {
    return Expected<Model>(make_error(fmt::format(
        "Ollama's manifest of {} is there but its model blob is missing ({}): run `ollama pull {}`",
        name, blob, name)));
  }
  auto m = model_from_path(blob, env, units);
  if (!m) {
    return Expected<Model>(m.error());
  }
  if (m->name.rfind("sha256-", 0) == 0) {
    m->name = name;
  }
  ModelOrigin o;
  o.kind = "ollama_store";
  o.ref = name;
  o.revision = layer->digest;
  o.files = {blob};
  if (const auto projector = ollama_projector_layer(*layers, *m, name, read_projector)) {
    const std::string file = root + "/blobs/sha256-" + projector->digest.substr(7);
    if (!env.file_size(file)) {
      return Expected<Model>(make_error(fmt::format(
          "Ollama's manifest of {} lists a projector layer whose blob is missing ({}): run `ollama "
          "pull {}`, or --text-only to leave it out",
          name, file, name)));
    }
    if (auto added =
            add_mmproj_file(file, env, *m, name + "'s projector layer (--text-only leaves it out):",
                            ollama_projector_name(*projector), true);
        !added) {
      return Expected<Model>(added.error());
    }
    o.files.push_back(file);
  }
  m->origin = o;
  // Pulled with Ollama, so run with it: the same runtime and defaults as the
  // tag not yet pulled (the catalogue's or the registry's answer).
  m->ollama_tag = true;
  m->notes.push_back(fmt::format("read from Ollama's models directory: {}, blob {}", name,
                                 layer->digest.substr(0, 19)));
  return Expected<Model>(std::move(*m));
}

}  // namespace

std::string hf_hub_cache(const Environment& env) {
  const auto var = [&](const char* name) {
    const auto v = env.get(name);
    return v && !v->empty() ? *v : std::string();
  };
  if (auto v = var("HF_HUB_CACHE"); !v.empty()) {
    return v;
  }
  if (auto v = var("HUGGINGFACE_HUB_CACHE"); !v.empty()) {
    return v;
  }
  if (auto v = var("HF_HOME"); !v.empty()) {
    return v + "/hub";
  }
  if (auto v = var("XDG_CACHE_HOME"); !v.empty()) {
    return v + "/huggingface/hub";
  }
  if (auto v = var("HOME"); !v.empty()) {
    return v + "/.cache/huggingface/hub";
  }
  return "";
}

std::string ollama_models_dir(const Environment& env) {
  if (const auto v = env.get("OLLAMA_MODELS"); v && !v->empty()) {
    return *v;
  }
  if (const auto v = env.get("HOME"); v && !v->empty()) {
    return *v + "/.ollama/models";
  }
  return "";
}

std::optional<Expected<Model>> model_from_store(const std::string& text, const Environment& env,
                                                UnitSystem units, bool read_projector) {
  const auto ref = parse_remote_ref(text);
  if (!ref) {
    return std::nullopt;
  }
  switch (ref->kind) {
    case RemoteRef::Kind::Hub:
      return from_hf_cache(*ref, env, units, read_projector);
    case RemoteRef::Kind::Ollama:
      return from_ollama_store(*ref, env, units, read_projector);
    case RemoteRef::Kind::Url:
      break;
  }
  return std::nullopt;
}

}  // namespace willfit::app
