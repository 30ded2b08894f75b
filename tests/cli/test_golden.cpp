// Golden end-to-end cases: each tests/golden/NAME.args holds one argument per
// line; NAME.out is the expected stdout and NAME.code the exit code. The CLI
// runs in-process with an empty environment (no colour, no hardware
// detection). Set WILLFIT_UPDATE_GOLDEN=1 to rewrite the expectations after an
// intended change, then review the diff.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "cli/harness.hpp"

namespace willfit::test {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string line;
  while (std::getline(ss, line)) {
    out.push_back(line);
  }
  return out;
}

class Golden : public ::testing::TestWithParam<std::string> {};

TEST_P(Golden, MatchesExpectedOutput) {
  const fs::path dir = WILLFIT_GOLDEN_DIR;
  const std::string name = GetParam();
  const auto args = lines(slurp(dir / (name + ".args")));
  const CliResult r = run_cli(args);
  const bool update = std::getenv("WILLFIT_UPDATE_GOLDEN") != nullptr;  // NOLINT
  if (update) {
    std::ofstream(dir / (name + ".out"), std::ios::binary) << r.out;
    std::ofstream(dir / (name + ".code"), std::ios::binary) << r.code << "\n";
    GTEST_SKIP() << "rewrote " << name;
  }
  EXPECT_EQ(r.out, slurp(dir / (name + ".out"))) << "stderr: " << r.err;
  EXPECT_EQ(std::to_string(r.code) + "\n", slurp(dir / (name + ".code")));
  if (r.code == 2) {
    EXPECT_TRUE(is_clean_error(r)) << r.err;
  }
}

std::vector<std::string> cases() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(WILLFIT_GOLDEN_DIR)) {
    if (entry.path().extension() == ".args") {
      names.push_back(entry.path().stem().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Cases, Golden, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           std::string n = param_info.param;
                           for (char& c : n) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) {
                               c = '_';
                             }
                           }
                           return n;
                         });

}  // namespace
}  // namespace willfit::test
