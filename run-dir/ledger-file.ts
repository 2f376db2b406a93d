import { once } from 'node:events';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import type { RunLock } from './lock.js';

/**
 * A seat's ledger (DESIGN invariant 4): every frame the seat's process was sent, exactly as serialised,
 * one per line, in sending order.
 */
export interface Ledger {
  append(serialisedFrame: string): void;
  /** Flushes and closes; resolves once every appended line is on disk. */
  close(): Promise<void>;
}

/**
 * Opens the ledger of one seat of one episode, `ledgers/<episode>/<seat>.jsonl` (run-dir/paths.ts), in
 * the run directory whose lock the caller holds: like every other file of a run, a ledger is written
 * through run-dir/ under the lock's type. Truncates an earlier attempt's ledger (see FileLedger).
 */
export function openLedgerFile(lock: RunLock, episodeId: string, seat: string): Ledger & { readonly path: string } {
  return new FileLedger(lock.paths.ledgerFile(episodeId, seat));
}

/**
 * File-backed ledger. Truncates on open: a rerun of an episode (resume, retry) replaces the ledger of
 * the attempt that did not produce a record. Writes go through one stream, so order is kept.
 */
class FileLedger implements Ledger {
  private readonly stream: WriteStream;
  private closed: Promise<void> | null = null;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.stream = createWriteStream(path, { flags: 'w' });
    this.stream.on('error', (err) => {
      // Surface I/O failure loudly: a ledger that silently misses frames breaks the leak audit.
      console.error(`ledger ${path}: ${err.message}`);
    });
  }

  /** Lines appended in this tick are written together (one write call instead of one per frame). */
  private corked = false;

  append(serialisedFrame: string): void {
    if (this.closed) throw new Error(`ledger ${this.path} is closed`);
    // A seat is sent a turn's event and its next request in the same tick: one write for both. At 1,000
    // episodes the orchestrator's write calls were a large share of its busy time (CPU profile, issue 27).
    if (!this.corked) {
      this.corked = true;
      this.stream.cork();
      process.nextTick(() => {
        this.corked = false;
        this.stream.uncork();
      });
    }
    this.stream.write(serialisedFrame + '\n');
  }

  close(): Promise<void> {
    this.closed ??= (async () => {
      this.stream.end();
      if (!this.stream.closed) await once(this.stream, 'close');
    })();
    return this.closed;
  }
}
