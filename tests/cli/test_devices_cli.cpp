// Named devices, device databases from files, --device auto with canned
// tool outputs, and the `devices` / `device` commands, all in-process.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/harness.hpp"

namespace willfit::test {
namespace {

using nlohmann::json;

const std::string kMeminfo = "MemTotal:       65798212 kB\nMemAvailable:   60123456 kB\n";
const std::string kNvidiaSmi =
    "nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv,noheader,nounits";

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(NamedDevices, AGpuByName) {
  const auto r = run_cli({"13b", "-p", "q4", "-d", "rtx 4090", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["device"]["name"], "GeForce RTX 4090");
  EXPECT_EQ(j["device"]["memory_bytes"], 24LL << 30);
  EXPECT_EQ(j["query"]["device"], "rtx 4090");
  EXPECT_EQ(j["device"]["ids"], json::array({"rtx-4090"}));
}

// "cpu" names system memory without a size: --ram gives it (the question a
// CPU-only user asks: `willfit 7b -d cpu --ram 32gb`), and without it the
// error says both ways to give one.
TEST(NamedDevices, SystemMemoryTakesItsSizeFromRam) {
  const auto r = run_cli({"7b", "-p", "q4", "-d", "cpu", "--ram", "32gb", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["device"]["memory_bytes"], 32LL << 30);
  EXPECT_EQ(j["device"]["ids"], json::array({"ddr4-3200-dual"}));
  const auto same =
      json::parse(run_cli({"7b", "-p", "q4", "-d", "ddr4-3200-dual 32gb", "--json"}).out);
  EXPECT_EQ(j["result"]["required_bytes"], same["result"]["required_bytes"]);
  const auto train = run_cli({"train", "1b", "-d", "cpu", "--ram", "64gb", "--json"});
  ASSERT_EQ(train.code == 0 || train.code == 1, true) << train.err;
  const auto none = run_cli({"7b", "-p", "q4", "-d", "cpu"});
  EXPECT_EQ(none.code, 2);
  EXPECT_TRUE(none.out.empty());
  EXPECT_TRUE(has(none.err, "or --ram 64gb")) << none.err;
}

TEST(NamedDevices, CapacitiesOfSeveralDevicesAddUp) {
  const auto two = json::parse(run_cli({"70b", "-p", "q4", "-d", "2x rtx 3090", "--json"}).out);
  EXPECT_EQ(two["device"]["count"], 2);
  EXPECT_EQ(two["device"]["memory_bytes"], 48LL << 30);
  const auto mixed =
      json::parse(run_cli({"7b", "-p", "q4", "-d", "rtx 4090+rtx 3060 12gb", "--json"}).out);
  EXPECT_EQ(mixed["device"]["memory_bytes"], 36LL << 30);
  EXPECT_EQ(mixed["device"]["name"], "GeForce RTX 4090 + GeForce RTX 3060 12GB");
  const auto eight = json::parse(run_cli({"405b", "-p", "fp8", "-d", "h100:8", "--json"}).out);
  EXPECT_EQ(eight["device"]["count"], 8);
  EXPECT_EQ(eight["device"]["memory_bytes"], 640LL << 30);
  EXPECT_EQ(eight["device"]["ids"].size(), 8u);
  EXPECT_EQ(eight["device"]["ids"][7], "h100-sxm");
}

TEST(NamedDevices, AmbiguousAndUnknownNamesAreCleanErrors) {
  const auto a = run_cli({"7b", "-d", "v100"});
  EXPECT_TRUE(is_clean_error(a)) << a.err;
  EXPECT_TRUE(has(a.err, "ambiguous")) << a.err;
  const auto n = run_cli({"7b", "-d", "24"});
  EXPECT_TRUE(is_clean_error(n)) << n.err;
  EXPECT_TRUE(has(n.err, "needs a unit, e.g. --device 24gb")) << n.err;
  // The A100 comes with 40 GB and with 80 GB: the name alone could answer
  // for twice the memory the user has (Colab's A100 is the 40 GB one), so it
  // asks, where h100 (80 GB SXM5, PCIe; the NVL's 94 GB named) takes the SXM5.
  const auto a100 = run_cli({"7b", "-d", "a100"});
  EXPECT_TRUE(is_clean_error(a100)) << a100.out;
  EXPECT_TRUE(has(a100.err, "ambiguous")) << a100.err;
  const auto u = run_cli({"7b", "-d", "rtx 4900"});
  EXPECT_TRUE(is_clean_error(u)) << u.err;
  EXPECT_TRUE(has(u.err, "did you mean")) << u.err;
  EXPECT_TRUE(is_clean_error(run_cli({"7b", "-d", "2x"})));
  EXPECT_TRUE(is_clean_error(run_cli({"7b", "-d", "h100:0"})));
}

// The hint an ambiguous name prints is a command that works when pasted:
// the name is quoted, and `willfit devices` takes several words as one filter
// either way.
TEST(NamedDevices, AmbiguousNameHintWorksWhenPasted) {
  const auto a = run_cli({"qwen3-8b", "-d", "rtx 3060"});
  ASSERT_TRUE(is_clean_error(a)) << a.err;
  const std::string hint = "willfit devices \"rtx 3060\"";
  EXPECT_TRUE(has(a.err, hint)) << a.err;
  // What a shell makes of the pasted hint, and of the words unquoted.
  for (const std::vector<std::string>& pasted :
       {std::vector<std::string>{"devices", "rtx 3060"},
        std::vector<std::string>{"devices", "rtx", "3060"}}) {
    const auto d = run_cli(pasted);
    EXPECT_EQ(d.code, 0) << d.err;
    EXPECT_TRUE(has(d.out, "GeForce RTX 3060 12GB")) << d.out;
    EXPECT_TRUE(has(d.out, "GeForce RTX 3060 Ti")) << d.out;
    EXPECT_FALSE(has(d.out, "RTX 4090")) << d.out;
  }
}

// A Mac by its product name: the product words go and the chip words
// resolve, so a memory size picks the entry ("Apple M2 16GB"), and without
// one the chip's memory choices answer as any ambiguous name does (exit 2).
TEST(NamedDevices, AMacByItsProductName) {
  const auto air = run_cli({"8b", "-p", "q4_k_m", "-d", "macbook air m2 16gb", "--json"});
  ASSERT_EQ(air.code, 0) << air.err;
  EXPECT_EQ(json::parse(air.out)["device"]["ids"][0], "m2-16gb");
  const auto pro = run_cli({"8b", "-p", "q4_k_m", "-d", "MacBook Pro M3 Pro 18GB", "--json"});
  ASSERT_EQ(pro.code, 0) << pro.err;
  EXPECT_EQ(json::parse(pro.out)["device"]["ids"][0], "m3-pro-18gb");  // "pro" of the chip kept
  for (const char* name :
       {"macbook air m2", "mac mini m4", "macbook pro m3 max", "mac studio m2 ultra"}) {
    const auto r = run_cli({"8b", "-d", name});
    EXPECT_TRUE(is_clean_error(r)) << name << ": " << r.out << r.err;
    EXPECT_TRUE(has(r.err, "ambiguous")) << name << ": " << r.err;
    EXPECT_TRUE(has(r.err, "name one of them")) << r.err;
  }
  const auto ultra = run_cli({"8b", "-d", "mac studio m2 ultra"});
  EXPECT_TRUE(has(ultra.err, "Apple M2 Ultra 192GB")) << ultra.err;
  EXPECT_FALSE(has(ultra.err, "M2 Max")) << ultra.err;
}

// ---- database files ---------------------------------------------------------

const std::string kMyDb = R"({"schema_version": 1, "data_version": "2026-01-01", "devices": [
  {"id": "lab-gpu", "vendor": "acme", "name": "Lab GPU", "kind": "discrete_gpu",
   "memory_bytes": 34359738368, "bandwidth_gb_per_s": 900, "source": "our lab"}]})";

TEST(DeviceFiles, DevicesOptionReplacesTheBundledDatabase) {
  app::FakeEnvironment env;
  env.files["/tmp/my.json"] = kMyDb;
  const auto r = run_cli({"13b", "-d", "lab gpu", "--devices", "/tmp/my.json", "--json"}, env);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["device"]["memory_bytes"], 32LL << 30);
  const auto gone = run_cli({"13b", "-d", "rtx 4090", "--devices", "/tmp/my.json"}, env);
  EXPECT_TRUE(is_clean_error(gone));
  EXPECT_TRUE(has(gone.err, "unknown device"));
}

TEST(DeviceFiles, EnvironmentVariableReplacesTheBundledDatabase) {
  app::FakeEnvironment env;
  env.files["/data/devs.json"] = kMyDb;
  env.vars["WILLFIT_DEVICES"] = "/data/devs.json";
  EXPECT_EQ(run_cli({"13b", "-d", "lab-gpu", "-q"}, env).code, 0);
  const auto list = run_cli({"devices"}, env);
  EXPECT_TRUE(has(list.out, "1 of 1 devices (data 2026-01-01)")) << list.out;
}

TEST(DeviceFiles, UserFileInTheConfigDirectoryAddsAndReplaces) {
  app::FakeEnvironment env;
  env.vars["XDG_CONFIG_HOME"] = "/home/u/.cfg";
  env.files["/home/u/.cfg/willfit/devices.json"] = kMyDb;
  const auto r = run_cli({"13b", "-d", "lab gpu+rtx 4090", "--json"}, env);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["device"]["memory_bytes"], 56LL << 30);

  app::FakeEnvironment home;
  home.vars["HOME"] = "/home/u";
  home.files["/home/u/.config/willfit/devices.json"] = kMyDb;
  EXPECT_EQ(run_cli({"13b", "-d", "lab gpu", "-q"}, home).code, 0);
}

TEST(DeviceFiles, MalformedFilesNameTheFileAndTheEntry) {
  app::FakeEnvironment env;
  env.files["/tmp/bad.json"] = R"({"devices": [{"id": "x", "vendor": "acme", "name": "X",
    "kind": "discrete_gpu", "memory_bytes": "lots", "bandwidth_gb_per_s": 1, "source": "s"}]})";
  env.files["/tmp/broken.json"] = "{\"devices\": [";
  const auto bad = run_cli({"7b", "-d", "x", "--devices", "/tmp/bad.json"}, env);
  EXPECT_TRUE(is_clean_error(bad)) << bad.err;
  EXPECT_TRUE(has(bad.err, "/tmp/bad.json: devices[0] ('x'): 'memory_bytes'")) << bad.err;
  const auto broken = run_cli({"devices", "--devices", "/tmp/broken.json"}, env);
  EXPECT_TRUE(is_clean_error(broken)) << broken.err;
  EXPECT_TRUE(has(broken.err, "/tmp/broken.json: not valid JSON")) << broken.err;
  const auto missing = run_cli({"device", "t4", "--devices", "/tmp/none.json"}, env);
  EXPECT_TRUE(is_clean_error(missing)) << missing.err;

  app::FakeEnvironment user;
  user.vars["XDG_CONFIG_HOME"] = "/c";
  user.files["/c/willfit/devices.json"] = "[1, 2]";
  const auto u = run_cli({"7b", "-d", "rtx 4090"}, user);
  EXPECT_TRUE(is_clean_error(u)) << u.err;
  EXPECT_TRUE(has(u.err, "/c/willfit/devices.json")) << u.err;
  // A size needs no database, so a broken user file does not get in its way.
  EXPECT_EQ(run_cli({"7b", "-d", "24gb", "-q"}, user).code, 0);
}

// ---- --device auto ----------------------------------------------------------

TEST(AutoDetect, NvidiaGpusFromNvidiaSmi) {
  app::FakeEnvironment env;
  env.commands[kNvidiaSmi] =
      "NVIDIA GeForce RTX 3090, 24576, 1100\nNVIDIA GeForce RTX 3090, 24576, 5\n";
  env.files["/proc/meminfo"] = kMeminfo;
  const auto r = run_cli({"70b", "-p", "q4", "-d", "auto", "--json"}, env);
  ASSERT_NE(r.code, 2) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["device"]["name"], "2x GeForce RTX 3090");
  EXPECT_EQ(j["query"]["device"], "auto");
  // RAM for offload comes from /proc/meminfo when --ram is not given.
  EXPECT_TRUE(j["query"]["ram_bytes"].is_number_integer());
  const std::string notes = j["assumptions"].dump();
  EXPECT_TRUE(has(notes, "detected with nvidia-smi")) << notes;
  EXPECT_TRUE(has(notes, "in use by other programs")) << notes;
  EXPECT_TRUE(has(notes, "/proc/meminfo")) << notes;
  // --ram still wins.
  const auto ram = json::parse(run_cli({"7b", "-d", "auto", "--ram", "8gb", "--json"}, env).out);
  EXPECT_EQ(ram["query"]["ram_bytes"], 8LL << 30);
}

TEST(AutoDetect, GpusThatNeedTheirSizeToBeNamedAndUnknownOnes) {
  app::FakeEnvironment env;
  env.commands[kNvidiaSmi] = "NVIDIA GeForce RTX 3060, 12288, 300\nNVIDIA Future X9, 65536, 0\n";
  const auto r = run_cli({"7b", "-d", "auto", "--json"}, env);
  ASSERT_NE(r.code, 2) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["device"]["name"], "GeForce RTX 3060 12GB + NVIDIA Future X9");
  EXPECT_EQ(j["device"]["memory_bytes"], 76LL << 30);
  EXPECT_TRUE(has(j["assumptions"].dump(), "'NVIDIA Future X9' is not in the device database"));
}

TEST(AutoDetect, AmdGpusFromRocmSmi) {
  app::FakeEnvironment env;
  env.commands["rocm-smi --showproductname --showmeminfo vram --json"] =
      R"json({"card0": {"Card Series": "AMD Instinct MI300X", "Card Model": "0x74a1",
      "VRAM Total Memory (B)": "205822885888", "VRAM Total Used Memory (B)": "295063552"}})json";
  const auto r = run_cli({"70b", "-d", "auto", "--json"}, env);
  ASSERT_NE(r.code, 2) << r.err;
  EXPECT_EQ(json::parse(r.out)["device"]["name"], "Instinct MI300X");
}

TEST(AutoDetect, AppleSiliconFromSysctl) {
  app::FakeEnvironment env;
  env.commands["sysctl -n hw.memsize"] = "68719476736\n";
  env.commands["sysctl -n machdep.cpu.brand_string"] = "Apple M2 Max\n";
  const auto r = run_cli({"13b", "-p", "q4", "-d", "auto", "--json"}, env);
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["device"]["name"], "Apple M2 Max 64GB");
  EXPECT_EQ(j["device"]["usable_bytes"], 48LL << 30);
  EXPECT_TRUE(j["query"]["ram_bytes"].is_null());  // unified: no separate RAM to offload to
}

TEST(AutoDetect, NoGpuFallsBackToSystemMemoryAndSaysSo) {
  app::FakeEnvironment env;
  env.files["/proc/meminfo"] = kMeminfo;
  const auto r = run_cli({"7b", "-p", "q4", "-d", "auto"}, env);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "on system RAM (CPU)")) << r.out;
  EXPECT_TRUE(has(r.out, "no GPU found")) << r.out;
  EXPECT_FALSE(has(r.out, "system RAM unknown")) << r.out;
}

TEST(AutoDetect, NothingToDetectIsACleanError) {
  const auto r = run_cli({"7b", "-d", "auto"});
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_TRUE(has(r.err, "found no GPU")) << r.err;
}

// ---- devices and device -----------------------------------------------------

TEST(DevicesCommand, FiltersAndJson) {
  const auto r = run_cli({"devices", "--vendor", "apple", "--min-memory", "192gb", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["schema_version"], 1);
  ASSERT_EQ(j["devices"].size(), 3u);  // M2 Ultra 192GB, M3 Ultra 256GB and 512GB
  for (const auto& d : j["devices"]) {
    EXPECT_EQ(d["vendor"], "apple");
    EXPECT_GE(d["memory_bytes"].get<std::int64_t>(), 192LL << 30);
  }
  EXPECT_TRUE(is_clean_error(run_cli({"devices", "--min-memory", "lots"})));
}

TEST(DeviceCommand, SpecSheetAndErrors) {
  const auto r = run_cli({"device", "h100", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["device"]["id"], "h100-sxm");
  for (const char* k : {"usable_bytes", "usable_reason", "decode_ceiling", "fp16_tflops_sparse",
                        "price_usd_per_gb", "caveats", "data_version"}) {
    EXPECT_TRUE(j.contains(k)) << k;
  }
  EXPECT_GT(j["decode_ceiling"]["tokens_per_s"].get<double>(), 700.0);
  EXPECT_TRUE(is_clean_error(run_cli({"device", "v100"})));
  EXPECT_TRUE(is_clean_error(run_cli({"device"})));
}

TEST(Version, NamesTheDeviceData) {
  const auto r = run_cli({"--version"});
  EXPECT_EQ(r.code, 0);
  EXPECT_TRUE(has(r.out, "devices data 20")) << r.out;
}

}  // namespace
}  // namespace willfit::test

// ---- --device auto on a CPU: the CPU kind from /proc/cpuinfo ----------------

namespace willfit::test {

TEST(AutoDetect, CpuKindFromProcCpuinfo) {
  app::FakeEnvironment env;
  env.files["/proc/meminfo"] = kMeminfo;
  env.files["/proc/cpuinfo"] =
      "processor\t: 0\nflags\t\t: fpu sse2 avx2 avx512f avx512_vnni amx_tile amx_int8\n"
      "processor\t: 1\nflags\t\t: fpu sse2 avx2 avx512f avx512_vnni amx_tile amx_int8\n";
  const auto r = run_cli({"8b", "-p", "q4_k_m", "-d", "auto", "--json"}, env);
  ASSERT_NE(r.code, 2) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["query"]["cpu_features"], "amx");
  EXPECT_TRUE(has(j["assumptions"].dump(), "CPU kind amx detected (/proc/cpuinfo flag amx_int8)"))
      << j["assumptions"].dump();
  // --cpu-features wins over what was detected.
  const auto given = json::parse(
      run_cli({"8b", "-p", "q4_k_m", "-d", "auto", "--cpu-features", "avx2", "--json"}, env).out);
  EXPECT_EQ(given["query"]["cpu_features"], "avx2");
  // An AVX2 machine.
  env.files["/proc/cpuinfo"] = "flags : fpu avx avx2 fma\n";
  const auto avx2 = json::parse(run_cli({"8b", "-p", "q4_k_m", "-d", "auto", "--json"}, env).out);
  EXPECT_EQ(avx2["query"]["cpu_features"], "avx2");
  // No /proc/cpuinfo: the default, and nothing said about it.
  env.files.erase("/proc/cpuinfo");
  const auto none = run_cli({"8b", "-p", "q4_k_m", "-d", "auto"}, env);
  EXPECT_FALSE(has(none.out, "CPU kind")) << none.out;
}

// The weights row says what is page cache and what is not.
TEST(CpuAnswer, MmapMlockAndNoMmapInTheWeightsRow) {
  const auto mapped = run_cli({"mistral-7b-v0.3", "-p", "q4_k_m", "-d", "cpu 64gb"});
  ASSERT_NE(mapped.code, 2) << mapped.err;
  EXPECT_TRUE(has(mapped.out, "page cache: reclaimable) +")) << mapped.out;
  EXPECT_TRUE(has(mapped.out, "repacked copy (not reclaimable)")) << mapped.out;
  const auto locked = run_cli({"mistral-7b-v0.3", "-p", "q4_k_m", "-d", "cpu 64gb", "--mlock"});
  EXPECT_TRUE(has(locked.out, "locked by --mlock")) << locked.out;
  const auto read =
      run_cli({"mistral-7b-v0.3", "-p", "q4_k_m", "-d", "cpu 64gb", "--no-mmap", "--json"});
  ASSERT_NE(read.code, 2) << read.err;
  const json j = json::parse(read.out);
  EXPECT_EQ(j["memory"]["reclaimable_bytes"], 0);
  EXPECT_EQ(j["query"]["mmap"], false);
}

}  // namespace willfit::test
