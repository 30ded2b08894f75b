// Where the rent table comes from, first found: the --rent-prices FILE option,
// the WILLFIT_RENT variable, the copy of data/rent.json embedded in the binary.
// A file named by either must exist and parse: a missing one is an error.
#pragma once

#include <string>

#include "sources/environment.hpp"
#include "willfit/core/expected.hpp"
#include "willfit/devices/rent.hpp"

namespace willfit::app {

// `rent_file`: the --rent-prices option, "" when not given.
Expected<RentTable> load_rent_table(const Environment& env, const std::string& rent_file);

}  // namespace willfit::app
