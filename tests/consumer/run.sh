#!/usr/bin/env bash
# Consumer test: a fresh Astro project outside the repo installs the packed lab and builds the course's own page unchanged;
# Playwright then runs the page's four recommended trials in its #lab section. Needs web/src/wasm (tests/build_wasm.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo="$PWD"
page="$repo/../shared/seed/000_6170169d446bd5b1.astro.txt"
if [ ! -f "$page" ]; then
    echo "consumer test SKIPPED: the course page ../shared/seed/000_6170169d446bd5b1.astro.txt is not next to this clone"
    exit 0
fi
if [ ! -f web/src/wasm/tslab.wasm ]; then
    echo "consumer test: web/src/wasm/tslab.wasm is missing; run bash tests/build_wasm.sh first" >&2
    exit 1
fi

work="$(mktemp -d)"
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

(cd web && npm pack --silent --pack-destination "$work" >/dev/null)
tarball="$(ls "$work"/*.tgz)"
# astro at the version this repo's lockfile pins, from the registry; the lab from the tarball.
astro_version="$(node -p 'require("./package-lock.json").packages["node_modules/astro"].version')"

mkdir -p "$work/site/src/pages" "$work/site/src/layouts"
cd "$work/site"
cat > package.json <<JSON
{ "name": "course-site", "private": true, "type": "module",
  "dependencies": { "astro": "$astro_version", "@tslab/lab": "file:$tarball" } }
JSON
cat > astro.config.mjs <<'JS'
import { defineConfig } from "astro/config";
import { fileURLToPath } from "node:url";
import tslab from "@tslab/lab/integration";

export default defineConfig({
  integrations: [tslab()],
  vite: {
    resolve: {
      alias: [
        // The course page's two imports: its own layout, and the lab from the package.
        { find: "@/components/TrainingSystemsLab.astro", replacement: "@tslab/lab/TrainingSystemsLab.astro" },
        { find: /^@\/layouts\//, replacement: fileURLToPath(new URL("./src/layouts/", import.meta.url)) },
      ],
    },
  },
});
JS
# The props the page passes (title, description, section) and nothing else.
cat > src/layouts/BaseLayout.astro <<'ASTRO'
---
interface Props { title: string; description: string; section?: string }
const { title, description } = Astro.props;
---
<!doctype html>
<html lang="zh-CN">
  <head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="description" content={description} /><link rel="icon" href="data:," /><title>{title}</title></head>
  <body><slot /></body>
</html>
ASTRO
cp "$page" src/pages/index.astro
cmp -s "$page" src/pages/index.astro

SECONDS=0
npm install --no-audit --no-fund --prefer-offline --loglevel=error >/dev/null
installed=$SECONDS
npx --no-install astro build --silent >/dev/null
echo "consumer test: npm install ${installed} s, astro build $((SECONDS - installed)) s"
# One wasm file in the build: the page and the planner's Worker share it.
wasm_count="$(find dist -name '*.wasm' | wc -l)"
if [ "$wasm_count" != 1 ]; then echo "consumer test: $wasm_count wasm files in the build, expected 1" >&2; exit 1; fi

port="${TSLAB_CONSUMER_PORT:-4327}"
node "$repo/site/serve.mjs" --dir "$work/site/dist" --host 127.0.0.1 --port "$port" >/dev/null &
server=$!
cd "$repo"
TSLAB_CONSUMER_URL="http://127.0.0.1:$port" npx --no-install playwright test -c tests/consumer/playwright.config.ts
