#include <gtest/gtest.h>

#include <algorithm>

#include "willfit/core/quality.hpp"
#include "willfit/inference/longest_context.hpp"
#include "willfit/planner/planner.hpp"

namespace willfit {
namespace {

InferenceQuery on(const char* device, const char* precision = "q4_k_m") {
  InferenceQuery q;
  q.precision = *parse_precision(precision);
  if (device != nullptr) {
    q.devices.devices.push_back(*raw_device(device));
    q.devices.text = device;
  }
  return q;
}

bool size_fits(InferenceQuery q, std::int64_t params) {
  q.model = *model_from_size(*parse_model_size(std::to_string(params / 1'000'000) + "m"));
  return estimate_inference(q).fits();
}

// The answer is the boundary: it fits, 10 M more does not.
TEST(MaxParams, IsTheLargestSizeThatFits) {
  for (const char* device : {"8gb", "24gb", "80gb"}) {
    const InferenceQuery q = on(device);
    const std::int64_t n = max_params(q);
    ASSERT_GT(n, 0) << device;
    EXPECT_EQ(n % 10'000'000, 0);
    EXPECT_TRUE(size_fits(q, n)) << device;
    EXPECT_FALSE(size_fits(q, n + 10'000'000)) << device;
  }
}

TEST(MaxParams, MoreMemoryOrFewerBitsNeverHoldsLess) {
  EXPECT_LT(max_params(on("8gb")), max_params(on("24gb")));
  EXPECT_LT(max_params(on("24gb", "q8_0")), max_params(on("24gb", "q4_k_m")));
}

TEST(MaxParams, NothingFitsATinyDeviceOrNoDevice) {
  EXPECT_EQ(max_params(on("64mb")), 0);
  EXPECT_EQ(max_params(on(nullptr)), 0);
}

TEST(MaxBatch, IsTheLargestBatchThatFits) {
  InferenceQuery q = on("24gb");
  q.model = *model_from_size(*parse_model_size("8b"));
  const int b = max_batch(q);
  ASSERT_GT(b, 1);
  ASSERT_LT(b, 4096);
  q.batch = b;
  EXPECT_TRUE(estimate_inference(q).fits());
  q.batch = b + 1;
  EXPECT_FALSE(estimate_inference(q).fits());
}

// Issue 16: Margin::Clear answers are the largest whose headroom exceeds
// the estimate's own error band: at the answer the estimate is not tight,
// one step above it is tight or does not fit, and it never exceeds the
// plain answer.
TEST(MaxClear, ContextBatchAndSizeClearTheErrorBand) {
  InferenceQuery q = on("8gb");
  q.model = *model_from_size(*parse_model_size("8b"));
  const std::int64_t ctx = max_context(q);
  const std::int64_t clear = max_context(q, Margin::Clear);
  ASSERT_GT(clear, 0);
  ASSERT_LT(clear, ctx);  // 8B Q4_K_M on 8 GB: the longest context is tight
  InferenceQuery at = q;
  at.context = clear;
  EXPECT_TRUE(estimate_inference(at).fits());
  EXPECT_FALSE(estimate_inference(at).tight);
  at.context = clear + 256;
  EXPECT_TRUE(estimate_inference(at).tight || !estimate_inference(at).fits());
  at.context = ctx;
  EXPECT_TRUE(estimate_inference(at).tight);

  const int b = max_batch(q, Margin::Clear);
  ASSERT_GT(b, 0);
  EXPECT_LE(b, max_batch(q));
  at = q;
  at.batch = b;
  EXPECT_FALSE(estimate_inference(at).tight);
  at.batch = b + 1;
  EXPECT_TRUE(estimate_inference(at).tight || !estimate_inference(at).fits());

  const InferenceQuery bare = on("24gb");
  const std::int64_t n = max_params(bare, Margin::Clear);
  ASSERT_GT(n, 0);
  EXPECT_LT(n, max_params(bare));
  EXPECT_TRUE(size_fits(bare, n));
}

// Found by review: `max -p best` picked a precision that fit only within the
// error band (Q6_K of gemma-3-27b on an RTX 3090) while a lower one cleared
// it. The rule of longest_fitting_context: the best that clears the band,
// the best that fits (tight) only when none clears.
TEST(MaxClear, PlanMaxBestPrecisionClearsTheBandWhenOneDoes) {
  MaxQuestion question;
  question.query = on("6gb");
  question.query.model = *model_from_size(*parse_model_size("8b"));
  question.model_given = true;
  question.best_precision = true;
  const MaxAnswer a = plan_max(question);
  ASSERT_TRUE(a.precision);
  EXPECT_FALSE(a.precision_tight);
  EXPECT_FALSE(a.precision_clear);
  InferenceQuery at = question.query;
  at.runtime = Runtime::LlamaCpp;
  at.precision = *a.precision;
  EXPECT_TRUE(estimate_inference(at).fits());
  EXPECT_FALSE(estimate_inference(at).tight);
  // The best that fits at all is a better one, and tight: the case the rule decides.
  const auto candidates = precision_candidates(std::nullopt);
  const auto fits = best_precision(at, candidates);
  ASSERT_TRUE(fits);
  EXPECT_LT(*quant_kld(fits->id), *quant_kld(a.precision->id));
  at.precision = *fits;
  EXPECT_TRUE(estimate_inference(at).tight);
  EXPECT_GT(a.error_band_pct, 0);
}

// Where no precision clears the band, the best that fits is the answer, said tight.
TEST(MaxClear, PlanMaxBestPrecisionIsTightOnlyWhenNoneClears) {
  const auto candidates = precision_candidates(std::nullopt);
  for (int mb = 1000; mb <= 6000; mb += 100) {
    const std::string device = std::to_string(mb) + "mb";
    InferenceQuery q = on(device.c_str());
    q.model = *model_from_size(*parse_model_size("8b"));
    q.runtime = Runtime::LlamaCpp;
    if (!best_precision(q, candidates) || best_precision(q, candidates, Margin::Clear)) {
      continue;
    }
    MaxQuestion question;
    question.query = q;
    question.query.runtime.reset();
    question.model_given = true;
    question.best_precision = true;
    const MaxAnswer a = plan_max(question);
    ASSERT_TRUE(a.precision) << device;
    EXPECT_EQ(a.precision->id, best_precision(q, candidates)->id) << device;
    EXPECT_TRUE(a.precision_tight) << device;
    EXPECT_FALSE(a.precision_clear) << device;
    return;
  }
  FAIL() << "no device size between 1000 and 6000 MB where 8B fits only tight";
}

// One rule for "the longest context that fits" (--context max, the
// shorter-context suggestion, max): clear of the band, else the edge, tight.
TEST(LongestFittingContext, ClearsTheBandElseTheEdgeSaidTight) {
  InferenceQuery q = on("8gb");
  q.model = *model_from_size(*parse_model_size("8b"));
  const LongestContext l = longest_fitting_context(q);
  EXPECT_EQ(l.tokens, max_context(q, Margin::Clear));
  EXPECT_EQ(l.edge, max_context(q));
  EXPECT_FALSE(l.tight);
  ASSERT_LT(l.tokens, l.edge);
  InferenceQuery at = q;
  at.context = l.tokens;
  EXPECT_FALSE(estimate_inference(at).tight);
  // Asked for at least one step more than clears: only the edge, and it is tight.
  const LongestContext edge = longest_fitting_context(q, l.tokens + 256);
  EXPECT_EQ(edge.tokens, l.edge);
  EXPECT_TRUE(edge.tight);
  at.context = edge.tokens;
  EXPECT_TRUE(estimate_inference(at).tight);
  EXPECT_EQ(longest_fitting_context(q, l.edge + 256).tokens, 0);
  InferenceQuery tiny = on("64mb");
  tiny.model = q.model;
  EXPECT_EQ(longest_fitting_context(tiny).tokens, 0);
}

// Engines' formats run from most bits to fewest; GGUF types from the least
// published KL divergence from FP16 to the most (quality.hpp).
TEST(BestPrecision, CandidatesRunFromHighestQualityToLowest) {
  const auto engine = precision_candidates(Runtime::Vllm);
  ASSERT_GE(engine.size(), 4U);
  EXPECT_TRUE(
      std::is_sorted(engine.begin(), engine.end(), [](const Precision& a, const Precision& b) {
        return a.bits_per_weight > b.bits_per_weight;
      }));
  EXPECT_EQ(engine.front().bits_per_weight, 16);
  const auto ggufs = precision_candidates(std::nullopt);
  ASSERT_GE(ggufs.size(), 4U);
  EXPECT_TRUE(std::is_sorted(
      ggufs.begin(), ggufs.end(),
      [](const Precision& a, const Precision& b) { return *quant_kld(a.id) < *quant_kld(b.id); }));
  EXPECT_EQ(ggufs.front().bits_per_weight, 16);
  const auto gguf = precision_candidates(std::nullopt);
  EXPECT_TRUE(
      std::any_of(gguf.begin(), gguf.end(), [](const Precision& p) { return p.id == "q4_k_m"; }));
  const auto vllm = precision_candidates(Runtime::Vllm);
  EXPECT_TRUE(std::none_of(vllm.begin(), vllm.end(), [](const Precision& p) { return p.gguf; }));
}

TEST(BestPrecision, IsTheFirstThatFitsAndTheOneBeforeDoesNot) {
  InferenceQuery q = on("8gb");
  q.model = *model_from_size(*parse_model_size("13b"));
  q.runtime = Runtime::LlamaCpp;
  const auto c = precision_candidates(std::nullopt);
  const auto best = best_precision(q, c);
  ASSERT_TRUE(best.has_value());
  const auto at =
      std::find_if(c.begin(), c.end(), [&](const Precision& p) { return p.id == best->id; });
  ASSERT_NE(at, c.begin());
  q.precision = *(at - 1);
  EXPECT_FALSE(estimate_inference(q).fits());
}

TEST(PlanMax, NullWhereNotAskedAndNothingWhenNothingFits) {
  MaxQuestion bare{on("24gb"), false, false};
  const MaxAnswer a = plan_max(bare);
  EXPECT_TRUE(a.params.has_value());
  EXPECT_FALSE(a.context_tokens.has_value());
  EXPECT_FALSE(a.batch.has_value());
  EXPECT_FALSE(a.precision.has_value());
  EXPECT_TRUE(a.found());

  MaxQuestion big{on("8gb"), true, true};
  big.query.model = *model_from_size(*parse_model_size("405b"));
  const MaxAnswer none = plan_max(big);
  EXPECT_FALSE(none.params.has_value());
  EXPECT_FALSE(none.precision.has_value());
  EXPECT_EQ(none.context_tokens, 0);
  EXPECT_FALSE(none.found());

  // Everything fits: a 1 B model on 80 GiB takes the first (16-bit) candidate.
  MaxQuestion small{on("80gb"), true, true};
  small.query.model = *model_from_size(*parse_model_size("1b"));
  const MaxAnswer all = plan_max(small);
  ASSERT_TRUE(all.precision.has_value());
  EXPECT_EQ(all.precision->bits_per_weight, 16);
  EXPECT_GT(*all.context_tokens, 4096);
  EXPECT_GT(*all.batch, 1);
}

}  // namespace
}  // namespace willfit
