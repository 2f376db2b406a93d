import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PARLEY_BIN, REPO, tempDir } from './helpers/processes.js';

/**
 * `parley run … | head -1`: the reader goes away early; the run must still finish and record everything,
 * and exit as a shell reports a closed pipe (141), so a cut output never passes for a complete one.
 */
describe('a command whose output reader goes away', () => {
  const t = tempDir('closed-output');
  afterAll(() => t.remove());

  it('finishes its run and every record, without an EPIPE stack trace, and exits 141', async () => {
    const out = join(t.path, 'run');
    const child = spawn(process.execPath, [PARLEY_BIN, 'run', '--scenarios', 'builtin', '--limit', '3', '--concurrency', '1', '--max-turns', '6', '--out', out], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    // Close our end of stdout at once: every line the command prints hits a pipe with no reader.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const [code] = (await once(child, 'close')) as [number | null];
    expect(stderr).not.toMatch(/EPIPE|Unhandled 'error'/);
    expect(code).toBe(141);
    const records = readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n');
    expect(records).toHaveLength(3); // --limit 3
  });
});
