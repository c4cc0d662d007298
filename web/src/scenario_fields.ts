// The scenario controls the memory and step panels share: each control's spec, the scenario path it shows and the edit it makes.
import type { TslabClient } from "./client";
import { numberOrText as num, type Control, type ControlSpec } from "./controls";
import type { MessageKey } from "./i18n";
import type { Scenario } from "./report";
import { valueAt, type ScenarioEvent, type ScenarioStore } from "./state";
import type { Vocabulary } from "./types/vocabulary";
import { choicesOf, defaultOf, vocabularyOf } from "./vocabulary";

type Value = string | number | boolean;

export interface ScenarioField {
  spec: ControlSpec;
  /** The scenario paths whose errors this control shows (the first is the one it edits). */
  paths: string[];
  /** The control's value for a scenario; a field the scenario leaves out shows the core's default. */
  show(s: Scenario): Value;
  /** The scenario edits for the control's value (undefined removes a field: the core's default applies). */
  changes(value: Value): [string, unknown][];
}

const named = (names: string[]) => names.map((value) => ({ value }));
/** The name a field shows when the scenario holds an object instead of a name: `key` of it ({ preset } for a model, { recipe } for a precision). */
const nameIn =
  (key: string) =>
  (x: unknown): Value =>
    typeof x === "object" && x !== null ? String((x as Record<string, unknown>)[key] ?? "") : String(x ?? "");
const presetName = nameIn("preset");

/** A field stored as is at `path` (shown through `toControl`, edited through `fromControl`). */
function plain(
  v: Vocabulary,
  spec: ControlSpec,
  path: string,
  toControl = (x: unknown): Value => String(x ?? ""),
  fromControl = (x: Value): unknown => x,
): ScenarioField {
  return { spec, paths: [path], show: (s) => toControl(valueAt(s, path) ?? defaultOf(v, path)), changes: (x) => [[path, fromControl(x)]] };
}

const degree = (v: Vocabulary, axis: string): ScenarioField =>
  plain(v, { kind: "number", key: axis, labelKey: `mem.${axis}` as MessageKey, min: 1, max: 1 << 20 }, `parallel.${axis}`, undefined, num);
const percent = (x: unknown): Value => Math.round(Number(x ?? 0) * 100);
const fraction = (x: Value): unknown => Number(x) / 100;
const seqShow = (k: number) => (2 ** k).toLocaleString("en-US");

/** Every scenario control the lab has, by control key. */
export function scenarioFields(client: TslabClient): Map<string, ScenarioField> {
  const v = vocabularyOf(client);
  const presets = client.presets();
  const list: ScenarioField[] = [
    plain(v, { kind: "select", key: "model", labelKey: "mem.model", choices: named(Object.keys(presets.models)) }, "model", presetName),
    plain(v, { kind: "select", key: "cluster", labelKey: "mem.cluster", choices: named(Object.keys(presets.clusters)) }, "cluster", presetName),
    ...["dp", "tp", "pp", "vpp", "ep", "cp"].map((axis) => degree(v, axis)),
    plain(v, { kind: "check", key: "sp", labelKey: "mem.sp" }, "parallel.sp", Boolean),
    plain(
      v,
      {
        kind: "select",
        key: "zero",
        labelKey: "mem.zero",
        choices: v.zero_stages.map((z) => ({ value: String(z.stage), labelKey: `mem.zero.${z.stage}`, label: z.label })),
      },
      "parallel.zero",
      undefined,
      Number,
    ),
    plain(v, { kind: "select", key: "schedule", labelKey: "mem.schedule", choices: choicesOf(v.schedules) }, "training.schedule"),
    plain(
      v,
      { kind: "range", key: "seq_len", labelKey: "mem.seq_len", min: 9, max: 20, step: 1, show: seqShow },
      "training.seq_len",
      (x) => Math.log2(Number(x)),
      (k) => 2 ** Number(k),
    ),
    plain(
      v,
      { kind: "range", key: "micro_batch", labelKey: "mem.micro_batch", min: 1, max: 32, step: 1, show: String },
      "training.micro_batch",
      Number,
    ),
    plain(
      v,
      { kind: "number", key: "global_batch", labelKey: "mem.global_batch", min: 1, max: 1e9, placeholder: "auto" },
      "training.global_batch",
      (x) => (x === undefined ? "" : String(x)),
      (x) => (String(x).trim() === "" ? undefined : num(x)),
    ),
    plain(v, { kind: "select", key: "recompute", labelKey: "mem.recompute", choices: choicesOf(v.recompute_modes, "opt") }, "training.recompute"),
    plain(v, { kind: "check", key: "flash", labelKey: "mem.flash" }, "training.flash_attention", Boolean),
    plain(
      v,
      { kind: "select", key: "precision", labelKey: "mem.precision", choices: choicesOf(v.precision_recipes) },
      "training.precision",
      nameIn("recipe"),
    ),
    plain(v, { kind: "select", key: "optimizer", labelKey: "mem.optimizer", choices: choicesOf(v.optimizers) }, "training.optimizer"),
    plain(
      v,
      { kind: "range", key: "offload_opt", labelKey: "mem.offload_opt", min: 0, max: 100, step: 5, show: (x) => `${x}%` },
      "training.offload.optimizer",
      percent,
      fraction,
    ),
    plain(v, { kind: "check", key: "offload_dpu", labelKey: "mem.offload_dpu" }, "training.offload.delayed_update", Boolean),
    plain(
      v,
      { kind: "range", key: "offload_act", labelKey: "mem.offload_act", min: 0, max: 100, step: 5, show: (x) => `${x}%` },
      "training.offload.activations",
      percent,
      fraction,
    ),
    overlapField(v.mesh_axes.map((a) => a.name)),
  ];
  return new Map(list.map((f) => [f.spec.key, f]));
}

/** One slider for the overlap of every mesh axis' communication with compute (training.overlap.<axis>). */
function overlapField(axes: string[]): ScenarioField {
  return {
    spec: { kind: "range", key: "overlap", labelKey: "step.overlap", min: 0, max: 95, step: 5, show: (x) => `${x}%` },
    paths: ["training.overlap"],
    show: (s) => percent(valueAt(s, "training.overlap.dp")),
    changes: (x) => axes.map((a) => [`training.overlap.${a}`, fraction(x)]),
  };
}

/** Error paths → control keys for the given controls (longest prefix wins); a path none of them shows goes to the general line. */
export function errorTargetsOf(fields: Map<string, ScenarioField>, keys: readonly string[]): [string, string][] {
  // No catch-all for "parallel" or "training": a field without its own control here (L6 has no vpp) is named in the
  // panel's general error line, at its path, instead of lighting up an unrelated control (DP for a VPP error).
  const out: [string, string][] = [["parallel.etp", "ep"]];
  for (const k of keys) for (const p of fields.get(k)!.paths) out.push([p, k]);
  return out;
}

/**
 * Binds a panel's controls to the store: an edit patches the one field it shows, any change of the
 * scenario (an edit elsewhere, an applied plan, a trial) rewrites the controls and calls `changed`.
 */
export function bindScenarioControls(
  store: ScenarioStore,
  panelId: string,
  form: HTMLFormElement,
  controls: Map<string, Control>,
  fields: Map<string, ScenarioField>,
  changed: (s: Scenario, e: ScenarioEvent) => void,
): (s: Scenario) => void {
  const { scenario, editScenario, subscribe } = store;
  const show = (s: Scenario) => {
    for (const [key, c] of controls) c.write(fields.get(key)!.show(s));
  };
  const onEdit = (e: Event) => {
    const key = (e.target as HTMLElement).closest<HTMLElement>("[data-control]")?.dataset.control;
    // A change fired on the form itself (the lab after a calibration load or removal): same scenario, new figures.
    if (!key) return changed(scenario(), { kind: "edit", source: "" });
    const field = key ? fields.get(key) : undefined;
    if (field && controls.has(key!)) editScenario(field.changes(controls.get(key!)!.read()), panelId);
  };
  form.dataset.scenarioBound = ""; // a link needs only the scenario to bring these controls back (lab_link.ts)
  form.addEventListener("input", onEdit);
  form.addEventListener("change", onEdit);
  subscribe((s, e) => {
    if (e.source !== panelId) show(s); // the control being typed in keeps its text
    changed(s, e);
  });
  return show;
}
