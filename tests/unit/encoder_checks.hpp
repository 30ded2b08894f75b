// Test helpers for llama.cpp's BERT-family encoders (no KV cache): the
// estimate of an F16 file under llama.cpp, and the check that two readings
// of one encoder (its config.json and its GGUF) give one answer. For tests
// only.
#pragma once

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/model.hpp"

namespace willfit::test {

inline Estimate encoder_f16_estimate(const Model& m, std::int64_t context, bool flash = false) {
  InferenceQuery q;
  q.model = m;
  q.precision = *parse_precision("f16");
  q.runtime = Runtime::LlamaCpp;
  q.context = context;
  q.flash_attention = flash ? FlashAttention::On : FlashAttention::Off;
  return estimate_inference(q);
}

// Two readings of one model: no KV cache in either, one compute buffer,
// with and without flash attention, at a short and the full context.
inline void expect_same_encoder_estimate(const Model& a, const Model& b, const std::string& what) {
  EXPECT_EQ(a.arch.mlp_gated, b.arch.mlp_gated) << what;
  EXPECT_EQ(a.arch.attention.alibi, b.arch.attention.alibi) << what;
  EXPECT_EQ(a.arch.attention.post_norm, b.arch.attention.post_norm) << what;
  for (const std::int64_t ctx : {std::int64_t{512}, std::int64_t{8192}}) {
    for (const bool flash : {false, true}) {
      const Estimate x = encoder_f16_estimate(a, ctx, flash);
      const Estimate y = encoder_f16_estimate(b, ctx, flash);
      EXPECT_EQ(x.memory.kv_cache, 0) << what << " at " << ctx;
      EXPECT_EQ(y.memory.kv_cache, 0) << what << " at " << ctx;
      EXPECT_EQ(x.memory.compute, y.memory.compute) << what << " at " << ctx << ' ' << flash;
    }
  }
}

}  // namespace willfit::test
