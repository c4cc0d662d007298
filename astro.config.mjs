// Astro config: the course site lives in site/, the lab component in web/ (imported as @/components/...).
import { defineConfig } from "astro/config";
import { fileURLToPath } from "node:url";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  srcDir: "./site/src",
  publicDir: "./site/public",
  outDir: "./site/dist",
  cacheDir: "./site/.astro",
  server: { host: "127.0.0.1", port: 4321 },
  vite: {
    // The planner runs in a module Worker that imports the emscripten ES module (web/src/planner.worker.ts).
    // Its assets use the page's file-name pattern, so the wasm the page and the Worker both import
    // is one file (same name and hash) instead of two copies of ~270 KiB gzip.
    worker: { format: "es", rollupOptions: { output: { assetFileNames: "_astro/[name].[hash][extname]" } } },
    resolve: {
      alias: [
        // The course page imports the lab exactly as the real course does.
        { find: /^@\/components\//, replacement: here("./web/") },
        { find: /^@\/layouts\//, replacement: here("./site/src/layouts/") },
        // The emscripten ES6 module; its types are the hand-kept web/src/tslab.d.ts.
        { find: /^@tslab\/wasm$/, replacement: here("./web/src/wasm/tslab.mjs") },
      ],
    },
  },
});
