#!/usr/bin/env bash
# Deep fuzzing: many inputs per target, fast. run.sh's build has AddressSanitizer,
# which makes every input several times slower; ten million inputs per parser
# need the speed. So this script:
#   1. builds the targets with UBSan alone (-fsanitize=fuzzer,undefined), -O2 and
#      -D_GLIBCXX_ASSERTIONS (bounds-checked std::vector, std::string, ...) in
#      build/fuzz-deep;
#   2. runs each target for RUNS inputs (-runs=), one target at a time, new
#      inputs going to build/fuzz-deep/corpus/<name> (the seeds in
#      tests/fuzz/corpus/<name> are read, never written: libFuzzer writes into
#      the FIRST corpus folder it is given);
#   3. builds run.sh's ASan + UBSan build (build/fuzz) and replays each new
#      corpus and tests/fuzz/regressions/<name> under it, so a memory error
#      that UBSan and the assertions let through is still caught;
#   4. merges the seeds and the new corpus into the minimum that keeps the
#      coverage, in build/fuzz-deep/merged/<name> (copy it over
#      tests/fuzz/corpus/<name> to make it the seeds).
# Prints, per target, libFuzzer's last status line (inputs, cov:, ft:, corpus).
#
#   tests/fuzz/deep.sh RUNS TARGET...        e.g. nice -n 10 tests/fuzz/deep.sh 10000000 gguf
#
# RUNS 0 runs nothing new: it replays and merges what earlier runs left.
# WILLFIT_FUZZ_JOBS (default 1): build jobs. Fuzzing is always one process.
# WILLFIT_FUZZ_MAX_SECONDS (default: none): also stop a target after this long
# (-max_total_time), so a slow target ends with its figures rather than killed.
# See docs/development.md, "Fuzzing".
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "$#" -lt 2 ]; then
  echo "usage: tests/fuzz/deep.sh RUNS TARGET..." >&2
  exit 2
fi
runs="$1"
shift
root="$PWD"
deep="$root/build/fuzz-deep"
asan="$root/build/fuzz"

# The fast build (run.sh with 0 seconds: build, replay the regressions, fuzz nothing).
WILLFIT_FUZZ_BUILD=build/fuzz-deep WILLFIT_FUZZ_SANITIZERS=undefined \
  WILLFIT_FUZZ_FLAGS="-O2 -gline-tables-only -D_GLIBCXX_ASSERTIONS" tests/fuzz/run.sh 0 "$@"

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
limits=(-timeout=10 -rss_limit_mb=2048 -max_len=4096)
stop=()
if [ -n "${WILLFIT_FUZZ_MAX_SECONDS:-}" ]; then
  stop=(-max_total_time="$WILLFIT_FUZZ_MAX_SECONDS")
fi
status=0
fuzzed=()
for name in "$@"; do
  corpus="$deep/corpus/$name"
  artifacts="$deep/artifacts/$name"
  log="$deep/fuzz_$name.log"
  mkdir -p "$corpus" "$artifacts"
  if ! "$deep/fuzz/fuzz_$name" "$corpus" "tests/fuzz/corpus/$name" -runs="$runs" "${stop[@]}" \
      "${limits[@]}" -artifact_prefix="$artifacts/" -print_final_stats=1 2>"$log"; then
    echo "fuzz_$name FAILED: see $log and $artifacts/"
    tail -n 30 "$log"
    status=1
    continue
  fi
  fuzzed+=("$name")
  echo "== fuzz_$name: $(grep -E '^#[0-9]+' "$log" | tail -n 1)"
  echo "   $(date -u +%F): $(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')" \
    "inputs, $(grep -oE 'exec/s: [0-9]+' "$log" | tail -n 1 | awk '{print $2}') per second"
done
if [ "${#fuzzed[@]}" -eq 0 ]; then
  exit "$status"
fi

# run.sh's ASan + UBSan build, built after the fuzzing so the two do not
# compete for the cores, then every input of each new corpus once under it
# (-runs=0: read and run the corpus, nothing new).
tests/fuzz/run.sh 0 "${fuzzed[@]}"
for name in "${fuzzed[@]}"; do
  corpus="$deep/corpus/$name"
  merged="$deep/merged/$name"
  replay=("$corpus")
  if [ -d "tests/fuzz/regressions/$name" ] && [ -n "$(ls -A "tests/fuzz/regressions/$name")" ]; then
    replay+=("tests/fuzz/regressions/$name")
  fi
  if ! "$asan/fuzz/fuzz_$name" "${replay[@]}" -runs=0 "${limits[@]}" \
      >"$deep/replay_$name.log" 2>&1; then
    echo "fuzz_$name: the ASan replay FAILED: see $deep/replay_$name.log"
    tail -n 30 "$deep/replay_$name.log"
    status=1
    continue
  fi
  echo "== fuzz_$name: replayed $(find "$corpus" -type f | wc -l) corpus inputs under ASan + UBSan"
  rm -rf "$merged"
  mkdir -p "$merged"
  "$deep/fuzz/fuzz_$name" -merge=1 "$merged" "tests/fuzz/corpus/$name" "$corpus" "${limits[@]}" \
    >"$deep/merge_$name.log" 2>&1
  echo "   merged: $(find "$merged" -type f | wc -l) files, $(du -sk "$merged" | cut -f1) kB in $merged"
done
exit "$status"
