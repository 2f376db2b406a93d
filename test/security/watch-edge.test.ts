import { once } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { WATCH_EVENT, WATCH_NAMESPACE, WATCH_OPEN_EVENT, type WatchMessage } from '../../protocol/watch.js';
import { within } from '../helpers/processes.js';
import { RawSocketIo } from './raw-socketio.js';
import { processSuite } from '../helpers/process-suite.js';
import { serveWatching, watchClients } from '../helpers/watch-feed.js';

/**
 * The watch namespace (issue 25) is a new socket.io surface: hostile packets sent to it, with and without
 * the watch key, must leave `parley serve` running, and a watcher with the key must still get the feed.
 * Talks only to 127.0.0.1; a bounded number of connections; the server is stopped at the end.
 */
describe('red team: the /watch namespace', () => {
  const suite = processSuite('watch-edge');
  const watcher = watchClients(suite.onTeardown);

  /** Connects a raw client to the watch namespace with `auth`; resolves with the server's answer packet. */
  async function rawWatcher(base: string, auth: unknown): Promise<{ client: RawSocketIo; answer: string }> {
    const client = await RawSocketIo.connect(base);
    client.send(`40${WATCH_NAMESPACE},${JSON.stringify(auth)}`);
    for (;;) {
      const answer = client.received.find((m) => m.startsWith(`40${WATCH_NAMESPACE},`) || m.startsWith(`44${WATCH_NAMESPACE},`));
      if (answer) return { client, answer };
      if (!client.open) return { client, answer: '(closed)' };
      await Promise.race([once(client.ws, 'message'), client.closed]);
    }
  }

  it('malformed events, a deep array and a binary event, with or without the key, leave serve running; the feed still works', async () => {
    const { serve, base, key } = await serveWatching(suite);

    // Without the key, with a wrong one, with a non-object auth: the namespace refuses the connection.
    for (const auth of [{}, { key: 'x'.repeat(32) }, { key: { toString: 1 } }, [key]]) {
      const { client, answer } = await rawWatcher(base, auth);
      expect(answer.startsWith(`40${WATCH_NAMESPACE},`), answer).toBe(false);
      client.ws.terminate();
    }

    const ns = `42${WATCH_NAMESPACE},`;
    const attacks: string[] = [
      `${ns}[1]`,
      `${ns}[{"toString":1},"x"]`,
      `${ns}["${WATCH_OPEN_EVENT}",${'['.repeat(100_000)}${']'.repeat(100_000)}]`,
      `${ns}["${WATCH_OPEN_EVENT}",1,2,3]`,
      `${ns}["${WATCH_EVENT}",${'['.repeat(100_000)}${']'.repeat(100_000)}]`,
      `${ns}["${WATCH_OPEN_EVENT}",{"episodeId":{"__proto__":{"x":1}}}]`,
      `${ns}["${WATCH_OPEN_EVENT}","${'a'.repeat(200_000)}"]`,
    ];
    for (const packet of attacks) {
      for (const auth of [{}, { key }]) {
        const { client } = await rawWatcher(base, auth);
        client.send(packet);
        await Promise.race([client.closed, new Promise((r) => setImmediate(r))]);
        client.ws.terminate();
        expect(serve.child.exitCode, serve.stderr.join('\n')).toBeNull();
      }
    }
    // A binary event with a pending attachment on the namespace, with the key.
    const { client: binary } = await rawWatcher(base, { key });
    binary.send(`451-${WATCH_NAMESPACE},["${WATCH_OPEN_EVENT}",{"_placeholder":true,"num":0}]`);
    binary.send(Buffer.alloc(64 * 1024, 7));
    await Promise.race([binary.closed, new Promise((r) => setImmediate(r))]);
    binary.ws.terminate();

    // The server is up and a well-behaved watcher with the key still gets the feed.
    const socket = watcher(base, { key });
    const rows = new Promise<number>((resolve) => socket.on(WATCH_EVENT, (m: WatchMessage) => m.type === 'rows' && resolve(m.rows.length)));
    expect(await within(rows, 30_000, 'the feed after the attacks', [serve])).toBeGreaterThan(0);
    await vi.waitFor(() => expect(serve.child.exitCode).toBeNull());
  });
});
