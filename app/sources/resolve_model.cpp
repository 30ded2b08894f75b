// MODEL as typed -> a Model. In order (docs/remote.md):
// 1. something that looks like a path (an existing file or directory, a model
//    file extension, a leading '/', './', '../' or '~/') is read as a model file;
// 2. a size ("7b", "8x7b") gets an inferred architecture;
// 3. the local stores (Hugging Face cache, Ollama's models directory): what the
//    user has is read exactly;
// 4. the catalogue, parsed only then, so sizes and files never pay for it;
// 5. the network (hf.co/..., ORG/REPO, Ollama names, URLs), or willfit's cache
//    of it.
#include <fmt/format.h>

#include "sources/model_source.hpp"
#include "sources/remote_model.hpp"
#include "sources/resolve.hpp"
#include "willfit/core/text.hpp"
#include "willfit/models/model_size.hpp"

namespace willfit::app {

Expected<Model> resolve_model(const std::string& text, const Environment& env) {
  return resolve_model(text, env, "");
}

Expected<Model> resolve_model(const std::string& text, const Environment& env,
                              const std::string& models_file, UnitSystem units,
                              bool read_projector) {
  std::string t = trim(text);
  if (t.empty()) {
    return make_error("MODEL is empty: give a size like '7b', a model name or a model file");
  }
  if (t.rfind("~/", 0) == 0) {
    if (const auto home = env.get("HOME")) {
      t = *home + t.substr(1);
    }
  }
  if (looks_like_size(t)) {
    auto size = parse_model_size(t);
    if (!size) {
      return size.error();
    }
    auto m = model_from_size(*size);
    if (m) {
      m->origin = ModelOrigin{"size", t, "", {}, 0, 0, false};
    }
    return m;
  }
  // A URL or hf.co/... reference is read from the network even when it ends
  // in ".gguf", unless such a path really exists.
  const std::string lower = to_lower(t);
  const bool remote_form =
      (lower.rfind("http://", 0) == 0 || lower.rfind("https://", 0) == 0 ||
       lower.rfind("hf.co/", 0) == 0 || lower.rfind("huggingface.co/", 0) == 0) &&
      !env.file_size(t) && !env.is_directory(t);
  if (!remote_form && looks_like_model_path(t, env)) {
    auto m = model_from_path(t, env, units);
    if (m) {
      m->origin = ModelOrigin{"file", t, "", {t}, 0, 0, false};
      if (auto beside = mmproj_beside(t, env, *m, read_projector); !beside) {
        return beside.error();
      }
      if (m->mmproj) {  // a folder's mmproj file
        m->origin->files.push_back(t + (t.back() == '/' ? "" : "/") + m->mmproj->name);
      }
    }
    return m;
  }
  // An address of Ollama's own library (ollama.com/library/qwen3:8b, as the
  // site shows it; library/qwen3:8b; registry.ollama.ai/library/...) names
  // the package that `ollama pull qwen3:8b` fetches: answer it as that tag,
  // from the store, the catalogue or the registry, with Ollama's defaults.
  if (const auto ref = parse_remote_ref(t); ref && ref->kind == RemoteRef::Kind::Ollama &&
                                            ref->host.empty() && ref->ns == "library" &&
                                            t.find('/') != std::string::npos) {
    t = ref->display();
  }
  if (auto stored = model_from_store(t, env, units, read_projector)) {
    return std::move(*stored);
  }
  // A bare name is NAME:latest to Ollama (`ollama run tiny`), and `willfit
  // local` lists a pulled one so: the store answers it too.
  if (t.find_first_of(":/@") == std::string::npos) {
    if (auto stored = model_from_store(t + ":latest", env, units, read_projector)) {
      return std::move(*stored);
    }
  }
  auto db = load_model_db(env, models_file);
  if (!db) {
    return db.error();
  }
  auto match = (*db)->find(t);
  // A GGUF repository by name (ORG/REPO-GGUF) that the catalogue knows is
  // answered as the file llama.cpp -hf and Ollama take from it: Q4_K_M
  // unless :QUANT names another. A :QUANT the catalogue cannot read as a
  // precision is the repository's to answer.
  const auto gguf_repo = gguf_repository_by_name(t);
  if (match && gguf_repo && !gguf_repo->quant.empty() && match->precision_hint.empty()) {
    match = make_error(
        fmt::format("'{}': the catalogue does not read :{} as a precision", t, gguf_repo->quant));
  }
  if (!match) {
    if (auto remote = model_from_remote(t, env, units, read_projector)) {
      if (*remote) {
        return std::move(*remote);
      }
      if (t.find('/') == std::string::npos) {
        // NAME:TAG may be a catalogue name mistyped: say both.
        return make_error(remote->error().message + "; " + match.error().message);
      }
      if (remote_form) {
        return remote->error();  // hf.co/... or a URL: no path was meant
      }
      if (const auto ref = parse_remote_ref(t); ref && ref->kind == RemoteRef::Kind::Ollama) {
        // ollama.com/NS/NAME:TAG: an Ollama name, not a Hugging Face id.
        return make_error(
            fmt::format("'{}' as a model of Ollama's registry: {}", t, remote->error().message));
      }
      // ORG/REPO that no repository answers may be a mistyped path: say both.
      auto file = model_from_path(t, env, units);
      return make_error((file ? std::string() : file.error().message + "; ") +
                        "as a Hugging Face id: " + remote->error().message);
    }
    // A '/' makes it a path ("a/b/7b", "7b/") unless the catalogue knows it
    // as a Hugging Face id ("meta-llama/llama-3.1-8b"): a path that does not
    // exist says so, whatever its last part looks like.
    if (t.find('/') != std::string::npos) {
      auto file = model_from_path(t, env, units);
      if (!file) {
        return make_error(file.error().message + " (nor is it a model name willfit knows)");
      }
      return file;
    }
    return match.error();
  }
  Model m = model_from_match(*match);
  m.origin = ModelOrigin{"catalogue", match->entry->model.id, "", {}, 0, 0, false};
  if (gguf_repo && match->precision_hint.empty()) {
    // Ollama's hub guide (huggingface/hub-docs docs/hub/ollama.md): "By
    // default, the Q4_K_M quantization scheme is used"; llama.cpp -hf asks
    // the hub for the same default (choose_gguf).
    m.precision_hint = "q4_k_m";
    m.precision_hint_why = fmt::format(
        "the file a GGUF repository offers by default, as llama.cpp -hf and Ollama choose; the "
        "catalogue's {} answered for {}, whose files were not read: give :QUANT or --precision "
        "to change it",
        match->entry->model.name, gguf_repo->display());
  }
  return m;
}

}  // namespace willfit::app
