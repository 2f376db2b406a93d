import { seededRandom } from './rng.js';
import { quantile } from './summary.js';

/**
 * Krippendorff's alpha with the interval metric (squared difference), for any number of coders (judges)
 * and missing values: α = 1 − D_o / D_e, where D_o is the disagreement within units and D_e the
 * disagreement expected by chance from all pairable values (Krippendorff, "Content Analysis", ch. 12).
 * A unit is one scored seat of one episode; its values are the judges' scores. Units with fewer than two
 * values are not pairable and are left out.
 */

/** One unit's values: the scores the judges gave it (missing judges simply absent). */
export type Unit = readonly number[];

export interface Alpha {
  /** null when undefined: fewer than two pairable values, or every value equal (no expected disagreement). */
  alpha: number | null;
  /** Pairable units (two or more values). */
  units: number;
  /** Pairable values, Krippendorff's n. */
  values: number;
}

/** Alpha (interval) of the units. */
export function krippendorffInterval(units: readonly Unit[]): Alpha {
  const pairable = units.filter((u) => u.length >= 2);
  const n = pairable.reduce((a, u) => a + u.length, 0);
  if (n < 2) return { alpha: null, units: pairable.length, values: n };
  // Observed: per unit, the squared differences over ordered pairs of its values, weighted 1/(m_u − 1).
  let observed = 0;
  for (const u of pairable) {
    let sum = 0;
    for (let i = 0; i < u.length; i++) for (let j = 0; j < u.length; j++) if (i !== j) sum += (u[i]! - u[j]!) ** 2;
    observed += sum / (u.length - 1);
  }
  observed /= n;
  // Expected: squared differences over all ordered pairs of pairable values, from the sum and the sum of
  // squares (Σ_{c≠k} (x_c − x_k)² = 2nΣx² − 2(Σx)²), so a large study costs O(n), not O(n²).
  let s1 = 0;
  let s2 = 0;
  for (const u of pairable) for (const x of u) {
    s1 += x;
    s2 += x * x;
  }
  const expected = (2 * n * s2 - 2 * s1 * s1) / (n * (n - 1));
  if (expected <= 1e-12) return { alpha: null, units: pairable.length, values: n };
  return { alpha: 1 - observed / expected, units: pairable.length, values: n };
}

export interface AlphaInterval extends Alpha {
  /** Percentile bootstrap 95% interval over units; null when alpha is undefined or there are fewer than 2 units. */
  lo: number | null;
  hi: number | null;
}

/** Resamples of the alpha bootstrap: enough for a stable 95% interval on a report. */
export const ALPHA_RESAMPLES = 1000;

/**
 * Alpha with a percentile bootstrap 95% interval: units (seats) are drawn with replacement, seeded with
 * the project's generator, alpha is recomputed on each resample, and resamples where it is undefined
 * (every value equal) are left out.
 */
export function alphaWithInterval(units: readonly Unit[], seed = 1, resamples = ALPHA_RESAMPLES): AlphaInterval {
  const point = krippendorffInterval(units);
  const pairable = units.filter((u) => u.length >= 2);
  if (point.alpha === null || pairable.length < 2) return { ...point, lo: null, hi: null };
  const rand = seededRandom(seed);
  const draws: number[] = [];
  const sample = new Array<Unit>(pairable.length);
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < pairable.length; i++) sample[i] = pairable[Math.floor(rand() * pairable.length)]!;
    const a = krippendorffInterval(sample).alpha;
    if (a !== null) draws.push(a);
  }
  if (draws.length < 2) return { ...point, lo: null, hi: null };
  draws.sort((x, y) => x - y);
  return { ...point, lo: quantile(draws, 0.025), hi: quantile(draws, 0.975) };
}

/** Mean absolute difference between two judges' scores of a unit, over every pair of judges of every unit; null without pairs. */
export function meanAbsoluteDifference(units: readonly Unit[]): number | null {
  let sum = 0;
  let pairs = 0;
  for (const u of units) {
    for (let i = 0; i < u.length; i++) {
      for (let j = i + 1; j < u.length; j++) {
        sum += Math.abs(u[i]! - u[j]!);
        pairs++;
      }
    }
  }
  return pairs ? sum / pairs : null;
}
