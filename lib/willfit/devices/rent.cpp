#include "willfit/devices/rent.hpp"

namespace willfit {

namespace {

constexpr double kSecondsPerHour = 3600;
constexpr double kTokensPerMillion = 1e6;

}  // namespace

RentTable::RentTable(std::vector<RentOffer> offers, std::string data_version, std::string origin)
    : offers_(std::move(offers)),
      data_version_(std::move(data_version)),
      origin_(std::move(origin)) {}

std::optional<RentQuote> RentTable::cheapest(std::string_view device_id, int count) const {
  std::optional<RentQuote> best;
  for (const RentOffer& o : offers_) {
    if (o.device != device_id || count < 1) {
      continue;
    }
    const int instances = (count + o.gpus - 1) / o.gpus;
    const double price = instances * o.usd_per_hour;
    if (!best || price < best->usd_per_hour) {
      best = RentQuote{o, instances, price};
    }
  }
  return best;
}

std::optional<double> usd_per_million_tokens(double usd_per_hour, double tokens_per_s) {
  if (!(tokens_per_s > 0)) {
    return std::nullopt;
  }
  return usd_per_hour / (tokens_per_s * kSecondsPerHour) * kTokensPerMillion;
}

}  // namespace willfit
