import { afterEach, describe, expect, it, vi } from 'vitest';
import { PENDING_LIMITS } from '../../orchestrator/net/socketio-endpoint.js';
import { WATCH_NAMESPACE } from '../../protocol/watch.js';
import { RawSocketIo } from './raw-socketio.js';
import { startServe, type ServeTarget } from './serve-target.js';

const httpBase = (t: ServeTarget) => `http://127.0.0.1:${t.port}`;

/** Opens `n` idle tokenless socket.io connections (never joining) to `base`; each settles before the next. */
async function idle(base: string, n: number, into: RawSocketIo[]): Promise<void> {
  for (let i = 0; i < n; i++) {
    try {
      into.push(await RawSocketIo.connect(base));
    } catch {
      // Refused at the handshake: counted by the caller through what is open.
    }
  }
}

/**
 * Issue 35, pending connections on `/socket.io/`: eight idle tokenless socket.io connections from one
 * address once locked that address's watchers and browser seats out (newcomers were refused when full).
 * Now the oldest tokenless connection is closed to make room, as on `/agent`, and a connection that shows
 * a live seat token or the watch key in its handshake is counted apart: tokenless ones opened before and
 * after it cannot refuse or close it. Real `parley serve --watch`; every socket closed after the test.
 */
describe('red team: idle tokenless connections on /socket.io/', () => {
  const sockets: RawSocketIo[] = [];
  let target: ServeTarget | null = null;
  afterEach(() => {
    for (const s of sockets.splice(0)) s.ws.terminate();
    target?.dispose();
  });

  it('evict the oldest tokenless one, and cannot refuse or close a watcher or a seat that shows its credential', async () => {
    const t = (target = await startServe('browser-pending', ['--watch', '--max-turns', '4']));
    const base = httpBase(t);
    const key = /key=([\w-]+)$/.exec(t.serve.stdout.find((l) => l.startsWith('watch url '))!)![1]!;
    const limit = PENDING_LIMITS.perAddress;

    const flood: RawSocketIo[] = [];
    await idle(base, limit + 4, flood);
    sockets.push(...flood);
    // All were let in; the 4 oldest were closed to make room.
    expect(flood).toHaveLength(limit + 4);
    await vi.waitFor(() => expect(flood.filter((c) => c.open)).toHaveLength(limit), { timeout: 10_000 });
    expect(flood.slice(0, 4).every((c) => !c.open)).toBe(true);

    // A watcher and a seat page show their credentials in the handshake's query, then sit idle while
    // twice the limit of tokenless connections arrive: neither is closed.
    const watcher = await RawSocketIo.connect(base, {}, { key });
    const seat = await RawSocketIo.connect(base, {}, { token: t.tokens.get('agent1')! });
    sockets.push(watcher, seat);
    const more: RawSocketIo[] = [];
    await idle(base, 2 * limit, more);
    sockets.push(...more);
    await vi.waitFor(() => expect([...flood, ...more].filter((c) => c.open)).toHaveLength(limit), { timeout: 10_000 });
    expect(watcher.open).toBe(true);
    expect(seat.open).toBe(true);

    await watcher.connectNamespace(WATCH_NAMESPACE, { key });
    await seat.connectNamespace();
    seat.join(t.tokens.get('agent1')!);
    await vi.waitFor(() => expect(seat.received.some((m) => m.includes('seat.welcome'))).toBe(true), { timeout: 15_000 });
    await vi.waitFor(() => expect(watcher.received.some((m) => m.startsWith(`42${WATCH_NAMESPACE},`))).toBe(true), { timeout: 15_000 });

    // A wrong key or a made-up token is tokenless: it is counted with the flood, and the oldest goes.
    const forged = await RawSocketIo.connect(base, {}, { key: 'x'.repeat(32), token: 'A'.repeat(24) });
    sockets.push(forged);
    await idle(base, limit, sockets);
    await vi.waitFor(() => expect(forged.open).toBe(false), { timeout: 10_000 });
    expect(seat.open).toBe(true);
    expect(t.serve.child.exitCode).toBeNull();
    const lines = t.serve.stdout.filter((l) => l.includes('browser connection(s) that had not joined'));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThan(10);
  });
});
