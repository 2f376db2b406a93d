import type { Ledger } from '../run-dir/index.js';

/**
 * A seat's ledger (DESIGN invariant 4): the interface is the run directory's (run-dir/ledger-file.ts,
 * whose file-backed ledger a run opens under its lock); an in-memory one serves unit tests.
 */
export type { Ledger };

/** In-memory ledger for unit tests. */
export class MemoryLedger implements Ledger {
  readonly lines: string[] = [];
  append(serialisedFrame: string): void {
    this.lines.push(serialisedFrame);
  }
  async close(): Promise<void> {}
  /** The ledger's frames, parsed. */
  frames(): Array<Record<string, unknown> & { type: string }> {
    return this.lines.map((l) => JSON.parse(l));
  }
}
