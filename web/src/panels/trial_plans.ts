// Plans the trials set on the shared scenario: lesson content, not defaults. A trial builds on the
// scenario the lab started from, never on what an earlier trial or edit left (L6's DualPipe under
// L7's one-stage plan was invalid), so every trial holds after any other.
import type { TslabClient } from "../client";
import type { Scenario } from "../report";
import { diffChanges, scenarioDiff } from "../share";
import { type ScenarioStore, withValue } from "../state";
import { dualSchedule, vocabularyOf } from "../vocabulary";

/** DeepSeek-V3's layout (arXiv 2412.19437 section 3.2: PP 16, EP 64, ZeRO-1 data parallelism, DualPipe) on H100 nodes; the schedule's name comes from the core. */
export function deepseekPlan(client: TslabClient, s: Scenario, more: [string, unknown][] = []): Scenario {
  const edits: [string, unknown][] = [
    ["model", "deepseek-v3"],
    ["cluster", "dgx-h100"],
    ["parallel.dp", 128],
    ["parallel.ep", 64],
    ["parallel.pp", 16],
    ["parallel.tp", 1],
    ["parallel.cp", 1],
    ["parallel.vpp", 1],
    ["parallel.sp", false],
    ["parallel.zero", 1],
    ["training.schedule", dualSchedule(vocabularyOf(client))?.name],
    ["training.seq_len", 4096],
    ["training.global_batch", 15360],
    ...more,
  ];
  return edits.reduce((acc, [p, x]) => withValue(acc, p, x), s);
}

/** The store edits that turn the current scenario into the lab's starting one with `edits` applied. */
export function trialEdits(store: ScenarioStore, edits: ReadonlyArray<readonly [string, unknown]>): [string, unknown][] {
  const target = edits.reduce((acc, [p, x]) => withValue(acc, p, x), store.start());
  return diffChanges(scenarioDiff(store.scenario(), target));
}
