// A lab's state in the page URL: written (replaceState) after each change, read and applied once on load.
import type { Scenario } from "./report";
import { applyDiff, decodeState, diffChanges, encodeState, fragmentParams, scenarioDiff, stateKey, type LabState } from "./share";
import type { ScenarioStore } from "./state";

type Values = Record<string, string | boolean>;

/** The [data-control] inputs of a panel's form, by control key. */
function inputsOf(panel: HTMLElement): Map<string, HTMLInputElement | HTMLSelectElement> {
  const out = new Map<string, HTMLInputElement | HTMLSelectElement>();
  for (const field of panel.querySelectorAll<HTMLElement>("[data-control]")) {
    const input = field.querySelector<HTMLInputElement | HTMLSelectElement>("input, select");
    if (input) out.set(field.dataset.control!, input);
  }
  return out;
}

const valueOf = (i: HTMLInputElement | HTMLSelectElement): string | boolean =>
  i instanceof HTMLInputElement && i.type === "checkbox" ? i.checked : i.value;

/** A panel whose form only shows the shared scenario (memory, step) needs nothing beyond the scenario in a link. */
const ownsWhatIf = (panel: HTMLElement) => !panel.querySelector("form[data-scenario-bound]");

export interface LabLink {
  /** Applies the link's state (if any) to the mounted lab; returns the tab to open, or an Error to show. */
  restore(): { tab?: string; error?: Error };
  /** Call after any change: the URL is rewritten once the burst is over. */
  changed(): void;
  /** Writes a pending change now (before the link is copied). */
  flush(): void;
}

/**
 * Links for one lab: `index` picks its fragment key, `initial` is its starting scenario (diffs are against it),
 * `activeTab` reads the open panel. Panels with their own what-if (pipeline, mesh, comm, planner) store every control once a
 * reader touched one of them, so the panel comes back whole (follow-the-scenario values included).
 */
export function labLink(
  index: number,
  stage: HTMLElement,
  store: ScenarioStore,
  initial: Scenario,
  startTab: string,
  activeTab: () => string,
): LabLink {
  const key = stateKey(index);
  const touched = new Set<string>();
  let timer = 0;
  // Each what-if panel's controls as mounted: a link that does not name a panel puts it back here, so
  // a second link opened in the same tab reproduces its own state instead of merging into the first's.
  const mounted = new Map<string, Values>();
  for (const panel of stage.querySelectorAll<HTMLElement>("[data-panel]")) {
    if (!ownsWhatIf(panel)) continue;
    const values: Values = {};
    for (const [k, input] of inputsOf(panel)) values[k] = valueOf(input);
    mounted.set(panel.dataset.panel!, values);
  }

  const mark = (e: Event) => {
    const panel = (e.target as HTMLElement).closest<HTMLElement>("[data-panel]");
    if (panel && ownsWhatIf(panel)) touched.add(panel.dataset.panel!);
    changed();
  };
  for (const type of ["input", "change", "click"]) stage.addEventListener(type, mark);
  store.subscribe(() => changed());

  function current(): LabState {
    const state: LabState = {};
    const s = scenarioDiff(initial, store.scenario());
    if (s.length) state.s = s;
    if (activeTab() !== startTab) state.t = activeTab();
    for (const id of touched) {
      const panel = stage.querySelector<HTMLElement>(`[data-panel="${id}"]`);
      if (!panel) continue;
      const values: Values = {};
      for (const [k, input] of inputsOf(panel)) values[k] = valueOf(input);
      (state.c ??= {})[id] = values;
    }
    return state;
  }

  function write(): void {
    timer = 0;
    const params = fragmentParams(location.hash);
    const state = current();
    if (Object.keys(state).length === 0) {
      if (!params.has(key)) return;
      params.delete(key);
    } else params.set(key, encodeState(state));
    const hash = params.toString();
    history.replaceState(history.state, "", `${location.pathname}${location.search}${hash ? `#${hash}` : ""}`);
  }

  function changed(): void {
    if (!timer) timer = window.setTimeout(write, 200);
  }

  function restore(): { tab?: string; error?: Error } {
    const text = fragmentParams(location.hash).get(key);
    if (!text) return {};
    let state: LabState;
    try {
      state = decodeState(text);
    } catch (e) {
      return { error: e instanceof Error ? e : new Error(String(e)) };
    }
    // The link replaces the lab's state, never merges into it: a panel an earlier link or the reader
    // set, and this link does not name, goes back to its mounted controls first.
    for (const id of [...touched]) {
      if (state.c && id in state.c) continue;
      const panel = stage.querySelector<HTMLElement>(`[data-panel="${id}"]`);
      if (panel) setControls(panel, mounted.get(id) ?? {});
      touched.delete(id);
    }
    // The scenario becomes the starting one with the link's diff, reached as edits (not an applied
    // plan): the panels react as they did to the reader's own edits.
    const changes = diffChanges(scenarioDiff(store.scenario(), applyDiff(initial, state.s ?? [])));
    if (changes.length) store.editScenario(changes, "link");
    for (const [id, values] of Object.entries(state.c ?? {})) {
      const panel = stage.querySelector<HTMLElement>(`[data-panel="${id}"]`);
      if (!panel) continue;
      setControls(panel, values);
      touched.add(id);
    }
    return { tab: typeof state.t === "string" ? state.t : undefined };
  }

  /** Sets a panel's controls to `values`, in form order and each with its events: a control that shows or hides others (compare, schedule) acts first. */
  function setControls(panel: HTMLElement, values: Values): void {
    for (const [k, input] of inputsOf(panel)) {
      if (!(k in values)) continue;
      const v = values[k];
      if (input instanceof HTMLInputElement && input.type === "checkbox") input.checked = Boolean(v);
      else input.value = String(v);
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }

  const flush = () => {
    if (timer) (window.clearTimeout(timer), write());
  };
  return { restore, changed, flush };
}
