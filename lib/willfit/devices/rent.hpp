// The rent table: on-demand cloud prices of GPU instances (data/rent.json or a
// user's file), and the price of renting N of one device from it. Pure: the
// caller passes bytes and a label for errors; nothing here opens a file.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "willfit/core/expected.hpp"

namespace willfit {

// One offer: an instance of `gpus` devices for `usd_per_hour` (the whole
// instance), as published by `provider` on `date` (YYYY-MM-DD), from `source`.
struct RentOffer {
  std::string device;  // a device id of the device database
  int gpus = 1;
  double usd_per_hour = 0;
  std::string provider;
  std::string date;
  std::string source;
};

// What renting `count` of a device costs with one offer: `instances` of it,
// rounded up (a 2-GPU need on an 8-GPU instance pays for 8).
struct RentQuote {
  RentOffer offer;
  int instances = 1;
  double usd_per_hour = 0;  // instances x offer.usd_per_hour
};

class RentTable {
 public:
  RentTable() = default;
  RentTable(std::vector<RentOffer> offers, std::string data_version, std::string origin);

  [[nodiscard]] const std::vector<RentOffer>& offers() const { return offers_; }
  [[nodiscard]] const std::string& data_version() const { return data_version_; }
  [[nodiscard]] const std::string& origin() const { return origin_; }

  // The cheapest way to rent `count` of `device_id` (count >= 1): over its
  // offers, ceil(count / gpus) instances each; ties go to the offer listed
  // first. nullopt when the table has no offer for the device.
  [[nodiscard]] std::optional<RentQuote> cheapest(std::string_view device_id, int count) const;

 private:
  std::vector<RentOffer> offers_;
  std::string data_version_;
  std::string origin_;
};

// Parses a rent document {"schema_version": 1, "data_version", "prices": [...]}.
// Every row needs device, gpus (1 to 64), usd_per_hour (above 0), provider,
// date and source; the first problem is one line naming `origin` and the row.
Expected<RentTable> parse_rent_table(std::string_view json, std::string_view origin);

// USD per million generated tokens when an instance at `usd_per_hour` decodes
// `tokens_per_s` (one sequence): usd_per_hour / (tokens_per_s x 3600) x 1e6.
// nullopt when the speed is not above 0.
std::optional<double> usd_per_million_tokens(double usd_per_hour, double tokens_per_s);

}  // namespace willfit
