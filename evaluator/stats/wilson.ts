/** Wilson score interval for a binomial proportion (95% by default): well-behaved at 0, 1 and small n. */
export function wilson(successes: number, n: number, z = 1.959964): { p: number | null; lo: number | null; hi: number | null } {
  if (n <= 0) return { p: null, lo: null, hi: null };
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { p, lo: Math.max(0, centre - half), hi: Math.min(1, centre + half) };
}
