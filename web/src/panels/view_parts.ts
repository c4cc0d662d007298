// Parts every result view repeats: the general error line with the stale note, and the one-click trial box.
import { el } from "../dom";
import { t, type MessageKey } from "../i18n";

export interface StatusLines {
  /** The error line and the stale note, in that order, to place above the view's body. */
  elements: HTMLElement[];
  relabel(): void;
  /** Dims `body` (the last good result stays) and shows the note. */
  setStale(stale: boolean): void;
  /** An error no control owns; null hides the line. */
  setGeneralError(message: string | null): void;
}

export function createStatusLines(body: HTMLElement, staleKey: MessageKey): StatusLines {
  const general = el("p", "tsl-error tsl-general");
  general.setAttribute("role", "alert");
  general.hidden = true;
  const staleNote = el("p", "tsl-stale-note");
  staleNote.hidden = true;
  return {
    elements: [general, staleNote],
    relabel: () => void (staleNote.textContent = t(staleKey)),
    setStale(stale) {
      body.classList.toggle("tsl-stale", stale);
      body.setAttribute("aria-disabled", String(stale));
      staleNote.hidden = !stale;
    },
    setGeneralError(message) {
      general.textContent = message ?? "";
      general.hidden = message === null;
    },
  };
}

export interface TrialBoxSpec {
  testid: string;
  labelKey: MessageKey;
  hintKey: MessageKey;
}

/**
 * The one-click trial: a button, its hint and the live region `result`. draw(trial) relabels the
 * button and hint, empties `result`, hides it without a trial and otherwise lets `fill` write it.
 */
export function createTrialBox<T>(spec: TrialBoxSpec, onTrial: () => void, result: HTMLElement, fill: (trial: T) => void) {
  const box = el("div", "tsl-trial");
  const button = el("button", "tsl-trial-button");
  button.type = "button";
  button.dataset.testid = spec.testid;
  button.addEventListener("click", onTrial);
  const hint = el("small", "tsl-trial-hint");
  result.setAttribute("aria-live", "polite");
  box.append(button, hint, result);
  const draw = (trial: T | null) => {
    button.textContent = t(spec.labelKey);
    hint.textContent = t(spec.hintKey);
    result.replaceChildren();
    result.hidden = trial === null;
    if (trial !== null) fill(trial);
  };
  return { element: box, draw };
}
