// L9 panel: the shared scenario plus this panel's checkpoint and rollout knobs → client.rl() (tslab/rl@1) → the view; two trials.
import { say, sayWith } from "../core_messages";
import { errorText, ScenarioError, type TslabClient } from "../client";
import { createForm, type Control, type ControlSpec } from "../controls";
import { el } from "../dom";
import { onLangChange } from "../i18n";
import { withValue, type ScenarioStore } from "../state";
import type { RlResult, RlSpec } from "../types/rl";
import { vocabularyOf, vppSchedule } from "../vocabulary";
import type { Panel, PanelContext } from "./panel";
import { createReliabilityView, type RelTrial } from "./reliability_view";
import { trialEdits } from "./trial_plans";
import "./reliability.css";

/** The goodput curve's GPU counts: the core evaluates every one, the select picks the highlighted point. */
const curveGpus = [512, 1024, 2048, 4096, 8192, 16384, 32768, 65536];
const contexts = [32768, 131072, 262144, 1048576];

const specs: ControlSpec[][] = [
  [
    { kind: "select", key: "gpus", labelKey: "rel.gpus", choices: curveGpus.map((g) => ({ value: String(g), label: g.toLocaleString("en-US") })) },
    { kind: "number", key: "interval", labelKey: "rel.interval", min: 0, max: 1e9, placeholder: "Young/Daly" },
    { kind: "number", key: "storage", labelKey: "rel.storage", min: 1, max: 1e7 },
    { kind: "number", key: "failure", labelKey: "rel.failure", min: 0, max: 1e6 },
    { kind: "number", key: "restart", labelKey: "rel.restart", min: 0, max: 1e7 },
    { kind: "check", key: "async", labelKey: "rel.async" },
  ],
  [
    { kind: "number", key: "batch", labelKey: "rel.batch", min: 1, max: 1e7 },
    {
      kind: "select",
      key: "context",
      labelKey: "rel.context",
      choices: contexts.map((c) => ({ value: String(c), label: c.toLocaleString("en-US") })),
    },
    { kind: "number", key: "median", labelKey: "rel.median", min: 1, max: 1e8 },
    { kind: "range", key: "sigma", labelKey: "rel.sigma", min: 0, max: 2, step: 0.1, show: (v) => v.toFixed(1) },
  ],
];

/** Failure rates are shown per million GPU-hours (the core's field is per GPU-hour). */
const perMillion = 1e6;

/** The controls' first values: the checkpoint knobs from the core's defaults (training.reliability), the rest the panel's own. */
function initialValues(client: TslabClient): Record<string, string | number | boolean> {
  const r = vocabularyOf(client).defaults.training.reliability as Record<string, number>;
  return {
    gpus: "16384",
    interval: "",
    storage: r.checkpoint_storage_Bps / 1e9,
    failure: Number((r.gpu_failure_rate_per_hour * perMillion).toPrecision(6)),
    restart: r.restart_s,
    async: false,
    batch: 512,
    context: "32768",
    median: 4096,
    sigma: 1,
  };
}

/** The knobs as a tslab/rl@1 spec over the shared scenario; each control's value goes to one core field. */
function specOf(c: Map<string, Control>, store: ScenarioStore): RlSpec {
  const num = (k: string) => Number(c.get(k)!.read());
  let s = store.scenario();
  const interval = String(c.get("interval")!.read()).trim();
  s = withValue(s, "training.reliability.checkpoint_interval_s", interval === "" ? 0 : Number(interval));
  s = withValue(s, "training.reliability.checkpoint_storage_Bps", num("storage") * 1e9);
  s = withValue(s, "training.reliability.gpu_failure_rate_per_hour", num("failure") / perMillion);
  s = withValue(s, "training.reliability.restart_s", num("restart"));
  s = withValue(s, "training.reliability.async_checkpoint", Boolean(c.get("async")!.read()));
  return {
    schema: "tslab/rl@1",
    scenario: s,
    gpus: curveGpus,
    rl: { rollout_batch: num("batch"), context_tokens: num("context"), response_median_tokens: num("median"), tail_sigma: num("sigma") },
  };
}

/** Controls shown in another unit than the core's field: core units per shown unit (storage in GB/s, failures per 10⁶ GPU-hours). */
const shownIn: Record<string, { per: number; unit: string }> = {
  storage: { per: 1e9, unit: "GB/s" },
  failure: { per: 1 / perMillion, unit: "/ 10⁶ GPU·h" },
};

/** Which control owns an error path. */
const owner: [string, string][] = [
  ["scenario.training.reliability.checkpoint_interval_s", "interval"],
  ["scenario.training.reliability.checkpoint_storage_Bps", "storage"],
  ["scenario.training.reliability.gpu_failure_rate_per_hour", "failure"],
  ["scenario.training.reliability.restart_s", "restart"],
  ["rl.rollout_batch", "batch"],
  ["rl.context_tokens", "context"],
  ["rl.response_median_tokens", "median"],
  ["rl.tail_sigma", "sigma"],
];

/**
 * The failures trial's plan, set on the shared scenario: Llama 3 405B on 16,384 GPUs with an interleaved pipeline
 * filled by 64 micro-batches, so that its bubble is small; the schedule's name comes from the core's vocabulary.
 */
function failurePlan(client: TslabClient): [string, unknown][] {
  return [
    ["model", "llama3-405b"],
    ["parallel.tp", 8],
    ["parallel.pp", 16],
    ["parallel.vpp", 4],
    ["parallel.dp", 128],
    ["parallel.ep", 1],
    ["parallel.cp", 1],
    ["training.schedule", vppSchedule(vocabularyOf(client))?.name],
    ["training.seq_len", 8192],
    ["training.global_batch", 8192],
  ];
}

function mount(host: HTMLElement, { client, store }: PanelContext): void {
  const { editScenario, subscribe } = store;
  /** A range error of a control the panel shows in its own unit, re-worded in that unit (the core's bounds, divided). */
  const inUnits = (key: string, err: ScenarioError): string | null => {
    const u = shownIn[key];
    if (!u || err.msg?.id !== "input.out_of_range") return null;
    const args = { ...err.msg.args };
    for (const k of ["value", "lo", "hi"])
      args[k] = `${(Number(args[k]) / u.per).toLocaleString("en-US", { maximumSignificantDigits: 6 })} ${u.unit}`;
    return sayWith(err.msg, args, client.messages()) || null;
  };
  const { element: form, controls, relabel } = createForm("rel.controls", ["rel.group.ckpt", "rel.group.rl"], specs);
  const initial = initialValues(client);
  controls.forEach((c, k) => c.write(initial[k]));
  const results = el("div", "tsl-results");
  host.classList.add("tsl-rel");
  host.append(form, results);
  const view = createReliabilityView(results, (which) => runTrial(which));

  let lastError: ScenarioError | null = null;
  const showError = (err: ScenarioError | null) => {
    lastError = err;
    controls.forEach((c) => c.setError(null));
    const key = err ? owner.find(([p]) => err.path === p)?.[1] : undefined;
    if (err && key) controls.get(key)!.setError(inUnits(key, err) ?? say(err.msg, err.reason));
    view.setGeneralError(err && !key ? errorText(err) : null);
  };
  const compute = (): RlResult | null => {
    try {
      const r = client.rl(specOf(controls, store));
      showError(null);
      view.render(r, Number(controls.get("gpus")!.read()));
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
  const later = () => void (frame ||= requestAnimationFrame(() => ((frame = 0), compute())));
  form.addEventListener("input", () => (view.clearTrial(), later()));
  form.addEventListener("change", () => (view.clearTrial(), later()));
  subscribe((_s, e): void => (e.source !== "reliability" && view.clearTrial(), later()));

  function runTrial(which: RelTrial): void {
    if (which === "failures") {
      controls.get("gpus")!.write("16384");
      editScenario(trialEdits(store, failurePlan(client)), "reliability");
    } else {
      controls.get("context")!.write("1048576");
      controls.get("median")!.write(65536);
      controls.get("sigma")!.write(1);
    }
    if (frame) (cancelAnimationFrame(frame), (frame = 0));
    const r = compute();
    if (r) view.showTrial(which, r, Number(controls.get("gpus")!.read()));
  }

  onLangChange(() => {
    relabel();
    view.relabel();
    showError(lastError);
  });
  compute();
}

export const reliabilityPanel: Panel = {
  id: "reliability",
  titleKey: "panel.reliability",
  mount,
  headline: [
    { value: '[data-testid="rel-goodput"]', labelled: true },
    { value: '[data-testid="rel-loss"]', labelled: true },
    { value: '[data-testid="rel-iteration"]', labelled: true },
  ],
};
