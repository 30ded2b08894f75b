#include <gtest/gtest.h>

#include "willfit/planner/grid.hpp"

namespace willfit {
namespace {

std::vector<std::string> split(std::string_view text) {
  auto r = split_list(text, "--device");
  return r ? *r : std::vector<std::string>{"error: " + r.error().message};
}

TEST(Grid, SplitsCommaListsAndTrimsEachValue) {
  EXPECT_EQ(split("8b"), (std::vector<std::string>{"8b"}));
  EXPECT_EQ(split("rtx 4090, 2x rtx 3090 ,8gb"),
            (std::vector<std::string>{"rtx 4090", "2x rtx 3090", "8gb"}));
  EXPECT_EQ(split("rtx 4090+rtx 3090,h100:8"),
            (std::vector<std::string>{"rtx 4090+rtx 3090", "h100:8"}));
}

TEST(Grid, AnEmptyValueIsAnErrorNamingTheOption) {
  for (const char* bad : {"a,,b", "a,", ",a", ",", "a, ,b", ""}) {
    const auto r = split_list(bad, "--device");
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().message.find("--device"), std::string::npos) << bad;
  }
}

Estimate with(Verdict v, bool device_known) {
  Estimate e;
  e.memory.weights = Bytes{5} << 30;
  e.memory.kv_cache = Bytes{512} << 20;
  e.verdict = v;
  e.device_known = device_known;
  return e;
}

TEST(Grid, ACellIsTheVerdictAndTheTotal) {
  EXPECT_EQ(grid_cell_text(with(Verdict::Fits, true)), "fits 5.50 GiB");
  EXPECT_EQ(grid_cell_text(with(Verdict::Offload, true)), "offload 5.50 GiB");
  EXPECT_EQ(grid_cell_text(with(Verdict::NoFit, true)), "no 5.50 GiB");
  EXPECT_EQ(grid_cell_text(with(Verdict::NoFit, false)), "needs 5.50 GiB");
  EXPECT_EQ(grid_cell_text(with(Verdict::Fits, true), UnitSystem::Si), "fits 5.91 GB");
}

// A cell whose headroom is within the estimate's error says so, as the plain
// answer's "FITS, but tight" does: a '*' on the word.
TEST(Grid, ATightCellIsMarked) {
  Estimate fits = with(Verdict::Fits, true);
  fits.tight = true;
  EXPECT_EQ(grid_cell_text(fits), "fits* 5.50 GiB");
  Estimate no = with(Verdict::NoFit, true);
  no.tight = true;
  EXPECT_EQ(grid_cell_text(no), "no* 5.50 GiB");
  Estimate needs = with(Verdict::NoFit, false);
  needs.tight = true;  // no device: nothing to be tight against
  EXPECT_EQ(grid_cell_text(needs), "needs 5.50 GiB");
}

// The exit rule of the plain answer, cell by cell: only "fits" (or no
// device at all) counts as a yes.
TEST(Grid, OnlyFitsOrNoDeviceCountsAsYes) {
  EXPECT_TRUE(grid_cell_ok(with(Verdict::Fits, true)));
  EXPECT_FALSE(grid_cell_ok(with(Verdict::Offload, true)));
  EXPECT_FALSE(grid_cell_ok(with(Verdict::NoFit, true)));
  EXPECT_TRUE(grid_cell_ok(with(Verdict::NoFit, false)));
}

}  // namespace
}  // namespace willfit
