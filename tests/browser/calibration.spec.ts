// Calibration in the lab: pick or drop a profile, badge + report source, bad files, remove, keyboard, screenshots.
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { shots, watchConsole } from "./lab";

const data = "tests/data/calibration";
const examplePath = `${data}/cpu-2rank-quick.json`;
const example = JSON.parse(readFileSync(examplePath, "utf8")) as {
  backend: string;
  ranks: number;
  created: string;
  devices: { name: string }[];
};
// The source contract (core calibration.hpp, source()): first device or the backend, ×ranks, the date.
const source = `calibrated: ${example.devices[0]?.name ?? example.backend} ×${example.ranks}, ${example.created.slice(0, 10)}`;

async function openLab(page: Page): Promise<void> {
  await page.goto("/");
  await expect(page.locator("#lab [data-tslab]")).toHaveAttribute("data-ready", "true");
  await expect(page.getByTestId("ledger")).toBeVisible();
}

/** Clicks the lab's file button and answers the browser's file chooser, as a user would. */
async function pick(page: Page, file: string): Promise<void> {
  const chooser = page.waitForEvent("filechooser");
  await page.getByTestId("calibration-pick").click();
  await (await chooser).setFiles(file);
}

/** Drops a file on the lab the way the browser does (dragenter, dragover, drop with a DataTransfer). */
async function drop(page: Page, file: string, type = "application/json"): Promise<void> {
  const text = readFileSync(file, "utf8");
  const name = file.split("/").pop()!;
  await page.evaluate(
    ({ text, name, type }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], name, { type }));
      const target = document.querySelector("#lab .tsl-stage")!;
      for (const kind of ["dragenter", "dragover", "drop"])
        target.dispatchEvent(new DragEvent(kind, { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { text, name, type },
  );
}

const badge = (page: Page) => page.getByTestId("calibration-badge");
const reportSource = (page: Page) => page.getByTestId("report-source");
const message = (page: Page) => page.getByTestId("calibration-message");

let errors: string[] = [];
test.beforeEach(async ({ page }) => {
  errors = watchConsole(page);
});
test.afterEach(() => {
  expect(errors, "console errors").toEqual([]);
});

test("picking the example profile: the badge names it and the memory report switches source", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openLab(page);
  await expect(badge(page)).toBeHidden();
  await expect(reportSource(page)).toHaveText("preset: dgx-h100");
  await pick(page, examplePath);
  await expect(badge(page)).toHaveText(`已校准 ${source}`);
  await expect(reportSource(page)).toHaveText(source);
  await expect(message(page)).toContainText("cpu-2rank-quick.json");
  // Changing a control keeps the profile: every scenario the client sends carries it.
  await page.locator('#lab [data-panel="memory"] [data-control="seq_len"] input[type="range"]').fill("14");
  await expect(page.locator('#lab [data-panel="memory"] [data-control="seq_len"] output')).toHaveText("16,384");
  await expect(reportSource(page)).toHaveText(source);
  // The predicted-vs-measured table opens from the badge's details.
  await page.getByTestId("calibration-details").locator("summary").click();
  const rows = page.getByTestId("calibration-table").locator("tbody tr");
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeGreaterThan(10);
  await expect(page.getByTestId("calibration-details")).toContainText("cluster.intra_node");
  await page.locator("#lab").scrollIntoViewIfNeeded();
  await page.locator("#lab .tsl").screenshot({ path: `${shots}/calibration-desktop.png` });
});

test("dropping the example profile on the lab loads it too", async ({ page }) => {
  await openLab(page);
  await drop(page, examplePath);
  await expect(badge(page)).toHaveText(`已校准 ${source}`);
  await expect(reportSource(page)).toHaveText(source);
  await expect(page.locator("#lab .tsl")).not.toHaveClass(/tsl-dropping/);
});

/** [file, what the message must name] — the files are described in tests/data/calibration/README.md */
const badFiles = [
  ["truncated.json", "JSON 不完整（在第 4097 字节处截断）"], // the core's reasons, in the zh-CN catalog (web/src/i18n/core)
  ["malformed.json", "JSON 格式错误，位于第 144 字节"],
  ["wrong-schema.json", 'schema：不支持 "tslab/calibration@2"'],
  ["negative.json", "collectives[0].samples[2].time_s：不能为负数"],
] as const;

for (const [file, named] of badFiles) {
  test(`a bad profile (${file}) gets a clear message and the lab keeps working`, async ({ page }) => {
    await openLab(page);
    await pick(page, `${data}/${file}`);
    await expect(message(page)).toBeVisible();
    await expect(message(page)).toHaveAttribute("role", "alert");
    await expect(message(page)).toContainText(`无法使用 ${file}`);
    await expect(message(page)).toContainText(named);
    await expect(badge(page)).toBeHidden();
    await expect(reportSource(page)).toHaveText("preset: dgx-h100");
    // Still working: the ZeRO control changes the ledger.
    const before = await page.locator('#lab [data-testid="ledger"] tr[data-item="optimizer_states"] td').first().textContent();
    await page.locator('#lab [data-panel="memory"] [data-control="zero"] select').selectOption("1");
    await expect(page.locator('#lab [data-testid="ledger"] tr[data-item="optimizer_states"] td').first()).not.toHaveText(before!);
    if (file === "negative.json") await page.locator("#lab .tsl").screenshot({ path: `${shots}/calibration-bad-file.png` });
  });
}

test("a bad file after a good one keeps the good profile; a non-JSON drop is refused", async ({ page }) => {
  await openLab(page);
  await pick(page, examplePath);
  await expect(badge(page)).toBeVisible();
  await pick(page, `${data}/wrong-schema.json`);
  await expect(message(page)).toContainText("仍在用之前的 profile");
  await expect(badge(page)).toHaveText(`已校准 ${source}`);
  await drop(page, "tests/data/calibration/README.md", "text/markdown");
  await expect(message(page)).toContainText("不是 JSON");
  await expect(reportSource(page)).toHaveText(source);
});

test("removing the profile: badge gone, the report is back on the preset", async ({ page }) => {
  await openLab(page);
  await pick(page, examplePath);
  await expect(reportSource(page)).toHaveText(source);
  await page.getByTestId("calibration-remove").click();
  await expect(badge(page)).toBeHidden();
  await expect(page.getByTestId("calibration-remove")).toBeHidden();
  await expect(page.getByTestId("calibration-details")).toBeHidden();
  await expect(reportSource(page)).toHaveText("preset: dgx-h100");
  // Focus goes back to the file button, not to the body.
  await expect(page.getByTestId("calibration-pick")).toBeFocused();
});

test("keyboard: Tab reaches the file button, Enter opens the chooser, Tab reaches remove and the details", async ({ page }) => {
  await openLab(page);
  // Listen first: Playwright turns on file-chooser interception asynchronously when the listener
  // is added, and a key press right after it can race ahead of that.
  const chooser = page.waitForEvent("filechooser");
  await page.locator("#lab .tsl-lang").focus();
  await page.keyboard.press("Tab");
  const button = page.getByTestId("calibration-pick");
  await expect(button).toBeFocused();
  expect(await button.evaluate((b) => getComputedStyle(b).outlineStyle)).not.toBe("none");
  // Its name is its visible text (WCAG 2.5.3); the file format is in its description.
  await expect(button).toHaveAccessibleName((await button.textContent())!);
  await expect(button).toHaveAccessibleDescription(/calibration@1/);
  await page.keyboard.press("Enter");
  await (await chooser).setFiles(examplePath);
  await expect(badge(page)).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(page.getByTestId("calibration-remove")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByTestId("calibration-details").locator("summary")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("calibration-table")).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(page.locator("#lab .tsl-cal-scroll")).toBeFocused();
});

test("English: the badge reads the source, the table headers are English", async ({ page }) => {
  await openLab(page);
  await pick(page, examplePath);
  await page.locator("#lab .tsl-lang").click();
  await expect(badge(page)).toHaveText(source);
  await expect(page.getByTestId("calibration-remove")).toHaveText("Remove");
  await page.getByTestId("calibration-details").locator("summary").click();
  await expect(page.getByTestId("calibration-table").locator("thead")).toContainText("Measured (µs)");
});

test("screenshots: calibrated lab at 390 px, no horizontal scroll", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openLab(page);
  await page.locator("#lab").scrollIntoViewIfNeeded();
  await page.locator("#lab .tsl").screenshot({ path: `${shots}/calibration-phone-empty.png` });
  await pick(page, examplePath);
  await expect(badge(page)).toBeVisible();
  await page.getByTestId("calibration-details").locator("summary").click();
  await expect(page.getByTestId("calibration-table")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "no horizontal scrolling at 390 px").toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${shots}/calibration-phone.png`, fullPage: true });
  await page.locator("#lab .tsl-cal").screenshot({ path: `${shots}/calibration-phone-bar.png` });
});

test("a profile that does not match the scenario's cluster: the badge says so, with the core's reasons", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openLab(page);
  await expect(page.getByTestId("calibration-warnings")).toBeHidden();
  await pick(page, examplePath);
  // cpu-2rank-quick.json: the CPU backend, one node of 2 ranks; the starting scenario spans many
  // 8-GPU DGX H100 nodes (core/src/calibration_warnings.cpp words each mismatch).
  const warnings = page.getByTestId("calibration-warnings");
  await expect(warnings).toBeVisible();
  await expect(warnings).toContainText("CPU 后端"); // calibration.warn.cpu_backend in zh-CN
  await expect(warnings).toContainText("只测了 1 个节点，而集群有");
  await expect(warnings).toContainText("校准数据与当前场景");
  await expect(badge(page)).toHaveClass(/tsl-cal-badge-warn/);
  await page.screenshot({ path: `${shots}/calibration-warnings.png` });
  await page.getByTestId("calibration-remove").click();
  await expect(warnings).toBeHidden();
});
