import { describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../../protocol/index.js';
import { ProgressReporter } from './progress-reporter.js';

const rec = (seat: string): EpisodeRecord => ({
  episodeId: 'e1', runId: 'r', scenarioId: '01H8ZQ6Q3V9Y0ABCDEF', pairId: 'p', repeat: 0, mode: 'agents', seats: [],
  turns: [{ turn: 0, seat, action: { type: 'speak', argument: 'hi' }, atMs: 1, provider: 'openai', model: 'gpt-3.5-turbo', usage: { prompt: 1000, completion: 200, cached: 0 } }],
  termination: { reason: 'max_turns' }, outcome: { kind: 'open', success: null }, errors: [], status: 'ok', startedAt: '2026-01-01T00:00:00Z', durationMs: 10,
});

describe('progress lines (issue 16)', () => {
  it('name the scenario by its codename, and do not count replayed calls as spent', () => {
    const lines: string[] = [];
    const p = new ProgressReporter({
      total: 2, alreadyDone: 0, log: (l) => lines.push(l), intervalMs: 60_000,
      scenarioName: () => 'borrow_money_from_friend',
      isReplayed: (_e, seat) => seat === 'A',
    });
    p.episode(rec('A'));
    expect(lines[0]).toContain(' borrow_money_from_friend ');
    expect(lines[0]).not.toContain('01H8ZQ6Q3V9Y0ABCDEF');
    expect(p.summary()).toContain('0 tokens · ~$0.0000 spent (replayed calls free)');
    p.episode(rec('B'));
    expect(p.summary()).toContain('1.2k tokens');
    p.close();
  });
});
