import { describe, expect, it } from 'vitest';
import { type Action, type TurnRecord } from '../../protocol/index.js';
import { PAPER_PROTOCOL } from '../../simulation/index.js';
import { craigslistFixture, mutualFriendsFixture, openFixture } from '../../test/fixtures/scenarios.js';
import { terminationAfter, turnCap } from './termination.js';

const seq = (...actions: Action[]): TurnRecord[] => actions.map((action, turn) => ({ turn, seat: turn % 2 ? 'B' : 'A', action, atMs: 0 }));
const say: Action = { type: 'speak', argument: 'hi' };
const none: Action = { type: 'none', argument: '' };
const act = (argument: string): Action => ({ type: 'action', argument });
const code = PAPER_PROTOCOL;
const worded = { ...PAPER_PROTOCOL, stopRule: 'paper' as const };

describe('terminationAfter under --protocol paper', () => {
  it('no task move ends an episode (select, accept, quit are ordinary actions)', () => {
    const mf = mutualFriendsFixture();
    expect(terminationAfter(mf, seq(act('select Alex Kim'), act('select Alex Kim')), 20, code)).toBeNull();
    expect(terminationAfter(craigslistFixture(), seq(act('offer $50'), act('accept')), 20, code)).toBeNull();
    expect(terminationAfter(craigslistFixture(), seq(act('offer $50'), act('quit')), 20, code)).toBeNull();
  });

  it('leave ends it under both stop rules', () => {
    for (const p of [code, worded]) expect(terminationAfter(openFixture(2), seq(say, { type: 'leave', argument: '' }), 20, p)).toEqual({ reason: 'leave', seat: 'B' });
  });

  it('turn limit: the code runs turns #0..#maxTurns (maxTurns + 1 moves), the paper says maxTurns', () => {
    expect(turnCap(20, code)).toBe(21);
    expect(turnCap(20, worded)).toBe(20);
    const twenty = seq(...Array.from({ length: 20 }, () => say));
    expect(terminationAfter(openFixture(2), twenty, 20, code)).toBeNull();
    expect(terminationAfter(openFixture(2), [...twenty, { turn: 20, seat: 'A', action: say, atMs: 0 }], 20, code)).toEqual({ reason: 'max_turns' });
    expect(terminationAfter(openFixture(2), twenty, 20, worded)).toEqual({ reason: 'max_turns' });
  });

  it('stale rule as the code counts it: the masked none of the seat off turn counts, so one none by the second seat ends it', () => {
    // Inbox per step: [A's move, B masked none] then [A masked none, B's move]; B's none makes 3 in a row.
    expect(terminationAfter(openFixture(2), seq(say, none), 20, code)).toMatchObject({ reason: 'idle' });
    // A's none makes only 2 (A none, B masked none; then A's... B's earlier speech breaks the run).
    expect(terminationAfter(openFixture(2), seq(say, say, none), 20, code)).toBeNull();
    // ...and A's none then B's speech: going on.
    expect(terminationAfter(openFixture(2), seq(none, say), 20, code)).toBeNull();
  });

  it('stale rule as the paper words it: more than 2 consecutive none moves', () => {
    expect(terminationAfter(openFixture(2), seq(say, none), 20, worded)).toBeNull();
    expect(terminationAfter(openFixture(2), seq(say, none, none), 20, worded)).toBeNull();
    expect(terminationAfter(openFixture(2), seq(say, none, none, none), 20, worded)).toMatchObject({ reason: 'idle' });
  });
});
