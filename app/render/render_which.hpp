// Renderers for `willfit which`: the ranked device sets as a table for people
// and JSON for scripts. They format only.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "willfit/planner/which.hpp"

namespace willfit::app {

struct WhichView {
  const InferenceQuery& query;
  const WhichOptions& options;
  const std::vector<WhichRow>& rows;  // after --limit
  std::size_t found = 0;              // before --limit
  const std::string& data_version;    // the device data's date, beside its prices
  std::string rent_origin;            // with --rent: where the rent table came from
};

std::string render_which_text(const WhichView& view);

// {"schema_version", "willfit_version", "query", "data_version", "found",
//  "devices": [{device, count, capacity_bytes, total_bytes, price_usd,
//  decode_tokens_per_s, runtime, rent}]}; query.rent, rent_data_version
//  (null without --rent); rent: {usd_per_hour, usd_per_million_tokens,
//  instances, gpus_per_instance, provider, date, source} or null
std::string render_which_json(const WhichView& view);

}  // namespace willfit::app
