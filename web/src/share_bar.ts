// The lab's share bar: copy a link to this state, the scenario as JSON, or a `tslab report` command that reproduces it.
import { el } from "./dom";
import { t, type MessageKey } from "./i18n";
import { cliCommand, scenarioJson } from "./share";
import type { ScenarioStore } from "./state";

/** Writes text to the clipboard; where the browser refuses, shows it in a read-only box to copy by hand. */
async function copy(text: string, what: string, status: HTMLElement, box: HTMLTextAreaElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    box.hidden = true;
    status.textContent = t("share.copied", { what });
  } catch {
    box.value = text;
    box.hidden = false;
    box.select();
    status.textContent = t("share.manual");
  }
  box.dataset.text = text; // what the last copy held, for tests and for the manual box
}

/** Builds the bar; `beforeLink` flushes the pending URL update so the copied link is the state on screen. */
export function createShareBar(store: ScenarioStore, beforeLink: () => void): { element: HTMLElement; relabel(): void } {
  const bar = el("div", "tsl-share");
  bar.setAttribute("role", "group");
  const title = el("p", "tsl-share-title");
  const status = el("p", "tsl-share-status");
  status.setAttribute("role", "status");
  const box = el("textarea", "tsl-share-text");
  box.readOnly = true;
  box.hidden = true;
  box.dataset.testid = "share-text";
  const actions: [MessageKey, string, () => string][] = [
    ["share.link", "share-link", () => (beforeLink(), location.href)],
    ["share.json", "share-json", () => scenarioJson(store.scenario())],
    ["share.cli", "share-cli", () => cliCommand(store.scenario())],
  ];
  const buttons = actions.map(([key, testid, text]) => {
    const b = el("button", "tsl-share-button");
    b.type = "button";
    b.dataset.testid = testid;
    b.addEventListener("click", () => void copy(text(), t(key), status, box));
    return { b, key };
  });
  bar.append(title, ...buttons.map((x) => x.b), status, box);
  const relabel = () => {
    title.textContent = t("share.title");
    bar.setAttribute("aria-label", t("share.title"));
    for (const { b, key } of buttons) b.textContent = t(key);
    box.setAttribute("aria-label", t("share.title"));
  };
  relabel();
  return { element: bar, relabel };
}
