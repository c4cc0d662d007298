// L9 panel view: the two trials, checkpoint figures, the failure-loss curve against GPU count (SVG), and the RL iteration's phase bar.
import { el, svg } from "../dom";
import { binaryBytes, compactCount, duration } from "../format";
import { t, type MessageKey } from "../i18n";
import type { RlResult } from "../types/rl";
import { createStatusLines } from "./view_parts";

export type RelTrial = "failures" | "rollout";

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** One labelled figure; data-value carries the core's number for tests. */
function metric(key: MessageKey, text: string, id: string, value: number, vars: Record<string, string | number> = {}): HTMLElement {
  const d = el("div", "tsl-rel-metric");
  const v = el("strong", "", text);
  v.dataset.testid = id;
  v.dataset.value = String(value);
  d.append(el("span", "", t(key, vars)), v);
  return d;
}

/** Failure loss (solid) over log2 GPU count, the plan's bubble share (dashed), the chosen count marked. */
function curve(r: RlResult, chosen: number): SVGSVGElement {
  const W = 360,
    H = 170,
    L = 44,
    R = 10,
    T = 12,
    B = 30;
  const pts = r.reliability.curve;
  const bubble = r.reliability.step_bubble_share;
  const top = Math.max(bubble, ...pts.map((p) => p.failure_loss)) * 1.1 || 1;
  const lo = Math.log2(pts[0].gpus),
    hi = Math.log2(pts[pts.length - 1].gpus);
  const x = (g: number) => L + ((Math.log2(g) - lo) / (hi - lo || 1)) * (W - L - R);
  const y = (v: number) => T + (1 - v / top) * (H - T - B);
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "tsl-rel-curve", role: "img", "aria-label": t("rel.curve") });
  s.dataset.testid = "rel-curve";
  s.append(svg("line", { x1: L, y1: y(0), x2: W - R, y2: y(0), class: "tsl-rel-axis" }));
  s.append(svg("line", { x1: L, y1: y(bubble), x2: W - R, y2: y(bubble), class: "tsl-rel-bubble" }));
  s.append(svg("polyline", { points: pts.map((p) => `${x(p.gpus)},${y(p.failure_loss)}`).join(" "), class: "tsl-rel-line" }));
  for (const p of pts) {
    const c = svg("circle", {
      cx: x(p.gpus),
      cy: y(p.failure_loss),
      r: p.gpus === chosen ? 5 : 2.5,
      class: p.gpus === chosen ? "tsl-rel-pick" : "tsl-rel-dot",
    });
    c.append(svg("title", {}));
    c.lastChild!.textContent = `${p.gpus} GPUs: ${pct(p.failure_loss)}`;
    s.append(c);
    // Every other power of two is labelled, and the chosen count; a label next to the chosen one would run into it (12 px text).
    const nextToChosen = Math.abs(Math.log2(p.gpus) - Math.log2(chosen)) === 1;
    if (((Math.log2(p.gpus) - lo) % 2 === 0 && !nextToChosen) || p.gpus === chosen) {
      // The ends are anchored inside the drawing so their labels are not cut at its edge.
      const anchor = p === pts[0] ? "start" : p === pts[pts.length - 1] ? "end" : "middle";
      const label = svg("text", { x: x(p.gpus), y: H - 16, class: "tsl-rel-tick", style: `text-anchor: ${anchor}` });
      label.textContent = compactCount(p.gpus);
      s.append(label);
    }
  }
  for (const v of [0, top / 2]) {
    const label = svg("text", { x: L - 4, y: y(v) + 3, class: "tsl-rel-ytick" });
    label.textContent = pct(v);
    s.append(label);
  }
  const xl = svg("text", { x: W - R, y: H - 1, class: "tsl-rel-xlabel" });
  xl.textContent = t("rel.curve.x");
  s.append(xl);
  return s;
}

function phaseBar(r: RlResult): HTMLElement {
  const wrap = el("div", "tsl-rel-barwrap");
  const bar = el("div", "tsl-rel-bar");
  bar.dataset.testid = "rel-phases";
  const legend = el("ul", "tsl-rel-legend");
  for (const p of r.iteration.phases) {
    const seg = el("div", `tsl-rel-seg tsl-rel-seg-${p.id}`);
    seg.style.flexGrow = String(p.share);
    seg.dataset.phase = p.id;
    seg.dataset.seconds = String(p.time_s);
    seg.dataset.share = String(p.share);
    seg.title = `${t(`rel.phase.${p.id}` as MessageKey)}: ${duration(p.time_s)} (${pct(p.share)})`;
    bar.append(seg);
    const li = el("li", "", `${t(`rel.phase.${p.id}` as MessageKey)} ${duration(p.time_s)} · ${pct(p.share)}`);
    li.prepend(el("i", `tsl-rel-seg-${p.id}`));
    legend.append(li);
  }
  wrap.append(bar, legend);
  return wrap;
}

function checkpointBox(r: RlResult, chosen: number): HTMLElement {
  const c = r.reliability;
  const at = c.curve.find((p) => p.gpus === chosen) ?? c.curve[0];
  const box = el("section", "tsl-rel-box");
  box.append(el("h3", "", t("rel.ckpt.title")));
  const grid = el("div", "tsl-rel-metrics");
  grid.append(
    metric("rel.ckpt.size", binaryBytes(c.checkpoint_bytes), "rel-ckpt-bytes", c.checkpoint_bytes),
    metric("rel.ckpt.write", duration(c.write_s), "rel-write", c.write_s),
    metric("rel.ckpt.snapshot", duration(c.snapshot_s), "rel-snapshot", c.snapshot_s),
    metric("rel.ckpt.blocking", duration(c.blocking_s), "rel-blocking", c.blocking_s),
    metric("rel.ckpt.young", duration(c.young_s), "rel-young", c.young_s),
    metric("rel.ckpt.daly", duration(c.daly_s), "rel-daly", c.daly_s),
    metric("rel.ckpt.restart", duration(c.restart_s), "rel-restart", c.restart_s),
    metric("rel.bubble", pct(c.step_bubble_share), "rel-bubble", c.step_bubble_share, { gpus: r.gpus.toLocaleString("en-US") }),
  );
  const atGrid = el("div", "tsl-rel-metrics tsl-rel-at");
  atGrid.append(
    metric("rel.mtbf", duration(at.mtbf_s), "rel-mtbf", at.mtbf_s),
    metric("rel.intervalUsed", duration(at.interval_s), "rel-interval", at.interval_s),
    metric("rel.goodput", pct(at.goodput), "rel-goodput", at.goodput),
    metric("rel.loss", pct(at.failure_loss), "rel-loss", at.failure_loss),
  );
  const fig = el("figure", "tsl-rel-fig");
  fig.append(curve(r, at.gpus), el("figcaption", "", t("rel.curve")));
  box.append(grid, el("h3", "", t("rel.at", { gpus: at.gpus.toLocaleString("en-US") })), atGrid, fig);
  return box;
}

function rlBox(r: RlResult): HTMLElement {
  const it = r.iteration;
  const box = el("section", "tsl-rel-box");
  box.append(el("h3", "", t("rel.rl.title")), phaseBar(r));
  const grid = el("div", "tsl-rel-metrics");
  grid.append(
    metric("rel.iteration", duration(it.iteration_s), "rel-iteration", it.iteration_s),
    metric("rel.idle", `${duration(it.idle_s)} · ${pct(it.idle_share)}`, "rel-idle", it.idle_share),
    metric("rel.kvToken", binaryBytes(it.kv_bytes_per_token), "rel-kv-token", it.kv_bytes_per_token),
    metric(
      "rel.kvPeak",
      `${binaryBytes(it.kv_peak_bytes_per_gpu)} · ${t(it.fits ? "rel.fits" : "rel.oom")}`,
      "rel-kv-peak",
      it.kv_peak_bytes_per_gpu,
    ),
    metric("rel.weights", binaryBytes(it.weight_bytes_per_gpu), "rel-weights", it.weight_bytes_per_gpu),
    metric("rel.hbm", binaryBytes(it.hbm_bytes), "rel-hbm", it.hbm_bytes),
    metric("rel.longest", `${compactCount(Math.round(it.response_max_tokens))} tokens`, "rel-longest", it.response_max_tokens),
    metric("rel.mean", `${compactCount(Math.round(it.response_mean_tokens))} tokens`, "rel-mean", it.response_mean_tokens),
    metric("rel.memBound", pct(it.decode_memory_bound_share), "rel-membound", it.decode_memory_bound_share),
    metric("rel.replicas", `${it.replicas} × ${it.trajectories_per_replica}`, "rel-replicas", it.replicas),
  );
  box.append(grid);
  return box;
}

function formulaList(r: RlResult): HTMLElement {
  const d = el("details", "tsl-rel-formulas");
  d.append(el("summary", "", t("rel.formulas")));
  const ul = el("ul");
  for (const [k, v] of Object.entries(r.formulas)) ul.append(el("li", "", `${k}: ${v}`));
  d.append(ul);
  return d;
}

function lesson(which: RelTrial, r: RlResult, chosen: number): string {
  if (which === "failures") {
    const at = r.reliability.curve.find((p) => p.gpus === chosen) ?? r.reliability.curve[0];
    return t("rel.trial.failures.lesson", {
      gpus: at.gpus.toLocaleString("en-US"),
      loss: pct(at.failure_loss),
      bubble: pct(r.reliability.step_bubble_share),
    });
  }
  const share = (id: string) => pct(r.iteration.phases.find((p) => p.id === id)!.share);
  return t("rel.trial.rollout.lesson", { rollout: share("rollout"), train: share("train"), idle: pct(r.iteration.tail_idle_fraction) });
}

export function createReliabilityView(host: HTMLElement, onTrial: (which: RelTrial) => void) {
  const body = el("div", "tsl-rel-body");
  const status = createStatusLines(body, "rel.stale");
  const trials = el("div", "tsl-trial tsl-rel-trials");
  const kinds: RelTrial[] = ["failures", "rollout"];
  const buttons = kinds.map((k) => {
    const b = el("button", "tsl-trial-button");
    b.type = "button";
    b.dataset.testid = `rel-trial-${k}`;
    b.addEventListener("click", () => onTrial(k));
    return b;
  });
  const hints = kinds.map(() => el("small", "tsl-trial-hint"));
  const result = el("p", "tsl-trial-result");
  result.dataset.testid = "rel-lesson";
  result.setAttribute("aria-live", "polite");
  result.hidden = true;
  kinds.forEach((_, i) => trials.append(buttons[i], hints[i]));
  trials.append(result);
  host.append(...status.elements, trials, body);
  let last: [RlResult, number] | null = null;
  let trial: RelTrial | null = null;
  const drawTrial = () => {
    result.hidden = trial === null || last === null;
    result.dataset.trial = trial ?? "";
    result.textContent = trial && last ? lesson(trial, last[0], last[1]) : "";
  };
  const relabel = () => {
    kinds.forEach((k, i) => {
      buttons[i].textContent = t(`rel.trial.${k}` as MessageKey);
      hints[i].textContent = t(`rel.trial.${k}.hint` as MessageKey);
    });
    status.relabel();
    if (last) render(...last);
    drawTrial();
  };
  function render(r: RlResult, chosen: number): void {
    last = [r, chosen];
    body.replaceChildren(checkpointBox(r, chosen), rlBox(r), formulaList(r));
  }
  relabel();
  return {
    render,
    relabel,
    setStale: status.setStale,
    setGeneralError: status.setGeneralError,
    showTrial(which: RelTrial, r: RlResult, chosen: number) {
      trial = which;
      render(r, chosen);
      drawTrial();
    },
    clearTrial() {
      trial = null;
      drawTrial();
    },
  };
}
