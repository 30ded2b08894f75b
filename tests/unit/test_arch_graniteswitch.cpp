// Granite Switch (llama.cpp `graniteswitch`, config.json model_type
// `granite_switch`; issue 18). granite-switch.cpp at 80fb11ac: a dense
// Granite layer (RMS norms, one fused QKV, SwiGLU, the muP multipliers)
// whose every projection (Q, K, V, output, gate, up, down) adds a per-token
// LoRA delta taken from the adapters stacked over slots (adapters + 1, slot
// 0 the zero delta), the slot picked by a one-head router attention over
// control-token signals, cached as one more layer (n_layer_all = layers +
// 1, one head of the head width). Read from its published shape and from
// the GGUF header llama.cpp's converter writes; both must give one estimate.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/catalogue_checks.hpp"
#include "unit/live_rows.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/core/units.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/hf_config.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::rel;

// ibm-granite/granite-switch-4.1-8b-preview (the hub is not reachable here):
// - its BUILD.md, as a hub mirror serves it
//   (huggingface.openai4gpt.trade/ibm-granite/granite-switch-4.1-8b-preview/
//   raw/main/BUILD.md, found with the search tool): base
//   ibm-granite/granite-4.1-8b, hidden 4096, 40 layers, 32 heads, vocab
//   100352; 12 adapters at ranks 16 and 32, control tokens 100352..100363;
// - the Granite 4.1 report's architecture table (arc-codex.com article
//   b152637ab673996f473efcd13d58ff2b): 8B dense, 8 KV heads, head 128, MLP
//   12800, tied embeddings;
// - generative-computing/granite-switch docs (GraniteSwitchConfig, a public Markdown developer note
// of granite-switch (Granite-specific multipliers attention_multiplier, logits_scaling,
// residual_multiplier, embedding_multiplier; GraniteSwitchModel.forward)): model_type
// granite_switch, num_adapters,
//   max_lora_rank = max(adapter_ranks), layer_types as long as
//   num_hidden_layers, which includes the switch's slot: 41;
// - the hub's listing (onlylabs.fyi signal of the model page): 9.6B params.
// The vocabulary holds the control tokens past the base's 100352: 100364
// rows at least (the composed size is not transcribed; 12 rows of 4096 are
// 0.05 % of the total). The multipliers move no buffer and are left out.
Json switch_config(int layers = 41) {
  Json j = {{"model_type", "granite_switch"},
            {"architectures", {"GraniteSwitchForCausalLM"}},
            {"hidden_size", 4096},
            {"num_hidden_layers", layers},
            {"num_attention_heads", 32},
            {"num_key_value_heads", 8},
            {"intermediate_size", 12800},
            {"shared_intermediate_size", 12800},
            {"num_local_experts", 0},
            {"vocab_size", 100364},
            {"max_position_embeddings", 131072},
            {"hidden_act", "silu"},
            {"rms_norm_eps", 1e-5},
            {"tie_word_embeddings", true},
            {"num_adapters", 12},
            {"max_lora_rank", 32},
            {"adapter_ranks", {16, 32, 32, 16, 16, 32, 16, 32, 16, 32, 32, 16}},
            {"control_token_gain", 15.0}};
  j["layer_types"] = Json::array();
  for (int i = 0; i < layers; ++i) {
    j["layer_types"].push_back("attention");
  }
  return j;
}

// The GGUF llama.cpp's converter writes (conversion/granite.py
// GraniteSwitchModel: block_count = num_hidden_layers - 1, the adapter keys,
// expert_used_count 0) and the tensors granite-switch.cpp loads, F16
// matrices and LoRAs, F32 norms, no output (tied).
test::GgufWriter switch_gguf(int layers = 40, bool with_layers = true) {
  const std::string a = "graniteswitch";
  constexpr std::uint64_t e = 4096;
  constexpr std::uint64_t ff = 12800;
  constexpr std::uint64_t vocab = 100364;
  constexpr std::uint64_t q = 4096;
  constexpr std::uint64_t kv = 1024;
  constexpr std::uint64_t r = 32;
  constexpr std::uint64_t slots = 13;
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".context_length", 131072);
  w.u32(a + ".embedding_length", e);
  w.u32(a + ".feed_forward_length", ff);
  w.u32(a + ".block_count", static_cast<std::uint32_t>(layers));
  w.u32(a + ".attention.head_count", 32);
  w.u32(a + ".attention.head_count_kv", 8);
  w.f32(a + ".attention.layer_norm_rms_epsilon", 1e-5F);
  w.u32(a + ".rope.dimension_count", 128);
  w.u32(a + ".expert_shared_feed_forward_length", ff);
  w.u32(a + ".expert_used_count", 0);
  w.f32(a + ".logit_scale", 16.0F);
  w.u32(a + ".adapters.count", 12);
  w.u32(a + ".adapters.lora_rank", 32);
  std::vector<std::uint32_t> activate;
  for (std::uint32_t i = 0; i < 12; ++i) {
    activate.push_back(100352 + i);
  }
  w.u32_array(a + ".adapters.token_ids_activate", activate);
  w.u32_array(a + ".adapters.token_ids_substitute", std::vector<std::uint32_t>(12, 3));
  w.f32(a + ".adapters.router_gain", 15.0F);
  w.u32("general.file_type", 1);
  w.tensor("token_embd.weight", {e, vocab}, test::kF16);
  w.tensor("output_norm.weight", {e}, test::kF32);
  for (int i = 0; with_layers && i < layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_qkv.weight", {e, q + 2 * kv}, test::kF16);
    w.tensor(b + "attn_output.weight", {q, e}, test::kF16);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_gate.weight", {e, ff}, test::kF16);
    w.tensor(b + "ffn_up.weight", {e, ff}, test::kF16);
    w.tensor(b + "ffn_down.weight", {ff, e}, test::kF16);
    const std::vector<std::pair<std::string, std::pair<std::uint64_t, std::uint64_t>>> loras = {
        {"attn_q", {e, q}},    {"attn_k", {e, kv}}, {"attn_v", {e, kv}},  {"attn_output", {q, e}},
        {"ffn_gate", {e, ff}}, {"ffn_up", {e, ff}}, {"ffn_down", {ff, e}}};
    for (const auto& [name, io] : loras) {
      w.tensor(b + name + ".lora_a", {io.first, r, slots}, test::kF16);
      w.tensor(b + name + ".lora_b", {r, io.second, slots}, test::kF16);
    }
  }
  return w;
}

// 40 layers (the switch's slot is not a decoder layer), and the hub's 9.6B:
// Granite 4.1 8B's 8.38 B plus 12 adapters' LoRAs at rank 32 on every
// projection of every layer (1.19 B), the checkpoint's count. A token reads
// one adapter's.
TEST(GraniteSwitch, ConfigIsKnownAndCountsTheCard) {
  const Model m = test::from_config(switch_config());
  EXPECT_TRUE(m.unchecked_architecture.empty());
  EXPECT_EQ(m.arch.layers, 40);
  EXPECT_EQ(m.arch.adapters, 12);
  EXPECT_EQ(m.arch.adapter_rank, 32);
  EXPECT_EQ(m.arch.intermediate_size, 12800);
  EXPECT_TRUE(m.arch.attention.fused_qkv);
  const ParamBreakdown p = count_params(m.arch);
  EXPECT_LT(rel(static_cast<double>(p.total()), 9.6e9), 0.01) << p.total();
  Architecture base = m.arch;
  base.adapters = 0;
  const ParamBreakdown b = count_params(base);
  EXPECT_LT(rel(static_cast<double>(b.total()), 8.38e9), 0.01) << b.total();
  EXPECT_EQ(p.active() - b.active(), 40 * adapter_params_per_layer(m.arch));
}

// Every layer's 8 KV heads of 128, and the router's one head: at 4096
// tokens in F16, 40 x 2 x 1024 x 2 x 4096 + 2 x 128 x 2 x 4096 bytes; V
// stored transposed (no flash attention) pads the router's V to 1024 rows.
// The catalogue's granite-switch-4.1-8b-preview (data/models.json) is the
// config.json above: 40 decoder layers, 12 adapters of rank 32, the router's
// cache; the same weights, cache and compute buffer, and the hub's 9.6B
// within 1 % of the count.
TEST(GraniteSwitch, CatalogueEntryIsItsConfig) {
  const Model& cat = test::catalogue_model("granite-switch-4.1-8b-preview");
  EXPECT_EQ(cat.arch.layers, 40);
  EXPECT_EQ(cat.arch.adapters, 12);
  EXPECT_EQ(cat.arch.adapter_rank, 32);
  test::expect_catalogue_is_config("granite-switch-4.1-8b-preview",
                                   test::from_config(switch_config()), {4096, 32768});
}

TEST(GraniteSwitch, KvCacheHoldsTheRouterLayer) {
  const Model m = test::from_config(switch_config());
  const std::int64_t cells = 4096;
  const std::int64_t layers = std::int64_t{40} * 2 * 1024 * 2 * cells;
  KvCacheQuery q{4096, 1, 512, kv_f16(), kv_f16(), 256};
  EXPECT_EQ(kv_cache_bytes(m.arch, q), layers + 2 * 128 * 2 * cells);
  q.v_rows_padded = true;
  EXPECT_EQ(kv_cache_bytes(m.arch, q), layers + (128 + 1024) * 2 * cells);
}

TEST(GraniteSwitch, GgufHeaderGivesWhatTheConfigGives) {
  for (const bool layers : {true, false}) {
    const Model g = test::from_gguf_header(switch_gguf(40, layers));
    const Model c = test::from_config(switch_config());
    EXPECT_TRUE(g.unchecked_architecture.empty());
    EXPECT_EQ(g.arch.adapters, 12);
    EXPECT_EQ(g.arch.adapter_rank, 32);
    EXPECT_TRUE(g.arch.attention.fused_qkv);
    EXPECT_EQ(count_params(g.arch).total(), count_params(c.arch).total());
    test::expect_same_estimate(g, c, "graniteswitch GGUF vs config", {1024, 4096});
  }
}

// The weights willfit lays out in F16 are the file's tensors byte for byte,
// the 13 stacked slots included.
TEST(GraniteSwitch, WeightsAreTheFilesTensors) {
  const Model c = test::from_config(switch_config());
  EXPECT_EQ(weight_layout(c, *parse_precision("f16")).total(), switch_gguf().data_size());
}

// llama-quantize leaves the LoRAs as converted (their names end in
// ".lora_a"/".lora_b", not "weight"): at Q4_K_M they stay F16, 13 slots of
// each adapter's values on every layer.
TEST(GraniteSwitch, QuantisedFileKeepsTheLorasF16) {
  const Model c = test::from_config(switch_config());
  Model base = c;
  base.arch.adapters = 0;
  const auto q4 = *parse_precision("q4_k_m");
  const std::int64_t loras = weight_layout(c, q4).total() - weight_layout(base, q4).total();
  const std::int64_t f16 = 2 * 40 * 13 * adapter_params_per_layer(c.arch);
  // ffn_down's bumps count 41 layers with the router's slot (n_layer_all),
  // which moves a few ffn_down tensors between Q4_K and Q6_K.
  EXPECT_LT(std::abs(static_cast<double>(loras - f16)) / static_cast<double>(f16), 0.05) << loras;
}

// Granite Switch 4.1 8B REDUCED to 4 of its 40 layers (make_gguf row
// granite-switch-8b-r4, every width the model's, the 12 adapters at rank
// 32 in 13 slots), read from the published shape with num_hidden_layers 5
// (the switch's slot and 4 layers), against what a real llama.cpp allocated
// for the synthetic F16, Q8_0 and Q4_K_M files
// (tests/data/llamacpp_cpu_compute_graniteswitch.csv,
// llamacpp_cpu_kv_graniteswitch.csv; docs/live-llamacpp.md, Granite Switch
// run).
TEST(GraniteSwitch, MatchesTheLiveLlamaCpp) {
  const Model m = test::from_config(switch_config(5));
  // every row within 0.1 %, the KV buffers within the log's rounding
  test::expect_live_tables(m, "graniteswitch", 27, 0.1);
}

}  // namespace
}  // namespace willfit
