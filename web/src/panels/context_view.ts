// L7 panel view: the trial, the methods table (bytes, link, hidden/exposed time, memory against HBM, balance) and the zig-zag chart.
import { sayError } from "../core_messages";
import { el, scrollFrame } from "../dom";
import { binaryBytes, duration } from "../format";
import { t, type MessageKey } from "../i18n";
import type { ContextMethod, ContextResult } from "../types/context";
import { createStatusLines, createTrialBox } from "./view_parts";

type Trial = { before: ContextResult; after: ContextResult };

const activeRow = (r: ContextResult) => r.methods.find((m) => m.active) ?? r.methods[0];
const linkText = (link: string) => t(`ctx.link.${link}` as MessageKey);
const linksOf = (m: ContextMethod) => [...new Set(m.items.map((i) => i.link))];
const ratio = (x: number) => x.toFixed(3);

/** A cell with its column name (shown before the value when the table folds into cards on a phone). */
function cell(labelKey: MessageKey, ...content: (Node | string)[]): HTMLTableCellElement {
  const td = el("td");
  td.dataset.label = t(labelKey);
  td.append(...content);
  return td;
}

function figure(text: string, testid: string, value: number): HTMLElement {
  const s = el("strong", "", text);
  s.dataset.testid = testid;
  s.dataset.value = String(value);
  return s;
}

function memoryCell(m: ContextMethod, scale: number): HTMLTableCellElement {
  const bar = el("div", "tsl-ctx-bar");
  const fill = el("i", m.fits ? "tsl-ctx-fill" : "tsl-ctx-fill tsl-ctx-over");
  fill.style.width = `${Math.min(100, (m.memory_bytes / scale) * 100)}%`;
  const line = el("b", "tsl-ctx-hbm");
  line.style.left = `${(m.capacity_bytes / scale) * 100}%`;
  line.title = t("ctx.hbm", { cap: binaryBytes(m.capacity_bytes) });
  bar.append(fill, line);
  const badge = el("span", m.fits ? "tsl-ctx-badge" : "tsl-ctx-badge tsl-ctx-badge-oom", t(m.fits ? "ctx.fits" : "ctx.oom"));
  const kv = el("small", "", t("ctx.memParts", { act: binaryBytes(m.activation_bytes), kv: binaryBytes(m.kv_bytes) }));
  kv.title = m.kv_formula;
  return cell("ctx.col.memory", figure(binaryBytes(m.memory_bytes), `ctx-mem-${m.id}`, m.memory_bytes), " ", badge, bar, kv);
}

function methodRow(m: ContextMethod, scale: number): HTMLTableRowElement {
  const tr = el("tr");
  tr.dataset.method = m.id;
  tr.dataset.available = String(m.available);
  tr.dataset.active = String(m.active);
  const name = el("th", "");
  name.scope = "row";
  name.append(el("b", "", m.label));
  if (m.active) name.append(" ", el("span", "tsl-ctx-badge tsl-ctx-badge-active", t("ctx.active")));
  if (m.available)
    name.append(
      el("small", "", m.axis === "tp" ? t("ctx.degree.sp", { tp: m.degree }) : t("ctx.degree.cp", { cp: m.degree, u: m.ulysses, r: m.ring })),
    );
  name.append(el("small", "tsl-ctx-source", m.source));
  tr.append(name);
  if (!m.available) {
    const why = el("td", "tsl-ctx-reason", t("ctx.unavailable") + sayError(m.reason_path, m.reason_msg, m.reason));
    why.colSpan = 6;
    why.dataset.testid = `ctx-reason-${m.id}`;
    tr.append(why);
    return tr;
  }
  const links = linksOf(m);
  tr.append(
    cell("ctx.col.bytes", figure(binaryBytes(m.wire_bytes), `ctx-bytes-${m.id}`, m.wire_bytes)),
    cell("ctx.col.link", links.length ? links.map(linkText).join(" + ") : t("ctx.link.none")),
    cell("ctx.col.time", `${duration(m.time_s)} / `, figure(duration(m.hidden_s), `ctx-hidden-${m.id}`, m.hidden_s), ` / ${duration(m.exposed_s)}`),
    cell("ctx.col.attention", duration(m.attention_s)),
    memoryCell(m, scale),
    cell("ctx.col.balance", `${ratio(m.balance_contiguous)} → ${ratio(m.balance_zigzag)}`),
  );
  tr.lastElementChild!.setAttribute("data-testid", `ctx-balance-${m.id}`);
  return tr;
}

function methodsTable(r: ContextResult): HTMLElement {
  const box = el("section", "tsl-ctx-box");
  box.append(el("h3", "", t("ctx.table")));
  const table = el("table", "tsl-ctx-table");
  table.dataset.testid = "ctx-methods";
  const head = el("tr");
  for (const k of ["method", "bytes", "link", "time", "attention", "memory", "balance"] as const)
    head.append(el("th", "", t(`ctx.col.${k}` as MessageKey)));
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  const scale = Math.max(...r.methods.filter((m) => m.available).map((m) => Math.max(m.memory_bytes, m.capacity_bytes)), 1) * 1.05;
  for (const m of r.methods) body.append(methodRow(m, scale));
  table.append(thead, body);
  const frame = scrollFrame(el("div", "tsl-tablewrap"), t("ctx.table"));
  frame.append(table);
  box.append(frame);
  return box;
}

/** Per-rank causal work, contiguous (muted) and zig-zag (ink), scaled to the busiest contiguous rank. */
function balanceChart(r: ContextResult): HTMLElement {
  const b = r.balance;
  const box = el("section", "tsl-ctx-box");
  box.dataset.testid = "ctx-balance";
  box.dataset.contiguous = String(b.contiguous_ratio);
  box.dataset.zigzag = String(b.zigzag_ratio);
  box.append(el("h3", "", t("ctx.balance.title", { cp: b.ranks })));
  if (b.ranks <= 1) {
    box.append(el("p", "", t("ctx.balance.one")));
    return box;
  }
  const legend = el("ul", "tsl-ctx-legend");
  const li = (cls: string, text: string) => {
    const x = el("li", "", text);
    x.prepend(el("i", cls));
    return x;
  };
  legend.append(
    li("tsl-ctx-contig", t("ctx.balance.contiguous", { ratio: ratio(b.contiguous_ratio) })),
    li("tsl-ctx-zig", t("ctx.balance.zigzag", { ratio: ratio(b.zigzag_ratio) })),
  );
  const top = Math.max(...b.per_rank.map((p) => Math.max(p.contiguous, p.zigzag)), 1);
  const rows = el("div", "tsl-ctx-ranks");
  for (const p of b.per_rank.slice(0, 32)) {
    const row = el("div", "tsl-ctx-rank");
    row.append(el("span", "", t("ctx.balance.rank", { rank: p.rank, a: p.chunks[0], b: p.chunks[1] })));
    for (const [cls, v] of [
      ["tsl-ctx-contig", p.contiguous],
      ["tsl-ctx-zig", p.zigzag],
    ] as const) {
      const bar = el("i", cls);
      bar.style.width = `${(v / top) * 100}%`;
      row.append(bar);
    }
    rows.append(row);
  }
  box.append(legend, rows);
  return box;
}

function formulaList(r: ContextResult): HTMLElement {
  const d = el("details", "tsl-ctx-formulas");
  d.append(el("summary", "", t("ctx.formulas")));
  const ul = el("ul");
  for (const [k, v] of Object.entries(r.formulas)) ul.append(el("li", "", `${k}: ${v}`));
  d.append(ul);
  return d;
}

function lesson(p: HTMLElement, { before, after }: Trial): void {
  const b = activeRow(before),
    a = activeRow(after);
  const link = linksOf(a).map(linkText).join(" + ") || t("ctx.link.none");
  p.dataset.beforeBytes = String(b.memory_bytes);
  p.dataset.afterBytes = String(a.memory_bytes);
  p.dataset.capacity = String(a.capacity_bytes);
  p.dataset.cpBytes = String(a.wire_bytes);
  p.dataset.link = linksOf(a).join(" ");
  p.textContent = t("ctx.trial.lesson", {
    before: binaryBytes(b.memory_bytes),
    cap: binaryBytes(b.capacity_bytes),
    after: binaryBytes(a.memory_bytes),
    method: a.label,
    bytes: binaryBytes(a.wire_bytes),
    link,
    hidden: duration(a.hidden_s),
    exposed: duration(a.exposed_s),
  });
}

export function createContextView(host: HTMLElement, onTrial: () => void) {
  const body = el("div", "tsl-ctx-body");
  const status = createStatusLines(body, "ctx.stale");
  const result = el("p", "tsl-trial-result");
  result.dataset.testid = "ctx-lesson";
  const trialBox = createTrialBox<Trial>({ testid: "ctx-trial", labelKey: "ctx.trial", hintKey: "ctx.trial.hint" }, onTrial, result, (trial) =>
    lesson(result, trial),
  );
  host.append(...status.elements, trialBox.element, body);
  let last: ContextResult | null = null;
  let trial: Trial | null = null;
  function render(r: ContextResult): void {
    last = r;
    body.replaceChildren(methodsTable(r), balanceChart(r), formulaList(r));
  }
  trialBox.draw(null);
  return {
    render,
    relabel() {
      status.relabel();
      if (last) render(last);
      trialBox.draw(trial);
    },
    setStale: status.setStale,
    setGeneralError: status.setGeneralError,
    showTrial(before: ContextResult, after: ContextResult) {
      trial = { before, after };
      trialBox.draw(trial);
    },
    clearTrial() {
      trial = null;
      trialBox.draw(null);
    },
  };
}
