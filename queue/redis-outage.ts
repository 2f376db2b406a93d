/**
 * Says once that Redis went away and once that it is back, however many errors the clients raise in
 * between (ioredis and BullMQ reconnect on their own, with growing delays). Without it, a worker whose
 * Redis is down prints the same connection error several times a second.
 */
export class RedisOutage {
  private down = false;

  constructor(
    private readonly who: string,
    private readonly shown: string,
    private readonly log: (line: string) => void,
  ) {}

  /** A client reported an error: the first one of an outage is printed, the rest are not. */
  error(err: Error): void {
    if (this.down) return;
    this.down = true;
    this.log(`${this.who}: Redis at ${this.shown} is unreachable (${err.message}); retrying with backoff`);
  }

  /** A client is connected again: ends the outage (printed once). */
  ready(): void {
    if (!this.down) return;
    this.down = false;
    this.log(`${this.who}: Redis at ${this.shown} is back; carrying on`);
  }

  get isDown(): boolean {
    return this.down;
  }
}
