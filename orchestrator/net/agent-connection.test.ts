import { describe, expect, it, vi } from 'vitest';
import { CloseCode, ErrorCode, MAX_FRAME_BYTES } from '../../protocol/index.js';
import { openFixture } from '../../test/fixtures/scenarios.js';
import { fakeAgent } from '../testing/fake-agent.js';
import { harness } from '../testing/harness.js';

const errorCodes = (c: { frames: Array<{ type: string; code?: string }> }) => c.frames.filter((f) => f.type === 'error').map((f) => f.code);

describe('agent connection edge', () => {
  it('refuses a wrong token with seat/bad_token and close 4002', async () => {
    const h = harness(openFixture(3), 'agents');
    const c = h.transport.connect();
    c.join('not-a-token');
    expect(await c.whenClosed()).toMatchObject({ code: CloseCode.JoinRefused });
    expect(errorCodes(c)).toEqual([ErrorCode.BadToken]);
  });

  it('refuses a second join with a spent token (seat/token_spent) and close 4002', async () => {
    const h = harness(openFixture(3), 'agents');
    const first = fakeAgent(h.transport, h.token('A'));
    await first.next('seat.welcome', 0);
    const second = h.transport.connect();
    second.join(h.token('A'));
    expect(await second.whenClosed()).toMatchObject({ code: CloseCode.JoinRefused });
    expect(errorCodes(second)).toEqual([ErrorCode.TokenSpent]);
    expect(first.closed).toBeNull();
  });

  it('refuses an expired token', async () => {
    const h = harness(openFixture(3), 'agents', { tokenTtlMs: 1_000 });
    h.clock.advance(1_001);
    const c = h.transport.connect();
    c.join(h.token('A'));
    await c.whenClosed();
    expect(c.frames[0]).toMatchObject({ type: 'error', code: ErrorCode.BadToken, message: 'token expired' });
  });

  it('requires seat.join as the first frame', async () => {
    const h = harness(openFixture(3), 'agents');
    const c = h.transport.connect();
    c.send({ type: 'pong', nonce: 'x' });
    expect(await c.whenClosed()).toMatchObject({ code: CloseCode.JoinRefused });
    expect(errorCodes(c)).toEqual([ErrorCode.NotJoined]);
  });

  it('answers malformed frames with protocol/bad_frame and closes 4001 after repeated abuse', async () => {
    const h = harness(openFixture(3), 'agents', { connection: { maxStrikes: 3 } });
    const a = fakeAgent(h.transport, h.token('A'));
    await a.next('seat.welcome', 0);
    a.send('{not json');
    a.send({ type: 'turn.act', turn: -1 });
    await vi.waitFor(() => expect(errorCodes(a)).toEqual([ErrorCode.BadFrame, ErrorCode.BadFrame]));
    expect(a.closed).toBeNull();
    a.send({ type: 'no.such.frame' });
    expect(await a.whenClosed()).toMatchObject({ code: CloseCode.ProtocolAbuse });
    // The refusals went through the seat's ledger.
    expect(h.ledgers.get('A')!.frames().filter((f) => f.type === 'error')).toHaveLength(3);
  });

  it('refuses a frame over the size cap with protocol/frame_too_large without parsing it', async () => {
    const h = harness(openFixture(3), 'agents');
    const a = fakeAgent(h.transport, h.token('A'));
    await a.next('seat.welcome', 0);
    a.send(JSON.stringify({ v: 1, id: 'big', type: 'pong', nonce: 'x'.repeat(MAX_FRAME_BYTES) }));
    await vi.waitFor(() => expect(errorCodes(a)).toEqual([ErrorCode.FrameTooLarge]));
    expect(a.closed).toBeNull();
  });

  it('refuses a second join on the same connection', async () => {
    const h = harness(openFixture(3), 'agents');
    const a = fakeAgent(h.transport, h.token('A'));
    await a.next('seat.welcome', 0);
    a.join(h.token('B'));
    await vi.waitFor(() => expect(errorCodes(a)).toEqual([ErrorCode.AlreadyJoined]));
    // B's token is still free for B.
    const b = fakeAgent(h.transport, h.token('B'));
    await b.next('seat.welcome', 0);
  });

  it('closes a connection that never joins with 4003', async () => {
    const h = harness(openFixture(3), 'agents', { connection: { joinTimeoutMs: 2_000 } });
    const c = h.transport.connect();
    h.clock.advance(2_000);
    expect(await c.whenClosed()).toMatchObject({ code: CloseCode.JoinTimeout });
  });

  it('pings, and closes a silent connection with 4004', async () => {
    const h = harness(openFixture(3), 'agents', { connection: { heartbeatIntervalMs: 1_000, heartbeatTimeoutMs: 3_000 } });
    const alive = fakeAgent(h.transport, h.token('A'));
    const silent = h.transport.connect();
    silent.join(h.token('B'));
    await silent.next('seat.welcome', 0);
    for (let i = 0; i < 4; i++) {
      h.clock.advance(1_000);
      await new Promise((r) => setImmediate(r)); // let the pong travel
    }
    expect(await silent.whenClosed()).toMatchObject({ code: CloseCode.HeartbeatTimeout });
    expect(alive.closed).toBeNull();
    expect(alive.frames.filter((f) => f.type === 'ping').length).toBeGreaterThanOrEqual(3);
    // Pings are frames the seat received, so they are ledgered too.
    expect(h.ledgers.get('A')!.frames().some((f) => f.type === 'ping')).toBe(true);
  });
});

describe('seat tokens', () => {
  it('are long alphanumeric strings, safe to paste after --token', () => {
    const h = harness(openFixture(3), 'agents');
    const tokens = Array.from({ length: 200 }, () => h.registry.reserve(h.episode.links.get("A")!));
    for (const t of tokens) expect(t).toMatch(/^[0-9A-Za-z]{24}$/);
    expect(new Set(tokens).size).toBe(200);
  });
});
