// Types of the calibration JSON the lab reads: the profile's summary and its predicted-vs-measured check.
import type { CoreMessage } from "../core_messages";

/** One cluster figure a profile replaces (calibration_summary.hpp, `replaces[]`). */
export type ReplacedFigure =
  | { id: "intra_node" | "inter_node"; path: string; in_report: true; bandwidth_Bps: number; latency_s: number; from: string }
  | { id: "hbm" | "host"; path: string; in_report: true; bandwidth_Bps: number; from: string }
  | { id: "gemm"; path: string; in_report: true; dtype: string; flops_per_s_max: number; x_half_flops: number; from: string };

/** validateProfile(): tslab/calibration-summary@1. */
export interface CalibrationSummary {
  schema: "tslab/calibration-summary@1";
  /** "calibrated: NVIDIA H200 ×8, 2026-12-01" — the same text a report's scenario.source carries. */
  source: string;
  backend: string;
  host: string;
  created: string;
  ranks: number;
  nodes: number;
  complete: boolean;
  devices: { name: string; count: number }[];
  probes: { collective_fits: number; collective_samples: number; gemm_samples: number; memory_samples: number };
  replaces: ReplacedFigure[];
}

/** One probe of validation(): measured time against the prediction. */
export interface ProbeCheck {
  kind: "collective" | "gemm" | "memory";
  probe: string;
  /** Bytes (collective, memory) or FLOPs (gemm). */
  size: number;
  measured_s: number;
  predicted_s: number;
  /** (predicted − measured) / measured. */
  error_rel: number;
}

/** validation(): tslab/validation@1. */
export interface Validation {
  schema: "tslab/validation@1";
  /** "profile fits", or the scenario cluster's source. */
  predicted_by: string;
  probes: number;
  median_abs_error: number;
  max_abs_error: number;
  rows: ProbeCheck[];
  /** The core's sentences on the profile against the scenario's cluster (GPU model, scale, CPU backend, partial run). */
  warnings: string[];
  /** The same sentences as core message ids (core_messages.ts). */
  warnings_msg: CoreMessage[];
}

/** A profile the client applies to every scenario: its parsed object, summary and file name. */
export interface LoadedCalibration {
  profile: Record<string, unknown>;
  summary: CalibrationSummary;
  fileName: string;
}
