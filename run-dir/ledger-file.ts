import { close, mkdirSync, open, write } from 'node:fs';
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

/** Lines held in memory before they are written: past this many characters, or this long after the first of them. */
export const LEDGER_FLUSH = { chars: 16 * 1024, afterMs: 1_000 };

/**
 * File-backed ledger. Opened (truncated) as the episode starts, off the event loop; lines are held in
 * memory and written in order, off the event loop (the thread pool's asynchronous writes), in batches:
 * once `LEDGER_FLUSH.chars` are held, `LEDGER_FLUSH.afterMs` after the first line held, and at `close`.
 * A short episode's ledger is one write where a write stream made a trip through the thread pool for
 * each turn of each seat (with the stream's machinery: a third of the orchestrator's profile samples in a
 * 450-episode bot run). Nothing recorded depends on a line being on disk sooner: an episode's record is
 * written only after its ledgers have closed, and the ledgers of an episode with no record are discarded
 * when the run resumes (it runs again). Synchronous writes were tried twice and reverted: every ledger at
 * the end of every tick blocked the event loop in bursts at 2,000 ledgers (bench/agent-profile.md, fifth
 * pass), and the last lines and the close written synchronously at the episode's end left a browser seat's
 * page without its "Episode over" (test/system/browser-seat.test.ts), as the first attempt did.
 *
 * Truncates on open: a rerun of an episode (resume, retry) replaces the ledger of the attempt that did not
 * produce a record.
 */
export class FileLedger implements Ledger {
  private held = '';
  private timer: NodeJS.Timeout | undefined;
  /** The file's descriptor, once opened. */
  private fd: number | undefined;
  /** The file could not be opened or written (said once, on stderr): later lines are dropped. */
  private failed = false;
  /** The open and the writes in flight, in order. */
  private tail: Promise<void>;
  private closed: Promise<void> | null = null;

  constructor(readonly path: string) {
    // Opened now, off the event loop, while the episode starts: its end then waits for one write and the close.
    mkdirSync(dirname(path), { recursive: true });
    this.tail = call<number>((cb) => open(path, 'w', cb)).then(
      (fd) => void (this.fd = fd),
      (err: Error) => this.fail(err),
    );
  }

  append(serialisedFrame: string): void {
    if (this.closed) throw new Error(`ledger ${this.path} is closed`);
    this.held += serialisedFrame + '\n';
    if (this.held.length >= LEDGER_FLUSH.chars) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), LEDGER_FLUSH.afterMs);
  }

  close(): Promise<void> {
    this.closed ??= (async () => {
      this.flush();
      await this.tail;
      const fd = this.fd;
      if (fd !== undefined && !this.failed) await call<void>((cb) => close(fd, cb)).catch((err: Error) => this.fail(err));
    })();
    return this.closed;
  }

  /** Hands the held lines to the writes in flight. */
  private flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const text = this.held;
    this.held = '';
    if (text !== '') this.tail = this.tail.then(() => this.writeOut(text));
  }

  private async writeOut(text: string): Promise<void> {
    const fd = this.fd;
    if (this.failed || fd === undefined) return;
    try {
      const bytes = Buffer.from(text, 'utf8');
      for (let at = 0; at < bytes.length; ) at += await call<number>((cb) => write(fd, bytes, at, bytes.length - at, null, cb));
    } catch (err) {
      this.fail(err as Error);
    }
  }

  /** Surface I/O failure loudly: a ledger that silently misses frames breaks the leak audit. Later lines are dropped. */
  private fail(err: Error): void {
    if (this.failed) return;
    this.failed = true;
    console.error(`ledger ${this.path}: ${err.message}`);
    if (this.fd !== undefined) close(this.fd, () => {});
  }
}

/** A node:fs callback call as a promise. */
function call<T>(start: (cb: (err: NodeJS.ErrnoException | null, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => start((err, value) => (err ? reject(err) : resolve(value))));
}
