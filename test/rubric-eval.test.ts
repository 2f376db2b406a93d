import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Evaluation } from '../evaluator/evaluation.js';
import { requestedDimensions, replyForSchema } from '../evaluator/testing/fake-judge.js';
import { clScenario, episode, mfScenario, openScenario, writeRunDir } from '../evaluator/testing/fixtures.js';
import { reply } from '../testkit/fake-llm-server.js';
import { parleyInProcess } from './helpers/in-process-parley.js';
import { agreedDealOr, judgeCliSuite, judgeSchemaOf } from './helpers/judge-cli-suite.js';
import { WARMTH_HONESTY_YAML } from '../evaluator/testing/rubrics.js';
import { cleanEnv } from './llm-run-helpers.js';

/**
 * Issue 24's contract 1, 3 and 4 as a user meets them: `parley eval --rubric FILE`, `--dry-run` and
 * `parley report` run in the test's process (testkit/in-process-cli.ts), the real `openai` SDK against the fake server on 127.0.0.1.
 */
const RUBRIC = WARMTH_HONESTY_YAML;

// Every judge answers in range from the schema it was sent, and adds goal when it was not asked for it.
// gpt-4o scores seat b one point higher than gpt-4 does, so a panel of the two disagrees a little.
const suite = judgeCliSuite(
  'parley-rubric-',
  agreedDealOr((req) => {
    const bump = req.body.model === 'gpt-4o' ? 1 : 0;
    const r = replyForSchema(judgeSchemaOf(req), (_d, seat, min, max) => (seat === 'a' ? max : Math.min(max, min + 1 + bump))) as { evaluations: Record<string, Record<string, unknown>> };
    for (const s of Object.values(r.evaluations)) s['goal'] ??= { reasoning: 'not asked unless it is', score: 10 };
    return reply.json(r);
  }),
);
const { tmp: files, cli: run } = suite;

/** A run directory of three judged-to-be episodes (open, MutualFriends, Craigslist) and a failed one. */
async function runDir(): Promise<string> {
  const [mf, cl, op] = [mfScenario(), clScenario(), openScenario()];
  return suite.keep(
    await writeRunDir(
      [mf, cl, op],
      [
        episode({ scenario: op, moves: [['a', 'speak', 'I am moving to Lisbon.'], ['b', 'speak', 'Oh! Can you lend me money?']] }),
        episode({ scenario: mf, moves: [['a', 'speak', 'Do you know Jane Doe?'], ['b', 'action', 'select Jane Doe']] }),
        episode({ scenario: cl, moves: [['a', 'speak', 'Would you take $70?'], ['b', 'speak', 'Deal.']] }),
        episode({ scenario: op, mode: 'script', moves: [['a', null]], status: 'failed' }),
      ],
    ),
  );
}

beforeAll(() => {
  writeFileSync(path.join(files.path, 'warmth.yaml'), RUBRIC);
  writeFileSync(path.join(files.path, 'inverted.yaml'), RUBRIC.replace('[0, 5]', '[5, 0]'));
  writeFileSync(path.join(files.path, 'unknown-key.yaml'), RUBRIC.replace('    range: [-3, 3]\n', '    range: [-3, 3]\n    weight: 2\n'));
});

describe('parley eval --rubric FILE (issue 24, contract 1)', () => {
  it('asks for exactly the rubric dimensions, stores exactly them in range, and the report has a column for each', async () => {
    const dir = await runDir();
    const before = suite.server.requests.length;
    const r = await run(['eval', dir, '--judge', 'openai:gpt-4', '--rubric', path.join(files.path, 'warmth.yaml')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('evaluated 3 episodes: 6 seats scored, 0 evaluation errors; 1 failed episodes not judged');
    const sent = suite.server.requests.slice(before);
    // One call per episode: a rubric file's judge gets no deal question.
    expect(sent).toHaveLength(3);
    for (const q of sent) {
      expect(q.body.model).toBe('gpt-4');
      expect(Object.values(requestedDimensions(judgeSchemaOf(q)))).toEqual([
        [['warmth', 0, 5], ['honesty', -3, 3]],
        [['warmth', 0, 5], ['honesty', -3, 3]],
      ]);
      expect(JSON.stringify(q.body)).not.toMatch(/believability|SOTOPIA-EVAL/);
    }
    const records = readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    for (const rec of records.slice(0, 3)) {
      const ev = Evaluation.parse(rec.evaluation);
      const j = ev.judge!;
      expect(j.judge).toMatchObject({ spec: 'openai:gpt-4', provider: 'openai', model: 'gpt-4', rubric: { name: 'warmth-honesty', hash: expect.stringMatching(/^[0-9a-f]{64}$/) } });
      for (const s of Object.values(j.seats)) {
        expect(s.ok).toBe(true);
        if (!s.ok) continue;
        expect(Object.keys(s.scores).sort()).toEqual(['honesty', 'warmth']);
        expect(s.scores['warmth']!.score).toBeGreaterThanOrEqual(0);
        expect(s.scores['warmth']!.score).toBeLessThanOrEqual(5);
        expect(s.scores['honesty']!.score).toBeGreaterThanOrEqual(-3);
        expect(s.scores['honesty']!.score).toBeLessThanOrEqual(3);
      }
    }
    const rep = await run(['report', dir]);
    expect(rep.code, rep.stderr).toBe(0);
    const md = readFileSync(path.join(dir, 'report.md'), 'utf8');
    expect(md).toContain('## Judge scores (rubric warmth-honesty)');
    expect(md).toMatch(/^\| mode \| models \| subset \| seats scored \| evaluation errors \| warmth \| honesty \|$/m);
    // Seat a scored 5 / 3 and seat b 1 / -2: per episode mean warmth 3, honesty 0.5.
    expect(md).toMatch(/^\| agents \| bot:a × bot:b \| all \| 6 \| 0 \| 3\.00 \[3\.00, 3\.00\] \(3\) \| 0\.50 \[0\.50, 0\.50\] \(3\) \|$/m);
    expect(md).toContain('Ranges: warmth [0, 5]; honesty [-3, 3].');
    expect(readdirSync(path.join(dir, 'charts')).filter((f) => f.startsWith('rubric-warmth-honesty-'))).toHaveLength(1);
    // The CSV: SOTOPIA-EVAL's columns stay empty, the rubric's dimensions get their own columns.
    const csv = path.join(dir, 'scores.csv');
    const ex = await run(['export', dir, '--format', 'csv', '--out', csv]);
    expect(ex.code, ex.stderr).toBe(0);
    const [header, ...rows] = readFileSync(csv, 'utf8').trim().split('\r\n').map((l) => l.split(','));
    const col = (n: string) => header!.indexOf(n);
    expect(col('warmth-honesty.warmth')).toBeGreaterThan(col('goal'));
    expect(rows.slice(0, 2).map((r) => [r[col('warmth-honesty.warmth')], r[col('warmth-honesty.honesty')], r[col('goal')]])).toEqual([['5', '3', ''], ['1', '-2', '']]);

    // Re-running with the same judge and rubric and --missing judges nothing again (resumable, idempotent).
    const again = await run(['eval', dir, '--judge', 'openai:gpt-4', '--rubric', path.join(files.path, 'warmth.yaml'), '--missing']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('evaluated 0 episodes');
    expect(again.stdout).toContain('3 already scored');
  });
});

describe('a judge panel (issue 24, contract 2)', () => {
  it("records both judges' scores apart with their provenance, and the report prints Krippendorff's alpha per dimension", async () => {
    const dir = await runDir();
    const before = suite.server.requests.length;
    const r = await run(['eval', dir, '--judge', 'openai:gpt-4', '--judge', 'openai:gpt-4o']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.match(/evaluated 3 episodes: 6 seats scored, 0 evaluation errors/g)).toHaveLength(2);
    const models = suite.server.requests.slice(before).map((q) => q.body.model);
    expect(models.filter((m) => m === 'gpt-4')).toHaveLength(4);
    expect(models.filter((m) => m === 'gpt-4o')).toHaveLength(4);
    const records = readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    for (const rec of records.slice(0, 3)) {
      const ev = Evaluation.parse(rec.evaluation);
      expect(Object.keys(ev.variants!).sort()).toEqual(['openai:gpt-4 full', 'openai:gpt-4o full']);
      for (const [key, model] of [['openai:gpt-4 full', 'gpt-4'], ['openai:gpt-4o full', 'gpt-4o']] as const) {
        const j = ev.variants![key]!;
        expect(j.judge).toMatchObject({ provider: 'openai', model, promptVersion: expect.any(String), rubric: { name: 'sotopia', hash: expect.stringMatching(/^[0-9a-f]{64}$/) } });
        const b = j.seats['b']!;
        expect(b.ok && b.scores['goal']!.score).toBe(model === 'gpt-4' ? 1 : 2);
      }
    }
    const rep = await run(['report', dir]);
    expect(rep.code, rep.stderr).toBe(0);
    expect(rep.stdout).toContain('judges on rubric sotopia (full, parley view): openai:gpt-4, openai:gpt-4o');
    const alphas = [...rep.stdout.matchAll(/^ {2}(\w+): Krippendorff's alpha (\S+)/gm)].map((m) => m[1]);
    expect(alphas).toEqual(['believability', 'relationship', 'knowledge', 'secret', 'social_rules', 'financial_and_material_benefits', 'goal']);
    // goal: seat a 10/10, seat b 1/2 in every episode → six seats, mean absolute difference 0.5.
    expect(rep.stdout).toMatch(/^ {2}goal: Krippendorff's alpha 0\.9\d\d \[[-\d.]+, [-\d.]+\], mean absolute difference 0\.50 \(6 seats\)$/m);
    const md = readFileSync(path.join(dir, 'report.md'), 'utf8');
    expect(md).toContain('## Judge panels and agreement');
    expect(md).toMatch(/^\| goal \| 6 \| 0\.9\d\d \[/m);

    // The same panel again with --missing: nothing left to judge for either judge.
    const again = await run(['eval', dir, '--judge', 'openai:gpt-4', '--judge', 'openai:gpt-4o', '--missing']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.match(/evaluated 0 episodes: .*3 already scored/g)).toHaveLength(2);
  });
});

describe('a broken rubric file (issue 24, contract 3)', () => {
  for (const [file, problem] of [
    ['inverted.yaml', /inverted\.yaml:4: dimensions\.0\.range: minimum 5 exceeds maximum 0$/],
    ['unknown-key.yaml', /unknown-key\.yaml:8: dimensions\.1\.weight: unknown key 'weight'$/],
  ] as const) {
    it(`${file}: one line naming the file and the problem, exit status 2, no record changed, nothing sent`, async () => {
      const dir = await runDir();
      const records = readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8');
      const before = suite.server.requests.length;
      const r = await run(['eval', dir, '--judge', 'openai:gpt-4', '--rubric', path.join(files.path, file)]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr.trim()).toMatch(problem);
      expect(r.stderr).toContain(path.join(files.path, file));
      expect(r.stdout).toBe('');
      expect(readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8')).toBe(records);
      expect(suite.server.requests.length).toBe(before);
    });
  }
});

describe('rubric: in an experiment file', () => {
  it('is checked when the run starts (exit 2, one line), recorded with the run, and what eval scores by default', async () => {
    const bad = path.join(files.path, 'bad-experiment.yaml');
    writeFileSync(bad, `rubric: inverted.yaml\nmodes: agents\nlimit: 1\nout: ${path.join(files.path, 'never')}\n`);
    const refused = await parleyInProcess(['run', '--experiment', bad], { cwd: files.path, env: cleanEnv() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toEqual(['parley run: inverted.yaml:4: dimensions.0.range: minimum 5 exceeds maximum 0']);
    expect(existsSync(path.join(files.path, 'never'))).toBe(false);

    const good = path.join(files.path, 'experiment.yaml');
    const dir = path.join(files.path, 'exp-run');
    writeFileSync(good, `rubric: warmth.yaml\nmodes: agents\nlimit: 1\nout: ${dir}\n`);
    const ran = await parleyInProcess(['run', '--experiment', good], { cwd: files.path, env: cleanEnv() });
    expect(ran.code, ran.stderr.join('\n')).toBe(0);
    // The recorded rubric is a path chosen by a run directory (untrusted): refused until the user allows it.
    const recorded = (JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as { config: { rubric: string } }).config.rubric;
    const before = suite.server.requests.length;
    const unallowed = await run(['eval', dir, '--judge', 'openai:gpt-4']);
    expect(unallowed.code).toBe(2);
    expect(unallowed.stderr).toContain(`--allow-path ${recorded}`);
    expect(suite.server.requests.length).toBe(before);
    // From another directory, eval finds the run's rubric (recorded as an absolute path) once allowed.
    const r = await run(['eval', dir, '--judge', 'openai:gpt-4', '--allow-path', recorded]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('rubric warmth-honesty');
    expect(suite.server.requests.length).toBe(before + 1);
    for (const q of suite.server.requests.slice(before)) expect(Object.values(requestedDimensions(judgeSchemaOf(q))).flat().map(([d]) => d)).toEqual(['warmth', 'honesty', 'warmth', 'honesty']);
  });
});

describe('parley eval --dry-run (issue 24, contract 4)', () => {
  it('prints the judge calls, tokens and cost per judge and sends no request', async () => {
    const dir = await runDir();
    const records = readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8');
    const before = suite.server.requests.length;
    const r = await run(['eval', dir, '--judge', 'openai:gpt-4', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    // Default rubric: one scoring call per ok episode, plus the Craigslist deal question.
    expect(r.stdout).toMatch(/^judge openai:gpt-4: 4 judge calls \(3 episodes\), ~\d+ prompt \+ ~\d+ completion tokens, ~\$\d+\.\d{4}$/m);
    expect(r.stdout).toContain('no request sent');
    expect(suite.server.requests.length).toBe(before);
    expect(readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8')).toBe(records);

    const panel = await run(['eval', dir, '--judge', 'openai:gpt-4', '--judge', 'openai:gpt-4o', '--rubric', path.join(files.path, 'warmth.yaml'), '--dry-run']);
    expect(panel.code, panel.stderr).toBe(0);
    const calls = [...panel.stdout.matchAll(/^judge (\S+): (\d+) judge calls/gm)].map((m) => [m[1], Number(m[2])]);
    expect(calls).toEqual([['openai:gpt-4', 3], ['openai:gpt-4o', 3]]);
    expect(panel.stdout).toMatch(/^panel: 6 judge calls, ~\d+ prompt \+ ~\d+ completion tokens, ~\$\d+\.\d{4}$/m);
    // The same requests cost more on gpt-4 than on gpt-4o: the cost is priced per judge.
    const usd = [...panel.stdout.matchAll(/^judge \S+: .*~\$(\d+\.\d+)$/gm)].map((m) => Number(m[1]));
    expect(usd[0]!).toBeGreaterThan(usd[1]!);
    expect(suite.server.requests.length).toBe(before);
  });
});
