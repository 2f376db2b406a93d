import { describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../../protocol/index.js';
import { ProgressReporter } from './progress-reporter.js';
import { computeStats } from './stats.js';

const usage = { prompt: 1000, completion: 100, cached: 0 };
const seat = (id: string, provenance?: 'reported' | 'trusted') => ({ seat: id, character: id, pid: null, policy: 'openai:gpt-4o', provider: 'openai', model: 'gpt-4o', live: true, ...(provenance ? { provenance } : {}) });

function record(over: Partial<EpisodeRecord>): EpisodeRecord {
  return {
    episodeId: 'e', runId: 'R', scenarioId: 's', pairId: 'p', repeat: 0, mode: 'agents', seats: [seat('A'), seat('B')],
    turns: [0, 1, 2, 3].map((turn) => ({ turn, seat: turn % 2 ? 'B' : 'A', action: { type: 'speak', argument: 'x' }, atMs: turn, provider: 'openai', model: 'gpt-4o', usage })),
    termination: { reason: 'max_turns' }, outcome: { kind: 'open', success: null }, errors: [], status: 'ok', startedAt: '2024-01-01T00:00:00.000Z', durationMs: 1,
    ...over,
  } as EpisodeRecord;
}

/** The `~$…` of the progress line after these records, and run.json's cost of the same records. */
function both(records: EpisodeRecord[]): { progress: string; runJson: number } {
  const lines: string[] = [];
  const p = new ProgressReporter({ total: records.length, alreadyDone: 0, log: (l) => lines.push(l), intervalMs: 60_000 });
  for (const r of records) p.episode(r);
  p.close();
  const cost = computeStats(records).cost.usd!;
  return { progress: /~\$([0-9.]+)/.exec(p.summary())?.[1] ?? '', runJson: cost };
}

describe('live progress prices exactly what run.json will (issue 37)', () => {
  it('leaves out usage a remote agent only reported (serve without --trust-remote-usage) and a fork\'s replayed prefix', () => {
    const cases = [
      [record({})],
      [record({ seats: [seat('A'), seat('B', 'reported')] })],
      [record({ seats: [seat('A', 'reported'), seat('B', 'reported')] })],
      [record({ seats: [seat('A'), seat('B', 'trusted')] })],
      [record({ fork: { parentRun: 'P', parentEpisode: 'e', at: 3 } })],
    ];
    const figures = cases.map(both);
    for (const f of figures) expect(Number(f.progress)).toBeCloseTo(f.runJson, 4);
    // The reported seat's half is not priced; all-reported prices nothing, as run.json's $0.
    expect(figures[1]!.runJson).toBeCloseTo(figures[0]!.runJson / 2, 6);
    expect(figures[2]!.progress).toBe('0.0000');
    expect(figures[3]!.runJson).toBeCloseTo(figures[0]!.runJson, 6);
  });
});
