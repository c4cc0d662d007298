// The planner: a small search reaches 100% with a top table and Pareto points, cancel on a big one, a pick updates every other panel, the lab's configuration against the best, keyboard, screenshots.
import { expect, test, type Page } from "@playwright/test";
import { shots, watchConsole } from "./lab";

const panel = '#lab [data-panel="planner"]';

async function openPlanner(page: Page): Promise<void> {
  await page.goto("/");
  await expect(page.locator("#lab [data-tslab]")).toHaveAttribute("data-ready", "true");
  await page.locator("#tsl-tab-planner").click();
  await expect(page.getByTestId("plan-run")).toBeVisible();
}

const field = (page: Page, key: string) => page.locator(`${panel} [data-control="${key}"]`);

/** llama3-8b on 64 H100s: a search of a few thousand combinations that finishes in seconds. */
async function runSmall(page: Page): Promise<void> {
  await field(page, "model").locator("select").selectOption("llama3-8b");
  await field(page, "gpus").locator("input").fill("64");
  await page.getByTestId("plan-run").click();
  await expect(page.getByTestId("plan-pct")).toHaveText("100%", { timeout: 90_000 });
  await expect(page.getByTestId("plan-top").locator("tbody tr").first()).toBeVisible();
}

let errors: string[] = [];
test.beforeEach(async ({ page }) => {
  errors = watchConsole(page);
});
test.afterEach(() => {
  expect(errors, "console errors").toEqual([]);
});

test("a small search reaches 100%, lists the fastest plans in order and draws the Pareto front", async ({ page }) => {
  await openPlanner(page);
  await runSmall(page);
  await expect(page.getByTestId("plan-run")).toBeEnabled();
  const rows = page.getByTestId("plan-row");
  expect(await rows.count()).toBeGreaterThan(1);
  // Every plan uses all 64 GPUs: dp·tp·pp·cp = 64 (the planner's search space, core/src/planner.cpp).
  const worlds = await rows.evaluateAll((rs) =>
    rs.map((r) => {
      const d = (r as HTMLElement).dataset;
      return Number(d.dp) * Number(d.tp) * Number(d.pp) * Number(d.cp);
    }),
  );
  for (const w of worlds) expect(w).toBe(64);
  const times = await rows.evaluateAll((rs) => rs.map((r) => Number((r as HTMLElement).dataset.time)));
  expect(times).toEqual([...times].sort((a, b) => a - b));
  expect(await page.getByTestId("pareto-point").count()).toBeGreaterThan(0);
  // The heading names the front's window, the core's pareto_window (2×).
  await expect(page.locator(".tsl-plan-pareto h3")).toContainText("2×");
  await expect(page.getByTestId("plan-status")).toContainText(/64|considered|考虑/);
  // No global batch given: the planner's default, max(4M tokens / 4096, 64 GPUs) = 1024 sequences (core/src/planner_output.cpp).
  await expect(page.getByTestId("plan-top")).toHaveAttribute("data-global-batch", "1024");
  await expect(page.getByTestId("plan-status")).toContainText("1024");
});

test("the search in parts (one Web Worker per core) lists what one worker lists", async ({ browser }) => {
  // The panel runs min(8, hardwareConcurrency) parts and merges them in a worker (core planner.hpp,
  // merged_from_json); with one core it runs the search alone. Both list the same plans.
  const rowsWith = async (cores: number) => {
    const page = await browser.newPage();
    const seen = watchConsole(page);
    const planners: string[] = [];
    page.on("worker", (w) => void (w.url().includes("planner") && planners.push(w.url())));
    await page.addInitScript((n) => Object.defineProperty(navigator, "hardwareConcurrency", { get: () => n }), cores);
    await openPlanner(page);
    await runSmall(page);
    const rows = await page.getByTestId("plan-row").evaluateAll((rs) =>
      rs.map((r) => {
        const d = (r as HTMLElement).dataset;
        return `${d.dp}/${d.tp}/${d.pp}/${d.cp}/${d.mb} ${d.time}`;
      }),
    );
    const status = await page.getByTestId("plan-status").textContent();
    expect(seen, "console errors").toEqual([]);
    await page.close();
    return { rows, workers: planners.length, evaluated: /(\d+)[^\d]+(\d+)/.exec(status ?? "")?.slice(1, 3) };
  };
  const alone = await rowsWith(1);
  const parts = await rowsWith(3);
  expect([alone.workers, parts.workers]).toEqual([1, 3]);
  expect(alone.rows.length).toBeGreaterThan(1);
  expect(parts.rows).toEqual(alone.rows);
  expect(parts.evaluated).toEqual(alone.evaluated); // considered and evaluated, summed over the parts
});

test("cancel stops a big search and leaves Run usable", async ({ page }) => {
  await openPlanner(page);
  await field(page, "model").locator("select").selectOption("deepseek-v3");
  await field(page, "gpus").locator("input").fill("2048");
  await page.getByTestId("plan-run").click();
  await expect(page.getByTestId("plan-cancel")).toBeEnabled();
  await page.getByTestId("plan-cancel").click();
  await expect(page.getByTestId("plan-status")).toHaveText(/已取消|Cancelled/);
  await expect(page.getByTestId("plan-run")).toBeEnabled();
  await expect(page.getByTestId("plan-cancel")).toBeDisabled();
  await expect(page.getByTestId("plan-row")).toHaveCount(0);
});

test("nothing fits (llama3-405b on 8 GPUs): the core's closest-miss message and that one plan are shown", async ({ page }) => {
  await openPlanner(page);
  await field(page, "model").locator("select").selectOption("llama3-405b");
  await field(page, "gpus").locator("input").fill("8");
  await page.getByTestId("plan-run").click();
  await expect(page.getByTestId("plan-pct")).toHaveText("100%", { timeout: 90_000 });
  await expect(page.getByTestId("plan-message")).toBeVisible();
  await expect(page.getByTestId("plan-message")).toContainText("没有方案放得进 HBM；最接近的");
  await expect(page.getByTestId("plan-row")).toHaveCount(1);
});

test("a bad global batch is named next to its control, and the search does not start", async ({ page }) => {
  await openPlanner(page);
  await field(page, "global_batch").locator("input").fill("0");
  await page.getByTestId("plan-run").click();
  await expect(field(page, "global_batch").locator(".tsl-error")).toContainText("training.global_batch");
  await expect(page.getByTestId("plan-run")).toBeEnabled();
  await expect(page.getByTestId("plan-row")).toHaveCount(0);
});

test("clicking a plan applies it to the memory, step, mesh, pipeline and communication panels; Enter on a Pareto point does the same", async ({
  page,
}) => {
  await openPlanner(page);
  // A memory-panel setting the planner does not search (the optimizer) goes back to what the plan was ranked with.
  await page.locator("#tsl-tab-memory").click();
  await page.locator('#lab [data-panel="memory"] [data-control="optimizer"] select').selectOption("sgd");
  await page.locator("#tsl-tab-planner").click();
  await runSmall(page);
  const row = page.getByTestId("plan-row").nth(1);
  const want = await row.evaluate((r) => ({ ...(r as HTMLElement).dataset }));
  await row.click();
  await expect(page.getByTestId("plan-applied")).toBeVisible();
  // A new search: the last search's "applied" line goes (it no longer describes the table).
  await page.getByTestId("plan-run").click();
  await expect(page.getByTestId("plan-applied")).toBeHidden();
  await expect(page.getByTestId("plan-pct")).toHaveText("100%", { timeout: 90_000 });
  await page.getByTestId("plan-row").nth(1).click();
  await expect(page.getByTestId("plan-applied")).toBeVisible();
  await page.locator("#tsl-tab-memory").click();
  const mem = '#lab [data-panel="memory"]';
  for (const axis of ["dp", "tp", "pp"]) await expect(page.locator(`${mem} [data-control="${axis}"] input`)).toHaveValue(want[axis]!);
  await expect(page.locator(`${mem} [data-control="model"] select`)).toHaveValue("llama3-8b");
  // The memory panel's total is the planner's memory for the plan (the plan JSON truncates to whole bytes).
  const total = Number(await page.locator(mem).getByTestId("total").getAttribute("data-bytes"));
  expect(Math.abs(total - Number(want.memory))).toBeLessThanOrEqual(1);
  await page.locator("#tsl-tab-step").click();
  await expect(page.locator('#lab [data-panel="step"] [data-control="tp"] input')).toHaveValue(want.tp!);
  // The step panel now holds the plan's whole training shape, so its report gives the planner's step time.
  const stepTime = Number(await page.locator('#lab [data-panel="step"]').getByTestId("step-time").getAttribute("data-value"));
  expect(Math.abs(stepTime / Number(want.time) - 1)).toBeLessThan(1e-9);
  await page.locator("#tsl-tab-mesh").click();
  for (const axis of ["dp", "tp", "pp", "cp"])
    await expect(page.locator(`#lab [data-panel="mesh"] [data-control="${axis}"] input`)).toHaveValue(want[axis]!);
  await page.locator("#tsl-tab-pipeline").click();
  await expect(page.locator('#lab [data-panel="pipeline"] [data-control="pipe_ranks"] input')).toHaveValue(want.pp!);
  // m = global_batch / (micro_batch · dp), the planner's own micro-batch count.
  const batch = Number(await page.getByTestId("plan-top").getAttribute("data-global-batch"));
  const m = String(batch / (Number(want.mb) * Number(want.dp)));
  await expect(page.locator('#lab [data-panel="pipeline"] [data-control="pipe_m"] input')).toHaveValue(m);
  await expect(page.locator('#lab [data-panel="pipeline"] .tsl-error:visible')).toHaveCount(0);
  // The communication panel's inventory switches to the applied plan.
  await page.locator("#tsl-tab-comm").click();
  const comm = '#lab [data-panel="comm"]';
  await expect(page.locator(`${comm} [data-control="scenario"] select`)).toHaveValue("applied");
  await expect(page.locator(`${comm} [data-control="scenario"] option[value="applied"]`)).toContainText(
    `llama3-8b DP${want.dp} TP${want.tp} PP${want.pp}`,
  );
  await expect(page.locator(comm).getByTestId("inventory")).toBeVisible();
  await page.locator(comm).screenshot({ path: `${shots}/planner-applied-comm.png` });

  await page.locator("#tsl-tab-planner").click();
  const point = page.getByTestId("pareto-point").first();
  await point.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("plan-applied")).toContainText(/DP \d+/);
});

test("compare: the lab's configuration is searched on its own GPUs and set against the best plan, with the costs between them", async ({ page }) => {
  await openPlanner(page);
  await page.getByTestId("plan-compare").click();
  await expect(page.getByTestId("plan-pct")).toHaveText("100%", { timeout: 90_000 });
  // The settings follow the lab's starting configuration: llama3-70b, DP 8 · TP 8 · PP 4 = 256 GPUs, 4096 tokens (web/src/state.ts).
  await expect(field(page, "model").locator("select")).toHaveValue("llama3-70b");
  await expect(field(page, "gpus").locator("input")).toHaveValue("256");
  const own = page.getByTestId("plan-own");
  await expect(own).toBeVisible();
  await expect(page.getByTestId("plan-own-plan")).toContainText("DP 8 · TP 8 · PP 4");
  // Its rank is the place of the first listed plan of its layout (dp, tp, pp, cp, ep); 0 when none is listed.
  const layouts = await page.getByTestId("plan-row").evaluateAll((rs) =>
    rs.map((r) => {
      const d = (r as HTMLElement).dataset;
      return `${d.dp}/${d.tp}/${d.pp}/${d.cp}/${d.ep}`;
    }),
  );
  expect(Number(await own.getAttribute("data-rank"))).toBe(layouts.indexOf("8/8/4/1/1") + 1);
  // The best plan's speed-up over the lab's plan is the ratio of the two step times.
  const best = Number(await page.getByTestId("plan-row").first().getAttribute("data-time"));
  const mine = Number(await own.getAttribute("data-time"));
  expect(best).toBeLessThanOrEqual(mine);
  await expect(page.getByTestId("plan-own-versus")).toContainText(`${(mine / best).toFixed(2)}×`);
  // Each difference is a step-bar segment with a signed time, in the lab's language.
  await expect(page.getByTestId("plan-own-versus")).toContainText(/[−+]\d/);
  await expect(page.getByTestId("plan-own-layout")).toContainText("同一 layout 用最佳旋钮");
  await own.screenshot({ path: `${shots}/planner-compare-zh.png` });
  await page.locator("#lab [data-tsl-lang]").click();
  await expect(page.getByTestId("plan-own-plan")).toContainText("Your configuration (DP 8 · TP 8 · PP 4");
  await expect(page.getByTestId("plan-compare")).toHaveText("Compare with the lab's configuration");
  await page.setViewportSize({ width: 390, height: 844 });
  await own.screenshot({ path: `${shots}/planner-compare-phone.png` });
});

test("compare: a lab configuration the core rejects is named in the planner's status, and both buttons stay usable", async ({ page }) => {
  await openPlanner(page);
  // TP 12 does not divide llama3-70b's 64 heads: the memory panel keeps the edit (and flags it), the planner's search refuses it.
  await page.locator("#tsl-tab-memory").click();
  await page.locator('#lab [data-panel="memory"] [data-control="tp"] input').fill("12");
  await page.locator("#tsl-tab-planner").click();
  await page.getByTestId("plan-compare").click();
  await expect(page.getByTestId("plan-status")).toContainText("parallel.tp");
  await expect(page.getByTestId("plan-status")).toHaveClass(/tsl-oom/);
  await expect(page.getByTestId("plan-run")).toBeEnabled();
  await expect(page.getByTestId("plan-compare")).toBeEnabled();
  await expect(page.getByTestId("plan-own")).toBeHidden();
});

test("keyboard: Tab from the last setting reaches Run, Enter runs, Tab reaches the table rows and the scatter points", async ({ page }) => {
  await openPlanner(page);
  await field(page, "gpus").locator("input").fill("64");
  await field(page, "global_batch").locator("input").focus();
  await page.keyboard.press("Tab");
  await expect(page.getByTestId("plan-run")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("plan-pct")).toHaveText("100%", { timeout: 90_000 });
  await page.getByTestId("plan-row").first().focus();
  await page.keyboard.press("Tab");
  await expect(page.getByTestId("plan-row").nth(1)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("plan-applied")).toBeVisible();
  await page.getByTestId("plan-row").last().focus();
  // The scatter scrolls in a frame of its own (a tab stop, so a keyboard can scroll it on a phone), then come its points.
  await page.keyboard.press("Tab");
  await expect(page.locator('#lab [data-panel="planner"] .tsl-plan-frame')).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByTestId("pareto-point").first()).toBeFocused();
});

test("screenshots: desktop and a 390 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openPlanner(page);
  await runSmall(page);
  await page.getByTestId("plan-row").first().click();
  await page.locator("#lab .tsl").screenshot({ path: `${shots}/planner-desktop.png` });
  await page.locator("#tsl-tab-pipeline").click();
  await page.locator('#lab [data-panel="pipeline"]').screenshot({ path: `${shots}/planner-applied-pipeline.png` });
  await page.locator("#tsl-tab-planner").click();
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "no horizontal scrolling at 390 px").toBeLessThanOrEqual(0);
  await page.locator(`${panel} .tsl-results`).screenshot({ path: `${shots}/planner-phone-results.png` });
});

test("before any search the idle hint, and a GPU error, follow the language", async ({ page }) => {
  await openPlanner(page);
  const status = page.locator(`${panel} .tsl-plan-status, ${panel} [data-testid="plan-status"]`).first();
  const zh = await status.textContent();
  await field(page, "gpus").locator("input").fill("0");
  await page.locator("#lab [data-tsl-lang]").click();
  await expect(status).not.toHaveText(zh!);
  await expect(status).not.toContainText(/[\u4e00-\u9fff]/);
  await expect(field(page, "gpus").locator(".tsl-error")).toContainText("a whole number from 1 to 65,536");
});

test("the GPU count is checked as the reader types, against the core's limit, and the error clears once fixed", async ({ page }) => {
  await openPlanner(page);
  const input = field(page, "gpus").locator("input");
  const error = field(page, "gpus").locator(".tsl-error");
  // ("abc" cannot be typed into a number input: it reads as "", as a cleared box does.)
  for (const bad of ["-8", "0", "", "1e400", "1e8", "100000", "64.5"]) {
    await input.fill(bad);
    await expect(error, bad).toContainText("65,536"); // the core's max_plan_gpus (presets().vocabulary.limits.plan_gpus)
    await expect(error, bad).toContainText("options.gpus");
  }
  await page.getByTestId("plan-run").click(); // refused: no search starts
  await expect(page.getByTestId("plan-cancel")).toBeDisabled();
  await input.fill("64");
  await expect(error).toBeHidden();
  await expect(input).toHaveAttribute("max", "65536");
});

test("the planner starts from the lab's own model, cluster and sequence, as every other panel does", async ({ page }) => {
  await openPlanner(page);
  await expect(field(page, "model").locator("select")).toHaveValue("llama3-70b"); // the lab's starting scenario
  await expect(field(page, "cluster").locator("select")).toHaveValue("dgx-h100");
  await expect(field(page, "seq_len").locator("output")).toHaveText("4,096");
});
