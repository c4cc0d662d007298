// The one typed client over the wasm module: panels call this, never the raw module.
import createTslab, { type TslabModule } from "@tslab/wasm";
import wasmUrl from "./wasm/tslab.wasm?url";
import type { Presets, Report, Scenario } from "./report";
import type { CollectiveResult, CollectiveSpec, MeshResult, MeshSpec } from "./types/mesh";

/** An input error from the core, split into its JSON path ("parallel.tp") and reason. */
export class ScenarioError extends Error {
  readonly path: string;
  readonly reason: string;
  constructor(message: string) {
    super(message);
    this.name = "ScenarioError";
    const split = splitErrorMessage(message);
    this.path = split.path;
    this.reason = split.reason;
  }
}

/** The core words every user-facing error as "path: reason" (ARCHITECTURE.md, "Errors"). */
export function splitErrorMessage(message: string): { path: string; reason: string } {
  const m = /^([A-Za-z_][\w.[\]]*): ([\s\S]*)$/.exec(message);
  return m ? { path: m[1], reason: m[2] } : { path: "", reason: message };
}

export interface TslabClient {
  /** Throws ScenarioError on bad input. */
  report(scenario: Scenario): Report;
  presets(): Presets;
  /** One collective timed with the alpha-beta models; throws ScenarioError on bad input. */
  collective(spec: CollectiveSpec): CollectiveResult;
  /** Rank map, process groups and link classes of a plan; throws ScenarioError on bad input. */
  mesh(spec: MeshSpec): MeshResult;
}

/** JSON in, JSON out; the core's "path: reason" Error becomes a ScenarioError. */
function call<T>(fn: (json: string) => string, input: unknown): T {
  try {
    return JSON.parse(fn(JSON.stringify(input))) as T;
  } catch (e) {
    throw new ScenarioError(e instanceof Error ? e.message : String(e));
  }
}

function wrap(mod: TslabModule): TslabClient {
  let cachedPresets: Presets | undefined;
  return {
    report: (scenario) => call<Report>((j) => mod.report(j), scenario),
    collective: (spec) => call<CollectiveResult>((j) => mod.collective(j), spec),
    mesh: (spec) => call<MeshResult>((j) => mod.mesh(j), spec),
    presets() {
      cachedPresets ??= JSON.parse(mod.presets()) as Presets;
      return cachedPresets;
    },
  };
}

let loading: Promise<TslabClient> | undefined;

/** Loads the module once per page; every panel shares the instance. */
export function loadClient(): Promise<TslabClient> {
  loading ??= createTslab({ locateFile: () => wasmUrl }).then(wrap);
  return loading;
}
