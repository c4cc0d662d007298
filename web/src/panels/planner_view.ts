// Planner panel view: progress bar and status, the searched scenario's own plan against the best, the top-configurations table and the Pareto scatter (memory vs step time).
import { sayClauses } from "../core_messages";
import { binaryBytes, duration } from "../format";
import { t, type MessageKey } from "../i18n";
import type { PlanCandidate, PlanResult, PlanVersus } from "../types/step";
import { el, svg, scrollFrame } from "../dom";
import { segmentLabel } from "./step_view";

/** "DP 8 · TP 2 · PP 4 · ZeRO 1": the axes of a candidate that are not 1 (DP and TP always). */
export function describe(c: Pick<PlanCandidate, "parallel" | "micro_batch" | "recompute" | "schedule">): string {
  const p = c.parallel;
  const parts = [`DP ${p.dp}`, `TP ${p.tp}`, `PP ${p.pp}`];
  if (p.vpp > 1) parts.push(`VPP ${p.vpp}`);
  if (p.ep > 1) parts.push(`EP ${p.ep}`);
  if (p.cp > 1) parts.push(`CP ${p.cp}`);
  parts.push(`ZeRO ${p.zero}`, `mb ${c.micro_batch}`, c.recompute, c.schedule);
  return parts.join(" · ");
}

function labelled(cls: string, text: string, key: MessageKey): HTMLTableCellElement {
  const td = el("td", cls, text);
  td.dataset.label = t(key);
  return td;
}

/** Makes el act as a button: click, Enter and Space call pick. */
function activate(target: Element, pick: () => void): void {
  target.addEventListener("click", pick);
  target.addEventListener("keydown", (e) => {
    const k = (e as KeyboardEvent).key;
    if (k === "Enter" || k === " ") {
      e.preventDefault();
      pick();
    }
  });
}

export interface PlannerView {
  progress(fraction: number, text: string): void;
  status(text: string, isError?: boolean): void;
  render(plan: PlanResult, pick: (c: PlanCandidate) => void): void;
  applied(c: PlanCandidate): void;
}

/** "pipeline bubble −1.87 s, compute −1.17 s, DP communication +683 ms": the segments that separate two plans, as the step bar names them. */
function deltas(v: PlanVersus, axes: ReadonlySet<string>): string {
  if (!v.largest.length) return t("plan.own.same");
  return v.largest
    .map((d) => `${segmentLabel({ id: d.segment, ledger: d.ledger }, axes)} ${d.delta_s < 0 ? "−" : "+"}${duration(Math.abs(d.delta_s))}`)
    .join(t("plan.own.sep"));
}

/** axes: the mesh axis names, which name the communication segments (as on the step bar). */
export function createPlannerView(host: HTMLElement, axes: ReadonlySet<string>): PlannerView {
  const bar = el("progress", "tsl-plan-progress");
  bar.max = 1;
  bar.value = 0;
  bar.dataset.testid = "plan-progress";
  const pct = el("span", "tsl-plan-pct", "0%");
  pct.dataset.testid = "plan-pct";
  const status = el("p", "tsl-plan-status");
  status.dataset.testid = "plan-status";
  status.setAttribute("aria-live", "polite");
  const message = el("p", "tsl-plan-message");
  message.dataset.testid = "plan-message";
  message.hidden = true;
  const applied = el("p", "tsl-plan-applied");
  applied.dataset.testid = "plan-applied";
  applied.setAttribute("aria-live", "polite");
  applied.hidden = true;
  const own = el("section", "tsl-plan-own");
  own.dataset.testid = "plan-own";
  own.hidden = true;
  const table = el("section", "tsl-plan-top");
  const scatter = el("section", "tsl-plan-pareto");
  const head = el("div", "tsl-plan-bar");
  head.append(bar, pct);
  host.append(head, status, message, applied, own, table, scatter);
  status.textContent = t("plan.status.idle");

  function renderTable(plan: PlanResult, pick: (c: PlanCandidate) => void): void {
    const tbl = el("table", "tsl-dtable");
    tbl.dataset.testid = "plan-top";
    tbl.dataset.globalBatch = String(plan.global_batch);
    tbl.dataset.seqLen = String(plan.seq_len);
    const cap = el("caption", "", t("plan.top"));
    const thead = el("thead");
    const hr = el("tr");
    for (const k of [
      "plan.col.rank",
      "plan.col.parallel",
      "plan.col.time",
      "plan.col.memory",
      "plan.col.mfu",
      "plan.col.tokens",
      "plan.col.bottleneck",
    ] as const)
      hr.append(Object.assign(el("th", "", t(k)), { scope: "col" }));
    thead.append(hr);
    const tbody = el("tbody");
    const rows = plan.top.length ? plan.top : plan.closest ? [plan.closest] : [];
    rows.forEach((c, i) => {
      const tr = el("tr", "tsl-plan-row");
      tr.tabIndex = 0;
      tr.dataset.testid = "plan-row";
      tr.dataset.time = String(c.time_s);
      tr.dataset.mb = String(c.micro_batch);
      tr.dataset.memory = String(c.memory_bytes);
      for (const [k, v] of Object.entries(c.parallel)) tr.dataset[k] = String(v);
      tr.setAttribute("aria-label", `${i + 1}. ${describe(c)}, ${duration(c.time_s)}`);
      const cell = labelled;
      tr.append(
        el("th", "", String(i + 1)),
        el("td", "tsl-plan-cfg", describe(c)),
        cell("tsl-num", duration(c.time_s), "plan.col.time"),
        cell("tsl-num", binaryBytes(c.memory_bytes), "plan.col.memory"),
        cell("tsl-num", `${(c.mfu * 100).toFixed(1)}%`, "plan.col.mfu"),
        cell("tsl-num", Math.round(c.tokens_per_s).toLocaleString("en-US"), "plan.col.tokens"),
        el("td", "tsl-plan-bn", sayClauses(c.bottleneck_msg, c.bottleneck)),
      );
      activate(tr, () => pick(c));
      tbody.append(tr);
    });
    tbl.append(cap, thead, tbody);
    const frame = scrollFrame(el("div", "tsl-tablewrap"), t("plan.top"));
    frame.append(tbl);
    table.replaceChildren(frame);
  }

  /** The searched scenario's own plan against the best one: its time, its layout's best knobs and rank, and the costs between them. */
  function renderOwn(plan: PlanResult): void {
    const b = plan.scenario_plan;
    own.hidden = !b;
    if (!b) return own.replaceChildren();
    const line = (testid: string, text: string) => {
      const p = el("p", "", text);
      p.dataset.testid = testid;
      return p;
    };
    const lines = [
      line("plan-own-plan", t("plan.own.plan", { config: describe(b), time: duration(b.time_s), fit: b.fits ? "" : t("plan.own.nofit") })),
    ];
    const best = b.best_of_layout,
      top = plan.top[0];
    if (top?.versus_scenario)
      lines.push(
        line("plan-own-versus", t("plan.own.versus", { speedup: top.versus_scenario.speedup.toFixed(2), deltas: deltas(top.versus_scenario, axes) })),
      );
    if (!best) lines.push(line("plan-own-layout", t("plan.own.layout_none")));
    else {
      const vars = { time: duration(best.time_s), config: describe(best), rank: b.layout_rank, n: plan.top.length };
      lines.push(line("plan-own-layout", t(b.layout_rank > 0 ? "plan.own.layout" : "plan.own.layout_below", vars)));
      const v = b.best_versus_layout;
      if (v && b.layout_rank !== 1)
        lines.push(line("plan-own-versus-layout", t("plan.own.versus_layout", { speedup: v.speedup.toFixed(2), deltas: deltas(v, axes) })));
      else if (b.layout_rank === 1) lines.push(line("plan-own-versus-layout", t("plan.own.fastest")));
    }
    own.dataset.rank = String(b.layout_rank);
    own.dataset.time = String(b.time_s);
    own.replaceChildren(el("h3", "", t("plan.own.title")), ...lines);
  }

  function renderScatter(plan: PlanResult, pick: (c: PlanCandidate) => void): void {
    const pts = plan.pareto;
    const W = 480,
      H = 280,
      L = 64,
      R = 16,
      T = 30,
      B = 40;
    const xs = pts.map((p) => p.time_s),
      ys = pts.map((p) => p.memory_bytes);
    const [x0, x1] = [Math.min(...xs), Math.max(...xs)],
      [y0, y1] = [Math.min(...ys), Math.max(...ys)];
    // Step times on the front can span 10×; a log axis keeps the fast end readable. Points sit 5% inside the axes.
    const logX = x0 > 0 && x1 / x0 > 5;
    const fx = (x: number) => (logX ? Math.log(x / x0) / Math.log(x1 / x0) : x1 > x0 ? (x - x0) / (x1 - x0) : 0.5);
    const fit = (f: number) => 0.05 + 0.9 * f;
    const sx = (x: number) => L + fit(fx(x)) * (W - L - R);
    const sy = (y: number) => H - B - fit(y1 > y0 ? (y - y0) / (y1 - y0) : 0.5) * (H - T - B);
    const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "group", class: "tsl-plan-svg" });
    root.setAttribute("aria-label", t("plan.pareto"));
    root.dataset.testid = "pareto";
    root.append(
      svg("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, class: "tsl-plan-axis" }),
      svg("line", { x1: L, y1: T, x2: L, y2: H - B, class: "tsl-plan-axis" }),
    );
    const label = (x: number, y: number, text: string, anchor: string) => {
      const e = svg("text", { x, y, "text-anchor": anchor, class: "tsl-plan-tick" });
      e.textContent = text;
      root.append(e);
    };
    if (pts.length) {
      label(sx(x0), H - B + 14, duration(x0), "start");
      label(sx(x1), H - B + 14, duration(x1), "end");
      label(L - 4, sy(y0) + 3, binaryBytes(y0), "end");
      label(L - 4, sy(y1) + 3, binaryBytes(y1), "end");
    }
    label((L + W - R) / 2, H - 6, `${t("plan.pareto.x")}${logX ? " (log)" : ""} →`, "middle");
    label(4, 14, `↑ ${t("plan.pareto.y")}`, "start");
    const ordered = [...pts].sort((a, b) => a.time_s - b.time_s);
    if (ordered.length > 1)
      root.append(svg("polyline", { points: ordered.map((p) => `${sx(p.time_s)},${sy(p.memory_bytes)}`).join(" "), class: "tsl-plan-front" }));
    for (const p of ordered) {
      const c = svg("circle", { cx: sx(p.time_s), cy: sy(p.memory_bytes), r: 6, tabindex: 0, role: "button", class: "tsl-plan-point" });
      const text = `${describe(p)}: ${duration(p.time_s)}, ${binaryBytes(p.memory_bytes)}`;
      c.setAttribute("aria-label", text);
      c.dataset.testid = "pareto-point";
      const title = svg("title", {});
      title.textContent = text;
      c.append(title);
      activate(c, () => pick(p));
      root.append(c);
    }
    const frame = scrollFrame(el("div", "tsl-plan-frame"), t("plan.pareto"));
    frame.append(root);
    scatter.replaceChildren(el("h3", "", t("plan.pareto.window", { window: plan.pareto_window })), frame);
  }

  return {
    progress(fraction, text) {
      applied.hidden = true; // a new search: the last search's "applied" line no longer describes what is shown
      bar.value = fraction;
      pct.textContent = `${Math.round(fraction * 100)}%`;
      pct.dataset.value = String(fraction);
      status.textContent = text;
      status.classList.remove("tsl-oom");
    },
    status(text, isError = false) {
      status.textContent = text;
      status.classList.toggle("tsl-oom", isError);
    },
    render(plan, pick) {
      message.textContent =
        sayClauses(plan.message_msg, plan.message) +
        (plan.top.length === 0 && plan.closest ? ` — ${t("plan.closest")}${describe(plan.closest)}` : "");
      message.hidden = plan.message === "";
      message.dataset.capped = String(plan.capped);
      renderOwn(plan);
      renderTable(plan, pick);
      renderScatter(plan, pick);
    },
    applied(c) {
      applied.textContent = t("plan.applied", { config: describe(c) });
      applied.hidden = false;
    },
  };
}
