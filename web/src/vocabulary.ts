// The core's vocabulary as the lab uses it: selects, labels and defaults built from presets().vocabulary, never from lists of our own.
import type { Choice } from "./controls";
import type { TslabClient } from "./client";
import type { NamedRow, ScheduleRow, Vocabulary } from "./types/vocabulary";

/** presets().vocabulary (cached by the client). */
export function vocabularyOf(client: TslabClient): Vocabulary {
  return client.presets().vocabulary;
}

/**
 * One select choice per row, in the core's order. `keyPrefix` names the i18n key of a row
 * (`${keyPrefix}.${name}`) for a Chinese label; a row without one shows the core's label.
 */
export function choicesOf(rows: readonly NamedRow[] | readonly ScheduleRow[], keyPrefix?: string): Choice[] {
  return rows.map((r) => ({ value: r.name, label: r.label ?? r.name, ...(keyPrefix ? { labelKey: `${keyPrefix}.${r.name}` } : {}) }));
}

/** The schedule's descriptor row, or undefined for a name the core does not know (the core then names the error). */
export function scheduleRow(v: Vocabulary, name: string): ScheduleRow | undefined {
  return v.schedules.find((s) => s.name === name);
}

/** A schedule's label as the core spells it ("1F1B", "DualPipe"). */
export function scheduleLabel(v: Vocabulary, name: string): string {
  return scheduleRow(v, name)?.label ?? name;
}

/** The core's default for a scenario field ("training.recompute"), or undefined when it has none. */
export function defaultOf(v: Vocabulary, path: string): unknown {
  const [part, ...rest] = path.split(".");
  let node: unknown = part === "training" || part === "parallel" ? v.defaults[part] : (v.defaults as unknown as Record<string, unknown>)[part];
  for (const k of rest) node = node && typeof node === "object" ? (node as Record<string, unknown>)[k] : undefined;
  return node;
}

/** The recompute mode that saves the most activations: the one the core marks as recomputing whole layers. */
export function fullestRecompute(v: Vocabulary): string {
  return (v.recompute_modes.find((r) => r.whole_layer) ?? v.recompute_modes[v.recompute_modes.length - 1]).name;
}

/** The schedule a pipeline trial compares against the default: the first one with the dual (bidirectional) placement. */
export function dualSchedule(v: Vocabulary): ScheduleRow | undefined {
  return v.schedules.find((s) => s.placement === "dual");
}

/** The first schedule whose ranks hold parallel.vpp chunks each (interleaved 1F1B): the L9 trial's well-filled pipeline. */
export function vppSchedule(v: Vocabulary): ScheduleRow | undefined {
  return v.schedules.find((s) => s.chunks_per_rank === "vpp");
}
