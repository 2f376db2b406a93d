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
  const flips = signFlips(n, seed);
  let k = 0;
  if (flips) {
    // A product, not a branch on the sign (a coin flip the CPU cannot predict); × −1 negates exactly.
    const d = Float64Array.from(diffs);
    for (let b = 0, j = 0; b < PERMUTATIONS; b++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += flips[j++]! * d[i]!;
      if (Math.abs(s / n) >= observed - eps) k++;
    }
  } else {
    const rand = seededRandom(seed);
    for (let b = 0; b < PERMUTATIONS; b++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += rand() < 0.5 ? -diffs[i]! : diffs[i]!;
      if (Math.abs(s / n) >= observed - eps) k++;
    }
  }
  return { p: (k + 1) / (PERMUTATIONS + 1), method: 'monte-carlo' };
}

/**
 * The signs the seed's generator draws, in order (−1: flipped, 1: kept), kept for the process. Draw
 * b·n + i is the sign of pair i in resample b whatever n is, so one stream serves every test with this
 * seed: a report tests every metric of every mode pair (thousands of tests over a dozen group sizes, at
 * 2,700 episodes the largest share of its time), and each used to draw its 10,000 × n signs again. The
 * sums take the same signs in the same order, so p is the same to the bit. Up to 16 million signs
 * (16 MB, n ≤ 1,600); a larger test draws as it goes.
 */
let kept: { seed: number; rand: () => number; flips: Int8Array } | null = null;
const MAX_KEPT_FLIPS = 16_000_000;

function signFlips(n: number, seed: number): Int8Array | null {
  const length = n * PERMUTATIONS;
  if (length > MAX_KEPT_FLIPS) return null;
  if (!kept || kept.seed !== seed) kept = { seed, rand: seededRandom(seed), flips: new Int8Array(0) };
  if (kept.flips.length < length) {
    // A larger n continues the same stream where the kept draws stop (the generator is kept with them).
    const flips = new Int8Array(length);
    flips.set(kept.flips);
    for (let k = kept.flips.length; k < length; k++) flips[k] = kept.rand() < 0.5 ? -1 : 1;
    kept.flips = flips;
  }
  return kept.flips;
}

/** Mean difference, its bootstrap CI and the permutation test, for already-paired differences. */
export function pairedDifference(diffs: readonly number[], seed = 1): PairedTest {
  return { ...summarize(diffs, seed), ...pairedPermutationTest(diffs, seed) };
}
