import { describe, expect, it } from 'vitest';
import type { OrchestratorFrame } from '../protocol/index.js';
import { seatTurnsFromLedger } from './seat-turns.js';

const welcome = (id: string) => ({
  v: 1, id, type: 'seat.welcome', episodeId: 'ep', seat: 'agent1', mode: 'mindreaders',
  scenario: { id: 's', kind: 'open', text: 't', seats: ['agent1', 'agent2'] },
  self: { seat: 'agent1', profile: { name: 'Ana' }, goal: 'g', hints: [], task: null },
  partners: [], limits: { maxTurns: 4, turnDeadlineMs: 1000, actions: ['speak'] },
}) as unknown as OrchestratorFrame;
const request = (turn: number, id: string) => ({ v: 1, id, type: 'turn.request', turn, actions: ['speak'], deadlineMs: 10 }) as OrchestratorFrame;
const event = (turn: number, seat: string) => ({ v: 1, id: `e${turn}`, type: 'turn.event', turn, seat, action: { type: 'speak', argument: `m${turn}` } }) as OrchestratorFrame;
const peer = { v: 1, id: 'p', type: 'peer.state', reason: 'mindreaders', state: { seat: 'agent2', profile: {}, goal: 'g2', hints: [], task: null } } as OrchestratorFrame;

describe('seatTurnsFromLedger', () => {
  it('gives each own turn the view held when it was first requested (a reconnect repeats frames, changes nothing)', () => {
    const frames = [welcome('w1'), peer, request(0, 'r0'), event(0, 'agent1'), event(1, 'agent2'), request(2, 'r2'), welcome('w2'), peer, event(1, 'agent2'), request(2, 'r2b'), event(2, 'agent1')];
    const turns = seatTurnsFromLedger(frames);
    expect(turns.map((t) => [t.request.turn, t.request.id, t.view.events.map((e) => e.turn), t.view.peers.length])).toEqual([
      [0, 'r0', [], 1],
      [2, 'r2', [0, 1], 1],
    ]);
  });
});
