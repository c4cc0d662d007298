// Browser tests of the built site in Debian's Chromium (no browser download); site/serve.mjs serves it (as `npm run serve`).
import { defineConfig } from "@playwright/test";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// TSLAB_TEST_PORT lets two checkouts run their browser tests side by side.
const port = Number(process.env.TSLAB_TEST_PORT ?? 4321);

export default defineConfig({
  testDir: "tests/browser",
  // Guards against a hang, not speed checks (those are benchmarks): generous enough for the suite's
  // 2-core machine with a CPU hog beside it.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  retries: 0,
  workers: 1,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: "chromium",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    command: `node site/serve.mjs --host 127.0.0.1 --port ${port}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
