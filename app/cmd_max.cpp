// `willfit max --device D [MODEL]`: answers in reverse. Without MODEL, the
// largest model that fits; with it, the longest context and the largest
// batch; with --precision best, the highest-quality precision that fits.
#include <ostream>

#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "command.hpp"
#include "model_source.hpp"
#include "options.hpp"
#include "render_max.hpp"
#include "resolve.hpp"
#include "units_option.hpp"
#include "willfit/planner.hpp"

namespace willfit::app {
namespace {

constexpr const char* kDescription =
    "willfit max: the largest model, the longest context, the largest batch or the best\n"
    "precision that fits a device (each found by searching the same estimate as 'willfit').";

constexpr const char* kFooter = R"(Examples:
  willfit max -d "rtx 4090" -p q4_k_m           (the largest model, in parameters)
  willfit max llama-3.1-8b -d "rtx 4090" -p q8_0 (the longest context and largest batch)
  willfit max llama-3.1-70b -d "2x rtx 3090" -p best  (the best precision that fits)

--precision best picks by bits per weight among the GGUF types (llama.cpp, the default) or the
  formats the named --runtime loads. Sizes are bare sizes (willfit 7b...) with an inferred
  architecture; context in multiples of 256 tokens; batch up to 4096.

Exit codes: 0 something fits, 1 nothing fits, 2 error.)";

}  // namespace

int run_max(const std::vector<std::string>& args, Context& ctx) {
  CLI::App app{kDescription, "willfit max"};
  app.footer(kFooter);
  std::string model_text;
  std::string precision_text = "fp16";
  std::string device_text;
  std::string context_text = "4096";
  std::string batch_text = "1";
  std::string kv_text = "f16";
  std::string runtime_text;
  std::string devices_file;
  std::string models_file;
  std::string units_text;
  bool json = false;
  app.add_option("MODEL", model_text,
                 "A model (name, file or size): then the longest context and largest batch");
  auto* precision_option =
      app.add_option("-p,--precision", precision_text,
                     "Weight precision (default fp16, or what the model implies), or 'best'");
  app.add_option("-d,--device", device_text, "Device: a name, several ('2x rtx 3090') or a size")
      ->required();
  app.add_option("-c,--context", context_text, "Context length in tokens (default 4096)");
  app.add_option("-b,--batch", batch_text, "Concurrent sequences (default 1)");
  app.add_option("--kv-type", kv_text, "KV cache type: f16 (default), q8_0, q4_0");
  app.add_option("--runtime", runtime_text,
                 "Runtime: llama.cpp, ollama, vllm, transformers, mlx, generic");
  app.add_option("--devices", devices_file, "Device database file replacing the bundled one");
  app.add_option("--models", models_file, "Model catalogue replacing the bundled one");
  app.add_flag("--json", json, "Print one JSON document (schema_version 1)");
  add_units_option(app, units_text);
  if (const int code = parse_cli(app, args, ctx); code >= 0) {
    return code;
  }

  MaxQuestion question;
  InferenceQuery& query = question.query;
  const auto units = units_from_option(units_text);
  if (!units) {
    return fail(ctx, units.error().message);
  }
  query.units = *units;
  question.model_given = !model_text.empty();
  question.best_precision = precision_text == "best";
  if (question.model_given) {
    auto model = resolve_model(model_text, ctx.env, models_file, query.units);
    if (!model) {
      return fail(ctx, model.error().message);
    }
    if (precision_option->count() == 0 && !model->precision_hint.empty()) {
      precision_text = model->precision_hint;
    }
    query.model = std::move(*model);
  } else if (question.best_precision) {
    return fail(ctx,
                "--precision best needs a MODEL: try 'willfit max llama-3.1-8b -d \"rtx 4090\" "
                "-p best'");
  }
  if (!question.best_precision) {
    auto precision = parse_precision(precision_text);
    if (!precision) {
      return fail(ctx, precision.error().message);
    }
    query.precision = std::move(*precision);
    describe_file_weights(query.model, query.precision);
  }
  auto devices = resolve_devices(device_text, ctx.env, devices_file, query.units);
  if (!devices) {
    return fail(ctx, devices.error().message);
  }
  query.devices = std::move(*devices);
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

  const MaxAnswer answer = plan_max(question);
  ctx.out << (json ? render_max_json(question, answer) : render_max_text(question, answer));
  return answer.found() ? kExitFits : kExitNoFit;
}

}  // namespace willfit::app
