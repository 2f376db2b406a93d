/**
 * Fleiss' kappa for items rated by a varying number of raters (at least 2 each) into categories:
 * observed agreement per item P_i = (Σ n_ij² − n_i) / (n_i (n_i − 1)), chance agreement from the
 * pooled category proportions. Items with fewer than two ratings carry no agreement and are left out.
 * Returns null when no item has two ratings, or when chance agreement is 1 (everyone always chose the
 * same category: kappa is undefined, not perfect).
 */
export function fleissKappa(items: ReadonlyArray<ReadonlyArray<string>>): { kappa: number | null; items: number; ratings: number } {
  const rated = items.filter((r) => r.length >= 2);
  if (!rated.length) return { kappa: null, items: 0, ratings: 0 };
  const totals = new Map<string, number>();
  let ratings = 0;
  let pSum = 0;
  for (const r of rated) {
    const counts = new Map<string, number>();
    for (const c of r) counts.set(c, (counts.get(c) ?? 0) + 1);
    let sq = 0;
    for (const [c, k] of counts) {
      sq += k * k;
      totals.set(c, (totals.get(c) ?? 0) + k);
    }
    pSum += (sq - r.length) / (r.length * (r.length - 1));
    ratings += r.length;
  }
  const pBar = pSum / rated.length;
  let pe = 0;
  for (const k of totals.values()) pe += (k / ratings) ** 2;
  if (pe >= 1) return { kappa: null, items: rated.length, ratings };
  return { kappa: (pBar - pe) / (1 - pe), items: rated.length, ratings };
}

/** Cohen's kappa between two raters over the same items (two paired label lists). Null when undefined. */
export function cohenKappa(a: readonly string[], b: readonly string[]): number | null {
  if (a.length !== b.length || !a.length) return null;
  const n = a.length;
  let agree = 0;
  const ca = new Map<string, number>();
  const cb = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    if (a[i] === b[i]) agree++;
    ca.set(a[i]!, (ca.get(a[i]!) ?? 0) + 1);
    cb.set(b[i]!, (cb.get(b[i]!) ?? 0) + 1);
  }
  let pe = 0;
  for (const [c, k] of ca) pe += (k / n) * ((cb.get(c) ?? 0) / n);
  if (pe >= 1) return null;
  return (agree / n - pe) / (1 - pe);
}
