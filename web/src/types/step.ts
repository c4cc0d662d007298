// Types of the step-time JSON (report.step, ledgers L1..L9) and of the planner (tslab/plan@1).
import type { CoreMessage } from "../core_messages";
import type { ErrorReply } from "../client";
import type { PlanProgress } from "../wasm/tslab.mjs";
import type { Report, Scenario } from "../report";
import type { CommReport } from "./mesh";

export type LedgerId = "L1" | "L2" | "L3" | "L4" | "L5" | "L6" | "L7" | "L8" | "L9";

export interface StepLedger {
  id: LedgerId;
  name: string;
  time_s: number;
  exposed_s: number;
  bytes: number;
  notes: string;
  /** The notes' clauses as core message ids (core_messages.ts). */
  notes_msg: CoreMessage[];
}

/** One part of the step-time bar (report.step.segments): seconds and shares that add up to the step time. */
export interface StepSegment {
  /** "compute", "recompute", "optimizer", "bubble", "p2p", a collective named by its axis ("dp", "edp", "tp" on L5, "ep" L6, "cp" L7), "expert_imbalance", "fp8_cast" (L8) */
  id: string;
  ledger: LedgerId;
  time_s: number;
  share: number;
}

export interface StepReport {
  time_s: number;
  tokens_per_s: number;
  tflops_per_gpu: number;
  mfu: number;
  hfu: number;
  goodput: number;
  model_flops_per_gpu: number;
  hardware_flops_per_gpu: number;
  compute_s: number;
  gemm_model: string;
  ledgers: StepLedger[];
  bottleneck: string;
  /** The bottleneck's clauses as core message ids: what binds first, then the chosen trade. */
  bottleneck_msg: CoreMessage[];
  /** What DualPipe's F&B pairs hide of the EP all-to-all (zeros for other schedules). */
  ep_overlap: { pairs: number; hidden_s: number; sm_share: number };
  segments: StepSegment[];
  /** Sequences per step actually used, and where that number came from. */
  global_batch: number;
  global_batch_source: "given" | "auto";
  /** The auto rule in words, or "set by training.global_batch". */
  global_batch_rule: string;
  /** The same as core messages (batch.auto, batch.auto_schedule, batch.given). */
  global_batch_rule_msg: CoreMessage[];
  micro_batch: number;
  /** Micro-batches per pipeline (per DP replica) per step. */
  microbatches: number;
}

/** The report with the simulated pipeline's times, the comm inventory and the step ledgers. */
export type StepInReport = Report & {
  pipeline: Report["pipeline"] & { bubble_s: number; p2p_exposed_s: number; makespan_s?: number };
  comm: CommReport;
  step: StepReport;
};

export interface PlanParallel {
  dp: number;
  tp: number;
  pp: number;
  vpp: number;
  ep: number;
  cp: number;
  zero: number;
}

export interface PlanCandidate {
  parallel: PlanParallel;
  micro_batch: number;
  recompute: string;
  schedule: string;
  time_s: number;
  memory_bytes: number;
  headroom_bytes: number;
  tokens_per_s: number;
  mfu: number;
  bottleneck_ledger: string;
  bottleneck: string;
  bottleneck_msg: CoreMessage[];
  ledgers?: StepLedger[];
  /** The complete scenario the plan was ranked with: report(scenario) gives its step time. */
  scenario: Scenario;
  /** Pareto members: "report" (time_s is the report's), or "search" (the search's closed form: the time budget ran out first). */
  time_from?: "report" | "search";
  /** Top entries, when the scenario's own plan was timed: this plan against it. */
  versus_scenario?: PlanVersus;
}

/** One plan against another (core planner.hpp versus_baseline): speedup = their time / this plan's; the three largest segment differences. */
export interface PlanVersus {
  speedup: number;
  /** step.segments ids, this plan's time minus the other's, largest |Δ| first. */
  largest: { segment: string; ledger: LedgerId; delta_s: number }[];
  note: string;
}

/** The searched scenario's own plan (null when its GPU count is not the searched one). */
export interface ScenarioPlan {
  parallel: PlanParallel;
  micro_batch: number;
  recompute: string;
  schedule: string;
  time_s: number;
  fits: boolean;
  /** Its layout's place among the top list's distinct layouts (dp, tp, pp, cp, ep); 0: below the list. */
  layout_rank: number;
  /** The fastest fitting plan of its layout. */
  best_of_layout: PlanCandidate | null;
  /** The best plan against best_of_layout: the costs that separate the two layouts. */
  best_versus_layout: PlanVersus | null;
}

export interface PlanResult {
  schema: "tslab/plan@1";
  gpus: number;
  /** The training shape every candidate was ranked with (global_batch in sequences). */
  seq_len: number;
  global_batch: number;
  /** "given" when training.global_batch was given, else "auto" (the core's one rule, `global_batch_rule`). */
  global_batch_source: "given" | "auto";
  global_batch_rule: string;
  /** The same as core messages (batch.auto, batch.auto_schedule, batch.given). */
  global_batch_rule_msg: CoreMessage[];
  sp: boolean;
  complete: boolean;
  capped: boolean;
  message: string;
  message_msg: CoreMessage[];
  candidates_considered: number;
  candidates_evaluated: number;
  candidates_fitting: number;
  /** Fitting plans whose full step time was computed; the rest provably enter neither top nor pareto. */
  candidates_timed: number;
  top: PlanCandidate[];
  /** Plans no other beats on both memory and time, by memory, up to pareto_window × the fastest plan's time. */
  pareto: PlanCandidate[];
  /** The front's window: its plans take at most this many times the fastest plan's step time. */
  pareto_window: number;
  closest: PlanCandidate | null;
  scenario_plan: ScenarioPlan | null;
  elapsed_s: number;
}

/** Options of plan()/planStart(): "" or this object. */
export interface PlanOptions {
  top?: number;
  gpus?: number;
  max_candidates?: number;
  simulate_ops?: number;
  /** Knobs held at the scenario's values (the core's plan_knob_rows names; it rejects others). */
  fixed?: string[];
}

/** Page → planner worker. A search in parts runs part `part` of `parts` in each of `parts` workers, which answer with their
 *  state; the page then asks one of them to merge every state (in part order) into the result. */
export type PlannerRequest =
  | {
      type: "run";
      id: number;
      scenario: Scenario;
      options: PlanOptions;
      /** The page's loaded calibration profile (its JSON text and file name), or null: the worker's client loads the same. */
      calibration: { text: string; fileName: string } | null;
      part: number;
      parts: number;
    }
  | { type: "merge"; id: number; scenario: Scenario; options: PlanOptions; states: string[] }
  | { type: "cancel" };

/** Planner worker → page; progress has the fields of PlanProgress (tslab.d.ts). */
export type PlannerReply =
  | {
      type: "progress";
      id: number;
      progress: PlanProgress;
    }
  | { type: "result"; id: number; plan: PlanResult }
  | { type: "part"; id: number; state: string }
  | ({ type: "error"; id: number } & ErrorReply);
