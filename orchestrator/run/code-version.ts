import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { packagePath } from '../../disk/package-root.js';

const REPO_ROOT = packagePath();

let known: { package: string; git: string | null } | undefined;

/**
 * Package version and git description of the code that ran (null outside a git checkout), as it was when
 * this process first asked: run.json is written at a run's start and at its end, and the code that ran is
 * the code the process loaded (one `git` spawn a process, not one a write).
 */
export function codeVersion(): { package: string; git: string | null } {
  known ??= readCodeVersion();
  return { ...known };
}

function readCodeVersion(): { package: string; git: string | null } {
  let pkg = 'unknown';
  try {
    pkg = (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
  } catch {
    // keep 'unknown'
  }
  let git: string | null = null;
  try {
    git = execFileSync('git', ['describe', '--always', '--dirty', '--tags'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'ignore'], timeout: 5_000 })
      .toString()
      .trim() || null;
  } catch {
    git = null;
  }
  return { package: pkg, git };
}
