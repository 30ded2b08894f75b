// The whole CLI, in-process: exit codes, stdout/stderr discipline, JSON contract.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/harness.hpp"

namespace willfit::test {
namespace {

using nlohmann::json;

TEST(Cli, CourseExampleDoesNotFitAnEightGigabyteCard) {
  const auto r = run_cli({"13b", "--precision", "q4", "--device", "8gb"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out.rfind("DOES NOT FIT", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("'q4' read as Q4_K_M"), std::string::npos);
  EXPECT_NE(r.out.find("To make it fit"), std::string::npos);  // the hint, as a ranked list
  EXPECT_TRUE(r.err.empty());
}

TEST(Cli, SevenBillionFits) {
  const auto r = run_cli({"7b", "-p", "q4", "-d", "8gb"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.rfind("FITS", 0), 0u) << r.out;
}

TEST(Cli, OffloadWhenRamIsGiven) {
  const auto r = run_cli({"13b", "-p", "q4", "-d", "8gb", "--ram", "32gb"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out.rfind("FITS ONLY WITH OFFLOAD", 0), 0u) << r.out;
}

// -q wins over --json (its help says so): a script asks for the exit code.
TEST(Cli, QuietPrintsNothingButKeepsTheExitCode) {
  const auto no = run_cli({"13b", "-p", "q4", "-d", "8gb", "-q"});
  EXPECT_EQ(no.code, 1);
  EXPECT_TRUE(no.out.empty());
  const auto yes = run_cli({"7b", "-p", "q4", "-d", "8gb", "--quiet", "--json"});
  EXPECT_EQ(yes.code, 0);
  EXPECT_TRUE(yes.out.empty());
}

TEST(Cli, JsonContractKeysArePresent) {
  const auto r = run_cli({"13b", "-p", "q4", "-d", "8gb", "--json"});
  EXPECT_EQ(r.code, 1);
  const json j = json::parse(r.out);
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_TRUE(j["willfit_version"].is_string());
  EXPECT_TRUE(j["query"].is_object());
  for (const char* k : {"name", "params", "active_params", "layers", "hidden_size", "heads",
                        "kv_heads", "head_dim", "vocab_size", "assumed", "weights_bytes"}) {
    EXPECT_TRUE(j["model"].contains(k)) << k;
  }
  for (const char* k : {"name", "count", "memory_bytes", "usable_bytes"}) {
    EXPECT_TRUE(j["device"].contains(k)) << k;
  }
  for (const char* k : {"weights_bytes", "kv_cache_bytes", "compute_bytes", "overhead_bytes",
                        "margin_bytes", "total_bytes"}) {
    EXPECT_TRUE(j["memory"][k].is_number_integer()) << k;
  }
  for (const char* k : {"verdict", "fits", "required_bytes", "available_bytes", "headroom_bytes"}) {
    EXPECT_TRUE(j["result"].contains(k)) << k;
  }
  EXPECT_TRUE(j["warnings"].is_array());
  EXPECT_EQ(j["result"]["verdict"], "no_fit");
  EXPECT_EQ(j["result"]["fits"], false);
  EXPECT_EQ(j["model"]["assumed"], true);
  const auto& m = j["memory"];
  EXPECT_EQ(m["total_bytes"].get<std::int64_t>(),
            m["weights_bytes"].get<std::int64_t>() + m["kv_cache_bytes"].get<std::int64_t>() +
                m["compute_bytes"].get<std::int64_t>() + m["overhead_bytes"].get<std::int64_t>() +
                m["margin_bytes"].get<std::int64_t>());
  EXPECT_EQ(j["result"]["headroom_bytes"].get<std::int64_t>(),
            j["result"]["available_bytes"].get<std::int64_t>() -
                j["result"]["required_bytes"].get<std::int64_t>());
}

TEST(Cli, JsonVerdictForEachOutcome) {
  EXPECT_EQ(
      json::parse(run_cli({"7b", "-p", "q4", "-d", "8gb", "--json"}).out)["result"]["verdict"],
      "fits");
  EXPECT_EQ(json::parse(run_cli({"13b", "-p", "q4", "-d", "8gb", "--ram", "32gb", "--json"})
                            .out)["result"]["verdict"],
            "offload");
  const json none = json::parse(run_cli({"7b", "--json"}).out);
  EXPECT_TRUE(none["result"]["verdict"].is_null());
  EXPECT_TRUE(none["device"]["name"].is_null());
}

TEST(Cli, BadInputIsOneLineOnStderrAndExitTwo) {
  const std::vector<std::vector<std::string>> cases = {
      {"0b", "-d", "8gb"},
      {"-3b", "-d", "8gb"},
      {"abc", "-d", "8gb"},
      {"1e400b", "-d", "8gb"},
      {"13q", "-d", "8gb"},
      {"", "-d", "8gb"},
      {"7b", "--bogus"},
      {"7b", "-p", "q9"},
      {"7b", "-d", "eightgb"},
      {"7b", "--context", "abc"},
      {"7b", "--context", "0"},
      {"7b", "--batch", "-1"},
      {"7b", "--kv-type", "q3"},
      {"7b", "--ram", "lots"},
      {"7b", "--flash-attn", "maybe"},
      {},
      {"7b", "-d"},
      {"7b", "8b"},
  };
  for (const auto& args : cases) {
    const auto r = run_cli(args);
    EXPECT_TRUE(is_clean_error(r)) << (args.empty() ? "<none>" : args.front()) << " -> code "
                                   << r.code << " out=" << r.out << " err=" << r.err;
  }
}

TEST(Cli, ErrorsQuoteTheInputAndSuggest) {
  const auto r = run_cli({"7b", "-p", "q4_k_x"});
  EXPECT_NE(r.err.find("'q4_k_x'"), std::string::npos);
  EXPECT_NE(r.err.find("did you mean"), std::string::npos);
}

TEST(Cli, HelpAndVersionGoToStdout) {
  const auto help = run_cli({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("Exit codes"), std::string::npos);
  EXPECT_NE(help.out.find("GiB"), std::string::npos);
  EXPECT_TRUE(help.err.empty());
  const auto version = run_cli({"--version"});
  EXPECT_EQ(version.code, 0);
  EXPECT_EQ(version.out.rfind("willfit ", 0), 0u);
}

}  // namespace
}  // namespace willfit::test
