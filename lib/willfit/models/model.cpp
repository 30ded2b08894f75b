// Inferring an architecture from a bare parameter count.
//
// A size like "13b" says nothing about layers, heads or vocabulary, yet the
// KV cache and compute buffers depend on exactly those. Real decoder families
// scale in a regular way: depth and width grow roughly geometrically with the
// parameter count, modern models use grouped-query attention with 8 KV heads
// (fewer for the smallest), heads are 64 or 128 wide, and the MLP takes what
// is left of the budget. So we keep a table of real models (the anchors,
// architectures from shared/reference/models.csv, which cites the published
// configs):
//   SmolLM2-135M, Qwen2.5-0.5B, Qwen2.5-1.5B, Llama-3.2-3B, Llama-3.1-8B,
//   Qwen2.5-14B, Qwen2.5-32B, Llama-3.1-70B, Llama-3.1-405B.
//
// The requirement that shapes the design: a larger size must never get a
// smaller dimension that sizes memory (layers, width, heads' and KV heads'
// widths, vocabulary, MLP width), or it could need less memory than a smaller
// size (tests/unit/test_properties.cpp). Solving one dimension so the count
// hits the size exactly breaks that: where the width steps up by a group of
// KV heads, the solved MLP steps down. So the shape is built in two stages.
//
// 1. A smooth shape, every dimension a continuous non-decreasing function of
//    the size: depth, width, vocabulary, KV heads, head width and the share
//    of an untied output head are interpolated geometrically between the two
//    anchors around the size (extrapolated along the last segment above the
//    table; below it depth and width shrink as the cube root of the size and
//    the vocabulary as its square, so the count falls in proportion). Depth,
//    KV heads and vocabulary use envelopes of the anchors' values, because
//    the real families are not monotone (see make_envelope). The MLP width is
//    solved so this smooth shape counts exactly the size; where that
//    solution dips (the MLP of Qwen2.5-1.5B is wider than Llama-3.2-3B's,
//    relative to the width), its running maximum over smaller sizes is used.
// 2. The reported shape rounds the smooth one with rules that keep every
//    dimension non-decreasing: depth to whole layers, width and MLP to whole
//    256-wide blocks (what K-quant rows need), the attention to whole groups
//    of KV heads (a query width of heads x head dim that may differ from the
//    hidden width, as in Qwen3 and Gemma), the vocabulary to a multiple of 64.
//    The KV heads step from 2 to 8 where the width crosses 2.5 x 1024, so the
//    query width rounded to groups of 8 x 128 never falls below the one
//    rounded to groups of 2 x 128 just before.
//
// The rounded shape's count misses the size by up to a few per cent (more
// near the smallest anchors, where a 256-wide step is a large part of the
// width). The weights must still be the size stated ("13b" x 0.5 bytes is
// 6.5 GB), so weight_layout spreads the stated count over the smooth shape's
// groups (Model::inferred_groups); the KV cache and compute buffers use the
// rounded shape.
#include "willfit/models/model.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "willfit/models/plamo2.hpp"
#include "willfit/models/rwkv.hpp"

namespace willfit {

std::string_view to_string(FactSource source) {
  switch (source) {
    case FactSource::Catalogue:
      return "catalogue";
    case FactSource::Gguf:
      return "gguf";
    case FactSource::Safetensors:
      return "safetensors";
    case FactSource::Config:
      return "config";
    case FactSource::Assumed:
      return "assumed";
  }
  return "assumed";
}

std::string_view to_string(AttentionKind kind) {
  switch (kind) {
    case AttentionKind::Full:
      return "full";
    case AttentionKind::Sliding:
      return "sliding";
    case AttentionKind::Mla:
      return "mla";
    case AttentionKind::Hybrid:
      return "hybrid";
  }
  return "full";
}

// ---- Architectures willfit knows ------------------------------------------
//
// A GGUF file or a config.json names its architecture, and both readers take
// the shape from the keys every architecture shares (layers, widths, heads,
// experts). That is the whole model for a plain transformer, but not for an
// architecture with layer kinds of its own: state-space or linear-attention
// layers (no KV cache), compressed or sparse attention, per-layer weights.
// Those need the reader to know them, so the readers mark any architecture
// outside these lists and the estimate says so instead of answering as if
// it knew. The lists hold the architectures of the catalogue's families
// (llama.cpp writes Mistral, Mixtral, Yi, TinyLlama and SmolLM as "llama";
// Kimi K2 and DeepSeek-R1 as "deepseek2") and the kinds the reader tests
// cover (tests/unit/test_architectures.cpp, test_gguf.cpp, test_hf_config.cpp,
// tests/live). Names: llama.cpp src/llama-arch.cpp LLM_ARCH_NAMES and each
// transformers model's configuration_*.py model_type.
bool is_known_gguf_architecture(std::string_view arch) {
  static constexpr auto kKnown = std::to_array<std::string_view>(
      {"bert", "command-r", "cohere2", "deepseek", "deepseek2", "deepseek32", "deepseek4", "exaone",
       "exaone4", "falcon", "falcon-h1", "gemma", "gemma2", "gemma3", "gemma3n", "gemma4", "glm4",
       "glm4moe", "gpt-oss", "gpt2", "granite", "granitemoe", "granitehybrid", "internlm2", "jamba",
       "kimi-k3", "kimi-linear", "lfm2", "lfm2moe", "llama", "llama4", "minimax-m2", "mistral3",
       "mllama", "nemotron_h", "olmo2", "phi2", "phi3", "qwen2", "qwen2moe", "qwen2vl", "qwen3",
       "qwen35", "qwen35moe", "qwen3moe", "qwen3next", "smollm3", "stablelm", "starcoder2",
       // issue 18 (tests/unit/test_new_architectures.cpp)
       "olmoe", "ernie4_5-moe", "seed_oss", "hunyuan-moe", "arcee", "qwen3vl", "qwen3vlmoe",
       "nemotron_h_moe", "exaone-moe", "dots1", "bailingmoe2", "apertus", "hunyuan-dense",
       "ernie4_5",
       // the 2026 architectures of issue 18 (tests/unit/test_architectures_2026.cpp)
       "glm-dsa", "mistral4", "minimax-m3", "step35", "hy_v3", "bailingmoe3", "qwen4exp",
       "dots3note",
       // layers of their own shapes: Nemotron NAS, OpenELM (tests/unit/test_deci.cpp)
       "deci", "openelm",
       // issue 18: windowed MoE models (tests/unit/test_new_architectures.cpp, WindowedMoe)
       "mimo2", "afmoe", "smallthinker",
       // issue 18: Muse Glimmer, afmoe's gated attention in a dense windowed trunk
       // (test_architectures_2026.cpp)
       "muse-glimmer",
       // poolside Laguna (tests/unit/test_architectures_2026.cpp, Laguna)
       "laguna",
       // issue 18: Cohere's MoE (tests/unit/test_architectures_2026.cpp, Cohere2Moe)
       "cohere2moe",
       // issue 18: Granite SWASH, dense and MoE (tests/unit/test_arch_granite_swa.cpp)
       "granite_swa",
       // issue 18: MiniMax-01's lightning attention (tests/unit/test_arch_hybrid2.cpp)
       "minimax-01",
       // EmbeddingGemma: gemma3's layers, bidirectional, no KV cache
       // (tests/unit/test_architectures_2026.cpp, EmbeddingGemma)
       "gemma-embedding",
       // issue 18: Phi-3.5-MoE (tests/unit/test_architectures_2026.cpp, PhiMoe)
       "phimoe",
       // issue 18: GPT-NeoX / Pythia (tests/unit/test_arch_gptneox.cpp)
       "gptneox",
       // issue 18: DBRX (tests/unit/test_arch_dbrx.cpp)
       "dbrx",
       // issue 18: Grok-1 and Grok-2 (tests/unit/test_arch_grok.cpp)
       "grok",
       // issue 18: Nemotron-4 / Minitron (tests/unit/test_arch_nemotron.cpp)
       "nemotron",
       // issue 18: BitNet b1.58 (tests/unit/test_arch_bitnet.cpp)
       "bitnet",
       // no KV cache (is_cache_free_gguf_architecture); shaped as llama and qwen2
       "llada", "dream",
       // issue 18: nomic-embed-text (tests/unit/test_architectures_2026.cpp, NomicBert)
       "nomic-bert",
       // issue 18: MiniCPM3, MLA cached per head, and MiniCPM, granite.cpp's
       // graph (tests/unit/test_arch_minicpm.cpp)
       "minicpm3", "minicpm",
       // issue 18: jina-embeddings-v2 (tests/unit/test_arch_bert2.cpp, JinaBertV2)
       "jina-bert-v2",
       // jina-embeddings-v3 (tests/unit/test_arch_jina_bert_v3.cpp)
       "jina-bert-v3",
       // issue 18: nomic-embed-text-v2-moe (tests/unit/test_arch_bert2.cpp, NomicBertMoe)
       "nomic-bert-moe",
       // issue 18: ModernBERT (tests/unit/test_arch_modernbert.cpp)
       "modern-bert",

       // issue 18: ChatGLM2/3, GLM-4-9B (2024), CodeGeeX4 (tests/unit/test_arch_chatglm.cpp)
       "chatglm",

       // issue 18: GPT-BigCode, StarCoder 1 (tests/unit/test_arch_bigcode.cpp)
       "starcoder",
       // issue 18: OLMo-1, LayerNorms without weights (tests/unit/test_arch_olmo.cpp)
       "olmo",
       // issue 18: llama-embed-nemotron, EuroBERT, NeoBERT (tests/unit/test_arch_enc.cpp)
       "llama-embed", "eurobert", "neo-bert",
       // issue 18: Qwen-1 (tests/unit/test_arch_llama23.cpp, Qwen1)
       "qwen",
       // issue 18: Baichuan, RoPE or ALiBi by depth (tests/unit/test_arch_llama23.cpp, Baichuan)
       "baichuan",
       // issue 18: Orion-14B, LayerNorms in llama's layer (tests/unit/test_arch_llama23.cpp, Orion)
       "orion",
       // issue 18: CodeShell-7B, GPT-NeoX's layer with GQA (tests/unit/test_arch_llama23.cpp)
       "codeshell",
       // issue 18: XVERSE, llama's graph (tests/unit/test_arch_llama23.cpp, Xverse)
       "xverse",
       // issue 18: the ALiBi decoders (tests/unit/test_arch_alibi.cpp)
       "bloom", "mpt", "jais", "refact",
       // issue 18: Jais 2, LayerNorms and biases beside RoPE (tests/unit/test_arch_jais2.cpp)
       "jais2",
       // issue 18: Ling-lite / Ling-plus, shared experts (tests/unit/test_arch_moe2.cpp)
       "bailingmoe",
       // issue 18: Snowflake Arctic, a dense MLP beside 128 experts (test_arch_moe2.cpp)
       "arctic",
       // issue 18: T5 and its encoder alone (tests/unit/test_arch_t5.cpp)
       "t5", "t5encoder",
       // issue 18: Mamba, Falcon Mamba, Mamba-2 (Codestral Mamba): recurrent
       // blocks alone (tests/unit/test_arch_mamba.cpp)
       "mamba", "mamba2",
       // issue 18: LLaDA-MoE, a diffusion LM with OLMoE's layers, and RND1,
       // Qwen3-30B-A3B's as one; no KV cache (tests/unit/test_arch_llada_moe.cpp,
       // test_arch_rnd1.cpp)
       "llada-moe", "rnd1",
       // issue 18: RWKV-6 Finch and RWKV-7 Goose (tests/unit/test_arch_rwkv.cpp)
       "rwkv6", "rwkv7",
       // issue 18: ARWKV-7, RWKV-7's time mix beside Qwen2's MLP, and
       // RWKV6Qwen2, RWKV-6's beside it (test_arch_rwkv.cpp)
       "arwkv7", "rwkv6qwen2",
       // issue 18: PaddleOCR-VL's text model, ernie4_5's tensors under
       // qwen2vl's graph (tests/unit/test_arch_paddleocr.cpp)
       "paddleocr",
       // issue 18: DeepSeek-OCR's decoder, DeepSeek-V2's MoE without MLA
       // (tests/unit/test_arch_deepseek_ocr.cpp)
       "deepseek2-ocr",
       // issue 18: HunyuanOCR's text model, hunyuan-dense's layer with XD-RoPE
       // (tests/unit/test_arch_hunyuan_vl.cpp)
       "hunyuan_vl",
       // issue 18: PLaMo 2, its own Mamba mixer between attention layers,
       // and PLaMo-13B's parallel block (tests/unit/test_arch_plamo.cpp)
       "plamo", "plamo2",
       // issue 18: PLaMo 3, fused QKV and gate+up, post-norms, a window on
       // seven layers of eight (tests/unit/test_arch_plamo.cpp)
       "plamo3",
       // issue 18: GroveMoE, qwen3moe's layer with adjugate experts in a
       // second MoE pass (tests/unit/test_arch_variants.cpp, GroveMoe)
       "grovemoe",
       // issue 18: JetBrains Mellum2, qwen3moe's layer with listed windows
       // (tests/unit/test_arch_variants.cpp, Mellum)
       "mellum",
       // issue 18: openPangu-Embedded, llama's layer with q, k, v and o
       // biases (tests/unit/test_arch_variants.cpp, PanguEmbedded)
       "pangu-embedded",
       // issue 18: Nanbeige4.2, looped layers each pass cached apart
       // (tests/unit/test_arch_variants.cpp, Nanbeige)
       "nanbeige",
       // issue 18: Chameleon, llama's layer with per-head Q/K LayerNorms
       // (tests/unit/test_arch_chameleon.cpp)
       "chameleon",
       // issue 18: CogVLM's language model with its visual expert
       // (tests/unit/test_arch_cogvlm.cpp)
       "cogvlm",
       // issue 18: Granite Switch, Granite's layer with embedded LoRA
       // adapters and a router (tests/unit/test_arch_graniteswitch.cpp)
       "graniteswitch",
       // issue 18: Talkie, weightless norms and the normed embeddings added
       // to every layer (tests/unit/test_arch_talkie.cpp)
       "talkie",
       // issue 18: EAGLE-3 speculative-decoding drafts, sized as the draft
       // that runs beside its target (tests/unit/test_arch_drafts.cpp)
       "eagle3",
       // issue 18: Gemma 4's multi-token-prediction assistants, sized as the
       // draft that runs beside its target (tests/unit/test_arch_drafts.cpp)
       "gemma4-assistant",
       // issue 18: DFlash block-diffusion drafts, sized as the draft that
       // runs beside its target (tests/unit/test_arch_dflash.cpp)
       "dflash",
       // issue 18: PLM-1.8B, MiniCPM3's per-head MLA with one Q projection
       // and a squared-ReLU MLP (tests/unit/test_arch_plm.cpp)
       "plm",
       // issue 18: Maincoder, qwen3's dense layer with Q and K normed after
       // RoPE (tests/unit/test_arch_maincoder.cpp; illustrative values)
       "maincoder",
       // issue 18: WavTokenizer's decoder, OuteTTS's vocoder: PosNet and
       // ConvNeXt blocks, no KV cache (tests/unit/test_arch_wavtokenizer.cpp)
       "wavtokenizer-dec",
       // issue 18: Qwen3-TTS's talker (qwen3vl.cpp's layer, a codec head
       // narrower than the vocabulary; tests/unit/test_arch_qwen3tts.cpp)
       // and Pocket TTS's backbone (LayerNorms with biases, a GELU MLP,
       // tied; tests/unit/test_arch_pockettts.cpp)
       "qwen3tts", "pockettts"});
  return std::find(kKnown.begin(), kKnown.end(), arch) != kKnown.end();
}

bool is_known_config_model_type(std::string_view model_type) {
  static constexpr auto kKnown = std::to_array<std::string_view>({"afmoe",
                                                                  "apertus",
                                                                  "arcee",
                                                                  "arctic",
                                                                  "baichuan",
                                                                  "bailing_hybrid",
                                                                  "bailing_moe",
                                                                  "bailing_moe_v2",
                                                                  "bloom",
                                                                  "bert",
                                                                  "bitnet",
                                                                  "chameleon",
                                                                  "chatglm",
                                                                  "codeshell",
                                                                  "cogvlm",
                                                                  "cohere",
                                                                  "cohere2",
                                                                  "cohere2_moe",
                                                                  "deci",
                                                                  "eurobert",
                                                                  "deepseek_v2",
                                                                  "deepseek_v3",
                                                                  "deepseek_v32",
                                                                  "deepseek_v4",
                                                                  "deepseek_vl_v2",
                                                                  "distilbert",
                                                                  "dots1",
                                                                  "dots3_note",
                                                                  "dots3_note_text",
                                                                  "dream",
                                                                  "ernie4_5",
                                                                  "ernie4_5_moe",
                                                                  "dbrx",
                                                                  "grok-1",
                                                                  "exaone",
                                                                  "exaone4",
                                                                  "exaone_moe",
                                                                  "falcon",
                                                                  "falcon_h1",
                                                                  "falcon_mamba",
                                                                  "gemma",
                                                                  "gemma2",
                                                                  "gemma3",
                                                                  "gemma3_text",
                                                                  "gemma3n",
                                                                  "gemma3n_text",
                                                                  "gemma4",
                                                                  "gemma4_assistant",
                                                                  "gemma4_text",
                                                                  "glm",
                                                                  "glm4",
                                                                  "glm4_moe",
                                                                  "glm_moe_dsa",
                                                                  "gpt2",
                                                                  "gpt_bigcode",
                                                                  "gpt_neox",
                                                                  "gptj",
                                                                  "jina_embeddings_v3",
                                                                  "gpt_oss",
                                                                  "gpt_refact",
                                                                  "granite",
                                                                  "granitemoe",
                                                                  "granitemoehybrid",
                                                                  "granite_swa",
                                                                  "granite_switch",
                                                                  "granitemoe_swa",
                                                                  "hunyuan_v1_dense",
                                                                  "hunyuan_v1_moe",
                                                                  "hunyuan_vl",
                                                                  "hunyuan_vl_text",
                                                                  "hy_v3",
                                                                  "internlm2",
                                                                  "jais",
                                                                  "jais2",
                                                                  "jamba",
                                                                  "kclgpt",
                                                                  "kimi_k2",
                                                                  "kimi_k3",
                                                                  "kimi_linear",
                                                                  "laguna",
                                                                  "lfm2",
                                                                  "lfm2_moe",
                                                                  "llada",
                                                                  "lladamoe",
                                                                  "llada_moe",
                                                                  "llama",
                                                                  "llama4",
                                                                  "llama4_text",
                                                                  "llama_bidirec",
                                                                  "maincoder",
                                                                  "mamba",
                                                                  "mamba2",
                                                                  "mellum",
                                                                  "nanbeige",
                                                                  "mimo_v2",
                                                                  "mimo_v2_flash",
                                                                  "minimax_m1",
                                                                  "minimax_m2",
                                                                  "minimax_m3",
                                                                  "minimax_m3_vl",
                                                                  "minimax_m3_vl_text",
                                                                  "minicpm",
                                                                  "minicpm3",
                                                                  "minimax_text_01",
                                                                  "modernbert",
                                                                  "mpt",
                                                                  "muse_glimmer",
                                                                  "muse_glimmer_text",
                                                                  "panguembedded",
                                                                  "mistral",
                                                                  "mistral3",
                                                                  "mistral4",
                                                                  "mixtral",
                                                                  "mllama",
                                                                  "neobert",
                                                                  "nemotron",
                                                                  "nemotron-nas",
                                                                  "nemotron_h",
                                                                  "nomic_bert",
                                                                  "olmo",
                                                                  "olmo2",
                                                                  "olmoe",
                                                                  "openelm",
                                                                  "orion",
                                                                  "paddleocr_vl",
                                                                  "phi",
                                                                  "phi3",
                                                                  "phimoe",
                                                                  "plamo",
                                                                  "plm",
                                                                  "plamo2",
                                                                  "plamo3",
                                                                  "qwen",
                                                                  "qwen2",
                                                                  "qwen2_5_vl",
                                                                  "qwen2_5_vl_text",
                                                                  "qwen2_moe",
                                                                  "qwen2_vl",
                                                                  "qwen3",
                                                                  "qwen3_5",
                                                                  "qwen3_5_moe",
                                                                  "qwen3_5_moe_text",
                                                                  "qwen3_5_text",
                                                                  "qwen3_moe",
                                                                  "qwen3_next",
                                                                  "qwen3_vl",
                                                                  "qwen3_vl_moe",
                                                                  "qwen3_vl_moe_text",
                                                                  "qwen3_vl_text",
                                                                  "qwen4_exp",
                                                                  "qwen4_exp_text",
                                                                  "rnd1",
                                                                  "roberta",
                                                                  "rwkv6",
                                                                  "rwkv6qwen2",
                                                                  "rwkv7",
                                                                  "seed_oss",
                                                                  "smallthinker",
                                                                  "smollm3",
                                                                  "stablelm",
                                                                  "starcoder2",
                                                                  "talkie",
                                                                  "qwen3_tts",
                                                                  "pockettts",
                                                                  "step3p5",
                                                                  "xverse",
                                                                  "t5",
                                                                  "mt5"});
  return std::find(kKnown.begin(), kKnown.end(), model_type) != kKnown.end();
}

// llama.cpp src/llama-model.cpp create_memory at 80fb11ac: these
// architectures get no memory (res = nullptr). Transformers' names for the
// same models: the BERT family's model_type values, LLaDA's "llada" (LLaDA-MoE's
// checkpoint too; "lladamoe" as dllm rewrites it) and Dream's "dream" (their
// configuration_*.py, remote code), RND1's "rnd1" (configuration_rnd.py).
bool is_encoder_gguf_architecture(std::string_view arch) {
  static constexpr auto kBertFamily =
      std::to_array<std::string_view>({"bert", "jina-bert-v2", "jina-bert-v3", "nomic-bert",
                                       "nomic-bert-moe", "neo-bert", "eurobert", "modern-bert"});
  return std::find(kBertFamily.begin(), kBertFamily.end(), arch) != kBertFamily.end();
}

bool is_cache_free_gguf_architecture(std::string_view arch) {
  static constexpr auto kCacheFree = std::to_array<std::string_view>(
      {"gemma-embedding", "wavtokenizer-dec", "dream", "llada", "llada-moe", "rnd1"});
  return is_encoder_gguf_architecture(arch) ||
         std::find(kCacheFree.begin(), kCacheFree.end(), arch) != kCacheFree.end();
}

bool is_encoder_config_model_type(std::string_view model_type) {
  static constexpr auto kEncoders =
      std::to_array<std::string_view>({"bert", "roberta", "distilbert", "xlm-roberta", "modernbert",
                                       "nomic_bert", "neobert", "eurobert", "jina_embeddings_v3"});
  return std::find(kEncoders.begin(), kEncoders.end(), model_type) != kEncoders.end();
}

bool caches_mla_per_head(std::string_view name) {
  // PLM (llama.cpp plm.cpp at 80fb11ac): minicpm3.cpp's attention with one
  // Q projection, K and V decompressed and cached per head the same way.
  return name == "minicpm3" || name == "plm";
}

std::optional<LlamaCppGap> llama_cpp_gap(std::string_view name) {
  if (name == "gptj") {
    // llama.cpp at 80fb11ac names LLM_ARCH_GPTJ but llama_model_create has no
    // case for it; Ollama's engine has no GPT-J either.
    return LlamaCppGap{
        "llama.cpp lists GPT-J's name (gptj) but builds no graph for it (llama-model.cpp: "
        "\"unsupported model architecture\") and cannot load it: the llama.cpp figures are "
        "what its graph would hold for this shape, not a run",
        false};
  }
  if (name == "mllama" || name == "llama-3.2-vision") {
    // Llama 3.2 Vision (transformers model_type mllama, the catalogue's
    // llama-3.2-vision family): llama.cpp at 80fb11ac has no mllama in
    // src/llama-arch.cpp's LLM_ARCH_NAMES nor a PROJECTOR_TYPE for it in
    // tools/mtmd/clip-impl.h, so neither its text half (cross-attention
    // layers) nor its vision encoder loads. Ollama runs it with its own Go
    // engine (ollama/ollama model/models/mllama at fb307609), from the GGUF
    // of its library (general.architecture mllama).
    return LlamaCppGap{
        "llama.cpp cannot load Llama 3.2 Vision (no mllama architecture or projector in "
        "llama.cpp): Ollama runs it with its own engine (--runtime ollama, or the tag "
        "llama3.2-vision:11b); the llama.cpp figures are what its graph would hold for this "
        "shape, not a run",
        true};
  }
  return std::nullopt;
}

bool is_cache_free_config_model_type(std::string_view model_type) {
  static constexpr auto kDiffusion =
      std::to_array<std::string_view>({"llada", "llada_moe", "lladamoe", "dream", "rnd1"});
  return is_encoder_config_model_type(model_type) ||
         std::find(kDiffusion.begin(), kDiffusion.end(), model_type) != kDiffusion.end();
}

namespace {

// llama.cpp (src/llama-arch.cpp at 80fb11ac) names LLM_ARCH_GPTJ, but
// llama_model_create (src/llama-model.cpp) has no case for it and throws
// "unsupported model architecture", and no converter in conversion/ writes it.
constexpr std::string_view kGptjWithoutGraph =
    "'gptj' (GGUF general.architecture): llama.cpp lists GPT-J's name but builds no graph for "
    "it (\"unsupported model architecture\")";

}  // namespace

// llama.cpp LLM_ARCH_NAMES (src/llama-arch.cpp at 80fb11ac) and
// transformers' model_type values of the same models.
std::string refused_gguf_architecture(std::string_view arch) {
  if (arch == "gptj") {
    return std::string(kGptjWithoutGraph) +
           ": no runtime willfit sizes loads this GGUF; give the checkpoint's config.json (GPT-J "
           "runs under transformers and vLLM)";
  }
  return "";
}

std::string refused_config_model_type(std::string_view model_type) {
  // RWKV-4 (transformers' RwkvConfig, model_type rwkv: RWKV/rwkv-4-*,
  // rwkv-raven-*): llama.cpp has no graph for it (llama-arch.cpp at 80fb11ac
  // names rwkv6, rwkv6qwen2, rwkv7 and arwkv7 only; conversion/rwkv.py
  // converts no RwkvForCausalLM), so there is nothing to size it against.
  if (model_type == "rwkv") {
    return "'rwkv' (config.json model_type) is RWKV-4, a purely recurrent model llama.cpp has no "
           "graph for (it runs RWKV-6 and RWKV-7 only), so willfit cannot size it";
  }
  return "";
}

std::string unchecked_architecture_warning(const Model& model) {
  if (model.unchecked_architecture.empty()) {
    return "";
  }
  return fmt::format(
      "willfit does not know the architecture {}: the shape was read from the keys every "
      "architecture shares, and layer kinds of its own (state or linear-attention layers, "
      "compressed attention, per-layer weights) are not modelled, so the KV cache and compute "
      "buffer may be off{}",
      model.unchecked_architecture,
      model.file_weight_bytes ? " (the weights are the file's own bytes)" : "");
}

namespace {

// Layers of a kind spread evenly over the depth: layer i is one of `count`
// such layers out of `layers` when the running share steps up at i.
bool spread(int layer, int count, int layers) {
  if (count >= layers) {
    return true;
  }
  if (count <= 0 || layers <= 0) {
    return false;
  }
  const auto at = [&](int i) { return (std::int64_t{i} * count) / layers; };
  return at(layer + 1) > at(layer);
}

}  // namespace

int attention_layer_count(const Architecture& a) {
  if (!a.layer_widths.empty()) {
    return static_cast<int>(std::count_if(a.layer_widths.begin(), a.layer_widths.end(),
                                          [](const LayerWidths& l) { return l.kv_heads > 0; }));
  }
  if (purely_recurrent(a)) {
    return 0;
  }
  if (a.attention.kind == AttentionKind::Hybrid && a.attention.attention_layers > 0) {
    return std::min(a.layers, a.attention.attention_layers);
  }
  return a.layers;
}

std::string set_vocoder(Architecture& a, const VocoderShape& v) {
  // wavtokenizer-dec.cpp load_arch_tensors: blocks 0 to 5 by their index,
  // GGML_ASSERT(posnet.n_embd == convnext.n_embd).
  if (v.posnet_layers != 6 || v.posnet_width != v.convnext_width) {
    return fmt::format(
        "{} PosNet blocks of {} beside a ConvNeXt of {}: llama.cpp's wavtokenizer-dec loads six "
        "PosNet blocks as wide as the ConvNeXt",
        v.posnet_layers, v.posnet_width, v.convnext_width);
  }
  if (v.codes <= 0 || v.features <= 0 || v.convnext_layers <= 0 || v.convnext_width <= 0 ||
      v.ffn <= 0 || v.out <= 0 || v.codes > (1 << 24) || v.features > (1 << 20) ||
      v.convnext_layers > 100000 || v.convnext_width > (1 << 20) || v.ffn > (1 << 24) ||
      v.out > (1 << 24)) {
    return "implausible WavTokenizer decoder widths (codebook, features, ConvNeXt, head)";
  }
  a.layers = v.convnext_layers;
  a.hidden_size = v.convnext_width;
  a.intermediate_size = v.ffn;
  a.mlp_gated = false;  // pw1, GELU, pw2 (build_ffn LLM_FFN_GELU, LLM_FFN_SEQ)
  // The PosNet's attention: one head over the whole width (soft_max_ext
  // scaled by 1 / sqrt(posnet width)); nothing is cached.
  a.heads = 1;
  a.kv_heads = 1;
  a.head_dim = static_cast<int>(v.posnet_width);
  a.vocab_size = v.codes;
  a.tied_embeddings = false;
  a.no_output_head = false;
  a.attention = Attention{};
  a.attention.no_kv_cache = true;  // create_memory: none
  a.moe.reset();
  a.vocoder_features = v.features;
  a.posnet_layers = v.posnet_layers;
  a.posnet_width = v.posnet_width;
  a.vocoder_out = v.out;
  return "";
}

std::string attention_heads_text(const Architecture& a) {
  if (a.vocoder_features > 0) {
    return fmt::format("no attention layers (one {}-wide head in the PosNet, over the input)",
                       a.posnet_width);
  }
  if (purely_recurrent(a)) {
    return a.attention.rwkv > 0
               ? fmt::format("no attention (an RWKV-{} time mix of {} heads of {} in every layer)",
                             a.attention.rwkv, a.heads, a.head_dim)
               : "no attention (a Mamba mixer in every layer)";
  }
  return fmt::format("{} heads, {} KV heads, head dim {}", a.heads, a.kv_heads, a.head_dim);
}

bool purely_recurrent(const Architecture& a) {
  const std::string& m = a.attention.layer_mixers;
  return a.attention.kind == AttentionKind::Hybrid && a.layers > 0 && std::ssize(m) == a.layers &&
         m.find_first_not_of('R') == std::string::npos;
}

int recurrent_layer_count(const Architecture& a) {
  if (a.attention.kind != AttentionKind::Hybrid) {
    return 0;
  }
  if (a.attention.recurrent_layers > 0) {
    return std::min(a.layers, a.attention.recurrent_layers);
  }
  return a.layers - attention_layer_count(a);
}

int mlp_layer_count(const Architecture& a) {
  if (!a.layer_widths.empty()) {
    return static_cast<int>(std::count_if(a.layer_widths.begin(), a.layer_widths.end(),
                                          [](const LayerWidths& l) { return l.ffn > 0; }));
  }
  if (purely_recurrent(a)) {
    return 0;  // mamba.cpp: the norm, the mixer, the residual; no MLP
  }
  return a.mlp_layers > 0 ? std::min(a.layers, a.mlp_layers) : a.layers;
}

LayerRoles layer_roles(const Architecture& a, int i) {
  LayerRoles r;
  // Nemotron NAS (deci): what the layer's own shape has; never a state.
  if (static_cast<std::size_t>(i) < a.layer_widths.size()) {
    const LayerWidths& l = a.layer_widths[static_cast<std::size_t>(i)];
    r.attention = l.kv_heads > 0;
    r.mlp = l.ffn > 0;
    return r;
  }
  // The common case (every layer attends and has an MLP) without the
  // spreading arithmetic: layouts ask once per layer in every estimate.
  if (a.attention.kind != AttentionKind::Hybrid && a.mlp_layers <= 0 &&
      (!a.moe || a.moe->layer_step <= 1)) {
    r.moe = a.moe && a.moe->experts > 0 && i >= a.moe->first_dense_layers;
    return r;
  }
  const int attention = attention_layer_count(a);
  const int recurrent = recurrent_layer_count(a);
  const std::string& mixers = a.attention.layer_mixers;
  const bool ordered = a.attention.kind == AttentionKind::Hybrid &&
                       mixers.size() == static_cast<std::size_t>(a.layers) &&
                       attention + recurrent <= a.layers;
  // Nemotron-H's blocks have one role each: a mixer, attention, or an MLP
  // alone ('F'), so its 'A' and 'R' blocks have no MLP.
  // A purely recurrent model's (Mamba's) blocks are the mixer alone too.
  const bool one_role = ordered && (mixers.find('F') != std::string::npos || purely_recurrent(a));
  if (ordered) {
    // The layer order the source names (a GGUF's per-layer KV heads,
    // layer_types, hybrid_override_pattern, the catalogue's layer_mixers).
    const char kind = mixers[static_cast<std::size_t>(i)];
    r.attention = kind == 'A';
    r.recurrent = kind != 'A' && kind != 'F';  // 'R', or LFM2's 'C' convolutions
  } else if (a.attention.kind == AttentionKind::Hybrid) {
    r.attention = spread(i, attention, a.layers);
    // Parallel hybrids (Falcon-H1) have both in every layer; otherwise the
    // recurrent layers are the ones without attention.
    r.recurrent = attention + recurrent > a.layers ? spread(i, recurrent, a.layers) : !r.attention;
  }
  r.mlp = one_role ? mixers[static_cast<std::size_t>(i)] == 'F'
                   : spread(i, mlp_layer_count(a), a.layers);
  if (r.mlp && a.moe && a.moe->experts > 0 && i >= a.moe->first_dense_layers) {
    const int step = std::max(1, a.moe->layer_step);
    r.moe = (i + 1) % step == 0;
  }
  return r;
}

int moe_layer_count(const Architecture& a) {
  if (!a.moe || a.moe->experts <= 0) {
    return 0;
  }
  if (a.moe->layer_step <= 1 && a.mlp_layers <= 0) {
    return a.layers - std::clamp(a.moe->first_dense_layers, 0, a.layers);
  }
  int n = 0;
  for (int i = 0; i < a.layers; ++i) {
    n += layer_roles(a, i).moe ? 1 : 0;
  }
  return n;
}

bool uses_mla(const Architecture& a) {
  return a.attention.kv_lora_rank > 0 &&
         (a.attention.kind == AttentionKind::Mla || a.attention.kind == AttentionKind::Hybrid);
}

bool windowed_mla_layer(const Architecture& a, int layer) {
  const std::string& listed = a.attention.window_layers;
  return uses_mla(a) && a.attention.swa_kv_lora_rank > 0 && layer >= 0 &&
         layer < std::ssize(listed) && listed[static_cast<std::size_t>(layer)] == 'S';
}

int windowed_mla_layer_count(const Architecture& a) {
  int n = 0;
  for (int i = 0; i < a.layers; ++i) {
    n += windowed_mla_layer(a, i) ? 1 : 0;
  }
  return n;
}

Architecture windowed_mla_shape(const Architecture& a) {
  Architecture w = a;
  Attention& at = w.attention;
  w.heads = at.swa_heads > 0 ? at.swa_heads : a.heads;
  w.kv_heads = std::min(w.kv_heads, w.heads);
  at.kv_lora_rank = at.swa_kv_lora_rank;
  at.qk_nope_head_dim = at.swa_qk_nope_head_dim;
  at.v_head_dim = at.swa_v_head_dim;
  at.index_head_dim = 0;  // dots3note.cpp: the indexer is on the full layers only
  at.index_heads = 0;
  at.swa_kv_lora_rank = 0;
  at.window_layers.clear();
  w.head_dim = at.qk_nope_head_dim + at.qk_rope_head_dim;
  return w;
}

bool compressed_attention(const Architecture& a) {
  return !a.attention.compress_layers.empty();
}

int compressed_layer_count(const Architecture& a, char kind) {
  const std::string& l = a.attention.compress_layers;
  return static_cast<int>(std::count(l.begin(), l.end(), kind));
}

// DeepSeek-V4's compressors (llama.cpp src/models/deepseek4.cpp
// load_arch_tensors at 80fb11ac; DeepSeek-V4 inference/model.py class
// Compressor): a layer of ratio r pools r tokens into one key by a gated sum,
// from kv and gate projections of the input (attn_comp_wkv, attn_comp_wgate:
// hidden x coff head_dim each, coff = 2 for ratio 4, whose windows overlap,
// 1 for ratio 128) and a learned position table (attn_comp_ape: coff
// head_dim x r). A ratio-4 layer's lightning indexer has its own compressor
// at index_head_dim, a query projection from the query latent
// (indexer_attn_q_b: q_lora x index_heads index_head_dim) and a per-head
// weight projection (indexer_proj: hidden x index_heads). Norm scales are
// left out, as everywhere.
std::int64_t compressed_attention_params(const Architecture& a, char kind) {
  const std::int64_t h = a.hidden_size;
  const std::int64_t hd = a.head_dim;
  if (kind == 'H') {
    return 2 * h * hd + hd * 128;
  }
  if (kind != 'C') {
    return 0;
  }
  const Attention& m = a.attention;
  const std::int64_t ihd = m.index_head_dim;
  const std::int64_t compressor = 2 * h * 2 * hd + 2 * hd * 4;
  const std::int64_t indexer = h * m.index_heads +
                               std::int64_t{std::max(m.q_lora_rank, 0)} * m.index_heads * ihd +
                               2 * h * 2 * ihd + 2 * ihd * 4;
  return compressor + (ihd > 0 ? indexer : 0);
}

// Hyper-connections (DeepSeek-V4 inference/model.py Block.hc_pre; llama.cpp
// deepseek4.cpp hc_attn_fn, hc_ffn_fn): before the attention and before the
// MLP, a projection of the n concatenated streams (n hidden) to the (2 + n) n
// mixing coefficients; their bases and scales ((2 + n) n + 3 each) are left
// out with the norms.
//
// Qwen4Exp's gated residual (llama.cpp src/models/qwen4exp.cpp
// load_arch_tensors at 80fb11ac): before the token mixer and before the MoE,
// hc_*_down (n hidden x rank), hc_*_up (rank x n hidden) and hc_*_inject
// (n hidden x n); the n hidden gammas are norms, left out.
std::int64_t hyper_connection_params_per_layer(const Architecture& a) {
  const std::int64_t n = a.hyper_connections;
  if (n > 0 && a.hc_low_rank > 0) {
    const std::int64_t wide = n * a.hidden_size;
    return 2 * (2 * wide * a.hc_low_rank + wide * n);
  }
  return n > 0 ? 2 * n * a.hidden_size * (2 + n) * n : 0;
}

// Qwen4Exp's n-gram layer (qwen4exp.cpp load_arch_tensors: ple_key hidden x
// n hidden, ple_value hidden x hidden, ple_conv1d taps x n hidden; the three
// n hidden norms left out) and its convolution history
// (llama-hparams.cpp ple_conv_state: (taps - 1) x ngram_size x n hidden).
std::int64_t ngram_layer_params(const Architecture& a) {
  if (a.ngram_rows <= 0 || a.ngram_layer < 0 || a.hyper_connections <= 0) {
    return 0;
  }
  const std::int64_t wide = std::int64_t{a.hyper_connections} * a.hidden_size;
  return a.hidden_size * wide + a.hidden_size * a.hidden_size + wide * a.ngram_conv;
}

std::int64_t ngram_state_floats(const Architecture& a) {
  if (a.ngram_rows <= 0 || a.ngram_layer < 0 || a.ngram_conv <= 0) {
    return 0;
  }
  return std::int64_t{a.ngram_conv - 1} * a.ngram_size * a.hyper_connections * a.hidden_size;
}

int indexer_layer_count(const Architecture& a) {
  if (a.attention.index_head_dim <= 0) {
    return 0;
  }
  const int attending = attention_layer_count(a);
  return a.attention.indexer_layers <= 0 ? attending
                                         : std::min(a.attention.indexer_layers, attending);
}

std::int64_t mla_indexer_params(const Architecture& a) {
  const auto& m = a.attention;
  if (!uses_mla(a) || m.index_head_dim <= 0) {
    return 0;
  }
  return std::int64_t{std::max(m.q_lora_rank, 0)} * m.index_heads * m.index_head_dim +
         a.hidden_size * m.index_head_dim + a.hidden_size * m.index_heads;
}

std::int64_t gqa_indexer_params(const Architecture& a) {
  // DeepSeek-V4's indexers are counted with its compressors.
  if (uses_mla(a) || compressed_attention(a) || a.attention.index_head_dim <= 0) {
    return 0;
  }
  const std::int64_t d = a.attention.index_head_dim;
  return a.hidden_size * (std::int64_t{std::max(a.attention.index_heads, 1)} * d + d);
}

std::int64_t attention_params_per_layer(const Architecture& a) {
  const std::int64_t h = a.hidden_size;
  if (compressed_attention(a)) {
    // DeepSeek-V4 (llama.cpp deepseek4.cpp load_arch_tensors at 80fb11ac):
    // the query through its latent (wq_a: hidden x q_lora, wq_b: q_lora x
    // heads head_dim), one key head that is also the value (wkv: hidden x
    // kv_heads head_dim), and the grouped low-rank output (wo_a: heads
    // head_dim x o_lora, split over o_groups; wo_b: o_groups o_lora x
    // hidden). The compressors are counted by layer kind.
    const Attention& m = a.attention;
    const std::int64_t hd = a.head_dim;
    const std::int64_t qd = std::int64_t{a.heads} * hd;
    const std::int64_t q = m.q_lora_rank > 0 ? h * m.q_lora_rank + m.q_lora_rank * qd : h * qd;
    const std::int64_t kv = h * std::max(1, a.kv_heads) * hd;
    const std::int64_t o = m.o_groups > 0 && m.o_lora_rank > 0
                               ? qd * m.o_lora_rank + std::int64_t{m.o_groups} * m.o_lora_rank * h
                               : qd * h;
    return q + kv + o;
  }
  if (uses_mla(a)) {
    const auto& m = a.attention;
    const std::int64_t qk = m.qk_nope_head_dim + m.qk_rope_head_dim;
    const std::int64_t v = m.v_head_dim > 0 ? m.v_head_dim : a.head_dim;
    const std::int64_t q = m.q_lora_rank > 0
                               ? h * m.q_lora_rank + std::int64_t{m.q_lora_rank} * a.heads * qk
                               : h * a.heads * qk;
    const std::int64_t kv = h * (m.kv_lora_rank + m.qk_rope_head_dim) +
                            std::int64_t{m.kv_lora_rank} * a.heads * (m.qk_nope_head_dim + v);
    const std::int64_t o = std::int64_t{a.heads} * v * h;
    // DeepSeek-V3.2's indexer (inference/model.py, class Indexer): wq_b from
    // the query latent, wk and a per-head weight projection from the input.
    const std::int64_t indexer = mla_indexer_params(a);
    // Kimi K3's output gate (kimi-k3.cpp attn_gate): hidden x heads x v;
    // Ling 3's head-wise one (bailingmoe3.cpp attn_gate): hidden x heads.
    const std::int64_t gate =
        (m.mla_output_gate ? h * a.heads * v : 0) + (m.mla_head_gate ? h * a.heads : 0);
    return q + kv + o + indexer + gate;
  }
  // A gated attention layer's Q projection is twice as wide: the second
  // half is the output gate (Qwen3.5; llama.cpp create_tensor_qkv with
  // n_embd_head_k * n_head * 2 rows in qwen35.cpp / qwen35moe.cpp).
  // V heads of their own width (MiMo-V2-Flash's 128 beside K's 192: wv and
  // wo at value_head_dim, mimo2.cpp load_arch_tensors n_embd_v_gqa).
  const std::int64_t vd = value_head_dim(a);
  // AFMoE's separate output gate (afmoe.cpp attn_gate) holds as many.
  const bool q_gated = a.attention.gated_attention || a.attention.output_gate;
  const std::int64_t q = h * a.heads * a.head_dim * (q_gated ? 2 : 1);
  const std::int64_t kv = h * a.kv_heads * (a.head_dim + vd);
  const std::int64_t o = std::int64_t{a.heads} * vd * h;
  // Step-3.5's head-wise gate (step35.cpp attn_gate: hidden x heads).
  const std::int64_t gate = a.attention.head_gate ? h * a.heads : 0;
  return q + kv + o + gate;
}

int value_head_dim(const Architecture& a) {
  // MiniCPM3 caches V per head at MLA's v_head_dim.
  if (uses_mla(a) && a.attention.mla_cached_per_head) {
    return a.attention.v_head_dim;
  }
  return a.attention.value_head_dim > 0 ? a.attention.value_head_dim : a.head_dim;
}

bool is_global_layer(const Architecture& a, int layer) {
  if (a.attention.kind != AttentionKind::Sliding) {
    return true;
  }
  const std::string& listed = a.attention.window_layers;
  if (!listed.empty()) {  // MiMo-V2-Flash: the layers as listed
    return layer >= 0 && layer < std::ssize(listed) &&
           listed[static_cast<std::size_t>(layer)] == 'G';
  }
  const int p = a.attention.sliding_pattern;
  if (a.attention.global_first) {
    return p > 1 && layer % p == 0;
  }
  return p > 1 && (layer + 1) % p == 0;
}

int global_layer_count(const Architecture& a, int layers) {
  const int p = a.attention.sliding_pattern;
  if (a.attention.kind != AttentionKind::Sliding || layers <= 0) {
    return 0;
  }
  if (const std::string& listed = a.attention.window_layers; !listed.empty()) {
    const auto end = listed.begin() + std::min<std::ptrdiff_t>(layers, std::ssize(listed));
    return static_cast<int>(std::count(listed.begin(), end, 'G'));
  }
  if (p <= 1) {
    return 0;
  }
  return a.attention.global_first ? (layers + p - 1) / p : layers / p;
}

// Gemma 4's global layers (llama.cpp src/models/gemma4.cpp load_arch_tensors
// at 80fb11ac): wq n_embd x n_head global_head_dim, wk n_embd x
// global_kv_heads global_head_dim, wv the same unless attention_k_eq_v
// drops it, wo back to n_embd.
std::int64_t global_attention_params_per_layer(const Architecture& a) {
  const Attention& at = a.attention;
  if (at.global_head_dim <= 0 && at.global_kv_heads <= 0 && !at.global_k_eq_v &&
      at.global_heads <= 0) {
    return attention_params_per_layer(a);
  }
  const std::int64_t h = a.hidden_size;
  const std::int64_t d = at.global_head_dim > 0 ? at.global_head_dim : a.head_dim;
  const std::int64_t kv = at.global_kv_heads > 0 ? at.global_kv_heads : a.kv_heads;
  // Step-3.5's global layers: their own query heads (step35.cpp n_head(il)).
  const std::int64_t heads = at.global_heads > 0 ? at.global_heads : a.heads;
  const std::int64_t q = h * heads * d * (at.gated_attention || at.output_gate ? 2 : 1);
  // MiMo-V2-Flash: V (and the output projection's input) at value_head_dim.
  const std::int64_t vd = at.value_head_dim > 0 ? at.value_head_dim : d;
  const std::int64_t k_and_v = h * kv * d + (at.global_k_eq_v ? 0 : h * kv * vd);
  const std::int64_t gate = at.head_gate ? h * heads : 0;
  return q + k_and_v + heads * vd * h + gate;
}

// A gated delta net (transformers modeling_qwen3_next.py
// Qwen3NextGatedDeltaNet, modeling_qwen3_5.py Qwen3_5GatedDeltaNet; llama.cpp
// qwen35.cpp load_arch_tensors): the input projections of q and k (nk dk
// each), v and the output gate z (nv dv each), the per-value-head beta and
// alpha (decay) rows, a depthwise convolution of conv_kernel taps over the
// 2 nk dk + nv dv q, k, v channels, and the output projection nv dv x h.
// transformers 5 splits in_proj_qkvz into in_proj_qkv and in_proj_z and
// in_proj_ba into in_proj_b and in_proj_a; the count is the same. The A
// and dt vectors and the norm (nv + nv + dv values) are left out, as norms
// are everywhere.
std::int64_t gated_delta_net_params(std::int64_t h, std::int64_t nk, std::int64_t nv,
                                    std::int64_t dk, std::int64_t dv, std::int64_t conv) {
  const std::int64_t conv_dim = 2 * nk * dk + nv * dv;
  return h * (2 * nk * dk + 2 * nv * dv) + h * 2 * nv + conv_dim * conv + nv * dv * h;
}

// Mamba-2 (transformers modeling_mamba2.py, modeling_granitemoehybrid.py,
// modeling_nemotron_h.py: Mamba2Mixer; llama.cpp mamba2.cpp and
// granite-hybrid.cpp load_arch_tensors at 80fb11ac): in_proj h x (2 d_inner
// + 2 groups d_state + heads) for z, x, B, C and dt, a depthwise
// convolution of conv_kernel taps over the d_inner + 2 groups d_state x, B
// and C channels, out_proj d_inner x h. Mamba-1 (modeling_mamba.py
// MambaMixer, modeling_jamba.py JambaMambaMixer; llama.cpp mamba.cpp):
// in_proj h x 2 d_inner for x and z, the convolution over d_inner, x_proj
// d_inner x (dt_rank + 2 d_state), dt_proj dt_rank x d_inner, A d_inner x
// d_state, out_proj d_inner x h. Biases, D, Mamba-2's A and dt bias (one a
// head) and the norms are left out, as norms are everywhere.
std::int64_t mamba_mixer_params(std::int64_t h, std::int64_t d, std::int64_t n, std::int64_t conv,
                                std::int64_t heads, std::int64_t groups) {
  if (groups > 0) {
    const std::int64_t conv_dim = d + 2 * groups * n;
    return h * (2 * d + 2 * groups * n + heads) + conv_dim * conv + d * h;
  }
  return h * 2 * d + d * conv + d * (heads + 2 * n) + heads * d + d * n + d * h;
}

// PLaMo 2 (llama.cpp plamo2.cpp load_arch_tensors at 80fb11ac; pfnet's
// modeling_plamo.py Mamba, as vLLM's plamo2.py loads it): ssm_in h x
// 2 d_inner (z and x), a depthwise convolution of conv_kernel taps over
// d_inner without a bias, ssm_x d_inner x (dt_dim + 2 d_state) for dt, B and
// C, ssm_dt dt_dim x heads with a bias of heads, A and D one value a head,
// ssm_out d_inner x h. The dt, B and C norms are left out, as norms are
// everywhere.
std::int64_t plamo2_dt_dim(std::int64_t h) {
  return std::max<std::int64_t>(64, h / 16);
}

std::int64_t plamo2_mixer_params(std::int64_t h, std::int64_t d, std::int64_t n, std::int64_t conv,
                                 std::int64_t heads) {
  const std::int64_t dt = plamo2_dt_dim(h);
  return h * 2 * d + d * conv + d * (dt + 2 * n) + dt * heads + 3 * heads + d * h;
}

// RWKV-6 (llama.cpp rwkv6.cpp load_arch_tensors at 80fb11ac; transformers
// modeling_rwkv6.py Rwkv6SelfAttention and Rwkv6FeedForward): the time mix's
// key, value, receptance, gate and output, hidden x hidden each; the
// token-shift LoRA time_mix_w1 (hidden x 5 rank) and time_mix_w2 (rank x
// hidden x 5); the decay LoRA (hidden x rank, rank x hidden); per channel the
// decay, the bonus (time_mix_first, hidden values), lerp_x and the five
// fused lerps; the channel mix's key (hidden x ffn), value (ffn x hidden),
// receptance (hidden x hidden) and its two lerps. The LayerNorms (the
// blocks', the wkv output's group norm) are left out, as norms are
// everywhere.
std::int64_t rwkv6_block_params(std::int64_t h, std::int64_t ffn, std::int64_t /*head_size*/,
                                std::int64_t tm, std::int64_t td) {
  const std::int64_t time_mix = 5 * h * h + 2 * 5 * tm * h + 2 * td * h + (2 + 1 + 5) * h;
  const std::int64_t channel_mix = 2 * h * ffn + h * h + 2 * h;
  return time_mix + channel_mix;
}

// RWKV-7 (llama.cpp rwkv7.cpp load_arch_tensors at 80fb11ac): the time
// mix's key, value, receptance and output, hidden x hidden each; the decay,
// in-context learning rate, value residual and gate LoRAs (hidden x rank and
// rank x hidden each; the first three with a hidden-wide bias w0, a0, v0);
// per channel the six fused lerps (five without the gate), k_k, k_a and the
// bonus r_k; the channel mix's key (hidden x ffn), value (ffn x hidden) and
// its lerp. Layer 0's value LoRA, unused, is written at the iclr rank
// (conversion/rwkv.py copies a1/a2 there); it is counted at the value rank
// as the other layers' (2 x hidden x (iclr - value) values apart, 0.03 % of
// the 191M). The LayerNorms (the blocks', the embeddings', the wkv output's
// group norm) are left out, as norms are everywhere.
namespace {

std::int64_t rwkv7_time_mix_params(std::int64_t h, std::int64_t decay, std::int64_t iclr,
                                   std::int64_t value, std::int64_t gate) {
  const std::int64_t lerps = gate > 0 ? 6 : 5;
  return 4 * h * h + 2 * h * (decay + iclr + value + gate) + 3 * h + lerps * h + 3 * h;
}

}  // namespace

std::int64_t rwkv7_block_params(std::int64_t h, std::int64_t ffn, std::int64_t decay,
                                std::int64_t iclr, std::int64_t value, std::int64_t gate) {
  const std::int64_t channel_mix = 2 * h * ffn + h;
  return rwkv7_time_mix_params(h, decay, iclr, value, gate) + channel_mix;
}

// ARWKV-7 (llama.cpp arwkv7.cpp load_arch_tensors at 80fb11ac): RWKV-7's
// time mix (the gate LoRA optional: gate 0 and five lerps without it) and,
// in place of the channel mix, a SiLU-gated MLP of gate, up and down (3 x
// hidden x ffn) behind an RMS norm; the norms are left out.
std::int64_t arwkv7_block_params(std::int64_t h, std::int64_t ffn, std::int64_t decay,
                                 std::int64_t iclr, std::int64_t value, std::int64_t gate) {
  return rwkv7_time_mix_params(h, decay, iclr, value, gate) + 3 * h * ffn;
}

// RWKV6Qwen2 (llama.cpp rwkv6qwen2.cpp load_arch_tensors at 80fb11ac; the
// checkpoint's RWKV6Attention, SmerkyG/hfattnconv
// rwkv6qwen2/modeling_rwkv6qwen2.py): the receptance (Qwen2's q_proj), gate
// and output, hidden x hidden each, the key and value hidden x kv_width;
// the token-shift LoRA (w1 hidden x 5 tm, w2 tm x hidden x 5) and the decay
// LoRA (hidden x td, td x hidden); per channel lerp_x, the five fused lerps
// and the decay; no bonus nor group norm (the QRWKV path); the receptance,
// key and value biases when present; Qwen2's MLP of gate, up and down (3 x
// hidden x ffn). The RMS norms are left out, as norms are everywhere.
std::int64_t rwkv6qwen2_block_params(std::int64_t h, std::int64_t kv, std::int64_t ffn,
                                     std::int64_t tm, std::int64_t td, bool biases) {
  const std::int64_t time_mix =
      3 * h * h + 2 * h * kv + 2 * 5 * tm * h + 2 * td * h + (1 + 5 + 1) * h;
  return time_mix + (biases ? h + 2 * kv : 0) + 3 * h * ffn;
}

std::int64_t rwkv_state_floats(std::int64_t h, std::int64_t head_size, std::int64_t shifts) {
  return shifts * h + h * head_size;
}

void set_rwkv_layers(Architecture& a, int version, std::int64_t head, std::int64_t shifts) {
  Attention& at = a.attention;
  at.kind = AttentionKind::Hybrid;
  at.layer_mixers.assign(static_cast<std::size_t>(a.layers), 'R');
  at.attention_layers = 0;
  at.recurrent_layers = a.layers;
  at.rwkv = version;
  at.rwkv_token_shift_count = static_cast<int>(shifts);
  a.head_dim = static_cast<int>(head);
  a.heads = static_cast<int>(a.hidden_size / head);
  a.kv_heads = a.heads;
  at.recurrent_state_floats = rwkv_state_floats(a.hidden_size, head, shifts);
}

// Kimi Delta Attention (llama.cpp kimi-linear.cpp and kimi-k3.cpp
// load_arch_tensors at 80fb11ac; transformers modeling_kimi_linear.py
// KimiDeltaAttention): q, k and v projections of heads x head_dim = D each,
// a depthwise convolution of conv_kernel taps on each of the three, the
// decay gate's bottleneck f_a (hidden x head_dim) and f_b (head_dim x D),
// beta (hidden x heads), the output gate through the same bottleneck
// (g_a, g_b) or one full-rank hidden x D matrix (K3's ssm_g), and the
// output projection D x hidden. A_log (heads), dt_bias (D) and the output
// norm (head_dim) are left out, as norms are everywhere.
std::int64_t kimi_delta_attention_params(std::int64_t h, std::int64_t heads, std::int64_t d,
                                         std::int64_t conv, bool full_rank_gate,
                                         bool full_rank_decay) {
  const std::int64_t inner = heads * d;
  const std::int64_t bottleneck = h * d + d * inner;
  const std::int64_t gate = full_rank_gate ? h * inner : bottleneck;
  // Ling 3 (bailingmoe3.cpp): ssm_f_a is hidden x inner, no ssm_f_b.
  const std::int64_t decay = full_rank_decay ? h * inner : bottleneck;
  return 3 * h * inner + 3 * inner * conv + decay + h * heads + gate + inner * h;
}

// MiniMax-01's lightning attention (llama.cpp minimax-01.cpp
// load_arch_tensors at 80fb11ac): attn_qkv hidden x 3 D, attn_gate hidden x
// D and attn_output D x hidden, D = heads x head_dim; the output norm
// (attn_norm_2, D) is left out, as norms are everywhere.
std::int64_t lightning_attention_params(std::int64_t h, std::int64_t heads, std::int64_t d) {
  return 5 * h * heads * d;
}

namespace {

// Gemma 3n: each layer gates and projects its per-layer input
// (per_layer_input_gate, per_layer_projection), and one projection spreads
// the hidden state over every layer's slice (per_layer_model_projection).
std::int64_t per_layer_input_params(const Architecture& a) {
  if (a.per_layer_width <= 0) {
    return 0;
  }
  return 2 * a.hidden_size * a.per_layer_width * a.layers +
         a.hidden_size * a.per_layer_width * a.layers;
}

// Gemma 3n's AltUp keeps altup_inputs copies of the residual stream: one
// model-level projection into each extra stream and one back out
// (altup_projections, altup_unembed_projections, hidden x hidden each), and
// per layer a router (hidden x n) with prediction (n x n^2) and correction
// (n x n) coefficients. LAuReL adds per layer a low-rank residual, hidden x
// rank and rank x hidden (transformers models/gemma3n/modeling_gemma3n.py,
// Gemma3nTextAltUp, Gemma3nTextLaurelBlock, Gemma3nTextModel). Norm scales
// are left out, as for every other family.
std::int64_t altup_laurel_params(const Architecture& a) {
  const std::int64_t h = a.hidden_size;
  std::int64_t p = 0;
  if (a.altup_inputs > 1) {
    const std::int64_t n = a.altup_inputs;
    p += 2 * (n - 1) * h * h + std::int64_t{a.layers} * (h * n + n * n * n + n * n);
  }
  if (a.laurel_rank > 0) {
    p += std::int64_t{a.layers} * 2 * h * a.laurel_rank;
  }
  return p;
}

}  // namespace

std::int64_t shared_expert_width(const Moe& moe) {
  return moe.shared_width > 0 ? moe.shared_width
                              : std::int64_t{moe.shared_experts} * moe.expert_intermediate_size;
}

std::int64_t mlp_width(const Architecture& a, int layer) {
  if (static_cast<std::size_t>(layer) < a.layer_widths.size()) {
    return a.layer_widths[static_cast<std::size_t>(layer)].ffn;
  }
  return layer >= a.layers - a.double_wide_mlp_layers ? 2 * a.intermediate_size
                                                      : a.intermediate_size;
}

LayerWidths widths_of_layer(const Architecture& a, int layer) {
  if (static_cast<std::size_t>(layer) < a.layer_widths.size()) {
    return a.layer_widths[static_cast<std::size_t>(layer)];
  }
  return {a.heads, a.kv_heads, mlp_width(a, layer)};
}

namespace {

// A Nemotron NAS layer (llama.cpp deci.cpp load_arch_tensors at 80fb11ac):
// attention wq (hidden x heads head_dim), wk and wv (hidden x kv_heads
// head_dim each) and wo; a linear replacement only wo, hidden x hidden;
// a gated MLP of its own width.
std::int64_t shaped_attention_params(const Architecture& a, const LayerWidths& l) {
  const std::int64_t h = a.hidden_size;
  if (l.heads <= 0) {
    return 0;
  }
  if (l.kv_heads <= 0) {
    return h * h;
  }
  return 2 * h * l.heads * a.head_dim + 2 * h * std::int64_t{l.kv_heads} * a.head_dim;
}

}  // namespace

std::int64_t adapter_params_per_layer(const Architecture& a) {
  if (a.adapters <= 0 || a.adapter_rank <= 0) {
    return 0;
  }
  // granite-switch.cpp load_arch_tensors: a pair A {in, rank}, B {rank, out}
  // on each of Q, K, V (in: hidden), the output projection (in: the heads),
  // gate and up (in: hidden) and down (in: the MLP).
  const std::int64_t e = a.hidden_size;
  const std::int64_t q = std::int64_t{a.heads} * a.head_dim;
  const std::int64_t kv = std::int64_t{a.kv_heads} * a.head_dim;
  const std::int64_t ff = a.intermediate_size;
  const std::int64_t ins = e + e + e + q + e + e + ff;
  const std::int64_t outs = q + kv + kv + e + ff + ff + e;
  return std::int64_t{a.adapter_rank} * (ins + outs);
}

ParamBreakdown count_params(const Architecture& a) {
  ParamBreakdown p;
  if (a.vocoder_features > 0) {
    // WavTokenizer's decoder (wavtokenizer-dec.cpp load_arch_tensors): the
    // codebook; the width-7 input convolution, four resnet blocks of two
    // width-3 convolutions and the attention's q, k, v, o (width-1
    // convolutions) as "attention"; each ConvNeXt block's depthwise width-7
    // convolution, pw1 and pw2 as "mlp"; the head. Norms, biases and gains
    // left out, as for every model.
    const std::int64_t pw = a.posnet_width;
    p.embedding = a.vocab_size * a.vocoder_features;
    p.attention = 7 * a.vocoder_features * pw + 4 * 2 * 3 * pw * pw + 4 * pw * pw;
    p.mlp = std::int64_t{a.layers} * (7 * a.hidden_size + 2 * a.hidden_size * a.intermediate_size);
    p.mlp_active = p.mlp;
    p.output = a.hidden_size * a.vocoder_out;
    return p;
  }
  p.embedding = a.vocab_size * a.hidden_size + a.per_layer_vocab * a.per_layer_width * a.layers +
                a.ngram_rows * a.ngram_width + a.learned_positions * a.hidden_size;
  // Qwen3-TTS's codec head: head_rows rows (Architecture::head_rows).
  p.output = a.tied_embeddings ? 0 : (a.head_rows > 0 ? a.head_rows : a.vocab_size) * a.hidden_size;
  p.output += a.hidden_size * a.dense_out + a.dense_in * a.hidden_size;  // EmbeddingGemma's Dense
  if (!a.layer_widths.empty() && !a.moe) {
    const std::int64_t matrices = a.mlp_gated ? 3 : 2;
    for (const LayerWidths& l : a.layer_widths) {
      p.attention += shaped_attention_params(a, l);
      p.mlp += matrices * a.hidden_size * l.ffn;
    }
    p.mlp_active = p.mlp;
    p.vision = a.vision_params;
    return p;
  }
  const std::int64_t attention = attention_params_per_layer(a);
  const std::int64_t recurrent =
      a.attention.recurrent_params > 0 ? a.attention.recurrent_params : attention;
  // A sliding model's global layers may have their own shape (Gemma 4).
  const int global = global_layer_count(a, a.layers);
  const std::int64_t global_extra =
      std::int64_t{global} * (global_attention_params_per_layer(a) - attention);
  p.attention = attention * attention_layer_count(a) + global_extra +
                recurrent * recurrent_layer_count(a) + per_layer_input_params(a) +
                altup_laurel_params(a) + gqa_indexer_params(a) * indexer_layer_count(a) -
                mla_indexer_params(a) * (attention_layer_count(a) - indexer_layer_count(a));
  // dots.llm3's windowed MLA layers: their own shape in place of the full
  // one (whose indexer is already left out of them above).
  const int windowed_mla = windowed_mla_layer_count(a);
  const std::int64_t windowed_attention =
      windowed_mla > 0 ? attention_params_per_layer(windowed_mla_shape(a)) : attention;
  p.attention +=
      std::int64_t{windowed_mla} * (windowed_attention - attention + mla_indexer_params(a));
  // T5's decoder blocks (t5.cpp): a cross-attention of the same q, k, v, o
  // beside the self-attention counted above.
  p.attention += std::int64_t{std::clamp(a.decoder_layers, 0, a.layers)} * attention;
  if (a.hc_low_rank > 0 && a.hyper_connections > 0) {
    // Qwen4Exp: the gated residual of every layer, the final one that stands
    // for the output norm (hc_head_down, hc_head_up) and the n-gram layer.
    const std::int64_t wide = std::int64_t{a.hyper_connections} * a.hidden_size;
    p.attention += std::int64_t{a.layers} * hyper_connection_params_per_layer(a) +
                   2 * wide * a.hc_low_rank + ngram_layer_params(a);
  }
  if (compressed_attention(a)) {
    // DeepSeek-V4: each layer's compressor by its kind, the hyper-connection
    // mixers of every layer and the output head's (hc_head_fn: n hidden x n).
    const std::int64_t n = a.hyper_connections;
    p.attention += compressed_layer_count(a, 'C') * compressed_attention_params(a, 'C') +
                   compressed_layer_count(a, 'H') * compressed_attention_params(a, 'H') +
                   std::int64_t{a.layers} * hyper_connection_params_per_layer(a) +
                   n * a.hidden_size * n;
  }
  const std::int64_t matrices = a.mlp_gated ? 3 : 2;
  const std::int64_t dense = matrices * a.hidden_size * a.intermediate_size;
  const int mlp_layers = mlp_layer_count(a);
  if (a.moe && a.moe->experts > 0) {
    const auto& m = *a.moe;
    const int moe_layers = moe_layer_count(a);
    const int dense_layers = mlp_layers - moe_layers;
    const std::int64_t expert = matrices * a.hidden_size * m.expert_intermediate_size;
    // A latent MoE's routed experts work at the latent width, behind a
    // projection down to it and one back up (Kimi K3; model.hpp Moe).
    const std::int64_t routed =
        m.latent_size > 0 ? matrices * m.latent_size * m.expert_intermediate_size : expert;
    const std::int64_t router = a.hidden_size * m.experts + 2 * a.hidden_size * m.latent_size;
    const std::int64_t shared = matrices * a.hidden_size * shared_expert_width(m);
    // DeepSeek-V4's hash-routed layers keep a token -> experts table
    // (ffn_gate_tid2eid: experts_per_token x vocabulary) beside the router.
    const std::int64_t hash_tables =
        std::int64_t{std::clamp(a.hash_layers, 0, moe_layers)} * m.experts_per_token * a.vocab_size;
    // Arctic's residual MLP beside the experts (Moe::residual_mlp).
    const std::int64_t beside = m.residual_mlp ? dense : 0;
    // GroveMoE's adjugate experts (Moe::experts_per_group): one small expert
    // a group of routed ones; a token reads those of its chosen experts'
    // groups, experts_per_token of them at most (grovemoe.cpp n_expert_used
    // of the second pass).
    const std::int64_t groups = m.experts_per_group > 0 ? m.experts / m.experts_per_group : 0;
    const std::int64_t adjugate = matrices * a.hidden_size * m.group_expert_width;
    p.mlp = dense_layers * dense +
            moe_layers * (routed * m.experts + shared + router + beside + groups * adjugate) +
            hash_tables;
    p.mlp_active = dense_layers * dense +
                   moe_layers * (routed * m.experts_per_token + shared + router + beside +
                                 std::min<std::int64_t>(m.experts_per_token, groups) * adjugate) +
                   hash_tables;
    // A multi-token-prediction block is one more MoE block plus eh_proj, the
    // 2h x h projection of [embedding; hidden] (DeepSeek-V3 report, section
    // 2.2); it shares the embeddings and output head.
    p.mtp = std::int64_t{a.mtp_layers} *
            (attention + routed * m.experts + shared + router + 2 * a.hidden_size * a.hidden_size);
    // Step-3.5's: a windowed layer with a dense MLP and an output head of its
    // own. dots.llm3's: a windowed MLA layer (dots3note.cpp load_arch_tensors:
    // "the NextN/MTP block uses the sliding-attention geometry") with a dense
    // MLP and a token embedding of its own (nextn.embed_tokens, as many
    // values as a head).
    if (a.mtp_dense) {
      p.mtp = std::int64_t{a.mtp_layers} *
              (windowed_attention + dense + 2 * a.hidden_size * a.hidden_size +
               (a.mtp_shares_head ? 0 : a.vocab_size * a.hidden_size));
    }
  } else {
    // Gemma 4 E2B's double-wide layers hold a second dense MLP's worth each.
    p.mlp = dense * (mlp_layers + std::clamp(a.double_wide_mlp_layers, 0, mlp_layers));
    p.mlp_active = p.mlp;
    p.mtp = std::int64_t{a.mtp_layers} * (attention + dense + 2 * a.hidden_size * a.hidden_size);
  }
  // CogVLM's visual expert (Architecture::visual_expert): a second fused
  // QKV, output projection and gated MLP on every layer. A text token reads
  // the language weights alone (cogvlm.cpp picks one set per micro-batch),
  // so the visual MLP is not in mlp_active; the visual attention is counted
  // in `attention`, which active() reads whole.
  if (a.visual_expert) {
    p.attention += std::int64_t{a.layers} * attention;
    p.mlp += std::int64_t{mlp_layers} * dense;
  }
  // Granite Switch's adapters (Architecture::adapters): every layer holds
  // each adapter's LoRA pairs. A token reads one adapter's (the router's
  // slot), so one adapter's worth is in mlp_active.
  const std::int64_t lora = std::int64_t{a.layers} * adapter_params_per_layer(a);
  p.mlp += std::int64_t{std::max(0, a.adapters)} * lora;
  p.mlp_active += a.adapters > 0 ? lora : 0;
  // An EAGLE-3 draft (Architecture::eagle3_target_layers; eagle3.cpp
  // load_arch_tensors at 80fb11ac): q, k and v read 2 x hidden columns (one
  // more hidden's worth each), fc projects the target layers' concatenated
  // states to the hidden width; the head has draft_vocab rows; the token
  // embeddings are the target's unless the file has its own.
  if (a.eagle3_target_layers > 0) {
    const std::int64_t h = a.hidden_size;
    const std::int64_t hd = a.head_dim > 0 ? a.head_dim : (a.heads > 0 ? h / a.heads : 0);
    p.attention += std::int64_t{a.layers} * h * (std::int64_t{a.heads} + 2 * a.kv_heads) * hd +
                   std::int64_t{a.eagle3_target_layers} * a.eagle3_target_hidden * h;
    p.embedding = a.draft_own_embeddings ? a.vocab_size * h : 0;
    p.output = (a.draft_vocab > 0 ? a.draft_vocab : a.vocab_size) * h;
  }
  // A Gemma 4 assistant (Architecture::assistant_backbone_hidden;
  // gemma4-assistant.cpp load_arch_tensors at 80fb11ac): each layer a query
  // and wo at its own head width (windowed or global), no K or V; the
  // pre-projection (2 x backbone x hidden) and post-projection (hidden x
  // backbone); its tied embeddings are its head.
  if (a.assistant_backbone_hidden > 0) {
    const std::int64_t h = a.hidden_size;
    const std::int64_t hd = a.head_dim > 0 ? a.head_dim : (a.heads > 0 ? h / a.heads : 0);
    const int globals =
        a.attention.kind == AttentionKind::Sliding ? global_layer_count(a, a.layers) : a.layers;
    const std::int64_t gd = a.attention.global_head_dim > 0 ? a.attention.global_head_dim : hd;
    p.attention = 2 * h * a.heads * (hd * (a.layers - globals) + gd * globals) +
                  3 * a.assistant_backbone_hidden * h;
  }
  // A DFlash draft (Architecture::dflash_target_layers; dflash.cpp
  // load_arch_tensors at 80fb11ac): fc projects the target layers' states
  // (each the draft's own width) to it; token embeddings and head are the
  // target's unless the file has its own, the head over draft_vocab rows
  // when the file has d2t. DFlash2: per layer two convolutions (a base of
  // hidden x taps x 2 and a projection to 2 x taps x groups dynamic weights),
  // and a selector (predecessor and successor codebooks of rank x vocabulary,
  // a hidden x rank gate). DSpark: a Markov head (rank x vocabulary, rank x
  // draft vocabulary).
  if (a.dflash_target_layers > 0) {
    const std::int64_t h = a.hidden_size;
    const std::int64_t head_rows = a.draft_vocab > 0 ? a.draft_vocab : a.vocab_size;
    p.attention += std::int64_t{a.dflash_target_layers} * h * h;
    p.embedding = a.draft_own_embeddings ? a.vocab_size * h : 0;
    p.output = a.draft_own_head ? head_rows * h : 0;
    if (a.dflash_selector_rank > 0 && a.dflash_conv_kernel > 0 && a.dflash_conv_group > 0) {
      const std::int64_t k = a.dflash_conv_kernel;
      const std::int64_t conv = 2 * (2 * h * k + h * 2 * k * (h / a.dflash_conv_group));
      p.attention += std::int64_t{a.layers} * conv;
      p.output +=
          2 * std::int64_t{a.dflash_selector_rank} * a.vocab_size + h * a.dflash_selector_rank;
    }
    p.output += a.dspark_markov_rank * (a.vocab_size + head_rows);
  }
  p.vision = a.vision_params;
  return p;
}

std::string draft_note(const Architecture& a) {
  if (a.eagle3_target_layers > 0) {
    // common/speculative.cpp at 80fb11ac (common_speculative_impl_draft_eagle3)
    // runs it through its own context beside the target's; llama-context.cpp
    // refuses a context for one without tok_embd or output unless given the
    // target's (ctx_other).
    return fmt::format(
        "an EAGLE-3 draft model: it runs beside its target model (llama-server --model-draft "
        "with --spec-type draft-eagle3), never alone, reading {} of the target's layers' hidden "
        "states ({} wide each){}; its weights, {}-layer KV cache and compute buffer are the "
        "draft's own, to add to the target's estimate (the runtime overhead and margin are the "
        "target's already)",
        a.eagle3_target_layers, a.eagle3_target_hidden,
        a.draft_own_embeddings ? "" : " and the target's token embeddings (not counted here)",
        a.layers);
  }
  if (a.dflash_target_layers > 0) {
    // common/speculative.cpp at 80fb11ac runs it through its own context
    // (llama-server --spec-type dflash); llama-context.cpp refuses one
    // without tok_embd or output unless given the target's (ctx_other).
    const char* borrowed = a.draft_own_embeddings && a.draft_own_head ? ""
                           : a.draft_own_head ? " and the target's token embeddings"
                           : a.draft_own_embeddings
                               ? " and the target's output head"
                               : " and the target's token embeddings and output head";
    return fmt::format(
        "a DFlash draft model (block diffusion over {}-token blocks): it runs beside its target "
        "model (llama-server --model-draft with --spec-type dflash), never alone, reading {} of "
        "the target's layers' hidden states ({} wide each){}{}; its weights, {}-layer KV cache "
        "and compute buffer are the draft's own, to add to the target's estimate (the runtime "
        "overhead and margin are the target's already)",
        a.dflash_block_size > 0 ? a.dflash_block_size : 16, a.dflash_target_layers, a.hidden_size,
        borrowed, *borrowed != '\0' ? " (not counted here)" : "", a.layers);
  }
  if (a.assistant_backbone_hidden > 0) {
    // llama-context.cpp at 80fb11ac refuses it a context without the
    // target's (ctx_other); create_memory shares the target's last windowed
    // and global layers' K and V with every one of its layers.
    return fmt::format(
        "a Gemma 4 assistant (a multi-token-prediction draft model): it runs beside its Gemma 4 "
        "target, never alone, reading the target's token embeddings and last hidden state ({} "
        "wide) and attending over the target's KV cache, so it caches nothing of its own; its "
        "weights and compute buffer are the draft's own, to add to the target's estimate (the "
        "runtime overhead and margin are the target's already)",
        a.assistant_backbone_hidden);
  }
  return "";
}

std::string mla_per_head_text(const Architecture& a) {
  const Attention& at = a.attention;
  return fmt::format(
      "multi-head latent attention, its K and V decompressed and cached per head ({} KV heads of "
      "{} K and {} V dims per token and layer)",
      a.kv_heads, at.qk_nope_head_dim + at.qk_rope_head_dim, at.v_head_dim);
}

std::string describe_shape(const Model& m) {
  const Architecture& a = m.arch;
  const Attention& at = a.attention;
  std::string s;
  if (a.vocoder_features > 0) {
    return fmt::format(
        "a vocoder (WavTokenizer's decoder), not a language model: {} audio codes of {} "
        "features in, a width-7 convolution, {} PosNet blocks of {} (one attends over the whole "
        "input), {} ConvNeXt blocks of {} (MLP {}), {} spectrum values out per code; no KV "
        "cache: llama.cpp decodes the codes in one micro-batch and keeps nothing between calls",
        a.vocab_size, a.vocoder_features, a.posnet_layers, a.posnet_width, a.layers, a.hidden_size,
        a.intermediate_size, a.vocoder_out);
  }
  switch (at.kind) {
    case AttentionKind::Sliding: {
      if (compressed_attention(a)) {
        s = fmt::format(
            "compressed attention: a sliding window of {} tokens on every layer, plus one key per "
            "4 tokens on {} layers (with a {}-wide indexer key) and one per 128 on {}",
            at.sliding_window, compressed_layer_count(a, 'C'), at.index_head_dim,
            compressed_layer_count(a, 'H'));
        break;
      }
      const int global = global_layer_count(a, a.layers);
      s = at.chunked ? fmt::format("chunked local attention ({}-token chunks) on {} of {} layers",
                                   at.sliding_window, a.layers - global, a.layers)
                     : fmt::format("sliding window of {} tokens on {} of {} layers",
                                   at.sliding_window, a.layers - global, a.layers);
      break;
    }
    case AttentionKind::Mla:
      if (at.mla_cached_per_head) {  // MiniCPM3
        s = mla_per_head_text(a);
        break;
      }
      if (const int windowed = windowed_mla_layer_count(a); windowed > 0) {  // dots.llm3
        s = fmt::format(
            "multi-head latent attention: one {}-wide latent cached per token on {} of {} layers "
            "(with a {}-wide sparse-attention indexer key), one {}-wide latent within a sliding "
            "window of {} tokens on the other {}",
            at.kv_lora_rank + at.qk_rope_head_dim, a.layers - windowed, a.layers, at.index_head_dim,
            at.swa_kv_lora_rank + at.qk_rope_head_dim, at.sliding_window, windowed);
        break;
      }
      s = fmt::format("multi-head latent attention: one {}-wide latent cached per token and layer",
                      at.kv_lora_rank + at.qk_rope_head_dim);
      if (at.index_head_dim > 0) {
        s += fmt::format(", plus a {}-wide sparse-attention indexer key", at.index_head_dim);
      }
      break;
    case AttentionKind::Hybrid: {
      const int attention = attention_layer_count(a);
      const int recurrent = recurrent_layer_count(a);
      s = attention + recurrent > a.layers
              ? fmt::format("attention and a recurrent mixer side by side in {} of {} layers",
                            std::min(attention, recurrent), a.layers)
          : attention == 0
              ? fmt::format("no KV cache: all {} layers keep a fixed recurrent state", a.layers)
              : fmt::format("{} of {} layers keep a KV cache, {} a fixed recurrent state",
                            attention, a.layers, recurrent);
      if (at.recurrent_state_floats > 0) {
        s += fmt::format(" ({} F32 values of state per layer and sequence",
                         at.recurrent_state_floats);
        s += at.recurrent_params > 0
                 ? fmt::format(", {} weights in each recurrent mixer)", at.recurrent_params)
                 : std::string(")");
      }
      if (at.kda) {
        s += fmt::format("; the recurrent layers are Kimi Delta Attention ({} heads of {})",
                         at.delta_net_v_heads, at.delta_net_head_dim);
      }
      if (at.lightning) {
        s += fmt::format("; the recurrent layers are lightning attention ({} heads of {})", a.heads,
                         a.head_dim);
      }
      if (uses_mla(a)) {
        s += fmt::format(
            "; the attention layers are multi-head latent attention: one {}-wide latent cached "
            "per token and layer",
            at.kv_lora_rank + at.qk_rope_head_dim);
      }
      break;
    }
    case AttentionKind::Full:
      s = "full attention on every layer";
      if (!a.layer_widths.empty()) {
        const auto linear =
            std::count_if(a.layer_widths.begin(), a.layer_widths.end(),
                          [](const LayerWidths& l) { return l.heads > 0 && l.kv_heads <= 0; });
        std::int64_t widest = 0;
        std::int64_t narrowest = 0;
        for (const LayerWidths& l : a.layer_widths) {
          widest = std::max(widest, l.ffn);
          narrowest = l.ffn > 0 && (narrowest == 0 || l.ffn < narrowest) ? l.ffn : narrowest;
        }
        s = fmt::format(
            "layers of their own shapes (Nemotron NAS): {} of {} layers attend and keep a KV "
            "cache, {} replace attention by a linear map, {} have an MLP ({} to {} wide)",
            attention_layer_count(a), a.layers, linear, mlp_layer_count(a), narrowest, widest);
      }
      break;
  }
  if (at.no_kv_cache) {
    s += "; no KV cache: an encoder or diffusion model attends over the whole input each step, "
         "and llama.cpp allocates no cache for it";
  }
  if (m.is_moe()) {
    s += fmt::format(
        "; {} experts, {} per token{}, all resident in memory", a.moe->experts,
        a.moe->experts_per_token,
        a.moe->shared_experts > 0 ? fmt::format(" plus {} shared", a.moe->shared_experts) : "");
    if (a.moe->latent_size > 0) {
      s += fmt::format(" (routed experts in a {}-wide latent)", a.moe->latent_size);
    }
  }
  if (a.attention.kv_shared_layers > 0) {
    s += fmt::format("; the last {} layers reuse earlier layers' KV", a.attention.kv_shared_layers);
  }
  if (a.loops > 1) {  // Nanbeige (nanbeige.cpp): every pass its own KV cache
    s += fmt::format(
        "; the {} layers run {} times a token (looped), each pass with its own KV cache and its "
        "own read of the weights",
        a.layers, a.loops);
  }
  if (a.double_wide_mlp_layers > 0) {
    s += fmt::format("; the last {} layers' MLP twice as wide ({})", a.double_wide_mlp_layers,
                     2 * a.intermediate_size);
  }
  if (a.per_layer_width > 0) {
    s += fmt::format("; per-layer embeddings of {} x {} layers x {}", a.per_layer_vocab, a.layers,
                     a.per_layer_width);
  }
  if (a.mtp_layers > 0) {
    s += fmt::format("; {} multi-token-prediction block{} in the file, not in the decoding path",
                     a.mtp_layers, a.mtp_layers > 1 ? "s" : "");
  }
  if (a.vision_params > 0) {
    s += fmt::format("; {} of {:.2f} B parameters",
                     a.speech ? "speech parts (speaker encoder, code predictor or flow head, codec)"
                              : "vision/audio encoder and projector",
                     static_cast<double>(a.vision_params) / 1e9);
  }
  return s;
}

namespace {

struct Anchor {
  double params;
  int layers;
  int hidden;
  int kv_heads;
  int head_dim;
  std::int64_t vocab;
  bool tied;
  std::int64_t max_context;
  const char* name;
};

// Architectures of real models (shared/reference/models.csv, from their configs).
constexpr std::array<Anchor, 9> kAnchors{{
    {134.5e6, 30, 576, 3, 64, 49152, true, 8192, "SmolLM2-135M"},
    {0.494e9, 24, 896, 2, 64, 151936, true, 32768, "Qwen2.5-0.5B"},
    {1.54e9, 28, 1536, 2, 128, 151936, true, 32768, "Qwen2.5-1.5B"},
    {3.21e9, 28, 3072, 8, 128, 128256, true, 131072, "Llama-3.2-3B"},
    {8.03e9, 32, 4096, 8, 128, 128256, false, 131072, "Llama-3.1-8B"},
    {14.7e9, 48, 5120, 8, 128, 152064, false, 131072, "Qwen2.5-14B"},
    {32.5e9, 64, 5120, 8, 128, 152064, false, 131072, "Qwen2.5-32B"},
    {70.55e9, 80, 8192, 8, 128, 128256, false, 131072, "Llama-3.1-70B"},
    {405e9, 126, 16384, 8, 128, 128256, false, 131072, "Llama-3.1-405B"},
}};

// Depth, KV heads and vocabulary as used for inference, made monotone in the
// size. Real families are not (SmolLM2-135M has 30 layers and 3 KV heads,
// Qwen2.5-0.5B 24 and 2; Qwen2.5 has a larger vocabulary than Llama 3), but an
// inferred shape must be: otherwise a slightly larger size could be given a
// smaller KV cache or logits buffer and need less memory than a smaller one
// (found by tests/unit/test_properties.cpp). Depth and KV heads: each anchor's
// value capped by every larger anchor's (a running minimum from the top: only
// SmolLM2-135M changes, to 24 layers and 2 KV heads). Vocabulary: the largest
// of every smaller anchor's (a running maximum from the bottom: Llama-3.2-3B,
// Llama-3.1-8B and the Llama-3.1 anchors above 32B get Qwen2.5's 151936 or
// 152064 tokens, within 19 % of their own).
struct Envelope {
  int layers;
  int kv_heads;
  std::int64_t vocab;
};
constexpr std::array<Envelope, kAnchors.size()> make_envelope() {
  std::array<Envelope, kAnchors.size()> e{};
  Envelope run = {kAnchors.back().layers, kAnchors.back().kv_heads, 0};
  for (std::size_t i = kAnchors.size(); i-- > 0;) {
    run.layers = std::min(run.layers, kAnchors[i].layers);
    run.kv_heads = std::min(run.kv_heads, kAnchors[i].kv_heads);
    e[i] = run;
  }
  std::int64_t vocab = 0;
  for (std::size_t i = 0; i < kAnchors.size(); ++i) {
    vocab = std::max(vocab, kAnchors[i].vocab);
    e[i].vocab = vocab;
  }
  return e;
}
constexpr std::array<Envelope, kAnchors.size()> kEnvelope = make_envelope();

// Geometric interpolation between anchors, exp((1 - t) log a + t log b),
// with the anchors' logarithms taken once: the MLP envelope below evaluates
// the smooth shape at hundreds of sizes, and the logarithms were two thirds
// of its cost.
struct AnchorLogs {
  std::array<double, kAnchors.size()> params{};
  std::array<double, kAnchors.size()> layers{};  // of the envelope
  std::array<double, kAnchors.size()> hidden{};
  std::array<double, kAnchors.size()> vocab{};     // of the envelope
  std::array<double, kAnchors.size()> kv_heads{};  // of the envelope
  std::array<double, kAnchors.size()> head_dim{};
  std::array<double, kAnchors.size()> segment{};  // log(params[i + 1] / params[i])
};

const AnchorLogs& anchor_logs() {
  static const AnchorLogs logs = [] {
    AnchorLogs l;
    for (std::size_t i = 0; i < kAnchors.size(); ++i) {
      l.params[i] = std::log(kAnchors[i].params);
      l.layers[i] = std::log(static_cast<double>(kEnvelope[i].layers));
      l.hidden[i] = std::log(static_cast<double>(kAnchors[i].hidden));
      l.vocab[i] = std::log(static_cast<double>(kEnvelope[i].vocab));
      l.kv_heads[i] = std::log(static_cast<double>(kEnvelope[i].kv_heads));
      l.head_dim[i] = std::log(static_cast<double>(kAnchors[i].head_dim));
      if (i + 1 < kAnchors.size()) {
        l.segment[i] = std::log(kAnchors[i + 1].params / kAnchors[i].params);
      }
    }
    return l;
  }();
  return logs;
}

// Between anchors i and i + 1 of one column of logarithms, at position t.
double geometric_log(const std::array<double, kAnchors.size()>& logs, std::size_t i, double t) {
  return std::exp((1.0 - t) * logs[i] + t * logs[i + 1]);
}

// Stage 1: the smooth shape at a size (see the essay above).
struct Smooth {
  double layers = 0;
  double width = 0;
  double vocab = 0;
  double kv_heads = 0;
  double head_dim = 0;
  double untied = 0;  // 0: tied embeddings, 1: an output head of its own
  std::size_t lo = 0;
  std::size_t hi = 0;
  double t = 0;  // position between anchors lo and hi, log scale
  [[nodiscard]] const Anchor& nearer() const { return kAnchors[t < 0.5 ? lo : hi]; }
};

Smooth smooth_shape(double params) {
  Smooth s;
  const Anchor& first = kAnchors.front();
  if (params < first.params) {
    const double c = std::cbrt(params / first.params);
    s.layers = kEnvelope[0].layers * c;
    s.width = first.hidden * c;
    s.vocab = static_cast<double>(kEnvelope[0].vocab) * c * c;
    s.kv_heads = kEnvelope[0].kv_heads;
    s.head_dim = first.head_dim;
    s.untied = first.tied ? 0.0 : 1.0;
    s.t = std::log(params / first.params);  // negative: "scaled down from" the first anchor
    return s;
  }
  std::size_t i = 0;
  while (i + 2 < kAnchors.size() && params > kAnchors[i + 1].params) {
    ++i;
  }
  const Anchor& lo = kAnchors[i];
  const Anchor& hi = kAnchors[i + 1];
  const AnchorLogs& logs = anchor_logs();
  s.lo = i;
  s.hi = i + 1;
  s.t = std::log(params / lo.params) / logs.segment[i];
  const double tc = std::clamp(s.t, 0.0, 1.0);
  s.layers = geometric_log(logs.layers, i, s.t);
  s.width = geometric_log(logs.hidden, i, s.t);
  s.vocab = geometric_log(logs.vocab, i, tc);
  s.kv_heads = geometric_log(logs.kv_heads, i, tc);
  s.head_dim = geometric_log(logs.head_dim, i, tc);
  s.untied = (1.0 - tc) * (lo.tied ? 0.0 : 1.0) + tc * (hi.tied ? 0.0 : 1.0);
  return s;
}

// Embedding (and output head) parameters of the smooth shape.
double smooth_embedding(const Smooth& s, double vocab) {
  return vocab * s.width;
}

double smooth_attention_per_layer(const Smooth& s) {
  return 2.0 * s.width * s.width + 2.0 * s.width * s.kv_heads * s.head_dim;  // q, o; k, v
}

// The gated-MLP width at which the smooth shape counts exactly `params`.
double solved_ffn(double params, double vocab_override) {
  const Smooth s = smooth_shape(params);
  const double vocab = vocab_override > 0 ? vocab_override : s.vocab;
  const double rest = params - smooth_embedding(s, vocab) * (1.0 + s.untied) -
                      s.layers * smooth_attention_per_layer(s);
  return rest / (3.0 * s.width * s.layers);
}

// The MLP width used: the solved width, or its largest value at any smaller
// size. Below the first anchor the solution already grows with the size;
// above it, it is sampled at 64 points per anchor segment (and at the same
// step beyond the table), so the maximum is taken over a fixed grid and never
// falls as the size grows. The grid trails the solution by at most one step
// (under 3 % of the size) where the solution is rising.
double monotone_ffn(double params, double vocab_override) {
  const double first = kAnchors.front().params;
  if (params <= first) {
    return solved_ffn(params, vocab_override);
  }
  constexpr int kSteps = 64;
  double best = solved_ffn(first, vocab_override);
  const AnchorLogs& logs = anchor_logs();
  for (std::size_t j = 0; j + 1 < kAnchors.size(); ++j) {
    const bool last = j + 2 == kAnchors.size();
    // 4096 steps of the last segment reach far past the largest size accepted (100t).
    for (int k = 1; k <= (last ? 4096 : kSteps); ++k) {
      const double p = geometric_log(logs.params, j, static_cast<double>(k) / kSteps);
      if (p > params) {
        return best;
      }
      best = std::max(best, solved_ffn(p, vocab_override));
    }
  }
  return best;
}

// Stage 2: the rounded shape. `vocab` (when not 0) replaces the anchors'
// vocabulary.
constexpr std::int64_t kBlock = 256;  // K-quant rows: width and MLP in whole blocks
constexpr double kKvStepWidth = 2.5 * 1024;

std::int64_t blocks(double x, std::int64_t block) {
  return block * std::max<std::int64_t>(1, std::llround(x / static_cast<double>(block)));
}

Architecture infer_dense(double params, std::string& basis, std::int64_t vocab = 0) {
  const Smooth s = smooth_shape(params);
  const Anchor& lo = kAnchors[s.lo];
  const Anchor& hi = kAnchors[s.hi];
  basis = s.t <= 0.0   ? fmt::format("scaled down from {}", lo.name)
          : s.t >= 1.0 ? fmt::format("scaled up from {}", hi.name)
                       : fmt::format("between {} and {}", lo.name, hi.name);
  Architecture a;
  a.layers = std::max(1, static_cast<int>(std::lround(s.layers)));
  a.hidden_size = blocks(s.width, kBlock);
  a.head_dim = s.t < 0.0 ? kAnchors.front().head_dim : s.nearer().head_dim;
  // Two KV heads below the step width, the envelope's largest (8) above it.
  // Rounding to groups of 2 x 128 just below 2.5 x 1024 gives at most 2560;
  // rounding to groups of 8 x 128 from there gives at least 3072.
  a.kv_heads = s.width < kKvStepWidth ? kEnvelope.front().kv_heads : kEnvelope.back().kv_heads;
  const std::int64_t group = std::max<std::int64_t>(kBlock, std::int64_t{a.kv_heads} * a.head_dim);
  a.heads = static_cast<int>(blocks(s.width, group) / a.head_dim);
  a.vocab_size = vocab > 0 ? vocab : blocks(s.vocab, 64);
  a.tied_embeddings = s.untied < 0.5;
  a.max_context = s.t < 0.0 ? kAnchors.front().max_context : s.nearer().max_context;
  a.intermediate_size = blocks(monotone_ffn(params, static_cast<double>(vocab)), kBlock);
  return a;
}

// The parameter groups of the smooth shape for a dense size, summing to the
// size; the output head follows the rounded shape's tying (a tied shape has
// none to place).
ParamBreakdown smooth_groups(double params, bool tied) {
  const Smooth s = smooth_shape(params);
  const auto total = static_cast<std::int64_t>(params);
  ParamBreakdown g;
  g.embedding = std::min<std::int64_t>(total, std::llround(smooth_embedding(s, s.vocab)));
  g.output = tied ? 0 : std::min(total - g.embedding, g.embedding);
  const std::int64_t body = total - g.embedding - g.output;
  g.attention =
      std::clamp<std::int64_t>(std::llround(s.layers * smooth_attention_per_layer(s)), 0, body);
  g.mlp = body - g.attention;
  g.mlp_active = g.mlp;
  return g;
}

}  // namespace

Expected<Model> model_from_size(const SizeSpec& size) {
  Model m;
  m.name = size.text;
  m.id = size.text;
  m.source = FactSource::Assumed;
  std::string basis;
  if (size.experts > 0) {
    // NxM: N experts, each the MLP of an M-sized dense model; attention and
    // embeddings shared; 2 experts per token and a 32000-token vocabulary, as
    // the models that use this naming (Mixtral 8x7B and 8x22B) have.
    Architecture a = infer_dense(size.params, basis, 32000);
    a.moe = Moe{size.experts, 2, 0, a.intermediate_size, 0};
    const ParamBreakdown p = count_params(a);
    m.arch = a;
    m.params = p.total();
    m.active_params = p.active();
    m.notes.push_back(fmt::format(
        "{} experts shaped like a {} model share attention and embeddings; 2 experts per token "
        "(as Mixtral)",
        size.experts, size.text.substr(size.text.find('x') + 1)));
  } else if (size.active_params > 0) {
    // T-aA: shape a dense model of the active size, then split its MLP into k
    // experts per token and add experts until the total is reached. Fine-grained
    // routing (8 of many, as Qwen3 MoE) when total/active is large, else 2.
    Architecture a = infer_dense(size.active_params, basis);
    const int routed = size.params / size.active_params > 4.0 ? 8 : 2;
    const ParamBreakdown dense = count_params(a);
    const auto shared = static_cast<double>(dense.total() - dense.mlp);
    // Expert widths in whole 256-wide blocks, as real fine-grained experts have
    // (Qwen3: 768); the experts per token then make up the dense MLP width.
    const std::int64_t expert_ffn =
        std::max<std::int64_t>(256, (a.intermediate_size / routed + 128) / 256 * 256);
    const int k =
        std::max(1, static_cast<int>((a.intermediate_size + expert_ffn / 2) / expert_ffn));
    const double expert =
        3.0 * static_cast<double>(a.hidden_size) * static_cast<double>(expert_ffn) * a.layers;
    const int n = std::max(k, static_cast<int>(std::lround((size.params - shared) / expert)));
    a.moe = Moe{n, k, 0, expert_ffn, 0};
    m.arch = a;
    m.params = static_cast<std::int64_t>(size.params);
    m.active_params = static_cast<std::int64_t>(size.active_params);
    m.notes.push_back(fmt::format("{} experts, {} per token (assumed)", n, k));
  } else {
    m.arch = infer_dense(size.params, basis);
    m.params = static_cast<std::int64_t>(size.params);
    m.active_params = m.params;
    m.inferred_groups = smooth_groups(size.params, m.arch.tied_embeddings);
  }
  m.notes.insert(m.notes.begin(),
                 fmt::format("architecture inferred from the size ({}): {} layers, hidden {}, {} "
                             "heads, {} KV heads, head dim {}, vocabulary {}",
                             basis, m.arch.layers, m.arch.hidden_size, m.arch.heads,
                             m.arch.kv_heads, m.arch.head_dim, m.arch.vocab_size));
  return m;
}

}  // namespace willfit
