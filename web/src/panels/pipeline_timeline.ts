// Pipeline timeline drawn from the simulator's ops: one SVG row per rank, blocks keyboard-reachable (roving tabindex).
import { svg, svgNs } from "../dom";
import { t } from "../i18n";
import type { OpKind, ScheduleOp, ScheduleResult } from "../types/pipeline";

/** Block colours from the page palette; idle time (bubbles) is the hatched row background (pipeline.css). */
export const opColors: Record<OpKind, string> = {
  F: "#4f7269",
  B: "#a45d36",
  I: "#d9925e",
  W: "#6b5b95",
  FB: "#263b37",
};

/** "rank 2 · F · mb 5 · chunk 1", with the backward half for an overlapped FB pair, and its times. */
export function opName(op: ScheduleOp): string {
  const main = `rank ${op.rank} · ${op.kind} · mb ${op.microbatch} · chunk ${op.chunk}`;
  const pair = op.kind === "FB" ? ` + B mb ${op.b_microbatch} · chunk ${op.b_chunk}` : "";
  return `${main}${pair} · ${fmtS(op.start_s)}–${fmtS(op.end_s)} s`;
}

export function fmtS(s: number): string {
  return Number(s.toPrecision(6)).toString();
}

interface Grid {
  rows: ScheduleOp[][];
  rects: SVGRectElement[][];
}

/** Index of the op on `row` whose start is closest to time `s` (rows are in time order). */
function nearest(row: ScheduleOp[], s: number): number {
  let lo = 0;
  let hi = row.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (row[mid].end_s <= s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** WAI-ARIA grid-like movement: ← → within a rank, ↑ ↓ to the block nearest in time on the next rank. */
function moveFocus(grid: Grid, from: SVGRectElement, key: string): SVGRectElement | null {
  let r = Number(from.dataset.r);
  let i = Number(from.dataset.i);
  const row = grid.rows[r];
  if (key === "ArrowRight") i = Math.min(i + 1, row.length - 1);
  else if (key === "ArrowLeft") i = Math.max(i - 1, 0);
  else if (key === "Home") i = 0;
  else if (key === "End") i = row.length - 1;
  else if (key === "ArrowDown" || key === "ArrowUp") {
    let next = r + (key === "ArrowDown" ? 1 : -1);
    while (next >= 0 && next < grid.rows.length && grid.rows[next].length === 0) next += key === "ArrowDown" ? 1 : -1;
    if (next < 0 || next >= grid.rows.length) return null;
    i = nearest(grid.rows[next], row[i].start_s);
    r = next;
  } else return null;
  return grid.rects[r][i];
}

function rect(x: number, y: number, w: number, h: number, fill: string): SVGRectElement {
  return svg("rect", { x, y, width: w, height: h, fill });
}

function rowHeight(ranks: number): number {
  return ranks <= 16 ? 22 : Math.max(4, Math.floor(352 / ranks));
}

function rankLabels(r: ScheduleResult, rowH: number): HTMLElement {
  const box = document.createElement("div");
  box.className = "tsl-pipe-ranks";
  box.style.height = `${r.ranks.length * rowH}px`;
  box.setAttribute("aria-hidden", "true");
  const every = Math.ceil(13 / rowH);
  for (const rank of r.ranks) {
    if (rank.rank % every !== 0) continue;
    const label = document.createElement("span");
    label.style.top = `${rank.rank * rowH}px`;
    label.style.height = `${Math.max(rowH, 13)}px`;
    label.textContent = t("pipe.rankLabel", { rank: rank.rank });
    // The per-rank peak rides along when rows are tall enough; narrow screens hide it (pipeline.css).
    if (rowH >= 13)
      label.append(Object.assign(document.createElement("b"), { textContent: `· ${t("pipe.peakShort", { peak: rank.peak_inflight })}` }));
    box.append(label);
  }
  return box;
}

/** Roving tabindex over the blocks, arrow-key movement, and the hover/focus name line. */
function attachNavigation(svg: SVGSVGElement, grid: Grid, onInfo: (text: string) => void): void {
  const first = grid.rects.find((row) => row.length > 0)?.[0];
  if (first) first.setAttribute("tabindex", "0");
  const show = (e: Event) => {
    const target = e.target as Element;
    if (target instanceof SVGRectElement && target.dataset.r) onInfo(target.getAttribute("aria-label") ?? "");
  };
  svg.addEventListener("mouseover", show);
  svg.addEventListener("focusin", show);
  svg.addEventListener("keydown", (ev) => {
    const from = ev.target as SVGRectElement;
    if (!from.dataset?.r) return;
    const to = moveFocus(grid, from, ev.key);
    if (!to && !ev.key.startsWith("Arrow") && ev.key !== "Home" && ev.key !== "End") return;
    ev.preventDefault();
    if (!to || to === from) return;
    from.setAttribute("tabindex", "-1");
    to.setAttribute("tabindex", "0");
    to.focus();
  });
}

/** The timeline of one run, on a time scale of `scaleS` seconds (shared by both sides in compare mode). */
export function drawTimeline(r: ScheduleResult, scaleS: number, onInfo: (text: string) => void, testid: string): HTMLElement {
  const ops = r.ops ?? [];
  const rowH = rowHeight(r.ranks.length);
  const height = r.ranks.length * rowH;
  const root = document.createElementNS(svgNs, "svg");
  root.setAttribute("viewBox", `0 0 ${scaleS} ${height}`);
  root.setAttribute("preserveAspectRatio", "none"); // not-a-vocabulary-name: SVG's stretch keyword
  root.setAttribute("height", String(height));
  root.setAttribute("class", "tsl-pipe-svg");
  root.setAttribute("role", "group");
  root.setAttribute("tabindex", "-1"); // Chromium would put the svg itself in the Tab order; the blocks are the stops
  root.setAttribute("aria-label", t("pipe.timelineLabel", { schedule: r.schedule, ranks: r.ranks.length, makespan: fmtS(r.makespan_s) }));
  root.dataset.testid = testid;
  // Past this run's makespan nothing is idle: cover the hatch so only real bubbles show it.
  if (scaleS > r.makespan_s) root.append(rect(r.makespan_s, 0, scaleS - r.makespan_s, height, "#fbf8f1"));
  const grid: Grid = { rows: r.ranks.map(() => []), rects: r.ranks.map(() => []) };
  for (const op of ops) {
    const row = grid.rows[op.rank];
    const block = rect(op.start_s, op.rank * rowH + 1, op.end_s - op.start_s, rowH - 2, opColors[op.kind]);
    block.setAttribute("class", `tsl-pipe-block tsl-op-${op.kind}`);
    block.setAttribute("tabindex", "-1");
    block.setAttribute("role", "img");
    block.setAttribute("aria-label", opName(op));
    block.dataset.r = String(op.rank);
    block.dataset.i = String(row.length);
    block.dataset.kind = op.kind;
    row.push(op);
    grid.rects[op.rank].push(block);
    root.append(block);
  }
  attachNavigation(root, grid, onInfo);

  const wrap = document.createElement("div");
  wrap.className = "tsl-pipe-timeline";
  const plot = document.createElement("div");
  plot.className = "tsl-pipe-plot";
  const axis = document.createElement("div");
  axis.className = "tsl-pipe-axis";
  axis.setAttribute("aria-hidden", "true");
  axis.append(
    Object.assign(document.createElement("span"), { textContent: "0" }),
    Object.assign(document.createElement("span"), { textContent: `${t("pipe.axis")} ${fmtS(scaleS)}` }),
  );
  plot.append(root, axis);
  wrap.append(rankLabels(r, rowH), plot);
  return wrap;
}

/** The colour key: five op kinds and the hatched bubble. */
export function legend(): HTMLElement {
  const ul = document.createElement("ul");
  ul.className = "tsl-legend tsl-pipe-legend";
  for (const kind of ["F", "B", "I", "W", "FB"] as const) {
    const li = document.createElement("li");
    const sw = document.createElement("i");
    sw.style.background = opColors[kind];
    li.append(sw, t(`pipe.legend.${kind}`));
    ul.append(li);
  }
  const li = document.createElement("li");
  const sw = document.createElement("i");
  sw.className = "tsl-pipe-bubble-swatch";
  li.append(sw, t("pipe.legend.bubble"));
  ul.append(li);
  return ul;
}
