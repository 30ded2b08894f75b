#!/usr/bin/env bash
# A GGUF without general.file_type (many converters leave it out) is still a
# llama.cpp file (CTest GgufFile.WithoutFileType). make_gguf writes the
# file with llama-quant.cpp's recipe for the type, independently of willfit,
# and --no-file-type leaves the key out: willfit must name the precision from
# the tensor table alone and default to llama.cpp.
#
# Usage: tests/live/no_file_type.sh MAKE_GGUF WILLFIT WORKDIR
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 MAKE_GGUF WILLFIT WORKDIR" >&2
  exit 2
fi
make_gguf=$1
willfit=$2
work=$3
mkdir -p "$work"
failed=0
# MODEL TYPE: the precision willfit must name. A tied Llama, an untied
# Mistral and a MoE cover the recipe's output, attn_v/ffn_down and expert rules.
for row in "llama-3.2-1b q4_k_m Q4_K_M" "mistral-7b-v0.3 q4_k_m Q4_K_M" \
           "qwen3-30b-a3b q4_k_m Q4_K_M" "llama-3.2-1b q8_0 Q8_0" "gemma-2-2b f16 F16"; do
  read -r model type want <<<"$row"
  file="$work/$model-$type-no-file-type.gguf"
  "$make_gguf" "$model" "$type" "$file" --no-file-type >/dev/null
  set +e
  out=$(NO_COLOR=1 "$willfit" "$file" -d 24gb 2>&1)
  set -e
  head=$(printf '%s\n' "$out" | head -n 1)
  rm -f "$file"
  if [[ $head != *" at $want on "*" with llama.cpp:"* ]]; then
    echo "FAILED: $model $type without general.file_type: want '$want ... with llama.cpp', got: $head" >&2
    failed=1
  else
    echo "ok: $model $type: $head"
  fi
done
exit $failed
