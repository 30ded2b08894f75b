// Spec-sheet figures.
//
// Decode ceiling. Generating one token (batch 1) runs every weight through
// the GPU once, and at batch 1 the arithmetic waits on memory, so
//   tokens/s <= bandwidth (bytes/s) / bytes read per token,
// with bytes per token = the weights at their stored precision (the KV cache
// read adds a little at long contexts and is left out: this is a ceiling).
// Bandwidth is the datasheet's decimal GB/s. Measured llama.cpp decode reaches
// about 60-75% of this ceiling (shared/reference/devices-notes.md: ~71-73% on
// DDR4/LPDDR5X; tests/data/decode_measured.csv: 63-75% on RTX 3090/4090 and
// M2 Max), so the real figure is lower.
// The reference model is a 7 B model at Q4_K_M, sized by the same weight
// function the estimator uses.
//
// Sparse figures. NVIDIA (Ampere, 2020, and later) and AMD (CDNA3: MI300
// series) headline tensor throughput "with sparsity": 2:4 structured sparsity
// skips half the multiplications, so the headline is exactly twice the dense
// rate (NVIDIA datasheet footnotes: "with sparsity; specifications are
// one-half lower without sparsity"). Models are almost never pruned that way,
// so the dense figure is the one to use.
#include "willfit/planner/device_sheet.hpp"

#include <fmt/format.h>

#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/model.hpp"
#include "willfit/models/model_size.hpp"

namespace willfit {
namespace {

bool has_structured_sparsity(const Device& d) {
  if (d.vendor == "nvidia") {
    return d.year.value_or(0) >= 2020;
  }
  return d.vendor == "amd" && d.id.rfind("mi3", 0) == 0;
}

}  // namespace

std::string_view kind_label(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::DiscreteGpu:
      return "discrete GPU";
    case DeviceKind::Unified:
      return "unified memory";
    case DeviceKind::Accelerator:
      return "accelerator";
    case DeviceKind::Cpu:
      return "system memory";
    case DeviceKind::Raw:
      break;
  }
  return "GPU";
}

double decode_ceiling_tokens_per_s(double bandwidth_gb_per_s, Bytes bytes_per_token) {
  if (bytes_per_token <= 0) {
    return 0;
  }
  return bandwidth_gb_per_s * static_cast<double>(kGB) / static_cast<double>(bytes_per_token);
}

DeviceSheet make_device_sheet(const Device& device, const UsableOptions& options,
                              UnitSystem units) {
  DeviceSheet s;
  s.device = device;
  s.usable = usable_memory(device, options, units);
  auto size = parse_model_size("7b");
  auto precision = parse_precision("q4_k_m");
  if (size && precision) {
    if (auto model = model_from_size(*size)) {
      s.reference_model = fmt::format("a 7B model at {}", precision->name);
      s.reference_bytes_per_token = weight_bytes(*model, *precision);
    }
  }
  if (device.bandwidth_gb_per_s && s.reference_bytes_per_token > 0) {
    s.decode_ceiling_tokens_per_s =
        decode_ceiling_tokens_per_s(*device.bandwidth_gb_per_s, s.reference_bytes_per_token);
  }
  if (device.fp16_tflops_dense && has_structured_sparsity(device)) {
    s.fp16_tflops_sparse = *device.fp16_tflops_dense * 2.0;
  }
  if (device.price_usd && device.memory_bytes > 0) {
    s.price_usd_per_gb =
        *device.price_usd / (static_cast<double>(device.memory_bytes) / static_cast<double>(kGiB));
  }
  if (device.vendor == "nvidia" && device.name.rfind("GeForce", 0) == 0 &&
      device.bf16_tflops_dense) {
    s.caveats.push_back(
        "GeForce cards run BF16 (and FP16 with FP32 accumulation, what PyTorch uses) at half "
        "the FP16 headline rate");
  }
  if (s.fp16_tflops_sparse) {
    s.caveats.push_back(fmt::format(
        "the vendor's headline tensor figures are 'with sparsity' ({:g} TFLOPS FP16 here): "
        "twice the dense rate, which only 2:4-pruned models reach",
        *s.fp16_tflops_sparse));
  }
  if (device.kind == DeviceKind::Unified) {
    s.caveats.push_back(
        "unified memory: the CPU, the operating system and the GPU share it, "
        "so the GPU gets only part (see usable memory)");
  }
  if (device.laptop) {
    s.caveats.push_back(
        "laptop GPU: clocks and power follow the laptop maker's power limit, "
        "so speed varies between laptops");
  }
  if (device.kind == DeviceKind::Cpu) {
    s.caveats.push_back(
        "system memory: its size depends on the modules installed; give it as "
        "'-d \"" +
        device.id + " 64gb\"'");
  }
  return s;
}

}  // namespace willfit
