// Memory panel (ledgers L1 model state + L2 activations): controls → scenario → report → view.
import { ScenarioError, type TslabClient } from "../client";
import { createForm, type ControlForm, controlForPath, numberOrText, type ControlSpec } from "../controls";
import { onLangChange, t } from "../i18n";
import type { Report, Scenario } from "../report";
import { subscribe } from "../state";
import type { Panel } from "./panel";
import { createMemoryView, modelStateBytes } from "./memory_view";

const schedules = ["1f1b", "gpipe", "interleaved", "zb-h1", "zb-h2", "zbv", "dualpipe", "dualpipev"];
const recipes = ["bf16-mixed", "bf16-fp32-grads", "fp16-mixed", "fp8-mixed", "fp32"];
const optimizers = ["adamw", "adam", "sgd", "muon", "adafactor"];

/** Error paths from the core → the control that caused them (longest prefix wins). */
const errorTargets = [
  ["model", "model"], ["cluster", "cluster"],
  ["parallel", "dp"], ["parallel.dp", "dp"], ["parallel.tp", "tp"], ["parallel.pp", "pp"], ["parallel.vpp", "vpp"],
  ["parallel.ep", "ep"], ["parallel.etp", "ep"], ["parallel.cp", "cp"], ["parallel.sp", "sp"], ["parallel.zero", "zero"],
  ["training", "micro_batch"], ["training.seq_len", "seq_len"], ["training.micro_batch", "micro_batch"],
  ["training.global_batch", "global_batch"], ["training.recompute", "recompute"],
  ["training.flash_attention", "flash"], ["training.precision", "precision"], ["training.optimizer", "optimizer"],
  ["training.offload", "offload_opt"], ["training.offload.activations", "offload_act"], ["training.schedule", "schedule"],
] as const;

/** The starting point: the sample 3D-parallel llama3-70b plan on DGX H100 (fits, ZeRO off). */
const defaults: Record<string, string | number | boolean> = {
  model: "llama3-70b", cluster: "dgx-h100", dp: "8", tp: "8", pp: "4", vpp: "1", ep: "1", cp: "1", sp: true,
  zero: "0", micro_batch: 1, global_batch: "", seq_len: 12, recompute: "none", flash: true,
  precision: "bf16-mixed", optimizer: "adamw", offload_opt: 0, offload_act: 0, schedule: "1f1b",
};

/** ZeRO's worked example scaled to 70B: DP 64 shards the 16P model state 64 ways (arXiv 1910.02054, Fig. 1). */
const trial: Record<string, string | number | boolean> = {
  ...defaults, dp: "64", tp: "1", pp: "1", sp: false, zero: "3", recompute: "full",
};

function specs(presetNames: { models: string[]; clusters: string[] }): ControlSpec[][] {
  const named = (names: string[]) => names.map((value) => ({ value }));
  const degree = (key: string, labelKey: Parameters<typeof t>[0]): ControlSpec => ({ kind: "number", key, labelKey, min: 1, max: 1 << 20 });
  return [
    [
      { kind: "select", key: "model", labelKey: "mem.model", choices: named(presetNames.models) },
      { kind: "select", key: "cluster", labelKey: "mem.cluster", choices: named(presetNames.clusters) },
    ],
    [
      degree("dp", "mem.dp"), degree("tp", "mem.tp"), degree("pp", "mem.pp"), degree("vpp", "mem.vpp"),
      degree("ep", "mem.ep"), degree("cp", "mem.cp"),
      { kind: "select", key: "zero", labelKey: "mem.zero", choices: ([0, 1, 2, 3] as const).map((z) => ({ value: String(z), labelKey: `mem.zero.${z}` as const })) },
      { kind: "check", key: "sp", labelKey: "mem.sp" },
      { kind: "select", key: "schedule", labelKey: "mem.schedule", choices: named(schedules) },
    ],
    [
      { kind: "range", key: "seq_len", labelKey: "mem.seq_len", min: 9, max: 20, step: 1, show: (k) => (2 ** k).toLocaleString("en-US") },
      { kind: "range", key: "micro_batch", labelKey: "mem.micro_batch", min: 1, max: 32, step: 1, show: String },
      { kind: "number", key: "global_batch", labelKey: "mem.global_batch", min: 1, max: 1e9, placeholder: "auto" },
      { kind: "select", key: "recompute", labelKey: "mem.recompute", choices: (["none", "selective", "full"] as const).map((v) => ({ value: v, labelKey: `opt.${v}` as const })) },
      { kind: "check", key: "flash", labelKey: "mem.flash" },
      { kind: "select", key: "precision", labelKey: "mem.precision", choices: named(recipes) },
      { kind: "select", key: "optimizer", labelKey: "mem.optimizer", choices: named(optimizers) },
      { kind: "range", key: "offload_opt", labelKey: "mem.offload_opt", min: 0, max: 100, step: 5, show: (v) => `${v}%` },
      { kind: "range", key: "offload_act", labelKey: "mem.offload_act", min: 0, max: 100, step: 5, show: (v) => `${v}%` },
    ],
  ];
}

const num = numberOrText;

function buildScenario(v: (key: string) => string | number | boolean): Scenario {
  const training: Record<string, unknown> = {
    seq_len: 2 ** Number(v("seq_len")), micro_batch: v("micro_batch"), recompute: v("recompute"),
    flash_attention: v("flash"), precision: v("precision"), optimizer: v("optimizer"),
    offload: { optimizer: Number(v("offload_opt")) / 100, activations: Number(v("offload_act")) / 100 },
    schedule: v("schedule"),
  };
  if (String(v("global_batch")).trim() !== "") training.global_batch = num(v("global_batch"));
  const parallel: Record<string, unknown> = { sp: v("sp"), zero: Number(v("zero")) };
  for (const axis of ["dp", "tp", "pp", "vpp", "ep", "cp"]) parallel[axis] = num(v(axis));
  return { schema: "tslab/scenario@1", model: String(v("model")), cluster: String(v("cluster")), parallel, training };
}

function buildForm(client: TslabClient): ControlForm {
  const presets = client.presets();
  const groups = specs({ models: Object.keys(presets.models), clusters: Object.keys(presets.clusters) });
  return createForm("mem.controls", ["mem.group.model", "mem.group.parallel", "mem.group.training"], groups);
}

function mount(host: HTMLElement, { client }: { client: TslabClient }): void {
  const { element: form, controls, relabel } = buildForm(client);
  const results = document.createElement("div");
  results.className = "tsl-results";
  host.classList.add("tsl-mem");
  host.append(form, results);
  const view = createMemoryView(results, () => runTrial());
  const read = (key: string) => controls.get(key)!.read();
  const writeAll = (values: Record<string, string | number | boolean>) => {
    for (const [k, val] of Object.entries(values)) controls.get(k)?.write(val);
  };

  let lastError: ScenarioError | null = null;
  const showError = (err: ScenarioError | null) => {
    for (const c of controls.values()) c.setError(null);
    view.setGeneralError(null);
    lastError = err;
    const target = err && controlForPath(err.path, errorTargets);
    if (err && target && controls.has(target)) controls.get(target)!.setError(err.message);
    else if (err) view.setGeneralError(err.message);
  };
  const compute = (): Report | null => {
    try {
      const r = client.report(buildScenario(read));
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
  // Coalesce bursts of input events (a dragged slider) into one report per frame.
  let frame = 0;
  const schedule = () => {
    view.clearTrial();
    if (!frame) frame = requestAnimationFrame(() => ((frame = 0), compute()));
  };
  form.addEventListener("input", schedule);
  form.addEventListener("change", schedule);

  function runTrial(): void {
    if (frame) cancelAnimationFrame(frame), (frame = 0);
    writeAll({ ...trial, cluster: read("cluster") });
    const replicated = client.report(buildScenario((k) => (k === "zero" ? "0" : read(k))));
    const after = compute();
    if (after) view.showTrial(modelStateBytes(replicated), after, Number(trial.dp));
  }

  // A plan applied from the planner sets its knobs, and the training defaults the planner ranked it
  // with (precision, optimizer, Flash, no offload), so the total matches the planner's memory.
  subscribe(({ model, cluster, parallel: p, sp, micro_batch, recompute, schedule: sched, seq_len, global_batch }) => {
    const { flash, precision, optimizer, offload_opt, offload_act } = defaults;
    writeAll({ model, cluster, dp: String(p.dp), tp: String(p.tp), pp: String(p.pp), vpp: String(p.vpp), ep: String(p.ep),
      cp: String(p.cp), zero: String(p.zero), sp, micro_batch, recompute, schedule: sched, seq_len: Math.log2(seq_len),
      global_batch: String(global_batch), flash, precision, optimizer, offload_opt, offload_act });
    view.clearTrial();
    compute();
  });
  onLangChange(() => {
    relabel();
    view.relabel();
    showError(lastError);
  });
  writeAll(defaults);
  compute();
}

export const memoryPanel: Panel = { id: "memory", titleKey: "panel.memory", mount };
