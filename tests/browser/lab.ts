// Shared helpers of the browser tests: the screenshot folder and the console-error watcher.
import type { Page } from "@playwright/test";

export const shots = "tests/browser/screenshots";

/** Collects console errors and uncaught page errors; every test asserts the list stays empty. */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  return errors;
}
