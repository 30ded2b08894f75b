// Runs the whole CLI in-process with a fake environment and captures its output.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "sources/environment.hpp"

namespace willfit::test {

struct CliResult {
  int code = -1;
  std::string out;
  std::string err;
};

inline CliResult run_cli(const std::vector<std::string>& args,
                         const app::FakeEnvironment& env = app::FakeEnvironment{}) {
  std::ostringstream out;
  std::ostringstream err;
  CliResult r;
  r.code = app::run(args, out, err, env);
  r.out = out.str();
  r.err = err.str();
  return r;
}

// An error as the house style wants it: exit 2, nothing on stdout, exactly one
// line on stderr starting with "willfit: error: ".
inline bool is_clean_error(const CliResult& r) {
  return r.code == 2 && r.out.empty() && r.err.rfind("willfit: error: ", 0) == 0 &&
         r.err.find('\n') == r.err.size() - 1;
}

}  // namespace willfit::test
