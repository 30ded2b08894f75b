// Where the local stores and willfit's own cache live, from the environment
// (the variables the Hugging Face tools and Ollama read). "" when unknown.
#pragma once

#include <string>

#include "sources/environment.hpp"

namespace willfit::app {

// HF_HUB_CACHE, HUGGINGFACE_HUB_CACHE, HF_HOME/hub, $XDG_CACHE_HOME/huggingface/hub,
// ~/.cache/huggingface/hub (huggingface_hub constants.py).
std::string hf_hub_cache(const Environment& env);

// OLLAMA_MODELS, else ~/.ollama/models (ollama envconfig/config.go).
std::string ollama_models_dir(const Environment& env);

}  // namespace willfit::app
