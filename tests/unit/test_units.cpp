#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "willfit/core/units.hpp"

namespace willfit {
namespace {

TEST(Capacity, GigabytesAreReadAsGibibytesAsGpusAreSold) {
  EXPECT_EQ(*parse_capacity("8gb"), 8 * kGiB);
  EXPECT_EQ(*parse_capacity("8GB"), 8 * kGiB);
  EXPECT_EQ(*parse_capacity("8GiB"), 8 * kGiB);
  EXPECT_EQ(*parse_capacity("24g"), 24 * kGiB);
  EXPECT_EQ(*parse_capacity("80gb"), 80 * kGiB);
  EXPECT_EQ(*parse_capacity("512mb"), 512 * kMiB);
  EXPECT_EQ(*parse_capacity("1.5tb"), kTiB + kTiB / 2);
  EXPECT_EQ(*parse_capacity(" 16 GB "), 16 * kGiB);
}

// round_bytes is std::llround (halves away from zero) without the libm call:
// halves, near-halves, negatives, both sides of 2^52 and 2^53, and random
// magnitudes up to the saturation bound.
TEST(RoundBytes, AgreesWithLlround) {
  std::vector<double> values = {0.0,
                                0.5,
                                -0.5,
                                1.5,
                                2.5,
                                -2.5,
                                0.49999999999999994,
                                -0.49999999999999994,
                                4503599627370495.5,
                                4503599627370496.0,
                                9007199254740993.0,
                                1e18,
                                -1e18,
                                123456789.5,
                                7.9e9};
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exponent(-3.0, 18.0);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int i = 0; i < 100000; ++i) {
    values.push_back(unit(rng) * std::pow(10.0, exponent(rng)));
    values.push_back(std::floor(unit(rng) * 1e6) + 0.5);
  }
  for (const double v : values) {
    ASSERT_EQ(round_bytes(v), std::llround(v)) << std::to_string(v);
  }
  const auto big = static_cast<double>(std::numeric_limits<Bytes>::max() / 4);
  EXPECT_EQ(round_bytes(1e300), static_cast<Bytes>(big));
  EXPECT_EQ(round_bytes(-1e300), -static_cast<Bytes>(big));
  EXPECT_EQ(round_bytes(std::nan("")), -static_cast<Bytes>(big));
}

TEST(Capacity, PlainNumbersAreBytes) {
  EXPECT_EQ(*parse_capacity("8000000000"), 8 * kGB);
  EXPECT_EQ(*parse_capacity("1048576"), kMiB);
}

// "--ram 32" is a unit left out, not 32 bytes: no memory is smaller than
// 1 MiB. The message names the unit meant: gigabytes for a small figure,
// megabytes for one like macOS's iogpu.wired_limit_mb (20000).
TEST(Capacity, ABareNumberBelowAMebibyteIsAMissingUnit) {
  const auto ram = parse_capacity("32");
  ASSERT_FALSE(ram.ok());
  EXPECT_NE(ram.error().message.find("'32gb'"), std::string::npos) << ram.error().message;
  const auto limit = parse_capacity("20000");
  ASSERT_FALSE(limit.ok());
  EXPECT_NE(limit.error().message.find("'20000mb'"), std::string::npos) << limit.error().message;
  EXPECT_EQ(*parse_capacity("20000mb"), 20000 * kMiB);
  EXPECT_EQ(*parse_capacity("32b"), 32);
}

TEST(Capacity, RejectsNonsense) {
  for (const char* bad : {"", "gb", "abc", "-8gb", "0gb", "8xb", "1e9gb", "inf", "nan gb",
                          "99999999999tb", "8..0gb"}) {
    EXPECT_FALSE(parse_capacity(bad).ok()) << bad;
  }
}

TEST(Format, LabelsEveryFigure) {
  EXPECT_EQ(format_iec(8 * kGiB), "8.00 GiB");
  EXPECT_EQ(format_iec(704 * kMiB), "704 MiB");
  EXPECT_EQ(format_si(6'500'000'000), "6.50 GB");
  EXPECT_EQ(format_si(26 * kGB), "26.0 GB");
  EXPECT_EQ(format_iec_signed(-40 * kMiB), "-40.0 MiB");
  EXPECT_EQ(format_iec(512), "512 B");
}

TEST(Format, DecimalBoundariesPromoteToTheNextUnit) {
  EXPECT_EQ(format_si(999 * kMB), "999 MB");
  EXPECT_EQ(format_si(999'499'999), "999 MB");
  EXPECT_EQ(format_si(999'500'000), "1.00 GB");  // not "1000 MB"
  EXPECT_EQ(format_si(kGB), "1.00 GB");
  EXPECT_EQ(format_si(999), "999 B");
  EXPECT_EQ(format_si(kKB), "1.00 kB");
  EXPECT_EQ(format_si(9'994 * kMB), "9.99 GB");
  EXPECT_EQ(format_si(9'996 * kMB), "10.0 GB");  // not "10.00 GB"
  EXPECT_EQ(format_si(99'960 * kMB), "100 GB");  // not "100.0 GB"
  EXPECT_EQ(format_si(2 * kTB), "2.00 TB");
}

TEST(Format, BinaryBoundariesPromoteToTheNextUnit) {
  EXPECT_EQ(format_iec(1023 * kMiB), "1023 MiB");
  EXPECT_EQ(format_iec(1024 * kMiB - kMiB / 4), "1.00 GiB");  // 1023.75 MiB, not "1024 MiB"
  EXPECT_EQ(format_iec(kGiB), "1.00 GiB");
  EXPECT_EQ(format_iec(1023), "1023 B");
  EXPECT_EQ(format_iec(kKiB), "1.00 KiB");
  EXPECT_EQ(format_iec(1000 * kMiB), "1000 MiB");  // below 1 GiB: stays MiB
  EXPECT_EQ(format_iec(kTiB), "1.00 TiB");
}

TEST(Units, ParsesTheTwoSystemsAndRejectsOthers) {
  EXPECT_EQ(*parse_unit_system("si"), UnitSystem::Si);
  EXPECT_EQ(*parse_unit_system(" IEC "), UnitSystem::Iec);
  for (const char* bad : {"", "foo", "gb", "binary", "s i"}) {
    auto u = parse_unit_system(bad);
    ASSERT_FALSE(u.ok()) << bad;
    EXPECT_NE(u.error().message.find("use si"), std::string::npos) << u.error().message;
  }
}

// The default shows device memory binary and decimal arithmetic decimal;
// `si` and `iec` print both kinds in one system, every figure labelled.
TEST(Units, EachSystemPrintsBothKindsOfFigure) {
  const Bytes weights = 6'500'000'000;  // 13 B parameters x 0.5 bytes
  const Bytes need = 9'440'000'000;
  EXPECT_EQ(format_memory(need, UnitSystem::Mixed), "8.79 GiB");
  EXPECT_EQ(format_size(weights, UnitSystem::Mixed), "6.50 GB");
  EXPECT_EQ(format_memory(need, UnitSystem::Si), "9.44 GB");
  EXPECT_EQ(format_size(weights, UnitSystem::Si), "6.50 GB");
  EXPECT_EQ(format_memory(need, UnitSystem::Iec), "8.79 GiB");
  EXPECT_EQ(format_size(weights, UnitSystem::Iec), "6.05 GiB");
  EXPECT_EQ(format_memory_signed(-40 * kMB, UnitSystem::Si), "-40.0 MB");
  EXPECT_EQ(format_memory_signed(-40 * kMiB, UnitSystem::Mixed), "-40.0 MiB");
  EXPECT_EQ(format_memory(kGiB - 1, UnitSystem::Si), "1.07 GB");
  EXPECT_EQ(format_memory(999 * kMB, UnitSystem::Si), "999 MB");
  EXPECT_EQ(format_size(1023 * kMiB, UnitSystem::Iec), "1023 MiB");
}

TEST(Units, MarketedGigabytesAreExplainedWithoutGiBUnderSi) {
  EXPECT_EQ(marketed_gb_meaning(UnitSystem::Mixed), "N GiB");
  EXPECT_EQ(marketed_gb_meaning(UnitSystem::Iec), "N GiB");
  EXPECT_EQ(marketed_gb_meaning(UnitSystem::Si).find("GiB"), std::string_view::npos);
  EXPECT_EQ(units_legend(UnitSystem::Si).find("GiB"), std::string_view::npos);
  EXPECT_EQ(units_legend(UnitSystem::Iec).find(" GB "), std::string_view::npos);
}

}  // namespace
}  // namespace willfit
