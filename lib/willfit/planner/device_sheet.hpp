// A device's spec sheet, as figures a beginner can read: usable memory next
// to capacity, what the bandwidth means for generation speed, dense next to
// the sparse headline, price per GB, and the caveats that apply. Pure: the
// renderers in app/ only format what this computes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "willfit/devices/device.hpp"

namespace willfit {

// "discrete GPU", "unified memory", "accelerator", "system memory", "GPU".
std::string_view kind_label(DeviceKind kind);

// The upper bound on decode speed when every generated token must read
// `bytes_per_token` from memory at `bandwidth_gb_per_s` (see device_sheet.cpp).
double decode_ceiling_tokens_per_s(double bandwidth_gb_per_s, Bytes bytes_per_token);

struct DeviceSheet {
  Device device;
  Usable usable;
  // The reference model for the decode ceiling: a 7 B model at Q4_K_M.
  std::string reference_model;          // "7B at Q4_K_M"
  Bytes reference_bytes_per_token = 0;  // its weight bytes
  std::optional<double> decode_ceiling_tokens_per_s;
  // The "with sparsity" figure vendors headline (2:4 structured sparsity
  // doubles the dense rate), when the device has that feature.
  std::optional<double> fp16_tflops_sparse;
  std::optional<double> price_usd_per_gb;  // launch price / marketed GB (read as GiB)
  std::vector<std::string> caveats;        // generic notes that apply to this device
};

// `units`: how the words built here print memory (--units).
DeviceSheet make_device_sheet(const Device& device, const UsableOptions& options = {},
                              UnitSystem units = UnitSystem::Mixed);

}  // namespace willfit
