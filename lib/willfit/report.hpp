// A report bundles a query with its estimate and the words that go with it
// (assumptions, a hint), ready for a renderer. Building one runs the
// estimator; rendering it (app/) only formats. Pure.
#pragma once

#include <string>
#include <vector>

#include "willfit/estimate.hpp"
#include "willfit/speed.hpp"

namespace willfit {

struct FitReport {
  InferenceQuery query;
  Estimate estimate;
  std::vector<std::string> assumptions;  // what was assumed, for the user
  std::string hint;                      // one line when it does not fit, else ""
  SpeedEstimate speed;                   // how fast it runs (speed.hpp); estimable or why not
};

FitReport make_fit_report(const InferenceQuery& query, const SpeedSettings& speed = {});

}  // namespace willfit
