// Compile-only check of the hand-kept facade types (web/src/tslab.d.ts): run by `npm run test:types`.
import createTslab, { type TslabModule, type TslabModuleOptions } from "@tslab/wasm";
import { ScenarioError, splitErrorMessage, type TslabClient } from "../../web/src/client";
import type { Presets, Report, Scenario } from "../../web/src/report";
import type { OpKind, ScheduleResult, ScheduleSpec, ScheduleTrace } from "../../web/src/types/pipeline";

export async function usage(bytes: Uint8Array): Promise<number> {
  const options: TslabModuleOptions = { wasmBinary: bytes, locateFile: (p, dir) => dir + p };
  const mod: TslabModule = await createTslab(options);
  const text: string = mod.report(JSON.stringify({ model: "llama3-70b" }));
  const presets: string = mod.presets();
  // @ts-expect-error report takes JSON text, not an object
  mod.report({ model: "llama3-70b" });
  // @ts-expect-error presets takes no argument
  mod.presets("models");
  // @ts-expect-error the facade has no class handles to delete()
  mod.delete();
  // @ts-expect-error wasmBinary is bytes, not a path
  await createTslab({ wasmBinary: "tslab.wasm" });
  return text.length + presets.length;
}

export function clientUsage(client: TslabClient, scenario: Scenario): number {
  const r: Report = client.report(scenario);
  const p: Presets = client.presets();
  const fits: boolean = r.memory.fits;
  const bytes: number[] = r.memory.items.map((i) => i.bytes);
  // @ts-expect-error item ids are the ARCHITECTURE.md ledger ids only
  const bad: (typeof r.memory.items)[number]["id"] = "kv_cache";
  const { path, reason } = splitErrorMessage("parallel.tp: 12 does not divide model.heads = 32");
  const e = new ScenarioError("training.global_batch: 7 is not a multiple");
  return Object.keys(p.models).length + bytes.length + Number(fits) + path.length + reason.length + e.path.length + bad.length;
}

export async function scheduleUsage(mod: TslabModule, client: TslabClient): Promise<number> {
  const spec: ScheduleSpec = { schedule: "dualpipe", ranks: 4, microbatches: 8, costs: { F: 1, B: 2, W: 1 }, p2p_s: 0 };
  const text: string = mod.schedule(JSON.stringify(spec));
  const trace: string = mod.scheduleTrace(JSON.stringify(spec));
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
