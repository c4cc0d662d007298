// Step panel view: the headline box (MFU, tokens/s, TFLOP/s, bottleneck), the step-time bar and the nine-ledger table.
import { sayClauses } from "../core_messages";
import { binaryBytes, duration } from "../format";
import { t, tOr, type MessageKey } from "../i18n";
import type { StepInReport, StepSegment } from "../types/step";
import { el, scrollFrame } from "../dom";
import { createStatusLines } from "./view_parts";

/** Communication segments: the L5 collectives and any segment named after a mesh axis (EP on L6, CP on L7). */
const isComm = (g: Pick<StepSegment, "id" | "ledger">, axes: ReadonlySet<string>) => g.ledger === "L5" || axes.has(g.id);

/** A segment's label: its translation when the lab has one, else "{AXIS} communication" for a collective, else the core's id. */
export function segmentLabel(g: Pick<StepSegment, "id" | "ledger">, axes: ReadonlySet<string>): string {
  return tOr(`step.seg.${g.id}`, isComm(g, axes) ? t("step.seg.comm", { axis: g.id.toUpperCase() }) : g.id);
}

/** The CSS class of a segment: the communication colours are one class told apart by data-axis. */
const segmentClass = (g: StepSegment, axes: ReadonlySet<string>) => (isComm(g, axes) ? "tsl-seg-comm" : `tsl-seg-${g.id}`);

/** A cell that names its column, for the one-card-per-row layout on phones (step.css). */
function labelled(cls: string, text: string, key: MessageKey): HTMLTableCellElement {
  const td = el("td", cls, text);
  td.dataset.label = t(key);
  return td;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The effective global batch next to the result: its value, micro-batches per pipeline and where it came from (the core's rule text). */
function batchLine(r: StepInReport): HTMLElement {
  const s = r.step;
  const line = el("p", "tsl-step-batch");
  line.dataset.testid = "step-global-batch";
  line.dataset.value = String(s.global_batch);
  line.dataset.source = s.global_batch_source;
  const source =
    s.global_batch_source === "auto"
      ? t("step.batch.auto", { rule: sayClauses(s.global_batch_rule_msg, s.global_batch_rule) })
      : t("step.batch.given");
  line.append(
    el("strong", "", t("step.batch", { batch: s.global_batch.toLocaleString("en-US"), mb: s.micro_batch, m: s.microbatches })),
    el("small", "", ` · ${source}`),
  );
  return line;
}

export interface StepView {
  render(r: StepInReport): void;
  setStale(stale: boolean): void;
  setGeneralError(message: string | null): void;
  relabel(): void;
}

/** axes: the mesh axis names (presets().vocabulary.mesh_axes), which name the communication segments. */
export function createStepView(host: HTMLElement, axes: ReadonlySet<string>): StepView {
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
    const text = el("span", "", sayClauses(s.bottleneck_msg, s.bottleneck));
    text.dataset.testid = "bottleneck";
    sentence.append(text);
    box.replaceChildren(el("h3", "", t("step.headline")), metrics, batchLine(r), sentence);
  }

  function renderBar(r: StepInReport): void {
    const track = el("div", "tsl-step-bar");
    track.setAttribute("role", "list");
    track.dataset.testid = "step-bar";
    const legend = el("ul", "tsl-legend tsl-step-legend");
    for (const g of r.step.segments) {
      const comm = isComm(g, axes);
      const item = el("div", `tsl-step-seg ${segmentClass(g, axes)}`);
      item.setAttribute("role", "listitem");
      item.dataset.seg = g.id;
      item.dataset.ledger = g.ledger;
      item.dataset.seconds = String(g.time_s);
      item.style.flexGrow = String(Math.max(g.share, 0));
      item.hidden = g.time_s <= 0;
      const tip = `${segmentLabel(g, axes)}: ${duration(g.time_s)} (${pct(g.share)})`;
      item.title = tip;
      item.tabIndex = g.time_s > 0 ? 0 : -1;
      item.setAttribute("aria-label", tip);
      if (comm) item.dataset.axis = g.id;
      track.append(item);
      if (g.time_s <= 0) continue;
      const li = el("li", "");
      const sw = el("span", `tsl-swatch ${segmentClass(g, axes)}`);
      if (comm) sw.dataset.axis = g.id;
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
      tr.append(
        th,
        el("td", "tsl-step-name", tOr(`ledger.${l.id}`, l.name)),
        labelled("tsl-num", duration(l.time_s), "step.col.time"),
        labelled("tsl-num", duration(l.exposed_s), "step.col.exposed"),
        labelled("tsl-num", binaryBytes(l.bytes), "step.col.bytes"),
        el("td", "tsl-step-notes", sayClauses(l.notes_msg, l.notes)),
      );
      tbody.append(tr);
    }
    tbl.append(el("thead"), tbody);
    tbl.tHead!.append(head);
    const wrap = scrollFrame(el("div", "tsl-step-scroll"), t("step.ledgers"));
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
