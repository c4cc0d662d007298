// The memory lab on the built course page: controls change the ledger, trial, inline errors, i18n, keyboard.
import { expect, test, type Page } from "@playwright/test";
import { shots, watchConsole } from "./lab";

/** Collects console errors and uncaught page errors; every test asserts the list stays empty. */

async function openLab(page: Page): Promise<void> {
  await page.goto("/");
  await expect(page.locator("#lab [data-tslab]")).toHaveAttribute("data-ready", "true");
  await expect(page.getByTestId("ledger")).toBeVisible();
}

// Scoped to the memory panel: other panels reuse control keys (dp, tp, model) and class names.
const mem = '#lab [data-panel="memory"]';
const field = (page: Page, key: string) => page.locator(`${mem} [data-control="${key}"]`);
const ledgerBytes = (page: Page, id: string) => page.locator(`#lab [data-testid="ledger"] tr[data-item="${id}"] td`).first().textContent();

let errors: string[] = [];
test.beforeEach(async ({ page }) => {
  errors = watchConsole(page);
});
test.afterEach(() => {
  expect(errors, "console errors").toEqual([]);
});

test("the lab sits in section#lab and shows a ledger with GiB and GB columns", async ({ page }) => {
  await openLab(page);
  await expect(page.locator("section#lab .tsl")).toHaveCount(1);
  const head = page.locator('#lab [data-testid="ledger"] thead');
  await expect(head).toContainText("GiB");
  await expect(head).toContainText("GB");
  await expect(page.locator('#lab [data-testid="ledger"] tbody tr')).toHaveCount(8);
});

test("moving the sequence-length slider changes the activation row", async ({ page }) => {
  await openLab(page);
  const before = await ledgerBytes(page, "activations_layers");
  const slider = field(page, "seq_len").locator('input[type="range"]');
  await slider.fill("14"); // 2^14 = 16384 tokens, from the default 2^12
  await expect(field(page, "seq_len").locator("output")).toHaveText("16,384");
  await expect.poll(() => ledgerBytes(page, "activations_layers")).not.toBe(before);
  // Activations with FlashAttention and SP scale linearly in s (Korthikanti et al. Table 2: 34sbh/t): 4×.
  const after = await ledgerBytes(page, "activations_layers");
  expect(Number(after) / Number(before)).toBeCloseTo(4, 1);
  // Model state does not depend on the sequence.
  const ms = page.getByTestId("model-state");
  await expect(ms).toBeVisible();
});

test("changing ZeRO stage shrinks the optimizer states row", async ({ page }) => {
  await openLab(page);
  const before = Number(await ledgerBytes(page, "optimizer_states"));
  await field(page, "zero").locator("select").selectOption("1");
  // ZeRO-1 shards optimizer states over DP = 8 (arXiv 1910.02054 section 5.1).
  await expect.poll(async () => Number(await ledgerBytes(page, "optimizer_states"))).toBeCloseTo(before / 8, 1);
});

test("70B → ZeRO-3 trial: model state falls to 16P/N", async ({ page }) => {
  await openLab(page);
  await page.getByTestId("trial").click();
  const after = page.getByTestId("trial-after");
  await expect(after).toBeVisible();
  // Llama 3 70B has 70.6e9 parameters (Meta, Llama 3 model card); ZeRO-3 over N = 64: 16P/N bytes.
  const expected = (16 * 70.6e9) / 64;
  const shown = Number(await page.getByTestId("model-state").getAttribute("data-bytes"));
  expect(Math.abs(shown - expected) / expected).toBeLessThan(0.01);
  expect(Math.abs(Number(await after.getAttribute("data-bytes")) - expected) / expected).toBeLessThan(0.01);
  await expect(field(page, "zero").locator("select")).toHaveValue("3");
  await expect(field(page, "dp").locator("input")).toHaveValue("64");
  await expect(page.getByTestId("fit-status")).toHaveAttribute("data-fits", "true");
});

test("a bad TP shows the error next to the TP control and keeps the last result, dimmed", async ({ page }) => {
  await openLab(page);
  const total = await page.getByTestId("total").getAttribute("data-bytes");
  await field(page, "tp").locator("input").fill("12");
  const err = field(page, "tp").locator(".tsl-error");
  await expect(err).toBeVisible();
  await expect(err).toContainText("parallel.tp：12 不能整除 model.heads");
  await expect(page.getByTestId("ledger")).toBeVisible();
  await expect(page.locator(`${mem} .tsl-result-body`)).toHaveClass(/tsl-stale/);
  await expect(page.getByTestId("total")).toHaveAttribute("data-bytes", total!);
  await page.locator("#lab .tsl").screenshot({ path: `${shots}/error-desktop.png` });
  // Fixing the value clears the error and the dimming.
  await field(page, "tp").locator("input").fill("4");
  await expect(err).toBeHidden();
  await expect(page.locator(`${mem} .tsl-result-body`)).not.toHaveClass(/tsl-stale/);
});

test("a global batch that micro-batch × dp does not divide is flagged at the global batch control", async ({ page }) => {
  await openLab(page);
  await field(page, "global_batch").locator("input").fill("12");
  const err = field(page, "global_batch").locator(".tsl-error");
  await expect(err).toContainText("training.global_batch");
  await expect(field(page, "tp").locator(".tsl-error")).toBeHidden();
});

test("the delayed update needs offloaded optimizer states, and says so at its checkbox", async ({ page }) => {
  await openLab(page);
  const dpu = field(page, "offload_dpu");
  await dpu.locator("input").check();
  const err = dpu.locator(".tsl-error");
  await expect(err).toContainText("training.offload.delayed_update");
  // Offloading half the optimizer states clears it; the ledger moves that half to host memory.
  await field(page, "offload_opt").locator("input").fill("50");
  await expect(err).toBeHidden();
  await expect(page.locator(`#lab [data-testid="ledger"] tr[data-item="offloaded"]`)).toBeVisible();
});

test("English toggle relabels the lab and keeps the numbers", async ({ page }) => {
  await openLab(page);
  const total = await page.getByTestId("total").getAttribute("data-bytes");
  await page.locator("#lab .tsl-lang").click();
  await expect(page.locator("#lab .tsl")).toHaveAttribute("lang", "en");
  await expect(page.locator("#lab .tsl-tab").first()).toHaveText("L1 + L2 · Memory");
  await expect(page.locator('#lab [data-testid="ledger"] caption')).toHaveText("Memory ledger (most-loaded rank)");
  await expect(page.getByTestId("total")).toHaveAttribute("data-bytes", total!);
  await page.locator("#lab .tsl-lang").click();
  await expect(page.locator("#lab .tsl")).toHaveAttribute("lang", "zh-CN");
});

test("keyboard: Tab reaches the controls in order, each with a label and a visible focus ring", async ({ page }) => {
  await openLab(page);
  await page.locator("#lab .tsl-lang").focus();
  const seen: string[] = [];
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press("Tab");
    const info = await page.evaluate(() => {
      const a = document.activeElement as HTMLElement | null;
      if (!a) return null;
      const label = a.id ? (document.querySelector(`label[for="${a.id}"]`)?.textContent ?? a.getAttribute("aria-label")) : null;
      return { key: a.closest<HTMLElement>("[data-control]")?.dataset.control ?? a.className, label, outline: getComputedStyle(a).outlineStyle };
    });
    expect(info).not.toBeNull();
    expect(info!.outline).not.toBe("none");
    if (info!.key.startsWith("tsl-") === false) expect(info!.label, `label for ${info!.key}`).toBeTruthy();
    seen.push(info!.key);
  }
  // The calibration bar's file button sits between the header and the tabs.
  expect(seen.slice(0, 5)).toEqual(["tsl-cal-pick", "tsl-tab", "model", "cluster", "dp"]);
  // Arrow keys change a focused select without a mouse.
  await field(page, "model").locator("select").focus();
  await page.keyboard.press("ArrowDown");
  await expect(field(page, "model").locator("select")).not.toHaveValue("llama3-70b");
});

test("OOM: deepseek-v3 without enough parallelism shows the OOM state", async ({ page }) => {
  await openLab(page);
  await field(page, "model").locator("select").selectOption("deepseek-v3");
  await expect(page.getByTestId("fit-status")).toHaveAttribute("data-fits", "false");
  await expect(page.locator("#lab .tsl-overflow").first()).toBeVisible();
  await page.locator("#lab .tsl").screenshot({ path: `${shots}/oom-desktop.png` });
});

test("screenshots: desktop and a 390 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openLab(page);
  await page.locator("#lab").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${shots}/desktop.png`, fullPage: true });
  await page.getByTestId("trial").click();
  await expect(page.getByTestId("trial-after")).toBeVisible();
  await page.locator("#lab .tsl").screenshot({ path: `${shots}/desktop-trial.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("ledger")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "no horizontal scrolling at 390 px").toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${shots}/phone.png`, fullPage: true });
  await page.locator(`${mem} .tsl-form`).screenshot({ path: `${shots}/phone-controls.png` });
  await page.locator(`${mem} .tsl-results`).screenshot({ path: `${shots}/phone-results.png` });
});
