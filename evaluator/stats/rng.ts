import { mulberry32 } from '../../random/seeded.js';

/**
 * A seeded uniform random source for bootstrap resampling, permutation tests and the pairwise order:
 * the same seed gives the same report on every machine. The generator is the project's one
 * (random/seeded.ts); the seed mixing is this module's, and fixed (reports would change otherwise).
 */
export type Random = () => number;

/** Uniform numbers in [0, 1) from an integer seed. */
export function seededRandom(seed: number): Random {
  return mulberry32((Math.trunc(seed) ^ 0x2545f491) >>> 0);
}
