import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/processes.js';
import { acquireRunLock, LOCK_FILE } from './run-lock.js';

describe('run directory lock', () => {
  const dirs: Array<{ remove(): void }> = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));
  const dir = () => {
    const d = tempDir('lock');
    dirs.push(d);
    return d.path;
  };

  it('is held by one orchestrator at a time: a second one waits, then fails naming the holder', async () => {
    const d = dir();
    const lock = await acquireRunLock(d);
    expect(JSON.parse(readFileSync(join(d, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    const log: string[] = [];
    await expect(acquireRunLock(d, { waitMs: 150, log: (l) => log.push(l) })).rejects.toMatchObject({ code: 'run/busy', message: expect.stringContaining(`pid ${process.pid}`) });
    expect(log).toEqual([expect.stringMatching(/waiting for parley pid/)]);
    lock.release();
    expect(existsSync(join(d, LOCK_FILE))).toBe(false);
    (await acquireRunLock(d, { waitMs: 0 })).release();
  });

  it('a waiting orchestrator gets the lock as soon as the holder releases it', async () => {
    const d = dir();
    const first = await acquireRunLock(d);
    // Release the moment the second orchestrator reports that it is waiting: no timer, and the lock must
    // be taken well inside its 5 s wait.
    let waited = false;
    const second = acquireRunLock(d, { waitMs: 5_000, log: () => { waited = true; first.release(); } });
    (await second).release();
    expect(waited).toBe(true);
  });

  it('takes over the lock of a process that is gone (a SIGKILLed run), saying so', async () => {
    const d = dir();
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(join(d, LOCK_FILE), JSON.stringify({ pid: gone, host: hostname(), startedAt: 'earlier' }));
    const log: string[] = [];
    const lock = await acquireRunLock(d, { waitMs: 0, log: (l) => log.push(l) });
    expect(log).toEqual([`run directory lock of pid ${gone} is stale (process gone); taking it over`]);
    lock.release();
  });

  it('refuses a lock held from another host', async () => {
    const d = dir();
    writeFileSync(join(d, LOCK_FILE), JSON.stringify({ pid: 1, host: 'elsewhere.example', startedAt: 'earlier' }));
    await expect(acquireRunLock(d, { waitMs: 0 })).rejects.toMatchObject({ code: 'run/busy', message: expect.stringContaining('elsewhere.example') });
  });
});
