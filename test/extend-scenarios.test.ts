import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeLlmSuite } from './helpers/fake-llm-suite.js';
import { parleyInProcess } from './helpers/in-process-parley.js';
import { botRunFixture, copyOf } from './helpers/run-fixture.js';
import { cleanEnv } from './llm-run-helpers.js';

/**
 * Issue 37, contract 1: `run --extend` keeps every scenario any episode of the run uses. The 20 built-in
 * scenarios, then an extend over MutualFriends (nothing new), then one over Craigslist (two repeats):
 * scenarios.jsonl holds all 20, eval finds every scenario, the report has both subsets' rows. A run whose
 * file lacks some is refused once, naming them, and `--extend --repair-scenarios` puts them back.
 */
const suite = fakeLlmSuite('extend-scenarios');
const { tmp } = suite;

async function cli(args: string[]) {
  // In this process (testkit/in-process-cli.ts): what is checked is what the commands print and write.
  const p = await parleyInProcess(args, { env: cleanEnv(suite.server.env()) });
  return { code: p.code, out: [...p.stdout, ...p.stderr].join('\n') };
}

const scenarioIds = (dir: string) => readFileSync(join(dir, 'scenarios.jsonl'), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id);

describe('run --extend keeps every scenario', () => {
  const dir = join(tmp.path, 'r');

  it('holds all 20 after two extends over other subsets; eval and report find them all', async () => {
    // The first invocation (script and agents episodes of the 20 built-in scenarios, multiplexed: this is
    // about the run's scenarios, not about one seat per process) is the run test/eval-interrupt.test.ts and
    // compare-interrupt judge, built once for the three (helpers/run-fixture.ts); this test extends a copy.
    copyOf(await botRunFixture(['--modes', 'script,agents', '--multiplex']), dir);
    const mf = await cli(['run', '--scenarios', 'builtin', '--out', dir, '--extend', '--subset', 'mutual_friends', '--modes', 'script,agents']);
    expect(mf.code).toBe(0);
    // Nothing new to run: every one of the 40 records is from the first invocation.
    expect(mf.out).toMatch(/40 episode\(s\) recorded in .* \(40 from an earlier invocation\)/);
    // Craigslist's second repeat of script and agents, both repeats of mindreaders: 40 new.
    const cl = await cli(['run', '--scenarios', 'builtin', '--out', dir, '--extend', '--subset', 'craigslist_bargains', '--repeats', '2', '--multiplex']);
    expect(cl.code).toBe(0);
    expect(cl.out).toMatch(/80 episode\(s\) recorded in .* \(40 from an earlier invocation\)/);
    const ids = scenarioIds(dir);
    expect(ids).toHaveLength(20);
    expect(ids.filter((id) => id.includes('-mf-'))).toHaveLength(10);

    const judged = await cli(['eval', dir, '--judge', 'openai:gpt-4']);
    expect(judged.code, judged.out).toBe(0);
    expect(judged.out).toContain('0 evaluation errors');
    expect(readFileSync(join(dir, 'episodes.jsonl'), 'utf8')).not.toContain('judge/missing_scenario');
    expect((await cli(['report', dir])).code).toBe(0);
    const report = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(report).toMatch(/\| agents \| bot × bot \| mutual_friends \| 20 \| 0 \|/);
    expect(report).toMatch(/\| agents \| bot × bot \| craigslist_bargains \| 40 \| 0 \|/);
  }, 240_000);

  it('refuses a run whose scenarios.jsonl lacks some, once, naming them; --extend --repair-scenarios restores them', async () => {
    // A run written before extends kept scenarios: its file holds only the last invocation's.
    const kept = readFileSync(join(dir, 'scenarios.jsonl'), 'utf8').split('\n').filter((l) => l && !l.includes('"builtin-mf-'));
    writeFileSync(join(dir, 'scenarios.jsonl'), kept.join('\n') + '\n');
    const before = readFileSync(join(dir, 'episodes.jsonl'), 'utf8');
    const judged = await cli(['eval', dir, '--judge', 'openai:gpt-4', '--missing']);
    expect(judged.code).toBe(1);
    expect(judged.out).toMatch(/scenarios\.jsonl lacks 10 scenario\(s\) that recorded episodes use \(builtin-mf-01, .* and 5 more\); restore them .*--extend --repair-scenarios/);
    expect(readFileSync(join(dir, 'episodes.jsonl'), 'utf8')).toBe(before);
    const run = await cli(['run', '--scenarios', 'builtin', '--out', dir, '--extend', '--subset', 'craigslist_bargains']);
    expect(run.code).toBe(1);
    expect(run.out).toContain('lacks 10 scenario(s)');
    expect(scenarioIds(dir)).toHaveLength(10);
    const repaired = await cli(['run', '--out', dir, '--scenarios', 'builtin', '--extend', '--repair-scenarios']);
    expect(repaired.code, repaired.out).toBe(0);
    expect(scenarioIds(dir).sort()).toEqual(expect.arrayContaining(['builtin-mf-01', 'builtin-mf-10']));
    expect(scenarioIds(dir)).toHaveLength(20);
  });
});
