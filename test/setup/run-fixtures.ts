import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder where test/helpers/run-fixture.ts keeps the bot runs it built for this test run (one per command line). */
    runFixtures: string;
  }
}

/**
 * One folder for the whole test run where files that need the same bot run as their input share it (built
 * by the first file that asks, in whichever worker; see test/helpers/run-fixture.ts), removed at the end.
 * Made here, not per worker process, so the three workers share it.
 */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'parley-run-fixtures-'));
  project.provide('runFixtures', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
