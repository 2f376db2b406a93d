import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { packagePath } from '../../disk/package-root.js';

const REPO_ROOT = packagePath();

/** Package version and git description of the code that ran (null outside a git checkout). */
export function codeVersion(): { package: string; git: string | null } {
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
