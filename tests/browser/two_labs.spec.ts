// Two labs on one page (site/src/pages/test/two-labs.astro): unique ids, each lab's tabs point into itself, own props and scenario.
import { expect, test, type Page } from "@playwright/test";
import { shots, watchConsole } from "./lab";
import { panelIds } from "../../web/src/props";

const first = "#first [data-tslab]";
const second = "#second [data-tslab]";

let errors: string[] = [];
test.beforeEach(async ({ page }) => {
  errors = watchConsole(page);
});
test.afterEach(() => expect(errors).toEqual([]));

async function openBoth(page: Page): Promise<void> {
  await page.goto("/test/two-labs/");
  await expect(page.locator(first)).toHaveAttribute("data-ready", "true");
  // The second lab is 4000 px further down: it loads only when the reader nears it.
  await expect(page.locator(second)).not.toHaveAttribute("data-ready", /.*/);
  await page.locator(second).scrollIntoViewIfNeeded();
  await expect(page.locator(second)).toHaveAttribute("data-ready", "true");
}

test("ids are unique and every tab controls a panel of its own lab", async ({ page }) => {
  await openBoth(page);
  const dupes = await page.evaluate(() => {
    const seen = new Map<string, number>();
    for (const e of document.querySelectorAll("[id]")) seen.set(e.id, (seen.get(e.id) ?? 0) + 1);
    return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  });
  expect(dupes).toEqual([]);
  for (const root of [first, second]) {
    const tabs = page.locator(`${root} [role="tab"]`);
    for (let i = 0; i < (await tabs.count()); i++) {
      const target = await tabs.nth(i).getAttribute("aria-controls");
      await expect(page.locator(`${root} #${target}`)).toHaveCount(1);
    }
  }
  // The second lab's step tab shows the second lab's step panel, and leaves the first lab's selection alone.
  await page.locator(`${second} [role="tab"][aria-controls$="-panel-step"]`).click();
  await expect(page.locator(`${second} [data-panel="step"]`)).toBeVisible();
  await expect(page.locator(`${first} [data-panel="memory"]`)).toBeVisible();
});

test("props: panels and their order, the first panel, a preset scenario, compact; each lab has its own scenario", async ({ page }) => {
  await openBoth(page);
  await expect(page.locator(`${first} [role="tab"]`)).toHaveCount(2);
  const order = await page.locator(`${first} [role="tab"]`).evaluateAll((t) => t.map((e) => e.getAttribute("aria-controls")));
  expect(order).toEqual(["tsl-panel-step", "tsl-panel-memory"]);
  await expect(page.locator(`${first} [role="tab"][aria-controls="tsl-panel-memory"]`)).toHaveAttribute("aria-selected", "true");
  await expect(page.locator(first)).toHaveClass(/tsl-compact/);
  // lang="en" on a zh-CN page: the prop wins over the page's lang attribute, for every lab on the page (one dictionary).
  await expect(page.locator(`${first} .tsl-title`)).toHaveText("Training Systems Lab");
  await expect(page.locator(first)).toHaveAttribute("lang", "en");
  await expect(page.locator(second)).toHaveAttribute("lang", "en");
  await expect(page.locator(`${first} [data-panel="memory"] [data-control="model"] select`)).toHaveValue("llama3-8b");
  // No panels prop: every registered panel, in props.ts panelIds order.
  await expect(page.locator(`${second} [role="tab"]`)).toHaveCount(panelIds.length);
  const dp2 = page.locator(`${second} [data-panel="memory"] [data-control="dp"] input`);
  await expect(dp2).toHaveValue("64");
  // An edit in the first lab leaves the second lab's scenario alone.
  await page.locator(`${first} [data-panel="memory"] [data-control="dp"] input`).fill("4");
  await expect(page.locator(`${first} [data-panel="memory"] [data-control="dp"] input`)).toHaveValue("4");
  await page.waitForTimeout(300);
  await expect(dp2).toHaveValue("64");
  // Its link key is lab=; the second lab's would be lab2=.
  await expect.poll(() => page.url()).toMatch(/#lab=v1\./);
  expect(page.url()).not.toContain("lab2=");
  await page.locator(first).screenshot({ path: `${shots}/two-labs-first-compact.png` });
});
