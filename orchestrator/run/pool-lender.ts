import type { WorkerPool } from '../supervisor/worker-pool.js';
import { hostPool, hostPoolSize, type HostPoolOptions } from './episode-host.js';
import { poolKind, withoutRunDirs } from './pool-kind.js';

/** A pool the lender keeps, the processes its current borrowers need, and its first start. */
interface Lent {
  pool: WorkerPool;
  started: Promise<void>;
  lent: number;
}

/**
 * Agent processes shared by the runs of one command: `parley multiverse` runs each arm of a claim as a run
 * of its own, a few at once, and each run started and stopped a pool of its own (a claim of 16 arms of 2 bot
 * episodes: ~60 agent processes started, ~0.1 s of CPU each, for 32 episodes). A run borrows instead: runs
 * that need the same kind of process (seats per process, the bot flags, TLS, the policies warmed) share one
 * pool, sized to what its borrowers need at once and kept while runs of its kind follow one another.
 *
 * Nothing a seat sees depends on the process it is on: each seat brings its own policy and gets only its own
 * frames, as when a run's pool hosts its episodes one after another; and the pool never puts two seats of one
 * episode in one process, whichever run they come from (WorkerPool).
 */
export class PoolLender {
  private readonly pools = new Map<string, Lent>();
  /** Pools being stopped before the lender closes (awaited by `close`). */
  private readonly stopping: Promise<void>[] = [];
  /** Set by `close`: a pool started after it would be stopped by nobody. */
  private closed = false;

  constructor(private readonly log: (line: string) => void = () => {}) {}

  /** A started pool with room for a run of these options beside the other borrowers; `giveBack` once the run is over. */
  async borrow(o: HostPoolOptions): Promise<{ pool: WorkerPool; giveBack: () => void }> {
    if (this.closed) throw new Error('the shared agent processes are stopped: no run may start after the sweep ended');
    // The run's own directories are not part of the kind of process (each seat's policy carries them), nor an
    // LLM policy's model (its warm-up loads the provider's code: pool-kind.ts). The pool warms its first borrower's.
    const warm = o.warm.map(withoutRunDirs);
    const key = poolKind(o);
    const need = hostPoolSize(o);
    let entry = this.pools.get(key);
    if (!entry) {
      // Pools of another kind that no run borrows now are stopped: a sweep over models keeps the processes
      // of the model in play, not those of every model it played before.
      for (const [k, idle] of this.pools) {
        if (idle.lent > 0) continue;
        this.pools.delete(k);
        this.stopping.push(idle.pool.close());
      }
      const pool = hostPool({ ...o, warm }, this.log);
      entry = { pool, started: pool.start(), lent: 0 };
      // A pool that did not start is not lent again: the next run tries a new one (and says why if it fails too).
      entry.started.catch(() => {
        if (this.pools.get(key) === entry) this.pools.delete(key);
        this.stopping.push(pool.close());
      });
      this.pools.set(key, entry);
    }
    const lent = entry;
    lent.lent += need;
    lent.pool.grow(lent.lent);
    let given = false;
    const giveBack = () => {
      if (!given) lent.lent -= need;
      given = true;
    };
    try {
      await lent.started;
    } catch (err) {
      giveBack();
      throw err;
    }
    return { pool: lent.pool, giveBack };
  }

  /** Stops every pool (after the last run gave back its own). */
  async close(): Promise<void> {
    this.closed = true;
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all([...pools.map((e) => e.pool.close()), ...this.stopping]);
  }
}
