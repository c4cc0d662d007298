#!/usr/bin/env bash
# Builds the core to wasm, builds the Astro site and serves the course page with the lab on 127.0.0.1:4321.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tests/setup.sh --web-only
bash tests/build_wasm.sh
npm run --silent build:site
echo "serving http://127.0.0.1:${PORT:-4321}/ (Ctrl-C stops)"
exec node site/serve.mjs --host 127.0.0.1 --port "${PORT:-4321}"
