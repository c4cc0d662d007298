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
