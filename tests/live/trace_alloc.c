// trace_alloc: where a real llama.cpp puts every node of its graph in the
// compute buffer. Not built by CMake (it links node-llama-cpp's own
// libllama); a diagnosis tool for the replay in
// lib/willfit/inference/ggml_alloc.cpp (docs/live-llamacpp.md, twelfth run).
//
// It loads FILE, makes a context of CTX cells with flash attention on or off
// and a micro-batch of TOKENS (n_batch = n_ubatch = TOKENS, one sequence, no
// full-size SWA cache, as run_llama.mjs), and decodes TOKENS tokens with every
// output requested. llama.cpp's eval callback is asked, node by node, before
// each one runs; in that ask phase the tool writes one line per node to OUT:
//   N <ptr> <op> <name> off=<offset in its buffer> nb=<bytes> vs=<view source>
//     fl=<flags> buf=<buffer name> | <source ptr> <name> off= nb= vs= fl= op= buf= | ...
// and then aborts the compute. When the decode graph fits the one reserved at
// context creation (same node count, no node larger), ggml-alloc keeps the
// reserved addresses, so the offsets are those of the reserved layout (the
// sizes are the decode graph's: a graph whose cells depend on the cache's fill
// shows smaller scores than it reserved).
//
// Build and run (B: node-llama-cpp's bins/linux-x64 folder; the headers of
// the llama.cpp commit it bundles):
//   gcc -O1 -o trace_alloc tests/live/trace_alloc.c -I$LLAMA/include
//       -I$LLAMA/ggml/include $B/libllama.v0.4.0.so $B/libggml-base.so
//       $B/libggml.v0.4.0.so -Wl,-rpath,$B
//   NLC_BINS=$B flock /tmp/willfit-live.lock ./trace_alloc FILE CTX FLASH TOKENS OUT [KV]
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-backend.h"
#include "ggml.h"
#include "llama.h"

static FILE* out;
static int stop;

static long long offset_in_buffer(const struct ggml_tensor* t) {
  if (t->data == NULL || t->buffer == NULL) {
    return -1;
  }
  return (long long)((const char*)t->data - (const char*)ggml_backend_buffer_get_base(t->buffer));
}

static const char* buffer_name(const struct ggml_tensor* t) {
  return t->buffer ? ggml_backend_buffer_name(t->buffer) : "-";
}

static bool on_eval(struct ggml_tensor* t, bool ask, void* user) {
  (void)user;
  if (!ask) {  // a node has run: the layout is written, stop
    stop = 1;
    return false;
  }
  if (stop) {
    return false;
  }
  fprintf(out, "N %p %s %s off=%lld nb=%zu vs=%p fl=%d buf=%s", (void*)t, ggml_op_desc(t), t->name,
          offset_in_buffer(t), ggml_nbytes(t), (void*)t->view_src, t->flags, buffer_name(t));
  for (int j = 0; j < GGML_MAX_SRC; j++) {
    const struct ggml_tensor* s = t->src[j];
    if (s != NULL) {
      fprintf(out, " | %p %s off=%lld nb=%zu vs=%p fl=%d op=%s buf=%s", (const void*)s, s->name,
              offset_in_buffer(s), ggml_nbytes(s), (void*)s->view_src, s->flags, ggml_op_desc(s),
              buffer_name(s));
    }
  }
  fprintf(out, "\n");
  return false;  // not needed: the scheduler asks about the next node
}

static bool on_abort(void* user) {
  (void)user;
  return stop != 0;
}

int main(int argc, char** argv) {
  if (argc != 6 && argc != 7) {
    fprintf(stderr, "usage: trace_alloc FILE CTX FLASH(0|1) TOKENS OUT [KV_TYPE: f16|q8_0]\n");
    return 2;
  }
  const int n_ctx = atoi(argv[2]);
  const int flash = atoi(argv[3]);
  const int n_tokens = atoi(argv[4]);
  // the K and V cache type (run_llama.mjs's kv column): q8_0 writes and reads
  // the cache through a Hadamard rotation where the heads allow it
  const char* kv = argc == 7 ? argv[6] : "f16";
  const int q8 = strcmp(kv, "q8_0") == 0;
  out = fopen(argv[5], "w");
  if (out == NULL || n_ctx <= 0 || n_tokens <= 0 || (!q8 && strcmp(kv, "f16") != 0)) {
    fprintf(stderr, "trace_alloc: bad arguments\n");
    return 2;
  }
  llama_backend_init();
  ggml_backend_load_all_from_path(getenv("NLC_BINS"));
  struct llama_model_params mp = llama_model_default_params();
  mp.use_extra_bufts = false;  // no repacked weights: only the compute buffer matters here
  mp.n_gpu_layers = 0;
  struct llama_model* model = llama_model_load_from_file(argv[1], mp);
  if (model == NULL) {
    fprintf(stderr, "trace_alloc: cannot load %s\n", argv[1]);
    return 1;
  }
  struct llama_context_params cp = llama_context_default_params();
  cp.n_ctx = (uint32_t)n_ctx;
  cp.n_batch = (uint32_t)n_tokens;
  cp.n_ubatch = (uint32_t)n_tokens;
  cp.n_seq_max = 1;
  cp.swa_full = false;
  cp.type_k = q8 ? GGML_TYPE_Q8_0 : GGML_TYPE_F16;
  cp.type_v = q8 ? GGML_TYPE_Q8_0 : GGML_TYPE_F16;
  cp.flash_attn_type = flash ? LLAMA_FLASH_ATTN_TYPE_ENABLED : LLAMA_FLASH_ATTN_TYPE_DISABLED;
  cp.cb_eval = on_eval;
  cp.abort_callback = on_abort;
  cp.n_threads = 1;
  cp.n_threads_batch = 1;
  struct llama_context* ctx = llama_init_from_model(model, cp);
  if (ctx == NULL) {
    fprintf(stderr, "trace_alloc: cannot make the context\n");
    return 1;
  }
  struct llama_batch batch = llama_batch_init(n_tokens, 0, 1);
  for (int i = 0; i < n_tokens; i++) {
    batch.token[i] = 1 + i;
    batch.pos[i] = i;
    batch.n_seq_id[i] = 1;
    batch.seq_id[i][0] = 0;
    batch.logits[i] = 1;
  }
  batch.n_tokens = n_tokens;
  const int rc = llama_decode(ctx, batch);
  fprintf(stderr, "trace_alloc: decode returned %d\n", rc);
  fclose(out);
  llama_batch_free(batch);
  llama_free(ctx);
  llama_model_free(model);
  return 0;
}
