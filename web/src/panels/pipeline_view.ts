// Pipeline panel view: the trial box, then one card per schedule (read-outs + timeline), side by side in compare mode.
import { t, type MessageKey } from "../i18n";
import type { ScheduleResult } from "../types/pipeline";
import type { Vocabulary } from "../types/vocabulary";
import { scheduleLabel, scheduleRow } from "../vocabulary";
import { drawCap } from "../schedule_sim";
import { drawTimeline, fmtS, legend } from "./pipeline_timeline";
import { el } from "../dom";
import { createStatusLines, createTrialBox } from "./view_parts";

/** The busiest rank's peak activations (micro-batch-chunks alive, simulator's peak_inflight). */
export function peakActivations(r: ScheduleResult): number {
  return Math.max(...r.ranks.map((x) => x.peak_inflight));
}

function readout(labelKey: MessageKey, value: string, testid: string, raw: number): HTMLElement {
  const row = el("div", "tsl-pipe-readout");
  row.dataset.testid = testid;
  row.dataset.value = String(raw);
  row.append(el("dt", "", t(labelKey)), el("dd", "", value));
  return row;
}

function peaksLine(r: ScheduleResult): HTMLElement {
  const list =
    r.ranks.length <= 16
      ? r.ranks.map((x) => `r${x.rank} ${x.peak_inflight}`).join(" · ")
      : `r0 ${r.ranks[0].peak_inflight} · … · r${r.ranks.length - 1} ${r.ranks[r.ranks.length - 1].peak_inflight}`;
  return el("p", "tsl-pipe-peaks", `peak_inflight: ${list}`);
}

/** One schedule's card: name, numbers, timeline (or the cap note) and the hover/focus info line. */
function card(v: Vocabulary, r: ScheduleResult, side: "a" | "b", scaleS: number): HTMLElement {
  const box = el("article", "tsl-pipe-card");
  box.dataset.testid = `pipe-run-${side}`;
  box.dataset.schedule = r.schedule;
  const title = el("h4", "tsl-pipe-title", `${side.toUpperCase()} · ${scheduleLabel(v, r.schedule)}`);
  title.append(el("small", "", ` p ${r.ranks.length} · m ${r.microbatches}${r.vpp > 1 ? ` · v ${r.vpp}` : ""} · ${r.stages} stages`));
  const dl = el("dl", "tsl-pipe-readouts");
  dl.append(
    readout("pipe.bubble", `${(100 * r.bubble_fraction).toFixed(2)} %`, `pipe-bubble-${side}`, r.bubble_fraction),
    readout("pipe.makespan", `${fmtS(r.makespan_s)} s`, `pipe-makespan-${side}`, r.makespan_s),
    readout("pipe.copies", `${r.param_copies}×`, `pipe-copies-${side}`, r.param_copies),
    readout("pipe.peak", String(peakActivations(r)), `pipe-peak-${side}`, peakActivations(r)),
  );
  // Two stages per rank (V-shaped or both directions): the per-device stage parameters differ from one stage's.
  if ((scheduleRow(v, r.schedule)?.placement ?? "linear") !== "linear")
    dl.append(readout("pipe.stageParams", `${r.stage_params_per_device}×`, `pipe-stage-params-${side}`, r.stage_params_per_device));
  dl.append(readout("pipe.ops", r.op_count.toLocaleString("en-US"), `pipe-ops-${side}`, r.op_count));
  const info = el("p", "tsl-pipe-info", t("pipe.hint"));
  info.dataset.testid = `pipe-info-${side}`;
  box.append(title, dl, peaksLine(r));
  if (r.ops)
    box.append(
      drawTimeline(r, scaleS, (text) => (info.textContent = text), `pipe-timeline-${side}`),
      info,
    );
  else box.append(el("p", "tsl-pipe-capped", t("pipe.capped", { ops: r.op_count.toLocaleString("en-US"), cap: drawCap.toLocaleString("en-US") })));
  return box;
}

export interface TrialResult {
  a: ScheduleResult;
  b: ScheduleResult;
  pp: number;
}

function trialBox(v: Vocabulary, onTrial: () => void) {
  const result = el("div", "tsl-trial-result");
  return createTrialBox<TrialResult>({ testid: "pipe-trial", labelKey: "pipe.trial", hintKey: "pipe.trial.hint" }, onTrial, result, (trial) => {
    const value = (text: string, testid: string, raw: number) => {
      const s = el("strong", "", text);
      s.dataset.testid = testid;
      s.dataset.value = String(raw);
      return s;
    };
    const params = el("p");
    const [la, lb] = [scheduleLabel(v, trial.a.schedule), scheduleLabel(v, trial.b.schedule)];
    params.append(
      `${t("pipe.trial.params")}: ${la} `,
      value(`${trial.a.param_copies}×`, "pipe-trial-params-a", trial.a.param_copies),
      ` → ${lb} `,
      value(`${trial.b.param_copies}×`, "pipe-trial-params-b", trial.b.param_copies),
    );
    const pa = trial.a.ranks[0].peak_inflight;
    const pb = trial.b.ranks[0].peak_inflight;
    const act = el("p");
    act.append(
      `${t("pipe.trial.act")}: ${la} `,
      value(`${pa} = PP`, "pipe-trial-act-a", pa),
      ` → ${lb} `,
      value(`${pb} = PP+${pb - trial.pp}`, "pipe-trial-act-b", pb),
      ` (PP = ${trial.pp})`,
    );
    result.append(params, act, el("small", "", t("pipe.trial.readme")));
  });
}

export interface PipelineView {
  render(runs: ScheduleResult[]): void;
  relabel(): void;
  setStale(stale: boolean): void;
  setGeneralError(message: string | null): void;
  showTrial(trial: TrialResult | null): void;
  /** One stage (PP = 1): the timelines give way to "one stage: no pipeline". */
  setOneStage(on: boolean): void;
  /** A large run is simulating in the schedule Worker: say so and dim the last results. */
  setBusy(on: boolean): void;
}

export function createPipelineView(host: HTMLElement, v: Vocabulary, onTrial: () => void): PipelineView {
  const trial = trialBox(v, onTrial);
  const body = el("div", "tsl-pipe-body");
  const status = createStatusLines(body, "pipe.stale");
  const legendSlot = el("div");
  const runs = el("div", "tsl-pipe-runs");
  const oneStage = el("p", "tsl-pipe-one-stage");
  oneStage.dataset.testid = "pipe-one-stage";
  oneStage.setAttribute("role", "status");
  oneStage.hidden = true;
  const busy = el("p", "tsl-pipe-busy");
  busy.dataset.testid = "pipe-busy";
  busy.setAttribute("role", "status");
  busy.hidden = true;
  body.append(legendSlot, runs);
  host.append(trial.element, ...status.elements, oneStage, busy, body);

  let last: ScheduleResult[] = [];
  let lastTrial: TrialResult | null = null;
  const view: PipelineView = {
    render(results) {
      last = results;
      const scale = Math.max(...results.map((r) => r.makespan_s), 1e-12);
      runs.classList.toggle("tsl-pipe-compare", results.length > 1);
      runs.replaceChildren(...results.map((r, i) => card(v, r, i === 0 ? "a" : "b", scale)));
      legendSlot.replaceChildren(legend());
    },
    relabel() {
      status.relabel();
      oneStage.textContent = t("pipe.oneStage");
      busy.textContent = t("pipe.busy");
      trial.draw(lastTrial);
      if (last.length) view.render(last);
    },
    setStale: status.setStale,
    setGeneralError: status.setGeneralError,
    setBusy(on) {
      busy.hidden = !on;
      body.classList.toggle("tsl-pipe-pending", on);
    },
    setOneStage(on) {
      oneStage.hidden = !on;
      body.hidden = on;
    },
    showTrial(next) {
      if (next === lastTrial) return;
      lastTrial = next;
      trial.draw(next);
    },
  };
  view.relabel();
  return view;
}
