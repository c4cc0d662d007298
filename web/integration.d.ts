// Types of integration.mjs for a consumer's astro.config.ts.
import type { AstroIntegration } from "astro";

export interface TslabIntegrationOptions {
  /** Write .gz and .br next to each text and wasm file of a static build (default true). */
  precompress?: boolean;
}

export default function tslab(options?: TslabIntegrationOptions): AstroIntegration;
