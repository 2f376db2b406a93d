import { mkdirSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { writeFileAtomic } from '../disk/atomic-write.js';
import type { RunLock } from './lock.js';

/**
 * Writes a file a command adds to a run directory beside its records (compare verdicts, exports,
 * fine-tuning files, reports): atomically and under the lock, so it appears beside an `eval` rewriting
 * the run, never under it. `file` must lie inside the locked directory: a lock on one run is no licence
 * to write into another.
 */
export async function writeRunDirFile(lock: RunLock, file: string, text: string | Uint8Array): Promise<void> {
  const target = resolve(file);
  if (!target.startsWith(resolve(lock.paths.dir) + sep)) throw new Error(`${file} is not inside the locked run directory ${lock.paths.dir}`);
  mkdirSync(dirname(target), { recursive: true });
  await writeFileAtomic(target, text);
}
