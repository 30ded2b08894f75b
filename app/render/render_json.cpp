// The JSON answer (schema_version 1). The key names are a contract with
// scripts: add keys freely, never rename or retype one without bumping
// schema_version. Documented in docs/json.md and docs/schema/, locked by golden tests.
#include <nlohmann/json.hpp>

#include "render/render.hpp"
#include "render/render_json_model.hpp"
#include "render/render_runtime.hpp"
#include "render/render_speed.hpp"
#include "render/render_suggestions.hpp"

namespace willfit::app {
namespace {

using Json = nlohmann::ordered_json;

Json query_json(const InferenceQuery& q) {
  Json j;
  j["model"] = q.model.id;
  j["precision"] = q.precision.id;
  j["precision_requested"] =
      q.precision.requested.empty() ? Json(nullptr) : Json(q.precision.requested);
  j["device"] = q.devices.devices.empty() ? Json(nullptr) : Json(q.devices.text);
  j["context_tokens"] = q.context;
  j["batch"] = q.batch;
  j["kv_type"] = q.kv_type.id;
  j["flash_attention"] = std::string(to_string(q.flash_attention));
  j["ram_bytes"] = q.ram ? Json(*q.ram) : Json(nullptr);
  j["cpu_features"] = std::string(to_string(q.cpu_features));
  j["mmap"] = q.mmap;
  j["mlock"] = q.mlock;
  return j;
}

// Issue 4: where the weight bytes came from and the file's type mix, and
// the attention layout that sizes the KV cache.
void add_model_file_facts(Json& j, const Model& m) {
  j["weights_source"] =
      m.weights_source ? Json(std::string(to_string(*m.weights_source))) : Json(nullptr);
  Json mix = Json::array();
  for (const auto& row : m.weight_mix) {
    mix.push_back(Json{{"type", row.type}, {"bytes", row.bytes}, {"tensors", row.tensors}});
  }
  j["weight_mix"] = mix;
  const Attention& at = m.arch.attention;
  j["attention"] = std::string(to_string(at.kind));
  j["sliding_window"] = at.kind == AttentionKind::Sliding ? Json(at.sliding_window) : Json(nullptr);
}

}  // namespace

// Shared with the other JSON renderers (render_json_model.hpp).
Json model_json(const Model& m, Bytes weights) {
  const Architecture& a = m.arch;
  Json j;
  j["name"] = m.name;
  j["params"] = m.params;
  j["active_params"] = m.active_params;
  j["layers"] = a.layers;
  j["hidden_size"] = a.hidden_size;
  j["heads"] = a.heads;
  j["kv_heads"] = a.kv_heads;
  j["head_dim"] = a.head_dim;
  j["vocab_size"] = a.vocab_size;
  j["assumed"] = m.assumed();
  j["weights_bytes"] = weights;
  j["source"] = std::string(to_string(m.source));
  j["intermediate_size"] = a.intermediate_size;
  j["experts"] = m.is_moe() ? Json(a.moe->experts) : Json(nullptr);
  j["experts_per_token"] = m.is_moe() ? Json(a.moe->experts_per_token) : Json(nullptr);
  add_model_file_facts(j, m);
  if (m.origin) {
    const ModelOrigin& o = *m.origin;
    j["origin"] = {{"kind", o.kind},
                   {"ref", o.ref},
                   {"revision", o.revision.empty() ? Json(nullptr) : Json(o.revision)},
                   {"files", o.files},
                   {"bytes_read", o.bytes_read},
                   {"requests", o.requests},
                   {"cached", o.cached},
                   {"files_not_read", o.files_not_read}};
  } else {
    j["origin"] = nullptr;
  }
  return j;
}

namespace {

Json device_json(const FitReport& r) {
  const auto& set = r.query.devices;
  Json j;
  if (set.devices.empty()) {
    j["name"] = nullptr;
    j["count"] = 0;
    j["memory_bytes"] = nullptr;
    j["usable_bytes"] = nullptr;
    j["ids"] = Json::array();
    return j;
  }
  j["name"] = set.display_name();
  j["count"] = set.count();
  j["memory_bytes"] = r.estimate.capacity;
  j["usable_bytes"] = r.estimate.usable;
  Json ids = Json::array();  // one per device, database ids ("rtx-4090") or sizes ("8gb")
  for (const auto& d : set.devices) {
    ids.push_back(d.id);
  }
  j["ids"] = ids;
  return j;
}

// kv_type: the type the query asked for; the runtime may hold another
// (Estimate::kv_type_held: vLLM's FP8 pages of DeepSeek-V4).
Json memory_json(const Estimate& e, const std::string& kv_type) {
  Json j;
  j["weights_bytes"] = e.memory.weights;
  j["kv_cache_bytes"] = e.memory.kv_cache;
  j["kv_cache_type"] = e.kv_type_held.empty() ? kv_type : e.kv_type_held;
  j["compute_bytes"] = e.memory.compute;
  j["overhead_bytes"] = e.memory.overhead;
  j["margin_bytes"] = e.memory.margin;
  j["projector_bytes"] = e.memory.projector;
  j["total_bytes"] = e.memory.total();
  j["reclaimable_bytes"] = e.memory.reclaimable;
  j["file_pages_dropped_bytes"] = e.file_pages_dropped;
  j["recurrent_state_bytes"] = e.recurrent_state;
  return j;
}

Json result_json(const Estimate& e) {
  Json j;
  if (!e.device_known) {
    j["verdict"] = nullptr;
    j["fits"] = nullptr;
    j["required_bytes"] = e.required;
    j["available_bytes"] = nullptr;
    j["headroom_bytes"] = nullptr;
    j["tight"] = nullptr;
    j["band_bytes"] = e.band;
    j["soft_limit_bytes"] = nullptr;
    return j;
  }
  j["verdict"] = std::string(to_string(e.verdict));
  j["fits"] = e.fits();
  j["required_bytes"] = e.required;
  j["available_bytes"] = e.usable;
  j["headroom_bytes"] = e.headroom;
  j["tight"] = e.tight;
  j["band_bytes"] = e.band;
  j["soft_limit_bytes"] = e.soft_ceiling > 0 ? Json(e.soft_ceiling) : Json(nullptr);
  return j;
}

}  // namespace

std::string render_fit_json(const FitReport& r) {
  Json j;
  j["schema_version"] = 1;
  j["willfit_version"] = WILLFIT_VERSION;
  j["query"] = query_json(r.query);
  j["model"] = model_json(r.query.model, r.estimate.model_weight_bytes);
  j["device"] = device_json(r);
  j["memory"] = memory_json(r.estimate, r.query.kv_type.id);
  j["result"] = result_json(r.estimate);
  Json warnings = Json::array();
  for (const auto& w : r.estimate.warnings) {
    warnings.push_back(w);
  }
  j["warnings"] = warnings;
  Json assumptions = Json::array();
  for (const auto& a : report_assumptions(r)) {
    assumptions.push_back(a);
  }
  j["assumptions"] = assumptions;
  j["hint"] = r.hint.empty() ? Json(nullptr) : Json(r.hint);
  j["suggestions"] = suggestions_json(r.suggestions);
  add_runtime_json(j, r);
  j["speed"] = speed_json(r.speed);
  return j.dump(2) + "\n";
}

}  // namespace willfit::app
