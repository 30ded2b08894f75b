// Parsers for what hardware tools print: nvidia-smi's CSV query, rocm-smi's
// JSON, macOS sysctl and system_profiler, Linux /proc/meminfo. Pure: they
// take the captured text; app/sources/detect.cpp runs the tools.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "willfit/core/expected.hpp"
#include "willfit/core/units.hpp"
#include "willfit/devices/device.hpp"

namespace willfit {

// One GPU as a tool reported it.
struct DetectedGpu {
  std::string name;                  // "NVIDIA GeForce RTX 4090"
  Bytes memory_total = 0;            // as the driver reports it (a little under the marketed size)
  std::optional<Bytes> memory_used;  // in use by other processes right now, when known
};

// `nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv,noheader,nounits`:
// one line per GPU, "NVIDIA GeForce RTX 4090, 24564, 1024", memory in MiB.
Expected<std::vector<DetectedGpu>> parse_nvidia_smi_csv(std::string_view text);

// `rocm-smi --showproductname --showmeminfo vram --json`: an object per card
// ("card0": {"Card Series": ..., "VRAM Total Memory (B)": "25753026560", ...}).
Expected<std::vector<DetectedGpu>> parse_rocm_smi_json(std::string_view text);

// `sysctl -n hw.memsize`: the Mac's memory in bytes.
Expected<Bytes> parse_sysctl_bytes(std::string_view text);

// `system_profiler SPDisplaysDataType`: the "Chipset Model:" line, e.g.
// "Apple M2 Max"; empty when absent.
std::string parse_system_profiler_chip(std::string_view text);

// /proc/cpuinfo: the CPU kind llama.cpp's CPU backend would pick its
// kernels by, from the first processor's "flags" (x86: amx_int8 with
// avx512f, avx512f, avx2) or "Features" (Arm: asimddp, the dot product the
// repack kernels need), with the flag that decided it; nullopt when neither
// line is there or none of those flags is.
struct CpuKind {
  CpuFeatures features = CpuFeatures::None;
  std::string flag;  // "avx512f"
};
std::optional<CpuKind> parse_cpuinfo_features(std::string_view text);

// /proc/meminfo: MemTotal (kB there means KiB).
Expected<Bytes> parse_meminfo_total(std::string_view text);

// The marketed size a driver total rounds up to, in GiB: drivers report a
// little less than the box (24564 MiB for a 24 GB card, 81559 MiB for an H100
// 80GB), so round up to a whole GiB.
std::int64_t marketed_gib(Bytes driver_total);

}  // namespace willfit
