// Types of the mesh, collective and communication-inventory JSON (tslab/mesh@1, tslab/collective@1, report.mesh/comm).
import type { CoreMessage } from "../core_messages";
import type { Report } from "../report";

export type MeshAxis = "tp" | "cp" | "ep" | "dp" | "pp";
export type LinkClass = "intra" | "inter" | "mixed";

/** The wasm `mesh` query (mesh.hpp, mesh_json_text). */
export interface MeshSpec {
  dp?: number;
  tp?: number;
  pp?: number;
  ep?: number;
  cp?: number;
  /** Axis order, innermost (fastest varying) first; default Megatron's "tp-cp-ep-dp-pp". */
  order?: string;
  gpus_per_node?: number;
  /** 0 or absent: as many nodes as the plan needs. */
  nodes?: number;
  sp?: boolean;
  /** A name of presets().vocabulary.cp_methods. */
  cp_method?: string;
  heads?: number;
  /** Most ranks listed per axis in groups[]. */
  list_limit?: number;
}

export interface MeshGroup {
  axis: MeshAxis;
  size: number;
  link: LinkClass;
  ranks: number[];
  /** Nodes the group spans. */
  nodes: number;
}

export interface MeshAxisSummary {
  axis: MeshAxis;
  size: number;
  groups: number;
  intra: number;
  inter: number;
  mixed: number;
  max_nodes: number;
  /** The class that binds the timing: mixed if any group is mixed, else inter if any is. */
  link: LinkClass;
  listed: number;
}

export interface MeshReport {
  order: string;
  world: number;
  nodes: number;
  gpus_per_node: number;
  groups: MeshGroup[];
  /** Sentences, in English. */
  warnings: string[];
  /** The same sentences as core message ids (core_messages.ts). */
  warnings_msg: CoreMessage[];
  axes: MeshAxisSummary[];
  truncated: boolean;
  note?: string;
}

export type MeshResult = MeshReport & { schema: "tslab/mesh@1" };

export type CollectiveOp = "allreduce" | "reducescatter" | "allgather" | "alltoall" | "broadcast" | "reduce" | "sendrecv";

/** The wasm `collective` query (collectives.hpp, collective_query). */
export interface CollectiveSpec {
  op: CollectiveOp | string;
  /** Message size S in the nccl-tests convention (the full buffer), bytes. */
  bytes: number;
  ranks: number;
  algorithm?: string;
  /** A custom link, or a tier of the cluster; absent: the group sits on the cluster's nodes. */
  link?: { bandwidth_Bps: number; latency_s: number } | "intra_node" | "inter_node";
  cluster?: string | Record<string, unknown>;
  ranks_per_node?: number;
  /** 0..1: the share of the time hidden behind compute. */
  overlap?: number;
}

export interface CollectiveCandidate {
  algorithm: string;
  time_s: number;
  alpha_s: number;
  beta_s: number;
  rounds: number;
  wire_bytes: number;
}

export interface CollectiveResult {
  schema: "tslab/collective@1";
  op: CollectiveOp;
  ranks: number;
  bytes: number;
  algorithm: string;
  chosen_by: string;
  link: LinkClass | "custom";
  link_source: string;
  nodes: number;
  ranks_per_node: number;
  time_s: number;
  alpha_s: number;
  beta_s: number;
  algbw_Bps: number;
  busbw_Bps: number;
  busbw_factor: number;
  /** Bytes one rank sends over all links. */
  wire_bytes: number;
  rounds: number;
  overlap: number;
  exposed_s: number;
  candidates: CollectiveCandidate[];
}

/** One collective of the step. bytes, time_s and exposed_s are per call; step_* per step. */
export interface CommItem {
  what: string;
  op: CollectiveOp;
  axis: string;
  per: string;
  bytes: number;
  link: LinkClass;
  time_s: number;
  exposed_s: number;
  /** Calls per step on the most loaded pipeline stage. */
  count: number;
  ranks: number;
  algorithm: string;
  wire_bytes: number;
  rounds: number;
  alpha_s: number;
  beta_s: number;
  algbw_Bps: number;
  busbw_Bps: number;
  overlap: number;
  step_time_s: number;
  step_exposed_s: number;
}

/** One axis's items summed by the core (report.comm.axes). */
export interface CommAxis {
  axis: string;
  step_time_s: number;
  step_exposed_s: number;
  step_bytes: number;
  count: number;
}

export interface CommReport {
  source: string;
  note: string;
  items: CommItem[];
  step_time_s: number;
  step_exposed_s: number;
  /** Σ bytes × count over the items. */
  step_bytes: number;
  axes: CommAxis[];
}

/** The report with the mesh and the step's communication inventory (ledger L5). */
export type CommInReport = Report & { mesh: MeshReport; comm: CommReport };
