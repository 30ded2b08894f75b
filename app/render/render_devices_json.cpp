// The device table and the spec sheet as JSON (schema_version 1). Device
// objects use the data file's keys (data/README.md); the sheet adds derived
// figures. Keys are a contract: add freely, never rename.
#include <nlohmann/json.hpp>

#include "render/render_devices.hpp"
#include "render/render_speed.hpp"

namespace willfit::app {
namespace {

using Json = nlohmann::ordered_json;

Json opt(const std::optional<double>& v) {
  return v ? Json(*v) : Json(nullptr);
}

Json text_or_null(const std::string& s) {
  return s.empty() ? Json(nullptr) : Json(s);
}

Json device_json(const Device& d) {
  Json j;
  j["id"] = d.id;
  j["vendor"] = d.vendor;
  j["name"] = d.name;
  j["aliases"] = d.aliases;
  j["kind"] = std::string(to_string(d.kind));
  j["laptop"] = d.laptop;
  j["memory_bytes"] = d.memory_bytes > 0 ? Json(d.memory_bytes) : Json(nullptr);
  j["memory_marketed"] = text_or_null(d.memory_marketed);
  j["memory_type"] = text_or_null(d.memory_type);
  j["bandwidth_gb_per_s"] = opt(d.bandwidth_gb_per_s);
  j["fp32_tflops"] = opt(d.fp32_tflops);
  j["fp16_tflops_dense"] = opt(d.fp16_tflops_dense);
  j["bf16_tflops_dense"] = opt(d.bf16_tflops_dense);
  j["fp8_tflops_dense"] = opt(d.fp8_tflops_dense);
  j["int8_tops_dense"] = opt(d.int8_tops_dense);
  j["tdp_w"] = opt(d.tdp_w);
  Json ic;
  ic["bus"] = text_or_null(d.interconnect.bus);
  ic["pcie_gen"] = d.interconnect.pcie_gen > 0 ? Json(d.interconnect.pcie_gen) : Json(nullptr);
  ic["nvlink_gb_per_s"] = opt(d.interconnect.nvlink_gb_per_s);
  j["interconnect"] = ic;
  j["year"] = d.year ? Json(*d.year) : Json(nullptr);
  j["price_usd"] = opt(d.price_usd);
  j["gpu_memory_fraction"] = opt(d.gpu_memory_fraction);
  j["compute_capability"] =
      d.compute_capability ? Json(compute_capability_text(*d.compute_capability)) : Json(nullptr);
  j["notes"] = d.notes;
  j["source"] = d.source;
  return j;
}

Json header(const DeviceDb& db) {
  Json j;
  j["schema_version"] = 1;
  j["willfit_version"] = WILLFIT_VERSION;
  j["data_version"] = text_or_null(db.data_version());
  j["data_origin"] = db.origin();
  return j;
}

}  // namespace

std::string render_device_table_json(const std::vector<const Device*>& devices,
                                     const DeviceDb& db) {
  Json j = header(db);
  Json list = Json::array();
  for (const Device* d : devices) {
    list.push_back(device_json(*d));
  }
  j["devices"] = list;
  return j.dump(2) + "\n";
}

std::string render_device_sheet_json(const DeviceSheet& sheet, const DeviceDb& db) {
  Json j = header(db);
  j["device"] = device_json(sheet.device);
  j["usable_bytes"] = sheet.device.memory_bytes > 0 ? Json(sheet.usable.bytes) : Json(nullptr);
  j["usable_reason"] = sheet.device.memory_bytes > 0 ? Json(sheet.usable.reason) : Json(nullptr);
  Json decode;
  decode["model"] = sheet.reference_model;
  decode["bytes_per_token"] = sheet.reference_bytes_per_token;
  decode["tokens_per_s"] = sheet.decode_ceiling_tokens_per_s
                               ? Json(rounded_speed(*sheet.decode_ceiling_tokens_per_s))
                               : Json(nullptr);
  j["decode_ceiling"] = decode;
  j["fp16_tflops_sparse"] = opt(sheet.fp16_tflops_sparse);
  j["price_usd_per_gb"] = opt(sheet.price_usd_per_gb);
  j["caveats"] = sheet.caveats;
  return j.dump(2) + "\n";
}

}  // namespace willfit::app
