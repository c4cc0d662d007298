// How the pipeline panel follows the shared scenario: its stage count, chunks, schedule and micro-batch count, as the core resolved them.
import type { TslabClient } from "../client";
import type { Scenario } from "../report";
import type { ScenarioEvent } from "../state";
import type { StepInReport } from "../types/step";
import type { Vocabulary } from "../types/vocabulary";
import { scheduleRow } from "../vocabulary";

type Values = Record<string, string>;

/** The pipeline controls for a scenario, from its report (the core's pp, vpp, schedule and step.microbatches); null when it is invalid. */
function pipelineValues(client: TslabClient, vocab: Vocabulary, s: Scenario): Values | null {
  let r: StepInReport;
  try {
    r = client.report(s) as StepInReport;
  } catch {
    return null; // the scenario's own panels name the error
  }
  const schedule = r.scenario.schedule;
  const values: Values = { pipe_ranks: String(r.scenario.parallel.pp), pipe_m: String(r.step.microbatches), pipe_schedule: schedule };
  if (scheduleRow(vocab, schedule)?.uses_vpp) values.pipe_v = String(r.scenario.parallel.vpp);
  return values;
}

/**
 * A store listener that calls `apply(values, applied)` when the scenario's pipeline changed (an edit
 * elsewhere that leaves pp, vpp, schedule and micro-batches alone leaves the panel's own what-if alone)
 * and on every applied plan.
 */
export function followScenario(client: TslabClient, vocab: Vocabulary, current: Scenario, apply: (values: Values, applied: boolean) => void) {
  let shown = JSON.stringify(pipelineValues(client, vocab, current));
  return (s: Scenario, e: ScenarioEvent) => {
    const values = pipelineValues(client, vocab, s);
    const key = JSON.stringify(values);
    if (!values || (key === shown && e.kind !== "apply")) return;
    shown = key;
    apply(values, e.kind === "apply");
  };
}
