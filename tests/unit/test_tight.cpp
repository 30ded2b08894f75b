// Verdicts that know their error (issue 16): `tight` is set exactly when the
// headroom lies within the measured error band, Apple's soft working-set
// limit, Jetson's usable memory, and published runs on unified-memory
// boards (tests/data/unified_runs.csv) that willfit must not call a plain
// "does not fit".
#include <gtest/gtest.h>

#include <algorithm>
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
#include "willfit/planner/suggest.hpp"
#include "willfit/speed/speed.hpp"
#include "willfit/training/training.hpp"

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

// A training answer is tight as an inference one is: when the per-GPU
// headroom lies within its error band either way (QLoRA of a 7 B model
// needs about 10.2 GiB: 11 GiB fits within the band, 10 GiB is short
// within it, 24 GiB and 8 GiB are clear of it); without a device, never.
TEST(Tight, TrainingAnswersCarryTheirBand) {
  TrainingQuery q;
  q.model = *model_from_size(*parse_model_size("7b"));
  q.method = TrainMethod::Qlora;
  q.precision = TrainPrecision::Bf16;
  q.checkpointing = Checkpointing::Full;
  const auto on = [&](const char* size) {
    TrainingQuery t = q;
    t.devices.devices.push_back(*raw_device(size));
    t.devices.text = size;
    return estimate_training(t);
  };
  for (const char* size : {"8gb", "10gb", "11gb", "24gb"}) {
    const TrainingEstimate e = on(size);
    ASSERT_GT(e.band, 0) << size;
    EXPECT_EQ(e.tight, std::abs(e.headroom) <= e.band) << size;
  }
  EXPECT_TRUE(on("11gb").tight);
  EXPECT_TRUE(on("11gb").fits());
  EXPECT_TRUE(on("10gb").tight);
  EXPECT_FALSE(on("10gb").fits());
  EXPECT_FALSE(on("24gb").tight);
  EXPECT_FALSE(on("8gb").tight);
  EXPECT_FALSE(estimate_training(q).tight);
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
  q.devices.devices.push_back(*d);
  // The GPU and CPU sides together need more than the memory: no_fit, over
  // the soft limit, and tight. Ollama runs llama-server with its own
  // default context (4096 on 8 GB), so it answers as llama.cpp does.
  for (const Runtime runtime : {Runtime::Ollama, Runtime::LlamaCpp}) {
    q.runtime = runtime;
    q.context_is_default = runtime == Runtime::Ollama;
    q.ubatch_is_default = runtime == Runtime::Ollama;
    const Estimate e = estimate_inference(q);
    EXPECT_GT(e.required, e.usable);
    EXPECT_LE(e.required, e.soft_ceiling);
    EXPECT_EQ(e.verdict, Verdict::NoFit);
    EXPECT_TRUE(e.over_soft_limit());
    EXPECT_TRUE(e.tight);
  }
}

// Published runs on unified-memory boards: a model that ran is "fits",
// "tight" or an offload within the same memory, never a plain "does not fit".
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
      // Offload on unified memory: the plan llama.cpp and Ollama make there.
      EXPECT_TRUE(e.fits() || e.tight || e.verdict == Verdict::Offload) << f[0];
    }
    ++rows;
  }
  EXPECT_GE(rows, 1);
}

// Offload on unified memory (issue 16): on one unified-memory device (a Mac,
// a Jetson, Strix Halo) the "system RAM" of llama.cpp's offload plan is the
// same memory. What the CPU side may use is the pool (capacity less what the
// operating system keeps) less the GPU side: the verdict, the speed and the
// suggestions all follow from that, and none asks for --ram.
InferenceQuery on(const char* device, const char* model, const char* precision) {
  InferenceQuery q;
  q.model = model_from_match(*models().find(model));
  q.precision = *parse_precision(precision);
  auto d = devices().find(device);
  EXPECT_TRUE(d.ok()) << device;
  q.devices.devices.push_back(*d);
  q.devices.text = device;
  return q;
}

// The pool: capacity less the system-memory rule (2 GiB or 10 %) on a Mac and
// a Jetson, the desktop rule on other unified parts; nothing on a discrete GPU.
TEST(UnifiedOffload, ThePoolIsTheCapacityLessWhatTheSystemKeeps) {
  const Device m1 = *devices().find("m1 8gb");
  EXPECT_EQ(unified_pool(m1).bytes, m1.memory_bytes - 2 * kGiB);
  EXPECT_NE(unified_pool(m1).reason.find("macOS"), std::string::npos);
  const Device ultra = *devices().find("m2 ultra 192gb");
  EXPECT_EQ(unified_pool(ultra).bytes,
            ultra.memory_bytes - static_cast<Bytes>(static_cast<double>(ultra.memory_bytes) * 0.1));
  const Device jetson = *devices().find("jetson orin nano super 8gb");
  EXPECT_EQ(unified_pool(jetson).bytes, jetson.memory_bytes - 2 * kGiB);
  EXPECT_EQ(unified_pool(*devices().find("rtx 4090")).bytes, 0);
  // Apple's soft ceiling is that same pool (one formula).
  EXPECT_EQ(soft_memory_ceiling(m1), unified_pool(m1).bytes);
}

// The plan's RAM is the pool less the GPU side; Offload exactly when the CPU
// side fits in it; both verdicts are reached over a few Macs and models.
TEST(UnifiedOffload, TheCpuSideGetsThePoolLessTheGpuSide) {
  int offload = 0;
  int no_fit = 0;
  for (const char* device :
       {"m1 8gb", "m3 pro 18gb", "m3 max 48gb", "jetson orin nano super 8gb"}) {
    for (const char* model : {"llama-3.1-8b", "qwen3-30b-a3b", "llama-3.1-70b"}) {
      for (const char* precision : {"q3_k_m", "q4_k_m", "q8_0"}) {
        const InferenceQuery q = on(device, model, precision);
        const Estimate e = estimate_inference(q);
        if (!e.offload) {
          continue;
        }
        const OffloadPlan& p = *e.offload;
        const Bytes pool = unified_pool(q.devices.devices.front()).bytes;
        ASSERT_TRUE(p.ram_available.has_value()) << device << " " << model;
        EXPECT_TRUE(p.ram_unified);
        EXPECT_EQ(*p.ram_available, std::max<Bytes>(0, pool - p.gpu_bytes));
        ASSERT_TRUE(p.ram_holds.has_value());
        EXPECT_EQ(*p.ram_holds, p.gpu_bytes + p.host_bytes <= pool);
        EXPECT_EQ(e.verdict, *p.ram_holds ? Verdict::Offload : Verdict::NoFit);
        offload += e.verdict == Verdict::Offload;
        no_fit += e.verdict == Verdict::NoFit;
      }
    }
  }
  EXPECT_GT(offload, 0);
  EXPECT_GT(no_fit, 0);
}

// --ram on a unified device replaces the rule for the pool (the user knows
// their machine), but it is the same memory the GPU side wires: the CPU side
// gets --ram less the OS share less the GPU side. A discrete GPU without
// --ram still has RAM unknown.
TEST(UnifiedOffload, RamGivenReplacesItAndDiscreteGpusStayUnknown) {
  InferenceQuery q = on("m3 pro 18gb", "qwen3-30b-a3b", "q8_0");
  q.ram = 18 * kGiB;
  const Estimate e = estimate_inference(q);
  ASSERT_TRUE(e.offload);
  EXPECT_TRUE(e.offload->ram_unified);
  // --ram is the RAM installed: 18 GiB less the larger of 2 GiB and 10 %,
  // less what the GPU side holds.
  EXPECT_EQ(e.offload->ram_available,
            std::max<Bytes>(0, 18 * kGiB - 2 * kGiB - e.offload->gpu_bytes));
  const InferenceQuery g = on("rtx 3060 12gb", "qwen3-30b-a3b", "q8_0");
  const Estimate d = estimate_inference(g);
  ASSERT_TRUE(d.offload);
  EXPECT_FALSE(d.offload->ram_available.has_value());
  EXPECT_FALSE(d.offload->ram_holds.has_value());
}

// No suggestion on a unified device asks for --ram; one that offloads
// promises the verdict the plain estimate gives without it.
TEST(UnifiedOffload, NoSuggestionAsksForRam) {
  for (const char* model : {"qwen3-30b-a3b", "llama-3.1-70b", "llama-3.1-8b"}) {
    for (const char* precision : {"q8_0", "bf16"}) {
      const InferenceQuery q = on("m3 pro 18gb", model, precision);
      for (const Suggestion& s : suggest_changes(q, estimate_inference(q))) {
        EXPECT_EQ(s.args.find("--ram"), std::string::npos) << model << ": " << s.args;
      }
    }
  }
}

// A plan within the memory has a speed, and no "RAM unknown" note; a plan
// that is not has none, and says why in the words of unified memory.
TEST(UnifiedOffload, SpeedFollowsThePlanInTheSameMemory) {
  const SpeedSettings settings;
  int offloads = 0;
  for (const char* model : {"qwen3-30b-a3b", "llama-3.1-70b", "llama-3.1-8b"}) {
    for (const char* precision : {"q4_k_m", "q8_0"}) {
      const InferenceQuery q = on("m3 max 48gb", model, precision);
      const Estimate e = estimate_inference(q);
      const SpeedEstimate s = estimate_speed(q, e, settings);
      for (const std::string& note : s.notes) {
        EXPECT_EQ(note.find("give --ram"), std::string::npos) << note;
      }
      if (e.verdict == Verdict::Offload) {
        ++offloads;
        EXPECT_TRUE(s.estimable) << model;
      } else if (e.verdict == Verdict::NoFit && !e.tight) {
        EXPECT_FALSE(s.estimable) << model;
        EXPECT_NE(s.reason.find("unified memory"), std::string::npos) << s.reason;
      }
    }
  }
  EXPECT_GT(offloads, 0);
}

}  // namespace
}  // namespace willfit
