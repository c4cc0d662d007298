// Writes name.gz and name.br next to every compressible file of a built site, so a static server can send them as they are.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** Text and wasm compress well (the wasm about 3x); images and fonts are already compressed. */
export const compressible = /\.(?:html|js|mjs|css|wasm|json|svg|txt|xml|map)$/;

/** Below this many bytes the headers cost more than compression saves. */
const minBytes = 1024;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

/** Compresses every matching file under dir at the highest levels (done once per build); returns the bytes per encoding. */
export function precompressDir(dir) {
  const totals = { raw: 0, gzip: 0, br: 0 };
  for (const path of files(dir)) {
    if (!compressible.test(path)) continue;
    const raw = readFileSync(path);
    if (raw.length < minBytes) continue;
    const gz = gzipSync(raw, { level: 9 });
    const br = brotliCompressSync(raw, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
    });
    writeFileSync(`${path}.gz`, gz);
    writeFileSync(`${path}.br`, br);
    totals.raw += raw.length;
    totals.gzip += gz.length;
    totals.br += br.length;
  }
  return totals;
}
