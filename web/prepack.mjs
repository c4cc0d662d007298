// npm pack / publish step: the wasm build output and the repository's LICENSE go into the package, checked first.
import { copyFileSync, existsSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

// The wasm is build output (never committed): a package without it would fail at the consumer's first load.
for (const name of ["src/wasm/tslab.mjs", "src/wasm/tslab.wasm"]) {
  if (!existsSync(here(name)) || statSync(here(name)).size === 0) {
    console.error(`web/${name} is missing: run \`bash tests/build_wasm.sh\` at the repository root before \`npm pack\``);
    process.exit(1);
  }
}
copyFileSync(here("../LICENSE"), here("LICENSE"));
