/**
 * How many times a rewrite's own duration passes before the next one: rewriting stays under ~5 % of an
 * eval's time whatever the file's size or the machine's load. Nothing is lost meanwhile: every judgement
 * is in the journal the moment it returns.
 */
export const REWRITE_SPACING = 20;

/**
 * When `parley eval` may rewrite episodes.jsonl again: no sooner than `minMs` after the previous rewrite
 * ended, nor than REWRITE_SPACING times as long as that rewrite took. A rewrite is the whole file, so under
 * load (or for a big run) a fixed 2 s cadence made rewriting most of eval's CPU. The clock is injected
 * (tests); evaluateRun gives it `performance.now`.
 */
export class CheckpointSpacing {
  private last: number;
  private gapMs: number;

  constructor(
    private readonly minMs: number,
    private readonly now: () => number,
  ) {
    this.last = now();
    this.gapMs = minMs;
  }

  /** Whether the spacing since the last rewrite (or since the start) has passed. */
  due(): boolean {
    return this.now() - this.last >= this.gapMs;
  }

  /** Runs one rewrite and spaces the next one by what it took. */
  rewrite(write: () => void): void {
    const started = this.now();
    write();
    this.last = this.now();
    this.gapMs = Math.max(this.minMs, REWRITE_SPACING * (this.last - started));
  }
}
