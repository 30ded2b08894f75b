#include "commands/fit_answers.hpp"

#include <algorithm>

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "options/options.hpp"
#include "sources/device_source.hpp"
#include "sources/family.hpp"
#include "sources/model_source.hpp"
#include "sources/resolve.hpp"
#include "willfit/planner/grid.hpp"

namespace willfit::app {
namespace {

// A list option's values: its comma list, or the text as typed when it has
// no comma (a single value keeps the plain answer's messages).
Expected<std::vector<std::string>> values(const std::string& text, const char* option) {
  if (text.find(',') == std::string::npos) {
    return std::vector<std::string>{text};
  }
  return split_list(text, option);
}

// The line --context max adds to the answer's assumptions: the context it
// chose and why, in the words of the rule that chose it.
std::string context_max_words(const LongestContext& longest, const FitReport& report) {
  if (longest.tokens <= 0) {
    return "--context max: not even 256 tokens fit; shown at 256";
  }
  if (report.estimate.verdict == Verdict::Offload) {
    return fmt::format(
        "--context max: {} tokens is the longest context that fits with the offload below (none "
        "fits whole; multiples of 256)",
        longest.tokens);
  }
  if (longest.tight) {
    return fmt::format(
        "--context max: {} tokens is the longest context that fits, tight: none clears the "
        "+/-{:g}% error of this estimate (multiples of 256)",
        longest.tokens, report.estimate.error_band_pct);
  }
  return fmt::format(
      "--context max: {} tokens is the longest context that fits clear of the +/-{:g}% error of "
      "this estimate (multiples of 256){}",
      longest.tokens, report.estimate.error_band_pct,
      longest.edge > longest.tokens ? fmt::format("; up to {} fits only tight", longest.edge)
                                    : std::string());
}

}  // namespace

Expected<std::vector<std::vector<ModelChoice>>> fit_models(const QueryOptionText& o,
                                                           const Environment& env,
                                                           const std::string& models_file,
                                                           UnitSystem units) {
  std::vector<std::string> names{o.model};
  if (!looks_like_model_path(o.model, env)) {
    auto list = values(o.model, "MODEL");
    if (!list) {
      return list.error();
    }
    names = std::move(*list);
  }
  const bool precision_given = o.precision_option->count() > 0;
  std::vector<Precision> precisions;
  if (precision_given) {
    auto list = values(o.precision, "--precision");
    if (!list) {
      return list.error();
    }
    for (const auto& text : *list) {
      auto p = parse_precision(text);
      if (!p) {
        return p.error();
      }
      precisions.push_back(std::move(*p));
    }
  }
  if (names.size() > 1 && !o.mmproj.empty()) {
    return make_error("--mmproj belongs to one model: give a single MODEL with it");
  }
  std::vector<std::vector<ModelChoice>> out;
  for (const auto& name : names) {
    auto model = resolve_model(name, env, models_file, units, !o.text_only && o.mmproj.empty());
    if (!model) {
      return model.error();
    }
    if (auto mmproj = apply_mmproj_option(o, env, *model); !mmproj) {
      return mmproj.error();
    }
    std::vector<ModelChoice> choices;
    if (precision_given) {
      for (const auto& p : precisions) {
        auto asked = model_at_precision(name, *model, p);
        if (!asked) {
          return asked.error();
        }
        choices.push_back(ModelChoice{std::move(*asked), p, false, true});
      }
    } else {
      bool from_model = false;
      auto p = query_precision(o, *model, from_model);
      if (!p) {
        return p.error();
      }
      choices.push_back(ModelChoice{*model, std::move(*p), from_model});
    }
    for (auto& c : choices) {
      describe_file_weights(c.model, c.precision);
    }
    out.push_back(std::move(choices));
  }
  return out;
}

Expected<std::vector<DeviceColumn>> fit_columns(const QueryOptionText& o, const Environment& env,
                                                const std::string& devices_file, UnitSystem units,
                                                std::optional<Bytes> ram) {
  std::vector<DeviceColumn> out;
  if (o.device.empty()) {
    out.emplace_back();
    return out;
  }
  auto list = values(o.device, "--device");
  if (!list) {
    return list.error();
  }
  for (const auto& text : *list) {
    auto devices = resolve_devices(text, env, devices_file, units, ram);
    if (!devices) {
      return devices.error();
    }
    out.push_back(DeviceColumn{std::move(*devices), {}});
  }
  return out;
}

Expected<std::vector<ContextChoice>> fit_contexts(const QueryOptionText& o) {
  if (!o.context_given()) {
    return std::vector<ContextChoice>{ContextChoice{}};
  }
  auto list = values(o.context, "--context");
  if (!list) {
    return list.error();
  }
  std::vector<ContextChoice> out;
  for (const auto& text : *list) {
    ContextChoice c;
    c.given = true;
    if (text == "max") {
      if (list->size() > 1) {
        return make_error(
            "--context max cannot be one value of a list: give token counts, e.g. 4096,32k");
      }
      c.max = true;
    } else {
      auto tokens = parse_tokens("--context", text);
      if (!tokens) {
        return tokens.error();
      }
      c.tokens = *tokens;
    }
    out.push_back(c);
  }
  return out;
}

Expected<FitReport> answer_cell(const FitCommon& common, const ModelChoice& choice,
                                const DeviceColumn& column, const ContextChoice& context,
                                const Environment& env) {
  InferenceQuery query = common.base;
  query.model = choice.model;
  query.precision = choice.precision;
  query.devices = column.devices;
  if (!common.ram_given) {
    query.ram = query.devices.system_ram;  // detected with --device auto, else unknown
  }
  query.context = context.tokens;
  query.context_is_default = !context.given;
  if (auto applied = apply_runtime_options(common.runtime_options, query); !applied) {
    return applied.error();
  }
  if (auto limit = check_gpu_limit(query.usable.gpu_limit, query.devices, query.units); !limit) {
    return limit.error();
  }
  // On one unified-memory device --ram is that same memory: more than the
  // device has is a typo or another machine.
  if (query.ram && query.devices.count() == 1 &&
      query.devices.devices.front().kind == DeviceKind::Unified &&
      *query.ram > query.devices.devices.front().memory_bytes) {
    const Device& d = query.devices.devices.front();
    return make_error(fmt::format(
        "--ram {} is more than the {} of unified memory of {}, which the GPU and the CPU share: "
        "give at most that, or leave --ram out",
        format_memory(*query.ram, query.units), format_memory(d.memory_bytes, query.units),
        d.name));
  }
  const bool ollama_by_tag = !query.runtime && query.model.ollama_tag;
  if (ollama_by_tag) {
    query.runtime = Runtime::Ollama;
  }
  LongestContext longest;
  if (context.max) {
    auto best = apply_context_max(query);
    if (!best) {
      return best.error();
    }
    longest = *best;
  }
  FitReport report = make_fit_report(
      query, column.speed,
      [&] { return smaller_family_models(query.model, env, common.models_file); },
      [&] {
        // Other hardware for the suggestions; none when the database cannot
        // be read (the suggestions then leave it out, as smaller models do).
        DeviceSource source(env, common.devices_file);
        auto db = source.get();
        return db ? (*db)->devices() : std::vector<Device>{};
      });
  if (context.max) {
    report.assumptions.insert(report.assumptions.begin(), context_max_words(longest, report));
  }
  if (ollama_by_tag) {
    report.assumptions.push_back(
        "runtime Ollama: the model was named by an Ollama tag (give --runtime to change it)");
  }
  if (!choice.precision_given && !choice.precision_from_model) {
    report.assumptions.push_back(fmt::format(
        "precision {}: the default when the model names none (a size, or a catalogue entry "
        "without a published precision); give --precision to change it",
        report.query.precision.name));
  }
  if (choice.precision_from_model) {
    report.assumptions.push_back(precision_hint_note(report.query.model, report.query.precision));
  } else if (report.query.model.file_weight_bytes) {
    report.assumptions.push_back(
        "weights are the file's exact tensor bytes; --precision names "
        "them but does not change them");
  }
  return report;
}

Expected<GridView> answer_grid(const FitCommon& common,
                               const std::vector<std::vector<ModelChoice>>& models,
                               const std::vector<DeviceColumn>& columns,
                               const std::vector<ContextChoice>& contexts, bool devices_given,
                               const Environment& env) {
  GridView grid;
  grid.models = models.size();
  grid.contexts = contexts.size();
  grid.devices_given = devices_given;
  for (const auto& column : columns) {
    grid.columns.push_back(devices_given ? column.devices.display_name() : "NEEDS");
  }
  for (const auto& choices : models) {
    grid.precisions = std::max(grid.precisions, choices.size());
    for (const auto& choice : choices) {
      for (const auto& context : contexts) {
        GridRow row;
        row.model = choice.model.name.empty() ? choice.model.id : choice.model.name;
        row.precision = choice.precision.name;
        for (const auto& column : columns) {
          auto report = answer_cell(common, choice, column, context, env);
          if (!report) {
            return report.error();
          }
          row.cells.push_back(std::move(*report));
        }
        row.context = row.cells.front().estimate.context;
        grid.rows.push_back(std::move(row));
      }
    }
  }
  return grid;
}

bool grid_all_ok(const GridView& grid) {
  return std::all_of(grid.rows.begin(), grid.rows.end(), [](const GridRow& row) {
    return std::all_of(row.cells.begin(), row.cells.end(),
                       [](const FitReport& r) { return grid_cell_ok(r.estimate); });
  });
}

}  // namespace willfit::app
