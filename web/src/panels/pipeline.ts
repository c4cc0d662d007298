// Pipeline panel (ledger L4): schedule controls → SPEC → wasm schedule() (a Worker for large runs) → read-outs and timelines, compare mode, trial.
import { errorText, ScenarioError } from "../client";
import { controlForPath, createForm, numberOrText, type ControlForm, type ControlSpec } from "../controls";
import { onLangChange, t } from "../i18n";
import type { ScheduleResult, ScheduleSpec } from "../types/pipeline";
import type { Vocabulary } from "../types/vocabulary";
import { choicesOf, defaultOf, dualSchedule, scheduleRow, vocabularyOf } from "../vocabulary";
import { followScenario } from "./pipeline_follow";
import type { Panel, PanelContext } from "./panel";
import { createTraceButton } from "./pipeline_trace";
import { createPipelineView } from "./pipeline_view";
import { createScheduleRunner, type RunError } from "./pipeline_runner";
import "./pipeline.css";

type Side = "a" | "b";
type Values = Record<string, string | number | boolean>;

/** SPEC error paths (schedule_io.cpp) → the control that caused them; run B's schedule has its own select. */
const errorTargets = (side: Side) =>
  [
    ["schedule", side === "a" ? "pipe_schedule" : "pipe_schedule_b"],
    ["ranks", "pipe_ranks"],
    ["microbatches", "pipe_m"],
    ["vpp", "pipe_v"],
    ["extra_warmup", "pipe_v"],
    ["costs", "pipe_f"],
    ["costs.F", "pipe_f"],
    ["costs.B", "pipe_b"],
    ["costs.W", "pipe_w"],
    ["costs.FB", "pipe_fb"],
    ["p2p_s", "pipe_p2p"],
  ] as const;

/** A small pipeline of the core's default schedule (1F1B) whose bubble (p − 1)(F + B) is easy to see, B = the dual schedule (DualPipe). */
function defaultsOf(v: Vocabulary): Values {
  return {
    pipe_schedule: String(defaultOf(v, "training.schedule")),
    pipe_ranks: "4",
    pipe_m: "8",
    pipe_v: "2",
    pipe_compare: false,
    pipe_schedule_b: dualSchedule(v)?.name ?? v.schedules[0].name,
    pipe_f: "1",
    pipe_b: "2",
    pipe_w: "1",
    pipe_fb: "",
    pipe_p2p: "0",
  };
}

/** The seed's trial: default (1F1B) vs dual (DualPipe) on PP 8 (DualPipe README table: 1× vs 2× params, PP vs PP+1 activations). */
const trialPP = 8;
const trialOf = (v: Vocabulary): Values => ({ ...defaultsOf(v), pipe_compare: true, pipe_ranks: String(trialPP), pipe_m: "16" });

function specs(v: Vocabulary): ControlSpec[][] {
  const names = choicesOf(v.schedules);
  const cost = (key: string, labelKey: Parameters<typeof t>[0], placeholder?: string): ControlSpec => ({
    kind: "number",
    key,
    labelKey,
    min: 0,
    max: 1e6,
    placeholder,
  });
  return [
    [
      { kind: "select", key: "pipe_schedule", labelKey: "pipe.schedule", choices: names },
      { kind: "number", key: "pipe_ranks", labelKey: "pipe.ranks", min: 1, max: 65536 },
      { kind: "number", key: "pipe_m", labelKey: "pipe.microbatches", min: 1, max: 1e9 },
      { kind: "number", key: "pipe_v", labelKey: "pipe.vpp", min: 1, max: 255 },
      { kind: "check", key: "pipe_compare", labelKey: "pipe.compare" },
      { kind: "select", key: "pipe_schedule_b", labelKey: "pipe.schedule_b", choices: names },
    ],
    [
      cost("pipe_f", "pipe.cost_f"),
      cost("pipe_b", "pipe.cost_b"),
      cost("pipe_w", "pipe.cost_w"),
      cost("pipe_fb", "pipe.cost_fb", "F + B"),
      cost("pipe_p2p", "pipe.p2p"),
    ],
  ];
}

function buildSpec(vocab: Vocabulary, v: (key: string) => string | number | boolean, side: Side, timeline: boolean): ScheduleSpec {
  const schedule = String(v(side === "a" ? "pipe_schedule" : "pipe_schedule_b"));
  const costs: NonNullable<ScheduleSpec["costs"]> = {
    F: numberOrText(v("pipe_f")) as number,
    B: numberOrText(v("pipe_b")) as number,
    W: numberOrText(v("pipe_w")) as number,
  };
  if (String(v("pipe_fb")).trim() !== "") costs.FB = numberOrText(v("pipe_fb")) as number;
  const spec: ScheduleSpec = {
    schedule,
    ranks: numberOrText(v("pipe_ranks")) as number,
    microbatches: numberOrText(v("pipe_m")) as number,
    costs,
    p2p_s: numberOrText(v("pipe_p2p")) as number,
    timeline,
  };
  // v only means something for a schedule that reads parallel.vpp (interleaved); the others reject vpp > 1.
  if (scheduleRow(vocab, schedule)?.uses_vpp) spec.vpp = numberOrText(v("pipe_v")) as number;
  return spec;
}

function buildForm(v: Vocabulary): ControlForm {
  const groups = specs(v);
  const f = createForm("pipe.controls", ["pipe.group.schedule", "pipe.group.costs"], groups);
  f.element.className = "tsl-pipe-form";
  // costs and delays are real numbers
  for (const spec of groups[1]) (f.controls.get(spec.key)!.input as HTMLInputElement).step = "any";
  return f;
}

function mount(host: HTMLElement, { client, store }: PanelContext): void {
  const vocab = vocabularyOf(client);
  const { element: form, controls, relabel } = buildForm(vocab);
  const results = document.createElement("div");
  results.className = "tsl-pipe-results";
  host.classList.add("tsl-pipe");
  host.append(form, results);
  const view = createPipelineView(results, vocab, () => runTrial());
  const read = (key: string) => controls.get(key)!.read();
  const trace = createTraceButton(client, () => buildSpec(vocab, read, "a", true));
  form.append(trace.element);
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
      const text = errs.length > 1 ? `${side.toUpperCase()}: ${errorText(err)}` : errorText(err);
      messages.set(target, [...(messages.get(target) ?? []), text]);
    }
    for (const [target, list] of messages) {
      if (controls.has(target)) controls.get(target)!.setError(list.join("\n"));
      else view.setGeneralError(list.join("\n"));
    }
  };
  const runner = createScheduleRunner(client);
  const show = (sides: Side[], outcome: ScheduleResult[] | RunError[]): ScheduleResult[] | null => {
    view.setBusy(false);
    const errs = outcome.filter((r): r is RunError => "err" in r).map(({ index, err }) => ({ side: sides[index], err }));
    showErrors(errs);
    view.setStale(errs.length > 0); // the last good timelines stay, dimmed: the panel never goes blank
    if (errs.length) return null;
    const results = outcome as ScheduleResult[];
    view.render(results);
    return results;
  };
  /** Results now, or null: an error (shown), one stage, or a large run that the Worker answers later. */
  const compute = (): ScheduleResult[] | null => {
    const compare = Boolean(read("pipe_compare"));
    controls.get("pipe_schedule_b")!.field.hidden = !compare;
    // v and W are greyed out unless a schedule on screen reads them (the core's rows: uses_vpp, split_backward): 1F1B
    // ignores both. Greyed, not hidden, so a value the core refuses (W > B holds for every schedule) still shows its error.
    const rows = (compare ? ["pipe_schedule", "pipe_schedule_b"] : ["pipe_schedule"]).map((k) => scheduleRow(vocab, String(read(k))));
    controls.get("pipe_v")!.input.disabled = !rows.some((r) => r?.uses_vpp);
    controls.get("pipe_w")!.input.disabled = !rows.some((r) => r?.split_backward);
    // One stage has no pipeline to schedule: say so instead of simulating (or naming a schedule's rank rule).
    const oneStage = numberOrText(read("pipe_ranks")) === 1;
    view.setOneStage(oneStage);
    if (oneStage) return (runner.cancel(), view.setBusy(false), showErrors([]), view.setStale(false), null);
    const sides: Side[] = compare ? ["a", "b"] : ["a"];
    const outcome = runner.run(
      sides.map((side) => buildSpec(vocab, read, side, false)),
      (later) => show(sides, later),
    );
    if (outcome !== "background") return show(sides, outcome);
    view.setBusy(true); // the last timelines stay, dimmed, until the Worker answers
    return null;
  };
  let frame = 0;
  const onInput = () => {
    view.showTrial(null);
    if (!frame) frame = requestAnimationFrame(() => ((frame = 0), compute()));
  };
  form.addEventListener("input", onInput);
  form.addEventListener("change", onInput);

  function runTrial(): void {
    if (frame) (cancelAnimationFrame(frame), (frame = 0));
    writeAll(trialOf(vocab));
    const runs = compute();
    if (runs && runs.length === 2) view.showTrial({ a: runs[0], b: runs[1], pp: trialPP });
  }

  // The shared scenario sets the stage count, chunks, schedule and micro-batches; an applied plan also drops the trial and compare.
  store.subscribe(
    followScenario(client, vocab, store.scenario(), (values, applied) => {
      if (applied) view.showTrial(null);
      writeAll(applied ? { ...values, pipe_compare: false } : values);
      compute();
    }),
  );
  onLangChange(() => {
    relabel();
    trace.relabel();
    view.relabel();
    showErrors(lastErrors);
  });
  writeAll(defaultsOf(vocab));
  compute();
}

export const pipelinePanel: Panel = {
  id: "pipeline",
  titleKey: "panel.pipeline",
  mount,
  headline: [
    { value: '[data-testid="pipe-bubble-a"] dd', tag: "A", labelled: true },
    { value: '[data-testid="pipe-makespan-a"] dd', labelled: true },
    { value: '[data-testid="pipe-bubble-b"] dd', tag: "B", labelled: true },
    { value: '[data-testid="pipe-makespan-b"] dd', labelled: true },
    { value: '[data-testid="pipe-one-stage"]' },
  ],
};
