import { describe, expect, it } from 'vitest';
import { ErrorCode, type EpisodeRecord } from '../../protocol/index.js';
import { RunStats } from '../../run-dir/index.js';
import { computeStats } from './stats.js';

const failure = { code: ErrorCode.PolicyUnparsable, message: 'unreadable reply after one reformat request' };

function record(over: Partial<EpisodeRecord>): EpisodeRecord {
  return {
    episodeId: 'e', runId: 'r', scenarioId: 's', pairId: 'p', repeat: 0, mode: 'agents', seats: [], turns: [],
    termination: { reason: 'max_turns' }, outcome: { kind: 'open', success: null }, errors: [], status: 'ok', startedAt: '2024-01-01T00:00:00.000Z', durationMs: 1,
    ...over,
  };
}

describe('run.json stats count unreadable replies recorded as none', () => {
  it('agent turns and scripts apart; ordinary nones are not counted', () => {
    const agents = record({
      turns: [
        { turn: 0, seat: 'A', action: { type: 'none', argument: '' }, atMs: 0, unparsable: failure, repairs: { lenient: 0, reformat: 1 } },
        { turn: 1, seat: 'B', action: { type: 'none', argument: '' }, atMs: 1 },
        { turn: 2, seat: 'A', action: { type: 'none', argument: '' }, atMs: 2, unparsable: failure, repairs: { lenient: 0, reformat: 1 } },
      ],
    });
    const script = record({ episodeId: 'e2', mode: 'script', scriptWriter: { pid: 1, policy: 'openai:gpt-3.5-turbo', unparsable: failure, repairs: { lenient: 0, reformat: 1 } } });
    const stats = computeStats([agents, script]);
    expect(stats).toMatchObject({ unparsableTurns: 2, unparsableScripts: 1, repairs: { reformat: 3 }, episodes: { ok: 2, failed: 0 } });
  });

  it('a run.json written before the count existed reads as zero', () => {
    const old = computeStats([]) as Record<string, unknown>;
    delete old.unparsableTurns;
    delete old.unparsableScripts;
    expect(RunStats.parse(old)).toMatchObject({ unparsableTurns: 0, unparsableScripts: 0 });
  });
});
