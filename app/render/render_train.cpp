// `willfit train` answers: text (verdict first, the per-GPU breakdown, host
// RAM, the convention, suggestions) and JSON (schema_version 1, keys in
// docs/training.md). Every figure comes from the estimate.
#include "render/render_train.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "render/render_json_model.hpp"

namespace willfit::app {
namespace {

using Json = nlohmann::ordered_json;

std::string method_text(const TrainingQuery& q) {
  switch (q.method) {
    case TrainMethod::Full:
      return "full fine-tuning";
    case TrainMethod::Lora:
      return fmt::format("LoRA r={}", q.lora_rank);
    case TrainMethod::Qlora:
      return fmt::format("QLoRA r={}", q.lora_rank);
  }
  return "training";
}

std::string setup_text(const TrainingQuery& q, const TrainingEstimate& e) {
  std::string s = fmt::format("{} GPU{}", e.total_gpus, e.total_gpus > 1 ? "s" : "");
  if (q.nodes > 1) {
    s += fmt::format(" ({} nodes x {})", q.nodes, q.gpus);
  }
  std::vector<std::string> parts;
  if (e.data_parallel > 1) {
    parts.push_back(fmt::format("data parallel {}", e.data_parallel));
  }
  if (q.tp > 1) {
    parts.push_back(fmt::format("tensor parallel {}{}", q.tp, q.sequence_parallel ? " + SP" : ""));
  }
  if (q.pp > 1) {
    parts.push_back(fmt::format("{} pipeline stages", q.pp));
  }
  if (q.fsdp) {
    parts.push_back("FSDP full shard");
  } else if (q.zero > 0) {
    parts.push_back(fmt::format("ZeRO-{}", q.zero));
  }
  if (q.offload_optimizer) {
    parts.push_back(q.offload_params ? "optimizer and params offloaded" : "optimizer offloaded");
  }
  for (std::size_t i = 0; i < parts.size(); ++i) {
    s += (i == 0 ? ": " : ", ") + parts[i];
  }
  return s;
}

// " per GPU", or "" when training runs on the CPU (one machine's RAM).
std::string per_gpu(const TrainingQuery& q) {
  return processor_word(q.devices) == "CPU" ? "" : " per GPU";
}

std::string verdict_line(const TrainingQuery& q, const TrainingEstimate& e) {
  const std::string per = per_gpu(q);
  const std::string what =
      fmt::format("{} of {} ({}{}, {})", method_text(q), q.model.name, to_string(q.precision),
                  q.autocast ? " autocast" : "", to_string(q.optimizer));
  if (!e.device_known) {
    return fmt::format("{} needs {}{} (no --device given: nothing to compare with)\n", what,
                       format_memory(e.required, q.units), per);
  }
  const std::string where =
      fmt::format("{}{}", e.total_gpus > 1 ? fmt::format("{}x ", e.total_gpus) : "",
                  q.devices.devices.front().name);
  // As the inference answer words it (render_text.cpp): a headroom within
  // the estimate's own error either way is "tight".
  const std::string band = fmt::format("+/-{:g}%", e.error_band_pct);
  switch (e.verdict) {
    case Verdict::Fits:
      if (e.tight) {
        return fmt::format(
            "FITS, but tight: {} on {}: needs {}{} of {} usable ({} to spare, within the {} "
            "error of this estimate)\n",
            what, where, format_memory(e.required, q.units), per, format_memory(e.usable, q.units),
            format_memory(e.headroom, q.units), band);
      }
      return fmt::format("FITS: {} on {}: needs {}{} of {} usable ({} to spare)\n", what, where,
                         format_memory(e.required, q.units), per, format_memory(e.usable, q.units),
                         format_memory(e.headroom, q.units));
    case Verdict::Offload:
      return fmt::format(
          "FITS ONLY WITH OFFLOAD{}: {} on {}: needs {}{} of {} usable{}, and {} of host "
          "RAM per node\n",
          e.tight ? ", but tight" : "", what, where, format_memory(e.required, q.units), per,
          format_memory(e.usable, q.units),
          e.tight ? fmt::format(" ({} to spare, within the {} error of this estimate)",
                                format_memory(e.headroom, q.units), band)
                  : std::string(),
          format_memory(e.host_bytes, q.units));
    case Verdict::NoFit:
      break;
  }
  if (e.headroom >= 0) {
    return fmt::format(
        "DOES NOT FIT: {} on {}: the GPUs suffice ({} of {}) but host RAM does not\n", what, where,
        format_memory(e.required, q.units), format_memory(e.usable, q.units));
  }
  if (e.tight) {
    return fmt::format(
        "DOES NOT FIT, but tight: short by {}, within the {} error of this estimate: {} on {}: "
        "needs {}{}, {} usable; it may fit\n",
        format_memory(-e.headroom, q.units), band, what, where, format_memory(e.required, q.units),
        per, format_memory(e.usable, q.units));
  }
  return fmt::format("DOES NOT FIT: {} on {}: needs {}{}, {} usable (short by {})\n", what, where,
                     format_memory(e.required, q.units), per, format_memory(e.usable, q.units),
                     format_memory(-e.headroom, q.units));
}

std::string row(std::string_view label, Bytes bytes, std::string_view detail, UnitSystem units) {
  return fmt::format("  {:<20}{:>11}  {}\n", label, format_memory(bytes, units), detail);
}

std::string join(const std::vector<std::string>& v, std::string_view sep) {
  std::string s;
  for (const auto& x : v) {
    s += (s.empty() ? "" : std::string(sep)) + x;
  }
  return s;
}

}  // namespace

std::string render_train_text(const TrainingQuery& q, const TrainingEstimate& e, bool explain) {
  const TrainingBreakdown& b = e.per_gpu;
  std::string s = verdict_line(q, e);
  const bool cpu = processor_word(q.devices) == "CPU";
  const std::string per = per_gpu(q);
  s += fmt::format("\n{} ({}; micro-batch {} x {} tokens, checkpointing {})\n",
                   cpu ? "On the CPU" : "Per GPU", cpu ? "in system RAM" : setup_text(q, e),
                   q.micro_batch, q.seq_len, to_string(q.checkpointing));
  const std::string trained =
      q.method == TrainMethod::Full
          ? ""
          : fmt::format("{:.3g} M adapter params", static_cast<double>(e.trainable_params) / 1e6);
  s += row("weights", b.weights,
           q.method == TrainMethod::Qlora  ? "NF4 base (double quantisation) + adapters"
           : q.method == TrainMethod::Lora ? "frozen 16-bit base + adapters"
           : q.autocast                    ? "fp32 (autocast)"
                                           : std::string(to_string(q.precision)),
           q.units);
  s += row("gradients", b.gradients,
           fmt::format("{:g} bytes/param{}", e.state.gradients,
                       trained.empty() ? "" : ", " + trained + " only"),
           q.units);
  s += row("optimizer states", b.optimizer,
           fmt::format("{}, {:.4g} bytes/param", to_string(q.optimizer), e.state.optimizer),
           q.units);
  s += row("fp32 master weights", b.master_weights,
           q.autocast ? "none: the fp32 weights are the master"
                      : fmt::format("{:g} bytes/param", e.state.master),
           q.units);
  if (q.autocast) {
    s += row(fmt::format("{} weight copies", to_string(q.precision)), b.weight_copies,
             "autocast's casts, held until the backward pass", q.units);
  }
  s += row("activations", b.activations, "kept for the backward pass, with the logits", q.units);
  s += row("buffers", b.buffers,
           q.fsdp || q.zero >= 3 ? "gathered layer" : (q.zero > 0 ? "ZeRO bucket" : "temporary"),
           q.units);
  s += row(processor_word(q.devices) == "CPU" ? "runtime" : "GPU context", b.overhead,
           fmt::format("{}, kernels, libraries", context_words(q.devices)), q.units);
  s += row("allocator margin", b.margin, "fragmentation, 5% of allocated", q.units);
  s += fmt::format("  {:-<20}{:->11}\n", "", "");
  s += row("total" + per, e.required,
           fmt::format("+/- {:g}% (measured error of this estimate)", e.error_band_pct), q.units);
  if (e.device_known) {
    s += row("usable" + per, e.usable,
             fmt::format("of {} on {}", format_memory(e.capacity, q.units),
                         q.devices.devices.front().name),
             q.units);
    s += fmt::format("  {:<20}{:>11}  {}\n", "headroom", format_memory_signed(e.headroom, q.units),
                     e.headroom < 0 ? "short" : "free");
  }
  if (e.host_bytes > 0 || q.ram) {
    s += row("host RAM per node", e.host_bytes,
             q.ram ? fmt::format("offloaded states, of {} given", format_memory(*q.ram, q.units))
                   : "offloaded states (x 1.5 for pinned buffers)",
             q.units);
  }
  s += fmt::format("\nConvention: {}\n", e.convention);
  if (explain) {
    s += "\nHow it adds up:\n";
    s += "  " + e.headline + "\n";
    for (const auto& t : e.terms) {
      s += fmt::format("  {:<15} {}\n", t.key, t.formula);
      s += fmt::format("  {:<15}   source: {}\n", "", t.source);
    }
  }
  if (!e.suggestions.empty()) {
    // Changes that leave it short are listed only when none fits
    // (training.cpp make_training_report), closest first.
    const bool none_fits = std::all_of(e.suggestions.begin(), e.suggestions.end(),
                                       [](const auto& x) { return x.verdict == Verdict::NoFit; });
    s += none_fits ? fmt::format("\nNo one change fits; the closest (each re-estimated{}):\n", per)
                   : fmt::format("\nWhat would help (each re-estimated{}):\n", per);
    int n = 0;
    for (const auto& sug : e.suggestions) {
      // Valid as printed: a value with a space ("8x rtx 3090") is quoted.
      std::vector<std::string> words;
      for (const auto& a : sug.args) {
        words.push_back(a.find(' ') != std::string::npos ? "\"" + a + "\"" : a);
      }
      s += fmt::format("  {}. {} ({}): {}{}, {}{}\n", ++n, sug.change, join(words, " "),
                       format_memory(sug.total_bytes, q.units), per,
                       sug.verdict == Verdict::Fits      ? "fits"
                       : sug.verdict == Verdict::Offload ? "fits with offload"
                                                         : "still short",
                       sug.tight && sug.verdict != Verdict::NoFit
                           ? " (tight: within the estimate's error)"
                           : "");
    }
  }
  s += "\nAssumptions:\n";
  for (const auto& a : training_assumptions(e)) {
    s += "  - " + a + "\n";
  }
  if (!e.warnings.empty()) {
    s += "\nWarnings:\n";
    for (const auto& w : e.warnings) {
      s += "  - " + w + "\n";
    }
  }
  return s;
}

std::string render_train_json(const TrainingQuery& q, const TrainingEstimate& e) {
  Json j;
  j["schema_version"] = 1;
  j["willfit_version"] = WILLFIT_VERSION;
  Json query;
  query["model"] = q.model.id;
  query["method"] = std::string(to_string(q.method));
  query["precision"] = std::string(to_string(q.precision));
  query["optimizer"] = std::string(to_string(q.optimizer));
  query["master_weights"] = e.state.master > 0 ? "fp32" : "none";
  query["grad_dtype"] = q.grad_dtype ? Json(std::string(to_string(*q.grad_dtype))) : Json(nullptr);
  query["micro_batch"] = q.micro_batch;
  query["seq_len"] = q.seq_len;
  query["checkpointing"] = std::string(to_string(q.checkpointing));
  query["flash_attention"] = q.flash_attention;
  query["amp"] = q.autocast;
  query["sequence_parallel"] = q.sequence_parallel;
  query["gpus_per_node"] = q.gpus;
  query["nodes"] = q.nodes;
  query["zero"] = q.fsdp ? Json(nullptr) : Json(q.zero);
  query["fsdp"] = q.fsdp;
  query["tp"] = q.tp;
  query["pp"] = q.pp;
  query["offload_optimizer"] = q.offload_optimizer;
  query["offload_params"] = q.offload_params;
  query["lora_rank"] = q.method == TrainMethod::Full ? Json(nullptr) : Json(q.lora_rank);
  query["lora_targets"] = q.method == TrainMethod::Full ? Json(nullptr) : Json(q.lora_targets);
  query["device"] = q.devices.devices.empty() ? Json(nullptr) : Json(q.devices.text);
  query["ram_bytes"] = q.ram ? Json(*q.ram) : Json(nullptr);
  j["query"] = query;
  // A checkpoint of the model at the training precision.
  j["model"] =
      model_json(q.model, round_bytes(static_cast<double>(q.model.params) * e.state.weights));
  Json t;
  t["method"] = std::string(to_string(q.method));
  Json conv;
  conv["bytes_per_param"] = e.state.total();
  conv["weights"] = e.state.weights;
  conv["gradients"] = e.state.gradients;
  conv["master_weights"] = e.state.master;
  conv["optimizer"] = e.state.optimizer;
  conv["text"] = e.convention;
  t["convention"] = conv;
  const TrainingBreakdown& b = e.per_gpu;
  Json per;
  per["weights_bytes"] = b.weights;
  per["gradients_bytes"] = b.gradients;
  per["optimizer_bytes"] = b.optimizer;
  per["master_weights_bytes"] = b.master_weights;
  per["weight_copies_bytes"] = b.weight_copies;
  per["activations_bytes"] = b.activations;
  per["buffers_bytes"] = b.buffers;
  per["overhead_bytes"] = b.overhead;
  per["margin_bytes"] = b.margin;
  per["total_bytes"] = b.total();
  t["per_gpu"] = per;
  t["host_bytes"] = e.host_bytes;
  t["trainable_params"] = e.trainable_params;
  t["gpus"] = e.total_gpus;
  t["data_parallel"] = e.data_parallel;
  t["error_band_pct"] = e.error_band_pct;  // added 2026-12-05
  j["training"] = t;
  Json r;
  r["verdict"] = e.device_known ? Json(std::string(to_string(e.verdict))) : Json(nullptr);
  r["fits"] = e.device_known ? Json(e.fits()) : Json(nullptr);
  r["required_bytes"] = e.required;
  r["available_bytes"] = e.device_known ? Json(e.usable) : Json(nullptr);
  r["headroom_bytes"] = e.device_known ? Json(e.headroom) : Json(nullptr);
  // Added 2026-12-05, as result.tight and result.band_bytes of the plain answer.
  r["tight"] = e.device_known ? Json(e.tight) : Json(nullptr);
  r["band_bytes"] = e.band;
  j["result"] = r;
  Json sugs = Json::array();
  for (const auto& s : e.suggestions) {
    Json o;
    o["change"] = s.change;
    o["args"] = s.args;
    o["total_bytes"] = s.total_bytes;
    o["verdict"] = std::string(to_string(s.verdict));
    o["host_bytes"] = s.host_bytes;
    o["tight"] = s.tight;  // added 2026-12-05, as the inference suggestions' key
    sugs.push_back(o);
  }
  j["suggestions"] = sugs;
  j["warnings"] = e.warnings;
  j["assumptions"] = training_assumptions(e);
  return j.dump(2) + "\n";
}

}  // namespace willfit::app
