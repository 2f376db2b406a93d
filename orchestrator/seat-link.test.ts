import { describe, expect, it, vi } from 'vitest';
import type { Action } from '../protocol/index.js';
import { openFixture } from '../test/fixtures/scenarios.js';
import { fakeAgent } from './testing/fake-agent.js';
import { harness } from './testing/harness.js';
import { seatBAskedAndSilent } from './testing/silent-seat.js';

const speak = (argument: string): Action => ({ type: 'speak', argument });

/**
 * A seat taken over by another connection (a reconnect, or a fresh process replacing one that died)
 * is told everything it knew, replayed as first sent: the basis of crash recovery.
 */
describe('seat link: rejoin replays the seat knowledge', () => {
  it('replays welcome, peer.state and every turn event byte for byte, including events sent while the seat was away, then the pending request', async () => {
    const h = harness(openFixture(3), 'mindreaders', { maxTurns: 6, reconnectGraceMs: 10_000 });
    let aTurns = 0;
    const a = fakeAgent(h.transport, h.token('A'), { act: (r) => (aTurns++, speak(`A ${r.turn}`)) });
    // B answers turn 1, then goes silent on turn 3 and drops.
    const b = fakeAgent(h.transport, h.token('B'), { pid: 501, act: (r) => (r.turn === 1 ? speak('B 1') : null) });
    const done = h.episode.run();
    await vi.waitFor(() => expect(b.frames.filter((f) => f.type === 'turn.request').map((f) => (f.type === 'turn.request' ? f.turn : -1))).toEqual([1, 3]));
    const before = b.raw.filter((t) => /"type":"(seat\.welcome|peer\.state|turn\.event)"/.test(t));
    expect(before.filter((t) => t.includes('"turn.event"'))).toHaveLength(3);
    b.disconnect();
    // A replacement process (another pid) takes the seat over.
    const b2 = fakeAgent(h.transport, h.token('B'), { pid: 502, act: (r) => speak(`B2 ${r.turn}`), resume: b.resumeSecret! });
    const record = await done;
    expect(record.status).toBe('ok');
    expect(record.turns.map((t) => t.action?.argument)).toEqual(['A 0', 'B 1', 'A 2', 'B2 3', 'A 4', 'B2 5']);
    // What the replacement received first: exactly what its predecessor had been told, as sent, except
    // the welcome's resume secret, which rotates with every rejoin (the point of the secret).
    const withoutSecret = (t: string) => t.replace(/"resume":"[0-9A-Za-z]+"/, '"resume":"…"');
    expect(b2.raw.slice(0, before.length).map(withoutSecret)).toEqual(before.map(withoutSecret));
    expect(b2.resumeSecret).not.toBe(b.resumeSecret);
    expect(b2.frames[before.length]).toMatchObject({ type: 'turn.request', turn: 3 });
    // Both processes are on the record, the last one as `pid`.
    expect(record.seats.find((s) => s.seat === 'B')).toMatchObject({ pid: 502, pids: [501, 502] });
    expect(record.seats.find((s) => s.seat === 'A')!.pids).toHaveLength(1);
    // The ledger holds every frame each process received: the replay appears again after the drop.
    const ledger = h.ledgers.get('B')!.lines;
    const welcomes = ledger.filter((l) => l.includes('"seat.welcome"'));
    expect(welcomes).toHaveLength(2);
    expect(withoutSecret(welcomes[0]!)).toBe(withoutSecret(welcomes[1]!));
    expect(aTurns).toBe(3);
  });

  it('an event sent while the seat is away is not in the ledger until it is replayed to the seat', async () => {
    const h = harness(openFixture(3), 'agents', { maxTurns: 4, reconnectGraceMs: 10_000 });
    const a = fakeAgent(h.transport, h.token('A'), { act: (r) => (r.turn === 2 ? null : speak(`A ${r.turn}`)) });
    const b = fakeAgent(h.transport, h.token('B'));
    const done = h.episode.run();
    await vi.waitFor(() => expect(b.frames.filter((f) => f.type === 'turn.event')).toHaveLength(2));
    b.disconnect();
    await vi.waitFor(() => expect(h.episode.links.get('B')!.state).toBe('down'));
    // Turn 2 is A's: A moves while B is away.
    a.send({ type: 'turn.act', turn: 2, action: speak('A 2 while B is away'), meta: { policy: 'fake', latencyMs: 1 } });
    await vi.waitFor(() => expect(a.frames.filter((f) => f.type === 'turn.event')).toHaveLength(3));
    expect(h.ledgers.get('B')!.lines.some((l) => l.includes('while B is away'))).toBe(false);
    const b2 = fakeAgent(h.transport, h.token('B'), { resume: b.resumeSecret! });
    const record = await done;
    expect(record.status).toBe('ok');
    expect(b2.frames.filter((f) => f.type === 'turn.event').map((f) => (f.type === 'turn.event' ? f.action.argument : ''))).toEqual(['A 0', 'hello 1', 'A 2 while B is away', 'hello 3']);
    expect(h.ledgers.get('B')!.lines.filter((l) => l.includes('while B is away'))).toHaveLength(1);
  });

  it('Episode.seatLost ends the episode at once with disconnect and the reason, without waiting out the grace', async () => {
    const { h, b, done } = await seatBAskedAndSilent({ reconnectGraceMs: 60_000 });
    b.disconnect();
    h.episode.seatLost('B', 'seat B: agent process 9 exited (SIGKILL); not recovered: recovery attempts exhausted');
    const record = await done;
    expect(record.status).toBe('failed');
    expect(record.termination).toEqual({ reason: 'disconnect', seat: 'B', detail: expect.stringContaining('recovery attempts exhausted') });
    expect(record.errors).toContainEqual(expect.objectContaining({ code: 'seat/disconnected', seat: 'B' }));
  });
});
