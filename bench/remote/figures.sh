#!/usr/bin/env bash
# Issue 15's figures, measured with the built binary against a local imitation
# of the hub (fake_hub.py): requests and bytes of a first read, then the
# second run from willfit's cache against a local-file answer.
# Usage: bench/remote/figures.sh [build/dev/willfit] [port]
set -euo pipefail
bin=${1:-build/dev/willfit}
port=${2:-18931}
tmp=$(mktemp -d)
trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
python3 "$(dirname "$0")/fake_hub.py" "$port" > "$tmp/server.log" &
server=$!
sleep 3
export HOME=$tmp XDG_CACHE_HOME=$tmp/cache HF_ENDPOINT=http://127.0.0.1:$port
cat "$tmp/server.log"
"$bin" hf.co/org/tiny-GGUF --json | python3 -c 'import json,sys; o=json.load(sys.stdin)["model"]["origin"]; print("first run:", o["requests"], "requests,", o["bytes_read"], "bytes")'
"$bin" hf.co/org/tiny-GGUF --json | python3 -c 'import json,sys; o=json.load(sys.stdin)["model"]["origin"]; print("second run: cached", o["cached"], o["requests"], "requests")'
# The same header as a local file (the cached prefix is the file's start).
cp "$tmp"/cache/willfit/hf/org--tiny-GGUF/*/files/Tiny-Q4_K_M.gguf "$tmp/local.gguf"
truncate -s 100000000000 "$tmp/local.gguf"
time_it() {  # mean wall time of 20 runs, in ms
  local start end
  start=$(date +%s%N)
  for _ in $(seq 20); do "$bin" "$@" > /dev/null; done
  end=$(date +%s%N)
  echo $(( (end - start) / 20000000 ))
}
echo "local file:  $(time_it "$tmp/local.gguf") ms per run"
echo "from cache:  $(time_it hf.co/org/tiny-GGUF) ms per run"
echo "offline:     $(time_it hf.co/org/tiny-GGUF --offline) ms per run"
