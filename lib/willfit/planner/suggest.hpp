// "To make it fit": when a model does not fit whole on the devices, the
// changes that would help, each re-run through the same estimator with its new
// total and verdict. Pure; builds no text beyond one line per change.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "willfit/inference/estimate.hpp"
#include "willfit/speed/speed.hpp"

namespace willfit {

// One change to the question and what the estimator says after it.
struct Suggestion {
  std::string change;     // what changes, for people: "quantised KV cache (q8_0)"
  std::string args;       // the command-line change: "--kv-type q8_0", or a new MODEL
  Bytes total_bytes = 0;  // the estimate's total after the change
  Verdict verdict = Verdict::NoFit;
  bool tight = false;  // it fits only within the estimate's error band (Estimate::tight)
  // A lower precision as a GGUF on llama.cpp, offered beside the formats of
  // the runtime the question defaulted to (transformers for a BF16 model).
  bool other_runtime = false;
  std::optional<double> decode_tokens_per_s;  // offload: the speed it leaves (when estimable)
  std::string tradeoff;       // what the user gives up, in words: "runs slower (layers in RAM)"
  std::string line;           // the text line: "--kv-type q8_0: ..."
  bool new_hardware = false;  // hardware to buy: a second card, or other GPUs (other_devices)
  // The published KL divergence of the precision it changes to (quality.hpp),
  // when it changes the precision to a type that has one: what ranks it.
  std::optional<double> kld;
  // The bits per weight of the precision it changes to (0: it keeps the
  // precision): what ranks a GGUF type against another runtime's format.
  double precision_bits = 0;
  bool same_memory_offload = false;  // part on the CPU of one unified-memory device
  // Under Ollama (the pasted command keeps --runtime ollama): the tag `ollama
  // pull` fetches for the precision or model the change names ("" when the
  // catalogue knows none), and how Ollama takes the change's other flags,
  // which are willfit's and llama.cpp's: num_ctx for --context, the server's
  // OLLAMA_KV_CACHE_TYPE and OLLAMA_FLASH_ATTENTION ("" when none applies).
  std::string ollama_tag;
  std::string ollama_setting;
};

// What the suggestions may draw on beyond the query itself.
struct SuggestInputs {
  // Catalogue models of the query model's family with fewer parameters,
  // largest first (the app looks them up; empty for a bare size or a file).
  // Called only when the model does not fit, so a fitting answer reads no
  // catalogue.
  std::function<std::vector<Model>()> smaller_models;
  SpeedSettings speed;  // for the speed an offload leaves
  // The GPUs of the device database (the app reads them), for "other
  // hardware": a larger card or two of one, when no change on the user's own
  // GPUs keeps the model and fits whole. Called only then.
  std::function<std::vector<Device>()> other_devices;
};

// The ranked changes, empty when the estimate fits or no device is given.
// Ranking: what the user can do with the devices they have comes first, and
// hardware to buy only after it, as an alternative. First the changes that
// keep the model and fit whole on the user's devices, in the order of least
// harm: flash attention (free), a q8_0 KV cache (near lossless), the highest
// lower precision that fits, the longest context that fits; then a smaller
// model of the family; then offloading layers to system RAM (costs speed);
// then a second identical GPU and other hardware (cost money). When no
// change on the user's own devices keeps the model and fits whole, combined
// changes are added: a GGUF type on llama.cpp, with a shorter context if it
// must; a GGUF type with layers in RAM (Q4_K_M, else the best lower one the
// RAM holds: Q3_K_M, Q2_K...), when the precision asked does not offload;
// and other hardware (the cheapest one or two of a card that holds it at
// the asked precision, and at Q8_0), only cards the runtime of the pasted
// command runs on (runs_on in suggest.cpp: no TPU or Gaudi; for
// transformers and vLLM, cards of the user's own vendor). On one
// unified-memory device (a Mac, a Jetson, Strix Halo) a lower precision whose
// offload holds in the same memory is also offered, always (its CPU side reads
// the same memory, so it costs little speed), and ranks by quality with the
// lower precisions that fit whole: Q3_K_M with some layers on the CPU before
// IQ2_M on the GPU alone. Each candidate is one estimate (the context: a
// binary search, about 12), so the work is bounded.
std::vector<Suggestion> suggest_changes(const InferenceQuery& query, const Estimate& estimate,
                                        const SuggestInputs& inputs = {});

}  // namespace willfit
