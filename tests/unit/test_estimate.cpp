#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "willfit/inference/estimate.hpp"

namespace willfit {
namespace {

InferenceQuery query(const char* size, const char* precision, const char* device) {
  InferenceQuery q;
  q.model = *model_from_size(*parse_model_size(size));
  q.precision = *parse_precision(precision);
  if (device != nullptr) {
    q.devices.devices.push_back(*raw_device(device));
    q.devices.text = device;
  }
  return q;
}

// The course's arithmetic: 13 B at 16-bit ~ 26 GB of weights, 8-bit ~ 13 GB,
// 4-bit ~ 6.5 GB; 3 B at 8-bit ~ 3 GB before overhead.
TEST(CourseExample, WeightsFollowBitsPerWeight) {
  EXPECT_EQ(estimate_inference(query("13b", "fp16", "80gb")).memory.weights, 26 * kGB);
  EXPECT_EQ(estimate_inference(query("13b", "int8", "80gb")).memory.weights, 13 * kGB);
  EXPECT_EQ(estimate_inference(query("13b", "int4", "80gb")).memory.weights, 6'500'000'000);
  EXPECT_EQ(estimate_inference(query("3b", "int8", "80gb")).memory.weights, 3 * kGB);
}

TEST(CourseExample, ThirteenBillionAtFourBitIsAtOrOverTheEdgeOfAnEightGigabyteCard) {
  const Estimate int4 = estimate_inference(query("13b", "int4", "8gb"));
  const Estimate q4 = estimate_inference(query("13b", "q4", "8gb"));
  // "At or over the edge": within 10 % of the usable memory, or beyond it.
  EXPECT_GT(static_cast<double>(int4.required), 0.9 * static_cast<double>(int4.usable));
  EXPECT_FALSE(q4.fits());
  EXPECT_EQ(q4.verdict, Verdict::NoFit);
}

TEST(CourseExample, SevenBillionAtFourBitFitsEightGigabytesComfortably) {
  const Estimate e = estimate_inference(query("7b", "q4", "8gb"));
  EXPECT_TRUE(e.fits());
  EXPECT_GT(e.headroom, 1 * kGiB);
}

// KV per token for Llama-3.1-8B at f16 is 128 KiB: 1 GiB at 8K
// (inference-estimators.md section 0.3, worked numbers).
TEST(KvCache, GroupedQueryAttention) {
  Architecture a;
  a.layers = 32;
  a.kv_heads = 8;
  a.head_dim = 128;
  EXPECT_EQ(kv_cache_bytes(a, {8192, 1, 512, kv_f16(), kv_f16()}), 1 * kGiB);
  // Llama-2-13B (MHA, 40 x 40 x 128): 3.125 GiB at 4K.
  a.layers = 40;
  a.kv_heads = 40;
  EXPECT_EQ(kv_cache_bytes(a, {4096, 1, 512, kv_f16(), kv_f16()}), 3 * kGiB + kGiB / 8);
}

TEST(KvCache, QuantisedTypesCostTheirBlocks) {
  Architecture a;
  a.layers = 32;
  a.kv_heads = 8;
  a.head_dim = 128;
  const Bytes f16 = kv_cache_bytes(a, {8192, 1, 512, kv_f16(), kv_f16()});
  const KvType q8 = *parse_kv_type("q8_0");
  const KvType q4 = *parse_kv_type("q4_0");
  EXPECT_EQ(kv_cache_bytes(a, {8192, 1, 512, q8, q8}), f16 * 17 / 32);
  EXPECT_EQ(kv_cache_bytes(a, {8192, 1, 512, q4, q4}), f16 * 9 / 32);
}

TEST(KvCache, ContextIsPaddedTo256Cells) {
  EXPECT_EQ(pad_context(35000), 35072);
  EXPECT_EQ(pad_context(4096), 4096);
  EXPECT_EQ(pad_context(1), 256);
}

TEST(KvCache, MlaCachesOneLatentPerToken) {
  Architecture a;  // DeepSeek-V3: 61 layers x 576 x 2 B = 68.6 KiB per token
  a.layers = 61;
  a.heads = 128;
  a.kv_heads = 128;
  a.head_dim = 128;
  a.attention.kind = AttentionKind::Mla;
  a.attention.kv_lora_rank = 512;
  a.attention.qk_rope_head_dim = 64;
  EXPECT_EQ(kv_cache_bytes(a, {4096, 1, 512, kv_f16(), kv_f16()}), 61LL * 576 * 2 * 4096);
}

TEST(KvCache, SlidingWindowLayersHoldTheWindow) {
  Architecture a;  // Gemma-3 style: every 6th layer global, window 1024
  a.layers = 12;
  a.kv_heads = 4;
  a.head_dim = 256;
  a.attention.kind = AttentionKind::Sliding;
  a.attention.sliding_window = 1024;
  a.attention.sliding_pattern = 6;
  const Bytes per_cell_layer = 2LL * 4 * 256 * 2;
  // 2 global layers x 32768 cells + 10 windowed layers x pad(1024 + 512) cells.
  EXPECT_EQ(kv_cache_bytes(a, {32768, 1, 512, kv_f16(), kv_f16()}),
            per_cell_layer * (2 * 32768 + 10 * 1536));
}

TEST(Estimate, MoreOfAnythingNeverNeedsLess) {
  const InferenceQuery base = query("7b", "q4_k_m", "24gb");
  const Bytes need = estimate_inference(base).required;
  InferenceQuery more = base;
  more.context = 8192;
  EXPECT_GT(estimate_inference(more).required, need);
  more = base;
  more.batch = 4;
  EXPECT_GT(estimate_inference(more).required, need);
  more = base;
  more.precision = *parse_precision("q8_0");
  EXPECT_GT(estimate_inference(more).required, need);
}

TEST(Estimate, TotalIsTheSumOfItsParts) {
  const Estimate e = estimate_inference(query("13b", "q4", "8gb"));
  Bytes sum = 0;
  for (const auto& t : e.terms) {
    if (t.placement == Placement::Device) {
      sum += t.bytes;
    }
  }
  EXPECT_EQ(sum, e.required);
  EXPECT_EQ(e.memory.total(), e.required);
  EXPECT_EQ(e.headroom, e.usable - e.required);
}

TEST(Estimate, OffloadNeedsKnownRam) {
  InferenceQuery q = query("13b", "q4", "8gb");
  EXPECT_EQ(estimate_inference(q).verdict, Verdict::NoFit);
  q.ram = 32 * kGiB;
  EXPECT_EQ(estimate_inference(q).verdict, Verdict::Offload);
  q.ram = 256 * kMiB;
  EXPECT_EQ(estimate_inference(q).verdict, Verdict::NoFit);
}

TEST(Estimate, QuantisedVNeedsFlashAttention) {
  InferenceQuery q = query("7b", "q4", "8gb");
  q.kv_type = *parse_kv_type("q8_0");
  q.flash_attention = FlashAttention::Off;
  const Estimate e = estimate_inference(q);
  EXPECT_EQ(e.kv_type_v.id, "f16");
  EXPECT_FALSE(e.warnings.empty());
}

TEST(Estimate, GroupQuantisedWeightsKeepEmbeddingsAt16Bits) {
  const Estimate gptq = estimate_inference(query("7b", "gptq", "24gb"));
  const Estimate int4 = estimate_inference(query("7b", "int4", "24gb"));
  EXPECT_GT(gptq.memory.weights, int4.memory.weights);
}

TEST(Estimate, NoDeviceReportsTheNeedOnly) {
  const Estimate e = estimate_inference(query("7b", "fp16", nullptr));
  EXPECT_FALSE(e.device_known);
  EXPECT_GT(e.required, 14 * kGB);
}

// The words are extra: an estimate asked for Detail::Explained carries every
// number, warning and flag of the plain one, plus a formula and a source on
// every term and the usable-memory rules; the plain one carries no words.
// Queries cover every runtime, several GPUs, a tensor split, offload and MoE.
TEST(Estimate, ExplainedAddsWordsAndChangesNoNumber) {
  std::vector<InferenceQuery> queries;
  for (const Runtime r : all_runtimes()) {
    for (const char* size : {"7b", "13b", "8x7b"}) {
      InferenceQuery q = query(size, "q4", "8gb");
      q.runtime = r;
      queries.push_back(q);
      q.devices.devices.push_back(*raw_device("12gb"));
      q.ram = 64 * kGiB;
      queries.push_back(q);
      q.tensor_split = {1, 3};
      queries.push_back(q);
    }
  }
  queries.push_back(query("70b", "fp16", nullptr));
  for (const InferenceQuery& q : queries) {
    const Estimate plain = estimate_inference(q);
    const Estimate told = estimate_inference(q, Detail::Explained);
    const std::string what = std::string(q.model.name) + " on " +
                             std::to_string(q.devices.count()) + " devices, " +
                             std::string(to_string(plain.runtime));
    EXPECT_EQ(plain.required, told.required) << what;
    EXPECT_EQ(plain.memory.total(), told.memory.total()) << what;
    EXPECT_EQ(plain.usable, told.usable) << what;
    EXPECT_EQ(plain.host, told.host) << what;
    EXPECT_EQ(plain.verdict, told.verdict) << what;
    EXPECT_EQ(plain.warnings, told.warnings) << what;
    EXPECT_EQ(plain.error_band_pct, told.error_band_pct) << what;
    ASSERT_EQ(plain.offload.has_value(), told.offload.has_value()) << what;
    if (plain.offload) {
      EXPECT_EQ(plain.offload->flags, told.offload->flags) << what;
      EXPECT_EQ(plain.offload->host_bytes, told.offload->host_bytes) << what;
      EXPECT_EQ(plain.offload->gpu_active_weight_bytes, told.offload->gpu_active_weight_bytes)
          << what;
    }
    ASSERT_EQ(plain.devices.size(), told.devices.size()) << what;
    for (std::size_t i = 0; i < plain.devices.size(); ++i) {
      EXPECT_EQ(plain.devices[i].layers, told.devices[i].layers) << what;
      EXPECT_EQ(plain.devices[i].total(), told.devices[i].total()) << what;
    }
    ASSERT_EQ(plain.terms.size(), told.terms.size()) << what;
    for (std::size_t i = 0; i < plain.terms.size(); ++i) {
      EXPECT_EQ(plain.terms[i].key, told.terms[i].key) << what;
      EXPECT_EQ(plain.terms[i].bytes, told.terms[i].bytes) << what;
      EXPECT_TRUE(plain.terms[i].formula.empty() && plain.terms[i].source.empty()) << what;
      EXPECT_FALSE(told.terms[i].formula.empty()) << what << " " << told.terms[i].key;
    }
    EXPECT_TRUE(plain.usable_reasons.empty()) << what;
    EXPECT_EQ(told.usable_reasons.empty(), !told.device_known) << what;
  }
}

}  // namespace
}  // namespace willfit
