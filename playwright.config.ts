// Browser tests of the built site in Debian's Chromium (no browser download); `astro preview` serves it.
import { defineConfig } from "@playwright/test";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "tests/browser",
  timeout: 30_000,
  retries: 0,
  workers: 1,
  reporter: [["list"]],
  use: {
    baseURL: "http://127.0.0.1:4321",
    browserName: "chromium",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
      ],
    },
  },
  webServer: {
    command: "node_modules/.bin/astro preview --host 127.0.0.1 --port 4321",
    url: "http://127.0.0.1:4321/",
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
