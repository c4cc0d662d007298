// Device mesh panel (ledger L5): degrees, axis order, nodes × GPUs → mesh() drawn by group; TP time from report().
import { errorText, ScenarioError, type TslabClient } from "../client";
import { createForm, type ControlForm, showErrorAt, type ControlSpec } from "../controls";
import { onLangChange, type MessageKey } from "../i18n";
import type { Scenario } from "../report";
import type { CommInReport, MeshAxis, MeshSpec } from "../types/mesh";
import { valueAt } from "../state";
import type { Scenario as Shared } from "../report";
import type { Vocabulary } from "../types/vocabulary";
import { defaultOf, vocabularyOf } from "../vocabulary";
import type { Panel, PanelContext } from "./panel";
import { createMeshView, type MeshView, type TpTime } from "./mesh_view";
import "./mesh.css";

/** The core's recommended order (innermost first) and its axes; `conflicting` moves the innermost axis (TP) outermost. */
function ordersOf(v: Vocabulary) {
  const recommended = v.recommended_order;
  const axes = recommended.split("-") as MeshAxis[];
  const outermost = (a: string) => [...axes.filter((x) => x !== a), a].join("-");
  return { recommended, axes, conflicting: outermost(axes[0]), variants: axes.slice(1, -1).map(outermost) };
}

/** Error paths of mesh() and report() → the control that caused them (longest prefix wins). */
const errorTargets = [
  ["dp", "dp"],
  ["tp", "tp"],
  ["pp", "pp"],
  ["ep", "ep"],
  ["cp", "cp"],
  ["order", "order"],
  ["gpus_per_node", "gpus_per_node"],
  ["nodes", "nodes"],
  ["parallel", "nodes"],
  ["parallel.dp", "dp"],
  ["parallel.tp", "tp"],
  ["parallel.pp", "pp"],
  ["parallel.ep", "ep"],
  ["parallel.cp", "cp"],
  ["parallel.order", "order"],
  ["cluster", "cluster"],
  ["cluster.gpus_per_node", "gpus_per_node"],
  ["cluster.nodes", "nodes"],
  ["model", "model"],
] as const;

/** A small plan whose 64 GPUs all fit on screen: DP 4 · TP 8 · PP 2 on DGX H100, in the recommended order. */
function defaultsOf(v: Vocabulary): Record<string, string | number | boolean> {
  return {
    dp: "4",
    tp: "8",
    pp: "2",
    ep: "1",
    cp: "1",
    model: "llama3-70b",
    cluster: "dgx-h100",
    order: v.recommended_order,
    gpus_per_node: "8",
    nodes: "",
    color: ordersOf(v).axes[0],
  };
}

/** The seed's trial: TP outermost, so each TP group of 8 lands on 4 nodes (2 GPUs on each). */
function trialOf(v: Vocabulary): Record<string, string | number | boolean> {
  return { ...defaultsOf(v), dp: "2", pp: "2", order: ordersOf(v).conflicting };
}

function specs(v: Vocabulary, models: string[], clusters: string[]): ControlSpec[][] {
  const degree = (key: MeshAxis): ControlSpec => ({ kind: "number", key, labelKey: `mem.${key}` as MessageKey, min: 1, max: 1 << 20 });
  const named = (names: string[]) => names.map((value) => ({ value }));
  const o = ordersOf(v);
  const axes = o.axes;
  return [
    axes.map(degree),
    [
      {
        kind: "select",
        key: "order",
        labelKey: "mesh.order",
        choices: [
          { value: o.recommended, labelKey: "mesh.order.default" as const },
          ...named(o.variants),
          { value: o.conflicting, labelKey: "mesh.order.conflict" as const },
        ],
      },
      { kind: "number", key: "gpus_per_node", labelKey: "mesh.gpn", min: 1, max: 1024 },
      { kind: "number", key: "nodes", labelKey: "mesh.nodes", min: 1, max: 1 << 20, placeholder: "auto" },
      { kind: "select", key: "color", labelKey: "mesh.colorBy", choices: axes.map((value) => ({ value })) },
      { kind: "select", key: "model", labelKey: "mesh.model", choices: named(models) },
      { kind: "select", key: "cluster", labelKey: "mem.cluster", choices: named(clusters) },
    ],
  ];
}

/** Integers typed by the user go in as numbers; anything else goes in verbatim so the core names the problem. */
function num(v: string | number | boolean): unknown {
  const s = String(v).trim();
  return /^-?\d+(\.\d+)?(e\d+)?$/i.test(s) ? Number(s) : s;
}

function meshSpec(axes: readonly MeshAxis[], v: (key: string) => string | number | boolean): MeshSpec {
  // sp as in the report scenario below, so the TP warning names the same collectives the timing uses.
  const spec: Record<string, unknown> = { order: v("order"), gpus_per_node: num(v("gpus_per_node")), sp: true };
  for (const axis of axes) spec[axis] = num(v(axis));
  if (String(v("nodes")).trim() !== "") spec.nodes = num(v("nodes"));
  // Enough listed ranks to colour every drawn GPU on any lab-sized world.
  spec.list_limit = 1 << 16;
  return spec as MeshSpec;
}

/** The same plan as a scenario; the cluster size follows from the plan so idle GPUs do not block the timing. */
function scenarioFor(axes: readonly MeshAxis[], v: (key: string) => string | number | boolean, order: string): Scenario {
  const parallel: Record<string, unknown> = { order, sp: true };
  for (const axis of axes) parallel[axis] = num(v(axis));
  return {
    schema: "tslab/scenario@1",
    model: String(v("model")),
    cluster: { preset: String(v("cluster")), gpus_per_node: num(v("gpus_per_node")) },
    parallel,
    training: {},
  };
}

/** TP traffic of one step from the report's communication inventory. */
export function tpTime(r: CommInReport, order: string): TpTime {
  const first = r.comm.items.find((i) => i.axis === "tp");
  const axis = r.comm.axes.find((a) => a.axis === "tp");
  return {
    order,
    step_s: axis?.step_time_s ?? 0,
    call_s: first?.time_s ?? 0,
    count: axis?.count ?? 0,
    link: first?.link ?? "intra",
  };
}

function buildForm(client: TslabClient): ControlForm {
  const presets = client.presets();
  const groups = specs(vocabularyOf(client), Object.keys(presets.models), Object.keys(presets.clusters));
  return createForm("mesh.controls", ["mesh.group.plan", "mesh.group.layout"], groups);
}

/** TP time of the plan in its order and in the recommended one; order is the mesh's full order (size-1 axes appended). */
function timeTp(client: TslabClient, view: MeshView, read: (key: string) => string | number | boolean, order: string): void {
  const { axes, recommended: best } = ordersOf(vocabularyOf(client));
  try {
    const current = tpTime(client.report(scenarioFor(axes, read, order)) as CommInReport, order);
    const recommended = tpTime(client.report(scenarioFor(axes, read, best)) as CommInReport, best);
    view.setTp({ current, recommended });
  } catch (e) {
    if (!(e instanceof ScenarioError)) throw e;
    view.setTp(null, errorText(e));
  }
}

function mount(host: HTMLElement, { client, store }: PanelContext): void {
  const vocab = vocabularyOf(client);
  const { axes } = ordersOf(vocab);
  const { element: form, controls, relabel } = buildForm(client);
  const results = document.createElement("div");
  results.className = "tsl-results";
  host.classList.add("tsl-l5", "tsl-meshp");
  host.append(form, results);
  const view = createMeshView(results, () => runTrial());
  const read = (key: string) => controls.get(key)!.read();

  let lastError: ScenarioError | null = null;
  const showError = (err: ScenarioError | null) => {
    lastError = err;
    showErrorAt(err, controls, errorTargets, view.setGeneralError);
  };
  const compute = () => {
    let order = vocab.recommended_order;
    try {
      const m = client.mesh(meshSpec(axes, read));
      order = m.order;
      view.render(m, read("color") as MeshAxis);
      showError(null);
      view.setStale(false);
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      showError(e);
      view.setStale(true); // the last good mesh stays, dimmed
      return;
    }
    timeTp(client, view, read, order);
  };
  let frame = 0;
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(() => ((frame = 0), compute()));
  };
  form.addEventListener("input", schedule);
  form.addEventListener("change", schedule);

  function runTrial(): void {
    if (frame) (cancelAnimationFrame(frame), (frame = 0));
    for (const [k, val] of Object.entries({ ...trialOf(vocab), cluster: read("cluster") })) controls.get(k)?.write(val);
    compute();
  }

  // The shared scenario sets the axes, model and cluster (and its order, if it names one) when they change or a plan is applied.
  const values = (sc: Shared) => meshValues(vocab, axes, sc);
  let shown = JSON.stringify(values(store.scenario()));
  store.subscribe((sc, e) => {
    const next = values(sc);
    if (JSON.stringify(next) === shown && e.kind !== "apply") return;
    shown = JSON.stringify(next);
    for (const [k, val] of Object.entries(next)) controls.get(k)?.write(val);
    compute();
  });
  onLangChange(() => {
    relabel();
    view.relabel();
    showError(lastError);
  });
  for (const [k, val] of Object.entries(defaultsOf(vocab))) controls.get(k)?.write(val);
  compute();
}

/** The mesh controls a shared scenario sets: model, cluster, the degrees and (when given) the order. */
function meshValues(v: Vocabulary, axes: readonly MeshAxis[], s: Shared): Record<string, string> {
  const name = (x: unknown) => (typeof x === "object" && x !== null ? String((x as { preset?: string }).preset ?? "") : String(x ?? ""));
  const out: Record<string, string> = { model: name(s.model), cluster: name(s.cluster ?? v.defaults.cluster) };
  for (const a of axes) out[a] = String(valueAt(s, `parallel.${a}`) ?? defaultOf(v, `parallel.${a}`) ?? "");
  const order = valueAt(s, "parallel.order");
  if (typeof order === "string") out.order = order;
  return out;
}

export const meshPanel: Panel = {
  id: "mesh",
  titleKey: "panel.mesh",
  mount,
  headline: [
    { value: '[data-testid="tp-recommended"] strong', labelled: true },
    { value: '[data-testid="tp-current"] strong', labelled: true },
    { value: ".tsl-tp-none" },
  ],
};
