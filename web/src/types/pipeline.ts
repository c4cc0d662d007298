// Types of the `schedule` JSON (tslab/schedule@1): the SPEC the lab sends and the simulated timeline it gets back.

/** A schedule name as the core spells it: one of presets().vocabulary.schedules[].name. */
export type ScheduleName = string;

export type OpKind = "F" | "B" | "I" | "W" | "FB";

/** SPEC of `tslab schedule` / wasm schedule(): costs are seconds per chunk-op; FB defaults to F + B. */
export interface ScheduleSpec {
  schedule: ScheduleName;
  ranks: number | string;
  microbatches: number | string;
  vpp?: number | string;
  costs?: { F?: number | string; B?: number | string; W?: number | string; FB?: number | string };
  p2p_s?: number | string;
  extra_warmup?: number;
  /** false: omit ops[] (the numbers only). */
  timeline?: boolean;
}

export interface ScheduleRank {
  rank: number;
  span_s: number;
  busy_s: number;
  peak_inflight: number;
}

export interface ScheduleOp {
  rank: number;
  kind: OpKind;
  stage: number;
  microbatch: number;
  chunk: number;
  /** The backward half of an overlapped FB pair. */
  b_stage?: number;
  b_microbatch?: number;
  b_chunk?: number;
  start_s: number;
  end_s: number;
}

export interface ScheduleResult {
  schema: "tslab/schedule@1";
  schedule: ScheduleName;
  microbatches: number;
  vpp: number;
  stages: number;
  op_count: number;
  makespan_s: number;
  bubble_fraction: number;
  param_copies: number;
  stage_params_per_device: number;
  ranks: ScheduleRank[];
  /** Present unless the SPEC asked for timeline: false. */
  ops?: ScheduleOp[];
}

/** Chrome trace-event JSON (Perfetto, chrome://tracing) from scheduleTrace(). */
export interface ScheduleTrace {
  traceEvents: Array<{
    name: string;
    ph: "M" | "X";
    pid: number;
    tid: number;
    ts?: number;
    dur?: number;
    cat?: string;
    args?: Record<string, unknown>;
  }>;
  displayTimeUnit: string;
}

/** tslab/schedule-work@1: the work of a SPEC before any is done (schedule_io.hpp). */
export interface ScheduleWork {
  op_count: number;
  work_ops: number;
  /** Small enough to simulate on the page's thread; larger runs go to the schedule Worker. */
  foreground: boolean;
  listed_ops_cap: number;
  work_ops_cap: number;
}
