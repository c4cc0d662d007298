// Pipeline panel (ledger L4): schedule controls → SPEC → wasm schedule() → read-outs and timelines, compare mode, trial.
import { ScenarioError, type TslabClient } from "../client";
import { controlForPath, createForm, numberOrText, type ControlForm, type ControlSpec } from "../controls";
import { onLangChange, t } from "../i18n";
import { scheduleNames, type ScheduleResult, type ScheduleSpec } from "../types/pipeline";
import { microbatchesOf, subscribe } from "../state";
import type { Panel } from "./panel";
import { drawCap } from "./pipeline_timeline";
import { createPipelineView } from "./pipeline_view";
import "./pipeline.css";

type Side = "a" | "b";
type Values = Record<string, string | number | boolean>;

/** SPEC error paths (schedule_io.cpp) → the control that caused them; run B's schedule has its own select. */
const errorTargets = (side: Side) => [
  ["schedule", side === "a" ? "pipe_schedule" : "pipe_schedule_b"], ["ranks", "pipe_ranks"], ["microbatches", "pipe_m"],
  ["vpp", "pipe_v"], ["extra_warmup", "pipe_v"], ["costs", "pipe_f"], ["costs.F", "pipe_f"], ["costs.B", "pipe_b"],
  ["costs.W", "pipe_w"], ["costs.FB", "pipe_fb"], ["p2p_s", "pipe_p2p"],
] as const;

/** A small 1F1B pipeline whose bubble (p − 1)(F + B) is easy to see. */
const defaults: Values = {
  pipe_schedule: "1f1b", pipe_ranks: "4", pipe_m: "8", pipe_v: "2", pipe_compare: false, pipe_schedule_b: "dualpipe",
  pipe_f: "1", pipe_b: "2", pipe_w: "1", pipe_fb: "", pipe_p2p: "0",
};

/** The seed's trial: 1F1B vs DualPipe on PP 8 (DualPipe README table: 1× vs 2× params, PP vs PP+1 activations). */
const trialPP = 8;
const trial: Values = { ...defaults, pipe_compare: true, pipe_ranks: String(trialPP), pipe_m: "16" };

function specs(): ControlSpec[][] {
  const names = scheduleNames.map((value) => ({ value }));
  const cost = (key: string, labelKey: Parameters<typeof t>[0], placeholder?: string): ControlSpec =>
    ({ kind: "number", key, labelKey, min: 0, max: 1e6, placeholder });
  return [
    [
      { kind: "select", key: "pipe_schedule", labelKey: "pipe.schedule", choices: names },
      { kind: "number", key: "pipe_ranks", labelKey: "pipe.ranks", min: 1, max: 65536 },
      { kind: "number", key: "pipe_m", labelKey: "pipe.microbatches", min: 1, max: 1e9 },
      { kind: "number", key: "pipe_v", labelKey: "pipe.vpp", min: 1, max: 255 },
      { kind: "check", key: "pipe_compare", labelKey: "pipe.compare" },
      { kind: "select", key: "pipe_schedule_b", labelKey: "pipe.schedule_b", choices: names },
    ],
    [cost("pipe_f", "pipe.cost_f"), cost("pipe_b", "pipe.cost_b"), cost("pipe_w", "pipe.cost_w"),
      cost("pipe_fb", "pipe.cost_fb", "F + B"), cost("pipe_p2p", "pipe.p2p")],
  ];
}

function buildSpec(v: (key: string) => string | number | boolean, side: Side, timeline: boolean): ScheduleSpec {
  const schedule = String(v(side === "a" ? "pipe_schedule" : "pipe_schedule_b"));
  const costs: NonNullable<ScheduleSpec["costs"]> = {
    F: numberOrText(v("pipe_f")) as number, B: numberOrText(v("pipe_b")) as number, W: numberOrText(v("pipe_w")) as number,
  };
  if (String(v("pipe_fb")).trim() !== "") costs.FB = numberOrText(v("pipe_fb")) as number;
  const spec: ScheduleSpec = {
    schedule, ranks: numberOrText(v("pipe_ranks")) as number, microbatches: numberOrText(v("pipe_m")) as number,
    costs, p2p_s: numberOrText(v("pipe_p2p")) as number, timeline,
  };
  // v only means something for interleaved; the other schedules reject vpp > 1.
  if (schedule === "interleaved") spec.vpp = numberOrText(v("pipe_v")) as number;
  return spec;
}

function buildForm(): ControlForm {
  const groups = specs();
  const f = createForm("pipe.controls", ["pipe.group.schedule", "pipe.group.costs"], groups);
  f.element.className = "tsl-pipe-form";
  // costs and delays are real numbers
  for (const spec of groups[1]) (f.controls.get(spec.key)!.input as HTMLInputElement).step = "any";
  return f;
}

function mount(host: HTMLElement, { client }: { client: TslabClient }): void {
  const { element: form, controls, relabel } = buildForm();
  const results = document.createElement("div");
  results.className = "tsl-pipe-results";
  host.classList.add("tsl-pipe");
  host.append(form, results);
  const view = createPipelineView(results, () => runTrial());
  const read = (key: string) => controls.get(key)!.read();
  const writeAll = (values: Values) => {
    for (const [k, val] of Object.entries(values)) controls.get(k)?.write(val);
  };

  let lastErrors: { side: Side; err: ScenarioError }[] = [];
  const showErrors = (errs: { side: Side; err: ScenarioError }[]) => {
    for (const c of controls.values()) c.setError(null);
    view.setGeneralError(null);
    lastErrors = errs;
    const messages = new Map<string, string[]>();
    for (const { side, err } of errs) {
      const target = controlForPath(err.path, errorTargets(side)) ?? "";
      const text = errs.length > 1 ? `${side.toUpperCase()}: ${err.message}` : err.message;
      messages.set(target, [...(messages.get(target) ?? []), text]);
    }
    for (const [target, list] of messages) {
      if (controls.has(target)) controls.get(target)!.setError(list.join("\n"));
      else view.setGeneralError(list.join("\n"));
    }
  };
  // The numbers come from the full simulation; the ops for drawing only when the schedule is under the cap.
  const simulate = (side: Side): ScheduleResult => {
    const summary = client.schedule(buildSpec(read, side, false));
    return summary.op_count <= drawCap ? client.schedule(buildSpec(read, side, true)) : summary;
  };
  const compute = (): ScheduleResult[] | null => {
    const compare = Boolean(read("pipe_compare"));
    controls.get("pipe_schedule_b")!.field.hidden = !compare;
    const sides: Side[] = compare ? ["a", "b"] : ["a"];
    const out: ScheduleResult[] = [];
    const errs: { side: Side; err: ScenarioError }[] = [];
    for (const side of sides) {
      try {
        out.push(simulate(side));
      } catch (e) {
        if (!(e instanceof ScenarioError)) throw e;
        errs.push({ side, err: e });
      }
    }
    showErrors(errs);
    view.setStale(errs.length > 0); // the last good timelines stay, dimmed: the panel never goes blank
    if (errs.length) return null;
    view.render(out);
    return out;
  };
  let frame = 0;
  const onInput = () => {
    view.showTrial(null);
    if (!frame) frame = requestAnimationFrame(() => ((frame = 0), compute()));
  };
  form.addEventListener("input", onInput);
  form.addEventListener("change", onInput);

  function runTrial(): void {
    if (frame) cancelAnimationFrame(frame), (frame = 0);
    writeAll({ ...trial, pipe_schedule: "1f1b", pipe_schedule_b: "dualpipe" });
    const runs = compute();
    if (runs && runs.length === 2) view.showTrial({ a: runs[0], b: runs[1], pp: trialPP });
  }

  // A plan applied from the planner sets the stage count, chunks and schedule (when this panel draws that schedule).
  subscribe((c) => {
    const { parallel: p, schedule: sched } = c;
    const known = [...(controls.get("pipe_schedule")!.input as HTMLSelectElement).options].some((o) => o.value === sched);
    // The plan's own micro-batch count, global_batch / (micro_batch · dp): what the planner simulated.
    const m = Math.max(1, microbatchesOf(c));
    writeAll({ pipe_ranks: String(p.pp), pipe_m: String(m), ...(p.vpp > 1 ? { pipe_v: String(p.vpp) } : {}), ...(known ? { pipe_schedule: sched } : {}) });
    compute();
  });
  onLangChange(() => {
    relabel();
    view.relabel();
    showErrors(lastErrors);
  });
  writeAll(defaults);
  compute();
}

export const pipelinePanel: Panel = { id: "pipeline", titleKey: "panel.pipeline", mount };
