// Links from the home page into the lab on the same page: a panel id becomes a #lab=v1.… fragment the lab follows (web/src/share.ts).
import { panelIds, type PanelId } from "../../../web/src/props";
import { encodeState, stateKey } from "../../../web/src/share";

/** The experiments the page links to: the lab's registered panels. */
export type Experiment = PanelId;

/** The panel a link opens; a name that is not a registered panel fails the site build. */
export function panelFor(experiment: Experiment): PanelId {
  if (!(panelIds as readonly string[]).includes(experiment)) throw new Error(`home page: "${experiment}" is not a registered panel`);
  return experiment;
}

/** The fragment that opens `experiment` in the page's first lab. */
export function labHref(experiment: Experiment): string {
  return `#${stateKey(0)}=${encodeState({ t: panelFor(experiment) })}`;
}
