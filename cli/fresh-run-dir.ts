import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * A new run directory `runs/<prefix>-<UTC time>` (a `-2`, `-3` … suffix if it exists), for commands that
 * may be started without `--out` (`parley demo`, `parley serve`): each invocation gets its own directory.
 */
export function freshRunDir(prefix: string): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  let dir = resolve('runs', `${prefix}-${stamp}`);
  for (let i = 2; existsSync(dir); i++) dir = resolve('runs', `${prefix}-${stamp}-${i}`);
  return dir;
}
