// Fuzz target: the config.json reader (architecture, torch_dtype,
// quantization_config). Deep nesting and odd types are errors, not crashes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "willfit/models/hf_config.hpp"

using willfit::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  const auto m = willfit::model_from_hf_config(json, "config.json");
  if (m) {
    check(m->params >= 0 && m->arch.layers >= 0, "negative counts from a config");
  } else {
    check(!m.error().message.empty(), "empty error message");
  }
  return 0;
}
