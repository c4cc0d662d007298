// The course's own page, built in a fresh Astro project from the packed lab: the four trials its #lab section recommends.
import { expect, test, type Page } from "@playwright/test";
import { watchConsole } from "../browser/lab";

const lab = "#lab [data-tslab]";
const inLab = (page: Page, testid: string) => page.locator(`#lab [data-testid="${testid}"]`);
const attr = async (page: Page, testid: string, name: string) => Number(await inLab(page, testid).getAttribute(`data-${name}`));

test("the page's four trials run inside its #lab section", async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto("/");
  // Section 12 of a long page: nothing is loaded until the reader comes near it.
  await expect(page.locator(lab)).toHaveCount(1);
  await expect(page.locator(lab)).not.toHaveAttribute("data-ready", /.*/);
  await page.locator("#lab").scrollIntoViewIfNeeded();
  await expect(page.locator(lab)).toHaveAttribute("data-ready", "true");

  // 1. 显存账: 70B → ZeRO-3. Llama 3 70B has 70.6e9 parameters (Meta, Llama 3 model card); ZeRO-3 over N = 64 keeps 16P/N bytes.
  await inLab(page, "trial").click();
  const expected = (16 * 70.6e9) / 64;
  await expect(inLab(page, "trial-after")).toBeVisible();
  expect(Math.abs((await attr(page, "trial-after", "bytes")) - expected) / expected).toBeLessThan(0.01);

  // 2. device mesh: the deliberately conflicting order (TP outermost) spreads each TP group of 8 over 4 nodes. dgx-h100 preset:
  // NVLink 450 GB/s vs NIC 50 GB/s per GPU; an SP AllGather in one node moves 7/8·S over NVLink, across 4 nodes with 2 GPUs
  // each at least 3/4·S/2 over the NIC: about 3.9× in the β term, so the TP time grows by more than 3×.
  await page.locator("#lab #tsl-tab-mesh").click();
  await inLab(page, "mesh-trial").click();
  await expect(page.locator('#lab [data-panel="mesh"] [data-control="order"] select')).toHaveValue("cp-ep-dp-pp-tp");
  await expect(inLab(page, "mesh-warnings")).toBeVisible();
  expect((await attr(page, "tp-current", "seconds")) / (await attr(page, "tp-recommended", "seconds"))).toBeGreaterThan(3);

  // 3. pipeline: 1F1B vs DualPipe parameter copies, 1× vs 2× (DualPipe README, "Pipeline Bubbles and Memory Usage").
  await page.locator("#lab #tsl-tab-pipeline").click();
  await inLab(page, "pipe-trial").click();
  await expect(inLab(page, "pipe-trial-params-b")).toBeVisible();
  expect(await attr(page, "pipe-trial-params-a", "value")).toBe(1);
  expect(await attr(page, "pipe-trial-params-b", "value")).toBe(2);

  // 4. communication: overlap to 95%: the bytes stay, the exposed time falls.
  await page.locator("#lab #tsl-tab-comm").click();
  await inLab(page, "comm-trial").click();
  await expect(page.locator('#lab [data-panel="comm"] [data-control="overlap"] output')).toHaveText("95%");
  await expect(inLab(page, "comm-trial-result")).toContainText("0% → 95%");
  await expect(inLab(page, "comm-trial-result")).toContainText("不变");

  await page.locator(lab).screenshot({ path: "tests/browser/screenshots/consumer-course-page.png" });
  expect(errors).toEqual([]);
});
