import { connect as netConnect, isIP, type Socket } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { Http1ParseError, Http1Reply, type Http1Head } from './http1-reply.js';

/**
 * Kept-alive HTTP/1.1 connections to the origins the OpenAI light path posts to (llm/openai-http.ts), one
 * request at a time on each, and the request written in one piece. Why not `node:http`: its client (the
 * request and answer streams, the agent's bookkeeping, the parser's callbacks) was ~0.5 ms of CPU a request
 * in an agent process, a quarter of a model seat's turn (bench/agent-profile.md, sixth pass); this is
 * ~0.25 ms. Why not undici (the other well-kept client): its WebAssembly parser adds ~20 MB to every agent
 * process's RSS and ~130 ms of CPU to its first request (contract 4 asks ≤ 70 MB a seat process).
 *
 * Outcomes, as `node:http` gave them to the light path: no answer's head (refused, reset, closed, a
 * malformed head or body) → `Http1ConnectionError`; the connection closed after the head but before the
 * body's end → an `Error('aborted')` with code ECONNRESET; the signal → `abort()`'s error. Idle connections
 * never keep the process alive (unref'd, as Node's keep-alive agent leaves them) and are dropped when the
 * server closes them, or once idle for as long as fetch (undici, under the SDK) would keep them (`idleLimitMs`).
 */

export interface Http1Answer extends Http1Head {
  body: Buffer;
}

/** No answer came (or an unreadable one): the request may not have reached the server. */
export class Http1ConnectionError extends Error {
  override readonly name = 'Http1ConnectionError';
}

interface Exchange {
  reply: Http1Reply;
  settle: (err: Error | null) => void;
}

interface Conn {
  socket: Socket;
  exchange: Exchange | null;
  /** The last socket error, the cause of the close that follows it. */
  error: Error | null;
  /** When an idle connection stops being reused (performance.now() ms), set as it is released. */
  idleUntil: number;
}

/** undici's limits on reusing an idle connection (Node 20's fetch, which the SDK sends through). */
const IDLE_DEFAULT_MS = 4_000;
const IDLE_MAX_MS = 600_000;
const IDLE_HINT_MARGIN_MS = 2_000;

/**
 * How long a connection may sit idle and still carry the next request, as undici decides it: the server's
 * `Keep-Alive: timeout=N` hint less 2 s (none at all when that leaves nothing), else 4 s. Why: a server
 * closes an idle connection at its own timeout (uvicorn under vLLM: 5 s, Node: 5 s), and a request written
 * as that close crosses it fails with no answer; the SDK's requests never meet that race, so ours must not.
 * The failure cannot be retried here: the request may have reached the server (retry.ts decides, counted).
 */
export function idleLimitMs(keepAlive: string | undefined): number {
  const hint = keepAlive === undefined ? null : /timeout=(\d+)/.exec(keepAlive);
  if (!hint) return IDLE_DEFAULT_MS;
  return Math.min(Number.parseInt(hint[1]!, 10) * 1000 - IDLE_HINT_MARGIN_MS, IDLE_MAX_MS);
}

const idle = new Map<string, Conn[]>();
/** Plain connections' reads land here; a read's callback runs before the next read is made. */
const sharedReadBuffer = Buffer.allocUnsafe(64 * 1024);
let tls: Promise<typeof import('node:tls')> | undefined;

/** The origin's key and how to reach it: host (without IPv6 brackets) and port. */
function target(url: URL): { key: string; host: string; port: number; secure: boolean } {
  const secure = url.protocol === 'https:';
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const port = Number(url.port) || (secure ? 443 : 80);
  return { key: `${url.protocol}//${host}:${port}`, host, port, secure };
}

/** Loads what connections to `url`'s origin need (node:tls for https), ahead of a first request. */
export async function prepareOrigin(url: URL): Promise<void> {
  if (url.protocol === 'https:') await (tls ??= import('node:tls'));
}

/** A new connection to the origin, its listeners installed for its whole life. */
async function open(url: URL): Promise<Conn> {
  const t = target(url);
  let socket: Socket;
  if (t.secure) {
    const { connect } = await (tls ??= import('node:tls'));
    // As node:https's agent: the host's name for SNI and the certificate check, none for an IP address.
    const options: ConnectionOptions = { host: t.host, port: t.port, ...(isIP(t.host) ? {} : { servername: t.host }) };
    socket = connect(options);
  } else {
    // Read into the process's one read buffer (`onread`), not through a readable stream: a stream's `data`
    // event, chunk and ticks around each read were ~5 % of a warm model seat's CPU (bench/agent-profile.md,
    // ninth pass). The answer's parser keeps slices of what it is given, so each read is copied out first.
    const onread = {
      buffer: sharedReadBuffer,
      callback: (n: number): boolean => {
        onData(conn, t.key, Buffer.from(sharedReadBuffer.subarray(0, n)));
        return true;
      },
    };
    socket = netConnect({ host: t.host, port: t.port, onread });
  }
  socket.setNoDelay(true);
  socket.setKeepAlive(true, 1000);
  const conn: Conn = { socket, exchange: null, error: null, idleUntil: 0 };
  if (t.secure) socket.on('data', (data: Buffer) => onData(conn, t.key, data));
  socket.on('error', (err) => (conn.error = err));
  socket.on('close', () => onClose(conn, t.key));
  return conn;
}

function onData(conn: Conn, key: string, data: Buffer): void {
  const ex = conn.exchange;
  if (!ex) {
    // Bytes nobody asked for on an idle connection: it cannot be trusted with the next request.
    conn.socket.destroy();
    return;
  }
  try {
    ex.reply.push(data);
  } catch (err) {
    conn.exchange = null;
    conn.socket.destroy();
    ex.settle(new Http1ConnectionError('unreadable answer', { cause: err }));
    return;
  }
  if (!ex.reply.done) return;
  conn.exchange = null;
  const limit = idleLimitMs(ex.reply.head?.headers.get('keep-alive'));
  if (ex.reply.reusable && limit > 0 && !conn.socket.destroyed) release(conn, key, limit);
  else conn.socket.destroy();
  ex.settle(null);
}

function onClose(conn: Conn, key: string): void {
  const list = idle.get(key);
  const i = list ? list.indexOf(conn) : -1;
  if (i >= 0) list!.splice(i, 1);
  const ex = conn.exchange;
  if (!ex) return;
  conn.exchange = null;
  if (ex.reply.close()) return ex.settle(null);
  if (ex.reply.head) return ex.settle(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
  const cause = conn.error ?? Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  ex.settle(new Http1ConnectionError(cause.message, { cause }));
}

/**
 * The most recently used idle connection still open for writing (a half-closed one is left to close) and
 * within its idle limit (one past it is closed, as undici's timer would have).
 */
function takeIdle(key: string): Conn | undefined {
  const list = idle.get(key);
  const now = performance.now();
  while (list && list.length > 0) {
    const conn = list.pop()!;
    if (now >= conn.idleUntil) conn.socket.destroy();
    else if (conn.socket.writable && !conn.socket.destroyed) return conn;
  }
  return undefined;
}

function release(conn: Conn, key: string, limitMs: number): void {
  conn.idleUntil = performance.now() + limitMs;
  conn.socket.unref();
  let list = idle.get(key);
  if (!list) idle.set(key, (list = []));
  list.push(conn);
}

/**
 * Sends `request` (the whole request's bytes) to `url`'s origin on an idle connection or a new one and
 * resolves with the answer. `abort` makes the error an aborted request rejects with.
 */
export async function exchange(url: URL, request: Buffer, signal: AbortSignal, abort: (signal: AbortSignal) => Error): Promise<Http1Answer> {
  const key = target(url).key;
  const conn = takeIdle(key) ?? (await open(url));
  if (signal.aborted) {
    // Unused: back to the idle list with what is left of its limit (a new connection: undici's default).
    release(conn, key, conn.idleUntil > 0 ? conn.idleUntil - performance.now() : IDLE_DEFAULT_MS);
    throw abort(signal);
  }
  conn.socket.ref();
  const reply = new Http1Reply();
  return new Promise<Http1Answer>((resolve, reject) => {
    const onAbort = () => {
      conn.exchange = null;
      conn.socket.destroy();
      reject(abort(signal));
    };
    conn.exchange = {
      reply,
      settle: (err) => {
        signal.removeEventListener('abort', onAbort);
        if (err) return reject(err);
        const head = reply.head!;
        resolve({ status: head.status, headers: head.headers, body: reply.body() });
      },
    };
    signal.addEventListener('abort', onAbort, { once: true });
    conn.socket.write(request);
  });
}

/**
 * Answers every request to `url`'s origin in memory with `reply` (one whole HTTP/1.1 response), through the
 * code a real answer takes (exchange, onData, the reply's parse, the connection's release): for the agent's
 * start-up snapshot, which plays LLM turns while its blob is built, with no network
 * (agent-node/snapshot-turn-rehearsal.ts: the blob then holds this path's bytecode). Returns what removes it.
 */
export function rehearsalConnection(url: URL, reply: Buffer): () => void {
  const key = target(url).key;
  const socket = {
    writable: true,
    destroyed: false,
    ref() {},
    unref() {},
    destroy() {
      socket.destroyed = true;
      socket.writable = false;
    },
    write() {
      // A copy each time, as a read is copied out of the shared buffer: the parser keeps slices of it.
      queueMicrotask(() => onData(conn, key, Buffer.from(reply)));
      return true;
    },
  };
  const conn: Conn = { socket: socket as unknown as Socket, exchange: null, error: null, idleUntil: 0 };
  release(conn, key, IDLE_MAX_MS);
  return () => {
    socket.destroy();
    onClose(conn, key);
    if (idle.get(key)?.length === 0) idle.delete(key);
  };
}

/** Closes every idle connection (tests). */
export function closeIdleConnections(): void {
  for (const list of idle.values()) for (const conn of list.splice(0)) conn.socket.destroy();
}

export { Http1ParseError };
