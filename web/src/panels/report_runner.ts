// The run loop of a panel drawn from one report() of the shared scenario: one report per frame, errors at their controls.
import { ScenarioError } from "../client";
import { showErrorAt, type Control } from "../controls";
import { bindScenarioControls, type ScenarioField } from "../scenario_fields";
import type { PanelContext } from "./panel";

export interface ReportView<R> {
  render(r: R): void;
  setStale(stale: boolean): void;
  setGeneralError(message: string | null): void;
  clearTrial(): void;
}

export interface ReportRunner {
  /** Draws the shared scenario's report now (dropping a pending frame). */
  compute(): void;
  /** Writes a scenario into the controls. */
  show(s: Parameters<ReturnType<typeof bindScenarioControls>>[0]): void;
  showError(err: ScenarioError | null): void;
  /** The last error again, in the current language. */
  reshowError(): void;
}

/** Binds the controls to the store; a change not made by the panel's own trial (`${panelId}-trial`) clears the trial. */
export function runReportPanel<R>(
  { client, store }: PanelContext,
  panelId: string,
  form: HTMLFormElement,
  controls: Map<string, Control>,
  fields: Map<string, ScenarioField>,
  errorTargets: ReadonlyArray<readonly [string, string]>,
  view: ReportView<R>,
): ReportRunner {
  let lastError: ScenarioError | null = null;
  const showError = (err: ScenarioError | null) => ((lastError = err), showErrorAt(err, controls, errorTargets, view.setGeneralError));
  let frame = 0;
  const draw = (): void => {
    try {
      const r = client.report(store.scenario()) as R;
      showError(null);
      view.render(r);
      view.setStale(false);
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      showError(e);
      view.setStale(true);
    }
  };
  const show = bindScenarioControls(store, panelId, form, controls, fields, (_s, e) => {
    if (e.source !== `${panelId}-trial`) view.clearTrial();
    if (!frame) frame = requestAnimationFrame(() => ((frame = 0), draw()));
  });
  const compute = () => {
    if (frame) (cancelAnimationFrame(frame), (frame = 0));
    draw();
  };
  return { compute, show, showError, reshowError: () => showError(lastError) };
}
