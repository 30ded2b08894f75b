#!/usr/bin/env bash
# Builds the fuzz targets with clang (libFuzzer + ASan + UBSan) in build/fuzz,
# runs each for a bounded time, then replays every saved regression input.
# Fails on any crash, leak, sanitizer report, broken invariant or hang.
#
#   tests/fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]    (default: 60, every target)
#
# 0 seconds builds and replays the regressions without fuzzing. tests/fuzz/deep.sh
# uses that for its two builds: WILLFIT_FUZZ_BUILD (default build/fuzz),
# WILLFIT_FUZZ_FLAGS (default -O1 -gline-tables-only) and WILLFIT_FUZZ_SANITIZERS
# (default address,undefined) choose another build.
# WILLFIT_FUZZ_JOBS (default 1) is the number of build jobs and of targets
# fuzzed at the same time.
#
# New inputs that increase coverage are written to build/fuzz/corpus/<name>
# (not to the repository); a crash leaves crash-* in build/fuzz/artifacts/<name>.
# To keep a finding: copy it to tests/fuzz/regressions/<name>/, fix the bug,
# and add a unit test for it. See docs/development.md, "Fuzzing", for longer runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-60}"
shift || true
root="$PWD"
build="$root/${WILLFIT_FUZZ_BUILD:-build/fuzz}"
jobs="${WILLFIT_FUZZ_JOBS:-1}"

generator=()
if command -v ninja >/dev/null; then
  generator=(-G Ninja)
fi
CXX="${FUZZ_CXX:-clang++}" cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS_RELEASE="${WILLFIT_FUZZ_FLAGS:--O1 -gline-tables-only}" \
  -DWILLFIT_FUZZ=ON -DWILLFIT_FUZZ_SANITIZERS="${WILLFIT_FUZZ_SANITIZERS:-address,undefined}" \
  -DWILLFIT_BUILD_TESTS=OFF -DWILLFIT_BUILD_BENCH=OFF -DWILLFIT_WARNINGS_AS_ERRORS=ON \
  -DWILLFIT_PCH="${WILLFIT_FUZZ_PCH:-ON}" >/dev/null
cmake --build "$build" -j"$jobs"

if [ "$#" -gt 0 ]; then
  names=("$@")
else
  names=()
  for source in tests/fuzz/fuzz_*.cpp; do
    name="$(basename "$source" .cpp)"
    names+=("${name#fuzz_}")
  done
fi

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# One target: fuzz for the given time, then replay its saved regressions.
# Prints a short report; returns non-zero on any failure.
fuzz_one() {
  local name="$1" status=0
  local exe="$build/fuzz/fuzz_$name"
  local corpus="$build/corpus/$name"
  local artifacts="$build/artifacts/$name"
  mkdir -p "$corpus" "$artifacts"
  # The seed corpus is read-only input; new finds go to build/fuzz/corpus.
  if [ "$seconds" = 0 ]; then
    :
  elif ! "$exe" "$corpus" "tests/fuzz/corpus/$name" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -max_len=4096 -artifact_prefix="$artifacts/" -print_final_stats=1 \
      2> "$build/fuzz_$name.log"; then
    echo "fuzz_$name FAILED: see $build/fuzz_$name.log and $artifacts/"
    tail -n 30 "$build/fuzz_$name.log"
    status=1
  else
    echo "== fuzz_$name: ${seconds} s, $(grep -E '^stat::number_of_executed_units' "$build/fuzz_$name.log" |
      awk '{print $2}') runs, peak RSS $(grep -E '^stat::peak_rss_mb' "$build/fuzz_$name.log" |
      awk '{print $2}') MB"
  fi
  if [ -d "tests/fuzz/regressions/$name" ] && [ -n "$(ls -A "tests/fuzz/regressions/$name")" ]; then
    if ! "$exe" tests/fuzz/regressions/"$name"/* >"$build/fuzz_${name}_regressions.log" 2>&1; then
      echo "fuzz_$name regression FAILED: see $build/fuzz_${name}_regressions.log"
      status=1
    else
      echo "== fuzz_$name: regressions replayed"
    fi
  fi
  return "$status"
}

# WILLFIT_FUZZ_JOBS targets at a time (each is one process on one core).
status=0
pids=()
for name in "${names[@]}"; do
  fuzz_one "$name" &
  pids+=("$!")
  if [ "${#pids[@]}" -ge "$jobs" ]; then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do
  wait "$pid" || status=1
done
exit "$status"
