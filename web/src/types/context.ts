// Types of tslab/context@1 (`tslab context`, the wasm context()): L7 methods side by side and the causal balance.
import type { CoreMessage } from "../core_messages";

export interface ContextItem {
  what: string;
  op: string;
  /** The mesh class of the call's group: "intra" (NVLink), "inter" (network), "mixed". */
  link: string;
  bytes: number;
  wire_bytes: number;
  /** Calls per layer and micro-batch, forward + backward. */
  calls: number;
  time_s: number;
  exposed_s: number;
  under_attention: boolean;
}

export interface ContextMethod {
  /** "sp" (Megatron SP at cp = 1) or a cp_methods name of the vocabulary. */
  id: string;
  label: string;
  source: string;
  axis: "tp" | "cp";
  available: boolean;
  active: boolean;
  /** Why the method cannot run this scenario ("parallel.cp: ..."); empty when available. */
  reason: string;
  /** The reason's path and its core message id (null when available). */
  reason_path: string;
  reason_msg: CoreMessage | null;
  degree: number;
  ulysses: number;
  ring: number;
  items: ContextItem[];
  /** Per layer and micro-batch on one rank. */
  bytes: number;
  wire_bytes: number;
  time_s: number;
  exposed_s: number;
  hidden_s: number;
  attention_s: number;
  step_l7_s: number;
  step_l7_exposed_s: number;
  step_s: number;
  memory_bytes: number;
  activation_bytes: number;
  capacity_bytes: number;
  fits: boolean;
  kv_bytes: number;
  kv_formula: string;
  kernel_keys: number;
  balance_zigzag: number;
  balance_contiguous: number;
}

export interface ContextBalance {
  ranks: number;
  chunks: number;
  contiguous_ratio: number;
  zigzag_ratio: number;
  per_rank: { rank: number; chunks: [number, number]; contiguous: number; zigzag: number }[];
}

export interface ContextResult {
  schema: "tslab/context@1";
  seq_len: number;
  cp: number;
  cp_method: string;
  tp: number;
  seq_stops: number[];
  methods: ContextMethod[];
  balance: ContextBalance;
  formulas: Record<string, string>;
}
