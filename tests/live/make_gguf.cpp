// make_gguf: writes synthetic GGUF files of real architectures for the live
// llama.cpp harness (tests/live/README.md). Test tool only; not part of willfit.
// It must not use willfit's library: the shapes here come from the models'
// published configs and llama.cpp's loader, so a check against willfit's
// estimator compares two independent readings of the same facts.
//
// A file is GGUF v3: the architecture's hyper-parameters, a SentencePiece-style
// vocabulary of the model's real size (llama.cpp sizes the output layer and
// the logits from it), every tensor llama.cpp's loader asks for under its real
// name and shape, and tensor data left as a sparse hole (all zeros loads and
// runs), so a 90 GB file costs a few megabytes of disk.
//
// Tensor names and shapes: llama.cpp src/models/{llama,qwen2,gemma2,qwen3moe,
// gemma3,lfm2,nemotron-h,deepseek2,llama4,openai-moe,qwen3next,granite-hybrid,jamba,
// falcon-h1,gemma3n,gemma4,kimi-linear,kimi-k3,minimax-m3,step35,deepseek4,deci,hy-v3,
// bailingmoe3,qwen4exp,mimo2,afmoe,smallthinker,laguna,dots3note,cohere2moe,minicpm3,chatglm,
// llada-moe,rnd1,paddleocr (ernie4-5.cpp's tensors),deepseek2ocr,hunyuan-vl,
// granite-swa,
// qwen,baichuan,orion,codeshell,
// nemotron,bitnet,minimax-01,bloom,mpt,jais,jais2,refact,t5,plamo,plamo2,plamo3,grovemoe,mellum,
// pangu-embed,nanbeige,chameleon,cogvlm,granite-switch,talkie,plm,maincoder,falcon,phi2,
// starcoder2,bert,dflash,wavtokenizer-dec,qwen3vl (qwen3tts),pockettts}.cpp
// (load_arch_tensors and load_arch_hparams: the keys each reads; nemotron-h.cpp for nemotron_h_moe
// too) and src/llama-arch.cpp (names), at the commit node-llama-cpp 3.21.1 bundles (80fb11ac).
// Quantisation mixes: F16 and Q8_0 quantise
// every 2-D weight (norms, biases and the MoE router stay F32, as llama-quant.cpp keeps them);
// Q4_K_M follows llama-quant.cpp's recipe for it: Q6_K for the output (a tied token_embd included),
// for attn_v (a fused attn_qkv too: llama-quant.cpp category_is_attn_v) and ffn_down in the
// layers use_more_bits() picks, Q4_K elsewhere (a row not divisible by 256 falls back to Q8_0);
// with exactly 8 experts (Mixtral) attn_k/attn_v Q8_0 and attn_output Q5_K; Falcon's output
// Q8_0 and its ffn_down Q6_K, Q5_K or Q4_K (llama-quant.cpp's LLM_ARCH_FALCON branches).
//
// Usage: make_gguf --list
//        make_gguf MODEL TYPE OUT.gguf [--no-file-type]    (TYPE: f16, q8_0, q4_k_m)
// prints one JSON line: {"model":..,"type":..,"file":..,"tensor_bytes":N,"file_bytes":N}
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <sys/types.h>
#include <unistd.h>

namespace {

// One model's hyper-parameters, from its config.json (sources per row below,
// the same rows as shared/reference/models.csv).
struct Spec {
  std::string name;       // file stem and command-line name
  std::string arch;       // general.architecture, as llama.cpp names it
  int layers = 0;         // num_hidden_layers
  int64_t hidden = 0;     // hidden_size
  int64_t ffn = 0;        // intermediate_size (per expert for Mixtral)
  int heads = 0;          // num_attention_heads
  int kv_heads = 0;       // num_key_value_heads
  int64_t head_dim = 0;   // head_dim (hidden / heads when the config has none)
  int64_t vocab = 0;      // vocab_size
  int64_t ctx_train = 0;  // max_position_embeddings
  double rope_base = 10000.0;
  double rms_eps = 1e-5;
  bool tied = false;        // tie_word_embeddings: no output.weight
  bool qkv_bias = false;    // Qwen2: q/k/v projections carry biases
  bool qk_norm = false;     // Qwen3: RMS norm on Q and K per head
  bool swin_norm = false;   // Chameleon: {arch}.swin_norm (norms after attention and MLP)
  bool post_norms = false;  // Gemma-2: norms after attention and after the MLP
  int64_t sliding_window = 0;
  int experts = 0;
  int experts_used = 0;
  int64_t expert_ffn = 0;  // moe_intermediate_size, where the arch has its own key
  // GroveMoE: one adjugate expert of chunk_ffn to each group of
  // experts_per_group routed ones (ffn_*_chexps)
  int experts_per_group = 0;
  int64_t chunk_ffn = 0;
  double attn_softcap = 0;
  double final_softcap = 0;
  // Kinds beyond the llama layout (llama.cpp src/models/<arch>.cpp load_arch_tensors):
  // the mixer of each layer for hybrids, one letter a layer ('A' attention,
  // 'C' LFM2 short convolution, 'M' Mamba-2, 'S' Mamba-1, '-' Nemotron-H
  // MLP-only block, 'E' Nemotron-H MoE block).
  std::string layer_kinds;
  int64_t shortconv_l_cache = 0;  // LFM2 conv_L_cache
  int64_t ssm_conv = 0;           // Mamba-2 conv_kernel
  int64_t ssm_inner = 0;          // mamba_num_heads x mamba_head_dim
  int64_t ssm_state = 0;          // ssm_state_size
  int64_t ssm_heads = 0;          // mamba_num_heads (ssm.time_step_rank)
  int64_t ssm_groups = 0;         // n_groups
  bool mlp_gated = true;          // false: up and down only (Nemotron-H squared ReLU)
  // MLA (DeepSeek-V2): kv_lora_rank, q_lora_rank (0: a plain Q projection),
  // qk_rope_head_dim, qk_nope_head_dim, v_head_dim.
  int64_t kv_lora = 0;
  int64_t q_lora = 0;
  int64_t rope_dim = 0;
  int64_t nope_dim = 0;
  int64_t v_dim = 0;
  int shared_experts = 0;     // n_shared_experts (DeepSeek), 1 for Llama 4
  double expert_scale = 0;    // routed_scaling_factor (Nemotron-H MoE); 0: not written
  int dense_lead = 0;         // first_k_dense_replace
  bool attn_sinks = false;    // gpt-oss: one learned sink per head, biases on q/k/v/o and experts
  int64_t swa_rope_base = 0;  // rope_local_base_freq (Gemma 3)
  // Qwen3-Next: full attention every full_attn_interval-th layer ('A'),
  // gated delta nets between ('D'); its attention's Q projection carries the
  // output gate too (2 x heads x head_dim); partial RoPE of rope_dim dims
  // (rope_dim also serves MLA above); one shared expert of shared_ffn with a
  // sigmoid gate.
  int full_attn_interval = 0;
  int64_t shared_ffn = 0;  // shared_expert_intermediate_size
  // Mamba-1 (Jamba, 'S' layers): dt_rank; its d_inner is ssm_inner, d_state
  // ssm_state, d_conv ssm_conv, no groups. moe_period: routed experts on the
  // layers i % moe_period == moe_period - 1 (Jamba's expert_layer_offset 1,
  // expert_layer_period 2), a plain MLP elsewhere; 0: every layer the same.
  int64_t ssm_dt_rank = 0;
  int moe_period = 0;
  // Falcon Mamba (mamba.cpp): ssm.dt_b_c_rms true, RMS norms without
  // weights on dt, B and C (conversion/mamba.py: use_mambapy configs).
  bool ssm_dt_b_c_rms = false;
  // Granite's muP multipliers (attention_multiplier, embedding_multiplier,
  // residual_multiplier, logits_scaling); 0: not written. Their values move
  // no buffer: they only add scale nodes to the graph.
  double attn_scale = 0;
  double embd_scale = 0;
  double resid_scale = 0;
  double logit_scale = 0;
  // Granite Switch (graniteswitch): the embedded LoRA adapters and their
  // stacked rank (adapters.count, adapters.lora_rank); 0: none.
  int adapters = 0;
  int64_t adapter_rank = 0;
  bool nope = false;  // no RoPE: rope.scaling.finetuned false (Granite 4 H)
  // Gemma 3n (gemma3n.cpp): per-layer embeddings of per_layer_width for each
  // layer, AltUp streams, the LAuReL rank, the last kv_shared_layers layers
  // reading earlier layers' KV, one global layer every swa_period.
  int64_t per_layer_width = 0;  // hidden_size_per_layer_input
  int altup_inputs = 0;         // altup_num_inputs
  int64_t laurel_rank = 0;      // laurel_rank
  int kv_shared_layers = 0;     // num_kv_shared_layers
  int swa_period = 0;           // layer_types: sliding but every swa_period-th
  // Gemma 4 (gemma4.cpp): the global (full-attention) layers' own head
  // width and KV heads (global_head_dim, num_global_key_value_heads) and,
  // with attention_k_eq_v, no V projection there (K is used as V).
  int64_t global_head_dim = 0;
  int global_kv_heads = 0;
  bool global_k_eq_v = false;
  bool double_wide_mlp = false;  // use_double_wide_mlp: 2 x ffn on the kv_shared_layers
  // Kimi Linear (kimi-linear.cpp): 'K' layers are Kimi Delta Attention of
  // `heads` heads of kda_head_dim behind convolutions of kda_conv taps (q, k
  // and v each), the 'A' layers MLA of the kv_lora fields.
  int64_t kda_head_dim = 0;         // linear_attn_config.head_dim
  int64_t kda_conv = 0;             // linear_attn_config.short_conv_kernel_size
  double expert_weights_scale = 0;  // routed_scaling_factor
  // Step-3.5 (step35.cpp): the global layers are 0, swa_period, 2 swa_period,
  // ... (layer_types "full_attention" where i % 4 == 0) with global_heads
  // query heads (num_attention_heads) beside the windowed layers' `heads`
  // (attention_other_setting.num_attention_heads); every layer a head-wise
  // gate (attn_gate, hidden x heads) and per-head Q/K norms; the MoE layers a
  // selection bias and one shared expert of shared_ffn.
  int global_heads = 0;
  // Laguna (laguna.cpp): the softplus output gate per element (g_proj of
  // heads x head_dim, M.1's layout) instead of per head (XS.2's).
  bool gate_per_element = false;
  // DeepSeek Sparse Attention (deepseek32.cpp, glm-dsa.cpp): MLA with
  // compressed queries (q_lora) and a lightning indexer of index_heads heads
  // of index_head_dim that keeps the index_top_k best keys. indexer_types:
  // one letter a layer, 'F' an indexer of its own, 'S' the previous one's
  // top-k shared (GLM-5.2, attention.indexer.types); empty: not written.
  int index_heads = 0;
  int64_t index_head_dim = 0;
  int index_top_k = 0;
  std::string indexer_types;
  // DeepSeek-V4 (deepseek4.cpp): each layer's compress ratio ('S' 0: the
  // window alone, 'C' 4: pooled keys and the lightning indexer, 'H' 128),
  // the grouped output LoRA (o_groups x o_lora_rank), the indexer (the
  // fields above), the hyper-connection streams and the hash-routed leading
  // layers (num_hash_layers).
  std::string compress_layers;
  int o_groups = 0;
  int64_t o_lora = 0;
  int hc_mult = 0;
  int hash_layers = 0;
  // Kimi K3 (kimi-k3.cpp) beyond Kimi Linear: routed experts in a latent of
  // expert_latent behind two projections, a checkpoint of the residual
  // stream every res_block layers (attn_res_block_size), the situ
  // activation's betas and the KDA decay gate's lower bound.
  int64_t expert_latent = 0;
  int res_block = 0;
  double situ_beta = 0;
  double situ_linear_beta = 0;
  double kda_lower_bound = 0;
  // MiniMax-M3 (minimax-m3.cpp): the sparse-attention indexer on the layers
  // after dense_lead (sparse_attention_config: sparse_num_index_heads,
  // sparse_index_dim, sparse_topk_blocks, sparse_block_size,
  // sparse_local_block). 0: none.
  int indexer_heads = 0;
  int64_t indexer_dim = 0;
  int indexer_top_k = 0;
  int indexer_block = 0;
  int indexer_local = 0;
  // Nemotron NAS (deci.cpp): each layer's query heads, KV heads and MLP
  // width as conversion/deci.py writes them from block_configs (0 query
  // heads: no attention; 0 KV heads under query heads: a linear map, wo
  // alone; 0 width: no MLP). Empty for every other row.
  struct DeciLayer {
    int64_t heads = 0;
    int64_t kv_heads = 0;
    int64_t ffn = 0;
  };
  std::vector<DeciLayer> deci;
  // RWKV-6 (rwkv6.cpp, rwkv6-base.cpp): the head size of the wkv state
  // (wkv.head_size), the ranks of the token-shift and decay LoRAs
  // (time_mix_extra_dim, time_decay_extra_dim: conversion/rwkv.py, 32 and 64,
  // or 64 and 128 at hidden 4096) and rescale_every (layers between halvings).
  int64_t wkv_head = 0;
  int64_t time_mix_extra = 0;
  int64_t time_decay_extra = 0;
  int rescale_every = 0;
  // RWKV-7 (rwkv7.cpp, rwkv7-base.cpp): the LoRA ranks of the decay (w),
  // the in-context learning rate (a), the value residual mix (v) and the
  // output gate (g): attention.decay_lora_rank, iclr_lora_rank,
  // value_residual_mix_lora_rank, gate_lora_rank.
  int64_t lora_decay = 0;
  int64_t lora_iclr = 0;
  int64_t lora_value = 0;
  int64_t lora_gate = 0;
  // Qwen4Exp (qwen4exp.cpp): hyper-connections of hc_mult streams through a
  // gate of rank hc_low_rank in place of every norm; QSA's indexer
  // (indexer_heads, indexer_dim, indexer_top_k; keys pooled in blocks of
  // qsa_ratio) on the full-attention layers; the n-gram hash table read on
  // layer ple_layer: (ple_ngram - 1) x ple_per_ngram heads, each of
  // ple_width values and as many rows as the k-th prime from ple_base
  // (conversion/qwen4exp.py writes the head ranges), behind a convolution of
  // ple_conv taps. ple_layer -1: none.
  int64_t hc_low_rank = 0;
  int qsa_ratio = 0;
  int ple_layer = -1;
  int ple_ngram = 0;
  int ple_per_ngram = 0;
  int64_t ple_width = 0;
  int ple_conv = 0;
  int64_t ple_base = 0;
  int64_t ple_eos = 0;
  // MiMo-V2-Flash (mimo2.cpp): one letter a layer, 'G' global (full
  // attention, global_kv_heads KV heads) or 'S' windowed (kv_heads, sinks);
  // V heads of v_dim (the MLA field); the attention output scaled by
  // value_scale (attention_value_scale).
  std::string swa_layers;
  double value_scale = 0;
  // dots.llm3 (dots3note.cpp): the 'S' layers of swa_layers are MLA of
  // their own shape (swa_num_attention_heads, swa_kv_lora_rank,
  // swa_qk_nope_head_dim, swa_v_head_dim), the 'G' ones the MLA fields'
  // with the indexer; the rope key normed, a head-wise gate everywhere.
  int swa_heads = 0;
  int64_t swa_kv_lora = 0;
  int64_t swa_nope = 0;
  int64_t swa_v = 0;
  // Nanbeige (nanbeige.cpp): the layers run num_loops times, each pass
  // caching K and V of its own; 0: not written.
  int loops = 0;
  // Falcon-40B and -180B (falcon.cpp): attn_norm_2 beside attn_norm, the
  // attention reading the second; Falcon-7B has attn_norm alone.
  bool falcon_norm_2 = false;
  // WavTokenizer's decoder (wavtokenizer-dec): the codebook embedding's width
  // (n_embd_features), the PosNet's blocks and width, the ConvNeXt's width
  // (its blocks are `layers`, the head's width `hidden`).
  int64_t features = 0;
  int posnet_layers = 0;
  int64_t posnet_width = 0;
  int64_t convnext_width = 0;
  std::string skip_types;  // file types this machine cannot load, with the reason after ':'
  std::string source;
  // Qwen3-TTS (qwen3vl.cpp load_arch_tensors for qwen3tts): the output head
  // (codec_head) has these rows, fewer than the vocabulary. 0: vocab rows.
  int64_t head_rows = 0;
};

// Qwen4Exp's n-gram head ranges (vLLM models/qwen4_exp Qwen4ExpPLEEmbedding,
// as public ports transcribe it): head k has as many rows as the k-th prime
// from `base`, the heads' rows one after another; the table is padded to 128.
std::vector<uint64_t> ple_head_sizes(int64_t base, int heads) {
  std::vector<uint64_t> sizes;
  for (int64_t n = base; static_cast<int>(sizes.size()) < heads; ++n) {
    bool prime = n > 1;
    for (int64_t d = 2; prime && d * d <= n; ++d) {
      prime = n % d != 0;
    }
    if (prime) {
      sizes.push_back(static_cast<uint64_t>(n));
    }
  }
  return sizes;
}

// The shape every row gives: name, arch, layers, hidden, ffn, heads, KV heads,
// head dim, vocabulary, trained context, RoPE base, RMS epsilon, source.
Spec shape(std::string name, std::string arch, int layers, int64_t hidden, int64_t ffn, int heads,
           int kv_heads, int64_t head_dim, int64_t vocab, int64_t ctx, double rope, double eps,
           std::string source) {
  Spec s;
  s.name = std::move(name);
  s.arch = std::move(arch);
  s.layers = layers;
  s.hidden = hidden;
  s.ffn = ffn;
  s.heads = heads;
  s.kv_heads = kv_heads;
  s.head_dim = head_dim;
  s.vocab = vocab;
  s.ctx_train = ctx;
  s.rope_base = rope;
  s.rms_eps = eps;
  s.source = std::move(source);
  return s;
}

// RWKV-6's time mix: heads of 64, the LoRA ranks, a halving every 6 layers.
void rwkv6_mix(Spec& s, int64_t time_mix_extra, int64_t time_decay_extra) {
  s.wkv_head = 64;
  s.time_mix_extra = time_mix_extra;
  s.time_decay_extra = time_decay_extra;
  s.rescale_every = 6;
}

// RWKV-7's time mix: heads of 64, the ranks of its four LoRAs.
void rwkv7_mix(Spec& s, int64_t decay, int64_t iclr, int64_t value, int64_t gate) {
  s.wkv_head = 64;
  s.lora_decay = decay;
  s.lora_iclr = iclr;
  s.lora_value = value;
  s.lora_gate = gate;
}

// Routed experts: count, per token, and each one's MLP width.
void experts(Spec& s, int count, int used, int64_t ffn) {
  s.experts = count;
  s.experts_used = used;
  s.expert_ffn = ffn;
}

// Multi-head latent attention without query compression (DeepSeek-V2-Lite,
// Kimi Linear): kv_lora_rank 512, rope 64 + nope 128 key dims, values of 128.
void mla(Spec& s) {
  s.kv_lora = 512;
  s.rope_dim = 64;
  s.nope_dim = 128;
  s.v_dim = 128;
}

// DeepSeek Sparse Attention as DeepSeek-V3.2 and GLM-5 have it, reduced:
// compressed queries of q_lora, an indexer of index_heads heads of 128
// keeping the top 2048 keys; 16 routed experts of 2048 (8 a token, as real;
// 256 in the real models), one shared, weights scaled by 2.5; one leading
// dense layer (3 in the real models).
void reduced_sparse_attention(Spec& s, int64_t q_lora, int index_heads) {
  s.q_lora = q_lora;
  experts(s, 16, 8, 2048);
  s.shared_experts = 1;
  s.dense_lead = 1;
  s.expert_weights_scale = 2.5;
  s.index_heads = index_heads;
  s.index_head_dim = 128;
  s.index_top_k = 2048;
}

// Qwen3-Next and Qwen3.5: gated full attention (Q-normed, 64 RoPE dims)
// every 4th layer, gated delta nets between: 16 key heads and `value_heads`
// value heads of 128 behind a 4-tap convolution.
void gated_delta_nets(Spec& s, int64_t value_heads) {
  s.full_attn_interval = 4;
  s.rope_dim = 64;
  s.qk_norm = true;
  s.ssm_conv = 4;
  s.ssm_inner = value_heads * 128;
  s.ssm_state = 128;
  s.ssm_heads = value_heads;
  s.ssm_groups = 16;
}

// Extend here: one row per model; a new architecture kind also needs its
// tensors in tensors_for() when they differ from the llama layout.
const std::vector<Spec>& specs() {
  static const std::vector<Spec> list = [] {
    const std::string mlc = "config.json (mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py ";
    const std::string prof = "config.json (citsjtu2020/LLM-Prof sglang/Model_Config.md @8434c8d1)";
    std::vector<Spec> v;
    v.push_back(shape("llama-3.2-1b", "llama", 16, 2048, 8192, 32, 8, 64, 128256, 131072, 5e5, 1e-5,
                      "meta-llama/Llama-3.2-1B " + mlc + "llama3_2_1b @79d603f0)"));
    v.back().tied = true;
    v.push_back(shape("llama-3.2-3b", "llama", 28, 3072, 8192, 24, 8, 128, 128256, 131072, 5e5,
                      1e-5, "meta-llama/Llama-3.2-3B " + mlc + "llama3_2_3b @79d603f0)"));
    v.back().tied = true;
    v.push_back(shape("llama-3.1-8b", "llama", 32, 4096, 14336, 32, 8, 128, 128256, 131072, 5e5,
                      1e-5, "meta-llama/Llama-3.1-8B " + mlc + "llama3_1_8b @79d603f0)"));
    v.push_back(shape("mistral-7b-v0.3", "llama", 32, 4096, 14336, 32, 8, 128, 32768, 32768, 1e6,
                      1e-5, "mistralai/Mistral-7B-v0.3 " + mlc + "mistral_7b_v03 @79d603f0)"));
    // Mixtral is the llama architecture with routed experts of the MLP's width.
    v.push_back(shape("mixtral-8x7b", "llama", 32, 4096, 14336, 32, 8, 128, 32000, 32768, 1e6, 1e-5,
                      "mistralai/Mixtral-8x7B-v0.1 " + mlc +
                          "Mixtral-8x7B-v0.1 @79d603f0): 8 local experts, 2 per token"));
    v.back().experts = 8;
    v.back().experts_used = 2;
    // Phi-3.5-MoE (phimoe) REDUCED to 4 of its 32 layers, every width real:
    // 16 experts of 6400 (all of them), 2 a token; LayerNorm weights and
    // biases, q/k/v/o biases, an untied output with a bias (phimoe.cpp
    // load_arch_tensors); the converter's sliding window (131072), which
    // llama.cpp does not read for phimoe.
    v.push_back(shape("phi-3.5-moe-r4", "phimoe", 4, 4096, 6400, 32, 8, 128, 32064, 131072, 1e4,
                      1e-5,
                      "microsoft/Phi-3.5-MoE-instruct config.json as public transcriptions quote "
                      "it (tests/unit/test_architectures_2026.cpp, PhiMoe), REDUCED to 4 of 32 "
                      "layers: 16 local experts of 6400, 2 per token"));
    v.back().experts = 16;
    v.back().experts_used = 2;
    v.back().qkv_bias = true;
    v.back().sliding_window = 131072;
    v.back().skip_types =
        "f16: 10.3 GB, above the 8 GB a live load may take on this shared machine";
    // DBRX (dbrx) REDUCED to 2 of its 40 layers (all alike), every width
    // real: hidden 6144, 48 query and 8 KV heads of 128 in one clamped
    // attn_qkv, 16 experts of 10752 (all of them), 4 a token, vocabulary
    // 100352, untied output; LayerNorms without bias (dbrx.cpp
    // load_arch_tensors).
    v.push_back(shape("dbrx-r2", "dbrx", 2, 6144, 10752, 48, 8, 128, 100352, 32768, 5e5, 1e-5,
                      "databricks/dbrx-instruct config.json as public transcriptions quote it "
                      "(tests/unit/test_arch_dbrx.cpp), REDUCED to 2 of 40 layers: 16 experts "
                      "of 10752, 4 per token"));
    v.back().experts = 16;
    v.back().experts_used = 4;
    v.back().skip_types =
        "f16 q8_0: 15.5 and 8.2 GB, above the 8 GB a live load may take on this shared machine";
    // Grok-1 (grok) REDUCED to 2 of its 64 layers (all alike), every width
    // real: hidden 6144, 48 query and 8 KV heads of 128, 8 experts of 32768
    // (all of them), 2 a token, vocabulary 131072, the output tied to the
    // token embeddings (xai-org/grok-1's in_out_embed); grok.cpp's RMS norms
    // after the attention (attn_output_norm) and after the experts
    // (layer_output_norm).
    v.push_back(shape("grok-1-r2", "grok", 2, 6144, 32768, 48, 8, 128, 131072, 8192, 1e4, 1e-5,
                      "xai-org/grok-1 run.py as public transcriptions quote it "
                      "(tests/unit/test_arch_grok.cpp), REDUCED to 2 of 64 layers: 8 experts "
                      "of 32768, 2 per token"));
    v.back().experts = 8;
    v.back().experts_used = 2;
    v.back().tied = true;
    v.back().skip_types =
        "f16 q8_0: 21.3 and 11.3 GB, above the 8 GB a live load may take on this shared machine";
    // Ling-lite (bailingmoe) REDUCED to 4 of its 28 layers (all alike) and
    // 16 of its 64 routed experts of 1408 (6 a token, as the model), two
    // shared experts as one MLP of 2816 (bailingmoe.cpp ffn_*_shexp), 16
    // query and 4 KV heads of 128, vocabulary 126464, untied.
    v.push_back(shape("ling-lite-r4", "bailingmoe", 4, 2048, 1408, 16, 4, 128, 126464, 32768, 6e5,
                      1e-6,
                      "inclusionAI/Ling-lite-1.5 config.json as a public test inlines it "
                      "(tests/unit/test_arch_moe2.cpp ling_lite), REDUCED to 4 of 28 layers and "
                      "16 of 64 experts of 1408, 6 per token, 2 shared"));
    experts(v.back(), 16, 6, 1408);
    v.back().shared_experts = 2;
    // Snowflake Arctic (arctic) REDUCED to 2 of its 35 layers (all alike)
    // and 16 of its 128 experts of 4864 (2 a token, as the model), every
    // width real: hidden 7168, 56 query and 8 KV heads of 128, the residual
    // MLP 7168 x 7168 beside the experts, vocabulary 32000, untied.
    v.push_back(shape("snowflake-arctic-r2", "arctic", 2, 7168, 4864, 56, 8, 128, 32000, 4096, 1e4,
                      1e-5,
                      "Snowflake/snowflake-arctic-instruct config.json as public transcriptions "
                      "quote it (tests/unit/test_arch_moe2.cpp arctic_instruct), REDUCED to 2 of "
                      "35 layers and 16 of 128 experts of 4864, 2 per token"));
    v.back().experts = 16;
    v.back().experts_used = 2;
    v.back().skip_types = "f16: 8.5 GB, above the 8 GB a live load may take on this shared machine";
    v.push_back(shape("qwen2.5-7b", "qwen2", 28, 3584, 18944, 28, 4, 128, 152064, 131072, 1e6, 1e-6,
                      "Qwen/Qwen2.5-7B " + prof));
    v.back().qkv_bias = true;
    v.push_back(shape("gemma-2-2b", "gemma2", 26, 2304, 9216, 8, 4, 256, 256000, 8192, 1e4, 1e-6,
                      "google/gemma-2-2b " + mlc +
                          "gemma2_2b @79d603f0): sliding window 4096, logit soft-caps 50/30"));
    v.back().tied = true;
    v.back().post_norms = true;
    v.back().sliding_window = 4096;
    v.back().attn_softcap = 50.0;
    v.back().final_softcap = 30.0;
    v.push_back(shape(
        "qwen3-30b-a3b", "qwen3moe", 48, 2048, 6144, 32, 4, 128, 151936, 40960, 1e6, 1e-6,
        "Qwen/Qwen3-30B-A3B " + prof + ": 128 experts, 8 per token, moe_intermediate_size 768"));
    v.back().qk_norm = true;
    experts(v.back(), 128, 8, 768);
    // OLMoE: 64 experts of 1024 on every layer, 8 per token; Q and K normed
    // over the whole width (olmoe.cpp: attn_q_norm and attn_k_norm of n_embd).
    v.push_back(shape("olmoe-1b-7b", "olmoe", 16, 2048, 1024, 16, 16, 128, 50304, 4096, 1e4, 1e-5,
                      "allenai/OLMoE-1B-7B-0924 config.json (num_experts 64, "
                      "num_experts_per_tok 8, intermediate_size 1024, as transcribed in public "
                      "adapters of it)"));
    v.back().qk_norm = true;
    experts(v.back(), 64, 8, 1024);
    v.back().skip_types =
        "f16: 13.8 GB, above the 8 GB a live load may take on this shared machine";
    // Hunyuan-A13B (hunyuan-moe) REDUCED to 4 of its 32 layers (all alike)
    // and 16 of its 64 routed experts (8 a token, as the model): Q and K
    // RMS-normed per head, one ungated-in-the-router shared expert of 3072
    // beside the routed ones (hunyuan-moe.cpp), tied embeddings.
    v.push_back(shape("hunyuan-a13b-r4", "hunyuan-moe", 4, 4096, 3072, 32, 8, 128, 128167, 32768,
                      1e4, 1e-5,
                      "tencent/Hunyuan-A13B-Instruct REDUCED to 4 of 32 layers and 16 of 64 "
                      "experts; config.json as public tests quote it "
                      "(tests/unit/test_new_architectures.cpp hunyuan_config: hidden 4096, 32 "
                      "heads, 8 KV heads of 128, moe_intermediate_size 3072, moe_topk 8, "
                      "num_shared_expert 1, vocab 128167, tied)"));
    v.back().qk_norm = true;
    v.back().tied = true;
    experts(v.back(), 16, 8, 3072);
    v.back().shared_experts = 1;
    v.back().shared_ffn = 3072;

    // MiniMax-M1 / MiniMax-Text-01 (minimax-01) REDUCED to 3 of its 80
    // layers and 16 of its 32 experts (2 a token, as the model): two
    // lightning-attention layers, then a softmax-attention layer, the last
    // of its group as in the model (full_attention_interval 3, a key
    // minimax-01.cpp load_arch_hparams reads, standing for the model's 8:
    // seven lightning layers, then one softmax layer). Lightning layers: a
    // fused QKV of 3 x 64 x 128, a sigmoid output gate, an RMS norm of the
    // output (minimax-01.cpp load_arch_tensors); softmax layers GQA with 8
    // KV heads, RoPE over 64 of the 128 dims.
    v.push_back(shape("minimax-m1-r3", "minimax-01", 3, 6144, 9216, 64, 8, 128, 200064, 10240000,
                      1e7, 1e-5,
                      "MiniMaxAI/MiniMax-M1-40k REDUCED to 3 of 80 layers (2 lightning, 1 "
                      "softmax) and 16 of 32 experts; config.json as public tests quote it "
                      "(tests/unit/test_arch_hybrid2.cpp minimax_m1_config: hidden 6144, 64 "
                      "heads of 128, 8 KV heads, intermediate_size 9216, 32 experts, 2 a "
                      "token, rotary_dim 64, vocab 200064, untied)"));
    experts(v.back(), 16, 2, 0);
    v.back().full_attn_interval = 3;
    v.back().rope_dim = 64;
    v.back().skip_types =
        "f16 q8_0: 23 GB and 12 GB, above the 8 GB a live load may take on this shared machine";

    // The kinds the catalogue added (data/models.json rows of the same names,
    // each with its config.json source).
    v.push_back(shape("gemma-3-1b", "gemma3", 26, 1152, 6912, 4, 1, 256, 262144, 32768, 1e6, 1e-6,
                      "google/gemma-3-1b-it " + mlc +
                          "gemma3_1b_it @79d603f0): sliding window 512, every 6th layer global, "
                          "rope_local_base_freq 10000"));
    v.back().tied = true;
    v.back().post_norms = true;
    v.back().qk_norm = true;
    v.back().sliding_window = 512;
    v.back().swa_rope_base = 10000;
    // EmbeddingGemma (llama.cpp gemma-embedding.cpp): gemma-3-1b's layer
    // tensors, bidirectional, no KV cache; the whole model (24 layers).
    v.push_back(shape("embeddinggemma-300m", "gemma-embedding", 24, 768, 1152, 3, 1, 256, 262144,
                      2048, 1e6, 1e-6,
                      "google/embeddinggemma-300m config.json as public tests inline it "
                      "(invergent-ai/surogate EMBEDDINGGEMMA_CONFIG; data/models.json row "
                      "embeddinggemma-300m): sliding window 512, every 6th layer global, "
                      "use_bidirectional_attention true, tied embeddings"));
    v.back().tied = true;
    v.back().post_norms = true;
    v.back().qk_norm = true;
    v.back().sliding_window = 512;
    v.back().swa_rope_base = 10000;
    // LFM2: 16 layers, attention at 2, 5, 8, 10, 12, 14 (layer_types), gated
    // short convolutions of conv_L_cache 3 elsewhere; block_ff_dim 6656 with
    // block_auto_adjust_ff_dim builds 4608 (int(2 x 6656 / 3) rounded to 256).
    const auto lfm2 = [&v](const std::string& name, int64_t hidden, int64_t ffn, int heads) {
      v.push_back(shape(name, "lfm2", 16, hidden, ffn, heads, 8, 64, 65536, 128000, 1e6, 1e-5,
                        "LiquidAI/" + std::string(name == "lfm2-350m" ? "LFM2-350M" : "LFM2-1.2B") +
                            " config.json on the Hugging Face hub (data/models.json row " + name +
                            ")"));
      v.back().tied = true;
      v.back().qk_norm = true;
      v.back().layer_kinds = "CCACCACCACACACAC";
      v.back().shortconv_l_cache = 3;
    };
    lfm2("lfm2-350m", 1024, 4608, 16);
    lfm2("lfm2-1.2b", 2048, 8192, 32);
    // Nemotron-H: hybrid_override_pattern, M Mamba-2, * attention, - MLP
    // (squared ReLU, not gated); Mamba-2 128 heads of 80, state 128, 8 groups,
    // conv kernel 4.
    v.push_back(shape("nemotron-nano-9b-v2", "nemotron_h", 56, 4480, 15680, 40, 8, 128, 131072,
                      131072, 1e4, 1e-5,
                      "nvidia/NVIDIA-Nemotron-Nano-9B-v2 config.json on the Hugging Face hub; "
                      "NVIDIA-NeMo/Megatron-Bridge nemotron_h_provider.py @d9f7643b "
                      "(NemotronNanoModelProvider9Bv2)"));
    v.back().layer_kinds = "M-M-M-MM-M-M-M*-M-M-M*-M-M-M-M*-M-M-M-M*-M-MM-M-M-M-M-M-";
    v.back().mlp_gated = false;
    v.back().ssm_conv = 4;
    v.back().ssm_inner = 128 * 80;
    v.back().ssm_state = 128;
    v.back().ssm_heads = 128;
    v.back().ssm_groups = 8;
    // Nemotron 3 Nano (nemotron_h_moe: convert_hf_to_gguf picks it when the
    // config has num_experts_per_tok): hybrid_override_pattern with E for its
    // MoE blocks, 128 routed experts of 1856 (6 a token, sigmoid router with a
    // per-expert bias, weights normalised and scaled by 2.5) and one shared
    // expert of 3712, all squared ReLU without a gate; Mamba-2 64 heads of 64,
    // state 128, 8 groups, conv kernel 4; attention 32 heads, 2 KV heads of
    // 128. Its Q4_K_M file's CPU_REPACK copy of the Q4_K experts (about 17 GB)
    // does not fit beside the page cache this machine needs.
    v.push_back(shape("nemotron-3-nano-30b-a3b", "nemotron_h_moe", 52, 2688, 1856, 32, 2, 128,
                      131072, 262144, 1e4, 1e-5,
                      "NVIDIA-NeMo/Megatron-Bridge nemotron_h_provider.py @d9f7643b "
                      "(Nemotron3NanoProvider; mamba_num_groups 8 from NemotronHModelProvider); "
                      "vocab_size 131072, conv_kernel 4, n_shared_experts 1, norm_topk_prob true, "
                      "n_group 1: nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 config.json as public "
                      "repositories' tests quote it (read through the code search)"));
    v.back().layer_kinds = "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME";
    v.back().mlp_gated = false;
    v.back().experts = 128;
    v.back().experts_used = 6;
    v.back().expert_ffn = 1856;
    v.back().shared_ffn = 3712;
    v.back().shared_experts = 1;
    v.back().expert_scale = 2.5;
    v.back().ssm_conv = 4;
    v.back().ssm_inner = 64 * 64;
    v.back().ssm_state = 128;
    v.back().ssm_heads = 64;
    v.back().ssm_groups = 8;
    // DeepSeek-V2-Lite: MLA without query compression (q_lora_rank null),
    // kv_lora_rank 512, rope 64 + nope 128, v 128; 64 routed experts of 1408,
    // 6 per token, 2 shared, layer 0 dense.
    v.push_back(shape("deepseek-v2-lite", "deepseek2", 27, 2048, 10944, 16, 16, 192, 102400, 163840,
                      1e4, 1e-6,
                      "deepseek-ai/DeepSeek-V2-Lite " + mlc +
                          "deepseek_v2_lite @79d603f0); AI-Hypercomputer/maxtext "
                          "hf_model_configs.py @e591f30c deepseek2_16b_dict"));
    mla(v.back());
    experts(v.back(), 64, 6, 1408);
    v.back().shared_experts = 2;
    v.back().dense_lead = 1;
    // Llama 4 Scout: 16 experts of 8192 and one shared, every layer MoE
    // (interleave_moe_layer_step 1); llama.cpp adds chunked attention (8192,
    // 3 of 4 layers) and NoPE on every 4th layer itself.
    v.push_back(shape("llama-4-scout-17b-16e", "llama4", 48, 5120, 16384, 40, 8, 128, 202048,
                      10485760, 5e5, 1e-5,
                      "meta-llama/Llama-4-Scout-17B-16E-Instruct config.json text_config "
                      "(data/models.json row llama-4-scout-17b-16e)"));
    experts(v.back(), 16, 1, 8192);
    v.back().shared_experts = 1;
    v.back().skip_types =
        "q4_k_m: its CPU_REPACK copy (49.8 GB measured) needs swap beyond 24 GB of RAM "
        "(WILLFIT_LIVE_ALL=1 runs it)";
    // gpt-oss-20b: 32 experts of 2880, 4 per token, sliding window 128 on
    // every other layer, attention sinks, biases on q/k/v/o, router and experts.
    v.push_back(shape("gpt-oss-20b", "gpt-oss", 24, 2880, 2880, 64, 8, 64, 201088, 131072, 150000,
                      1e-5,
                      "openai/gpt-oss-20b: AI-Hypercomputer/maxtext hf_model_configs.py @e591f30c "
                      "gpt_oss_20b_dict"));
    experts(v.back(), 32, 4, 2880);
    v.back().sliding_window = 128;
    v.back().qkv_bias = true;
    v.back().attn_sinks = true;
    // Qwen3-Next-80B-A3B: 48 layers, full attention (16 heads, 2 KV heads of
    // 256, partial_rotary_factor 0.25: 64 RoPE dims) every 4th, gated delta
    // nets between (linear_num_key_heads 16, linear_num_value_heads 32, key
    // and value heads of 128, linear_conv_kernel_dim 4); 512 experts of 512,
    // 10 per token, one shared expert of 512. The multi-token-prediction
    // block convert_hf_to_gguf.py can add (conversion/qwen.py, an extra
    // nextn block) is left out: llama.cpp skips it unless asked to load it.
    v.push_back(shape("qwen3-next-80b-a3b", "qwen3next", 48, 2048, 5120, 16, 2, 256, 151936, 262144,
                      1e7, 1e-6,
                      "Qwen/Qwen3-Next-80B-A3B-Instruct config.json on the Hugging Face hub "
                      "(data/models.json row qwen3-next-80b-a3b)"));
    experts(v.back(), 512, 10, 512);
    gated_delta_nets(v.back(), 32);
    v.back().shared_ffn = 512;
    v.back().skip_types =
        "q4_k_m: its CPU_REPACK copy (36.8 GB measured) needs swap beyond 24 GB of RAM "
        "(WILLFIT_LIVE_ALL=1 runs it)";
    // Kimi-Linear-48B-A3B (kimi-linear): 27 layers, MLA on layers 4, 8, ...,
    // 24 and 27 (full_attn_layers, numbered from 1; 32 heads, kv_lora_rank
    // 512, no q_lora, nope 128 + rope 64, v 128, served as MQA: one KV head),
    // Kimi Delta Attention on the others (32 heads of 128, 4-tap
    // convolutions); 256 experts of 1024, 8 per token, one shared, sigmoid
    // router with a per-expert bias, routed_scaling_factor 2.446; layer 0 a
    // dense MLP of 9216; untied.
    v.push_back(shape("kimi-linear-48b-a3b", "kimi-linear", 27, 2304, 9216, 32, 1, 192, 163840,
                      1048576, 10000, 1e-5,
                      "moonshotai/Kimi-Linear-48B-A3B-Instruct config.json on the Hugging Face "
                      "hub (data/models.json row kimi-linear-48b-a3b)"));
    v.back().layer_kinds = "KKKAKKKAKKKAKKKAKKKAKKKAKKA";
    mla(v.back());
    experts(v.back(), 256, 8, 1024);
    v.back().shared_experts = 1;
    v.back().dense_lead = 1;
    v.back().kda_head_dim = 128;
    v.back().kda_conv = 4;
    v.back().expert_weights_scale = 2.446;
    v.back().skip_types =
        "q4_k_m: its CPU_REPACK copy of the Q4_K experts (about 27 GB) needs swap on a 24 GB "
        "machine (WILLFIT_LIVE_ALL=1 runs it)";
    // DeepSeek Sparse Attention, reduced in depth and experts (a full file
    // of these 671-744 B models cannot be loaded here; what the live check
    // proves, the latent and indexer caches and the widest point of the
    // graph, depends on the per-layer widths, not on the depth). Every
    // per-layer hyper-parameter is the real model's; the layers keep the
    // kinds in the real order (dense, then MoE; GLM-5.2: full indexers, then
    // a shared one), and 16 routed experts of the real width stand for 256
    // (8 a token, as real). YaRN scaling (DeepSeek) is left out: it changes
    // RoPE's values, not a buffer.
    // DeepSeek-V3.2: MLA with compressed queries (q_lora_rank 1536, kv_lora_rank
    // 512, nope 128 + rope 64, v 128, 128 heads), the lightning indexer (64
    // heads of 128, top 2048), sigmoid router with a bias, weights normed and
    // scaled by 2.5, one shared expert, first_k_dense_replace 3.
    v.push_back(shape("deepseek-v3.2-r3", "deepseek32", 3, 7168, 18432, 128, 128, 192, 129280,
                      163840, 10000, 1e-6,
                      "REDUCED: 3 of 61 layers (1 of the 3 dense, 2 of the 58 MoE), 16 of 256 "
                      "routed experts; every other hyper-parameter from "
                      "deepseek-ai/DeepSeek-V3.2-Exp config.json @194c67e1 (data/models.json row "
                      "deepseek-v3.2-exp)"));
    mla(v.back());
    reduced_sparse_attention(v.back(), 1536, 64);
    // GLM-5 (glm-dsa): q_lora_rank 2048, kv_lora_rank 512, nope 192 + rope
    // 64, v 256, 64 heads; indexer 32 heads of 128, top 2048; 256 experts of
    // 2048 (8 a token, 1 shared, sigmoid router), first_k_dense_replace 3.
    const auto glm5 = [&v](const std::string& name, int layers, int64_t ctx,
                           const std::string& indexers, const std::string& source) {
      v.push_back(
          shape(name, "glm-dsa", layers, 6144, 12288, 64, 64, 256, 154880, ctx, 1e6, 1e-5, source));
      Spec& g = v.back();
      g.kv_lora = 512;
      g.q_lora = 2048;
      g.rope_dim = 64;
      g.nope_dim = 192;
      g.v_dim = 256;
      reduced_sparse_attention(g, 2048, 32);
      g.indexer_types = indexers;
    };
    // (rope_theta and rms_norm_eps are not read from the configs: they move no buffer.)
    glm5("glm-5-r3", 3, 202752, "",
         "REDUCED: 3 of 78 layers (1 of the 3 dense, 2 of the 75 MoE), 16 of 256 routed "
         "experts; every other hyper-parameter from zai-org/GLM-5.1 config.json (GLM-5's shape; "
         "data/models.json row glm-5)");
    // GLM-5.2: GLM-5's shape trained to 1M tokens, layers 0-2 with an
    // indexer of their own, layer 3 sharing layer 2's (indexer_types, the
    // first four of llama.cpp's GLM_5_2_DEFAULT_INDEXER_TYPES).
    glm5("glm-5.2-r4", 4, 1048576, "FFFS",
         "REDUCED: 4 of 78 layers (1 of the 3 dense, 3 of the 75 MoE; indexers full, full, "
         "full, shared as the real layers 0-3), 16 of 256 routed experts; every other "
         "hyper-parameter from zai-org/GLM-5.2 config.json (data/models.json row glm-5.2)");
    v.back().skip_types = "f16: 9.5 GB, above the 8 GB a live load may take on this shared machine";
    // dots.llm3 (dots3note; dots-studio/dots3-note-prev): MLA with compressed
    // queries (q_lora_rank 1024) on every layer; the full layers (layer_types:
    // 0, 1, then i % 4 == 1) 128 heads, kv_lora_rank 512, nope 128 + rope 64,
    // v 128 and the lightning indexer (64 heads of 128, top 2048); the
    // windowed ones (sliding_window_size 513) 64 heads, kv_lora_rank 1024,
    // nope 192 + rope 64, v 128; a head-wise gate on every layer; 256 experts
    // of 1536 (8 a token, one shared, a sigmoid router with a bias, weights
    // normed, scale 1.0) after one dense layer of 13824; vocabulary 152064,
    // untied; rope_theta 8e7, swa_rope_theta 5e4. The MTP block is left out
    // (llama.cpp skips its tensors).
    v.push_back(shape("dots3-note-r6", "dots3note", 6, 5120, 13824, 128, 128, 192, 152064, 524288,
                      8e7, 1e-5,
                      "REDUCED: 6 of 46 layers (layers 0-5 in the real order: full, full, three "
                      "windowed, full; 1 dense, 5 MoE), 16 of 256 routed experts; every other "
                      "hyper-parameter from transformers Dots3NoteTextConfig @37fce15b "
                      "(dots-studio/dots3-note-prev) and the released config.json's "
                      "sliding_window_size 513"));
    {
      Spec& d = v.back();
      mla(d);
      d.q_lora = 1024;
      experts(d, 16, 8, 1536);
      d.shared_experts = 1;
      d.dense_lead = 1;
      d.expert_weights_scale = 1.0;
      d.index_heads = 64;
      d.index_head_dim = 128;
      d.index_top_k = 2048;
      d.indexer_types = "FFSSSF";
      d.swa_layers = "GGSSSG";
      d.sliding_window = 513;
      d.swa_rope_base = 50000;
      d.swa_heads = 64;
      d.swa_kv_lora = 1024;
      d.swa_nope = 192;
      d.swa_v = 128;
      d.skip_types = "f16: 9.0 GB, above the 8 GB a live load may take on this shared machine";
    }
    // Granite 4.0 H (granitehybrid): 40 layers, attention at 5, 15, 25 and 35
    // (layer_types), Mamba-2 elsewhere (mamba_d_conv 4, mamba_d_state 128,
    // mamba_n_groups 1, mamba_expand 2), NoPE, an MLP or MoE after every
    // mixer, tied embeddings, vocabulary 100352; the converter
    // (conversion/granite.py GraniteHybridModel) writes rope.scaling.finetuned
    // false and context_length 2^20 for NoPE, the muP multipliers as
    // attention.scale, embedding_scale, residual_scale and logit_scale (the
    // values of H-Micro's config as public config fixtures quote it:
    // attention_multiplier 0.015625, embedding_multiplier 12,
    // residual_multiplier 0.22, logits_scaling 8; H-Tiny's are not quoted
    // there and are taken the same: a value moves no buffer, the key only
    // adds its scale node).
    const auto granite = [&v](const std::string& name, int64_t hidden, int64_t ffn, int heads,
                              int kv_heads, int64_t head_dim, int64_t mamba_heads,
                              const std::string& source) {
      v.push_back(shape(name, "granitehybrid", 40, hidden, ffn, heads, kv_heads, head_dim, 100352,
                        1 << 20, 10000, 1e-5, source));
      Spec& g = v.back();
      g.tied = true;
      g.nope = true;
      g.layer_kinds = std::string(40, 'M');
      for (const int i : {5, 15, 25, 35}) {
        g.layer_kinds[static_cast<size_t>(i)] = 'A';
      }
      g.ssm_conv = 4;
      g.ssm_inner = 2 * hidden;  // mamba_n_heads x mamba_d_head
      g.ssm_state = 128;
      g.ssm_heads = mamba_heads;
      g.ssm_groups = 1;
      g.attn_scale = 0.015625;
      g.embd_scale = 12;
      g.resid_scale = 0.22;
      g.logit_scale = 8;
    };
    // H-Micro: dense, hidden 2048, 32 heads of 64, 8 KV heads, 64 Mamba heads
    // of 64, shared_intermediate_size 8192 (the dense MLP: the converter maps
    // shared_mlp to ffn_gate/up/down when num_local_experts is 0).
    granite("granite-4.0-h-micro", 2048, 8192, 32, 8, 64, 64,
            "ibm-granite/granite-4.0-h-micro config.json on the Hugging Face hub (raw/main, as "
            "quoted in public model-config fixtures: layer_types attention at 5/15/25/35, "
            "mamba_n_heads 64, mamba_d_head 64, mamba_d_state 128, mamba_n_groups 1, "
            "num_local_experts 0, shared_intermediate_size 8192; data/models.json row "
            "granite-4.0-h-micro)");
    v.back().shared_ffn = 8192;  // written though no expert reads it (GraniteMoeModel)
    // H-Tiny: hidden 1536, 12 heads of 128, 4 KV heads, 48 Mamba heads of 64;
    // 64 experts of 512 (intermediate_size, llama.cpp's n_ff), 6 per token,
    // a shared expert of 1024.
    granite("granite-4.0-h-tiny", 1536, 512, 12, 4, 128, 48,
            "ibm-granite/granite-4.0-h-tiny config.json on the Hugging Face hub (as quoted in "
            "public model-config fixtures: intermediate_size 512, shared_intermediate_size 1024, "
            "num_local_experts 64, num_experts_per_tok 6, mamba_n_heads 48, mamba_d_head 64; "
            "data/models.json row granite-4.0-h-tiny)");
    experts(v.back(), 64, 6, 0);
    v.back().shared_ffn = 1024;
    // Jamba 1.5 Mini (jamba): 32 layers, attention at i % 8 == 4
    // (attn_layer_offset 4, attn_layer_period 8), Mamba-1 elsewhere
    // (mamba_d_state 16, mamba_d_conv 4, mamba_expand 2, mamba_dt_rank 256);
    // 16 experts of 14336, 2 per token, on the odd layers
    // (expert_layer_offset 1, expert_layer_period 2), a dense MLP of 14336 on
    // the even ones; no RoPE; untied.
    v.push_back(shape("jamba-1.5-mini", "jamba", 32, 4096, 14336, 32, 8, 128, 65536, 262144, 10000,
                      1e-6,
                      "ai21labs/AI21-Jamba-1.5-Mini config.json on the Hugging Face hub "
                      "(data/models.json row jamba-1.5-mini)"));
    v.back().layer_kinds = std::string(32, 'S');
    for (int i = 4; i < 32; i += 8) {
      v.back().layer_kinds[static_cast<size_t>(i)] = 'A';
    }
    experts(v.back(), 16, 2, 0);
    v.back().moe_period = 2;
    v.back().ssm_conv = 4;
    v.back().ssm_inner = 2 * 4096;
    v.back().ssm_state = 16;
    v.back().ssm_dt_rank = 256;
    v.back().skip_types =
        "q4_k_m: its CPU_REPACK copy (24.2 GB measured) needs swap on a 24 GB machine "
        "(WILLFIT_LIVE_ALL=1 runs it)";
    // Mamba and Mamba-2 alone (mamba.cpp, mamba2.cpp): every block the
    // mixer behind its RMS norm, no attention, no MLP; conversion/mamba.py
    // writes head_count and feed_forward_length 0 and context 2^20.
    // state-spaces/mamba-130m-hf: hidden 768, 24 layers, intermediate 1536
    // (expand 2), state 16, conv 4, time_step_rank 48 (ceil(768 / 16)),
    // vocabulary 50280 (50277 padded to 8), tied; no norms on dt, B, C.
    v.push_back(shape("mamba-130m", "mamba", 24, 768, 0, 0, 0, 0, 50280, 1 << 20, 10000, 1e-5,
                      "state-spaces/mamba-130m-hf config.json (hidden_size 768, "
                      "num_hidden_layers 24, intermediate_size 1536, state_size 16, "
                      "conv_kernel 4, time_step_rank auto = 48, vocab_size 50280, tied) as "
                      "public code quotes it (LaurentMazare/mamba.rs src/constants.rs)"));
    v.back().tied = true;
    v.back().ssm_conv = 4;
    v.back().ssm_inner = 1536;
    v.back().ssm_state = 16;
    v.back().ssm_dt_rank = 48;
    // Falcon Mamba 7B REDUCED to 4 of 64 layers: hidden 4096, intermediate
    // 8192, state 16, conv 4, time_step_rank 256, vocabulary 65024, untied;
    // dt, B and C RMS-normed (use_mambapy: ssm.dt_b_c_rms true).
    v.push_back(shape("falcon-mamba-7b-r4", "mamba", 4, 4096, 0, 0, 0, 0, 65024, 1 << 20, 10000,
                      1e-5,
                      "tiiuae/falcon-mamba-7b REDUCED to 4 of 64 layers; config.json as public "
                      "code quotes it (hidden_size 4096, intermediate_size 8192, state_size 16, "
                      "conv_kernel 4, time_step_rank 256, vocab_size 65024, untied)"));
    v.back().ssm_conv = 4;
    v.back().ssm_inner = 8192;
    v.back().ssm_state = 16;
    v.back().ssm_dt_rank = 256;
    v.back().ssm_dt_b_c_rms = true;
    // Mamba-Codestral-7B REDUCED to 4 of 64 layers: hidden 4096, 128 heads
    // of 64 (d_inner 8192), 8 groups, state 128, conv 4, vocabulary 32768,
    // untied (in_proj 18560 x 4096 = 2 x 8192 + 2 x 8 x 128 + 128).
    v.push_back(shape("mamba-codestral-7b-r4", "mamba2", 4, 4096, 0, 0, 0, 0, 32768, 1 << 20, 10000,
                      1e-5,
                      "mistralai/Mamba-Codestral-7B-v0.1 REDUCED to 4 of 64 layers: hidden 4096, "
                      "64 layers, 8 groups (llama.cpp issue 8519), in_proj 18560 x 4096 "
                      "(ml-explore/mlx-examples PR 1009): 128 heads of 64, state 128; vocab "
                      "32768, untied"));
    v.back().ssm_conv = 4;
    v.back().ssm_inner = 8192;
    v.back().ssm_state = 128;
    v.back().ssm_heads = 128;
    v.back().ssm_groups = 8;
    // RWKV-6 "Finch" World 1.6B (rwkv6.cpp): every block the time mix
    // (the wkv6 recurrence, 32 heads of 64) and the channel mix (key 2048 x
    // 7168, value, receptance 2048 x 2048) behind LayerNorms with biases;
    // conversion/rwkv.py writes head_count 0, context 2^20,
    // feed_forward_length int(3.5 hidden // 32 x 32) = 7168 (the config's
    // intermediate_size is null), time_mix_extra_dim 32, time_decay_extra_dim
    // 64, rescale_every_n_layers 6; vocabulary 65536 (the World tokenizer), untied.
    v.push_back(shape(
        "rwkv6-1.6b", "rwkv6", 24, 2048, 7168, 0, 0, 0, 65536, 1 << 20, 10000, 1e-5,
        "RWKV/rwkv-6-world-1b6 config.json (model_type rwkv6, hidden_size 2048, "
        "num_hidden_layers 24, head_size 64) as public tests quote it "
        "(public code containing \"RWKV/rwkv-6-world-1b6\"); vocab_size 65536, rescale_every 6 "
        "and tie_word_embeddings false from transformers' Rwkv6Config defaults "
        "(src/transformers/models/rwkv6/configuration_rwkv6.py @4b0238f4)"));
    rwkv6_mix(v.back(), 32, 64);
    // RWKV-6 World 7B REDUCED to 4 of 32 layers: hidden 4096, channel mix
    // 14336 (3.5 x 4096), the converter's wider LoRAs at hidden 4096 (64, 128).
    v.push_back(shape("rwkv6-7b-r4", "rwkv6", 4, 4096, 14336, 0, 0, 0, 65536, 1 << 20, 10000, 1e-5,
                      "RWKV-6 World 7B REDUCED to 4 of 32 layers: hidden 4096, 32 layers "
                      "(llama.cpp llama_model_rwkv6::load_arch_hparams: 32 layers at 4096 is "
                      "LLM_TYPE_7B), head_size 64, feed_forward_length 14336 and LoRA ranks 64/128 "
                      "as conversion/rwkv.py derives them; vocab 65536, untied"));
    rwkv6_mix(v.back(), 64, 128);
    // RWKV-7 "Goose" World3 1.5B (rwkv7.cpp): every block the time mix (the
    // wkv7 recurrence, 32 heads of 64, LoRAs of the decay 96, the in-context
    // learning rate 96, the value residual 64 and the gate 256) and the
    // channel mix (key 2048 x 8192, value) behind LayerNorms with biases;
    // vocabulary 65536, untied.
    v.push_back(
        shape("rwkv7-1.5b", "rwkv7", 24, 2048, 8192, 0, 0, 0, 65536, 1 << 20, 10000, 1e-5,
              "RWKV/RWKV7-Goose-World3-1.5B-HF (fla-hub/rwkv7-1.5B-world) config.json as "
              "public tests quote it (public code containing \"decay_low_rank_dim\": 96): "
              "hidden_size 2048, num_hidden_layers 24, head_dim 64, intermediate_size 8192, "
              "vocab_size 65536, untied, LoRA ranks decay 96, a 96, v 64, gate 256"));
    rwkv7_mix(v.back(), 96, 96, 64, 256);
    // RWKV-7 World3 2.9B REDUCED to 4 of 32 layers, every width real: hidden
    // 2560, channel mix 10240, LoRA ranks 96, 96, 64, 320.
    v.push_back(shape(
        "rwkv7-2.9b-r4", "rwkv7", 4, 2560, 10240, 0, 0, 0, 65536, 1 << 20, 10000, 1e-5,
        "RWKV-7 World3 2.9B REDUCED to 4 of 32 layers: its config.json as public "
        "code quotes it (public code containing \"decay_low_rank_dim\": 96): hidden_size 2560, "
        "head_size 64, intermediate_size 10240, vocab_size 65536, untied, LoRA ranks "
        "decay 96, a 96, v 64, gate 320"));
    rwkv7_mix(v.back(), 96, 96, 64, 320);
    // ARWKV-7 (arwkv7.cpp): RWKV-7's time mix in Qwen2.5-7B's shape beside
    // its MLP (hidden 3584, 28 layers, SwiGLU of 18944, vocabulary 152064),
    // the LoRA ranks conversion/rwkv.py's ARwkv7Model fixes (64, 64, 32 and
    // the gate 128 with wkv_has_gate), token_shift_count 1; REDUCED to 4 of
    // 28 layers.
    v.push_back(shape("arwkv7-7b-r4", "arwkv7", 4, 3584, 18944, 0, 0, 0, 152064, 1 << 20, 10000,
                      1e-6,
                      "RWKV-Red-Team/ARWKV-7B-Preview-0.1 (llama.cpp's example for "
                      "conversion/rwkv.py ARwkv7Model) REDUCED to 4 of 28 layers: Qwen2.5-7B's "
                      "hidden 3584, intermediate 18944, vocab 152064, head_size 64; LoRA ranks 64, "
                      "64, 32 and gate 128 (wkv_has_gate) as the converter fixes them"));
    rwkv7_mix(v.back(), 64, 64, 32, 128);
    // RWKV6Qwen2 (rwkv6qwen2.cpp): recursal's QRWKV6-32B-Instruct-Preview,
    // Qwen2.5-32B-Instruct with RWKV-6's time mix in place of its attention
    // (SmerkyG/hfattnconv rwkv6qwen2/configuration_rwkv6qwen2.py and
    // configs/Qwen2.5-32B-Instruct.yaml): hidden 5120, 64 layers, 40 heads
    // of 128 with 8 KV heads (the key and value 1024 wide, with Qwen2's
    // biases), SwiGLU of 27648, vocabulary 152064, untied, RMS epsilon 1e-6;
    // conversion/rwkv.py RWKV6Qwen2Model's LoRA ranks at hidden >= 4096 (64,
    // 128), head_count 0, head_count_kv 8, token_shift_count 1; REDUCED to
    // 4 of 64 layers.
    v.push_back(shape("rwkv6qwen2-32b-r4", "rwkv6qwen2", 4, 5120, 27648, 0, 8, 0, 152064, 1 << 20,
                      10000, 1e-6,
                      "recursal/QRWKV6-32B-Instruct-Preview-v0.1 (llama.cpp's example for "
                      "conversion/rwkv.py RWKV6Qwen2Model) REDUCED to 4 of 64 layers: "
                      "Qwen2.5-32B-Instruct's hidden 5120, intermediate 27648, 40 heads of 128 "
                      "and 8 KV heads, vocab 152064 (SmerkyG/hfattnconv "
                      "configs/Qwen2.5-32B-Instruct.yaml, rwkv6qwen2/configuration_rwkv6qwen2.py); "
                      "LoRA ranks 64/128 as the converter derives them"));
    v.back().wkv_head = 128;
    v.back().time_mix_extra = 64;
    v.back().time_decay_extra = 128;
    // Falcon-H1-0.5B: attention (8 heads of 64, 2 KV heads) and a Mamba-2
    // mixer (24 heads of 64: mamba_d_ssm 1536, state 128, 1 group, conv 4,
    // conv bias, no gated RMS norm: mamba_rms_norm false) side by side in
    // every layer, then a gated SiLU MLP of 2048; untied, rope_theta 1e11.
    v.push_back(shape("falcon-h1-0.5b", "falcon-h1", 36, 1024, 2048, 8, 2, 64, 32784, 16384, 1e11,
                      1e-5,
                      "tiiuae/Falcon-H1-0.5B config.json as NVIDIA-NeMo/Megatron-Bridge quotes it "
                      "(tests/unit_tests/models/falcon_h1/test_falcon_h1_bridge.py @ebd91e97, "
                      "FALCON_H1_500M_CONFIG; data/models.json row falcon-h1-0.5b)"));
    v.back().ssm_conv = 4;
    v.back().ssm_inner = 24 * 64;
    v.back().ssm_state = 128;
    v.back().ssm_heads = 24;
    v.back().ssm_groups = 1;
    // Gemma-3n-E2B (text model): 30 layers, 8 heads of 256, 2 KV heads, MLP
    // 8192 (GELU-gated), window 512 on four layers of five, the last 10
    // layers sharing KV, per-layer embeddings of 256 per layer, 4 AltUp
    // streams, LAuReL rank 64, final soft-cap 30, rope 1e6 global / 1e4 local.
    // The per-layer table has the full vocabulary's rows: the converter pads
    // vocab_size_per_layer_input 262144 to 262400 (conversion/gemma.py
    // Gemma3NModel.modify_tensors).
    v.push_back(shape("gemma-3n-e2b", "gemma3n", 30, 2048, 8192, 8, 2, 256, 262400, 32768, 1e6,
                      1e-6,
                      "google/gemma-3n-E2B: google-deepmind/gemma gemma/gm/nn/gemma3n/_gemma3n.py "
                      "@a9b44e59 (_get_gemma3n_config; data/models.json row gemma-3n-e2b, with "
                      "the config.json text_config values it cites)"));
    v.back().tied = true;
    v.back().qk_norm = true;
    v.back().sliding_window = 512;
    v.back().swa_rope_base = 10000;
    v.back().final_softcap = 30.0;
    v.back().per_layer_width = 256;
    v.back().altup_inputs = 4;
    v.back().laurel_rank = 64;
    v.back().kv_shared_layers = 10;
    v.back().swa_period = 5;
    // Gemma 4 (gemma4): five windowed layers (window 1024, heads of 256)
    // then a global one (heads of 512, their own KV heads, K used as V:
    // attention_k_eq_v), the last layer global; GELU-gated MLP, final
    // soft-cap 30, rope 1e6 global / 1e4 local, tied embeddings. The
    // 26B-A4B's every layer adds 128 routed experts of 704 (8 per token)
    // beside its dense MLP of 2112, the experts' gate and up fused
    // (conversion/gemma.py maps experts.gate_up_proj to ffn_gate_up_exps).
    // The Q8_0 and Q4_K_M files' CPU_REPACK copies are real RAM (26B-A4B
    // Q4_K_M: 9.4 GB, 31B Q4_K_M: 14.2 GB, measured); the F16 files are
    // page cache only.
    const auto gemma4 = [&v](const std::string& name, int layers, int64_t hidden, int64_t ffn,
                             int heads, int kv_heads, int global_kv, const std::string& source) {
      v.push_back(shape(name, "gemma4", layers, hidden, ffn, heads, kv_heads, 256, 262144, 262144,
                        1e6, 1e-6, source));
      Spec& g = v.back();
      g.tied = true;
      g.qk_norm = true;
      g.post_norms = true;
      g.sliding_window = 1024;
      g.swa_period = 6;
      g.swa_rope_base = 10000;
      g.final_softcap = 30.0;
      g.global_head_dim = 512;
      g.global_kv_heads = global_kv;
      g.global_k_eq_v = true;
    };
    gemma4("gemma-4-26b-a4b", 30, 2816, 2112, 16, 8, 2,
           "google/gemma-4-26B-A4B-it: THUDM/slime scripts/models/gemma4-26B-A4B.sh @91f85261 and "
           "the config.json values data/models.json row gemma-4-26b-a4b cites "
           "(num_global_key_value_heads 2, global_head_dim 512, attention_k_eq_v)");
    experts(v.back(), 128, 8, 704);
    gemma4("gemma-4-31b", 60, 5376, 21504, 32, 16, 4,
           "google/gemma-4-31B-it: THUDM/slime scripts/models/gemma4-31B.sh @91f85261 and the "
           "config.json text_config values data/models.json row gemma-4-31b cites "
           "(num_global_key_value_heads 4, global_head_dim 512, attention_k_eq_v)");
    // Gemma-4-E2B (text model): 35 layers of 1536, 8 heads, one KV head
    // (the global layers too: num_global_key_value_heads null) and V of its
    // own (attention_k_eq_v false), a 512-token window on four layers of
    // five, per-layer embeddings of 256 per layer, the last 20 layers
    // reading earlier layers' KV, their MLP twice as wide
    // (use_double_wide_mlp: 12288 beside 6144).
    gemma4("gemma-4-e2b", 35, 1536, 6144, 8, 1, 1,
           "google/gemma-4-E2B-it config.json as a public parser test transcribes it "
           "(a public Rust test file of a config parser (test_parse_gemma4_e2b_config; its last "
           "test test_parse_nllb_rejects_missing_required_dimension), "
           "test_parse_gemma4_e2b_config: hidden_size 1536, "
           "35 layers, 8 heads, 1 KV head, head_dim 256, global_head_dim 512, "
           "attention_k_eq_v false, sliding_window 512, hidden_size_per_layer_input 256, "
           "num_kv_shared_layers 20, use_double_wide_mlp, intermediate_size 6144, "
           "max_position_embeddings 131072, layer_types four sliding then one full)");
    // E2B and E4B: 131072 positions, a 512-token window, V of their own,
    // per-layer embeddings of 256, the last `shared` layers sharing KV.
    const auto on_device = [&v](int period, int shared) {
      Spec& g = v.back();
      g.ctx_train = 131072;
      g.sliding_window = 512;
      g.swa_period = period;
      g.global_k_eq_v = false;
      g.per_layer_width = 256;
      g.kv_shared_layers = shared;
    };
    on_device(5, 20);
    v.back().double_wide_mlp = true;
    // Its F16 file (9.3 GB) is mmapped, page cache only; the Q8_0 and Q4_K_M
    // files' CPU_REPACK copies are a few GB.
    v.back().skip_types.clear();
    // Gemma-4-E4B (text model): 42 layers of 2560, 8 heads, 2 KV heads (the
    // global layers too: num_global_key_value_heads null), V of its own, a
    // 512-token window on five layers of six, per-layer embeddings of 256,
    // the last 18 layers reading earlier layers' KV, no double-wide MLP.
    gemma4(
        "gemma-4-e4b", 42, 2560, 10240, 8, 2, 2,
        "google/gemma-4-E4B-it config.json: google/gemma-4-E4B-it-qat-w4a16-ct's as a public "
        "test transcribes it (a public Python unittest of a small inference engine (E4B_HF_CONFIG; "
        "its last test test_sampling_respects_temperature), E4B_HF_CONFIG: hidden_size 2560, "
        "intermediate_size 10240, 42 layers, 8 heads, 2 KV heads, head_dim 256, "
        "global_head_dim 512, num_global_key_value_heads null, num_kv_shared_layers 18, "
        "hidden_size_per_layer_input 256, use_double_wide_mlp false, sliding_window 512, "
        "attention_k_eq_v false, layer_types five sliding then one full); "
        "max_position_embeddings 131072 (a public Rust Gemma4Config parser with tests ('gemma4: "
        "num_attention_heads must be nonzero'))");
    on_device(6, 18);
    // Qwen3.5-0.8B (qwen35): 24 layers, gated full attention (8 heads, 2 KV
    // heads of 256, partial_rotary_factor 0.25: 64 RoPE dims, mrope sections
    // 11/11/10) every 4th, gated delta nets between (16 key and 16 value
    // heads of 128, conv 4), a dense MLP of 3584, tied embeddings; the
    // multi-token-prediction block left out as for Qwen3-Next.
    v.push_back(shape("qwen3.5-0.8b", "qwen35", 24, 1024, 3584, 8, 2, 256, 248320, 262144, 1e7,
                      1e-6,
                      "THUDM/slime scripts/models/qwen3.5-0.8B.sh @f8879db2 and the qwen35 GGUF "
                      "header of tests/data/architecture_figures.csv (data/models.json row "
                      "qwen3.5-0.8b)"));
    v.back().tied = true;
    gated_delta_nets(v.back(), 16);
    // Step-3.5-Flash REDUCED (common: the live check proves the layout, which
    // depends on the per-layer widths, not on the depth): 6 of its 45 layers,
    // every kind in the real order (0 global + dense, 1-2 windowed + dense,
    // 3 windowed + MoE, 4 global + MoE, 5 windowed + MoE), 16 of its 288
    // routed experts (8 per token, as the model). Every other
    // hyper-parameter is the model's: hidden 4096, dense MLP 11264, windowed
    // layers 96 query heads and global ones 64, 8 KV heads of 128 on both,
    // window 512, expert and shared-expert MLP 1280, vocabulary 128896,
    // 262144 positions, rope 5e6 global / 1e4 windowed, router scale 3.0.
    // The 3 MTP blocks are left out (convert_hf_to_gguf.py --no-mtp):
    // llama.cpp skips part of them when it loads without MTP, so the
    // mapped weights would not equal the file's tensors.
    v.push_back(shape(
        "step-3.5-flash-r6", "step35", 6, 4096, 11264, 96, 8, 128, 128896, 262144, 5e6, 1e-5,
        "stepfun-ai/Step-3.5-Flash REDUCED to 6 of 45 layers (kinds: global+dense, "
        "windowed+dense, windowed+MoE, global+MoE, in the real order) and 16 of 288 routed "
        "experts; every other hyper-parameter from its config.json: "
        "weavers.neocities.org/architecture-encyclopedia/stepfun_ai_Step_3.5_Flash_architecture "
        "(hidden 4096, FFN 11264, vocab 128896, head_dim 128, window 512, expert FFN 1280, "
        "262144 positions), a public pytest file of hipengine GGUF loading (_stepfun_gguf_paths; "
        "'metadata scan must not mmap tensor payloads') (text_config: moe_layers_enum "
        "3..44, 288 experts, top 8, share_expert_dim 1280, layer_types full at i % 4 == 0, "
        "router scale 3.0, head-wise gate) and a public pytest file of a quantisation-path report "
        "(call_status 'hypothetical_bf16', marlin_path 'none' for dense and moe rows) "
        "(attention_other_setting: 96 heads, "
        "8 groups, head_dim 128; 64 heads, 8 groups on full layers)"));
    v.back().global_heads = 64;
    v.back().swa_period = 4;
    v.back().sliding_window = 512;
    v.back().swa_rope_base = 10000;
    v.back().dense_lead = 3;
    v.back().shared_ffn = 1280;
    v.back().expert_weights_scale = 3.0;
    experts(v.back(), 16, 8, 1280);
    v.back().skip_types = "f16: 5.7 GB, q8_0 (3.0 GB) shows the same layout";
    // Llama-3.3-Nemotron-Super-49B-v1 (deci), reduced: 5 of its 80 layers,
    // each kind it has in the real order: layer 0 (attention, 8 KV heads,
    // MLP 14336), layer 1 (attention, MLP 28672), layers 6 and 11 (no
    // attention, MLP 14336 and 17920) and layer 79 (attention, MLP 28672:
    // the last layer attends). Every width is the model's, each MLP width
    // from its ffn_mult as conversion/deci.py computes it (2.625 -> 14336,
    // 5.25 -> 28672, 3.28125 -> 17920). The model has no linear-replacement
    // attention and no layer without an MLP (Ultra-253B's dummy layers).
    v.push_back(shape(
        "nemotron-super-49b-r5", "deci", 5, 8192, 28672, 64, 8, 128, 128256, 131072, 5e5, 1e-5,
        "nvidia/Llama-3_3-Nemotron-Super-49B-v1 REDUCED to 5 of 80 layers (its layers 0, 1, 6, "
        "11, 79: attention + MLP 14336, attention + MLP 28672, no attention + MLP 14336, no "
        "attention + MLP 17920, attention + MLP 28672); config.json as NVIDIA/NeMo "
        "nemo/collections/llm/gpt/model/llama_nemotron_config.py @8cfedd72 copies it "
        "(hidden 8192, 64 heads, n_heads_in_group 8, vocab 128256, 131072 positions, rope 5e5)"));
    v.back().deci = {{64, 8, 14336}, {64, 8, 28672}, {0, 0, 14336}, {0, 0, 17920}, {64, 8, 28672}};
    v.back().skip_types = "f16: 10 GB, above the 8 GB a live load may take on this machine";
    // nomic-embed-text v1.5 (nomic-bert, Ollama's nomic-embed-text): an
    // encoder, no KV cache. The whole model.
    v.push_back(shape("nomic-embed-text-v1.5", "nomic-bert", 12, 768, 3072, 12, 12, 64, 30528, 2048,
                      1000, 1e-12,
                      "nomic-ai/nomic-embed-text-v1.5 config.json (model_type nomic_bert): n_embd "
                      "768, n_layer 12, n_head 12, n_inner 3072 (SwiGLU), vocab_size 30528, "
                      "max_position_embeddings 2048, rotary_emb_base 1000, as public "
                      "transcriptions of it give them (code index); layer_norm_epsilon 1e-12"));
    v.back().tied = true;
    // jina-embeddings-v2-base-en (jina-bert-v2): an encoder with ALiBi, no
    // KV cache. The whole model.
    v.push_back(shape("jina-embeddings-v2-base-en", "jina-bert-v2", 12, 768, 3072, 12, 12, 64,
                      30528, 8192, 1e4, 1e-12,
                      "jinaai/jina-embeddings-v2-base-en config.json (JinaBertForMaskedLM, "
                      "model_type bert): hidden_size 768, num_hidden_layers 12, "
                      "num_attention_heads 12, intermediate_size 3072 (feed_forward_type "
                      "geglu), vocab_size 30528, max_position_embeddings 8192, "
                      "position_embedding_type alibi, layer_norm_eps 1e-12, as a public "
                      "transcription of it gives them (code index)"));
    v.back().tied = true;
    // ModernBERT-base (modern-bert): a pre-norm encoder, every third layer
    // global (layer 0 first), the others within 128 tokens, no KV cache. The
    // whole model.
    v.push_back(shape("modernbert-base", "modern-bert", 22, 768, 1152, 12, 12, 64, 50368, 8192,
                      160000, 1e-5,
                      "answerdotai/ModernBERT-base config.json (model_type modernbert): "
                      "hidden_size 768, num_hidden_layers 22, num_attention_heads 12, "
                      "intermediate_size 1152 (Wi 2 x 1152, GEGLU), vocab_size 50368, "
                      "max_position_embeddings 8192, local_attention 128, "
                      "global_attn_every_n_layers 3, global_rope_theta 160000, local_rope_theta "
                      "10000, norm_eps 1e-5, as public transcriptions of it give them (code "
                      "index)"));
    v.back().tied = true;
    v.back().sliding_window = 128;
    v.back().swa_period = 3;
    v.back().swa_rope_base = 10000;
    // nomic-embed-text-v2-moe (nomic-bert-moe, Ollama's
    // nomic-embed-text-v2-moe): an encoder with 8 GELU experts (2 per token)
    // on every second layer, no KV cache. The whole model.
    v.push_back(shape("nomic-embed-text-v2-moe", "nomic-bert-moe", 12, 768, 3072, 12, 12, 64,
                      250048, 512, 10000, 1e-5,
                      "nomic-ai/nomic-embed-text-v2-moe config.json (model_type nomic_bert): "
                      "n_embd 768, n_layer 12, n_head 12, n_inner 3072, vocab_size 250048, "
                      "num_experts 8, moe_top_k 2, moe_every_n_layers 2, activation gelu, "
                      "rotary_emb_base 10000, layer_norm_epsilon 1e-5, as public transcriptions "
                      "of it give them (code index); context 512 as the converter writes it"));
    v.back().tied = true;
    experts(v.back(), 8, 2, 0);
    // jina-embeddings-v3 (jina-bert-v3): XLM-RoBERTa's post-norm encoder
    // with RoPE, no KV cache. The whole model (its task adapters are files
    // of their own, not loaded here).
    v.push_back(shape("jina-embeddings-v3", "jina-bert-v3", 24, 1024, 4096, 16, 16, 64, 250002,
                      8192, 20000, 1e-5,
                      "jinaai/jina-embeddings-v3 config.json (model_type xlm-roberta with "
                      "lora_adaptations): hidden_size 1024, num_hidden_layers 24, "
                      "num_attention_heads 16, intermediate_size 4096 (GELU), vocab_size 250002, "
                      "max_position_embeddings 8194 (8192 as the converter writes it), rotary "
                      "base 20000, layer_norm_eps 1e-5, as transformers' JinaEmbeddingsV3Config "
                      "and public transcriptions give them (code index)"));
    v.back().tied = true;
    // llama-embed-nemotron-8b (llama-embed), reduced: 2 of its 32 layers
    // (every layer is the same), every width the model's; llama's graph
    // without a cache read and without logits, no output head (the
    // checkpoint has none).
    v.push_back(shape("llama-embed-nemotron-8b-r2", "llama-embed", 2, 4096, 14336, 32, 8, 128,
                      128256, 131072, 5e5, 1e-5,
                      "nvidia/llama-embed-nemotron-8b REDUCED to 2 of 32 layers; model_type "
                      "llama_bidirec, the Llama-3.1-8B backbone (hidden_size 4096, 32 layers, "
                      "32/8 heads of 128, intermediate_size 14336, vocab 128256) as a public "
                      "port's README transcribes it (code index); context and RoPE as "
                      "meta-llama/Llama-3.1-8B " +
                          mlc + "llama3_1_8b @79d603f0)"));
    v.back().tied = true;
    // EuroBERT-210m (eurobert): llama's pre-norm block without a cache and
    // bidirectional, no output head (the masked-LM head is not converted).
    // The whole model.
    v.push_back(shape("eurobert-210m", "eurobert", 12, 768, 3072, 12, 12, 64, 128256, 8192, 250000,
                      1e-5,
                      "EuroBERT/EuroBERT-210m config.json (model_type eurobert): hidden_size "
                      "768, num_hidden_layers 12, num_attention_heads 12, num_key_value_heads "
                      "12, intermediate_size 3072 (SwiGLU), vocab_size 128256, "
                      "max_position_embeddings 8192, rope_theta 250000, rms_norm_eps 1e-5, as a "
                      "public transcription of it gives them (code index)"));
    v.back().tied = true;
    // LLaDA-MoE (llada-moe) REDUCED to 4 of its 16 layers (all alike) and 16
    // of its 64 experts (8 a token, as the model): OLMoE's layer with Q and
    // K normed per head (llada-moe.cpp: attn_q_norm, attn_k_norm of
    // n_embd_head_k), softmax routing without renormalisation, no KV cache
    // (a diffusion LM), logits over the whole micro-batch, an untied head.
    v.push_back(shape("llada-moe-7b-a1b-r4", "llada-moe", 4, 2048, 8192, 16, 16, 128, 157184, 8192,
                      50000, 1e-5,
                      "inclusionAI/LLaDA-MoE-7B-A1B-Base REDUCED to 4 of 16 layers and 16 of 64 "
                      "experts of 1024, 8 per token; config.json as public transcriptions give "
                      "it (tests/unit/test_arch_llada_moe.cpp): hidden_size 2048, 16/16 heads of "
                      "128, dense_intermediate_size 8192 (unused), vocab 157184, "
                      "max_position_embeddings 8192, rope_theta 50000, untied"));
    v.back().qk_norm = true;
    experts(v.back(), 16, 8, 1024);
    // RND1-Base-0910 (rnd1) REDUCED to 4 of its 48 layers and 16 of its 128
    // experts (8 a token): qwen3moe's layer without a KV cache (rnd1.cpp).
    v.push_back(shape("rnd1-base-r4", "rnd1", 4, 2048, 6144, 32, 4, 128, 151936, 40960, 1e6, 1e-6,
                      "radicalnumerics/RND1-Base-0910 REDUCED to 4 of 48 layers and 16 of 128 "
                      "experts of 768, 8 per token; configuration_rnd.py's Qwen3-30B-A3B "
                      "checkpoint defaults (tests/unit/test_arch_rnd1.cpp)"));
    v.back().qk_norm = true;
    experts(v.back(), 16, 8, 768);
    // PaddleOCR-VL's text model (paddleocr): ERNIE-4.5-0.3B's tensors (Q
    // 2048 wide over a hidden width of 1024, 2 KV heads) with an untied head,
    // run as qwen2vl's graph (M-RoPE: four positions a token). The whole
    // text model; its vision tower is the mmproj, not written here.
    v.push_back(shape("paddleocr-vl-0.9b", "paddleocr", 18, 1024, 3072, 16, 2, 128, 103424, 131072,
                      500000, 1e-5,
                      "PaddlePaddle/PaddleOCR-VL text model (model_type paddleocr_vl): "
                      "hidden_size 1024, 18 layers, 16/2 heads of 128, intermediate_size 3072, "
                      "vocab 103424, max_position_embeddings 131072, rope_theta 500000, "
                      "mrope_section [16, 24, 24], untied, as public ports' tests transcribe it "
                      "(tests/unit/test_arch_paddleocr.cpp)"));
    // DeepSeek-OCR's decoder (deepseek2-ocr) REDUCED to 4 of its 12 layers
    // (the dense first one and 3 MoE layers) and 16 of its 64 experts of
    // 896 (6 a token, as the model), 2 shared experts: deepseek2.cpp's is_ocr
    // path, plain multi-head attention (q, k, v and o of 1280 x 1280, 10
    // heads of 128) beside DeepSeek-V2's MoE; untied head (lm_head true).
    v.push_back(shape("deepseek-ocr-r4", "deepseek2-ocr", 4, 1280, 6848, 10, 10, 128, 129280, 8192,
                      10000, 1e-6,
                      "deepseek-ai/DeepSeek-OCR decoder REDUCED to 4 of 12 layers (1 dense, 3 "
                      "MoE) and 16 of 64 experts of 896, 6 per token, 2 shared; config.json as a "
                      "public report quotes it whole (tests/unit/test_arch_deepseek_ocr.cpp): "
                      "hidden_size 1280, intermediate_size 6848, 10/10 heads, vocab 129280, "
                      "max_position_embeddings 8192, use_mla false"));
    experts(v.back(), 16, 6, 896);
    v.back().shared_experts = 2;
    v.back().dense_lead = 1;
    // HunyuanOCR's text model (hunyuan_vl): hunyuan-dense's layer (Q and K
    // RMS-normed per head after RoPE) with XD-RoPE's four position sections,
    // Q twice the hidden width, 8 KV heads, tied embeddings. The whole text
    // model; its vision tower is the mmproj, not written here.
    v.push_back(shape("hunyuan-ocr", "hunyuan_vl", 24, 1024, 3584, 16, 8, 128, 120818, 131072,
                      10000, 1e-5,
                      "tencent/HunyuanOCR text_config (model_type hunyuan_vl_text): hidden_size "
                      "1024, 24 layers, 16/8 heads of 128, intermediate_size 3584, vocab 120818, "
                      "max_position_embeddings 131072, rope_theta 10000 (xdrope, alpha 1000, "
                      "sections [16, 16, 16, 16]), tied, as public ports' tests transcribe it "
                      "(tests/unit/test_arch_hunyuan_vl.cpp)"));
    v.back().tied = true;
    v.back().qk_norm = true;
    // NeoBERT (neo-bert): a pre-norm RMSNorm encoder, Q, K and V in one
    // projection, SwiGLU's two input halves in one (w12), no output head.
    // The whole model.
    v.push_back(shape("neobert", "neo-bert", 28, 768, 2048, 12, 12, 64, 30522, 4096, 10000, 1e-5,
                      "chandar-lab/NeoBERT config.json (model_type neobert): hidden_size 768, "
                      "num_hidden_layers 28, num_attention_heads 12, intermediate_size 3072 "
                      "(the converter writes 2/3 of it, 2048: w12 4096 x 768, w3 768 x 2048 in "
                      "the checkpoint), vocab_size 30522, max_length 4096, norm_eps 1e-5, as a "
                      "public transcription of it and its tensors gives them (code index)"));
    v.back().tied = true;
    // OpenELM-270M (openelm): layer-wise scaling, every layer its own query
    // heads, KV heads and MLP width (the per-layer arrays conversion/openelm.py
    // writes), fused QKV with Q and K norms, tied embeddings. The whole model.
    v.push_back(
        shape("openelm-270m", "openelm", 16, 1280, 5120, 20, 5, 64, 32000, 2048, 1e4, 1e-6,
              "apple/OpenELM-270M config.json: model_dim 1280, head_dim 64, 16 layers, "
              "vocab 32000, max_context_length 2048; per-layer heads, KV heads and MLP "
              "widths as transcribed in public ports of it ("
              "a public C++ header of an OpenELM port (class OpenELM : public Model, OpenELMBlock, "
              "TiedEmbedding): num_query_heads 12x5, 16x7, 20x4; num_kv_heads 3x5, 4x7, "
              "5x4; ffn 768 ... 5120), the MLP widths equal to make_divisible(ffn_multiplier "
              "x 1280, 256) of ffn_multipliers linspace(0.5, 4.0, 16)"));
    v.back().tied = true;
    v.back().qk_norm = true;
    {
      const int q[16] = {12, 12, 12, 12, 12, 16, 16, 16, 16, 16, 16, 16, 20, 20, 20, 20};
      const int64_t f[16] = {768,  1024, 1280, 1536, 1792, 2048, 2560, 2816,
                             3072, 3328, 3584, 3840, 4352, 4608, 4864, 5120};
      for (int i = 0; i < 16; ++i) {
        v.back().deci.push_back({q[i], q[i] / 4, f[i]});
      }
    }
    // Llama-3.1-Nemotron-Ultra-253B-v1 (deci), reduced: 4 of its 162 blocks
    // in the real order, each a kind Super-49B lacks or a width of its own:
    // block 0 (attention of 128 heads over 8 KV heads, MLP 5376), block 9
    // (a dummy block: neither attention nor MLP, ffn_mult null), block 42
    // (no attention, MLP 21504) and block 161 (attention, MLP 26624: the
    // last block attends). Its widest MLPs (up to 425984) are left out:
    // one such block is 21 B parameters.
    v.push_back(shape(
        "nemotron-ultra-253b-r4", "deci", 4, 16384, 26624, 128, 8, 128, 128256, 131072, 5e5, 1e-5,
        "nvidia/Llama-3_1-Nemotron-Ultra-253B-v1 REDUCED to 4 of 162 blocks (its blocks 0, 9, 42, "
        "161: attention + MLP 5376, neither, no attention + MLP 21504, attention + MLP 26624); "
        "config.json as NVIDIA/NeMo nemo/collections/llm/gpt/model/llama_nemotron_config.py "
        "@8cfedd72 copies it (hidden 16384, 128 heads, n_heads_in_group 16, vocab 128256, 131072 "
        "positions, rope 5e5)"));
    v.back().deci = {{128, 8, 5376}, {0, 0, 0}, {0, 0, 21504}, {128, 8, 26624}};
    v.back().skip_types =
        "f16 q8_0: 16 and 8.5 GB, above the 8 GB a live load may take on this machine";
    // Hy3 (hy_v3) REDUCED: 4 of its 80 layers in the real order (0 with the
    // dense MLP, 1-3 with experts), 16 of its 192 routed experts (8 per
    // token, as the model). Every other hyper-parameter is the model's:
    // hidden 4096, dense MLP 13312, 64 heads and 8 KV heads of 128 with Q/K
    // norms, experts and one shared expert of 1536, a sigmoid router with a
    // selection bias scaled by 2.826, vocabulary 120832, 262144 positions,
    // rope 11158840. The MTP block is left out (--no-mtp), as for Step-3.5.
    v.push_back(shape("hy3-r4", "hy_v3", 4, 4096, 13312, 64, 8, 128, 120832, 262144, 11158840.0,
                      1e-5,
                      "tencent/Hy3 REDUCED to 4 of 80 layers (dense, then MoE, in the real "
                      "order) and 16 of 192 routed experts; every other hyper-parameter from its "
                      "config.json as public tests quote it (a public pytest file of a small LLM "
                      "engine (its last test compares LLMEngine(EngineConfig(tp=2, **kw)) output "
                      "to the single-rank output, 'assert got == want') "
                      "and a public Rust config parser with tests (router_scaling_factor 2.826, "
                      "assert_eq!(cfg.num_hidden_layers, 80), rope_theta 11158840.0); "
                      "data/models.json row hy3)"));
    v.back().qk_norm = true;
    v.back().dense_lead = 1;
    v.back().shared_experts = 1;
    v.back().shared_ffn = 1536;
    v.back().expert_weights_scale = 2.826;
    experts(v.back(), 16, 8, 1536);
    v.back().skip_types = "f16: 4.8 GB, q8_0 (2.6 GB) shows the same layout";
    // Ling-3.0-tiny (bailingmoe3) REDUCED: 4 of its 24 layers, one group of
    // layer_group_size 4 in the real order (0 Kimi Delta Attention with the
    // dense MLP, 1-2 KDA with experts, 3 MLA with experts), 16 of its 128
    // routed experts (8 per token, as the model). Every other
    // hyper-parameter is the model's: hidden 1536, dense MLP 4608, 16 heads;
    // KDA heads of 128 behind 4-tap convolutions, both gates full rank
    // (no_kda_lora), lower bound -5; MLA q_lora 256, kv_lora 512, nope 128 +
    // rope 64, v 128, a head-wise output gate; experts and one shared of 512,
    // a sigmoid router with a bias scaled by 2.5; vocabulary 157184, 131072
    // positions, rope 6e6.
    v.push_back(shape(
        "ling-3.0-tiny-r4", "bailingmoe3", 4, 1536, 4608, 16, 1, 192, 157184, 131072, 6e6, 1e-6,
        "inclusionAI/Ling-3.0-tiny REDUCED to 4 of 24 layers (KDA + dense, KDA + "
        "MoE, MLA + MoE, in the real order) and 16 of 128 routed experts; every "
        "other hyper-parameter from its config.json as a public test quotes it "
        "(a public Swift test of an MLX BailingMoeV3Model port (caches three MambaCache and a "
        "KVCacheSimple, logits shape [1, 2, 16]); data/models.json row ling-3.0-tiny)"));
    v.back().layer_kinds = "KKKA";
    mla(v.back());
    v.back().q_lora = 256;
    experts(v.back(), 16, 8, 512);
    v.back().shared_experts = 1;
    v.back().dense_lead = 1;
    v.back().kda_head_dim = 128;
    v.back().kda_conv = 4;
    v.back().kda_lower_bound = -5.0;
    v.back().expert_weights_scale = 2.5;
    // SmallThinker-4BA0.6B, whole: 32 layers of GQA (12 heads, 2 KV heads of
    // 128) and 32 routed experts of 768 (4 per token) on every layer, no
    // window (sliding_window_layout all 0), tied embeddings.
    v.push_back(shape(
        "smallthinker-4b-a0.6b", "smallthinker", 32, 1536, 768, 12, 2, 128, 151936, 32768, 1.5e6,
        1e-6,
        "PowerInfer/SmallThinker-4BA0.6B-Instruct config.json, as a public port transcribes it "
        "whole (a public copy of SmallThinker's modeling file (__all__ = SmallThinkerForCausalLM, "
        "SmallThinkerModel, SmallThinkerPreTrainedModel): hidden 1536, 32 layers, 12 heads, 2 KV "
        "heads, "
        "head_dim 128, moe_ffn_hidden_size 768, 32 experts, 4 active, sigmoid router, "
        "sliding_window_layout all 0, rope_theta 1.5e6, vocab 151936, 32768 positions, tied)"));
    v.back().tied = true;
    experts(v.back(), 32, 4, 768);
    v.back().skip_types = "f16: 8.1 GB, above the 8 GB a live load may take on this shared machine";
    // Nemotron-Mini-4B-Instruct, whole (nemotron.cpp): 32 layers of GQA (24
    // heads, 8 KV heads of 128), LayerNorms with biases, an ungated MLP of
    // 9216 (up, squared ReLU, down), RoPE over half of each head
    // (partial_rotary_factor 0.5: 64 dims), an untied output, vocabulary
    // 256000, 4096 positions.
    v.push_back(shape(
        "nemotron-mini-4b", "nemotron", 32, 3072, 9216, 24, 8, 128, 256000, 4096, 10000, 1e-5,
        "nvidia/Nemotron-Mini-4B-Instruct config.json as NVIDIA/TensorRT-LLM "
        "tests/unittest/_torch/modeling/test_modeling_nemotron.py (8cb8331d) transcribes it "
        "(Nemotron_4_4B_CONFIG: hidden 3072, intermediate 9216, 32 layers, 24 heads, 8 KV heads, "
        "kv_channels 128, vocab 256000, 4096 positions, partial_rotary_factor 0.5, relu2, "
        "untied)"));
    v.back().mlp_gated = false;
    v.back().rope_dim = 64;
    v.back().skip_types = "f16: 8.4 GB, above the 8 GB a live load may take on this shared machine";
    // BitNet b1.58 2B4T, whole (bitnet.cpp): 30 layers of GQA (20 heads, 5
    // KV heads of 128), a gated MLP of 6912, the sub-norms before wo
    // (attn_sub_norm, hidden wide) and before ffn_down (ffn_sub_norm, MLP
    // wide), tied embeddings, vocabulary 128256, 4096 positions. The weights
    // are ternary in the checkpoint but stored here as the file types the
    // harness writes.
    v.push_back(shape(
        "bitnet-b1.58-2b-4t", "bitnet", 30, 2560, 6912, 20, 5, 128, 128256, 4096, 500000, 1e-5,
        "microsoft/bitnet-b1.58-2B-4T config.json as a public TypeScript port transcribes it "
        "(a public TypeScript BitNet config module (BITNET_2B_4T_CONFIG: 'Default config for "
        "microsoft/bitnet-b1.58-2B-4T', hiddenSize 2560, intermediateSize 6912), "
        "BITNET_2B_4T_CONFIG: hidden 2560, intermediate 6912, "
        "30 layers, 20 heads, 5 KV heads, vocab 128256, 4096 positions, rms eps 1e-5, rope "
        "500000, tied, relu2)"));
    v.back().tied = true;
    // OLMo-1B, whole (olmo.cpp): 16 layers of 16 heads of 128 (no GQA), a
    // SwiGLU MLP of 8192, LayerNorms without weights (no norm tensor at
    // all), no clip_qkv, tied embeddings, vocabulary 50304, 2048 positions.
    v.push_back(
        shape("olmo-1b", "olmo", 16, 2048, 8192, 16, 16, 128, 50304, 2048, 10000, 1e-5,
              "allenai/OLMo-1B-hf config.json as public ports embed it (a public Rust candle-style "
              "port with tests (load_toy, forward_ids; 'past logits changed: {x} vs {y}'); a "
              "public Rust OLMo port with tests ('OLMo forward_hidden vs forward_hidden_embeds "
              "must agree (max diff {max_diff})'): hidden 2048, intermediate 8192, 16 "
              "layers, 16 heads, 16 KV heads, vocab 50304, 2048 positions, rope 10000, "
              "clip_qkv null, tied)"));
    v.back().tied = true;
    // Qwen-1.8B (qwen, Qwen-1), whole: 24 layers of 16 heads of 128 (no
    // GQA), one fused c_attn with its bias, a SwiGLU of 5504 (the config's
    // intermediate_size 11008 is twice it, which the converter writes as
    // feed_forward_length), vocabulary 151936 untied, 8192 positions.
    v.push_back(shape(
        "qwen-1_8b", "qwen", 24, 2048, 5504, 16, 16, 128, 151936, 8192, 10000, 1e-6,
        "Qwen/Qwen-1_8B: 24 layers, 16 heads, d_model 2048, 8192 positions (its "
        "model card's table, a public copy of a Qwen (1.0) model card in Chinese and English "
        "(ending with its Contact Us section and qianwen_opensource@alibabacloud.com)); "
        "intermediate_size "
        "11008, vocab_size 151936 (a config transcription citing "
        "huggingface.co/Qwen/Qwen-1_8B/blob/main/config.json, abhibambhaniya/GenZ-LLM-Analyzer "
        "GenZ/Models/Model_sets/alibaba.py at commit 13ebfb84); "
        "rotary_emb_base 10000, layer_norm_epsilon 1e-6, no tie (Qwen-7B's config "
        "of the same code, a public levanter Qwen2 round-trip test (it saves to {tmpdir}/lev_model "
        "and compares Qwen2ForCausalLM logits, rtol=1e-5))"));
    v.back().qkv_bias = true;
    // Baichuan2-13B-Chat (baichuan, ALiBi), REDUCED to 4 of its 40 layers:
    // every width the model's (hidden 5120, 40 heads of 128, MLP 13696,
    // vocabulary 125696 untied, 4096 positions). W_pack is split into
    // attn_q, attn_k and attn_v by conversion/baichuan.py. Reduced, the file
    // is neither llama.cpp's 7B (32 layers: RoPE) nor its 13B (40 layers:
    // ALiBi): baichuan.cpp then builds no positions and no RoPE, which is
    // the 13B's graph without its ALiBi slopes (a softmax argument).
    v.push_back(shape("baichuan2-13b-chat-r4", "baichuan", 4, 5120, 13696, 40, 40, 128, 125696,
                      4096, 10000, 1e-6,
                      "baichuan-inc/Baichuan2-13B-Chat REDUCED to 4 of 40 layers; config.json "
                      "as public transcriptions give it (see tests/unit/test_arch_llama23.cpp: "
                      "hidden_size 5120, intermediate_size 13696, num_attention_heads 40, "
                      "num_hidden_layers 40, vocab_size 125696, model_max_length 4096, "
                      "rms_norm_eps 1e-6, tie_word_embeddings false)"));
    // Orion-14B-Chat (orion), REDUCED to 4 of its 40 layers: every width the
    // model's (hidden 5120, 40 heads of 128, MLP 15360, vocabulary 84608
    // untied, 4096 positions); llama's layer with LayerNorms that carry a
    // bias (attn_norm, ffn_norm, output_norm), RoPE NeoX.
    v.push_back(shape("orion-14b-chat-r4", "orion", 4, 5120, 15360, 40, 40, 128, 84608, 4096, 10000,
                      1e-5,
                      "OrionStarAI/Orion-14B-Chat REDUCED to 4 of 40 layers; config.json as a "
                      "public NeuronX port falls back to it (a public Python NeuronX port of Orion "
                      "(get_compiler_args: 'Disables HLO verification to avoid shape mismatch "
                      "errors during weight layout optimization'): "
                      "hidden_size 5120, 40 layers, 40 heads, 40 KV heads, vocab_size 84608, "
                      "max_position_embeddings 4096, rope_theta 10000, rms_norm_eps 1e-5, "
                      "intermediate_size 15360, untied)"));
    // Trinity Mini REDUCED to 8 of its 32 layers, every kind in the real
    // order (0-1 windowed + dense, 2 windowed + MoE, 3 global + MoE, 4-6
    // windowed + MoE, 7 global + MoE: global_attn_every_n_layers 4, 2 dense
    // layers) and 16 of its 128 routed experts (8 per token, as the model).
    // Every other hyper-parameter is the model's: hidden 2048, dense MLP
    // 6144, 32 query heads and 4 KV heads of 128, window 2048, experts and
    // the shared one of 1024, vocabulary 200192, 131072 positions, route
    // scale 2.826; Q/K norms, the output gate and the post norms of
    // afmoe.cpp.
    v.push_back(shape(
        "trinity-mini-r8", "afmoe", 8, 2048, 6144, 32, 4, 128, 200192, 131072, 10000, 1e-5,
        "arcee-ai/Trinity-Mini REDUCED to 8 of 32 layers (kinds: windowed+dense, "
        "windowed+MoE, global+MoE, in the real order) and 16 of 128 routed experts; every "
        "other hyper-parameter from its config.json as public ports' tests transcribe it "
        "(a public unittest of an MoE layer (FakeComm, FakeRouter; "
        "'torch.testing.assert_close(output, torch.full((2, 16), 6.0))'); a public pytest file of "
        "a Neuron port of Trinity (test_mini_tp4_eligible, test_large_tp64_ineligible with "
        "MINI_OVERRIDES, LARGE_OVERRIDES): hidden 2048, FFN 6144, 32 heads, 4 "
        "KV heads, head_dim 128, 32 layers of layer_types sliding x3 + full, window 2048, "
        "experts 128 x 1024 top 8, 1 shared, 2 dense layers, route_scale 2.826, vocab 200192, "
        "131072 positions)"));
    v.back().sliding_window = 2048;
    v.back().dense_lead = 2;
    v.back().shared_experts = 1;
    v.back().shared_ffn = 1024;
    v.back().expert_weights_scale = 2.826;
    experts(v.back(), 16, 8, 1024);
    // Muse Glimmer 30B REDUCED to 4 of its 52 layers, the real order of each
    // group of four (three windowed of 2048 tokens, then a global one
    // without RoPE); every width the model's: hidden 6656, MLP 19968, 32
    // heads of 128 and 2 KV heads, vocabulary 202048, 131072 positions,
    // RoPE base 500000; the output gate, Q/K norms and post norms of
    // muse-glimmer.cpp, the logit scale and softcap.
    v.push_back(shape(
        "muse-glimmer-30b-r4", "muse-glimmer", 4, 6656, 19968, 32, 2, 128, 202048, 131072, 500000,
        1e-5,
        "meta-models/Muse-Glimmer-30B REDUCED to 4 of 52 layers (sliding x3 + full, the real "
        "order): transformers' MuseGlimmerTextConfig (src/transformers/models/muse_glimmer/"
        "configuration_muse_glimmer.py: hidden 6656, intermediate 19968, 32 heads, 2 KV heads, "
        "head_dim 128, vocab 202048, window 2048, softcap 20, output_multiplier 0.196)"));
    v.back().sliding_window = 2048;
    v.back().swa_layers = "SSSG";
    v.back().logit_scale = 0.19611613513818404;
    v.back().final_softcap = 20.0;
    // Laguna XS.2 REDUCED to 6 of its 40 layers, every kind in the real order
    // (0 full + dense, 1-3 windowed + MoE, 4 full + MoE, 5 windowed + MoE:
    // laguna.cpp's period 4 dense first, mlp_layer_types one dense layer) and
    // 16 of its 256 routed experts (8 per token, as the model). Every other
    // hyper-parameter is the model's: hidden 2048, dense MLP 8192, 48 query
    // heads on the full layers and 64 on the windowed ones, 8 KV heads of
    // 128, window 512, experts and the shared one of 512, vocabulary 100352,
    // 262144 positions, rope 5e5 full (over 64 dims) and 1e4 windowed (over
    // 128), route scale 2.5; Q/K norms and the softplus gate per head.
    const std::string laguna_source =
        "config.json as SGLang transcribes it (sgl-project/sglang "
        "python/sglang/srt/configs/laguna.py @229891f5, 'Laguna (poolside/Laguna-XS.2) model "
        "configuration': hidden 2048, FFN 8192, 40 layers, 8 KV heads, head_dim 128, window "
        "512, layer_types full at i % 4 == 0, one dense layer, 256 experts x 512 top 8, "
        "shared 512, vocab 100352); 262144 positions: YaRN factor 64 over 4096 (lablup/mlxcel "
        "issue #1347) and llmrun.dev's page of the model; 48/64 heads per layer and the per-head "
        "softplus gate: SGLang PR #24204 and llama.cpp src/models/laguna.cpp; route scale 2.5: "
        "llama.cpp PR #25595";
    v.push_back(shape("laguna-xs.2-r6", "laguna", 6, 2048, 8192, 64, 8, 128, 100352, 262144, 5e5,
                      1e-6,
                      "poolside/Laguna-XS.2 REDUCED to 6 of 40 layers (kinds: full+dense, "
                      "windowed+MoE, full+MoE, in the real order) and 16 of 256 routed "
                      "experts; every other hyper-parameter from its " +
                          laguna_source));
    v.back().global_heads = 48;
    v.back().swa_period = 4;
    v.back().sliding_window = 512;
    v.back().swa_rope_base = 10000;
    v.back().rope_dim = 64;
    v.back().dense_lead = 1;
    v.back().shared_ffn = 512;
    v.back().expert_weights_scale = 2.5;
    experts(v.back(), 16, 8, 512);
    // Laguna M.1 REDUCED to 5 of its 70 layers, every kind in the real order
    // (0-2 dense, 3-4 MoE: mlp_layer_types 3 dense, then sparse) and 16 of its
    // 256 routed experts (16 per token, as the model). Every other
    // hyper-parameter is the model's: no window, hidden 4096, dense MLP
    // 16384, 64 query heads and 8 KV heads of 128 on every layer, experts and
    // the shared one of 1024, vocabulary 100352, 131072 positions, rope 5e5;
    // Q/K norms and the softplus gate per element (g_proj of heads x head_dim).
    v.push_back(
        shape("laguna-m.1-r5", "laguna", 5, 4096, 16384, 64, 8, 128, 100352, 131072, 5e5, 1e-6,
              "poolside/Laguna-M.1 REDUCED to 5 of 70 layers (kinds: dense, MoE, in the "
              "real order) and 16 of 256 routed experts; every other hyper-parameter "
              "from its config.json as a public engine's test quotes it (a public Rust MLX port of "
              "Laguna (test laguna_router_applies_routed_scaling_factor, LagunaRouter with "
              "routed_scaling_factor 2.5), 'Subset of the real ox-ox/Laguna-M.1-MLX-Q3 "
              "config.json': hidden 4096, FFN 16384, 70 layers, 64 heads, 8 KV heads, "
              "head_dim 128, gating per-element, 3 dense layers, 256 experts x 1024 top "
              "16, shared 1024, vocab 100352, no sliding window)"));
    v.back().gate_per_element = true;
    v.back().dense_lead = 3;
    v.back().shared_ffn = 1024;
    v.back().expert_weights_scale = 1.0;
    experts(v.back(), 16, 16, 1024);
    // North Mini Code (cohere2moe) REDUCED to 6 of its 49 layers, every kind
    // in the real order (0 global + dense with RoPE, 1-3 windowed + MoE, 4
    // global + MoE without RoPE, 5 windowed + MoE: layer_types global where
    // i % 4 == 0, first_k_dense_replace 1) and 16 of its 128 routed experts
    // (8 per token, as the model). Every other hyper-parameter is the
    // model's: hidden 2048, dense MLP 3072 (prefix_dense_intermediate_size),
    // experts of 768, 32 query heads and 4 KV heads of 128, window 4096,
    // vocabulary 262144, 500000 positions, rope 50000, RMS eps 1e-6, tied
    // embeddings, no shared expert, norm_topk_prob false.
    v.push_back(shape(
        "north-mini-code-r6", "cohere2moe", 6, 2048, 3072, 32, 4, 128, 262144, 500000, 50000, 1e-6,
        "CohereLabs/North-Mini-Code-1.0 REDUCED to 6 of 49 layers (kinds: global+dense, "
        "windowed+MoE, global+MoE, in the real order) and 16 of 128 routed experts; every other "
        "hyper-parameter from its config.json as a public port's check transcribes it "
        "(a public Python MLX worker that loads a model and a draft model (close(): 'Release model "
        "ownership before the shared worker shuts down.'): hidden 2048, head_dim 128, 32 heads, 4 "
        "KV heads, "
        "intermediate_size 768, prefix_dense_intermediate_size 3072, 128 experts top 8, no "
        "shared expert, first_k_dense_replace 1, window 4096, layer_types full where i % 4 == "
        "0, rope_theta 50000, rms_norm_eps 1e-6, vocab 262144, 500000 positions, tied)"));
    v.back().tied = true;
    v.back().sliding_window = 4096;
    v.back().dense_lead = 1;
    v.back().swa_layers = "GSSSGS";
    v.back().logit_scale = 1.0;
    experts(v.back(), 16, 8, 768);
    // Granite SWASH (granite_swa: granite-swa.cpp), whole. The 2B, dense:
    // hidden 2560, MLP 8192, 24 layers, 20 heads and 4 KV heads of 128,
    // vocabulary 100352, 8192 positions, tied, window 128 (GraniteSWAConfig's
    // defaults, the checkpoint's shape per a public synthesis table: 2.144B,
    // 24 x 2560, 7 full + 17 SWA-128, 4 KV x 128, sinks); the full layers
    // 0, 4, ..., 20 and the last (the table's 7; layer_types itself is not
    // transcribed). The 3B-A600M, MoE: hidden 1280, 28 layers, 20 heads and
    // 4 KV heads of 64, 48 experts of 512 (top 4: the width that gives the
    // published 3.02B and 0.598B) beside a shared expert of 1280, full
    // layers 0, 4, ..., 24 and 27 (the table's 8 of 28). The multipliers are
    // foundation-model-stack PR #529's; they move no buffer.
    const auto swash_layers = [](int layers) {
      std::string kinds;
      for (int i = 0; i < layers; ++i) {
        kinds += i % 4 == 0 || i == layers - 1 ? 'G' : 'S';
      }
      return kinds;
    };
    v.push_back(shape(
        "granite-swash-2b", "granite_swa", 24, 2560, 8192, 20, 4, 128, 100352, 8192, 10000, 1e-5,
        "ibm-granite/granite-swash-2b: transformers GraniteSWAConfig defaults "
        "(a public Python GraniteSWAConfig (layer_types default 'full_attention' if i % 4 == 0 "
        "else 'sliding_attention'; __all__ = GraniteSWAConfig)) and a public synthesis table ("
        "a public Markdown reference list of model reports and checkpoints (Step-3.5-Flash, "
        "Step3-VL-10B, Muse Glimmer, 'IBM Granite official checkpoints/configs'): 2.144B, 24 x "
        "2560, 7 full + 17 SWA-128, 4 KV x 128, sinks)"));
    v.back().tied = true;
    v.back().sliding_window = 128;
    v.back().swa_layers = swash_layers(24);
    v.back().attn_scale = 0.0078125;
    v.back().embd_scale = 12.0;
    v.back().resid_scale = 0.28;
    v.back().logit_scale = 10.0;
    // The same 2B with the configs' default layer kinds (no layer_types:
    // full where i % 4 == 0, 6 of 24; the last layer windowed).
    v.push_back(v.back());
    v.back().name = "granite-swash-2b-every4";
    v.back().source += "; layer_types left out (GraniteSWAConfig's default: full where i % 4 == 0)";
    v.back().swa_layers.back() = 'S';
    v.push_back(
        shape("granite-swash-3b-a600m", "granite_swa", 28, 1280, 512, 20, 4, 64, 100352, 8192,
              10000, 1e-5,
              "ibm-granite/granite-swash-3b-a600m: a public synthesis table ("
              "a public Markdown reference list of model reports and checkpoints (Step-3.5-Flash, "
              "Step3-VL-10B, Muse Glimmer, 'IBM Granite official checkpoints/configs'): 3.02B / "
              "A0.598B, 28 x 1280, 8 full + 20 SWA-128, 4 KV x 64), "
              "48 experts top 4 (a public text/Markdown file of model memory sizes, 76,351 "
              "characters (its last rows 'Nemotron-3.5-Lightning-30B-A3B' and 'DeepSeek-V4.1-Flash "
              "(ours)')), shared_intermediate_size 1280 "
              "(a public Python nnsight envoy module 'GraniteMoE SWA (GraniteMoeSWAForCausalLM).' "
              "(shared_intermediate_size 1280 on ibm-granite/granite-swash-3b-a600m)); experts of "
              "512, the width both counts give"));
    v.back().tied = true;
    v.back().sliding_window = 128;
    v.back().swa_layers = swash_layers(28);
    v.back().attn_scale = 0.015625;
    v.back().embd_scale = 12.0;
    v.back().resid_scale = 0.22;
    v.back().logit_scale = 6.0;
    v.back().experts = 48;
    v.back().experts_used = 4;
    v.back().shared_ffn = 1280;
    // MiMo-V2-Flash REDUCED to 7 of its 48 layers, every kind in the real
    // order (0 global + dense, 1-4 windowed + MoE, 5 global + MoE, 6
    // windowed + MoE: hybrid_layer_pattern 0 on layer 0 and every sixth from
    // 5, moe_layer_freq 0 on layer 0 only) and 16 of its 256 routed experts
    // (8 per token, as the model). Every other hyper-parameter is the
    // model's: hidden 4096, dense MLP 16384, 64 query heads of 192 on both
    // kinds, 4 KV heads on the global layers and 8 on the windowed ones, V
    // heads of 128, window 128, experts of 2048, vocabulary 152576, 262144
    // positions, rope 5e6 global / 1e4 windowed over 64 of 192 dims, value
    // scale 0.707, sinks on the windowed layers. The 3 MTP blocks are left
    // out, as for Step-3.5.
    v.push_back(
        shape("mimo-v2-flash-r7", "mimo2", 7, 4096, 16384, 64, 8, 192, 152576, 262144, 5e6, 1e-5,
              "XiaomiMiMo/MiMo-V2-Flash REDUCED to 7 of 48 layers (kinds: global+dense, "
              "windowed+MoE, global+MoE, in the real order) and 16 of 256 routed experts; every "
              "other hyper-parameter from its config.json as transcribed in public ports' tests "
              "(a public Rust MiMo-V2 config parser with tests (mimo_v2_flash_hub_config; "
              "MimoV2Config::from_hf rejects moe_layer_freq, hybrid_layer_pattern changes), "
              "mimo_v2_flash_hub_config: hidden 4096, 64 heads, "
              "KV 4 global / 8 windowed, head_dim 192, v_head_dim 128, window 128, FFN 16384, "
              "experts 256 x 2048 top 8, rope 5e6 / 1e4, partial rotary 0.334, value scale 0.707, "
              "vocab 152576)"));
    v.back().swa_layers = "GSSSSGS";
    v.back().global_kv_heads = 4;
    v.back().v_dim = 128;
    v.back().rope_dim = 64;
    v.back().sliding_window = 128;
    v.back().swa_rope_base = 10000;
    v.back().dense_lead = 1;
    v.back().value_scale = 0.707;
    experts(v.back(), 16, 8, 2048);
    v.back().skip_types = "f16: 9.1 GB, above the 8 GB a live load may take on this shared machine";
    // DeepSeek-V4-Flash (deepseek4), reduced: 5 of its 43 layers, the first
    // five in the real order (compress_ratios 0, 0, 4, 128, 4: two window-only
    // layers, a ratio-4 layer with the lightning indexer, a ratio-128 layer,
    // a ratio-4 layer again, the kind the real model ends with), the first
    // three hash-routed (num_hash_layers 3) as in the real model; 16 of 256
    // routed experts (6 per token, as in the real model). Every other
    // hyper-parameter is the real one: hidden 4096, 64 heads of 512 over one
    // KV head, 64 RoPE dims, q_lora_rank 1024, o_groups 8 x o_lora_rank 1024,
    // window 128, indexer 64 heads of 128 with top-k 512, hc_mult 4 (20
    // Sinkhorn iterations, eps 1e-6), experts of 2048 and one shared,
    // sqrtsoftplus routing scaled by 1.5, swiglu_limit 10, YaRN factor 16 over
    // 65536, rope_theta 10000, compress_rope_theta 160000, vocabulary 129280.
    // The MTP block is left out, as llama.cpp's converter leaves it out.
    v.push_back(shape("deepseek-v4-flash-r5", "deepseek4", 5, 4096, 2048, 64, 1, 512, 129280,
                      1048576, 10000, 1e-6,
                      "deepseek-ai/DeepSeek-V4-Flash config.json as a public test fixture quotes "
                      "it verbatim (a public Rust source file with an inline test module (ending "
                      "'// Each head now has unit RMS over head_dim.'); data/models.json row "
                      "deepseek-v4-flash), REDUCED: 5 of 43 layers (compress ratios 0 0 4 128 4, "
                      "the first 3 hash-routed), 16 of 256 routed experts; every other "
                      "hyper-parameter real"));
    experts(v.back(), 16, 6, 2048);
    v.back().shared_experts = 1;
    v.back().q_lora = 1024;
    v.back().rope_dim = 64;
    v.back().expert_weights_scale = 1.5;
    v.back().compress_layers = "SSCHC";
    v.back().o_groups = 8;
    v.back().o_lora = 1024;
    v.back().index_heads = 64;
    v.back().index_head_dim = 128;
    v.back().index_top_k = 512;
    v.back().hc_mult = 4;
    v.back().hash_layers = 3;
    v.back().sliding_window = 128;
    // Kimi K3, REDUCED to 4 of its 93 layers and 16 of its 896 routed
    // experts so that a file loads here (tests/live/README.md): its first
    // four layers as they are, KDA on layers 0-2 (layer 0 with the dense MLP
    // of 33792), MLA on layer 3 (full_attn_layers 4, numbered from 1), the
    // one residual checkpoint of layer 0 (attn_res_block_size 12). Every
    // per-layer width the model's: 7168 wide, 96 heads; KDA heads of 128
    // behind 4-tap convolutions with the full-rank gate; MLA with q_lora
    // 1536, kv_lora 512, nope 128 + rope 64, v 128, the output gate; 16
    // experts of 3072 per token in a 3584 latent, 2 shared; vocabulary
    // 163840, untied. routed_scaling_factor is not in the sources read: 2.5
    // is written (any value but 1 adds the same [16, tokens] scale node).
    v.push_back(shape(
        "kimi-k3-r4", "kimi-k3", 4, 7168, 33792, 96, 1, 192, 163840, 1048576, 10000, 1e-5,
        "REDUCED: 4 of 93 layers (KDA + dense MLP, 2 KDA + MoE, MLA + MoE), 16 of "
        "896 routed experts; every other hyper-parameter moonshotai/Kimi-K3 "
        "config.json at f831ab66 (data/models.json row kimi-k3; situ betas 4.0 and "
        "25.0 as a public Chinese Markdown review record of a MoE explainer page (sparsity 56 = "
        "N/k = 896/16; validate.py, overview.html and index.html) quotes it, the KDA gate's lower "
        "bound -5.0 as kimi-k3.cpp names K3's)"));
    v.back().layer_kinds = "KKKA";
    mla(v.back());
    v.back().q_lora = 1536;
    experts(v.back(), 16, 16, 3072);
    v.back().shared_experts = 2;
    v.back().dense_lead = 1;
    v.back().kda_head_dim = 128;
    v.back().kda_conv = 4;
    v.back().expert_weights_scale = 2.5;
    v.back().expert_latent = 3584;
    v.back().res_block = 12;
    v.back().situ_beta = 4.0;
    v.back().situ_linear_beta = 25.0;
    v.back().kda_lower_bound = -5.0;
    v.back().skip_types =
        "f16: 13.6 GB, above the 8 GB a live load may take on this shared machine";
    // Mistral Small 4 (mistral4: deepseek2.cpp's graph under its own name),
    // REDUCED to 4 of its 36 layers (all alike: MLA and routed experts) and
    // 16 of its 128 routed experts; every per-layer width the model's: 4096
    // wide, 32 heads, MLA with q_lora 1024, kv_lora 256, nope 64 + rope 64,
    // v 128; 4 experts of 2048 per token and one shared; vocabulary 131072,
    // untied.
    v.push_back(shape("mistral-small-4-r4", "mistral4", 4, 4096, 12288, 32, 32, 128, 131072,
                      1048576, 10000, 1e-5,
                      "REDUCED: 4 of 36 layers, 16 of 128 routed experts; every other "
                      "hyper-parameter mistralai/Mistral-Small-4-119B-2603 config.json text_config "
                      "as data/models.json row mistral-small-4-119b cites it"));
    v.back().kv_lora = 256;
    v.back().q_lora = 1024;
    v.back().rope_dim = 64;
    v.back().nope_dim = 64;
    v.back().v_dim = 128;
    experts(v.back(), 16, 4, 2048);
    v.back().shared_experts = 1;
    // MiniCPM3-4B (minicpm3), REDUCED to 8 of its 62 layers (all alike):
    // its per-head cache at 32768 tokens is 24 GiB whole. Every width the
    // model's: 2560 wide, 40 heads and 40 KV heads, MLP 6400, vocabulary
    // 73448, tied; MLA with q_lora 768, kv_lora 256, nope 64 + rope 32, v 64
    // (hidden / heads: the config has no v_head_dim). minicpm3.cpp
    // decompresses K and V and caches them per head.
    v.push_back(shape("minicpm3-4b-r8", "minicpm3", 8, 2560, 6400, 40, 40, 96, 73448, 32768, 10000,
                      1e-5,
                      "REDUCED: 8 of 62 layers; every other hyper-parameter openbmb/MiniCPM3-4B "
                      "config.json as transformers' MiniCPM3Config defaults and data/models.json "
                      "row minicpm3-4b cite it"));
    v.back().tied = true;
    v.back().kv_lora = 256;
    v.back().q_lora = 768;
    v.back().rope_dim = 32;
    v.back().nope_dim = 64;
    v.back().v_dim = 64;
    // PLM-1.8B (plm), REDUCED to 4 of its 32 layers (all alike): its
    // per-head cache at 32768 tokens is 10 GiB whole. Every width the
    // model's: 2048 wide, 16 heads and 16 KV heads, an ungated squared-ReLU
    // MLP of 8192, vocabulary 151936, tied (plm.cpp duplicates tok_embd),
    // 4096 positions, rope base 100000; MLA without query compression:
    // kv_lora 512, nope 128 + rope 64, v 128. plm.cpp decompresses K and V
    // and caches them per head, as minicpm3.cpp does.
    v.push_back(shape("plm-1.8b-r4", "plm", 4, 2048, 8192, 16, 16, 192, 151936, 4096, 100000, 1e-6,
                      "REDUCED: 4 of 32 layers; every other hyper-parameter PLM-Team/PLM-1.8B's "
                      "as transformers' PLMConfig defaults (configuration_plm.py at 949dcd70) "
                      "give them; tests/unit/test_arch_plm.cpp"));
    v.back().tied = true;
    v.back().mlp_gated = false;
    mla(v.back());
    // Maincoder (maincoder): no published config was found, so this row is
    // an ILLUSTRATIVE shape, not Maincoder-1B's: 4 layers of 2048, 16 heads
    // and 4 KV heads of 128, SwiGLU of 8192, Qwen's vocabulary of 151936,
    // 2048 positions, rope base 1e6, its own head; Q and K RMS-normed per
    // head after RoPE (maincoder.cpp).
    v.push_back(shape("maincoder-illustrative", "maincoder", 4, 2048, 8192, 16, 4, 128, 151936,
                      2048, 1e6, 1e-6,
                      "ILLUSTRATIVE values (no published Maincoder-1B config found): a 1B-class "
                      "shape with 4 layers; tests/unit/test_arch_maincoder.cpp"));
    v.back().qk_norm = true;
    // DFlash (dflash), z-lab/Qwen3-4B-DFlash-b16's widths (a public
    // implementation plan transcribes its config.json: 5 layers of 2560, 32
    // heads and 8 KV heads of 128, MLP 9728, vocabulary 151936, 40960
    // positions, rope base 1e6, target layers 1, 9, 17, 25, 33, blocks of
    // 16), but with token embeddings and a head of its own: the published
    // draft has neither and reads its target's, and llama.cpp gives a draft
    // without them no context unless it is handed the target's (ctx_other),
    // which node-llama-cpp never does. fc, the encoder's norm, Qwen3's
    // layers (dflash.cpp load_arch_tensors).
    v.push_back(shape("qwen3-4b-dflash-own", "dflash", 5, 2560, 9728, 32, 8, 128, 151936, 40960,
                      1e6, 1e-6,
                      "z-lab/Qwen3-4B-DFlash-b16 (config.json as a public implementation plan "
                      "transcribes it) WITH its own token embeddings and head, so that llama.cpp "
                      "runs it without a target; tests/unit/test_arch_dflash.cpp"));
    v.back().qk_norm = true;
    // MiniCPM4-8B (minicpm: granite.cpp's graph), REDUCED to 4 of its 32
    // layers (all alike); every width the model's: 4096 wide, 32 heads and 2
    // KV heads of 128, MLP 16384, vocabulary 73448, untied; the muP scales
    // as conversion/minicpm.py writes them for the real model (scale_emb
    // 12, scale_depth 1.4 / sqrt(32), hidden / dim_model_base 256 = 16).
    v.push_back(shape("minicpm4-8b-r4", "minicpm", 4, 4096, 16384, 32, 2, 128, 73448, 32768, 10000,
                      1e-6,
                      "REDUCED: 4 of 32 layers; every other hyper-parameter openbmb/MiniCPM4-8B "
                      "as data/models.json row minicpm4-8b cites it"));
    // Qwen3.8-Flash-Next (qwen4exp), REDUCED to 4 of its 48 layers (the
    // real order of its first group: three gated delta nets, layer 1 also
    // the n-gram layer, then full attention with QSA), 16 of its 512 routed
    // experts (10 per token, as the model) and an n-gram table of 16 heads
    // of 100003.. rows (ngram_vocab_size_base 100000 for the real
    // 20000000: its rows are weights only, read 16 per token). Every
    // per-layer width is the model's: hidden 2560, 24 heads / 2 KV heads of
    // 256, 64 RoPE dims, delta nets of 16 key and 48 value heads of 128
    // behind 4 taps, experts and the shared expert of 640, 4 streams through
    // a gate of rank 320, an indexer of 4 heads of 128 pooled over blocks of
    // 4 with a budget of 2048, n-gram rows of 160 (ple_embed_dim 2560 over
    // 16 heads), convolution 4 taps, vocabulary 248320, untied.
    v.push_back(shape(
        "qwen3.8-flash-next-r4", "qwen4exp", 4, 2560, 640, 24, 2, 256, 248320, 262144, 1e7, 1e-6,
        "REDUCED: 4 of 48 layers, 16 of 512 routed experts, n-gram table of "
        "ngram_vocab_size_base 100000; every other hyper-parameter "
        "Qwen/Qwen3.8-Flash-Next text_config as public ports pin it (a public pytest file of a "
        "Qwen3.8-Flash-Next spec ('assert spec.router_bytes == 128_450_560', quant_model "
        "OpensourceWTF/Qwen3.8-Flash-Next-MTPLX-Q4); a public Python module of pinned config "
        "fields for a Qwen4 experiment ('config is missing pinned field', _RUNTIME_EXPORTS with "
        "Qwen4GatedDeltaNet))"));
    gated_delta_nets(v.back(), 48);
    experts(v.back(), 16, 10, 640);
    v.back().shared_ffn = 640;
    v.back().hc_mult = 4;
    v.back().hc_low_rank = 320;
    v.back().indexer_heads = 4;
    v.back().indexer_dim = 128;
    v.back().indexer_top_k = 2048;
    v.back().qsa_ratio = 4;
    v.back().ple_layer = 1;
    v.back().ple_ngram = 3;
    v.back().ple_per_ngram = 8;
    v.back().ple_width = 160;
    v.back().ple_conv = 4;
    v.back().ple_base = 100000;
    v.back().ple_eos = 248044;
    // MiniMax-M3, REDUCED to 3 of its 60 layers and 16 of its 128 routed
    // experts so that a file loads here (tests/live/README.md): layer 0 one
    // of its 3 leading dense layers (MLP 12288, dense attention), layers 1-2
    // two of its 57 MoE layers with the sparse-attention indexer (4 heads of
    // 128, top 16 blocks of 128, 1 local block). Every per-layer width is the
    // model's: 6144 wide, 64 heads / 4 KV heads of 128, 64 RoPE dims, Q/K
    // normed per head, 4 experts of 3072 per token and one shared, sigmoid
    // router with a bias, routed_scaling_factor 2, vocabulary 200064, untied.
    v.push_back(shape("minimax-m3-r3", "minimax-m3", 3, 6144, 12288, 64, 4, 128, 200064, 1048576,
                      5e6, 1e-6,
                      "REDUCED: 3 of 60 layers (1 of 3 leading dense, 2 of 57 MoE + indexer), 16 "
                      "of 128 routed experts; every other hyper-parameter MiniMaxAI/MiniMax-M3 "
                      "text_config as a public port copies it (a public Rust test of an MLX port "
                      "of MiniMax-M3 (build_block_drop_mask; 'an under-budget block mask must drop "
                      "at least one block to -inf'); "
                      "data/models.json row minimax-m3)"));
    v.back().qk_norm = true;
    v.back().rope_dim = 64;
    experts(v.back(), 16, 4, 3072);
    v.back().shared_experts = 1;
    v.back().dense_lead = 1;
    v.back().expert_weights_scale = 2.0;
    v.back().indexer_heads = 4;
    v.back().indexer_dim = 128;
    v.back().indexer_top_k = 16;
    v.back().indexer_block = 128;
    v.back().indexer_local = 1;
    v.back().skip_types = "f16: 9.9 GB, above the 8 GB a live load may take on this shared machine";
    // GLM-4-9B-Chat (chatglm, the 2024 release; Ollama's glm4:9b), REDUCED
    // to 4 of its 40 layers, all alike: every width the model's (hidden
    // 4096, 32 heads and 2 KV heads of 128, RoPE over 64 of them, one fused
    // QKV with its bias, gate and up in one ffn_up of 2 x 13696, vocabulary
    // 151552 untied, 131072 positions, rope 10000 x rope_ratio 500).
    v.push_back(shape(
        "glm-4-9b-chat-r4", "chatglm", 4, 4096, 13696, 32, 2, 128, 151552, 131072, 5e6, 1.5625e-7,
        "THUDM/glm-4-9b-chat REDUCED to 4 of 40 layers; config.json as a public transformers "
        "log prints it (a public Chinese Markdown setup log (ending with NVIDIA Container Toolkit "
        "1.16.1 and 'nvidia-container-cli --version' output), snapshot f6e0743b: hidden_size 4096, "
        "num_layers 40, num_attention_heads 32, multi_query_group_num 2, kv_channels 128, "
        "ffn_hidden_size 13696, padded_vocab_size 151552, seq_length 131072, rope_ratio 500, "
        "layernorm_epsilon 1.5625e-07, add_qkv_bias true, tie_word_embeddings false)"));
    v.back().rope_dim = 64;  // conversion/chatglm.py: head_dim x partial_rotary_factor 0.5
    v.back().qkv_bias = true;
    // StarCoderBase-1B (starcoder, GPT-BigCode): learned positions,
    // LayerNorm with biases, fused QKV with bias, multi-query attention (one
    // KV head), a GELU MLP with biases, tied output. The whole model.
    v.push_back(shape("starcoderbase-1b", "starcoder", 24, 2048, 8192, 16, 1, 128, 49152, 8192,
                      10000, 1e-5,
                      "bigcode/starcoderbase-1b: 24 layers, hidden 2048, 16 heads, multi-query, "
                      "8192 learned positions (the model card and the 1B ablation cards of "
                      "RaymondLi/sc2-1b-data-ablation), vocabulary 49152 (StarCoder's tokenizer: "
                      "Cerebras/modelzoo checkpoint_converters/starcoder.py @244523ac), MLP "
                      "4 x 2048 (conversion/starcoder.py writes 4 n_embd), tied (GPTBigCode "
                      "has no lm_head of its own); tests/unit/test_arch_bigcode.cpp"));
    v.back().tied = true;
    // Pythia-1.4B (gptneox, GPT-NeoX): LayerNorms with biases, fused QKV
    // with bias roped on a quarter of each head, biases on wo, up and down,
    // a GELU MLP, parallel residual, untied output. The whole model.
    v.push_back(shape(
        "pythia-1.4b", "gptneox", 24, 2048, 8192, 16, 16, 128, 50304, 2048, 10000, 1e-5,
        "EleutherAI/pythia-1.4b: 24 layers, hidden 2048, 16 heads, 2048 positions, "
        "vocabulary 50304 (the Pythia card's table and a project's notes on its "
        "config, a public research note on Pythia and Cerebras-GPT (citing the Appendix E Table 12 "
        "parameter-count formula used for params_total in runs.csv); a public Markdown research "
        "note on a Pythia-based reader ('Phase B remains incomplete. The factorized encoder is "
        "retained as an experimental representation candidate')), MLP 8192 "
        "(llama.cpp gptneox.cpp: 24 layers with n_ff 8192 is its 1.4B), rotary_pct "
        "0.25, use_parallel_residual true, untied (every Pythia config); "
        "tests/unit/test_arch_gptneox.cpp"));
    v.back().rope_dim = 32;  // conversion/gptneox.py: rotary_pct 0.25 x head width 128
    // CodeShell-7B (codeshell), REDUCED to 4 of its 42 layers: every width
    // the model's (hidden 4096, 32 query heads and 8 KV heads of 128, a GELU
    // MLP of 16384, vocabulary 70144, 8192 positions); GPT-NeoX's sequential
    // layer (LayerNorms with biases, fused QKV with its bias, biases on wo,
    // up and down) with RoPE over the whole head; its output head.
    v.push_back(shape("codeshell-7b-r4", "codeshell", 4, 4096, 16384, 32, 8, 128, 70144, 8192,
                      10000, 1e-5,
                      "WisdomShell/CodeShell-7B REDUCED to 4 of 42 layers; config.json as "
                      "WisdomShell/codeshell model/config.json (e7f6c9f5) gives it: n_embd 4096, "
                      "n_layer 42, n_head 32, num_query_groups 8, n_inner 16384, vocab_size 70144, "
                      "n_positions 8192, position_embedding_type rope, layer_norm_epsilon 1e-5"));
    // BLOOM-560M (bloom): ALiBi (no positions), the token embeddings
    // LayerNormed, LayerNorms with biases, fused QKV with bias, a GELU MLP
    // with biases, tied output. The whole model.
    v.push_back(shape("bloom-560m", "bloom", 24, 1024, 4096, 16, 16, 64, 250880, 2048, 10000, 1e-5,
                      "bigscience/bloom-560m: 24 layers, n_embed 1024, 16 heads, vocabulary "
                      "250880, seq_length 2048 (a public test fixture transcribing its "
                      "config.json, a public pytest file of a BLOOMZ fine-tune (test calling "
                      "instruct._save_bloomz_full_model, match='native reload failure'); the BLOOM "
                      "paper's table, "
                      "a public app's Markdown page on BLOOM ('# BLOOM #', a table of BLOOM-560M "
                      "to BLOOM-176B: hidden size, decoder and head numbers, 'Size of params')), "
                      "layer_norm_epsilon 1e-5, MLP 4 x 1024 "
                      "(conversion/bloom.py writes 4 n_embed), tied (no lm_head); "
                      "tests/unit/test_arch_alibi.cpp"));
    v.back().tied = true;
    // MPT-7B (mpt), REDUCED to 4 of its 32 layers, all alike: every width
    // the model's (d_model 4096, 32 heads of 128, MLP 4 x 4096, vocabulary
    // 50432, 2048 positions), ALiBi, LayerNorms without biases and no bias
    // anywhere (no_bias), a GELU MLP, tied output.
    v.push_back(shape("mpt-7b-r4", "mpt", 4, 4096, 16384, 32, 32, 128, 50432, 2048, 10000, 1e-5,
                      "mosaicml/mpt-7b REDUCED to 4 of 32 layers; config.json as a public port "
                      "prints it (a public Markdown note on MPT-7B-Instruct generation (ending "
                      "with a greedy loop, '# stop when each sentence is finished, or if we exceed "
                      "the maximum length'): d_model 4096, n_heads 32, "
                      "n_layers 32, expansion_ratio 4, max_seq_len 2048, vocab_size 50432, "
                      "no_bias true, attn_config alibi true, alibi_bias_max 8, clip_qkv null), "
                      "tied (no lm_head); tests/unit/test_arch_alibi.cpp"));
    v.back().tied = true;
    // Falcon-7B (falcon), REDUCED to 4 of its 32 layers: every width the
    // model's (hidden 4544, 71 heads of 64, one KV head, a GELU MLP of 4 x
    // 4544, vocabulary 65024, 2048 positions), the parallel block with one
    // LayerNorm a layer, no projection biases, tied output. Q4_K_M is left
    // out: its 4544-wide rows fall back from Q4_K to Q5_0
    // (llama-quant.cpp tensor_type_fallback), a type this writer lacks.
    v.push_back(shape("falcon-7b-r4", "falcon", 4, 4544, 18176, 71, 1, 64, 65024, 2048, 10000, 1e-5,
                      "tiiuae/falcon-7b REDUCED to 4 of 32 layers; config.json as "
                      "Lightning-AI/litgpt litgpt/config.py transcribes it (falcon-7b: n_embd "
                      "4544, n_head 71, n_query_groups 1, parallel_residual, "
                      "shared_attention_norm, bias false; vocabulary 65024, block_size 2048), "
                      "layer_norm_epsilon 1e-5; MLP 4 x 4544 (conversion/falcon.py writes 4 x "
                      "hidden); tied as data/models.json row falcon-7b"));
    v.back().tied = true;
    v.back().skip_types = "q4_k_m: 4544-wide rows fall back to Q5_0, which this writer lacks";
    // Falcon-40B (falcon), REDUCED to 2 of its 60 layers: every width the
    // model's (hidden 8192, 128 heads of 64, 8 KV heads, a GELU MLP of 4 x
    // 8192, vocabulary 65024), the parallel block with two LayerNorms a
    // layer (attn_norm and attn_norm_2: new_decoder_architecture), its own
    // output head.
    v.push_back(shape("falcon-40b-r2", "falcon", 2, 8192, 32768, 128, 8, 64, 65024, 2048, 10000,
                      1e-5,
                      "tiiuae/falcon-40b REDUCED to 2 of 60 layers; config.json as "
                      "Lightning-AI/litgpt litgpt/config.py transcribes it (falcon-40b: n_embd "
                      "8192, n_head 128, n_query_groups 8, parallel_residual, bias false; "
                      "vocabulary 65024, block_size 2048), layer_norm_epsilon 1e-5, "
                      "new_decoder_architecture (ln_attn and ln_mlp); MLP 4 x 8192; untied as "
                      "data/models.json row falcon-40b"));
    v.back().falcon_norm_2 = true;
    // Phi-2 (phi2): LayerNorms with biases, one a layer feeding the attention
    // and the MLP side by side, q, k and v apart with biases (conversion/
    // phi.py writes the transformers layout), RoPE on 32 of each head's 80
    // values, a GELU MLP with biases, an untied head with a bias. The whole
    // model.
    v.push_back(shape("phi-2", "phi2", 32, 2560, 10240, 32, 32, 80, 51200, 2048, 10000, 1e-5,
                      "microsoft/phi-2 config.json as data/models.json row phi-2 gives it "
                      "(hidden_size 2560, intermediate_size 10240, 32 layers, 32 heads, vocab "
                      "51200, 2048 positions, untied), partial_rotary_factor 0.4 (32 of 80), "
                      "layer_norm_eps 1e-5"));
    v.back().rope_dim = 32;
    // StarCoder2-3B (starcoder2): LayerNorms with biases, q, k and v apart
    // with biases (2 KV heads), a GELU MLP with biases, tied. The whole
    // model.
    v.push_back(shape("starcoder2-3b", "starcoder2", 30, 3072, 12288, 24, 2, 128, 49152, 16384,
                      999999.4420358813, 1e-5,
                      "bigcode/starcoder2-3b config.json as public transcriptions give it "
                      "(hidden_size 3072, intermediate_size 12288, num_hidden_layers 30, "
                      "num_attention_heads 24, num_key_value_heads 2, vocab_size 49152, "
                      "max_position_embeddings 16384, rope_theta 999999.4420358813, norm_epsilon "
                      "1e-5, use_bias true, tied)"));
    v.back().tied = true;
    // BERT-base (bert): the post-norm encoder with a position table, two
    // token types, q, k and v apart with biases, GELU MLP with biases; no KV
    // cache. The whole model.
    v.push_back(shape("bert-base-uncased", "bert", 12, 768, 3072, 12, 12, 64, 30522, 512, 10000,
                      1e-12,
                      "google-bert/bert-base-uncased config.json as data/models.json row "
                      "bert-base-uncased gives it (hidden_size 768, 12 layers, 12 heads, "
                      "intermediate_size 3072, vocab_size 30522, max_position_embeddings 512), "
                      "type_vocab_size 2, layer_norm_eps 1e-12"));
    v.back().tied = true;
    // Jais-13b (jais), REDUCED to 4 of its 40 layers, all alike: every width
    // the model's (hidden 5120, 40 heads of 128, SwiGLU MLP 13653, vocabulary
    // 84992, 2048 positions), ALiBi, LayerNorms and every projection with
    // biases, its own output head.
    v.push_back(
        shape("jais-13b-r4", "jais", 4, 5120, 13653, 40, 40, 128, 84992, 2048, 10000, 1e-5,
              "inceptionai/jais-13b REDUCED to 4 of 40 layers; shape from Cerebras/modelzoo "
              "src/cerebras/modelzoo/models/nlp/jais/configs/params_jais_13b.yaml @244523ac "
              "(hidden_size 5120, num_hidden_layers 40, num_heads 40, filter_size 13653, "
              "max_position_embeddings 2048, vocab_size 84992, swiglu, alibi, layernorm "
              "1e-5, biases); output.weight apart (jais.cpp requires it); "
              "tests/unit/test_arch_alibi.cpp"));
    // Refact-1.6B (refact): the whole model. llama's layer (RMS norms, q,
    // k, v apart, SwiGLU) with ALiBi in place of RoPE, one KV head, its own
    // output head.
    v.push_back(
        shape("refact-1.6b", "refact", 32, 2048, 5632, 32, 1, 64, 49216, 4096, 10000, 1e-5,
              "smallcloudai/Refact-1_6B-fim: n_embd 2048, n_layer 32, n_head 32, "
              "multi_query (conversion/refact.py writes head_count_kv 1), n_positions "
              "4096, vocab_size 49216, n_inner None (MLP 5632: conversion/refact.py's "
              "rule), as an MLX port transcribes its config.json ("
              "a public Python MLX generation script (printing 'Token count is:', 'token speed: "
              "... tokens/sec')); untied (its lm_head); tests/unit/test_arch_refact.cpp"));
    // Jais-2-8B (jais2), REDUCED to 4 of its 32 layers, all alike: every
    // width the model's (hidden 3328, 26 heads of 128, every head cached, an
    // ungated squared-ReLU MLP of 26624, vocabulary 150272, 8192 positions),
    // LayerNorms and every projection with biases, RoPE, its own head.
    v.push_back(shape(
        "jais-2-8b-r4", "jais2", 4, 3328, 26624, 26, 26, 128, 150272, 8192, 10000, 1e-5,
        "inceptionai/Jais-2-8B-Chat REDUCED to 4 of 32 layers; Jais2Config and card "
        "as a public research note transcribes them ("
        "a public Markdown lessons table for a Jais-2 run ('Jais-2 is standard Transformer', 'No "
        "SSM buffers in Jais-2'): hidden 3328, 32 layers, 26 heads, vocabulary 150272, 8192 "
        "positions, relu2, LayerNorm, 8:1 MLP, 8.09B); biases everywhere "
        "(attention_bias, mlp_bias default true); tests/unit/test_arch_jais2.cpp"));
    v.back().qkv_bias = true;
    v.back().mlp_gated = false;
    // PLaMo-13B (plamo), REDUCED to 4 of its 40 layers, all alike: every
    // width the model's (hidden 5120, 40 query heads of 128 sharing K and V
    // in groups of 8: 5 KV heads, a SwiGLU MLP of 16640, vocabulary 50432,
    // 4096 positions), one norm a layer feeding the attention and the MLP in
    // parallel, its own output head.
    v.push_back(shape("plamo-13b-r4", "plamo", 4, 5120, 16640, 40, 5, 128, 50432, 4096, 10000, 1e-6,
                      "pfnet/plamo-13b REDUCED to 4 of 40 layers; config.json as a public port "
                      "transcribes it (a public Swift test fixture legacyConfigJSON of PLaMo 1 "
                      "(PlamoForCausalLM, hidden_size 5120, intermediate_size 16640, n_shared_head "
                      "8, vocab_size 50432): hidden_size 5120, "
                      "intermediate_size 16640, 40 heads, 40 layers, n_shared_head 8, vocab_size "
                      "50432, max_position_embeddings 4096, tie_word_embeddings false); "
                      "conversion/plamo.py writes head_count_kv 5 and context_length 4096; "
                      "tests/unit/test_arch_plamo.cpp"));
    // PLaMo 2 1B (plamo2), whole: 16 layers, a Mamba mixer on the even
    // ones and attention on the odd ones (mamba_step 2), hidden 2048, 16
    // heads of 128 and one KV head, an MLP of 8192 on every layer (gate and
    // up in one ffn_up), the mixer 32 heads of 128 (d_inner 4096), state
    // 64, 4 taps; vocabulary 100000, tied.
    v.push_back(
        shape("plamo-2-1b", "plamo2", 16, 2048, 8192, 16, 1, 128, 100000, 10485760, 10000, 1e-6,
              "pfnet/plamo-2-1b config.json as two public ports transcribe it "
              "(a public test fixture of a PLaMo 2 config ('mamba_step': 2, "
              "'attention_window_size': 2048, 'max_position_embeddings': 10485760, vocab_size "
              "100000); a public Rust PLaMo 2 test (plamo2::post_mixer_norm_offset() 0.2, "
              "post_mlp_norm_offset 1/(5**1.5)): hidden_size 2048, 16 "
              "layers, 16 heads, 1 KV head, hidden_size_per_head 128, mamba_num_heads 32, "
              "mamba_d_state 64, mamba_d_conv 4, mamba_step 2, intermediate_size 8192, "
              "vocab_size 100000, tie_word_embeddings true); tests/unit/test_arch_plamo.cpp"));
    for (int i = 0; i < 16; ++i) {
      v.back().layer_kinds += i % 2 == 1 ? 'A' : 'P';
    }
    v.back().tied = true;
    v.back().ssm_conv = 4;
    v.back().ssm_inner = 32 * 128;
    v.back().ssm_state = 64;
    v.back().ssm_heads = 32;
    // GroveMoE-Inst (grovemoe), REDUCED to 4 of its 48 layers and 16 of its
    // 128 routed experts (8 a token, as the model), with one adjugate
    // expert of 128 to each pair of them (8; 64 in the model): every width
    // the model's, Qwen3-30B-A3B's from which it is up-cycled (hidden
    // 2048, 32 heads and 4 KV heads of 128, Q and K normed per head,
    // experts of 768, vocabulary 151936, 40960 positions, its own head).
    v.push_back(shape("grovemoe-inst-r4", "grovemoe", 4, 2048, 6144, 32, 4, 128, 151936, 40960, 1e6,
                      1e-6,
                      "inclusionAI/GroveMoE-Inst REDUCED to 4 of 48 layers and 16 of 128 "
                      "experts; Qwen3-30B-A3B's shape (its README: up-cycled from "
                      "Qwen3-30B-A3B-Base), adjugate experts as conversion/grovemoe.py writes "
                      "them (2 experts a group, 128 wide, scale 0.05); "
                      "tests/unit/test_arch_variants.cpp"));
    v.back().qk_norm = true;
    experts(v.back(), 16, 8, 768);
    v.back().experts_per_group = 2;
    v.back().chunk_ffn = 128;
    // PLaMo 3 NICT 8B (plamo3), REDUCED to 8 of its 32 layers: one period
    // of its window pattern (seven windowed layers, then a global one),
    // every width the model's (hidden 4096, 32 heads and 4 KV heads of 128,
    // a SwiGLU MLP of 16384 with gate and up in one ffn_up, vocabulary
    // 107520 tied, 4096 positions, a window of 2048).
    v.push_back(shape("plamo-3-nict-8b-r8", "plamo3", 8, 4096, 16384, 32, 4, 128, 107520, 4096,
                      1000000, 1e-6,
                      "pfnet/plamo-3-nict-8b-base REDUCED to 8 of 32 layers; config.json as "
                      "public notes transcribe it (a public JavaScript model-synthesis table "
                      "(entries such as 'Hybrid Gated DeltaNet & Gated Attention' and "
                      "'Hyper-Scaled Routing Engine', '512 total experts per MoE layer'): hidden "
                      "4096, MLP 16384, 32/4 heads, vocabulary 107520, 4096 positions; "
                      "a public Japanese work plan for a PLaMo jacobian-lens port (acknowledging "
                      "anthropics/jacobian-lens and WeZZard/jlens-qwen36): 32 layers), "
                      "Plamo3Config's defaults for the rest (head_dim "
                      "128, window_size 2048, sliding_window_pattern 8, tied); "
                      "tests/unit/test_arch_plamo.cpp"));
    v.back().tied = true;
    v.back().sliding_window = 2048;
    v.back().swa_period = 8;
    // JetBrains Mellum2-12B-A2.5B (mellum), REDUCED to 4 of its 28 layers
    // (three windowed, then a global one: the config's own group of four)
    // and 16 of its 64 experts (8 a token, as the model): every width the
    // model's (hidden 2304, 32 heads and 4 KV heads of 128, Q and K normed
    // per head, experts of 896, vocabulary 98304, 131072 positions, a window
    // of 1024), its own head.
    v.push_back(shape(
        "mellum2-12b-a2.5b-r4", "mellum", 4, 2304, 7168, 32, 4, 128, 98304, 131072, 500000, 1e-6,
        "JetBrains/Mellum2-12B-A2.5B REDUCED to 4 of 28 layers and 16 of 64 "
        "experts; config.json as public ports transcribe it ("
        "a public pytest file of a Mellum 2.1 adapter "
        "(test_thinking_defaults_on_for_chat_and_can_be_disabled, Mellum21ThinkingAdapter); a "
        "public Rust Mellum config with tests (MELLUM2_CONFIG; test "
        "mellum_config_name_matches_registry): hidden 2304, 32/4 heads of 128, 64 experts of "
        "896, 8 a token, window 1024 on layer_types' sliding layers, three of "
        "every four); tests/unit/test_arch_variants.cpp"));
    v.back().qk_norm = true;
    experts(v.back(), 16, 8, 896);
    v.back().sliding_window = 1024;
    v.back().swa_layers = "SSSG";
    // openPangu-Embedded-7B-V1.1 (pangu-embedded), REDUCED to 4 of its 34
    // layers, all alike: every width the model's (hidden 4096, 32 heads and
    // 8 KV heads of 128, MLP 12800, vocabulary 153376, 32768 positions),
    // llama's layer with q, k, v and o biases, its own head.
    v.push_back(
        shape("openpangu-embedded-7b-r4", "pangu-embedded", 4, 4096, 12800, 32, 8, 128, 153376,
              32768, 16000000, 1e-5,
              "FreedomIntelligence/openPangu-Embedded-7B-V1.1 REDUCED to 4 of 34 layers; "
              "config.json and module tree as a public note prints them (a public Chinese Markdown "
              "note on token confidence with a tokenizer example (tokens 'Align', '88', '55', "
              "'<0x2B>', '33', '649'): hidden 4096, 32/8 heads, MLP 12800, vocabulary "
              "153376, bias true: q, k, v and o with biases); "
              "tests/unit/test_arch_variants.cpp"));
    v.back().qkv_bias = true;
    // Nanbeige4.2-3B (nanbeige), REDUCED to 4 of its 22 layers, run twice
    // as the model's are (num_loops 2: eight KV slots): every width the
    // model's (hidden 3072, 48 heads and 8 KV heads of 128, MLP 10752,
    // vocabulary 166144, 262144 positions), its own head.
    v.push_back(shape("nanbeige4.2-3b-r4", "nanbeige", 4, 3072, 10752, 48, 8, 128, 166144, 262144,
                      70000000, 1e-5,
                      "Nanbeige/Nanbeige4.2-3B REDUCED to 4 of 22 layers, each run twice "
                      "(num_loops 2); config.json as a public architecture note transcribes it "
                      "(a public copy of the Nanbeige4.2-3B model card (citation 'Nanbeige4.2-3B: "
                      "Unlocking Agentic Capabilities in a Compact Model', arXiv:2607.22083): "
                      "hidden 3072, 22 layers, 48/8 heads of "
                      "128, MLP 10752, vocabulary 166144, num_loops 2, skip_loop_final_norm "
                      "false); tests/unit/test_arch_variants.cpp"));
    v.back().loops = 2;
    // Chameleon-7B (chameleon), REDUCED to 4 of its 32 layers, all alike:
    // every width the model's (hidden 4096, 32 heads of 128, every head
    // cached, SwiGLU of 11008, vocabulary 65536 with its image tokens,
    // 4096 positions), Q and K LayerNormed per head with weights and biases,
    // its own head. The second row sets swin_norm (Chameleon-34B's norm
    // placement) on the same shape: llama.cpp's Swin-style graph, whose
    // only difference is where the norms run.
    for (const bool swin : {false, true}) {
      v.push_back(
          shape(swin ? "chameleon-7b-swin-r4" : "chameleon-7b-r4", "chameleon", 4, 4096, 11008, 32,
                32, 128, 65536, 4096, 10000, 1e-5,
                std::string("facebook/chameleon-7b REDUCED to 4 of 32 layers") +
                    (swin ? ", swin_norm set (Chameleon-34B's placement) on its shape" : "") +
                    "; transformers' ChameleonConfig defaults, which are chameleon-7b's "
                    "(a version of transformers' Chameleon configuration module in dataclass "
                    "style, 2,496 characters (__all__ = ChameleonConfig, ChameleonVQVAEConfig): "
                    "vocab 65536, hidden 4096, "
                    "intermediate 11008, 32 layers, 32 heads and KV heads, 4096 "
                    "positions, rms_norm_eps 1e-5, untied); "
                    "tests/unit/test_arch_chameleon.cpp"));
      v.back().qk_norm = true;
      v.back().swin_norm = swin;
    }
    // CogVLM-17B's language model (cogvlm), REDUCED to 4 of its 32 layers,
    // all alike: every width the model's (hidden 4096, 32 heads of 128,
    // every head cached, SwiGLU of 11008, vocabulary 32000, 2048 positions),
    // one fused attn_qkv, and the visual expert's vis_attn_qkv,
    // vis_attn_output, vis_gate, vis_up and vis_down on every layer.
    v.push_back(shape("cogvlm-chat-r4", "cogvlm", 4, 4096, 11008, 32, 32, 128, 32000, 2048, 10000,
                      1e-5,
                      "THUDM/cogvlm-chat-hf REDUCED to 4 of 32 layers; its CogVLMConfig "
                      "defaults as mindspore-lab/mindnlp transcribes them "
                      "(mindnlp/transformers/models/cogvlm/configuration_cogvlm.py: vocab 32000, "
                      "hidden 4096, intermediate 11008, 32 layers, 32 heads, 2048 positions, "
                      "untied); tests/unit/test_arch_cogvlm.cpp"));
    // WavTokenizer-large-speech-75token's decoder (wavtokenizer-dec), the
    // vocoder OuteTTS feeds its audio codes to: the whole model, every width
    // real (llama.cpp's examples/tts/convert_pt_to_hf.py writes the
    // config.json the converter reads: codebook 4096 x 512, PosNet 6 blocks
    // of 768, ConvNeXt 12 blocks of 768 with pw1 2304, head 1282 = n_fft +
    // 2, group norms of 32 groups, epsilons 1e-6, 8192 positions).
    v.push_back(shape("wavtokenizer-large-75", "wavtokenizer-dec", 12, 1282, 2304, 1, 1, 1282, 4096,
                      8192, 10000, 1e-6,
                      "novateur/WavTokenizer-large-speech-75token as llama.cpp's "
                      "examples/tts/convert_pt_to_hf.py writes its config.json "
                      "(ggerganov/llama.cpp @f77d5ce2); tests/unit/test_arch_wavtokenizer.cpp"));
    v.back().features = 512;
    v.back().posnet_layers = 6;
    v.back().posnet_width = 768;
    v.back().convnext_width = 768;
    // node-llama-cpp tokenizes text once a model is loaded, and llama.cpp
    // aborts on a vocabulary of type "none" (llama-vocab.cpp: "Tokenizer not
    // initialized"): run_llama.mjs cannot load this file, so `full` leaves it
    // out; tests/live/trace_alloc.c (llama.cpp's own API) measures it.
    v.back().skip_types =
        "f16 q8_0 q4_k_m: node-llama-cpp aborts on its vocabulary of type none (measure it "
        "with tests/live/trace_alloc.c)";
    // Talkie 1930 13B IT (talkie), REDUCED to 4 of its 40 layers, all
    // alike: every width the model's (hidden 5120, 40 heads of 128, every
    // head cached, SwiGLU of 13696, vocabulary 65540, 2048 positions, RoPE
    // base 1e6), untied, weightless RMS norms (F.rms_norm without an eps:
    // conversion/talkie.py writes float32's), the per-head Q gain, the
    // embedding skip's scale and the wo / ffn_down gains.
    // Qwen3-TTS-12Hz-0.6B's talker (qwen3tts), whole: qwen3vl.cpp's layer
    // (28 layers of 1024, 16 heads and 8 KV heads of 128, Q and K RMS-normed
    // per head, SwiGLU of 3072, IMROPE sections 24/20/20), the embedding
    // table the text rows (151936, the text projection folded in) and the
    // codec rows (3072) as conversion/qwen3tts.py joins them, the head
    // (codec_head) the codec rows alone; 32768 positions, RoPE base 1e6.
    v.push_back(shape(
        "qwen3-tts-12hz-0.6b", "qwen3tts", 28, 1024, 3072, 16, 8, 128, 155008, 32768, 1000000, 1e-6,
        "Qwen/Qwen3-TTS-12Hz-0.6B talker_config as public ports transcribe it "
        "(a public Markdown note transcribing a Qwen3-TTS config.json (code_predictor_config with "
        "5 layers, speaker_encoder_config enc_dim 1024, sample_rate 24000); a public Rust "
        "Qwen3TtsConfig with a test ('assert_eq!(config.model_type, qwen3_tts)', talker "
        "hidden_size 1024, code predictor 5 layers): 28 layers, hidden 1024, "
        "16 heads, 8 KV heads of 128, intermediate 3072, 32768 positions, RoPE 1e6, "
        "mrope_section 24/20/20, vocab_size 3072, text_vocab_size 151936); "
        "tests/unit/test_arch_qwen3tts.cpp"));
    v.back().qk_norm = true;
    v.back().head_rows = 3072;
    // Pocket TTS (pockettts), whole: the flow LM's backbone, 6 layers of
    // 1024, 16 heads of 64 (every head cached), LayerNorms with biases, an
    // ungated GELU MLP of 4096 (hidden_scale 4), no biases on the
    // projections, tied; the vocabulary the 4000 SentencePiece pieces, the
    // conditioner's padding row and the audio BOS row (4002); 4096
    // positions as conversion/pockettts.py bounds it, RoPE base 1e4.
    v.push_back(shape(
        "pocket-tts-b6369a24", "pockettts", 6, 1024, 4096, 16, 16, 64, 4002, 4096, 10000, 1e-5,
        "kyutai-labs/pocket-tts pocket_tts/config/b6369a24.yaml (a public YAML config of Pocket "
        "TTS (mimi seanet ratios 6, 5, 4; transformer d_model 512; '#weights_path: "
        "mimi_b6369a24.safetensors'): d_model 1024, hidden_scale 4, num_heads 16, num_layers 6, "
        "max_period 10000, n_bins 4000, insert_bos_before_voice false) and "
        "conversion/pockettts.py's derived config; "
        "tests/unit/test_arch_pockettts.cpp"));
    v.back().tied = true;
    v.back().mlp_gated = false;
    v.push_back(
        shape("talkie-1930-13b-r4", "talkie", 4, 5120, 13696, 40, 40, 128, 65540, 2048, 1000000,
              1.1920928955078125e-07,
              "talkie-lm/talkie-1930-13b-it REDUCED to 4 of 40 layers: a public "
              "architecture note (a public Markdown architecture note of a Talkie port with a "
              "Discord bot config (provider talkie, model talkie/talkie-1930-13b-it-mlx-8bit, 'You "
              "are an Edwardian-era conversationalist'): 40 layers, 5120, 40 "
              "heads of 128, vocab 65540, 2048 positions, RoPE 1e6) and TalkieConfig "
              "(a public Python TalkieConfig ('Transformers configuration for the original Talkie "
              "architecture.', vocab_size 65536, n_layer 40, n_embd 5120, intermediate_size = "
              "int(round(((8 / 3) * n_embd) / 128) * 128)); a public Python Talkie model loader "
              "(printing '[model_loader] {n_params/1e9:.2f}B params', load_tiktoken_tokeniser): "
              "intermediate 13696, untied); "
              "tests/unit/test_arch_talkie.cpp"));
    // Granite Switch 4.1 8B Preview (graniteswitch), REDUCED to 4 of its 40
    // layers, all alike: every width the model's (hidden 4096, 32 heads and 8
    // KV heads of 128, SwiGLU of 12800), the vocabulary the base's 100352
    // plus the 12 control tokens (ids 100352..100363), one fused attn_qkv,
    // and on every layer the 12 adapters' LoRAs stacked at rank 32 (the
    // largest of their 16 and 32) with the zero slot: 13 slots.
    v.push_back(
        shape("granite-switch-8b-r4", "graniteswitch", 4, 4096, 12800, 32, 8, 128, 100364, 131072,
              10000000, 1e-5,
              "ibm-granite/granite-switch-4.1-8b-preview REDUCED to 4 of 40 layers; its "
              "BUILD.md (a hub mirror: 4096 x 40, 32 heads, vocab 100352, 12 adapters at "
              "ranks 16/32, control tokens 100352..100363) and the Granite 4.1 report's "
              "table (8 KV heads of 128, MLP 12800); tests/unit/test_arch_graniteswitch.cpp"));
    v.back().tied = true;
    v.back().adapters = 12;
    v.back().adapter_rank = 32;
    v.back().attn_scale = 0.0078125;
    v.back().embd_scale = 12.0;
    v.back().resid_scale = 0.22;
    v.back().logit_scale = 16.0;
    // Flan-T5-Small (t5): an encoder-decoder, 8 encoder and 8 decoder
    // blocks, relative-position buckets, a gated-GELU MLP, an untied head.
    // The whole model.
    v.push_back(shape("flan-t5-small", "t5", 8, 512, 1024, 6, 6, 64, 32128, 512, 10000, 1e-6,
                      "google/flan-t5-small (T5ForConditionalGeneration): d_model 512, d_kv 64, "
                      "num_heads 6 (q: 512 -> 384), d_ff 1024 gated (wi_0, wi_1), 8 + 8 blocks, "
                      "vocab 32128, relative_attention_bias Embedding(32, 6), as "
                      "tenstorrent/tt-metal tests/python_api_testing/models/t5/FLAN_T5.md "
                      "prints the transformers module (d6e54019); n_positions 512 "
                      "(conversion/t5.py's default), layer_norm_epsilon 1e-6; "
                      "tests/unit/test_arch_t5.cpp"));
    // The T5-v1.1-XXL encoder alone (t5encoder: T5EncoderModel, the text
    // encoder of SD3 and Flux), REDUCED to 4 of its 24 blocks; every width
    // the model's. No head in the weights (llama.cpp loads token_embd again).
    v.push_back(shape("t5-v1_1-xxl-encoder-r4", "t5encoder", 4, 4096, 10240, 64, 64, 64, 32128, 512,
                      10000, 1e-6,
                      "REDUCED (4 of 24 encoder blocks) google/t5-v1_1-xxl encoder: emb_dim 4096, "
                      "num_heads 64, head_dim 64, mlp_dim 10240 (gelu, linear), vocab 32128, as "
                      "google-research/t5x t5x/examples/t5/t5_1_1/xxl.gin and base.gin give them "
                      "(2c294339, 247e27ef); relative_attention_num_buckets 32, n_positions 512; "
                      "tests/unit/test_arch_t5.cpp"));
    v.back().tied = true;
    return v;
  }();
  return list;
}

// ggml types and their block sizes (ggml/src/ggml.c type_traits).
enum GgmlType : uint32_t { F32 = 0, F16 = 1, Q8_0 = 8, Q4_K = 12, Q5_K = 13, Q6_K = 14, I32T = 26 };

int64_t row_bytes(GgmlType t, int64_t n) {
  switch (t) {
    case F32:
    case I32T:
      return 4 * n;
    case F16:
      return 2 * n;
    case Q8_0:
      return n / 32 * 34;
    case Q4_K:
      return n / 256 * 144;
    case Q5_K:
      return n / 256 * 176;
    case Q6_K:
      return n / 256 * 210;
  }
  return 0;
}

struct Tensor {
  std::string name;
  std::vector<int64_t> dims;  // ggml order: dims[0] is the row length
  GgmlType type = F32;
  uint64_t offset = 0;
  [[nodiscard]] int64_t bytes() const {
    int64_t rows = 1;
    for (size_t i = 1; i < dims.size(); ++i) {
      rows *= dims[i];
    }
    return row_bytes(type, dims[0]) * rows;
  }
};

// The type a 2-D (or 3-D expert) weight gets in file type `ftype`.
GgmlType weight_type(const std::string& ftype, const std::string& name, int layer, int layers,
                     int64_t row, bool tied, int experts, bool falcon) {
  const auto fits = [row](GgmlType t) {
    const int64_t block = (t == Q4_K || t == Q5_K || t == Q6_K) ? 256 : 32;
    return row % block == 0;
  };
  if (name.find("ffn_gate_inp") != std::string::npos) {
    return F32;  // llama-quant.cpp never quantises the router
  }
  if (name.find("indexer.proj") != std::string::npos) {
    return F32;  // conversion/base.py: "DSA indexer weights should be F32"
  }
  // llama-quant.cpp tensor_allows_quantization: AltUp, LAuReL and the
  // per-layer model projection stay as converted (F16 here).
  if (name.find("altup") != std::string::npos || name.find("laurel") != std::string::npos ||
      name.find("per_layer_model_proj") != std::string::npos) {
    return F16;
  }
  // llama-quant.cpp leaves RWKV-7's LoRAs as converted (conversion/base.py:
  // F16; its w1 and w2 are F32, tensors_for)
  if (name.find("time_mix_a1") != std::string::npos ||
      name.find("time_mix_a2") != std::string::npos ||
      name.find("time_mix_v1") != std::string::npos ||
      name.find("time_mix_v2") != std::string::npos ||
      name.find("time_mix_g1") != std::string::npos ||
      name.find("time_mix_g2") != std::string::npos) {
    return F16;
  }
  if (ftype == "f16") {
    return F16;
  }
  if (ftype == "q8_0") {
    return fits(Q8_0) ? Q8_0 : F16;
  }
  // q4_k_m
  const auto more_bits = [layers](int i) {
    return i < layers / 8 || i >= 7 * layers / 8 || (i - layers / 8) % 3 == 2;
  };
  // A fused attn_qkv is typed as attn_v is: llama-quant.cpp's
  // category_is_attn_v takes ATTENTION_QKV before its own Q5_K rule, which
  // is never reached at 80fb11ac.
  const bool attn_v = name.find("attn_v.weight") != std::string::npos ||
                      name.find("attn_qkv.weight") != std::string::npos;
  GgmlType t = Q4_K;
  // A tied token_embd is the output too: llama-quant.cpp gives it the
  // output's type (`!qs.has_output && name == token_embd`).
  // per_layer_token_embd is a token-embedding table too (tensor_name_match_token_embd).
  // Falcon's own branches (llama-quant.cpp llama_tensor_get_type_impl,
  // LLM_ARCH_FALCON): the output Q8_0; ffn_down Q6_K in the first sixteenth
  // of the layers, Q5_K in the other more-bits layers, Q4_K elsewhere.
  const bool ffn_down = name.find("ffn_down") != std::string::npos;
  if (name == "output.weight" ||
      (tied && (name == "token_embd.weight" || name == "per_layer_token_embd.weight"))) {
    t = falcon ? Q8_0 : Q6_K;
  } else if (falcon && ffn_down && layer >= 0) {
    t = layer < layers / 16 ? Q6_K : more_bits(layer) ? Q5_K : Q4_K;
  } else if ((attn_v || ffn_down) && layer >= 0 && more_bits(layer)) {
    t = Q6_K;
  }
  // The 8-expert rule (llama-quant.cpp llama_tensor_get_type_impl, `n_expert
  // == 8`: Mixtral): attn_v and attn_k go to Q8_0 ("trades just ~128MB") and
  // attn_output to Q5_K for Q4_K_M. Exactly 8: Qwen3's 128 experts keep the
  // plain recipe.
  if (experts == 8) {
    if (attn_v || name.find("attn_k.weight") != std::string::npos) {
      t = Q8_0;
    } else if (name.find("attn_output.weight") != std::string::npos) {
      t = Q5_K;
    }
  }
  return fits(t) ? t : (fits(Q8_0) ? Q8_0 : F16);
}

// The mixer of layer i: 'A' attention unless the row names its layers.
char layer_kind(const Spec& s, int i) {
  if (s.full_attn_interval > 0) {  // qwen3next.cpp: recurrent unless (i + 1) % interval == 0
    return (i + 1) % s.full_attn_interval == 0 ? 'A' : 'D';
  }
  return s.layer_kinds.empty() ? 'A' : s.layer_kinds[static_cast<size_t>(i)];
}

// Gemma 4's MLP width of layer i: twice as wide on the layers that read
// earlier layers' KV (use_double_wide_mlp; conversion/gemma.py writes the
// widths per layer).
int64_t gemma4_ffn(const Spec& s, int i) {
  return s.double_wide_mlp && i >= s.layers - s.kv_shared_layers ? 2 * s.ffn : s.ffn;
}

std::vector<Tensor> tensors_for(const Spec& s, const std::string& ftype) {
  std::vector<Tensor> out;
  const auto add = [&](std::string name, std::vector<int64_t> dims, int layer) {
    // olmo.cpp load_arch_tensors loads no norm: its LayerNorms have no weights.
    if (s.arch == "olmo" && name.find("norm") != std::string::npos) {
      return;
    }
    // talkie.cpp loads no norm either but the per-head Q gain (attn_q_norm).
    if (s.arch == "talkie" && name.find("norm") != std::string::npos &&
        name.find("attn_q_norm") == std::string::npos) {
      return;
    }
    Tensor t;
    t.name = std::move(name);
    t.dims = std::move(dims);
    // llama-quant.cpp quantises only 2-D and 3-D "*.weight" tensors, never
    // norms, and keeps the convolutions (ssm_conv1d, shortconv.conv) F32.
    // DeepSeek-V4's hyper-connection and compressor position tensors are F32
    // in the checkpoint and stay F32 (conversion/deepseek.py
    // tensor_force_quant); its hash-routing table is I32 (_write_hash_routing_tensors).
    // conversion/base.py writes ".lora_a"/".lora_b" (Granite Switch's stacked
    // LoRAs) at the outtype, and llama-quant.cpp quantises only names ending
    // in "weight": F16 in every file here.
    const bool lora = t.name.size() > 7 && (t.name.compare(t.name.size() - 7, 7, ".lora_a") == 0 ||
                                            t.name.compare(t.name.size() - 7, 7, ".lora_b") == 0);
    const bool keep_f32 = t.dims.size() == 1 || t.name.size() < 7 ||
                          (t.name.compare(t.name.size() - 7, 7, ".weight") != 0 && !lora) ||
                          t.name.find("norm") != std::string::npos ||
                          t.name.find("ssm_conv1d") != std::string::npos ||
                          // conversion/base.py keeps RWKV's lerps, bonus,
                          // LoRAs and decay LoRAs F32, and llama-quant.cpp
                          // leaves them so
                          t.name.find("_lerp_") != std::string::npos ||
                          t.name.find("time_mix_first") != std::string::npos ||
                          t.name.find("time_mix_w1") != std::string::npos ||
                          t.name.find("time_mix_w2") != std::string::npos ||
                          t.name.find("time_mix_decay_w") != std::string::npos ||
                          t.name.find("shortconv.conv.weight") != std::string::npos ||
                          t.name.find("hc_") != std::string::npos ||
                          t.name.find("_ape.") != std::string::npos ||
                          // conversion/minimax.py and llama-quant.cpp keep
                          // MiniMax-M3's indexer projections F32
                          t.name.find("indexer.k_proj") != std::string::npos ||
                          t.name.find("indexer.q_proj") != std::string::npos;
    // CogVLM's vis_attn_qkv is an attn_v-like tensor too (llama-quant.cpp
    // matches "attn_qkv.weight" in its name): two a layer, counted in file
    // order (attn_qkv first), so Q4_K_M's bumps run over 2 x layers of them.
    int index = layer;
    int count = s.layers;
    if (s.arch == "cogvlm" && layer >= 0 && t.name.find("attn_qkv.weight") != std::string::npos) {
      index = 2 * layer + (t.name.find("vis_") != std::string::npos ? 1 : 0);
      count = 2 * s.layers;
    }
    // llama-quant.cpp counts ffn_down over n_layer_all, which Granite
    // Switch's router slot makes one more than its layers.
    if (s.arch == "graniteswitch" && t.name.find("ffn_down.weight") != std::string::npos) {
      count = s.layers + 1;
    }
    t.type = t.name.find("tid2eid") != std::string::npos ? I32T
             : lora                                      ? F16
             : keep_f32                                  ? F32
                        : weight_type(ftype, t.name, index, count, t.dims[0], s.tied, s.experts,
                                      s.arch == "falcon");
    out.push_back(std::move(t));
  };
  const int64_t e = s.hidden;
  const int64_t q = s.head_dim * s.heads;
  const int64_t kv = s.head_dim * s.kv_heads;
  // A gated dense MLP of s.ffn; the router and the routed experts' gate, up
  // and down of s.expert_ffn; a shared expert of s.shared_ffn.
  const auto dense_mlp = [&](const std::string& b, int i) {
    add(b + "ffn_gate.weight", {e, s.ffn}, i);
    add(b + "ffn_up.weight", {e, s.ffn}, i);
    add(b + "ffn_down.weight", {s.ffn, e}, i);
  };
  const auto routed_experts = [&](const std::string& b, int i) {
    add(b + "ffn_gate_inp.weight", {e, s.experts}, i);
    add(b + "ffn_gate_exps.weight", {e, s.expert_ffn, s.experts}, i);
    add(b + "ffn_up_exps.weight", {e, s.expert_ffn, s.experts}, i);
    add(b + "ffn_down_exps.weight", {s.expert_ffn, e, s.experts}, i);
  };
  const auto shared_expert = [&](const std::string& b, int i) {
    add(b + "ffn_gate_shexp.weight", {e, s.shared_ffn}, i);
    add(b + "ffn_up_shexp.weight", {e, s.shared_ffn}, i);
    add(b + "ffn_down_shexp.weight", {s.shared_ffn, e}, i);
  };
  if (s.arch == "wavtokenizer-dec") {
    // wavtokenizer-dec.cpp load_arch_tensors: the codebook embedding, the
    // width-7 input convolution, the PosNet (resnet, resnet, attention,
    // resnet, resnet, norm; its norms and biases {1, width}, its attention
    // projections width-1 convolutions), the embeddings' LayerNorm, the
    // ConvNeXt blocks (depthwise width-7 convolution, LayerNorm, pw1, pw2,
    // gamma), the output LayerNorm and the head with its bias.
    const int64_t p = s.posnet_width;
    const int64_t c = s.convnext_width;
    add("token_embd.weight", {s.features, s.vocab}, -1);
    add("conv1d.weight", {7, s.features, p}, -1);
    add("conv1d.bias", {1, p}, -1);
    for (int i = 0; i < s.posnet_layers; ++i) {
      const std::string b = "posnet." + std::to_string(i) + ".";
      if (i == 2) {
        add(b + "attn_norm.weight", {1, p}, i);
        add(b + "attn_norm.bias", {1, p}, i);
        for (const char* m : {"attn_q", "attn_k", "attn_v", "attn_output"}) {
          add(b + m + ".weight", {1, p, p}, i);
          add(b + m + ".bias", {1, p}, i);
        }
      } else if (i == 5) {
        add(b + "attn_norm.weight", {1, p}, i);
        add(b + "attn_norm.bias", {1, p}, i);
      } else {
        add(b + "norm1.weight", {1, p}, i);
        add(b + "norm1.bias", {1, p}, i);
        add(b + "conv1.weight", {3, p, p}, i);
        add(b + "conv1.bias", {1, p}, i);
        add(b + "norm2.weight", {1, p}, i);
        add(b + "norm2.bias", {1, p}, i);
        add(b + "conv2.weight", {3, p, p}, i);
        add(b + "conv2.bias", {1, p}, i);
      }
    }
    add("token_embd_norm.weight", {p}, -1);
    add("token_embd_norm.bias", {p}, -1);
    for (int i = 0; i < s.layers; ++i) {
      const std::string b = "convnext." + std::to_string(i) + ".";
      add(b + "dw.weight", {7, 1, c}, i);
      add(b + "dw.bias", {1, c}, i);
      add(b + "norm.weight", {c}, i);
      add(b + "norm.bias", {c}, i);
      add(b + "pw1.weight", {c, s.ffn}, i);
      add(b + "pw1.bias", {s.ffn}, i);
      add(b + "pw2.weight", {s.ffn, c}, i);
      add(b + "pw2.bias", {c}, i);
      add(b + "gamma.weight", {c}, i);
    }
    add("output_norm.weight", {c}, -1);
    add("output_norm.bias", {c}, -1);
    add("output.weight", {c, s.hidden}, -1);
    add("output.bias", {s.hidden}, -1);
    return out;
  }
  add("token_embd.weight", {e, s.vocab}, -1);
  if (s.arch == "dflash") {
    // dflash.cpp load_arch_tensors: fc over the five target layers' states
    // and the encoder's norm after it
    add("fc.weight", {5 * e, e}, -1);
    add("enc.output_norm.weight", {e}, -1);
  }
  if (s.arch == "t5" || s.arch == "t5encoder") {
    // t5.cpp load_arch_tensors (as conversion/t5.py maps T5's weights):
    // the encoder's and the decoder's output norms, an untied head; per
    // encoder block attn_norm, q, k, v, o, ffn_norm, gate, up, down; per
    // decoder block the same plus the cross-attention's norm, q, k, v, o;
    // the relative-position bias (heads x 32 buckets) on block 0 of each
    // stack only (the other blocks read block 0's). t5encoder.cpp: the
    // encoder's alone, no head in the weights (T5EncoderModel has none).
    const bool encoder_only = s.arch == "t5encoder";
    add("enc.output_norm.weight", {e}, -1);
    if (!encoder_only) {
      add("dec.output_norm.weight", {e}, -1);
      add("output.weight", {e, s.vocab}, -1);
    }
    for (const std::string stack : {"enc", "dec"}) {
      if (encoder_only && stack == "dec") {
        break;
      }
      for (int i = 0; i < s.layers; ++i) {
        const std::string b = stack + ".blk." + std::to_string(i) + ".";
        add(b + "attn_norm.weight", {e}, i);
        if (i == 0) {
          add(b + "attn_rel_b.weight", {s.heads, 32}, i);
        }
        add(b + "attn_q.weight", {e, q}, i);
        add(b + "attn_k.weight", {e, kv}, i);
        add(b + "attn_v.weight", {e, kv}, i);
        add(b + "attn_o.weight", {q, e}, i);
        if (stack == "dec") {
          add(b + "cross_attn_norm.weight", {e}, i);
          add(b + "cross_attn_q.weight", {e, q}, i);
          add(b + "cross_attn_k.weight", {e, kv}, i);
          add(b + "cross_attn_v.weight", {e, kv}, i);
          add(b + "cross_attn_o.weight", {q, e}, i);
        }
        add(b + "ffn_norm.weight", {e}, i);
        add(b + "ffn_gate.weight", {e, s.ffn}, i);
        add(b + "ffn_up.weight", {e, s.ffn}, i);
        add(b + "ffn_down.weight", {s.ffn, e}, i);
      }
    }
    return out;
  }
  if (s.arch == "grok") {
    // grok.cpp load_arch_tensors: q, k, v and wo without biases; RMS norms
    // before and after the attention (attn_norm, attn_output_norm) and
    // before and after the experts (ffn_norm, layer_output_norm); the
    // router and 8 GeGLU experts; Grok-1 has no dense ffn_up/gate/down and
    // no output.weight (tied: token_embd read twice).
    add("output_norm.weight", {e}, -1);
    for (int i = 0; i < s.layers; ++i) {
      const std::string b = "blk." + std::to_string(i) + ".";
      add(b + "attn_norm.weight", {e}, i);
      add(b + "attn_q.weight", {e, q}, i);
      add(b + "attn_k.weight", {e, kv}, i);
      add(b + "attn_v.weight", {e, kv}, i);
      add(b + "attn_output.weight", {q, e}, i);
      add(b + "attn_output_norm.weight", {e}, i);
      add(b + "ffn_norm.weight", {e}, i);
      add(b + "ffn_gate_inp.weight", {e, s.experts}, i);
      add(b + "ffn_gate_exps.weight", {e, s.ffn, s.experts}, i);
      add(b + "ffn_up_exps.weight", {e, s.ffn, s.experts}, i);
      add(b + "ffn_down_exps.weight", {s.ffn, e, s.experts}, i);
      add(b + "layer_output_norm.weight", {e}, i);
    }
    return out;
  }
  if (s.arch == "dbrx") {
    // dbrx.cpp load_arch_tensors: LayerNorm weights without bias (attn_norm,
    // attn_output_norm before the experts, output_norm), one attn_qkv
    // without bias, wo, the router and the experts, an untied output.
    add("output_norm.weight", {e}, -1);
    add("output.weight", {e, s.vocab}, -1);
    for (int i = 0; i < s.layers; ++i) {
      const std::string b = "blk." + std::to_string(i) + ".";
      add(b + "attn_norm.weight", {e}, i);
      add(b + "attn_qkv.weight", {e, q + 2 * kv}, i);
      add(b + "attn_output.weight", {q, e}, i);
      add(b + "attn_output_norm.weight", {e}, i);
      add(b + "ffn_gate_inp.weight", {e, s.experts}, i);
      add(b + "ffn_gate_exps.weight", {e, s.ffn, s.experts}, i);
      add(b + "ffn_up_exps.weight", {e, s.ffn, s.experts}, i);
      add(b + "ffn_down_exps.weight", {s.ffn, e, s.experts}, i);
    }
    return out;
  }
  if (s.arch == "rwkv6") {
    // rwkv6.cpp load_arch_tensors (conversion/rwkv.py: the five lerps fused
    // into time_mix_lerp_fused): LayerNorms with biases on the embeddings,
    // before the time mix (attn_norm), before the channel mix (attn_norm_2)
    // and at the end; the untied head.
    const int64_t tm = s.time_mix_extra;
    const int64_t td = s.time_decay_extra;
    add("token_embd_norm.weight", {e}, -1);
    add("token_embd_norm.bias", {e}, -1);
    add("output_norm.weight", {e}, -1);
    add("output_norm.bias", {e}, -1);
    add("output.weight", {e, s.vocab}, -1);
    for (int i = 0; i < s.layers; ++i) {
      const std::string b = "blk." + std::to_string(i) + ".";
      add(b + "attn_norm.weight", {e}, i);
      add(b + "attn_norm.bias", {e}, i);
      add(b + "attn_norm_2.weight", {e}, i);
      add(b + "attn_norm_2.bias", {e}, i);
      add(b + "time_mix_w1.weight", {e, tm * 5}, i);
      add(b + "time_mix_w2.weight", {tm, e, 5}, i);
      add(b + "time_mix_lerp_x.weight", {e, 1, 1}, i);
      add(b + "time_mix_lerp_fused.weight", {e, 1, 1, 5}, i);
      add(b + "time_mix_first.weight", {s.wkv_head, e / s.wkv_head}, i);
      add(b + "time_mix_decay.weight", {e}, i);
      add(b + "time_mix_decay_w1.weight", {e, td}, i);
      add(b + "time_mix_decay_w2.weight", {td, e}, i);
      add(b + "time_mix_key.weight", {e, e}, i);
      add(b + "time_mix_value.weight", {e, e}, i);
      add(b + "time_mix_receptance.weight", {e, e}, i);
      add(b + "time_mix_gate.weight", {e, e}, i);
      add(b + "time_mix_ln.weight", {e}, i);
      add(b + "time_mix_ln.bias", {e}, i);
      add(b + "time_mix_output.weight", {e, e}, i);
      add(b + "channel_mix_key.weight", {e, s.ffn}, i);
      add(b + "channel_mix_value.weight", {s.ffn, e}, i);
      add(b + "channel_mix_receptance.weight", {e, e}, i);
      // the F32 lerps last: llama.cpp's CPU_Mapped buffer spans the file from
      // its first to its last mapped tensor (a repacked weight at the very
      // end would drop out of the logged size)
      add(b + "channel_mix_lerp_k.weight", {e, 1, 1}, i);
      add(b + "channel_mix_lerp_r.weight", {e, 1, 1}, i);
    }
    return out;
  }
  // RWKV-7's time mix of layer i (rwkv7.cpp, arwkv7.cpp load_arch_tensors:
  // the gate LoRA and its lerp only with a gate rank; layer 0's value LoRA at
  // the iclr rank, conversion/rwkv.py's copy)
  const auto rwkv7_time_mix = [&](const std::string& b, int i) {
    const int64_t vl = i == 0 ? s.lora_iclr : s.lora_value;
    add(b + "time_mix_w0.weight", {e}, i);
    add(b + "time_mix_w1.weight", {e, s.lora_decay}, i);
    add(b + "time_mix_w2.weight", {s.lora_decay, e}, i);
    add(b + "time_mix_a0.weight", {e}, i);
    add(b + "time_mix_a1.weight", {e, s.lora_iclr}, i);
    add(b + "time_mix_a2.weight", {s.lora_iclr, e}, i);
    add(b + "time_mix_v0.weight", {e}, i);
    add(b + "time_mix_v1.weight", {e, vl}, i);
    add(b + "time_mix_v2.weight", {vl, e}, i);
    if (s.lora_gate > 0) {
      add(b + "time_mix_g1.weight", {e, s.lora_gate}, i);
      add(b + "time_mix_g2.weight", {s.lora_gate, e}, i);
    }
    add(b + "time_mix_lerp_fused.weight", {e, 1, 1, s.lora_gate > 0 ? 6 : 5}, i);
    add(b + "time_mix_k_k.weight", {e}, i);
    add(b + "time_mix_k_a.weight", {e}, i);
    add(b + "time_mix_r_k.weight", {e}, i);
    add(b + "time_mix_key.weight", {e, e}, i);
    add(b + "time_mix_value.weight", {e, e}, i);
    add(b + "time_mix_receptance.weight", {e, e}, i);
    add(b + "time_mix_ln.weight", {e}, i);
    add(b + "time_mix_ln.bias", {e}, i);
    add(b + "time_mix_output.weight", {e, e}, i);
  };
  if (s.arch == "arwkv7") {
    // arwkv7.cpp load_arch_tensors: RWKV-7's time mix (no token norm, RMS
    // norms without biases, the gate and its lerp only with a gate rank) and
    // Qwen2's MLP; layer 0's value LoRA at the iclr rank (conversion/rwkv.py)
    add("output_norm.weight", {e}, -1);
    add("output.weight", {e, s.vocab}, -1);
    for (int i = 0; i < s.layers; ++i) {
      const std::string b = "blk." + std::to_string(i) + ".";
      add(b + "attn_norm.weight", {e}, i);
      rwkv7_time_mix(b, i);
      add(b + "ffn_gate.weight", {e, s.ffn}, i);
      add(b + "ffn_down.weight", {s.ffn, e}, i);
      add(b + "ffn_up.weight", {e, s.ffn}, i);
      add(b + "ffn_norm.weight", {e}, i);  // F32 last (the mapped span)
    }
    return out;
  }
  if (s.arch == "rwkv6qwen2") {
    // rwkv6qwen2.cpp load_arch_tensors: RWKV-6's time mix without the bonus
    // (time_mix_first) and group norm, its key and value KV heads x head
    // wide, Qwen2's q, k and v biases on the receptance, key and value (the
    // converter maps q/k/v_proj there), RMS norms without biases, Qwen2's MLP
    const int64_t tm = s.time_mix_extra;
    const int64_t td = s.time_decay_extra;
    const int64_t kv_width = s.kv_heads * s.wkv_head;
    add("output_norm.weight", {e}, -1);
    add("output.weight", {e, s.vocab}, -1);
    for (int i = 0; i < s.layers; ++i) {
      const std::string b = "blk." + std::to_string(i) + ".";
      add(b + "attn_norm.weight", {e}, i);
      add(b + "time_mix_w1.weight", {e, tm * 5}, i);
      add(b + "time_mix_w2.weight", {tm, e, 5}, i);
      add(b + "time_mix_lerp_x.weight", {e, 1, 1}, i);
      add(b + "time_mix_lerp_fused.weight", {e, 1, 1, 5}, i);
      add(b + "time_mix_decay.weight", {e}, i);
      add(b + "time_mix_decay_w1.weight", {e, td}, i);
      add(b + "time_mix_decay_w2.weight", {td, e}, i);
      add(b + "time_mix_key.weight", {e, kv_width}, i);
      add(b + "time_mix_key.bias", {kv_width}, i);
      add(b + "time_mix_value.weight", {e, kv_width}, i);
      add(b + "time_mix_value.bias", {kv_width}, i);
      add(b + "time_mix_receptance.weight", {e, e}, i);
      add(b + "time_mix_receptance.bias", {e}, i);
      add(b + "time_mix_gate.weight", {e, e}, i);
      add(b + "time_mix_output.weight", {e, e}, i);
      add(b + "ffn_gate.weight", {e, s.ffn}, i);
      add(b + "ffn_down.weight", {s.ffn, e}, i);
      add(b + "ffn_up.weight", {e, s.ffn}, i);
      add(b + "ffn_norm.weight", {e}, i);  // F32 last (the mapped span)
    }
    return out;
  }
  if (s.arch == "rwkv7") {
    // rwkv7.cpp load_arch_tensors (conversion/rwkv.py: the six lerps fused;
    // layer 0's value-residual LoRA at the iclr rank, unused)
    add("token_embd_norm.weight", {e}, -1);
    add("token_embd_norm.bias", {e}, -1);
    add("output_norm.weight", {e}, -1);
    add("output_norm.bias", {e}, -1);
    add("output.weight", {e, s.vocab}, -1);
    for (int i = 0; i < s.layers; ++i) {
      const std::string b = "blk." + std::to_string(i) + ".";
      add(b + "attn_norm.weight", {e}, i);
      add(b + "attn_norm.bias", {e}, i);
      add(b + "attn_norm_2.weight", {e}, i);
      add(b + "attn_norm_2.bias", {e}, i);
      rwkv7_time_mix(b, i);
      add(b + "channel_mix_key.weight", {e, s.ffn}, i);
      add(b + "channel_mix_value.weight", {s.ffn, e}, i);
      add(b + "channel_mix_lerp_k.weight", {e, 1, 1}, i);  // F32 last (the mapped span)
    }
    return out;
  }
  if (s.arch == "arctic") {
    // arctic.cpp load_arch_tensors: q, k, v and wo without biases; ffn_norm
    // and the residual MLP, n_embd x n_embd; the router, the experts' own
    // norm (ffn_norm_exps) and the experts of n_ff; an untied output.
    add("output_norm.weight", {e}, -1);
    add("output.weight", {e, s.vocab}, -1);
    for (int i = 0; i < s.layers; ++i) {
      const std::string b = "blk." + std::to_string(i) + ".";
      add(b + "attn_norm.weight", {e}, i);
      add(b + "attn_q.weight", {e, q}, i);
      add(b + "attn_k.weight", {e, kv}, i);
      add(b + "attn_v.weight", {e, kv}, i);
      add(b + "attn_output.weight", {q, e}, i);
      add(b + "ffn_norm.weight", {e}, i);
      add(b + "ffn_gate.weight", {e, e}, i);
      add(b + "ffn_down.weight", {e, e}, i);
      add(b + "ffn_up.weight", {e, e}, i);
      add(b + "ffn_gate_inp.weight", {e, s.experts}, i);
      add(b + "ffn_gate_exps.weight", {e, s.ffn, s.experts}, i);
      add(b + "ffn_down_exps.weight", {s.ffn, e, s.experts}, i);
      add(b + "ffn_up_exps.weight", {e, s.ffn, s.experts}, i);
      // last, as in the other expert layers: llama.cpp's CPU_Mapped buffer
      // spans the file from its first to its last mapped tensor, so a
      // repacked Q4_K tensor at the very end would drop out of the logged size
      add(b + "ffn_norm_exps.weight", {e}, i);
    }
    return out;
  }
  if (s.arch == "modern-bert") {
    // modern-bert.cpp load_arch_tensors (as conversion/bert.py maps
    // ModernBertModel's weights): the embeddings' norm, the final norm, no
    // biases, no output head; per layer attn_norm (none in layer 0: the
    // identity), the fused QKV (Wqkv), the output projection, ffn_norm, Wi
    // as one ffn_up of twice the MLP's width, ffn_down.
    add("token_embd_norm.weight", {e}, -1);
    add("output_norm.weight", {e}, -1);
    for (int i = 0; i < s.layers; ++i) {
      const std::string b = "blk." + std::to_string(i) + ".";
      if (i != 0) {
        add(b + "attn_norm.weight", {e}, i);
      }
      add(b + "attn_qkv.weight", {e, q + 2 * kv}, i);
      add(b + "attn_output.weight", {q, e}, i);
      add(b + "ffn_norm.weight", {e}, i);
      add(b + "ffn_up.weight", {e, 2 * s.ffn}, i);
      add(b + "ffn_down.weight", {s.ffn, e}, i);
    }
    return out;
  }
  if (s.arch == "neo-bert") {
    // neo-bert.cpp load_arch_tensors (as conversion/bert.py NeoBert maps
    // NeoBERT's weights): no embeddings' norm, the final norm as
    // enc.output_norm, no output head; per layer attn_norm, the fused QKV
    // (qkv), the output projection (wo), ffn_norm, w12 as one ffn_up of
    // twice the MLP's width, w3 as ffn_down; no biases.
    add("enc.output_norm.weight", {e}, -1);
    for (int i = 0; i < s.layers; ++i) {
      const std::string b = "blk." + std::to_string(i) + ".";
      add(b + "attn_norm.weight", {e}, i);
      add(b + "attn_qkv.weight", {e, q + 2 * kv}, i);
      add(b + "attn_output.weight", {q, e}, i);
      add(b + "ffn_norm.weight", {e}, i);
      add(b + "ffn_up.weight", {e, 2 * s.ffn}, i);
      add(b + "ffn_down.weight", {s.ffn, e}, i);
    }
    return out;
  }
  if (s.arch == "nomic-bert" || s.arch == "nomic-bert-moe" || s.arch == "jina-bert-v2" ||
      s.arch == "jina-bert-v3" || s.arch == "bert") {
    // bert.cpp (BERT: the position table, q, k, v, the output projection,
    // up and down with biases, two token types) and its kin (load_arch_tensors of nomic-bert.cpp
    // and jina-bert-v2.cpp): token types and the embeddings' LayerNorm, no position table (RoPE;
    // ALiBi), no final norm, no output head; per layer the attention, its output projection, a
    // LayerNorm after attention, the MLP, a LayerNorm after the MLP. nomic-bert: a fused QKV and
    // the output projection without biases, SwiGLU. jina-bert-v2 (as conversion/bert.py maps
    // JinaBertModel's weights): Q, K, V and the output projection with biases; mlp.gated_layers as
    // one ffn_up of twice the MLP's width (no bias), mlp.wo as ffn_down with its bias.
    // nomic-bert-moe (nomic-bert-moe.cpp, as conversion/bert.py maps
    // NomicBertModel's MoE weights): a fused QKV and the output projection
    // with biases; on layers il % 2 == 1 the router and the experts' up and
    // down (GELU, no gate; the experts' bias dropped), elsewhere up and down
    // with biases; one token type. jina-bert-v3 (jina-bert-v3.cpp, as
    // conversion/bert.py XLMRobertaModel maps mixer.Wqkv, out_proj, fc1 and
    // fc2): the MoE model's dense layer on every layer, one token type.
    const bool bert = s.arch == "bert";
    const bool jina = s.arch == "jina-bert-v2";
    const bool v3 = s.arch == "jina-bert-v3";
    if (bert) {
      add("position_embd.weight", {e, s.ctx_train}, -1);
    }
    const bool moe = s.arch == "nomic-bert-moe";
    add("token_types.weight", {e, moe || v3 ? 1 : 2}, -1);
    add("token_embd_norm.weight", {e}, -1);
    add("token_embd_norm.bias", {e}, -1);
    for (int i = 0; i < s.layers; ++i) {
      const std::string b = "blk." + std::to_string(i) + ".";
      if (jina || bert) {
        for (const auto& [name, rows] : {std::pair{"attn_q", q}, {"attn_k", kv}, {"attn_v", kv}}) {
          add(b + name + ".weight", {e, rows}, i);
          add(b + name + ".bias", {rows}, i);
        }
      } else {
        add(b + "attn_qkv.weight", {e, q + 2 * kv}, i);
        if (moe || v3) {
          add(b + "attn_qkv.bias", {q + 2 * kv}, i);
        }
      }
      add(b + "attn_output.weight", {q, e}, i);
      if (jina || moe || v3 || bert) {
        add(b + "attn_output.bias", {e}, i);
      }
      add(b + "attn_output_norm.weight", {e}, i);
      add(b + "attn_output_norm.bias", {e}, i);
      if (jina) {
        add(b + "ffn_up.weight", {e, 2 * s.ffn}, i);
        add(b + "ffn_down.weight", {s.ffn, e}, i);
        add(b + "ffn_down.bias", {e}, i);
      } else if (moe && i % 2 == 1) {
        add(b + "ffn_gate_inp.weight", {e, s.experts}, i);
        add(b + "ffn_up_exps.weight", {e, s.ffn, s.experts}, i);
        add(b + "ffn_down_exps.weight", {s.ffn, e, s.experts}, i);
      } else if (moe || v3 || bert) {
        add(b + "ffn_up.weight", {e, s.ffn}, i);
        add(b + "ffn_up.bias", {s.ffn}, i);
        add(b + "ffn_down.weight", {s.ffn, e}, i);
        add(b + "ffn_down.bias", {e}, i);
      } else {
        dense_mlp(b, i);
      }
      add(b + "layer_output_norm.weight", {e}, i);
      add(b + "layer_output_norm.bias", {e}, i);
    }
    return out;
  }
  // GPT-2's block (gpt2.cpp, starcoder.cpp, gptneox.cpp, codeshell.cpp and
  // bloom.cpp load_arch_tensors; jais.cpp's with a gate): LayerNorms with
  // biases, the fused QKV (hidden + 2 KV widths) and wo with biases, then
  // up, the gate when `gated`, and down, each with its bias.
  const auto gpt2_block = [&](int i, bool gated) {
    const std::string b = "blk." + std::to_string(i) + ".";
    add(b + "attn_norm.weight", {e}, i);
    add(b + "attn_norm.bias", {e}, i);
    add(b + "attn_qkv.weight", {e, q + 2 * kv}, i);
    add(b + "attn_qkv.bias", {q + 2 * kv}, i);
    add(b + "attn_output.weight", {q, e}, i);
    add(b + "attn_output.bias", {e}, i);
    add(b + "ffn_norm.weight", {e}, i);
    add(b + "ffn_norm.bias", {e}, i);
    add(b + "ffn_up.weight", {e, s.ffn}, i);
    add(b + "ffn_up.bias", {s.ffn}, i);
    if (gated) {
      add(b + "ffn_gate.weight", {e, s.ffn}, i);
      add(b + "ffn_gate.bias", {s.ffn}, i);
    }
    add(b + "ffn_down.weight", {s.ffn, e}, i);
    add(b + "ffn_down.bias", {e}, i);
  };
  if (s.arch == "starcoder" || s.arch == "gptneox" || s.arch == "codeshell" || s.arch == "bloom") {
    // starcoder.cpp load_arch_tensors (gpt2.cpp's too): the position table
    // (hidden x n_ctx_train), the final LayerNorm with bias, no output head
    // when tied; per layer LayerNorms with biases, the fused QKV (hidden +
    // 2 KV widths) and the output projection with biases, up and down with
    // biases (no gate). gptneox.cpp loads the same without the position
    // table (RoPE), its output head (embed_out) always.
    if (s.arch == "starcoder") {
      add("position_embd.weight", {e, s.ctx_train}, -1);
    }
    if (s.arch == "bloom") {
      // bloom.cpp: ALiBi, no position table; the token embeddings' LayerNorm
      add("token_embd_norm.weight", {e}, -1);
      add("token_embd_norm.bias", {e}, -1);
    }
    add("output_norm.weight", {e}, -1);
    add("output_norm.bias", {e}, -1);
    if (!s.tied) {
      add("output.weight", {e, s.vocab}, -1);
    }
    for (int i = 0; i < s.layers; ++i) {
      gpt2_block(i, false);
    }
    return out;
  }
  if (s.arch == "phi2" || s.arch == "starcoder2") {
    // phi2.cpp and starcoder2.cpp load_arch_tensors: the final LayerNorm
    // with bias, the output head (phi2.cpp's with a bias, required;
    // starcoder2.cpp's none when tied); per layer attn_norm with bias
    // (starcoder2.cpp: ffn_norm too), attn_q, attn_k, attn_v and
    // attn_output with biases, ffn_up and ffn_down with biases.
    add("output_norm.weight", {e}, -1);
    add("output_norm.bias", {e}, -1);
    if (!s.tied) {
      add("output.weight", {e, s.vocab}, -1);
    }
    if (s.arch == "phi2") {
      add("output.bias", {s.vocab}, -1);
    }
    for (int i = 0; i < s.layers; ++i) {
      const std::string b = "blk." + std::to_string(i) + ".";
      add(b + "attn_norm.weight", {e}, i);
      add(b + "attn_norm.bias", {e}, i);
      for (const auto& [name, rows] : {std::pair{"attn_q", q}, {"attn_k", kv}, {"attn_v", kv}}) {
        add(b + name + ".weight", {e, rows}, i);
        add(b + name + ".bias", {rows}, i);
      }
      add(b + "attn_output.weight", {q, e}, i);
      add(b + "attn_output.bias", {e}, i);
      if (s.arch == "starcoder2") {
        add(b + "ffn_norm.weight", {e}, i);
        add(b + "ffn_norm.bias", {e}, i);
      }
      add(b + "ffn_up.weight", {e, s.ffn}, i);
      add(b + "ffn_up.bias", {s.ffn}, i);
      add(b + "ffn_down.weight", {s.ffn, e}, i);
      add(b + "ffn_down.bias", {e}, i);
    }
    return out;
  }
  if (s.arch == "falcon") {
    // falcon.cpp load_arch_tensors: the final LayerNorm with bias, the
    // output head when not tied; per layer attn_norm with bias (and
    // attn_norm_2 with bias on the 40B and 180B), attn_qkv (hidden + 2 KV
    // widths) and attn_output without biases, ffn_up and ffn_down without
    // biases.
    add("output_norm.weight", {e}, -1);
    add("output_norm.bias", {e}, -1);
    if (!s.tied) {
      add("output.weight", {e, s.vocab}, -1);
    }
    for (int i = 0; i < s.layers; ++i) {
      const std::string b = "blk." + std::to_string(i) + ".";
      add(b + "attn_norm.weight", {e}, i);
      add(b + "attn_norm.bias", {e}, i);
      if (s.falcon_norm_2) {
        add(b + "attn_norm_2.weight", {e}, i);
        add(b + "attn_norm_2.bias", {e}, i);
      }
      add(b + "attn_qkv.weight", {e, q + 2 * kv}, i);
      add(b + "attn_output.weight", {q, e}, i);
      add(b + "ffn_up.weight", {e, s.ffn}, i);
      add(b + "ffn_down.weight", {s.ffn, e}, i);
    }
    return out;
  }
  if (s.arch == "jais") {
    // jais.cpp load_arch_tensors: the final LayerNorm with bias and the
    // output head (both required); per layer LayerNorms with biases, the
    // fused QKV and wo with biases, up, gate and down with biases.
    add("output_norm.weight", {e}, -1);
    add("output_norm.bias", {e}, -1);
    add("output.weight", {e, s.vocab}, -1);
    for (int i = 0; i < s.layers; ++i) {
      gpt2_block(i, true);
    }
    return out;
  }
  if (s.arch == "mpt") {
    // mpt.cpp load_arch_tensors: every bias optional, and MPT-7B has none
    // (no_bias): the final LayerNorm's weight, no output head when tied; per
    // layer two LayerNorm weights, the fused QKV, wo, up and down.
    add("output_norm.weight", {e}, -1);
    if (!s.tied) {
      add("output.weight", {e, s.vocab}, -1);
    }
    for (int i = 0; i < s.layers; ++i) {
      const std::string b = "blk." + std::to_string(i) + ".";
      add(b + "attn_norm.weight", {e}, i);
      add(b + "attn_qkv.weight", {e, q + 2 * kv}, i);
      add(b + "attn_output.weight", {q, e}, i);
      add(b + "ffn_norm.weight", {e}, i);
      add(b + "ffn_up.weight", {e, s.ffn}, i);
      add(b + "ffn_down.weight", {s.ffn, e}, i);
    }
    return out;
  }
  if (s.arch == "qwen4exp") {
    // qwen4exp.cpp: no output_norm, the final mixer stands for it; the
    // n-gram table, padded to 128 rows (vLLM Qwen4ExpPLEEmbedding)
    const int64_t wide = s.hc_mult * e;
    add("output_hc_norm.weight", {wide}, -1);
    add("output_hc_down.weight", {wide, s.hc_low_rank}, -1);
    add("output_hc_up.weight", {s.hc_low_rank, wide}, -1);
    uint64_t rows = 0;
    for (const uint64_t n : ple_head_sizes(s.ple_base, (s.ple_ngram - 1) * s.ple_per_ngram)) {
      rows += n;
    }
    add("per_layer_token_embd.weight",
        {s.ple_width, static_cast<int64_t>((rows + 127) / 128 * 128)}, -1);
  } else {
    // LFM2 names its final norm token_embd_norm (llama-arch.cpp LLM_TENSOR_OUTPUT_NORM_LFM2).
    add(s.arch == "lfm2" ? "token_embd_norm.weight" : "output_norm.weight", {e}, -1);
  }
  if (!s.tied) {
    add("output.weight", {e, s.head_rows > 0 ? s.head_rows : s.vocab}, -1);
  }
  if (s.arch == "phimoe") {  // phimoe.cpp: the final norm's and the output's biases
    add("output_norm.bias", {e}, -1);
    add("output.bias", {s.vocab}, -1);
  }
  if (s.arch == "nemotron" || s.arch == "orion" || s.arch == "jais2" ||
      s.arch == "pockettts") {         // the final
    add("output_norm.bias", {e}, -1);  // LayerNorm's bias
  }
  if (s.hc_mult > 0 &&
      s.arch == "deepseek4") {  // deepseek4.cpp: the output's hyper-connection head
    add("output_hc_fn.weight", {s.hc_mult * e, s.hc_mult}, -1);
    add("output_hc_base.weight", {s.hc_mult}, -1);
    add("output_hc_scale.weight", {1}, -1);
  }
  // Mamba-2 (nemotron-h.cpp, granite-hybrid.cpp): in_proj, conv, dt, A, D, norm, out_proj
  const auto mamba2 = [&](const std::string& b, int i) {
    const int64_t conv_dim = s.ssm_inner + 2 * s.ssm_groups * s.ssm_state;
    add(b + "ssm_in.weight", {e, 2 * s.ssm_inner + 2 * s.ssm_groups * s.ssm_state + s.ssm_heads},
        i);
    add(b + "ssm_conv1d.weight", {s.ssm_conv, conv_dim}, i);
    add(b + "ssm_conv1d.bias", {conv_dim}, i);
    add(b + "ssm_dt.bias", {s.ssm_heads}, i);
    add(b + "ssm_a", {1, s.ssm_heads}, i);
    add(b + "ssm_d", {1, s.ssm_heads}, i);
    add(b + "ssm_norm.weight", {s.ssm_inner / s.ssm_groups, s.ssm_groups}, i);
    add(b + "ssm_out.weight", {s.ssm_inner, e}, i);
  };
  // MLA's latent path and output (deepseek2.cpp and its kin, k_b/v_b split
  // as converted today): the joint KV projection, k_b, v_b, the output.
  const auto mla_kv_out = [&](const std::string& b, int i) {
    add(b + "attn_kv_a_mqa.weight", {e, s.kv_lora + s.rope_dim}, i);
    add(b + "attn_k_b.weight", {s.nope_dim, s.kv_lora, s.heads}, i);
    add(b + "attn_v_b.weight", {s.kv_lora, s.v_dim, s.heads}, i);
    add(b + "attn_output.weight", {s.heads * s.v_dim, e}, i);
  };
  // DeepSeek Sparse Attention's lightning indexer (deepseek32.cpp,
  // glm-dsa.cpp, dots3note.cpp): its k norm with a bias, the weights
  // projection (kept F32 by the converter), k, and q_b from the compressed
  // queries.
  const auto dsa_indexer = [&](const std::string& b, int i) {
    add(b + "indexer.k_norm.weight", {s.index_head_dim}, i);
    add(b + "indexer.k_norm.bias", {s.index_head_dim}, i);
    add(b + "indexer.proj.weight", {e, s.index_heads}, i);
    add(b + "indexer.attn_k.weight", {e, s.index_head_dim}, i);
    add(b + "indexer.attn_q_b.weight", {s.q_lora, s.index_heads * s.index_head_dim}, i);
  };
  // DeepSeek's MLP (kimi-linear.cpp, deepseek32.cpp, glm-dsa.cpp): a dense
  // one on the leading layers, else routed experts and a shared expert, the
  // router's bias last (a file ending in a repacked Q4_K tensor would leave
  // it out of llama.cpp's mapped range: CPU_Mapped spans the first to the
  // last tensor it keeps).
  const auto deepseek_ffn = [&](const std::string& b, int i) {
    if (i < s.dense_lead) {
      add(b + "ffn_gate.weight", {e, s.ffn}, i);
      add(b + "ffn_down.weight", {s.ffn, e}, i);
      add(b + "ffn_up.weight", {e, s.ffn}, i);
      return;
    }
    const int64_t f = s.expert_ffn;
    add(b + "ffn_gate_inp.weight", {e, s.experts}, i);
    add(b + "ffn_gate_exps.weight", {e, f, s.experts}, i);
    add(b + "ffn_down_exps.weight", {f, e, s.experts}, i);
    add(b + "ffn_up_exps.weight", {e, f, s.experts}, i);
    add(b + "ffn_gate_shexp.weight", {e, f * s.shared_experts}, i);
    add(b + "ffn_down_shexp.weight", {f * s.shared_experts, e}, i);
    add(b + "ffn_up_shexp.weight", {e, f * s.shared_experts}, i);
    add(b + "exp_probs_b.bias", {s.experts}, i);
  };
  // Kimi Delta Attention as conversion/kimi_linear.py and kimi_k3.py write
  // it: the convolutions [d_conv, 1, d_inner] (3-D: quantisation drops the
  // trailing 1), q, k, v, the decay gate's f_a/f_b, beta, A (-exp(A_log);
  // [1, heads] in Kimi Linear, [heads] in K3), dt bias, the output gate (Kimi
  // Linear's g_a/g_b, K3's full-rank ssm_g), its norm, o.
  const auto kda_tensors = [&](const std::string& b, int i) {
    const int64_t d = s.kda_head_dim;
    const int64_t inner = d * s.heads;
    const bool k3 = s.arch == "kimi-k3";
    for (const char* c : {"q", "k", "v"}) {
      add(b + "ssm_conv1d_" + c + ".weight", {s.kda_conv, 1, inner}, i);
    }
    add(b + "attn_q.weight", {e, inner}, i);
    add(b + "attn_k.weight", {e, inner}, i);
    add(b + "attn_v.weight", {e, inner}, i);
    add(b + "ssm_f_a.weight", {e, d}, i);
    add(b + "ssm_f_b.weight", {d, inner}, i);
    add(b + "ssm_beta.weight", {e, s.heads}, i);
    add(b + "ssm_a", k3 ? std::vector<int64_t>{s.heads} : std::vector<int64_t>{1, s.heads}, i);
    add(b + "ssm_dt.bias", {inner}, i);
    if (k3) {
      add(b + "ssm_g.weight", {e, inner}, i);
    } else {
      add(b + "ssm_g_a.weight", {e, d}, i);
      add(b + "ssm_g_b.weight", {d, inner}, i);
    }
    add(b + "ssm_norm.weight", {d}, i);
    add(b + "attn_output.weight", {inner, e}, i);
  };
  if (s.res_block > 0) {  // kimi-k3.cpp: the final mix of the residual checkpoints
    add("output_res_score.weight", {e}, -1);
  }
  if (s.arch == "gemma4" && s.per_layer_width > 0) {  // gemma4.cpp: the per-layer embeddings
    const int64_t ple = s.per_layer_width * s.layers;
    add("per_layer_token_embd.weight", {ple, s.vocab}, -1);
    add("per_layer_model_proj.weight", {e, ple}, -1);
    add("per_layer_proj_norm.weight", {s.per_layer_width}, -1);
  }
  if (s.arch == "gemma3n") {  // gemma3n.cpp load_arch_tensors: the model-wide AltUp and PLE
    const int64_t ple = s.per_layer_width * s.layers;
    add("altup_proj.weight", {e, e, s.altup_inputs - 1}, -1);
    add("altup_unembd_proj.weight", {e, e, s.altup_inputs - 1}, -1);
    add("per_layer_token_embd.weight", {ple, s.vocab}, -1);
    add("per_layer_model_proj.weight", {e, ple}, -1);
    add("per_layer_proj_norm.weight", {s.per_layer_width}, -1);
  }
  if (!s.deci.empty() && s.arch == "deci") {
    // conversion/deci.py generate_extra_tensors: the llama3 RoPE factors
    add("rope_freqs.weight", {s.head_dim / 2}, -1);
  }
  for (int i = 0; i < s.layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    const char kind = layer_kind(s, i);
    if (s.arch == "plamo") {
      // plamo.cpp load_arch_tensors at 80fb11ac: one norm, q, k, v, o, and
      // the MLP's gate, down and up
      add(b + "attn_norm.weight", {e}, i);
      add(b + "attn_q.weight", {e, q}, i);
      add(b + "attn_k.weight", {e, kv}, i);
      add(b + "attn_v.weight", {e, kv}, i);
      add(b + "attn_output.weight", {q, e}, i);
      dense_mlp(b, i);
      continue;
    }
    if (s.arch == "plamo2") {
      // plamo2.cpp load_arch_tensors at 80fb11ac: the mixer ('P') or
      // attention, then the post-norms and the MLP on every layer; the
      // post-norms and the mixer's norms are named without ".weight".
      add(b + "attn_norm.weight", {e}, i);
      if (kind == 'P') {
        const int64_t d = s.ssm_inner;
        const int64_t dt_dim = std::max<int64_t>(64, e / 16);
        add(b + "ssm_in.weight", {e, 2 * d}, i);
        add(b + "ssm_conv1d.weight", {s.ssm_conv, d}, i);
        add(b + "ssm_x.weight", {d, dt_dim + 2 * s.ssm_state}, i);
        add(b + "ssm_dt.weight", {dt_dim, s.ssm_heads}, i);
        add(b + "ssm_dt.bias", {s.ssm_heads}, i);
        add(b + "ssm_a", {s.ssm_heads}, i);
        add(b + "ssm_d", {s.ssm_heads}, i);
        add(b + "ssm_out.weight", {d, e}, i);
        add(b + "ssm_dt_norm", {dt_dim}, i);
        add(b + "ssm_b_norm", {s.ssm_state}, i);
        add(b + "ssm_c_norm", {s.ssm_state}, i);
      } else {
        add(b + "attn_qkv.weight", {e, q + 2 * kv}, i);
        add(b + "attn_q_norm.weight", {s.head_dim, s.heads}, i);
        add(b + "attn_k_norm.weight", {s.head_dim, s.kv_heads}, i);
        add(b + "attn_output.weight", {q, e}, i);
      }
      add(b + "post_attention_norm", {e}, i);
      add(b + "ffn_norm.weight", {e}, i);
      add(b + "ffn_down.weight", {s.ffn, e}, i);
      add(b + "ffn_up.weight", {e, 2 * s.ffn}, i);
      add(b + "post_ffw_norm", {e}, i);
      continue;
    }
    if (s.arch == "grovemoe") {
      // grovemoe.cpp load_arch_tensors at 80fb11ac: qwen3moe's layer and the
      // adjugate experts (ffn_*_chexps), written before the routed ones so
      // the file ends on ffn_down_exps as qwen3moe's rows do
      add(b + "attn_norm.weight", {e}, i);
      add(b + "attn_q.weight", {e, q}, i);
      add(b + "attn_k.weight", {e, kv}, i);
      add(b + "attn_v.weight", {e, kv}, i);
      add(b + "attn_output.weight", {q, e}, i);
      add(b + "attn_k_norm.weight", {s.head_dim}, i);
      add(b + "attn_q_norm.weight", {s.head_dim}, i);
      add(b + "ffn_norm.weight", {e}, i);
      const int64_t groups = s.experts / s.experts_per_group;
      add(b + "ffn_gate_chexps.weight", {e, s.chunk_ffn, groups}, i);
      add(b + "ffn_up_chexps.weight", {e, s.chunk_ffn, groups}, i);
      add(b + "ffn_down_chexps.weight", {s.chunk_ffn, e, groups}, i);
      routed_experts(b, i);
      continue;
    }
    if (s.arch == "plamo3") {
      // plamo3.cpp load_arch_tensors at 80fb11ac: one attn_qkv, one Q and
      // one K norm of head_dim, the post-norms named without ".weight",
      // gate and up in one ffn_up
      add(b + "attn_norm.weight", {e}, i);
      add(b + "attn_qkv.weight", {e, q + 2 * kv}, i);
      add(b + "attn_q_norm.weight", {s.head_dim}, i);
      add(b + "attn_k_norm.weight", {s.head_dim}, i);
      add(b + "attn_output.weight", {q, e}, i);
      add(b + "post_attention_norm", {e}, i);
      add(b + "ffn_norm.weight", {e}, i);
      add(b + "post_ffw_norm", {e}, i);
      add(b + "ffn_up.weight", {e, 2 * s.ffn}, i);
      add(b + "ffn_down.weight", {s.ffn, e}, i);
      continue;
    }
    if (s.arch == "chatglm") {  // chatglm.cpp load_arch_tensors (conversion/chatglm.py names)
      add(b + "attn_norm.weight", {e}, i);
      add(b + "attn_qkv.weight", {e, q + 2 * kv}, i);
      add(b + "attn_qkv.bias", {q + 2 * kv}, i);
      add(b + "attn_output.weight", {q, e}, i);
      add(b + "ffn_norm.weight", {e}, i);
      add(b + "ffn_up.weight", {e, 2 * s.ffn}, i);  // dense_h_to_4h: gate and up
      add(b + "ffn_down.weight", {s.ffn, e}, i);
      continue;
    }
    if (s.arch == "qwen") {  // qwen.cpp load_arch_tensors (c_attn: attn_qkv and its bias)
      add(b + "attn_norm.weight", {e}, i);
      add(b + "attn_qkv.weight", {e, 3 * e}, i);
      add(b + "attn_qkv.bias", {3 * e}, i);
      add(b + "attn_output.weight", {e, e}, i);
      add(b + "ffn_norm.weight", {e}, i);
      // in the checkpoint's order (mlp.w1, w2, c_proj: gguf-py's tensor_mapping
      // maps them to ffn_up, ffn_gate, ffn_down), so ffn_down ends the file as in
      // the other rows: a repacked Q4_K ffn_up last would shorten the mapping
      add(b + "ffn_up.weight", {e, s.ffn}, i);
      add(b + "ffn_gate.weight", {e, s.ffn}, i);
      add(b + "ffn_down.weight", {s.ffn, e}, i);
      continue;
    }
    if (!s.deci.empty() && s.arch == "openelm") {  // openelm.cpp load_arch_tensors
      const Spec::DeciLayer& l = s.deci[static_cast<size_t>(i)];
      add(b + "attn_norm.weight", {e}, i);
      add(b + "attn_qkv.weight", {e, s.head_dim * (l.heads + 2 * l.kv_heads)}, i);
      add(b + "attn_q_norm.weight", {s.head_dim}, i);
      add(b + "attn_k_norm.weight", {s.head_dim}, i);
      add(b + "attn_output.weight", {s.head_dim * l.heads, e}, i);
      add(b + "ffn_norm.weight", {e}, i);
      add(b + "ffn_gate.weight", {e, l.ffn}, i);
      add(b + "ffn_up.weight", {e, l.ffn}, i);
      add(b + "ffn_down.weight", {l.ffn, e}, i);
      continue;
    }
    if (!s.deci.empty()) {  // deci.cpp load_arch_tensors
      const Spec::DeciLayer& l = s.deci[static_cast<size_t>(i)];
      if (l.heads > 0) {
        add(b + "attn_norm.weight", {e}, i);
      }
      if (l.heads > 0 && l.kv_heads == 0) {
        add(b + "attn_output.weight", {e, e}, i);
      } else if (l.heads > 0) {
        add(b + "attn_q.weight", {e, s.head_dim * l.heads}, i);
        add(b + "attn_k.weight", {e, s.head_dim * l.kv_heads}, i);
        add(b + "attn_v.weight", {e, s.head_dim * l.kv_heads}, i);
        add(b + "attn_output.weight", {s.head_dim * l.heads, e}, i);
      }
      if (l.ffn > 0) {
        add(b + "ffn_norm.weight", {e}, i);
        add(b + "ffn_gate.weight", {e, l.ffn}, i);
        add(b + "ffn_up.weight", {e, l.ffn}, i);
        add(b + "ffn_down.weight", {l.ffn, e}, i);
      }
      continue;
    }
    if (s.arch == "qwen4exp") {  // qwen4exp.cpp load_arch_tensors: no norms but the mixers'
      const int64_t hc = s.hc_mult;
      const int64_t wide = hc * e;
      for (const char* m : {"attn", "ffn"}) {
        const std::string h = b + "hc_" + m;
        add(h + "_norm.weight", {wide}, i);
        add(h + "_down.weight", {wide, s.hc_low_rank}, i);
        add(h + "_up.weight", {s.hc_low_rank, wide}, i);
        add(h + "_inject.weight", {wide, hc}, i);
      }
      if (kind == 'D') {
        const int64_t key_dim = s.ssm_groups * s.ssm_state;
        const int64_t conv_dim = 2 * key_dim + s.ssm_inner;
        add(b + "attn_qkv.weight", {e, conv_dim}, i);
        add(b + "attn_gate.weight", {e, s.ssm_inner}, i);
        add(b + "ssm_conv1d.weight", {s.ssm_conv, conv_dim}, i);
        add(b + "ssm_dt.bias", {s.ssm_heads}, i);
        add(b + "ssm_a", {s.ssm_heads}, i);
        add(b + "ssm_beta.weight", {e, s.ssm_heads}, i);
        add(b + "ssm_alpha.weight", {e, s.ssm_heads}, i);
        add(b + "ssm_norm.weight", {s.ssm_state}, i);
        add(b + "ssm_out.weight", {s.ssm_inner, e}, i);
      } else {
        add(b + "attn_q.weight", {e, 2 * q}, i);
        add(b + "attn_k.weight", {e, kv}, i);
        add(b + "attn_v.weight", {e, kv}, i);
        add(b + "attn_output.weight", {q, e}, i);
        add(b + "attn_q_norm.weight", {s.head_dim}, i);
        add(b + "attn_k_norm.weight", {s.head_dim}, i);
        add(b + "indexer.q_proj.weight", {e, s.indexer_heads * s.indexer_dim}, i);
        add(b + "indexer.k_proj.weight", {e, s.indexer_dim}, i);
        add(b + "indexer.q_norm.weight", {s.indexer_dim}, i);
        add(b + "indexer.k_norm.weight", {s.indexer_dim}, i);
      }
      if (i == s.ple_layer) {
        add(b + "ple_key.weight", {e, wide}, i);
        add(b + "ple_value.weight", {e, e}, i);
        add(b + "ple_norm_key.weight", {wide}, i);
        add(b + "ple_norm_query.weight", {wide}, i);
        add(b + "ple_norm_conv.weight", {wide}, i);
        add(b + "ple_conv1d.weight", {s.ple_conv, wide}, i);
      }
      routed_experts(b, i);
      add(b + "ffn_gate_inp_shexp.weight", {e}, i);
      shared_expert(b, i);
      continue;
    }
    if (s.arch == "mamba2") {  // mamba2.cpp: the mixer alone
      mamba2(b, i);
      // the norm last: llama.cpp's CPU_Mapped buffer spans the file from its
      // first to its last mapped tensor, so a repacked Q4_K ssm_out at the
      // very end would drop out of the logged size
      add(b + "attn_norm.weight", {e}, i);
      continue;
    }
    add(b + "attn_norm.weight", {e}, i);
    if (s.arch == "mamba") {  // mamba.cpp: the Mamba-1 mixer alone, no dt/B/C norm weights
      const int64_t d = s.ssm_inner;
      add(b + "ssm_in.weight", {e, 2 * d}, i);
      add(b + "ssm_conv1d.weight", {s.ssm_conv, d}, i);
      add(b + "ssm_conv1d.bias", {d}, i);
      add(b + "ssm_x.weight", {d, s.ssm_dt_rank + 2 * s.ssm_state}, i);
      add(b + "ssm_dt.weight", {s.ssm_dt_rank, d}, i);
      add(b + "ssm_dt.bias", {d}, i);
      add(b + "ssm_a", {s.ssm_state, d}, i);
      add(b + "ssm_out.weight", {d, e}, i);
      add(b + "ssm_d", {d}, i);  // last, for the mapped span (above)
      continue;
    }
    if (s.arch == "falcon-h1") {  // falcon-h1.cpp: attention and Mamba-2 in every layer
      const int64_t conv_dim = s.ssm_inner + 2 * s.ssm_groups * s.ssm_state;
      add(b + "ssm_in.weight", {e, s.ssm_inner + conv_dim + s.ssm_heads}, i);
      add(b + "ssm_conv1d.weight", {s.ssm_conv, conv_dim}, i);
      add(b + "ssm_conv1d.bias", {conv_dim}, i);
      add(b + "ssm_dt.bias", {s.ssm_heads}, i);
      add(b + "ssm_a", {1, s.ssm_heads}, i);
      add(b + "ssm_d", {1, s.ssm_heads}, i);
      add(b + "ssm_out.weight", {s.ssm_inner, e}, i);
      add(b + "attn_q.weight", {e, q}, i);
      add(b + "attn_k.weight", {e, kv}, i);
      add(b + "attn_v.weight", {e, kv}, i);
      add(b + "attn_output.weight", {q, e}, i);
      add(b + "ffn_norm", {e}, i);  // the loader asks for it without ".weight"
      add(b + "ffn_gate.weight", {e, s.ffn}, i);
      add(b + "ffn_up.weight", {e, s.ffn}, i);
      add(b + "ffn_down.weight", {s.ffn, e}, i);
      continue;
    }
    if (s.arch == "gemma4") {  // gemma4.cpp load_arch_tensors
      const bool global = (i + 1) % s.swa_period == 0;
      const int64_t hd = global ? s.global_head_dim : s.head_dim;
      const int64_t kvw = hd * (global ? s.global_kv_heads : s.kv_heads);
      // The last kv_shared_layers read earlier layers' KV: Q only.
      const bool own_kv = i < s.layers - s.kv_shared_layers;
      add(b + "attn_q.weight", {e, hd * s.heads}, i);
      if (own_kv) {
        add(b + "attn_k.weight", {e, kvw}, i);
        if (!global || !s.global_k_eq_v) {
          add(b + "attn_v.weight", {e, kvw}, i);
        }
      }
      add(b + "attn_output.weight", {hd * s.heads, e}, i);
      add(b + "attn_q_norm.weight", {hd}, i);
      if (own_kv) {
        add(b + "attn_k_norm.weight", {hd}, i);
      }
      add(b + "post_attention_norm.weight", {e}, i);
      add(b + "layer_output_scale.weight", {1}, i);
      if (global && i + 1 == s.swa_period) {  // one rope_freqs, shared by the global layers
        add("rope_freqs.weight", {s.global_head_dim / 2}, -1);
      }
      const int64_t ffn = gemma4_ffn(s, i);
      add(b + "ffn_norm.weight", {e}, i);
      add(b + "ffn_gate.weight", {e, ffn}, i);
      add(b + "ffn_up.weight", {e, ffn}, i);
      add(b + "ffn_down.weight", {ffn, e}, i);
      add(b + "post_ffw_norm.weight", {e}, i);
      if (s.per_layer_width > 0) {
        add(b + "inp_gate.weight", {e, s.per_layer_width}, i);
        add(b + "proj.weight", {s.per_layer_width, e}, i);
        add(b + "post_norm.weight", {e}, i);
      }
      if (s.experts > 0) {
        add(b + "ffn_gate_inp.weight", {e, s.experts}, i);
        add(b + "ffn_gate_inp.scale", {e}, i);
        add(b + "pre_ffw_norm_2.weight", {e}, i);
        add(b + "post_ffw_norm_1.weight", {e}, i);
        add(b + "post_ffw_norm_2.weight", {e}, i);
        add(b + "ffn_gate_up_exps.weight", {e, 2 * s.expert_ffn, s.experts}, i);
        add(b + "ffn_down_exps.weight", {s.expert_ffn, e, s.experts}, i);
        add(b + "ffn_down_exps.scale", {s.experts}, i);
      }
      continue;
    }
    if (s.arch == "gemma3n") {  // every layer carries Q/K/V, shared-KV layers included
      add(b + "attn_q.weight", {e, q}, i);
      add(b + "attn_k.weight", {e, kv}, i);
      add(b + "attn_v.weight", {e, kv}, i);
      add(b + "attn_output.weight", {q, e}, i);
      add(b + "attn_q_norm.weight", {s.head_dim}, i);
      add(b + "attn_k_norm.weight", {s.head_dim}, i);
      add(b + "post_attention_norm.weight", {e}, i);
      add(b + "ffn_norm.weight", {e}, i);
      add(b + "ffn_gate.weight", {e, s.ffn}, i);
      add(b + "ffn_up.weight", {e, s.ffn}, i);
      add(b + "ffn_down.weight", {s.ffn, e}, i);
      add(b + "post_ffw_norm.weight", {e}, i);
      add(b + "inp_gate.weight", {e, s.per_layer_width}, i);
      add(b + "proj.weight", {s.per_layer_width, e}, i);
      add(b + "post_norm.weight", {e}, i);
      add(b + "altup_correct_coef.weight", {s.altup_inputs, s.altup_inputs}, i);
      add(b + "altup_correct_scale.weight", {e}, i);
      add(b + "altup_predict_coef.weight", {s.altup_inputs, s.altup_inputs * s.altup_inputs}, i);
      add(b + "altup_router.weight", {e, s.altup_inputs}, i);
      add(b + "altup_router_norm.weight", {e}, i);
      add(b + "laurel_l.weight", {e, s.laurel_rank}, i);
      add(b + "laurel_r.weight", {s.laurel_rank, e}, i);
      add(b + "laurel_post_norm.weight", {e}, i);
      continue;
    }
    if (s.arch == "qwen3next" || s.arch == "qwen35") {  // qwen3next.cpp / qwen35.cpp
      add(b + "post_attention_norm.weight", {e}, i);
      if (kind == 'D') {
        // Gated delta net, as conversion/qwen.py writes it: in_proj_qkvz split
        // into attn_qkv (q, k of groups x d_state, v of d_inner) and the
        // output gate z (attn_gate); beta and alpha, one row per value head:
        // one ssm_ba tensor (qwen3next.cpp) or ssm_beta and ssm_alpha
        // (qwen35.cpp load_block_trunk).
        const int64_t key_dim = s.ssm_groups * s.ssm_state;
        const int64_t conv_dim = 2 * key_dim + s.ssm_inner;
        add(b + "attn_qkv.weight", {e, conv_dim}, i);
        add(b + "attn_gate.weight", {e, s.ssm_inner}, i);
        add(b + "ssm_conv1d.weight", {s.ssm_conv, conv_dim}, i);
        add(b + "ssm_dt.bias", {s.ssm_heads}, i);
        add(b + "ssm_a", {s.ssm_heads}, i);
        if (s.arch == "qwen35") {
          add(b + "ssm_beta.weight", {e, s.ssm_heads}, i);
          add(b + "ssm_alpha.weight", {e, s.ssm_heads}, i);
        } else {
          add(b + "ssm_ba.weight", {e, 2 * s.ssm_heads}, i);
        }
        add(b + "ssm_norm.weight", {s.ssm_state}, i);
        add(b + "ssm_out.weight", {s.ssm_inner, e}, i);
      } else {  // gated attention: Q and its gate in one projection
        add(b + "attn_q.weight", {e, 2 * q}, i);
        add(b + "attn_k.weight", {e, kv}, i);
        add(b + "attn_v.weight", {e, kv}, i);
        add(b + "attn_output.weight", {q, e}, i);
        add(b + "attn_q_norm.weight", {s.head_dim}, i);
        add(b + "attn_k_norm.weight", {s.head_dim}, i);
      }
      if (s.arch == "qwen35") {  // a dense MLP
        dense_mlp(b, i);
        continue;
      }
      routed_experts(b, i);
      add(b + "ffn_gate_inp_shexp.weight", {e}, i);  // the shared expert's sigmoid gate
      shared_expert(b, i);
      continue;
    }
    if (s.arch == "deepseek4") {  // deepseek4.cpp load_arch_tensors
      const int64_t hd = s.head_dim;
      const int64_t hc = s.hc_mult;
      const int64_t mix = (2 + hc) * hc;
      add(b + "attn_sinks.weight", {s.heads}, i);
      add(b + "attn_q_a.weight", {e, s.q_lora}, i);
      add(b + "attn_q_a_norm.weight", {s.q_lora}, i);
      add(b + "attn_q_b.weight", {s.q_lora, s.heads * hd}, i);
      add(b + "attn_kv.weight", {e, hd}, i);
      add(b + "attn_kv_a_norm.weight", {hd}, i);
      // wo_a as the file holds it: one 2-D matrix the loader reshapes per group
      add(b + "attn_output_a.weight", {s.heads * hd / s.o_groups, s.o_lora * s.o_groups}, i);
      add(b + "attn_output_b.weight", {s.o_groups * s.o_lora, e}, i);
      const char ratio = s.compress_layers[static_cast<size_t>(i)];
      if (ratio != 'S') {  // 'C' (4) overlaps two windows: twice the width
        const int64_t coff = ratio == 'C' ? 2 : 1;
        const int64_t r = ratio == 'C' ? 4 : 128;
        add(b + "attn_compressor_kv.weight", {e, coff * hd}, i);
        add(b + "attn_compressor_gate.weight", {e, coff * hd}, i);
        add(b + "attn_compressor_ape.weight", {coff * hd, r}, i);
        add(b + "attn_compressor_norm.weight", {hd}, i);
        if (ratio == 'C') {  // the lightning indexer
          add(b + "indexer.proj.weight", {e, s.index_heads}, i);
          add(b + "indexer.attn_q_b.weight", {s.q_lora, s.index_heads * s.index_head_dim}, i);
          add(b + "indexer_compressor_kv.weight", {e, 2 * s.index_head_dim}, i);
          add(b + "indexer_compressor_gate.weight", {e, 2 * s.index_head_dim}, i);
          add(b + "indexer_compressor_ape.weight", {2 * s.index_head_dim, r}, i);
          add(b + "indexer_compressor_norm.weight", {s.index_head_dim}, i);
        }
      }
      add(b + "ffn_gate_inp.weight", {e, s.experts}, i);
      if (i < s.hash_layers) {  // hash routing: a token's experts from a table
        add(b + "ffn_gate_tid2eid.weight", {s.experts_used, s.vocab}, i);
      } else {
        add(b + "exp_probs_b.bias", {s.experts}, i);
      }
      add(b + "ffn_norm.weight", {e}, i);
      const int64_t f = s.expert_ffn;
      add(b + "ffn_gate_exps.weight", {e, f, s.experts}, i);
      add(b + "ffn_down_exps.weight", {f, e, s.experts}, i);
      add(b + "ffn_up_exps.weight", {e, f, s.experts}, i);
      add(b + "ffn_gate_shexp.weight", {e, f * s.shared_experts}, i);
      add(b + "ffn_down_shexp.weight", {f * s.shared_experts, e}, i);
      add(b + "ffn_up_shexp.weight", {e, f * s.shared_experts}, i);
      // The hyper-connection tensors (F32) last: the file then ends on a
      // tensor the CPU backend does not repack, so llama.cpp's mapping spans
      // every tensor and the harness's mapped-bytes check holds for Q4_K_M.
      for (const char* part : {"attn", "ffn"}) {
        add(b + "hc_" + part + "_fn.weight", {hc * e, mix}, i);
        add(b + "hc_" + part + "_base.weight", {mix}, i);
        add(b + "hc_" + part + "_scale.weight", {3}, i);
      }
      continue;
    }
    if (s.arch == "kimi-linear") {  // kimi-linear.cpp load_arch_tensors
      if (kind == 'K') {
        kda_tensors(b, i);
      } else {  // MLA without query compression, k_b/v_b split (MLA KV cache)
        add(b + "attn_kv_a_norm.weight", {s.kv_lora}, i);
        add(b + "attn_q.weight", {e, s.heads * (s.nope_dim + s.rope_dim)}, i);
        mla_kv_out(b, i);
      }
      add(b + "ffn_norm.weight", {e}, i);
      deepseek_ffn(b, i);
      continue;
    }
    if (s.arch == "bailingmoe3") {  // bailingmoe3.cpp load_arch_tensors (the trunk)
      const int64_t inner = s.kda_head_dim * s.heads;
      if (kind == 'K') {  // KDA, both gates full rank: f_a and g_a hidden x inner
        for (const char* c : {"q", "k", "v"}) {
          add(b + "ssm_conv1d_" + c + ".weight", {s.kda_conv, 1, inner}, i);
        }
        add(b + "attn_q.weight", {e, inner}, i);
        add(b + "attn_k.weight", {e, inner}, i);
        add(b + "attn_v.weight", {e, inner}, i);
        add(b + "ssm_f_a.weight", {e, inner}, i);
        add(b + "ssm_beta.weight", {e, s.heads}, i);
        add(b + "ssm_a", {1, s.heads}, i);
        add(b + "ssm_dt.bias", {inner}, i);
        add(b + "ssm_g_a.weight", {e, inner}, i);
        add(b + "ssm_norm.weight", {s.kda_head_dim}, i);
        add(b + "attn_output.weight", {inner, e}, i);
      } else {  // MLA with compressed queries and a head-wise gate
        add(b + "attn_q_a.weight", {e, s.q_lora}, i);
        add(b + "attn_q_a_norm.weight", {s.q_lora}, i);
        add(b + "attn_q_b.weight", {s.q_lora, s.heads * (s.nope_dim + s.rope_dim)}, i);
        add(b + "attn_kv_a_norm.weight", {s.kv_lora}, i);
        add(b + "attn_gate.weight", {e, s.heads}, i);
        mla_kv_out(b, i);
      }
      add(b + "ffn_norm.weight", {e}, i);
      deepseek_ffn(b, i);
      continue;
    }
    if (s.arch == "kimi-k3") {  // kimi-k3.cpp load_arch_tensors
      add(b + "attn_res_score.weight", {e}, i);
      add(b + "ffn_res_score.weight", {e}, i);
      if (kind == 'K') {
        kda_tensors(b, i);
      } else {  // MLA with compressed queries and a sigmoid output gate
        add(b + "attn_q_a_norm.weight", {s.q_lora}, i);
        add(b + "attn_kv_a_norm.weight", {s.kv_lora}, i);
        add(b + "attn_q_a.weight", {e, s.q_lora}, i);
        add(b + "attn_q_b.weight", {s.q_lora, s.heads * (s.nope_dim + s.rope_dim)}, i);
        add(b + "attn_gate.weight", {e, s.heads * s.v_dim}, i);
        mla_kv_out(b, i);
      }
      add(b + "ffn_norm.weight", {e}, i);
      if (i < s.dense_lead) {
        add(b + "ffn_gate.weight", {e, s.ffn}, i);
        add(b + "ffn_down.weight", {s.ffn, e}, i);
        add(b + "ffn_up.weight", {e, s.ffn}, i);
        continue;
      }
      // routed experts in the latent, the shared ones at the full width
      const int64_t f = s.expert_ffn;
      const int64_t l = s.expert_latent;
      add(b + "ffn_gate_inp.weight", {e, s.experts}, i);
      add(b + "ffn_gate_exps.weight", {l, f, s.experts}, i);
      add(b + "ffn_down_exps.weight", {f, l, s.experts}, i);
      add(b + "ffn_up_exps.weight", {l, f, s.experts}, i);
      add(b + "ffn_routed_down.weight", {e, l}, i);
      add(b + "ffn_routed_up.weight", {l, e}, i);
      add(b + "ffn_routed_norm.weight", {l}, i);
      add(b + "ffn_gate_shexp.weight", {e, f * s.shared_experts}, i);
      add(b + "ffn_down_shexp.weight", {f * s.shared_experts, e}, i);
      add(b + "ffn_up_shexp.weight", {e, f * s.shared_experts}, i);
      // last, as in the other expert layers: llama.cpp's CPU_Mapped buffer
      // spans the file from its first to its last mapped tensor, so a
      // repacked Q4_K tensor at the very end would drop out of the logged size
      add(b + "exp_probs_b.bias", {s.experts}, i);
      continue;
    }
    if (s.arch == "minimax-01") {  // minimax-01.cpp load_arch_tensors (attn_norm above)
      if (kind == 'D') {           // lightning attention
        add(b + "attn_norm_2.weight", {q}, i);
        add(b + "attn_qkv.weight", {e, 3 * q}, i);
        add(b + "attn_gate.weight", {e, q}, i);
      } else {
        add(b + "attn_q.weight", {e, q}, i);
        add(b + "attn_k.weight", {e, kv}, i);
        add(b + "attn_v.weight", {e, kv}, i);
      }
      add(b + "attn_output.weight", {q, e}, i);
      add(b + "ffn_norm.weight", {e}, i);
      add(b + "ffn_gate_inp.weight", {e, s.experts}, i);
      add(b + "ffn_gate_exps.weight", {e, s.ffn, s.experts}, i);
      add(b + "ffn_up_exps.weight", {e, s.ffn, s.experts}, i);
      add(b + "ffn_down_exps.weight", {s.ffn, e, s.experts}, i);
      continue;
    }
    if (s.arch == "minimax-m3") {  // minimax-m3.cpp load_arch_tensors
      add(b + "attn_q.weight", {e, q}, i);
      add(b + "attn_k.weight", {e, kv}, i);
      add(b + "attn_v.weight", {e, kv}, i);
      add(b + "attn_output.weight", {q, e}, i);
      add(b + "attn_q_norm.weight", {s.head_dim}, i);
      add(b + "attn_k_norm.weight", {s.head_dim}, i);
      add(b + "ffn_norm.weight", {e}, i);
      deepseek_ffn(b, i);
      if (i >= s.dense_lead) {  // the indexer on the MoE layers
        add(b + "indexer.q_proj.weight", {e, s.indexer_heads * s.indexer_dim}, i);
        add(b + "indexer.k_proj.weight", {e, s.indexer_dim}, i);
        add(b + "indexer.q_norm.weight", {s.indexer_dim}, i);
        add(b + "indexer.k_norm.weight", {s.indexer_dim}, i);
      }
      continue;
    }
    if (s.arch == "dots3note") {
      // dots3note.cpp load_arch_tensors: MLA with compressed queries of the
      // layer's kind (a windowed layer's own heads, latent and head widths),
      // the rope key's norm, k_b/v_b split, the head-wise gate; the
      // lightning indexer on the full layers; DeepSeek's MLP.
      const bool swa = s.swa_layers[static_cast<size_t>(i)] == 'S';
      const int64_t h = swa ? s.swa_heads : s.heads;
      const int64_t lora = swa ? s.swa_kv_lora : s.kv_lora;
      const int64_t nope = swa ? s.swa_nope : s.nope_dim;
      const int64_t vd = swa ? s.swa_v : s.v_dim;
      add(b + "attn_q_a_norm.weight", {s.q_lora}, i);
      add(b + "attn_kv_a_norm.weight", {lora}, i);
      add(b + "attn_k_norm.weight", {s.rope_dim}, i);
      add(b + "attn_q_a.weight", {e, s.q_lora}, i);
      add(b + "attn_q_b.weight", {s.q_lora, h * (nope + s.rope_dim)}, i);
      add(b + "attn_kv_a_mqa.weight", {e, lora + s.rope_dim}, i);
      add(b + "attn_k_b.weight", {nope, lora, h}, i);
      add(b + "attn_v_b.weight", {lora, vd, h}, i);
      add(b + "attn_output.weight", {h * vd, e}, i);
      add(b + "attn_gate.weight", {e, h}, i);
      add(b + "ffn_norm.weight", {e}, i);
      if (!swa) {
        dsa_indexer(b, i);
      }
      deepseek_ffn(b, i);
      continue;
    }
    if (s.arch == "deepseek32" || s.arch == "glm-dsa") {
      // deepseek32.cpp / glm-dsa.cpp load_arch_tensors: MLA with compressed
      // queries (q_a, its norm, q_b), k_b/v_b split; the lightning indexer
      // (its k norm with a bias, the weights projection, which the converter
      // keeps F32, k, and q_b from the compressed queries), absent on a
      // GLM-5.2 layer that shares the previous one's; a dense MLP on the
      // leading layers, else routed experts with a bias and a shared expert.
      add(b + "attn_q_a_norm.weight", {s.q_lora}, i);
      add(b + "attn_kv_a_norm.weight", {s.kv_lora}, i);
      add(b + "attn_q_a.weight", {e, s.q_lora}, i);
      add(b + "attn_q_b.weight", {s.q_lora, s.heads * (s.nope_dim + s.rope_dim)}, i);
      mla_kv_out(b, i);
      add(b + "ffn_norm.weight", {e}, i);
      const bool own_indexer =
          s.indexer_types.empty() || s.indexer_types[static_cast<size_t>(i)] == 'F';
      if (own_indexer) {
        dsa_indexer(b, i);
      }
      deepseek_ffn(b, i);
      continue;
    }
    if (s.arch == "granitehybrid" || s.arch == "jamba") {
      // granite-hybrid.cpp / jamba.cpp load_arch_tensors: the mixer (Mamba-2,
      // Mamba-1 or attention without biases), then ffn_norm and an MLP or
      // routed experts on every layer.
      if (kind == 'M') {
        mamba2(b, i);
      } else if (kind == 'S') {  // Mamba-1: in_proj to x and z, conv, x_proj, dt_proj, A, D
        const int64_t d = s.ssm_inner;
        add(b + "ssm_in.weight", {e, 2 * d}, i);
        add(b + "ssm_conv1d.weight", {s.ssm_conv, d}, i);
        add(b + "ssm_conv1d.bias", {d}, i);
        add(b + "ssm_x.weight", {d, s.ssm_dt_rank + 2 * s.ssm_state}, i);
        add(b + "ssm_dt_norm.weight", {s.ssm_dt_rank}, i);
        add(b + "ssm_dt.weight", {s.ssm_dt_rank, d}, i);
        add(b + "ssm_dt.bias", {d}, i);
        add(b + "ssm_b_norm.weight", {s.ssm_state}, i);
        add(b + "ssm_c_norm.weight", {s.ssm_state}, i);
        add(b + "ssm_a", {s.ssm_state, d}, i);
        add(b + "ssm_d", {d}, i);
        add(b + "ssm_out.weight", {d, e}, i);
      } else {
        add(b + "attn_q.weight", {e, q}, i);
        add(b + "attn_k.weight", {e, kv}, i);
        add(b + "attn_v.weight", {e, kv}, i);
        add(b + "attn_output.weight", {q, e}, i);
      }
      add(b + "ffn_norm.weight", {e}, i);
      const bool moe = s.experts > 0 && (s.moe_period == 0 || i % s.moe_period == s.moe_period - 1);
      if (moe) {
        add(b + "ffn_gate_inp.weight", {e, s.experts}, i);
        add(b + "ffn_gate_exps.weight", {e, s.ffn, s.experts}, i);
        add(b + "ffn_up_exps.weight", {e, s.ffn, s.experts}, i);
        add(b + "ffn_down_exps.weight", {s.ffn, e, s.experts}, i);
        if (s.shared_ffn > 0) {
          add(b + "ffn_gate_shexp.weight", {e, s.shared_ffn}, i);
          add(b + "ffn_up_shexp.weight", {e, s.shared_ffn}, i);
          add(b + "ffn_down_shexp.weight", {s.shared_ffn, e}, i);
        }
      } else {
        add(b + "ffn_gate.weight", {e, s.ffn}, i);
        add(b + "ffn_up.weight", {e, s.ffn}, i);
        add(b + "ffn_down.weight", {s.ffn, e}, i);
      }
      continue;
    }
    if (kind == 'M') {  // Nemotron-H's Mamba-2 block: the mixer alone
      mamba2(b, i);
      continue;
    }
    if (kind == '-') {  // Nemotron-H MLP block: up and down (squared ReLU)
      add(b + "ffn_up.weight", {e, s.ffn}, i);
      add(b + "ffn_down.weight", {s.ffn, e}, i);
      continue;
    }
    if (s.arch == "cohere2moe") {  // cohere2moe.cpp load_arch_tensors (the trunk's blocks)
      add(b + "attn_q.weight", {e, q}, i);
      add(b + "attn_k.weight", {e, kv}, i);
      add(b + "attn_v.weight", {e, kv}, i);
      add(b + "attn_output.weight", {q, e}, i);
      if (i < s.dense_lead) {
        dense_mlp(b, i);
      } else {
        routed_experts(b, i);
      }
      continue;
    }
    // afmoe.cpp and muse-glimmer.cpp load_arch_tensors (Muse Glimmer's MLP dense)
    if (s.arch == "afmoe" || s.arch == "muse-glimmer") {
      add(b + "post_attention_norm.weight", {e}, i);
      add(b + "attn_q.weight", {e, q}, i);
      add(b + "attn_k.weight", {e, kv}, i);
      add(b + "attn_v.weight", {e, kv}, i);
      add(b + "attn_output.weight", {q, e}, i);
      add(b + "attn_q_norm.weight", {s.head_dim}, i);
      add(b + "attn_k_norm.weight", {s.head_dim}, i);
      add(b + "attn_gate.weight", {e, q}, i);
      add(b + "ffn_norm.weight", {e}, i);
      add(b + "post_ffw_norm.weight", {e}, i);
      if (s.arch == "muse-glimmer" || i < s.dense_lead) {
        dense_mlp(b, i);
        continue;
      }
      routed_experts(b, i);
      shared_expert(b, i);
      add(b + "exp_probs_b.bias", {s.experts}, i);
      continue;
    }
    if (s.arch == "granite_swa") {
      // granite-swa.cpp load_arch_tensors: q, k, v, o, a sink per head, then
      // a dense SwiGLU, or routed experts with gate and up in one
      // ffn_gate_up_exps (create_tensor_gate_up_exps, as conversion/granite.py
      // keeps them) of n_ff (feed_forward_length) and a shared expert with
      // gate and up in one ffn_up_shexp of 2 n_ff_shexp.
      add(b + "attn_q.weight", {e, q}, i);
      add(b + "attn_k.weight", {e, kv}, i);
      add(b + "attn_v.weight", {e, kv}, i);
      add(b + "attn_output.weight", {q, e}, i);
      add(b + "attn_sinks.weight", {s.heads}, i);
      add(b + "ffn_norm.weight", {e}, i);
      if (s.experts == 0) {
        dense_mlp(b, i);
        continue;
      }
      add(b + "ffn_gate_inp.weight", {e, s.experts}, i);
      add(b + "ffn_gate_up_exps.weight", {e, 2 * s.ffn, s.experts}, i);
      add(b + "ffn_down_exps.weight", {s.ffn, e, s.experts}, i);
      if (s.shared_ffn > 0) {
        add(b + "ffn_up_shexp.weight", {e, 2 * s.shared_ffn}, i);
        add(b + "ffn_down_shexp.weight", {s.shared_ffn, e}, i);
      }
      continue;
    }
    if (s.arch == "mimo2") {  // mimo2.cpp load_arch_tensors (the trunk's blocks)
      const bool global = s.swa_layers[static_cast<size_t>(i)] == 'G';
      const int64_t kvh = global ? s.global_kv_heads : s.kv_heads;
      add(b + "attn_q.weight", {e, q}, i);
      add(b + "attn_k.weight", {e, s.head_dim * kvh}, i);
      add(b + "attn_v.weight", {e, s.v_dim * kvh}, i);
      add(b + "attn_output.weight", {s.v_dim * s.heads, e}, i);
      if (!global) {  // add_swa_attention_sink_bias (not add_full_attention_sink_bias)
        add(b + "attn_sinks.weight", {s.heads}, i);
      }
      add(b + "ffn_norm.weight", {e}, i);
      if (i < s.dense_lead) {
        dense_mlp(b, i);
        continue;
      }
      routed_experts(b, i);
      add(b + "exp_probs_b.bias", {s.experts}, i);
      continue;
    }
    if (s.arch == "step35") {  // step35.cpp load_arch_tensors (the trunk's blocks)
      const bool global = i % s.swa_period == 0;
      const int64_t ql = s.head_dim * (global ? s.global_heads : s.heads);
      add(b + "attn_q.weight", {e, ql}, i);
      add(b + "attn_k.weight", {e, kv}, i);
      add(b + "attn_v.weight", {e, kv}, i);
      add(b + "attn_q_norm.weight", {s.head_dim}, i);
      add(b + "attn_k_norm.weight", {s.head_dim}, i);
      add(b + "attn_output.weight", {ql, e}, i);
      add(b + "attn_gate.weight", {e, ql / s.head_dim}, i);
      add(b + "ffn_norm.weight", {e}, i);
      if (i < s.dense_lead) {
        dense_mlp(b, i);
        continue;
      }
      routed_experts(b, i);
      add(b + "exp_probs_b.bias", {s.experts}, i);
      shared_expert(b, i);
      continue;
    }
    if (s.arch == "laguna") {  // laguna.cpp load_arch_tensors
      const bool global = s.sliding_window == 0 || i % s.swa_period == 0;
      const int64_t heads = global && s.global_heads > 0 ? s.global_heads : s.heads;
      const int64_t ql = s.head_dim * heads;
      add(b + "attn_q.weight", {e, ql}, i);
      add(b + "attn_k.weight", {e, kv}, i);
      add(b + "attn_v.weight", {e, kv}, i);
      add(b + "attn_output.weight", {ql, e}, i);
      add(b + "attn_q_norm.weight", {s.head_dim}, i);
      add(b + "attn_k_norm.weight", {s.head_dim}, i);
      add(b + "attn_gate.weight", {e, s.gate_per_element ? ql : heads}, i);
      add(b + "ffn_norm.weight", {e}, i);
      if (i < s.dense_lead) {
        dense_mlp(b, i);
        continue;
      }
      routed_experts(b, i);
      add(b + "exp_probs_b.bias", {s.experts}, i);
      shared_expert(b, i);
      continue;
    }
    if (kind == 'E') {  // Nemotron-H MoE block: router and its bias, ungated experts, shared one
      add(b + "ffn_gate_inp.weight", {e, s.experts}, i);
      add(b + "exp_probs_b.bias", {s.experts}, i);
      add(b + "ffn_up_exps.weight", {e, s.expert_ffn, s.experts}, i);
      add(b + "ffn_down_exps.weight", {s.expert_ffn, e, s.experts}, i);
      add(b + "ffn_up_shexp.weight", {e, s.shared_ffn}, i);
      add(b + "ffn_down_shexp.weight", {s.shared_ffn, e}, i);
      continue;
    }
    if (kind == 'C') {  // LFM2 short convolution (lfm2.cpp)
      add(b + "shortconv.conv.weight", {s.shortconv_l_cache, e}, i);
      add(b + "shortconv.in_proj.weight", {e, 3 * e}, i);
      add(b + "shortconv.out_proj.weight", {e, e}, i);
    } else if (s.arch == "minicpm3") {
      // minicpm3.cpp load_arch_tensors: q_a, its norm, q_b; kv_a_mqa, its
      // norm and kv_b whole (not split into k_b/v_b); the output.
      add(b + "attn_q_a_norm.weight", {s.q_lora}, i);
      add(b + "attn_kv_a_norm.weight", {s.kv_lora}, i);
      add(b + "attn_q_a.weight", {e, s.q_lora}, i);
      add(b + "attn_q_b.weight", {s.q_lora, s.heads * (s.nope_dim + s.rope_dim)}, i);
      add(b + "attn_kv_a_mqa.weight", {e, s.kv_lora + s.rope_dim}, i);
      add(b + "attn_kv_b.weight", {s.kv_lora, s.heads * (s.nope_dim + s.v_dim)}, i);
      add(b + "attn_output.weight", {s.heads * s.v_dim, e}, i);
    } else if (s.arch == "plm") {
      // plm.cpp load_arch_tensors: one wq; kv_a_mqa, its norm and kv_b
      // whole; the output.
      add(b + "attn_q.weight", {e, s.heads * (s.nope_dim + s.rope_dim)}, i);
      add(b + "attn_kv_a_mqa.weight", {e, s.kv_lora + s.rope_dim}, i);
      add(b + "attn_kv_a_norm.weight", {s.kv_lora}, i);
      add(b + "attn_kv_b.weight", {s.kv_lora, s.heads * (s.nope_dim + s.v_dim)}, i);
      add(b + "attn_output.weight", {s.heads * s.v_dim, e}, i);
    } else if (s.kv_lora > 0) {  // MLA (deepseek2.cpp), split k_b/v_b as converted today
      if (s.q_lora > 0) {        // compressed queries (Mistral 4): q_a, its norm, q_b
        add(b + "attn_q_a_norm.weight", {s.q_lora}, i);
        add(b + "attn_kv_a_norm.weight", {s.kv_lora}, i);
        add(b + "attn_q_a.weight", {e, s.q_lora}, i);
        add(b + "attn_q_b.weight", {s.q_lora, s.heads * (s.nope_dim + s.rope_dim)}, i);
      } else {
        add(b + "attn_kv_a_norm.weight", {s.kv_lora}, i);
        add(b + "attn_q.weight", {e, s.heads * (s.nope_dim + s.rope_dim)}, i);
      }
      mla_kv_out(b, i);
    } else if (s.arch == "graniteswitch") {
      // granite-switch.cpp load_arch_tensors: one fused attn_qkv and
      // attn_output (the LoRAs follow the MLP, below)
      add(b + "attn_qkv.weight", {e, q + 2 * kv}, i);
      add(b + "attn_output.weight", {q, e}, i);
    } else if (s.arch == "cogvlm") {
      // cogvlm.cpp: one fused attn_qkv without a bias and attn_output, and
      // the visual expert's copies of both
      for (const std::string p : {"", "vis_"}) {
        add(b + p + "attn_qkv.weight", {e, q + 2 * kv}, i);
        add(b + p + "attn_output.weight", {q, e}, i);
      }
    } else {
      add(b + "attn_q.weight", {e, q}, i);
      add(b + "attn_k.weight", {e, kv}, i);
      add(b + "attn_v.weight", {e, kv}, i);
      if (s.qkv_bias) {
        add(b + "attn_q.bias", {q}, i);
        add(b + "attn_k.bias", {kv}, i);
        add(b + "attn_v.bias", {kv}, i);
      }
      if (s.qk_norm && s.arch == "chameleon") {
        // chameleon.cpp: a LayerNorm per head, weight and bias {head_dim, heads}
        add(b + "attn_q_norm.weight", {s.head_dim, static_cast<int64_t>(s.heads)}, i);
        add(b + "attn_q_norm.bias", {s.head_dim, static_cast<int64_t>(s.heads)}, i);
        add(b + "attn_k_norm.weight", {s.head_dim, static_cast<int64_t>(s.kv_heads)}, i);
        add(b + "attn_k_norm.bias", {s.head_dim, static_cast<int64_t>(s.kv_heads)}, i);
      } else if (s.qk_norm) {  // per head; OLMoE's over the whole Q and K widths
        add(b + "attn_q_norm.weight", {s.arch == "olmoe" ? q : s.head_dim}, i);
        add(b + "attn_k_norm.weight", {s.arch == "olmoe" ? kv : s.head_dim}, i);
      }
      add(b + "attn_output.weight", {q, e}, i);
      if (kind == '*') {  // Nemotron-H attention block: attention only
        continue;
      }
      if (s.attn_sinks) {
        add(b + "attn_output.bias", {e}, i);
        add(b + "attn_sinks.weight", {s.heads}, i);
      }
      if (s.arch == "phimoe") {  // phimoe.cpp: wo_b and both LayerNorms' biases
        add(b + "attn_output.bias", {e}, i);
        add(b + "attn_norm.bias", {e}, i);
        add(b + "ffn_norm.bias", {e}, i);
      }
      if (s.arch == "bitnet") {  // bitnet.cpp: the norm of the attention output before wo
        add(b + "attn_sub_norm.weight", {e}, i);
      }
      // jais2.cpp, pangu-embed.cpp: wo_b (q, k, v biases above: qkv_bias)
      if (s.arch == "jais2" || s.arch == "pangu-embedded") {
        add(b + "attn_output.bias", {e}, i);
      }
      if (s.arch == "nemotron" || s.arch == "orion" || s.arch == "jais2" ||
          s.arch == "pockettts") {  // LayerNorm biases
        add(b + "attn_norm.bias", {e}, i);
        add(b + "ffn_norm.bias", {e}, i);
      }
    }
    if (s.post_norms || s.attn_sinks) {
      add(b + "post_attention_norm.weight", {e}, i);
    }
    if (!s.attn_sinks) {  // gpt-oss has no ffn_norm: post_attention_norm feeds the MoE
      add(b + "ffn_norm.weight", {e}, i);
    }
    if (s.experts > 0 && i >= s.dense_lead) {
      const int64_t f = s.expert_ffn > 0 ? s.expert_ffn : s.ffn;
      add(b + "ffn_gate_inp.weight", {e, s.experts}, i);
      add(b + "ffn_gate_exps.weight", {e, f, s.experts}, i);
      add(b + "ffn_up_exps.weight", {e, f, s.experts}, i);
      add(b + "ffn_down_exps.weight", {f, e, s.experts}, i);
      if (s.arch == "hy_v3") {  // hy-v3.cpp: the selection bias, named without ".bias"
        add(b + "exp_probs_b", {s.experts}, i);
      }
      if (s.attn_sinks) {
        add(b + "ffn_gate_inp.bias", {s.experts}, i);
        add(b + "ffn_gate_exps.bias", {f, s.experts}, i);
        add(b + "ffn_up_exps.bias", {f, s.experts}, i);
        add(b + "ffn_down_exps.bias", {e, s.experts}, i);
      }
      if (s.shared_experts > 0) {
        const int64_t fs = f * s.shared_experts;
        add(b + "ffn_gate_shexp.weight", {e, fs}, i);
        add(b + "ffn_up_shexp.weight", {e, fs}, i);
        add(b + "ffn_down_shexp.weight", {fs, e}, i);
      }
    } else {
      if (s.mlp_gated) {
        add(b + "ffn_gate.weight", {e, s.ffn}, i);
      }
      add(b + "ffn_up.weight", {e, s.ffn}, i);
      add(b + "ffn_down.weight", {s.ffn, e}, i);
      if (s.arch == "jais2") {  // jais2.cpp: the MLP's biases
        add(b + "ffn_up.bias", {s.ffn}, i);
        add(b + "ffn_down.bias", {e}, i);
      }
      if (s.arch == "talkie") {
        // talkie.cpp load_arch_tensors: the per-head Q gain {1, heads} (as
        // attn_q_norm), the embedding skip's scale; conversion/talkie.py
        // also writes attn_gain and mlp_gain as attn_output.scale and
        // ffn_down.scale, which llama-model.cpp loads where present. All F32.
        add(b + "attn_q_norm.weight", {1, static_cast<int64_t>(s.heads)}, i);
        add(b + "layer_output_scale.weight", {1}, i);
        add(b + "attn_output.scale", {1}, i);
        add(b + "ffn_down.scale", {1}, i);
      }
      if (s.arch == "graniteswitch") {
        // granite-switch.cpp load_arch_tensors: each projection's LoRA pair
        // stacked over the slots (adapters + 1, slot 0 the zero delta). Last
        // in the layer, so the file ends with an F16 tensor llama.cpp maps
        // (a repacked last tensor would shorten the mapping).
        const int64_t slots = s.adapters + 1;
        const int64_t r = s.adapter_rank;
        const std::vector<std::pair<std::string, std::pair<int64_t, int64_t>>> loras = {
            {"attn_q", {e, q}},      {"attn_k", {e, kv}},      {"attn_v", {e, kv}},
            {"attn_output", {q, e}}, {"ffn_gate", {e, s.ffn}}, {"ffn_up", {e, s.ffn}},
            {"ffn_down", {s.ffn, e}}};
        for (const auto& [name, io] : loras) {
          add(b + name + ".lora_a", {io.first, r, slots}, i);
          add(b + name + ".lora_b", {r, io.second, slots}, i);
        }
      }
      if (s.arch == "cogvlm") {  // cogvlm.cpp: the visual expert's gated MLP
        add(b + "vis_gate.weight", {e, s.ffn}, i);
        add(b + "vis_up.weight", {e, s.ffn}, i);
        add(b + "vis_down.weight", {s.ffn, e}, i);
      }
      if (s.arch == "bitnet") {  // bitnet.cpp: the norm of the MLP's product before ffn_down
        add(b + "ffn_sub_norm.weight", {s.ffn}, i);
      }
    }
    if (s.post_norms) {
      add(b + "post_ffw_norm.weight", {e}, i);
    }
  }
  return out;
}

// --- GGUF writing (gguf.md in ggml-org/ggml: little-endian, strings are a
// u64 length and bytes, metadata values are tagged) --------------------------

enum ValueType : uint32_t { U32 = 4, I32 = 5, F32V = 6, BOOL = 7, STR = 8, ARR = 9, U64V = 10 };

class Writer {
 public:
  void u32(uint32_t v) { raw(&v, 4); }
  void u64(uint64_t v) { raw(&v, 8); }
  void i32(int32_t v) { raw(&v, 4); }
  void f32(float v) { raw(&v, 4); }
  void str(std::string_view s) {
    u64(s.size());
    raw(s.data(), s.size());
  }
  void key_u32(std::string_view k, uint32_t v) {
    str(k);
    u32(U32);
    u32(v);
    ++kv_count;
  }
  void key_f32(std::string_view k, double v) {
    str(k);
    u32(F32V);
    f32(static_cast<float>(v));
    ++kv_count;
  }
  void key_bool(std::string_view k, bool v) {
    str(k);
    u32(BOOL);
    const char b = v ? 1 : 0;
    raw(&b, 1);
    ++kv_count;
  }
  void key_arr_u32(std::string_view k, const std::vector<uint32_t>& v) {
    str(k);
    u32(ARR);
    u32(U32);
    u64(v.size());
    for (uint32_t x : v) {
      u32(x);
    }
    ++kv_count;
  }
  void key_arr_u64(std::string_view k, const std::vector<uint64_t>& v) {
    str(k);
    u32(ARR);
    u32(U64V);
    u64(v.size());
    for (uint64_t x : v) {
      u64(x);
    }
    ++kv_count;
  }
  void key_arr_bool(std::string_view k, const std::vector<bool>& v) {
    str(k);
    u32(ARR);
    u32(BOOL);
    u64(v.size());
    for (bool x : v) {
      const uint8_t b = x ? 1 : 0;
      raw(&b, 1);
    }
    ++kv_count;
  }
  void key_str(std::string_view k, std::string_view v) {
    str(k);
    u32(STR);
    str(v);
    ++kv_count;
  }
  void raw(const void* p, size_t n) {
    const auto* c = static_cast<const char*>(p);
    bytes.insert(bytes.end(), c, c + n);
  }
  std::vector<char> bytes;
  uint64_t kv_count = 0;
};

void write_metadata(Writer& w, const Spec& s, const std::string& ftype, bool file_type) {
  const std::string& a = s.arch;
  w.key_str("general.architecture", a);
  w.key_str("general.name", s.name + " (synthetic, zero weights)");
  if (file_type) {
    w.key_u32("general.file_type", ftype == "f16" ? 1 : ftype == "q8_0" ? 7 : 15);
  }
  if (a == "wavtokenizer-dec") {
    // conversion/wavtokenizer.py WavTokenizerDecModel over base.py's
    // TextModel: block_count (n_layer), context_length
    // (max_position_embeddings), embedding_length (hidden_size: the head's
    // width), head_count (n_head), the LayerNorm epsilon, then its own keys;
    // no vocabulary (_set_vocab_none: tokenizer model "none").
    w.key_u32(a + ".block_count", static_cast<uint32_t>(s.layers));
    w.key_u32(a + ".context_length", static_cast<uint32_t>(s.ctx_train));
    w.key_u32(a + ".embedding_length", static_cast<uint32_t>(s.hidden));
    w.key_u32(a + ".attention.head_count", static_cast<uint32_t>(s.heads));
    w.key_f32(a + ".attention.layer_norm_epsilon", s.rms_eps);
    w.key_u32(a + ".vocab_size", static_cast<uint32_t>(s.vocab));
    w.key_u32(a + ".features_length", static_cast<uint32_t>(s.features));
    w.key_u32(a + ".feed_forward_length", static_cast<uint32_t>(s.ffn));
    w.key_f32(a + ".attention.group_norm_epsilon", s.rms_eps);
    w.key_u32(a + ".attention.group_norm_groups", 32);
    w.key_u32(a + ".posnet.embedding_length", static_cast<uint32_t>(s.posnet_width));
    w.key_u32(a + ".posnet.block_count", static_cast<uint32_t>(s.posnet_layers));
    w.key_u32(a + ".convnext.embedding_length", static_cast<uint32_t>(s.convnext_width));
    w.key_u32(a + ".convnext.block_count", static_cast<uint32_t>(s.layers));
    w.key_bool(a + ".attention.causal", false);
    w.key_str("tokenizer.ggml.model", "none");
    return;
  }
  w.key_u32(a + ".block_count", static_cast<uint32_t>(s.layers));
  w.key_u32(a + ".context_length", static_cast<uint32_t>(s.ctx_train));
  w.key_u32(a + ".embedding_length", static_cast<uint32_t>(s.hidden));
  // Hybrids give per-layer counts: 0 KV heads on a recurrent layer (and, for
  // Nemotron-H, 0 MLP width on a mixer layer), as convert_hf_to_gguf.py writes them.
  // Granite 4 H and Jamba give one MLP width (conversion/granite.py,
  // conversion/jamba.py) and per-layer KV heads.
  // PLaMo 2 likewise (conversion/plamo.py Plamo2Model), with query heads
  // per layer too (0 on a Mamba layer).
  const bool one_ffn = s.arch == "granitehybrid" || s.arch == "jamba" || s.arch == "plamo2";
  if (one_ffn) {
    w.key_u32(a + ".feed_forward_length", static_cast<uint32_t>(s.ffn));
    std::vector<uint32_t> kv;
    for (int i = 0; i < s.layers; ++i) {
      kv.push_back(layer_kind(s, i) == 'A' ? static_cast<uint32_t>(s.kv_heads) : 0);
    }
    w.key_arr_u32(a + ".attention.head_count_kv", kv);
  } else if (s.arch == "gemma4") {
    // conversion/gemma.py Gemma4Model: one KV head count per layer, the
    // windowed layers' num_key_value_heads, the global layers' own (E2B,
    // without num_global_key_value_heads: one count); the MLP widths per
    // layer with use_double_wide_mlp.
    if (s.double_wide_mlp) {
      std::vector<uint32_t> ffn;
      for (int i = 0; i < s.layers; ++i) {
        ffn.push_back(static_cast<uint32_t>(gemma4_ffn(s, i)));
      }
      w.key_arr_u32(a + ".feed_forward_length", ffn);
    } else {
      w.key_u32(a + ".feed_forward_length", static_cast<uint32_t>(s.ffn));
    }
    if (s.global_kv_heads != s.kv_heads) {
      std::vector<uint32_t> kv;
      for (int i = 0; i < s.layers; ++i) {
        const bool global = (i + 1) % s.swa_period == 0;
        kv.push_back(static_cast<uint32_t>(global ? s.global_kv_heads : s.kv_heads));
      }
      w.key_arr_u32(a + ".attention.head_count_kv", kv);
    } else {
      w.key_u32(a + ".attention.head_count_kv", static_cast<uint32_t>(s.kv_heads));
    }
  } else if (s.arch == "laguna") {
    // conversion/laguna.py LagunaModel.set_gguf_parameters: query heads per
    // layer (num_attention_heads_per_layer), one KV head count (base.py).
    std::vector<uint32_t> heads;
    for (int i = 0; i < s.layers; ++i) {
      const bool global = s.sliding_window == 0 || i % s.swa_period == 0;
      heads.push_back(
          static_cast<uint32_t>(global && s.global_heads > 0 ? s.global_heads : s.heads));
    }
    w.key_u32(a + ".feed_forward_length", static_cast<uint32_t>(s.ffn));
    w.key_arr_u32(a + ".attention.head_count", heads);
    w.key_u32(a + ".attention.head_count_kv", static_cast<uint32_t>(s.kv_heads));
  } else if (s.arch == "step35") {
    // conversion/step3.py Step35Model.set_gguf_parameters: query and KV heads
    // per layer by layer_types, the windowed layers' flags, MoE keys.
    std::vector<uint32_t> heads;
    std::vector<uint32_t> kv;
    std::vector<bool> swa;
    for (int i = 0; i < s.layers; ++i) {
      const bool global = i % s.swa_period == 0;
      heads.push_back(static_cast<uint32_t>(global ? s.global_heads : s.heads));
      kv.push_back(static_cast<uint32_t>(s.kv_heads));
      swa.push_back(!global);
    }
    w.key_u32(a + ".feed_forward_length", static_cast<uint32_t>(s.ffn));
    w.key_arr_u32(a + ".attention.head_count", heads);
    w.key_arr_u32(a + ".attention.head_count_kv", kv);
    w.key_arr_bool(a + ".attention.sliding_window_pattern", swa);
    w.key_u32(a + ".expert_shared_feed_forward_length", static_cast<uint32_t>(s.shared_ffn));
    w.key_u32(a + ".leading_dense_block_count", static_cast<uint32_t>(s.dense_lead));
    w.key_u32(a + ".moe_every_n_layers", 1);
    w.key_f32(a + ".expert_weights_scale", s.expert_weights_scale);
    w.key_bool(a + ".expert_weights_norm", true);
  } else if (!s.deci.empty()) {
    // conversion/deci.py set_gguf_parameters: head_count_kv, head_count and
    // feed_forward_length per layer.
    std::vector<uint32_t> heads;
    std::vector<uint32_t> kv;
    std::vector<uint32_t> ffn;
    for (const Spec::DeciLayer& l : s.deci) {
      heads.push_back(static_cast<uint32_t>(l.heads));
      kv.push_back(static_cast<uint32_t>(l.kv_heads));
      ffn.push_back(static_cast<uint32_t>(l.ffn));
    }
    w.key_arr_u32(a + ".attention.head_count_kv", kv);
    w.key_arr_u32(a + ".attention.head_count", heads);
    w.key_arr_u32(a + ".feed_forward_length", ffn);
  } else if (s.arch == "mimo2") {
    // conversion/mimo.py MimoV2Model.set_gguf_parameters: KV heads and the
    // windowed flags per layer (hybrid_layer_pattern), the V head width,
    // the value scale; base.py the sigmoid router (scoring_func).
    std::vector<uint32_t> kv;
    std::vector<bool> swa;
    for (int i = 0; i < s.layers; ++i) {
      const bool global = s.swa_layers[static_cast<size_t>(i)] == 'G';
      kv.push_back(static_cast<uint32_t>(global ? s.global_kv_heads : s.kv_heads));
      swa.push_back(!global);
    }
    w.key_u32(a + ".feed_forward_length", static_cast<uint32_t>(s.ffn));
    w.key_arr_u32(a + ".attention.head_count_kv", kv);
    w.key_arr_bool(a + ".attention.sliding_window_pattern", swa);
    w.key_f32(a + ".attention.value_scale", s.value_scale);
    w.key_u32(a + ".expert_gating_func", 2);
  } else if (s.arch == "qwen") {
    // the converter writes QWenConfig's intermediate_size, twice the MLP
    // (qwen.cpp halves it); no head_count_kv (base.py finds no key for it)
    w.key_u32(a + ".feed_forward_length", static_cast<uint32_t>(2 * s.ffn));
  } else if (s.arch == "rwkv6") {
    // conversion/rwkv.py Rwkv6Model.set_gguf_parameters
    w.key_u32(a + ".feed_forward_length", static_cast<uint32_t>(s.ffn));
    w.key_f32(a + ".attention.layer_norm_epsilon", s.rms_eps);
    w.key_u32(a + ".rescale_every_n_layers", static_cast<uint32_t>(s.rescale_every));
    w.key_u32(a + ".wkv.head_size", static_cast<uint32_t>(s.wkv_head));
    w.key_u32(a + ".time_mix_extra_dim", static_cast<uint32_t>(s.time_mix_extra));
    w.key_u32(a + ".time_decay_extra_dim", static_cast<uint32_t>(s.time_decay_extra));
  } else if (s.arch == "rwkv6qwen2") {
    // conversion/rwkv.py RWKV6Qwen2Model.set_gguf_parameters (the RMS
    // epsilon is written with the shared keys): the key and value's heads
    // as head_count_kv, one token-shift row
    w.key_u32(a + ".feed_forward_length", static_cast<uint32_t>(s.ffn));
    w.key_u32(a + ".wkv.head_size", static_cast<uint32_t>(s.wkv_head));
    w.key_u32(a + ".time_mix_extra_dim", static_cast<uint32_t>(s.time_mix_extra));
    w.key_u32(a + ".time_decay_extra_dim", static_cast<uint32_t>(s.time_decay_extra));
    w.key_u32(a + ".token_shift_count", 1);
    w.key_u32(a + ".attention.head_count_kv", static_cast<uint32_t>(s.kv_heads));
  } else if (s.arch == "arwkv7") {
    // conversion/rwkv.py ARwkv7Model.set_gguf_parameters (the RMS epsilon is
    // written with the shared keys)
    w.key_u32(a + ".feed_forward_length", static_cast<uint32_t>(s.ffn));
    w.key_u32(a + ".wkv.head_size", static_cast<uint32_t>(s.wkv_head));
    w.key_u32(a + ".attention.decay_lora_rank", static_cast<uint32_t>(s.lora_decay));
    w.key_u32(a + ".attention.iclr_lora_rank", static_cast<uint32_t>(s.lora_iclr));
    w.key_u32(a + ".attention.value_residual_mix_lora_rank", static_cast<uint32_t>(s.lora_value));
    w.key_u32(a + ".attention.gate_lora_rank", static_cast<uint32_t>(s.lora_gate));
    w.key_u32(a + ".token_shift_count", 1);
  } else if (s.arch == "rwkv7") {
    // conversion/rwkv.py Rwkv7Model.set_gguf_parameters
    w.key_u32(a + ".feed_forward_length", static_cast<uint32_t>(s.ffn));
    w.key_f32(a + ".attention.layer_norm_epsilon", s.rms_eps);
    w.key_u32(a + ".wkv.head_size", static_cast<uint32_t>(s.wkv_head));
    w.key_u32(a + ".attention.decay_lora_rank", static_cast<uint32_t>(s.lora_decay));
    w.key_u32(a + ".attention.iclr_lora_rank", static_cast<uint32_t>(s.lora_iclr));
    w.key_u32(a + ".attention.value_residual_mix_lora_rank", static_cast<uint32_t>(s.lora_value));
    w.key_u32(a + ".attention.gate_lora_rank", static_cast<uint32_t>(s.lora_gate));
  } else if (s.arch == "mamba" || s.arch == "mamba2") {
    // conversion/mamba.py: "unused, but seemingly required when loading"
    w.key_u32(a + ".feed_forward_length", 0);
  } else if (s.layer_kinds.empty()) {
    w.key_u32(a + ".feed_forward_length", static_cast<uint32_t>(s.ffn));
    w.key_u32(a + ".attention.head_count_kv",
              static_cast<uint32_t>(
                  s.kv_lora > 0 && s.arch != "minicpm3" && s.arch != "plm" ? 1 : s.kv_heads));
  } else {
    std::vector<uint32_t> ffn;
    std::vector<uint32_t> kv;
    for (int i = 0; i < s.layers; ++i) {
      const char kind = layer_kind(s, i);
      const bool attention = kind == 'A' || kind == '*';
      // conversion/nemotron.py: the MLP width on the MLP blocks (their
      // experts' width, moe_intermediate_size, on MoE blocks), 0 elsewhere.
      const bool nemotron = s.arch.rfind("nemotron_h", 0) == 0;
      const bool mlp = nemotron ? kind == '-' || kind == 'E' : true;
      ffn.push_back(mlp ? static_cast<uint32_t>(kind == 'E' ? s.expert_ffn : s.ffn) : 0);
      kv.push_back(attention ? static_cast<uint32_t>(s.kv_heads) : 0);
    }
    w.key_arr_u32(a + ".feed_forward_length", ffn);
    w.key_arr_u32(a + ".attention.head_count_kv", kv);
  }
  if (s.arch == "dots3note") {
    // conversion/dots3.py Dots3NoteModel.set_gguf_parameters: query heads
    // per layer by kind, the windowed layers' flags and MLA widths (the
    // cache's key_length_swa / value_length_swa and the per-head *_mla_swa).
    std::vector<uint32_t> heads;
    std::vector<bool> swa;
    for (const char c : s.swa_layers) {
      heads.push_back(static_cast<uint32_t>(c == 'S' ? s.swa_heads : s.heads));
      swa.push_back(c == 'S');
    }
    w.key_arr_u32(a + ".attention.head_count", heads);
    w.key_arr_bool(a + ".attention.sliding_window_pattern", swa);
    w.key_u32(a + ".attention.kv_lora_rank_swa", static_cast<uint32_t>(s.swa_kv_lora));
    w.key_u32(a + ".attention.key_length_swa", static_cast<uint32_t>(s.swa_kv_lora + s.rope_dim));
    w.key_u32(a + ".attention.value_length_swa", static_cast<uint32_t>(s.swa_kv_lora));
    w.key_u32(a + ".attention.key_length_mla_swa", static_cast<uint32_t>(s.swa_nope + s.rope_dim));
    w.key_u32(a + ".attention.value_length_mla_swa", static_cast<uint32_t>(s.swa_v));
  } else if (s.arch == "plamo2") {
    std::vector<uint32_t> heads;
    for (int i = 0; i < s.layers; ++i) {
      heads.push_back(layer_kind(s, i) == 'A' ? static_cast<uint32_t>(s.heads) : 0);
    }
    w.key_arr_u32(a + ".attention.head_count", heads);
  } else if (s.arch != "step35" && s.arch != "laguna" && s.deci.empty()) {
    w.key_u32(a + ".attention.head_count", static_cast<uint32_t>(s.heads));
  }
  if (s.arch == "minicpm3") {
    // conversion/minicpm.py MiniCPM3Model.set_gguf_parameters: the ranks,
    // key_length = nope + rope, rope over the rope dims, no value_length
    // (llama.cpp takes n_embd / n_head).
    w.key_u32(a + ".attention.q_lora_rank", static_cast<uint32_t>(s.q_lora));
    w.key_u32(a + ".attention.kv_lora_rank", static_cast<uint32_t>(s.kv_lora));
    w.key_u32(a + ".attention.key_length", static_cast<uint32_t>(s.nope_dim + s.rope_dim));
    w.key_u32(a + ".rope.dimension_count", static_cast<uint32_t>(s.rope_dim));
  } else if (s.arch == "plm") {
    // conversion/plm.py PLMModel.set_gguf_parameters: vocab_size, the
    // latent's rank, key_length = nope + rope, value_length = v, rope over
    // the rope dims.
    w.key_u32(a + ".vocab_size", static_cast<uint32_t>(s.vocab));
    w.key_u32(a + ".attention.kv_lora_rank", static_cast<uint32_t>(s.kv_lora));
    w.key_u32(a + ".attention.key_length", static_cast<uint32_t>(s.nope_dim + s.rope_dim));
    w.key_u32(a + ".attention.value_length", static_cast<uint32_t>(s.v_dim));
    w.key_u32(a + ".rope.dimension_count", static_cast<uint32_t>(s.rope_dim));
  } else if (s.kv_lora > 0) {
    // MLA as convert_hf_to_gguf.py writes it today: the cache holds the
    // latent and the rope part (key_length = kv_lora_rank + rope dims, value
    // = kv_lora_rank); the per-head sizes go to the *_mla keys.
    w.key_u32(a + ".attention.key_length", static_cast<uint32_t>(s.kv_lora + s.rope_dim));
    // conversion/bailingmoe3.py leaves base.py's value_length (head_dim) as it is
    w.key_u32(a + ".attention.value_length",
              static_cast<uint32_t>(s.arch == "bailingmoe3" ? s.kda_head_dim : s.kv_lora));
    w.key_u32(a + ".attention.key_length_mla", static_cast<uint32_t>(s.nope_dim + s.rope_dim));
    w.key_u32(a + ".attention.value_length_mla", static_cast<uint32_t>(s.v_dim));
    w.key_u32(a + ".attention.kv_lora_rank", static_cast<uint32_t>(s.kv_lora));
    w.key_u32(a + ".rope.dimension_count", static_cast<uint32_t>(s.rope_dim));
  } else if (s.arch == "mimo2") {
    // key_length from head_dim (base.py), value_length from v_head_dim, rope
    // over head_dim x partial_rotary_factor (0.334: 64 of 192)
    w.key_u32(a + ".attention.key_length", static_cast<uint32_t>(s.head_dim));
    w.key_u32(a + ".attention.value_length", static_cast<uint32_t>(s.v_dim));
    w.key_u32(a + ".rope.dimension_count", static_cast<uint32_t>(s.rope_dim));
  } else if (s.arch == "chatglm" || s.arch == "gptneox") {
    // conversion/chatglm.py set_gguf_parameters: no key_length or
    // value_length (n_embd / n_head), RoPE over half the head;
    // conversion/gptneox.py likewise, RoPE over rotary_pct of it
    w.key_u32(a + ".rope.dimension_count", static_cast<uint32_t>(s.rope_dim));
  } else if (s.global_head_dim > 0) {
    // Gemma 4 (conversion/gemma.py Gemma4Model.set_gguf_parameters): the
    // global layers' head width as key_length and value_length, the windowed
    // layers' as the *_swa keys; rope over the whole head on both (the
    // global layers' partial rotation is rope_freqs.weight).
    w.key_u32(a + ".attention.key_length", static_cast<uint32_t>(s.global_head_dim));
    w.key_u32(a + ".attention.value_length", static_cast<uint32_t>(s.global_head_dim));
    w.key_u32(a + ".attention.key_length_swa", static_cast<uint32_t>(s.head_dim));
    w.key_u32(a + ".attention.value_length_swa", static_cast<uint32_t>(s.head_dim));
    w.key_u32(a + ".rope.dimension_count", static_cast<uint32_t>(s.global_head_dim));
    w.key_u32(a + ".rope.dimension_count_swa", static_cast<uint32_t>(s.head_dim));
  } else {
    w.key_u32(a + ".attention.key_length", static_cast<uint32_t>(s.head_dim));
    w.key_u32(a + ".attention.value_length", static_cast<uint32_t>(s.head_dim));
    w.key_u32(a + ".rope.dimension_count",
              static_cast<uint32_t>(s.rope_dim > 0 ? s.rope_dim : s.head_dim));
  }
  w.key_f32(a + ".rope.freq_base", s.rope_base);
  if (s.swa_rope_base > 0) {
    w.key_f32(a + ".rope.freq_base_swa", static_cast<double>(s.swa_rope_base));
  }
  w.key_f32(a + ".attention.layer_norm_rms_epsilon", s.rms_eps);
  if (s.arch == "nomic-bert" || s.arch == "nomic-bert-moe" || s.arch == "jina-bert-v2" ||
      s.arch == "jina-bert-v3" || s.arch == "bert") {
    // conversion/bert.py BertModel: LayerNorm epsilon, not causal, mean
    // pooling, the token types (nomic-bert.cpp requires the epsilon and the
    // token types); NomicBertModel for the MoE model: moe_every_n_layers
    w.key_f32(a + ".attention.layer_norm_epsilon", s.rms_eps);
    w.key_bool(a + ".attention.causal", false);
    w.key_u32(a + ".pooling_type", 1);
    w.key_u32("tokenizer.ggml.token_type_count",
              s.arch == "nomic-bert-moe" || s.arch == "jina-bert-v3" ? 1 : 2);
    if (s.arch == "nomic-bert-moe") {
      w.key_u32(a + ".moe_every_n_layers", 2);
    }
  }
  if (s.arch == "eurobert") {
    // conversion/bert.py EuroBertModel: not causal (no pooling type for the
    // base model: _try_set_pooling_type finds no sentence-transformers
    // modules.json)
    w.key_bool(a + ".attention.causal", false);
  }
  if (s.arch == "deepseek2-ocr") {
    // conversion/deepseek.py DeepseekV2Model for DeepseekOCRForCausalLM: no
    // MLA keys; the MoE ones (no routed_scaling_factor or norm_topk_prob in
    // its config, so neither is written)
    w.key_u32(a + ".leading_dense_block_count", static_cast<uint32_t>(s.dense_lead));
    w.key_u32(a + ".vocab_size", static_cast<uint32_t>(s.vocab));
    w.key_u32(a + ".expert_shared_count", static_cast<uint32_t>(s.shared_experts));
  }
  if (s.arch == "hunyuan_vl") {
    // conversion/hunyuan.py HunyuanVLTextModel: XD-RoPE's alpha and sections
    w.key_f32(a + ".rope.scaling.alpha", 1000.0);
    w.key_arr_u32(a + ".rope.dimension_sections", {16, 16, 16, 16});
  }
  if (s.arch == "paddleocr") {
    // conversion/ernie.py PaddleOCRModel (base.py): the M-RoPE sections
    // (rope_scaling.mrope_section, padded to four)
    w.key_arr_u32(a + ".rope.dimension_sections", {16, 24, 24, 0});
  }
  if (s.arch == "qwen3tts") {
    // conversion/qwen3tts.py (base.py): talker_config's
    // rope_scaling.mrope_section padded to four, which qwen3vl.cpp requires
    w.key_arr_u32(a + ".rope.dimension_sections", {24, 20, 20, 0});
  }
  if (s.arch == "pockettts") {
    // pockettts.cpp load_arch_hparams requires the LayerNorm epsilon
    // (conversion/pockettts.py's derived config: layer_norm_eps 1e-5)
    w.key_f32(a + ".attention.layer_norm_epsilon", s.rms_eps);
  }
  if (s.arch == "llada-moe" || s.arch == "rnd1") {
    // conversion/llada.py LLaDAMoEModel, conversion/qwen.py RND1Model: not
    // causal (both loaders set causal_attn false whatever the file says)
    w.key_bool(a + ".attention.causal", false);
  }
  if (s.arch == "neo-bert") {
    // conversion/bert.py NeoBert on BertModel: not causal, one token type,
    // CLS pooling (2); feed_forward_length is 2/3 of intermediate_size (the
    // row's ffn)
    w.key_bool(a + ".attention.causal", false);
    w.key_u32(a + ".pooling_type", 2);
    w.key_u32("tokenizer.ggml.token_type_count", 1);
  }
  if (s.experts_per_group > 0) {
    // conversion/grovemoe.py GroveMoeModel.set_gguf_parameters: the chunk
    // width (head_dim or 128), 2 experts a group, the group scale 0.05
    w.key_u32(a + ".expert_chunk_feed_forward_length", static_cast<uint32_t>(s.chunk_ffn));
    w.key_u32(a + ".experts_per_group", static_cast<uint32_t>(s.experts_per_group));
    w.key_f32(a + ".expert_group_scale", 0.05);
  }
  if (s.arch == "plamo3") {
    // conversion/plamo.py Plamo3Model.set_gguf_parameters: the vocabulary
    // size, and sliding_window_pattern beside the window (written below)
    w.key_u32(a + ".vocab_size", static_cast<uint32_t>(s.vocab));
    w.key_u32(a + ".attention.sliding_window_pattern", static_cast<uint32_t>(s.swa_period));
  }
  if (s.arch == "modern-bert") {
    // conversion/bert.py ModernBertModel on BertModel: LayerNorm epsilon, not
    // causal, mean pooling, the window's period (global_attn_every_n_layers),
    // hidden_act (the window itself below)
    w.key_f32(a + ".attention.layer_norm_epsilon", s.rms_eps);
    w.key_bool(a + ".attention.causal", false);
    w.key_u32(a + ".pooling_type", 1);
    w.key_u32(a + ".attention.sliding_window_pattern", static_cast<uint32_t>(s.swa_period));
    w.key_str(a + ".hidden_act", "gelu");
  }
  if (s.arch == "t5" || s.arch == "t5encoder") {
    // conversion/t5.py T5Model.set_gguf_parameters: the decoder's blocks, the
    // LayerNorm epsilon beside the RMS one, the buckets, the decoder's start
    // token (t5.cpp requires the RMS epsilon and the buckets);
    // T5EncoderModel's: the same without the decoder's keys.
    if (s.arch == "t5") {
      w.key_u32(a + ".decoder_block_count", static_cast<uint32_t>(s.layers));
      w.key_u32(a + ".decoder_start_token_id", 0);
    }
    w.key_f32(a + ".attention.layer_norm_epsilon", s.rms_eps);
    w.key_u32(a + ".attention.relative_buckets_count", 32);
  }
  if (s.arch == "grok") {
    // conversion/grok.py GrokModel.set_gguf_parameters: the soft-caps (30),
    // the attention output multiplier, the embedding and output multipliers
    // of xai-org/grok-1 run.py.
    w.key_f32(a + ".attn_logit_softcapping", 30.0);
    w.key_f32(a + ".router_logit_softcapping", 30.0);
    w.key_f32(a + ".attention.output_scale", 0.08838834764831845);
    w.key_f32(a + ".embedding_scale", 78.38367176906169);
    w.key_f32(a + ".logit_scale", 0.5773502691896257);
  }
  if (s.arch == "dbrx") {
    // conversion/dbrx.py: add_layer_norm_eps(1e-5) and add_clamp_kqv of
    // attn_config.clip_qkv (8 in DBRX's config); dbrx.cpp requires both.
    w.key_f32(a + ".attention.layer_norm_epsilon", s.rms_eps);
    w.key_f32(a + ".attention.clamp_kqv", 8.0);
  }
  if (s.arch == "orion") {
    // conversion/orion.py: the LayerNorm epsilon (rms_norm_eps, which Orion
    // runs as a LayerNorm's) orion.cpp requires
    w.key_f32(a + ".attention.layer_norm_epsilon", s.rms_eps);
  }
  if (s.loops > 0) {
    // conversion/nanbeige.py NanbeigeModel.set_gguf_parameters
    w.key_u32(a + ".num_loops", static_cast<uint32_t>(s.loops));
    w.key_bool(a + ".skip_loop_final_norm", false);
  }
  if (s.arch == "chameleon") {
    // conversion/chameleon.py: add_swin_norm(config swin_norm, default false)
    w.key_bool(a + ".swin_norm", s.swin_norm);
  }
  if (s.arch == "jais2") {
    // jais2.cpp load_arch_hparams requires the LayerNorm epsilon (base.py
    // writes layer_norm_eps as it)
    w.key_f32(a + ".attention.layer_norm_epsilon", s.rms_eps);
  }
  if (s.arch == "nemotron") {
    // nemotron.cpp load_arch_hparams requires the LayerNorm epsilon
    // (conversion/nemotron.py writes it beside base.py's RMS one)
    w.key_f32(a + ".attention.layer_norm_epsilon", s.rms_eps);
  }
  if (s.arch == "dflash") {
    // conversion/qwen.py DFlashModel: block_size and target_layers (the
    // config's target_layer_ids + 1), which dflash.cpp requires
    w.key_u32(a + ".block_size", 16);
    w.key_arr_u32(a + ".target_layers", {2, 10, 18, 26, 34});
  }
  if (s.arch == "talkie") {
    // conversion/talkie.py: lm_head_gain.w_g as logit_scale (talkie.cpp
    // requires it); its value moves no buffer
    w.key_f32(a + ".logit_scale", 1.0);
  }
  if (s.arch == "olmo") {
    // conversion/olmo.py: the LayerNorm epsilon olmo.cpp requires (1e-5);
    // no clamp_kqv, OLMo-1B's clip_qkv being null
    w.key_f32(a + ".attention.layer_norm_epsilon", s.rms_eps);
  }
  if (s.arch == "starcoder" || s.arch == "bloom") {
    // conversion/starcoder.py, conversion/bloom.py: the LayerNorm epsilon
    // starcoder.cpp and bloom.cpp require
    w.key_f32(a + ".attention.layer_norm_epsilon", s.rms_eps);
  }
  if (s.arch == "codeshell") {
    // conversion/codeshell.py: the LayerNorm epsilon codeshell.cpp requires,
    // and a linear RoPE scaling of factor 1
    w.key_f32(a + ".attention.layer_norm_epsilon", s.rms_eps);
    w.key_str(a + ".rope.scaling.type", "linear");
    w.key_f32(a + ".rope.scaling.factor", 1.0);
  }
  if (s.arch == "jais") {
    // conversion/jais.py: the LayerNorm epsilon jais.cpp requires and the
    // max_alibi_bias it derives from the checkpoint's slopes (8)
    w.key_f32(a + ".attention.layer_norm_epsilon", s.rms_eps);
    w.key_f32(a + ".attention.max_alibi_bias", 8.0);
  }
  if (s.arch == "phi2" || s.arch == "starcoder2") {
    // conversion/phi.py, conversion/starcoder.py: the LayerNorm epsilon
    // phi2.cpp and starcoder2.cpp require
    w.key_f32(a + ".attention.layer_norm_epsilon", s.rms_eps);
  }
  if (s.arch == "falcon") {
    // conversion/falcon.py: the LayerNorm epsilon falcon.cpp requires
    // (layer_norm_epsilon 1e-5 in both configs)
    w.key_f32(a + ".attention.layer_norm_epsilon", s.rms_eps);
  }
  if (s.arch == "mpt") {
    // conversion/mpt.py: the LayerNorm epsilon mpt.cpp requires (1e-5) and
    // max_alibi_bias (attn_config.alibi_bias_max 8); no clamp_kqv, MPT-7B's
    // clip_qkv being null
    w.key_f32(a + ".attention.layer_norm_epsilon", s.rms_eps);
    w.key_f32(a + ".attention.max_alibi_bias", 8.0);
  }
  if (s.arch == "gptneox") {
    // conversion/gptneox.py: the LayerNorm epsilon and use_parallel_residual,
    // both of which gptneox.cpp load_arch_hparams requires
    w.key_f32(a + ".attention.layer_norm_epsilon", s.rms_eps);
    w.key_bool(a + ".use_parallel_residual", true);
  }
  if (s.arch.rfind("nemotron_h", 0) == 0) {
    // nemotron-h.cpp reads the plain layer-norm epsilon too (its MTP head's final norm)
    w.key_f32(a + ".attention.layer_norm_epsilon", s.rms_eps);
  }
  if (s.sliding_window > 0) {
    w.key_u32(a + ".attention.sliding_window", static_cast<uint32_t>(s.sliding_window));
  }
  if (s.attn_softcap > 0) {
    w.key_f32(a + ".attn_logit_softcapping", s.attn_softcap);
    w.key_f32(a + ".final_logit_softcapping", s.final_softcap);
  }
  if (s.arch == "gemma-embedding") {
    // conversion/gemma.py EmbeddingGemma: _try_set_pooling_type from the
    // sentence-transformers 1_Pooling module (mean: LLAMA_POOLING_TYPE_MEAN 1)
    w.key_u32(a + ".pooling_type", 1);
  }
  if (s.arch == "gemma3n") {  // conversion/gemma.py Gemma3NModel.set_gguf_parameters
    w.key_f32(a + ".final_logit_softcapping", s.final_softcap);
    w.key_u32(a + ".altup.active_idx", 0);
    w.key_u32(a + ".altup.num_inputs", static_cast<uint32_t>(s.altup_inputs));
    w.key_u32(a + ".embedding_length_per_layer_input", static_cast<uint32_t>(s.per_layer_width));
    w.key_u32(a + ".attention.shared_kv_layers", static_cast<uint32_t>(s.kv_shared_layers));
    // layer_types as per-layer flags (true: sliding); this llama.cpp reads
    // only a scalar under the key and keeps its period of 5 for an array.
    std::vector<bool> swa;
    for (int i = 0; i < s.layers; ++i) {
      swa.push_back((i + 1) % s.swa_period != 0);
    }
    w.key_arr_bool(a + ".attention.sliding_window_pattern", swa);
  }
  if (s.arch == "gemma4") {  // conversion/gemma.py Gemma4Model.set_gguf_parameters
    w.key_f32(a + ".final_logit_softcapping", s.final_softcap);
    w.key_u32(a + ".attention.shared_kv_layers", static_cast<uint32_t>(s.kv_shared_layers));
    w.key_u32(a + ".embedding_length_per_layer_input", static_cast<uint32_t>(s.per_layer_width));
    std::vector<bool> swa;
    for (int i = 0; i < s.layers; ++i) {
      swa.push_back((i + 1) % s.swa_period != 0);
    }
    w.key_arr_bool(a + ".attention.sliding_window_pattern", swa);
  }
  if (s.experts > 0) {
    w.key_u32(a + ".expert_count", static_cast<uint32_t>(s.experts));
    w.key_u32(a + ".expert_used_count", static_cast<uint32_t>(s.experts_used));
    if (s.expert_ffn > 0) {
      w.key_u32(a + ".expert_feed_forward_length", static_cast<uint32_t>(s.expert_ffn));
    }
  }
  if (s.expert_scale > 0) {  // conversion/nemotron.py NemotronHModel.set_gguf_parameters
    w.key_u32(a + ".expert_shared_count", static_cast<uint32_t>(s.shared_experts));
    w.key_bool(a + ".expert_weights_norm", true);
    w.key_f32(a + ".expert_weights_scale", s.expert_scale);
    w.key_u32(a + ".expert_group_count", 1);
  }
  if (s.arch == "deepseek2" || s.arch == "mistral4") {
    if (s.q_lora > 0) {
      w.key_u32(a + ".attention.q_lora_rank", static_cast<uint32_t>(s.q_lora));
    }
    w.key_u32(a + ".expert_shared_count", static_cast<uint32_t>(s.shared_experts));
    w.key_u32(a + ".leading_dense_block_count", static_cast<uint32_t>(s.dense_lead));
    w.key_f32(a + ".expert_weights_scale", 1.0);
  }
  if (s.index_heads > 0 && s.arch != "deepseek4") {  // deepseek4 writes its own below
    // conversion/deepseek.py DeepseekV32Model, conversion/glm.py
    // GlmMoeDsaModel (over DeepseekV2Model.set_gguf_parameters): the MoE
    // keys, q_lora_rank, the indexer's; the sigmoid router (base.py
    // scoring_func), norm_topk_prob; GLM-5.2's indexer_types as flags.
    w.key_u32(a + ".expert_shared_count", static_cast<uint32_t>(s.shared_experts));
    w.key_u32(a + ".leading_dense_block_count", static_cast<uint32_t>(s.dense_lead));
    w.key_f32(a + ".expert_weights_scale", s.expert_weights_scale);
    w.key_bool(a + ".expert_weights_norm", true);
    w.key_u32(a + ".expert_gating_func", 2);
    w.key_u32(a + ".vocab_size", static_cast<uint32_t>(s.vocab));
    w.key_u32(a + ".attention.q_lora_rank", static_cast<uint32_t>(s.q_lora));
    w.key_u32(a + ".attention.indexer.head_count", static_cast<uint32_t>(s.index_heads));
    w.key_u32(a + ".attention.indexer.key_length", static_cast<uint32_t>(s.index_head_dim));
    w.key_u32(a + ".attention.indexer.top_k", static_cast<uint32_t>(s.index_top_k));
    if (!s.indexer_types.empty()) {
      std::vector<bool> full;
      for (const char c : s.indexer_types) {
        full.push_back(c == 'F');
      }
      w.key_arr_bool(a + ".attention.indexer.types", full);
    }
  }
  if (s.full_attn_interval > 0) {
    w.key_u32(a + ".full_attention_interval", static_cast<uint32_t>(s.full_attn_interval));
  }
  if (s.arch == "kimi-k3") {  // conversion/kimi_k3.py set_gguf_parameters, beyond kimi-linear's
    w.key_f32(a + ".kda.gate_lower_bound", s.kda_lower_bound);
    w.key_u32(a + ".attention.q_lora_rank", static_cast<uint32_t>(s.q_lora));
    w.key_u32(a + ".expert_latent_length", static_cast<uint32_t>(s.expert_latent));
    w.key_f32(a + ".activation.situ_beta", s.situ_beta);
    w.key_f32(a + ".activation.situ_linear_beta", s.situ_linear_beta);
    w.key_u32(a + ".attn_res.block_size", static_cast<uint32_t>(s.res_block));
  }
  if (s.arch == "arctic") {  // conversion/arctic.py ArcticModel.set_gguf_parameters
    w.key_u32(a + ".vocab_size", static_cast<uint32_t>(s.vocab));
  }
  if (s.arch == "bailingmoe") {  // conversion/bailingmoe.py BailingMoeModel.set_gguf_parameters
    w.key_u32(a + ".leading_dense_block_count", 0);  // first_k_dense_replace
    w.key_u32(a + ".vocab_size", static_cast<uint32_t>(s.vocab));
    w.key_f32(a + ".expert_weights_scale", 1.0);
    w.key_u32(a + ".expert_shared_count", static_cast<uint32_t>(s.shared_experts));
    w.key_bool(a + ".expert_weights_norm", true);  // norm_topk_prob
  }
  if (s.arch == "bailingmoe3") {  // conversion/bailingmoe3.py, beyond the keys it shares
    w.key_f32(a + ".kda.gate_lower_bound", s.kda_lower_bound);
    w.key_bool(a + ".kda.safe_gate", true);
    w.key_u32(a + ".attention.q_lora_rank", static_cast<uint32_t>(s.q_lora));
    w.key_u32(a + ".expert_shared_feed_forward_length",
              static_cast<uint32_t>(s.expert_ffn * s.shared_experts));
  }
  // conversion/kimi_linear.py (bailingmoe3.py writes the same)
  if (s.arch == "kimi-linear" || s.arch == "kimi-k3" || s.arch == "bailingmoe3") {
    w.key_u32(a + ".ssm.conv_kernel", static_cast<uint32_t>(s.kda_conv));
    w.key_u32(a + ".kda.head_dim", static_cast<uint32_t>(s.kda_head_dim));
    w.key_u32(a + ".expert_shared_count", static_cast<uint32_t>(s.shared_experts));
    w.key_u32(a + ".leading_dense_block_count", static_cast<uint32_t>(s.dense_lead));
    w.key_f32(a + ".expert_weights_scale", s.expert_weights_scale);
    w.key_bool(a + ".expert_weights_norm", true);  // moe_renormalize
    w.key_u32(a + ".expert_gating_func", 2);       // sigmoid (moe_router_activation_func)
    w.key_u32(a + ".vocab_size", static_cast<uint32_t>(s.vocab));
  }
  if (s.arch == "deepseek4") {  // conversion/deepseek.py DeepseekV4Model.set_gguf_parameters
    w.key_u32(a + ".attention.q_lora_rank", static_cast<uint32_t>(s.q_lora));
    w.key_u32(a + ".expert_shared_count", static_cast<uint32_t>(s.shared_experts));
    w.key_f32(a + ".expert_weights_scale", s.expert_weights_scale);
    w.key_bool(a + ".expert_weights_norm", true);  // norm_topk_prob
    w.key_u32(a + ".expert_gating_func", 4);       // sqrtsoftplus (scoring_func)
    w.key_f32(a + ".swiglu_clamp_exp", 10.0);      // swiglu_limit
    w.key_f32(a + ".swiglu_clamp_shexp", 10.0);
    w.key_u32(a + ".attention.indexer.head_count", static_cast<uint32_t>(s.index_heads));
    w.key_u32(a + ".attention.indexer.key_length", static_cast<uint32_t>(s.index_head_dim));
    w.key_u32(a + ".attention.indexer.top_k", static_cast<uint32_t>(s.index_top_k));
    w.key_u32(a + ".attention.output_group_count", static_cast<uint32_t>(s.o_groups));
    w.key_u32(a + ".attention.output_lora_rank", static_cast<uint32_t>(s.o_lora));
    // one ratio per block and, as the converter copies compress_ratios, the
    // MTP block's 0 after them
    std::vector<uint32_t> ratios;
    for (const char c : s.compress_layers) {
      ratios.push_back(c == 'C' ? 4 : c == 'H' ? 128 : 0);
    }
    ratios.push_back(0);
    w.key_arr_u32(a + ".attention.compress_ratios", ratios);
    w.key_f32(a + ".attention.compress_rope_freq_base", 160000.0);
    w.key_u32(a + ".hyper_connection.count", static_cast<uint32_t>(s.hc_mult));
    w.key_u32(a + ".hyper_connection.sinkhorn_iterations", 20);
    w.key_f32(a + ".hyper_connection.epsilon", 1e-6);
    w.key_u32(a + ".hash_layer_count", static_cast<uint32_t>(s.hash_layers));
    w.key_u32(a + ".embedding_length_out", static_cast<uint32_t>(s.hidden * s.hc_mult));
    w.key_str(a + ".rope.scaling.type", "yarn");  // rope_scaling: factor 16 over 65536
    w.key_f32(a + ".rope.scaling.factor", 16.0);
    w.key_u32(a + ".rope.scaling.original_context_length", 65536);
  }
  if (s.arch == "qwen4exp") {  // conversion/qwen4exp.py Qwen4ExpTextModel.set_gguf_parameters
    w.key_arr_u32(a + ".rope.dimension_sections", {11, 11, 10, 0});
    w.key_u32(a + ".hyper_connection.count", static_cast<uint32_t>(s.hc_mult));
    w.key_u32(a + ".hyper_connection.low_rank", static_cast<uint32_t>(s.hc_low_rank));
    w.key_u32(a + ".attention.indexer.head_count", static_cast<uint32_t>(s.indexer_heads));
    w.key_u32(a + ".attention.indexer.key_length", static_cast<uint32_t>(s.indexer_dim));
    w.key_u32(a + ".attention.indexer.top_k", static_cast<uint32_t>(s.indexer_top_k));
    std::vector<uint32_t> ratios;
    for (int i = 0; i < s.layers; ++i) {
      ratios.push_back(layer_kind(s, i) == 'A' ? static_cast<uint32_t>(s.qsa_ratio) : 0);
    }
    w.key_arr_u32(a + ".attention.compress_ratios", ratios);
    const int heads = (s.ple_ngram - 1) * s.ple_per_ngram;
    const std::vector<uint64_t> sizes = ple_head_sizes(s.ple_base, heads);
    std::vector<uint64_t> offsets;
    uint64_t offset = 0;
    for (const uint64_t n : sizes) {
      offsets.push_back(offset);
      offset += n;
    }
    w.key_arr_u32(a + ".ple.layers", {static_cast<uint32_t>(s.ple_layer)});
    w.key_u32(a + ".ple.ngram_size", static_cast<uint32_t>(s.ple_ngram));
    w.key_u32(a + ".ple.heads_per_ngram", static_cast<uint32_t>(s.ple_per_ngram));
    w.key_u32(a + ".ple.conv_kernel", static_cast<uint32_t>(s.ple_conv));
    w.key_u32(a + ".ple.eos_token_id", static_cast<uint32_t>(s.ple_eos));
    w.key_u32(a + ".embedding_length_per_layer_input", static_cast<uint32_t>(s.ple_width));
    // odd multipliers (the values move no buffer: the hash runs on the host)
    w.key_arr_u64(a + ".ple.layer_multipliers", {1000003, 2000003, 3000017});
    w.key_arr_u64(a + ".ple.head_offsets", offsets);
    w.key_arr_u64(a + ".ple.head_vocab_sizes", sizes);
  }
  if (s.arch == "minimax-01") {  // conversion/minimax.py MiniMaxText01Model.set_gguf_parameters
    w.key_f32(a + ".residual_scale", 3.5565588200778455);  // layernorm_*_alpha
  }
  if (s.arch == "minimax-m3") {  // conversion/minimax.py MiniMaxM3Model.set_gguf_parameters
    w.key_u32(a + ".expert_shared_count", static_cast<uint32_t>(s.shared_experts));
    w.key_f32(a + ".expert_weights_scale", s.expert_weights_scale);
    w.key_bool(a + ".expert_weights_norm", true);
    w.key_u32(a + ".expert_gating_func", 2);  // scoring_func sigmoid
    w.key_u32(a + ".leading_dense_block_count", static_cast<uint32_t>(s.dense_lead));
    w.key_u32(a + ".attention.indexer.head_count", static_cast<uint32_t>(s.indexer_heads));
    w.key_u32(a + ".attention.indexer.key_length", static_cast<uint32_t>(s.indexer_dim));
    w.key_u32(a + ".attention.indexer.top_k", static_cast<uint32_t>(s.indexer_top_k));
    w.key_u32(a + ".attention.indexer.block_size", static_cast<uint32_t>(s.indexer_block));
    w.key_u32(a + ".attention.indexer.local_blocks", static_cast<uint32_t>(s.indexer_local));
  }
  if (s.arch == "hy_v3") {  // conversion/hunyuan.py HYV3Model.set_gguf_parameters
    w.key_bool(a + ".expert_weights_norm", true);  // route_norm
    w.key_f32(a + ".expert_weights_scale", s.expert_weights_scale);
    w.key_u32(a + ".expert_gating_func", 2);  // sigmoid
  }
  if (s.arch == "smallthinker") {  // conversion/smallthinker.py: sigmoid router
    w.key_u32(a + ".expert_gating_func", 2);
  }
  if (s.arch == "cohere2moe") {  // conversion/command_r.py Cohere2MoeModel.set_gguf_parameters
    w.key_f32(a + ".logit_scale", s.logit_scale);
    std::vector<bool> swa;
    for (int i = 0; i < s.layers; ++i) {
      swa.push_back(s.swa_layers[static_cast<size_t>(i)] == 'S');
    }
    w.key_arr_bool(a + ".attention.sliding_window_pattern", swa);
    w.key_u32(a + ".leading_dense_block_count", static_cast<uint32_t>(s.dense_lead));
    w.key_bool(a + ".expert_weights_norm", false);  // norm_topk_prob
  }
  // conversion/granite.py GraniteSwitchModel.set_gguf_parameters: the
  // adapters, their control tokens (each substituted by a base token) and
  // the router's gain; expert_used_count pinned to 0 (dense).
  if (s.arch == "graniteswitch") {
    w.key_u32(a + ".expert_used_count", 0);
    w.key_u32(a + ".adapters.count", static_cast<uint32_t>(s.adapters));
    w.key_u32(a + ".adapters.lora_rank", static_cast<uint32_t>(s.adapter_rank));
    std::vector<uint32_t> activate;
    std::vector<uint32_t> substitute;
    for (int k = 0; k < s.adapters; ++k) {
      activate.push_back(static_cast<uint32_t>(s.vocab - s.adapters + k));
      substitute.push_back(3);
    }
    w.key_arr_u32(a + ".adapters.token_ids_activate", activate);
    w.key_arr_u32(a + ".adapters.token_ids_substitute", substitute);
    w.key_f32(a + ".adapters.router_gain", 15.0);  // control_token_gain's default
  }
  // conversion/granite.py GraniteSWAModel.set_gguf_parameters and
  // conversion/mellum.py MellumModel.set_gguf_parameters: one flag a layer
  if (s.arch == "granite_swa" || s.arch == "mellum" || s.arch == "muse-glimmer") {
    std::vector<bool> swa;
    for (int i = 0; i < s.layers; ++i) {
      swa.push_back(s.swa_layers[static_cast<size_t>(i)] == 'S');
    }
    w.key_arr_bool(a + ".attention.sliding_window_pattern", swa);
  }
  if (s.arch == "muse-glimmer") {
    // conversion/muse_glimmer.py MuseGlimmerModel.set_gguf_parameters: the
    // softcap and output_multiplier (logit_scale, which the loader requires)
    w.key_f32(a + ".final_logit_softcapping", s.final_softcap);
    w.key_f32(a + ".logit_scale", s.logit_scale);
  }
  if (s.arch == "afmoe") {  // conversion/afmoe.py AfmoeModel.set_gguf_parameters
    w.key_u32(a + ".expert_shared_count", static_cast<uint32_t>(s.shared_experts));
    w.key_u32(a + ".leading_dense_block_count", static_cast<uint32_t>(s.dense_lead));
    w.key_bool(a + ".expert_weights_norm", true);  // route_norm
    w.key_f32(a + ".expert_weights_scale", s.expert_weights_scale);
    w.key_u32(a + ".expert_gating_func", 2);  // score_func sigmoid (base.py)
  }
  if (s.arch == "laguna") {  // conversion/laguna.py LagunaModel.set_gguf_parameters
    w.key_u32(a + ".leading_dense_block_count", static_cast<uint32_t>(s.dense_lead));
    w.key_bool(a + ".expert_weights_norm", true);
    w.key_f32(a + ".expert_weights_scale", s.expert_weights_scale);
    w.key_u32(a + ".expert_gating_func", 2);  // sigmoid
    if (s.sliding_window > 0) {               // the windowed layers' rope over the whole head
      w.key_u32(a + ".rope.dimension_count_swa", static_cast<uint32_t>(s.head_dim));
    }
  }
  if (s.arch == "qwen35") {
    // qwen35.cpp requires the M-RoPE sections (conversion/qwen.py writes
    // rope_parameters.mrope_section padded to four).
    w.key_arr_u32(a + ".rope.dimension_sections", {11, 11, 10, 0});
  }
  if (s.shared_ffn > 0 && s.arch != "step35" && s.arch != "afmoe") {
    w.key_u32(a + ".expert_shared_feed_forward_length", static_cast<uint32_t>(s.shared_ffn));
  }
  if (s.arch == "llama4") {
    w.key_u32(a + ".interleave_moe_layer_step", 1);
  }
  if (s.shortconv_l_cache > 0) {
    w.key_u32(a + ".shortconv.l_cache", static_cast<uint32_t>(s.shortconv_l_cache));
  }
  if (s.ssm_conv > 0) {
    w.key_u32(a + ".ssm.conv_kernel", static_cast<uint32_t>(s.ssm_conv));
    w.key_u32(a + ".ssm.inner_size", static_cast<uint32_t>(s.ssm_inner));
    w.key_u32(a + ".ssm.state_size", static_cast<uint32_t>(s.ssm_state));
    // Mamba-1 (conversion/jamba.py): dt_rank as the time-step rank, no group count.
    w.key_u32(a + ".ssm.time_step_rank",
              static_cast<uint32_t>(s.ssm_dt_rank > 0 ? s.ssm_dt_rank : s.ssm_heads));
    if (s.ssm_dt_rank == 0) {
      w.key_u32(a + ".ssm.group_count", static_cast<uint32_t>(s.ssm_groups));
    }
    if (s.arch == "mamba") {  // conversion/mamba.py add_ssm_dt_b_c_rms
      w.key_bool(a + ".ssm.dt_b_c_rms", s.ssm_dt_b_c_rms);
    }
  }
  if (s.arch == "minicpm") {  // conversion/minicpm.py MiniCPMModel.set_gguf_parameters
    w.key_f32(a + ".embedding_scale", 12.0);
    w.key_f32(a + ".residual_scale", 1.4 / std::sqrt(32.0));
    w.key_f32(a + ".logit_scale", 4096.0 / 256.0);
  }
  if (s.attn_scale > 0) {  // conversion/granite.py GraniteModel.set_gguf_parameters
    w.key_f32(a + ".attention.scale", s.attn_scale);
    w.key_f32(a + ".embedding_scale", s.embd_scale);
    w.key_f32(a + ".residual_scale", s.resid_scale);
    w.key_f32(a + ".logit_scale", s.logit_scale);
  }
  if (s.nope) {
    w.key_bool(a + ".rope.scaling.finetuned", false);
  }
  // A SentencePiece-style vocabulary of the real size: <unk>, <s>, </s>, the
  // 256 byte tokens, then fillers (llama-vocab.cpp needs the byte tokens).
  const auto n = static_cast<uint64_t>(s.vocab);
  w.key_str("tokenizer.ggml.model", "llama");
  w.str("tokenizer.ggml.tokens");
  w.u32(ARR);
  w.u32(STR);
  w.u64(n);
  for (uint64_t i = 0; i < n; ++i) {
    char buf[32];
    if (i == 0) {
      w.str("<unk>");
    } else if (i == 1) {
      w.str("<s>");
    } else if (i == 2) {
      w.str("</s>");
    } else if (i < 3 + 256) {
      std::snprintf(buf, sizeof buf, "<0x%02X>", static_cast<unsigned>(i - 3));
      w.str(buf);
    } else if (i == 32000 && s.arch == "phimoe") {
      // llama-vocab.cpp sets attributes on <|endoftext|> for a model named
      // "phi-3..." and fails without it (Phi-3's vocabulary has it at 32000)
      w.str("<|endoftext|>");
    } else {
      std::snprintf(buf, sizeof buf, "t%llu", static_cast<unsigned long long>(i));
      w.str(buf);
    }
  }
  ++w.kv_count;
  w.str("tokenizer.ggml.scores");
  w.u32(ARR);
  w.u32(F32V);
  w.u64(n);
  for (uint64_t i = 0; i < n; ++i) {
    w.f32(-static_cast<float>(i));
  }
  ++w.kv_count;
  w.str("tokenizer.ggml.token_type");
  w.u32(ARR);
  w.u32(I32);
  w.u64(n);
  for (uint64_t i = 0; i < n; ++i) {
    w.i32(i == 0 ? 2 : i < 3 ? 3 : i < 3 + 256 ? 6 : 1);
  }
  ++w.kv_count;
  w.key_u32("tokenizer.ggml.unknown_token_id", 0);
  w.key_u32("tokenizer.ggml.bos_token_id", 1);
  w.key_u32("tokenizer.ggml.eos_token_id", 2);
}

constexpr uint64_t kAlign = 32;  // GGUF's default general.alignment

uint64_t align_up(uint64_t x) {
  return (x + kAlign - 1) / kAlign * kAlign;
}

int write_file(const Spec& s, const std::string& ftype, const std::string& path, bool file_type) {
  if (!s.layer_kinds.empty() && s.layer_kinds.size() != static_cast<size_t>(s.layers)) {
    std::cerr << "make_gguf: " << s.name << ": " << s.layer_kinds.size() << " layer kinds for "
              << s.layers << " layers\n";
    return 2;
  }
  std::vector<Tensor> tensors = tensors_for(s, ftype);
  Writer meta;
  write_metadata(meta, s, ftype, file_type);
  Writer infos;
  uint64_t offset = 0;
  int64_t tensor_bytes = 0;
  for (Tensor& t : tensors) {
    t.offset = offset;
    infos.str(t.name);
    infos.u32(static_cast<uint32_t>(t.dims.size()));
    for (int64_t d : t.dims) {
      infos.u64(static_cast<uint64_t>(d));
    }
    infos.u32(t.type);
    infos.u64(t.offset);
    offset = align_up(offset + static_cast<uint64_t>(t.bytes()));
    tensor_bytes += t.bytes();
  }
  Writer head;
  head.raw("GGUF", 4);
  head.u32(3);
  head.u64(tensors.size());
  head.u64(meta.kv_count);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    std::cerr << "make_gguf: cannot write " << path << "\n";
    return 2;
  }
  out.write(head.bytes.data(), static_cast<std::streamsize>(head.bytes.size()));
  out.write(meta.bytes.data(), static_cast<std::streamsize>(meta.bytes.size()));
  out.write(infos.bytes.data(), static_cast<std::streamsize>(infos.bytes.size()));
  const uint64_t header = head.bytes.size() + meta.bytes.size() + infos.bytes.size();
  out.close();
  const uint64_t file_bytes = align_up(header) + offset;
  // The data is a hole: extend the file without writing it.
  if (truncate(path.c_str(), static_cast<off_t>(file_bytes)) != 0) {
    std::cerr << "make_gguf: cannot extend " << path << "\n";
    return 2;
  }
  std::cout << "{\"model\":\"" << s.name << "\",\"type\":\"" << ftype << "\",\"file\":\"" << path
            << "\",\"tensor_bytes\":" << tensor_bytes << ",\"file_bytes\":" << file_bytes
            << ",\"layers\":" << s.layers << ",\"sliding_window\":"
            << s.sliding_window
            // plm.cpp at 80fb11ac: flash attention aborts llama.cpp (run_llama.mjs
            // leaves those runs out)
            << (s.arch == "plm" ? ",\"flash_aborts\":true" : "") << "}\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 1 && args[0] == "--list") {
    for (const Spec& s : specs()) {
      // The fourth column: file types this machine cannot load ("type: why").
      std::cout << s.name << "\t" << s.arch << "\t" << s.source << "\t" << s.skip_types << "\n";
    }
    return 0;
  }
  // --no-file-type leaves general.file_type out, as many converters do: the
  // tensor table alone then says what the file is (tests/cli/gguf_without_file_type.sh).
  const bool no_file_type = args.size() == 4 && args[3] == "--no-file-type";
  if ((args.size() != 3 && !no_file_type) ||
      (args[1] != "f16" && args[1] != "q8_0" && args[1] != "q4_k_m")) {
    std::cerr << "usage: make_gguf --list | make_gguf MODEL f16|q8_0|q4_k_m OUT.gguf "
                 "[--no-file-type]\n";
    return 2;
  }
  for (const Spec& s : specs()) {
    if (s.name == args[0]) {
      return write_file(s, args[1], args[2], !no_file_type);
    }
  }
  std::cerr << "make_gguf: unknown model '" << args[0] << "' (see --list)\n";
  return 2;
}
