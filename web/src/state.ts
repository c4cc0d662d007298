// A lab's one scenario store: every panel of that lab reads the same tslab/scenario@1 object, edits patch it, an applied plan replaces it.
import type { Scenario } from "./report";

/** Why the scenario changed: a control edit (a panel or a trial) or a whole scenario applied (the planner's pick). */
export interface ScenarioEvent {
  kind: "edit" | "apply";
  /** The panel id that made the change; a panel skips redrawing controls it just wrote. */
  source: string;
}

type Listener = (scenario: Scenario, event: ScenarioEvent) => void;

/**
 * Where the lab starts: Megatron-style 3D parallelism for llama3-70b on DGX H100 (DP 8 · TP 8 · PP 4, SP on)
 * at 4096 tokens. Lesson content, not a default: every field it leaves out is the core's default.
 */
export const startingScenario: Scenario = {
  schema: "tslab/scenario@1",
  model: "llama3-70b",
  cluster: "dgx-h100",
  parallel: { dp: 8, tp: 8, pp: 4, sp: true },
  training: { seq_len: 4096 },
};

/** The value at a dotted path ("training.offload.optimizer"), undefined when absent. */
export function valueAt(s: Scenario, path: string): unknown {
  let node: unknown = s;
  for (const k of path.split(".")) node = node && typeof node === "object" ? (node as Record<string, unknown>)[k] : undefined;
  return node;
}

/** s with path set to value; undefined removes the field (the core's default applies again). */
export function withValue(s: Scenario, path: string, value: unknown): Scenario {
  const out = structuredClone(s);
  const keys = path.split(".");
  let node = out as unknown as Record<string, unknown>;
  for (const k of keys.slice(0, -1)) {
    if (!node[k] || typeof node[k] !== "object") node[k] = {};
    node = node[k] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1];
  if (value === undefined) delete node[last];
  else node[last] = value;
  return out;
}

/** One lab's scenario store; every method is a plain function (panels destructure them). */
export interface ScenarioStore {
  /** A copy of the current scenario (callers may change their copy freely). */
  scenario(): Scenario;
  /** A copy of the scenario the lab started from (its `scenario` prop, or startingScenario): what a trial builds on. */
  start(): Scenario;
  /** Sets each [path, value] (undefined removes it) and tells every panel. */
  editScenario(changes: ReadonlyArray<readonly [string, unknown]>, source: string): void;
  /** Replaces the whole scenario (an applied plan, a shared link): every panel takes it and drops its stale trial. */
  applyScenario(next: Scenario, source: string): void;
  /** Calls fn on every later change; returns the unsubscribe function. */
  subscribe(fn: Listener): () => void;
}

/** A store starting from `initial` (startingScenario by default); each lab on a page has its own. */
export function createStore(initial: Scenario = startingScenario): ScenarioStore {
  let current: Scenario = structuredClone(initial);
  const listeners = new Set<Listener>();
  const scenario = () => structuredClone(current);
  const publish = (event: ScenarioEvent) => {
    const snapshot = scenario();
    listeners.forEach((fn) => fn(snapshot, event));
  };
  return {
    scenario,
    start: () => structuredClone(initial),
    editScenario(changes, source) {
      for (const [path, value] of changes) current = withValue(current, path, value);
      publish({ kind: "edit", source });
    },
    applyScenario(next, source) {
      current = structuredClone(next);
      publish({ kind: "apply", source });
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
