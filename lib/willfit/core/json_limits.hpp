// A guard run before handing untrusted JSON to a parser: the nesting depth
// of a document, found with one linear scan and no allocation, so a hostile
// "[[[[..." cannot exhaust the stack or memory of whatever parses it next.
// Pure; knows nothing about the document's meaning.
#pragma once

#include <cstddef>
#include <string_view>

namespace willfit {

// The deepest nesting of objects and arrays in `text` (brackets inside
// strings do not count). Stops counting once `limit` is exceeded and returns
// limit + 1, so the cost is bounded by the text's length alone.
std::size_t json_nesting_depth(std::string_view text, std::size_t limit);

// Documents willfit reads (catalogues, config.json, safetensors headers)
// nest a handful of levels; anything deeper than this is refused.
inline constexpr std::size_t kMaxJsonDepth = 64;

}  // namespace willfit
