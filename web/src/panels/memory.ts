// Memory panel (ledgers L1 model state + L2 activations): the shared scenario → report → view; its controls edit that scenario.
import { ScenarioError, type TslabClient } from "../client";
import { createForm, showErrorAt } from "../controls";
import { onLangChange } from "../i18n";
import type { Report, Scenario } from "../report";
import { bindScenarioControls, errorTargetsOf, scenarioFields } from "../scenario_fields";
import { withValue } from "../state";
import { fullestRecompute, vocabularyOf } from "../vocabulary";
import type { Panel, PanelContext } from "./panel";
import { createMemoryView, modelStateBytes } from "./memory_view";
import { trialEdits } from "./trial_plans";

const groups = [
  ["model", "cluster"],
  ["dp", "tp", "pp", "vpp", "ep", "cp", "zero", "sp", "schedule"],
  ["seq_len", "micro_batch", "global_batch", "recompute", "flash", "precision", "optimizer", "offload_opt", "offload_dpu", "offload_act"],
];

/** ZeRO's worked example scaled to 70B: DP 64 shards the 16P model state 64 ways (arXiv 1910.02054, Fig. 1). */
const trialDp = 64;
function trialChanges(client: TslabClient): [string, unknown][] {
  return [
    ["model", "llama3-70b"],
    ["parallel.dp", trialDp],
    ["parallel.tp", 1],
    ["parallel.pp", 1],
    ["parallel.sp", false],
    ["parallel.vpp", 1],
    ["parallel.ep", 1],
    ["parallel.cp", 1],
    ["parallel.zero", 3],
    ["training.recompute", fullestRecompute(vocabularyOf(client))],
    // The closed form assumes mixed-precision Adam with nothing offloaded: the core's defaults.
    ["training.precision", undefined],
    ["training.optimizer", undefined],
    ["training.offload", undefined],
  ];
}

function mount(host: HTMLElement, { client, store }: PanelContext): void {
  const { scenario, editScenario } = store;
  const fields = scenarioFields(client);
  const {
    element: form,
    controls,
    relabel,
  } = createForm(
    "mem.controls",
    ["mem.group.model", "mem.group.parallel", "mem.group.training"],
    groups.map((g) => g.map((k) => fields.get(k)!.spec)),
  );
  const errorTargets = errorTargetsOf(fields, groups.flat());
  const results = document.createElement("div");
  results.className = "tsl-results";
  host.classList.add("tsl-mem");
  host.append(form, results);
  const view = createMemoryView(results, () => runTrial());

  let lastError: ScenarioError | null = null;
  const showError = (err: ScenarioError | null) => {
    lastError = err;
    showErrorAt(err, controls, errorTargets, view.setGeneralError);
  };
  const compute = (s: Scenario = scenario()): Report | null => {
    try {
      const r = client.report(s);
      showError(null);
      view.render(r);
      view.setStale(false);
      return r;
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      showError(e);
      view.setStale(true); // the last good result stays, dimmed: the lab never goes blank
      return null;
    }
  };
  // Coalesce bursts of changes (a dragged slider) into one report per frame.
  let frame = 0;
  const show = bindScenarioControls(store, "memory", form, controls, fields, (_s, e) => {
    if (e.source !== "memory-trial") view.clearTrial();
    if (!frame) frame = requestAnimationFrame(() => ((frame = 0), compute()));
  });

  function runTrial(): void {
    editScenario(trialEdits(store, trialChanges(client)), "memory-trial");
    if (frame) (cancelAnimationFrame(frame), (frame = 0));
    const s = scenario();
    const replicated = client.report(withValue(s, "parallel.zero", 0));
    const after = compute(s);
    if (after) view.showTrial(modelStateBytes(replicated), after, trialDp);
  }

  onLangChange(() => {
    relabel();
    view.relabel();
    showError(lastError);
  });
  show(scenario());
  compute();
}

export const memoryPanel: Panel = {
  id: "memory",
  titleKey: "panel.memory",
  mount,
  headline: [{ value: '[data-testid="fit-status"] .tsl-badge' }, { value: '[data-testid="fit-status"] .tsl-status-main' }],
};
