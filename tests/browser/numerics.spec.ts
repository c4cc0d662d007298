// The L8 panel: recipe cards, Adam vs Muon and Muon's gather come from the core; the trial's lesson (FP8 speeds up the
// GEMMs far more than the step) holds in numbers in zh and en, on desktop and a 390 × 844 phone; no console errors.
import { expect, test, type Page } from "@playwright/test";
import { shots, watchConsole } from "./lab";

const panel = '#lab [data-panel="numerics"]';

async function openL8(page: Page): Promise<void> {
  await page.goto("/");
  await expect(page.locator("#lab [data-tslab]")).toHaveAttribute("data-ready", "true");
  await page.locator("#tsl-tab-numerics").click();
  await expect(page.getByTestId("nu-card-bf16")).toBeVisible();
}

const value = async (page: Page, id: string) => Number(await page.getByTestId(id).getAttribute("data-value"));

let errors: string[] = [];
test.beforeEach(async ({ page }) => {
  errors = watchConsole(page);
});
test.afterEach(() => {
  expect(errors, "console errors").toEqual([]);
});

async function fp8Trial(page: Page): Promise<void> {
  await page.getByTestId("nu-trial").click();
  await expect(page.getByTestId("nu-lesson")).toBeVisible({ timeout: 90_000 });
  // The figures carry the two reports' seconds (data-before → data-value); their ratio is after / before.
  const ratio = async (id: string) => (await value(page, id)) / Number(await page.getByTestId(id).getAttribute("data-before"));
  const gemm = await ratio("nu-trial-gemm");
  const step = await ratio("nu-trial-step");
  expect(gemm, "FP8 GEMMs take about half their BF16 time").toBeLessThan(0.6);
  expect(step, "the step shrinks less than the GEMMs").toBeGreaterThan(gemm + 0.05);
  expect(step, "and is not halved").toBeGreaterThan(0.5);
  expect(step).toBeLessThan(1);
  await expect(page.getByTestId("nu-card-fp8-blockwise")).toHaveAttribute("data-current", "true");
}

test("Muon keeps fewer states than Adam and its slice-local gather moves less than gathering everything", async ({ page }) => {
  await openL8(page);
  expect(await value(page, "nu-states-b")).toBeLessThan(await value(page, "nu-states-a"));
  await page.locator(`${panel} [data-control="zero"] select`).selectOption("1");
  await expect(page.getByTestId("nu-gather-a")).toBeVisible();
  expect(await value(page, "nu-gather-b")).toBeLessThan(await value(page, "nu-gather-a"));
  // H100 has no MX block scaling: the MXFP8 card says so.
  await expect(page.getByTestId("nu-card-mxfp8")).toHaveAttribute("data-available", "false");
});

test("trial in zh on desktop", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openL8(page);
  await fp8Trial(page);
  await expect(page.getByTestId("nu-lesson")).toContainText("FP8");
  await page.locator(panel).screenshot({ path: `${shots}/numerics-zh.png` });
});

test("trial in en on a 390 × 844 phone, no horizontal scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openL8(page);
  await page.locator("#lab .tsl-lang").click();
  await expect(page.getByTestId("nu-trial")).toHaveText(/not the step/);
  await fp8Trial(page);
  await expect(page.getByTestId("nu-lesson")).toContainText("shrinks less than the GEMMs");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "no horizontal scrolling at 390 px").toBeLessThanOrEqual(0);
  await page.locator(panel).screenshot({ path: `${shots}/numerics-phone-en.png` });
});
