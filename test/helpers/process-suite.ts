import { afterAll, beforeAll } from 'vitest';
import { tempDir, type CliProcess } from '../../testkit/processes.js';

type Cleanup = () => void | Promise<void>;

/** What a test file that starts CLI processes shares between its tests (see `processSuite`). */
export interface ProcessSuite {
  /** The file's scratch folder, removed after its tests. */
  readonly tmp: { path: string; remove(): void };
  /** The CLI processes the tests start, killed after them. */
  readonly procs: CliProcess[];
  /** Runs `fn` after the tests, before the processes are killed (clients, sockets, servers they use). */
  onTeardown(fn: Cleanup): void;
  /** Runs `fn` after the processes are killed, before the folder is removed (what the processes used). */
  afterProcesses(fn: Cleanup): void;
}

/**
 * Registers, in the calling `describe`, a scratch folder named by `prefix` and the list of processes its
 * tests start; after the tests: the teardown steps, then every process killed (and, with `awaitExit`,
 * awaited), then the steps for after the processes, then the folder removed.
 */
export function processSuite(prefix: string, options: { awaitExit?: boolean } = {}): ProcessSuite {
  const tmp = tempDir(prefix);
  const procs: CliProcess[] = [];
  const before: Cleanup[] = [];
  const after: Cleanup[] = [];
  afterAll(async () => {
    for (const fn of before) await fn();
    for (const p of procs) p.kill();
    if (options.awaitExit) await Promise.all(procs.map((p) => p.exited));
    for (const fn of after) await fn();
    tmp.remove();
  });
  return { tmp, procs, onTeardown: (fn) => void before.push(fn), afterProcesses: (fn) => void after.push(fn) };
}

/**
 * A resource of the suite (the browser, a Redis): opened in beforeAll, closed after the processes are
 * killed. The returned function reads it once beforeAll has run (before that it throws, naming `what`).
 */
export function suiteResource<T>(suite: ProcessSuite, what: string, open: () => Promise<T>, close: (r: T) => Promise<unknown>, openTimeoutMs?: number): () => T {
  let resource: T | undefined;
  beforeAll(async () => {
    resource = await open();
  }, openTimeoutMs);
  suite.afterProcesses(async () => {
    if (resource !== undefined) await close(resource);
  });
  return () => {
    if (resource === undefined) throw new Error(`${what} opens in beforeAll`);
    return resource;
  };
}
