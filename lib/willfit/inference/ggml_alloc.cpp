// llama.cpp's compute buffer, by replaying its allocator.
//
// llama.cpp reserves its compute buffer by running ggml's graph allocator
// (ggml/src/ggml-alloc.c, ggml_gallocr_reserve) over the worst-case graph of
// one micro-batch, without computing anything. The buffer is the allocator's
// high-water mark. A closed form ("the widest point of one layer") is exact
// where one tensor dwarfs the rest, but the allocator places tensors by best
// fit over freed blocks, and a block freed below the widest tensor leaves a
// hole the closed form cannot see: the live check measured Llama-3.2-3B's
// logits sitting 23 MiB higher than "logits + two hidden-width tensors".
// So willfit replays the allocator itself, read from ggml-alloc.c at the
// commit node-llama-cpp 3.21.1 bundles (80fb11ac):
//   - ggml_dyn_tallocr: a list of free blocks sorted by address; the last one
//     is the unbounded end of the buffer. A tensor (its size rounded up to the
//     buffer's alignment, 32 bytes on the CPU) takes the smallest free block
//     that holds it, the later of equal ones, not counting the end; failing
//     that, the end. Freed bytes merge with the blocks next to them.
//   - ggml_gallocr_alloc_graph_impl: inputs (ggml_set_input) are placed
//     first; each node then takes memory when the graph reaches it, unless its
//     op may run in place (ggml_op_can_inplace: ADD, MUL, SCALE, UNARY, ROPE,
//     RMS_NORM, SOFT_MAX, ...) and a source with the same layout is the
//     allocator's own, not an output, and read by nobody else: then it takes
//     that source's memory. A tensor is freed when its last reader has run
//     (views count as readers of the tensor they view); outputs never are.
//     Views own no memory and an op never runs in place on one: ggml has a
//     branch for taking over a view's source, but it sits behind
//     ggml_gallocr_is_own, which is false for a view (allocate_node never
//     marks one allocated). So an op that reads its source through a reshape
//     (DeepSeek-V4's per-head norm of q_b, its RoPE undone) is a new tensor;
//     a trace of every node's address in a real llama.cpp's compute buffer
//     (docs/live-llamacpp.md, twelfth run) shows it.
// The graph is the one src/models/llama.cpp (and its kin: qwen2, qwen3moe,
// gemma2) builds through llama-graph.cpp, tensor by tensor in node order, as
// GGML_SCHED_DEBUG=2 prints it for Llama-3.2-3B: the token embeddings, every
// layer (norm, Q/K/V, RoPE, the K/V rows written into the cache, scores and
// softmax or flash attention, the output projection, the residual add, the
// MLP) and the output head (final norm, logits). Ops that run in place, or
// whose tensor lives only between two others of its size (biases, Qwen3's
// Q/K norms, Gemma's post-norms and soft-caps, scaling), do not move the
// high-water mark and are left out: the replay gives the same bytes with and
// without them on the live Qwen3-30B-A3B and Gemma-2-2B rows.
// Quantised K/V caches add the
// Hadamard rotations of build_attn (llama_mul_mat_hadamard: Q and K rotated
// when the K cache is quantised, V and the attention output when V is).
// More graphs, read from the same sources and checked against
// GGML_SCHED_DEBUG=2 dumps and the live rows (docs/live-llamacpp.md):
//   - MLA (deepseek2.cpp with the absorbed k_b/v_b): Q [heads x (nope +
//     rope)], its nope part multiplied into the latent and joined with the
//     roped part [heads x (kv_lora + rope)]; one K row of kv_lora + rope
//     values per token, the only cache (build_attn_inp_k: no V rows, no
//     rotation); without flash attention V, a view of the K cache, is copied
//     transposed (ggml_cont, in the cache's type, cells x kv_lora); the
//     output [heads x kv_lora] decompressed by v_b to heads x v_head.
//     DeepSeek-V3's compressed queries (q_a, q_lora wide, and its norm
//     before q_b) are left out: [q_lora, tokens] is a few MiB beside the
//     heads-wide tensors around it.
//   - MiniCPM3 (minicpm3.cpp): MLA's projections without the absorption
//     (q_a, its norm, q_b; kv_a_mqa, the latent's norm, kv_b), K and V
//     decompressed per head and attended as ordinary attention over a
//     per-head cache; the final norm (t_embd, an output) scaled into a
//     tensor of its own before the head (docs/live-llamacpp.md, MiniCPM3 run).
//     A quantised cache rotates V and the attention output only: its K
//     heads (nope + rope, 96) are no multiple of 64, its V heads (64) are
//     (llama-kv-cache.cpp attn_rot_k / attn_rot_v; runtime.cpp).
//     PLM (plm.cpp) the same with one Q projection, no scales, and an
//     ungated squared-ReLU MLP (up, ReLU and its square in place, down).
//   - DeepSeek Sparse Attention (deepseek32.cpp, glm-dsa.cpp; llama-graph.cpp
//     build_attn with a top_k): MLA as above with its queries compressed
//     (q_a, its RMS norm, q_b; the compressed queries live until the
//     indexer reads them), the lightning indexer's key projected, normed,
//     roped, Hadamard-rotated and written to its own cache first in each
//     layer, and before the attention a mask of the indexer's top-k keys: a
//     zero source per layer (a leaf, placed with the inputs), the indexer's
//     queries and weights, the fused ggml_lightning_indexer's F32 score
//     [cells, tokens], its top-k indices, a -inf copy of the mask with the
//     chosen cells zeroed and the mask added. GLM-5.2's shared layers
//     reuse the previous layer's top-k. Node order from GGML_SCHED_DEBUG=2
//     dumps of DeepSeek-V3.2 and GLM-5 files reduced in depth; checked
//     against the live rows of those files (docs/live-llamacpp.md, ninth
//     run).
//   - Llama 4's routing (build_moe_ffn, LLM_ARCH_LLAMA4): experts chosen by
//     the router's raw logits, and the input repeated per expert and
//     weighted before the experts rather than after.
//   - Shared experts (Llama 4, DeepSeek): a gated MLP over the same input
//     added to the routed sum; one routed expert per token ends in a
//     ggml_cont of its view.
//   - Qwen3-Next (qwen3next.cpp, delta-net-base.cpp), three layers of gated
//     delta net to one of attention: the fused projections qkv [2 k_heads +
//     v_heads] x head and the output gate z [v_heads x head], beta and alpha
//     (two per value head, each made contiguous and gated), the kept
//     convolution inputs read from the state and joined in front of qkv
//     (ggml_concat: (conv - 1 + tokens) rows), the convolution and its SiLU,
//     q and k L2-normed and repeated to the value heads, the state read, the
//     fused ggml_gated_delta_net (the CPU backend supports it, so llama.cpp
//     takes the fused path: one tensor of the output and the new state), the
//     gated RMS norm (SiLU of z times the normed output) and ssm_out. Its
//     attention projects Q and an output gate in one tensor, which lives on
//     until the gate (made contiguous, sigmoid) multiplies the attention
//     output; its Q and K norms read views, so they are new tensors. The
//     shared expert is scaled by sigmoid(x w) ([1, tokens]), and the rows
//     to output are picked after the final norm (embeddings_nextn_masked
//     is off), the normed state and the picked rows both graph outputs.
//   - Kimi Linear (kimi-linear.cpp), three layers of Kimi Delta Attention
//     to one of MLA, in the node order of a GGML_SCHED_DEBUG=2 dump of
//     Kimi-Linear-48B-A3B: the q, k and v convolution states read in one
//     row; q, k and v projected, each joined behind its kept inputs and the
//     last ones written back; the delta state read; the three convolutions
//     (SiLU in place), q and k L2-normed; the per-channel decay f_b(f_a(x))
//     (+ dt bias, softplus, x A in place) and beta; the fused
//     ggml_gated_delta_net (output and new state in one tensor); the output
//     made contiguous and RMS-normed in place, times the sigmoid of
//     g_b(g_a(x)), made contiguous for the output projection. Its MLA layers
//     are deepseek2.cpp's without RoPE (mla_use_nope: the rope parts are
//     views), its experts chosen by a sigmoid plus a bias, a shared expert
//     added.
//   - Mamba (mamba-base.cpp) in Granite 4 H (granite-hybrid.cpp, Mamba-2)
//     and Jamba (jamba.cpp, Mamba-1): in_proj (Mamba-2: z, x, B, C and dt in
//     one tensor; Mamba-1: x and z), the convolution state read and joined
//     in front, the convolution with its bias and SiLU, Mamba-1's x_proj to
//     dt, B and C, each RMS-normed, and dt_proj; the scan (ggml_ssm_scan
//     reads the state rows in place: one tensor of the output and the new
//     state), y + x D taking the scan's block (the add's first source is a
//     view at offset 0 of it, which ggml_gallocr_allocate_node may reuse
//     once the state is written back), SiLU(z) y, Mamba-2's grouped norm.
//     Node order is ggml's visit order, not the order of the source lines:
//     the next layer's convolution state is read when that layer is built,
//     before this layer's output projection and MLP (after its routed
//     experts, whose sum build_moe_ffn expands). No RoPE; Jamba uses its
//     router weights unnormalised, has experts on every second layer, and
//     adds the residual stream first (so the adds reuse the stream's
//     block). Checked against GGML_SCHED_DEBUG=2 dumps of Jamba-1.5-Mini
//     and the live rows (docs/live-llamacpp.md).
//   - Falcon-H1 (falcon-h1.cpp, mamba-base.cpp build_mamba2_layer): each
//     layer's attention and a Mamba-2 mixer read the layer input, each
//     through its own RMS norm, and their outputs are added. llama.cpp
//     builds the attention up to its heads' output first, then the mixer up
//     to its scan, then the attention's output projection, then the rest of
//     the mixer (GGML_SCHED_DEBUG=2 of Falcon-H1-0.5B): the kept
//     convolution inputs read from the state (build_rs: get_rows), the norm,
//     in_proj [2 inner + 2 groups x state + heads] (z, xBC and dt are views
//     of it, so it lives until z is made contiguous after the scan), xBC
//     joined behind the kept inputs (ggml_concat, (conv - 1 + tokens) rows),
//     the convolution (+ bias, SiLU in place), dt made contiguous (+ bias),
//     ggml_ssm_scan (one tensor of the output and the new state: inner x
//     tokens + state x inner), then the attention output's rotation back
//     (a quantised V cache) and projection, then z made contiguous, x D (x a view of the
//     convolution's output, which lives until then), y + x D, the SwiGLU of
//     z and y (GLU ops are not in place) and ssm_out. In the last layer the
//     rows to output are picked from the sum of the residual and the layer
//     output, not from each.
//   - Nemotron-H (nemotron-h.cpp): one block a layer with one residual
//     (the block's output plus its input, in place on the output): the
//     Mamba-2 mixer above (mamba-base.cpp build_mamba2_layer, the same ops
//     as Granite 4 H's), attention without RoPE, or an MLP alone (build_ffn
//     with LLM_FFN_RELU_SQR: up, ReLU and its square in place, down; in
//     nemotron_h_moe routed experts of the same ungated kind, chosen by a
//     sigmoid plus a per-expert bias (exp_probs_b: the biased copy is a
//     tensor of its own, the unbiased one is read again for the weights;
//     their scale by 2.5 runs in place), then a shared expert likewise). A
//     mixer's convolution state is read where the last expand before it
//     left the graph: an MLP block expands nothing (no cache, no state), so
//     the state of the mixer after it is read before it; the token
//     embeddings are expanded before the first layer (nemotron-h.cpp
//     ggml_build_forward_expand(gf, inpL)). The output rows are picked
//     after the final norm (embeddings_nextn_masked is off), which stays
//     live as the multi-token-prediction seed (t_h_nextn), as for
//     Qwen3-Next.
//   - Gemma 3n (gemma3n.cpp, GGML_SCHED_DEBUG=2 of Gemma-3n-E2B): the
//     hidden state is n AltUp streams [e, tokens, n]. Before the layers: the
//     per-layer embeddings' rows ([ple x layers, tokens], from a token input
//     of their own), the scaled embeddings repeated to n - 1 streams,
//     projected (altup_proj) and rescaled to the first stream's magnitude,
//     all joined (ggml_concat). Each layer predicts the streams (the router
//     norm and tanh of the active stream, the coefficients, the streams made
//     contiguous and permuted, their product with the coefficients, made
//     contiguous again, plus the streams), runs the active prediction
//     through the attention (its own K/V until kv_layers, Q alone after:
//     the shared cache is read, not written) and LAuReL (two low-rank
//     products, a norm, plus the attention norm), the MLP (up, gate; the
//     first sparse_layers layers cut the gate at mean + 1.645 std: mean,
//     deviations, their squares' sum), then corrects the streams (the
//     innovation repeated to n streams, times the router's coefficients,
//     plus the predictions) and adds the per-layer input's projection to
//     streams 1..n-1 (the first correction gated to ple values, times this
//     layer's slice of the per-layer inputs, projected back, normed; a
//     ggml_add over a view and a ggml_concat). The per-layer inputs (the
//     scaled embeddings projected to ple x layers, normed, added to the rows
//     read, made contiguous after a permute) are built inside layer 0,
//     where they are first read, and live to the last layer. After the
//     layers the n - 1 streams are projected back (altup_unembd_proj),
//     rescaled and averaged with the first, and the rows to output picked
//     before the final norm and the soft-capped logits.
//   - Gemma 4 (gemma4.cpp, hparams n_embd_head_k(il) / n_head_kv(il)): the
//     global layers' Q, K, V and attention output at their own head width
//     (key_length, 512; the windowed layers' key_length_swa, 256) and KV
//     heads; with attention_k_eq_v no V projection, V being the RMS norm of
//     the K projection (read by both norms, so each is a new tensor); both
//     caches' inputs (below); the rows to output picked after the final
//     norm. 26B-A4B's MoE layers run the dense MLP first, then the experts
//     over their own norm of the layer input with a router over a third
//     (RMS norm, scale, weight), gate and up fused in one tensor
//     (ffn_gate_up_exps, split by views), the per-expert output scale of
//     build_lora_mm_id (repeated, rows picked, multiplied), the experts' sum
//     post-normed and added to the MLP's. Checked against the live rows of
//     both models (docs/live-llamacpp.md, fifth run). E2B and E4B (node
//     order and sizes from a GGML_SCHED_DEBUG=2 dump of Gemma-4-E2B): the
//     per-layer rows ([ple x layers, tokens]) read right after the token
//     embeddings and scaled through a reshape (a new tensor); at the end of
//     each layer its output gated to ple values (GELU in place), times the
//     layer's slice of the per-layer inputs (projected from the scaled
//     embeddings, normed through a reshape, added to the rows, scaled, made
//     contiguous after a permute, all where layer 0 first reads them; they
//     live to the last layer), projected back, normed and added; V of its
//     own RMS-normed (a new tensor); the layers from n_layer_kv_from_start
//     on project Q alone and read an earlier layer's cache; E2B's last 20
//     layers an MLP twice as wide. The two caches' build_attn expands K
//     before V, and each cache's rotations (a quantised cache) are inputs
//     read by every rotation of its layers, so freed after the last: with
//     them every E2B row is exact.
//   - MiniMax-M3 (minimax-m3.cpp) with flash attention: on its indexer
//     layers the block selection (msa_attention below), whose per-cell mask
//     for each indexer head is the widest point at long contexts; checked
//     against a GGML_SCHED_DEBUG=2 dump and the live rows of a reduced file
//     (docs/live-llamacpp.md, eleventh run).
//   - Kimi K3 (kimi-k3.cpp), a graph of its own (kimi_k3_graph below): the
//     residual stream mixed with a stack of checkpoints before every block,
//     KDA and MLA with their gates, situ, latent experts; checked against a
//     dump and the live rows of a reduced file (same run).
#include "willfit/inference/ggml_alloc.hpp"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <utility>

namespace willfit {
namespace {

// The image tokens whose logits chameleon.cpp masks (img_token_end_idx 8196
// - img_token_start_idx 4, at 80fb11ac).
constexpr std::int64_t kChameleonImageTokens = 8196 - 4;

// ggml_dyn_tallocr with one chunk (a CPU or GPU buffer type without a
// maximum size never opens a second one).
class DynAllocator {
 public:
  explicit DynAllocator(std::int64_t alignment) : align_(std::max<std::int64_t>(1, alignment)) {
    blocks_.push_back({0, std::numeric_limits<std::int64_t>::max() / 2});
  }

  std::int64_t alloc(std::int64_t size) {
    size = round(size);
    // Best fit among the free blocks before the end (ties: the later one).
    std::size_t best = blocks_.size() - 1;
    std::int64_t best_size = std::numeric_limits<std::int64_t>::max();
    for (std::size_t i = 0; i + 1 < blocks_.size(); ++i) {
      if (blocks_[i].size >= size && blocks_[i].size <= best_size) {
        best = i;
        best_size = blocks_[i].size;
      }
    }
    Block& b = blocks_[best];
    const std::int64_t at = b.offset;
    b.offset += size;
    b.size -= size;
    if (b.size == 0) {
      blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(best));
    }
    peak_ = std::max(peak_, at + size);
    return at;
  }

  void free(std::int64_t offset, std::int64_t size) {
    size = round(size);
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
      Block& b = blocks_[i];
      if (b.offset + b.size == offset) {  // the freed bytes follow this block
        b.size += size;
        if (i + 1 < blocks_.size() && b.offset + b.size == blocks_[i + 1].offset) {
          b.size += blocks_[i + 1].size;
          blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i + 1));
        }
        return;
      }
      if (offset + size == b.offset) {  // the freed bytes precede it
        b.offset = offset;
        b.size += size;
        if (i > 0 && blocks_[i - 1].offset + blocks_[i - 1].size == b.offset) {
          blocks_[i - 1].size += b.size;
          blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i));
        }
        return;
      }
    }
    const auto pos = std::find_if(blocks_.begin(), blocks_.end(),
                                  [offset](const Block& b) { return b.offset >= offset; });
    blocks_.insert(pos, {offset, size});
  }

  [[nodiscard]] std::int64_t peak() const { return peak_; }

 private:
  struct Block {
    std::int64_t offset;
    std::int64_t size;
  };
  [[nodiscard]] std::int64_t round(std::int64_t size) const {
    return (size + align_ - 1) / align_ * align_;
  }
  std::int64_t align_;
  std::vector<Block> blocks_;
  std::int64_t peak_ = 0;
};

struct State {
  int children = 0;
  int views = 0;
  bool allocated = false;
  std::int64_t offset = 0;
};

}  // namespace

std::int64_t ggml_graph_peak(std::span<const GraphTensor> graph, std::int64_t alignment) {
  DynAllocator mem(alignment);
  std::vector<State> st(graph.size());
  const auto owns_memory = [&](std::size_t i) {
    return graph[i].view_of < 0 && graph[i].bytes > 0;
  };
  const auto place = [&](std::size_t i) {
    const GraphTensor& t = graph[i];
    if (!owns_memory(i) || st[i].allocated) {
      return;
    }
    for (const int p : t.inplace) {
      const auto pi = static_cast<std::size_t>(p);
      if (!st[pi].allocated || graph[pi].output || st[pi].children != 1 || st[pi].views != 0) {
        continue;
      }
      st[i].allocated = true;
      st[i].offset = st[pi].offset;
      st[pi].allocated = false;
      if (graph[pi].bytes > t.bytes) {  // ggml_gallocr_free_extra_space
        const std::int64_t kept = (t.bytes + alignment - 1) / alignment * alignment;
        const std::int64_t had = (graph[pi].bytes + alignment - 1) / alignment * alignment;
        if (had > kept) {
          mem.free(st[pi].offset + kept, had - kept);
        }
      }
      return;
    }
    st[i].allocated = true;
    st[i].offset = mem.alloc(t.bytes);
  };
  const auto release = [&](std::size_t i) {
    if (graph[i].output || !st[i].allocated) {
      return;
    }
    mem.free(st[i].offset, graph[i].bytes);
    st[i].allocated = false;
  };

  for (std::size_t i = 0; i < graph.size(); ++i) {
    if (graph[i].input) {
      place(i);
    }
  }
  for (std::size_t i = 0; i < graph.size(); ++i) {
    if (graph[i].input) {
      continue;
    }
    if (graph[i].view_of >= 0) {
      st[static_cast<std::size_t>(graph[i].view_of)].views += 1;
    }
    for (const int s : graph[i].src) {
      st[static_cast<std::size_t>(s)].children += 1;
    }
  }
  for (std::size_t i = 0; i < graph.size(); ++i) {
    if (graph[i].input) {
      continue;
    }
    place(i);
    for (const int s : graph[i].src) {
      const auto p = static_cast<std::size_t>(s);
      st[p].children -= 1;
      if (st[p].children != 0 || st[p].views != 0) {
        continue;
      }
      if (graph[p].view_of >= 0) {
        const auto v = static_cast<std::size_t>(graph[p].view_of);
        st[v].views -= 1;
        if (st[v].views == 0 && st[v].children == 0) {
          release(v);
        }
      } else {
        release(p);
      }
    }
  }
  return mem.peak();
}

namespace {

// Builds a graph tensor by tensor; every value is F32 (4 bytes).
class Builder {
 public:
  // A tensor of `values` F32 values computed from `src`; `inplace` lists the
  // sources its op may overwrite.
  int op(std::int64_t values, SourceList src, SourceList inplace = {}) {
    GraphTensor t;
    t.bytes = 4 * values;
    t.src = src;
    t.inplace = inplace;
    return push(std::move(t));
  }
  // A tensor of `bytes` bytes (not F32: a copy in the K cache's type).
  int bytes_op(std::int64_t bytes, SourceList src) {
    GraphTensor t;
    t.bytes = bytes;
    t.src = src;
    return push(std::move(t));
  }
  // An op that may run in place on its first source (same layout).
  int same(int a, SourceList more = {}) {
    SourceList src{a};
    for (const int m : more) {
      src.push_back(m);
    }
    return op(g_[static_cast<std::size_t>(a)].bytes / 4, src, {a});
  }
  int view(int of) { return view_reading(of, {}); }
  // A view that an op writes through, reading `more` besides (ggml_set_rows
  // returns a view of its destination).
  int view_reading(int of, SourceList more) {
    GraphTensor t;
    const int root = g_[static_cast<std::size_t>(of)].view_of;
    t.view_of = root >= 0 ? root : of;
    for (const int m : more) {
      t.src.push_back(m);
    }
    t.src.push_back(of);
    return push(std::move(t));
  }
  int input(std::int64_t bytes) {
    GraphTensor t;
    t.bytes = bytes;
    t.input = true;
    return push(std::move(t));
  }
  // A node that writes into a buffer of its own (rows of the KV cache).
  int external(SourceList src) {
    GraphTensor t;
    t.src = src;
    return push(std::move(t));
  }
  void reserve(std::size_t tensors) { g_.reserve(tensors); }
  std::vector<GraphTensor> take() { return std::move(g_); }
  GraphTensor& at(int i) { return g_[static_cast<std::size_t>(i)]; }

 private:
  int push(GraphTensor t) {
    g_.push_back(std::move(t));
    return static_cast<int>(g_.size() - 1);
  }
  std::vector<GraphTensor> g_;
};

}  // namespace

namespace {

// WavTokenizer's decoder (llama.cpp src/models/wavtokenizer-dec.cpp at
// 80fb11ac), a vocoder with no cache and no logits. Every convolution is
// ggml_conv_1d_ph / ggml_conv_1d_dw_ph: an im2col of its input, F16 (2 bytes
// a value whatever the kernel's type but BF16, ggml.c ggml_conv_1d), taps x
// channels x tokens, then a matrix product read through reshapes. The node
// order and which ops reuse their source's memory follow a trace of the real
// allocator (tests/live/trace_alloc.c; docs/live-llamacpp.md, WavTokenizer
// run): a bias added to a product's reshape is a new tensor; a group or
// layer norm is a new tensor, its weight product new after a group norm,
// the bias added in place; the residual sums in place; the PosNet's
// attention computes K (transposed, made contiguous) before Q, softmaxes
// their tokens x tokens product in place, then computes V.
std::vector<GraphTensor> wavtokenizer_graph(const LlamaGraphShape& s) {
  Builder g;
  g.reserve(static_cast<std::size_t>(std::max(s.layers, 1)) * 24 + 256);
  const std::int64_t b = std::max<std::int64_t>(1, s.tokens);
  const std::int64_t fe = s.vocoder_features;
  const std::int64_t pw = s.posnet_width;
  const std::int64_t c = s.hidden;
  constexpr std::int64_t kIm2colBytes = 2;
  // A convolution of `taps` over `channels` rows to `out` rows: the im2col,
  // the product of its reshape, the bias added to the product's reshape.
  const auto conv = [&](int x, std::int64_t taps, std::int64_t channels, std::int64_t out) {
    const int cols = g.bytes_op(kIm2colBytes * taps * channels * b, {x});
    const int prod = g.op(b * out, {g.view(cols)});
    return g.op(b * out, {g.view(prod)});
  };
  // A group norm of a reshape (new), its weight product (new), its bias.
  const auto group_norm = [&](int x) {
    const int n = g.op(b * pw, {g.view(x)});
    return g.same(g.op(b * pw, {g.view(n)}));
  };
  // A LayerNorm (new), its weight and bias in place.
  const auto layer_norm = [&](int x, std::int64_t width) {
    return g.same(g.same(g.op(b * width, {x})));
  };
  // A transpose made contiguous.
  const auto transposed = [&](int x, std::int64_t width) { return g.op(b * width, {g.view(x)}); };

  const int tokens = g.input(4 * b);  // inp_tokens
  g.input(4 * b * fe);                // inp_embd: built, never read
  const int embd = g.op(b * fe, {tokens});
  int cur = conv(transposed(embd, fe), 7, fe, pw);
  for (int il = 0; il < s.posnet_layers; ++il) {
    const int in = cur;
    if (il == 5) {
      cur = group_norm(cur);
    } else if (il == 2) {
      const int x = group_norm(cur);
      const int k = transposed(conv(x, 1, pw, pw), pw);
      const int q = transposed(conv(x, 1, pw, pw), pw);
      const int kq = g.same(g.op(b * b, {k, q}));  // soft_max_ext in place
      const int v = conv(x, 1, pw, pw);
      const int kqv = g.op(b * pw, {kq, v});
      cur = g.same(conv(kqv, 1, pw, pw), {in});
    } else {
      int x = group_norm(cur);
      x = g.same(g.op(b * pw, {x}, {x}), {x});  // x * sigmoid(x)
      x = group_norm(conv(x, 3, pw, pw));
      x = g.same(g.op(b * pw, {x}, {x}), {x});
      cur = g.same(conv(x, 3, pw, pw), {in});
    }
  }
  cur = transposed(layer_norm(transposed(cur, pw), pw), pw);  // the embeddings' LayerNorm
  for (int il = 0; il < s.layers; ++il) {
    const int in = cur;
    // The depthwise convolution: the im2col of a reshape, its product
    // straight, the bias added to the product's reshape.
    const int cols = g.bytes_op(kIm2colBytes * 7 * c * b, {g.view(cur)});
    int x = transposed(g.op(b * c, {g.view(g.op(b * c, {cols}))}), c);
    x = layer_norm(x, c);
    x = g.same(g.same(g.op(b * s.ffn, {x})));  // pw1, its bias, GELU
    x = g.same(g.same(g.op(b * c, {x})));      // pw2, its bias, the gain
    cur = g.same(transposed(x, c), {in});
  }
  const int head = g.same(g.op(b * s.vocoder_out, {layer_norm(transposed(cur, c), c)}));
  g.at(head).output = true;  // res->t_embd
  return g.take();
}

}  // namespace

namespace {

// The Hadamard rotation a quantised K cache is read and written through
// (llama_kv_cache::build_input_k_rot): F32, n x n for the largest power of
// two from 64 up that divides the head.
std::int64_t k_rotation_bytes(std::int64_t head) {
  std::int64_t n = 64;
  while (head % (2 * n) == 0) {
    n *= 2;
  }
  return 4 * n * n;
}

// Kimi K3's graph (kimi-k3.cpp), in the node order of a GGML_SCHED_DEBUG=2
// dump of a reduced K3 file (docs/live-llamacpp.md, eleventh run). ggml visits
// sources depth first, so a mix's scores of the checkpoint stack (which
// depend on nothing this layer computes) come right after the last node
// the graph expanded explicitly: the KDA state written back, build_attn's
// output, build_moe_ffn's sum.
std::vector<GraphTensor> kimi_k3_graph(const LlamaGraphShape& s) {
  Builder g;
  g.reserve(static_cast<std::size_t>(std::max(s.layers, 1)) * 160 + 64);
  const std::int64_t b = std::max<std::int64_t>(1, s.tokens);
  const std::int64_t e = s.hidden;
  const std::int64_t h = s.heads;
  const std::int64_t lora = s.mla_kv_lora;
  const std::int64_t kw = lora + s.mla_rope;
  const int tokens = g.input(4 * b);
  g.input(4 * b * e);  // inp_embd's unused input of ready embeddings
  const int k_idxs = g.input(8 * b);
  const int mask = g.input((s.flash ? 2 : 4) * s.cells * b);
  const int out_ids = g.input(4 * b);
  const int s_copy = g.input(4);
  // The checkpoint stack [e, n, tokens]: the raw layer input of every
  // res_block-th layer; the first is a view of the token embeddings.
  int stack = -1;
  std::int64_t checkpoints = 0;
  // A checkpoint mix's scores of the stack: RMS norm (a new tensor: the
  // stack has other readers), the score weight in place, sum_rows.
  const auto stack_scores = [&] {
    return g.op(b * checkpoints, {g.same(g.op(b * e * checkpoints, {g.view(stack)}))});
  };
  // The rest of the mix: the current stream scored, the softmax over n + 1,
  // the stack's share (dsv4_hc_pre) plus the stream's.
  const auto mix = [&](int scores, int stream) {
    const int cur = g.op(b, {g.same(g.op(b * e, {stream}))});
    const int probs = g.same(g.op(b * (checkpoints + 1), {scores, cur}));  // concat, softmax
    const int p_src = g.op(b * checkpoints, {g.view(probs)});
    const int pre = g.op(b * e, {g.view(stack), p_src});
    const int p_cur = g.op(b, {g.view(probs)});
    return g.op(b * e, {pre, g.op(b * e, {stream, p_cur})}, {pre});
  };
  const auto normed = [&](int t) { return g.same(g.same(t)); };  // RMS norm, weight
  // situ(gate, up) of two projections of `in` of `width` (kimi_k3_situ):
  // scale, tanh, scale and the sigmoid of the gate, their product, times
  // scale, tanh, scale of up.
  const auto situ = [&](std::int64_t width, int gate, SourceList up_src) {
    const int t = g.same(g.same(g.op(width, {gate}, {gate})));
    const int act = g.op(width, {t, g.op(width, {gate}, {gate})}, {t});
    const int up = g.same(g.same(g.same(g.op(width, up_src))));
    return g.op(width, {act, up}, {act, up});
  };
  int x = g.op(b * e, {tokens});
  int attn_norm = g.same(g.op(b * e, {x}));
  int scores_next = -1;
  for (int il = 0; il < s.layers; ++il) {
    const bool last = il == s.layers - 1;
    const bool kda = il < std::ssize(s.mixers) && s.mixers[static_cast<std::size_t>(il)] == 'R';
    const bool banked = il % std::max(1, s.res_block) == 0;  // layer 0 always: a stack to mix
    const bool moe = s.experts > 0 && il >= s.dense_layers;
    if (banked) {  // res_push: the raw layer input joins the stack
      stack = stack < 0 ? g.view(x) : g.op(b * e * (checkpoints + 1), {stack, g.view(x)});
      ++checkpoints;
    }
    int attn = 0;
    int kda_out = -1;
    if (kda) {
      // the three convolution states in one row, then q, k and v each
      // projected and joined behind their kept inputs (the last written back)
      const std::int64_t d = s.dn_head;
      const std::int64_t heads = s.dn_v_heads;
      const std::int64_t inner = heads * d;
      const std::int64_t kept = s.dn_conv - 1;
      const int states = g.op(3 * kept * inner, {s_copy});
      int joined[3];
      for (int& j : joined) {
        j = g.op((kept + b) * inner, {g.view(states), g.view(g.op(b * inner, {attn_norm}))});
        g.external({g.view(j)});
      }
      const int state = g.view(g.op(heads * d * d, {s_copy}));
      // convolution, SiLU of its reshape (a new tensor), L2 norm likewise
      const auto convolved = [&](int in) {
        return g.op(b * inner, {g.view(g.op(b * inner, {in}))});
      };
      const int q = g.op(b * inner, {g.view(convolved(joined[0]))});
      const int k = g.op(b * inner, {g.view(convolved(joined[1]))});
      const int v = convolved(joined[2]);
      // the bounded decay gate: f_b(f_a(x)) + dt bias, x A of a reshape (a
      // new tensor), scaled, sigmoid, scaled by the lower bound
      const int f = g.same(g.op(b * inner, {g.op(b * d, {attn_norm})}));
      const int decay = g.same(g.same(g.same(g.op(b * inner, {g.view(f)}))));
      const int beta = g.op(b * heads, {g.view(g.op(b * heads, {attn_norm}))});
      kda_out = g.op(b * inner + heads * d * d,
                     {g.view(q), g.view(k), g.view(v), g.view(decay), beta, state});
      g.external({g.view(kda_out)});
    } else {
      // MLA: compressed queries (q_a, its norm, q_b), the nope part
      // absorbed and joined with the rope part; the latent normed and
      // joined with its rope part, written; attention; v_b; cont.
      const int q_a = g.same(g.same(g.op(b * s.mla_q_lora, {attn_norm})));
      const int q = g.op(b * h * (s.mla_nope + s.mla_rope), {q_a});
      const int q_abs = g.op(b * h * lora, {g.view(g.view(q))});
      const int q_cur = g.op(b * h * kw, {g.view(q_abs), g.view(q)});
      const int kv_pe = g.op(b * kw, {attn_norm});
      const int latent = g.same(g.op(b * lora, {g.view(kv_pe)}));
      g.external({g.view(g.op(b * kw, {g.view(latent), g.view(kv_pe)})), k_idxs});
      int out = 0;
      if (s.flash) {
        out = g.op(b * h * lora, {g.view(q_cur), mask});
      } else {
        const int v_t = g.bytes_op(
            static_cast<std::int64_t>(static_cast<double>(s.cells * lora) * s.k_value_bytes), {});
        const int kq = g.same(g.op(b * s.cells * h, {g.view(q_cur)}), {mask});
        out = g.op(b * h * lora, {v_t, kq});
      }
      attn = g.op(b * h * s.mla_v, {g.view(g.op(b * h * s.mla_v, {out}))});  // v_b, cont
    }
    // the first scores the graph reaches next: a dense MLP expands nothing,
    // so the next layer's attention mix comes first
    const int scores_ffn_first = moe ? stack_scores() : -1;
    if (!moe) {
      scores_next = last ? -1 : stack_scores();
    }
    if (kda) {
      // the output made contiguous and RMS-normed (a reshape: a new
      // tensor), times the sigmoid of the full-rank gate (of a reshape),
      // made contiguous for the output projection
      const std::int64_t inner = std::int64_t{s.dn_v_heads} * s.dn_head;
      const int o = g.same(g.op(b * inner, {g.view(g.op(b * inner, {g.view(kda_out)}))}));
      const int gate = g.op(b * inner, {g.view(g.op(b * inner, {g.view(attn_norm)}))});
      attn = g.op(b * inner, {g.op(b * inner, {o, gate}, {o, gate})});
      attn = g.op(b * e, {attn});
    } else {
      const int gate = g.same(g.op(b * h * s.mla_v, {attn_norm}));  // sigmoid
      attn = g.op(b * e, {g.op(b * h * s.mla_v, {attn, gate}, {attn, gate})});
    }
    const int prefix = banked ? attn : g.op(b * e, {x, attn}, {x, attn});
    const int ffn_norm = normed(mix(moe ? scores_ffn_first : stack_scores(), prefix));
    int ffn_out = 0;
    if (!moe) {
      const int gate = g.op(b * s.ffn, {ffn_norm});
      ffn_out = g.op(b * e, {situ(b * s.ffn, gate, {ffn_norm})});
    } else {
      const std::int64_t k_used = std::max(1, s.experts_used);
      const std::int64_t lat = s.expert_latent > 0 ? s.expert_latent : e;
      const int probs = g.same(g.op(b * s.experts, {ffn_norm}));  // logits, sigmoid
      const int selected = g.view(g.op(b * s.experts, {g.op(b * s.experts, {probs})}));
      const int flat = g.view(g.op(b * k_used, {g.view(probs), selected}));
      const int weights = g.same(g.op(b * k_used, {flat, g.same(g.op(b, {flat}))}, {flat}));
      const int in = g.op(b * lat, {ffn_norm});  // routed_down
      const int gate = g.op(b * k_used * s.expert_ffn, {g.view(in), selected});
      const int act = situ(b * k_used * s.expert_ffn, gate, {g.view(in), selected});
      const int experts = g.same(g.op(b * k_used * lat, {act, selected}), {weights});
      int sum = g.op(b * lat, {g.view(experts), g.view(experts)});
      for (std::int64_t i = 2; i < k_used; ++i) {
        sum = g.same(sum, {g.view(experts)});
      }
      scores_next = stack_scores();                           // build_moe_ffn expanded the sum
      const int routed = g.op(b * e, {g.same(g.same(sum))});  // norm, weight, routed_up
      const int gate_s = g.op(b * s.shared_ffn, {ffn_norm});
      const int shared = g.op(b * e, {situ(b * s.shared_ffn, gate_s, {ffn_norm})});
      ffn_out = g.op(b * e, {routed, shared}, {routed, shared});
    }
    x = g.op(b * e, {prefix, ffn_out}, {prefix, ffn_out});  // l_out
    if (!last) {
      attn_norm = normed(mix(scores_next, x));
    }
  }
  // the final mix (its own scores), the rows to output, norm, logits
  const int mixed = mix(scores_next >= 0 ? scores_next : stack_scores(), x);
  const int logits = g.op(b * s.vocab, {normed(g.op(b * e, {mixed, out_ids}))});
  g.at(logits).output = true;
  return g.take();
}

// Qwen4Exp's graph (qwen4exp.cpp at 80fb11ac), in the node order of a
// GGML_SCHED_DEBUG=2 dump of the reduced live file (docs/live-llamacpp.md,
// Qwen3.8-Flash-Next). The hidden state is `n` streams [e, n, tokens]. A mix
// (build_hc_mix): an RMS norm of the streams (its own tensor: the streams
// are read again by the combine), the gamma through a reshape (a new
// tensor), the gate down (rank), scaled and SiLU'd in place, up and its
// sigmoid, the normed streams times the gate, then one stream made
// contiguous and the others added to it in place, scaled. A combine
// (build_hc_combine): the block output repeated to the streams, the inject
// weights (projected from the mix's normed streams; scale, sigmoid, scale in
// place) multiplied in, added to the streams. The delta net reads its
// convolution rows (build_rs), joins them before the transposed qkv and
// writes the last ones back (made contiguous first, build_conv_state_at),
// reads its state, convolves and SiLUs, L2-norms q and k (views in: new
// tensors; the fused delta net needs no repeat), builds its decay gate
// (alpha read through a reshape: a new tensor, then softplus and x A in
// place) and beta's sigmoid (of a reshape), runs the fused delta net and
// writes the state back; the output's RMS norm (of a view) and weight, z
// projected and its sigmoid (of a reshape), their product, ssm_out. QSA
// (build_qsa_top_k, build_attn_qsa): the raw indexer key written to its
// cache first; Q (with its gate) normed and roped, V, K normed and roped,
// both written; then the zero source filled, the cached keys of each block
// gathered, the block members made contiguous and summed, scaled, normed and
// roped (reshapes: new tensors), the indexer's queries, the scores of every
// head (ReLU of a reshape) summed over heads, the per-block bias added, the
// scores widened to cells (contiguous permutes around a get_rows), the mask
// added (cast to F32 under flash attention), the top-k and its copy, the
// mask filled (a copy), the chosen cells set to zero and the mask added (in
// place on the mask where this is its last reader); attention; in the last
// layer the streams' rows to output picked; the gate's sigmoid times the
// output, the output projection. The experts as build_moe_ffn builds them
// (softmax router, normalised weights); the shared expert after them, gated
// by a sigmoid. The n-gram layer's inputs are gathered after the token
// embeddings; its convolution rows, value, value repeated, key and key norm
// are visited right after the previous layer's routed experts (its build
// expands the conv history write, which reaches them before that layer's
// output); then the query norm, the per-stream dot product and its signed
// square root and sigmoid, the gated value normed, the history joined in
// front and written back, one contiguous shifted copy per tap times its
// weight (a cast of a contiguous slice of the taps), summed, SiLU, made
// contiguous, added to the gated value and to the streams. The final mix
// is the output norm (an output) before the logits.
std::vector<GraphTensor> qwen4exp_graph(const LlamaGraphShape& s) {
  Builder g;
  g.reserve(static_cast<std::size_t>(std::max(s.layers, 1)) * 160 + 256);
  const std::int64_t b = std::max<std::int64_t>(1, s.tokens);
  const std::int64_t e = s.hidden;
  const std::int64_t n = std::max(1, s.hc_streams);
  const std::int64_t w = n * e;
  const std::int64_t cells = std::max<std::int64_t>(1, s.cells);
  const std::int64_t qw = std::int64_t{s.heads} * s.head_dim;
  const std::int64_t kvw = std::int64_t{s.kv_heads} * s.head_dim;
  const std::int64_t idx_d = s.index_head_dim;
  const std::int64_t ih = std::max(1, s.index_heads);
  const std::int64_t r = std::max<std::int64_t>(1, s.qsa_block);
  const std::int64_t blocks = (cells + r - 1) / r;
  const std::int64_t top = std::min(cells, std::max<std::int64_t>(1, s.index_top_k) + r - 1);
  const bool qsa = idx_d > 0 && s.index_heads > 0;
  const bool ngram = s.ngram_layer >= 0 && s.ngram_heads > 0 && s.ngram_width > 0;
  const std::int64_t ngram_hist = std::int64_t{std::max(0, s.ngram_conv - 1)} * s.ngram_size;
  const std::int64_t mask_bytes = s.flash ? 2 : 4;
  const auto kind_at = [&](int il) {
    return static_cast<std::size_t>(il) < s.mixers.size() ? s.mixers[static_cast<std::size_t>(il)]
                                                          : 'A';
  };

  // Inputs, in the order the graph first reads them (a trace of the real
  // allocator's offsets with a Q8_0 cache: the rotations where Q and V
  // first meet them).
  const int tokens = g.input(4 * b);
  g.input(4 * b * e);  // inp_embd: built, never read
  const int ngram_rows = ngram ? g.input(4 * s.ngram_heads * b) : -1;
  const int s_copy = g.input(4);
  const int idx_rows = qsa ? g.input(8 * b) : -1;
  const int k_rot = s.rotate_k ? g.input(k_rotation_bytes(s.head_dim)) : -1;
  const int pos = g.input(16 * b);  // M-RoPE: four positions a token
  const int v_rot = s.rotate_v ? g.input(4 * 64 * 64) : -1;
  const int k_idxs = g.input(8 * b);
  const int v_idxs = g.input(s.flash ? 8 * b : 8 * b * kvw);
  const int zeros = qsa ? g.input(4 * top * b) : -1;
  const int blk_cells = qsa ? g.input(4 * r * blocks) : -1;
  const int blk_pos = qsa ? g.input(16 * blocks) : -1;
  const int blk_bias = qsa ? g.input(4 * blocks * b) : -1;
  const int cell_blk = qsa ? g.input(4 * cells) : -1;
  const int mask = g.input(mask_bytes * cells * b);
  const int out_ids = g.input(4 * b);

  // build_hc_mix: the mixed stream, and the normed streams the inject reads.
  struct Mix {
    int mixed;
    int normed;
  };
  const auto mix = [&](int x) {
    const int rms = g.op(w * b, {x}, {x});
    const int normed = g.op(w * b, {g.view(rms)});  // x gamma, of a reshape
    const int low = g.same(g.same(g.op(b * s.hc_rank, {normed})));
    const int gate = g.same(g.op(w * b, {low}));
    const int gated = g.op(w * b, {normed, gate}, {normed, gate});
    int mixed = g.op(b * e, {g.view(gated)});
    for (std::int64_t c = 1; c < n; ++c) {
      mixed = g.op(b * e, {mixed, g.view(gated)}, {mixed});
    }
    return Mix{g.same(mixed), normed};
  };
  // build_hc_combine; `rows`: the last layer's rows to output, picked from
  // the inject weights.
  const auto combine = [&](int res, int out, int normed, bool rows) {
    const int rep = g.op(w * b, {g.view(out)});
    int inj = g.op(n * b, {normed});
    if (rows) {
      inj = g.op(n * b, {inj, out_ids});
    }
    inj = g.same(g.same(g.same(inj)));
    const int weighted = g.op(w * b, {rep, g.view(inj)}, {rep});
    return g.op(w * b, {res, weighted}, {res, weighted});
  };

  int x = g.op(b * e, {tokens});
  const int ngram_embd =
      ngram ? g.op(b * s.ngram_heads * s.ngram_width, {ngram_rows}) : -1;  // ple_embd
  x = g.op(w * b, {g.view(x)});  // hc_init: the embeddings repeated to the streams

  // The n-gram layer's first part (see above), and the rest over `hidden`.
  struct NgramPre {
    int conv_rows = -1;
    int value_rep = -1;
    int key = -1;
  };
  const auto ngram_pre = [&] {
    NgramPre p;
    p.conv_rows = g.op(ngram_hist * w, {s_copy});
    const int value = g.op(b * e, {ngram_embd});
    p.value_rep = g.op(w * b, {g.view(value)});
    const int key = g.op(w * b, {ngram_embd});
    p.key = g.op(w * b, {g.view(g.op(w * b, {g.view(key)}))});  // RMS norm, gamma (reshapes)
    return p;
  };
  const auto ngram_post = [&](const NgramPre& p, int hidden) {
    const int query = g.op(w * b, {g.view(g.op(w * b, {g.view(hidden)}))});
    int score = g.same(g.op(n * b, {g.op(w * b, {g.view(p.key), g.view(query)})}));
    const int sign = g.op(n * b, {score});
    const int mag = g.same(g.same(g.op(n * b, {score}, {score})));  // abs, clamp, sqrt
    const int gate = g.same(g.op(n * b, {sign, mag}, {sign, mag}));
    const int gated = g.op(w * b, {p.value_rep, g.view(gate)}, {p.value_rep});
    const int normed = g.op(w * b, {g.view(g.op(w * b, {g.view(gated)}))});
    const int joined = g.op((ngram_hist + b) * w, {g.view(p.conv_rows), g.view(g.view(normed))});
    g.external({g.op(ngram_hist * w, {g.view(joined)})});  // the history written back
    int conv = -1;
    for (int k = 0; k < s.ngram_conv; ++k) {
      const int shifted = g.op(b * w, {g.view(joined)});
      const int tap = g.op(w, {g.bytes_op(2 * w, {})});  // a tap's slice, cast to F32
      const int term = g.op(b * w, {shifted, tap}, {shifted});
      conv = conv < 0 ? term : g.op(b * w, {conv, term}, {conv, term});
    }
    const int out = g.op(b * w, {g.same(conv)});  // SiLU, made contiguous
    const int sum = g.op(w * b, {gated, g.view(out)}, {gated});
    return g.op(w * b, {hidden, sum}, {hidden, sum});
  };
  NgramPre pending;
  if (ngram && s.ngram_layer == 0) {
    pending = ngram_pre();
  }

  for (int il = 0; il < s.layers; ++il) {
    const bool last = il == s.layers - 1;
    if (ngram && il == s.ngram_layer) {
      x = ngram_post(pending, x);
    }
    const Mix m = mix(x);
    int cur = 0;
    int res = x;
    if (kind_at(il) == 'R') {
      const std::int64_t kh = s.dn_k_heads;
      const std::int64_t vh = s.dn_v_heads;
      const std::int64_t d = s.dn_head;
      const std::int64_t conv_dim = (2 * kh + vh) * d;
      const std::int64_t kept = std::max(0, s.dn_conv - 1);
      const int conv_rows = g.op(kept * conv_dim, {s_copy});
      const int qkv = g.op(b * conv_dim, {m.mixed});
      const int joined = g.op((kept + b) * conv_dim, {g.view(conv_rows), g.view(g.view(qkv))});
      g.external({g.op(kept * conv_dim, {g.view(joined)})});  // the last inputs written back
      const int state = g.op(vh * d * d, {s_copy});
      const int conv = g.same(g.op(b * conv_dim, {joined}));  // ssm_conv, SiLU
      const int q = g.op(b * kh * d, {g.view(conv)});         // L2 norms
      const int k = g.op(b * kh * d, {g.view(conv)});
      const int decay = g.same(g.same(g.op(b * vh, {g.view(g.op(b * vh, {m.mixed}))})));
      const int beta = g.op(b * vh, {g.view(g.op(b * vh, {m.mixed}))});  // sigmoid of a reshape
      const int gdn =
          g.op(b * vh * d + vh * d * d, {q, k, g.view(conv), g.view(decay), g.view(beta), state});
      g.external({g.view(gdn)});  // the new state written back
      const int normed = g.same(g.op(b * vh * d, {g.view(gdn)}));
      const int z = g.op(b * vh * d, {g.view(g.op(b * vh * d, {m.mixed}))});  // z, sigmoid
      cur = g.op(b * e, {g.view(g.op(b * vh * d, {normed, z}, {normed, z}))});
    } else {
      if (qsa) {  // the raw indexer key, written to its cache
        g.external({g.view(g.op(b * idx_d, {m.mixed})), idx_rows});
      }
      const auto rotate = [&](int t, std::int64_t width, int matrix) {
        return g.view(g.op(b * width, {g.view(t), matrix}));
      };
      // Q, V, K (build_attn_qsa expands them in that order), each rotated
      // where the cache is quantised.
      const int q_full = g.op(b * 2 * qw, {m.mixed});
      int q = g.same(g.op(b * qw, {g.view(q_full)}));  // RMS norm of a view, weight
      q = g.same(q, {pos});                            // RoPE
      if (s.rotate_k) {
        q = rotate(q, qw, k_rot);
      }
      int v = g.op(b * kvw, {m.mixed});
      if (s.rotate_v) {
        v = rotate(v, kvw, v_rot);
      }
      int k = g.same(g.op(b * kvw, {g.view(g.op(b * kvw, {m.mixed}))}));  // K norm, weight
      k = g.same(k, {pos});
      if (s.rotate_k) {
        k = rotate(k, kvw, k_rot);
      }
      g.external({g.view(k), k_idxs});
      g.external({g.view(v), v_idxs});
      // Without flash attention the scores are visited first (the softmax
      // reads them before the mask), so they sit below the selection's
      // tensors.
      const int kq = s.flash ? -1 : g.op(b * cells * s.heads, {g.view(q)});
      int attn_mask = mask;
      if (qsa) {
        const int zero = g.same(zeros);  // ggml_fill in place
        const int members = g.op(idx_d * r * blocks, {blk_cells});
        int pooled = g.op(idx_d * blocks, {g.view(members)});
        for (std::int64_t i = 1; i < r; ++i) {
          pooled =
              g.op(idx_d * blocks, {pooled, g.op(idx_d * blocks, {g.view(members)})}, {pooled});
        }
        pooled = g.same(pooled);                                   // / r
        pooled = g.same(g.op(idx_d * blocks, {g.view(pooled)}));   // RMS norm, weight
        pooled = g.op(idx_d * blocks, {g.view(pooled), blk_pos});  // RoPE of a reshape
        int iq = g.same(g.op(b * ih * idx_d, {g.view(g.op(b * ih * idx_d, {m.mixed}))}));
        iq = g.same(iq, {pos});
        const int scores =
            g.op(blocks * ih * b, {g.view(g.op(blocks * ih * b, {pooled, g.view(iq)}))});
        int score = g.op(blocks * b, {g.view(scores)});
        for (std::int64_t h = 1; h < ih; ++h) {
          score = g.op(blocks * b, {score, g.view(scores)}, {score});
        }
        score = g.same(score, {blk_bias});
        const int widened =
            g.op(cells * b, {g.op(cells * b, {g.op(blocks * b, {g.view(score)}), cell_blk})});
        const int mask_f32 = s.flash ? g.op(cells * b, {mask}) : mask;
        const int tokens_score = g.op(cells * b, {widened, g.view(mask_f32)}, {widened});
        const int top_k = g.op(top * b, {g.op(top * b, {tokens_score})});  // top-k, cont
        const std::int64_t mb = mask_bytes * cells * b;
        const int filled = g.bytes_op(mb, {mask});
        const int set = g.view_reading(g.view(filled), {zero, g.view(top_k)});
        attn_mask = g.bytes_op(mb, {g.view(set), mask});
        g.at(attn_mask).inplace = {mask};
      }
      int out = 0;
      if (s.flash) {
        out = g.view(g.op(b * qw, {g.view(q), attn_mask}));
      } else {
        const int probs = g.same(kq, {attn_mask});  // softmax
        out = g.op(b * qw, {g.view(g.op(b * qw, {probs}))});
      }
      if (last) {  // the streams' rows to output, reshaped back to streams
        res = g.view(g.op(w * b, {g.view(x), out_ids}));
      }
      if (s.flash && s.rotate_v) {  // the output rotated back
        out = g.view(g.op(b * qw, {g.view(out), v_rot}));
      }
      const int gate = g.same(g.op(b * qw, {g.view(q_full)}));  // cont, sigmoid
      cur = g.op(b * e, {g.op(b * qw, {out, gate}, {out, gate})});
    }
    if (last) {
      cur = g.op(b * e, {cur, out_ids});
      if (kind_at(il) == 'R') {
        res = g.view(g.op(w * b, {g.view(x), out_ids}));
      }
    }
    x = combine(res, cur, m.normed, last);
    // The MLP.
    const Mix f = mix(x);
    const std::int64_t k_used = std::max(1, s.experts_used);
    const std::int64_t fe = std::max<std::int64_t>(1, s.expert_ffn);
    const int probs = g.same(g.op(b * s.experts, {f.mixed}));  // router, softmax
    const int sorted = g.op(b * s.experts, {probs});           // argsort
    const int weights_raw = g.op(b * k_used, {g.view(probs), g.view(sorted)});
    const int sum = g.same(g.op(b, {g.view(weights_raw)}));  // sum_rows, clamp
    const int weights = g.op(b * k_used, {g.view(weights_raw), sum});
    const int up_in = g.view(f.mixed);
    const int act = g.op(b * k_used * fe, {g.op(b * k_used * fe, {up_in, g.view(sorted)}),
                                           g.op(b * k_used * fe, {up_in, g.view(sorted)})});
    const int experts = g.same(g.op(b * k_used * e, {act, g.view(sorted)}), {g.view(weights)});
    int moe = g.op(b * e, {g.view(experts), g.view(experts)});
    for (std::int64_t i = 2; i < k_used; ++i) {
      moe = g.same(moe, {g.view(experts)});
    }
    if (ngram && il + 1 == s.ngram_layer) {
      pending = ngram_pre();
    }
    if (s.shared_ffn > 0) {
      const int gate_s = g.op(b * s.shared_ffn, {f.mixed});
      const int up_s = g.op(b * s.shared_ffn, {f.mixed});
      int down_s = g.op(b * e, {g.op(b * s.shared_ffn, {gate_s, up_s})});
      down_s = g.same(down_s, {g.same(g.op(b, {f.mixed}))});
      moe = g.op(b * e, {moe, down_s}, {moe, down_s});
    }
    x = combine(x, moe, f.normed, false);
  }
  // The final mix is the output norm (t_embd, an output), then the logits.
  const int rms = g.op(w * b, {x}, {x});
  const int normed = g.op(w * b, {g.view(rms)});
  const int gate = g.same(g.op(w * b, {g.same(g.same(g.op(b * s.hc_rank, {normed})))}));
  const int gated = g.op(w * b, {normed, gate}, {normed, gate});
  int mixed = g.op(b * e, {g.view(gated)});
  for (std::int64_t c = 1; c < n; ++c) {
    mixed = g.op(b * e, {mixed, g.view(gated)}, {mixed});
  }
  mixed = g.same(mixed);
  g.at(mixed).output = true;
  const int logits = g.op(b * s.vocab, {mixed});
  g.at(logits).output = true;
  return g.take();
}

// Granite Switch's graph (granite-switch.cpp at 80fb11ac), in ggml's visit
// order. The router comes first: its Q, K and V are the inputs padded to a
// head ([head, 1, tokens], ggml_pad), and build_attn expands Q, V, K and
// writes K and V to the router's cache layer (V padded to the widest
// layer's rows when it is stored transposed), then its attention runs (a
// trace of the real allocator's offsets, tests/live/trace_alloc.c, shows it
// there, before the token rows). Layer 0's first LoRA delta makes the
// adapter ids of it: the output's first row made contiguous, clamped (of a
// reshape: a new tensor), rounded (in place) and cast to I32. Each layer: the
// token rows (get_rows of the substituted ids, scaled), the norm, the fused
// QKV; Q, V, K each a contiguous copy of its slice plus its LoRA delta (A
// then B, ggml_mul_mat_id over the slots: [rank, 1, tokens] and [out, 1,
// tokens]) added in place, Q and K roped from reshapes (new tensors). The
// output projection, gate, up and down each the base product plus its
// delta, in place. The last layer picks the rows to output of the
// attention output, of the residual and of the adapter ids.
std::vector<GraphTensor> granite_switch_graph(const LlamaGraphShape& s) {
  Builder g;
  g.reserve(static_cast<std::size_t>(std::max(s.layers, 1)) * 96 + 256);
  const std::int64_t b = std::max<std::int64_t>(1, s.tokens);
  const std::int64_t e = s.hidden;
  const std::int64_t hd = s.head_dim;
  const std::int64_t qw = std::int64_t{s.heads} * hd;
  const std::int64_t kvw = std::int64_t{s.kv_heads} * hd;
  const std::int64_t ff = s.ffn;
  const std::int64_t r = std::max(1, s.adapter_rank);
  const std::int64_t v_rows = std::max(kvw, hd);
  const std::int64_t mask_bytes = s.flash ? 2 : 4;
  const auto rotate = [&](int t, std::int64_t width, int matrix) {
    return g.view(g.op(b * width, {g.view(t), matrix}));
  };

  // Inputs, in the order the graph first reads them (the trace's leaf
  // offsets): the router's Q, V and K signals (with the rotations a
  // quantised cache reads), the cache rows to write, the KQ mask (the
  // router's attention), the substituted token ids, the positions, the rows
  // to output.
  const int router_q = g.input(4 * b);
  const int k_rot = s.rotate_k ? g.input(k_rotation_bytes(hd)) : -1;
  const int router_v = g.input(4 * b);
  const int v_rot = s.rotate_v ? g.input(4 * 64 * 64) : -1;
  const int router_k = g.input(4 * b);
  const int k_idxs = g.input(8 * b);
  const int v_idxs = g.input(s.flash ? 8 * b : 8 * b * v_rows);

  // The router's Q, V and K written to its cache layer.
  int qr = g.op(b * hd, {g.view(router_q)});
  if (s.rotate_k) {
    qr = rotate(qr, hd, k_rot);
  }
  int vr = g.op(b * hd, {g.view(router_v)});
  if (s.rotate_v) {
    vr = rotate(vr, hd, v_rot);
  }
  int kr = g.op(b * hd, {g.view(router_k)});
  if (s.rotate_k) {
    kr = rotate(kr, hd, k_rot);
  }
  g.external({g.view(kr), k_idxs});
  const int vr_rows = !s.flash && hd < v_rows ? g.op(b * v_rows, {vr}) : vr;
  g.external({g.view(vr_rows), v_idxs});

  const int mask = g.input(mask_bytes * s.cells * b);
  int pos = -1;
  int out_ids = -1;
  // build_attn_mha over the cache: flash attention (the output rotated back
  // where V is quantised), or the scores softmaxed and the heads' product
  // made contiguous.
  const auto attend = [&](int q, std::int64_t heads, std::int64_t width) {
    const int qp = g.view(q);
    if (s.flash) {
      int out = g.op(b * width, {qp, mask});
      if (s.rotate_v) {
        out = g.op(b * width, {g.view(out), v_rot});
      }
      return g.view(out);
    }
    const int kq = g.same(g.op(b * s.cells * heads, {qp}), {mask});
    const int kqv = g.op(b * width, {kq});
    return g.op(b * width, {g.view(kqv)});
  };
  // The router's attention, visited right after its cache rows are written
  // (a trace of the real allocator's offsets: docs/live-llamacpp.md); the
  // adapter ids made from it at the first delta.
  const int routed = attend(qr, 1, hd);
  const int tokens = g.input(4 * b);
  int ids = -1;
  const auto adapter_ids = [&] {
    if (ids < 0) {
      const int slot = g.op(b, {g.view(routed)});        // cont of its first row
      ids = g.op(b, {g.same(g.op(b, {g.view(slot)}))});  // clamp, round, cast
    }
    return ids;
  };
  // B (A x) over the token's slot: [out, 1, tokens], read through a reshape.
  const auto delta = [&](int in, std::int64_t out, int slots) {
    const int a = g.op(b * r, {g.view(in), g.view(slots)});
    return g.view(g.op(b * out, {a, g.view(slots)}));
  };

  int x = g.same(g.op(b * e, {tokens}));  // get_rows of the substituted ids, scaled
  for (int il = 0; il < s.layers; ++il) {
    const bool last = il == s.layers - 1;
    const int an = g.same(g.op(b * e, {x}));  // RMS norm, weight
    const int qkv = g.op(b * (qw + 2 * kvw), {an});
    int q = g.op(b * qw, {g.view(qkv)});
    q = g.same(q, {delta(an, qw, adapter_ids())});
    if (pos < 0) {
      pos = g.input(4 * b);
    }
    q = g.op(b * qw, {g.view(q), pos});  // RoPE of a reshape
    if (s.rotate_k) {
      q = rotate(q, qw, k_rot);
    }
    int v = g.op(b * kvw, {g.view(qkv)});
    v = g.same(v, {delta(an, kvw, ids)});
    if (s.rotate_v) {
      v = rotate(v, kvw, v_rot);
    }
    int k = g.op(b * kvw, {g.view(qkv)});
    k = g.same(k, {delta(an, kvw, ids)});
    k = g.op(b * kvw, {g.view(k), pos});
    if (s.rotate_k) {
      k = rotate(k, kvw, k_rot);
    }
    g.external({g.view(k), k_idxs});
    g.external({g.view(v), v_idxs});
    const int attn = attend(q, s.heads, qw);
    int cur = g.op(b * e, {attn});
    cur = g.same(cur, {delta(attn, e, ids)});
    int res = x;
    int ids_l = ids;
    if (last) {
      if (out_ids < 0) {
        out_ids = g.input(4 * b);
      }
      cur = g.op(b * e, {cur, out_ids});
    }
    cur = g.same(cur);  // residual scale
    if (last) {
      res = g.op(b * e, {x, out_ids});
    }
    const int ffn_inp = g.op(b * e, {cur, res}, {cur, res});
    const int fn = g.same(g.op(b * e, {ffn_inp}));  // RMS norm, weight
    if (last) {
      ids_l = -2;  // the adapter ids' rows, read by the first MLP delta
    }
    int gate = g.op(b * ff, {fn});
    if (ids_l == -2) {
      ids_l = g.op(b, {g.view(ids), out_ids});
    }
    gate = g.same(g.same(gate, {delta(fn, ff, ids_l)}));  // + delta, SiLU
    int up = g.op(b * ff, {fn});
    up = g.same(up, {delta(fn, ff, ids_l)});
    const int gu = g.op(b * ff, {gate, up}, {gate, up});
    int down = g.op(b * e, {gu});
    down = g.same(g.same(down, {delta(gu, e, ids_l)}));  // + delta, residual scale
    x = g.op(b * e, {down, ffn_inp}, {down, ffn_inp});
  }
  const int normed = g.same(g.same(x));  // RMS norm, weight (t_embd)
  g.at(normed).output = true;
  const int logits = g.same(g.op(b * s.vocab, {normed}));  // / logit scale
  g.at(logits).output = true;
  return g.take();
}

// The inputs of RWKV's graphs (rwkv6.cpp, rwkv7.cpp), in the order
// tests/live/trace_alloc.c printed them: the tokens (at offset 0), the
// unused ready embeddings, the state row and the rows to output; then the
// token embeddings.
struct RwkvInputs {
  int s_copy = -1;
  int out_ids = -1;
  int embd = -1;
};

RwkvInputs rwkv_inputs(Builder& g, std::int64_t b, std::int64_t e) {
  RwkvInputs in;
  const int tokens = g.input(4 * b);
  g.input(4 * b * e);  // inp_embd's unused input of ready embeddings
  in.s_copy = g.input(4);
  in.out_ids = g.input(4 * b);
  in.embd = g.op(b * e, {tokens});
  return in;
}

// An RWKV channel mix's token shift (rwkv6.cpp, rwkv7.cpp): x_prev = the
// shift row joined before the normed rows, and sx = x_prev - x; the last
// layer picks the rows to output from both first. Returns {sx, x}; `be`
// values each.
std::pair<int, int> rwkv_channel_shift(Builder& g, std::int64_t be, int shift, int ffn_norm,
                                       int out_ids, bool last) {
  const int x_prev = g.op(be, {g.view(shift), g.view(ffn_norm)});
  if (last) {
    const int prev_rows = g.op(be, {g.view(x_prev), out_ids});
    const int x = g.op(be, {g.view(ffn_norm), out_ids});
    return {g.op(be, {prev_rows, x}, {prev_rows}), x};
  }
  const int x = g.view(ffn_norm);
  return {g.op(be, {g.view(x_prev), x}), x};
}

// RWKV-6's token shift up to its five mixes (rwkv6-base.cpp
// build_rwkv6_time_mix, rwkv6_graph below says the order): sx = x_prev - x
// (x_prev the shift row joined before the normed rows), the lerp_x mix (of
// a reshape: new), w1 and tanh, the permute made contiguous, w2 into five
// hidden-wide mixes, + lerp_fused, x sx, + x in place. Returns the mixes.
int rwkv6_mixes(Builder& g, std::int64_t b, std::int64_t e, std::int64_t tm, int shift,
                int att_norm) {
  const int sx = g.same(g.op(b * e, {g.view(shift), g.view(att_norm)}), {att_norm});
  const int lerp_x = g.same(g.op(b * e, {g.view(sx)}), {g.view(att_norm)});
  const int lora = g.same(g.op(b * 5 * tm, {lerp_x}));                    // w1, tanh
  const int mixes = g.op(5 * b * e, {g.op(b * 5 * tm, {g.view(lora)})});  // cont, w2
  return g.same(g.same(g.same(mixes), {g.view(sx)}), {g.view(att_norm)});
}

// RWKV-6's graph (rwkv6.cpp, rwkv6-base.cpp at 80fb11ac), in the node order
// and placement tests/live/trace_alloc.c printed for the live RWKV-6 1.6B
// file (docs/live-llamacpp.md, RWKV-6 run). The inputs: the tokens, the
// unused ready embeddings, the state row, the rows to output (freed after
// their last reader: the final norm lands where the state row was). Each layer
// reads its token-shift rows (two hidden-wide: one for each mix) and its wkv
// state (build_rs: get_rows) first; then the previous layer's channel mix
// is built (the state written back is the first expand that reaches it).
// The time mix: LayerNorm (norm, weight, bias), x_prev = the shift row
// joined before the normed rows (ggml_concat), sx = x_prev - x in place, the
// token-shift LoRA (sx lerp_x + x of a reshape: a new tensor; w1 and tanh;
// its permute made contiguous; w2 into five hidden-wide mixes [e, 5 tokens],
// + lerp_fused, x sx, + x in place), the key, value and receptance products
// of views of it, the decay LoRA (w1, tanh, w2, + decay, exp(-exp) in
// place), the fused ggml_rwkv_wkv6 (one tensor of the output and the new
// state, which is copied back), the group norm of a view (new), its weight
// (of a reshape: new) and bias, times SiLU(gate), the output projection, and
// the residual sum of two reshapes (new). Then the channel-mix LayerNorm
// and the token-shift rows to store (the last rows of both norms, joined).
// The channel mix: x_prev joined likewise, sx = x_prev - x of reshapes
// (new), read twice (receptance's lerp first: a new tensor, the key's in
// place), sigmoid(receptance), relu(key)^2, value, their product, + the
// residual in place. The last layer picks the rows to output from x_prev and
// the normed input before the channel mix and from the residual before its
// sum. The rescale every n layers (a ggml_scale) runs in place.
std::vector<GraphTensor> rwkv6_graph(const LlamaGraphShape& s) {
  Builder g;
  g.reserve(static_cast<std::size_t>(std::max(s.layers, 1)) * 80 + 32);
  const std::int64_t b = std::max<std::int64_t>(1, s.tokens);
  const std::int64_t e = s.hidden;
  const std::int64_t head = std::max<std::int64_t>(1, s.head_dim);
  const std::int64_t tm = s.rwkv_time_mix_extra;
  const std::int64_t td = s.rwkv_time_decay_extra;
  const RwkvInputs in = rwkv_inputs(g, b, e);
  const int s_copy = in.s_copy;
  const int out_ids = in.out_ids;
  const int embd = in.embd;
  const auto layer_norm = [&](int of) { return g.same(g.same(g.op(b * e, {of}))); };
  // the previous layer's pieces its channel mix reads
  int shift = -1;
  int ffn_inp = -1;
  int ffn_norm = -1;
  const auto channel_mix = [&](bool last) {
    const auto [sx, x] = rwkv_channel_shift(g, b * e, shift, ffn_norm, out_ids, last);
    // sx x lerp_r (a new tensor while sx has two readers), + x in place
    const int xr = g.same(g.op(b * e, {sx}, {sx}), {x});
    const int r = g.same(g.op(b * e, {xr}));  // receptance, sigmoid
    const int xk = g.same(g.op(b * e, {sx}, {sx}), {x});
    const int k = g.same(g.same(g.op(b * s.ffn, {xk})));  // key, relu, sqr
    const int out = g.same(r, {g.op(b * e, {k})});        // value, r x value
    const int residual = last ? g.op(b * e, {g.view(ffn_inp), out_ids}) : g.view(ffn_inp);
    return g.op(b * e, {out, residual}, {out, residual});  // l_out (+ scale in place)
  };
  for (int il = 0; il < s.layers; ++il) {
    const int shift_rows = g.op(2 * e, {s_copy});  // build_rs: token shift
    const int state = g.op(e * head, {s_copy});    // build_rs: wkv state
    const int x = il == 0 ? layer_norm(embd) : channel_mix(false);
    shift = shift_rows;
    // time mix
    const int att_norm = layer_norm(g.view(x));
    const int mixes = rwkv6_mixes(g, b, e, tm, shift, att_norm);
    const int k = g.op(b * e, {g.view(mixes)});
    const int v = g.op(b * e, {g.view(mixes)});
    const int r = g.op(b * e, {g.view(mixes)});
    const int decay_lora = g.same(g.op(b * td, {g.view(mixes)}));  // decay_w1, tanh
    const int w = g.same(g.same(g.same(g.same(g.op(b * e, {decay_lora})))));
    const int wkv = g.op(b * e + e * head, {g.view(k), g.view(v), g.view(r), g.view(w), state});
    g.external({g.view(wkv)});                              // the new state copied back
    const int normed = g.op(b * e, {g.view(g.view(wkv))});  // group norm
    const int y = g.same(g.op(b * e, {g.view(normed)}));    // ln weight, bias
    const int gate = g.same(g.op(b * e, {g.view(mixes)}));  // gate, SiLU
    const int out = g.op(b * e, {g.same(y, {gate})});       // x gate, output
    ffn_inp = g.op(b * e, {g.view(out), g.view(x)});
    ffn_norm = layer_norm(ffn_inp);
    g.external({g.view(g.op(2 * e, {g.view(att_norm), g.view(ffn_norm)}))});
  }
  const int result = layer_norm(channel_mix(true));
  g.at(result).output = true;
  const int logits = g.op(b * s.vocab, {result});
  g.at(logits).output = true;
  return g.take();
}

// The rest of an ARWKV-7 or RWKV6Qwen2 layer (arwkv7.cpp, rwkv6qwen2.cpp):
// nothing but the token-shift row reads the time mix's output before the
// next layer does, so the graph visits it from the next layer's normed
// input: the residual sum of the time mix's output `tm_out` and the layer's
// input `x` (of two reshapes: new), on the last layer the rows to output,
// the RMS norm, gate and up, their SwiGLU, down, the residual in place.
int rwkv_qwen2_mlp(Builder& g, std::int64_t b, std::int64_t e, std::int64_t ffn, int tm_out, int x,
                   int out_ids, bool last) {
  int inp = g.op(b * e, {g.view(tm_out), g.view(x)});
  if (last) {
    inp = g.op(b * e, {g.view(inp), out_ids});
  }
  const int normed = g.same(g.op(b * e, {g.view(inp)}));
  const int gate = g.op(b * ffn, {normed});
  const int up = g.op(b * ffn, {normed});
  const int down = g.op(b * e, {g.op(b * ffn, {gate, up})});
  return g.op(b * e, {down, inp}, {down, inp});
}

// RWKV6Qwen2's graph (rwkv6qwen2.cpp; rwkv6-base.cpp's time mix on its
// QRWKV path, at 80fb11ac): ARWKV-7's layer (one token-shift row and the
// wkv state read first, the previous layer's time-mix output and MLP after
// them: rwkv_qwen2_mlp; RMS norms, the output norm in place) around
// RWKV-6's time mix as rwkv6_graph replays it up to the five mixes, then in
// the order ggml_gated_linear_attn's sources are visited: the key (+ its
// bias in place), repeated from its KV heads up to the heads (of a reshape:
// a new tensor) when they are fewer, the decay LoRA (w1, tanh, w2, + decay,
// exp(-exp) in place), k x w of two reshapes (new) and k - k w in place on
// it, the value (+ bias, repeated likewise), the receptance (+ bias), the
// recurrence (output and new state in one tensor, the state copied back);
// the token-shift row written back. After it: sigmoid(gate) and the output
// times it in place on the gate, the output projection.
std::vector<GraphTensor> rwkv6qwen2_graph(const LlamaGraphShape& s) {
  Builder g;
  g.reserve(static_cast<std::size_t>(std::max(s.layers, 1)) * 80 + 32);
  const std::int64_t b = std::max<std::int64_t>(1, s.tokens);
  const std::int64_t e = s.hidden;
  const std::int64_t head = std::max<std::int64_t>(1, s.head_dim);
  const std::int64_t heads = e / head;
  const std::int64_t kv_heads = s.kv_heads > 0 ? s.kv_heads : heads;
  const bool repeated = kv_heads != heads;
  const std::int64_t tm = s.rwkv_time_mix_extra;
  const std::int64_t td = s.rwkv_time_decay_extra;
  const RwkvInputs in = rwkv_inputs(g, b, e);
  const auto rms_norm = [&](int of) { return g.same(g.op(b * e, {of})); };
  // a key or value: the product (+ bias in place), repeated up to the heads
  const auto key_value = [&](int mixes) {
    const int kv = g.same(g.op(b * kv_heads * head, {g.view(mixes)}));
    return repeated ? g.op(b * e, {g.view(kv)}) : kv;
  };
  int pending_wkv = -1;
  int pending_mixes = -1;
  int pending_x = -1;
  const auto time_mix_out = [&] {
    const int cur = g.view(g.view(pending_wkv));
    const int gate = g.same(g.op(b * e, {g.view(pending_mixes)}));  // gate, sigmoid
    return g.op(b * e, {g.op(b * e, {cur, gate}, {gate})});         // x gate, output
  };
  const auto mlp = [&](bool last) {
    return rwkv_qwen2_mlp(g, b, e, s.ffn, time_mix_out(), pending_x, in.out_ids, last);
  };
  for (int il = 0; il < s.layers; ++il) {
    const int shift = g.op(e, {in.s_copy});         // build_rs: the token-shift row
    const int state = g.op(e * head, {in.s_copy});  // build_rs: wkv state
    const int x = il == 0 ? in.embd : mlp(false);
    const int att_norm = rms_norm(g.view(x));
    const int mixes = rwkv6_mixes(g, b, e, tm, shift, att_norm);
    const int k = g.view(key_value(mixes));
    const int decay_lora = g.same(g.op(b * td, {g.view(mixes)}));  // decay_w1, tanh
    const int w = g.view(g.same(g.same(g.same(g.same(g.op(b * e, {decay_lora}))))));
    const int kw = g.op(b * e, {k, w});
    const int k_new = g.op(b * e, {k, kw}, {kw});
    const int v = key_value(mixes);
    const int r = g.same(g.op(b * e, {g.view(mixes)}));
    const int wkv = g.op(b * e + e * head, {k_new, g.view(v), g.view(r), w, state});
    g.external({g.view(wkv)});       // the new state copied back
    g.external({g.view(att_norm)});  // the token-shift row written back
    pending_wkv = wkv;
    pending_mixes = mixes;
    pending_x = x;
  }
  const int result = g.same(g.same(mlp(true)));
  g.at(result).output = true;
  const int logits = g.op(b * s.vocab, {result});
  g.at(logits).output = true;
  return g.take();
}

// RWKV-7's graph (rwkv7.cpp, rwkv7-base.cpp at 80fb11ac), in the node order
// and placement tests/live/trace_alloc.c printed for the live RWKV-7 1.5B
// file (docs/live-llamacpp.md, RWKV-7 run). The layers as RWKV-6's (the
// token-shift rows and wkv state read first, the previous layer's channel
// mix after them, the inputs likewise); the time mix: sx repeated to the
// six mixes (five without the gate) and lerped in place, the receptance, the
// decay LoRA (w1, tanh, w2, + w0, sigmoid, scale, exp in place), the key,
// the in-context learning rate a (a1, a2, + a0, sigmoid), k + a (k k_a) -
// k k_a (new tensors while their sources have other readers), the value
// (from layer 1 on mixed with layer 0's value, which lives to the last
// layer, through the v1/v2 LoRA and a sigmoid), k k_k L2-normed (of a
// reshape: new) and its negation, times a in place, the fused
// ggml_rwkv_wkv7 (output and new state in one tensor), the group norm, the
// bonus (k r r_k summed per head, times v) added in place, the gate LoRA
// (g1, sigmoid, g2), the output projection. The channel mix: sx lerped in
// place (read once), relu(key)^2, value, + the residual in place.
std::vector<GraphTensor> rwkv7_graph(const LlamaGraphShape& s) {
  Builder g;
  g.reserve(static_cast<std::size_t>(std::max(s.layers, 1)) * 96 + 32);
  const std::int64_t b = std::max<std::int64_t>(1, s.tokens);
  const std::int64_t e = s.hidden;
  const std::int64_t head = std::max<std::int64_t>(1, s.head_dim);
  const bool gated = s.rwkv_lora_gate > 0;
  // ARWKV-7 (arwkv7.cpp): one token-shift row, RMS norms, Qwen2's MLP
  const bool arwkv = s.rwkv_token_shifts == 1;
  const RwkvInputs in = rwkv_inputs(g, b, e);
  const int s_copy = in.s_copy;
  const int out_ids = in.out_ids;
  const int embd = in.embd;
  const auto layer_norm = [&](int of) { return g.same(g.same(g.op(b * e, {of}))); };
  const auto rms_norm = [&](int of) { return g.same(g.op(b * e, {of})); };
  int shift = -1;
  int ffn_inp = -1;
  int ffn_norm = -1;
  int v_first = -1;
  const auto channel_mix = [&](bool last) {
    const auto [sx, x] = rwkv_channel_shift(g, b * e, shift, ffn_norm, out_ids, last);
    const int xk = g.same(g.same(sx), {x});               // x lerp_k, + x
    const int k = g.same(g.same(g.op(b * s.ffn, {xk})));  // key, relu, sqr
    const int v = g.op(b * e, {k});
    const int residual = last ? g.op(b * e, {g.view(ffn_inp), out_ids}) : g.view(ffn_inp);
    return g.op(b * e, {v, residual}, {v, residual});
  };
  // The time mix after the wkv: the group norm, the bonus, the gate, the
  // output projection.
  struct TimeMix {
    int wkv = -1;
    int r = -1;
    int k = -1;
    int v = -1;
    int mixes = -1;
    int x = -1;  // the layer's input
  };
  const auto time_mix_out = [&](const TimeMix& t) {
    const int normed = g.op(b * e, {g.view(g.view(t.wkv))});
    int y = g.same(g.op(b * e, {g.view(normed)}));
    const int kr = g.same(g.op(b * e, {g.view(t.k), g.view(t.r)}));  // k r, x r_k
    const int rk = g.op(b * (e / head), {kr});                       // per head
    y = g.same(y, {g.view(g.op(b * e, {g.view(t.v), rk}))});
    if (gated) {
      y = g.same(y, {g.op(b * e, {g.same(g.op(b * s.rwkv_lora_gate, {g.view(t.mixes)}))})});
    }
    return g.op(b * e, {y});
  };
  // ARWKV-7: the rest of a layer reached from the next (rwkv_qwen2_mlp).
  TimeMix pending;
  const auto mlp_block = [&](bool last) {
    return rwkv_qwen2_mlp(g, b, e, s.ffn, time_mix_out(pending), pending.x, out_ids, last);
  };
  for (int il = 0; il < s.layers; ++il) {
    const int shift_rows = g.op((arwkv ? 1 : 2) * e, {s_copy});
    const int state = g.op(e * head, {s_copy});
    const int x = arwkv ? (il == 0 ? embd : mlp_block(false))
                        : (il == 0 ? layer_norm(embd) : channel_mix(false));
    shift = shift_rows;
    const int att_norm = arwkv ? rms_norm(g.view(x)) : layer_norm(g.view(x));
    const int sx = g.same(g.op(b * e, {g.view(shift), g.view(att_norm)}), {att_norm});
    const int mixes =
        g.same(g.same(g.op((gated ? 6 : 5) * b * e, {sx})), {att_norm});  // repeat, lerp, + x
    const int r = g.op(b * e, {g.view(mixes)});
    const int w = g.same(g.same(
        g.same(g.same(g.op(b * e, {g.same(g.op(b * s.rwkv_lora_decay, {g.view(mixes)}))})))));
    const int k = g.op(b * e, {g.view(mixes)});
    const int a = g.same(g.same(g.op(b * e, {g.op(b * s.rwkv_lora_iclr, {g.view(mixes)})})));
    const int ka = g.op(b * e, {k}, {k});
    const int a_ka = g.same(g.op(b * e, {a, ka}, {a, ka}), {ka});
    const int k_new = g.op(b * e, {k, a_ka}, {k, a_ka});
    int v = g.op(b * e, {g.view(mixes)});
    if (v_first < 0) {
      v_first = v;
    } else {
      const int diff = g.op(b * e, {v_first, v});
      const int mix = g.same(g.same(g.op(b * e, {g.op(b * s.rwkv_lora_value, {g.view(mixes)})})));
      v = g.op(b * e, {v, g.same(diff, {mix})}, {v});
    }
    const int kk = g.op(b * e, {g.view(g.op(b * e, {k}, {k}))});  // k k_k, L2 norm
    const int neg = g.op(b * e, {kk}, {kk});
    const int kk_a = g.op(b * e, {kk, g.view(a)}, {kk});
    const int wkv =
        g.op(b * e + e * head, {g.view(r), g.view(w), g.view(k_new), g.view(v), neg, kk_a, state});
    g.external({g.view(wkv)});
    pending = TimeMix{wkv, r, k_new, v, mixes, x};
    if (arwkv) {
      g.external({g.view(att_norm)});  // the token-shift row written back
      continue;
    }
    ffn_inp = g.op(b * e, {g.view(time_mix_out(pending)), g.view(x)});
    ffn_norm = layer_norm(ffn_inp);
    g.external({g.view(g.op(2 * e, {g.view(att_norm), g.view(ffn_norm)}))});
  }
  // ARWKV-7's output norm: an RMS norm in place on the last layer's output,
  // its one reader (ggml-alloc reuses a lone parent for RMS_NORM, never for
  // a LayerNorm's NORM)
  const int result = arwkv ? g.same(g.same(mlp_block(true))) : layer_norm(channel_mix(true));
  g.at(result).output = true;
  const int logits = g.op(b * s.vocab, {result});
  g.at(logits).output = true;
  return g.take();
}

}  // namespace

std::vector<GraphTensor> llama_forward_graph(const LlamaGraphShape& s) {
  if (s.rwkv == 6) {
    return s.rwkv_token_shifts == 1 ? rwkv6qwen2_graph(s) : rwkv6_graph(s);
  }
  if (s.rwkv == 7) {
    return rwkv7_graph(s);
  }
  if (s.kimi_k3) {
    return kimi_k3_graph(s);
  }
  if (s.qwen4exp) {
    return qwen4exp_graph(s);
  }
  if (s.adapter_rank > 0) {
    return granite_switch_graph(s);
  }
  if (s.vocoder_features > 0) {
    return wavtokenizer_graph(s);
  }
  Builder g;
  g.reserve(static_cast<std::size_t>(std::max(s.layers, 1)) * 128 + 256);  // no regrowth copies
  const std::int64_t b = std::max<std::int64_t>(1, s.tokens);
  const std::int64_t e = s.hidden;
  const std::int64_t kvw_swa = std::int64_t{s.kv_heads} * s.head_dim;
  const bool windowed = s.swa_cells > 0;
  const auto is_swa = [&](int il) {
    if (windowed && !s.window_layers.empty()) {
      return il < std::ssize(s.window_layers) &&
             s.window_layers[static_cast<std::size_t>(il)] == 'S';
    }
    return windowed && (s.swa_every <= 1 ||
                        (s.swa_global_first ? il % s.swa_every != 0 : (il + 1) % s.swa_every != 0));
  };

  // Inputs, in the order the graph first reads them (leaf order): the
  // rotation matrices (build_input_k_rot: n x n, n the largest power of two
  // from 64 up dividing the head size; V: 64 x 64), token ids, positions, the cache rows to
  // write (K: one per token; V: one per value when V is transposed, without
  // flash attention), the KQ masks ([cells, tokens], F16 under flash
  // attention) and the rows to output.
  const bool windowed_global = windowed && (s.global_head_dim > 0 || s.global_kv_heads > 0);
  const int global_head = windowed_global && s.global_head_dim > 0 ? s.global_head_dim : s.head_dim;
  const int global_kv = windowed_global && s.global_kv_heads > 0 ? s.global_kv_heads : s.kv_heads;
  // A windowed model keeps two caches (llama_kv_cache_iswa), each with its
  // own cache rows to write, mask and rotations (build_attn_inp_kv_iswa);
  // the rotation's size follows its own layers' head width
  // (llama_kv_cache::build_input_k_rot, n_embd_head_k_all), the V rows to
  // write the widest layer's (build_input_v_idxs, n_embd_v_gqa_max). The
  // windowed cache's come first: layer 0 is windowed, and ggml places the
  // leafs in visit order (a GGML_SCHED_DEBUG=2 dump of gpt-oss-20b reads
  // leaf_11/leaf_13 in layer 0, leaf_35/leaf_37 in layer 1). Only the models
  // whose global layers have a shape of their own (Gemma 4) are built with
  // both sets so far: for the others they make Gemma 2's, Gemma 3's and
  // gpt-oss's 4096- and 32768-token rows without flash attention exact but
  // take gpt-oss's 512-token row from -4.4 % to -6.6 %, an error of that
  // graph's that they expose rather than cause (docs/live-llamacpp.md).
  // AFMoE's too: they take its rows without flash attention at 512 tokens
  // from -0.43 % to exact (docs/live-llamacpp.md, Trinity Mini run).
  const bool two_caches =
      windowed_global || (windowed && (s.swa_global_first || s.output_gate || s.parallel_block));
  // V heads of their own width (MiMo-V2-Flash), else the layer's K width.
  const std::int64_t v_head_swa = s.value_head_dim > 0 ? s.value_head_dim : s.head_dim;
  const std::int64_t v_head_global = s.value_head_dim > 0 ? s.value_head_dim : global_head;
  const std::int64_t v_rows =
      std::max(std::int64_t{s.kv_heads} * v_head_swa, std::int64_t{global_kv} * v_head_global);
  const auto k_rotation = [&](int head) { return g.input(k_rotation_bytes(head)); };
  const bool altup = s.altup > 1;
  const bool ple_gemma4 = s.ple_width > 0 && !altup;
  // Two caches: each cache's rotations are read where its first layer
  // rotates Q (leaf order, below), by every rotation of its layers, and
  // freed after the last (a GGML_SCHED_DEBUG=2 dump of Gemma-4-E2B). One
  // cache likewise: read by every rotation and freed after the last, as
  // ggml_gallocr_free_node frees every input; K's placed after the token
  // ids and the embeddings input, before the positions (ggml_mul_mat(rot,
  // x) visits the matrix before Q's RoPE), V's after the positions. A
  // trace_alloc trace of Qwen-1.8B (Q8_0 cache, 512 cells) puts
  // attn_inp_k_rot, inp_pos, attn_inp_v_rot at 4196352, 4261888 and
  // 4263936, right above the 4 MiB embeddings input; one of the reduced
  // MiniCPM3 (V rotated alone) has the last layer's FFN norm take the
  // block from the positions' offset up, all three freed by then
  // (docs/live-llamacpp.md, MiniCPM3 run). Placed first and kept to the
  // end, they had put the logits 82 KiB (18 KiB for MiniCPM3) higher.
  // (MiniMax-01's first attention layer comes after lightning layers: its
  // rotations follow the lightning inputs, below.)
  const bool la_first = s.minimax01 && !s.mixers.empty() && s.mixers[0] == 'R';
  int k_rot = -1;
  int v_rot = -1;
  const int tokens = g.input(4 * b);  // inp_tokens (I32)
  // inp_embd: build_inp_embd builds both the token path and an input of
  // ready embeddings, and ggml_build_forward_select keeps one; the other is
  // still a graph input, allocated and never read, so never freed.
  // Qwen3-VL's deepstack widens it to (1 + deepstack) hidden widths.
  const std::int64_t embd_width = s.hidden * (1 + std::max(0, s.deepstack));
  g.input(4 * b * embd_width);
  // MiniMax-01 (minimax-01.cpp): the state row to read (s_copy) and the
  // lightning-attention inputs (llm_graph_input_la) come next, in the order
  // its first lightning layer reads them: q_decay [heads, tokens],
  // diag_decay [tokens, tokens, heads], the slopes [heads], k_decay; then
  // the attention's (a trace of the real allocator's offsets:
  // docs/live-llamacpp.md, MiniMax-M1 run).
  int la_s_copy = -1;
  int la_q = -1;
  int la_diag = -1;
  int la_slopes = -1;
  int la_k = -1;
  if (s.minimax01 && s.mixers.find('R') != std::string::npos) {
    la_s_copy = g.input(4);
    la_q = g.input(4 * s.heads * b);
    la_diag = g.input(4 * s.heads * b * b);
    la_slopes = g.input(4 * s.heads);
    la_k = g.input(4 * s.heads * b);
  }
  if (la_first && s.rotate_k && !two_caches) {
    k_rot = k_rotation(global_head);
  }
  if (la_first && s.rotate_v && !two_caches) {
    v_rot = g.input(4 * 64 * 64);
  }
  // build_inp_per_layer's token ids (Gemma 3n, Gemma 4)
  const int ple_tokens = s.ple_width > 0 ? g.input(4 * b) : -1;
  if (s.rotate_k && !two_caches && !la_first) {
    k_rot = k_rotation(global_head);
  }
  // inp_pos (jina-bert-v2, Baichuan's 13B and the ALiBi decoders build
  // none; mamba.cpp none: no attention)
  const int pos = s.alibi || s.mixer_blocks ? -1 : g.input(4 * b);
  if (s.rotate_v && !two_caches && !la_first) {
    v_rot = g.input(4 * 64 * 64);
  }
  const std::int64_t mask_bytes = s.flash ? 2 : 4;
  // MLA caches K only (build_attn_inp_k): no V rows to write.
  int k_rot_swa = -1;
  int v_rot_swa = -1;
  // DeepSeek Sparse Attention (build_attn_inp_k_dsa): the indexer's cache
  // has inputs of its own, in the order its layers first read them: the
  // Hadamard rotation of its keys (always built for it, llama-kv-cache.cpp
  // attn_rot_k), its rows to write, then (below) its mask beside the MLA's.
  const bool dsa = s.mla_kv_lora > 0 && s.index_heads > 0;
  const std::int64_t idx_d = s.index_head_dim;
  int lid_rot = -1;
  int lid_idxs = -1;
  int lid_mask = -1;
  std::vector<int> zeros;
  if (dsa) {
    lid_rot = k_rotation(static_cast<int>(idx_d));
    lid_idxs = g.input(8 * b);
  }
  const auto cache_inputs = [&](bool swa, std::int64_t cells, int& k, int& v, int& mask) {
    if (s.mixer_blocks) {  // mamba.cpp: no attention input at all
      k = v = mask = -1;
      return;
    }
    if (two_caches) {
      (swa ? k_rot_swa : k_rot) = s.rotate_k ? k_rotation(swa ? s.head_dim : global_head) : -1;
      (swa ? v_rot_swa : v_rot) = s.rotate_v ? g.input(4 * 64 * 64) : -1;
    }
    // (no cache: no rows to write, the mask alone)
    k = s.no_cache ? -1 : g.input(8 * b);
    v = s.mla_kv_lora > 0 || s.no_cache ? -1 : g.input(s.flash ? 8 * b : 8 * b * v_rows);
    if (dsa) {
      // The top-k mask's zero source of each layer ([top_k, tokens] F32): a
      // leaf of the graph, not an input, but ggml_gallocr allocates every
      // leaf before the first node, in visit order (layer 0's before the
      // indexer's mask, F16 for the fused lightning indexer, the others
      // after the MLA's mask).
      // dots.llm3: only its full layers (the indexer's) have one.
      const std::int64_t top = std::min(cells, std::max<std::int64_t>(1, s.index_top_k));
      zeros.assign(static_cast<std::size_t>(std::max(s.layers, 1)), -1);
      const auto indexed = [&](int il) { return !s.dots3 || !is_swa(il); };
      int il = 0;
      while (il < s.layers && !indexed(il)) {
        ++il;
      }
      if (il < s.layers) {
        zeros[static_cast<std::size_t>(il)] = g.input(4 * top * b);
      }
      lid_mask = g.input(2 * cells * b);
      mask = g.input(mask_bytes * cells * b);
      for (++il; il < s.layers; ++il) {
        if (indexed(il)) {
          zeros[static_cast<std::size_t>(il)] = g.input(4 * top * b);
        }
      }
      return;
    }
    mask = g.input(mask_bytes * cells * b);
  };
  int k_idxs = -1;
  int v_idxs = -1;
  int mask_full = -1;
  int k_idxs_swa = -1;
  int v_idxs_swa = -1;
  int mask_swa = -1;
  // Step-3.5 and Cohere2 MoE: layer 0 is global and reads the full cache's
  // inputs first (a GGML_SCHED_DEBUG=2 dump of the reduced North Mini Code:
  // leaf_10/leaf_12 in layers 0 and 4, leaf_25/leaf_27 in the others).
  if (two_caches && (s.swa_global_first || (s.parallel_block && !is_swa(0)))) {
    cache_inputs(false, s.cells, k_idxs, v_idxs, mask_full);
    cache_inputs(true, s.swa_cells, k_idxs_swa, v_idxs_swa, mask_swa);
  } else if (two_caches) {
    cache_inputs(true, s.swa_cells, k_idxs_swa, v_idxs_swa, mask_swa);
    cache_inputs(false, s.cells, k_idxs, v_idxs, mask_full);
  } else {  // one set of rows to write, the windowed mask after the full one
    cache_inputs(false, s.cells, k_idxs, v_idxs, mask_full);
    k_idxs_swa = k_idxs;
    v_idxs_swa = v_idxs;
    // dots.llm3's windowed cache (build_attn_inp_k_dsa_iswa): rows of its own to write.
    if (s.dots3 && windowed) {
      k_idxs_swa = g.input(8 * b);
    }
    mask_swa = windowed ? g.input(mask_bytes * s.swa_cells * b) : -1;
  }
  // MiniMax sparse attention (build_attn_inp_kv_msa, flash attention only):
  // the indexer cache's rows to write, and the selection's inputs: the
  // local-block bias [blocks, tokens], the position mask [positions,
  // tokens], the position -> cell map [positions] and the cell -> block map
  // [cells] (I32), one stream.
  const bool msa = s.msa_index_heads > 0 && s.flash;
  const std::int64_t msa_pos = std::max<std::int64_t>(1, s.msa_positions);
  const std::int64_t msa_blocks = msa_pos / std::max<std::int64_t>(1, s.msa_block);
  int msa_idx_rows = -1;
  int msa_bias = -1;
  int msa_pos_mask = -1;
  int msa_pos_slot = -1;
  int msa_cell_blk = -1;
  if (msa) {
    msa_idx_rows = g.input(8 * b);
    msa_bias = g.input(4 * msa_blocks * b);
    msa_pos_mask = g.input(4 * msa_pos * b);
    msa_pos_slot = g.input(4 * msa_pos);
    msa_cell_blk = g.input(4 * s.cells);
  }
  int msa_mask_f32 = -1;  // the KQ mask cast to F32, read by every sparse layer
  // mamba.cpp builds the state's input (build_rs_inp) before the rows to
  // output; the others after.
  const int early_s_copy = s.mixer_blocks ? g.input(4) : -1;
  // cogvlm.cpp builds no inp_out_ids: no rows to output are picked.
  const int out_ids = s.no_out_ids ? -1 : g.input(4 * b);
  const bool mamba_beside = s.mamba_beside && s.ssm_inner > 0;
  const bool recurrent = s.mixers.find('R') != std::string::npos || mamba_beside;
  // the state row of the one sequence (MiniMax-01's placed above)
  const int s_copy = s.mixer_blocks ? early_s_copy
                     : recurrent    ? (la_s_copy >= 0 ? la_s_copy : g.input(4))
                                    : -1;
  // chameleon.cpp's row for the image tokens' logits: a leaf, and
  // ggml_gallocr_alloc_graph_impl places every leaf before the first node,
  // in leaf order, so it sits after the inputs and lives until the clamp
  // at the end reads it: the KQ mask's block below it cannot join the free
  // space above once the mask is freed (the live flash-attention rows grow
  // by the mask's size with the context).
  const int image_row = s.masked_image_logits ? g.input(4 * kChameleonImageTokens) : -1;

  // Multi-head latent attention, absorbed (deepseek2.cpp, is_mla): Q of
  // heads x (nope + rope) values, its nope part multiplied into the latent
  // (k_b) and joined with the roped part; one compressed K row of kv_lora +
  // rope values per token (the cache holds only K, V is a view of it); the
  // attention output per head decompressed by v_b. Node order follows
  // build_attn's expansion: Q, then V (the normed latent), then K.
  //
  // DeepSeek Sparse Attention adds, in the node order of a GGML_SCHED_DEBUG=2
  // dump of DeepSeek-V3.2 (deepseek32.cpp; glm-dsa.cpp the same): the
  // indexer's key (projected, layer-normed with a bias, roped, rotated,
  // written to its cache) before anything else of the layer; the compressed
  // queries qr, read by q_b and later by the indexer's queries; then after
  // K (and, without flash attention, V copied and the scores) the top-k
  // mask: a zero source [top_k, tokens] (a leaf placed with the inputs,
  // filled in place),
  // the indexer's queries (q_b of qr, roped, rotated), its per-head weights
  // (scaled) and the fused ggml_lightning_indexer's score [cells, tokens]
  // (the CPU backend runs it), its top-k indices made contiguous, the mask
  // copied filled with -inf, the top-k cells set to zero in it (a view of
  // the copy) and the original mask added. The layer's input norm lives
  // until the indexer's weights read it. A layer sharing the previous
  // indexer (GLM-5.2) reads that layer's top-k, which lives until then.
  int prev_top_k = -1;
  // glm-dsa.cpp GLM_5_2_DEFAULT_INDEXER_TYPES: layers 0, 1, then one in four.
  const auto own_indexer = [&](int il) {
    return !s.shared_indexers || il < 2 || (il - 2) % 4 == 0;
  };
  const auto top_k_mask = [&](int qr, int attn_norm, std::int64_t cells, int mask, int il) {
    const std::int64_t top = std::min(cells, std::max<std::int64_t>(1, s.index_top_k));
    const int zero = g.same(zeros[static_cast<std::size_t>(il)]);  // ggml_fill in place
    if (own_indexer(il) || prev_top_k < 0) {
      const std::int64_t hd = s.index_heads * idx_d;
      // RoPE of a reshape and the scale of a view: new tensors (a view is
      // never the allocator's own, so no op runs in place over one)
      int iq = g.op(b * hd, {qr});            // indexer attn_q_b
      iq = g.op(b * hd, {g.view(iq), pos});   // RoPE
      iq = g.op(b * hd, {iq, lid_rot});       // Hadamard
      const int iw = g.op(b * s.index_heads,  // indexer proj, a view of it scaled
                          {g.view(g.op(b * s.index_heads, {attn_norm}))});
      const int score = g.op(cells * b, {g.view(iq), iw, lid_mask});
      prev_top_k = g.op(top * b, {g.op(top * b, {score})});  // top-k (I32), cont
    }
    const std::int64_t mb = mask_bytes * cells * b;
    const int filled = g.bytes_op(mb, {mask});  // ggml_fill of a copy: the mask has other readers
    // ggml_set_rows writes through a view of the copy; the add reads a view
    // of that (a view is never the allocator's own: no add in place).
    const int set = g.view_reading(g.view(filled), {zero, g.view(prev_top_k)});
    // It may run in place on the mask itself, an input like any tensor to
    // ggml-alloc: where this add is the mask's last reader (the last layer),
    // it takes the mask's block.
    const int added = g.bytes_op(mb, {g.view(set), mask});
    g.at(added).inplace = {mask};
    return added;
  };
  // dots.llm3 (dots3note.cpp): a windowed layer's own MLA shape, no
  // indexer; the full layers as DeepSeek-V3.2's.
  const auto mla_swa = [&](int il) { return s.dots3 && is_swa(il); };
  const auto mla_heads = [&](int il) -> std::int64_t {
    return mla_swa(il) ? s.mla_swa_heads : s.heads;
  };
  const auto mla_v = [&](int il) -> std::int64_t { return mla_swa(il) ? s.mla_swa_v : s.mla_v; };
  const auto mla_attention = [&](int attn_norm, std::int64_t cells, int mask, int il) {
    const bool swa = mla_swa(il);
    const bool indexed = dsa && !swa;
    const std::int64_t h = mla_heads(il);
    const std::int64_t lora = swa ? s.mla_swa_kv_lora : s.mla_kv_lora;
    const std::int64_t nope = swa ? s.mla_swa_nope : s.mla_nope;
    const std::int64_t v_head = mla_v(il);
    const std::int64_t rope = s.mla_rope;
    const std::int64_t kw = lora + rope;
    int qr = -1;
    if (indexed && own_indexer(il)) {
      int ik = g.op(b * idx_d, {attn_norm});       // indexer attn_k
      ik = g.same(g.same(g.op(b * idx_d, {ik})));  // layer norm, weight, bias
      ik = g.op(b * idx_d, {g.view(ik), pos});     // RoPE of a reshape
      ik = g.op(b * idx_d, {ik, lid_rot});         // Hadamard
      g.external({g.view(ik), lid_idxs});          // into the indexer's cache
    }
    // Compressed queries: DeepSeek Sparse Attention's, and Ling 3's
    // (bailingmoe3.cpp wq_a, its norm, wq_b); others' are left out (above).
    if (dsa || (s.ling3 && s.q_lora > 0)) {
      qr = g.same(g.same(g.op(b * s.q_lora, {attn_norm})));  // q_a, RMS norm, weight
    }
    const int q = g.op(b * h * (nope + rope), {qr >= 0 ? qr : attn_norm});
    const int q_abs = g.view(g.op(b * h * lora, {g.view(g.view(q))}));  // wk_b x q_nope
    // RoPE of a view; Kimi Linear's MLA has none (the view is read as is)
    const int q_pe = s.rope ? g.op(b * h * rope, {g.view(q), pos}) : g.view(q);
    const int q_cur = g.op(b * h * kw, {q_abs, q_pe});           // concat
    const int kv_pe = g.op(b * kw, {attn_norm});                 // wkv_a_mqa
    const int latent = g.same(g.op(b * lora, {g.view(kv_pe)}));  // RMS norm, weight
    const int v_cur = g.view(latent);
    int k_pe = -1;
    if (s.dots3) {
      // attn_k_norm: the RMS norm of a view (a new tensor), its weight and
      // RoPE in place
      const int normed = g.same(g.op(b * rope, {g.view(kv_pe)}));
      k_pe = g.same(normed, {pos});
    } else {
      k_pe = s.rope ? g.op(b * rope, {g.view(kv_pe), pos}) : g.view(kv_pe);
    }
    const int k_cur = g.op(b * kw, {v_cur, k_pe});  // concat
    g.external({k_cur, swa ? k_idxs_swa : k_idxs});
    const int qp = g.view(q_cur);
    if (s.flash) {
      const int attn_mask = indexed ? top_k_mask(qr, attn_norm, cells, mask, il) : mask;
      const int out = g.op(b * h * lora, {qp, attn_mask});
      const int dec = g.op(b * h * v_head, {g.view(out)});  // v_b
      return g.view(g.op(b * h * v_head, {g.view(dec)}));   // ggml_cont, reshaped
    }
    // V is the cache's K rows, not transposed: ggml_cont(ggml_transpose(v))
    // copies them, in the cache's type, visited before the scores: kqv =
    // ggml_mul_mat(v, kq) reads it as src0, and ggml_visit_parents_graph
    // goes left to right (ggml.c). Where the copy took a hole the scores
    // had left, the replay was one copy short (Ling-3.0-tiny at 32768
    // tokens, docs/live-llamacpp.md, fourteenth run).
    const int v_t = g.bytes_op(
        static_cast<std::int64_t>(static_cast<double>(cells * lora) * s.k_value_bytes), {});
    int kq = g.op(b * cells * h, {qp});
    kq = g.same(kq, {indexed ? top_k_mask(qr, attn_norm, cells, mask, il) : mask});  // softmax
    const int kqv = g.op(b * h * lora, {v_t, kq});
    const int dec = g.op(b * h * v_head, {kqv});  // v_b
    return g.op(b * h * v_head, {g.view(dec)});   // ggml_cont_2d of the permuted heads
  };

  // MiniMax sparse attention on a layer (minimax-m3.cpp, batch path; the
  // node order of a GGML_SCHED_DEBUG=2 dump of a MiniMax-M3 file): the
  // indexer key projected, normed (of a reshape: a new tensor), roped and
  // written to its cache; Q, K and V as build_qkv gives them (K before V),
  // rotated for a quantised cache, written; the cached indexer keys read
  // through the position map; the indexer queries projected, normed and
  // roped; the scores [positions, heads, tokens] (+ position mask in place),
  // max-pooled per block, + local bias, top-k; the chosen blocks set to 0
  // in a -inf block mask (F16: the bias scaled, cast, repeated; the indices
  // cast and zeroed), made contiguous twice; its rows gathered per cell
  // (get_rows of an F16 table gives F32: [tokens x heads, cells]), made
  // contiguous transposed, the KQ mask (cast to F32 where first read, kept
  // for every sparse layer) added in place, cast to F16 [cells, tokens,
  // heads]; one flash attention over all groups, its output made
  // contiguous.
  const auto msa_attention = [&](int attn_norm, std::int64_t qw, std::int64_t kvw, int mask,
                                 const auto& project, const auto& rotate, int k_rot_l,
                                 int v_rot_l) {
    const std::int64_t hd = s.msa_index_heads;
    const std::int64_t di = s.msa_index_dim;
    const std::int64_t top = std::min<std::int64_t>(std::max(1, s.msa_top_k), msa_blocks);
    const std::int64_t grid = msa_blocks * hd * b;  // [blocks, heads, tokens]
    int ik = g.op(b * di, {attn_norm});
    ik = g.same(g.same(g.op(b * di, {g.view(ik)})));  // norm of the reshape, weight, RoPE
    g.external({g.view(ik), msa_idx_rows});
    int q = project(qw, true);
    int k = project(kvw, true);
    int v = project(kvw, false);
    if (s.rotate_k) {
      q = rotate(q, qw, k_rot_l);
      k = rotate(k, kvw, k_rot_l);
    }
    if (s.rotate_v) {
      v = rotate(v, kvw, v_rot_l);
    }
    g.external({g.view(k), k_idxs});
    g.external({g.view(v), v_idxs});
    const int keys = g.op(di * msa_pos, {msa_pos_slot});  // get_rows of the cached keys
    int iq = g.op(b * hd * di, {attn_norm});
    iq = g.same(g.same(g.op(b * hd * di, {g.view(iq)})));  // norm of the reshape, weight, RoPE
    const int scores = g.op(msa_pos * hd * b, {keys, g.view(iq)});
    const int masked = g.view_reading(g.view(scores), {msa_pos_mask});  // + position mask
    const int pooled = g.op(grid, {masked});
    const int biased = g.op(grid, {pooled, msa_bias}, {pooled});
    const int chosen = g.op(top * hd * b, {biased});        // top-k (I32)
    const int zero = g.same(g.op(top * hd * b, {chosen}));  // cast to F32, scaled by 0
    const int ninf = g.bytes_op(2 * msa_blocks * b, {g.op(msa_blocks * b, {msa_bias})});
    const int repeated = g.bytes_op(2 * grid, {ninf});
    const int block_mask = g.view_reading(repeated, {zero, chosen});  // set_rows into it
    const int permuted = g.bytes_op(2 * grid, {g.view(block_mask)});
    const int table = g.bytes_op(2 * grid, {g.view(permuted)});  // [tokens x heads, blocks]
    const int per_cell = g.op(b * hd * s.cells, {table, msa_cell_blk});
    const int cell_mask = g.op(b * hd * s.cells, {g.view(per_cell)});  // cont of the transpose
    if (msa_mask_f32 < 0) {
      msa_mask_f32 = g.op(s.cells * b, {mask});
    }
    const int summed = g.view_reading(cell_mask, {g.view(msa_mask_f32)});  // + KQ mask
    const int mask16 = g.bytes_op(2 * b * hd * s.cells, {summed});
    const int out = g.op(b * qw, {g.view(q), mask16});
    const int cur = g.op(b * qw, {g.view(out)});  // ggml_cont of the permuted groups
    return s.rotate_v ? rotate(cur, qw, v_rot_l) : cur;
  };

  // A Mamba layer's convolution state (build_rs: get_rows of its row) is
  // expanded into the graph when the layer is built, before the part of the
  // layer below that only the layer's own input reaches: after the previous
  // layer's cache or state writes, before its output projection and MLP;
  // after its routed experts where it has them (build_moe_ffn expands its
  // sum), before a shared expert and the residual; for the first layer
  // before the token embeddings (Nemotron-H expands those first). A dense
  // MLP block of Nemotron-H expands nothing of its own, so the state of the
  // mixer after it is read before it.
  const auto kind_at = [&](int il) {
    return static_cast<std::size_t>(il) < s.mixers.size() ? s.mixers[static_cast<std::size_t>(il)]
                                                          : 'A';
  };
  // Routed experts on this layer: every moe_step-th one after the dense
  // ones; in Nemotron-H's blocks only the MLP blocks.
  const auto moe_at = [&](int il) {
    return s.experts > 0 && il >= s.dense_layers && (il + 1) % std::max(1, s.moe_step) == 0 &&
           (!s.single_block || kind_at(il) == 'F');
  };
  const auto mamba_at = [&](int il) {
    return s.mamba > 0 && recurrent && il < s.layers && kind_at(il) == 'R';
  };
  // PLaMo 2 (plamo2.cpp): its own mixer (below), post-norms, the rows to
  // output picked after the last MLP.
  const bool plamo2 = s.mamba == 3;
  const std::int64_t mamba_conv_dim =
      s.mamba == 2 ? s.ssm_inner + 2 * s.ssm_groups * s.ssm_state : s.ssm_inner;
  int conv_state_next = -1;
  const auto read_conv_state = [&](int il) {
    while (s.single_block && il < s.layers && kind_at(il) == 'F' && !moe_at(il)) {
      ++il;
    }
    if (mamba_at(il)) {
      conv_state_next = g.op((s.ssm_conv - 1) * mamba_conv_dim, {s_copy});
    }
  };
  if (!s.single_block) {
    read_conv_state(0);
  }
  // minimax-01.cpp expands each lightning layer's state rows (build_rs)
  // when it builds them: layer 0's before anything reads the embeddings,
  // a later layer's before the previous layer's last add (below).
  const std::int64_t la_state = std::int64_t{s.heads} * s.head_dim * s.head_dim;
  int next_la_state = s.minimax01 && kind_at(0) == 'R' ? g.op(la_state, {s_copy}) : -1;
  int x = g.op(b * e, {tokens});  // token embeddings (get_rows of the embedding table)
  // talkie.cpp: the embeddings RMS-normed (in place), then kept as the skip
  // every layer reads, so alive to the last layer.
  if (s.embedding_skip) {
    x = g.same(x);
  }
  const int embd_skip = s.embedding_skip ? x : -1;
  // Qwen3-TTS (qwen3vl.cpp's codec_head case): the final expand visits the
  // logits' concat, whose first source is the -inf block they are padded
  // with (ggml_scale_bias of one value of a view of output_norm,
  // ggml_repeat_4d to vocab - head_rows by the outputs), before anything of
  // the last layer that build_attn has not expanded: from the attention
  // output's rotation back or wo onwards. So it is alive through the last
  // layer's MLP and the head.
  const bool head_pad_first = s.head_rows > 0 && s.vocab > s.head_rows;
  int head_pad = -1;
  const auto make_head_pad = [&] { return g.op(b * (s.vocab - s.head_rows), {g.op(1, {})}); };
  // LayerNorm (ggml_norm: a new tensor; its weight and bias in place).
  // OLMo-1's has neither: the ggml_norm alone.
  const auto layer_norm = [&](int t) {
    const int n = g.op(b * e, {t});
    return s.weightless_norms ? n : g.same(g.same(n));
  };
  if (s.position_rows) {
    // gpt2.cpp, starcoder.cpp: + the position rows (get_rows of pos_embd),
    // in place on the token embeddings (ggml_add(inpL, pos)).
    const int rows = g.op(b * e, {pos});
    x = g.op(b * e, {x, rows}, {x, rows});
  }
  if (s.post_norm) {
    // bert.cpp: + the type row (in place); BERT's absolute positions
    // (get_rows of pos_embd, the sum in place on them); then the LayerNorm.
    x = g.same(x);
    if (!s.rope && !s.alibi) {
      const int rows = g.op(b * e, {pos});
      x = g.op(b * e, {rows, x}, {rows, x});
    }
    x = layer_norm(x);
  }
  if (s.modern_bert || s.embedding_norm) {
    x = layer_norm(x);  // modern-bert.cpp, bloom.cpp: the embeddings' LayerNorm (tok_norm)
  }
  // Deepstack (llama-graph.cpp build_inp_embd): the rows padded to the input
  // width (ggml_pad), of which the layers read views: the first hidden
  // width as their input, the (il + 1)-th added to layer il's output.
  int deepstack_rows = -1;
  if (s.deepstack > 0) {
    deepstack_rows = g.op(b * embd_width, {x});
    x = g.view(deepstack_rows);
  }
  if (s.single_block) {
    read_conv_state(0);
  }
  // Per-layer inputs (Gemma 3n, Gemma 4): their rows read from the table
  // ([ple x layers, tokens], scaled); Gemma 4 expands them right after the
  // token embeddings and scales a reshape of them: a view, so a new tensor
  // (ggml-alloc takes over only a parent it placed itself, never a view).
  const std::int64_t n_alt = std::max(1, s.altup);
  const std::int64_t ple_all = s.ple_width * s.layers;
  const auto per_layer_rows = [&] { return g.same(g.op(b * ple_all, {ple_tokens})); };
  int ple_rows = ple_gemma4 ? g.op(b * ple_all, {g.view(g.op(b * ple_all, {ple_tokens}))}) : -1;
  // Gemma 3n: the AltUp streams stacked. Gemma 4 projects the scaled
  // embeddings (x, the first layer's input) to the per-layer inputs.
  int inp_scaled = ple_gemma4 ? x : -1;
  int inp_per_layer = -1;
  // The per-layer input of layer `il` applied to `gated` ([ple, tokens], the
  // layer's output gated and activated): project_per_layer_inputs built where
  // first read (the scaled embeddings projected to ple x layers, normed,
  // added to the rows read, made contiguous after a permute; it lives to the
  // last layer), this layer's slice multiplied in, projected back and normed.
  const auto per_layer_input = [&](int gated) {
    if (inp_per_layer < 0) {
      int proj = g.same(g.op(b * ple_all, {inp_scaled}));  // per_layer_model_proj, scaled
      // the norm of the reshape (Gemma 4: a new tensor), weight
      proj = ple_gemma4 ? g.same(g.op(b * ple_all, {g.view(proj)})) : g.same(g.same(proj));
      proj = g.same(g.op(b * ple_all, {proj, ple_rows}, {proj, ple_rows}));  // + rows, scaled
      inp_per_layer = g.op(b * ple_all, {g.view(proj)});  // ggml_cont of the permute
    }
    gated = g.op(b * s.ple_width, {gated, g.view(inp_per_layer)}, {gated});
    return g.same(g.same(g.op(b * e, {gated})));  // per_layer_proj, post norm, weight
  };
  if (altup) {
    ple_rows = per_layer_rows();
    inp_scaled = g.same(x);
    const int rep = g.op(b * e * (n_alt - 1), {inp_scaled});          // ggml_repeat_4d
    const int proj = g.op(b * e * (n_alt - 1), {rep});                // altup_proj
    const int target = g.same(g.op(b, {g.op(b * e, {inp_scaled})}));  // |x|: sqr, sum_rows, sqrt
    const int scaled = g.op(b * e * (n_alt - 1), {proj, target}, {proj});
    const int norm_p = g.same(g.op(b * (n_alt - 1), {g.same(proj)}));
    const int added = g.op(b * e * (n_alt - 1), {scaled, norm_p}, {scaled});  // ggml_div
    x = g.op(b * e * n_alt, {inp_scaled, added});  // ggml_concat: [e, tokens, n]
  }
  const auto altup_predict = [&](int streams) {
    const int permuted = g.op(b * e * n_alt, {g.view(streams)});        // ggml_cont of the permute
    const int router = g.same(g.same(g.op(b * e, {g.view(streams)})));  // norm, weight, scale
    const int modal = g.same(g.op(b * n_alt, {router}));                // router, tanh
    const int coefs = g.op(b * n_alt * n_alt, {modal});
    const int mixed = g.op(b * e * n_alt, {permuted, g.view(coefs)});
    const int back = g.op(b * e * n_alt, {g.view(mixed)});  // ggml_cont of the permute back
    return g.op(b * e * n_alt, {back, streams}, {back, streams});
  };
  // The residual adds run in place on their first source that may be
  // overwritten: the layer's output in llama.cpp and kin, the residual
  // stream in Jamba (jamba.cpp: ggml_add(inpL, cur), ggml_add(ffn_inp, cur)).
  const auto residual = [&](int stream, int out) {
    return s.residual_first ? g.op(b * e, {stream, out}, {stream, out})
                            : g.op(b * e, {out, stream}, {out, stream});
  };
  // build_moe_ffn's routing, which it expands before the experts
  // (ggml_build_forward_expand(gf, weights)): the router's logits of
  // `router_in` (their rows to output picked first where `rows_picked`:
  // smallthinker.cpp's last layer), the probabilities in place, the experts
  // chosen (argsort) and their weights picked, normalised where the model
  // does.
  struct Routing {
    int selected = -1;
    int weights = -1;
    int logits = -1;
  };
  const auto route = [&](int router_in, bool rows_picked) {
    const std::int64_t k_used = std::max(1, s.experts_used);
    int logits = g.op(b * s.experts, {router_in});
    if (rows_picked) {
      logits = g.op(b * s.experts, {logits, out_ids});
    }
    const int probs = g.same(logits);
    // probs + exp_probs_b, a new tensor: probs are read again for the weights
    const int biased = s.expert_bias ? g.op(b * s.experts, {probs}) : probs;
    // Llama 4 selects by the raw logits (build_moe_ffn: selection_probs =
    // logits), GroveMoE by their sigmoid (ggml_sigmoid, in place where
    // nothing reads the logits after it)
    const int chooser = s.group_experts > 0    ? g.same(logits)
                        : s.weights_before_ffn ? logits
                                               : biased;
    const int sorted = g.op(b * s.experts, {chooser});  // argsort
    const int selected = g.view(sorted);
    int weights = g.op(b * k_used, {g.view(probs), selected});
    if (s.moe_norm_weights) {  // the chosen weights normalised to sum 1
      const int flat = g.view(weights);
      const int sum = g.same(g.op(b, {flat}));  // sum_rows, clamp
      weights = g.view(g.op(b * k_used, {flat, sum}, {flat}));
    }
    return Routing{selected, weights, logits};
  };
  // GroveMoE's second routing (grovemoe.cpp: build_moe_ffn with the first
  // pass's logits as probs_in, expanded right after the first's): softmax
  // and sigmoid of the logits again, the top `k` of all the experts, their
  // index cast to F32, divided by the group size (in place) and cast back;
  // the weights picked from the new softmax by it and normalised.
  const auto route_groups = [&](int logits, std::int64_t k) {
    const int probs = g.same(logits);
    const int sorted = g.op(b * s.experts, {g.same(logits)});
    const int as_f32 = g.op(b * k, {g.view(sorted)});
    const int selected = g.op(b * k, {g.same(as_f32)});  // cast back to I32
    const int flat = g.view(g.op(b * k, {g.view(probs), selected}));
    const int sum = g.same(g.op(b, {flat}));
    const int weights = g.view(g.op(b * k, {flat, sum}, {flat}));
    return Routing{selected, weights, logits};
  };
  // The routing of a layer whose router reads the layer's input (below).
  Routing routed_early;
  // A layer's MLP over its normed input (build_ffn, build_moe_ffn): routed
  // experts (and a shared one, or Gemma 4's dense MLP beside them), Gemma
  // 3n's, a gated one or a plain one. `ffn_inp` is the un-normed input
  // (Gemma 4's experts and router norm it themselves).
  const auto mlp = [&](int ffn_inp, int ffn_norm, int il, bool moe_layer) {
    // Gemma 4 E2B's last layers: twice as wide (use_double_wide_mlp);
    // Nemotron NAS: each layer its own.
    const std::int64_t ffn = il < std::ssize(s.per_layer)
                                 ? s.per_layer[static_cast<std::size_t>(il)].ffn
                             : il >= s.layers - s.wide_ffn_layers ? 2 * s.ffn
                                                                  : s.ffn;
    if (moe_layer) {
      const std::int64_t k_used = std::max(1, s.experts_used);
      const std::int64_t fe = std::max<std::int64_t>(1, s.expert_ffn);
      // Gemma 4: the dense MLP first (its post-norm in place), then the
      // experts' own norm of the layer input and the router's (RMS norm,
      // scale, weight), whose logits build_moe_ffn takes as probs_in.
      int dense = -1;
      int moe_in = ffn_norm;
      int router_in = ffn_norm;
      if (s.moe_beside_mlp) {
        const int gate_d = g.op(b * s.ffn, {ffn_norm});
        const int up_d = g.op(b * s.ffn, {ffn_norm});
        dense = g.same(g.op(b * e, {g.op(b * s.ffn, {gate_d, up_d})}));
        moe_in = g.same(g.op(b * e, {ffn_inp}));
        router_in = g.same(g.same(g.op(b * e, {ffn_inp})));
      }
      const Routing routing = routed_early.selected >= 0 ? std::exchange(routed_early, Routing{})
                                                         : route(router_in, false);
      const int selected = routing.selected;
      const int weights = routing.weights;
      const std::int64_t grove_k =
          s.group_experts > 0 ? std::min<std::int64_t>(k_used, s.experts / s.group_experts) : 0;
      const Routing grove = grove_k > 0 ? route_groups(routing.logits, grove_k) : Routing{};
      int in3 = g.view(moe_in);
      if (s.weights_before_ffn) {
        // Llama 4 weighs the input, repeated per expert, before the experts
        // (build_moe_ffn weight_before_ffn: ggml_repeat_4d, then ggml_mul).
        in3 = g.same(g.op(b * k_used * e, {in3}), {weights});
      }
      int act = 0;
      if (s.moe_beside_mlp) {  // gate and up fused (ffn_gate_up_exps), split by views
        const int gate_up = g.op(b * k_used * 2 * fe, {in3, selected});
        act = g.op(b * k_used * fe, {g.view(gate_up), g.view(gate_up)});
      } else {
        const int up = g.op(b * k_used * fe, {in3, selected});
        // gated: the gate and SwiGLU of the two (not in place); else the
        // activation of up in place (Nemotron-H: ReLU, squared)
        act = s.gated ? g.op(b * k_used * fe, {g.op(b * k_used * fe, {in3, selected}), up})
                      : g.same(up);
      }
      int experts = g.op(b * k_used * e, {act, selected});
      if (s.moe_beside_mlp) {
        // build_lora_mm_id's per-expert scale (ffn_down_exps.scale): repeated
        // to every token, the chosen experts' rows picked, multiplied in.
        const int repeated = g.op(b * s.experts, {});
        experts = g.same(experts, {g.op(b * k_used, {repeated, selected})});
      }
      if (!s.weights_before_ffn) {
        experts = g.same(experts, {weights});
      }
      int out = g.view(experts);
      if (k_used > 1) {
        out = g.op(b * e, {out, g.view(experts)}, {out});
        for (std::int64_t i = 2; i < k_used; ++i) {
          out = g.same(out, {g.view(experts)});
        }
      } else {
        out = g.op(b * e, {out});  // one expert: ggml_cont of its view
      }
      read_conv_state(il + 1);
      if (grove_k > 0) {
        // GroveMoE's adjugate experts over the routed experts' output
        // (reshaped: a view), as the first pass builds its experts; their
        // sum scaled in place (expert_group_scale) and added to the first's.
        const std::int64_t fc = std::max<std::int64_t>(1, s.group_expert_ffn);
        const int in2 = g.view(out);
        const int up2 = g.op(b * grove_k * fc, {in2, grove.selected});
        const int act2 =
            g.op(b * grove_k * fc, {g.op(b * grove_k * fc, {in2, grove.selected}), up2});
        const int down2 = g.same(g.op(b * grove_k * e, {act2, grove.selected}), {grove.weights});
        int out2 = g.view(down2);
        if (grove_k > 1) {
          out2 = g.op(b * e, {out2, g.view(down2)}, {out2});
          for (std::int64_t i = 2; i < grove_k; ++i) {
            out2 = g.same(out2, {g.view(down2)});
          }
        } else {
          out2 = g.op(b * e, {out2});
        }
        out2 = g.same(out2);
        out = g.op(b * e, {out, out2}, {out, out2});
      }
      if (s.moe_beside_mlp) {  // post-norm of the experts' sum, plus the dense MLP
        out = g.same(out);
        out = g.op(b * e, {dense, out}, {dense, out});
      } else if (s.shared_ffn > 0) {  // build_ffn of the shared expert, added to the routed sum
        int act_s = 0;
        if (s.gated) {
          const int gate_s = g.op(b * s.shared_ffn, {ffn_norm});
          const int up_s = g.op(b * s.shared_ffn, {ffn_norm});
          act_s = g.op(b * s.shared_ffn, {gate_s, up_s});
        } else {
          act_s = g.same(g.op(b * s.shared_ffn, {ffn_norm}));
        }
        int down_s = g.op(b * e, {act_s});
        if (s.shared_gate) {  // sigmoid(x w_gate) [1, tokens] scales the shared expert
          down_s = g.same(down_s, {g.same(g.op(b, {ffn_norm}))});
        }
        out = g.op(b * e, {out, down_s}, {out, down_s});
      }
      return out;
    }
    if (altup) {  // up first, then the gate (Gaussian top-k in the first layers), GELU
      const int up = g.op(b * s.ffn, {ffn_norm});
      int gate = g.op(b * s.ffn, {ffn_norm});
      if (il < s.sparse_layers) {
        const int mean = g.op(b, {gate});
        const int dev = g.same(g.op(b * s.ffn, {gate, mean}, {gate}));  // x - mean, squared
        const int sd = g.same(g.same(g.same(g.op(b, {dev}))));  // sum_rows, scale, sqrt, scale
        const int cutoff = g.op(b, {mean, sd}, {mean, sd});
        gate = g.same(g.op(b * s.ffn, {gate, cutoff}, {gate}));  // x - cutoff, ReLU
      }
      gate = g.same(gate);  // GELU
      return g.op(b * e, {g.op(b * s.ffn, {up, gate}, {up, gate})});
    }
    // one ffn_up of gate and up together (2 x ffn), then the gated
    // activation of its halves, a new tensor: jina-bert-v2's GEGLU, ChatGLM's
    // ggml_swiglu
    if ((s.alibi && s.post_norm) || (s.gated && s.fused_gate_up)) {
      return g.op(b * e, {g.op(b * ffn, {g.op(b * 2 * ffn, {ffn_norm})})});
    }
    if (s.gated) {
      const int gate = g.op(b * ffn, {ffn_norm});
      const int up = g.op(b * ffn, {ffn_norm});
      int act = g.op(b * ffn, {gate, up});
      if (s.sub_norms) {  // bitnet.cpp's ffn_sub_norm: RMS norm, weight
        act = g.same(g.same(act));
      }
      return g.op(b * e, {act});
    }
    if (s.gpt2_block) {  // up + bias, GELU, down + bias, each after the first in place
      return g.same(g.op(b * e, {g.same(g.same(g.op(b * ffn, {ffn_norm})))}));
    }
    // up, then its activation in place (GELU; Nemotron-H's ReLU and its square)
    return g.op(b * e, {g.same(g.op(b * ffn, {ffn_norm}))});
  };
  for (int il = 0; il < s.layers; ++il) {
    const bool last = il == s.layers - 1;
    // openelm.cpp's last layer: the residual's rows are picked before the
    // output projection runs (add(residual, attention) visits them first).
    const bool late_wo =
        s.fused_qkv_norm && last && !s.late_out_ids && !plamo2 && !s.sandwich_norms;
    // Nemotron NAS: this layer's own shape.
    const LlamaGraphShape::Layer* shaped =
        il < std::ssize(s.per_layer) ? &s.per_layer[static_cast<std::size_t>(il)] : nullptr;
    if (shaped != nullptr && shaped->heads <= 0) {
      // deci.cpp: no attention, no norm; the MLP (if any) reads the stream,
      // its rows picked on the last layer, and its output is added to it.
      if (shaped->ffn <= 0) {
        continue;
      }
      const int ffn_inp = last ? g.op(b * e, {x, out_ids}) : x;
      const int ffn_norm = g.same(g.same(ffn_inp));
      x = residual(ffn_inp, mlp(ffn_inp, ffn_norm, il, false));
      continue;
    }
    // Gemma 4's global layers: heads of their own width, their own KV heads.
    const bool global = windowed && !is_swa(il);
    // Step-3.5's global layers: query heads of their own.
    const std::int64_t heads_l = shaped != nullptr              ? shaped->heads
                                 : global && s.global_heads > 0 ? s.global_heads
                                                                : s.heads;
    const std::int64_t qw = heads_l * (global ? global_head : s.head_dim);
    const std::int64_t kvw = shaped != nullptr ? std::int64_t{shaped->kv_heads} * s.head_dim
                             : global          ? std::int64_t{global_kv} * global_head
                                               : kvw_swa;
    // V and the attention output at the V head width (MiMo-V2-Flash).
    const std::int64_t vw = shaped != nullptr ? kvw
                            : global          ? std::int64_t{global_kv} * v_head_global
                                              : std::int64_t{s.kv_heads} * v_head_swa;
    const std::int64_t ow = heads_l * (global ? v_head_global : v_head_swa);
    const bool k_as_v = global && s.global_k_eq_v;
    const std::int64_t cells = is_swa(il) ? s.swa_cells : s.cells;
    const int mask = is_swa(il) ? mask_swa : mask_full;
    const bool moe_layer = moe_at(il);
    // cohere2moe.cpp ropes a layer when it is windowed or in the dense lead.
    const bool rope_l = s.rope && !(s.nope_global && global && il >= s.dense_layers);
    int predictions = -1;
    int active = -1;
    int norm = 0;
    if (altup) {
      predictions = altup_predict(x);
      active = g.view(predictions);
      norm = g.op(b * e, {active});  // RMS norm of the active stream (a view)
    } else if (s.gpt2_block || s.falcon_parallel || s.phi2_parallel) {
      norm = g.op(b * e, {x});  // LayerNorm: ggml_norm is never in place; then x weight
    } else if (s.modern_bert) {
      norm = il == 0 ? x : layer_norm(x);  // layer 0: no attn_norm
    } else if (!s.post_norm && !s.swin_norm) {
      norm = g.same(x);
    }
    // (modern-bert: the LayerNorm's weight already applied, in place;
    // chameleon.cpp's Swin-style layer reads the stream itself)
    int attn_norm = s.modern_bert ? norm : s.post_norm || s.swin_norm ? x : g.same(norm);
    if (s.gpt2_block || s.falcon_parallel || s.phi2_parallel) {
      attn_norm = g.same(attn_norm);  // + bias
    }
    if (s.single_block && kind_at(il) == 'F') {  // Nemotron-H's MLP block, then its residual
      x = residual(x, mlp(x, attn_norm, il, moe_layer));
      continue;
    }
    // Gemma 3n's shared-KV layers project Q alone and read an earlier cache.
    const bool own_kv = s.kv_layers <= 0 || il < s.kv_layers;
    // Q, then V, then K (build_attn expands them in that order).
    const auto project = [&](std::int64_t width, bool rope) {
      int t = g.view(g.op(b * width, {attn_norm}));  // reshaped to heads
      if (rope) {
        t = g.op(b * width, {t, pos}, {t});
      }
      return t;
    };
    // Step-3.5's Q and K (step35.cpp): the projection's per-head RMS norm
    // reads it through the reshape, so it is a new tensor (ggml-alloc never
    // runs an op in place on a view: a view is never its own allocation);
    // the weight and RoPE follow in place.
    const auto project_normed = [&](std::int64_t width) {
      const int proj = g.op(b * width, {attn_norm});
      const int normed = g.same(g.op(b * width, {proj}));  // RMS norm, weight
      return g.same(normed, {pos});                        // RoPE
    };
    // Two caches: this layer's cache's rotation matrices are read.
    const int k_rot_l = is_swa(il) ? k_rot_swa : k_rot;
    const int v_rot_l = is_swa(il) ? v_rot_swa : v_rot;
    const auto rotate = [&](int t, std::int64_t width, int matrix) {
      const int flat = g.view(t);
      const int r = matrix >= 0 ? g.op(b * width, {flat, matrix}) : g.op(b * width, {flat});
      return g.view(r);
    };
    // Attention without a cache (build_attn with llm_graph_input_attn_no_cache,
    // build_attn_mha): over the micro-batch, reading the layer's own K and V,
    // nothing written; under flash attention K and V (F32) cast to F16 for
    // the kernel, else V^T made contiguous (visited first), the scores of
    // K x Q softmaxed, and the heads of their product made contiguous.
    const auto attend_uncached = [&](int qp, int k, int v, int mask_l) {
      if (s.flash) {
        const int k16 = g.bytes_op(2 * b * kvw, {k});
        const int v16 = g.bytes_op(2 * b * vw, {v});
        return g.view(g.op(b * ow, {qp, k16, v16, mask_l}));
      }
      const int vt = g.op(b * vw, {v});
      const int kq = g.same(g.op(b * cells * heads_l, {qp, g.view(k)}), {mask_l});
      return g.op(b * ow, {g.view(g.op(b * ow, {vt, kq}))});
    };
    int cur = 0;
    int parallel_sum = -1;  // Cohere2 MoE: the MLP's output plus the layer input
    const bool mixer = recurrent && kind_at(il) == 'R';
    if (mixer && s.minimax01) {
      // MiniMax-01's lightning attention (minimax-01.cpp), in the order of
      // its expansions: the state rows (expanded earlier); then the new
      // output qkv: attn_qkv and its SiLU in place; Q x q_decay (exp of the
      // scaled input, in place; a new tensor, Q being a strided view);
      // kv_old (the state's reshape) x that; V^T made contiguous; K^T Q
      // [tokens, tokens, heads] x diag_decay (exp of the scaled input) in
      // place; V^T x that; the two added in place. Then the new state: the
      // slopes scaled twice and exp'd, kv_old x them (a new tensor: a trace
      // of the real allocator shows nothing taken over through a reshape
      // here); K x k_decay made contiguous, times V^T; added in place and
      // written back. Then the output: attn_gate and its sigmoid, qkv made
      // contiguous and RMS-normed through a reshape (a new tensor), the
      // weight, gate x norm in place.
      // The scales of the inputs run in place on them at their last reader.
      const std::int64_t inner = std::int64_t{s.heads} * s.head_dim;
      const std::int64_t h = s.heads;
      const int state =
          next_la_state >= 0 ? std::exchange(next_la_state, -1) : g.op(la_state, {s_copy});
      const int qkv_p = g.same(g.op(b * 3 * inner, {attn_norm}));
      const int q_decay = g.same(g.op(h * b, {la_q}, {la_q}));
      const int q_s = g.op(b * inner, {qkv_p, q_decay});
      const int none_diag = g.op(b * inner, {state, q_s});
      const int v_t = g.op(b * inner, {qkv_p});
      const int qk = g.op(b * b * h, {qkv_p, qkv_p});
      const int diag = g.same(g.op(b * b * h, {la_diag}, {la_diag}));
      const int qk_s = g.op(b * b * h, {qk, diag}, {qk, diag});
      const int diag_out = g.op(b * inner, {v_t, qk_s});
      const int qkv = g.op(b * inner, {none_diag, diag_out}, {none_diag, diag_out});
      const int block_decay = g.same(g.same(g.op(h, {la_slopes}, {la_slopes})));
      const int kv_old_s = g.op(la_state, {state, block_decay});
      const int k_decay = g.same(g.op(h * b, {la_k}, {la_k}));
      const int k_t = g.op(b * inner, {g.op(b * inner, {qkv_p, k_decay})});
      const int kv_cur = g.op(la_state, {k_t, v_t});
      g.external({g.op(la_state, {kv_old_s, kv_cur}, {kv_old_s, kv_cur})});
      const int gate = g.same(g.op(b * inner, {attn_norm}));
      const int normed = g.same(g.op(b * inner, {g.op(b * inner, {qkv})}));
      cur = g.op(b * inner, {gate, normed}, {gate, normed});
    } else if (mixer && s.kda) {
      // Kimi Delta Attention (kimi-linear.cpp; the node order of a
      // GGML_SCHED_DEBUG=2 dump of Kimi-Linear-48B-A3B): the three
      // convolution states read in one row (build_rs of n_embd_r); q, k and
      // v each projected, joined behind their kept inputs (ggml_concat) and
      // the last ones written back, which expands those nodes first; the
      // delta state read (build_rs expands it); then, as the fused delta net
      // (ggml_gated_delta_net: output and new state in one tensor) visits
      // its sources: each convolution with its SiLU (in place), q and k
      // L2-normed (new tensors); the decay gate f_b(f_a(x)) + dt bias,
      // softplus, x A (in place); beta and its sigmoid. The state is
      // written back; then the output made contiguous, its RMS norm (taking
      // over the contiguous copy, read through a reshape only), the output
      // gate g_b(g_a(x)) and its sigmoid, their product, made contiguous
      // for the output projection.
      const std::int64_t heads = s.dn_v_heads;
      const std::int64_t d = s.dn_head;
      const std::int64_t inner = heads * d;
      const std::int64_t kept = s.dn_conv - 1;
      const int states = g.op(3 * kept * inner, {s_copy});
      std::vector<int> joined;
      for (int i = 0; i < 3; ++i) {  // q, k, v
        const int proj = g.op(b * inner, {attn_norm});
        joined.push_back(g.op((kept + b) * inner, {g.view(states), g.view(g.view(proj))}));
        g.external({g.view(joined.back())});
      }
      const int state = g.view(g.op(heads * d * d, {s_copy}));
      // Ling 3 (bailingmoe3.cpp) takes the SiLU of a reshape: a new tensor.
      const auto convolved = [&](int in) {
        const int conv = g.op(b * inner, {in});
        return s.ling3 ? g.op(b * inner, {g.view(conv)}) : g.same(conv);
      };
      const int q = g.op(b * inner, {g.view(convolved(joined[0]))});  // L2 norm
      const int k = g.op(b * inner, {g.view(convolved(joined[1]))});
      const int v = convolved(joined[2]);
      // Ling 3: f_a x + dt bias (in place), x A of a reshape (a new tensor),
      // sigmoid and the lower bound's scale in place; beta the sigmoid of a
      // reshape. Kimi: f_b(f_a(x)) + dt bias, softplus, x A, all in place.
      const int decay =
          s.ling3 ? g.same(g.same(g.op(b * inner, {g.view(g.same(g.op(b * inner, {attn_norm})))})))
                  : g.same(g.same(g.same(g.op(b * inner, {g.op(b * d, {attn_norm})}))));
      const int beta = s.ling3 ? g.op(b * heads, {g.view(g.op(b * heads, {attn_norm}))})
                               : g.same(g.op(b * heads, {attn_norm}));
      const int kda = g.op(b * inner + heads * d * d,
                           {g.view(q), g.view(k), g.view(v), g.view(decay), g.view(beta), state});
      g.external({g.view(kda)});  // the new state written back
      if (s.ling3) {
        // the output made contiguous; its RMS norm of a reshape (new), the
        // weight in place; g_a(x) and the sigmoid of its reshape (new); the
        // product in place, made contiguous for the output projection
        const int out = g.op(b * inner, {g.view(kda)});
        const int normed = g.same(g.op(b * inner, {g.view(out)}));
        const int gate = g.op(b * inner, {g.view(g.op(b * inner, {attn_norm}))});
        cur = g.op(b * inner, {g.op(b * inner, {normed, gate}, {normed, gate})});
      } else {
        const int normed = g.same(g.same(g.op(b * inner, {g.view(kda)})));  // cont, norm, weight
        const int gate =
            g.same(g.op(b * inner, {g.op(b * d, {attn_norm})}));  // g_b(g_a(x)), sigmoid
        cur =
            g.op(b * inner, {g.op(b * inner, {normed, gate}, {normed, gate})});  // x gate, cont_2d
      }
    } else if (mixer && s.dn_v_heads > 0) {
      const std::int64_t kh = s.dn_k_heads;
      const std::int64_t vh = s.dn_v_heads;
      const std::int64_t d = s.dn_head;
      const std::int64_t conv_dim = (2 * kh + vh) * d;
      const int qkv = g.op(b * conv_dim, {attn_norm});              // attn_qkv
      const int z = g.op(b * vh * d, {attn_norm});                  // attn_gate
      const int ba = g.op(b * 2 * vh, {attn_norm});                 // ssm_ba
      const int beta = g.same(g.op(b * vh, {g.view(g.view(ba))}));  // cont, sigmoid
      int gate = g.op(b * vh, {g.view(g.view(ba))});                // cont_3d
      gate = g.same(g.same(g.same(gate)));                          // + dt bias, softplus, x A
      const int conv_state = g.op((s.dn_conv - 1) * conv_dim, {s_copy});  // build_rs
      const int conv_in =
          g.op((s.dn_conv - 1 + b) * conv_dim, {g.view(conv_state), g.view(g.view(qkv))});
      g.external({g.view(conv_in)});  // the last inputs written back to the state
      const int state = g.view(g.op(vh * d * d, {s_copy}));    // build_rs of the delta state
      const int conv = g.same(g.op(b * conv_dim, {conv_in}));  // ssm_conv, SiLU
      const int q = g.op(b * kh * d, {g.view(conv)});          // L2 norm
      const int k = g.op(b * kh * d, {g.view(conv)});
      const int q_rep = g.view(g.op(b * vh * d, {g.view(q)}));  // repeat to the value heads
      const int k_rep = g.view(g.op(b * vh * d, {g.view(k)}));
      const int gdn = g.op(b * vh * d + vh * d * d,
                           {q_rep, k_rep, g.view(conv), g.view(gate), g.view(beta), state});
      g.external({g.view(gdn)});                                   // the new state written back
      const int normed = g.same(g.op(b * vh * d, {g.view(gdn)}));  // RMS norm, weight
      const int silu = g.op(b * vh * d, {g.view(z)});
      cur = g.view(g.op(b * vh * d, {normed, silu}, {normed}));
    } else if (mixer && plamo2) {
      // PLaMo 2's mixer (plamo2.cpp build_plamo2_mamba_layer), in ggml's
      // visit order: the convolution state read when the layer is built
      // (read_conv_state); ssm_in [2 d, tokens], permuted and made
      // contiguous (z and x interleaved per head), x made contiguous, joined
      // behind the kept inputs (ggml_concat) and the last ones written back.
      // Then, as the scan visits its sources: the convolution (no bias) and
      // SiLU; ssm_x [dt_dim + 2 state]; dt, B and C each RMS-normed from a
      // view of it (new tensors), times their weights; dt projected to one
      // step a head (+ bias); the scan (one tensor of the output and the new
      // state, written back). Then SwiGLU(cont(z), y + x D), x D of a view of
      // the convolution's output (a new tensor), and ssm_out below.
      const std::int64_t d = s.ssm_inner;
      const std::int64_t n = s.ssm_state;
      const std::int64_t dt_dim = std::max<std::int64_t>(64, e / 16);
      const int conv_state = conv_state_next;
      const int proj = g.op(b * 2 * d, {attn_norm});   // ssm_in
      const int zx = g.op(b * 2 * d, {g.view(proj)});  // ggml_cont_4d of the permute
      const int xc = g.op(b * d, {g.view(zx)});        // ggml_cont_3d of x
      const int conv_in = g.op((s.ssm_conv - 1 + b) * d, {g.view(conv_state), g.view(xc)});
      g.external({g.view(conv_in)});
      const int conv = g.same(g.op(b * d, {conv_in}));      // ssm_conv, SiLU
      const int bcdt = g.op(b * (dt_dim + 2 * n), {conv});  // ssm_x
      const int dt_n = g.same(g.op(b * dt_dim, {g.view(bcdt)}));
      const int dt = g.same(g.op(b * s.ssm_heads, {dt_n}));  // ssm_dt, + bias
      const int bc_b = g.same(g.op(b * n, {g.view(bcdt)}));
      const int bc_c = g.same(g.op(b * n, {g.view(bcdt)}));
      const int y_ssm = g.op(b * d + n * d, {g.view(conv), dt, bc_b, bc_c, s_copy});
      g.external({g.view(y_ssm)});  // the new state written back
      read_conv_state(il + 1);
      const int z = g.op(b * d, {g.view(zx)});
      const int xd = g.op(b * d, {g.view(conv)});
      const int y = g.op(b * d, {y_ssm, xd}, {y_ssm, xd});
      cur = g.op(b * d, {z, y});
    } else if (mixer && s.mamba > 0) {
      // Mamba (mamba-base.cpp build_mamba_layer, build_mamba2_layer): the
      // convolution state read (build_rs: get_rows) and joined in front of
      // the transposed x (Mamba-2: x, B and C), its last inputs written
      // back; the convolution, its bias and SiLU; the scan (ggml_ssm_scan
      // reads the state in place: one tensor of the output and the new
      // state, written back); y + x D; SiLU(z) x y (ggml_swiglu_split of z
      // made contiguous); ssm_out below.
      const std::int64_t d = s.ssm_inner;
      const std::int64_t n = s.ssm_state;
      const bool v2 = s.mamba == 2;
      const std::int64_t conv_dim = v2 ? d + 2 * s.ssm_groups * n : d;
      const int conv_state = conv_state_next;
      const int proj = g.op(b * (v2 ? 2 * d + 2 * s.ssm_groups * n + s.ssm_heads : 2 * d),
                            {attn_norm});  // ssm_in: zxBCdt (Mamba-2), xz (Mamba-1)
      const int conv_in =
          g.op((s.ssm_conv - 1 + b) * conv_dim, {g.view(conv_state), g.view(g.view(proj))});
      g.external({g.view(conv_in)});
      const int conv = g.same(g.same(g.op(b * conv_dim, {conv_in})));  // ssm_conv, + bias, SiLU
      int dt = 0;
      int bc_b = 0;
      int bc_c = 0;
      int xs = conv;  // the scan's x
      if (v2) {
        dt = g.same(g.op(b * s.ssm_heads, {g.view(proj)}));  // cont, + dt bias
        bc_b = g.view(conv);
        bc_c = g.view(conv);
        xs = g.view(conv);
      } else if (s.ssm_plain_dt) {
        // dt projected from its view (ssm_dt, + bias in place); B and C
        // views the scan reads
        const int x_db = g.op(b * (s.ssm_heads + 2 * n), {conv});  // ssm_x
        dt = g.same(g.op(b * d, {g.view(x_db)}));
        bc_b = g.view(x_db);
        bc_c = g.view(x_db);
      } else {
        const int x_db = g.op(b * (s.ssm_heads + 2 * n), {conv});  // ssm_x
        // dt, B and C RMS-normed (views in, new tensors out), times weights;
        // the scan reads dt (projected by ssm_dt, + bias) before B and C
        const int dt_n = g.same(g.op(b * s.ssm_heads, {g.view(x_db)}));
        dt = g.same(g.op(b * d, {dt_n}));
        bc_b = g.same(g.op(b * n, {g.view(x_db)}));
        bc_c = g.same(g.op(b * n, {g.view(x_db)}));
      }
      const int y_ssm = g.op(b * d + n * d, {g.view(conv), dt, bc_b, bc_c, s_copy});
      g.external({g.view(y_ssm)});  // the new state written back
      if (!moe_layer) {
        read_conv_state(il + 1);
      }
      // ggml_swiglu_split(ggml_cont(z), y + x D): the graph visits z first.
      // x D runs in place on Mamba-1's x (Mamba-2's x is a strided view of
      // x, B and C: a new tensor). y is a view at offset 0 of the scan's
      // tensor, whose only other reader (the state written back) has run,
      // so in Jamba's and Granite's graphs the add takes the scan's block
      // (ggml_gallocr_allocate_node reuses such a view's source), and frees
      // its state tail: their live rows are exact so. In mamba.cpp's graph
      // the add runs in place on x D instead (tests/live/trace_alloc.c on
      // the live Falcon Mamba file: the sum at x D's offset), which makes
      // mamba-130m, Falcon Mamba and Mamba-Codestral exact; why the same
      // build_mamba_layer places it differently there is not known.
      const int z = g.op(b * d, {g.view(proj)});
      const int xd = g.op(b * d, {xs}, {xs});
      const int y =
          s.mixer_blocks ? g.op(b * d, {y_ssm, xd}, {xd}) : g.op(b * d, {y_ssm, xd}, {y_ssm, xd});
      cur = g.op(b * d, {z, y});
      if (v2) {
        cur = g.same(g.op(b * d, {g.view(cur)}));  // grouped RMS norm (of a reshape), weight
      }
    } else if (mixer) {
      // LFM2's gated short convolution: in_proj to B, C, x; B x; the kept
      // inputs read from the state and joined in front (the last ones are
      // written back); the depthwise convolution; C x conv; out_proj below.
      const int bcx = g.op(b * 3 * e, {attn_norm});
      const int bx = g.op(b * e, {g.view(bcx), g.view(bcx)});
      const int state = g.op(s.conv_cache * e, {s_copy});  // get_rows of the state
      const int joined = g.op((s.conv_cache + b) * e, {g.view(state), g.view(bx)});
      g.external({g.view(joined)});
      const int conv = g.op(b * e, {joined});  // ssm_conv
      cur = g.op(b * e, {g.view(bcx), conv}, {conv});
    } else if (shaped != nullptr && shaped->kv_heads <= 0) {
      cur = attn_norm;  // deci.cpp's linear replacement: wo alone, below
    } else if (s.post_norm || s.modern_bert) {
      // bert.cpp's attention, without a cache (modern-bert.cpp's likewise,
      // Q, K and V from its fused attn_qkv): Q, K and V expanded in that
      // order. nomic-bert (the BERT block with RoPE) projects them together
      // (attn_qkv): Q and K roped from views of it (new tensors), V a view;
      // BERT projects each on its own.
      int q = 0;
      int k = 0;
      int v = 0;
      if (s.rope) {
        const int qkv = g.op(b * (qw + 2 * kvw), {attn_norm});
        q = g.op(b * qw, {g.view(qkv), pos});
        k = g.op(b * kvw, {g.view(qkv), pos});
        v = g.view(qkv);
      } else {
        q = project(qw, false);
        k = project(kvw, false);
        v = project(vw, false);
      }
      cur = attend_uncached(g.view(q), k, v, mask);
    } else if (s.gpt2_block && !s.fused_qkv) {
      // gpt2.cpp, starcoder.cpp: wqkv, + its bias in place; Q, K and V
      // strided views of it (build_qkv), no RoPE. A quantised cache rotates
      // each: llama_mul_mat_hadamard makes the strided view contiguous
      // (ggml_cont_2d) before the product. build_attn expands Q, V, K.
      const int qkv = g.same(g.op(b * (qw + 2 * kvw), {attn_norm}));
      const auto rotated = [&](std::int64_t width, int matrix) {
        const int flat = g.op(b * width, {g.view(qkv)});
        return g.view(matrix >= 0 ? g.op(b * width, {flat, matrix}) : g.op(b * width, {flat}));
      };
      const int q = s.rotate_k ? rotated(qw, k_rot_l) : g.view(qkv);
      const int v = s.rotate_v ? rotated(kvw, v_rot_l) : g.view(qkv);
      const int k = s.rotate_k ? rotated(kvw, k_rot_l) : g.view(qkv);
      g.external({g.view(k), k_idxs});
      // Without flash attention V is stored transposed (llama-kv-cache.cpp
      // cpy_v): the strided view is made contiguous first (ggml_cont_2d);
      // a rotated V is contiguous already.
      const int v_rows_l = !s.flash && !s.rotate_v ? g.op(b * kvw, {v}) : v;
      g.external({g.view(v_rows_l), v_idxs});
      const int qp = g.view(q);
      if (s.flash) {
        cur = g.op(b * ow, {qp, mask});
        cur = s.rotate_v ? rotate(cur, ow, v_rot_l) : g.view(cur);
      } else {
        const int kq = g.same(g.op(b * cells * heads_l, {qp}), {mask});  // scores, softmax
        const int kqv = g.op(b * ow, {kq});
        cur = g.op(b * ow, {g.view(kqv)});  // ggml_cont of the permuted heads
      }
    } else if (s.fused_qkv_norm || s.fused_qkv || s.fused_qkv_clamp) {
      // openelm.cpp: wqkv; Q and K normed (RMS norm of a view: a new
      // tensor; x weight in place), then each roped in place; V a view.
      // chatglm.cpp (build_qkv's fused path): wqkv, its bias added in place,
      // Q and K roped from views (new tensors), V a view.
      // dbrx.cpp (build_qkv): wqkv clamped in place (GGML_OP_CLAMP is one
      // ggml-alloc runs in place), then as chatglm's.
      int qkv = g.op(b * (qw + 2 * kvw), {attn_norm});
      if (s.qkv_bias) {
        qkv = g.same(qkv);
      }
      if (s.fused_qkv_clamp) {
        qkv = g.same(qkv);
      }
      // build_attn expands Q's nodes, then V's, then K's.
      const auto normed_roped = [&](std::int64_t width) {
        if (!s.fused_qkv_norm) {
          return g.op(b * width, {g.view(qkv), pos});
        }
        const int n = g.same(g.op(b * width, {g.view(qkv)}));
        return g.op(b * width, {n, pos}, {n});
      };
      // A quantised cache rotates Q and K (and V), as build_attn does for
      // every model (the generic path below).
      int q = normed_roped(qw);
      if (s.rotate_k) {
        q = rotate(q, qw, k_rot_l);
      }
      // V is a strided view of the projection: llama_mul_mat_hadamard
      // (llama-impl.h) makes a view that is not contiguous a new tensor
      // (ggml_cont_2d) before it multiplies.
      int v = g.view(qkv);
      if (s.rotate_v) {
        v = rotate(g.op(b * kvw, {v}), kvw, v_rot_l);
      }
      int k = normed_roped(kvw);
      if (s.rotate_k) {
        k = rotate(k, kvw, k_rot_l);
      }
      g.external({g.view(k), k_idxs});
      // Without flash attention V is stored transposed (llama-kv-cache.cpp
      // cpy_v): this strided view of the projection is made contiguous (the
      // rotation above has made it so already), and
      // a layer narrower than the widest padded to its rows
      // (TAG_V_CACHE_VARIABLE: ggml_pad).
      int v_rows_l = v;
      if (!s.flash) {
        if (!s.rotate_v) {
          v_rows_l = g.op(b * kvw, {v});
        }
        if (kvw < v_rows) {
          v_rows_l = g.op(b * v_rows, {v_rows_l});
        }
      }
      g.external({g.view(v_rows_l), v_idxs});
      if (plamo2) {  // the next layer's convolution state, as the generic path reads it
        read_conv_state(il + 1);
      }
      const int qp = g.view(q);
      if (s.flash) {
        cur = g.view(g.op(b * qw, {qp, mask}));
        // The output rotated back is build_attn's, visited with the output
        // projection: on the last layer after the residual's rows (below).
        // GPT-NeoX's after its MLP, Arctic's after its experts (below)
        if (s.rotate_v && !late_wo && !s.parallel_block && !(s.arctic && moe_layer)) {
          cur = rotate(cur, qw, v_rot_l);
        }
      } else {
        const int kq = g.same(g.op(b * cells * heads_l, {qp}), {mask});  // scores, softmax
        const int kqv = g.op(b * qw, {kq});
        cur = g.op(b * qw, {g.view(kqv)});  // ggml_cont of the permuted heads
      }
    } else if (s.mla_kv_lora > 0) {
      cur = mla_attention(attn_norm, cells, mask, il);
      if (s.dots3) {
        // dots3note.cpp's head-wise gate before wo: attn_gate of the layer's
        // normed input and its sigmoid (in place), multiplied into the
        // output through reshapes (a new tensor), read by wo through one.
        const std::int64_t hv = mla_heads(il) * mla_v(il);
        const int gate = g.same(g.op(b * mla_heads(il), {attn_norm}));
        cur = g.view(g.op(b * hv, {g.view(cur), g.view(gate)}));
      }
      if (s.ling3) {
        // bailingmoe3.cpp's head-wise gate: the sigmoid of a reshape of
        // attn_gate(x) [heads, tokens], times the output read through a
        // reshape (new tensors both), made contiguous (cont_2d)
        const std::int64_t hv = std::int64_t{s.heads} * s.mla_v;
        const int gate = g.op(b * s.heads, {g.view(g.op(b * s.heads, {attn_norm}))});
        cur = g.op(b * hv, {g.op(b * hv, {g.view(cur), g.view(gate)})});
      }
    } else if (msa && il >= s.msa_from) {
      cur = msa_attention(attn_norm, qw, kvw, mask, project, rotate, k_rot_l, v_rot_l);
    } else {
      // Qwen3-Next: Q and its gate in one projection; the normed Q (and K)
      // are new tensors, since the norm reads a view.
      int q_gate = -1;
      int q = 0;
      if (s.gated_attention) {
        const int q_full = g.op(b * 2 * qw, {attn_norm});
        q_gate = g.view(q_full);
        const int q_norm = g.op(b * qw, {g.view(q_full)});
        q = g.op(b * qw, {q_norm, pos}, {q_norm});  // RoPE
      } else if (s.mla_per_head_lora > 0) {
        // MiniCPM3 (minicpm3.cpp): q_a, its RMS norm and weight (in place),
        // q_b, and RoPE of its reshape (a new tensor). PLM (plm.cpp): one
        // wq from the normed input instead of the three.
        const int q_in =
            s.mla_q_lora > 0 ? g.same(g.same(g.op(b * s.mla_q_lora, {attn_norm}))) : attn_norm;
        q = g.op(b * qw, {g.view(g.op(b * qw, {q_in})), pos});
      } else if (s.head_gate || s.qk_norm) {
        q = project_normed(qw);
      } else {
        q = project(qw, rope_l);
      }
      if (s.phi2_parallel) {
        q = g.same(q);  // phi2.cpp scales the roped Q (a new tensor: in place)
      }
      if (s.rotate_k) {
        q = rotate(q, qw, k_rot_l);
      }
      int k_own = -1;  // without a cache: the layer's K and V, read by the attention
      int v_own = -1;
      if (own_kv) {
        // K used as V (Gemma 4's global layers): one projection, read by
        // the K norm and by V's RMS norm (new tensors: K has two readers).
        const int k_raw = k_as_v ? g.op(b * kvw, {attn_norm}) : -1;
        // MiniCPM3: V made first (build_attn expands V before K), from the
        // latent and its rope part (kv_a_mqa) and kv_b's heads x (nope + v).
        int kv_pe = -1;
        int kv = -1;
        const auto make_v_per_head = [&] {
          const std::int64_t lora = s.mla_per_head_lora;
          kv_pe = g.op(b * (lora + s.mla_rope), {attn_norm});
          const int latent = g.same(g.op(b * lora, {g.view(kv_pe)}));  // RMS norm of a view, weight
          kv = g.op(b * s.heads * (s.mla_nope + s.mla_v), {latent});   // kv_b
          return g.op(b * vw, {g.view(kv)});                           // ggml_cont of V's view
        };
        // K: the rope part roped (of a view: a new tensor), repeated to every
        // head and joined behind K's nope part (ggml_concat).
        const auto make_k_per_head = [&] {
          const int k_pe = g.op(b * s.mla_rope, {g.view(kv_pe), pos});
          const int repeated = g.op(b * s.heads * s.mla_rope, {k_pe});
          return g.op(b * kvw, {g.view(kv), repeated});
        };
        const auto make_v = [&] {
          if (s.mla_per_head_lora > 0) {
            const int v = make_v_per_head();
            return s.rotate_v ? rotate(v, vw, v_rot_l) : v;
          }
          // Gemma 4's V of its own is RMS-normed too (a view: a new tensor).
          int v = k_as_v                  ? g.op(b * kvw, {g.view(k_raw)})
                  : s.global_head_dim > 0 ? g.op(b * kvw, {project(kvw, false)})
                                          : project(vw, false);
          return s.rotate_v ? rotate(v, vw, v_rot_l) : v;
        };
        const auto make_k = [&] {
          int k = 0;
          if (s.mla_per_head_lora > 0) {
            k = make_k_per_head();
          } else if (k_as_v) {
            k = g.op(b * kvw, {g.view(k_raw)});  // K norm
            k = g.op(b * kvw, {k, pos}, {k});    // RoPE
          } else if (s.gated_attention) {
            const int k_norm = g.op(b * kvw, {g.view(g.op(b * kvw, {attn_norm}))});
            k = g.op(b * kvw, {k_norm, pos}, {k_norm});  // RoPE
          } else {
            k = s.head_gate || s.qk_norm ? project_normed(kvw) : project(kvw, rope_l);
          }
          return s.rotate_k ? rotate(k, kvw, k_rot_l) : k;
        };
        // The two caches' build_attn (llm_graph_input_attn_kv_iswa) expands
        // K before V; the one cache's V before K.
        // Without a cache (build_attn with llm_graph_input_attn_no_cache):
        // Q, K, V in that order, nothing written, K and V read by the
        // attention itself (below).
        int k = 0;
        int v = 0;
        if (two_caches || s.no_cache) {
          k = make_k();
          v = make_v();
        } else {
          v = make_v();
          k = make_k();
        }
        if (s.no_cache) {
          k_own = k;
          v_own = v;
        } else {
          g.external({g.view(k), windowed && !global ? k_idxs_swa : k_idxs});
          g.external({g.view(v), windowed && !global ? v_idxs_swa : v_idxs});
        }
      }
      if (!moe_layer) {
        read_conv_state(il + 1);
      }
      const int qp = g.view(q);
      // Step-3.5's head-wise gate (step35.cpp): sigmoid(attn_gate x norm),
      // [heads, tokens], multiplied into the attention output through
      // reshapes: a new tensor, as ggml-alloc never runs an op in place on
      // a view of its source.
      const auto gated = [&](int out) {
        const int gate = g.same(g.op(b * heads_l, {attn_norm}));  // attn_gate, sigmoid
        return g.view(g.op(b * qw, {out, g.view(gate)}));
      };
      if (k_own >= 0) {
        cur = attend_uncached(qp, k_own, v_own, mask);
      } else if (s.flash) {
        int out = g.op(b * ow, {qp, mask});
        // Falcon-H1 rotates the output back after its mixer's scan, Cohere2
        // MoE after its MLP.
        if (s.rotate_v && !mamba_beside && !s.parallel_block) {
          // Qwen3-TTS: build_attn_mha expanded the attention's output, not
          // its rotation back, which the head's -inf block precedes.
          if (last && head_pad_first) {
            head_pad = make_head_pad();
          }
          const int flat = g.view(out);
          out = v_rot_l >= 0 ? g.op(b * ow, {flat, v_rot_l}) : g.op(b * ow, {flat});
        }
        cur = s.head_gate ? gated(out) : g.view(out);
      } else {
        const int kq = g.same(g.op(b * cells * heads_l, {qp}), {mask});  // scores, softmax
        const int kqv = g.op(b * ow, {kq});
        cur = g.op(b * ow, {g.view(kqv)});  // ggml_cont of the permuted heads
        if (s.head_gate) {
          cur = gated(cur);
        }
      }
      if (s.output_gate) {
        // AFMoE: the gate projection of the normed input and its sigmoid,
        // made when the product reads them (after the attention); the product
        // runs in place on its first own source: the attention output, or,
        // when that is a view (the flash-attention output, reshaped), the
        // sigmoid (ggml-alloc.c ggml_gallocr_allocate_node skips a parent it
        // did not allocate, and a view is never allocated; a trace_alloc
        // trace of the reduced Trinity Mini puts attn_gated at
        // attn_gate_sig's offset).
        const int gate = g.same(g.op(b * ow, {attn_norm}));
        cur = g.op(b * ow, {cur, gate}, {cur, gate});
      }
      if (q_gate >= 0) {  // cont_2d of the gate, sigmoid, times the attention output
        const int gate = g.same(g.op(b * qw, {q_gate}));
        cur = g.op(b * qw, {cur, gate}, {cur});
      }
    }
    // Falcon-H1's Mamba-2 mixer up to its scan, built before the attention's
    // output projection.
    int m2_proj = -1;
    int m2_x = -1;
    int m2_scan = -1;
    if (mamba_beside) {
      const std::int64_t inner = s.ssm_inner;
      const std::int64_t bc = 2 * std::int64_t{s.ssm_groups} * s.ssm_state;
      const std::int64_t conv_dim = inner + bc;
      const int conv_state = g.op((s.ssm_conv - 1) * conv_dim, {s_copy});  // build_rs
      const int m2_norm = g.same(g.same(x));  // the layer input normed again
      m2_proj = g.op(b * (2 * inner + bc + s.ssm_heads), {m2_norm});  // ssm_in
      const int conv_in =
          g.op((s.ssm_conv - 1 + b) * conv_dim, {g.view(conv_state), g.view(g.view(m2_proj))});
      g.external({g.view(conv_in)});  // the last inputs written back to the state
      const int xbc = g.same(g.same(g.op(b * conv_dim, {conv_in})));    // ssm_conv, bias, SiLU
      const int dt = g.same(g.op(b * s.ssm_heads, {g.view(m2_proj)}));  // cont, + dt bias
      m2_x = g.view(xbc);
      m2_scan = g.op(b * inner + std::int64_t{s.ssm_state} * inner,
                     {m2_x, dt, g.view(xbc), g.view(xbc), s_copy});
      g.external({g.view(m2_scan)});  // the new state written back
      if (s.flash && s.rotate_v) {
        cur = rotate(cur, qw, v_rot_l);
      }
    }
    if (shaped != nullptr && shaped->ffn <= 0) {
      continue;  // deci.cpp: a layer without an MLP leaves the stream as it was
    }
    if (s.router_reads_layer_input && moe_layer) {
      // smallthinker.cpp: the router reads the layer's input before its
      // norm. build_moe_ffn expands the routing before anything has expanded
      // the output projection, so it runs between the attention (which
      // build_attn_mha expands) and wo, the input kept alive through it.
      routed_early = route(x, last);
    }
    // arctic.cpp: the layer input's rows to output (the last layer), a norm
    // of them (not in place: the attention's residual add reads them
    // later), the routing and the experts, all expanded by build_moe_ffn
    // before anything has expanded the output projection or the dense MLP.
    int arctic_rows = -1;
    int arctic_experts = -1;
    if (s.arctic && moe_layer) {
      arctic_rows = last ? g.op(b * e, {x, out_ids}) : x;
      arctic_experts = mlp(arctic_rows, g.same(g.same(arctic_rows)), il, true);
      if (s.flash && s.rotate_v) {  // build_attn's rotation back, visited with wo
        cur = rotate(cur, qw, v_rot_l);
      }
    }
    int plamo_mlp = -1;  // PLaMo's parallel block: the MLP's output
    if (s.parallel_block && s.plamo_parallel) {
      // plamo.cpp: the heads' output expanded by build_attn_mha; the next
      // layer's expand reaches add(add(mlp, wo(attention)), input) through
      // its first source, so the MLP of the shared norm (gate, up, SwiGLU,
      // down) runs before wo; on the last layer from the norm's rows to
      // output, picked first.
      // falcon.cpp builds the same block with LayerNorms and GELU's MLP:
      // Falcon-7B's attention and MLP share attn_norm (above); Falcon-40B's
      // attention reads attn_norm_2 (above: the norm it reaches first), and
      // attn_norm, which only the MLP reads, is built when the next
      // expansion reaches the MLP (a LayerNorm of the input: a new tensor,
      // weight and bias in place), then its rows on the last layer.
      const int shared = s.falcon_norm_2 ? layer_norm(x) : attn_norm;
      const int input = last ? g.op(b * e, {shared, out_ids}) : shared;
      plamo_mlp = mlp(input, input, il, moe_layer);
      if (s.flash && s.rotate_v) {  // the rotation back is build_attn's, visited with wo
        cur = rotate(cur, ow, v_rot_l);
      }
    } else if (s.parallel_block) {
      // cohere2moe.cpp: build_attn_mha expands the heads' output, not wo;
      // build_moe_ffn expands the router's weights, the experts and their
      // sum as it builds them, and the next layer's expand reaches
      // add(add(mlp, input), wo(attention)) through its first source: the
      // MLP and its add to the input run here, before the output
      // projection (the node order of a GGML_SCHED_DEBUG=2 dump of the
      // reduced North Mini Code; a dense MLP likewise).
      // gptneox.cpp: its own LayerNorm of the input (of its rows to output
      // on the last layer, picked first), then the MLP and the same adds.
      const int input = s.gpt2_block && last ? g.op(b * e, {x, out_ids}) : x;
      const int out = s.gpt2_block ? mlp(input, layer_norm(input), il, moe_layer)
                                   : mlp(attn_norm, attn_norm, il, moe_layer);
      parallel_sum = g.op(b * e, {out, input}, {out, input});
      if (s.flash && s.rotate_v) {  // the rotation back is build_attn's, not expanded either
        cur = rotate(cur, ow, v_rot_l);
      }
    }
    if (s.sub_norms) {
      // bitnet.cpp's attn_sub_norm on the attention output (a view of the
      // flash-attention output: ggml-alloc runs nothing in place on it),
      // then its weight
      cur = g.same(g.op(b * ow, {cur}, {cur}));
    }
    if (last && head_pad_first && head_pad < 0) {
      head_pad = make_head_pad();
    }
    if (!late_wo) {
      cur = g.op(b * e, {cur});  // output projection
      if (s.gpt2_block || s.phi2_parallel) {
        cur = g.same(cur);  // + its bias
      }
      if (s.value_scale) {
        cur = g.same(cur);  // MiMo-V2-Flash's ggml_scale of the output
      }
    }
    if (plamo2) {
      // plamo2.cpp: post_mixer_norm (of the mixer's output, a reshape of
      // ssm_out's: a new tensor; of wo's in place), weight; + the layer
      // input (in place on it); the pre-MLP norm (a new tensor: the sum is
      // the next residual), the MLP (gate and up in one ffn_up, SwiGLU a new
      // tensor), post_mlp_norm in place; on the last layer the rows to
      // output picked from the MLP's output, then from the residual; the
      // sum in place on the first.
      cur = mixer ? g.same(g.op(b * e, {g.view(cur)})) : g.same(g.same(cur));
      const int attn_res = g.op(b * e, {cur, x}, {cur, x});
      const int ffn_norm = g.same(g.same(attn_res));
      cur = g.same(g.same(mlp(attn_res, ffn_norm, il, moe_layer)));
      int res = attn_res;
      if (last) {
        cur = g.op(b * e, {cur, out_ids});
        res = g.op(b * e, {attn_res, out_ids});
      }
      x = g.op(b * e, {cur, res}, {cur, res});
      continue;
    }
    if (s.sandwich_norms) {
      // plamo3.cpp: on the last layer the attention output's rows, then the
      // input's; attn_post_norm and its weight (in place); + the input (in
      // place on the first); the pre-MLP norm (a new tensor: the sum is the
      // MLP's residual), the MLP, ffn_post_norm in place, the sum in place.
      int res = x;
      if (last) {
        cur = g.op(b * e, {cur, out_ids});
        res = g.op(b * e, {x, out_ids});
      }
      cur = g.same(g.same(cur));
      const int attn_res = g.op(b * e, {cur, res}, {cur, res});
      const int ffn_norm = g.same(g.same(attn_res));
      cur = g.same(g.same(mlp(attn_res, ffn_norm, il, moe_layer)));
      x = g.op(b * e, {cur, attn_res}, {cur, attn_res});
      continue;
    }
    if (s.swin_norm) {
      // chameleon.cpp's Swin-style layer, in the node order of a
      // trace_alloc trace of the reduced file (docs/live-llamacpp.md,
      // Chameleon run): the attention output (its rows, on the last layer)
      // RMS-normed in place; build_ffn reads that, not the sum, so the MLP
      // and its own norm run first; then the residual's rows, the sum
      // ffn_inp (in place on the normed output, whose other readers have
      // run) and the layer's output (in place on the MLP's).
      if (last) {
        cur = g.op(b * e, {cur, out_ids});
      }
      cur = g.same(g.same(cur));
      const int ffn_out = g.same(g.same(mlp(cur, cur, il, moe_layer)));
      const int res = last ? g.op(b * e, {x, out_ids}) : x;
      const int ffn_inp = g.op(b * e, {cur, res}, {cur, res});
      x = g.op(b * e, {ffn_out, ffn_inp}, {ffn_out, ffn_inp});
      continue;
    }
    if (s.minimax01) {
      // minimax-01.cpp: the residual is the layer's normed input (its rows
      // picked on the last layer, after the output's), scaled in place; the
      // sum in place on the output; its RMS norm in place (its only
      // reader), the weight; the MLP; the normed input scaled in place
      // after the MLP (its last reader) and added. The next lightning
      // layer's state rows are expanded before that add.
      int res = attn_norm;
      if (last) {
        cur = g.op(b * e, {cur, out_ids});
        res = g.op(b * e, {attn_norm, out_ids});
      }
      const int scaled_in = g.same(res);
      // a lightning layer's output is a reshape of wo's, which the sum does
      // not take over: it takes the scaled residual's memory
      const bool reshaped = mixer && !last;
      const int ffn_inp = reshaped ? g.op(b * e, {cur, scaled_in}, {scaled_in})
                                   : g.op(b * e, {cur, scaled_in}, {cur, scaled_in});
      const int ffn_norm = g.same(g.same(ffn_inp));
      cur = mlp(ffn_inp, ffn_norm, il, moe_layer);
      if (!last && kind_at(il + 1) == 'R') {
        next_la_state = g.op(la_state, {s_copy});
      }
      const int scaled = g.same(ffn_norm);
      x = g.op(b * e, {cur, scaled}, {cur, scaled});
      continue;
    }
    if (s.single_block) {  // Nemotron-H: the block's output plus its input
      if (s.mixer_blocks && last) {
        // mamba.cpp: the rows to output picked from both before the sum,
        // which runs in place on the first (no reshape between)
        cur = g.op(b * e, {cur, out_ids});
        x = g.op(b * e, {x, out_ids});
        x = g.op(b * e, {cur, x}, {cur, x});
        continue;
      }
      x = residual(x, cur);
      continue;
    }
    if (s.phi2_parallel) {
      // phi2.cpp: add(add(attention, MLP), input): the attention's output
      // projection (and its rows to output on the last layer) is reached
      // first, then the MLP of the shared norm (its rows picked first), the
      // sum in place on the attention's output, the input's rows, the sum.
      if (last) {
        cur = g.op(b * e, {cur, out_ids});
      }
      const int input = last ? g.op(b * e, {attn_norm, out_ids}) : attn_norm;
      const int ffn_out = mlp(input, input, il, moe_layer);
      const int sum = g.op(b * e, {cur, ffn_out}, {cur, ffn_out});
      const int res = last ? g.op(b * e, {x, out_ids}) : x;
      x = g.op(b * e, {sum, res}, {sum, res});
      continue;
    }
    if (plamo_mlp >= 0) {
      // plamo.cpp: the MLP plus the attention output (its rows picked on
      // the last layer), in place on the MLP's; then plus the layer input
      // (its rows picked last), in place on the sum.
      if (last) {
        cur = g.op(b * e, {cur, out_ids});
      }
      const int sum = g.op(b * e, {plamo_mlp, cur}, {plamo_mlp, cur});
      const int input = last ? g.op(b * e, {x, out_ids}) : x;
      x = g.op(b * e, {sum, input}, {sum, input});
      continue;
    }
    if (s.parallel_block) {
      // cohere2moe.cpp: ggml_add(ggml_add(mlp, input), attention output),
      // in place on the MLP's output (built above); the rows to output are
      // picked after the final norm (embeddings_nextn_masked is off).
      // gptneox.cpp picks the attention's rows after wo and its bias.
      if (s.gpt2_block && last) {
        cur = g.op(b * e, {cur, out_ids});
      }
      x = g.op(b * e, {parallel_sum, cur}, {parallel_sum, cur});
      continue;
    }
    if (mamba_beside) {
      const std::int64_t inner = s.ssm_inner;
      const int z = g.op(b * inner, {g.view(m2_proj)});  // ggml_cont of z
      const int xd = g.op(b * inner, {m2_x});            // x D
      const int y = g.op(b * inner, {g.view(m2_scan), xd}, {xd});
      const int glu = g.op(b * inner, {z, y});            // SwiGLU (not in place)
      const int ssm_out = g.op(b * e, {g.view(glu)});     // ssm_out
      cur = g.op(b * e, {cur, ssm_out}, {cur, ssm_out});  // layer_out
    }
    int ffn_inp = -1;
    if (altup) {
      // post-attention norm (in place), plus the active stream; LAuReL of the
      // attention norm; their sum scaled.
      const int gated = g.op(b * e, {cur, active}, {cur});
      int laurel = g.op(b * e, {g.op(b * s.laurel_rank, {attn_norm})});
      laurel = g.same(g.same(laurel));
      laurel = g.op(b * e, {laurel, attn_norm}, {laurel, attn_norm});
      ffn_inp = g.same(g.op(b * e, {gated, laurel}, {gated, laurel}));
    }
    int res = x;
    // build_inp_out_ids: the rows of the tokens to output
    if (!altup && last && !s.late_out_ids && !s.out_ids_after_norm && !mamba_beside &&
        !s.no_out_ids) {
      if (late_wo) {  // openelm.cpp picks the residual's rows first
        res = g.op(b * e, {x, out_ids});
        if (s.flash && s.rotate_v) {
          cur = rotate(cur, qw, v_rot_l);
        }
        cur = g.op(b * e, {g.op(b * e, {cur}), out_ids});
      } else {
        cur = g.op(b * e, {cur, out_ids});
        res = arctic_rows >= 0 ? arctic_rows : g.op(b * e, {x, out_ids});
      }
    }
    if (!altup) {
      // openelm.cpp adds the attention output to the stream, not the
      // stream to it.
      ffn_inp = s.fused_qkv_norm ? g.op(b * e, {res, cur}, {res, cur}) : residual(res, cur);
    }
    if (last && mamba_beside) {  // falcon-h1.cpp picks them from the sum
      ffn_inp = g.op(b * e, {ffn_inp, out_ids});
    }
    if (s.post_norm) {
      ffn_inp = layer_norm(ffn_inp);  // attn_out_norm: the MLP's input and residual
    }
    const int ffn_norm = s.post_norm                     ? ffn_inp
                         : s.gpt2_block || s.modern_bert ? layer_norm(ffn_inp)
                                                         : g.same(g.same(ffn_inp));
    if (arctic_experts >= 0) {
      // the dense MLP, its add to the attention's sum, then the experts' sum
      // added in place to the experts' output (ggml_add(moe, ffn_out))
      const int ffn_out = residual(ffn_inp, mlp(ffn_inp, ffn_norm, il, false));
      x = g.op(b * e, {arctic_experts, ffn_out}, {arctic_experts, ffn_out});
      continue;
    }
    cur = mlp(ffn_inp, ffn_norm, il, moe_layer);
    if (!altup) {
      x = residual(ffn_inp, cur);
      if (s.post_norm) {
        x = layer_norm(x);  // layer_out_norm
      }
      if (ple_gemma4) {  // gemma4.cpp: the per-layer input added to the layer's output
        const int gated = g.same(g.op(b * s.ple_width, {x}));  // per_layer_inp_gate, GELU
        x = g.op(b * e, {x, per_layer_input(gated)}, {x});
      }
      if (il < s.deepstack) {  // qwen3vl.cpp, qwen3vlmoe.cpp: deepstack_out
        x = g.op(b * e, {x, g.view(deepstack_rows)}, {x});
      }
      if (s.embedding_skip) {
        // talkie.cpp: the normed embeddings times the layer's out_scale (a
        // new tensor while later layers read them; the last layer's rows
        // picked first, then scaled in place), added in place.
        const int src = last ? g.op(b * e, {embd_skip, out_ids}) : embd_skip;
        const int skip = g.same(src);
        x = g.op(b * e, {x, skip}, {x, skip});
      }
      continue;
    }
    // post-FFW norm (in place), plus the attention + LAuReL sum; the streams
    // corrected; the per-layer input added to streams 1..n-1.
    const int activated = g.op(b * e, {cur, ffn_inp}, {cur, ffn_inp});
    const int innovation = g.op(b * e, {activated, g.view(predictions)}, {activated});
    const int repeated = g.op(b * e * n_alt, {innovation});  // ggml_repeat_4d
    const int router = g.same(g.same(g.same(activated)));    // norm, weight, scale
    const int modal = g.same(g.op(b * n_alt, {router}));     // router, tanh
    const int coefs = g.op(b * n_alt, {g.view(g.same(g.op(b * n_alt, {modal})))});  // + 1, cont
    int corrected = g.op(b * e * n_alt, {repeated, coefs}, {repeated});
    corrected = g.op(b * e * n_alt, {corrected, predictions}, {corrected, predictions});
    int first = g.op(b * e, {g.view(corrected)});                     // x correct_scale
    first = per_layer_input(g.same(g.op(b * s.ple_width, {first})));  // inp_gate, GELU
    const int rest = g.op(b * e * (n_alt - 1), {g.view(corrected), first});
    x = g.op(b * e * n_alt, {g.view(corrected), rest});  // ggml_concat
  }
  if (altup) {  // the streams merged back: projected, rescaled, averaged
    const int unembd = g.op(b * e * (n_alt - 1), {g.view(x)});  // altup_unembd_proj
    const int target = g.same(g.op(b, {g.op(b * e, {g.view(x)})}));
    const int scaled = g.op(b * e * (n_alt - 1), {unembd, target}, {unembd});
    const int norm_u = g.same(g.op(b * (n_alt - 1), {g.same(unembd)}));
    const int merged = g.op(b * e * (n_alt - 1), {scaled, norm_u}, {scaled});
    int cur = g.op(b * e, {g.view(x), g.view(merged)});
    for (std::int64_t i = 2; i < n_alt; ++i) {
      cur = g.same(cur, {g.view(merged)});
    }
    cur = g.op(b * e, {g.same(cur), out_ids});
    const int logits = g.op(b * s.vocab, {g.same(g.same(cur))});  // soft-capped in place
    g.at(logits).output = true;
    return g.take();
  }
  if (s.late_out_ids) {
    if (s.hidden_output) {  // t_h_nextn (step35.cpp): an output, never freed
      g.at(x).output = true;
    }
    x = g.op(b * e, {x, out_ids});
  }
  // the final norm: RMS norm and weight in place; LayerNorm a new tensor,
  // weight and bias in place
  int norm = s.layer_norm || s.gpt2_block || s.modern_bert || s.falcon_parallel || s.phi2_parallel
                 ? layer_norm(x)
                 : g.same(g.same(x));
  if (s.mla_per_head_lora > 0 && !s.mla_unscaled_head) {
    // minicpm3.cpp scales the normed state before the head (lmhead_scaling;
    // plm.cpp, the other per-head MLA graph, does not: mla_unscaled_head):
    // the norm is t_embd, an output (llm_graph_result::set_outputs), so the
    // scale cannot take its memory and is a tensor of its own.
    g.at(norm).output = true;
    norm = g.op(b * e, {norm});
  }
  if (s.out_ids_after_norm) {
    // The normed hidden state feeds the multi-token-prediction head too
    // (t_h_nextn), and llm_graph_result::set_outputs marks it an output, as
    // it does the rows picked from it (t_embd): neither is ever freed.
    g.at(norm).output = true;
    norm = g.op(b * e, {norm, out_ids});
    g.at(norm).output = true;
  }
  int logits = 0;
  if (head_pad >= 0) {
    // the codec head's rows, joined behind the -inf block (ggml_concat)
    logits = g.op(b * s.vocab, {head_pad, g.op(b * s.head_rows, {norm})});
  } else {
    logits = g.op(b * s.vocab, {norm});
  }
  if (image_row >= 0) {
    // chameleon.cpp: the final norm is t_embd (an output); the image row
    // (placed with the inputs) filled with -FLT_MAX by a clamp in place and
    // written over the logits by ggml_set_1d, which is not in place: the
    // masked logits are a tensor of their own, the logits freed after it.
    g.at(norm).output = true;
    logits = g.op(b * s.vocab, {logits, g.same(image_row)});
  }
  g.at(logits).output = true;
  return g.take();
}

// T5 (src/models/t5.cpp at 80fb11ac, graph<false> and graph<true>; the
// encoder's is t5encoder.cpp's too), in ggml's visit order. Each block:
// RMS norm and its weight (in place where the input has no other reader),
// Q, K and V projections (reshapes are views); the decoder writes K and V
// to its cache (build_attn expands Q, V, K, then the rows written). The
// scores K x Q (f32), then the relative-position bias (build_pos_bias: the
// bucket input read through a reshape, get_rows of the bias table, F32
// heads x cells x tokens, made contiguous after a permute) added to them,
// the softmax with the mask, both in place. V is made contiguous
// transposed first wherever it is not stored so (the encoder's own V, the
// decoder's cache under flash attention: visited before the scores), the
// product, its heads made contiguous, wo, the residual. The decoder then
// runs the cross-attention: its own norm, Q of the micro-batch, K and V of
// the encoder's output (an input of hidden x encoder_rows F32), and, with
// flash attention, K and V cast to F16 for the kernel, else the scores,
// softmax and product as above without a bias. In the last block the rows
// to output are picked from the attention output and its residual before
// the MLP (up and gate, GEGLU of the two, a new tensor, down; or up, ReLU in
// place, down), whose output is added back. The final norm (t_embd, an
// output) and, in the decoder, the logits.
std::vector<GraphTensor> t5_graph(const T5GraphShape& s) {
  Builder g;
  g.reserve(static_cast<std::size_t>(std::max(s.layers, 1)) * 64 + 64);
  const std::int64_t b = std::max<std::int64_t>(1, s.tokens);
  const std::int64_t e = s.hidden;
  const std::int64_t heads = s.heads;
  const std::int64_t qw = heads * s.head_dim;
  const std::int64_t kvw = std::int64_t{s.kv_heads} * s.head_dim;
  const std::int64_t mask_bytes = s.flash ? 2 : 4;
  const bool cached = s.decoder;
  const std::int64_t cells = cached ? std::max<std::int64_t>(1, s.cells) : b;
  const std::int64_t enc = std::max<std::int64_t>(1, s.encoder_rows);
  // Inputs in the order the nodes first read them: the token ids (and the
  // unread input of ready embeddings, as in llama_forward_graph), the
  // rotations, the cache rows to write (V: one per value when V is stored
  // transposed, without flash attention), the buckets, the mask, the
  // encoder's output and its mask, the rows to output.
  const int tokens = g.input(4 * b);
  g.input(4 * b * e);
  const int k_rot = cached && s.rotate_k ? g.input(k_rotation_bytes(s.head_dim)) : -1;
  const int v_rot = cached && s.rotate_v ? g.input(4 * 64 * 64) : -1;
  const int k_idxs = cached ? g.input(8 * b) : -1;
  const int v_idxs = cached ? g.input(s.flash ? 8 * b : 8 * b * kvw) : -1;
  const int buckets = g.input(4 * cells * b);
  const int mask = g.input(mask_bytes * cells * b);
  const int enc_out = cached ? g.input(4 * enc * e) : -1;
  const int cross_mask = cached ? g.input(mask_bytes * enc * b) : -1;
  const int out_ids = g.input(4 * b);
  const auto rotate = [&](int t, std::int64_t width, int matrix) {
    return g.view(g.op(b * width, {g.view(t), matrix}));
  };
  const auto mlp = [&](int in) {
    if (s.gated) {
      const int gate = g.op(b * s.ffn, {in});
      const int up = g.op(b * s.ffn, {in});
      return g.op(b * e, {g.op(b * s.ffn, {gate, up})});  // GEGLU (split), down
    }
    return g.op(b * e, {g.same(g.op(b * s.ffn, {in}))});  // up, ReLU, down
  };
  int x = g.op(b * e, {tokens});  // get_rows of the token embeddings
  for (int il = 0; il < s.layers; ++il) {
    const bool last = il == s.layers - 1;
    const int norm = g.same(g.same(x));  // RMS norm, weight
    // Q, K, V without a cache (build_attn expands them so); Q, V, K with one.
    int q = g.view(g.op(b * qw, {norm}));
    if (cached && k_rot >= 0) {
      q = rotate(q, qw, k_rot);
    }
    int k = -1;
    int v = -1;
    if (!cached) {
      k = g.view(g.op(b * kvw, {norm}));
    }
    v = g.view(g.op(b * kvw, {norm}));
    int vt = -1;
    if (cached) {
      if (v_rot >= 0) {
        v = rotate(v, kvw, v_rot);
      }
      k = g.view(g.op(b * kvw, {norm}));
      if (k_rot >= 0) {
        k = rotate(k, kvw, k_rot);
      }
      g.external({g.view(k), k_idxs});
      g.external({g.view(v), v_idxs});
      // Under flash attention the cache keeps V untransposed: made so here.
      if (s.flash) {
        vt = g.bytes_op(
            static_cast<std::int64_t>(s.v_value_bytes * static_cast<double>(cells * kvw)), {});
      }
    } else {
      vt = g.op(b * kvw, {v});  // V^T made contiguous
    }
    const int kq = cached ? g.op(b * cells * heads, {g.view(q)})
                          : g.op(b * cells * heads, {g.view(k), g.view(q)});
    const int bias_rows = g.op(b * cells * heads, {g.view(buckets)});  // get_rows of attn_rel_b
    const int bias = g.op(b * cells * heads, {g.view(g.view(bias_rows))});  // cont
    const int probs = g.same(g.op(b * cells * heads, {kq, bias}, {kq, bias}), {mask});
    const int kqv = vt >= 0 ? g.op(b * qw, {vt, probs}) : g.op(b * qw, {probs});
    int att = g.op(b * qw, {g.view(kqv)});  // heads made contiguous
    if (v_rot >= 0) {
      att = rotate(att, qw, v_rot);
    }
    int cur = g.op(b * e, {att});  // wo
    if (!cached && last) {
      cur = g.op(b * e, {cur, out_ids});
      x = g.op(b * e, {x, out_ids});
    }
    cur = g.op(b * e, {cur, x}, {cur, x});  // + the layer input
    if (cached) {
      const int cross_in = cur;
      const int cnorm = g.same(g.same(cross_in));
      const int cq = g.view(g.op(b * qw, {cnorm}));
      const int ck = g.view(g.op(enc * kvw, {enc_out}));
      const int cv = g.view(g.op(enc * kvw, {enc_out}));
      int catt = 0;
      if (s.flash) {
        const int k16 = g.bytes_op(2 * enc * kvw, {g.view(ck)});
        const int v16 = g.bytes_op(2 * enc * kvw, {g.view(cv)});
        catt = g.view(g.op(b * qw, {g.view(cq), k16, v16, cross_mask}));
      } else {
        const int cvt = g.op(enc * kvw, {g.view(cv)});
        const int ckq = g.same(g.op(b * enc * heads, {g.view(ck), g.view(cq)}), {cross_mask});
        catt = g.op(b * qw, {g.view(g.op(b * qw, {cvt, ckq}))});
      }
      int c = g.op(b * e, {catt});  // wo_cross
      int resid = cross_in;
      if (last) {
        c = g.op(b * e, {c, out_ids});
        resid = g.op(b * e, {resid, out_ids});
      }
      cur = g.op(b * e, {c, resid}, {c, resid});
    }
    const int ffn_norm = g.same(g.same(cur));
    const int down = mlp(ffn_norm);
    x = g.op(b * e, {down, cur}, {down, cur});
  }
  const int out = g.same(g.same(x));  // output_norm(_enc), weight: t_embd
  g.at(out).output = true;
  if (cached && s.vocab > 0) {
    const int logits = g.op(b * s.vocab, {out});
    g.at(logits).output = true;
  }
  return g.take();
}

// DeepSeek-V4 (src/models/deepseek4.cpp at 80fb11ac), node by node in the
// order of a GGML_SCHED_DEBUG=2 dump of the reduced live file
// (docs/live-llamacpp.md, ninth run). The hidden state is `streams`
// hyper-connection streams [e, streams, tokens]; each block reads them
// through a mix (RMS norm of the flattened streams, hc_fn, then the pre
// gates: view x scale + base, sigmoid, + eps, all in place), the fused
// ggml_dsv4_hc_pre, and writes them back through the fused hc_post with its
// post gates and Sinkhorn combination (ggml_dsv4_hc_comb), built where the
// next block first reads them. Attention: q_a, its norm, q_b (heads x
// head_dim), a per-head norm (a new tensor: it reads q_b through a
// reshape, and ggml-alloc runs nothing in place on a view) and RoPE; one key row of head_dim
// written to the raw (window) cache; a ratio-4 layer first runs its compressor (the projected kv
// and score joined behind the state rows, a zero row appended, the windows read twice as wide,
// softmax-pooled, normed, roped, written) and its indexer's (index_dim, rotated), a ratio-128 layer
// its compressor (no overlap); the keys are the raw cache's joined with the compressed cache's
// (ggml_concat, in the cache's type); a ratio-4 layer's mask is the raw mask joined with the pooled
// keys' mask, minus infinity but where the fused lightning indexer's top-k pick (its indexer q_b
// rotated, a weight per head); then scores and softmax (or flash attention), the output rotated
// back when the cache is quantised, de-roped (through a reshape), the grouped output LoRA (wo_a per
// group, made contiguous, wo_b). The MLP: router logits, softplus and sqrt in place; the hash
// layers take their experts from the token's row (ffn_gate_tid2eid), the others from an argsort of
// the biased probabilities; weights normed and scaled; the experts (clamped
// SwiGLU, not in place) summed; a shared expert added. The head: the output
// rows picked from the flattened streams, their mix and pre gates, the
// streams weighted and summed unfused (four products, three adds), the
// final norm (an output) and the logits. Inputs: the raw, pooled, indexer
// and window masks (F16 under flash attention; the indexer's always, its op
// is fused), the rotation matrices (the indexer's always), and each ratio-4
// layer's zero leaf [top-k, tokens] for the mask (allocated with the inputs,
// filled in place). Index tensors of a few KiB are left out.
std::vector<GraphTensor> deepseek4_forward_graph(const Dsv4GraphShape& s) {
  Builder g;
  const std::int64_t b = s.tokens;
  const std::int64_t e = s.hidden;
  const std::int64_t hc = s.streams;
  const std::int64_t d = s.head_dim;
  const std::int64_t h = s.heads;
  const std::int64_t mix = (2 + hc) * hc;
  const std::int64_t mask_bytes = s.flash ? 2 : 4;
  const std::int64_t n_top = std::min(s.csa_cells, s.index_topk);
  const auto k_bytes = [&](std::int64_t values) {
    return static_cast<std::int64_t>(static_cast<double>(values) * s.k_value_bytes + 0.5);
  };
  // A tensor of `bytes` bytes whatever its type.
  const auto node = [&](std::int64_t bytes, SourceList src, SourceList inplace = {}) {
    const int t = g.op(0, src, inplace);
    g.at(t).bytes = bytes;
    return t;
  };
  const auto rotation = [&](std::int64_t head) { return g.input(k_rotation_bytes(head)); };
  const int layers = static_cast<int>(s.ratios.size());
  // The inputs, in the order the graph first reads them (ggml-alloc
  // places every input before the first node and frees it after its last
  // reader): the token ids and embeddings, the raw mask, positions and the
  // raw cache's row indices; a compressor's window rows, positions, written rows and kept
  // state rows (I32, the written rows I64); the rotations, masks and zero
  // leaves; the output rows.
  // build_inp_embd's token ids and, beside the token path, its input of
  // ready embeddings (ggml_build_forward_select keeps one): that one is read
  // by nothing, so never freed; both are in the graph before the raw mask.
  const int tokens = g.input(4 * b);
  g.input(4 * b * e);
  const int raw_mask = g.input(mask_bytes * s.raw_cells * b);
  const int pos = g.input(4 * b);
  const int rot_raw = s.rotate_k ? rotation(d) : -1;
  const int k_idxs = g.input(8 * b);
  struct CompressorInputs {
    int reads = -1, state_pos = -1, write_pos = -1, rot = -1, writes = -1, kept_src = -1,
        kept_dst = -1;
  };
  // `indexer`: the lightning indexer's cache, rotated whatever its type.
  const auto compressor_inputs = [&](std::int64_t ratio, bool overlap, std::int64_t head,
                                     bool indexer) {
    const std::int64_t blocks = b / ratio + 1;  // dsv4_build_reserve_comp_plan
    const std::int64_t kept = std::min(b, overlap ? 2 * ratio : ratio);
    CompressorInputs c;
    c.reads = g.input(4 * (overlap ? 2 : 1) * ratio * blocks);
    c.state_pos = g.input(4 * b);
    c.write_pos = g.input(4 * blocks);
    c.rot = indexer || s.rotate_k ? rotation(head) : -1;
    c.writes = g.input(8 * blocks);
    c.kept_src = g.input(4 * kept);
    c.kept_dst = g.input(4 * kept);
    return c;
  };
  CompressorInputs csa;
  CompressorInputs lid;
  CompressorInputs hca;
  int lid_mask = -1;
  int csa_mask = -1;
  int hca_mask = -1;
  std::vector<int> zeros(static_cast<std::size_t>(layers), -1);
  for (int il = 0; il < layers; ++il) {
    const char kind = s.ratios[static_cast<std::size_t>(il)];
    if (kind == 'C') {
      if (lid_mask < 0) {
        csa = compressor_inputs(4, true, d, false);
        lid = compressor_inputs(4, true, s.index_dim, true);
      }
      zeros[static_cast<std::size_t>(il)] = g.input(mask_bytes * n_top * b);
      if (lid_mask < 0) {
        lid_mask = g.input(2 * s.csa_cells * b);
        csa_mask = g.input(mask_bytes * s.csa_cells * b);
      }
    } else if (kind == 'H' && hca_mask < 0) {
      hca = compressor_inputs(128, false, d, false);
      hca_mask = g.input(mask_bytes * s.hca_cells * b);
    }
  }
  const int rot_lid = lid.rot;

  // The mix of the streams (RMS norm of them flattened, hc_fn) and its
  // gates: a view x scale + base, sigmoid, then + eps or x 2, in place.
  const auto mixes_of = [&](int streams) {
    const int normed = g.op(b * hc * e, {streams});
    return g.op(b * mix, {normed});
  };
  const auto gates = [&](int mixes) {
    const int scaled = g.op(b * hc, {g.view(mixes)});
    return g.same(g.same(g.same(scaled)));
  };
  // A compressor (deepseek4.cpp build_*_compressed_kv_from_state): `width`
  // values a pooled key, windows of `ratio` tokens (twice as wide and as
  // long when they overlap), state rows kept between micro-batches.
  const auto compressor = [&](int in, std::int64_t width, std::int64_t ratio, bool overlap,
                              const CompressorInputs& at) {
    const std::int64_t c = overlap ? 2 * width : width;
    const std::int64_t state = overlap ? 2 * ratio : ratio;
    const std::int64_t blocks = b / ratio + 1;  // dsv4_build_reserve_comp_plan
    const std::int64_t reads = (overlap ? 2 : 1) * ratio * blocks;
    const auto windows = [&](int projected) {
      int joined = g.op(c * (state + b), {projected});  // behind the state rows
      if (overlap) {                                    // a zero row appended
        const int zero = g.op(c, {g.view(joined)});
        joined = g.op(c * (state + b + 1), {joined, zero});
      }
      const int rows = g.op(c * reads, {joined, at.reads});  // the windows' rows
      if (!overlap) {
        return g.op(width * reads, {rows});  // permuted, made contiguous
      }
      const int prev = g.op(width * ratio * blocks, {g.view(rows)});
      const int cur = g.op(width * ratio * blocks, {g.view(rows)});
      return g.op(width * reads, {g.op(width * reads, {prev, cur})});
    };
    const int kv = g.op(c * b, {in});
    const int values = windows(kv);
    const int gate = g.op(c * b, {in});
    const int ape = g.op(c * b, {at.state_pos});
    const int score = g.same(gate, {ape});
    const int weights = g.same(windows(score));  // softmax
    const int pooled = g.op(width * blocks, {g.same(values, {weights})});
    const int normed = g.same(g.same(g.op(width * blocks, {pooled})));  // cont, norm
    int comp = g.same(normed, {at.write_pos});                          // rope
    if (at.rot >= 0) {
      comp = g.op(width * blocks, {comp, at.rot});
    }
    g.external({comp, at.writes});
    const std::int64_t kept = std::min(b, state);
    g.external({g.op(c * kept, {kv, at.kept_src}), at.kept_dst});
    g.external({g.op(c * kept, {score, at.kept_src}), at.kept_dst});
  };

  const int embd = g.op(b * e, {tokens});
  int x = g.op(b * hc * e, {embd});  // hc_init: the embeddings repeated
  for (int il = 0; il < layers; ++il) {
    const char kind = s.ratios[static_cast<std::size_t>(il)];
    const int mixes = mixes_of(x);
    const int pre = gates(mixes);
    const int in = g.same(g.same(g.op(b * e, {x, pre})));  // hc_pre, attn_norm
    if (kind == 'C') {
      compressor(in, d, 4, true, csa);
      compressor(in, s.index_dim, 4, true, lid);
    } else if (kind == 'H') {
      compressor(in, d, 128, false, hca);
    }
    const int qr = g.same(g.same(g.op(b * s.q_lora, {in})));
    // q_b; its per-head norm reads it through a reshape (not in place); RoPE
    int q = g.same(g.op(b * h * d, {g.op(b * h * d, {qr})}), {pos});
    if (rot_raw >= 0) {
      q = g.op(b * h * d, {q, rot_raw});
    }
    // kv, its norm and weight in place; RoPE through a reshape, not in place
    int kv = g.op(b * d, {g.same(g.same(g.op(b * d, {in}))), pos});
    if (rot_raw >= 0) {
      kv = g.op(b * d, {kv, rot_raw});
    }
    g.external({kv, k_idxs});  // the raw cache's row
    const std::int64_t cells = s.raw_cells + (kind == 'C'   ? s.csa_cells
                                              : kind == 'H' ? s.hca_cells
                                                            : 0);
    const int keys = kind == 'S' ? -1 : node(k_bytes(d * cells), {});  // raw + compressed keys
    const SourceList key_src = keys >= 0 ? SourceList{keys} : SourceList{};
    const int values = s.flash ? -1 : node(k_bytes(d * cells), key_src);  // V made contiguous
    int kq = -1;
    if (!s.flash) {
      SourceList src = key_src;
      src.push_back(q);
      kq = g.op(cells * b * h, src);
    }
    int mask = raw_mask;
    if (kind == 'C') {  // the indexer's top-k as a mask over the pooled keys
      const int filled0 = g.same(zeros[static_cast<std::size_t>(il)]);
      // RoPE reads the indexer's queries through a reshape: not in place
      int iq =
          g.op(b * s.index_heads * s.index_dim, {g.op(b * s.index_heads * s.index_dim, {qr}), pos});
      iq = g.op(b * s.index_heads * s.index_dim, {iq, rot_lid});
      const int iw = g.same(g.op(b * s.index_heads, {in}));
      const int score = g.op(s.csa_cells * b, {iq, iw, lid_mask});
      const int top = node(4 * n_top * b, {score});
      const int picked = node(4 * n_top * b, {top});
      const int all = node(mask_bytes * s.csa_cells * b, {csa_mask});  // -inf
      const int set = g.external({filled0, picked});
      // the add reads the filled mask through set_rows' view, so not in
      // place on it; on the pooled keys' mask, an input, it is where it
      // reads it last (the last ratio-4 layer)
      const int sparse = node(mask_bytes * s.csa_cells * b, {all, csa_mask, set}, {csa_mask});
      mask = node(mask_bytes * cells * b, {raw_mask, sparse});
    } else if (kind == 'H') {
      mask = node(mask_bytes * cells * b, {raw_mask, hca_mask});
    }
    int out = -1;
    if (s.flash) {
      SourceList src{q};
      if (keys >= 0) {
        src.push_back(keys);
      }
      src.push_back(mask);
      out = g.op(b * h * d, src);
    } else {
      const int probs = g.same(kq, {mask});
      out = g.op(b * h * d, {g.op(b * h * d, {values, probs})});  // kqv, made contiguous
    }
    if (rot_raw >= 0) {
      out = g.op(b * h * d, {out, rot_raw});
    }
    out = g.op(b * h * d, {out, pos});  // RoPE undone, through a reshape: not in place
    const int oa = g.op(b * s.o_groups * s.o_lora, {g.op(b * s.o_groups * s.o_lora, {out})});
    const int attn_out = g.op(b * e, {oa});
    const int post = gates(mixes);
    const int comb = g.op(b * hc * hc, {mixes});
    const int y = g.op(b * hc * e, {attn_out, x, post, comb});  // hc_post

    const int mixes2 = mixes_of(y);
    const int post2 = gates(mixes2);
    const int comb2 = g.op(b * hc * hc, {mixes2});
    const int pre2 = gates(mixes2);
    const int ffn_in = g.same(g.same(g.op(b * e, {y, pre2})));
    const std::int64_t used = s.experts_used;
    const int probs = g.same(g.same(g.op(b * s.experts, {ffn_in})));  // softplus, sqrt
    int chosen = -1;
    if (il < s.hash_layers) {
      chosen = g.op(b * used, {tokens});  // the token's row of ffn_gate_tid2eid
    } else {
      const int biased = g.op(b * s.experts, {probs});
      chosen = g.view(g.op(b * s.experts, {biased}));  // argsort, top k
    }
    const int w = g.op(b * used, {probs, chosen});
    const int sum = g.same(g.op(b, {w}));
    const int weights = g.op(b * used, {g.op(b * used, {w, sum})});  // normed, scaled via views
    const int gate_e = g.op(b * used * s.expert_ffn, {ffn_in, chosen});
    const int up_e = g.op(b * used * s.expert_ffn, {ffn_in, chosen});
    const int act = g.op(b * used * s.expert_ffn, {gate_e, up_e});
    const int down = g.op(b * used * e, {act, chosen});
    const int weighted = g.same(down, {weights});
    int moe = g.op(b * e, {g.view(weighted), g.view(weighted)});
    for (std::int64_t i = 2; i < used; ++i) {
      moe = g.same(moe, {g.view(weighted)});
    }
    const int sg = g.op(b * s.shared_ffn, {ffn_in});
    const int su = g.op(b * s.shared_ffn, {ffn_in});
    const int shared = g.op(b * e, {g.op(b * s.shared_ffn, {sg, su})});
    const int ffn_out = g.same(moe, {shared});
    x = g.op(b * hc * e, {ffn_out, y, post2, comb2});
  }
  const int out_ids = g.input(4 * b);
  const int rows = g.op(b * hc * e, {x, out_ids});  // the output rows
  const int hmix = g.op(b * hc, {g.op(b * hc * e, {rows})});
  const int hpre = g.same(g.same(g.same(g.same(hmix))));
  int cur = g.op(b * e, {rows, hpre});
  for (std::int64_t i = 1; i < hc; ++i) {
    const int part = g.op(b * e, {rows, hpre});
    cur = g.same(cur, {part});
  }
  const int norm = g.same(g.same(cur));
  g.at(norm).output = true;  // t_embd
  const int logits = g.op(b * s.vocab, {norm});
  g.at(logits).output = true;
  return g.take();
}

}  // namespace willfit
