import { once } from 'node:events';
import WebSocket from 'ws';
import { PROTOCOL_VERSION } from '../../protocol/index.js';

/**
 * A socket.io client written by hand on a raw WebSocket, for red-team tests: it speaks engine.io v4 and
 * socket.io v5 packets (`0` open, `40` connect, `42[…]` event, `451-[…]` + binary attachment) so a test
 * can send exactly the packets a well-behaved client never would. It counts the bytes it managed to send.
 */
export class RawSocketIo {
  readonly closed: Promise<number>;
  readonly received: string[] = [];
  sentBytes = 0;

  private constructor(readonly ws: WebSocket) {
    ws.on('error', () => {});
    this.closed = once(ws, 'close').then(([code]) => code as number);
    ws.on('message', (data, binary) => {
      if (binary) return;
      const text = String(data);
      this.received.push(text);
      // engine.io heartbeat: answer ping (2) with pong (3) so the server keeps us while we attack.
      if (text === '2') ws.send('3');
    });
  }

  /** Opens `/socket.io/` on `base` (http://host:port) with the given headers; resolves once engine.io said open. */
  static async connect(base: string, headers: Record<string, string> = {}, query: Record<string, string> = {}): Promise<RawSocketIo> {
    const extra = new URLSearchParams(query).toString();
    const url = `${base.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket${extra ? `&${extra}` : ''}`;
    const ws = new WebSocket(url, { headers });
    const client = new RawSocketIo(ws);
    await Promise.race([once(ws, 'open'), once(ws, 'unexpected-response').then(([, res]) => { throw new Error(`HTTP ${res.statusCode}`); })]);
    return client;
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  send(packet: string | Buffer): void {
    if (!this.open) return;
    this.sentBytes += typeof packet === 'string' ? Buffer.byteLength(packet) : packet.length;
    this.ws.send(packet);
  }

  /**
   * socket.io CONNECT to the main namespace (what io() does first), resolved once the server has
   * acknowledged it (`40{"sid":…}`): socket.io drops event packets that arrive before, so an attack sent
   * sooner might never reach the handlers it is meant to test.
   */
  async connectNamespace(namespace = '', auth?: Record<string, string>): Promise<void> {
    const prefix = namespace ? `40${namespace},` : '40';
    this.send(`${prefix}${auth ? JSON.stringify(auth) : ''}`);
    for (;;) {
      if (this.received.some((m) => m.startsWith(prefix))) return;
      if (this.received.some((m) => m.startsWith(namespace ? `44${namespace},` : '44'))) throw new Error('namespace connect refused');
      if (!this.open) throw new Error('closed before the namespace connect was acknowledged');
      await once(this.ws, 'message');
    }
  }

  /** A `frame` event carrying a seat.join with this token (what the seat page sends). */
  join(token: string): void {
    const frame = { v: PROTOCOL_VERSION, id: 'j1', type: 'seat.join', token, client: { name: 'raw', version: '0', policy: 'human' } };
    this.send(`42${JSON.stringify(['frame', JSON.stringify(frame)])}`);
  }
}
