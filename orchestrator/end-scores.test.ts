import { describe, expect, it } from 'vitest';
import type { EpisodeRecord, Evaluation } from '../protocol/index.js';
import type { Scenario } from '../scenarios/model.js';
import { endScores, taskScore, type EpisodeScorer } from './end-scores.js';

/** Only what end scores read of a record: its status, its outcome and its seats. */
const record = (status: 'ok' | 'failed', outcome: EpisodeRecord['outcome']) =>
  ({ status, outcome, seats: [{ seat: 'agent1' }, { seat: 'agent2' }] }) as unknown as EpisodeRecord;
const mf = (success: boolean): EpisodeRecord['outcome'] => ({ kind: 'mutual_friends', selections: {}, answer: 'x', success });
const ctx = { scenario: {} as Scenario, protocol: undefined, signal: new AbortController().signal };
const evaluation = { v: 1 } as Evaluation;

describe('end scores (what each seat is told of its result)', () => {
  it('the task verdict for every seat; none for an open task or a failed episode', async () => {
    expect(taskScore(record('ok', mf(true)))).toEqual({ kind: 'mutual_friends', success: true });
    expect(taskScore(record('ok', { kind: 'open', success: null }))).toBeUndefined();
    const ok = await endScores(record('ok', mf(false)), undefined, ctx);
    expect([...ok.seats]).toEqual([['agent1', { task: { kind: 'mutual_friends', success: false } }], ['agent2', { task: { kind: 'mutual_friends', success: false } }]]);
    expect(ok.evaluation).toBeUndefined();
    expect((await endScores(record('ok', { kind: 'open', success: null }), undefined, ctx)).seats.size).toBe(0);
    const scorer: EpisodeScorer = async () => { throw new Error('must not be called'); };
    expect((await endScores(record('failed', mf(true)), scorer, ctx)).seats.size).toBe(0);
  });

  it("each seat gets its own judge result; the evaluation goes to the record", async () => {
    const scorer: EpisodeScorer = async () => ({
      evaluation,
      seats: {
        agent1: { ok: true, judge: 'openai:gpt-4', rubric: 'sotopia', scores: { goal: 7 } },
        agent2: { ok: false, judge: 'openai:gpt-4', rubric: 'sotopia', error: { code: 'judge/bad_json', message: 'unreadable' } },
      },
    });
    const got = await endScores(record('ok', mf(true)), scorer, ctx);
    expect(got.evaluation).toBe(evaluation);
    expect(got.seats.get('agent1')).toEqual({ task: { kind: 'mutual_friends', success: true }, judge: { ok: true, judge: 'openai:gpt-4', rubric: 'sotopia', scores: { goal: 7 } } });
    expect(got.seats.get('agent2')?.judge).toMatchObject({ ok: false, error: { code: 'judge/bad_json' } });
  });

  it('a scorer that throws (a bug) is an internal error on every seat, never a score', async () => {
    const got = await endScores(record('ok', mf(true)), async () => { throw new Error('boom'); }, ctx);
    expect(got.evaluation).toBeUndefined();
    for (const seat of ['agent1', 'agent2']) expect(got.seats.get(seat)?.judge).toEqual({ ok: false, judge: 'unknown', rubric: 'unknown', error: { code: 'internal/error', message: 'boom' } });
  });
});
