import { afterEach } from 'vitest';
import { tempDir } from '../../test/helpers/processes.js';
import { RunPaths } from '../paths.js';

/** A fresh run directory per call inside a test file, removed after each test. */
export function tempRunPaths(prefix: string): () => RunPaths {
  const dirs: Array<{ remove(): void }> = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));
  return () => {
    const d = tempDir(prefix);
    dirs.push(d);
    return new RunPaths(d.path);
  };
}
