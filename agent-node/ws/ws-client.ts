import { isIP, connect as netConnect, type Socket } from 'node:net';
import { FrameReader, WsCode, type ReadEvent } from './frame-reader.js';
import { clientFrame, WsOp } from './frame-writer.js';
import { MAX_RESPONSE_HEAD_BYTES, openingHandshake, refusalOf } from './handshake.js';

/**
 * node:tls, loaded on the first `wss:` connection only: an agent process's seat connection is a loopback
 * `ws:` in a local run, and loading tls at start costs every process a few ms of CPU for nothing.
 * (getBuiltinModule is synchronous, Node >= 20.16; the engines field asks for 20.19.)
 */
const tlsModule = (): typeof import('node:tls') => process.getBuiltinModule('node:tls');

/** The connection's state, numbered as the WebSocket API (and `ws`) number them. */
export const WsState = { Connecting: 0, Open: 1, Closing: 2, Closed: 3 } as const;
export type WsState = (typeof WsState)[keyof typeof WsState];

export interface WsClientOptions {
  /** Largest message accepted (all fragments); a larger one fails the connection with 1009. */
  maxPayload: number;
  /** Time for the TCP (and TLS) connection and the opening handshake together (the connection alone with `answerTimeoutMs`). */
  handshakeTimeoutMs: number;
  /**
   * Time for the server's answer once it took the connection (default: what is left of `handshakeTimeoutMs`).
   * A server that accepted is there: a busy one reads the request when its event loop reaches it.
   */
  answerTimeoutMs?: number;
  /**
   * Opens the connection instead of the network (the start-up snapshot's rehearsal, agent-node/snapshot-seat-rehearsal.ts):
   * calls `onConnect` once connected, asynchronously, and hands every byte received to `onBytes`.
   */
  dial?: InMemoryDial;
}

/** A connection without a network: what `WsClient` uses of a socket. */
export type InMemoryDial = (url: URL, onConnect: () => void, onBytes: (chunk: Buffer) => void) => Socket;

/** What the connection reports; `close` comes once, after the socket closed, whatever happened before. */
export interface WsListeners {
  open(): void;
  /** `data` is valid until the listener returns (the read buffer is reused): decode it there. */
  message(data: Buffer): void;
  error(err: Error): void;
  close(code: number, reason: string): void;
}

/** A peer that never answers our close frame must not keep the socket (`ws` waits as long). */
const CLOSE_TIMEOUT_MS = 30_000;

/**
 * Plain connections read into one buffer shared by every connection of the process (`onread`): the
 * reader copies whatever it keeps, and a read's callback runs before the next read is made, so the bytes
 * skip Node's readable-stream machinery (a `data` event, a chunk Buffer and ticks for each read).
 */
const sharedReadBuffer = Buffer.allocUnsafe(64 * 1024);

/**
 * A WebSocket client (RFC 6455) for the agent process's one connection per seat: text messages out,
 * messages in, ping answered, the close handshake both ways. No extension and no subprotocol is offered;
 * the orchestrator's side is `ws`'s server. The rules it keeps on the server's bytes are in
 * frame-reader.ts and handshake.ts.
 */
export class WsClient {
  readyState: WsState = WsState.Connecting;
  private readonly socket: Socket;
  private readonly accept: string;
  private readonly reader: FrameReader;
  private head: Buffer[] = [];
  private headBytes = 0;
  private closeCode: number = WsCode.Abnormal;
  private closeReason = '';
  private timer: NodeJS.Timeout | undefined;
  private readsPaused = false;
  /** An error was reported, or our side ended the connection: a close while opening needs no other word. */
  private explained = false;
  private readonly closedCallbacks: Array<() => void> = [];
  private readonly inMemory: InMemoryDial | undefined;

  constructor(address: string, opts: WsClientOptions, private readonly on: WsListeners) {
    const url = new URL(address);
    if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new SyntaxError(`The URL's protocol must be "ws:" or "wss:" (got ${JSON.stringify(url.protocol)})`);
    const { request, accept } = openingHandshake(url);
    this.accept = accept;
    this.reader = new FrameReader(opts.maxPayload, (e) => this.onRead(e));
    this.inMemory = opts.dial;
    this.socket = this.dial(url, () => {
      if (opts.answerTimeoutMs !== undefined && this.readyState === WsState.Connecting) {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.timedOut(), opts.answerTimeoutMs);
      }
      this.socket.write(request);
    });
    // As `ws` does: a socket error before the connection opened is reported (refused, reset, TLS); one after
    // it is only the close that follows (1006, or the code of a close frame already read). A seat logs every
    // error it is given, and a peer's reset as a run ends is no error of the seat's.
    this.socket.on('error', (err) => {
      if (this.readyState !== WsState.Connecting) return;
      this.explained = true;
      this.on.error(err);
    });
    this.socket.on('close', () => this.onSocketClose());
    this.timer = setTimeout(() => this.timedOut(), opts.handshakeTimeoutMs);
  }

  /**
   * The handshake's time is up. Node runs due timers before it reads the sockets, so a process that was busy
   * (or starved of CPU on a loaded machine) when the answer came would give up on an answer already here:
   * the sockets are read first (setImmediate runs after the loop's poll), then it gives up if still opening.
   */
  private timedOut(): void {
    this.timer = undefined;
    setImmediate(() => {
      if (this.readyState === WsState.Connecting && !this.socket.destroyed) this.abort('Opening handshake has timed out');
    });
  }

  /** Sends one text message; false if the connection is not open. */
  send(text: string): boolean {
    if (this.readyState !== WsState.Open) return false;
    this.write(clientFrame(WsOp.Text, text));
    return true;
  }

  /** Bytes written and not yet handed to the system (the WebSocket API's and `ws`'s name). */
  get bufferedAmount(): number {
    return this.socket.writableLength;
  }

  /** Starts the closing handshake (or drops a connection still opening). */
  close(code: number = WsCode.Normal, reason = ''): void {
    if (this.readyState === WsState.Connecting) return this.terminate();
    if (this.readyState !== WsState.Open) return;
    this.sendClose(code, reason);
  }

  /** Destroys the socket now; `close` follows with 1006 unless a close frame came first. */
  terminate(): void {
    this.explained = true;
    this.socket.destroy();
  }

  /** Calls `fn` once the connection has closed (at once if it has). */
  onceClosed(fn: () => void): void {
    if (this.readyState === WsState.Closed) fn();
    else this.closedCallbacks.push(fn);
  }

  private dial(url: URL, onConnect: () => void): Socket {
    if (this.inMemory) return this.inMemory(url, onConnect, (chunk) => this.onBytes(chunk));
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (url.protocol === 'wss:') {
      const socket = tlsModule().connect({ host, port: Number(url.port || 443), ...(isIP(host) ? {} : { servername: host }) }, onConnect);
      socket.on('data', (chunk: Buffer) => this.onBytes(chunk));
      socket.setNoDelay(true);
      return socket;
    }
    const onread = {
      buffer: sharedReadBuffer,
      callback: (n: number): boolean => {
        this.onBytes(sharedReadBuffer.subarray(0, n));
        return true;
      },
    };
    return netConnect({ host, port: Number(url.port || 80), noDelay: true, onread }, onConnect);
  }

  private onBytes(chunk: Buffer): void {
    if (this.readyState === WsState.Connecting) this.onHandshakeBytes(chunk);
    else if (this.readyState !== WsState.Closed) this.reader.push(chunk);
  }

  /** Collects the answer's head; once whole, checks it and hands what follows it to the frame reader. */
  private onHandshakeBytes(chunk: Buffer): void {
    this.head.push(Buffer.from(chunk));
    this.headBytes += chunk.length;
    const all = this.head.length === 1 ? this.head[0]! : Buffer.concat(this.head, this.headBytes);
    this.head = [all];
    const end = all.indexOf('\r\n\r\n', 0, 'latin1');
    if (end < 0) {
      if (this.headBytes > MAX_RESPONSE_HEAD_BYTES) this.abort('The server response head is too long');
      return;
    }
    this.head = [];
    const refusal = end > MAX_RESPONSE_HEAD_BYTES ? 'The server response head is too long' : refusalOf(all.toString('latin1', 0, end), this.accept);
    if (refusal) return this.abort(refusal);
    clearTimeout(this.timer);
    this.timer = undefined;
    this.readyState = WsState.Open;
    this.on.open();
    // Read even if the open listener began to close: the server's close frame may start in these bytes.
    const rest = all.subarray(end + 4);
    if (rest.length > 0 && !this.socket.destroyed) this.reader.push(rest);
  }

  private onRead(event: ReadEvent): void {
    switch (event.kind) {
      case 'message':
        return this.on.message(event.data);
      case 'ping':
        if (this.readyState === WsState.Open) this.write(clientFrame(WsOp.Pong, event.data));
        return;
      case 'pong':
        return;
      case 'close':
        return this.onCloseFrame(event.code, event.reason);
      case 'fail':
        this.on.error(new Error(event.message));
        this.closeCode = event.code;
        if (this.readyState === WsState.Open) this.sendClose(event.code, '');
        this.socket.end();
    }
  }

  /** The server's close frame: answered with the same code (unless ours went first), then our side ends. */
  private onCloseFrame(code: number, reason: string): void {
    this.closeCode = code;
    this.closeReason = reason;
    if (this.readyState === WsState.Open) this.sendClose(code === WsCode.NoStatus ? null : code, '');
    this.socket.end();
  }

  private sendClose(code: number | null, reason: string): void {
    const reasonBytes = Buffer.from(reason, 'utf8');
    if (reasonBytes.length > 123) throw new RangeError('The close reason must not be longer than 123 bytes');
    let payload = Buffer.alloc(0);
    if (code !== null) {
      payload = Buffer.allocUnsafe(2 + reasonBytes.length);
      payload.writeUInt16BE(code, 0);
      reasonBytes.copy(payload, 2);
    }
    this.readyState = WsState.Closing;
    this.write(clientFrame(WsOp.Close, payload));
    this.timer = setTimeout(() => this.socket.destroy(), CLOSE_TIMEOUT_MS);
  }

  /**
   * Writes a frame; while the socket holds more than its high-water mark unsent, the server's bytes are not
   * read. Everything this client writes answers what it read (a pong a ping, a seat's reply a request), so a
   * server that sends and never reads (a ping flood) would otherwise grow the agent process's memory
   * without bound (found in review); paused, it meets TCP's own backpressure instead.
   */
  private write(frame: Buffer): void {
    if (this.socket.write(frame) || this.readsPaused) return;
    this.readsPaused = true;
    this.socket.pause();
    this.socket.once('drain', () => {
      this.readsPaused = false;
      this.socket.resume();
    });
  }

  /** Fails the opening handshake: the error, then the socket is dropped (close 1006 follows). */
  private abort(message: string): void {
    this.explained = true;
    this.on.error(new Error(message));
    this.socket.destroy();
  }

  private onSocketClose(): void {
    clearTimeout(this.timer);
    // A server that hangs up before its answer is whole is an error, as `ws` reports it ("socket hang up"):
    // a seat that cannot join then says why (test/agent-node/ws-client.test.ts).
    if (this.readyState === WsState.Connecting && !this.explained) this.on.error(new Error('The server closed the connection before the opening handshake completed'));
    this.readyState = WsState.Closed;
    this.on.close(this.closeCode, this.closeReason);
    for (const fn of this.closedCallbacks.splice(0)) fn();
  }
}
