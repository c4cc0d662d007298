// The one typed client over the wasm module: panels call this, never the raw module.
import createTslab, { type TslabModule } from "@tslab/wasm";
import wasmUrl from "./wasm/tslab.wasm?url";
import type { Presets, Report, Scenario } from "./report";
import type { ScheduleResult, ScheduleSpec, ScheduleTrace } from "./types/pipeline";

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
  /** Simulates a pipeline schedule (same JSON as `tslab schedule`); throws ScenarioError on bad input. */
  schedule(spec: ScheduleSpec): ScheduleResult;
  /** The same run as Chrome trace-event JSON (Perfetto); throws ScenarioError on bad input. */
  scheduleTrace(spec: ScheduleSpec): ScheduleTrace;
}

/** Calls one JSON-in/JSON-out facade function, turning its Error into a ScenarioError. */
function call<T>(fn: (json: string) => string, input: unknown): T {
  try {
    return JSON.parse(fn(JSON.stringify(input))) as T;
  } catch (e) {
    if (e instanceof SyntaxError) throw e;
    throw new ScenarioError(e instanceof Error ? e.message : String(e));
  }
}

function wrap(mod: TslabModule): TslabClient {
  let cachedPresets: Presets | undefined;
  return {
    report: (scenario) => call<Report>((j) => mod.report(j), scenario),
    schedule: (spec) => call<ScheduleResult>((j) => mod.schedule(j), spec),
    scheduleTrace: (spec) => call<ScheduleTrace>((j) => mod.scheduleTrace(j), spec),
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
