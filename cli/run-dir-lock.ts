import { resolve, sep } from 'node:path';
import { writeFileAtomic } from '../disk/atomic-write.js';
import { acquireRunLock, RunPaths, writeRunDirFile, type RunDirWriter, type RunLock } from '../run-dir/index.js';
import { RunErrorCode } from '../protocol/index.js';

/**
 * Takes a run directory's lock for a command that writes inside it (run-dir/lock.ts), printing on
 * stderr who it waits for. `waitMs` as there: `Infinity` waits until the holder is done (or Ctrl-C).
 * Returns the lock, or the message naming the holder when it could not wait (any other error is thrown).
 */
export async function lockRunDir(dir: string, command: RunDirWriter, waitMs: number): Promise<{ ok: true; lock: RunLock } | { ok: false; message: string }> {
  const controller = new AbortController();
  const onSigint = () => controller.abort(new Error('interrupted while waiting for the run directory'));
  process.once('SIGINT', onSigint);
  try {
    const lock = await acquireRunLock(new RunPaths(dir), {
      command,
      waitMs,
      signal: controller.signal,
      log: (line) => console.error(`parley ${command}: ${line}${Number.isFinite(waitMs) ? '' : ' (Ctrl-C to stop)'}`),
    });
    return { ok: true, lock };
  } catch (err) {
    if ((err as { code?: unknown }).code === RunErrorCode.Busy || controller.signal.aborted) return { ok: false, message: (err as Error).message };
    throw err;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** The run directory among `dirs` that `file` is written inside, if any (a writer there takes its lock). */
export function runDirHolding(file: string, dirs: readonly string[]): string | undefined {
  const target = resolve(file);
  return dirs.find((d) => target.startsWith(resolve(d) + sep));
}

/**
 * Writes a command's output file atomically: when it lies inside a run directory, through run-dir's
 * writer under the lock the command took (`lock`); anywhere else (no lock), as it is.
 */
export async function writeOutputFile(lock: RunLock | null, file: string, text: string | Uint8Array): Promise<void> {
  if (lock) await writeRunDirFile(lock, file, text);
  else await writeFileAtomic(file, text);
}
