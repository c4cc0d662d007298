// Memory panel view: fit status, one HBM bar per pipeline stage, the 70B trial box and the ledger.
import { bothUnits, gb, gib, paramCount } from "../format";
import { t, type MessageKey } from "../i18n";
import type { MemoryItemId, Report } from "../report";
import { el, scrollFrame } from "../dom";
import { createStatusLines, createTrialBox } from "./view_parts";

/** Palette from the course page: greens for model state, rust and sand for activations. */
const colors: Record<MemoryItemId, string> = {
  params: "#263b37",
  grads: "#4f7269",
  master_params: "#8aa79f",
  optimizer_states: "#a45d36",
  redundant_experts: "#6b8f5e",
  activations_layers: "#d08352",
  activations_other: "#e2b98f",
  comm_buffers: "#9a7752",
  offloaded: "#dce8e3",
};

/** params + grads + master + optimizer states on the loaded rank, as the core reports it. */
export function modelStateBytes(r: Report): number {
  return r.memory.model_state_bytes;
}

function pct(part: number, whole: number): string {
  return `${Math.max(0, Math.min(100, (part / whole) * 100)).toFixed(3)}%`;
}

function statusLine(r: Report): HTMLElement {
  const m = r.memory;
  const box = el("div", `tsl-status ${m.fits ? "tsl-ok" : "tsl-oom"}`);
  box.dataset.testid = "fit-status";
  box.dataset.fits = String(m.fits);
  const badge = el("strong", "tsl-badge", m.fits ? t("mem.fits") : t("mem.oom"));
  const diff = Math.abs(m.headroom_bytes);
  const main = el(
    "span",
    "tsl-status-main",
    `${bothUnits(m.total_bytes)} / ${gib(m.capacity_bytes)} GiB ${t("mem.capacity")} · ${m.fits ? t("mem.headroom") : t("mem.over")} ${bothUnits(diff)}`,
  );
  const info = el(
    "small",
    "tsl-status-info",
    `${r.scenario.model} · ${t("mem.params")} = ${paramCount(r.model.params_total)} · ${r.scenario.gpu} · world ${r.scenario.world} · ` +
      t("mem.rankInfo", { rank: m.rank, stage: m.stage, layers: m.layers_on_rank, inflight: m.inflight }),
  );
  const source = el("small", "tsl-status-info", r.scenario.source);
  source.dataset.testid = "report-source";
  box.append(badge, main, info, source);
  return box;
}

function stageRow(r: Report, stage: number, scale: number): HTMLElement {
  const m = r.memory;
  const total = m.stage_total_bytes[stage];
  const loaded = stage === m.stage;
  const row = el("div", `tsl-bar-row${loaded ? " tsl-loaded" : ""}${total > m.capacity_bytes ? " tsl-over" : ""}`);
  const label = el("span", "tsl-bar-label", loaded ? `${t("mem.bars.stage")} ${stage} · ${t("mem.bars.loaded")}` : `${t("mem.bars.stage")} ${stage}`);
  const track = el("div", "tsl-track");
  if (loaded) {
    for (const item of m.items) {
      if (item.id === "offloaded" || item.bytes <= 0) continue;
      const seg = el("i", "tsl-seg");
      seg.style.width = pct(item.bytes, scale);
      seg.style.background = colors[item.id];
      seg.title = `${t(`item.${item.id}` as MessageKey)}: ${bothUnits(item.bytes)}`;
      track.append(seg);
    }
  } else {
    const fill = el("i", "tsl-seg tsl-fill");
    fill.style.width = pct(total, scale);
    track.append(fill);
  }
  if (total > m.capacity_bytes) {
    const over = el("b", "tsl-overflow");
    over.style.left = pct(m.capacity_bytes, scale);
    over.style.width = pct(total - m.capacity_bytes, scale);
    track.append(over);
  }
  const cap = el("b", "tsl-cap");
  cap.style.left = pct(m.capacity_bytes, scale);
  track.append(cap);
  row.append(label, track, el("span", "tsl-bar-value", `${gib(total, 1)} GiB`));
  return row;
}

function bars(r: Report): HTMLElement {
  const m = r.memory;
  const scale = Math.max(m.capacity_bytes, ...m.stage_total_bytes) * 1.08;
  const box = el("figure", "tsl-bars");
  box.dataset.testid = "bars";
  const head = el("figcaption", "tsl-bars-head");
  head.append(el("span", "", t("mem.bars")), el("span", "tsl-cap-key", `${t("mem.capacity")} ${gib(m.capacity_bytes, 0)} GiB`));
  const rows = el("div", `tsl-bar-rows${m.stage_total_bytes.length > 12 ? " tsl-dense" : ""}`);
  rows.setAttribute("role", "img");
  rows.setAttribute(
    "aria-label",
    `${t("mem.bars")}: ${m.stage_total_bytes.map((b, s) => `stage ${s} ${gib(b, 1)} GiB`).join(", ")}; ${t("mem.capacity")} ${gib(m.capacity_bytes, 1)} GiB`,
  );
  m.stage_total_bytes.forEach((_, s) => rows.append(stageRow(r, s, scale)));
  const legend = el("ul", "tsl-legend");
  for (const item of m.items) {
    if (item.id === "offloaded" || item.bytes <= 0) continue;
    const li = el("li", "", t(`item.${item.id}` as MessageKey));
    const sw = el("i");
    sw.style.background = colors[item.id];
    li.prepend(sw);
    legend.append(li);
  }
  box.append(head, rows, legend);
  return box;
}

function ledger(r: Report): HTMLElement {
  const m = r.memory;
  const wrap = scrollFrame(el("div", "tsl-ledger"), t("mem.ledger"));
  const table = el("table");
  table.dataset.testid = "ledger";
  table.createCaption().textContent = t("mem.ledger");
  const head = table.createTHead().insertRow();
  for (const key of ["mem.col.item", "mem.col.gib", "mem.col.gb", "mem.col.formula"] as const) {
    const th = el("th", "", t(key));
    th.scope = "col";
    head.append(th);
  }
  const body = table.createTBody();
  for (const item of m.items) {
    const tr = body.insertRow();
    tr.dataset.item = item.id;
    if (item.id === "offloaded") tr.className = "tsl-host";
    const name = el("th", "", t(`item.${item.id}` as MessageKey));
    name.scope = "row";
    const sw = el("i", "tsl-swatch");
    sw.style.background = colors[item.id];
    name.prepend(sw);
    tr.append(name, el("td", "tsl-num", gib(item.bytes)), el("td", "tsl-num", gb(item.bytes)), el("td", "tsl-formula", item.formula));
  }
  const foot = table.createTFoot();
  const ms = modelStateBytes(r);
  const addFoot = (labelKey: MessageKey, bytes: number, cls: string, testid: string) => {
    const tr = foot.insertRow();
    tr.className = cls;
    tr.dataset.testid = testid;
    tr.dataset.bytes = String(bytes);
    const th = el("th", "", t(labelKey));
    th.scope = "row";
    tr.append(th, el("td", "tsl-num", gib(bytes)), el("td", "tsl-num", gb(bytes)), el("td", "tsl-formula", ""));
  };
  addFoot("mem.modelState", ms, "tsl-subtotal", "model-state");
  addFoot("mem.total", m.total_bytes, "tsl-total", "total");
  addFoot("mem.capacity", m.capacity_bytes, "tsl-capacity", "capacity");
  wrap.append(table, el("p", "tsl-units", t("mem.units")));
  return wrap;
}

export interface MemoryView {
  render(r: Report): void;
  relabel(): void;
  setStale(stale: boolean): void;
  setGeneralError(message: string | null): void;
  showTrial(replicatedModelState: number, after: Report, n: number): void;
  clearTrial(): void;
}

interface Trial {
  before: number;
  after: Report;
  n: number;
}

/** The one-click trial: a button, its plan, and the model state before → after next to 16P/N. */
function createMemoryTrialBox(onTrial: () => void) {
  const result = el("p", "tsl-trial-result");
  return createTrialBox<Trial>({ testid: "trial", labelKey: "mem.trial", hintKey: "mem.trial.hint" }, onTrial, result, (trial) => {
    const p = trial.after.model.params_total;
    const after = modelStateBytes(trial.after);
    const value = el("strong", "", `${gb(after)} GB`);
    value.dataset.testid = "trial-after";
    value.dataset.bytes = String(after);
    // ZeRO-3 (arXiv 1910.02054 section 5.3): model state per GPU is 16P/N with mixed-precision Adam.
    result.append(
      `${t("mem.trial.result")}: 16P = ${gb(trial.before, 1)} GB → `,
      value,
      ` (${gib(after)} GiB) · ${t("mem.trial.closed")} 16P/N = 16 × ${paramCount(p)} / ${trial.n} = ${gb((16 * p) / trial.n)} GB`,
    );
  });
}

export function createMemoryView(host: HTMLElement, onTrial: () => void): MemoryView {
  const trialBox = createMemoryTrialBox(onTrial);
  const body = el("div", "tsl-result-body");
  const status = createStatusLines(body, "mem.stale");
  host.append(trialBox.element, ...status.elements, body);

  let last: Report | null = null;
  let trial: Trial | null = null;
  const view: MemoryView = {
    render(r) {
      last = r;
      body.replaceChildren(statusLine(r), bars(r), ledger(r));
    },
    relabel() {
      status.relabel();
      trialBox.draw(trial);
      if (last) view.render(last);
    },
    setStale: status.setStale,
    setGeneralError: status.setGeneralError,
    showTrial(before, after, n) {
      trial = { before, after, n };
      trialBox.draw(trial);
    },
    clearTrial() {
      if (trial) ((trial = null), trialBox.draw(null));
    },
  };
  view.relabel();
  return view;
}
