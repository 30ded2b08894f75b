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

measure() {  # prints "median_us min_us max_rss_kib"
  "$timer" "$runs" "$@" | sed -E 's/[a-z_]+=//g'
}
# Warm the page cache, then alternate so drift in machine load hits both.
measure "$build/bench/willfit_trivial" >/dev/null
read -r t1 tmin1 trss < <(measure "$build/bench/willfit_trivial")
read -r w1 wmin1 wrss < <(measure "$build/willfit" 13b -p q4 -d 8gb)
read -r t2 tmin2 _ < <(measure "$build/bench/willfit_trivial")
read -r w2 wmin2 _ < <(measure "$build/willfit" 13b -p q4 -d 8gb)
trivial=$(( (t1 + t2) / 2 ))
willfit=$(( (w1 + w2) / 2 ))

awk -v t="$trivial" -v w="$willfit" -v tr="$trss" -v wr="$wrss" -v n="$runs" \
    -v tm="$(( tmin1 < tmin2 ? tmin1 : tmin2 ))" -v wm="$(( wmin1 < wmin2 ? wmin1 : wmin2 ))" '
BEGIN {
  ratio = w / t
  rss_mb = wr * 1024 / 1e6
  printf "runs per program     %d (x2, interleaved)\n", n
  printf "trivial C++ program  median %6d us  min %6d us  peak RSS %6d KiB\n", t, tm, tr
  printf "willfit 13b -p q4 -d 8gb  median %6d us  min %6d us  peak RSS %6d KiB\n", w, wm, wr
  printf "start-up ratio       %.2fx (target <= 2x)\n", ratio
  printf "peak RSS             %.2f MB = %.2f MiB (target < 16 MB)\n", rss_mb, wr / 1024
  exit (ratio <= 2.0 && rss_mb < 16.0) ? 0 : 1
}'
