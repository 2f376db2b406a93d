import { describe, expect, it } from 'vitest';
import { TurnMeta } from './meta.js';
import { EpisodeRecord, ScriptWriterRecord, TurnRecord, turnProvenance } from './record.js';

describe('record shapes come from one definition', () => {
  it('every field a move reports is on its turn record, or on its seat (policy, params): a new TurnMeta field needs a decision', () => {
    const seatLevel = ['policy', 'params'];
    for (const field of Object.keys(TurnMeta.shape)) {
      if (seatLevel.includes(field)) continue;
      expect(Object.keys(TurnRecord.shape), `TurnMeta.${field}`).toContain(field);
      expect(Object.keys(ScriptWriterRecord.shape), `TurnMeta.${field}`).toContain(field);
    }
  });

  it('turnProvenance copies the set fields of a move meta, and only those', () => {
    const meta: TurnMeta = { policy: 'openai:m', params: { temperature: 1 }, provider: 'openai', model: 'm', latencyMs: 12, usage: { prompt: 3, completion: 4, cached: 0 }, retries: 1 };
    expect(turnProvenance(meta)).toEqual({ provider: 'openai', model: 'm', latencyMs: 12, usage: { prompt: 3, completion: 4, cached: 0 }, retries: 1 });
    expect(turnProvenance({ policy: 'bot', latencyMs: 0 })).toEqual({ latencyMs: 0 });
  });

  it('the record schema holds what the engine produces: termination and episode errors', () => {
    const shape = EpisodeRecord.shape;
    expect(shape.termination.parse({ reason: 'leave', seat: 'a' })).toEqual({ reason: 'leave', seat: 'a' });
    expect(() => shape.termination.parse({ reason: 'bored' })).toThrow();
    expect(shape.errors.parse([{ code: 'policy/failed', message: 'x', seat: 'a', turn: 3 }])).toHaveLength(1);
  });

  it('fork provenance is optional: records from before forks stay valid, a fork record keeps its parent, turn and live lines', () => {
    const base = { episodeId: 'e', runId: 'r', scenarioId: 's', pairId: 'p', repeat: 0, mode: 'agents', seats: [], turns: [], termination: { reason: 'max_turns' }, outcome: { kind: 'open', success: null }, errors: [], status: 'ok', startedAt: 'x', durationMs: 1 };
    expect(EpisodeRecord.parse(base).fork).toBeUndefined();
    const fork = { parentRun: 'R', parentEpisode: 'ep', at: 4, reveal: ['agent2.goal:agent1'], liveFromLine: { agent1: 5, agent2: 5 } };
    expect(EpisodeRecord.parse({ ...base, fork }).fork).toEqual(fork);
    expect(() => EpisodeRecord.parse({ ...base, fork: { ...fork, at: -1 } })).toThrow();
  });
});
