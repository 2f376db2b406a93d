import { describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../../protocol/index.js';
import { computeStats } from './stats.js';

const usage = { prompt: 100, completion: 10, cached: 0 };

describe('run.json stats of a fork run', () => {
  it("count only the live turns' usage: the replayed prefix was spent (and counted) by the parent run", () => {
    const record: EpisodeRecord = {
      episodeId: 'f', runId: 'F', scenarioId: 's', pairId: 'p', repeat: 0, mode: 'agents', seats: [],
      turns: [0, 1, 2, 3].map((turn) => ({ turn, seat: turn % 2 ? 'B' : 'A', action: { type: 'speak', argument: 'x' }, atMs: turn, provider: 'openai', model: 'gpt-4o', usage, retries: 1 })),
      termination: { reason: 'max_turns' }, outcome: { kind: 'open', success: null }, errors: [], status: 'ok', startedAt: '2024-01-01T00:00:00.000Z', durationMs: 1,
      fork: { parentRun: 'R', parentEpisode: 'e', at: 3 },
    };
    const stats = computeStats([record]);
    expect(stats.usage).toEqual({ 'openai:gpt-4o': { prompt: 100, completion: 10, cached: 0, calls: 1 } });
    expect(stats.retries).toBe(1);
    expect(computeStats([{ ...record, fork: undefined } as EpisodeRecord]).usage['openai:gpt-4o']!.calls).toBe(4);
  });
});
