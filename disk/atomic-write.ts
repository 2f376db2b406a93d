import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * The one way this project replaces a whole file: write a temporary file next to it, then rename it over
 * the target. A reader sees the old file or the new one, never half of either; a crash leaves at most a
 * hidden `.NAME.PID.RANDOM.tmp` file, never a truncated target. The temp file is removed on failure.
 */
function tempPathFor(file: string): string {
  return join(dirname(resolve(file)), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** Replaces `file` with `text` atomically (synchronous: for writers on a hot path or in `exit` handlers). */
export function writeFileAtomicSync(file: string, text: string): void {
  mkdirSync(dirname(resolve(file)), { recursive: true });
  const tmp = tempPathFor(file);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** Replaces `file` with `text` atomically. */
export async function writeFileAtomic(file: string, text: string | Uint8Array): Promise<void> {
  await mkdir(dirname(resolve(file)), { recursive: true });
  const tmp = tempPathFor(file);
  try {
    await writeFile(tmp, text);
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
