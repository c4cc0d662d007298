// Types of tslab/rl@1 (`tslab rl`, the wasm rl()): L9's checkpoint policy, goodput curve and one RL iteration.
import type { Scenario } from "../report";

export interface RlKnobs {
  rollout_batch?: number;
  prompt_tokens?: number;
  response_median_tokens?: number;
  tail_sigma?: number;
  context_tokens?: number;
  inference_tp?: number;
  reshard_link?: "inter_node" | "intra_node";
  reward?: "policy" | "rule";
  reward_efficiency?: number;
  weight_dtype?: "bf16" | "fp8";
  kv_dtype?: "bf16" | "fp8";
}

export interface RlSpec {
  schema?: "tslab/rl@1";
  scenario: Scenario;
  rl?: RlKnobs;
  gpus?: number[];
}

export interface GoodputPoint {
  gpus: number;
  mtbf_s: number;
  interval_s: number;
  blocking_s: number;
  goodput: number;
  failure_loss: number;
}

export interface RlReliability {
  checkpoint_bytes: number;
  snapshot_bytes_per_gpu: number;
  write_s: number;
  snapshot_s: number;
  async: boolean;
  blocking_s: number;
  mtbf_s: number;
  young_s: number;
  daly_s: number;
  interval_s: number;
  restart_s: number;
  goodput: number;
  failure_loss: number;
  step_s: number;
  step_bubble_share: number;
  curve: GoodputPoint[];
}

export type RlPhaseId = "train" | "reshard" | "rollout" | "reward";

export interface RlIteration {
  kv_bytes_per_token: number;
  kv_peak_bytes_per_gpu: number;
  weight_bytes_per_gpu: number;
  hbm_bytes: number;
  fits: boolean;
  replicas: number;
  trajectories_per_replica: number;
  response_mean_tokens: number;
  response_max_tokens: number;
  tokens: number;
  decode_memory_bound_share: number;
  tail_idle_fraction: number;
  reshard_bytes_per_gpu: number;
  train_steps: number;
  step_s: number;
  phases: { id: RlPhaseId; time_s: number; share: number }[];
  iteration_s: number;
  idle_s: number;
  idle_share: number;
}

export interface RlResult {
  schema: "tslab/rl@1";
  gpus: number;
  reliability: RlReliability;
  iteration: RlIteration;
  formulas: Record<string, string>;
}
