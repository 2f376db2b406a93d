import { describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../../protocol/index.js';
import { MAX_DRAWS, PAPER_PROTOCOL, PARLEY_PROTOCOL } from '../../simulation/index.js';
import type { Scenario } from '../../scenarios/model.js';
import type { EpisodePlan } from '../episode-plan.js';
import { episodeId } from './plan.js';
import { drawOf, isUnscored, markOnArrival, markUnscored, owedRedraws } from './selection.js';

const scenario = { id: 'mf-1', pairId: 'p1' } as Scenario;
const first: EpisodePlan = { episodeId: episodeId({ scenarioId: 'mf-1', pairId: 'p1', mode: 'agents', specs: ['bot', 'bot'], repeat: 0 }), scenario, mode: 'agents', repeat: 0, idKey: { specs: ['bot', 'bot'] } };
const rec = (moves: number, over: Record<string, unknown> = {}) => ({ episodeId: 'e', status: 'ok', turns: Array.from({ length: moves }, () => ({})), ...over }) as unknown as EpisodeRecord;

describe('the first-valid selection rule', () => {
  it('marks 5 or fewer moves superseded (short), more counted, and nothing under all', () => {
    expect(markOnArrival(rec(5), PAPER_PROTOCOL).selection).toEqual({ status: 'superseded', reason: 'short' });
    expect(markOnArrival(rec(0), PAPER_PROTOCOL).selection).toEqual({ status: 'superseded', reason: 'short' });
    expect(markOnArrival(rec(6), PAPER_PROTOCOL).selection).toEqual({ status: 'counted' });
    expect(markOnArrival(rec(5, { status: 'failed' }), PAPER_PROTOCOL).selection).toEqual({ status: 'counted' });
    expect(markOnArrival(rec(2), PARLEY_PROTOCOL).selection).toBeUndefined();
    expect(markOnArrival(rec(2, { draw: MAX_DRAWS - 1 }), PAPER_PROTOCOL).selection).toEqual({ status: 'exhausted', reason: 'short' });
  });

  it('gives a re-draw its own id, leaving the first draw the id it always had', () => {
    const second = drawOf(first, 1);
    expect(second.draw).toBe(1);
    expect(second.episodeId).not.toBe(first.episodeId);
    expect(second.episodeId).toMatch(/^mf-1\.agents\.r0\.[0-9a-f]{12}$/);
    expect(drawOf(first, 1).episodeId).toBe(second.episodeId);
    expect(drawOf(first, 0).episodeId).toBe(first.episodeId);
  });

  it('owes the next draw while the latest recorded one is superseded, and none past a counted or unrecorded one', () => {
    const sup = { selection: { status: 'superseded' as const, reason: 'short' as const } };
    expect(owedRedraws([first], new Map())).toEqual([]);
    expect(owedRedraws([first], new Map([[first.episodeId, { selection: { status: 'counted' as const } }]]))).toEqual([]);
    expect(owedRedraws([first], new Map([[first.episodeId, sup]])).map((p) => p.draw)).toEqual([1]);
    const d1 = drawOf(first, 1).episodeId;
    expect(owedRedraws([first], new Map([[first.episodeId, sup], [d1, sup]])).map((p) => p.draw)).toEqual([2]);
    expect(owedRedraws([first], new Map<string, Pick<EpisodeRecord, 'selection'>>([[first.episodeId, sup], [d1, {}]]))).toEqual([]);
    // forks have no id key: never re-drawn
    expect(owedRedraws([{ ...first, idKey: undefined }], new Map([[first.episodeId, sup]]))).toEqual([]);
  });

  it('reads a judged episode with a seat left unscored as unscored, an unjudged one as not', () => {
    expect(isUnscored(undefined)).toBe(false);
    expect(isUnscored({ v: 1, judge: { seats: { a: { ok: true }, b: { ok: true } } } })).toBe(false);
    expect(isUnscored({ v: 1, judge: { seats: { a: { ok: true }, b: { ok: false } } } })).toBe(true);
  });

  it('--redraw marks only counted, ok, unscored draws', () => {
    const bad = { v: 1, judge: { seats: { a: { ok: false } } } };
    const rows = [
      rec(8, { selection: { status: 'counted' }, evaluation: bad }),
      rec(8, { selection: { status: 'counted' }, evaluation: { v: 1, judge: { seats: { a: { ok: true } } } } }),
      rec(2, { selection: { status: 'superseded', reason: 'short' }, evaluation: bad }),
      rec(8, { evaluation: bad }),
    ].map((record) => ({ record, raw: { ...record } as Record<string, unknown> }));
    const { raws, changed } = markUnscored(rows);
    expect(changed).toBe(1);
    expect(raws.map((r) => r['selection'])).toEqual([{ status: 'superseded', reason: 'unscored' }, { status: 'counted' }, { status: 'superseded', reason: 'short' }, undefined]);
  });
});
