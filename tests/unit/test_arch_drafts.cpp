// Speculative-decoding drafts (issue 18): models llama.cpp runs beside a
// target model, never alone. EAGLE-3 (llama.cpp `eagle3`; a config.json of
// model_type llama with draft_vocab_size and one layer): eagle3.cpp at
// 80fb11ac loads fc ({3 x target hidden, hidden}) over three target layers'
// concatenated hidden states, one llama layer whose q, k and v read 2 x
// hidden columns (the normed token embedding beside the normed features) with
// a second input norm (attn_norm_2), an output head over the draft
// vocabulary and d2t (I64, one a draft token); token embeddings only when the
// file has them (else the target's, through ctx_other). Read from its
// published shape and from the GGUF header llama.cpp's converter writes; both
// must give one estimate.
#include <cstdint>
#include <string>
#include <tuple>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/draft_helpers.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/hf_config.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::gguf_refusal;
using test::notes_say;
using test::rel;

// yuhuili/EAGLE3-LLaMA3.1-Instruct-8B's config.json (the hub is not
// reachable here), as two public test suites transcribe it (found by searching
// for "draft_vocab_size": 32000, a public Python Azure ML script registering a speculative-decoding
// model ('Combined base and draft model for speculative decoding', architecture eagle3); a public
// unittest of an Eagle3 draft model (TestLlamaForCausalLMEagle3Loading), the same values):
// LlamaForCausalLMEagle3, hidden 4096, 1 layer, 32 heads, 8 KV heads, MLP 14336, vocabulary 128256,
// draft vocabulary 32000, 2048 positions, untied, float16. No target_hidden_size or
// eagle_aux_hidden_state_layer_ids: the converter takes the target's width
// (Llama-3.1-8B: 4096) and layers 2, 16, 29.
Json eagle3_config() {
  return {{"architectures", {"LlamaForCausalLMEagle3"}},
          {"model_type", "llama"},
          {"hidden_size", 4096},
          {"intermediate_size", 14336},
          {"num_attention_heads", 32},
          {"num_key_value_heads", 8},
          {"num_hidden_layers", 1},
          {"max_position_embeddings", 2048},
          {"rms_norm_eps", 1e-5},
          {"tie_word_embeddings", false},
          {"torch_dtype", "float16"},
          {"vocab_size", 128256},
          {"draft_vocab_size", 32000}};
}

constexpr test::TestType kI64{27, 1, 8};

// The GGUF conversion/llama.py writes for it (LlamaModel with is_eagle3:
// the llama keys, vocab_size, rope.dimension_count, target_layers [2, 16,
// 29], target_hidden_size 4096, norm_before_residual and norm_before_fc
// false) and the tensors eagle3.cpp loads: fc, d2t (I64; t2d is dropped),
// no token_embd, F16 matrices and F32 vectors.
test::GgufWriter eagle3_gguf() {
  const std::string a = "eagle3";
  constexpr std::uint64_t e = 4096;
  constexpr std::uint64_t ff = 14336;
  constexpr std::uint64_t kv = 8 * 128;
  constexpr std::uint64_t draft_vocab = 32000;
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".context_length", 2048);
  w.u32(a + ".embedding_length", e);
  w.u32(a + ".feed_forward_length", ff);
  w.u32(a + ".block_count", 1);
  w.u32(a + ".attention.head_count", 32);
  w.u32(a + ".attention.head_count_kv", 8);
  w.f32(a + ".attention.layer_norm_rms_epsilon", 1e-5F);
  w.u32(a + ".vocab_size", 128256);
  w.u32(a + ".rope.dimension_count", 128);
  w.u32_array(a + ".target_layers", {2, 16, 29});
  w.u32(a + ".target_hidden_size", 4096);
  w.boolean(a + ".norm_before_residual", false);
  w.boolean(a + ".norm_before_fc", false);
  w.u32("general.file_type", 1);
  w.tensor("fc.weight", {3 * e, e}, test::kF16);
  w.tensor("d2t", {draft_vocab}, kI64);
  w.tensor("output_norm.weight", {e}, test::kF32);
  w.tensor("output.weight", {e, draft_vocab}, test::kF16);
  const std::string b = "blk.0.";
  w.tensor(b + "attn_norm.weight", {e}, test::kF32);
  w.tensor(b + "attn_norm_2.weight", {e}, test::kF32);
  w.tensor(b + "attn_q.weight", {2 * e, e}, test::kF16);
  w.tensor(b + "attn_k.weight", {2 * e, kv}, test::kF16);
  w.tensor(b + "attn_v.weight", {2 * e, kv}, test::kF16);
  w.tensor(b + "attn_output.weight", {e, e}, test::kF16);
  w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
  w.tensor(b + "ffn_gate.weight", {e, ff}, test::kF16);
  w.tensor(b + "ffn_up.weight", {e, ff}, test::kF16);
  w.tensor(b + "ffn_down.weight", {ff, e}, test::kF16);
  return w;
}

// The published file: a public note on training this head (a public Markdown benchmark report of
// Qwen3.6-27B MTP and DFlash on H100, 63,949 characters (data/h100_vllm_dflash.json)) gives the
// Llama-3.1-8B EAGLE-3 draft as "~811MB" beside "16GB" for the target, that is MiB of a 16-bit
// checkpoint: the config's weights (0.4247 B: fc 50.3 M, the layer 243.3 M, the head 131.1 M, no
// embeddings) at 2 bytes are 810.0 MiB, with d2t and t2d 810.4 MiB. (The same note's per-part
// table, 223 M, does not add up to its own rows and is not used.)
TEST(Eagle3, ConfigIsADraftAndCountsThePublishedFile) {
  const Model m = test::from_config(eagle3_config());
  EXPECT_TRUE(m.unchecked_architecture.empty());
  EXPECT_EQ(m.arch.eagle3_target_layers, 3);
  EXPECT_EQ(m.arch.eagle3_target_hidden, 4096);
  EXPECT_EQ(m.arch.draft_vocab, 32000);
  EXPECT_FALSE(m.arch.draft_own_embeddings);
  const ParamBreakdown p = count_params(m.arch);
  EXPECT_EQ(p.embedding, 0);                        // the target's, not the draft's
  EXPECT_EQ(p.output, std::int64_t{32000} * 4096);  // the draft vocabulary's head
  const double mib = static_cast<double>(p.total()) * 2 / (1024.0 * 1024.0);
  EXPECT_LT(rel(mib, 811.0), 0.01) << p.total();
  // The Assumptions say what it is.
  EXPECT_TRUE(notes_say(m, "EAGLE-3 draft model", "beside its target"));
  // and which lines to add to the target's: not the overhead and margin,
  // which the target's estimate holds already.
  EXPECT_TRUE(notes_say(m, "its weights, 1-layer KV cache and compute buffer are the draft's own",
                        "the runtime overhead and margin are the target's already"));
}

// One layer's K and V (eagle3.cpp: build_attn_inp_kv; create_memory makes
// the ordinary cache for it): 8 KV heads x 128 x 2 x 2 bytes a token.
TEST(Eagle3, KvCacheIsItsOneLayer) {
  const Model m = test::from_config(eagle3_config());
  EXPECT_EQ(kv_cache_bytes(m.arch, {4096, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{1} * 2 * 8 * 128 * 2 * 4096);
}

TEST(Eagle3, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = test::from_gguf_header(eagle3_gguf());
  const Model c = test::from_config(eagle3_config());
  EXPECT_TRUE(g.unchecked_architecture.empty());
  EXPECT_EQ(g.arch.eagle3_target_layers, 3);
  EXPECT_EQ(g.arch.eagle3_target_hidden, 4096);
  EXPECT_EQ(g.arch.draft_vocab, 32000);
  EXPECT_FALSE(g.arch.draft_own_embeddings);
  EXPECT_EQ(g.arch.vocab_size, 128256);
  test::expect_same_estimate(g, c, "eagle3 GGUF vs config", {2048, 8192});
  // The weights willfit lays out in F16 are the file's tensors byte for byte.
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total(), eagle3_gguf().data_size());
}

// llama.cpp refuses an eagle3 file without three target layers
// (eagle3.cpp load_arch_hparams): so does willfit, in one line.
TEST(Eagle3, GgufWithoutTargetLayersIsRefused) {
  test::GgufWriter w;
  w.str("general.architecture", "eagle3");
  w.u32("eagle3.embedding_length", 4096);
  w.u32("eagle3.block_count", 1);
  w.u32("eagle3.attention.head_count", 32);
  w.u32("eagle3.target_hidden_size", 4096);
  w.tensor("output_norm.weight", {4096}, test::kF32);
  EXPECT_NE(gguf_refusal(w).find("target_layers"), std::string::npos);
}

// Gemma 4 assistants (llama.cpp `gemma4-assistant`; config.json model_type
// gemma4_assistant around a gemma4_text text_config): gemma4-assistant.cpp
// at 80fb11ac loads a query, its norm and wo per layer (Gemma 4's windowed
// and global head widths), no K or V (every layer shares the target's last
// windowed or global layer's cache), nextn.pre_projection (2 x backbone x
// hidden) over the target's scaled embedding and last hidden state,
// nextn.post_projection (hidden x backbone), Gemma 4's post-norms and
// layer_output_scale, and its tied embeddings as the head.

// google/gemma-4-E4B-it-assistant and google/gemma-4-E2B-it-assistant (the
// hub is not reachable here), as a public integration note tabulates their
// config.json files (found by searching for "model_type": "gemma4_assistant":
// a public Markdown survey of MLX speculative decoding ('Compiled 2026-05-06. Will rot fast',
// gemma4_assistant drafter into Swift)): 4 layers [swa, swa, swa, full], hidden 256, MLP 2048, 4
// heads of 256 (global 512), 2 KV heads (E2B: 1), attention_k_eq_v false,
// window 512, 131072 positions, 4 KV-shared layers, vocabulary 262144,
// tied, backbone_hidden_size 2560 (E2B: 1536), use_ordered_embeddings true.
// hidden_size_per_layer_input is not in its table; 0, as other transcribed
// assistant configs give it (a public Swift test helper of Gemma4AssistantConfiguration (model_type
// gemma4_assistant, use_ordered_embeddings false, num_centroids 2); a public Swift test of
// Gemma4Model.sanitizeWeightKey (router.per_expert_scale, post_feedforward_layernorm_2 keys)).
Json gemma4_assistant_config(std::int64_t backbone, int kv_heads) {
  return {{"architectures", {"Gemma4AssistantForCausalLM"}},
          {"model_type", "gemma4_assistant"},
          {"backbone_hidden_size", backbone},
          {"num_centroids", 2048},
          {"centroid_intermediate_top_k", 32},
          {"use_ordered_embeddings", true},
          {"tie_word_embeddings", true},
          {"text_config",
           {{"model_type", "gemma4_text"},
            {"num_hidden_layers", 4},
            {"hidden_size", 256},
            {"intermediate_size", 2048},
            {"num_attention_heads", 4},
            {"num_key_value_heads", kv_heads},
            {"num_global_key_value_heads", nullptr},
            {"head_dim", 256},
            {"global_head_dim", 512},
            {"attention_k_eq_v", false},
            {"sliding_window", 512},
            {"max_position_embeddings", 131072},
            {"layer_types",
             {"sliding_attention", "sliding_attention", "sliding_attention", "full_attention"}},
            {"num_kv_shared_layers", 4},
            {"hidden_size_per_layer_input", 0},
            {"final_logit_softcapping", nullptr},
            {"rms_norm_eps", 1e-6},
            {"tie_word_embeddings", true},
            {"vocab_size", 262144}}}};
}

// The GGUF conversion/gemma.py writes for the E4B assistant
// (Gemma4AssistantModel over Gemma4Model: the Gemma 4 keys,
// embedding_length_out the backbone, nextn_predict_layers the layer count;
// no per-layer head_count_kv, as num_global_key_value_heads is null; the
// masked embedder dropped) and the tensors gemma4-assistant.cpp loads, F16
// matrices and F32 vectors. `bytes` gets the tensors' bytes without the
// file's alignment.
test::GgufWriter gemma4_assistant_gguf(std::uint64_t& bytes) {
  const std::string a = "gemma4-assistant";
  constexpr std::uint64_t e = 256;
  constexpr std::uint64_t backbone = 2560;
  constexpr std::uint64_t ff = 2048;
  constexpr std::uint64_t vocab = 262144;
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".context_length", 131072);
  w.u32(a + ".embedding_length", e);
  w.u32(a + ".embedding_length_out", backbone);
  w.u32(a + ".feed_forward_length", ff);
  w.u32(a + ".block_count", 4);
  w.u32(a + ".nextn_predict_layers", 4);
  w.u32(a + ".attention.head_count", 4);
  w.u32(a + ".attention.head_count_kv", 2);
  w.u32(a + ".attention.key_length", 512);
  w.u32(a + ".attention.value_length", 512);
  w.u32(a + ".attention.key_length_swa", 256);
  w.u32(a + ".attention.value_length_swa", 256);
  w.u32(a + ".attention.sliding_window", 512);
  w.bool_array(a + ".attention.sliding_window_pattern", {true, true, true, false});
  w.u32(a + ".attention.shared_kv_layers", 4);
  w.u32(a + ".embedding_length_per_layer_input", 0);
  w.f32(a + ".attention.layer_norm_rms_epsilon", 1e-6F);
  w.u32("general.file_type", 1);
  bytes = 0;
  bytes += w.tensor("token_embd.weight", {e, vocab}, test::kF16);
  bytes += w.tensor("output_norm.weight", {e}, test::kF32);
  bytes += w.tensor("rope_freqs.weight", {256}, test::kF32);
  bytes += w.tensor("nextn.pre_projection.weight", {2 * backbone, e}, test::kF16);
  bytes += w.tensor("nextn.post_projection.weight", {e, backbone}, test::kF16);
  for (int i = 0; i < 4; ++i) {
    const std::uint64_t d = i == 3 ? 512 : 256;  // the global layer's heads are wider
    const std::string b = "blk." + std::to_string(i) + ".";
    bytes += w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    bytes += w.tensor(b + "attn_q.weight", {e, 4 * d}, test::kF16);
    bytes += w.tensor(b + "attn_q_norm.weight", {d}, test::kF32);
    bytes += w.tensor(b + "attn_output.weight", {4 * d, e}, test::kF16);
    bytes += w.tensor(b + "post_attention_norm.weight", {e}, test::kF32);
    bytes += w.tensor(b + "layer_output_scale.weight", {1}, test::kF32);
    bytes += w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    bytes += w.tensor(b + "ffn_gate.weight", {e, ff}, test::kF16);
    bytes += w.tensor(b + "ffn_up.weight", {e, ff}, test::kF16);
    bytes += w.tensor(b + "ffn_down.weight", {ff, e}, test::kF16);
    bytes += w.tensor(b + "post_ffw_norm.weight", {e}, test::kF32);
  }
  return w;
}

// The model cards' counts, as the same note tabulates them: E2B assistant
// 78 M, E4B assistant 78.8 M. They count the masked embedder
// (Gemma4AssistantMaskedEmbedder: 2048 centroids x hidden, and a token
// ordering of the vocabulary), which llama.cpp's converter drops and its
// loader does not need (masked_embd_* TENSOR_NOT_REQUIRED): added here to
// compare like with like.
TEST(Gemma4Assistant, ConfigIsADraftAndCountsTheCards) {
  const std::int64_t masked_embedder = std::int64_t{2048} * 256 + 262144;
  for (const auto& [backbone, kv, card] :
       {std::tuple{std::int64_t{2560}, 2, 78.8e6}, std::tuple{std::int64_t{1536}, 1, 78e6}}) {
    const Model m = test::from_config(gemma4_assistant_config(backbone, kv));
    EXPECT_TRUE(m.unchecked_architecture.empty());
    EXPECT_EQ(m.arch.assistant_backbone_hidden, backbone);
    EXPECT_TRUE(m.arch.tied_embeddings);
    const std::int64_t total = count_params(m.arch).total();
    EXPECT_LT(rel(static_cast<double>(total + masked_embedder), card), 0.01) << total;
    EXPECT_TRUE(notes_say(m, "Gemma 4 assistant", "beside its Gemma 4 target"));
    EXPECT_TRUE(notes_say(m, "its weights and compute buffer are the draft's own",
                          "the runtime overhead and margin are the target's already"));
  }
}

// Every layer shares the target's K and V (create_memory: the ISWA cache's
// share callback maps each to the target's last windowed or global layer):
// nothing cached of its own at any context.
TEST(Gemma4Assistant, CachesNothingOfItsOwn) {
  const Model m = test::from_config(gemma4_assistant_config(2560, 2));
  for (const std::int64_t ctx : {4096, 131072}) {
    EXPECT_EQ(kv_cache_bytes(m.arch, {ctx, 1, 512, kv_f16(), kv_f16(), 256}), 0) << ctx;
    EXPECT_EQ(test::llama_cpp_q4_estimate(m, ctx, true).memory.kv_cache, 0) << ctx;
  }
}

TEST(Gemma4Assistant, GgufHeaderGivesWhatTheConfigGives) {
  std::uint64_t bytes = 0;
  const test::GgufWriter w = gemma4_assistant_gguf(bytes);
  const Model g = test::from_gguf_header(w);
  const Model c = test::from_config(gemma4_assistant_config(2560, 2));
  EXPECT_TRUE(g.unchecked_architecture.empty());
  EXPECT_EQ(g.arch.assistant_backbone_hidden, 2560);
  EXPECT_EQ(g.arch.attention.global_head_dim, 512);
  EXPECT_EQ(g.arch.attention.kv_shared_layers, 4);
  test::expect_same_estimate(g, c, "gemma4-assistant GGUF vs config", {4096, 32768});
  // The weights willfit lays out in F16 are the file's tensors byte for byte.
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total(), static_cast<std::int64_t>(bytes));
}

// llama.cpp refuses an assistant whose embedding_length_out is its own
// width (gemma4-assistant.cpp load_arch_tensors): so does willfit.
TEST(Gemma4Assistant, GgufWithoutTheTargetWidthIsRefused) {
  test::GgufWriter w;
  w.str("general.architecture", "gemma4-assistant");
  w.u32("gemma4-assistant.embedding_length", 256);
  w.u32("gemma4-assistant.block_count", 4);
  w.u32("gemma4-assistant.attention.head_count", 4);
  w.tensor("output_norm.weight", {256}, test::kF32);
  EXPECT_NE(gguf_refusal(w).find("embedding_length_out"), std::string::npos);
}

}  // namespace
}  // namespace willfit
