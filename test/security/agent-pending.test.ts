import { once } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { AGENT_PENDING_LIMITS } from '../../orchestrator/net/ws-endpoint.js';
import { CloseCode } from '../../protocol/codes.js';
import { startServe, type ServeTarget } from './serve-target.js';

/** Opens `n` WebSockets to `url` from `localAddress` (20 at a time), each settled (open or refused) before it returns. */
async function flood(url: string, localAddress: string, n: number, into: WebSocket[]): Promise<void> {
  for (let done = 0; done < n; ) {
    const batch = Array.from({ length: Math.min(20, n - done) }, () => {
      const ws = new WebSocket(url, { localAddress });
      ws.on('error', () => {});
      ws.on('close', (code) => closeCodes.set(ws, code));
      into.push(ws);
      return Promise.race([once(ws, 'open'), once(ws, 'close')]);
    });
    await Promise.all(batch);
    done += batch.length;
  }
}

/** How each flood socket was closed (1006: cut without a close frame). */
const closeCodes = new WeakMap<WebSocket, number>();

const openOf = (sockets: readonly WebSocket[]) => sockets.filter((s) => s.readyState === WebSocket.OPEN);

/**
 * Issue 19, k02 on the `/agent` side: connections that never send `seat.join` are bounded per address and
 * in all (ws-endpoint.ts AGENT_PENDING_LIMITS), against a real `parley serve`. A full endpoint closes its oldest
 * pending connection, so a flood from 127.0.0.1 holds at most its limit and cannot lock out the real agents
 * that share the address: they join while the flood is still open, and the episode finishes.
 * Every address used is loopback (127.0.0.x); every socket is closed after the test.
 */
describe('red team: a flood of tokenless connections on /agent', () => {
  const sockets: WebSocket[] = [];
  let target: ServeTarget | null = null;
  afterEach(() => {
    for (const s of sockets.splice(0)) s.terminate();
    target?.dispose();
  });

  it('holds at most its limit of pending connections per address and in all, logs a few lines, keeps serving, and real seats still join', async () => {
    const t = (target = await startServe('agent-pending'));
    const { perAddress, total } = AGENT_PENDING_LIMITS;
    const started = Date.now();

    const base = t.rss()!;
    // One address, 16 more connections than its limit, none of which joins: the 16 oldest are closed.
    const local: WebSocket[] = [];
    await flood(t.url, '127.0.0.1', perAddress + 16, local);
    sockets.push(...local);
    await vi.waitFor(() => expect(openOf(local)).toHaveLength(perAddress), { timeout: 10_000 });
    expect(local.slice(0, 16).every((s) => s.readyState !== WebSocket.OPEN)).toBe(true);
    // Told why (4009, join again), not cut (1006, which a real agent counted as a lost connection).
    await vi.waitFor(() => expect(local.slice(0, 16).map((s) => closeCodes.get(s))).toEqual(Array(16).fill(CloseCode.Busy)), { timeout: 10_000 });

    // Two more loopback addresses, each under its limit, past the total: the oldest of all go.
    const others: WebSocket[] = [];
    for (const address of ['127.0.0.2', '127.0.0.3']) await flood(t.url, address, perAddress / 2 + 16, others);
    sockets.push(...others);
    await vi.waitFor(() => expect(openOf([...local, ...others])).toHaveLength(total), { timeout: 10_000 });
    // The counts above hold only if no join timeout (15 s) closed anything meanwhile.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(t.serve.child.exitCode).toBeNull();
    const grown = (t.rss()! - base) / 2 ** 20;
    console.log(`agent-pending: ${local.length + others.length} tokenless connections, ${total} held: serve RSS +${grown.toFixed(1)} MB`);
    expect(grown).toBeLessThan(50);

    // The real agents, from 127.0.0.1 like the flood, join while it is still open; the episode finishes.
    const bots = [t.bot('agent1'), t.bot('agent2')];
    expect(await t.exited()).toBe(0);
    for (const b of bots) expect(await b.exited).toBe(0);
    expect(t.records()[0]!.status).toBe('ok');
    // One line a second at most, however many connections were closed to make room.
    const lines = t.serve.stdout.filter((l) => l.includes('agent connection(s) that had not joined'));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThan(20);
  });
});
