// Speed, term by term: decode bytes, KV reads, offload tiers, MoE, batch
// roofline, several GPUs, prefill FLOPs and time to first token. Figures are
// worked by hand from the formulas in speed.cpp's essay.
#include <gtest/gtest.h>

#include <cmath>

#include "sources/embedded_data.hpp"
#include "willfit/models/model_db.hpp"
#include "willfit/planner/report.hpp"
#include "willfit/speed/speed.hpp"

namespace willfit {
namespace {

SpeedTier tier(Bytes weights, double gb_per_s, double efficiency = 1.0) {
  SpeedTier t;
  t.label = "test";
  t.weight_bytes = weights;
  t.bandwidth_gb_per_s = gb_per_s;
  t.bandwidth_efficiency = efficiency;
  return t;
}

Model llama2_7b() {
  Model m;
  m.name = "Llama-2-7B";
  m.params = 6'738'415'616;
  m.active_params = m.params;
  m.arch.layers = 32;
  m.arch.hidden_size = 4096;
  m.arch.intermediate_size = 11008;
  m.arch.heads = 32;
  m.arch.kv_heads = 32;
  m.arch.head_dim = 128;
  m.arch.vocab_size = 32000;
  return m;
}

Device gpu(double gb_per_s, double tflops, const char* vendor = "nvidia") {
  Device d;
  d.id = "test-gpu";
  d.name = "Test GPU";
  d.vendor = vendor;
  d.kind = DeviceKind::DiscreteGpu;
  d.memory_bytes = 24 * kGiB;
  d.memory_type = "GDDR6X";
  d.bandwidth_gb_per_s = gb_per_s;
  d.fp16_tflops_dense = tflops;
  d.interconnect.pcie_gen = 4;
  return d;
}

InferenceQuery fit_query(const char* size, const char* precision, std::vector<Device> devices) {
  InferenceQuery q;
  q.model = *model_from_size(*parse_model_size(size));
  q.precision = *parse_precision(precision);
  q.devices.devices = std::move(devices);
  q.devices.text = "test";
  return q;
}

TEST(SpeedDecode, TimePerTokenIsBytesOverEffectiveBandwidth) {
  SpeedQuery q;
  q.tiers = {tier(10 * kGB, 1000, 0.5)};  // 10 GB at 500 GB/s: 20 ms
  const SpeedEstimate e = estimate_speed(q);
  ASSERT_TRUE(e.estimable);
  EXPECT_NEAR(e.decode_tokens_per_s, 50.0, 1e-9);
  EXPECT_NEAR(e.decode_upper_bound_tokens_per_s, 100.0, 1e-9);  // at 100 % of 1000 GB/s
  EXPECT_EQ(e.bound, SpeedBound::Bandwidth);
}

TEST(SpeedDecode, ReadsActiveWeightsWithoutTheEmbeddingTable) {
  const Model m = llama2_7b();
  // 6738415616 - 32000 x 4096 (token embeddings; the untied head stays) params read.
  const double read = 6'738'415'616.0 - 131'072'000.0;
  EXPECT_EQ(decode_weight_bytes(m, 13'476'831'232),
            round_bytes(13'476'831'232.0 * read / 6'738'415'616.0));
  Model tied = m;
  tied.arch.tied_embeddings = true;  // the table is the output head: read whole
  EXPECT_EQ(decode_weight_bytes(tied, 1000), 1000);
  Model unknown;
  unknown.params = 1000;
  EXPECT_EQ(decode_weight_bytes(unknown, 500), 500);  // no architecture: every byte
}

TEST(SpeedDecode, KvCacheReadGrowsWithTheContext) {
  const Model m = llama2_7b();
  // 2 (K, V) x 32 layers x 32 KV heads x 128 x 2 bytes = 524288 bytes per token.
  EXPECT_EQ(kv_read_bytes(m.arch, 1000, kv_f16(), kv_f16()), 524'288'000);
  EXPECT_EQ(kv_read_bytes(m.arch, 0, kv_f16(), kv_f16()), 0);
  SpeedTier t = tier(4 * kGB, 1000);
  t.kv_bytes = 1 * kGB;  // full context: 5 GB per token
  SpeedQuery q;
  q.tiers = {t};
  const SpeedEstimate e = estimate_speed(q);
  EXPECT_NEAR(e.decode_tokens_per_s, 250.0, 1e-9);
  EXPECT_NEAR(e.decode_tokens_per_s_at_context, 200.0, 1e-9);
}

TEST(SpeedDecode, OffloadTiersAreReadOneAfterAnother) {
  SpeedQuery q;
  // 8 GB on a 800 GB/s GPU (10 ms) + 2 GB in 50 GB/s RAM (40 ms) = 50 ms.
  q.tiers = {tier(8 * kGB, 800), tier(2 * kGB, 50)};
  EXPECT_NEAR(estimate_speed(q).decode_tokens_per_s, 20.0, 1e-9);
}

TEST(SpeedDecode, OffloadFromAFitQueryUsesSystemRamBandwidth) {
  InferenceQuery q = fit_query("13b", "q4", {gpu(448, 95)});
  q.devices.devices[0].memory_bytes = 8 * kGiB;
  q.ram = 32 * kGiB;
  const Estimate e = estimate_inference(q);
  ASSERT_EQ(e.verdict, Verdict::Offload);
  // The split is the runtime's offload plan: weights read per token on each side.
  ASSERT_TRUE(e.offload.has_value());
  const OffloadSplit split = offload_split(e);
  EXPECT_EQ(split.host_weights, e.offload->host_active_weight_bytes);
  EXPECT_EQ(split.device_weights, e.offload->gpu_active_weight_bytes);
  EXPECT_GT(split.host_weights, 0);
  EXPECT_GT(split.device_weights, split.host_weights);

  const SpeedEstimate by_default = estimate_speed(q, e, SpeedSettings{});
  ASSERT_TRUE(by_default.estimable);
  ASSERT_EQ(by_default.tiers.size(), 2U);
  EXPECT_EQ(by_default.tiers[1].bandwidth_gb_per_s, kDefaultRamGbPerS);
  EXPECT_EQ(by_default.tiers[1].bandwidth_efficiency, efficiency(SpeedClass::Cpu).bandwidth);
  EXPECT_EQ(by_default.error_band_pct, 50);  // outside the calibrated rows: doubled

  SpeedSettings fast;
  fast.ram_bandwidth_gb_per_s = 89.6;
  const SpeedEstimate faster = estimate_speed(q, e, fast);
  EXPECT_GT(faster.decode_tokens_per_s, by_default.decode_tokens_per_s);
  // Mostly bytes in RAM decide: far below the all-GPU speed.
  InferenceQuery all_gpu = q;
  all_gpu.devices.devices[0].memory_bytes = 24 * kGiB;
  const Estimate fits = estimate_inference(all_gpu);
  EXPECT_GT(estimate_speed(all_gpu, fits, {}).decode_tokens_per_s,
            2 * by_default.decode_tokens_per_s);
}

TEST(SpeedDecode, OffloadWithoutRamRunsIfRamHoldsTheHostPart) {
  InferenceQuery q = fit_query("13b", "q4", {gpu(448, 95)});
  q.devices.devices[0].memory_bytes = 8 * kGiB;
  const Estimate unknown = estimate_inference(q);  // no --ram: "does not fit", plan drawn
  ASSERT_EQ(unknown.verdict, Verdict::NoFit);
  ASSERT_TRUE(unknown.offload.has_value());
  ASSERT_FALSE(unknown.offload->ram_holds.has_value());
  const SpeedEstimate s = estimate_speed(q, unknown, {});
  ASSERT_TRUE(s.estimable) << s.reason;
  ASSERT_TRUE(s.ram_assumed_bytes.has_value());
  EXPECT_EQ(*s.ram_assumed_bytes, unknown.offload->host_bytes);
  EXPECT_NE(s.notes.front().find("if system RAM holds"), std::string::npos);

  // The same plan with enough RAM stated runs at the same speed.
  q.ram = 64 * kGiB;
  const Estimate stated = estimate_inference(q);
  ASSERT_EQ(stated.verdict, Verdict::Offload);
  EXPECT_DOUBLE_EQ(estimate_speed(q, stated, {}).decode_tokens_per_s, s.decode_tokens_per_s);

  // RAM too small: nothing runs, and the reason says where it fell short.
  q.ram = 1 * kGiB;
  const SpeedEstimate none = estimate_speed(q, estimate_inference(q), {});
  EXPECT_FALSE(none.estimable);
  EXPECT_NE(none.reason.find("system RAM"), std::string::npos);
}

TEST(SpeedBatch, VllmServesTheSequencesItsCacheHolds) {
  InferenceQuery q = fit_query("8b", "fp16", {gpu(1008, 165)});
  q.runtime = Runtime::Vllm;
  q.batch = 64;
  q.context = 8192;
  const Estimate e = estimate_inference(q);
  // The batch is a ceiling (runtime.cpp vllm): what the cache holds runs.
  ASSERT_EQ(e.verdict, Verdict::Fits);
  ASSERT_TRUE(e.vllm.has_value());
  ASSERT_GE(e.vllm->max_concurrency, 1.0);
  const SpeedEstimate s = estimate_speed(q, e, {});
  ASSERT_TRUE(s.estimable) << s.reason;
  EXPECT_EQ(s.batch_requested, 64);
  EXPECT_EQ(s.batch, static_cast<int>(e.vllm->max_concurrency));
  EXPECT_LT(s.batch, 64);
}

TEST(SpeedMultiGpu, VllmIsTensorParallelForSpeedAsForMemory) {
  Device h = gpu(3350, 990);
  h.memory_type = "HBM3";
  h.memory_bytes = 80 * kGiB;
  h.interconnect.nvlink_gb_per_s = 900;
  InferenceQuery q = fit_query("70b", "fp16", {h, h, h, h});
  q.runtime = Runtime::Vllm;
  const Estimate e = estimate_inference(q);
  ASSERT_TRUE(e.fits());
  const SpeedEstimate tp = estimate_speed(q, e, {});
  ASSERT_TRUE(tp.estimable);
  EXPECT_EQ(tp.tensor_parallel, 4);
  ASSERT_EQ(tp.tiers.size(), 1U);  // one device's quarter, read by all four at once
  // Four devices read a quarter each: faster than one device reading it all
  // (the bound without all-reduces), and slower than that bound.
  const double one_device = 1.0 / (static_cast<double>(tp.tiers[0].weight_bytes) /
                                   (3350e9 * kTensorParallelBandwidthEfficiency));
  EXPECT_LT(tp.decode_tokens_per_s, one_device);
  EXPECT_GT(tp.decode_tokens_per_s, 0.7 * one_device);
  // llama.cpp on the same devices splits by layer: no faster than one device.
  q.runtime = Runtime::LlamaCpp;
  const SpeedEstimate layer = estimate_speed(q, estimate_inference(q), {});
  EXPECT_GT(tp.decode_tokens_per_s, 3 * layer.decode_tokens_per_s);
}

TEST(SpeedDecode, UnifiedMemoryReadsOffloadedLayersAtTheDeviceBandwidth) {
  Device mac = gpu(400, 13.5, "apple");
  mac.kind = DeviceKind::Unified;
  mac.memory_bytes = 8 * kGiB;
  InferenceQuery q = fit_query("13b", "q4", {mac});
  q.ram = 32 * kGiB;
  const Estimate e = estimate_inference(q);
  ASSERT_EQ(e.verdict, Verdict::Offload);
  const SpeedEstimate s = estimate_speed(q, e, {});
  ASSERT_EQ(s.tiers.size(), 2U);
  EXPECT_EQ(s.tiers[1].bandwidth_gb_per_s, 400);
  EXPECT_EQ(s.tiers[1].bandwidth_efficiency, efficiency(SpeedClass::Apple).bandwidth);
}

TEST(SpeedDecode, MixtureOfExpertsReadsOnlyActiveExperts) {
  Device big = gpu(1000, 300);
  big.memory_bytes = 96 * kGiB;
  const InferenceQuery moe = fit_query("8x7b", "q4", {big});
  const InferenceQuery dense = fit_query("47b", "q4", {big});
  ASSERT_LT(moe.model.active_params, moe.model.params / 3);
  const SpeedEstimate a = estimate_speed(moe, estimate_inference(moe), {});
  const SpeedEstimate b = estimate_speed(dense, estimate_inference(dense), {});
  ASSERT_TRUE(a.estimable);
  // Reads about active/total of the weights: well over twice as fast.
  EXPECT_GT(a.decode_tokens_per_s, 2.5 * b.decode_tokens_per_s);
  EXPECT_LT(static_cast<double>(a.tiers[0].weight_bytes),
            0.35 * static_cast<double>(estimate_inference(moe).memory.weights));
}

// gpt-oss-20b's shape (config.json of openai/gpt-oss-20b: 24 layers, hidden
// 2880, 32 experts of 2880, 4 per token, 64 query heads of 64, 8 KV heads,
// vocabulary 201088, head not tied).
Model gpt_oss_20b_shape() {
  Model m;
  m.name = "gpt-oss-20b";
  m.arch.layers = 24;
  m.arch.hidden_size = 2880;
  m.arch.intermediate_size = 2880;
  m.arch.heads = 64;
  m.arch.kv_heads = 8;
  m.arch.head_dim = 64;
  m.arch.vocab_size = 201088;
  Moe moe;
  moe.experts = 32;
  moe.experts_per_token = 4;
  moe.expert_intermediate_size = 2880;
  m.arch.moe = moe;
  const ParamBreakdown p = count_params(m.arch);
  m.params = p.total();
  m.active_params = p.active();
  return m;
}

// llama.cpp's build_moe_ffn at a batch of one: router, softmax, argsort,
// get_rows, sum_rows, div, three mul_mat_id, GLU, mul, k - 1 adds (10 + k
// nodes) in place of a dense MLP's 4; shared experts add their MLP and an add.
TEST(SpeedMoe, RoutedLayersAddSixPlusKGraphNodes) {
  Architecture a = gpt_oss_20b_shape().arch;
  EXPECT_EQ(moe_extra_nodes_per_layer(a), 10);
  a.moe->experts_per_token = 8;
  EXPECT_EQ(moe_extra_nodes_per_layer(a), 14);
  a.moe->shared_experts = 1;
  EXPECT_EQ(moe_extra_nodes_per_layer(a), 19);
  EXPECT_EQ(moe_extra_nodes_per_layer(llama2_7b().arch), 0);
}

// MXFP4_MOE keeps the experts in MXFP4 (4.25 bits) and every other matrix in
// Q8_0 (8.5 bits). A token reads the attention (24 x 2880 x (4096 + 2 x 512 +
// 4096) = 637 M weights) and the head (201088 x 2880 = 579 M) at Q8_0, 1.29
// GB, and 4 of 32 experts (24 x 4 x 3 x 2880^2 = 2.39 G weights) at MXFP4,
// 1.27 GB: about 2.56 GB, where active / total parameters x the file gives
// 2.1 GB (1.7 GB with the model card's 3.6 B active).
TEST(SpeedMoe, ExpertsNarrowerThanTheRestAreReadClassByClass) {
  const Model m = gpt_oss_20b_shape();
  const Precision mxfp4 = *parse_precision("mxfp4");
  const Bytes file = weight_bytes(m, mxfp4);
  const TokenCosts by_class = token_costs(m, mxfp4, file, 0);
  const TokenCosts by_ratio = token_costs(m, file, 0);
  EXPECT_NEAR(static_cast<double>(by_class.weight_bytes), 2.56e9, 0.05e9);
  EXPECT_GT(static_cast<double>(by_class.weight_bytes),
            1.2 * static_cast<double>(by_ratio.weight_bytes));
  // FLOPs follow the weights read, not the bytes.
  EXPECT_NEAR(by_class.flops_per_weight_byte * static_cast<double>(by_class.weight_bytes),
              by_ratio.flops_per_weight_byte * static_cast<double>(by_ratio.weight_bytes), 1e3);
  // A dense model reads what it did.
  const Model dense = llama2_7b();
  EXPECT_EQ(token_costs(dense, mxfp4, 3'822'520'893, 0).weight_bytes,
            token_costs(dense, 3'822'520'893, 0).weight_bytes);
}

// Routing's nodes cost node_time_s() each on top of the bytes: on an NVIDIA
// card gpt-oss-20b's 24 layers x 10 nodes add 240 x 2.84 us = 0.68 ms a
// token; and the step takes at least its bytes at the datasheet bandwidth
// plus all 24 x 19 + 4 + 240 = 700 nodes x 2.84 us (the node floor), which
// binds for this model; vLLM (one fused MoE kernel) adds none.
TEST(SpeedMoe, RoutingNodesAddFixedTimePerToken) {
  InferenceQuery q;
  q.model = gpt_oss_20b_shape();
  q.precision = *parse_precision("mxfp4");
  q.devices.devices = {gpu(1000, 300)};
  q.devices.text = "test";
  q.context = 512;
  const Estimate e = estimate_inference(q);
  const SpeedEstimate s = estimate_speed(q, e, {});
  ASSERT_TRUE(s.estimable) << s.reason;
  EXPECT_NEAR(s.routing_s, 240 * node_time_s(SpeedClass::Nvidia), 1e-9);
  EXPECT_NEAR(s.tiers[0].fixed_s, 0.68e-3, 0.01e-3);
  const double bytes_s = static_cast<double>(s.tiers[0].weight_bytes) / (1000e9 * 0.69);
  const double floor_s =
      static_cast<double>(s.tiers[0].weight_bytes) / 1000e9 + 700 * node_time_s(SpeedClass::Nvidia);
  EXPECT_GT(floor_s, bytes_s + s.routing_s);
  EXPECT_NEAR(1.0 / s.decode_tokens_per_s, floor_s, 1e-7);
  // The upper bound is the bytes at the datasheet bandwidth alone.
  EXPECT_NEAR(1.0 / s.decode_upper_bound_tokens_per_s,
              static_cast<double>(s.tiers[0].weight_bytes) / 1000e9, 1e-7);
  q.runtime = Runtime::Vllm;
  const SpeedEstimate v = estimate_speed(q, estimate_inference(q), {});
  ASSERT_TRUE(v.estimable) << v.reason;
  EXPECT_EQ(v.routing_s, 0.0);
}

// Prefill of a mixture of experts: a micro-batch reads every expert one of
// its tokens is routed to, 1 - (1 - k/E)^u of them for u tokens; with the
// maths nearly free, the time is those reads. One token reads k of E (what
// decode reads); 512 tokens of 4-of-128 routing touch nearly all 128.
TEST(SpeedPrefill, AMicroBatchReadsEveryExpertItsTokensTouch) {
  SpeedQuery q;
  SpeedTier t;
  t.weight_bytes = 2'000'000'000;  // per token: 1.5 GB dense + 4/128 of 16 GB of experts
  t.expert_bytes = 16'000'000'000;
  t.expert_share = 4.0 / 128.0;
  t.bandwidth_gb_per_s = 100;
  t.bandwidth_efficiency = 1.0;
  t.tflops = 1e6;  // the maths take no time
  t.compute_efficiency = 1.0;
  q.tiers = {t};
  q.flops_per_weight_byte = 2.0;
  q.ubatch = 512;
  q.context = 512;
  const double touched = 1.0 - std::pow(1.0 - 4.0 / 128.0, 512.0);
  EXPECT_GT(touched, 0.99);
  EXPECT_NEAR(*estimate_speed(q).time_to_first_token_s, (1.5e9 + 16e9 * touched) / 100e9, 1e-6);
  q.context = 1;
  EXPECT_NEAR(*estimate_speed(q).time_to_first_token_s, 2e9 / 100e9, 1e-6);
  // A dense model with a real peak stays compute-bound at 512 tokens.
  q.tiers.front().expert_bytes = 0;
  q.tiers.front().expert_share = 0;
  q.tiers.front().tflops = 100;
  q.context = 512;
  EXPECT_NEAR(*estimate_speed(q).time_to_first_token_s, 512 * 2e9 * 2.0 / 100e12, 1e-6);
}

TEST(SpeedBatch, ThroughputGrowsWithTheBatchUntilComputeBound) {
  SpeedTier t = tier(10 * kGB, 1000);  // 10 ms per step from memory
  t.tflops = 100;                      // 100 TFLOPS at 100 %
  t.compute_efficiency = 1.0;
  SpeedQuery q;
  q.tiers = {t};
  q.flops_per_weight_byte = 2.0;  // 20 GFLOPs per token: 0.2 ms of compute each
  q.batch = 8;
  SpeedEstimate e = estimate_speed(q);
  EXPECT_NEAR(e.batch_tokens_per_s, 800.0, 1e-6);  // 8 tokens per 10 ms step
  EXPECT_EQ(e.bound, SpeedBound::Bandwidth);
  q.batch = 100;  // 20 ms of compute > 10 ms of memory: 100 tokens per 20 ms
  e = estimate_speed(q);
  EXPECT_NEAR(e.batch_tokens_per_s, 5000.0, 1e-6);
  EXPECT_EQ(e.bound, SpeedBound::Compute);
  EXPECT_NEAR(e.decode_tokens_per_s, 100.0, 1e-6);  // one sequence still reads 10 GB
}

TEST(SpeedMultiGpu, LayerSplitRunsDevicesInSequence) {
  const InferenceQuery one = fit_query("7b", "q4", {gpu(1000, 300)});
  const InferenceQuery two = fit_query("7b", "q4", {gpu(1000, 300), gpu(1000, 300)});
  const SpeedEstimate a = estimate_speed(one, estimate_inference(one), {});
  const SpeedEstimate b = estimate_speed(two, estimate_inference(two), {});
  ASSERT_EQ(b.tiers.size(), 2U);
  EXPECT_NEAR(static_cast<double>(b.tiers[0].weight_bytes + b.tiers[1].weight_bytes),
              static_cast<double>(a.tiers[0].weight_bytes), 1.0);  // each share rounded
  EXPECT_NEAR(b.decode_tokens_per_s, a.decode_tokens_per_s, 1e-3 * a.decode_tokens_per_s);
}

TEST(SpeedMultiGpu, TensorParallelDividesBytesAndPaysTheInterconnect) {
  SpeedQuery q;
  q.tiers = {tier(5 * kGB, 1000)};  // one device's half of 10 GB: 5 ms
  q.tensor_parallel.devices = 2;
  q.tensor_parallel.layers = 10;
  q.tensor_parallel.hidden_size = 1000;
  q.tensor_parallel.link_gb_per_s = 1.0;  // PCIe class, no vocabulary: no logits gather
  // 1 + 2 x 10 all-reduces of 1000 x 2 B. NCCL's model on 2 PCIe devices (2
  // ring steps): LL 6.6 + 2 x 1.0 us + 2000 B / (1 GB/s x 2 / 2 / 4) = 16.6 us;
  // Simple 8.4 + 2 x 5.7 us + 2000 B / 1 GB/s = 21.8 us. LL wins: 21 x 16.6 us.
  EXPECT_NEAR(1.0 / estimate_speed(q).decode_tokens_per_s, 5e-3 + 21 * 16.6e-6, 1e-9);

  InferenceQuery two = fit_query("70b", "fp16", {gpu(2000, 300), gpu(2000, 300)});
  two.devices.devices[0].memory_bytes = 80 * kGiB;
  two.devices.devices[1].memory_bytes = 80 * kGiB;
  const Estimate e = estimate_inference(two);
  SpeedSettings tensor;
  tensor.split = SplitMode::Tensor;
  const SpeedEstimate layer_split = estimate_speed(two, e, {});
  const SpeedEstimate parallel = estimate_speed(two, e, tensor);
  EXPECT_GT(parallel.decode_tokens_per_s, 1.2 * layer_split.decode_tokens_per_s);
  EXPECT_LT(parallel.decode_tokens_per_s, 2.0 * layer_split.decode_tokens_per_s);
}

TEST(SpeedPrefill, TwoFlopsPerWeightPlusAttention) {
  SpeedTier t = tier(1 * kGB, 1000);
  t.tflops = 1.0;  // 1e12 FLOP/s
  t.compute_efficiency = 1.0;
  SpeedQuery q;
  q.tiers = {t};
  q.flops_per_weight_byte = 2.0;           // 2 GFLOPs per token from weights
  q.attention_flops_per_position = 1.0e6;  // 4 x layers x heads x head_dim
  q.context = 1000;                        // + 1e6 x 1000 / 2 = 0.5 GFLOPs per token
  const SpeedEstimate e = estimate_speed(q);
  ASSERT_TRUE(e.prefill_tokens_per_s);
  EXPECT_NEAR(*e.prefill_tokens_per_s, 1e12 / 2.5e9, 1e-6);
  EXPECT_NEAR(*e.time_to_first_token_s, 1000 * 2.5e9 / 1e12, 1e-9);
}

TEST(SpeedPrefill, TokenCostsCountReadParamsAndAttentionWidth) {
  const Model m = llama2_7b();
  const TokenCosts c = token_costs(m, 13'476'831'232, 0);
  EXPECT_NEAR(c.flops_per_weight_byte * static_cast<double>(c.weight_bytes),
              2.0 * (6'738'415'616.0 - 131'072'000.0), 1e4);
  EXPECT_EQ(c.attention_flops_per_position, 4.0 * 32 * 32 * 128);
}

TEST(SpeedPrefill, OffloadedLayersCrossPcieOncePerMicroBatch) {
  SpeedTier g = tier(1 * kGB, 1000);
  g.tflops = 1000.0;
  g.compute_efficiency = 1.0;
  SpeedTier host = tier(4 * kGB, 50);
  host.prefill_link_gb_per_s = 32.0;  // PCIe 4.0 x16
  SpeedQuery q;
  q.tiers = {g, host};
  q.flops_per_weight_byte = 2.0;
  q.context = 1024;  // two micro-batches of 512
  const SpeedEstimate e = estimate_speed(q);
  // compute 1024 x 10 GFLOPs / 1e15 = 10.24 ms; copies 2 x 4 GB / 32 GB/s = 250 ms.
  EXPECT_NEAR(*e.time_to_first_token_s, 0.01024 + 0.25, 1e-9);
}

// --n-cpu-moe: the host holds all E experts of its blocks. A micro-batch of
// 512 tokens with 8 of 256 experts a token touches 1 - (31/32)^512 of them
// (all but 1e-7), and llama.cpp copies those over PCIe, not the k of E a
// token reads (ggml-backend.cpp, ggml_backend_sched_compute_splits).
TEST(SpeedPrefill, HostExpertsTouchedByAMicroBatchCrossTheLink) {
  SpeedTier g = tier(1 * kGB, 1000);
  g.tflops = 1e6;  // the GPU's maths: negligible here
  g.compute_efficiency = 1.0;
  SpeedTier host = tier(1 * kGB, 50, 0.5);  // 0.5 GB dense + 16 GB / 32 of experts
  host.expert_bytes = 16 * kGB;
  host.expert_share = 8.0 / 256.0;
  host.prefill_link_gb_per_s = 16.0;  // PCIe 4.0 x8
  SpeedQuery q;
  q.tiers = {g, host};
  q.flops_per_weight_byte = 2.0;
  q.ubatch = 512;
  q.context = 1024;  // two micro-batches of 512
  const double touched = 1.0 - std::pow(31.0 / 32.0, 512);
  const double copy_s = 2 * (0.5e9 + 16e9 * touched) / 16e9;  // about 2.06 s
  const double gpu_reads_s =
      2 * 1e9 / 1000e9;  // its own 1 GB, per micro-batch (and ~2 us of maths)
  EXPECT_NEAR(*estimate_speed(q).time_to_first_token_s, copy_s + gpu_reads_s, 1e-5);

  // A micro-batch under 32 tokens stays on the CPU: it reads the experts its
  // 16 tokens touch from RAM (50 GB/s x 0.5), no copy.
  q.context = 16;
  const double cpu_s = (0.5e9 + 16e9 * (1.0 - std::pow(31.0 / 32.0, 16))) / 25e9;
  EXPECT_NEAR(*estimate_speed(q).time_to_first_token_s, cpu_s + 1e9 / 1000e9, 1e-5);
}

// The link is the card's own PCIe: its generation and the lanes its bus
// states (devices.json interconnect.bus, "PCIe 4.0 x8").
TEST(SpeedPrefill, TheLinkIsTheCardsPcieLanes) {
  // The same MoE with its experts in RAM on an x8 and an x16 card of one
  // generation: the copy, which dominates, takes twice as long on x8.
  InferenceQuery q = fit_query("7b", "q4_k_m", {gpu(448, 1e6)});
  q.model = ModelDb::parse(app::embedded_models_json(), "embedded")
                ->find("qwen3-30b-a3b")
                ->entry->model;  // 48 blocks of 128 experts, 8 a token
  q.devices.devices[0].memory_bytes = 8 * kGiB;
  q.ram = 64 * kGiB;
  q.n_cpu_moe = q.model.arch.layers;
  q.devices.devices[0].interconnect.bus = "PCIe 4.0 x16";
  const Estimate e16 = estimate_inference(q);
  ASSERT_TRUE(e16.offload);
  const double x16 = *estimate_speed(q, e16, {}).time_to_first_token_s;
  q.devices.devices[0].interconnect.bus = "PCIe 4.0 x8";
  const double x8 = *estimate_speed(q, estimate_inference(q), {}).time_to_first_token_s;
  EXPECT_NEAR(x8 / x16, 2.0, 0.1);
}

TEST(SpeedQueryFor, SaysWhyItCannotEstimate) {
  InferenceQuery none = fit_query("7b", "q4", {});
  EXPECT_FALSE(estimate_speed(none, estimate_inference(none), {}).estimable);

  InferenceQuery raw = fit_query("7b", "q4", {*raw_device("8gb")});
  const SpeedEstimate r = estimate_speed(raw, estimate_inference(raw), {});
  EXPECT_FALSE(r.estimable);
  EXPECT_NE(r.reason.find("--bandwidth"), std::string::npos);

  InferenceQuery too_big = fit_query("70b", "fp16", {gpu(1000, 300)});
  const SpeedEstimate n = estimate_speed(too_big, estimate_inference(too_big), {});
  EXPECT_FALSE(n.estimable);
  EXPECT_NE(n.reason.find("does not fit"), std::string::npos);

  raw.devices.devices[0].bandwidth_gb_per_s = 500;  // --bandwidth
  const SpeedEstimate with = estimate_speed(raw, estimate_inference(raw), {});
  EXPECT_TRUE(with.estimable);
  EXPECT_FALSE(with.prefill_tokens_per_s);  // no --tflops: no prefill
  EXPECT_LE(with.decode_tokens_per_s, with.decode_upper_bound_tokens_per_s);
}

TEST(SpeedClassOf, DevicesFallIntoTheirMeasuredClass) {
  Device d = gpu(1000, 300);
  EXPECT_EQ(speed_class(d), SpeedClass::Nvidia);
  d.memory_type = "HBM3";
  EXPECT_EQ(speed_class(d), SpeedClass::Hbm);
  EXPECT_EQ(speed_class(gpu(960, 120, "amd")), SpeedClass::Amd);
  EXPECT_EQ(speed_class(gpu(400, 13, "apple")), SpeedClass::Apple);
  EXPECT_EQ(speed_class(gpu(456, 100, "intel")), SpeedClass::Intel);
  EXPECT_EQ(speed_class(*raw_device("8gb")), SpeedClass::Other);
  d.fp16_tflops_dense.reset();
  d.fp32_tflops = 20;
  EXPECT_EQ(peak_tflops(d), 20);
}

TEST(SpeedReport, FitReportCarriesTheSpeed) {
  const InferenceQuery q = fit_query("7b", "q4", {gpu(1008, 330)});
  const FitReport r = make_fit_report(q);
  ASSERT_TRUE(r.speed.estimable);
  EXPECT_GT(r.speed.decode_tokens_per_s, 50);
  EXPECT_LT(r.speed.decode_tokens_per_s, 200);
}

}  // namespace
}  // namespace willfit
