// Usable memory.
//
// Capacity is what the box says; a model gets less:
// - Discrete GPUs: the driver reports a little less than the marketed size
//   (ECC, firmware and driver reservations: an A30 shows 24060 of 24576 MiB,
//   an H100 80GB 81559 of 81920 MiB, a 4090 24564 of 24576 MiB, per
//   shared/reference/devices-notes.md). We keep back 2 % for that. The CUDA
//   context is not taken here: the estimate shows it as "runtime overhead".
// - Apple silicon (unified): Metal lets the GPU wire only
//   recommendedMaxWorkingSetSize: measured at 2/3 of RAM up to 32 GB and about
//   3/4 above (llama.cpp #5207 and PR #2011, llmfit #754, gpustack #1375);
//   `sudo sysctl iogpu.wired_limit_mb` raises it, which --gpu-limit mirrors.
// - Other unified-memory systems (DGX Spark, Strix Halo, Jetson) share with
//   the operating system: we keep back the larger of 4 GiB and 10 %, unless
//   the device data documents the GPU's share.
// - A raw capacity ("8gb") is read as a discrete GPU of that size.
// - CPU / system memory: the OS and other programs keep the larger of 2 GiB and 10 %.
#include "willfit/devices/device.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "willfit/core/text.hpp"

namespace willfit {

std::string_view to_string(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::DiscreteGpu:
      return "discrete_gpu";
    case DeviceKind::Unified:
      return "unified";
    case DeviceKind::Accelerator:
      return "accelerator";
    case DeviceKind::Cpu:
      return "cpu";
    case DeviceKind::Raw:
      return "raw";
  }
  return "raw";
}

bool DeviceSet::cpu_only() const {
  return !devices.empty() && std::all_of(devices.begin(), devices.end(),
                                         [](const Device& d) { return d.kind == DeviceKind::Cpu; });
}

Bytes DeviceSet::capacity() const {
  Bytes total = 0;
  for (const auto& d : devices) {
    total += d.memory_bytes;
  }
  return total;
}

std::string DeviceSet::display_name() const {
  if (devices.empty()) {
    return "no device";
  }
  const bool same = std::all_of(devices.begin(), devices.end(),
                                [&](const Device& d) { return d.id == devices.front().id; });
  if (same) {
    return devices.size() == 1 ? devices.front().name
                               : fmt::format("{}x {}", devices.size(), devices.front().name);
  }
  std::string out;
  for (const auto& d : devices) {
    out += (out.empty() ? "" : " + ") + d.name;
  }
  return out;
}

Expected<Device> raw_device(std::string_view capacity_text, UnitSystem units) {
  auto bytes = parse_capacity(capacity_text);
  if (!bytes) {
    return bytes.error();
  }
  Device d;
  d.id = to_lower(trim(capacity_text));
  d.kind = DeviceKind::Raw;
  d.memory_bytes = *bytes;
  d.name = fmt::format("{} GPU", format_memory(*bytes, units));
  d.memory_marketed = trim(capacity_text);
  d.source = "given on the command line";
  return d;
}

namespace {

// The rule, once for both entry points. The reason is put into words only
// when `with_reason` (an estimate in a search loop wants the bytes alone).
Usable usable_rule(const Device& device, const UsableOptions& options, UnitSystem units,
                   bool with_reason) {
  const Bytes cap = device.memory_bytes;
  // Reason text: formatted only when asked for.
  const auto why = [with_reason](auto&& make) { return with_reason ? make() : std::string(); };
  if (options.gpu_limit) {
    return {std::min(cap, *options.gpu_limit), why([&] {
              return fmt::format("GPU memory limit set to {}",
                                 format_memory(*options.gpu_limit, units));
            })};
  }
  const auto fraction_of = [cap](double f) {
    return static_cast<Bytes>(std::floor(static_cast<double>(cap) * f));
  };
  switch (device.kind) {
    case DeviceKind::Raw:
    case DeviceKind::DiscreteGpu:
    case DeviceKind::Accelerator:
      return {fraction_of(0.98), why([] {
                return std::string(
                    "2% kept by the driver and firmware (ECC, reserved pages); more if a display "
                    "is attached");
              })};
    case DeviceKind::Unified: {
      if (device.gpu_memory_fraction) {
        return {fraction_of(*device.gpu_memory_fraction), why([&] {
                  return fmt::format("the GPU may use {:.0f}% of unified memory (device data)",
                                     *device.gpu_memory_fraction * 100.0);
                })};
      }
      if (device.vendor == "apple") {
        const bool small = cap <= 32 * kGiB;
        return {fraction_of(small ? 2.0 / 3.0 : 0.75), why([&] {
                  return fmt::format(
                      "macOS lets the GPU wire about {} of unified memory "
                      "(recommendedMaxWorkingSetSize); raise it with "
                      "'sudo sysctl iogpu.wired_limit_mb' and --gpu-limit",
                      small ? "2/3" : "3/4");
                })};
      }
      const Bytes keep = std::max<Bytes>(4 * kGiB, fraction_of(0.10));
      return {std::max<Bytes>(0, cap - keep), why([&] {
                return fmt::format(
                    "unified memory shared with the operating system: {} kept for it",
                    format_memory(keep, units));
              })};
    }
    case DeviceKind::Cpu: {
      const Bytes keep = std::max<Bytes>(2 * kGiB, fraction_of(0.10));
      return {std::max<Bytes>(0, cap - keep), why([&] {
                return fmt::format("{} kept for the operating system and other programs",
                                   format_memory(keep, units));
              })};
    }
  }
  return {cap, ""};
}

}  // namespace

Usable usable_memory(const Device& device, const UsableOptions& options, UnitSystem units) {
  return usable_rule(device, options, units, true);
}

Bytes usable_bytes(const Device& device, const UsableOptions& options) {
  return usable_rule(device, options, UnitSystem::Mixed, false).bytes;
}

}  // namespace willfit
