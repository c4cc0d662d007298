// The L9 panel: goodput curve and RL phase bar render from the core; each trial's lesson holds in numbers (zh and en,
// desktop and a 390 × 844 phone), bad input is named at its control, no console errors; screenshots.
import { expect, test, type Page } from "@playwright/test";
import { shots, watchConsole } from "./lab";

const panel = '#lab [data-panel="reliability"]';

async function openL9(page: Page): Promise<void> {
  await page.goto("/");
  await expect(page.locator("#lab [data-tslab]")).toHaveAttribute("data-ready", "true");
  await page.locator("#tsl-tab-reliability").click();
  await expect(page.getByTestId("rel-curve")).toBeVisible();
}

const value = async (page: Page, id: string) => Number(await page.getByTestId(id).getAttribute("data-value"));
const phases = (page: Page) =>
  page
    .locator(`${panel} .tsl-rel-seg`)
    .evaluateAll((els) => Object.fromEntries(els.map((e) => [(e as HTMLElement).dataset.phase!, Number((e as HTMLElement).dataset.share)])));

let errors: string[] = [];
test.beforeEach(async ({ page }) => {
  errors = watchConsole(page);
});
test.afterEach(() => {
  expect(errors, "console errors").toEqual([]);
});

async function failuresTrial(page: Page): Promise<void> {
  await page.getByTestId("rel-trial-failures").click();
  await expect(page.getByTestId("rel-lesson")).toHaveAttribute("data-trial", "failures", { timeout: 90_000 });
  await expect(page.locator(`${panel} [data-control="gpus"] select`)).toHaveValue("16384");
  const loss = await value(page, "rel-loss");
  const bubble = await value(page, "rel-bubble");
  expect(bubble, "the plan has a pipeline bubble").toBeGreaterThan(0);
  expect(loss, "at 16,384 GPUs failures cost more than the bubble").toBeGreaterThan(bubble);
}

async function rolloutTrial(page: Page): Promise<void> {
  await page.getByTestId("rel-trial-rollout").click();
  await expect(page.getByTestId("rel-lesson")).toHaveAttribute("data-trial", "rollout");
  await expect(page.locator(`${panel} [data-control="context"] select`)).toHaveValue("1048576");
  const p = await phases(page);
  expect(p.rollout, "rollout takes most of the iteration").toBeGreaterThan(0.5);
  expect(p.rollout).toBeGreaterThan(p.train + p.reshard + p.reward);
  expect(await value(page, "rel-longest")).toBeGreaterThan(65536);
  expect(await value(page, "rel-idle")).toBeGreaterThan(0);
}

test("the curve and the phase bar come from the core; failure loss grows with GPU count", async ({ page }) => {
  await openL9(page);
  const sum = Object.values(await phases(page)).reduce((a, b) => a + b, 0);
  expect(Math.abs(sum - 1)).toBeLessThan(1e-9);
  const at16k = await value(page, "rel-loss");
  await page.locator(`${panel} [data-control="gpus"] select`).selectOption("1024");
  await expect.poll(() => value(page, "rel-loss")).toBeLessThan(at16k);
  // Asynchronous checkpoints stall only for the copy to host.
  await page.locator(`${panel} [data-control="storage"] input`).fill("50");
  await expect.poll(() => value(page, "rel-blocking")).toBeGreaterThan(1);
  const sync = await value(page, "rel-blocking");
  await page.locator(`${panel} [data-control="async"] input`).check();
  await expect.poll(() => value(page, "rel-blocking")).toBeLessThan(sync);
  // The MLA-free default (llama3-70b): 2 · 80 · 8 · 128 · 2 bytes of KV per token.
  expect(await value(page, "rel-kv-token")).toBe(327680);
});

test("the failure rate and the restart time start at the core's defaults and move the failure loss", async ({ page }) => {
  await openL9(page);
  // The Llama 3 anchor (arXiv 2407.21783 section 3.3.4): 419 interruptions in 54 days on 16,384 GPUs, per million GPU-hours.
  const rate = Number(await page.locator(`${panel} [data-control="failure"] input`).inputValue());
  expect(rate).toBeCloseTo((419 / (54 * 24 * 16384)) * 1e6, 3); // shown to 6 significant digits
  await expect(page.locator(`${panel} [data-control="restart"] input`)).toHaveValue("600");
  const loss = await value(page, "rel-loss");
  await page.locator(`${panel} [data-control="failure"] input`).fill(String(rate * 2));
  await expect.poll(() => value(page, "rel-loss")).toBeGreaterThan(loss);
  const doubled = await value(page, "rel-loss");
  await page.locator(`${panel} [data-control="restart"] input`).fill("3600");
  await expect.poll(() => value(page, "rel-loss")).toBeGreaterThan(doubled);
});

test("bad input is named at its control", async ({ page }) => {
  await openL9(page);
  await page.locator(`${panel} [data-control="batch"] input`).fill("0");
  await expect(page.locator(`${panel} [data-control="batch"] .tsl-error`)).toContainText("超出范围");
  await page.locator(`${panel} [data-control="batch"] input`).fill("512");
  await expect(page.locator(`${panel} [data-control="batch"] .tsl-error`)).toBeHidden();
  // A field shown in GB/s speaks GB/s: the core's bounds (checkpoint_storage_Bps in [1e6, 1e16] B/s), divided.
  const storage = page.locator(`${panel} [data-control="storage"] .tsl-error`);
  await page.locator(`${panel} [data-control="storage"] input`).fill("-1");
  await expect(storage).toContainText("-1 GB/s 超出范围 [0.001 GB/s, 10,000,000 GB/s]");
  await expect(storage).not.toContainText("e+");
  await page.locator("#lab [data-tsl-lang]").click();
  await expect(storage).toContainText("-1 GB/s is out of range [0.001 GB/s, 10,000,000 GB/s]");
  await page.locator(`${panel} [data-control="storage"] input`).fill("2000");
  await expect(storage).toBeHidden();
});

test("trials in zh on desktop: failures beat bubbles at 16k GPUs, rollout dominates a million-token step", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openL9(page);
  await rolloutTrial(page);
  await expect(page.getByTestId("rel-lesson")).toContainText("rollout 占");
  await page.locator(`${panel}`).screenshot({ path: `${shots}/reliability-rollout-zh.png` });
  await failuresTrial(page);
  await expect(page.getByTestId("rel-lesson")).toContainText("故障");
  await page.locator(`${panel}`).screenshot({ path: `${shots}/reliability-failures-zh.png` });
});

test("trials in en on a 390 × 844 phone, no horizontal scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openL9(page);
  await page.locator("#lab .tsl-lang").click();
  await expect(page.getByTestId("rel-trial-rollout")).toHaveText(/rollout dominates/);
  await rolloutTrial(page);
  await expect(page.getByTestId("rel-lesson")).toContainText("Rollout takes");
  await failuresTrial(page);
  await expect(page.getByTestId("rel-lesson")).toContainText("more than the pipeline bubble");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "no horizontal scrolling at 390 px").toBeLessThanOrEqual(0);
  await page.locator(`${panel}`).screenshot({ path: `${shots}/reliability-phone-en.png` });
});
