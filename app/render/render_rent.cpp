#include "render/render_rent.hpp"

#include <fmt/format.h>

namespace willfit::app {

std::string rent_instances(const RentQuote& quote) {
  if (quote.offer.gpus > 1) {
    return fmt::format(", {}x {}-GPU instance", quote.instances, quote.offer.gpus);
  }
  if (quote.instances > 1) {
    return fmt::format(", {} GPUs at ${:.2f}/h each", quote.instances, quote.offer.usd_per_hour);
  }
  return "";
}

}  // namespace willfit::app
