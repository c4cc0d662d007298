// Types of presets().vocabulary: the core's descriptor rows for every closed vocabulary (schedules, optimizers, recipes, ...).

/** One pipeline schedule's descriptor row (core schedule table). */
export interface ScheduleRow {
  name: string;
  label: string;
  /** How stages sit on ranks: one per rank in a line, two per rank in a V, or both directions at once. */
  placement: "linear" | "v_shape" | "dual" | string;
  /** Model chunks each rank holds: "1", "2" or "vpp" (interleaved reads parallel.vpp). */
  chunks_per_rank: string;
  uses_vpp: boolean;
  param_copies: number;
  split_backward?: boolean;
  ep_overlap?: boolean;
  min_pp: number;
  pp_multiple: number;
  microbatch_rule?: string;
  bubble_formula?: string;
  inflight_formula?: string;
  source?: string;
}

/** Any other vocabulary row: a name, maybe a label, plus fields the lab shows as they are. */
export interface NamedRow {
  name: string;
  label?: string;
  [field: string]: unknown;
}

export interface VocabularyDefaults {
  model?: string;
  cluster: string;
  training: Record<string, unknown>;
  parallel: Record<string, unknown>;
}

export interface Vocabulary {
  schedules: ScheduleRow[];
  optimizers: NamedRow[];
  precision_recipes: NamedRow[];
  recompute_modes: (NamedRow & { whole_layer: boolean })[];
  dtypes: NamedRow[];
  cp_methods: NamedRow[];
  mesh_axes: NamedRow[];
  /** parallel.zero: each stage with what it shards (ZeRO, arXiv 1910.02054). */
  zero_stages: { stage: number; label: string; shards: string; source: string }[];
  /** Collective op names (the core's collective table, as specs, reports and profiles spell them). */
  collectives: NamedRow[];
  /** training.moe.routing.kind values (L6); reads: the scenario field the kind reads besides its name ("" for none). */
  routing_kinds: (NamedRow & { reads: string })[];
  /** model.attention, model.ffn_type and model.norm values. */
  attention_types: NamedRow[];
  ffn_types: NamedRow[];
  norms: NamedRow[];
  /** The L8 scaling recipes the numerics section compares. */
  scaling_recipes: NamedRow[];
  recommended_order: string;
  /** Input limits the lab checks as the reader types: plan_gpus is the most GPUs the planner searches (options.gpus). */
  limits: { plan_gpus: number };
  defaults: VocabularyDefaults;
}
