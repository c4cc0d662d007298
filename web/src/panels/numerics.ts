// L8 panel (numerics): the shared scenario → report().numerics and .step → recipe cards, Adam vs Muon, Muon's gather; one trial.
import { ScenarioError, type TslabClient } from "../client";
import { createForm, showErrorAt } from "../controls";
import { onLangChange } from "../i18n";
import type { Scenario } from "../report";
import { bindScenarioControls, errorTargetsOf, scenarioFields } from "../scenario_fields";
import { vocabularyOf } from "../vocabulary";
import type { ExpertInReport } from "../types/expert";
import type { Panel, PanelContext } from "./panel";
import { deepseekPlan } from "./trial_plans";
import { createNumericsView } from "./numerics_view";
import "./expert.css";

const groups = [["model", "cluster", "dp", "tp", "pp", "zero"], ["precision", "optimizer"]];

/** The trial: DeepSeek-V3's plan at the first BF16-GEMM and the first FP8-GEMM recipe of the core's table. */
function trialPair(client: TslabClient, s: Scenario): [Scenario, Scenario] {
  const recipes = vocabularyOf(client).precision_recipes;
  const bf16 = recipes.find((r) => r.gemm === "bf16")?.name, fp8 = recipes.find((r) => r.gemm === "fp8")?.name;
  return [deepseekPlan(client, s, [["training.precision", bf16]]), deepseekPlan(client, s, [["training.precision", fp8]])];
}

function mount(host: HTMLElement, { client, store }: PanelContext): void {
  const fields = scenarioFields(client);
  const { element: form, controls, relabel } = createForm("nu.controls", ["nu.group.plan", "nu.group.numerics"],
    groups.map((g) => g.map((k) => fields.get(k)!.spec)));
  const errorTargets = errorTargetsOf(fields, groups.flat());
  const results = document.createElement("div");
  results.className = "tsl-results";
  host.classList.add("tsl-numerics");
  host.append(form, results);
  const view = createNumericsView(results, () => runTrial());

  let lastError: ScenarioError | null = null;
  const showError = (err: ScenarioError | null) => ((lastError = err), showErrorAt(err, controls, errorTargets, view.setGeneralError));
  const compute = (): void => {
    try {
      const r = client.report(store.scenario()) as ExpertInReport;
      showError(null);
      view.render(r);
      view.setStale(false);
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      showError(e);
      view.setStale(true);
    }
  };
  let frame = 0;
  const show = bindScenarioControls(store, "numerics", form, controls, fields, (_s, e) => {
    if (e.source !== "numerics-trial") view.clearTrial();
    if (!frame) frame = requestAnimationFrame(() => ((frame = 0), compute()));
  });

  /** The same plan at bf16-mixed and at fp8-mixed; the FP8 one stays on the shared scenario. */
  function runTrial(): void {
    try {
      const [bf16, fp8] = trialPair(client, store.scenario());
      const before = client.report(bf16) as ExpertInReport;
      const after = client.report(fp8) as ExpertInReport;
      store.applyScenario(fp8, "numerics-trial");
      if (frame) cancelAnimationFrame(frame), (frame = 0);
      compute();
      view.showTrial({ before, after });
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      showError(e);
    }
  }

  onLangChange(() => {
    relabel();
    view.relabel();
    showError(lastError);
  });
  show(store.scenario());
  compute();
}

export const numericsPanel: Panel = { id: "numerics", titleKey: "panel.numerics", mount };
