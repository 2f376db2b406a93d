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

  /** A client reported an error: the first one of an outage is printed, the rest are not. */
  error(err: Error): void {
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
}
