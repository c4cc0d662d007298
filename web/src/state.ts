// The lab's shared configuration: the planner writes an applied plan here, the panels read it and set their controls.
import type { PlanParallel } from "./types/step";

/** One configuration as every panel understands it (the planner's candidate plus model and cluster). */
export interface SharedConfig {
  model: string;
  cluster: string;
  parallel: PlanParallel;
  /** Megatron sequence parallelism, as the planner's scenario had it. */
  sp: boolean;
  micro_batch: number;
  recompute: string;
  schedule: string;
  /** The sequence length and global batch (sequences) the planner ranked the plan with. */
  seq_len: number;
  global_batch: number;
}

/** Micro-batches per pipeline per step: global_batch / (micro_batch · dp). */
export function microbatchesOf(c: SharedConfig): number {
  return Math.floor(c.global_batch / (c.micro_batch * c.parallel.dp));
}

type Listener = (config: SharedConfig) => void;

let current: SharedConfig | null = null;
const listeners = new Set<Listener>();

/** The last applied configuration, or null before any. */
export function currentConfig(): SharedConfig | null {
  return current;
}

/** Publishes config to every subscriber (the memory, step and other panels). */
export function applyConfig(config: SharedConfig): void {
  current = config;
  listeners.forEach((fn) => fn(config));
}

/** Calls fn on every later applyConfig; returns the unsubscribe function. */
export function subscribe(fn: Listener): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
