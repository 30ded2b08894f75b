// The KV term's --explain arithmetic multiplies out to the figure it
// explains: K and V of the layers that cache them, plus a hybrid's or a
// recurrent model's fixed state. A hybrid's line used to multiply every
// layer's K and V (Granite 4.0 H-Micro: 320 MiB written, 68.9 MiB shown).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <optional>
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

// The sum the line writes before its "=": each part (split on " + " and
// ", plus ") is the product of the numbers in it ("2 (K and V) x 4 layers x
// 8 KV heads x 64 dims x 2 bytes x 4096 tokens"). nullopt for a line that
// writes no product (a layout described in words) or one with a bracketed
// sum (MiniCPM3's K and V widths).
std::optional<double> written_bytes(const std::string& f) {
  const std::string lhs = f.substr(0, f.rfind(" = "));
  if (f.find("(docs/architectures.md)") != std::string::npos ||
      std::regex_search(lhs, std::regex(R"(\([^)]*\+[^)]*\))"))) {
    return std::nullopt;
  }
  double sum = 0;
  static const std::regex split(R"( \+ |, plus )");
  static const std::regex number(R"(\d+(\.\d+)?)");
  for (std::sregex_token_iterator part(lhs.begin(), lhs.end(), split, -1), end; part != end;
       ++part) {
    const std::string p = *part;
    double product = 1;
    bool any = false;
    for (std::sregex_iterator n(p.begin(), p.end(), number), none; n != none; ++n) {
      product *= std::stod(n->str());
      any = true;
    }
    sum += any ? product : 0;
  }
  return sum;
}

// Every catalogue model under llama.cpp and PyTorch: a line that writes a
// product writes the figure; most lines do.
TEST(KvFormula, TheWrittenProductIsTheFigure) {
  int products = 0;
  int described = 0;
  for (const Runtime r : {Runtime::LlamaCpp, Runtime::Transformers}) {
    const char* precision = r == Runtime::LlamaCpp ? "q4_k_m" : "bf16";
    for (const std::string& id : test::catalogue_ids()) {
      const Shown s = kv_term(id.c_str(), precision, r);
      SCOPED_TRACE(id + ": " + s.formula);
      const auto written = written_bytes(s.formula);
      if (!written) {
        ++described;
        continue;
      }
      ++products;
      EXPECT_NEAR(*written, static_cast<double>(s.bytes), 1.0);
    }
  }
  std::printf("[kv formula] %d lines multiply out, %d describe their layout\n", products,
              described);
  EXPECT_GT(products, 9 * described);
  // Hybrids (Mamba-2, gated DeltaNet), recurrent models alone, plain GQA.
  for (const char* model :
       {"granite-4.0-h-micro", "qwen3-next-80b-a3b", "rwkv-6-world-1b6", "mamba-130m",
        "llama-3.1-8b", "lfm2-350m", "gemma-3-27b", "deepseek-v3", "gpt-oss-20b"}) {
    EXPECT_TRUE(written_bytes(kv_term(model, "q4_k_m", Runtime::LlamaCpp).formula)) << model;
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
// and windowed layers are written over their window's cells.
TEST(KvFormula, SharedAndWindowedLayers) {
  const Shown g = kv_term("gemma-3n-e4b", "q4_k_m", Runtime::LlamaCpp);
  EXPECT_NE(g.formula.find("x 4 full layers x"), std::string::npos) << g.formula;
  EXPECT_NE(g.formula.find(" + 2 (K and V) x 16 windowed layers x"), std::string::npos)
      << g.formula;
  const auto written = written_bytes(g.formula);
  ASSERT_TRUE(written.has_value()) << g.formula;
  EXPECT_NEAR(*written, static_cast<double>(g.bytes), 1.0);
}

}  // namespace
}  // namespace willfit
