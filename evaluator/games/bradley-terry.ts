import { seededRandom } from '../stats/rng.js';

/** One comparison: `winner` beat `loser`, inside game `game` (the bootstrap resamples whole games). */
export interface PairResult {
  game: number;
  winner: string;
  loser: string;
}

export interface Rating {
  model: string;
  /** Bradley–Terry strength on the Elo scale: 1500 at the players' geometric mean, 400 points = 10:1 odds. */
  rating: number;
  lo: number;
  hi: number;
  games: number;
}

/**
 * A half win each way between every two players that ever met: keeps strengths finite when one player
 * won every comparison (a few games between two models often do), and pulls thin evidence towards even.
 */
const PRIOR = 0.5;

/**
 * Bradley–Terry strengths by Hunter's minorization–maximization iteration (2004): π_i ← W_i / Σ_j n_ij / (π_i + π_j),
 * normalized to a geometric mean of 1 each step. Returns log-strengths on the Elo scale.
 */
export function bradleyTerry(players: readonly string[], results: readonly PairResult[], iterations = 200): Map<string, number> {
  const index = new Map(players.map((p, i) => [p, i]));
  const n = players.length;
  const wins = Array.from({ length: n }, () => new Float64Array(n));
  for (const r of results) wins[index.get(r.winner)!]![index.get(r.loser)!]! += 1;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j && wins[i]![j]! + wins[j]![i]! > 0) { wins[i]![j]! += PRIOR; }
  let pi = new Float64Array(n).fill(1);
  for (let it = 0; it < iterations; it++) {
    const next = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let w = 0;
      let denom = 0;
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        const games = wins[i]![j]! + wins[j]![i]!;
        w += wins[i]![j]!;
        if (games > 0) denom += games / (pi[i]! + pi[j]!);
      }
      next[i] = denom > 0 ? w / denom : pi[i]!;
    }
    const logMean = next.reduce((a, b) => a + Math.log(b), 0) / n;
    pi = next.map((v) => v / Math.exp(logMean));
  }
  return new Map(players.map((p, i) => [p, 1500 + (400 * Math.log(pi[i]!)) / Math.LN10]));
}

/**
 * Ratings with 95% percentile intervals from a bootstrap over games (each resample draws as many games
 * as there were, with replacement, and keeps every comparison of each drawn game). Seeded: the same
 * results give the same intervals.
 */
export function rateWithIntervals(results: readonly PairResult[], gamesPlayed: ReadonlyMap<string, number>, resamples = 500, seed = 1): Rating[] {
  const players = [...gamesPlayed.keys()].sort();
  if (players.length < 2 || results.length === 0) return [];
  const point = bradleyTerry(players, results);
  const byGame = new Map<number, PairResult[]>();
  for (const r of results) byGame.set(r.game, [...(byGame.get(r.game) ?? []), r]);
  const games = [...byGame.values()];
  const random = seededRandom(seed);
  const draws = new Map(players.map((p) => [p, [] as number[]]));
  for (let b = 0; b < resamples; b++) {
    const sample: PairResult[] = [];
    for (let k = 0; k < games.length; k++) sample.push(...games[Math.floor(random() * games.length)]!);
    const ratings = bradleyTerry(players, sample, 100);
    for (const p of players) draws.get(p)!.push(ratings.get(p)!);
  }
  const pct = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.max(0, Math.round(q * (xs.length - 1))))]!;
  return players
    .map((model) => {
      const xs = draws.get(model)!.sort((a, b) => a - b);
      return { model, rating: point.get(model)!, lo: pct(xs, 0.025), hi: pct(xs, 0.975), games: gamesPlayed.get(model)! };
    })
    .sort((a, b) => b.rating - a.rating);
}
