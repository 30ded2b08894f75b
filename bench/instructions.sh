#!/usr/bin/env bash
# Instructions per estimate, counted by valgrind's callgrind: a figure that
# does not move with the machine's load (bench_estimate's times on a shared VM
# move by a third between runs). Each case runs 1000 and 3000 estimates; the
# difference over 2000 leaves out start-up and resolving the question.
#
#   bench/instructions.sh [BUILD_DIR]     (default: build/bench; needs valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/bench}"
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind" >&2; exit 2; }
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DWILLFIT_BUILD_TESTS=OFF \
    -DWILLFIT_BUILD_BENCH=ON >/dev/null
fi
cmake --build "$build" -j1 --target willfit_estimate_loop >/dev/null
loop="$build/bench/willfit_estimate_loop"
count() {  # N MODEL PRECISION DEVICES -> instructions
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$loop" "$@" 2>&1 |
    sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
while IFS='|' read -r model precision devices; do
  a=$(count 1000 "$model" "$precision" "$devices")
  b=$(count 3000 "$model" "$precision" "$devices")
  printf '%-40s %7d instructions per estimate\n' "$model -p $precision -d \"$devices\"" \
    $(( (b - a) / 2000 ))
done <<'CASES'
13b|q4|8gb
7b|q4|24gb
llama-3.1-70b|q4_k_m|2x rtx 3090
CASES
