import { describe, expect, it } from 'vitest';
import { dealRoles, gameCard, gameDefinition, GameDriver, GameState, plurality, type PhasedEvent } from './index.js';

const WEREWOLF = gameDefinition('werewolf')!;
const UNDERCOVER = gameDefinition('undercover')!;

const SEATS = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'];
const ROLES = { a1: 'werewolf', a2: 'werewolf', a3: 'seer', a4: 'doctor', a5: 'villager', a6: 'villager' };
const act = (argument: string) => ({ type: 'action' as const, argument });
const phase = (id: string) => WEREWOLF.phases.find((p) => p.id === id)!;

describe('game rules', () => {
  it('deals every role once per count, the same for the same seed, and cards tell only what a role may know', () => {
    const deal = dealRoles(WEREWOLF, SEATS, 'ep-1');
    expect(dealRoles(WEREWOLF, SEATS, 'ep-1')).toEqual(deal);
    expect(Object.values(deal.roles).sort()).toEqual(['doctor', 'seer', 'villager', 'villager', 'werewolf', 'werewolf']);
    const wolf = SEATS.find((s) => deal.roles[s] === 'werewolf')!;
    const seer = SEATS.find((s) => deal.roles[s] === 'seer')!;
    expect(gameCard(WEREWOLF, deal, wolf).teammates).toHaveLength(1);
    expect(gameCard(WEREWOLF, deal, seer).teammates).toEqual([]);
    const uc = dealRoles(UNDERCOVER, SEATS, 'ep-2');
    const words = new Set(SEATS.map((s) => gameCard(UNDERCOVER, uc, s).word));
    expect(words.size).toBe(2);
  });

  it('routes acts by channel and limits targets by the move', () => {
    const s = new GameState(WEREWOLF, { roles: ROLES }, SEATS);
    expect(s.actors(phase('night_talk'))).toEqual(['a1', 'a2']);
    expect(s.recipients(phase('night_talk'), 'a1')).toEqual(['a1', 'a2']);
    expect(s.recipients(phase('night_seer'), 'a3')).toEqual(['a3']);
    expect(s.recipients(phase('day_talk'), 'a5')).toBeNull();
    expect(s.targets(phase('night_kill'), 'a1')).toEqual(['a3', 'a4', 'a5', 'a6']);
    expect(s.move(phase('night_kill'), 'a1', act('kill a2'))).toMatchObject({ valid: false });
    expect(s.move(phase('night_seer'), 'a3', act('inspect a1'))).toMatchObject({ valid: true, private: { kind: 'inspected', seat: 'a1', team: 'wolves' } });
  });

  it('a protected victim survives the night; an unprotected one is out with its role shown', () => {
    const s = new GameState(WEREWOLF, { roles: ROLES }, SEATS);
    s.move(phase('night_kill'), 'a1', act('kill a5'));
    s.move(phase('night_doctor'), 'a4', act('protect a5'));
    expect(s.resolve(phase('night_doctor'))[0]!.fact).toEqual({ kind: 'nobody_out', how: 'night' });
    s.move(phase('night_kill'), 'a1', act('kill a5'));
    s.move(phase('night_doctor'), 'a4', act('protect a6'));
    expect(s.resolve(phase('night_doctor'))[0]!.fact).toEqual({ kind: 'out', seat: 'a5', how: 'night', role: 'villager', team: 'village' });
    expect(s.alive).not.toContain('a5');
  });

  it('a tied vote puts nobody out; the win rules end the game', () => {
    expect(plurality(['a1', 'a2'])).toBeNull();
    expect(plurality(['a1', 'a2', 'a1'])).toBe('a1');
    const s = new GameState(WEREWOLF, { roles: ROLES }, SEATS);
    for (const [voter, target] of [['a3', 'a1'], ['a4', 'a1'], ['a5', 'a1'], ['a1', 'a5'], ['a2', 'a5'], ['a6', 'a2']]) s.move(phase('day_vote'), voter!, act(`vote ${target}`));
    const events = s.resolve(phase('day_vote'));
    expect(events.map((e) => e.fact.kind)).toEqual(['ballots', 'out']);
    expect(s.winner()).toBeNull();
    for (const v of ['a3', 'a4', 'a5', 'a6']) s.move(phase('day_vote'), v, act('vote a2'));
    s.resolve(phase('day_vote'));
    expect(s.winner()).toMatchObject({ team: 'village' });
  });

  it('the driver announces each phase, asks its actors in seat order, and ends at the round limit', () => {
    const driver = new GameDriver(new GameState(WEREWOLF, { roles: ROLES }, SEATS), 1);
    const asked: string[] = [];
    const said: PhasedEvent[] = [];
    for (;;) {
      const next = driver.advance(said);
      if (next.kind === 'end') {
        expect(['win', 'timeout']).toContain(next.how);
        break;
      }
      asked.push(`${next.phase.id}:${next.actor}`);
      driver.play(next.phase.act === 'speak' ? { type: 'speak', argument: 'hello' } : act(`${next.phase.move!.verb} ${next.phase.move!.verb === 'kill' ? 'a5' : 'a6'}`));
    }
    expect(asked.slice(0, 6)).toEqual(['night_talk:a1', 'night_talk:a2', 'night_kill:a1', 'night_kill:a2', 'night_seer:a3', 'night_doctor:a4']);
    expect(said.filter((e) => e.fact.kind === 'phase')).toHaveLength(WEREWOLF.phases.length);
    expect(said[said.length - 1]!.fact.kind).toBe('end');
  });
});
