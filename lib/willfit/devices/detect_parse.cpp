// Parsers for hardware tools' output. Formats:
// - nvidia-smi: `--query-gpu=name,memory.total,memory.used --format=csv,noheader,nounits`
//   prints one comma-separated line per GPU; memory fields are MiB
//   (nvidia-smi --help-query-gpu: "memory.total: Total installed GPU memory",
//   reported in MiB; "nounits" drops the " MiB" suffix). A field the driver
//   cannot read prints "[N/A]" or "[Not Supported]".
// - rocm-smi `--json`: an object keyed "card0", "card1", ... whose keys are
//   the human labels of the text output ("Card Series" or "Card series",
//   "VRAM Total Memory (B)", "VRAM Total Used Memory (B)"), values as strings.
//   Label case differs between ROCm releases, so keys are compared lowercase.
// - /proc/meminfo: "MemTotal:       32791234 kB"; the kernel's kB is KiB
//   (proc(5)).
// - /proc/cpuinfo: per processor, "flags : fpu ... avx2 ... avx512f" on
//   x86 and "Features : fp asimd ... asimddp" on Arm (the kernel's names of
//   the CPUID / HWCAP bits).
#include "willfit/devices/detect_parse.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "willfit/core/text.hpp"

namespace willfit {
namespace {

std::optional<std::int64_t> whole_number(std::string_view s) {
  const std::string t = trim(s);
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || ptr != t.data() + t.size() || v < 0) {
    return std::nullopt;
  }
  return v;
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const auto pos = s.find(sep, start);
    out.emplace_back(s.substr(start, pos == std::string_view::npos ? pos : pos - start));
    if (pos == std::string_view::npos) {
      return out;
    }
    start = pos + 1;
  }
}

}  // namespace

Expected<std::vector<DetectedGpu>> parse_nvidia_smi_csv(std::string_view text) {
  std::vector<DetectedGpu> out;
  for (const auto& raw : split(text, '\n')) {
    const std::string line = trim(raw);
    if (line.empty()) {
      continue;
    }
    const auto fields = split(line, ',');
    if (fields.size() < 2) {
      return make_error(fmt::format("nvidia-smi printed an unexpected line: '{}'", line));
    }
    DetectedGpu gpu;
    gpu.name = trim(fields[0]);
    const auto total = whole_number(fields[1]);
    if (gpu.name.empty() || !total) {
      return make_error(fmt::format("nvidia-smi printed an unexpected line: '{}'", line));
    }
    gpu.memory_total = *total * kMiB;
    if (fields.size() >= 3) {
      if (const auto used = whole_number(fields[2])) {
        gpu.memory_used = *used * kMiB;
      }
    }
    out.push_back(std::move(gpu));
  }
  return out;
}

Expected<std::vector<DetectedGpu>> parse_rocm_smi_json(std::string_view text) {
  using Json = nlohmann::json;
  Json doc;
  try {
    doc = Json::parse(text.begin(), text.end());
  } catch (const Json::exception&) {
    return make_error("rocm-smi printed something that is not JSON");
  }
  if (!doc.is_object()) {
    return make_error("rocm-smi printed something that is not a JSON object");
  }
  std::vector<DetectedGpu> out;
  for (const auto& [card, fields] : doc.items()) {
    if (card.rfind("card", 0) != 0 || !fields.is_object()) {
      continue;  // "system" and other non-card sections
    }
    DetectedGpu gpu;
    std::string model;
    for (const auto& [key, value] : fields.items()) {
      if (!value.is_string()) {
        continue;
      }
      const std::string k = to_lower(key);
      const auto v = value.get<std::string>();
      if (k == "card series") {
        gpu.name = trim(v);
      } else if (k == "card model") {
        model = trim(v);
      } else if (k == "vram total memory (b)") {
        gpu.memory_total = whole_number(v).value_or(0);
      } else if (k == "vram total used memory (b)") {
        if (const auto used = whole_number(v)) {
          gpu.memory_used = *used;
        }
      }
    }
    if (gpu.name.empty()) {
      gpu.name = model.empty() ? "AMD GPU (" + card + ")" : model;
    }
    if (gpu.memory_total <= 0) {
      return make_error(fmt::format("rocm-smi did not report the VRAM of {}", card));
    }
    out.push_back(std::move(gpu));
  }
  return out;
}

Expected<Bytes> parse_sysctl_bytes(std::string_view text) {
  const auto v = whole_number(text);
  if (!v || *v <= 0) {
    return make_error(fmt::format("sysctl printed '{}', not a number of bytes", trim(text)));
  }
  return *v;
}

std::string parse_system_profiler_chip(std::string_view text) {
  for (const auto& raw : split(text, '\n')) {
    const std::string line = trim(raw);
    constexpr std::string_view kLabel = "Chipset Model:";
    if (line.rfind(kLabel, 0) == 0) {
      return trim(std::string_view(line).substr(kLabel.size()));
    }
  }
  return "";
}

std::optional<CpuKind> parse_cpuinfo_features(std::string_view text) {
  for (const auto& raw : split(text, '\n')) {
    const std::string line = trim(raw);
    const auto colon = line.find(':');
    if (colon == std::string::npos) {
      continue;
    }
    const std::string key = to_lower(trim(std::string_view(line).substr(0, colon)));
    if (key != "flags" && key != "features") {
      continue;
    }
    // One processor's line is enough: every core of a machine has the same.
    std::vector<std::string> flags;
    for (const auto& f : split(std::string_view(line).substr(colon + 1), ' ')) {
      if (!trim(f).empty()) {
        flags.push_back(to_lower(trim(f)));
      }
    }
    const auto has = [&](std::string_view f) {
      return std::find(flags.begin(), flags.end(), f) != flags.end();
    };
    // ggml-cpu picks its AMX build for AMX-INT8 with AVX-512 VNNI
    // (ggml-cpu/amx/amx.cpp is compiled under __AMX_INT8__ && __AVX512VNNI__);
    // the Arm repack kernels need the dot-product instructions (repack.cpp,
    // ggml_cpu_has_dotprod), which Linux lists as asimddp.
    if (has("amx_int8") && has("avx512_vnni")) {
      return CpuKind{CpuFeatures::Amx, "amx_int8"};
    }
    if (has("avx512f")) {
      return CpuKind{CpuFeatures::Avx512, "avx512f"};
    }
    if (has("avx2")) {
      return CpuKind{CpuFeatures::Avx2, "avx2"};
    }
    if (has("asimddp")) {
      return CpuKind{CpuFeatures::Neon, "asimddp"};
    }
    return CpuKind{CpuFeatures::None, ""};
  }
  return std::nullopt;
}

Expected<Bytes> parse_meminfo_total(std::string_view text) {
  for (const auto& raw : split(text, '\n')) {
    const std::string line = trim(raw);
    if (line.rfind("MemTotal:", 0) != 0) {
      continue;
    }
    std::string value = trim(std::string_view(line).substr(9));
    if (value.size() > 2 && to_lower(value.substr(value.size() - 2)) == "kb") {
      value = trim(std::string_view(value).substr(0, value.size() - 2));
    }
    if (const auto kib = whole_number(value); kib && *kib > 0) {
      return *kib * kKiB;
    }
    break;
  }
  return make_error("/proc/meminfo has no readable MemTotal line");
}

std::int64_t marketed_gib(Bytes driver_total) {
  // A hundredth of a GiB of slack so an exact 16384 MiB stays 16.
  const double gib = static_cast<double>(driver_total) / static_cast<double>(kGiB);
  return static_cast<std::int64_t>(std::ceil(gib - 0.01));
}

}  // namespace willfit
