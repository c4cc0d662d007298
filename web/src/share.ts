// The lab's state as a short, versioned URL fragment (#lab=v1.<base64url JSON>), and the scenario as JSON or a CLI command.
import type { Scenario } from "./report";
import { withValue } from "./state";

/** What a link carries: the scenario as changes from the lab's start, the open tab, and each panel's own edited controls. */
export interface LabState {
  /** [dotted path, value] for every scenario leaf that differs from the start; null removes a field. */
  s?: [string, unknown][];
  /** The open panel, when it is not the first. */
  t?: string;
  /** panel id → control key → value, for the controls a reader changed in panels that keep their own what-if. */
  c?: Record<string, Record<string, string | boolean>>;
}

/** The one version this lab writes; a link with another is refused with a message, never half-applied. */
export const stateVersion = "v1";

/** Leaves of a JSON value by dotted path; arrays are leaves (the scenario's arrays are values, not records). */
function leaves(v: unknown, prefix = "", out = new Map<string, unknown>()): Map<string, unknown> {
  if (v && typeof v === "object" && !Array.isArray(v)) {
    for (const [k, x] of Object.entries(v)) leaves(x, prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix) out.set(prefix, v);
  return out;
}

/** The changes that turn `from` into `to` (removals as null), in a stable order. */
export function scenarioDiff(from: Scenario, to: Scenario): [string, unknown][] {
  const a = leaves(from);
  const b = leaves(to);
  const out: [string, unknown][] = [];
  for (const [k, v] of b) if (!a.has(k) || JSON.stringify(a.get(k)) !== JSON.stringify(v)) out.push([k, v]);
  for (const k of a.keys()) if (!b.has(k)) out.push([k, null]);
  return out;
}

/** The diff as store edits: removals first, then sets (withValue turns a name into an object where a path goes through it). */
export function diffChanges(diff: ReadonlyArray<[string, unknown]>): [string, unknown][] {
  return [...diff.filter(([, v]) => v === null).map(([k]): [string, unknown] => [k, undefined]), ...diff.filter(([, v]) => v !== null)];
}

/** `from` with the diff applied. */
export function applyDiff(from: Scenario, diff: ReadonlyArray<[string, unknown]>): Scenario {
  return diffChanges(diff).reduce((s, [k, v]) => withValue(s, k, v), from);
}

function base64url(text: string): string {
  let bin = "";
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function unbase64url(text: string): string {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

export function encodeState(state: LabState): string {
  return `${stateVersion}.${base64url(JSON.stringify(state))}`;
}

/** The state in a link; throws an Error saying why a link cannot be read (version, encoding, shape). */
export function decodeState(text: string): LabState {
  const dot = text.indexOf(".");
  const version = dot < 0 ? text : text.slice(0, dot);
  if (version !== stateVersion) throw new Error(`lab: version "${version}" is not ${stateVersion}`);
  let state: unknown;
  try {
    state = JSON.parse(unbase64url(text.slice(dot + 1)));
  } catch {
    throw new Error("lab: the link's data is cut off or not base64url JSON");
  }
  if (!state || typeof state !== "object" || Array.isArray(state)) throw new Error("lab: the link's data is not an object");
  const s = (state as LabState).s;
  if (s !== undefined && (!Array.isArray(s) || s.some((e) => !Array.isArray(e) || typeof e[0] !== "string")))
    throw new Error("lab.s: not a list of [path, value]");
  return state as LabState;
}

/** The fragment keys of the labs on a page: "lab" for the first, "lab2", "lab3", ... after it. */
export const stateKey = (index: number) => (index === 0 ? "lab" : `lab${index + 1}`);

/** The fragment's key=value pairs ("#lab=v1.xx&lab2=v1.yy"); a plain anchor ("#lab") has none. */
export function fragmentParams(hash: string): URLSearchParams {
  const h = hash.replace(/^#/, "");
  return h.includes("=") ? new URLSearchParams(h) : new URLSearchParams();
}

/** The scenario as pretty JSON (what `tslab report` reads). */
export const scenarioJson = (s: Scenario) => JSON.stringify(s, null, 2);

/** A shell command that reproduces the lab's report: the scenario on stdin, single-quoted for POSIX shells. */
export function cliCommand(s: Scenario): string {
  const quoted = `'${JSON.stringify(s).replace(/'/g, `'\\''`)}'`;
  return `echo ${quoted} | tslab report -`;
}
