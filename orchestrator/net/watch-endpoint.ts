import type { Socket } from 'socket.io';
import { MAX_WATCH_ID, WATCH_CLOSED_EVENT, WATCH_EVENT, WATCH_NAMESPACE, WATCH_OPEN_EVENT } from '../../protocol/watch.js';
import { systemClock, type Clock } from '../clock.js';
import type { WatchHub, WatchSink } from '../watch/watch-hub.js';
import { ByteBudget } from './byte-budget.js';
import { RefusalLog } from './refusal-log.js';
import type { BrowserEndpoint } from './socketio-endpoint.js';
import type { WatchGate } from './web-routes.js';

/**
 * What a watcher may send: its requests are tiny (an episode id), so a small budget; a page that
 * floods (or a script posing as one) is disconnected long before it costs the server anything.
 */
const WATCHER_BUDGET = { burstBytes: 16 * 1024, bytesPerSecond: 4 * 1024 } as const;
/** Events other than WATCH_OPEN_EVENT a watcher may send before it is disconnected (a page sends none). */
const MAX_IGNORED_EVENTS = 20;
const EPISODE_ID = new RegExp(`^[\\w.:-]{1,${MAX_WATCH_ID}}$`);

/**
 * The watch feed on the browser endpoint's socket.io server, namespace `/watch`: only with the run's
 * key (checked in constant time at the handshake; a seat token is not a key), read-only. A watcher's
 * one request, WATCH_OPEN_EVENT with an episode id, chooses what it is sent; every other event is
 * ignored and counted, and nothing it sends reaches a seat: this namespace has no path to the seat
 * registry at all. A slow watcher is dropped by the hub (watch-hub.ts), so its queue cannot grow.
 */
export function attachWatchEndpoint(browser: BrowserEndpoint, hub: WatchHub, gate: WatchGate, opts: { clock?: Clock; log?: (line: string) => void } = {}): void {
  const clock = opts.clock ?? systemClock;
  const ns = browser.io.of(WATCH_NAMESPACE);
  const refusals = opts.log ? new RefusalLog(opts.log, 'watch connection') : null;
  // A watch page shows its key in the handshake's query too: tokenless connections cannot crowd it out.
  browser.vouchWith((query) => gate.allows(query.get('key')));
  ns.use((socket, next) => {
    const key: unknown = (socket.handshake.auth as Record<string, unknown> | undefined)?.key;
    if (gate.allows(typeof key === 'string' ? key : null)) return next();
    refusals?.refused(socket.handshake.address || 'unknown', 'no or wrong key');
    next(new Error('forbidden'));
  });
  ns.on('connection', (socket: Socket) => {
    browser.settle(socket.conn);
    const sink: WatchSink = {
      // Packets socket.io has handed to the engine and the engine has not written yet.
      backlog: () => (socket.conn as unknown as { writeBuffer?: unknown[] }).writeBuffer?.length ?? 0,
      backlogBytes: () => queuedBytes(socket),
      send: (m) => void socket.emit(WATCH_EVENT, m),
      close: (reason) => {
        socket.emit(WATCH_CLOSED_EVENT, reason);
        setImmediate(() => socket.disconnect(true));
      },
    };
    let ignored = 0;
    const budget = new ByteBudget(clock.now(), WATCHER_BUDGET);
    const drop = (why: string) => {
      hub.detach(sink);
      sink.close(why);
    };
    /** Runs a handler on watcher input; a bug there drops this watcher, never the process. */
    const guarded = (fn: () => void) => {
      try {
        fn();
      } catch (err) {
        opts.log?.(`watch connection handling failed: ${(err as Error).message}`);
        drop('internal error');
      }
    };
    socket.conn.on('packet', (packet: { type: string; data?: unknown }) => {
      if (packet.type !== 'message') return;
      guarded(() => {
        if (!budget.spend(typeof packet.data === 'string' ? Buffer.byteLength(packet.data) : 0, clock.now())) drop('too much input from a watch page');
      });
    });
    socket.onAny((event: unknown, ...args: unknown[]) => {
      guarded(() => {
        if (event === WATCH_OPEN_EVENT && args.length === 1 && typeof args[0] === 'string' && EPISODE_ID.test(args[0])) return hub.open(sink, args[0]);
        if (++ignored > MAX_IGNORED_EVENTS) drop('a watch page only reads');
      });
    });
    // The engine wrote its buffer, or the transport its last send: the opened episode's next chunk may go.
    const drained = () => guarded(() => hub.drained(sink));
    const conn = socket.conn as unknown as EngineConn;
    conn.on('drain', drained);
    conn.transport?.on('drain', drained);
    conn.on('upgrade', (transport: EngineTransport) => transport.on('drain', drained));
    socket.on('disconnect', () => hub.detach(sink));
    socket.on('error', (err) => opts.log?.(`watch socket error: ${err.message}`));
    guarded(() => void hub.attach(sink));
  });
}

/** The parts of engine.io's connection the watch feed measures (not in its public types). */
interface EngineTransport {
  on(event: 'drain', fn: () => void): void;
  /** The `ws` socket of a websocket transport. */
  socket?: { bufferedAmount?: number };
}
interface EngineConn {
  writeBuffer?: Array<{ data?: unknown }>;
  transport?: EngineTransport;
  on(event: 'drain', fn: () => void): void;
  on(event: 'upgrade', fn: (transport: EngineTransport) => void): void;
}

/**
 * Bytes queued to a watcher in serve's memory: packets in the engine's write buffer, and what the
 * websocket has accepted but not yet handed to the kernel.
 */
function queuedBytes(socket: Socket): number {
  const conn = socket.conn as unknown as EngineConn;
  let bytes = 0;
  for (const p of conn.writeBuffer ?? []) bytes += typeof p.data === 'string' ? p.data.length : ((p.data as { byteLength?: number } | undefined)?.byteLength ?? 0);
  const ws = conn.transport?.socket;
  return bytes + (typeof ws?.bufferedAmount === 'number' ? ws.bufferedAmount : 0);
}
