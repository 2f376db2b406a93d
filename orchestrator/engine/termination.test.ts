import { describe, expect, it } from 'vitest';
import type { Action, TurnRecord } from '../../protocol/index.js';
import { craigslistFixture, mutualFriendsFixture, openFixture } from '../../test/fixtures/scenarios.js';
import { terminationAfter } from './termination.js';

const seq = (...actions: Action[]): TurnRecord[] => actions.map((action, turn) => ({ turn, seat: turn % 2 ? 'B' : 'A', action, atMs: 0 }));
const say: Action = { type: 'speak', argument: 'hi' };
const none: Action = { type: 'none', argument: '' };
const act = (argument: string): Action => ({ type: 'action', argument });

describe('terminationAfter', () => {
  it('goes on while nothing ends the episode', () => {
    expect(terminationAfter(openFixture(2), seq(say, none, none), 20)).toBeNull();
  });

  it('ends on the third consecutive none, not before', () => {
    expect(terminationAfter(openFixture(2), seq(say, none, none, none), 20)).toMatchObject({ reason: 'idle' });
  });

  it('ends at max turns', () => {
    expect(terminationAfter(openFixture(2), seq(say, say, say), 3)).toEqual({ reason: 'max_turns' });
  });

  it('ends on leave, naming who left (before max turns is considered)', () => {
    expect(terminationAfter(openFixture(2), seq(say, { type: 'leave', argument: '' }), 2)).toEqual({ reason: 'leave', seat: 'B' });
  });

  it('Craigslist: accept and quit end it; offers and reject do not', () => {
    const cl = craigslistFixture();
    expect(terminationAfter(cl, seq(act('offer $50'), act('reject')), 20)).toBeNull();
    expect(terminationAfter(cl, seq(act('offer $50'), act('quit')), 20)).toEqual({ reason: 'task_end', detail: 'quit', seat: 'B' });
    expect(terminationAfter(cl, seq(act('offer $50'), act('accept')), 20)).toEqual({ reason: 'task_end', detail: 'accept', seat: 'B' });
  });

  it('task moves only count in their own task', () => {
    expect(terminationAfter(openFixture(2), seq(act('offer $50'), act('accept')), 20)).toBeNull();
    expect(terminationAfter(craigslistFixture(), seq(act('select Alex Kim'), act('select Alex Kim')), 20)).toBeNull();
  });

  it('MutualFriends: ends once every seat has selected, whoever was first', () => {
    const mf = mutualFriendsFixture();
    expect(terminationAfter(mf, seq(act('select Zoe Park'), say), 20)).toBeNull();
    expect(terminationAfter(mf, seq(act('select Zoe Park'), say, say, act('select Alex Kim')), 20)).toEqual({ reason: 'task_end', detail: 'all_selected' });
  });
});
