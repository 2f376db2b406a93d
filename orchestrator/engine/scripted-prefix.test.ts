import { describe, expect, it } from 'vitest';
import type { Action, EpisodeRecord, OrchestratorFrame } from '../../protocol/index.js';
import { generateGroupScenarios } from '../../scenarios/generate/groups.js';
import { CANARY, mutualFriendsFixture, openFixture } from '../../test/fixtures/scenarios.js';
import type { ForkPlan } from '../episode-plan.js';
import { fakeAgent } from '../testing/fake-agent.js';
import { harness } from '../testing/harness.js';

const speak = (argument: string): Action => ({ type: 'speak', argument });

/** A parent episode played in full (6 turns), with its clients' frames. */
async function parent(mode: 'agents' | 'mindreaders' = 'agents') {
  const h = harness(mutualFriendsFixture(), mode, { maxTurns: 6 });
  const a = fakeAgent(h.transport, h.token('A'), { act: (r) => speak(`parent A ${r.turn}`) });
  const b = fakeAgent(h.transport, h.token('B'), { act: (r) => speak(`parent B ${r.turn}`) });
  const record = await h.episode.run();
  return { record, frames: { A: a.frames, B: b.frames } };
}

const forkOf = (record: EpisodeRecord, at: number, reveal: ForkPlan['reveals'] = []): ForkPlan => ({
  parentRun: 'parent-run',
  parentEpisode: record.episodeId,
  at,
  prefix: record.turns.slice(0, at),
  reveals: reveal,
  revealText: reveal.map((r) => `${r.from}.${r.fields.join('+')}:${r.to}`),
});

/** Frames that make up what a seat knows, without envelope ids and the seat's resume secret. */
const knowledge = (frames: readonly OrchestratorFrame[], beforeTurn: number) =>
  frames
    .filter((f) => f.type === 'seat.welcome' || f.type === 'peer.state' || (f.type === 'turn.event' && f.turn < beforeTurn))
    .map((f) => {
      const { id: _id, ...rest } = f as OrchestratorFrame & { resume?: string };
      delete (rest as { resume?: string }).resume;
      return rest;
    });

describe('a fork replays its prefix (scripted-prefix.ts)', () => {
  it('asks no seat for turns before the fork turn, sends every seat the same moves, and records them as the parent did', async () => {
    const p = await parent();
    const h = harness(mutualFriendsFixture(), 'agents', { maxTurns: 6, fork: forkOf(p.record, 4) });
    const asked: number[] = [];
    const a = fakeAgent(h.transport, h.token('A'), { act: (r) => (asked.push(r.turn), speak(`fork A ${r.turn}`)) });
    const b = fakeAgent(h.transport, h.token('B'), { act: (r) => (asked.push(r.turn), speak(`fork B ${r.turn}`)) });
    const record = await h.episode.run();
    expect(asked).toEqual([4, 5]);
    expect(record.turns.slice(0, 4)).toEqual(p.record.turns.slice(0, 4));
    expect(record.turns.slice(4).map((t) => t.action?.argument)).toEqual(['fork A 4', 'fork B 5']);
    expect(record.fork).toMatchObject({ parentRun: 'parent-run', parentEpisode: p.record.episodeId, at: 4 });
    // Each seat was told what the parent's seat was told before turn 4 (episode ids aside: each episode has its own).
    const strip = (xs: ReturnType<typeof knowledge>) => xs.map((f) => (f.type === 'seat.welcome' ? { ...f, episodeId: '' } : f));
    expect(strip(knowledge(a.frames, 4))).toEqual(strip(knowledge(p.frames.A, 4)));
    expect(strip(knowledge(b.frames, 4))).toEqual(strip(knowledge(p.frames.B, 4)));
    // No turn.request for a replayed turn; the ledgers' live part starts where the record says.
    for (const [seat, client] of [['A', a], ['B', b]] as const) {
      expect(client.frames.filter((f) => f.type === 'turn.request' && f.turn < 4)).toEqual([]);
      const lines = h.ledgers.get(seat)!.frames();
      const live = record.fork!.liveFromLine![seat]!;
      expect(lines.slice(0, live).every((f) => f.type !== 'turn.request')).toBe(true);
      expect(lines.slice(0, live).filter((f) => f.type === 'turn.event').map((f) => f.turn)).toEqual([0, 1, 2, 3]);
      expect(lines.slice(live).some((f) => f.type === 'turn.request')).toBe(true);
    }
  });

  it('reveals a private field to one seat at the fork turn, in a ledgered peer.state frame, and to no other', async () => {
    const p = await parent('agents');
    const fork = forkOf(p.record, 2, [{ from: 'B', fields: ['goal'], to: 'A' }]);
    const h = harness(mutualFriendsFixture(), 'agents', { maxTurns: 6, fork });
    const seen: string[] = [];
    fakeAgent(h.transport, h.token('A'), { act: (r, got) => (seen.push(JSON.stringify(got)), speak(`A ${r.turn}`)) });
    fakeAgent(h.transport, h.token('B'));
    const record = await h.episode.run();
    expect(record.fork?.reveal).toEqual(['B.goal:A']);
    const a = h.ledgers.get('A')!.frames();
    const at = a.findIndex((f) => f.type === 'peer.state');
    expect(a[at]).toMatchObject({ reason: 'fork_reveal', state: { seat: 'B', goal: expect.stringContaining(CANARY.goalB) } });
    // After the turn-1 move, before the turn-2 request, and nowhere before.
    expect(a.findIndex((f) => f.type === 'turn.event' && f.turn === 1)).toBeLessThan(at);
    expect(a.findIndex((f) => f.type === 'turn.request')).toBeGreaterThan(at);
    expect(a.slice(0, at).some((f) => JSON.stringify(f).includes(CANARY.goalB))).toBe(false);
    // The secret was not asked for, so it is not sent; B receives no peer.state at all.
    expect(JSON.stringify(a[at])).not.toContain(CANARY.secretB);
    expect(h.ledgers.get('B')!.frames().some((f) => f.type === 'peer.state')).toBe(false);
    // A's policy had the goal when it first moved live.
    expect(seen[0]).toContain(CANARY.goalB);
  });

  it('a prefix that already ends the episode ends it without asking anyone', async () => {
    const p = await parent();
    const h = harness(mutualFriendsFixture(), 'agents', { maxTurns: 6, fork: forkOf(p.record, 6) });
    let asked = 0;
    fakeAgent(h.transport, h.token('A'), { act: () => (asked++, speak('x')) });
    fakeAgent(h.transport, h.token('B'), { act: () => (asked++, speak('x')) });
    const record = await h.episode.run();
    expect(asked).toBe(0);
    expect(record.termination.reason).toBe('max_turns');
    expect(record.turns).toEqual(p.record.turns);
  });

  it('a fork at turn 0 replays nothing and plays every turn live', async () => {
    const p = await parent();
    const h = harness(openFixture(3), 'agents', { maxTurns: 4, fork: forkOf(p.record, 0) });
    fakeAgent(h.transport, h.token('A'));
    fakeAgent(h.transport, h.token('B'));
    const record = await h.episode.run();
    expect(record.turns.map((t) => t.action?.argument)).toEqual(['hello 0', 'hello 1', 'hello 2', 'hello 3']);
    expect(record.fork?.at).toBe(0);
  });

  it('a replayed whisper stays private: the fork sends it to its speaker and recipient only, as the parent did', async () => {
    const base = generateGroupScenarios(1)[0]!;
    const group = { ...base, kind: 'open' as const, truth: null, seats: base.seats.map((s) => ({ ...s, task: null })) };
    const whisper: Action = { type: 'speak', argument: 'the key is under the blue stone', to: ['agent2'] };
    const ph = harness(group, 'agents', { maxTurns: 4 });
    fakeAgent(ph.transport, ph.token('agent1'), { act: (r) => (r.turn === 0 ? whisper : speak(`parent ${r.turn}`)) });
    fakeAgent(ph.transport, ph.token('agent2'));
    fakeAgent(ph.transport, ph.token('agent3'));
    const parentRecord = await ph.episode.run();
    const h = harness(group, 'agents', { maxTurns: 4, fork: forkOf(parentRecord, 2) });
    const clients = Object.fromEntries(['agent1', 'agent2', 'agent3'].map((s) => [s, fakeAgent(h.transport, h.token(s))]));
    const record = await h.episode.run();
    expect(record.turns[0]).toMatchObject({ action: whisper, to: ['agent1', 'agent2'] });
    const heard = (seat: string) => clients[seat]!.frames.filter((f) => f.type === 'turn.event').map((f) => f.turn);
    expect(heard('agent2')).toEqual([0, 1, 2, 3]);
    expect(heard('agent3')).toEqual([1, 2, 3]);
    expect(h.ledgers.get('agent3')!.lines.join('\n')).not.toContain('blue stone');
  });
});
