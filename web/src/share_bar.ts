// The lab's share bar: copy a link to this state, the scenario as JSON, or a `tslab report` command that reproduces it.
import { el } from "./dom";
import { t, type MessageKey } from "./i18n";
import { cliCommand, scenarioJson } from "./share";
import type { ScenarioStore } from "./state";

/** What the status line says after the last copy, kept as a key so a language change re-words it. */
type CopyStatus = { key: "share.copied"; what: MessageKey } | { key: "share.manual" } | null;

const statusText = (s: CopyStatus) => (s === null ? "" : s.key === "share.copied" ? t(s.key, { what: t(s.what) }) : t(s.key));

/** Writes text to the clipboard; where the browser refuses, shows it in a read-only box to copy by hand. */
async function copy(text: string, box: HTMLTextAreaElement, what: MessageKey): Promise<CopyStatus> {
  box.dataset.text = text; // what the last copy held, for tests and for the manual box
  try {
    await navigator.clipboard.writeText(text);
    box.hidden = true;
    return { key: "share.copied", what };
  } catch {
    box.value = text;
    box.hidden = false;
    box.select();
    return { key: "share.manual" };
  }
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
  let last: CopyStatus = null;
  const buttons = actions.map(([key, testid, text]) => {
    const b = el("button", "tsl-share-button");
    b.type = "button";
    b.dataset.testid = testid;
    b.addEventListener("click", () => void copy(text(), box, key).then((s) => (status.textContent = statusText((last = s)))));
    return { b, key };
  });
  bar.append(title, ...buttons.map((x) => x.b), status, box);
  const relabel = () => {
    title.textContent = t("share.title");
    bar.setAttribute("aria-label", t("share.title"));
    for (const { b, key } of buttons) b.textContent = t(key);
    box.setAttribute("aria-label", t("share.title"));
    status.textContent = statusText(last);
  };
  relabel();
  return { element: bar, relabel };
}
