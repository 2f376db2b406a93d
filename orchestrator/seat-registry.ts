import { customAlphabet } from 'nanoid';
import { ErrorCode } from '../protocol/index.js';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import type { SeatConnection, SeatLink } from './seat-link.js';

/**
 * Seat tokens: 24 alphanumerics (~143 bits). No `-` or `_` (nanoid's default alphabet has both): a token
 * starting with `-` reads as a flag in `parley agent --token T`, and these are pasted into shells.
 */
const newSeatToken = customAlphabet('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 24);

interface Reservation {
  link: SeatLink;
  /** A join after this instant is refused (the TTL of the one-time token). */
  expiresAt: number;
  claimed: boolean;
  /** Set while the seat is disconnected after a join: the token may rejoin until then. */
  graceUntil: number | null;
}

export type ClaimResult =
  | { ok: true; link: SeatLink; rejoin: boolean }
  | { ok: false; code: ErrorCode; message: string };

export interface SeatRegistryOptions {
  clock?: Clock;
  /** Token generator (nanoid, alphanumeric, by default; tests may inject a deterministic one). */
  newToken?: () => string;
  /** How long a seat that lost its connection may rejoin with its token. 0 = no reconnects. */
  reconnectGraceMs?: number;
}

/**
 * Seat reservations: the orchestrator issues a one-time token per seat; whoever presents it first
 * (before its TTL) becomes that seat. Identity comes from the token, never from the client's claims.
 * A token may be presented again only to reconnect a seat whose connection dropped, within the grace period.
 */
export class SeatRegistry {
  private readonly byToken = new Map<string, Reservation>();
  private readonly clock: Clock;
  private readonly newToken: () => string;
  readonly reconnectGraceMs: number;

  constructor(opts: SeatRegistryOptions = {}) {
    this.clock = opts.clock ?? systemClock;
    this.newToken = opts.newToken ?? newSeatToken;
    this.reconnectGraceMs = opts.reconnectGraceMs ?? 0;
  }

  /** Reserves a seat; returns its token, valid for a first join during `ttlMs`. */
  reserve(link: SeatLink, ttlMs: number): string {
    const token = this.newToken();
    if (this.byToken.has(token)) throw new Error('token collision');
    this.byToken.set(token, { link, expiresAt: this.clock.now() + ttlMs, claimed: false, graceUntil: null });
    return token;
  }

  /** A connection presents a token in `seat.join`. */
  claim(token: string, conn: SeatConnection): ClaimResult {
    const r = this.byToken.get(token);
    if (!r || r.link.state === 'ended') return { ok: false, code: ErrorCode.BadToken, message: 'unknown or expired token' };
    const now = this.clock.now();
    if (!r.claimed) {
      if (now > r.expiresAt) return { ok: false, code: ErrorCode.BadToken, message: 'token expired' };
      r.claimed = true;
      r.link.attach(conn);
      return { ok: true, link: r.link, rejoin: false };
    }
    if (r.link.connected) return { ok: false, code: ErrorCode.SeatTaken, message: 'seat is already taken' };
    // Disconnected: a rejoin is allowed within the grace period that started when the connection dropped.
    if (r.graceUntil === null || now > r.graceUntil) {
      return { ok: false, code: ErrorCode.SeatTaken, message: 'seat was taken and its reconnect window has passed' };
    }
    r.graceUntil = null;
    r.link.attach(conn);
    return { ok: true, link: r.link, rejoin: true };
  }

  /** The seat's connection dropped: opens the reconnect window (called by the connection). */
  disconnected(link: SeatLink): void {
    for (const r of this.byToken.values()) {
      if (r.link === link) r.graceUntil = this.reconnectGraceMs > 0 ? this.clock.now() + this.reconnectGraceMs : null;
    }
  }

  /** Forgets the episode's tokens (after it ended): any later join with them is refused. */
  release(links: Iterable<SeatLink>): void {
    const set = new Set(links);
    for (const [token, r] of this.byToken) if (set.has(r.link)) this.byToken.delete(token);
  }

  /** Number of live reservations (for tests and leak checks). */
  get size(): number {
    return this.byToken.size;
  }
}
