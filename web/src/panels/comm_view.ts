// Communication view: α and β parts of one collective, bytes on the wire, exposed vs hidden time, candidates, inventory.
import { binaryBytes, duration } from "../format";
import { t, type MessageKey } from "../i18n";
import type { CollectiveResult, CommInReport } from "../types/mesh";
import { el, scrollFrame } from "../dom";
import { createStatusLines, createTrialBox } from "./view_parts";

export interface CommView {
  render(c: CollectiveResult): void;
  renderInventory(r: CommInReport | null, error?: string): void;
  current(): CollectiveResult | null;
  showTrial(fromPct: number, before: CollectiveResult): void;
  clearTrial(): void;
  relabel(): void;
  setStale(stale: boolean): void;
  setGeneralError(message: string | null): void;
}

function pct(part: number, whole: number): string {
  return `${whole > 0 ? Math.max(0, Math.min(100, (part / whole) * 100)).toFixed(3) : 0}%`;
}

/** A labelled stacked bar: segments of [class, seconds] on a common scale. */
function bar(label: string, segs: [string, number, string][], scale: number): HTMLElement {
  const row = el("div", "tsl-cbar");
  const track = el("div", "tsl-cbar-track");
  track.setAttribute("role", "img");
  track.setAttribute("aria-label", `${label}: ${segs.map(([, s, name]) => `${name} ${duration(s)}`).join(", ")}`);
  for (const [cls, s, name] of segs) {
    const seg = el("i", `tsl-cseg ${cls}`);
    seg.style.width = pct(s, scale);
    seg.title = `${name}: ${duration(s)}`;
    track.append(seg);
  }
  row.append(el("span", "tsl-cbar-label", label), track);
  return row;
}

function stat(key: MessageKey, value: string, testid: string, data: Record<string, number>): HTMLElement {
  const box = el("div", "tsl-cstat");
  box.dataset.testid = testid;
  for (const [k, v] of Object.entries(data)) box.dataset[k] = String(v);
  box.append(el("span", "", t(key)), el("strong", "", value));
  return box;
}

function summary(c: CollectiveResult): HTMLElement {
  const box = el("div", "tsl-csum");
  const head = el("p", "tsl-calgo");
  const algo = el("strong", "", c.algorithm);
  algo.dataset.testid = "algorithm";
  head.append(`${t("comm.algorithm")}: `, algo, ` · ${t("comm.chosen", { by: c.chosen_by })} · ${t("comm.rounds", { rounds: c.rounds })}`);
  const where = el(
    "p",
    "tsl-cwhere",
    t("comm.where", { ranks: c.ranks, nodes: c.nodes, per: c.ranks_per_node, link: c.link, source: c.link_source }),
  );
  const stats = el("div", "tsl-cstats");
  stats.append(
    stat("comm.time", `${duration(c.time_s)} = ${duration(c.alpha_s)} + ${duration(c.beta_s)}`, "comm-time", {
      seconds: c.time_s,
      alpha: c.alpha_s,
      beta: c.beta_s,
    }),
    stat("comm.wire", `${binaryBytes(c.wire_bytes)} (${c.wire_bytes.toLocaleString("en-US")} B)`, "wire-bytes", {
      bytes: c.wire_bytes,
      message: c.bytes,
    }),
    stat("comm.exposed", `${duration(c.exposed_s)} @ ${Math.round(c.overlap * 100)}%`, "exposed", { seconds: c.exposed_s }),
  );
  const bars = el("div", "tsl-cbars");
  bars.append(
    bar(
      t("comm.time"),
      [
        ["tsl-alpha", c.alpha_s, t("comm.alpha")],
        ["tsl-beta", c.beta_s, t("comm.beta")],
      ],
      c.time_s,
    ),
    bar(
      t("comm.exposed"),
      [
        ["tsl-exposed", c.exposed_s, t("comm.exposed")],
        ["tsl-hidden", c.time_s - c.exposed_s, t("comm.hidden")],
      ],
      c.time_s,
    ),
  );
  const key = el("ul", "tsl-legend");
  for (const [cls, k] of [
    ["tsl-alpha", "comm.alpha"],
    ["tsl-beta", "comm.beta"],
    ["tsl-exposed", "comm.exposed"],
    ["tsl-hidden", "comm.hidden"],
  ] as const) {
    const li = el("li", "", t(k));
    li.prepend(el("i", `tsl-cseg ${cls}`));
    key.append(li);
  }
  const bw = el(
    "p",
    "tsl-cwhere",
    t("comm.bw.result", { alg: (c.algbw_Bps / 1e9).toPrecision(4), bus: (c.busbw_Bps / 1e9).toPrecision(4), factor: c.busbw_factor.toPrecision(4) }),
  );
  box.append(head, where, stats, bars, key, bw);
  return box;
}

function table(caption: string, heads: string[], rows: (string | number)[][], numeric: (i: number) => boolean): HTMLTableElement {
  const tb = el("table", "tsl-l5-table tsl-cards");
  tb.createCaption().textContent = caption;
  const head = tb.createTHead().insertRow();
  for (const h of heads) {
    const th = el("th", "", h);
    th.scope = "col";
    head.append(th);
  }
  const body = tb.createTBody();
  for (const r of rows) {
    const tr = body.insertRow();
    r.forEach((v, i) => {
      const td = el(i === 0 ? "th" : "td", numeric(i) ? "tsl-num" : "", String(v));
      td.dataset.label = heads[i]; // shown before the value when the table turns into cards on a phone
      if (i === 0) (td as HTMLTableCellElement).scope = "row";
      tr.append(td);
    });
  }
  return tb;
}

function candidates(c: CollectiveResult): HTMLElement {
  const sorted = [...c.candidates].sort((a, b) => a.time_s - b.time_s);
  const rows = sorted.map((k) => [k.algorithm, k.rounds, duration(k.alpha_s), duration(k.beta_s), duration(k.time_s), binaryBytes(k.wire_bytes)]);
  const tb = table(
    t("comm.candidates"),
    [t("comm.col.algorithm"), t("comm.col.rounds"), t("comm.col.alpha"), t("comm.col.beta"), t("comm.col.time"), t("comm.col.wire")],
    rows,
    (i) => i > 0,
  );
  tb.dataset.testid = "candidates";
  tb.querySelectorAll("tbody tr").forEach((tr, i) => tr.classList.toggle("tsl-chosen", sorted[i].algorithm === c.algorithm));
  const wrap = scrollFrame(el("div", "tsl-tablewrap"), tb.caption?.textContent ?? "");
  wrap.append(tb);
  return wrap;
}

function inventory(r: CommInReport): HTMLElement {
  const c = r.comm;
  // A break opportunity after "/" lets "layer/micro-batch" wrap in its narrow column.
  const rows = c.items.map((i) => [
    `${i.what} (${i.op})`,
    i.per.replace(/\//g, "/\u200b"),
    i.count,
    binaryBytes(i.bytes),
    `${i.link} · ${i.axis} ${i.ranks}`,
    duration(i.time_s),
    duration(i.exposed_s),
    duration(i.step_time_s),
    duration(i.step_exposed_s),
  ]);
  const tb = table(
    t("comm.inventory"),
    (
      [
        "comm.col.what",
        "comm.col.per",
        "comm.col.count",
        "comm.col.bytes",
        "comm.col.link",
        "comm.col.timeCall",
        "comm.col.exposedCall",
        "comm.col.timeStep",
        "comm.col.exposedStep",
      ] as const
    ).map((k) => t(k)),
    rows,
    (i) => i === 2 || i >= 5,
  );
  tb.dataset.testid = "inventory";
  tb.querySelectorAll("tbody tr").forEach((tr, i) => ((tr as HTMLElement).dataset.bytes = String(c.items[i].bytes)));
  const foot = tb.createTFoot().insertRow();
  foot.className = "tsl-total";
  foot.dataset.testid = "inventory-total";
  foot.dataset.time = String(c.step_time_s);
  foot.dataset.exposed = String(c.step_exposed_s);
  foot.dataset.bytes = String(c.step_bytes);
  const th = el("th", "", t("comm.inv.total"));
  th.scope = "row";
  th.colSpan = 7;
  const cells = [t("comm.col.timeStep"), t("comm.col.exposedStep")].map((label, k) => {
    const td = el("td", "tsl-num", duration(k ? c.step_exposed_s : c.step_time_s));
    td.dataset.label = label;
    return td;
  });
  foot.append(th, ...cells);
  const wrap = scrollFrame(el("div", "tsl-tablewrap tsl-inventory"), t("comm.inventory"));
  wrap.append(tb, el("p", "tsl-units", `${t("comm.inv.note")} ${c.source} · ${r.scenario.model} · world ${r.scenario.world}`));
  return wrap;
}

interface Trial {
  from: number;
  before: CollectiveResult;
  after: CollectiveResult;
}

/** The one-click trial: a button, and bytes on the wire and exposed time before → after. */
function createCommTrialBox(onTrial: () => void) {
  const result = el("p", "tsl-trial-result");
  result.dataset.testid = "comm-trial-result";
  return createTrialBox<Trial>({ testid: "comm-trial", labelKey: "comm.trial", hintKey: "comm.trial.hint" }, onTrial, result, (trial) => {
    const { before, after } = trial;
    const same = before.wire_bytes === after.wire_bytes ? ` (${t("comm.trial.same")})` : "";
    result.append(
      `${t("comm.trial.result", { from: trial.from, to: Math.round(after.overlap * 100) })} · ${t("comm.trial.bytes")} `,
      el("strong", "", `${binaryBytes(before.wire_bytes)} → ${binaryBytes(after.wire_bytes)}${same}`),
      ` · ${t("comm.trial.exposed")} `,
      el("strong", "", `${duration(before.exposed_s)} → ${duration(after.exposed_s)}`),
    );
  });
}

export function createCommView(host: HTMLElement, onTrial: () => void): CommView {
  const trialBox = createCommTrialBox(onTrial);
  const body = el("div", "tsl-result-body");
  const status = createStatusLines(body, "comm.stale");
  const inv = el("div", "tsl-inv-host");
  host.append(trialBox.element, ...status.elements, body, inv);

  let last: CollectiveResult | null = null;
  let lastInv: { r: CommInReport | null; error?: string } | null = null;
  let trial: Trial | null = null;
  const view: CommView = {
    render(c) {
      last = c;
      body.replaceChildren(summary(c), candidates(c));
    },
    renderInventory(r, error) {
      lastInv = { r, error };
      inv.replaceChildren(r ? inventory(r) : el("p", "tsl-error", t("comm.inv.error") + (error ?? "")));
    },
    current: () => last,
    showTrial(from, before) {
      if (last) trial = { from, before, after: last };
      trialBox.draw(trial);
    },
    clearTrial() {
      if (trial) ((trial = null), trialBox.draw(null));
    },
    relabel() {
      status.relabel();
      trialBox.draw(trial);
      if (last) view.render(last);
      if (lastInv) view.renderInventory(lastInv.r, lastInv.error);
    },
    setStale: status.setStale,
    setGeneralError: status.setGeneralError,
  };
  view.relabel();
  return view;
}
