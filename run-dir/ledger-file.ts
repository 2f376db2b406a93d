import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
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
 * Ledgers with lines appended in this tick. One writer for every ledger of the process: at the end of the
 * tick each is written with one synchronous `write` (a seat is sent a turn's event and its next request in
 * the same tick: one call for both). A write stream per ledger cost each line a trip through the stream
 * machinery and the thread pool and back (a quarter of the orchestrator's samples in the latency case's
 * profile); a small write to the page cache is a few µs, and the lines are in the kernel before the
 * orchestrator handles any other event (a crash of the orchestrator loses no line appended before it).
 */
const dirty = new Set<FileLedger>();
let flushScheduled = false;

function flushAll(): void {
  flushScheduled = false;
  for (const ledger of dirty) ledger.flush();
  dirty.clear();
}

/**
 * File-backed ledger. Truncates on open: a rerun of an episode (resume, retry) replaces the ledger of
 * the attempt that did not produce a record. Lines are written in appending order.
 */
export class FileLedger implements Ledger {
  private fd: number | null = null;
  private pending = '';
  private closed: Promise<void> | null = null;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    try {
      this.fd = openSync(path, 'w');
    } catch (err) {
      this.failed(err);
    }
  }

  append(serialisedFrame: string): void {
    if (this.closed) throw new Error(`ledger ${this.path} is closed`);
    if (this.fd === null) return;
    this.pending += serialisedFrame + '\n';
    dirty.add(this);
    if (!flushScheduled) {
      flushScheduled = true;
      process.nextTick(flushAll);
    }
  }

  /** Writes what was appended since the last flush. */
  flush(): void {
    if (this.fd === null || this.pending === '') return;
    const bytes = Buffer.from(this.pending, 'utf8');
    this.pending = '';
    try {
      for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at, bytes.length - at);
    } catch (err) {
      this.failed(err);
    }
  }

  close(): Promise<void> {
    this.closed ??= (async () => {
      this.flush();
      dirty.delete(this);
      this.release();
    })();
    return this.closed;
  }

  /** Surface I/O failure loudly: a ledger that silently misses frames breaks the leak audit. */
  private failed(err: unknown): void {
    console.error(`ledger ${this.path}: ${(err as Error)?.message ?? String(err)}`);
    this.pending = '';
    this.release();
  }

  private release(): void {
    const fd = this.fd;
    this.fd = null;
    if (fd === null) return;
    try {
      closeSync(fd);
    } catch (err) {
      console.error(`ledger ${this.path}: ${(err as Error)?.message ?? String(err)}`);
    }
  }
}
