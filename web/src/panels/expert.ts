// L6 panel (expert dispatch): the shared scenario plus training.moe routing knobs → report().expert and .step → the view; one trial.
import type { TslabClient } from "../client";
import { createForm, numberOrText as num } from "../controls";
import { onLangChange } from "../i18n";
import type { Scenario } from "../report";
import { errorTargetsOf, scenarioFields, type ScenarioField } from "../scenario_fields";
import { valueAt } from "../state";
import type { ExpertInReport } from "../types/expert";
import { choicesOf, defaultOf, vocabularyOf } from "../vocabulary";
import type { Panel, PanelContext } from "./panel";
import { deepseekPlan } from "./trial_plans";
import { createExpertView, type ExpertTrialRow } from "./expert_view";
import { runReportPanel } from "./report_runner";
import "./expert.css";

const plan = ["model", "cluster", "dp", "ep", "pp", "schedule"];
const routing = ["routing", "skew", "histogram", "redundant", "node_limit", "comm_sms", "a2a_overlap"]; // not-a-vocabulary-name: control keys (the histogram control edits the field)
const kindPath = "training.moe.routing.kind",
  histogramPath = "training.moe.routing.histogram",
  skewPath = "training.moe.routing.skew";
/** The routing kind (core vocabulary.hpp routing_rows) that reads `path` besides its name. */
const kindReading = (client: TslabClient, path: string) => vocabularyOf(client).routing_kinds.find((r) => r.reads === path)?.name;

/** The pasted loads as the scenario's array: numbers where a token reads as one, else the token itself, so the core names the bad entry. */
function histogramOf(text: string): unknown[] | undefined {
  const tokens = text.split(/[\s,;]+/).filter((x) => x !== "");
  if (tokens.length === 0) return undefined;
  return tokens.map((x) => (Number.isFinite(Number(x)) ? Number(x) : x));
}

/**
 * A pasted histogram selects kind "histogram"; clearing it removes the loads and the kind, so the core's default routing
 * applies again (a kind "histogram" without loads is an error in every panel that reads the scenario).
 */
function histogramField(client: TslabClient): ScenarioField {
  const histogramKind = kindReading(client, histogramPath);
  return {
    spec: { kind: "text", key: "histogram", labelKey: "ex.histogram", rows: 3, placeholder: "120, 80, 64, 10, …" }, // not-a-vocabulary-name: the control of training.moe.routing.histogram
    paths: [histogramPath],
    show: (s) => {
      const h = valueAt(s, histogramPath);
      return Array.isArray(h) ? h.join(", ") : "";
    },
    changes: (x) => {
      const h = histogramOf(String(x));
      return h
        ? [
            [kindPath, histogramKind],
            [histogramPath, h],
          ]
        : [
            [histogramPath, undefined],
            [kindPath, undefined],
          ];
    },
  };
}

/** The routing controls: each edits one training.moe field; a field the scenario leaves out shows the core's default. */
function routingFields(client: TslabClient): ScenarioField[] {
  const v = vocabularyOf(client);
  const histogramKind = kindReading(client, histogramPath);
  const at = (path: string) => (s: Scenario) => valueAt(s, path) ?? defaultOf(v, path);
  const field = (
    spec: ScenarioField["spec"],
    path: string,
    show = (x: unknown): ReturnType<ScenarioField["show"]> => String(x ?? ""),
    put = (x: unknown): unknown => x,
  ): ScenarioField => ({ spec, paths: [path], show: (s) => show(at(path)(s)), changes: (x) => [[path, put(x)]] });
  return [
    // Another kind than histogram drops the pasted loads (the core refuses loads with another kind).
    {
      ...field({ kind: "select", key: "routing", labelKey: "ex.kind", choices: choicesOf(v.routing_kinds) }, kindPath),
      changes: (x) =>
        x === histogramKind
          ? [[kindPath, x]]
          : [
              [kindPath, x],
              [histogramPath, undefined],
            ],
    },
    field(
      { kind: "range", key: "skew", labelKey: "ex.skew", min: 0, max: 1.5, step: 0.1, show: (x) => x.toFixed(1) },
      skewPath,
      (x) => String(Number(x ?? 1)),
      Number,
    ),
    histogramField(client),
    field({ kind: "number", key: "redundant", labelKey: "ex.redundant", min: 0, max: 65536 }, "training.moe.redundant_experts", undefined, (x) =>
      num(x as string),
    ),
    field({ kind: "number", key: "node_limit", labelKey: "ex.node_limit", min: 0, max: 1024 }, "training.moe.node_limit", undefined, (x) =>
      num(x as string),
    ),
    field({ kind: "number", key: "comm_sms", labelKey: "ex.comm_sms", min: 0, max: 1024 }, "training.moe.comm_sms", undefined, (x) =>
      num(x as string),
    ),
    // Megatron-Core's EP all-to-all overlap in interleaved 1F1B (the core refuses it elsewhere, at this field).
    field({ kind: "check", key: "a2a_overlap", labelKey: "ex.a2a_overlap" }, "training.moe.a2a_overlap", Boolean, Boolean),
  ];
}

/** The trial's plan at one Zipf skew and redundant-slot count, FP8 GEMMs as DeepSeek-V3 trains. */
function trialScenario(client: TslabClient, s: Scenario, skew: number, redundant: number): Scenario {
  return deepseekPlan(client, s, [
    ["training.precision", vocabularyOf(client).precision_recipes.find((r) => r.gemm === "fp8")?.name],
    ["training.moe.routing", { kind: kindReading(client, skewPath), skew }],
    ["training.moe.redundant_experts", redundant],
    ["training.moe.imbalance", undefined],
  ]);
}

function mount(host: HTMLElement, { client, store }: PanelContext): void {
  const fields = scenarioFields(client);
  for (const f of routingFields(client)) fields.set(f.spec.key, f);
  const {
    element: form,
    controls,
    relabel,
  } = createForm(
    "ex.controls",
    ["ex.group.plan", "ex.group.routing"],
    [plan, routing].map((g) => g.map((k) => fields.get(k)!.spec)),
  );
  const errorTargets = errorTargetsOf(fields, [...plan, ...routing]);
  const results = document.createElement("div");
  results.className = "tsl-results";
  host.classList.add("tsl-expert");
  host.append(form, results);
  const view = createExpertView(results, () => runTrial());

  const run = runReportPanel<ExpertInReport>({ client, store }, "expert", form, controls, fields, errorTargets, view);
  // A pasted histogram also sets the kind; the panel's own edits leave its controls as typed, so show the kind here
  // (this listener runs after the binding's, which has already edited the scenario).
  form.addEventListener("input", (e) => {
    if ((e.target as HTMLElement).closest('[data-control="histogram"]'))
      controls.get("routing")!.write(fields.get("routing")!.show(store.scenario()));
  });

  /** Three reports of one plan: uniform, skewed, skewed with one redundant expert per GPU; the last one stays. */
  function runTrial(): void {
    const cases: [ExpertTrialRow["id"], number, number][] = [
      ["flat", 0, 0],
      ["skewed", 0.6, 0],
      ["fixed", 0.6, 64],
    ];
    const rows: ExpertTrialRow[] = [];
    for (const [id, skew, redundant] of cases) {
      const r = client.report(trialScenario(client, store.start(), skew, redundant)) as ExpertInReport;
      rows.push({ id, imbalance: r.expert.imbalance_used, busiest_s: r.expert.expert_busiest_s, step_s: r.step.time_s });
    }
    store.applyScenario(trialScenario(client, store.start(), 0.6, 64), "expert-trial");
    run.compute();
    view.showTrial(rows);
  }

  onLangChange(() => {
    relabel();
    view.relabel();
    run.reshowError();
  });
  run.show(store.scenario());
  run.compute();
}

export const expertPanel: Panel = {
  id: "expert",
  titleKey: "panel.expert",
  mount,
  headline: [
    { value: '[data-testid="ex-imbalance"]', labelled: true },
    { value: '[data-testid="ex-balanced"]', labelled: true },
    { value: '[data-testid="ex-busiest-s"]', labelled: true },
    { value: ".tsl-ex-body > .tsl-ex-caption:only-child" },
  ],
};
