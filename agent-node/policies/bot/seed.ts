import { fnv1a, rngFromState, type Rng } from '../../../random/seeded.js';

/**
 * Seeded randomness for the bots, so a rerun of the same episode makes the same moves. The seed comes
 * from what the seat already knows (episode id, seat, turn), never from the clock. The generator is
 * the project's one (random/seeded.ts).
 */
export type BotRng = Pick<Rng, 'next' | 'range' | 'pick' | 'weighted'>;

/** FNV-1a over the joined parts: a stable 32-bit seed for any list of strings and numbers. */
export function seedOf(...parts: Array<string | number>): number {
  return fnv1a(parts.join('\u241f'));
}

/** The bots' random source for a seed from `seedOf`. */
export function botRng(seed: number): BotRng {
  return rngFromState(seed >>> 0);
}
