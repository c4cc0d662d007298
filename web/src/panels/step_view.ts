// Step panel view: the headline box (MFU, tokens/s, TFLOP/s, bottleneck), the step-time bar and the nine-ledger table.
import { binaryBytes, duration } from "../format";
import { t, type MessageKey } from "../i18n";
import type { StepInReport } from "../types/step";
import { el } from "../dom";
import { createStatusLines } from "./view_parts";

export interface Segment {
  key: string;
  label: string;
  seconds: number;
}

/** Recompute seconds from L3's notes ("{:.3g} s recompute, …", core/src/step.cpp); the JSON has no separate field. */
export function recomputeSeconds(notes: string): number {
  const m = /^([-+\d.e]+) s recompute/.exec(notes);
  return m ? Number(m[1]) : 0;
}

/**
 * One step as disjoint, additive segments: the core's step time is compute + bubble + exposed P2P +
 * exposed collectives + expert imbalance (step_time_of, core/src/step.cpp); imbalance is the remainder.
 */
export function stepSegments(r: StepInReport): Segment[] {
  const s = r.step;
  const l3 = s.ledgers.find((l) => l.id === "L3");
  const recompute = Math.min(recomputeSeconds(l3?.notes ?? ""), s.compute_s);
  const byAxis = new Map<string, number>();
  // PP sends are the pipeline's exposed P2P (L4), not an L5 collective: counted once, from report.pipeline.
  for (const it of r.comm.items)
    if (it.axis !== "pp") byAxis.set(it.axis, (byAxis.get(it.axis) ?? 0) + it.step_exposed_s);
  const bubble = r.pipeline.bubble_s ?? 0;
  const p2p = r.pipeline.p2p_exposed_s ?? 0;
  const commTotal = [...byAxis.values()].reduce((a, b) => a + b, 0);
  const imbalance = Math.max(0, s.time_s - s.compute_s - bubble - p2p - commTotal);
  const segs: Segment[] = [
    { key: "compute", label: t("step.seg.compute"), seconds: s.compute_s - recompute },
    { key: "recompute", label: t("step.seg.recompute"), seconds: recompute },
  ];
  for (const axis of ["dp", "tp", "ep", "cp", ...byAxis.keys()]) {
    if (!byAxis.has(axis) || segs.some((g) => g.key === `comm-${axis}`)) continue;
    segs.push({ key: `comm-${axis}`, label: t("step.seg.comm", { axis: axis.toUpperCase() }), seconds: byAxis.get(axis)! });
  }
  segs.push({ key: "bubble", label: t("step.seg.bubble"), seconds: bubble });
  segs.push({ key: "p2p", label: t("step.seg.p2p"), seconds: p2p });
  segs.push({ key: "imbalance", label: t("step.seg.imbalance"), seconds: imbalance });
  return segs;
}

/** A cell that names its column, for the one-card-per-row layout on phones (step.css). */
function labelled(cls: string, text: string, key: MessageKey): HTMLTableCellElement {
  const td = el("td", cls, text);
  td.dataset.label = t(key);
  return td;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export interface StepView {
  render(r: StepInReport): void;
  setStale(stale: boolean): void;
  setGeneralError(message: string | null): void;
  relabel(): void;
}

export function createStepView(host: HTMLElement): StepView {
  const box = el("section", "tsl-step-box");
  box.dataset.testid = "step-headline";
  const bar = el("section", "tsl-step-barwrap");
  const table = el("section", "tsl-step-ledgers");
  const body = el("div", "tsl-result-body tsl-step-body");
  body.append(box, bar, table);
  const status = createStatusLines(body, "step.stale");
  status.relabel();
  host.append(...status.elements, body);
  let last: StepInReport | null = null;

  const metric = (key: MessageKey, value: string, testid: string, data: number) => {
    const d = el("div", "tsl-step-metric");
    const v = el("strong", "", value);
    v.dataset.testid = testid;
    v.dataset.value = String(data);
    d.append(el("span", "", t(key)), v);
    return d;
  };

  function renderBox(r: StepInReport): void {
    const s = r.step;
    const metrics = el("div", "tsl-step-metrics");
    metrics.append(
      metric("step.time", duration(s.time_s), "step-time", s.time_s),
      metric("step.mfu", pct(s.mfu), "step-mfu", s.mfu),
      metric("step.tokens", Math.round(s.tokens_per_s).toLocaleString("en-US"), "step-tokens", s.tokens_per_s),
      metric("step.tflops", s.tflops_per_gpu.toFixed(1), "step-tflops", s.tflops_per_gpu),
      metric("step.hfu", pct(s.hfu), "step-hfu", s.hfu),
      metric("step.goodput", pct(s.goodput), "step-goodput", s.goodput),
    );
    const sentence = el("p", "tsl-step-sentence");
    sentence.append(el("span", "tsl-step-bn-label", `${t("step.bottleneck")}: `));
    const text = el("span", "", s.bottleneck);
    text.dataset.testid = "bottleneck";
    sentence.append(text);
    box.replaceChildren(el("h3", "", t("step.headline")), metrics, sentence);
  }

  function renderBar(r: StepInReport): void {
    const segs = stepSegments(r);
    const total = segs.reduce((a, g) => a + g.seconds, 0) || 1;
    const track = el("div", "tsl-step-bar");
    track.setAttribute("role", "list");
    track.dataset.testid = "step-bar";
    const legend = el("ul", "tsl-legend tsl-step-legend");
    for (const g of segs) {
      const item = el("div", `tsl-step-seg tsl-seg-${g.key.replace(/^comm-.*/, "comm")}`);
      item.setAttribute("role", "listitem");
      item.dataset.seg = g.key;
      item.dataset.seconds = String(g.seconds);
      item.style.flexGrow = String(Math.max(g.seconds, 0) / total);
      item.hidden = g.seconds <= 0;
      const tip = `${g.label}: ${duration(g.seconds)} (${pct(g.seconds / total)})`;
      item.title = tip;
      item.tabIndex = g.seconds > 0 ? 0 : -1;
      item.setAttribute("aria-label", tip);
      if (g.key.startsWith("comm-")) item.dataset.axis = g.key.slice(5);
      track.append(item);
      if (g.seconds <= 0) continue;
      const li = el("li", "");
      const sw = el("span", `tsl-swatch tsl-seg-${g.key.replace(/^comm-.*/, "comm")}`);
      if (g.key.startsWith("comm-")) sw.dataset.axis = g.key.slice(5);
      li.append(sw, document.createTextNode(tip));
      legend.append(li);
    }
    bar.replaceChildren(el("h3", "", t("step.bar")), track, legend);
  }

  function renderTable(r: StepInReport): void {
    const tbl = el("table", "tsl-dtable tsl-step-table");
    tbl.dataset.testid = "ledgers";
    const head = el("tr");
    for (const k of ["step.col.id", "step.col.name", "step.col.time", "step.col.exposed", "step.col.bytes", "step.col.notes"] as const) {
      const th = el("th", "", t(k));
      th.scope = "col";
      head.append(th);
    }
    const tbody = el("tbody");
    for (const l of r.step.ledgers) {
      const tr = el("tr");
      tr.dataset.ledger = l.id;
      tr.dataset.time = String(l.time_s);
      tr.dataset.exposed = String(l.exposed_s);
      const th = el("th", "", l.id);
      th.scope = "row";
      tr.append(th, el("td", "tsl-step-name", l.name), labelled("tsl-num", duration(l.time_s), "step.col.time"),
        labelled("tsl-num", duration(l.exposed_s), "step.col.exposed"), labelled("tsl-num", binaryBytes(l.bytes), "step.col.bytes"),
        el("td", "tsl-step-notes", l.notes));
      tbody.append(tr);
    }
    tbl.append(el("thead"), tbody);
    tbl.tHead!.append(head);
    const wrap = el("div", "tsl-step-scroll");
    wrap.append(tbl);
    table.replaceChildren(el("h3", "", t("step.ledgers")), wrap, el("p", "tsl-step-gemm", `${t("step.gemm")}${r.step.gemm_model}`));
  }

  const view: StepView = {
    render(r) {
      last = r;
      renderBox(r);
      renderBar(r);
      renderTable(r);
    },
    setStale: status.setStale,
    setGeneralError: status.setGeneralError,
    relabel() {
      if (last) view.render(last);
      status.relabel();
    },
  };
  return view;
}
