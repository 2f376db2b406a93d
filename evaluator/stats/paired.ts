import { seededRandom } from './rng.js';
import { mean, summarize, type Summary } from './summary.js';

/** Paired difference a − b with its bootstrap CI and a two-sided paired permutation test. */
export interface PairedTest extends Summary {
  /** Two-sided p-value of the sign-flip permutation test on the mean difference; null when n = 0. */
  p: number | null;
  /** 'exact' enumerates all 2^n sign flips (n ≤ 16); 'monte-carlo' draws 10,000 (seeded). */
  method: 'exact' | 'monte-carlo' | null;
}

export const EXACT_LIMIT = 16;
export const PERMUTATIONS = 10_000;

/**
 * Paired permutation (sign-flip) test. Under H0 (no difference) each pair's difference is equally likely
 * to have either sign; p = share of sign assignments whose |mean| is ≥ the observed |mean|. Exact for
 * n ≤ 16; above, Monte Carlo with p = (k + 1) / (B + 1).
 */
export function pairedPermutationTest(diffs: readonly number[], seed = 1): { p: number | null; method: PairedTest['method'] } {
  const n = diffs.length;
  if (n === 0) return { p: null, method: null };
  const observed = Math.abs(mean(diffs));
  // Tolerance so that ties with the observed statistic count despite float rounding.
  const eps = 1e-12 * Math.max(1, observed);
  // No difference observed: every sign assignment is at least as extreme, so p is 1 by the definitions
  // below (k = all of them), without drawing 10,000 × n signs — reports are full of all-zero differences
  // (both seats of an episode share its outcome), and this was half of a 1,350-episode report's time.
  if (observed - eps <= 0) return { p: 1, method: n <= EXACT_LIMIT ? 'exact' : 'monte-carlo' };
  if (n <= EXACT_LIMIT) {
    const total = 1 << n;
    let k = 0;
    for (let mask = 0; mask < total; mask++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += mask & (1 << i) ? -diffs[i]! : diffs[i]!;
      if (Math.abs(s / n) >= observed - eps) k++;
    }
    return { p: k / total, method: 'exact' };
  }
  const rand = seededRandom(seed);
  let k = 0;
  for (let b = 0; b < PERMUTATIONS; b++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += rand() < 0.5 ? -diffs[i]! : diffs[i]!;
    if (Math.abs(s / n) >= observed - eps) k++;
  }
  return { p: (k + 1) / (PERMUTATIONS + 1), method: 'monte-carlo' };
}

/** Mean difference, its bootstrap CI and the permutation test, for already-paired differences. */
export function pairedDifference(diffs: readonly number[], seed = 1): PairedTest {
  return { ...summarize(diffs, seed), ...pairedPermutationTest(diffs, seed) };
}
