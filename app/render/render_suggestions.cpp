#include "render/render_suggestions.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "render/render_speed.hpp"

namespace willfit::app {

std::string render_suggestions_text(const std::vector<Suggestion>& suggestions) {
  if (suggestions.empty()) {
    return "";
  }
  std::string s =
      "\nTo make it fit (each change checked with the same estimate; its flags replace the same "
      "flags "
      "of yours):\n";
  int n = 0;
  for (const auto& sg : suggestions) {
    s += fmt::format("  {}. {}\n", ++n, sg.line);
  }
  return s;
}

nlohmann::ordered_json suggestions_json(const std::vector<Suggestion>& suggestions) {
  using Json = nlohmann::ordered_json;
  Json out = Json::array();
  for (const auto& sg : suggestions) {
    Json j;
    j["change"] = sg.change;
    j["args"] = sg.args;
    j["total_bytes"] = sg.total_bytes;
    j["verdict"] = std::string(to_string(sg.verdict));
    j["decode_tokens_per_s"] =
        sg.decode_tokens_per_s ? Json(rounded_speed(*sg.decode_tokens_per_s)) : Json(nullptr);
    j["tradeoff"] = sg.tradeoff;
    j["tight"] = sg.tight;  // added 2026-12-04: within the estimate's error, as the text says
    // added 2026-12-05: under Ollama, the tag to pull and how Ollama takes the flags
    j["ollama_tag"] = sg.ollama_tag.empty() ? Json(nullptr) : Json(sg.ollama_tag);
    j["ollama_setting"] = sg.ollama_setting.empty() ? Json(nullptr) : Json(sg.ollama_setting);
    out.push_back(j);
  }
  return out;
}

}  // namespace willfit::app
