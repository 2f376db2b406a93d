import { describe, expect, it } from 'vitest';
import { builtInGames, defineGame, gameDefinition, GameDefinitionError, seatCount, type GameDefinitionInput } from './index.js';

const WEREWOLF = gameDefinition('werewolf')!;
const GAMES = builtInGames();

const base = (): GameDefinitionInput => JSON.parse(JSON.stringify(WEREWOLF)) as GameDefinitionInput;

describe('game definitions', () => {
  it('the built-in games are valid and deal six seats', () => {
    expect([...GAMES.keys()].sort()).toEqual(['undercover', 'werewolf']);
    for (const def of GAMES.values()) expect(seatCount(def)).toBe(6);
    expect(WEREWOLF.roles.map((r) => [r.id, r.count])).toEqual([['werewolf', 2], ['seer', 1], ['doctor', 1], ['villager', 2]]);
  });

  it('refuses broken cross references, naming each field', () => {
    const bad = base();
    bad.phases[0]!.actors = { roles: ['wizard'] };
    bad.roles[0]!.team = 'vampires';
    bad.win[0]!.winner = 'nobody';
    bad.timeoutWinner = 'ghosts';
    try {
      defineGame(bad);
      expect.unreachable('defineGame accepted a broken definition');
    } catch (err) {
      expect(err).toBeInstanceOf(GameDefinitionError);
      const problems = (err as GameDefinitionError).problems;
      expect(problems).toContain('phases.0.actors: unknown role wizard');
      expect(problems).toContain('roles.0.team: unknown team vampires');
      expect(problems).toContain('win.0.winner: unknown team nobody');
      expect(problems).toContain('timeoutWinner: unknown team ghosts');
    }
  });

  it('refuses schema errors with their path, and a vote that never resolves', () => {
    const bad = base();
    (bad.phases[5] as { resolve?: string }).resolve = undefined;
    expect(() => defineGame(bad)).toThrow(/phases\.5\.resolve: a voting phase must resolve the vote/);
    const worse = base() as unknown as Record<string, unknown>;
    worse.maxRounds = 0;
    worse.extra = true;
    expect(() => defineGame(worse as GameDefinitionInput)).toThrow(/maxRounds: .*; \(root\): Unrecognized key/);
  });

  it('a team channel needs a team that has one', () => {
    const bad = base();
    bad.teams[1]!.channel = false;
    expect(() => defineGame(bad)).toThrow(/phases\.0\.channel: a team channel needs teams with channel: true/);
  });
});
