#!/usr/bin/env bash
# Runs every test: the formatters' check, native Catch2 + CLI checks (ctest), the same under ASan+UBSan, node tests of the
# wasm build, type checks of the facade, libFuzzer runs of every entry point (tests/fuzz.sh), and
# Playwright tests of the built site in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
# Each step's heading carries the seconds since the start, so a slow step shows in the log.
step() { printf '\n== [%4ds] %s\n' "$((SECONDS - start))" "$*"; }

step "setup"
bash tests/setup.sh

step "format (clang-format, prettier): fails on any difference; bash tests/format.sh --fix applies them"
bash tests/format.sh

step "native build and tests"
# Unity builds (eight core or native sources per compiler run) cut the two native builds to about a
# third on 2 cores; a plain `cmake -S . -B build` (the README's) builds every source on its own.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8 >/dev/null
cmake --build build
ctest --test-dir build --output-on-failure -j2

step "sanitized build (clang, ASan + UBSan): unit tests and CLI checks"
# One tree holds the sanitized tests and the fuzz targets (tests/configure_sanitized.sh), so the core
# is compiled once for both. The brute-force searches and the training set's plans (minutes each
# under the sanitizers) repeat, at scale, the planner and fit code that the smaller planner and fit
# tests already run here; the Release pass above runs them.
bash tests/configure_sanitized.sh
cmake --build build-fuzz
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-fuzz --output-on-failure -j2 \
    -E "^(cached search equals a per-candidate search|exhaustive on 8 GPUs|Re-running the documented fit|Planner realism)"

step "fuzzing: each entry point for 20 s under ASan + UBSan (libFuzzer, clang)"
bash tests/fuzz.sh all "${TSLAB_FUZZ_SECONDS:-20}"

step "wasm build"
bash tests/build_wasm.sh

step "facade types (tsc)"
npm run --silent test:types

step "node tests of the wasm build"
TSLAB_CLI="$PWD/build/native/tslab" npm run --silent test:node

step "site build and browser tests"
npm run --silent test:browser

step "consumer test: the packed lab in a fresh Astro project builds the course page unchanged"
bash tests/consumer/run.sh

step "all tests passed"
