import { systemClock, type Clock, type TimerHandle } from '../clock.js';

/** One seat waiting for a worker (its ticket, from `wait()`). */
export interface WaitTicket {
  readonly since: number;
}

/**
 * How many workers a pool that grows on demand keeps (WorkerPoolOptions.growOnDemand): its first wave,
 * plus one for each seat that has waited for a worker as long as a worker of this pool takes to start.
 *
 * Why: a bot episode lasts less than an agent process takes to start on a loaded machine, so the processes a
 * pool started beyond its first wave were mostly ready after the episodes they were for had already gone
 * to the first ones, then stopped unused (a 2-episode bot run started 4 processes and played on 2; a
 * 40-episode one started 14 and played on 4), each ~0.1–0.3 s of CPU. A seat that waits as long as a start
 * takes and only then starts a worker (rent, then buy) waits at most twice what starting at once would
 * have cost, and starts nothing when a worker frees first. The wait counts from the first worker's
 * `ready`: before it, every seat waits for the first wave anyway.
 */
export class DemandGrowth {
  private readonly waiting = new Map<WaitTicket, { signalled: boolean }>();
  private firstReadyAt: number | undefined;
  /** Wall time the latest worker took from fork to `ready`: how long a seat waits before one starts for it. */
  private startMs = 0;
  private timer: TimerHandle | undefined;
  private timerDue = Infinity;

  /**
   * @param keptWorkers workers kept to begin with (the first wave)
   * @param pool its live workers (starting or ready), those starting, and its fill (starts workers up to `kept`)
   */
  constructor(
    private keptWorkers: number,
    private readonly pool: { live(): number; starting(): number; fill(): unknown },
    private readonly clock: Clock = systemClock,
  ) {}

  /** Workers the pool keeps now (never fewer than before). */
  get kept(): number {
    return this.keptWorkers;
  }

  /**
   * Keeps a worker for each seat that has waited long enough and that no starting worker covers. The pool
   * calls it at every fill (a worker ready or dead, a seat hosted): a seat whose starting worker went to
   * another seat, or died, is counted again.
   */
  raise(): boolean {
    const kept = this.keptWorkers;
    const uncovered = this.overdue() - this.pool.starting();
    if (uncovered > 0) this.keptWorkers = Math.max(this.keptWorkers, this.pool.live() + uncovered);
    return this.keptWorkers > kept;
  }

  private onDue(): void {
    if (this.raise()) this.pool.fill();
  }

  /** A worker said `ready` `startMs` after it was forked. */
  started(startMs: number): void {
    this.firstReadyAt ??= this.clock.now();
    this.startMs = startMs;
    this.schedule();
  }

  /** A seat begins to wait for a worker; `done` with the ticket once it has one (or gives up). */
  wait(): WaitTicket {
    const ticket = { since: this.clock.now() };
    this.waiting.set(ticket, { signalled: false });
    this.schedule();
    return ticket;
  }

  done(ticket: WaitTicket): void {
    this.waiting.delete(ticket);
  }

  /** Seats that have waited long enough for a worker to be started for them. */
  overdue(): number {
    const now = this.clock.now();
    let n = 0;
    for (const t of this.waiting.keys()) if (this.dueAt(t) <= now) n += 1;
    return n;
  }

  stop(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerDue = Infinity;
  }

  private dueAt(t: WaitTicket): number {
    return this.firstReadyAt === undefined ? Infinity : Math.max(t.since, this.firstReadyAt) + this.startMs;
  }

  /** One timer, for the earliest seat whose wait has not been signalled yet. */
  private schedule(): void {
    let due = Infinity;
    for (const [t, s] of this.waiting) if (!s.signalled) due = Math.min(due, this.dueAt(t));
    if (due === Infinity || due >= this.timerDue) return;
    this.stop();
    this.timerDue = due;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.timerDue = Infinity;
      const now = this.clock.now();
      for (const [t, s] of this.waiting) if (this.dueAt(t) <= now) s.signalled = true;
      this.onDue();
      this.schedule();
    }, due - this.clock.now());
  }
}
