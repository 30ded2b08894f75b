#include <gtest/gtest.h>

#include "willfit/units.hpp"

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

TEST(Capacity, PlainNumbersAreBytes) {
  EXPECT_EQ(*parse_capacity("8000000000"), 8 * kGB);
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

}  // namespace
}  // namespace willfit
