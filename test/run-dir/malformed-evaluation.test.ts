import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { episode, mfScenario, writeRunDir } from '../../evaluator/testing/fixtures.js';
import { parley, within } from '../helpers/processes.js';

/**
 * Issue 34, Contract 3: `EpisodeRecord.evaluation` has a schema, read through run-dir/. A malformed
 * evaluation line is a coded error naming the file and its line number in `report` and `eval` (the real
 * CLI, a child process each), never skipped in silence, and neither command writes anything.
 */
let dir: string;
const mf = mfScenario();
const good = episode({ scenario: mf, runId: 'r1' });
// A score that is not a number: what a hand edit or another tool's bug leaves behind.
const malformed = episode({
  scenario: mf,
  runId: 'r1',
  repeat: 1,
  evaluation: { v: 1, judge: { judge: { spec: 'openai:gpt-4', visibility: 'full', temperature: 0, promptVersion: 'p' }, evaluatedAt: 't', seats: { a: { ok: true, scores: { goal: { reasoning: 'r', score: 'ten' } } } }, calls: 1, usage: { prompt: 1, completion: 1 }, latencyMs: 1 } },
});

beforeAll(async () => {
  dir = await writeRunDir([mf], [good, malformed]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a malformed evaluation line', () => {
  it.each([
    ['report', ['report', '__DIR__', '--out', '__DIR__/report-out']],
    ['eval', ['eval', '__DIR__', '--judge', 'openai:gpt-4', '--missing']],
  ])('%s stops with run/bad_evaluation naming episodes.jsonl:2 and writes nothing', async (_name, args) => {
    const before = readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8');
    const cli = parley(args.map((a) => a.replace('__DIR__', dir)), { env: { ...process.env, OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } });
    const code = await within(cli.exited, 60_000, args[0]!, [cli]);
    const out = [...cli.stdout, ...cli.stderr].join('\n');
    expect(code).not.toBe(0);
    expect(out).toContain(`${path.join(dir, 'episodes.jsonl')}:2: run/bad_evaluation: field evaluation.judge.seats.a.scores.goal.score`);
    expect(readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8')).toBe(before);
    expect(existsSync(path.join(dir, 'report-out'))).toBe(false);
    expect(existsSync(path.join(dir, 'judgements.journal.jsonl'))).toBe(false);
  });
});
