// llama.cpp's --mmproj file: a GGUF with clip.* keys read for its exact
// tensors and the vision encoder's shape, and the compute buffer clip.cpp
// reserves for its warm-up image, checked against llama.cpp's own report
// (tests/data/architecture_figures.csv, rows "projector_compute").
#include <string>

#include <gtest/gtest.h>

#include "unit/model_file_writers.hpp"
#include "willfit/inference/estimate.hpp"
#include "willfit/inference/runtime_terms.hpp"
#include "willfit/models/gguf.hpp"

namespace willfit {
namespace {

test::GgufWriter mmproj(const std::string& type, std::uint32_t image, std::uint32_t patch,
                        std::uint32_t width, std::uint32_t ffn, std::uint32_t heads) {
  return test::clip_mmproj(type, image, patch, width, ffn, heads);
}

ProjectorFile read(const test::GgufWriter& w) {
  const std::string bytes = w.file();
  auto r = read_gguf(bytes, bytes.size());
  EXPECT_TRUE(r.ok() && r->file.has_value());
  auto p = projector_from_gguf(*r->file, "mmproj.gguf");
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message);
  return p.ok() ? *p : ProjectorFile{};
}

double mib(Bytes b) {
  return static_cast<double>(b) / static_cast<double>(kMiB);
}

// gemma3's SigLIP tower (google/gemma-3-4b-it config.json vision_config:
// image 896, patch 14, width 1152, intermediate 4304, 16 heads).
ProjectorFile gemma3() {
  return read(mmproj("gemma3", 896, 14, 1152, 4304, 16));
}

TEST(ProjectorFile, TensorsAndTheWarmUpImageOfAFixedSizeTower) {
  const ProjectorFile p = gemma3();
  const std::int64_t expected =
      (14 * 14 * 3 * 1152 + 1152 * 1152 + 2 * 1152 * 4304) * std::int64_t{2};  // F16
  EXPECT_EQ(p.bytes, expected);
  EXPECT_EQ(p.params, expected / 2);
  EXPECT_EQ(p.type, "gemma3");
  EXPECT_TRUE(p.vision);
  EXPECT_FALSE(p.audio);
  EXPECT_EQ(p.warmup_positions, 64 * 64);  // (896 / 14)^2
  EXPECT_EQ(p.width, 1152);
  EXPECT_EQ(p.ffn_live, 4304);
  EXPECT_EQ(p.heads, 16);
  EXPECT_FALSE(p.window_mask);
}

TEST(ProjectorFile, ClassTokenQwenWarmUpGatedFfnAndWindowMask) {
  // LLaVA-1.5's CLIP ViT-L/14-336 has a class embedding: 24^2 + 1 positions.
  test::GgufWriter llava = mmproj("mlp", 336, 14, 1024, 4096, 16);
  llava.tensor("v.class_embd", {1024}, test::kF32);
  EXPECT_EQ(read(llava).warmup_positions, 24 * 24 + 1);
  // Qwen2-VL: clip.cpp warms up with 46x46 merged tokens of 2x2 patches,
  // whatever image_size says.
  test::GgufWriter qwen2 = mmproj("qwen2vl_merger", 560, 14, 1280, 5120, 16);
  qwen2.u32("clip.vision.spatial_merge_size", 2);
  EXPECT_EQ(read(qwen2).warmup_positions, 46 * 46 * 4);
  // Qwen2.5-VL: SwiGLU (gate and up live together) and window attention.
  test::GgufWriter qwen25 = mmproj("qwen2.5vl_merger", 560, 14, 1280, 3420, 16);
  qwen25.tensor("v.blk.0.ffn_gate.weight", {1280, 3420}, test::kF16);
  qwen25.u32("clip.vision.n_wa_pattern", 8);
  const ProjectorFile p = read(qwen25);
  EXPECT_EQ(p.warmup_positions, 46 * 46 * 4);  // spatial_merge_size absent: 2
  EXPECT_EQ(p.ffn_live, 2 * 3420);
  EXPECT_TRUE(p.window_mask);
}

// A Whisper audio encoder as convert_hf_to_gguf.py --mmproj writes it
// (clip.audio.*): Qwen2-Audio-7B's, d_model 1280, 20 heads, FFN 5120, 128
// mel bins (transformers configuration_qwen2_audio.py, commit c12eb355,
// Qwen2AudioEncoderConfig: "similar configuration to ... Qwen/Qwen2-Audio-7B").
test::GgufWriter whisper_mmproj(const std::string& type) {
  test::GgufWriter w;
  w.str("general.architecture", "clip");
  w.boolean("clip.has_audio_encoder", true);
  w.str("clip.projector_type", type);
  w.u32("clip.audio.num_mel_bins", 128);
  w.u32("clip.audio.embedding_length", 1280);
  w.u32("clip.audio.feed_forward_length", 5120);
  w.u32("clip.audio.attention.head_count", 20);
  w.u32("clip.audio.block_count", 1);
  w.tensor("a.blk.0.attn_q.weight", {1280, 1280}, test::kF16);
  return w;
}

TEST(ProjectorFile, AWhisperAudioEncoderIsWarmedUpOnThirtySeconds) {
  const ProjectorFile a = read(whisper_mmproj("qwen2a"));
  EXPECT_TRUE(a.audio);
  EXPECT_FALSE(a.vision);
  EXPECT_EQ(a.bytes, std::int64_t{1280} * 1280 * 2);
  // clip.cpp: warmup_audio_size 3000 mel frames; build_whisper_enc's stride-2
  // convolution leaves n_frames / 2 positions.
  EXPECT_EQ(a.audio_positions, 1500);
  // Flash attention: the FFN peak, 3 x 1280 + 5120 f32 per position.
  EXPECT_EQ(detail::clip_compute_bytes(a, true), std::int64_t{4} * 1500 * (3 * 1280 + 5120));
  // Without: attention, 6 x 1280 + 20 heads x 1500 scores per position.
  EXPECT_EQ(detail::clip_compute_bytes(a, false), std::int64_t{4} * 1500 * (6 * 1280 + 20 * 1500));
  // The other Whisper projectors build the same graph.
  for (const char* type : {"ultravox", "voxtral"}) {
    EXPECT_EQ(read(whisper_mmproj(type)).audio_positions, 1500) << type;
  }

  // An omni file: clip.cpp keeps one context per encoder, each with its buffer.
  test::GgufWriter omni = test::clip_mmproj("qwen2.5o", 896, 14, 1152, 4304, 16);
  omni.boolean("clip.has_audio_encoder", true);
  omni.u32("clip.audio.embedding_length", 1280);
  omni.u32("clip.audio.feed_forward_length", 5120);
  omni.u32("clip.audio.attention.head_count", 20);
  const ProjectorFile both = read(omni);
  const ProjectorFile vision = read(test::clip_mmproj("qwen2.5o", 896, 14, 1152, 4304, 16));
  EXPECT_EQ(vision.warmup_positions, 46 * 46 * 2 * 2);  // its vision side is qwen2.5vl's
  EXPECT_EQ(detail::clip_compute_bytes(both, true),
            detail::clip_compute_bytes(vision, true) +
                detail::clip_compute_bytes(read(whisper_mmproj("qwen2a")), true));

  // A conformer audio encoder (Gemma 3n, LFM2-Audio) builds another graph:
  // its tensors are counted, its compute buffer is not.
  test::GgufWriter conformer = whisper_mmproj("gemma3na");
  EXPECT_EQ(read(conformer).audio_positions, 0);
  EXPECT_EQ(detail::clip_compute_bytes(read(conformer), false), 0);
}

TEST(ProjectorFile, AnAudioOnlyFileHasNoVisionComputeAndBadFilesAreErrors) {
  test::GgufWriter audio;
  audio.str("general.architecture", "clip");
  audio.boolean("clip.has_audio_encoder", true);
  audio.str("clip.projector_type", "lfm2a");
  audio.tensor("a.blk.0.attn_q.weight", {1280, 1280}, test::kF16);
  const ProjectorFile a = read(audio);
  EXPECT_TRUE(a.audio);
  EXPECT_FALSE(a.vision);
  EXPECT_EQ(detail::clip_compute_bytes(a, true), 0);

  const auto error_of = [](const test::GgufWriter& w) {
    const std::string bytes = w.file();
    auto r = read_gguf(bytes, bytes.size());
    EXPECT_TRUE(r.ok() && r->file.has_value());
    auto p = projector_from_gguf(*r->file, "x.gguf");
    return p.ok() ? std::string() : p.error().message;
  };
  test::GgufWriter language = test::tiny_llama(3);
  EXPECT_NE(error_of(language).find("not a multimodal projector"), std::string::npos);
  test::GgufWriter empty;
  empty.str("general.architecture", "clip");
  EXPECT_NE(error_of(empty).find("malformed mmproj"), std::string::npos);
  test::GgufWriter no_patch;
  no_patch.str("general.architecture", "clip");
  no_patch.boolean("clip.has_vision_encoder", true);
  no_patch.u32("clip.vision.image_size", 896);
  no_patch.tensor("v.blk.0.attn_q.weight", {1152, 1152}, test::kF16);
  EXPECT_NE(error_of(no_patch).find("patch_size"), std::string::npos);
  test::GgufWriter no_width;  // a Whisper encoder without its width
  no_width.str("general.architecture", "clip");
  no_width.boolean("clip.has_audio_encoder", true);
  no_width.str("clip.projector_type", "ultravox");
  no_width.tensor("a.blk.0.attn_q.weight", {1280, 1280}, test::kF16);
  EXPECT_NE(error_of(no_width).find("clip.audio.embedding_length"), std::string::npos);
}

// llama.cpp's report of the clip compute buffer (architecture_figures.csv,
// gpustack/gguf-parser-go issue #44): gemma3 1132 / 121 MiB, Qwen2-VL
// 4598 / 267 MiB, Qwen2.5-VL 4872 / 705 MiB, flash attention off / on.
TEST(ProjectorCompute, MatchesLlamaCppsReportedClipBuffer) {
  const ProjectorFile g = gemma3();
  EXPECT_NEAR(mib(detail::clip_compute_bytes(g, false)), 1132, 1.0);
  EXPECT_NEAR(mib(detail::clip_compute_bytes(g, true)), 121, 1.0);

  test::GgufWriter qwen2 = mmproj("qwen2vl_merger", 560, 14, 1280, 5120, 16);
  const ProjectorFile q2 = read(qwen2);
  EXPECT_NEAR(mib(detail::clip_compute_bytes(q2, false)) / 4598, 1.0, 0.02);
  // With flash attention the FFN peak is +8 %: what else the graph holds
  // there (positions for the 2D RoPE, the merger) is not modelled.
  EXPECT_NEAR(mib(detail::clip_compute_bytes(q2, true)) / 267, 1.0, 0.10);

  test::GgufWriter qwen25 = mmproj("qwen2.5vl_merger", 560, 14, 1280, 3420, 16);
  qwen25.tensor("v.blk.0.ffn_gate.weight", {1280, 3420}, test::kF16);
  qwen25.u32("clip.vision.n_wa_pattern", 8);
  const ProjectorFile q25 = read(qwen25);
  EXPECT_NEAR(mib(detail::clip_compute_bytes(q25, false)) / 4872, 1.0, 0.02);
  EXPECT_NEAR(mib(detail::clip_compute_bytes(q25, true)) / 705, 1.0, 0.10);
}

TEST(ProjectorCompute, TheProjectorTermHoldsTheFileAndItsBufferUnderLlamaCppOnly) {
  Model m;
  m.name = "test";
  m.params = 4'000'000'000;
  m.active_params = m.params;
  m.arch.layers = 32;
  m.arch.hidden_size = 3072;
  m.arch.intermediate_size = 8192;
  m.arch.heads = 24;
  m.arch.kv_heads = 8;
  m.arch.head_dim = 128;
  m.arch.vocab_size = 128256;
  m.arch.vision_params = 1'000'000'000;  // an estimate from vision_config, replaced below
  const ProjectorFile p = gemma3();
  attach_projector(m, p);
  EXPECT_EQ(m.arch.vision_params, p.params);
  ASSERT_FALSE(m.notes.empty());
  EXPECT_NE(m.notes.back().find("--text-only"), std::string::npos);

  InferenceQuery q;
  q.model = m;
  q.precision = *parse_precision("q4_k_m");
  q.runtime = Runtime::LlamaCpp;
  const Estimate e = estimate_inference(q);
  EXPECT_EQ(e.memory.projector, p.bytes + detail::clip_compute_bytes(p, e.flash_attention));
  bool listed = false;
  for (const auto& t : e.terms) {
    listed = listed || (t.key == "projector" && t.bytes == e.memory.projector);
  }
  EXPECT_TRUE(listed);
  // The file's bytes whatever --precision says (it is its own file).
  q.precision = *parse_precision("q8_0");
  EXPECT_EQ(estimate_inference(q).memory.projector, e.memory.projector);
  q.text_only = true;
  EXPECT_EQ(estimate_inference(q).memory.projector, 0);
  // vLLM holds the tower's weights, not clip.cpp's buffer.
  q.text_only = false;
  q.runtime = Runtime::Vllm;
  q.precision = *parse_precision("fp16");
  EXPECT_EQ(estimate_inference(q).memory.projector, p.bytes);
}

}  // namespace
}  // namespace willfit
