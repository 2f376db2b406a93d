import { io, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLOSE_EVENT, CloseCode, ErrorCode, FRAME_EVENT, PROTOCOL_VERSION, SOCKET_IO_PATH, type BrowserClose } from '../../../protocol/index.js';
import { openFixture } from '../../fixtures/scenarios.js';
import { systemClock } from '../../../orchestrator/clock.js';
import { Episode } from '../../../orchestrator/episode.js';
import { MemoryLedger } from '../../../orchestrator/ledger.js';
import { SeatRegistry } from '../../../orchestrator/seat-registry.js';
import { makeLimits } from '../../../orchestrator/world.js';
import { closeServer, createHttpServer, listen } from '../../../orchestrator/net/http-server.js';
import { attachBrowserEndpoint } from '../../../orchestrator/net/socketio-endpoint.js';

/** The socket.io endpoint is the same connection edge as `ws`: tokens, codes, strikes, ledger. */
describe('socket.io browser endpoint', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0)) await c();
  });

  async function setup(maxStrikes = 5) {
    const registry = new SeatRegistry({ reconnectGraceMs: 0 });
    const server = createHttpServer();
    const endpoint = attachBrowserEndpoint(server, registry, { maxStrikes });
    const port = await listen(server, 0);
    cleanup.push(async () => {
      endpoint.close();
      await closeServer(server);
    });
    const ledgers = new Map<string, MemoryLedger>();
    const episode = Episode.prepare(
      { episodeId: 'sio-1', scenario: openFixture(3), mode: 'agents', repeat: 0 },
      { registry, clock: systemClock, runId: 'sio', limits: makeLimits(4, 15_000), tokenTtlMs: 30_000, ledgerFor: (_e, seat) => { const l = new MemoryLedger(); ledgers.set(seat, l); return l; } },
    );
    return { port, episode, ledgers };
  }

  function client(port: number): { socket: Socket; frames: string[]; closed: Promise<BrowserClose>; send(body: Record<string, unknown>): void } {
    const socket = io(`http://127.0.0.1:${port}`, { path: SOCKET_IO_PATH, transports: ['websocket'], reconnection: false });
    cleanup.push(() => void socket.disconnect());
    const frames: string[] = [];
    socket.on(FRAME_EVENT, (t: string) => frames.push(t));
    let n = 0;
    return {
      socket,
      frames,
      closed: new Promise<BrowserClose>((resolve) => socket.once(CLOSE_EVENT, resolve)),
      send: (body) => void socket.emit(FRAME_EVENT, JSON.stringify({ v: PROTOCOL_VERSION, id: `b${n++}`, ...body })),
    };
  }

  const join = (token: string) => ({ type: 'seat.join', token, client: { name: 'parley-web', version: '1', policy: 'human', transport: 'ws' } });

  it('refuses a wrong token with the same code and close as ws', async () => {
    const { port } = await setup();
    const c = client(port);
    c.send(join('not-a-token'));
    expect(await c.closed).toMatchObject({ code: CloseCode.JoinRefused });
    expect(JSON.parse(c.frames[0]!)).toMatchObject({ type: 'error', code: ErrorCode.BadToken });
  });

  it('joins with the token: the page gets the welcome its ledger holds; the transport is the edge\'s word; refused frames strike out (4001)', async () => {
    const { port, episode, ledgers } = await setup(2);
    const c = client(port);
    const [seat, token] = [...episode.tokens][0]!;
    c.send(join(token));
    await vi.waitFor(() => expect(c.frames.length).toBeGreaterThan(0), { timeout: 5000 });
    expect(JSON.parse(c.frames[0]!)).toMatchObject({ type: 'seat.welcome', seat, resume: expect.any(String) });
    // Byte for byte, except that the ledger withholds the resume secret (a credential; issue 35).
    const withheld = (t: string) => t.replace(/"resume":"[0-9A-Za-z_-]+"/, '"resume":"…"');
    expect(c.frames.map(withheld)).toEqual(ledgers.get(seat)!.lines.map(withheld));
    expect(ledgers.get(seat)!.lines.join('\n')).not.toContain(JSON.parse(c.frames[0]!).resume);
    expect(episode.links.get(seat)!.client).toMatchObject({ name: 'parley-web', transport: 'socket.io' });
    c.send({ type: 'nonsense' });
    void c.socket.emit('other-event', 'x');
    expect(await c.closed).toMatchObject({ code: CloseCode.ProtocolAbuse });
    expect(c.frames.map((f) => JSON.parse(f)).filter((f) => f.type === 'error').map((f) => f.code)).toContain(ErrorCode.BadFrame);
  });
});
