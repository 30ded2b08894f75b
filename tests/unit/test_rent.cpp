#include <gtest/gtest.h>

#include <regex>

#include "sources/embedded_data.hpp"
#include "willfit/devices/device_db.hpp"
#include "willfit/devices/rent.hpp"

namespace willfit {
namespace {

// A table of round made-up offers: x-gpu one at a time or in 8-GPU instances.
constexpr const char* kTable = R"({"schema_version": 1, "data_version": "2030-01-02", "prices": [
  {"device": "x-gpu", "gpus": 1, "usd_per_hour": 2.5, "provider": "One", "date": "2030-01-01",
   "source": "test"},
  {"device": "x-gpu", "gpus": 8, "usd_per_hour": 16, "provider": "Eight", "date": "2030-01-01",
   "source": "test"},
  {"device": "y-gpu", "gpus": 4, "usd_per_hour": 10, "provider": "Four", "date": "2030-01-01",
   "source": "test"}]})";

TEST(Rent, ParsesEveryField) {
  const auto t = parse_rent_table(kTable, "t.json");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->data_version(), "2030-01-02");
  ASSERT_EQ(t->offers().size(), 3U);
  EXPECT_EQ(t->offers()[1].device, "x-gpu");
  EXPECT_EQ(t->offers()[1].gpus, 8);
  EXPECT_EQ(t->offers()[1].usd_per_hour, 16);
  EXPECT_EQ(t->offers()[1].provider, "Eight");
}

// Worked by hand for x-gpu: one at a time $2.50 each, or $16 per 8 ($2 each).
//   1 GPU:  1 x 2.50 = 2.50   against 1 x 16 = 16    -> One, $2.50
//   4 GPUs: 4 x 2.50 = 10.00  against 1 x 16 = 16    -> One, $10
//   8 GPUs: 8 x 2.50 = 20.00  against 1 x 16 = 16    -> Eight, $16
//   9 GPUs: 9 x 2.50 = 22.50  against 2 x 16 = 32    -> One, $22.50
// y-gpu comes only in fours: 5 GPUs need 2 instances, $20.
TEST(Rent, CheapestOfferRoundsUpToWholeInstances) {
  const auto t = parse_rent_table(kTable, "t.json");
  ASSERT_TRUE(t);
  const auto one = t->cheapest("x-gpu", 1);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->offer.provider, "One");
  EXPECT_DOUBLE_EQ(one->usd_per_hour, 2.5);
  EXPECT_EQ(one->instances, 1);
  EXPECT_DOUBLE_EQ(t->cheapest("x-gpu", 4)->usd_per_hour, 10);
  const auto eight = t->cheapest("x-gpu", 8);
  EXPECT_EQ(eight->offer.provider, "Eight");
  EXPECT_DOUBLE_EQ(eight->usd_per_hour, 16);
  EXPECT_EQ(eight->instances, 1);
  const auto nine = t->cheapest("x-gpu", 9);
  EXPECT_EQ(nine->offer.provider, "One");
  EXPECT_DOUBLE_EQ(nine->usd_per_hour, 22.5);
  const auto five = t->cheapest("y-gpu", 5);
  EXPECT_EQ(five->instances, 2);
  EXPECT_DOUBLE_EQ(five->usd_per_hour, 20);
  EXPECT_FALSE(t->cheapest("z-gpu", 1));
}

// Worked by hand: $3.60/h at 10 tokens/s makes 36,000 tokens an hour, so a
// million tokens cost 3.60 / 36000 x 1e6 = $100.
TEST(Rent, PerMillionTokensWorkedByHand) {
  EXPECT_DOUBLE_EQ(*usd_per_million_tokens(3.6, 10), 100);
  EXPECT_NEAR(*usd_per_million_tokens(1.09, 14.2), 1.09 / (14.2 * 3600) * 1e6, 1e-9);
  EXPECT_NEAR(*usd_per_million_tokens(1.09, 14.2), 21.32, 0.01);
  EXPECT_FALSE(usd_per_million_tokens(3.6, 0));
}

TEST(Rent, MalformedTablesAreErrorsNamingTheRow) {
  const auto error = [](const char* json) {
    const auto t = parse_rent_table(json, "r.json");
    return t ? std::string("parsed") : t.error().message;
  };
  EXPECT_NE(error("").find("r.json: not valid JSON"), std::string::npos);
  EXPECT_NE(error("[]").find("must be a JSON object"), std::string::npos);
  EXPECT_NE(error("{}").find("missing the 'prices' array"), std::string::npos);
  EXPECT_NE(error(R"({"prices": []})").find("is empty"), std::string::npos);
  EXPECT_NE(error(R"({"schema_version": 2, "prices": []})").find("schema_version 2"),
            std::string::npos);
  const std::string row =
      R"({"prices": [{"device": "x", "gpus": 0, "usd_per_hour": 1, "provider": "p",
          "date": "d", "source": "s"}]})";
  EXPECT_NE(error(row.c_str()).find("r.json: prices[0]: 'gpus'"), std::string::npos);
  EXPECT_NE(error(R"({"prices": [{"device": "x", "gpus": 1, "usd_per_hour": -1, "provider": "p",
          "date": "d", "source": "s"}]})")
                .find("'usd_per_hour' must be a number above 0"),
            std::string::npos);
  EXPECT_NE(error(R"({"prices": [{"device": "x", "gpus": 1, "usd_per_hour": 1, "provider": "p",
          "date": "d"}]})")
                .find("'source' must be a non-empty string"),
            std::string::npos);
  EXPECT_NE(error(R"({"prices": [7]})").find("prices[0]: must be an object"), std::string::npos);
}

// The bundled table: it parses, every row names a device of the bundled
// device data, a date (YYYY-MM-DD) no later than the table's data_version, and
// a source.
TEST(Rent, EmbeddedTableInvariants) {
  const auto table = parse_rent_table(app::embedded_rent_json(), "data/rent.json");
  ASSERT_TRUE(table) << table.error().message;
  const auto db = parse_device_db(app::embedded_devices_json(), "data/devices.json");
  ASSERT_TRUE(db);
  const std::regex date(R"(\d{4}-\d{2}-\d{2})");
  EXPECT_TRUE(std::regex_match(table->data_version(), date));
  for (const RentOffer& o : table->offers()) {
    EXPECT_NE(db->by_id(o.device), nullptr) << o.device;
    EXPECT_TRUE(std::regex_match(o.date, date)) << o.device;
    EXPECT_LE(o.date, table->data_version()) << o.device;
    EXPECT_NE(o.source.find(o.date), std::string::npos) << o.device << ": source names the date";
  }
}

}  // namespace
}  // namespace willfit
