// L6 panel view: per-EP-rank load bars (static vs with redundant experts), the busiest-rank figures, dispatch bytes by link, the overlap box and the trial table.
import { el, scrollFrame } from "../dom";
import { binaryBytes, bothUnits, duration } from "../format";
import { t, type MessageKey } from "../i18n";
import type { ExpertInReport } from "../types/expert";
import { createStatusLines, createTrialBox } from "./view_parts";

export interface ExpertTrialRow {
  id: "flat" | "skewed" | "fixed";
  imbalance: number;
  busiest_s: number;
  step_s: number;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const times = (x: number) => `${x.toFixed(3)}×`;

/** One labelled figure; data-value carries the core's number for tests. */
export function figure(key: MessageKey, text: string, id: string, value: number): HTMLElement {
  const d = el("div", "tsl-fig");
  const v = el("strong", "", text);
  v.dataset.testid = id;
  v.dataset.value = String(value);
  d.append(el("span", "", t(key)), v);
  return d;
}

/** Bars of per-rank loads, scaled to the larger of the two sets, with the mean as a dashed line. */
function rankBars(r: ExpertInReport, which: "rank_pairs" | "balanced_rank_pairs", id: string): HTMLElement {
  const e = r.expert;
  const top = Math.max(...e.rank_pairs, ...e.balanced_rank_pairs, e.busiest_pairs) || 1;
  const wrap = el("div", "tsl-ex-bars");
  wrap.dataset.testid = id;
  wrap.setAttribute("role", "img");
  wrap.setAttribute(
    "aria-label",
    `${t(which === "rank_pairs" ? "ex.ranks.before" : "ex.ranks.after")}: ${times(which === "rank_pairs" ? e.imbalance : e.balanced_imbalance)}`,
  );
  e[which].forEach((p, i) => {
    const b = el("i", i === e.busiest_rank && which === "rank_pairs" ? "tsl-ex-bar tsl-ex-hot" : "tsl-ex-bar");
    b.style.height = `${(100 * p) / top}%`;
    b.title = `rank ${i}: ${Math.round(p)}`;
    wrap.append(b);
  });
  const mean = el("b", "tsl-ex-mean");
  mean.style.bottom = `${(100 * e.mean_pairs) / top}%`;
  wrap.append(mean);
  return wrap;
}

/** A two-part bar (NVLink | network) for one exchange, widths as shares of the larger exchange. */
function linkBar(label: MessageKey, nvlink: number, network: number, scale: number, id: string): HTMLElement {
  const row = el("div", "tsl-ex-link");
  const bar = el("div", "tsl-ex-linkbar");
  const a = el("i", "tsl-ex-nvl"),
    b = el("i", "tsl-ex-net");
  a.style.width = `${(100 * nvlink) / scale}%`;
  b.style.width = `${(100 * network) / scale}%`;
  b.dataset.testid = `${id}-network`;
  b.dataset.value = String(network);
  bar.append(a, b);
  row.append(
    el("span", "tsl-ex-linklabel", t(label)),
    bar,
    el("small", "", `${t("ex.bytes.nvlink")} ${binaryBytes(nvlink)} · ${t("ex.bytes.network")} ${binaryBytes(network)}`),
  );
  return row;
}

function loadsBox(r: ExpertInReport): HTMLElement {
  const e = r.expert;
  const box = el("section", "tsl-ex-box");
  box.append(
    el("h3", "", t("ex.ranks.title")),
    el("p", "tsl-ex-caption", `${t("ex.ranks.before")} · ${t("ex.ranks.mean")}`),
    rankBars(r, "rank_pairs", "ex-bars-before"),
    el("p", "tsl-ex-caption", `${t("ex.ranks.after")} (${e.redundant_experts})`),
    rankBars(r, "balanced_rank_pairs", "ex-bars-after"),
  );
  const figs = el("div", "tsl-figs");
  figs.append(
    figure("ex.imbalance", times(e.imbalance), "ex-imbalance", e.imbalance),
    figure("ex.balanced", times(e.balanced_imbalance), "ex-balanced", e.balanced_imbalance),
    figure("ex.busiest_s", duration(e.expert_busiest_s), "ex-busiest-s", e.expert_busiest_s),
    figure("ex.mean_s", duration(e.expert_mean_s), "ex-mean-s", e.expert_mean_s),
    figure("ex.share", pct(e.busiest_share), "ex-share", e.busiest_share),
    figure("ex.excess", duration(e.imbalance_s), "ex-excess", e.imbalance_s),
    figure("ex.redundant_bytes", bothUnits(e.redundant_bytes), "ex-redundant-bytes", e.redundant_bytes),
    figure("ex.replicated", String(e.replicated_experts), "ex-replicated", e.replicated_experts),
  );
  box.append(figs);
  return box;
}

function bytesBox(r: ExpertInReport): HTMLElement {
  const d = r.expert.dispatch;
  const box = el("section", "tsl-ex-box");
  const scale = Math.max(d.dispatch_bytes, d.combine_bytes) || 1;
  const limit = d.node_limit > 0 ? t("ex.bytes.limit", { m: d.node_limit, from: d.node_limit_from }) : t("ex.bytes.no_limit", { nodes: d.ep_nodes });
  const limitLine = el("p", "tsl-ex-caption", limit);
  limitLine.dataset.testid = "ex-limit";
  box.append(
    el("h3", "", t("ex.bytes.title")),
    el("p", "tsl-ex-caption", t("ex.bytes.layout", { nodes: d.ep_nodes, g: d.ranks_per_node })),
    limitLine,
    linkBar("ex.bytes.dispatch", d.dispatch_nvlink_bytes, d.dispatch_network_bytes, scale, "ex-dispatch"),
    linkBar("ex.bytes.combine", d.combine_nvlink_bytes, d.combine_network_bytes, scale, "ex-combine"),
  );
  const figs = el("div", "tsl-figs");
  figs.append(
    figure("ex.bytes.limited", binaryBytes(d.network_bytes), "ex-network", d.network_bytes),
    figure("ex.bytes.unlimited", binaryBytes(d.network_bytes_unlimited), "ex-network-unlimited", d.network_bytes_unlimited),
  );
  box.append(figs, el("p", "tsl-ex-formula", d.formula));
  return box;
}

function overlapBox(r: ExpertInReport): HTMLElement {
  const o = r.step.ep_overlap;
  const ep = r.step.segments.find((g) => g.id === "ep");
  const box = el("section", "tsl-ex-box");
  box.append(el("h3", "", t("ex.overlap.title")));
  if (o.pairs === 0) box.append(el("p", "tsl-ex-caption", t("ex.overlap.none")));
  const figs = el("div", "tsl-figs");
  figs.append(
    figure("ex.overlap.pairs", String(o.pairs), "ex-pairs", o.pairs),
    figure("ex.overlap.hidden", duration(o.hidden_s), "ex-hidden", o.hidden_s),
    figure("ex.overlap.exposed", duration(ep?.time_s ?? 0), "ex-exposed", ep?.time_s ?? 0),
    figure("ex.overlap.sm", pct(o.sm_share), "ex-sm", o.sm_share),
  );
  box.append(figs);
  return box;
}

function trialTable(rows: ExpertTrialRow[]): HTMLElement {
  const table = el("table", "tsl-ex-trial");
  table.dataset.testid = "ex-trial-table";
  const head = el("tr");
  for (const k of ["ex.trial.col.case", "ex.trial.col.imb", "ex.trial.col.busiest", "ex.trial.col.step"] as const) head.append(el("th", "", t(k)));
  table.append(head);
  for (const r of rows) {
    const tr = el("tr");
    tr.dataset.case = r.id;
    tr.dataset.imbalance = String(r.imbalance);
    tr.dataset.busiest = String(r.busiest_s);
    tr.dataset.step = String(r.step_s);
    tr.append(
      el("td", "", t(`ex.trial.${r.id}` as MessageKey)),
      el("td", "", times(r.imbalance)),
      el("td", "", duration(r.busiest_s)),
      el("td", "", duration(r.step_s)),
    );
    table.append(tr);
  }
  return table;
}

export function createExpertView(root: HTMLElement, onTrial: () => void) {
  const body = el("div", "tsl-ex-body");
  const status = createStatusLines(body, "ex.stale");
  const result = el("div", "tsl-trial-result");
  result.dataset.testid = "ex-trial-result";
  let trial: ExpertTrialRow[] | null = null;
  const box = createTrialBox<ExpertTrialRow[]>({ testid: "ex-trial", labelKey: "ex.trial", hintKey: "ex.trial.hint" }, onTrial, result, (rows) => {
    const lesson = el("p", "tsl-ex-lesson", t("ex.trial.lesson"));
    lesson.dataset.testid = "ex-lesson";
    const frame = scrollFrame(el("div", "tsl-tablewrap"), t("ex.trial"));
    frame.append(trialTable(rows));
    result.append(lesson, frame);
  });
  root.append(box.element, ...status.elements, body);
  let last: ExpertInReport | null = null;
  const render = (r: ExpertInReport) => {
    last = r;
    if (!r.expert.moe) return body.replaceChildren(el("p", "tsl-ex-caption", t("ex.dense")));
    body.replaceChildren(loadsBox(r), bytesBox(r), overlapBox(r));
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
    showTrial: (rows: ExpertTrialRow[]) => ((trial = rows), box.draw(trial)),
    clearTrial: () => ((trial = null), box.draw(null)),
  };
}
