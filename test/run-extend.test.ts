import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RunConfig } from '../orchestrator/run-config.js';
import { runExperiment } from '../orchestrator/run/driver.js';
import { tempDir } from './helpers/processes.js';

/** Issue 16: one experiment per run directory; --extend adds modes to it and records the history. */
describe('--extend', () => {
  const tmp = tempDir('run-extend');
  afterAll(() => tmp.remove());
  const config = (modes: RunConfig['modes']) => RunConfig.parse({ scenarios: 'builtin', modes, out: join(tmp.path, 'r'), limit: 2, concurrency: 1, maxTurns: 6 });

  it('refuses other modes without --extend, adds them with it, and keeps the history', async () => {
    const first = await runExperiment(config(['agents']), { log: () => {}, hosting: 'local' });
    expect(first.ran).toHaveLength(2);
    await expect(runExperiment(config(['agents', 'script']), { log: () => {}, hosting: 'local' })).rejects.toThrow(/differing settings: modes: \["agents"\] → \["agents","script"\]\. Nothing was changed; add --extend/);
    const extended = await runExperiment(config(['agents', 'script']), { log: () => {}, hosting: 'local', extend: true });
    expect(extended.skipped).toBe(1);
    expect(extended.records.map((r) => r.mode).sort()).toEqual(['agents', 'agents', 'script']);
    const run = JSON.parse(readFileSync(join(tmp.path, 'r', 'run.json'), 'utf8')) as { history: { extend: boolean; changed: string[] }[] };
    expect(run.history.map((h) => [h.extend, h.changed])).toEqual([[false, []], [true, ['modes']]]);
    // The command that started the experiment still resumes it.
    const again = await runExperiment(config(['agents']), { log: () => {}, hosting: 'local' });
    expect(again.ran).toHaveLength(0);
  });
});
