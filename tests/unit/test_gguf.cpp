#include <random>

#include <gtest/gtest.h>

#include "unit/model_file_writers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/inference/runtime.hpp"
#include "willfit/models/gguf.hpp"

namespace willfit {
namespace {

using test::GgufWriter;

GgufFile read_ok(const std::string& bytes) {
  auto r = read_gguf(bytes, bytes.size());
  EXPECT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->file.has_value());
  return *r->file;
}

std::string read_error(const std::string& bytes, std::uint64_t file_size) {
  auto r = read_gguf(bytes, file_size);
  if (r.ok()) {
    ADD_FAILURE() << "expected an error, got " << (r->file ? "a file" : "a request for more");
    return "";
  }
  EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
  return r.error().message;
}

// Tensor bytes from ggml's block layouts: Q4_K 144 bytes per 256 values,
// Q6_K 210 per 256, F32 4 per value (inference-estimators.md section 0.1).
TEST(Gguf, ReadsVersion3HeaderWithExactTensorBytes) {
  std::uint64_t bytes = 0;
  std::uint64_t params = 0;
  const std::string file = test::tiny_llama(3, &bytes, &params).file();
  const GgufFile f = read_ok(file);
  EXPECT_EQ(f.version, 3U);
  EXPECT_EQ(f.architecture(), "llama");
  EXPECT_EQ(f.tensors.size(), 21U);
  // token_embd.weight: 256 x 1000 Q4_K = 1000 blocks x 144 bytes.
  EXPECT_EQ(f.tensors[0].bytes, 144000);
  // output.weight: 256 x 1000 Q6_K = 1000 blocks x 210 bytes.
  EXPECT_EQ(f.tensors[2].bytes, 210000);
  EXPECT_EQ(f.weight_bytes, 1107152);
  EXPECT_EQ(static_cast<std::uint64_t>(f.weight_bytes), bytes);
  EXPECT_EQ(static_cast<std::uint64_t>(f.params), params);
  EXPECT_EQ(f.find("tokenizer.ggml.tokens")->count, 1000U);
}

TEST(Gguf, ReadsVersion2) {
  const GgufFile f = read_ok(test::tiny_llama(2).file());
  EXPECT_EQ(f.version, 2U);
  EXPECT_EQ(f.weight_bytes, 1107152);
}

TEST(Gguf, ModelCarriesArchitectureMixAndFileType) {
  const GgufFile f = read_ok(test::tiny_llama(3).file());
  auto m = model_from_gguf(f, "tiny");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->name, "Tiny Llama Test");
  EXPECT_EQ(m->source, FactSource::Gguf);
  EXPECT_EQ(m->arch.layers, 2);
  EXPECT_EQ(m->arch.hidden_size, 256);
  EXPECT_EQ(m->arch.intermediate_size, 512);
  EXPECT_EQ(m->arch.heads, 4);
  EXPECT_EQ(m->arch.kv_heads, 2);
  EXPECT_EQ(m->arch.head_dim, 64);  // no key_length: 256 / 4
  EXPECT_EQ(m->arch.vocab_size, 1000);
  EXPECT_EQ(m->arch.max_context, 4096);
  EXPECT_FALSE(m->arch.tied_embeddings);
  EXPECT_EQ(m->file_weight_bytes, 1107152);
  EXPECT_EQ(m->precision_hint, "q4_k_m");
  ASSERT_EQ(m->weight_mix.size(), 3U);
  EXPECT_EQ(m->weight_mix[0].type, "Q4_K");
  EXPECT_EQ(m->weight_mix[0].bytes, 623232);
  EXPECT_EQ(m->weight_mix[0].tensors, 11);
  EXPECT_EQ(m->weight_mix[1].type, "Q6_K");
  EXPECT_EQ(m->weight_mix[1].bytes, 478800);
  EXPECT_EQ(m->weight_mix[2].type, "F32");
  EXPECT_EQ(m->weight_mix[2].bytes, 5120);
}

TEST(Gguf, NoOutputTensorMeansTiedEmbeddings) {
  const GgufFile f = read_ok(test::tiny_llama(3, nullptr, nullptr, true).file());
  EXPECT_TRUE(model_from_gguf(f, "tiny")->arch.tied_embeddings);
}

TEST(Gguf, AsksForMoreBytesThenSucceeds) {
  const std::string file = test::tiny_llama(3).file();
  std::uint64_t have = 64;
  int rounds = 0;
  for (;;) {
    auto r = read_gguf(std::string_view(file).substr(0, have), file.size());
    ASSERT_TRUE(r.ok()) << r.error().message;
    if (r->file) {
      EXPECT_EQ(r->file->weight_bytes, 1107152);
      break;
    }
    EXPECT_GT(r->need, have);
    EXPECT_LE(r->need, file.size());
    have = r->need;
    ASSERT_LT(++rounds, 100000);
  }
  EXPECT_GT(rounds, 1);
}

TEST(Gguf, EstimatesTheHeadersEndFromTheVocabularyBeingRead) {
  // 50,000 tokens of 10 bytes (18 with the length): the header ends near 900 kB.
  GgufWriter w = test::tiny_llama(3);
  std::vector<std::string> tokens;
  for (int i = 0; i < 50000; ++i) {
    tokens.push_back("tok" + std::to_string(1000000 + i));
  }
  w.str_array("tokenizer.ggml.merges", tokens);
  const std::string header = w.header();
  auto r = read_gguf(std::string_view(header).substr(0, 100000), header.size() + (1 << 30));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_FALSE(r->file);
  EXPECT_GE(r->estimate, r->need);
  // Within a few per cent of the real end (the tensor table after it is small).
  const auto real = static_cast<double>(header.size());
  EXPECT_NEAR(static_cast<double>(r->estimate), real, 0.05 * real);
  // Outside a string array there is no estimate beyond the need.
  r = read_gguf(std::string_view(header).substr(0, 20), header.size());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->estimate, r->need);
}

TEST(Gguf, MixtureOfExperts) {
  GgufWriter w;
  w.str("general.architecture", "qwen3moe");
  w.u32("qwen3moe.block_count", 1);
  w.u32("qwen3moe.embedding_length", 256);
  w.u32("qwen3moe.attention.head_count", 4);
  w.u32("qwen3moe.attention.head_count_kv", 1);
  w.u32("qwen3moe.attention.key_length", 128);
  w.u32("qwen3moe.expert_count", 8);
  w.u32("qwen3moe.expert_used_count", 2);
  w.u32("qwen3moe.expert_feed_forward_length", 256);
  w.u32("qwen3moe.vocab_size", 512);
  w.tensor("token_embd.weight", {256, 512}, test::kQ8_0);
  w.tensor("blk.0.ffn_gate_exps.weight", {256, 256, 8}, test::kQ8_0);
  w.tensor("blk.0.ffn_up_exps.weight", {256, 256, 8}, test::kQ8_0);
  w.tensor("blk.0.ffn_down_exps.weight", {256, 256, 8}, test::kQ8_0);
  auto m = model_from_gguf(read_ok(w.file()), "moe");
  ASSERT_TRUE(m.ok()) << m.error().message;
  ASSERT_TRUE(m->is_moe());
  EXPECT_EQ(m->arch.moe->experts, 8);
  EXPECT_EQ(m->arch.moe->experts_per_token, 2);
  EXPECT_EQ(m->arch.moe->expert_intermediate_size, 256);
  EXPECT_EQ(m->arch.vocab_size, 512);
  EXPECT_EQ(m->arch.head_dim, 128);
  EXPECT_TRUE(m->arch.tied_embeddings);
  // All experts are in the file; 2 of 8 are active: 3 x 256 x 256 x 6 values idle.
  EXPECT_EQ(m->params, 256 * 512 + 3 * 256 * 256 * 8);
  EXPECT_EQ(m->active_params, m->params - 3 * 256 * 256 * 6);
}

// A hybrid file's head: `arch`, 256 wide, 4 heads, a 100-token vocabulary,
// and these KV heads per layer (0: a recurrent or MLP-only layer).
GgufWriter hybrid_file(const std::string& arch, const std::vector<std::uint32_t>& kv_heads) {
  GgufWriter w;
  w.str("general.architecture", arch);
  w.u32(arch + ".block_count", static_cast<std::uint32_t>(kv_heads.size()));
  w.u32(arch + ".embedding_length", 256);
  w.u32(arch + ".attention.head_count", 4);
  w.u32_array(arch + ".attention.head_count_kv", kv_heads);
  w.u32(arch + ".vocab_size", 100);
  return w;
}

// The ssm.* keys llama.cpp's converters write for Mamba-2 mixers and gated
// delta nets alike.
void ssm_keys(GgufWriter& w, const std::string& arch, std::uint32_t conv, std::uint32_t inner,
              std::uint32_t state, std::uint32_t groups, std::uint32_t time_step_rank) {
  w.u32(arch + ".ssm.conv_kernel", conv);
  w.u32(arch + ".ssm.inner_size", inner);
  w.u32(arch + ".ssm.state_size", state);
  w.u32(arch + ".ssm.group_count", groups);
  w.u32(arch + ".ssm.time_step_rank", time_step_rank);
}

TEST(Gguf, PerLayerKvHeadsMarkRecurrentLayers) {
  GgufWriter w = hybrid_file("jamba", {0, 0, 0, 2});
  w.tensor("token_embd.weight", {256, 100}, test::kF16);
  auto m = model_from_gguf(read_ok(w.file()), "hybrid");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->arch.attention.kind, AttentionKind::Hybrid);
  EXPECT_EQ(m->arch.attention.attention_layers, 1);
  EXPECT_EQ(m->arch.kv_heads, 2);
}

// Nemotron-H's blocks are Mamba-2, attention or MLP alone (convert_hf_to_gguf
// writes 0 KV heads and 0 MLP width where a block has neither); llama.cpp
// (nemotron-h.cpp) keeps a recurrent state only where both are 0. The live
// run of NVIDIA-Nemotron-Nano-9B-v2 (docs/live-llamacpp.md) logged 27
// recurrent layers of its 56 (M-M-M-MM-...: 27 M, 4 *, 25 -).
TEST(Gguf, NemotronHMlpBlocksKeepNoState) {
  GgufWriter w = hybrid_file("nemotron_h", {0, 0, 2, 0, 0});  // M - * - M
  w.u32_array("nemotron_h.feed_forward_length", {0, 1024, 0, 1024, 0});
  w.tensor("token_embd.weight", {256, 100}, test::kF16);
  auto m = model_from_gguf(read_ok(w.file()), "nemotron");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->arch.attention.kind, AttentionKind::Hybrid);
  EXPECT_EQ(m->arch.attention.attention_layers, 1);
  EXPECT_EQ(recurrent_layer_count(m->arch), 2);
  EXPECT_EQ(mlp_layer_count(m->arch), 2);
  EXPECT_EQ(m->arch.attention.layer_mixers, "RFAFR");  // the MLP-only blocks are 'F'
  EXPECT_EQ(m->arch.attention.mamba, 0);               // no ssm.* keys: no mixer to replay
}

// Nemotron-H's Mamba-2 shape as nemotron-h.cpp load_arch_hparams reads it
// (heads ssm.time_step_rank, channels ssm.inner_size, groups, state,
// convolution), for the replay of its blocks; nemotron_h_moe's blocks too.
TEST(Gguf, NemotronHNamesItsMamba2Blocks) {
  const auto nemotron = [](const std::string& arch) {
    GgufWriter w = hybrid_file(arch, {0, 0, 2, 0, 0});  // M - * - M
    w.u32_array(arch + ".feed_forward_length", {0, 1024, 0, 1024, 0});
    ssm_keys(w, arch, 4, 512, 64, 2, 8);
    w.tensor("token_embd.weight", {256, 100}, test::kF16);
    return w;
  };
  auto m = model_from_gguf(read_ok(nemotron("nemotron_h").file()), "nemotron");
  ASSERT_TRUE(m.ok()) << m.error().message;
  const Attention& a = m->arch.attention;
  EXPECT_EQ(a.layer_mixers, "RFAFR");
  EXPECT_EQ(a.mamba, 2);
  EXPECT_EQ(a.ssm_heads, 8);
  EXPECT_EQ(a.ssm_inner, 512);
  EXPECT_EQ(a.ssm_groups, 2);
  EXPECT_EQ(a.ssm_state, 64);
  EXPECT_EQ(a.ssm_conv, 4);
  EXPECT_EQ(a.recurrent_state_floats, 3 * (512 + 2 * 2 * 64) + 64 * 512);
  // A GGUF names no mamba_ssm_cache_dtype: vLLM's float32 default for the
  // scan state (NemotronHForCausalLMConfig).
  EXPECT_EQ(a.vllm_f32_state_floats, 64 * 512);
  EXPECT_FALSE(m->arch.mlp_gated);  // up, squared ReLU, down (build_ffn_layer: no gate)
  auto moe = model_from_gguf(read_ok(nemotron("nemotron_h_moe").file()), "nemotron-moe");
  ASSERT_TRUE(moe.ok()) << moe.error().message;
  EXPECT_EQ(moe->arch.attention.layer_mixers, "RFAFR");
  EXPECT_EQ(moe->arch.attention.mamba, 2);
}

// Qwen3-Next-style hybrid (qwen3next in llama.cpp): 3 gated-delta-net layers
// per full-attention layer, ssm.conv_kernel 4, ssm.inner_size 4096,
// ssm.state_size 128, ssm.group_count 16. The recurrent state per layer and
// sequence is 3 x (4096 + 2 x 16 x 128) + 128 x 4096 floats, the figure the
// Qwen3.5 load log in tests/data/llamacpp_buffers.csv works out to
// (KvCacheHybrid.RecurrentStateIsFixedPerSequence).
TEST(Gguf, HybridModelsCarryTheirRecurrentState) {
  GgufWriter w = hybrid_file("qwen3next", {0, 0, 0, 2});
  w.u32("qwen3next.ssm.conv_kernel", 4);
  w.u32("qwen3next.ssm.inner_size", 4096);
  w.u32("qwen3next.ssm.state_size", 128);
  w.u32("qwen3next.ssm.group_count", 16);
  w.tensor("token_embd.weight", {256, 100}, test::kF16);
  auto m = model_from_gguf(read_ok(w.file()), "hybrid");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->arch.attention.kind, AttentionKind::Hybrid);
  EXPECT_EQ(m->arch.attention.recurrent_state_floats, 3 * 8192 + 32 * 128 * 128);
}

// Jamba's Mamba-1 layers as conversion/jamba.py writes them (llama.cpp
// 80fb11ac): ssm.conv_kernel 4, ssm.inner_size 8192, ssm.state_size 16 and no
// group count (Mamba-1 has no groups; llama.cpp's ssm_n_group stays 0), so
// the convolution window holds d_inner values only: 3 x 8192 + 16 x 8192
// floats a layer (llama-hparams.cpp n_embd_r, n_embd_s). The live run of
// AI21-Jamba-1.5-Mini (docs/live-llamacpp.md) logged the 28 Mamba layers'
// RS buffer at 28 x 155648 x 4 bytes = 16.62 MiB.
TEST(Gguf, JambaMamba1StateHasNoGroups) {
  GgufWriter w = hybrid_file("jamba", {0, 0, 0, 0, 8, 0, 0, 0});
  w.u32("jamba.ssm.conv_kernel", 4);
  w.u32("jamba.ssm.inner_size", 8192);
  w.u32("jamba.ssm.state_size", 16);
  w.u32("jamba.ssm.time_step_rank", 256);
  w.tensor("token_embd.weight", {256, 100}, test::kF16);
  w.u32("jamba.expert_count", 16);
  w.u32("jamba.expert_used_count", 2);
  for (const int i : {1, 3, 5, 7}) {  // routers on the odd layers (expert_layer_period 2)
    w.tensor("blk." + std::to_string(i) + ".ffn_gate_inp.weight", {256, 16}, test::kF16);
  }
  auto m = model_from_gguf(read_ok(w.file()), "jamba");
  ASSERT_TRUE(m.ok()) << m.error().message;
  const Attention& a = m->arch.attention;
  EXPECT_EQ(a.kind, AttentionKind::Hybrid);
  EXPECT_EQ(a.layer_mixers, "RRRRARRR");
  EXPECT_EQ(a.recurrent_state_floats, 3 * 8192 + 16 * 8192);
  // The Mamba-1 mixer the allocator replay builds, dt_rank 256 (ssm.time_step_rank).
  EXPECT_EQ(a.mamba, 1);
  EXPECT_EQ(a.ssm_inner, 8192);
  EXPECT_EQ(a.ssm_state, 16);
  EXPECT_EQ(a.ssm_heads, 256);
  EXPECT_EQ(a.ssm_groups, 0);
  // No key names the MoE step; the routers' layers do.
  ASSERT_TRUE(m->arch.moe.has_value());
  EXPECT_EQ(m->arch.moe->layer_step, 2);
  EXPECT_EQ(moe_layer_count(m->arch), 4);
}

// Granite 4.0 H as conversion/granite.py writes it: Mamba-2 (ssm.group_count
// 1, ssm.time_step_rank = its 48 heads) beside attention without RoPE
// (rope.scaling.finetuned false). The same arch with RoPE (Bamba) keeps the
// closed form: the replay's Granite graph has no RoPE.
TEST(Gguf, GraniteHybridNamesItsMamba2Mixer) {
  const auto granite = [](bool rope) {
    GgufWriter w = hybrid_file("granitehybrid", {0, 0, 0, 0, 0, 4, 0, 0});
    ssm_keys(w, "granitehybrid", 4, 3072, 128, 1, 48);
    w.boolean("granitehybrid.rope.scaling.finetuned", rope);
    w.tensor("token_embd.weight", {256, 100}, test::kF16);
    return w;
  };
  auto m = model_from_gguf(read_ok(granite(false).file()), "granite");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->arch.attention.mamba, 2);
  EXPECT_EQ(m->arch.attention.ssm_heads, 48);
  EXPECT_EQ(m->arch.attention.ssm_groups, 1);
  EXPECT_EQ(m->arch.attention.recurrent_state_floats, 3 * (3072 + 2 * 128) + 128 * 3072);
  auto bamba = model_from_gguf(read_ok(granite(true).file()), "bamba");
  ASSERT_TRUE(bamba.ok()) << bamba.error().message;
  EXPECT_EQ(bamba->arch.attention.mamba, 0);
}

// Qwen3-Next as conversion/qwen.py writes it (llama.cpp 80fb11ac): one KV
// head count for every layer and full_attention_interval 4; the gated delta
// net's key heads are ssm.group_count, its value heads ssm.time_step_rank,
// both of ssm.state_size (qwen3next.cpp load_arch_tensors), which the
// allocator replay needs for its graph.
TEST(Gguf, Qwen3NextNamesItsDeltaNetLayersAndHeads) {
  GgufWriter w;
  w.str("general.architecture", "qwen3next");
  w.u32("qwen3next.block_count", 8);
  w.u32("qwen3next.embedding_length", 256);
  w.u32("qwen3next.attention.head_count", 4);
  w.u32("qwen3next.attention.head_count_kv", 2);
  w.u32("qwen3next.vocab_size", 100);
  w.u32("qwen3next.full_attention_interval", 4);
  ssm_keys(w, "qwen3next", 4, 4096, 128, 16, 32);
  w.tensor("token_embd.weight", {256, 100}, test::kF16);
  auto m = model_from_gguf(read_ok(w.file()), "qwen3next");
  ASSERT_TRUE(m.ok()) << m.error().message;
  const Attention& a = m->arch.attention;
  EXPECT_EQ(a.kind, AttentionKind::Hybrid);
  EXPECT_EQ(a.attention_layers, 2);
  EXPECT_EQ(a.layer_mixers, "RRRARRRA");
  EXPECT_EQ(a.delta_net_k_heads, 16);
  EXPECT_EQ(a.delta_net_v_heads, 32);
  EXPECT_EQ(a.delta_net_head_dim, 128);
  EXPECT_EQ(a.delta_net_conv, 4);
  EXPECT_EQ(a.recurrent_state_floats, 3 * 8192 + 32 * 128 * 128);
}

TEST(Gguf, SlidingWindowWithTheArchitecturesLayerPattern) {
  GgufWriter w;
  w.str("general.architecture", "gemma3");
  w.u32("gemma3.block_count", 12);
  w.u32("gemma3.embedding_length", 256);
  w.u32("gemma3.attention.head_count", 4);
  w.u32("gemma3.attention.head_count_kv", 1);
  w.u32("gemma3.context_length", 131072);
  w.u32("gemma3.attention.sliding_window", 1024);
  w.u32("gemma3.vocab_size", 100);
  w.tensor("token_embd.weight", {256, 100}, test::kF16);
  auto m = model_from_gguf(read_ok(w.file()), "gemma");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->arch.attention.kind, AttentionKind::Sliding);
  EXPECT_EQ(m->arch.attention.sliding_window, 1024);
  EXPECT_EQ(m->arch.attention.sliding_pattern, 6);  // llama.cpp: 5 local layers, then 1 global
}

TEST(Gguf, UnknownWindowPatternIsChargedAsFullAttention) {
  GgufWriter w;
  w.str("general.architecture", "phi3");
  w.u32("phi3.block_count", 2);
  w.u32("phi3.embedding_length", 256);
  w.u32("phi3.attention.head_count", 4);
  w.u32("phi3.context_length", 4096);
  w.u32("phi3.attention.sliding_window", 2047);
  w.u32("phi3.vocab_size", 100);
  w.tensor("token_embd.weight", {256, 100}, test::kF16);
  auto m = model_from_gguf(read_ok(w.file()), "phi");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->arch.attention.kind, AttentionKind::Full);
}

TEST(Gguf, MultiHeadLatentAttention) {
  GgufWriter w;
  w.str("general.architecture", "deepseek2");
  w.u32("deepseek2.block_count", 2);
  w.u32("deepseek2.embedding_length", 256);
  w.u32("deepseek2.attention.head_count", 4);
  w.u32("deepseek2.attention.head_count_kv", 4);
  w.u32("deepseek2.attention.kv_lora_rank", 512);
  w.u32("deepseek2.attention.q_lora_rank", 1536);
  w.u32("deepseek2.attention.key_length", 192);
  w.u32("deepseek2.attention.value_length", 128);
  w.u32("deepseek2.rope.dimension_count", 64);
  w.u32("deepseek2.vocab_size", 100);
  w.tensor("token_embd.weight", {256, 100}, test::kF16);
  auto m = model_from_gguf(read_ok(w.file()), "mla");
  ASSERT_TRUE(m.ok());
  const Attention& a = m->arch.attention;
  EXPECT_EQ(a.kind, AttentionKind::Mla);
  EXPECT_EQ(a.kv_lora_rank, 512);
  EXPECT_EQ(a.qk_rope_head_dim, 64);
  EXPECT_EQ(a.qk_nope_head_dim, 128);
  EXPECT_EQ(a.v_head_dim, 128);
  EXPECT_EQ(a.q_lora_rank, 1536);
}

TEST(Gguf, EveryTruncationIsAnError) {
  const std::string file = test::tiny_llama(3).file();
  // A file cut anywhere, header or data, is refused with one line.
  for (std::size_t n = 0; n < file.size(); n += (n < 3000 ? 1 : 499)) {
    auto r = read_gguf(std::string_view(file).substr(0, n), n);
    ASSERT_FALSE(r.ok()) << "cut at " << n;
  }
}

TEST(Gguf, MissingDataIsNamed) {
  const std::string file = test::tiny_llama(3).file();
  const std::string cut = file.substr(0, file.size() - 100);
  EXPECT_NE(read_error(cut, cut.size()).find("extends past the end of the file"),
            std::string::npos);
}

TEST(Gguf, HostileCountsAreRefused) {
  {
    GgufWriter w;
    w.str("general.architecture", "llama");
    w.override_counts(std::uint64_t{1} << 60, 1);
    EXPECT_NE(read_error(w.file(), w.file().size()).find("tensor count"), std::string::npos);
  }
  {
    GgufWriter w;
    w.override_counts(0, std::uint64_t{1} << 62);
    EXPECT_NE(read_error(w.file(), w.file().size()).find("metadata count"), std::string::npos);
  }
  {
    // A string claiming 2^40 bytes in a file of a few hundred.
    GgufWriter w;
    std::string s;
    test::put<std::uint64_t>(s, std::uint64_t{1} << 40);
    s += "abc";
    w.raw("general.name", 8, s);
    EXPECT_NE(read_error(w.file(), w.file().size()).find("more than the file holds"),
              std::string::npos);
  }
  {
    // An array of 2^62 uint32 values.
    GgufWriter w;
    std::string s;
    test::put<std::uint32_t>(s, 4);
    test::put<std::uint64_t>(s, std::uint64_t{1} << 62);
    w.raw("llama.attention.head_count", 9, s);
    EXPECT_NE(read_error(w.file(), w.file().size()).find("cannot fit"), std::string::npos);
  }
  {
    // A key length of 2^63.
    std::string f = "GGUF";
    test::put<std::uint32_t>(f, 3);
    test::put<std::uint64_t>(f, 0);
    test::put<std::uint64_t>(f, 1);
    test::put<std::uint64_t>(f, std::uint64_t{1} << 63);
    f += "xxxxxxxxxxxxxxxxxxxx";
    EXPECT_FALSE(read_gguf(f, f.size()).ok());
  }
}

TEST(Gguf, DeeplyNestedArraysAreRefused) {
  GgufWriter w;
  std::string s;
  for (int i = 0; i < 100; ++i) {
    test::put<std::uint32_t>(s, 9);  // array of arrays
    test::put<std::uint64_t>(s, 1);
  }
  test::put<std::uint32_t>(s, 4);
  test::put<std::uint64_t>(s, 0);
  // raw() writes the outer type (array); its body starts with an element type.
  w.raw("deep", 9, s);
  EXPECT_NE(read_error(w.file(), w.file().size()).find("nested"), std::string::npos);
}

TEST(Gguf, BadTensorEntriesAreRefused) {
  auto with_tensor = [](std::uint32_t dims, std::vector<std::uint64_t> shape, std::uint32_t type) {
    GgufWriter w;
    std::string t;
    test::put_string(t, "bad.weight");
    test::put<std::uint32_t>(t, dims);
    for (auto d : shape) {
      test::put<std::uint64_t>(t, d);
    }
    test::put<std::uint32_t>(t, type);
    test::put<std::uint64_t>(t, 0);
    w.raw_tensor_bytes(t, 1);
    return w.file() + std::string(4096, '\0');
  };
  const auto five_dims = with_tensor(5, {1, 1, 1, 1, 1}, 0);
  EXPECT_NE(read_error(five_dims, five_dims.size()).find("dimensions"), std::string::npos);
  const auto unknown = with_tensor(1, {32}, 99);
  EXPECT_NE(read_error(unknown, unknown.size()).find("unknown ggml type 99"), std::string::npos);
  const auto overflow = with_tensor(2, {std::uint64_t{1} << 40, std::uint64_t{1} << 40}, 0);
  EXPECT_NE(read_error(overflow, overflow.size()).find("impossible shape"), std::string::npos);
  const auto partial_block = with_tensor(1, {100}, 12);  // Q4_K rows are multiples of 256
  EXPECT_NE(read_error(partial_block, partial_block.size()).find("whole number"),
            std::string::npos);
  const auto zero = with_tensor(1, {0}, 0);
  EXPECT_FALSE(read_gguf(zero, zero.size()).ok());
}

TEST(Gguf, WrongMagicVersionAndEndiannessAreNamed) {
  EXPECT_NE(read_error("GGML\3\0\0\0", 8).find("not a GGUF file"), std::string::npos);
  std::string v1 = "GGUF";
  test::put<std::uint32_t>(v1, 1);
  v1 += std::string(16, '\0');
  EXPECT_NE(read_error(v1, v1.size()).find("version 1"), std::string::npos);
  std::string be = "GGUF";
  test::put<std::uint32_t>(be, 0x03000000U);
  be += std::string(16, '\0');
  EXPECT_NE(read_error(be, be.size()).find("big-endian"), std::string::npos);
  std::string v9 = "GGUF";
  test::put<std::uint32_t>(v9, 9);
  v9 += std::string(16, '\0');
  EXPECT_NE(read_error(v9, v9.size()).find("version 9"), std::string::npos);
}

TEST(Gguf, BadAlignmentIsRefused) {
  GgufWriter w = test::tiny_llama(3);
  w.u32("general.alignment", 48);
  EXPECT_NE(read_error(w.file(), w.file().size()).find("alignment"), std::string::npos);
}

TEST(Gguf, MissingArchitectureKeysAreNamed) {
  GgufWriter w;
  w.str("general.architecture", "llama");
  w.u32("llama.block_count", 2);
  auto m = model_from_gguf(read_ok(w.file()), "x");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("llama.embedding_length"), std::string::npos);
  GgufWriter clip;
  clip.str("general.architecture", "clip");
  EXPECT_NE(model_from_gguf(read_ok(clip.file()), "x").error().message.find("mmproj"),
            std::string::npos);
}

// Random corruption never crashes or hangs the reader (run under the asan
// preset to catch out-of-bounds reads).
TEST(Gguf, CorruptedBytesNeverCrash) {
  const std::string good = test::tiny_llama(3).file();
  std::mt19937 rng(12345);
  std::uniform_int_distribution<std::size_t> pos(0, 12000);
  std::uniform_int_distribution<int> byte(0, 255);
  int errors = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string bad = good;
    for (int k = 0; k < 4; ++k) {
      bad[pos(rng) % bad.size()] = static_cast<char>(byte(rng));
    }
    auto r = read_gguf(bad, bad.size());
    if (!r.ok()) {
      ++errors;
    } else if (r->file) {
      (void)model_from_gguf(*r->file, "fuzz");
    }
  }
  EXPECT_GT(errors, 0);
}

// A GGUF without general.file_type (many converters leave it out): an
// 8-block Llama (width 256, 4 heads on 1 KV head, MLP 512, vocabulary 1000)
// whose tensor types are chosen per tensor by `type_of(name, layer)`.
using test::TestType;
constexpr TestType kQ5_K{13, 256, 176};  // ggml.c type traits: block_q5_K
constexpr TestType kBF16{30, 1, 2};

template <class TypeOf>
GgufFile table_only_llama(TypeOf type_of) {
  GgufWriter w(3);
  w.str("general.architecture", "llama");
  w.u32("llama.block_count", 8);
  w.u32("llama.context_length", 4096);
  w.u32("llama.embedding_length", 256);
  w.u32("llama.feed_forward_length", 512);
  w.u32("llama.attention.head_count", 4);
  w.u32("llama.attention.head_count_kv", 1);
  w.str_array("tokenizer.ggml.tokens", std::vector<std::string>(1000, "t"));
  w.tensor("token_embd.weight", {256, 1000}, type_of("token_embd", -1));
  w.tensor("output_norm.weight", {256}, test::kF32);
  w.tensor("output.weight", {256, 1000}, type_of("output", -1));
  for (int b = 0; b < 8; ++b) {
    const std::string p = "blk." + std::to_string(b) + ".";
    w.tensor(p + "attn_norm.weight", {256}, test::kF32);
    w.tensor(p + "attn_q.weight", {256, 256}, type_of("attn_q", b));
    w.tensor(p + "attn_k.weight", {256, 64}, type_of("attn_k", b));
    w.tensor(p + "attn_v.weight", {256, 64}, type_of("attn_v", b));
    w.tensor(p + "attn_output.weight", {256, 256}, type_of("attn_output", b));
    w.tensor(p + "ffn_norm.weight", {256}, test::kF32);
    w.tensor(p + "ffn_gate.weight", {256, 512}, type_of("ffn_gate", b));
    w.tensor(p + "ffn_up.weight", {256, 512}, type_of("ffn_up", b));
    w.tensor(p + "ffn_down.weight", {512, 256}, type_of("ffn_down", b));
  }
  return read_ok(w.file());
}

Model table_only_model(const GgufFile& f) {
  auto m = model_from_gguf(f, "table-only.gguf");
  EXPECT_TRUE(m.ok()) << m.error().message;
  return m.ok() ? *m : Model{};
}

// llama-quant.cpp (llama.cpp 80fb11ac, llama_tensor_get_type): use_more_bits
// picks layers i < n/8, i >= 7n/8 and (i - n/8) % 3 == 2: of 8, layers 0, 3,
// 6 and 7. Q4_K_M: the output Q6_K, attn_v and ffn_down Q6_K in those
// layers, Q4_K elsewhere. Q4_K_S: the output Q6_K, attn_v Q5_K in layers
// i < 4, ffn_down Q5_K in layers i < n/8 (layer 0), Q4_K elsewhere.
bool more_bits(int i) {
  return i < 1 || i >= 7 || (i - 1) % 3 == 2;
}

TEST(Gguf, WithoutFileTypeTheRecipeNamesTheMix) {
  const Model q4_k_m = table_only_model(table_only_llama([](const std::string& n, int i) {
    if (n == "output" || ((n == "attn_v" || n == "ffn_down") && more_bits(i))) {
      return test::kQ6_K;
    }
    return test::kQ4_K;
  }));
  EXPECT_EQ(q4_k_m.precision_hint, "q4_k_m");
  EXPECT_NE(q4_k_m.precision_hint_why.find("no general.file_type"), std::string::npos);
  const Model q4_k_s = table_only_model(table_only_llama([](const std::string& n, int i) {
    if (n == "output") {
      return test::kQ6_K;
    }
    if ((n == "attn_v" && i < 4) || (n == "ffn_down" && i < 1)) {
      return kQ5_K;
    }
    return test::kQ4_K;
  }));
  EXPECT_EQ(q4_k_s.precision_hint, "q4_k_s");
  const Model q8 =
      table_only_model(table_only_llama([](const std::string&, int) { return test::kQ8_0; }));
  EXPECT_EQ(q8.precision_hint, "q8_0");
}

TEST(Gguf, WithoutFileTypeMostlyOneTypeIsNamedSoAndRunsOnLlamaCpp) {
  // Q8_0 with a Q6_K output head and F16 embeddings: no recipe, mostly Q8_0.
  const Model q8 = table_only_model(table_only_llama([](const std::string& n, int) {
    return n == "output" ? test::kQ6_K : n == "token_embd" ? test::kF16 : test::kQ8_0;
  }));
  EXPECT_EQ(q8.precision_hint, "q8_0");
  EXPECT_NE(q8.precision_hint_why.find("mostly Q8_0"), std::string::npos) << q8.precision_hint_why;
  // Every weight Q4_K, the output head too: no recipe keeps the head at
  // Q4_K, and no precision is that one block type: its bits per weight,
  // and still a llama.cpp file.
  const Model q4 =
      table_only_model(table_only_llama([](const std::string&, int) { return test::kQ4_K; }));
  EXPECT_TRUE(q4.precision_hint.ends_with("bpw")) << q4.precision_hint;
  EXPECT_NE(q4.precision_hint_why.find("mostly Q4_K"), std::string::npos);
  const auto bpw = parse_precision(q4.precision_hint);
  ASSERT_TRUE(bpw.ok());
  EXPECT_FALSE(bpw->gguf);
  EXPECT_EQ(default_runtime(q4, *bpw, {}), Runtime::LlamaCpp);
  EXPECT_EQ(default_runtime(*bpw, {}), Runtime::Transformers);  // the same width, no file
  // A BF16 GGUF: bf16 is no GGUF precision name, but the file is llama.cpp's.
  const Model bf16 =
      table_only_model(table_only_llama([](const std::string&, int) { return kBF16; }));
  EXPECT_EQ(bf16.precision_hint, "bf16");
  EXPECT_EQ(default_runtime(bf16, *parse_precision("bf16"), {}), Runtime::LlamaCpp);
}

TEST(Gguf, TypeNames) {
  EXPECT_EQ(ggml_type_name(12), "Q4_K");
  EXPECT_EQ(ggml_type_name(39), "MXFP4");
  EXPECT_EQ(ggml_type_name(1000), "");
  EXPECT_EQ(gguf_file_type_name(15), "Q4_K_M");
  EXPECT_EQ(gguf_file_type_name(38), "MXFP4_MOE");
  EXPECT_EQ(gguf_file_type_name(4), "");
}

}  // namespace
}  // namespace willfit

namespace willfit {
namespace {

// Whether the MLP is gated comes from the tensors llama.cpp creates, not the
// architecture's name: gpt2.cpp, falcon.cpp, starcoder2.cpp and arcee.cpp
// create ffn_up and ffn_down only; llama.cpp a ffn_gate beside them; phi3.cpp
// one ffn_up of 2 n_ff (gate and up fused, LLM_FFN_SWIGLU).
Model mlp_model(const std::string& arch, std::uint64_t up_width, bool gate) {
  test::GgufWriter w;
  w.str("general.architecture", arch);
  w.u32(arch + ".block_count", 2);
  w.u32(arch + ".embedding_length", 256);
  w.u32(arch + ".feed_forward_length", 1024);
  w.u32(arch + ".attention.head_count", 4);
  w.tensor("token_embd.weight", {256, 256}, test::kQ8_0);
  w.tensor("blk.0.ffn_up.weight", {256, up_width}, test::kQ8_0);
  w.tensor("blk.0.ffn_down.weight", {1024, 256}, test::kQ8_0);
  if (gate) {
    w.tensor("blk.0.ffn_gate.weight", {256, 1024}, test::kQ8_0);
  }
  const std::string bytes = w.file();
  auto r = read_gguf(bytes, bytes.size());
  EXPECT_TRUE(r.ok() && r->file.has_value());
  auto m = model_from_gguf(*r->file, "mlp.gguf");
  EXPECT_TRUE(m.ok());
  return m.ok() ? *m : Model{};
}

TEST(Gguf, GatedMlpIsReadFromTheTensors) {
  for (const char* arch : {"gpt2", "falcon", "starcoder2", "arcee"}) {
    EXPECT_FALSE(mlp_model(arch, 1024, false).arch.mlp_gated) << arch;
  }
  EXPECT_TRUE(mlp_model("llama", 1024, true).arch.mlp_gated);
  EXPECT_TRUE(mlp_model("phi3", 2048, false).arch.mlp_gated);  // fused gate and up
  // The tensors decide, whatever the name says.
  EXPECT_TRUE(mlp_model("gpt2", 1024, true).arch.mlp_gated);
  EXPECT_FALSE(mlp_model("llama", 1024, false).arch.mlp_gated);
}

// An ungated MLP holds fewer activations at its widest point (up and its
// activation, not gate, up and their product): the compute buffer follows.
TEST(Gguf, UngatedMlpReplaysAnUngatedGraph) {
  InferenceQuery q;
  q.precision = *parse_precision("q8_0");
  q.runtime = Runtime::LlamaCpp;
  q.flash_attention = FlashAttention::On;  // the MLP, not the scores, is the widest point
  q.context = 512;
  q.model = mlp_model("gpt2", 1024, false);
  const Bytes ungated = estimate_inference(q).memory.compute;
  q.model = mlp_model("gpt2", 1024, true);
  EXPECT_LT(ungated, estimate_inference(q).memory.compute);
}

}  // namespace
}  // namespace willfit
