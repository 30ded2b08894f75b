// `willfit max`, `willfit which` and the fit answer's suggestions, in-process:
// exit codes, errors, the JSON contract.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/harness.hpp"

namespace willfit::test {
namespace {

using nlohmann::json;

TEST(CliSuggestions, AlwaysPresentAndEmptyWhenItFits) {
  const auto fits = run_cli({"7b", "-p", "q4", "-d", "24gb", "--json"});
  ASSERT_EQ(fits.code, 0);
  const json j = json::parse(fits.out);
  ASSERT_TRUE(j.at("suggestions").is_array());
  EXPECT_TRUE(j.at("suggestions").empty());
  EXPECT_TRUE(j.at("hint").is_null());
}

// Each suggestion, run as the user would, gets the verdict it promised.
TEST(CliSuggestions, EachFittingSuggestionFitsWhenRun) {
  const std::vector<std::string> base{"13b", "-p", "q8_0", "-d", "8gb"};
  std::vector<std::string> args = base;
  args.push_back("--json");
  const auto r = run_cli(args);
  ASSERT_EQ(r.code, 1);
  const json j = json::parse(r.out);
  const auto& s = j.at("suggestions");
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(j.at("hint").get<std::string>().rfind("hint: --", 0), 0U);
  for (const auto& x : s) {
    const auto a = x.at("args").get<std::string>();
    std::vector<std::string> run = base;
    if (a.rfind("--precision ", 0) == 0) {
      run[2] = a.substr(12);
    } else if (a.rfind("--device ", 0) == 0) {
      run[4] = "2x 8gb";
    } else if (a.rfind("--ram ", 0) == 0) {
      run.push_back("--ram");
      run.push_back(a.substr(6));
    } else {
      continue;
    }
    run.push_back("--json");
    const json after = json::parse(run_cli(run).out);
    EXPECT_EQ(after.at("result").at("verdict"), x.at("verdict")) << a;
    EXPECT_EQ(after.at("memory").at("total_bytes"), x.at("total_bytes")) << a;
  }
}

TEST(CliMax, NullWhereNotAsked) {
  const auto r = run_cli({"max", "-d", "24gb", "-p", "q4_k_m", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const json m = json::parse(r.out).at("max");
  EXPECT_GT(m.at("params").get<std::int64_t>(), 0);
  EXPECT_TRUE(m.at("context_tokens").is_null());
  EXPECT_TRUE(m.at("batch").is_null());
  EXPECT_TRUE(m.at("precision").is_null());
}

// Found by review: without -p, 'willfit max' answers at 16 bits and said
// nothing of quantisations. Llama-3.1-8B's BF16 weights (16.1 GB, the
// safetensors shards of meta-llama/Llama-3.1-8B) cannot fit an 8 GB RTX
// 4060, its Q4_K_M GGUF (4.92 GB) can: the answer says how to ask for it.
// An explicit -p gets no hint.
TEST(CliMax, WithoutPrecisionAHintNamesAQuantisationThatAnswers) {
  const auto model = run_cli({"max", "llama-3.1-8b", "-d", "rtx 4060"});
  EXPECT_EQ(model.code, 1);
  EXPECT_NE(model.out.find("longest context: none"), std::string::npos) << model.out;
  EXPECT_NE(model.out.find("hint: nothing fits at BF16; -p best finds"), std::string::npos)
      << model.out;
  EXPECT_NE(model.out.find("-p q4_k_m"), std::string::npos) << model.out;
  const auto size = run_cli({"max", "-d", "rtx 4060"});
  EXPECT_EQ(size.code, 0);
  EXPECT_NE(size.out.find("hint: at Q4_K_M (-p q4_k_m"), std::string::npos) << size.out;
  EXPECT_EQ(run_cli({"max", "-d", "rtx 4060", "-p", "fp16"}).out.find("hint"), std::string::npos);
  // In JSON: quantised_hint, null when -p was given (schema: max.schema.json).
  EXPECT_NE(run_cli({"max", "-d", "rtx 4060", "-p", "fp16", "--json"})
                .out.find("\"quantised_hint\": null"),
            std::string::npos);
  const auto as_json = run_cli({"max", "-d", "rtx 4060", "--json"});
  EXPECT_NE(as_json.out.find("\"quantised_hint\": {"), std::string::npos) << as_json.out;
  EXPECT_NE(as_json.out.find("\"precision\": \"q4_k_m\""), std::string::npos) << as_json.out;
}

TEST(CliMax, ErrorsAreCleanAndNothingFitsExitsOne) {
  EXPECT_TRUE(is_clean_error(run_cli({"max", "-p", "q4"})));  // no --device
  EXPECT_TRUE(is_clean_error(run_cli({"max", "-d", "8gb", "-p", "best"})));
  EXPECT_TRUE(is_clean_error(run_cli({"max", "-d", "8gb", "-p", "q9"})));
  EXPECT_EQ(run_cli({"max", "405b", "-d", "8gb", "-p", "best"}).code, 1);
  EXPECT_EQ(run_cli({"max", "-d", "64mb"}).code, 1);
}

// Under Ollama a tag's model is what `ollama pull` fetches, so "best" ranks
// only the quantisations the library's tags page publishes for it, as the
// suggestions do (outside_ollama_library). qwen3:8b's page lists q4_K_M,
// q8_0 and fp16 only: Q6_K, which fits an 8 GiB card at 8 B under llama.cpp,
// has no tag to pull. llama3.1:8b's page lists q2_K to q8_0, so its Q6_K is
// one (llama3.1:8b-instruct-q6_K).
TEST(CliMax, BestUnderOllamaRanksOnlyWhatTheLibraryPublishes) {
  for (const std::vector<std::string>& runtime :
       {std::vector<std::string>{"--runtime", "ollama"}, std::vector<std::string>{}}) {
    std::vector<std::string> args{"max", "-p", "best", "qwen3:8b", "-d", "rtx 4060", "--json"};
    args.insert(args.end(), runtime.begin(), runtime.end());
    const auto r = run_cli(args);
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j.at("query").at("runtime"), "ollama");
    EXPECT_EQ(j.at("max").at("precision"), "q4_k_m");
    EXPECT_EQ(j.at("query").at("precision"), "q4_k_m");
  }
  const auto text =
      run_cli({"max", "-p", "best", "--runtime", "ollama", "qwen3:8b", "-d", "rtx 4060"});
  EXPECT_NE(text.out.find("best precision: Q4_K_M"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("Q6_K"), std::string::npos) << text.out;
  // The same model under llama.cpp may be converted to any GGUF type: Q5_K_M,
  // no tag of qwen3's page (Q6_K fits too, but only within the error band,
  // and the best that clears it wins: longest_fitting_context's rule).
  const json cpp = json::parse(run_cli({"max", "-p", "best", "--runtime", "llama.cpp", "qwen3:8b",
                                        "-d", "rtx 4060", "--json"})
                                   .out);
  EXPECT_EQ(cpp.at("max").at("precision"), "q5_k_m");
  EXPECT_EQ(cpp.at("max").at("precision_tight"), false);
  // A model whose page lists more types: Q6_K is a tag of its own.
  const json llama =
      json::parse(run_cli({"max", "-p", "best", "llama3.1:8b", "-d", "rtx 4060", "--json"}).out);
  EXPECT_EQ(llama.at("max").at("precision"), "q6_k");
}

TEST(CliWhich, ErrorsAreCleanAndNothingFitsExitsOne) {
  EXPECT_TRUE(is_clean_error(run_cli({"which", "7b", "--sort", "cost"})));
  EXPECT_TRUE(is_clean_error(run_cli({"which", "7b", "--max-price", "cheap"})));
  EXPECT_TRUE(is_clean_error(run_cli({"which"})));
  const auto none = run_cli({"which", "2t", "-p", "fp16", "--json"});
  EXPECT_EQ(none.code, 1);
  EXPECT_EQ(json::parse(none.out).at("found"), 0);
}

// One estimator: each row's need is the plain answer's total on that device
// set. An Ollama tag takes Ollama's own micro-batch in both (the rows once
// used 512 and listed sets the plain answer refuses).
TEST(CliWhich, EachRowNeedsWhatThePlainAnswerSays) {
  const auto r = run_cli({"which", "qwen3:32b", "--limit", "6", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const json rows = json::parse(r.out).at("devices");
  ASSERT_FALSE(rows.empty());
  for (const json& row : rows) {
    const std::string set =
        std::to_string(row.at("count").get<int>()) + "x " + row.at("device").get<std::string>();
    const auto plain = run_cli({"qwen3:32b", "-d", set, "--json"});
    ASSERT_EQ(plain.code, 0) << set << ": " << plain.err;
    EXPECT_EQ(json::parse(plain.out).at("memory").at("total_bytes"), row.at("total_bytes")) << set;
  }
}

TEST(CliWhich, PricesRiseDownTheListAndStayUnderTheCap) {
  const auto r = run_cli(
      {"which", "llama-3.1-8b", "-p", "q4_k_m", "--max-price", "800", "--limit", "0", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  double last = 0;
  ASSERT_FALSE(j.at("devices").empty());
  for (const auto& d : j.at("devices")) {
    const double p = d.at("price_usd").get<double>();
    EXPECT_LE(p, 800);
    EXPECT_GE(p, last);
    last = p;
    EXPECT_LE(d.at("total_bytes").get<std::int64_t>(), d.at("capacity_bytes").get<std::int64_t>());
  }
}

}  // namespace
}  // namespace willfit::test
