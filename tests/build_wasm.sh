#!/usr/bin/env bash
# Builds the core to WebAssembly (build-wasm/) and drops tslab.mjs/.wasm into web/src/wasm/.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs  # Debian's acorn for emscripten at -O1 and above
if [ ! -f build-wasm/build.ninja ]; then
    # Unity builds (eight sources per compiler run), as for the native trees: about a third of the
    # compile time on 2 cores.
    emcmake cmake -S . -B build-wasm -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8 >/dev/null
fi
cmake --build build-wasm
