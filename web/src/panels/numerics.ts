// L8 panel (numerics): the shared scenario → report().numerics and .step → recipe cards, Adam vs Muon, Muon's gather; one trial.
import { ScenarioError, type TslabClient } from "../client";
import { createForm } from "../controls";
import { onLangChange } from "../i18n";
import type { Scenario } from "../report";
import { errorTargetsOf, scenarioFields } from "../scenario_fields";
import { vocabularyOf } from "../vocabulary";
import type { ExpertInReport } from "../types/expert";
import type { Panel, PanelContext } from "./panel";
import { deepseekPlan } from "./trial_plans";
import { createNumericsView } from "./numerics_view";
import { runReportPanel } from "./report_runner";
import "./expert.css";

const groups = [
  ["model", "cluster", "dp", "tp", "pp", "zero"],
  ["precision", "optimizer"],
];

/** The trial: DeepSeek-V3's plan at the first BF16-GEMM and the first FP8-GEMM recipe of the core's table. */
function trialPair(client: TslabClient, s: Scenario): [Scenario, Scenario] {
  const recipes = vocabularyOf(client).precision_recipes;
  const bf16 = recipes.find((r) => r.gemm === "bf16")?.name,
    fp8 = recipes.find((r) => r.gemm === "fp8")?.name;
  return [deepseekPlan(client, s, [["training.precision", bf16]]), deepseekPlan(client, s, [["training.precision", fp8]])];
}

function mount(host: HTMLElement, { client, store }: PanelContext): void {
  const fields = scenarioFields(client);
  const {
    element: form,
    controls,
    relabel,
  } = createForm(
    "nu.controls",
    ["nu.group.plan", "nu.group.numerics"],
    groups.map((g) => g.map((k) => fields.get(k)!.spec)),
  );
  const errorTargets = errorTargetsOf(fields, groups.flat());
  const results = document.createElement("div");
  results.className = "tsl-results";
  host.classList.add("tsl-numerics");
  host.append(form, results);
  const view = createNumericsView(results, () => runTrial());

  const run = runReportPanel<ExpertInReport>({ client, store }, "numerics", form, controls, fields, errorTargets, view);

  /** The same plan at bf16-mixed and at fp8-mixed; the FP8 one stays on the shared scenario. */
  function runTrial(): void {
    try {
      const [bf16, fp8] = trialPair(client, store.start());
      const before = client.report(bf16) as ExpertInReport;
      const after = client.report(fp8) as ExpertInReport;
      store.applyScenario(fp8, "numerics-trial");
      run.compute();
      view.showTrial({ before, after });
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      run.showError(e);
    }
  }

  onLangChange(() => {
    relabel();
    view.relabel();
    run.reshowError();
  });
  run.show(store.scenario());
  run.compute();
}

export const numericsPanel: Panel = {
  id: "numerics",
  titleKey: "panel.numerics",
  mount,
  headline: [{ value: '[data-current="true"] h4' }, { value: '[data-testid="nu-speedup"]', labelled: true }],
};
