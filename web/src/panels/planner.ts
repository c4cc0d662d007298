// Planner panel: model, cluster and GPU count (or the lab's whole configuration) → a capped search in Web Workers → top table, Pareto scatter and the configuration against the best; a pick is applied to every panel.
import { sayClauses, sayError } from "../core_messages";
import { createControl, createGroup, numberOrText as num, showErrorAt, type Control, type ControlSpec } from "../controls";
import { compactCount, duration } from "../format";
import { onLangChange, t } from "../i18n";
import type { Scenario } from "../report";
import type { PlanCandidate, PlannerReply, PlannerRequest, PlanOptions, PlanResult } from "../types/step";
import type { Panel, PanelContext } from "./panel";
import { vocabularyOf } from "../vocabulary";
import { createPlannerView } from "./planner_view";
import "./step.css";
import "./planner.css";

/** At most this many planner Workers (search parts); each holds its own wasm instance. */
const maxPlanWorkers = 8;

type PlanProgressReply = Extract<PlannerReply, { type: "progress" }>["progress"];

/** The parts' last progress summed (a part not heard from yet counts nothing and is not done). */
function sumProgress(parts: (PlanProgressReply | undefined)[], n: number): PlanProgressReply {
  const sum: PlanProgressReply = {
    considered: 0,
    evaluated: 0,
    fitting: 0,
    timed: 0,
    layouts_searched: 0,
    layouts_total: 0,
    done: true,
    capped: false,
  };
  for (let i = 0; i < n; i++) {
    const p = parts[i];
    if (!p) {
      sum.done = false;
      continue;
    }
    ((sum.considered += p.considered), (sum.evaluated += p.evaluated), (sum.fitting += p.fitting), (sum.timed += p.timed));
    ((sum.layouts_searched += p.layouts_searched), (sum.layouts_total += p.layouts_total));
    ((sum.done &&= p.done), (sum.capped ||= p.capped));
  }
  return sum;
}

/**
 * The plan's own scenario (tslab/plan@1 entry.scenario) as the lab's shared scenario: a calibration
 * profile copy is dropped (the client attaches the loaded one to every call), so a preset stays a name.
 */
export function scenarioOfPlan(c: PlanCandidate): Scenario {
  const s = structuredClone(c.scenario);
  if (typeof s.cluster === "object" && s.cluster !== null) {
    const { calibration: _dropped, ...rest } = s.cluster as Record<string, unknown>;
    s.cluster = Object.keys(rest).length === 1 && typeof rest.preset === "string" ? rest.preset : rest;
  }
  return s;
}

const errorTargets = [
  ["model", "model"],
  ["cluster", "cluster"],
  ["options.gpus", "gpus"],
  ["gpus", "gpus"],
  ["options", "gpus"],
  ["training.seq_len", "seq_len"],
  ["training.global_batch", "global_batch"],
  ["training", "global_batch"],
] as const;

function specs(models: string[], clusters: string[], maxGpus: number): ControlSpec[] {
  return [
    { kind: "select", key: "model", labelKey: "mem.model", choices: models.map((value) => ({ value })) },
    { kind: "select", key: "cluster", labelKey: "mem.cluster", choices: clusters.map((value) => ({ value })) },
    { kind: "number", key: "gpus", labelKey: "plan.gpus", min: 1, max: maxGpus },
    { kind: "range", key: "seq_len", labelKey: "mem.seq_len", min: 9, max: 20, step: 1, show: (k) => (2 ** k).toLocaleString("en-US") },
    { kind: "number", key: "global_batch", labelKey: "mem.global_batch", min: 1, max: 1e9, placeholder: "auto" },
  ];
}

function button(key: "plan.run" | "plan.compare" | "plan.cancel", testid: string): HTMLButtonElement {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "tsl-trial-button";
  b.dataset.testid = testid;
  b.textContent = t(key);
  return b;
}

/** fn after the next paint, when the page is idle (at most 2 s later). */
function whenIdle(fn: () => void): void {
  requestAnimationFrame(() => {
    if ("requestIdleCallback" in window) requestIdleCallback(() => fn(), { timeout: 2000 });
    else setTimeout(fn, 200);
  });
}

function mount(host: HTMLElement, { client, store }: PanelContext): void {
  const presets = client.presets();
  const maxGpus = presets.vocabulary.limits.plan_gpus;
  const list = specs(Object.keys(presets.models), Object.keys(presets.clusters), maxGpus).map(createControl);
  const controls = new Map<string, Control>(list.map((c) => [c.spec.key, c]));
  const group = createGroup("plan.controls", list);
  const form = document.createElement("form");
  form.className = "tsl-form";
  form.noValidate = true;
  form.addEventListener("submit", (e) => (e.preventDefault(), run()));
  const run_ = button("plan.run", "plan-run");
  const compare = button("plan.compare", "plan-compare");
  const cancel = button("plan.cancel", "plan-cancel");
  cancel.disabled = true;
  const actions = document.createElement("div");
  actions.className = "tsl-plan-actions";
  actions.append(run_, compare, cancel);
  form.append(group.element, actions);
  const results = document.createElement("div");
  results.className = "tsl-results";
  host.classList.add("tsl-step", "tsl-planner");
  host.append(form, results);
  const view = createPlannerView(results, new Set(vocabularyOf(client).mesh_axes.map((a) => a.name)));
  // The planner starts from the lab's own model, cluster and sequence (as every other panel does), on 64 GPUs.
  const start = store.start();
  const named = (x: unknown, names: object) => (typeof x === "string" && x in names ? x : undefined);
  controls.get("model")!.write(named(start.model, presets.models) ?? Object.keys(presets.models)[0]);
  controls.get("cluster")!.write(named(start.cluster, presets.clusters) ?? presets.vocabulary.defaults.cluster);
  controls.get("gpus")!.write("64");
  const seq = Math.log2(Number(start.training?.seq_len ?? presets.vocabulary.defaults.training.seq_len));
  controls.get("seq_len")!.write(Number.isInteger(seq) ? seq : 12);

  // The search runs in parts, one per Worker (each its own wasm instance), on up to maxPlanWorkers cores; one Worker merges
  // the parts' states into the result one search gives (core planner.hpp, plan_search::merged_from_json).
  const parts = Math.max(1, Math.min(maxPlanWorkers, navigator.hardwareConcurrency || 1));
  let workers: Worker[] = [];
  // Made after first paint (and again after a cancel) and they load their wasm at once, so a run works offline later.
  const ensureWorkers = (): Worker[] => {
    if (workers.length === parts) return workers;
    workers = Array.from({ length: parts }, (_, part) => {
      const w = new Worker(new URL("../planner.worker.ts", import.meta.url), { type: "module" });
      w.onmessage = (e: MessageEvent<PlannerReply>) => onReply(e.data, part);
      // A Worker script that failed to load gives an event without a message: name the Worker instead of "undefined".
      w.onerror = (e) => {
        if (workers.includes(w)) dropWorkers(); // the next run tries fresh ones
        if (!run_.disabled) return; // a prefetch that failed: nothing to report until a run needs it
        finish();
        view.status(`${t("plan.status.error")}${e.message || t("lab.workerFailed")}`, true);
      };
      return w;
    });
    return workers;
  };
  const dropWorkers = () => {
    workers.forEach((w) => w.terminate());
    workers = [];
  };
  whenIdle(ensureWorkers);
  // The run in progress: its request (a merge repeats its scenario and options), each part's last progress and finished state.
  let request: Extract<PlannerRequest, { type: "run" }> | null = null;
  let progressOf: (PlanProgressReply | undefined)[] = [];
  let states: (string | null)[] = [];
  let serial = 0;
  let lastPlan: PlanResult | null = null;
  const read = (k: string) => String(controls.get(k)!.read()).trim();
  /** The GPU count as the reader types it: a whole number from 1 to the core's limit, else the field says so (and clears once fixed). */
  const checkGpus = (): boolean => {
    const text = read("gpus");
    const n = Number(text);
    const ok = /^\d+$/.test(text) && n >= 1 && n <= maxGpus;
    controls.get("gpus")!.setError(ok ? null : `${t("plan.gpus")} (options.gpus): ${t("plan.gpus.range", { max: maxGpus.toLocaleString("en-US") })}`);
    return ok;
  };
  form.addEventListener("input", (e) => {
    if ((e.target as HTMLElement).closest('[data-control="gpus"]')) checkGpus();
  });
  const setError = (message: string | null, path = "") =>
    showErrorAt(message === null ? null : { path, message }, controls, errorTargets, (m) => m !== null && view.status(m, true));

  const pick = (c: PlanCandidate) => {
    store.applyScenario(scenarioOfPlan(c), "planner");
    view.applied(c);
  };
  const finish = () => {
    request = null; // later replies of this run (other parts' progress or errors) change nothing
    run_.disabled = compare.disabled = false;
    cancel.disabled = true;
  };
  const showDone = (plan: PlanResult) => {
    const batch = t("plan.batch", {
      batch: plan.global_batch,
      seq: plan.seq_len,
      tokens: compactCount(plan.global_batch * plan.seq_len),
      source:
        plan.global_batch_source === "auto"
          ? t("plan.batch.auto", { rule: sayClauses(plan.global_batch_rule_msg, plan.global_batch_rule) })
          : t("plan.batch.scenario"),
    });
    const done = t("plan.status.done", {
      considered: plan.candidates_considered,
      evaluated: plan.candidates_evaluated,
      fitting: plan.candidates_fitting,
      timed: plan.candidates_timed,
      elapsed: duration(plan.elapsed_s),
    });
    view.status(`${done} · ${batch}`);
    controls.get("gpus")!.write(String(plan.gpus)); // the searched count (the lab's own world after Compare)
    view.render(plan, pick);
  };
  const onReply = (r: PlannerReply, part: number) => {
    if (r.id !== serial || !request) return;
    if (r.type === "progress") {
      progressOf[part] = r.progress;
      const p = sumProgress(progressOf, request.parts);
      const fraction = p.done ? 1 : p.layouts_total > 0 ? p.layouts_searched / p.layouts_total : 0;
      view.progress(
        fraction,
        t("plan.status.running", {
          considered: p.considered,
          evaluated: p.evaluated,
          fitting: p.fitting,
          done: p.layouts_searched,
          total: p.layouts_total,
        }),
      );
    } else if (r.type === "part") {
      states[part] = r.state;
      if (states.every((x) => x !== null))
        workers[0]!.postMessage({
          type: "merge",
          id: r.id,
          scenario: request.scenario,
          options: request.options,
          states: states as string[],
        } satisfies PlannerRequest);
    } else if (r.type === "result") {
      lastPlan = r.plan;
      finish();
      showDone(r.plan);
    } else {
      finish();
      setError(`${t("plan.status.error")}${sayError(r.path, r.msg, r.message)}`, r.path);
    }
  };

  /** The panel's settings as a scenario to search from. */
  function settingsScenario(): Scenario {
    const training: Record<string, unknown> = { seq_len: 2 ** Number(read("seq_len")) };
    if (read("global_batch") !== "") training.global_batch = num(read("global_batch"));
    // SP on, as Megatron runs TP (Korthikanti et al. arXiv 2205.05198); it changes nothing at tp 1.
    return { schema: "tslab/scenario@1", model: read("model"), cluster: read("cluster"), parallel: { sp: true }, training };
  }

  /**
   * The lab's configuration (every panel's scenario) searched on its own GPU count (no options.gpus: the core takes the
   * scenario's world, and the result's gpus fills the setting): every knob the planner does not search stays as the lab
   * has it, and the result sets the lab's plan against the best (the core's scenario_plan). The settings show what was
   * searched where they can (a preset name, a power-of-two sequence).
   */
  function compareWithLab(): void {
    const s = store.scenario();
    if (typeof s.model === "string") controls.get("model")!.write(s.model);
    if (typeof s.cluster === "string") controls.get("cluster")!.write(s.cluster);
    const seq = Number(s.training?.seq_len);
    if (Number.isInteger(Math.log2(seq))) controls.get("seq_len")!.write(Math.log2(seq));
    controls.get("global_batch")!.write(s.training?.global_batch === undefined ? "" : String(s.training.global_batch));
    run({ ...s, schema: "tslab/scenario@1" });
  }

  /** Searches `from` on its own GPU count, or the panel's settings on the GPUs the setting names. */
  function run(from?: Scenario): void {
    setError(null);
    const gpus = Number(read("gpus"));
    if (!from && !checkGpus()) return;
    const pool = ensureWorkers();
    serial += 1;
    // The core's own caps (options.max_candidates, whose default completes Kimi K2 up to 65,536 GPUs);
    // the Workers keep the page responsive and Cancel stops a search sooner.
    const options: PlanOptions = from ? {} : { gpus };
    const scenario = from ?? settingsScenario();
    // The page's loaded profile goes with the request: the worker's client applies it as this page's client does.
    const loaded = client.calibration();
    const calibration = loaded && { text: JSON.stringify(loaded.profile), fileName: loaded.fileName };
    request = { type: "run", id: serial, scenario, options, calibration, part: 0, parts: pool.length };
    progressOf = [];
    states = pool.map(() => null);
    pool.forEach((w, part) => w.postMessage({ ...request!, part }));
    view.progress(0, t("plan.status.running", { considered: 0, evaluated: 0, fitting: 0, done: 0, total: "…" }));
    run_.disabled = compare.disabled = true;
    cancel.disabled = false;
  }
  run_.addEventListener("click", () => run());
  compare.addEventListener("click", compareWithLab);
  cancel.addEventListener("click", () => {
    dropWorkers(); // the search runs in slices, but terminate frees the instances at once
    whenIdle(ensureWorkers);
    serial += 1;
    finish();
    view.status(t("plan.status.cancelled"));
    run_.focus();
  });
  onLangChange(() => {
    group.relabel();
    list.forEach((c) => c.relabel());
    run_.textContent = t("plan.run");
    compare.textContent = t("plan.compare");
    cancel.textContent = t("plan.cancel");
    if (lastPlan && !run_.disabled) showDone(lastPlan);
    else if (serial === 0) view.status(t("plan.status.idle")); // no search yet: the hint, in the new language
    if (controls.get("gpus")!.input.getAttribute("aria-invalid") === "true") checkGpus(); // its error, in the new language
  });
}

export const plannerPanel: Panel = {
  id: "planner",
  titleKey: "panel.planner",
  mount,
  // The fastest plan (empty until a search ends); the search's progress is the status line's own live region.
  headline: [
    { value: '[data-testid="plan-row"]:first-child .tsl-plan-cfg' },
    { value: '[data-testid="plan-row"]:first-child td:nth-of-type(2)' },
    { value: '[data-testid="plan-message"]' },
  ],
};
