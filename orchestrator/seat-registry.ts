import { customAlphabet } from 'nanoid';
import { ErrorCode, type SeatJoin } from '../protocol/index.js';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import { SeatLifecycle, type SeatLifecycleOptions } from './seat-lifecycle.js';
import type { SeatConnection, SeatLink } from './seat-link.js';

/**
 * Seat tokens: 24 alphanumerics (~143 bits). No `-` or `_` (nanoid's default alphabet has both): a token
 * starting with `-` reads as a flag in `parley agent --token T`, and these are pasted into shells.
 */
const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const newSeatToken = customAlphabet(ALPHANUMERIC, 24);
/** Resume secrets: 32 alphanumerics (~190 bits), never printed, only sent in the seat's welcome. */
const newResumeSecret = customAlphabet(ALPHANUMERIC, 32);

export type ClaimResult =
  | { ok: true; link: SeatLink; rejoin: boolean }
  | { ok: false; code: ErrorCode; message: string };

export interface SeatRegistryOptions {
  clock?: Clock;
  /** Token generator (nanoid, alphanumeric, by default; tests may inject a deterministic one). */
  newToken?: () => string;
  /** How long a seat that lost its connection may be resumed with its secret. 0 = no reconnects. */
  reconnectGraceMs?: number;
}

/**
 * Seat reservations: the orchestrator issues a one-time token per seat; whoever presents it first
 * (before its TTL) becomes that seat and receives a resume secret in its welcome. The token is spent
 * then: a reconnect presents the token with the current resume secret (rotated on every rejoin).
 * Identity comes from the token and the secret, never from the client's claims. Whether a join or a
 * resume is allowed is the seat's lifecycle's decision (seat-lifecycle.ts); this is only the lookup.
 */
export class SeatRegistry {
  private readonly byToken = new Map<string, SeatLink>();
  private readonly clock: Clock;
  private readonly newToken: () => string;
  readonly reconnectGraceMs: number;

  constructor(opts: SeatRegistryOptions = {}) {
    this.clock = opts.clock ?? systemClock;
    this.newToken = opts.newToken ?? newSeatToken;
    this.reconnectGraceMs = opts.reconnectGraceMs ?? 0;
  }

  /** A lifecycle for a new seat on this registry's clock and grace; its token TTL starts now. */
  lifecycle(seat: string, tokenTtlMs: number, onEvent?: SeatLifecycleOptions['onEvent']): SeatLifecycle {
    return new SeatLifecycle(seat, { clock: this.clock, tokenTtlMs, reconnectGraceMs: this.reconnectGraceMs, newSecret: newResumeSecret, ...(onEvent ? { onEvent } : {}) });
  }

  /** Reserves a seat; returns its one-time join token. */
  reserve(link: SeatLink): string {
    const token = this.newToken();
    if (this.byToken.has(token)) throw new Error('token collision');
    this.byToken.set(token, link);
    return token;
  }

  /** A connection presents a token (and, to reconnect, the resume secret) in `seat.join`. */
  claim(join: Pick<SeatJoin, 'token' | 'resume'>, conn: SeatConnection): ClaimResult {
    const link = this.byToken.get(join.token);
    if (!link || link.lifecycle.phase === 'ended') return { ok: false, code: ErrorCode.BadToken, message: 'unknown or expired token' };
    const decision = join.resume === undefined ? link.lifecycle.join() : link.lifecycle.resume(join.resume);
    if (!decision.ok) return decision;
    link.attach(conn, decision.secret);
    return { ok: true, link, rejoin: decision.rejoin };
  }

  /**
   * Whether `token` is a seat token of an episode not yet ended, without claiming it: a connection that
   * shows one at its handshake is not counted with the tokenless ones (socketio-endpoint.ts).
   */
  holds(token: string): boolean {
    const link = this.byToken.get(token);
    return link !== undefined && link.lifecycle.phase !== 'ended';
  }

  /** Forgets the episode's tokens (after it ended): any later join with them is refused. */
  release(links: Iterable<SeatLink>): void {
    const set = new Set(links);
    for (const [token, link] of this.byToken) if (set.has(link)) this.byToken.delete(token);
  }

  /** Number of live reservations (for tests and leak checks). */
  get size(): number {
    return this.byToken.size;
  }
}
