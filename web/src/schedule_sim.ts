// One pipeline run as the panel shows it: the summary always, the ops for drawing when they fit the drawing cap.
import type { ErrorReply, TslabClient } from "./client";
import type { ScheduleResult, ScheduleSpec } from "./types/pipeline";

/** Most blocks one timeline draws; bigger schedules show their numbers and a note instead. */
export const drawCap = 4000;

/** The numbers come from the full simulation; the ops only when the schedule is under the drawing cap. */
export function simulateForDrawing(client: TslabClient, spec: ScheduleSpec): ScheduleResult {
  const summary = client.schedule({ ...spec, timeline: false });
  return summary.op_count <= drawCap ? client.schedule({ ...spec, timeline: true }) : summary;
}

/** Page → schedule Worker: simulate these SPECs (run A, and B when comparing). */
export interface ScheduleRequest {
  id: number;
  specs: ScheduleSpec[];
}

/** Schedule Worker → page: every result, or the first error with the index of its SPEC. */
export type ScheduleReply = { id: number; type: "results"; results: ScheduleResult[] } | ({ id: number; type: "error"; index: number } & ErrorReply);
