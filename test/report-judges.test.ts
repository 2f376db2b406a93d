import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { episode, openScenario, writeRunDir } from '../evaluator/testing/fixtures.js';
import { judgeCliSuite, judgeInRange } from './helpers/judge-cli-suite.js';

/**
 * Issue 38's report fixes as a user meets them (contract 4 first): a run judged only with a custom rubric
 * says nothing of "no judge scores yet" and draws no empty chart; every score table names its judge and
 * rubric; a combined report of runs judged by different models prints no panel lines, and its card lists
 * both judges.
 */
const suite = judgeCliSuite('parley-report-judges-', judgeInRange((_d, _seat, min, max) => Math.round((min + max) / 2)));
const { tmp: work, cli: run } = suite;

async function openRun(): Promise<string> {
  const scenarios = [openScenario('o-1'), openScenario('o-2')];
  return suite.keep(await writeRunDir(scenarios, scenarios.map((s) => episode({ scenario: s, moves: [['a', 'speak', 'I am moving.'], ['b', 'speak', 'Oh no.']] }))));
}

beforeAll(() => {
  writeFileSync(path.join(work.path, 'warmth.yaml'), 'name: warmth\ndimensions:\n  - name: warmth\n    range: [0, 5]\n    criteria: How warm the character is.\n');
});

describe('report fixes (issue 38)', () => {
  it('contract 4: a run judged only with a custom rubric has no "no judge scores yet" and no empty chart', async () => {
    const dir = await openRun();
    const ev = await run(['eval', dir, '--judge', 'openai:gpt-4', '--rubric', path.join(work.path, 'warmth.yaml')]);
    expect(ev.code, ev.stderr).toBe(0);
    const rep = await run(['report', dir]);
    expect(rep.code, rep.stderr).toBe(0);
    const html = readFileSync(path.join(dir, 'report.html'), 'utf8');
    expect(html).not.toMatch(/no judge scores yet/i);
    // An empty chart draws its note instead of bars (class no-data): none in the report.
    expect(html).toContain('<svg');
    expect(html).not.toContain('class="no-data"');
    for (const empty of ['no task scenarios', 'no MutualFriends episodes', 'no Craigslist episodes']) expect(html).not.toContain(empty);
    const md = readFileSync(path.join(dir, 'report.md'), 'utf8');
    // The rubric's table names its judge and its rubric.
    expect(md).toMatch(/## Judge scores \(rubric warmth\)\n\nJudge: `openai:gpt-4` \(full\) on 2 episodes; rubric warmth `[0-9a-f]{12}`\./);
  });

  it('a combined report of runs judged by different models: no panel lines, every judge on the card, each table naming its judges', async () => {
    const [a, b] = [await openRun(), await openRun()];
    expect((await run(['eval', a, '--judge', 'openai:gpt-4'])).code).toBe(0);
    expect((await run(['eval', b, '--judge', 'openai:gpt-4o'])).code).toBe(0);
    const out = path.join(work.path, 'combined');
    const rep = await run(['report', a, b, '--out', out]);
    expect(rep.code, rep.stderr).toBe(0);
    expect(rep.stdout).not.toMatch(/undefined|no variation|judges on rubric/);
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md).not.toContain('## Judge panels and agreement');
    expect(md).toMatch(/Judge: `openai:gpt-4` \(full\) on 2 episodes, `openai:gpt-4o` \(full\) on 2 episodes; rubric sotopia \(SOTOPIA-EVAL\)\./);
    const card = md.slice(md.indexOf('## Simulation card'));
    expect(card).toContain('**Judges**');
    expect(card).toContain('`openai:gpt-4` (model gpt-4), rubric sotopia');
    expect(card).toContain('`openai:gpt-4o` (model gpt-4o), rubric sotopia');
    // The card names the runs by their folders' names, never a local path.
    expect(card).not.toContain(path.dirname(a));

    // Both judges on the same run: a panel, with its lines.
    expect((await run(['eval', a, '--judge', 'openai:gpt-4o'])).code).toBe(0);
    const panel = await run(['report', a]);
    expect(panel.stdout).toMatch(/judges on rubric sotopia \(full, parley view\): openai:gpt-4, openai:gpt-4o/);
  });
});
