import { describe, expect, it } from 'vitest';
import { WATCH_EVENT, type WatchMessage, type WatchRow } from '../protocol/watch.js';
import { within } from './helpers/processes.js';
import { processSuite } from './helpers/process-suite.js';
import { serveWatching, watchClients } from './helpers/watch-feed.js';

/**
 * `parley serve --watch` (issue 25): the same watch url as `run`, on serve's own server. Its episode
 * waits for remote agents; the feed lists it as waiting, and the url without the key is 403.
 */
describe('parley serve --watch', () => {
  const suite = processSuite('serve-watch');
  const watcher = watchClients(suite.onTeardown);

  it('prints the watch url; the feed lists the waiting episode; 403 without the key', async () => {
    const { serve, url, base, key } = await serveWatching(suite);
    const [, episodeId] = await within(serve.line(/^episode (\S+) scenario /), 60_000, 'the episode line', [serve]);
    expect((await fetch(`${base}/watch`)).status).toBe(403);
    expect((await fetch(url)).status).toBe(200);

    const socket = watcher(base, { key });
    const rows = new Map<string, WatchRow>();
    const waiting = new Promise<void>((resolve) => socket.on(WATCH_EVENT, (m: WatchMessage) => {
      if (m.type === 'rows') for (const r of m.rows) rows.set(r.episodeId, r);
      if (rows.get(episodeId!)?.state === 'waiting') resolve();
    }));
    await within(waiting, 30_000, 'the episode listed as waiting', [serve]);
    expect(rows.get(episodeId!)).toMatchObject({ mode: 'agents', scenario: 'mutual_friends_01', turns: 0, maxTurns: 20 });
    expect(serve.child.exitCode).toBeNull();
  });
});
