// Parsers for option values shared by the commands (token counts, positive
// integers). Each returns a value or an error that names the option and the
// input.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "willfit/devices/device.hpp"

#include "willfit/core/expected.hpp"

namespace willfit::app {

// Tokens: "4096", "32k" (= 32768), "1m" (= 1048576). Between 1 and 100M.
Expected<std::int64_t> parse_tokens(const std::string& option, const std::string& text);

// A whole number in [lo, hi].
Expected<std::int64_t> parse_count(const std::string& option, const std::string& text,
                                   std::int64_t lo, std::int64_t hi);

// --gpu-limit replaces the usable-memory rule with a figure; above a GPU's
// memory (or with no GPU to limit) it cannot be, and is refused.
Expected<bool> check_gpu_limit(const std::optional<Bytes>& limit, const DeviceSet& devices,
                               UnitSystem units);

}  // namespace willfit::app
