/**
 * A seeded uniform random source (mulberry32) for bootstrap resampling, permutation tests and the
 * pairwise order: the same seed gives the same report on every machine.
 */
export type Random = () => number;

/** Uniform numbers in [0, 1) from an integer seed. */
export function seededRandom(seed: number): Random {
  let state = (Math.trunc(seed) ^ 0x2545f491) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
