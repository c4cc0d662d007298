// Astro config: the course site lives in site/, the lab component in web/ (imported as @/components/...).
import { defineConfig } from "astro/config";
import { fileURLToPath } from "node:url";
import tslab from "./web/integration.mjs";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  srcDir: "./site/src",
  publicDir: "./site/public",
  outDir: "./site/dist",
  cacheDir: "./site/.astro",
  server: { host: "127.0.0.1", port: 4321 },
  // The lab's own integration, as a course site uses it from the package (web/README.md): Worker format, one wasm, .gz/.br.
  integrations: [tslab()],
  vite: {
    resolve: {
      alias: [
        // The course page imports the lab exactly as the real course does.
        { find: /^@\/components\//, replacement: here("./web/") },
        { find: /^@\/layouts\//, replacement: here("./site/src/layouts/") },
      ],
    },
  },
});
