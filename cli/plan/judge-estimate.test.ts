import { describe, expect, it } from 'vitest';
import { SOTOPIA_RUBRIC } from '../../evaluator/rubric/builtin.js';
import type { JudgePlan } from '../../evaluator/plan-judging.js';
import { judgePlanLines } from './judge-estimate.js';

const plan: JudgePlan = { spec: 'openai:gpt-4', episodes: 10, skippedFailed: 0, skippedDone: 0, calls: 10, promptChars: 400_000, seatDimensions: 140, dealCalls: 0 };
const ctx = { dir: 'runs/r', rubric: SOTOPIA_RUBRIC, visibility: 'full', view: 'parley' };
const dollars = (line: string) => [...line.matchAll(/~\$(\d+\.\d+)/g)].map((m) => Number(m[1]));

describe('eval --dry-run cost lines', () => {
  it('under --batch, price the calls at half the live price and say so', () => {
    const live = judgePlanLines([plan], ctx).find((l) => l.startsWith('judge '))!;
    const batch = judgePlanLines([plan], { ...ctx, batch: true });
    const line = batch.find((l) => l.startsWith('judge '))!;
    const [batchUsd, liveUsd] = dollars(line);
    expect(line).toContain('at the batch price');
    expect(liveUsd).toBe(dollars(live)[0]);
    expect(batchUsd).toBeCloseTo(liveUsd! / 2, 4);
    expect(batch.some((l) => l.startsWith('--batch:'))).toBe(true);
  });
});
