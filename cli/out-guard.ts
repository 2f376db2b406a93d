/**
 * Refuses a run directory inside the source tree's tracked folders (`--out cli/x`, `--out test`): a run
 * writes thousands of files and must never mix with the code. `runs/` and any untracked folder are fine.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
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

/**
 * Where `path` really is: its nearest existing ancestor with symbolic links resolved, and the part that
 * does not exist yet appended. A link from elsewhere into the source tree (`ln -s ~/parley/docs d`,
 * `--out d/x`) lands its run inside the tree, so the guard must see through it.
 */
function realLocation(path: string): string {
  let existing = resolve(path);
  const rest: string[] = [];
  while (!existsSync(existing)) {
    const parent = dirname(existing);
    if (parent === existing) return resolve(path);
    rest.unshift(basename(existing));
    existing = parent;
  }
  try {
    return join(realpathSync(existing), ...rest);
  } catch {
    return resolve(path);
  }
}

/** The problem with `out` as written, relative to `root` as given (both already absolute). */
function problemAt(out: string, target: string, root: string): string | null {
  const rel = relative(root, target);
  if (rel.startsWith('..') || target !== join(root, rel)) return null;
  if (rel === '') return `--out ${out} is the source tree itself; use a folder such as runs/NAME`;
  const first = rel.split(sep)[0]!;
  if (first === 'node_modules' || trackedFolders(root).has(first)) {
    return `--out ${out} is inside the source folder ${first}/ (tracked code); use a folder such as runs/NAME`;
  }
  return null;
}

/**
 * An error message when `out` lies inside a tracked folder of the source tree (or is its root), else null:
 * checked on the path as written and on where it really leads (symbolic links resolved on both sides).
 */
export function outDirProblem(out: string, root: string = ROOT): string | null {
  return problemAt(out, resolve(out), resolve(root)) ?? problemAt(out, realLocation(out), realLocation(root));
}
