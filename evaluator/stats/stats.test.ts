import { describe, expect, it } from 'vitest';
import { pairedDifference, pairedPermutationTest, PERMUTATIONS } from './paired.js';
import { seededRandom } from './rng.js';
import { BOOTSTRAP_RESAMPLES, quantile, summarize } from './summary.js';
import { wilson } from './wilson.js';

describe('seeded random', () => {
  it('repeats for a seed and differs between seeds', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const c = seededRandom(8);
    const xs = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(xs);
    expect(c()).not.toBe(xs[0]);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
  });
});

describe('bootstrap summary', () => {
  it('gives mean, n and no CI for empty or single samples', () => {
    expect(summarize([])).toEqual({ n: 0, mean: null, lo: null, hi: null });
    expect(summarize([4])).toEqual({ n: 1, mean: 4, lo: null, hi: null });
  });
  it('has a zero-width CI for constant data', () => {
    expect(summarize([2, 2, 2])).toEqual({ n: 3, mean: 2, lo: 2, hi: 2 });
    // Constant data skips the draws: the bounds are the mean as summed in order (what every resample sums
    // to), not the value itself (0.1 × 37 summed is not 3.7).
    const tenths = new Array<number>(37).fill(0.1);
    const summed = tenths.reduce((s, v) => s + v, 0) / 37;
    expect(summed).not.toBe(0.1);
    expect(summarize(tenths)).toEqual({ n: 37, mean: summed, lo: summed, hi: summed });
  });
  it('brackets the mean inside the data range, deterministically for a seed', () => {
    const data = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const s = summarize(data, 3);
    expect(s.mean).toBe(5.5);
    expect(s.lo!).toBeGreaterThan(3.2);
    expect(s.lo!).toBeLessThan(5.5);
    expect(s.hi!).toBeGreaterThan(5.5);
    expect(s.hi!).toBeLessThan(7.8);
    expect(summarize(data, 3)).toEqual(s);
    // The normal-theory half-width is 1.96 * sd/sqrt(n) ≈ 1.78; the percentile bootstrap is close to it.
    expect(s.hi! - s.lo!).toBeGreaterThan(2.8);
    expect(s.hi! - s.lo!).toBeLessThan(4.2);
  });
  it('interpolates quantiles', () => {
    expect(quantile([0, 10], 0.25)).toBe(2.5);
    expect(quantile([1, 2, 3], 0.5)).toBe(2);
  });
});

describe('paired permutation test', () => {
  it('is exact for small n: five positive differences give p = 2/32', () => {
    expect(pairedPermutationTest([1, 1, 1, 1, 1])).toEqual({ p: 2 / 32, method: 'exact' });
  });
  it('gives p = 1 for differences that cancel and for all-zero differences', () => {
    expect(pairedPermutationTest([1, -1]).p).toBe(1);
    expect(pairedPermutationTest([0, 0, 0]).p).toBe(1);
    // Above the exact limit too (no draws needed: every sign assignment is as extreme as 0), same method.
    expect(pairedPermutationTest(Array.from({ length: 450 }, () => 0))).toEqual({ p: 1, method: 'monte-carlo' });
    expect(pairedPermutationTest(Array.from({ length: 40 }, (_, i) => (i % 2 ? 2 : -2)))).toEqual({ p: 1, method: 'monte-carlo' });
  });
  it('counts sign patterns at least as extreme: [1, 1, 0] → 4/8', () => {
    expect(pairedPermutationTest([1, 1, 0]).p).toBe(0.5);
  });
  it('switches to seeded Monte Carlo above 16 pairs, with p = (k + 1) / (B + 1)', () => {
    const diffs = Array.from({ length: 30 }, () => 1);
    const r = pairedPermutationTest(diffs, 5);
    expect(r.method).toBe('monte-carlo');
    expect(r.p).toBeCloseTo(1 / (PERMUTATIONS + 1), 10);
    const noisy = Array.from({ length: 30 }, (_, i) => (i % 2 ? 1 : -1));
    expect(pairedPermutationTest(noisy, 5).p!).toBeGreaterThan(0.5);
  });
  it('keeps its sign draws per n and seed, and p is what fresh draws give, whatever the order of the tests', () => {
    const fresh = (diffs: readonly number[], seed: number) => {
      const rand = seededRandom(seed);
      const observed = Math.abs(diffs.reduce((a, b) => a + b, 0) / diffs.length);
      let k = 0;
      for (let b = 0; b < PERMUTATIONS; b++) {
        let s = 0;
        for (const d of diffs) s += rand() < 0.5 ? -d : d;
        if (Math.abs(s / diffs.length) >= observed - 1e-12 * Math.max(1, observed)) k++;
      }
      return (k + 1) / (PERMUTATIONS + 1);
    };
    const a = Array.from({ length: 40 }, (_, i) => (i % 3) - 0.8);
    const b = Array.from({ length: 40 }, (_, i) => (i % 5 ? 1 : -2.5));
    const c = Array.from({ length: 25 }, (_, i) => (i % 4) - 1.2);
    for (const [diffs, seed] of [[a, 1], [c, 1], [b, 1], [a, 2], [c, 1], [a, 1]] as const) expect(pairedPermutationTest(diffs, seed).p).toBe(fresh(diffs, seed));
  });
  it('reports the mean difference with its CI', () => {
    const r = pairedDifference([2, 2, 2, 2]);
    expect(r).toMatchObject({ n: 4, mean: 2, lo: 2, hi: 2, p: 2 / 16, method: 'exact' });
    expect(pairedDifference([])).toMatchObject({ n: 0, mean: null, p: null });
  });
});

/** The bootstrap drawing as it goes (no kept draws): the reference. */
function referenceSummary(values: number[], seed: number): { lo: number; hi: number } {
  const n = values.length;
  const rand = seededRandom(seed);
  const means: number[] = [];
  for (let b = 0; b < BOOTSTRAP_RESAMPLES; b++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += values[Math.floor(rand() * n)]!;
    means.push(s / n);
  }
  means.sort((a, b) => a - b);
  return { lo: quantile(means, 0.025), hi: quantile(means, 0.975) };
}

describe('kept draws (a report resamples many dimensions over the same episodes)', () => {
  it('give the same CIs to the bit, whatever came before, as drawing anew', () => {
    const series = (n: number, f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));
    // Same n and seed in a row (the draws are reused), then another n and seed, then back.
    const cases: Array<[number[], number]> = [
      [series(40, (i) => (i * 7) % 11 - 5), 1],
      [series(40, (i) => (i * 3) % 5), 1],
      [series(40, (i) => Math.sin(i) * 3 + 0.25), 1],
      [series(57, (i) => (i % 9) - 4.5), 1],
      [series(40, (i) => (i * 7) % 11 - 5), 2],
      [series(40, (i) => (i * 3) % 5 - 1.5), 1],
    ];
    for (const [values, seed] of cases) {
      const s = summarize(values, seed);
      expect({ lo: s.lo, hi: s.hi }).toEqual(referenceSummary(values, seed));
    }
  });
});

describe('Wilson interval', () => {
  it('matches known values', () => {
    const half = wilson(5, 10);
    expect(half.p).toBe(0.5);
    expect(half.lo!).toBeCloseTo(0.2366, 3);
    expect(half.hi!).toBeCloseTo(0.7634, 3);
    const zero = wilson(0, 10);
    expect(zero.lo).toBe(0);
    expect(zero.hi!).toBeCloseTo(0.2775, 3);
    expect(wilson(10, 10).hi!).toBeCloseTo(1, 12);
    expect(wilson(10, 10).lo!).toBeCloseTo(0.7225, 3);
    expect(wilson(0, 0)).toEqual({ p: null, lo: null, hi: null });
  });
});
