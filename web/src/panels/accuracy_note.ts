// The model's out-of-sample error on the published runs closest to the step's class (dense/MoE, GPU
// generation, dtype, context), the step time as the range it implies, and both accuracy tables
// (training set with its leave-one-family-out column, published runs) one click away.
import type { TslabClient } from "../client";
import { el, scrollFrame } from "../dom";
import { duration } from "../format";
import { t } from "../i18n";
import type { Scenario } from "../report";
import type { Accuracy, AccuracyClass, AccuracyRow } from "../types/accuracy";

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const signed = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(100 * x).toFixed(1)}%`;
// Each published figure with its unit (the metric names are the core's: validation_set.hpp).
const UNITS: Record<string, (v: number) => string> = {
  iteration_s: (v) => `${v.toFixed(3)} s`,
  mfu: (v) => `${pct(v)} MFU`,
  tflops_per_gpu: (v) => `${v.toFixed(1)} TFLOP/s`,
  tokens_per_s: (v) => `${v.toPrecision(4)} tok/s`,
  tokens_per_s_per_gpu: (v) => `${v.toFixed(0)} tok/s/GPU`,
  memory_gib: (v) => `${v.toFixed(1)} GiB`,
};
const figure = (metric: string, v: number) => (UNITS[metric] ?? ((x: number) => x.toPrecision(4)))(v);

export interface AccuracyNote {
  element: HTMLElement;
  /** After a step result: the class of this scenario (computed by the core once per class, off the first paint). */
  update(scenario: Scenario): void;
  relabel(): void;
}

function classText(c: AccuracyClass, all: boolean): string {
  const keys = all
    ? [c.kind, c.gpu, c.dtype, `${c.context}-context`]
    : [c.match_kind, c.match_gpu, c.match_dtype, c.match_context && `${c.match_context}-context`];
  return keys.filter(Boolean).join(" ") || t("step.accuracy.all");
}

function accuracyTable(a: Accuracy, cvColumn: boolean): HTMLElement {
  const tbl = el("table", "tsl-table tsl-accuracy-rows");
  const head = el("tr");
  // The point first (figures and errors), the layout last: on a narrow screen the errors stay in view.
  const keys = ["step.accuracy.run", "step.accuracy.published", "step.accuracy.predicted", "step.accuracy.error"] as const;
  for (const k of keys) head.append(el("th", "", t(k)));
  if (cvColumn) head.append(el("th", "", t("step.accuracy.cv")));
  head.append(el("th", "", t("step.accuracy.layout")));
  tbl.append(head);
  for (const r of a.rows) tbl.append(accuracyRow(r, cvColumn));
  return tbl;
}

function accuracyRow(r: AccuracyRow, cvColumn: boolean): HTMLElement {
  const tr = el("tr");
  const name = el("td", "", `${r.id}${r.outside_mean ? " *" : ""}`);
  name.title = r.outside_mean ? `${r.source} — ${r.outside_mean}` : r.source;
  tr.append(name, el("td", "", figure(r.metric, r.published)), el("td", "", figure(r.metric, r.predicted)), el("td", "", signed(r.error)));
  if (cvColumn) tr.append(el("td", "", r.fitted ? signed(r.cv_error) : t("step.accuracy.held_out")));
  tr.append(el("td", "", `${r.gpus} ${r.gpu.toUpperCase()} · ${r.layout}`));
  return tr;
}

function summaryLine(a: Accuracy): string {
  return t("step.accuracy.summary", {
    runs: a.counted,
    mean: pct(a.mean_abs_error),
    max: pct(a.max_abs_error),
    cvMean: pct(a.cv_mean_abs_error),
    cvMax: pct(a.cv_max_abs_error),
  });
}

export function createAccuracyNote(client: TslabClient): AccuracyNote {
  const element = el("div", "tsl-accuracy");
  element.dataset.testid = "step-accuracy";
  const range = el("p", "tsl-accuracy-range");
  range.dataset.testid = "step-range";
  const line = el("p", "tsl-accuracy-line");
  const details = el("details", "tsl-accuracy-table");
  const summary = el("summary", "", t("step.accuracy.table"));
  details.append(summary);
  element.append(range, line, details);
  let current: AccuracyClass | null = null;
  let tables: [Accuracy, Accuracy] | null = null;
  let pending = 0;

  const draw = () => {
    summary.textContent = t("step.accuracy.table");
    if (!current) return;
    range.textContent = t("step.accuracy.range", {
      low: duration(current.step_time_low_s),
      high: duration(current.step_time_high_s),
      runs: current.runs,
    });
    line.textContent =
      t("step.accuracy", { runs: current.runs, cls: classText(current, false), mean: pct(current.mean_abs_error), max: pct(current.max_abs_error) }) +
      (current.match === "class" ? "" : t("step.accuracy.closest", { cls: classText(current, true) }));
    element.dataset.match = current.match;
    element.dataset.mean = String(current.mean_abs_error);
    element.dataset.low = String(current.step_time_low_s);
    element.dataset.high = String(current.step_time_high_s);
    if (tables && details.open) drawTables(tables);
  };
  const drawTables = ([training, published]: [Accuracy, Accuracy]) => {
    details.querySelectorAll(".tsl-accuracy-block").forEach((b) => b.remove());
    for (const [a, title, cv] of [
      [training, "step.accuracy.training", true],
      [published, "step.accuracy.validation", false],
    ] as const) {
      const block = el("div", "tsl-accuracy-block");
      const wrap = scrollFrame(el("div", "tsl-table-scroll"), t(title));
      wrap.append(accuracyTable(a, cv));
      const outside = a.rows.find((r) => r.outside_mean);
      block.append(el("h4", "", t(title)), el("p", "tsl-accuracy-summary", summaryLine(a)), wrap);
      if (outside) block.append(el("p", "tsl-accuracy-outside", `* ${outside.outside_mean}`));
      details.append(block);
    }
  };
  details.addEventListener("toggle", () => {
    if (!details.open) return;
    tables ??= [client.accuracy(), client.accuracyPublished()];
    drawTables(tables);
  });

  return {
    element,
    update(scenario) {
      // The first call predicts both validation sets in the core (one report per published run): after the paint.
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
