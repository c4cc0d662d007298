// Types of the JSON the core returns (tslab/report@1, tslab/presets@1), as far as the lab reads them.
import type { Vocabulary } from "./types/vocabulary";

export type MemoryItemId =
  | "params"
  | "grads"
  | "master_params"
  | "optimizer_states"
  | "redundant_experts"
  | "activations_layers"
  | "activations_other"
  | "comm_buffers"
  | "offloaded";

export interface MemoryItem {
  id: MemoryItemId;
  bytes: number;
  formula: string;
}

export interface MemoryReport {
  units: string;
  rank: number;
  stage: number;
  total_bytes: number;
  /** params + grads + master + optimizer states on the loaded rank. */
  model_state_bytes: number;
  capacity_bytes: number;
  headroom_bytes: number;
  fits: boolean;
  inflight: number;
  layers_on_rank: number;
  items: MemoryItem[];
  stage_total_bytes: number[];
}

export interface Report {
  schema: "tslab/report@1";
  scenario: {
    model: string;
    cluster: string;
    /** Where the cluster's figures come from: "preset: dgx-h100", "custom" or "calibrated: …". */
    source: string;
    gpu: string;
    world: number;
    nodes: number;
    gpus_per_node: number;
    parallel: Record<string, number | string | boolean>;
    microbatches: number;
    precision: string;
    optimizer: string;
    recompute: string;
    schedule: string;
  };
  model: {
    name: string;
    params_total: number;
    params_active: number;
    params_embedding: number;
    flops_per_token: number;
  };
  memory: MemoryReport;
  pipeline: {
    schedule: string;
    microbatches: number;
    chunks: number;
    param_copies: number;
    peak_inflight: number[];
    inflight_formula: string;
  };
}

export interface Presets {
  schema: "tslab/presets@1";
  models: Record<string, Record<string, unknown> & { source?: string }>;
  clusters: Record<string, Record<string, unknown> & { gpu?: string; source?: string }>;
  gpus: Record<string, Record<string, unknown> & { hbm_bytes?: number; source?: string }>;
  /** Every closed vocabulary as the core's descriptor rows: the lab's selects, labels and defaults. */
  vocabulary: Vocabulary;
}

/** A scenario as the lab builds it; parts may be preset names (ARCHITECTURE.md, "Inputs"). */
export interface Scenario {
  schema?: "tslab/scenario@1";
  model: string | Record<string, unknown>;
  cluster: string | Record<string, unknown>;
  parallel: Record<string, unknown>;
  training: Record<string, unknown>;
}
