import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeServer, createHttpServer, listen } from '../../../orchestrator/net/http-server.js';

const servers: Array<ReturnType<typeof createHttpServer>> = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) await closeServer(s);
});

/** A connection from `localAddress` that sends nothing; resolves once connected. */
async function idle(port: number, localAddress: string): Promise<Socket> {
  const s = connect({ port, host: '127.0.0.1', localAddress });
  s.on('error', () => {});
  sockets.push(s);
  await once(s, 'connect');
  return s;
}

const isClosed = (s: Socket) => s.destroyed || s.readyState === 'closed';

/**
 * A full server (PARLEY_MAX_CONNECTIONS, connection-cap.ts) makes room by closing the oldest connection of the
 * address that holds the most: one client's flood of fresh connections (counted before they are held) cannot
 * lock the other addresses out; the flooding address's own newcomers are refused.
 */
describe('the connection cap in all', () => {
  it('closes the oldest of the address holding the most for a newcomer from elsewhere, and refuses the flooder its own', async () => {
    const lines: string[] = [];
    const server = createHttpServer(undefined, { limits: { total: 8, perAddress: 100, heldAfterMs: 60_000 }, log: (l) => lines.push(l) });
    servers.push(server);
    const port = await listen(server, 0);
    const flood: Socket[] = [];
    for (let i = 0; i < 8; i++) flood.push(await idle(port, '127.0.0.2'));
    // Accepted by the server before the newcomer: each connection is counted when its 'connection' event runs.
    await vi.waitFor(() => new Promise<void>((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : n === 8 ? resolve() : reject(new Error(`${n} connections`))))), { timeout: 5000 });
    const other = await idle(port, '127.0.0.3');
    await vi.waitFor(() => expect(isClosed(flood[0]!)).toBe(true), { timeout: 5000 });
    expect(flood.slice(1).some(isClosed)).toBe(false);
    expect(isClosed(other)).toBe(false);
    const again = await idle(port, '127.0.0.2');
    await vi.waitFor(() => expect(isClosed(again)).toBe(true), { timeout: 5000 });
    expect(isClosed(other)).toBe(false);
    expect(lines.some((l) => l.startsWith('refused a connection from 127.0.0.2: the server holds 8 connections'))).toBe(true);
  });

  it('behind a trusted proxy (--trust-proxy) every connection is the proxy\'s: no cap per address, where the same server without it closes', async () => {
    const limits = { total: 100, perAddress: 2, heldAfterMs: 100 };
    const trusted = createHttpServer(undefined, { limits, trustProxy: true });
    const plain = createHttpServer(undefined, { limits });
    servers.push(trusted, plain);
    const [tp, pp] = [await listen(trusted, 0), await listen(plain, 0)];
    const viaProxy: Socket[] = [];
    for (let i = 0; i < 4; i++) viaProxy.push(await idle(tp, '127.0.0.4'));
    const direct: Socket[] = [];
    for (let i = 0; i < 4; i++) direct.push(await idle(pp, '127.0.0.4'));
    // The trusted server's connections were held first (the same delay, started earlier).
    await vi.waitFor(() => expect(direct.filter(isClosed)).toHaveLength(2), { timeout: 5000 });
    expect(viaProxy.filter(isClosed)).toHaveLength(0);
  });
});
