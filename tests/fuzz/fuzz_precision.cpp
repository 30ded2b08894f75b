// Fuzz target: precision and KV cache type names. Whatever parses has a sane
// width and a canonical id that parses back to itself; anything else gets an
// error (with "did you mean" suggestions computed over the whole table).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "willfit/core/precision.hpp"

using willfit::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  if (const auto p = willfit::parse_precision(text)) {
    check(std::isfinite(p->bits_per_weight) && p->bits_per_weight > 0 && p->bits_per_weight <= 64,
          "accepted precision has an impossible width", text);
    check(!p->id.empty() && !p->name.empty(), "accepted precision has no name", text);
    const auto again = willfit::parse_precision(p->id);
    check(again.ok() && again->id == p->id, "canonical precision id does not re-parse", text);
  } else {
    check(!p.error().message.empty(), "empty error message", text);
  }

  if (const auto kv = willfit::parse_kv_type(text)) {
    check(kv->block_bytes > 0 && kv->block_elems > 0, "KV type with an empty block", text);
    const auto again = willfit::parse_kv_type(kv->id);
    check(again.ok() && again->id == kv->id, "KV type id does not re-parse", text);
  } else {
    check(!kv.error().message.empty(), "empty error message", text);
  }
  return 0;
}
