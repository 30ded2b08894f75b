// Quality per quantisation type: the mean KL divergence of a quantised
// model's next-token distribution from FP16's, as llama.cpp publishes it.
// Pure table lookup; ranks "--precision best" and the suggestions.
#pragma once

#include <optional>
#include <string_view>

namespace willfit {

// Mean KL divergence from FP16 (lower is better; 0 for 16-bit and wider), or
// nullopt for a type without a published figure (MXFP4, TQ1_0, TQ2_0, and
// the non-GGUF formats).
std::optional<double> quant_kld(std::string_view precision_id);

// Where the figures come from, for the answer's words and --help.
inline constexpr std::string_view kQuantKldSource =
    "llama.cpp tools/perplexity/README.md, LLaMA 3 8b scoreboard (revision f364eb6f)";

// From this mean KLD on, a precision costs "a large quality loss": IQ3_XXS
// (0.184), Q3_K_S (0.228) and every 2- and 1-bit type of the scoreboard,
// each at least 4.8x Q4_K_M's 0.031. Such a type changes every token; a
// shorter context changes nothing for a conversation that fits in it. So
// the suggestions rank it after a shorter context that fits (docs/advice.md).
inline constexpr double kLargeQualityLossKld = 0.15;

// What a precision of that KLD costs, in words: "near lossless" ...
// "a large quality loss".
std::string_view quality_cost(double kld);

}  // namespace willfit
