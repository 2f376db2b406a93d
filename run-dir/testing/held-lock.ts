import type { RunLock } from '../lock.js';
import type { RunPaths } from '../paths.js';

/**
 * A lock for a fixture directory no other process writes (a test's temp dir): it lets a test call the
 * writers, which demand a `RunLock`, without a lock file in the directory that a command under test
 * would then wait for. Only tests may forge one; the product gets its lock from `acquireRunLock`.
 */
export function fixtureLock(paths: RunPaths): RunLock {
  return { paths, release: () => {} } as RunLock;
}
