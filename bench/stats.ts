/** The q-quantile (0..1) of `values` by nearest rank; NaN when empty. Sorts a copy. */
export function quantile(values: ArrayLike<number>, q: number): number {
  const n = values.length;
  if (n === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))]!;
}

/** Rounds for a readable JSON report. */
export const round = (x: number, digits = 3): number => (Number.isFinite(x) ? Math.round(x * 10 ** digits) / 10 ** digits : x);

/** kB → MB, rounded to 0.1. */
export const mb = (kb: number): number => Math.round(kb / 102.4) / 10;
