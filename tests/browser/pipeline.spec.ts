// The pipeline lab (L4) on the built course page: schedule → timeline and numbers, trial, keyboard, inline errors, cap.
import { expect, test, type Page } from "@playwright/test";
import { shots, watchConsole } from "./lab";

async function openPipeline(page: Page): Promise<void> {
  await page.goto("/");
  await expect(page.locator("#lab [data-tslab]")).toHaveAttribute("data-ready", "true");
  await page.locator('#lab [role="tab"][aria-controls$="-panel-pipeline"]').click();
  await expect(page.getByTestId("pipe-run-a")).toBeVisible();
}

const field = (page: Page, key: string) => page.locator(`#lab [data-control="${key}"]`);
const value = async (page: Page, testid: string) => Number(await page.getByTestId(testid).getAttribute("data-value"));
const blocks = (page: Page, side = "a") => page.locator(`#lab [data-testid="pipe-timeline-${side}"] .tsl-pipe-block`);

let errors: string[] = [];
test.beforeEach(async ({ page }) => {
  errors = watchConsole(page);
});
test.afterEach(() => {
  expect(errors, "console errors").toEqual([]);
});

test("the default 1F1B timeline: one row per rank, 2pm blocks, bubble (p−1)/(m+p−1)", async ({ page }) => {
  await openPipeline(page);
  // p = 4, m = 8: 1F1B runs one F and one B per micro-batch and rank (Narayanan et al. arXiv 2104.04473 §2.2).
  await expect(blocks(page)).toHaveCount(2 * 4 * 8);
  const ranks = await blocks(page).evaluateAll((els) => new Set(els.map((e) => (e as SVGElement).dataset.r)).size);
  expect(ranks).toBe(4);
  // Idle (p−1)(F+B) of makespan (m+p−1)(F+B): 3/11.
  expect(await value(page, "pipe-bubble-a")).toBeCloseTo(3 / 11, 9);
  expect(await value(page, "pipe-makespan-a")).toBeCloseTo(11 * 3, 9);
  // The memory panel is hidden while this tab is shown.
  await expect(page.locator('#lab [data-panel="memory"]')).toBeHidden();
});

test("changing the schedule changes the timeline and the numbers", async ({ page }) => {
  await openPipeline(page);
  const label = await page.getByTestId("pipe-timeline-a").getAttribute("aria-label");
  // 1F1B reads neither v nor W: both are greyed out until a schedule that reads them is chosen.
  await expect(field(page, "pipe_v").locator("input")).toBeDisabled();
  await expect(field(page, "pipe_w").locator("input")).toBeDisabled();
  await field(page, "pipe_schedule").locator("select").selectOption("zb-h1");
  await expect(field(page, "pipe_w").locator("input")).toBeEnabled();
  await expect(field(page, "pipe_v").locator("input")).toBeDisabled();
  // ZB-H1 idles (p−1)(F+B−2W) = 3·(1+2−2) = 3 s instead of 9 s (DualPipe README table, row ZB1P).
  await expect.poll(() => value(page, "pipe-makespan-a")).toBeCloseTo(8 * 3 + 3, 9);
  await expect(page.getByTestId("pipe-timeline-a")).not.toHaveAttribute("aria-label", label!);
  await expect(page.locator('#lab [data-testid="pipe-timeline-a"] [data-kind="W"]')).toHaveCount(4 * 8);
  await expect(page.locator('#lab [data-testid="pipe-timeline-a"] [data-kind="I"]')).toHaveCount(4 * 8);
  await field(page, "pipe_ranks").locator("input").fill("6");
  await expect(blocks(page)).toHaveCount(3 * 6 * 8);
  await field(page, "pipe_schedule").locator("select").selectOption("interleaved");
  // Interleaved needs m divisible by p (Narayanan et al. §2.2): 8 on 6 ranks is flagged at m.
  await expect(field(page, "pipe_m").locator(".tsl-error")).toContainText("能被 ranks = 6 整除");
  await field(page, "pipe_m").locator("input").fill("12");
  await expect(page.getByTestId("pipe-run-a")).toHaveAttribute("data-schedule", "interleaved");
  await expect(field(page, "pipe_v").locator("input")).toBeEnabled();
  // v = 2 chunks per rank: 2 ops × 6 ranks × 12 micro-batches × 2 chunks.
  await expect(blocks(page)).toHaveCount(2 * 6 * 12 * 2);
});

test("trial: 1F1B vs DualPipe shows 1× vs 2× parameters and PP vs PP+1 activations", async ({ page }) => {
  await openPipeline(page);
  await page.getByTestId("pipe-trial").click();
  await expect(page.getByTestId("pipe-run-b")).toHaveAttribute("data-schedule", "dualpipe");
  await expect(page.getByTestId("pipe-run-a")).toHaveAttribute("data-schedule", "1f1b");
  // DualPipe README, "Pipeline Bubbles and Memory Usage": 1F1B 1× params, PP activations; DualPipe 2×, PP+1.
  expect(await value(page, "pipe-trial-params-a")).toBe(1);
  expect(await value(page, "pipe-trial-params-b")).toBe(2);
  expect(await value(page, "pipe-trial-act-a")).toBe(8);
  expect(await value(page, "pipe-trial-act-b")).toBe(9);
  expect(await value(page, "pipe-copies-b")).toBe(2);
  expect(await value(page, "pipe-stage-params-b")).toBe(2);
  await expect(field(page, "pipe_compare").locator("input")).toBeChecked();
  await expect(blocks(page, "b").first()).toBeVisible();
});

test("keyboard: Tab reaches the timeline, arrows move between blocks, each block is named", async ({ page }) => {
  await openPipeline(page);
  await page.getByTestId("pipe-trial").focus();
  await page.keyboard.press("Tab");
  const active = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? "");
  expect(await active()).toMatch(/^rank 0 · F · mb 0 · chunk 0 · 0–1 s$/);
  await expect(page.getByTestId("pipe-info-a")).toHaveText(/^rank 0 · F · mb 0 · chunk 0/);
  await page.keyboard.press("ArrowRight");
  expect(await active()).toMatch(/^rank 0 · F · mb 1 · chunk 0/);
  await page.keyboard.press("ArrowDown");
  // Rank 1's first forward (mb 0, 1–2 s) is the block nearest in time to rank 0's mb 1 (1–2 s).
  expect(await active()).toMatch(/^rank 1 · F · mb 0 · chunk 0 · 1–2 s/);
  await expect(page.getByTestId("pipe-info-a")).toHaveText(/^rank 1 · F · mb 0/);
  await page.keyboard.press("End");
  expect(await active()).toMatch(/^rank 1 · B · mb 7/);
  // A roving tabindex: only one block of the timeline is in the Tab order.
  await expect(page.locator('#lab [data-testid="pipe-timeline-a"] [tabindex="0"]')).toHaveCount(1);
  const stroke = await page.evaluate(() => getComputedStyle(document.activeElement!).strokeWidth);
  expect(stroke).toBe("3px");
  // Hover names a block too.
  await blocks(page).nth(5).hover();
  await expect(page.getByTestId("pipe-info-a")).toHaveText(/^rank 0 · (F|B) · mb \d+ · chunk 0/);
});

test("bad input is shown next to its control and the last timeline stays, dimmed", async ({ page }) => {
  await openPipeline(page);
  await field(page, "pipe_schedule").locator("select").selectOption("dualpipe");
  await expect(page.getByTestId("pipe-run-a")).toHaveAttribute("data-schedule", "dualpipe");
  await field(page, "pipe_ranks").locator("input").fill("3");
  await expect(field(page, "pipe_ranks").locator(".tsl-error")).toContainText("ranks：DualPipe 需要偶数个 rank（PP），实际为 3");
  await expect(page.locator("#lab .tsl-pipe-body")).toHaveClass(/tsl-stale/);
  await expect(blocks(page).first()).toBeVisible();
  await field(page, "pipe_ranks").locator("input").fill("4");
  await field(page, "pipe_m").locator("input").fill("6");
  await expect(field(page, "pipe_m").locator(".tsl-error")).toContainText("microbatches：dualpipe 需要 m ≥ 2·ranks = 8");
  await expect(field(page, "pipe_ranks").locator(".tsl-error")).toBeHidden();
  await field(page, "pipe_m").locator("input").fill("8");
  await field(page, "pipe_f").locator("input").fill("");
  await expect(field(page, "pipe_f").locator(".tsl-error")).toContainText("costs.F：应为数字，实际是 字符串"); // the type name in zh too
  await page.locator("#lab .tsl").screenshot({ path: `${shots}/pipeline-error.png` });
  await field(page, "pipe_f").locator("input").fill("1");
  await field(page, "pipe_fb").locator("input").fill("9");
  await expect(field(page, "pipe_fb").locator(".tsl-error")).toContainText("costs.FB：重叠的 F&B 对 FB = 9 不能超过 F + B = 3");
  await field(page, "pipe_fb").locator("input").fill("");
  await expect(page.locator("#lab .tsl-pipe-body")).not.toHaveClass(/tsl-stale/);
  await expect(page.locator("#lab .tsl-pipe .tsl-error:visible")).toHaveCount(0);
});

test("a huge schedule shows its numbers and says the timeline is capped", async ({ page }) => {
  await openPipeline(page);
  await field(page, "pipe_schedule").locator("select").selectOption("dualpipev");
  await field(page, "pipe_ranks").locator("input").fill("64");
  await field(page, "pipe_m").locator("input").fill("512");
  await expect(page.locator("#lab .tsl-pipe-capped")).toBeVisible();
  await expect(page.locator("#lab .tsl-pipe-capped")).toContainText("4,000");
  // DualPipeV on 64 ranks runs 128 stages × 512 micro-batches: far more ops than the drawing cap.
  expect(await value(page, "pipe-ops-a")).toBeGreaterThan(4000);
  expect(await value(page, "pipe-copies-a")).toBe(1);
  expect(await value(page, "pipe-stage-params-a")).toBe(2);
  await expect(blocks(page)).toHaveCount(0);
});

test("a large schedule runs in the Worker: the page says so, keeps the last results, then shows the full run", async ({ page }) => {
  await openPipeline(page);
  // 1F1B on 8 ranks with 100,000 micro-batches lists 2·8·100,000 = 1.6M ops, over the core's
  // max_foreground_ops (schedule_io.hpp): the core's scheduleWork says so before any simulation.
  await field(page, "pipe_ranks").locator("input").fill("8");
  // The Worker can finish within one poll of expect(): record the busy line and the dimmed body as they happen.
  await page.locator('#lab [data-panel="pipeline"]').evaluate((panel) => {
    const seen = { busy: false, pending: false };
    (window as unknown as { pipeSeen: typeof seen }).pipeSeen = seen;
    const busy = panel.querySelector<HTMLElement>('[data-testid="pipe-busy"]')!,
      body = panel.querySelector(".tsl-pipe-body")!;
    new MutationObserver(() => {
      seen.busy ||= !busy.hidden && busy.textContent !== "";
      seen.pending ||= body.classList.contains("tsl-pipe-pending");
    }).observe(panel, { attributes: true, childList: true, subtree: true, characterData: true });
  });
  await field(page, "pipe_m").locator("input").fill("100000");
  await expect.poll(() => page.evaluate(() => (window as unknown as { pipeSeen: object }).pipeSeen)).toEqual({ busy: true, pending: true });
  await expect(page.getByTestId("pipe-busy")).toBeHidden({ timeout: 90_000 });
  expect(await value(page, "pipe-ops-a")).toBe(2 * 8 * 100_000);
  // 1F1B idles (p − 1)(F + B) of (m + p − 1)(F + B) (Narayanan et al. arXiv 2104.04473 §2.2).
  expect(await value(page, "pipe-bubble-a")).toBeCloseTo(7 / 100_007, 9);
  // A small run after a large one is back on the page at once, and a bad value still shows inline.
  await field(page, "pipe_m").locator("input").fill("8");
  await expect(blocks(page)).toHaveCount(2 * 8 * 8);
  await field(page, "pipe_m").locator("input").fill("0");
  await expect(field(page, "pipe_m").locator(".tsl-error")).toContainText("microbatches");
});

test("English toggle relabels the pipeline panel", async ({ page }) => {
  await openPipeline(page);
  await page.locator("#lab .tsl-lang").click();
  await expect(page.locator('#lab [role="tab"][aria-controls$="-panel-pipeline"]')).toHaveText("L4 · Pipeline");
  await expect(page.getByTestId("pipe-trial")).toHaveText("Try it: 1F1B vs DualPipe parameter copies");
  await expect(page.getByTestId("pipe-bubble-a").locator("dt")).toHaveText("Bubble fraction");
});

test("screenshots: pipeline on desktop and a 390 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openPipeline(page);
  await page.locator("#lab .tsl").screenshot({ path: `${shots}/pipeline-desktop.png` });
  await page.getByTestId("pipe-trial").click();
  await expect(page.getByTestId("pipe-trial-act-b")).toBeVisible();
  await page.getByTestId("pipe-trial").focus();
  await page.keyboard.press("Tab");
  await page.keyboard.press("ArrowRight");
  await page.locator("#lab .tsl").screenshot({ path: `${shots}/pipeline-desktop-trial.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("pipe-run-b")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "no horizontal scrolling at 390 px").toBeLessThanOrEqual(0);
  await page.locator("#lab .tsl").screenshot({ path: `${shots}/pipeline-phone.png` });
});
