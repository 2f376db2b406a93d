/** How many connections that hold no seat yet an endpoint keeps at once, from one address and in all. */
export interface PendingLimits {
  perAddress: number;
  total: number;
}

/**
 * Connections that have not joined a seat yet, by remote address (issue 19, k02): each costs memory and a
 * file descriptor until it joins or its join timeout closes it, and nothing about it is trusted yet, so an
 * endpoint takes at most `perAddress` of them from one address and `total` in all. One instance per
 * endpoint (`/agent` and `/socket.io/` have their own limits, each with its reason beside it). When full,
 * an endpoint either refuses the newcomer (`admit`) or gives up the oldest (`admitEvicting`).
 */
export class PendingConnections<K extends object = object> {
  private readonly from = new Map<K, string>();
  private readonly perAddress = new Map<string, number>();
  /** Refusals and evictions not yet reported (see `takeRefusalReport`). */
  private unreported = 0;
  private lastReportAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly limits: PendingLimits) {}

  get size(): number {
    return this.from.size;
  }

  /**
   * Takes `conn` as pending when the limits allow; otherwise returns why not (for the log) and takes
   * nothing. Every refusal is counted for `takeRefusalReport`.
   */
  admit(conn: K, address: string): string | null {
    const mine = this.perAddress.get(address) ?? 0;
    const why =
      mine >= this.limits.perAddress ? `${mine} connections from this address have not joined a seat yet`
      : this.from.size >= this.limits.total ? `${this.from.size} connections have not joined a seat yet`
      : null;
    if (why) {
      this.unreported += 1;
      return why;
    }
    this.from.set(conn, address);
    this.perAddress.set(address, mine + 1);
    return null;
  }

  /**
   * Takes `conn` as pending, making room when a limit is reached by giving up the oldest pending connection
   * (of this address when the address is at its limit, else of all). Returns the connections given up,
   * already released: the caller closes them. An honest client joins within milliseconds of connecting,
   * so the oldest pending connection is the one least likely to be honest, and a flood cannot lock out
   * the agents that share its address (every local agent and local attacker is 127.0.0.1).
   */
  admitEvicting(conn: K, address: string): K[] {
    const evicted: K[] = [];
    if ((this.perAddress.get(address) ?? 0) >= this.limits.perAddress) {
      for (const [c, a] of this.from) {
        if (a !== address) continue;
        evicted.push(c);
        break;
      }
    } else if (this.from.size >= this.limits.total) {
      const oldest = this.from.keys().next();
      if (!oldest.done) evicted.push(oldest.value);
    }
    for (const c of evicted) this.release(c);
    this.unreported += evicted.length;
    this.from.set(conn, address);
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    return evicted;
  }

  /** `conn` joined a seat or went away: it no longer counts (idempotent). */
  release(conn: K): void {
    const address = this.from.get(conn);
    if (address === undefined) return;
    this.from.delete(conn);
    const left = (this.perAddress.get(address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(address, left);
    else this.perAddress.delete(address);
  }

  /**
   * How many connections were refused or given up since the last report, at most once per `everyMs` (null
   * otherwise): a flood makes one log line a second, not one per connection, so it cannot flood the
   * organiser's terminal either.
   */
  takeRefusalReport(now: number, everyMs = 1000): number | null {
    if (this.unreported === 0 || now - this.lastReportAt < everyMs) return null;
    const n = this.unreported;
    this.unreported = 0;
    this.lastReportAt = now;
    return n;
  }
}
