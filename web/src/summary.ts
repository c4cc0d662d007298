// The result summary after a panel's controls: repeats the headline numbers the view already shows, and is the panel's one live region.
import { el } from "./dom";
import type { HeadlineItem } from "./panels/panel";

const textOf = (e: Element | null | undefined) => (e?.textContent ?? "").replace(/\s+/g, " ").trim();

/** "label value" for each headline item the view shows now; items not rendered (no trial yet, a dense model) are left out. */
function headlineText(results: HTMLElement, items: readonly HeadlineItem[]): string {
  const parts: string[] = [];
  for (const item of items) {
    const value = results.querySelector(item.value);
    // Hidden inside the results (a closed trial box) is left out; the panel's own hidden tab is not the view's state.
    const hidden = value?.closest("[hidden]");
    if (!value || (hidden && results.contains(hidden))) continue;
    const label = item.labelled ? textOf(value.previousElementSibling) : "";
    const line = [item.tag ?? "", label, textOf(value)].filter(Boolean).join(" ");
    if (line) parts.push(line);
  }
  return parts.join(" · ");
}

/**
 * Puts the summary at the end of the panel's form (on a phone it sticks to the bottom of the screen while the
 * controls are in view, see lab.css) and keeps it equal to the view's headline: the text is copied, never recomputed.
 */
export function mountSummary(body: HTMLElement, items: readonly HeadlineItem[]): HTMLElement | null {
  const form = body.querySelector<HTMLElement>(":scope > form");
  // The results are the form's sibling (.tsl-results, .tsl-pipe-results): observing them never sees the summary's own writes.
  const results = form?.nextElementSibling;
  if (!form || !(results instanceof HTMLElement) || !items.length) return null;
  const summary = el("p", "tsl-summary");
  summary.dataset.testid = "summary";
  summary.setAttribute("aria-live", "polite");
  summary.setAttribute("aria-atomic", "true");
  form.append(summary);
  const sync = () => {
    const text = headlineText(results, items);
    // Only a change is written: an unchanged headline is not announced again.
    if (summary.textContent !== text) summary.textContent = text;
    if (summary.hidden !== !text) summary.hidden = !text;
  };
  new MutationObserver(sync).observe(results, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["hidden"] });
  sync();
  return summary;
}
