import { PROTOCOL_VERSION, type OrchestratorFrame } from '../../protocol/index.js';
import type { SeatRegistry } from '../seat-registry.js';
import { AgentConnection, type ConnectionOptions } from './agent-connection.js';

type Listener = (frame: OrchestratorFrame, raw: string) => void;

/**
 * The in-process transport: connections without sockets, for unit tests of the engine and the
 * connection edge. Delivery is asynchronous (a microtask) in both directions, like a real socket,
 * and goes through the same `AgentConnection` as `ws`, so decoding, joins and strikes are the real ones.
 */
export class MemoryTransport {
  constructor(
    private readonly registry: SeatRegistry,
    private readonly opts: ConnectionOptions = {},
  ) {}

  /** Opens a connection; the returned client plays the agent side. */
  connect(): MemoryClient {
    const client = new MemoryClient();
    const conn = new AgentConnection(
      {
        send: (text) => queueMicrotask(() => client.receive(text)),
        close: (code, reason) => queueMicrotask(() => client.closedBy(code, reason)),
      },
      this.registry,
      this.opts,
    );
    client.bind(conn);
    return client;
  }
}

/** The agent side of an in-process connection. */
export class MemoryClient {
  /** Every raw frame received, in order. */
  readonly raw: string[] = [];
  closed: { code: number; reason: string } | null = null;
  private conn!: AgentConnection;
  private listeners: Listener[] = [];
  private closeListeners: Array<(c: { code: number; reason: string }) => void> = [];
  private n = 0;

  bind(conn: AgentConnection): void {
    this.conn = conn;
  }

  /** Received frames, parsed. */
  get frames(): OrchestratorFrame[] {
    return this.raw.map((r) => JSON.parse(r) as OrchestratorFrame);
  }

  /** Sends a frame body (the envelope is added) or raw text as is. */
  send(frame: Record<string, unknown> | string): void {
    const text = typeof frame === 'string' ? frame : JSON.stringify({ v: PROTOCOL_VERSION, id: `a${this.n++}`, ...frame });
    queueMicrotask(() => this.conn.handleMessage(text));
  }

  /** Joins with a token, reporting `pid`. */
  join(token: string, pid = 4242, policy = 'test', resume?: string): void {
    this.send({ type: 'seat.join', token, ...(resume !== undefined ? { resume } : {}), client: { name: 'memory-client', version: '0', policy, pid } });
  }

  /** The resume secret of the latest welcome received (what a reconnect must present). */
  get resumeSecret(): string | undefined {
    return this.frames.findLast((f) => f.type === 'seat.welcome')?.resume;
  }

  /** Closes from the client side (like a process dying). */
  disconnect(): void {
    this.closedBy(1006, 'client gone');
  }

  onFrame(l: Listener): void {
    this.listeners.push(l);
  }

  /** Resolves with the next received frame of `type` (or already received since `fromIndex`). */
  next<T extends OrchestratorFrame['type']>(type: T, fromIndex = this.raw.length): Promise<Extract<OrchestratorFrame, { type: T }>> {
    const seen = this.frames.slice(fromIndex).find((f) => f.type === type);
    if (seen) return Promise.resolve(seen as Extract<OrchestratorFrame, { type: T }>);
    return new Promise((resolve) => {
      const l: Listener = (f) => {
        if (f.type !== type) return;
        this.listeners = this.listeners.filter((x) => x !== l);
        resolve(f as Extract<OrchestratorFrame, { type: T }>);
      };
      this.listeners.push(l);
    });
  }

  /** Resolves when the orchestrator closes the connection. */
  whenClosed(): Promise<{ code: number; reason: string }> {
    if (this.closed) return Promise.resolve(this.closed);
    return new Promise((r) => this.closeListeners.push(r));
  }

  receive(text: string): void {
    if (this.closed) return;
    this.raw.push(text);
    const frame = JSON.parse(text) as OrchestratorFrame;
    for (const l of [...this.listeners]) l(frame, text);
  }

  closedBy(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = { code, reason };
    for (const l of this.closeListeners) l(this.closed);
    this.closeListeners = [];
    // Idempotent on the orchestrator side when it initiated the close.
    queueMicrotask(() => this.conn.handleClose(code, reason));
  }
}
