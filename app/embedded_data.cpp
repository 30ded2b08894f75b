#include "embedded_data.hpp"

#include <cstddef>

extern const char willfit_devices_json[];
extern const std::size_t willfit_devices_json_size;
extern const char willfit_models_json[];
extern const std::size_t willfit_models_json_size;

namespace willfit::app {

std::string_view embedded_devices_json() {
  return {willfit_devices_json, willfit_devices_json_size};
}

std::string_view embedded_models_json() {
  return {willfit_models_json, willfit_models_json_size};
}

}  // namespace willfit::app
