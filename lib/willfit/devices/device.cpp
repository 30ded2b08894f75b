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
//   `sudo sysctl iogpu.wired_limit_mb` raises it, which --gpu-limit mirrors,
//   up to what the operating system leaves (unified_pool): the sysctl takes
//   nearly all of RAM, but macOS and its programs still need theirs, so a
//   larger limit counts as that pool, and the estimate warns.
//   That limit is soft: Metal lets the GPU allocate past it (llama.cpp warns
//   "current allocated size is greater than the recommended max working set
//   size" and goes on), at the cost of paging other programs out; how far is
//   bounded by what the operating system keeps, the system-memory rule
//   below (soft_memory_ceiling). The estimate calls a need between the two
//   tight, not a plain fit.
// - Jetson modules (embedded Linux on one LPDDR5 pool): the operating system
//   keeps what it keeps on any Linux machine, the system-memory rule below
//   (the larger of 2 GiB and 10 %): on an 8 GB Orin Nano "the OS and runtime
//   consume ~1.5-2 GB before inference begins" (edgeaistack.app memory
//   estimator), and the CUDA context is counted by the estimate itself. An
//   8B model at 4 bits is run on that board (julien.cloud: llama3.1:8b under
//   Ollama on an Orin Nano 8 GB; tests/data/unified_runs.csv). The earlier
//   rule (keep 4 GiB) left half of the board.
// - Other unified-memory systems (DGX Spark, Strix Halo) share with a
//   desktop operating system: we keep back the larger of 4 GiB and 10 %,
//   unless the device data documents the GPU's share.
// - Offload on unified memory: the layers llama.cpp keeps off the GPU run on
//   the CPU from the same memory (on a Mac the layers past the working set
//   limit), so the CPU side is not a second memory: both sides together get
//   the capacity less what the operating system keeps (unified_pool), the
//   system-memory rule below on Apple and Jetson (the larger of 2 GiB and
//   10 %: on an 8 GB Orin Nano "the OS and runtime consume ~1.5-2 GB",
//   edgeaistack.app; an 8 GB Mac running llama3 8B under Ollama froze while
//   the model took 5.5 GB, ollama/ollama#5680), and the desktop rule (4 GiB
//   or 10 %) elsewhere.
// - A raw capacity ("8gb") is read as a discrete GPU of that size.
// - CPU / system memory: the OS and other programs keep the larger of 2 GiB and 10 %.
//
// Compute capability (nvidia_compute_capability). Each NVIDIA device of the
// database carries its own, `compute_capability` in data/devices.json, with
// its source (NVIDIA's CUDA GPUs table first); the FP8 quantisers test it:
// transformers' FineGrainedFP8 wants 8.9, "e.g 4090/H100", and vLLM runs FP8
// as weight-only W8A16 through its Marlin kernel from 7.5, Turing, on
// (inference/runtime.cpp). A device without one (a user's own entry that
// leaves it out, a bare "24gb") is not judged: nothing is known against FP8
// on it, and the report says so (fp8_capability_unknown).
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

Device sized_system_memory(Device device, double gib) {
  device.memory_bytes = static_cast<Bytes>(gib * static_cast<double>(kGiB));
  device.memory_marketed = fmt::format("{:g} GB", gib);
  return device;
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

// What the operating system and other programs keep of system memory: the
// larger of 2 GiB and 10 %.
Bytes os_keep(Bytes cap) {
  return std::max<Bytes>(2 * kGiB, static_cast<Bytes>(std::floor(static_cast<double>(cap) * 0.10)));
}

bool is_jetson(const Device& device) {
  return to_lower(device.id).rfind("jetson", 0) == 0;
}

// What the operating system keeps of a unified device's memory: the
// system-memory rule on Apple silicon, Jetson and devices whose data gives
// the GPU's share; a desktop's 4 GiB or 10 % elsewhere (DGX Spark, Strix Halo).
Bytes unified_keep(const Device& device) {
  const Bytes cap = device.memory_bytes;
  if (device.vendor == "apple" || is_jetson(device) || device.gpu_memory_fraction) {
    return os_keep(cap);
  }
  return std::max<Bytes>(4 * kGiB, static_cast<Bytes>(std::floor(static_cast<double>(cap) * 0.10)));
}

// The rule, once for both entry points. The reason is put into words only
// when `with_reason` (an estimate in a search loop wants the bytes alone).
Usable usable_rule(const Device& device, const UsableOptions& options, UnitSystem units,
                   bool with_reason) {
  const Bytes cap = device.memory_bytes;
  // Reason text: formatted only when asked for.
  const auto why = [with_reason](auto&& make) { return with_reason ? make() : std::string(); };
  if (options.gpu_limit) {
    // Unified memory: iogpu.wired_limit_mb may be raised to nearly all of
    // it, but what the GPU wires the operating system cannot have, so a
    // limit counts at most the pool both sides share (unified_pool).
    const Bytes pool =
        device.kind == DeviceKind::Unified ? std::max<Bytes>(0, cap - unified_keep(device)) : cap;
    const Bytes limit = std::min(cap, *options.gpu_limit);
    if (limit > pool) {
      return {pool, why([&] {
                return fmt::format(
                    "GPU memory limit set to {}, counted at {}: the operating system keeps {} of "
                    "the {} the GPU shares with it, whatever the GPU may wire",
                    format_memory(*options.gpu_limit, units), format_memory(pool, units),
                    format_memory(cap - pool, units), format_memory(cap, units));
              })};
    }
    return {limit, why([&] {
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
      if (is_jetson(device)) {
        const Bytes keep = os_keep(cap);
        return {std::max<Bytes>(0, cap - keep), why([&] {
                  return fmt::format(
                      "Jetson: one memory for the operating system and the GPU; {} kept for the "
                      "operating system and other programs (as on any Linux machine), the rest "
                      "usable by the GPU",
                      format_memory(keep, units));
                })};
      }
      const Bytes keep = unified_keep(device);
      return {std::max<Bytes>(0, cap - keep), why([&] {
                return fmt::format(
                    "unified memory shared with the operating system: {} kept for it",
                    format_memory(keep, units));
              })};
    }
    case DeviceKind::Cpu: {
      const Bytes keep = os_keep(cap);
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

Usable system_ram_usable(Bytes installed, UnitSystem units) {
  Device ram;
  ram.kind = DeviceKind::Cpu;
  ram.memory_bytes = installed;
  return usable_rule(ram, {}, units, true);
}

std::string_view processor_word(const DeviceSet& devices) {
  return devices.cpu_only() ? "CPU" : "GPU";
}

std::string_view context_words(const DeviceSet& devices) {
  if (processor_word(devices) == "CPU") {
    return "runtime buffers and threads";
  }
  if (devices.devices.empty()) {
    return "driver / CUDA context";  // no device: the estimate counts a CUDA context
  }
  const auto& vendor = devices.devices.front().vendor;
  const bool same = std::all_of(devices.devices.begin(), devices.devices.end(),
                                [&](const Device& d) { return d.vendor == vendor; });
  if (!same) {
    return "driver / GPU contexts";
  }
  if (vendor == "apple") {
    return "Metal context";
  }
  if (vendor == "amd") {
    return "driver / ROCm context";
  }
  if (vendor == "intel") {
    return "driver / SYCL context";
  }
  if (vendor == "nvidia" || devices.devices.front().kind == DeviceKind::Raw) {
    return "driver / CUDA context";
  }
  return "driver / runtime context";
}

Bytes soft_memory_ceiling(const Device& device, const UsableOptions& options) {
  if (options.gpu_limit || device.kind != DeviceKind::Unified || device.vendor != "apple" ||
      device.gpu_memory_fraction) {
    return 0;
  }
  return unified_pool(device).bytes;
}

Usable unified_pool(const Device& device, UnitSystem units) {
  if (device.kind != DeviceKind::Unified) {
    return {0, ""};
  }
  const Bytes keep = unified_keep(device);
  const Bytes pool = std::max<Bytes>(0, device.memory_bytes - keep);
  const std::string_view os = device.vendor == "apple" ? "macOS"
                              : is_jetson(device)      ? "Linux (JetPack)"
                                                       : "the operating system";
  return {pool, fmt::format("unified memory: the GPU and an offload's CPU side share {} of {} "
                            "({} kept for {} and other programs); --ram replaces this",
                            format_memory(pool, units), format_memory(device.memory_bytes, units),
                            format_memory(keep, units), os)};
}

std::optional<int> nvidia_compute_capability(const Device& device) {
  if (device.vendor != "nvidia") {
    return std::nullopt;
  }
  return device.compute_capability;
}

std::string compute_capability_text(int cc) {
  return fmt::format("{}.{}", cc / 10, cc % 10);
}

bool compute_capability_unknown(const Device& device) {
  if (device.kind == DeviceKind::Raw) {
    return true;
  }
  const bool gpu = device.kind == DeviceKind::DiscreteGpu || device.kind == DeviceKind::Unified;
  return gpu && device.vendor == "nvidia" && !device.compute_capability;
}

bool fp8_tensor_cores(const Device& device) {
  const std::optional<int> cc = nvidia_compute_capability(device);
  return !cc || *cc >= 89;
}

}  // namespace willfit
