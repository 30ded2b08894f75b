// The KV term's --explain arithmetic multiplies out to the figure it
// explains: K and V of the layers that cache them, plus a hybrid's or a
// recurrent model's fixed state. A hybrid's line used to multiply every
// layer's K and V (Granite 4.0 H-Micro: 320 MiB written, 68.9 MiB shown).
#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <string>

#include "unit/catalogue_model.hpp"
#include "willfit/inference/estimate.hpp"

namespace willfit {
namespace {

struct Shown {
  std::string formula;
  Bytes bytes = 0;
};

Shown kv_term(const char* model, const char* precision, Runtime runtime) {
  InferenceQuery q;
  q.model = test::catalogue_model(model);
  q.precision = *parse_precision(precision);
  q.runtime = runtime;
  const Estimate e = estimate_inference(q, Detail::Explained);
  for (const Term& t : e.terms) {
    if (t.key == "kv_cache") {
      return {t.formula, t.bytes};
    }
  }
  ADD_FAILURE() << model << ": no kv_cache term";
  return {};
}

// The products the line writes: "2 (K and V) x L ... layers x H KV heads x
// D dims x B bytes x T tokens" and "a fixed recurrent state of R layers x V
// values x S bytes", each when present.
double written_bytes(const std::string& f) {
  double sum = 0;
  std::smatch m;
  static const std::regex kv(
      R"(2 \(K and V\) x (\d+) (?:attention )?layers x (\d+) KV heads x (\d+) dims x ([\d.]+) bytes x (\d+) tokens)");
  if (std::regex_search(f, m, kv)) {
    sum += 2.0 * std::stod(m[1]) * std::stod(m[2]) * std::stod(m[3]) * std::stod(m[4]) *
           std::stod(m[5]);
  }
  static const std::regex state(
      R"(a fixed recurrent state of (\d+) layers x (\d+) values x (\d+) bytes)");
  if (std::regex_search(f, m, state)) {
    sum += std::stod(m[1]) * std::stod(m[2]) * std::stod(m[3]);
  }
  return sum;
}

TEST(KvFormula, TheWrittenProductIsTheFigure) {
  for (const Runtime r : {Runtime::LlamaCpp, Runtime::Transformers}) {
    const char* precision = r == Runtime::LlamaCpp ? "q4_k_m" : "bf16";
    // Hybrids (Mamba-2, gated DeltaNet), recurrent models alone, plain GQA.
    for (const char* model : {"granite-4.0-h-micro", "qwen3-next-80b-a3b", "rwkv-6-world-1b6",
                              "mamba-130m", "llama-3.1-8b", "lfm2-350m"}) {
      const Shown s = kv_term(model, precision, r);
      SCOPED_TRACE(std::string(model) + ": " + s.formula);
      ASSERT_GT(s.bytes, 0);
      EXPECT_DOUBLE_EQ(written_bytes(s.formula), static_cast<double>(s.bytes));
    }
  }
}

TEST(KvFormula, RecurrentModelsSayTheyHoldNoKvCache) {
  const Shown rwkv = kv_term("rwkv-6-world-1b6", "q4_k_m", Runtime::LlamaCpp);
  EXPECT_EQ(rwkv.formula.rfind("no KV cache: a fixed recurrent state of 24 layers", 0), 0u)
      << rwkv.formula;
  EXPECT_EQ(rwkv.formula.find("K and V"), std::string::npos) << rwkv.formula;
  // Granite 4.0 H-Micro: 4 attention layers of 40, the other 36 Mamba-2.
  const Shown granite = kv_term("granite-4.0-h-micro", "q4_k_m", Runtime::LlamaCpp);
  EXPECT_NE(granite.formula.find("x 4 attention layers x"), std::string::npos) << granite.formula;
  EXPECT_NE(granite.formula.find("state of 36 layers"), std::string::npos) << granite.formula;
}

// Layers that read an earlier layer's cache hold none (Gemma 3n: 15 of 35),
// and windowed layers are named as holding at most their window.
TEST(KvFormula, SharedAndWindowedLayers) {
  const Shown g = kv_term("gemma-3n-e4b", "q4_k_m", Runtime::LlamaCpp);
  EXPECT_NE(g.formula.find("x 20 layers x"), std::string::npos) << g.formula;
  EXPECT_NE(g.formula.find("windowed layers hold at most their window"), std::string::npos)
      << g.formula;
  EXPECT_GE(written_bytes(g.formula), static_cast<double>(g.bytes));
}

}  // namespace
}  // namespace willfit
