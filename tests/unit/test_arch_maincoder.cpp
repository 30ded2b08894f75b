// Maincoder (Maincode's Maincoder-1B, issue 18), which llama.cpp 80fb11ac
// loads as `maincoder` (src/models/maincoder.cpp): qwen3's dense layer (Q, K
// and V without biases, a SwiGLU MLP, an optional output head) whose Q and
// K are RMS-normed per head AFTER RoPE rather than before. Under ggml-alloc
// the norm and its weight then run in place on the roped tensor, so the
// compute buffer is llama's; the cache is ordinary GQA.
//
// No published config.json of Maincoder-1B was found (the hub is not
// reachable here; llama.cpp PR ggml-org/llama.cpp#18534, which added it,
// quotes the converter but no config; public notes give only "1B" and a
// 2,048-token context). The values below are ILLUSTRATIVE, a 1B shape of
// the 32 layers llama.cpp's loader names LLM_TYPE_1B, with widths as a
// third-party GGUF reader's Maincoder test fixture has them (a public Go test file of GGUF
// metadata, 49,356 characters (its last fixture mistral3.feed_forward_length 14336,
// mistral3.rope.freq_base 1_000_000): 2048 wide, 16 heads and 4 KV heads, MLP 8192, rope base 1e6)
// and Qwen's vocabulary (the PR's reviewers: "Qwen given the tokenizer"). They test the mechanism
// (the config and the converter's GGUF read alike, the cache and the layout worked out by hand),
// not Maincoder-1B's size; nothing here is a catalogue entry.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;

// An ILLUSTRATIVE MaincoderForCausalLM config.json (see above): not
// Maincoder-1B's published values, which were not found.
Json maincoder_illustrative() {
  return {{"model_type", "maincoder"},    {"architectures", {"MaincoderForCausalLM"}},
          {"hidden_size", 2048},          {"intermediate_size", 8192},
          {"num_hidden_layers", 32},      {"num_attention_heads", 16},
          {"num_key_value_heads", 4},     {"head_dim", 128},
          {"vocab_size", 151936},         {"max_position_embeddings", 2048},
          {"rms_norm_eps", 1e-6},         {"rope_theta", 1000000.0},
          {"tie_word_embeddings", false}, {"torch_dtype", "bfloat16"}};
}

// The header conversion/maincoder.py MaincoderModel writes: the shared keys
// (TextModel: context, widths, block count, heads, KV heads, rope base, RMS
// epsilon, key_length and value_length from head_dim, file type) and
// rope.dimension_count = head_dim. With `tensors`, every tensor
// maincoder.cpp's load_arch_tensors creates, F16 (norms F32), the output
// head included.
test::GgufWriter maincoder_gguf(const Json& c, bool tensors) {
  const auto u = [&c](const char* name) { return c.at(name).get<std::uint32_t>(); };
  const std::string a = "maincoder.";
  test::GgufWriter w;
  w.str("general.architecture", "maincoder");
  w.u32(a + "context_length", u("max_position_embeddings"));
  w.u32(a + "embedding_length", u("hidden_size"));
  w.u32(a + "feed_forward_length", u("intermediate_size"));
  w.u32(a + "block_count", u("num_hidden_layers"));
  w.u32(a + "attention.head_count", u("num_attention_heads"));
  w.u32(a + "attention.head_count_kv", u("num_key_value_heads"));
  w.f32(a + "rope.freq_base", 1000000.0F);
  w.f32(a + "attention.layer_norm_rms_epsilon", 1e-6F);
  w.u32(a + "attention.key_length", u("head_dim"));
  w.u32(a + "attention.value_length", u("head_dim"));
  w.u32("general.file_type", 1);
  w.u32(a + "rope.dimension_count", u("head_dim"));
  const std::uint64_t e = u("hidden_size");
  const std::uint64_t hd = u("head_dim");
  const std::uint64_t q = hd * u("num_attention_heads");
  const std::uint64_t kv = hd * u("num_key_value_heads");
  const std::uint64_t ff = u("intermediate_size");
  w.tensor("token_embd.weight", {e, u("vocab_size")}, test::kF16);
  w.tensor("output.weight", {e, u("vocab_size")}, test::kF16);
  if (!tensors) {
    return w;
  }
  w.tensor("output_norm.weight", {e}, test::kF32);
  for (std::uint32_t i = 0; i < u("num_hidden_layers"); ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_q.weight", {e, q}, test::kF16);
    w.tensor(b + "attn_k.weight", {e, kv}, test::kF16);
    w.tensor(b + "attn_v.weight", {e, kv}, test::kF16);
    w.tensor(b + "attn_output.weight", {q, e}, test::kF16);
    w.tensor(b + "attn_k_norm.weight", {hd}, test::kF32);
    w.tensor(b + "attn_q_norm.weight", {hd}, test::kF32);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_gate.weight", {e, ff}, test::kF16);
    w.tensor(b + "ffn_down.weight", {ff, e}, test::kF16);
    w.tensor(b + "ffn_up.weight", {e, ff}, test::kF16);
  }
  return w;
}

TEST(Maincoder, ConfigIsKnownAndItsMlpGated) {
  const Model m = test::from_config(maincoder_illustrative());
  EXPECT_TRUE(m.unchecked_architecture.empty()) << m.unchecked_architecture;
  EXPECT_TRUE(m.arch.mlp_gated);
  EXPECT_FALSE(m.arch.tied_embeddings);
  EXPECT_EQ(m.arch.head_dim, 128);
  EXPECT_EQ(m.arch.kv_heads, 4);
}

// build_attn_inp_kv: K and V of 4 KV heads x 128 per token on all 32
// layers, F16.
TEST(Maincoder, KvCacheIsOrdinaryGqa) {
  const Model m = test::from_config(maincoder_illustrative());
  EXPECT_EQ(test::llama_cpp_q4_estimate(m, 2048, true).memory.kv_cache,
            std::int64_t{32} * 2 * 4 * 128 * 2 * 2048);
}

TEST(Maincoder, GgufHeaderGivesWhatTheConfigGives) {
  const Model c = test::from_config(maincoder_illustrative());
  const Model g = test::from_gguf_header(maincoder_gguf(maincoder_illustrative(), false));
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_FALSE(g.arch.tied_embeddings);
  test::expect_same_estimate(g, c, "maincoder GGUF vs config", {2048, 32768});
}

// The weights willfit lays out in F16 are the converter's file byte for
// byte but for the per-head Q and K norms (two F32 vectors of 128 a layer),
// which willfit leaves out for every qk-normed model.
TEST(Maincoder, F16LayoutIsTheFileButTheQkNorms) {
  const Model c = test::from_config(maincoder_illustrative());
  const test::GgufWriter w = maincoder_gguf(maincoder_illustrative(), true);
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total() + 32 * 2 * 128 * 4, w.data_size());
}

}  // namespace
}  // namespace willfit
