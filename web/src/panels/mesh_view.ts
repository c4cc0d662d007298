// Device mesh view: nodes and GPUs in SVG coloured by group, roving keyboard focus, warnings, groups, TP time.
import { say } from "../core_messages";
import { duration } from "../format";
import { t, type MessageKey } from "../i18n";
import type { LinkClass, MeshAxis, MeshGroup, MeshResult } from "../types/mesh";
import { el, svg, scrollFrame } from "../dom";
import { createStatusLines, createTrialBox } from "./view_parts";

/** At most this many GPUs are drawn; the tables still count every group. */
const maxDrawnGpus = 256;
const maxDrawnNodes = 16;
const groupsListed = 16;
const cell = 30;
const gap = 4;
/** Page palette first (ink, rust, greens, sand), then further hues so neighbouring groups differ. */
const palette = ["#263b37", "#a45d36", "#8aa79f", "#e2b98f", "#4f7269", "#d08352", "#3e6f8e", "#c79a3c", "#6b4f7a", "#b5523b", "#2f8f83", "#7d8c3c"];

export interface TpTime {
  order: string;
  step_s: number;
  call_s: number;
  count: number;
  link: LinkClass;
}

export interface MeshView {
  render(m: MeshResult, axis: MeshAxis): void;
  setTp(tp: { current: TpTime; recommended: TpTime } | null, error?: string): void;
  relabel(): void;
  setStale(stale: boolean): void;
  setGeneralError(message: string | null): void;
}

/** White text on dark fills, ink on light ones (WCAG relative luminance, threshold near 0.4). */
function textOn(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.55 ? "#1f2a28" : "#fff";
}

export const colorOf = (group: number) => palette[group % palette.length];

interface Member {
  group: number;
  link: LinkClass;
}

function membership(m: MeshResult, axis: MeshAxis): Map<number, Member> {
  const out = new Map<number, Member>();
  m.groups.filter((g) => g.axis === axis).forEach((g, i) => g.ranks.forEach((r) => out.set(r, { group: i, link: g.link })));
  return out;
}

function gpuLabel(node: number, gpu: number, rank: number, axis: MeshAxis, who: Member | undefined, idle: boolean): string {
  if (idle) return t("mesh.gpu.idle", { node, gpu });
  if (!who) return t("mesh.gpu.unlisted", { node, gpu, rank, axis });
  return t("mesh.gpu", { node, gpu, rank, axis, group: who.group, link: t(`mesh.link.${who.link}` as MessageKey) });
}

function gpuCell(x: number, y: number, rank: number, who: Member | undefined, idle: boolean, label: string): SVGGElement {
  const noLink = "none"; // not-a-vocabulary-name: the CSS class of a GPU without a link class
  const g = svg("g", { class: `tsl-gpu tsl-link-${idle ? "idle" : (who?.link ?? noLink)}`, tabindex: -1, role: "img", "aria-label": label });
  g.dataset.rank = String(rank);
  if (who) g.dataset.group = String(who.group);
  const fill = idle || !who ? "#ece5d7" : colorOf(who.group);
  // The link class is a ring around the fill, so it reads the same on every group colour.
  g.append(
    svg("rect", { class: "tsl-gpu-link", x: x + 1, y: y + 1, width: cell - 2, height: cell - 2, rx: 4 }),
    svg("rect", { class: "tsl-gpu-box", x: x + 3.5, y: y + 3.5, width: cell - 7, height: cell - 7, rx: 2, fill }),
    svg("rect", { class: "tsl-gpu-ring", x: x - 1.5, y: y - 1.5, width: cell + 3, height: cell + 3, rx: 5 }),
  );
  const text = svg("text", { x: x + cell / 2, y: y + cell / 2 + 4, "text-anchor": "middle", fill: idle || !who ? "#6d6656" : textOn(fill) });
  text.textContent = idle ? "·" : String(rank);
  g.append(text);
  return g;
}

interface Grid {
  element: HTMLElement;
  cells: SVGGElement[];
  cols: number;
}

function drawNodes(m: MeshResult, axis: MeshAxis): Grid {
  const who = membership(m, axis);
  const gpn = m.gpus_per_node;
  const perNode = Math.min(gpn, maxDrawnGpus);
  const shownNodes = Math.max(1, Math.min(m.nodes, maxDrawnNodes, Math.floor(maxDrawnGpus / perNode)));
  const cols = gpn <= 16 ? Math.min(gpn, 4) : 8;
  const rows = Math.ceil(perNode / cols);
  const grid = el("div", "tsl-mesh-nodes");
  const cells: SVGGElement[] = [];
  for (let n = 0; n < shownNodes; n++) {
    const card = el("div", "tsl-node");
    card.append(el("span", "tsl-node-name", `node ${n}`));
    const w = cols * (cell + gap) + gap;
    const h = rows * (cell + gap) + gap;
    const pic = svg("svg", { viewBox: `0 0 ${w} ${h}`, width: w, height: h, class: "tsl-node-svg" });
    for (let i = 0; i < perNode; i++) {
      const rank = n * gpn + i;
      const idle = rank >= m.world;
      const c = gpuCell(
        gap + (i % cols) * (cell + gap),
        gap + Math.floor(i / cols) * (cell + gap),
        rank,
        who.get(rank),
        idle,
        gpuLabel(n, i, rank, axis, who.get(rank), idle),
      );
      pic.append(c);
      cells.push(c);
    }
    card.append(pic);
    grid.append(card);
  }
  return { element: grid, cells, cols };
}

function legend(m: MeshResult, axis: MeshAxis): HTMLElement {
  const list = el("ul", "tsl-legend tsl-mesh-legend");
  const count = m.groups.filter((g) => g.axis === axis).length;
  for (let i = 0; i < Math.min(count, palette.length); i++) {
    const li = el("li", "", `${axis} group ${i}${count > palette.length && i === palette.length - 1 ? " …" : ""}`);
    const sw = el("i");
    sw.style.background = colorOf(i);
    li.prepend(sw);
    list.append(li);
  }
  for (const link of ["intra", "inter", "mixed", "idle"] as const) {
    const li = el("li", `tsl-key-${link}`, link === "idle" ? t("mesh.idle") : t(`mesh.link.${link}`));
    li.prepend(el("b", "tsl-border-key"));
    list.append(li);
  }
  return list;
}

function warnings(m: MeshResult): HTMLElement {
  const box = el("div", `tsl-mesh-warn${m.warnings.length ? " tsl-has-warn" : ""}`);
  box.dataset.testid = "mesh-warnings";
  box.append(el("h4", "", t("mesh.warnings")));
  if (!m.warnings.length) box.append(el("p", "", t("mesh.noWarnings")));
  const ul = el("ul");
  m.warnings.forEach((w, i) => ul.append(el("li", "", say(m.warnings_msg?.[i], w))));
  if (m.warnings.length) box.append(ul);
  return box;
}

function table(captionKey: string, heads: string[], rows: (string | Node)[][]): HTMLElement {
  const wrap = scrollFrame(el("div", "tsl-tablewrap"), captionKey);
  const tb = el("table", "tsl-l5-table");
  tb.createCaption().textContent = captionKey;
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
      const td = el(i === 0 ? "th" : "td");
      if (i === 0) (td as HTMLTableCellElement).scope = "row";
      td.append(v);
      tr.append(td);
    });
  }
  wrap.append(tb);
  return wrap;
}

function axesTable(m: MeshResult): HTMLElement {
  const rows = m.axes.map((a) => [a.axis, String(a.size), String(a.groups), `${a.intra} / ${a.inter} / ${a.mixed}`, String(a.max_nodes), a.link]);
  const tb = table(
    t("mesh.axes"),
    [t("mesh.col.axis"), t("mesh.col.size"), t("mesh.col.groups"), t("mesh.col.classes"), t("mesh.col.spans"), t("mesh.col.link")],
    rows,
  );
  tb.dataset.testid = "mesh-axes";
  tb.querySelectorAll("tbody tr").forEach((tr, i) => ((tr as HTMLElement).dataset.axis = m.axes[i].axis));
  return tb;
}

function groupTable(m: MeshResult, axis: MeshAxis): HTMLElement {
  const all = m.groups.filter((g) => g.axis === axis);
  const total = m.axes.find((a) => a.axis === axis)?.groups ?? all.length;
  const show = (g: MeshGroup) => (g.ranks.length > 16 ? `${g.ranks.slice(0, 16).join(", ")}, … (${g.ranks.length})` : g.ranks.join(", "));
  const rows = all.slice(0, groupsListed).map((g, i) => {
    const name = el("span", "", `${axis} group ${i}`);
    const sw = el("i", "tsl-swatch");
    sw.style.background = colorOf(i);
    name.prepend(sw);
    return [name, show(g), g.link, String(g.nodes)];
  });
  const tb = table(
    t("mesh.groupList", { axis, n: Math.min(all.length, groupsListed), total }),
    [t("mesh.col.group"), t("mesh.col.ranks"), t("mesh.col.link"), t("mesh.col.nodes")],
    rows,
  );
  tb.dataset.testid = "mesh-groups";
  return tb;
}

/** Roving tabindex over the drawn GPUs (WAI-ARIA grid pattern, simplified): one tab stop, arrows move. */
function rove(grid: Grid, start: number, onShow: (label: string) => void): () => number {
  let active = Math.min(start, grid.cells.length - 1);
  grid.cells.forEach((c, i) => c.setAttribute("tabindex", i === active ? "0" : "-1"));
  const move = (j: number) => {
    grid.cells[active].setAttribute("tabindex", "-1");
    active = j;
    grid.cells[j].setAttribute("tabindex", "0");
    grid.cells[j].focus();
  };
  grid.element.addEventListener("keydown", (ev) => {
    const i = grid.cells.indexOf(ev.target as SVGGElement);
    if (i < 0) return;
    const n = grid.cells.length;
    const step: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: grid.cols, ArrowUp: -grid.cols };
    let j = ev.key in step ? i + step[ev.key] : ev.key === "Home" ? 0 : ev.key === "End" ? n - 1 : -1;
    if (j === -1 && !(ev.key in step)) return;
    ev.preventDefault();
    j = Math.max(0, Math.min(n - 1, j));
    if (j !== i) move(j);
  });
  const show = (ev: Event) => {
    const c = (ev.target as Element).closest?.(".tsl-gpu");
    if (c) onShow(c.getAttribute("aria-label") ?? "");
  };
  grid.element.addEventListener("focusin", show);
  grid.element.addEventListener("mouseover", show);
  return () => active;
}

function tpCell(key: "mesh.tp.recommended" | "mesh.tp.current", tp: TpTime, testid: string): HTMLElement {
  const box = el("div", `tsl-tp-cell tsl-tp-${tp.link}`);
  box.dataset.testid = testid;
  box.dataset.seconds = String(tp.step_s);
  const value = el("strong", "", duration(tp.step_s));
  box.append(
    el("span", "tsl-tp-name", t(key, { order: tp.order })),
    value,
    el("small", "", t("mesh.tp.perCall", { time: duration(tp.call_s), link: tp.link, count: tp.count })),
  );
  return box;
}

type TpPair = { current: TpTime; recommended: TpTime };

/** The trial button and the side-by-side TP times (recommended order vs the current one). */
function createMeshTrialBox(onTrial: () => void) {
  const tpBox = el("div", "tsl-tp");
  tpBox.dataset.testid = "tp-compare";
  // Always drawn (never null): the TP times, a note that there is no TP traffic, or the error.
  const spec = { testid: "mesh-trial", labelKey: "mesh.trial", hintKey: "mesh.trial.hint" } as const;
  const box = createTrialBox<{ tp: TpPair | null; tpError: string }>(spec, onTrial, tpBox, ({ tp, tpError }) => {
    tpBox.append(el("span", "tsl-tp-title", t("mesh.tp.title")));
    if (tpError) tpBox.append(el("p", "tsl-error", t("mesh.tp.error") + tpError));
    else if (tp && tp.recommended.count === 0) tpBox.append(el("p", "tsl-tp-none", t("mesh.tp.none")));
    else if (tp) {
      const ratio = tp.recommended.step_s > 0 ? tp.current.step_s / tp.recommended.step_s : 1;
      tpBox.append(
        tpCell("mesh.tp.recommended", tp.recommended, "tp-recommended"),
        tpCell("mesh.tp.current", tp.current, "tp-current"),
        el("p", `tsl-tp-ratio${ratio > 1.05 ? " tsl-worse" : ""}`, t("mesh.tp.ratio", { ratio: ratio.toFixed(2) })),
      );
    }
  });
  let state = { tp: null as TpPair | null, tpError: "" };
  const draw = () => box.draw(state);
  const set = (tp: TpPair | null, tpError = "") => ((state = { tp, tpError }), draw());
  return { element: box.element, draw, set };
}

/** The figure: caption, summary, the capped-drawing note, the GPU grid, the focus/hover readout and the legend. */
function figure(m: MeshResult, axis: MeshAxis, grid: Grid): { element: HTMLElement; info: HTMLElement } {
  const fig = el("figure", "tsl-mesh-fig");
  fig.dataset.testid = "mesh-figure";
  const info = el("p", "tsl-mesh-info", t("mesh.keys"));
  info.dataset.testid = "gpu-info";
  info.setAttribute("aria-live", "polite");
  grid.element.setAttribute("role", "group");
  grid.element.setAttribute("aria-label", `${t("mesh.figure", { axis })}. ${t("mesh.keys")}`);
  fig.append(
    el("figcaption", "", t("mesh.figure", { axis })),
    el("p", "tsl-mesh-summary", t("mesh.summary", { world: m.world, nodes: m.nodes, gpn: m.gpus_per_node, order: m.order })),
  );
  const perNode = Math.min(m.gpus_per_node, maxDrawnGpus);
  if (grid.cells.length < m.nodes * m.gpus_per_node)
    fig.append(
      el(
        "p",
        "tsl-mesh-capped",
        t("mesh.capped", {
          shown: Math.ceil(grid.cells.length / perNode),
          nodes: m.nodes,
          gpus: Math.min(grid.cells.length, m.world),
          world: m.world,
        }),
      ),
    );
  fig.append(grid.element, info, legend(m, axis));
  return { element: fig, info };
}

export function createMeshView(host: HTMLElement, onTrial: () => void): MeshView {
  const trialBox = createMeshTrialBox(onTrial);
  const body = el("div", "tsl-result-body");
  const status = createStatusLines(body, "mesh.stale");
  host.append(trialBox.element, ...status.elements, body);

  let last: { m: MeshResult; axis: MeshAxis } | null = null;
  let focusAt = () => 0;
  const view: MeshView = {
    render(m, axis) {
      const keep = last ? focusAt() : 0;
      last = { m, axis };
      const grid = drawNodes(m, axis);
      const fig = figure(m, axis, grid);
      body.replaceChildren(warnings(m), fig.element, groupTable(m, axis), axesTable(m));
      focusAt = rove(grid, keep, (label) => (fig.info.textContent = label));
    },
    setTp: (tp, error) => trialBox.set(tp, error),
    relabel() {
      status.relabel();
      trialBox.draw();
      if (last) view.render(last.m, last.axis);
    },
    setStale: status.setStale,
    setGeneralError: status.setGeneralError,
  };
  view.relabel();
  return view;
}
