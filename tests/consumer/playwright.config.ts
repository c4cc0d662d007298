// Playwright for the consumer test (tests/consumer/run.sh starts the server of the consumer's build).
import { defineConfig } from "@playwright/test";
import base from "../../playwright.config";

export default defineConfig({
  ...base,
  testDir: ".",
  webServer: undefined,
  use: { ...base.use, baseURL: process.env.TSLAB_CONSUMER_URL ?? "http://127.0.0.1:4327" },
});
