/**
 * Seeded randomness for the bots, so a rerun of the same episode makes the same moves. The seed comes
 * from what the seat already knows (episode id, seat, turn), never from the clock.
 */
export interface BotRng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [min, max). */
  range(min: number, max: number): number;
  /** One element, uniformly. */
  pick<T>(items: readonly T[]): T;
  /** One element with probability proportional to its weight. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T;
}

/** FNV-1a over the joined parts: a stable 32-bit seed for any list of strings and numbers. */
export function seedOf(...parts: Array<string | number>): number {
  let h = 0x811c9dc5;
  const text = parts.join('\u241f');
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** mulberry32: small, fast and good enough for choosing phrasings and concession rates. */
export function botRng(seed: number): BotRng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    range: (min, max) => min + next() * (max - min),
    pick: (items) => {
      if (items.length === 0) throw new Error('botRng.pick: empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    weighted: (items, weights) => {
      const total = weights.reduce((a, b) => a + b, 0);
      let r = next() * total;
      for (let i = 0; i < items.length; i++) {
        r -= weights[i]!;
        if (r < 0) return items[i]!;
      }
      return items[items.length - 1]!;
    },
  };
}
