// NVIDIA compute capability: every NVIDIA device of the shipped data carries
// the figure NVIDIA publishes for it, and the FP8 decisions follow the data.
// Expected values are NVIDIA's CUDA GPUs table (developer.nvidia.com/cuda-gpus,
// read 2026-12-05: 12.1 GB10; 12.0 RTX PRO 6000 Blackwell, GeForce RTX 5090;
// 10.3 B300; 10.0 B200, GB200; 9.0 GH200, H200, H100; 8.9 L4, L40, L40S, RTX
// 6000 Ada, GeForce RTX 4090; 8.7 Jetson AGX Orin; 8.6 A40, A10, RTX A6000,
// GeForce RTX 3090), its legacy table (7.0 V100; 6.1 Tesla P40, GeForce GTX
// 1080 Ti; 6.0 Tesla P100) and NVIDIA's MIG user guide (8.0 A100, A30; 9.0
// H20), not the data file.
#include <gtest/gtest.h>

#include <string>

#include "sources/embedded_data.hpp"
#include "willfit/devices/device_db.hpp"
#include "willfit/inference/runtime.hpp"
#include "willfit/planner/report.hpp"

namespace willfit {
namespace {

const DeviceDb& shipped() {
  static const DeviceDb db = [] {
    auto parsed = parse_device_db(app::embedded_devices_json(), "data/devices.json");
    EXPECT_TRUE(parsed.ok()) << parsed.error().message;
    return parsed.ok() ? *parsed : DeviceDb{};
  }();
  return db;
}

Device device(std::string_view id) {
  const Device* d = shipped().by_id(id);
  EXPECT_NE(d, nullptr) << id;
  return d != nullptr ? *d : Device{};
}

DeviceSet one(const Device& d) {
  DeviceSet set;
  set.devices.push_back(d);
  set.text = d.id;
  return set;
}

TEST(ComputeCapability, EveryNvidiaDeviceHasOneWithItsSource) {
  int nvidia = 0;
  for (const auto& d : shipped().devices()) {
    SCOPED_TRACE(d.id);
    if (d.vendor != "nvidia") {
      EXPECT_FALSE(d.compute_capability.has_value());
      continue;
    }
    ++nvidia;
    ASSERT_TRUE(d.compute_capability.has_value());
    EXPECT_GE(*d.compute_capability, 60);
    EXPECT_LE(*d.compute_capability, 129);
    const std::string said = "compute_capability " + compute_capability_text(*d.compute_capability);
    EXPECT_NE(d.source.find(said), std::string::npos) << "the source names where it came from";
  }
  EXPECT_GE(nvidia, 100);
}

TEST(ComputeCapability, AsNvidiaPublishesThem) {
  const struct {
    const char* id;
    int cc;
  } published[] = {
      {"dgx-spark", 121},
      {"rtx-pro-6000-blackwell", 120},
      {"rtx-5090", 120},
      {"b300", 103},
      {"b200", 100},
      {"gb200", 100},
      {"gh200-96gb", 90},
      {"h200-sxm", 90},
      {"h100-sxm", 90},
      {"h100-pcie", 90},
      {"h20", 90},
      {"l4", 89},
      {"l40", 89},
      {"l40s", 89},
      {"rtx-6000-ada", 89},
      {"rtx-4090", 89},
      {"jetson-agx-orin-64gb", 87},
      {"a40", 86},
      {"a10", 86},
      {"rtx-a6000", 86},
      {"rtx-3090", 86},
      {"a100-80gb-sxm", 80},
      {"a100-40gb-pcie", 80},
      {"a30", 80},
      {"v100-32gb-sxm2", 70},
      {"p40", 61},
      {"gtx-1080-ti", 61},
      {"p100-16gb-pcie", 60},
  };
  for (const auto& p : published) {
    EXPECT_EQ(nvidia_compute_capability(device(p.id)), p.cc) << p.id;
  }
  EXPECT_EQ(compute_capability_text(89), "8.9");
  EXPECT_EQ(compute_capability_text(120), "12.0");
  EXPECT_EQ(compute_capability_text(103), "10.3");
}

// transformers runs FP8 from compute capability 8.9 and dequantises it to
// BF16 below (runtime.cpp): an A100 (8.0) or an RTX 3090 (8.6) holds the
// weights at 16 bits, an L40S, an RTX 4090 (8.9) or an H100 (9.0) at 8.
TEST(ComputeCapability, Fp8UnderTransformersFollowsTheData) {
  const Precision fp8 = *parse_precision("fp8");
  for (const char* id : {"a100-80gb-sxm", "rtx-3090", "v100-32gb-sxm2", "t4"}) {
    EXPECT_TRUE(fp8_dequantised(fp8, Runtime::Transformers, one(device(id)))) << id;
    EXPECT_FALSE(fp8_tensor_cores(device(id))) << id;
  }
  for (const char* id : {"l40s", "rtx-4090", "h100-sxm", "b200", "rtx-5090"}) {
    EXPECT_FALSE(fp8_dequantised(fp8, Runtime::Transformers, one(device(id)))) << id;
    EXPECT_TRUE(fp8_tensor_cores(device(id))) << id;
  }
  EXPECT_EQ(precision_as_run(fp8, Runtime::Transformers, one(device("a100-80gb-sxm"))).name,
            "FP8 dequantised to BF16");
  EXPECT_EQ(precision_as_run(fp8, Runtime::Transformers, one(device("l40s"))).id, "fp8");
}

// vLLM runs FP8 from 7.5 (Turing): refused on a P100 (6.0), taken on a T4.
TEST(ComputeCapability, Fp8UnderVllmStartsAtTuring) {
  const Precision fp8 = *parse_precision("fp8");
  EXPECT_NE(runtime_device_conflict(Runtime::Vllm, fp8, device("p100-16gb-pcie")), "");
  EXPECT_EQ(runtime_device_conflict(Runtime::Vllm, fp8, device("t4")), "");
}

// The id no longer decides: an entry named like an A100 whose data says 8.9
// is judged by its data, and one without a figure is not judged at all.
TEST(ComputeCapability, ComesFromTheDataNotTheId) {
  Device d = device("a100-80gb-sxm");
  d.compute_capability = 89;
  EXPECT_TRUE(fp8_tensor_cores(d));
  d.compute_capability.reset();
  EXPECT_EQ(nvidia_compute_capability(d), std::nullopt);
  EXPECT_TRUE(fp8_tensor_cores(d));
  EXPECT_TRUE(compute_capability_unknown(d));
  Device amd = device("a100-80gb-sxm");
  amd.vendor = "amd";
  EXPECT_EQ(nvidia_compute_capability(amd), std::nullopt);
  EXPECT_FALSE(compute_capability_unknown(amd));
}

InferenceQuery fp8_query(const Device& d) {
  InferenceQuery q;
  q.model = *model_from_size(*parse_model_size("8b"));
  q.precision = *parse_precision("fp8");
  q.runtime = Runtime::Transformers;
  q.devices = one(d);
  return q;
}

bool assumes_unknown(const FitReport& r) {
  for (const auto& a : r.assumptions) {
    if (a.find("compute capability of") != std::string::npos) {
      return true;
    }
  }
  return false;
}

// An unknown compute capability keeps FP8 at 8 bits, as before, and the
// report says why: a user's own NVIDIA entry without the figure, a bare size.
TEST(ComputeCapability, UnknownIsSaidInTheAssumptions) {
  Device mine = device("rtx-4090");
  mine.id = "my-card";
  mine.name = "My Card";
  mine.compute_capability.reset();
  EXPECT_TRUE(assumes_unknown(make_fit_report(fp8_query(mine))));
  EXPECT_TRUE(assumes_unknown(make_fit_report(fp8_query(*raw_device("24gb")))));
  // Known: no such line, on either side of 8.9.
  EXPECT_FALSE(assumes_unknown(make_fit_report(fp8_query(device("rtx-4090")))));
  EXPECT_FALSE(assumes_unknown(make_fit_report(fp8_query(device("a100-80gb-sxm")))));
  // Not FP8, or not transformers: nothing to say.
  InferenceQuery bf16 = fp8_query(mine);
  bf16.precision = *parse_precision("bf16");
  EXPECT_FALSE(assumes_unknown(make_fit_report(bf16)));
  InferenceQuery vllm = fp8_query(mine);
  vllm.runtime = Runtime::Vllm;
  EXPECT_FALSE(assumes_unknown(make_fit_report(vllm)));
}

// ---- the loader -------------------------------------------------------------

std::string with_cc(const std::string& vendor, const std::string& cc) {
  return R"({"devices": [{"id": "my-gpu", "vendor": ")" + vendor +
         R"(", "name": "Mine", "kind": "discrete_gpu", "memory_bytes": 1073741824,
    "bandwidth_gb_per_s": 100, "source": "s", "compute_capability": )" +
         cc + "}]}";
}

std::string parsed(const std::string& json) {
  auto db = parse_device_db(json, "mine.json");
  if (!db) {
    return db.error().message;
  }
  const auto& cc = db->devices().front().compute_capability;
  return cc ? std::to_string(*cc) : "none";
}

TEST(ComputeCapability, LoaderReadsMajorDotMinor) {
  EXPECT_EQ(parsed(with_cc("nvidia", R"("8.9")")), "89");
  EXPECT_EQ(parsed(with_cc("NVIDIA", R"("12.0")")), "120");
  EXPECT_EQ(parsed(with_cc("nvidia", R"("10.3")")), "103");
  EXPECT_EQ(parsed(with_cc("nvidia", "null")), "none");
  EXPECT_EQ(parsed(with_cc("acme", "null")), "none");
}

TEST(ComputeCapability, LoaderRefusesOtherShapesOnOneLine) {
  const std::string where = "mine.json: devices[0] ('my-gpu'): ";
  const struct {
    std::string json;
    std::string expected;
  } cases[] = {
      {with_cc("nvidia", "8.9"),
       where + "'compute_capability' must be a string such as \"8.9\", not the number 8.9"},
      {with_cc("nvidia", "89"),
       where + "'compute_capability' must be a string such as \"8.9\", not the number 89"},
      {with_cc("nvidia", "[8, 9]"),
       where + "'compute_capability' must be a string such as \"8.9\", not array"},
      {with_cc("nvidia", R"("89")"), where + "'compute_capability' \"89\" is not major.minor"},
      {with_cc("nvidia", R"("8.10")"), where + "'compute_capability' \"8.10\" is not major.minor"},
      {with_cc("nvidia", R"("sm_89")"),
       where + "'compute_capability' \"sm_89\" is not major.minor"},
      {with_cc("nvidia", R"(" 8.9")"), where + "'compute_capability' \" 8.9\" is not major.minor"},
      {with_cc("nvidia", R"("08.9")"), where + "'compute_capability' \"08.9\" is not major.minor"},
      {with_cc("nvidia", R"(".9")"), where + "'compute_capability' \".9\" is not major.minor"},
      {with_cc("nvidia", R"("123.4")"),
       where + "'compute_capability' \"123.4\" is not major.minor"},
      {with_cc("amd", R"("9.0")"),
       where + "'compute_capability' is NVIDIA's, and this device's vendor is 'amd'"},
  };
  for (const auto& c : cases) {
    const std::string e = parsed(c.json);
    EXPECT_EQ(e.rfind(c.expected, 0), 0u) << "got: " << e << "\nwanted: " << c.expected;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

}  // namespace
}  // namespace willfit
