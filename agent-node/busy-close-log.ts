/**
 * A pooled agent process's lines about busy closes, summed. When many seats join at once (the bench's 1,000
 * multiplexed episodes join 2,000 seats from one address), the orchestrator closes connections waiting to join
 * to make room (close 4009) and each seat joins again: that is expected under a burst, not a fault, and one line
 * per seat (~2,000 a run) buried everything else in the log. The first close of the process is logged in full
 * (it says what happened); later ones are counted and summed in one line at most every `everyMs`, and once more
 * when the process exits.
 */
export class BusyCloseLog {
  private total = 0;
  private unreported = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly log: (line: string) => void,
    private readonly everyMs = 10_000,
  ) {}

  /** One busy close; `line` is the seat client's explanation. */
  note(line: string): void {
    this.total += 1;
    if (this.total === 1) return this.log(line);
    this.unreported += 1;
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.everyMs);
    // The summary never keeps the process alive: it is written at exit anyway.
    this.timer.unref?.();
  }

  /** Writes the closes not yet reported (a no-op when there are none). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.unreported === 0) return;
    const n = this.unreported;
    this.unreported = 0;
    this.log(`the orchestrator closed ${n} more connection${n === 1 ? '' : 's'} waiting to join to make room (close 4009), ${this.total} in this process so far; their seats join again`);
  }
}
