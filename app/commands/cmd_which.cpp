// `willfit which MODEL`: the devices that fit a model (one, or 2, 4 or 8 of
// the same GPU), ranked by price, memory or speed, from the device database.
#include <optional>
#include <ostream>
#include <string>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "command.hpp"
#include "options/options.hpp"
#include "options/query_options.hpp"
#include "options/units_option.hpp"
#include "render/render_which.hpp"
#include "sources/device_source.hpp"
#include "sources/rent_source.hpp"
#include "willfit/core/text.hpp"
#include "willfit/planner/which.hpp"

namespace willfit::app {
namespace {

constexpr const char* kDescription =
    "willfit which: the devices that fit a model, one GPU or 2, 4 or 8 of the same,\n"
    "ranked by price (default), memory or speed, with decode tokens/s.";

constexpr const char* kFooter = R"(Examples:
  willfit which llama-3.1-8b -p q4_k_m
  willfit which 70b -p q4_k_m --context 8k --max-price 5000 --vendor nvidia
  willfit which qwen2.5-32b -p q8_0 --sort speed --limit 5
  willfit which llama-3.1-70b -p fp8 --rent          (cloud GPUs by USD per hour)

Prices are launch or list prices from the device data (USD, dated by its data_version);
  they go stale. A set of N GPUs costs N times one. Devices without a price rank last
  and are left out by --max-price.
--rent ranks only the GPUs with an on-demand offer in the rent table (data/rent.json: a
  provider, date and source per row; --rent-prices FILE or WILLFIT_RENT replaces it) by USD
  per hour for the set that fits, with USD per million generated tokens at the decode speed
  shown; --max-price is then USD per hour.

Exit codes: 0 some device fits, 1 none does, 2 error.)";

}  // namespace

int run_which(const std::vector<std::string>& args, Context& ctx) {
  CLI::App app{kDescription, "willfit which"};
  app.footer(kFooter);
  QueryOptionText o;
  std::string max_price_text;
  std::string vendor;
  std::string sort_text = "price";
  std::string limit_text = "20";
  std::string devices_file;
  std::string models_file;
  std::string units_text;
  std::string rent_file;
  bool rent = false;
  bool json = false;
  QueryOptionHelp help;
  help.model = "Model name, file or size";
  help.precision =
      "Weight precision (default: how the model is published, an Ollama tag's Q4_K_M, the file's "
      "type; fp16 for a size)";
  help.runtime = "Runtime: llama.cpp, ollama, vllm, transformers, mlx, generic";
  help.context =
      "Context length in tokens (default 4096, at most the model's trained length; Ollama: by each "
      "device's VRAM)";
  add_query_options(app, o, help);
  app.add_option("--max-price", max_price_text,
                 "Highest total price in USD, e.g. 2000 (USD per hour with --rent)");
  app.add_option("--vendor", vendor, "Only this vendor: nvidia, amd, apple, intel, ...");
  app.add_option("--sort", sort_text, "Rank by price (default), memory or speed");
  app.add_option("--limit", limit_text, "Rows to print (default 20; 0 for all)");
  app.add_option("--devices", devices_file, "Device database file replacing the bundled one");
  app.add_option("--models", models_file, "Model catalogue replacing the bundled one");
  app.add_flag("--rent", rent,
               "Rank cloud GPUs by on-demand rent (USD/hour, USD per million tokens)");
  app.add_option("--rent-prices", rent_file,
                 "Rent table file replacing the bundled one (also WILLFIT_RENT)");
  app.add_flag("--json", json, "Print one JSON document (schema_version 1)");
  add_units_option(app, units_text);
  if (const int code = parse_cli(app, args, ctx); code >= 0) {
    return code;
  }

  if (o.context_given() && trim(o.context) == "max") {
    return fail(ctx,
                "--context max searches one device; 'willfit which' ranks many: give token "
                "counts, e.g. --context 32k");
  }
  InferenceQuery query;
  const auto units = units_from_option(units_text);
  if (!units) {
    return fail(ctx, units.error().message);
  }
  query.units = *units;
  if (auto applied = apply_model_options(o, ctx.env, models_file, query); !applied) {
    return fail(ctx, applied.error().message);
  }
  if (auto applied = apply_query_options(o, query); !applied) {
    return fail(ctx, applied.error().message);
  }
  // No --context: each device is sized at the context the plain answer would
  // take for it (Ollama's default for its memory, at most the trained length).
  query.context_is_default = !o.context_given();
  // No --ubatch here: Ollama picks its own micro-batch, as in the plain answer.
  query.ubatch_is_default = true;
  WhichOptions options;
  options.vendor = vendor;
  auto sort = parse_which_sort(sort_text);
  if (!sort) {
    return fail(ctx, sort.error().message);
  }
  options.sort = *sort;
  if (!max_price_text.empty()) {
    auto price = parse_count("--max-price", max_price_text, 0, 100'000'000);
    if (!price) {
      return fail(ctx, price.error().message);
    }
    options.max_price_usd = static_cast<double>(*price);
  }
  auto limit = parse_count("--limit", limit_text, 0, 100'000);
  if (!limit) {
    return fail(ctx, limit.error().message);
  }

  std::optional<RentTable> rent_table;
  if (rent || !rent_file.empty()) {
    auto loaded = load_rent_table(ctx.env, rent_file);
    if (!loaded) {
      return fail(ctx, loaded.error().message);
    }
    rent_table = std::move(*loaded);
    options.rent = &*rent_table;
  }

  DeviceSource source(ctx.env, devices_file);
  auto db = source.get();
  if (!db) {
    return fail(ctx, db.error().message);
  }
  if (auto known = check_vendor(**db, vendor); !known) {
    return fail(ctx, known.error().message);
  }
  // A runtime that runs on none of the devices asked about is refused as the
  // plain answer refuses it on one (vLLM with --vendor apple), not answered
  // "none fits".
  if (std::string why = which_runtime_conflict(query, (*db)->devices(), options); !why.empty()) {
    const std::string asked = query.runtime ? fmt::format("--runtime {}", to_string(*query.runtime))
                                            : fmt::format("--precision {}", query.precision.id);
    return fail(ctx, fmt::format("{}{}: {}", asked,
                                 vendor.empty() ? std::string() : " --vendor " + vendor, why));
  }
  auto rows = which_devices(query, (*db)->devices(), options);
  const std::size_t found = rows.size();
  if (*limit > 0 && rows.size() > static_cast<std::size_t>(*limit)) {
    rows.resize(static_cast<std::size_t>(*limit));
  }
  const WhichView view{query,
                       options,
                       rows,
                       found,
                       (*db)->data_version(),
                       rent_table ? rent_table->origin() : std::string()};
  ctx.out << (json ? render_which_json(view) : render_which_text(view));
  return found > 0 ? kExitFits : kExitNoFit;
}

}  // namespace willfit::app
