// The databases compiled into the binary (data/*.json, embedded at build time
// by cmake/WillfitEmbed.cmake), so willfit works from any directory.
#pragma once

#include <string_view>

namespace willfit::app {

std::string_view embedded_devices_json();
std::string_view embedded_models_json();
std::string_view embedded_rent_json();

// The completion script for "bash", "zsh" or "fish" (completions/*); "" for another shell.
std::string_view embedded_completion(std::string_view shell);

}  // namespace willfit::app
