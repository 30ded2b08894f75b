// `willfit models` output. JSON keys are a contract (docs/json.md, "models").
#include "render/render_models.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace willfit::app {
namespace {

using Json = nlohmann::ordered_json;

std::string count(std::int64_t params) {
  if (params >= 1'000'000'000) {
    return fmt::format("{:.1f}B", static_cast<double>(params) / 1e9);
  }
  return fmt::format("{:.0f}M", static_cast<double>(params) / 1e6);
}

std::string context(std::int64_t tokens) {
  if (tokens <= 0) {
    return "-";
  }
  if (tokens % 1024 == 0) {
    return fmt::format("{}k", tokens / 1024);
  }
  if (tokens % 1000 == 0) {  // a decimal window (North Mini Code's 500000): "500k"
    return fmt::format("{}k", tokens / 1000);
  }
  return fmt::format("{}", tokens);
}

std::string attention(const Architecture& a) {
  switch (a.attention.kind) {
    case AttentionKind::Sliding:
      // DeepSeek-V4: a window on every layer, pooled keys beside it.
      return fmt::format("{} {}",
                         compressed_attention(a) ? "compressed"
                         : a.attention.chunked   ? "chunked"
                                                 : "sliding",
                         context(a.attention.sliding_window));
    case AttentionKind::Mla:
      return "mla";
    case AttentionKind::Hybrid:
      // Mamba, RWKV: recurrent blocks alone, no attention layer to count.
      if (a.attention.attention_layers == 0) {
        return "recurrent";
      }
      return fmt::format("hybrid {}/{}", a.attention.attention_layers, a.layers);
    case AttentionKind::Full:
      break;
  }
  return a.kv_heads < a.heads ? fmt::format("full, {} kv", a.kv_heads) : "full";
}

std::string short_alias(const CatalogueEntry& e) {
  for (const auto& a : e.aliases) {
    if (a.find(':') != std::string::npos) {
      return a;
    }
  }
  return e.aliases.empty() ? "" : e.aliases.front();
}

}  // namespace

std::string render_models_text(const std::vector<const CatalogueEntry*>& entries,
                               const std::string& data_version) {
  std::string s = fmt::format("{:<30} {:>8} {:>7} {:>6} {:>7}  {:<14} {}\n", "ID", "PARAMS",
                              "ACTIVE", "LAYERS", "CONTEXT", "ATTENTION", "ALSO KNOWN AS");
  for (const auto* e : entries) {
    const Model& m = e->model;
    s += fmt::format("{:<30} {:>8} {:>7} {:>6} {:>7}  {:<14} {}\n", m.id, count(m.params),
                     m.is_moe() ? count(m.active_params) : "-", m.arch.layers,
                     context(m.arch.max_context), attention(m.arch), short_alias(*e));
  }
  s += fmt::format(
      "\n{} model{} (catalogue {}). Use an id, an alias or a Hugging Face name as "
      "MODEL: willfit {} -d 8gb\n",
      entries.size(), entries.size() == 1 ? "" : "s",
      data_version.empty() ? "user file" : data_version,
      entries.empty() ? "llama-3.1-8b" : entries.front()->model.id);
  return s;
}

std::string render_models_json(const std::vector<const CatalogueEntry*>& entries,
                               const std::string& data_version) {
  Json j;
  j["schema_version"] = 1;
  j["data_version"] = data_version.empty() ? Json(nullptr) : Json(data_version);
  Json list = Json::array();
  for (const auto* e : entries) {
    const Model& m = e->model;
    const Architecture& a = m.arch;
    Json x;
    x["id"] = m.id;
    x["name"] = m.name;
    x["family"] = m.family;
    x["aliases"] = e->aliases;
    x["params"] = m.params;
    x["active_params"] = m.active_params;
    x["layers"] = a.layers;
    x["hidden_size"] = a.hidden_size;
    x["intermediate_size"] = a.intermediate_size;
    x["heads"] = a.heads;
    x["kv_heads"] = a.kv_heads;
    x["head_dim"] = a.head_dim;
    x["vocab_size"] = a.vocab_size;
    x["tied_embeddings"] = a.tied_embeddings;
    x["max_context"] = a.max_context > 0 ? Json(a.max_context) : Json(nullptr);
    x["attention"] = std::string(to_string(a.attention.kind));
    x["sliding_window"] = a.attention.kind == AttentionKind::Sliding
                              ? Json(a.attention.sliding_window)
                              : Json(nullptr);
    x["experts"] = m.is_moe() ? Json(a.moe->experts) : Json(nullptr);
    x["experts_per_token"] = m.is_moe() ? Json(a.moe->experts_per_token) : Json(nullptr);
    x["vision_params"] = a.vision_params > 0 ? Json(a.vision_params) : Json(nullptr);
    x["modality"] = e->modality;
    x["origin"] = e->origin;
    x["source"] = e->source;
    x["published_precision"] =
        e->published_precision.empty() ? Json(nullptr) : Json(e->published_precision);
    x["published_precision_source"] =
        e->published_precision_source.empty() ? Json(nullptr) : Json(e->published_precision_source);
    list.push_back(std::move(x));
  }
  j["models"] = std::move(list);
  return j.dump(2) + "\n";
}

}  // namespace willfit::app
