import { parseMove, type EpisodeRecord, type TurnRecord } from '../../protocol/index.js';
import { ngrams, words } from './text.js';

/** The n of the repetition metric: word trigrams. */
export const REPETITION_N = 3;

/** Rule metrics of one seat in one episode. A metric that cannot be computed is null, never 0. */
export interface SeatMetrics {
  seat: string;
  /** Turns the seat took with a move (error turns not counted). */
  turns: number;
  /** Turns of the seat that failed (policy error, deadline…): recorded, not moves. */
  errorTurns: number;
  speechTurns: number;
  words: number;
  /** words / speechTurns; null when the seat never spoke. */
  wordsPerTurn: number | null;
  /** (trigrams − distinct trigrams) / trigrams over the seat's utterances; null with no trigram. */
  repetition: number | null;
  /** (non-verbal + physical actions that are not task moves) / turns; null with no turn. */
  nonverbalShare: number | null;
  /** Explicit task moves (select/offer/accept/reject/quit). */
  taskMoves: number;
}

/** Computes one seat's rule metrics from the episode's turns. */
export function seatMetrics(turns: readonly TurnRecord[], seat: string): SeatMetrics {
  const own = turns.filter((t) => t.seat === seat);
  const moves = own.filter((t) => t.action !== null);
  const speech = moves.filter((t) => t.action!.type === 'speak');
  let wordCount = 0;
  let grams = 0;
  const seen = new Set<string>();
  for (const t of speech) {
    const w = words(t.action!.argument);
    wordCount += w.length;
    for (const g of ngrams(w, REPETITION_N)) {
      grams++;
      seen.add(g);
    }
  }
  let nonverbal = 0;
  let taskMoves = 0;
  for (const t of moves) {
    const a = t.action!;
    if (a.type === 'action' && parseMove(a)) taskMoves++;
    else if (a.type === 'non-verbal communication' || a.type === 'action') nonverbal++;
  }
  return {
    seat,
    turns: moves.length,
    errorTurns: own.length - moves.length,
    speechTurns: speech.length,
    words: wordCount,
    wordsPerTurn: speech.length ? wordCount / speech.length : null,
    repetition: grams ? (grams - seen.size) / grams : null,
    nonverbalShare: moves.length ? nonverbal / moves.length : null,
    taskMoves,
  };
}

/** Rule metrics for every seat of an episode, in seat order. */
export function allSeatMetrics(episode: EpisodeRecord): SeatMetrics[] {
  return episode.seats.map((s) => seatMetrics(episode.turns, s.seat));
}
