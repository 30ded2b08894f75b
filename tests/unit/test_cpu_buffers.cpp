// llama.cpp on a CPU: the copies its CPU backend makes of the weights
// (CPU_REPACK, AMX), for a file and for a model named without one, what a
// CPU-only answer calls reclaimable (--no-mmap, --mlock), and the CPU kind
// read from /proc/cpuinfo.
#include <gtest/gtest.h>

#include "catalogue_model.hpp"
#include "csv.hpp"
#include "unit/model_file_writers.hpp"
#include "unit/model_readers.hpp"

#include <cmath>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "sources/embedded_data.hpp"
#include "willfit/devices/detect_parse.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/models/hf_config.hpp"
#include "willfit/models/model_db.hpp"
#include "willfit/models/weight_layout.hpp"

namespace willfit {
namespace {

Bytes term(const Estimate& e, std::string_view key) {
  for (const auto& t : e.terms) {
    if (t.key == key) {
      return t.bytes;
    }
  }
  return 0;
}

using test::catalogue_model;

InferenceQuery cpu_query(const Model& m, const char* precision, CpuFeatures f) {
  InferenceQuery q;
  q.model = m;
  q.precision = *parse_precision(precision);
  Device ram = *raw_device("1024gb");
  ram.kind = DeviceKind::Cpu;
  q.devices.devices.push_back(ram);
  q.runtime = Runtime::LlamaCpp;
  q.cpu_features = f;
  return q;
}

// AMX takes the plain matrix products of its types, packed (Q8_0 38 bytes
// per 34, Q4_K 148 per 144); the experts and the types AMX has no kernel for
// go to CPU_REPACK as on any AVX-512 CPU (ggml-cpu amx.cpp, mmq.cpp, repack.cpp).
TEST(CpuBuffers, AmxTakesPlainMatrixProductsAndRepackTheRest) {
  const std::vector<TypedWeights> mix = {{"F16", 1000, 0, 0, 0},       {"Q8_0", 3400, 0, 0, 0},
                                         {"Q4_K", 1440, 2880, 144, 0}, {"IQ4_NL", 100, 0, 0, 0},
                                         {"Q6_K", 210, 420, 0, 0},     {"F32", 64, 0, 0, 0}};
  const CpuExtraBuffers amx = cpu_extra_buffers(mix, CpuFeatures::Amx);
  EXPECT_EQ(amx.amx, 1000 + 3800 + 1480 + 210);
  EXPECT_EQ(amx.repack, 2880 + 100);  // Q4_K experts, IQ4_NL
  EXPECT_EQ(amx.moved, 1000 + 3400 + 1440 + 210 + 2880 + 100);
  const CpuExtraBuffers avx = cpu_extra_buffers(mix, CpuFeatures::Avx512);
  EXPECT_EQ(avx.amx, 0);
  EXPECT_EQ(avx.repack, 1440 + 2880 + 100);  // never the embeddings
  EXPECT_EQ(avx.moved, avx.repack);
  EXPECT_EQ(cpu_extra_buffers(mix, CpuFeatures::None).moved, 0);
  EXPECT_EQ(*parse_cpu_features("AMX"), CpuFeatures::Amx);
  // Tied embeddings: the output layer's copy is made, the embeddings stay.
  const std::vector<TypedWeights> tied = {{"Q4_K", 1440, 0, 144, 144}};
  EXPECT_EQ(cpu_extra_buffers(tied, CpuFeatures::Avx2).repack, 1440 + 144);
  EXPECT_EQ(cpu_extra_buffers(tied, CpuFeatures::Avx2).moved, 1440);
}

// A file's tensors go to the AMX buffer by what reads them and how many
// output rows they have, as llama.cpp's loader asks each buffer type
// (llama-model.cpp select_weight_buft with the tensor's op from
// llama-arch.cpp LLM_TENSOR_INFOS; ggml-cpu amx.cpp supports_op and mmq.cpp
// ggml_backend_amx_get_alloc_size; repack.cpp). tiny_llama is 2 blocks of
// width 256 with tied Q4_K embeddings.
TEST(CpuBuffers, AmxTakesTheFilesProductsByTheirRows) {
  test::GgufWriter w = test::tiny_llama(3, nullptr, nullptr, true);
  // A 16-row product (Qwen3.5's ssm_alpha): AMX wants rows in 32s, CPU_REPACK
  // takes it (8s).
  const std::uint64_t narrow = w.tensor("blk.0.ssm_alpha.weight", {256, 16}, test::kQ4_K);
  // MLA's per-head k_b, 3-D, read by a batched product: AMX sizes one head.
  const std::uint64_t batched = w.tensor("blk.0.attn_k_b.weight", {64, 128, 4}, test::kQ8_0);
  // Gemma 3n's per-layer table, read by get_rows: no copy at all.
  w.tensor("per_layer_token_embd.weight", {512, 1000}, test::kQ8_0);
  const Model m = test::from_gguf(w);
  const CpuExtraBuffers b = cpu_extra_buffers(typed_weights(m, Precision{}), CpuFeatures::Amx);
  // Products of the blocks: q, k, o, gate, up at Q4_K (148 bytes a block of
  // 144), v and down at Q6_K (unchanged). The tied output (Q4_K, 256 x 1000)
  // has 1000 rows, not a multiple of 32: CPU_REPACK takes it, at its size.
  const Bytes q4k = 2 * (256 * 256 + 256 * 128 + 256 * 256 + 2 * 256 * 512) / 256 * 148;
  const Bytes q6k = 2 * (256 * 128 + 512 * 256) / 256 * 210;
  const Bytes output = 256 * 1000 / 256 * 144;
  EXPECT_EQ(b.amx, q4k + q6k + 128 * (64 / 32) * 38);        // one head of k_b: 38 per 34
  EXPECT_EQ(b.repack, output + static_cast<Bytes>(narrow));  // Q4_K, refused by AMX
  EXPECT_EQ(b.moved, q4k / 148 * 144 + q6k + static_cast<Bytes>(batched + narrow));
  // On AVX-512 the narrow product and the Q4_K ones are repacked at their
  // size, with the output's copy; k_b (3-D) is not.
  const CpuExtraBuffers avx = cpu_extra_buffers(typed_weights(m, Precision{}), CpuFeatures::Avx512);
  EXPECT_EQ(avx.amx, 0);
  EXPECT_EQ(avx.repack, q4k / 148 * 144 + output + static_cast<Bytes>(narrow));
}

// An encoder of the BERT family has no output head (bert.cpp): its tied
// embeddings are never loaded twice, so nothing of them is copied.
TEST(CpuBuffers, AnEncoderCopiesNoOutputHead) {
  test::GgufWriter w;
  w.str("general.architecture", "bert");
  w.u32("bert.block_count", 1);
  w.u32("bert.context_length", 512);
  w.u32("bert.embedding_length", 256);
  w.u32("bert.feed_forward_length", 512);
  w.u32("bert.attention.head_count", 4);
  w.str_array("tokenizer.ggml.tokens", std::vector<std::string>(1000, "t"));
  w.tensor("token_embd.weight", {256, 1000}, test::kQ8_0);
  w.tensor("token_types.weight", {256, 2}, test::kF32);
  w.tensor("position_embd.weight", {256, 512}, test::kQ8_0);
  w.tensor("blk.0.attn_qkv.weight", {256, 768}, test::kQ8_0);
  w.tensor("blk.0.attn_output.weight", {256, 256}, test::kQ8_0);
  w.tensor("blk.0.ffn_up.weight", {256, 512}, test::kQ8_0);
  w.tensor("blk.0.ffn_down.weight", {512, 256}, test::kQ8_0);
  const Model m = test::from_gguf(w);
  EXPECT_TRUE(m.arch.no_output_head);
  const CpuExtraBuffers b = cpu_extra_buffers(typed_weights(m, Precision{}), CpuFeatures::Amx);
  // The four products only (not the token, type or position tables).
  EXPECT_EQ(b.amx, (256 * 768 + 256 * 256 + 2 * 256 * 512) / 32 * 38);
}

// A model named without a file gets the CPU_REPACK copy of llama.cpp's
// Q4_K_M recipe, checked against what a real llama.cpp allocated for the
// same architecture as a file (tests/data/llamacpp_cpu_repack.csv; the log
// rounds to 0.01 MiB).
TEST(CpuBuffers, RepackOfANamedModelMatchesTheLiveFile) {
  std::ifstream in(std::string(WILLFIT_TEST_DATA_DIR) + "/llamacpp_cpu_repack.csv");
  std::string line;
  std::getline(in, line);
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.empty()) {
      continue;
    }
    const auto cells = test::split_csv_line(line);
    ASSERT_GE(cells.size(), 8U);
    if (cells[0].ends_with("-r4")) {
      continue;  // a reduced file, no catalogue entry: its own test below
    }
    SCOPED_TRACE(cells[0] + " " + cells[4]);
    const bool excluded = cells.size() > 8 && !cells[8].empty();
    const Model& m = catalogue_model(cells[0]);
    const auto f = parse_cpu_features(cells[2]);
    ASSERT_TRUE(f.ok());
    InferenceQuery q = cpu_query(m, cells[1].c_str(), *f);
    q.mmap = cells[3] == "true";
    const Estimate e = estimate_inference(q);
    // CPU_REPACK is the copy; with --no-mmap the plain CPU buffer is what
    // the weights term keeps of the file.
    const Bytes ours = term(e, cells[4] == "CPU_REPACK" ? "cpu_repack"
                               : cells[4] == "AMX"      ? "cpu_amx"
                                                        : "weights");
    const double measured = std::stod(cells[5]) * static_cast<double>(kMiB);
    const double err = (static_cast<double>(ours) - measured) / measured * 100.0;
    std::printf("| %s %s %s mmap=%s %s | %.2f MiB measured | %+.3f %% |%s\n", cells[0].c_str(),
                cells[1].c_str(), cells[2].c_str(), cells[3].c_str(), cells[4].c_str(),
                std::stod(cells[5]), err, excluded ? " excluded" : "");
    if (!excluded) {
      EXPECT_LT(std::abs(err), 0.5);
      ++rows;
    }
  }
  EXPECT_GE(rows, 5);
}

// CPU_REPACK interleaves rows in groups of 8 (x86; Arm's K-quants) or 4
// (Arm's Q4_0, IQ4_NL, MXFP4, Q8_0) and takes no weight whose rows do not
// fill them (ggml-cpu/repack.cpp ggml_repack_get_optimal_repack_type at
// 80fb11ac: cur->ne[1] % 8, % 4).
TEST(CpuBuffers, RepackLeavesRowsThatFillNoInterleave) {
  test::GgufWriter w;
  w.str("general.architecture", "llama");
  w.u32("llama.block_count", 1);
  w.u32("llama.embedding_length", 512);
  w.u32("llama.feed_forward_length", 1365);
  w.u32("llama.attention.head_count", 4);
  w.tensor("token_embd.weight", {512, 1024}, test::kQ8_0);
  w.tensor("output.weight", {512, 1024}, test::kQ8_0);
  w.tensor("blk.0.attn_q.weight", {512, 512}, test::kQ4_K);
  w.tensor("blk.0.ffn_up.weight", {512, 1365}, test::kQ4_K);    // rows in no group
  w.tensor("blk.0.ffn_gate.weight", {512, 1364}, test::kQ8_0);  // rows in fours
  const Model m = test::from_gguf(w);
  const auto q4k = [](std::int64_t rows) { return rows * 512 / 256 * 144; };
  const auto q8 = [](std::int64_t rows) { return rows * 512 / 32 * 34; };
  const CpuExtraBuffers avx = cpu_extra_buffers(typed_weights(m, Precision{}), CpuFeatures::Avx2);
  EXPECT_EQ(avx.repack, q4k(512));
  const CpuExtraBuffers arm = cpu_extra_buffers(typed_weights(m, Precision{}), CpuFeatures::Neon);
  EXPECT_EQ(arm.repack, q4k(512) + q8(1024) + q8(1364));
}

// Jais-13b REDUCED to 4 of its 40 layers, Q4_K_M, against what a real
// llama.cpp put in CPU_REPACK for the synthetic file (the jais-13b-r4 row of
// tests/data/llamacpp_cpu_repack.csv; docs/live-llamacpp.md, Jais run): its
// 13653-row Q4_K ffn_up and ffn_gate stay out, attn_output and the Q4_K
// attn_qkv go in. The shape as tests/unit/test_ggml_alloc.cpp reads it.
TEST(CpuBuffers, JaisRepackMatchesTheLiveFile) {
  std::ifstream in(std::string(WILLFIT_TEST_DATA_DIR) + "/llamacpp_cpu_repack.csv");
  std::string line;
  double measured = 0.0;
  while (std::getline(in, line)) {
    const auto cells = test::split_csv_line(line);
    if (cells.size() >= 8 && cells[0] == "jais-13b-r4") {
      measured = std::stod(cells[5]) * static_cast<double>(kMiB);
    }
  }
  ASSERT_GT(measured, 0.0);
  const auto m = model_from_hf_config(
      R"({"model_type":"jais","n_embd":5120,"n_layer":4,"n_head":40,"n_inner":13653,
      "n_positions":2048,"vocab_size":84992,"activation_function":"swiglu",
      "position_embedding_type":"alibi","layer_norm_epsilon":1e-5})",
      "config.json");
  ASSERT_TRUE(m.ok()) << m.error().message;
  const Estimate e = estimate_inference(cpu_query(*m, "q4_k_m", CpuFeatures::Avx512));
  const auto ours = static_cast<double>(term(e, "cpu_repack"));
  EXPECT_LT(std::abs(ours - measured) / measured, 0.001) << ours << " vs " << measured;
}

// The same named model: the recipe's bytes by type add up to its weights,
// and a bare size (an assumed shape) gets the copy too.
TEST(CpuBuffers, NamedAndBareModelsCarryTheRecipeTypes) {
  const Model& m = catalogue_model("llama-3.1-8b");
  const Precision p = *parse_precision("q4_k_m");
  Bytes sum = 0;
  for (const auto& w : typed_weights(m, p)) {
    sum += w.total();
  }
  EXPECT_EQ(sum, weight_layout(m, p).total());
  InferenceQuery bare =
      cpu_query(*model_from_size(*parse_model_size("8b")), "q4_k_m", CpuFeatures::Avx2);
  const Estimate e = estimate_inference(bare);
  EXPECT_GT(term(e, "cpu_repack"), e.memory.weights / 3);
  EXPECT_LT(term(e, "cpu_repack"), e.memory.weights);
}

// Mapped (the default): the file is page cache the kernel can reclaim and
// the copies come on top. --mlock locks it; --no-mmap reads it into memory,
// and the copied tensors are read into their buffers instead (no duplicate).
TEST(CpuBuffers, MmapMlockAndNoMmapDecideWhatIsReclaimable) {
  InferenceQuery q = cpu_query(catalogue_model("mistral-7b-v0.3"), "q4_k_m", CpuFeatures::Avx2);
  const Estimate mapped = estimate_inference(q);
  const Bytes repack = term(mapped, "cpu_repack");
  ASSERT_GT(repack, 0);
  EXPECT_EQ(mapped.memory.reclaimable, mapped.memory.weights - repack);
  // The file's pages behind the copy are read once, then dropped: the
  // weights term is the rest of the file.
  ASSERT_GT(mapped.file_pages_dropped, 0);
  const Bytes file = term(mapped, "weights") + mapped.file_pages_dropped;
  q.mlock = true;
  const Estimate locked = estimate_inference(q);
  EXPECT_EQ(locked.memory.reclaimable, 0);
  EXPECT_EQ(locked.file_pages_dropped, 0);
  EXPECT_EQ(term(locked, "weights"), file);  // locked: every page stays
  EXPECT_EQ(locked.memory.weights, file + repack);
  EXPECT_GT(locked.required, mapped.required);
  q.mlock = false;
  q.mmap = false;
  const Estimate read = estimate_inference(q);
  EXPECT_EQ(read.memory.reclaimable, 0);
  EXPECT_EQ(read.file_pages_dropped, 0);
  EXPECT_EQ(read.memory.weights, mapped.memory.weights);
  EXPECT_EQ(term(read, "cpu_repack"), repack);
  EXPECT_EQ(term(read, "weights") + repack, read.memory.weights);
  // On a GPU nothing is called reclaimable.
  InferenceQuery gpu = q;
  gpu.devices.devices = {*raw_device("24gb")};
  EXPECT_EQ(estimate_inference(gpu).memory.reclaimable, 0);
}

TEST(CpuBuffers, CpuinfoFlagsNameTheCpuKind) {
  const auto kind = [](const char* text) {
    const auto k = parse_cpuinfo_features(text);
    return k ? k->features : CpuFeatures::None;
  };
  EXPECT_EQ(kind("processor\t: 0\nflags\t\t: fpu sse2 avx avx2 fma\n"), CpuFeatures::Avx2);
  EXPECT_EQ(kind("flags : avx2 avx512f avx512bw\n"), CpuFeatures::Avx512);
  EXPECT_EQ(kind("flags : avx2 avx512f avx512_vnni amx_bf16 amx_tile amx_int8\n"),
            CpuFeatures::Amx);
  EXPECT_EQ(kind("Features\t: fp asimd evtstrm aes crc32 atomics asimddp\n"), CpuFeatures::Neon);
  EXPECT_EQ(kind("flags : fpu sse2\n"), CpuFeatures::None);
  EXPECT_EQ(parse_cpuinfo_features("flags : avx512f\n")->flag, "avx512f");
  EXPECT_FALSE(parse_cpuinfo_features("MemTotal: 1 kB\n").has_value());
  EXPECT_FALSE(parse_cpuinfo_features("").has_value());
}

// The verdict counts what the table shows: a 30B MoE at Q4_K_M on 32 GB fits
// with a mapped file (the pages behind the copy are dropped), and the same
// run under --mlock, which keeps both, does not; the headroom agrees with the
// verdict either way (it said FITS with a negative headroom before).
TEST(CpuBuffers, TheVerdictAndTheHeadroomAgree) {
  InferenceQuery q = cpu_query(catalogue_model("qwen3-30b-a3b"), "q4_k_m", CpuFeatures::Avx2);
  q.devices.devices = {*raw_device("32gb")};
  q.devices.devices.front().kind = DeviceKind::Cpu;
  for (const bool mlock : {false, true}) {
    q.mlock = mlock;
    const Estimate e = estimate_inference(q);
    EXPECT_EQ(e.fits(), e.headroom >= 0) << "mlock " << mlock;
    EXPECT_EQ(e.required, e.memory.total()) << "mlock " << mlock;
    EXPECT_EQ(e.fits(), !mlock) << "mlock " << mlock;
  }
}

}  // namespace
}  // namespace willfit
