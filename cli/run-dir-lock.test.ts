import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireRunLock, RunPaths } from '../run-dir/index.js';
import { tempDir } from '../test/helpers/processes.js';
import { lockRunDir, runDirHolding } from './run-dir-lock.js';

describe('commands that write inside a run take its lock', () => {
  it('knows when an output file is inside one of the runs', () => {
    expect(runDirHolding('runs/a/episodes.csv', ['runs/a', 'runs/b'])).toBe('runs/a');
    expect(runDirHolding(join(process.cwd(), 'runs/b/x.jsonl'), ['runs/a', 'runs/b'])).toBe('runs/b');
    expect(runDirHolding('runs/ab/x.jsonl', ['runs/a'])).toBeUndefined();
    expect(runDirHolding('/tmp/out.csv', ['runs/a'])).toBeUndefined();
  });

  it('a writer that may not wait says who holds the run, and gets the lock once it is free', async () => {
    const d = tempDir('cli-lock');
    try {
      const held = await acquireRunLock(new RunPaths(d.path), { command: 'run' });
      const refused = await lockRunDir(d.path, 'export', 0);
      expect(refused).toEqual({ ok: false, message: expect.stringContaining(`in use by parley run (pid ${process.pid}`) });
      held.release();
      const got = await lockRunDir(d.path, 'export', 0);
      expect(got.ok).toBe(true);
      if (got.ok) got.lock.release();
    } finally {
      d.remove();
    }
  });
});
