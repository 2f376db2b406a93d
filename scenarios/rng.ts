import { fnv1a, rngFromState, type Rng } from '../random/seeded.js';

/**
 * Seeded randomness for the scenario generators and importers, so generated scenario sets are identical
 * for a seed on every machine. Generators take an `Rng` instead of calling Math.random. The generator
 * itself is the project's one (random/seeded.ts); the seed mixing below is this module's, and fixed:
 * changing it would change every generated set.
 */
export type { Rng };

/** Creates a deterministic random source from an integer seed. */
export function createRng(seed: number): Rng {
  return rngFromState((Math.trunc(seed) ^ 0x9e3779b9) >>> 0);
}

/** Derives an independent seed for a sub-generator, so adding one set does not shift another. */
export function deriveSeed(seed: number, label: string): number {
  return fnv1a(label, Math.trunc(seed) >>> 0);
}
