// MODEL as typed -> a Model: a size (model_size.hpp) for now.
#include "resolve.hpp"

#include "willfit/model_size.hpp"
#include "willfit/text.hpp"

namespace willfit::app {

Expected<Model> resolve_model(const std::string& text, const Environment& /*env*/) {
  const std::string t = trim(text);
  if (t.empty()) {
    return make_error("MODEL is empty: give a size like '7b' or a model name");
  }
  if (looks_like_size(t)) {
    auto size = parse_model_size(t);
    if (!size) {
      return size.error();
    }
    return model_from_size(*size);
  }
  return make_error("unknown model '" + t + "': give a size like '7b', '13b' or '8x7b'");
}

}  // namespace willfit::app
