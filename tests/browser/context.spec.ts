// The L7 long-context panel on the built course page: methods side by side, the log slider, zig-zag balance, the 128K trial in zh and en, a phone.
import { expect, test, type Page } from "@playwright/test";
import { shots, watchConsole } from "./lab";

const ctx = '#lab [data-panel="context"]';
const GIB = 2 ** 30;

async function openContext(page: Page): Promise<void> {
  await page.goto("/");
  await expect(page.locator("#lab [data-tslab]")).toHaveAttribute("data-ready", "true");
  await page.locator("#tsl-tab-context").click();
  await expect(page.locator(`${ctx} [data-testid="ctx-methods"]`)).toBeVisible();
}

const num = async (page: Page, sel: string, attr: string) => Number(await page.locator(sel).getAttribute(attr));

let errors: string[] = [];
test.beforeEach(async ({ page }) => {
  errors = watchConsole(page);
});
test.afterEach(() => {
  expect(errors, "console errors").toEqual([]);
});

/** The 128K trial's lesson in numbers, whatever the language: CP 1 misses HBM, CP 8 fits, K/V bytes cross the network. */
async function trialHolds(page: Page): Promise<void> {
  await page.getByTestId("ctx-trial").click();
  const lesson = page.getByTestId("ctx-lesson");
  await expect(lesson).toBeVisible();
  const before = await num(page, '[data-testid="ctx-lesson"]', "data-before-bytes");
  const after = await num(page, '[data-testid="ctx-lesson"]', "data-after-bytes");
  const cap = await num(page, '[data-testid="ctx-lesson"]', "data-capacity");
  // The H100 SXM5 80GB carries 80 GiB of HBM (datasheet; README "HBM capacities follow the parts").
  expect(cap).toBe(80 * GIB);
  expect(before).toBeGreaterThan(cap);
  expect(after).toBeLessThan(cap);
  expect(await num(page, '[data-testid="ctx-lesson"]', "data-cp-bytes")).toBeGreaterThan(0);
  // TP 8 fills each 8-GPU node, so the cp group of 8 spans 8 nodes: the ring passes cross the network.
  await expect(lesson).toHaveAttribute("data-link", "inter");
  await expect(page.locator(`${ctx} [data-control="cp"] input`)).toHaveValue("8");
}

test("trial: one 128K sequence does not fit at CP 1 and fits at CP 8, with K/V traffic on the network (zh)", async ({ page }) => {
  await openContext(page);
  await trialHolds(page);
  const lesson = page.getByTestId("ctx-lesson");
  await expect(lesson).toContainText("超过 HBM");
  await expect(lesson).toContainText("网络（跨节点）");
  // The scenario moved: cp 8 is active; Ulysses cannot split Llama 3 8B's 32 / 8 = 4 heads per TP rank 8 ways, and says why.
  await expect(page.locator(`${ctx} tr[data-method="ring"]`)).toHaveAttribute("data-active", "true");
  await expect(page.getByTestId("ctx-reason-ulysses")).toContainText("不能整除每个 TP rank 的头数"); // the core's reason in zh-CN
  await expect(page.locator(`${ctx} [data-control="cp"] input`)).toHaveValue("8");
  // Zig-zag over 2·8 chunks balances causal work exactly; contiguous chunks leave the last rank near (2·8 − 1)/8.
  const balance = page.getByTestId("ctx-balance");
  expect(Number(await balance.getAttribute("data-zigzag"))).toBeCloseTo(1, 12);
  expect(Number(await balance.getAttribute("data-contiguous"))).toBeCloseTo(15 / 8, 3);
  await page.screenshot({ path: `${shots}/context-trial-zh.png`, fullPage: true });
});

test("the same trial in English", async ({ page }) => {
  await openContext(page);
  await page.locator("#lab [data-tsl-lang]").click();
  await trialHolds(page);
  const lesson = page.getByTestId("ctx-lesson");
  await expect(lesson).toContainText("over the 80.0 GiB of HBM");
  await expect(lesson).toContainText("network (across nodes)");
  await expect(page.locator("#tsl-tab-context")).toHaveText("L7 · Long context");
  await page.locator(ctx).screenshot({ path: `${shots}/context-trial-en.png` });
});

test("the log slider runs from 4K to 1M tokens and memory grows with it", async ({ page }) => {
  await openContext(page);
  const slider = page.locator(`${ctx} [data-control="ctx_seq"] input[type="range"]`);
  await slider.fill("0");
  await expect(page.locator(`${ctx} [data-control="ctx_seq"] output`)).toHaveText("4,096");
  const small = await num(page, `${ctx} [data-testid="ctx-mem-sp"]`, "data-value");
  await slider.fill("8");
  await expect(page.locator(`${ctx} [data-control="ctx_seq"] output`)).toHaveText("1,048,576");
  await expect.poll(() => num(page, `${ctx} [data-testid="ctx-mem-sp"]`, "data-value")).toBeGreaterThan(small);
  // The memory panel shares the scenario: its seq_len slider shows 2^20.
  await expect(page.locator('#lab [data-panel="memory"] [data-control="seq_len"] output')).toHaveText("1,048,576");
});

test("on a phone, in English, the trial's numbers hold and the methods fold into readable cards", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openContext(page);
  await page.locator("#lab [data-tsl-lang]").click();
  await trialHolds(page);
  await expect(page.getByTestId("ctx-lesson")).toContainText("network (across nodes)");
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  // Text at least 12 px everywhere in the panel.
  const smallest = await page
    .locator(ctx)
    .evaluate((root) =>
      Math.min(
        ...[...root.querySelectorAll<HTMLElement>("*")]
          .filter((e) => e.textContent?.trim() && e.offsetParent)
          .map((e) => parseFloat(getComputedStyle(e).fontSize)),
      ),
    );
  expect(smallest).toBeGreaterThanOrEqual(12);
  await page.screenshot({ path: `${shots}/context-phone.png`, fullPage: true });
});
