// The one typed client over the wasm module: panels call this, never the raw module.
import createTslab, { type PlanProgress, type TslabModule } from "@tslab/wasm";
import wasmUrl from "./wasm/tslab.wasm?url";
import type { Presets, Report, Scenario } from "./report";
import type { CalibrationSummary, LoadedCalibration, Validation } from "./types/calibration";
import type { CollectiveResult, CollectiveSpec, MeshResult, MeshSpec } from "./types/mesh";
import type { ScheduleResult, ScheduleSpec, ScheduleTrace } from "./types/pipeline";
import type { PlanOptions, PlanResult } from "./types/step";

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
  /** One collective timed with the alpha-beta models (calibrated links when a profile is loaded). */
  collective(spec: CollectiveSpec): CollectiveResult;
  /** Rank map, process groups and link classes of a plan; throws ScenarioError on bad input. */
  mesh(spec: MeshSpec): MeshResult;
  /** Parses and validates tslab/calibration@1 text without loading it; throws ScenarioError naming the path. */
  validateProfile(profileText: string): CalibrationSummary;
  /** Validates, then loads the profile: from now on every scenario carries cluster.calibration = it. */
  loadCalibration(profileText: string, fileName: string): LoadedCalibration;
  clearCalibration(): void;
  calibration(): LoadedCalibration | null;
  /** Called after every load or clear; the lab shell redraws the panels from here. */
  onCalibrationChange(fn: (c: LoadedCalibration | null) => void): void;
  /** Predicted vs measured per probe of the loaded profile: by its own fits, or by scenario's cluster. */
  validation(scenario?: Scenario): Validation;
  /** spec with cluster.calibration set to the loaded profile (see withCalibration); for facade calls that take a cluster. */
  calibrated<T extends object>(spec: T): T;
  /** Starts the planner's sliced search on this client's module (with the loaded profile, like report); PlanProgress out. */
  planStart(scenario: Scenario, options: PlanOptions): PlanProgress;
  /** Runs at least `budget` more combinations of the search. */
  planStep(budget: number): PlanProgress;
  /** tslab/plan@1 of the search so far. */
  planResult(): PlanResult;
  planCancel(): void;
}

/**
 * spec with `cluster.calibration` = profile. A preset name becomes { preset, calibration }, an object
 * keeps its fields; a spec without a cluster gets `fallbackCluster` (for report: the core's default
 * cluster, presets().vocabulary.defaults.cluster) or, without one, stays as it is.
 */
export function withCalibration<T extends object>(spec: T, profile: object, fallbackCluster?: string): T {
  const cluster = (spec as { cluster?: unknown }).cluster;
  if (cluster === undefined && fallbackCluster === undefined) return spec;
  const base = cluster === undefined ? { preset: fallbackCluster }
    : typeof cluster === "string" ? { preset: cluster }
    : typeof cluster === "object" && cluster !== null ? cluster : undefined;
  if (!base) return spec; // not a cluster the core accepts: let it name the problem
  return { ...spec, cluster: { ...base, calibration: profile } };
}

function call<T>(fn: () => string): T {
  try {
    return JSON.parse(fn()) as T;
  } catch (e) {
    throw new ScenarioError(e instanceof Error ? e.message : String(e));
  }
}

/** The client over one module instance: the page's, or a Worker's own (planner.worker.ts), with the same profile handling. */
export function clientFor(mod: TslabModule): TslabClient {
  let cachedPresets: Presets | undefined;
  let loaded: LoadedCalibration | null = null;
  const listeners = new Set<(c: LoadedCalibration | null) => void>();
  const changed = () => listeners.forEach((fn) => fn(loaded));
  const presets = () => (cachedPresets ??= JSON.parse(mod.presets()) as Presets);
  const calibrated = <T extends object>(spec: T, scenario = false): T =>
    loaded ? withCalibration(spec, loaded.profile, scenario ? presets().vocabulary.defaults.cluster : undefined) : spec;
  return {
    report(scenario) {
      return call<Report>(() => mod.report(JSON.stringify(calibrated(scenario, true))));
    },
    planStart: (scenario, options) => call<PlanProgress>(() => mod.planStart(JSON.stringify(calibrated(scenario, true)), JSON.stringify(options))),
    planStep: (budget) => call<PlanProgress>(() => mod.planStep(budget)),
    planResult: () => call<PlanResult>(() => mod.planResult()),
    planCancel: () => mod.planCancel(),
    collective: (spec) => call<CollectiveResult>(() => mod.collective(JSON.stringify(calibrated(spec)))),
    schedule: (spec) => call<ScheduleResult>(() => mod.schedule(JSON.stringify(spec))),
    scheduleTrace: (spec) => call<ScheduleTrace>(() => mod.scheduleTrace(JSON.stringify(spec))),
    mesh: (spec) => call<MeshResult>(() => mod.mesh(JSON.stringify(spec))),
    presets,
    validateProfile(profileText) {
      return call<CalibrationSummary>(() => mod.validateProfile(profileText));
    },
    loadCalibration(profileText, fileName) {
      const summary = this.validateProfile(profileText);
      loaded = { profile: JSON.parse(profileText) as Record<string, unknown>, summary, fileName };
      changed();
      return loaded;
    },
    clearCalibration() {
      loaded = null;
      changed();
    },
    calibration: () => loaded,
    onCalibrationChange(fn) {
      listeners.add(fn);
    },
    validation(scenario) {
      if (!loaded) throw new ScenarioError("cluster.calibration: no calibration profile is loaded");
      const profile = JSON.stringify(loaded.profile);
      return call<Validation>(() => mod.validation(profile, scenario ? JSON.stringify(scenario) : ""));
    },
    calibrated: (spec) => calibrated(spec),
  };
}

let loading: Promise<TslabClient> | undefined;

/** Loads the module once per page (or per Worker); every panel shares the instance. */
export function loadClient(): Promise<TslabClient> {
  loading ??= createTslab({ locateFile: () => wasmUrl }).then(clientFor);
  return loading;
}
