#!/usr/bin/env bash
# Runs every test (tests/run.sh) beside a CPU hog: one busy stress-ng worker per core for the whole run, so a test that
# rests on wall time or on an idle machine fails here first. Usage: bash tests/run_busy.sh [WORKERS]
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v stress-ng >/dev/null; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends stress-ng >/dev/null
fi
workers=${1:-$(nproc)}
stress-ng --cpu "$workers" --timeout 3h --quiet &
hog=$!
trap 'kill $hog 2>/dev/null || true' EXIT
echo "run_busy: stress-ng --cpu $workers (pid $hog) beside tests/run.sh"
bash tests/run.sh
