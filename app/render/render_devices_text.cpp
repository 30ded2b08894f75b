// The device table and the spec sheet, for people.
#include <fmt/format.h>

#include "render/render_devices.hpp"

namespace willfit::app {
namespace {

std::string or_dash(const std::optional<double>& v, std::string_view unit) {
  return v ? fmt::format("{:g}{}", *v, unit) : "-";
}

std::string price(const std::optional<double>& usd) {
  return usd ? fmt::format("${:.0f}", *usd) : "-";
}

// Memory as sold ("24 GB", which holds 24 GiB) unless --units asks for one system.
std::string memory_cell(const Device& d, UnitSystem units) {
  if (d.memory_bytes <= 0) {
    return "-";
  }
  if (units != UnitSystem::Mixed) {
    return format_memory(d.memory_bytes, units);
  }
  return d.memory_marketed.empty() ? "-" : d.memory_marketed;
}

// What the MEMORY column holds, for the table's footnote.
std::string_view memory_column_note(UnitSystem units) {
  switch (units) {
    case UnitSystem::Si:
      return "Memory in GB (10^9 bytes)";
    case UnitSystem::Iec:
      return "Memory in GiB (2^30 bytes)";
    case UnitSystem::Mixed:
      break;
  }
  return "Memory as sold (\"24 GB\" = 24 GiB)";
}

// A capacity in both systems by default ("24.0 GiB = 25.8 GB"), else in the one asked for.
std::string capacity_figures(Bytes bytes, UnitSystem units) {
  return units == UnitSystem::Mixed
             ? fmt::format("{} = {}", format_memory(bytes, units), format_size(bytes, units))
             : format_memory(bytes, units);
}

std::string line(std::string_view label, const std::string& value) {
  return fmt::format("  {:<14}{}\n", label, value);
}

}  // namespace

std::string render_device_table_text(const std::vector<const Device*>& devices, const DeviceDb& db,
                                     UnitSystem units) {
  std::size_t id_width = 2;
  for (const Device* d : devices) {
    id_width = std::max(id_width, d->id.size());
  }
  std::string s = fmt::format("{:<{}}  {:>9}  {:>10}  {:>10}  {:>4}  {:>6}  {}\n", "ID", id_width,
                              "MEMORY", "BANDWIDTH", "FP16 DENSE", "YEAR", "PRICE", "NAME");
  for (const Device* d : devices) {
    s += fmt::format("{:<{}}  {:>9}  {:>10}  {:>10}  {:>4}  {:>6}  {}\n", d->id, id_width,
                     memory_cell(*d, units), or_dash(d->bandwidth_gb_per_s, " GB/s"),
                     or_dash(d->fp16_tflops_dense, " TF"), d->year ? std::to_string(*d->year) : "-",
                     price(d->price_usd), d->name);
  }
  s += fmt::format(
      "\n{} of {} devices (data {}). {}; bandwidth in GB/s "
      "(10^9 bytes/s); FP16 dense tensor TFLOPS, never the sparse headline; launch price in "
      "USD.\n'willfit device ID' shows one device in full.\n",
      devices.size(), db.devices().size(), db.data_version().empty() ? "?" : db.data_version(),
      memory_column_note(units));
  return s;
}

std::string render_device_sheet_text(const DeviceSheet& sheet, UnitSystem units) {
  const Device& d = sheet.device;
  std::string s = fmt::format("{}\n", d.name);
  s +=
      fmt::format("  id {}, {}, {}{}{}\n", d.id, d.vendor, kind_label(d.kind),
                  d.laptop ? " (laptop)" : "", d.year ? fmt::format(", launched {}", *d.year) : "");

  s += "\nMemory\n";
  if (d.memory_bytes > 0) {
    s += line("capacity", fmt::format("{} as sold = {} ({} bytes){}", d.memory_marketed,
                                      capacity_figures(d.memory_bytes, units), d.memory_bytes,
                                      d.memory_type.empty() ? "" : ", " + d.memory_type));
    s += line("usable",
              fmt::format("{}: {}", format_memory(sheet.usable.bytes, units), sheet.usable.reason));
  } else {
    s += line("capacity", fmt::format("depends on the modules installed{}",
                                      d.memory_type.empty() ? "" : " (" + d.memory_type + ")"));
  }
  if (d.bandwidth_gb_per_s) {
    s += line("bandwidth",
              fmt::format("{:g} GB/s (datasheet peak, 10^9 bytes/s)", *d.bandwidth_gb_per_s));
    if (sheet.decode_ceiling_tokens_per_s) {
      s += line("", fmt::format("generating a token reads every weight once, so {} ({} per "
                                "token) tops out near {:.0f} tokens/s here;",
                                sheet.reference_model,
                                format_size(sheet.reference_bytes_per_token, units),
                                *sheet.decode_ceiling_tokens_per_s));
      s += line("", "measured llama.cpp runs reach about 60-75% of such a ceiling");
    }
  }

  s += "\nCompute (dense peaks, without sparsity)\n";
  s += line("FP32", or_dash(d.fp32_tflops, " TFLOPS"));
  s += line("FP16 tensor", or_dash(d.fp16_tflops_dense, " TFLOPS") +
                               (sheet.fp16_tflops_sparse ? fmt::format("  (sparse headline: {:g})",
                                                                       *sheet.fp16_tflops_sparse)
                                                         : ""));
  s += line("BF16 tensor", or_dash(d.bf16_tflops_dense, " TFLOPS"));
  s += line("FP8 tensor", or_dash(d.fp8_tflops_dense, " TFLOPS"));
  s += line("INT8 tensor", or_dash(d.int8_tops_dense, " TOPS"));
  if (d.vendor == "nvidia") {
    s += line("CUDA", d.compute_capability
                          ? "compute capability " + compute_capability_text(*d.compute_capability)
                          : "compute capability not known");
  }

  s += "\nSystem\n";
  s += line("interconnect", d.interconnect.bus.empty() ? "-" : d.interconnect.bus);
  if (d.interconnect.nvlink_gb_per_s) {
    s += line("NVLink", fmt::format("{:g} GB/s per GPU, both directions together",
                                    *d.interconnect.nvlink_gb_per_s));
  }
  s += line("power", or_dash(d.tdp_w, " W"));
  s += line("price", d.price_usd ? fmt::format("${:.0f} at launch{}", *d.price_usd,
                                               sheet.price_usd_per_gb
                                                   ? fmt::format(" = ${:.2f} per GB of memory",
                                                                 *sheet.price_usd_per_gb)
                                                   : "")
                                 : "-");

  if (!sheet.caveats.empty() || !d.notes.empty()) {
    s += "\nWorth knowing\n";
    for (const auto& c : sheet.caveats) {
      s += "  - " + c + "\n";
    }
    if (!d.notes.empty()) {
      s += "  - from the data: " + d.notes + "\n";
    }
  }
  s += "\nSource: " + d.source + "\n";
  return s;
}

}  // namespace willfit::app
