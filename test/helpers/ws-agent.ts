import { once } from 'node:events';
import WebSocket from 'ws';
import { PROTOCOL_VERSION } from '../../protocol/index.js';

type Frame = { type: string; [k: string]: unknown };

/**
 * A hand-driven agent over a real WebSocket, for tests that must misbehave on purpose: it sends
 * whatever it is told (frames or raw text), answers pings, and keeps every frame it received.
 */
export class WsAgent {
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private listeners: Array<(f: Frame) => void> = [];
  private n = 0;

  private constructor(readonly ws: WebSocket) {
    this.closed = once(ws, 'close').then(([code, reason]) => ({ code: code as number, reason: String(reason) }));
    ws.on('error', () => {});
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      this.frames.push(frame);
      if (frame.type === 'ping') this.send({ type: 'pong', nonce: frame.nonce });
      for (const l of [...this.listeners]) l(frame);
    });
  }

  static async connect(url: string): Promise<WsAgent> {
    const ws = new WebSocket(url);
    const agent = new WsAgent(ws);
    await once(ws, 'open');
    return agent;
  }

  /** Sends a frame body (envelope added) or raw text. */
  send(frame: Record<string, unknown> | string): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify({ v: PROTOCOL_VERSION, id: `w${this.n++}`, ...frame }));
  }

  join(token: string, pid = 99_999, resume?: string): void {
    this.send({ type: 'seat.join', token, ...(resume !== undefined ? { resume } : {}), client: { name: 'ws-agent', version: '0', policy: 'test', pid } });
  }

  /** The resume secret of the latest welcome (what a reconnect presents with the token). */
  get resumeSecret(): string | undefined {
    return this.frames.findLast((f) => f.type === 'seat.welcome')?.resume as string | undefined;
  }

  /** Next frame matching `pred` received after index `from` (default: from now on). */
  next(pred: (f: Frame) => boolean, from = this.frames.length): Promise<Frame> {
    const seen = this.frames.slice(from).find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => {
      const l = (f: Frame) => {
        if (!pred(f)) return;
        this.listeners = this.listeners.filter((x) => x !== l);
        resolve(f);
      };
      this.listeners.push(l);
    });
  }

  /** Calls `handler` for every frame from now on. */
  onFrame(handler: (f: Frame) => void): void {
    this.listeners.push(handler);
  }

  errors(): string[] {
    return this.frames.filter((f) => f.type === 'error').map((f) => String(f.code));
  }

  close(): void {
    this.ws.terminate();
  }
}
