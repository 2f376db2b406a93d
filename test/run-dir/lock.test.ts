import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { acquireRunLock } from '../../run-dir/lock.js';
import { tempRunPaths } from '../../run-dir/testing/temp-paths.js';

describe('run directory lock', () => {
  const dir = tempRunPaths('lock');

  it('is held by one writer at a time: a second one says who it waits for, then fails naming the holder', async () => {
    const d = dir();
    const lock = await acquireRunLock(d, { command: 'run' });
    expect(JSON.parse(readFileSync(d.lockFile, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname(), command: 'run' });
    const log: string[] = [];
    await expect(acquireRunLock(d, { command: 'eval', waitMs: 150, log: (l) => log.push(l) })).rejects.toMatchObject({
      code: 'run/busy',
      message: expect.stringContaining(`parley run (pid ${process.pid}`),
    });
    expect(log).toEqual([expect.stringMatching(new RegExp(`^waiting for parley run \\(pid ${process.pid}, since .*\\), which holds `))]);
    lock.release();
    expect(existsSync(d.lockFile)).toBe(false);
    (await acquireRunLock(d, { command: 'eval', waitMs: 0 })).release();
  });

  it('a waiting writer gets the lock as soon as the holder releases it', async () => {
    const d = dir();
    const first = await acquireRunLock(d, { command: 'run' });
    // Release the moment the second writer reports that it is waiting: no timer, and the lock must be
    // taken well inside its 5 s wait.
    let waited = false;
    const second = acquireRunLock(d, { command: 'eval', waitMs: 5_000, log: () => { waited = true; first.release(); } });
    (await second).release();
    expect(waited).toBe(true);
  });

  it('waits without limit when asked, until the signal gives up', async () => {
    const d = dir();
    const first = await acquireRunLock(d, { command: 'run' });
    const controller = new AbortController();
    const waiting = acquireRunLock(d, { command: 'eval', waitMs: Infinity, signal: controller.signal, log: () => controller.abort(new Error('stopped')) });
    await expect(waiting).rejects.toThrow('stopped');
    first.release();
  });

  it('takes over the lock of a process that is gone (a SIGKILLed run), saying so', async () => {
    const d = dir();
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(d.lockFile, JSON.stringify({ pid: gone, host: hostname(), startedAt: 'earlier' }));
    const log: string[] = [];
    const lock = await acquireRunLock(d, { command: 'run', waitMs: 0, log: (l) => log.push(l) });
    expect(log).toEqual([`run directory lock of pid ${gone} is stale (process gone); taking it over`]);
    lock.release();
  });

  it('refuses a lock held from another host', async () => {
    const d = dir();
    writeFileSync(d.lockFile, JSON.stringify({ pid: 1, host: 'elsewhere.example', startedAt: 'earlier', command: 'eval' }));
    await expect(acquireRunLock(d, { command: 'run', waitMs: 0 })).rejects.toMatchObject({ code: 'run/busy', message: expect.stringContaining('parley eval (pid 1 on host elsewhere.example') });
  });
});
