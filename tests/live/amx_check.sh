#!/usr/bin/env bash
# The AMX check (docs/live-llamacpp.md, "AMX"): writes synthetic GGUF files,
# loads each with llama.cpp's AMX build (amx_load.c) and compares the AMX and
# CPU_REPACK buffers it logs with willfit's cpu_amx and cpu_repack terms for
# the same file (--cpu-features amx). Needs an x86-64 CPU with AVX-512.
#
# Usage: tests/live/amx_check.sh MAKE_GGUF WILLFIT AMX_LOAD WORKDIR ["MODEL TYPE" ...]
#   (default: a file of each kind: tied output, biases, MLA's batched
#   products, experts, narrow rows, per-layer embeddings, an encoder)
# NLC_BINS: node-llama-cpp's bins/linux-x64 folder (default: the one
# scripts/install-deps.sh installs). Files are deleted after their row.
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 MAKE_GGUF WILLFIT AMX_LOAD WORKDIR [\"MODEL TYPE\" ...]" >&2
  exit 2
fi
make_gguf=$1 willfit=$2 amx_load=$3 work=$4
shift 4
prefix=${WILLFIT_LIVE_PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/willfit-live}
export NLC_BINS=${NLC_BINS:-$prefix/node_modules/@node-llama-cpp/linux-x64/bins/linux-x64}
rows=("$@")
if [ ${#rows[@]} -eq 0 ]; then
  rows=("llama-3.2-1b f16" "llama-3.2-1b q8_0" "llama-3.2-1b q4_k_m" "gemma-2-2b q8_0"
        "qwen2.5-7b q4_k_m" "lfm2-350m q4_k_m" "qwen3.5-0.8b q4_k_m" "olmoe-1b-7b q4_k_m"
        "deepseek-v2-lite q4_k_m" "gpt-oss-20b q4_k_m" "gemma-3n-e2b q4_k_m"
        "nomic-embed-text-v1.5 q8_0" "granite-4.0-h-micro q4_k_m")
fi
mkdir -p "$work"
mib() { sed -n "s/.* $1 model buffer size = *\([0-9.]*\) MiB.*/\1/p" "$2" | head -1; }
failed=0
echo "| model | type | llama.cpp AMX MiB | willfit | llama.cpp CPU_REPACK MiB | willfit |"
echo "|---|---|---|---|---|---|"
for row in "${rows[@]}"; do
  read -r model type <<<"$row"
  file=$work/$model-$type.gguf
  log=$work/$model-$type.log
  "$make_gguf" "$model" "$type" "$file" >/dev/null
  if ! flock /tmp/willfit-live.lock "$amx_load" "$file" >"$log" 2>&1; then
    echo "amx_check: $model $type: llama.cpp failed (see $log)" >&2
    failed=1
    rm -f "$file"
    continue
  fi
  amx=$(mib AMX "$log")
  repack=$(mib CPU_REPACK "$log")
  ours=$("$willfit" "$file" --device "ddr5-5600-dual 1024gb" --context 512 --cpu-features amx --json |
    node -e 'const j = JSON.parse(require("fs").readFileSync(0, "utf8"));
      const t = (k) => (j.memory.terms.find((x) => x.key === k)?.bytes ?? 0) / 1048576;
      console.log(t("cpu_amx").toFixed(2), t("cpu_repack").toFixed(2));')
  read -r our_amx our_repack <<<"$ours"
  echo "| $model | $type | ${amx:-0} | $our_amx | ${repack:-0} | $our_repack |"
  # the log rounds to 0.01 MiB
  if ! awk -v a="${amx:-0}" -v b="$our_amx" -v c="${repack:-0}" -v d="$our_repack" \
    'BEGIN { exit !((a - b) ^ 2 <= 0.0001 && (c - d) ^ 2 <= 0.0001) }'; then
    echo "amx_check: $model $type: willfit's buffers differ from llama.cpp's" >&2
    failed=1
  fi
  rm -f "$file"
done
exit $failed
