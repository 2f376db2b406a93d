import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { SOCKET_IO_PATH } from '../protocol/browser-transport.js';
import { WATCH_EVENT, WATCH_NAMESPACE, type WatchMessage, type WatchRow } from '../protocol/watch.js';
import { parley, within } from './helpers/processes.js';
import { processSuite } from './helpers/process-suite.js';

/**
 * `parley serve --watch` (issue 25): the same watch url as `run`, on serve's own server. Its episode
 * waits for remote agents; the feed lists it as waiting, and the url without the key is 403.
 */
describe('parley serve --watch', () => {
  const suite = processSuite('serve-watch');
  const { tmp, procs } = suite;
  const sockets: Socket[] = [];
  suite.onTeardown(() => {
    for (const s of sockets) s.disconnect();
  });

  it('prints the watch url; the feed lists the waiting episode; 403 without the key', async () => {
    const serve = parley(['serve', '--port', '0', '--scenarios', 'builtin', '--modes', 'agents', '--limit', '1', '--watch', '--out', join(tmp.path, 's')]);
    procs.push(serve);
    const [, url, base, key] = await within(serve.line(/^watch url ((http:\/\/127\.0\.0\.1:\d+)\/watch\?key=([\w-]{32}))$/), 60_000, 'the watch url', [serve]);
    const [, episodeId] = await within(serve.line(/^episode (\S+) scenario /), 60_000, 'the episode line', [serve]);
    expect((await fetch(`${base}/watch`)).status).toBe(403);
    expect((await fetch(url!)).status).toBe(200);

    const socket = io(`${base}${WATCH_NAMESPACE}`, { path: SOCKET_IO_PATH, transports: ['websocket'], auth: { key }, reconnection: false, forceNew: true });
    sockets.push(socket);
    const rows = new Map<string, WatchRow>();
    const waiting = new Promise<void>((resolve) => socket.on(WATCH_EVENT, (m: WatchMessage) => {
      if (m.type === 'rows') for (const r of m.rows) rows.set(r.episodeId, r);
      if (rows.get(episodeId!)?.state === 'waiting') resolve();
    }));
    await within(waiting, 30_000, 'the episode listed as waiting', [serve]);
    expect(rows.get(episodeId!)).toMatchObject({ mode: 'agents', scenario: 'mutual_friends_01', turns: 0, maxTurns: 20 });
    expect(serve.child.exitCode).toBeNull();
  }, 90_000);
});
