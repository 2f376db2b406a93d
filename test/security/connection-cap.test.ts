import { once } from 'node:events';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CONNECTION_LIMITS } from '../../orchestrator/net/connection-cap.js';
import { startServe, type ServeTarget } from './serve-target.js';

/** A TCP connection from `localAddress` that has written `text` (nothing more); resolves once connected. */
async function hold(port: number, localAddress: string, text: string): Promise<Socket> {
  const s = connect({ port, host: '127.0.0.1', localAddress });
  s.on('error', () => {});
  s.on('data', () => received.add(s));
  await once(s, 'connect');
  if (text) s.write(text);
  return s;
}

/** Connections that were sent at least one byte. */
const received = new WeakSet<Socket>();

const closed = (sockets: readonly Socket[]) => sockets.filter((s) => s.destroyed || s.readyState === 'closed');

/** The status of `GET /` from `localAddress` on a fresh connection. */
function statusFrom(port: number, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', localAddress, path: '/', agent: false, headers: { connection: 'close' } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('no answer in 10 s')));
    req.end();
  });
}

/**
 * The HTTP server keeps idle keep-alive connections 65 s and unfinished requests ~60 s, so it caps the plain
 * HTTP connections one address holds (orchestrator/net/connection-cap.ts), against a real `parley serve` with
 * PARLEY_MAX_CONNECTIONS_PER_ADDRESS=16: past the cap, connections are closed and newcomers refused, never by
 * a header a client writes; other clients are served, and the process lives with bounded memory. Every
 * address is loopback (127.0.0.x); every socket is closed after the test; it ends within ~25 s.
 */
describe('red team: connections held open on the HTTP server', () => {
  const sockets: Socket[] = [];
  let target: ServeTarget | null = null;
  afterEach(() => {
    for (const s of sockets.splice(0)) s.destroy();
    target?.dispose();
  });

  it('holds at most its cap from one address, forged X-Forwarded-For or not, refuses the rest, keeps serving others and lives', async () => {
    const CAP = 16;
    const t = (target = await startServe('connection-cap', [], 1, { PARLEY_MAX_CONNECTIONS_PER_ADDRESS: String(CAP) }));
    const host = `127.0.0.1:${t.port}`;
    const base = t.rss()!;

    // From 127.0.0.1: 24 requests whose headers never end, then 8 idle keep-alive connections, each answered
    // once and each claiming another client in X-Forwarded-For (the server is not behind a trusted proxy).
    const unfinished = await Promise.all(Array.from({ length: 24 }, () => hold(t.port, '127.0.0.1', `GET / HTTP/1.1\r\nHost: ${host}\r\n`)));
    const forged = await Promise.all(Array.from({ length: 8 }, (_, i) => hold(t.port, '127.0.0.1', `GET / HTTP/1.1\r\nHost: ${host}\r\nX-Forwarded-For: 10.0.0.${i + 1}\r\n\r\n`)));
    sockets.push(...unfinished, ...forged);
    await vi.waitFor(() => expect(forged.every((s) => received.has(s))).toBe(true), { timeout: 10_000 });

    // Once held (DEFAULT_CONNECTION_LIMITS.heldAfterMs) they count against 127.0.0.1: the first 16 stay, the rest are closed.
    const all = [...unfinished, ...forged];
    await vi.waitFor(() => expect(closed(all)).toHaveLength(all.length - CAP), { timeout: DEFAULT_CONNECTION_LIMITS.heldAfterMs + 10_000 });
    expect(closed(unfinished.slice(0, CAP))).toEqual([]);
    expect(closed(forged)).toHaveLength(forged.length);

    // Newcomers from the same address are refused: closed without a byte, 200 of them, memory flat.
    for (let i = 0; i < 4; i++) {
      const late = await Promise.all(Array.from({ length: 50 }, () => hold(t.port, '127.0.0.1', '')));
      sockets.push(...late);
      await vi.waitFor(() => expect(closed(late)).toHaveLength(late.length), { timeout: 10_000 });
      expect(late.some((s) => received.has(s))).toBe(false);
    }

    // Other clients are served, and the process lives with bounded memory.
    expect(await statusFrom(t.port, '127.0.0.2')).toBeLessThan(500);
    expect(t.serve.child.exitCode).toBeNull();
    expect(t.rss()! - base).toBeLessThan(32 * 1024 * 1024);
    // Refusals are logged aggregated, a line or two, not one per connection.
    const lines = t.serve.stdout.filter((l) => /refused .*connection/.test(l));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThan(5);

    // When the client lets its connections go, its address is served again.
    for (const s of unfinished) s.destroy();
    await vi.waitFor(async () => expect(await statusFrom(t.port, '127.0.0.1')).toBeLessThan(500), { timeout: 10_000 });
  });
});
