#!/usr/bin/env bash
# Installs what the build and tests need on a fresh Debian 12 machine; idempotent (skips what is there).
# Usage: bash tests/setup.sh [--web-only]
set -euo pipefail
cd "$(dirname "$0")/.."

web_pkgs=(emscripten nodejs npm libfmt-dev nlohmann-json3-dev cmake ninja-build g++)
all_pkgs=("${web_pkgs[@]}" catch2 libcli11-dev libbenchmark-dev libopenmpi-dev openmpi-bin chromium fonts-wqy-microhei
          clang libclang-rt-14-dev  # clang + libFuzzer for tests/fuzz.sh
          clang-format)  # tests/format.sh
pkgs=("${all_pkgs[@]}")
[ "${1:-}" = "--web-only" ] && pkgs=("${web_pkgs[@]}")

missing=()
for p in "${pkgs[@]}"; do
    # node/npm may come from elsewhere than Debian (e.g. a preinstalled Node 20): accept the command.
    case "$p" in nodejs) command -v node >/dev/null && continue ;; npm) command -v npm >/dev/null && continue ;; esac
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm ci only when the lockfile changed since the last install.
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f node_modules/.tslab-lock-hash ] || [ "$(cat node_modules/.tslab-lock-hash)" != "$lock_hash" ]; then
    echo "setup: npm ci"
    npm ci --no-audit --no-fund --loglevel=error
    echo "$lock_hash" > node_modules/.tslab-lock-hash
fi
