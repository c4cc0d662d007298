// Sharing and reproducing: the lab's state in the URL round-trips, the copy buttons, the Perfetto trace, the remembered language.
import { expect, test, type Page } from "@playwright/test";
import { shots, watchConsole } from "./lab";

const lab = "#lab [data-tslab]";
const panel = (id: string) => `#lab [data-panel="${id}"]`;
const field = (page: Page, id: string, key: string) => page.locator(`${panel(id)} [data-control="${key}"]`);

async function open(page: Page, url = "/"): Promise<void> {
  await page.goto(url);
  await expect(page.locator(lab)).toHaveAttribute("data-ready", "true");
}

/** Every panel's controls and every panel's text but the planner's (its results need a new run): what a reader sees. */
async function snapshot(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate(() => {
    const out: Record<string, unknown> = {};
    for (const p of document.querySelectorAll<HTMLElement>("#lab [data-panel]")) {
      const values: Record<string, string | boolean> = {};
      for (const f of p.querySelectorAll<HTMLElement>("[data-control]")) {
        const i = f.querySelector<HTMLInputElement | HTMLSelectElement>("input, select");
        if (i) values[f.dataset.control!] = i instanceof HTMLInputElement && i.type === "checkbox" ? i.checked : i.value;
      }
      out[`${p.dataset.panel}.controls`] = values;
      if (p.dataset.panel !== "planner") out[`${p.dataset.panel}.text`] = p.textContent;
    }
    out.tab = document.querySelector('#lab [role="tab"][aria-selected="true"]')?.id;
    return out;
  });
}

let errors: string[] = [];
test.beforeEach(async ({ page }) => {
  errors = watchConsole(page);
});
test.afterEach(() => expect(errors).toEqual([]));

test("controls set on every panel come back from the URL with the same numbers", async ({ page, context }) => {
  await open(page);
  await field(page, "memory", "zero").locator("select").selectOption("1");
  await field(page, "memory", "dp").locator("input").fill("16");
  await page.locator("#tsl-tab-step").click();
  await field(page, "step", "micro_batch").locator("input").fill("2");
  await page.locator("#tsl-tab-pipeline").click();
  await field(page, "pipeline", "pipe_f").locator("input").fill("1.5");
  await field(page, "pipeline", "pipe_compare").locator("input").check();
  await page.locator("#tsl-tab-mesh").click();
  await field(page, "mesh", "order").locator("select").selectOption({ index: 1 });
  await page.locator("#tsl-tab-comm").click();
  await field(page, "comm", "op").locator("select").selectOption("allgather");
  await field(page, "comm", "ranks").locator("input").fill("16");
  await page.locator("#tsl-tab-planner").click();
  await field(page, "planner", "gpus").locator("input").fill("128");
  // The L6-L9 panels: a MoE model with skewed routing and redundant experts, a CP method, FP8, and the
  // reliability panel's own what-if knobs (not scenario fields: the link keeps them as controls).
  await page.locator("#tsl-tab-expert").click();
  await field(page, "expert", "model").locator("select").selectOption("deepseek-v3");
  await field(page, "expert", "routing").locator("select").selectOption("zipf");
  await field(page, "expert", "skew").locator("input").fill("1.2");
  await field(page, "expert", "redundant").locator("input").fill("32");
  await field(page, "expert", "node_limit").locator("input").fill("4");
  await page.locator("#tsl-tab-context").click();
  await field(page, "context", "ctx_method").locator("select").selectOption("allgather");
  await page.locator("#tsl-tab-numerics").click();
  await field(page, "numerics", "precision").locator("select").selectOption({ index: 1 });
  await page.locator("#tsl-tab-reliability").click();
  await field(page, "reliability", "interval").locator("input").fill("3600");
  await field(page, "reliability", "async").locator("input").check();
  await field(page, "reliability", "batch").locator("input").fill("256");
  await page.locator("#tsl-tab-mesh").click();
  await expect.poll(() => page.url()).toMatch(/#lab=v1\.[\w-]+$/);
  // The URL is written 200 ms after the last change: wait until it holds still for a second (a fixed
  // wait raced the write on a loaded machine).
  await expect
    .poll(
      async () => {
        const u = page.url();
        await page.waitForTimeout(1000);
        return page.url() === u;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  const before = await snapshot(page);
  const url = page.url();
  expect(url.length).toBeLessThan(2000); // a link that fits in a chat message and every browser's URL limit

  const again = await context.newPage();
  errors = [...errors, ...watchConsole(again)];
  await open(again, url);
  await expect(again.locator("#tsl-tab-mesh")).toHaveAttribute("aria-selected", "true");
  await expect.poll(() => snapshot(again)).toEqual(before); // panels draw in the next animation frame
  await expect(field(again, "memory", "dp").locator("input")).toHaveValue("16");
  await expect(field(again, "planner", "gpus").locator("input")).toHaveValue("128");
  await expect(field(again, "expert", "skew").locator("input")).toHaveValue("1.2");
  await expect(field(again, "context", "ctx_method").locator("select")).toHaveValue("allgather");
  await expect(field(again, "reliability", "interval").locator("input")).toHaveValue("3600");
  await expect(field(again, "reliability", "async").locator("input")).toBeChecked();
  await again.locator(lab).screenshot({ path: `${shots}/share-restored-desktop.png` });
});

test("a second link opened in the same tab replaces the first's state: the lab shows what a fresh tab shows", async ({ page, context }) => {
  const link = (state: unknown) => `/#lab=v1.${Buffer.from(JSON.stringify(state)).toString("base64url")}`;
  // Link A: Llama 3 405B at PP 16, and a reliability what-if; link B: only DP 4.
  const a = link({
    s: [
      ["model", "llama3-405b"],
      ["parallel.pp", 16],
    ],
    c: { reliability: { interval: "3600" } },
  });
  const b = link({ s: [["parallel.dp", 4]] });
  await open(page, a);
  await expect(field(page, "memory", "model").locator("select")).toHaveValue("llama3-405b");
  await expect(field(page, "reliability", "interval").locator("input")).toHaveValue("3600");
  await page.evaluate((hash) => {
    location.hash = hash;
  }, b.slice(1));
  await expect(field(page, "memory", "dp").locator("input")).toHaveValue("4");
  await expect(field(page, "memory", "model").locator("select")).toHaveValue("llama3-70b"); // not 405B + DP 4
  await expect(field(page, "memory", "pp").locator("input")).toHaveValue("4");
  const fresh = await context.newPage();
  errors = [...errors, ...watchConsole(fresh)];
  await open(fresh, b);
  const want = await snapshot(fresh);
  await expect.poll(() => snapshot(page)).toEqual(want);
  // The URL is B's state, so a reload keeps it.
  await expect.poll(() => page.url()).toContain(b.slice(1));
});

test("a link of another version is refused with a message and the lab starts from its default", async ({ page }) => {
  await open(page, "/#lab=v9.e30");
  await expect(page.locator(`${lab} [data-tsl-status]`)).toContainText("v9");
  await expect(field(page, "memory", "dp").locator("input")).toHaveValue("8");
});

test("copy scenario JSON and copy CLI command carry the lab's scenario", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await open(page);
  await field(page, "memory", "zero").locator("select").selectOption("3");
  await page.getByTestId("share-json").click();
  const status = page.locator(`${lab} .tsl-share-status`);
  await expect(status).toContainText("scenario JSON");
  // The status follows a language change (it once stayed in the language of the click).
  const zh = await status.textContent();
  await page.locator(`${lab} [data-tsl-lang]`).click();
  await expect(status).not.toHaveText(zh!);
  await expect(status).not.toContainText(/[\u4e00-\u9fff]/);
  await page.locator(`${lab} [data-tsl-lang]`).click();
  await expect(status).toHaveText(zh!);
  const json = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  expect(json).toMatchObject({ schema: "tslab/scenario@1", model: "llama3-70b", parallel: { dp: 8, tp: 8, pp: 4, zero: 3 } });
  await page.getByTestId("share-cli").click();
  const cli = await page.evaluate(() => navigator.clipboard.readText());
  const m = /^echo '(.*)' \| tslab report -$/s.exec(cli);
  expect(m).not.toBeNull();
  expect(JSON.parse(m![1].replace(/'\\''/g, "'"))).toEqual(json);
});

test("the pipeline panel downloads its run as a Chrome trace that Perfetto reads", async ({ page }) => {
  await open(page);
  await page.locator("#tsl-tab-pipeline").click();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("pipe-trace").click()]);
  expect(download.suggestedFilename()).toMatch(/\.trace\.json$/);
  const trace = JSON.parse(await (await download.createReadStream()).toArray().then((c) => Buffer.concat(c).toString("utf8")));
  expect(Array.isArray(trace.traceEvents)).toBe(true);
  const ranks = Number(await field(page, "pipeline", "pipe_ranks").locator("input").inputValue());
  const m = Number(await field(page, "pipeline", "pipe_m").locator("input").inputValue());
  // 1F1B (the panel's default): each micro-batch runs one forward and one backward on every stage (Narayanan et al.
  // arXiv 2104.04473, section 2.2): 2·p·m complete events, one timeline row (tid) per rank.
  const ops = trace.traceEvents.filter((e: { ph: string }) => e.ph === "X");
  expect(ops.length).toBe(2 * ranks * m);
  expect(new Set(ops.map((e: { tid: number }) => e.tid)).size).toBe(ranks);
});

test("the language choice is remembered across reloads", async ({ page }) => {
  await open(page);
  await page.locator(`${lab} [data-tsl-lang]`).click();
  await expect(page.locator(`${lab} .tsl-title`)).toHaveText("Training Systems Lab");
  await page.reload();
  await expect(page.locator(lab)).toHaveAttribute("data-ready", "true");
  await expect(page.locator(`${lab} .tsl-title`)).toHaveText("Training Systems Lab");
  await expect(page.locator(lab)).toHaveAttribute("lang", "en");
});

test("the planner runs offline: its Worker and wasm were fetched after first paint", async ({ page, context }) => {
  const worker = page.waitForEvent("worker");
  await open(page);
  await worker;
  await page.waitForLoadState("networkidle");
  await context.setOffline(true);
  await page.locator("#tsl-tab-planner").click();
  await field(page, "planner", "gpus").locator("input").fill("8");
  await page.getByTestId("plan-run").click();
  await expect(page.getByTestId("plan-pct")).toHaveText("100%", { timeout: 90_000 });
  await expect(page.getByTestId("plan-row").first()).toBeVisible();
  await context.setOffline(false);
});

test("a planner Worker that cannot load says so instead of 'undefined'", async ({ page }) => {
  await page.route(/planner\.worker/, (r) => r.abort());
  errors = [];
  await open(page);
  await page.locator("#tsl-tab-planner").click();
  await page.getByTestId("plan-run").click();
  const status = page.getByTestId("plan-status");
  await expect(status).toContainText("Web Worker");
  await expect(status).not.toContainText("undefined");
  errors = []; // the aborted request is the point of this test
});
