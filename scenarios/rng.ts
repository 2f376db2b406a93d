/**
 * A small seeded random source (mulberry32) so generated scenario sets are identical for a seed on
 * every machine. Generators take an `Rng` instead of calling Math.random.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** One element, uniformly. */
  pick<T>(items: readonly T[]): T;
  /** One element with probability proportional to its weight. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T;
  /** A shuffled copy. */
  shuffle<T>(items: readonly T[]): T[];
  /** `n` distinct elements in random order (n ≤ items.length). */
  sample<T>(items: readonly T[], n: number): T[];
}

/** Creates a deterministic random source from an integer seed. */
export function createRng(seed: number): Rng {
  let state = (Math.trunc(seed) ^ 0x9e3779b9) >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new Error('rng.pick: empty list');
    return items[Math.floor(next() * items.length)]!;
  };
  const weighted = <T>(items: readonly T[], weights: readonly number[]): T => {
    const total = weights.reduce((a, b) => a + b, 0);
    let r = next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i]!;
      if (r < 0) return items[i]!;
    }
    return items[items.length - 1]!;
  };
  const shuffle = <T>(items: readonly T[]): T[] => {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };
  const sample = <T>(items: readonly T[], n: number): T[] => {
    if (n > items.length) throw new Error(`rng.sample: asked for ${n} of ${items.length}`);
    return shuffle(items).slice(0, n);
  };
  return { next, int, pick, weighted, shuffle, sample };
}

/** Derives an independent seed for a sub-generator, so adding one set does not shift another. */
export function deriveSeed(seed: number, label: string): number {
  let h = Math.trunc(seed) >>> 0;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
