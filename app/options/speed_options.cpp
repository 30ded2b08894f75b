#include "options/speed_options.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "sources/device_source.hpp"
#include "willfit/core/text.hpp"

namespace willfit::app {
namespace {

// A positive decimal, with an optional unit suffix ("936", "936gb/s", "330tflops").
Expected<double> parse_rate(const std::string& option, const std::string& text,
                            std::string_view unit) {
  std::string t = to_lower(trim(text));
  if (t.size() > unit.size() && t.compare(t.size() - unit.size(), unit.size(), unit) == 0) {
    t = trim(t.substr(0, t.size() - unit.size()));
  }
  double value = 0;
  if (!parse_decimal(t, value) || value <= 0 || value > 1e6) {
    return make_error(fmt::format("invalid {} '{}': expected a positive number of {}, e.g. {}",
                                  option, text, unit, unit == "gb/s" ? "936" : "71"));
  }
  return value;
}

// The `cpu` rows of the device database: system-memory platforms with their
// bandwidth (data/devices.json, embedded).
struct RamPlatform {
  std::string id;
  double bandwidth_gb_per_s = 0;
};

std::vector<RamPlatform> ram_platforms() {
  std::vector<RamPlatform> out;
  if (const auto& db = embedded_device_db()) {
    for (const auto& d : db->devices()) {
      if (d.kind == DeviceKind::Cpu && d.bandwidth_gb_per_s) {
        out.push_back({d.id, *d.bandwidth_gb_per_s});
      }
    }
  }
  return out;
}

Expected<SpeedSettings> ram_setting(const std::string& text, SpeedSettings s) {
  if (text.empty()) {
    return s;
  }
  const std::string name = to_lower(trim(text));
  std::vector<std::string> ids;
  for (const auto& p : ram_platforms()) {
    if (p.id == name) {
      s.ram_bandwidth_gb_per_s = p.bandwidth_gb_per_s;
      s.ram_label = p.id;
      return s;
    }
    ids.push_back(p.id);
  }
  auto rate = parse_rate("--ram-bandwidth", text, "gb/s");
  if (!rate) {
    const std::string hint = did_you_mean(closest(name, ids));
    return make_error(
        fmt::format("invalid --ram-bandwidth '{}': give GB/s (e.g. 89.6) or a memory type such as "
                    "ddr5-5600-dual{}",
                    text, hint.empty() ? "" : "; " + hint));
  }
  s.ram_bandwidth_gb_per_s = *rate;
  return s;
}

}  // namespace

void add_speed_options(CLI::App& app, SpeedOptionText& text) {
  app.add_option("--bandwidth", text.bandwidth,
                 "Device memory bandwidth in GB/s, for speed estimates (e.g. 936)");
  app.add_option("--tflops", text.tflops,
                 "Device dense FP16 TFLOPS, for prefill estimates (e.g. 71)");
  app.add_option("--ram-bandwidth", text.ram_bandwidth,
                 "System RAM bandwidth for offloaded layers: GB/s or a type such as "
                 "ddr5-5600-dual (default: DDR4-3200 dual channel, 51.2 GB/s)");
  app.add_option("--split", text.split,
                 "Several devices: layer (llama.cpp default, devices in sequence) or tensor");
}

Expected<SpeedSettings> apply_speed_options(const SpeedOptionText& text, DeviceSet& devices) {
  SpeedSettings s;
  if (!text.bandwidth.empty()) {
    auto bw = parse_rate("--bandwidth", text.bandwidth, "gb/s");
    if (!bw) {
      return bw.error();
    }
    for (auto& d : devices.devices) {
      d.bandwidth_gb_per_s = *bw;
    }
  }
  if (!text.tflops.empty()) {
    auto tf = parse_rate("--tflops", text.tflops, "tflops");
    if (!tf) {
      return tf.error();
    }
    for (auto& d : devices.devices) {
      d.fp16_tflops_dense = *tf;
    }
  }
  const std::string split = to_lower(trim(text.split));
  if (split == "tensor") {
    s.split = SplitMode::Tensor;
  } else if (split != "layer") {
    return make_error("invalid --split '" + text.split + "': use layer or tensor");
  }
  return ram_setting(text.ram_bandwidth, s);
}

}  // namespace willfit::app
