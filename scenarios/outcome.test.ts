import { describe, expect, it } from 'vitest';
import type { Action, TurnRecord } from '../protocol/index.js';
import { craigslistFixture, mutualFriendsFixture, openFixture } from '../test/fixtures/scenarios.js';
import { computeOutcome } from './outcome.js';

const turns = (...moves: Array<[string, Action | null]>): TurnRecord[] =>
  moves.map(([seat, action], turn) => (action ? { turn, seat, action, atMs: 0 } : { turn, seat, action: null, error: { code: 'policy/failed', message: 'x' }, atMs: 0 }));
const act = (argument: string): Action => ({ type: 'action', argument });
const say = (argument: string): Action => ({ type: 'speak', argument });

describe('computeOutcome: MutualFriends', () => {
  const mf = mutualFriendsFixture();

  it('succeeds when every seat selected the shared friend, in any case', () => {
    expect(computeOutcome(mf, turns(['A', say('hi')], ['B', act('select ALEX KIM')], ['A', act('Select: alex  kim.')]))).toEqual({
      kind: 'mutual_friends',
      selections: { A: 'alex  kim', B: 'ALEX KIM' },
      answer: 'Alex Kim',
      success: true,
    });
  });

  it('counts each seat’s last selection and fails on a wrong or missing one', () => {
    expect(computeOutcome(mf, turns(['A', act('select Alex Kim')], ['B', act('select Zoe Park')])).success).toBe(false);
    expect(computeOutcome(mf, turns(['A', act('select Zoe Park')], ['B', act('select Alex Kim')], ['A', act('select Alex Kim')])).success).toBe(true);
    const missing = computeOutcome(mf, turns(['A', act('select Alex Kim')], ['B', say('select Alex Kim')]));
    expect(missing).toMatchObject({ success: false, selections: { A: 'Alex Kim', B: null } });
  });
});

describe('computeOutcome: Craigslist', () => {
  const cl = craigslistFixture();

  it('is a deal at the partner’s latest offer when accepted', () => {
    expect(computeOutcome(cl, turns(['A', act('offer $60')], ['B', act('offer $90')], ['A', act('offer $70')], ['B', act('offer $85')], ['A', act('accept')]))).toEqual({
      kind: 'craigslist', deal: true, price: 85, acceptedBy: 'A', success: true,
    });
  });

  it('takes the partner offer even after the accepter’s own counter-offer', () => {
    expect(computeOutcome(cl, turns(['A', act('offer $60')], ['B', act('offer $90')], ['B', act('offer $88')], ['A', act('accept')]))).toMatchObject({ deal: true, price: 88 });
  });

  it('is no deal on an accept without a partner offer, on quit, or with failed turns only', () => {
    expect(computeOutcome(cl, turns(['A', act('offer $60')], ['B', say('hmm')], ['A', act('accept')]))).toMatchObject({ deal: false });
    expect(computeOutcome(cl, turns(['A', act('offer $60')], ['B', act('quit')]))).toEqual({ kind: 'craigslist', deal: false, price: null, acceptedBy: null, success: false });
    expect(computeOutcome(cl, turns(['A', null], ['B', null]))).toMatchObject({ deal: false });
  });
});

describe('computeOutcome: open scenarios', () => {
  it('has no task success', () => {
    expect(computeOutcome(openFixture(2), turns(['A', say('hello')]))).toEqual({ kind: 'open', success: null });
  });
});
