// `willfit max --device D [MODEL]`: answers in reverse. Without MODEL, the
// largest model that fits; with it, the longest context and the largest
// batch; with --precision best, the highest-quality precision that fits.
#include <ostream>

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "command.hpp"
#include "options/query_options.hpp"
#include "options/units_option.hpp"
#include "render/render_max.hpp"
#include "sources/model_source.hpp"
#include "sources/resolve.hpp"
#include "willfit/core/text.hpp"
#include "willfit/planner/planner.hpp"

namespace willfit::app {
namespace {

constexpr const char* kDescription =
    "willfit max: the largest model, the longest context, the largest batch or the best\n"
    "precision that fits a device (each found by searching the same estimate as 'willfit').";

constexpr const char* kFooter = R"(Examples:
  willfit max -d "rtx 4090" -p q4_k_m           (the largest model, in parameters)
  willfit max llama-3.1-8b -d "rtx 4090" -p q8_0 (the longest context and largest batch)
  willfit max llama-3.1-70b -d "2x rtx 3090" -p best  (the best precision that fits)

--precision best picks by published quality among the GGUF types (llama.cpp, the default:
  mean KL divergence from FP16 in llama.cpp's Llama-3-8B scoreboard, so Q4_K_S before legacy
  Q4_1), or by bits per weight among the formats the named --runtime loads. Sizes are bare sizes (willfit 7b...) with an inferred
  architecture; context in multiples of 256 tokens; batch up to 4096.

Exit codes: 0 something fits, 1 nothing fits, 2 error.)";

// Found by review: without -p, 'willfit max' answers at the 16-bit default
// (FP16 for a size, BF16 for a checkpoint): "3.36 B parameters" on an 8 GB
// card, "longest context: none" for Llama-3.1-8B, with nothing saying that a
// quantisation, what most people run on such a card, would answer. As the
// plain verdict suggests a lower precision, this says what the runtime's
// common 4-bit precision finds (lib: max_hint), or which precision -p best
// finds; under a named runtime in its own formats (INT4 under MLX).
std::string hint_text(const MaxHint& hint, const Precision& asked) {
  if (hint.best) {
    return fmt::format("  hint: nothing fits at {}; -p best finds {} ({} tokens of context){}\n",
                       asked.name, hint.precision.name, hint.context_tokens.value_or(0),
                       hint.precision.id == hint.try_precision.id
                           ? std::string()
                           : ", or try -p " + hint.try_precision.id);
  }
  return fmt::format("  hint: at {} (-p {}{}) the largest is {:.2f} B parameters\n",
                     hint.precision.name, hint.precision.id,
                     hint.other_runtime ? ", a GGUF on llama.cpp" : "",
                     static_cast<double>(hint.params.value_or(0)) / 1e9);
}

}  // namespace

int run_max(const std::vector<std::string>& args, Context& ctx) {
  CLI::App app{kDescription, "willfit max"};
  app.footer(kFooter);
  QueryOptionText o;
  std::string devices_file;
  std::string models_file;
  std::string units_text;
  bool json = false;
  QueryOptionHelp help;
  help.model = "A model (name, file or size): then the longest context and largest batch";
  help.model_required = false;
  help.precision =
      "Weight precision (default: how the model is published, an Ollama tag's Q4_K_M, the file's "
      "type; fp16 for a size), or 'best'";
  help.device = "Device: a name, several ('2x rtx 3090') or a size";
  help.device_required = true;
  help.runtime = "Runtime: llama.cpp, ollama, vllm, transformers, mlx, generic";
  add_query_options(app, o, help);
  app.add_option("--devices", devices_file, "Device database file replacing the bundled one");
  app.add_option("--models", models_file, "Model catalogue replacing the bundled one");
  app.add_flag("--json", json, "Print one JSON document (schema_version 1)");
  add_units_option(app, units_text);
  if (const int code = parse_cli(app, args, ctx); code >= 0) {
    return code;
  }

  if (o.context_given() && trim(o.context) == "max") {
    return fail(ctx,
                "--context max is a question of 'willfit MODEL'; 'willfit max MODEL' already "
                "finds the longest context: give token counts here, e.g. --context 8k");
  }
  MaxQuestion question;
  InferenceQuery& query = question.query;
  // No --ubatch here: Ollama picks its own micro-batch, as in the plain answer.
  query.ubatch_is_default = true;
  const auto units = units_from_option(units_text);
  if (!units) {
    return fail(ctx, units.error().message);
  }
  query.units = *units;
  question.model_given = !o.model.empty();
  question.best_precision = o.precision == "best";
  if (question.model_given) {
    auto model = resolve_model(o.model, ctx.env, models_file, query.units);
    if (!model) {
      return fail(ctx, model.error().message);
    }
    if (auto mmproj = apply_mmproj_option(o, ctx.env, *model); !mmproj) {
      return fail(ctx, mmproj.error().message);
    }
    query.model = std::move(*model);
    if (query.model.ollama_tag) {
      query.runtime = Runtime::Ollama;  // an Ollama tag runs under Ollama; --runtime overrides
    }
  } else if (question.best_precision) {
    return fail(ctx,
                "--precision best needs a MODEL: try 'willfit max llama-3.1-8b -d \"rtx 4090\" "
                "-p best'");
  }
  if (!question.best_precision) {
    bool from_model = false;
    auto precision = query_precision(o, query.model, from_model);
    if (!precision) {
      return fail(ctx, precision.error().message);
    }
    if (!from_model) {
      auto asked = model_at_precision(o.model, query.model, *precision);
      if (!asked) {
        return fail(ctx, asked.error().message);
      }
      query.model = std::move(*asked);
    }
    query.precision = std::move(*precision);
    describe_file_weights(query.model, query.precision);
  }
  auto devices = resolve_devices(o.device, ctx.env, devices_file, query.units);
  if (!devices) {
    return fail(ctx, devices.error().message);
  }
  query.devices = std::move(*devices);
  if (auto applied = apply_query_options(o, query); !applied) {
    return fail(ctx, applied.error().message);
  }

  const MaxAnswer answer = plan_max(question);
  // Only when no -p was given: a precision asked is the user's choice.
  const std::optional<MaxHint> hint =
      o.precision_option->count() == 0 ? max_hint(question, answer) : std::nullopt;
  ctx.out << (json ? render_max_json(question, answer, hint) : render_max_text(question, answer));
  if (!json && hint) {
    ctx.out << hint_text(*hint, query.precision);
  }
  return answer.found() ? kExitFits : kExitNoFit;
}

}  // namespace willfit::app
