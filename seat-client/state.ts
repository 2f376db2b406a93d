import { CloseCode, ErrorCode, FINAL_CLOSE_CODES, JOIN_REFUSAL_CODES, REFUSAL_CLOSE_CODES } from '../protocol/codes.js';
import type { OrchestratorFrame, SeatWelcome, TurnRequest } from '../protocol/frames.js';

/**
 * The client side of a seat as one pure state machine: what a seat's client knows about its connection
 * and its turn, and what it decides on each frame and each close. It owns no socket and no timer (the
 * caller reports `opened`, `frame`, `closed`, and schedules the reconnect it is told to), and reads time
 * only from the injected clock, so every transition is tested on a simulated clock
 * (state.test.ts), like the orchestrator's side (orchestrator/seat-lifecycle.ts).
 *
 * Used by both seat clients: the agent process (agent-node/seat-client.ts) and the browser page
 * (web/seat/main.ts; this file depends on protocol/codes.ts and frame types only, so it bundles for the
 * browser).
 */

/** How a seat ended. Only `ended` is a normal end (an `episode.end` arrived, or the orchestrator closed 4000). */
export type SeatOutcome =
  | { status: 'ended'; reason: string }
  | { status: 'refused'; code: string; message: string }
  | { status: 'failed'; code: string; message: string };

/** Codes of seat outcomes the client itself decides (all from the code registry). */
export const SeatClientCode = {
  JoinRefused: ErrorCode.JoinRefused,
  ConnectionLost: ErrorCode.ConnectionLost,
  ClosedByServer: ErrorCode.ClosedByServer,
  Closed: ErrorCode.ClosedLocally,
} as const;

/**
 * `connecting`: the first connection is being made; `joining`: it is open and `seat.join` is sent;
 * `waiting`: welcomed, another seat's turn; `my_turn`: a `turn.request` is open; `reconnecting`: the
 * connection dropped and a new one is scheduled or under way; then one of the outcomes' statuses.
 */
export type SeatClientPhase = 'connecting' | 'joining' | 'waiting' | 'my_turn' | 'reconnecting' | SeatOutcome['status'];

/** What the caller does after a frame (the machine sends nothing itself). */
export type FrameEffect = 'none' | 'welcomed' | 'close_ended' | 'close_refused';

/** What the caller does after its connection closed. */
export type CloseDecision =
  | { kind: 'finish'; outcome: SeatOutcome }
  | { kind: 'reconnect'; delayMs: number; attempt: number; of: number; why: string; cause: ReconnectCause };

/**
 * Why a seat joins again, for its log line: the orchestrator closed a connection waiting to join to make room
 * (`busy`, close 4009), it asked the seat to wait before joining again (`rate_limited`: a rate-limit error frame,
 * then the close), or the connection was lost.
 */
export type ReconnectCause = 'busy' | 'rate_limited' | 'lost';

/**
 * Joins again after the orchestrator closed a connection waiting to join to make room (close 4009): a
 * burst of joins on a loaded machine, not a fault of the seat, so not counted against `attempts`; bounded
 * apart, so an orchestrator that stays full still ends the seat.
 */
export const BUSY_RETRIES = 20;

export interface SeatClientStateOptions {
  now: () => number;
  /** Reconnects allowed once the seat was welcomed. */
  attempts: number;
  /** Reconnects allowed before the first welcome (nothing listening yet, a wrong URL): few, so a bad URL fails fast. */
  initialAttempts: number;
  /** The delay before reconnect number `failures` (0-based): the caller's backoff. */
  backoffMs: (failures: number) => number;
  /** Where the client connects, for the message of a connection that cannot be made. */
  target: string;
  /** A resume secret to present on the first connection (a replacement process for a seat). */
  resume?: string;
}

export class SeatClientState {
  private _phase: SeatClientPhase = 'connecting';
  private _welcome: SeatWelcome | null = null;
  private _pending: TurnRequest | null = null;
  private _deadlineAt = 0;
  private _outcome: SeatOutcome | null = null;
  /** The seat's current resume secret (from the latest welcome): what a reconnect presents. */
  private _resume: string | undefined;
  /** Increments per connection; frames and replies remember which connection carried them. */
  private conn = 0;
  private welcomedOn = -1;
  private failures = 0;
  private busyCloses = 0;
  private lastError = '';
  /** Set when the orchestrator asked the client to wait before joining again (rate limit). */
  private waitMs = 0;
  private endedWith: string | null = null;
  private refusal: { code: string; message: string } | null = null;

  constructor(private readonly opts: SeatClientStateOptions) {
    this._resume = opts.resume;
  }

  get phase(): SeatClientPhase {
    return this._phase;
  }
  get welcome(): SeatWelcome | null {
    return this._welcome;
  }
  /** The open turn request, while it is this seat's turn. */
  get pending(): TurnRequest | null {
    return this._pending;
  }
  get resume(): string | undefined {
    return this._resume;
  }
  get outcome(): SeatOutcome | null {
    return this._outcome;
  }
  /** Why the episode ended, once an `episode.end` arrived (the close that follows settles the outcome). */
  get endReason(): string | null {
    return this.endedWith ?? (this._outcome?.status === 'ended' ? this._outcome.reason : null);
  }
  get over(): boolean {
    return this._outcome !== null;
  }
  /** The number of the current connection (a frame or a reply of an older one is stale). */
  get connection(): number {
    return this.conn;
  }
  /** Milliseconds left for the open turn (null when it is not this seat's turn). */
  timeLeftMs(): number | null {
    return this._pending ? Math.max(0, this._deadlineAt - this.opts.now()) : null;
  }

  /** A new connection starts; returns its number. */
  connecting(): number {
    if (!this.over) this._phase = this.welcomedOn >= 0 || this.conn > 0 ? 'reconnecting' : 'connecting';
    return ++this.conn;
  }

  /** The connection opened: the caller sends `seat.join` (with `resume` when set). */
  opened(): void {
    if (!this.over) this._phase = 'joining';
  }

  /** A transport error; its message explains the close that follows. */
  error(message: string): void {
    this.lastError = message;
  }

  /** A decoded frame on connection `conn`: updates the state and says what the caller must do. */
  frame(f: OrchestratorFrame, conn: number): FrameEffect {
    if (this.over || conn !== this.conn) return 'none';
    switch (f.type) {
      case 'seat.welcome':
        this._welcome = f;
        this._resume = f.resume;
        this.welcomedOn = conn;
        this.failures = 0;
        this._pending = null;
        this._phase = 'waiting';
        return 'welcomed';
      case 'turn.request':
        this._pending = f;
        this._deadlineAt = this.opts.now() + f.deadlineMs;
        this._phase = 'my_turn';
        return 'none';
      case 'turn.event':
        if (this._pending && f.turn >= this._pending.turn) this.acted();
        return 'none';
      case 'episode.end':
        this.endedWith = f.reason;
        this._pending = null;
        return 'close_ended';
      case 'error':
        if (this.welcomedOn === conn) return 'none';
        // Rate limited: not a refusal of the seat, try again after the back-off (the close triggers it).
        if (f.code === ErrorCode.RateLimited) {
          this.waitMs = 1000 * (Number(/retry in (\d+) s/.exec(f.message)?.[1]) || 1);
          return 'none';
        }
        // Before the welcome, a join refusal from the code table is final.
        if (JOIN_REFUSAL_CODES.has(f.code)) {
          this.refusal = { code: f.code, message: f.message };
          return 'close_refused';
        }
        return 'none';
      default:
        return 'none';
    }
  }

  /** This seat's move for the open turn went out (or the turn passed): back to waiting. */
  acted(): void {
    this._pending = null;
    if (this._phase === 'my_turn') this._phase = 'waiting';
  }

  /** The current connection closed: finish with an outcome, or reconnect after a delay. */
  closed(code: number, reason: string): CloseDecision {
    if (this._outcome) return { kind: 'finish', outcome: this._outcome };
    const said = `close ${code}${reason ? `: ${reason}` : ''}`;
    if (this.endedWith !== null) return this.finish({ status: 'ended', reason: this.endedWith });
    if (this.refusal) return this.finish({ status: 'refused', ...this.refusal });
    if (REFUSAL_CLOSE_CODES.has(code) && this.waitMs === 0) return this.finish({ status: 'refused', code: SeatClientCode.JoinRefused, message: `join refused (${said})` });
    if (code === CloseCode.EpisodeEnded) return this.finish({ status: 'ended', reason: reason || 'closed by the orchestrator' });
    if (FINAL_CLOSE_CODES.has(code)) return this.finish({ status: 'failed', code: SeatClientCode.ClosedByServer, message: `the orchestrator closed the connection (${said})` });
    if (code === CloseCode.Busy && this.busyCloses < BUSY_RETRIES) {
      this.busyCloses++;
      this._pending = null;
      this._phase = 'reconnecting';
      return { kind: 'reconnect', delayMs: this.opts.backoffMs(Math.min(this.busyCloses - 1, 4)), attempt: this.busyCloses, of: BUSY_RETRIES, why: said, cause: 'busy' };
    }
    const why = this.lastError || said;
    const allowed = this.welcomedOn >= 0 ? this.opts.attempts : this.opts.initialAttempts;
    if (this.failures >= allowed) {
      const tries = this.failures + 1;
      return this.finish({ status: 'failed', code: SeatClientCode.ConnectionLost, message: `cannot reach ${this.opts.target} (${why}) after ${tries} attempt${tries === 1 ? '' : 's'}` });
    }
    const delayMs = Math.max(this.waitMs, this.opts.backoffMs(this.failures));
    const cause: ReconnectCause = this.waitMs > 0 ? 'rate_limited' : 'lost';
    this.waitMs = 0;
    this.failures++;
    this.lastError = '';
    this._pending = null;
    this._phase = 'reconnecting';
    return { kind: 'reconnect', delayMs, attempt: this.failures, of: allowed, why, cause };
  }

  /** The client stops on its own (the agent is closing): `failed` unless the seat already ended. */
  closeLocally(reason: string): SeatOutcome | null {
    if (this._outcome) return null;
    return this.finish({ status: 'failed', code: SeatClientCode.Closed, message: reason }).outcome;
  }

  private finish(outcome: SeatOutcome): { kind: 'finish'; outcome: SeatOutcome } {
    this._outcome = outcome;
    this._pending = null;
    this._phase = outcome.status;
    return { kind: 'finish', outcome };
  }
}
