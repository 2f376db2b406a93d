import { setImmediate as tick } from 'node:timers/promises';
import { io, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SOCKET_IO_PATH } from '../protocol/browser-transport.js';
import { WATCH_EVENT, WATCH_NAMESPACE } from '../protocol/watch.js';
import { closeServer, createHttpServer, listen } from '../orchestrator/net/http-server.js';
import { attachBrowserEndpoint } from '../orchestrator/net/socketio-endpoint.js';
import { attachWatchEndpoint } from '../orchestrator/net/watch-endpoint.js';
import { webRoutes } from '../orchestrator/net/web-routes.js';
import { SeatRegistry } from '../orchestrator/seat-registry.js';
import { WATCH_LIMITS, WatchHub } from '../orchestrator/watch/watch-hub.js';
import { newWatchKey, watchGate } from '../orchestrator/watch/watch-key.js';

/**
 * A watcher that stops reading (a frozen tab, a stalled network) while an episode pours out ledger
 * lines (4,000 × 64 KB = 256 MB written): the server queues it at most a chunk of the opened episode
 * beyond what it already holds (issue 35: paced by bytes as its socket drains), so serve's memory does
 * not follow what the watcher would have been sent; when it reads again, the rest of what the hub keeps
 * follows. Real loopback socket.io, real engine queue.
 */
describe('a slow watcher', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('costs the server a chunk, not the episode, and catches up when it reads again', async () => {
    const key = newWatchKey();
    let browser: ReturnType<typeof attachBrowserEndpoint> | null = null;
    const server = createHttpServer(webRoutes({ page: 'seat', socketIo: (req, res) => browser?.handleRequest(req, res) }));
    browser = attachBrowserEndpoint(server, new SeatRegistry({}), {});
    const hub = new WatchHub('slow');
    attachWatchEndpoint(browser, hub, watchGate(key));
    const port = await listen(server, 0);
    cleanups.push(() => closeServer(server), () => browser!.close());
    hub.plan([{ episodeId: 'e1', mode: 'agents', scenario: 's', maxTurns: 20 }]);
    hub.prepared('e1');

    const socket: Socket = io(`http://127.0.0.1:${port}${WATCH_NAMESPACE}`, { path: SOCKET_IO_PATH, transports: ['websocket'], auth: { key }, reconnection: false, forceNew: true });
    cleanups.push(() => void socket.disconnect());
    let lines = 0;
    socket.on(WATCH_EVENT, (m: { type: string; lines?: string[] }) => {
      if (m.type === 'ledger') lines += m.lines!.length;
    });
    const opened = new Promise<void>((resolve) => socket.on(WATCH_EVENT, (m: { type: string }) => m.type === 'episode' && resolve()));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    socket.emit('watch.open', 'e1');
    await opened;
    expect(hub.watchers).toBe(1);
    // The client stops reading its TCP socket: what the server sends piles up on the server's side.
    const tcp = (socket.io.engine.transport as unknown as { ws: { _socket: { pause(): void; resume(): void } } }).ws._socket;
    tcp.pause();

    global.gc?.();
    const before = process.memoryUsage().rss;
    const line = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 4000; i++) {
      hub.ledgerLine('e1', 'agent1', line);
      if (i % 20 === 0) await tick();
    }
    const grown = process.memoryUsage().rss - before;
    expect(grown).toBeLessThan(100 * 1024 * 1024);
    // Reading again: the lines the hub keeps (its 2 MB cap, 31 of 64 KB) arrive, chunk by chunk.
    tcp.resume();
    await vi.waitFor(() => expect(lines).toBe(Math.floor(WATCH_LIMITS.maxDetailBytes / line.length)), { timeout: 30_000 });
  });
});
