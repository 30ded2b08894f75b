// GPT-2's layer as each family's llama.cpp loader builds it (issue 18): the
// blocks willfit sizes against the tensors the converter writes and
// llama-quant.cpp types, tensor by tensor. StarCoder2, Phi-2 and BERT have
// q, k and v apart (only v typed as attn_v, where GPT-2's one attn_qkv is
// typed as attn_v whole); Falcon and MPT-7B have no projection biases;
// Falcon-7B and Phi-2 one LayerNorm a layer. Each shape is the model's
// published config (the comment above it says where from); each file's
// tensors are what llama.cpp at 80fb11ac loads (src/models/<arch>.cpp
// load_arch_tensors) with the converter's names (conversion/*.py).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "unit/catalogue_model.hpp"
#include "unit/live_rows.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"
#include "willfit/core/precision.hpp"
#include "willfit/core/units.hpp"
#include "willfit/models/model.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

using Json = nlohmann::json;

// llama-quant.cpp llama_tensor_get_type_impl's use_more_bits: the layers a
// Q4_K_M file gives attn_v and ffn_down at Q6_K.
bool more_bits(int i, int n) {
  return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2;
}

// A file's blocks: `block(w, i)` writes block i's tensors and returns their bytes.
struct FileBlocks {
  test::GgufWriter w;
  std::vector<std::uint64_t> blocks;
};

FileBlocks write_file(const std::string& arch,
                      const std::vector<std::pair<std::string, std::uint64_t>>& keys,
                      std::uint64_t e, std::uint64_t vocab, std::uint32_t file_type, int layers,
                      const std::function<std::uint64_t(test::GgufWriter&, int)>& block) {
  FileBlocks f;
  f.w.str("general.architecture", arch);
  f.w.u32("general.file_type", file_type);
  f.w.u32(arch + ".block_count", static_cast<std::uint32_t>(layers));
  f.w.u32(arch + ".embedding_length", static_cast<std::uint32_t>(e));
  for (const auto& [key, value] : keys) {
    f.w.u32(arch + "." + key, static_cast<std::uint32_t>(value));
  }
  // Falcon-7B's 4544-wide rows take no Q4_K: its tied token_embd is the
  // output, Q8_0 (llama-quant.cpp's Falcon branch).
  f.w.tensor("token_embd.weight", {e, vocab},
             file_type == 1 ? test::kF16 : (e % 256 == 0 ? test::kQ4_K : test::kQ8_0));
  for (int i = 0; i < layers; ++i) {
    f.blocks.push_back(block(f.w, i));
  }
  return f;
}

// willfit's blocks of `m` at `precision` equal the file's.
void expect_blocks(const Model& m, const FileBlocks& f, const char* precision,
                   const std::string& what) {
  const WeightLayout l = weight_layout(m, *parse_precision(precision));
  ASSERT_EQ(l.layers.size(), f.blocks.size()) << what;
  for (std::size_t i = 0; i < f.blocks.size(); ++i) {
    EXPECT_EQ(l.layers[i].bytes, static_cast<Bytes>(f.blocks[i])) << what << " blk." << i;
  }
}

// The GGUF header's reading of the shape in place of the config's (a model
// read from a file is sized by the file's tensors, not by its shape).
Model header_shape(const test::GgufWriter& w, const Model& config) {
  Model m = config;
  m.arch = test::from_gguf_header(w).arch;
  return m;
}

std::string blk(int i) {
  return "blk." + std::to_string(i) + ".";
}

// A LayerNorm's weight and bias, F32.
std::uint64_t layer_norm(test::GgufWriter& w, const std::string& name, std::uint64_t e) {
  return w.tensor(name + ".weight", {e}, test::kF32) + w.tensor(name + ".bias", {e}, test::kF32);
}

// attn_q, attn_k, attn_v and attn_output with their F32 biases, as a Q4_K_M
// file types them: Q4_K, attn_v `v_type` (Q6_K on the use_more_bits layers).
std::uint64_t separate_attention(test::GgufWriter& w, const std::string& b, std::uint64_t e,
                                 std::uint64_t kv, test::TestType v_type) {
  return w.tensor(b + "attn_q.weight", {e, e}, test::kQ4_K) +
         w.tensor(b + "attn_q.bias", {e}, test::kF32) +
         w.tensor(b + "attn_k.weight", {e, kv}, test::kQ4_K) +
         w.tensor(b + "attn_k.bias", {kv}, test::kF32) +
         w.tensor(b + "attn_v.weight", {e, kv}, v_type) +
         w.tensor(b + "attn_v.bias", {kv}, test::kF32) +
         w.tensor(b + "attn_output.weight", {e, e}, test::kQ4_K) +
         w.tensor(b + "attn_output.bias", {e}, test::kF32);
}

// ffn_up and ffn_down with their F32 biases at Q4_K_M: ffn_down `down_type`.
std::uint64_t biased_mlp(test::GgufWriter& w, const std::string& b, std::uint64_t e,
                         std::uint64_t ff, test::TestType down_type) {
  return w.tensor(b + "ffn_up.weight", {e, ff}, test::kQ4_K) +
         w.tensor(b + "ffn_up.bias", {ff}, test::kF32) +
         w.tensor(b + "ffn_down.weight", {ff, e}, down_type) +
         w.tensor(b + "ffn_down.bias", {e}, test::kF32);
}

// ---- StarCoder2-15B ----------------------------------------------------------
// bigcode/starcoder2-15b's config as a public port transcribes it (search
// tool, a Starcoder2Config dataclass with the 15B's values): hidden_size
// 6144, intermediate_size 24576, num_attention_heads 48, num_hidden_layers
// 40, num_key_value_heads 4, vocab_size 49152, max_position_embeddings
// 16384, sliding_window 4096, use_bias true (transformers Starcoder2Config's
// default too).
Json starcoder2_15b() {
  return {{"model_type", "starcoder2"},
          {"architectures", {"Starcoder2ForCausalLM"}},
          {"hidden_size", 6144},
          {"intermediate_size", 24576},
          {"num_attention_heads", 48},
          {"num_hidden_layers", 40},
          {"num_key_value_heads", 4},
          {"vocab_size", 49152},
          {"max_position_embeddings", 16384},
          {"sliding_window", 4096},
          {"use_bias", true},
          {"hidden_act", "gelu_pytorch_tanh"},
          {"norm_epsilon", 1e-5}};
}

// conversion/starcoder.py StarCoder2Model maps q_proj, k_proj, v_proj,
// o_proj, c_fc, c_proj with their biases to attn_q/k/v, attn_output,
// ffn_up, ffn_down; starcoder2.cpp loads them (create_tensor_qkv: no
// attn_qkv in the file) with attn_norm and ffn_norm, weight and bias. At
// Q4_K_M: Q4_K, but attn_v and ffn_down Q6_K on the use_more_bits layers,
// F32 vectors.
TEST(Gpt2LayerFamilies, StarCoder2BlocksAreTheFilesTensors) {
  constexpr std::uint64_t e = 6144;
  constexpr std::uint64_t kv = 4 * 128;
  constexpr std::uint64_t ff = 24576;
  constexpr int n = 40;
  const FileBlocks f = write_file(
      "starcoder2",
      {{"feed_forward_length", ff},
       {"attention.head_count", 48},
       {"attention.head_count_kv", 4},
       {"context_length", 16384}},
      e, 49152, 15, n, [&](test::GgufWriter& w, int i) {
        const test::TestType wide = more_bits(i, n) ? test::kQ6_K : test::kQ4_K;
        const std::string b = blk(i);
        return layer_norm(w, b + "attn_norm", e) + separate_attention(w, b, e, kv, wide) +
               layer_norm(w, b + "ffn_norm", e) + biased_mlp(w, b, e, ff, wide);
      });
  const Model c = test::from_config(starcoder2_15b());
  EXPECT_TRUE(c.arch.gpt2_separate_qkv);
  expect_blocks(c, f, "q4_k_m", "config");
  const Model g = header_shape(f.w, c);
  EXPECT_TRUE(g.arch.gpt2_separate_qkv);
  expect_blocks(g, f, "q4_k_m", "gguf");
  // The fused layout typed q and k as attn_v too: on 40 blocks of
  // 7168 x 6144 weights, about 200 MB more at Q4_K_M.
  Model fused = c;
  fused.arch.gpt2_separate_qkv = false;
  const Bytes over = weight_layout(fused, *parse_precision("q4_k_m")).total() -
                     weight_layout(c, *parse_precision("q4_k_m")).total();
  EXPECT_GT(over, 150'000'000);
}

// ---- Phi-2 -------------------------------------------------------------------
// microsoft/phi-2 config.json as data/models.json's phi-2 entry cites it
// (mlc-ai/mlc-llm model_preset.py): hidden_size 2560, 32 layers, 32 heads,
// intermediate 10240, vocab 51200, partial_rotary_factor 0.4.
Json phi2() {
  return {{"model_type", "phi"},          {"architectures", {"PhiForCausalLM"}},
          {"hidden_size", 2560},          {"intermediate_size", 10240},
          {"num_attention_heads", 32},    {"num_hidden_layers", 32},
          {"vocab_size", 51200},          {"max_position_embeddings", 2048},
          {"partial_rotary_factor", 0.4}, {"hidden_act", "gelu_new"},
          {"tie_word_embeddings", false}};
}

// conversion/phi.py Phi2Model writes transformers' q_proj, k_proj, v_proj,
// dense, fc1, fc2 with biases as attn_q/k/v, attn_output, ffn_up, ffn_down;
// phi2.cpp loads one attn_norm (weight, bias) a layer, no ffn_norm, and
// output_b on the logits.
TEST(Gpt2LayerFamilies, Phi2BlocksAreTheFilesTensors) {
  constexpr std::uint64_t e = 2560;
  constexpr std::uint64_t ff = 10240;
  constexpr int n = 32;
  const FileBlocks f = write_file(
      "phi2", {{"feed_forward_length", ff}, {"attention.head_count", 32}, {"context_length", 2048}},
      e, 51200, 15, n, [&](test::GgufWriter& w, int i) {
        const test::TestType wide = more_bits(i, n) ? test::kQ6_K : test::kQ4_K;
        const std::string b = blk(i);
        return layer_norm(w, b + "attn_norm", e) + separate_attention(w, b, e, e, wide) +
               biased_mlp(w, b, e, ff, wide);
      });
  const Model c = test::from_config(phi2());
  EXPECT_TRUE(c.arch.output_bias);
  expect_blocks(c, f, "q4_k_m", "config");
  expect_blocks(header_shape(f.w, c), f, "q4_k_m", "gguf");
  expect_blocks(test::catalogue_model("phi-2"), f, "q4_k_m", "catalogue");
}

// ---- BERT-base ---------------------------------------------------------------
// bert-base-uncased config.json (data/models.json's entry): hidden 768, 12
// layers, 12 heads, intermediate 3072, vocab 30522, 512 positions.
Json bert_base() {
  return {{"model_type", "bert"},      {"architectures", {"BertForMaskedLM"}},
          {"hidden_size", 768},        {"intermediate_size", 3072},
          {"num_attention_heads", 12}, {"num_hidden_layers", 12},
          {"vocab_size", 30522},       {"max_position_embeddings", 512},
          {"type_vocab_size", 2},      {"hidden_act", "gelu"}};
}

// conversion/bert.py maps query, key, value, attention.output.dense,
// intermediate.dense, output.dense with their biases to attn_q/k/v,
// attn_output, ffn_up, ffn_down, and the two LayerNorms to
// attn_output_norm and layer_output_norm (bert.cpp load_arch_tensors).
TEST(Gpt2LayerFamilies, BertBlocksAreTheFilesTensors) {
  constexpr std::uint64_t e = 768;
  constexpr std::uint64_t ff = 3072;
  constexpr int n = 12;
  const FileBlocks f = write_file(
      "bert", {{"feed_forward_length", ff}, {"attention.head_count", 12}, {"context_length", 512}},
      e, 30522, 15, n, [&](test::GgufWriter& w, int i) {
        const test::TestType wide = more_bits(i, n) ? test::kQ6_K : test::kQ4_K;
        const std::string b = blk(i);
        return separate_attention(w, b, e, e, wide) + layer_norm(w, b + "attn_output_norm", e) +
               biased_mlp(w, b, e, ff, wide) + layer_norm(w, b + "layer_output_norm", e);
      });
  const Model c = test::from_config(bert_base());
  EXPECT_TRUE(c.arch.gpt2_separate_qkv);
  expect_blocks(c, f, "q4_k_m", "config");
  expect_blocks(header_shape(f.w, c), f, "q4_k_m", "gguf");
  expect_blocks(test::catalogue_model("bert-base-uncased"), f, "q4_k_m", "catalogue");
}

// ---- Falcon-7B and Falcon-40B ------------------------------------------------
// tiiuae/falcon-7b and -40b config.json as litgpt litgpt/config.py
// transcribes them (each entry citing the hub's config.json; also
// data/models.json's falcon entries): 7B: hidden 4544, 32 layers, 71 heads,
// 1 KV head (multi_query), parallel_attn, bias false, no
// new_decoder_architecture; 40B: hidden 8192, 60 layers, 128 heads, 8 KV
// heads, new_decoder_architecture, bias false; vocab 65024; MLP 4 x hidden.
Json falcon(int layers, int hidden, int heads, int kv_heads, bool new_arch) {
  Json j = {{"model_type", "falcon"},
            {"architectures", {"FalconForCausalLM"}},
            {"hidden_size", hidden},
            {"num_hidden_layers", layers},
            {"num_attention_heads", heads},
            {"vocab_size", 65024},
            {"bias", false},
            {"parallel_attn", true},
            {"alibi", false},
            {"new_decoder_architecture", new_arch}};
  if (new_arch) {
    j["num_kv_heads"] = kv_heads;
  } else {
    j["multi_query"] = true;
  }
  return j;
}

// falcon.cpp load_arch_tensors: attn_norm (weight, bias), attn_norm_2 when
// the file has it (Falcon-40B's ln_mlp; conversion/falcon.py maps ln_attn
// and ln_mlp), attn_qkv and attn_output without biases, ffn_up and ffn_down
// without biases. In F16: the 2-D weights F16, the norms F32.
TEST(Gpt2LayerFamilies, FalconBlocksAreTheFilesTensors) {
  for (const auto& [layers, e, heads, kv_heads, new_arch] :
       {std::tuple{32, std::uint64_t{4544}, 71U, 1U, false},
        std::tuple{60, std::uint64_t{8192}, 128U, 8U, true}}) {
    const std::uint64_t qkv = e + 2 * kv_heads * 64;
    const FileBlocks f =
        write_file("falcon",
                   {{"feed_forward_length", 4 * e},
                    {"attention.head_count", heads},
                    {"attention.head_count_kv", kv_heads},
                    {"context_length", 2048}},
                   e, 65024, 1, layers, [&](test::GgufWriter& w, int i) {
                     const std::string b = blk(i);
                     std::uint64_t bytes = layer_norm(w, b + "attn_norm", e);
                     if (new_arch) {
                       bytes += layer_norm(w, b + "attn_norm_2", e);
                     }
                     return bytes + w.tensor(b + "attn_qkv.weight", {e, qkv}, test::kF16) +
                            w.tensor(b + "attn_output.weight", {e, e}, test::kF16) +
                            w.tensor(b + "ffn_up.weight", {e, 4 * e}, test::kF16) +
                            w.tensor(b + "ffn_down.weight", {4 * e, e}, test::kF16);
                   });
    const Model c = test::from_config(falcon(layers, static_cast<int>(e), static_cast<int>(heads),
                                             static_cast<int>(kv_heads), new_arch));
    EXPECT_TRUE(c.arch.gpt2_no_linear_bias);
    EXPECT_EQ(c.arch.gpt2_one_norm, !new_arch) << e;
    EXPECT_EQ(c.arch.attention.parallel_block, ParallelBlock::Falcon) << e;
    expect_blocks(c, f, "f16", "config " + std::to_string(e));
    const Model g = header_shape(f.w, c);
    EXPECT_EQ(g.arch.gpt2_one_norm, !new_arch) << e;
    EXPECT_EQ(g.arch.attention.parallel_block, ParallelBlock::Falcon) << e;
    expect_blocks(g, f, "f16", "gguf " + std::to_string(e));
    const Model cat = test::catalogue_model(new_arch ? "falcon-40b" : "falcon-7b");
    EXPECT_EQ(cat.arch.attention.parallel_block, ParallelBlock::Falcon) << e;
    expect_blocks(cat, f, "f16", "catalogue " + std::to_string(e));
  }
}

// Falcon-7B's count: a public table of hub model sizes gives tiiuae/falcon-7b
// 7,217,189,760, the checkpoint's tensors with lm_head.weight stored beside
// the word embeddings it is tied to. Less that copy (65024 x 4544) it is the
// catalogue's params, and the config's count.
TEST(Gpt2LayerFamilies, Falcon7bCountIsTheCheckpointLessItsTiedHead) {
  const Model& cat = test::catalogue_model("falcon-7b");
  EXPECT_EQ(cat.params, std::int64_t{7217189760} - std::int64_t{65024} * 4544);
  const Model c = test::from_config(falcon(32, 4544, 71, 1, false));
  EXPECT_TRUE(c.arch.tied_embeddings);
  EXPECT_EQ(count_params(c.arch).total(), count_params(cat.arch).total());
  EXPECT_LT(
      test::rel(static_cast<double>(count_params(c.arch).total()), static_cast<double>(cat.params)),
      0.001)
      << count_params(c.arch).total();
}

// Falcon at Q4_K_M, typed by llama-quant.cpp llama_tensor_get_type_impl's
// own Falcon branches (LLM_ARCH_FALCON, at 80fb11ac): the output (and a tied
// token_embd) Q8_0; ffn_down Q6_K in the first n_layer/16 layers, Q5_K on
// the other use_more_bits layers, Q4_K elsewhere; attn_qkv, typed as attn_v
// (category_is_attn_v), Q6_K on the use_more_bits layers; attn_output
// Q4_K. A row not divisible by 256 falls back (tensor_type_fallback): Q4_K
// to Q5_0, Q6_K to Q8_0 (Falcon-7B's 4544-wide rows; its ffn_down's 18176
// are 71 blocks). Falcon-180B's 80 layers are no LLM_TYPE_70B in falcon.cpp
// (32 layers 7B, 60 40B, else unknown), so its attn_qkv takes no 70B bump.
TEST(Gpt2LayerFamilies, FalconQ4KMIsTheConvertersMix) {
  constexpr test::TestType kQ5_0{6, 32, 22};
  constexpr test::TestType kQ5_K{13, 256, 176};
  for (const auto& [layers, e, heads, kv_heads, new_arch] :
       {std::tuple{32, std::uint64_t{4544}, 71U, 1U, false},
        std::tuple{60, std::uint64_t{8192}, 128U, 8U, true},
        std::tuple{80, std::uint64_t{14848}, 232U, 8U, true}}) {
    const bool whole = e % 256 == 0;
    const test::TestType q4 = whole ? test::kQ4_K : kQ5_0;
    const test::TestType q6 = whole ? test::kQ6_K : test::kQ8_0;
    const std::uint64_t qkv = e + 2 * kv_heads * 64;
    const int n = layers;
    const FileBlocks f = write_file(
        "falcon",
        {{"feed_forward_length", 4 * e},
         {"attention.head_count", heads},
         {"attention.head_count_kv", kv_heads},
         {"context_length", 2048}},
        e, 65024, 15, layers, [&](test::GgufWriter& w, int i) {
          const std::string b = blk(i);
          const test::TestType down = i < n / 16        ? test::kQ6_K
                                      : more_bits(i, n) ? kQ5_K
                                                        : test::kQ4_K;
          std::uint64_t bytes = layer_norm(w, b + "attn_norm", e);
          if (new_arch) {
            bytes += layer_norm(w, b + "attn_norm_2", e);
          }
          return bytes + w.tensor(b + "attn_qkv.weight", {e, qkv}, more_bits(i, n) ? q6 : q4) +
                 w.tensor(b + "attn_output.weight", {e, e}, q4) +
                 w.tensor(b + "ffn_up.weight", {e, 4 * e}, q4) +
                 w.tensor(b + "ffn_down.weight", {4 * e, e}, down);
        });
    Json j = falcon(layers, static_cast<int>(e), static_cast<int>(heads),
                    static_cast<int>(kv_heads), new_arch);
    j["tie_word_embeddings"] = false;
    const Model c = test::from_config(j);
    expect_blocks(c, f, "q4_k_m", "config " + std::to_string(e));
    expect_blocks(header_shape(f.w, c), f, "q4_k_m", "gguf " + std::to_string(e));
    // output_norm (weight, bias) and the head at Q8_0
    const Bytes head = static_cast<Bytes>(2 * e * 4 + e / 32 * 34 * 65024);
    EXPECT_EQ(weight_layout(c, *parse_precision("q4_k_m")).output, head) << e;
  }
}

// Falcon-7B REDUCED to 4 of its 32 layers (make_gguf row falcon-7b-r4) and
// Falcon-40B REDUCED to 2 of its 60 (falcon-40b-r2), every width the
// model's, read from the published config.json with that depth, against what
// a real llama.cpp allocated for the synthetic files
// (tests/data/llamacpp_cpu_{compute,kv}_falcon.csv; docs/live-llamacpp.md,
// Falcon run): falcon.cpp's parallel block, one LayerNorm feeding both on
// the 7B, attn_norm_2 before the attention and attn_norm at the MLP on the
// 40B. Read as a sequential layer (no parallel block: the replay guessed
// before) the rows move off.
TEST(Gpt2LayerFamilies, FalconMatchesTheLiveLlamaCpp) {
  Json f7 = falcon(4, 4544, 71, 1, false);
  Json f40 = falcon(2, 8192, 128, 8, true);
  f40["tie_word_embeddings"] = false;  // data/models.json falcon-40b: its own lm_head
  const Model m7 = test::from_config(f7);
  const Model m40 = test::from_config(f40);
  Model sequential7 = m7;
  sequential7.arch.attention.parallel_block = ParallelBlock::None;
  Model one_norm40 = m40;
  one_norm40.arch.gpt2_one_norm = true;
  const double mib = static_cast<double>(kMiB);
  std::size_t rows = 0;
  double worst_sequential = 0;
  double worst_one_norm = 0;
  test::for_each_live_row(
      "llamacpp_cpu_compute_falcon.csv", [&](const std::vector<std::string>& c) {
        const bool big = c[0] == "falcon-40b-r2";
        const auto [measured, willfit] = test::live_row_compute(big ? m40 : m7, c);
        EXPECT_LE(std::abs(willfit - measured) / measured, 0.001)
            << c[0] << " " << c[1] << " " << c[2] << " " << c[3] << " " << c[4];
        const double other = test::live_row_compute(big ? one_norm40 : sequential7, c).willfit;
        (big ? worst_one_norm : worst_sequential) = std::max(
            big ? worst_one_norm : worst_sequential, std::abs(other - measured) / measured);
        ++rows;
      });
  EXPECT_EQ(rows, 45U);
  EXPECT_GT(worst_sequential, 0.01);
  EXPECT_GT(worst_one_norm, 0.001);
  std::size_t kv_rows = 0;
  test::for_each_live_row("llamacpp_cpu_kv_falcon.csv", [&](const std::vector<std::string>& c) {
    const Model& m = c[0] == "falcon-40b-r2" ? m40 : m7;
    EXPECT_NEAR(static_cast<double>(test::live_row_estimate(m, c).memory.kv_cache),
                std::stod(c[6]) * mib, 0.01 * mib);
    ++kv_rows;
  });
  EXPECT_EQ(kv_rows, 45U);
}

// Falcon's first configs (RWForCausalLM, written for its own modelling_RW.py)
// name the same models otherwise: model_type RefinedWebModel (7B, n_head,
// n_layer, multi_query) and RefinedWeb (40B, with n_head_kv), which
// transformers' falcon convert_custom_code_checkpoint.py rewrites as falcon
// with new_decoder_architecture exactly when n_head_kv is there. Each reads
// as the falcon config of the same model.
TEST(Gpt2LayerFamilies, RefinedWebConfigsAreFalcon) {
  const Json rw7 = {{"model_type", "RefinedWebModel"},
                    {"architectures", {"RWForCausalLM"}},
                    {"hidden_size", 4544},
                    {"n_layer", 32},
                    {"n_head", 71},
                    {"vocab_size", 65024},
                    {"bias", false},
                    {"parallel_attn", true},
                    {"multi_query", true},
                    {"alibi", false}};
  Json rw40 = rw7;
  rw40["model_type"] = "RefinedWeb";
  rw40["hidden_size"] = 8192;
  rw40["n_layer"] = 60;
  rw40["n_head"] = 128;
  rw40["n_head_kv"] = 8;
  rw40.erase("multi_query");
  for (const auto& [rw, fc] : {std::pair{rw7, falcon(32, 4544, 71, 1, false)},
                               std::pair{rw40, falcon(60, 8192, 128, 8, true)}}) {
    const Model r = test::from_config(rw);
    const Model c = test::from_config(fc);
    EXPECT_TRUE(r.unchecked_architecture.empty()) << rw["model_type"];
    EXPECT_EQ(r.arch.attention.parallel_block, ParallelBlock::Falcon);
    EXPECT_EQ(r.arch.gpt2_one_norm, c.arch.gpt2_one_norm) << rw["model_type"];
    EXPECT_EQ(r.arch.kv_heads, c.arch.kv_heads) << rw["model_type"];
    EXPECT_EQ(weight_layout(r, *parse_precision("f16")).total(),
              weight_layout(c, *parse_precision("f16")).total())
        << rw["model_type"];
  }
}

// The whole Phi-2 (make_gguf row phi-2) read from its published config.json
// (phi2() above), against what a real llama.cpp allocated for the synthetic
// F16, Q8_0 and Q4_K_M files (tests/data/llamacpp_cpu_{compute,kv}_phi2.csv;
// docs/live-llamacpp.md, GPT-2-layer families run): phi2.cpp's parallel
// block, wo before the MLP, (attention + MLP) + input.
TEST(Gpt2LayerFamilies, Phi2MatchesTheLiveLlamaCpp) {
  const Model m = test::from_config(phi2());
  EXPECT_EQ(m.arch.attention.parallel_block, ParallelBlock::Phi2);
  test::expect_live_tables(m, "phi2", 18, 0.1);
}

// The whole StarCoder2-3B (make_gguf row starcoder2-3b) read from its
// published config.json (bigcode/starcoder2-3b, as public transcriptions
// give it: the make_gguf row's source), against what a real llama.cpp
// allocated for the synthetic F16, Q8_0 and Q4_K_M files
// (tests/data/llamacpp_cpu_{compute,kv}_starcoder2.csv; docs/live-llamacpp.md,
// GPT-2-layer families run): starcoder2.cpp's sequential layer with
// LayerNorms (the final one a new tensor), every layer cached whole (no
// window in its graph: sliding_window is not read).
TEST(Gpt2LayerFamilies, StarCoder2MatchesTheLiveLlamaCpp) {
  Json j = starcoder2_15b();
  j["hidden_size"] = 3072;
  j["intermediate_size"] = 12288;
  j["num_attention_heads"] = 24;
  j["num_hidden_layers"] = 30;
  j["num_key_value_heads"] = 2;
  j["rope_theta"] = 999999.4420358813;
  j["tie_word_embeddings"] = true;
  const Model m = test::from_config(j);
  EXPECT_EQ(m.arch.attention.kind, AttentionKind::Full);
  test::expect_live_tables(m, "starcoder2", 27, 0.1);
}

// The whole BERT-base (make_gguf row bert-base-uncased) read from its
// published config.json (bert_base() above), against what a real llama.cpp
// allocated for the synthetic F16, Q8_0 and Q4_K_M files
// (tests/data/llamacpp_cpu_{compute,kv}_bert.csv; docs/live-llamacpp.md,
// GPT-2-layer families run): bert.cpp's post-norm encoder, no cache.
// Every row within 0.1 % (11.12 for 11.13 MiB with flash attention, 22.12
// for 22.13 without): BERT's learned position table added to the
// embeddings, Q, K and V projected apart and unroped. Read as RoPE's fused
// projection (nomic-bert's graph) the replay was 6.7 % and 13.5 % high.
TEST(Gpt2LayerFamilies, BertMatchesTheLiveLlamaCpp) {
  const Model m = test::from_config(bert_base());
  EXPECT_EQ(m.arch.learned_positions, 512);
  test::expect_live_tables(m, "bert", 27, 0.1);
}

}  // namespace
}  // namespace willfit
