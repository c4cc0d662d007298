// L8 panel view: one card per scaling recipe (dtype per stage, savings, costs), Adam vs Muon states, Muon's gather bytes, and the FP8 trial.
import { say } from "../core_messages";
import { el } from "../dom";
import { binaryBytes, duration } from "../format";
import { t, type MessageKey } from "../i18n";
import type { ExpertInReport, ScalingRow } from "../types/expert";
import { figure } from "./expert_view";
import { createStatusLines, createTrialBox } from "./view_parts";

export interface NumericsTrial {
  before: ExpertInReport;
  after: ExpertInReport;
}

/** The row the scenario's recipe runs (the core marks it). */
const currentRow = (r: ExpertInReport) => r.numerics.rows.find((x) => x.current) ?? r.numerics.rows[0];

function card(row: ScalingRow, current: boolean): HTMLElement {
  const c = el("article", "tsl-nu-card");
  c.dataset.testid = `nu-card-${row.name}`;
  c.dataset.current = String(current);
  c.dataset.available = String(row.available);
  c.dataset.gemm = String(row.gemm_s);
  c.append(el("h4", "", row.label));
  if (!row.available) c.append(el("p", "tsl-nu-note", t("nu.unavailable", { why: say(row.unavailable_msg, row.unavailable) })));
  const dl = el("dl");
  const add = (k: MessageKey, v: string) => dl.append(el("dt", "", t(k)), el("dd", "", v));
  add("nu.stage.storage", row.storage);
  add("nu.stage.gemm", row.gemm_input);
  const accumulate = say(row.accumulate_msg, row.accumulate);
  add("nu.stage.accumulate", row.promote_every > 0 ? `${accumulate} (${t("nu.promote", { k: row.promote_every })})` : accumulate);
  add("nu.stage.reduction", row.reduction);
  add("nu.stage.update", row.update);
  add("nu.gemm_s", duration(row.gemm_s));
  add("nu.gemm_saved", duration(row.gemm_saved_s));
  add("nu.input_saved", binaryBytes(row.input_bytes_saved));
  add("nu.act_scales", binaryBytes(row.activation_scale_bytes));
  add("nu.weight_scales", binaryBytes(row.weight_scale_bytes));
  add("nu.cast", `${binaryBytes(row.cast_bytes)} / ${duration(row.cast_s)}`);
  c.append(dl);
  c.title = row.source;
  return c;
}

/** Two bars against the larger value: a and b with their labels. */
function pair(aKey: MessageKey, a: number, bKey: MessageKey, b: number, id: string): HTMLElement {
  const top = Math.max(a, b) || 1;
  const wrap = el("div", "tsl-nu-pair");
  for (const [k, v, alt, tid] of [
    [aKey, a, false, `${id}-a`],
    [bKey, b, true, `${id}-b`],
  ] as const) {
    const bar = el("div", "tsl-ex-linkbar");
    const fill = el("i", alt ? "tsl-nu-alt" : "");
    fill.style.width = `${(100 * v) / top}%`;
    bar.append(fill);
    const label = el("small", "", `${t(k)}: ${binaryBytes(v)}`);
    label.dataset.testid = tid;
    label.dataset.value = String(v);
    wrap.append(label, bar);
  }
  return wrap;
}

function optimizerBox(r: ExpertInReport): HTMLElement {
  const o = r.numerics.optimizer;
  const box = el("section", "tsl-ex-box");
  box.append(el("h3", "", t("nu.opt.title")), pair("nu.opt.adam", o.adam_state_bytes, "nu.opt.muon", o.muon_state_bytes, "nu-states"));
  box.append(el("h3", "", t("nu.gather.title", { group: o.group })));
  if (o.group < 2) box.append(el("p", "tsl-ex-caption", t("nu.gather.none")));
  else box.append(pair("nu.gather.whole", o.gather_whole_bytes, "nu.gather.owned", o.gather_owned_max_bytes, "nu-gather"));
  return box;
}

/** A before → after pair of two reports' figures; both numbers ride on the element, the view divides nothing. */
function change(key: MessageKey, before: number, after: number, id: string): HTMLElement {
  const f = figure(key, `${duration(before)} → ${duration(after)}`, id, after);
  f.querySelector("strong")!.dataset.before = String(before);
  return f;
}

function trialResult(result: HTMLElement, { before, after }: NumericsTrial): void {
  const gb = currentRow(before),
    ga = currentRow(after);
  const lesson = el("p", "tsl-ex-lesson", t("nu.trial.lesson"));
  lesson.dataset.testid = "nu-lesson";
  const figs = el("div", "tsl-figs");
  figs.append(
    change("nu.trial.gemm", gb.gemm_s, ga.gemm_s, "nu-trial-gemm"),
    change("nu.trial.step", before.step.time_s, after.step.time_s, "nu-trial-step"),
  );
  const list = el("ul", "tsl-ex-caption");
  list.dataset.testid = "nu-trial-segments";
  after.step.segments.forEach((g, i) => {
    const b = before.step.segments[i];
    if (g.time_s > 0 || b.time_s > 0) list.append(el("li", "", `${g.id} (${g.ledger}): ${duration(b.time_s)} → ${duration(g.time_s)}`));
  });
  result.append(lesson, figs, el("p", "tsl-ex-caption", t("nu.trial.segments")), list);
}

export function createNumericsView(root: HTMLElement, onTrial: () => void) {
  const body = el("div", "tsl-nu-body");
  const status = createStatusLines(body, "nu.stale");
  const result = el("div", "tsl-trial-result");
  result.dataset.testid = "nu-trial-result";
  let trial: NumericsTrial | null = null;
  const box = createTrialBox<NumericsTrial>({ testid: "nu-trial", labelKey: "nu.trial", hintKey: "nu.trial.hint" }, onTrial, result, (x) =>
    trialResult(result, x),
  );
  root.append(box.element, ...status.elements, body);
  let last: ExpertInReport | null = null;
  const render = (r: ExpertInReport) => {
    last = r;
    const n = r.numerics;
    const table = el("section", "tsl-ex-box");
    const cards = el("div", "tsl-nu-cards");
    const now = currentRow(r);
    for (const row of n.rows) cards.append(card(row, row === now));
    const speed = figure("nu.speedup", `${n.fp8_speedup.toFixed(2)}×`, "nu-speedup", n.fp8_speedup);
    table.append(
      el("h3", "", t("nu.table.title")),
      el("p", "tsl-ex-caption", t("nu.now", { recipe: n.recipe })),
      cards,
      speed,
      el("p", "tsl-ex-formula", say(n.gemm_formula_msg, n.gemm_formula)),
    );
    body.replaceChildren(table, optimizerBox(r));
  };
  const relabel = () => {
    status.relabel();
    box.draw(trial);
    if (last) render(last);
  };
  relabel();
  return {
    render,
    relabel,
    setStale: status.setStale,
    setGeneralError: status.setGeneralError,
    showTrial: (x: NumericsTrial) => ((trial = x), box.draw(trial)),
    clearTrial: () => ((trial = null), box.draw(null)),
  };
}
