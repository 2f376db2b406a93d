/**
 * Whether a pool's processes from the start-up snapshot die before `ready` because of the blob. One early
 * death says little (a kill from outside, the OOM killer, a ready timeout on a loaded machine), and switching a
 * whole pool to the plain bundle for good costs every later process ~40 ms of CPU and some memory. So the
 * pool switches only after `limit` processes from the snapshot died before `ready` in a row, none reaching it in
 * between: a blob Node refuses (exit 14) or crashes on kills every process from it, a passing cause does not.
 * A process from the snapshot that reaches `ready` starts the count again (a blob replaced under a running pool
 * is still caught). These deaths are not the pool's start failures: a first wave from a refused blob would use
 * those up and fail the pool instead of falling back (worker-pool.ts).
 */
export class SnapshotEvidence {
  private diedInARow = 0;

  constructor(readonly limit: number) {}

  /** A process from the snapshot reached `ready`: the blob works. */
  healthy(): void {
    this.diedInARow = 0;
  }

  /** A process from the snapshot died before `ready`; true once the blob is to blame (switch to the plain bundle). */
  diedEarly(): boolean {
    this.diedInARow += 1;
    return this.diedInARow >= this.limit;
  }

  /** Early deaths in a row so far (for the log). */
  get count(): number {
    return this.diedInARow;
  }
}
