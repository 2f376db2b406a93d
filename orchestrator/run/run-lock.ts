import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { RunError, RunErrorCode } from './run-error.js';

/** The lock file of a run directory. */
export const LOCK_FILE = '.parley-run.lock';

interface Holder {
  pid: number;
  host: string;
  startedAt: string;
  /** Process start time (Linux /proc), so a recycled pid is not mistaken for the holder. */
  procStart?: string;
}

export interface RunLock {
  /** Removes the lock if this process still holds it. */
  release(): void;
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

function alive(h: Holder): boolean {
  try {
    process.kill(h.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const start = procStart(h.pid);
  return h.procStart === undefined || start === undefined || start === h.procStart;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One orchestrator per run directory at a time: two appending to one `episodes.jsonl` would run (and
 * record) the same episodes twice. The lock is a file created exclusively with the holder's pid; a lock
 * whose process is gone (e.g. SIGKILLed) is stale and taken over with a notice. A live holder on this
 * machine is waited for up to `waitMs` (a killed launcher's orchestrator may take a moment to exit),
 * then the run fails naming it. A holder on another host cannot be checked and is refused at once.
 */
export async function acquireRunLock(dir: string, opts: { waitMs?: number; log?: (line: string) => void } = {}): Promise<RunLock> {
  const file = join(dir, LOCK_FILE);
  const me: Holder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  const start = procStart(process.pid);
  if (start !== undefined) me.procStart = start;
  const deadline = Date.now() + (opts.waitMs ?? 15_000);
  let waiting = false;
  for (;;) {
    try {
      writeFileSync(file, JSON.stringify(me) + '\n', { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder: Holder | null = null;
    try {
      holder = JSON.parse(readFileSync(file, 'utf8')) as Holder;
    } catch {
      holder = null; // vanished meanwhile, or torn: either way not a usable lock
    }
    if (holder && holder.host !== me.host) {
      throw new RunError(RunErrorCode.Busy, `${dir} is in use by parley pid ${holder.pid} on host ${holder.host} (remove ${file} if that run is over)`);
    }
    if (!holder || !alive(holder)) {
      if (holder) opts.log?.(`run directory lock of pid ${holder.pid} is stale (process gone); taking it over`);
      rmSync(file, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      throw new RunError(RunErrorCode.Busy, `${dir} is in use by parley pid ${holder.pid} (since ${holder.startedAt}); wait for it to finish or stop it`);
    }
    if (!waiting) opts.log?.(`waiting for parley pid ${holder.pid}, which holds ${dir}`);
    waiting = true;
    await sleep(100);
  }
  const release = () => {
    try {
      const holder = JSON.parse(readFileSync(file, 'utf8')) as Holder;
      if (holder.pid === me.pid && holder.startedAt === me.startedAt) rmSync(file, { force: true });
    } catch {
      // Already gone.
    }
    process.off('exit', release);
  };
  process.on('exit', release);
  return { release };
}
