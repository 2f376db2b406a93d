import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { Socket } from 'node:net';
import { closeIdleConnections, exchange } from '../llm/http1-pool.js';
import { ACCEPT_GUID, OP_CLOSE, OP_TEXT, serverFrame } from './snapshot-seat-rehearsal.js';
import { forgetMasks } from './ws/frame-writer.js';
import { WsClient } from './ws/ws-client.js';

/**
 * A seat's WebSocket connection and two model calls' HTTP exchanges over real loopback TCP sockets, while the
 * start-up snapshot is built (snapshot-entry.ts), after the in-memory rehearsals.
 *
 * Why: those rehearsals hand their bytes to in-memory sockets, so Node's own socket code (net's connect,
 * Socket and its stream states, the write path through stream_base_commons, the `onread` reads, setNoDelay,
 * setKeepAlive, ref/unref, end and destroy) was never called in the builder. net is in the blob's heap (the
 * agent loads it), but a built-in function keeps bytecode in the blob only if it ran there: every process
 * compiled ~70 of them from source at its seat's first connection and ~10 at its first model call
 * (`--log-function-events`; ~13 M instructions of its first welcome and turn, bench/start-up.md).
 *
 * Both ends are made up here, on 127.0.0.1 and a port the system picks, and both are closed before the
 * builder snapshots (it runs the event loop empty first; a handle left open would fail the build, and the
 * pool would start plain). No file, environment or outside network is read; the WebSocket masks drawn are
 * forgotten (forgetMasks), and the pool's idle connection closed (closeIdleConnections).
 */
export async function rehearseLoopbackSockets(): Promise<{ closeCode: number; statuses: number[] }> {
  const server = loopbackListener();
  try {
    const closeCode = await seatConnection(`ws://127.0.0.1:${server.port}/agent`);
    // Twice: a new connection, then the idle one taken again (ref, unref).
    const url = new URL(`http://127.0.0.1:${server.port}/v1/chat/completions`);
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) statuses.push((await exchange(url, httpRequest(url), new AbortController().signal, () => new Error('aborted'))).status);
    return { closeCode, statuses };
  } finally {
    closeIdleConnections();
    forgetMasks();
    await server.close();
  }
}

/** What node:net's TCP binding gives a listening handle (the part used here). */
interface TcpHandle {
  bind(address: string, port: number): number;
  listen(backlog: number): number;
  getsockname(out: { port?: number }): number;
  close(callback: () => void): void;
  onconnection: ((status: number, client: unknown) => void) | null;
}

/**
 * A listening socket on 127.0.0.1 (a port the system picks), each connection answered by `answer`. Not
 * net.Server: its `listen` loads node:cluster (and child_process, dgram) and, given a host, node:dns,
 * which would all stay in the blob's heap (+229 KB) though no agent process uses them.
 */
export function loopbackListener(): { port: number; close(): Promise<void> } {
  const { TCP, constants } = (process as unknown as { binding(name: 'tcp_wrap'): { TCP: new (kind: number) => TcpHandle; constants: { SERVER: number } } }).binding('tcp_wrap');
  const handle = new TCP(constants.SERVER);
  const failed = handle.bind('127.0.0.1', 0) || handle.listen(16);
  const out: { port?: number } = {};
  if (failed || handle.getsockname(out) || !out.port) {
    handle.close(() => {});
    throw new Error(`no loopback socket for the rehearsal (${failed})`);
  }
  const answered: Socket[] = [];
  handle.onconnection = (status, client) => {
    if (status !== 0) return;
    const socket = new Socket({ handle: client, readable: true, writable: true } as ConstructorParameters<typeof Socket>[0]);
    // The rehearsal makes two connections (its WebSocket, the HTTP pool's one); more are someone else's.
    if (answered.length >= MOST_CONNECTIONS) return void socket.destroy();
    answered.push(socket);
    answer(socket);
  };
  // The rehearsal's clients have closed theirs by now; whatever is still open (a local process that connected to
  // this port and stays) is closed here, so that nothing outside the builder can hold the build.
  const close = async () => {
    await new Promise<void>((resolve) => handle.close(resolve));
    await Promise.all(answered.map((socket) => (socket.closed ? undefined : (socket.destroy(), once(socket, 'close')))));
  };
  return { port: out.port, close };
}

/** Connections the made-up server answers: the rehearsal's two, with room for a pool that dials again. */
const MOST_CONNECTIONS = 4;

/** Bytes a connection may send that do not make a whole request or frame yet (the rehearsal's are < 1 KB). */
const MOST_PENDING_BYTES = 64 * 1024;

/** Opens, sends one text message, reads the echo, closes both ways (the seat client's socket calls); the close code. */
function seatConnection(address: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const client = new WsClient(address, { maxPayload: 1 << 20, handshakeTimeoutMs: 10_000 }, {
      open: () => client.send('{"type":"rehearsal"}'),
      message: () => client.close(1000, 'rehearsal'),
      error: reject,
      close: (code) => resolve(code),
    });
  });
}

function httpRequest(url: URL): Buffer {
  const body = '{"model":"rehearsal","messages":[]}';
  return Buffer.from(`POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`, 'latin1');
}

const HTTP_ANSWER = '{"id":"rehearsal","object":"chat.completion","choices":[]}';

/** The made-up server's side: a WebSocket's 101 and frames echoed, or HTTP requests answered, keep-alive. */
function answer(socket: Socket): void {
  let pending = Buffer.alloc(0);
  let webSocket = false;
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    if (pending.length > MOST_PENDING_BYTES) return void socket.destroy();
    for (;;) {
      const used = webSocket ? frame(socket, pending) : head(socket, pending, () => (webSocket = true));
      if (used === 0) return;
      pending = pending.subarray(used);
    }
  });
}

/** One request head (and body) if whole: the bytes it took, else 0. */
function head(socket: Socket, bytes: Buffer, upgraded: () => void): number {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return 0;
  const text = bytes.toString('latin1', 0, end);
  const key = /^sec-websocket-key: *(\S+)/im.exec(text)?.[1];
  if (key) {
    upgraded();
    const accept = createHash('sha1').update(key + ACCEPT_GUID).digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
    return end + 4;
  }
  const length = Number(/^content-length: *(\d+)/im.exec(text)?.[1] ?? 0);
  if (bytes.length < end + 4 + length) return 0;
  socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nkeep-alive: timeout=5\r\ncontent-length: ${HTTP_ANSWER.length}\r\n\r\n${HTTP_ANSWER}`);
  return end + 4 + length;
}

/** One masked client frame if whole: a text frame echoed, a close frame answered and the socket ended. */
function frame(socket: Socket, bytes: Buffer): number {
  if (bytes.length < 2) return 0;
  let at = 2;
  let length = bytes[1]! & 0x7f;
  if (length === 126) {
    if (bytes.length < 4) return 0;
    length = bytes.readUInt16BE(2);
    at = 4;
  }
  if (bytes.length < at + 4 + length) return 0;
  const mask = bytes.subarray(at, at + 4);
  const payload = Buffer.from(bytes.subarray(at + 4, at + 4 + length));
  for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i & 3]!;
  const opcode = bytes[0]! & 0x0f;
  if (opcode === OP_TEXT) socket.write(serverFrame(OP_TEXT, payload));
  if (opcode === OP_CLOSE) socket.end(serverFrame(OP_CLOSE, payload.subarray(0, 2)));
  return at + 4 + length;
}
