// The one typed client over the wasm module: panels call this, never the raw module.
import createTslab, { type Outcome, type PlanProgress, type TslabModule } from "./wasm/tslab.mjs";
import wasmUrl from "./wasm/tslab.wasm?url";
import type { Presets, Report, Scenario } from "./report";
import type { CalibrationSummary, LoadedCalibration, Validation } from "./types/calibration";
import type { CollectiveResult, CollectiveSpec, MeshResult, MeshSpec } from "./types/mesh";
import type { ScheduleResult, ScheduleSpec, ScheduleTrace, ScheduleWork } from "./types/pipeline";
import type { Accuracy, AccuracyClass } from "./types/accuracy";
import type { RlResult, RlSpec } from "./types/rl";
import type { ContextResult } from "./types/context";
import type { PlanOptions, PlanResult } from "./types/step";
import { sayError, type CoreMessage } from "./core_messages";

/** An input error from the core: its JSON path ("parallel.tp", "" for the whole input) and reason, as the core sent them. */
export class ScenarioError extends Error {
  readonly path: string;
  readonly reason: string;
  /** The reason as a core message id with parameters, for the reader's language (core_messages.ts). */
  readonly msg: CoreMessage | null;
  constructor(path: string, reason: string, msg: CoreMessage | null = null) {
    super(path ? `${path}: ${reason}` : reason);
    this.path = path;
    this.reason = reason;
    this.msg = msg;
    this.name = "ScenarioError";
  }
}

/** An error as a Worker posts it: the fields of a ScenarioError (anything else: no path, its text as the reason). */
export interface ErrorReply {
  message: string;
  path: string;
  reason: string;
  msg: CoreMessage | null;
}
export function errorReply(e: unknown): ErrorReply {
  if (e instanceof ScenarioError) return { message: e.message, path: e.path, reason: e.reason, msg: e.msg };
  const text = e instanceof Error ? e.message : String(e);
  return { message: text, path: "", reason: text, msg: null };
}
export const errorOfReply = (r: ErrorReply) => new ScenarioError(r.path, r.reason, r.msg);

/** An error's text in the reader's language: a core input error from its message id, anything else as it is. */
export function errorText(e: unknown): string {
  if (e instanceof ScenarioError) return sayError(e.path, e.msg, e.message);
  return e instanceof Error ? e.message : String(e);
}

export interface TslabClient {
  /** Throws ScenarioError on bad input. */
  report(scenario: Scenario): Report;
  /** The out-of-sample error on the published runs closest to the scenario's class (dense/MoE, GPU generation, dtype, context) and the step-time range it implies. */
  accuracyClass(scenario: Scenario): AccuracyClass;
  /** Every published run of the training set against the model (the README's accuracy table). */
  accuracy(): Accuracy;
  /** The published runs the model is validated on and not fitted to (tslab accuracy --published). */
  accuracyPublished(): Accuracy;
  presets(): Presets;
  /** Every core message id's English template (tslab/messages@1), for a sentence re-worded with a panel's own units. */
  messages(): Readonly<Record<string, string>>;
  /** Simulates a pipeline schedule (same JSON as `tslab schedule`); throws ScenarioError on bad input. */
  schedule(spec: ScheduleSpec): ScheduleResult;
  /** The same run as Chrome trace-event JSON (Perfetto); throws ScenarioError on bad input. */
  scheduleTrace(spec: ScheduleSpec): ScheduleTrace;
  /** The ops the SPEC lists and generates, checked before any work (same errors as schedule). */
  scheduleWork(spec: ScheduleSpec): ScheduleWork;
  /** One collective timed with the alpha-beta models (calibrated links when a profile is loaded). */
  collective(spec: CollectiveSpec): CollectiveResult;
  /** Rank map, process groups and link classes of a plan; throws ScenarioError on bad input. */
  mesh(spec: MeshSpec): MeshResult;
  /** Parses and validates tslab/calibration@1 text without loading it; throws ScenarioError naming the path. */
  validateProfile(profileText: string): CalibrationSummary;
  /** L9: checkpoint goodput against GPU count and one RL iteration (as `tslab rl`); throws ScenarioError naming the path. */
  rl(spec: RlSpec): RlResult;
  /** L7: SP and every CP method evaluated on the scenario (as `tslab context`); throws ScenarioError naming the path. */
  context(scenario: Scenario): ContextResult;
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
  /** Part `part` of `parts` of the search on this client's module; planStep runs it. */
  planPartStart(scenario: Scenario, options: PlanOptions, part: number, parts: number): PlanProgress;
  /** The finished part's state (tslab/plan-part@1 JSON text, passed on to planMerge as it is). */
  planPartState(): string;
  /** Every part's state in part order, merged into the result one search gives. */
  planMerge(scenario: Scenario, options: PlanOptions, states: string[]): PlanResult;
}

/**
 * spec with `cluster.calibration` = profile (an object, or the name of one loaded in the core). A preset name becomes { preset, calibration }, an object
 * keeps its fields; a spec without a cluster gets `fallbackCluster` (for report: the core's default
 * cluster, presets().vocabulary.defaults.cluster) or, without one, stays as it is.
 */
export function withCalibration<T extends object>(spec: T, profile: object | string, fallbackCluster?: string): T {
  const cluster = (spec as { cluster?: unknown }).cluster;
  if (cluster === undefined && fallbackCluster === undefined) return spec;
  const base =
    cluster === undefined
      ? { preset: fallbackCluster }
      : typeof cluster === "string"
        ? { preset: cluster }
        : typeof cluster === "object" && cluster !== null
          ? cluster
          : undefined;
  if (!base) return spec; // not a cluster the core accepts: let it name the problem
  return { ...spec, cluster: { ...base, calibration: profile } };
}

/** The facade never throws across the wasm boundary (that leaked its stack): it returns an Outcome, made an Error here. */
export function call<T>(fn: () => Outcome): T {
  return JSON.parse(callText(fn)) as T;
}

/** call() without the parse: the value's JSON text. */
export function callText(fn: () => Outcome): string {
  const r = fn();
  if (!r.ok) throw new ScenarioError(r.error_path, r.error_reason, r.error_msg ? (JSON.parse(r.error_msg) as CoreMessage) : null);
  return r.value;
}

/** Profiles over the core's input limit are refused before any parsing (json_parse.hpp, 4 MiB). */
export const maxProfileBytes = 4 << 20;
/** The name a loaded profile is kept under in the module; scenarios carry it as cluster.calibration. */
export const profileName = "lab";

/** The client over one module instance: the page's, or a Worker's own (planner.worker.ts), with the same profile handling. */
export function clientFor(mod: TslabModule): TslabClient {
  let cachedPresets: Presets | undefined;
  let loaded: LoadedCalibration | null = null;
  const listeners = new Set<(c: LoadedCalibration | null) => void>();
  const changed = () => listeners.forEach((fn) => fn(loaded));
  const presets = () => (cachedPresets ??= call<Presets>(() => mod.presets()));
  let cachedMessages: Record<string, string> | undefined;
  const messages = () =>
    (cachedMessages ??= Object.fromEntries(call<{ messages: { id: string; en: string }[] }>(() => mod.messages()).messages.map((m) => [m.id, m.en])));
  const calibrated = <T extends object>(spec: T, scenario = false): T =>
    loaded ? withCalibration(spec, profileName, scenario ? presets().vocabulary.defaults.cluster : undefined) : spec;
  return {
    report(scenario) {
      return call<Report>(() => mod.report(JSON.stringify(calibrated(scenario, true))));
    },
    accuracyClass: (scenario) => call<AccuracyClass>(() => mod.accuracyClass(JSON.stringify(scenario))),
    accuracy: () => call<Accuracy>(() => mod.accuracy()),
    accuracyPublished: () => call<Accuracy>(() => mod.accuracyPublished()),
    planStart: (scenario, options) => call<PlanProgress>(() => mod.planStart(JSON.stringify(calibrated(scenario, true)), JSON.stringify(options))),
    planStep: (budget) => call<PlanProgress>(() => mod.planStep(budget)),
    planResult: () => call<PlanResult>(() => mod.planResult()),
    planCancel: () => mod.planCancel(),
    planPartStart: (scenario, options, part, parts) =>
      call<PlanProgress>(() => mod.planPartStart(JSON.stringify(calibrated(scenario, true)), JSON.stringify(options), part, parts)),
    planPartState: () => callText(() => mod.planPartState()),
    planMerge: (scenario, options, states) =>
      call<PlanResult>(() => mod.planMerge(JSON.stringify(calibrated(scenario, true)), JSON.stringify(options), `[${states.join(",")}]`)),
    collective: (spec) => call<CollectiveResult>(() => mod.collective(JSON.stringify(calibrated(spec)))),
    schedule: (spec) => call<ScheduleResult>(() => mod.schedule(JSON.stringify(spec))),
    scheduleTrace: (spec) => call<ScheduleTrace>(() => mod.scheduleTrace(JSON.stringify(spec))),
    scheduleWork: (spec) => call<ScheduleWork>(() => mod.scheduleWork(JSON.stringify(spec))),
    mesh: (spec) => call<MeshResult>(() => mod.mesh(JSON.stringify(spec))),
    rl: (spec) => call<RlResult>(() => mod.rl(JSON.stringify({ ...spec, scenario: calibrated(spec.scenario, true) }))),
    context: (scenario) => call<ContextResult>(() => mod.context(JSON.stringify(calibrated(scenario, true)))),
    presets,
    messages,
    validateProfile(profileText) {
      return call<CalibrationSummary>(() => mod.validateProfile(profileText));
    },
    loadCalibration(profileText, fileName) {
      const bytes = new TextEncoder().encode(profileText).length;
      if (bytes > maxProfileBytes) throw new ScenarioError("", `the profile is ${bytes} bytes; the limit is ${maxProfileBytes} bytes`);
      // Parsed and kept once in the core; every later call names it instead of re-sending it.
      const summary = call<CalibrationSummary>(() => mod.loadProfile(profileName, profileText));
      loaded = { profile: JSON.parse(profileText) as Record<string, unknown>, summary, fileName };
      changed();
      return loaded;
    },
    clearCalibration() {
      mod.dropProfile(profileName);
      loaded = null;
      changed();
    },
    calibration: () => loaded,
    onCalibrationChange(fn) {
      listeners.add(fn);
    },
    validation(scenario) {
      if (!loaded) throw new ScenarioError("cluster.calibration", "no calibration profile is loaded");
      return call<Validation>(() => mod.loadedValidation(profileName, scenario ? JSON.stringify(scenario) : ""));
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
