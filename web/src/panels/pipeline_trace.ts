// The pipeline panel's "download Perfetto trace": run A's schedule as the core's Chrome trace-event JSON, saved as a file.
import { errorText, ScenarioError, type TslabClient } from "../client";
import { el } from "../dom";
import { t } from "../i18n";
import type { ScheduleSpec } from "../types/pipeline";

/** Offers `json` as a download named `name` (no server round trip: a Blob URL, revoked after the click). */
export function downloadJson(name: string, json: unknown): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(json)], { type: "application/json" }));
  const a = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The button and its hint; `spec` reads run A's current spec. An invalid spec shows the core's error in the hint. */
export function createTraceButton(client: TslabClient, spec: () => ScheduleSpec): { element: HTMLElement; relabel(): void } {
  const box = el("div", "tsl-pipe-trace");
  const button = el("button", "tsl-share-button");
  button.type = "button";
  button.dataset.testid = "pipe-trace";
  const hint = el("p", "tsl-pipe-trace-hint");
  hint.setAttribute("role", "status");
  button.addEventListener("click", () => {
    try {
      const s = spec();
      downloadJson(`tslab-${s.schedule}-pp${s.ranks}-m${s.microbatches}.trace.json`, client.scheduleTrace(s));
      hint.textContent = t("share.traceHint");
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      hint.textContent = errorText(e);
    }
  });
  box.append(button, hint);
  const relabel = () => {
    button.textContent = t("share.trace");
    hint.textContent = "";
  };
  relabel();
  return { element: box, relabel };
}
