import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import { relative, sep, join } from 'node:path';

/**
 * Reading a file of a directory Parley does not trust (a run directory someone else wrote or shared):
 * only a regular file, never through a symlink (a ledger linked to ~/.ssh/id_rsa would be quoted in an
 * error or sent on), never a FIFO or device (a read would block forever), and never more than a cap (a
 * file past V8's string limit, or one meant to exhaust memory, is refused by its size before a byte is
 * read). Every reader of a run directory goes through here.
 */
export type RegularRead = { ok: true; text: string } | { ok: false; reason: 'missing' | 'not_regular' | 'too_large' | 'io'; message: string };

/**
 * Caps per kind of run-directory file. Far above what a paper-grid study writes (2,700 episodes: run.json
 * a few MB, episodes.jsonl ~150 MB), below V8's largest string (~512 M characters).
 */
export const RUN_FILE_CAPS = {
  runJson: 64 * 1024 * 1024,
  jsonl: 480 * 1024 * 1024,
} as const;

function kindOf(s: Stats): string {
  if (s.isSymbolicLink()) return 'a symbolic link';
  if (s.isDirectory()) return 'a directory';
  if (s.isFIFO()) return 'a FIFO';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * Whether `file` exists as a regular file reached without symlinks from `root` (each directory between
 * them checked with lstat). Without `root`, only the file itself is checked.
 */
export function regularFileProblem(file: string, root?: string): { reason: 'missing' | 'not_regular'; message: string } | null {
  const parts = root !== undefined ? relative(root, file).split(sep) : [];
  if (root !== undefined && (parts[0] === '..' || parts.length === 0)) return { reason: 'not_regular', message: `${file} is outside ${root}` };
  let at = root ?? '';
  for (const part of parts.slice(0, -1)) {
    at = join(at, part);
    let s: Stats;
    try {
      s = lstatSync(at);
    } catch {
      return { reason: 'missing', message: `${file} does not exist` };
    }
    if (!s.isDirectory()) return { reason: 'not_regular', message: `${at} is ${kindOf(s)}, not a directory: a run directory's files are read only as regular files inside it` };
  }
  let s: Stats;
  try {
    s = lstatSync(file);
  } catch {
    return { reason: 'missing', message: `${file} does not exist` };
  }
  if (!s.isFile()) return { reason: 'not_regular', message: `${file} is ${kindOf(s)}: a run directory's files are read only as regular files` };
  return null;
}

/** Reads a regular file (see above) of at most `maxBytes`, as UTF-8. */
export function readRegularFile(file: string, maxBytes: number, root?: string): RegularRead {
  const problem = regularFileProblem(file, root);
  if (problem) return { ok: false, ...problem };
  let fd: number;
  try {
    // O_NOFOLLOW and O_NONBLOCK: a file swapped for a link or a FIFO after the lstat is not followed or waited on.
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    return { ok: false, reason: 'io', message: `${file}: cannot open (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  try {
    const s = fstatSync(fd);
    if (!s.isFile()) return { ok: false, reason: 'not_regular', message: `${file} is ${kindOf(s)}: a run directory's files are read only as regular files` };
    if (s.size > maxBytes) return { ok: false, reason: 'too_large', message: `${file} is ${s.size} bytes, over the ${maxBytes}-byte limit for this file` };
    const buf = Buffer.allocUnsafe(Math.min(s.size, maxBytes) + 1);
    let n = 0;
    for (;;) {
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
      // Grew while being read past the cap: refused, not cut.
      if (n > maxBytes) return { ok: false, reason: 'too_large', message: `${file} is over the ${maxBytes}-byte limit for this file` };
      if (n === buf.length) break;
    }
    return { ok: true, text: buf.toString('utf8', 0, n) };
  } catch (err) {
    return { ok: false, reason: 'io', message: `${file}: cannot read (${(err as Error).message})` };
  } finally {
    closeSync(fd);
  }
}
