/**
 * The floor seat's model call: an HTTP/1.1 POST on a kept-alive `net` socket, the head the real seat
 * sends (llm/openai-http.ts sdkHeaders: the same names, values and order), the answer read by its
 * Content-Length. Sockets are kept per process and reused (the real seat's llm/http1-pool.ts does the
 * same): one a request in flight, so ten seats a process hold up to ten. A kept socket the server closed
 * while idle (Node's server: after 5 s) is noticed by its `close` and not reused; a request that meets
 * such a close before any byte of its answer is sent once more on a new socket (the stale keep-alive
 * race, which any HTTP/1.1 client must handle). Nothing else: no retries, no redirects, no chunked
 * bodies (the fake server sends a length), no TLS. Bench-only (bench/floor.md).
 */
import { connect, type Socket } from 'node:net';

export interface HttpAnswer {
  status: number;
  body: string;
}

interface Conn {
  socket: Socket;
  alive: boolean;
  /** The request in flight on it: its answer's bytes so far and how to settle it. */
  waiting: { chunks: Buffer[]; bytes: number; settle: (err: Error | null, a?: HttpAnswer) => void } | null;
}

export class FloorHttp {
  private readonly idle: Conn[] = [];
  /** The request's head but its length (sent as one string with the body). */
  private readonly head: string;

  constructor(private readonly host: string, private readonly port: number, path: string, apiKey: string) {
    this.head =
      `POST ${path} HTTP/1.1\r\nhost: ${host}:${port}\r\nconnection: keep-alive\r\nAccept: application/json\r\nUser-Agent: OpenAI/JS 6.30.1\r\n` +
      `X-Stainless-Retry-Count: 0\r\nX-Stainless-Lang: js\r\nX-Stainless-Package-Version: 6.30.1\r\nX-Stainless-OS: Linux\r\nX-Stainless-Arch: x64\r\n` +
      `X-Stainless-Runtime: node\r\nX-Stainless-Runtime-Version: ${process.version}\r\nauthorization: Bearer ${apiKey}\r\ncontent-type: application/json\r\n` +
      `accept-language: *\r\nsec-fetch-mode: cors\r\naccept-encoding: gzip, deflate\r\ncontent-length: `;
  }

  async post(body: string): Promise<HttpAnswer> {
    const reused = this.idle.pop();
    try {
      return await this.send(reused ?? this.open(), body);
    } catch (err) {
      if (!reused || !(err as { stale?: boolean }).stale) throw err;
      return this.send(this.open(), body);
    }
  }

  private open(): Conn {
    const conn: Conn = { socket: connect(this.port, this.host), alive: true, waiting: null };
    conn.socket.setNoDelay(true);
    conn.socket.on('data', (chunk: Buffer) => this.onData(conn, chunk));
    const gone = (err?: Error) => {
      conn.alive = false;
      const i = this.idle.indexOf(conn);
      if (i >= 0) this.idle.splice(i, 1);
      const w = conn.waiting;
      conn.waiting = null;
      w?.settle(Object.assign(err ?? new Error('connection closed before the answer'), { stale: w.bytes === 0 }));
    };
    conn.socket.on('error', gone);
    conn.socket.on('close', () => gone());
    return conn;
  }

  private send(conn: Conn, body: string): Promise<HttpAnswer> {
    return new Promise((resolve, reject) => {
      if (!conn.alive) return reject(Object.assign(new Error('connection closed'), { stale: true }));
      conn.waiting = { chunks: [], bytes: 0, settle: (err, a) => (err ? reject(err) : resolve(a!)) };
      conn.socket.write(`${this.head}${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
  }

  private onData(conn: Conn, chunk: Buffer): void {
    const w = conn.waiting;
    if (!w) return void conn.socket.destroy();
    w.chunks.push(chunk);
    w.bytes += chunk.length;
    const all = w.chunks.length === 1 ? chunk : Buffer.concat(w.chunks);
    const end = all.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = all.toString('latin1', 0, end);
    const m = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head);
    if (!m) {
      conn.waiting = null;
      conn.socket.destroy();
      return w.settle(new Error('an answer without Content-Length (not supported by the floor seat)'));
    }
    const length = Number(m[1]);
    if (all.length < end + 4 + length) {
      w.chunks = [all];
      return;
    }
    conn.waiting = null;
    this.idle.push(conn);
    w.settle(null, { status: Number(head.slice(9, 12)), body: all.toString('utf8', end + 4, end + 4 + length) });
  }

  close(): void {
    for (const c of this.idle.splice(0)) c.socket.destroy();
  }
}
