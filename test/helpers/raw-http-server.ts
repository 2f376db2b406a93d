import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** One canned answer: status, extra headers (null: not sent), body (content-type JSON and the length are added). */
export interface Canned {
  status: number;
  headers?: Record<string, string | null>;
  body: string | Buffer;
}

/**
 * A raw TCP server speaking just enough HTTP/1.1 to record every request's exact bytes (head and body, as
 * latin1) and answer each with `next`, keeping the connection open: for comparing what two clients send.
 */
export class RawHttpServer {
  readonly received: string[] = [];
  next: Canned | ((request: string) => Canned) = { status: 200, body: '{}' };
  connections = 0;
  private readonly server: Server = createServer((socket) => this.onSocket(socket));
  private readonly sockets = new Set<Socket>();

  async listen(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await new Promise((r) => this.server.once('listening', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server.close(r));
  }

  private onSocket(socket: Socket): void {
    this.connections += 1;
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => {});
    let buf = Buffer.alloc(0);
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buf.length < end + 4 + length) return;
        const request = buf.subarray(0, end + 4 + length).toString('latin1');
        this.received.push(request);
        buf = buf.subarray(end + 4 + length);
        const canned = typeof this.next === 'function' ? this.next(request) : this.next;
        const body = typeof canned.body === 'string' ? Buffer.from(canned.body, 'utf8') : canned.body;
        const headers = { 'content-type': 'application/json', ...canned.headers, 'content-length': String(body.length) };
        const lines = Object.entries(headers).flatMap(([k, v]) => (v === null ? [] : [`${k}: ${v}`]));
        socket.write(`HTTP/1.1 ${canned.status} X\r\n${lines.join('\r\n')}\r\n\r\n`);
        socket.write(body);
      }
    });
  }
}

/** A local URL nothing listens on: a port bound, then closed. */
export async function closedUrl(): Promise<string> {
  const closed = createServer();
  closed.listen(0, '127.0.0.1');
  await new Promise((r) => closed.once('listening', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  return `http://127.0.0.1:${port}`;
}
