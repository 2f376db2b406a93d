import { CloseCode, decodeAgentFrame, ErrorCode, errorFrame, frameIds, stamp, type OrchestratorFrame, type OrchestratorFrameBody, type SeatJoin } from '../../protocol/index.js';
import { terminalSafe } from '../../text/terminal.js';
import { systemClock, type Clock, type TimerHandle } from '../clock.js';
import type { SeatConnection, SeatLink } from '../seat-link.js';
import type { SeatRegistry } from '../seat-registry.js';
import { ByteBudget, type ByteBudgetOptions } from './byte-budget.js';
import type { JoinLimiter } from './join-limiter.js';
import type { RawSocket } from './raw-socket.js';

export interface ConnectionOptions {
  clock?: Clock;
  /** Refused frames a connection may send before it is closed with 4001. */
  maxStrikes?: number;
  /** A connection that has not joined within this time is closed with 4003. */
  joinTimeoutMs?: number;
  /** Interval between `ping` frames. */
  heartbeatIntervalMs?: number;
  /** Silence (no frame at all, pongs included) after which the connection is closed with 4004. */
  heartbeatTimeoutMs?: number;
  /** Called for connection-level events worth a log line (never with scenario content). */
  log?: (line: string) => void;
  /** Also log each join (useful when agents dial in by hand, noise for local runs). */
  logJoins?: boolean;
  /** Inbound byte budget per connection (a connection over it is closed with 4008 and its seat ends). */
  byteBudget?: ByteBudgetOptions;
  /** Shared by every connection of a server: refused joins per address, with a back-off. */
  joinLimiter?: JoinLimiter;
}

export const CONNECTION_DEFAULTS = {
  maxStrikes: 5,
  joinTimeoutMs: 15_000,
  heartbeatIntervalMs: 15_000,
  heartbeatTimeoutMs: 45_000,
} as const;

/**
 * The orchestrator's edge for one agent connection, independent of the transport: decodes every
 * inbound frame once, enforces the size cap, requires `seat.join` first, claims the seat from the
 * registry, counts refused frames, runs the heartbeat, and hands valid episode frames to the seat's link.
 */
export class AgentConnection implements SeatConnection {
  private link: SeatLink | null = null;
  private _client: SeatJoin['client'] | null = null;
  private strikes = 0;
  private closed = false;
  private lastSeen: number;
  private joinTimer: TimerHandle | undefined;
  private beatTimer: TimerHandle | undefined;
  private readonly nextId = frameIds('c');
  private readonly clock: Clock;
  private readonly o: Required<Omit<ConnectionOptions, 'clock' | 'log' | 'logJoins' | 'byteBudget' | 'joinLimiter'>>;
  private readonly budget: ByteBudget;

  constructor(
    private readonly socket: RawSocket,
    private readonly registry: SeatRegistry,
    private readonly opts: ConnectionOptions = {},
  ) {
    this.clock = opts.clock ?? systemClock;
    this.o = { ...CONNECTION_DEFAULTS, ...stripUndefined(opts) };
    this.lastSeen = this.clock.now();
    this.budget = new ByteBudget(this.lastSeen, opts.byteBudget);
    this.joinTimer = this.clock.setTimeout(() => {
      if (!this.link) this.close(CloseCode.JoinTimeout, 'no seat.join in time');
    }, this.o.joinTimeoutMs);
    this.scheduleBeat();
  }

  get client(): SeatJoin['client'] {
    if (!this._client) throw new Error('client read before join');
    return this._client;
  }

  /** The seat this connection holds, once joined. */
  get seat(): SeatLink | null {
    return this.link;
  }

  /** One raw frame from the transport. */
  handleMessage(raw: string | Buffer): void {
    if (this.closed) return;
    // Taken before decoding, so the engine's overhead figure includes the decode.
    const receivedAt = process.hrtime.bigint();
    this.lastSeen = this.clock.now();
    // A transport that counts bytes itself, before its own decoding (socket.io), has already charged them.
    if (!this.socket.countsBytes && !this.spend(typeof raw === 'string' ? Buffer.byteLength(raw) : raw.length)) return;
    const decoded = decodeAgentFrame(raw);
    if (!this.link) {
      if (!decoded.ok) {
        this.sendError(decoded.code, decoded.message, decoded.re);
        const code = decoded.code === ErrorCode.FrameTooLarge ? CloseCode.FrameTooLarge : CloseCode.JoinRefused;
        return this.close(code, 'first frame refused');
      }
      const frame = decoded.frame;
      if (frame.type !== 'seat.join') {
        this.sendError(ErrorCode.NotJoined, 'the first frame must be seat.join', frame.id);
        return this.close(CloseCode.JoinRefused, 'not joined');
      }
      this.join(frame);
      return;
    }
    if (!decoded.ok) {
      this.sendError(decoded.code, decoded.message, decoded.re);
      this.link.lifecycle.note('refused', decoded.code, decoded.message);
      return this.strike();
    }
    const frame = decoded.frame;
    switch (frame.type) {
      case 'pong':
        return;
      case 'seat.join':
        this.sendError(ErrorCode.AlreadyJoined, 'this connection already holds a seat', frame.id);
        this.link.lifecycle.note('refused', ErrorCode.AlreadyJoined, 'seat.join on a joined connection');
        return this.strike();
      default:
        this.link.deliver(this, frame, receivedAt);
    }
  }

  /** A `seat.join` on a connection holding no seat yet: rate limit, claim, log. */
  private join(frame: SeatJoin): void {
    const address = this.socket.remoteAddress ?? 'local';
    const refuse = (code: ErrorCode, message: string) => {
      // Refusals while waiting do not extend the wait: an honest agent sharing the address retries after it.
      if (code !== ErrorCode.RateLimited) this.opts.joinLimiter?.failed(address);
      // Logged with the address, never with the token; never starts with "seat " (serve's token lines do).
      this.opts.log?.(`join refused from ${address}: ${code} (${message})`);
      this.sendError(code, message, frame.id);
      this.close(CloseCode.JoinRefused, 'join refused');
    };
    const wait = this.opts.joinLimiter?.waitFor(address) ?? 0;
    if (wait > 0) return refuse(ErrorCode.RateLimited, `too many refused joins from this address; retry in ${Math.ceil(wait / 1000)} s`);
    // The transport is the edge's own knowledge, never the client's claim.
    const { transport: _claimed, ...reported } = frame.client;
    this._client = this.socket.transport ? { ...reported, transport: this.socket.transport } : reported;
    let claim: ReturnType<SeatRegistry['claim']>;
    try {
      claim = this.registry.claim(frame, this);
    } catch (err) {
      // A bug (e.g. the judge-only guard refusing a welcome): refuse the join, never crash the orchestrator.
      this._client = null;
      this.opts.log?.(`join failed: ${(err as Error).message}`);
      this.sendError(ErrorCode.Internal, 'the seat could not be set up', frame.id);
      return this.close(CloseCode.JoinRefused, 'internal error');
    }
    if (!claim.ok) {
      this._client = null;
      return refuse(claim.code, claim.message);
    }
    this.link = claim.link;
    if (this.joinTimer !== undefined) this.clock.clearTimeout(this.joinTimer);
    if (this.opts.logJoins || claim.rejoin) this.opts.log?.(`${claim.rejoin ? 'rejoined' : 'joined'}: ${claim.link.episodeId}/${claim.link.seat} by ${frame.client.pid !== undefined ? `pid ${frame.client.pid}` : terminalSafe(frame.client.name)} from ${address}`);
  }

  /**
   * Charges `bytes` received to the connection's budget; over it, the connection is told and closed (4008)
   * and false is returned. Transports with their own envelope call this for every packet they receive.
   */
  spend(bytes: number): boolean {
    if (this.closed) return false;
    this.lastSeen = this.clock.now();
    if (this.budget.spend(bytes, this.lastSeen)) return true;
    this.sendError(ErrorCode.ByteBudget, 'this connection sent more bytes than its budget allows');
    this.close(CloseCode.ByteBudget, 'byte budget exceeded');
    return false;
  }

  /** The transport reports the connection closed. */
  handleClose(code: number, reason: string): void {
    this.teardown(code, reason);
  }

  sendText(text: string): void {
    if (this.closed) return;
    try {
      this.socket.send(text);
    } catch (err) {
      this.opts.log?.(`send failed: ${(err as Error).message}`);
    }
  }

  cork(): void {
    if (!this.closed) this.socket.cork?.();
  }

  uncork(): void {
    // Also after a close: a corked socket must be released whatever happened meanwhile.
    this.socket.uncork?.();
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    try {
      this.socket.close(code, reason);
    } catch {
      // Already closing at the transport: the teardown below is what matters.
    }
    this.teardown(code, reason);
  }

  /** Counts a refused frame; at `maxStrikes` the connection is closed with 4001 and its seat ends for good. */
  strike(): void {
    this.strikes += 1;
    if (this.strikes >= this.o.maxStrikes) this.close(CloseCode.ProtocolAbuse, 'too many refused frames');
  }

  private teardown(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    if (this.joinTimer !== undefined) this.clock.clearTimeout(this.joinTimer);
    if (this.beatTimer !== undefined) this.clock.clearTimeout(this.beatTimer);
    this.link?.detach(this, code, reason);
  }

  /** Frames the seat's process receives go through its link (and so its ledger) once joined. */
  private sendFrame(body: OrchestratorFrameBody): void {
    if (this.link) {
      this.link.sendFrom(this, body);
      return;
    }
    this.sendText(JSON.stringify(stamp<OrchestratorFrame>(body, this.nextId())));
  }

  private sendError(code: ErrorCode, message: string, re?: string): void {
    this.sendFrame(errorFrame(code, message, re));
  }

  private scheduleBeat(): void {
    this.beatTimer = this.clock.setTimeout(() => {
      if (this.closed) return;
      if (this.clock.now() - this.lastSeen >= this.o.heartbeatTimeoutMs) {
        this.link?.lifecycle.note('heartbeat_timeout', undefined, `no frame for ${this.o.heartbeatTimeoutMs} ms`);
        return this.close(CloseCode.HeartbeatTimeout, 'heartbeat timeout');
      }
      this.sendFrame({ type: 'ping', nonce: this.nextId() });
      this.scheduleBeat();
    }, this.o.heartbeatIntervalMs);
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
