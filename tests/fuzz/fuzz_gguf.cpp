// Fuzz target: the GGUF header reader. Any bytes give a file, a request for
// more bytes (never past the file, never absurd), or an error naming what is
// wrong. A parsed header also goes through model_from_gguf.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "willfit/models/gguf.hpp"

using willfit::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  // The same bytes as a whole file, and as the first bytes of a larger one.
  for (const std::uint64_t file_size : {std::uint64_t{size}, std::uint64_t{size} + (1u << 20)}) {
    const auto r = willfit::read_gguf(bytes, file_size);
    if (!r) {
      check(!r.error().message.empty(), "empty error message");
      continue;
    }
    if (!r->file) {
      check(r->need > size, "asks for bytes it already has");
      check(r->need <= file_size, "asks for bytes past the end of the file");
      continue;
    }
    check(r->file->weight_bytes >= 0 && r->file->params >= 0, "negative totals");
    const auto m = willfit::model_from_gguf(*r->file, "fuzz.gguf");
    if (m) {
      check(m->params >= 0, "negative parameter count");
    }
  }
  return 0;
}
