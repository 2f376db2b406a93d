import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Server as EngineServer } from 'engine.io';
import { Server as IoServer, type Socket } from 'socket.io';
import { CLOSE_EVENT, CloseCode, FRAME_EVENT, MAX_FRAME_BYTES, SOCKET_IO_PATH, type BrowserClose } from '../../protocol/index.js';
import { systemClock } from '../clock.js';
import type { SeatRegistry } from '../seat-registry.js';
import { AgentConnection, type ConnectionOptions } from './agent-connection.js';
import { JoinLimiter } from './join-limiter.js';
import { PendingConnections, type PendingLimits } from './pending-connections.js';
import { textOnlyParser } from './text-only-parser.js';
import { upgradeRouter } from './upgrade-router.js';

export interface BrowserEndpoint {
  /** Open browser connections. */
  readonly connections: ReadonlySet<AgentConnection>;
  /** Answers plain HTTP requests under `/socket.io/` (engine.io refuses polling: websocket only). */
  handleRequest(req: IncomingMessage, res: ServerResponse): void;
  /** Closes every browser connection (4006) and detaches from the server. */
  close(): void;
  /** The socket.io server, for other namespaces on the same endpoint (the watch feed: watch-endpoint.ts). */
  readonly io: IoServer;
  /**
   * An engine connection no longer counts as waiting to join (an authenticated watcher): the limit on
   * pending connections is for tokenless sockets, and a watch page must not use up a lab's seat joins.
   */
  settle(engineSocket: object): void;
  /**
   * Adds a check of a handshake's query (the watch key): a connection it passes is counted apart from the
   * tokenless ones, so they cannot crowd it out. The seat token (`token`) is checked without this.
   */
  vouchWith(check: (query: URLSearchParams) => boolean): void;
}

/**
 * One browser's socket.io socket made an agent connection: its frames, its byte budget, its disconnect. A bug
 * in handling its input closes this connection, never the process.
 */
function acceptSocket(
  socket: Socket,
  ctx: { connections: Set<AgentConnection>; pending: { release(conn: object): void }; registry: SeatRegistry; connectionOpts: ConnectionOptions },
): void {
  const { connections, pending, registry, connectionOpts } = ctx;
  let closedByUs = false;
  const conn = new AgentConnection(
    {
      remoteAddress: socket.handshake.address || 'unknown',
      transport: 'socket.io',
      countsBytes: true,
      send: (text) => void socket.emit(FRAME_EVENT, text),
      close: (code, reason) => {
        closedByUs = true;
        const close: BrowserClose = { code, reason };
        socket.emit(CLOSE_EVENT, close);
        // Flush the close event before disconnecting: socket.io drops queued packets on disconnect(true).
        setImmediate(() => socket.disconnect(true));
        connections.delete(conn);
        conn.handleClose(code, reason);
      },
    },
    registry,
    connectionOpts,
  );
  connections.add(conn);
  const engineSocket: object = socket.conn;
  // Every inbound packet is counted against the connection's byte budget at the engine level, before
  // socket.io decodes it: what a client sends costs it, whatever event it is dressed as.
  socket.conn.on('packet', (packet: { type: string; data?: unknown }) => {
    if (packet.type !== 'message') return;
    guarded(() => conn.spend(typeof packet.data === 'string' ? Buffer.byteLength(packet.data) : 0));
  });
  /** Runs a handler on client input; a bug there closes this connection, never the process. */
  const guarded = (fn: () => void) => {
    try {
      fn();
      if (conn.seat) pending.release(engineSocket);
    } catch (err) {
      connectionOpts.log?.(`browser frame handling failed: ${(err as Error).message}`);
      conn.close(CloseCode.ProtocolAbuse, 'internal error');
    }
  };
  // A frame is exactly one string. Anything else is refused as a bad frame without being looked into
  // (a 100,000-deep array is never serialised, walked or logged).
  socket.on(FRAME_EVENT, (...args: unknown[]) => {
    guarded(() => conn.handleMessage(args.length === 1 && typeof args[0] === 'string' ? args[0] : NOT_A_FRAME));
  });
  // Any other event name is a refused frame, counted like a bad frame on `ws`.
  socket.onAny((event: unknown) => {
    if (event !== FRAME_EVENT) guarded(() => conn.handleMessage(NOT_A_FRAME));
  });
  socket.on('disconnect', (reason) => {
    pending.release(engineSocket);
    connections.delete(conn);
    // 1006 (abnormal) like a dropped WebSocket: the seat may rejoin within its grace.
    if (!closedByUs) conn.handleClose(1006, String(reason));
  });
  socket.on('error', (err) => connectionOpts.log?.(`browser socket error: ${err.message}`));
}

/**
 * Serves browser seats over socket.io at `/socket.io/`, registered on the server's upgrade router next
 * to `ws`'s `/agent`. Each socket.io socket is adapted onto the same `AgentConnection` as a `ws`
 * socket — one-time tokens, resume secrets, the ledger, frame caps, byte budgets, strikes, heartbeat and
 * error codes are the same code — so the only difference is the envelope (protocol/browser-transport.ts).
 * WebSocket transport only: no long-polling, so every request is an upgrade handled by the router.
 */
export function attachBrowserEndpoint(server: HttpServer, registry: SeatRegistry, opts: ConnectionOptions = {}): BrowserEndpoint {
  const connections = new Set<AgentConnection>();
  const clock = opts.clock ?? systemClock;
  const vouchers: Array<(query: URLSearchParams) => boolean> = [(q) => registry.holds(q.get('token') ?? '')];
  const pending = new PendingPools(vouchers, (address) => {
    // One line a second at most, however many connections were closed to make room.
    const report = pending.takeRefusalReport(clock.now());
    if (report !== null) opts.log?.(`closed ${report} browser connection(s) that had not joined a seat, to make room (the latest newcomer from ${address})`);
  });
  const engine = new EngineServer({
    transports: ['websocket'],
    allowUpgrades: false,
    // One frame, as a JSON string inside socket.io's envelope (escaping at most doubles it): the
    // WebSocket layer refuses any bigger message before it is buffered whole.
    maxHttpBufferSize: 2 * MAX_FRAME_BYTES + 1024,
    // No cross-origin pages: the page is served from this same server (Host and Origin: origin-guard.ts).
    cors: undefined,
    allowRequest: (req, done) => {
      // Counted from here (the request object stands for the connection until engine.io makes one); a
      // full pool gives up its oldest, so newcomers are never locked out.
      pending.admit(req, req.socket.remoteAddress ?? 'unknown', () => req.socket.destroy(), requestQuery(req));
      // A handshake that fails after this point never becomes an engine connection: its socket's close releases it.
      req.socket.once('close', () => pending.release(req));
      done(null, true);
    },
  });
  // A client must say which namespace it joins within this long, or the connection is dropped.
  const io = new IoServer({ path: SOCKET_IO_PATH, serveClient: false, parser: textOnlyParser, connectTimeout: 10_000 });
  io.bind(engine);
  const connectionOpts: ConnectionOptions = { ...opts, joinLimiter: opts.joinLimiter ?? new JoinLimiter(opts.clock ?? systemClock) };

  io.on('connection', (socket: Socket) => acceptSocket(socket, { connections, pending, registry, connectionOpts }));

  engine.on('connection', (client: { request: IncomingMessage; close(): void; on(event: 'close', fn: () => void): void }) => {
    // The engine socket now stands for the connection admitted with its request.
    pending.handOver(client.request, client, () => client.close());
    client.on('close', () => pending.release(client));
  });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => engine.handleUpgrade(req, socket, head);
  const unroute = upgradeRouter(server).route(SOCKET_IO_PATH, onUpgrade, { prefix: true });
  let closed = false;
  return {
    connections,
    io,
    settle: (engineSocket) => pending.release(engineSocket),
    vouchWith: (check) => void vouchers.push(check),
    handleRequest: (req, res) => engine.handleRequest(req, res),
    close() {
      if (closed) return;
      closed = true;
      unroute();
      for (const c of connections) c.close(CloseCode.ServerShutdown, 'orchestrator shutting down');
      // Closes the engine and its sockets too (the HTTP server is not the endpoint's to close).
      void io.close();
    },
  };
}

/** What an event that is not one string frame is decoded as: a frame the decoder refuses, and counts. */
const NOT_A_FRAME = '{"type":"not a frame"}';

/**
 * Browser connections that have not joined a seat yet and showed no credential: a person needs one (a
 * reload briefly two); a lab behind one address a handful at once. Beyond these, the oldest pending one
 * is closed to make room (as on `/agent`): an honest page joins within milliseconds of connecting.
 */
export const PENDING_LIMITS: PendingLimits = { perAddress: 8, total: 64 };
/**
 * Connections that showed a live seat token or the watch key in their handshake's query, until they join
 * or watch: counted apart, so no number of tokenless connections can close or refuse them. A key or token
 * holder's own burst is bounded the same way (its oldest goes).
 */
export const VOUCHED_PENDING_LIMITS: PendingLimits = { perAddress: 32, total: 128 };

function requestQuery(req: IncomingMessage): URLSearchParams {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  return new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
}

/**
 * The two pools of pending browser connections (tokenless, and vouched for by a credential in the
 * handshake), each evicting its oldest when full; every connection is remembered with its pool and how
 * to close it.
 */
class PendingPools {
  private readonly tokenless = new PendingConnections(PENDING_LIMITS);
  private readonly vouched = new PendingConnections(VOUCHED_PENDING_LIMITS);
  private readonly held = new Map<object, { pool: PendingConnections; address: string; close: () => void }>();

  constructor(
    private readonly vouchers: ReadonlyArray<(query: URLSearchParams) => boolean>,
    private readonly onEvicted: (address: string) => void,
  ) {}

  admit(conn: object, address: string, close: () => void, query: URLSearchParams): void {
    const pool = this.vouchers.some((check) => check(query)) ? this.vouched : this.tokenless;
    this.take(conn, { pool, address, close });
  }

  /** `from` (the handshake request) now stands as `to` (the engine socket), in the same pool. */
  handOver(from: object, to: object, close: () => void): void {
    const entry = this.held.get(from);
    if (!entry) return;
    this.release(from);
    this.take(to, { ...entry, close });
  }

  release(conn: object): void {
    const entry = this.held.get(conn);
    if (!entry) return;
    this.held.delete(conn);
    entry.pool.release(conn);
  }

  takeRefusalReport(now: number): number | null {
    const a = this.tokenless.takeRefusalReport(now);
    const b = this.vouched.takeRefusalReport(now);
    return a === null && b === null ? null : (a ?? 0) + (b ?? 0);
  }

  private take(conn: object, entry: { pool: PendingConnections; address: string; close: () => void }): void {
    const evicted = entry.pool.admitEvicting(conn, entry.address);
    this.held.set(conn, entry);
    for (const old of evicted) {
      const gone = this.held.get(old);
      this.held.delete(old);
      gone?.close();
    }
    if (evicted.length) this.onEvicted(entry.address);
  }
}
