// Verdicts that know their error (issue 16): `tight` is set exactly when the
// headroom lies within the measured error band, Apple's soft working-set
// limit, Jetson's usable memory, and published runs on unified-memory
// boards (tests/data/unified_runs.csv) that willfit must not call a plain
// "does not fit".
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "csv.hpp"
#include "sources/embedded_data.hpp"
#include "willfit/devices/device_db.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/model_db.hpp"
#include "willfit/models/model_size.hpp"

namespace willfit {
namespace {

const DeviceDb& devices() {
  static const DeviceDb db = *parse_device_db(app::embedded_devices_json(), "devices");
  return db;
}

const ModelDb& models() {
  static const ModelDb db = *ModelDb::parse(app::embedded_models_json(), "embedded");
  return db;
}

InferenceQuery query_13b_q4(Bytes limit) {
  InferenceQuery q;
  q.model = *model_from_size(*parse_model_size("13b"));
  q.precision = *parse_precision("q4_k_m");
  q.devices.devices.push_back(*raw_device("24gb"));
  q.usable.gpu_limit = limit;
  return q;
}

// Sweep the usable memory across the need: tight is exactly "the headroom
// is within the band", the verdict is untouched, and each side is reached.
TEST(Tight, SetExactlyWhenTheHeadroomIsWithinTheBand) {
  const Estimate ref = estimate_inference(query_13b_q4(24 * kGiB));
  ASSERT_GT(ref.band, 0);
  EXPECT_NEAR(static_cast<double>(ref.band),
              static_cast<double>(ref.required) * ref.error_band_pct / 100.0, 1.0);
  int tight_fits = 0;
  int tight_short = 0;
  int plain = 0;
  for (Bytes limit = ref.required - 2 * ref.band; limit <= ref.required + 2 * ref.band;
       limit += ref.band / 8) {
    const Estimate e = estimate_inference(query_13b_q4(limit));
    const bool within = e.headroom >= -e.band && e.headroom <= e.band;
    EXPECT_EQ(e.tight, within) << "limit " << limit << " headroom " << e.headroom;
    EXPECT_EQ(e.fits(), e.headroom >= 0);
    tight_fits += e.tight && e.fits();
    tight_short += e.tight && !e.fits();
    plain += !e.tight;
  }
  EXPECT_GT(tight_fits, 0);
  EXPECT_GT(tight_short, 0);
  EXPECT_GT(plain, 0);
}

TEST(Tight, NoDeviceIsNeverTight) {
  InferenceQuery q = query_13b_q4(0);
  q.devices.devices.clear();
  q.usable.gpu_limit.reset();
  const Estimate e = estimate_inference(q);
  EXPECT_FALSE(e.tight);
  EXPECT_GT(e.band, 0);
}

TEST(UnifiedMemory, JetsonKeepsWhatLinuxKeepsNotHalf) {
  auto d = devices().find("jetson orin nano 8gb");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(usable_bytes(*d), d->memory_bytes - 2 * kGiB);
  EXPECT_EQ(soft_memory_ceiling(*d), 0);  // a hard limit: no soft zone
}

TEST(UnifiedMemory, AppleRecommendedWorkingSetIsSoftUpToWhatMacOsLeaves) {
  auto d = devices().find("m1 8gb");
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(usable_bytes(*d), d->memory_bytes * 2 / 3);
  EXPECT_EQ(soft_memory_ceiling(*d), d->memory_bytes - 2 * kGiB);
  UsableOptions limit;
  limit.gpu_limit = 7 * kGiB;  // --gpu-limit replaces the rule, soft zone included
  EXPECT_EQ(soft_memory_ceiling(*d, limit), 0);
}

// A need above the recommended working set but within what macOS leaves is
// tight, keeps its verdict (no_fit, exit 1) and is not called a plain miss.
TEST(UnifiedMemory, OverTheSoftLimitIsTight) {
  auto d = devices().find("m1 8gb");
  ASSERT_TRUE(d.ok());
  InferenceQuery q;
  q.model = model_from_match(*models().find("llama3.1:8b"));
  q.precision = *parse_precision(q.model.precision_hint);
  q.runtime = Runtime::Ollama;
  q.context_is_default = true;
  q.devices.devices.push_back(*d);
  const Estimate e = estimate_inference(q);
  EXPECT_GT(e.required, e.usable);
  EXPECT_LE(e.required, e.soft_ceiling);
  EXPECT_TRUE(e.over_soft_limit());
  EXPECT_TRUE(e.tight);
  EXPECT_FALSE(e.fits());
}

// Published runs on unified-memory boards: a model that ran is "fits" or
// "tight", never a plain "does not fit".
TEST(UnifiedMemory, PublishedRunsAreNotPlainMisses) {
  std::ifstream in(std::string(WILLFIT_TEST_DATA_DIR) + "/unified_runs.csv");
  ASSERT_TRUE(in.good());
  std::string line;
  std::getline(in, line);
  int rows = 0;
  while (std::getline(in, line)) {
    const auto f = test::split_csv_line(line);
    ASSERT_GE(f.size(), 8u) << line;
    auto d = devices().find(f[1]);
    ASSERT_TRUE(d.ok()) << f[1];
    auto match = models().find(f[2]);
    ASSERT_TRUE(match.ok()) << f[2];
    InferenceQuery q;
    q.model = model_from_match(*match);
    q.precision = *parse_precision(f[3]);
    q.runtime = *parse_runtime(f[4]);
    q.context_is_default = true;
    q.devices.devices.push_back(*d);
    const Estimate e = estimate_inference(q);
    std::printf("| %s | %s | %s | need %.2f GiB | usable %.2f GiB | %s%s |\n", f[0].c_str(),
                f[1].c_str(), f[2].c_str(), static_cast<double>(e.required) / kGiB,
                static_cast<double>(e.usable) / kGiB, std::string(to_string(e.verdict)).c_str(),
                e.tight ? ", tight" : "");
    if (f[5] == "ran") {
      EXPECT_TRUE(e.fits() || e.tight) << f[0];
    }
    ++rows;
  }
  EXPECT_GE(rows, 1);
}

}  // namespace
}  // namespace willfit
