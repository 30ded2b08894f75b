// Answers in reverse: the largest model, the longest context, the largest
// batch and the best precision that fit a set of devices. Each is a search
// over the one estimator (estimate_inference); no formula of its own. Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "willfit/inference/estimate.hpp"

namespace willfit {

// The largest bare model size (a multiple of 10 M parameters, the inferred
// architecture of model_from_size) that fits whole on the query's devices at
// its precision, context, batch and runtime; 0 when not even 100 M fits or
// no device is given. Binary search: the need grows with the size.
std::int64_t max_params(const InferenceQuery& query, Margin margin = Margin::Fits);

// The largest batch (concurrent sequences, up to 4096) that fits at the
// query's context; 0 when not even one does.
int max_batch(const InferenceQuery& query, Margin margin = Margin::Fits);

// The precisions "--precision best" chooses from, highest quality first: the
// GGUF types with a published quality figure and FP16/BF16 for llama.cpp,
// Ollama and generic (the default when no runtime is named), by mean KL
// divergence from FP16 (quality.hpp), else the formats those engines load
// (FP16, BF16, FP8, INT8, GPTQ, AWQ, NF4...) by bits per weight. FP32 is left out: it buys no
// quality over 16-bit for inference and only doubles the weights.
std::vector<Precision> precision_candidates(std::optional<Runtime> runtime);

// A model named by an Ollama tag and run by Ollama (`runtime`) is a package
// of Ollama's library, and another precision is a choice only if `ollama
// pull` can fetch it: where the catalogue records the quantisations the
// library's tags page publishes for the model (`ollama_tags`, model_db.hpp
// ollama_tag_for: llama3.1:8b has q2_K to q8_0 and fp16, qwen3:8b only
// q4_K_M, q8_0 and fp16), those; elsewhere q4_K_M, q8_0 and fp16, which the
// library publishes for each size of its models, and a tag the user named.
// An IQ3_M GGUF has no tag there. True for such a precision; false for any other
// model or runtime. The one rule for the suggestions and `max -p best`.
bool outside_ollama_library(const InferenceQuery& q, Runtime runtime, const Precision& p);

// The first of `candidates` (highest quality first) whose estimate fits;
// nullopt when none does. A query without a runtime is asked of llama.cpp.
std::optional<Precision> best_precision(const InferenceQuery& query,
                                        const std::vector<Precision>& candidates,
                                        Margin margin = Margin::Fits);

// `willfit max`: what was asked and what was found. Without a model: the
// largest size; with one: the longest context (at the query's batch) and the
// largest batch (at the query's context); with --precision best, both at the
// best precision that fits. Null (nullopt) where not asked.
struct MaxQuestion {
  InferenceQuery query;  // query.model is ignored unless model_given
  bool model_given = false;
  bool best_precision = false;
};

struct MaxAnswer {
  std::optional<std::int64_t> params;          // 0: not even 100 M fits
  std::optional<std::int64_t> context_tokens;  // 0: not even 256 tokens fit
  std::optional<int> batch;                    // 0: not even one sequence fits
  std::optional<Precision> precision;          // --precision best, when one fits
  bool precision_asked = false;
  // The longest context is the model's trained length (max_position_embeddings):
  // what caps it is the model, not memory.
  bool context_at_trained_length = false;
  // Issue 16, a verdict that knows its error: the same answers with
  // Margin::Clear, i.e. the largest whose headroom exceeds the estimate's
  // error band. Below the answer above when that one is tight; set where the
  // answer above is. `precision` is the best that clears the band when one
  // does (longest_fitting_context's rule); `precision_tight`: none does, and
  // the best that fits is within the band at the query's context and batch;
  // `error_band_pct` is the band
  // of the estimate at the size, the longest context or (--precision best)
  // the query's context; `batch_error_band_pct` at the largest batch.
  std::optional<std::int64_t> params_clear;
  std::optional<std::int64_t> context_tokens_clear;
  std::optional<int> batch_clear;
  bool precision_tight = false;
  std::optional<Precision> precision_clear;  // null: `precision` clears, or none does
  double error_band_pct = 0;
  double batch_error_band_pct = 0;
  Runtime runtime = Runtime::LlamaCpp;  // the runtime the search asked
  Precision used;                       // the precision the sizes are for
  [[nodiscard]] bool found() const;     // something fits
};

MaxAnswer plan_max(const MaxQuestion& question);

// What a quantised precision would answer where `willfit max` was asked at a
// 16-bit one (the default without -p): without a model, the largest size at
// the runtime's common 4-bit precision (Q4_K_M for llama.cpp, Ollama and no
// runtime named, INT4 for MLX, NF4 else GPTQ for transformers, AWQ else
// GPTQ for vLLM; one the runtime loads and runs on the devices); with a
// model that fits at no context, the precision --precision best finds.
struct MaxHint {
  Precision precision;                         // the -p that answers: the 4-bit one, or -p best's
  Runtime runtime = Runtime::LlamaCpp;         // the runtime it answers under
  bool other_runtime = false;                  // no runtime named: a GGUF on llama.cpp
  bool best = false;                           // found by --precision best (a model was given)
  Precision try_precision;                     // the runtime's 4-bit precision
  std::optional<std::int64_t> params;          // without a model: the largest at it
  std::optional<std::int64_t> context_tokens;  // with one: -p best's longest context
};
// nullopt where the precision asked is already below 16 bits, --precision
// best was asked, the model is a file (its bytes are what they are), or the
// quantised answer is no better.
std::optional<MaxHint> max_hint(const MaxQuestion& question, const MaxAnswer& answer);

}  // namespace willfit
