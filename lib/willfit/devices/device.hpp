// Devices: what a GPU, a Mac or a plain "8gb" offers, and how much of it a
// model may really use. Named devices come from the device database
// (device_db.hpp); this header only defines the types and the usable-memory
// rule. Pure; no hardware probing here (that is app/).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "willfit/core/expected.hpp"
#include "willfit/core/units.hpp"

namespace willfit {

enum class DeviceKind {
  DiscreteGpu,  // its own VRAM (GeForce, Radeon, datacenter cards)
  Unified,      // CPU and GPU share one memory (Apple silicon, GH200, DGX Spark, Strix Halo)
  Accelerator,  // TPU, Gaudi
  Cpu,          // system memory only
  Raw,          // a bare capacity given on the command line ("8gb")
};
std::string_view to_string(DeviceKind kind);

struct Interconnect {
  std::string bus;  // "PCIe 4.0 x16"
  int pcie_gen = 0;
  std::optional<double> nvlink_gb_per_s;  // bidirectional per GPU, as vendors quote it
};

struct Device {
  std::string id;
  std::string vendor;
  std::string name;
  std::vector<std::string> aliases;
  DeviceKind kind = DeviceKind::Raw;
  bool laptop = false;
  Bytes memory_bytes = 0;
  std::string memory_marketed;
  std::string memory_type;
  std::optional<double> bandwidth_gb_per_s;  // decimal GB/s, datasheet peak
  std::optional<double> fp32_tflops;
  std::optional<double> fp16_tflops_dense;
  std::optional<double> bf16_tflops_dense;
  std::optional<double> fp8_tflops_dense;
  std::optional<double> int8_tops_dense;
  std::optional<double> tdp_w;
  Interconnect interconnect;
  std::optional<int> year;
  std::optional<double> price_usd;
  std::optional<double> gpu_memory_fraction;  // unified memory: documented GPU share
  // NVIDIA's compute capability as major x 10 + minor (89 for "8.9"), as the
  // data gives it; nullopt where unknown and for other vendors.
  std::optional<int> compute_capability;
  std::string notes;
  std::string source;
};

// The CPU kinds llama.cpp's CPU backend tells apart when it copies weights
// into its own layouts (inference/runtime.cpp, cpu_extra_buffers).
enum class CpuFeatures {
  None,    // no repacking kernels (or --no-repack)
  Avx2,    // x86-64 with AVX2
  Avx512,  // x86-64 with AVX-512 (AVX2 too)
  Amx,     // x86-64 with AMX-INT8 (and AVX-512): an AMX buffer besides CPU_REPACK
  Neon,    // Arm with dot-product instructions (i8mm or not)
};

// The devices one answer spans: "2x rtx 3090" holds the same device twice.
struct DeviceSet {
  std::vector<Device> devices;
  std::string text;  // what the user asked for, normalised
  // What was detected or looked up, for the user ("'4090' is GeForce RTX
  // 4090", "no GPU found: using system memory"); reports list them.
  std::vector<std::string> notes;
  // System RAM installed, when detection measured it ("--device auto"); the
  // estimate keeps the operating system's share back (system_ram_usable).
  std::optional<Bytes> system_ram;
  // The CPU's kind, when detection read it ("--device auto", /proc/cpuinfo).
  std::optional<CpuFeatures> cpu_features;
  [[nodiscard]] Bytes capacity() const;
  // Every device is system RAM (a CPU-only run): the host is the device.
  [[nodiscard]] bool cpu_only() const;
  [[nodiscard]] std::size_t count() const { return devices.size(); }
  [[nodiscard]] std::string display_name() const;  // "2x GeForce RTX 3090"
};

// A device made from a bare capacity ("8gb"): a GPU with that much memory,
// named with the capacity in `units` ("8.00 GiB GPU").
Expected<Device> raw_device(std::string_view capacity_text, UnitSystem units = UnitSystem::Mixed);
// System memory named without a size ("cpu", "ddr5-5600-dual") given `gib`
// GiB ("ddr5-5600-dual 64gb", or --ram): the size in bytes and as sold.
Device sized_system_memory(Device device, double gib);

struct UsableOptions {
  // macOS `iogpu.wired_limit_mb` or any explicit figure: replaces the rule.
  std::optional<Bytes> gpu_limit;
};

struct Usable {
  Bytes bytes = 0;
  std::string reason;  // one line for the user: why usable differs from capacity
};

// How much of a device's memory a model may use (before runtime overheads,
// which the estimate counts itself). See device.cpp for the rule and sources.
// `units`: how the reason prints memory (--units).
Usable usable_memory(const Device& device, const UsableOptions& options = {},
                     UnitSystem units = UnitSystem::Mixed);
// The same rule's bytes alone, without putting the reason into words (for
// the estimator's inner loops).
Bytes usable_bytes(const Device& device, const UsableOptions& options = {});
// --ram means one thing everywhere: the system RAM installed. What a model
// may use of it is the system-memory rule above (the larger of 2 GiB and 10 %
// kept for the operating system and other programs), for layers offloaded
// from a GPU, for -d cpu and for training's offloaded states alike.
Usable system_ram_usable(Bytes installed, UnitSystem units = UnitSystem::Mixed);

// Words that follow the hardware: what computes ("GPU", or "CPU" when every
// device of the set is system memory) and what the runtime's fixed memory
// per device is ("driver / CUDA context", "Metal context", "driver / ROCm
// context", "runtime buffers and threads" on a CPU).
std::string_view processor_word(const DeviceSet& devices);
std::string_view context_words(const DeviceSet& devices);

// Where a device's usable memory is a soft limit (Apple silicon: macOS's
// recommended GPU working set, which Metal lets the GPU exceed), the most it
// can hold past that limit: capacity less what the operating system and
// other programs keep. 0 for devices whose limit is hard, and when
// --gpu-limit replaces the rule. See device.cpp.
Bytes soft_memory_ceiling(const Device& device, const UsableOptions& options = {});

// An NVIDIA GPU's compute capability as major x 10 + minor (80 for an
// A100, 89 for an RTX 4090, 90 for an H100), as its data gives it
// (Device::compute_capability); nullopt for other vendors and where the data
// gives none (a user's own device without it, "8gb"). See device.cpp.
std::optional<int> nvidia_compute_capability(const Device& device);
// The GPU multiplies FP8 in hardware (NVIDIA compute capability 8.9 and up:
// Ada, Hopper, Blackwell): false for an NVIDIA GPU known to be older
// (Ampere and before), true otherwise (nothing known against it).
bool fp8_tensor_cores(const Device& device);
// A compute capability as NVIDIA writes it: 89 -> "8.9", 120 -> "12.0".
std::string compute_capability_text(int cc);
// A GPU that might be NVIDIA's whose compute capability is not known: an
// NVIDIA entry without one (a user's own file) or a bare capacity ("24gb").
// FP8 is not judged on it (fp8_tensor_cores is true); reports say so.
bool compute_capability_unknown(const Device& device);

// A unified-memory device's one memory as the CPU and the GPU share it: what
// both sides together may hold, the capacity less what the operating system
// and other programs keep. An offload plan's "system RAM" on such a device is
// this pool less what the GPU side holds (estimate.hpp, offload_ram), not a
// second memory. 0 (and no reason) for a device with memory of its own. The
// reason is one line for the user's Assumptions. See device.cpp.
Usable unified_pool(const Device& device, UnitSystem units = UnitSystem::Mixed);

}  // namespace willfit
