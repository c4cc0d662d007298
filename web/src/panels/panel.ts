// The contract every lab panel implements; lab.ts turns the registered list into tabs.
import type { TslabClient } from "../client";
import type { MessageKey } from "../i18n";
import type { PanelId } from "../props";
import type { ScenarioStore } from "../state";

export interface PanelContext {
  client: TslabClient;
  /** The scenario of the lab this panel belongs to (several labs on a page each have one). */
  store: ScenarioStore;
}

/** One number the reader watches: the element that shows it (a selector inside the panel) and whether the element just before it is its label. */
export interface HeadlineItem {
  value: string;
  labelled?: boolean;
  /** A fixed tag before the label, where two items share one ("A", "B" schedules). */
  tag?: string;
}

export interface Panel {
  /** Stable id used in element ids, data-panel attributes and the `panels` prop (one of props.ts panelIds). */
  id: PanelId;
  /** The tab's label. */
  titleKey: MessageKey;
  /** The headline numbers, already rendered by the panel's view: the summary after the controls repeats them and announces changes. */
  headline: readonly HeadlineItem[];
  /** Builds the panel's DOM inside host; called once, after the wasm core has loaded. */
  mount(host: HTMLElement, ctx: PanelContext): void;
}
