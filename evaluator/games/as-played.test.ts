import { describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../../protocol/index.js';
import { generateGameScenarios } from '../../scenarios/generate/games.js';
import { scenarioAsPlayed } from './as-played.js';

describe('a game scenario as played', () => {
  const [werewolf, undercover] = generateGameScenarios(1);
  const seats = werewolf!.seats.map((s) => s.seat);
  const roles = Object.fromEntries(seats.map((s, i) => [s, ['werewolf', 'seer', 'doctor', 'villager', 'villager', 'werewolf'][i]!]));
  const record = (game: EpisodeRecord['game']) => ({ game }) as EpisodeRecord;

  it("gives every seat its card from the record's deal, teammates included", () => {
    const played = scenarioAsPlayed(werewolf!, record({ game: 'werewolf', roles, teams: {}, rounds: 1, out: [], votes: [], inspections: [], winner: 'village', how: 'win' }));
    expect(played.seats.map((s) => (s.task?.kind === 'game' ? s.task.role : null))).toEqual(seats.map((s) => roles[s]));
    expect(played.seats[0]!.task).toMatchObject({ kind: 'game', teammates: [seats[5]] });
    expect(werewolf!.seats[0]!.task).toBeNull();
  });

  it('finds the word pair a word game was dealt, and leaves other episodes alone', () => {
    const uc = Object.fromEntries(seats.map((s, i) => [s, i < 4 ? 'civilian' : 'undercover']));
    const word = Object.fromEntries(seats.map((s, i) => [s, i < 4 ? 'coffee' : 'tea']));
    const played = scenarioAsPlayed(undercover!, record({ game: 'undercover', roles: uc, teams: {}, word, rounds: 1, out: [], votes: [], inspections: [], winner: null, how: 'stopped' }));
    // Each seat's card holds the word the record says it was dealt.
    expect(played.seats.map((s) => (s.task?.kind === 'game' ? s.task.word : null))).toEqual(seats.map((s) => word[s]));
    expect(scenarioAsPlayed(werewolf!, record(undefined))).toBe(werewolf);
  });
});
