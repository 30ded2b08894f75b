// `willfit train MODEL [options]`: the memory to train or fine-tune a model,
// per GPU and per host, and what to change when it does not fit.
//
// --device is the device of every GPU ("--device 80gb --gpus 8"). A device
// list that names several GPUs ("2x rtx 3090", once named devices exist) sets
// the GPUs per node itself; --gpus must then agree or be left out. With mixed
// GPUs the smallest one decides.
#include <ostream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "command.hpp"
#include "options/options.hpp"
#include "options/query_options.hpp"
#include "options/units_option.hpp"
#include "render/render_train.hpp"
#include "sources/resolve.hpp"
#include "willfit/training/training.hpp"

namespace willfit::app {
namespace {

constexpr const char* kDescription =
    "willfit train: the memory to train or fine-tune a model.\n\n"
    "Per GPU: weights, gradients, optimizer states, fp32 master weights, activations, "
    "buffers,\nGPU context (CUDA, Metal, ROCm) and allocator margin; host RAM for offloaded "
    "states;\na verdict and, when it does not fit, the changes that would make it fit.";

constexpr const char* kFooter = R"(Examples:
  willfit train 7b --method qlora -d 24gb
  willfit train 8b --micro-batch 4 --seq-len 4k --checkpointing full -d 80gb --gpus 8 --zero 3
  willfit train 405b -d 80gb --gpus 8 --nodes 16 --fsdp --checkpointing full --explain

Bytes per parameter (mixed-precision AdamW): 16 = 2 weights + 2 gradients + 4 fp32 master
  + 8 optimizer (the ZeRO paper's count, the default); --grad-dtype fp32 gives 18,
  --grad-dtype bf16+fp32 (fp32 accumulation) 20, --master-weights none 12.
--device is per GPU: "-d 80gb --gpus 8" is eight 80 GiB GPUs. Sizes are binary: 80gb = 80 GiB.

Exit codes: 0 fits, 1 does not fit (or fits only with states offloaded to host RAM), 2 error.)";

struct Texts {
  std::string model;
  std::string method = "full";
  std::string precision = "bf16";
  std::string optimizer = "adamw";
  std::string master;
  std::string grad;
  std::string micro_batch = "1";
  std::string seq_len = "2048";
  std::string checkpointing;  // empty: full for QLoRA (as PEFT), else none
  std::string flash = "on";
  std::string gpus;
  std::string nodes = "1";
  std::string zero = "0";
  std::string tp = "1";
  std::string pp = "1";
  std::string lora_rank = "8";
  std::string lora_targets = "q_proj,v_proj";
  std::string device;
  std::string ram;
  std::string gpu_limit;
  std::string units;
};

// Turns the option texts into a query; every failure names the option.
struct Flags {
  bool fsdp = false;
  bool sp = false;
  bool dropout = false;
  bool amp = false;
  bool offload_optimizer = false;
  bool offload_params = false;
  bool json = false;
  bool explain = false;
  bool quiet = false;
};

Expected<TrainingQuery> build_query(const Texts& t, const Flags& f, const Environment& env) {
  TrainingQuery q;
  auto units = units_from_option(t.units);
  if (!units) {
    return units.error();
  }
  q.units = *units;
  auto model = resolve_model(t.model, env, "", q.units);
  if (!model) {
    return model.error();
  }
  q.model = std::move(*model);
  auto method = parse_train_method(t.method);
  if (!method) {
    return method.error();
  }
  q.method = *method;
  auto precision = parse_train_precision(t.precision);
  if (!precision) {
    return make_error(precision.error().message + " (training: bf16, fp16, fp32 or fp8)");
  }
  q.precision = *precision;
  auto optimizer = parse_optimizer(t.optimizer);
  if (!optimizer) {
    return optimizer.error();
  }
  q.optimizer = *optimizer;
  if (!t.master.empty()) {
    auto master = parse_master_weights(t.master);
    if (!master) {
      return master.error();
    }
    q.master_weights = *master;
  }
  if (!t.grad.empty()) {
    auto grad = parse_grad_dtype(t.grad);
    if (!grad) {
      return grad.error();
    }
    q.grad_dtype = *grad;
  }
  auto mb = parse_count("--micro-batch", t.micro_batch, 1, 4096);
  if (!mb) {
    return mb.error();
  }
  q.micro_batch = static_cast<int>(*mb);
  auto seq = parse_tokens("--seq-len", t.seq_len);
  if (!seq) {
    return seq.error();
  }
  q.seq_len = *seq;
  if (t.checkpointing.empty()) {
    // PEFT's prepare_model_for_kbit_training turns gradient checkpointing on.
    q.checkpointing = q.method == TrainMethod::Qlora ? Checkpointing::Full : Checkpointing::None;
    q.checkpointing_defaulted = true;
  } else {
    auto ckpt = parse_checkpointing(t.checkpointing);
    if (!ckpt) {
      return ckpt.error();
    }
    q.checkpointing = *ckpt;
  }
  // transformers' attn_implementation names are accepted too.
  const std::string& flash = t.flash;
  if (flash == "on" || flash == "sdpa" || flash == "flash_attention_2") {
    q.flash_attention = true;
  } else if (flash == "off" || flash == "eager") {
    q.flash_attention = false;
  } else {
    return make_error("invalid --flash-attn '" + t.flash +
                      "': use on (sdpa, flash_attention_2) or off (eager)");
  }
  q.autocast = f.amp;
  q.sequence_parallel = f.sp;
  q.dropout = f.dropout;
  struct Count {
    const char* option;
    const std::string& text;
    int& into;
    std::int64_t lo;
    std::int64_t hi;
  };
  int zero = 0;
  for (const Count& c :
       {Count{"--nodes", t.nodes, q.nodes, 1, 4096}, Count{"--zero", t.zero, zero, 0, 3},
        Count{"--tp", t.tp, q.tp, 1, 1024}, Count{"--pp", t.pp, q.pp, 1, 1024},
        Count{"--lora-rank", t.lora_rank, q.lora_rank, 1, 65536}}) {
    auto v = parse_count(c.option, c.text, c.lo, c.hi);
    if (!v) {
      return v.error();
    }
    c.into = static_cast<int>(*v);
  }
  q.zero = zero;
  q.fsdp = f.fsdp;
  q.offload_optimizer = f.offload_optimizer;
  q.offload_params = f.offload_params;
  auto targets = parse_lora_targets(t.lora_targets);
  if (!targets) {
    return targets.error();
  }
  q.lora_targets = std::move(*targets);
  if (!t.ram.empty()) {
    auto ram = parse_capacity(t.ram);
    if (!ram) {
      return make_error("--ram: " + ram.error().message);
    }
    q.ram = *ram;
  }
  if (!t.device.empty()) {
    auto devices = resolve_devices(t.device, env, "", q.units, q.ram);
    if (!devices) {
      return devices.error();
    }
    q.devices = std::move(*devices);
  }
  const int listed = static_cast<int>(q.devices.count());
  q.gpus = listed > 1 ? listed : 1;
  if (!t.gpus.empty()) {
    auto gpus = parse_count("--gpus", t.gpus, 1, 4096);
    if (!gpus) {
      return gpus.error();
    }
    if (listed > 1 && *gpus != listed) {
      return make_error(fmt::format("--device names {} GPUs but --gpus says {}: give one of them",
                                    listed, *gpus));
    }
    q.gpus = static_cast<int>(*gpus);
  }
  if (!t.gpu_limit.empty()) {
    auto limit = parse_capacity(t.gpu_limit);
    if (!limit) {
      return make_error("--gpu-limit: " + limit.error().message);
    }
    q.usable.gpu_limit = *limit;
    if (auto checked = check_gpu_limit(q.usable.gpu_limit, q.devices, q.units); !checked) {
      return checked.error();
    }
  }
  return validate(std::move(q));
}

}  // namespace

int run_train(const std::vector<std::string>& args, Context& ctx) {
  CLI::App app{kDescription, "willfit train"};
  app.footer(kFooter);
  Texts t;
  Flags f;
  app.add_option("MODEL", t.model, kModelHelp)->required();
  app.add_option("--method", t.method, "full (default), lora or qlora");
  app.add_option("-p,--precision", t.precision,
                 "Training precision: bf16 (default), fp16, fp32, fp8");
  app.add_option("--optimizer", t.optimizer,
                 "adamw (default), adamw-8bit, sgd, sgd-momentum, adafactor, lion");
  app.add_option("--master-weights", t.master,
                 "fp32 master copy of the weights: fp32 (default for 16/8-bit) or none");
  app.add_option("--grad-dtype", t.grad,
                 "Gradients: bf16/fp16 (default), fp32, or bf16+fp32 (fp32 accumulation copy)");
  app.add_option("-b,--micro-batch", t.micro_batch, "Sequences per GPU per step (default 1)");
  app.add_option("-s,--seq-len", t.seq_len, "Tokens per sequence; 4k = 4096 (default 2048)");
  app.add_option("--checkpointing", t.checkpointing,
                 "Activation recomputation: none, selective, full (default: full for qlora, as "
                 "PEFT, else none)");
  app.add_option("--flash-attn", t.flash,
                 "Attention: on (default: sdpa, transformers' default, or flash_attention_2) or "
                 "off (eager); transformers' names are accepted too");
  app.add_flag("--amp", f.amp,
               "torch.amp autocast to the --precision (bf16 or fp16) over an fp32 model, as the "
               "HF Trainer's bf16=True/fp16=True: fp32 weights and gradients, 16-bit weight "
               "copies");
  app.add_option("--gpus", t.gpus, "GPUs per node (default 1, or the count --device names)");
  app.add_option("--nodes", t.nodes, "Nodes (default 1)");
  auto* zero = app.add_option("--zero", t.zero, "ZeRO stage 0 (default), 1, 2 or 3");
  auto* fsdp_flag = app.add_flag("--fsdp", f.fsdp, "PyTorch FSDP full shard (as ZeRO-3)");
  zero->excludes(fsdp_flag);
  app.add_option("--tp", t.tp, "Tensor-parallel degree (default 1)");
  app.add_option("--pp", t.pp, "Pipeline stages (default 1)");
  app.add_flag("--sequence-parallel", f.sp, "Megatron sequence parallelism (with --tp)");
  app.add_flag("--dropout", f.dropout,
               "The model trains with dropout (BERT, GPT-2): masks are kept");
  app.add_flag("--offload-optimizer", f.offload_optimizer,
               "Optimizer states, master weights and gradients in host RAM (ZeRO-Offload)");
  app.add_flag("--offload-params", f.offload_params, "Parameters in host RAM too (ZeRO-3 / FSDP)");
  app.add_option("-r,--lora-rank", t.lora_rank, "LoRA rank r (default 8)");
  app.add_option("--lora-targets", t.lora_targets,
                 "Modules with adapters: q_proj,v_proj (default), any of q_proj k_proj v_proj "
                 "o_proj gate_proj up_proj down_proj, or all-linear");
  app.add_option("-d,--device", t.device, "Memory of each GPU, e.g. 80gb (read as GiB)");
  app.add_option("--ram", t.ram,
                 "Host RAM installed per node, to check offloaded states; the OS keeps the "
                 "larger of 2 GiB and 10 %");
  app.add_option("--gpu-limit", t.gpu_limit, "Memory each GPU may use, replacing the rule");
  app.add_flag("--json", f.json, "Print one JSON document (schema_version 1)");
  app.add_flag("--explain", f.explain, "Show the arithmetic behind every term");
  app.add_flag("-q,--quiet", f.quiet,
               "Print nothing, --json included; the exit code is the answer");
  add_units_option(app, t.units);
  if (const int code = parse_cli(app, args, ctx); code >= 0) {
    return code;
  }
  auto query = build_query(t, f, ctx.env);
  if (!query) {
    return fail(ctx, query.error().message);
  }
  if (query->method == TrainMethod::Full &&
      (app.count("--lora-rank") > 0 || app.count("--lora-targets") > 0)) {
    return fail(ctx, "--lora-rank and --lora-targets need --method lora or --method qlora");
  }
  const TrainingEstimate e = make_training_report(*query);
  if (!f.quiet) {
    ctx.out << (f.json ? render_train_json(*query, e) : render_train_text(*query, e, f.explain));
  }
  return (!e.device_known || e.fits()) ? kExitFits : kExitNoFit;
}

}  // namespace willfit::app
