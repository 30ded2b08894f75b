// A report bundles a query with its estimate and the words that go with it
// (assumptions, a hint), ready for a renderer. Building one runs the
// estimator; rendering it (app/) only formats. Pure.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "willfit/inference/estimate.hpp"
#include "willfit/planner/suggest.hpp"
#include "willfit/speed/speed.hpp"

namespace willfit {

struct FitReport {
  InferenceQuery query;
  Estimate estimate;
  std::vector<std::string> assumptions;  // what was assumed, for the user
  std::string hint;                      // one line when it does not fit, else ""
  SpeedEstimate speed;                   // how fast it runs (speed.hpp); estimable or why not
  std::vector<Suggestion> suggestions;   // "to make it fit" (suggest.hpp); empty when it fits
};

// `smaller_models`: catalogue models of the same family with fewer
// parameters, largest first, for the suggestions; called only when it does
// not fit (see suggest.hpp); `other_devices`: the device database's GPUs,
// for other hardware (SuggestInputs::other_devices).
FitReport make_fit_report(const InferenceQuery& query, const SpeedSettings& speed = {},
                          const std::function<std::vector<Model>()>& smaller_models = {},
                          const std::function<std::vector<Device>()>& other_devices = {});

// What the answer assumed, as the text and the JSON both print it: the
// report's assumptions, then why usable memory is what it is (one line per
// reason, usable_memory_assumption) when a device is known.
std::vector<std::string> report_assumptions(const FitReport& report);

}  // namespace willfit
