/**
 * The project's one seeded random source, so that everything drawn from a seed (generated scenario
 * sets, bot moves, bootstrap resamples, the pairwise order) is identical on every machine and rerun.
 * mulberry32: small, fast, and good enough for choosing, shuffling and resampling; never Math.random.
 * Pure (no I/O, no clock): any module may use it (test/boundaries/rules.ts).
 */

/** Uniform numbers in [0, 1) from a 32-bit state. */
export function mulberry32(state: number): () => number {
  // The state lives in a Uint32Array, which wraps at 2^32 as `>>> 0` did: a closure variable above 2^31
  // is a heap number, allocated anew on every draw (2× slower; a report's bootstrap draws millions).
  const s = new Uint32Array([state >>> 0]);
  return () => {
    s[0] = s[0]! + 0x6d2b79f5;
    let t = s[0]!;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seeded random source with the draws the project uses. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [min, max). */
  range(min: number, max: number): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** One element, uniformly. */
  pick<T>(items: readonly T[]): T;
  /** One element with probability proportional to its weight. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T;
  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[];
  /** `n` distinct elements in random order (n ≤ items.length). */
  sample<T>(items: readonly T[], n: number): T[];
}

/** The draws of `Rng` over a 32-bit state (callers that seed from an integer mix it first: see each owner). */
export function rngFromState(state: number): Rng {
  const next = mulberry32(state);
  const shuffle = <T>(items: readonly T[]): T[] => {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };
  return {
    next,
    range: (min, max) => min + next() * (max - min),
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('rng.pick: empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    weighted: <T>(items: readonly T[], weights: readonly number[]): T => {
      const total = weights.reduce((a, b) => a + b, 0);
      let r = next() * total;
      for (let i = 0; i < items.length; i++) {
        r -= weights[i]!;
        if (r < 0) return items[i]!;
      }
      return items[items.length - 1]!;
    },
    shuffle,
    sample: <T>(items: readonly T[], n: number): T[] => {
      if (n > items.length) throw new Error(`rng.sample: asked for ${n} of ${items.length}`);
      return shuffle(items).slice(0, n);
    },
  };
}

/** FNV-1a (32-bit) of `text`, from `basis` (the standard offset basis by default): a stable seed from text. */
export function fnv1a(text: string, basis = 0x811c9dc5): number {
  let h = basis >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
