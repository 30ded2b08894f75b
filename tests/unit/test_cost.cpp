#include <gtest/gtest.h>

#include "willfit/devices/cost.hpp"

namespace willfit {
namespace {

Device priced(const char* id, std::optional<double> price, std::optional<double> tdp) {
  Device d;
  d.id = id;
  d.name = id;
  d.kind = DeviceKind::DiscreteGpu;
  d.memory_bytes = Bytes{24} << 30;
  d.price_usd = price;
  d.tdp_w = tdp;
  return d;
}

DeviceSet set_of(std::vector<Device> devices) {
  DeviceSet s;
  s.devices = std::move(devices);
  return s;
}

// Worked by hand: a $1599, 450 W card, 8 h/day for 3 years at $0.16/kWh.
//   energy  0.450 kW x 0.16 = 0.072 $/h; x 8 h x 365 = 210.24 $/yr
//   hours   8 x 365 x 3 = 8760; owning 1599 + 0.072 x 8760 = 2229.72 $
//   rent 0.69 $/h: break-even 1599 / (0.69 - 0.072) = 2587.38 h
//   = 2587.38 / (8 x 365 / 12 = 243.33 h per month) = 10.63 months
TEST(Cost, OwningAgainstRentingWorkedByHand) {
  CostQuestion q;
  q.device = DeviceCost{1599, 450};
  q.rent_usd_per_hour = 0.69;
  const auto a = estimate_cost(q);
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_NEAR(a->energy_usd_per_hour, 0.072, 1e-12);
  EXPECT_NEAR(a->energy_usd_per_year, 210.24, 1e-9);
  EXPECT_NEAR(a->hours_of_use, 8760, 1e-9);
  EXPECT_NEAR(a->own_total_usd, 2229.72, 1e-9);
  EXPECT_NEAR(a->own_usd_per_hour, 2229.72 / 8760, 1e-12);
  EXPECT_NEAR(*a->rent_total_usd, 0.69 * 8760, 1e-9);
  EXPECT_NEAR(*a->break_even_hours, 2587.38, 0.01);
  EXPECT_NEAR(*a->break_even_months, 10.633, 0.001);
  EXPECT_FALSE(a->rent_never_pays_back);
}

TEST(Cost, WithoutRentThereIsNoBreakEven) {
  CostQuestion q;
  q.device = DeviceCost{1000, 0};
  q.hours_per_day = 24;
  q.years = 1;
  const auto a = estimate_cost(q);
  ASSERT_TRUE(a);
  EXPECT_FALSE(a->break_even_hours);
  EXPECT_FALSE(a->rent_total_usd);
  EXPECT_NEAR(a->own_usd_per_hour, 1000.0 / 8760, 1e-12);  // no power: the price alone
}

// A rent at or below the electricity alone never pays the purchase back.
TEST(Cost, RentBelowTheElectricityNeverPaysBack) {
  CostQuestion q;
  q.device = DeviceCost{1599, 450};
  q.rent_usd_per_hour = 0.072;
  const auto a = estimate_cost(q);
  ASSERT_TRUE(a);
  EXPECT_TRUE(a->rent_never_pays_back);
  EXPECT_FALSE(a->break_even_hours);
  EXPECT_FALSE(a->break_even_months);
}

TEST(Cost, MoreHoursPerDayReachTheBreakEvenInFewerMonths) {
  CostQuestion q;
  q.device = DeviceCost{3000, 700};
  q.rent_usd_per_hour = 1.0;
  const auto slow = estimate_cost(q);
  q.hours_per_day = 24;
  const auto fast = estimate_cost(q);
  ASSERT_TRUE(slow && fast);
  EXPECT_DOUBLE_EQ(*slow->break_even_hours, *fast->break_even_hours);  // hours do not depend on it
  EXPECT_NEAR(*slow->break_even_months / *fast->break_even_months, 3.0, 1e-12);
}

TEST(Cost, RejectsOutOfRangeInputs) {
  const auto bad = [](auto change) {
    CostQuestion q;
    q.device = DeviceCost{1000, 300};
    change(q);
    return !estimate_cost(q);
  };
  EXPECT_TRUE(bad([](CostQuestion& q) { q.hours_per_day = 0; }));
  EXPECT_TRUE(bad([](CostQuestion& q) { q.hours_per_day = 24.5; }));
  EXPECT_TRUE(bad([](CostQuestion& q) { q.hours_per_day = -1; }));
  EXPECT_TRUE(bad([](CostQuestion& q) { q.kwh_price_usd = -0.1; }));
  EXPECT_TRUE(bad([](CostQuestion& q) { q.years = 0; }));
  EXPECT_TRUE(bad([](CostQuestion& q) { q.rent_usd_per_hour = 0; }));
  EXPECT_TRUE(bad([](CostQuestion& q) { q.rent_usd_per_hour = -2; }));
  EXPECT_FALSE(bad([](CostQuestion& q) { q.hours_per_day = 24; }));
  EXPECT_FALSE(bad([](CostQuestion& q) { q.kwh_price_usd = 0; }));
}

TEST(Cost, ADeviceSetCostsAndDrawsTheSumOfItsDevices) {
  const auto c = device_set_cost(
      set_of({priced("a", 1499, 350), priced("a", 1499, 350), priced("b", 1599, 450)}));
  ASSERT_TRUE(c);
  EXPECT_DOUBLE_EQ(c->price_usd, 1499 * 2 + 1599);
  EXPECT_DOUBLE_EQ(c->power_w, 350 * 2 + 450);
}

TEST(Cost, MissingPriceOrPowerOrABareSizeIsAnErrorThatSaysWhat) {
  const auto no_price = device_set_cost(set_of({priced("x-gpu", std::nullopt, 300)}));
  ASSERT_FALSE(no_price);
  EXPECT_NE(no_price.error().message.find("price_usd"), std::string::npos);
  EXPECT_NE(no_price.error().message.find("x-gpu"), std::string::npos);
  const auto no_power = device_set_cost(set_of({priced("y-gpu", 999, std::nullopt)}));
  ASSERT_FALSE(no_power);
  EXPECT_NE(no_power.error().message.find("tdp_w"), std::string::npos);
  auto raw = raw_device("24gb");
  ASSERT_TRUE(raw);
  const auto size = device_set_cost(set_of({*raw}));
  ASSERT_FALSE(size);
  EXPECT_NE(size.error().message.find("memory size"), std::string::npos);
  EXPECT_FALSE(device_set_cost(DeviceSet{}));
}

TEST(Cost, PriceAndPowerGivenReplaceTheDataForTheWholeSet) {
  const auto c =
      device_set_cost(set_of({priced("x", std::nullopt, 300), priced("x", std::nullopt, 300)}),
                      50000.0, std::nullopt);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_DOUBLE_EQ(c->price_usd, 50000);
  EXPECT_DOUBLE_EQ(c->power_w, 600);
  auto raw = raw_device("24gb");
  ASSERT_TRUE(raw);
  EXPECT_FALSE(device_set_cost(set_of({*raw}), 800.0, std::nullopt));
  const auto both = device_set_cost(set_of({*raw}), 800.0, 300.0);
  ASSERT_TRUE(both);
  EXPECT_DOUBLE_EQ(both->power_w, 300);
}

}  // namespace
}  // namespace willfit
