/**
 * Says once that Redis went away and once that it is back, however many errors the clients raise in
 * between (ioredis and BullMQ reconnect on their own, with growing delays). Without it, a worker whose
 * Redis is down prints the same connection error several times a second.
 *
 * A process holds several connections that come back one by one, so "back" is said only once a client
 * is ready and no error followed for `settleMs`: one outage is one pair of lines.
 */
export class RedisOutage {
  private down = false;
  private settle: NodeJS.Timeout | null = null;

  constructor(
    private readonly who: string,
    private readonly shown: string,
    private readonly log: (line: string) => void,
    private readonly settleMs = 2_000,
  ) {}

  /**
   * A client reported an error. A lost connection starts an outage (its first error is printed, the rest
   * are not); any other error (a lost job lock, a script error) is printed as it is.
   */
  error(err: Error): void {
    if (!isConnectionError(err)) {
      this.log(`${this.who}: queue: ${err.message}`);
      return;
    }
    if (this.settle) clearTimeout(this.settle);
    this.settle = null;
    if (this.down) return;
    this.down = true;
    this.log(`${this.who}: Redis at ${this.shown} is unreachable (${err.message}); retrying with backoff`);
  }

  /** A client is connected again: the outage ends once no error follows for a while. */
  ready(): void {
    if (!this.down || this.settle) return;
    this.settle = setTimeout(() => {
      this.settle = null;
      this.down = false;
      this.log(`${this.who}: Redis at ${this.shown} is back; carrying on`);
    }, this.settleMs);
    this.settle.unref();
  }

  /**
   * Redis answered a command (a worker's job moved to completed, a coordinator collected its run): an
   * outage is over now, whatever its settle timer says. Without this, a process could stay on
   * "unreachable": a run that finished within `settleMs` of Redis coming back, or a worker whose last
   * error came from a connection that came back without a 'ready' event to restart the timer.
   */
  answered(): void {
    if (!this.down) return;
    if (this.settle) clearTimeout(this.settle);
    this.settle = null;
    this.down = false;
    this.log(`${this.who}: Redis at ${this.shown} is back; carrying on`);
  }
}

/** Whether `err` says the connection to Redis is gone (refused, reset, timed out, closed), not a command's failure. */
export function isConnectionError(err: Error): boolean {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  return /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EHOSTUNREACH|EAI_AGAIN)$/.test(code) || /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|Connection is closed|connect ETIMEDOUT/i.test(err.message);
}
