#include <gtest/gtest.h>

#include "willfit/planner/which.hpp"

namespace willfit {
namespace {

Device gpu(const char* id, const char* vendor, Bytes memory, std::optional<double> price,
           DeviceKind kind = DeviceKind::DiscreteGpu) {
  Device d;
  d.id = id;
  d.name = id;
  d.vendor = vendor;
  d.kind = kind;
  d.memory_bytes = memory;
  d.bandwidth_gb_per_s = 500;
  d.fp16_tflops_dense = 50;
  d.price_usd = price;
  return d;
}

const std::vector<Device> kDevices{
    gpu("big", "nvidia", 24 * kGiB, 1600),
    gpu("small", "amd", 8 * kGiB, 300),
    gpu("mac", "apple", 64 * kGiB, std::nullopt, DeviceKind::Unified),
    gpu("cpu", "amd", 64 * kGiB, 500, DeviceKind::Cpu),
};

InferenceQuery model(const char* size, const char* precision) {
  InferenceQuery q;
  q.model = *model_from_size(*parse_model_size(size));
  q.precision = *parse_precision(precision);
  return q;
}

TEST(Which, SmallestCountThatFitsRankedByPrice) {
  // 13 B at Q4_K_M (about 7.9 GB of weights) outgrows one 8 GiB card.
  const auto rows = which_devices(model("13b", "q4_k_m"), kDevices, {});
  ASSERT_EQ(rows.size(), 3U);  // the CPU is left out
  EXPECT_EQ(rows[0].devices.text, "2x small");
  EXPECT_EQ(rows[0].count, 2);
  EXPECT_EQ(rows[0].price_usd, 600);
  EXPECT_EQ(rows[1].devices.text, "big");
  EXPECT_EQ(rows[2].devices.text, "mac");  // no price: last
  for (const auto& r : rows) {
    EXPECT_LE(r.required, r.usable);
    EXPECT_TRUE(r.decode_tokens_per_s.has_value());
  }
}

TEST(Which, FiltersAndOtherOrders) {
  WhichOptions o;
  o.max_price_usd = 500;
  EXPECT_TRUE(which_devices(model("13b", "q4_k_m"), kDevices, o).empty());
  o = {};
  o.vendor = "NVIDIA";
  const auto nv = which_devices(model("13b", "q4_k_m"), kDevices, o);
  ASSERT_EQ(nv.size(), 1U);
  EXPECT_EQ(nv[0].devices.text, "big");
  o = {};
  o.sort = WhichSort::Memory;
  const auto by_memory = which_devices(model("13b", "q4_k_m"), kDevices, o);
  ASSERT_EQ(by_memory.size(), 3U);
  EXPECT_EQ(by_memory[0].devices.text, "2x small");
  EXPECT_EQ(by_memory[2].devices.text, "mac");
  o.sort = WhichSort::Speed;
  const auto by_speed = which_devices(model("13b", "q4_k_m"), kDevices, o);
  for (std::size_t i = 1; i < by_speed.size(); ++i) {
    EXPECT_GE(*by_speed[i - 1].decode_tokens_per_s, *by_speed[i].decode_tokens_per_s);
  }
  EXPECT_FALSE(parse_which_sort("cost").ok());
}

TEST(Which, EverythingOrNothing) {
  EXPECT_EQ(which_devices(model("1b", "q4_k_m"), kDevices, {}).size(), 3U);
  EXPECT_TRUE(which_devices(model("1t", "fp16"), kDevices, {}).empty());
}

// --rent: only what the table offers, ranked by rent for the count that fits.
// 13 B at Q4_K_M needs 2 of "small" at $1/h each = $2/h; one "big" is $0.50/h;
// "mac" has no offer and is left out.
TEST(Which, RentRanksByHourlyRentOfTheSetThatFits) {
  const auto table = parse_rent_table(
      R"({"prices": [
    {"device": "small", "gpus": 1, "usd_per_hour": 1, "provider": "A", "date": "2030-01-01",
     "source": "test"},
    {"device": "big", "gpus": 1, "usd_per_hour": 0.5, "provider": "B", "date": "2030-01-01",
     "source": "test"}]})",
      "t");
  ASSERT_TRUE(table) << table.error().message;
  WhichOptions o;
  o.rent = &*table;
  const auto rows = which_devices(model("13b", "q4_k_m"), kDevices, o);
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_EQ(rows[0].devices.text, "big");
  EXPECT_DOUBLE_EQ(rows[0].rent->usd_per_hour, 0.5);
  EXPECT_EQ(rows[0].price_usd, 1600);  // the list price stays beside the rent
  EXPECT_EQ(rows[1].devices.text, "2x small");
  EXPECT_DOUBLE_EQ(rows[1].rent->usd_per_hour, 2);
  EXPECT_EQ(rows[1].rent->instances, 2);
  for (const auto& r : rows) {
    ASSERT_TRUE(r.decode_tokens_per_s && r.rent_usd_per_million_tokens);
    EXPECT_NEAR(*r.rent_usd_per_million_tokens,
                r.rent->usd_per_hour / (*r.decode_tokens_per_s * 3600) * 1e6, 1e-9);
  }
  o.max_price_usd = 1;  // USD per hour with --rent
  const auto cheap = which_devices(model("13b", "q4_k_m"), kDevices, o);
  ASSERT_EQ(cheap.size(), 1U);
  EXPECT_EQ(cheap[0].devices.text, "big");
}

// An embedding model generates nothing (speed.generates false): a row has
// no decode, the tokens it reads a second instead, and --sort speed ranks
// by those.
TEST(Which, AnEmbeddingModelIsRankedByTheTokensItReads) {
  InferenceQuery q = model("1b", "f16");
  q.model.embedding = true;
  WhichOptions o;
  o.sort = WhichSort::Speed;
  const auto rows = which_devices(q, kDevices, o);
  ASSERT_EQ(rows.size(), 3U);
  for (const auto& r : rows) {
    EXPECT_FALSE(r.generates);
    EXPECT_FALSE(r.decode_tokens_per_s.has_value());
    ASSERT_TRUE(r.read_tokens_per_s.has_value());
    EXPECT_GT(*r.read_tokens_per_s, 0);
  }
  EXPECT_GE(*rows[0].read_tokens_per_s, *rows[1].read_tokens_per_s);
  EXPECT_GE(*rows[1].read_tokens_per_s, *rows[2].read_tokens_per_s);
  // The same model as one that generates: decode figures, no reads.
  q.model.embedding = false;
  for (const auto& r : which_devices(q, kDevices, o)) {
    EXPECT_TRUE(r.generates);
    EXPECT_TRUE(r.decode_tokens_per_s.has_value());
    EXPECT_FALSE(r.read_tokens_per_s.has_value());
  }
}

// Under Ollama with no --context, each device is sized at Ollama's default
// for its memory (server/routes.go: 4096 under 23 GiB, 32768 under 47 GiB,
// else 262144), at most the model's trained length, and the row says which.
TEST(Which, EachRowCarriesTheContextItWasSizedAt) {
  InferenceQuery q = model("8b", "q4_k_m");
  q.model.arch.max_context = 131072;
  q.runtime = Runtime::Ollama;
  q.context_is_default = true;
  const auto rows = which_devices(q, kDevices, {});
  ASSERT_EQ(rows.size(), 3U);
  for (const auto& r : rows) {
    const std::string& id = r.devices.devices.front().id;
    EXPECT_EQ(r.context, id == "small" ? 4096 : id == "big" ? 32768 : 131072) << id;
  }
  q.context_is_default = false;
  q.context = 8192;
  for (const auto& r : which_devices(q, kDevices, {})) {
    EXPECT_EQ(r.context, 8192);
  }
}

}  // namespace
}  // namespace willfit
