// Fuzz target: an Ollama manifest (issue 15), from the registry or the local
// models directory. A layer without a well-formed sha256 digest is refused,
// so a digest can never name a path outside blobs/.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "sources/remote_model.hpp"

using willfit::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string json(reinterpret_cast<const char*>(data), size);
  const auto layers = willfit::app::parse_ollama_manifest(json);
  if (!layers) {
    check(!layers.error().message.empty(), "empty error message");
    return 0;
  }
  for (const auto& l : *layers) {
    check(l.digest.size() == 71 && l.digest.rfind("sha256:", 0) == 0 &&
              l.digest.find_first_not_of("0123456789abcdef", 7) == std::string::npos,
          "a digest that is not sha256:<64 hex>");
  }
  const auto model = willfit::app::ollama_model_layer(*layers, "name");
  check(model.ok() || !model.error().message.empty(), "empty error message");
  return 0;
}
