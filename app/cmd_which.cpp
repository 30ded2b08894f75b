// `willfit which MODEL`: the devices that fit a model (one, or 2, 4 or 8 of
// the same GPU), ranked by price, memory or speed, from the device database.
#include <ostream>

#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "command.hpp"
#include "device_source.hpp"
#include "model_source.hpp"
#include "options.hpp"
#include "render_which.hpp"
#include "resolve.hpp"
#include "units_option.hpp"
#include "willfit/which.hpp"

namespace willfit::app {
namespace {

constexpr const char* kDescription =
    "willfit which: the devices that fit a model, one GPU or 2, 4 or 8 of the same,\n"
    "ranked by price (default), memory or speed, with decode tokens/s.";

constexpr const char* kFooter = R"(Examples:
  willfit which llama-3.1-8b -p q4_k_m
  willfit which 70b -p q4_k_m --context 8k --max-price 5000 --vendor nvidia
  willfit which qwen2.5-32b -p q8_0 --sort speed --limit 5

Prices are launch or list prices from the device data (USD, dated by its data_version);
  they go stale. A set of N GPUs costs N times one. Devices without a price rank last
  and are left out by --max-price.

Exit codes: 0 some device fits, 1 none does, 2 error.)";

}  // namespace

int run_which(const std::vector<std::string>& args, Context& ctx) {
  CLI::App app{kDescription, "willfit which"};
  app.footer(kFooter);
  std::string model_text;
  std::string precision_text = "fp16";
  std::string context_text = "4096";
  std::string batch_text = "1";
  std::string kv_text = "f16";
  std::string runtime_text;
  std::string max_price_text;
  std::string vendor;
  std::string sort_text = "price";
  std::string limit_text = "20";
  std::string devices_file;
  std::string models_file;
  std::string units_text;
  bool json = false;
  app.add_option("MODEL", model_text, "Model name, file or size")->required();
  auto* precision_option =
      app.add_option("-p,--precision", precision_text,
                     "Weight precision (default fp16, or what the model implies)");
  app.add_option("-c,--context", context_text, "Context length in tokens (default 4096)");
  app.add_option("-b,--batch", batch_text, "Concurrent sequences (default 1)");
  app.add_option("--kv-type", kv_text, "KV cache type: f16 (default), q8_0, q4_0");
  app.add_option("--runtime", runtime_text,
                 "Runtime: llama.cpp, ollama, vllm, transformers, mlx, generic");
  app.add_option("--max-price", max_price_text, "Highest total price in USD, e.g. 2000");
  app.add_option("--vendor", vendor, "Only this vendor: nvidia, amd, apple, intel, ...");
  app.add_option("--sort", sort_text, "Rank by price (default), memory or speed");
  app.add_option("--limit", limit_text, "Rows to print (default 20; 0 for all)");
  app.add_option("--devices", devices_file, "Device database file replacing the bundled one");
  app.add_option("--models", models_file, "Model catalogue replacing the bundled one");
  app.add_flag("--json", json, "Print one JSON document (schema_version 1)");
  add_units_option(app, units_text);
  if (const int code = parse_cli(app, args, ctx); code >= 0) {
    return code;
  }

  InferenceQuery query;
  const auto units = units_from_option(units_text);
  if (!units) {
    return fail(ctx, units.error().message);
  }
  query.units = *units;
  auto model = resolve_model(model_text, ctx.env, models_file, query.units);
  if (!model) {
    return fail(ctx, model.error().message);
  }
  if (precision_option->count() == 0 && !model->precision_hint.empty()) {
    precision_text = model->precision_hint;
  }
  query.model = std::move(*model);
  auto precision = parse_precision(precision_text);
  if (!precision) {
    return fail(ctx, precision.error().message);
  }
  query.precision = std::move(*precision);
  describe_file_weights(query.model, query.precision);
  auto context = parse_tokens("--context", context_text);
  if (!context) {
    return fail(ctx, context.error().message);
  }
  query.context = *context;
  auto batch = parse_count("--batch", batch_text, 1, 4096);
  if (!batch) {
    return fail(ctx, batch.error().message);
  }
  query.batch = static_cast<int>(*batch);
  auto kv = parse_kv_type(kv_text);
  if (!kv) {
    return fail(ctx, kv.error().message);
  }
  query.kv_type = *kv;
  if (!runtime_text.empty()) {
    auto runtime = parse_runtime(runtime_text);
    if (!runtime) {
      return fail(ctx, runtime.error().message);
    }
    query.runtime = *runtime;
  }
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

  DeviceSource source(ctx.env, devices_file);
  auto db = source.get();
  if (!db) {
    return fail(ctx, db.error().message);
  }
  auto rows = which_devices(query, (*db)->devices(), options);
  const std::size_t found = rows.size();
  if (*limit > 0 && rows.size() > static_cast<std::size_t>(*limit)) {
    rows.resize(static_cast<std::size_t>(*limit));
  }
  const WhichView view{query, options, rows, found, (*db)->data_version()};
  ctx.out << (json ? render_which_json(view) : render_which_text(view));
  return found > 0 ? kExitFits : kExitNoFit;
}

}  // namespace willfit::app
