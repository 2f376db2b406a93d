import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { scratchTmpDir } from './scratch-tmp.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder where test/helpers/run-fixture.ts keeps the bot runs it built for this test run (one per command line). */
    runFixtures: string;
  }
}

/**
 * One folder for the whole test run where files that need the same bot run as their input share it (built
 * by the first file that asks, in whichever worker; see test/helpers/run-fixture.ts), removed at the end.
 * Made here, not per worker process, so the three workers share it; in the test processes' TMPDIR (the tmpfs
 * one when there is one, see scratch-tmp.ts: this process is not given it), where their copies go.
 */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(scratchTmpDir() ?? tmpdir(), 'parley-run-fixtures-'));
  project.provide('runFixtures', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
