// Detection order: NVIDIA, AMD, Apple, then plain system memory. A GPU the
// device database knows becomes that entry (its capacity is the marketed
// size, which the usable-memory rule expects); an unknown one keeps the name
// the tool printed and its driver total rounded up to whole GiB.
#include "sources/detect.hpp"

#include <fmt/format.h>

#include "willfit/core/text.hpp"
#include "willfit/devices/detect_parse.hpp"
#include "willfit/inference/estimate.hpp"

namespace willfit::app {
namespace {

constexpr int kProbeTimeoutMs = 5000;
// A busy GPU: less than this in use is the driver's own and not worth a word.
constexpr Bytes kNotableUse = 512 * kMiB;

const std::vector<std::string> kNvidiaSmi = {
    "nvidia-smi", "--query-gpu=name,memory.total,memory.used", "--format=csv,noheader,nounits"};
const std::vector<std::string> kRocmSmi = {"rocm-smi", "--showproductname", "--showmeminfo", "vram",
                                           "--json"};

Expected<Device> device_for(const DetectedGpu& gpu, const char* vendor, DeviceKind kind,
                            DeviceSource& source, std::vector<std::string>& notes) {
  if (auto db = source.get(); !db) {
    return db.error();  // a broken database is reported, not skipped
  }
  const std::int64_t gib = marketed_gib(gpu.memory_total);
  for (const std::string& name : {gpu.name, fmt::format("{} {}gb", gpu.name, gib)}) {
    if (auto d = source.find(name); d && d->memory_bytes == gib * kGiB) {
      return *d;
    }
  }
  notes.push_back(
      fmt::format("'{}' is not in the device database: read as a {} GiB GPU without "
                  "bandwidth or compute figures",
                  gpu.name, gib));
  Device d;
  d.id = "detected";
  d.vendor = vendor;
  d.name = gpu.name;
  d.kind = kind;
  d.memory_bytes = gib * kGiB;
  d.memory_marketed = fmt::format("{} GB", gib);
  d.source = "detected";
  return d;
}

std::optional<Bytes> system_ram(const Environment& env, std::vector<std::string>& notes,
                                UnitSystem units) {
  Bytes total = 0;
  const char* from = "";
  if (auto meminfo = env.read_file("/proc/meminfo", 1 << 16)) {
    if (auto t = parse_meminfo_total(*meminfo)) {
      total = *t;
      from = "/proc/meminfo";
    }
  }
  if (total == 0) {
    if (auto out = env.run_command({"sysctl", "-n", "hw.memsize"}, kProbeTimeoutMs)) {
      if (auto t = parse_sysctl_bytes(*out)) {
        total = *t;
        from = "sysctl hw.memsize";
      }
    }
  }
  if (total == 0) {
    notes.push_back("system RAM could not be read: give --ram to consider offloading");
    return std::nullopt;
  }
  // The RAM installed, as --ram gives it; the estimate keeps the operating
  // system's share back (system_ram_usable).
  const Usable u = system_ram_usable(total, units);
  notes.push_back(fmt::format("system RAM {} ({}); {} of it counted for offload ({})",
                              format_memory(total, units), from, format_memory(u.bytes, units),
                              u.reason));
  return total;
}

Expected<std::optional<Detection>> from_gpu_tool(const Environment& env, DeviceSource& source,
                                                 bool nvidia, UnitSystem units) {
  auto out = env.run_command(nvidia ? kNvidiaSmi : kRocmSmi, kProbeTimeoutMs);
  if (!out) {
    return std::optional<Detection>{};
  }
  auto gpus = nvidia ? parse_nvidia_smi_csv(*out) : parse_rocm_smi_json(*out);
  if (!gpus) {
    return gpus.error();
  }
  if (gpus->empty()) {
    return std::optional<Detection>{};
  }
  Detection det;
  auto& notes = det.devices.notes;
  for (const auto& gpu : *gpus) {
    auto d = device_for(gpu, nvidia ? "nvidia" : "amd", DeviceKind::DiscreteGpu, source, notes);
    if (!d) {
      return d.error();
    }
    notes.push_back(fmt::format("detected with {}: {} ({} reported)",
                                nvidia ? "nvidia-smi" : "rocm-smi", gpu.name,
                                format_memory(gpu.memory_total, units)));
    if (gpu.memory_used && *gpu.memory_used >= kNotableUse) {
      notes.push_back(
          fmt::format("{} of {} is in use by other programs now (desktop, other "
                      "processes): --gpu-limit can take it off",
                      format_memory(*gpu.memory_used, units), gpu.name));
    }
    det.devices.devices.push_back(std::move(*d));
  }
  det.ram = system_ram(env, notes, units);
  return std::optional<Detection>{std::move(det)};
}

Expected<std::optional<Detection>> from_mac(const Environment& env, DeviceSource& source,
                                            UnitSystem units) {
  auto mem = env.run_command({"sysctl", "-n", "hw.memsize"}, kProbeTimeoutMs);
  if (!mem) {
    return std::optional<Detection>{};
  }
  auto bytes = parse_sysctl_bytes(*mem);
  if (!bytes) {
    return bytes.error();
  }
  std::string chip;
  if (auto brand = env.run_command({"sysctl", "-n", "machdep.cpu.brand_string"}, kProbeTimeoutMs)) {
    chip = trim(*brand);
  }
  if (chip.rfind("Apple", 0) != 0) {
    if (auto sp = env.run_command({"system_profiler", "SPDisplaysDataType"}, 15000)) {
      chip = parse_system_profiler_chip(*sp);
    }
  }
  if (chip.rfind("Apple", 0) != 0) {
    return std::optional<Detection>{};  // an Intel Mac: its RAM is the fallback's job
  }
  Detection det;
  DetectedGpu gpu{chip, *bytes, std::nullopt};
  auto d = device_for(gpu, "apple", DeviceKind::Unified, source, det.devices.notes);
  if (!d) {
    return d.error();
  }
  det.devices.notes.push_back(fmt::format("detected with sysctl: {} with {} of unified memory",
                                          chip, format_memory(*bytes, units)));
  det.devices.devices.push_back(std::move(*d));
  return std::optional<Detection>{std::move(det)};
}

}  // namespace

Expected<Detection> detect_devices(const Environment& env, DeviceSource& source, UnitSystem units) {
  for (int probe = 0; probe < 3; ++probe) {
    auto found =
        probe == 2 ? from_mac(env, source, units) : from_gpu_tool(env, source, probe == 0, units);
    if (!found) {
      return found.error();
    }
    if (*found) {
      Detection det = std::move(**found);
      det.devices.text = "auto";
      return det;
    }
  }
  // No GPU: the model would run on the CPU from system memory.
  Detection det;
  det.devices.text = "auto";
  auto meminfo = env.read_file("/proc/meminfo", 1 << 16);
  if (!meminfo) {
    return make_error(
        "--device auto found no GPU (no nvidia-smi, rocm-smi or Apple silicon) and "
        "could not read /proc/meminfo: give --device, e.g. '8gb' or 'rtx 4090'");
  }
  auto total = parse_meminfo_total(*meminfo);
  if (!total) {
    return total.error();
  }
  Device ram;
  ram.id = "system-ram";
  ram.vendor = "generic";
  ram.name = "system RAM (CPU)";
  ram.kind = DeviceKind::Cpu;
  ram.memory_bytes = *total;
  ram.memory_marketed = format_iec(*total);
  ram.source = "/proc/meminfo";
  det.devices.devices.push_back(ram);
  det.devices.notes.push_back(fmt::format(
      "no GPU found (nvidia-smi, rocm-smi: not available): the model would run on the CPU "
      "from system RAM ({}, /proc/meminfo)",
      format_memory(*total, units)));
  // The CPU's kind decides which weights llama.cpp's CPU backend copies.
  if (auto cpuinfo = env.read_file("/proc/cpuinfo", 1 << 20)) {
    if (const auto kind = parse_cpuinfo_features(*cpuinfo)) {
      det.devices.cpu_features = kind->features;
      det.devices.notes.push_back(
          kind->flag.empty()
              ? std::string("CPU kind none detected (/proc/cpuinfo lists none of avx2, avx512f, "
                            "amx_int8, asimddp): no repacked weights; --cpu-features changes it")
              : fmt::format("CPU kind {} detected (/proc/cpuinfo flag {}): it decides which "
                            "weights llama.cpp's CPU backend copies; --cpu-features changes it",
                            to_string(kind->features), kind->flag));
    }
  }
  return det;
}

}  // namespace willfit::app
