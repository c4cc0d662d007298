// The device-mesh lab: GPUs coloured by group, the conflicting-mapping trial, keyboard focus, inline errors, screenshots.
import { expect, test, type Page } from "@playwright/test";
import { shots, watchConsole } from "./lab";

const panel = '#lab [data-panel="mesh"]';

async function openMesh(page: Page): Promise<void> {
  await page.goto("/");
  await expect(page.locator("#lab [data-tslab]")).toHaveAttribute("data-ready", "true");
  await page.locator("#tsl-tab-mesh").click();
  await expect(page.getByTestId("mesh-figure")).toBeVisible();
}

const field = (page: Page, key: string) => page.locator(`${panel} [data-control="${key}"]`);
const gpu = (page: Page, rank: number) => page.locator(`${panel} .tsl-gpu[data-rank="${rank}"]`);
const seconds = async (page: Page, id: string) => Number(await page.getByTestId(id).getAttribute("data-seconds"));

let errors: string[] = [];
test.beforeEach(async ({ page }) => {
  errors = watchConsole(page);
});
test.afterEach(() => {
  expect(errors, "console errors").toEqual([]);
});

test("the default plan draws every GPU, coloured by TP group, with no warnings", async ({ page }) => {
  await openMesh(page);
  // dp 4 · tp 8 · pp 2 = 64 ranks on 8 nodes of 8 GPUs.
  await expect(page.locator(`${panel} .tsl-gpu`)).toHaveCount(64);
  await expect(page.locator(`${panel} .tsl-node`)).toHaveCount(8);
  await expect(page.locator(`${panel} [data-testid="mesh-warnings"] li`)).toHaveCount(0);
  // Megatron order tp-cp-ep-dp-pp, tp innermost: TP group g is ranks 8g..8g+7, i.e. node g (hand-worked).
  await expect(gpu(page, 11)).toHaveAttribute("aria-label", /^node 1 · GPU 3 · rank 11 · tp group 1 · intra/);
  await expect(gpu(page, 11)).toHaveAttribute("data-group", "1");
  await field(page, "color").locator("select").selectOption("dp");
  // dp stride = tp·cp = 8: dp group 3 is {3, 11, 19, 27} (pp stage 0), spanning 4 nodes with one GPU each.
  await expect(gpu(page, 11)).toHaveAttribute("aria-label", /rank 11 · dp group 3 · inter/);
  await expect(page.getByTestId("mesh-groups")).toContainText("3, 11, 19, 27");
});

test("the conflicting mapping puts TP across nodes: a warning and a larger TP time", async ({ page }) => {
  await openMesh(page);
  await page.getByTestId("mesh-trial").click();
  await expect(field(page, "order").locator("select")).toHaveValue("cp-ep-dp-pp-tp");
  const warn = page.getByTestId("mesh-warnings");
  await expect(warn).toContainText("8 卡的 tp 组跨 4 个节点"); // mesh.tp_spans_nodes in zh-CN
  await expect(warn).toContainText("要过网卡 NIC");
  // tp outermost with dp 2 · pp 2: stride 4, so TP group 0 is {0, 4, ..., 28} (hand-worked), two GPUs per node.
  await expect(page.getByTestId("mesh-groups")).toContainText("0, 4, 8, 12, 16, 20, 24, 28");
  await expect(gpu(page, 4)).toHaveAttribute("aria-label", /tp group 0 · mixed/);
  const recommended = await seconds(page, "tp-recommended");
  const current = await seconds(page, "tp-current");
  expect(recommended).toBeGreaterThan(0);
  // dgx-h100 preset: NVLink 450 GB/s vs NIC 50 GB/s per GPU. With SP each TP collective is an AllGather or
  // ReduceScatter: in one node it moves 7/8·S over NVLink (0.0019·S per GB/s); across 4 nodes with 2 GPUs each,
  // even the hierarchical version moves 3/4·S/2 over the NIC (0.0075·S per GB/s): about 3.9× in the β term.
  expect(current / recommended).toBeGreaterThan(3);
  await expect(page.getByTestId("tp-compare")).toContainText("cp-ep-dp-pp-tp");
  await page.locator("#lab .tsl").screenshot({ path: `${shots}/mesh-conflict-desktop.png` });
  // Back to the recommended order: the warning goes and both times agree.
  await field(page, "order").locator("select").selectOption("tp-cp-ep-dp-pp");
  await expect(warn).not.toContainText("tp group");
  await expect.poll(async () => (await seconds(page, "tp-current")) / (await seconds(page, "tp-recommended"))).toBeCloseTo(1, 6);
});

test("keyboard: Tab reaches the GPUs, arrows move between them and name node, GPU, rank and group", async ({ page }) => {
  await openMesh(page);
  await page.getByTestId("mesh-trial").focus();
  await page.keyboard.press("Tab");
  const active = () => page.evaluate(() => (document.activeElement as Element | null)?.getAttribute("data-rank"));
  expect(await active()).toBe("0");
  // Four GPUs per row inside a node of 8: Right ×3 → rank 3, Down → rank 7, Right → rank 8 on node 1.
  for (const key of ["ArrowRight", "ArrowRight", "ArrowRight"]) await page.keyboard.press(key);
  expect(await active()).toBe("3");
  await page.keyboard.press("ArrowDown");
  expect(await active()).toBe("7");
  await page.keyboard.press("ArrowRight");
  expect(await active()).toBe("8");
  await expect(page.getByTestId("gpu-info")).toHaveText(/^node 1 · GPU 0 · rank 8 · tp group 1/);
  // One tab stop for the whole grid (roving tabindex), and a visible focus ring.
  await expect(page.locator(`${panel} .tsl-gpu[tabindex="0"]`)).toHaveCount(1);
  const ring = await page.evaluate(() => getComputedStyle(document.activeElement!.querySelector(".tsl-gpu-ring")!).stroke);
  expect(ring).not.toBe("none");
  await page.keyboard.press("End");
  expect(await active()).toBe("63");
  await page.keyboard.press("Tab");
  expect(await active()).toBeFalsy();
});

test("a big world draws a capped number of nodes and says so", async ({ page }) => {
  await openMesh(page);
  await field(page, "dp").locator("input").fill("64");
  // 64 · 8 · 2 = 1024 ranks on 128 nodes: 16 nodes are drawn.
  await expect(page.locator(`${panel} .tsl-node`)).toHaveCount(16);
  await expect(page.locator(`${panel} .tsl-mesh-capped`)).toContainText("16 / 128");
  await expect(page.getByTestId("mesh-axes").locator('tr[data-axis="dp"]')).toContainText("64");
});

test("bad input shows the core's message at the control and keeps the mesh, dimmed", async ({ page }) => {
  await openMesh(page);
  await field(page, "nodes").locator("input").fill("2");
  const err = field(page, "nodes").locator(".tsl-error");
  await expect(err).toBeVisible();
  await expect(err).toContainText("nodes");
  await expect(page.locator(`${panel} .tsl-result-body`)).toHaveClass(/tsl-stale/);
  await expect(page.locator(`${panel} .tsl-gpu`)).toHaveCount(64);
  await field(page, "nodes").locator("input").fill("");
  await expect(err).toBeHidden();
  await expect(page.locator(`${panel} .tsl-result-body`)).not.toHaveClass(/tsl-stale/);
});

test("screenshots: desktop and a 390 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openMesh(page);
  await page.locator(`${panel}`).screenshot({ path: `${shots}/mesh-desktop.png` });
  await page.locator("#lab .tsl-lang").click();
  await expect(page.locator("#tsl-tab-mesh")).toHaveText("L5 · Device mesh");
  await page.getByTestId("mesh-trial").click();
  await expect(page.getByTestId("mesh-warnings")).toContainText("tp group of 8");
  await page.locator(`${panel}`).screenshot({ path: `${shots}/mesh-desktop-en-trial.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("mesh-figure")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "no horizontal scrolling at 390 px").toBeLessThanOrEqual(0);
  await page.locator(`${panel}`).screenshot({ path: `${shots}/mesh-phone.png` });
});
