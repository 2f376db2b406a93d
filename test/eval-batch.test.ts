import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../testkit/fake-llm-server.js';
import { parleyInProcess } from './helpers/in-process-parley.js';
import { batchRunSuite } from './helpers/batch-run-suite.js';
import { parley, within } from './helpers/processes.js';
import { CLI_GUARD_MS } from './setup/guards.js';
import { botRunFixture, copyOf } from './helpers/run-fixture.js';
import { cleanEnv, killWhileBatchPending } from './llm-run-helpers.js';

/**
 * Issue 27's contract 1: `parley eval R --judge openai:gpt-4 --batch` against the fake OpenAI-compatible
 * server's /v1/files and /v1/batches, through the real `openai` SDK in a child process — killed while
 * its batch is pending and started again, it submits no second batch and collects the results into the
 * same records as a live eval.
 */
const suite = batchRunSuite('eval-batch', ['--modes', 'agents', '--limit', '3']);
const { tmp, copyOfRun, uploads, liveRequests } = suite;

const runJson = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as { evalBatches?: Array<{ id: string | null; inputFileId: string; collectedAt?: string; round: number }> };
const records = (dir: string) =>
  readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { episodeId: string; evaluation?: { judge?: { seats: Record<string, { ok: boolean }> } } });

/** A value's form: its keys and the types of its leaves, not the values (scores, reasoning, times differ). */
function shapeOf(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(shapeOf);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, shapeOf(x)]));
  return typeof v;
}

const evalCli = (dir: string, extra: string[] = []) => suite.command(['eval', dir, '--judge', 'openai:gpt-4', ...extra], 'parley eval');

describe('parley eval --batch', () => {
  it('killed while its batch is pending, the same command collects that batch and scores every seat like a live eval', async () => {
    const dir = copyOfRun('killed');
    await killWhileBatchPending(suite.server, ['eval', dir, '--judge', 'openai:gpt-4', '--batch', '--batch-poll', '0.05'], 'openai:gpt-4', () => {
      // Pending: the batch exists on the server, run.json names it, and the command is polling it.
      expect(suite.server.batches.batches).toHaveLength(1);
      expect(runJson(dir).evalBatches?.map((b) => b.id)).toEqual([suite.server.batches.batches[0]!.id]);
    });
    expect(records(dir).every((r) => !r.evaluation)).toBe(true);
    const again = await evalCli(dir, ['--batch', '--batch-poll', '0.05']);
    expect(again.code, again.out).toBe(0);
    expect(again.out).toMatch(/resuming batch batch_fake1 recorded in run\.json/);
    expect(again.out).toMatch(/batch batch_fake1 \(openai:gpt-4\): completed · 3\/3 requests done · 0 failed/);
    expect(again.out).toMatch(/judge requests: 3 answered by the batch \(~\$\d+\.\d{4} at the batch price\), 0 sent live/);
    // One upload, one batch, every request answered by it, nothing sent live.
    expect(uploads()).toHaveLength(1);
    expect(suite.server.batches.batches).toHaveLength(1);
    expect(suite.server.requests.filter((r) => r.viaBatch)).toHaveLength(3);
    expect(liveRequests()).toHaveLength(0);
    const batches = runJson(dir).evalBatches!;
    expect(batches).toHaveLength(1);
    expect(batches[0]!.collectedAt).toBeTruthy();
    const batched = records(dir);
    expect(batched).toHaveLength(3);
    for (const r of batched) expect(Object.values(r.evaluation!.judge!.seats).map((s) => s.ok)).toEqual([true, true]);

    // A live eval of the same run writes records of the same form.
    const liveDir = copyOfRun('live');
    const live = await evalCli(liveDir);
    expect(live.code, live.out).toBe(0);
    expect(liveRequests().length).toBeGreaterThanOrEqual(3);
    const liveRecords = records(liveDir);
    expect(liveRecords.map((r) => r.episodeId)).toEqual(batched.map((r) => r.episodeId));
    expect(batched.map((r) => shapeOf(r))).toEqual(liveRecords.map((r) => shapeOf(r)));
  });

  it('a resumed parley run keeps the judge batches recorded in run.json', async () => {
    const dir = path.join(tmp.path, 'killed');
    const before = runJson(dir).evalBatches;
    expect(before).toHaveLength(1);
    const rerun = await within(parleyInProcess(['run', '--scenarios', 'builtin', '--modes', 'agents', '--limit', '3', '--out', dir], { env: cleanEnv() }), CLI_GUARD_MS, 'parley run (resume)');
    expect(rerun.code, rerun.stderr.join('\n')).toBe(0);
    expect(runJson(dir).evalBatches).toEqual(before);
  });

  it('a mistral: judge goes through Mistral batch jobs, killed and resumed the same way', async () => {
    const dir = copyOfRun('mistral');
    const batchesBefore = suite.server.batches.batches.length;
    const uploadsBefore = uploads().length;
    const liveBefore = liveRequests().length;
    suite.server.batches.hold();
    // The fake judge reads the seats to score from a JSON schema; Mistral's default is JSON mode.
    const args = ['eval', dir, '--judge', 'mistral:mistral-large-latest', '--param', 'structuredOutput=json_schema', '--batch', '--batch-poll', '0.05'];
    const first = parley(args, { env: cleanEnv(suite.server.env()) });
    try {
      await within(first.line(/batch \S+ \(mistral:mistral-large-latest\): in_progress · 0\/3 requests done/), 30_000, 'the Mistral batch job running', [first]);
    } finally {
      first.kill();
    }
    await first.exited;
    suite.server.batches.release();
    const again = await within(parleyInProcess(args, { env: cleanEnv(suite.server.env()) }), CLI_GUARD_MS, 'parley eval (mistral, resumed)');
    const code = again.code;
    const out = [...again.stdout, ...again.stderr].join('\n');
    expect(code, out).toBe(0);
    const mine = suite.server.batches.batches.slice(batchesBefore);
    expect(mine.map((b) => [b.flavour, b.model, b.status])).toEqual([['mistral', 'mistral-large-latest', 'completed']]);
    expect(uploads().length - uploadsBefore).toBe(1);
    expect(liveRequests().length).toBe(liveBefore);
    expect(runJson(dir).evalBatches!.map((b) => b.id)).toEqual([mine[0]!.id]);
    // Mistral's input lines: custom_id and body, the model named on the job only.
    const lines = suite.server.fineTuning.files.find((f) => f.id === mine[0]!.inputFileId)!.content.trim().split('\n').map((l) => JSON.parse(l) as Record<string, { model?: string }>);
    expect(lines.map((l) => [Object.keys(l).sort(), l['body']!.model])).toEqual(lines.map(() => [['body', 'custom_id'], undefined]));
    for (const r of records(dir)) expect(Object.values(r.evaluation!.judge!.seats).map((s) => s.ok)).toEqual([true, true]);
  });

  it("sends Craigslist episodes' deal questions in the same batch, under both judge views, and records the deal as a live eval does", async () => {
    // Built once with test/probe.test.ts's Craigslist run (helpers/run-fixture.ts); each view judges a copy.
    const cl = await botRunFixture(['--subset', 'craigslist_bargains', '--modes', 'agents', '--limit', '2']);
    for (const view of ['parley', 'paper']) {
      const dir = copyOf(cl, path.join(tmp.path, `CL-${view}`));
      const batchesBefore = suite.server.batches.batches.length;
      const liveBefore = liveRequests().length;
      const r = await evalCli(dir, ['--judge-view', view, '--batch', '--batch-poll', '0.05']);
      expect(r.code, r.out).toBe(0);
      // Two requests per episode, the judge call and the deal question, all in the one batch; nothing live.
      expect(r.out).toMatch(/judge requests: 4 answered by the batch .*, 0 sent live/);
      const mine = suite.server.batches.batches.slice(batchesBefore);
      expect(mine).toHaveLength(1);
      const lines = suite.server.fineTuning.files.find((f) => f.id === mine[0]!.inputFileId)!.content.trim().split('\n');
      expect(lines.filter((l) => l.includes('reached a deal'))).toHaveLength(2);
      expect(liveRequests().length).toBe(liveBefore);
      for (const x of records(dir) as Array<{ evaluation?: { judge?: { deal?: { ok: boolean }; calls: number } } }>) {
        expect(x.evaluation?.judge?.deal?.ok).toBe(true);
        expect(x.evaluation?.judge?.calls).toBe(2);
      }
    }
  });

  it('--dry-run --batch prices the calls at the batch price and sends nothing', async () => {
    const before = suite.server.requests.length;
    const uploadsBefore = uploads().length;
    const r = await evalCli(suite.run, ['--batch', '--dry-run']);
    expect(r.code, r.out).toBe(0);
    const m = /~\$(\d+\.\d+) at the batch price \(half of ~\$(\d+\.\d+) live\)/.exec(r.out);
    expect(m, r.out).not.toBeNull();
    expect(Number(m![1])).toBeCloseTo(Number(m![2]) / 2, 4);
    expect(suite.server.requests.length).toBe(before);
    expect(uploads().length).toBe(uploadsBefore);
  });

  it('retries a request the batch failed live by default, or in a new batch with --batch-retry batch', async () => {
    suite.server.batches.release();
    const liveBefore = liveRequests().length;
    const batchesBefore = suite.server.batches.batches.length;
    suite.server.enqueue(reply.serverError(500)); // the first line of the next batch fails
    const dir = copyOfRun('retry-live');
    const r = await evalCli(dir, ['--batch', '--batch-poll', '0.05']);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/completed · 2\/3 requests done · 1 failed/);
    expect(r.out).toMatch(/retrying them live/);
    expect(suite.server.batches.batches.length - batchesBefore).toBe(1);
    expect(liveRequests().length - liveBefore).toBe(1);
    expect(r.out).toContain('6 seats scored, 0 evaluation errors');

    suite.server.enqueue(reply.serverError(500));
    const dir2 = copyOfRun('retry-batch');
    const liveBefore2 = liveRequests().length;
    const r2 = await evalCli(dir2, ['--batch', '--batch-poll', '0.05', '--batch-retry', 'batch']);
    expect(r2.code, r2.out).toBe(0);
    expect(r2.out).toMatch(/submitting them in a new batch/);
    expect(suite.server.batches.batches.length - batchesBefore).toBe(3);
    expect(liveRequests().length).toBe(liveBefore2);
    expect(runJson(dir2).evalBatches!.map((b) => [b.round, !!b.collectedAt])).toEqual([[0, true], [1, true]]);
    expect(r2.out).toContain('6 seats scored, 0 evaluation errors');
    for (const x of records(dir2)) expect(Object.values(x.evaluation!.judge!.seats).map((s) => s.ok)).toEqual([true, true]);
  });
});
