import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../testkit/fake-llm-server.js';
import { batchRunSuite } from './helpers/batch-run-suite.js';
import { killWhileBatchPending } from './llm-run-helpers.js';

/**
 * Issue 27 for `parley compare`: `compare A A --mode-a script --mode-b agents --judge SPEC --batch` against
 * the fake server's /v1/files and /v1/batches (and Mistral's /v1/batch/jobs), through the real SDKs in a
 * child process — killed while its batch is pending and started again, it submits no second batch and
 * writes the same verdicts a live compare writes.
 */
const suite = batchRunSuite('compare-batch', ['--modes', 'script,agents', '--limit', '6']);
const { tmp, copyOfRun, uploads, liveRequests } = suite;
const VERDICTS = 'compare-script-vs-agents.jsonl';

type Recorded = { id: string | null; inputFileId: string; collectedAt?: string; round: number; status: string; customIds: string[] };
const record = (dir: string) => JSON.parse(readFileSync(path.join(dir, `${VERDICTS}.batch.json`), 'utf8')) as { v: number; batches: Recorded[] };
const verdicts = (dir: string) =>
  readFileSync(path.join(dir, VERDICTS), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { key: string; ok: boolean; judge: string });
// One order per pair here (three requests); the last test batches both orders.
const args = (dir: string, judge: string, extra: string[] = [], orders = 'one') => ['compare', dir, dir, '--mode-a', 'script', '--mode-b', 'agents', '--judge', judge, '--orders', orders, ...extra];

const compareCli = (argv: string[]) => suite.command(argv, 'parley compare');

describe('parley compare --batch', () => {
  it('killed while its batch is pending, the same command collects that batch and writes the verdicts of a live compare', async () => {
    const dir = copyOfRun('killed');
    const batchesBefore = suite.server.batches.batches.length;
    const uploadsBefore = uploads().length;
    const liveBefore = liveRequests().length;
    await killWhileBatchPending(suite.server, [...args(dir, 'openai:gpt-4'), '--batch', '--batch-poll', '0.05'], 'openai:gpt-4');
    // Pending: one batch on the server, its id recorded beside the verdicts file, no verdicts yet.
    const mine = () => suite.server.batches.batches.slice(batchesBefore);
    expect(mine()).toHaveLength(1);
    expect(record(dir).batches.map((b) => [b.id, !!b.collectedAt])).toEqual([[mine()[0]!.id, false]]);
    expect(existsSync(path.join(dir, VERDICTS))).toBe(false);

    const again = await compareCli([...args(dir, 'openai:gpt-4'), '--batch', '--batch-poll', '0.05']);
    expect(again.code, again.out).toBe(0);
    const id = mine()[0]!.id;
    expect(again.out).toContain(`resuming batch ${id} recorded in ${path.join(dir, VERDICTS)}.batch.json (3 requests): not submitting another`);
    expect(again.out).toContain(`batch ${id} (openai:gpt-4): completed · 3/3 requests done · 0 failed`);
    expect(again.out).toMatch(/naturalness requests: 3 answered by the batch \(~\$\d+\.\d{4} at the batch price\), 0 sent live/);
    // One upload, one batch, every request answered by it, nothing live.
    expect(uploads().length - uploadsBefore).toBe(1);
    expect(mine()).toHaveLength(1);
    expect(suite.server.requests.filter((r) => r.viaBatch && r.body.model === 'gpt-4')).toHaveLength(3);
    expect(liveRequests().length).toBe(liveBefore);
    expect(record(dir).batches.map((b) => [b.id, b.status, !!b.collectedAt])).toEqual([[id, 'completed', true]]);
    const batched = verdicts(dir);
    expect(batched).toHaveLength(3);
    expect(batched.every((v) => v.ok && v.judge === 'openai:gpt-4')).toBe(true);

    // A live compare of the same runs writes the very same verdicts (the fake judge answers alike).
    const liveDir = copyOfRun('live');
    const live = await compareCli(args(liveDir, 'openai:gpt-4'));
    expect(live.code, live.out).toBe(0);
    expect(liveRequests().length - liveBefore).toBe(3);
    expect(existsSync(path.join(liveDir, `${VERDICTS}.batch.json`))).toBe(false);
    expect(verdicts(liveDir)).toEqual(batched);
  });

  it('a mistral: judge goes through Mistral batch jobs, killed and resumed the same way (the paper question)', async () => {
    const dir = copyOfRun('mistral');
    const batchesBefore = suite.server.batches.batches.length;
    const uploadsBefore = uploads().length;
    const liveBefore = liveRequests().length;
    const argv = [...args(dir, 'mistral:mistral-large-latest', ['--protocol', 'paper']), '--batch', '--batch-poll', '0.05'];
    await killWhileBatchPending(suite.server, argv, 'mistral:mistral-large-latest');
    const again = await compareCli(argv);
    expect(again.code, again.out).toBe(0);
    const mine = suite.server.batches.batches.slice(batchesBefore);
    expect(mine.map((b) => [b.flavour, b.model, b.status])).toEqual([['mistral', 'mistral-large-latest', 'completed']]);
    expect(uploads().length - uploadsBefore).toBe(1);
    expect(liveRequests().length).toBe(liveBefore);
    expect(record(dir).batches.map((b) => b.id)).toEqual([mine[0]!.id]);
    // Mistral's input lines: custom_id and body, the model named on the job only; the paper question has no response_format.
    const lines = suite.server.fineTuning.files.find((f) => f.id === mine[0]!.inputFileId)!.content.trim().split('\n').map((l) => JSON.parse(l) as Record<string, Record<string, unknown>>);
    expect(lines.map((l) => [Object.keys(l).sort(), l['body']!['model'], l['body']!['response_format']])).toEqual(lines.map(() => [['body', 'custom_id'], undefined, undefined]));
    const batched = verdicts(dir);
    expect(batched.map((v) => [v.ok, v.judge])).toEqual(batched.map(() => [true, 'mistral:mistral-large-latest']));
    const live = await compareCli(args(copyOfRun('mistral-live'), 'mistral:mistral-large-latest', ['--protocol', 'paper']));
    expect(live.code, live.out).toBe(0);
    expect(verdicts(path.join(tmp.path, 'mistral-live'))).toEqual(batched);
  });

  it('asks a request the batch failed live by default, or in a new batch with --batch-retry batch', async () => {
    const batchesBefore = suite.server.batches.batches.length;
    suite.server.enqueue(reply.serverError(500)); // the first line of the next batch fails
    const dir = copyOfRun('retry-live');
    const liveBefore = liveRequests().length;
    const r = await compareCli([...args(dir, 'openai:gpt-4'), '--batch', '--batch-poll', '0.05']);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/completed · 2\/3 requests done · 1 failed/);
    expect(r.out).toMatch(/1 requests failed or went unanswered; asking them live/);
    expect(r.out).toMatch(/naturalness requests: 2 answered by the batch .*, 1 sent live/);
    expect(suite.server.batches.batches.length - batchesBefore).toBe(1);
    expect(liveRequests().length - liveBefore).toBe(1);
    expect(verdicts(dir).every((v) => v.ok)).toBe(true);

    suite.server.enqueue(reply.serverError(500));
    const dir2 = copyOfRun('retry-batch');
    const liveBefore2 = liveRequests().length;
    const r2 = await compareCli([...args(dir2, 'openai:gpt-4'), '--batch', '--batch-poll', '0.05', '--batch-retry', 'batch']);
    expect(r2.code, r2.out).toBe(0);
    expect(r2.out).toMatch(/submitting them in a new batch/);
    expect(r2.out).toMatch(/naturalness requests: 3 answered by the batch .*, 0 sent live/);
    expect(suite.server.batches.batches.length - batchesBefore).toBe(3);
    expect(liveRequests().length).toBe(liveBefore2);
    expect(record(dir2).batches.map((b) => [b.round, b.customIds.length, !!b.collectedAt])).toEqual([[0, 3, true], [1, 1, true]]);
    expect(verdicts(dir2).every((v) => v.ok)).toBe(true);
  });

  it('--orders both batches two requests per pair, one in each order, and writes the verdicts of a live compare', async () => {
    const dir = copyOfRun('both');
    const batchesBefore = suite.server.batches.batches.length;
    const liveBefore = liveRequests().length;
    const r = await compareCli([...args(dir, 'openai:gpt-4', [], 'both'), '--batch', '--batch-poll', '0.05']);
    expect(r.code, r.out).toBe(0);
    const mine = suite.server.batches.batches.slice(batchesBefore);
    expect(mine).toHaveLength(1);
    expect(record(dir).batches[0]!.customIds).toHaveLength(6);
    expect(liveRequests().length).toBe(liveBefore);
    const batched = verdicts(dir) as unknown as { presentations: { aShownFirst: boolean }[] }[];
    expect(batched.map((v) => v.presentations.map((p) => p.aShownFirst).sort())).toEqual(batched.map(() => [false, true]));
    const liveDir = copyOfRun('both-live');
    const live = await compareCli(args(liveDir, 'openai:gpt-4', [], 'both'));
    expect(live.code, live.out).toBe(0);
    expect(liveRequests().length - liveBefore).toBe(6);
    expect(verdicts(liveDir)).toEqual(batched);
  });

  it('refuses --batch-retry or --batch-poll without --batch, and a bad --batch-poll, before reading anything', async () => {
    for (const extra of [['--batch-retry', 'batch'], ['--batch-poll', '5'], ['--batch', '--batch-poll', '0'], ['--batch', '--batch-retry', 'later']]) {
      const r = await compareCli([...args(path.join(tmp.path, 'nowhere'), 'openai:gpt-4'), ...extra]);
      expect(r.code, r.out).toBe(2);
      expect(r.out).toMatch(/^parley compare: --batch-(retry|poll) /m);
    }
  });
});
