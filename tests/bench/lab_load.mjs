// Loading figures of the built site (after `npm run build:site`): bytes of the lab's assets raw / gzip / brotli, and the time
// from navigation to the lab's first result, unthrottled and under Lighthouse's "slow 4G" profile (150 ms RTT, 1.6 Mbit/s
// down, 750 kbit/s up, CPU slowed 4x). Prints figures, asserts nothing.
import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";

const dist = "site/dist/_astro";
const port = Number(process.env.TSLAB_BENCH_PORT ?? 4391);
const size = (p) => statSync(p, { throwIfNoEntry: false })?.size ?? NaN;

console.log("asset                                   raw       gzip     brotli");
for (const name of readdirSync(dist)
  .filter((n) => !/\.(gz|br)$/.test(n))
  .sort()) {
  const p = join(dist, name);
  const cols = [size(p), size(`${p}.gz`), size(`${p}.br`)].map((b) => String(b).padStart(9));
  console.log(`${name.slice(0, 36).padEnd(36)} ${cols.join(" ")}`);
}

const server = spawn("node", ["site/serve.mjs", "--port", String(port)], { stdio: "ignore" });
await new Promise((r) => setTimeout(r, 500));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });

/** ms from navigation start to the lab's first drawn ledger, and the bytes that came over the wire. */
async function firstResult(throttle) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  if (throttle) {
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6e6 / 8) * 0.9,
      uploadThroughput: (750e3 / 8) * 0.9,
    });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  }
  let wire = 0;
  cdp.on("Network.loadingFinished", (e) => (wire += e.encodedDataLength));
  await page.addInitScript(() => {
    new MutationObserver((_, obs) => {
      if (document.querySelector('[data-tslab][data-ready="true"] [data-testid="ledger"]')) {
        window.__tslabReady = performance.now();
        obs.disconnect();
      }
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => window.__tslabReady !== undefined, null, { timeout: 120_000 });
  const ms = await page.evaluate(() => window.__tslabReady);
  await page.waitForLoadState("networkidle");
  await context.close();
  return { ms, wire };
}

try {
  for (const [label, throttle] of [
    ["fast (no throttling)", false],
    ["slow 4G + CPU 4x", true],
  ]) {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await firstResult(throttle));
    const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
    console.log(
      `${label}: first result ${ms.map((m) => m.toFixed(0)).join(" / ")} ms (median ${ms[1].toFixed(0)}), ${runs[0].wire} bytes on the wire`,
    );
  }
} finally {
  await browser.close();
  server.kill();
}
