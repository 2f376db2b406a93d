import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../test/helpers/processes.js';
import { sourceFiles, stripComments } from '../test/boundaries/import-graph.js';
import { appendEpisode } from './episodes-file.js';
import { acquireRunLock, type RunLock } from './lock.js';
import { writeRunJson } from './run-json.js';
import { fixtureRunJson } from './testing/fixture.js';
import { tempRunPaths } from './testing/temp-paths.js';

describe('writers take the lock by type', () => {
  const dirs = tempRunPaths('locktype');

  it('a writer given paths instead of the lock does not compile (and fails at run time too)', () => {
    const paths = dirs();
    // @ts-expect-error RunPaths is not a RunLock: writing without the lock must not compile.
    expect(() => writeRunJson(paths, fixtureRunJson('r', []))).toThrow();
    expect(existsSync(paths.runJson)).toBe(false);
    // Checked by `npm run typecheck`, not run: a look-alike object lacks the brand only acquireRunLock gives.
    const forged = { paths, release: () => {} };
    // @ts-expect-error a look-alike object is not a RunLock.
    const unlocked = () => appendEpisode(forged, {} as never);
    expect(unlocked).toBeTypeOf('function');
  });

  it('the lock acquireRunLock returns carries the directory it holds, and the writers write there', async () => {
    const paths = dirs();
    const lock: RunLock = await acquireRunLock(paths, { command: 'eval', waitMs: 0 });
    try {
      expect(lock.paths.dir).toBe(paths.dir);
      writeRunJson(lock, fixtureRunJson('r', []));
      expect(JSON.parse(readFileSync(paths.runJson, 'utf8')).runId).toBe('r');
    } finally {
      lock.release();
    }
    expect(existsSync(paths.lockFile)).toBe(false);
  });

  it('only the lock module and test fixtures make a RunLock', () => {
    const forging = sourceFiles(REPO).filter((f) => /\bas RunLock\b/.test(stripComments(readFileSync(join(REPO, f), 'utf8'))));
    expect(forging.sort()).toEqual(['run-dir/lock.ts', 'run-dir/testing/held-lock.ts']);
  });
});
