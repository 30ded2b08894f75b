// `willfit MODEL [options]`: will it fit, and what does it need?
#include <ostream>
#include <string>

#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "command.hpp"
#include "commands/fit_answers.hpp"
#include "help.hpp"
#include "options/query_options.hpp"
#include "options/runtime_options.hpp"
#include "options/speed_options.hpp"
#include "options/units_option.hpp"
#include "render/render.hpp"
#include "render/render_bar.hpp"
#include "render/render_explain.hpp"
#include "render/render_grid.hpp"
#include "willfit/planner/grid.hpp"
#include "willfit/planner/report.hpp"

namespace willfit::app {
namespace {

constexpr const char* kDescription =
    "willfit: will an AI model fit on your hardware?\n\n"
    "Estimates the memory a model needs for inference (weights, KV cache, compute buffers,\n"
    "runtime overhead and a safety margin) and compares it with what a device can use.";

constexpr const char* kFooter = R"(Examples:
  willfit 13b --precision q4 --device 8gb
  willfit 7b -p q8_0 -d 24gb --context 32k
  willfit 8x7b -p q4_k_m -d 48GiB --json
  willfit 13b -p q4 -d 8gb --ram 32gb          (offload plan: -ngl N)
  willfit 7b -d 24gb --runtime vllm             (KV tokens and concurrency)
  willfit 8b -p q4 -d 24gb --context max        (the longest context that fits)
  willfit 13b -p q4 -d 8gb --explain            (the arithmetic and its sources)
  willfit 8b,70b -p q4_k_m,q8_0 -d "rtx 4090,2x rtx 3090"   (a grid: every combination)

MODEL sizes: 7b, 1.5b, 350m, 1t; 8x7b (8 experts of a 7b model); 30b-a3b (30 B total, 3 B active).
Precisions: fp32 fp16 bf16 fp8 int8 int4; GGUF types (q8_0 q6_k q5_k_m q4_k_m q4_0 q3_k_m q2_k
  iq4_xs mxfp4 ...); shorthands q8 q6 q5 q4 q3 q2 (q4 = Q4_K_M); nf4, gptq, awq; "4.5bpw".
  Default: what the model is published in (BF16 for most, FP8 DeepSeek-V3/R1, MXFP4 gpt-oss),
  an Ollama tag's Q4_K_M (under Ollama), a file's own type; FP16 for a bare size.
  int8 and q8 choose different runtimes: int8 (8-bit integer weights) runs with transformers
  (on a Mac int4 and int8 run with MLX, as its 4- and 8-bit), q8 (GGUF Q8_0) with llama.cpp;
  --runtime overrides either.

Runtimes: llama.cpp (default for GGUF), ollama, vllm, transformers (default otherwise), mlx,
  generic; each allocates differently and the answer follows it.

Units: memory sizes are binary, as GPUs and RAM are sold: "8gb" = "8GiB" = 8 x 2^30 bytes;
  "512mb" = 512 MiB. Output shows device memory in GiB (2^30 bytes) and file sizes in GB
  (10^9 bytes), each labelled; --units si prints every figure in GB, --units iec in GiB.
  Bandwidth is a rate, always GB/s (10^9 bytes/s). Context: tokens, "32k" = 32768.

Devices: '+' joins the devices of one machine ("rtx 4090+rtx 3090"); ',' lists devices to
  compare, one grid column each. Comma lists in MODEL, --precision and --context add grid rows.

Exit codes: 0 fits, 1 does not fit (or only with offload to system RAM), 2 error; a grid:
  0 only when every cell fits.)";

}  // namespace

int run_fit(const std::vector<std::string>& args, Context& ctx) {
  if (args.empty()) {
    return fail(ctx, "no model given: try 'willfit 7b --device 8gb' or 'willfit --help'");
  }
  CLI::App app{kDescription, "willfit"};
  app.footer(commands_help() + "\n" + kFooter);
  app.set_version_flag("-V,--version", version_text());
  QueryOptionText o;
  std::string ram_text;
  std::string flash_text = "auto";
  std::string gpu_limit_text;
  std::string devices_file;
  bool json = false;
  bool quiet = false;
  bool explain = false;
  std::string color_text = "auto";
  bool ascii = false;
  std::string units_text;
  SpeedOptionText speed_text;
  std::string models_file;
  QueryOptionHelp help;
  const std::string model_help = std::string(kModelHelp) + "; a comma list draws a grid";
  help.model = model_help.c_str();
  help.precision =
      "Weight precision (default: how the model is published, an Ollama tag's Q4_K_M, the "
      "file's type; fp16 for a size). int8 runs with transformers (on a Mac int4 and int8 "
      "with MLX), q8 (Q8_0) with llama.cpp";
  help.device =
      "Device: a name ('rtx 4090', 'm2 max 64gb'), several in one machine ('2x rtx 3090', "
      "'rtx 4090+rtx 3090', 'h100:8'), a size (8gb, read as GiB) or auto; a comma list "
      "compares them in a grid";
  help.context = "Context length in tokens (default 4096; Ollama: by VRAM), or 'max'";
  add_query_options(app, o, help);
  app.add_option("--ram", ram_text,
                 "System RAM installed, e.g. 32gb: for layers offloaded from a GPU, or the size "
                 "of -d cpu; the OS keeps the larger of 2 GiB and 10 %");
  app.add_option("--flash-attn", flash_text, "Flash attention: auto (default), on, off");
  app.add_option("--gpu-limit", gpu_limit_text,
                 "Memory the GPU may use, replacing the usable-memory rule (e.g. a Mac's "
                 "iogpu.wired_limit_mb)");
  RuntimeOptions runtime_options;
  add_runtime_options(app, runtime_options);
  app.add_option("--devices", devices_file, "Device database file replacing the bundled one");
  app.add_flag("--json", json, "Print one JSON document (schema_version 1)");
  app.add_flag("-q,--quiet", quiet, "Print nothing, --json included; the exit code is the answer");
  app.add_flag("--explain", explain, "Show the arithmetic behind every line and its sources");
  app.add_option("--color", color_text,
                 "Colour: auto (default: on a terminal, unless NO_COLOR is set), always, never");
  app.add_flag("--ascii", ascii, "Draw the memory bar with ASCII letters, not Unicode blocks");
  add_units_option(app, units_text);
  add_speed_options(app, speed_text);
  app.add_option("--models", models_file,
                 "Model catalogue to use instead of the bundled one (JSON, as data/models.json)");
  if (const int code = parse_cli(app, args, ctx); code >= 0) {
    return code;
  }

  const auto units = units_from_option(units_text);
  if (!units) {
    return fail(ctx, units.error().message);
  }
  FitCommon common{InferenceQuery{}, !ram_text.empty(), runtime_options, models_file, devices_file};
  common.base.units = *units;
  o.text_only = runtime_options.text_only;
  auto models = fit_models(o, ctx.env, models_file, *units);
  if (!models) {
    return fail(ctx, models.error().message);
  }
  std::optional<Bytes> ram;
  if (!ram_text.empty()) {
    if (o.device.empty()) {
      return fail(ctx,
                  "--ram is system memory for layers offloaded from a GPU: add --device, e.g. "
                  "--device 8gb --ram 32gb");
    }
    auto parsed = parse_capacity(ram_text);
    if (!parsed) {
      return fail(ctx, "--ram: " + parsed.error().message);
    }
    ram = *parsed;
  }
  auto columns = fit_columns(o, ctx.env, devices_file, *units, ram);
  if (!columns) {
    return fail(ctx, columns.error().message);
  }
  auto contexts = fit_contexts(o);
  if (!contexts) {
    return fail(ctx, contexts.error().message);
  }
  InferenceQuery& base = common.base;
  QueryOptionText scalars = o;
  scalars.context_option = nullptr;  // each context of a list is parsed by fit_contexts
  if (auto applied = apply_query_options(scalars, base); !applied) {
    return fail(ctx, applied.error().message);
  }
  if (ram) {
    base.ram = *ram;
  }
  if (!gpu_limit_text.empty()) {
    auto limit = parse_capacity(gpu_limit_text);
    if (!limit) {
      return fail(ctx, "--gpu-limit: " + limit.error().message);
    }
    base.usable.gpu_limit = *limit;
  }
  if (flash_text == "auto") {
    base.flash_attention = FlashAttention::Auto;
  } else if (flash_text == "on") {
    base.flash_attention = FlashAttention::On;
  } else if (flash_text == "off") {
    base.flash_attention = FlashAttention::Off;
  } else {
    return fail(ctx, "invalid --flash-attn '" + flash_text + "': use auto, on or off");
  }
  for (auto& column : *columns) {
    auto speed = apply_speed_options(speed_text, column.devices);
    if (!speed) {
      return fail(ctx, speed.error().message);
    }
    column.speed = *speed;
  }
  auto bar = bar_style(ctx.env, color_text, ascii);
  if (!bar) {
    return fail(ctx, bar.error().message);
  }
  bar->units = *units;
  if (models->size() > 1 || columns->size() > 1 || contexts->size() > 1 ||
      models->front().size() > 1) {
    if (explain) {
      return fail(ctx, "--explain explains one answer, not a grid: give one value per option");
    }
    if (contexts->front().max) {
      return fail(ctx,
                  "--context max searches one answer, not a grid: give token counts, e.g. "
                  "--context 4096,32k");
    }
    auto grid = answer_grid(common, *models, *columns, *contexts, !o.device.empty(), ctx.env);
    if (!grid) {
      return fail(ctx, grid.error().message);
    }
    if (!quiet) {
      ctx.out << (json ? render_grid_json(*grid) : render_grid_text(*grid, bar->color));
    }
    return grid_all_ok(*grid) ? kExitFits : kExitNoFit;
  }

  auto report =
      answer_cell(common, models->front().front(), columns->front(), contexts->front(), ctx.env);
  if (!report) {
    return fail(ctx, report.error().message);
  }
  if (!quiet) {
    ctx.out << (json ? render_fit_json(*report)
                     : render_fit_text(*report, TextStyle{}) +
                           render_memory_bar(report->estimate, *bar) +
                           (explain ? render_fit_explain(*report) : ""));
  }
  return grid_cell_ok(report->estimate) ? kExitFits : kExitNoFit;
}

}  // namespace willfit::app
