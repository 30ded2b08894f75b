// PLaMo 2's Mamba mixer (llama.cpp `plamo2`), marked Attention::mamba = 3:
// the formulas its readers and its weight layout share. Pure; no I/O.
//
// The mixer (llama.cpp src/models/plamo2.cpp at 80fb11ac): Mamba-1's in_proj
// (z and x, interleaved per head), a convolution without a bias and x_proj to
// dt, B and C (each RMS-normed), but dt of max(64, hidden / 16) values
// projected to one step per head (Attention::ssm_heads heads; the GGUF's
// ssm.time_step_rank), A and D one value a head, as Mamba-2's scan; no
// groups. Its attention layers keep RoPE and norm Q and K per head; each
// mixer's and MLP's output is RMS-normed again before its residual add.
#pragma once

#include <cstdint>

namespace willfit {

// PLaMo 2's dt width (plamo2.cpp: dt_dim = max(64, n_embd / 16)).
std::int64_t plamo2_dt_dim(std::int64_t hidden);

// Weights of one PLaMo 2 mixer of d_inner channels in `heads` heads, d_state
// state values and conv_kernel taps; model.cpp gives the layout it counts.
std::int64_t plamo2_mixer_params(std::int64_t hidden, std::int64_t d_inner, std::int64_t d_state,
                                 std::int64_t conv_kernel, std::int64_t heads);

}  // namespace willfit
