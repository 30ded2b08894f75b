// Mean KL divergence from FP16 per GGUF type, Llama-3-8B on Wikitext-2,
// CUDA on an RTX 4090: the "LLaMA 3 8b Scoreboard" of ggml-org/llama.cpp
// tools/perplexity/README.md (revision f364eb6f). K-quants and legacy types
// are the rows quantised without an importance matrix ("None"), as most
// published files of them are; the i-quants need one, so theirs are the "WT
// 10m" rows. One model's figures: other models lose more or less (the same
// page shows Llama-2-7B losing 2-4x less at each type), but the ORDER of the
// types is what willfit uses, and it is the same on both.
// tests/data/quant_quality.csv holds the same rows with their source, and
// Quality.TableMatchesThePublishedRows checks every figure here against it.
#include "willfit/core/quality.hpp"

#include <array>
#include <utility>

namespace willfit {
namespace {

constexpr std::array<std::pair<std::string_view, double>, 32> kKld{{
    {"fp32", 0.0},        {"f32", 0.0},          {"fp16", 0.0},         {"f16", 0.0},
    {"bf16", 0.0},        {"q8_0", 0.001355},    {"q6_k", 0.005452},    {"q5_k_m", 0.010762},
    {"q5_k_s", 0.016595}, {"q5_1", 0.018045},    {"q5_0", 0.022239},    {"q4_k_m", 0.031273},
    {"q4_k_s", 0.043136}, {"iq4_nl", 0.035742},  {"iq4_xs", 0.036334},  {"q4_1", 0.071683},
    {"q4_0", 0.071940},   {"q3_k_l", 0.087176},  {"q3_k_m", 0.101913},  {"iq3_m", 0.102534},
    {"iq3_s", 0.111278},  {"iq3_xs", 0.138693},  {"iq3_xxs", 0.183625}, {"q3_k_s", 0.228217},
    {"q2_k", 0.445132},   {"iq2_xs", 0.546290},  {"iq2_m", 0.325989},   {"q2_k_s", 0.403360},
    {"iq2_s", 0.439197},  {"iq2_xxs", 0.812022}, {"iq1_m", 1.393084},   {"iq1_s", 2.254554},
}};

}  // namespace

std::optional<double> quant_kld(std::string_view id) {
  for (const auto& [name, kld] : kKld) {
    if (name == id) {
      return kld;
    }
  }
  return std::nullopt;
}

std::string_view quality_cost(double kld) {
  if (kld < 0.002) {
    return "near lossless";
  }
  if (kld < 0.015) {
    return "a very small quality loss";
  }
  if (kld < 0.05) {
    return "a small quality loss";
  }
  if (kld < kLargeQualityLossKld) {
    return "a noticeable quality loss";
  }
  return "a large quality loss";
}

}  // namespace willfit
