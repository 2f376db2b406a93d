/**
 * Log lines for refused connections, aggregated: the first refusal from an address is logged at once, the
 * ones after it within the window are counted and logged as one line when it closes. 200 wrong watch keys
 * make two lines, not 200 (a log is read by a person; a flood of refusals must not bury the run's lines).
 */
export class RefusalLog {
  /** Refusals counted per address since its first line (absent: the next one is logged at once). */
  private readonly counted = new Map<string, number>();
  private scheduled = false;

  constructor(
    private readonly log: (line: string) => void,
    /** What was refused, e.g. `watch connection`. */
    private readonly what: string,
    private readonly windowMs = 10_000,
    private readonly schedule: (fn: () => void, ms: number) => void = (fn, ms) => void setTimeout(fn, ms).unref(),
  ) {}

  refused(address: string, why: string): void {
    const n = this.counted.get(address);
    if (n !== undefined) {
      this.counted.set(address, n + 1);
      return;
    }
    this.log(`refused a ${this.what} from ${address}: ${why}`);
    // Bounded: past 1,000 addresses in one window, the rest are counted under one name.
    this.counted.set(this.counted.size < 1000 ? address : '(other addresses)', 0);
    if (!this.scheduled) {
      this.scheduled = true;
      this.schedule(() => this.flush(why), this.windowMs);
    }
  }

  /** Logs what was counted in the window that closed, and opens the next. */
  flush(why: string): void {
    this.scheduled = false;
    for (const [address, n] of this.counted) if (n > 0) this.log(`refused ${n} more ${this.what}s from ${address} in ${Math.round(this.windowMs / 1000)} s: ${why}`);
    this.counted.clear();
  }
}
