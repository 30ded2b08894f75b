#include "sources/embedded_data.hpp"

#include <cstddef>

extern const char willfit_devices_json[];
extern const std::size_t willfit_devices_json_size;
extern const char willfit_models_json[];
extern const std::size_t willfit_models_json_size;
extern const char willfit_rent_json[];
extern const std::size_t willfit_rent_json_size;
extern const char willfit_completion_bash[];
extern const std::size_t willfit_completion_bash_size;
extern const char willfit_completion_zsh[];
extern const std::size_t willfit_completion_zsh_size;
extern const char willfit_completion_fish[];
extern const std::size_t willfit_completion_fish_size;

namespace willfit::app {

std::string_view embedded_devices_json() {
  return {willfit_devices_json, willfit_devices_json_size};
}

std::string_view embedded_models_json() {
  return {willfit_models_json, willfit_models_json_size};
}

std::string_view embedded_rent_json() {
  return {willfit_rent_json, willfit_rent_json_size};
}

std::string_view embedded_completion(std::string_view shell) {
  if (shell == "bash") {
    return {willfit_completion_bash, willfit_completion_bash_size};
  }
  if (shell == "zsh") {
    return {willfit_completion_zsh, willfit_completion_zsh_size};
  }
  if (shell == "fish") {
    return {willfit_completion_fish, willfit_completion_fish_size};
  }
  return {};
}

}  // namespace willfit::app
