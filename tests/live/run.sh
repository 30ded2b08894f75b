#!/usr/bin/env bash
# The live llama.cpp check (tests/live/README.md): writes synthetic GGUF files,
# loads each in a real llama.cpp on the CPU, and compares willfit's terms with
# what llama.cpp logged and with the peer estimator.
#
# Usage: [WILLFIT_LIVE_ONLY=REGEX] [WILLFIT_LIVE_ALL=1] tests/live/run.sh MAKE_GGUF WILLFIT WORKDIR [ci|full]
#   ci   (CTest Live.LlamaCpp): a representative subset, a few minutes
#   full: every model x F16/Q8_0/Q4_K_M x contexts 512/4096/32768 x flash
#         attention off/on x KV f16/q8_0 (a quantised V cache needs flash
#         attention, so three KV/flash pairs per context)
# node-llama-cpp comes from WILLFIT_LIVE_PREFIX, default
# ${XDG_CACHE_HOME:-~/.cache}/willfit-live (scripts/install-deps.sh installs it).
# A missing package or Node.js is a failure, never a skip.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 MAKE_GGUF WILLFIT WORKDIR [ci|full]" >&2
  exit 2
fi
make_gguf=$1
willfit=$2
work=$3
mode=${4:-ci}
here=$(cd "$(dirname "$0")" && pwd)
export WILLFIT_LIVE_PREFIX=${WILLFIT_LIVE_PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/willfit-live}

if ! command -v node >/dev/null; then
  echo "live: FAILED: node is not installed (run scripts/install-deps.sh)" >&2
  exit 1
fi
if [ ! -f "$WILLFIT_LIVE_PREFIX/node_modules/node-llama-cpp/package.json" ]; then
  echo "live: FAILED: node-llama-cpp is not installed in $WILLFIT_LIVE_PREFIX (run scripts/install-deps.sh)" >&2
  exit 1
fi

case $mode in
  ci)
    # One file per kind the check has to cover: a large vocabulary (Llama 3),
    # a 32k vocabulary (Mistral: the MLP, not the logits, is widest), sliding
    # windows (Gemma-2, micro-batch 513) and routed experts (Qwen3-30B-A3B,
    # the largest load: about 100 s); the three file types between them.
    # Two small files of the kinds added since: Gemma 3's 5:1 window
    # pattern, and LFM2's short convolutions beside attention (a hybrid: its
    # recurrent state is checked byte for byte); about 20 s together. And
    # Granite 4.0 H-Micro, the smallest Mamba hybrid (Mamba-2 beside
    # attention without RoPE; 1.9 GB): about 25 s. Falcon-H1's Mamba-2 mixer
    # beside every layer's attention (KV and state on every layer; a 300 MB
    # file, about 10 s). DeepSeek Sparse Attention: GLM-5.2 reduced to 4
    # layers (glm-dsa: MLA, the lightning indexer, a shared indexer layer,
    # routed experts repacked; a 2.9 GB file, about 20 s).
    files=("llama-3.2-1b q8_0" "mistral-7b-v0.3 q4_k_m" "gemma-2-2b f16" "qwen3-30b-a3b q4_k_m"
           "gemma-3-1b q8_0" "lfm2-350m q4_k_m" "granite-4.0-h-micro q4_k_m" "falcon-h1-0.5b q4_k_m"
           "glm-5.2-r4 q4_k_m")
    runs='{"context":512,"flash":false,"kv":"f16"},{"context":4096,"flash":true,"kv":"q8_0"},{"context":32768,"flash":true,"kv":"f16"}'
    ;;
  full)
    # A model's fourth --list column names the file types a 24 GB machine
    # cannot load without swap ("q4_k_m: why", or several: "q8_0 q4_k_m:
    # why"): those are left out, and say so, unless WILLFIT_LIVE_ALL=1 (a
    # machine with the RAM or swap for them; run_llama.mjs still skips, and
    # reports, a context that would not fit in RAM + swap).
    files=()
    while IFS=$'\t' read -r m _arch _source skip; do
      for t in f16 q8_0 q4_k_m; do
        if [[ -z ${WILLFIT_LIVE_ALL:-} && -n $skip && " ${skip%%:*} " == *" $t "* ]]; then
          echo "live: left out $m $t (${skip#*: })" >&2
          continue
        fi
        files+=("$m $t")
      done
    done < <("$make_gguf" --list)
    runs=""
    for c in 512 4096 32768; do
      runs+="${runs:+,}{\"context\":$c,\"flash\":false,\"kv\":\"f16\"},{\"context\":$c,\"flash\":true,\"kv\":\"f16\"},{\"context\":$c,\"flash\":true,\"kv\":\"q8_0\"}"
    done
    ;;
  *)
    echo "live: unknown mode '$mode' (ci or full)" >&2
    exit 2
    ;;
esac

# WILLFIT_LIVE_ONLY (an extended regex over "model type") narrows the files.
if [ -n "${WILLFIT_LIVE_ONLY:-}" ]; then
  kept=()
  for entry in "${files[@]}"; do
    if [[ $entry =~ $WILLFIT_LIVE_ONLY ]]; then
      kept+=("$entry")
    fi
  done
  files=("${kept[@]}")
fi

mkdir -p "$work"
measured="$work/measured-$mode.jsonl"
: >"$measured"
start=$(date +%s)
for entry in "${files[@]}"; do
  read -r model type <<<"$entry"
  file="$work/$model-$type.gguf"
  # Files are sparse: writing one costs its header (the vocabulary), not its size.
  t0=$(date +%s)
  info=$("$make_gguf" "$model" "$type" "$file")
  echo "live: $model $type ($(( $(stat -c %s "$file") / 1024 / 1024 )) MiB, sparse)" >&2
  printf '{"files":[%s],"runs":[%s]}\n' "$info" "$runs" >"$work/config.json"
  # One file per process: the page cache holds at most one model at a time.
  node "$here/run_llama.mjs" "$work/config.json" >>"$measured" 2>"$work/llama-$model-$type.log" || {
    echo "live: FAILED: llama.cpp run for $model $type (log: $work/llama-$model-$type.log)" >&2
    tail -5 "$work/llama-$model-$type.log" >&2
    exit 1
  }
  echo "live:   loaded and measured in $(( $(date +%s) - t0 )) s" >&2
done
echo "live: measured in $(( $(date +%s) - start )) s" >&2
node "$here/compare.mjs" "$willfit" "$measured"
# Passed: the files go (a failure keeps them, with the logs, for a look).
for entry in "${files[@]}"; do
  read -r model type <<<"$entry"
  rm -f "$work/$model-$type.gguf"
done
