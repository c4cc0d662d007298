// Step panel (ledgers L1..L9): controls → scenario → report().step → headline box, step-time bar and ledger table.
import { ScenarioError, type TslabClient } from "../client";
import { createForm, numberOrText as num, showErrorAt, type ControlSpec } from "../controls";
import { onLangChange, t, type MessageKey } from "../i18n";
import type { Scenario } from "../report";
import { subscribe, type SharedConfig } from "../state";
import type { StepInReport } from "../types/step";
import type { Panel } from "./panel";
import { createStepView } from "./step_view";
import "./step.css";

const schedules = ["1f1b", "gpipe", "interleaved", "zb-h1", "zb-h2", "zbv", "dualpipe", "dualpipev"];
const recipes = ["bf16-mixed", "bf16-fp32-grads", "fp16-mixed", "fp8-mixed", "fp32"];

/** Error paths from the core → the control that caused them (longest prefix wins). */
const errorTargets = [
  ["model", "model"], ["cluster", "cluster"], ["parallel", "dp"], ["parallel.dp", "dp"], ["parallel.tp", "tp"],
  ["parallel.pp", "pp"], ["parallel.vpp", "vpp"], ["parallel.ep", "ep"], ["parallel.etp", "ep"], ["parallel.cp", "cp"],
  ["parallel.sp", "sp"], ["parallel.zero", "zero"], ["training", "micro_batch"], ["training.seq_len", "seq_len"], ["training.micro_batch", "micro_batch"],
  ["training.global_batch", "global_batch"], ["training.recompute", "recompute"], ["training.schedule", "schedule"],
  ["training.precision", "precision"], ["training.overlap", "overlap"],
] as const;

/** The memory panel's starting plan: llama3-70b DP8 TP8 PP4 on DGX H100 (Megatron-style 3D layout). */
const defaults: Record<string, string | number | boolean> = {
  model: "llama3-70b", cluster: "dgx-h100", dp: "8", tp: "8", pp: "4", vpp: "1", ep: "1", cp: "1", sp: true, zero: "0",
  micro_batch: 1, seq_len: 11, global_batch: "", recompute: "none", schedule: "1f1b", precision: "bf16-mixed", overlap: 0,
};

function specs(models: string[], clusters: string[]): ControlSpec[][] {
  const named = (names: string[]) => names.map((value) => ({ value }));
  const degree = (key: string, labelKey: MessageKey): ControlSpec => ({ kind: "number", key, labelKey, min: 1, max: 1 << 20 });
  return [
    [
      { kind: "select", key: "model", labelKey: "mem.model", choices: named(models) },
      { kind: "select", key: "cluster", labelKey: "mem.cluster", choices: named(clusters) },
    ],
    [
      degree("dp", "mem.dp"), degree("tp", "mem.tp"), degree("pp", "mem.pp"), degree("vpp", "mem.vpp"), degree("ep", "mem.ep"),
      degree("cp", "mem.cp"), { kind: "check", key: "sp", labelKey: "mem.sp" },
      { kind: "select", key: "zero", labelKey: "mem.zero", choices: ([0, 1, 2, 3] as const).map((z) => ({ value: String(z), labelKey: `mem.zero.${z}` as const })) },
      { kind: "select", key: "schedule", labelKey: "mem.schedule", choices: named(schedules) },
    ],
    [
      { kind: "range", key: "seq_len", labelKey: "mem.seq_len", min: 9, max: 20, step: 1, show: (k) => (2 ** k).toLocaleString("en-US") },
      { kind: "range", key: "micro_batch", labelKey: "mem.micro_batch", min: 1, max: 32, step: 1, show: String },
      { kind: "number", key: "global_batch", labelKey: "mem.global_batch", min: 1, max: 1e9, placeholder: "auto" },
      { kind: "select", key: "recompute", labelKey: "mem.recompute",
        choices: (["none", "selective", "full"] as const).map((v) => ({ value: v, labelKey: `opt.${v}` as const })) },
      { kind: "select", key: "precision", labelKey: "mem.precision", choices: named(recipes) },
      { kind: "range", key: "overlap", labelKey: "step.overlap", min: 0, max: 95, step: 5, show: (v) => `${v}%` },
    ],
  ];
}

function buildScenario(v: (key: string) => string | number | boolean): Scenario {
  const o = Number(v("overlap")) / 100;
  const training: Record<string, unknown> = {
    seq_len: 2 ** Number(v("seq_len")), micro_batch: v("micro_batch"), recompute: v("recompute"), schedule: v("schedule"),
    precision: v("precision"), overlap: { dp: o, tp: o, pp: o, ep: o, cp: o },
  };
  if (String(v("global_batch")).trim() !== "") training.global_batch = num(v("global_batch"));
  const parallel: Record<string, unknown> = { sp: v("sp"), zero: Number(v("zero")) };
  for (const axis of ["dp", "tp", "pp", "vpp", "ep", "cp"]) parallel[axis] = num(v(axis));
  return { schema: "tslab/scenario@1", model: String(v("model")), cluster: String(v("cluster")), parallel, training };
}

function buildForm(client: TslabClient) {
  const presets = client.presets();
  const groups = specs(Object.keys(presets.models), Object.keys(presets.clusters));
  const f = createForm("step.controls", ["step.group.model", "step.group.parallel", "step.group.training"], groups);
  return { form: f.element, controls: f.controls, relabel: f.relabel };
}

/** The two one-click trials and the before → after bottleneck sentences they leave behind. */
function buildTrials(run: (which: "recompute" | "tp") => void) {
  const wrap = document.createElement("div");
  wrap.className = "tsl-trial tsl-step-trials";
  const buttons = (["recompute", "tp"] as const).map((which) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "tsl-trial-button";
    b.dataset.testid = `trial-${which}`;
    b.addEventListener("click", () => run(which));
    return b;
  });
  const result = document.createElement("div");
  result.className = "tsl-trial-result";
  result.dataset.testid = "trial-result";
  result.setAttribute("aria-live", "polite");
  result.hidden = true;
  wrap.append(...buttons, result);
  const relabel = () => {
    buttons[0].textContent = t("step.trial.recompute");
    buttons[1].textContent = t("step.trial.tp");
  };
  relabel();
  const show = (before: string, after: string) => {
    const row = (key: MessageKey, text: string, id: string) => {
      const p = document.createElement("p");
      const b = document.createElement("strong");
      b.textContent = `${t(key)}: `;
      const s = document.createElement("span");
      s.textContent = text;
      s.dataset.testid = id;
      p.append(b, s);
      return p;
    };
    result.replaceChildren(row("step.trial.before", before, "trial-before"), row("step.trial.after", after, "trial-after"));
    result.hidden = false;
  };
  return { element: wrap, relabel, show, clear: () => (result.hidden = true) };
}

function mount(host: HTMLElement, { client }: { client: TslabClient }): void {
  const { form, controls, relabel } = buildForm(client);
  const results = document.createElement("div");
  results.className = "tsl-results";
  host.classList.add("tsl-step");
  const trials = buildTrials((which) => runTrial(which));
  host.append(form, results);
  results.append(trials.element);
  const view = createStepView(results);
  const read = (key: string) => controls.get(key)!.read();
  const writeAll = (values: Record<string, string | number | boolean>) => {
    for (const [k, val] of Object.entries(values)) controls.get(k)?.write(val);
  };

  let lastError: ScenarioError | null = null;
  let last: StepInReport | null = null;
  const showError = (err: ScenarioError | null) => {
    lastError = err;
    showErrorAt(err && { path: err.path, message: err.message }, controls, errorTargets, view.setGeneralError);
  };
  const compute = (): StepInReport | null => {
    try {
      const r = client.report(buildScenario(read)) as StepInReport;
      showError(null);
      view.render(r);
      view.setStale(false);
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
  const schedule = () => {
    trials.clear();
    if (!frame) frame = requestAnimationFrame(() => ((frame = 0), compute()));
  };
  form.addEventListener("input", schedule);
  form.addEventListener("change", schedule);

  function runTrial(which: "recompute" | "tp"): void {
    if (frame) cancelAnimationFrame(frame), (frame = 0);
    const before = last ?? compute();
    if (which === "recompute") writeAll({ recompute: read("recompute") === "full" ? "none" : "full" });
    else writeAll({ tp: "16", dp: String(Math.max(1, Math.floor(Number(read("dp")) / 2) || 1)) });
    const after = compute();
    if (before && after) trials.show(before.step.bottleneck, after.step.bottleneck);
  }

  // An applied plan sets every control the planner ranked it with, so this panel's step time is the planner's.
  subscribe((c: SharedConfig) => {
    const p = c.parallel;
    writeAll({ model: c.model, cluster: c.cluster, dp: String(p.dp), tp: String(p.tp), pp: String(p.pp), vpp: String(p.vpp),
      ep: String(p.ep), cp: String(p.cp), zero: String(p.zero), sp: c.sp, micro_batch: c.micro_batch, recompute: c.recompute,
      schedule: c.schedule, seq_len: Math.log2(c.seq_len), global_batch: String(c.global_batch), overlap: 0 });
    trials.clear();
    compute();
  });
  onLangChange(() => {
    relabel();
    trials.relabel();
    view.relabel();
    showError(lastError);
  });
  writeAll(defaults);
  compute();
}

export const stepPanel: Panel = { id: "step", titleKey: "panel.step", mount };
