// amx_load: what a real llama.cpp puts in its AMX buffer, on a CPU without
// AMX. Not built by CMake (it links node-llama-cpp's own libllama, like
// trace_alloc.c); tests/live/amx_check.sh runs it over synthetic files and
// compares willfit --cpu-features amx (docs/live-llamacpp.md, "AMX").
//
// node-llama-cpp ships llama.cpp's CPU backend in variants, one of them
// built for Sapphire Rapids with AMX (libggml-cpu-sapphirerapids.so). The
// loader skips a variant the CPU cannot run (its ggml_backend_score is 0),
// so this tool opens that one itself and registers it. Its AMX buffer type
// exists only when the kernel grants the tile state (amx.cpp ggml_amx_init:
// arch_prctl ARCH_REQ_XCOMP_PERM); that one request is answered yes here,
// every other system call goes through. Loading and making a context run no
// tile instruction: the loader picks each weight's buffer (supports_op) and
// the AMX buffer packs the weights with AVX-512 (an AVX-512 CPU is needed);
// with CTX a context's graph is reserved, never computed. llama.cpp logs the buffers
// ("AMX model buffer size", "CPU_REPACK model buffer size") as it would on a
// Sapphire Rapids machine.
//
// Build and run (B: node-llama-cpp's bins/linux-x64 folder; LLAMA: the
// headers of the llama.cpp commit it bundles, a clone of its gitRelease.bundle):
//   gcc -O1 -o amx_load tests/live/amx_load.c -I$LLAMA/include -I$LLAMA/ggml/include
//       $B/libllama.v0.4.0.so $B/libggml-base.so $B/libggml.v0.4.0.so -ldl
//       -Wl,-rpath,$B -rdynamic
//   NLC_BINS=$B ./amx_load FILE [CTX]   (the model only; with CTX a context too)
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>

#include "ggml-backend.h"
#include "llama.h"

enum { kArchReqXcompPerm = 0x1023 };

// Exported (-rdynamic), so the backend's call to syscall() lands here.
long syscall(long n, long a, long b, long c, long d, long e, long f) {
  if (n == SYS_arch_prctl && a == kArchReqXcompPerm) {
    return 0;
  }
  long (*next)(long, long, long, long, long, long, long) =
      (long (*)(long, long, long, long, long, long, long))dlsym(RTLD_NEXT, "syscall");
  return next(n, a, b, c, d, e, f);
}

int main(int argc, char** argv) {
  const char* bins = getenv("NLC_BINS");
  if (argc < 2 || bins == NULL) {
    fprintf(stderr, "usage: NLC_BINS=DIR amx_load FILE [CTX]\n");
    return 2;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/libggml-cpu-sapphirerapids.so", bins);
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    fprintf(stderr, "amx_load: %s\n", dlerror());
    return 1;
  }
  ggml_backend_reg_t (*init)(void) = (ggml_backend_reg_t(*)(void))dlsym(lib, "ggml_backend_init");
  if (init == NULL) {
    fprintf(stderr, "amx_load: no ggml_backend_init in %s\n", path);
    return 1;
  }
  llama_backend_init();
  ggml_backend_register(init());
  struct llama_model_params mp = llama_model_default_params();
  mp.n_gpu_layers = 0;
  struct llama_model* model = llama_model_load_from_file(argv[1], mp);
  if (model == NULL) {
    fprintf(stderr, "amx_load: cannot load %s\n", argv[1]);
    return 1;
  }
  if (argc > 2) {
    // A context of CTX cells: the graph is reserved with the weights where
    // the loader put them (a DeepSeek-V2 file with 3-D k_b/v_b aborts here:
    // no backend runs its batched products from the AMX buffer).
    struct llama_context_params cp = llama_context_default_params();
    cp.n_ctx = (uint32_t)atoi(argv[2]);
    cp.n_seq_max = 1;
    struct llama_context* ctx = llama_init_from_model(model, cp);
    if (ctx == NULL) {
      fprintf(stderr, "amx_load: cannot make the context\n");
      return 1;
    }
    llama_free(ctx);
  }
  llama_model_free(model);
  return 0;
}
