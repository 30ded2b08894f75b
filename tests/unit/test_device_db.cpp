// The device database: the embedded data's invariants, parsing and its
// errors, merging, finding devices by name, and the --device syntax.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "sources/embedded_data.hpp"
#include "willfit/core/text.hpp"
#include "willfit/devices/device_db.hpp"

namespace willfit {
namespace {

const DeviceDb& embedded() {
  static const DeviceDb db = [] {
    auto parsed = parse_device_db(app::embedded_devices_json(), "data/devices.json");
    EXPECT_TRUE(parsed.ok()) << parsed.error().message;
    return parsed.ok() ? *parsed : DeviceDb{};
  }();
  return db;
}

std::string find_id(std::string_view name) {
  auto d = embedded().find(name);
  return d ? d->id : "error: " + d.error().message;
}

// ---- the embedded data ------------------------------------------------------

TEST(EmbeddedDevices, LoadsWithAVersionAndEnoughDevices) {
  EXPECT_GE(embedded().devices().size(), 160u);
  EXPECT_EQ(embedded().data_version().size(), 10u);  // YYYY-MM-DD
}

TEST(EmbeddedDevices, DataVersionCanBeReadWithoutParsing) {
  EXPECT_EQ(peek_data_version(app::embedded_devices_json()), embedded().data_version());
  EXPECT_EQ(peek_data_version(R"({"devices": []})"), "");
  EXPECT_EQ(peek_data_version(R"({"data_version": "2020-01-02", "devices": []})"), "2020-01-02");
}

TEST(EmbeddedDevices, EveryEntryIsSane) {
  const std::set<std::string> vendors = {"nvidia", "amd",      "apple",  "intel",
                                         "google", "qualcomm", "generic"};
  std::set<std::string> ids;
  for (const auto& d : embedded().devices()) {
    SCOPED_TRACE(d.id);
    EXPECT_TRUE(ids.insert(d.id).second) << "duplicate id";
    EXPECT_FALSE(d.name.empty());
    EXPECT_FALSE(d.source.empty());
    EXPECT_TRUE(vendors.count(d.vendor)) << d.vendor;
    if (d.kind == DeviceKind::Cpu) {
      EXPECT_EQ(d.memory_bytes, 0);
    } else {
      EXPECT_GE(d.memory_bytes, 2 * kGiB);
      EXPECT_LE(d.memory_bytes, 512 * kGiB);
      EXPECT_FALSE(d.memory_marketed.empty());
    }
    ASSERT_TRUE(d.bandwidth_gb_per_s.has_value());
    EXPECT_GE(*d.bandwidth_gb_per_s, 20.0);
    EXPECT_LE(*d.bandwidth_gb_per_s, 10000.0);
    for (const auto& v : {d.fp32_tflops, d.fp16_tflops_dense, d.bf16_tflops_dense,
                          d.fp8_tflops_dense, d.int8_tops_dense}) {
      if (v) {
        EXPECT_LE(*v, 10000.0) << "dense peaks above 10 PFLOPS are sparse or wrong";
      }
    }
    if (d.fp32_tflops && d.fp16_tflops_dense) {
      EXPECT_GE(*d.fp16_tflops_dense, *d.fp32_tflops * 0.99);
    }
    if (d.fp8_tflops_dense && d.bf16_tflops_dense) {
      EXPECT_GE(*d.fp8_tflops_dense, *d.bf16_tflops_dense * 0.99);
    }
    if (d.year) {
      EXPECT_GE(*d.year, 2014);
      EXPECT_LE(*d.year, 2026);
    }
    if (d.tdp_w) {
      EXPECT_GE(*d.tdp_w, 5.0);
      EXPECT_LE(*d.tdp_w, 2000.0);
    }
    if (d.price_usd) {
      EXPECT_GE(*d.price_usd, 50.0);
      EXPECT_LE(*d.price_usd, 100000.0);
    }
    if (d.gpu_memory_fraction) {
      EXPECT_EQ(d.kind, DeviceKind::Unified);
    }
    for (const auto& a : d.aliases) {
      EXPECT_EQ(a, to_lower(a)) << "aliases are lowercase";
    }
  }
}

TEST(EmbeddedDevices, EveryIdNameAndAliasFindsItsOwnDevice) {
  for (const auto& d : embedded().devices()) {
    EXPECT_EQ(find_id(d.id), d.id);
    EXPECT_EQ(find_id(d.name), d.id);
    for (const auto& a : d.aliases) {
      EXPECT_EQ(find_id(a), d.id) << "alias '" << a << "'";
    }
  }
}

// ---- finding a device -------------------------------------------------------

TEST(FindDevice, CaseSpacesDashesAndVendorWordsDoNotMatter) {
  for (const char* name : {"RTX 4090", "rtx4090", "rtx-4090", "nvidia geforce rtx 4090", "4090",
                           "GeForce RTX 4090", "  Rtx 4090 "}) {
    EXPECT_EQ(find_id(name), "rtx-4090") << name;
  }
  EXPECT_EQ(find_id("Tesla T4"), "t4");
  EXPECT_EQ(find_id("AMD Radeon RX 7900 XTX"), "rx-7900-xtx");
  EXPECT_EQ(find_id("7900xtx"), "rx-7900-xtx");
  EXPECT_EQ(find_id("Apple M4 Max 128GB"), "m4-max-128gb");
  EXPECT_EQ(find_id("mi300"), "mi300x");  // the only name holding those words
}

TEST(FindDevice, NamesToolsPrint) {
  EXPECT_EQ(find_id("NVIDIA A100-SXM4-80GB"), "a100-80gb-sxm");
  EXPECT_EQ(find_id("NVIDIA H100 80GB HBM3"), "h100-sxm");
  EXPECT_EQ(find_id("NVIDIA H100 PCIe"), "h100-pcie");
  EXPECT_EQ(find_id("Tesla V100-SXM2-16GB"), "v100-16gb-sxm2");
}

TEST(FindDevice, MemoryVariants) {
  EXPECT_EQ(find_id("a100 40gb pcie"), "a100-40gb-pcie");
  EXPECT_EQ(find_id("a100-80gb"), "a100-80gb-sxm");
  EXPECT_EQ(find_id("a100 40gb"), "a100-40gb-sxm");
  EXPECT_EQ(find_id("4060 ti 16gb"), "rtx-4060-ti-16gb");
  EXPECT_EQ(find_id("rtx 4060 ti 8 gb"), "rtx-4060-ti-8gb");
  EXPECT_EQ(find_id("m3 max 128gb"), "m3-max-128gb");
  EXPECT_EQ(find_id("m2 max 64gb"), "m2-max-64gb");
  EXPECT_EQ(find_id("rtx 3060 12gb"), "rtx-3060-12gb");
  // A size that agrees with an exact name is accepted; one that does not is not.
  EXPECT_EQ(find_id("rtx 4090 24gb"), "rtx-4090");
  EXPECT_EQ(find_id("h100 80gb"), "h100-sxm");
  EXPECT_EQ(find_id("rtx 4070 48gb").rfind("error: unknown device", 0), 0u);
}

TEST(FindDevice, ANameSeveralPartsShareNamesTheOthers) {
  // The parts a name also fits (another form factor, or the NVL's memory),
  // which the answer states beside the part it assumes.
  const auto ids = [](const char* name) {
    std::vector<std::string> out;
    for (const Device* d : embedded().variants(name, find_id(name))) {
      out.push_back(d->id);
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(ids("h100"), (std::vector<std::string>{"h100-nvl", "h100-pcie"}));
  EXPECT_EQ(ids("h200"), (std::vector<std::string>{"h200-nvl"}));
  EXPECT_EQ(ids("a100 80gb"), (std::vector<std::string>{"a100-80gb-pcie"}));
  // A name that tells the parts apart, or another product's word, finds no other.
  for (const char* exact : {"h100 sxm", "h100 pcie", "nvidia h100 80gb hbm3", "rtx 4090", "l40",
                            "a10", "m2 max 64gb"}) {
    EXPECT_TRUE(ids(exact).empty()) << exact << ": " << ids(exact).front();
  }
}

TEST(FindDevice, SystemMemoryTakesTheSizeGiven) {
  auto d = embedded().find("ddr5-5600 dual channel 64gb");
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d->id, "ddr5-5600-dual");
  EXPECT_EQ(d->memory_bytes, 64 * kGiB);
}

TEST(FindDevice, AmbiguousNamesListTheCandidates) {
  for (const char* name : {"3060", "rtx 3060", "m1 max", "m3 max", "v100"}) {
    auto d = embedded().find(name);
    ASSERT_FALSE(d.ok()) << name << " found " << d->id;
    EXPECT_NE(d.error().message.find("is ambiguous"), std::string::npos) << name;
  }
  const auto e = embedded().find("v100").error().message;
  for (const char* id : {"v100-16gb", "v100-32gb"}) {
    EXPECT_NE(e.find(id), std::string::npos) << e;
  }
  const auto m = embedded().find("3060").error().message;
  EXPECT_NE(m.find("rtx-3060-12gb"), std::string::npos) << m;
  EXPECT_NE(m.find("rtx-3060-8gb"), std::string::npos) << m;
  EXPECT_EQ(m.find("rtx-3060-ti"), std::string::npos) << m;  // "rtx" is a vendor word
}

// The base name lists the base product's variants only: the RTX 3060 Ti is a
// product of its own (another chip, 8 GB, 448 GB/s), not a 3060 of another
// size.
TEST(FindDevice, ABaseNameListsItsOwnVariantsOnly) {
  const auto m = embedded().find("rtx 3060").error().message;
  EXPECT_NE(m.find("rtx-3060-12gb"), std::string::npos) << m;
  EXPECT_NE(m.find("rtx-3060-8gb"), std::string::npos) << m;
  EXPECT_EQ(m.find("rtx-3060-ti"), std::string::npos) << m;
  EXPECT_EQ(embedded().find("rtx 3060 ti")->id, "rtx-3060-ti");
  // Names without a base variant still list every match.
  EXPECT_NE(embedded().find("rx 7900").error().message.find("is ambiguous"), std::string::npos);
}

// "a100" names parts of 40 GB and of 80 GB: it asks, listing them all, where
// "h100" takes the SXM5 part (the data's shared name; its variants hold 80 GB
// but the NVL's 94, which the answer names).
TEST(FindDevice, A100AsksAndH100TakesTheSxmPart) {
  const auto a100 = embedded().find("a100");
  ASSERT_FALSE(a100.ok());
  for (const char* id : {"a100-40gb-pcie", "a100-40gb-sxm", "a100-80gb-pcie", "a100-80gb-sxm"}) {
    EXPECT_NE(a100.error().message.find(id), std::string::npos) << a100.error().message;
  }
  EXPECT_EQ(embedded().find("h100")->id, "h100-sxm");
}

// A bare number is a size without its unit, not a name to list matches of.
TEST(FindDevice, ABareNumberAsksForAUnit) {
  for (const char* n : {"24", "80", "8"}) {
    const auto d = embedded().find(n);
    ASSERT_FALSE(d.ok()) << n << " found " << d->id;
    EXPECT_NE(d.error().message.find("needs a unit, e.g. --device " + std::string(n) + "gb"),
              std::string::npos)
        << d.error().message;
  }
  EXPECT_EQ(embedded().find("4090")->id, "rtx-4090");
}

TEST(FindDevice, SignedZeroAndNonNumberSizesAreRefusedNotLookedUp) {
  // The matcher drops punctuation: "-24gb" used to read as the 24 GB devices
  // and "-rtx 4090" as the RTX 4090.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"-24gb", "memory size '-24gb' must be more than zero"},
      {"-80gb", "memory size '-80gb' must be more than zero"},
      {"0gb", "memory size '0gb' must be more than zero"},
      {"0.0gb", "memory size '0.0gb' must be more than zero"},
      {"nan gb", "memory size 'nan gb' is not a number"},
      {"inf gb", "memory size 'inf gb' is not a number"},
      {"1e999gb", "invalid memory size '1e999gb': write it without an exponent"},
      {"-rtx 4090", "invalid device '-rtx 4090': a device name starts with a letter or a digit"},
  };
  for (const auto& [name, message] : cases) {
    auto d = embedded().find(name);
    ASSERT_FALSE(d.ok()) << name << " found " << d->id;
    EXPECT_NE(d.error().message.find(message), std::string::npos) << d.error().message;
    EXPECT_EQ(embedded().match(name), NameMatch::Unknown) << name;
  }
  for (const char* fine : {"rtx 4090", "24gb", "8 gb", "4090", "h100 80gb", "2x 24gb"}) {
    EXPECT_FALSE(malformed_device_text(fine)) << fine;
  }
}

TEST(FindDevice, UnknownNamesSuggestTheClosestThree) {
  // Two digits swapped is one slip, not two: "rtx 4900" is the 4090 first.
  auto d = embedded().find("rtx 4900");
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message.find("unknown device 'rtx 4900': did you mean 'rtx-4090'"),
            std::string::npos)
      << d.error().message;
  auto mi = embedded().find("mi310x");
  ASSERT_FALSE(mi.ok());
  EXPECT_NE(mi.error().message.find("'mi300x'"), std::string::npos) << mi.error().message;
  auto none = embedded().find("nvidia");
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("no device named"), std::string::npos);
}

TEST(FindDevice, KeysIgnoreNoise) {
  EXPECT_EQ(device_key("NVIDIA GeForce RTX 4090"), "4090");
  EXPECT_EQ(device_key("a100-80gb"), "a10080gb");
  EXPECT_EQ(device_tokens("a100 40gb"), (std::vector<std::string>{"a", "100", "40", "gb"}));
}

TEST(SearchDevices, ByWordsAndByVendorWord) {
  const auto h100 = embedded().search("h100");
  EXPECT_EQ(h100.size(), 3u);
  const auto nvidia = embedded().search("nvidia");
  EXPECT_GT(nvidia.size(), 50u);
  for (const Device* d : nvidia) {
    EXPECT_EQ(d->vendor, "nvidia");
  }
  EXPECT_EQ(embedded().search("").size(), embedded().devices().size());
}

TEST(FindWithoutFullParse, GivesTheSameAnswersAsTheFullDatabase) {
  const auto json = app::embedded_devices_json();
  const std::vector<std::string> named = {
      "4090",         "a100",      "rtx 4900",
      "m2 max 64gb",  "h100:8",    "nvidia",
      "3060",         "a100 40gb", "ddr5-5600 dual channel 64gb",
      "rtx 4070 48gb"};
  std::vector<std::string> queries = named;
  for (const auto& d : embedded().devices()) {
    queries.push_back(d.id);
    queries.push_back(d.name);
  }
  // find_device_in is one DeviceScan's find: the named queries each take a
  // scan of their own, every entry's id and name one scan kept for all
  // (scanning the document again for each of them was most of this test's
  // time; OneScanManyLookups and RepeatedFinds check a kept scan's answers).
  const DeviceScan scan(json, "data/devices.json");
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const std::string& q = queries[i];
    const auto fast =
        i < named.size() ? find_device_in(json, "data/devices.json", q) : scan.find(q);
    const auto slow = embedded().find(q);
    ASSERT_EQ(fast.ok(), slow.ok()) << q;
    if (fast.ok()) {
      EXPECT_EQ(fast->id, slow->id) << q;
      EXPECT_EQ(fast->memory_bytes, slow->memory_bytes) << q;
      EXPECT_EQ(fast->notes, slow->notes) << q;
      EXPECT_EQ(fast->interconnect.bus, slow->interconnect.bus) << q;
    } else {
      EXPECT_EQ(fast.error().message, slow.error().message) << q;
    }
  }
}

// One scan answers many lookups (the CLI keeps one per process), and match()
// (what parse_device_spec asks of each piece) says what find() would: found,
// ambiguous or unknown, for names, typos, pieces of names and sized RAM.
TEST(FindWithoutFullParse, OneScanManyLookupsAndMatchAgreesWithFind) {
  const DeviceScan scan(app::embedded_devices_json(), "data/devices.json");
  std::vector<std::string> queries = {
      "4090", "a100", "rtx 4900",  "m2 max 64gb", "nvidia",      "rtx",  "",
      "2x",   "3060", "ddr5 64gb", "h100 sxm",    "radeon 7900", "zzzz", "rtx 4070 48gb"};
  for (const auto& d : embedded().devices()) {
    queries.push_back(d.id);
    queries.push_back(d.id + "x");
  }
  std::size_t found = 0;
  std::size_t ambiguous = 0;
  std::size_t unknown = 0;
  for (const auto& q : queries) {
    const auto slow = embedded().find(q);
    const auto fast = scan.find(q);
    ASSERT_EQ(fast.ok(), slow.ok()) << q;
    EXPECT_EQ(fast.ok() ? fast->id : fast.error().message,
              slow.ok() ? slow->id : slow.error().message)
        << q;
    const NameMatch want = slow.ok()                                 ? NameMatch::Found
                           : is_ambiguous_device_error(slow.error()) ? NameMatch::Ambiguous
                                                                     : NameMatch::Unknown;
    EXPECT_EQ(embedded().match(q), want) << q;
    EXPECT_EQ(scan.match(q), want) << q;
    found += want == NameMatch::Found ? 1 : 0;
    ambiguous += want == NameMatch::Ambiguous ? 1 : 0;
    unknown += want == NameMatch::Unknown ? 1 : 0;
  }
  // The queries reach all three answers.
  EXPECT_GT(found, 100u);
  EXPECT_GT(ambiguous, 0u);
  EXPECT_GT(unknown, 0u);
}

// A scan reads an entry once and answers later finds of it from that copy: the
// repeat is the whole entry again, and system memory given different sizes
// keeps each its own size (the size is the name's, not the kept entry's).
TEST(FindWithoutFullParse, RepeatedFindsOfOneEntryAreTheFullEntryEachTime) {
  const DeviceScan scan(app::embedded_devices_json(), "data/devices.json");
  for (const std::string name : {"rtx 4090", "m2 max 64gb", "h100 sxm"}) {
    const auto slow = embedded().find(name);
    ASSERT_TRUE(slow.ok()) << name;
    for (int i = 0; i < 3; ++i) {
      const auto fast = scan.find(name);
      ASSERT_TRUE(fast.ok()) << name;
      EXPECT_EQ(fast->id, slow->id) << name;
      EXPECT_EQ(fast->memory_bytes, slow->memory_bytes) << name;
      EXPECT_EQ(fast->notes, slow->notes) << name;
      EXPECT_EQ(fast->bandwidth_gb_per_s, slow->bandwidth_gb_per_s) << name;
    }
  }
  for (const std::string name : {"ddr5-5600 dual channel 64gb", "ddr5-5600 dual channel 32gb",
                                 "ddr5-5600 dual channel 64gb", "ddr5-5600 dual channel 128gb"}) {
    const auto slow = embedded().find(name);
    const auto fast = scan.find(name);
    ASSERT_TRUE(slow.ok() && fast.ok()) << name;
    EXPECT_EQ(fast->id, slow->id) << name;
    EXPECT_EQ(fast->memory_bytes, slow->memory_bytes) << name;
    EXPECT_EQ(fast->memory_marketed, slow->memory_marketed) << name;
  }
  EXPECT_NE(scan.find("ddr5-5600 dual channel 32gb")->memory_bytes,
            scan.find("ddr5-5600 dual channel 64gb")->memory_bytes);
}

// Found by fuzz_device (tests/fuzz/regressions/device/): an unknown name that
// itself says "is ambiguous" was read as an ambiguous one, because the error
// quotes the name.
TEST(FindWithoutFullParse, AnUnknownNameSayingAmbiguousIsUnknown) {
  for (const std::string name : {"2is ambiguous\tb\t\t",
                                 "..is ambiguousa\x11"
                                 "1\x04"}) {
    const auto d = embedded().find(name);
    ASSERT_FALSE(d.ok()) << name;
    EXPECT_FALSE(is_ambiguous_device_error(d.error())) << d.error().message;
    EXPECT_EQ(embedded().match(name), NameMatch::Unknown) << name;
  }
  const auto v100 = embedded().find("v100");
  ASSERT_FALSE(v100.ok());
  EXPECT_TRUE(is_ambiguous_device_error(v100.error()));
}

TEST(FindWithoutFullParse, UnusualFilesTakeTheFullParser) {
  // A \u escape, a duplicate id and bad JSON: the scan gives up, the full
  // parser answers (or reports the problem).
  const std::string escaped = R"({"devices": [{"id": "x1", "vendor": "a", "name": "X\u0031",
    "kind": "discrete_gpu", "memory_bytes": 1024, "bandwidth_gb_per_s": 1, "source": "s"}]})";
  EXPECT_EQ(find_device_in(escaped, "f.json", "x1")->name, "X1");
  const std::string dup = R"({"devices": [
    {"id": "x", "vendor": "a", "name": "X", "kind": "cpu", "memory_bytes": null, "bandwidth_gb_per_s": 1, "source": "s"},
    {"id": "x", "vendor": "a", "name": "Y", "kind": "cpu", "memory_bytes": null, "bandwidth_gb_per_s": 1, "source": "s"}]})";
  EXPECT_NE(find_device_in(dup, "f.json", "y").error().message.find("duplicate id"),
            std::string::npos);
  EXPECT_NE(find_device_in("{", "f.json", "y").error().message.find("not valid JSON"),
            std::string::npos);
  // The entry found is validated.
  const std::string bad = R"({"devices": [{"id": "z", "vendor": "a", "name": "Z",
    "kind": "discrete_gpu", "memory_bytes": 1024, "bandwidth_gb_per_s": -1, "source": "s"}]})";
  EXPECT_NE(find_device_in(bad, "f.json", "z").error().message.find("f.json: devices[0] ('z')"),
            std::string::npos);
}

// ---- parsing and its errors -------------------------------------------------

constexpr const char* kOneDevice = R"({"schema_version": 1, "data_version": "2026-01-01",
  "devices": [{"id": "my-gpu", "vendor": "acme", "name": "Acme X1", "aliases": ["x1"],
  "kind": "discrete_gpu", "memory_bytes": 25769803776, "bandwidth_gb_per_s": 500,
  "fp16_tflops_dense": 100, "interconnect": {"bus": "PCIe 4.0 x16", "pcie_gen": 4,
  "nvlink_gb_per_s": null}, "year": 2025, "source": "my own measurements"}]})";

TEST(ParseDevices, AMinimalUserFile) {
  auto db = parse_device_db(kOneDevice, "mine.json");
  ASSERT_TRUE(db.ok()) << db.error().message;
  ASSERT_EQ(db->devices().size(), 1u);
  const Device& d = db->devices().front();
  EXPECT_EQ(d.memory_bytes, 24 * kGiB);
  EXPECT_EQ(d.interconnect.pcie_gen, 4);
  EXPECT_FALSE(d.tdp_w.has_value());
  EXPECT_EQ(db->find("acme x1")->id, d.id);
}

std::string error_of(const std::string& json) {
  auto db = parse_device_db(json, "mine.json");
  return db ? "parsed" : db.error().message;
}

std::string with_entry(const std::string& fields) {
  return R"({"devices": [{"id": "ok-gpu", "vendor": "acme", "name": "OK", "kind": "discrete_gpu",
    "memory_bytes": 1073741824, "bandwidth_gb_per_s": 100, "source": "s"}, {)" +
         fields + "}]}";
}

constexpr const char* kGood =
    R"("id": "bad-gpu", "vendor": "acme", "name": "Bad", "kind": "discrete_gpu", "bandwidth_gb_per_s": 100, "source": "s")";

TEST(ParseDevices, ErrorsNameTheFileAndTheEntryOnOneLine) {
  const struct {
    std::string json;
    std::string expected;
  } cases[] = {
      {"{\"devices\": [", "mine.json: not valid JSON: "},
      {"[]", "mine.json: must be a JSON object"},
      {"{}", "mine.json: missing the 'devices' array"},
      {R"({"schema_version": 2, "devices": []})", "mine.json: schema_version 2 is not supported"},
      {with_entry(kGood), "mine.json: devices[1] ('bad-gpu'): missing key 'memory_bytes'"},
      {with_entry(std::string(kGood) + R"(, "memory_bytes": "24gb")"),
       "mine.json: devices[1] ('bad-gpu'): 'memory_bytes' must be a whole number, not string"},
      {with_entry(std::string(kGood) + R"(, "memory_bytes": -5)"),
       "mine.json: devices[1] ('bad-gpu'): 'memory_bytes' is -5, outside"},
      {with_entry(std::string(kGood) + R"(, "memory_bytes": 1024, "year": "2020")"),
       "mine.json: devices[1] ('bad-gpu'): 'year' must be a whole number, not string"},
      {with_entry(std::string(kGood) + R"(, "memory_bytes": 1024, "aliases": "x")"),
       "mine.json: devices[1] ('bad-gpu'): 'aliases' must be an array of strings"},
      {with_entry(std::string(kGood) +
                  R"(, "memory_bytes": 1024, "interconnect": {"pcie_gen": "4"})"),
       "mine.json: devices[1] ('bad-gpu'): interconnect.'pcie_gen' must be a whole number"},
      {with_entry(
           R"("id": "ok-gpu", "vendor": "acme", "name": "Again", "kind": "cpu", "memory_bytes": null, "bandwidth_gb_per_s": 50, "source": "s")"),
       "mine.json: devices[1] ('ok-gpu'): duplicate id"},
      {with_entry(
           R"("id": "x", "vendor": "acme", "name": "X", "kind": "gpu", "memory_bytes": 1024, "bandwidth_gb_per_s": 50, "source": "s")"),
       "mine.json: devices[1] ('x'): kind 'gpu' is not discrete_gpu"},
      {with_entry(
           R"("id": "Bad Id", "vendor": "acme", "name": "X", "kind": "cpu", "bandwidth_gb_per_s": 50, "source": "s")"),
       "mine.json: devices[1] ('Bad Id'): id 'Bad Id' may hold only"},
      {R"({"devices": [42]})", "mine.json: devices[0]: must be an object, not number"},
  };
  for (const auto& c : cases) {
    const std::string e = error_of(c.json);
    EXPECT_EQ(e.rfind(c.expected, 0), 0u) << "got: " << e << "\nwanted: " << c.expected;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

TEST(ParseDevices, NullMemoryOnlyForCpu) {
  EXPECT_EQ(error_of(with_entry(std::string(kGood) + R"(, "memory_bytes": null)")),
            "mine.json: devices[1] ('bad-gpu'): 'memory_bytes' must not be null");
}

TEST(MergeDevices, AUserFileAddsAndReplacesById) {
  constexpr const char* kUser = R"json({"devices": [
    {"id": "rtx-4090", "vendor": "nvidia", "name": "GeForce RTX 4090 (mine, 48GB mod)",
     "kind": "discrete_gpu", "memory_bytes": 51539607552, "bandwidth_gb_per_s": 1008,
     "source": "my card"},
    {"id": "acme-x1", "vendor": "acme", "name": "Acme X1", "kind": "discrete_gpu",
     "memory_bytes": 1073741824, "bandwidth_gb_per_s": 10, "source": "me"}]})json";
  auto user = parse_device_db(kUser, "user.json");
  ASSERT_TRUE(user.ok()) << user.error().message;
  const DeviceDb merged = embedded().merged_with(*user);
  EXPECT_EQ(merged.devices().size(), embedded().devices().size() + 1);
  EXPECT_EQ(merged.find("rtx 4090")->memory_bytes, 48 * kGiB);
  EXPECT_EQ(merged.find("acme x1")->id, "acme-x1");
  EXPECT_EQ(merged.find("acme x1")->memory_marketed, "1.00 GiB");  // left out: from the bytes
  EXPECT_EQ(merged.data_version(), embedded().data_version());
  EXPECT_NE(merged.origin().find("user.json"), std::string::npos);
}

// ---- --device syntax --------------------------------------------------------

std::vector<std::pair<std::string, int>> spec(std::string_view text,
                                              const DeviceNameCheck& known = {}) {
  std::vector<std::pair<std::string, int>> out;
  auto parts = parse_device_spec(text, known);
  if (!parts) {
    out.emplace_back("error: " + parts.error().message, 0);
    return out;
  }
  for (const auto& p : *parts) {
    out.emplace_back(p.name, p.count);
  }
  return out;
}

using Parts = std::vector<std::pair<std::string, int>>;

TEST(DeviceSpec, CountsListsAndSuffixes) {
  EXPECT_EQ(spec("rtx 4090"), (Parts{{"rtx 4090", 1}}));
  EXPECT_EQ(spec("2x rtx 3090"), (Parts{{"rtx 3090", 2}}));
  EXPECT_EQ(spec("2 x rtx 3090"), (Parts{{"rtx 3090", 2}}));
  EXPECT_EQ(spec("4X A100 80GB"), (Parts{{"A100 80GB", 4}}));
  EXPECT_EQ(spec("h100:8"), (Parts{{"h100", 8}}));
  EXPECT_EQ(spec("rtx 4090+rtx 3090"), (Parts{{"rtx 4090", 1}, {"rtx 3090", 1}}));
  EXPECT_EQ(spec("rtx 4090 + 2x rtx 3090"), (Parts{{"rtx 4090", 1}, {"rtx 3090", 2}}));
  EXPECT_EQ(spec("2x 24gb"), (Parts{{"24gb", 2}}));
  EXPECT_EQ(spec("2x24gb"), (Parts{{"24gb", 2}}));
  EXPECT_EQ(spec("24gb:2+ 8gb"), (Parts{{"24gb", 2}, {"8gb", 1}}));
  EXPECT_EQ(spec("24gb+16gb"), (Parts{{"24gb", 1}, {"16gb", 1}}));
  EXPECT_EQ(spec("8gb"), (Parts{{"8gb", 1}}));
}

TEST(DeviceSpec, RejectsEmptyPartsAndBadCounts) {
  for (const char* bad : {"", "+", "rtx 4090+", "h100:", "h100:x", "h100:0", "0x rtx 3090",
                          "5000x h100", ":8", "a++b", "+rtx 4090"}) {
    EXPECT_EQ(spec(bad).front().first.rfind("error: ", 0), 0u) << bad;
  }
}

// With the database asked first, a number that is part of a name stays in
// the name, and counts are read before or after it.
std::vector<std::pair<std::string, int>> spec_known(std::string_view text) {
  return spec(text, [](std::string_view name) {
    auto d = embedded().find(name);
    if (d) {
      return NameMatch::Found;
    }
    return is_ambiguous_device_error(d.error()) ? NameMatch::Ambiguous : NameMatch::Unknown;
  });
}

TEST(DeviceSpec, NamesAreAskedBeforeCounts) {
  EXPECT_EQ(spec_known("7900 xtx"), (Parts{{"7900 xtx", 1}}));
  EXPECT_EQ(spec_known("7900xtx"), (Parts{{"7900xtx", 1}}));
  EXPECT_EQ(spec_known("7900 xt"), (Parts{{"7900 xt", 1}}));
  EXPECT_EQ(spec_known("4090 x2"), (Parts{{"4090", 2}}));
  EXPECT_EQ(spec_known("3090x2"), (Parts{{"3090", 2}}));
  EXPECT_EQ(spec_known("rtx 3090 x 2"), (Parts{{"rtx 3090", 2}}));
  EXPECT_EQ(spec_known("2x 7900 xtx"), (Parts{{"7900 xtx", 2}}));
  EXPECT_EQ(spec_known("7900 xtx x2+4090"), (Parts{{"7900 xtx", 2}, {"4090", 1}}));
  EXPECT_EQ(spec_known("7900xtx:3"), (Parts{{"7900xtx", 3}}));
  EXPECT_EQ(spec_known("24gbx2"), (Parts{{"24gb", 2}}));
  EXPECT_EQ(spec_known("rtx 4090"), (Parts{{"rtx 4090", 1}}));
  // An ambiguous name keeps its count; the lookup then lists the candidates.
  EXPECT_EQ(spec_known("2x a100"), (Parts{{"a100", 2}}));
  // Nothing known: the whole part is the name ("unknown device '7900 xtz'"),
  // unless a count in range leaves a name to report ("2x foo" -> "foo").
  EXPECT_EQ(spec_known("7900 xtz"), (Parts{{"7900 xtz", 1}}));
  EXPECT_EQ(spec_known("2x foo"), (Parts{{"foo", 2}}));
  // A count of a known device out of range is still an error.
  for (const char* bad : {"0x rtx 4090", "rtx 4090 x0", "3090x2000", "h100:0"}) {
    EXPECT_EQ(spec_known(bad).front().first.rfind("error: ", 0), 0u) << bad;
  }
}

// AMD's "Ryzen AI Max+ 395": the '+' after a word of letters is part of the
// name; spaced or after a number it joins devices.
TEST(DeviceSpec, PlusEndingAWordOfLettersIsPartOfTheName) {
  EXPECT_EQ(spec("ryzen ai max+ 395 64gb"), (Parts{{"ryzen ai max+ 395 64gb", 1}}));
  EXPECT_EQ(spec("ryzen ai max+395 64gb"), (Parts{{"ryzen ai max+395 64gb", 1}}));
  EXPECT_EQ(spec("ryzen ai max+ 395 64gb + rtx 4090"),
            (Parts{{"ryzen ai max+ 395 64gb", 1}, {"rtx 4090", 1}}));
  EXPECT_EQ(spec("m2 max + m3 max"), (Parts{{"m2 max", 1}, {"m3 max", 1}}));
  EXPECT_EQ(spec("m2 max+m3 max"), (Parts{{"m2 max", 1}, {"m3 max", 1}}));
}

// A comma used to join devices; it now lists grid columns, so the lib says
// how to write a set instead of reading it another way.
TEST(DeviceSpec, CommaIsAnErrorThatNamesThePlus) {
  const auto parts = parse_device_spec("rtx 4090,rtx 3090");
  ASSERT_FALSE(parts);
  EXPECT_NE(parts.error().message.find("'rtx 4090+rtx 3090'"), std::string::npos);
}

TEST(DeviceSpec, CapacitiesAreTheOnesWithUnitsOrLarge) {
  EXPECT_TRUE(is_capacity_text("8gb"));
  EXPECT_TRUE(is_capacity_text("24GiB"));
  EXPECT_TRUE(is_capacity_text("8000000000"));
  EXPECT_FALSE(is_capacity_text("4090"));
  EXPECT_FALSE(is_capacity_text("3060"));
  EXPECT_FALSE(is_capacity_text("rtx 4090"));
  EXPECT_FALSE(is_capacity_text("a10g"));
}

}  // namespace
}  // namespace willfit
