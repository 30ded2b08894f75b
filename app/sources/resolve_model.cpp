// MODEL as typed -> a Model. In order: something that looks like a path (an
// existing file or directory, a model file extension, a leading '/', './',
// '../' or '~/') is read as a model file; a size ("7b", "8x7b") gets an
// inferred architecture; anything else is looked up in the catalogue, which
// is parsed only then, so sizes and files never pay for it. A name with a
// '/' that the catalogue does not know is a path after all.
#include "sources/model_source.hpp"
#include "sources/resolve.hpp"
#include "willfit/core/text.hpp"
#include "willfit/models/model_size.hpp"

namespace willfit::app {

Expected<Model> resolve_model(const std::string& text, const Environment& env) {
  return resolve_model(text, env, "");
}

Expected<Model> resolve_model(const std::string& text, const Environment& env,
                              const std::string& models_file, UnitSystem units) {
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
    return model_from_size(*size);
  }
  if (looks_like_model_path(t, env)) {
    return model_from_path(t, env, units);
  }
  auto db = load_model_db(env, models_file);
  if (!db) {
    return db.error();
  }
  auto match = db->find(t);
  if (!match) {
    // A '/' makes it a path ("models/7b", "7b/") unless the catalogue knows
    // it as a Hugging Face id ("meta-llama/llama-3.1-8b"): a path that does not
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
  return model_from_match(*match);
}

}  // namespace willfit::app
