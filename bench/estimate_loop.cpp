// Runs N estimates of one question, for bench/instructions.sh: under
// callgrind, the instructions per estimate are the same on every run, where
// time on a shared machine moves by a third from run to run.
//
//   willfit_estimate_loop N MODEL PRECISION DEVICES
#include <cstdio>
#include <cstdlib>
#include <string>

#include "sources/environment.hpp"
#include "sources/resolve.hpp"
#include "willfit/inference/estimate.hpp"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fputs("usage: willfit_estimate_loop N MODEL PRECISION DEVICES\n", stderr);
    return 2;
  }
  const willfit::app::FakeEnvironment env;
  const auto model = willfit::app::resolve_model(argv[2], env);
  const auto precision = willfit::parse_precision(argv[3]);
  const auto devices = willfit::app::resolve_devices(argv[4], env);
  if (!model || !precision || !devices || std::strtol(argv[1], nullptr, 10) <= 0) {
    std::fputs("willfit_estimate_loop: cannot resolve the question\n", stderr);
    return 2;
  }
  willfit::InferenceQuery q;
  q.model = *model;
  q.precision = *precision;
  q.devices = *devices;
  const long n = std::strtol(argv[1], nullptr, 10);
  long long sum = 0;  // used, so the loop is not optimised away
  for (long i = 0; i < n; ++i) {
    sum += willfit::estimate_inference(q).required;
  }
  std::printf("%lld\n", sum);
  return 0;
}
