#include "options/query_options.hpp"

#include <CLI/CLI.hpp>

#include "options/options.hpp"
#include "options/runtime_options.hpp"
#include "sources/model_source.hpp"
#include "sources/resolve.hpp"
#include "willfit/inference/runtime.hpp"

namespace willfit::app {

void add_query_options(CLI::App& app, QueryOptionText& o, const QueryOptionHelp& help) {
  auto* model = app.add_option("MODEL", o.model, help.model);
  if (help.model_required) {
    model->required();
  }
  o.precision_option = app.add_option("-p,--precision", o.precision, help.precision);
  if (help.device != nullptr) {
    auto* device = app.add_option("-d,--device", o.device, help.device);
    if (help.device_required) {
      device->required();
    }
  }
  o.context_option = app.add_option("-c,--context", o.context, help.context);
  app.add_option("-b,--batch", o.batch, "Concurrent sequences (default 1)");
  app.add_option("--kv-type", o.kv_type, "KV cache type: f16 (default), q8_0, q4_0");
  if (help.runtime != nullptr) {
    app.add_option("--runtime", o.runtime, help.runtime);
  }
  app.add_option("--mmproj", o.mmproj,
                 "Multimodal projector file (llama.cpp --mmproj, mmproj-*.gguf) loaded with the "
                 "model");
  // Taken out of the arguments by cli.cpp (they reach every model source);
  // listed here so --help shows them.
  app.add_flag("--offline")
      ->description("Read MODEL from disk and willfit's cache only (also HF_HUB_OFFLINE=1)");
  app.add_flag("--refresh")->description("Ask the hub or registry again, ignoring willfit's cache");
}

bool QueryOptionText::context_given() const {
  return context_option != nullptr && context_option->count() > 0;
}

Expected<Precision> query_precision(const QueryOptionText& o, const Model& model,
                                    bool& from_model) {
  from_model = (o.precision_option == nullptr || o.precision_option->count() == 0) &&
               !model.precision_hint.empty();
  return parse_precision(from_model ? model.precision_hint : o.precision);
}

Expected<bool> apply_mmproj_option(const QueryOptionText& o, const Environment& env, Model& model) {
  if (o.mmproj.empty()) {
    return true;
  }
  return add_mmproj_file(o.mmproj, env, model);
}

Expected<bool> apply_model_options(const QueryOptionText& o, const Environment& env,
                                   const std::string& models_file, InferenceQuery& q) {
  auto model = resolve_model(o.model, env, models_file, q.units);
  if (!model) {
    return model.error();
  }
  if (auto mmproj = apply_mmproj_option(o, env, *model); !mmproj) {
    return mmproj.error();
  }
  bool from_model = false;
  auto precision = query_precision(o, *model, from_model);
  if (!precision) {
    return precision.error();
  }
  auto asked = model_at_precision(o.model, *model, *precision);
  if (!asked) {
    return asked.error();
  }
  q.model = std::move(*asked);
  q.precision = std::move(*precision);
  if (q.model.ollama_tag && o.runtime.empty() && !q.runtime) {
    q.runtime = Runtime::Ollama;  // an Ollama tag runs under Ollama (model_from_match)
  }
  describe_file_weights(q.model, q.precision);
  return from_model;
}

Expected<bool> apply_query_options(const QueryOptionText& o, InferenceQuery& q) {
  if (o.context_given() && o.context != "max") {
    auto context = parse_tokens("--context", o.context);
    if (!context) {
      return context.error();
    }
    q.context = *context;
  }
  auto batch = parse_count("--batch", o.batch, 1, 4096);
  if (!batch) {
    return batch.error();
  }
  q.batch = static_cast<int>(*batch);
  auto kv = parse_kv_type(o.kv_type);
  if (!kv) {
    return kv.error();
  }
  q.kv_type = *kv;
  if (!o.runtime.empty()) {
    auto runtime = parse_runtime(o.runtime);
    if (!runtime) {
      return runtime.error();
    }
    q.runtime = *runtime;
  }
  if (auto runs = check_runtime_for_devices(q); !runs) {
    return runs;
  }
  if (auto runs = check_runtime_for_model(q); !runs) {
    return runs;
  }
  return check_kv_type_for_runtime(q);
}

}  // namespace willfit::app
