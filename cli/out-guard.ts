/**
 * Refuses a run directory inside the source tree's tracked folders (`--out cli/x`, `--out test`): a run
 * writes thousands of files and must never mix with the code. `runs/` and any untracked folder are fine.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { packageRoot } from '../disk/package-root.js';

/** The repository root (where package.json is). */
const ROOT = packageRoot();

/** Top-level folders of the source tree that git tracks (fallback without git: every folder but runs/ and dot folders). */
function trackedFolders(root: string): Set<string> {
  try {
    const out = execFileSync('git', ['-C', root, 'ls-files', '-z'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const top = out.split('\0').filter((f) => f.includes('/')).map((f) => f.slice(0, f.indexOf('/')));
    if (top.length) return new Set(top);
  } catch {
    // not a git checkout (an unpacked tarball): fall through
  }
  return new Set(readdirSync(root).filter((n) => !n.startsWith('.') && n !== 'runs' && n !== 'node_modules' && statSync(join(root, n)).isDirectory()));
}

/** An error message when `out` lies inside a tracked folder of the source tree (or is its root), else null. */
export function outDirProblem(out: string, root: string = ROOT): string | null {
  const rel = relative(root, resolve(out));
  if (rel.startsWith('..') || resolve(out) !== join(root, rel)) return null;
  if (rel === '') return `--out ${out} is the source tree itself; use a folder such as runs/NAME`;
  const first = rel.split(sep)[0]!;
  if (first === 'node_modules' || trackedFolders(root).has(first)) {
    return `--out ${out} is inside the source folder ${first}/ (tracked code); use a folder such as runs/NAME`;
  }
  return null;
}
