// ChatGLM (llama.cpp `chatglm`; config.json model_type `chatglm`): THUDM's
// ChatGLM2-6B and ChatGLM3-6B, the 2024 GLM-4-9B (glm-4-9b, glm-4-9b-chat,
// Ollama's glm4:9b) and CodeGeeX4-all-9b (Ollama's codegeex4:9b). Its block
// (llama.cpp src/models/chatglm.cpp at 80fb11ac; the converter
// conversion/chatglm.py): RMS norms, one fused query_key_value projection
// with a bias (attn_qkv), grouped KV heads (multi_query_group_num), RoPE over
// half of each head, gate and up in one dense_h_to_4h of 2 x ffn_hidden_size
// (ffn_up, SwiGLU), no other biases, an untied output.
//
// Each model is read from its published config.json and from the GGUF header
// the converter writes, both must give one estimate, the parameter count must
// match the published one within 1 %, and the reduced GLM-4-9B-Chat file of
// tests/live/make_gguf must match what a real llama.cpp reserved.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "csv.hpp"
#include "sources/embedded_data.hpp"
#include "unit/live_rows.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/core/units.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/model_db.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::from_config;
using test::rel;

// THUDM/glm-4-9b-chat config.json, as transformers printed it loading the
// hub snapshot f6e0743b285dd808084530f070ad08e504386750 in a public training
// log of 2024-08-21 (a public Chinese Markdown setup log (ending with NVIDIA Container
// Toolkit 1.16.1 and 'nvidia-container-cli --version' output); the same values in a public
// front-end's copy of the config, a public React component ModelConfig showing config.json texts in
// a Drawer (a GLM-4 config with seq_length 131072, eos_token_id [151329, 151336, 151338])).
// ChatGLMModel, model_type chatglm.
Json glm4_9b_chat() {
  return {{"architectures", {"ChatGLMModel"}},
          {"model_type", "chatglm"},
          {"add_bias_linear", false},
          {"add_qkv_bias", true},
          {"apply_query_key_layer_scaling", true},
          {"apply_residual_connection_post_layernorm", false},
          {"ffn_hidden_size", 13696},
          {"hidden_size", 4096},
          {"kv_channels", 128},
          {"layernorm_epsilon", 1.5625e-07},
          {"multi_query_attention", true},
          {"multi_query_group_num", 2},
          {"num_attention_heads", 32},
          {"num_hidden_layers", 40},
          {"num_layers", 40},
          {"original_rope", true},
          {"padded_vocab_size", 151552},
          {"post_layer_norm", true},
          {"rmsnorm", true},
          {"rope_ratio", 500},
          {"seq_length", 131072},
          {"tie_word_embeddings", false},
          {"torch_dtype", "bfloat16"},
          {"vocab_size", 151552}};
}

// THUDM/chatglm3-6b config.json as public scripts quote it (a public Chinese shell download script
// for ChatGLM3-6B (python3 enflame_training/scripts/train_ontothink_enflame.py --step full; cd
// /workspace/code/OntoThink_V4); a second public Chinese shell download script for ChatGLM3-6B
// (pytorch_model-00001-of-00007.bin; 'cd $BASE_DIR'): "_name_or_path": "THUDM/chatglm3-6b",
// ChatGLMModel); its 8192-token seq_length is the maintainers' answer in
// zai-org/ChatGLM3 issue #987; the module tree of the same network
// (query_key_value 4096 -> 4608 with a bias, dense without, dense_h_to_4h
// 4096 -> 27392, dense_4h_to_h 13696 -> 4096, output_layer 4096 -> 65024) in
// TKOHP/XuanYuan FinanceIQ/src/model.md.
Json chatglm3_6b() {
  return {{"architectures", {"ChatGLMModel"}},
          {"model_type", "chatglm"},
          {"add_bias_linear", false},
          {"add_qkv_bias", true},
          {"apply_residual_connection_post_layernorm", false},
          {"ffn_hidden_size", 13696},
          {"hidden_size", 4096},
          {"kv_channels", 128},
          {"layernorm_epsilon", 1e-05},
          {"multi_query_attention", true},
          {"multi_query_group_num", 2},
          {"num_attention_heads", 32},
          {"num_layers", 28},
          {"original_rope", true},
          {"padded_vocab_size", 65024},
          {"post_layer_norm", true},
          {"rmsnorm", true},
          {"seq_length", 8192},
          {"tie_word_embeddings", false},
          {"torch_dtype", "float16"},
          {"vocab_size", 65024}};
}

// The shape of a ChatGLM: layers, vocabulary, context, rope base.
struct Glm {
  int layers = 0;
  std::uint64_t vocab = 0;
  std::uint32_t context = 0;
  float rope_base = 10000.0F;
};
constexpr Glm kGlm4_9b{40, 151552, 131072, 5.0e6F};
constexpr Glm kChatGlm3_6b{28, 65024, 8192, 10000.0F};

// The GGUF header conversion/chatglm.py (ChatGLMModel.set_gguf_parameters at
// 80fb11ac) writes: context_length from seq_length, embedding_length,
// feed_forward_length from ffn_hidden_size, block_count, head_count,
// head_count_kv from multi_query_group_num, the RMS epsilon, rope over
// kv_channels x 0.5 (partial_rotary_factor's default) and a base of 10000 x
// rope_ratio; no key_length (llama.cpp takes n_embd / n_head). The tensors
// chatglm.cpp loads, F16 with F32 norms and bias as a conversion to f16
// leaves them: token_embd, output_norm, output; per layer attn_norm, attn_qkv
// (weight and bias: query_key_value), attn_output, ffn_norm, ffn_up (2 x ffn:
// dense_h_to_4h), ffn_down. `fused` false: the layout of a file converted from
// transformers' Glm (glm-4-9b-chat-hf): attn_q, attn_k, attn_v, each with
// its bias, and still one ffn_up (gate_up_proj).
test::GgufWriter chatglm_gguf(const Glm& g, bool fused = true) {
  const std::string a = "chatglm.";
  test::GgufWriter w;
  w.str("general.architecture", "chatglm");
  w.u32("general.file_type", 1);
  w.u32(a + "context_length", g.context);
  w.u32(a + "embedding_length", 4096);
  w.u32(a + "feed_forward_length", 13696);
  w.u32(a + "block_count", static_cast<std::uint32_t>(g.layers));
  w.u32(a + "attention.head_count", 32);
  w.u32(a + "attention.head_count_kv", 2);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-5F);
  w.u32(a + "rope.dimension_count", 64);
  w.f32(a + "rope.freq_base", g.rope_base);
  w.tensor("token_embd.weight", {4096, g.vocab}, test::kF16);
  w.tensor("output_norm.weight", {4096}, test::kF32);
  w.tensor("output.weight", {4096, g.vocab}, test::kF16);
  for (int i = 0; i < g.layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {4096}, test::kF32);
    if (fused) {
      w.tensor(b + "attn_qkv.weight", {4096, 4608}, test::kF16);
      w.tensor(b + "attn_qkv.bias", {4608}, test::kF32);
    } else {
      w.tensor(b + "attn_q.weight", {4096, 4096}, test::kF16);
      w.tensor(b + "attn_k.weight", {4096, 256}, test::kF16);
      w.tensor(b + "attn_v.weight", {4096, 256}, test::kF16);
      w.tensor(b + "attn_q.bias", {4096}, test::kF32);
      w.tensor(b + "attn_k.bias", {256}, test::kF32);
      w.tensor(b + "attn_v.bias", {256}, test::kF32);
    }
    w.tensor(b + "attn_output.weight", {4096, 4096}, test::kF16);
    w.tensor(b + "ffn_norm.weight", {4096}, test::kF32);
    w.tensor(b + "ffn_up.weight", {4096, 27392}, test::kF16);
    w.tensor(b + "ffn_down.weight", {13696, 4096}, test::kF16);
  }
  return w;
}

// The header alone, the file's size claimed: the tensors' 18.8 GB are never
// made or read.
Model from_header(const test::GgufWriter& w) {
  const std::string header = w.header();
  const std::uint64_t size = (header.size() + 31) / 32 * 32 + w.data_size();
  auto parsed = read_gguf(header, size);
  EXPECT_TRUE(parsed.ok() && parsed->file.has_value());
  if (!parsed.ok() || !parsed->file) {
    return Model{};
  }
  auto m = model_from_gguf(*parsed->file, "model.gguf");
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return m.ok() ? *m : Model{};
}

Estimate llama_estimate(const Model& m, std::int64_t context) {
  InferenceQuery q;
  q.model = m;
  q.precision = *parse_precision("q4_k_m");
  q.runtime = Runtime::LlamaCpp;
  q.context = context;
  return estimate_inference(q);
}

// Where two readings of one model are compared (test::expect_same_estimate):
// 4 Ki and 128 Ki tokens, llama.cpp's default flash attention, at Q4_K_M.
const test::EstimateGrid kEstimateGrid{.contexts = {4096, 131072},
                                       .flash = {FlashAttention::Auto},
                                       .params = test::EstimateGrid::Params::None};

Model catalogue(const std::string& id) {
  auto db = ModelDb::parse(app::embedded_models_json(), "embedded");
  EXPECT_TRUE(db.ok());
  auto found = db->find(id);
  EXPECT_TRUE(found.ok()) << id;
  return found.ok() ? found->entry->model : Model{};
}

TEST(ChatGlm, ConfigIsKnownAndReadsItsOwnKeys) {
  for (const Json& j : {glm4_9b_chat(), chatglm3_6b()}) {
    const Model m = from_config(j);
    EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
    // multi_query_group_num, kv_channels, ffn_hidden_size, padded_vocab_size
    // and seq_length, ChatGLM's names for the shared keys.
    EXPECT_EQ(m.arch.kv_heads, 2);
    EXPECT_EQ(m.arch.head_dim, 128);
    EXPECT_EQ(m.arch.intermediate_size, 13696);
    EXPECT_TRUE(m.arch.mlp_gated);
    EXPECT_FALSE(m.arch.tied_embeddings);
    EXPECT_EQ(m.arch.max_context, j["seq_length"].get<std::int64_t>());
    EXPECT_EQ(m.arch.vocab_size, j["padded_vocab_size"].get<std::int64_t>());
    EXPECT_TRUE(m.arch.attention.fused_qkv);
    EXPECT_TRUE(m.arch.qkv_bias);
    EXPECT_TRUE(m.arch.fused_gate_up);
  }
}

// The parameter counts: GLM-4-9B-Chat "9399951360 (9.4B) parameters" (GLM-4's
// own demo banner and transformers' load line, public logs read through the
// code search; data/models.json row glm-4-9b); ChatGLM3-6B "has 6243584032
// parameters, 6243584000 (100.00%) are trainable" (a public transformers
// load log of chatglm3-6b, a public Chinese Python script comparing chatglm3, chatglm4 and qwen2
// (check_qwen2 with QWEN2_7B_INSTRUCT_model_dir, print_model_parameter_summary); the card's 6.24
// B). The count leaves out norms and biases (under 0.01 % here).
TEST(ChatGlm, ParameterCountsMatchThePublishedOnes) {
  EXPECT_LT(rel(static_cast<double>(count_params(from_config(glm4_9b_chat()).arch).total()),
                9399951360.0),
            0.01);
  EXPECT_LT(
      rel(static_cast<double>(count_params(from_config(chatglm3_6b()).arch).total()), 6243584000.0),
      0.01);
}

// llama.cpp caches K and V of the multi_query_group_num KV heads on every
// layer: 2 heads x 128 (n_embd / n_head; RoPE's 64 dims change no width),
// F16, for K and for V. Read as any other model, multi_query_group_num is
// unknown and every one of the 32 query heads would be cached: 16 x more.
TEST(ChatGlm, KvCacheHoldsTheGroupedHeads) {
  const std::int64_t ctx = 32768;
  const Model g = from_config(glm4_9b_chat());
  EXPECT_EQ(kv_cache_bytes(g.arch, {ctx, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{40} * 2 * 2 * 128 * 2 * ctx);
  const Model c = from_config(chatglm3_6b());
  EXPECT_EQ(kv_cache_bytes(c.arch, {ctx, 1, 512, kv_f16(), kv_f16(), 256}),
            std::int64_t{28} * 2 * 2 * 128 * 2 * ctx);
  EXPECT_EQ(llama_estimate(g, ctx).memory.kv_cache, std::int64_t{40} * 2 * 2 * 128 * 2 * ctx);
}

TEST(ChatGlm, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = from_header(chatglm_gguf(kGlm4_9b));
  const Model c = from_config(glm4_9b_chat());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_EQ(g.arch.kv_heads, 2);
  EXPECT_EQ(g.arch.head_dim, 128);
  EXPECT_EQ(g.arch.vocab_size, 151552);
  EXPECT_TRUE(g.arch.attention.fused_qkv && g.arch.qkv_bias && g.arch.fused_gate_up);
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
  test::expect_same_estimate(g, c, "glm-4-9b-chat GGUF vs config", kEstimateGrid);
  test::expect_same_estimate(from_header(chatglm_gguf(kChatGlm3_6b)), from_config(chatglm3_6b()),
                             "chatglm3-6b GGUF vs config", kEstimateGrid);
}

// A file converted from transformers' Glm layout (glm-4-9b-chat-hf, model
// GlmForCausalLM, which conversion/chatglm.py also takes) has attn_q, attn_k
// and attn_v with their biases: chatglm.cpp's create_tensor_qkv loads either,
// and build_qkv runs them apart. Same cache and parameters; only the
// graph's Q, K and V differ.
TEST(ChatGlm, SeparateProjectionsAreReadAsSuch) {
  const Model g = from_header(chatglm_gguf(kGlm4_9b, false));
  EXPECT_TRUE(g.unchecked_architecture.empty());
  EXPECT_FALSE(g.arch.attention.fused_qkv);
  EXPECT_TRUE(g.arch.qkv_bias);
  EXPECT_TRUE(g.arch.fused_gate_up);
  const Model c = from_config(glm4_9b_chat());
  EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
  EXPECT_EQ(llama_estimate(g, 4096).memory.kv_cache, llama_estimate(c, 4096).memory.kv_cache);
}

// GLM-4-9B-Chat as transformers (>= 4.46) saves it, model_type glm
// (GlmForCausalLM, THUDM/glm-4-9b-chat-hf), as a public engine's config
// loader test writes it out (a public C++ gtest file of a config loader (kGlm4HfConfig; its last
// test expects has_qkv_bias for qwen2, 'qwen2 hardcodes it'), kGlm4HfConfig): the standard key
// names, attention_bias for q, k and v, gate_up_proj one projection. conversion/chatglm.py
// registers GlmForCausalLM and writes it as chatglm with attn_q, attn_k and attn_v: the header
// above with separate projections, and one estimate from both.
TEST(ChatGlm, TransformersGlmLayoutIsTheSameModel) {
  const Json hf = {{"model_type", "glm"},          {"architectures", {"GlmForCausalLM"}},
                   {"hidden_size", 4096},          {"intermediate_size", 13696},
                   {"num_hidden_layers", 40},      {"num_attention_heads", 32},
                   {"num_key_value_heads", 2},     {"head_dim", 128},
                   {"vocab_size", 151552},         {"rms_norm_eps", 1.5625e-07},
                   {"partial_rotary_factor", 0.5}, {"attention_bias", true},
                   {"tie_word_embeddings", false}, {"max_position_embeddings", 131072}};
  const Model c = from_config(hf);
  EXPECT_TRUE(c.unchecked_architecture.empty()) << c.unchecked_architecture;
  EXPECT_FALSE(c.arch.attention.fused_qkv);
  EXPECT_TRUE(c.arch.qkv_bias && c.arch.fused_gate_up);
  test::expect_same_estimate(from_header(chatglm_gguf(kGlm4_9b, false)), c, "glm-4-9b-chat-hf",
                             kEstimateGrid);
  const Precision f16 = *parse_precision("f16");
  EXPECT_EQ(weight_layout(c, f16).total(), weight_layout(from_config(glm4_9b_chat()), f16).total());
}

// The weights of an F16 conversion, counted by hand from the tensors
// chatglm.cpp loads: the matrices at 2 bytes, the norms and the QKV bias
// (4608 a layer) at 4. The recipe's total is the file's, to the byte.
TEST(ChatGlm, F16WeightsAreTheConvertersTensors) {
  const Precision f16 = *parse_precision("f16");
  for (const auto& [j, g] : {std::pair{glm4_9b_chat(), kGlm4_9b}, {chatglm3_6b(), kChatGlm3_6b}}) {
    const std::int64_t v = static_cast<std::int64_t>(g.vocab);
    const std::int64_t matrices =
        2 * 4096 * v +
        std::int64_t{g.layers} * (4096LL * 4608 + 4096LL * 4096 + 4096LL * 27392 + 13696LL * 4096);
    const std::int64_t vectors = 4096 + std::int64_t{g.layers} * (2 * 4096 + 4608);
    EXPECT_EQ(weight_layout(from_config(j), f16).total(), 2 * matrices + 4 * vectors) << g.layers;
  }
  // Without add_qkv_bias the bias is not there.
  Json no_bias = glm4_9b_chat();
  no_bias["add_qkv_bias"] = false;
  EXPECT_EQ(weight_layout(from_config(glm4_9b_chat()), f16).total() -
                weight_layout(from_config(no_bias), f16).total(),
            std::int64_t{40} * 4608 * 4);
}

// ChatGLM-6B's first version shares model_type chatglm but none of this
// layout (inner_hidden_size, a GELU MLP, 2D positions; llama.cpp's converter
// reads ffn_hidden_size's generation only), and says so. Its values: THUDM's
// configuration_chatglm.py defaults as a public port copies them (search tool,
// "ChatGLM-6B model configuration").
TEST(ChatGlm, TheFirstChatGlm6bStillWarns) {
  const Json v1 = {{"model_type", "chatglm"},     {"hidden_size", 4096},
                   {"inner_hidden_size", 16384},  {"num_layers", 28},
                   {"num_attention_heads", 32},   {"vocab_size", 130528},
                   {"max_sequence_length", 2048}, {"position_encoding_2d", true}};
  EXPECT_FALSE(from_config(v1).unchecked_architecture.empty());
}

// The catalogue's GLM-4-9B-Chat (glm4:9b) and CodeGeeX4-ALL-9B
// (codegeex4:9b, GLM-4-9B continually trained: the same network) carry the
// fused projections too, so a name gives the estimate the config gives.
TEST(ChatGlm, CatalogueAgreesWithTheConfig) {
  const Model c = from_config(glm4_9b_chat());
  for (const char* id : {"glm-4-9b", "codegeex4-all-9b"}) {
    const Model cat = catalogue(id);
    EXPECT_TRUE(cat.arch.attention.fused_qkv && cat.arch.qkv_bias && cat.arch.fused_gate_up) << id;
    test::expect_same_estimate(cat, c, id, kEstimateGrid);
  }
}

// ---- the live llama.cpp rows ------------------------------------------------
//
// GLM-4-9B-Chat reduced to 4 of its 40 layers (make_gguf row
// glm-4-9b-chat-r4: every width the model's), read from its config.json with
// num_layers 4, against what a real llama.cpp reserved for the F16, Q8_0 and
// Q4_K_M files (tests/data/llamacpp_cpu_compute_chatglm.csv,
// llamacpp_cpu_kv_chatglm.csv): the compute and output buffers and the KV
// cache.

TEST(ChatGlm, ReducedGlm4MatchesTheLiveLlamaCpp) {
  Json j = glm4_9b_chat();
  j["num_layers"] = 4;
  j["num_hidden_layers"] = 4;
  const Model m = from_config(j);
  const auto mib = static_cast<double>(kMiB);
  std::size_t rows = 0;
  test::for_each_live_row("llamacpp_cpu_compute_chatglm.csv",
                          [&](const std::vector<std::string>& c) {
                            const auto [measured, willfit] = test::live_row_compute(m, c);
                            // Exact on every row (the output buffer's log rounding aside); the
                            // Q8_0-cache rows were 82 KiB over while the replay kept a single
                            // cache's Hadamard rotation matrices to the end (docs/live-llamacpp.md,
                            // MiniCPM3 run).
                            EXPECT_NEAR(willfit, measured, 0.01 * mib);
                            ++rows;
                          });
  EXPECT_EQ(rows, 27U);
  rows = 0;
  test::for_each_live_row("llamacpp_cpu_kv_chatglm.csv", [&](const std::vector<std::string>& c) {
    EXPECT_NEAR(static_cast<double>(test::live_row_estimate(m, c).memory.kv_cache),
                std::stod(c[6]) * mib, 0.01 * mib);
    ++rows;
  });
  EXPECT_EQ(rows, 27U);
}

}  // namespace
}  // namespace willfit
