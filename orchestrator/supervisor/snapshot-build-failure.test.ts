import { existsSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clearBuildFailure, FAILED_BUILD_RETRY_MS, noteBuildFailure, passingCause, recentBuildFailure } from './snapshot-build-failure.js';

describe('a failed build of the start-up snapshot, remembered beside its blob', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-snapshot-failure-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a failure that says something about the code or the blob is remembered for an hour, then tried again', () => {
    const blob = join(dir, 'agent.blob');
    expect(recentBuildFailure(blob)).toBeNull();
    noteBuildFailure(blob, Object.assign(new Error('the snapshot builder exited with 1: TypeError: x is not a function\nmore'), { code: 1 }));
    expect(recentBuildFailure(blob)).toMatch(/^its build failed 0 min ago and is tried again after 60 min: the snapshot builder exited with 1: TypeError: x is not a function$/);
    // Dated a millisecond ahead of now, as a marker written this very millisecond can be (file times carry
    // sub-millisecond digits, Date.now() does not): still recent (the unit tier once failed on this race).
    const stamp = new Date();
    utimesSync(`${blob}.failed`, stamp, stamp);
    expect(recentBuildFailure(blob, stamp.getTime() - 1)).toMatch(/^its build failed 0 min ago/);
    // Older than the retry period (or dated in the future: a clock set back): tried again.
    expect(recentBuildFailure(blob, Date.now() + FAILED_BUILD_RETRY_MS + 1_000)).toBeNull();
    const later = new Date(Date.now() + 3_600_000);
    utimesSync(`${blob}.failed`, later, later);
    expect(recentBuildFailure(blob)).toBeNull();
    clearBuildFailure(blob);
    expect(existsSync(`${blob}.failed`)).toBe(false);
  });

  it('a timeout, a kill from outside or a file system error is not remembered: the next pool start tries again', () => {
    const blob = join(dir, 'agent-0123456789ab.blob');
    const passing = [
      Object.assign(new Error('the snapshot builder timed out'), { killed: true, signal: 'SIGTERM' }),
      Object.assign(new Error('a process from the new start-up snapshot did not start (exit SIGKILL)'), { signal: 'SIGKILL' }),
      Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }),
    ];
    for (const err of passing) {
      expect(passingCause(err)).toBe(true);
      noteBuildFailure(blob, err);
      expect(recentBuildFailure(blob)).toBeNull();
    }
    // A crash of a process from the blob (Node aborts or segfaults on a blob it cannot use), or its exit code, is the blob's.
    for (const err of [Object.assign(new Error('did not start (exit SIGSEGV)'), { signal: 'SIGSEGV' }), Object.assign(new Error('exit 14'), { signal: null }), new Error('exit 14')]) {
      expect(passingCause(err)).toBe(false);
    }
  });

  it('a marker that cannot be written (a read-only cache) is not an error', () => {
    expect(() => noteBuildFailure(join(dir, 'no-such-dir', 'agent.blob'), new Error('exit 14'))).not.toThrow();
  });
});
