// Compile-only check of the hand-kept facade types (web/src/tslab.d.ts): run by `npm run test:types`.
import createTslab, { type PlanProgress, type TslabModule, type TslabModuleOptions } from "@tslab/wasm";
import { ScenarioError, splitErrorMessage, type TslabClient } from "../../web/src/client";
import type { Presets, Report, Scenario } from "../../web/src/report";

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
  const planned: string = mod.plan(JSON.stringify({ model: "gpt-1.7b" }), JSON.stringify({ top: 3, gpus: 8 }));
  let progress: PlanProgress = JSON.parse(mod.planStart(JSON.stringify({ model: "gpt-1.7b" }), ""));
  while (!progress.done) progress = JSON.parse(mod.planStep(20000));
  const partial: string = mod.planResult();
  mod.planCancel();
  // @ts-expect-error plan needs the options text too ("" for defaults)
  mod.plan(JSON.stringify({ model: "gpt-1.7b" }));
  // @ts-expect-error the budget is a number of combinations
  mod.planStep("all");
  return text.length + presets.length + planned.length + partial.length + progress.evaluated;
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
