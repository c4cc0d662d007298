// Links from the home page into the lab on the same page: a panel id becomes a #lab=v1.… fragment the lab follows (web/src/share.ts).
import { panelIds, type PanelId } from "../../../web/src/props";
import { encodeState, stateKey } from "../../../web/src/share";

/**
 * Experiments the home page names before their panels are registered: until a panel lands in
 * web/src/props.ts panelIds, its links open the stand-in given here. Once it is registered, the
 * link opens it and its entry here can be deleted. UPDATE THIS LIST when the L6 and L8 panels merge.
 */
export const panelsAwaitingMerge = { expert: "step", numerics: "step" } as const satisfies Readonly<Record<string, PanelId>>;

/** The experiments the page links to: registered panel ids, plus the names in panelsAwaitingMerge. */
export type Experiment = PanelId | keyof typeof panelsAwaitingMerge;

/** The panel a link opens today: the experiment itself when registered, else its stand-in. */
export function panelFor(experiment: Experiment): PanelId {
  if ((panelIds as readonly string[]).includes(experiment)) return experiment as PanelId;
  const standIn = (panelsAwaitingMerge as Readonly<Record<string, PanelId>>)[experiment];
  if (!standIn) throw new Error(`home page: "${experiment}" is neither a registered panel nor in panelsAwaitingMerge`);
  return standIn;
}

/** The fragment that opens `experiment` in the page's first lab. */
export function labHref(experiment: Experiment): string {
  return `#${stateKey(0)}=${encodeState({ t: panelFor(experiment) })}`;
}
