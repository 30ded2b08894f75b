#include "sources/rent_source.hpp"

#include <cstdint>

#include "sources/embedded_data.hpp"

namespace willfit::app {
namespace {

constexpr std::uint64_t kMaxFileBytes = 16u << 20;

// `via` says how the file was named, so an error points at the setting to fix.
Expected<RentTable> load_file(const Environment& env, const std::string& path,
                              const std::string& via) {
  auto bytes = env.read_file(path, kMaxFileBytes);
  if (!bytes) {
    return make_error("rent prices file (" + via + "): " + bytes.error().message);
  }
  return parse_rent_table(*bytes, path);
}

}  // namespace

Expected<RentTable> load_rent_table(const Environment& env, const std::string& rent_file) {
  if (!rent_file.empty()) {
    return load_file(env, rent_file, "--rent-prices");
  }
  if (auto var = env.get("WILLFIT_RENT"); var && !var->empty()) {
    return load_file(env, *var, "WILLFIT_RENT");
  }
  return parse_rent_table(embedded_rent_json(), "data/rent.json (embedded)");
}

}  // namespace willfit::app
