// The L6 panel: per-rank loads and dispatch bytes come from the core; the trial's lesson (the busiest rank sets the pace)
// holds in numbers in zh and en, on desktop and a 390 × 844 phone; bad input is named at its control; no console errors.
import { expect, test, type Page } from "@playwright/test";
import { shots, watchConsole } from "./lab";

const panel = '#lab [data-panel="expert"]';

async function openL6(page: Page): Promise<void> {
  await page.goto("/");
  await expect(page.locator("#lab [data-tslab]")).toHaveAttribute("data-ready", "true");
  await page.locator("#tsl-tab-expert").click();
  await expect(page.getByTestId("ex-trial")).toBeVisible();
}

const value = async (page: Page, id: string) => Number(await page.getByTestId(id).getAttribute("data-value"));
const rows = (page: Page) =>
  page.locator(`${panel} [data-testid="ex-trial-table"] tr[data-case]`).evaluateAll((els) =>
    Object.fromEntries(
      els.map((e) => {
        const d = (e as HTMLElement).dataset;
        return [d.case!, { imbalance: Number(d.imbalance), busiest: Number(d.busiest), step: Number(d.step) }];
      }),
    ),
  );

let errors: string[] = [];
test.beforeEach(async ({ page }) => {
  errors = watchConsole(page);
});
test.afterEach(() => {
  expect(errors, "console errors").toEqual([]);
});

async function paceTrial(page: Page): Promise<void> {
  await page.getByTestId("ex-trial").click();
  await expect(page.getByTestId("ex-lesson")).toBeVisible({ timeout: 90_000 });
  const r = await rows(page);
  expect(r.flat.imbalance).toBeCloseTo(1, 6); // skew 0: every rank gets the mean
  expect(r.skewed.busiest, "skew raises the busiest rank's expert compute").toBeGreaterThan(r.flat.busiest);
  expect(r.skewed.step, "and the step").toBeGreaterThan(r.flat.step);
  expect(r.fixed.busiest, "redundant experts bring it back").toBeLessThan(r.skewed.busiest);
  expect(r.fixed.step).toBeLessThan(r.skewed.step);
  // The panel now shows the last case: balanced busiest/mean below the static one.
  expect(await value(page, "ex-balanced")).toBeLessThan(await value(page, "ex-imbalance"));
  expect(await value(page, "ex-redundant-bytes")).toBeGreaterThan(0);
}

test("node-limited routing cuts the network bytes; the skew slider moves the busiest rank", async ({ page }) => {
  await openL6(page);
  await paceTrial(page);
  // DeepSeek-V3 on EP 64 over 8 nodes: its router keeps 4 of 8 expert groups (one node each), so
  // a token already reaches at most 4 nodes before any training limit.
  const unlimited = await value(page, "ex-network-unlimited");
  const grouped = await value(page, "ex-network");
  expect(grouped).toBeLessThan(unlimited);
  await expect(page.getByTestId("ex-limit")).toContainText("model.moe.topk_groups");
  await page.locator(`${panel} [data-control="node_limit"] input`).fill("2");
  await expect.poll(() => value(page, "ex-network")).toBeLessThan(grouped);
  await expect(page.getByTestId("ex-limit")).toContainText("training.moe.node_limit");
  const before = await value(page, "ex-imbalance");
  await page.locator(`${panel} [data-control="skew"] input`).fill("1.2");
  await expect.poll(() => value(page, "ex-imbalance")).toBeGreaterThan(before);
  expect(await value(page, "ex-pairs"), "DualPipe pairs chunks").toBeGreaterThan(0);
});

test("a pasted per-expert histogram sets the loads: a skewed one raises the slowest rank's time", async ({ page }) => {
  await openL6(page);
  await paceTrial(page); // deepseek-v3: 256 routed experts over EP 64
  const box = page.locator(`${panel} [data-control="histogram"] textarea`);
  await page.locator(`${panel} [data-control="redundant"] input`).fill("0");
  await box.fill(Array(256).fill("100").join(", "));
  await expect.poll(() => value(page, "ex-imbalance")).toBeCloseTo(1, 6);
  await expect(page.locator(`${panel} [data-control="routing"] select`)).toHaveValue("histogram");
  const even = await value(page, "ex-busiest-s");
  // Experts 0-3 (all on rank 0) get 10× the load of the others.
  await box.fill([...Array(4).fill("1000"), ...Array(252).fill("100")].join(" "));
  await expect.poll(() => value(page, "ex-busiest-s")).toBeGreaterThan(even);
  expect(await value(page, "ex-imbalance")).toBeGreaterThan(1.5);
  // Bad entries and lengths: the core's message, next to the box.
  const error = page.locator(`${panel} [data-control="histogram"] .tsl-error`);
  await box.fill("5, lots, 3");
  await expect(error).toContainText("histogram[1]");
  await box.fill("5, 3");
  await expect(error).toContainText("model.moe.experts = 256");
  await box.fill(Array(256).fill("1").join(","));
  await expect(error).toBeHidden();
});

test("a histogram typed on a dense model and cleared again leaves every panel working", async ({ page }) => {
  await openL6(page); // the lab's starting model, Llama 3 70B: no experts
  const box = page.locator(`${panel} [data-control="histogram"] textarea`);
  await box.fill("5, 3");
  await expect(page.locator(`${panel} [data-control="routing"] select`)).toHaveValue("histogram");
  await box.fill("");
  // Clearing removes the kind too: the core's default routing applies, and no panel is left on "kind histogram needs
  // one load per expert" (the kind used to stay behind without its loads).
  await expect(page.locator(`${panel} [data-control="routing"] select`)).not.toHaveValue("histogram");
  for (const id of ["expert", "memory", "step", "context"]) {
    await page.locator(`#tsl-tab-${id}`).click();
    await expect(page.locator(`#lab [data-panel="${id}"] .tsl-error:visible`), `no error in ${id}`).toHaveCount(0);
  }
});

test("the EP all-to-all overlap (a2a_overlap): refused at its control where it cannot apply, and hides all-to-all under interleaved 1F1B", async ({
  page,
}) => {
  await openL6(page); // Llama 3 70B: no experts
  const box = page.locator(`${panel} [data-control="a2a_overlap"] input`);
  await box.check();
  await expect(page.locator(`${panel} [data-control="a2a_overlap"] .tsl-error`)).toContainText("parallel.ep");
  await box.uncheck();
  await expect(page.locator(`${panel} [data-control="a2a_overlap"] .tsl-error`)).toBeHidden();
  // DeepSeek-V3 on 16 interleaved stages (the memory panel holds vpp): the step hides all-to-all under F&B pairs.
  await page.locator(`${panel} [data-control="model"] select`).selectOption("deepseek-v3");
  for (const [key, value] of [
    ["dp", "64"],
    ["pp", "16"],
    ["ep", "64"],
  ] as const)
    await page.locator(`${panel} [data-control="${key}"] input`).fill(value);
  await page.locator("#tsl-tab-memory").click();
  await page.locator('#lab [data-panel="memory"] [data-control="vpp"] input').fill("2");
  await page.locator("#tsl-tab-expert").click();
  await page.locator(`${panel} [data-control="schedule"] select`).selectOption("interleaved");
  await box.check();
  await expect(page.locator(`${panel} [data-control="a2a_overlap"] .tsl-error`)).toBeHidden();
  await page.locator("#tsl-tab-step").click();
  await expect(page.locator('#lab [data-panel="step"]')).toContainText("F&B");
});

test("an error in a field L6 has no control for is named at its path, not on another control", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("#lab [data-tslab]")).toHaveAttribute("data-ready", "true");
  // VPP 3 under 1F1B, set in the memory panel (L6 shows no VPP control).
  await page.locator('#lab [data-panel="memory"] [data-control="vpp"] input').fill("3");
  await page.locator("#tsl-tab-expert").click();
  await expect(page.locator(`${panel} .tsl-general`)).toContainText("parallel.vpp");
  await expect(page.locator(`${panel} [data-control="dp"] .tsl-error`)).toBeHidden(); // it used to light up DP
});

test("bad input is named at its control", async ({ page }) => {
  await openL6(page);
  await paceTrial(page);
  await page.locator(`${panel} [data-control="redundant"] input`).fill("10");
  await expect(page.locator(`${panel} [data-control="redundant"] .tsl-error`)).toContainText("不是 ep = 64 的倍数"); // the core's reason in zh-CN
  await page.locator(`${panel} [data-control="redundant"] input`).fill("64");
  await expect(page.locator(`${panel} [data-control="redundant"] .tsl-error`)).toBeHidden();
});

test("trial in zh on desktop", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openL6(page);
  await paceTrial(page);
  await expect(page.getByTestId("ex-lesson")).toContainText("最忙");
  await page.locator(panel).screenshot({ path: `${shots}/expert-zh.png` });
});

test("trial in en on a 390 × 844 phone, no horizontal scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openL6(page);
  await page.locator("#lab .tsl-lang").click();
  await expect(page.getByTestId("ex-trial")).toHaveText(/busiest rank sets the pace/);
  await paceTrial(page);
  await expect(page.getByTestId("ex-lesson")).toContainText("busiest rank");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "no horizontal scrolling at 390 px").toBeLessThanOrEqual(0);
  await page.locator(panel).screenshot({ path: `${shots}/expert-phone-en.png` });
});
