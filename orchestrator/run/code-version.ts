import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { packagePath } from '../../disk/package-root.js';

const REPO_ROOT = packagePath();

/** What `git describe` is asked: the nearest tag (any, not only annotated), else the commit; `-dirty` for edits. */
const GIT_DESCRIBE = ['describe', '--always', '--dirty', '--tags'];
/** A git that hangs (a lock, a network file system) costs a run this much at most: its version is then null. */
const GIT_TIMEOUT_MS = 5_000;

export interface CodeVersion {
  package: string;
  git: string | null;
}

let known: CodeVersion | undefined;
let reading: Promise<void> | undefined;

/**
 * Package version and git description of the code that ran (null outside a git checkout), as it was when
 * this process first asked: run.json is written at a run's start and at its end, and the code that ran is
 * the code the process loaded (one `git` spawn a process, not one a write). A run starts the spawn early
 * (readCodeVersionSoon), so this finds it known; anything else waits for git here.
 */
export function codeVersion(): CodeVersion {
  known ??= { package: packageVersion(), git: gitDescribeSync(REPO_ROOT) };
  return { ...known };
}

/**
 * Starts `git describe` without waiting for it: it takes ~17 ms of a run's wall time when waited for (more on a
 * busy machine), and a run has scenarios to load and a lock to take meanwhile. Resolves (never rejects) once
 * codeVersion() will answer without a process; the answer is the one codeVersion() would have given.
 */
export function readCodeVersionSoon(): Promise<void> {
  reading ??= gitDescribe(REPO_ROOT).then((git) => {
    known ??= { package: packageVersion(), git };
  });
  return reading;
}

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** `git describe` of the checkout at `cwd`, waited for: null when git fails, is missing or times out. */
export function gitDescribeSync(cwd: string): string | null {
  try {
    return execFileSync('git', GIT_DESCRIBE, { cwd, stdio: ['ignore', 'pipe', 'ignore'], timeout: GIT_TIMEOUT_MS }).toString().trim() || null;
  } catch {
    return null;
  }
}

/** gitDescribeSync without blocking: the same command, the same answer, null for the same failures. */
export function gitDescribe(cwd: string): Promise<string | null> {
  return new Promise((done) => {
    try {
      execFile('git', GIT_DESCRIBE, { cwd, timeout: GIT_TIMEOUT_MS }, (err, stdout) => done(err ? null : stdout.trim() || null)).stdin?.end();
    } catch {
      done(null);
    }
  });
}
