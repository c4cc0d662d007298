// The component's props (lang, panels, start, scenario, compact): checked at build time in the .astro file, read back in the browser.
import type { Scenario } from "./report";

/** The lab's experiments in their default tab order (the registry in panels/index.ts follows this list). */
export const panelIds = ["memory", "pipeline", "mesh", "comm", "expert", "context", "numerics", "reliability", "step", "planner"] as const;
export type PanelId = (typeof panelIds)[number];
export const langs = ["zh-CN", "en"] as const;
export type LabLang = (typeof langs)[number];

export interface LabProps {
  /** UI language; default: the page's `lang` attribute, then the browser's language. */
  lang?: LabLang;
  /** Which experiments, in which order (default: all, as panelIds). */
  panels?: readonly PanelId[];
  /** The panel shown first (default: the first of `panels`). */
  start?: PanelId;
  /** A tslab/scenario@1 object, or a model preset name (`tslab presets`), to start from. */
  scenario?: Scenario | string;
  /** Tighter layout for narrow columns: one column, smaller header. */
  compact?: boolean;
}

/** A prop the lab cannot use; the message names the prop ("panels[2]") and the reason. */
export class LabPropError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = "LabPropError";
  }
}

const isPanel = (v: unknown): v is PanelId => (panelIds as readonly unknown[]).includes(v);

/** The props with defaults filled in; throws LabPropError naming the first bad prop. */
export function checkProps(p: LabProps): { lang?: LabLang; panels: PanelId[]; start: PanelId; scenario?: Scenario | string; compact: boolean } {
  if (p.lang !== undefined && !(langs as readonly unknown[]).includes(p.lang))
    throw new LabPropError("lang", `"${String(p.lang)}" is not one of ${langs.join(", ")}`);
  if (p.panels !== undefined && !Array.isArray(p.panels)) throw new LabPropError("panels", "must be a list of panel ids");
  const panels = p.panels === undefined ? [...panelIds] : [...p.panels];
  if (panels.length === 0) throw new LabPropError("panels", "needs at least one panel");
  panels.forEach((id, i) => {
    if (!isPanel(id)) throw new LabPropError(`panels[${i}]`, `"${String(id)}" is not a panel (${panelIds.join(", ")})`);
    if (panels.indexOf(id) !== i) throw new LabPropError(`panels[${i}]`, `"${id}" is listed twice`);
  });
  const start = p.start ?? panels[0];
  if (!panels.includes(start)) throw new LabPropError("start", `"${String(start)}" is not among the shown panels (${panels.join(", ")})`);
  const s = p.scenario;
  if (s !== undefined && typeof s !== "string") {
    if (typeof s !== "object" || s === null || Array.isArray(s))
      throw new LabPropError("scenario", "must be a tslab/scenario@1 object or a model preset name");
    if (s.schema !== undefined && s.schema !== "tslab/scenario@1")
      throw new LabPropError("scenario.schema", `"${String(s.schema)}" is not tslab/scenario@1`);
  }
  if (typeof s === "string" && s.trim() === "") throw new LabPropError("scenario", "an empty preset name");
  return { lang: p.lang, panels, start, scenario: s, compact: Boolean(p.compact) };
}

/** The data attributes the component writes for its props (read back by propsOf). */
export function propAttributes(p: ReturnType<typeof checkProps>): Record<string, string | undefined> {
  return {
    "data-lang": p.lang,
    "data-panels": p.panels.join(" "),
    "data-start": p.start,
    "data-scenario": p.scenario === undefined ? undefined : typeof p.scenario === "string" ? p.scenario : JSON.stringify(p.scenario),
  };
}

/** The props of a rendered lab root, from its data attributes. */
export function propsOf(root: HTMLElement): ReturnType<typeof checkProps> {
  const d = root.dataset;
  const raw = d.scenario;
  const scenario = raw === undefined ? undefined : raw.trimStart().startsWith("{") ? (JSON.parse(raw) as Scenario) : raw;
  return checkProps({
    lang: d.lang as LabLang | undefined,
    panels: d.panels ? (d.panels.split(" ") as PanelId[]) : undefined,
    start: d.start as PanelId | undefined,
    scenario,
    compact: root.classList.contains("tsl-compact"),
  });
}
