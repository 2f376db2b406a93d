import { describe, expect, it, vi } from 'vitest';
import { CloseCode, ErrorCode, type Action } from '../protocol/index.js';
import { FakeClock } from './fake-clock.js';
import { MAX_SEAT_EVENTS, SeatLifecycle } from './seat-lifecycle.js';
import { fakeAgent } from './testing/fake-agent.js';
import { seatBAskedAndSilent } from './testing/silent-seat.js';

const GRACE = 10_000;
function lifecycle(o: { grace?: number; ttl?: number } = {}) {
  const clock = new FakeClock();
  let n = 0;
  const lc = new SeatLifecycle('B', { clock, tokenTtlMs: o.ttl ?? 60_000, reconnectGraceMs: o.grace ?? GRACE, newSecret: () => `secret${n++}` });
  return { clock, lc };
}
const ok = <T extends { ok: boolean }>(d: T) => {
  expect(d.ok).toBe(true);
  return d as Extract<T, { ok: true }>;
};

describe('seat lifecycle: every transition on a simulated clock', () => {
  it('reserved → joined → live → down → rejoined → down → lost, secrets rotating, events recorded', () => {
    const { clock, lc } = lifecycle();
    expect(lc.phase).toBe('reserved');
    expect(lc.resumeSecret).toBeNull();
    const first = ok(lc.join());
    expect(first).toEqual({ ok: true, rejoin: false, secret: 'secret0' });
    expect([lc.phase, lc.connected, lc.playing]).toEqual(['joined', true, false]);
    lc.start();
    expect([lc.phase, lc.playing]).toEqual(['live', true]);
    clock.advance(100);
    expect(lc.down(1006, 'gone')).toBe('down');
    expect(lc.graceUntil).toBe(clock.now() + GRACE);
    expect([lc.connected, lc.playing, lc.over]).toEqual([false, false, false]);
    const back = ok(lc.resume('secret0'));
    expect(back).toEqual({ ok: true, rejoin: true, secret: 'secret1' });
    expect([lc.phase, lc.playing, lc.graceUntil]).toEqual(['rejoined', true, null]);
    lc.down(1006, 'gone again');
    clock.advance(GRACE + 1);
    expect(lc.expire()).toBe(true);
    expect([lc.phase, lc.over, lc.resumeSecret]).toEqual(['lost', true, null]);
    expect(lc.lostReason).toBe(`seat B did not reconnect within ${GRACE} ms`);
    expect(lc.events.map((e) => e.kind)).toEqual(['down', 'rejoined', 'down', 'lost']);
    expect(lc.events.at(-1)).toMatchObject({ code: ErrorCode.Disconnected, atMs: 100 + GRACE + 1 });
  });

  it('a resume at exactly the last instant of the grace is accepted; one millisecond later the seat is lost', () => {
    const edge = lifecycle();
    ok(edge.lc.join());
    edge.lc.start();
    edge.lc.down(1006, 'gone');
    edge.clock.advance(GRACE);
    expect(edge.lc.expire()).toBe(false);
    expect(ok(edge.lc.resume('secret0')).rejoin).toBe(true);

    const late = lifecycle();
    ok(late.lc.join());
    late.lc.start();
    late.lc.down(1006, 'gone');
    late.clock.advance(GRACE + 1);
    expect(late.lc.resume('secret0')).toEqual({ ok: false, code: ErrorCode.SeatClosed, message: 'the reconnect window has passed' });
    expect(late.lc.phase).toBe('lost');
  });

  it('the join token is spent on first use; a reconnect needs the current secret, and an old one is refused', () => {
    const { lc } = lifecycle();
    ok(lc.join());
    expect(lc.join()).toMatchObject({ ok: false, code: ErrorCode.TokenSpent });
    lc.down(1006, 'gone');
    expect(lc.resume('wrong')).toMatchObject({ ok: false, code: ErrorCode.BadResume });
    ok(lc.resume('secret0'));
    // Held again: the old secret no longer works, the rotated one does (the holder reconnecting).
    expect(lc.resume('secret0')).toMatchObject({ ok: false, code: ErrorCode.BadResume });
    expect(ok(lc.resume('secret1')).secret).toBe('secret2');
    expect(lc.events.map((e) => `${e.kind} ${e.code ?? ''}`.trim())).toEqual([
      `join_refused ${ErrorCode.TokenSpent}`, 'down', `join_refused ${ErrorCode.BadResume}`, 'rejoined', `join_refused ${ErrorCode.BadResume}`, 'rejoined',
    ]);
  });

  it('a token past its TTL is refused; an abuse or budget close loses the seat at once; no grace loses it on any drop', () => {
    const ttl = lifecycle({ ttl: 1000 });
    ttl.clock.advance(1001);
    expect(ttl.lc.join()).toMatchObject({ ok: false, code: ErrorCode.BadToken });

    for (const code of [CloseCode.ProtocolAbuse, CloseCode.ByteBudget]) {
      const abuse = lifecycle();
      ok(abuse.lc.join());
      expect(abuse.lc.down(code, 'abuse')).toBe('lost');
      expect(abuse.lc.events.at(-1)).toMatchObject({ kind: 'lost', code: ErrorCode.Abuse });
      expect(abuse.lc.resume('secret0')).toMatchObject({ ok: false, code: ErrorCode.SeatClosed });
      expect(abuse.lc.join()).toMatchObject({ ok: false, code: ErrorCode.SeatClosed });
    }

    const none = lifecycle({ grace: 0 });
    ok(none.lc.join());
    expect(none.lc.down(1006, 'gone')).toBe('lost');
    expect(none.lc.lostReason).toBe('connection closed (1006 gone)');
  });

  it('lose() and end() are final; note() records without changing the phase; events are capped', () => {
    const { lc } = lifecycle();
    ok(lc.join());
    lc.note('heartbeat_timeout', undefined, 'silent');
    expect(lc.phase).toBe('joined');
    lc.lose('process gone');
    expect(lc.phase).toBe('lost');
    lc.end();
    expect([lc.phase, lc.over]).toEqual(['ended', true]);
    expect(lc.join()).toMatchObject({ ok: false, code: ErrorCode.SeatClosed });

    const many = lifecycle();
    ok(many.lc.join());
    for (let i = 0; i < 200; i++) many.lc.note('refused', ErrorCode.BadFrame, 'x');
    expect(many.lc.events).toHaveLength(MAX_SEAT_EVENTS);
    expect(many.lc.events.at(-1)).toMatchObject({ kind: 'truncated', detail: `${200 - (MAX_SEAT_EVENTS - 1)} more event(s) not kept` });
  });
});

describe('seat lifecycle in an episode: reconnect at the grace edge (simulated clock)', () => {
  const speak = (argument: string): Action => ({ type: 'speak', argument });
  const dropB = async () => {
    const { h, b, done } = await seatBAskedAndSilent({ maxTurns: 3, reconnectGraceMs: GRACE, turnDeadlineMs: 60_000 });
    b.disconnect();
    await vi.waitFor(() => expect(h.episode.links.get('B')!.state).toBe('down'));
    return { h, b, done };
  };

  it('resuming exactly at the last instant of the grace continues the episode', async () => {
    const { h, b, done } = await dropB();
    h.clock.advance(GRACE);
    fakeAgent(h.transport, h.token('B'), { act: (r) => speak(`back ${r.turn}`), resume: b.resumeSecret! });
    const record = await done;
    expect(record.status).toBe('ok');
    expect(record.turns.map((t) => t.action?.argument)).toEqual(['hello 0', 'back 1', 'hello 2']);
  });

  it('one millisecond later the seat is lost and the episode ends with disconnect', async () => {
    const { h, b, done } = await dropB();
    h.clock.advance(GRACE + 1);
    const late = fakeAgent(h.transport, h.token('B'), { resume: b.resumeSecret! });
    const record = await done;
    expect(record.status).toBe('failed');
    expect(record.termination).toEqual({ reason: 'disconnect', seat: 'B', detail: `seat B did not reconnect within ${GRACE} ms` });
    expect(record.errors).toContainEqual(expect.objectContaining({ code: ErrorCode.Disconnected, seat: 'B' }));
    await late.whenClosed();
    expect(late.frames.some((f) => f.type === 'seat.welcome')).toBe(false);
  });
});
