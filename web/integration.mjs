// Astro integration for the lab: the Vite settings its planner Worker needs, and precompressed assets after the build.
import { fileURLToPath } from "node:url";
import { precompressDir } from "./precompress.mjs";

/**
 * `integrations: [tslab()]` in astro.config.mjs. The planner runs in a module Worker that imports the emscripten ES
 * module, so Vite must build workers as ES modules; the Worker's assets take the page's file-name pattern, so the wasm
 * that the page and the Worker both import is one file (same name and hash) instead of two copies.
 * Options: `precompress` (default true) writes .gz and .br next to each text and wasm file of a static build.
 */
export default function tslab({ precompress = true } = {}) {
  return {
    name: "@tslab/lab",
    hooks: {
      "astro:config:setup": ({ config, updateConfig }) => {
        const assets = config.build?.assets ?? "_astro";
        updateConfig({
          vite: {
            worker: { format: "es", rollupOptions: { output: { assetFileNames: `${assets}/[name].[hash][extname]` } } },
            // The dev server's dependency pre-bundling would move the Worker and the wasm URL away from their files.
            optimizeDeps: { exclude: ["@tslab/lab"] },
          },
        });
      },
      "astro:build:done": ({ dir, logger }) => {
        if (!precompress) return;
        const t = precompressDir(fileURLToPath(dir));
        logger.info(`precompressed ${t.raw} bytes: gzip ${t.gzip}, brotli ${t.br}`);
      },
    },
  };
}
