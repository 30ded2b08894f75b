// How a rent offer covers a set, in words, for the which and cost renderers.
// Formats only.
#pragma once

#include <string>

#include "willfit/devices/rent.hpp"

namespace willfit::app {

// ", 2x 8-GPU instance" or ", 4 GPUs at $3.99/h each"; "" for one GPU from a 1-GPU offer.
std::string rent_instances(const RentQuote& quote);

}  // namespace willfit::app
