// Compile-only check of the hand-kept facade types (web/src/tslab.d.ts): run by `npm run test:types`.
import createTslab, { type Outcome, type PlanProgress, type TslabModule, type TslabModuleOptions } from "../../web/src/wasm/tslab.mjs";
import { ScenarioError, withCalibration, type TslabClient } from "../../web/src/client";
import type { CalibrationSummary, LoadedCalibration, ProbeCheck, ReplacedFigure, Validation } from "../../web/src/types/calibration";
import type { Presets, Report, Scenario } from "../../web/src/report";
import type { CollectiveResult, CommInReport, MeshResult } from "../../web/src/types/mesh";
import type { OpKind, ScheduleResult, ScheduleSpec, ScheduleTrace } from "../../web/src/types/pipeline";
import type { LedgerId, PlannerReply, PlannerRequest, PlanResult, StepInReport } from "../../web/src/types/step";
import { createStore, type ScenarioEvent } from "../../web/src/state";

export async function usage(bytes: Uint8Array): Promise<number> {
  const options: TslabModuleOptions = { wasmBinary: bytes, locateFile: (p, dir) => dir + p };
  const mod: TslabModule = await createTslab(options);
  const text: string = mod.report(JSON.stringify({ model: "llama3-70b" })).value;
  const presets: string = mod.presets().value;
  // @ts-expect-error report takes JSON text, not an object
  mod.report({ model: "llama3-70b" });
  // @ts-expect-error presets takes no argument
  mod.presets("models");
  // @ts-expect-error the facade has no class handles to delete()
  mod.delete();
  // @ts-expect-error wasmBinary is bytes, not a path
  await createTslab({ wasmBinary: "tslab.wasm" });
  const summary: string = mod.validateProfile("{}").value;
  const check: string = mod.validation("{}", "").value;
  // @ts-expect-error validation needs the scenario text ("" for none)
  mod.validation("{}");
  // @ts-expect-error validateProfile takes JSON text, not a parsed object
  mod.validateProfile({ schema: "tslab/calibration@1" });
  // Every entry point returns an Outcome: never a throw across the wasm boundary.
  const outcome: Outcome = mod.loadProfile("lab", "{}");
  const failed: string = outcome.ok ? "" : outcome.error;
  const kept: Outcome = mod.loadedValidation("lab", "");
  mod.dropProfile("lab");
  const limits: { max_bytes: number } = JSON.parse(mod.inputLimits());
  const stats: { stack_pointer: number; heap_in_use: number } = JSON.parse(mod.memoryStats());
  // @ts-expect-error an Outcome is not the JSON text itself
  const notText: string = mod.report("{}");
  void [failed, kept, limits, stats, notText];
  return text.length + presets.length + summary.length + check.length;
}

export function calibrationUsage(client: TslabClient, scenario: Scenario, text: string): number {
  const s: CalibrationSummary = client.validateProfile(text);
  const loaded: LoadedCalibration = client.loadCalibration(text, "profile.json");
  const v: Validation = client.validation();
  const byCluster: Validation = client.validation(scenario);
  const current: LoadedCalibration | null = client.calibration();
  client.onCalibrationChange((c) => void c?.summary.source);
  client.clearCalibration();
  const spec: { cluster: string; op: string } = client.calibrated({ cluster: "dgx-h100", op: "allreduce" });
  const withProfile: Scenario = withCalibration(scenario, loaded.profile);
  const widths = s.replaces.map((f) => (f.id === "gemm" ? f.flops_per_s_max : f.bandwidth_Bps));
  const source: string = client.report(scenario).scenario.source;
  // @ts-expect-error a gemm figure has no bandwidth
  const bad: number = (s.replaces[0] as Extract<ReplacedFigure, { id: "gemm" }>).bandwidth_Bps;
  // @ts-expect-error probe kinds are collective, gemm and memory only
  const kind: ProbeCheck["kind"] = "network";
  return (
    widths.length +
    v.rows.length +
    byCluster.probes +
    Number(!!current) +
    spec.op.length +
    Object.keys(withProfile).length +
    source.length +
    bad +
    kind.length
  );
}

export function collectiveUsage(mod: TslabModule): number {
  const c: string = mod.collective(JSON.stringify({ op: "allreduce", bytes: 1 << 20, ranks: 8 })).value;
  const m: string = mod.mesh(JSON.stringify({ dp: 2, tp: 8, order: "tp-cp-ep-dp-pp" })).value;
  // @ts-expect-error collective takes JSON text, not an object
  mod.collective({ op: "allreduce", bytes: 1, ranks: 2 });
  // @ts-expect-error mesh takes one JSON argument
  mod.mesh();
  return c.length + m.length;
}

export function meshClientUsage(client: TslabClient, scenario: Scenario): number {
  const c: CollectiveResult = client.collective({ op: "alltoall", bytes: 1e6, ranks: 16, link: "inter_node", overlap: 0.5 });
  const alphaBeta: number = c.alpha_s + c.beta_s + c.candidates[0].time_s;
  const m: MeshResult = client.mesh({ dp: 2, tp: 8, pp: 2, order: "cp-ep-dp-pp-tp", gpus_per_node: 8 });
  const link: "intra" | "inter" | "mixed" = m.groups[0].link;
  const r = client.report(scenario) as CommInReport;
  const perStep: number = r.comm.items[0].step_exposed_s + r.comm.step_time_s;
  // @ts-expect-error link is a tier name or {bandwidth_Bps, latency_s}, not a number
  client.collective({ op: "allreduce", bytes: 1, ranks: 2, link: 50e9 });
  // @ts-expect-error mesh degrees are numbers
  client.mesh({ tp: "8" });
  // @ts-expect-error a group's link class is intra, inter or mixed only
  const bad: MeshResult["groups"][number]["link"] = "nvlink";
  return alphaBeta + m.warnings.length + link.length + perStep + bad.length;
}

export function planUsage(mod: TslabModule): number {
  const planned: string = mod.plan(JSON.stringify({ model: "gpt-1.7b" }), JSON.stringify({ top: 3, gpus: 8 })).value;
  let progress: PlanProgress = JSON.parse(mod.planStart(JSON.stringify({ model: "gpt-1.7b" }), "").value);
  while (!progress.done) progress = JSON.parse(mod.planStep(20000).value);
  const partial: string = mod.planResult().value;
  mod.planCancel();
  // @ts-expect-error plan needs the options text too ("" for defaults)
  mod.plan(JSON.stringify({ model: "gpt-1.7b" }));
  // @ts-expect-error the budget is a number of combinations
  mod.planStep("all");
  return planned.length + partial.length + progress.evaluated;
}

export function clientUsage(client: TslabClient, scenario: Scenario): number {
  const r: Report = client.report(scenario);
  const p: Presets = client.presets();
  const fits: boolean = r.memory.fits;
  const bytes: number[] = r.memory.items.map((i) => i.bytes);
  // @ts-expect-error item ids are the ARCHITECTURE.md ledger ids only
  const bad: (typeof r.memory.items)[number]["id"] = "kv_cache";
  const e = new ScenarioError("training.global_batch", "7 is not a multiple");
  const { path, reason } = e;
  // @ts-expect-error the path and the reason are separate: the UI never splits an error's text
  new ScenarioError("training.global_batch: 7 is not a multiple");
  return Object.keys(p.models).length + bytes.length + Number(fits) + path.length + reason.length + e.path.length + bad.length;
}

export async function scheduleUsage(mod: TslabModule, client: TslabClient): Promise<number> {
  const spec: ScheduleSpec = { schedule: "dualpipe", ranks: 4, microbatches: 8, costs: { F: 1, B: 2, W: 1 }, p2p_s: 0 };
  const text: string = mod.schedule(JSON.stringify(spec)).value;
  const trace: string = mod.scheduleTrace(JSON.stringify(spec)).value;
  // @ts-expect-error schedule takes JSON text, not an object
  mod.schedule(spec);
  const r: ScheduleResult = client.schedule({ ...spec, timeline: true });
  const kinds: OpKind[] = (r.ops ?? []).map((o) => o.kind);
  // @ts-expect-error op kinds are F, B, I, W and FB only
  const bad: OpKind = "X";
  const peaks: number[] = r.ranks.map((x) => x.peak_inflight);
  const tr: ScheduleTrace = client.scheduleTrace(spec);
  return text.length + trace.length + kinds.length + peaks.length + r.param_copies + r.stage_params_per_device + tr.traceEvents.length + bad.length;
}

export function stepUsage(client: TslabClient, scenario: Scenario, mod: TslabModule): number {
  const r = client.report(scenario) as StepInReport;
  const ids: LedgerId[] = r.step.ledgers.map((l) => l.id);
  // @ts-expect-error the ledgers are L1..L9 only
  const bad: LedgerId = "L10";
  const plan: PlanResult = JSON.parse(mod.plan(JSON.stringify(scenario), JSON.stringify({ gpus: 8, max_candidates: 1000 })).value);
  const req: PlannerRequest = {
    type: "run",
    id: 1,
    scenario: { model: "llama3-8b", cluster: "dgx-h100", parallel: {}, training: {} },
    options: { gpus: 64, fixed: ["zero"] },
    calibration: null,
    part: 0,
    parts: 2,
  };
  const merge: PlannerRequest = { type: "merge", id: 2, scenario: req.scenario, options: req.options, states: ["{}"] };
  const part: PlannerReply = { type: "part", id: 1, state: client.planPartState() };
  const reply: PlannerReply = { type: "result", id: 1, plan };
  const { applyScenario, editScenario, scenario: sharedScenario, subscribe } = createStore();
  const off = subscribe((s, e) => void (s.parallel.dp, e.kind));
  const top = plan.top[0];
  if (top) applyScenario(top.scenario, "planner");
  editScenario(
    [
      ["parallel.tp", 2],
      ["training.global_batch", undefined],
    ],
    "step",
  );
  // @ts-expect-error an event is an edit or an applied scenario
  const kind: ScenarioEvent["kind"] = "reset";
  const source: string = plan.global_batch_source;
  const segs: number = r.step.segments.reduce((a, g) => a + g.share, 0);
  const batch: "given" | "auto" = r.step.global_batch_source;
  off();
  return (
    ids.length +
    r.step.mfu +
    r.pipeline.bubble_s +
    r.comm.items.length +
    bad.length +
    req.type.length +
    merge.type.length +
    part.id +
    reply.id +
    Number(sharedScenario().parallel.tp ?? 0) +
    source.length +
    segs +
    batch.length +
    kind.length
  );
}
