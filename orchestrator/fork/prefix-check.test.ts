import { describe, expect, it } from 'vitest';
import type { OrchestratorFrame } from '../../protocol/index.js';
import { firstDifference, parentKnowledge } from './prefix-check.js';

const welcome = { v: 1, id: 'o0', type: 'seat.welcome' } as unknown as OrchestratorFrame;
const peer = { v: 1, id: 'o1', type: 'peer.state' } as unknown as OrchestratorFrame;
const event = (turn: number, id: string) => ({ v: 1, id, type: 'turn.event', turn, seat: 'A', action: { type: 'speak', argument: `m${turn}` } }) as OrchestratorFrame;
const request = (turn: number) => ({ v: 1, id: `r${turn}`, type: 'turn.request', turn, actions: ['speak'], deadlineMs: 1 }) as OrchestratorFrame;

describe('the replayed prefix against the parent ledger', () => {
  it('firstDifference names the first differing path', () => {
    expect(firstDifference({ a: 1, b: { c: [1, 2] } }, { a: 1, b: { c: [1, 2] } })).toBeNull();
    expect(firstDifference({ a: 1, b: { c: [1, 2] } }, { a: 1, b: { c: [1, 3] } })).toBe('b.c.1');
    expect(firstDifference({ self: { goal: 'x' } }, { self: {} })).toBe('self.goal');
  });

  it("parentKnowledge: the opening frames, and each turn's first event (a rejoin's replayed copies ignored)", () => {
    const frames = [welcome, peer, request(0), event(0, 'o2'), event(1, 'o3'), welcome, peer, event(0, 'o9'), event(1, 'oa'), event(2, 'ob')];
    const k = parentKnowledge(frames, 2);
    expect(k.start.map((f) => f.id)).toEqual(['o0', 'o1']);
    expect([...k.events.entries()].map(([t, f]) => [t, f.id])).toEqual([[0, 'o2'], [1, 'o3']]);
  });
});
