// Quality per quantisation type against the published table it comes from
// (tests/data/quant_quality.csv, llama.cpp's Llama-3-8B scoreboard), and the
// order it gives --precision best and the suggestions.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "willfit/core/quality.hpp"
#include "willfit/models/model_size.hpp"
#include "willfit/planner/planner.hpp"

namespace willfit {
namespace {

// precision -> KLD from the CSV (its first column and its fifth; the source
// column, quoted, comes last).
std::vector<std::pair<std::string, double>> published() {
  std::ifstream in(std::string(WILLFIT_TEST_DATA_DIR) + "/quant_quality.csv");
  std::string line;
  std::getline(in, line);  // header
  std::vector<std::pair<std::string, double>> out;
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string field;
    std::vector<std::string> fields;
    for (int i = 0; i < 5 && std::getline(ss, field, ','); ++i) {
      fields.push_back(field);
    }
    out.emplace_back(fields.at(0), std::stod(fields.at(4)));
  }
  return out;
}

TEST(Quality, TableMatchesThePublishedRows) {
  const auto rows = published();
  ASSERT_EQ(rows.size(), 27U);
  for (const auto& [id, kld] : rows) {
    ASSERT_TRUE(quant_kld(id).has_value()) << id;
    EXPECT_DOUBLE_EQ(*quant_kld(id), kld) << id;
  }
  EXPECT_EQ(quant_kld("fp16"), 0.0);
  EXPECT_FALSE(quant_kld("mxfp4").has_value());
  EXPECT_FALSE(quant_kld("awq").has_value());
}

TEST(Quality, BestRanksByPublishedQualityNotBits) {
  const auto candidates = precision_candidates(std::nullopt);
  const auto at = [&](std::string_view id) {
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      if (candidates[i].id == id) {
        return i;
      }
    }
    return candidates.size();
  };
  // Legacy Q4_1 is larger than Q4_K_S yet further from FP16.
  EXPECT_LT(at("q4_k_s"), at("q4_1"));
  EXPECT_LT(at("iq4_xs"), at("q4_0"));
  EXPECT_LT(at("q8_0"), at("q6_k"));
  EXPECT_EQ(at("mxfp4"), candidates.size());  // no published figure: not offered

  // A device where Q4_1 and Q4_K_S both fit: best is Q4_K_S.
  InferenceQuery q;
  q.model = *model_from_size(*parse_model_size("8b"));
  q.devices.devices = {*raw_device("6gb")};
  q.devices.text = "6gb";
  const auto best = best_precision(q, candidates);
  ASSERT_TRUE(best.has_value());
  EXPECT_NE(best->id, "q4_1");
  EXPECT_LE(*quant_kld(best->id), *quant_kld("q4_k_s"));
}

TEST(Quality, WordsFollowTheDivergence) {
  EXPECT_EQ(quality_cost(*quant_kld("q8_0")), "near lossless");
  EXPECT_EQ(quality_cost(*quant_kld("q4_k_m")), "a small quality loss");
  EXPECT_EQ(quality_cost(*quant_kld("iq2_xs")), "a large quality loss");
}

}  // namespace
}  // namespace willfit
