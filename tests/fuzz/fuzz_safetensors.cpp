// Fuzz target: the safetensors header and the sharded index. The first 8
// bytes are the header length (checked against the file size), the rest the
// JSON header; the same bytes are also read as an index file.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "willfit/models/safetensors.hpp"

using willfit::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (size >= 8) {
    const auto length = willfit::safetensors_header_size(bytes.substr(0, 8), size);
    if (length) {
      // The size returned counts the 8-byte length prefix too.
      check(*length >= 8 && *length <= size, "header past the end of the file");
      const auto header = willfit::read_safetensors(bytes.substr(0, *length), size);
      if (!header) {
        check(!header.error().message.empty(), "empty error message");
      }
    }
  }
  const auto header = willfit::read_safetensors(bytes, size + 8);
  if (!header) {
    check(!header.error().message.empty(), "empty error message");
  }
  const auto index = willfit::read_safetensors_index(bytes);
  if (!index) {
    check(!index.error().message.empty(), "empty error message");
  }
  return 0;
}
