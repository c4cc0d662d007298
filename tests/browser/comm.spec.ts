// The communication lab: α/β split, bytes on the wire, the overlap slider at 95%, the step inventory, keyboard, screenshots.
import { expect, test, type Page } from "@playwright/test";
import { shots, watchConsole } from "./lab";

const panel = '#lab [data-panel="comm"]';

async function openComm(page: Page): Promise<void> {
  await page.goto("/");
  await expect(page.locator("#lab [data-tslab]")).toHaveAttribute("data-ready", "true");
  await page.locator("#tsl-tab-comm").click();
  await expect(page.getByTestId("comm-time")).toBeVisible();
  await expect(page.getByTestId("inventory")).toBeVisible();
}

const field = (page: Page, key: string) => page.locator(`${panel} [data-control="${key}"]`);
const num = async (page: Page, id: string, attr: string) => Number(await page.getByTestId(id).getAttribute(`data-${attr}`));
const rowBytes = (page: Page) =>
  page
    .getByTestId("inventory")
    .locator("tbody tr")
    .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.bytes));

/** Drags the overlap slider's thumb with the mouse to its right end (95%). */
async function dragOverlapTo95(page: Page): Promise<void> {
  const slider = field(page, "overlap").locator('input[type="range"]');
  await slider.scrollIntoViewIfNeeded();
  const box = (await slider.boundingBox())!;
  await page.mouse.move(box.x + 4, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
  await page.mouse.move(box.x + box.width + 20, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
}

let errors: string[] = [];
test.beforeEach(async ({ page }) => {
  errors = watchConsole(page);
});
test.afterEach(() => {
  expect(errors, "console errors").toEqual([]);
});

test("overlap at 95%: the bytes on the wire stay, the exposed time falls (single collective and the step inventory)", async ({ page }) => {
  await openComm(page);
  await expect(field(page, "overlap").locator("output")).toHaveText("0%");
  const wire = await num(page, "wire-bytes", "bytes");
  const message = await num(page, "wire-bytes", "message");
  const time = await num(page, "comm-time", "seconds");
  const exposed = await num(page, "exposed", "seconds");
  expect(exposed).toBe(time);
  const invBytes = await rowBytes(page);
  const invTotalBytes = await num(page, "inventory-total", "bytes");
  const invExposed = await num(page, "inventory-total", "exposed");
  const invTime = await num(page, "inventory-total", "time");

  await dragOverlapTo95(page);
  await expect(field(page, "overlap").locator("output")).toHaveText("95%");
  await expect.poll(() => num(page, "exposed", "seconds")).toBeLessThan(exposed);
  // Bytes do not change with overlap; only the exposed time does: exposed = time × (1 − 0.95).
  expect(await num(page, "wire-bytes", "bytes")).toBe(wire);
  expect(await num(page, "wire-bytes", "message")).toBe(message);
  expect(await num(page, "comm-time", "seconds")).toBe(time);
  expect(await num(page, "exposed", "seconds")).toBeCloseTo(time * 0.05, 12);
  await expect.poll(() => num(page, "inventory-total", "exposed")).toBeLessThan(invExposed);
  expect(await rowBytes(page)).toEqual(invBytes);
  expect(await num(page, "inventory-total", "bytes")).toBe(invTotalBytes);
  expect(await num(page, "inventory-total", "time")).toBeCloseTo(invTime, 12);
  expect(await num(page, "inventory-total", "exposed")).toBeCloseTo(invTime * 0.05, 12);
});

test("the one-click trial reports bytes unchanged and the exposed time before → after", async ({ page }) => {
  await openComm(page);
  await page.getByTestId("comm-trial").click();
  await expect(field(page, "overlap").locator("output")).toHaveText("95%");
  const result = page.getByTestId("comm-trial-result");
  await expect(result).toContainText("0% → 95%");
  await expect(result).toContainText("不变");
  await page.locator("#lab .tsl").screenshot({ path: `${shots}/comm-trial-desktop.png` });
});

test("α dominates tiny messages and β dominates huge ones", async ({ page }) => {
  await openComm(page);
  const slider = field(page, "bytes").locator('input[type="range"]');
  await slider.fill("10"); // 1 KiB
  await expect(field(page, "bytes").locator("output")).toHaveText("1.00 KiB");
  await expect.poll(async () => (await num(page, "comm-time", "alpha")) > (await num(page, "comm-time", "beta"))).toBe(true);
  await slider.fill("34"); // 16 GiB
  await expect(field(page, "bytes").locator("output")).toHaveText("16.0 GiB");
  await expect.poll(async () => (await num(page, "comm-time", "beta")) > 100 * (await num(page, "comm-time", "alpha"))).toBe(true);
  // Ring AllReduce on 8 ranks sends 2(n−1)/n · S per rank (nccl-tests PERFORMANCE.md): 1.75 × 16 GiB.
  expect(await num(page, "wire-bytes", "bytes")).toBeCloseTo(1.75 * 2 ** 34, -3);
  await expect(page.getByTestId("candidates").locator("tr.tsl-chosen")).toHaveCount(1);
});

test("a custom link with bandwidth 0 is flagged at the bandwidth control; the last result stays", async ({ page }) => {
  await openComm(page);
  const time = await num(page, "comm-time", "seconds");
  await field(page, "link").locator("select").selectOption("custom");
  await expect(field(page, "bw")).toBeVisible();
  await expect(field(page, "cluster")).toBeHidden();
  await field(page, "bw").locator("input").fill("0");
  const err = field(page, "bw").locator(".tsl-error");
  await expect(err).toContainText("link.bandwidth_Bps：0 必须为正数");
  await expect(page.locator(`${panel} .tsl-result-body`)).toHaveClass(/tsl-stale/);
  await field(page, "bw").locator("input").fill("25");
  await expect(err).toBeHidden();
  // Custom link 25 GB/s, 5 µs: a flat ring of 8 is slower than NVLink at 450 GB/s.
  await expect.poll(() => num(page, "comm-time", "seconds")).toBeGreaterThan(time);
  await field(page, "ranks").locator("input").fill("12");
  await field(page, "link").locator("select").selectOption("nodes");
  await expect(field(page, "ranks").locator(".tsl-error")).toContainText("ranks：12 不是 ranks_per_node = 8 的倍数");
});

test("keyboard: Tab reaches the overlap slider and arrow keys move it in 5% steps", async ({ page }) => {
  await openComm(page);
  await page.locator("#tsl-tab-comm").focus();
  const seen: string[] = [];
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press("Tab");
    seen.push(await page.evaluate(() => document.activeElement?.closest<HTMLElement>("[data-control]")?.dataset.control ?? ""));
  }
  expect(seen).toEqual(["op", "bytes", "ranks", "overlap"]);
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(field(page, "overlap").locator("output")).toHaveText("10%");
  await expect.poll(async () => (await num(page, "exposed", "seconds")) / (await num(page, "comm-time", "seconds"))).toBeCloseTo(0.9, 12);
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  expect(outline).not.toBe("none");
});

test("the inventory lists a scenario's collectives per call and per step", async ({ page }) => {
  await openComm(page);
  const inv = page.getByTestId("inventory");
  await expect(inv.locator("thead")).toContainText("time / 次");
  await expect(inv.locator("thead")).toContainText("exposed / step");
  await field(page, "scenario").locator("select").selectOption("moe");
  await expect(inv).toContainText("alltoall");
  // Each row: per-step time = per-call time × count (comm_inventory.hpp); checked on the totals.
  const total = await num(page, "inventory-total", "time");
  expect(total).toBeGreaterThan(0);
});

test("the inventory runs on the lab's own scenario by default, labelled from it, and follows an edit in another panel", async ({ page }) => {
  await openComm(page);
  const select = field(page, "scenario").locator("select");
  await expect(select).toHaveValue("applied");
  // The lab starts at llama3-70b DP8 TP8 PP4 and 4,096 tokens; the 3D example leaves seq_len at the core's default.
  await expect(select.locator('option[value="applied"]')).toContainText("llama3-70b DP8 TP8 PP4 EP1 CP1 · seq 4,096");
  await expect(select.locator('option[value="3d"]')).toContainText("llama3-70b DP8 TP8 PP4 EP1 CP1 · seq 2,048");
  const lab = await num(page, "inventory-total", "time");
  await select.selectOption("3d");
  await expect.poll(() => num(page, "inventory-total", "time")).not.toBe(lab); // the same layout at another length moves other bytes
  await select.selectOption("applied");
  await page.locator("#tsl-tab-memory").click();
  await page.locator('#lab [data-panel="memory"] [data-control="dp"] input').fill("4");
  await page.locator("#tsl-tab-comm").click();
  await expect(select.locator('option[value="applied"]')).toContainText("llama3-70b DP4 TP8 PP4");
  await expect.poll(() => num(page, "inventory-total", "time")).not.toBe(lab);
});

test("screenshots: desktop and a 390 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openComm(page);
  await page.locator(panel).screenshot({ path: `${shots}/comm-desktop.png` });
  await page.locator("#lab .tsl-lang").click();
  await expect(page.locator("#tsl-tab-comm")).toHaveText("L5 · Collectives");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("comm-time")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "no horizontal scrolling at 390 px").toBeLessThanOrEqual(0);
  await page.locator(panel).screenshot({ path: `${shots}/comm-phone-en.png` });
});
