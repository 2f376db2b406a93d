import { describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../protocol/index.js';
import { selectUnits } from './select.js';
import type { SourceEpisode } from './source.js';

function source(id: string, o: { scenarioId?: string; mode?: EpisodeRecord['mode']; goals?: [number, number] | null; failed?: boolean; model?: string } = {}): SourceEpisode {
  const record: EpisodeRecord = {
    episodeId: id, runId: 'r', scenarioId: o.scenarioId ?? 's-1', pairId: 'p', repeat: 0, mode: o.mode ?? 'agents',
    seats: ['agent1', 'agent2'].map((seat) => ({ seat, character: seat, pid: 1, policy: `openai:${o.model ?? 'gpt-3.5-turbo'}`, provider: 'openai', model: o.model ?? 'gpt-3.5-turbo', live: true })),
    turns: [{ turn: 0, seat: 'agent1', action: { type: 'speak', argument: 'hi' }, atMs: 1 }],
    termination: { reason: 'max_turns' }, outcome: { kind: 'open', success: null },
    errors: o.failed ? [{ code: 'llm/timeout', message: 't' }] : [], status: o.failed ? 'failed' : 'ok', startedAt: '', durationMs: 1,
  };
  const goals = o.goals === undefined ? [5, 5] : o.goals;
  return { runDir: 'runs/r', record, scenario: null, scores: goals ? { agent1: { ok: true, scores: { goal: goals[0]! } }, agent2: { ok: true, scores: { goal: goals[1]! } } } : null };
}
const picked = (r: ReturnType<typeof selectUnits>) => r.units.map((u) => `${u.source.record.episodeId}/${u.seat}`);

describe('selectUnits', () => {
  const sources = [
    source('a', { goals: [8, 3] }),
    source('b', { goals: [7, 9] }),
    source('c', { goals: null }),
    source('d', { goals: [10, 10], failed: true }),
    source('e', { goals: [9, 9], scenarioId: 's-2', model: 'open-mixtral-8x7b' }),
    source('f', { goals: [9, 1], scenarioId: 's-2' }),
  ];

  it('excludes episodes with errors always, and unevaluated ones when scores are needed, counting both', () => {
    const all = selectUnits(sources, {});
    expect(picked(all)).toHaveLength(10);
    expect(all.excluded).toEqual({ errors: 2 });
    const min = selectUnits(sources, { min: { goal: 8 } });
    expect(picked(min)).toEqual(['a/agent1', 'b/agent2', 'e/agent1', 'e/agent2', 'f/agent1']);
    expect(min.excludedEpisodes).toEqual({ errors: 1, notEvaluated: 1 });
    expect(min.excluded).toEqual({ errors: 2, notEvaluated: 2, belowMin: 3 });
  });

  it('top-per-scenario keeps the K best per scenario and seat, ties to the first episode id', () => {
    expect(picked(selectUnits(sources, { top: { k: 1, by: 'goal' } })).sort()).toEqual(['a/agent1', 'b/agent2', 'e/agent1', 'e/agent2']);
    // e and f tie on agent1 (9): e comes first by id.
    expect(picked(selectUnits(sources, { top: { k: 2, by: 'goal' } })).sort()).toEqual(['a/agent1', 'a/agent2', 'b/agent1', 'b/agent2', 'e/agent1', 'e/agent2', 'f/agent1', 'f/agent2']);
  });

  it('filters by model (name or provider:model), seat and mode', () => {
    expect(picked(selectUnits(sources, { models: ['mistral:open-mixtral-8x7b'] }))).toEqual([]);
    expect(picked(selectUnits(sources, { models: ['open-mixtral-8x7b'], seats: ['agent2'] }))).toEqual(['e/agent2']);
    const r = selectUnits(sources, { modes: ['script'] });
    expect(r.units).toEqual([]);
    expect(r.excluded.mode).toBe(10);
  });
});
