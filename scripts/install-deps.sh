#!/usr/bin/env bash
# Installs willfit's build dependencies from Debian packages, only those missing.
set -euo pipefail
packages=(cmake g++ make libcli11-dev nlohmann-json3-dev libfmt-dev libgtest-dev libbenchmark-dev
          clang libclang-rt-14-dev  # clang: the fuzz targets (tests/fuzz/run.sh)
          libcurl4-openssl-dev  # remote models (app/sources/http.cpp)
          libcpp-httplib-dev pkg-config  # the test hub and registry (tests/cli/test_remote.cpp)
          zsh)                      # zsh: the completion tests drive it (tests/completions/run.sh)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "installing: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
