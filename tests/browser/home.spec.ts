// The home page: every ledger and playbook link opens the panel it names; the course's four trials run in the lab and show their lesson.
import { expect, test, type Page } from "@playwright/test";
import { panelIds } from "../../web/src/props";
import { shots, watchConsole } from "./lab";

const lab = "#lab [data-tslab]";
const inLab = (page: Page, testid: string) => page.locator(`#lab [data-testid="${testid}"]`);
const attr = async (page: Page, testid: string, name: string) => Number(await inLab(page, testid).getAttribute(`data-${name}`));

let errors: string[] = [];
test.beforeEach(async ({ page }) => {
  errors = watchConsole(page);
});
test.afterEach(() => {
  expect(errors, "console errors").toEqual([]);
});

/** Clicks the link and checks that the lab shows its panel's tab as selected and the panel visible. */
async function followLink(page: Page, link: ReturnType<Page["locator"]>): Promise<string> {
  const panel = (await link.getAttribute("data-panel"))!;
  expect(panelIds as readonly string[], `link to "${panel}"`).toContain(panel);
  await link.click();
  await expect(page.locator(lab)).toHaveAttribute("data-ready", "true");
  await expect(page.locator(`#tsl-tab-${panel}`)).toHaveAttribute("aria-selected", "true");
  await expect(page.locator(`#lab [data-panel="${panel}"]`)).toBeVisible();
  return panel;
}

test("the nine ledgers in order, each linked to a registered panel that opens", async ({ page }) => {
  await page.goto("/");
  const ledgers = page.locator("#ledgers [data-ledger]");
  await expect(ledgers).toHaveCount(9);
  expect(await ledgers.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.ledger))).toEqual([
    "L1",
    "L2",
    "L3",
    "L4",
    "L5",
    "L6",
    "L7",
    "L8",
    "L9",
  ]);
  const opened: string[] = [];
  for (let i = 0; i < 9; i++) opened.push(await followLink(page, ledgers.nth(i).locator("a[data-lab-link]")));
  // Each ledger opens its own experiment.
  expect(opened).toEqual(["memory", "memory", "step", "pipeline", "comm", "expert", "context", "numerics", "reliability"]);
  expect(opened[6]).toBe("context");
  expect(opened[0]).toBe("memory");
  expect(opened[8]).toBe("reliability");
});

test("the playbook's eight questions open the experiment that answers each", async ({ page }) => {
  await page.goto("/");
  const questions = page.locator("#playbook a[data-question]");
  await expect(questions).toHaveCount(8);
  const opened: string[] = [];
  for (let i = 0; i < 8; i++) opened.push(await followLink(page, questions.nth(i)));
  expect(opened[6]).toBe("context"); // one long sequence does not fit
  expect(opened[4]).toBe("pipeline"); // big pipeline gaps
  await page.screenshot({ path: `${shots}/home-desktop.png`, fullPage: true });
});

test("the four recommended trials run in the lab, in the course's order, and show their lessons", async ({ page }) => {
  await page.goto("/");
  const buttons = page.locator("#trials [data-home-trial]");
  await expect(buttons).toHaveCount(4);
  expect(await buttons.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.panel))).toEqual(["memory", "mesh", "pipeline", "comm"]);

  // 1. 70B → ZeRO-3: Llama 3 70B has 70.6e9 parameters (Meta model card); ZeRO-3 over N = 64 keeps 16P/N bytes (arXiv 1910.02054).
  await buttons.nth(0).click();
  await expect(inLab(page, "trial-after")).toBeVisible();
  const expected = (16 * 70.6e9) / 64;
  expect(Math.abs((await attr(page, "trial-after", "bytes")) - expected) / expected).toBeLessThan(0.01);

  // 2. The conflicting mesh: TP outermost spreads each TP group over 4 nodes; NVLink 450 vs NIC 50 GB/s (dgx-h100 preset) → > 3×.
  await buttons.nth(1).click();
  await expect(page.locator("#tsl-tab-mesh")).toHaveAttribute("aria-selected", "true");
  await expect(inLab(page, "mesh-warnings")).toBeVisible();
  expect((await attr(page, "tp-current", "seconds")) / (await attr(page, "tp-recommended", "seconds"))).toBeGreaterThan(3);

  // 3. 1F1B vs DualPipe: 1× vs 2× parameter copies (DualPipe README, "Pipeline Bubbles and Memory Usage").
  await buttons.nth(2).click();
  await expect(page.locator("#tsl-tab-pipeline")).toHaveAttribute("aria-selected", "true");
  await expect(inLab(page, "pipe-trial-params-b")).toBeVisible();
  expect(await attr(page, "pipe-trial-params-a", "value")).toBe(1);
  expect(await attr(page, "pipe-trial-params-b", "value")).toBe(2);

  // 4. Overlap to 95%: the bytes stay, the exposed time falls.
  await buttons.nth(3).click();
  await expect(page.locator("#tsl-tab-comm")).toHaveAttribute("aria-selected", "true");
  await expect(inLab(page, "comm-trial-result")).toContainText("0% → 95%");
});

test("on a phone, a trial tapped on the home page brings its lesson into view", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await page.locator("#trials [data-home-trial]").nth(0).click();
  await expect(inLab(page, "trial-after")).toBeVisible();
  await expect(inLab(page, "trial-after")).toBeInViewport();
  await page.screenshot({ path: `${shots}/home-trial-phone.png` });
});

test("one language toggle for the page and the lab; a phone reads it in one column", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await expect(page.locator("#ledger-L7 h3")).toContainText("长上下文");
  await page.locator("[data-home-lang-toggle]").click();
  await expect(page.locator("#ledger-L7 h3")).toHaveText("Long-context state", { useInnerText: true });
  await expect(page.locator("#lab [data-tsl-lang]")).toHaveAttribute("aria-pressed", "true");
  await expect(page.locator("html")).toHaveAttribute("lang", "en"); // the document and its title follow
  await expect(page).toHaveTitle(/Training Systems Lab/);
  // The lab's own toggle brings the page back to Chinese.
  await page.locator("#lab [data-tsl-lang]").click();
  await expect(page.locator("#ledger-L7 h3")).toContainText("长上下文");
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(page).toHaveTitle(/训练系统实验室/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const smallest = await page
    .locator("main")
    .evaluate((root) =>
      Math.min(
        ...[...root.querySelectorAll<HTMLElement>("#ledgers *, #trials *, #playbook *")]
          .filter((e) => e.textContent?.trim() && e.offsetParent)
          .map((e) => parseFloat(getComputedStyle(e).fontSize)),
      ),
    );
  expect(smallest).toBeGreaterThanOrEqual(12);
  await page.locator("#ledgers").screenshot({ path: `${shots}/home-phone-ledgers.png` });
  await page.screenshot({ path: `${shots}/home-phone.png`, fullPage: true });
});
