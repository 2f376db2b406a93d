import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runtimeEntries, snapshotDeferred } from '../orchestrator/supervisor/snapshot-deferred.js';
import { CLI_GUARD_MS } from './setup/guards.js';

const run = promisify(execFile);

/**
 * The snapshot bundle's cache key is the same whichever kind of process asks: vitest's (a test's pool), tsx's (the
 * bench, the suite's set-up) or the CLI's bundle. The keys held the plugins' functions as each loader reprints them,
 * and every switch between kinds rebuilt the snapshot bundle (~0.7 s; a bench case after its harness's prebuild
 * started its first process ~650 ms late).
 */
describe('the snapshot bundle cache key', () => {
  it('is the same in a tsx process as in this one', async () => {
    const script = "const m = await import('./orchestrator/supervisor/snapshot-deferred.ts'); console.log(JSON.stringify([m.snapshotDeferred.key, m.runtimeEntries.key]));";
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: CLI_GUARD_MS });
    expect(JSON.parse(stdout)).toEqual([snapshotDeferred.key, runtimeEntries.key]);
  });
});
