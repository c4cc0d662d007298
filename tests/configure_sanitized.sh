#!/usr/bin/env bash
# Configures build-fuzz/: the one sanitized tree (Debian clang, ASan + UBSan, asserts on at -O1) that
# holds the unit tests, the CLI and the libFuzzer targets. Used by tests/run.sh and tests/fuzz.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build-fuzz/build.ninja ] && exit 0
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG="-O1 -gline-tables-only" -DTSLAB_FUZZ=ON -DTSLAB_BUILD_BENCH=OFF \
    -DTSLAB_CALIBRATE_CUDA_BACKEND=OFF -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8 >/dev/null
