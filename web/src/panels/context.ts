// L7 panel: the shared scenario → client.context() (tslab/context@1) → the methods side by side and the causal balance; one trial.
import { ScenarioError, type TslabClient } from "../client";
import { createForm, showErrorAt, type ControlSpec } from "../controls";
import { onLangChange } from "../i18n";
import type { Scenario } from "../report";
import { bindScenarioControls, errorTargetsOf, scenarioFields, type ScenarioField } from "../scenario_fields";
import { startingScenario, valueAt } from "../state";
import type { ContextResult } from "../types/context";
import { choicesOf, defaultOf, vocabularyOf } from "../vocabulary";
import type { Panel, PanelContext } from "./panel";
import { createContextView } from "./context_view";
import { trialEdits } from "./trial_plans";
import "./context.css";

const groups = [
  ["model", "ctx_seq", "recompute"],
  ["tp", "pp", "cp", "ctx_method", "sp"],
];

/** The slider's stops come from the core (seq_stops); the control holds an index into them. */
function seqField(stops: readonly number[]): ScenarioField {
  const spec: ControlSpec = {
    kind: "range",
    key: "ctx_seq",
    labelKey: "ctx.seq",
    min: 0,
    max: stops.length - 1,
    step: 1,
    show: (i) => (stops[i] ?? 0).toLocaleString("en-US"),
  };
  const index = (s: Scenario) => {
    const seq = Number(valueAt(s, "training.seq_len"));
    const at = stops.findIndex((x) => x >= seq);
    return at < 0 ? stops.length - 1 : at;
  };
  return { spec, paths: ["training.seq_len"], show: index, changes: (i) => [["training.seq_len", stops[Number(i)]]] };
}

function methodField(client: TslabClient): ScenarioField {
  const v = vocabularyOf(client);
  const path = "parallel.cp_method";
  return {
    spec: { kind: "select", key: "ctx_method", labelKey: "ctx.method", choices: choicesOf(v.cp_methods) },
    paths: [path],
    show: (s) => String(valueAt(s, path) ?? defaultOf(v, path)),
    changes: (x) => [[path, x]],
  };
}

/** The trial's plan: one 131,072-token sequence of Llama 3 8B on TP 8 with SP, one pipeline stage, the core's default CP method (ring). */
const trialPlan = (cp: number): [string, unknown][] => [
  ["model", "llama3-8b"],
  ["cluster", "dgx-h100"],
  ["parallel.dp", 1],
  ["parallel.tp", 8],
  ["parallel.pp", 1],
  ["parallel.vpp", 1],
  ["parallel.ep", 1],
  ["parallel.sp", true],
  ["parallel.cp", cp],
  ["parallel.cp_method", undefined],
  ["training.seq_len", 131072],
  ["training.micro_batch", 1],
  ["training.global_batch", undefined],
  ["training.recompute", undefined],
];

function mount(host: HTMLElement, { client, store }: PanelContext): void {
  const { scenario, editScenario } = store;
  // The stops do not depend on the scenario: ask once with the lesson's starting scenario, which always parses.
  const stops = client.context(startingScenario).seq_stops;
  const fields = scenarioFields(client);
  fields.set("ctx_seq", seqField(stops));
  fields.set("ctx_method", methodField(client));
  const {
    element: form,
    controls,
    relabel,
  } = createForm(
    "ctx.controls",
    ["ctx.group.model", "ctx.group.parallel"],
    groups.map((g) => g.map((k) => fields.get(k)!.spec)),
  );
  const errorTargets = errorTargetsOf(fields, groups.flat());
  const results = document.createElement("div");
  results.className = "tsl-results";
  host.classList.add("tsl-ctx");
  host.append(form, results);
  const view = createContextView(results, () => runTrial());

  let lastError: ScenarioError | null = null;
  const showError = (err: ScenarioError | null) => {
    lastError = err;
    showErrorAt(err, controls, errorTargets, view.setGeneralError);
  };
  const compute = (s: Scenario = scenario()): ContextResult | null => {
    try {
      const r = client.context(s);
      showError(null);
      view.render(r);
      view.setStale(false);
      return r;
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      showError(e);
      view.setStale(true);
      return null;
    }
  };
  let frame = 0;
  const show = bindScenarioControls(store, "context", form, controls, fields, (_s, e) => {
    if (e.source !== "context-trial") view.clearTrial();
    if (!frame) frame = requestAnimationFrame(() => ((frame = 0), compute()));
  });

  function runTrial(): void {
    editScenario(trialEdits(store, trialPlan(1)), "context-trial");
    if (frame) (cancelAnimationFrame(frame), (frame = 0));
    const before = compute();
    editScenario(trialEdits(store, trialPlan(8)), "context-trial");
    if (frame) (cancelAnimationFrame(frame), (frame = 0));
    const after = compute();
    if (before && after) view.showTrial(before, after);
  }

  onLangChange(() => {
    relabel();
    view.relabel();
    showError(lastError);
  });
  show(scenario());
  compute();
}

export const contextPanel: Panel = {
  id: "context",
  titleKey: "panel.context",
  mount,
  headline: [
    { value: "tr:has(.tsl-ctx-badge-active) th b" },
    { value: 'tr:has(.tsl-ctx-badge-active) [data-testid^="ctx-mem-"]' },
    { value: "tr:has(.tsl-ctx-badge-active) .tsl-ctx-badge:not(.tsl-ctx-badge-active)" },
  ],
};
