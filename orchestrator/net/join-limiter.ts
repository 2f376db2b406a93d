import type { Clock } from '../clock.js';

export interface JoinLimiterOptions {
  /** Refused joins from one address within `windowMs` before it is made to wait. */
  maxFailures?: number;
  windowMs?: number;
  /** First back-off; doubles with every refused join during a back-off, up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
}

export const JOIN_LIMIT_DEFAULTS = { maxFailures: 5, windowMs: 10_000, backoffMs: 1_000, maxBackoffMs: 10_000 } as const;

interface Entry {
  failures: number[];
  blockedUntil: number;
  backoff: number;
}

/**
 * Limits failed `seat.join` attempts per remote address: after `maxFailures` refusals within the window,
 * joins from that address are refused (`seat/rate_limited`) for a short back-off, so tokens cannot be
 * guessed at speed. Good joins are never counted. One limiter per server, on the injected clock.
 */
export class JoinLimiter {
  private readonly byAddress = new Map<string, Entry>();
  private readonly o: Required<JoinLimiterOptions>;

  constructor(private readonly clock: Clock, opts: JoinLimiterOptions = {}) {
    this.o = { ...JOIN_LIMIT_DEFAULTS, ...Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)) };
  }

  /** Milliseconds this address must still wait before a join is looked at (0: go ahead). */
  waitFor(address: string): number {
    const e = this.byAddress.get(address);
    return e ? Math.max(0, e.blockedUntil - this.clock.now()) : 0;
  }

  /** A join from `address` was refused (bad token, spent token, wrong secret, or refused while waiting). */
  failed(address: string): void {
    const now = this.clock.now();
    const e = this.byAddress.get(address) ?? { failures: [], blockedUntil: 0, backoff: 0 };
    this.byAddress.set(address, e);
    if (now < e.blockedUntil) {
      e.backoff = Math.min(this.o.maxBackoffMs, e.backoff * 2);
      e.blockedUntil = now + e.backoff;
      return;
    }
    e.failures = e.failures.filter((t) => now - t < this.o.windowMs);
    e.failures.push(now);
    if (e.failures.length >= this.o.maxFailures) {
      e.backoff = e.backoff > 0 ? Math.min(this.o.maxBackoffMs, e.backoff * 2) : this.o.backoffMs;
      e.blockedUntil = now + e.backoff;
      e.failures = [];
    }
    // Bounded memory: forget addresses with nothing pending.
    if (this.byAddress.size > 10_000) {
      for (const [a, x] of this.byAddress) if (x.blockedUntil <= now && x.failures.length === 0) this.byAddress.delete(a);
    }
  }
}
