// A replay of ggml's graph allocator over a list of tensors, and the list of
// tensors llama.cpp builds for a transformer's forward pass: together they
// size llama.cpp's compute buffer. Pure: no I/O, no printing.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace willfit {

// The tensors one op reads: at most ggml's GGML_MAX_SRC (10), kept inline so
// that a graph of a million tensors is not a million small heap blocks (the
// replay runs once per answer, and `max`, grids and suggestions ask many).
class SourceList {
 public:
  static constexpr std::size_t kCapacity = 10;  // ggml.h GGML_MAX_SRC
  SourceList() = default;
  SourceList(std::initializer_list<int> ids) {
    for (const int i : ids) {
      push_back(i);
    }
  }
  SourceList(const std::vector<int>& ids) {  // NOLINT(google-explicit-constructor): as a brace list
    for (const int i : ids) {
      push_back(i);
    }
  }
  void push_back(int i) {
    assert(size_ < kCapacity);
    ids_[size_++] = i;
  }
  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  [[nodiscard]] int operator[](std::size_t i) const { return ids_[i]; }
  [[nodiscard]] const int* begin() const { return ids_.data(); }
  [[nodiscard]] const int* end() const { return ids_.data() + size_; }

 private:
  std::array<int, kCapacity> ids_{};
  std::size_t size_ = 0;
};

// One tensor of a graph, in the order the graph computes it. Only tensors the
// allocator owns appear: weights and the KV cache live in buffers of their own
// and are left out of `src`.
struct GraphTensor {
  std::int64_t bytes = 0;  // 0 for a view
  SourceList src;          // earlier tensors it reads (indices into the graph)
  int view_of = -1;        // a view (reshape, permute, ...) of that tensor: no memory
  // The sources this op may overwrite in place (ggml_op_can_inplace and
  // ggml_are_same_layout), in source order.
  SourceList inplace;
  bool input = false;   // ggml_set_input: allocated before the first node
  bool output = false;  // ggml_set_output: never freed, never overwritten
};

// The buffer size ggml_gallocr_reserve asks for: the high-water mark of a
// best-fit allocator (ggml-alloc.c ggml_dyn_tallocr) that frees each tensor
// after its last reader and lets an in-place op take its parent's memory.
std::int64_t ggml_graph_peak(std::span<const GraphTensor> graph, std::int64_t alignment = 32);

// The shape of the graph llama.cpp builds for one micro-batch of a
// transformer (src/models/llama.cpp and its kin, llama-graph.cpp build_attn,
// build_ffn, build_moe_ffn). Bytes are F32 activations.
struct LlamaGraphShape {
  std::int64_t tokens = 1;     // micro-batch
  std::int64_t cells = 1;      // KV cells of a full-attention layer (n_kv)
  std::int64_t swa_cells = 0;  // KV cells of a windowed layer (0: none)
  int swa_every = 0;           // every swa_every-th layer is full attention (0, 1: all windowed)
  int layers = 1;
  std::int64_t hidden = 0;  // e
  int heads = 0;
  int kv_heads = 0;
  int head_dim = 0;
  std::int64_t ffn = 0;  // dense MLP width
  // SwiGLU/GeGLU (gate, up, product) or an MLP of up and its activation
  // (GELU, Nemotron-H's squared ReLU); experts and shared experts alike.
  bool gated = true;
  int experts = 0;  // routed experts (0: dense)
  int experts_used = 0;
  std::int64_t expert_ffn = 0;
  std::int64_t vocab = 0;
  bool flash = false;
  bool rotate_k = false;  // quantised K cache: Q and K rotated (Hadamard)
  bool rotate_v = false;  // quantised V cache: V and the attention output rotated
  int dense_layers = 0;   // leading layers with a dense MLP before the experts
  // Shared experts next to the routed ones (Llama 4, DeepSeek, Qwen MoE): a
  // gated MLP of this width over the same input, added to the experts' sum.
  std::int64_t shared_ffn = 0;
  // SmallThinker (smallthinker.cpp): the router reads the layer's input, not
  // the normed input of the MLP, and its routing runs before the output
  // projection.
  bool router_reads_layer_input = false;
  // Snowflake Arctic (arctic.cpp): the experts read a norm of their own of
  // the layer's input (ffn_norm_exps) and run before the output projection;
  // the dense MLP of `ffn` over the attention's sum follows, and the experts'
  // sum is added to its output. shared_ffn stays 0.
  bool arctic = false;
  // Llama 4's routing (build_moe_ffn for LLM_ARCH_LLAMA4): experts chosen by
  // the raw router logits, and the input weighted per expert before them.
  bool weights_before_ffn = false;
  // The rows to output are picked after the last layer, before the final
  // norm (openai-moe.cpp), not inside the last layer (llama.cpp and kin).
  bool late_out_ids = false;
  // LFM2: 'R' marks a layer whose mixer is a gated short convolution keeping
  // conv_cache inputs (lfm2.cpp build_shortconv_block); empty: all attention.
  std::string mixers;
  std::int64_t conv_cache = 0;
  // Multi-head latent attention as llama.cpp runs it (deepseek2.cpp with
  // the absorbed k_b/v_b): one cached row of kv_lora + rope values per token
  // (MQA), queries of heads x (kv_lora + rope), and the attention output
  // decompressed per head to mla_v values. 0: ordinary attention.
  int mla_kv_lora = 0;
  int mla_rope = 0;
  int mla_nope = 0;
  int mla_v = 0;
  double k_value_bytes = 2.0;  // bytes per value of the K cache (V is a view of it under MLA)
  // MiniCPM3 (minicpm3.cpp): MLA's projections (q_a of mla_q_lora, its norm,
  // q_b; kv_a_mqa of this latent + mla_rope, its norm, kv_b to heads x
  // (mla_nope + mla_v)), then ordinary attention over K and V cached per
  // head (head_dim and value_head_dim wide); PLM (plm.cpp) the same with
  // one Q projection (mla_q_lora 0) and, mla_unscaled_head, no scale before
  // the head (Attention::mla_unscaled_head). 0: neither.
  int mla_per_head_lora = 0;
  bool mla_unscaled_head = false;
  // DeepSeek Sparse Attention (deepseek32.cpp, glm-dsa.cpp), on the MLA
  // above: queries compressed to q_lora values (q_a, its RMS norm, then
  // q_b; 0: one Q projection), and a lightning indexer of index_heads heads
  // of index_head_dim whose index_top_k best keys per token unmask the
  // attention (llama-graph.cpp build_attn with top_k). shared_indexers: the
  // layers whose indexer is the previous one's (GLM-5.2's pattern: all but
  // layers 0, 1 and every fourth from 2); false: every layer has its own.
  std::int64_t q_lora = 0;
  int index_heads = 0;
  int index_head_dim = 0;
  std::int64_t index_top_k = 0;
  bool shared_indexers = false;
  // dots.llm3 (dots3note.cpp): the window_layers marked 'S' are MLA of
  // their own shape (mla_swa_heads heads, a latent of mla_swa_kv_lora,
  // mla_swa_nope + mla_rope per Q head, mla_swa_v per V head) over the
  // windowed cache (its own rows to write and mask, no indexer); the rope
  // key is RMS-normed before RoPE on every layer; each head's output is
  // gated by a sigmoid before wo.
  bool dots3 = false;
  int mla_swa_heads = 0;
  int mla_swa_kv_lora = 0;
  int mla_swa_nope = 0;
  int mla_swa_v = 0;
  // Qwen3-Next (qwen3next.cpp): its 'R' layers are gated delta nets of
  // dn_k_heads key and dn_v_heads value heads of dn_head values behind a
  // convolution of dn_conv taps (0: LFM2's short convolution); its attention
  // projects Q and an output gate together; its shared expert is scaled by a
  // sigmoid gate; the rows to output are picked after the final norm.
  int dn_k_heads = 0;
  int dn_v_heads = 0;
  int dn_head = 0;
  int dn_conv = 0;
  bool gated_attention = false;
  bool shared_gate = false;
  // Kimi Linear (kimi-linear.cpp): its 'R' layers are Kimi Delta Attention
  // of dn_v_heads heads of dn_head (as many key heads), q, k and v each
  // projected and convolved on their own (dn_conv taps), a per-channel decay
  // gate and an output gate through head-wide bottlenecks; its attention
  // layers are MLA (mla_*) without RoPE (rope false).
  bool kda = false;
  // Ling 3 (bailingmoe3.cpp) on Kimi Linear's layout: both KDA gates one
  // hidden x inner projection (no bottleneck), the convolutions' SiLU, the
  // decay gate's x A, beta's sigmoid and the output's norm each read a
  // reshape (new tensors); MLA with RoPE, queries compressed to q_lora
  // (q_a, its norm, q_b) and a head-wise sigmoid gate on its output.
  bool ling3 = false;
  bool out_ids_after_norm = false;
  // Mamba mixers on the 'R' layers (mamba-base.cpp): 2, Mamba-2 (Granite 4
  // H: in_proj to z, x, B, C and dt in one tensor; the scan in ssm_heads
  // heads and ssm_groups groups; a grouped RMS norm); 1, Mamba-1 (Jamba:
  // in_proj to x and z, x_proj to dt of rank ssm_heads, B and C, each
  // RMS-normed, dt_proj). Both keep ssm_conv - 1 inputs joined in front and
  // gate by SiLU(z). 3: PLaMo 2's (plamo2.cpp: Mamba-1's in_proj and
  // x_proj, dt of max(64, hidden / 16) normed and projected to ssm_heads
  // steps, the scan per head; RoPE on its attention, post-norms, the rows to
  // output picked after the last MLP). 0: none.
  int mamba = 0;
  int ssm_conv = 0;
  std::int64_t ssm_inner = 0;
  std::int64_t ssm_state = 0;
  std::int64_t ssm_heads = 0;
  std::int64_t ssm_groups = 0;
  // Mamba-1 without RMS norms on dt, B and C (mamba-base.cpp
  // build_mamba_layer: hparams.ssm_dt_b_c_rms false and no ssm_dt_norm
  // tensors; state-spaces' Mamba): dt projected from its view, B and C the
  // scan reads as views. Jamba and Falcon Mamba norm them.
  bool ssm_plain_dt = false;
  bool rope = true;  // false: no RoPE in the attention layers (Jamba, Granite 4 H)
  // Qwen3-VL deepstack (qwen3vl.cpp, qwen3vlmoe.cpp): the input embeddings
  // are (1 + deepstack) hidden widths wide, and the first `deepstack` layers
  // add a slice of them to their output. 0: none.
  int deepstack = 0;
  // Routed experts on every moe_step-th layer ((il + 1) % moe_step == 0:
  // Jamba's odd layers), a dense MLP on the others.
  int moe_step = 1;
  // build_moe_ffn's exp_probs_b: the experts chosen by probs + a bias, a
  // tensor of its own (probs are read again for the weights).
  bool expert_bias = false;
  // build_moe_ffn's norm_w: the chosen experts' weights divided by their
  // sum (false for Jamba, whose router weights are used as they are).
  bool moe_norm_weights = true;
  // The residual adds take the residual stream as their first source
  // (Jamba), not the layer's output: the in-place add then reuses the
  // stream's block.
  bool residual_first = false;
  // The BERT block (bert.cpp: bert, nomic-bert): the embeddings are
  // LayerNormed before the first layer, the attention reads the layer input
  // itself, and each residual sum is LayerNormed after it (attn_out_norm,
  // layer_out_norm): the normed sum is both the MLP's input and its residual.
  bool post_norm = false;
  // ALiBi: no position input (no inp_pos), no position rows and no RoPE;
  // the slopes are a softmax (or flash attention) argument, no tensor.
  // jina-bert-v2 (bert.cpp with LLM_ARCH_JINA_BERT_V2, post_norm): its MLP
  // projects gate and up in one ffn_up twice the MLP's width and gates the
  // halves (LLM_FFN_GEGLU: one new tensor of the MLP's width). Baichuan's
  // 13B (baichuan.cpp): llama's layer otherwise.
  // The ALiBi decoders (bloom.cpp, mpt.cpp, jais.cpp: the GPT-2 block
  // without position rows; refact.cpp: llama's without RoPE) set it too,
  // without post_norm: no inp_pos, their MLPs as `gated` says.
  bool alibi = false;
  // BLOOM (bloom.cpp): the token embeddings LayerNormed (tok_norm) before
  // the first layer.
  bool embedding_norm = false;
  // ModernBERT (modern-bert.cpp at 80fb11ac): an encoder of pre-norm
  // blocks. The embeddings LayerNormed; each layer but the first LayerNorms
  // its input (layer 0's attn_norm is the identity), projects Q, K and V in
  // one attn_qkv and ropes Q and K from views of it, attends without a
  // cache (its windowed layers through the windowed mask), adds the input
  // back, LayerNorms that sum for the MLP (one ffn_up of 2 x ffn, the gated
  // halves, down) and adds the sum back; a final LayerNorm. LayerNorm
  // (ggml_norm) is a new tensor, its weight in place.
  bool modern_bert = false;
  // The GPT-2 block (llama.cpp gpt2.cpp and starcoder.cpp at 80fb11ac, one
  // graph): the rows of a learned position table added to the token
  // embeddings; a LayerNorm with bias (a new tensor, then weight and bias in
  // place) before the attention, the MLP and the logits; one fused QKV
  // projection plus its bias, Q, K and V views of it (no RoPE); biases after
  // wo, up and down (in place); GELU.
  bool gpt2_block = false;
  // The position table's rows (gpt2.cpp, starcoder.cpp). GPT-NeoX
  // (gptneox.cpp) builds the GPT-2 block without them: RoPE on Q and K,
  // which are views of the fused QKV projection as chatglm.cpp's are
  // (fused_qkv, qkv_bias).
  bool position_rows = false;
  // No KV cache (llama.cpp creates no memory: encoders, diffusion LMs): the
  // attention reads the layer's K and V; no rows to write.
  bool no_cache = false;
  // Falcon-H1 (falcon-h1.cpp, mamba-base.cpp build_mamba2_layer): the
  // Mamba-2 mixer of the ssm_* sizes beside the attention of every layer (its
  // output added to the attention's), not on 'R' layers; mamba stays 0.
  bool mamba_beside = false;
  // Nemotron-H (nemotron-h.cpp): every layer is one block with one residual,
  // a Mamba mixer ('R' in mixers, of the ssm_* sizes), attention ('A') or
  // an MLP alone ('F': up, ReLU and its square, down; routed experts where
  // the experts say so); the token embeddings are expanded before the first
  // layer.
  bool single_block = false;
  // Mamba and Mamba-2 alone (mamba.cpp): single blocks, every one a mixer
  // ('R'), no attention inputs (no positions, rows or mask), the state's
  // input before the rows to output, and the last block picking the rows to
  // output from the mixer's output and from its input before their sum (a
  // GGML_SCHED_DEBUG=2 dump of mamba-130m: the token embeddings, then layer
  // 0's convolution state).
  bool mixer_blocks = false;
  // RWKV-6 (rwkv6.cpp, rwkv6-base.cpp): a graph of its own (rwkv6_graph in
  // ggml_alloc.cpp), heads of head_dim (wkv.head_size), the channel mix of
  // ffn, the token-shift and decay LoRAs of rwkv_time_mix_extra and
  // rwkv_time_decay_extra. 0: not RWKV.
  int rwkv = 0;
  std::int64_t rwkv_time_mix_extra = 0;
  std::int64_t rwkv_time_decay_extra = 0;
  // RWKV-7 (rwkv7.cpp, rwkv7-base.cpp; rwkv = 7): rwkv7_graph in
  // ggml_alloc.cpp, the LoRA ranks of the decay, the in-context learning
  // rate, the value residual mix and the output gate (0: no gate, five
  // mixes instead of six).
  std::int64_t rwkv_lora_decay = 0;
  std::int64_t rwkv_lora_iclr = 0;
  std::int64_t rwkv_lora_value = 0;
  std::int64_t rwkv_lora_gate = 0;
  // RWKV's token-shift rows a layer: 1 for ARWKV-7 (arwkv7.cpp: RMS norms,
  // no token norm, Qwen2's SwiGLU MLP in place of the channel mix).
  int rwkv_token_shifts = 2;
  // Gemma 3n (gemma3n.cpp): the hidden state carried as `altup` AltUp
  // streams, per-layer inputs of ple_width values per layer, a LAuReL
  // branch of laurel_rank, the layers from kv_layers on reading an earlier
  // layer's cache (Q only; 0: every layer has its own), and a Gaussian top-k
  // on the MLP gate of the first sparse_layers layers. 0: none.
  int altup = 0;
  std::int64_t ple_width = 0;
  std::int64_t laurel_rank = 0;
  int kv_layers = 0;
  int sparse_layers = 0;
  // Gemma 4 (gemma4.cpp): the global (full-attention) layers of a windowed
  // model with a head width and KV heads of their own (0: head_dim,
  // kv_heads), K used as V there with global_k_eq_v (no V projection: V is
  // the RMS norm of the K projection). moe_beside_mlp: the dense MLP of
  // `ffn` runs beside the routed experts and before them, each with its own
  // norm of the layer input; the router reads a third norm of it; the
  // experts' gate and up are one fused tensor, their output scaled per
  // expert.
  int global_head_dim = 0;
  int global_kv_heads = 0;
  bool global_k_eq_v = false;
  bool moe_beside_mlp = false;
  // Gemma 4 E2B/E4B: ple_width > 0 without AltUp builds gemma4.cpp's
  // per-layer inputs (each layer's output gated to ple_width values, times
  // its slice of the per-layer inputs, projected back and added); the layers
  // from kv_layers on read an earlier layer's cache; the last
  // wide_ffn_layers layers' MLP is 2 x ffn (use_double_wide_mlp).
  int wide_ffn_layers = 0;
  // MiniMax-01 (minimax-01.cpp at 80fb11ac): its 'R' layers are lightning
  // attention of `heads` heads of head_dim (one fused QKV projection and
  // its SiLU; the intra-block scores [tokens, tokens] per head decayed by
  // the diag_decay input; the state read, decayed and updated; the output
  // RMS-normed and gated by a sigmoid projection), its 'A' layers ordinary
  // attention; every layer's residual is its normed input, scaled (not the
  // input), both after the mixer and after the MLP. Inputs: the slopes
  // [heads], q_decay and k_decay [heads, tokens], diag_decay [tokens,
  // tokens, heads].
  bool minimax01 = false;
  // Kimi K3 (kimi-k3.cpp), a graph of its own: KDA on the 'R' layers (the
  // dn_* sizes) with a full-rank output gate and a bounded decay gate, MLA
  // (mla_*) with compressed queries of mla_q_lora and a sigmoid output
  // gate, the situ activation in every MLP, routed experts in a latent of
  // expert_latent, and the residual stream scored against a stack of
  // checkpoints (one every res_block layers) before every attention and MLP.
  bool kimi_k3 = false;
  int mla_q_lora = 0;
  std::int64_t expert_latent = 0;
  int res_block = 0;
  // MiniMax sparse attention (minimax-m3.cpp, with flash attention): the
  // layers from msa_from on run the indexer of msa_index_heads heads of
  // msa_index_dim (its keys in a second cache) and the block selection over
  // msa_positions positions (llama_kv_cache_msa_context::get_n_pos: 256 in
  // an empty cache, as at reserve) in blocks of msa_block, the top
  // msa_top_k kept; the selected blocks widened to a per-cell mask for each
  // indexer head. 0 heads: none.
  int msa_index_heads = 0;
  std::int64_t msa_index_dim = 0;
  int msa_from = 0;
  std::int64_t msa_positions = 256;
  std::int64_t msa_block = 128;
  int msa_top_k = 16;
  // Step-3.5 (step35.cpp): the full-attention layers are 0, swa_every,
  // 2 swa_every, ... (swa_global_first) with global_heads query heads (0:
  // heads); every layer's attention output is gated per head (head_gate: a
  // [heads, tokens] projection of the normed input, its sigmoid, multiplied
  // in); the hidden state before the final rows are picked is an output
  // (t_h_nextn, for the MTP head: never freed).
  bool swa_global_first = false;
  int global_heads = 0;
  bool head_gate = false;
  bool hidden_output = false;
  // Nemotron NAS (deci.cpp at 80fb11ac): each layer's own query heads, KV
  // heads and MLP width (empty: heads, kv_heads and ffn everywhere). A layer
  // without query heads has no attention and no attention norm: its MLP
  // reads the stream itself, no residual add before it; one with query
  // heads but no KV heads applies wo to its normed input; one without an
  // MLP leaves the stream as it was (deci.cpp `continue`).
  struct Layer {
    int heads = 0;
    int kv_heads = 0;
    std::int64_t ffn = 0;
  };
  std::vector<Layer> per_layer;
  // OpenELM (openelm.cpp): one fused QKV projection; Q and K RMS-normed
  // through views of it (new tensors), times their weights and roped in
  // place; V a view; the attention output added to the residual stream
  // as add(residual, attention), the stream first, its rows picked first.
  bool fused_qkv_norm = false;
  // PLaMo 3 (plamo3.cpp), with fused_qkv_norm: on the last layer the rows to
  // output picked from the attention's output, then from the layer input;
  // the output RMS-normed (post-norm) and added to the input; the MLP of its
  // norm, RMS-normed again and added to that sum (PLaMo 2's adds, read from
  // mamba = 3, pick the rows after the MLP).
  bool sandwich_norms = false;
  // GroveMoE (grovemoe.cpp): a second build_moe_ffn after the routed
  // experts, over their output, taking the router's logits as its probs_in
  // (softmax and sigmoid of them again, top experts_used of all `experts`,
  // their index cast, divided by the group size and cast back), of
  // experts / group_experts experts of group_expert_ffn; its output scaled
  // and added to the first's. The routing selects by the logits' sigmoid.
  int group_experts = 0;
  std::int64_t group_expert_ffn = 0;
  // DBRX (dbrx.cpp, build_qkv): the fused projection clamped (ggml_clamp,
  // which ggml-alloc runs in place), Q and K roped from views of it (new
  // tensors), V a view; the residual adds as llama.cpp's.
  bool fused_qkv_clamp = false;
  // ChatGLM (chatglm.cpp): one fused QKV projection (its bias added in place
  // where qkv_bias), Q and K roped from views of it (new tensors: a view is
  // never taken over in place), V a view; then as openelm.cpp's without the
  // norms, the residual added as llama.cpp's. fused_gate_up: the dense MLP's
  // gate and up one tensor of 2 x ffn (build_ffn with no gate tensor), and
  // SwiGLU of it a new tensor of ffn (ggml_swiglu, not in place).
  bool fused_qkv = false;
  bool qkv_bias = false;
  bool fused_gate_up = false;
  // Qwen4Exp (qwen4exp.cpp), a graph of its own: the hidden state is
  // hc_streams copies [hidden, streams, tokens], read through a gated mix
  // (grouped RMS norm, a gate of rank hc_rank, the streams averaged) before
  // each mixer and MLP and written back through per-stream weights; the 'R'
  // layers are gated delta nets (the dn_* sizes) with a sigmoid output gate,
  // the 'A' layers gated attention with QSA (the index_* sizes; keys pooled
  // over blocks of qsa_block, the budget index_top_k whole blocks plus the
  // tail); routed experts and a sigmoid-gated shared expert on every layer;
  // the n-gram embedding of ngram_heads rows of ngram_width read on layer
  // ngram_layer (-1: none) through a key, a value and a causal convolution
  // of ngram_conv taps dilated by ngram_size.
  bool qwen4exp = false;
  int hc_streams = 0;
  std::int64_t hc_rank = 0;
  std::int64_t qsa_block = 4;
  int ngram_layer = -1;
  int ngram_heads = 0;
  std::int64_t ngram_width = 0;
  int ngram_size = 0;
  int ngram_conv = 0;
  // MiMo-V2-Flash (mimo2.cpp): the windowed layers as listed, one letter a
  // layer ('S' windowed, 'G' global; empty: swa_every decides); V heads of
  // value_head_dim (0: the layer's K head width), so V, its cache rows and
  // the attention output are that wide; the attention output scaled after
  // its projection (value_scale: ggml_scale, in place on the projection).
  std::string window_layers;
  int value_head_dim = 0;
  bool value_scale = false;
  // AFMoE (afmoe.cpp): Q and K RMS-normed per head (through the reshape: new
  // tensors), and the attention output, before wo, times the sigmoid of a
  // projection of the layer's normed input (attn_gate), element by element.
  bool qk_norm = false;
  // Chameleon (chameleon.cpp): swin_norm, no norm before the attention
  // (which reads the stream), an RMS norm of each output in place, the MLP
  // reading the normed attention output and running before the residual
  // sum; masked_image_logits, the final norm an output and the logits
  // copied with the image tokens' row set (ggml_set_1d: a second
  // logits-sized tensor; the row, a leaf of 8192 values, placed with the
  // inputs and clamped in place at the end).
  bool swin_norm = false;
  bool masked_image_logits = false;
  // CogVLM (cogvlm.cpp): no rows to output are picked (the graph builds no
  // inp_out_ids), so the last layer keeps every token's rows.
  bool no_out_ids = false;
  // Granite Switch (granite-switch.cpp): every projection plus a per-token
  // LoRA delta of this rank (two ggml_mul_mat_id over the stacked slots),
  // the adapter picked by a one-head router attention cached as a layer of
  // its own. 0: none.
  int adapter_rank = 0;
  // WavTokenizer's decoder (wavtokenizer-dec.cpp; Architecture's vocoder
  // fields): the codebook's width, the PosNet's blocks and width, the head's
  // width; `layers`, `hidden` and `ffn` are the ConvNeXt's. 0: not one.
  std::int64_t vocoder_features = 0;
  int posnet_layers = 0;
  std::int64_t posnet_width = 0;
  std::int64_t vocoder_out = 0;
  // Talkie (talkie.cpp): the normed embeddings stay alive to the last layer,
  // each layer adding them times its out_scale (a new tensor) to its output;
  // the last layer reads their rows to output.
  bool embedding_skip = false;
  // Qwen3-TTS (qwen3vl.cpp's codec_head case): the head's head_rows logits,
  // joined behind a -inf block of vocab - head_rows (ggml_concat); that
  // block is made (scale_bias of one value, repeated) as the last layer's
  // attention starts. 0: a head of vocab rows.
  std::int64_t head_rows = 0;
  bool output_gate = false;
  // Cohere2 MoE (cohere2moe.cpp): the attention and the MLP both read the
  // layer's one norm (which lives until the MLP has read it); the layer's
  // output is (MLP + input) + attention output, both adds in place on the
  // MLP's output. GPT-NeoX's parallel residual (gptneox.cpp, with the GPT-2
  // block) is the same sum, its MLP reading a LayerNorm of its own of the
  // layer input, and its last layer picks the rows to output before the
  // MLP (the input's) and after wo (the attention's); two caches' inputs (build_attn_inp_kv_iswa).
  // nope_global: the global layers from dense_layers on take no RoPE (Q and K stay views of their
  // projections).
  bool parallel_block = false;
  // PLaMo's parallel block (plamo.cpp): the shared norm feeds attention and
  // MLP, the layer adds MLP + attention, then the input; the rows to output
  // picked inside the last layer (the norm's first, then the attention's,
  // then the input's).
  bool plamo_parallel = false;
  // Falcon's parallel block (falcon.cpp, ParallelBlock::Falcon): the
  // LayerNorm attn_norm feeds the MLP and, without falcon_norm_2 (Falcon-7B),
  // the attention; with it (Falcon-40B, -180B) the attention reads a second
  // LayerNorm of the input (attn_norm_2). On the last layer the rows to
  // output are picked after the attention (its output, the input, the norm);
  // the layer adds MLP + attention, then the input.
  bool falcon_parallel = false;
  bool falcon_norm_2 = false;
  // Phi-2's (phi2.cpp, ParallelBlock::Phi2): falcon_parallel's block with
  // the adds the other way round, add(add(attention, MLP), input): wo and
  // its bias (and the attention's rows to output) come before the MLP.
  bool phi2_parallel = false;
  // LayerNorm (build_norm LLM_NORM: ggml_norm, then weight and bias in
  // place), which ggml-alloc never runs in place (ggml-alloc.c
  // ggml_op_can_inplace lists GGML_OP_RMS_NORM, not GGML_OP_NORM): the final
  // norm is a new tensor beside the last layer's output (nemotron.cpp). The
  // layers' own norms read a tensor the residual reads too, so they are new
  // tensors either way.
  bool layer_norm = false;
  // BitNet b1.58 (bitnet.cpp): an RMS norm and its weight on the attention
  // output before wo (attn_sub_norm) and on the MLP's product before
  // ffn_down (ffn_sub_norm), each in place where ggml-alloc allows it.
  bool sub_norms = false;
  // OLMo-1's LayerNorms without weights (olmo.cpp: build_norm(LLM_NORM)
  // with no weight or bias): each norm the ggml_norm alone, with layer_norm
  // a new tensor, the final one too.
  bool weightless_norms = false;
  bool nope_global = false;
};

std::vector<GraphTensor> llama_forward_graph(const LlamaGraphShape& s);

// The graph src/models/deepseek4.cpp builds for one micro-batch (DeepSeek-V4:
// hyper-connection streams, a window of raw keys on every layer, compressed
// keys and their compressors on the ratio-4 and ratio-128 layers, the
// lightning indexer on the ratio-4 ones), as llama.cpp reserves it
// (llama-kv-cache-dsv4.cpp dsv4_build_reserve_comp_plan).
struct Dsv4GraphShape {
  std::int64_t tokens = 1;     // micro-batch
  std::int64_t raw_cells = 1;  // the raw (window) cache's cells
  std::int64_t csa_cells = 0;  // the ratio-4 cache's cells (its indexer's too)
  std::int64_t hca_cells = 0;  // the ratio-128 cache's cells
  std::string ratios;          // a letter a layer: 'S' window only, 'C' ratio 4, 'H' ratio 128
  std::int64_t hidden = 0;
  int heads = 0;
  std::int64_t head_dim = 0;
  std::int64_t q_lora = 0;
  std::int64_t o_groups = 0;
  std::int64_t o_lora = 0;
  std::int64_t index_heads = 0;
  std::int64_t index_dim = 0;
  std::int64_t index_topk = 512;
  std::int64_t streams = 4;  // hc_mult
  int experts = 0;
  int experts_used = 0;
  std::int64_t expert_ffn = 0;
  std::int64_t shared_ffn = 0;
  int hash_layers = 0;  // the leading layers routed by token id
  std::int64_t vocab = 0;
  bool flash = false;
  // The K caches' bytes per value (2 for F16, 34/32 for Q8_0) and whether a
  // quantised cache is rotated (Hadamard) on the way in and out.
  double k_value_bytes = 2.0;
  bool rotate_k = false;
};

std::vector<GraphTensor> deepseek4_forward_graph(const Dsv4GraphShape& s);

// The graphs src/models/t5.cpp builds for one micro-batch (t5encoder.cpp
// runs the encoder's): the encoder (no cache; the scores plus the relative-
// position bias over the micro-batch) or the decoder (self-attention over
// the cache, the scores plus the bias, then cross-attention over the
// encoder's output of encoder_rows rows, the logits). The bias makes
// build_attn_mha take the path without flash attention for the
// self-attention whatever was asked (kq_b); `flash` is the context's
// setting, which still decides the masks' type, the cache's V layout and the
// cross-attention's path.
struct T5GraphShape {
  bool decoder = true;
  std::int64_t tokens = 1;        // micro-batch
  std::int64_t cells = 1;         // decoder: KV cells (n_kv)
  std::int64_t encoder_rows = 1;  // decoder: rows of the encoder's output
  int layers = 1;                 // of this stack
  std::int64_t hidden = 0;
  int heads = 0;
  int kv_heads = 0;
  int head_dim = 0;
  std::int64_t ffn = 0;
  bool gated = true;  // gated GELU (v1.1, Flan-T5); else ReLU
  std::int64_t vocab = 0;
  bool flash = false;
  double v_value_bytes = 2.0;  // the V cache's bytes per value (F16: 2)
  bool rotate_k = false;       // a quantised cache: Q and K rotated (Hadamard)
  bool rotate_v = false;
};

std::vector<GraphTensor> t5_graph(const T5GraphShape& s);

}  // namespace willfit
