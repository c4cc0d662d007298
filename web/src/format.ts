// Number formatting for the lab: bytes always name their unit (GiB = 2^30 B, GB = 10^9 B).

export const GIB = 2 ** 30;
export const GB = 1e9;

export function gib(bytes: number, digits = 2): string {
  return (bytes / GIB).toFixed(digits);
}

export function gb(bytes: number, digits = 2): string {
  return (bytes / GB).toFixed(digits);
}

/** "44.44 GiB (47.72 GB)": both units, named. */
export function bothUnits(bytes: number): string {
  return `${gib(bytes)} GiB (${gb(bytes)} GB)`;
}

/** Parameter counts in the way papers quote them: 70.55B, 671.0B, 1.04T. */
export function paramCount(n: number): string {
  if (n >= 1e12) return `${(n / 1e12).toFixed(2)}T`;
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)}B`;
  return `${(n / 1e6).toFixed(1)}M`;
}

/** A duration with its unit: "3.20 µs", "12.4 ms", "1.53 s" (three significant digits). */
export function duration(s: number): string {
  const a = Math.abs(s);
  if (a === 0) return "0 s";
  if (a < 1e-3) return `${(s * 1e6).toPrecision(3)} µs`;
  if (a < 1) return `${(s * 1e3).toPrecision(3)} ms`;
  return `${s.toPrecision(3)} s`;
}

/** Byte counts in binary units, named: "512 B", "64.0 KiB", "1.50 GiB". */
export function binaryBytes(b: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let v = b;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) ((v /= 1024), i++);
  return i === 0 ? `${Math.round(v)} B` : `${v.toPrecision(3)} ${units[i]}`;
}

/** Large counts with a decimal suffix: "2,048", "4.19M", "1.07B". */
export function compactCount(n: number): string {
  if (Math.abs(n) >= 1e9) return `${(n / 1e9).toPrecision(3)}B`;
  if (Math.abs(n) >= 1e6) return `${(n / 1e6).toPrecision(3)}M`;
  return n.toLocaleString("en-US");
}
