import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { evaluateRun } from './evaluate-run.js';
import { loadRunDir } from './run-dir.js';
import { requestedSeats, ScriptedClient, validReply } from './testing/fake-judge.js';
import { episode, mfScenario, openScenario, writeRunDir } from './testing/fixtures.js';
import { RunPaths } from '../run-dir/index.js';
import { fixtureLock } from '../run-dir/testing/held-lock.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function load(dir: string) {
  dirs.push(dir);
  const r = await loadRunDir(dir);
  if (!r.ok) throw new Error(r.error.message);
  return r.run;
}

describe('evaluateRun', () => {
  it('judges ok episodes, skips failed ones, and with --missing only redoes what is not scored', async () => {
    const mf = mfScenario();
    const op = openScenario();
    const dir = await writeRunDir([mf, op], [episode({ scenario: mf, moves: [['a', 'speak', 'hi']] }), episode({ scenario: op, moves: [['a', 'speak', 'hello']] }), episode({ scenario: op, mode: 'script', status: 'failed' })]);
    // First pass: the open scenario's judge answers garbage twice → evaluation error.
    const first = new ScriptedClient((req) => (req.messages.at(-1)!.content.includes('share a meal') ? 'garbage' : JSON.stringify(validReply(requestedSeats(req)))));
    const progress: number[] = [];
    const r1 = await evaluateRun(await load(dir), { lock: fixtureLock(new RunPaths(dir)), client: first, spec: 'openai:gpt-4', visibility: 'full', concurrency: 2, checkpointEvery: 1, checkpointMs: 0, onProgress: (p) => progress.push(p.done) });
    expect(r1).toMatchObject({ judged: 2, skippedFailed: 1, scoredSeats: 2, errorSeats: 2, errors: { 'judge/bad_json': 2 } });
    expect(progress.sort()).toEqual([1, 2]);
    const lines = (await readFile(path.join(dir, 'episodes.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0].evaluation.judge.seats.a.ok).toBe(true);
    expect(lines[1].evaluation.judge.seats.a).toMatchObject({ ok: false, error: { code: 'judge/bad_json' } });
    expect(lines[2].evaluation).toBeUndefined();

    // Second pass with --missing: only the episode whose evaluation failed is judged again.
    const second = new ScriptedClient((req) => JSON.stringify(validReply(requestedSeats(req))));
    const r2 = await evaluateRun(await load(dir), { lock: fixtureLock(new RunPaths(dir)), client: second, spec: 'openai:gpt-4', visibility: 'full', concurrency: 1, missingOnly: true });
    expect(r2).toMatchObject({ judged: 1, skippedDone: 1, skippedFailed: 1, scoredSeats: 2, errorSeats: 0 });
    expect(second.requests).toHaveLength(1);
    // A different judge (or visibility) is not "done": --missing judges again.
    const r3 = await evaluateRun(await load(dir), { lock: fixtureLock(new RunPaths(dir)), client: second, spec: 'openai:gpt-4', visibility: 'blind', concurrency: 1, missingOnly: true });
    expect(r3.judged).toBe(2);
  });
});
