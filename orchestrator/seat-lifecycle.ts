import { ErrorCode, SEAT_ENDING_CLOSE_CODES, type SeatEvent } from '../protocol/index.js';
import type { Clock } from './clock.js';

/**
 * Where a seat is in its life. The one answer to "is this seat connected / may it rejoin / is it over":
 *
 *   reserved ──join(token)──► joined ──start──► live
 *   joined | live | rejoined ──down──► down (grace) ──resume(secret) within grace──► rejoined
 *   down ──grace passed──► lost;  any ──lose / abuse close──► lost;  any ──end──► ended
 *
 * `joined` means the token was accepted but the episode has not started (moves are refused at once);
 * `rejoined` is a seat whose process came back (a resume, or a replacement after a crash) and plays on.
 */
export type SeatPhase = 'reserved' | 'joined' | 'live' | 'down' | 'rejoined' | 'lost' | 'ended';

export type JoinDecision = { ok: true; rejoin: boolean; secret: string } | { ok: false; code: ErrorCode; message: string };

export interface SeatLifecycleOptions {
  clock: Clock;
  /** A first join after `reserved + tokenTtlMs` is refused. */
  tokenTtlMs: number;
  /** How long a dropped seat may be resumed. 0: never (a drop loses the seat). */
  reconnectGraceMs: number;
  /** Makes a fresh resume secret (one per join and per rejoin). */
  newSecret: () => string;
  /** Called for every event worth recording on the episode. */
  onEvent?: (event: SeatEvent) => void;
}

/** Most seat events kept per seat; more are counted in the last one (records stay small). */
export const MAX_SEAT_EVENTS = 50;

/**
 * One seat's lifecycle on the injected clock. It owns the token's single use, the resume secret (issued
 * at join, rotated on every rejoin), the reconnect grace (computed once, when the seat goes down) and
 * the seat events that end up on the episode record.
 */
export class SeatLifecycle {
  private _phase: SeatPhase = 'reserved';
  private started = false;
  private secret: string | null = null;
  private _graceUntil: number | null = null;
  private readonly expiresAt: number;
  private readonly _events: SeatEvent[] = [];
  private dropped = 0;
  private readonly t0: number;
  /** Why the seat was lost, once it is. */
  lostReason: string | null = null;

  constructor(readonly seat: string, private readonly o: SeatLifecycleOptions) {
    this.t0 = o.clock.now();
    this.expiresAt = this.t0 + o.tokenTtlMs;
  }

  get phase(): SeatPhase {
    return this._phase;
  }

  /** A connection holds the seat. */
  get connected(): boolean {
    return this._phase === 'joined' || this._phase === 'live' || this._phase === 'rejoined';
  }

  /** The seat's moves can be acted on: the episode started and a connection holds the seat. */
  get playing(): boolean {
    return this.started && (this._phase === 'live' || this._phase === 'rejoined');
  }

  /** Over for good: nobody may take the seat again. */
  get over(): boolean {
    return this._phase === 'lost' || this._phase === 'ended';
  }

  /** Last instant (inclusive) a dropped seat may be resumed; null unless `down`. */
  get graceUntil(): number | null {
    return this._phase === 'down' ? this._graceUntil : null;
  }

  /** The current resume secret (the supervisor hands it to a replacement process it starts itself). */
  get resumeSecret(): string | null {
    return this.over ? null : this.secret;
  }

  /** Seat events so far, for the record. */
  get events(): readonly SeatEvent[] {
    return this._events;
  }

  /** The join token was presented. Spent on first use: later joins must resume with the secret. */
  join(): JoinDecision {
    if (this.over) return { ok: false, code: ErrorCode.SeatClosed, message: 'the seat is closed' };
    if (this._phase !== 'reserved') {
      this.record('join_refused', ErrorCode.TokenSpent, 'join token presented again');
      return { ok: false, code: ErrorCode.TokenSpent, message: 'this join token was already used; a reconnect needs the resume secret' };
    }
    if (this.now() > this.expiresAt) return { ok: false, code: ErrorCode.BadToken, message: 'token expired' };
    this._phase = this.started ? 'live' : 'joined';
    this.secret = this.o.newSecret();
    return { ok: true, rejoin: false, secret: this.secret };
  }

  /**
   * A connection presents the resume secret: allowed while the seat is held (the holder reconnecting
   * before its old socket was noticed gone) or down within the grace, up to and including its last
   * instant. Rotates the secret.
   */
  resume(secret: string): JoinDecision {
    if (this.over) return { ok: false, code: ErrorCode.SeatClosed, message: 'the seat is closed' };
    if (this._phase === 'reserved' || this.secret === null || secret !== this.secret) {
      this.record('join_refused', ErrorCode.BadResume, 'wrong resume secret');
      return { ok: false, code: ErrorCode.BadResume, message: 'wrong or outdated resume secret' };
    }
    if (this._phase === 'down' && this.now() > this._graceUntil!) {
      this.expire();
      return { ok: false, code: ErrorCode.SeatClosed, message: 'the reconnect window has passed' };
    }
    this._phase = this.started || this._phase !== 'joined' ? 'rejoined' : 'joined';
    this._graceUntil = null;
    this.secret = this.o.newSecret();
    this.record('rejoined');
    return { ok: true, rejoin: true, secret: this.secret };
  }

  /** The episode started: moves can be acted on from now. */
  start(): void {
    this.started = true;
    if (this._phase === 'joined') this._phase = 'live';
  }

  /**
   * The seat's connection closed. A close that ends the seat (abuse, byte budget) or no grace: `lost`.
   * Otherwise `down` until `now + grace` — the one place the grace is computed.
   */
  down(code: number, reason: string): SeatPhase {
    if (!this.connected) return this._phase;
    if (SEAT_ENDING_CLOSE_CODES.has(code)) {
      this.lose(`seat ${this.seat} closed for good (${code} ${reason})`, ErrorCode.Abuse);
      return this._phase;
    }
    if (this.o.reconnectGraceMs <= 0) {
      this.lose(`connection closed (${code} ${reason})`.trim(), ErrorCode.Disconnected);
      return this._phase;
    }
    this._phase = 'down';
    this._graceUntil = this.now() + this.o.reconnectGraceMs;
    this.record('down', undefined, `${code} ${reason}`.trim());
    return this._phase;
  }

  /** A down seat whose grace has passed (strictly after its last instant) becomes lost. True if it did now. */
  expire(): boolean {
    if (this._phase !== 'down' || this.now() <= this._graceUntil!) return false;
    this.lose(`seat ${this.seat} did not reconnect within ${this.o.reconnectGraceMs} ms`, ErrorCode.Disconnected);
    return true;
  }

  /** The seat will not come back (its process is gone for good, or it was closed for abuse). */
  lose(detail: string, code: ErrorCode = ErrorCode.Disconnected): void {
    if (this.over) return;
    this._phase = 'lost';
    this.lostReason = detail;
    this.secret = null;
    this.record('lost', code, detail);
  }

  /** Something worth the record that does not change the phase (a heartbeat timeout, a refused frame). */
  note(kind: SeatEvent['kind'], code?: ErrorCode, detail?: string): void {
    this.record(kind, code, detail);
  }

  /** The episode is over. */
  end(): void {
    this._phase = 'ended';
    this.secret = null;
  }

  private now(): number {
    return this.o.clock.now();
  }

  private record(kind: SeatEvent['kind'], code?: ErrorCode, detail?: string): void {
    if (this._events.length >= MAX_SEAT_EVENTS - 1) {
      // The last slot counts what was not kept.
      this.dropped += 1;
      this._events[MAX_SEAT_EVENTS - 1] = { seat: this.seat, kind: 'truncated', atMs: this.atMs(), detail: `${this.dropped} more event(s) not kept` };
      return;
    }
    const event: SeatEvent = { seat: this.seat, kind, atMs: this.atMs() };
    if (code !== undefined) event.code = code;
    if (detail !== undefined) event.detail = detail.slice(0, 300);
    this._events.push(event);
    this.o.onEvent?.(event);
  }

  private atMs(): number {
    return Math.max(0, this.now() - this.t0);
  }
}
