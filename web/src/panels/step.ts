// Step panel (ledgers L1..L9): the shared scenario → report().step → headline box, step-time bar and ledger table; recompute and TP trials.
import { ScenarioError, type TslabClient } from "../client";
import { createForm, showErrorAt } from "../controls";
import { onLangChange } from "../i18n";
import type { Scenario } from "../report";
import { bindScenarioControls, errorTargetsOf, scenarioFields } from "../scenario_fields";
import { valueAt } from "../state";
import type { StepInReport } from "../types/step";
import { defaultOf, fullestRecompute, vocabularyOf } from "../vocabulary";
import type { Panel, PanelContext } from "./panel";
import { createAccuracyNote } from "./accuracy_note";
import { createStepTrials, type StepTrial } from "./step_trials";
import { createStepView } from "./step_view";
import "./step.css";

const groups = [
  ["model", "cluster"],
  ["dp", "tp", "pp", "vpp", "ep", "cp", "sp", "zero", "schedule"],
  ["seq_len", "micro_batch", "global_batch", "recompute", "precision", "overlap"],
];

/**
 * A trial's edits. Both hold the global batch at the one the step had before (the effective one,
 * auto or given): a trial changes one thing, so a faster step means a faster layout, not less work.
 */
function trialChanges(client: TslabClient, which: StepTrial, s: Scenario, before: StepInReport): [string, unknown][] {
  const batch: [string, unknown] = ["training.global_batch", before.step.global_batch];
  if (which === "tp") {
    const dp = Number(valueAt(s, "parallel.dp") ?? 1);
    return [["parallel.tp", 16], ["parallel.dp", Math.max(1, Math.floor(dp / 2))], batch];
  }
  const v = vocabularyOf(client);
  const full = fullestRecompute(v);
  const now = valueAt(s, "training.recompute") ?? defaultOf(v, "training.recompute");
  return [["training.recompute", now === full ? defaultOf(v, "training.recompute") : full], batch];
}

function mount(host: HTMLElement, { client, store }: PanelContext): void {
  const { scenario, editScenario } = store;
  const fields = scenarioFields(client);
  const {
    element: form,
    controls,
    relabel,
  } = createForm(
    "step.controls",
    ["step.group.model", "step.group.parallel", "step.group.training"],
    groups.map((g) => g.map((k) => fields.get(k)!.spec)),
  );
  const errorTargets = errorTargetsOf(fields, groups.flat());
  const results = document.createElement("div");
  results.className = "tsl-results";
  host.classList.add("tsl-step");
  const trials = createStepTrials((which) => runTrial(which));
  host.append(form, results);
  results.append(trials.element);
  const view = createStepView(results, new Set(vocabularyOf(client).mesh_axes.map((a) => a.name)));
  const accuracy = createAccuracyNote(client);
  results.querySelector('[data-testid="step-headline"]')?.after(accuracy.element);

  let lastError: ScenarioError | null = null;
  let last: StepInReport | null = null;
  const showError = (err: ScenarioError | null) => {
    lastError = err;
    showErrorAt(err, controls, errorTargets, view.setGeneralError);
  };
  const compute = (): StepInReport | null => {
    try {
      const r = client.report(scenario()) as StepInReport;
      showError(null);
      view.render(r);
      view.setStale(false);
      accuracy.update(scenario());
      last = r;
      return r;
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      showError(e);
      view.setStale(true); // the last good result stays, dimmed: the panel never goes blank
      return null;
    }
  };
  let frame = 0;
  const show = bindScenarioControls(store, "step", form, controls, fields, (_s, e) => {
    if (e.source !== "step-trial") trials.clear();
    if (!frame) frame = requestAnimationFrame(() => ((frame = 0), compute()));
  });

  function runTrial(which: StepTrial): void {
    if (frame) (cancelAnimationFrame(frame), (frame = 0));
    const before = last ?? compute();
    if (!before) return;
    editScenario(trialChanges(client, which, scenario(), before), "step-trial");
    if (frame) (cancelAnimationFrame(frame), (frame = 0));
    const after = compute();
    if (after) trials.show(before, after);
  }

  onLangChange(() => {
    relabel();
    trials.relabel();
    view.relabel();
    accuracy.relabel();
    showError(lastError);
  });
  show(scenario());
  compute();
}

export const stepPanel: Panel = {
  id: "step",
  titleKey: "panel.step",
  mount,
  headline: [
    { value: '[data-testid="step-time"]', labelled: true },
    { value: '[data-testid="step-mfu"]', labelled: true },
    { value: '[data-testid="step-tokens"]', labelled: true },
  ],
};
