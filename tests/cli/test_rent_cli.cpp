// `willfit which --rent` and `willfit cost` with the rent table, in-process on
// a fixed devices file and rent file: where the table comes from, the ranking,
// the JSON keys, and a device without a price answered by rent.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/harness.hpp"

namespace willfit::test {
namespace {

using nlohmann::json;

// Two made-up cards with round figures; "dc-gpu" has no list price.
app::FakeEnvironment fixed() {
  app::FakeEnvironment env;
  env.files["devs.json"] = R"({"schema_version": 1, "data_version": "2030-01-02", "devices": [
    {"id": "home-gpu", "vendor": "nvidia", "name": "Home GPU", "kind": "discrete_gpu",
     "memory_bytes": 25769803776, "bandwidth_gb_per_s": 1000, "fp16_tflops_dense": 100,
     "price_usd": 1000, "tdp_w": 500, "source": "test"},
    {"id": "dc-gpu", "vendor": "nvidia", "name": "DC GPU", "kind": "discrete_gpu",
     "memory_bytes": 85899345920, "bandwidth_gb_per_s": 3000, "fp16_tflops_dense": 400,
     "tdp_w": 700, "source": "test"}]})";
  env.files["rent.json"] = R"({"schema_version": 1, "data_version": "2030-01-03", "prices": [
    {"device": "home-gpu", "gpus": 1, "usd_per_hour": 0.5, "provider": "Cheap", "date": "2030-01-01",
     "source": "test"},
    {"device": "dc-gpu", "gpus": 1, "usd_per_hour": 3, "provider": "Big", "date": "2030-01-02",
     "source": "test page"}]})";
  return env;
}

TEST(CliRent, WhichRanksByRentFromTheFileGiven) {
  const auto r = run_cli({"which", "13b", "-p", "q4_k_m", "--devices", "devs.json", "--rent",
                          "--rent-prices", "rent.json", "--json"},
                         fixed());
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j.at("query").at("rent"), true);
  EXPECT_EQ(j.at("rent_data_version"), "2030-01-03");
  const auto& rows = j.at("devices");
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_EQ(rows[0].at("device"), "home-gpu");
  EXPECT_EQ(rows[0].at("rent").at("usd_per_hour"), 0.5);
  EXPECT_EQ(rows[0].at("rent").at("provider"), "Cheap");
  EXPECT_EQ(rows[1].at("device"), "dc-gpu");
  EXPECT_EQ(rows[1].at("rent").at("source"), "test page");
  for (const auto& row : rows) {
    const double per_hour = row.at("rent").at("usd_per_hour");
    // The JSON's speed is rounded to 4 significant digits (docs/json.md), the
    // price per token is from the unrounded speed: within 0.05 % of each other.
    const double tok_s = row.at("decode_tokens_per_s");
    const double expected = per_hour / (tok_s * 3600) * 1e6;
    EXPECT_NEAR(row.at("rent").at("usd_per_million_tokens").get<double>(), expected,
                expected * 5e-4);
  }
}

TEST(CliRent, TheVariableNamesTheFileTooAndTheOptionWins) {
  auto env = fixed();
  env.vars["WILLFIT_RENT"] = "rent.json";
  const auto r =
      run_cli({"which", "13b", "-p", "q4_k_m", "--devices", "devs.json", "--rent", "--json"}, env);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out).at("rent_data_version"), "2030-01-03");
  env.vars["WILLFIT_RENT"] = "/missing.json";
  const auto given = run_cli({"which", "13b", "-p", "q4_k_m", "--devices", "devs.json", "--rent",
                              "--rent-prices", "rent.json"},
                             env);
  EXPECT_EQ(given.code, 0) << given.err;
  const auto missing =
      run_cli({"which", "13b", "-p", "q4_k_m", "--devices", "devs.json", "--rent"}, env);
  EXPECT_EQ(missing.code, 2);
  EXPECT_TRUE(missing.out.empty());
  EXPECT_NE(missing.err.find("WILLFIT_RENT"), std::string::npos) << missing.err;
}

TEST(CliRent, WithoutRentWhichKeepsListPricesAndNullRent) {
  const auto r =
      run_cli({"which", "13b", "-p", "q4_k_m", "--devices", "devs.json", "--json"}, fixed());
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j.at("query").at("rent"), false);
  EXPECT_TRUE(j.at("rent_data_version").is_null());
  EXPECT_TRUE(j.at("devices")[0].at("rent").is_null());
}

// dc-gpu has no list price: cost answers by rent. 8 h/day x 365 x 3 = 8760 h
// at $3/h = $26,280.
TEST(CliRent, CostOfADeviceWithoutPriceIsTheRent) {
  const auto r = run_cli(
      {"cost", "-d", "dc gpu", "--devices", "devs.json", "--rent-prices", "rent.json", "--json"},
      fixed());
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j.at("cost").at("rent_only"), true);
  EXPECT_EQ(j.at("device").at("price_known"), false);
  EXPECT_EQ(j.at("device").at("price_usd"), 0);
  // No price: owning is the electricity alone, 0.7 kW x $0.16 x 8760 h.
  EXPECT_NEAR(j.at("cost").at("own_total_usd").get<double>(), 0.7 * 0.16 * 8760, 1e-6);
  EXPECT_EQ(j.at("query").at("rent_usd_per_hour"), 3);
  EXPECT_EQ(j.at("query").at("rent_source"), "rent table");
  EXPECT_NEAR(j.at("cost").at("rent_total_usd").get<double>(), 26280, 1e-6);
  EXPECT_EQ(j.at("rent").at("provider"), "Big");
  const auto text = run_cli(
      {"cost", "-d", "dc gpu", "--devices", "devs.json", "--rent-prices", "rent.json"}, fixed());
  EXPECT_NE(text.out.find("no purchase price"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Big, 2030-01-02"), std::string::npos) << text.out;
}

// home-gpu: $1000 and 0.5 kW x $0.16 = $0.08/h; the table's $0.50/h pays the
// card back after 1000 / 0.42 = 2381 hours. --rent replaces the table.
TEST(CliRent, CostTakesTheTableRentUnlessRentIsGiven) {
  const auto r = run_cli(
      {"cost", "-d", "home gpu", "--devices", "devs.json", "--rent-prices", "rent.json", "--json"},
      fixed());
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j.at("cost").at("rent_only"), false);
  EXPECT_NEAR(j.at("cost").at("break_even_hours").get<double>(), 1000 / 0.42, 1e-6);
  const auto given = run_cli({"cost", "-d", "home gpu", "--devices", "devs.json", "--rent-prices",
                              "rent.json", "--rent", "1.08", "--json"},
                             fixed());
  const json g = json::parse(given.out);
  EXPECT_EQ(g.at("query").at("rent_source"), "--rent");
  EXPECT_TRUE(g.at("rent").is_null());
  EXPECT_NEAR(g.at("cost").at("break_even_hours").get<double>(), 1000, 1e-6);
}

}  // namespace
}  // namespace willfit::test
