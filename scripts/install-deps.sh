#!/usr/bin/env bash
# Installs willfit's build dependencies from Debian packages, only those missing,
# then the live llama.cpp check's runtime (tests/live): node-llama-cpp, pinned,
# into a folder outside the sources (WILLFIT_LIVE_PREFIX). Any failure stops
# with an error: CI never skips the live check silently.
set -euo pipefail
packages=(cmake g++ make libcli11-dev nlohmann-json3-dev libfmt-dev libgtest-dev libbenchmark-dev
          clang libclang-rt-14-dev  # clang: the fuzz targets (tests/fuzz/run.sh)
          libcurl4-openssl-dev  # remote models (app/sources/http.cpp)
          libcpp-httplib-dev pkg-config  # the test hub and registry (tests/cli/test_remote.cpp)
          zsh fish                  # zsh, fish: the completion tests drive them (tests/completions/run.sh)
          python3 python3-jsonschema  # the doc, schema and architecture checks (tests/docs, tests/architecture)
          nodejs)                   # the live llama.cpp check (tests/live/run.sh)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm: Debian's package, unless a nodejs build that bundles it is installed.
if ! command -v npm >/dev/null && ! dpkg-query -W -f='${Status}' npm 2>/dev/null | grep -q "install ok installed"; then
  missing+=(npm)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# node-llama-cpp ships a prebuilt llama.cpp (CPU backend for Linux x64).
# Pinned: newer releases may not install (their other-platform builds are not
# all served). Installed only when that exact version is not there yet.
live_version=3.21.1
live_prefix=${WILLFIT_LIVE_PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/willfit-live}
installed=$(node -p "require('$live_prefix/node_modules/node-llama-cpp/package.json').version" 2>/dev/null || true)
if [ "$installed" != "$live_version" ]; then
  echo "installing node-llama-cpp@$live_version into $live_prefix"
  mkdir -p "$live_prefix"
  [ -f "$live_prefix/package.json" ] || echo '{"name":"willfit-live","private":true}' >"$live_prefix/package.json"
  (cd "$live_prefix" && npm install --save-exact --no-audit --no-fund "node-llama-cpp@$live_version")
fi
