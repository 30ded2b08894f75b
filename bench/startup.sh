#!/usr/bin/env bash
# Whole-process start-up of `willfit 13b -p q4 -d 8gb` against a trivial C++
# program built the same way (bench/trivial_main.cpp: same compiler, flags,
# standard library and link mode), and willfit's peak RSS.
#
#   bench/startup.sh [RUNS] [BUILD_DIR]     (default: 300 runs, build/bench)
#
# Targets (issue 10): median start-up within 2x of the trivial program; peak
# RSS under 16 MB. Prints the figures and the ratios; exits 1 if a target is
# missed. Builds a Release configuration in BUILD_DIR unless it exists.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-300}"
build="${2:-build/bench}"
generator=()
if command -v ninja >/dev/null; then
  generator=(-G Ninja)
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DWILLFIT_BUILD_TESTS=OFF \
    -DWILLFIT_BUILD_BENCH=ON >/dev/null
fi
cmake --build "$build" -j1 --target willfit willfit_trivial willfit_startup_timer >/dev/null
timer="$build/bench/willfit_startup_timer"

# Warm the page cache, then run the two in turn (trivial, willfit, trivial,
# ...): a change in the machine's load reaches both alike. (Timing each in a
# block of its own let the load drift between blocks: on a shared 2-core VM
# the same build measured 1.73x and 2.06x in two runs that way, 1.5-1.6x
# interleaved.)
"$timer" 20 "$build/bench/willfit_trivial" --vs "$build/willfit" 13b -p q4 -d 8gb >/dev/null
out=$("$timer" "$runs" "$build/bench/willfit_trivial" --vs "$build/willfit" 13b -p q4 -d 8gb |
  sed -E 's/[a-z_]+=//g')
read -r t tm trss < <(sed -n 1p <<<"$out")
read -r w wm wrss < <(sed -n 2p <<<"$out")
pair=$(sed -n 3p <<<"$out")

awk -v t="$t" -v w="$w" -v tr="$trss" -v wr="$wrss" -v n="$runs" -v tm="$tm" -v wm="$wm" \
    -v pair="$pair" '
BEGIN {
  ratio = w / t
  rss_mb = wr * 1024 / 1e6
  printf "runs per program     %d (interleaved)\n", n
  printf "trivial C++ program  median %6d us  min %6d us  peak RSS %6d KiB\n", t, tm, tr
  printf "willfit 13b -p q4 -d 8gb  median %6d us  min %6d us  peak RSS %6d KiB\n", w, wm, wr
  printf "start-up ratio       %.2fx of the medians (target <= 2x); median of run-by-run ratios %.2fx\n", ratio, pair
  printf "peak RSS             %.2f MB = %.2f MiB (target < 16 MB)\n", rss_mb, wr / 1024
  exit (ratio <= 2.0 && rss_mb < 16.0) ? 0 : 1
}'
