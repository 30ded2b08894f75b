// Embedding models llama.cpp runs that are not BERT's block, first-class
// (issue 18): llama-embed (nvidia/llama-embed-nemotron-8b), eurobert
// (EuroBERT 210m, 610m, 2.1B) and neo-bert (chandar-lab/NeoBERT). Each is
// read from its published config.json and from a GGUF header as llama.cpp's
// converter writes it (conversion/llama.py and conversion/bert.py at
// 80fb11ac): both must give one estimate, and the parameter count must match
// the published one. The expected numbers come from the configs, the cards
// and the checkpoints, not from willfit.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/catalogue_checks.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/model.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;
using test::from_config;
using test::from_gguf;
using test::llama_cpp_q4_estimate;
using test::rel;

// Two readings of one model: the same block, the same KV cache (none for an
// encoder) and one compute buffer, never empty, with and without flash
// attention, short and long context (test::expect_same_estimate).
void expect_same_reading(const Model& a, const Model& b, const std::string& what) {
  EXPECT_EQ(a.embedding, b.embedding) << what;
  EXPECT_EQ(a.arch.mlp_gated, b.arch.mlp_gated) << what;
  EXPECT_EQ(a.arch.fused_gate_up, b.arch.fused_gate_up) << what;
  EXPECT_EQ(a.arch.attention.fused_qkv, b.arch.attention.fused_qkv) << what;
  EXPECT_EQ(a.arch.attention.no_kv_cache, b.arch.attention.no_kv_cache) << what;
  EXPECT_EQ(a.arch.attention.uncached_graph, b.arch.attention.uncached_graph) << what;
  EXPECT_EQ(a.arch.tied_embeddings, b.arch.tied_embeddings) << what;
  const test::EstimateGrid grid{.contexts = {512, 8192},
                                .params = test::EstimateGrid::Params::None};
  for (const auto& p : test::expect_same_estimate(a, b, what, grid)) {
    EXPECT_GT(p.x.memory.compute, 0) << what << " at " << p.context;
  }
}

// ---------------------------------------------------------------------------
// nvidia/llama-embed-nemotron-8b (llama-embed).
//
// Its config.json: model_type llama_bidirec, architecture
// LlamaBidirectionalModel, "the Llama-3.1-8B dense GQA backbone
// (hidden_size 4096, 32 layers, 32/8 GQA heads, head_dim 128,
// intermediate_size 14336, vocab 128256, llama3 RoPE scaling)", no lm_head
// (a mean-pooled embedding instead), as a vLLM port's README transcribes it
// (code index, a public Markdown change list of a vllm-neuron port (vllm_neuron/compile/backend.py
// 'Opt-in VLLM_NEURON_FORCE_LNC1 single-core codegen'): vllm-neuron's llama-embed-nemotron-8b
// README, "Model Architecture"). The keys it leaves out are Llama-3.1-8B's:
// rope_theta 500000, the llama3 scaling (factor 8, low 1, high 4, original
// 8192), max_position_embeddings 131072, rms_norm_eps 1e-5
// (meta-llama/Llama-3.1-8B as tests/live/make_gguf.cpp's llama-3.1-8b row
// cites it: mlc-ai/mlc-llm model_preset.py llama3_1_8b @79d603f0).
Json llama_embed_config() {
  return {{"model_type", "llama_bidirec"},
          {"architectures", {"LlamaBidirectionalModel"}},
          {"hidden_size", 4096},
          {"intermediate_size", 14336},
          {"num_hidden_layers", 32},
          {"num_attention_heads", 32},
          {"num_key_value_heads", 8},
          {"head_dim", 128},
          {"vocab_size", 128256},
          {"max_position_embeddings", 131072},
          {"rope_theta", 500000.0},
          {"rope_scaling",
           {{"rope_type", "llama3"},
            {"factor", 8.0},
            {"low_freq_factor", 1.0},
            {"high_freq_factor", 4.0},
            {"original_max_position_embeddings", 8192}}},
          {"rms_norm_eps", 1e-5},
          {"pooling", "avg"}};
}

// The GGUF llama.cpp's converter writes for it (conversion/llama.py
// LlamaEmbedNemotronModel on LlamaModel at 80fb11ac): llama's keys under
// llama-embed (no pooling type: LlamaModel sets none; no causal key), the
// llama3 frequency factors as rope_freqs, and llama's tensors but the
// output head, which the checkpoint has not (llama.cpp's llama
// load_arch_tensors then duplicates token_embd for it).
test::GgufWriter llama_embed_gguf(int layers) {
  const std::string a = "llama-embed";
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".block_count", static_cast<std::uint32_t>(layers));
  w.u32(a + ".context_length", 131072);
  w.u32(a + ".embedding_length", 4096);
  w.u32(a + ".feed_forward_length", 14336);
  w.u32(a + ".attention.head_count", 32);
  w.u32(a + ".attention.head_count_kv", 8);
  w.u32(a + ".attention.key_length", 128);
  w.u32(a + ".attention.value_length", 128);
  w.u32(a + ".rope.dimension_count", 128);
  w.f32(a + ".rope.freq_base", 500000.0F);
  w.f32(a + ".attention.layer_norm_rms_epsilon", 1e-5F);
  w.u32(a + ".vocab_size", 128256);
  w.tensor("token_embd.weight", {4096, 128256}, test::kF16);
  w.tensor("rope_freqs.weight", {64}, test::kF32);
  for (int i = 0; i < layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {4096}, test::kF32);
    w.tensor(b + "attn_q.weight", {4096, 4096}, test::kF16);
    w.tensor(b + "attn_k.weight", {4096, 1024}, test::kF16);
    w.tensor(b + "attn_v.weight", {4096, 1024}, test::kF16);
    w.tensor(b + "attn_output.weight", {4096, 4096}, test::kF16);
    w.tensor(b + "ffn_norm.weight", {4096}, test::kF32);
    w.tensor(b + "ffn_gate.weight", {4096, 14336}, test::kF16);
    w.tensor(b + "ffn_up.weight", {4096, 14336}, test::kF16);
    w.tensor(b + "ffn_down.weight", {14336, 4096}, test::kF16);
  }
  w.tensor("output_norm.weight", {4096}, test::kF32);
  return w;
}

TEST(LlamaEmbed, ConfigReadsTheEmbeddingModelItIs) {
  const Model c = from_config(llama_embed_config());
  EXPECT_TRUE(c.unchecked_architecture.empty()) << c.unchecked_architecture;
  EXPECT_TRUE(c.embedding);
  EXPECT_TRUE(c.arch.attention.uncached_graph);
  EXPECT_FALSE(c.arch.attention.no_kv_cache);  // llama.cpp still makes the cache
  EXPECT_EQ(c.arch.layers, 32);
  EXPECT_EQ(c.arch.kv_heads, 8);
  EXPECT_EQ(c.arch.head_dim, 128);
  EXPECT_TRUE(c.arch.tied_embeddings);  // no lm_head of its own
  // mteb's ModelMeta for nvidia/llama-embed-nemotron-8b (revision 84a37559):
  // n_parameters 7_504_924_672 (embeddings-benchmark/mteb, code index a public Python MTEB-style
  // model metadata file (its last entry reference
  // 'https://huggingface.co/nvidia/llama-nemotron-rerank-1b-v2', adapted_from
  // meta-llama/Llama-3.2-1B)), within 1 %.
  EXPECT_LT(rel(static_cast<double>(count_params(c.arch).total()), 7504924672.0), 0.01)
      << count_params(c.arch).total();
}

TEST(LlamaEmbed, GgufHeaderGivesWhatTheConfigGives) {
  // The header alone, the file's size claimed: 15 GB of zeroed F16 data
  // would only be allocated and skipped.
  const Model g = test::from_gguf_header(llama_embed_gguf(32));
  const Model c = from_config(llama_embed_config());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_TRUE(g.embedding);  // no pooling key, an embedding model all the same
  EXPECT_TRUE(g.arch.attention.uncached_graph);
  EXPECT_TRUE(g.arch.tied_embeddings);
  // The file's tensors: the checkpoint's 7,504,924,672 (mteb above) plus
  // the 64 llama3 frequency factors.
  EXPECT_EQ(g.params, 7504924672 + 64);
  expect_same_reading(g, c, "llama-embed-nemotron-8b");
}

TEST(LlamaEmbed, KeepsLlamasCacheButAttendsOverTheBatch) {
  // The same weights read as llama: the same KV cache (create_memory's
  // default for both), but llama-embed's graph attends over the micro-batch
  // (a tokens x tokens mask, not tokens x context) and ends without logits.
  const Model e = from_config(llama_embed_config());
  Json j = llama_embed_config();
  j["model_type"] = "llama";
  j["architectures"] = {"LlamaForCausalLM"};
  const Model l = from_config(j);
  for (const bool flash : {false, true}) {
    const Estimate x = llama_cpp_q4_estimate(e, 32768, flash);
    const Estimate y = llama_cpp_q4_estimate(l, 32768, flash);
    EXPECT_GT(x.memory.kv_cache, 0);
    EXPECT_EQ(x.memory.kv_cache, y.memory.kv_cache);
    EXPECT_LT(x.memory.compute, y.memory.compute) << flash;
  }
}

// ---------------------------------------------------------------------------
// EuroBERT (eurobert).
//
// EuroBERT/EuroBERT-210m's config.json (model_type eurobert) as an audit of
// the family transcribes the hub's three configs (code index,
// a public Markdown implementation checklist of an encoder port ('Implement RoPE theta 250000',
// 'Add GQA parity tests for 610m and 2.1B dimensions'), "Important config dimensions"): hidden 768,
// 12 layers, 12 heads, 12 KV heads, intermediate 3072, max positions 8192, vocab 128256; for all:
// hidden_act silu, no attention or MLP bias, rms_norm_eps 1e-5, tie_word_embeddings false,
// rope_theta 250000. EuroBERT-610m: 1152, 26 layers, 18 heads, 6 KV heads, intermediate 4096;
// EuroBERT-2.1B: 2304, 32 layers, 18 heads, 6 KV heads, intermediate 6144. The sizes are the
// family's names (the release: "210M to 2.1B parameters",
// ManuelFay/ManuelFay.github.io _news/release_eurobert.md), counted without
// the masked-LM head, which llama.cpp does not load (eurobert.cpp creates no
// output tensor; the converter drops nothing else).
Json eurobert_config(int hidden, int layers, int heads, int kv_heads, int ffn) {
  return {{"model_type", "eurobert"},
          {"architectures", {"EuroBertForMaskedLM"}},
          {"hidden_size", hidden},
          {"num_hidden_layers", layers},
          {"num_attention_heads", heads},
          {"num_key_value_heads", kv_heads},
          {"intermediate_size", ffn},
          {"vocab_size", 128256},
          {"max_position_embeddings", 8192},
          {"hidden_act", "silu"},
          {"attention_bias", false},
          {"mlp_bias", false},
          {"rms_norm_eps", 1e-5},
          {"rope_theta", 250000.0},
          {"tie_word_embeddings", false}};
}

// The GGUF llama.cpp's converter writes for it (conversion/bert.py
// EuroBertModel at 80fb11ac): the base keys, causal false, no pooling type
// for the base model (no sentence-transformers module to read one from);
// eurobert.cpp's tensors: token_embd, per layer attn_norm, q, k, v, output,
// ffn_norm, gate, up, down, and output_norm; no output head.
test::GgufWriter eurobert_gguf(int hidden, int layers, int heads, int kv_heads, int ffn) {
  const std::string a = "eurobert";
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".block_count", static_cast<std::uint32_t>(layers));
  w.u32(a + ".context_length", 8192);
  w.u32(a + ".embedding_length", static_cast<std::uint32_t>(hidden));
  w.u32(a + ".feed_forward_length", static_cast<std::uint32_t>(ffn));
  w.u32(a + ".attention.head_count", static_cast<std::uint32_t>(heads));
  w.u32(a + ".attention.head_count_kv", static_cast<std::uint32_t>(kv_heads));
  w.f32(a + ".rope.freq_base", 250000.0F);
  w.f32(a + ".attention.layer_norm_rms_epsilon", 1e-5F);
  w.boolean(a + ".attention.causal", false);
  const auto e = static_cast<std::uint64_t>(hidden);
  const auto kv = e / static_cast<std::uint64_t>(heads) * static_cast<std::uint64_t>(kv_heads);
  const auto f = static_cast<std::uint64_t>(ffn);
  w.tensor("token_embd.weight", {e, 128256}, test::kF16);
  for (int i = 0; i < layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {e}, test::kF32);
    w.tensor(b + "attn_q.weight", {e, e}, test::kF16);
    w.tensor(b + "attn_k.weight", {e, kv}, test::kF16);
    w.tensor(b + "attn_v.weight", {e, kv}, test::kF16);
    w.tensor(b + "attn_output.weight", {e, e}, test::kF16);
    w.tensor(b + "ffn_norm.weight", {e}, test::kF32);
    w.tensor(b + "ffn_gate.weight", {e, f}, test::kF16);
    w.tensor(b + "ffn_up.weight", {e, f}, test::kF16);
    w.tensor(b + "ffn_down.weight", {f, e}, test::kF16);
  }
  w.tensor("output_norm.weight", {e}, test::kF32);
  return w;
}

TEST(EuroBert, ConfigReadsTheEncoderItIs) {
  const Model c = from_config(eurobert_config(768, 12, 12, 12, 3072));
  EXPECT_TRUE(c.unchecked_architecture.empty()) << c.unchecked_architecture;
  EXPECT_TRUE(c.embedding);
  EXPECT_TRUE(c.arch.attention.no_kv_cache);
  EXPECT_TRUE(c.arch.no_output_head);
  EXPECT_FALSE(c.arch.attention.fused_qkv);
  EXPECT_FALSE(c.arch.fused_gate_up);
  EXPECT_FALSE(c.arch.attention.post_norm);  // llama's pre-norm block
  EXPECT_EQ(c.arch.head_dim, 64);
  EXPECT_EQ(c.arch.max_context, 8192);
  EXPECT_LT(rel(static_cast<double>(count_params(c.arch).total()), 210e6), 0.01)
      << count_params(c.arch).total();
}

TEST(EuroBert, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = from_gguf(eurobert_gguf(768, 12, 12, 12, 3072));
  const Model c = from_config(eurobert_config(768, 12, 12, 12, 3072));
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_TRUE(g.embedding);  // no pooling key: an encoder embeds all the same
  EXPECT_TRUE(g.arch.attention.no_kv_cache);
  EXPECT_TRUE(g.arch.no_output_head);
  // 128256 x 768 + 768 outside the layers; per layer 4 x 768^2 + 3 x 768 x
  // 3072 + 2 x 768 = 9,438,720: 211,766,016 in all, the 210M of its name
  // within 1 %.
  EXPECT_EQ(g.params, 211766016);
  EXPECT_LT(rel(static_cast<double>(count_params(c.arch).total()), static_cast<double>(g.params)),
            0.001);
  expect_same_reading(g, c, "EuroBERT-210m");
}

TEST(EuroBert, LargerSizesMatchTheirNames) {
  struct Size {
    int hidden, layers, heads, kv_heads, ffn;
    double params;
  };
  for (const Size s : {Size{1152, 26, 18, 6, 4096, 610e6}, Size{2304, 32, 18, 6, 6144, 2.1e9}}) {
    const Model c = from_config(eurobert_config(s.hidden, s.layers, s.heads, s.kv_heads, s.ffn));
    EXPECT_EQ(c.arch.kv_heads, s.kv_heads);
    EXPECT_LT(rel(static_cast<double>(count_params(c.arch).total()), s.params), 0.01)
        << count_params(c.arch).total();
    const Model g =
        test::from_gguf_header(eurobert_gguf(s.hidden, s.layers, s.heads, s.kv_heads, s.ffn));
    EXPECT_LT(rel(static_cast<double>(g.params), s.params), 0.01) << g.params;
    expect_same_reading(g, c, "EuroBERT " + std::to_string(s.layers));
  }
}

// The catalogue's three EuroBERT entries (data/models.json) are the configs
// above. Their counts come from the world: a public table of the hub configs,
// pinned by revision, gives each loaded EuroBertForMaskedLM's total
// (310,266,624; 755,625,600; 2,403,092,736); less the untied masked-LM head
// (128256 x hidden), which llama.cpp does not load, that is the encoder's
// tensors (the GGUF's 211,766,016 for the 210m, above).
TEST(EuroBert, CatalogueEntriesAreTheirConfigs) {
  struct Entry {
    const char* id;
    int hidden, layers, heads, kv_heads, ffn;
    std::int64_t with_mlm_head;
  };
  for (const Entry e : {Entry{"eurobert-210m", 768, 12, 12, 12, 3072, 310266624},
                        Entry{"eurobert-610m", 1152, 26, 18, 6, 4096, 755625600},
                        Entry{"eurobert-2.1b", 2304, 32, 18, 6, 6144, 2403092736}}) {
    SCOPED_TRACE(e.id);
    const Model& cat = test::catalogue_model(e.id);
    EXPECT_TRUE(cat.embedding);
    EXPECT_TRUE(cat.arch.no_output_head);
    EXPECT_TRUE(cat.arch.attention.no_kv_cache);
    EXPECT_EQ(cat.params, e.with_mlm_head - std::int64_t{128256} * e.hidden);
    const Model c = from_config(eurobert_config(e.hidden, e.layers, e.heads, e.kv_heads, e.ffn));
    EXPECT_LT(
        rel(static_cast<double>(count_params(c.arch).total()), static_cast<double>(cat.params)),
        0.001)
        << count_params(c.arch).total();
    test::expect_catalogue_is_config(e.id, c, {512, 8192});
  }
}

// ---------------------------------------------------------------------------
// chandar-lab/NeoBERT (neo-bert).
//
// Its config.json as a port's report quotes it in full (code index,
// a public Markdown port report of NeoBERT (third_party/neobert_original/, 'needs a .gitignore
// entry before staging to avoid committing the 980 MB weights'), "Original config.json"):
// model_type neobert, hidden_size 768, num_hidden_layers 28, num_attention_heads 12,
// intermediate_size 3072, vocab_size 30522, max_length 4096, norm_eps 1e-5, torch_dtype float32.
// The same report lists the checkpoint's 172 tensors: the embeddings
// (30522 x 768), the final norm (768), per layer attention_norm and ffn_norm
// (768 each), qkv (2304 x 768), wo (768 x 768), ffn.w12 (4096 x 768) and
// ffn.w3 (768 x 2048), and the masked-LM decoder (30522 x 768 and its bias),
// which llama.cpp's converter drops (conversion/bert.py NeoBert).
Json neobert_config() {
  return {{"model_type", "neobert"},   {"architectures", {"NeoBERTLMHead"}},
          {"hidden_size", 768},        {"num_hidden_layers", 28},
          {"num_attention_heads", 12}, {"intermediate_size", 3072},
          {"vocab_size", 30522},       {"max_length", 4096},
          {"norm_eps", 1e-5},          {"pad_token_id", 0},
          {"torch_dtype", "float32"}};
}

// The GGUF llama.cpp's converter writes for it (conversion/bert.py NeoBert
// on BertModel at 80fb11ac): context_length from max_length, the base
// keys, feed_forward_length 2/3 of intermediate_size, RoPE base 10000, the
// RMS epsilon, causal false, CLS pooling, one token type; neo-bert.cpp's
// tensors: token_embd, per layer attn_norm, attn_qkv, attn_output, ffn_norm,
// ffn_up (w12, 2 x 2048) and ffn_down (w3), and enc.output_norm.
test::GgufWriter neobert_gguf() {
  const std::string a = "neo-bert";
  test::GgufWriter w;
  w.str("general.architecture", a);
  w.u32(a + ".block_count", 28);
  w.u32(a + ".context_length", 4096);
  w.u32(a + ".embedding_length", 768);
  w.u32(a + ".feed_forward_length", 2048);
  w.u32(a + ".attention.head_count", 12);
  w.f32(a + ".rope.freq_base", 10000.0F);
  w.f32(a + ".attention.layer_norm_rms_epsilon", 1e-5F);
  w.boolean(a + ".attention.causal", false);
  w.u32(a + ".pooling_type", 2);
  w.u32("tokenizer.ggml.token_type_count", 1);
  w.tensor("token_embd.weight", {768, 30522}, test::kF16);
  for (int i = 0; i < 28; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {768}, test::kF32);
    w.tensor(b + "attn_qkv.weight", {768, 2304}, test::kF16);
    w.tensor(b + "attn_output.weight", {768, 768}, test::kF16);
    w.tensor(b + "ffn_norm.weight", {768}, test::kF32);
    w.tensor(b + "ffn_up.weight", {768, 4096}, test::kF16);
    w.tensor(b + "ffn_down.weight", {2048, 768}, test::kF16);
  }
  w.tensor("enc.output_norm.weight", {768}, test::kF32);
  return w;
}

// The checkpoint's tensors less the decoder (the report above): 30522 x 768
// + 768 + 28 x (2 x 768 + 2304 x 768 + 768^2 + 4096 x 768 + 768 x 2048).
constexpr std::int64_t kNeoBertEncoderParams = 221665536;

TEST(NeoBert, ConfigReadsTheEncoderItIs) {
  const Model c = from_config(neobert_config());
  EXPECT_TRUE(c.unchecked_architecture.empty()) << c.unchecked_architecture;
  EXPECT_TRUE(c.embedding);
  EXPECT_TRUE(c.arch.attention.no_kv_cache);
  EXPECT_TRUE(c.arch.attention.fused_qkv);
  EXPECT_TRUE(c.arch.fused_gate_up);
  EXPECT_FALSE(c.arch.attention.post_norm);
  EXPECT_EQ(c.arch.intermediate_size, 2048);  // w3 is 768 x 2048
  EXPECT_EQ(c.arch.kv_heads, 12);
  EXPECT_EQ(c.arch.max_context, 4096);
  EXPECT_LT(rel(static_cast<double>(count_params(c.arch).total()),
                static_cast<double>(kNeoBertEncoderParams)),
            0.01)
      << count_params(c.arch).total();
  // With the decoder (30522 x 768 + 30522) the whole checkpoint, 245.1 M:
  // the card's "250M parameter footprint" (pszemraj/NeoBERT README.md, a
  // fork quoting chandar-lab/NeoBERT's) rounds it, within 2 %.
  const double whole = static_cast<double>(count_params(c.arch).total()) + 30522.0 * 769.0;
  EXPECT_LT(rel(whole, 250e6), 0.02) << whole;
}

TEST(NeoBert, GgufHeaderGivesWhatTheConfigGives) {
  const Model g = from_gguf(neobert_gguf());
  const Model c = from_config(neobert_config());
  EXPECT_TRUE(g.unchecked_architecture.empty()) << g.unchecked_architecture;
  EXPECT_TRUE(g.arch.attention.fused_qkv);
  EXPECT_TRUE(g.arch.fused_gate_up);
  EXPECT_EQ(g.arch.kv_heads, 12);
  EXPECT_EQ(g.arch.intermediate_size, 2048);
  EXPECT_EQ(g.arch.max_context, 4096);
  EXPECT_EQ(g.params, kNeoBertEncoderParams);
  expect_same_reading(g, c, "NeoBERT");
}

// The catalogue's neobert (data/models.json) is the config.json above: an
// encoder with no cache and no output head, one qkv and one w12, the same
// weights and compute buffer, its 221,665,536 (the listed tensors less the
// decoder) the count.
TEST(NeoBert, CatalogueEntryIsItsConfig) {
  const Model& cat = test::catalogue_model("neobert");
  EXPECT_TRUE(cat.embedding);
  EXPECT_TRUE(cat.arch.no_output_head);
  EXPECT_TRUE(cat.arch.attention.no_kv_cache);
  EXPECT_EQ(cat.params, kNeoBertEncoderParams);
  test::expect_catalogue_is_config("neobert", from_config(neobert_config()), {512, 4096});
}

}  // namespace
}  // namespace willfit
