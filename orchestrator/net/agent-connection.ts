import {
  CloseCode,
  decodeAgentFrame,
  ErrorCode,
  frameIds,
  stamp,
  type OrchestratorFrame,
  type OrchestratorFrameBody,
  type SeatJoin,
} from '../../protocol/index.js';
import { systemClock, type Clock, type TimerHandle } from '../clock.js';
import type { SeatConnection, SeatLink } from '../seat-link.js';
import type { SeatRegistry } from '../seat-registry.js';
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
  private readonly o: Required<Omit<ConnectionOptions, 'clock' | 'log' | 'logJoins'>>;

  constructor(
    private readonly socket: RawSocket,
    private readonly registry: SeatRegistry,
    private readonly opts: ConnectionOptions = {},
  ) {
    this.clock = opts.clock ?? systemClock;
    this.o = { ...CONNECTION_DEFAULTS, ...stripUndefined(opts) };
    this.lastSeen = this.clock.now();
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

  get isClosed(): boolean {
    return this.closed;
  }

  /** One raw frame from the transport. */
  handleMessage(raw: string | Buffer): void {
    if (this.closed) return;
    // Taken before decoding, so the engine's overhead figure includes the decode.
    const receivedAt = process.hrtime.bigint();
    this.lastSeen = this.clock.now();
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
      this._client = frame.client;
      let claim: ReturnType<SeatRegistry['claim']>;
      try {
        claim = this.registry.claim(frame.token, this);
      } catch (err) {
        // A bug (e.g. the judge-only guard refusing a welcome): refuse the join, never crash the orchestrator.
        this._client = null;
        this.opts.log?.(`join failed: ${(err as Error).message}`);
        this.sendError(ErrorCode.Internal, 'the seat could not be set up', frame.id);
        return this.close(CloseCode.JoinRefused, 'internal error');
      }
      if (!claim.ok) {
        this._client = null;
        this.sendError(claim.code, claim.message, frame.id);
        return this.close(CloseCode.JoinRefused, 'join refused');
      }
      this.link = claim.link;
      if (this.joinTimer !== undefined) this.clock.clearTimeout(this.joinTimer);
      // Never starts with "seat ": serve prints `seat <id> token <token>` lines that tools parse.
      if (this.opts.logJoins || claim.rejoin) this.opts.log?.(`${claim.rejoin ? 'rejoined' : 'joined'}: ${claim.link.episodeId}/${claim.link.seat} by pid ${frame.client.pid}`);
      return;
    }
    if (!decoded.ok) {
      this.sendError(decoded.code, decoded.message, decoded.re);
      return this.strike();
    }
    const frame = decoded.frame;
    switch (frame.type) {
      case 'pong':
        return;
      case 'seat.join':
        this.sendError(ErrorCode.AlreadyJoined, 'this connection already holds a seat', frame.id);
        return this.strike();
      default:
        this.link.deliver(this, frame, receivedAt);
    }
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

  strike(): void {
    this.strikes += 1;
    if (this.strikes >= this.o.maxStrikes) this.close(CloseCode.ProtocolAbuse, 'too many refused frames');
  }

  private teardown(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    if (this.joinTimer !== undefined) this.clock.clearTimeout(this.joinTimer);
    if (this.beatTimer !== undefined) this.clock.clearTimeout(this.beatTimer);
    const link = this.link;
    if (link) {
      link.detach(this, code, reason);
      if (link.state === 'disconnected') this.registry.disconnected(link);
    }
  }

  /** Frames the seat's process receives go through its link (and so its ledger) once joined. */
  private sendFrame(body: OrchestratorFrameBody): void {
    if (this.link) {
      this.link.sendFrom(this, body);
      return;
    }
    this.sendText(JSON.stringify(stamp<OrchestratorFrame>(body, this.nextId())));
  }

  private sendError(code: string, message: string, re?: string): void {
    this.sendFrame(re === undefined ? { type: 'error', code, message } : { type: 'error', code, message, re });
  }

  private scheduleBeat(): void {
    this.beatTimer = this.clock.setTimeout(() => {
      if (this.closed) return;
      if (this.clock.now() - this.lastSeen >= this.o.heartbeatTimeoutMs) {
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
