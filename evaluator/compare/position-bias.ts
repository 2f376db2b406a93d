import { summarize } from '../stats/summary.js';
import { wilson } from '../stats/wilson.js';

/**
 * How much a pairwise judge (an LLM, or people) goes by position rather than content. Two figures, each
 * with a 95% interval:
 * - position consistency: of the pairs judged in both orders, the share where both orders chose the same
 *   conversation (1: position never mattered; 0: the answer always followed the position). Wilson over pairs.
 * - first-position win rate: of all answered presentations, the share where the conversation shown first
 *   won (0.5: no position preference). Wilson when every pair was shown once; when pairs were shown twice
 *   (both orders), a percentile bootstrap that resamples pairs, since a pair's two answers are not
 *   independent.
 */
export interface PositionBias {
  /** Pairs with both orders answered; null rate when there are none (one order only). */
  consistency: { consistent: number; pairs: number; p: number | null; lo: number | null; hi: number | null };
  firstWins: { wins: number; presentations: number; p: number | null; lo: number | null; hi: number | null };
}

/** One answered presentation: which side was shown first and which side won. */
export interface Presentation {
  aShownFirst: boolean;
  winner: 'A' | 'B';
}

/** A verdict line as `parley compare` writes it (only the fields read here; older files lack `presentations`). */
interface VerdictLike {
  ok?: unknown;
  aShownFirst?: unknown;
  winner?: unknown;
  presentations?: unknown;
}

/** The answered presentations of one verdict: its two (both orders) or itself (one order). */
export function presentationsOf(v: VerdictLike): Presentation[] {
  const answered = (p: VerdictLike): p is Presentation => p.ok === true && typeof p.aShownFirst === 'boolean' && (p.winner === 'A' || p.winner === 'B');
  if (Array.isArray(v.presentations)) return (v.presentations as VerdictLike[]).filter(answered);
  return answered(v) ? [v] : [];
}

/** Position figures over pairs, each pair given as its answered presentations. */
export function positionBiasOfPairs(pairs: readonly (readonly Presentation[])[], seed = 1): PositionBias {
  const both = pairs.filter((p) => new Set(p.map((x) => x.aShownFirst)).size === 2);
  const consistent = both.filter((p) => p.every((x) => x.winner === p[0]!.winner)).length;
  const shown = pairs.filter((p) => p.length > 0);
  const firstWon = (x: Presentation) => (x.winner === 'A') === x.aShownFirst;
  const wins = shown.reduce((n, p) => n + p.filter(firstWon).length, 0);
  const presentations = shown.reduce((n, p) => n + p.length, 0);
  let firstWins: PositionBias['firstWins'];
  if (shown.every((p) => p.length === 1)) firstWins = { wins, presentations, ...wilson(wins, presentations) };
  else {
    const s = summarize(shown.map((p) => p.filter(firstWon).length / p.length), seed);
    firstWins = { wins, presentations, p: presentations ? wins / presentations : null, lo: s.lo, hi: s.hi };
  }
  return { consistency: { consistent, pairs: both.length, ...wilson(consistent, both.length) }, firstWins };
}

/** Position figures of `parley compare`'s verdicts (one line per pair). */
export function positionBias(verdicts: readonly VerdictLike[]): PositionBias {
  return positionBiasOfPairs(verdicts.map(presentationsOf));
}

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);

/** "83.3% [55.2%, 95.3%] of 12" — a rate with its interval and its count. */
export function rateText(r: { p: number | null; lo: number | null; hi: number | null }, n: number): string {
  return r.p === null ? `— (0)` : `${pct(r.p)} [${pct(r.lo)}, ${pct(r.hi)}] of ${n}`;
}

/** The two figures in one line, for a terminal or a report cell. */
export function positionBiasText(b: PositionBias): string {
  const consistency = b.consistency.pairs ? `position consistency ${rateText(b.consistency, b.consistency.pairs)} pairs` : 'position consistency — (one order per pair)';
  return `${consistency}; first position won ${rateText(b.firstWins, b.firstWins.presentations)} presentations`;
}
