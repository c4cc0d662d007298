// The lab's language without a lang prop: the page's <html lang> first, then the browser's language (props.ts, lab.ts).
import { expect, test, type Page } from "@playwright/test";
import { watchConsole } from "./lab";

const lab = "#lab [data-tslab]";

let errors: string[] = [];
test.beforeEach(async ({ page }) => {
  errors = watchConsole(page);
});
test.afterEach(() => expect(errors).toEqual([]));

async function langOf(page: Page, url: string): Promise<string | null> {
  await page.goto(url);
  await expect(page.locator(lab)).toHaveAttribute("data-ready", "true");
  return page.locator(lab).getAttribute("lang");
}

test.describe("a Chinese browser", () => {
  test.use({ locale: "zh-CN" });
  test("an English page's lang attribute wins over the browser", async ({ page }) => {
    expect(await langOf(page, "/test/lang-page/")).toBe("en");
    await expect(page.locator(`${lab} .tsl-title`)).toHaveText("Training Systems Lab");
  });
  test("a page without a lang attribute follows the browser: Chinese", async ({ page }) => {
    expect(await langOf(page, "/test/lang-none/")).toBe("zh-CN");
  });
});

test.describe("an English browser", () => {
  test.use({ locale: "en-US" });
  test("the course page's zh-CN attribute wins over the browser", async ({ page }) => {
    expect(await langOf(page, "/")).toBe("zh-CN");
  });
  test("a page without a lang attribute follows the browser: English", async ({ page }) => {
    expect(await langOf(page, "/test/lang-none/")).toBe("en");
  });
});
