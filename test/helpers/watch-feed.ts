import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { SOCKET_IO_PATH } from '../../protocol/browser-transport.js';
import { WATCH_NAMESPACE } from '../../protocol/watch.js';
import type { ProcessSuite } from './process-suite.js';
import { parley, within, type CliProcess } from './processes.js';

/** The line `parley run|serve --watch` prints: the watch url, its base (scheme, host, port) and its key. */
export const WATCH_URL_LINE = /^watch url ((http:\/\/127\.0\.0\.1:\d+)\/watch\?key=([\w-]{32}))$/;

/** Reads the watch url, base and key from a serve process's output so far. */
export function watchUrlOf(serve: CliProcess): { url: string; base: string; key: string } {
  const m = serve.stdout.map((l) => WATCH_URL_LINE.exec(l)).find((x) => x !== null);
  if (!m) throw new Error(`no watch url line in: ${serve.stdout.join('\n')}`);
  return { url: m[1]!, base: m[2]!, key: m[3]! };
}

/**
 * Watch-feed clients of a test file (socket.io on the watch namespace, as the page connects, no
 * reconnection), disconnected by the step given to `onTeardown`. Returns the function that opens one.
 */
export function watchClients(onTeardown: (fn: () => void) => void): (base: string, auth: unknown) => Socket {
  const sockets: Socket[] = [];
  onTeardown(() => {
    for (const s of sockets) s.disconnect();
  });
  return (base, auth) => {
    const s = io(`${base}${WATCH_NAMESPACE}`, { path: SOCKET_IO_PATH, transports: ['websocket'], auth: auth as Record<string, unknown>, reconnection: false, forceNew: true });
    sockets.push(s);
    return s;
  };
}

/**
 * Starts `parley serve --watch` in the suite's folder for one built-in agents episode, which waits for
 * remote agents, and resolves once it prints its watch url.
 */
export async function serveWatching(suite: ProcessSuite): Promise<{ serve: CliProcess; url: string; base: string; key: string }> {
  const serve = parley(['serve', '--port', '0', '--scenarios', 'builtin', '--modes', 'agents', '--limit', '1', '--watch', '--out', join(suite.tmp.path, 's')]);
  suite.procs.push(serve);
  const [, url, base, key] = await within(serve.line(WATCH_URL_LINE), 60_000, 'the watch url', [serve]);
  return { serve, url: url!, base: base!, key: key! };
}
