import { rm } from 'node:fs/promises';
import { afterEach } from 'vitest';
import { loadRunDir, type RunDir } from '../run-dir.js';

/**
 * Run directories a test file writes (`writeRunDir`), removed after each test: `track` one (or any other
 * folder), `load` one as the evaluator reads it (a load failure throws, naming why).
 */
export function tempRuns(): { track(dir: string): void; load(dir: string): Promise<RunDir> } {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });
  return {
    track: (dir) => void dirs.push(dir),
    load: async (dir) => {
      dirs.push(dir);
      const r = await loadRunDir(dir);
      if (!r.ok) throw new Error(r.error.message);
      return r.run;
    },
  };
}
