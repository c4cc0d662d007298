// Communication panel (ledger L5): one collective timed by collective() with an overlap slider; the step's inventory from report().
import { errorText, ScenarioError, type TslabClient } from "../client";
import { createForm, showErrorAt, type Control, type ControlSpec } from "../controls";
import { binaryBytes } from "../format";
import { onLangChange, t } from "../i18n";
import type { Scenario } from "../report";
import { valueAt } from "../state";
import type { CollectiveSpec, CommInReport } from "../types/mesh";
import type { Vocabulary } from "../types/vocabulary";
import { defaultOf, fullestRecompute, vocabularyOf } from "../vocabulary";
import type { Panel, PanelContext } from "./panel";
import { createCommView, type CommView } from "./comm_view";
import "./mesh.css";
import "./comm.css";

const links = ["nodes", "intra_node", "inter_node", "custom"] as const;

/** Error paths of collective() and report() → the control that caused them. */
const errorTargets = [
  ["op", "op"], // not-a-vocabulary-name: the collective spec's "op" field
  ["algorithm", "op"], // not-a-vocabulary-name: its control
  ["bytes", "bytes"],
  ["ranks", "ranks"],
  ["ranks_per_node", "ranks"],
  ["link", "link"],
  ["link.bandwidth_Bps", "bw"],
  ["link.latency_s", "lat"],
  ["cluster", "cluster"],
  ["overlap", "overlap"],
] as const;

type InventoryScenario = Omit<Scenario, "training"> & { training: Record<string, unknown> };

/** The inventory scenarios: dense 3D, ZeRO-3, a large MoE with EP across nodes, long-context CP (the last two with full recompute). */
function inventoryScenarios(v: Vocabulary): Record<string, InventoryScenario> {
  const full = fullestRecompute(v);
  return {
    "3d": { model: "llama3-70b", cluster: "dgx-h100", parallel: { dp: 8, tp: 8, pp: 4, sp: true }, training: {} },
    zero3: { model: "llama3-70b", cluster: "dgx-h100", parallel: { dp: 64, zero: 3 }, training: { recompute: full } },
    moe: { model: "deepseek-v3", cluster: "hgx-h800", parallel: { dp: 64, pp: 16, ep: 64 }, training: {} },
    cp: {
      model: "llama3-70b",
      cluster: "dgx-h100",
      parallel: { dp: 2, tp: 8, cp: 4, pp: 2, sp: true },
      training: { seq_len: 131072, recompute: full },
    },
  };
}
const inventoryKeys = ["3d", "zero3", "moe", "cp"];

const defaults: Record<string, string | number | boolean> = {
  op: "allreduce",
  bytes: 28,
  ranks: "8",
  overlap: 0,
  link: "nodes",
  cluster: "dgx-h100",
  bw: "50",
  lat: "5",
  scenario: "applied",
};

/** ops: the core's collective op names (presets().vocabulary.collectives). */
function specs(clusters: string[], ops: string[]): ControlSpec[][] {
  return [
    [
      { kind: "select", key: "op", labelKey: "comm.op", choices: ops.map((value) => ({ value })) }, // not-a-vocabulary-name: the collective spec's "op" field
      { kind: "range", key: "bytes", labelKey: "comm.bytes", min: 10, max: 34, step: 1, show: (k) => binaryBytes(2 ** k) },
      { kind: "number", key: "ranks", labelKey: "comm.ranks", min: 2, max: 1 << 20 },
      { kind: "range", key: "overlap", labelKey: "comm.overlap", min: 0, max: 95, step: 5, show: (v) => `${v}%` },
    ],
    [
      { kind: "select", key: "link", labelKey: "comm.link", choices: links.map((value) => ({ value, labelKey: `comm.link.${value}` as const })) },
      { kind: "select", key: "cluster", labelKey: "comm.cluster", choices: clusters.map((value) => ({ value })) },
      { kind: "number", key: "bw", labelKey: "comm.bw", min: 0, max: 1e7 },
      { kind: "number", key: "lat", labelKey: "comm.lat", min: 0, max: 1e6 },
    ],
    [
      {
        kind: "select",
        key: "scenario",
        labelKey: "comm.scenario",
        choices: inventoryKeys.map((value) => ({ value, labelKey: `comm.scn.${value}` as "comm.scn.3d" })),
      },
    ],
  ];
}

/** Numbers typed by the user go in as numbers; anything else goes in verbatim so the core names the problem. */
function num(v: string | number | boolean, scale = 1): unknown {
  const s = String(v).trim();
  return /^-?\d+(\.\d+)?(e-?\d+)?$/i.test(s) ? Number(s) * scale : s;
}

function collectiveSpec(v: (key: string) => string | number | boolean): CollectiveSpec {
  const spec: Record<string, unknown> = {
    op: v("op"), // not-a-vocabulary-name: the collective spec's "op" field
    bytes: 2 ** Number(v("bytes")),
    ranks: num(v("ranks")),
    cluster: v("cluster"),
    overlap: Number(v("overlap")) / 100,
  };
  const link = v("link");
  if (link === "intra_node" || link === "inter_node") spec.link = link;
  if (link === "custom") spec.link = { bandwidth_Bps: num(v("bw"), 1e9), latency_s: num(v("lat"), 1e-6) };
  return spec as unknown as CollectiveSpec;
}

/**
 * "llama3-70b DP8 TP8 PP4 EP1 CP1 · seq 4,096": a scenario's own degrees and sequence, a field it leaves out at the core's
 * default, so an entry's label always says what it runs (the 3D example once read like the lab's plan at another length).
 */
function configLabel(v: Vocabulary, s: Scenario): string {
  const at = (path: string) => valueAt(s, path) ?? defaultOf(v, path);
  const d = (axis: string) => String(at(`parallel.${axis}`) ?? 1);
  const model = typeof s.model === "string" ? s.model : String((s.model as { name?: string }).name ?? "");
  return `${model} DP${d("dp")} TP${d("tp")} PP${d("pp")} EP${d("ep")} CP${d("cp")} · seq ${Number(at("training.seq_len")).toLocaleString("en-US")}`;
}

function inventoryScenario(v: Vocabulary, key: string, overlapPct: number, applied: Scenario): Scenario {
  const listed = inventoryScenarios(v);
  const s = key === "applied" ? applied : (listed[key] ?? listed["3d"]);
  const o = overlapPct / 100;
  return { schema: "tslab/scenario@1", ...s, training: { ...s.training, overlap: { dp: o, tp: o, pp: o, ep: o, cp: o } } };
}

function buildForm(client: TslabClient) {
  const groups = specs(
    Object.keys(client.presets().clusters),
    vocabularyOf(client).collectives.map((c) => c.name),
  );
  return createForm("comm.controls", ["comm.group.op", "comm.group.link", "comm.group.inventory"], groups);
}

/** Bandwidth and latency only for a custom link; the cluster (the source of the tiers) otherwise. */
function showLinkFields(controls: Map<string, Control>): void {
  const on = controls.get("link")!.read() === "custom";
  controls.get("bw")!.field.hidden = !on;
  controls.get("lat")!.field.hidden = !on;
  controls.get("cluster")!.field.hidden = on;
}

/** Rebuilds the inventory only when its scenario, the overlap or the applied plan changed (one report per change). */
function inventoryUpdater(
  client: TslabClient,
  view: CommView,
  read: (key: string) => string | number | boolean,
  applied: () => { config: Scenario; serial: number },
): () => void {
  let shown = "";
  return () => {
    const a = applied();
    const key = `${read("scenario")}@${read("overlap")}#${a.serial}`;
    if (key === shown) return;
    shown = key;
    try {
      view.renderInventory(
        client.report(inventoryScenario(vocabularyOf(client), String(read("scenario")), Number(read("overlap")), a.config)) as CommInReport,
      );
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      view.renderInventory(null, errorText(e));
    }
  };
}

function mount(host: HTMLElement, { client, store }: PanelContext): void {
  const { element: form, controls, relabel } = buildForm(client);
  const results = document.createElement("div");
  results.className = "tsl-results";
  host.classList.add("tsl-l5", "tsl-commp");
  host.append(form, results);
  const view = createCommView(results, () => runTrial());
  const read = (key: string) => controls.get(key)!.read();

  let lastError: ScenarioError | null = null;
  const showError = (err: ScenarioError | null) => {
    lastError = err;
    showErrorAt(err, controls, errorTargets, view.setGeneralError);
  };
  // The inventory's first entry is the lab's own scenario (the default), following every edit; an applied plan selects it
  // again. The examples after it are labelled from their own scenarios.
  const v = vocabularyOf(client);
  let applied: Scenario = store.scenario();
  let appliedSerial = 0;
  const inventory = inventoryUpdater(client, view, read, () => ({ config: applied, serial: appliedSerial }));
  const scenarioSelect = controls.get("scenario")!.input as HTMLSelectElement;
  const appliedOption = new Option("", "applied");
  scenarioSelect.prepend(appliedOption);
  const labelOptions = () => {
    appliedOption.text = t("comm.scn.applied", { config: configLabel(v, applied) });
    const listed = inventoryScenarios(v);
    for (const o of scenarioSelect.options)
      if (o.value in listed) o.text = `${t(`comm.scn.${o.value}` as "comm.scn.3d")} · ${configLabel(v, listed[o.value])}`;
  };
  store.subscribe((sc, e) => {
    applied = sc;
    appliedSerial += 1;
    labelOptions();
    if (e.kind === "apply") (controls.get("scenario")!.write("applied"), view.clearTrial());
    compute();
  });
  const compute = (): boolean => {
    showLinkFields(controls);
    inventory();
    try {
      view.render(client.collective(collectiveSpec(read)));
      showError(null);
      view.setStale(false);
      return true;
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      showError(e);
      view.setStale(true); // the last good result stays, dimmed
      return false;
    }
  };
  let frame = 0;
  const schedule = () => {
    view.clearTrial();
    if (!frame) frame = requestAnimationFrame(() => ((frame = 0), compute()));
  };
  form.addEventListener("input", schedule);
  form.addEventListener("change", schedule);

  function runTrial(): void {
    if (frame) (cancelAnimationFrame(frame), (frame = 0));
    const overlap = controls.get("overlap")!;
    if (Number(overlap.read()) >= 95) overlap.write(0);
    const from = Number(overlap.read());
    if (!compute()) return;
    const before = view.current();
    overlap.write(95);
    if (compute() && before) view.showTrial(from, before);
  }

  onLangChange(() => {
    relabel();
    labelOptions();
    view.relabel();
    showError(lastError);
  });
  labelOptions();
  for (const [k, val] of Object.entries(defaults)) controls.get(k)?.write(val);
  compute();
}

export const commPanel: Panel = {
  id: "comm",
  titleKey: "panel.comm",
  mount,
  headline: [
    { value: '[data-testid="algorithm"]' },
    { value: '[data-testid="comm-time"] strong', labelled: true },
    { value: '[data-testid="exposed"] strong', labelled: true },
  ],
};
