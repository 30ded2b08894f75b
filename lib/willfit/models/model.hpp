// What willfit knows about a model: its parameter counts and architecture,
// and where each fact came from. Also: an architecture inferred from a bare
// size ("13b"), fitted to real model families. Pure; no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "willfit/core/expected.hpp"
#include "willfit/models/model_size.hpp"

namespace willfit {

enum class AttentionKind { Full, Sliding, Mla, Hybrid };
std::string_view to_string(AttentionKind kind);  // "full", "sliding", "mla", "hybrid"

// The parallel blocks (Attention::parallel_block), each from its runtime's
// source (llama.cpp at 80fb11ac, transformers):
// - NeoX: gptneox.cpp use_parallel_residual: the attention and the MLP each
//   LayerNorm the layer input (two norms with biases); input + MLP, then
//   + attention.
// - GptJ: transformers' GPTJBlock: one LayerNorm (ln_1) feeds both; llama.cpp
//   builds no graph for it.
// - Cohere: cohere2moe.cpp: one norm feeds both; (MLP + input) + attention,
//   the rows to output picked after the final norm.
// - Plamo: plamo.cpp (PLaMo-13B): one RMS norm feeds both; (MLP + attention)
//   + input.
// - Falcon: falcon.cpp: attn_norm (a LayerNorm of the input) feeds the MLP
//   and, without attn_norm_2 (Falcon-7B: gpt2_one_norm), the attention too;
//   Falcon-40B and -180B's attention reads attn_norm_2, a second LayerNorm
//   of the input; (MLP + attention) + input, the rows to output picked on
//   the last layer after the attention (its output, the input, the norm).
// - Phi2: phi2.cpp: one LayerNorm feeds both; (attention + MLP) + input, the
//   attention's output projection built before the MLP.
enum class ParallelBlock : std::uint8_t { None, NeoX, GptJ, Cohere, Plamo, Falcon, Phi2 };

struct Attention {
  AttentionKind kind = AttentionKind::Full;
  std::int64_t sliding_window = 0;  // tokens, for Sliding
  int sliding_pattern = 0;          // every N-th layer is global; 0 or 1: every layer windowed
  int kv_lora_rank = 0;             // MLA latent width (DeepSeek-V3: 512)
  int qk_rope_head_dim = 0;         // MLA rope dims (64)
  int q_lora_rank = 0;
  int qk_nope_head_dim = 0;
  int v_head_dim = 0;
  int attention_layers = 0;  // Hybrid: layers that carry a KV cache (0 = all)
  // Hybrid: F32 values of fixed recurrent state per sequence in each of the
  // other layers (Mamba: (d_conv-1)(d_inner + 2 n_group d_state) + d_state d_inner;
  // GatedDeltaNet: (d_conv-1) conv_dim + v_heads k_dim v_dim). 0 = unknown.
  std::int64_t recurrent_state_floats = 0;
  // Of those values, the ones vLLM keeps in F32 by the model's own default
  // where it would otherwise keep them in the model's dtype: Nemotron-H's
  // Mamba-2 scan state, d_state x d_inner, unless config.json names a 16-bit
  // mamba_ssm_cache_dtype (vLLM's NemotronHForCausalLMConfig; estimate.cpp
  // vllm_request_kv). 0: none.
  std::int64_t vllm_f32_state_floats = 0;
  // Hybrid: layers that keep a recurrent state (0 = layers - attention_layers).
  // Falcon-H1 runs attention and Mamba-2 side by side in every layer, so
  // both counts are the layer count there.
  int recurrent_layers = 0;
  // Hybrid: parameters of one recurrent mixer (Mamba's in/out projections,
  // convolution and A, D; a gated delta net's q, k, v, gates and output; a
  // short convolution's projections). 0: unknown, counted as an attention layer.
  std::int64_t recurrent_params = 0;
  // Sliding: the window is a fixed chunk of the sequence (Llama 4's chunked
  // local attention). llama.cpp sizes a chunked layer's cache as a window of
  // the chunk's length (LLAMA_SWA_TYPE_CHUNKED in llama-hparams), so the
  // memory is the same; only the wording differs.
  bool chunked = false;
  // Sliding: llama.cpp's graph for the model's GGUF architecture has no
  // window, so under llama.cpp and Ollama (which runs llama-server) every
  // layer caches the whole context; vLLM and transformers keep the window.
  // Mistral-7B-v0.1 converts to arch llama (llama.cpp conversion/llama.py
  // registers MistralForCausalLM; src/models/llama.cpp sets no swa_type at
  // 80fb11ac); Phi-3 4k's phi3.cpp reads the window and switches it off
  // ("Phi SWA is currently disabled"). Catalogue `llama_cpp_no_window`.
  bool llama_cpp_no_window = false;
  // Trailing layers that reuse an earlier layer's K and V instead of caching
  // their own (Gemma 3n: num_kv_shared_layers).
  int kv_shared_layers = 0;
  // DeepSeek-V3.2's sparse-attention indexer: one key of index_head_dim per
  // token and layer is cached next to the MLA latent; index_heads query heads.
  // Beside GQA (MiniMax-M3's sparse attention, MSA) the indexer sits on the
  // trailing indexer_layers layers only (its MoE layers); under MLA on
  // indexer_layers of them, the others reusing an earlier layer's choice
  // (GLM-5.2's shared indexers). 0 = every layer.
  int index_head_dim = 0;
  int index_heads = 0;
  int indexer_layers = 0;
  // The keys the indexer keeps per token (index_topk; GGUF
  // attention.indexer.top_k; 0: not given). It sizes only llama.cpp's top-k
  // tensors of the compute graph (DeepSeek-V3.2, GLM-5, DeepSeek-V4).
  int index_top_k = 0;
  // gpt-oss: one learned attention sink per head (attn_sinks). It costs no
  // memory of its own; llama.cpp's graph for it (openai-moe.cpp) picks the
  // rows to output after the last layer rather than inside it.
  bool sinks = false;
  // Hybrid, LFM2: each recurrent layer is a gated short convolution keeping
  // the last short_conv_cache inputs (conv_L_cache - 1); 0 for other mixers.
  int short_conv_cache = 0;
  // Hybrid: one letter a layer, 'A' for a layer with KV heads, 'R' for one
  // without, where the source names them (a GGUF's per-layer KV head
  // counts); empty otherwise.
  std::string layer_mixers;
  // Hybrid, Qwen3-Next: each recurrent layer is a gated delta net of
  // delta_net_k_heads key heads and delta_net_v_heads value heads of
  // delta_net_head_dim (ssm.group_count, ssm.time_step_rank, ssm.state_size)
  // behind a causal convolution keeping delta_net_conv - 1 inputs; its
  // attention layers gate their output by a second half of the Q projection.
  // 0: other mixers.
  int delta_net_k_heads = 0;
  int delta_net_v_heads = 0;
  int delta_net_head_dim = 0;
  int delta_net_conv = 0;
  // Hybrid, Kimi Linear and Kimi K3 (llama.cpp kimi-linear.cpp,
  // kimi-k3.cpp): the recurrent layers are Kimi Delta Attention, a delta
  // net of delta_net_v_heads heads (as many key heads) whose q, k and v have
  // a convolution each, whose decay is a gate per channel through a
  // head-wide bottleneck (ssm_f_a, ssm_f_b), and whose output gate goes
  // through the same bottleneck (ssm_g_a, ssm_g_b) or, with
  // kda_full_rank_gate (K3), is one hidden x heads x head matrix (ssm_g).
  // The attention layers of such a hybrid are MLA (kv_lora_rank above).
  bool kda = false;
  bool kda_full_rank_gate = false;
  // Ling 3 (llama.cpp bailingmoe3.cpp, config no_kda_lora): the decay gate is
  // one hidden x heads x head matrix too (ssm_f_a, no ssm_f_b), as is the
  // output gate (ssm_g_a, with kda_full_rank_gate).
  bool kda_full_rank_decay = false;
  // Hybrid, MiniMax-01 (llama.cpp minimax-01.cpp at 80fb11ac; MiniMax-Text-01,
  // MiniMax-M1): the recurrent layers are lightning attention, a linear
  // attention of `heads` heads of head_dim from one fused QKV projection
  // (SiLU), decayed per head by a fixed slope, whose state is one head_dim x
  // head_dim matrix per head (llama-hparams.cpp n_embd_s for n_embd_head_la;
  // no convolution: n_embd_r is 0); its output RMS-normed and gated by a
  // sigmoid of a second projection (attn_gate) before wo. Every layer adds
  // its normed input, scaled, as the residual (residual_scale), not its
  // input.
  bool lightning = false;
  // MLA with a sigmoid output gate (Kimi K3 mla_use_output_gate; llama.cpp
  // kimi-k3.cpp attn_gate, hidden x heads x v_head_dim): weights only.
  bool mla_output_gate = false;
  // MLA with a head-wise sigmoid gate (Ling 3 gated_attention_proj_
  // granularity_type head_wise; bailingmoe3.cpp attn_gate, hidden x heads).
  bool mla_head_gate = false;
  // MiniCPM3 (llama.cpp src/models/minicpm3.cpp at 80fb11ac): MLA's weights
  // (q_a, q_b, kv_a_mqa, kv_b and their norms), but K and V decompressed by
  // kv_b before build_attn and cached per head as ordinary attention caches
  // them (build_attn_inp_kv): K rows of heads x (qk_nope + qk_rope), V rows of
  // heads x v_head_dim, per token and layer; no latent is kept.
  bool mla_cached_per_head = false;
  // PLM (llama.cpp plm.cpp at 80fb11ac; GGUF architecture and config.json
  // model_type plm): the per-head MLA above without minicpm3.cpp's scales,
  // so the final norm feeds the head as it is (MiniCPM3 scales it first,
  // lmhead_scaling, into a tensor of its own). Set by the readers from the
  // name, not told from MiniCPM3 by PLM's uncompressed queries.
  bool mla_unscaled_head = false;
  // dots.llm3 (llama.cpp dots3note.cpp at 80fb11ac; config.json swa_* keys;
  // GGUF attention.kv_lora_rank_swa, key_length_mla_swa, value_length_mla_swa
  // and a per-layer head_count): MLA on every layer, the windowed ones
  // ('S' in window_layers, sliding_window tokens) with an MLA of their own
  // shape: swa_heads query heads, a latent of swa_kv_lora_rank, Q and K
  // heads of swa_qk_nope_head_dim + qk_rope_head_dim, V heads of
  // swa_v_head_dim (the query latent is shared). The others ('G') have the
  // shape above and the indexer (indexer_layers of them). 0: no such layers.
  int swa_heads = 0;
  int swa_kv_lora_rank = 0;
  int swa_qk_nope_head_dim = 0;
  int swa_v_head_dim = 0;
  // Hybrid, Granite 4 H (granite-hybrid.cpp, mamba = 2) and Jamba (jamba.cpp,
  // mamba = 1): each recurrent layer is a Mamba mixer of ssm_inner channels
  // and ssm_state state values behind a convolution of ssm_conv taps; Mamba-2
  // in ssm_heads heads and ssm_groups groups of B and C, Mamba-1 with a
  // time-step rank of ssm_heads (ssm.time_step_rank names both). Attention
  // there has no RoPE. Falcon-H1 (falcon-h1.cpp) has a Mamba-2 mixer (mamba =
  // 2) beside the attention of every layer, which keeps RoPE. PLaMo 2
  // (plamo2.cpp, mamba = 3) has a mixer of its own between its attention
  // layers (models/plamo2.hpp). 0: other mixers (Nemotron-H builds other
  // blocks and keeps the closed form). Bamba, whose graph (Granite's with
  // RoPE) is not replayed, keeps 0 with its Mamba-2 sizes below set
  // (ssm_groups > 0) for transformers' cache (estimate.cpp).
  int mamba = 0;
  int ssm_conv = 0;
  std::int64_t ssm_inner = 0;
  int ssm_state = 0;
  int ssm_heads = 0;
  int ssm_groups = 0;
  // Mamba-1 whose dt, B and C are not RMS-normed before the scan (llama.cpp
  // mamba.cpp: ssm.dt_b_c_rms false, which conversion/mamba.py writes for
  // state-spaces' Mamba; Falcon Mamba's use_mambapy config writes true and
  // Jamba's file has the norms' tensors).
  bool ssm_plain_dt = false;
  // RWKV (llama.cpp rwkv6.cpp and rwkv6-base.cpp at 80fb11ac; GGUF rwkv6,
  // config.json model_type rwkv6): the version (6; 0: not RWKV). Every layer
  // is a time mix and a channel mix, purely recurrent (layer_mixers all
  // 'R'): the wkv recurrence over hidden / head_dim heads of head_dim
  // (wkv.head_size), whose state is head_dim x head_dim a head, beside
  // rwkv_token_shift_count hidden-wide token-shift rows (token_shift_count,
  // 2: one for each mix); the token-shift LoRA of rank rwkv_time_mix_extra
  // (time_mix_extra_dim) for five mixes, the decay LoRA of rank
  // rwkv_time_decay_extra (time_decay_extra_dim); the channel mix's key of
  // intermediate_size (feed_forward_length). RWKV6Qwen2 (rwkv6qwen2.cpp) is
  // rwkv 6 with one token-shift row, kv_heads KV heads and Qwen2's MLP
  // (models/rwkv.hpp says so).
  int rwkv = 0;
  int rwkv_token_shift_count = 0;
  int rwkv_time_mix_extra = 0;
  int rwkv_time_decay_extra = 0;
  // RWKV-7 "Goose" (llama.cpp rwkv7.cpp and rwkv7-base.cpp at 80fb11ac;
  // GGUF rwkv7, config.json model_type rwkv7; rwkv = 7): the time mix's four
  // LoRAs, their ranks read from attention.decay_lora_rank,
  // iclr_lora_rank, value_residual_mix_lora_rank and gate_lora_rank
  // (fla-hub's decay_low_rank_dim, a_low_rank_dim, v_low_rank_dim,
  // gate_low_rank_dim): the decay w, the in-context learning rate a, the
  // value residual mix v (layers 1 on mix their value with layer 0's), the
  // output gate g (0: no gate, five token-shift mixes instead of six).
  int rwkv_lora_decay = 0;
  int rwkv_lora_iclr = 0;
  int rwkv_lora_value = 0;
  int rwkv_lora_gate = 0;
  // Gated attention (Qwen3.5: config attn_output_gate; llama.cpp qwen35.cpp
  // and qwen35moe.cpp create the Q projection n_embd x 2 n_head head_dim):
  // the query projection carries a second half, a per-channel sigmoid gate
  // on the attention output. It doubles wq's parameters and caches nothing.
  bool gated_attention = false;
  // Sliding models whose global (full-attention) layers have a shape of
  // their own (Gemma 4: global_head_dim, num_global_key_value_heads; GGUF
  // key_length beside key_length_swa and a per-layer head_count_kv):
  // global_head_dim and global_kv_heads, 0 = head_dim and kv_heads. With
  // global_k_eq_v those layers have no V projection and use K as V
  // (attention_k_eq_v; gemma4.cpp: "if v_proj is not present, use Kcur as
  // Vcur"); llama.cpp still caches V for them.
  int global_head_dim = 0;
  int global_kv_heads = 0;
  bool global_k_eq_v = false;
  // Step-3.5 (llama.cpp step35.cpp; config.json layer_types, full attention
  // where i % 4 == 0): the global layers are layer 0 and every
  // sliding_pattern-th after it (12 of 45), not the last of each group. Its
  // global layers have query heads of their own (global_heads: 64 beside
  // the windowed layers' 96 in `heads`; 0 = heads), and every layer gates
  // its attention output by a sigmoid per head (head_gate: config
  // use_head_wise_attn_gate, llama.cpp attn_gate, hidden x heads a layer).
  bool global_first = false;
  int global_heads = 0;
  bool head_gate = false;
  // Sliding models whose global layers follow no period (MiMo-V2-Flash:
  // config.json hybrid_layer_pattern, global layers 0, 5, 11, ..., 47; a
  // GGUF's per-layer sliding_window_pattern): one letter a layer, 'S'
  // windowed, 'G' global. When set it decides is_global_layer and
  // global_layer_count over sliding_pattern. Empty for every other model.
  std::string window_layers;
  // The V head width where it differs from the K head width outside MLA
  // (MiMo-V2-Flash: K 192, V 128; config.json v_head_dim, GGUF
  // attention.value_length): V projections, V cache rows and the output
  // projection's input are value_head_dim wide. 0 = head_dim.
  int value_head_dim = 0;
  // The attention output is scaled after its projection (MiMo-V2-Flash:
  // config.json attention_value_scale, GGUF attention.value_scale; mimo2.cpp
  // ggml_scale, a tensor of its own in the graph). No weights.
  bool value_scale = false;
  // Arcee's AFMoE (Trinity; llama.cpp afmoe.cpp): a gate projection of its
  // own (attn_gate, hidden x heads x head_dim) whose sigmoid multiplies the
  // attention output before wo, element by element. As many weights as
  // gated_attention's second half of wq, in a tensor of its own.
  bool output_gate = false;
  // Laguna (poolside; llama.cpp src/models/laguna.cpp at 80fb11ac): the
  // attention output gate, per head (head_gate, g_proj hidden x heads: XS.2)
  // or per element (output_gate, hidden x heads x head_dim: M.1), is a
  // softplus, computed from the attention's normed input like Step-3.5's and
  // AFMoE's gates. The sizes are theirs; what differs from Step-3.5's graph
  // is that laguna.cpp picks the output rows inside the last layer (as
  // afmoe.cpp does), not after it, and keeps no hidden-state output.
  bool softplus_gate = false;
  // A parallel block: the attention and the MLP both read the layer input
  // and the layer adds both outputs to it. Which block it is, as the reader
  // found it (the model's type or architecture name), since the families
  // differ in norms and in the order of the adds, which moves the compute
  // buffer (ParallelBlock above). Cohere2 MoE's global layers after the
  // dense lead also use no RoPE (cohere2moe.cpp ropes a layer only when it
  // is windowed or il < n_layer_dense_lead): nope_global.
  ParallelBlock parallel_block = ParallelBlock::None;
  bool nope_global = false;
  // No KV cache at all: encoders (bert and kin, gemma-embedding) attend over
  // the whole input at once, and diffusion LMs (llada, llada-moe, dream,
  // rnd1) re-read the whole sequence each step; llama.cpp creates no memory
  // for them (llama-model.cpp create_memory: res = nullptr), and their graph
  // attends over the micro-batch alone (build_attn_inp_no_cache).
  bool no_kv_cache = false;
  // The BERT block (llama.cpp bert.cpp for bert and nomic-bert; BERT, RoBERTa,
  // DistilBERT, XLM-R and nomic_bert in transformers): LayerNorms after the
  // residual sums (attn_out_norm, layer_out_norm) and on the embeddings, not
  // before each block. Weights as any; the compute-buffer replay of an
  // encoder reads it.
  bool post_norm = false;
  // Positions by ALiBi (jina-bert-v2; config.json position_embedding_type
  // "alibi"): no position table, no RoPE and no position input at all
  // (llama.cpp bert.cpp builds no inp_pos for LLM_ARCH_JINA_BERT_V2; the
  // slopes are applied inside the softmax or flash-attention kernel,
  // f_max_alibi_bias 8). Its GEGLU MLP keeps gate and up in one ffn_up twice
  // the MLP's width (the converter maps mlp.gated_layers to ffn_up), which
  // bert.cpp runs as LLM_FFN_GEGLU: one projection, then the halves gated.
  // The ALiBi decoders (llama.cpp bloom.cpp, mpt.cpp, jais.cpp, refact.cpp
  // at 80fb11ac) build no inp_pos and no RoPE either; their MLPs are as
  // mlp_gated says (tests/unit/test_arch_alibi.cpp).
  bool alibi = false;
  // llama-embed (llama.cpp llama-embed.cpp at 80fb11ac: llama.cpp's llama
  // graph built with embed = true): every layer attends over the micro-batch
  // without reading a cache (build_attn_inp_no_cache) and the graph ends at
  // the final norm (t_embd, no logits), yet create_memory still makes the
  // ordinary KV cache for it (llama-embed is not among the architectures it
  // gives none), allocated and never written. Compute graph only.
  bool uncached_graph = false;
  // DeepSeek-V4's compressed attention (config.json compress_ratios; GGUF
  // deepseek4 attention.compress_ratios; llama.cpp src/models/deepseek4.cpp
  // and src/llama-kv-cache-dsv4.cpp at 80fb11ac): one letter a layer, 'S'
  // for a layer that attends over its sliding window of raw keys only, 'C'
  // (ratio 4, compressed sparse attention) for one that also pools every 4
  // tokens into one key and picks among them with a lightning indexer
  // (index_head_dim, index_heads above), 'H' (ratio 128, heavily
  // compressed) for one that pools every 128 tokens. Keys and values are
  // one head of head_dim (K only, V is K). Empty for every other model.
  std::string compress_layers;
  // DeepSeek-V4's grouped low-rank output projection: o_groups groups of
  // heads, each projected to o_lora_rank (wo_a), then all back to the
  // hidden size (wo_b). 0: a plain output projection.
  int o_groups = 0;
  int o_lora_rank = 0;
  // OpenELM (llama.cpp openelm.cpp): Q, K and V come from one fused
  // projection (attn_qkv), Q and K each RMS-normed per head; weights as the
  // three projections, the compute graph as openelm.cpp builds it.
  bool fused_qkv_norm = false;
  // PLaMo 3 (llama.cpp plamo3.cpp at 80fb11ac): each attention's and each
  // MLP's output RMS-normed again (attn_post_norm, ffn_post_norm) before its
  // residual add, the rows to output picked from the attention's output and
  // its residual before that norm; with OpenELM's fused QKV, but one Q and
  // one K norm weight of head_dim shared by all heads, and gate and up in
  // one ffn_up. PLaMo 2 (mamba = 3) has the same norms, read from `mamba`.
  bool sandwich_norms = false;
  // ChatGLM (llama.cpp chatglm.cpp at 80fb11ac; THUDM's ChatGLM2/3 and the
  // 2024 GLM-4-9B, config.json model_type chatglm): Q, K and V come from one
  // fused projection (attn_qkv, query_key_value), Q and K roped from views
  // of it (new tensors), V a view. The weights are one tensor, which
  // llama.cpp's quantisation recipe treats as it treats attn_v
  // (llama-quant.cpp category_is_attn_v); the compute graph reads it so.
  bool fused_qkv = false;
  // DBRX (llama.cpp dbrx.cpp, build_qkv at 80fb11ac): Q, K and V come from
  // one fused projection (attn_qkv, no bias; fused_qkv is implied), clamped to +-clip_qkv
  // (ggml_clamp) before Q and K are roped from views of it. The fused
  // tensor is one weight, which llama-quantize types as it types attn_v
  // (llama-quant.cpp tensor_get_category: ATTENTION_QKV).
  bool fused_qkv_clamp = false;
  // Grok (llama.cpp grok): llama_init_from_model forces flash attention off
  // for it ("flash_attn is not compatible with Grok - forcing off",
  // llama-context.cpp at 80fb11ac), so llama.cpp's scores are the f32 KQ
  // path's whatever was asked, and a quantised V cache, which needs flash
  // attention, fails to create the context.
  bool flash_forced_off = false;
  // PLM (llama.cpp plm.cpp at 80fb11ac): the graph hands build_attn a 2-D
  // V (heads x v_head_dim per token), which llama-kv-cache.cpp cpy_v takes
  // as one head of that width per token; with flash attention (V cached
  // untransposed) ggml_set_rows then asserts (a->ne[0] == b->ne[0]) and
  // llama.cpp aborts when it creates the context (measured here, any
  // micro-batch of more than one token). Without flash attention V is
  // copied element by element and runs.
  bool flash_aborts = false;
  // Qwen4Exp's QSA (llama.cpp src/models/qwen4exp.cpp build_qsa_top_k at
  // 80fb11ac; GGUF attention.compress_ratios, config.json
  // indexer_compress_ratio): the indexer's cached keys are mean-pooled over
  // blocks of this many tokens before they are scored; the budget
  // (index_top_k) is whole blocks plus the tail. 0: no pooling (every other
  // model).
  int index_block = 0;
  // Chameleon (llama.cpp chameleon.cpp at 80fb11ac; config.json model_type
  // chameleon): Q and K LayerNormed per head before RoPE, with a weight and
  // a bias for every head and channel (attn_q_norm {head_dim, heads},
  // attn_k_norm {head_dim, kv_heads}, each with its bias: the converter
  // repeats the checkpoint's per-shard norms to every head). The norm reads
  // the projection through its reshape, so it is a new tensor in the graph.
  bool qk_layer_norm = false;
};

struct Moe {
  int experts = 0;
  int experts_per_token = 0;
  int shared_experts = 0;
  std::int64_t expert_intermediate_size = 0;
  int first_dense_layers = 0;  // leading layers with a dense MLP (DeepSeek)
  // Every layer_step-th layer (index step-1, 2 step-1, ...) after the dense
  // ones routes to experts, the others have a dense MLP (Llama 4 Maverick:
  // interleave_moe_layer_step 2; llama.cpp: (il + 1) % n_moe_layer_step == 0).
  int layer_step = 1;
  // The experts are chosen by their probabilities plus a learned per-expert
  // bias (exp_probs_b: DeepSeek-V3, Nemotron-H's MoE blocks); the weights
  // stay the unbiased probabilities. llama.cpp's graph holds the biased
  // copy as a tensor of its own (build_moe_ffn selection_probs).
  bool selection_bias = false;
  // Latent MoE (Kimi K3 routed_expert_hidden_size; llama.cpp kimi-k3.cpp
  // n_expert_latent): the routed experts read and write vectors of this
  // width, projected from and back to the hidden width per layer
  // (ffn_routed_down, ffn_routed_up); shared experts stay at the hidden
  // width. 0: the experts work at the hidden width.
  std::int64_t latent_size = 0;
  // The router reads the layer's input before its norm, not the MLP's normed
  // input (SmallThinker: smallthinker.cpp ffn_gate_inp x inpL); only the
  // compute-buffer replay reads it.
  bool router_reads_layer_input = false;
  // build_moe_ffn's norm_w: the chosen experts' weights divided by their
  // sum. False where the file says so and the graph is known to follow it
  // (cohere2moe: expert_weights_norm, from config.json norm_topk_prob).
  bool weights_normalized = true;
  // Snowflake Arctic's dense-MoE hybrid (llama.cpp arctic.cpp at 80fb11ac):
  // every MoE layer also holds the dense MLP of intermediate_size (the
  // "residual MLP", hidden x hidden in Arctic), its output added to the
  // experts'; the experts read the layer's input through a norm of their
  // own (ffn_norm_exps), in parallel with the attention and that MLP.
  bool residual_mlp = false;
  // The shared experts' total MLP width where it is no whole number of
  // routed experts' (Granite MoE SWA: shared_intermediate_size 1280 beside
  // experts of 512; llama.cpp granite-swa.cpp n_ff_shexp). 0: shared_experts
  // x expert_intermediate_size.
  std::int64_t shared_width = 0;
  // GroveMoE's adjugate experts (llama.cpp grovemoe.cpp at 80fb11ac;
  // inclusionAI/GroveMoE): beside the routed experts, experts /
  // experts_per_group small experts of group_expert_width (ffn_*_chexps),
  // one to each group of experts_per_group routed ones. A second MoE pass
  // reads the routed experts' output with the same router logits, each
  // chosen expert's index divided by the group size; its output scaled
  // (expert_group_scale) and added. 0: none.
  int experts_per_group = 0;
  std::int64_t group_expert_width = 0;
};

// The MLP width of a MoE layer's shared experts together: shared_width, else
// shared_experts x expert_intermediate_size.
std::int64_t shared_expert_width(const Moe& moe);

// One layer's own widths, where a model's layers differ (layer_widths).
struct LayerWidths {
  int heads = 0;         // query heads; 0: no attention at all
  int kv_heads = 0;      // 0 with heads > 0: one hidden x hidden linear map instead
  std::int64_t ffn = 0;  // MLP width; 0: no MLP
};

struct Architecture {
  int layers = 0;
  std::int64_t hidden_size = 0;
  std::int64_t intermediate_size = 0;
  bool mlp_gated = true;  // SwiGLU/GeGLU: three matrices; GPT-2/BERT style: two
  int heads = 0;
  int kv_heads = 0;
  int head_dim = 0;
  std::int64_t vocab_size = 0;
  bool tied_embeddings = false;
  // llama.cpp creates no output tensor at all, so tied embeddings are never
  // loaded a second time as an output head: the BERT family's graph ends at
  // the embeddings of its input (bert.cpp, nomic-bert.cpp, jina-bert-*.cpp,
  // modern-bert.cpp, neo-bert.cpp, eurobert.cpp), and BitNet's logits read
  // tok_embd where it lies (bitnet.cpp).
  bool no_output_head = false;
  std::int64_t max_context = 0;
  // Learned absolute positions (GPT-2, GPT-BigCode/StarCoder: llama.cpp
  // gpt2.cpp and starcoder.cpp create pos_embd, hidden x n_ctx_train, and add
  // its rows to the token embeddings): the table's rows (config.json
  // n_positions, GGUF context_length). 0: none (RoPE or no positions). With
  // an ungated MLP it also marks those files' block for the compute replay:
  // LayerNorm with bias, one fused QKV projection with bias, biases on the
  // output projection and the MLP.
  std::int64_t learned_positions = 0;
  // BLOOM's LayerNorm of the token embeddings before the first layer
  // (llama.cpp bloom.cpp: tok_norm and tok_norm_b, token_embd_norm in the
  // file; transformers' word_embeddings_layernorm): two hidden-wide F32
  // vectors, and one more hidden x tokens tensor in the compute graph.
  bool embedding_norm = false;
  Attention attention;
  std::optional<Moe> moe;
  std::int64_t vision_params = 0;  // vision/audio encoder and projector (mmproj)
  // Layers with an MLP (0 = every layer). Nemotron-H interleaves layers that
  // are only a Mamba mixer, only attention or only an MLP.
  int mlp_layers = 0;
  // Looped layers (Nanbeige4.2: config.json num_loops; llama.cpp
  // nanbeige.cpp, GGUF num_loops): the `layers` weight-tied layers run this
  // many times a token, each pass with a KV cache slot of its own
  // (n_layer_all = layers x loops); the weights are the layers' once.
  int loops = 1;
  // Multi-token-prediction blocks (num_nextn_predict_layers): in the file and
  // in memory when loaded, not on the path of an ordinary decoding step.
  int mtp_layers = 0;
  // Step-3.5's MTP blocks are windowed layers with a dense MLP (not the
  // experts) and an output head each (shared_head.output, hidden x vocab;
  // conversion/step3.py maps it to nextn.shared_head_head).
  bool mtp_dense = false;
  // K-EXAONE's MTP block (exaone-moe): dense too, but it reads the trunk's
  // output head (exaone-moe.cpp creates nextn.shared_head_head
  // TENSOR_NOT_REQUIRED and conversion/exaone.py writes none).
  bool mtp_shares_head = false;
  // Gemma 3n per-layer embeddings: a second embedding table of
  // per_layer_vocab x layers x per_layer_width, read like the token embeddings.
  std::int64_t per_layer_width = 0;
  std::int64_t per_layer_vocab = 0;
  // EmbeddingGemma's sentence-transformers projections after the pooling
  // (2_Dense hidden -> dense_out, 3_Dense dense_in -> hidden, no bias): in a
  // GGUF converted with --sentence-transformers-dense-modules, as
  // {arch}.dense_2_feat_out / dense_3_feat_in and tensors dense_2.weight,
  // dense_3.weight (llama.cpp src/models/gemma-embedding.cpp at 80fb11ac;
  // conversion/gemma.py EmbeddingGemma). config.json does not carry them
  // (they sit in the repository's 2_Dense/ and 3_Dense/ folders): 0 there.
  std::int64_t dense_out = 0;
  std::int64_t dense_in = 0;
  // Gemma 3n AltUp: residual streams kept beside the active one (0 = none);
  // LAuReL: rank of each layer's low-rank residual (0 = none).
  int altup_inputs = 0;
  std::int64_t laurel_rank = 0;
  // Gemma 4 E2B (config.json use_double_wide_mlp; a GGUF's per-layer
  // feed_forward_length): the last double_wide_mlp_layers layers, those
  // reading earlier layers' KV, have an MLP of 2 x intermediate_size.
  int double_wide_mlp_layers = 0;
  // Qwen3-VL deepstack (GGUF n_deepstack_layers, config.json
  // vision_config.deepstack_visual_indexes): the first n layers add a slice
  // of input embeddings n + 1 hidden widths wide; no weights of their own.
  int deepstack_layers = 0;
  // DeepSeek-V4's manifold-constrained hyper-connections (hc_mult): this
  // many copies of the residual stream, mixed around every attention and
  // MLP by (2 + n) n coefficients computed from all of them. 0: one stream.
  int hyper_connections = 0;
  // DeepSeek-V4: the first hash_layers MoE layers route each token by a
  // fixed table (tid2eid: experts_per_token x vocabulary, I32) instead of
  // by scores (num_hash_layers).
  int hash_layers = 0;
  // NVIDIA's Nemotron NAS models (llama.cpp `deci`, src/models/deci.cpp at
  // 80fb11ac; config.json block_configs, transformers-style DeciLM code):
  // every layer has its own query heads, KV heads and MLP width, one entry
  // a layer (empty: every layer is heads, kv_heads, intermediate_size). A
  // layer with KV heads attends and caches K and V of its own width; one
  // with query heads but no KV heads replaces attention by one hidden x
  // hidden matrix (replace_with_linear); one with neither skips attention
  // (no_op). None of them holds a recurrent state. heads, kv_heads and
  // intermediate_size then hold the widest layer's.
  std::vector<LayerWidths> layer_widths;
  // Qwen4Exp's gated-residual hyper-connections (llama.cpp
  // src/models/qwen4exp.cpp build_hc_mix at 80fb11ac; config.json hc_lowrank,
  // GGUF hyper_connection.low_rank): the hyper_connections streams are mixed
  // through a low-rank gate (hc_*_down: n hidden x rank, hc_*_up: rank x n
  // hidden) and written back by n weights per token (hc_*_inject), twice a
  // layer, and once more (without the inject) as the output norm. 0: none, or
  // DeepSeek-V4's (2 + n) n mixers.
  int hc_low_rank = 0;
  // Qwen4Exp's n-gram hash embedding (PLE; qwen4exp.cpp build_inp_ple and
  // build_ple): one table of ngram_rows rows of ngram_width values
  // (per_layer_token_embd), from which each token gathers ngram_heads rows
  // ((ngram_size - 1) x heads_per_ngram), read on one layer (ngram_layer,
  // 0-based; -1: none) by a key (hidden x n hidden), a value (hidden x
  // hidden) and a causal depthwise convolution of ngram_conv taps dilated by
  // ngram_size over the n hidden streams, whose history is a per-sequence
  // state. 0 rows: none.
  std::int64_t ngram_rows = 0;
  std::int64_t ngram_width = 0;
  int ngram_heads = 0;
  int ngram_size = 0;
  int ngram_conv = 0;
  int ngram_layer = -1;
  // Biases beside a gated MLP (Phi-3.5-MoE; llama.cpp phimoe.cpp
  // load_arch_tensors at 80fb11ac creates them all as required): norm_bias,
  // a bias on every norm (attn_norm_b, ffn_norm_b, output_norm_b: its
  // LayerNorm, which the graph runs as an RMS norm plus the bias);
  // attention_bias, q, k, v and o biases (wq_b, wk_b, wv_b, wo_b);
  // output_bias, one on the logits (output_b, vocab wide). F32 vectors in the
  // weights only: the graph adds each in place. (GPT-2's layer, gpt2_layer
  // below, has its LayerNorm biases and fused QKV bias without them.)
  bool norm_bias = false;
  bool attention_bias = false;
  bool output_bias = false;
  // q, k and v biases without an output bias (ChatGLM: config.json
  // add_qkv_bias with add_bias_linear false; llama.cpp attn_qkv.bias, or
  // attn_q/k/v.bias in a file converted from the transformers layout):
  // F32 vectors in the weights, added in place in the graph.
  bool qkv_bias = false;
  // Biases on an ungated MLP's up and down beside llama's projections
  // (GPT-J: transformers modeling_gptj.py GPTJMLP, fc_in and fc_out with
  // nn.Linear's default bias, while q, k, v and out_proj have none; Jais 2:
  // config.json mlp_bias, true by default, llama.cpp jais2.cpp ffn_up_b and
  // ffn_down_b, required): F32 vectors in the weights, added in place in the
  // graph. (GPT-2's layer, gpt2_layer below, has them already.)
  bool mlp_bias = false;
  // GPT-2's layer, as the readers know it from the architecture's name (not
  // from its MLP): LayerNorms with a bias, Q, K and V as one projection with
  // its bias, biases on the output projection, up and down, an ungated MLP
  // (llama.cpp gpt2.cpp, starcoder.cpp, gptneox.cpp, bloom.cpp, mpt.cpp,
  // codeshell.cpp at 80fb11ac; BERT's encoders, Falcon, Phi-2 and StarCoder2
  // are sized as it too). An ungated MLP alone does not make one: Arcee
  // (arcee.cpp), Apertus (apertus.cpp), Nemotron-H (nemotron-h.cpp) and T5's
  // ReLU MLP (t5.cpp) have llama's separate q, k and v without biases.
  bool gpt2_layer = false;
  // Where a family's loader builds GPT-2's layer otherwise, as the reader
  // that knows the family says (llama.cpp at 80fb11ac):
  // gpt2_separate_qkv: q, k and v as three projections, attn_q, attn_k and
  // attn_v, each with its bias (create_tensor_qkv with no attn_qkv in the
  // file: starcoder2.cpp, bert.cpp, phi2.cpp as conversion/phi.py writes the
  // transformers layout), of which llama-quant.cpp types only attn_v as
  // attn_v, where one fused attn_qkv is typed as attn_v whole.
  bool gpt2_separate_qkv = false;
  // gpt2_no_linear_bias: no bias on q, k, v, wo, up or down (falcon.cpp
  // creates none; mpt.cpp's are optional, absent when MPT's no_bias).
  bool gpt2_no_linear_bias = false;
  // gpt2_no_norm_bias: LayerNorms of weight alone, the output norm's too
  // (MPT with no_bias: its modeling_mpt.py drops every bias parameter).
  bool gpt2_no_norm_bias = false;
  // gpt2_one_norm: one LayerNorm a layer, its output feeding attention and
  // MLP (Falcon-7B: falcon.cpp's attn_norm without the optional attn_norm_2
  // that Falcon-40B and -180B have).
  bool gpt2_one_norm = false;
  // The gated MLP's gate and up in one projection twice its width, split by
  // SwiGLU (ChatGLM's dense_h_to_4h; llama.cpp build_ffn with an ffn_up of
  // 2 x n_ff and no gate): the same weights as gate and up, one tensor of
  // 2 x intermediate_size in the compute graph.
  bool fused_gate_up = false;
  // BitNet b1.58's sub-norms (llama.cpp bitnet.cpp load_arch_tensors at
  // 80fb11ac): an RMS norm of the attention output before wo
  // (attn_sub_norm, hidden wide) and one of the MLP's product before
  // ffn_down (ffn_sub_norm, MLP wide), F32 weights; the graph runs both in
  // place.
  bool sub_norms = false;
  // LayerNorms without weights or biases (OLMo-1: config.json model_type
  // olmo, transformers' OlmoLayerNorm has no parameters; llama.cpp olmo.cpp
  // at 80fb11ac calls build_norm(LLM_NORM) with no weight and loads no
  // attn_norm, ffn_norm or output_norm): no norm vectors in the weights, and
  // each norm a ggml_norm alone, a new tensor (ggml-alloc never runs
  // GGML_OP_NORM in place), the final one included.
  bool weightless_norms = false;
  // T5 (llama.cpp src/models/t5.cpp and t5encoder.cpp at 80fb11ac; GGUF t5
  // and t5encoder, config.json model_type t5 and mt5): relative_buckets > 0
  // marks it. `layers` counts every block, the encoder's first, then, in an
  // encoder-decoder, decoder_layers decoder blocks (GGUF
  // decoder_block_count, else block_count; config.json num_decoder_layers).
  // Every block: RMS norm, self-attention without RoPE whose scores add a
  // learned bias per relative-position bucket (attn_rel_b, heads x
  // relative_buckets F32 values, on each stack's first block only), RMS
  // norm, MLP (gated GELU in v1.1 and Flan-T5, ReLU in the original T5). A
  // decoder block adds a cross-attention between the two (its own norm and
  // q, k, v, o) over the encoder's output, which llama.cpp keeps on the host
  // (llama_cross) and projects again at every micro-batch: only the
  // decoder's self-attention is cached. t5encoder (the encoder alone: T5-XXL
  // as Flux's and SD3's text encoder) has decoder_layers 0; llama.cpp gives
  // it a KV cache on every block all the same (create_memory does not list
  // it among the archs without memory), which its graph never reads.
  int decoder_layers = 0;
  int relative_buckets = 0;
  // Chameleon's Swin-style norm placement (config.json and GGUF swin_norm:
  // Chameleon-34B's; chameleon.cpp at 80fb11ac): no norm before the
  // attention (which reads the residual stream itself) or the MLP (which
  // reads the normed attention output); each one's output RMS-normed
  // (attn_norm, ffn_norm) before its residual add. The same weights; the
  // compute graph only.
  bool swin_norm = false;
  // Chameleon's logits with its image tokens masked (chameleon.cpp: a row
  // of -FLT_MAX over tokens 4..8195, written with ggml_set_1d, which is not
  // in place: the masked logits are a second tensor of the logits' size
  // beside them). The compute graph only.
  bool masked_image_logits = false;
  // CogVLM (llama.cpp cogvlm.cpp at 80fb11ac; config.json model_type
  // cogvlm): every layer holds a visual expert beside its language weights,
  // a second fused QKV, output projection and gated MLP of the same shapes
  // (visexp_attn_wqkv, visexp_attn_wo, visexp_ffn_gate/up/down), which the
  // graph uses instead of the language ones for a micro-batch of image
  // embeddings. Twice the layers' weights; one graph's worth of compute.
  bool visual_expert = false;
  // Granite Switch (llama.cpp granite-switch.cpp at 80fb11ac; config.json
  // model_type granite_switch): `adapters` LoRA adapters embedded in every
  // layer, each a low-rank pair of `adapter_rank` on Q, K, V, the output
  // projection, gate, up and down, picked per token by an in-graph router
  // (one single-head attention layer of its own, cached beside the others).
  // The GGUF stacks adapters + 1 slots (slot 0 the zero delta); the
  // checkpoint holds `adapters`. 0: none.
  int adapters = 0;
  int adapter_rank = 0;
  // Talkie (llama.cpp talkie.cpp at 80fb11ac; config.json model_type
  // talkie): the RMS-normed token embeddings are added, scaled per layer
  // (blk.N.out_scale), to every layer's output, so they live across the
  // whole graph; weightless norms, a per-head gain on Q (attn_q_norm, one
  // value a head), scalar gains on wo and ffn_down (attn_output.scale,
  // ffn_down.scale) and on the head (logit_scale).
  bool embedding_skip = false;
  // A text-to-speech model (Qwen3-TTS, Pocket TTS; a catalogue entry's
  // `modality` "speech"): the projector term holds the speaker encoder, code
  // predictor and codec, without which it makes no sound, so --text-only is
  // refused for it and the row is labelled by what it holds.
  bool speech = false;
  // Qwen3-TTS's talker (llama.cpp qwen3tts, qwen3vl.cpp at 80fb11ac; config
  // model_type qwen3_tts, talker_config): the output head (codec_head) has
  // head_rows rows (the codec vocabulary, 3072), fewer than vocab_size (text
  // + codec rows of the embedding table); the logits are padded to
  // vocab_size with -inf in the graph. 0: the head is vocab_size rows.
  std::int64_t head_rows = 0;
  // An EAGLE-3 draft (llama.cpp src/models/eagle3.cpp at 80fb11ac; GGUF
  // eagle3, config.json draft_vocab_size with one layer, as
  // conversion/llama.py detects it): a speculative-decoding head that runs
  // beside its target model, never alone. eagle3_target_layers (GGUF
  // target_layers: 3) of the target's hidden states, each
  // eagle3_target_hidden wide (GGUF target_hidden_size), are concatenated and
  // projected to the draft's width by fc ({layers x target hidden, hidden});
  // its one layer's q, k and v read the normed token embedding and the normed
  // projection side by side (2 x hidden columns), with a second input norm
  // (attn_norm_2, hidden_norm). Its head has draft_vocab rows (the d2t map's
  // length, an I64 vector; 0: vocab_size), scattered into the target's
  // vocab_size logits. Without token embeddings of its own
  // (draft_own_embeddings false: yuhuili's Llama-3.1-8B head) it reads the
  // target's; the Llama 3.3 70B head has its own. eagle3_norm_before_fc
  // (GGUF norm_before_fc) adds an RMS norm of the concatenated features
  // (enc.output_norm, layers x target hidden wide).
  int eagle3_target_layers = 0;
  std::int64_t eagle3_target_hidden = 0;
  std::int64_t draft_vocab = 0;
  bool draft_own_embeddings = false;
  bool eagle3_norm_before_fc = false;
  // A Gemma 4 assistant (llama.cpp src/models/gemma4-assistant.cpp at
  // 80fb11ac; GGUF gemma4-assistant, config.json model_type
  // gemma4_assistant): the multi-token-prediction drafter of a Gemma 4
  // target, run beside it, never alone. Its input is the target's scaled
  // token embedding beside the target's last hidden state (backbone_hidden
  // wide each, GGUF embedding_length_out, config backbone_hidden_size),
  // projected to its width (nextn.pre_projection, 2 x backbone x hidden);
  // its layers (Gemma 4's windowed and global shapes) have a query, its
  // norm and wo but no K or V: they attend over the target's cache (every
  // layer shares the target's last windowed or global layer's K and V,
  // llama-model.cpp create_memory), so it caches nothing of its own. Its
  // tied embeddings serve as its head only; nextn.post_projection
  // (hidden x backbone) maps its output back to the target's width.
  std::int64_t assistant_backbone_hidden = 0;
  // A DFlash draft (llama.cpp src/models/dflash.cpp at 80fb11ac; GGUF
  // dflash, config.json architectures DFlashDraftModel or DFlash2DraftModel
  // with a dflash_config): a block-diffusion speculative-decoding draft that
  // runs beside its target, never alone. dflash_target_layers of the
  // target's hidden states (GGUF target_layers' length, config
  // dflash_config.target_layer_ids), each of the draft's own width, are
  // concatenated and projected by fc ({layers x hidden, hidden}) and normed
  // (enc.output_norm); each layer's K and V of them are written into its own
  // ordinary KV cache, and a block of dflash_block_size tokens (the last
  // committed one and masks) is denoised by Qwen3's layers (Q and K normed)
  // over it, not causally. Token embeddings and the head are the target's
  // unless the file has its own (draft_own_embeddings, draft_own_head: the
  // z-lab drafts have neither); a reduced head has draft_vocab rows and d2t.
  // DFlash2 adds per-layer dynamic convolutions (dflash_conv_kernel taps over
  // groups of dflash_conv_group channels) and a candidate selector
  // (dflash_selector_rank, dflash_selector_top_k); DSpark a Markov head of
  // dspark_markov_rank.
  int dflash_target_layers = 0;
  bool draft_own_head = false;
  int dflash_block_size = 0;
  int dflash_conv_kernel = 0;
  int dflash_conv_group = 0;
  int dflash_selector_rank = 0;
  int dflash_selector_top_k = 0;
  std::int64_t dspark_markov_rank = 0;
  // WavTokenizer's decoder (llama.cpp wavtokenizer-dec.cpp at 80fb11ac; GGUF
  // wavtokenizer-dec, config.json architectures WavTokenizerDec): the vocoder
  // that turns OuteTTS's audio codes into a spectrum, not a language model.
  // Its input is a codebook of vocab_size codes, vocoder_features wide
  // (features_length, n_embd_features), a width-7 convolution to the
  // PosNet's posnet_width, posnet_layers PosNet blocks (resnet, resnet,
  // one-head attention over the whole input, resnet, resnet, group norm),
  // then `layers` ConvNeXt blocks of hidden_size (a depthwise width-7
  // convolution, a LayerNorm, an ungated MLP of intermediate_size, a gain),
  // and a head of vocoder_out (embedding_length, hidden_size in its config:
  // n_fft + 2 spectrum values a code). No KV cache (create_memory: none),
  // no positions, no logits: its output is the head's rows. 0: not one.
  std::int64_t vocoder_features = 0;
  int posnet_layers = 0;
  std::int64_t posnet_width = 0;
  std::int64_t vocoder_out = 0;
};

// WavTokenizer's decoder (Architecture::vocoder_features), as both readers
// give it: codes x features codebook, the PosNet's blocks and width, the
// ConvNeXt's blocks, width and MLP, the head's width.
struct VocoderShape {
  std::int64_t codes = 0;
  std::int64_t features = 0;
  int posnet_layers = 0;
  std::int64_t posnet_width = 0;
  int convnext_layers = 0;
  std::int64_t convnext_width = 0;
  std::int64_t ffn = 0;
  std::int64_t out = 0;
};
// Sets `a` to that decoder. Returns "" or why llama.cpp would not load the
// shape (wavtokenizer-dec.cpp: six PosNet blocks, as wide as the ConvNeXt).
std::string set_vocoder(Architecture& a, const VocoderShape& v);

// The dense MLP width of layer `layer` (intermediate_size, doubled on the
// last double_wide_mlp_layers layers; a layer's own with layer_widths).
std::int64_t mlp_width(const Architecture& arch, int layer);
// Layer `layer`'s shape: its entry of layer_widths, else heads, kv_heads
// and mlp_width.
LayerWidths widths_of_layer(const Architecture& arch, int layer);

// What one layer holds. Dense models: attention and MLP everywhere. Hybrid
// models spread their kinds of layers evenly over the depth when only counts
// are known (the memory totals do not depend on the order).
struct LayerRoles {
  bool attention = true;  // has K and V (or an MLA latent)
  bool recurrent = false;
  bool mlp = true;
  bool moe = false;  // the MLP routes to experts
};
LayerRoles layer_roles(const Architecture& arch, int layer);
int attention_layer_count(const Architecture& arch);
int recurrent_layer_count(const Architecture& arch);
int mlp_layer_count(const Architecture& arch);
int moe_layer_count(const Architecture& arch);
// A model of recurrent blocks alone (Mamba, Mamba-2: llama.cpp mamba.cpp):
// a hybrid whose layer order names every layer 'R' and no attention. Each
// block is the mixer alone behind its norm, no MLP; there is no KV cache,
// only the per-sequence state.
bool purely_recurrent(const Architecture& arch);
// "32 heads, 8 KV heads, head dim 128" for the notes; "no attention (a
// Mamba mixer in every layer)" for a purely recurrent model.
std::string attention_heads_text(const Architecture& arch);

// Parameter counts recomputed from an architecture. Attention: q, k, v and o
// projections (MLA: the latent projections; hybrid models: the recurrent
// mixers on their layers); MLP: 3 (gated) or 2 matrices of
// hidden x intermediate; embeddings once, the output head again unless tied.
// Norms and biases are left out (well under 0.1 % of any real model).
struct ParamBreakdown {
  std::int64_t embedding = 0;   // token embeddings (and Gemma 3n's per-layer ones)
  std::int64_t output = 0;      // output head (0 when tied)
  std::int64_t attention = 0;   // all layers
  std::int64_t mlp = 0;         // all layers, all experts
  std::int64_t mlp_active = 0;  // all layers, experts used per token
  std::int64_t vision = 0;
  std::int64_t mtp = 0;  // multi-token-prediction blocks: in the file, not in the active path
  [[nodiscard]] std::int64_t total() const {
    return embedding + output + attention + mlp + vision + mtp;
  }
  [[nodiscard]] std::int64_t active() const {
    return embedding + output + attention + mlp_active + vision;
  }
  // Weights inside the transformer blocks' linear layers (what GPTQ/AWQ/NF4 quantise).
  [[nodiscard]] std::int64_t linear() const { return attention + mlp; }
};

// Where a model's facts came from; printed, and in JSON as model.source.
enum class FactSource { Catalogue, Gguf, Safetensors, Config, Assumed };
std::string_view to_string(FactSource source);

// Where the model was read from (issue 15), for the text answer and JSON
// model.origin. Plain data: app/ fills it in.
struct ModelOrigin {
  std::string kind;      // file | catalogue | size | hf | ollama | url | hf_cache | ollama_store
  std::string ref;       // what names it: the path, "hf.co/ORG/REPO", the Ollama name
  std::string revision;  // commit or blob digest; "" when there is none
  std::vector<std::string> files;  // the files whose headers were read
  std::int64_t bytes_read = 0;     // from the network (0 when cached or local)
  std::int64_t requests = 0;       // HTTP requests, redirects included
  bool cached = false;             // answered from willfit's cache, no request
  // Weight files whose headers were not read: a repository of many shards
  // read from its index's total_size and a sample of shards (0: none left).
  std::int64_t files_not_read = 0;
};

// llama.cpp's --mmproj file (a GGUF whose general.architecture is "clip"):
// its tensors are the encoder and projector, exactly; the vision encoder's
// shape sizes the graph clip.cpp reserves for its warm-up image.
struct ProjectorFile {
  std::string name;  // the file as given
  std::string type;  // clip.projector_type ("gemma3", "qwen2vl_merger", ...)
  std::int64_t params = 0;
  std::int64_t bytes = 0;  // tensor bytes, exact
  bool vision = false;
  bool audio = false;
  // The vision encoder (0 when the file has none): positions of the warm-up
  // image, width, FFN width (x2 when gated: gate and up are live together),
  // attention heads.
  std::int64_t warmup_positions = 0;
  std::int64_t width = 0;
  std::int64_t ffn_live = 0;
  int heads = 0;
  bool window_mask = false;  // window attention (clip.vision.n_wa_pattern): a positions^2 mask
  // The audio encoder, when it is a Whisper encoder (ultravox, voxtral,
  // qwen2a, qwen2.5o: clip.cpp build_whisper_enc): positions of the warm-up
  // clip, width, FFN width, heads. 0 when the file has none, or an audio
  // encoder of another graph (conformers: gemma3n, lfm2), counted by its
  // tensors only.
  std::int64_t audio_positions = 0;
  std::int64_t audio_width = 0;
  std::int64_t audio_ffn = 0;
  int audio_heads = 0;
};

// The quantizer a GGUF's tensor types came from (Model::quantizer).
enum class GgufQuantizer { LlamaCpp, Ollama };

struct Model {
  std::string name;    // "Llama-3.1-8B" or "13b"
  std::string id;      // catalogue id, or the normalised size text
  std::string family;  // for "a smaller member of the same family"
  std::int64_t params = 0;
  std::int64_t active_params = 0;  // == params for dense models
  Architecture arch;
  FactSource source = FactSource::Assumed;
  // Exact weight bytes when a file told us (GGUF tensor table, safetensors
  // header); the estimate then uses them instead of params x bits.
  std::optional<std::int64_t> file_weight_bytes;
  std::vector<std::string> notes;  // what was assumed or derived, for the user
  // --mmproj FILE (or a GGUF repository's mmproj file): replaces the
  // encoder estimated from vision_config.
  std::optional<ProjectorFile> mmproj;
  // Bytes of a vision/audio encoder held inside the model file itself
  // (Ollama's engine packs gemma3, qwen2.5vl, mistral3 and llama4 so): part
  // of file_weight_bytes, never the projector term. 0 otherwise.
  std::int64_t embedded_encoder_bytes = 0;
  // A precision the name or file implies ("qwen2.5:7b-q4_K_M", a GGUF's
  // general.file_type, config.json's torch_dtype); used when --precision is
  // not given. "" when nothing is implied.
  std::string precision_hint;
  // Why precision_hint is what it is, in words for the Assumptions ("how
  // the model is published: config.json ... at ..."); "" leaves the wording
  // to the caller (by `source`).
  std::string precision_hint_why;
  // The name was an Ollama tag ("llama3.1:8b"): the model is what `ollama
  // pull` fetches and runs under Ollama unless --runtime says otherwise.
  bool ollama_tag = false;
  // The quantisations Ollama's library publishes for the model as tags of
  // their own (catalogue `ollama_tags`; model_db.hpp ollama_tag_for): the
  // tag with "{q}" where the type goes ("llama3.1:8b-instruct-{q}"; without
  // it, the tag of the one type listed: gpt-oss:20b, MXFP4 only), and the
  // types as the tags spell them ("q3_K_M", "fp16"). Empty when the
  // catalogue does not say: then q4_K_M, q8_0 and fp16 are assumed.
  std::string ollama_tag_pattern;
  std::vector<std::string> ollama_tag_types;
  // Which program quantised the GGUF the model stands for when no file was
  // read: llama.cpp's llama-quantize, or Ollama's own quantizer, which made
  // the packages an Ollama tag pulls (weight_layout.cpp says how they differ).
  GgufQuantizer quantizer = GgufQuantizer::LlamaCpp;
  // Ollama's engine for this architecture runs the text model only (its
  // model package holds no encoder), so under Ollama there is no projector
  // whatever vision_params says (catalogue `ollama_text_only`).
  bool ollama_text_only = false;
  // The model's output is an embedding of its input (an embedding model,
  // or an encoder), not generated tokens: a GGUF with {arch}.pooling_type
  // (llama.cpp's converter writes it for embedding models; Ollama runs a
  // model with it as an embedding model, llm/llama_server.go at fb307609),
  // a catalogue entry's `embedding` or `modality` "encoder", a config.json
  // of an encoder. Its speed is the rate it reads input, not decode.
  bool embedding = false;
  // Where file_weight_bytes came from (gguf or safetensors) when it is set.
  std::optional<FactSource> weights_source;
  // The file's weight bytes per tensor type ("Q4_K", "F32"), largest first.
  struct TypeBytes {
    std::string type;
    std::int64_t bytes = 0;
    std::int64_t tensors = 0;
    // batched_mix: the bytes of one 2-D slice of each 3-D weight.
    std::int64_t slice_bytes = 0;
  };
  std::vector<TypeBytes> weight_mix;
  // The routed-expert tensors' share of weight_mix (names "*_exps*"), which
  // llama.cpp reads with mul_mat_id rather than a plain matrix product.
  std::vector<TypeBytes> expert_mix;
  // The part of weight_mix in 3-D weights other than the experts (MLA's
  // per-head attn_k_b and attn_v_b): a batched matrix product reads them,
  // which the CPU backend's repack does not take (repack.cpp supports_op:
  // MUL_MAT of a 2-D weight only). A learned position table (position_embd:
  // GPT-2, StarCoder) is counted here too: get_rows reads it, no product.
  std::vector<TypeBytes> batched_mix;
  // The part of weight_mix in matrix-product weights other than the experts
  // whose output rows are not a multiple of 32 (Qwen3.5's 16-row ssm_alpha
  // and ssm_beta), and the 1-D vectors: the AMX buffer refuses them (amx.cpp
  // supports_op: op->ne[0] % (TILE_N * 2)); CPU_REPACK takes the 2-D ones
  // whose rows come in eights.
  std::vector<TypeBytes> narrow_mix;
  // The part of weight_mix that no CPU extra buffer takes, besides the token
  // embeddings: the other tables get_rows reads (llama-arch.cpp
  // LLM_TENSOR_INFOS with GGML_OP_GET_ROWS: Gemma 3n's per_layer_token_embd,
  // learned position_embd, BERT's token_types, an MTP layer's
  // nextn.embed_tokens) and the batched products too narrow for AMX.
  std::vector<TypeBytes> plain_mix;
  // The part of narrow_mix and expert_mix whose output rows (ne[1]) are not
  // a multiple of 8, and of 4: CPU_REPACK interleaves rows in groups of 8
  // (4 for some types on Arm) and takes no weight whose rows do not fill
  // them (ggml-cpu/repack.cpp ggml_repack_get_optimal_repack_type: cur->ne[1]
  // % 8, or % 4, at 80fb11ac). Jais-13b's 13653-row ffn_up and ffn_gate.
  std::vector<TypeBytes> rows_off8_mix;
  std::vector<TypeBytes> rows_off4_mix;
  // The input embedding tensor's ggml type and bytes, from a file (empty
  // without one): llama.cpp reads it with get_rows, so it is never repacked.
  std::string token_embd_type;
  std::int64_t token_embd_bytes = 0;
  // A shape inferred from a bare dense size ("13b") is rounded to whole
  // heads, layers and 256-wide blocks, so its own count misses the size by a
  // few per cent. These are the parameter groups the weights are laid out by
  // instead: from the unrounded shape, summing to `params` exactly, and
  // changing smoothly with it (model.cpp). Empty for every other model:
  // count_params(arch) is used.
  std::optional<ParamBreakdown> inferred_groups;
  std::optional<ModelOrigin> origin;  // set by app/ when it resolves MODEL
  // A reader's architecture name that willfit has no test or catalogue
  // family for (a GGUF general.architecture "dflash", a config.json
  // model_type "minimax"): the shape was read from the generic keys
  // only. Empty for known architectures, the catalogue and bare sizes.
  std::string unchecked_architecture;
  // Why llama.cpp cannot run this model, for a config.json of an
  // architecture it builds no graph for (model_type gptj: llama.cpp lists
  // the name at 80fb11ac but llama_model_create has no case for it): a
  // warning under a llama.cpp-family runtime. Empty for every other model.
  std::string llama_cpp_cannot_run;
  // Ollama's own engine runs it though llama.cpp cannot (llama_cpp_gap):
  // the warning above is then for llama.cpp alone.
  bool ollama_engine_runs = false;
  [[nodiscard]] bool assumed() const { return source == FactSource::Assumed; }
  [[nodiscard]] bool is_moe() const { return arch.moe.has_value() && arch.moe->experts > 0; }
};

ParamBreakdown count_params(const Architecture& arch);
// One layer's embedded-adapter LoRA values for one adapter (Granite Switch,
// Architecture::adapters); 0 without adapters.
std::int64_t adapter_params_per_layer(const Architecture& arch);

// Whether willfit knows an architecture a file names: the GGUF
// general.architecture values (llama.cpp's names) and the config.json
// model_type values (transformers' names) of the catalogue's families and of
// the kinds the readers and tests cover. Any other name is still read, from
// the generic keys (layers, widths, heads, experts), but layer kinds of its
// own (recurrent or compressed attention, per-layer weights) would be missed.
bool is_known_gguf_architecture(std::string_view arch);
bool is_known_config_model_type(std::string_view model_type);

// Architectures that hold no KV cache (Attention::no_kv_cache), by their
// llama.cpp and transformers names.
bool is_cache_free_gguf_architecture(std::string_view arch);
bool is_cache_free_config_model_type(std::string_view model_type);
// The architectures (one name as GGUF architecture and config.json
// model_type) whose MLA caches decompressed K and V per head rather than
// the latent (Attention::mla_cached_per_head): MiniCPM3 and PLM.
bool caches_mla_per_head(std::string_view name);
// An architecture willfit reads but llama.cpp cannot load, by its config.json
// model_type, GGUF general.architecture or catalogue family: why (for
// Model::llama_cpp_cannot_run) and whether Ollama's own engine runs it. The
// one list: the config, GGUF and catalogue readers all ask it.
struct LlamaCppGap {
  std::string why;
  bool ollama_engine_runs = false;
};
std::optional<LlamaCppGap> llama_cpp_gap(std::string_view name);
// Of those, the encoders (the BERT family): they embed their input and
// generate nothing (Model::embedding); the rest are diffusion LMs.
bool is_encoder_config_model_type(std::string_view model_type);
bool is_encoder_gguf_architecture(std::string_view arch);

// Architectures willfit refuses: RWKV-4's config.json, a purely recurrent
// model llama.cpp has no graph for, and a gptj GGUF (a name llama.cpp lists
// but builds no graph for). A reason in words for an error, "" for any
// other name. (Mamba, Mamba-2, RWKV-6, RWKV-7, ARWKV-7 and RWKV6Qwen2 are
// sized: purely_recurrent.)
std::string refused_gguf_architecture(std::string_view arch);
std::string refused_config_model_type(std::string_view model_type);

// The warning for Model::unchecked_architecture ("" when it is empty).
std::string unchecked_architecture_warning(const Model& model);

// Per-layer attention parameter count (q, k, v, o or the MLA equivalent).
// For DeepSeek-V4 the part every layer has (attention_params_per_layer
// adds no compressor); compressed_attention_params adds a layer's
// compressor and indexer by its letter of compress_layers.
std::int64_t attention_params_per_layer(const Architecture& arch);

// DeepSeek-V4 (Attention::compress_layers non-empty).
bool compressed_attention(const Architecture& arch);
// Layers of one letter of compress_layers ('S', 'C' or 'H').
int compressed_layer_count(const Architecture& arch, char kind);
// The compressor (and, for 'C', the lightning indexer) of one layer of
// that letter; 0 for 'S'.
std::int64_t compressed_attention_params(const Architecture& arch, char kind);
// The hyper-connection mixers of one layer (attention and MLP) and of the
// output head: 0 without hyper-connections.
std::int64_t hyper_connection_params_per_layer(const Architecture& arch);
// Qwen4Exp's n-gram embedding layer: its key, value and convolution weights
// (the table itself is an embedding), and the F32 values of its convolution
// history per sequence (llama-hparams.cpp ple_conv_state). 0 without one.
std::int64_t ngram_layer_params(const Architecture& arch);
std::int64_t ngram_state_floats(const Architecture& arch);

// dots.llm3's windowed MLA layers (Attention::swa_kv_lora_rank): whether
// layer `layer` is one, and how many of the layers are.
bool windowed_mla_layer(const Architecture& arch, int layer);
int windowed_mla_layer_count(const Architecture& arch);
// Those layers' shape as an architecture of their own (their heads, latent
// and head widths in the MLA fields, no indexer), for the formulas that
// size one MLA layer (attention_params_per_layer, the weight layout, the
// compute graph).
Architecture windowed_mla_shape(const Architecture& arch);
// Whether the attention layers are multi-head latent attention: an MLA
// model's every layer, or a hybrid's attention layers (Kimi Linear).
bool uses_mla(const Architecture& arch);
// Layers with a sparse-attention indexer of their own (weights and cached
// keys): indexer_layers of them where it is set (MiniMax-M3's trailing MoE
// layers, GLM-5.2's full indexers), else every attention layer (DeepSeek-V3.2,
// GLM-5); 0 without an indexer.
int indexer_layer_count(const Architecture& arch);
// Parameters of one such indexer beside GQA: its query and key projections
// (MiniMax-M3, llama.cpp minimax-m3.cpp index_q_proj / index_k_proj).
std::int64_t gqa_indexer_params(const Architecture& arch);
// Parameters of one MLA layer's indexer (DeepSeek-V3.2-Exp inference/model.py,
// Indexer: wq_b, wk, weights_proj), counted in attention_params_per_layer.
std::int64_t mla_indexer_params(const Architecture& arch);

// Sliding models: layer i is global (full attention) when (i + 1) % pattern
// == 0, every layer of any other kind of model is (data/README.md).
bool is_global_layer(const Architecture& arch, int layer);
// The V head width outside MLA: value_head_dim, or head_dim when not set.
int value_head_dim(const Architecture& arch);
// How many of the first `layers` layers of a sliding model are global (0
// for any other kind): layers / pattern, or with global_first (Step-3.5)
// ceil(layers / pattern).
int global_layer_count(const Architecture& arch, int layers);
// The global layers of a sliding model with a shape of their own (Gemma 4):
// q, k, v, o at global_head_dim and global_kv_heads, no v with global_k_eq_v.
// attention_params_per_layer otherwise.
std::int64_t global_attention_params_per_layer(const Architecture& arch);

// Weights of one gated delta net (Qwen3-Next, Qwen3.5), from its head
// counts and widths; model.cpp gives the layout it counts.
std::int64_t gated_delta_net_params(std::int64_t hidden, std::int64_t key_heads,
                                    std::int64_t value_heads, std::int64_t key_dim,
                                    std::int64_t value_dim, std::int64_t conv_kernel);

// Weights of one Mamba mixer of d_inner channels and d_state state values
// behind a convolution of conv_kernel taps: Mamba-2 (groups > 0) with
// `heads` heads and `groups` groups of B and C, Mamba-1 (groups 0) with a
// time-step rank of `heads`; model.cpp gives the layout it counts.
std::int64_t mamba_mixer_params(std::int64_t hidden, std::int64_t d_inner, std::int64_t d_state,
                                std::int64_t conv_kernel, std::int64_t heads, std::int64_t groups);

// Weights of one RWKV-6 block (llama.cpp rwkv6.cpp load_arch_tensors): the
// time mix of `hidden` channels in heads of head_size, with LoRAs of rank
// time_mix_extra (five token-shift mixes) and time_decay_extra (the decay),
// and the channel mix of ffn; model.cpp gives the layout it counts.
std::int64_t rwkv6_block_params(std::int64_t hidden, std::int64_t ffn, std::int64_t head_size,
                                std::int64_t time_mix_extra, std::int64_t time_decay_extra);
// Weights of one RWKV-7 block (llama.cpp rwkv7.cpp load_arch_tensors): the
// time mix of `hidden` channels with LoRAs of rank lora_decay, lora_iclr,
// lora_value and lora_gate (0: no gate), and the channel mix of ffn;
// model.cpp gives the layout it counts.
std::int64_t rwkv7_block_params(std::int64_t hidden, std::int64_t ffn, std::int64_t lora_decay,
                                std::int64_t lora_iclr, std::int64_t lora_value,
                                std::int64_t lora_gate);
// F32 values of one RWKV layer's recurrent state per sequence (llama.cpp
// llama-hparams.cpp n_embd_r + n_embd_s for wkv_head_size != 0): the
// token-shift rows, token_shift_count x hidden, and the wkv state, hidden x
// head_size.
std::int64_t rwkv_state_floats(std::int64_t hidden, std::int64_t head_size,
                               std::int64_t token_shift_count);

// Weights of one Kimi Delta Attention layer (Kimi Linear, Kimi K3, Ling 3)
// of `heads` heads of `head_dim`; model.cpp gives the layout it counts.
std::int64_t kimi_delta_attention_params(std::int64_t hidden, std::int64_t heads,
                                         std::int64_t head_dim, std::int64_t conv_kernel,
                                         bool full_rank_gate, bool full_rank_decay = false);

// Weights of one MiniMax-01 lightning-attention layer of `heads` heads of
// `head_dim`; model.cpp gives the layout it counts.
std::int64_t lightning_attention_params(std::int64_t hidden, std::int64_t heads,
                                        std::int64_t head_dim);

// One line on the attention layout, experts and vision tower ("sliding
// window of 1024 tokens on 52 of 62 layers; ..."), for notes and listings.
std::string describe_shape(const Model& model);
// describe_shape's words for MiniCPM3's MLA, K and V cached per head as
// llama.cpp does it (Attention::mla_cached_per_head); the runtimes that lay
// the cache out otherwise replace it (estimate.hpp, cache_layout_note).
std::string mla_per_head_text(const Architecture& arch);
// For the Assumptions of a speculative-decoding draft (an EAGLE-3 draft,
// Architecture::eagle3_target_layers; a Gemma 4 assistant,
// assistant_backbone_hidden; a DFlash draft, dflash_target_layers): that it
// runs beside its target, what it reads from it, and that the figures are the
// draft's own. "" for any other model.
std::string draft_note(const Architecture& arch);

// Infers a plausible architecture for a bare size, fitted to real families
// (see model.cpp for the anchors and their sources). The result's params equal
// the size given (NxM: the count of N experts shaped like an M model); every
// architectural fact is marked assumed, and each dimension that sizes memory
// never shrinks as the size grows.
Expected<Model> model_from_size(const SizeSpec& size);

}  // namespace willfit
