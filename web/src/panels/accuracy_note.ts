// The model's measured error on the published runs closest to the step's class (dense/MoE, GPU
// generation), shown by the step result, with the whole accuracy table one click away.
import type { TslabClient } from "../client";
import { el, scrollFrame } from "../dom";
import { t } from "../i18n";
import type { Scenario } from "../report";
import type { Accuracy, AccuracyClass } from "../types/accuracy";

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const signed = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(100 * x).toFixed(1)}%`;
const figure = (metric: string, v: number) => (metric === "iteration_s" ? `${v.toFixed(3)} s` : metric === "mfu" ? pct(v) : v.toFixed(1));

export interface AccuracyNote {
  element: HTMLElement;
  /** After a step result: the class of this scenario (computed by the core once per class, off the first paint). */
  update(scenario: Scenario): void;
  relabel(): void;
}

export function createAccuracyNote(client: TslabClient): AccuracyNote {
  const element = el("div", "tsl-accuracy");
  element.dataset.testid = "step-accuracy";
  const line = el("p", "tsl-accuracy-line");
  const details = el("details", "tsl-accuracy-table");
  const summary = el("summary", "", t("step.accuracy.table"));
  details.append(summary);
  element.append(line, details);
  let current: AccuracyClass | null = null;
  let table: Accuracy | null = null;
  let pending = 0;

  const draw = () => {
    summary.textContent = t("step.accuracy.table");
    if (!current) return;
    const cls = `${current.match_kind || current.kind} ${current.match_gpu || current.gpu}`.trim();
    line.textContent = t("step.accuracy", { runs: current.runs, cls, mean: pct(current.mean_abs_error), max: pct(current.max_abs_error) }) +
      (current.match === "class" ? "" : t("step.accuracy.closest", { cls: `${current.kind} ${current.gpu}` }));
    element.dataset.match = current.match;
    element.dataset.mean = String(current.mean_abs_error);
    if (table && details.open) drawTable(table);
  };
  const drawTable = (a: Accuracy) => {
    details.querySelector(".tsl-table-scroll")?.remove();
    const wrap = scrollFrame(el("div", "tsl-table-scroll"), t("step.accuracy.table"));
    const tbl = el("table", "tsl-table");
    const head = el("tr");
    for (const k of ["step.accuracy.run", "step.accuracy.layout", "step.accuracy.published", "step.accuracy.predicted", "step.accuracy.error"] as const)
      head.append(el("th", "", t(k)));
    tbl.append(head);
    for (const r of a.rows) {
      const tr = el("tr");
      tr.append(el("td", "", `${r.id} (${r.source})`), el("td", "", `${r.gpus} ${r.gpu.toUpperCase()} · ${r.layout}`),
        el("td", "", figure(r.metric, r.published)), el("td", "", figure(r.metric, r.predicted)), el("td", "", signed(r.error)));
      tbl.append(tr);
    }
    wrap.append(tbl);
    details.append(wrap);
  };
  details.addEventListener("toggle", () => {
    if (!details.open) return;
    table ??= client.accuracy();
    drawTable(table);
  });

  return {
    element,
    update(scenario) {
      // The first call predicts the training set in the core (one report per published run): after the paint.
      clearTimeout(pending);
      pending = window.setTimeout(() => {
        try {
          current = client.accuracyClass(scenario);
        } catch {
          return; // a scenario the report refused has no class; the step view already names its error
        }
        draw();
      }, 0);
    },
    relabel: draw,
  };
}
