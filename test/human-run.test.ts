import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parley } from './helpers/processes.js';
import { processSuite } from './helpers/process-suite.js';

/**
 * `parley run --agent1 human` (issue 13, contract 3): the human seat's browser line comes out within
 * 10 s, and the run waits for the person instead of failing the episode.
 */
describe('parley run --agent1 human', () => {
  const suite = processSuite('human-run');
  const { tmp, procs } = suite;

  it('prints the browser line for agent1 within 10 s and waits', async () => {
    const started = performance.now();
    const run = parley(['run', '--scenarios', 'builtin', '--modes', 'agents', '--agent1', 'human', '--limit', '1', '--out', join(tmp.path, 'run')]);
    procs.push(run);
    const [, token, url] = await run.line(/^seat agent1 token (\S+) url (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(url!.endsWith(`token=${token}`)).toBe(true);
    // The page is served at that URL.
    const res = await fetch(url!);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('/web/seat.js');
    // Still waiting for the person: no episode was failed for want of a move.
    expect(run.child.exitCode).toBeNull();
    expect(run.stdout.some((l) => /failed/.test(l) && !/0 failed/.test(l))).toBe(false);
    run.kill();
  });
});
