import { seededRandom } from './rng.js';

/** Mean with a 95% bootstrap confidence interval. */
export interface Summary {
  n: number;
  mean: number | null;
  /** Percentile bootstrap 95% CI; null when n < 2. */
  lo: number | null;
  hi: number | null;
}

export const BOOTSTRAP_RESAMPLES = 2000;

export function mean(values: readonly number[]): number {
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

/** The q-quantile of sorted values, linear interpolation between order statistics. */
export function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/**
 * Mean and percentile-bootstrap 95% CI: B resamples of size n drawn with replacement (seeded), the CI
 * is the 2.5th and 97.5th percentiles of the resampled means.
 */
export function summarize(values: readonly number[], seed = 1, resamples = BOOTSTRAP_RESAMPLES): Summary {
  const n = values.length;
  if (n === 0) return { n, mean: null, lo: null, hi: null };
  const m = mean(values);
  if (n < 2) return { n, mean: m, lo: null, hi: null };
  // Every value the same: every resample is the same values summed in the same order, so every resampled
  // mean is `m` to the bit and so are both percentiles. Reports are full of these (a dimension no
  // episode moved), and drawing 2,000 × n of them was most of a large report's time.
  if (Number.isFinite(m) && values.every((v) => v === values[0])) return { n, mean: m, lo: m, hi: m };
  const means = new Array<number>(resamples);
  const idx = resampleIndices(n, seed, resamples);
  if (idx) {
    for (let b = 0, k = 0; b < resamples; b++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += values[idx[k++]!]!;
      means[b] = s / n;
    }
  } else {
    const rand = seededRandom(seed);
    for (let b = 0; b < resamples; b++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += values[Math.floor(rand() * n)]!;
      means[b] = s / n;
    }
  }
  means.sort((a, b) => a - b);
  return { n, mean: m, lo: quantile(means, 0.025), hi: quantile(means, 0.975) };
}

/**
 * The resample indices drawn last, kept while n, the seed and B stay the same. A report resamples every
 * dimension and metric over the same episodes with the same seed, so the draws (most of a large report's
 * time) repeat; the means are summed in the same order from the same indices, so the results are the
 * same to the bit. Up to 8 million indices (32 MB); a larger bootstrap draws as it goes.
 */
let drawn: { n: number; seed: number; resamples: number; idx: Uint32Array } | null = null;
const MAX_KEPT_DRAWS = 8_000_000;

function resampleIndices(n: number, seed: number, resamples: number): Uint32Array | null {
  if (n * resamples > MAX_KEPT_DRAWS) return null;
  if (drawn && drawn.n === n && drawn.seed === seed && drawn.resamples === resamples) return drawn.idx;
  const rand = seededRandom(seed);
  const idx = new Uint32Array(n * resamples);
  for (let k = 0; k < idx.length; k++) idx[k] = Math.floor(rand() * n);
  drawn = { n, seed, resamples, idx };
  return idx;
}
