import { linkSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { RunPaths } from './paths.js';
import { RunErrorCode } from '../protocol/index.js';

/** The commands that write inside a run directory, named in the lock so a waiting writer can say who it waits for. */
/** `worker`: a queue worker's scratch copy of one episode's run directory. */
export type RunDirWriter = 'run' | 'serve' | 'eval' | 'compare' | 'export' | 'pairs' | 'worker' | 'study';

/** Who holds a run directory: the content of its lock file. */
export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
  /** The command holding it (absent in locks written before it was recorded). */
  command?: RunDirWriter;
  /** Process start time (Linux /proc), so a recycled pid is not mistaken for the holder. */
  procStart?: string;
}

/** The run directory is held by a live writer and this one did not (or could no longer) wait. */
export class RunDirBusyError extends Error {
  readonly code = RunErrorCode.Busy;
  constructor(message: string, readonly holder: LockHolder) {
    super(message);
    this.name = 'RunDirBusyError';
  }
}

/** The brand only `acquireRunLock` gives (a type-only symbol: nothing at run time can spell it). */
declare const held: unique symbol;

/**
 * Proof that this process holds a run directory's lock. Every writer of a run-directory file takes it
 * (and writes in `lock.paths`, the directory it holds), so writing without the lock does not compile;
 * only `acquireRunLock` makes one.
 */
export interface RunLock {
  readonly [held]: true;
  /** The run directory this lock holds: the writers write here and nowhere else. */
  readonly paths: RunPaths;
  /** Removes the lock if this process still holds it. */
  release(): void;
}

export interface LockOptions {
  /** Who is asking (recorded in the lock, shown to whoever waits for it). */
  command: RunDirWriter;
  /**
   * How long to wait for a live holder on this machine before failing with its name (default 15 s;
   * `Infinity`: until it is free or `signal` aborts; 0: not at all).
   */
  waitMs?: number;
  /** Once, when this writer starts waiting: "waiting for parley run (pid …, since …), which holds DIR". */
  log?: (line: string) => void;
  /** Gives up waiting (Ctrl-C): rejects with an AbortError. */
  signal?: AbortSignal;
  /** How often a waiting writer looks again (default 100 ms). */
  pollMs?: number;
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks), or undefined off Linux. */
function procStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function alive(h: LockHolder): boolean {
  if (!Number.isInteger(h.pid) || h.pid <= 0) return false; // kill(0 or -1) would signal a whole group
  try {
    process.kill(h.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const start = procStart(h.pid);
  return h.procStart === undefined || start === undefined || start === h.procStart;
}

/** "parley run (pid 42, since …)": the holder as a person reads it. */
export function describeHolder(h: LockHolder): string {
  return `parley ${h.command ?? 'run'} (pid ${h.pid}${h.host !== hostname() ? ` on host ${h.host}` : ''}, since ${h.startedAt})`;
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Creates `file` holding `holder` or returns false when it exists. Written to a private temporary file
 * first and then hard-linked into place (link fails if the name exists), so the lock file appears with its
 * whole content at once: no reader can find it empty and mistake it for a torn, stale lock.
 */
function createAtomically(file: string, holder: LockHolder): boolean {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, JSON.stringify(holder) + '\n');
  try {
    linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  } finally {
    unlinkSync(tmp);
  }
}

/** The lock's holder, or null when there is no lock file (a present one is always whole). */
function readHolder(file: string): LockHolder | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as LockHolder;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    // Not JSON: only a hand edit or a pre-atomic lock can be; treat it as a holder that is gone.
    return { pid: -1, host: hostname(), startedAt: 'unreadable lock' };
  }
}

const sameHolder = (a: LockHolder | null, b: LockHolder) => a !== null && a.pid === b.pid && a.startedAt === b.startedAt && a.host === b.host;

/**
 * Removes the stale lock of `stale`, unless it has changed meanwhile. Waiters that all found the same dead
 * holder would otherwise each delete "the" lock, the later ones deleting the fresh lock a faster one had
 * just created, and two would hold the run. So the removal happens under a second, short-lived lock
 * (`<lock>.takeover`): its holder re-reads the lock and removes it only if it still names `stale`. A
 * takeover lock left by a process that died inside this function is itself removed when its pid is gone.
 * Returns whether this process removed the stale lock.
 */
function removeStale(file: string, stale: LockHolder, me: LockHolder): boolean {
  const guard = `${file}.takeover`;
  if (!createAtomically(guard, me)) {
    const other = readHolder(guard);
    if (other && !alive(other)) rmSync(guard, { force: true });
    return false;
  }
  try {
    if (!sameHolder(readHolder(file), stale)) return false;
    rmSync(file, { force: true });
    return true;
  } finally {
    rmSync(guard, { force: true });
  }
}

/**
 * One writer per run directory at a time. Every command that writes inside a run takes it: two
 * orchestrators appending to one `episodes.jsonl` would run (and record) the same episodes twice, and an
 * `eval` rewriting the file by rename next to an appending run would drop the records appended after it
 * read. Readers (report, export to stdout) need no lock: records are appended as whole lines and
 * rewrites are atomic renames.
 *
 * The lock is a file created atomically (see createAtomically) with the holder's pid and command; a lock
 * whose process is gone (e.g. SIGKILLed) is stale and taken over with a notice, by one waiter only
 * (see removeStale). A live holder on this machine is waited
 * for, saying so once, up to `waitMs`; then the writer fails naming it. A holder on another host cannot
 * be checked and is refused at once.
 */
export async function acquireRunLock(paths: RunPaths, opts: LockOptions): Promise<RunLock> {
  const file = paths.lockFile;
  const me: LockHolder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), command: opts.command };
  const start = procStart(process.pid);
  if (start !== undefined) me.procStart = start;
  const deadline = Date.now() + (opts.waitMs ?? 15_000);
  let waiting = false;
  for (;;) {
    opts.signal?.throwIfAborted();
    if (createAtomically(file, me)) break;
    const holder = readHolder(file);
    if (holder && holder.host !== me.host) {
      throw new RunDirBusyError(`${paths.dir} is in use by ${describeHolder(holder)} (remove ${file} if that is over)`, holder);
    }
    if (!holder) continue; // released meanwhile (a lock file is never seen half written: see createAtomically)
    if (!alive(holder)) {
      if (removeStale(file, holder, me)) opts.log?.(`run directory lock of pid ${holder.pid} is stale (process gone); taking it over`);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new RunDirBusyError(`${paths.dir} is in use by ${describeHolder(holder)}; wait for it to finish or stop it`, holder);
    }
    if (!waiting) opts.log?.(`waiting for ${describeHolder(holder)}, which holds ${paths.dir}`);
    waiting = true;
    await pause(Math.min(opts.pollMs ?? 100, Math.max(1, deadline - Date.now())), opts.signal);
  }
  const release = () => {
    try {
      const holder = JSON.parse(readFileSync(file, 'utf8')) as LockHolder;
      if (holder.pid === me.pid && holder.startedAt === me.startedAt) rmSync(file, { force: true });
    } catch {
      // Already gone.
    }
    process.off('exit', release);
  };
  process.on('exit', release);
  return { paths, release } as RunLock;
}
