#!/usr/bin/env bash
# Builds the fuzz targets with clang (libFuzzer + ASan + UBSan) in build/fuzz,
# runs each for a bounded time, then replays every saved regression input.
# Fails on any crash, leak, sanitizer report, broken invariant or hang.
#
#   tests/fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]    (default: 60, every target)
#
# New inputs that increase coverage are written to build/fuzz/corpus/<name>
# (not to the repository); a crash leaves crash-* in build/fuzz/artifacts/<name>.
# To keep a finding: copy it to tests/fuzz/regressions/<name>/, fix the bug,
# and add a unit test for it. See README.md, "Fuzzing", for longer runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-60}"
shift || true
root="$PWD"
build="$root/build/fuzz"
jobs="${WILLFIT_FUZZ_JOBS:-1}"

generator=()
if command -v ninja >/dev/null; then
  generator=(-G Ninja)
fi
CXX="${FUZZ_CXX:-clang++}" cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DWILLFIT_FUZZ=ON -DWILLFIT_BUILD_TESTS=OFF -DWILLFIT_BUILD_BENCH=OFF \
  -DWILLFIT_WARNINGS_AS_ERRORS=ON >/dev/null
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
status=0
for name in "${names[@]}"; do
  exe="$build/fuzz/fuzz_$name"
  corpus="$build/corpus/$name"
  artifacts="$build/artifacts/$name"
  mkdir -p "$corpus" "$artifacts"
  echo "== fuzz_$name: ${seconds} s"
  # The seed corpus is read-only input; new finds go to build/fuzz/corpus.
  if ! "$exe" "$corpus" "tests/fuzz/corpus/$name" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -max_len=4096 -artifact_prefix="$artifacts/" -print_final_stats=1 \
      2> "$build/fuzz_$name.log"; then
    echo "fuzz_$name FAILED: see $build/fuzz_$name.log and $artifacts/"
    tail -n 30 "$build/fuzz_$name.log"
    status=1
  else
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb)' "$build/fuzz_$name.log" || true
  fi
  if [ -d "tests/fuzz/regressions/$name" ] && [ -n "$(ls -A "tests/fuzz/regressions/$name")" ]; then
    echo "== fuzz_$name: regressions"
    if ! "$exe" tests/fuzz/regressions/"$name"/* >"$build/fuzz_${name}_regressions.log" 2>&1; then
      echo "fuzz_$name regression FAILED: see $build/fuzz_${name}_regressions.log"
      status=1
    fi
  fi
done
exit "$status"
