import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { cleanEnv } from '../llm-run-helpers.js';
import type { InProcessResult } from '../../testkit/in-process-cli.js';
import { parleyInProcess } from './in-process-parley.js';
import { within } from './processes.js';
import { CLI_GUARD_MS } from '../setup/guards.js';

/**
 * A run of built-in bots that several test files need only as their input (to judge, compare, probe or
 * refuse to work on), built once per test run and copied into each test's own folder.
 *
 * `parley run --scenarios builtin …args` is run by the first file (in any worker) that asks for that exact
 * command line, into the folder test/setup/run-fixtures.ts made for the test run; a file in another worker
 * asking for it meanwhile waits for it. A lock directory (mkdir is atomic) picks the one builder, and the
 * run appears under its final name only when complete (a rename), so nobody copies half a run. Files still
 * get a real `parley run` output, but the suite pays for it once. Never hand the shared folder to a command
 * that may write: give each test `copyOf(...)`.
 */

/** This process's builds, by key: one per command line, whoever asks. */
const builds = new Map<string, Promise<string>>();
let ownFolder: string | undefined;

/** The test run's fixture folder, or (a project without the global setup) one of this process's own. */
function folder(): string {
  const shared = inject('runFixtures');
  if (shared) return shared;
  if (!ownFolder) {
    const made = mkdtempSync(join(tmpdir(), 'parley-run-fixtures-'));
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    ownFolder = made;
  }
  return ownFolder;
}

/**
 * The finished run of `parley run --scenarios builtin …args` (built-in bots, no provider variables): a folder to copy, never
 * to write into. Its build (or the wait for another file's) is given up at the CLI guard, as any command a test runs.
 */
export function botRunFixture(args: string[], timeoutMs = CLI_GUARD_MS): Promise<string> {
  const argv = ['run', '--scenarios', 'builtin', ...args];
  const key = createHash('sha256').update(JSON.stringify(argv)).digest('hex').slice(0, 16);
  let build = builds.get(key);
  if (!build) {
    build = buildOnce(folder(), key, argv, timeoutMs);
    builds.set(key, build);
  }
  return build;
}

/** A private copy of the fixture run `from` at `to` (made, or filled if empty), for one test to work on. */
export function copyOf(from: string, to: string): string {
  cpSync(from, to, { recursive: true });
  return to;
}

/** The run of `argv` at `<dir>/<key>/R`: built here if this process takes the lock, else awaited. */
async function buildOnce(dir: string, key: string, argv: string[], timeoutMs: number): Promise<string> {
  const done = join(dir, key);
  try {
    mkdirSync(join(dir, `${key}.lock`));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return awaitBuilt(dir, key, argv, timeoutMs);
  }
  const staging = join(dir, `${key}.building`);
  // In this process (testkit/in-process-cli.ts): the fixture is a run directory to read, not a test of its process.
  let run: InProcessResult;
  try {
    run = await within(parleyInProcess([...argv, '--out', join(staging, 'R')], { env: cleanEnv() }), timeoutMs, `parley ${argv.join(' ')}`);
  } catch (e) {
    writeFileSync(join(dir, `${key}.failed`), String(e));
    throw e;
  }
  if (run.code !== 0) {
    const why = `parley ${argv.join(' ')} exited ${run.code}:\n${[...run.stdout, ...run.stderr].join('\n')}`;
    writeFileSync(join(dir, `${key}.failed`), why);
    throw new Error(why);
  }
  renameSync(staging, done);
  return join(done, 'R');
}

/** Waits (on the folder's change events, with a timeout) until another process has built the run of `key`, or failed to. */
function awaitBuilt(dir: string, key: string, argv: string[], timeoutMs: number): Promise<string> {
  const done = join(dir, key);
  const failed = join(dir, `${key}.failed`);
  return new Promise((resolve, reject) => {
    const watcher = watch(dir);
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      watcher.close();
      outcome();
    };
    const check = () => {
      if (existsSync(done)) finish(() => resolve(join(done, 'R')));
      else if (existsSync(failed)) finish(() => reject(new Error(`another test file's build of this fixture failed: ${readFileSync(failed, 'utf8')}`)));
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for another test file's parley ${argv.join(' ')}`))), timeoutMs);
    watcher.on('change', check);
    watcher.on('error', (e) => finish(() => reject(e)));
    // It may have finished between the lock attempt and the watch.
    check();
  });
}
