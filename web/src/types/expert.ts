// Types of the report's L6 `expert` and L8 `numerics` sections (core expert_section.hpp, numerics_section.hpp).
import type { StepInReport } from "./step";
import type { CoreMessage } from "../core_messages";

export interface DispatchSplit {
  ep_nodes: number;
  ranks_per_node: number;
  node_limit: number;
  /** Which input set node_limit: "training.moe.node_limit", "model.moe.topk_groups", or "" (none). */
  node_limit_from: string;
  tokens: number;
  dispatch_bytes: number;
  combine_bytes: number;
  dispatch_nvlink_bytes: number;
  dispatch_network_bytes: number;
  combine_nvlink_bytes: number;
  combine_network_bytes: number;
  network_bytes: number;
  network_bytes_unlimited: number;
  formula: string;
}

export interface ExpertSection {
  moe: boolean;
  routing: string;
  skew: number;
  ep: number;
  experts: number;
  units: string;
  rank_pairs: number[];
  mean_pairs: number;
  busiest_pairs: number;
  busiest_rank: number;
  imbalance: number;
  redundant_experts: number;
  replicated_experts: number;
  balanced_rank_pairs: number[];
  balanced_busiest_pairs: number;
  balanced_imbalance: number;
  imbalance_used: number;
  redundant_bytes: number;
  redundant_formula: string;
  expert_mean_s: number;
  expert_busiest_s: number;
  imbalance_s: number;
  busiest_share: number;
  dispatch: DispatchSplit;
}

export interface ScalingRow {
  name: string;
  label: string;
  available: boolean;
  /** The row the scenario's recipe runs. */
  current: boolean;
  unavailable: string;
  /** The same as a core message (null when the row is available). */
  unavailable_msg: CoreMessage | null;
  accumulate_msg: CoreMessage;
  storage: string;
  gemm_input: string;
  accumulate: string;
  reduction: string;
  update: string;
  promote_every: number;
  gemm_input_bytes: number;
  activation_scale_bytes: number;
  input_bytes_saved: number;
  cast_bytes: number;
  cast_s: number;
  weight_scale_bytes: number;
  gemm_s: number;
  gemm_saved_s: number;
  source: string;
}

export interface NumericsSection {
  recipe: string;
  units: string;
  eligible_gemm_bf16_s: number;
  fp8_speedup: number;
  gemm_formula: string;
  gemm_formula_msg: CoreMessage;
  rows: ScalingRow[];
  optimizer: {
    params: number;
    matrix_params: number;
    adam_state_bytes: number;
    muon_state_bytes: number;
    group: number;
    bytes_per_elem: number;
    gather_whole_bytes: number;
    gather_owned_max_bytes: number;
    gather_owned_mean_bytes: number;
    /** ZeRO-1 group of the expert matrices (expert-DP dp·cp·tp/(ep·etp)) and their part of the gathers above. */
    expert_group: number;
    gather_expert_whole_bytes: number;
    gather_expert_owned_max_bytes: number;
  };
}

export type ExpertInReport = StepInReport & { expert: ExpertSection; numerics: NumericsSection };
