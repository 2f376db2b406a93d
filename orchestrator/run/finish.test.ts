import { describe, expect, it } from 'vitest';
import { META_LIMITS, MoveUsage, TurnMeta } from '../../protocol/index.js';
import { finishRun } from './finish.js';
import { RunError, RunErrorCode } from './run-error.js';

describe('finishRun: the summary never costs a finished run its records (issue 28)', () => {
  it('writes the stats as the run ending when it can', () => {
    const endings: unknown[] = [];
    const stats = finishRun({ records: [], interrupted: false, write: (e) => endings.push(e) }, () => new Date(0));
    expect(stats.episodes.total).toBe(0);
    expect(endings).toEqual([{ endedAt: new Date(0).toISOString(), interrupted: false, stats }]);
  });

  it('records a summary error with its code and throws one line that says a rerun repairs it', () => {
    const endings: Array<Record<string, unknown>> = [];
    let calls = 0;
    const write = (e: Record<string, unknown>) => {
      calls += 1;
      if (calls === 1) throw new Error('stats.usage.x.prompt: too big');
      endings.push(e);
    };
    let thrown: unknown;
    try {
      finishRun({ records: [], interrupted: false, write });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(RunError);
    expect((thrown as RunError).code).toBe(RunErrorCode.Summary);
    expect((thrown as RunError).message).toMatch(/record\(s\) are saved.*run the same command again to repair it/);
    expect((thrown as RunError).message).not.toContain('\n');
    expect(endings).toEqual([expect.objectContaining({ stats: null, summaryError: { code: RunErrorCode.Summary, message: 'stats.usage.x.prompt: too big' } })]);
  });
});

describe('per-move usage is bounded where it enters, totals are not', () => {
  it('refuses a move reporting more tokens than a move can use', () => {
    expect(MoveUsage.safeParse({ prompt: META_LIMITS.maxPromptTokens + 1, completion: 0 }).success).toBe(false);
    expect(TurnMeta.safeParse({ policy: 'x', latencyMs: 1, usage: { prompt: META_LIMITS.maxPromptTokens + 1, completion: 0 } }).success).toBe(false);
    expect(TurnMeta.safeParse({ policy: 'x', latencyMs: 1, usage: { prompt: 1000, completion: 10 } }).success).toBe(true);
  });
});
