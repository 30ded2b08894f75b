// `willfit cost` in-process, on a fixed devices file: the figures, the JSON
// contract, the data's date beside the prices, and the errors.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/harness.hpp"

namespace willfit::test {
namespace {

using nlohmann::json;

// Two made-up devices with round figures, and one without a price.
app::FakeEnvironment fixed_devices() {
  app::FakeEnvironment env;
  env.files["devs.json"] = R"({"schema_version": 1, "data_version": "2030-01-02", "devices": [
    {"id": "round-gpu", "vendor": "nvidia", "name": "Round GPU", "kind": "discrete_gpu",
     "memory_bytes": 25769803776, "bandwidth_gb_per_s": 1000, "price_usd": 1000, "tdp_w": 500,
     "source": "test"},
    {"id": "free-gpu", "vendor": "nvidia", "name": "Free GPU", "kind": "discrete_gpu",
     "memory_bytes": 25769803776, "bandwidth_gb_per_s": 1000, "tdp_w": 300, "source": "test"}]})";
  return env;
}

std::vector<std::string> cost(std::vector<std::string> more) {
  std::vector<std::string> args{"cost", "--devices", "devs.json"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// Worked by hand: $1000, 0.5 kW at $0.20/kWh = $0.10 per hour; renting at
// $0.60/h pays back after 1000 / 0.50 = 2000 hours = 2000 / (10 x 365 / 12)
// = 6.58 months at 10 h/day.
TEST(CliCost, JsonFiguresWorkedByHand) {
  const auto r = run_cli(cost({"-d", "round gpu", "--hours-per-day", "10", "--kwh-price", "0.2",
                               "--rent", "0.6", "--json"}),
                         fixed_devices());
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j.at("schema_version"), 1);
  EXPECT_EQ(j.at("data_version"), "2030-01-02");
  EXPECT_EQ(j.at("query").at("kwh_price_source"), "--kwh-price");
  EXPECT_DOUBLE_EQ(j.at("device").at("price_usd").get<double>(), 1000);
  EXPECT_NEAR(j.at("cost").at("energy_usd_per_hour").get<double>(), 0.10, 1e-12);
  EXPECT_NEAR(j.at("cost").at("break_even_hours").get<double>(), 2000, 1e-9);
  EXPECT_NEAR(j.at("cost").at("break_even_months").get<double>(), 6.575, 0.001);
  for (const char* key : {"energy_usd_per_hour", "energy_usd_per_year", "hours_of_use",
                          "own_total_usd", "own_usd_per_hour", "rent_total_usd", "break_even_hours",
                          "break_even_months", "rent_never_pays_back"}) {
    EXPECT_TRUE(j.at("cost").contains(key)) << key;
  }
}

// The device may come as the one word (`willfit cost "rtx 4090"`), as -d
// gives it; both at once, or neither, is one line on stderr.
TEST(CliCost, TheDeviceAsAPositionalWord) {
  const auto word = run_cli(cost({"round gpu", "--json"}), fixed_devices());
  ASSERT_EQ(word.code, 0) << word.err;
  EXPECT_EQ(word.out, run_cli(cost({"-d", "round gpu", "--json"}), fixed_devices()).out);
  const auto both = run_cli(cost({"round gpu", "-d", "free gpu"}), fixed_devices());
  EXPECT_TRUE(is_clean_error(both)) << both.err;
  const auto none = run_cli(cost({}), fixed_devices());
  EXPECT_TRUE(is_clean_error(none)) << none.err;
  EXPECT_NE(none.err.find("willfit cost -d \"rtx 4090\""), std::string::npos) << none.err;
}

TEST(CliCost, WithoutRentTheBreakEvenKeysAreNullAndTheTextSaysHowToCompare) {
  const auto j = json::parse(run_cli(cost({"-d", "round gpu", "--json"}), fixed_devices()).out);
  EXPECT_TRUE(j.at("query").at("rent_usd_per_hour").is_null());
  EXPECT_TRUE(j.at("cost").at("break_even_hours").is_null());
  EXPECT_TRUE(j.at("cost").at("rent_total_usd").is_null());
  EXPECT_NE(j.at("query").at("kwh_price_source").get<std::string>().find("EIA"), std::string::npos);
  const auto text = run_cli(cost({"-d", "round gpu"}), fixed_devices());
  EXPECT_NE(text.out.find("--rent"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("2030-01-02"), std::string::npos) << text.out;  // prices are dated
}

TEST(CliCost, SeveralDevicesMultiplyPriceAndPower) {
  const auto j = json::parse(run_cli(cost({"-d", "2x round gpu", "--json"}), fixed_devices()).out);
  EXPECT_DOUBLE_EQ(j.at("device").at("price_usd").get<double>(), 2000);
  EXPECT_DOUBLE_EQ(j.at("device").at("tdp_w").get<double>(), 1000);
  EXPECT_EQ(j.at("device").at("count"), 2);
}

TEST(CliCost, ErrorsAreOneLine) {
  const auto env = fixed_devices();
  for (const auto& [args, fragment] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {cost({}), "--device"},
           {cost({"-d", "free gpu"}), "price_usd"},
           {cost({"-d", "24gb"}), "memory size"},
           {cost({"-d", "round gpu", "--hours-per-day", "-2"}), "--hours-per-day"},
           {cost({"-d", "round gpu", "--hours-per-day", "25"}), "at most 24"},
           {cost({"-d", "round gpu", "--hours-per-day", "0"}), "--hours-per-day"},
           {cost({"-d", "round gpu", "--rent", "0"}), "--rent"},
           {cost({"-d", "round gpu", "--rent", "-1"}), "--rent"},
           {cost({"-d", "round gpu", "--rent", "abc"}), "--rent"},
           {cost({"-d", "round gpu", "--years", "0"}), "--years"},
           {cost({"-d", "round gpu", "--kwh-price", "x"}), "--kwh-price"},
           {cost({"-d", "round gpu,free gpu"}), "'+'"},
       }) {
    const auto r = run_cli(args, env);
    EXPECT_TRUE(is_clean_error(r)) << args.back() << ": " << r.err;
    EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace willfit::test
