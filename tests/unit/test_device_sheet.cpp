// Spec-sheet figures: the decode ceiling against measured speeds, sparse
// headlines, price per GB and the caveats.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "sources/embedded_data.hpp"
#include "willfit/devices/device_db.hpp"
#include "willfit/planner/device_sheet.hpp"

namespace willfit {
namespace {

const DeviceDb& db() {
  static const DeviceDb d = *parse_device_db(app::embedded_devices_json(), "embedded");
  return d;
}

DeviceSheet sheet(std::string_view name) {
  return make_device_sheet(*db().find(name));
}

TEST(DecodeCeiling, IsBandwidthOverBytesPerToken) {
  EXPECT_DOUBLE_EQ(decode_ceiling_tokens_per_s(1000.0, 4 * kGB), 250.0);
  EXPECT_EQ(decode_ceiling_tokens_per_s(1000.0, 0), 0.0);
}

// Measured llama.cpp decode speeds (tests/data/decode_measured.csv, sources
// on each row) must stay below the bandwidth ceiling for the same model size,
// and not far below it (a ceiling 3x too high would be useless).
TEST(DecodeCeiling, BoundsMeasuredSpeeds) {
  std::ifstream in(std::string(WILLFIT_TEST_DATA_DIR) + "/decode_measured.csv");
  ASSERT_TRUE(in) << "tests/data/decode_measured.csv";
  std::string line;
  std::getline(in, line);  // header
  int rows = 0;
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string device;
    std::string gib_text;
    std::string tps_text;
    std::getline(ss, device, ',');
    std::getline(ss, gib_text, ',');
    std::getline(ss, tps_text, ',');
    auto d = db().find(device);
    ASSERT_TRUE(d.ok()) << d.error().message;
    const auto bytes = static_cast<Bytes>(std::stod(gib_text) * static_cast<double>(kGiB));
    const double ceiling = decode_ceiling_tokens_per_s(*d->bandwidth_gb_per_s, bytes);
    const double measured = std::stod(tps_text);
    const double ratio = measured / ceiling;
    std::printf("  %-16s ceiling %6.1f t/s, measured %6.1f t/s (%.0f%%)\n", device.c_str(), ceiling,
                measured, ratio * 100);
    EXPECT_LT(ratio, 1.0) << device;
    EXPECT_GT(ratio, 0.4) << device;
    ++rows;
  }
  EXPECT_GE(rows, 3);
}

TEST(DeviceSheet, ReferenceModelIsSevenBillionAtQ4KM) {
  const auto s = sheet("rtx 4090");
  EXPECT_EQ(s.reference_model, "a 7B model at Q4_K_M");
  // 7e9 params x ~4.89 bits / 8 ~= 4.28 GB.
  EXPECT_NEAR(static_cast<double>(s.reference_bytes_per_token) / 1e9, 4.28, 0.05);
  ASSERT_TRUE(s.decode_ceiling_tokens_per_s);
  EXPECT_NEAR(*s.decode_ceiling_tokens_per_s,
              1008e9 / static_cast<double>(s.reference_bytes_per_token), 1e-6);
}

TEST(DeviceSheet, SparseHeadlineOnlyWhereTheHardwareHasIt) {
  EXPECT_DOUBLE_EQ(*sheet("h100 sxm").fp16_tflops_sparse, 2 * 989.4);
  EXPECT_DOUBLE_EQ(*sheet("mi300x").fp16_tflops_sparse, 2 * 1307.4);
  EXPECT_FALSE(sheet("t4").fp16_tflops_sparse.has_value());  // Turing: no sparsity
  EXPECT_FALSE(sheet("rx 7900 xtx").fp16_tflops_sparse.has_value());
}

TEST(DeviceSheet, PricePerGbAndCaveats) {
  const auto s = sheet("rtx 4090");
  EXPECT_NEAR(*s.price_usd_per_gb, 1599.0 / 24.0, 1e-9);
  bool geforce = false;
  for (const auto& c : s.caveats) {
    geforce = geforce || c.find("half the FP16 headline") != std::string::npos;
  }
  EXPECT_TRUE(geforce);
  const auto mac = sheet("m2 max 64gb");
  EXPECT_EQ(mac.usable.bytes, 48 * kGiB);
  EXPECT_FALSE(mac.price_usd_per_gb.has_value());
  EXPECT_EQ(sheet("dgx spark").usable.bytes,
            static_cast<Bytes>(0.935 * static_cast<double>(128 * kGiB)));
  EXPECT_EQ(sheet("gh200 144gb").usable.bytes, 144 * kGiB);
}

}  // namespace
}  // namespace willfit
