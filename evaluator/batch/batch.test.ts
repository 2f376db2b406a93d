import { describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../../protocol/index.js';
import { judgeEpisode } from '../judge/judge.js';
import { SOTOPIA_RUBRIC } from '../rubric/builtin.js';
import type { RunDir } from '../run-dir.js';
import { requestedSeats, ScriptedClient, validReply } from '../testing/fake-judge.js';
import { clScenario, episode, mfScenario } from '../testing/fixtures.js';
import { BatchAnsweredClient } from './batch-answered-client.js';
import { batchEpisodes, batchJudgeRequests, type BatchSelection } from './batch-requests.js';
import { collectBatchOutput, readBatchOutput, type BatchAnswer } from './batch-results.js';

/** The batch path in memory: the requests it sends, how it reads the output file, and how replies reach the judge. */
const mf = mfScenario();
const cl = clScenario();
const mfEpisode = episode({ scenario: mf, moves: [['a', 'speak', 'Do you know Jane Doe?'], ['b', 'action', 'select Jane Doe']] });
const clEpisode = episode({ scenario: cl, moves: [['a', 'speak', 'Would you take $70?'], ['b', 'speak', 'Deal.']] });
const failed = episode({ scenario: mf, mode: 'script', moves: [['a', null]], status: 'failed' });

function runOf(records: EpisodeRecord[]): RunDir {
  return { dir: '/nowhere', run: null, scenarios: new Map([[mf.id, mf], [cl.id, cl]]), episodes: records.map((record, line) => ({ record, raw: { ...record }, line })), tornBytes: 0 };
}
const sel: BatchSelection = { spec: 'openai:gpt-4', visibility: 'full', view: 'parley', rubric: SOTOPIA_RUBRIC };

/** A judge that answers every request validly: scores for the seats its schema asks for, or the deal. */
const answerFor = (req: { json?: { schema: Record<string, unknown> } }) =>
  requestedSeats(req).length ? JSON.stringify(validReply(requestedSeats(req), { score: () => 0 })) : JSON.stringify({ deal: { reasoning: 'r', deal_reached: true, price: 70 } });
const outputLine = (customId: string, status: number, body: unknown) => JSON.stringify({ id: 'x', custom_id: customId, response: { status_code: status, request_id: 'r', body }, error: null });
const completion = (content: string) => ({ model: 'gpt-4-0613', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 100, completion_tokens: 20 } });

describe('batch judge requests', () => {
  it('are exactly the first attempts a live judge sends, one custom_id each, failed episodes left out', async () => {
    const run = runOf([mfEpisode, failed, clEpisode]);
    const episodes = batchEpisodes(run, { ...sel, missingOnly: false });
    expect(episodes).toEqual([mfEpisode.episodeId, clEpisode.episodeId]);
    const requests = batchJudgeRequests(run, episodes, sel);
    // MutualFriends: one call; Craigslist: the judge call and the deal question.
    expect(requests.map((r) => r.customId)).toEqual([`${mfEpisode.episodeId}#0`, `${clEpisode.episodeId}#0`, `${clEpisode.episodeId}#1`]);
    const live = new ScriptedClient((req) => answerFor(req));
    for (const e of [mfEpisode, clEpisode]) await judgeEpisode(e, e === mfEpisode ? mf : cl, { client: live, ...sel });
    const strip = (r: { messages: unknown; json?: unknown; temperature?: number | undefined }) => ({ messages: r.messages, json: r.json, temperature: r.temperature });
    expect(requests.map((r) => strip(r.request)).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual(live.requests.map(strip).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))));
  });

  it('leave out, with missingOnly, the episodes this judge already scored on this rubric', async () => {
    const done = await judgeEpisode(mfEpisode, mf, { client: new ScriptedClient((req) => answerFor(req)), ...sel });
    const scored = { ...mfEpisode, evaluation: { v: 1 as const, judge: done } };
    const run = runOf([scored, clEpisode]);
    expect(batchEpisodes(run, { ...sel, missingOnly: true })).toEqual([clEpisode.episodeId]);
    expect(batchEpisodes(run, { ...sel, missingOnly: false })).toEqual([mfEpisode.episodeId, clEpisode.episodeId]);
  });
});

describe('batch output', () => {
  it('maps lines to answers by the custom_ids Parley sent, and counts the rest without trusting them', () => {
    const sent = new Set(['e#0', 'e#1', 'e#2', 'e#3']);
    const text = [
      outputLine('e#0', 200, completion('{"ok":1}')),
      outputLine('e#1', 500, { error: { message: 'boom' } }),
      JSON.stringify({ id: 'y', custom_id: 'e#2', response: null, error: { code: 'batch_expired', message: 'expired' } }),
      outputLine('e#3', 200, { choices: [] }),
      outputLine('../../etc/passwd', 200, completion('x')),
      'not json',
      JSON.stringify({ custom_id: 5 }),
      outputLine('e#0', 200, completion('a second answer')),
      '',
    ].join('\n');
    const out = readBatchOutput(text, sent);
    expect(out.unknownIds).toBe(1);
    expect(out.unreadable).toBe(2);
    // Answered twice: which is its own? Neither is used (issue 35); the request is judged again.
    expect(out.answers.get('e#0')).toEqual({ ok: false, message: 'the batch output answered this request more than once' });
    expect(out.duplicates).toBe(1);
    const once = readBatchOutput(outputLine('e#0', 200, completion('{"ok":1}')), sent);
    expect(once.answers.get('e#0')).toEqual({ ok: true, content: '{"ok":1}', usage: { prompt: 100, completion: 20, cached: 0 }, model: 'gpt-4-0613' });
    expect(out.answers.get('e#1')).toEqual({ ok: false, message: 'batch request failed: HTTP 500: boom' });
    expect(out.answers.get('e#2')).toEqual({ ok: false, message: 'batch request failed: batch_expired: expired' });
    expect(out.answers.get('e#3')?.ok).toBe(false);
    expect(out.answers.has('../../etc/passwd')).toBe(false);
  });
});

describe('BatchAnsweredClient', () => {
  it('gives the judge the batch replies, so the record equals a live judgement but for timing', async () => {
    const run = runOf([clEpisode]);
    const requests = batchJudgeRequests(run, [clEpisode.episodeId], sel);
    const answers = new Map<string, BatchAnswer>(requests.map((r) => [r.customId, { ok: true, content: answerFor(r.request), usage: { prompt: 10, completion: 5, cached: 0 }, model: 'gpt-4' }]));
    const live = new ScriptedClient(() => new Error('no live call expected'));
    const client = new BatchAnsweredClient(live, requests, answers);
    const now = () => new Date('2024-01-01T00:00:00Z');
    const batched = await judgeEpisode(clEpisode, cl, { client, ...sel, now });
    const reference = await judgeEpisode(clEpisode, cl, { client: new ScriptedClient((req) => answerFor(req)), ...sel, now });
    expect(live.requests).toHaveLength(0);
    expect(client.answered).toBe(2);
    expect({ ...batched, judge: { ...batched.judge, provider: 'x', model: 'x' }, latencyMs: 0 }).toEqual({ ...reference, judge: { ...reference.judge, provider: 'x', model: 'x' }, latencyMs: 0 });
  });

  it('sends live what the batch failed, and the second attempt after an out-of-range batch reply', async () => {
    const run = runOf([clEpisode]);
    const requests = batchJudgeRequests(run, [clEpisode.episodeId], sel);
    const [judgeCall, dealCall] = requests;
    const seats = requestedSeats(judgeCall!.request);
    const outOfRange = JSON.stringify(validReply(seats, { score: () => 99 }));
    const answers = new Map<string, BatchAnswer>([
      [judgeCall!.customId, { ok: true, content: outOfRange, usage: { prompt: 1, completion: 1, cached: 0 }, model: null }],
      [dealCall!.customId, { ok: false, message: 'batch request failed: HTTP 500' }],
    ]);
    const live = new ScriptedClient((req) => answerFor(req));
    const client = new BatchAnsweredClient(live, requests, answers);
    const j = await judgeEpisode(clEpisode, cl, { client, ...sel });
    expect(client.answered).toBe(1);
    expect(live.requests).toHaveLength(2);
    expect(Object.values(j.seats).every((s) => s.ok)).toBe(true);
    expect(j.deal?.ok).toBe(true);
    expect(j.calls).toBe(3);
  });
});

describe('batch answers keyed by custom_id end to end (issue 35, contract 6)', () => {
  // Two repeats with identical dialogues: their judge requests read the same, only their custom_ids differ.
  const first = episode({ scenario: mf, repeat: 0, moves: [['a', 'speak', 'Do you know Jane Doe?'], ['b', 'action', 'select Jane Doe']] });
  const second = episode({ scenario: mf, repeat: 1, moves: [['a', 'speak', 'Do you know Jane Doe?'], ['b', 'action', 'select Jane Doe']] });
  const run = runOf([first, second]);
  const requests = batchJudgeRequests(run, [first.episodeId, second.episodeId], sel);
  const seats = requestedSeats(requests[0]!.request);
  const scored = (n: number) => JSON.stringify(validReply(seats, { score: (d) => (d === 'goal' ? n : 0) }));
  const goal = (j: Awaited<ReturnType<typeof judgeEpisode>>) => Object.values(j.seats).map((s) => (s.ok ? s.scores.goal?.score : null));

  it("each episode gets its own batch verdict, even when the other's first reply is retried", async () => {
    expect(requests.map((r) => r.request.messages)).toEqual([requests[0]!.request.messages, requests[0]!.request.messages]);
    const answers = new Map<string, BatchAnswer>([
      // The first episode's batch reply is out of range: its second attempt must go live, not take the second's.
      [requests[0]!.customId, { ok: true, content: scored(99), usage: { prompt: 1, completion: 1, cached: 0 }, model: null }],
      [requests[1]!.customId, { ok: true, content: scored(3), usage: { prompt: 1, completion: 1, cached: 0 }, model: null }],
    ]);
    const live = new ScriptedClient(() => scored(7));
    const client = new BatchAnsweredClient(live, requests, answers);
    const a = await judgeEpisode(first, mf, { client: client.forEpisode(first.episodeId), ...sel });
    const b = await judgeEpisode(second, mf, { client: client.forEpisode(second.episodeId), ...sel });
    expect(goal(a)).toEqual([7, 7]);
    expect(goal(b)).toEqual([3, 3]);
    expect(live.requests).toHaveLength(1);
  });

  it('a custom_id answered twice counts as failed; an unreadable output file is reported with its code', async () => {
    const sent = new Set(requests.map((r) => r.customId));
    const twice = [outputLine(requests[0]!.customId, 200, completion(scored(1))), outputLine(requests[0]!.customId, 200, completion(scored(2))), outputLine(requests[1]!.customId, 200, completion(scored(3)))].join('\n');
    const out = readBatchOutput(twice, sent);
    expect(out.duplicates).toBe(1);
    expect(out.answers.get(requests[0]!.customId)).toMatchObject({ ok: false });
    expect(out.answers.get(requests[1]!.customId)).toMatchObject({ ok: true });
    const gone = await collectBatchOutput({ content: async () => { throw new Error('404 No such File object: ../x'); } }, ['../x', null], sent);
    expect(gone.answers.size).toBe(0);
    expect(gone.fileErrors).toEqual([expect.stringMatching(/^judge\/batch_output: output file "\.\.\/x" could not be read \(404/)]);
  });
});
