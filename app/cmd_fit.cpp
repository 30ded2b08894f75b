// `willfit MODEL [options]`: will it fit, and what does it need?
#include <ostream>

#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "command.hpp"
#include "family.hpp"
#include "help.hpp"
#include "model_source.hpp"
#include "options.hpp"
#include "render.hpp"
#include "render_bar.hpp"
#include "render_explain.hpp"
#include "resolve.hpp"
#include "runtime_options.hpp"
#include "speed_options.hpp"
#include "units_option.hpp"
#include "willfit/report.hpp"

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

MODEL sizes: 7b, 1.5b, 350m, 1t; 8x7b (8 experts of a 7b model); 30b-a3b (30 B total, 3 B active).
Precisions: fp32 fp16 bf16 fp8 int8 int4; GGUF types (q8_0 q6_k q5_k_m q4_k_m q4_0 q3_k_m q2_k
  iq4_xs mxfp4 ...); shorthands q8 q6 q5 q4 q3 q2 (q4 = Q4_K_M); nf4, gptq, awq; "4.5bpw".

Runtimes: llama.cpp (default for GGUF), ollama, vllm, transformers (default otherwise), mlx,
  generic; each allocates differently and the answer follows it.

Units: memory sizes are binary, as GPUs and RAM are sold: "8gb" = "8GiB" = 8 x 2^30 bytes;
  "512mb" = 512 MiB. Output shows device memory in GiB (2^30 bytes) and file sizes in GB
  (10^9 bytes), each labelled; --units si prints every figure in GB, --units iec in GiB.
  Bandwidth is a rate, always GB/s (10^9 bytes/s). Context: tokens, "32k" = 32768.

Exit codes: 0 fits, 1 does not fit (or only with offload to system RAM), 2 error.)";

}  // namespace

int run_fit(const std::vector<std::string>& args, Context& ctx) {
  if (args.empty()) {
    return fail(ctx, "no model given: try 'willfit 7b --device 8gb' or 'willfit --help'");
  }
  CLI::App app{kDescription, "willfit"};
  app.footer(commands_help() + "\n" + kFooter);
  app.set_version_flag("-V,--version", version_text());
  std::string model_text;
  std::string precision_text = "fp16";
  std::string device_text;
  std::string context_text;  // empty: the runtime's default (4096; Ollama picks by VRAM)
  std::string batch_text = "1";
  std::string kv_text = "f16";
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
  app.add_option("MODEL", model_text,
                 "Model name (llama-3.1-8b, qwen2.5:7b), model file or directory (.gguf, "
                 ".safetensors, config.json), or size (13b, 8x7b, 30b-a3b)")
      ->required();
  auto* precision_option =
      app.add_option("-p,--precision", precision_text,
                     "Weight precision (default fp16, or what the model name or file implies)");
  app.add_option("-d,--device", device_text,
                 "Device: a name ('rtx 4090', 'm2 max 64gb'), several ('2x rtx 3090', "
                 "'h100:8'), a size (8gb, read as GiB) or auto");
  app.add_option("-c,--context", context_text,
                 "Context length in tokens (default 4096; Ollama: by VRAM), or 'max'");
  app.add_option("-b,--batch", batch_text, "Concurrent sequences (default 1)");
  app.add_option("--kv-type", kv_text, "KV cache type: f16 (default), q8_0, q4_0");
  app.add_option("--ram", ram_text, "System RAM available for offload, e.g. 32gb");
  app.add_option("--flash-attn", flash_text, "Flash attention: auto (default), on, off");
  app.add_option("--gpu-limit", gpu_limit_text,
                 "Memory the GPU may use, replacing the usable-memory rule (e.g. a Mac's "
                 "iogpu.wired_limit_mb)");
  RuntimeOptions runtime_options;
  add_runtime_options(app, runtime_options);
  app.add_option("--devices", devices_file, "Device database file replacing the bundled one");
  app.add_flag("--json", json, "Print one JSON document (schema_version 1)");
  app.add_flag("-q,--quiet", quiet, "Print nothing; the exit code is the answer");
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
  auto model = resolve_model(model_text, ctx.env, models_file, *units);
  if (!model) {
    return fail(ctx, model.error().message);
  }
  const bool precision_from_model =
      precision_option->count() == 0 && !model->precision_hint.empty();
  if (precision_from_model) {
    precision_text = model->precision_hint;
  }
  auto precision = parse_precision(precision_text);
  if (!precision) {
    return fail(ctx, precision.error().message);
  }
  InferenceQuery query;
  query.model = std::move(*model);
  query.precision = std::move(*precision);
  query.units = *units;
  describe_file_weights(query.model, query.precision);
  if (!device_text.empty()) {
    auto devices = resolve_devices(device_text, ctx.env, devices_file, *units);
    if (!devices) {
      return fail(ctx, devices.error().message);
    }
    query.devices = std::move(*devices);
  }
  const bool context_max = context_text == "max";
  const bool context_given = app.count("--context") > 0;
  if (!context_given || context_max) {
    query.context = 4096;
    query.context_is_default = !context_max;
  } else {
    auto context = parse_tokens("--context", context_text);
    if (!context) {
      return fail(ctx, context.error().message);
    }
    query.context = *context;
  }
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
  if (!ram_text.empty()) {
    auto ram = parse_capacity(ram_text);
    if (!ram) {
      return fail(ctx, "--ram: " + ram.error().message);
    }
    query.ram = *ram;
  } else {
    query.ram = query.devices.system_ram;  // detected with --device auto, else unknown
  }
  if (!gpu_limit_text.empty()) {
    auto limit = parse_capacity(gpu_limit_text);
    if (!limit) {
      return fail(ctx, "--gpu-limit: " + limit.error().message);
    }
    query.usable.gpu_limit = *limit;
  }
  if (flash_text == "auto") {
    query.flash_attention = FlashAttention::Auto;
  } else if (flash_text == "on") {
    query.flash_attention = FlashAttention::On;
  } else if (flash_text == "off") {
    query.flash_attention = FlashAttention::Off;
  } else {
    return fail(ctx, "invalid --flash-attn '" + flash_text + "': use auto, on or off");
  }

  if (auto applied = apply_runtime_options(runtime_options, query); !applied) {
    return fail(ctx, applied.error().message);
  }
  std::int64_t longest = 0;
  if (context_max) {
    auto best = apply_context_max(query);
    if (!best) {
      return fail(ctx, best.error().message);
    }
    longest = *best;
  }
  auto speed = apply_speed_options(speed_text, query.devices);
  if (!speed) {
    return fail(ctx, speed.error().message);
  }
  FitReport report = make_fit_report(
      query, *speed, [&] { return smaller_family_models(query.model, ctx.env, models_file); });
  if (context_max) {
    report.assumptions.insert(
        report.assumptions.begin(),
        longest > 0 ? "--context max: " + std::to_string(longest) +
                          " tokens is the longest context that fits (multiples of 256)"
                    : std::string("--context max: not even 256 tokens fit; shown at 256"));
  }
  if (precision_from_model) {
    report.assumptions.push_back(precision_hint_note(report.query.model, report.query.precision));
  } else if (report.query.model.file_weight_bytes) {
    report.assumptions.push_back(
        "weights are the file's exact tensor bytes; --precision names "
        "them but does not change them");
  }
  auto bar = bar_style(ctx.env, color_text, ascii);
  if (!bar) {
    return fail(ctx, bar.error().message);
  }
  bar->units = *units;
  if (!quiet) {
    ctx.out << (json ? render_fit_json(report)
                     : render_fit_text(report, TextStyle{}) +
                           render_memory_bar(report.estimate, *bar) +
                           (explain ? render_fit_explain(report) : ""));
  }
  const Estimate& e = report.estimate;
  return (!e.device_known || e.fits()) ? kExitFits : kExitNoFit;
}

}  // namespace willfit::app
