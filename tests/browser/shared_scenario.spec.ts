// One scenario across panels: a calibrated plan applies with the planner's exact time, a one-stage plan on the pipeline panel, trials at a fixed batch.
import { expect, test, type Page } from "@playwright/test";
import { shots, watchConsole } from "./lab";

const profile = "tests/data/calibration/cpu-2rank-quick.json";
const step = '#lab [data-panel="step"]';
const pipe = '#lab [data-panel="pipeline"]';
const planner = '#lab [data-panel="planner"]';

async function openLab(page: Page): Promise<void> {
  await page.goto("/");
  await expect(page.locator("#lab [data-tslab]")).toHaveAttribute("data-ready", "true");
}

/** llama3-8b on 64 H100s at 4096 tokens: the example; waits for the search to finish. */
async function runPlanner(page: Page): Promise<void> {
  await page.locator("#tsl-tab-planner").click();
  await page.locator(`${planner} [data-control="model"] select`).selectOption("llama3-8b");
  await page.locator(`${planner} [data-control="cluster"] select`).selectOption("dgx-h100");
  await page.locator(`${planner} [data-control="gpus"] input`).fill("64");
  await page.locator(`${planner} [data-control="seq_len"] input`).fill("12");
  await page.getByTestId("plan-run").click();
  await expect(page.getByTestId("plan-pct")).toHaveText("100%", { timeout: 90_000 });
  await expect(page.getByTestId("plan-row").first()).toBeVisible();
}

const stepValue = async (page: Page, id: string) => Number(await page.locator(step).getByTestId(id).getAttribute("data-value"));

let errors: string[] = [];
test.beforeEach(async ({ page }) => {
  errors = watchConsole(page);
});
test.afterEach(() => {
  expect(errors, "console errors").toEqual([]);
});

test("with a profile loaded, the planner's top plan applied to the step panel gives the planner's time (1e-9)", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openLab(page);
  const chooser = page.waitForEvent("filechooser");
  await page.getByTestId("calibration-pick").click();
  await (await chooser).setFiles(profile);
  await expect(page.getByTestId("calibration-badge")).toBeVisible();
  await runPlanner(page);
  const top = page.getByTestId("plan-row").first();
  const planned = Number(await top.getAttribute("data-time"));
  await top.click();
  await expect(page.getByTestId("plan-applied")).toBeVisible();
  await page.locator("#tsl-tab-step").click();
  await expect(page.locator(step).getByTestId("step-time")).toBeVisible();
  const time = await stepValue(page, "step-time");
  expect(Math.abs(time / planned - 1), `step ${time} vs planner ${planned}`).toBeLessThan(1e-9);
  // The step shows the batch the planner ranked the plan with.
  const batch = Number(await page.getByTestId("plan-top").getAttribute("data-global-batch"));
  await expect(page.locator(step).getByTestId("step-global-batch")).toHaveAttribute("data-value", String(batch));
  // Every control shows the applied plan, including a field the plan spells as an object (training.precision).
  const recipe = page.locator(`${step} [data-control="precision"] select`);
  expect(await recipe.inputValue()).not.toBe("");
  expect(await recipe.evaluate((s: HTMLSelectElement) => s.selectedIndex)).toBeGreaterThanOrEqual(0);
  await page.locator(step).screenshot({ path: `${shots}/shared-calibrated-plan-step.png` });
});

test("a one-stage plan after the 1F1B vs DualPipe trial: 'one stage: no pipeline', no error, trial box cleared", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openLab(page);
  await page.locator("#tsl-tab-pipeline").click();
  await page.getByTestId("pipe-trial").click();
  await expect(page.getByTestId("pipe-trial-act-a")).toBeVisible();
  await runPlanner(page);
  const onePP = page.locator('[data-testid="plan-row"][data-pp="1"]').first();
  await onePP.click();
  await page.locator("#tsl-tab-pipeline").click();
  await expect(page.getByTestId("pipe-one-stage")).toBeVisible();
  await expect(page.getByTestId("pipe-one-stage")).toContainText("没有流水线");
  await expect(page.locator(`${pipe} [data-control="pipe_ranks"] input`)).toHaveValue("1");
  await expect(page.locator(`${pipe} .tsl-error:visible`)).toHaveCount(0);
  await expect(page.locator(`${pipe} .tsl-stale-note`)).toBeHidden();
  await expect(page.getByTestId("pipe-trial-act-a")).toHaveCount(0);
  await expect(page.locator(`${pipe} .tsl-trial-result`)).toBeHidden();
  await expect(page.locator(`${pipe} [data-control="pipe_compare"] input`)).not.toBeChecked();
  await page.locator(pipe).screenshot({ path: `${shots}/shared-one-stage-pipeline.png` });
  await page.locator("#lab .tsl-lang").click();
  await expect(page.getByTestId("pipe-one-stage")).toContainText("One stage: no pipeline");
});

test("the TP 16 trial holds the global batch and shows the slower step", async ({ page }) => {
  await openLab(page);
  await page.locator("#tsl-tab-step").click();
  const batch = page.locator(step).getByTestId("step-global-batch");
  await expect(batch).toHaveAttribute("data-source", "auto");
  const before = { time: await stepValue(page, "step-time"), batch: await stepValue(page, "step-global-batch") };
  await page.getByTestId("trial-tp").click();
  await expect(page.locator(`${step} [data-control="tp"] input`)).toHaveValue("16");
  expect(await stepValue(page, "step-global-batch")).toBe(before.batch);
  await expect(page.getByTestId("trial-batch")).toHaveAttribute("data-value", String(before.batch));
  expect(await stepValue(page, "step-time")).toBeGreaterThan(before.time);

  // The case: 64 sequences of 2048 tokens, DP 8 TP 8 PP 4 → DP 4 TP 16 is slower at the same batch
  // (the issue quotes 1.010 s → 1.203 s; today's model gives 0.795 s → 0.885 s), where auto used to halve it (→ 0.515 s).
  await page.locator(`${step} [data-control="tp"] input`).fill("8");
  await page.locator(`${step} [data-control="dp"] input`).fill("8");
  await page.locator(`${step} [data-control="seq_len"] input`).fill("11");
  await page.locator(`${step} [data-control="global_batch"] input`).fill("64");
  await expect(batch).toHaveAttribute("data-value", "64");
  await expect(batch).toHaveAttribute("data-source", "given");
  const fixed = await stepValue(page, "step-time");
  await page.getByTestId("trial-tp").click();
  await expect(page.locator(`${step} [data-control="tp"] input`)).toHaveValue("16");
  const slower = await stepValue(page, "step-time");
  expect(slower).toBeGreaterThan(fixed * 1.05);
  await expect(batch).toHaveAttribute("data-value", "64");
  await page.locator(step).screenshot({ path: `${shots}/shared-tp16-trial.png` });
});
