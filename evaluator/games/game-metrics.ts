import type { EpisodeRecord, GameRecord } from '../../protocol/index.js';
import type { PairResult } from './bradley-terry.js';

/** A played game as the metrics read it: the record's game, and who played each seat. */
export interface PlayedGame {
  mode: string;
  game: GameRecord & { winner: string };
  /** Seat → the model that played it (`provider:model`, else the policy: `bot`). */
  models: Record<string, string>;
}

/** Games that ended with a winning side (a stopped or failed game is counted apart by the caller). */
export function playedGames(records: readonly EpisodeRecord[]): PlayedGame[] {
  return records.flatMap((r) => {
    const g = r.game;
    if (r.status !== 'ok' || !g || g.winner === null) return [];
    const models = Object.fromEntries(r.seats.map((s) => [s.seat, s.provider && s.model ? `${s.provider}:${s.model}` : s.policy]));
    return [{ mode: r.mode, game: { ...g, winner: g.winner }, models }];
  });
}

/** A count of successes among trials, keyed by a label. */
export type Tally = Map<string, { wins: number; n: number }>;

function add(t: Tally, key: string, win: boolean): void {
  const cell = t.get(key) ?? { wins: 0, n: 0 };
  cell.n += 1;
  if (win) cell.wins += 1;
  t.set(key, cell);
}

/** Wins by role, by side and by model: one trial per seat per game. */
export function winTallies(games: readonly PlayedGame[]): { byRole: Tally; bySide: Tally; byModel: Tally } {
  const byRole: Tally = new Map();
  const bySide: Tally = new Map();
  const byModel: Tally = new Map();
  for (const { game, models } of games) {
    for (const [seat, role] of Object.entries(game.roles)) {
      const won = game.teams[seat] === game.winner;
      add(byRole, `${game.game}\u0000${role}`, won);
      add(bySide, `${game.game}\u0000${game.teams[seat]!}`, won);
      add(byModel, models[seat] ?? 'unknown', won);
    }
  }
  return { byRole, bySide, byModel };
}

/**
 * Vote accuracy: of the valid ballots a side cast, the share naming a player of another side (a
 * villager voting a werewolf; a werewolf voting a villager counts for the werewolves' own line). By
 * voter side and by voter model.
 */
export function voteAccuracy(games: readonly PlayedGame[]): { bySide: Tally; byModel: Tally } {
  const bySide: Tally = new Map();
  const byModel: Tally = new Map();
  for (const { game, models } of games) {
    for (const v of game.votes) {
      if (v.target === null) continue;
      const hit = game.teams[v.target] !== game.teams[v.voter];
      add(bySide, `${game.game}\u0000${game.teams[v.voter]!}`, hit);
      add(byModel, models[v.voter] ?? 'unknown', hit);
    }
  }
  return { bySide, byModel };
}

/**
 * Deception success: for every vote a player faced while in play, whether it survived it; reported for
 * the sides that hide (a side some win rule wants eliminated: the werewolves, the undercover players) by
 * role and by model. `hidden` lists those sides per game.
 */
export function deception(games: readonly PlayedGame[], hidden: (game: string) => readonly string[]): { byRole: Tally; byModel: Tally } {
  const byRole: Tally = new Map();
  const byModel: Tally = new Map();
  for (const { game, models } of games) {
    const sides = hidden(game.game);
    const rounds = [...new Set(game.votes.map((v) => v.round))];
    for (const [seat, role] of Object.entries(game.roles)) {
      if (!sides.includes(game.teams[seat]!)) continue;
      for (const round of rounds) {
        const gone = game.out.find((o) => o.seat === seat);
        // In play at this vote: not out before it (a night death of the same round comes before the vote).
        if (gone && (gone.round < round || (gone.round === round && gone.how === 'night'))) continue;
        const survived = !(gone && gone.round === round && gone.how === 'vote');
        add(byRole, `${game.game}\u0000${role}`, survived);
        add(byModel, models[seat] ?? 'unknown', survived);
      }
    }
  }
  return { byRole, byModel };
}

/**
 * The pairwise results a rating is fitted to: in each game, every seat of the winning side beat every
 * seat of a losing side, counted between the models that played them (a model against itself is no
 * comparison), and how many games each model took part in.
 */
export function modelPairs(games: readonly PlayedGame[]): { results: PairResult[]; gamesPlayed: Map<string, number> } {
  const results: PairResult[] = [];
  const gamesPlayed = new Map<string, number>();
  games.forEach(({ game, models }, index) => {
    for (const m of new Set(Object.values(models))) gamesPlayed.set(m, (gamesPlayed.get(m) ?? 0) + 1);
    const seats = Object.keys(game.roles);
    for (const w of seats.filter((s) => game.teams[s] === game.winner)) {
      for (const l of seats.filter((s) => game.teams[s] !== game.winner)) {
        if (models[w] !== models[l]) results.push({ game: index, winner: models[w]!, loser: models[l]! });
      }
    }
  });
  return { results, gamesPlayed };
}
