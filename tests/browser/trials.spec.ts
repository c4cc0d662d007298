// Every ordered pair of the trials that set the shared scenario: each trial builds on the lab's starting scenario, so
// the second of any pair still teaches its lesson with no error in its panel (L6's DualPipe once broke L7's one-stage plan).
import { expect, test, type Page } from "@playwright/test";
import { shots, watchConsole } from "./lab";

interface Trial {
  tab: string;
  button: string;
  lesson: string;
}
const trials: Record<string, Trial> = {
  memory: { tab: "memory", button: "trial", lesson: "trial-after" },
  expert: { tab: "expert", button: "ex-trial", lesson: "ex-lesson" },
  context: { tab: "context", button: "ctx-trial", lesson: "ctx-lesson" },
  numerics: { tab: "numerics", button: "nu-trial", lesson: "nu-lesson" },
  reliability: { tab: "reliability", button: "rel-trial-failures", lesson: "rel-lesson" },
};

/** A walk through every ordered pair (a, b), a ≠ b, once: an Eulerian circuit of the complete directed graph (Hierholzer). */
function everyOrderedPair(names: string[]): string[] {
  const left = new Map(names.map((n) => [n, names.filter((m) => m !== n)]));
  const stack = [names[0]];
  const walk: string[] = [];
  while (stack.length) {
    const at = stack[stack.length - 1];
    const next = left.get(at)!.shift();
    if (next) stack.push(next);
    else walk.push(stack.pop()!);
  }
  return walk.reverse();
}

async function press(page: Page, name: string): Promise<void> {
  const t = trials[name];
  const panel = page.locator(`#lab [data-panel="${t.tab}"]`);
  await page.locator(`#tsl-tab-${t.tab}`).click();
  await panel.getByTestId(t.button).click();
  await expect(panel.getByTestId(t.lesson), `${name}'s lesson`).toBeVisible({ timeout: 90_000 });
  await expect(panel.locator(".tsl-error:visible"), `no error in ${name}'s panel`).toHaveCount(0);
}

test("every ordered pair of trials: the second teaches its lesson with no error in its panel", async ({ page }) => {
  test.setTimeout(600_000);
  const errors = watchConsole(page);
  const walk = everyOrderedPair(Object.keys(trials));
  expect(walk.length).toBe(5 * 4 + 1); // 20 ordered pairs in one walk
  await page.goto("/");
  await expect(page.locator("#lab [data-tslab]")).toHaveAttribute("data-ready", "true");
  for (const [i, name] of walk.entries()) await test.step(`${i}: ${name}`, () => press(page, name));
  await page.locator("#lab [data-tslab]").screenshot({ path: `${shots}/trials-walk-last.png` });
  expect(errors).toEqual([]);
});
