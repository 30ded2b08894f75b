#include "willfit/devices/rent.hpp"

#include <cstdint>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace willfit {

namespace {

using Json = nlohmann::json;

constexpr int kMaxGpusPerInstance = 64;
constexpr double kSecondsPerHour = 3600;
constexpr double kTokensPerMillion = 1e6;

Expected<std::string> text_field(const Json& row, const char* key, const std::string& label) {
  const auto it = row.find(key);
  if (it == row.end() || !it->is_string() || it->get<std::string>().empty()) {
    return make_error(fmt::format("{}: '{}' must be a non-empty string", label, key));
  }
  return it->get<std::string>();
}

Expected<RentOffer> read_offer(const Json& row, const std::string& label) {
  if (!row.is_object()) {
    return make_error(fmt::format("{}: must be an object", label));
  }
  RentOffer o;
  for (auto [key, field] : {std::pair{"device", &o.device}, std::pair{"provider", &o.provider},
                            std::pair{"date", &o.date}, std::pair{"source", &o.source}}) {
    auto v = text_field(row, key, label);
    if (!v) {
      return v.error();
    }
    *field = *v;
  }
  const auto gpus = row.find("gpus");
  if (gpus == row.end() || !gpus->is_number_integer() || gpus->get<std::int64_t>() < 1 ||
      gpus->get<std::int64_t>() > kMaxGpusPerInstance) {
    return make_error(
        fmt::format("{}: 'gpus' must be a whole number from 1 to {}", label, kMaxGpusPerInstance));
  }
  o.gpus = static_cast<int>(gpus->get<std::int64_t>());
  const auto price = row.find("usd_per_hour");
  if (price == row.end() || !price->is_number() || !(price->get<double>() > 0)) {
    return make_error(fmt::format("{}: 'usd_per_hour' must be a number above 0", label));
  }
  o.usd_per_hour = price->get<double>();
  return o;
}

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

Expected<RentTable> parse_rent_table(std::string_view json, std::string_view origin) {
  const std::string where(origin);
  Json doc;
  try {
    doc = Json::parse(json.begin(), json.end());
  } catch (const Json::exception& e) {
    std::string what = e.what();
    if (const auto pos = what.find("] "); pos != std::string::npos) {
      what = what.substr(pos + 2);
    }
    return make_error(fmt::format("{}: not valid JSON: {}", where, what));
  }
  if (!doc.is_object()) {
    return make_error(fmt::format("{}: must be a JSON object with a 'prices' array", where));
  }
  if (const auto it = doc.find("schema_version"); it != doc.end()) {
    if (!it->is_number_integer() || it->get<std::int64_t>() != 1) {
      return make_error(fmt::format("{}: schema_version {} is not supported (this willfit reads 1)",
                                    where, it->dump()));
    }
  }
  std::string data_version;
  if (const auto it = doc.find("data_version"); it != doc.end() && !it->is_null()) {
    if (!it->is_string()) {
      return make_error(fmt::format("{}: 'data_version' must be a string", where));
    }
    data_version = it->get<std::string>();
  }
  const auto list = doc.find("prices");
  if (list == doc.end() || !list->is_array()) {
    return make_error(fmt::format("{}: missing the 'prices' array", where));
  }
  if (list->empty()) {
    return make_error(fmt::format("{}: the 'prices' array is empty", where));
  }
  std::vector<RentOffer> offers;
  for (std::size_t i = 0; i < list->size(); ++i) {
    auto offer = read_offer((*list)[i], fmt::format("{}: prices[{}]", where, i));
    if (!offer) {
      return offer.error();
    }
    offers.push_back(std::move(*offer));
  }
  return RentTable(std::move(offers), std::move(data_version), where);
}

std::optional<double> usd_per_million_tokens(double usd_per_hour, double tokens_per_s) {
  if (!(tokens_per_s > 0)) {
    return std::nullopt;
  }
  return usd_per_hour / (tokens_per_s * kSecondsPerHour) * kTokensPerMillion;
}

}  // namespace willfit
