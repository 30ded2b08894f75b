// Parsers of hardware tools' output, on canned outputs shaped like the real
// ones (nvidia-smi --help-query-gpu documents the CSV fields, MiB with
// "nounits"; rocm-smi --json keys are its text labels; proc(5) for meminfo).
#include <gtest/gtest.h>

#include "willfit/devices/detect_parse.hpp"

namespace willfit {
namespace {

TEST(NvidiaSmi, OneGpu) {
  auto gpus = parse_nvidia_smi_csv("NVIDIA GeForce RTX 4090, 24564, 1346\n");
  ASSERT_TRUE(gpus.ok()) << gpus.error().message;
  ASSERT_EQ(gpus->size(), 1u);
  EXPECT_EQ((*gpus)[0].name, "NVIDIA GeForce RTX 4090");
  EXPECT_EQ((*gpus)[0].memory_total, 24564 * kMiB);
  EXPECT_EQ((*gpus)[0].memory_used, 1346 * kMiB);
}

TEST(NvidiaSmi, SeveralGpusAndUnreadableFields) {
  auto gpus = parse_nvidia_smi_csv(
      "NVIDIA H100 80GB HBM3, 81559, 0\n"
      "NVIDIA H100 80GB HBM3, 81559, [N/A]\r\n"
      "\n");
  ASSERT_TRUE(gpus.ok()) << gpus.error().message;
  ASSERT_EQ(gpus->size(), 2u);
  EXPECT_EQ((*gpus)[1].memory_total, 81559 * kMiB);
  EXPECT_FALSE((*gpus)[1].memory_used.has_value());
}

TEST(NvidiaSmi, NoGpuIsAnEmptyListAndGarbageIsAnError) {
  EXPECT_TRUE(parse_nvidia_smi_csv("").value().empty());
  EXPECT_FALSE(parse_nvidia_smi_csv("No devices were found, oops").ok());
  EXPECT_FALSE(parse_nvidia_smi_csv("NVIDIA GeForce RTX 4090\n").ok());
}

TEST(RocmSmi, JsonWithEitherLabelCase) {
  constexpr const char* kOut = R"json({"card0": {"Card Series": "Radeon RX 7900 XTX",
    "Card Model": "0x744c", "Card Vendor": "Advanced Micro Devices, Inc. [AMD/ATI]",
    "Card SKU": "EXT94275", "GFX Version": "gfx1100",
    "VRAM Total Memory (B)": "25753026560", "VRAM Total Used Memory (B)": "1124007936"},
    "card1": {"Card series": "Navi 31 [Radeon RX 7900 XT/7900 XTX]", "Card model": "0x744c",
    "VRAM Total Memory (B)": "25753026560", "VRAM Total Used Memory (B)": "17440768"}})json";
  auto gpus = parse_rocm_smi_json(kOut);
  ASSERT_TRUE(gpus.ok()) << gpus.error().message;
  ASSERT_EQ(gpus->size(), 2u);
  EXPECT_EQ((*gpus)[0].name, "Radeon RX 7900 XTX");
  EXPECT_EQ((*gpus)[0].memory_total, 25753026560);
  EXPECT_EQ((*gpus)[1].name, "Navi 31 [Radeon RX 7900 XT/7900 XTX]");
  EXPECT_EQ((*gpus)[1].memory_used, 17440768);
}

TEST(RocmSmi, BadOutputIsAnError) {
  EXPECT_FALSE(parse_rocm_smi_json("ERROR: GPU[0] : Unable to read").ok());
  EXPECT_FALSE(parse_rocm_smi_json(R"({"card0": {"Card Series": "X"}})").ok());
  EXPECT_TRUE(parse_rocm_smi_json(R"({"system": {"Driver version": "6.8"}})").value().empty());
}

TEST(MacOs, SysctlAndSystemProfiler) {
  EXPECT_EQ(*parse_sysctl_bytes("68719476736\n"), 64 * kGiB);
  EXPECT_FALSE(parse_sysctl_bytes("sysctl: unknown oid 'hw.memsize'").ok());
  constexpr const char* kProfiler = R"(Graphics/Displays:

    Apple M2 Max:

      Chipset Model: Apple M2 Max
      Type: GPU
      Bus: Built-In
      Total Number of Cores: 38
      Vendor: Apple (0x106b)
      Metal Support: Metal 3
)";
  EXPECT_EQ(parse_system_profiler_chip(kProfiler), "Apple M2 Max");
  EXPECT_EQ(parse_system_profiler_chip("Graphics/Displays:\n"), "");
}

TEST(Meminfo, TotalIsInKibibytes) {
  constexpr const char* kMeminfo =
      "MemTotal:       32594144 kB\nMemFree:         1234567 kB\nMemAvailable:   20123456 kB\n";
  EXPECT_EQ(*parse_meminfo_total(kMeminfo), 32594144 * kKiB);
  EXPECT_FALSE(parse_meminfo_total("MemFree: 12 kB\n").ok());
}

TEST(MarketedSize, DriverTotalsRoundUpToTheSizeOnTheBox) {
  EXPECT_EQ(marketed_gib(24564 * kMiB), 24);  // RTX 4090
  EXPECT_EQ(marketed_gib(81559 * kMiB), 80);  // H100 80GB
  EXPECT_EQ(marketed_gib(24060 * kMiB), 24);  // A30
  EXPECT_EQ(marketed_gib(16384 * kMiB), 16);  // exact
  EXPECT_EQ(marketed_gib(12288 * kMiB), 12);
}

}  // namespace
}  // namespace willfit
